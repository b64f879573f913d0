use rowkey::RowKey;

#[derive(RowKey)]
struct SignedBucket {
    #[salt(buckets = 16, modulo)]
    ts: i64,
    id: u32,
}

fn main() {}
