use rowkey::RowKey;

#[derive(RowKey)]
struct NoBuckets {
    #[salt(buckets = 0)]
    a: u32,
}

fn main() {}
