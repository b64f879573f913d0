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

/// A fixed-width layout: `encode_into` writes it into the buffer's chunk in one step when the
/// chunk has room.
#[derive(RowKey, Arbitrary, Debug, Clone, PartialEq)]
pub struct Fixed {
    #[salt(buckets = 16)]
    pub id: u64,
    #[reverse_ts]
    pub ts: i64,
    #[desc]
    pub a: i16,
    pub b: [u8; 3],
    #[pad(6)]
    pub c: u32,
    #[rowkey(java)]
    pub d: i32,
    pub ch: char,
    pub flag: bool,
    pub k: Kind,
}

/// `encode_into` appends `to_row_key`'s bytes to a buffer with `spare` bytes of room after two
/// bytes, and to two chunks split at `split` (or fails with the same error; a fixed-width key
/// written in one step, into a buffer with room for it, then leaves the buffer as it was).
pub fn buffers<K: RowKey + core::fmt::Debug>(k: &K, spare: u8, split: u8) {
    use bytes::BufMut;
    let want = k.to_row_key();
    let mut v = Vec::with_capacity(2 + usize::from(spare));
    v.extend([7, 7]);
    match (&want, k.encode_into(&mut v)) {
        (Ok(w), Ok(())) => assert_eq!(&v[2..], &w[..], "encode_into of {k:?}"),
        (Err(a), Err(b)) => {
            assert_eq!(a, &b, "the same error for {k:?}");
            if K::LAYOUT
                .fixed_width
                .is_some_and(|w| w <= usize::from(spare))
            {
                assert_eq!(
                    v,
                    [7, 7],
                    "a failed fixed-width encode writes nothing: {k:?}"
                );
            }
        }
        (a, b) => panic!("to_row_key {a:?} but encode_into {b:?} for {k:?}"),
    }
    if let Ok(w) = &want {
        let split = usize::from(split).min(w.len());
        let (mut a, mut z) = (vec![0u8; split], vec![0u8; w.len() - split]);
        let mut chain = (&mut a[..]).chain_mut(&mut z[..]);
        k.encode_into(&mut chain)
            .expect("encodes as to_row_key did");
        assert_eq!([a, z].concat(), &w[..], "two chunks: {k:?}");
    }
}

/// [`roundtrip`] with `==` as the comparison, then [`buffers`].
pub fn roundtrip_eq<K>(k: &K, spare: u8, split: u8)
where
    K: RowKey + for<'a> rowkey::DecodeRowKey<'a> + PartialEq + core::fmt::Debug,
{
    roundtrip(k, |a, b| a == b);
    buffers(k, spare, split);
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
