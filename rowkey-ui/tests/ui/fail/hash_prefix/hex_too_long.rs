use rowkey::RowKey;

#[derive(RowKey)]
struct User {
    #[hash_prefix(33)]
    #[sep]
    user_id: String,
}

fn main() {}
