use rowkey::RowKey;

// The constant prefix counts: 4 + 8 = 12 bytes.
#[derive(RowKey)]
#[rowkey(prefix = b"t42_", max_len = 10)]
struct K {
    a: u64,
}

fn main() {}
