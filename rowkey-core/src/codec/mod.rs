//! Field codecs: how one field's value becomes bytes and back.
//!
//! A codec is a zero-sized type chosen by the derive from the field's attributes
//! ([`Natural`], [`Java`], [`Pad`], [`Sep`], [`SepByte`], [`ReverseTs`], [`Reverse`], [`Desc`]); the field's
//! type picks the implementation. Every encoding here is order-preserving (memcmp order of the
//! bytes equals the value order) unless its docs say otherwise, and every `encode` writes exactly
//! `len` bytes.
//!
//! `#[desc]` is the codec [`Desc<C>`](Desc): `C` written in descending order. The `mask`
//! argument of every method is that order, as `C` sees it: `0x00` ascending, `0xFF` inverted —
//! every byte written is XORed with it, which reverses the order of a prefix-free encoding.
//! Variable-length content that is otherwise written raw (the last field) switches to the
//! escaped, terminated encoding of [`Sep`] when inverted, so that prefix-freeness — and with it
//! the reversed order — holds. Only [`Desc`] and a key nested in a descending field pass `0xFF`;
//! everything else (the derive's generated code, the scan builder) passes `0x00` for a key of
//! its own.
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

mod content;
mod decimal;
mod desc;
mod encodings;
pub(crate) mod escape;
mod int;
mod java;
mod option;
mod prefix;
mod raw;
pub(crate) use raw::{with_scratch, ScratchBuf, ONE_BYTE_EXPECTED};
mod scalar;
mod traits;

pub use crate::bound::{Bound, Edge};
pub use crate::integer::Integer;
pub use content::{AsContent, FromContent};
pub use desc::Desc;
pub use encodings::{Java, Natural, Pad, Reverse, ReverseTs, Sep, SepByte};
pub use option::OptionPresence;
#[doc(hidden)]
pub use prefix::{ContentPrefix, Present, SomePrefix};
pub use traits::{Codec, Decode};

#[cfg(test)]
mod tests;
