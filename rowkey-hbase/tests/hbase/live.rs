//! rowkey-hbase against a real HBase (standalone 2.6 and its Thrift2 gateway, started by this
//! test binary): per-entry write failures, pre-split tables and the live region view, a
//! gateway killed in the middle of a merged read and of a migration, the classic
//! HexStringSplit import experiment counted in the server's own regions, and reads that hold
//! up in production ([`reads`]: multi-range scanners, bounded fan-out, idle and restarted
//! gateways), batches across an unavailable region ([`writes`]).

use rowkey::plan::SplitPoints;
use std::time::Duration;

use rowkey::migrate::Migration;
use rowkey::{plan, RowKey};
use rowkey_hbase::load::{load_map, per_server, LoadSample, LoadSampler};
use rowkey_hbase::store::HBaseStore;
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::{Batch, Cell, Client, Error};

#[path = "../common/bulk_experiment.rs"]
mod bulk_experiment;
#[path = "live/reads.rs"]
mod reads;
#[path = "live/writes.rs"]
mod writes;

use bulk_experiment::{ByHash, ByTail};

fn hbase() -> &'static HBase {
    HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"))
}

fn client() -> Client {
    Client::connect(hbase().thrift_addr()).expect("gateway client")
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
struct Event {
    #[sep]
    user: String,
    seq: u32,
}

#[test]
fn connect_to_nothing_is_an_error() {
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port");
    match Client::connect(free) {
        Err(Error::Connection(e)) => {
            assert!(e.message().contains("connecting"), "{e}");
            assert_eq!(e.kind(), rowkey_hbase::ConnectionKind::Refused, "{e}");
            assert!(
                std::error::Error::source(&e).is_some(),
                "the I/O error is the source"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn write_failures_are_reported_per_entry() {
    let client = client();
    client.create_table("wf", &["f"], &[]).expect("create");
    client
        .create_table("wf_disabled", &["f"], &[])
        .expect("create");
    client.disable_table("wf_disabled").expect("disable");
    let ok = client.table("wf");
    let missing = client.table("wf_no_such_table");
    let disabled = client.table("wf_disabled");
    let key = |i: u32| Event {
        user: format!("u{i}"),
        seq: i,
    };

    let mut batch = Batch::new();
    batch
        .put(&ok, &key(0), [Cell::new("f", "v", "0")])
        .expect("encode");
    batch
        .put(&missing, &key(1), [Cell::new("f", "v", "1")])
        .expect("encode");
    batch
        .put(&ok, &key(2), [Cell::new("no_such_family", "v", "2")])
        .expect("encode");
    batch
        .put(&ok, &key(3), [Cell::new("f", "v", "3")])
        .expect("encode");
    batch
        .put(&disabled, &key(4), [Cell::new("f", "v", "4")])
        .expect("encode");
    batch.delete(&missing, &key(5)).expect("encode");
    batch
        .put(&ok, &key(6), [Cell::new("f", "v", "6")])
        .expect("encode");
    assert_eq!(batch.len(), 7);
    let failures = match batch.apply() {
        Err(Error::Write(w)) => w,
        other => panic!("{other:?}"),
    };
    let failed: Vec<usize> = failures.failed.iter().map(|f| f.index).collect();
    assert_eq!(failed, [1, 2, 4, 5], "{failures:?}");
    assert_eq!(failures.written, 3);
    for f in &failures.failed {
        assert!(!f.message.is_empty());
        assert_eq!(
            f.key,
            key(f.index as u32).to_row_key().expect("encode").to_vec()
        );
    }
    assert!(
        failures.failed[0].message.contains("wf_no_such_table"),
        "{:?}",
        failures.failed[0]
    );
    assert!(
        failures.failed[1].message.contains("no_such_family"),
        "{:?}",
        failures.failed[1]
    );
    let shown = Error::Write(failures.clone()).to_string();
    assert!(shown.starts_with("4 of 7 batch entries failed"), "{shown}");

    let rows = ok
        .read::<Event>(&Event::scan().ranges())
        .keys()
        .expect("read");
    let mut seqs: Vec<u32> = rows.iter().map(|e| e.seq).collect();
    seqs.sort_unstable();
    assert_eq!(
        seqs,
        [0, 3, 6],
        "the good entries were written, nothing else"
    );
    // a server-side filter and keys-only, in either order: the filter sees the values
    let all = Event::scan().ranges();
    let a = ok
        .read::<Event>(&all)
        .filter("ValueFilter(=, 'binary:3')")
        .keys_only()
        .collect();
    let b = ok
        .read::<Event>(&all)
        .keys_only()
        .filter("ValueFilter(=, 'binary:3')")
        .collect();
    let (a, b) = (a.expect("read"), b.expect("read"));
    assert_eq!(a.iter().map(|(k, _)| k.seq).collect::<Vec<_>>(), [3]);
    assert_eq!(a, b);
    assert_eq!(a[0].1.cells[0].value, b"", "keys only");
    // reversed too: the scanners' lower bounds are a third filter, joined the same way
    let c = ok
        .read::<Event>(&all)
        .keys_only()
        .reverse()
        .filter("ValueFilter(=, 'binary:3')");
    assert_eq!(c.collect().expect("read"), a);
    let every = ok
        .read::<Event>(&all)
        .reverse()
        .keys_only()
        .keys()
        .expect("read");
    assert_eq!(every.iter().map(|e| e.seq).collect::<Vec<_>>(), [6, 3, 0]);
    // encoding errors are caught before anything is sent
    #[derive(RowKey, Debug)]
    struct Padded {
        #[pad(3)]
        name: String,
    }
    let err = Batch::new()
        .put(
            &ok,
            &Padded {
                name: "toolong".into(),
            },
            [],
        )
        .expect_err("too long");
    assert!(err.to_string().contains("name"), "{err}");
    // a read of a missing table is an error, not an empty result
    let missing_read = missing.read::<Event>(&Event::scan().ranges()).keys();
    match &missing_read {
        Err(e @ Error::Server(s)) => {
            // the gateway passes the exception's message (here the table's name) and HBase's
            // canRetry (false: TableNotFoundException is a DoNotRetryIOException)
            assert!(s.message().contains("wf_no_such_table"), "{s:?}");
            assert_eq!(s.can_retry(), Some(false), "{s:?}");
            assert!(!e.is_retryable(), "{s:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn families_select_the_cells_read() {
    let client = client();
    client
        .create_table("two_families", &["a", "b"], &[])
        .expect("create");
    let t = client.table("two_families");
    let mut batch = Batch::new();
    for seq in 0..5u32 {
        let e = Event {
            user: "u".into(),
            seq,
        };
        batch
            .put(&t, &e, [Cell::new("a", "x", "1"), Cell::new("b", "y", "2")])
            .expect("encode");
    }
    batch.apply().expect("write");
    let all = Event::scan().user("u").ranges();
    let families = |rows: Vec<(Event, rowkey_hbase::Row)>| {
        rows.iter()
            .map(|(_, r)| r.cells.iter().map(|c| c.family.clone()).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    let only_a = t
        .read::<Event>(&all)
        .families(&["a"])
        .collect()
        .expect("read");
    assert_eq!(families(only_a), vec![vec![b"a".to_vec()]; 5]);
    let both = t
        .read::<Event>(&all)
        .reverse()
        .families(&["b", "a"])
        .collect()
        .expect("read");
    assert_eq!(
        both.iter().map(|(k, _)| k.seq).collect::<Vec<_>>(),
        [4, 3, 2, 1, 0]
    );
    assert_eq!(families(both), vec![vec![b"a".to_vec(), b"b".to_vec()]; 5]);
    let missing = t.read::<Event>(&all).families(&["nope"]).collect();
    assert!(matches!(missing, Err(Error::Server(_))), "{missing:?}");
}

#[test]
fn pre_split_tables_and_the_region_view() {
    let client = client();
    client
        .create_table_for::<Event>("pre_split", &["f"], 16)
        .expect("create");
    let table = client.table("pre_split");
    let regions = table.regions().expect("regions");
    let starts: Vec<Vec<u8>> = regions.iter().skip(1).map(|r| r.start.clone()).collect();
    assert_eq!(starts, Event::split_points(16).expect("splits"));
    assert!(regions[0].start.is_empty() && regions[15].end.is_empty());
    assert!(regions.windows(2).all(|w| w[0].end == w[1].start));

    let mut batch = Batch::new();
    for i in 0..1600u32 {
        let e = Event {
            user: format!("user{}", i % 400),
            seq: i,
        };
        batch
            .put(&table, &e, [Cell::new("f", "v", "")])
            .expect("encode");
    }
    batch.apply().expect("write");
    let view = table.region_view(1).expect("view");
    assert_eq!(view.rows.iter().sum::<u64>(), 1600);
    assert_eq!(view.keys.len(), 1600);
    assert!(view.rows.iter().all(|&n| n > 50), "{:?}", view.rows);
    let analyzer = view.analyzer(4).expect("analyzer").with_name("pre_split");
    let report = analyzer.report();
    let counted: Vec<u64> = report.regions().iter().map(|r| r.keys).collect();
    assert_eq!(
        counted, view.rows,
        "the analyzer places keys in the server's regions"
    );
    assert_eq!(report.empty_regions(), 0);
    let lint = view.lint().layout(Event::LAYOUT).run();
    assert!(!lint.has_errors(), "{lint}");

    // a plan that ignores the salt byte: the lint over the server's regions says so
    client
        .create_table("hex_split", &["f"], &plan::hex_string_split(16))
        .expect("create");
    let hex = client.table("hex_split");
    let mut batch = Batch::new();
    for i in 0..400u32 {
        let e = Event {
            user: format!("user{i}"),
            seq: i,
        };
        batch
            .put(&hex, &e, [Cell::new("f", "v", "")])
            .expect("encode");
    }
    batch.apply().expect("write");
    let view = hex.region_view(2).expect("view");
    assert_eq!(view.keys.len(), 200);
    assert_eq!(
        view.rows[0], 400,
        "every salted key sorts before \"1…\": region 0 takes all"
    );
    let lint = view.lint().layout(Event::LAYOUT).run();
    assert!(!lint.is_clean(), "{lint}");
    println!("{lint}");
}

/// Rows of `rows` read until the end; an error item ends the count.
fn drain(
    rows: impl Iterator<Item = Result<(Event, rowkey_hbase::Row), Error>>,
    mut at: impl FnMut(usize),
) -> (usize, Option<Error>) {
    let mut n = 0;
    for row in rows {
        match row {
            Ok(_) => {
                n += 1;
                at(n);
            }
            Err(e) => return (n, Some(e)),
        }
    }
    (n, None)
}

#[test]
fn a_gateway_killed_mid_read_ends_the_read_in_an_error() {
    let client = client();
    client
        .create_table_for::<Event>("faults", &["f"], 16)
        .expect("create");
    let table = client.table("faults");
    let mut batch = Batch::new();
    for i in 0..8000u32 {
        let e = Event {
            user: format!("u{}", i % 97),
            seq: i,
        };
        batch
            .put(&table, &e, [Cell::new("f", "v", "x")])
            .expect("encode");
    }
    batch.apply().expect("write");
    let ranges = Event::scan().ranges();
    assert_eq!(ranges.len(), 16);

    let gateway = hbase().gateway().expect("a second gateway");
    for sequential in [false, true] {
        for reverse in [false, true] {
            // a gateway that stays dead: the read retries for 2 s, then says so
            let c = Client::connect(gateway.addr())
                .expect("connect")
                .with_timeout(Duration::from_secs(30))
                .with_retry_for(Duration::from_secs(2));
            let mut read = c.table("faults").read::<Event>(&ranges).page_rows(50);
            if sequential {
                read = read.sequential();
            }
            if reverse {
                read = read.reverse();
            }
            // whole, before the kill
            assert_eq!(read.keys().expect("read").len(), 8000);
            let (n, err) = drain(read.rows().expect("rows"), |n| {
                if n == 1000 {
                    gateway.kill();
                }
            });
            let err = err.unwrap_or_else(|| {
                panic!("sequential {sequential} reverse {reverse}: {n} rows and no error")
            });
            assert!(n < 8000, "{n}");
            assert!(
                matches!(err, Error::Connection(_)),
                "sequential {sequential}: {err:?}"
            );
            eprintln!("sequential {sequential} reverse {reverse}: {n} rows, then: {err}");
            gateway.restart().expect("restart the gateway");
        }
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct V16 {
    #[salt(buckets = 16)]
    id: u64,
    ts: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct V32 {
    #[salt(buckets = 32)]
    id: u64,
    ts: u64,
}

impl From<V16> for V32 {
    fn from(v: V16) -> V32 {
        V32 { id: v.id, ts: v.ts }
    }
}

#[test]
fn a_migration_cut_by_a_gateway_kill_resumes_and_loses_nothing() {
    let main = client();
    main.create_table_for::<V16>("mig_v16", &["d"], 16)
        .expect("create");
    main.create_table_for::<V32>("mig_v32", &["d"], 32)
        .expect("create");
    HBaseStore::create_checkpoint_table(&main, "mig_checkpoints").expect("create");
    let source = main.table("mig_v16");
    let mut batch = Batch::new();
    for id in 0..3000u64 {
        let k = V16 { id, ts: id * 7 };
        // two columns, one with an explicit timestamp: the copy keeps both
        let cells = [
            Cell::new("d", "a", id.to_string()),
            Cell::new("d", "b", "x").at(1_000 + id as i64),
        ];
        batch.put(&source, &k, cells).expect("encode");
    }
    batch.apply().expect("write");

    let gateway = hbase().gateway().expect("gateway");
    let store_at = |addr| {
        let c = Client::connect(addr)
            .expect("connect")
            .with_timeout(Duration::from_secs(30));
        HBaseStore::new(&c.table("mig_v16"), &c.table("mig_checkpoints"))
            .destination(&c.table("mig_v32"))
            .whole_rows()
    };
    let store = store_at(gateway.addr());
    let m = Migration::<_, V16, V32, _>::from_into(&store).batch_size(250);
    let cut = m.run(|p| {
        if p.batches == 4 {
            gateway.kill();
        }
    });
    let err = cut.expect_err("the gateway died mid-migration");
    eprintln!("cut: {err}");
    let copied = m.checkpoint().ok().flatten();
    assert!(
        copied.is_none(),
        "the checkpoint cannot be read without a gateway"
    );

    let addr = gateway.restart().expect("restart");
    let store = store_at(addr);
    let m = Migration::<_, V16, V32, _>::from_into(&store).batch_size(250);
    let checkpoint = m
        .checkpoint()
        .expect("checkpoint")
        .expect("saved before the kill");
    assert_eq!(
        checkpoint.copied, 1000,
        "4 batches of 250 were checkpointed"
    );
    let summary = m.run(|_| {}).expect("resume");
    assert!(summary.complete);
    assert_eq!(summary.rows, 3000);
    let verified = m.verify().expect("verify");
    assert!(verified.report().is_match(), "{}", verified.report());
    assert_eq!(verified.report().destination_rows, 3000);

    let c = Client::connect(addr).expect("connect");
    let dest = c
        .table("mig_v32")
        .read::<V32>(&V32::scan().ranges())
        .collect()
        .expect("read");
    let mut ids: Vec<u64> = dest.iter().map(|(k, _)| k.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 3000, "no row lost, none twice");
    let (k, row) = &dest[0];
    assert_eq!(row.value("d", b"a"), Some(k.id.to_string().as_bytes()));
    let b = row
        .cells
        .iter()
        .find(|c| c.qualifier == b"b")
        .expect("cell b");
    assert_eq!(b.timestamp, 1_000 + k.id as i64, "timestamps copied");
    m.retire_source(&verified, |_| {}).expect("retire");
    assert!(c
        .table("mig_v16")
        .read::<V16>(&V16::scan().ranges())
        .keys()
        .expect("read")
        .is_empty());
}

/// A migration begun before the store reshape kept its checkpoint in the row `<name>` of its
/// checkpoint table (the old `migrate::HBaseStore::same_table(.., checkpoints, name)`); the
/// migration given that name resumes from it and writes its next checkpoint to the new row
/// `<base table>/<name>`.
#[test]
fn a_checkpoint_row_of_the_earlier_layout_is_resumed() {
    use rowkey::store::Store;
    let c = client();
    c.create_table_for::<V16>("old_cp_v16", &["d"], 16)
        .expect("create");
    for t in ["old_cp_new", "old_cp_old"] {
        HBaseStore::create_checkpoint_table(&c, t).expect("create");
    }
    let source = c.table("old_cp_v16");
    let mut batch = Batch::new();
    for id in 0..1000u64 {
        batch
            .put(
                &source,
                &V16 { id, ts: id },
                [Cell::new("d", "a", id.to_string())],
            )
            .expect("encode");
    }
    batch.apply().expect("write");
    let store = HBaseStore::new(&source, &c.table("old_cp_new")).whole_rows();
    let m = Migration::<_, V16, V32, _>::from_into(&store)
        .name("v16-to-v32")
        .batch_size(250);
    m.run_batches(2, |_| {}).expect("first run");
    let blob = store
        .load_checkpoint("v16-to-v32")
        .expect("load")
        .expect("saved");
    // the checkpoint in the old form: the cell m:checkpoint of the row named after the migration
    let mut old = Batch::new();
    old.put_raw(
        &c.table("old_cp_old"),
        b"v16-to-v32".to_vec(),
        [Cell::new("m", "checkpoint", blob)],
    );
    old.apply().expect("old checkpoint row");

    let store = HBaseStore::new(&source, &c.table("old_cp_old")).whole_rows();
    let m = Migration::<_, V16, V32, _>::from_into(&store)
        .name("v16-to-v32")
        .batch_size(250);
    let cp = m
        .checkpoint()
        .expect("checkpoint")
        .expect("the old row is read");
    assert_eq!(cp.copied, 500);
    let rest = m.run(|_| {}).expect("resume");
    assert!(rest.complete);
    assert_eq!((rest.rows, rest.rows_this_run), (1000, 500));
    m.verify().expect("verify");
    // the new row holds the checkpoint now and is read first (the old row still says 500)
    assert_eq!(
        m.checkpoint().expect("checkpoint").expect("saved").copied,
        1000
    );
}

// ---------------------------------------------------------------------------------------------
// The classic experiment

const ROWS: u64 = 50_000;

/// A standalone HBase with three region servers (one process), their info servers on: for
/// the load they take, from their own metrics.
fn three_servers() -> &'static HBase {
    static H: std::sync::OnceLock<HBase> = std::sync::OnceLock::new();
    H.get_or_init(|| HBase::start_with_region_servers(3).unwrap_or_else(|e| panic!("{e}")))
}

/// Both tables as `create 't', {NAME => 'info'}, {NUMREGIONS => 40, SPLITALGO =>
/// 'HexStringSplit'}` creates them, on three region servers; a day of records loaded into
/// each; rows counted per region from the server's own regions, and the writes each region and
/// each server took read from the region servers' own request counters (JMX).
#[test]
fn classic_hex_string_split_experiment() {
    let hbase = three_servers();
    let client = Client::connect(hbase.thrift_addr()).expect("connect");
    let metrics = hbase.metrics_url().expect("info servers on");
    let splits = plan::hex_string_split(40);
    for t in ["msisdn_by_tail", "msisdn_by_hash"] {
        client.create_table(t, &["info"], &splits).expect("create");
        assert_eq!(client.table(t).regions().expect("regions").len(), 40);
    }
    let (tail_t, hash_t) = (
        client.table("msisdn_by_tail"),
        client.table("msisdn_by_hash"),
    );
    let samplers = [
        LoadSampler::new(&tail_t, &[&metrics]).expect("sampler"),
        LoadSampler::new(&hash_t, &[&metrics]).expect("sampler"),
    ];
    let before: Vec<LoadSample> = samplers
        .iter()
        .map(|s| s.sample().expect("sample"))
        .collect();
    // the key visualizer's samples: every second while the load runs
    let loading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let samplers = samplers.clone();
        let loading = std::sync::Arc::clone(&loading);
        let first = before.clone();
        std::thread::spawn(move || {
            let mut series: [Vec<LoadSample>; 2] = [vec![first[0].clone()], vec![first[1].clone()]];
            while loading.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_secs(1));
                for (s, out) in samplers.iter().zip(series.iter_mut()) {
                    out.push(s.sample().expect("sample while loading"));
                }
            }
            series
        })
    };
    let mut batch = Batch::new();
    for (msisdn, ts_ms) in bulk_experiment::records(ROWS) {
        let tail: u16 = msisdn[7..11].parse().expect("digits");
        let cells = || [Cell::new("info", "d", "1").at(ts_ms as i64)];
        batch
            .put(
                &tail_t,
                &ByTail {
                    tail,
                    msisdn: msisdn.clone(),
                    ts_ms,
                },
                cells(),
            )
            .expect("encode");
        batch
            .put(&hash_t, &ByHash { msisdn, ts_ms }, cells())
            .expect("encode");
        if batch.len() >= 10_000 {
            std::mem::take(&mut batch).apply().expect("load");
        }
    }
    batch.apply().expect("load");
    loading.store(false, std::sync::atomic::Ordering::Relaxed);
    let mut series = watcher.join().expect("sampler thread");

    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hbase-hotspots");
    std::fs::create_dir_all(&out).expect("dir");
    let mut reports = Vec::new();
    let mut region_rows = Vec::new();
    for (t, name) in [
        (&tail_t, "MSISDN[7..11]+MSISDN+time"),
        (&hash_t, "md5(MSISDN)[..4]+MSISDN+time"),
    ] {
        let view = t.region_view(1).expect("region view");
        assert_eq!(view.regions.len(), 40);
        assert_eq!(
            view.rows.iter().sum::<u64>(),
            ROWS,
            "{name}: every row in a server region"
        );
        let a = view.analyzer(24).expect("analyzer").with_name(name);
        let report = a.report();
        let counted: Vec<u64> = report.regions().iter().map(|r| r.keys).collect();
        assert_eq!(counted, view.rows, "{name}");
        region_rows.push(view.rows.clone());
        let svg = out.join(format!("{}.svg", t.name()));
        report.write_heatmap_svg(&svg).expect("svg");
        println!("{name}: {}", report.summary());
        reports.push(report);
    }
    let (tail_rows, hash_rows) = (region_rows[0].clone(), region_rows[1].clone());
    // The writes as the servers counted them (their JMX counters can lag by a few seconds:
    // sample until every row's write is counted)
    let mut live = Vec::new();
    for (sampler, earlier) in samplers.iter().zip(&before) {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let rates = loop {
            let now = sampler.sample().expect("sample");
            let writes: u64 = now
                .regions
                .iter()
                .zip(&earlier.regions)
                .map(|(n, e)| n.writes.saturating_sub(e.writes))
                .sum();
            if writes >= ROWS || std::time::Instant::now() > deadline {
                let seconds = (now.at_ms - earlier.at_ms) as f64 / 1000.0;
                let rates = now.rates_since(earlier);
                let per_region: Vec<u64> = rates
                    .iter()
                    .map(|r| (r.writes * seconds).round() as u64)
                    .collect();
                break (rates, per_region, writes);
            }
            std::thread::sleep(Duration::from_millis(500));
        };
        live.push(rates);
    }
    // the live report of each design: the samples taken while loading, and the last one
    for ((sampler, samples), name) in samplers.iter().zip(series.iter_mut()).zip(["tail", "hash"]) {
        samples.push(sampler.sample().expect("sample"));
        let title = format!("seed 001 on three region servers: msisdn_by_{name}");
        let map = if name == "tail" {
            load_map::<ByTail>(&title, samples)
        } else {
            load_map::<ByHash>(&title, samples)
        }
        .expect("load map")
        .with_findings(
            rowkey::plan::Lint::new(plan::hex_string_split(40))
                .run()
                .to_string()
                .lines(),
        );
        assert_eq!(map.ranges().len(), 40);
        assert!(
            map.intervals().len() >= 2,
            "{} intervals",
            map.intervals().len()
        );
        assert_eq!(
            map.server_loads().len(),
            3,
            "{name}: three servers in the report"
        );
        let page = out.join(format!("msisdn_by_{name}.live.html"));
        map.write_html(&page).expect("report");
        println!("live report: {}", page.display());
    }
    for ((rates, per_region, writes), view_rows) in live.iter().zip([&tail_rows, &hash_rows]) {
        assert!(
            *writes >= ROWS,
            "the servers counted {writes} writes of {ROWS}"
        );
        // a region the servers saw no write in holds no row, and the other way round
        for ((r, w), rows) in rates.iter().zip(per_region).zip(view_rows.iter()) {
            assert_eq!(
                *w == 0,
                *rows == 0,
                "region {:?}: {w} writes, {rows} rows",
                r.region.start
            );
        }
        let servers = per_server(rates);
        println!(
            "writes per server: {}",
            servers
                .iter()
                .map(|s| format!("{} ({} regions) {:.0}/s", s.server, s.regions, s.writes))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert_eq!(
            servers.len(),
            3,
            "the regions are spread over three servers"
        );
    }
    // the key tool's `visualize` on the same cluster: two seconds of samples, a page, the
    // servers' load in its output, a progress line per sample
    let page = out.join("keytool-visualize.html");
    let addr = hbase.thrift_addr().to_string();
    let page_s = page.display().to_string();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = rowkey_hbase::keytool::run::<(ByTail, ByHash)>(
        &[
            "keytool",
            "visualize",
            "ByHash",
            "--gateway",
            &addr,
            "--table",
            "msisdn_by_hash",
            "--metrics",
            &metrics,
            "--seconds",
            "2",
            "--every",
            "1",
            "--html",
            &page_s,
        ],
        &mut &b""[..],
        &mut stdout,
        &mut stderr,
    );
    let (stdout, stderr) = (
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr),
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("sampling msisdn_by_hash: 3/3"), "{stderr}");
    assert!(
        stdout.contains("40 regions") && stdout.contains("key visualizer report"),
        "{stdout}"
    );
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains("hash(msisdn)"),
        "the key axis decoded through ByHash"
    );
    // and its usage errors
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let code = rowkey_hbase::keytool::run::<(ByTail, ByHash)>(
        &[
            "keytool",
            "visualize",
            "NoSuchType",
            "--gateway",
            &addr,
            "--table",
            "t",
            "--metrics",
            &metrics,
        ],
        &mut &b""[..],
        &mut o,
        &mut e,
    );
    assert_eq!(code, 2);
    assert!(String::from_utf8_lossy(&e).contains("no key type NoSuchType"));
    let idle = |i: usize| live[i].1.iter().filter(|w| **w == 0).count();
    // the unhashed key leaves regions idle; the hashed key writes to every region, on every
    // server, evenly
    assert!(idle(0) >= 15, "unhashed: {} idle regions", idle(0));
    assert_eq!(idle(1), 0, "hashed: idle regions");
    let hashed_servers = per_server(&live[1].0);
    let mean = hashed_servers.iter().map(|s| s.writes).sum::<f64>() / 3.0;
    for s in &hashed_servers {
        assert!(
            s.writes > 0.5 * mean,
            "hashed: {} took {:.0}/s of a mean {mean:.0}/s",
            s.server,
            s.writes
        );
    }
    println!("{}", reports[0].side_by_side(&reports[1]));
    println!("heatmaps: {}", out.display());
    let (tail, hashed) = (&reports[0], &reports[1]);
    // digits '0'–'9' lead, HexStringSplit cut at '0'–'f': every region from "a…" on is empty
    assert!(tail.empty_regions() >= 15, "{}", tail.summary());
    assert!(tail.max_mean_skew() > 2.0, "{}", tail.summary());
    assert_eq!(hashed.empty_regions(), 0, "{}", hashed.summary());
    assert!(hashed.max_mean_skew() < 1.15, "{}", hashed.summary());
}

/// The experiment as the seed ran it — a bulk load — end to end on three region servers: the
/// same records written as HFiles per region for both key designs, loaded by HBase's
/// `BulkLoadHFilesTool` into 40 `HexStringSplit` regions (`SNAPPY`), counted on the servers.
/// The digits-led key leaves regions empty and piles rows into a few; the hashed key fills every
/// region evenly. (The times are printed, never asserted: `examples/hbase_bulk_experiment.rs`
/// runs it larger.)
#[test]
fn the_bulk_load_experiment_end_to_end() {
    let hbase = three_servers();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bulk-experiment");
    let m = bulk_experiment::run(hbase, ROWS, &dir, 2, 64 << 20);
    println!("{}", bulk_experiment::side_by_side(&m));
    for x in &m {
        assert_eq!(x.region_rows.len(), 40, "{}", x.design);
        assert_eq!(
            x.region_rows.iter().sum::<u64>(),
            ROWS,
            "{}: every record loaded",
            x.design
        );
        for (rows, bytes) in x.region_rows.iter().zip(&x.region_bytes) {
            assert_eq!(
                *rows == 0,
                *bytes == 0,
                "{}: rows {rows}, bytes {bytes}",
                x.design
            );
        }
    }
    let (tail, hash) = (&m[0], &m[1]);
    assert!(tail.empty_regions() >= 15, "{}", tail.empty_regions());
    assert_eq!(hash.empty_regions(), 0);
    assert!(
        tail.max_rows() > 2 * hash.max_rows(),
        "largest regions: {} and {}",
        tail.max_rows(),
        hash.max_rows()
    );
}
