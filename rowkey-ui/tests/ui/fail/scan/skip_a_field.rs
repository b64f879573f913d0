// Fields are fixed in key order: skipping `host` is not a prefix scan.
use rowkey::RowKey;

#[derive(RowKey)]
struct Log {
    #[sep]
    host: String,
    #[reverse_ts]
    ts: i64,
}

fn main() {
    let _ = Log::scan().ts(5);
}
