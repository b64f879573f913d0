use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    id: u32,
    #[reverse]
    phone: String,
}

fn main() {}
