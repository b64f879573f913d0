//! Measures typed reads on a real HBase against raw Thrift2 scans of the same ranges, and a
//! 16-bucket fan-out read concurrent versus sequential.
//!
//! - typed, concurrent: `Table::read` over the 16 salt-bucket ranges — a scanner per bucket,
//!   at most 8 at once (`Client::with_max_streams`), each thread with a connection of its own,
//!   merged into logical order by `rowkey::read`, every key decoded;
//! - raw, concurrent: the same 16 ranges through the generated Thrift2 client directly — a
//!   thread and connection per range, `openScanner`/`getScannerRows`/`closeScanner`, rows
//!   counted and touched, no merge, no decode;
//! - typed, sequential (`.sequential()`: one connection, pages fetched as the merge needs
//!   them) and raw, sequential (one connection, the ranges one after another);
//! - one range (one salt bucket) typed and raw (a typed read of one range runs its scanner on
//!   the caller's thread; the `.sequential()` case takes the same path, as a check).
//!
//! The raw scans run on connections opened before the rounds; the typed reads take theirs from
//! the client's pool (warm after the first round).
//!
//! Pages of 1,000 rows everywhere. HBase runs on the same machine (standalone, one region
//! server), so only the ratios mean anything (BENCHMARKS.md). Rounds are interleaved (each starting at
//! another case) and the medians of 7 reported.
//!
//! Run: `cargo run --release -p rowkey-hbase --example hbase_fanout [rows] [gateway host:port]`
//! (default 160000 rows; without an address it starts HBase itself).

use std::time::{Duration, Instant};

use rowkey::{RowKey, ScanRange, ScanRanges};
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::thrift::{TScan, TTHBaseServiceSyncClient};
use rowkey_hbase::{Batch, Cell, Client, Conn, Error, Table};

/// A device's readings, salted over 16 buckets by device.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 16)]
    #[sep]
    device: String,
    ts: u64,
}

const ROUNDS: usize = 7;
const PAGE: i32 = 1000;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn scan_of(r: &ScanRange) -> TScan {
    TScan::new(
        Some(r.start().to_vec()).filter(|s| !s.is_empty()),
        r.stop().map(<[u8]>::to_vec),
        None,
        PAGE,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    )
}

/// One range through the generated client on an open connection: rows counted, each key's
/// length touched.
fn raw_range(conn: &mut Conn, table: &str, r: &ScanRange) -> Result<usize, Error> {
    let id = conn
        .open_scanner(table.as_bytes().to_vec(), scan_of(r))
        .map_err(Error::from)?;
    let mut n = 0;
    let mut touched = 0usize;
    loop {
        let rows = conn.get_scanner_rows(id, PAGE).map_err(Error::from)?;
        n += rows.len();
        touched += rows
            .iter()
            .map(|r| r.row.as_ref().map_or(0, Vec::len))
            .sum::<usize>();
        if rows.len() < PAGE as usize {
            break;
        }
    }
    conn.close_scanner(id).map_err(Error::from)?;
    std::hint::black_box(touched);
    Ok(n)
}

fn raw_concurrent(conns: &mut [Conn], table: &str, ranges: &ScanRanges) -> Result<usize, Error> {
    std::thread::scope(|s| {
        let handles: Vec<_> = ranges
            .iter()
            .zip(conns.iter_mut())
            .map(|(r, conn)| s.spawn(move || raw_range(conn, table, r)))
            .collect();
        let mut n = 0;
        for h in handles {
            n += h
                .join()
                .map_err(|_| Error::InvalidArgument("a scan thread panicked".into()))??;
        }
        Ok(n)
    })
}

fn raw_sequential(conn: &mut Conn, table: &str, ranges: &ScanRanges) -> Result<usize, Error> {
    ranges.iter().map(|r| raw_range(conn, table, r)).sum()
}

fn typed(table: &Table, ranges: &ScanRanges, sequential: bool) -> Result<usize, Error> {
    let mut read = table.read::<Reading>(ranges).page_rows(PAGE as usize);
    if sequential {
        read = read.sequential();
    }
    let mut n = 0;
    for row in read.rows()? {
        let (k, _) = row?;
        std::hint::black_box(&k);
        n += 1;
    }
    Ok(n)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rows: u64 = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(160_000);
    let (_server, addr) = match args.next() {
        Some(a) => (None, a),
        None => {
            let h = HBase::start()?;
            let a = h.thrift_addr().to_string();
            (Some(h), a)
        }
    };
    let client = Client::connect(addr.as_str())?;
    let name = "fanout_bench";
    if client.table_exists(name)? {
        client.delete_table(name)?;
    }
    client.create_table_for::<Reading>(name, &["f"], 16)?;
    let table = client.table(name);
    let mut batch = Batch::new();
    for i in 0..rows {
        let r = Reading {
            device: format!("device-{}", i % 1000),
            ts: i,
        };
        batch.put(&table, &r, [Cell::new("f", "v", [7u8; 16])])?;
        if batch.len() == 10_000 {
            std::mem::take(&mut batch).apply()?;
        }
    }
    batch.apply()?;
    let all = Reading::scan().ranges();
    // one salt bucket: one range
    let one = ScanRanges::new(vec![ScanRange::prefix(b"\x05")]);
    let one_n = typed(&table, &one, false)?;
    println!(
        "{rows} rows in 16 salt buckets; one range: {one_n} rows; pages of {PAGE}; medians of {ROUNDS} interleaved rounds"
    );

    // The raw scans use connections opened once (the typed read takes them from its client's
    // pool, warm after the first round).
    let mut conns: Vec<Conn> = (0..16).map(|_| client.open()).collect::<Result<_, _>>()?;
    let mut t: [Vec<Duration>; 7] = Default::default();
    for round in 0..ROUNDS {
        // each round starts at another case: no case always follows the same one
        for k in 0..t.len() {
            let i = (k + round) % t.len();
            let started = Instant::now();
            let n = match i {
                0 => typed(&table, &all, false)?,
                1 => raw_concurrent(&mut conns, name, &all)?,
                2 => typed(&table, &all, true)?,
                3 => raw_sequential(&mut conns[0], name, &all)?,
                4 => typed(&table, &one, false)?,
                5 => raw_sequential(&mut conns[0], name, &one)?,
                _ => typed(&table, &one, true)?,
            };
            t[i].push(started.elapsed());
            let want = if i < 4 { rows as usize } else { one_n };
            assert_eq!(n, want, "case {i}");
        }
    }
    let m: Vec<Duration> = t.into_iter().map(median).collect();
    let rate = |d: Duration, n: u64| n as f64 / d.as_secs_f64() / 1000.0;
    let names = [
        "typed merged read, 16 concurrent scanners",
        "raw Thrift2 scans, 16 concurrent",
        "typed merged read, sequential",
        "raw Thrift2 scans, sequential",
        "typed read, one range",
        "raw Thrift2 scan, one range",
        "typed read, one range, sequential",
    ];
    for (i, name) in names.iter().enumerate() {
        let n = if i < 4 { rows } else { one_n as u64 };
        println!("{name:<44} {:>9.1?}  {:>7.0} k rows/s", m[i], rate(m[i], n));
    }
    let r = |a: usize, b: usize| m[a].as_secs_f64() / m[b].as_secs_f64();
    println!("typed ÷ raw, concurrent:   {:.2}x", r(0, 1));
    println!("typed ÷ raw, sequential:   {:.2}x", r(2, 3));
    println!("typed ÷ raw, one range:    {:.2}x", r(4, 5));
    println!("typed ÷ raw, one range, sequential: {:.2}x", r(6, 5));
    println!("concurrent ÷ sequential (typed): {:.2}x", r(0, 2));
    println!("concurrent ÷ sequential (raw):   {:.2}x", r(1, 3));
    Ok(())
}
