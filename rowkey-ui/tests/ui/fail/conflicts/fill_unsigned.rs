use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[pad(6, fill = b' ')]
    num: u32,
    id: u32,
}

fn main() {}
