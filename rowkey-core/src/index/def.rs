//! Typed index definitions ([`Index`]) and the bytes of an index row.

use core::fmt;
use core::marker::PhantomData;

use crate::layout::{FieldEncoding, Layout};
use crate::{DecodeRowKeyOwned, EncodeError, RowKey};

use super::error::DefineIndexError;
use super::record::Record;

/// Whether an index key belongs to at most one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// At most one live record per index key: the index row's key is the index key alone,
    /// the primary key is in its value. A put that would give a second record the key is
    /// refused ([`IndexError::UniqueViolation`](super::IndexError::UniqueViolation)).
    Unique,
    /// Any number of records per index key: the index row's key is the index key's encoding
    /// followed by the primary key's, so the index key layout must be self-delimiting.
    NonUnique,
}

/// A secondary index of records `R` by an index key `I` derived from each record.
///
/// - **Non-unique** ([`Index::non_unique`]): one index row per record, keyed
///   `encode(I) ++ encode(R::Key)`; refused at construction when `I`'s layout is not
///   self-delimiting (its last field reads to the end of the key), since the index key and
///   the primary key could then not be told apart, nor a scan for one index key kept from the
///   next.
/// - **Unique** ([`Index::unique`]): one index row per index key, keyed `encode(I)`.
/// - **Covering** ([`covering`](Index::covering)): the index row's value holds the record's
///   value too, for stores and readers that read the index alone; otherwise it holds the
///   primary key only.
///
/// The index row's value is `0x01`, the primary key's length (u32 big-endian), the primary
/// key, then — covering only — the record's value.
///
/// ```
/// use rowkey::index::{Index, Kind, Record, RecordError};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct OrderId { id: u64 }
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct ByBuyer {
///     #[salt(buckets = 8)]
///     buyer: u32,
///     placed_ms: u64,
/// }
///
/// struct Order { id: u64, buyer: u32, placed_ms: u64 }
/// impl Record for Order {
///     type Key = OrderId;
///     fn key(&self) -> OrderId { OrderId { id: self.id } }
///     fn to_value(&self) -> Vec<u8> { [self.buyer.to_be_bytes().as_slice(), &self.placed_ms.to_be_bytes()].concat() }
///     fn from_row(k: OrderId, v: &[u8]) -> Result<Order, RecordError> {
///         let buyer = u32::from_be_bytes(v.get(..4).ok_or("short")?.try_into()?);
///         let placed_ms = u64::from_be_bytes(v.get(4..12).ok_or("short")?.try_into()?);
///         Ok(Order { id: k.id, buyer, placed_ms })
///     }
/// }
///
/// let by_buyer = Index::non_unique("by_buyer", |o: &Order| ByBuyer { buyer: o.buyer, placed_ms: o.placed_ms })?
///     .covering();
/// assert_eq!((by_buyer.name(), by_buyer.kind(), by_buyer.is_covering()), ("by_buyer", Kind::NonUnique, true));
/// let row_key = by_buyer.row_key(&ByBuyer { buyer: 3, placed_ms: 10 }, &OrderId { id: 9 })?;
/// assert_eq!(row_key.len(), 1 + 4 + 8 + 8); // salt, buyer, placed_ms, then the order id
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Index<R, I> {
    name: String,
    kind: Kind,
    covering: bool,
    key: fn(&R) -> I,
    _r: PhantomData<fn(&R)>,
}

impl<R, I> Clone for Index<R, I> {
    fn clone(&self) -> Self {
        Index {
            name: self.name.clone(),
            kind: self.kind,
            covering: self.covering,
            key: self.key,
            _r: PhantomData,
        }
    }
}

impl<R, I> fmt::Debug for Index<R, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Index")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("covering", &self.covering)
            .finish_non_exhaustive()
    }
}

impl<R: Record, I: RowKey + DecodeRowKeyOwned> Index<R, I> {
    /// A unique index named `name` (the name of its table in the store), keyed by `key`.
    ///
    /// # Errors
    ///
    /// An empty name.
    pub fn unique(name: &str, key: fn(&R) -> I) -> Result<Self, DefineIndexError> {
        Self::define(name, Kind::Unique, key)
    }

    /// A non-unique index named `name`, keyed by `key` then the primary key.
    ///
    /// # Errors
    ///
    /// An empty name, or an index key layout that is not self-delimiting (see [`Index`]).
    pub fn non_unique(name: &str, key: fn(&R) -> I) -> Result<Self, DefineIndexError> {
        if let Some(reason) = not_self_delimiting(I::LAYOUT) {
            return Err(DefineIndexError {
                index: name.to_owned(),
                reason,
            });
        }
        Self::define(name, Kind::NonUnique, key)
    }

    fn define(name: &str, kind: Kind, key: fn(&R) -> I) -> Result<Self, DefineIndexError> {
        if name.is_empty() {
            return Err(DefineIndexError {
                index: String::new(),
                reason: "an index needs a name (it names the index's table)".into(),
            });
        }
        Ok(Index {
            name: name.to_owned(),
            kind,
            covering: false,
            key,
            _r: PhantomData,
        })
    }

    /// Keep the record's value in each index row too (a covering index).
    #[must_use]
    pub fn covering(mut self) -> Self {
        self.covering = true;
        self
    }

    /// The index's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Unique or not.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Whether index rows hold the record's value.
    pub fn is_covering(&self) -> bool {
        self.covering
    }

    /// The index key of a record.
    pub fn index_key(&self, record: &R) -> I {
        (self.key)(record)
    }

    /// The index row key for an index key and a primary key: `encode(index_key)` for a
    /// unique index, `encode(index_key) ++ encode(key)` otherwise. What a read resumes after.
    ///
    /// # Errors
    ///
    /// A key does not encode.
    pub fn row_key(&self, index_key: &I, key: &R::Key) -> Result<Vec<u8>, EncodeError> {
        let mut out = index_key.to_row_key()?.to_vec();
        if self.kind == Kind::NonUnique {
            key.encode_into(&mut out)?;
        }
        Ok(out)
    }
}

/// Why a layout is not self-delimiting, if it is not: its last field is variable-length and
/// reads to the end of the key.
fn not_self_delimiting(layout: &Layout) -> Option<String> {
    if layout.fixed_width.is_some() {
        return None;
    }
    let last = layout.fields.last()?;
    let delimited = last.total_width().is_some()
        || matches!(
            last.encoding,
            FieldEncoding::Sep
                | FieldEncoding::SepByte(_)
                | FieldEncoding::Pad { .. }
                | FieldEncoding::ReverseTs
                | FieldEncoding::Reverse { .. }
        );
    (!delimited).then(|| {
        format!(
            "the index key layout {} is not self-delimiting: its last field `{}` ({}) reads to \
             the end of the key, so a non-unique index row (index key, then primary key) could \
             not be split; give `{}` #[sep] or #[pad(N)], or make the index unique",
            layout.name, last.name, last.ty, last.name
        )
    })
}

/// The type-erased view of an index that maintenance and the scrub work with.
pub(super) trait Spec<R>: Send + Sync {
    fn name(&self) -> &str;
    fn kind(&self) -> Kind;
    fn covering(&self) -> bool;
    /// `encode(index_key(record))`.
    fn encoded_key(&self, record: &R) -> Result<Vec<u8>, EncodeError>;
    /// Whether `bytes` is a valid index key (it decodes as `I`).
    fn decodes(&self, bytes: &[u8]) -> bool;
}

impl<R: Record, I: RowKey + DecodeRowKeyOwned> Spec<R> for Index<R, I> {
    fn name(&self) -> &str {
        &self.name
    }
    fn kind(&self) -> Kind {
        self.kind
    }
    fn covering(&self) -> bool {
        self.covering
    }
    fn encoded_key(&self, record: &R) -> Result<Vec<u8>, EncodeError> {
        Ok(self.index_key(record).to_row_key()?.to_vec())
    }
    fn decodes(&self, bytes: &[u8]) -> bool {
        I::from_row_key(bytes).is_ok()
    }
}

/// The format tag of an index row's value.
const VALUE_TAG: u8 = 1;

/// An index row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) key: Vec<u8>,
    pub(super) value: Vec<u8>,
}

/// The index row of a record (`pk`: its encoded primary key, `value`: its stored value).
pub(super) fn entry<R>(
    spec: &dyn Spec<R>,
    record: &R,
    pk: &[u8],
    value: &[u8],
) -> Result<Entry, EncodeError> {
    let mut key = spec.encoded_key(record)?;
    if spec.kind() == Kind::NonUnique {
        key.extend_from_slice(pk);
    }
    let covered = if spec.covering() { value } else { &[] };
    let len = u32::try_from(pk.len()).unwrap_or(u32::MAX);
    let mut v = Vec::with_capacity(5 + pk.len() + covered.len());
    v.push(VALUE_TAG);
    v.extend_from_slice(&len.to_be_bytes());
    v.extend_from_slice(pk);
    v.extend_from_slice(covered);
    Ok(Entry { key, value: v })
}

/// An index row read back: the index key's bytes, the primary key's, the covered value.
#[derive(Debug, Clone, Copy)]
pub(super) struct Parsed<'a> {
    pub(super) index_key: &'a [u8],
    pub(super) pk: &'a [u8],
}

/// Split an index row into its parts, or `None` if it is not one [`entry`] wrote.
pub(super) fn parse<'a>(kind: Kind, key: &'a [u8], value: &'a [u8]) -> Option<Parsed<'a>> {
    let (&tag, rest) = value.split_first()?;
    if tag != VALUE_TAG {
        return None;
    }
    let len = rest.get(..4)?;
    let len = usize::try_from(u32::from_be_bytes([
        *len.first()?,
        *len.get(1)?,
        *len.get(2)?,
        *len.get(3)?,
    ]))
    .ok()?;
    let pk = rest.get(4..4usize.checked_add(len)?)?;
    let index_key = match kind {
        Kind::Unique => key,
        Kind::NonUnique => key.strip_suffix(pk)?,
    };
    Some(Parsed { index_key, pk })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_row_values_parse_back_and_refuse_everything_else() {
        let pk = [0u8, 0, 0, 7];
        let mut value = vec![VALUE_TAG, 0, 0, 0, 4];
        value.extend_from_slice(&pk);
        value.extend_from_slice(b"covered");
        let key = [b"ix".as_slice(), &pk].concat();
        let p = parse(Kind::NonUnique, &key, &value).expect("parses");
        assert_eq!((p.index_key, p.pk), (&b"ix"[..], &pk[..]));
        let p = parse(Kind::Unique, b"ix", &value).expect("parses");
        assert_eq!((p.index_key, p.pk), (&b"ix"[..], &pk[..]));
        // a key that does not end with the primary key, another tag, every truncation
        assert!(parse(Kind::NonUnique, b"ix\0\0\0\x08", &value).is_none());
        assert!(parse(Kind::Unique, b"ix", &[2, 0, 0, 0, 0]).is_none());
        for cut in 0..9 {
            assert!(parse(Kind::Unique, b"ix", &value[..cut]).is_none(), "{cut}");
        }
        assert!(parse(Kind::Unique, b"ix", &[VALUE_TAG, 0xFF, 0xFF, 0xFF, 0xFF]).is_none());
    }
}
