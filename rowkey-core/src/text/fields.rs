//! [`TextFields`]: a whole key encoded or scanned from `field=value` text, and the encoding step
//! its derived impls end with.

use super::args::TextArgs;
use super::error::TextError;
use super::tagged::TaggedVariant;
use crate::scan::ScanRanges;

/// Encoding and scanning a key from `field=value` text. `#[derive(RowKey)]` implements it (with
/// the `tool` feature) for every struct key without lifetime parameters (a generic key once its type parameters are
/// given, e.g. `Tagged<u32>`).
pub trait TextFields: crate::RowKey {
    /// `(field, expected text)` of each top-level field, in key order.
    fn fields() -> Vec<(&'static str, String)>;

    /// The key from `field=value` pairs, encoded.
    ///
    /// # Errors
    ///
    /// A missing, unknown or unparsable field, or a value the key cannot encode.
    fn encode_text(args: &mut TextArgs) -> Result<Vec<u8>, TextError>;

    /// The scan ranges the typed builder `T::scan()` gives for the same constraints: fields in
    /// key order fixed by equality, then optionally a range or prefix on the next field.
    ///
    /// # Errors
    ///
    /// As [`encode_text`](Self::encode_text), and a constraint the typed builder refuses (a
    /// range on a hashed field, a skipped field, a field after a range).
    fn scan_text(args: &mut TextArgs) -> Result<ScanRanges, TextError>;

    /// For a tagged key enum (`#[rowkey(tag = ..)]` variants), its variants; empty for a
    /// struct key. Its text form is `variant=Name` then the variant key's own fields, and its
    /// scans are the variant's typed scan behind the tag (`T::scan_<variant>()`).
    fn variants() -> Vec<TaggedVariant> {
        Vec::new()
    }
}

/// Encode a key built by generated code.
///
/// # Errors
///
/// The key's own [`crate::EncodeError`], as a [`TextError`] naming the field.
#[doc(hidden)]
pub fn encode_key<K: crate::RowKey>(key: &K) -> Result<Vec<u8>, TextError> {
    key.to_row_key()
        .map(|b| b.to_vec())
        .map_err(|e| TextError::new(e.field(), e.to_string()))
}
