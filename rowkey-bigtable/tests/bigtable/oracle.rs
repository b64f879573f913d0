//! Typed reads from the Cloud Bigtable emulator against a brute-force oracle.
//!
//! Six layouts — (1) salted prefix, (2) whole-key salt (every scan short of the full key fans
//! out over 16 buckets), (3) `hash_prefix`, (4) modulo time buckets, (5) no salt with a
//! fixed-width id that can be all `0xFF` (scans with no upper bound), (6) a constant prefix and a
//! 2-byte salt before a `#[rowkey(java)]` signed field and an `Option` — each written to its own
//! emulator table (pre-split at `T::split_points` where the layout has them) through `Batch`,
//! then queried with every builder form: equality prefixes of every length, `_range` on every
//! orderable field with all nine bound shapes (`a..b`, `a..=b`, `a..`, `..b`, `..=b`, `..`,
//! `(Excluded(a), Excluded(b))`, `(Excluded(a), Included(b))`, `(Excluded(a), Unbounded)`),
//! and `_starts_with` on every string/bytes field that has it. Values include `0x00`/`0x01`/
//! `0xFF` bytes, `host1`/`host12`-style prefix pairs, empty strings and extreme integers.
//!
//! For each query, the oracle filters the written keys with a predicate on the field values
//! (never with the scan ranges) and sorts them by the key after the salt (logical order):
//!
//! - the merged read (one `ReadRows` per range, concurrently) equals it, in order, and each
//!   row carries the value written for its key;
//! - every 2nd query: the reverse read equals it reversed;
//! - every 3rd query: the single-request read equals it in byte order;
//! - every 4th query: read in requests of 1–5 rows (plus one per 8 rows of the result; `chunk_rows`, each request continuing after
//!   the last key of the one before), merged or single-request, forward or reverse: the same;
//! - every 5th query: reading it in pages (`limit` + `after` the last key, `after` before or
//!   after `reverse`) gives it back whole.
//!
//! `QUERIES_PER_LAYOUT` × 6 layouts = 3,000 queries, then `IN_QUERIES_PER_LAYOUT` × 6 = 1,020
//! IN-list queries (`.field_in(values)` on a prefix of the fields, then a range or not: the
//! same checks), each checked.

use rowkey::plan::SplitPoints;
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::{Batch, Cell, Client};
use std::collections::HashMap;

#[path = "../../../tests/store_oracle/cases.rs"]
#[macro_use]
mod cases;
use cases::*;

const QUERIES_PER_LAYOUT: usize = 500;
/// IN-list queries per layout after the others (`Case::in_query`): 170 × 6 = 1,020.
const IN_QUERIES_PER_LAYOUT: usize = 170;

// ---------------------------------------------------------------------------------------------
// The runner

fn client() -> Client {
    let emulator = Emulator::shared().unwrap_or_else(|e| panic!("{e}"));
    Client::emulator(emulator.endpoint(), "oracle", "oracle").expect("emulator client")
}

struct Stats {
    queries: usize,
    in_lists: usize,
    fanned_out: usize,
    unbounded: usize,
    rows_checked: usize,
}

/// Write `rows` keys of `T`, run `QUERIES_PER_LAYOUT` queries, return what was checked.
async fn run<T: Case>(seed: u64, rows: usize) -> Stats {
    let client = client();
    let admin = client.admin().await.expect("admin");
    let splits = T::split_points(8).unwrap_or_default();
    admin
        .create_table(T::TABLE, &["f"], &splits)
        .await
        .expect("create table");
    let table = client.table(T::TABLE);
    let skip = T::LAYOUT.salt_end();

    let mut rng = Rng(seed);
    let mut written: HashMap<Vec<u8>, (usize, T)> = HashMap::new();
    let mut all: Vec<(Vec<u8>, T)> = Vec::new(); // in write order: the run is deterministic
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
    assert_eq!(batch.apply().await.expect("write"), written.len());
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
        // Equality values from a written key (4 in 5) or a fresh random one (often absent).
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
        let ctx = || {
            format!(
                "{} query {n}: {} {:?} ranges {:?}",
                T::TABLE,
                query.form,
                t,
                query.ranges
            )
        };

        // Merged, forward: exactly the oracle's rows, in logical order, with their values.
        let got = table
            .read::<T>(&query.ranges)
            .collect()
            .await
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
                .await
                .unwrap_or_else(|e| panic!("reverse {}: {e}", ctx()));
            let mut want_rev = want.clone();
            want_rev.reverse();
            assert_eq!(rev, want_rev, "reverse {}", ctx());
        }
        if n % 3 == 0 {
            let single = table
                .read::<T>(&query.ranges)
                .single_request()
                .keys()
                .await
                .unwrap_or_else(|e| panic!("single {}: {e}", ctx()));
            let mut by_bytes = expected.clone();
            by_bytes.sort_by(|a, b| a.0.cmp(&b.0));
            let want_bytes: Vec<T> = by_bytes.iter().map(|(_, k)| k.clone()).collect();
            assert_eq!(single, want_bytes, "single request {}", ctx());
        }
        if n % 4 == 1 {
            // small requests, each continuing after the last key of the one before
            let chunk = (1 + rng.below(5) + want.len() / 8) as u64;
            let reverse = n % 8 == 1;
            let single = n % 3 == 1;
            let mut read = table.read::<T>(&query.ranges).chunk_rows(chunk);
            if reverse {
                read = read.reverse();
            }
            if single {
                read = read.single_request();
            }
            let got = read
                .keys()
                .await
                .unwrap_or_else(|e| panic!("chunked {}: {e}", ctx()));
            let mut want_chunked: Vec<T> = if single {
                let mut by_bytes = expected.clone();
                by_bytes.sort_by(|a, b| a.0.cmp(&b.0));
                by_bytes.iter().map(|(_, k)| k.clone()).collect()
            } else {
                want.clone()
            };
            if reverse {
                want_chunked.reverse();
            }
            assert_eq!(
                got,
                want_chunked,
                "chunks of {chunk} (reverse {reverse}, single {single}) {}",
                ctx()
            );
        }
        if n % 5 == 0 {
            let page = 1 + want.len() / 3 + rng.below(3);
            let reverse = n % 10 == 0;
            let mut paged: Vec<T> = Vec::new();
            loop {
                // the options in either order: `after` applies to the final direction
                let reverse_first = rng.below(2) == 0;
                let mut read = table.read::<T>(&query.ranges).limit(page);
                if reverse && reverse_first {
                    read = read.reverse();
                }
                if let Some(last) = paged.last() {
                    read = read.after(last).expect("encode");
                }
                if reverse && !reverse_first {
                    read = read.reverse();
                }
                let got = read
                    .keys()
                    .await
                    .unwrap_or_else(|e| panic!("page {}: {e}", ctx()));
                assert!(got.len() <= page);
                let done = got.len() < page;
                paged.extend(got);
                if done {
                    break;
                }
            }
            let mut want_paged = want.clone();
            if reverse {
                want_paged.reverse();
            }
            assert_eq!(
                paged,
                want_paged,
                "pages of {page} (reverse: {reverse}) {}",
                ctx()
            );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn salted_prefix() {
    let s = run::<Salted>(1, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 50,
        "host_range / host_starts_with / all fan out over 8 buckets"
    );
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_key_salt() {
    let s = run::<Whole>(2, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 300,
        "every form short of the full key fans out"
    );
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hash_prefix() {
    let s = run::<Hashed>(3, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modulo_time_buckets() {
    let s = run::<Bucketed>(4, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(s.fanned_out > 30);
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsalted_all_ff_prefix() {
    let s = run::<Plain>(5, 1000).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    // `.id([0xFF, 0xFF])` and friends: ranges with no upper bound, and rows in them.
    assert!(
        s.unbounded > 5,
        "{} non-empty queries with an unbounded range",
        s.unbounded
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prefix_wide_salt_java_option() {
    let s = run::<Interop>(6, 1000).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT + IN_QUERIES_PER_LAYOUT);
    assert_eq!(s.in_lists, IN_QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 20,
        "java ranges across zero: two byte ranges"
    );
    assert!(s.rows_checked > 5_000, "{}", s.rows_checked);
}

/// The pairs the rowkey guides warn about, stated plainly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host1_is_not_host12() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table(
            "host1_host12",
            &["f"],
            &Salted::split_points(8).expect("splits"),
        )
        .await
        .expect("create");
    let table = client.table("host1_host12");
    let mut batch = Batch::new();
    for host in ["host1", "host12", "host1\u{0}", "host"] {
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
    batch.apply().await.expect("write");
    let hosts = |v: Vec<Salted>| v.into_iter().map(|k| k.host).collect::<Vec<_>>();
    let one = table
        .read::<Salted>(&Salted::scan().host("host1").ranges())
        .keys()
        .await
        .expect("read");
    assert_eq!(hosts(one), ["host1"; 3]);
    let starts = table
        .read::<Salted>(&Salted::scan().host_starts_with("host1").ranges())
        .keys()
        .await
        .expect("read");
    let mut h = hosts(starts);
    h.dedup();
    assert_eq!(
        h,
        ["host1", "host1\u{0}", "host12"],
        "logical order across buckets"
    );
    // all-0xFF prefix: no upper bound, and it still finds exactly its rows
    let ff = Plain::scan().id([0xFF, 0xFF]).ranges();
    assert_eq!(ff.iter().next().and_then(|r| r.stop()), None);
}

/// The emulator's own check: a single range can be asked with Bigtable's reversed flag only
/// because the client sends the `bigtable-features` header; the merged reverse read of a
/// fan-out must not collect (it returns the first row with a limit of one, whatever the size).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reverse_limit_one_across_buckets() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table("rev_one", &["f"], &Whole::split_points(16).expect("splits"))
        .await
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
    batch.apply().await.expect("write");
    let ranges = Whole::scan().user(b"u").ranges();
    assert_eq!(ranges.len(), 16);
    let newest = table
        .read::<Whole>(&ranges)
        .reverse()
        .limit(1)
        .keys()
        .await
        .expect("read");
    assert_eq!(newest.iter().map(|k| k.ts).collect::<Vec<_>>(), [199]);
    let oldest = table
        .read::<Whole>(&ranges)
        .limit(3)
        .keys()
        .await
        .expect("read");
    assert_eq!(oldest.iter().map(|k| k.ts).collect::<Vec<_>>(), [0, 1, 2]);
}
