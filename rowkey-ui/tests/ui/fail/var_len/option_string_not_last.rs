use rowkey::RowKey;

#[derive(RowKey)]
struct Listing {
    region: Option<String>,
    id: u64,
}

fn main() {}
