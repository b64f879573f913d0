//! Java interop (`#[rowkey(java)]`): HBase `Bytes.toBytes` encodings. Integers and floats
//! are in `int.rs` and `float.rs` next to their natural form; here the boolean and the range
//! splitting that Java's byte order needs (non-negative values first, negative floats
//! backwards).

use bytes::BufMut;

use super::encodings::Java;
use super::raw::decode_bool;
use super::traits::{Codec, Decode};
use crate::bound::{Lower, Pieces, Upper};
use crate::error::{DecodeError, EncodeError};

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

/// How a Java (`Bytes.toBytes`) encoding relates to the value order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum JavaKind {
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
pub(super) fn java_pieces(
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
