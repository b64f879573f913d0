//! IN-list reads on one HBase, side by side: rowkey's typed read against Phoenix's own `IN`
//! query and a raw Thrift2 multi-range scanner, on the same tables.
//!
//! The tables are Phoenix tables — `(tenant VARCHAR, device BIGINT, ts BIGINT)`, unsalted and
//! `SALT_BUCKETS = 8` — with 200,000 rows each written through rowkey-hbase with the
//! `#[rowkey(phoenix)]` key types (Phoenix reads them as its own). For N devices of tenant `t1`
//! (a third of them never written):
//!
//! - **rowkey**: `table.read::<K>(&K::scan().tenant("t1").device_in(&devices)?.ranges())
//!   .keys_only().keys()` — one scanner per salt bucket with a `MultiRowRangeFilter`, at most
//!   8 at once, merged in logical order, every key decoded;
//! - **Phoenix**: `SELECT device, ts FROM … WHERE tenant = 't1' AND device IN (…)` through the
//!   thick JDBC driver, timed inside its JVM (its skip scan, one per region);
//! - **raw**: one Thrift2 scanner whose `MultiRowRangeFilter` holds every range (keys only, rows
//!   counted, no merge, no decode) — the floor a client of the gateway can reach.
//!
//! Rounds are interleaved (Phoenix, rowkey and raw for every N, each round starting at another
//! of the three, then the next round); the medians of 7 are printed as a Markdown table with
//! the ratios, the peak number of threads of this process during a rowkey read (sampled every
//! 0.5 ms in one more, untimed read), and the error items (none expected). HBase, Phoenix and
//! this process share the machine: only the ratios mean anything (BENCHMARKS.md).
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_in_lists [rows]` (default 200000;
//! starts HBase with Phoenix itself).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rowkey::RowKey;
use rowkey_hbase::read::RawScan;
use rowkey_hbase::testkit::{HBase, PhoenixTimer};
use rowkey_hbase::{Batch, Cell, Client, Error, Table};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Plain {
    tenant: String,
    device: i64,
    ts: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 8))]
struct Salted {
    tenant: String,
    device: i64,
    ts: i64,
}

const ROUNDS: usize = 7;
const NS: [usize; 6] = [1, 10, 100, 1000, 2000, 5000];

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

/// Threads of this process.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

/// N distinct devices out of 0..1.5×devices, spread (a third never written).
fn devices(n: usize, written: i64, seed: u64) -> Vec<i64> {
    let space = written * 3 / 2;
    let mut x = seed | 1;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let d = i64::try_from(x % u64::try_from(space).unwrap_or(1)).unwrap_or(0);
        if seen.insert(d) {
            out.push(d);
        }
    }
    out
}

trait Key: RowKey + rowkey::DecodeRowKeyOwned + Clone + 'static {
    const TABLE: &'static str;
    fn new(device: i64, ts: i64) -> Self;
    fn ranges(devices: &[i64]) -> Result<rowkey::ScanRanges, Error>;
}

impl Key for Plain {
    const TABLE: &'static str = "M_PLAIN";
    fn new(device: i64, ts: i64) -> Self {
        Plain {
            tenant: "t1".into(),
            device,
            ts,
        }
    }
    fn ranges(devices: &[i64]) -> Result<rowkey::ScanRanges, Error> {
        Ok(Plain::scan().tenant("t1").device_in(devices)?.ranges())
    }
}

impl Key for Salted {
    const TABLE: &'static str = "M_SALTED";
    fn new(device: i64, ts: i64) -> Self {
        Salted {
            tenant: "t1".into(),
            device,
            ts,
        }
    }
    fn ranges(devices: &[i64]) -> Result<rowkey::ScanRanges, Error> {
        Ok(Salted::scan().tenant("t1").device_in(devices)?.ranges())
    }
}

/// Write `rows` rows (devices × 4 times) with the cell Phoenix writes (learnt from its row).
fn fill<K: Key>(client: &Client, rows: usize) -> Result<i64, Error> {
    let table = client.table(K::TABLE);
    let phoenix_row = RawScan::new(&table, rowkey::ScanRange::new(b"", None))
        .rows()?
        .next()
        .ok_or_else(|| {
            Error::InvalidArgument(format!("{}: Phoenix's row is missing", K::TABLE))
        })??;
    let cells: Vec<Cell> = phoenix_row
        .cells
        .iter()
        .map(|c| Cell::new(&c.family, &c.qualifier, &c.value))
        .collect();
    let devices = i64::try_from(rows / 4).unwrap_or(1);
    let mut batch = Batch::new();
    for d in 0..devices {
        for t in 0..4 {
            batch.put(
                &table,
                &K::new(d, 1_700_000_000_000 + t * 60_000),
                cells.clone(),
            )?;
        }
        if batch.len() >= 8000 {
            std::mem::take(&mut batch).apply()?;
        }
    }
    batch.apply()?;
    Ok(devices)
}

struct Row {
    n: usize,
    ranges: usize,
    rowkey: Duration,
    phoenix: Duration,
    raw: Duration,
    peak_threads: usize,
    errors: usize,
}

/// The typed read, with a sampler counting this process's threads meanwhile (untimed: the
/// sampler competes for the cores): rows, time, the most threads seen above the count before
/// the read, and error items.
fn typed<K: Key>(
    table: &Table,
    ranges: &rowkey::ScanRanges,
) -> Result<(u64, Duration, usize, usize), Error> {
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(AtomicUsize::new(0));
    let base = threads();
    let sampler = {
        let (stop, seen) = (stop.clone(), seen.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                seen.fetch_max(threads(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(500));
            }
        })
    };
    let started = Instant::now();
    let (mut rows, mut errors) = (0u64, 0usize);
    for row in table.read::<K>(ranges).keys_only().rows()? {
        match row {
            Ok(_) => rows += 1,
            Err(_) => errors += 1,
        }
    }
    let took = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    // the sampler is one of the threads it saw
    let peak = seen.load(Ordering::Relaxed).saturating_sub(base + 1);
    Ok((rows, took, peak, errors))
}

fn run<K: Key>(
    client: &Client,
    phoenix: &mut PhoenixTimer,
    written: i64,
) -> Result<Vec<Row>, Box<dyn std::error::Error>> {
    let table: Table = client.table(K::TABLE);
    let mut out = Vec::new();
    for (i, &n) in NS.iter().enumerate() {
        let list = devices(n, written, 0x5EED + i as u64);
        let ranges = K::ranges(&list)?;
        let in_list: Vec<String> = list.iter().map(i64::to_string).collect();
        let sql = format!(
            "SELECT DEVICE, TS FROM {} WHERE TENANT = 't1' AND DEVICE IN ({})",
            K::TABLE,
            in_list.join(",")
        );
        let (mut t_rowkey, mut t_phoenix, mut t_raw) = (Vec::new(), Vec::new(), Vec::new());
        let (mut peak, mut errors) = (0usize, 0usize);
        for round in 0..ROUNDS {
            let mut counts = [0u64; 3];
            // each round starts at another of the three, so that none always runs first
            for step in 0..3 {
                match (round + step) % 3 {
                    0 => {
                        let (rows, took) = phoenix.query(&sql)?;
                        t_phoenix.push(took);
                        counts[0] = rows;
                    }
                    1 => {
                        let started = Instant::now();
                        let (mut rows, mut errs) = (0u64, 0usize);
                        for row in table.read::<K>(&ranges).keys_only().rows()? {
                            match row {
                                Ok(_) => rows += 1,
                                Err(_) => errs += 1,
                            }
                        }
                        t_rowkey.push(started.elapsed());
                        counts[1] = rows;
                        errors += errs;
                    }
                    _ => {
                        let started = Instant::now();
                        let mut rows = 0u64;
                        for row in RawScan::multi(&table, &ranges).keys_only().rows()? {
                            row?;
                            rows += 1;
                        }
                        t_raw.push(started.elapsed());
                        counts[2] = rows;
                    }
                }
            }
            if counts[1] != counts[0] || counts[2] != counts[0] {
                return Err(format!(
                    "{} N = {n}: Phoenix {} rows, rowkey {}, raw {}",
                    K::TABLE,
                    counts[0],
                    counts[1],
                    counts[2]
                )
                .into());
            }
        }
        // the threads, in a read of its own (the sampler would slow the timed reads)
        let (_, _, threads_seen, errs) = typed::<K>(&table, &ranges)?;
        peak = peak.max(threads_seen);
        errors += errs;
        out.push(Row {
            n,
            ranges: ranges.len(),
            rowkey: median(t_rowkey),
            phoenix: median(t_phoenix),
            raw: median(t_raw),
            peak_threads: peak,
            errors,
        });
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(200_000);
    let hbase = HBase::start_with_phoenix()?;
    hbase.phoenix_sql(
        "CREATE TABLE M_PLAIN (TENANT VARCHAR NOT NULL, DEVICE BIGINT NOT NULL, TS BIGINT NOT NULL \
           CONSTRAINT PK PRIMARY KEY (TENANT, DEVICE, TS));
         CREATE TABLE M_SALTED (TENANT VARCHAR NOT NULL, DEVICE BIGINT NOT NULL, TS BIGINT NOT NULL \
           CONSTRAINT PK PRIMARY KEY (TENANT, DEVICE, TS)) SALT_BUCKETS = 8;
         UPSERT INTO M_PLAIN VALUES ('t0', 0, 0);
         UPSERT INTO M_SALTED VALUES ('t0', 0, 0);",
    )?;
    let client = Client::connect(hbase.thrift_addr())?;
    let started = Instant::now();
    let written = fill::<Plain>(&client, rows)?;
    fill::<Salted>(&client, rows)?;
    eprintln!(
        "wrote {} rows to each table in {:.1} s",
        written * 4,
        started.elapsed().as_secs_f64()
    );
    let mut phoenix = hbase.phoenix_timer()?;
    // warm-up: the JIT, Phoenix's metadata caches, the regions' blocks
    for _ in 0..3 {
        let _ = run::<Plain>(&client, &mut phoenix, written)?;
        let _ = run::<Salted>(&client, &mut phoenix, written)?;
    }
    println!(
        "| table | N devices | ranges | rowkey ms | Phoenix ms | raw multi-range ms | rowkey / Phoenix | rowkey / raw | peak read threads | error items |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for (name, rows) in [
        ("unsalted", run::<Plain>(&client, &mut phoenix, written)?),
        (
            "SALT_BUCKETS = 8",
            run::<Salted>(&client, &mut phoenix, written)?,
        ),
    ] {
        for r in rows {
            println!(
                "| {name} | {} | {} | {} | {} | {} | {:.2}× | {:.2}× | {} | {} |",
                r.n,
                r.ranges,
                ms(r.rowkey),
                ms(r.phoenix),
                ms(r.raw),
                r.rowkey.as_secs_f64() / r.phoenix.as_secs_f64(),
                r.rowkey.as_secs_f64() / r.raw.as_secs_f64(),
                r.peak_threads,
                r.errors
            );
        }
    }
    Ok(())
}
