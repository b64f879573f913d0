use rowkey::RowKey;

#[derive(RowKey)]
struct Twice {
    #[salt(buckets = 16)]
    a: u32,
    #[salt(buckets = 8)]
    b: u32,
}

fn main() {}
