use rowkey::RowKey;

#[derive(RowKey)]
struct ByName {
    #[salt(buckets = 16, modulo)]
    #[sep]
    name: String,
    id: u32,
}

fn main() {}
