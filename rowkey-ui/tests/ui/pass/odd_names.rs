// Legal but unusual names and item positions: fields named like the generated code's locals,
// a key type named like a runtime type, type aliases, items inside a function body, and a key
// declared by a `macro_rules!` macro.
#![allow(dead_code, non_snake_case)]
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Natural {
    mask: u8,
    buf: u16,
    #[sep]
    input: String,
    bytes: u32,
    out: i8,
    e: bool,
    v: char,
    w: u64,
    __pos: u32,
    __f0: u8,
    __visit: u8,
    __salt: u8,
    r#self_: u8,
}

#[derive(RowKey, Debug, PartialEq)]
struct EncodeError(Natural, u8);

type Millis = u64;
type Name = String;

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct Aliased {
    at: Millis,
    #[sep]
    name: Name,
    last: Name,
}

macro_rules! key {
    ($name:ident { $($field:ident : $ty:ty),* $(,)? }) => {
        #[derive(RowKey, Debug, PartialEq)]
        struct $name { $($field: $ty),* }
    };
}
key!(FromMacro {
    a: u32,
    b: i64,
    c: String
});

fn main() {
    let n = Natural {
        mask: 1,
        buf: 2,
        input: "in".into(),
        bytes: 3,
        out: -4,
        e: true,
        v: 'v',
        w: 5,
        __pos: 6,
        __f0: 7,
        __visit: 8,
        __salt: 9,
        r#self_: 10,
    };
    let b = n.to_row_key().unwrap();
    assert_eq!(Natural::from_row_key(&b).unwrap(), n);
    let ee = EncodeError(n, 1);
    let b = ee.to_row_key().unwrap();
    assert_eq!(EncodeError::from_row_key(&b).unwrap(), ee);

    let a = Aliased {
        at: 1,
        name: "n".into(),
        last: "l".into(),
    };
    let b = a.to_row_key().unwrap();
    assert_eq!(Aliased::from_row_key(&b).unwrap(), a);

    #[derive(RowKey, Debug, PartialEq)]
    struct Local {
        #[pad(3)]
        code: String,
        id: u16,
    }
    let l = Local {
        code: "ab".into(),
        id: 3,
    };
    let b = l.to_row_key().unwrap();
    assert_eq!(b.len(), 5);
    assert_eq!(Local::from_row_key(&b).unwrap(), l);

    let m = FromMacro {
        a: 1,
        b: -2,
        c: "c".into(),
    };
    let b = m.to_row_key().unwrap();
    assert_eq!(FromMacro::from_row_key(&b).unwrap(), m);
}
