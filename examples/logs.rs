//! `logs`: the LOG_DATA table two ways.
//!
//! 1. `[host][event][reverse ts]` — the latest events of one host are the first rows of a
//!    prefix scan (newest first), and `web-1` never matches `web-10`.
//! 2. `[bucket][ts][host][event]` with `bucket = ts % 16` — writes spread over 16 buckets; a
//!    time-range scan fans out to the buckets it can touch and the results are merged back into
//!    time order.
//!
//! Run: `cargo run --example logs`

mod support;

use rowkey::RowKey;
use support::Store;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogByHost {
    #[sep]
    host: String,
    #[sep]
    event: String,
    #[reverse_ts]
    ts_ms: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogByTime {
    #[salt(buckets = 16, modulo)]
    ts_ms: u64,
    #[sep]
    host: String,
    #[sep]
    event: String,
}

const T0: u64 = 1_700_000_000_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let hosts = ["web-1", "web-10", "web-2", "db-1"];
    let events = ["GET", "POST", "ERROR"];
    let mut lines = Vec::new();
    for i in 0..4_000u64 {
        let host = hosts[(i * 7 % 4) as usize];
        let event = events[(i % 3) as usize];
        lines.push((host, event, T0 + i * 250 + (i * 37) % 250)); // about one line every 250 ms
    }

    // 1. latest events of a host
    let by_host = Store::temp("logs-host")?;
    by_host.put_all(lines.iter().map(|&(h, e, ts)| {
        let k = LogByHost {
            host: h.into(),
            event: e.into(),
            ts_ms: ts as i64,
        };
        (
            k.to_row_key().expect("valid key"),
            format!("{h} {e} {ts}").into_bytes(),
        )
    }))?;
    let ranges = LogByHost::scan().host("web-1").event("ERROR").ranges();
    let rows = by_host.scan_each(&ranges)?;
    let latest: Vec<LogByHost> = rows
        .iter()
        .flatten()
        .take(3)
        .map(|(k, _)| LogByHost::from_row_key(k))
        .collect::<Result<_, _>>()?;
    println!(
        "latest ERROR lines of web-1 (newest first, {} in all):",
        rows.iter().flatten().count()
    );
    for l in &latest {
        println!("  {l:?}");
    }
    assert!(latest.windows(2).all(|w| w[0].ts_ms > w[1].ts_ms));
    assert!(rows
        .iter()
        .flatten()
        .all(|(k, _)| LogByHost::from_row_key(k).is_ok_and(|l| l.host == "web-1")));

    // 2. time buckets
    let by_time = Store::temp("logs-time")?;
    by_time.put_all(lines.iter().map(|&(h, e, ts)| {
        let k = LogByTime {
            ts_ms: ts,
            host: h.into(),
            event: e.into(),
        };
        (k.to_row_key().expect("valid key"), Vec::new())
    }))?;
    let mut per_bucket = [0usize; 16];
    for (k, _) in by_time.all()? {
        per_bucket[usize::from(k[0])] += 1;
    }
    println!("rows per bucket: {per_bucket:?}");

    for (label, range) in [
        ("5 minutes", T0 + 100_000..T0 + 400_000),
        ("1 second", T0 + 100_000..T0 + 101_000),
        ("10 ms", T0 + 100_000..T0 + 100_010),
    ] {
        // one store scan per touched bucket, merged back into time order by the typed reader
        let read = rowkey::read::Read::<LogByTime>::new(
            LogByTime::scan().ts_ms_range(range.clone()).ranges(),
        );
        let per_range = by_time.scan_each(read.ranges())?;
        let merged: Vec<LogByTime> = read
            .rows(per_range.into_iter().map(Vec::into_iter))
            .map(|row| row.map(|(k, _)| k))
            .collect::<Result<_, _>>()?;
        assert!(
            merged.windows(2).all(|w| w[0].ts_ms <= w[1].ts_ms),
            "merged in time order"
        );
        assert!(merged.iter().all(|l| range.contains(&l.ts_ms)));
        println!(
            "time range of {label:<9}: {:>2} bucket range(s), {:>4} lines, merged in time order: {:?} .. {:?}",
            read.ranges().len(),
            merged.len(),
            merged.first().map(|l| l.ts_ms - T0),
            merged.last().map(|l| l.ts_ms - T0),
        );
    }
    Ok(())
}
