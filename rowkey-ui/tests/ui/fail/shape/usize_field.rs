use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    id: usize,
}

fn main() {}
