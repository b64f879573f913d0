use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(delimited = b"#"))]
struct Delimited {
    a: String,
    b: String,
}

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code, big_endian))]
struct BigEndian {
    a: String,
    n: i64,
}

fn main() {
    let _ = Delimited::scan().a_range("a".to_owned().."b".to_owned());
    let _ = BigEndian::scan().a("x").n_range(0..10);
    // fine: the last delimited field, and starts-with
    let _ = Delimited::scan().a("x").b_range("a".to_owned().."b".to_owned());
    let _ = Delimited::scan().a_starts_with("x");
}
