//! The Phoenix key mode's field codecs: [`Col`] (a primary-key column that is not the table's
//! last) and [`LastCol`] (the last), so that `#[derive(RowKey)]` with `#[rowkey(phoenix)]`
//! encodes, decodes and scans Phoenix keys through the same machinery as every other layout.
//!
//! A codec writes a column's *full form*: its value bytes (inverted when DESC), then — for a
//! variable-width value that is not the last column — its separator (`0x00` after a NULL or an
//! ascending value, `0xFF` after a DESC value in a `rowKeyOrderOptimizable` table). Phoenix's
//! key is the full form with the trailing separators that only NULLs follow dropped
//! ([`Codec::TRIMS`], [`Codec::trim_tail`]): the encoder of a derived key cuts them, the
//! decoder reads a key that ends early as trailing NULLs, and the scan builder starts a range
//! that begins at a column boundary at the cut key.
//!
//! Scan bounds ([`Codec::bound_into`]) are full forms, cut where the range keeps the keys
//! equal to the bound (an inclusive start, an exclusive stop). A bound Phoenix cannot store
//! (an empty string, a string holding `'\0'`, an unsigned integer above the signed maximum, a
//! `DECIMAL` of more than 38 digits, …) becomes the nearest bound over storable values
//! ([`Clamp`]), so a range selects exactly the rows whose values are in it.

use core::ops::Bound as RangeBound;

use bytes::BufMut;

use super::format::{
    column_allowed, read_value, separator, write_value, DESC_SEPARATOR, SEPARATOR,
};
use super::traits::{Clamp, PhoenixDecode, PhoenixType, Stored, Zones};
use crate::bound::{Edge, Lower, Pieces, Upper};
use crate::codec::{with_scratch, Codec, Decode, ScratchBuf};
use crate::codec::{ContentPrefix, SomePrefix};
use crate::error::{DecodeError, EncodeError, EncodeErrorKind};

/// A Phoenix primary-key column that is not the table's last, in a table whose
/// `rowKeyOrderOptimizable` flag is `OPT` (what `#[rowkey(phoenix)]` selects for every field
/// but the last).
#[derive(Debug, Clone, Copy, Default)]
pub struct Col<const OPT: bool>;

/// The table's last primary-key column (see [`Col`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct LastCol<const OPT: bool>;

std::thread_local! {
    /// Where [`Codec::len`] of a variable-width column writes the value to measure it, and a
    /// decode re-encodes the value it read (the canonical check): a buffer per thread, not one
    /// per call.
    static SCRATCH: ScratchBuf = const { ScratchBuf::new(Vec::new()) };
}

/// `f` of the thread's Phoenix scratch buffer (see `codec::with_scratch`).
#[inline]
fn with_phoenix_scratch<R>(f: impl FnMut(&mut Vec<u8>) -> R) -> R {
    with_scratch(&SCRATCH, f)
}

/// The full form of `v` in a column (`last` or not) into `out`.
fn full_form<T: PhoenixType + ?Sized, const OPT: bool>(
    v: &T,
    mask: u8,
    last: bool,
    out: &mut Vec<u8>,
) -> Result<(), EncodeErrorKind> {
    let desc = mask != 0;
    column_allowed::<T>(desc, last)?;
    if v.is_null() {
        if !last {
            out.push(SEPARATOR);
        }
        return Ok(());
    }
    write_value(v, desc, last, out)?;
    if T::WIDTH.is_none() {
        let sep = separator(OPT, false, desc);
        if !last || sep == DESC_SEPARATOR {
            out.push(sep);
        }
    }
    Ok(())
}

/// How many bytes at the end of `v`'s full form a key drops when only NULLs follow.
fn tail<T: PhoenixType + ?Sized, const OPT: bool>(v: &T, mask: u8, last: bool) -> Option<usize> {
    if v.is_null() {
        return None;
    }
    let trimmed = T::WIDTH.is_none() && !last && separator(OPT, false, mask != 0) == SEPARATOR;
    Some(usize::from(trimmed))
}

/// Whether a bound is kept where the range keeps the keys equal to it (an inclusive start or
/// an exclusive stop, in byte order): then its trailing separators are cut like a key's.
fn cut_here(mask: u8, upper: bool, inclusive: bool) -> bool {
    let byte_start = upper == (mask != 0);
    byte_start == inclusive
}

/// [`Codec::bound_into`] of both codecs.
fn bound_of<T: PhoenixType, const OPT: bool>(
    v: &T,
    mask: u8,
    upper: bool,
    inclusive: bool,
    last: bool,
    out: &mut Vec<u8>,
) -> Edge {
    let at = out.len();
    if full_form::<T, OPT>(v, mask, last, out).is_ok() {
        if cut_here(mask, upper, inclusive) {
            match tail::<T, OPT>(v, mask, last) {
                None => out.truncate(at),
                Some(n) => out.truncate(out.len().saturating_sub(n)),
            }
        }
        return Edge::At { inclusive };
    }
    out.truncate(at);
    match v.unstorable() {
        // a lower bound below everything, or an upper one above: no limit
        Clamp::Below if !upper => Edge::All,
        Clamp::Above if upper => Edge::All,
        Clamp::Below | Clamp::Above => Edge::Nothing,
        // lower: after `x`; upper: up to `x` included
        Clamp::JustAbove(x) => stored_bound::<T, OPT>(&x, mask, upper, upper, last, out),
        // lower: from `y` on; upper: before `y`
        Clamp::JustBelow(y) => stored_bound::<T, OPT>(&y, mask, upper, !upper, last, out),
        Clamp::Raw => {
            let mut raw = Vec::new();
            if v.encode(&mut raw, mask != 0).is_err() {
                return Edge::Nothing;
            }
            out.extend_from_slice(&raw);
            Edge::At { inclusive }
        }
    }
}

/// A bound at a storable value given by its bytes ([`Stored`]): its full form, cut as
/// [`bound_of`] cuts one.
fn stored_bound<T: PhoenixType, const OPT: bool>(
    x: &Stored,
    mask: u8,
    upper: bool,
    inclusive: bool,
    last: bool,
    out: &mut Vec<u8>,
) -> Edge {
    let desc = mask != 0;
    let cut = cut_here(mask, upper, inclusive);
    match x {
        Stored::Null => {
            if !last && !cut {
                out.push(SEPARATOR);
            }
        }
        Stored::Bytes(b) => {
            out.extend(b.iter().map(|&c| if desc { !c } else { c }));
            if T::WIDTH.is_none() {
                let sep = separator(OPT, false, desc);
                let keep = if last {
                    sep == DESC_SEPARATOR
                } else {
                    sep == DESC_SEPARATOR || !cut
                };
                if keep {
                    out.push(sep);
                }
            }
        }
    }
    Edge::At { inclusive }
}

/// [`Codec::pieces`] of both codecs: one monotone piece, except for a nullable DESC column,
/// whose NULLs sort first (as `0x00`) while its values sort descending after them, and for a
/// type with [`Zones`] (see [`zoned`]; NULL a piece of its own then).
fn pieces_of<T: PhoenixType, const OPT: bool>(
    lo: RangeBound<&T>,
    hi: RangeBound<&T>,
    mask: u8,
    last: bool,
    prefix_free: bool,
) -> Pieces {
    let bound = |b: RangeBound<&T>, upper: bool| match b {
        RangeBound::Unbounded => crate::bound::Bound::All,
        RangeBound::Included(v) => bound_value::<T, OPT>(v, mask, upper, true, last),
        RangeBound::Excluded(v) => bound_value::<T, OPT>(v, mask, upper, false, last),
    };
    let values = |lo: RangeBound<&T>, hi: RangeBound<&T>| match T::ZONES {
        None => Pieces::monotone(bound(lo, false), bound(hi, true), mask != 0, prefix_free),
        Some(zones) => zoned(zones, lo, hi, mask, bound, prefix_free),
    };
    if !(T::NULLABLE && (mask != 0 || T::ZONES.is_some())) {
        return values(lo, hi);
    }
    // A bound at NULL, or at a value just above NULL (one Phoenix cannot store below every
    // value, e.g. `Some("")`), is a bound on the NULL part only.
    let at_null = |v: &T| {
        v.is_null()
            || (full_form::<T, OPT>(v, mask, last, &mut Vec::new()).is_err()
                && v.unstorable() == Clamp::JustAbove(Stored::Null))
    };
    let exact_null = |v: &T| v.is_null();
    // NULL is the smallest value: in the range when the lower bound admits it
    let null_in = match lo {
        RangeBound::Unbounded => true,
        RangeBound::Included(v) => exact_null(v),
        RangeBound::Excluded(_) => false,
    } && match hi {
        RangeBound::Unbounded | RangeBound::Included(_) => true,
        RangeBound::Excluded(v) => !exact_null(v),
    };
    // the values part: a lower bound at NULL is no limit; an upper bound at NULL leaves none
    let lo_v = match lo {
        RangeBound::Included(v) | RangeBound::Excluded(v) if at_null(v) => RangeBound::Unbounded,
        other => other,
    };
    let values_empty = match hi {
        RangeBound::Included(v) | RangeBound::Excluded(v) => at_null(v),
        RangeBound::Unbounded => false,
    };
    let mut out = Pieces::none();
    let null_stop = if last {
        Upper::AtZero
    } else {
        Upper::After(vec![SEPARATOR])
    };
    if null_in {
        out.push(Lower::At(Vec::new()), null_stop);
    }
    if !values_empty {
        for (l, u) in values(lo_v, hi).iter() {
            // the values start after the NULLs (`0x00`)
            let l = match l {
                Lower::Prefix if last => Lower::At(vec![SEPARATOR]),
                Lower::Prefix => Lower::After(vec![SEPARATOR]),
                other => other.clone(),
            };
            out.push(l, u.clone());
        }
    }
    out
}

/// The pieces of a value range over a type with [`Zones`]: in each zone (in byte order) the
/// part of the range it holds, one monotone piece kept within the zone's bytes; pieces that
/// touch are joined. A bound is used in its own zone only; a zone wholly inside the range is
/// taken from its first bytes to the next zone's. `DECIMAL` gives at most three pieces (the
/// zones next to zero join when the range holds zero).
fn zoned<T: PhoenixType>(
    zones: &Zones,
    lo: RangeBound<&T>,
    hi: RangeBound<&T>,
    mask: u8,
    bound: impl Fn(RangeBound<&T>, bool) -> crate::bound::Bound,
    prefix_free: bool,
) -> Pieces {
    use crate::bound::Bound as B;
    let list = if mask == 0 { zones.asc } else { zones.desc };
    let rank = |b: RangeBound<&T>| match b {
        RangeBound::Unbounded => None,
        RangeBound::Included(v) | RangeBound::Excluded(v) => Some(v.zone()),
    };
    let (lo_rank, hi_rank) = (rank(lo), rank(hi));
    let mut parts: Vec<(Lower, Upper)> = Vec::new();
    for (i, &(r, first)) in list.iter().enumerate() {
        let lo_b = match lo_rank {
            Some(x) if x > r => continue,
            Some(x) if x == r => bound(lo, false),
            _ => B::All,
        };
        let hi_b = match hi_rank {
            Some(x) if x < r => continue,
            Some(x) if x == r => bound(hi, true),
            _ => B::All,
        };
        let start = (i > 0).then_some(first);
        let end = list.get(i + 1).map(|z| z.1);
        for (l, u) in Pieces::monotone(lo_b, hi_b, mask != 0, prefix_free).iter() {
            let (Some(least), stop) = (l.least(), u.stop()) else {
                continue;
            };
            // keep the piece within the zone's bytes
            let (l, least) = match start {
                Some(s) if least.as_slice() < s => (Lower::At(s.to_vec()), s.to_vec()),
                _ => (l.clone(), least),
            };
            let u = match (end, &stop) {
                (Some(e), None) => Upper::At(e.to_vec()),
                (Some(e), Some(x)) if x.as_slice() > e => Upper::At(e.to_vec()),
                _ => u.clone(),
            };
            if u.stop().is_some_and(|x| x <= least) {
                continue;
            }
            match parts.last_mut() {
                Some(p) if matches!((&p.1, &l), (Upper::At(a), Lower::At(b)) if a == b) => p.1 = u,
                _ => parts.push((l, u)),
            }
        }
    }
    let mut out = Pieces::none();
    for (l, u) in parts {
        out.push(l, u);
    }
    out
}

fn bound_value<T: PhoenixType, const OPT: bool>(
    v: &T,
    mask: u8,
    upper: bool,
    inclusive: bool,
    last: bool,
) -> crate::bound::Bound {
    let mut bytes = Vec::new();
    match bound_of::<T, OPT>(v, mask, upper, inclusive, last, &mut bytes) {
        Edge::At { inclusive } => crate::bound::Bound::Bytes { bytes, inclusive },
        Edge::All => crate::bound::Bound::All,
        Edge::Nothing => crate::bound::Bound::Nothing,
    }
}

macro_rules! phoenix_codec {
    ($codec:ident, $last:literal) => {
        impl<T: PhoenixType, const OPT: bool> Codec<T> for $codec<OPT> {
            const WIDTH: Option<usize> = T::WIDTH;
            const PREFIX_FREE: bool = T::WIDTH.is_some() || !$last;
            const MONOTONE: bool = !T::NULLABLE && T::ZONES.is_none();
            const TRIMS: bool = true;

            #[inline]
            fn len(v: &T, mask: u8) -> usize {
                if let Some(w) = T::WIDTH {
                    return w;
                }
                // the value types write into a `Vec`: measured in the thread's scratch
                with_phoenix_scratch(|out| {
                    let _ = full_form::<T, OPT>(v, mask, $last, out);
                    out.len()
                })
            }

            #[inline]
            fn encode<B: BufMut>(v: &T, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                let mut out = Vec::new();
                Self::encode_vec(v, &mut out, mask)?;
                buf.put_slice(&out);
                Ok(())
            }

            #[inline]
            fn encode_vec(v: &T, out: &mut Vec<u8>, mask: u8) -> Result<(), EncodeError> {
                full_form::<T, OPT>(v, mask, $last, out).map_err(|kind| EncodeError::new("", kind))
            }

            #[inline]
            fn trim_tail(v: &T, mask: u8) -> Option<usize> {
                tail::<T, OPT>(v, mask, $last)
            }

            fn bound_into(
                v: &T,
                mask: u8,
                upper: bool,
                inclusive: bool,
                out: &mut Vec<u8>,
            ) -> Edge {
                bound_of::<T, OPT>(v, mask, upper, inclusive, $last, out)
            }

            fn pieces(lo: RangeBound<&T>, hi: RangeBound<&T>, mask: u8) -> Pieces {
                pieces_of::<T, OPT>(
                    lo,
                    hi,
                    mask,
                    $last,
                    <Self as Codec<T>>::PREFIX_FREE || mask != 0,
                )
            }
        }

        impl<'de, T: PhoenixDecode<'de>, const OPT: bool> Decode<'de, T> for $codec<OPT> {
            #[inline]
            fn decode(input: &'de [u8], mask: u8) -> Result<(T, usize), DecodeError> {
                with_phoenix_scratch(|scratch| {
                    read_value::<T>(input, mask != 0, $last, OPT, scratch)
                })
            }
        }

        /// NULL is no bytes: every non-NULL value (the empty prefix) is the range above it,
        /// and a non-empty prefix is the content's.
        impl<const OPT: bool> SomePrefix for $codec<OPT> {
            type Prefix = Self;
            fn every_some(mask: u8) -> Option<Pieces> {
                // NULL and its separator are the same whatever the column's type
                Some(<Self as Codec<Option<String>>>::pieces(
                    RangeBound::Excluded(&None),
                    RangeBound::Unbounded,
                    mask,
                ))
            }
        }

        impl<const OPT: bool> ContentPrefix for $codec<OPT> {
            fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
                let mut e = Vec::new();
                Self::prefix_into(p, mask, &mut e).map(|_| (e, None))
            }
            #[inline]
            fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
                // a value starting with `p` holds its bytes (inverted when DESC); in a column
                // that is not the last none of them is 0x00 or 0xFF as stored
                if !$last && p.iter().any(|&b| b ^ mask == 0x00 || b ^ mask == 0xFF) {
                    return None;
                }
                out.extend(p.iter().map(|b| b ^ mask));
                Some(true)
            }
        }
    };
}

phoenix_codec!(Col, false);
phoenix_codec!(LastCol, true);

#[cfg(test)]
mod tests {
    use super::*;

    fn enc<C: Codec<T>, T>(v: &T, mask: u8) -> Vec<u8> {
        let mut out = Vec::new();
        C::encode(v, &mut out, mask).unwrap();
        out
    }

    #[test]
    fn full_forms() {
        assert_eq!(enc::<Col<true>, _>(&"ab", 0), b"ab\x00");
        assert_eq!(enc::<Col<true>, _>(&"ab", 0xFF), [!b'a', !b'b', 0xFF]);
        assert_eq!(enc::<Col<false>, _>(&"ab", 0xFF), [!b'a', !b'b', 0x00]);
        assert_eq!(enc::<Col<true>, _>(&None::<String>, 0xFF), [0x00]);
        assert_eq!(enc::<LastCol<true>, _>(&"ab", 0), b"ab");
        assert_eq!(enc::<LastCol<true>, _>(&"ab", 0xFF), [!b'a', !b'b', 0xFF]);
        assert_eq!(enc::<LastCol<true>, _>(&None::<String>, 0), b"");
        assert_eq!(enc::<Col<true>, _>(&5i32, 0), [0x80, 0, 0, 5]);
        assert_eq!(<Col<true> as Codec<&str>>::trim_tail(&"ab", 0), Some(1));
        assert_eq!(<Col<true> as Codec<&str>>::trim_tail(&"ab", 0xFF), Some(0));
        assert_eq!(<Col<false> as Codec<&str>>::trim_tail(&"ab", 0xFF), Some(1));
        assert_eq!(
            <Col<true> as Codec<Option<&str>>>::trim_tail(&None, 0),
            None
        );
        assert_eq!(<Col<true> as Codec<i32>>::trim_tail(&1, 0), Some(0));
    }

    #[test]
    fn refused() {
        let mut out = Vec::new();
        assert!(<Col<true> as Codec<&str>>::encode(&"", &mut out, 0).is_err());
        assert!(<Col<true> as Codec<&str>>::encode(&"a\0b", &mut out, 0).is_err());
        assert!(<Col<true> as Codec<Vec<u8>>>::encode(&vec![1], &mut out, 0).is_err());
        assert!(<LastCol<true> as Codec<Vec<u8>>>::encode(&vec![1], &mut out, 0xFF).is_err());
        assert!(<LastCol<true> as Codec<u8>>::encode(&200, &mut out, 0).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn decode_ends_early() {
        // the key ends after "ab": the column is "ab", later ones NULL
        let (v, n) = <Col<true> as Decode<String>>::decode(b"ab", 0).unwrap();
        assert_eq!((v.as_str(), n), ("ab", 2));
        let (v, n) = <Col<true> as Decode<Option<String>>>::decode(b"", 0).unwrap();
        assert_eq!((v, n), (None, 0));
        // a trailing 0x00 separator is never written
        assert!(<Col<true> as Decode<String>>::decode(b"ab\x00", 0).is_err());
        assert!(<Col<true> as Decode<Option<String>>>::decode(b"\x00", 0).is_err());
        // a NOT NULL column the key ends before
        assert!(<Col<true> as Decode<String>>::decode(b"", 0).is_err());
        assert!(<Col<true> as Decode<i32>>::decode(b"\x80\x00", 0).is_err());
    }

    #[test]
    fn bounds() {
        let b = |v: &str, upper: bool, inclusive: bool| {
            let mut out = Vec::new();
            let e = <Col<true> as Codec<&str>>::bound_into(&v, 0, upper, inclusive, &mut out);
            (e, out)
        };
        // an inclusive start and an exclusive stop are cut; the others keep the separator
        assert_eq!(b("ab", false, true).1, b"ab");
        assert_eq!(b("ab", false, false).1, b"ab\x00");
        assert_eq!(b("ab", true, true).1, b"ab\x00");
        assert_eq!(b("ab", true, false).1, b"ab");
        // "" is below every value; "a\0b" just above "a"
        assert_eq!(b("", false, true).0, Edge::All);
        assert_eq!(b("", true, true).0, Edge::Nothing);
        assert_eq!(
            b("a\0b", false, true),
            (Edge::At { inclusive: false }, b"a\x00".to_vec())
        );
        assert_eq!(
            b("a\0b", true, false),
            (Edge::At { inclusive: true }, b"a\x00".to_vec())
        );
        let mut out = Vec::new();
        let e = <Col<true> as Codec<u8>>::bound_into(&200, 0, false, true, &mut out);
        assert_eq!(e, Edge::Nothing);
        let e = <Col<true> as Codec<u8>>::bound_into(&200, 0, true, true, &mut out);
        assert_eq!(e, Edge::All);
    }
}
