use rowkey::RowKey;

#[derive(RowKey)]
struct Latest {
    #[reverse_ts]
    ts: i64,
    #[sep]
    host: String,
}

fn main() {}
