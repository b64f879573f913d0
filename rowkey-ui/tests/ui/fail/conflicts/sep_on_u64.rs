use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[sep]
    id: u64,
    #[sep]
    name: String,
}

fn main() {}
