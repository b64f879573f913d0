use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code))]
struct Key {
    a: u32,
    b: Option<String>,
    c: f64,
    d: i64,
}

fn main() {}
