//! The scrub: index tables compared with the base table, problems reported and optionally
//! repaired, resumable from a checkpoint.

use core::fmt;
use std::time::{Duration, Instant};

use super::def::{parse, Kind};
use super::error::IndexError;
use super::record::Record;
use super::store::{Row, Store, Table, Write};
use super::table::{decode_record, encoded_key, entry_of, Indexed};
use super::verify::{check, Problem};

/// The most findings a report keeps (the counts are complete).
pub const MAX_FINDINGS: usize = 100;

/// One problem the scrub found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The table of the row: an index table, or the base table for a record whose index row
    /// is missing or that does not decode.
    pub table: Table,
    /// The row's key (for a missing index row: the index row key that should exist).
    pub key: Vec<u8>,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for Finding {
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
    /// Unique index keys held by two live records (not repaired).
    pub conflicts: u64,
    /// Rows written or deleted to repair.
    pub repaired: u64,
    /// The first [`MAX_FINDINGS`] problems found by this run.
    pub findings: Vec<Finding>,
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
            self.findings.push(Finding {
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
}

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
    /// use rowkey::index::{redb::RedbStore, Index, Indexed, Record, RecordError, Store, Table, Write};
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
    /// with [`Scan::repair`](super::Scan::repair), only while no put of the same records is
    /// in flight.
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
            let fixes = if state.phase == 0 {
                state.report.base_rows += rows.len() as u64;
                self.base_page(&rows, &mut state.report)?
            } else {
                state.report.index_rows += rows.len() as u64;
                self.index_page(state.phase as usize - 1, &table, &rows, &mut state.report)?
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
    fn base_page(
        &self,
        rows: &[Row],
        report: &mut ScrubReport,
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
        for spec in &self.indexed.specs {
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
                let problem = match found {
                    None => Problem::Missing,
                    Some(v) if v == e.value => continue,
                    Some(v) => match parse(spec.kind(), &e.key, &v) {
                        Some(p) if p.pk == pk.as_slice() => Problem::Outdated,
                        Some(p) if spec.kind() == Kind::Unique => {
                            // Another record's row: a conflict if that record holds the key too.
                            let holder = p.pk.to_vec();
                            let stored = store
                                .get(&Table::Base, std::slice::from_ref(&holder))
                                .map_err(IndexError::Store)?;
                            let holds = match stored.into_iter().next().flatten() {
                                Some(hv) => match decode_record::<R, S::Error>(&holder, &hv) {
                                    Ok(h) => {
                                        encoded_key::<R, S::Error>(spec.as_ref(), &h)? == e.key
                                    }
                                    Err(_) => false,
                                },
                                None => false,
                            };
                            if holds {
                                report.count(&table, &e.key, Problem::Conflict);
                                continue;
                            }
                            Problem::Missing
                        }
                        _ => Problem::Outdated,
                    },
                };
                report.count(&table, &e.key, problem);
                fixes.push(Write::Put {
                    table: table.clone(),
                    key: e.key,
                    value: e.value,
                });
            }
        }
        Ok(fixes)
    }

    /// Index rows: each checked against its base row.
    fn index_page(
        &self,
        spec: usize,
        table: &Table,
        rows: &[Row],
        report: &mut ScrubReport,
    ) -> Result<Vec<Write>, IndexError<S::Error>> {
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
