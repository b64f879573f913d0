// The derive in a module without the implicit prelude: the generated code must not rely on
// `Result`, `Ok`, `Option`, `Some`, `String`, `Vec`, ... being in scope.
#[no_implicit_prelude]
mod keys {
    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[rowkey(salt(buckets = 300))]
    pub struct Everything {
        #[hash_prefix(4)]
        #[sep]
        pub user: ::std::string::String,
        #[reverse_ts]
        pub ts: i64,
        #[pad(6)]
        pub seq: u32,
        #[desc]
        #[pad(4, fill = b' ')]
        pub code: ::std::vec::Vec<u8>,
        pub flag: ::core::option::Option<bool>,
        pub kind: Kind,
        pub inner: Inner,
        #[desc]
        pub rest: ::std::string::String,
    }

    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub struct Inner(#[sep] pub ::std::boxed::Box<str>, pub u8);

    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[repr(u16)]
    pub enum Kind {
        A = 1,
        B = 500,
    }

    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub struct TimeBucket {
        #[salt(buckets = 24, modulo)]
        pub hour: u32,
        #[sep(b'|')]
        pub host: ::std::string::String,
        #[reverse]
        pub n: u32,
        #[rowkey(java)]
        pub delta: i32,
    }

    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub struct Borrowed<'a> {
        #[sep]
        pub a: &'a str,
        pub b: &'a [u8],
    }
}

use rowkey::RowKey;

fn main() {
    let k = keys::Everything {
        user: "u1".into(),
        ts: 1_700_000_000_000,
        seq: 42,
        code: b"ab".to_vec(),
        flag: Some(true),
        kind: keys::Kind::B,
        inner: keys::Inner("i\u{0}".into(), 3),
        rest: "tail".into(),
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(b.len(), k.encoded_len());
    assert_eq!(keys::Everything::from_row_key(&b).unwrap(), k);

    let t = keys::TimeBucket {
        hour: 49,
        host: "h".into(),
        n: 7,
        delta: -1,
    };
    let b = t.to_row_key().unwrap();
    assert_eq!(b[0], 1); // 49 % 24
    assert_eq!(keys::TimeBucket::from_row_key(&b).unwrap(), t);

    let x = keys::Borrowed { a: "a", b: b"b" };
    let b = x.to_row_key().unwrap();
    assert_eq!(keys::Borrowed::from_row_key(&b).unwrap(), x);
}
