use rowkey::RowKey;

#[derive(RowKey)]
struct Nothing;

fn main() {}
