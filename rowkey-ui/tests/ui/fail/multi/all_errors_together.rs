use rowkey::RowKey;

// Several independent mistakes in one struct: every one is reported in a single compile.
#[derive(RowKey)]
#[rowkey(max_len = 4)]
struct Everything {
    #[reverse_ts]
    created_ms: i64,
    host: String,
    #[salt(buckets = 0)]
    shard: u32,
    #[hash_prefix(40)]
    #[sep]
    user: String,
    #[pad(8)]
    #[sep]
    region: String,
    #[pad(4)]
    delta: i32,
    count: usize,
    #[desc]
    #[desc]
    last: u8,
}

fn main() {}
