//! The scrub: index tables compared with the base table, problems reported and optionally
//! repaired, resumable from a checkpoint.

use core::fmt;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::def::{parse, Kind};
use super::error::IndexError;
use super::record::Record;
use super::table::{decode_record, encoded_key, entry_of, Indexed};
use super::verify::{check, Problem};
use crate::store::{KeyValue, Store, Table, Write};

/// The most findings a report keeps (the counts are complete).
pub const MAX_FINDINGS: usize = 100;

/// One problem the scrub found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScrubFinding {
    /// The table of the row: an index table (for a missing index row too: the table it is
    /// missing from), or the base table for a record that does not decode.
    pub table: Table,
    /// The row's key (for a missing index row: the index row key that should exist).
    pub key: Vec<u8>,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for ScrubFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.table,
            crate::hbase::to_string_binary(&self.key),
            self.problem
        )
    }
}

/// What a scrub found (over all its runs, when resumed) and repaired.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScrubReport {
    /// Whether every table was scrubbed (`false`: stopped by [`Scrub::run_pages`]).
    pub complete: bool,
    /// Base rows read.
    pub base_rows: u64,
    /// Index rows read.
    pub index_rows: u64,
    /// Live records without their index row.
    pub missing: u64,
    /// Index rows whose record does not exist.
    pub dangling: u64,
    /// Index rows whose record has another index key.
    pub stale: u64,
    /// Index rows with the right key and another value.
    pub outdated: u64,
    /// Rows that are not index rows, or base rows that do not decode.
    pub invalid: u64,
    /// Live records holding a unique index key that another live record holds and whose
    /// index row names the other one (see [`Scrub::repair`] for which one the row names).
    pub conflicts: u64,
    /// Rows written or deleted to repair.
    pub repaired: u64,
    /// The first [`MAX_FINDINGS`] problems found by this run.
    pub findings: Vec<ScrubFinding>,
}

impl ScrubReport {
    /// Whether the scrub found nothing wrong (a repairing scrub that found problems is not
    /// clean even though it repaired them: run it again to confirm).
    pub fn is_clean(&self) -> bool {
        self.problems() == 0
    }

    /// The number of problems found.
    pub fn problems(&self) -> u64 {
        self.missing + self.dangling + self.stale + self.outdated + self.invalid + self.conflicts
    }

    fn count(&mut self, table: &Table, key: &[u8], problem: Problem) {
        match problem {
            Problem::Missing => self.missing += 1,
            Problem::Dangling => self.dangling += 1,
            Problem::Stale => self.stale += 1,
            Problem::Outdated => self.outdated += 1,
            Problem::Invalid => self.invalid += 1,
            Problem::Conflict => self.conflicts += 1,
        }
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(ScrubFinding {
                table: table.clone(),
                key: key.to_vec(),
                problem,
            });
        }
    }

    fn counters(&self) -> [u64; 9] {
        [
            self.base_rows,
            self.index_rows,
            self.missing,
            self.dangling,
            self.stale,
            self.outdated,
            self.invalid,
            self.conflicts,
            self.repaired,
        ]
    }

    fn set_counters(&mut self, c: [u64; 9]) {
        let [b, i, m, d, s, o, v, c, r] = c;
        (
            self.base_rows,
            self.index_rows,
            self.missing,
            self.dangling,
            self.stale,
            self.outdated,
            self.invalid,
            self.conflicts,
            self.repaired,
        ) = (b, i, m, d, s, o, v, c, r);
    }
}

impl fmt::Display for ScrubReport {
    /// `scrub complete: 500 base rows, 1500 index rows; 0 missing, 3 dangling, 2 stale,
    /// 1 outdated, 0 invalid, 0 conflicts; 6 repaired`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scrub {}: {} base rows, {} index rows; {} missing, {} dangling, {} stale, {} \
             outdated, {} invalid, {} conflicts; {} repaired",
            if self.complete { "complete" } else { "stopped" },
            self.base_rows,
            self.index_rows,
            self.missing,
            self.dangling,
            self.stale,
            self.outdated,
            self.invalid,
            self.conflicts,
            self.repaired
        )
    }
}

/// Where a scrub stands, passed to the progress callback after every page.
#[derive(Debug, Clone)]
pub struct ScrubProgress {
    /// The table being scrubbed.
    pub table: Table,
    /// Rows read by this run.
    pub rows_this_run: u64,
    /// Problems found so far (earlier runs included).
    pub problems: u64,
    /// Time since this run started.
    pub elapsed: Duration,
}

impl ScrubProgress {
    /// Rows per second in this run.
    pub fn rows_per_sec(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.rows_this_run as f64 / s
        } else {
            0.0
        }
    }
}

impl fmt::Display for ScrubProgress {
    /// `scrub index by_buyer: 1200 rows this run (5400 rows/s), 3 problems`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scrub {}: {} rows this run ({:.0} rows/s), {} problems",
            self.table,
            self.rows_this_run,
            self.rows_per_sec(),
            self.problems
        )
    }
}

/// A scrub of an indexed table: see [`Indexed::scrub`].
#[derive(Debug)]
pub struct Scrub<'a, S, R> {
    indexed: &'a Indexed<S, R>,
    name: String,
    repair: bool,
    page: usize,
}

/// The checkpoint: the table (0: base, `i + 1`: index `i`, [`DONE`]) and the next key.
const DONE: u32 = u32::MAX;
const TAG: u8 = 1;

struct State {
    phase: u32,
    next: Vec<u8>,
    report: ScrubReport,
    claims: Claims,
}

/// The index row keys the base phase found missing or outdated, per index (its position),
/// with the primary key of the record the row should name. A repairing scrub writes those
/// rows page by page, so the next pages (and the index phase) meet them in the store; a
/// scrub that does not repair remembers them here instead, for the rest of its run, so that a
/// second record claiming the same unique key is a conflict and the index phase does not
/// count an outdated row a second time.
type Claims = BTreeMap<(usize, Vec<u8>), Vec<u8>>;

impl<S: Store, R: Record> Indexed<S, R> {
    /// A scrub of the base table and every index: first each base row's expected index rows
    /// are looked up (missing or outdated ones found), then every index row is checked
    /// against its base row (dangling, stale, invalid ones found). Page by page with a
    /// checkpoint after each, so a stopped scrub resumes where it was; a completed one starts
    /// over when run again.
    ///
    /// ```
    /// # #[cfg(feature = "redb")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::index::{Index, Indexed, Record, RecordError};
    /// use rowkey::store::{RedbStore, Store, Table, Write};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct Id { id: u32 }
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct ByTag { tag: u8 }
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
    /// for id in 0..10 {
    ///     items.put(&Item { id, tag: 1 })?;
    /// }
    /// // A crashed writer's leftovers: a base row deleted behind the index's back.
    /// let pk = Id { id: 3 }.to_row_key()?.to_vec();
    /// items.store().write(&[Write::Delete { table: Table::Base, key: pk }])?;
    ///
    /// let found = items.scrub().run(|p| println!("{p}"))?;
    /// assert_eq!((found.dangling, found.repaired), (1, 0));
    /// let fixed = items.scrub().repair().run(|_| {})?;
    /// assert_eq!(fixed.repaired, 1);
    /// assert!(items.scrub().run(|_| {})?.is_clean());
    /// # Ok(()) }
    /// # #[cfg(not(feature = "redb"))]
    /// # fn main() {}
    /// ```
    pub fn scrub(&self) -> Scrub<'_, S, R> {
        Scrub {
            indexed: self,
            name: "scrub".into(),
            repair: false,
            page: 500,
        }
    }
}

impl<S: Store, R: Record> Scrub<'_, S, R> {
    /// The checkpoint's name (default `"scrub"`): scrubs of other names resume separately.
    #[must_use]
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// Repair what is found: write missing and outdated index rows, delete dangling, stale
    /// and invalid ones (conflicts and base rows that do not decode are only reported). As
    /// with [`IndexScan::repair`](super::IndexScan::repair), only while no put of the same records is
    /// in flight.
    ///
    /// **Unique conflicts.** When several live records hold one unique index key (a writer
    /// bypassed the unique check), the repair never rewrites the key's row from one of them to
    /// another: a row that names one of them is kept; when there is none (the key's row is
    /// missing, or names a record that does not hold the key), the row is written for the
    /// first of them in primary-key order — the state maintenance would have left had the
    /// records been put in that order, the later puts refused with
    /// [`UniqueViolation`](super::IndexError::UniqueViolation) — and every other one is
    /// counted in [`ScrubReport::conflicts`] with a [`Problem::Conflict`] finding of the key.
    /// Whatever the page size, so the report of a build (base rows `{1: "dup"}, {2: "dup"},
    /// {3: "x"}`, no index rows yet) is 2 missing, 1 conflict, 2 repaired, and the next
    /// scrub still reports the conflict until the records are changed so that one holds
    /// the key. Keeping one row keeps the index refusing a third record with the key.
    ///
    /// ```
    /// # #[cfg(feature = "redb")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::index::{Index, Indexed, Problem, Record, RecordError};
    /// use rowkey::store::{RedbStore, Store, Table, Write};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct Id { id: u32 }
    /// #[derive(RowKey, Debug, Clone, PartialEq)]
    /// struct ByName { name: String }
    /// #[derive(Debug, Clone, PartialEq)]
    /// struct User { id: u32, name: String }
    /// impl Record for User {
    ///     type Key = Id;
    ///     fn key(&self) -> Id { Id { id: self.id } }
    ///     fn to_value(&self) -> Vec<u8> { self.name.as_bytes().to_vec() }
    ///     fn from_row(k: Id, v: &[u8]) -> Result<User, RecordError> {
    ///         Ok(User { id: k.id, name: String::from_utf8(v.to_vec())? })
    ///     }
    /// }
    ///
    /// let db = redb::Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
    /// let store = RedbStore::new(&db, "users");
    /// // Base rows written before the index existed: two records hold "dup".
    /// for (id, name) in [(1, "dup"), (2, "dup"), (3, "x")] {
    ///     let key = Id { id }.to_row_key()?.to_vec();
    ///     store.write(&[Write::Put { table: Table::Base, key, value: name.as_bytes().to_vec() }])?;
    /// }
    /// let by_name = Index::unique("by_name", |u: &User| ByName { name: u.name.clone() })?;
    /// let users = Indexed::new(store).with_index(&by_name)?;
    /// let built = users.scrub().repair().run(|_| {})?;
    /// assert_eq!((built.missing, built.conflicts, built.repaired), (2, 1, 2), "{built}");
    /// assert_eq!(built.findings.iter().filter(|f| f.problem == Problem::Conflict).count(), 1);
    /// // The row names record 1 (first in key order); record 2 stays a reported conflict.
    /// let again = users.scrub().run(|_| {})?;
    /// assert_eq!((again.conflicts, again.problems()), (1, 1), "{again}");
    /// # Ok(()) }
    /// # #[cfg(not(feature = "redb"))]
    /// # fn main() {}
    /// ```
    #[must_use]
    pub fn repair(mut self) -> Self {
        self.repair = true;
        self
    }

    /// Rows per page (default 500): each page is one scan, one multi-get per index, one
    /// write of repairs and one checkpoint.
    #[must_use]
    pub fn page_rows(mut self, n: usize) -> Self {
        self.page = n.max(1);
        self
    }

    fn checkpoint_name(&self) -> String {
        format!("index-scrub/{}", self.name)
    }

    /// Forget the checkpoint: the next run starts over.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub fn reset(&self) -> Result<(), IndexError<S::Error>> {
        self.indexed
            .store
            .save_checkpoint(&self.checkpoint_name(), &[])
            .map_err(IndexError::Store)
    }

    /// Scrub to the end (resuming from the checkpoint, if any), calling `progress` after
    /// every page.
    ///
    /// A scrub that does not [repair](Self::repair) leaves the rows it finds missing or
    /// outdated in place, so it remembers their keys (in memory, for this run) to find a
    /// second record claiming one of those unique keys and not to count an outdated row again
    /// as stale or dangling: its memory grows with the problems it finds, and a run resumed
    /// from a checkpoint has forgotten those of the earlier runs (a unique conflict between
    /// records on both sides of the resume point whose row is missing is then reported as a
    /// missing row; a repairing scrub finds it).
    ///
    /// # Errors
    ///
    /// The store fails (resume by running again), or a checkpoint this version did not write.
    pub fn run(
        &self,
        progress: impl FnMut(&ScrubProgress),
    ) -> Result<ScrubReport, IndexError<S::Error>> {
        self.run_pages(usize::MAX, progress)
    }

    /// Scrub at most `pages` pages, then stop (`complete` tells whether it finished).
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    pub fn run_pages(
        &self,
        pages: usize,
        mut progress: impl FnMut(&ScrubProgress),
    ) -> Result<ScrubReport, IndexError<S::Error>> {
        let store = &self.indexed.store;
        let mut state = self.load()?;
        let start = Instant::now();
        let mut rows_this_run = 0u64;
        let mut done_pages = 0usize;
        let tables = self.indexed.specs.len() as u32;
        while state.phase != DONE {
            if done_pages >= pages {
                state.report.complete = false;
                return Ok(state.report);
            }
            let table = if state.phase == 0 {
                Table::Base
            } else {
                let spec = self
                    .indexed
                    .specs
                    .get(state.phase as usize - 1)
                    .ok_or_else(|| {
                        IndexError::Checkpoint("names an index the table has not".into())
                    })?;
                Table::Index(spec.name().to_owned())
            };
            let rows = store
                .scan(&table, &state.next, None, self.page, false)
                .map_err(IndexError::Store)?;
            if self.repair {
                // Written page by page: later pages meet this page's rows in the store.
                state.claims.clear();
            }
            let fixes = if state.phase == 0 {
                state.report.base_rows += rows.len() as u64;
                self.base_page(&rows, &mut state.report, &mut state.claims)?
            } else {
                state.report.index_rows += rows.len() as u64;
                let spec = state.phase as usize - 1;
                self.index_page(spec, &table, &rows, &mut state.report, &state.claims)?
            };
            if self.repair && !fixes.is_empty() {
                store.write(&fixes).map_err(IndexError::Store)?;
                state.report.repaired += fixes.len() as u64;
            }
            rows_this_run += rows.len() as u64;
            match rows.last() {
                Some((last, _)) if rows.len() >= self.page => {
                    state.next = last.clone();
                    state.next.push(0);
                }
                _ => {
                    state.next.clear();
                    state.phase = if state.phase >= tables {
                        DONE
                    } else {
                        state.phase + 1
                    };
                }
            }
            self.save(&state)?;
            done_pages += 1;
            progress(&ScrubProgress {
                table,
                rows_this_run,
                problems: state.report.problems(),
                elapsed: start.elapsed(),
            });
        }
        state.report.complete = true;
        Ok(state.report)
    }

    /// Base rows: each record's expected index rows, looked up.
    ///
    /// A unique index key claimed by several live records (of this page, of earlier pages
    /// through `claims` or the rows repaired there, or the record the stored row names) goes
    /// to one of them — the one the stored row names if it holds the key, else the first
    /// claimer in primary-key order — and every other claimer is a [`Problem::Conflict`].
    fn base_page(
        &self,
        rows: &[KeyValue],
        report: &mut ScrubReport,
        claims: &mut Claims,
    ) -> Result<Vec<Write>, IndexError<S::Error>> {
        let store = &self.indexed.store;
        let mut records = Vec::with_capacity(rows.len());
        for (pk, value) in rows {
            match decode_record::<R, S::Error>(pk, value) {
                Ok(r) => records.push((pk, value, r)),
                Err(_) => report.count(&Table::Base, pk, Problem::Invalid),
            }
        }
        let mut fixes = Vec::new();
        // This page's owners of unique keys whose stored row is right (not kept past the page:
        // later pages find those rows in the store).
        let mut held = Claims::new();
        for (at, spec) in self.indexed.specs.iter().enumerate() {
            let unique = spec.kind() == Kind::Unique;
            let table = Table::Index(spec.name().to_owned());
            let mut expected = Vec::with_capacity(records.len());
            for (pk, value, r) in &records {
                expected.push(entry_of::<R, S::Error>(spec.as_ref(), r, pk, value)?);
            }
            let keys: Vec<Vec<u8>> = expected.iter().map(|e| e.key.clone()).collect();
            if keys.is_empty() {
                continue;
            }
            let found = store.get(&table, &keys).map_err(IndexError::Store)?;
            for ((e, found), (pk, _, _)) in expected.into_iter().zip(found).zip(&records) {
                let claim = (at, e.key);
                let owner = claims.get(&claim).or_else(|| held.get(&claim));
                if owner.is_some_and(|owner| owner != *pk) {
                    // Another record of this run has the key (only a unique index's row key
                    // can be another record's: a non-unique one holds the primary key).
                    report.count(&table, &claim.1, Problem::Conflict);
                    continue;
                }
                let problem = match found {
                    None => Problem::Missing,
                    Some(v) if v == e.value => {
                        if unique {
                            held.insert(claim, pk.to_vec());
                        }
                        continue;
                    }
                    Some(v) => match parse(spec.kind(), &claim.1, &v) {
                        Some(p) if p.pk == pk.as_slice() => Problem::Outdated,
                        Some(p) if unique => {
                            // Another record's row: a conflict if that record holds the key
                            // too; else a row naming a record that does not hold its key.
                            let holder = p.pk.to_vec();
                            let stored = store
                                .get(&Table::Base, std::slice::from_ref(&holder))
                                .map_err(IndexError::Store)?;
                            let holds = match stored.into_iter().next().flatten() {
                                Some(hv) => match decode_record::<R, S::Error>(&holder, &hv) {
                                    Ok(h) => {
                                        encoded_key::<R, S::Error>(spec.as_ref(), &h)? == claim.1
                                    }
                                    Err(_) => false,
                                },
                                None => false,
                            };
                            if holds {
                                report.count(&table, &claim.1, Problem::Conflict);
                                held.insert(claim, holder);
                                continue;
                            }
                            Problem::Outdated
                        }
                        _ => Problem::Outdated,
                    },
                };
                report.count(&table, &claim.1, problem);
                fixes.push(Write::Put {
                    table: table.clone(),
                    key: claim.1.clone(),
                    value: e.value,
                });
                claims.insert(claim, pk.to_vec());
            }
        }
        Ok(fixes)
    }

    /// Index rows: each checked against its base row.
    fn index_page(
        &self,
        spec: usize,
        table: &Table,
        rows: &[KeyValue],
        report: &mut ScrubReport,
        claims: &Claims,
    ) -> Result<Vec<Write>, IndexError<S::Error>> {
        let at = spec;
        let Some(spec) = self.indexed.specs.get(spec) else {
            return Ok(Vec::new());
        };
        let checked = check(&self.indexed.store, spec.as_ref(), rows)?;
        let mut fixes = Vec::new();
        for ((key, _), c) in rows.iter().zip(checked) {
            match c.problem {
                // An outdated row has the key a live record gives: the base phase counted
                // (and repaired) it already.
                None | Some(Problem::Outdated) => {}
                // A row the base phase found outdated (and, not repairing, left in place): a
                // live record has its key.
                Some(_) if claims.contains_key(&(at, key.clone())) => {}
                Some(p) => {
                    report.count(table, key, p);
                    fixes.extend(c.fix);
                }
            }
        }
        Ok(fixes)
    }

    fn load(&self) -> Result<State, IndexError<S::Error>> {
        let fresh = State {
            phase: 0,
            next: Vec::new(),
            report: ScrubReport::default(),
            claims: Claims::new(),
        };
        let blob = self
            .indexed
            .store
            .load_checkpoint(&self.checkpoint_name())
            .map_err(IndexError::Store)?;
        let Some(blob) = blob.filter(|b| !b.is_empty()) else {
            return Ok(fresh);
        };
        let bad =
            || IndexError::Checkpoint(format!("{} bytes not written by this version", blob.len()));
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], IndexError<S::Error>> {
            let s = blob
                .get(at..at.checked_add(n).ok_or_else(bad)?)
                .ok_or_else(bad)?;
            at += n;
            Ok(s)
        };
        let u32_of = |s: &[u8]| s.iter().fold(0u32, |n, &b| (n << 8) | u32::from(b));
        let u64_of = |s: &[u8]| s.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b));
        if take(1)? != [TAG] {
            return Err(bad());
        }
        let phase = u32_of(take(4)?);
        let len = u32_of(take(4)?) as usize;
        let next = take(len)?.to_vec();
        let mut c = [0u64; 9];
        for x in &mut c {
            *x = u64_of(take(8)?);
        }
        if phase == DONE {
            return Ok(fresh); // the last scrub finished: start a new one
        }
        let mut report = ScrubReport::default();
        report.set_counters(c);
        Ok(State {
            phase,
            next,
            report,
            claims: Claims::new(),
        })
    }

    fn save(&self, state: &State) -> Result<(), IndexError<S::Error>> {
        let mut blob = vec![TAG];
        blob.extend_from_slice(&state.phase.to_be_bytes());
        let len = u32::try_from(state.next.len()).unwrap_or(u32::MAX);
        blob.extend_from_slice(&len.to_be_bytes());
        blob.extend_from_slice(&state.next);
        for x in state.report.counters() {
            blob.extend_from_slice(&x.to_be_bytes());
        }
        self.indexed
            .store
            .save_checkpoint(&self.checkpoint_name(), &blob)
            .map_err(IndexError::Store)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::BTreeMap;
    use std::convert::Infallible;
    use std::ops::Bound;

    use bytes::BufMut;

    use super::*;
    use crate::error::{DecodeError, EncodeError};
    use crate::index::{Index, Indexed, Record, RecordError};
    use crate::layout::{FieldEncoding, FieldLayout, Layout};
    use crate::{DecodeRowKey, RowKey};

    /// A one-byte key, written by hand (the derive is not available inside this crate).
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Byte(u8);

    const BYTE_FIELDS: &[FieldLayout] = &[FieldLayout {
        name: "0",
        ty: "u8",
        encoding: FieldEncoding::Natural,
        width: Some(1),
        desc: false,
        hash_prefix: None,
    }];
    const BYTE: Layout = Layout {
        name: "Byte",
        prefix: b"",
        fields: BYTE_FIELDS,
        salt: None,
        fixed_width: Some(1),
        max_len: None,
    };

    impl RowKey for Byte {
        const LAYOUT: &'static Layout = &BYTE;
        fn encode_into<B: BufMut>(&self, buf: &mut B) -> Result<(), EncodeError> {
            buf.put_u8(self.0);
            Ok(())
        }
        fn encoded_len(&self) -> usize {
            1
        }
        fn describe(bytes: &[u8]) -> String {
            format!("{bytes:?}")
        }
    }

    impl<'de> DecodeRowKey<'de> for Byte {
        fn decode_visit<V: crate::describe::Visit>(
            input: &'de [u8],
            _: u8,
            _: &mut V,
        ) -> Result<(Self, usize), DecodeError> {
            match input.first() {
                Some(&b) => Ok((Byte(b), 1)),
                None => Err(DecodeError::truncated(0, 1, 0)),
            }
        }
    }

    /// A record: its id and a one-byte name (the unique index key).
    #[derive(Debug, Clone, PartialEq)]
    struct Rec {
        id: u8,
        name: u8,
    }

    impl Record for Rec {
        type Key = Byte;
        fn key(&self) -> Byte {
            Byte(self.id)
        }
        fn to_value(&self) -> Vec<u8> {
            vec![self.name]
        }
        fn from_row(k: Byte, v: &[u8]) -> Result<Rec, RecordError> {
            Ok(Rec {
                id: k.0,
                name: *v.first().ok_or("empty value")?,
            })
        }
    }

    type Rows = BTreeMap<Vec<u8>, Vec<u8>>;

    #[derive(Default)]
    struct Mem {
        tables: RefCell<BTreeMap<Table, Rows>>,
        checkpoints: RefCell<BTreeMap<String, Vec<u8>>>,
    }

    impl Store for &Mem {
        type Error = Infallible;
        fn scan(
            &self,
            table: &Table,
            start: &[u8],
            stop: Option<&[u8]>,
            limit: usize,
            reverse: bool,
        ) -> Result<Vec<KeyValue>, Infallible> {
            let tables = self.tables.borrow();
            let Some(t) = tables.get(table) else {
                return Ok(Vec::new());
            };
            let hi = stop.map_or(Bound::Unbounded, Bound::Excluded);
            let rows: Vec<KeyValue> = t
                .range::<[u8], _>((Bound::Included(start), hi))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let rows = if reverse {
                rows.into_iter().rev().take(limit).collect()
            } else {
                rows.into_iter().take(limit).collect()
            };
            Ok(rows)
        }
        fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Infallible> {
            let tables = self.tables.borrow();
            Ok(keys
                .iter()
                .map(|k| tables.get(table).and_then(|t| t.get(k).cloned()))
                .collect())
        }
        fn write(&self, writes: &[Write]) -> Result<(), Infallible> {
            let mut tables = self.tables.borrow_mut();
            for w in writes {
                let t = tables.entry(w.table().clone()).or_default();
                match w {
                    Write::Put { key, value, .. } => drop(t.insert(key.clone(), value.clone())),
                    Write::Delete { key, .. } => drop(t.remove(key)),
                }
            }
            Ok(())
        }
        fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Infallible> {
            Ok(self.checkpoints.borrow().get(name).cloned())
        }
        fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Infallible> {
            self.checkpoints
                .borrow_mut()
                .insert(name.to_owned(), blob.to_vec());
            Ok(())
        }
    }

    fn by_name() -> Index<Rec, Byte> {
        Index::unique("by_name", |r: &Rec| Byte(r.name)).expect("index")
    }

    /// Base rows written behind the index's back.
    fn base(mem: &Mem, recs: &[Rec]) {
        let writes: Vec<Write> = recs
            .iter()
            .map(|r| Write::Put {
                table: Table::Base,
                key: vec![r.id],
                value: r.to_value(),
            })
            .collect();
        mem.write(&writes).expect("write");
    }

    fn index_rows(mem: &Mem) -> Vec<(Vec<u8>, Vec<u8>)> {
        mem.tables
            .borrow()
            .get(&Table::Index("by_name".into()))
            .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default()
    }

    /// The index row of a unique key naming primary key `pk` (one byte).
    fn row_naming(pk: u8) -> Vec<u8> {
        vec![1, 0, 0, 0, 1, pk]
    }

    const DUP: u8 = b'd';
    const X: u8 = b'x';

    #[test]
    fn building_a_unique_index_reports_a_conflict_with_any_page_size() {
        for repair in [true, false] {
            for page in [1, 2, 3, 500] {
                let mem = Mem::default();
                let recs = [
                    Rec { id: 1, name: DUP },
                    Rec { id: 2, name: DUP },
                    Rec { id: 3, name: X },
                ];
                base(&mem, &recs);
                let ix = by_name();
                let t = Indexed::new(&mem).with_index(&ix).expect("with");
                let mut scrub = t.scrub().page_rows(page);
                if repair {
                    scrub = scrub.repair();
                }
                let r = scrub.run(|_| {}).expect("scrub");
                let what = format!("repair {repair}, page {page}: {r}");
                assert_eq!((r.missing, r.conflicts), (2, 1), "{what}");
                assert_eq!(r.problems(), 3, "{what}");
                let conflict: Vec<&ScrubFinding> = r
                    .findings
                    .iter()
                    .filter(|f| f.problem == Problem::Conflict)
                    .collect();
                assert_eq!(conflict.len(), 1, "{what}");
                assert_eq!(conflict[0].key, [DUP], "{what}");
                if repair {
                    assert_eq!(r.repaired, 2, "{what}");
                    // The first record in key order holds the row; nothing was written twice.
                    assert_eq!(
                        index_rows(&mem),
                        [(vec![DUP], row_naming(1)), (vec![X], row_naming(3))],
                        "{what}"
                    );
                    let again = t.scrub().page_rows(page).run(|_| {}).expect("again");
                    assert_eq!((again.conflicts, again.problems()), (1, 1), "{again}");
                } else {
                    assert_eq!(r.repaired, 0, "{what}");
                    assert!(index_rows(&mem).is_empty(), "{what}");
                }
            }
        }
    }

    #[test]
    fn an_existing_row_of_a_conflicting_key_is_kept() {
        for page in [1, 2, 500] {
            let mem = Mem::default();
            base(&mem, &[Rec { id: 1, name: DUP }, Rec { id: 2, name: DUP }]);
            let ix = by_name();
            let t = Indexed::new(&mem).with_index(&ix).expect("with");
            (&mem)
                .write(&[Write::Put {
                    table: Table::Index("by_name".into()),
                    key: vec![DUP],
                    value: row_naming(2),
                }])
                .expect("write");
            let r = t
                .scrub()
                .repair()
                .page_rows(page)
                .run(|_| {})
                .expect("scrub");
            assert_eq!((r.conflicts, r.problems(), r.repaired), (1, 1, 0), "{r}");
            assert_eq!(index_rows(&mem), [(vec![DUP], row_naming(2))]);
        }
    }

    #[test]
    fn a_unique_row_naming_a_record_without_the_key_is_outdated() {
        // Record 1 holds "x"; the "x" row names record 2, which holds "y" (and has its row);
        // record 3 is not there at all and the "z" row names it... while record 4 holds "z".
        for repair in [false, true] {
            for page in [1, 2, 500] {
                let mem = Mem::default();
                base(
                    &mem,
                    &[
                        Rec { id: 1, name: X },
                        Rec { id: 2, name: b'y' },
                        Rec { id: 4, name: b'z' },
                    ],
                );
                let ix = by_name();
                let t = Indexed::new(&mem).with_index(&ix).expect("with");
                let table = Table::Index("by_name".into());
                let put = |k: u8, pk: u8| Write::Put {
                    table: table.clone(),
                    key: vec![k],
                    value: row_naming(pk),
                };
                (&mem)
                    .write(&[put(X, 2), put(b'y', 2), put(b'z', 3)])
                    .expect("write");
                let mut scrub = t.scrub().page_rows(page);
                if repair {
                    scrub = scrub.repair();
                }
                let r = scrub.run(|_| {}).expect("scrub");
                let what = format!("repair {repair}, page {page}: {r}");
                assert_eq!(r.outdated, 2, "{what}");
                assert_eq!(r.problems(), 2, "{what}");
                assert!(
                    r.findings.iter().all(|f| f.problem == Problem::Outdated),
                    "{what}"
                );
                if repair {
                    assert_eq!(r.repaired, 2, "{what}");
                    let rows = index_rows(&mem);
                    assert_eq!(
                        rows,
                        [
                            (vec![X], row_naming(1)),
                            (vec![b'y'], row_naming(2)),
                            (vec![b'z'], row_naming(4))
                        ],
                        "{what}"
                    );
                    assert!(t.scrub().run(|_| {}).expect("again").is_clean());
                }
            }
        }
    }
}
