use rowkey::RowKey;

// The salt counts, one byte up to 256 buckets and two above (the derive's own copy of the rule
// of `rowkey::salt::width`; rowkey-core/tests/salt_width.rs pins the other side): 1 + 8 = 9 bytes
// here, and 2 + 8 = 10 below.
#[derive(RowKey)]
#[rowkey(max_len = 8)]
struct At256 {
    #[salt(buckets = 256)]
    id: u64,
}

#[derive(RowKey)]
#[rowkey(max_len = 9)]
struct At257 {
    #[salt(buckets = 257)]
    id: u64,
}

fn main() {}
