// The user's own key types named `Bytes` / `String` / `Vec`: the derive must not mistake them
// for the std/bytes types by name (which are variable-length and need #[sep]/#[pad]).
#![allow(dead_code)]
use rowkey::RowKey;

mod own {
    use rowkey::RowKey;

    #[derive(RowKey, Debug, PartialEq)]
    pub struct Bytes {
        pub a: u32,
    }

    #[derive(RowKey, Debug, PartialEq)]
    pub struct String(pub u16);
}

#[derive(RowKey, Debug, PartialEq)]
struct Key {
    b: own::Bytes,
    s: own::String,
    id: u8,
}

fn main() {
    let k = Key {
        b: own::Bytes { a: 1 },
        s: own::String(2),
        id: 3,
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(b.len(), 4 + 2 + 1);
    assert_eq!(Key::from_row_key(&b).unwrap(), k);
}
