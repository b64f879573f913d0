//! What an indexed table stores: a [`Record`] with a primary key and an opaque value.

use crate::{DecodeRowKeyOwned, RowKey};

/// The error a record's own decoding returns (see [`Record::from_row`]).
pub type RecordError = Box<dyn std::error::Error + Send + Sync>;

/// A record of an indexed table: its primary key (a [`RowKey`], the base table's row key)
/// and its value (the base table's row value, opaque bytes of your choosing).
///
/// ```
/// use rowkey::index::{Record, RecordError};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct UserId {
///     #[salt(buckets = 4)]
///     id: u64,
/// }
///
/// #[derive(Debug, Clone, PartialEq)]
/// struct User {
///     id: u64,
///     email: String,
/// }
///
/// impl Record for User {
///     type Key = UserId;
///     fn key(&self) -> UserId {
///         UserId { id: self.id }
///     }
///     fn to_value(&self) -> Vec<u8> {
///         self.email.as_bytes().to_vec()
///     }
///     fn from_row(key: UserId, value: &[u8]) -> Result<User, RecordError> {
///         Ok(User { id: key.id, email: String::from_utf8(value.to_vec())? })
///     }
/// }
///
/// let u = User { id: 7, email: "a@b".into() };
/// assert_eq!(User::from_row(u.key(), &u.to_value())?, u);
/// # Ok::<(), RecordError>(())
/// ```
pub trait Record: Sized {
    /// The primary key: the base table's row key.
    type Key: RowKey + DecodeRowKeyOwned;

    /// The record's primary key.
    fn key(&self) -> Self::Key;

    /// The record's value as stored in the base table (and in covering index rows).
    fn to_value(&self) -> Vec<u8>;

    /// The record back from its primary key and stored value.
    ///
    /// # Errors
    ///
    /// The value is not one [`to_value`](Self::to_value) wrote.
    fn from_row(key: Self::Key, value: &[u8]) -> Result<Self, RecordError>;
}
