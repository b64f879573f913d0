use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    id: u32,
    tags: Vec<u32>,
}

fn main() {}
