use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[pad(2)]
    active: bool,
    id: u32,
}

fn main() {}
