use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(maxlen = 3)]
struct K {
    id: u16,
}

fn main() {}
