use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[salt(bucket = 16)]
    id: u64,
}

fn main() {}
