//! Reads that resume and writes that retry, live: the client talks to the emulator through a
//! fault-injecting TCP proxy ([`crate::proxy`]) that cuts connections mid-stream, delays and
//! refuses them. Every read is compared with the same read over a clean connection: the exact
//! rows, none twice, forward, reverse and with limits; a read that cannot progress ends with
//! one error item.

use std::collections::HashSet;
use std::time::Duration;

use futures::StreamExt;
use rowkey::RowKey;
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::{Batch, Cell, Client, Error, Read};

use crate::proxy::Proxy;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 4)]
    sensor: u32,
    #[reverse_ts]
    at_ms: i64,
}

const ROWS: u32 = 400;

fn emulator() -> &'static Emulator {
    Emulator::shared().unwrap_or_else(|e| panic!("{e}"))
}

fn direct() -> Client {
    Client::emulator(emulator().endpoint(), "resume", "resume").expect("emulator client")
}

/// A client through `proxy`, retrying for `budget`.
fn proxied(proxy: &Proxy, budget: Duration) -> Client {
    Client::emulator(&proxy.endpoint(), "resume", "resume")
        .expect("proxied client")
        .with_retry_for(budget)
}

/// A table of `ROWS` readings (40 sensors × 10), ~150 bytes a row.
async fn table(id: &str) {
    let client = direct();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table_for::<Reading>(id, &["r"], 4)
        .await
        .expect("create");
    let table = client.table(id);
    let mut batch = Batch::new();
    for i in 0..ROWS {
        let key = Reading {
            sensor: i / 10,
            at_ms: 1_700_000_000_000 + i64::from(i % 10),
        };
        let value = format!("{i:0>120}");
        batch
            .put(&table, &key, [Cell::new("r", "v", value).at(1_000)])
            .expect("put");
    }
    assert_eq!(batch.apply().await.expect("write"), ROWS as usize);
}

type Keyed = Vec<(Vec<u8>, Vec<u8>)>;

/// The rows of a read as (key, value), and its error items.
async fn run(read: Read<Reading>) -> (Keyed, Vec<Error>) {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut stream = read.stream();
    while let Some(item) = stream.next().await {
        match item {
            Ok((_, row)) => {
                let value = row.value("r", b"v").unwrap_or_default().to_vec();
                rows.push((row.key, value));
            }
            Err(e) => errors.push(e),
        }
    }
    (rows, errors)
}

/// The reads compared: merged forward and reverse, with limits, resumed after a key, and in
/// one byte-order request.
fn reads(client: &Client, id: &str) -> Vec<(&'static str, Read<Reading>)> {
    let t = client.table(id);
    let all = Reading::scan().ranges();
    let some = Reading::scan()
        .sensor_in([3, 17, 22, 39])
        .expect("in")
        .ranges();
    let after = Reading {
        sensor: 11,
        at_ms: 1_700_000_000_004,
    };
    vec![
        ("forward", t.read::<Reading>(&all)),
        ("reverse", t.read::<Reading>(&all).reverse()),
        ("limit", t.read::<Reading>(&all).limit(137)),
        (
            "reverse limit",
            t.read::<Reading>(&all).reverse().limit(201),
        ),
        (
            "small chunks",
            t.read::<Reading>(&all).chunk_rows(7).limit(390),
        ),
        ("in-list", t.read::<Reading>(&some)),
        (
            "after",
            t.read::<Reading>(&all).after(&after).expect("after"),
        ),
        ("single", t.read::<Reading>(&all).single_request()),
        (
            "single reverse limit",
            t.read::<Reading>(&all)
                .single_request()
                .reverse()
                .limit(299),
        ),
    ]
}

/// Every read through the proxy as `client` returns exactly the clean read's rows, none twice.
async fn same_as_clean(client: &Client, id: &str) {
    let clean = direct();
    for ((name, faulty), (_, reference)) in reads(client, id).into_iter().zip(reads(&clean, id)) {
        let (want, none) = run(reference).await;
        assert!(none.is_empty(), "{name}: clean read failed: {none:?}");
        assert!(!want.is_empty(), "{name}");
        let (got, errors) = run(faulty).await;
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let distinct: HashSet<&Vec<u8>> = got.iter().map(|(k, _)| k).collect();
        assert_eq!(distinct.len(), got.len(), "{name}: a row twice");
        assert_eq!(got.len(), want.len(), "{name}: rows");
        assert!(got == want, "{name}: not the clean read's rows, in order");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_resume_after_connections_cut_mid_stream() {
    table("resume_cut").await;
    let proxy = Proxy::start(emulator().endpoint());
    // every connection dies after 6 KB from the server: ~35 rows, then a reconnection
    proxy.cut_after(6_000, None);
    let client = proxied(&proxy, Duration::from_secs(30));
    same_as_clean(&client, "resume_cut").await;
    // a read of the whole table (no RowSet: the hotspot sample) resumes too
    let keys = |sample: rowkey_bigtable::hotspot::KeySample| {
        sample.rows.into_iter().map(|r| r.key).collect::<Vec<_>>()
    };
    let clean = keys(
        direct()
            .table("resume_cut")
            .sample_keys(1.0)
            .await
            .expect("clean"),
    );
    let cuts = proxy.cut();
    let faulty = keys(
        client
            .table("resume_cut")
            .sample_keys(1.0)
            .await
            .expect("sample"),
    );
    assert_eq!(clean.len(), ROWS as usize);
    assert!(faulty == clean, "the whole table, once, in order");
    assert!(proxy.cut() > cuts, "cut while sampling");
    assert!(
        proxy.cut() > 20,
        "the faults happened: {} cuts",
        proxy.cut()
    );
    assert!(
        proxy.carried() > proxy.cut(),
        "and the reads went on on new connections"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_resume_through_refused_connections_and_delays() {
    table("resume_refuse").await;
    let proxy = Proxy::start(emulator().endpoint());
    proxy.delay(Duration::from_millis(1));
    let client = proxied(&proxy, Duration::from_secs(30));
    let clean = direct();
    let all = Reading::scan().ranges();
    for reverse in [false, true] {
        let read = |c: &Client| {
            let r = c
                .table("resume_refuse")
                .read::<Reading>(&all)
                .chunk_rows(50);
            if reverse {
                r.reverse()
            } else {
                r
            }
        };
        let (want, _) = run(read(&clean)).await;
        let mut stream = read(&client).stream();
        let mut got = Vec::new();
        while let Some(item) = stream.next().await {
            let (_, row) = item.unwrap_or_else(|e| panic!("reverse {reverse}: {e}"));
            got.push(row.key);
            if got.len() == 60 {
                // the server goes away mid-read and refuses connections for a while
                proxy.refuse_for(Duration::from_millis(700));
                proxy.cut_all();
            }
        }
        let want: Vec<Vec<u8>> = want.into_iter().map(|(k, _)| k).collect();
        assert_eq!(got.len(), want.len(), "reverse {reverse}");
        assert!(got == want, "reverse {reverse}: not the clean read's rows");
    }
    assert!(proxy.refused() > 0, "connections were refused");
    assert!(proxy.cut() > 0, "connections were cut");

    // SampleRowKeys, made again whole
    let refused = proxy.refused();
    proxy.refuse_for(Duration::from_millis(500));
    proxy.cut_all();
    let samples = client
        .table("resume_refuse")
        .sample_row_keys()
        .await
        .expect("sampled through refusals");
    // the emulator samples rows at random: the end of the table is the same
    let clean_samples = clean
        .table("resume_refuse")
        .sample_row_keys()
        .await
        .expect("clean");
    assert_eq!(samples.last(), clean_samples.last());
    assert!(samples
        .last()
        .is_some_and(|s| s.key.is_empty() && s.offset_bytes > 0));
    assert!(proxy.refused() > refused, "refused while sampling");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_that_cannot_progress_gives_up_with_one_error_item() {
    table("resume_budget").await;
    let clean = direct();
    let all = Reading::scan().ranges();
    let (want, _) = run(clean
        .table("resume_budget")
        .read::<Reading>(&all)
        .single_request())
    .await;

    // a connection carries ~20 rows; once the first row is in, no connection carries any
    let proxy = Proxy::start(emulator().endpoint());
    proxy.cut_after(3_500, None);
    let client = proxied(&proxy, Duration::from_millis(800));
    let started = std::time::Instant::now();
    let mut stream = client
        .table("resume_budget")
        .read::<Reading>(&all)
        .single_request()
        .stream();
    let mut got = Vec::new();
    let mut errors = Vec::new();
    let mut after_error = 0;
    while let Some(item) = stream.next().await {
        match item {
            Ok((_, row)) if errors.is_empty() => {
                got.push(row.key);
                if got.len() == 1 {
                    // from now on, nothing gets through
                    proxy.refuse_for(Duration::from_secs(3_600));
                    proxy.cut_after(1, None);
                }
            }
            Ok(_) => after_error += 1,
            Err(e) => errors.push(e),
        }
    }
    assert_eq!(after_error, 0, "nothing after the error item");
    assert_eq!(errors.len(), 1, "{errors:?}");
    eprintln!("the error item: {}", errors[0]);
    let message = errors[0].to_string();
    assert!(
        matches!(
            &errors[0],
            Error::GaveUp {
                call: "ReadRows",
                attempts: 2..,
                ..
            }
        ),
        "{message}"
    );
    assert!(message.contains("retry budget 800ms"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(20));
    // the rows before the error item: the start of the clean read, exactly
    assert!(!got.is_empty() && got.len() < want.len(), "{}", got.len());
    let want: Vec<Vec<u8>> = want.into_iter().map(|(k, _)| k).take(got.len()).collect();
    assert!(got == want, "a prefix of the clean read");

    // a failure that is not transient is not retried: one error item at once
    let started = std::time::Instant::now();
    let patient = proxied(&proxy, Duration::from_secs(30));
    proxy.refuse_for(Duration::ZERO);
    proxy.cut_after(0, None);
    let (rows, errors) = run(patient.table("no_such_table").read::<Reading>(&all)).await;
    assert!(rows.is_empty());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        matches!(&errors[0], Error::Grpc(s) if s.code() == tonic::Code::NotFound),
        "{errors:?}"
    );
    assert!(!errors[0].is_retryable());
    assert!(started.elapsed() < Duration::from_secs(5), "not retried");

    // no budget at all: the first failure is the error item
    let nothing = Proxy::start(emulator().endpoint());
    nothing.refuse_for(Duration::from_secs(3_600));
    let client = proxied(&nothing, Duration::ZERO);
    let (rows, errors) = run(client.table("resume_budget").read::<Reading>(&all)).await;
    assert!(rows.is_empty());
    // four buckets, four streams: the read ends at the first that gives up
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        matches!(errors[0], Error::GaveUp { attempts: 1, .. }),
        "{errors:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_retry_transient_failures_and_give_up_on_budget() {
    let client = direct();
    client
        .admin()
        .await
        .expect("admin")
        .create_table("resume_write", &["r"], &[])
        .await
        .expect("create");
    let batch_of = |c: &Client, tag: &str| {
        let t = c.table("resume_write");
        let mut batch = Batch::new();
        for i in 0..500u32 {
            let key = format!("{tag}-{i:04}").into_bytes();
            batch.put_raw(&t, key, [Cell::new("r", "v", format!("{i:0>100}"))]);
        }
        batch
    };
    let count = |tag: &'static str| async move {
        let t = direct().table("resume_write");
        let ranges = rowkey::ScanRanges::one(rowkey::ScanRange::prefix(tag.as_bytes()));
        let (rows, errors) = run(t.read::<Reading>(&ranges).single_request()).await;
        assert!(rows.iter().all(|(_, v)| v.len() == 100));
        // the keys are not Readings: each row is a decode error item
        rows.len()
            + errors
                .iter()
                .filter(|e| matches!(e, Error::Decode { .. }))
                .count()
    };

    // refused for a while, then the connections of the first attempts cut
    let proxy = Proxy::start(emulator().endpoint());
    proxy.refuse_for(Duration::from_millis(500));
    proxy.cut_after(40, Some(2));
    let faulty = proxied(&proxy, Duration::from_secs(30));
    let written = batch_of(&faulty, "a").apply().await.expect("retried");
    assert_eq!(written, 500);
    assert_eq!(count("a").await, 500);
    assert!(proxy.refused() + proxy.cut() > 0, "the faults happened");

    // nothing gets through: every entry reported, the message says retries gave up
    let nothing = Proxy::start(emulator().endpoint());
    nothing.refuse_for(Duration::from_secs(3_600));
    let faulty = proxied(&nothing, Duration::from_millis(600));
    match batch_of(&faulty, "b").apply().await {
        Err(Error::Write(w)) => {
            assert_eq!((w.written, w.failed.len()), (0, 500));
            assert!(
                w.failed.iter().all(|f| f.message.contains("gave up")),
                "{}",
                w.failed[0]
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(count("b").await, 0);
}
