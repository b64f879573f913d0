//! `rowkey::migrate` on redb: a migration stopped at random points — cleanly after N batches,
//! or crashed between the destination write and the checkpoint (a store that writes them in
//! separate steps) — and started again ends with exactly the tables of an uninterrupted run and
//! of a brute-force oracle (bytes and values), verification passes with the same report, and at
//! every interruption point the dual read equals the logical union of both layouts (each record
//! once, in the new layout's logical order, the new layout's row winning). The same for the
//! retirement of the source rows. Over layout pairs: 16 → 32 salt buckets (one table and two),
//! unsalted → salted, and `#[desc]`/`#[sep]` keys re-salted (one table and two) or salted.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use redb::{Database, ReadableDatabase, TableDefinition, TableError};
use rowkey::migrate::{all_ranges, Checkpoint, MigrateError, Migration, Phase, Side, Verified};
use rowkey::store::RedbStore;
use rowkey::{DecodeRowKeyOwned, RowKey};

// ---- layouts -------------------------------------------------------------------------------

/// OpenTSDB-style row, salted over the metric, 16 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Tsdb16 {
    #[salt(buckets = 16)]
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// The same, 32 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Tsdb32 {
    #[salt(buckets = 32)]
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// The same, unsalted (OpenTSDB before salting).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct TsdbPlain {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// Descending separated host, newest first, 4 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Log4 {
    #[salt(buckets = 4)]
    #[desc]
    #[sep]
    host: String,
    #[desc]
    ts: u64,
}

/// The same, 8 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Log8 {
    #[salt(buckets = 8)]
    #[desc]
    #[sep]
    host: String,
    #[desc]
    ts: u64,
}

/// The same, unsalted.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogPlain {
    #[desc]
    #[sep]
    host: String,
    #[desc]
    ts: u64,
}

/// Ascending time: mapping it to `Log8` reverses the order within a host.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogAsc {
    #[salt(buckets = 4)]
    #[sep]
    host: String,
    ts: u64,
}

/// OpenTSDB's own layout: the salt hashes the metric and the tags, 16 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16, fields(metric, tags)), allow_hotspot)]
struct TsdbF16 {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// The same, 32 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 32, fields(metric, tags)), allow_hotspot)]
struct TsdbF32 {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// Version 1 of a keyspace, behind its tag (one variant: the layout the migration reads).
#[derive(RowKey, Debug, Clone, PartialEq)]
enum TaggedV1 {
    #[rowkey(tag = b"v1")]
    K(Tsdb16),
}

/// Version 2, behind another tag: the two layouts share one table without overlapping.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum TaggedV2 {
    #[rowkey(tag = b"v2")]
    K(TsdbF32),
}

impl From<TsdbPlain> for TaggedV1 {
    fn from(v: TsdbPlain) -> Self {
        TaggedV1::K(v.into())
    }
}
impl From<TaggedV1> for TaggedV2 {
    fn from(TaggedV1::K(v): TaggedV1) -> Self {
        TaggedV2::K(TsdbF32 {
            metric: v.metric,
            base_hour: v.base_hour,
            tags: v.tags,
        })
    }
}
impl From<TaggedV2> for TaggedV1 {
    fn from(TaggedV2::K(v): TaggedV2) -> Self {
        TaggedV1::K(Tsdb16 {
            metric: v.metric,
            base_hour: v.base_hour,
            tags: v.tags,
        })
    }
}

macro_rules! same_fields {
    ($from:ident => $to:ident { $($f:ident),* }) => {
        impl From<$from> for $to {
            fn from(v: $from) -> $to {
                $to { $($f: v.$f),* }
            }
        }
    };
}
same_fields!(Tsdb16 => Tsdb32 { metric, base_hour, tags });
same_fields!(TsdbPlain => Tsdb16 { metric, base_hour, tags });
same_fields!(TsdbPlain => Tsdb32 { metric, base_hour, tags });
same_fields!(Log4 => Log8 { host, ts });
same_fields!(LogPlain => Log8 { host, ts });
same_fields!(LogAsc => Log8 { host, ts });
// The inverses, for resuming a paged dual read.
same_fields!(Tsdb32 => Tsdb16 { metric, base_hour, tags });
same_fields!(Tsdb16 => TsdbPlain { metric, base_hour, tags });
same_fields!(Log8 => Log4 { host, ts });
same_fields!(Log8 => LogPlain { host, ts });
same_fields!(TsdbPlain => TsdbF16 { metric, base_hour, tags });
same_fields!(TsdbF16 => TsdbF32 { metric, base_hour, tags });
same_fields!(TsdbF32 => TsdbF16 { metric, base_hour, tags });

fn tsdb_parts() -> impl Strategy<Value = ([u8; 3], u32, Vec<u8>)> {
    (
        prop_oneof![
            Just([0, 0, 1]),
            Just([0, 0, 2]),
            Just([0, 1, 0]),
            Just([7, 7, 7]),
            Just([0xff, 0xff, 0xff]),
            any::<[u8; 3]>()
        ],
        prop_oneof![
            Just(0u32),
            Just(1),
            Just(u32::MAX),
            1_700_000_000u32..1_700_000_010
        ],
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1), Just(0xff), any::<u8>()],
            0..4,
        ),
    )
}

fn log_parts() -> impl Strategy<Value = (String, u64)> {
    (
        "[ab\u{0}\u{1}]{0,3}",
        prop_oneof![Just(0u64), Just(u64::MAX), 0u64..6],
    )
}

// ---- store helpers -------------------------------------------------------------------------

type Snapshot = BTreeMap<Vec<u8>, Vec<u8>>;

fn new_db() -> Database {
    Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .unwrap()
}

fn def(name: &str) -> TableDefinition<'_, &'static [u8], &'static [u8]> {
    TableDefinition::new(name)
}

fn load(db: &Database, table: &str, rows: &Snapshot) {
    let tx = db.begin_write().unwrap();
    {
        let mut t = tx.open_table(def(table)).unwrap();
        for (k, v) in rows {
            t.insert(k.as_slice(), v.as_slice()).unwrap();
        }
    }
    tx.commit().unwrap();
}

fn snapshot(db: &Database, table: &str) -> Snapshot {
    let tx = db.begin_read().unwrap();
    let t = match tx.open_table(def(table)) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Snapshot::new(),
        Err(e) => panic!("{e}"),
    };
    use redb::ReadableTable;
    t.iter()
        .unwrap()
        .map(|r| {
            let (k, v) = r.unwrap();
            (k.value().to_vec(), v.value().to_vec())
        })
        .collect()
}

use crate::crashy::{CrashError, Crashy};

// ---- the check -----------------------------------------------------------------------------

trait Key: RowKey + DecodeRowKeyOwned + Debug + Clone + PartialEq {}
impl<T: RowKey + DecodeRowKeyOwned + Debug + Clone + PartialEq> Key for T {}

/// A source layout that a destination key maps back to (for paged dual reads).
trait Old<B>: Key + From<B> {}
impl<A: Key + From<B>, B> Old<B> for A {}

struct Tables {
    same: bool,
}

impl Tables {
    const ONE: &'static str = "t";
    const SRC: &'static str = "src";
    const DST: &'static str = "dst";

    fn source(&self) -> &'static str {
        if self.same {
            Self::ONE
        } else {
            Self::SRC
        }
    }
    fn destination(&self) -> &'static str {
        if self.same {
            Self::ONE
        } else {
            Self::DST
        }
    }
    fn store<'a>(&self, db: &'a Database) -> RedbStore<'a> {
        if self.same {
            RedbStore::new(db, Self::ONE)
        } else {
            RedbStore::new(db, Self::SRC).destination(Self::DST)
        }
    }
    fn state(&self, db: &Database) -> (Snapshot, Snapshot) {
        (
            snapshot(db, self.source()),
            snapshot(db, self.destination()),
        )
    }
}

fn logical<B: RowKey>(key: &[u8]) -> &[u8] {
    key.get(B::LAYOUT.salt_end()..).unwrap()
}

/// The logical union of both layouts from the raw table contents: every `A` row mapped to its
/// `B` key, every `B` row as it is (winning), in `B`'s logical order.
fn union_oracle<A: Key, B: Key + From<A>>(
    db: &Database,
    t: &Tables,
) -> Vec<(Vec<u8>, Vec<u8>, Side)> {
    let (src, dst) = t.state(db);
    let mut out: BTreeMap<Vec<u8>, (Vec<u8>, Vec<u8>, Side)> = BTreeMap::new();
    for (k, v) in &src {
        let Ok(a) = A::from_row_key(k) else {
            assert!(t.same, "a source row that is not an A key");
            assert!(B::from_row_key(k).is_ok());
            continue;
        };
        let bk = B::from(a).to_row_key().unwrap().to_vec();
        out.insert(logical::<B>(&bk).to_vec(), (bk, v.clone(), Side::Source));
    }
    for (k, v) in &dst {
        if B::from_row_key(k).is_err() {
            assert!(t.same && A::from_row_key(k).is_ok());
            continue;
        }
        out.insert(
            logical::<B>(k).to_vec(),
            (k.clone(), v.clone(), Side::Destination),
        );
    }
    out.into_values().collect()
}

fn dual_read<A: Old<B>, B: Key + From<A>>(
    db: &Database,
    t: &Tables,
) -> Vec<(Vec<u8>, Vec<u8>, Side)> {
    let store = t.store(db);
    let m = Migration::<_, A, B, _>::from_into(&store).batch_size(3);
    let all: Vec<_> = m
        .dual_read_all()
        .map(|r| {
            let row = r.unwrap();
            (row.key.to_row_key().unwrap().to_vec(), row.value, row.from)
        })
        .collect();
    // Pages of 1 and 4, each resumed after the last record of the previous one.
    for page in [1, 4] {
        let mut paged = Vec::new();
        let mut last: Option<B> = None;
        loop {
            let read = match &last {
                None => m.dual_read_all(),
                Some(after) => m
                    .dual_read_after(all_ranges(B::LAYOUT), all_ranges(A::LAYOUT), after, |b| {
                        A::from(b.clone())
                    })
                    .unwrap(),
            };
            let rows: Vec<_> = read.take(page).map(Result::unwrap).collect();
            let Some(end) = rows.last() else { break };
            last = Some(end.key.clone());
            paged.extend(
                rows.into_iter()
                    .map(|row| (row.key.to_row_key().unwrap().to_vec(), row.value, row.from)),
            );
        }
        assert_eq!(paged, all, "dual read in pages of {page}");
    }
    all
}

/// One interruption point: the dual read is the logical union of what is stored, which is
/// every record exactly once.
fn check_point<A: Old<B>, B: Key + From<A>>(
    db: &Database,
    t: &Tables,
    expected_b: &Snapshot,
    what: &str,
) -> Result<(), TestCaseError> {
    let got = dual_read::<A, B>(db, t);
    let union = union_oracle::<A, B>(db, t);
    prop_assert_eq!(
        &got,
        &union,
        "{}: dual read vs the union of both layouts",
        what
    );
    let mut records: Vec<(Vec<u8>, Vec<u8>)> = expected_b
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    records.sort_by(|x, y| logical::<B>(&x.0).cmp(logical::<B>(&y.0)));
    let got_records: Vec<(Vec<u8>, Vec<u8>)> = got.into_iter().map(|(k, v, _)| (k, v)).collect();
    prop_assert_eq!(
        &got_records,
        &records,
        "{}: dual read vs every record",
        what
    );
    Ok(())
}

/// How a run is stopped: `(batches, crash)` — a clean stop after `batches` batches (`None`), or
/// a crash in batch `batches + 1` after `percent`% of its writes and before its checkpoint
/// (`Some(percent)`).
type Stop = (usize, Option<usize>);

#[allow(clippy::too_many_arguments)]
fn check_pair<A: Old<B>, B: Key + From<A>>(
    name: &str,
    same: bool,
    keys: Vec<(A, Vec<u8>)>,
    batch: usize,
    stops: &[Stop],
    points: &Cell<usize>,
) -> Result<(), TestCaseError> {
    let t = Tables { same };
    let source: Snapshot = keys
        .into_iter()
        .map(|(a, v)| (a.to_row_key().unwrap().to_vec(), v))
        .collect();
    let expected_b: Snapshot = source
        .iter()
        .map(|(k, v)| {
            let b = B::from(A::from_row_key(k).unwrap());
            (b.to_row_key().unwrap().to_vec(), v.clone())
        })
        .collect();
    let n = source.len() as u64;

    // The uninterrupted run.
    let db_ref = new_db();
    load(&db_ref, t.source(), &source);
    let store = t.store(&db_ref);
    let m = Migration::<_, A, B, _>::from_into(&store).batch_size(batch);
    let s = m.run(|_| {}).unwrap();
    prop_assert!(s.complete);
    prop_assert_eq!(s.rows, n);
    let ref_copied = t.state(&db_ref);
    let ref_report = *m.verify().unwrap().report();
    let verified = m.verify().unwrap();
    m.retire_source(&verified, |_| {}).unwrap();
    let ref_retired = t.state(&db_ref);

    // The oracle's tables.
    if same {
        let mut both = source.clone();
        both.extend(expected_b.clone());
        prop_assert_eq!(&ref_copied.0, &both, "{}: one table after the copy", name);
        prop_assert_eq!(&ref_retired.0, &expected_b, "{}: one table retired", name);
    } else {
        prop_assert_eq!(
            &ref_copied,
            &(source.clone(), expected_b.clone()),
            "{}",
            name
        );
        prop_assert_eq!(
            &ref_retired,
            &(Snapshot::new(), expected_b.clone()),
            "{}",
            name
        );
    }
    prop_assert_eq!(ref_report.source_rows, n);

    // Interrupted runs.
    let db = new_db();
    load(&db, t.source(), &source);
    let mut stop = stops.iter().cycle();
    let mut runs = 0;
    for phase in [Phase::Copy, Phase::Retire] {
        let verified: Option<Verified> = match phase {
            Phase::Copy => None,
            Phase::Retire => Some({
                let store = t.store(&db);
                let m = Migration::<_, A, B, _>::from_into(&store).batch_size(batch);
                let v = m.verify().unwrap();
                prop_assert_eq!(*v.report(), ref_report, "{}: verification report", name);
                v
            }),
        };
        loop {
            runs += 1;
            prop_assert!(runs < 10_000, "{}: no progress", name);
            let &(batches, crash) = stop.next().unwrap();
            // A process: its store handle and migration end with this block (nothing is
            // cleaned up: all state is in the database).
            let res = {
                let inner = t.store(&db);
                let store = match crash {
                    Some(percent) => Crashy::in_apply(&inner, batches, percent),
                    None => Crashy::new(&inner, None, true),
                };
                let m = Migration::<_, A, B, _>::from_into(&store).batch_size(batch);
                let limit = if crash.is_some() {
                    batches + 1
                } else {
                    batches
                };
                match &verified {
                    None => m.run_batches(limit, |_| {}),
                    Some(v) => m.retire_batches(v, limit, |_| {}),
                }
            };
            let done = match res {
                Ok(s) => {
                    prop_assert_eq!(s.phase, phase);
                    s.complete
                }
                Err(MigrateError::Store(CrashError::Crash)) if crash.is_some() => false,
                Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}"))),
            };
            points.set(points.get() + 1);
            check_point::<A, B>(
                &db,
                &t,
                &expected_b,
                &format!("{name} {phase} stop {batches} crash {crash:?}"),
            )?;
            // Invariants of the stored tables at any stop.
            let (src, dst) = t.state(&db);
            match (phase, same) {
                (Phase::Copy, false) => {
                    prop_assert_eq!(&src, &source);
                    prop_assert!(dst.iter().all(|(k, v)| expected_b.get(k) == Some(v)));
                }
                (Phase::Copy, true) => {
                    prop_assert!(source.iter().all(|(k, v)| src.get(k) == Some(v)));
                    prop_assert!(src
                        .iter()
                        .all(|(k, v)| source.get(k) == Some(v) || expected_b.get(k) == Some(v)));
                }
                (Phase::Retire, false) => {
                    prop_assert_eq!(&dst, &expected_b);
                    prop_assert!(src.iter().all(|(k, v)| source.get(k) == Some(v)));
                }
                (Phase::Retire, true) => {
                    prop_assert!(expected_b.iter().all(|(k, v)| src.get(k) == Some(v)));
                }
            }
            if done {
                break;
            }
        }
        let want = match phase {
            Phase::Copy => &ref_copied,
            Phase::Retire => &ref_retired,
        };
        prop_assert_eq!(
            &t.state(&db),
            want,
            "{}: {} vs the uninterrupted run",
            name,
            phase
        );
        let store = t.store(&db);
        let m = Migration::<_, A, B, _>::from_into(&store);
        let cp: Checkpoint = m.checkpoint().unwrap().unwrap_or(Checkpoint {
            phase: Phase::Copy,
            copied: 0,
            retired: 0,
            last_key: None,
        });
        prop_assert_eq!(cp.copied, n, "{}: rows counted once", name);
    }
    // Run again after the end: nothing changes.
    let store = t.store(&db);
    let m = Migration::<_, A, B, _>::from_into(&store).batch_size(batch);
    let again = m.run(|_| {}).unwrap();
    prop_assert!(again.complete);
    prop_assert_eq!(&t.state(&db), &ref_retired);
    Ok(())
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

fn stops() -> impl Strategy<Value = Vec<Stop>> {
    // At least one clean stop of one batch or more, so every cycle makes progress.
    let crash = prop_oneof![
        Just(None),
        Just(Some(100)),
        Just(Some(0)),
        (1usize..100).prop_map(Some)
    ];
    (
        proptest::collection::vec((0usize..4, crash), 0..5),
        1usize..4,
    )
        .prop_map(|(mut v, clean)| {
            v.push((clean, None));
            v.into_iter()
                .map(|(n, crash)| match crash {
                    Some(p) => (n, Some(p)),
                    None => (n.max(1), None),
                })
                .collect()
        })
}

fn value() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..5)
}

const CASES: u32 = 24;

fn run_tsdb<A: Old<B> + From<TsdbPlain>, B: Key + From<A>>(
    name: &str,
    same: bool,
    points: &Cell<usize>,
) {
    let strat = (
        proptest::collection::vec((tsdb_parts(), value()), 0..40),
        1usize..8,
        stops(),
    );
    runner(CASES)
        .run(&strat, |(rows, batch, stops)| {
            let keys = rows
                .into_iter()
                .map(|((metric, base_hour, tags), v)| {
                    (
                        A::from(TsdbPlain {
                            metric,
                            base_hour,
                            tags,
                        }),
                        v,
                    )
                })
                .collect();
            check_pair::<A, B>(name, same, keys, batch, &stops, points)
        })
        .unwrap();
}

fn run_log<A: Old<B> + From<LogPlain>, B: Key + From<A>>(
    name: &str,
    same: bool,
    points: &Cell<usize>,
) {
    let strat = (
        proptest::collection::vec((log_parts(), value()), 0..40),
        1usize..8,
        stops(),
    );
    runner(CASES)
        .run(&strat, |(rows, batch, stops)| {
            let keys = rows
                .into_iter()
                .map(|((host, ts), v)| (A::from(LogPlain { host, ts }), v))
                .collect();
            check_pair::<A, B>(name, same, keys, batch, &stops, points)
        })
        .unwrap();
}

same_fields!(LogPlain => Log4 { host, ts });

#[test]
fn interrupted_migrations_finish_exactly_like_uninterrupted_ones() {
    let points = Cell::new(0);
    run_tsdb::<Tsdb16, Tsdb32>("tsdb 16 -> 32, one table", true, &points);
    run_tsdb::<Tsdb16, Tsdb32>("tsdb 16 -> 32, two tables", false, &points);
    run_tsdb::<TsdbPlain, Tsdb16>("tsdb unsalted -> 16, two tables", false, &points);
    run_tsdb::<TsdbF16, TsdbF32>(
        "tsdb fields(metric, tags) 16 -> 32, one table",
        true,
        &points,
    );
    run_tsdb::<TaggedV1, TaggedV2>("tagged v1 -> v2, one table", true, &points);
    run_log::<Log4, Log8>("desc sep log 4 -> 8, one table", true, &points);
    run_log::<Log4, Log8>("desc sep log 4 -> 8, two tables", false, &points);
    run_log::<LogPlain, Log8>("desc sep log unsalted -> 8, two tables", false, &points);
    eprintln!("interruption points checked: {}", points.get());
    assert!(
        points.get() >= 200,
        "only {} interruption points",
        points.get()
    );
}
