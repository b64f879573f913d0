// starts-with exists for string and bytes fields only.
use rowkey::RowKey;

#[derive(RowKey)]
struct Metric {
    id: u64,
    #[sep]
    name: String,
}

fn main() {
    let _ = Metric::scan().id_starts_with(4);
}
