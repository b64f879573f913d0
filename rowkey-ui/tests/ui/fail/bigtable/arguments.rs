use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable)]
struct Bare {
    a: String,
}

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code, singleton))]
struct Two {
    a: String,
}

#[derive(RowKey)]
#[rowkey(bigtable(ordered))]
struct Unknown {
    a: String,
}

#[derive(RowKey)]
#[rowkey(bigtable(big_endian))]
struct NoEncoding {
    a: i64,
}

fn main() {}
