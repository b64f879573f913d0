use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    Click,
    Purchase { amount: u64 },
}

fn main() {}
