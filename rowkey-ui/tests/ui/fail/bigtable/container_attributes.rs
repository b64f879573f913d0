use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(delimited = b"#"), salt(buckets = 4), prefix = b"t1")]
struct Salted {
    a: String,
    b: i64,
}

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code), phoenix)]
struct Both {
    a: String,
}

fn main() {}
