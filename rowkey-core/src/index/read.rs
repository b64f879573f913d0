//! Verified reads through an index: typed scans of an index that return the records.

use core::fmt;
use std::collections::VecDeque;

use crate::read::Read;
use crate::scan::{ScanRange, ScanRanges};
use crate::{DecodeRowKeyOwned, EncodeError, RowKey};

use super::def::{Index, Kind};
use super::error::IndexError;
use super::record::Record;
use super::table::Indexed;
use super::verify::{check, Problem};
use crate::store::Pager;
use crate::store::{KeyValue, Store, Table, Write};

/// A record found through an index, with its index key.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<R, I> {
    /// The index key the record was found under.
    pub index_key: I,
    /// The record, as the base table holds it.
    pub record: R,
}

/// What a verified read met: index rows read, records returned, rows skipped (by problem)
/// and rows repaired.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Index rows read.
    pub rows: u64,
    /// Records returned.
    pub returned: u64,
    /// Rows whose record does not exist (skipped).
    pub dangling: u64,
    /// Rows whose record has another index key (skipped).
    pub stale: u64,
    /// Rows with the right key and an outdated value (the record is returned from the base
    /// table).
    pub outdated: u64,
    /// Rows that are not index rows (skipped).
    pub invalid: u64,
    /// Rows repaired (with [`IndexScan::repair`]): deleted, or rewritten when outdated.
    pub repaired: u64,
}

impl ReadStats {
    fn count(&mut self, problem: Problem) {
        match problem {
            Problem::Dangling => self.dangling += 1,
            Problem::Stale => self.stale += 1,
            Problem::Outdated => self.outdated += 1,
            Problem::Invalid => self.invalid += 1,
            Problem::Missing | Problem::Conflict => {}
        }
    }
}

impl fmt::Display for ReadStats {
    /// `12 rows, 10 returned, 1 dangling, 1 stale, 0 outdated, 0 invalid, 2 repaired`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rows, {} returned, {} dangling, {} stale, {} outdated, {} invalid, {} repaired",
            self.rows,
            self.returned,
            self.dangling,
            self.stale,
            self.outdated,
            self.invalid,
            self.repaired
        )
    }
}

/// A typed, verified read of one index: see [`Indexed::scan`].
pub struct IndexScan<'a, S, R, I> {
    indexed: &'a Indexed<S, R>,
    index: Index<R, I>,
    scan: ScanRanges,
    read: Read<I>,
    limit: Option<usize>,
    page: usize,
    repair: bool,
}

impl<S, R, I> fmt::Debug for IndexScan<'_, S, R, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexScan")
            .field("index", &self.index)
            .field("scan", &self.scan)
            .field("limit", &self.limit)
            .field("page", &self.page)
            .field("repair", &self.repair)
            .finish_non_exhaustive()
    }
}

impl<S: Store, R: Record> Indexed<S, R> {
    /// A verified read of `index` over `ranges` — from the index key type's own scan builder
    /// (`I::scan()…ranges()`: every form, salt buckets merged back into the index key's
    /// logical order, then the primary key's). Every index row is checked against its base
    /// row: a row whose record is missing or has another index key now is never returned
    /// (and is deleted with [`repair`](IndexScan::repair)); the record returned is the base
    /// table's.
    ///
    /// ```
    /// # #[cfg(feature = "redb")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::index::{Index, Indexed, Record, RecordError};
    /// use rowkey::store::RedbStore;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct Id { id: u32 }
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct ByTag { #[salt(buckets = 4)] tag: u8 }
    ///
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct Item { id: u32, tag: u8 }
    /// impl Record for Item {
    ///     type Key = Id;
    ///     fn key(&self) -> Id { Id { id: self.id } }
    ///     fn to_value(&self) -> Vec<u8> { vec![self.tag] }
    ///     fn from_row(k: Id, v: &[u8]) -> Result<Item, RecordError> {
    ///         Ok(Item { id: k.id, tag: *v.first().ok_or("empty value")? })
    ///     }
    /// }
    ///
    /// let db = redb::Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
    /// let by_tag = Index::non_unique("by_tag", |i: &Item| ByTag { tag: i.tag })?;
    /// let items = Indexed::new(RedbStore::new(&db, "items")).with_index(&by_tag)?;
    /// for id in 0..20 {
    ///     items.put(&Item { id, tag: (id % 5) as u8 })?;
    /// }
    /// // every tag, in tag order across the 4 salt buckets, newest id last
    /// let all = items.scan(&by_tag, ByTag::scan().ranges()).collect()?;
    /// assert_eq!(all.len(), 20);
    /// assert!(all.windows(2).all(|w| (w[0].index_key.tag, w[0].record.id) < (w[1].index_key.tag, w[1].record.id)));
    /// // one tag, the last two
    /// let two = items.scan(&by_tag, ByTag::scan().tag(3).ranges()).reverse().limit(2).records()?;
    /// assert_eq!(two, [Item { id: 18, tag: 3 }, Item { id: 13, tag: 3 }]);
    /// # Ok(()) }
    /// # #[cfg(not(feature = "redb"))]
    /// # fn main() {}
    /// ```
    pub fn scan<I>(&self, index: &Index<R, I>, ranges: ScanRanges) -> IndexScan<'_, S, R, I>
    where
        I: RowKey + DecodeRowKeyOwned,
    {
        let rows = match index.kind() {
            Kind::Unique => ranges.clone(),
            Kind::NonUnique => widen::<I>(&ranges),
        };
        IndexScan {
            indexed: self,
            index: index.clone(),
            read: Read::new(rows),
            scan: ranges,
            limit: None,
            page: 256,
            repair: false,
        }
    }
}

impl<'a, S: Store, R: Record, I: RowKey + DecodeRowKeyOwned> IndexScan<'a, S, R, I> {
    /// Read in descending order (index key, then primary key).
    #[must_use]
    pub fn reverse(mut self) -> Self {
        self.read = self.read.reverse();
        self
    }

    /// Return at most `n` records.
    #[must_use]
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// Resume after the record `key` found under `index_key` (a page's last hit), in every
    /// salt bucket.
    ///
    /// # Errors
    ///
    /// A key does not encode.
    pub fn after(mut self, index_key: &I, key: &R::Key) -> Result<Self, EncodeError> {
        let row_key = self.index.row_key(index_key, key)?;
        self.read = self.read.after_key(row_key);
        Ok(self)
    }

    /// Index rows fetched per request and checked per multi-get of base rows (default 256).
    #[must_use]
    pub fn page_rows(mut self, n: usize) -> Self {
        self.page = n.max(1);
        self
    }

    /// Repair the bad index rows met: delete dangling, stale and invalid ones, rewrite
    /// outdated ones. Do it only while no put of the same records is in flight: an index row
    /// written by a put whose base row is not written yet looks stale and would be deleted.
    #[must_use]
    pub fn repair(mut self) -> Self {
        self.repair = true;
        self
    }

    /// The hits, lazily.
    ///
    /// # Errors
    ///
    /// [`IndexError::NotRegistered`] when the table does not maintain this index.
    pub fn rows(self) -> Result<Hits<'a, S, R, I>, IndexError<S::Error>> {
        let spec = self
            .indexed
            .specs
            .iter()
            .position(|s| {
                s.name() == self.index.name()
                    && s.kind() == self.index.kind()
                    && s.covering() == self.index.is_covering()
            })
            .ok_or_else(|| IndexError::NotRegistered {
                index: self.index.name().to_owned(),
            })?;
        let store = &self.indexed.store;
        let table = Table::Index(self.index.name().to_owned());
        let reverse = self.read.is_reverse();
        let page = self.page;
        let pagers: Vec<Pager<'a, S>> = self
            .read
            .ranges()
            .iter()
            .map(|r| Pager::new(store, table.clone(), r.start(), r.stop(), page, reverse))
            .collect();
        let skip = self.read.salt_width();
        let merged: Box<dyn Iterator<Item = Result<KeyValue, S::Error>> + 'a> = if reverse {
            Box::new(crate::merge::merge_rev(pagers, skip))
        } else {
            Box::new(crate::merge::merge(pagers, skip))
        };
        Ok(Hits {
            indexed: self.indexed,
            spec,
            scan: self.scan,
            merged,
            ready: VecDeque::new(),
            page,
            left: self.limit.unwrap_or(usize::MAX),
            repair: self.repair,
            done: false,
            stats: ReadStats::default(),
            _i: core::marker::PhantomData,
        })
    }

    /// Every hit.
    ///
    /// # Errors
    ///
    /// As [`rows`](Self::rows), and the first error a row yields.
    pub fn collect(self) -> Result<Vec<Hit<R, I>>, IndexError<S::Error>> {
        self.rows()?.collect()
    }

    /// Every hit's record.
    ///
    /// # Errors
    ///
    /// As [`collect`](Self::collect).
    pub fn records(self) -> Result<Vec<R>, IndexError<S::Error>> {
        self.rows()?.map(|h| h.map(|h| h.record)).collect()
    }
}

/// Ranges over index keys as ranges over non-unique index rows (index key, then primary key).
///
/// A row `x ++ pk` lies in `[start, stop)` whenever `x` does, except where `x` is a proper
/// prefix of `stop` (an equality on every field gives `[x, x 00)`, say): then `x ++ pk` sorts
/// at or after `stop`. The index key layout is self-delimiting, so at most one index key is a
/// proper prefix of `stop`; the stop becomes the end of that key's rows. (Rows of an index key
/// below `start` that sort after it are dropped by the read's exactness check.)
fn widen<I: RowKey + DecodeRowKeyOwned>(ranges: &ScanRanges) -> ScanRanges {
    let widened = ranges
        .iter()
        .map(|r| {
            let stop = r.stop().and_then(|s| {
                let key = (1..s.len())
                    .rev()
                    .filter_map(|n| s.get(..n))
                    .find(|p| I::from_row_key(p).is_ok());
                match key {
                    Some(x) => ScanRange::prefix(x).stop().map(<[u8]>::to_vec),
                    None => Some(s.to_vec()),
                }
            });
            ScanRange::new(r.start(), stop.as_deref())
        })
        .collect();
    ScanRanges::new(widened).with_salt_end(ranges.salt_end())
}

/// One hit, or the error met instead.
type HitResult<R, I, S> = Result<Hit<R, I>, IndexError<<S as Store>::Error>>;

/// The hits of a [`IndexScan`], in the index's logical order; [`stats`](Hits::stats) tells what
/// was skipped and repaired so far.
pub struct Hits<'a, S: Store, R, I> {
    indexed: &'a Indexed<S, R>,
    spec: usize,
    scan: ScanRanges,
    merged: Box<dyn Iterator<Item = Result<KeyValue, S::Error>> + 'a>,
    ready: VecDeque<HitResult<R, I, S>>,
    page: usize,
    left: usize,
    repair: bool,
    done: bool,
    stats: ReadStats,
    _i: core::marker::PhantomData<fn() -> I>,
}

impl<S: Store, R, I> fmt::Debug for Hits<'_, S, R, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hits")
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<S: Store, R: Record, I: RowKey + DecodeRowKeyOwned> Hits<'_, S, R, I> {
    /// What the read met so far.
    pub fn stats(&self) -> ReadStats {
        self.stats
    }

    /// Read the next page of index rows, check it, queue its hits.
    fn fill(&mut self) {
        let mut rows = Vec::new();
        let mut error = None;
        while rows.len() < self.page {
            match self.merged.next() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Err(e)) => {
                    self.done = true;
                    error = Some(IndexError::Store(e));
                    break;
                }
                Some(Ok(row)) => rows.push(row),
            }
        }
        self.stats.rows += rows.len() as u64;
        let Some(spec) = self.indexed.specs.get(self.spec) else {
            self.done = true;
            return;
        };
        match check(&self.indexed.store, spec.as_ref(), &rows) {
            Err(e) => {
                self.ready.push_back(Err(e));
                self.done = true;
            }
            Ok(checked) => {
                let mut fixes: Vec<Write> = Vec::new();
                for ((key, _), c) in rows.iter().zip(checked) {
                    if let Some(p) = c.problem {
                        self.stats.count(p);
                    }
                    fixes.extend(c.fix);
                    let Some(record) = c.record else { continue };
                    let Some(ik) = key.get(..c.index_key_len) else {
                        continue;
                    };
                    // Exactness: a range edge may sit inside an index key (an exclusive
                    // start); keep only index keys the query's ranges hold.
                    if !self.scan.iter().any(|r| r.contains(ik)) {
                        continue;
                    }
                    match I::from_row_key(ik) {
                        Ok(index_key) => self.ready.push_back(Ok(Hit { index_key, record })),
                        Err(e) => self.ready.push_back(Err(IndexError::Decode {
                            table: Table::Index(spec.name().to_owned()),
                            key: key.clone(),
                            reason: format!("index key: {e}"),
                        })),
                    }
                }
                if self.repair && !fixes.is_empty() {
                    match self.indexed.store.write(&fixes) {
                        Ok(()) => self.stats.repaired += fixes.len() as u64,
                        Err(e) => self.ready.push_back(Err(IndexError::Store(e))),
                    }
                }
            }
        }
        if let Some(e) = error {
            self.ready.push_back(Err(e));
        }
    }
}

impl<S: Store, R: Record, I: RowKey + DecodeRowKeyOwned> Iterator for Hits<'_, S, R, I> {
    type Item = Result<Hit<R, I>, IndexError<S::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.left == 0 {
                return None;
            }
            if let Some(hit) = self.ready.pop_front() {
                if hit.is_ok() {
                    self.left -= 1;
                    self.stats.returned += 1;
                }
                return Some(hit);
            }
            if self.done {
                return None;
            }
            self.fill();
        }
    }
}
