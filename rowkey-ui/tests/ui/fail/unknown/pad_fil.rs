use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[pad(4, fil = b' ')]
    code: String,
    id: u32,
}

fn main() {}
