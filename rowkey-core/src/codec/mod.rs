//! Field codecs: how one field's value becomes bytes and back.
//!
//! A codec is a zero-sized type chosen by the derive from the field's attributes
//! ([`Natural`], [`Java`], [`Pad`], [`Sep`], [`SepByte`], [`ReverseTs`], [`Reverse`]); the field's
//! type picks the implementation. Every encoding here is order-preserving (memcmp order of the
//! bytes equals the value order) unless its docs say otherwise, and every `encode` writes exactly
//! `len` bytes.
//!
//! The `mask` argument is `0x00` for ascending fields and `0xFF` for `#[desc]` fields: every
//! byte written is XORed with it, which reverses the order of a prefix-free encoding.
//! Variable-length content that is otherwise written raw (the last field) switches to the
//! escaped, terminated encoding of [`Sep`] when descending, so that prefix-freeness — and with it
//! the reversed order — holds.
//!
//! These are the runtime half of `#[derive(RowKey)]`; they are public so that the generated code
//! can reach them, and documented so that the byte formats are stated in one place.
//!
//! ```
//! use rowkey::codec::{Codec, Decode, Natural, Sep};
//!
//! let mut buf = Vec::new();
//! <Natural as Codec<i32>>::encode(&-1, &mut buf, 0x00).unwrap();
//! assert_eq!(buf, [0x7F, 0xFF, 0xFF, 0xFF]); // sign bit flipped
//!
//! buf.clear();
//! <Sep as Codec<String>>::encode(&"a\0b".to_string(), &mut buf, 0x00).unwrap();
//! assert_eq!(buf, b"a\x01\x00b\x00"); // 0x00 escaped, 0x00 terminator
//! let (s, used) = <Sep as Decode<'_, String>>::decode(&buf, 0x00).unwrap();
//! assert_eq!((s.as_str(), used), ("a\0b", 5));
//! ```

use std::borrow::Cow;

use bytes::{BufMut, Bytes};

use crate::bound::Pieces;
pub use crate::bound::{Bound, Edge};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// Encoding of a field of type `T`.
#[diagnostic::on_unimplemented(
    message = "rowkey: the encoding `{Self}` cannot be used for a field of type `{T}`",
    label = "this field's type does not support the encoding its attributes select",
    note = "integers, bool, char, f32/f64, [u8; N] use their natural encoding; String/&str/Box<str>/Vec<u8>/&[u8]/Bytes take #[pad(N)] or #[sep]; #[pad(N)] on integers needs an unsigned integer; #[reverse_ts] needs an integer; other types must derive RowKey"
)]
pub trait Codec<T> {
    /// Width in bytes when every value encodes to the same length.
    const WIDTH: Option<usize>;
    /// Whether no ascending encoding is a proper prefix of another (descending encodings of
    /// variable-length content always are prefix-free).
    const PREFIX_FREE: bool;
    /// Whether the byte order is the reverse of the value order (`#[reverse_ts]`).
    const REVERSED: bool = false;
    /// Exact encoded length.
    fn len(v: &T, mask: u8) -> usize;
    /// Append the encoding to `buf`. Errors carry no field name; the caller adds it.
    fn encode<B: BufMut>(v: &T, buf: &mut B, mask: u8) -> Result<(), EncodeError>;

    /// A range bound `v` (a lower bound unless `upper`, in the value's natural order) as the
    /// equivalent bound over the values this encoding can hold: a value too long for `#[pad]`,
    /// ending in the fill byte, beyond `#[pad]`'s digits or outside `#[reverse_ts]`'s
    /// `0..=i64::MAX` becomes the nearest bound that selects the same encodable values.
    ///
    /// The per-endpoint step of the default [`pieces`](Codec::pieces); codecs whose byte order
    /// is not monotone in the value (Java encodings, `Option`s) override `pieces` instead (and
    /// set `MONOTONE = false`). This wraps `bound_into`, which is what codecs override.
    fn bound(v: &T, mask: u8, upper: bool, inclusive: bool) -> Bound {
        let mut bytes = Vec::with_capacity(Self::len(v, mask));
        match Self::bound_into(v, mask, upper, inclusive, &mut bytes) {
            Edge::At { inclusive } => Bound::Bytes { bytes, inclusive },
            Edge::All => Bound::All,
            Edge::Nothing => Bound::Nothing,
        }
    }

    /// [`bound`](Codec::bound) appended to `out` instead of a new buffer (what the scan
    /// builder calls, without allocating): [`Edge::At`] when the bound's bytes were appended,
    /// otherwise `out` is left as it was. Codecs whose bounds are not plain encodings override
    /// this (and so [`bound`](Codec::bound), which calls it).
    #[doc(hidden)]
    fn bound_into(v: &T, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
        let _ = upper;
        let at = out.len();
        match Self::encode(v, out, mask) {
            Ok(()) => Edge::At { inclusive },
            Err(_) => {
                out.truncate(at);
                Edge::Nothing
            }
        }
    }

    /// Whether a range over values of this type is exactly the one byte range between its
    /// bounds as [`bound_into`](Codec::bound_into) writes them: the bytes sort in the values'
    /// natural order (ascending), and a bound is either encoded or clamped to the nearest
    /// encodable one. What a range over a nested key needs of each of its fields (its bound is
    /// built field by field from theirs); `false` by default, so that a codec that does not say
    /// cannot make a nested range wrong. A range over a nested key (or an `Option` of one)
    /// compiles only when this holds for every field of it; set it in a codec of your own when
    /// it does.
    const RANGE_EXACT: bool = false;

    /// The value of an integer field as `u128` (what a modulo salt takes `% N` of; the derive
    /// allows modulo salts on unsigned integers only): the integer codecs give it, every other
    /// codec `None`.
    #[doc(hidden)]
    #[inline(always)]
    fn unsigned(v: &T) -> Option<u128> {
        let _ = v;
        None
    }

    /// The largest value of an integer field's type as `u128` (the open end of a range on a
    /// modulo-salted field); `None` outside the integer codecs.
    #[doc(hidden)]
    const UNSIGNED_MAX: Option<u128> = None;

    /// Whether [`pieces`](Codec::pieces) is the default (one piece between the two bounds):
    /// the scan builder then writes the range straight from [`bound_into`](Codec::bound_into).
    /// `false` for the codecs that override `pieces`.
    #[doc(hidden)]
    const MONOTONE: bool = true;

    /// The values in the range from `lo` to `hi` (in the value's natural order) as byte ranges
    /// of this encoding, in byte order. For an order-preserving encoding that is one piece
    /// between the two [`bound`](Codec::bound)s (swapped when the byte order is reversed:
    /// `#[desc]` xor `#[reverse_ts]`); Java encodings of signed numbers override it, because
    /// their byte order wraps around at zero. A codec that overrides it sets `MONOTONE =
    /// false`, or the scan builder's one-range path would bypass the override.
    #[doc(hidden)]
    fn pieces(lo: core::ops::Bound<&T>, hi: core::ops::Bound<&T>, mask: u8) -> Pieces {
        let bound = |b: core::ops::Bound<&T>, upper: bool| match b {
            core::ops::Bound::Unbounded => Bound::All,
            core::ops::Bound::Included(v) => Self::bound(v, mask, upper, true),
            core::ops::Bound::Excluded(v) => Self::bound(v, mask, upper, false),
        };
        Pieces::monotone(
            bound(lo, false),
            bound(hi, true),
            (mask != 0) != Self::REVERSED,
            Self::PREFIX_FREE || mask != 0,
        )
    }
}

/// Decoding of a field of type `T` from the front of `input`; returns the value and the number
/// of bytes used. Error offsets are relative to `input`.
#[diagnostic::on_unimplemented(
    message = "rowkey: the encoding `{Self}` cannot decode a field of type `{T}`",
    note = "field types must be integers, bool, char, f32/f64, [u8; N], strings/bytes, Option of those, or types deriving RowKey"
)]
pub trait Decode<'de, T>: Codec<T> {
    /// Decode one value from the front of `input`.
    fn decode(input: &'de [u8], mask: u8) -> Result<(T, usize), DecodeError>;
}

/// The type's own order-preserving encoding: big-endian unsigned integers, sign-flipped
/// big-endian signed integers, `0x00`/`0x01` booleans, `char` as `u32`, IEEE total-order floats,
/// `[u8; N]` raw, and strings/bytes as raw content (valid only as the last field; escaped and
/// terminated when `#[desc]`).
#[derive(Debug, Clone, Copy)]
pub struct Natural;

/// HBase `Bytes.toBytes` encodings for interop with tables Java services wrote: two's-complement
/// big-endian integers, raw IEEE bits for floats, `0x00`/`0xFF` for booleans. **Negative numbers
/// sort after positive ones**, and negative floats in reverse: use it to read existing tables, not
/// for new ones.
///
/// ```
/// use rowkey::codec::{Codec, Java};
///
/// let mut buf = Vec::new();
/// <Java as Codec<i32>>::encode(&-1, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, [0xFF, 0xFF, 0xFF, 0xFF]); // Bytes.toBytes(-1): after every positive number
/// buf.clear();
/// <Java as Codec<bool>>::encode(&true, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, [0xFF]); // Bytes.toBytes(true)
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Java;

/// `#[pad(N)]` / `#[pad(N, fill = F)]`: strings and bytes right-padded with `F` to exactly `N`
/// bytes; unsigned integers as exactly `N` ASCII decimal digits (`FILL` is then 0 and unused).
///
/// Order: with the default `0x00` fill the byte order is the value order. With another fill
/// (`b' '` for interop) it is only for content bytes above the fill: `"a\x01"` sorts before
/// `"a"` under a space fill, because the shorter value is padded with `0x20`.
///
/// ```
/// use rowkey::codec::{Codec, Pad};
///
/// let mut buf = Vec::new();
/// <Pad<6, 0> as Codec<u32>>::encode(&42, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"000042"); // decimal digits, human-readable
/// buf.clear();
/// <Pad<4, b' '> as Codec<String>>::encode(&"eu".to_string(), &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"eu  ");
/// // never truncated: too long is an error
/// assert!(<Pad<4, 0> as Codec<String>>::encode(&"europe".to_string(), &mut buf, 0x00).is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Pad<const N: usize, const FILL: u8>;

/// `#[sep]`: content with `0x00` → `0x01 0x00` and `0x01` → `0x01 0x01` escaped, then a `0x00`
/// terminator. Order-preserving and prefix-free for all content; strings without `0x00`/`0x01`
/// are plain UTF-8 plus one `0x00` (readable in the HBase shell, Phoenix-compatible).
#[derive(Debug, Clone, Copy)]
pub struct Sep;

/// `#[sep(b'|')]`: content followed by the custom separator byte `S` (interop). Content containing
/// `S` is an encode error; order is preserved only for content bytes above `S`.
///
/// ```
/// use rowkey::codec::{Codec, SepByte};
///
/// let mut buf = Vec::new();
/// <SepByte<b'|'> as Codec<String>>::encode(&"web1".to_string(), &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"web1|");
/// let err = <SepByte<b'|'> as Codec<String>>::encode(&"a|b".to_string(), &mut buf, 0x00);
/// assert!(err.is_err()); // the separator inside the content
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SepByte<const S: u8>;

/// `#[reverse_ts]`: `i64::MAX - ts` as 8 bytes big-endian, byte-identical with Java
/// `Bytes.toBytes(Long.MAX_VALUE - ts)`; newest first. Timestamps must be in `0..=i64::MAX`.
///
/// ```
/// use rowkey::codec::{Codec, ReverseTs};
///
/// let enc = |ts: i64| {
///     let mut buf = Vec::new();
///     <ReverseTs as Codec<i64>>::encode(&ts, &mut buf, 0x00).map(|_| buf)
/// };
/// assert_eq!(enc(0)?, i64::MAX.to_be_bytes());
/// assert!(enc(2_000)? < enc(1_000)?); // newer sorts first
/// assert!(enc(-1).is_err());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ReverseTs;

/// `#[reverse]`: the fixed-width encoding `C` with its bytes (integers, `[u8; N]`), characters
/// (padded strings) or digits (padded unsigned integers) reversed: the fast-changing tail first.
/// Only exact-match scans are meaningful on it.
///
/// ```
/// use rowkey::codec::{Codec, Natural, Pad, Reverse};
///
/// let mut buf = Vec::new();
/// <Reverse<Natural> as Codec<u32>>::encode(&0x0102_0304, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, [4, 3, 2, 1]);
/// buf.clear();
/// <Reverse<Pad<6, 0>> as Codec<u64>>::encode(&1234, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"432100"); // phone numbers, order ids: the fast-changing digits first
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Reverse<C>(C);

#[inline(always)]
fn take<const W: usize>(input: &[u8]) -> Result<[u8; W], DecodeError> {
    match input.first_chunk::<W>() {
        Some(a) => Ok(*a),
        None => Err(DecodeError::truncated(
            input.len(),
            W - input.len(),
            input.len(),
        )),
    }
}

#[inline(always)]
fn put_masked<B: BufMut>(buf: &mut B, bytes: &[u8], mask: u8) {
    if mask == 0 {
        buf.put_slice(bytes);
    } else {
        let mut tmp = [0u8; 64];
        for chunk in bytes.chunks(64) {
            if let Some(t) = tmp.get_mut(..chunk.len()) {
                for (d, s) in t.iter_mut().zip(chunk) {
                    *d = s ^ mask;
                }
                buf.put_slice(t);
            }
        }
    }
}

fn unmask(bytes: &[u8], mask: u8) -> Vec<u8> {
    bytes.iter().map(|b| b ^ mask).collect()
}

/// A boolean byte: `0x00` false, `truth` true, anything else an error.
#[inline(always)]
fn decode_bool(
    input: &[u8],
    mask: u8,
    truth: u8,
    expected: &'static str,
) -> Result<(bool, usize), DecodeError> {
    let [b] = take::<1>(input)?;
    match b ^ mask {
        0x00 => Ok((false, 1)),
        t if t == truth => Ok((true, 1)),
        _ => Err(DecodeError::new(
            DecodeErrorKind::InvalidByte { byte: b, expected },
            0,
        )),
    }
}

mod content;
mod decimal;
pub(crate) mod escape;
mod int;
mod java;
mod option;
mod scalar;

pub use crate::integer::Integer;
pub use content::{AsContent, FromContent};

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time escape search against the obvious byte loop: every length up to 100
    /// and longer ones through the AVX2/AVX-512 paths,
    /// every position of a byte to find (each of the four bytes near the flagged range), both
    /// masks, over pseudo-random filler — for the search, the length pass and the one-pass
    /// copy-and-test alike; and the escaping built on it against a reference.
    #[test]
    fn escape_search_matches_byte_loop() {
        fn reference_escape(c: &[u8], mask: u8) -> Vec<u8> {
            let mut v = Vec::new();
            for &b in c {
                if b <= 1 {
                    v.push(1 ^ mask);
                }
                v.push(b ^ mask);
            }
            v.push(mask);
            v
        }
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // every short length, and lengths around the SIMD block sizes and thresholds
        let lens = (0..100usize).chain([127, 128, 129, 160, 191, 192, 255, 256, 257, 300, 513]);
        for len in lens {
            for mask in [0u8, 0xFF] {
                // filler that is never flagged (bytes 2..=0xFD, masked or not), then one byte
                // to find at each position, then random content with several
                let filler: Vec<u8> = (0..len).map(|_| 2 + (rnd() % 252) as u8).collect();
                assert_eq!(escape::find_low(&filler, mask), None, "{len} {mask}");
                assert_eq!(escape::escapes(&filler), 0);
                for at in 0..len {
                    for b in [0u8, 1, 2, 0x80, 0xFE, 0xFF] {
                        let mut c = filler.clone();
                        c[at] = b;
                        let want = c.iter().position(|&x| (x ^ mask) <= 1);
                        assert_eq!(escape::find_low(&c, mask), want, "{len} {at} {b} {mask}");
                        // the one-pass copy-and-test and the length pass see it too
                        let low = usize::from(b <= 1);
                        assert_eq!(escape::escapes(&c), low, "{len} {at} {b}");
                        let mut got = Vec::with_capacity(len + 4);
                        escape::put_escaped(&c, &mut got, mask);
                        got.push(mask);
                        assert_eq!(got, reference_escape(&c, mask), "{len} {at} {b} {mask}");
                    }
                }
                let c: Vec<u8> = (0..len).map(|_| (rnd() % 5) as u8 * 63).collect();
                let c2: Vec<u8> = (0..len).map(|_| rnd() as u8).collect();
                for c in [c, c2] {
                    let want = c.iter().position(|&x| (x ^ mask) <= 1);
                    assert_eq!(escape::find_low(&c, mask), want);
                    assert_eq!(escape::escapes(&c), c.iter().filter(|&&x| x <= 1).count());
                    let e = reference_escape(&c, mask);
                    assert_eq!(escape::escaped_len(&c), e.len());
                    // a growing buffer (first chunk: 64 bytes), an exact one, a roomy one
                    for cap in [0, e.len(), 2048] {
                        let mut got = Vec::with_capacity(cap);
                        escape::put_escaped(&c, &mut got, mask);
                        got.push(mask);
                        assert_eq!(got, e, "{len} {mask} {cap}");
                    }
                    let mut arr = [0u8; 1100];
                    let mut w = &mut arr[..];
                    escape::put_escaped(&c, &mut w, mask);
                    let left = w.len();
                    assert_eq!(&arr[..1100 - left], &e[..e.len() - 1]);
                    let mut tailed = e.clone();
                    tailed.extend_from_slice(&[7, 0, 1]);
                    let (back, used) = escape::get_escaped(&tailed, mask).unwrap();
                    assert_eq!((&back[..], used), (&c[..], e.len()));
                }
            }
        }
    }

    fn enc<C: Codec<T>, T>(v: &T, mask: u8) -> Vec<u8> {
        let mut b = Vec::new();
        C::encode(v, &mut b, mask).unwrap();
        assert_eq!(b.len(), C::len(v, mask));
        b
    }

    #[test]
    fn ints() {
        assert_eq!(enc::<Natural, i64>(&i64::MIN, 0), [0; 8]);
        assert_eq!(
            enc::<Natural, i64>(&-1, 0),
            [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        );
        assert_eq!(enc::<Natural, u16>(&0x1234, 0), [0x12, 0x34]);
        assert_eq!(enc::<Natural, u16>(&0x1234, 0xFF), [0xED, 0xCB]);
        assert_eq!(enc::<Java, i32>(&-1, 0), [0xFF; 4]);
        assert_eq!(enc::<Reverse<Natural>, u32>(&0x01020304, 0), [4, 3, 2, 1]);
        for v in [i16::MIN, -1, 0, 1, i16::MAX] {
            for m in [0, 0xFF] {
                let b = enc::<Natural, i16>(&v, m);
                assert_eq!(<Natural as Decode<i16>>::decode(&b, m).unwrap(), (v, 2));
            }
        }
    }

    #[test]
    fn reverse_ts_is_java_identical() {
        let ts: i64 = 1_700_000_000_000;
        assert_eq!(enc::<ReverseTs, i64>(&ts, 0), (i64::MAX - ts).to_be_bytes());
        assert!(<ReverseTs as Codec<i64>>::encode(&-1, &mut Vec::new(), 0).is_err());
        assert!(<ReverseTs as Codec<u64>>::encode(&u64::MAX, &mut Vec::new(), 0).is_err());
        assert_eq!(
            <ReverseTs as Decode<u64>>::decode(&(i64::MAX - 5).to_be_bytes(), 0).unwrap(),
            (5, 8)
        );
        // A stored value with the top bit set is never produced.
        assert!(<ReverseTs as Decode<i64>>::decode(&[0x80, 0, 0, 0, 0, 0, 0, 0], 0).is_err());
    }

    #[test]
    fn decimal() {
        assert_eq!(enc::<Pad<6, 0>, u32>(&1, 0), b"000001");
        assert_eq!(enc::<Reverse<Pad<6, 0>>, u32>(&12, 0), b"210000");
        assert!(<Pad<2, 0> as Codec<u32>>::encode(&100, &mut Vec::new(), 0).is_err());
        assert_eq!(enc::<Pad<45, 0>, u128>(&u128::MAX, 0).len(), 45);
        let b = enc::<Pad<45, 0>, u128>(&u128::MAX, 0);
        assert_eq!(
            <Pad<45, 0> as Decode<u128>>::decode(&b, 0).unwrap().0,
            u128::MAX
        );
        assert!(<Pad<3, 0> as Decode<u8>>::decode(b"300", 0).is_err());
        assert!(<Pad<3, 0> as Decode<u8>>::decode(b"2a5", 0).is_err());
        assert_eq!(<Pad<3, 0> as Decode<u8>>::decode(b"255", 0).unwrap().0, 255);
        assert!(<Pad<40, 0> as Decode<u128>>::decode(&[b'9'; 40], 0).is_err());
    }

    #[test]
    fn floats_total_order() {
        let vals = [
            f64::NEG_INFINITY,
            -1.5,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            1.0,
            f64::INFINITY,
            f64::NAN,
        ];
        let encs: Vec<_> = vals.iter().map(|v| enc::<Natural, f64>(v, 0)).collect();
        for w in encs.windows(2) {
            assert!(w[0] < w[1]);
        }
        for v in vals {
            let b = enc::<Natural, f64>(&v, 0);
            let (d, _) = <Natural as Decode<f64>>::decode(&b, 0).unwrap();
            assert_eq!(d.to_bits(), v.to_bits());
        }
    }

    #[test]
    fn escaped_strings() {
        let s = |x: &[u8]| enc::<Sep, Vec<u8>>(&x.to_vec(), 0);
        assert_eq!(s(b"host1"), b"host1\0");
        assert_eq!(s(b"\x00\x01\x02"), b"\x01\x00\x01\x01\x02\x00");
        assert!(s(b"host1") < s(b"host12"));
        assert!(s(b"a") < s(b"a\0"));
        assert!(s(b"a\0") < s(b"a\x01"));
        for v in [&b""[..], b"\0", b"\x01", b"a\x00\x01b", b"\xFF\xFF"] {
            for m in [0, 0xFF] {
                let b = enc::<Sep, Vec<u8>>(&v.to_vec(), m);
                let (d, n) = <Sep as Decode<Vec<u8>>>::decode(&b, m).unwrap();
                assert_eq!((d.as_slice(), n), (v, b.len()));
            }
        }
        assert!(<Sep as Decode<Vec<u8>>>::decode(b"ab", 0).is_err());
        assert!(<Sep as Decode<Vec<u8>>>::decode(b"a\x01\x05\x00", 0).is_err());
        assert!(<Sep as Decode<Vec<u8>>>::decode(b"a\x01", 0).is_err());
    }

    #[test]
    fn borrowed_decode() {
        let (s, _) = <Sep as Decode<&str>>::decode(b"abc\0", 0).unwrap();
        assert_eq!(s, "abc");
        let err = <Sep as Decode<&str>>::decode(b"a\x01\x00\0", 0).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::NeedsOwned);
    }

    #[test]
    fn padding() {
        assert_eq!(enc::<Pad<4, 0>, String>(&"ab".into(), 0), b"ab\0\0");
        assert_eq!(enc::<Pad<4, b' '>, String>(&"ab".into(), 0), b"ab  ");
        assert!(<Pad<4, 0> as Codec<String>>::encode(&"abcde".into(), &mut Vec::new(), 0).is_err());
        assert!(<Pad<4, b' '> as Codec<String>>::encode(&"a ".into(), &mut Vec::new(), 0).is_err());
        assert_eq!(
            enc::<Reverse<Pad<4, 0>>, String>(&"aé".into(), 0),
            "éa\0".as_bytes()
        );
        let b = enc::<Reverse<Pad<5, 0>>, String>(&"aé".into(), 0xFF);
        assert_eq!(
            <Reverse<Pad<5, 0>> as Decode<String>>::decode(&b, 0xFF)
                .unwrap()
                .0,
            "aé"
        );
    }

    #[test]
    fn options() {
        assert_eq!(enc::<Natural, Option<u8>>(&None, 0), [0]);
        assert_eq!(enc::<Natural, Option<u8>>(&Some(7), 0), [1, 7]);
        assert!(<Natural as Decode<Option<u8>>>::decode(&[2], 0).is_err());
    }
}
