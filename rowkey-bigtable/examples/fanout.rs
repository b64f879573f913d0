//! Measures a 16-bucket fan-out read on the Bigtable emulator: 16 concurrent `ReadRows`
//! streams merged into logical order versus one request whose `RowSet` holds the 16 ranges
//! (rows in byte order), plus the 16 ranges read one after another, and reverse reads
//! (server-side reversed streams merged versus a forward read reversed in memory).
//!
//! The emulator keeps the table in memory in the same process tree on the same 2 cores, so
//! only the ratios mean anything (BENCHMARKS.md).
//!
//! With `overhead` as the second argument it measures only the typed read's overhead (issue 14,
//! item 3): the typed merged read (`Table::read` → 16 concurrent streams merged into logical
//! order, every key decoded) against the same 16 ranges read raw through `bigtable_rs`
//! (`BigTable::stream_rows`, 16 concurrent requests over the same connection, rows counted and
//! touched, no merge, no decode), and the raw streams merged by `rowkey::merge::merge_streams`
//! without decoding.
//!
//! Run: `cargo run --release -p rowkey-bigtable --example fanout [rows] [overhead]` (default
//! 64000 rows).

use std::time::{Duration, Instant};

use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use futures_util::{StreamExt, TryStreamExt};
use rowkey::{RowKey, ScanRanges};
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::v2::{row_range, ReadRowsRequest, RowRange, RowSet};
use rowkey_bigtable::{Batch, Cell, Client, Error, Table};

/// A device's readings, salted over 16 buckets by device.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 16)]
    #[sep]
    device: String,
    ts: u64,
}

const ROUNDS: usize = 5;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

async fn time<F, Fut>(mut f: F) -> Result<Duration, Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<usize, Error>>,
{
    let t = Instant::now();
    let n = f().await?;
    std::hint::black_box(n);
    Ok(t.elapsed())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(64_000);
    let overhead = std::env::args().nth(2).as_deref() == Some("overhead");
    let own;
    // One connection for both the typed client and the raw `bigtable_rs` reads (4 channels,
    // as `Client::emulator` makes).
    let (conn, emulator) = match std::env::var("BIGTABLE_EMULATOR_HOST") {
        Ok(host) => (
            BigTableConnection::new("rowkey-bench", "bench", false, 4, None).await?,
            host,
        ),
        Err(_) => {
            own = Emulator::start()?;
            let conn = BigTableConnection::new_with_emulator(
                own.endpoint(),
                "rowkey-bench",
                "bench",
                false,
                4,
                Some(Duration::from_secs(60)),
            )?;
            (conn, own.endpoint().to_owned())
        }
    };
    let client = Client::with_connection(conn.clone(), "rowkey-bench", "bench", Some(&emulator));
    let raw_bt: BigTable = conn.client();
    let admin = client.admin().await?;
    let _ = admin.delete_table("fanout").await;
    admin
        .create_table_for::<Reading>("fanout", &["r"], 16)
        .await?;
    let table: Table = client.table("fanout");

    let value = [b'x'; 100];
    let mut batch = Batch::new();
    for i in 0..rows {
        let k = Reading {
            device: format!("dev-{:05}", i % 1000),
            ts: 1_700_000_000_000 + i as u64,
        };
        batch.put(&table, &k, [Cell::new("r", "v", value)])?;
        if batch.len() == 10_000 {
            std::mem::take(&mut batch).apply().await?;
        }
    }
    batch.apply().await?;

    let ranges = Reading::scan().ranges();
    assert_eq!(ranges.len(), 16);
    if overhead {
        return measure_overhead(&table, &raw_bt, &ranges, rows).await;
    }
    let count = |s: rowkey_bigtable::TypedRows<Reading>| async move {
        s.try_fold(0usize, |n, _| async move { Ok(n + 1) }).await
    };
    // The emulator collects every row of a request's ranges before it streams the first one,
    // so each extra request of a chunked read re-reads the rest of its range: measure whole
    // requests (`chunk_rows(u64::MAX)`) for the comparison, and the default chunking apart.
    let merged = || count(table.read::<Reading>(&ranges).chunk_rows(u64::MAX).stream());
    let merged_chunked = || count(table.read::<Reading>(&ranges).stream());
    let single = || {
        count(
            table
                .read::<Reading>(&ranges)
                .single_request()
                .chunk_rows(u64::MAX)
                .stream(),
        )
    };
    let one_by_one = || async {
        // the same 16 ranges, each request only after the previous one finished
        let mut parts = Vec::new();
        for r in ranges.iter() {
            let one = rowkey::ScanRanges::one(r.clone());
            parts.push(
                table
                    .read::<Reading>(&one)
                    .chunk_rows(u64::MAX)
                    .collect()
                    .await?,
            );
        }
        let skip = 1;
        let merged: Vec<_> = rowkey::merge::merge(
            parts
                .into_iter()
                .map(|p| p.into_iter().map(|(_, row)| (row.key, row.cells))),
            skip,
        )
        .collect();
        Ok::<usize, Error>(merged.len())
    };
    let reverse_server = || {
        count(
            table
                .read::<Reading>(&ranges)
                .reverse()
                .chunk_rows(u64::MAX)
                .stream(),
        )
    };
    let reverse_memory = || async {
        let mut all = table
            .read::<Reading>(&ranges)
            .chunk_rows(u64::MAX)
            .collect()
            .await?;
        all.reverse();
        Ok::<usize, Error>(all.len())
    };
    // the newest 100 rows: reversed streams stop early; in memory, everything is read first
    let newest_server = || async {
        let v = table
            .read::<Reading>(&ranges)
            .reverse()
            .limit(100)
            .collect()
            .await?;
        Ok::<usize, Error>(v.len())
    };
    let newest_memory = || async {
        let mut all = table
            .read::<Reading>(&ranges)
            .chunk_rows(u64::MAX)
            .collect()
            .await?;
        all.reverse();
        all.truncate(100);
        Ok::<usize, Error>(all.len())
    };

    // warm up, and check that every mode reads every row
    for n in [
        merged().await?,
        merged_chunked().await?,
        single().await?,
        one_by_one().await?,
        reverse_server().await?,
        reverse_memory().await?,
    ] {
        assert_eq!(n, rows);
    }
    assert_eq!(newest_server().await?, 100);
    assert_eq!(newest_memory().await?, 100);
    let (mut m, mut s, mut o, mut rs, mut rm) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut ns, mut nm, mut mc) = (vec![], vec![], vec![]);
    for _ in 0..ROUNDS {
        mc.push(time(merged_chunked).await?);
        ns.push(time(newest_server).await?);
        nm.push(time(newest_memory).await?);
        m.push(time(merged).await?);
        s.push(time(single).await?);
        o.push(time(one_by_one).await?);
        rs.push(time(reverse_server).await?);
        rm.push(time(reverse_memory).await?);
    }
    let rate = |d: Duration| rows as f64 / d.as_secs_f64();
    let (m, s, o, rs, rm) = (median(m), median(s), median(o), median(rs), median(rm));
    println!(
        "{rows} rows of ~{} bytes over 16 salt buckets, median of {ROUNDS} rounds ({} build)",
        value.len() + 20,
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    println!(
        "merged, 16 concurrent ReadRows streams : {:>9.0} rows/s ({m:.2?})",
        rate(m)
    );
    println!(
        "one request, 16 ranges in one RowSet   : {:>9.0} rows/s ({s:.2?}) (byte order)",
        rate(s)
    );
    println!(
        "16 requests one after another, merged  : {:>9.0} rows/s ({o:.2?})",
        rate(o)
    );
    println!(
        "reverse: server-reversed streams merged: {:>9.0} rows/s ({rs:.2?})",
        rate(rs)
    );
    println!(
        "reverse: forward read reversed in memory: {:>8.0} rows/s ({rm:.2?})",
        rate(rm)
    );
    let (ns, nm, mc) = (median(ns), median(nm), median(mc));
    println!(
        "merged, default chunking ({} rows a request): {:>6.0} rows/s ({mc:.2?})",
        8192 / 16,
        rate(mc)
    );
    println!(
        "newest 100 rows: reversed streams {ns:.2?}, forward read reversed in memory {nm:.2?}"
    );
    println!(
        "ratio merged concurrent / one request: {:.2}; / sequential per-range: {:.2}; \
         reverse server / in-memory: {:.2} (all rows), {:.0} (newest 100)",
        s.as_secs_f64() / m.as_secs_f64(),
        o.as_secs_f64() / m.as_secs_f64(),
        rm.as_secs_f64() / rs.as_secs_f64(),
        nm.as_secs_f64() / ns.as_secs_f64()
    );
    Ok(())
}

/// One raw `ReadRows` stream per range, straight from `bigtable_rs` (whole requests).
async fn raw_streams(
    bt: &BigTable,
    table: &Table,
    ranges: &ScanRanges,
) -> Result<Vec<RawStream>, Error> {
    let mut streams = Vec::with_capacity(ranges.len());
    for r in ranges.iter() {
        let request = ReadRowsRequest {
            table_name: table.name().to_owned(),
            rows: Some(RowSet {
                row_keys: vec![],
                row_ranges: vec![RowRange {
                    start_key: Some(row_range::StartKey::StartKeyClosed(r.start().to_vec())),
                    end_key: r.stop().map(|s| row_range::EndKey::EndKeyOpen(s.to_vec())),
                }],
            }),
            ..ReadRowsRequest::default()
        };
        let mut bt = bt.clone();
        let s = bt.stream_rows(request).await?;
        streams.push(Box::pin(s) as RawStream);
    }
    Ok(streams)
}

type RawRows = Result<(Vec<u8>, Vec<rowkey_bigtable::RowCell>), bigtable_rs::bigtable::Error>;
type RawStream = std::pin::Pin<Box<dyn futures_util::Stream<Item = RawRows> + Send>>;

/// Touch a row as a consumer would: its key and every cell's value.
fn touch(key: &[u8], cells: &[rowkey_bigtable::RowCell]) -> usize {
    key.len() + cells.iter().map(|c| c.value.len()).sum::<usize>()
}

/// Typed merged read vs. the same ranges raw (issue 14, item 3).
async fn measure_overhead(
    table: &Table,
    bt: &BigTable,
    ranges: &ScanRanges,
    rows: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    const OVERHEAD_ROUNDS: usize = 9;
    // typed: 16 concurrent streams merged into logical order, every key decoded
    let typed = || async {
        let mut s = table.read::<Reading>(ranges).chunk_rows(u64::MAX).stream();
        let (mut n, mut bytes) = (0usize, 0usize);
        while let Some((k, row)) = s.try_next().await? {
            n += 1;
            bytes += touch(&row.key, &row.cells) + k.device.len();
        }
        std::hint::black_box(bytes);
        Ok::<usize, Error>(n)
    };
    // raw: the same 16 requests, polled concurrently, no merge, no decode
    let raw = || async {
        let streams = raw_streams(bt, table, ranges).await?;
        let counts = futures_util::future::try_join_all(streams.into_iter().map(|s| {
            s.map_err(Error::from)
                .try_fold((0usize, 0usize), |(n, b), (k, cells)| async move {
                    Ok((n + 1, b + touch(&k, &cells)))
                })
        }))
        .await?;
        std::hint::black_box(counts.iter().map(|c| c.1).sum::<usize>());
        Ok::<usize, Error>(counts.iter().map(|c| c.0).sum())
    };
    // raw merged: the same streams merged into logical order, no decode
    let raw_merged = || async {
        let streams = raw_streams(bt, table, ranges).await?;
        let mut merged = rowkey::merge::merge_streams(streams, Reading::LAYOUT.salt_end());
        let (mut n, mut bytes) = (0usize, 0usize);
        while let Some(row) = merged.next().await {
            let (k, cells) = row.map_err(Error::from)?;
            n += 1;
            bytes += touch(&k, &cells);
        }
        std::hint::black_box(bytes);
        Ok::<usize, Error>(n)
    };
    for n in [typed().await?, raw().await?, raw_merged().await?] {
        assert_eq!(n, rows);
    }
    let (mut t, mut r, mut rm) = (vec![], vec![], vec![]);
    let mut ratios = vec![];
    for round in 0..OVERHEAD_ROUNDS {
        // alternate the order so neither side always runs first
        let (a, b) = if round % 2 == 0 {
            let a = time(typed).await?;
            (a, time(raw).await?)
        } else {
            let b = time(raw).await?;
            (time(typed).await?, b)
        };
        rm.push(time(raw_merged).await?);
        ratios.push(a.as_secs_f64() / b.as_secs_f64());
        t.push(a);
        r.push(b);
    }
    ratios.sort_by(f64::total_cmp);
    let (tm, rmed, rmm) = (median(t), median(r), median(rm));
    let rate = |d: Duration| rows as f64 / d.as_secs_f64();
    println!(
        "{rows} rows over 16 salt buckets, {OVERHEAD_ROUNDS} interleaved rounds ({} build)",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    println!(
        "typed merged read (Table::read)       : {:>9.0} rows/s ({tm:.2?})",
        rate(tm)
    );
    println!(
        "raw, 16 concurrent bigtable_rs streams: {:>9.0} rows/s ({rmed:.2?})",
        rate(rmed)
    );
    println!(
        "raw streams merged, no decode         : {:>9.0} rows/s ({rmm:.2?})",
        rate(rmm)
    );
    println!(
        "ratio typed / raw: median {:.3} (per-round {:.3}-{:.3}); typed / raw merged: {:.3}",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
        tm.as_secs_f64() / rmm.as_secs_f64()
    );
    Ok(())
}
