use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code))]
struct Key<'a> {
    a: &'a str,
    b: i64,
}

fn main() {}
