//! Reads that hold up in production, on the live server: IN-lists of 5,000 values on an
//! unsalted and an 8-bucket salted table against brute force (forward, reverse, limit,
//! `after`, keys only, typed filters, a filter string, small request budgets, one stream);
//! reversed `MultiRowRangeFilter` scans; a 40,000-range read within its connection bound; a
//! client idle past the gateway's idle timeout; a gateway restarted in the middle of a read.

use rowkey::plan::SplitPoints;
use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rowkey::RowKey;
use rowkey_hbase::filter::{Comparator, CompareOp, Filter};
use rowkey_hbase::{Batch, Cell, Client, Error, GatewayConfig, Table};

use super::{client, hbase};

/// Phoenix's `(tenant VARCHAR, device BIGINT, ts BIGINT)` primary key, unsalted.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Metric {
    #[sep]
    tenant: String,
    device: i64,
    ts: i64,
}

/// The same key with `SALT_BUCKETS = 8` (the salt hashes the whole key).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 8))]
struct Salted {
    #[sep]
    tenant: String,
    device: i64,
    ts: i64,
}

/// What the tests need of both key types.
trait Key: RowKey + rowkey::DecodeRowKeyOwned + Clone + PartialEq + std::fmt::Debug + 'static {
    fn new(tenant: &str, device: i64, ts: i64) -> Self;
    fn device(&self) -> i64;
    fn ranges(devices: &[i64]) -> rowkey::ScanRanges;
}

impl Key for Metric {
    fn new(tenant: &str, device: i64, ts: i64) -> Self {
        Metric {
            tenant: tenant.into(),
            device,
            ts,
        }
    }
    fn device(&self) -> i64 {
        self.device
    }
    fn ranges(devices: &[i64]) -> rowkey::ScanRanges {
        Metric::scan()
            .tenant("t1")
            .device_in(devices)
            .expect("an IN-list")
            .ranges()
    }
}

impl Key for Salted {
    fn new(tenant: &str, device: i64, ts: i64) -> Self {
        Salted {
            tenant: tenant.into(),
            device,
            ts,
        }
    }
    fn device(&self) -> i64 {
        self.device
    }
    fn ranges(devices: &[i64]) -> rowkey::ScanRanges {
        Salted::scan()
            .tenant("t1")
            .device_in(devices)
            .expect("an IN-list")
            .ranges()
    }
}

const DEVICES: i64 = 10_000;

/// The value of `m:v` of a device's rows.
fn level(device: i64) -> String {
    (device % 3).to_string()
}

/// Fill `name` with t1's devices 0..10,000 at two times each and 2,000 rows of t2; return
/// every key written.
fn fill<K: Key>(client: &Client, name: &str) -> Vec<K> {
    if client.table_exists(name).expect("exists") {
        client.delete_table(name).expect("drop");
    }
    client
        .create_table(name, &["m"], &K::split_points(8).unwrap_or_default())
        .expect("create");
    let table = client.table(name);
    let mut keys = Vec::new();
    for d in 0..DEVICES {
        for ts in [1_700_000_000_000, 1_700_000_060_000] {
            keys.push(K::new("t1", d, ts));
        }
    }
    for d in 0..2000 {
        keys.push(K::new("t2", d, 5));
    }
    for chunk in keys.chunks(4000) {
        let mut batch = Batch::new();
        for k in chunk {
            batch
                .put(&table, k, [Cell::new("m", "v", level(k.device()))])
                .expect("encode");
        }
        batch.apply().expect("write");
    }
    keys
}

/// The unsalted table `reads_unsalted`, filled once for the whole binary.
fn unsalted() -> &'static [Metric] {
    static KEYS: OnceLock<Vec<Metric>> = OnceLock::new();
    KEYS.get_or_init(|| fill(&client(), "reads_unsalted"))
}

/// The salted table `reads_salted`, filled once for the whole binary.
fn salted() -> &'static [Salted] {
    static KEYS: OnceLock<Vec<Salted>> = OnceLock::new();
    KEYS.get_or_init(|| fill(&client(), "reads_salted"))
}

/// `n` distinct even devices out of 0..15,000 (a third of them never written), in no order.
fn in_list(seed: u64, n: usize) -> Vec<i64> {
    let mut x = seed;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // even devices only: no two listed devices are adjacent keys, so each is a range of
        // its own (the scan builder joins the ranges of consecutive values)
        let d = 2 * i64::try_from(x % 7_500).unwrap_or(0);
        if seen.insert(d) {
            out.push(d);
        }
    }
    out
}

/// Brute force: the keys of t1 whose device is listed, in logical order (the bytes after the
/// salt), descending when `reverse`.
fn expected<K: Key>(all: &[K], devices: &[i64], reverse: bool) -> Vec<K> {
    let wanted: HashSet<i64> = devices.iter().copied().collect();
    let skip = K::LAYOUT.salt_end();
    let mut keys: Vec<(Vec<u8>, K)> = all
        .iter()
        .filter(|k| wanted.contains(&k.device()))
        .filter(|k| {
            // tenant t1: the key's first field after the salt
            k.to_row_key().expect("encode").get(skip..skip + 3) == Some(&b"t1\0"[..])
        })
        .map(|k| (k.to_row_key().expect("encode")[skip..].to_vec(), k.clone()))
        .collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    if reverse {
        keys.reverse();
    }
    keys.into_iter().map(|(_, k)| k).collect()
}

/// Every key of a read; any error item fails the test.
fn keys_of<K: Key>(read: &rowkey_hbase::Read<K>) -> Vec<K> {
    read.rows()
        .expect("rows")
        .map(|r| {
            r.map(|(k, _)| k)
                .unwrap_or_else(|e| panic!("error item: {e}"))
        })
        .collect()
}

fn check_in_lists<K: Key>(name: &str, all: &[K]) {
    let client = client();
    let table = client.table(name);
    let devices = in_list(0x9E37_79B9_7F4A_7C15, 5000);
    let ranges = K::ranges(&devices);
    let salted = K::LAYOUT.salt_end() > 0;
    assert_eq!(ranges.len(), if salted { 40_000 } else { 5000 }, "{name}");
    let fwd = expected(all, &devices, false);
    let rev = expected(all, &devices, true);
    assert!(fwd.len() > 6000, "{name}: {} rows listed", fwd.len());
    let read = || table.read::<K>(&ranges);

    // one scanner per salt bucket
    let scanners = read().scanners();
    assert_eq!(scanners.len(), if salted { 8 } else { 1 }, "{name}");
    assert!(
        scanners.iter().all(|g| g.len() == 1),
        "{name}: within the default budget"
    );

    let started = Instant::now();
    assert_eq!(keys_of(&read().keys_only()), fwd, "{name}: forward");
    eprintln!(
        "{name}: {} ranges, {} rows in {:?}",
        ranges.len(),
        fwd.len(),
        started.elapsed()
    );
    // reversed MultiRowRangeFilter scans, proved on the server
    assert_eq!(
        keys_of(&read().keys_only().reverse()),
        rev,
        "{name}: reverse"
    );
    // limits and pages
    assert_eq!(keys_of(&read().limit(777)), fwd[..777], "{name}: limit");
    assert_eq!(
        keys_of(&read().reverse().limit(777)),
        rev[..777],
        "{name}: reverse limit"
    );
    let after = read().after(&fwd[2000]).expect("after").limit(500);
    assert_eq!(keys_of(&after), fwd[2001..2501], "{name}: after");
    let after = read()
        .reverse()
        .after(&rev[2000])
        .expect("after")
        .limit(500);
    assert_eq!(keys_of(&after), rev[2001..2501], "{name}: reverse after");
    // small pages, one stream on the caller's thread, several scanners per group
    assert_eq!(
        keys_of(&read().page_rows(7).keys_only()),
        fwd,
        "{name}: pages of 7"
    );
    assert_eq!(keys_of(&read().sequential()), fwd, "{name}: one stream");
    let small = read().max_request_bytes(4096);
    assert!(small.scanners().iter().all(|g| g.len() > 10), "{name}");
    assert_eq!(keys_of(&small), fwd, "{name}: budget of 4 KiB");
    assert_eq!(
        keys_of(&small.clone().reverse().limit(3000)),
        rev[..3000],
        "{name}: budget of 4 KiB, reverse"
    );

    // typed filters go into the same FilterList as the ranges
    let ones: Vec<K> = fwd
        .iter()
        .filter(|k| k.device() % 3 == 1)
        .cloned()
        .collect();
    let filtered = read().with_filter(
        Filter::single_column_value(
            "m",
            b"v",
            CompareOp::Equal,
            Comparator::Binary(b"1".to_vec()),
        )
        .if_missing_drop(),
    );
    let rows: Vec<(K, rowkey_hbase::Row)> = filtered.collect().expect("filtered");
    assert_eq!(
        rows.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
        ones,
        "{name}: typed filter"
    );
    assert!(rows
        .iter()
        .all(|(k, r)| r.value("m", b"v") == Some(level(k.device()).as_bytes())));
    let reversed_filtered: Vec<K> = keys_of(&filtered.clone().reverse());
    assert_eq!(
        reversed_filtered,
        ones.iter().rev().cloned().collect::<Vec<_>>(),
        "{name}: typed filter, reverse"
    );
    let not_two = read().families(&["m"]).with_filter(Filter::Value(
        CompareOp::NotEqual,
        Comparator::Binary(b"2".to_vec()),
    ));
    let kept: Vec<K> = fwd
        .iter()
        .filter(|k| k.device() % 3 != 2)
        .cloned()
        .collect();
    assert_eq!(keys_of(&not_two), kept, "{name}: value filter");

    // a filter string: one scanner per range, still exact
    let few = &devices[..150];
    let few_ranges = K::ranges(few);
    let text = table
        .read::<K>(&few_ranges)
        .filter("SingleColumnValueFilter('m', 'v', =, 'binary:1', true, true)");
    assert_eq!(
        text.scanners().iter().map(Vec::len).sum::<usize>(),
        few_ranges.len()
    );
    let want: Vec<K> = expected(all, few, false)
        .into_iter()
        .filter(|k| k.device() % 3 == 1)
        .collect();
    assert_eq!(keys_of(&text), want, "{name}: filter string");
    assert!(matches!(
        text.with_filter(Filter::ColumnPrefix(b"v".to_vec())).rows(),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn in_lists_of_5000_values_unsalted_against_brute_force() {
    check_in_lists::<Metric>("reads_unsalted", unsalted());
}

#[test]
fn in_lists_of_5000_values_salted_8_against_brute_force() {
    check_in_lists::<Salted>("reads_salted", salted());
}

/// Established client connections of this process to `port` (from /proc/net/tcp).
fn connections_to(port: u16) -> usize {
    let text = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    let port = format!("{port:04X}");
    text.lines()
        .skip(1)
        .filter(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            cols.get(2)
                .is_some_and(|r| r.ends_with(&format!(":{port}")))
                && cols.get(3) == Some(&"01")
        })
        .count()
}

/// Threads of this process named for reads.
fn read_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|t| {
                    std::fs::read_to_string(t.path().join("comm"))
                        .is_ok_and(|c| c.starts_with("rowkey-hbase-re"))
                })
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_40000_range_read_stays_within_its_connection_bound() {
    // a gateway of its own, so that only this test's connections go to its port
    let gateway = hbase().gateway().expect("a gateway");
    let port = gateway.addr().port();
    salted();
    let c = Client::connect(gateway.addr()).expect("connect");
    let table: Table = c.table("reads_salted");
    let devices = in_list(7, 5000);
    let ranges = Salted::ranges(&devices);
    assert_eq!(ranges.len(), 40_000);
    for streams in [1usize, 3] {
        let before = connections_to(port);
        let mut peak = 0;
        let mut threads = 0;
        let mut n = 0;
        for row in table
            .read::<Salted>(&ranges)
            .streams(streams)
            .page_rows(100)
            .keys_only()
            .rows()
            .expect("rows")
        {
            row.expect("no error item");
            n += 1;
            if n % 200 == 1 {
                peak = peak.max(connections_to(port));
                threads = threads.max(read_threads());
            }
        }
        assert!(n > 6000, "{n}");
        // the client's one connection from `connect`, plus at most one per stream
        assert!(
            peak <= before.max(1) + streams,
            "streams {streams}: {peak} connections (before: {before})"
        );
        // other tests of this binary run reads too: the read's own threads are at most
        // `streams` (none with one stream), whatever else runs
        assert!(threads >= if streams > 1 { streams } else { 0 });
        eprintln!("streams {streams}: {n} rows, peak {peak} connections to the gateway");
    }
}

#[test]
fn a_client_idle_past_the_gateway_timeout_reads_cleanly_at_once() {
    // a gateway that closes connections idle for 1.5 s
    let gateway = hbase()
        .gateway_with(&[("hbase.thrift.server.socket.read.timeout", "1500")])
        .expect("a gateway with a short idle timeout");
    salted();
    let c = Client::connect(gateway.addr()).expect("connect");
    let name = "reads_salted";
    let table = c.table(name);
    let devices = in_list(11, 300);
    let ranges = Salted::ranges(&devices);
    let want = keys_of(&table.read::<Salted>(&ranges).keys_only());
    assert!(want.len() > 300);
    for round in 0..2i64 {
        // every pooled connection (the read's 8 streams gave theirs back) is now closed by
        // the gateway
        std::thread::sleep(Duration::from_millis(2500));
        assert!(c.table_exists(name).expect("table_exists after idling"));
        std::thread::sleep(Duration::from_millis(2500));
        let got = keys_of(&table.read::<Salted>(&ranges).keys_only());
        assert_eq!(got, want, "round {round}: the read after idling");
        std::thread::sleep(Duration::from_millis(2500));
        // a put with server time is never sent twice: the stale connection is noticed
        // before it is used
        let mut batch = Batch::new();
        batch
            .put(
                &table,
                &Salted::new("t9", round, 1),
                [Cell::new("m", "v", "x")],
            )
            .expect("encode");
        batch.apply().expect("a write after idling");
    }
}

#[test]
fn a_gateway_restarted_mid_read_resumes_without_duplicates_or_gaps() {
    let gateway = hbase().gateway().expect("a gateway");
    let c = Client::connect(gateway.addr())
        .expect("connect")
        .with_timeout(Duration::from_secs(30))
        .with_retry_for(Duration::from_secs(120));
    salted();
    let name = "reads_salted";
    let table = c.table(name);
    let ranges = Salted::ranges(&in_list(5, 3000));
    for (streams, reverse) in [(8, false), (1, true)] {
        let mut read = table.read::<Salted>(&ranges).page_rows(50).streams(streams);
        if reverse {
            read = read.reverse();
        }
        let want = keys_of(&read);
        assert!(want.len() > 3000);
        let mut got = Vec::with_capacity(want.len());
        std::thread::scope(|s| {
            let mut restart = None;
            for row in read.rows().expect("rows") {
                let (k, _) = row.unwrap_or_else(|e| {
                    panic!(
                        "streams {streams} reverse {reverse}: error item after {} rows: {e}",
                        got.len()
                    )
                });
                got.push(k);
                if got.len() == 1000 {
                    gateway.kill();
                    restart = Some(s.spawn(|| gateway.restart_same_port()));
                }
            }
            restart
                .expect("killed mid-read")
                .join()
                .expect("restart thread")
                .expect("restart");
        });
        assert_eq!(got.len(), want.len(), "streams {streams} reverse {reverse}");
        assert!(
            got == want,
            "streams {streams} reverse {reverse}: rows differ"
        );
        eprintln!(
            "streams {streams} reverse {reverse}: {} rows across a gateway restart",
            got.len()
        );
    }
}

/// What a read under faults returned against what it should have: rows twice, rows missing,
/// rows out of order.
fn differences<K: Key>(got: &[K], want: &[K]) -> String {
    let enc = |k: &K| k.to_row_key().expect("encode").to_vec();
    let want_set: HashSet<Vec<u8>> = want.iter().map(enc).collect();
    let mut seen = HashSet::new();
    let duplicates = got.iter().filter(|k| !seen.insert(enc(k))).count();
    let missing = want_set.iter().filter(|k| !seen.contains(*k)).count();
    let foreign = seen.iter().filter(|k| !want_set.contains(*k)).count();
    format!(
        "{} rows of {}: {duplicates} twice, {missing} missing, {foreign} not asked for, \
         in order: {}",
        got.len(),
        want.len(),
        got == want
    )
}

/// Issue 49's first defect, the way it failed: a gateway **started fresh** (its scanner ids
/// count from 1, so the ids before and after its restart are the same small numbers), a read of
/// eight salt buckets (eight scanners open at once) with small pages, the gateway killed and
/// restarted on the same port in the middle — every `streams(n)`, both directions, and the
/// stateless HTTP mode. The expected rows come from brute force, never through the gateway
/// under test (which would raise its ids). A scanner opened before the restart must never be
/// continued by its id: every row exactly once, in order, no error item.
#[test]
fn a_fresh_gateway_restarted_mid_read_never_continues_another_scanner() {
    let all = salted();
    let devices = in_list(49, 3000);
    let ranges = Salted::ranges(&devices);
    let socket = hbase().gateway().expect("a gateway");
    let http = hbase()
        .gateway_with(&[("hbase.regionserver.thrift.http", "true")])
        .expect("a gateway in HTTP mode");
    let http_url = format!("http://{}/", http.addr());
    let mut cases = Vec::new();
    for reverse in [false, true] {
        for streams in [1, 2, 4, 8] {
            cases.push((false, streams, reverse));
        }
        cases.push((true, 4, reverse));
    }
    for (in_http, streams, reverse) in cases {
        let (gateway, config) = if in_http {
            (&http, GatewayConfig::http(&http_url).expect("url"))
        } else {
            (&socket, GatewayConfig::socket(socket.addr()).expect("addr"))
        };
        let client = Client::connect_to(config)
            .expect("connect")
            .with_timeout(Duration::from_secs(30))
            .with_retry_for(Duration::from_secs(120));
        let table = client.table("reads_salted");
        let want = expected(all, &devices, reverse);
        assert!(want.len() > 3000);
        let mut read = table.read::<Salted>(&ranges).page_rows(50).streams(streams);
        if reverse {
            read = read.reverse();
        }
        let case = format!("http {in_http} streams {streams} reverse {reverse}");
        let mut got = Vec::with_capacity(want.len());
        let mut errors = Vec::new();
        std::thread::scope(|s| {
            let mut restart = None;
            for row in read.rows().expect("rows") {
                match row {
                    Ok((k, _)) => got.push(k),
                    Err(e) => errors.push(format!("after {} rows: {e}", got.len())),
                }
                if got.len() == 400 && restart.is_none() {
                    gateway.kill();
                    restart = Some(s.spawn(|| gateway.restart_same_port()));
                }
            }
            restart
                .expect("killed mid-read")
                .join()
                .expect("restart thread")
                .expect("restart");
        });
        assert!(errors.is_empty(), "{case}: error items {errors:?}");
        assert!(got == want, "{case}: {}", differences(&got, &want));
        eprintln!(
            "{case}: {} rows across the restart of a fresh gateway",
            got.len()
        );
    }
}

/// Every typed filter and comparator the API offers, on the server, against brute force: a
/// wrong class name or field would be refused by the gateway or return other rows.
#[test]
fn every_typed_filter_against_brute_force() {
    let all = salted();
    let c = client();
    let table = c.table("reads_salted");
    let devices = in_list(23, 300);
    let ranges = Salted::ranges(&devices);
    let listed = expected(all, &devices, false);
    let first_bucket = listed[0].to_row_key().expect("encode")[0];
    let in_bucket = move |k: &Salted| k.to_row_key().expect("encode")[0] == first_bucket;
    let bin = |b: &[u8]| Comparator::Binary(b.to_vec());
    type Keeps = Box<dyn Fn(&Salted) -> bool>;
    let cases: Vec<(&str, Filter, Keeps)> = vec![
        (
            "qualifier v",
            Filter::Qualifier(CompareOp::Equal, bin(b"v")),
            Box::new(|_| true),
        ),
        (
            "qualifier x",
            Filter::Qualifier(CompareOp::Equal, bin(b"x")),
            Box::new(|_| false),
        ),
        (
            "family m",
            Filter::Family(CompareOp::Equal, bin(b"m")),
            Box::new(|_| true),
        ),
        (
            "family >= n",
            Filter::Family(CompareOp::GreaterOrEqual, bin(b"n")),
            Box::new(|_| false),
        ),
        (
            "row prefix",
            Filter::Row(
                CompareOp::Equal,
                Comparator::BinaryPrefix(vec![first_bucket]),
            ),
            Box::new(move |k| in_bucket(k)),
        ),
        (
            "column prefix",
            Filter::ColumnPrefix(b"v".to_vec()),
            Box::new(|_| true),
        ),
        (
            "multiple column prefixes",
            Filter::MultipleColumnPrefix(vec![b"x".to_vec(), b"v".to_vec()]),
            Box::new(|_| true),
        ),
        (
            "timestamps",
            Filter::Timestamps(vec![1, 2]),
            Box::new(|_| false),
        ),
        (
            "value substring",
            Filter::Value(CompareOp::Equal, Comparator::Substring("1".into())),
            Box::new(|k| k.device() % 3 == 1),
        ),
        (
            "value regex",
            Filter::Value(CompareOp::Equal, Comparator::Regex("^[12]$".into())),
            Box::new(|k| k.device() % 3 != 0),
        ),
        (
            "value < 1",
            Filter::Value(CompareOp::Less, bin(b"1")),
            Box::new(|k| k.device() % 3 == 0),
        ),
        (
            "value <= 1",
            Filter::Value(CompareOp::LessOrEqual, bin(b"1")),
            Box::new(|k| k.device() % 3 <= 1),
        ),
        (
            "value > 1",
            Filter::Value(CompareOp::Greater, bin(b"1")),
            Box::new(|k| k.device() % 3 == 2),
        ),
        (
            "any of two",
            Filter::any([
                Filter::Value(CompareOp::Equal, bin(b"0")),
                Filter::Value(CompareOp::Equal, bin(b"2")),
            ]),
            Box::new(|k| k.device() % 3 != 1),
        ),
        (
            "all of two",
            Filter::all([
                Filter::Value(CompareOp::NotEqual, bin(b"0")),
                Filter::single_column_value("m", b"v", CompareOp::NotEqual, bin(b"2")),
            ]),
            Box::new(|k| k.device() % 3 == 1),
        ),
        (
            "single column value, latest version, rows without it kept",
            Filter::SingleColumnValue {
                family: b"m".to_vec(),
                qualifier: b"w".to_vec(),
                op: CompareOp::Equal,
                comparator: bin(b"1"),
                filter_if_missing: false,
                latest_version_only: true,
            },
            Box::new(|_| true),
        ),
    ];
    for (what, filter, keeps) in cases {
        let want: Vec<Salted> = listed.iter().filter(|k| keeps(k)).cloned().collect();
        let got = keys_of(&table.read::<Salted>(&ranges).with_filter(filter.clone()));
        assert_eq!(got, want, "{what}");
        let rev = keys_of(&table.read::<Salted>(&ranges).with_filter(filter).reverse());
        assert_eq!(
            rev,
            want.iter().rev().cloned().collect::<Vec<_>>(),
            "{what}, reverse"
        );
    }
}
