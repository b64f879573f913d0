//! The errors of index definitions and of indexed tables.

use core::fmt;

use crate::hbase::to_string_binary as bin;
use crate::EncodeError;

use crate::store::Table;

/// An index definition that cannot work, refused when it is made.
///
/// ```
/// use rowkey::index::{Index, Record, RecordError};
/// use rowkey::RowKey;
///
/// # #[derive(RowKey)] struct Id { id: u32 }
/// # struct Doc { id: u32, title: String }
/// # impl Record for Doc {
/// #     type Key = Id;
/// #     fn key(&self) -> Id { Id { id: self.id } }
/// #     fn to_value(&self) -> Vec<u8> { self.title.as_bytes().to_vec() }
/// #     fn from_row(k: Id, v: &[u8]) -> Result<Doc, RecordError> { Ok(Doc { id: k.id, title: String::from_utf8(v.to_vec())? }) }
/// # }
/// #[derive(RowKey)]
/// struct Title {
///     title: String, // raw bytes to the end of the key: not self-delimiting
/// }
///
/// let e = Index::non_unique("by_title", |d: &Doc| Title { title: d.title.clone() }).err().unwrap();
/// assert!(e.to_string().contains("not self-delimiting"), "{e}");
/// assert!(Index::unique("by_title", |d: &Doc| Title { title: d.title.clone() }).is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefineIndexError {
    /// The index's name.
    pub index: String,
    /// What is wrong and how to fix it.
    pub reason: String,
}

impl fmt::Display for DefineIndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "index {:?}: {}", self.index, self.reason)
    }
}

impl std::error::Error for DefineIndexError {}

/// An error of an indexed table: maintenance, reads or the scrub.
#[derive(Debug)]
pub enum IndexError<E> {
    /// The store failed. Whatever a write had applied before is a state the maintenance
    /// order makes safe (see the [module docs](super)): retry the operation, or let reads and
    /// the scrub repair it.
    Store(E),
    /// A key does not encode (`what` names it: the primary key, or which index's key).
    Encode {
        /// What was being encoded.
        what: String,
        /// Why.
        error: EncodeError,
    },
    /// A stored row does not decode: a base row as the record (its key or its value), or an
    /// index row's key as the index key.
    Decode {
        /// Which table.
        table: Table,
        /// The row's key as stored.
        key: Vec<u8>,
        /// Why.
        reason: String,
    },
    /// A unique index already maps the key to another live record; nothing was written.
    UniqueViolation {
        /// The index.
        index: String,
        /// The index key, encoded.
        index_key: Vec<u8>,
        /// The primary key (encoded) of the record being written.
        key: Vec<u8>,
        /// The primary key (encoded) of the record that holds the index key.
        holder: Vec<u8>,
    },
    /// The index is not one of the table's (see [`Indexed::with_index`](super::Indexed::with_index)).
    NotRegistered {
        /// The index's name.
        index: String,
    },
    /// A scrub checkpoint blob is not one this version wrote.
    Checkpoint(String),
}

impl<E: fmt::Display> fmt::Display for IndexError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Store(e) => write!(f, "index store error: {e}"),
            IndexError::Encode { what, error } => write!(f, "{what} does not encode: {error}"),
            IndexError::Decode { table, key, reason } => {
                write!(f, "{table} row {} does not decode: {reason}", bin(key))
            }
            IndexError::UniqueViolation {
                index,
                index_key,
                key,
                holder,
            } => write!(
                f,
                "unique index {index}: key {} is held by record {}; record {} cannot take it \
                 (to move a unique key between records, write the holder first, in its own batch)",
                bin(index_key),
                bin(holder),
                bin(key)
            ),
            IndexError::NotRegistered { index } => write!(
                f,
                "index {index:?} is not maintained by this table: add it with `with_index` \
                 (an index read or scrubbed must be written by every put and delete)"
            ),
            IndexError::Checkpoint(m) => write!(f, "scrub checkpoint: {m}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for IndexError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Store(e) => Some(e),
            IndexError::Encode { error, .. } => Some(error),
            _ => None,
        }
    }
}
