//! Re-keying a table from one key layout `A` to another `B` — 16 → 32 salt buckets, unsalted →
//! salted, a v1 → v2 layout — while a service keeps reading: batched with progress, resumable
//! from a checkpoint, verified by count and checksum, with a dual read over both layouts and a
//! dry run that shows the new layout's region distribution on the existing keys.
//!
//! ```toml
//! [dependencies]
//! rowkey = { version = "0.1", features = ["migrate"] }
//! ```
//!
//! # The phases
//!
//! 1. [`Migration::dry_run`]: map every source row to its new key and report the hotspot
//!    distribution of the new layout (and the old one) — nothing is written.
//! 2. [`Migration::run`] (or [`run_batches`](Migration::run_batches)): **copy**. Rows are read
//!    in `A`'s logical order in batches; each row `a` becomes `map(a)` (a `B`) with the value
//!    unchanged, and each batch is written together with a checkpoint (the last source key
//!    done), reporting progress (rows, rows/s, ETA) after each batch. Source rows are **never
//!    deleted in this phase**, so a stop at any point — a crash
//!    between the destination write and the checkpoint included — loses nothing: the next run
//!    resumes after the checkpoint and re-writes at most one batch, with the same bytes.
//! 3. [`Migration::verify`]: count and an order-independent checksum of the logical records on
//!    both sides (every source row mapped to its `B` key, with its value; every destination row
//!    as stored). A difference is [`MigrateError::Mismatch`] — an error, never a warning. The
//!    destination is read back from the store, so a passing report also proves every write
//!    landed.
//! 4. [`Migration::retire_source`]: delete the source rows, batched and resumable — only with the
//!    [`Verified`] proof that step 3 returned, and each batch only after reading its new rows
//!    back ([`Store::get`](crate::store::Store::get)): a source row whose new row is missing or differs (a write after
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
//! The store says where the layouts live ([`Store::same_table`](crate::store::Store::same_table)):
//! `A` in its base table, `B` in its destination table, which is the base table itself or
//! another.
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
//!   counts such rows up front. Unsalted → salted in place is refused that way: every salted
//!   key is also a valid unsalted key. Add a prefix or tag to `B` to make the layouts
//!   disjoint, or use two tables.
//!
//! # Stores
//!
//! A migration runs on a [`Store`](crate::store::Store), the port that index tables use too:
//! it scans the base table, writes each batch to the destination table (puts, then — when
//! retiring — deletes from the base table) with the checkpoint under the migration's
//! [name](Migration::name), and reads new rows back with `get` before retiring old ones. The
//! `redb` feature implements it for [redb](https://docs.rs/redb)
//! (`store::RedbStore`), writing each batch and its checkpoint in one
//! transaction; `rowkey-hbase` and `rowkey-bigtable` over their servers.
//!
//! A worked example (OpenTSDB's salt, 16 → 32 buckets in place: dry run, a copy stopped after
//! one batch, the dual read, resumed, verified, retired) is in [the guide's chapter on changing
//! a key layout](https://docs.rs/rowkey/latest/rowkey/guide/migrations/index.html); the
//! `resalt` example runs the whole story on a redb file.

mod checkpoint;
mod copy;
mod dry_run;
mod dual_read;
mod error;
mod migration;
mod pager;
#[cfg(feature = "redb")]
#[deprecated(note = "use rowkey::store::RedbStore, and Migration::name for the checkpoint's name")]
pub mod redb;
mod renamed;
mod report;
mod retire;
mod side;
mod verify;

pub use checkpoint::{Checkpoint, Phase};
pub use dry_run::DryRun;
pub use dual_read::{DualRead, DualRow};
pub use error::MigrateError;
pub use migration::{Migration, DEFAULT_NAME};
pub use pager::all_ranges;
#[allow(deprecated)]
pub use renamed::{Row, Store};
pub use report::{Progress, Summary, Verified, VerifyReport};
pub use side::Side;
