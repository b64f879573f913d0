//! The storage a migration runs on: the [`Store`] port, its tables ([`Side`]) and batches.

use core::fmt;

/// Which table of a migration: the source (layout `A`) or the destination (layout `B`). In a
/// one-table migration both name the same table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Where the `A` rows are.
    Source,
    /// Where the `B` rows go.
    Destination,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Source => "source",
            Side::Destination => "destination",
        })
    }
}

/// A stored row: `(key, value)`, values are opaque bytes.
pub type Row = (Vec<u8>, Vec<u8>);

/// One batch of writes: destination puts, source deletes, and the checkpoint to store with them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// Rows to write to the destination (overwriting any row with the same key).
    pub puts: Vec<Row>,
    /// Keys to delete from the source (a missing key is not an error).
    pub deletes: Vec<Vec<u8>>,
    /// The checkpoint blob to save (see [`Checkpoint`](super::Checkpoint)).
    pub checkpoint: Vec<u8>,
}

/// The storage a migration runs on: both tables and a checkpoint slot.
///
/// Small and synchronous so that any client fits, an async one (Bigtable over gRPC) by
/// blocking on its futures. Every method takes `&self`: a dual read can run beside the copy.
///
/// What an implementation must guarantee:
///
/// - [`scan`](Self::scan) returns the rows of one table with `start <= key < stop` in
///   ascending byte order, at most `limit` of them; fewer than `limit` means the range is
///   exhausted. It must see every write that returned before it was called.
/// - [`put`](Self::put), [`delete`](Self::delete) and [`save_checkpoint`](Self::save_checkpoint)
///   are durable when they return `Ok` (retrying a call must be harmless: they are idempotent).
/// - [`apply`](Self::apply) writes a batch's puts, then its deletes, then its checkpoint, each
///   durable before the next starts (the default does exactly this). A store with transactions
///   overrides it to apply the batch atomically. Either way a crash leaves a state the next run
///   finishes exactly.
/// - [`get`](Self::get) reads destination rows by key (the default scans each key).
/// - The checkpoint is stored where neither table's scan sees it.
///
/// # Over Bigtable (or HBase)
///
/// A row there is many cells, so the store decides what the opaque value is: e.g. every cell
/// of the row (family, qualifier, timestamp, value) serialized into one blob by `scan` and
/// written back cell by cell by `put`, so that the copy keeps the whole row and verification
/// checksums all of it. Then:
///
/// - `scan`: `ReadRows` with one `RowRange` (`start_key_closed = start`, `end_key_open = stop`)
///   and `rows_limit = limit`;
/// - `put`: `MutateRows` of `SetCell`s with **explicit** timestamps (the copied ones, never
///   server time), so that a retried or repeated batch writes the same cells;
/// - `delete`: `MutateRows` with `DeleteFromRow`;
/// - `get`: `ReadRows` with a `RowSet` of the keys;
/// - `load_checkpoint`/`save_checkpoint`: one cell in a row of another table (or a key outside
///   both layouts' ranges that the store's `scan` skips);
/// - `apply`: keep the default (Bigtable has no multi-row transactions; the default's order —
///   puts, deletes, checkpoint — is what makes a crash safe);
/// - the async client is driven by blocking on its futures (a runtime handle inside the
///   store); call the migration from a blocking thread (`spawn_blocking`), not inside a task.
///
/// # A store of your own
///
/// Two in-memory tables (a store with no durability to speak of, but every rule above holds):
///
/// ```
/// use std::cell::RefCell;
/// use std::collections::BTreeMap;
/// use std::convert::Infallible;
/// use std::ops::Bound;
/// use rowkey::migrate::{Migration, Row, Side, Store};
/// use rowkey::RowKey;
///
/// #[derive(Default)]
/// struct Mem {
///     old: RefCell<BTreeMap<Vec<u8>, Vec<u8>>>,
///     new: RefCell<BTreeMap<Vec<u8>, Vec<u8>>>,
///     checkpoint: RefCell<Option<Vec<u8>>>,
/// }
///
/// impl Store for Mem {
///     type Error = Infallible;
///     fn same_table(&self) -> bool {
///         false
///     }
///     fn scan(&self, side: Side, start: &[u8], stop: Option<&[u8]>, limit: usize) -> Result<Vec<Row>, Infallible> {
///         let table = match side {
///             Side::Source => self.old.borrow(),
///             Side::Destination => self.new.borrow(),
///         };
///         let hi = stop.map_or(Bound::Unbounded, Bound::Excluded);
///         Ok(table
///             .range::<[u8], _>((Bound::Included(start), hi))
///             .take(limit)
///             .map(|(k, v)| (k.clone(), v.clone()))
///             .collect())
///     }
///     fn put(&self, rows: &[Row]) -> Result<(), Infallible> {
///         self.new.borrow_mut().extend(rows.iter().cloned());
///         Ok(())
///     }
///     fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Infallible> {
///         let mut old = self.old.borrow_mut();
///         keys.iter().for_each(|k| drop(old.remove(k)));
///         Ok(())
///     }
///     fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Infallible> {
///         Ok(self.checkpoint.borrow().clone())
///     }
///     fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Infallible> {
///         *self.checkpoint.borrow_mut() = Some(blob.to_vec());
///         Ok(())
///     }
/// }
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct V1 {
///     #[salt(buckets = 2)]
///     id: u32,
/// }
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct V2 {
///     #[salt(buckets = 8)]
///     id: u32,
/// }
///
/// let store = Mem::default();
/// for id in 0..50 {
///     store.old.borrow_mut().insert(V1 { id }.to_row_key()?.to_vec(), id.to_be_bytes().to_vec());
/// }
/// let m = Migration::new(&store, |v: V1| V2 { id: v.id }).batch_size(7);
/// m.run(|_| {})?;
/// let verified = m.verify()?;
/// m.retire_source(&verified, |_| {})?;
/// assert_eq!((store.old.borrow().len(), store.new.borrow().len()), (0, 50));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Store {
    /// The store's error.
    type Error: std::error::Error + 'static;

    /// Whether the source and destination are one table (see the [module docs](super)).
    fn same_table(&self) -> bool;

    /// At most `limit` rows of `side` with `start <= key < stop` (`None`: no upper bound), in
    /// ascending key order.
    fn scan(
        &self,
        side: Side,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Row>, Self::Error>;

    /// Write `rows` to the destination, durably.
    fn put(&self, rows: &[Row]) -> Result<(), Self::Error>;

    /// Delete `keys` from the source, durably.
    fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Self::Error>;

    /// The last checkpoint blob saved, if any.
    fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Self::Error>;

    /// Replace the checkpoint blob, durably.
    fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Self::Error>;

    /// The values of `keys` in the destination (`None`: no such row), in the order of `keys`.
    /// Retirement reads the new rows back with it before deleting the old ones. The default
    /// scans each key as a one-row range; a store with a multi-get (Bigtable `ReadRows` with a
    /// `RowSet` of keys, redb in one read transaction) should override it.
    fn get(&self, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            let mut stop = Vec::with_capacity(k.len() + 1);
            stop.extend_from_slice(k);
            stop.push(0);
            let row = self
                .scan(Side::Destination, k, Some(&stop), 1)?
                .into_iter()
                .find(|(rk, _)| rk == k);
            out.push(row.map(|(_, v)| v));
        }
        Ok(out)
    }

    /// Apply one batch: puts, deletes, then the checkpoint — in one transaction where the store
    /// has them.
    fn apply(&self, batch: &Batch) -> Result<(), Self::Error> {
        if !batch.puts.is_empty() {
            self.put(&batch.puts)?;
        }
        if !batch.deletes.is_empty() {
            self.delete(&batch.deletes)?;
        }
        self.save_checkpoint(&batch.checkpoint)
    }
}

impl<S: Store + ?Sized> Store for &S {
    type Error = S::Error;
    fn same_table(&self) -> bool {
        (**self).same_table()
    }
    fn scan(
        &self,
        side: Side,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Row>, Self::Error> {
        (**self).scan(side, start, stop, limit)
    }
    fn put(&self, rows: &[Row]) -> Result<(), Self::Error> {
        (**self).put(rows)
    }
    fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Self::Error> {
        (**self).delete(keys)
    }
    fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Self::Error> {
        (**self).load_checkpoint()
    }
    fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Self::Error> {
        (**self).save_checkpoint(blob)
    }
    fn get(&self, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        (**self).get(keys)
    }
    fn apply(&self, batch: &Batch) -> Result<(), Self::Error> {
        (**self).apply(batch)
    }
}
