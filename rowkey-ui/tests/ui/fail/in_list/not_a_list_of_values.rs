// `_in` takes a list of the field's values.
use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    uid: u64,
    #[sep]
    biz_type: String,
}

fn main() {
    let _ = Event::scan().uid_in(["a", "b"]);
    let _ = Event::scan().uid_in(7u64);
    let _ = Event::scan().uid(1).biz_type_in([1u8, 2]);
}
