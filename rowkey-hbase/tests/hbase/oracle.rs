//! Typed reads from a real HBase (standalone 2.6 and its Thrift2 gateway, started by the test)
//! against a brute-force oracle.
//!
//! The six layouts and their queries of the Bigtable oracle (`tests/store_oracle/cases.rs`:
//! salted prefix, whole-key salt fanned out over 16 buckets, `hash_prefix`, modulo time
//! buckets, no salt with an all-`0xFF` id, a constant prefix and a 2-byte salt before a
//! `#[rowkey(java)]` field and an `Option`; every builder form with all nine bound shapes;
//! keys holding `0x00`/`0x01`/`0xFF`, `host1`/`host12`), each written to its own HBase table
//! pre-split at `T::split_points` through `Batch`. For each query the oracle filters the
//! written keys with a predicate on the field values (never the scan ranges) and sorts them by
//! the key after the salt:
//!
//! - the merged read (a scanner per range, concurrently) equals it, in order, and each row
//!   carries the value written for its key;
//! - every 2nd query: the reverse read (reversed HBase scans) equals it reversed;
//! - every 3rd query: the sequential read (one connection, pages fetched as the merge needs
//!   them), forward or reverse, the same;
//! - every 4th query: pages of 1–5 rows from the server (`page_rows`), forward or reverse;
//! - every 5th query: reading it in pages (`limit` + `after` the last key), forward or reverse,
//!   with the builder calls in either order, gives it back whole.
//!
//! `QUERIES_PER_LAYOUT` × 6 layouts = 2,100 queries, then `IN_QUERIES_PER_LAYOUT` × 6 = 1,020
//! IN-list queries (`.field_in(values)` on a prefix of the fields, then a range or not: the
//! same checks), each checked.

use rowkey::plan::SplitPoints;
use std::collections::HashMap;

use rowkey_hbase::testkit::HBase;
use rowkey_hbase::{Batch, Cell, Client};

#[path = "../../../tests/store_oracle/cases.rs"]
#[macro_use]
mod cases;
use cases::*;

const QUERIES_PER_LAYOUT: usize = 350;
/// IN-list queries per layout after the others (`Case::in_query`): 170 × 6 = 1,020.
const IN_QUERIES_PER_LAYOUT: usize = 170;

fn client() -> Client {
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    Client::connect(hbase.thrift_addr()).expect("gateway client")
}

struct Stats {
    queries: usize,
    in_lists: usize,
    fanned_out: usize,
    unbounded: usize,
    rows_checked: usize,
}

/// Write `rows` keys of `T`, run `QUERIES_PER_LAYOUT` queries, return what was checked.
fn run<T: Case>(seed: u64, rows: usize) -> Stats {
    let client = client();
    let splits = T::split_points(8).unwrap_or_default();
    client
        .create_table(T::TABLE, &["f"], &splits)
        .expect("create table");
    let table = client.table(T::TABLE);
    assert_eq!(table.regions().expect("regions").len(), splits.len() + 1);
    let skip = T::LAYOUT.salt_end();

    let mut rng = Rng(seed);
    let mut written: HashMap<Vec<u8>, (usize, T)> = HashMap::new();
    let mut all: Vec<(Vec<u8>, T)> = Vec::new();
    let mut batch = Batch::new();
    for _ in 0..rows * 4 {
        if written.len() == rows {
            break;
        }
        let k = T::random(&mut rng);
        let bytes = k.to_row_key().expect("encode").to_vec();
        if written.contains_key(&bytes) {
            continue;
        }
        let i = written.len();
        batch.put_raw(&table, bytes.clone(), [Cell::new("f", "i", i.to_string())]);
        all.push((bytes.clone(), k.clone()));
        written.insert(bytes, (i, k));
    }
    assert_eq!(batch.apply().expect("write"), written.len());
    let keys: Vec<T> = all.iter().map(|(_, k)| k.clone()).collect();

    let mut stats = Stats {
        queries: 0,
        in_lists: 0,
        fanned_out: 0,
        unbounded: 0,
        rows_checked: 0,
    };
    let mut pool: Vec<T> = keys.iter().take(40).cloned().collect();
    pool.extend((0..8).map(|_| T::random(&mut rng)));
    for n in 0..QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT {
        let t = if rng.below(5) == 0 {
            T::random(&mut rng)
        } else {
            rng.pick(&keys)
        };
        let (lo, hi) = (T::random(&mut rng), T::random(&mut rng));
        let form = n % T::FORMS;
        let shape = SHAPES[(n / T::FORMS) % SHAPES.len()];
        let query = if n < QUERIES_PER_LAYOUT {
            T::query(form, shape, &t, &lo, &hi, &mut rng)
        } else {
            stats.in_lists += 1;
            T::in_query(&pool, shape, &lo, &hi, &mut rng)
        };

        let mut expected: Vec<&(Vec<u8>, T)> =
            all.iter().filter(|(_, k)| (query.pred)(k)).collect();
        expected.sort_by(|a, b| a.0[skip..].cmp(&b.0[skip..]));
        let want: Vec<T> = expected.iter().map(|(_, k)| k.clone()).collect();
        let mut want_rev = want.clone();
        want_rev.reverse();
        let ctx = || {
            format!(
                "{} query {n}: {} {:?} ranges {:?}",
                T::TABLE,
                query.form,
                t,
                query.ranges
            )
        };

        let got = table
            .read::<T>(&query.ranges)
            .collect()
            .unwrap_or_else(|e| panic!("{}: {e}", ctx()));
        for (k, row) in &got {
            let (i, _) = &written[&row.key];
            assert_eq!(
                row.value("f", b"i"),
                Some(i.to_string().as_bytes()),
                "{}",
                ctx()
            );
            assert_eq!(k.to_row_key().expect("encode").as_ref(), row.key.as_slice());
        }
        let got: Vec<T> = got.into_iter().map(|(k, _)| k).collect();
        assert_eq!(got, want, "{}", ctx());
        stats.queries += 1;
        stats.rows_checked += got.len();
        stats.fanned_out += usize::from(query.ranges.len() > 1);
        stats.unbounded += usize::from(
            !want.is_empty()
                && query
                    .ranges
                    .iter()
                    .any(|r| r.stop().is_none() && !r.start().is_empty()),
        );

        if n % 2 == 0 {
            let rev = table
                .read::<T>(&query.ranges)
                .reverse()
                .keys()
                .unwrap_or_else(|e| panic!("reverse {}: {e}", ctx()));
            assert_eq!(rev, want_rev, "reverse {}", ctx());
        }
        if n % 3 == 0 {
            let reverse = n % 2 == 1;
            let mut read = table.read::<T>(&query.ranges).sequential();
            if reverse {
                read = read.reverse();
            }
            let got = read
                .keys()
                .unwrap_or_else(|e| panic!("sequential {}: {e}", ctx()));
            let w = if reverse { &want_rev } else { &want };
            assert_eq!(&got, w, "sequential (reverse {reverse}) {}", ctx());
        }
        if n % 4 == 1 {
            let page = 1 + rng.below(5);
            let reverse = n % 8 == 1;
            let mut read = table.read::<T>(&query.ranges).page_rows(page);
            if reverse {
                read = read.reverse();
            }
            let got = read
                .keys()
                .unwrap_or_else(|e| panic!("pages {}: {e}", ctx()));
            let w = if reverse { &want_rev } else { &want };
            assert_eq!(
                &got,
                w,
                "server pages of {page} (reverse {reverse}) {}",
                ctx()
            );
        }
        if n % 5 == 0 {
            let page = 1 + want.len() / 3 + rng.below(3);
            let reverse = n % 10 == 0;
            let mut paged: Vec<T> = Vec::new();
            loop {
                let mut read = table.read::<T>(&query.ranges).limit(page);
                // resume before or after choosing the direction: the same read
                if let Some(last) = paged.last() {
                    read = read.after(last).expect("encode");
                }
                if reverse {
                    read = read.reverse();
                }
                let got = read
                    .keys()
                    .unwrap_or_else(|e| panic!("page {}: {e}", ctx()));
                assert!(got.len() <= page);
                let done = got.len() < page;
                paged.extend(got);
                if done {
                    break;
                }
            }
            let w = if reverse { &want_rev } else { &want };
            assert_eq!(&paged, w, "pages of {page} (reverse: {reverse}) {}", ctx());
        }
    }
    eprintln!(
        "{}: {} queries ({} IN-lists, {} fanned out, {} non-empty with an unbounded range), {} rows checked",
        T::TABLE,
        stats.queries,
        stats.in_lists,
        stats.fanned_out,
        stats.unbounded,
        stats.rows_checked
    );
    stats
}

#[test]
fn salted_prefix() {
    let s = run::<Salted>(1, 1000);
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 30,
        "host_range / host_starts_with / all fan out over 8 buckets"
    );
    assert!(s.rows_checked > 5_000, "{}", s.rows_checked);
}

#[test]
fn whole_key_salt() {
    let s = run::<Whole>(2, 1000);
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 200,
        "every form short of the full key fans out"
    );
    assert!(s.rows_checked > 5_000, "{}", s.rows_checked);
}

#[test]
fn hash_prefix() {
    let s = run::<Hashed>(3, 1000);
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(s.rows_checked > 5_000, "{}", s.rows_checked);
}

#[test]
fn modulo_time_buckets() {
    let s = run::<Bucketed>(4, 1000);
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(s.fanned_out > 20);
    assert!(s.rows_checked > 5_000, "{}", s.rows_checked);
}

#[test]
fn unsalted_all_ff_prefix() {
    let s = run::<Plain>(5, 800);
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.unbounded > 5,
        "{} non-empty queries with an unbounded range",
        s.unbounded
    );
}

#[test]
fn prefix_wide_salt_java_option() {
    let s = run::<Interop>(6, 800);
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 15,
        "java ranges across zero: two byte ranges"
    );
    assert!(s.rows_checked > 3_000, "{}", s.rows_checked);
}

/// The pairs the rowkey guides warn about, stated plainly.
#[test]
fn host1_is_not_host12() {
    let client = client();
    client
        .create_table(
            "host1_host12",
            &["f"],
            &Salted::split_points(8).expect("splits"),
        )
        .expect("create");
    let table = client.table("host1_host12");
    let mut batch = Batch::new();
    for host in ["host1", "host12", "host1\u{0}", "host", "host1'"] {
        for ts in 0..3 {
            let k = Salted {
                host: host.into(),
                data: vec![0xFF, 0x00, 0x01],
                ts,
            };
            batch
                .put(&table, &k, [Cell::new("f", "i", "")])
                .expect("put");
        }
    }
    batch.apply().expect("write");
    let hosts = |v: Vec<Salted>| v.into_iter().map(|k| k.host).collect::<Vec<_>>();
    let one = table
        .read::<Salted>(&Salted::scan().host("host1").ranges())
        .keys()
        .expect("read");
    assert_eq!(hosts(one), ["host1"; 3]);
    let starts = table
        .read::<Salted>(&Salted::scan().host_starts_with("host1").ranges())
        .keys()
        .expect("read");
    let mut h = hosts(starts);
    h.dedup();
    assert_eq!(
        h,
        ["host1", "host1\u{0}", "host1'", "host12"],
        "logical order across buckets"
    );
    // a reversed scan whose lower bound holds a quote: the filter language quotes it
    let rev = table
        .read::<Salted>(&Salted::scan().host("host1'").ranges())
        .reverse()
        .keys()
        .expect("read");
    assert_eq!(rev.iter().map(|k| k.ts).collect::<Vec<_>>(), [2, 1, 0]);
}

/// A fan-out read with a limit of one returns the newest row across 16 buckets.
#[test]
fn reverse_limit_one_across_buckets() {
    let client = client();
    client
        .create_table("rev_one", &["f"], &Whole::split_points(16).expect("splits"))
        .expect("create");
    let table = client.table("rev_one");
    let mut batch = Batch::new();
    for ts in 0..200u64 {
        let k = Whole {
            user: b"u".to_vec(),
            kind: 1,
            ts,
        };
        batch
            .put(&table, &k, [Cell::new("f", "i", "")])
            .expect("put");
    }
    batch.apply().expect("write");
    let ranges = Whole::scan().user(b"u").ranges();
    assert_eq!(ranges.len(), 16);
    let newest = table
        .read::<Whole>(&ranges)
        .reverse()
        .limit(1)
        .keys()
        .expect("read");
    assert_eq!(newest.iter().map(|k| k.ts).collect::<Vec<_>>(), [199]);
    let oldest = table.read::<Whole>(&ranges).limit(3).keys().expect("read");
    assert_eq!(oldest.iter().map(|k| k.ts).collect::<Vec<_>>(), [0, 1, 2]);
}
