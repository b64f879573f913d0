//! Index tables that stay true: typed secondary indexes of a record table, maintained by every
//! put, delete and batch, read with verification against the base table, and a resumable
//! scrub that finds (and repairs) what a crash or a foreign writer left behind.
//!
//! ```toml
//! [dependencies]
//! rowkey = { version = "0.1", features = ["index"] }
//! ```
//!
//! The HBase/Bigtable way to query by another field is another table whose row key is that
//! field, written beside the record. Neither store writes two rows atomically, so a crash in
//! the middle leaves index rows that point at nothing, or a record its index cannot find. This
//! module orders the writes so that a crash can only ever leave the first kind — **extra**
//! index rows, never a missing one — and makes reads and the scrub tell extra rows apart
//! (Apache Phoenix's consistent global indexes, 5.1+, follow the same order).
//!
//! # The pieces
//!
//! - [`Record`]: a record type, its primary key (a [`RowKey`](crate::RowKey): the base table's
//!   row key) and its stored value.
//! - [`Index<R, I>`]: an index of records `R` by a key `I` (a `RowKey` too) computed from the
//!   record — `fn(&R) -> I` — [unique](Index::unique) or [non-unique](Index::non_unique),
//!   [covering](Index::covering) (the index row holds the record's value) or not. A
//!   non-unique index row is keyed `encode(I) ++ encode(primary key)`, so `I` must be
//!   self-delimiting, which [`Index::non_unique`] checks; a unique index row is keyed
//!   `encode(I)`, the primary key in its value.
//! - [`Indexed<S, R>`]: the base table and its indexes over a [`Store`](crate::store::Store): [`get`](Indexed::get),
//!   [`put`](Indexed::put) (insert or update), [`delete`](Indexed::delete),
//!   [`apply`](Indexed::apply) a [`IndexBatch`]; [`scan`](Indexed::scan) an index with `I::scan()`'s
//!   ranges (every scan form; salt buckets merged into the index key's logical order) and get
//!   verified records back; [`scrub`](Indexed::scrub).
//! - [`Store`](crate::store::Store): the storage port, shared with migrations — scan,
//!   multi-get, write, apply steps, checkpoints. `store::RedbStore`
//!   (feature `redb`), `rowkey_bigtable::store::BigtableStore`,
//!   `rowkey_hbase::store::HBaseStore`.
//!
//! # Maintenance order, and why a crash is safe
//!
//! A write (a put, a delete or a whole batch) reads the stored records of its primary keys,
//! then writes in three steps, each finished before the next starts:
//!
//! 1. **add**: the index rows the new records have and the stored ones do not (or have with
//!    another value);
//! 2. **base**: the base rows — puts of the new records, deletes of the deleted ones;
//! 3. **remove**: the index rows the stored records had and the new ones do not.
//!
//! So a put writes its new index rows, then the record, then deletes its old index rows; a
//! delete deletes the record, then its index rows. On redb the three steps are one
//! transaction: every write is all or nothing and the tables always agree.
//!
//! On Bigtable and HBase, where a step is several row mutations that can land in any subset,
//! the invariant that holds at every moment — between any two row mutations, whatever failed —
//! is:
//!
//! > **(I)** every live record has, in every index, the row keyed by its index key, naming its
//! > primary key.
//!
//! - Step 1 only adds rows (a unique row is only ever overwritten when the record it names
//!   does not hold the key: that is the unique check), so (I) holds throughout it.
//! - Step 2 starts only after step 1 finished, so every record it writes — each base mutation
//!   on its own — already has all of its index rows: (I) holds after each one, whichever
//!   subset lands. A delete only removes a record.
//! - Step 3 deletes only rows that no live record has: the stored record no longer has them
//!   (step 2 replaced or deleted it), a non-unique row names one record only, and a unique key
//!   is held by one live record only (the unique check, against the *stored* records — which
//!   is why a unique key cannot move between two records inside one batch).
//! - Reads and the scrub delete only rows that fail the check below, i.e. that no live record
//!   has; they write only rows a live record has.
//!
//! Hence a crash (a failed request, a killed process) leaves only rows beyond (I): **dangling**
//! (the record does not exist), **stale** (the record has another index key now) and
//! **outdated** (the right key, but a covered value the record does not have — the value of
//! an update whose base row was never written). Never a missing row. After a crash, nothing
//! has to be replayed: the next write of the record reads the stored record and goes on from
//! there; the extras stay until a verified read or the scrub removes them.
//!
//! # Verified reads
//!
//! [`Indexed::scan`] checks every index row it reads against its base row (one multi-get per
//! page): it parses the primary key, reads the record and recomputes the record's index row.
//! A row whose record is missing (dangling) or whose recomputed key differs (stale) is
//! skipped — never returned; an outdated row's record is returned from the base table. With
//! [`IndexScan::repair`] the bad rows are deleted (outdated ones rewritten). [`ReadStats`] counts
//! what a read met. By (I), a verified read of a range returns exactly the live records whose
//! index keys fall in it, at any moment after any crash.
//!
//! # The scrub
//!
//! [`Indexed::scrub`] compares the tables: every base row's expected index rows are looked up
//! (missing and outdated rows), then every index row is checked as a read checks it
//! (dangling, stale, invalid rows), page by page with a checkpoint after each page (in
//! [`Store::save_checkpoint`](crate::store::Store::save_checkpoint)), so a stopped scrub resumes where it stopped, with progress.
//! It reports ([`ScrubReport`], the first [`MAX_FINDINGS`] rows by name) and, with
//! [`Scrub::repair`], repairs. Missing rows appear only where the index was added to a table
//! that already had records, or a writer bypassed [`Indexed`]: the scrub is also how an index
//! is built.
//!
//! # What each store gives
//!
//! | store | a write | readers see | after a crash |
//! |---|---|---|---|
//! | redb (`store::RedbStore`, feature `redb`) | one transaction | tables that always agree | nothing to repair |
//! | Bigtable (`rowkey_bigtable::store::BigtableStore`) | 3 `MutateRows` in order | (I): every live record through its index; extras filtered by verified reads | extras until a repairing read or the scrub |
//! | HBase (`rowkey_hbase::store::HBaseStore`) | 3 `putMultiple`/`deleteMultiple` in order, each call with one explicit timestamp from a clock that strictly increases and never runs ahead of the wall clock (a delete marker never hides a later put of the same row, even after a restart) | as Bigtable | as Bigtable |
//!
//! Limits: writers of one table must go through one [`Indexed`] (it serializes its writers;
//! two processes writing the *same* record concurrently interleave their read-then-write, as
//! any read-modify-write without a server-side check-and-mutate does: each reads the record's
//! old version, so one can delete an index row the other's version still needs — a missing
//! row the scrub reports and repairs — and both can pass the unique check), and a repairing read or scrub must not run while a put of the same
//! records is in flight (a row written in step 1 looks stale until step 2 lands; deleting it
//! then would break (I) until the next scrub). Unrepairing reads are always safe.
//!
//! # Example
//!
//! A worked example — an index of orders by buyer, newest first, paged across salt buckets,
//! then scrubbed — and the crash proof's numbers are in [the guide's chapter on index
//! tables](https://docs.rs/rowkey/latest/rowkey/guide/index_tables/index.html); on the
//! servers, the docs of `rowkey_hbase::store` and `rowkey_bigtable::store` show the same
//! [`Indexed`] over a real table.

mod def;
mod error;
mod read;
mod record;
#[cfg(feature = "redb")]
#[deprecated(note = "use rowkey::store::RedbStore")]
pub mod redb;
mod renamed;
mod scrub;
mod table;
mod verify;

pub use def::{Index, Kind};
pub use error::{DefineIndexError, IndexError};
pub use read::{Hit, Hits, IndexScan, ReadStats};
pub use record::{Record, RecordError};
#[allow(deprecated)]
pub use renamed::{Batch, Finding, Row, Scan, Store, Table, Write};
pub use scrub::{Scrub, ScrubFinding, ScrubProgress, ScrubReport, MAX_FINDINGS};
pub use table::{IndexBatch, Indexed, Op};
pub use verify::Problem;
