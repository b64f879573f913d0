//! The [`Store`] port: its tables, rows and writes.

use core::fmt;

/// One table of a store.
///
/// An indexed table ([`Indexed`](crate::index::Indexed)) uses [`Base`](Table::Base) and one
/// [`Index`](Table::Index) per index; a migration ([`Migration`](crate::migrate::Migration))
/// reads the old layout from [`Base`](Table::Base) and writes the new one to
/// [`Destination`](Table::Destination) — the base table itself when the store says
/// [`same_table`](Store::same_table).
///
/// ```
/// use rowkey::store::Table;
///
/// assert_eq!(Table::Index("by_city".into()).to_string(), "index by_city");
/// assert_eq!(Table::Destination.to_string(), "destination table");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Table {
    /// The base table: a record's primary key → its value; a migration's source.
    Base,
    /// An index table, by the index's name ([`Index::name`](crate::index::Index::name)).
    Index(String),
    /// A migration's destination: where the rows of the new layout go.
    Destination,
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Table::Base => f.write_str("base table"),
            Table::Index(name) => write!(f, "index {name}"),
            Table::Destination => f.write_str("destination table"),
        }
    }
}

/// A stored row: `(key, value)`; values are opaque bytes.
pub type KeyValue = (Vec<u8>, Vec<u8>);

/// One mutation of one row.
///
/// ```
/// use rowkey::store::{Table, Write};
///
/// let w = Write::Delete { table: Table::Base, key: b"k".to_vec() };
/// assert_eq!((w.table(), w.key()), (&Table::Base, &b"k"[..]));
/// ```
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

/// The storage of a table and what is kept beside it: the base table, one table per index, a
/// migration's destination, and named checkpoints.
///
/// Small and synchronous so that any client fits, an async one (Bigtable over gRPC) by
/// blocking on its futures. Every method takes `&self`: reads run beside writes (a dual read
/// beside a copy, verified reads beside maintenance).
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
/// - [`apply`](Self::apply) applies **steps** in order, then the checkpoint, each durable
///   before the next starts (the default does exactly this). A store with transactions
///   overrides it to apply everything atomically. The maintenance order of
///   [`Indexed`](crate::index::Indexed) and a migration's batches (puts, deletes, checkpoint)
///   rely on one or the other: a crash leaves a state the next run finishes exactly.
/// - Checkpoints are stored where no table's scan sees them.
/// - [`same_table`](Self::same_table) says whether [`Table::Destination`] is the base table
///   (a migration in place).
///
/// `RedbStore` (feature `redb`) implements it; `rowkey-hbase` and
/// `rowkey-bigtable` implement it over their servers.
///
/// # Over Bigtable or HBase
///
/// A row there is many cells, so the store decides what the opaque value is: one cell (an
/// indexed table's rows, written by rowkey), or every cell of the row serialized into one blob
/// (a migration of any table: the copy keeps the whole row, and verification checksums all of
/// it). Puts carry **explicit** timestamps, so that a retried or repeated batch writes the same
/// cells; there are no multi-row transactions, so `apply` keeps the default order.
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
/// use rowkey::index::{Index, Indexed, Record, RecordError};
/// use rowkey::migrate::Migration;
/// use rowkey::store::{KeyValue, Store, Table, Write};
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
///     fn scan(&self, table: &Table, start: &[u8], stop: Option<&[u8]>, limit: usize, reverse: bool) -> Result<Vec<KeyValue>, Infallible> {
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
/// // An indexed table on it...
/// let by_city = Index::non_unique("by_city", |s: &Shop| ByCity { city: s.city.clone() })?;
/// let shops = Indexed::new(Mem::default()).with_index(&by_city)?;
/// for (id, city) in [(1, "Oslo"), (2, "Lima"), (3, "Oslo")] {
///     shops.put(&Shop { id, city: city.into() })?;
/// }
/// shops.put(&Shop { id: 3, city: "Lima".into() })?; // moved
/// let lima = shops.scan(&by_city, ByCity::scan().city("Lima").ranges()).records()?;
/// assert_eq!(lima.iter().map(|s| s.id).collect::<Vec<_>>(), [2, 3]);
/// assert!(shops.scrub().run(|_| {})?.is_clean());
///
/// // ...and its base table re-keyed into the destination table, salted.
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct SaltedId { #[salt(buckets = 4)] id: u32 }
/// let store = shops.store();
/// let m = Migration::new(store, |k: Id| SaltedId { id: k.id }).batch_size(2);
/// m.run(|_| {})?;
/// let verified = m.verify()?;
/// m.retire_source(&verified, |_| {})?;
/// assert_eq!(store.scan(&Table::Destination, b"", None, 10, false)?.len(), 3);
/// assert!(store.scan(&Table::Base, b"", None, 10, false)?.is_empty());
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
    ) -> Result<Vec<KeyValue>, Self::Error>;

    /// The values of `keys` in `table`, in the order of `keys` (`None`: no such row).
    fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error>;

    /// Apply `writes`, durably (not necessarily atomically: see the trait docs).
    fn write(&self, writes: &[Write]) -> Result<(), Self::Error>;

    /// Apply `steps` in order and then save `checkpoint` (a name and a blob) if given, each
    /// durable before the next starts — or all of it in one transaction where the store has
    /// them.
    fn apply(
        &self,
        steps: &[Vec<Write>],
        checkpoint: Option<(&str, &[u8])>,
    ) -> Result<(), Self::Error> {
        for step in steps {
            if !step.is_empty() {
                self.write(step)?;
            }
        }
        match checkpoint {
            Some((name, blob)) => self.save_checkpoint(name, blob),
            None => Ok(()),
        }
    }

    /// The checkpoint blob saved under `name`, if any.
    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error>;

    /// Replace the checkpoint blob under `name`, durably.
    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error>;

    /// Whether [`Table::Destination`] is the base table: a migration re-keys the table in
    /// place (see [`migrate`](crate::migrate#one-table-or-two)). `false` by default.
    fn same_table(&self) -> bool {
        false
    }
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
    ) -> Result<Vec<KeyValue>, Self::Error> {
        (**self).scan(table, start, stop, limit, reverse)
    }
    fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        (**self).get(table, keys)
    }
    fn write(&self, writes: &[Write]) -> Result<(), Self::Error> {
        (**self).write(writes)
    }
    fn apply(
        &self,
        steps: &[Vec<Write>],
        checkpoint: Option<(&str, &[u8])>,
    ) -> Result<(), Self::Error> {
        (**self).apply(steps, checkpoint)
    }
    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error> {
        (**self).load_checkpoint(name)
    }
    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error> {
        (**self).save_checkpoint(name, blob)
    }
    fn same_table(&self) -> bool {
        (**self).same_table()
    }
}
