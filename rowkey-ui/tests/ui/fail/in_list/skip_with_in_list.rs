// An IN-list on a later field does not make a skipped field fixed: the error says what to
// use instead (an IN-list or every value of the skipped field, or an index table).
use rowkey::RowKey;

#[derive(RowKey, Clone, Copy)]
enum EventType {
    Click,
    View,
}

#[derive(RowKey)]
struct Event {
    uid: u64,
    event_type: EventType,
    #[sep]
    biz_type: String,
}

fn main() {
    let _ = Event::scan().event_type_in([EventType::Click]);
    let _ = Event::scan().uid(10457).biz_type_in(["search"]);
    // every value of a skipped field is not the field fixed either
    let _ = Event::scan().event_type_any();
    // nothing after a range, IN-lists included
    let _ = Event::scan().uid_range(1..5).event_type_any();
}
