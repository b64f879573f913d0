//! Representative key layouts shared by the fuzz targets.
#![allow(missing_docs)]

use arbitrary::Arbitrary;
use rowkey::RowKey;

#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
pub struct SaltedPrefix {
    #[salt(buckets = 16)]
    #[sep]
    pub host: String,
    #[reverse_ts]
    pub ts: i64,
    pub seq: u32,
}

#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 300))]
pub struct WholeSalt {
    pub tenant: u32,
    #[desc]
    pub name: String,
}

#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
pub struct Hashed {
    #[hash_prefix(6)]
    pub uid: u64,
    #[desc]
    #[sep]
    pub kind: String,
    #[hash_prefix(4, raw)]
    #[pad(5, fill = b' ')]
    pub code: String,
    pub tail: Vec<u8>,
}

#[derive(RowKey, Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    A,
    B = 7,
    C,
}

#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
pub struct Inner {
    pub a: i8,
    #[sep(b'|')]
    pub b: String,
    pub k: Kind,
}

#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
pub struct Nested {
    pub inner: Inner,
    pub opt: Option<u16>,
    #[pad(8)]
    pub id: u32,
    #[reverse]
    #[pad(11)]
    pub phone: u64,
    pub f: f64,
    #[desc]
    pub c: Option<String>,
}

#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
pub struct Modulo {
    #[salt(buckets = 16, modulo)]
    pub ts: u64,
    #[desc]
    #[sep]
    pub host: Vec<u8>,
    pub flag: bool,
    pub ch: char,
    #[rowkey(java)]
    pub j: i32,
    pub arr: [u8; 3],
}

/// Decode `data` as `K`; when it decodes, re-encoding must give the same bytes (no two byte
/// strings decode to the same key) and `describe` must not panic.
pub fn decode_canonical<
    K: RowKey + for<'a> rowkey::DecodeRowKey<'a> + PartialEq + core::fmt::Debug,
>(
    data: &[u8],
) {
    let _ = K::describe(data);
    if let Ok(k) = K::from_row_key(data) {
        let again = k.to_row_key().expect("a decoded key encodes");
        assert_eq!(&again[..], data, "decode is canonical: {k:?}");
    }
}

/// Encode `k`; when it encodes, it decodes to itself and its length is `encoded_len`.
pub fn roundtrip<K: RowKey + for<'a> rowkey::DecodeRowKey<'a> + core::fmt::Debug>(
    k: &K,
    same: impl Fn(&K, &K) -> bool,
) {
    if let Ok(bytes) = k.to_row_key() {
        assert_eq!(bytes.len(), k.encoded_len());
        let back = K::from_row_key(&bytes).expect("an encoded key decodes");
        assert!(same(k, &back), "round trip: {k:?} -> {back:?}");
    }
}
