//! Tagged key enums: a variant's key behind its tag, encoded, decoded, described and scanned.

use bytes::BufMut;

use super::encode::{put_prefix, KeyParts};
use crate::describe::{Show, Visit};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// A derived key's typed scan builder, for a tagged enum's per-variant scans.
pub trait ScanKey {
    /// The first stage of `T::scan()`.
    type Scan;
    /// The builder of keys behind `outer` bytes (a variant's tag).
    fn scan_within(outer: &[u8]) -> Self::Scan;
}

/// `input` without its leading `tag` (masked), if it starts with it.
#[inline(always)]
pub fn strip_tag<'a>(input: &'a [u8], tag: &[u8], mask: u8) -> Option<&'a [u8]> {
    let head = input.get(..tag.len())?;
    if head.iter().zip(tag).all(|(b, t)| *b == *t ^ mask) {
        input.get(tag.len()..)
    } else {
        None
    }
}

/// A tagged enum's variant key `k` behind its `tag`; its errors name the `variant`.
#[inline(always)]
pub fn put_variant<K: KeyParts, B: BufMut>(
    k: &K,
    buf: &mut B,
    tag: &[u8],
    mask: u8,
    variant: &'static str,
) -> Result<(), EncodeError> {
    put_prefix(buf, tag, mask);
    k.encode_masked(buf, mask)
        .map_err(|e| e.in_variant(variant))
}

/// An error decoding the key of a tagged enum's `variant`, which starts `by` bytes (its tag)
/// into the enum's key.
#[cold]
pub fn variant_error(e: DecodeError, by: usize, variant: &'static str) -> DecodeError {
    e.shifted(by).in_variant(variant)
}

/// The error of a key that starts with no variant's tag.
#[cold]
pub fn unknown_tag() -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnknownTag, 0).in_field("tag", 0)
}

/// A visitor whose positions are `by` bytes further into the key (a variant's key after its
/// tag).
pub struct Offset<'v, V: Visit> {
    pub visit: &'v mut V,
    pub by: usize,
}

impl<V: Visit> Visit for Offset<'_, V> {
    #[inline(always)]
    fn prefix(&mut self, prefix: &'static [u8], at: usize) {
        self.visit.prefix(prefix, at + self.by);
    }
    #[inline(always)]
    fn salt(&mut self, salt: u32, at: usize, end: usize) {
        self.visit.salt(salt, at + self.by, end + self.by);
    }
    #[inline(always)]
    fn field(&mut self, name: &'static str, end: usize, value: &dyn Show) {
        self.visit.field(name, end + self.by, value);
    }
}

/// A variant name in `describe` (shown as it is, not quoted).
pub struct VariantName(pub &'static str);

impl Show for VariantName {
    fn show(&self, out: &mut String) {
        out.push_str(self.0);
    }
}
