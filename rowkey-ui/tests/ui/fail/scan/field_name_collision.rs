// Fields whose names collide with the scan builder's generated methods: `.id_range(..)` would be
// a range on `id` at one stage and equality on `id_range` at the next; a field `ranges` would
// hide `.ranges()`.
use rowkey::RowKey;

#[derive(RowKey)]
struct Account {
    id: u64,
    id_range: u32,
    #[sep]
    name_starts_with: String,
    #[sep]
    name: String,
}

#[derive(RowKey)]
struct Report {
    day: u32,
    ranges: u8,
}

fn main() {
    // no follow-on errors from the scans of the refused keys
    let _ = Account::scan().id(1).id_range(2).ranges();
    let _ = Report::scan().day_range(1..2).ranges();
}
