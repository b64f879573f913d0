use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[pad(6)]
    delta: i32,
    id: u32,
}

fn main() {}
