//! `bool`, `char`, IEEE floats (total order; Java raw bits) and `[u8; N]`.

use bytes::BufMut;

use super::encodings::{Java, Natural, Reverse};
use super::java::{java_pieces, JavaKind};
use super::raw::{decode_bool, put_masked, take};
use super::traits::{Codec, Decode};
use crate::bound::{Edge, Pieces};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

impl Codec<bool> for Natural {
    const WIDTH: Option<usize> = Some(1);
    const PREFIX_FREE: bool = true;
    const RANGE_EXACT: bool = true;
    #[inline(always)]
    fn len(_: &bool, _: u8) -> usize {
        1
    }
    #[inline(always)]
    fn encode<B: BufMut>(v: &bool, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
        buf.put_u8(u8::from(*v) ^ mask);
        Ok(())
    }
    /// Nothing is below `false` or above `true`.
    #[inline(always)]
    fn bound_into(v: &bool, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
        if !inclusive && *v != upper {
            return Edge::Nothing;
        }
        out.push(u8::from(*v) ^ mask);
        Edge::At { inclusive }
    }
}
impl<'de> Decode<'de, bool> for Natural {
    #[inline(always)]
    fn decode(input: &'de [u8], mask: u8) -> Result<(bool, usize), DecodeError> {
        decode_bool(input, mask, 0x01, "a boolean 0x00 or 0x01")
    }
}
impl Codec<char> for Natural {
    const WIDTH: Option<usize> = Some(4);
    const PREFIX_FREE: bool = true;
    const RANGE_EXACT: bool = true;
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

macro_rules! float_impls {
    ($($t:ty, $u:ty, $w:expr);*) => {$(
        impl Codec<$t> for Natural {
            const WIDTH: Option<usize> = Some($w);
            const PREFIX_FREE: bool = true;
            const RANGE_EXACT: bool = true;
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
            const MONOTONE: bool = false;
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
    const RANGE_EXACT: bool = true;
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
