use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[pad(8)]
    #[sep]
    host: String,
    id: u32,
}

fn main() {}
