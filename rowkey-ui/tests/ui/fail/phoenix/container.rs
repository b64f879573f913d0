// `phoenix(..)` takes only `row_key_order_optimizable = false`; it applies to key structs,
// which cannot be generic.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix(optimized = true))]
struct Unknown {
    id: i64,
}

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Generic<T> {
    id: T,
}

#[derive(RowKey)]
#[rowkey(phoenix)]
enum Kind {
    A,
    B,
}

fn main() {}
