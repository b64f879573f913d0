// A range ends the chain: a field after it cannot narrow the scan to one byte range.
use rowkey::RowKey;

#[derive(RowKey)]
struct Log {
    #[sep]
    host: String,
    #[reverse_ts]
    ts: i64,
    #[sep]
    event: String,
}

fn main() {
    let _ = Log::scan().host("web-1").ts_range(0..100).event("GET");
}
