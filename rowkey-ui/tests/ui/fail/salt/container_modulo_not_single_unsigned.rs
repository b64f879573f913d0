use rowkey::RowKey;

// `value % N` of the whole key needs a key of one unsigned integer.
#[derive(RowKey)]
#[rowkey(salt(buckets = 8, modulo))]
struct TwoFields {
    hour: u32,
    host: u16,
}

#[derive(RowKey)]
#[rowkey(salt(buckets = 8, modulo))]
struct Signed {
    delta: i64,
}

fn main() {}
