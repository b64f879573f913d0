// `#[reverse]` scrambles order: only equality scans exist on it.
use rowkey::RowKey;

#[derive(RowKey)]
struct Phone {
    #[reverse]
    #[pad(11)]
    msisdn: u64,
    ts: u64,
}

fn main() {
    let _ = Phone::scan().msisdn_range(13_800_000_000..13_900_000_000);
}
