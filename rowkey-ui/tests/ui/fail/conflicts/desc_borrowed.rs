use rowkey::RowKey;

#[derive(RowKey)]
struct Borrowed<'a> {
    #[desc]
    #[sep]
    name: &'a str,
    #[reverse]
    #[pad(4)]
    code: &'a [u8],
}

fn main() {}
