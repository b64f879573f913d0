//! `rowkey::migrate` edge cases on redb: refused one-table migrations, verification mismatches
//! as errors, a mapping that does not keep order, scoped dual reads, progress, checkpoints and
//! the dry run.

use std::collections::BTreeMap;

use crate::common;
use common::bound_shapes;

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use rowkey::migrate::{all_ranges, Checkpoint, MigrateError, Migration, Phase, Side};
use rowkey::store::{
    RedbStore, Store, Table, Write, CHECKPOINTS, LEGACY_INDEX_CHECKPOINTS,
    LEGACY_MIGRATE_CHECKPOINTS,
};

/// A put to the migration's destination table.
fn dest_put(key: &[u8], value: &[u8]) -> Write {
    Write::Put {
        table: Table::Destination,
        key: key.to_vec(),
        value: value.to_vec(),
    }
}
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted16 {
    #[salt(buckets = 16)]
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted32 {
    #[salt(buckets = 32)]
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Plain {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

impl From<Salted16> for Salted32 {
    fn from(v: Salted16) -> Self {
        Salted32 {
            metric: v.metric,
            base_hour: v.base_hour,
            tags: v.tags,
        }
    }
}

impl From<Plain> for Salted16 {
    fn from(v: Plain) -> Self {
        Salted16 {
            metric: v.metric,
            base_hour: v.base_hour,
            tags: v.tags,
        }
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogAsc {
    #[salt(buckets = 4)]
    #[sep]
    host: String,
    ts: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogDesc {
    #[salt(buckets = 8)]
    #[sep]
    host: String,
    #[desc]
    ts: u64,
}

const T: TableDefinition<&[u8], &[u8]> = TableDefinition::new("t");
const T2: TableDefinition<&[u8], &[u8]> = TableDefinition::new("t2");

fn new_db() -> Database {
    Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .unwrap()
}

fn put<K: RowKey>(db: &Database, table: TableDefinition<&[u8], &[u8]>, rows: &[(K, Vec<u8>)]) {
    let tx = db.begin_write().unwrap();
    {
        let mut t = tx.open_table(table).unwrap();
        for (k, v) in rows {
            t.insert(&k.to_row_key().unwrap()[..], v.as_slice())
                .unwrap();
        }
    }
    tx.commit().unwrap();
}

fn dump(db: &Database, table: TableDefinition<&[u8], &[u8]>) -> BTreeMap<Vec<u8>, Vec<u8>> {
    let tx = db.begin_read().unwrap();
    let Ok(t) = tx.open_table(table) else {
        return BTreeMap::new();
    };
    t.iter()
        .unwrap()
        .map(|r| {
            let (k, v) = r.unwrap();
            (k.value().to_vec(), v.value().to_vec())
        })
        .collect()
}

fn metrics(n: u32) -> Vec<(Plain, Vec<u8>)> {
    (0..n)
        .map(|i| {
            (
                Plain {
                    metric: [0, (i % 7) as u8, (i % 5) as u8],
                    base_hour: 1_700_000_000 + i / 35 * 3600,
                    tags: vec![b'h', (i % 35) as u8],
                },
                i.to_be_bytes().to_vec(),
            )
        })
        .collect()
}

fn salted(n: u32) -> Vec<(Salted16, Vec<u8>)> {
    metrics(n)
        .into_iter()
        .map(|(k, v)| (Salted16::from(k), v))
        .collect()
}

#[test]
fn one_table_unsalted_to_salted_is_refused_before_anything_is_written() {
    // Every salted key is also a valid unsalted key (a 3-byte metric, a u32, raw tags): in one
    // table the old layout would read the new rows as old ones (OpenTSDB #1536).
    let db = new_db();
    put(&db, T, &metrics(50));
    let before = dump(&db, T);
    let store = RedbStore::new(&db, "t");
    let m = Migration::<_, Plain, Salted16, _>::from_into(&store).batch_size(10);
    let dry = m.dry_run(4, 16).unwrap();
    assert_eq!(dry.rows, 50);
    assert_eq!(dry.ambiguous, 50);
    assert!(dry
        .first_ambiguous
        .as_deref()
        .unwrap()
        .contains("also a valid old-layout key"));
    let err = m.run(|_| {}).unwrap_err();
    assert!(
        matches!(err, MigrateError::Ambiguous { .. }),
        "{err}: {err:?}"
    );
    assert!(err.to_string().contains("second table"), "{err}");
    assert_eq!(dump(&db, T), before);
    assert_eq!(m.checkpoint().unwrap(), None);

    // Two tables: fine.
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Plain, Salted16, _>::from_into(&store).batch_size(10);
    assert!(m.run(|_| {}).unwrap().complete);
    assert_eq!(m.verify().unwrap().report().destination_rows, 50);
}

#[test]
fn a_verification_difference_is_an_error() {
    let db = new_db();
    put(&db, T, &salted(40));
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(7);
    m.run(|_| {}).unwrap();
    let ok = m.verify().unwrap();
    assert!(ok.report().is_match());
    assert_eq!(ok.report().source_rows, 40);
    let some_key = dump(&db, T2).into_keys().nth(5).unwrap();

    // A changed value: same count, different checksum.
    store.write(&[dest_put(&some_key, b"tampered")]).unwrap();
    match m.verify() {
        Err(MigrateError::Mismatch(r)) => {
            assert_eq!((r.source_rows, r.destination_rows), (40, 40));
            assert_ne!(r.source_checksum, r.destination_checksum);
            assert!(r.to_string().ends_with("MISMATCH"), "{r}");
        }
        other => panic!("{other:?}"),
    }

    // A lost row.
    let tx = db.begin_write().unwrap();
    tx.open_table(T2)
        .unwrap()
        .remove(some_key.as_slice())
        .unwrap();
    tx.commit().unwrap();
    match m.verify() {
        Err(MigrateError::Mismatch(r)) => assert_eq!(r.destination_rows, 39),
        other => panic!("{other:?}"),
    }

    // A key of another layout in the destination: a decode error naming the side.
    put(&db, T2, &salted(1));
    match m.verify() {
        Err(
            e @ MigrateError::Decode {
                side: Side::Destination,
                ..
            },
        ) => {
            assert!(e.to_string().starts_with("destination key"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_source_row_of_another_layout_stops_the_copy_naming_it() {
    let db = new_db();
    put(&db, T, &salted(20));
    let tx = db.begin_write().unwrap();
    tx.open_table(T)
        .unwrap()
        .insert(&b"\x03junk"[..], &b"x"[..])
        .unwrap();
    tx.commit().unwrap();
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(100);
    let err = m.run(|_| {}).unwrap_err();
    match &err {
        MigrateError::Decode { side, key, .. } => {
            assert_eq!(*side, Side::Source);
            assert_eq!(key, b"\x03junk");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("\\x03junk"), "{err}");
    assert!(dump(&db, T2).is_empty());
}

#[test]
fn a_mapping_that_reverses_order_copies_and_verifies_but_cannot_dual_read() {
    let db = new_db();
    let rows: Vec<(LogAsc, Vec<u8>)> = (0..30u64)
        .map(|i| {
            (
                LogAsc {
                    host: format!("h{}", i % 3),
                    ts: i,
                },
                vec![i as u8],
            )
        })
        .collect();
    put(&db, T, &rows);
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::new(&store, |a: LogAsc| LogDesc {
        host: a.host,
        ts: a.ts,
    })
    .batch_size(4);
    let err = m.dual_read_all().find_map(Result::err).unwrap();
    assert!(
        matches!(err, MigrateError::NotOrderPreserving { .. }),
        "{err}"
    );
    // The dual read stops at the error.
    let mut it = m.dual_read_all();
    assert!(it.by_ref().any(|r| r.is_err()));
    assert!(it.next().is_none());

    assert!(m.run(|_| {}).unwrap().complete);
    assert_eq!(m.verify().unwrap().report().destination_rows, 30);
    // Once copied, the destination alone serves the new order (newest first per host).
    let read = rowkey::read::Read::<LogDesc>::new(LogDesc::scan().host("h1").ranges());
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(T2).unwrap();
    let ts: Vec<u64> = rowkey::read::redb::rows(&t, read)
        .unwrap()
        .map(|r| r.unwrap().0.ts)
        .collect();
    assert_eq!(ts.first(), Some(&28));
    assert!(ts.is_sorted_by(|a, b| a > b));
}

#[test]
fn a_scoped_dual_read_returns_one_metric_in_order_mid_migration() {
    let db = new_db();
    put(&db, T, &salted(200));
    let store = RedbStore::new(&db, "t");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(16);
    let s = m.run_batches(5, |_| {}).unwrap();
    assert_eq!((s.batches, s.rows, s.complete), (5, 80, false));
    let metric = [0, 3, 4];
    let rows: Vec<_> = m
        .dual_read(
            Salted32::scan().metric(metric).ranges(),
            Salted16::scan().metric(metric).ranges(),
        )
        .collect::<Result<_, _>>()
        .unwrap();
    let want: Vec<(Salted32, Vec<u8>)> = {
        let mut v: Vec<_> = salted(200)
            .into_iter()
            .filter(|(k, _)| k.metric == metric)
            .map(|(k, v)| (Salted32::from(k), v))
            .collect();
        v.sort_by(|a, b| (a.0.base_hour, &a.0.tags).cmp(&(b.0.base_hour, &b.0.tags)));
        v
    };
    assert!(!want.is_empty());
    let got: Vec<(Salted32, Vec<u8>)> = rows
        .iter()
        .map(|r| (r.key.clone(), r.value.clone()))
        .collect();
    assert_eq!(got, want);
    // Both sides contribute at this point, or every row of the metric is already copied.
    assert!(rows.iter().any(|r| r.from == Side::Destination));

    // A wider old-layout query is cut to the new query: same rows.
    let wide: Vec<_> = m
        .dual_read(
            Salted32::scan().metric(metric).ranges(),
            all_ranges(Salted16::LAYOUT),
        )
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(wide, rows);
}

#[test]
fn progress_is_reported_per_batch_and_the_checkpoint_is_readable() {
    let db = new_db();
    put(&db, T, &salted(95));
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(10);
    let total = m.count_source().unwrap();
    assert_eq!(total, 95);
    let m = m.expect_rows(total);
    let mut seen = Vec::new();
    m.run_batches(3, |p| seen.push(p.clone())).unwrap();
    assert_eq!(
        seen.iter().map(|p| p.rows).collect::<Vec<_>>(),
        [10, 20, 30]
    );
    let last = seen.last().unwrap();
    assert_eq!(
        (last.batches, last.rows_this_run, last.total),
        (3, 30, Some(95))
    );
    let line = last.to_string();
    assert!(line.starts_with("copy: 30 of 95 rows (31.6%), "), "{line}");
    assert!(line.contains(" rows/s"), "{line}");
    if last.rows_per_sec() > 0.0 {
        assert!(last.eta().is_some());
    }

    let cp = m.checkpoint().unwrap().unwrap();
    assert_eq!((cp.phase, cp.copied, cp.retired), (Phase::Copy, 30, 0));
    // The last key is the 30th source row in the old layout's logical order.
    let mut order: Vec<Vec<u8>> = salted(95)
        .iter()
        .map(|(k, _)| k.to_row_key().unwrap().to_vec())
        .collect();
    order.sort_by(|a, b| a[1..].cmp(&b[1..]));
    assert_eq!(cp.last_key.as_deref(), Some(order[29].as_slice()));
    assert_eq!(Checkpoint::decode(&cp.encode()), Ok(cp));

    // The rest resumes from it.
    let mut rows = Vec::new();
    let s = m.run(|p| rows.push(p.rows)).unwrap();
    assert_eq!(rows, [40, 50, 60, 70, 80, 90, 95]);
    assert_eq!((s.rows_this_run, s.rows, s.complete), (65, 95, true));

    // A blob this version did not write is an error, not a restart.
    let tx = db.begin_write().unwrap();
    tx.open_table(CHECKPOINTS)
        .unwrap()
        .insert("t/migration", &b"garbage"[..])
        .unwrap();
    tx.commit().unwrap();
    let err = m.run(|_| {}).unwrap_err();
    assert!(matches!(err, MigrateError::Checkpoint(_)), "{err}");
    assert!(Checkpoint::decode(b"RKM1\x07").is_err());
}

#[test]
fn the_dry_run_shows_both_distributions_and_writes_nothing() {
    let db = new_db();
    put(&db, T, &salted(500));
    let before = dump(&db, T);
    let store = RedbStore::new(&db, "t");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store);
    let dry = m.dry_run(16, 32).unwrap();
    assert_eq!(dry.rows, 500);
    assert_eq!(dry.ambiguous, 0);
    assert_eq!(dry.before.regions().len(), 16);
    assert_eq!(dry.after.regions().len(), 32);
    assert_eq!(dry.before.total_keys(), 500);
    assert_eq!(dry.after.total_keys(), 500);
    let text = dry.to_string();
    assert!(text.starts_with("dry run over 500 source rows"), "{text}");
    assert!(text.contains("after: Salted32 (32 regions)"), "{text}");
    assert_eq!(dump(&db, T), before);
    assert_eq!(m.checkpoint().unwrap(), None);

    // Unsalted source: split from the sample of its keys.
    let db = new_db();
    put(&db, T, &metrics(300));
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Plain, Salted16, _>::from_into(&store);
    let dry = m.dry_run(8, 16).unwrap();
    assert_eq!(dry.before.regions().len(), 8);
    assert_eq!(dry.after.total_keys(), 300);
}

#[test]
fn retirement_never_deletes_a_row_whose_new_row_is_not_stored() {
    let db = new_db();
    put(&db, T, &salted(30));
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(100);
    m.run(|_| {}).unwrap();
    let verified = m.verify().unwrap();

    // A new row changed after verification.
    let before = dump(&db, T);
    let (some, was) = dump(&db, T2).into_iter().next().unwrap();
    store.write(&[dest_put(&some, b"other")]).unwrap();
    match m.retire_source(&verified, |_| {}) {
        Err(e @ MigrateError::NotCopied { found: true, .. }) => {
            assert!(e.to_string().contains("holds another value"), "{e}");
            if let MigrateError::NotCopied {
                destination_key, ..
            } = e
            {
                assert_eq!(destination_key, some);
            }
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(dump(&db, T), before, "nothing of the batch is deleted");
    store.write(&[dest_put(&some, &was)]).unwrap();

    // A row written to the old layout after verification: not in the new one.
    // It sorts first, behind the checkpoint.
    let late = Salted16 {
        metric: [0, 0, 0],
        base_hour: 0,
        tags: vec![],
    };
    put(&db, T, &[(late.clone(), b"late".to_vec())]);
    let before = dump(&db, T);
    match m.retire_source(&verified, |_| {}) {
        Err(e @ MigrateError::NotCopied { found: false, .. }) => {
            assert!(e.to_string().contains("is missing"), "{e}");
            if let MigrateError::NotCopied { source_key, .. } = e {
                assert_eq!(source_key, late.to_row_key().unwrap().to_vec());
            }
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(dump(&db, T), before, "nothing of the batch is deleted");

    // The late row is behind the checkpoint: the copy alone does not see it, verification
    // does; copying again from the start repairs both.
    assert_eq!(m.run(|_| {}).unwrap().rows_this_run, 0);
    assert!(matches!(m.verify(), Err(MigrateError::Mismatch(_))));
    m.reset().unwrap();
    assert_eq!(m.run(|_| {}).unwrap().rows, 31);
    let verified = m.verify().unwrap();
    assert_eq!(verified.report().destination_rows, 31);
    assert_eq!(m.retire_source(&verified, |_| {}).unwrap().rows, 31);
    assert!(dump(&db, T).is_empty());
    assert_eq!(dump(&db, T2).len(), 31);
}

#[test]
fn one_table_ambiguity_late_in_the_table_is_found_before_the_first_write() {
    let db = new_db();
    let mut rows = salted(100);
    // A metric that sorts after all others whose 16- and 32-bucket salts agree: its old keys
    // are valid new keys too.
    let late = (200..=255u8)
        .map(|b| [0xff, 0, b])
        .find(|&metric| {
            let k = |t: &[u8]| t[0];
            let a = Salted16 {
                metric,
                base_hour: 0,
                tags: vec![],
            }
            .to_row_key()
            .unwrap();
            let b = Salted32 {
                metric,
                base_hour: 0,
                tags: vec![],
            }
            .to_row_key()
            .unwrap();
            k(&a) == k(&b)
        })
        .unwrap();
    rows.push((
        Salted16 {
            metric: late,
            base_hour: 5,
            tags: vec![],
        },
        b"v".to_vec(),
    ));
    put(&db, T, &rows);
    let before = dump(&db, T);
    let store = RedbStore::new(&db, "t");
    // A v2 that moves that metric's hour: its old key reads as another record's new key.
    let m = Migration::new(&store, |a: Salted16| Salted32 {
        base_hour: if a.metric == late {
            a.base_hour + 1
        } else {
            a.base_hour
        },
        metric: a.metric,
        tags: a.tags,
    })
    .batch_size(10);
    assert_eq!(m.dry_run(16, 32).unwrap().ambiguous, 1);
    let err = m.run_batches(3, |_| {}).unwrap_err();
    assert!(matches!(err, MigrateError::Ambiguous { .. }), "{err}");
    assert!(err.to_string().contains(r"\xFF\x00"), "{err}");
    assert_eq!(dump(&db, T), before, "nothing written");
    assert_eq!(m.checkpoint().unwrap(), None);
}

/// A user's events, version 1 …
#[derive(RowKey, Debug, Clone, PartialEq)]
struct KeyV1 {
    #[sep]
    user: String,
    ts: u32,
}

/// … and version 2: a wider timestamp and a shard byte.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct KeyV2 {
    #[sep]
    user: String,
    ts: u64,
    shard: u8,
}

/// Both versions in one table, each behind its tag: what the service reads.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum Versioned {
    #[rowkey(tag = b"v1")]
    V1(KeyV1),
    #[rowkey(tag = b"v2")]
    V2(KeyV2),
}

/// The migration's view of the old layout: only the `v1` keys (the same bytes as
/// `Versioned::V1`), so that a `v2` key is not an old-layout key.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum OldKeys {
    #[rowkey(tag = b"v1")]
    V1(KeyV1),
}

/// … and of the new one: only the `v2` keys (the same bytes as `Versioned::V2`).
#[derive(RowKey, Debug, Clone, PartialEq)]
enum NewKeys {
    #[rowkey(tag = b"v2")]
    V2(KeyV2),
}

fn v1_to_v2(o: OldKeys) -> NewKeys {
    let OldKeys::V1(k) = o;
    NewKeys::V2(KeyV2 {
        user: k.user,
        ts: u64::from(k.ts),
        shard: 0,
    })
}

#[test]
fn tagged_v1_to_v2_in_one_table_resumed_verified_with_a_dual_read() {
    let db = new_db();
    let records: Vec<(KeyV1, Vec<u8>)> = (0..40u32)
        .flat_map(|u| {
            (0..25u32).map(move |t| {
                (
                    KeyV1 {
                        user: format!("user{:02}", (u * 17) % 40),
                        ts: 1_700_000_000 + t * 60,
                    },
                    format!("event {u}/{t}").into_bytes(),
                )
            })
        })
        .collect();
    let rows: Vec<(Versioned, Vec<u8>)> = records
        .iter()
        .map(|(k, v)| (Versioned::V1(k.clone()), v.clone()))
        .collect();
    put(&db, T, &rows);
    // The views are the service's keys byte for byte.
    for (k, _) in records.iter().take(5) {
        let old = OldKeys::V1(k.clone()).to_row_key().unwrap();
        assert_eq!(old, Versioned::V1(k.clone()).to_row_key().unwrap());
        let new = v1_to_v2(OldKeys::V1(k.clone())).to_row_key().unwrap();
        let NewKeys::V2(k2) = v1_to_v2(OldKeys::V1(k.clone()));
        assert_eq!(new, Versioned::V2(k2).to_row_key().unwrap());
        assert!(OldKeys::from_row_key(&new).is_err() && NewKeys::from_row_key(&old).is_err());
    }
    // Every record in the new layout's logical order (unsalted: byte order), with its value.
    let mut want: Vec<(KeyV2, Vec<u8>)> = records
        .iter()
        .map(|(k, v)| {
            let NewKeys::V2(k2) = v1_to_v2(OldKeys::V1(k.clone()));
            (k2, v.clone())
        })
        .collect();
    want.sort_by_key(|(k, _)| (k.user.clone(), k.ts));

    let store = RedbStore::new(&db, "t");
    let m = Migration::new(&store, v1_to_v2).batch_size(128);
    let dry = m.dry_run(4, 4).unwrap();
    assert_eq!(
        (dry.rows, dry.ambiguous),
        (1000, 0),
        "the tags keep the layouts apart"
    );
    let first = m.run_batches(3, |_| {}).unwrap();
    assert!(!first.complete);
    assert_eq!(first.rows, 384);
    assert!(matches!(m.verify(), Err(MigrateError::Mismatch(_))));

    // Mid-migration: the dual read is the logical union, each record once, in order.
    let dual: Vec<_> = m.dual_read_all().collect::<Result<_, _>>().unwrap();
    let new_side = dual.iter().filter(|r| r.from == Side::Destination).count();
    assert_eq!((new_side, dual.len() - new_side), (384, 616));
    let got: Vec<(KeyV2, Vec<u8>)> = dual
        .into_iter()
        .map(|r| {
            let NewKeys::V2(k) = r.key;
            (k, r.value)
        })
        .collect();
    assert_eq!(got, want);
    // A dual read of one user: the variant scans of both views.
    let one: Vec<_> = m
        .dual_read(
            NewKeys::scan_v2().user("user07").ranges(),
            OldKeys::scan_v1().user("user07").ranges(),
        )
        .map(|r| r.map(|r| (r.key, r.value)))
        .collect::<Result<_, _>>()
        .unwrap();
    let want_one: Vec<(NewKeys, Vec<u8>)> = want
        .iter()
        .filter(|(k, _)| k.user == "user07")
        .map(|(k, v)| (NewKeys::V2(k.clone()), v.clone()))
        .collect();
    assert_eq!(one.len(), 25);
    assert_eq!(one, want_one);

    // A new process resumes from the checkpoint, verifies and retires every v1 row.
    let store = RedbStore::new(&db, "t");
    let m = Migration::new(&store, v1_to_v2).batch_size(128);
    assert_eq!(m.checkpoint().unwrap().unwrap().copied, 384);
    let rest = m.run(|_| {}).unwrap();
    assert!(rest.complete);
    assert_eq!((rest.rows_this_run, rest.rows), (616, 1000));
    let verified = m.verify().unwrap();
    assert_eq!(verified.report().source_rows, 1000);
    let retired = m.retire_source(&verified, |_| {}).unwrap();
    assert_eq!(retired.rows, 1000, "no fixed points: the tags differ");

    // The table now holds exactly the v2 rows, as the service reads them.
    let table = dump(&db, T);
    let mut stored: Vec<(KeyV2, Vec<u8>)> = table
        .iter()
        .map(|(k, v)| match Versioned::from_row_key(k).unwrap() {
            Versioned::V2(k) => (k, v.clone()),
            Versioned::V1(k) => panic!("v1 row left: {k:?}"),
        })
        .collect();
    stored.sort_by_key(|(k, _)| (k.user.clone(), k.ts));
    assert_eq!(stored, want);
}

/// Mid-migration dual reads with range and starts-with scans (every bound shape), the old side
/// scanned wide: each record once, in the new layout's order, exactly the oracle's.
#[test]
fn dual_reads_with_ranges_and_prefixes_match_the_oracle() {
    use std::ops::RangeBounds;

    let db = new_db();
    put(&db, T, &salted(200));
    let store = RedbStore::new(&db, "t");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(16);
    m.run_batches(6, |_| {}).unwrap();
    let all: Vec<(Salted32, Vec<u8>)> = salted(200)
        .into_iter()
        .map(|(k, v)| (Salted32::from(k), v))
        .collect();
    let check = |what: &str, new_ranges: rowkey::ScanRanges, pred: &dyn Fn(&Salted32) -> bool| {
        let got: Vec<(Salted32, Vec<u8>)> = m
            .dual_read(new_ranges, all_ranges(Salted16::LAYOUT))
            .map(|r| r.map(|r| (r.key, r.value)))
            .collect::<Result<_, _>>()
            .unwrap();
        let mut want: Vec<(Salted32, Vec<u8>)> =
            all.iter().filter(|(k, _)| pred(k)).cloned().collect();
        want.sort_by(|a, b| {
            (a.0.metric, a.0.base_hour, &a.0.tags).cmp(&(b.0.metric, b.0.base_hour, &b.0.tags))
        });
        assert_eq!(got, want, "{what}");
        got.len()
    };
    let mut rows = 0;
    for r in bound_shapes([0, 1, 2], [0, 4, 0]) {
        rows += check(
            &format!("metric {r:?}"),
            Salted32::scan().metric_range(r).ranges(),
            &|k| r.contains(&k.metric),
        );
    }
    let metric = [0, 3, 4];
    let (h0, h1) = (1_700_000_000 + 3600, 1_700_000_000 + 4 * 3600);
    for r in bound_shapes(h0, h1) {
        rows += check(
            &format!("base_hour {r:?}"),
            Salted32::scan().metric(metric).base_hour_range(r).ranges(),
            &|k| k.metric == metric && r.contains(&k.base_hour),
        );
    }
    for p in [&b""[..], b"h", b"h\x03", b"x"] {
        let hour = 1_700_000_000 + 2 * 3600;
        rows += check(
            &format!("tags starting with {p:?}"),
            Salted32::scan()
                .metric(metric)
                .base_hour(hour)
                .tags_starts_with(p)
                .ranges(),
            &|k| k.metric == metric && k.base_hour == hour && k.tags.starts_with(p),
        );
    }
    assert!(rows > 200, "{rows} rows checked");
}

/// Moves the checkpoint `t/migration` into the layout before `rowkey_checkpoints`: the table
/// `rowkey_migrate_checkpoints`, keyed by the migration's name alone.
fn to_old_layout(db: &Database, old_name: &str) {
    let tx = db.begin_write().unwrap();
    {
        let mut new = tx.open_table(CHECKPOINTS).unwrap();
        let blob = new.remove("t/migration").unwrap().unwrap().value().to_vec();
        let mut old = tx.open_table(LEGACY_MIGRATE_CHECKPOINTS).unwrap();
        old.insert(old_name, blob.as_slice()).unwrap();
    }
    tx.commit().unwrap();
}

#[test]
fn a_checkpoint_in_the_old_layout_is_resumed_or_refused_never_ignored() {
    let db = new_db();
    put(&db, T, &salted(95));
    let store = RedbStore::new(&db, "t").destination("t2");
    let m = Migration::<_, Salted16, Salted32, _>::from_into(&store).batch_size(10);
    m.run_batches(3, |_| {}).unwrap();
    to_old_layout(&db, "t-16-to-32");
    let tx = db.begin_read().unwrap();
    assert!(tx
        .open_table(CHECKPOINTS)
        .unwrap()
        .get("t/migration")
        .unwrap()
        .is_none());
    drop(tx);

    // Under another name, the migration refuses to start from the first row, naming the old
    // checkpoint and what to do.
    let err = m.run(|_| {}).unwrap_err().to_string();
    assert!(err.contains("rowkey_migrate_checkpoints"), "{err}");
    assert!(err.contains("\"t-16-to-32\""), "{err}");
    assert!(err.contains("Migration::name"), "{err}");
    assert!(err.contains("to start over, remove"), "{err}");

    // Under the old name, it resumes after the 30 rows done (read the old, write the new).
    let m = m.name("t-16-to-32");
    let cp = m.checkpoint().unwrap().unwrap();
    assert_eq!((cp.phase, cp.copied), (Phase::Copy, 30));
    let mut rows = Vec::new();
    let s = m.run(|p| rows.push(p.rows)).unwrap();
    assert_eq!(rows, [40, 50, 60, 70, 80, 90, 95]);
    assert_eq!((s.rows_this_run, s.rows, s.complete), (65, 95, true));
    let tx = db.begin_read().unwrap();
    let old = tx.open_table(LEGACY_MIGRATE_CHECKPOINTS).unwrap();
    assert!(old.get("t-16-to-32").unwrap().is_none(), "moved out");
    drop(old);
    assert!(tx
        .open_table(CHECKPOINTS)
        .unwrap()
        .get("t/t-16-to-32")
        .unwrap()
        .is_some());
    drop(tx);
    m.verify().unwrap();

    // With the old table emptied, a new migration starts as usual.
    let fresh = Migration::<_, Salted16, Salted32, _>::from_into(&store).name("other");
    assert_eq!(fresh.checkpoint().unwrap(), None);
}

#[test]
fn a_scrub_checkpoint_in_the_old_layout_is_read_and_moved() {
    let db = new_db();
    let tx = db.begin_write().unwrap();
    tx.open_table(LEGACY_INDEX_CHECKPOINTS)
        .unwrap()
        .insert("orders/index-scrub/by_buyer", &b"old blob"[..])
        .unwrap();
    tx.commit().unwrap();
    let store = RedbStore::new(&db, "orders");
    assert_eq!(
        store.load_checkpoint("index-scrub/by_buyer").unwrap(),
        Some(b"old blob".to_vec())
    );
    // another table's scrub does not see it; a scrub never reads the old migrations' table
    assert_eq!(
        RedbStore::new(&db, "other")
            .load_checkpoint("index-scrub/by_buyer")
            .unwrap(),
        None
    );
    store
        .save_checkpoint("index-scrub/by_buyer", b"new blob")
        .unwrap();
    assert_eq!(
        store.load_checkpoint("index-scrub/by_buyer").unwrap(),
        Some(b"new blob".to_vec())
    );
    let tx = db.begin_read().unwrap();
    let old = tx.open_table(LEGACY_INDEX_CHECKPOINTS).unwrap();
    assert!(
        old.get("orders/index-scrub/by_buyer").unwrap().is_none(),
        "moved out"
    );
}
