//! The storage an indexed table runs on: the [`Store`] port, its tables and its writes.

use core::fmt;

/// One table of an indexed record type: the base table (primary key → record) or the table
/// of one index, by the index's name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Table {
    /// The base table: the record's primary key → the record's value.
    Base,
    /// An index table, by the index's name ([`Index::name`](super::Index::name)).
    Index(String),
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Table::Base => f.write_str("base table"),
            Table::Index(name) => write!(f, "index {name}"),
        }
    }
}

/// A stored row: `(key, value)`; values are opaque bytes.
pub type Row = (Vec<u8>, Vec<u8>);

/// One mutation of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// Write `value` at `key` (replacing any row with the same key).
    Put {
        /// Which table.
        table: Table,
        /// The row key.
        key: Vec<u8>,
        /// The row value.
        value: Vec<u8>,
    },
    /// Delete the row at `key` (a missing row is not an error).
    Delete {
        /// Which table.
        table: Table,
        /// The row key.
        key: Vec<u8>,
    },
}

impl Write {
    /// The table written.
    pub fn table(&self) -> &Table {
        match self {
            Write::Put { table, .. } | Write::Delete { table, .. } => table,
        }
    }

    /// The row key written.
    pub fn key(&self) -> &[u8] {
        match self {
            Write::Put { key, .. } | Write::Delete { key, .. } => key,
        }
    }
}

/// The storage of an indexed table: a base table, one table per index, and checkpoint slots.
///
/// Small and synchronous, like [`migrate::Store`](crate::migrate::Store): an async client
/// (Bigtable over gRPC) blocks on its futures. Every method takes `&self`.
///
/// What an implementation must guarantee:
///
/// - [`scan`](Self::scan) returns the rows of one table with `start <= key < stop`, at most
///   `limit` of them, in ascending key order (descending when `reverse`); fewer than `limit`
///   means the range is exhausted. It sees every write that returned before it was called.
/// - [`get`](Self::get) returns the values of `keys` in their order (`None`: no such row).
/// - [`write`](Self::write) applies its mutations; on `Ok` all of them are durable. On `Err`
///   any subset may have landed (a store without multi-row transactions). Puts and deletes
///   are idempotent, so applying them again is harmless.
/// - [`apply`](Self::apply) applies **steps** in order, each durable before the next starts
///   (the default does exactly this with [`write`](Self::write)). A store with transactions
///   overrides it to apply all steps atomically. The maintenance order of
///   [`Indexed`](super::Indexed) relies on one or the other (see the [module docs](super)).
/// - Checkpoints are stored where no table's scan sees them.
///
/// The `redb` feature implements it (`redb::RedbStore`);
/// `rowkey-bigtable` and `rowkey-hbase` implement it over their servers.
///
/// # A store of your own
///
/// In-memory tables (no durability to speak of, but every rule above holds; the default
/// [`apply`](Self::apply) writes the steps one after the other):
///
/// ```
/// use std::cell::RefCell;
/// use std::collections::BTreeMap;
/// use std::convert::Infallible;
/// use std::ops::Bound;
/// use rowkey::index::{Index, Indexed, Record, RecordError, Row, Store, Table, Write};
/// use rowkey::RowKey;
///
/// #[derive(Default)]
/// struct Mem {
///     tables: RefCell<BTreeMap<Table, BTreeMap<Vec<u8>, Vec<u8>>>>,
///     checkpoints: RefCell<BTreeMap<String, Vec<u8>>>,
/// }
///
/// impl Store for Mem {
///     type Error = Infallible;
///     fn scan(&self, table: &Table, start: &[u8], stop: Option<&[u8]>, limit: usize, reverse: bool) -> Result<Vec<Row>, Infallible> {
///         let tables = self.tables.borrow();
///         let Some(t) = tables.get(table) else { return Ok(Vec::new()) };
///         if stop.is_some_and(|s| s <= start) {
///             return Ok(Vec::new());
///         }
///         let range = t.range::<[u8], _>((Bound::Included(start), stop.map_or(Bound::Unbounded, Bound::Excluded)));
///         let rows = |it: &mut dyn Iterator<Item = (&Vec<u8>, &Vec<u8>)>| it.take(limit).map(|(k, v)| (k.clone(), v.clone())).collect();
///         Ok(if reverse { rows(&mut range.rev()) } else { rows(&mut range.into_iter()) })
///     }
///     fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Infallible> {
///         let tables = self.tables.borrow();
///         Ok(keys.iter().map(|k| tables.get(table).and_then(|t| t.get(k).cloned())).collect())
///     }
///     fn write(&self, writes: &[Write]) -> Result<(), Infallible> {
///         let mut tables = self.tables.borrow_mut();
///         for w in writes {
///             let t = tables.entry(w.table().clone()).or_default();
///             match w {
///                 Write::Put { key, value, .. } => drop(t.insert(key.clone(), value.clone())),
///                 Write::Delete { key, .. } => drop(t.remove(key)),
///             }
///         }
///         Ok(())
///     }
///     fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Infallible> {
///         Ok(self.checkpoints.borrow().get(name).cloned())
///     }
///     fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Infallible> {
///         self.checkpoints.borrow_mut().insert(name.to_owned(), blob.to_vec());
///         Ok(())
///     }
/// }
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct Id { id: u32 }
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct ByCity { #[sep] city: String }
/// #[derive(Debug, Clone, PartialEq)]
/// struct Shop { id: u32, city: String }
/// impl Record for Shop {
///     type Key = Id;
///     fn key(&self) -> Id { Id { id: self.id } }
///     fn to_value(&self) -> Vec<u8> { self.city.as_bytes().to_vec() }
///     fn from_row(k: Id, v: &[u8]) -> Result<Shop, RecordError> {
///         Ok(Shop { id: k.id, city: String::from_utf8(v.to_vec())? })
///     }
/// }
///
/// let by_city = Index::non_unique("by_city", |s: &Shop| ByCity { city: s.city.clone() })?;
/// let shops = Indexed::new(Mem::default()).with_index(&by_city)?;
/// for (id, city) in [(1, "Oslo"), (2, "Lima"), (3, "Oslo")] {
///     shops.put(&Shop { id, city: city.into() })?;
/// }
/// shops.put(&Shop { id: 3, city: "Lima".into() })?; // moved
/// let lima = shops.scan(&by_city, ByCity::scan().city("Lima").ranges()).records()?;
/// assert_eq!(lima.iter().map(|s| s.id).collect::<Vec<_>>(), [2, 3]);
/// assert!(shops.scrub().run(|_| {})?.is_clean());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Store {
    /// The store's error.
    type Error: std::error::Error + 'static;

    /// At most `limit` rows of `table` with `start <= key < stop` (`None`: no upper bound), in
    /// ascending key order, or descending when `reverse`.
    fn scan(
        &self,
        table: &Table,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<Row>, Self::Error>;

    /// The values of `keys` in `table`, in the order of `keys` (`None`: no such row).
    fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error>;

    /// Apply `writes`, durably (not necessarily atomically: see the trait docs).
    fn write(&self, writes: &[Write]) -> Result<(), Self::Error>;

    /// Apply `steps` in order, each durable before the next starts — or all of them in one
    /// transaction where the store has them.
    fn apply(&self, steps: &[Vec<Write>]) -> Result<(), Self::Error> {
        for step in steps {
            if !step.is_empty() {
                self.write(step)?;
            }
        }
        Ok(())
    }

    /// The checkpoint blob saved under `name`, if any.
    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error>;

    /// Replace the checkpoint blob under `name`, durably.
    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error>;
}

impl<S: Store + ?Sized> Store for &S {
    type Error = S::Error;
    fn scan(
        &self,
        table: &Table,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<Row>, Self::Error> {
        (**self).scan(table, start, stop, limit, reverse)
    }
    fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        (**self).get(table, keys)
    }
    fn write(&self, writes: &[Write]) -> Result<(), Self::Error> {
        (**self).write(writes)
    }
    fn apply(&self, steps: &[Vec<Write>]) -> Result<(), Self::Error> {
        (**self).apply(steps)
    }
    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error> {
        (**self).load_checkpoint(name)
    }
    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error> {
        (**self).save_checkpoint(name, blob)
    }
}
