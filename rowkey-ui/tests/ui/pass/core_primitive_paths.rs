// Primitive types spelled as paths (`::core::primitive::u8`, `core::primitive::str`) are the
// same types as `u8` / `str`; the derive must classify them the same way.
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Key<'a> {
    #[sep]
    name: &'a ::core::primitive::str,
    #[pad(4)]
    blob: ::std::vec::Vec<::core::primitive::u8>,
    code: [::core::primitive::u8; 2],
    id: ::core::primitive::u64,
    tail: &'a [::core::primitive::u8],
}

fn main() {
    let k = Key {
        name: "n",
        blob: vec![1],
        code: [1, 2],
        id: 3,
        tail: b"t",
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(Key::from_row_key(&b).unwrap(), k);
}
