//! Strings and bytes: their content bytes (`AsContent`, `FromContent`) and the codecs over them
//! (`#[pad]`, `#[sep]`, `#[sep(b'x')]`, raw as the last field, `#[reverse]` of padded ones).

use std::borrow::Cow;

use bytes::{BufMut, Bytes};

use super::encodings::{Natural, Pad, Reverse, Sep, SepByte};
use super::escape as content;
use super::traits::{Codec, Decode};
use crate::bound::Edge;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

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

macro_rules! content_impls {
    ($([$($lt:lifetime)?] $t:ty),* $(,)?) => {$(
        impl<$($lt)?> Codec<$t> for Natural {
            const WIDTH: Option<usize> = None;
            const PREFIX_FREE: bool = false;
            const RANGE_EXACT: bool = true;
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
                    finish(Cow::Borrowed(input), input.len())
                } else {
                    let (c, used) = content::get_escaped(input, mask)?;
                    finish(c, used)
                }
            }
        }

        impl<$($lt)?> Codec<$t> for Sep {
            const WIDTH: Option<usize> = None;
            const PREFIX_FREE: bool = true;
            const RANGE_EXACT: bool = true;
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
                finish(c, used)
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
                finish(c, used)
            }
        }

        impl<$($lt,)? const N: usize, const F: u8> Codec<$t> for Pad<N, F> {
            const WIDTH: Option<usize> = Some(N);
            const PREFIX_FREE: bool = true;
            // order holds for every content only with the 0x00 fill; bounds are clamped
            const RANGE_EXACT: bool = F == 0;
            #[inline(always)]
            fn len(_: &$t, _: u8) -> usize { N }
            #[inline(always)]
            fn encode<B: BufMut>(v: &$t, buf: &mut B, mask: u8) -> Result<(), EncodeError> {
                content::put_padded(v.content(), N, F, buf, mask)
            }
            fn bound_into(v: &$t, mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
                content::pad_bound(v.content(), N, F, mask, upper, inclusive, out)
            }
        }
        impl<'de $(: $lt, $lt)?, const N: usize, const F: u8> Decode<'de, $t> for Pad<N, F> {
            #[inline(always)]
            fn decode(input: &'de [u8], mask: u8) -> Result<($t, usize), DecodeError> {
                let (c, used) = content::get_padded(input, N, F, mask)?;
                finish(c, used)
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
                if c.first() == Some(&F) {
                    // reversed, the content would end with the fill byte
                    return Err(EncodeError::new("", EncodeErrorKind::StartsWithFill { fill: F }));
                }
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
                finish(Cow::Owned(r), used)
            }
        }
    )*};
}
content_impls!([] String, [] Box<str>, ['a] &'a str, [] Vec<u8>, ['a] &'a [u8], [] Bytes);

/// Turn decoded content into the value, mapping failures to the field's start.
#[inline]
fn finish<'de, T: FromContent<'de>>(
    c: Cow<'de, [u8]>,
    used: usize,
) -> Result<(T, usize), DecodeError> {
    T::from_content(c)
        .map(|v| (v, used))
        .map_err(|k| DecodeError::new(k, 0))
}
