use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[pad(0)]
    host: String,
    id: u32,
}

fn main() {}
