// User items named like std prelude items, std/core/bytes/rowkey themselves, and the runtime's
// types are in scope where the derive expands: the generated code must use fully qualified,
// `::`-anchored paths.
#![allow(dead_code, non_camel_case_types, unused_imports)]

use ::rowkey::RowKey;

mod shadow {
    pub struct Result;
    pub struct Option;
    pub struct Bytes;
    pub struct Vec;
    pub struct String;
    pub struct Box;
    pub struct Some;
    pub struct None;
    pub struct Ok;
    pub struct Err;
    pub trait Into {}
    pub trait From {}
    pub trait Default {}
    pub trait Iterator {}
    pub trait AsRef {}
    pub trait Clone {}
    pub trait Copy {}
    pub trait Codec {}
    pub trait Decode {}
    pub trait BufMut {}
    pub trait Visit {}
    pub trait Show {}
    pub trait KeyParts {}
    pub trait DecodeRowKey {}
    pub struct EncodeError;
    pub struct DecodeError;
    pub struct Layout;
    pub struct Natural;
    pub mod core {}
    pub mod std {}
    pub mod bytes {}
    pub mod rowkey {}
}

// Glob imports lose to the prelude, so import the shadows by name.
use shadow::{
    bytes, core, rowkey, std, AsRef, Box, BufMut, Bytes, Clone, Codec, Copy, Decode, DecodeError,
    DecodeRowKey, Default, EncodeError, Err, From, Into, Iterator, KeyParts, Layout, Natural, None,
    Ok, Option, Result, Show, Some, String, Vec, Visit,
};

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 16), max_len = 64)]
struct Key {
    #[sep]
    user: ::std::string::String,
    #[hash_prefix(4, raw)]
    id: u64,
    #[pad(6)]
    seq: u32,
    blob: ::std::vec::Vec<u8>,
}

#[derive(RowKey, Debug, PartialEq)]
struct Opt {
    a: ::std::option::Option<u32>,
    #[sep]
    b: ::std::option::Option<::std::string::String>,
    c: ::rowkey::Bytes,
}

#[derive(RowKey, Debug, PartialEq)]
enum Kind {
    A,
    B,
}

#[derive(RowKey, Debug, PartialEq)]
struct Nested(Kind, #[desc] Opt);

fn main() {
    let _ = (
        Result,
        Option,
        Bytes,
        Vec,
        String,
        Some,
        None,
        Ok,
        Err,
        EncodeError,
        DecodeError,
    );
    let k = Key {
        user: "u".to_owned(),
        id: 7,
        seq: 12,
        blob: vec![0, 1, 2],
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(Key::from_row_key(&b).unwrap(), k);

    let o = Opt {
        a: ::std::option::Option::None,
        b: ::std::option::Option::Some("x".to_owned()),
        c: ::rowkey::Bytes::from_static(b"\xff"),
    };
    let n = Nested(Kind::B, o);
    let b = n.to_row_key().unwrap();
    assert_eq!(Nested::from_row_key(&b).unwrap(), n);
}
