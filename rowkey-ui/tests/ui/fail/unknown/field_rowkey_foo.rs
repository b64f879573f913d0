use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[rowkey(foo)]
    id: u64,
}

fn main() {}
