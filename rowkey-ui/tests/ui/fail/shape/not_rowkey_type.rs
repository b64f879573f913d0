use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    id: u32,
    ttl: std::time::Duration,
}

fn main() {}
