use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(delimited = b""))]
struct Empty {
    a: String,
    b: String,
}

#[derive(RowKey)]
#[rowkey(bigtable(delimited = b"123456789012345678901234567890123456789012345678901"))]
struct TooLong {
    a: String,
    b: String,
}

fn main() {}
