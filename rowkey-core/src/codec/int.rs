//! Integers: big-endian (signed: sign bit flipped), `#[reverse_ts]` (`i64::MAX - ts`), `#[reverse]`
//! (bytes reversed), and their Java (`Bytes.toBytes`, two's complement) form.

use bytes::BufMut;

use super::encodings::{Java, Natural, Reverse, ReverseTs};
use super::java::{java_pieces, JavaKind};
use super::raw::take;
use super::traits::{Codec, Decode};
use crate::bound::{Edge, Pieces};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

macro_rules! int_impls {
    ($($t:ty, $u:ty, $w:expr, $signed:expr);* $(;)?) => {$(
        impl Codec<$t> for Natural {
            #[inline(always)]
            fn unsigned(v: &$t) -> Option<u128> {
                crate::integer::Integer::to_u128(*v)
            }
            const UNSIGNED_MAX: Option<u128> = Some(<$t>::MAX as u128);
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            const RANGE_EXACT: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { $w }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let m = <$u>::from_ne_bytes([mask; $w]);
                buf.put_slice(&((*v as $u ^ FLIP) ^ m).to_be_bytes());
                Ok(())
            }
            /// Below the type's minimum or above its maximum there is no value: nothing (not a
            /// range that holds no key).
            #[inline(always)]
            fn bound_into(v: &$t, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
                if !inclusive && *v == if upper { <$t>::MIN } else { <$t>::MAX } {
                    return Edge::Nothing;
                }
                const FLIP: $u = if $signed { 1 << ($w * 8 - 1) } else { 0 };
                let m = <$u>::from_ne_bytes([mask; $w]);
                out.extend_from_slice(&((*v as $u ^ FLIP) ^ m).to_be_bytes());
                Edge::At { inclusive }
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
            #[inline(always)]
            fn unsigned(v: &$t) -> Option<u128> {
                crate::integer::Integer::to_u128(*v)
            }
            const UNSIGNED_MAX: Option<u128> = Some(<$t>::MAX as u128);
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
            const MONOTONE: bool = false;
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
            #[inline(always)]
            fn unsigned(v: &$t) -> Option<u128> {
                crate::integer::Integer::to_u128(*v)
            }
            const UNSIGNED_MAX: Option<u128> = Some(<$t>::MAX as u128);
            const WIDTH: Option<usize> = Some(8);
            const PREFIX_FREE: bool = true;
            const REVERSED: bool = true;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { 8 }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                let ts = match i64::try_from(*v) {
                    Ok(ts) if ts >= 0 => ts,
                    _ => return Err(reverse_ts_range(wide(*v))),
                };
                buf.put_u64(((i64::MAX - ts) as u64) ^ u64::from_ne_bytes([mask; 8]));
                Ok(())
            }
            fn bound_into(v: &$t, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
                let x = wide(*v);
                if x < 0 {
                    if upper { Edge::Nothing } else { Edge::All }
                } else if x > i128::from(i64::MAX) {
                    if upper { Edge::All } else { Edge::Nothing }
                } else {
                    out.put_u64(((i64::MAX - x as i64) as u64) ^ u64::from_ne_bytes([mask; 8]));
                    Edge::At { inclusive }
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
            #[inline(always)]
            fn unsigned(v: &$t) -> Option<u128> {
                crate::integer::Integer::to_u128(*v)
            }
            const UNSIGNED_MAX: Option<u128> = Some(<$t>::MAX as u128);
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
    )*};
}

/// A timestamp as `i128`, for the `#[reverse_ts]` range checks: a `u128` above `i128::MAX`
/// (`as i128` would wrap it negative) is far above every timestamp, like `i128::MAX`.
#[inline(always)]
fn wide<T: TryInto<i128>>(v: T) -> i128 {
    v.try_into().unwrap_or(i128::MAX)
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
