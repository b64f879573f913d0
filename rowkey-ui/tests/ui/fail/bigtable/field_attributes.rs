use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(bigtable(ordered_code))]
struct Key {
    #[salt(buckets = 4)]
    a: String,
    #[desc]
    b: i64,
    #[hash_prefix(4)]
    c: String,
    #[sep]
    d: String,
}

fn main() {}
