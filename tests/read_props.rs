//! Typed, merged reads (`rowkey::read`) against a brute-force oracle, on redb and on a
//! `BTreeMap`, sync and async: forward and reverse, paged with `after` (resume across salt
//! buckets) and `limit`, over single-range, fanned-out and multi-piece (Java range) scans.
//!
//! The oracle: every stored key that the scan's ranges contain, sorted by the bytes after the
//! salt (the logical order), reversed for reverse reads. Pages of every size from 1 to 7 must
//! concatenate to exactly that sequence, decoded, with the values intact.

use std::collections::BTreeMap;

use futures::executor::block_on;
use futures::{stream, StreamExt};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use redb::{Database, ReadableDatabase, TableDefinition};
use rowkey::read::{Directed, Read, ReadError};
use rowkey::{RowKey, ScanRanges};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Index {
    #[salt(buckets = 8)]
    user: u32,
    #[rowkey(java)]
    delta: i32,
    #[sep]
    id: String,
}

const TABLE: TableDefinition<&[u8], u64> = TableDefinition::new("index");

fn key_strategy() -> impl Strategy<Value = Index> {
    (
        0u32..6,
        prop_oneof![
            Just(i32::MIN),
            Just(-1),
            Just(0),
            Just(1),
            Just(i32::MAX),
            -20i32..20
        ],
        prop_oneof![
            Just(String::new()),
            Just("a".to_owned()),
            Just("a\0".to_owned()),
            "[ab\u{1}]{0,3}"
        ],
    )
        .prop_map(|(user, delta, id)| Index { user, delta, id })
}

/// The scans under test: every builder form that reaches the reader.
fn scans(user: u32, lo: i32, hi: i32) -> Vec<(&'static str, ScanRanges)> {
    vec![
        ("all (8-bucket fan-out)", Index::scan().ranges()),
        ("user (one range)", Index::scan().user(user).ranges()),
        (
            "user + java range (two pieces)",
            Index::scan().user(user).delta_range(lo..=hi).ranges(),
        ),
        ("user + delta", Index::scan().user(user).delta(lo).ranges()),
        (
            "user + delta + id prefix",
            Index::scan()
                .user(user)
                .delta(lo)
                .id_starts_with("a")
                .ranges(),
        ),
    ]
}

fn oracle(
    rows: &BTreeMap<Vec<u8>, u64>,
    ranges: &ScanRanges,
    reverse: bool,
) -> Vec<(Vec<u8>, u64)> {
    let mut v: Vec<(Vec<u8>, u64)> = rows
        .iter()
        .filter(|(k, _)| ranges.contains(k))
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    v.sort_by(|a, b| a.0[1..].cmp(&b.0[1..]));
    if reverse {
        v.reverse();
    }
    v
}

/// Reads every page of `page` rows through `read_page` and checks the concatenation.
fn paged(
    what: &str,
    want: &[(Vec<u8>, u64)],
    ranges: &ScanRanges,
    reverse: bool,
    page: usize,
    mut read_page: impl FnMut(Read<Index>) -> Vec<(Index, u64)>,
) -> Result<(), TestCaseError> {
    let mut got: Vec<(Vec<u8>, u64)> = Vec::new();
    let mut last: Option<Vec<u8>> = None;
    loop {
        let mut read = Read::<Index>::new(ranges.clone());
        if reverse {
            read = read.reverse();
        }
        if let Some(l) = &last {
            read = read.after(l);
        }
        let rows = read_page(read.limit(page));
        prop_assert!(rows.len() <= page, "{}: limit", what);
        let done = rows.len() < page;
        for (k, v) in rows {
            let bytes = k.to_row_key().unwrap().to_vec();
            last = Some(bytes.clone());
            got.push((bytes, v));
        }
        if done {
            break;
        }
        prop_assert!(
            got.len() <= want.len(),
            "{}: more rows than the oracle",
            what
        );
    }
    prop_assert_eq!(
        &got,
        &want.to_vec(),
        "{} reverse={} page={}",
        what,
        reverse,
        page
    );
    Ok(())
}

#[test]
fn typed_reads_match_the_oracle() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 24,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strat = (
        proptest::collection::vec(key_strategy(), 0..60),
        0u32..6,
        -25i32..25,
        -25i32..25,
    );
    let checked = std::cell::Cell::new(0usize);
    runner
        .run(&strat, |(keys, user, a, b)| {
            let rows: BTreeMap<Vec<u8>, u64> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.to_row_key().unwrap().to_vec(), i as u64))
                .collect();
            let db = Database::builder()
                .create_with_backend(redb::backends::InMemoryBackend::new())
                .unwrap();
            let tx = db.begin_write().unwrap();
            {
                let mut t = tx.open_table(TABLE).unwrap();
                for (k, v) in &rows {
                    t.insert(k.as_slice(), v).unwrap();
                }
            }
            tx.commit().unwrap();
            let rtx = db.begin_read().unwrap();
            let table = rtx.open_table(TABLE).unwrap();

            for (what, ranges) in scans(user, a.min(b), a.max(b)) {
                for reverse in [false, true] {
                    let want = oracle(&rows, &ranges, reverse);
                    for page in [1usize, 2, 3, 7, usize::MAX] {
                        // redb adapter
                        paged(what, &want, &ranges, reverse, page, |read| {
                            rowkey::read::redb::rows(&table, read)
                                .unwrap()
                                .map(|r| r.map(|(k, v)| (k, v.value())).unwrap())
                                .collect()
                        })?;
                        // any DoubleEndedIterator, infallible items
                        paged(what, &want, &ranges, reverse, page, |read| {
                            let rev = read.is_reverse();
                            let sources: Vec<_> = read
                                .ranges()
                                .iter()
                                .map(|r| Directed::new(rows.range::<[u8], _>(r.bounds()), rev))
                                .collect();
                            read.rows(sources)
                                .map(|r| r.map(|(k, v)| (k, *v)).unwrap())
                                .collect()
                        })?;
                        // async streams
                        paged(what, &want, &ranges, reverse, page, |read| {
                            let rev = read.is_reverse();
                            let sources: Vec<_> = read
                                .ranges()
                                .iter()
                                .map(|r| {
                                    let mut v: Vec<Result<(Vec<u8>, u64), std::io::Error>> = rows
                                        .range::<[u8], _>(r.bounds())
                                        .map(|(k, v)| Ok((k.clone(), *v)))
                                        .collect();
                                    if rev {
                                        v.reverse();
                                    }
                                    stream::iter(v)
                                })
                                .collect();
                            block_on(read.stream(sources).map(|r| r.unwrap()).collect())
                        })?;
                        checked.set(checked.get() + 3);
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    let checked = checked.get();
    assert!(checked >= 24 * 5 * 2 * 5 * 3, "{checked} paged reads");
}

/// "The latest N" reads lazily: the reader pulls at most one row per range beyond what it yields.
#[test]
fn latest_n_is_lazy() {
    use std::cell::Cell;
    let mut rows = BTreeMap::new();
    for user in 0..4u32 {
        for delta in 0..1000 {
            rows.insert(
                Index {
                    user,
                    delta,
                    id: "x".into(),
                }
                .to_row_key()
                .unwrap()
                .to_vec(),
                0u64,
            );
        }
    }
    let pulled = Cell::new(0usize);
    let read = Read::<Index>::new(Index::scan().ranges())
        .reverse()
        .limit(5);
    let n_ranges = read.ranges().len();
    let sources: Vec<_> = read
        .ranges()
        .iter()
        .map(|r| {
            Directed::new(rows.range::<[u8], _>(r.bounds()), true)
                .inspect(|_| pulled.set(pulled.get() + 1))
        })
        .collect();
    let latest: Vec<(u32, i32)> = read
        .rows(sources)
        .map(|r| r.map(|(k, _)| (k.user, k.delta)).unwrap())
        .collect();
    assert_eq!(latest, [(3, 999), (3, 998), (3, 997), (3, 996), (3, 995)]);
    assert!(
        pulled.get() <= 5 + n_ranges,
        "pulled {} rows for 5",
        pulled.get()
    );
}

/// A key that does not decode is reported with the key; a store error surfaces first.
#[test]
fn errors_are_reported() {
    let good = Index {
        user: 1,
        delta: 1,
        id: "a".into(),
    }
    .to_row_key()
    .unwrap()
    .to_vec();
    let mut bad = good.clone();
    bad[0] ^= 1; // wrong salt
    let read = Read::<Index>::new(Index::scan().ranges());
    let sources = vec![
        vec![Ok((good.clone(), 1u8))],
        vec![Ok((bad.clone(), 2))],
        vec![Err("disk on fire")],
    ];
    let out: Vec<_> = read
        .try_rows(sources.into_iter().map(Vec::into_iter))
        .collect();
    assert!(
        matches!(out[0], Err(ReadError::Store("disk on fire"))),
        "{out:?}"
    );
    assert!(matches!(&out[1], Ok((k, 1)) if k.id == "a"));
    match &out[2] {
        Err(ReadError::Decode { key, error }) => {
            assert_eq!(key, &bad);
            assert!(error.to_string().contains("salt"), "{error}");
        }
        other => panic!("{other:?}"),
    }
}
