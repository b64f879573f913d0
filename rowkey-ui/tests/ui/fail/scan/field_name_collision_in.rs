// `.id_in(..)` would be both the IN-list on `id` and equality on `id_in`.
use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u64,
    id_in: u64,
}

fn main() {}
