//! The derive in a crate whose root has `#![no_implicit_prelude]`: nothing from the std prelude
//! (`Result`, `Ok`, `Option`, `Some`, `String`, `Vec`, `Box`, `Into`, ...) and no extern-prelude
//! names are in scope, so the generated code must use `::`-anchored paths throughout. The test
//! code itself uses fully qualified paths too.
#![no_implicit_prelude]

use ::rowkey::RowKey;

/// Every field attribute, salt over a prefix, nested key, enum and Option.
#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
#[rowkey(max_len = 128)]
struct Event {
    #[salt(buckets = 16)]
    #[sep]
    host: ::std::string::String,
    #[reverse_ts]
    ts: i64,
    #[hash_prefix(4)]
    #[pad(6)]
    seq: u32,
    #[desc]
    #[pad(3, fill = b' ')]
    dc: ::std::vec::Vec<u8>,
    #[reverse]
    phone: u64,
    #[rowkey(java)]
    delta: i32,
    kind: Kind,
    maybe: ::core::option::Option<Inner>,
    #[sep(b'|')]
    label: ::std::boxed::Box<str>,
    score: f64,
    flags: [u8; 2],
    c: char,
    on: bool,
    #[desc]
    tail: ::rowkey::Bytes,
}

#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
struct Inner(#[sep] ::std::string::String, #[desc] u16);

#[derive(
    ::rowkey::RowKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::marker::Copy,
    ::core::cmp::PartialEq,
)]
#[repr(u16)]
enum Kind {
    Click = 1,
    View = 300,
}

/// Container salt (two-byte, > 256 buckets) and a time-bucket modulo salt.
#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[rowkey(salt(buckets = 1000))]
struct Salted {
    created_ms: i64,
    #[sep]
    user: ::std::string::String,
    id: u128,
}

#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
struct Bucketed {
    #[salt(buckets = 24, modulo)]
    hour: u64,
    #[hash_prefix(8, raw)]
    #[sep]
    host: ::std::string::String,
}

/// Borrowed fields and a tuple struct.
#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
struct Borrowed<'a>(#[sep] &'a str, &'a [u8]);

/// Const generics.
#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[rowkey(allow_hotspot)]
struct Generic<const N: usize> {
    ts: u64,
    id: [u8; N],
}

fn round_trip<T>(key: &T) -> ::rowkey::Bytes
where
    T: ::rowkey::RowKey
        + for<'de> ::rowkey::DecodeRowKey<'de>
        + ::core::cmp::PartialEq
        + ::core::fmt::Debug,
{
    let bytes = ::core::result::Result::unwrap(key.to_row_key());
    ::std::assert_eq!(bytes.len(), key.encoded_len());
    let back = ::core::result::Result::unwrap(T::from_row_key(&bytes));
    ::std::assert_eq!(&back, key);
    // describe never fails and names every field
    let shown = T::describe(&bytes);
    ::std::assert!(!shown.contains('<'), "describe reported an error: {shown}");
    bytes
}

#[::core::prelude::v1::test]
fn event_round_trip() {
    let e = Event {
        host: ::std::borrow::ToOwned::to_owned("web\u{0}1"),
        ts: 1_700_000_000_000,
        seq: 42,
        dc: <[u8]>::to_vec(b"am"),
        phone: 13_800_138_000,
        delta: -7,
        kind: Kind::View,
        maybe: ::core::option::Option::Some(Inner(::std::borrow::ToOwned::to_owned("x"), 9)),
        label: <::std::boxed::Box<str> as ::core::convert::From<&str>>::from("a,b"),
        score: -0.5,
        flags: [0xFF, 0x00],
        c: 'é',
        on: true,
        tail: ::rowkey::Bytes::from_static(b"\x00\x01\xff"),
    };
    let bytes = round_trip(&e);
    ::std::assert_eq!(<Event as RowKey>::LAYOUT.fields.len(), 14);
    // A flipped salt byte is rejected, not misread.
    let mut bad = <[u8]>::to_vec(&bytes);
    bad[0] ^= 1;
    ::std::assert!(::core::result::Result::is_err(&Event::from_row_key(&bad)));

    let mut other = ::core::clone::Clone::clone(&e);
    other.maybe = ::core::option::Option::None;
    other.kind = Kind::Click;
    round_trip(&other);
}

#[::core::prelude::v1::test]
fn salted_round_trip() {
    let s = Salted {
        created_ms: -1,
        user: ::std::string::String::new(),
        id: u128::MAX,
    };
    let bytes = round_trip(&s);
    ::std::assert_eq!(bytes.len(), 2 + 8 + 1 + 16);

    let b = Bucketed {
        hour: 49,
        host: ::std::borrow::ToOwned::to_owned("h"),
    };
    let bytes = round_trip(&b);
    ::std::assert_eq!(bytes[0], 1); // 49 % 24
}

#[::core::prelude::v1::test]
fn borrowed_and_generic_round_trip() {
    let owned = <[u8]>::to_vec(b"\x00tail");
    let k = Borrowed("host", &owned);
    let bytes = ::core::result::Result::unwrap(k.to_row_key());
    let back = ::core::result::Result::unwrap(Borrowed::from_row_key(&bytes));
    ::std::assert_eq!(back, k);

    let g = Generic::<3> { ts: 5, id: *b"abc" };
    let bytes = round_trip(&g);
    ::std::assert_eq!(bytes.len(), 8 + 3);
}

#[::core::prelude::v1::test]
fn errors_are_values_not_panics() {
    // Truncated and extended inputs decode to errors.
    let e = Salted {
        created_ms: 1,
        user: ::std::borrow::ToOwned::to_owned("u"),
        id: 2,
    };
    let bytes = ::core::result::Result::unwrap(e.to_row_key());
    for cut in 0..bytes.len() {
        ::std::assert!(::core::result::Result::is_err(&Salted::from_row_key(
            &bytes[..cut]
        )));
    }
    let mut longer = <[u8]>::to_vec(&bytes);
    longer.push(0);
    ::std::assert!(::core::result::Result::is_err(&Salted::from_row_key(
        &longer
    )));
    // A negative timestamp cannot be reversed: an EncodeError naming the field.
    let e = Event {
        host: ::std::string::String::new(),
        ts: -1,
        seq: 1,
        dc: ::std::vec::Vec::new(),
        phone: 1,
        delta: 0,
        kind: Kind::Click,
        maybe: ::core::option::Option::None,
        label: <::std::boxed::Box<str> as ::core::default::Default>::default(),
        score: 0.0,
        flags: [0; 2],
        c: 'a',
        on: false,
        tail: ::rowkey::Bytes::new(),
    };
    let err = ::core::result::Result::unwrap_err(e.to_row_key());
    ::std::assert_eq!(err.field(), "ts");
}

/// The Bigtable struct-key modes (`#[rowkey(bigtable(..))]`): codecs, `StructKey` and the
/// delimiter impl in a crate without a prelude.
#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[rowkey(bigtable(ordered_code))]
struct Ordered {
    user: ::std::string::String,
    at: ::rowkey::struct_key::Micros,
    tag: ::std::vec::Vec<u8>,
}

#[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[rowkey(bigtable(delimited = b"#", big_endian))]
struct Delimited {
    site: ::std::string::String,
    n: i64,
}

#[::core::prelude::v1::test]
fn struct_keys_round_trip() {
    use ::rowkey::struct_key::StructKey;
    let k = Ordered {
        user: <::std::string::String as ::core::convert::From<&str>>::from("al"),
        at: ::rowkey::struct_key::Micros(256),
        tag: ::std::vec::Vec::new(),
    };
    let bytes = round_trip(&k);
    ::std::assert_eq!(&bytes[..], b"al\x00\x01\xC1\x00\xFF");
    ::std::assert_eq!(
        ::core::result::Result::unwrap(Ordered::row_key_schema().encode(&k.struct_values())),
        &bytes[..]
    );
    let d = Delimited {
        site: <::std::string::String as ::core::convert::From<&str>>::from("x"),
        n: 1,
    };
    let bytes = round_trip(&d);
    ::std::assert_eq!(&bytes[..], b"x#\x00\x00\x00\x00\x00\x00\x00\x01");
}
