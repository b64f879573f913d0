// A range over a hashed field would scan the hash space, not the value range: no such method.
use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[hash_prefix(4)]
    uid: u64,
    ts: u64,
}

fn main() {
    let _ = Event::scan().uid_range(1..100);
}
