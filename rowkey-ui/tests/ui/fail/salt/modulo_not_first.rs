use rowkey::RowKey;

#[derive(RowKey)]
struct Bucketed {
    host: u32,
    #[salt(buckets = 16, modulo)]
    ts: u64,
}

fn main() {}
