use rowkey::RowKey;

#[derive(RowKey)]
struct TooMany {
    #[salt(buckets = 70000)]
    a: u32,
}

fn main() {}
