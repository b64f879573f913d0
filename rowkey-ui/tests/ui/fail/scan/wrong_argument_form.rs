// A scan argument of the wrong type is refused with what the field takes, also behind
// references (a reference to an accepted form is accepted; a reference to anything else is not).
use rowkey::RowKey;

#[derive(RowKey)]
struct Doc {
    #[sep]
    owner: String,
    path: Vec<u8>,
}

fn main() {
    let _ = Doc::scan().owner(7u32);
    let _ = Doc::scan().owner(&&7u32);
    let _ = Doc::scan().owner_starts_with(&'c');
    let _ = Doc::scan().owner("a").path(&&"text");
    let _ = Doc::scan().owner("a").path_range(&1u8..&2u8);
}
