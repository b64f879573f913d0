use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    pos: (u32, u32),
}

fn main() {}
