use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code))]
struct Key {
    a: String,
    b: Box<str>,
}

fn main() {}
