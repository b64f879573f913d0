//! The struct-key derive mode's field codecs: `#[derive(RowKey)]` with
//! `#[rowkey(bigtable(..))]` encodes, decodes and scans Bigtable `Type.Struct` row keys through
//! the same machinery as every other layout, byte for byte as [`StructSchema::encode`]
//! (`super::StructSchema`) writes them.
//!
//! - [`Ordered`] (`bigtable(ordered_code)`): a field's *full form* is its bytes with `00`
//!   escaped as `00 FF` (an empty field as `00 00`), then `00 01` when it is not the last. A key
//!   drops its trailing empty fields ([`Codec::TRIMS`], [`Codec::trim_tail`]): the encoder cuts
//!   them (all fields empty: `00 00`, the first field's empty form), the decoder reads a key that
//!   ends early as trailing empty fields, and the scan builder starts a range that begins at a
//!   field boundary at the cut key.
//! - [`Delimited`] (`bigtable(delimited = b"..")`): the field's bytes, then the delimiter when
//!   it is not the last; a field whose bytes contain the delimiter's first byte is an
//!   [`EncodeError`].
//! - [`Singleton`] (`bigtable(singleton)`): the one field's bytes.
//!
//! `BE` selects the `Int64`/`Timestamp` encoding (`BigEndianBytes` when true, else
//! `OrderedCodeBytes`).
//!
//! Scan bounds ([`Codec::bound_into`]) are full forms, cut where the range keeps the keys equal
//! to the bound (an inclusive start, an exclusive stop); a bound need not be encodable (a
//! delimited bound holding the delimiter still sits at its place in byte order).

use core::marker::PhantomData;
use std::borrow::Cow;

use bytes::BufMut;

use super::format::{
    delimited_split, escape_into, escaped_len, escaped_offset, int64, ordered_split,
    put_delimited_raw, put_ordered, Int64Encoding,
};
use super::schema::{FieldType, Value};
use crate::bound::Edge;
use crate::codec::ContentPrefix;
use crate::codec::{Codec, Decode};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// A field of a `bigtable(ordered_code)` key (`Type.Struct.Encoding.OrderedCodeBytes`):
/// `FIRST`/`LAST` its place, `BE` the Int64 encoding (see the [module docs](super)).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ordered<const FIRST: bool, const LAST: bool, const BE: bool>;

/// A field of a `bigtable(delimited = b"..")` key (`DelimitedBytes`): `K` is the key type,
/// whose [`StructDelimiter`] is the delimiter.
pub struct Delimited<K: ?Sized, const LAST: bool, const BE: bool>(PhantomData<fn() -> K>);

impl<K: ?Sized, const LAST: bool, const BE: bool> core::fmt::Debug for Delimited<K, LAST, BE> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Delimited")
    }
}

/// The one field of a `bigtable(singleton)` key (`Singleton`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Singleton<const BE: bool>;

/// The delimiter of a `bigtable(delimited = b"..")` key (implemented by the derive).
#[doc(hidden)]
pub trait StructDelimiter {
    /// The delimiter (1 to 50 bytes).
    const DELIMITER: &'static [u8];
}

/// Microseconds since the Unix epoch: a `Timestamp` field (`unix_micros_int64`) of a struct key.
///
/// ```
/// use rowkey::struct_key::Micros;
///
/// let t = Micros(1_700_000_000_000_000);
/// assert!(t < Micros(1_700_000_000_000_001));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Micros(pub i64);

impl crate::describe::Show for Micros {
    fn show(&self, out: &mut String) {
        use core::fmt::Write;
        let _ = write!(out, "Micros({})", self.0);
    }
}

impl crate::text::FromText for Micros {
    const EXPECTED: &'static str = "a Timestamp as microseconds since the Unix epoch";
    fn parse_text(s: &str) -> Result<Self, String> {
        <i64 as crate::text::FromText>::parse_text(s).map(Micros)
    }
}

/// A field type of a struct key: `i64` (Int64), `String`/`&str` (String), `Vec<u8>`/`&[u8]`
/// (Bytes), [`Micros`] (Timestamp).
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` is not a field type of a Bigtable struct key",
    label = "no row key schema type for this field",
    note = "use i64 (Int64), String (String), Vec<u8> (Bytes) or rowkey::struct_key::Micros (Timestamp)"
)]
pub trait StructValue {
    /// Whether the value is text (`String`), bytes (`Bytes`) or a number.
    #[doc(hidden)]
    const CONTENT: bool;

    /// The field's type in the schema, with the key's Int64 encoding.
    fn field_type(int64: Int64Encoding) -> FieldType;

    /// The value as a schema [`Value`].
    fn to_value(&self) -> Value;

    /// The field's own encoding (unescaped, undelimited).
    #[doc(hidden)]
    fn raw(&self, int64: Int64Encoding, out: &mut Vec<u8>);

    /// `f` of the field's own encoding ([`raw`](Self::raw)) without a buffer of its own: the
    /// content of strings and bytes as it is, an integer's bytes on the stack. What encoding a
    /// key calls (a copy of each field, then of the escaped field, cost more than the key).
    #[doc(hidden)]
    #[inline]
    fn with_raw<R>(&self, int64: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        let mut raw = Vec::new();
        self.raw(int64, &mut raw);
        f(&raw)
    }
}

/// A field type a struct key decodes.
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` is not a field type of a Bigtable struct key",
    note = "use i64 (Int64), String (String), Vec<u8> (Bytes) or rowkey::struct_key::Micros (Timestamp)"
)]
pub trait StructDecode<'de>: StructValue + Sized {
    /// The value from its own encoding (offsets in errors are into `raw`).
    #[doc(hidden)]
    fn from_raw(raw: Cow<'de, [u8]>, int64: Int64Encoding) -> Result<Self, DecodeError>;
}

fn int_value(raw: &[u8], int64: Int64Encoding) -> Result<i64, DecodeError> {
    int64.decode(raw)
}

impl StructValue for i64 {
    const CONTENT: bool = false;
    fn field_type(int64: Int64Encoding) -> FieldType {
        FieldType::Int64(int64)
    }
    fn to_value(&self) -> Value {
        Value::Int64(*self)
    }
    fn raw(&self, int64: Int64Encoding, out: &mut Vec<u8>) {
        int64.encode(*self, out);
    }
    #[inline]
    fn with_raw<R>(&self, int64: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        let (bytes, n) = int64.bytes(*self);
        f(bytes.get(..n).unwrap_or_default())
    }
}
impl<'de> StructDecode<'de> for i64 {
    fn from_raw(raw: Cow<'de, [u8]>, int64: Int64Encoding) -> Result<Self, DecodeError> {
        int_value(&raw, int64)
    }
}

impl StructValue for Micros {
    const CONTENT: bool = false;
    fn field_type(int64: Int64Encoding) -> FieldType {
        FieldType::Timestamp(int64)
    }
    fn to_value(&self) -> Value {
        Value::Timestamp(self.0)
    }
    fn raw(&self, int64: Int64Encoding, out: &mut Vec<u8>) {
        int64.encode(self.0, out);
    }
    #[inline]
    fn with_raw<R>(&self, int64: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        let (bytes, n) = int64.bytes(self.0);
        f(bytes.get(..n).unwrap_or_default())
    }
}
impl<'de> StructDecode<'de> for Micros {
    fn from_raw(raw: Cow<'de, [u8]>, int64: Int64Encoding) -> Result<Self, DecodeError> {
        int_value(&raw, int64).map(Micros)
    }
}

fn utf8(raw: &[u8]) -> Result<&str, DecodeError> {
    core::str::from_utf8(raw)
        .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, e.valid_up_to()))
}

impl StructValue for String {
    const CONTENT: bool = true;
    fn field_type(_: Int64Encoding) -> FieldType {
        FieldType::String
    }
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
    fn raw(&self, _: Int64Encoding, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
    #[inline]
    fn with_raw<R>(&self, _: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self.as_bytes())
    }
}
impl<'de> StructDecode<'de> for String {
    fn from_raw(raw: Cow<'de, [u8]>, _: Int64Encoding) -> Result<Self, DecodeError> {
        // validated once: borrowed bytes as a `str`, owned (unescaped) ones in place
        match raw {
            Cow::Borrowed(b) => utf8(b).map(str::to_owned),
            Cow::Owned(v) => String::from_utf8(v).map_err(|e| {
                DecodeError::new(DecodeErrorKind::InvalidUtf8, e.utf8_error().valid_up_to())
            }),
        }
    }
}

impl StructValue for &str {
    const CONTENT: bool = true;
    fn field_type(_: Int64Encoding) -> FieldType {
        FieldType::String
    }
    fn to_value(&self) -> Value {
        Value::String((*self).to_owned())
    }
    fn raw(&self, _: Int64Encoding, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
    #[inline]
    fn with_raw<R>(&self, _: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self.as_bytes())
    }
}
impl<'de> StructDecode<'de> for &'de str {
    fn from_raw(raw: Cow<'de, [u8]>, _: Int64Encoding) -> Result<Self, DecodeError> {
        match raw {
            Cow::Borrowed(b) => utf8(b),
            Cow::Owned(_) => Err(DecodeError::new(DecodeErrorKind::NeedsOwned, 0)),
        }
    }
}

impl StructValue for Vec<u8> {
    const CONTENT: bool = true;
    fn field_type(_: Int64Encoding) -> FieldType {
        FieldType::Bytes
    }
    fn to_value(&self) -> Value {
        Value::Bytes(self.clone())
    }
    fn raw(&self, _: Int64Encoding, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
    #[inline]
    fn with_raw<R>(&self, _: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self)
    }
}
impl<'de> StructDecode<'de> for Vec<u8> {
    fn from_raw(raw: Cow<'de, [u8]>, _: Int64Encoding) -> Result<Self, DecodeError> {
        Ok(raw.into_owned())
    }
}

impl StructValue for &[u8] {
    const CONTENT: bool = true;
    fn field_type(_: Int64Encoding) -> FieldType {
        FieldType::Bytes
    }
    fn to_value(&self) -> Value {
        Value::Bytes(self.to_vec())
    }
    fn raw(&self, _: Int64Encoding, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
    #[inline]
    fn with_raw<R>(&self, _: Int64Encoding, f: impl FnOnce(&[u8]) -> R) -> R {
        f(self)
    }
}
impl<'de> StructDecode<'de> for &'de [u8] {
    fn from_raw(raw: Cow<'de, [u8]>, _: Int64Encoding) -> Result<Self, DecodeError> {
        match raw {
            Cow::Borrowed(b) => Ok(b),
            Cow::Owned(_) => Err(DecodeError::new(DecodeErrorKind::NeedsOwned, 0)),
        }
    }
}

/// Whether a bound is kept where the range keeps the keys equal to it (an inclusive start or
/// an exclusive stop): then its trailing separator is cut like a key's.
fn cut_here(upper: bool, inclusive: bool) -> bool {
    upper != inclusive
}

// ---- OrderedCodeBytes ------------------------------------------------------------------

fn ordered_full<T: StructValue + ?Sized, B: BufMut>(v: &T, last: bool, be: bool, out: &mut B) {
    v.with_raw(int64(be), |raw| put_ordered(raw, last, out));
}

fn ordered_len<T: StructValue + ?Sized>(v: &T, last: bool, be: bool) -> usize {
    v.with_raw(int64(be), escaped_len) + if last { 0 } else { 2 }
}

/// How many bytes at the end of `v`'s full form a key drops when only empty fields follow
/// (`None`: the whole field is dropped — an empty field that is not the first).
fn ordered_tail<T: StructValue + ?Sized>(
    v: &T,
    first: bool,
    last: bool,
    be: bool,
) -> Option<usize> {
    if v.with_raw(int64(be), <[u8]>::is_empty) && !first {
        return None;
    }
    Some(if last { 0 } else { 2 })
}

fn ordered_decode<'de, T: StructDecode<'de>>(
    input: &'de [u8],
    first: bool,
    last: bool,
    be: bool,
) -> Result<(T, usize), DecodeError> {
    let (content, used) = ordered_split(input, first, last)?;
    let escaped = matches!(content, Cow::Owned(_));
    let empty = content.is_empty();
    match T::from_raw(content, int64(be)) {
        Ok(v) => Ok((v, used)),
        Err(e) => {
            let off = if empty {
                0
            } else if escaped {
                escaped_offset(input, e.offset())
            } else {
                e.offset()
            };
            Err(DecodeError::new(e.kind().clone(), off))
        }
    }
}

impl<T: StructValue, const FIRST: bool, const LAST: bool, const BE: bool> Codec<T>
    for Ordered<FIRST, LAST, BE>
{
    const WIDTH: Option<usize> = None;
    const PREFIX_FREE: bool = !LAST;
    const TRIMS: bool = true;
    const RANGE_EXACT: bool = true;

    fn len(v: &T, _mask: u8) -> usize {
        ordered_len(v, LAST, BE)
    }

    fn encode<B: BufMut>(v: &T, buf: &mut B, _mask: u8) -> Result<(), EncodeError> {
        ordered_full(v, LAST, BE, buf);
        Ok(())
    }

    fn trim_tail(v: &T, _mask: u8) -> Option<usize> {
        ordered_tail(v, FIRST, LAST, BE)
    }

    fn bound_into(v: &T, _mask: u8, upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
        let at = out.len();
        ordered_full(v, LAST, BE, out);
        if cut_here(upper, inclusive) {
            match ordered_tail(v, FIRST, LAST, BE) {
                None => out.truncate(at),
                Some(n) => out.truncate(out.len().saturating_sub(n)),
            }
        }
        Edge::At { inclusive }
    }
}

impl<'de, T: StructDecode<'de>, const FIRST: bool, const LAST: bool, const BE: bool> Decode<'de, T>
    for Ordered<FIRST, LAST, BE>
{
    fn decode(input: &'de [u8], _mask: u8) -> Result<(T, usize), DecodeError> {
        ordered_decode(input, FIRST, LAST, BE)
    }
}

impl<const FIRST: bool, const LAST: bool, const BE: bool> ContentPrefix
    for Ordered<FIRST, LAST, BE>
{
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let mut e = Vec::new();
        Self::prefix_into(p, mask, &mut e).map(|_| (e, None))
    }
    fn prefix_into(p: &[u8], _mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        // every value starting with `p` has the escaped `p` first (an empty `p`: nothing)
        if !p.is_empty() {
            escape_into(p, out);
        }
        Some(true)
    }
}

// ---- DelimitedBytes --------------------------------------------------------------------

fn delimited_decode<'de, T: StructDecode<'de>>(
    input: &'de [u8],
    delimiter: &[u8],
    last: bool,
    be: bool,
) -> Result<(T, usize), DecodeError> {
    let (content, used) = delimited_split(input, delimiter, last)?;
    // the field's value first (as the reference decodes it), then the delimiter
    let v = T::from_raw(Cow::Borrowed(content), int64(be))?;
    Ok((v, used?))
}

impl<K: StructDelimiter + ?Sized, T: StructValue, const LAST: bool, const BE: bool> Codec<T>
    for Delimited<K, LAST, BE>
{
    const WIDTH: Option<usize> = None;
    const PREFIX_FREE: bool = !LAST;
    const RANGE_EXACT: bool = true;

    fn len(v: &T, _mask: u8) -> usize {
        v.with_raw(int64(BE), <[u8]>::len) + if LAST { 0 } else { K::DELIMITER.len() }
    }

    fn encode<B: BufMut>(v: &T, buf: &mut B, _mask: u8) -> Result<(), EncodeError> {
        v.with_raw(int64(BE), |raw| {
            put_delimited_raw(raw, K::DELIMITER, LAST, buf)
        })
        .map_err(|kind| EncodeError::new("", kind))
    }

    fn bound_into(v: &T, _mask: u8, _upper: bool, inclusive: bool, out: &mut Vec<u8>) -> Edge {
        // ranges compile on the fields whose bytes sort as their values (an orderedcode Int64
        // or Timestamp, prefix-free; the last field): the bound's bytes sit at their place in
        // byte order whether or not they hold the delimiter
        v.raw(int64(BE), out);
        if !LAST {
            out.extend_from_slice(K::DELIMITER);
        }
        Edge::At { inclusive }
    }
}

impl<'de, K: StructDelimiter + ?Sized, T: StructDecode<'de>, const LAST: bool, const BE: bool>
    Decode<'de, T> for Delimited<K, LAST, BE>
{
    fn decode(input: &'de [u8], _mask: u8) -> Result<(T, usize), DecodeError> {
        delimited_decode(input, K::DELIMITER, LAST, BE)
    }
}

impl<K: StructDelimiter + ?Sized, const LAST: bool, const BE: bool> ContentPrefix
    for Delimited<K, LAST, BE>
{
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let mut e = Vec::new();
        Self::prefix_into(p, mask, &mut e).map(|_| (e, None))
    }
    fn prefix_into(p: &[u8], _mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        // no value holds the delimiter's first byte; a value starting with `p` is the key's
        // bytes from the field's start up to the first such byte
        let first = K::DELIMITER.first().copied()?;
        if p.contains(&first) {
            return None;
        }
        out.extend_from_slice(p);
        Some(true)
    }
}

// ---- Singleton -------------------------------------------------------------------------

impl<T: StructValue, const BE: bool> Codec<T> for Singleton<BE> {
    const WIDTH: Option<usize> = if BE && !T::CONTENT { Some(8) } else { None };
    const PREFIX_FREE: bool = false;
    const RANGE_EXACT: bool = true;

    fn len(v: &T, _mask: u8) -> usize {
        v.with_raw(int64(BE), <[u8]>::len)
    }

    fn encode<B: BufMut>(v: &T, buf: &mut B, _mask: u8) -> Result<(), EncodeError> {
        v.with_raw(int64(BE), |raw| buf.put_slice(raw));
        Ok(())
    }
}

impl<'de, T: StructDecode<'de>, const BE: bool> Decode<'de, T> for Singleton<BE> {
    fn decode(input: &'de [u8], _mask: u8) -> Result<(T, usize), DecodeError> {
        Ok((T::from_raw(Cow::Borrowed(input), int64(BE))?, input.len()))
    }
}

impl<const BE: bool> ContentPrefix for Singleton<BE> {
    fn prefix_parts(p: &[u8], _mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        Some((p.to_vec(), None))
    }
    fn prefix_into(p: &[u8], _mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        out.extend_from_slice(p);
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc<C: Codec<T>, T>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        C::encode(v, &mut out, 0).unwrap();
        out
    }

    struct Hash;
    impl StructDelimiter for Hash {
        const DELIMITER: &'static [u8] = b"#";
    }

    #[test]
    fn full_forms() {
        assert_eq!(
            enc::<Ordered<true, false, false>, _>(&"a\0".to_owned()),
            b"a\x00\xFF\x00\x01"
        );
        assert_eq!(
            enc::<Ordered<false, true, false>, _>(&String::new()),
            b"\x00\x00"
        );
        assert_eq!(
            enc::<Ordered<false, true, false>, _>(&256i64),
            b"\xC1\x00\xFF"
        );
        assert_eq!(
            enc::<Delimited<Hash, false, true>, _>(&1i64),
            b"\0\0\0\0\0\0\0\x01#"
        );
        assert!(<Delimited<Hash, true, false> as Codec<String>>::encode(
            &"a#".into(),
            &mut Vec::new(),
            0
        )
        .is_err());
        assert_eq!(enc::<Singleton<false>, _>(&Micros(0)), b"\x80");
        assert_eq!(
            <Ordered<false, false, false> as Codec<String>>::trim_tail(&String::new(), 0),
            None
        );
        assert_eq!(
            <Ordered<true, false, false> as Codec<String>>::trim_tail(&String::new(), 0),
            Some(2)
        );
    }

    #[test]
    fn decodes() {
        let (v, n) =
            <Ordered<true, false, false> as Decode<String>>::decode(b"a\x00\xFFb\x00\x01c", 0)
                .unwrap();
        assert_eq!((v.as_str(), n), ("a\0b", 6));
        let (v, n) =
            <Ordered<true, false, false> as Decode<&[u8]>>::decode(b"ab\x00\x01c", 0).unwrap();
        assert_eq!((v, n), (&b"ab"[..], 4));
        let e =
            <Ordered<true, false, false> as Decode<&[u8]>>::decode(b"a\x00\xFF", 0).unwrap_err();
        assert_eq!(e.kind(), &DecodeErrorKind::NeedsOwned);
        assert!(<Ordered<true, false, false> as Decode<String>>::decode(b"ab\x00\x01", 0).is_err());
        assert!(<Ordered<false, true, false> as Decode<String>>::decode(b"\x00\x00", 0).is_err());
        let e = <Ordered<true, true, false> as Decode<i64>>::decode(b"\xC0", 0).unwrap_err();
        assert_eq!(e.offset(), 1);
    }
}
