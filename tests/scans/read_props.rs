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
    let all = vec![
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
    ];
    for (what, ranges) in &all {
        crate::common::ranges::assert_well_formed(what, ranges);
    }
    all
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
            read = read.after_key(l);
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

/// One call of the `Read` builder.
#[derive(Debug, Clone, Copy)]
enum Call {
    After,
    Reverse,
    Limit,
}

/// `read` with `calls` applied in the given order.
fn build(
    mut read: Read<Index>,
    calls: &[Call],
    after: Option<&[u8]>,
    reverse: bool,
    limit: Option<usize>,
) -> Read<Index> {
    for c in calls {
        read = match c {
            Call::After => match after {
                Some(a) => read.after_key(a),
                None => read,
            },
            Call::Reverse if reverse => read.reverse(),
            Call::Reverse => read,
            Call::Limit => match limit {
                Some(n) => read.limit(n),
                None => read,
            },
        };
    }
    read
}

/// Issue 23 item 3: a `Read`'s page does not depend on the order of its builder calls
/// (`after(k).reverse()` once cut the ranges for the forward direction and returned the wrong
/// page), a second `after` replaces the first, and a clone is built on independently — every
/// variant checked on redb and a `BTreeMap` against the brute-force page.
#[test]
fn builder_call_order_does_not_matter() {
    const ORDERS: [[Call; 3]; 6] = [
        [Call::After, Call::Reverse, Call::Limit],
        [Call::After, Call::Limit, Call::Reverse],
        [Call::Reverse, Call::After, Call::Limit],
        [Call::Reverse, Call::Limit, Call::After],
        [Call::Limit, Call::After, Call::Reverse],
        [Call::Limit, Call::Reverse, Call::After],
    ];
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 64,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strat = (
        proptest::collection::vec(key_strategy(), 0..50),
        0u32..6,
        -25i32..25,
        -25i32..25,
        // the resume key: none, a stored key (by index), or any key
        prop_oneof![
            Just(None),
            any::<prop::sample::Index>().prop_map(|i| Some(Err(i))),
            key_strategy().prop_map(|k| Some(Ok(k))),
        ],
        any::<bool>(),
        proptest::option::of(0usize..9),
        key_strategy(),
    );
    let checked = std::cell::Cell::new(0usize);
    runner
        .run(
            &strat,
            |(keys, user, a, b, after, reverse, limit, stale)| {
                let rows: BTreeMap<Vec<u8>, u64> = keys
                    .iter()
                    .enumerate()
                    .map(|(i, k)| (k.to_row_key().unwrap().to_vec(), i as u64))
                    .collect();
                let after: Option<Vec<u8>> = match after {
                    None => None,
                    Some(Ok(k)) => Some(k.to_row_key().unwrap().to_vec()),
                    Some(Err(_)) if rows.is_empty() => None,
                    Some(Err(i)) => rows.keys().nth(i.index(rows.len())).cloned(),
                };
                let stale = stale.to_row_key().unwrap().to_vec();
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

                let read_redb = |read: Read<Index>| -> Vec<(Vec<u8>, u64)> {
                    rowkey::read::redb::rows(&table, read)
                        .unwrap()
                        .map(|r| {
                            let (k, v) = r.unwrap();
                            (k.to_row_key().unwrap().to_vec(), v.value())
                        })
                        .collect()
                };
                let read_map = |read: Read<Index>| -> Vec<(Vec<u8>, u64)> {
                    let rev = read.is_reverse();
                    let sources: Vec<_> = read
                        .ranges()
                        .iter()
                        .map(|r| Directed::new(rows.range::<[u8], _>(r.bounds()), rev))
                        .collect();
                    read.rows(sources)
                        .map(|r| {
                            let (k, v) = r.unwrap();
                            (k.to_row_key().unwrap().to_vec(), *v)
                        })
                        .collect()
                };

                for (what, ranges) in scans(user, a.min(b), a.max(b)) {
                    // brute force: the scan's rows in the read's order, strictly after the
                    // resume key in that order, at most `limit` of them
                    let want: Vec<(Vec<u8>, u64)> = oracle(&rows, &ranges, reverse)
                        .into_iter()
                        .filter(|(k, _)| match &after {
                            None => true,
                            Some(a) if reverse => k[1..] < a[1..],
                            Some(a) => k[1..] > a[1..],
                        })
                        .take(limit.unwrap_or(usize::MAX))
                        .collect();
                    let new = || Read::<Index>::new(ranges.clone());
                    let mut variants: Vec<(String, Read<Index>)> = ORDERS
                        .iter()
                        .map(|o| {
                            (
                                format!("{o:?}"),
                                build(new(), o, after.as_deref(), reverse, limit),
                            )
                        })
                        .collect();
                    // a stale resume key first: the last `after` wins
                    if let Some(a) = &after {
                        variants.push((
                            "after(stale) then after(k)".into(),
                            build(
                                new().after_key(&stale),
                                &[Call::Reverse, Call::After, Call::Limit],
                                Some(a),
                                reverse,
                                limit,
                            ),
                        ));
                    }
                    // a clone, resumed and turned afterwards, next to the untouched original
                    let base = new().after_key(&stale);
                    let turned = build(
                        base.clone(),
                        &[Call::After, Call::Limit, Call::Reverse],
                        after.as_deref(),
                        reverse,
                        limit,
                    );
                    if after.is_some() {
                        variants.push(("clone".into(), turned));
                    }
                    let untouched: Vec<(Vec<u8>, u64)> = oracle(&rows, &ranges, false)
                        .into_iter()
                        .filter(|(k, _)| k[1..] > stale[1..])
                        .collect();
                    prop_assert_eq!(
                        read_map(base.clone()),
                        untouched.clone(),
                        "{} original",
                        what
                    );
                    prop_assert_eq!(read_redb(base), untouched, "{} original (redb)", what);

                    for (order, read) in variants {
                        prop_assert_eq!(read.resume_key(), after.as_deref(), "{}", order);
                        prop_assert_eq!(read.row_limit(), limit, "{}", order);
                        prop_assert_eq!(
                            &read_map(read.clone()),
                            &want,
                            "{} {} reverse={} limit={:?}",
                            what,
                            order,
                            reverse,
                            limit
                        );
                        prop_assert_eq!(
                            &read_redb(read),
                            &want,
                            "{} {} (redb) reverse={} limit={:?}",
                            what,
                            order,
                            reverse,
                            limit
                        );
                        checked.set(checked.get() + 2);
                    }
                }
                Ok(())
            },
        )
        .unwrap();
    assert!(checked.get() >= 64 * 5 * 6 * 2, "{} reads", checked.get());
}

/// The reported case: ids 0..10 over 4 buckets, the page of 3 before id 5, newest first.
#[test]
fn after_then_reverse_is_reverse_then_after() {
    #[derive(RowKey, Debug, PartialEq)]
    struct Job {
        #[salt(buckets = 4)]
        id: u32,
    }
    let rows: BTreeMap<Vec<u8>, ()> = (0..10)
        .map(|id| (Job { id }.to_row_key().unwrap().to_vec(), ()))
        .collect();
    let page = |read: Read<Job>| -> Vec<u32> {
        let sources: Vec<_> = read
            .ranges()
            .iter()
            .map(|r| Directed::new(rows.range::<[u8], _>(r.bounds()), read.is_reverse()))
            .collect();
        read.rows(sources).map(|r| r.unwrap().0.id).collect()
    };
    let k = Job { id: 5 }.to_row_key().unwrap();
    let all = || Read::<Job>::new(Job::scan().ranges());
    assert_eq!(page(all().after_key(&k).reverse().limit(3)), [4, 3, 2]);
    assert_eq!(page(all().reverse().after_key(&k).limit(3)), [4, 3, 2]);
    assert_eq!(page(all().limit(3).after_key(&k).reverse()), [4, 3, 2]);
}

/// `after` stays exact for a hand-made range whose start does not carry each row's salt (one
/// range over two buckets): cutting it after `salt(start) ++ key` leaves rows of the second
/// bucket that lie before the key, and the reader drops them.
#[test]
fn after_is_exact_for_a_range_over_several_buckets() {
    use rowkey::ScanRange;
    #[derive(RowKey, Debug, PartialEq)]
    struct Job {
        #[salt(buckets = 4)]
        id: u32,
    }
    let rows: BTreeMap<Vec<u8>, ()> = (0..40)
        .map(|id| (Job { id }.to_row_key().unwrap().to_vec(), ()))
        .collect();
    let two_buckets = ScanRanges::new(vec![ScanRange::new(b"\x00", Some(b"\x02"))]);
    let k = Job { id: 20 }.to_row_key().unwrap();
    for reverse in [false, true] {
        let mut read = Read::<Job>::new(two_buckets.clone()).after_key(&k);
        if reverse {
            read = read.reverse();
        }
        let sources: Vec<_> = read
            .ranges()
            .iter()
            .map(|r| Directed::new(rows.range::<[u8], _>(r.bounds()), reverse))
            .collect();
        let ids: Vec<u32> = read.rows(sources).map(|r| r.unwrap().0.id).collect();
        assert!(!ids.is_empty());
        assert!(
            ids.iter()
                .all(|&id| if reverse { id < 20 } else { id > 20 }),
            "reverse={reverse}: {ids:?}"
        );
    }
}
