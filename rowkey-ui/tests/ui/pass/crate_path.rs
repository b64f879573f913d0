// `#[rowkey(crate = "...")]` for crates that re-export rowkey: absolute (`::rowkey`), crate-local
// (`crate::reexport::rk`) and relative (`reexport::rk`) paths all resolve from the generated
// `const _` block, which is not a module.
mod reexport {
    pub use ::rowkey as rk;
}

mod deeper {
    pub mod api {
        pub use crate::reexport::rk as keys;
    }
}

#[derive(reexport::rk::RowKey, Debug, PartialEq)]
#[rowkey(crate = "reexport::rk")]
struct Relative {
    #[salt(buckets = 4)]
    #[sep]
    a: String,
    b: u32,
}

#[derive(reexport::rk::RowKey, Debug, PartialEq)]
#[rowkey(crate = "crate::reexport::rk")]
struct CrateLocal {
    #[hash_prefix(2)]
    a: u32,
    b: Relative,
}

#[derive(deeper::api::keys::RowKey, Debug, PartialEq)]
#[rowkey(crate = "deeper::api::keys")]
enum Color {
    Red,
    Blue,
}

#[derive(::rowkey::RowKey, Debug, PartialEq)]
#[rowkey(crate = "::rowkey")]
struct Absolute(Color, u8);

mod inner {
    // From a submodule, a path relative to it.
    #[derive(super::reexport::rk::RowKey, Debug, PartialEq)]
    #[rowkey(crate = "super::reexport::rk")]
    pub struct FromSub {
        pub x: u16,
    }
}

fn main() {
    use reexport::rk::RowKey;
    let r = Relative {
        a: "a".into(),
        b: 1,
    };
    let b = r.to_row_key().unwrap();
    assert_eq!(Relative::from_row_key(&b).unwrap(), r);
    let c = CrateLocal {
        a: 5,
        b: Relative {
            a: "z".into(),
            b: 2,
        },
    };
    let b = c.to_row_key().unwrap();
    assert_eq!(CrateLocal::from_row_key(&b).unwrap(), c);
    let a = Absolute(Color::Blue, 9);
    let b = a.to_row_key().unwrap();
    assert_eq!(Absolute::from_row_key(&b).unwrap(), a);
    let s = inner::FromSub { x: 3 };
    let b = s.to_row_key().unwrap();
    assert_eq!(inner::FromSub::from_row_key(&b).unwrap(), s);
    let _ = Color::Red;
}
