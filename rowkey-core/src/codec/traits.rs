//! The codec traits: [`Codec`] (length, encoding, scan bounds of a field of type `T`) and
//! [`Decode`] (the way back).

use bytes::BufMut;

use crate::bound::{Bound, Edge, Pieces};
use crate::error::{DecodeError, EncodeError};

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
    /// Whether the bytes this codec writes at `mask` are inverted: `mask != 0`, except for
    /// [`Desc`](super::Desc), which writes its inner codec at the other mask. What code that
    /// reasons about a field's byte order (the scan builder, a nested key's bound) asks,
    /// rather than reading the mask.
    #[doc(hidden)]
    #[inline(always)]
    fn inverted(mask: u8) -> bool {
        mask != 0
    }
    /// Exact encoded length.
    fn len(v: &T, mask: u8) -> usize;
    /// [`encode`](Codec::encode) into a `Vec`: what everything that writes into a `Vec` calls
    /// (a key that drops its trailing separators, [`TRIMS`](Codec::TRIMS), before it cuts its
    /// fields; the scan builder; bounds). The same bytes; a codec that builds its bytes in a
    /// `Vec` anyway (Apache Phoenix's columns) writes them there directly instead of through a
    /// buffer of its own.
    #[doc(hidden)]
    #[inline(always)]
    fn encode_vec(v: &T, out: &mut Vec<u8>, mask: u8) -> Result<(), EncodeError> {
        Self::encode(v, out, mask)
    }
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
        match Self::encode_vec(v, out, mask) {
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

    /// Whether keys drop trailing separator bytes of this encoding (Apache Phoenix's keys end
    /// after the last non-NULL value): then [`trim_tail`](Codec::trim_tail) says how many.
    /// `false` for every encoding but the Phoenix columns (`rowkey::phoenix::Col`).
    #[doc(hidden)]
    const TRIMS: bool = false;

    /// How many bytes at the end of `v`'s encoding a key drops when nothing but NULLs follow
    /// (`Some(0)`: none), or `None` when `v` is NULL (its whole encoding is dropped, and so is
    /// what the value before it may drop). Only read when [`TRIMS`](Codec::TRIMS) holds.
    #[doc(hidden)]
    #[inline(always)]
    fn trim_tail(v: &T, mask: u8) -> Option<usize> {
        let _ = (v, mask);
        Some(0)
    }

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
            Self::inverted(mask) != Self::REVERSED,
            Self::PREFIX_FREE || Self::inverted(mask),
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
