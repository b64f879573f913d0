use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 8)]
struct K {
    a: u64,
    b: u64,
}

fn main() {}
