use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[hash_prefix(17, raw)]
    user_id: u64,
}

fn main() {}
