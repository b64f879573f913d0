//! `Option<T>`: a presence byte (`0x00` None, `0x01` Some) then `T`; `None` sorts first.

use bytes::BufMut;

use super::raw::take;
use super::traits::{Codec, Decode};
use crate::bound::{prefix_edge, Edge, Lower, Pieces, Upper};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// The codecs whose `Option<T>` is a presence byte (`0x00` None, `0x01` Some) then `T`:
/// every encoding of this module, the hash-prefix wrapper, and a codec of your own that
/// implements it. Not Apache Phoenix's columns (`rowkey::phoenix::Col`), whose NULL is an
/// empty value.
///
/// ```
/// use rowkey::codec::{Natural, OptionPresence};
///
/// fn presence<C: OptionPresence>() {}
/// presence::<Natural>();
/// ```
pub trait OptionPresence {}

/// `Option<T>`: a presence byte (`0x00` None, `0x01` Some) then `T`; `None` sorts first.
impl<T, C: Codec<T> + OptionPresence> Codec<Option<T>> for C {
    const WIDTH: Option<usize> = None;
    const PREFIX_FREE: bool = C::PREFIX_FREE;
    const REVERSED: bool = C::REVERSED;
    // `None` (one byte below every `Some`) first: exact when `T` is
    const RANGE_EXACT: bool = C::RANGE_EXACT;
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
    // Not used by top-level scans (they take `pieces`): the bound of an `Option` field inside a
    // nested key's range.
    fn bound_into(
        v: &Option<T>,
        mask: u8,
        upper: bool,
        inclusive: bool,
        out: &mut Vec<u8>,
    ) -> Edge {
        match v {
            None => {
                out.push(mask);
                Edge::At { inclusive }
            }
            Some(x) => {
                let start = out.len();
                out.push(1 ^ mask);
                let at = out.len();
                match C::bound_into(x, mask, upper, inclusive, out) {
                    e @ Edge::At { .. } => e,
                    e => prefix_edge(
                        out,
                        start,
                        at,
                        e,
                        upper == (C::inverted(mask) != C::REVERSED),
                    ),
                }
            }
        }
    }
    const MONOTONE: bool = false;
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
impl<'de, T, C: Decode<'de, T> + OptionPresence> Decode<'de, Option<T>> for C {
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
                    expected: super::raw::PRESENCE_EXPECTED,
                },
                0,
            )),
        }
    }
}
