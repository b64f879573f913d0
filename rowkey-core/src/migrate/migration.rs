//! A migration: its settings, and how a source row maps to its new key.

use core::marker::PhantomData;

use bytes::Bytes;

use crate::read::{Read, Rows};
use crate::{DecodeRowKeyOwned, RowKey};

use super::checkpoint::Checkpoint;
use super::error::MigrateError;
use super::pager::{all_ranges, Pager};
use super::side::Side;
use crate::store::Store;

/// The checkpoint name of a migration not given one with [`Migration::name`].
pub const DEFAULT_NAME: &str = "migration";

/// Row classification in a one-table migration.
pub(super) fn only_b<A, B>(k: &[u8]) -> bool
where
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
{
    A::from_row_key(k).is_err() && B::from_row_key(k).is_ok()
}

/// A re-keying of every row from layout `A` to layout `B` with `map` (see the
/// [module docs](super)). Holds no state of its own beyond its settings: everything that must
/// survive a crash is in the store, so a migration dropped at any point and created again
/// continues where the checkpoint says.
///
/// An operator's session, into a second table, with a mapping that is not a `From` impl:
///
/// ```
/// # #[cfg(feature = "redb")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use redb::{Database, TableDefinition};
/// use rowkey::migrate::{Checkpoint, Migration, Phase, Side};
/// use rowkey::store::RedbStore;
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
/// let store = RedbStore::new(&db, "events").destination("events_v2");
/// let m = Migration::new(&store, |o: Old| New { ts: o.ts, user: o.user })
///     .name("events-v2")
///     .batch_size(16);
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
/// use rowkey::migrate::Migration;
/// use rowkey::store::RedbStore;
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
/// let store = RedbStore::new(&db, "v1").destination("v2");
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
    pub(super) store: S,
    pub(super) map: F,
    pub(super) batch: usize,
    pub(super) total: Option<u64>,
    pub(super) name: String,
    pub(super) _ab: PhantomData<fn(A) -> B>,
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
pub(super) struct Mapped {
    pub(super) source_key: Bytes,
    pub(super) value: Vec<u8>,
    pub(super) new_key: Bytes,
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
            name: DEFAULT_NAME.to_owned(),
            _ab: PhantomData,
        }
    }

    /// Rows per batch (and per checkpoint); at least 1.
    #[must_use]
    pub fn batch_size(mut self, rows: usize) -> Self {
        self.batch = rows.max(1);
        self
    }

    /// The name of the migration's checkpoint in the store ([`DEFAULT_NAME`] by default). Give
    /// each migration of one table its own name: a second migration under the name of a
    /// finished one would find its checkpoint (its copy would do nothing, and its verification
    /// would fail).
    #[must_use]
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// The expected number of source rows, for the percentage and ETA in [`Progress`](super::Progress) (e.g.
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
        match self
            .store
            .load_checkpoint(&self.name)
            .map_err(MigrateError::Store)?
        {
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
            .save_checkpoint(&self.name, &Checkpoint::start().encode())
            .map_err(MigrateError::Store)
    }

    pub(super) fn skip_for(&self, side: Side) -> Option<fn(&[u8]) -> bool> {
        if !self.store.same_table() {
            return None;
        }
        Some(match side {
            Side::Source => only_b::<A, B>,
            Side::Destination => only_b::<B, A>,
        })
    }

    pub(super) fn page_for(&self, ranges: usize) -> usize {
        let per = self.batch / ranges.max(1);
        per.saturating_add(per / 4)
            .saturating_add(8)
            .min(self.batch)
    }

    /// Source rows in `A`'s logical order after `after`, mapped (at most `limit`).
    pub(super) fn source_rows<'s>(
        &'s self,
        after: Option<&[u8]>,
        limit: Option<usize>,
    ) -> impl Iterator<Item = Result<Mapped, MigrateError<S::Error>>> + 's {
        let mut read = Read::<A>::new(all_ranges(A::LAYOUT));
        if let Some(k) = after {
            read = read.after_key(k);
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
    pub(super) fn in_place(&self, m: &Mapped) -> Result<bool, MigrateError<S::Error>> {
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
    pub(super) fn map_key(&self, k: &[u8]) -> Result<Mapped, MigrateError<S::Error>> {
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
}
