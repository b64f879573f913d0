// A Phoenix key takes Phoenix's salt: SALT_BUCKETS over the whole key, at most 256 buckets.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix, salt(buckets = 300))]
struct TooMany {
    id: i64,
}

#[derive(RowKey)]
#[rowkey(phoenix, salt(buckets = 4, fields(id)))]
struct Chosen {
    id: i64,
    seq: i32,
}

fn main() {}
