use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Both {
    #[salt(buckets = 8)]
    a: u32,
    b: u32,
}

fn main() {}
