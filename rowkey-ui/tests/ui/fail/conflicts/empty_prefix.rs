// A container prefix is a non-empty byte string.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix = b"")]
struct Empty {
    id: u32,
}

#[derive(RowKey)]
#[rowkey(prefix = 7)]
struct NotBytes {
    id: u32,
}

fn main() {}
