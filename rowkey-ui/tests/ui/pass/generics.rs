// Generic keys: const generics, lifetimes and type parameters together.
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Fixed<const N: usize> {
    id: [u8; N],
    seq: u32,
}

#[derive(RowKey, Debug, PartialEq)]
struct Mixed<'a, const N: usize> {
    #[sep]
    name: &'a str,
    code: [u8; N],
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Kind {
    A = 1,
    B = 2,
}

#[derive(RowKey, Debug, PartialEq)]
struct Leaf {
    kind: Kind,
    n: u16,
}

// A type parameter: the user states what the field needs (a codec, decode and display).
#[derive(RowKey, Debug, PartialEq)]
struct Tagged<T>
where
    rowkey::codec::Natural: rowkey::codec::Codec<T> + for<'de> rowkey::codec::Decode<'de, T>,
    T: rowkey::__private::Show,
{
    tag: T,
    id: u64,
}

fn main() {
    let f = Fixed::<3> {
        id: *b"abc",
        seq: 9,
    };
    let b = f.to_row_key().unwrap();
    assert_eq!(b.len(), 7);
    assert_eq!(Fixed::<3>::from_row_key(&b).unwrap(), f);

    let m = Mixed::<2> {
        name: "x",
        code: [1, 2],
    };
    let b = m.to_row_key().unwrap();
    assert_eq!(Mixed::<2>::from_row_key(&b).unwrap(), m);

    let t = Tagged {
        tag: Leaf {
            kind: Kind::B,
            n: 3,
        },
        id: 1,
    };
    let b = t.to_row_key().unwrap();
    assert_eq!(b.len(), 1 + 2 + 8);
    assert_eq!(Tagged::<Leaf>::from_row_key(&b).unwrap(), t);

    let t = Tagged { tag: 5u32, id: 1 };
    let b = t.to_row_key().unwrap();
    assert_eq!(Tagged::<u32>::from_row_key(&b).unwrap(), t);
}
