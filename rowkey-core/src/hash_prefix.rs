//! `#[hash_prefix(N)]`: the first N lowercase hex characters (or raw bytes) of MD5 of a field's
//! plain bytes, `md5(userid).substring(0, N)` as the Java HBase idiom writes it: the
//! [`Hashed`] codec wrapper the derive puts around a hashed field's encoding, and the plain
//! bytes it hashes ([`HashPlain`]).

use bytes::BufMut;

use crate::codec::{AsContent, Codec, Decode};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::hbase::hex_digit;

/// The plain bytes `#[hash_prefix]` hashes: UTF-8 for strings, raw bytes, Java `Bytes.toBytes`
/// big-endian two's complement for integers, UTF-8 for `char`.
///
/// ```
/// use rowkey::hash_prefix::HashPlain;
///
/// assert_eq!((-2i32).with_plain(|b| b.to_vec()), [0xFF, 0xFF, 0xFF, 0xFE]); // Bytes.toBytes(-2)
/// assert_eq!("é".to_string().with_plain(|b| b.len()), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "rowkey: #[hash_prefix] cannot hash a field of type `{Self}`",
    note = "#[hash_prefix] works on integers, char, strings and bytes (their plain bytes are hashed)"
)]
pub trait HashPlain {
    /// Call `f` with the plain bytes.
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R;
}

/// MD5 digest of `bytes`.
///
/// ```
/// let d = rowkey::hash_prefix::md5(b"foo0001");
/// assert_eq!(&d[..3], [0x95, 0xf1, 0x8c]); // md5("foo0001") = 95f18c…
/// ```
#[inline]
pub fn md5(bytes: &[u8]) -> [u8; 16] {
    use md5::{Digest, Md5};
    Md5::digest(bytes).into()
}

/// The hash prefix bytes of a field value: the first `width` lowercase hex characters of its MD5
/// (or the first `width` raw digest bytes), written into `out[..width]`.
///
/// ```
/// let mut out = [0u8; 32];
/// rowkey::hash_prefix::hash_prefix(&"foo0001".to_string(), 6, false, &mut out);
/// assert_eq!(&out[..6], b"95f18c"); // md5("foo0001").substring(0, 6)
/// ```
#[inline]
pub fn hash_prefix<T: HashPlain + ?Sized>(v: &T, width: usize, raw: bool, out: &mut [u8; 32]) {
    let digest = v.with_plain(md5);
    if raw {
        for (o, d) in out.iter_mut().zip(digest.iter()).take(width) {
            *o = *d;
        }
    } else {
        // only the `width` characters the key keeps
        for (i, o) in out.iter_mut().enumerate().take(width) {
            let b = digest.get(i / 2).copied().unwrap_or_default();
            *o = hex_digit(if i % 2 == 0 { b >> 4 } else { b & 15 }, b'a');
        }
    }
}

/// `#[hash_prefix(N)]` / `#[hash_prefix(N, raw)]` around the field's own encoding `C`: the
/// first `N` lowercase hex characters of the MD5 of the value's plain bytes (`RAW`: the first `N`
/// digest bytes), then `C`'s encoding of the value. The hash is not masked (a `#[desc]` field
/// inverts only its value bytes), and decoding checks the stored hash against the decoded value.
///
/// A hashed field sorts by its hash, not its value: scans fix it by equality only (ranges and
/// starts-with scans on it are compile errors).
///
/// ```
/// use rowkey::codec::{Codec, Decode, Natural, Sep};
/// use rowkey::hash_prefix::Hashed;
///
/// let mut buf = Vec::new();
/// <Hashed<Sep, 6, false> as Codec<String>>::encode(&"foo0001".to_string(), &mut buf, 0).unwrap();
/// assert_eq!(buf, b"95f18cfoo0001\x00"); // md5("foo0001").substring(0, 6), then the value
/// let (v, used) = <Hashed<Sep, 6, false> as Decode<'_, String>>::decode(&buf, 0).unwrap();
/// assert_eq!((v.as_str(), used), ("foo0001", 14));
///
/// buf[0] = b'0'; // a stored hash that does not match the value
/// assert!(<Hashed<Sep, 6, false> as Decode<'_, String>>::decode(&buf, 0).is_err());
///
/// buf.clear();
/// <Hashed<Natural, 2, true> as Codec<u32>>::encode(&7, &mut buf, 0).unwrap();
/// assert_eq!(buf.len(), 2 + 4); // two raw digest bytes, then the big-endian value
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Hashed<C, const N: usize, const RAW: bool>(core::marker::PhantomData<C>);

impl<C, const N: usize, const RAW: bool> crate::codec::OptionPresence for Hashed<C, N, RAW> {}

impl<C: Codec<T>, T: HashPlain, const N: usize, const RAW: bool> Codec<T> for Hashed<C, N, RAW> {
    const WIDTH: Option<usize> = match C::WIDTH {
        Some(w) => Some(w + N),
        None => None,
    };
    const PREFIX_FREE: bool = C::PREFIX_FREE;
    const UNSIGNED_MAX: Option<u128> = C::UNSIGNED_MAX;

    #[inline(always)]
    fn len(v: &T, mask: u8) -> usize {
        N + C::len(v, mask)
    }

    #[inline(always)]
    fn unsigned(v: &T) -> Option<u128> {
        C::unsigned(v)
    }

    #[inline(always)]
    fn encode<B: BufMut>(v: &T, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        let mut h = [0u8; 32];
        hash_prefix(v, N, RAW, &mut h);
        buf.put_slice(h.get(..N).unwrap_or(&h));
        C::encode(v, buf, mask)
    }
}

impl<'de, C: Decode<'de, T>, T: HashPlain, const N: usize, const RAW: bool> Decode<'de, T>
    for Hashed<C, N, RAW>
{
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<(T, usize), DecodeError> {
        let Some((stored, rest)) = input.split_at_checked(N) else {
            return Err(DecodeError::truncated(
                input.len(),
                N - input.len(),
                input.len(),
            ));
        };
        let (v, n) = C::decode(rest, mask).map_err(|e| e.shifted(N))?;
        let mut h = [0u8; 32];
        hash_prefix(&v, N, RAW, &mut h);
        if h.get(..N) == Some(stored) {
            Ok((v, N + n))
        } else {
            Err(DecodeError::new(DecodeErrorKind::HashMismatch, 0))
        }
    }
}

macro_rules! int_plain {
    ($($t:ty),*) => {$(
        impl HashPlain for $t {
            #[inline(always)]
            fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R { f(&self.to_be_bytes()) }
        }
    )*};
}
int_plain!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

macro_rules! content_plain {
    ($([$($lt:lifetime)?] $t:ty),*) => {$(
        impl<$($lt)?> HashPlain for $t {
            #[inline(always)]
            fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R { f(self.content()) }
        }
    )*};
}
content_plain!([] String, [] Box<str>, ['a] &'a str, [] Vec<u8>, ['a] &'a [u8], [] bytes::Bytes);

impl HashPlain for char {
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        let mut b = [0u8; 4];
        f(self.encode_utf8(&mut b).as_bytes())
    }
}

impl<const N: usize> HashPlain for [u8; N] {
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self)
    }
}
