//! Re-keying a table from one key layout `A` to another `B` — 16 → 32 salt buckets, unsalted →
//! salted, a v1 → v2 layout — while a service keeps reading: batched with progress, resumable
//! from a checkpoint, verified by count and checksum, with a dual read over both layouts and a
//! dry run that shows the new layout's region distribution on the existing keys.
//!
//! # The phases
//!
//! 1. [`Migration::dry_run`]: map every source row to its new key and report the hotspot
//!    distribution of the new layout (and the old one) — nothing is written.
//! 2. [`Migration::run`] (or [`run_batches`](Migration::run_batches)): **copy**. Rows are read
//!    in `A`'s logical order in batches; each row `a` becomes `map(a)` (a `B`) with the value
//!    unchanged, and each batch is written together with a checkpoint (the last source key
//!    done). Source rows are **never deleted in this phase**, so a stop at any point — a crash
//!    between the destination write and the checkpoint included — loses nothing: the next run
//!    resumes after the checkpoint and re-writes at most one batch, with the same bytes.
//! 3. [`Migration::verify`]: count and an order-independent checksum of the logical records on
//!    both sides (every source row mapped to its `B` key, with its value; every destination row
//!    as stored). A difference is [`MigrateError::Mismatch`] — an error, never a warning. The
//!    destination is read back from the store, so a passing report also proves every write
//!    landed.
//! 4. [`Migration::retire_source`]: delete the source rows, batched and resumable — only with the
//!    [`Verified`] proof that step 3 returned, and each batch only after reading its new rows
//!    back ([`Store::get`]): a source row whose new row is missing or differs (a write after
//!    verification) is [`MigrateError::NotCopied`], and nothing of its batch is deleted.
//!
//! # Writers during a migration
//!
//! The copy reads the source as it goes, so a row written to the old layout ahead of the
//! checkpoint is copied; one written behind it is not, and verification says so — then
//! [`Migration::reset`] and copy again (the rows already copied are rewritten, same bytes).
//! The simplest regime: the service writes both layouts (old first) until retirement, and
//! reads with the dual read.
//!
//! While any of this runs, [`Migration::dual_read`] serves reads: both layouts merged in `B`'s
//! logical order, each logical record once, the `B` row winning when both exist (paged with
//! `take(n)` and [`Migration::dual_read_after`]). In the copy
//! phase every record is in `A`; after retirement starts every record is in `B`; so a dual read
//! never misses a record at any point.
//!
//! # Logical identity
//!
//! Two layouts of one record have different bytes. The identity that both agree on is the
//! **`B` key of the record**: a source row is identified by `map(a).to_row_key()`, a destination
//! row by its own key. Logical order is `B`'s logical order: the key bytes after `B`'s salt
//! (what [`crate::read`] merges by). Deduplication, verification and the dual read all compare
//! `B` keys, so the mapping alone defines the identity; no projection is needed.
//!
//! The dual read streams both sides, so it needs the mapping to keep order: `a1 < a2` in `A`'s
//! logical order must give `map(a1) <= map(a2)` in `B`'s. Re-salting, adding a salt, a prefix
//! or a tag, and widening a field all keep order; reordering fields or flipping `#[desc]` does
//! not, and then the dual read fails with [`MigrateError::NotOrderPreserving`] (the copy,
//! verification and retirement do not depend on order and still work).
//!
//! # One table or two
//!
//! The store says where the layouts live ([`Store::same_table`]):
//!
//! - **Two tables**: the layouts never meet; the way when new keys could read as old ones.
//! - **One table**: `B`'s keys are written beside `A`'s. A row is then an `A` row or a `B` row by
//!   which layout it decodes as (both validate their salt: a 16-bucket key is a valid
//!   32-bucket key only where the two salts agree). A row valid in both layouts must be a
//!   *fixed point* — its `B` key is its own key (e.g. when the 16- and 32-bucket salts of a
//!   metric agree, about half the rows) — and is then left in place, never written and never
//!   deleted. A mapping that would write a `B` key that also reads as an
//!   unrelated `A` row (or leave an `A` row that reads as a `B` row) is
//!   [`MigrateError::Ambiguous`], stopping the copy before that batch is written; the dry run
//!   counts such rows up front. Add a prefix or tag to `B` to make the layouts disjoint.
//!
//! # Stores
//!
//! [`Store`] is small and synchronous: scan a key range in order with a limit, put rows, delete
//! rows, load and save a checkpoint blob. The `redb` feature implements it for
//! [redb](https://docs.rs/redb) ([`redb::RedbStore`]), writing each batch and its checkpoint in
//! one transaction.
//!
//! ```
//! # #[cfg(feature = "redb")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use redb::{Database, ReadableDatabase, TableDefinition};
//! use rowkey::migrate::{redb::RedbStore, Migration};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! struct V1 {
//!     #[salt(buckets = 4)]
//!     user: u32,
//!     ts: u64,
//! }
//!
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! struct V2 {
//!     #[salt(buckets = 8)]
//!     user: u32,
//!     ts: u64,
//! }
//!
//! impl From<V1> for V2 {
//!     fn from(v: V1) -> V2 {
//!         V2 { user: v.user, ts: v.ts }
//!     }
//! }
//!
//! const T: TableDefinition<&[u8], &[u8]> = TableDefinition::new("events");
//! let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
//! let tx = db.begin_write()?;
//! {
//!     let mut t = tx.open_table(T)?;
//!     for user in 0..20u32 {
//!         for ts in 0..10u64 {
//!             t.insert(&V1 { user, ts }.to_row_key()?[..], &b"payload"[..])?;
//!         }
//!     }
//! }
//! tx.commit()?;
//!
//! // Re-key in place (one table), 64 rows per batch, stopping after 2 batches.
//! let store = RedbStore::same_table(&db, "events", "events-v2");
//! let m: Migration<_, V1, V2> = Migration::from_into(&store).batch_size(64);
//! let first = m.run_batches(2, |_| {})?;
//! assert!(!first.complete);
//!
//! // Meanwhile a dual read sees every record once, in V2's logical order.
//! let users: Vec<u32> = m.dual_read_all().map(|r| r.map(|row| row.key.user)).collect::<Result<_, _>>()?;
//! assert_eq!(users.len(), 200);
//! assert!(users.is_sorted());
//!
//! // Resume (a new process would do the same), verify, retire the old keys.
//! let done = m.run(|p| println!("{p}"))?;
//! assert!(done.complete);
//! let verified = m.verify()?;
//! assert_eq!(verified.report().source_rows, 200);
//! m.retire_source(&verified, |_| {})?;
//! let v2_keys = rowkey::read::redb::keys(
//!     &db.begin_read()?.open_table(T)?,
//!     rowkey::read::Read::<V2>::new(rowkey::migrate::all_ranges(V2::LAYOUT)),
//! )?;
//! assert_eq!(v2_keys.len(), 200);
//! # Ok(()) }
//! # #[cfg(not(feature = "redb"))]
//! # fn main() {}
//! ```

use core::fmt;
use core::marker::PhantomData;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::hotspot::{Analyzer, HotspotError, Report};
use crate::layout::Layout;
use crate::plan::PlanError;
use crate::read::{Read, ReadError, Rows};
use crate::scan::{ScanRange, ScanRanges};
use crate::{DecodeError, DecodeRowKeyOwned, EncodeError, RowKey};

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
    /// The checkpoint blob to save (see [`Checkpoint`]).
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

    /// Whether the source and destination are one table (see the [module docs](self)).
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

/// What a migration is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Copying source rows to the destination layout.
    Copy,
    /// Deleting the source rows after verification.
    Retire,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Copy => "copy",
            Phase::Retire => "retire",
        })
    }
}

/// A migration's persisted position: the phase, the rows done so far and the last source key
/// done. Stored as a blob by [`Store::save_checkpoint`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The phase the key belongs to.
    pub phase: Phase,
    /// Source rows copied (all of them once the phase is [`Phase::Retire`]).
    pub copied: u64,
    /// Source rows deleted by retirement.
    pub retired: u64,
    /// The last source key done in `phase` (`None`: nothing yet).
    pub last_key: Option<Vec<u8>>,
}

const MAGIC: &[u8; 4] = b"RKM1";

impl Checkpoint {
    fn start() -> Self {
        Checkpoint {
            phase: Phase::Copy,
            copied: 0,
            retired: 0,
            last_key: None,
        }
    }

    /// The blob: `RKM1`, phase (0 copy, 1 retire), copied and retired (u64 big-endian), then a
    /// presence byte and the last key.
    pub fn encode(&self) -> Vec<u8> {
        let key = self.last_key.as_deref().unwrap_or_default();
        let mut v = Vec::with_capacity(4 + 1 + 16 + 1 + key.len());
        v.extend_from_slice(MAGIC);
        v.push(match self.phase {
            Phase::Copy => 0,
            Phase::Retire => 1,
        });
        v.extend_from_slice(&self.copied.to_be_bytes());
        v.extend_from_slice(&self.retired.to_be_bytes());
        v.push(u8::from(self.last_key.is_some()));
        v.extend_from_slice(key);
        v
    }

    /// Read a blob written by [`encode`](Self::encode).
    pub fn decode(blob: &[u8]) -> Result<Self, String> {
        let bad = |what: &str| format!("migration checkpoint is not valid: {what}");
        let rest = blob
            .strip_prefix(MAGIC)
            .ok_or_else(|| bad("no RKM1 header"))?;
        let (&phase, rest) = rest.split_first().ok_or_else(|| bad("no phase"))?;
        let phase = match phase {
            0 => Phase::Copy,
            1 => Phase::Retire,
            other => return Err(bad(&format!("unknown phase {other}"))),
        };
        let (copied, rest) = rest
            .split_first_chunk::<8>()
            .ok_or_else(|| bad("short copied count"))?;
        let (retired, rest) = rest
            .split_first_chunk::<8>()
            .ok_or_else(|| bad("short retired count"))?;
        let (&has_key, key) = rest.split_first().ok_or_else(|| bad("no key flag"))?;
        let last_key = match has_key {
            0 if key.is_empty() => None,
            1 => Some(key.to_vec()),
            _ => return Err(bad("bad key flag")),
        };
        Ok(Checkpoint {
            phase,
            copied: u64::from_be_bytes(*copied),
            retired: u64::from_be_bytes(*retired),
            last_key,
        })
    }
}

/// Where a run stands, passed to the progress callback after every batch.
#[derive(Debug, Clone)]
pub struct Progress {
    /// The phase running.
    pub phase: Phase,
    /// Batches written by this run.
    pub batches: u64,
    /// Rows done in this phase, earlier runs included.
    pub rows: u64,
    /// Rows done by this run.
    pub rows_this_run: u64,
    /// Time since this run started.
    pub elapsed: Duration,
    /// The expected number of source rows, when known ([`Migration::expect_rows`]).
    pub total: Option<u64>,
}

impl Progress {
    /// Rows per second in this run.
    pub fn rows_per_sec(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.rows_this_run as f64 / s
        } else {
            0.0
        }
    }

    /// Estimated time to finish the phase, when the total is known and rows are moving.
    pub fn eta(&self) -> Option<Duration> {
        let total = self.total?;
        let rate = self.rows_per_sec();
        if rate <= 0.0 {
            return None;
        }
        let left = total.saturating_sub(self.rows) as f64;
        Some(Duration::from_secs_f64(left / rate))
    }
}

impl fmt::Display for Progress {
    /// `copy: 12000 of 100000 rows (12.0%), 45210 rows/s, ETA 1.9 s`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ", self.phase, self.rows)?;
        if let Some(total) = self.total.filter(|&t| t > 0) {
            write!(
                f,
                "of {total} rows ({:.1}%)",
                self.rows as f64 * 100.0 / total as f64
            )?;
        } else {
            f.write_str("rows")?;
        }
        write!(f, ", {:.0} rows/s", self.rows_per_sec())?;
        if let Some(eta) = self.eta() {
            write!(f, ", ETA {:.1} s", eta.as_secs_f64())?;
        }
        Ok(())
    }
}

/// The result of [`Migration::run`], [`run_batches`](Migration::run_batches) or
/// [`retire_source`](Migration::retire_source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The phase run.
    pub phase: Phase,
    /// Whether the phase is finished (false: stopped at the batch limit).
    pub complete: bool,
    /// Batches written by this run.
    pub batches: u64,
    /// Rows done by this run.
    pub rows_this_run: u64,
    /// Rows done in the phase, earlier runs included.
    pub rows: u64,
}

/// Row count and order-independent checksum of the logical records on both sides: each source
/// row as its `B` key and value, each destination row as stored. The checksum is the wrapping
/// sum of the 128-bit MD5 of every record (`len(key)` as u64 big-endian, key, value), so it
/// counts duplicates and does not depend on scan order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyReport {
    /// Source rows.
    pub source_rows: u64,
    /// Destination rows.
    pub destination_rows: u64,
    /// Checksum of the source rows' logical records.
    pub source_checksum: u128,
    /// Checksum of the destination rows.
    pub destination_checksum: u128,
}

impl VerifyReport {
    /// Counts and checksums both equal.
    pub fn is_match(&self) -> bool {
        self.source_rows == self.destination_rows
            && self.source_checksum == self.destination_checksum
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "source {} rows, checksum {:032x}; destination {} rows, checksum {:032x}: {}",
            self.source_rows,
            self.source_checksum,
            self.destination_rows,
            self.destination_checksum,
            if self.is_match() { "match" } else { "MISMATCH" }
        )
    }
}

/// Proof that [`Migration::verify`] passed: needed to retire the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified(VerifyReport);

impl Verified {
    /// The matching report.
    pub fn report(&self) -> &VerifyReport {
        &self.0
    }
}

/// An error of a migration.
#[derive(Debug)]
pub enum MigrateError<E> {
    /// The store failed.
    Store(E),
    /// A key in a scanned range does not decode as the side's layout.
    Decode {
        /// Which table.
        side: Side,
        /// The key as stored.
        key: Vec<u8>,
        /// Why (field and offset).
        error: DecodeError,
    },
    /// The mapped key of a source row does not encode.
    Encode {
        /// The source key.
        source_key: Vec<u8>,
        /// Why (field).
        error: EncodeError,
    },
    /// One table only: a row would be read as both layouts (see the [module docs](self)).
    Ambiguous {
        /// The source key.
        source_key: Vec<u8>,
        /// Its `B` key.
        destination_key: Vec<u8>,
        /// Which way it is ambiguous.
        reason: &'static str,
    },
    /// Dual read: the mapping does not keep logical order, so the layouts cannot be merged
    /// as streams.
    NotOrderPreserving {
        /// The `B` key of the previous source row.
        previous: Vec<u8>,
        /// The `B` key that came after it but sorts before it.
        next: Vec<u8>,
    },
    /// Verification found a difference.
    Mismatch(VerifyReport),
    /// Retirement: a source row's new row is missing or holds another value, so the source row
    /// is not deleted (nothing of its batch is).
    NotCopied {
        /// The source key.
        source_key: Vec<u8>,
        /// Its new key.
        destination_key: Vec<u8>,
        /// Whether a row with the new key exists (with another value).
        found: bool,
    },
    /// The checkpoint blob is not one this version wrote.
    Checkpoint(String),
    /// Dry run: no plan for the region count.
    Plan(PlanError),
    /// Dry run: the analyzer refused the split points.
    Hotspot(HotspotError),
}

impl<E: fmt::Display> fmt::Display for MigrateError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bin = crate::hbase::to_string_binary;
        match self {
            MigrateError::Store(e) => write!(f, "migration store error: {e}"),
            MigrateError::Decode { side, key, error } => {
                write!(f, "{side} key {} does not decode: {error}", bin(key))
            }
            MigrateError::Encode { source_key, error } => write!(
                f,
                "source key {} maps to a key that does not encode: {error}",
                bin(source_key)
            ),
            MigrateError::Ambiguous {
                source_key,
                destination_key,
                reason,
            } => write!(
                f,
                "source key {} (new key {}) is ambiguous in a one-table migration: {reason}; \
                 give the new layout a prefix or tag, or migrate to a second table",
                bin(source_key),
                bin(destination_key)
            ),
            MigrateError::NotOrderPreserving { previous, next } => write!(
                f,
                "dual read: the mapping does not keep logical order (new key {} after {}); \
                 a dual read needs an order-preserving mapping",
                bin(next),
                bin(previous)
            ),
            MigrateError::Mismatch(r) => write!(f, "migration verification failed: {r}"),
            MigrateError::NotCopied {
                source_key,
                destination_key,
                found,
            } => write!(
                f,
                "not retiring source key {}: its new row {} {}; copy again (reset, run) and verify",
                bin(source_key),
                bin(destination_key),
                if *found {
                    "holds another value"
                } else {
                    "is missing"
                }
            ),
            MigrateError::Checkpoint(m) => f.write_str(m),
            MigrateError::Plan(e) => write!(f, "dry run: {e}"),
            MigrateError::Hotspot(e) => write!(f, "dry run: {e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for MigrateError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MigrateError::Store(e) => Some(e),
            MigrateError::Decode { error, .. } => Some(error),
            MigrateError::Encode { error, .. } => Some(error),
            MigrateError::Plan(e) => Some(e),
            MigrateError::Hotspot(e) => Some(e),
            _ => None,
        }
    }
}

impl<E> MigrateError<E> {
    fn from_read(side: Side, e: ReadError<E>) -> Self {
        match e {
            ReadError::Decode { key, error } => MigrateError::Decode { side, key, error },
            ReadError::Store(e) => MigrateError::Store(e),
        }
    }
}

/// Every row of a layout: one range per salt bucket (salt bytes big-endian), or the whole
/// table when unsalted.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct K {
///     #[salt(buckets = 4)]
///     id: u32,
/// }
/// let r = rowkey::migrate::all_ranges(K::LAYOUT);
/// assert_eq!(r.len(), 4);
/// assert_eq!(r.as_slice()[3].start(), &[3]);
/// ```
pub fn all_ranges(layout: &Layout) -> ScanRanges {
    let prefix = layout.prefix;
    let ranges = match layout.salt {
        Some(s) => (0..s.buckets)
            .map(|b| {
                let mut head = prefix.to_vec();
                head.extend_from_slice(crate::salt::bytes(b, s.width).as_ref());
                ScanRange::prefix(&head)
            })
            .collect(),
        None if prefix.is_empty() => vec![ScanRange::new(&[], None)],
        None => vec![ScanRange::prefix(prefix)],
    };
    ScanRanges::new(ranges).with_salt_end(layout.salt_end())
}

/// Rows of one range, fetched page by page, with rows of the other layout skipped in a
/// one-table migration. Items are `(key, (key, value))` so that a typed read keeps the raw key.
struct Pager<'s, S: Store> {
    store: &'s S,
    side: Side,
    next: Vec<u8>,
    stop: Option<Vec<u8>>,
    page: usize,
    buf: VecDeque<Row>,
    done: bool,
    skip: Option<fn(&[u8]) -> bool>,
}

type Item = (Bytes, (Bytes, Vec<u8>));

impl<'s, S: Store> Pager<'s, S> {
    fn new(
        store: &'s S,
        side: Side,
        r: &ScanRange,
        page: usize,
        skip: Option<fn(&[u8]) -> bool>,
    ) -> Self {
        Pager {
            store,
            side,
            next: r.start().to_vec(),
            stop: r.stop().map(<[u8]>::to_vec),
            page: page.max(1),
            buf: VecDeque::new(),
            done: false,
            skip,
        }
    }
}

impl<S: Store> Iterator for Pager<'_, S> {
    type Item = Result<Item, S::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((k, v)) = self.buf.pop_front() {
                if self.skip.is_some_and(|skip| skip(&k)) {
                    continue;
                }
                let k = Bytes::from(k);
                return Some(Ok((k.clone(), (k, v))));
            }
            if self.done {
                return None;
            }
            let rows = match self
                .store
                .scan(self.side, &self.next, self.stop.as_deref(), self.page)
            {
                Ok(rows) => rows,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if rows.len() < self.page {
                self.done = true;
            }
            match rows.last() {
                Some((last, _)) => {
                    self.next.clear();
                    self.next.extend_from_slice(last);
                    self.next.push(0);
                }
                None => self.done = true,
            }
            self.buf.extend(rows);
        }
    }
}

/// Row classification in a one-table migration.
fn only_b<A, B>(k: &[u8]) -> bool
where
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
{
    A::from_row_key(k).is_err() && B::from_row_key(k).is_ok()
}

fn record_hash(key: &[u8], value: &[u8]) -> u128 {
    use md5::{Digest, Md5};
    let mut h = Md5::new();
    h.update((key.len() as u64).to_be_bytes());
    h.update(key);
    h.update(value);
    u128::from_be_bytes(h.finalize().into())
}

/// A re-keying of every row from layout `A` to layout `B` with `map` (see the
/// [module docs](self)). Holds no state of its own beyond its settings: everything that must
/// survive a crash is in the store, so a migration dropped at any point and created again
/// continues where the checkpoint says.
///
/// An operator's session, into a second table, with a mapping that is not a `From` impl:
///
/// ```
/// # #[cfg(feature = "redb")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use redb::{Database, TableDefinition};
/// use rowkey::migrate::{redb::RedbStore, Checkpoint, Migration, Phase, Side};
/// use rowkey::RowKey;
///
/// // the legacy layout: the newest events first, all in one hot region
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// #[rowkey(allow_hotspot)]
/// struct Old {
///     #[reverse_ts]
///     ts: i64,
///     user: u32,
/// }
///
/// // the hotspot fixed: the same key, salted (logical order kept, which the dual read needs;
/// // moving `user` first would not keep it, see the module docs)
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// #[rowkey(salt(buckets = 4))]
/// struct New {
///     #[reverse_ts]
///     ts: i64,
///     user: u32,
/// }
///
/// const OLD: TableDefinition<&[u8], &[u8]> = TableDefinition::new("events");
/// let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
/// let tx = db.begin_write()?;
/// {
///     let mut t = tx.open_table(OLD)?;
///     for i in 0..40i64 {
///         t.insert(&Old { ts: 1_000 + i, user: (i % 5) as u32 }.to_row_key()?[..], &b"v"[..])?;
///     }
/// }
/// tx.commit()?;
///
/// let store = RedbStore::two_tables(&db, "events", "events_v2", "events-v2");
/// let m = Migration::new(&store, |o: Old| New { ts: o.ts, user: o.user }).batch_size(16);
/// // before anything is written: how the rows would spread over 4 regions
/// let dry = m.dry_run(4, 4)?;
/// assert_eq!(dry.rows, 40);
/// assert_eq!(dry.after.empty_regions(), 0);
/// println!("{dry}");
///
/// let rows = m.count_source()?;
/// let m = m.expect_rows(rows); // for the progress percentage and ETA
/// assert!(m.checkpoint()?.is_none()); // not started
/// m.run_batches(1, |p| println!("{} rows, {:.0}/s, eta {:?}", p.rows, p.rows_per_sec(), p.eta()))?;
/// let cp: Checkpoint = m.checkpoint()?.unwrap();
/// assert_eq!((cp.phase, cp.copied), (Phase::Copy, 16));
/// assert_eq!(Checkpoint::decode(&cp.encode())?, cp);
///
/// // reads during the copy see all 40 records once, newest first; page after the 10th
/// let page: Vec<_> = m.dual_read_all().take(10).collect::<Result<_, _>>()?;
/// assert_eq!(page.len(), 10);
/// let last = &page[9].key;
/// let rest = m.dual_read_after(
///     rowkey::migrate::all_ranges(New::LAYOUT),
///     rowkey::migrate::all_ranges(Old::LAYOUT),
///     last,
///     |n| Old { ts: n.ts, user: n.user },
/// )?;
/// let rest: Vec<_> = rest.collect::<Result<_, _>>()?;
/// assert_eq!(rest.len(), 30);
/// assert!(page.iter().chain(&rest).any(|r| r.from == Side::Destination));
///
/// m.run(|_| {})?;
/// let verified = m.verify()?;
/// assert!(verified.report().is_match());
/// let retired = m.retire_batches(&verified, 1, |_| {})?; // one batch now, the rest later
/// assert_eq!((retired.phase, retired.complete), (Phase::Retire, false));
/// # Ok(()) }
/// # #[cfg(not(feature = "redb"))]
/// # fn main() {}
/// ```
///
/// # Naming a migration's type
///
/// `F` is the mapping's type and defaults to the function pointer `fn(A) -> B`, so that the
/// common migrations have a type to write in a signature or a `let`:
///
/// - `B: From<A>`: `Migration<S, A, B>` from [`from_into`](Migration::from_into), with no
///   turbofish when the type is written down (`let m: Migration<_, A, B> = …`, or a return type);
/// - a `fn` item, or a closure that captures nothing: `Migration<S, A, B>` as well (it coerces
///   to `fn(A) -> B` where that type is expected);
/// - a closure that captures: `Migration<S, A, B, impl Fn(A) -> B>` in a return type, or
///   `Migration<S, A, B, Box<dyn Fn(A) -> B>>` to store it.
///
/// ```
/// # #[cfg(feature = "redb")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use redb::Database;
/// use rowkey::migrate::{redb::RedbStore, Migration};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct V1 {
///     #[salt(buckets = 4)]
///     id: u32,
/// }
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct V2 {
///     #[salt(buckets = 8)]
///     id: u32,
///     shard: u8,
/// }
///
/// impl From<V1> for V2 {
///     fn from(v: V1) -> V2 {
///         V2 { id: v.id, shard: 0 }
///     }
/// }
///
/// // helpers that build the migration once for every phase of an operator's tool
/// fn migration<'s>(store: &'s RedbStore<'s>) -> Migration<&'s RedbStore<'s>, V1, V2> {
///     Migration::from_into(store).batch_size(500)
/// }
/// fn into_shard_one<'s>(store: &'s RedbStore<'s>) -> Migration<&'s RedbStore<'s>, V1, V2> {
///     Migration::new(store, |v: V1| V2 { id: v.id, shard: 1 })
/// }
/// fn into_shard<'s>(store: &'s RedbStore<'s>, shard: u8) -> Migration<&'s RedbStore<'s>, V1, V2, impl Fn(V1) -> V2> {
///     Migration::new(store, move |v: V1| V2 { id: v.id, shard })
/// }
///
/// let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
/// let store = RedbStore::two_tables(&db, "v1", "v2", "v1-to-v2");
/// assert_eq!(migration(&store).run(|_| {})?.rows, 0); // an empty source
/// // or with the type written in a `let`:
/// let m: Migration<_, V1, V2> = Migration::from_into(&store);
/// assert!(m.verify()?.report().is_match());
/// let _ = (into_shard_one(&store), into_shard(&store, 2));
/// # Ok(()) }
/// # #[cfg(not(feature = "redb"))]
/// # fn main() {}
/// ```
pub struct Migration<S, A, B, F = fn(A) -> B> {
    store: S,
    map: F,
    batch: usize,
    total: Option<u64>,
    _ab: PhantomData<fn(A) -> B>,
}

impl<S, A, B> Migration<S, A, B, fn(A) -> B>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned + From<A>,
{
    /// A migration that maps with `B::from`: a `Migration<S, A, B>` (see
    /// [naming a migration's type](Migration#naming-a-migrations-type); `A` and `B` come from
    /// the expected type, or a turbofish: `Migration::<_, A, B>::from_into(store)`).
    pub fn from_into(store: S) -> Self {
        Self::new(store, B::from)
    }
}

/// A source row read for copying.
struct Mapped {
    source_key: Bytes,
    value: Vec<u8>,
    new_key: Bytes,
}

impl<S, A, B, F> Migration<S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    /// A migration over `store` mapping each source key with `map`; batches of 1000 rows.
    pub fn new(store: S, map: F) -> Self {
        Migration {
            store,
            map,
            batch: 1000,
            total: None,
            _ab: PhantomData,
        }
    }

    /// Rows per batch (and per checkpoint); at least 1.
    #[must_use]
    pub fn batch_size(mut self, rows: usize) -> Self {
        self.batch = rows.max(1);
        self
    }

    /// The expected number of source rows, for the percentage and ETA in [`Progress`] (e.g.
    /// from [`count_source`](Self::count_source) or the store's statistics).
    #[must_use]
    pub fn expect_rows(mut self, rows: u64) -> Self {
        self.total = Some(rows);
        self
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The saved checkpoint, if the migration has started.
    pub fn checkpoint(&self) -> Result<Option<Checkpoint>, MigrateError<S::Error>> {
        match self.store.load_checkpoint().map_err(MigrateError::Store)? {
            Some(blob) => Checkpoint::decode(&blob)
                .map(Some)
                .map_err(MigrateError::Checkpoint),
            None => Ok(None),
        }
    }

    /// Start the copy over from the first source row (the rows already written are written
    /// again, with the same bytes). For a source that received writes behind the checkpoint —
    /// rows that [`verify`](Self::verify) reports missing — when the service did not write both
    /// layouts during the migration.
    pub fn reset(&self) -> Result<(), MigrateError<S::Error>> {
        self.store
            .save_checkpoint(&Checkpoint::start().encode())
            .map_err(MigrateError::Store)
    }

    fn skip_for(&self, side: Side) -> Option<fn(&[u8]) -> bool> {
        if !self.store.same_table() {
            return None;
        }
        Some(match side {
            Side::Source => only_b::<A, B>,
            Side::Destination => only_b::<B, A>,
        })
    }

    fn page_for(&self, ranges: usize) -> usize {
        let per = self.batch / ranges.max(1);
        per.saturating_add(per / 4)
            .saturating_add(8)
            .min(self.batch)
    }

    /// Source rows in `A`'s logical order after `after`, mapped (at most `limit`).
    fn source_rows<'s>(
        &'s self,
        after: Option<&[u8]>,
        limit: Option<usize>,
    ) -> impl Iterator<Item = Result<Mapped, MigrateError<S::Error>>> + 's {
        let mut read = Read::<A>::new(all_ranges(A::LAYOUT));
        if let Some(k) = after {
            read = read.after(k);
        }
        if let Some(n) = limit {
            read = read.limit(n);
        }
        let page = match limit {
            Some(_) => self.page_for(read.ranges().len()),
            None => self.batch,
        };
        let skip = self.skip_for(Side::Source);
        let sources: Vec<_> = read
            .ranges()
            .iter()
            .map(|r| Pager::new(&self.store, Side::Source, r, page, skip))
            .collect();
        let rows: Rows<A, Pager<'s, S>> = read.try_rows(sources);
        rows.map(move |row| {
            let (a, (source_key, value)) =
                row.map_err(|e| MigrateError::from_read(Side::Source, e))?;
            let new_key = (self.map)(a)
                .to_row_key()
                .map_err(|error| MigrateError::Encode {
                    source_key: source_key.to_vec(),
                    error,
                })?;
            Ok(Mapped {
                source_key,
                value,
                new_key,
            })
        })
    }

    /// One table: whether a mapped row stays where it is (a fixed point), or an error when the
    /// layouts cannot tell it apart.
    fn in_place(&self, m: &Mapped) -> Result<bool, MigrateError<S::Error>> {
        if !self.store.same_table() {
            return Ok(false);
        }
        if m.new_key == m.source_key {
            return Ok(true);
        }
        let ambiguous = |reason| MigrateError::Ambiguous {
            source_key: m.source_key.to_vec(),
            destination_key: m.new_key.to_vec(),
            reason,
        };
        if A::from_row_key(&m.new_key).is_ok() {
            return Err(ambiguous("its new key is also a valid old-layout key"));
        }
        if B::from_row_key(&m.source_key).is_ok() {
            return Err(ambiguous(
                "its old key is also a valid new-layout key of another record",
            ));
        }
        Ok(false)
    }

    /// Decode a source key and map it (no value).
    fn map_key(&self, k: &[u8]) -> Result<Mapped, MigrateError<S::Error>> {
        let a = A::from_row_key(k).map_err(|error| MigrateError::Decode {
            side: Side::Source,
            key: k.to_vec(),
            error,
        })?;
        let new_key = (self.map)(a)
            .to_row_key()
            .map_err(|error| MigrateError::Encode {
                source_key: k.to_vec(),
                error,
            })?;
        Ok(Mapped {
            source_key: Bytes::copy_from_slice(k),
            value: Vec::new(),
            new_key,
        })
    }

    /// Copy everything that is left, then return. See [`run_batches`](Self::run_batches).
    pub fn run(&self, progress: impl FnMut(&Progress)) -> Result<Summary, MigrateError<S::Error>> {
        self.run_batches(usize::MAX, progress)
    }

    /// Copy at most `max_batches` batches from the checkpoint on, calling `progress` after
    /// each. Each batch's rows and the checkpoint after its last source key are written with
    /// [`Store::apply`]. Returns whether the copy is complete; call again to continue (in this
    /// process or another).
    ///
    /// In one table, the first run (no checkpoint yet) first checks every source row for
    /// ambiguity (a scan of the source, like the dry run's), so a refused migration writes
    /// nothing at all.
    ///
    /// # Errors
    ///
    /// A store error, a source key that does not decode as `A`, a mapped key that does not
    /// encode, or (one table) an ambiguous row: nothing of the failing batch is written.
    pub fn run_batches(
        &self,
        max_batches: usize,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Summary, MigrateError<S::Error>> {
        let started = Instant::now();
        let saved = self.checkpoint()?;
        if saved.is_none() && self.store.same_table() {
            // One table, first run: every row must be unambiguous before anything is written.
            self.scan_side(Side::Source, |k, _| {
                self.in_place(&self.map_key(k)?).map(drop)
            })?;
        }
        let mut cp = saved.unwrap_or_else(Checkpoint::start);
        let mut summary = Summary {
            phase: Phase::Copy,
            complete: false,
            batches: 0,
            rows_this_run: 0,
            rows: cp.copied,
        };
        if cp.phase == Phase::Retire {
            summary.complete = true;
            return Ok(summary);
        }
        while (summary.batches as usize) < max_batches {
            let mut batch = Batch::default();
            let mut read = 0usize;
            let mut last = None;
            for m in self.source_rows(cp.last_key.as_deref(), Some(self.batch)) {
                let m = m?;
                read += 1;
                if !self.in_place(&m)? {
                    batch.puts.push((m.new_key.to_vec(), m.value));
                }
                last = Some(m.source_key);
            }
            let Some(last) = last else {
                summary.complete = true;
                break;
            };
            cp.copied += read as u64;
            cp.last_key = Some(last.to_vec());
            batch.checkpoint = cp.encode();
            self.store.apply(&batch).map_err(MigrateError::Store)?;
            summary.batches += 1;
            summary.rows_this_run += read as u64;
            summary.rows = cp.copied;
            progress(&Progress {
                phase: Phase::Copy,
                batches: summary.batches,
                rows: cp.copied,
                rows_this_run: summary.rows_this_run,
                elapsed: started.elapsed(),
                total: self.total,
            });
            if read < self.batch {
                summary.complete = true;
                break;
            }
        }
        Ok(summary)
    }

    /// Count the source rows (a full scan).
    pub fn count_source(&self) -> Result<u64, MigrateError<S::Error>> {
        let mut n = 0;
        self.scan_side(Side::Source, |_, _| {
            n += 1;
            Ok(())
        })?;
        Ok(n)
    }

    /// Every row of one side, range by range (no merge), skipping the other layout's rows in
    /// one table.
    fn scan_side(
        &self,
        side: Side,
        mut f: impl FnMut(&[u8], &[u8]) -> Result<(), MigrateError<S::Error>>,
    ) -> Result<(), MigrateError<S::Error>> {
        let layout = match side {
            Side::Source => A::LAYOUT,
            Side::Destination => B::LAYOUT,
        };
        let skip = self.skip_for(side);
        for r in &all_ranges(layout) {
            for row in Pager::new(&self.store, side, r, self.batch, skip) {
                let (k, (_, v)) = row.map_err(MigrateError::Store)?;
                f(&k, &v)?;
            }
        }
        Ok(())
    }

    /// Compare the logical records of both sides: every source row mapped to its `B` key (with
    /// its value) against every destination row, by count and order-independent checksum.
    ///
    /// # Errors
    ///
    /// [`MigrateError::Mismatch`] with the report when they differ; a store, decode, encode or
    /// ambiguity error as in the copy.
    pub fn verify(&self) -> Result<Verified, MigrateError<S::Error>> {
        let mut r = VerifyReport {
            source_rows: 0,
            destination_rows: 0,
            source_checksum: 0,
            destination_checksum: 0,
        };
        self.scan_side(Side::Source, |k, v| {
            let m = self.map_key(k)?;
            self.in_place(&m)?;
            r.source_rows += 1;
            r.source_checksum = r.source_checksum.wrapping_add(record_hash(&m.new_key, v));
            Ok(())
        })?;
        self.scan_side(Side::Destination, |k, v| {
            B::from_row_key(k).map_err(|error| MigrateError::Decode {
                side: Side::Destination,
                key: k.to_vec(),
                error,
            })?;
            r.destination_rows += 1;
            r.destination_checksum = r.destination_checksum.wrapping_add(record_hash(k, v));
            Ok(())
        })?;
        if r.is_match() {
            Ok(Verified(r))
        } else {
            Err(MigrateError::Mismatch(r))
        }
    }

    /// Delete the source rows (one table: the old-layout rows, fixed points stay as they are
    /// the new rows), batched and resumable like the copy. Needs the proof that
    /// [`verify`](Self::verify) passed. See [`retire_batches`](Self::retire_batches).
    pub fn retire_source(
        &self,
        verified: &Verified,
        progress: impl FnMut(&Progress),
    ) -> Result<Summary, MigrateError<S::Error>> {
        self.retire_batches(verified, usize::MAX, progress)
    }

    /// [`retire_source`](Self::retire_source), at most `max_batches` batches.
    pub fn retire_batches(
        &self,
        _verified: &Verified,
        max_batches: usize,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Summary, MigrateError<S::Error>> {
        let started = Instant::now();
        let mut cp = self.checkpoint()?.unwrap_or_else(Checkpoint::start);
        if cp.phase == Phase::Copy {
            cp = Checkpoint {
                phase: Phase::Retire,
                copied: cp.copied,
                retired: 0,
                last_key: None,
            };
        }
        let mut summary = Summary {
            phase: Phase::Retire,
            complete: false,
            batches: 0,
            rows_this_run: 0,
            rows: cp.retired,
        };
        while (summary.batches as usize) < max_batches {
            let mut batch = Batch::default();
            let mut read = 0usize;
            let mut last = None;
            let mut expect = Vec::new();
            for m in self.source_rows(cp.last_key.as_deref(), Some(self.batch)) {
                let m = m?;
                read += 1;
                if !self.in_place(&m)? {
                    batch.deletes.push(m.source_key.to_vec());
                    expect.push((m.new_key.to_vec(), m.value));
                }
                last = Some(m.source_key);
            }
            let Some(last) = last else {
                summary.complete = true;
                break;
            };
            // Never delete a row whose new row is not stored with the same value (a row written
            // to the old layout after verification, say).
            let keys: Vec<Vec<u8>> = expect.iter().map(|(k, _)| k.clone()).collect();
            let found = self.store.get(&keys).map_err(MigrateError::Store)?;
            for ((source_key, (new_key, value)), got) in
                batch.deletes.iter().zip(&expect).zip(found)
            {
                if got.as_ref() != Some(value) {
                    return Err(MigrateError::NotCopied {
                        source_key: source_key.clone(),
                        destination_key: new_key.clone(),
                        found: got.is_some(),
                    });
                }
            }
            cp.retired += batch.deletes.len() as u64;
            cp.last_key = Some(last.to_vec());
            batch.checkpoint = cp.encode();
            self.store.apply(&batch).map_err(MigrateError::Store)?;
            summary.batches += 1;
            summary.rows_this_run += batch.deletes.len() as u64;
            summary.rows = cp.retired;
            progress(&Progress {
                phase: Phase::Retire,
                batches: summary.batches,
                rows: cp.retired,
                rows_this_run: summary.rows_this_run,
                elapsed: started.elapsed(),
                total: self.total,
            });
            if read < self.batch {
                summary.complete = true;
                break;
            }
        }
        Ok(summary)
    }

    /// A logical read of every record over both layouts: see [`dual_read`](Self::dual_read).
    pub fn dual_read_all(&self) -> DualRead<'_, S, A, B, F> {
        self.dual_read(all_ranges(B::LAYOUT), all_ranges(A::LAYOUT))
    }

    /// A logical read over both layouts while the migration runs: the destination rows in
    /// `new_ranges` (a `B` scan, e.g. `B::scan().metric(m).ranges()`) merged with the source
    /// rows in `old_ranges` (the same query in `A`'s terms, or anything wider) whose `B` key
    /// falls in `new_ranges`; in `B`'s logical order, each record once, the destination row
    /// winning when both exist. Lazy: rows are fetched page by page (`take(n)` for a page).
    ///
    /// # Errors (per item)
    ///
    /// Store, decode and encode errors, and [`MigrateError::NotOrderPreserving`] when the
    /// mapping does not keep order (see the [module docs](self)).
    pub fn dual_read(
        &self,
        new_ranges: ScanRanges,
        old_ranges: ScanRanges,
    ) -> DualRead<'_, S, A, B, F> {
        self.dual_read_from(new_ranges, old_ranges, None)
    }

    /// The next page of a [`dual_read`](Self::dual_read): the records strictly after `after`
    /// (the last record of the previous page) in `B`'s logical order. `old_of` gives the old
    /// key of a new one (the inverse of the mapping, e.g. `|b| A::from(b.clone())`), so that
    /// the old layout's scan starts there too instead of from its beginning.
    ///
    /// # Errors
    ///
    /// `after` or its old key does not encode.
    pub fn dual_read_after(
        &self,
        new_ranges: ScanRanges,
        old_ranges: ScanRanges,
        after: &B,
        old_of: impl FnOnce(&B) -> A,
    ) -> Result<DualRead<'_, S, A, B, F>, MigrateError<S::Error>> {
        let new_key = after.to_row_key();
        let old = old_of(after);
        let old_key = old.to_row_key();
        let (new_key, old_key) = match (new_key, old_key) {
            (Ok(n), Ok(o)) => (n, o),
            (Err(error), Ok(o)) => {
                return Err(MigrateError::Encode {
                    source_key: o.to_vec(),
                    error,
                })
            }
            (_, Err(error)) => {
                return Err(MigrateError::Encode {
                    source_key: Vec::new(),
                    error,
                })
            }
        };
        Ok(self.dual_read_from(new_ranges, old_ranges, Some((new_key, old_key))))
    }

    fn dual_read_from(
        &self,
        new_ranges: ScanRanges,
        old_ranges: ScanRanges,
        after: Option<(Bytes, Bytes)>,
    ) -> DualRead<'_, S, A, B, F> {
        let page = self.batch.clamp(1, 256);
        let mut read_b = Read::<B>::new(new_ranges);
        let mut read_a = Read::<A>::new(old_ranges);
        let mut floor = None;
        if let Some((new_key, old_key)) = after {
            read_b = read_b.after(&new_key);
            read_a = read_a.after(&old_key);
            floor = Some(new_key);
        }
        let skip_b = self.skip_for(Side::Destination);
        let skip_a = self.skip_for(Side::Source);
        let b = read_b.try_rows(
            read_b
                .ranges()
                .iter()
                .map(|r| Pager::new(&self.store, Side::Destination, r, page, skip_b))
                .collect::<Vec<_>>(),
        );
        let a = read_a.try_rows(
            read_a
                .ranges()
                .iter()
                .map(|r| Pager::new(&self.store, Side::Source, r, page, skip_a))
                .collect::<Vec<_>>(),
        );
        DualRead {
            m: self,
            b,
            a,
            filter: read_b.ranges().clone(),
            head_b: None,
            head_a: None,
            last_a: None,
            floor,
            failed: false,
        }
    }

    /// Map every source row to its new key and report the region distribution of both
    /// layouts: `A` over `regions_before` regions and `B` over `regions_after`, split from the
    /// layout ([`RowKey::split_points`]) or, when that needs a sample, from the keys
    /// themselves. One table: counts the rows that would be ambiguous. Writes nothing.
    pub fn dry_run(
        &self,
        regions_before: usize,
        regions_after: usize,
    ) -> Result<DryRun, MigrateError<S::Error>> {
        let mut old_keys = Vec::new();
        let mut new_keys = Vec::new();
        let mut ambiguous = 0u64;
        let mut first_ambiguous = None;
        self.scan_side(Side::Source, |k, _| {
            let m = self.map_key(k)?;
            if let Err(e) = self.in_place(&m) {
                ambiguous += 1;
                if first_ambiguous.is_none() {
                    first_ambiguous = Some(e.to_string());
                }
            }
            old_keys.push(m.source_key);
            new_keys.push(m.new_key);
            Ok(())
        })?;
        let before = analyze::<A, S::Error>(&old_keys, regions_before, "before")?;
        let after = analyze::<B, S::Error>(&new_keys, regions_after, "after")?;
        Ok(DryRun {
            rows: old_keys.len() as u64,
            before,
            after,
            ambiguous,
            first_ambiguous,
        })
    }
}

fn analyze<T: RowKey, E>(
    keys: &[Bytes],
    regions: usize,
    when: &str,
) -> Result<Report, MigrateError<E>> {
    let splits = match T::split_points(regions) {
        Ok(s) => s,
        Err(PlanError::NeedsSample { .. }) => {
            T::split_points_from_sample(keys, regions).map_err(MigrateError::Plan)?
        }
        Err(e) => return Err(MigrateError::Plan(e)),
    };
    let mut a = Analyzer::new(&splits)
        .map_err(MigrateError::Hotspot)?
        .with_name(format!("{when}: {} ({regions} regions)", T::LAYOUT.name));
    for k in keys {
        a.add(k);
    }
    Ok(a.report())
}

/// The result of [`Migration::dry_run`]. `Display` prints both distributions side by side.
#[derive(Debug, Clone)]
pub struct DryRun {
    /// Source rows.
    pub rows: u64,
    /// The current layout's distribution.
    pub before: Report,
    /// The new layout's distribution of the same records.
    pub after: Report,
    /// One table: rows the layouts cannot tell apart (the copy would stop at the first).
    pub ambiguous: u64,
    /// One table: why the first ambiguous row is.
    pub first_ambiguous: Option<String>,
}

impl fmt::Display for DryRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "dry run over {} source rows", self.rows)?;
        f.write_str(&Report::comparison_table(&[&self.before, &self.after]))?;
        writeln!(f, "before: {}", self.before.summary())?;
        writeln!(f, "after:  {}", self.after.summary())?;
        match &self.first_ambiguous {
            Some(why) => writeln!(f, "{} ambiguous rows; first: {why}", self.ambiguous),
            None => Ok(()),
        }
    }
}

/// A record of a dual read.
#[derive(Debug, Clone, PartialEq)]
pub struct DualRow<B> {
    /// The record's key in the new layout.
    pub key: B,
    /// The value.
    pub value: Vec<u8>,
    /// Where it was read: the destination when both layouts hold it.
    pub from: Side,
}

type Typed<'s, S, T> = Rows<T, Pager<'s, S>>;
type Head<B, E> = Option<Result<(B, Bytes, Vec<u8>), MigrateError<E>>>;

/// The rows of [`Migration::dual_read`].
pub struct DualRead<'s, S: Store, A, B, F> {
    m: &'s Migration<S, A, B, F>,
    b: Typed<'s, S, B>,
    a: Typed<'s, S, A>,
    filter: ScanRanges,
    head_b: Head<B, S::Error>,
    head_a: Head<B, S::Error>,
    last_a: Option<Bytes>,
    /// A resumed read: nothing at or before this new key.
    floor: Option<Bytes>,
    failed: bool,
}

impl<S, A, B, F> DualRead<'_, S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    fn fill_b(&mut self) {
        if self.head_b.is_none() {
            self.head_b = self.b.next().map(|row| match row {
                Ok((key, (raw, value))) => Ok((key, raw, value)),
                Err(e) => Err(MigrateError::from_read(Side::Destination, e)),
            });
        }
    }

    fn fill_a(&mut self) {
        let skip = B::LAYOUT.salt_end();
        while self.head_a.is_none() {
            let Some(row) = self.a.next() else { return };
            let (a, (raw, value)) = match row {
                Ok(r) => r,
                Err(e) => {
                    self.head_a = Some(Err(MigrateError::from_read(Side::Source, e)));
                    return;
                }
            };
            let key = (self.m.map)(a);
            let new_key = match key.to_row_key() {
                Ok(k) => k,
                Err(error) => {
                    self.head_a = Some(Err(MigrateError::Encode {
                        source_key: raw.to_vec(),
                        error,
                    }));
                    return;
                }
            };
            if !self.filter.contains(&new_key) {
                continue;
            }
            if let Some(floor) = &self.floor {
                if new_key.get(skip..) <= floor.get(skip..) {
                    continue;
                }
            }
            if let Some(prev) = &self.last_a {
                let (p, n) = (prev.get(skip..), new_key.get(skip..));
                if n < p {
                    self.head_a = Some(Err(MigrateError::NotOrderPreserving {
                        previous: prev.to_vec(),
                        next: new_key.to_vec(),
                    }));
                    return;
                }
                if n == p {
                    // two source rows with one new key: verification reports it
                    continue;
                }
            }
            self.last_a = Some(new_key.clone());
            self.head_a = Some(Ok((key, new_key, value)));
        }
    }
}

impl<S, A, B, F> Iterator for DualRead<'_, S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    type Item = Result<DualRow<B>, MigrateError<S::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.fill_b();
        self.fill_a();
        let skip = B::LAYOUT.salt_end();
        let (take_b, drop_a) = match (&self.head_b, &self.head_a) {
            (None, None) => return None,
            (Some(Err(_)), _) => (true, false),
            (_, Some(Err(_))) => (false, false),
            (Some(Ok(_)), None) => (true, false),
            (None, Some(Ok(_))) => (false, false),
            (Some(Ok((_, kb, _))), Some(Ok((_, ka, _)))) => {
                let (lb, la) = (kb.get(skip..), ka.get(skip..));
                // both layouts hold the record: the destination wins
                (lb <= la, lb == la)
            }
        };
        if drop_a {
            self.head_a = None;
        }
        let head = if take_b {
            self.head_b.take()
        } else {
            self.head_a.take()
        };
        let from = if take_b {
            Side::Destination
        } else {
            Side::Source
        };
        match head? {
            Ok((key, _, value)) => Some(Ok(DualRow { key, value, from })),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// The [`Store`] for [redb](https://docs.rs/redb) tables of `&[u8]` keys and `&[u8]` values
/// (feature `redb`): each batch and its checkpoint are written in one transaction.
#[cfg(feature = "redb")]
pub mod redb {
    use ::redb::{Database, ReadableDatabase, TableDefinition, TableError};

    use super::{Batch, Row, Side, Store};

    /// The table of checkpoints, keyed by migration name.
    pub const CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
        TableDefinition::new("rowkey_migrate_checkpoints");

    /// A migration's tables in one redb database: a source and a destination table (or one
    /// table for both) of `&[u8]` → `&[u8]`, and a checkpoint under the migration's name in
    /// [`CHECKPOINTS`].
    #[derive(Debug, Clone, Copy)]
    pub struct RedbStore<'db> {
        db: &'db Database,
        source: &'db str,
        destination: &'db str,
        name: &'db str,
    }

    impl<'db> RedbStore<'db> {
        /// Re-key `table` in place; `name` identifies the migration's checkpoint.
        pub fn same_table(db: &'db Database, table: &'db str, name: &'db str) -> Self {
            RedbStore {
                db,
                source: table,
                destination: table,
                name,
            }
        }

        /// Copy `source` into `destination` under the new layout.
        pub fn two_tables(
            db: &'db Database,
            source: &'db str,
            destination: &'db str,
            name: &'db str,
        ) -> Self {
            RedbStore {
                db,
                source,
                destination,
                name,
            }
        }

        fn def(&self, side: Side) -> TableDefinition<'db, &'static [u8], &'static [u8]> {
            TableDefinition::new(match side {
                Side::Source => self.source,
                Side::Destination => self.destination,
            })
        }

        fn write(
            &self,
            puts: &[Row],
            deletes: &[Vec<u8>],
            checkpoint: Option<&[u8]>,
        ) -> Result<(), ::redb::Error> {
            let tx = self.db.begin_write()?;
            if !puts.is_empty() {
                let mut t = tx.open_table(self.def(Side::Destination))?;
                for (k, v) in puts {
                    t.insert(k.as_slice(), v.as_slice())?;
                }
            }
            if !deletes.is_empty() {
                let mut t = tx.open_table(self.def(Side::Source))?;
                for k in deletes {
                    t.remove(k.as_slice())?;
                }
            }
            if let Some(blob) = checkpoint {
                let mut t = tx.open_table(CHECKPOINTS)?;
                t.insert(self.name, blob)?;
            }
            tx.commit()?;
            Ok(())
        }
    }

    impl Store for RedbStore<'_> {
        type Error = ::redb::Error;

        fn same_table(&self) -> bool {
            self.source == self.destination
        }

        fn scan(
            &self,
            side: Side,
            start: &[u8],
            stop: Option<&[u8]>,
            limit: usize,
        ) -> Result<Vec<Row>, Self::Error> {
            let tx = self.db.begin_read()?;
            let t = match tx.open_table(self.def(side)) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
                Err(e) => return Err(e.into()),
            };
            let range = match stop {
                Some(stop) => t.range::<&[u8]>(start..stop)?,
                None => t.range::<&[u8]>(start..)?,
            };
            let mut rows = Vec::with_capacity(limit.min(4096));
            for row in range.take(limit) {
                let (k, v) = row?;
                rows.push((k.value().to_vec(), v.value().to_vec()));
            }
            Ok(rows)
        }

        fn put(&self, rows: &[Row]) -> Result<(), Self::Error> {
            self.write(rows, &[], None)
        }

        fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Self::Error> {
            self.write(&[], keys, None)
        }

        fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Self::Error> {
            let tx = self.db.begin_read()?;
            let t = match tx.open_table(CHECKPOINTS) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            Ok(t.get(self.name)?.map(|v| v.value().to_vec()))
        }

        fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Self::Error> {
            self.write(&[], &[], Some(blob))
        }

        fn get(&self, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
            let tx = self.db.begin_read()?;
            let t = match tx.open_table(self.def(Side::Destination)) {
                Ok(t) => t,
                Err(TableError::TableDoesNotExist(_)) => return Ok(vec![None; keys.len()]),
                Err(e) => return Err(e.into()),
            };
            keys.iter()
                .map(|k| Ok(t.get(k.as_slice())?.map(|v| v.value().to_vec())))
                .collect()
        }

        /// Puts, deletes and the checkpoint in one transaction.
        fn apply(&self, batch: &Batch) -> Result<(), Self::Error> {
            self.write(&batch.puts, &batch.deletes, Some(&batch.checkpoint))
        }
    }
}
