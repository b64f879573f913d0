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

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::scan::{Lower, Pieces, Upper};

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
    fn bound(v: &T, mask: u8, upper: bool, inclusive: bool) -> Bound {
        let _ = upper;
        let mut bytes = Vec::with_capacity(Self::len(v, mask));
        match Self::encode(v, &mut bytes, mask) {
            Ok(()) => Bound::Bytes { bytes, inclusive },
            Err(_) => Bound::Nothing,
        }
    }

    /// The values in the range from `lo` to `hi` (in the value's natural order) as byte ranges
    /// of this encoding, in byte order. For an order-preserving encoding that is one piece
    /// between the two [`bound`](Codec::bound)s (swapped when the byte order is reversed:
    /// `#[desc]` xor `#[reverse_ts]`); Java encodings of signed numbers override it, because
    /// their byte order wraps around at zero.
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

/// A range bound over encodable values, as bytes (see [`Codec::bound`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// At the value (or prefix) encoded as `bytes`; `inclusive` keeps keys with it.
    Bytes {
        /// The encoding.
        bytes: Vec<u8>,
        /// Whether the bound includes the value itself.
        inclusive: bool,
    },
    /// No limit on this side: every encodable value passes.
    All,
    /// No encodable value passes.
    Nothing,
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
#[derive(Debug, Clone, Copy)]
pub struct Java;

/// `#[pad(N)]` / `#[pad(N, fill = F)]`: strings and bytes right-padded with `F` to exactly `N`
/// bytes; unsigned integers as exactly `N` ASCII decimal digits (`FILL` is then 0 and unused).
#[derive(Debug, Clone, Copy)]
pub struct Pad<const N: usize, const FILL: u8>;

/// `#[sep]`: content with `0x00` → `0x01 0x00` and `0x01` → `0x01 0x01` escaped, then a `0x00`
/// terminator. Order-preserving and prefix-free for all content; strings without `0x00`/`0x01`
/// are plain UTF-8 plus one `0x00` (readable in the HBase shell, Phoenix-compatible).
#[derive(Debug, Clone, Copy)]
pub struct Sep;

/// `#[sep(b'|')]`: content followed by the custom separator byte `S` (interop). Content containing
/// `S` is an encode error; order is preserved only for content bytes above `S`.
#[derive(Debug, Clone, Copy)]
pub struct SepByte<const S: u8>;

/// `#[reverse_ts]`: `i64::MAX - ts` as 8 bytes big-endian, byte-identical with Java
/// `Bytes.toBytes(Long.MAX_VALUE - ts)`; newest first. Timestamps must be in `0..=i64::MAX`.
#[derive(Debug, Clone, Copy)]
pub struct ReverseTs;

/// `#[reverse]`: the fixed-width encoding `C` with its bytes (integers, `[u8; N]`), characters
/// (padded strings) or digits (padded unsigned integers) reversed: the fast-changing tail first.
/// Only exact-match scans are meaningful on it.
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

// ---------------------------------------------------------------------------------------------
// integers

/// Integer types: conversions used by `#[reverse_ts]`, `#[pad]` decimal and `#[hash_prefix]`.
pub trait Integer: Copy {
    /// Byte width.
    const WIDTH: usize;
    /// Whether it is unsigned.
    const UNSIGNED: bool;
    /// Widen.
    fn to_i128(self) -> Option<i128>;
    /// Widen an unsigned value.
    fn to_u128(self) -> Option<u128>;
    /// Narrow, if it fits.
    fn from_i128(v: i128) -> Option<Self>;
    /// Narrow, if it fits.
    fn from_u128(v: u128) -> Option<Self>;
    /// The largest value, widened (0 for negative-only types; used for unsigned types).
    fn max_u128() -> u128;
}

macro_rules! int_impls {
    ($($t:ty, $u:ty, $w:expr, $signed:expr);* $(;)?) => {$(
        impl Integer for $t {
            const WIDTH: usize = $w;
            const UNSIGNED: bool = !$signed;
            #[inline(always)]
            fn to_i128(self) -> Option<i128> { i128::try_from(self).ok() }
            #[inline(always)]
            fn to_u128(self) -> Option<u128> { u128::try_from(self).ok() }
            #[inline(always)]
            fn from_i128(v: i128) -> Option<Self> { <$t>::try_from(v).ok() }
            #[inline(always)]
            fn from_u128(v: u128) -> Option<Self> { <$t>::try_from(v).ok() }
            #[inline(always)]
            fn max_u128() -> u128 { u128::try_from(<$t>::MAX).unwrap_or_default() }
        }

        impl Codec<$t> for Natural {
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { $w }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let m = <$u>::from_ne_bytes([mask; $w]);
                buf.put_slice(&((*v as $u ^ FLIP) ^ m).to_be_bytes());
                Ok(())
            }
        }
        impl<'de> Decode<'de, $t> for Natural {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let m = <$u>::from_ne_bytes([mask; $w]);
                let raw = <$u>::from_be_bytes(take::<$w>(input)?);
                Ok((((raw ^ m) ^ FLIP) as $t, $w))
            }
        }

        impl Codec<$t> for Java {
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { $w }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                let m = <$u>::from_ne_bytes([mask; $w]);
                buf.put_slice(&((*v as $u) ^ m).to_be_bytes());
                Ok(())
            }
            fn pieces(lo: core::ops::Bound<&$t>, hi: core::ops::Bound<&$t>, mask: u8) -> Pieces {
                // the value order as an unsigned key: the natural (sign-flipped) encoding
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let key = |v: &$t| u128::from(*v as $u ^ FLIP);
                let kind = if $signed { JavaKind::Signed } else { JavaKind::Unsigned };
                java_pieces(lo.map(key), hi.map(key), $w, kind, mask)
            }
        }
        impl<'de> Decode<'de, $t> for Java {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let m = <$u>::from_ne_bytes([mask; $w]);
                Ok((((<$u>::from_be_bytes(take::<$w>(input)?)) ^ m) as $t, $w))
            }
        }

        impl Codec<$t> for ReverseTs {
            const WIDTH: Option<usize> = Some(8);
            const PREFIX_FREE: bool = true;
            const REVERSED: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { 8 }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                let ts = match i64::try_from(*v) {
                    Ok(ts) if ts >= 0 => ts,
                    _ => return Err(reverse_ts_range(*v as i128)),
                };
                buf.put_u64(((i64::MAX - ts) as u64) ^ u64::from_ne_bytes([mask; 8]));
                Ok(())
            }
            fn bound(v: &$t, mask: u8, upper: bool, inclusive: bool) -> Bound {
                let x = *v as i128;
                if x < 0 {
                    if upper { Bound::Nothing } else { Bound::All }
                } else if x > i128::from(i64::MAX) {
                    if upper { Bound::All } else { Bound::Nothing }
                } else {
                    let mut bytes = Vec::with_capacity(8);
                    bytes.put_u64(((i64::MAX - x as i64) as u64) ^ u64::from_ne_bytes([mask; 8]));
                    Bound::Bytes { bytes, inclusive }
                }
            }
        }
        impl<'de> Decode<'de, $t> for ReverseTs {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let raw = u64::from_be_bytes(take::<8>(input)?) ^ u64::from_ne_bytes([mask; 8]);
                let stored = raw as i64;
                if stored < 0 {
                    return Err(DecodeError::new(DecodeErrorKind::OutOfRange, 0));
                }
                match <$t>::try_from(i64::MAX - stored) {
                    Ok(v) => Ok((v, 8)),
                    Err(_) => Err(DecodeError::new(DecodeErrorKind::OutOfRange, 0)),
                }
            }
        }

        impl Codec<$t> for Reverse<Natural> {
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { $w }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let m = <$u>::from_ne_bytes([mask; $w]);
                buf.put_slice(&((*v as $u ^ FLIP) ^ m).to_le_bytes());
                Ok(())
            }
        }
        impl<'de> Decode<'de, $t> for Reverse<Natural> {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let m = <$u>::from_ne_bytes([mask; $w]);
                let raw = <$u>::from_le_bytes(take::<$w>(input)?);
                Ok((((raw ^ m) ^ FLIP) as $t, $w))
            }
        }

        impl HashPlain for $t {
            #[inline(always)]
            fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R { f(&self.to_be_bytes()) }
        }
    )*};
}

/// How a Java (`Bytes.toBytes`) encoding relates to the value order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum JavaKind {
    /// Big-endian: the value order.
    Unsigned,
    /// Two's complement: non-negative values first, then the negative ones (each in order).
    Signed,
    /// Raw IEEE bits: non-negative values (and positive NaNs) in order, then the negative ones
    /// in reverse order (`-0` first, negative NaNs last).
    Float,
}

/// [`Codec::pieces`] for a Java encoding of `w` bytes. `lo`/`hi` are the range's bounds as
/// unsigned keys in value order (the natural encoding read as a big-endian integer), so the
/// selected values are exactly those a natural-encoded field of the same type would select.
/// The key space is cut where the Java byte order wraps (between negative and non-negative
/// values); each half is one byte range.
fn java_pieces(
    lo: core::ops::Bound<u128>,
    hi: core::ops::Bound<u128>,
    w: usize,
    kind: JavaKind,
    mask: u8,
) -> Pieces {
    use core::ops::Bound as B;
    let bits = (w * 8) as u32;
    let max = u128::MAX >> (128 - bits);
    let sign = 1u128 << (bits - 1);
    let lo = match lo {
        B::Unbounded => Some(0),
        B::Included(k) => Some(k),
        B::Excluded(k) => k.checked_add(1).filter(|&k| k <= max),
    };
    let hi = match hi {
        B::Unbounded => Some(max),
        B::Included(k) => Some(k),
        B::Excluded(k) => k.checked_sub(1),
    };
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Pieces::none();
    };
    // (first key, last key, Java bits ascending with the key)
    let halves: &[(u128, u128, bool)] = match kind {
        JavaKind::Unsigned => &[(0, max, true)],
        JavaKind::Signed => &[(0, sign - 1, true), (sign, max, true)],
        JavaKind::Float => &[(0, sign - 1, false), (sign, max, true)],
    };
    let java_bits = |k: u128| match kind {
        JavaKind::Unsigned => k,
        JavaKind::Signed => k ^ sign,
        JavaKind::Float if k & sign != 0 => k ^ sign,
        JavaKind::Float => !k & max,
    };
    let enc = |b: u128| -> Vec<u8> {
        let be = b.to_be_bytes();
        be.get(16 - w..)
            .unwrap_or_default()
            .iter()
            .map(|x| x ^ mask)
            .collect()
    };
    let mut out = Pieces::none();
    for &(first, last, ascending) in halves {
        let (a, b) = (lo.max(first), hi.min(last));
        if a > b {
            continue;
        }
        let (mut x, mut y) = (enc(java_bits(a)), enc(java_bits(b)));
        // byte order: descending halves and `#[desc]` each swap the ends
        if ascending == (mask != 0) {
            core::mem::swap(&mut x, &mut y);
        }
        // Fixed width: no valid key lies between `prefix` and `prefix ++ 00…00`, nor between
        // the keys starting with `y` and `y + 1`. Said that way, the two pieces of a range
        // that covers the wrap point touch, and `Scan::ranges` joins them into one.
        let lower = if x.iter().all(|&b| b == 0) {
            Lower::Prefix
        } else {
            Lower::At(x)
        };
        let upper = match fixed_successor(y) {
            Some(next) => Upper::At(next),
            None => Upper::PrefixEnd,
        };
        out.push(lower, upper);
    }
    out.sorted()
}

/// `b + 1` as a fixed-width big-endian integer; `None` when `b` is all `0xFF`.
fn fixed_successor(mut b: Vec<u8>) -> Option<Vec<u8>> {
    for x in b.iter_mut().rev() {
        if *x == 0xFF {
            *x = 0;
        } else {
            *x += 1;
            return Some(b);
        }
    }
    None
}

#[cold]
fn reverse_ts_range(value: i128) -> EncodeError {
    EncodeError::new("", EncodeErrorKind::TimestampOutOfRange { value })
}

int_impls! {
    u8, u8, 1, false; u16, u16, 2, false; u32, u32, 4, false; u64, u64, 8, false; u128, u128, 16, false;
    i8, u8, 1, true; i16, u16, 2, true; i32, u32, 4, true; i64, u64, 8, true; i128, u128, 16, true;
}

// `#[pad(N)]` on unsigned integers: N ASCII decimal digits.
macro_rules! decimal_impls {
    ($($t:ty),*) => {$(
        impl<const N: usize> Codec<$t> for Pad<N, 0> {
            const WIDTH: Option<usize> = Some(N);
            const PREFIX_FREE: bool = true;
            #[inline]
            fn len(_: &$t, _: u8) -> usize { N }
            #[inline]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                put_decimal(*v as u128, N, false, buf, mask)
            }
            fn bound(v: &$t, mask: u8, upper: bool, inclusive: bool) -> Bound {
                let mut bytes = Vec::with_capacity(N);
                match put_decimal(*v as u128, N, false, &mut bytes, mask) {
                    Ok(()) => Bound::Bytes { bytes, inclusive },
                    // more digits than N: above every encodable value
                    Err(_) if upper => Bound::All,
                    Err(_) => Bound::Nothing,
                }
            }
        }
        impl<'de, const N: usize> Decode<'de, $t> for Pad<N, 0> {
            #[inline]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let v = get_decimal(input, N, false, mask)?;
                <$t>::try_from(v).map(|v| (v, N)).map_err(|_| DecodeError::new(DecodeErrorKind::OutOfRange, 0))
            }
        }
        impl<const N: usize> Codec<$t> for Reverse<Pad<N, 0>> {
            const WIDTH: Option<usize> = Some(N);
            const PREFIX_FREE: bool = true;
            #[inline]
            fn len(_: &$t, _: u8) -> usize { N }
            #[inline]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                put_decimal(*v as u128, N, true, buf, mask)
            }
        }
        impl<'de, const N: usize> Decode<'de, $t> for Reverse<Pad<N, 0>> {
            #[inline]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let v = get_decimal(input, N, true, mask)?;
                <$t>::try_from(v).map(|v| (v, N)).map_err(|_| DecodeError::new(DecodeErrorKind::OutOfRange, 0))
            }
        }
    )*};
}
decimal_impls!(u8, u16, u32, u64, u128);

fn put_decimal<B: BufMut>(
    mut v: u128,
    n: usize,
    reversed: bool,
    buf: &mut B,
    mask: u8,
) -> Result<(), EncodeError> {
    // u128::MAX has 39 digits.
    let mut digits = [b'0'; 40];
    let orig = v;
    let mut used = 0;
    for d in digits.iter_mut().rev() {
        if v == 0 {
            break;
        }
        *d = b'0' + (v % 10) as u8;
        v /= 10;
        used += 1;
    }
    if used > n {
        return Err(EncodeError::new(
            "",
            EncodeErrorKind::TooManyDigits {
                value: orig,
                digits: n,
            },
        ));
    }
    // n may exceed 40: leading zeros first.
    let zeros = n.saturating_sub(digits.len());
    let start = digits.len() - (n - zeros);
    let body = digits.get_mut(start..).unwrap_or_default();
    if reversed {
        body.reverse();
        put_masked(buf, body, mask);
        buf.put_bytes(b'0' ^ mask, zeros);
    } else {
        buf.put_bytes(b'0' ^ mask, zeros);
        put_masked(buf, body, mask);
    }
    Ok(())
}

fn get_decimal(input: &[u8], n: usize, reversed: bool, mask: u8) -> Result<u128, DecodeError> {
    let Some(digits) = input.get(..n) else {
        return Err(DecodeError::truncated(
            input.len(),
            n - input.len(),
            input.len(),
        ));
    };
    let mut v: u128 = 0;
    let mut step = |i: usize, b: u8| -> Result<(), DecodeError> {
        let d = b ^ mask;
        if !d.is_ascii_digit() {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: b,
                    expected: "an ASCII decimal digit",
                },
                i,
            ));
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u128::from(d - b'0')))
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::OutOfRange, i))?;
        Ok(())
    };
    if reversed {
        for (i, &b) in digits.iter().enumerate().rev() {
            step(i, b)?;
        }
    } else {
        for (i, &b) in digits.iter().enumerate() {
            step(i, b)?;
        }
    }
    Ok(v)
}

// ---------------------------------------------------------------------------------------------
// bool, char, floats, arrays

impl Codec<bool> for Natural {
    const WIDTH: Option<usize> = Some(1);
    const PREFIX_FREE: bool = true;
    #[inline(always)]
    fn len(_: &bool, _: u8) -> usize {
        1
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &bool, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        buf.put_u8(u8::from(*v) ^ mask);
        Ok(())
    }
}
impl<'de> Decode<'de, bool> for Natural {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<(bool, usize), DecodeError> {
        decode_bool(input, mask, 0x01, "a boolean 0x00 or 0x01")
    }
}
impl Codec<bool> for Java {
    const WIDTH: Option<usize> = Some(1);
    const PREFIX_FREE: bool = true;
    #[inline(always)]
    fn len(_: &bool, _: u8) -> usize {
        1
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &bool, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        buf.put_u8(if *v { 0xFF } else { 0x00 } ^ mask);
        Ok(())
    }
}
impl<'de> Decode<'de, bool> for Java {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<(bool, usize), DecodeError> {
        decode_bool(input, mask, 0xFF, "a Java boolean 0x00 or 0xFF")
    }
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

impl Codec<char> for Natural {
    const WIDTH: Option<usize> = Some(4);
    const PREFIX_FREE: bool = true;
    #[inline(always)]
    fn len(_: &char, _: u8) -> usize {
        4
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &char, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        buf.put_u32(u32::from(*v) ^ u32::from_ne_bytes([mask; 4]));
        Ok(())
    }
}
impl<'de> Decode<'de, char> for Natural {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<(char, usize), DecodeError> {
        let value = u32::from_be_bytes(take::<4>(input)?) ^ u32::from_ne_bytes([mask; 4]);
        char::from_u32(value)
            .map(|c| (c, 4))
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::InvalidChar { value }, 0))
    }
}
impl HashPlain for char {
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        let mut b = [0u8; 4];
        f(self.encode_utf8(&mut b).as_bytes())
    }
}

macro_rules! float_impls {
    ($($t:ty, $u:ty, $w:expr);*) => {$(
        impl Codec<$t> for Natural {
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { $w }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                const SIGN: $u = 1 << ($w * 8 - 1);
                let bits = v.to_bits();
                let t = if bits & SIGN != 0 { !bits } else { bits ^ SIGN };
                buf.put_slice(&(t ^ <$u>::from_ne_bytes([mask; $w])).to_be_bytes());
                Ok(())
            }
        }
        impl<'de> Decode<'de, $t> for Natural {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                const SIGN: $u = 1 << ($w * 8 - 1);
                let t = <$u>::from_be_bytes(take::<$w>(input)?) ^ <$u>::from_ne_bytes([mask; $w]);
                let bits = if t & SIGN != 0 { t ^ SIGN } else { !t };
                Ok((<$t>::from_bits(bits), $w))
            }
        }
        impl Codec<$t> for Java {
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { $w }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                buf.put_slice(&(v.to_bits() ^ <$u>::from_ne_bytes([mask; $w])).to_be_bytes());
                Ok(())
            }
            fn pieces(lo: core::ops::Bound<&$t>, hi: core::ops::Bound<&$t>, mask: u8) -> Pieces {
                // the value order (IEEE total order, as the natural encoding) as an unsigned key
                const SIGN: $u = 1 << ($w * 8 - 1);
                let key = |v: &$t| {
                    let bits = v.to_bits();
                    u128::from(if bits & SIGN != 0 { !bits } else { bits ^ SIGN })
                };
                java_pieces(lo.map(key), hi.map(key), $w, JavaKind::Float, mask)
            }
        }
        impl<'de> Decode<'de, $t> for Java {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let t = <$u>::from_be_bytes(take::<$w>(input)?) ^ <$u>::from_ne_bytes([mask; $w]);
                Ok((<$t>::from_bits(t), $w))
            }
        }
    )*};
}
float_impls!(f32, u32, 4; f64, u64, 8);

impl<const N: usize> Codec<[u8; N]> for Natural {
    const WIDTH: Option<usize> = Some(N);
    const PREFIX_FREE: bool = true;
    #[inline(always)]
    fn len(_: &[u8; N], _: u8) -> usize {
        N
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &[u8; N], buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        put_masked(buf, v, mask);
        Ok(())
    }
}
impl<'de, const N: usize> Decode<'de, [u8; N]> for Natural {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<([u8; N], usize), DecodeError> {
        let mut a = take::<N>(input)?;
        if mask != 0 {
            a.iter_mut().for_each(|b| *b ^= mask);
        }
        Ok((a, N))
    }
}
impl<const N: usize> Codec<[u8; N]> for Reverse<Natural> {
    const WIDTH: Option<usize> = Some(N);
    const PREFIX_FREE: bool = true;
    #[inline(always)]
    fn len(_: &[u8; N], _: u8) -> usize {
        N
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &[u8; N], buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        let mut a = *v;
        a.reverse();
        put_masked(buf, &a, mask);
        Ok(())
    }
}
impl<'de, const N: usize> Decode<'de, [u8; N]> for Reverse<Natural> {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<([u8; N], usize), DecodeError> {
        let (mut a, n) = <Natural as Decode<'de, [u8; N]>>::decode(input, mask)?;
        a.reverse();
        Ok((a, n))
    }
}
impl<const N: usize> HashPlain for [u8; N] {
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self)
    }
}

// ---------------------------------------------------------------------------------------------
// Option

/// `Option<T>`: a presence byte (`0x00` None, `0x01` Some) then `T`; `None` sorts first.
impl<T, C: Codec<T>> Codec<Option<T>> for C {
    const WIDTH: Option<usize> = None;
    const PREFIX_FREE: bool = C::PREFIX_FREE;
    const REVERSED: bool = C::REVERSED;
    #[inline]
    fn len(v: &Option<T>, mask: u8) -> usize {
        match v {
            None => 1,
            Some(v) => 1 + C::len(v, mask),
        }
    }
    #[inline]
    fn encode<B: BufMut>(v: &Option<T>, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        match v {
            None => {
                buf.put_u8(mask);
                Ok(())
            }
            Some(v) => {
                buf.put_u8(1 ^ mask);
                C::encode(v, buf, mask)
            }
        }
    }
    fn bound(v: &Option<T>, mask: u8, upper: bool, inclusive: bool) -> Bound {
        let Some(inner) = v else {
            return Bound::Bytes {
                bytes: vec![mask],
                inclusive,
            };
        };
        match C::bound(inner, mask, upper, inclusive) {
            Bound::Bytes { bytes, inclusive } => {
                let mut b = Vec::with_capacity(bytes.len() + 1);
                b.push(1 ^ mask);
                b.extend_from_slice(&bytes);
                Bound::Bytes {
                    bytes: b,
                    inclusive,
                }
            }
            // every Some(..) value: the presence byte as a prefix
            Bound::All => Bound::Bytes {
                bytes: vec![1 ^ mask],
                inclusive: true,
            },
            // no Some(..) value: only None is at or below
            Bound::Nothing if upper => Bound::Bytes {
                bytes: vec![mask],
                inclusive: true,
            },
            Bound::Nothing => Bound::Nothing,
        }
    }
    fn pieces(
        lo: core::ops::Bound<&Option<T>>,
        hi: core::ops::Bound<&Option<T>>,
        mask: u8,
    ) -> Pieces {
        use core::ops::Bound as B;
        // None sorts before every Some(..)
        let none_in =
            matches!(lo, B::Unbounded | B::Included(None)) && !matches!(hi, B::Excluded(None));
        let some_lo = match lo {
            B::Unbounded | B::Included(None) | B::Excluded(None) => B::Unbounded,
            B::Included(Some(v)) => B::Included(v),
            B::Excluded(Some(v)) => B::Excluded(v),
        };
        let some_hi = match hi {
            B::Unbounded => Some(B::Unbounded),
            B::Included(None) | B::Excluded(None) => None,
            B::Included(Some(v)) => Some(B::Included(v)),
            B::Excluded(Some(v)) => Some(B::Excluded(v)),
        };
        let mut out = match some_hi {
            Some(some_hi) => C::pieces(some_lo, some_hi, mask).prefixed(&[1 ^ mask]),
            None => Pieces::none(),
        };
        if none_in {
            out.push(Lower::At(vec![mask]), Upper::After(vec![mask]));
        }
        out.sorted()
    }
}
impl<'de, T, C: Decode<'de, T>> Decode<'de, Option<T>> for C {
    #[inline]
    fn decode(input: &'de [u8], mask: u8) -> Result<(Option<T>, usize), DecodeError> {
        let [b] = take::<1>(input)?;
        match b ^ mask {
            0 => Ok((None, 1)),
            1 => {
                let rest = input.get(1..).unwrap_or_default();
                let (v, n) = C::decode(rest, mask).map_err(|e| e.shifted(1))?;
                Ok((Some(v), n + 1))
            }
            _ => Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: b,
                    expected: "an Option presence byte 0x00 or 0x01",
                },
                0,
            )),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// strings and bytes

/// String and byte types: their content bytes.
pub trait AsContent {
    /// Whether the content is UTF-8 text (reversal then works on characters).
    const TEXT: bool;
    /// The content bytes.
    fn content(&self) -> &[u8];
}

/// Building a string or byte value from decoded content (borrowed when the key bytes can be
/// used as they are).
pub trait FromContent<'de>: Sized {
    /// Build from content. Strings validate UTF-8.
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind>;
}

impl AsContent for String {
    const TEXT: bool = true;
    #[inline(always)]
    fn content(&self) -> &[u8] {
        self.as_bytes()
    }
}
impl AsContent for Box<str> {
    const TEXT: bool = true;
    #[inline(always)]
    fn content(&self) -> &[u8] {
        self.as_bytes()
    }
}
impl AsContent for &str {
    const TEXT: bool = true;
    #[inline(always)]
    fn content(&self) -> &[u8] {
        self.as_bytes()
    }
}
impl AsContent for Vec<u8> {
    const TEXT: bool = false;
    #[inline(always)]
    fn content(&self) -> &[u8] {
        self
    }
}
impl AsContent for &[u8] {
    const TEXT: bool = false;
    #[inline(always)]
    fn content(&self) -> &[u8] {
        self
    }
}
impl AsContent for Bytes {
    const TEXT: bool = false;
    #[inline(always)]
    fn content(&self) -> &[u8] {
        self
    }
}

impl<'de> FromContent<'de> for String {
    #[inline(always)]
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        match c {
            Cow::Borrowed(b) => core::str::from_utf8(b)
                .map(str::to_owned)
                .map_err(|_| DecodeErrorKind::InvalidUtf8),
            Cow::Owned(v) => String::from_utf8(v).map_err(|_| DecodeErrorKind::InvalidUtf8),
        }
    }
}
impl<'de> FromContent<'de> for Box<str> {
    #[inline]
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        String::from_content(c).map(String::into_boxed_str)
    }
}
impl<'de: 'a, 'a> FromContent<'de> for &'a str {
    #[inline]
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        match c {
            Cow::Borrowed(b) => core::str::from_utf8(b).map_err(|_| DecodeErrorKind::InvalidUtf8),
            Cow::Owned(_) => Err(DecodeErrorKind::NeedsOwned),
        }
    }
}
impl<'de> FromContent<'de> for Vec<u8> {
    #[inline]
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        Ok(c.into_owned())
    }
}
impl<'de: 'a, 'a> FromContent<'de> for &'a [u8] {
    #[inline]
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        match c {
            Cow::Borrowed(b) => Ok(b),
            Cow::Owned(_) => Err(DecodeErrorKind::NeedsOwned),
        }
    }
}
impl<'de> FromContent<'de> for Bytes {
    #[inline]
    fn from_content(c: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        Ok(match c {
            Cow::Borrowed(b) => Bytes::copy_from_slice(b),
            Cow::Owned(v) => Bytes::from(v),
        })
    }
}

/// Content helpers shared by the string/bytes codecs (also used by scan builders).
pub mod content {
    use core::mem::MaybeUninit;

    use super::*;

    // The search for bytes to escape, a word (8 bytes) at a time: every escaping routine
    // below spends its time here, so content without `0x00`/`0x01` costs one fast pass.

    /// From this many bytes on, the AVX2/AVX-512 builds of the block loops are used (when the
    /// CPU has them): below, the call and the feature check cost more than they save.
    const AVX2_FROM: usize = 128;
    // the 64-byte blocks of the AVX-512 copy need at least one whole block
    const _: () = assert!(AVX2_FROM >= 64);
    const LO7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HI: u64 = 0x8080_8080_8080_8080;
    /// Clears bit 0 of every byte: `0x00` and `0x01` (only they) become `0x00`.
    const NOT_BIT0: u64 = 0xFEFE_FEFE_FEFE_FEFE;

    /// `0x80` in each byte of `w` that is `0x00` or `0x01`, `0x00` in every other byte (exact
    /// per byte: no carry crosses bytes).
    #[inline(always)]
    fn low_flags(w: u64) -> u64 {
        let x = w & NOT_BIT0;
        // per byte: high bit of `(x & 0x7F) + 0x7F` is set iff the low 7 bits are not all zero
        !(((x & LO7).wrapping_add(LO7)) | x) & HI
    }

    /// Index of the first byte `b` of `c` with `b ^ mask` in `{0x00, 0x01}`.
    ///
    /// Short content (up to 32 bytes) is read as two or four overlapping words (no byte
    /// loop, no tail loop); longer content in blocks of 32 bytes tested with one branch each (a byte-wise OR the
    /// compiler turns into vector compares), the exact position then taken from little-endian
    /// words (the lowest flag is the first such byte), the last partial word read overlapping
    /// its predecessor.
    #[inline(always)]
    pub fn find_low(c: &[u8], mask: u8) -> Option<usize> {
        let m = u64::from_ne_bytes([mask; 8]);
        let flags = |w: u64| low_flags(w ^ m);
        let at = |f: u64| (f.trailing_zeros() / 8) as usize;
        let n = c.len();
        if n < 8 {
            if let (Some(a), Some(b)) = (c.first_chunk::<4>(), c.last_chunk::<4>()) {
                // 4..=7 bytes: the first four and the last four, overlapping
                let w = u64::from(u32::from_le_bytes(*a)) | u64::from(u32::from_le_bytes(*b)) << 32;
                let f = flags(w);
                return (f != 0).then(|| {
                    let i = at(f);
                    if i < 4 {
                        i
                    } else {
                        i + n - 8
                    }
                });
            }
            return c.iter().position(|&b| (b ^ mask) <= 1);
        }
        if n <= 32 {
            // 8..=32 bytes: words at 0 and 8 (when n > 16), then n - 16 and n - 8, in this
            // order (each overlapping bytes already found clean); no loop
            let word = |at_: usize| {
                c.get(at_..)
                    .and_then(<[u8]>::first_chunk::<8>)
                    .map_or(0, |w| flags(u64::from_le_bytes(*w)))
            };
            let (offsets, k) = if n <= 16 {
                ([0, n - 8, 0, 0], 2)
            } else {
                ([0, 8, n - 16, n - 8], 4)
            };
            return offsets.into_iter().take(k).find_map(|o| {
                let f = word(o);
                (f != 0).then(|| o + at(f))
            });
        }
        let (blocks, rest) = c.as_chunks::<32>();
        if let Some(k) = first_low_block(blocks, mask) {
            let (ws, _) = blocks.get(k)?.as_chunks::<8>();
            return ws.iter().enumerate().find_map(|(j, w)| {
                let f = flags(u64::from_le_bytes(*w));
                (f != 0).then(|| k * 32 + j * 8 + at(f))
            });
        }
        let base = n - rest.len();
        let (ws, tail) = rest.as_chunks::<8>();
        for (j, w) in ws.iter().enumerate() {
            let f = flags(u64::from_le_bytes(*w));
            if f != 0 {
                return Some(base + j * 8 + at(f));
            }
        }
        if tail.is_empty() {
            return None;
        }
        // the last word, overlapping bytes already found clean
        let f = flags(u64::from_le_bytes(*c.last_chunk::<8>()?));
        (f != 0).then(|| n - 8 + at(f))
    }

    /// Whether the byte-wise test of a 32-byte block finds `0x00`/`0x01` (after `^ mask`): a
    /// loop the compiler turns into vector compares and ORs.
    #[inline(always)]
    fn block_low(b: &[u8; 32], mask: u8) -> bool {
        b.iter().fold(0u8, |a, &x| a | u8::from((x ^ mask) <= 1)) != 0
    }

    /// Index of the first block holding a byte `b` with `b ^ mask` in `{0x00, 0x01}`: with
    /// AVX2 when the CPU has it and there are `AVX2_FROM` bytes or more (one 32-byte compare per
    /// block instead of two 16-byte ones).
    #[inline(always)]
    fn first_low_block(blocks: &[[u8; 32]], mask: u8) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if blocks.len() >= AVX2_FROM / 32 && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { first_low_block_avx2(blocks, mask) };
        }
        first_low_block_portable(blocks, mask)
    }

    /// The loop of [`first_low_block`] (a plain loop: `Iterator::position` may stay a call).
    #[inline(always)]
    fn first_low_block_portable(blocks: &[[u8; 32]], mask: u8) -> Option<usize> {
        for (k, b) in blocks.iter().enumerate() {
            if block_low(b, mask) {
                return Some(k);
            }
        }
        None
    }

    /// [`first_low_block`] compiled for AVX2 (the same portable code).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn first_low_block_avx2(blocks: &[[u8; 32]], mask: u8) -> Option<usize> {
        first_low_block_portable(blocks, mask)
    }

    /// Number of bytes `0x00`/`0x01` in `c` (each costs one escape byte).
    #[inline(always)]
    pub fn escapes(c: &[u8]) -> usize {
        if any_low(c) {
            escapes_from(c)
        } else {
            0
        }
    }

    /// Whether `c` holds a `0x00`/`0x01`: [`find_low`] without the position, so without a
    /// branch per word or block (an OR of all the flags, tested once).
    #[inline(always)]
    fn any_low(c: &[u8]) -> bool {
        let word = |w: &[u8; 8]| low_flags(u64::from_ne_bytes(*w));
        let n = c.len();
        if n < 8 {
            return find_low(c, 0).is_some();
        }
        if n <= 32 {
            // words at 0, n - 8 and, beyond 16 bytes, 8 and n - 16
            let at = |o: usize| {
                c.get(o..)
                    .and_then(<[u8]>::first_chunk::<8>)
                    .map_or(0, word)
            };
            let mut f = at(0) | at(n - 8);
            if n > 16 {
                f |= at(8) | at(n - 16);
            }
            return f != 0;
        }
        #[cfg(target_arch = "x86_64")]
        if n >= AVX2_FROM && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { any_low_blocks_avx2(c) };
        }
        any_low_blocks(c)
    }

    /// [`any_low`] over 32-byte blocks (more than 32 bytes), the last one overlapping.
    #[inline(never)]
    fn any_low_blocks(c: &[u8]) -> bool {
        any_low_blocks_inline(c)
    }

    #[inline(always)]
    fn any_low_blocks_inline(c: &[u8]) -> bool {
        let (blocks, tail) = c.as_chunks::<32>();
        let mut low = 0u8;
        for b in blocks {
            low |= u8::from(block_low(b, 0));
        }
        if !tail.is_empty() {
            if let Some(b) = c.last_chunk::<32>() {
                low |= u8::from(block_low(b, 0));
            }
        }
        low != 0
    }

    /// [`any_low_blocks`] compiled for AVX2 (the same portable code).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn any_low_blocks_avx2(c: &[u8]) -> bool {
        any_low_blocks_inline(c)
    }

    /// The count of [`escapes`] once one is known to exist (rare: out of line).
    #[cold]
    #[inline(never)]
    fn escapes_from(c: &[u8]) -> usize {
        c.iter().filter(|&&b| b <= 1).count()
    }

    /// Escaped length of `c`, terminator included.
    #[inline(always)]
    pub fn escaped_len(c: &[u8]) -> usize {
        c.len() + escapes(c) + 1
    }

    /// Write `c` escaped (`0x00` → `0x01 0x00`, `0x01` → `0x01 0x01`), without terminator.
    ///
    /// Ascending content of 8 bytes or more is copied and tested in one pass
    /// (`put_plain`); the search runs separately only when that finds a byte to escape, the
    /// content is shorter or descending, or the buffer has no room in its current chunk.
    #[inline(always)]
    pub fn put_escaped<B: BufMut>(c: &[u8], buf: &mut B, mask: u8) {
        if mask == 0 && c.len() >= 8 && put_plain(c, buf) {
            return;
        }
        put_escaped_search(c, buf, mask);
    }

    /// [`put_escaped`] by searching first (short or descending content, or a byte to escape
    /// found by the one-pass copy): out of line, so that the inlined fast path stays small.
    #[inline(never)]
    fn put_escaped_search<B: BufMut>(c: &[u8], buf: &mut B, mask: u8) {
        match find_low(c, 0) {
            None => put_masked(buf, c, mask),
            Some(i) => put_escaped_from(c, i, buf, mask),
        }
    }

    /// Copy `c` (8 bytes or more) into `buf` and test it for bytes to escape in the same pass;
    /// `true` if there were none (`c` is written), `false` if there were or `buf`'s current
    /// chunk is shorter than `c` (then nothing is written).
    #[inline(always)]
    fn put_plain<B: BufMut>(c: &[u8], buf: &mut B) -> bool {
        let n = c.len();
        let chunk = buf.chunk_mut();
        if chunk.len() < n {
            return false;
        }
        // SAFETY: only initialized bytes (copies of `c`) are written through this slice.
        let dst = unsafe { chunk.as_uninit_slice_mut() };
        let Some(dst) = dst.get_mut(..n) else {
            return false;
        };
        if !copy_plain(c, dst) {
            return false;
        }
        // SAFETY: `copy_plain` initialized all `n` bytes of `dst`, the start of `chunk_mut()`.
        unsafe { buf.advance_mut(n) };
        true
    }

    /// Copy `src` into `dst` (same length, 8 or more) and tell whether no byte is
    /// `0x00`/`0x01`. Up to 32 bytes: words, the last one overlapping its predecessor; longer:
    /// blocks (a copy and a byte-wise test the compiler vectorizes), the last one overlapping:
    /// 32 bytes (SSE2), or from `AVX2_FROM` bytes on 64 bytes with AVX-512BW or 32 with AVX2
    /// when the CPU has them.
    #[inline(always)]
    fn copy_plain(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
        if src.len() <= 32 {
            return copy_plain_words(src, dst);
        }
        #[cfg(target_arch = "x86_64")]
        if src.len() >= AVX2_FROM {
            if std::is_x86_feature_detected!("avx512bw") {
                // SAFETY: the CPU supports AVX-512BW, checked just above.
                return unsafe { copy_plain_blocks_avx512(src, dst) };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2, checked just above.
                return unsafe { copy_plain_blocks_avx2(src, dst) };
            }
        }
        copy_plain_blocks::<32>(src, dst)
    }

    /// 8..=32 bytes: two (up to 16 bytes) or four words, the last ones overlapping their
    /// predecessors; no loop.
    #[inline(always)]
    fn copy_plain_words(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
        fn half<const N: usize>(
            src: &[u8],
            dst: &mut [MaybeUninit<u8>],
            flag: impl Fn(&[u8; N]) -> u64,
        ) -> u64 {
            let mut flags = 0;
            if let (Some(d), Some(s)) = (dst.first_chunk_mut::<N>(), src.first_chunk::<N>()) {
                put_array(d, s);
                flags |= flag(s);
            }
            if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
                put_array(d, s);
                flags |= flag(s);
            }
            flags
        }
        let word = |s: &[u8; 8]| low_flags(u64::from_ne_bytes(*s));
        let flags = if src.len() <= 16 {
            half::<8>(src, dst, word)
        } else {
            half::<16>(src, dst, |s: &[u8; 16]| {
                let (a, b) = s.split_at(8);
                a.as_chunks::<8>()
                    .0
                    .iter()
                    .chain(b.as_chunks::<8>().0)
                    .fold(0, |f, w| f | word(w))
            })
        };
        flags == 0
    }

    /// Blocks of `N` bytes: each copied whole and tested byte-wise (a loop the compiler turns
    /// into vector compares), the last one overlapping its predecessor.
    #[inline(always)]
    fn copy_plain_blocks<const N: usize>(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
        // Every byte of `dst` must be written before `true` is returned (the caller then
        // advances the buffer over them): only whole blocks, the last one overlapping, cover it.
        if src.len() < N || dst.len() != src.len() {
            return false;
        }
        let block = |d: &mut [MaybeUninit<u8>; N], s: &[u8; N]| {
            let v = *s;
            put_array(d, &v);
            v.iter().fold(0u8, |a, &x| a | u8::from(x <= 1))
        };
        let mut low = 0u8;
        let (sb, tail) = src.as_chunks::<N>();
        let (db, _) = dst.as_chunks_mut::<N>();
        for (d, s) in db.iter_mut().zip(sb) {
            low |= block(d, s);
        }
        if !tail.is_empty() {
            if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
                low |= block(d, s);
            }
        }
        low == 0
    }

    /// `d = s` (one vector or word store once compiled).
    #[inline(always)]
    fn put_array<const N: usize>(d: &mut [MaybeUninit<u8>; N], s: &[u8; N]) {
        for (d, &s) in d.iter_mut().zip(s) {
            d.write(s);
        }
    }

    /// [`copy_plain_blocks`] compiled for AVX2 (the same portable code).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn copy_plain_blocks_avx2(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
        copy_plain_blocks::<32>(src, dst)
    }

    /// [`copy_plain_blocks`] compiled for AVX-512BW, in 64-byte blocks (the same portable code).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512bw")]
    fn copy_plain_blocks_avx512(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
        copy_plain_blocks::<64>(src, dst)
    }

    /// [`put_escaped`] once the first byte to escape, at `i`, is known.
    #[inline(never)]
    fn put_escaped_from<B: BufMut>(c: &[u8], mut i: usize, buf: &mut B, mask: u8) {
        let mut rest = c;
        loop {
            let (run, tail) = rest.split_at_checked(i).unwrap_or((rest, &[]));
            let Some((&b, after)) = tail.split_first() else {
                put_masked(buf, rest, mask);
                return;
            };
            put_masked(buf, run, mask);
            buf.put_slice(&[1 ^ mask, b ^ mask]);
            rest = after;
            match find_low(rest, 0) {
                Some(j) => i = j,
                None => {
                    put_masked(buf, rest, mask);
                    return;
                }
            }
        }
    }

    /// Read escaped content up to and including its `0x00` terminator.
    #[inline(always)]
    pub fn get_escaped(input: &[u8], mask: u8) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
        let Some(i) = find_low(input, mask) else {
            return Err(DecodeError::new(
                DecodeErrorKind::MissingTerminator,
                input.len(),
            ));
        };
        match input.get(i).map(|b| b ^ mask) {
            Some(0) => {
                let run = input.get(..i).unwrap_or_default();
                let c = if mask == 0 {
                    Cow::Borrowed(run)
                } else {
                    Cow::Owned(unmask(run, mask))
                };
                Ok((c, i + 1))
            }
            _ => get_escaped_from(input, i, mask),
        }
    }

    /// [`get_escaped`] once the first escape byte, at `i`, is known: runs between escapes are
    /// copied whole.
    #[inline(never)]
    fn get_escaped_from(
        input: &[u8],
        mut pos: usize,
        mask: u8,
    ) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
        let mut out = Vec::with_capacity(input.len());
        out.extend(
            input
                .get(..pos)
                .unwrap_or_default()
                .iter()
                .map(|b| b ^ mask),
        );
        loop {
            // `pos` is at a byte that is 0x00 or 0x01 after unmasking
            let Some(&b) = input.get(pos) else {
                return Err(DecodeError::new(DecodeErrorKind::MissingTerminator, pos));
            };
            if b ^ mask == 0 {
                return Ok((Cow::Owned(out), pos + 1));
            }
            match input.get(pos + 1).map(|e| e ^ mask) {
                Some(e @ (0 | 1)) => out.push(e),
                Some(e) => {
                    return Err(DecodeError::new(
                        DecodeErrorKind::InvalidByte {
                            byte: e ^ mask,
                            expected: "an escaped 0x00 or 0x01 after the escape byte 0x01",
                        },
                        pos + 1,
                    ))
                }
                None => {
                    return Err(DecodeError::new(
                        DecodeErrorKind::MissingTerminator,
                        pos + 1,
                    ))
                }
            }
            pos += 2;
            let rest = input.get(pos..).unwrap_or_default();
            let Some(j) = find_low(rest, mask) else {
                return Err(DecodeError::new(
                    DecodeErrorKind::MissingTerminator,
                    input.len(),
                ));
            };
            out.extend(rest.get(..j).unwrap_or_default().iter().map(|b| b ^ mask));
            pos += j;
        }
    }

    /// Check pad constraints and write `c` padded to `n` with `fill`.
    #[inline]
    pub fn put_padded<B: BufMut>(
        c: &[u8],
        n: usize,
        fill: u8,
        buf: &mut B,
        mask: u8,
    ) -> Result<(), EncodeError> {
        check_pad(c, n, fill)?;
        put_masked(buf, c, mask);
        buf.put_bytes(fill ^ mask, n - c.len());
        Ok(())
    }

    /// Pad constraints: fits, and does not end with the fill byte.
    #[inline]
    pub fn check_pad(c: &[u8], n: usize, fill: u8) -> Result<(), EncodeError> {
        if c.len() > n {
            return Err(EncodeError::new(
                "",
                EncodeErrorKind::TooLong {
                    len: c.len(),
                    max: n,
                },
            ));
        }
        if c.last() == Some(&fill) {
            return Err(EncodeError::new("", EncodeErrorKind::EndsWithFill { fill }));
        }
        Ok(())
    }

    /// [`Codec::bound`] for padded content: a bound longer than `n`, or ending in the fill byte,
    /// is not a value; over the values that exist (at most `n` bytes, not ending in `fill`),
    /// `v >= b` ⇔ `v > s` and `v <= b` ⇔ `v <= s`, where `s` is `b` cut to `n` bytes and
    /// stripped of trailing fill bytes (exact for the order-preserving fill `0x00`).
    pub fn pad_bound(
        c: &[u8],
        n: usize,
        fill: u8,
        mask: u8,
        upper: bool,
        inclusive: bool,
    ) -> Bound {
        let cut = c.get(..n).unwrap_or(c);
        let keep = cut.iter().rposition(|&b| b != fill).map_or(0, |i| i + 1);
        let stripped = cut.get(..keep).unwrap_or_default();
        let mut bytes = Vec::with_capacity(n);
        if stripped.len() == c.len() {
            // a value: encode as is
            put_masked(&mut bytes, c, mask);
            bytes.put_bytes(fill ^ mask, n - c.len());
            return Bound::Bytes { bytes, inclusive };
        }
        put_masked(&mut bytes, stripped, mask);
        bytes.put_bytes(fill ^ mask, n - stripped.len());
        Bound::Bytes {
            bytes,
            inclusive: upper,
        }
    }

    /// Read `n` padded bytes; the content is what precedes the trailing fill bytes.
    pub fn get_padded(
        input: &[u8],
        n: usize,
        fill: u8,
        mask: u8,
    ) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
        let Some(field) = input.get(..n) else {
            return Err(DecodeError::truncated(
                input.len(),
                n - input.len(),
                input.len(),
            ));
        };
        let end = field
            .iter()
            .rposition(|&b| b ^ mask != fill)
            .map_or(0, |i| i + 1);
        let content = field.get(..end).unwrap_or_default();
        let c = if mask == 0 {
            Cow::Borrowed(content)
        } else {
            Cow::Owned(unmask(content, mask))
        };
        Ok((c, n))
    }

    /// Write content followed by a custom separator byte.
    #[inline]
    pub fn put_separated<B: BufMut>(
        c: &[u8],
        sep: u8,
        buf: &mut B,
        mask: u8,
    ) -> Result<(), EncodeError> {
        if let Some(at) = c.iter().position(|&b| b == sep) {
            return Err(EncodeError::new(
                "",
                EncodeErrorKind::ContainsSeparator { sep, at },
            ));
        }
        put_masked(buf, c, mask);
        buf.put_u8(sep ^ mask);
        Ok(())
    }

    /// Read content up to a custom separator byte.
    pub fn get_separated(
        input: &[u8],
        sep: u8,
        mask: u8,
    ) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
        match input.iter().position(|&b| b ^ mask == sep) {
            None => Err(DecodeError::new(
                DecodeErrorKind::MissingTerminator,
                input.len(),
            )),
            Some(i) => {
                let content = input.get(..i).unwrap_or_default();
                let c = if mask == 0 {
                    Cow::Borrowed(content)
                } else {
                    Cow::Owned(unmask(content, mask))
                };
                Ok((c, i + 1))
            }
        }
    }

    /// Reverse content: characters for text, bytes otherwise. Returns `None` for text that is
    /// not UTF-8.
    pub fn reversed(c: &[u8], text: bool) -> Option<Vec<u8>> {
        if text {
            let s = core::str::from_utf8(c).ok()?;
            let mut out = String::with_capacity(s.len());
            out.extend(s.chars().rev());
            Some(out.into_bytes())
        } else {
            let mut v = c.to_vec();
            v.reverse();
            Some(v)
        }
    }

    /// Turn decoded content into the value, mapping failures to the field's start.
    #[inline]
    pub fn finish<'de, T: FromContent<'de>>(
        c: Cow<'de, [u8]>,
        used: usize,
    ) -> Result<(T, usize), DecodeError> {
        T::from_content(c)
            .map(|v| (v, used))
            .map_err(|k| DecodeError::new(k, 0))
    }
}

macro_rules! content_impls {
    ($([$($lt:lifetime)?] $t:ty),* $(,)?) => {$(
        impl<$($lt)?> Codec<$t> for Natural {
            const WIDTH: Option<usize> = None;
            const PREFIX_FREE: bool = false;
            #[inline(always)]
            fn len(v: &$t, mask: u8) -> usize {
                if mask == 0 { v.content().len() } else { content::escaped_len(v.content()) }
            }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                if mask == 0 {
                    buf.put_slice(v.content());
                } else {
                    content::put_escaped(v.content(), buf, mask);
                    buf.put_u8(mask);
                }
                Ok(())
            }
        }
        impl<'de $(: $lt, $lt)?> Decode<'de, $t> for Natural {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                if mask == 0 {
                    content::finish(Cow::Borrowed(input), input.len())
                } else {
                    let (c, used) = content::get_escaped(input, mask)?;
                    content::finish(c, used)
                }
            }
        }

        impl<$($lt)?> Codec<$t> for Sep {
            const WIDTH: Option<usize> = None;
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(v: &$t, _: u8) -> usize { content::escaped_len(v.content()) }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                content::put_escaped(v.content(), buf, mask);
                buf.put_u8(mask);
                Ok(())
            }
        }
        impl<'de $(: $lt, $lt)?> Decode<'de, $t> for Sep {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let (c, used) = content::get_escaped(input, mask)?;
                content::finish(c, used)
            }
        }

        impl<$($lt,)? const S: u8> Codec<$t> for SepByte<S> {
            const WIDTH: Option<usize> = None;
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(v: &$t, _: u8) -> usize { v.content().len() + 1 }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                content::put_separated(v.content(), S, buf, mask)
            }
        }
        impl<'de $(: $lt, $lt)?, const S: u8> Decode<'de, $t> for SepByte<S> {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let (c, used) = content::get_separated(input, S, mask)?;
                content::finish(c, used)
            }
        }

        impl<$($lt,)? const N: usize, const F: u8> Codec<$t> for Pad<N, F> {
            const WIDTH: Option<usize> = Some(N);
            const PREFIX_FREE: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { N }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                content::put_padded(v.content(), N, F, buf, mask)
            }
            fn bound(v: &$t, mask: u8, upper: bool, inclusive: bool) -> Bound {
                content::pad_bound(v.content(), N, F, mask, upper, inclusive)
            }
        }
        impl<'de $(: $lt, $lt)?, const N: usize, const F: u8> Decode<'de, $t> for Pad<N, F> {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let (c, used) = content::get_padded(input, N, F, mask)?;
                content::finish(c, used)
            }
        }

        impl<$($lt,)? const N: usize, const F: u8> Codec<$t> for Reverse<Pad<N, F>> {
            const WIDTH: Option<usize> = Some(N);
            const PREFIX_FREE: bool = true;
            #[inline]
            fn len(_: &$t, _: u8) -> usize { N }
            #[inline]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                let c = v.content();
                content::check_pad(c, N, F)?;
                // Valid UTF-8 for text types, so reversal cannot fail.
                let r = content::reversed(c, <$t as AsContent>::TEXT).unwrap_or_default();
                content::put_padded(&r, N, F, buf, mask)
            }
        }
        impl<'de $(: $lt, $lt)?, const N: usize, const F: u8> Decode<'de, $t> for Reverse<Pad<N, F>> {
            #[inline]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let (c, used) = content::get_padded(input, N, F, mask)?;
                if c.first() == Some(&F) {
                    // the reversed content would end with the fill byte: never encoded
                    return Err(DecodeError::new(
                        DecodeErrorKind::NonCanonical("reversed content starting with the fill byte"),
                        0,
                    ));
                }
                let r = content::reversed(&c, <$t as AsContent>::TEXT)
                    .ok_or_else(|| DecodeError::new(DecodeErrorKind::InvalidUtf8, 0))?;
                content::finish(Cow::Owned(r), used)
            }
        }

        impl<$($lt)?> HashPlain for $t {
            #[inline(always)]
            fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R { f(self.content()) }
        }
    )*};
}
content_impls!([] String, [] Box<str>, ['a] &'a str, [] Vec<u8>, ['a] &'a [u8], [] Bytes);

// ---------------------------------------------------------------------------------------------
// hash prefix

/// The plain bytes `#[hash_prefix]` hashes: UTF-8 for strings, raw bytes, Java `Bytes.toBytes`
/// big-endian two's complement for integers, UTF-8 for `char`.
#[diagnostic::on_unimplemented(
    message = "rowkey: #[hash_prefix] cannot hash a field of type `{Self}`",
    note = "#[hash_prefix] works on integers, char, strings and bytes (their plain bytes are hashed)"
)]
pub trait HashPlain {
    /// Call `f` with the plain bytes.
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R;
}

/// The hex digit of `n < 16`, with `alpha` (`b'a'` or `b'A'`) for 10.
#[inline(always)]
pub(crate) fn hex_digit(n: u8, alpha: u8) -> u8 {
    if n < 10 {
        b'0' + n
    } else {
        alpha + n - 10
    }
}

/// MD5 digest of `bytes`.
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
/// rowkey::codec::hash_prefix(&"foo0001".to_string(), 6, false, &mut out);
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

// ---------------------------------------------------------------------------------------------
// salt: see the `salt` module

pub use crate::salt::PhoenixHash;

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time escape search against the obvious byte loop: every length up to 100
    /// and longer ones through the AVX2/AVX-512 paths,
    /// every position of a byte to find (each of the four bytes near the flagged range), both
    /// masks, over pseudo-random filler; and the escaping built on it against a reference.
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
                assert_eq!(content::find_low(&filler, mask), None, "{len} {mask}");
                assert_eq!(content::escapes(&filler), 0);
                for at in 0..len {
                    for b in [0u8, 1, 2, 0x80, 0xFE, 0xFF] {
                        let mut c = filler.clone();
                        c[at] = b;
                        let want = c.iter().position(|&x| (x ^ mask) <= 1);
                        assert_eq!(content::find_low(&c, mask), want, "{len} {at} {b} {mask}");
                    }
                }
                let c: Vec<u8> = (0..len).map(|_| (rnd() % 5) as u8 * 63).collect();
                let c2: Vec<u8> = (0..len).map(|_| rnd() as u8).collect();
                for c in [c, c2] {
                    let want = c.iter().position(|&x| (x ^ mask) <= 1);
                    assert_eq!(content::find_low(&c, mask), want);
                    assert_eq!(content::escapes(&c), c.iter().filter(|&&x| x <= 1).count());
                    let e = reference_escape(&c, mask);
                    assert_eq!(content::escaped_len(&c), e.len());
                    // a growing buffer (first chunk: 64 bytes), an exact one, a roomy one
                    for cap in [0, e.len(), 2048] {
                        let mut got = Vec::with_capacity(cap);
                        content::put_escaped(&c, &mut got, mask);
                        got.push(mask);
                        assert_eq!(got, e, "{len} {mask} {cap}");
                    }
                    let mut arr = [0u8; 1100];
                    let mut w = &mut arr[..];
                    content::put_escaped(&c, &mut w, mask);
                    let left = w.len();
                    assert_eq!(&arr[..1100 - left], &e[..e.len() - 1]);
                    let mut tailed = e.clone();
                    tailed.extend_from_slice(&[7, 0, 1]);
                    let (back, used) = content::get_escaped(&tailed, mask).unwrap();
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
