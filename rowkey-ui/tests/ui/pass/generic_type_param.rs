// A type parameter without hand-written bounds. Today this needs
//     where rowkey::codec::Natural: rowkey::codec::Codec<T> + for<'de> rowkey::codec::Decode<'de, T>,
//           T: rowkey::__private::Show,
// (see ../pass/generics.rs) — naming the hidden `__private::Show`. The derive could add those
// predicates itself for every field whose type mentions a type parameter (serde's approach).
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Tagged<T> {
    tag: T,
    id: u64,
}

fn main() {
    let t = Tagged { tag: 5u32, id: 1 };
    let b = t.to_row_key().unwrap();
    assert_eq!(Tagged::<u32>::from_row_key(&b).unwrap(), t);
}
