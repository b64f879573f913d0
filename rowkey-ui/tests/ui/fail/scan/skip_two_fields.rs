// Skipping more than one field: the error names the first field that is not fixed yet.
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
    let _ = Log::scan().event("GET").ranges();
    let _ = Log::scan().host("web-1").event_starts_with("G").ranges();
}
