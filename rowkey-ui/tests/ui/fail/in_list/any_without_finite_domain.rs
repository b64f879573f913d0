// `_any()` lists every value of a finite domain: a nested key has none.
use rowkey::RowKey;

#[derive(RowKey, Clone)]
struct Account {
    region: u8,
    id: u32,
}

#[derive(RowKey)]
struct Event {
    account: Account,
    seq: u64,
}

fn main() {
    let _ = Event::scan().account_any();
}
