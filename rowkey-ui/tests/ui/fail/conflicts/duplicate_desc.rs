use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    id: u32,
    #[desc]
    #[desc]
    score: u64,
}

fn main() {}
