// Phoenix: "PK columns may not be both fixed width and nullable".
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Reading {
    sensor: String,
    value: Option<i32>,
}

fn main() {}
