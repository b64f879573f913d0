//! `#[pad(N)]` on unsigned integers: N zero-padded ASCII decimal digits (human-readable keys),
//! and `#[reverse]` of them.

use bytes::BufMut;

use super::encodings::{Pad, Reverse};
use super::raw::put_masked;
use super::traits::{Codec, Decode};
use crate::bound::Edge;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

// `#[pad(N)]` on unsigned integers: N ASCII decimal digits.
macro_rules! decimal_impls {
    ($($t:ty),*) => {$(
        impl<const N: usize> Codec<$t> for Pad<N, 0> {
            #[inline(always)]
            fn unsigned(v: &$t) -> Option<u128> {
                crate::integer::Integer::to_u128(*v)
            }
            const UNSIGNED_MAX: Option<u128> = Some(<$t>::MAX as u128);
            const WIDTH: Option<usize> = Some(N);
            const PREFIX_FREE: bool = true;
            const RANGE_EXACT: bool = true;
            #[inline]
            fn len(_: &$t, _: u8) -> usize { N }
            #[inline]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                put_decimal(*v as u128, N, false, buf, mask)
            }
            fn bound_into(v: &$t, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
                let at = out.len();
                match put_decimal(*v as u128, N, false, out, mask) {
                    Ok(()) => Edge::At { inclusive },
                    // more digits than N: above every encodable value
                    Err(_) => {
                        out.truncate(at);
                        if upper { Edge::All } else { Edge::Nothing }
                    }
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
            #[inline(always)]
            fn unsigned(v: &$t) -> Option<u128> {
                crate::integer::Integer::to_u128(*v)
            }
            const UNSIGNED_MAX: Option<u128> = Some(<$t>::MAX as u128);
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
