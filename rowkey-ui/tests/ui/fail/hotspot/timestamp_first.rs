use rowkey::RowKey;

#[derive(RowKey)]
struct Order {
    created_ms: i64,
    order_id: u64,
}

fn main() {}
