//! The key traits: [`RowKey`] (encode, decode, describe) and [`DecodeRowKey`] /
//! [`DecodeRowKeyOwned`] (decoding from borrowed or any bytes), which `#[derive(RowKey)]`
//! implements.

use bytes::{BufMut, Bytes};

use crate::decode::{check_decode_max_len, check_end};
use crate::describe::{Describer, NoVisit, Visit};
use crate::error::{DecodeError, EncodeError};
use crate::layout::Layout;

/// A type that is a row key: `#[derive(RowKey)]` implements it.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct OrderBySeller {
///     #[salt(buckets = 16)]
///     seller_id: u64,
///     #[reverse_ts]
///     created_ms: i64,
///     #[sep]
///     order_no: String,
/// }
///
/// let key = OrderBySeller { seller_id: 42, created_ms: 1_700_000_000_000, order_no: "A-17".into() };
/// let bytes = key.to_row_key()?;
/// assert_eq!(bytes.len(), key.encoded_len());
/// assert_eq!(bytes.len(), 1 + 8 + 8 + 5);
/// assert_eq!(&bytes[9..17], &(i64::MAX - 1_700_000_000_000).to_be_bytes()); // Java-identical
/// assert_eq!(OrderBySeller::from_row_key(&bytes)?, key);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RowKey: Sized {
    /// The key layout, for introspection and planning.
    const LAYOUT: &'static Layout;

    /// Append the key to `buf`. Allocation-free when `buf` has room.
    ///
    /// On an error, `buf` may hold the fields before the one that failed (truncate it to reuse
    /// it).
    fn encode_into<B: BufMut>(&self, buf: &mut B) -> Result<(), EncodeError>;

    /// Exact length of the encoded key, computed without encoding.
    fn encoded_len(&self) -> usize;

    /// The key as [`Bytes`], built in one allocation of exactly [`encoded_len`](Self::encoded_len) bytes.
    #[inline]
    fn to_row_key(&self) -> Result<Bytes, EncodeError> {
        let mut v = Vec::with_capacity(self.encoded_len());
        self.encode_into(&mut v)?;
        // The same `Bytes` as `Bytes::from(v)` (the length is exact, so `into_boxed_slice` does
        // not reallocate), but the box reaches `Bytes` in registers: `From<Vec<u8>>` is out of
        // line and takes the vector through the stack (~4 ns of a 29 ns call: BENCHMARKS-HISTORY.md, round four)
        Ok(Bytes::from(v.into_boxed_slice()))
    }

    /// Decode and validate a key: salt and hash prefixes are recomputed and compared, escapes,
    /// padding, UTF-8 and the exact length are checked. Errors name the field and byte offset;
    /// no input panics.
    #[inline(always)]
    fn from_row_key<'de>(bytes: &'de [u8]) -> Result<Self, DecodeError>
    where
        Self: DecodeRowKey<'de>,
    {
        // A fixed-width layout checks the length once, up front: with it known, the fields'
        // own length checks fold away. Any other length takes the same code out of line, for
        // the precise error (the field and offset where the bytes run out or run over).
        if let Some(width) = Self::LAYOUT.fixed_width {
            if bytes.len() != width {
                return decode_cold(bytes);
            }
        }
        decode_whole(bytes)
    }

    /// A field-by-field, human-readable view of a key, e.g. `salt=8 host="web1" ts=17`. Bytes
    /// that do not decode are shown with the error and the rest in HBase `toStringBinary` form.
    fn describe(bytes: &[u8]) -> String;
}

/// Decoding of a derived key from bytes that live for `'de` (fields of type `&str`/`&[u8]`
/// borrow from them). Implemented by `#[derive(RowKey)]`; call [`RowKey::from_row_key`].
pub trait DecodeRowKey<'de>: Sized {
    #[doc(hidden)]
    fn decode_visit<V: Visit>(
        input: &'de [u8],
        mask: u8,
        visit: &mut V,
    ) -> Result<(Self, usize), DecodeError>;
}

/// A key that decodes from bytes of any lifetime: it owns its data (no `&str` or `&[u8]` fields
/// borrowing from the key bytes). Shorthand for `for<'de> DecodeRowKey<'de>`, like serde's
/// `DeserializeOwned`; implemented for every such type.
///
/// Bound on it where keys are decoded from bytes that do not outlive the call, such as rows
/// read from a store:
///
/// ```
/// use rowkey::{DecodeError, DecodeRowKeyOwned, RowKey};
///
/// /// The keys of rows fetched into a temporary buffer.
/// fn decode_all<T: RowKey + DecodeRowKeyOwned>(rows: &[Vec<u8>]) -> Result<Vec<T>, DecodeError> {
///     rows.iter().map(|k| T::from_row_key(k)).collect()
/// }
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Event {
///     #[sep]
///     host: String,
///     ts: u64,
/// }
///
/// let key = Event { host: "web1".into(), ts: 7 };
/// let rows = vec![key.to_row_key()?.to_vec()];
/// assert_eq!(decode_all::<Event>(&rows)?, [key]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A key with borrowed fields decodes only from bytes that outlive it, so it is not
/// `DecodeRowKeyOwned`:
///
/// ```compile_fail
/// use rowkey::{DecodeRowKeyOwned, RowKey};
///
/// #[derive(RowKey)]
/// struct Borrowed<'a> {
///     #[sep]
///     host: &'a str,
/// }
///
/// fn owned<T: DecodeRowKeyOwned>() {}
/// owned::<Borrowed<'static>>();
/// ```
pub trait DecodeRowKeyOwned: for<'de> DecodeRowKey<'de> {}

impl<T: for<'de> DecodeRowKey<'de>> DecodeRowKeyOwned for T {}

/// [`RowKey::from_row_key`]: the whole key, its `max_len` and trailing bytes checked.
#[inline(always)]
fn decode_whole<'de, T: RowKey + DecodeRowKey<'de>>(bytes: &'de [u8]) -> Result<T, DecodeError> {
    if let Some(max_len) = T::LAYOUT.max_len {
        check_decode_max_len(bytes.len(), max_len).map_err(|e| e.in_key(T::LAYOUT.name))?;
    }
    let (v, used) = T::decode_visit(bytes, 0, &mut NoVisit).map_err(|e| {
        // an error about the whole key (an empty Phoenix key, say) names the key type
        if e.field().is_empty() {
            e.in_key(T::LAYOUT.name)
        } else {
            e
        }
    })?;
    check_end(used, bytes.len()).map_err(|e| e.in_key(T::LAYOUT.name))?;
    Ok(v)
}

/// [`decode_whole`] out of line: a fixed-width key of the wrong length (always an error).
#[cold]
#[inline(never)]
fn decode_cold<'de, T: RowKey + DecodeRowKey<'de>>(bytes: &'de [u8]) -> Result<T, DecodeError> {
    decode_whole(bytes)
}

/// `describe` for any derived key: the fields decoded so far, then the error (if any) and the
/// undecoded rest in HBase `toStringBinary` form.
pub fn describe<'de, T: DecodeRowKey<'de>>(bytes: &'de [u8]) -> String {
    use core::fmt::Write;
    let mut d = Describer::default();
    let res = T::decode_visit(bytes, 0, &mut d);
    let mut out = d.out;
    let rest = |at: usize| crate::hbase::to_string_binary(bytes.get(at..).unwrap_or_default());
    match res {
        Ok((_, n)) if n == bytes.len() => {}
        Ok((_, n)) => {
            let _ = write!(out, " <{} trailing byte(s): {}>", bytes.len() - n, rest(n));
        }
        Err(e) => {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = write!(out, "<{e}> rest={}", rest(d.end));
        }
    }
    out
}
