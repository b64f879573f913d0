// Types with no Phoenix column type: char, 128-bit integers (syntactic), and a type that does
// not implement rowkey::phoenix::PhoenixType (a nested key).
use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    a: u32,
}

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Odd {
    c: char,
    big: u128,
}

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Nested {
    inner: Inner,
    id: i64,
}

fn main() {}
