use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code))]
struct Key {
    _key: String,
    _timestamp: i64,
}

fn main() {}
