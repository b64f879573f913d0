use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(singleton))]
struct Key {
    a: String,
    b: i64,
}

fn main() {}
