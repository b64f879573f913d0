//! [`Desc`]: a codec in descending order. Every method is its inner codec's at the other order
//! (`mask ^ 0xFF`); what "descending" means for a codec's bytes (inverted, with the separators and
//! padding that keep prefix-freeness) is that codec's own rule, written once where it writes its
//! bytes.

use bytes::BufMut;

use super::prefix::{ContentPrefix, SomePrefix};
use super::traits::{Codec, Decode};
use crate::bound::{Bound, Edge, Pieces};
use crate::error::{DecodeError, EncodeError};

/// `#[desc]`: the encoding `C` in descending order — every byte `C` writes inverted (`b ^ 0xFF`),
/// which reverses the order of a prefix-free encoding. `C` writes the descending form of its
/// own bytes: content that is raw as the last field ascending is escaped and terminated
/// descending (the bytes of [`Sep`](super::Sep)) so that prefix-freeness, and with it the reversed order,
/// holds; a `#[sep(b'x')]` separator and a `#[pad]` fill are inverted with the content; an
/// `Option`'s presence byte too (`None` then sorts last); a nested key's fields each flip
/// (a `#[desc]` field of a key used `#[desc]` is ascending again); an Apache Phoenix column
/// takes Phoenix's `DESC` separator. A `#[hash_prefix]`'s hash bytes are not inverted (the
/// derive puts `Desc` inside `Hashed`).
///
/// `Desc` is the one place that decides a field is descending: it calls its inner codec at the
/// other order (the `mask` argument of [`Codec`](super::Codec), `0xFF` for inverted). No
/// caller passes a field's order; only a key nested in a descending field passes `0xFF` to
/// its fields.
///
/// ```
/// use rowkey::codec::{Codec, Decode, Desc, Natural, Sep};
///
/// let enc = |v: u16| {
///     let mut buf = Vec::new();
///     <Desc<Natural> as Codec<u16>>::encode(&v, &mut buf, 0x00).map(|_| buf)
/// };
/// assert_eq!(enc(1)?, [0xFF, 0xFE]);
/// assert!(enc(2)? < enc(1)?); // larger values first
///
/// // the last field's raw content is escaped and terminated descending, then inverted
/// let mut buf = Vec::new();
/// <Desc<Natural> as Codec<String>>::encode(&"ab".to_string(), &mut buf, 0x00)?;
/// assert_eq!(buf, [!b'a', !b'b', 0xFF]);
/// let (s, used) = <Desc<Natural> as Decode<'_, String>>::decode(&buf, 0x00).unwrap();
/// assert_eq!((s.as_str(), used), ("ab", 3));
///
/// // the same bytes as the inner codec written at the inverted order
/// let mut sep = Vec::new();
/// <Sep as Codec<String>>::encode(&"ab".to_string(), &mut sep, 0xFF)?;
/// assert_eq!(buf, sep);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Desc<C>(C);

/// The order `Desc` gives its inner codec: the other one.
#[inline(always)]
const fn flip(mask: u8) -> u8 {
    mask ^ 0xFF
}

impl<T, C: Codec<T>> Codec<T> for Desc<C> {
    const WIDTH: Option<usize> = C::WIDTH;
    // the ascending encoding's; `inverted` tells the scan builder and the nested bounds that
    // the bytes written are inverted (so prefix-free, and their order reversed)
    const PREFIX_FREE: bool = C::PREFIX_FREE;
    const REVERSED: bool = C::REVERSED;
    // exact in the same way: the byte range between the bounds (swapped, since `inverted`)
    const RANGE_EXACT: bool = C::RANGE_EXACT;
    const UNSIGNED_MAX: Option<u128> = C::UNSIGNED_MAX;
    const MONOTONE: bool = C::MONOTONE;
    const TRIMS: bool = C::TRIMS;

    #[inline(always)]
    fn inverted(mask: u8) -> bool {
        C::inverted(flip(mask))
    }
    #[inline(always)]
    fn len(v: &T, mask: u8) -> usize {
        C::len(v, flip(mask))
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &T, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        C::encode(v, buf, flip(mask))
    }
    #[inline(always)]
    fn encode_vec(v: &T, out: &mut Vec<u8>, mask: u8) -> Result<(), EncodeError> {
        C::encode_vec(v, out, flip(mask))
    }
    #[inline(always)]
    fn bound(v: &T, mask: u8, upper: bool, inclusive: bool) -> Bound {
        C::bound(v, flip(mask), upper, inclusive)
    }
    #[inline(always)]
    fn bound_into(v: &T, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
        C::bound_into(v, flip(mask), upper, inclusive, out)
    }
    #[inline(always)]
    fn unsigned(v: &T) -> Option<u128> {
        C::unsigned(v)
    }
    #[inline(always)]
    fn trim_tail(v: &T, mask: u8) -> Option<usize> {
        C::trim_tail(v, flip(mask))
    }
    #[inline(always)]
    fn pieces(lo: core::ops::Bound<&T>, hi: core::ops::Bound<&T>, mask: u8) -> Pieces {
        C::pieces(lo, hi, flip(mask))
    }
}

impl<'de, T, C: Decode<'de, T>> Decode<'de, T> for Desc<C> {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<(T, usize), DecodeError> {
        C::decode(input, flip(mask))
    }
}

impl<C: ContentPrefix> ContentPrefix for Desc<C> {
    #[inline]
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        C::prefix_parts(p, flip(mask))
    }
    #[inline(always)]
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        C::prefix_into(p, flip(mask), out)
    }
}

impl<C: SomePrefix> SomePrefix for Desc<C> {
    type Prefix = Desc<C::Prefix>;
    #[inline]
    fn every_some(mask: u8) -> Option<Pieces> {
        C::every_some(flip(mask))
    }
}
