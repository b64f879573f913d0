//! The bulk load's memory, measured: the peak resident set (`VmHWM`) of a process that writes
//! an input of 1×, 4× and 16× its memory budget as HFiles for 40 regions (no server: split
//! points given, files in a temporary directory, removed after each run). Each run is a child
//! process of its own, so each peak is its own.
//!
//! ```sh
//! cargo run --release -p rowkey-hbase --example bulk_memory             # budget 256 MiB (the default)
//! cargo run --release -p rowkey-hbase --example bulk_memory -- 64       # budget 64 MiB
//! ```

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use rowkey::plan::hex_string_split;
use rowkey::RowKey;
use rowkey_hbase::bulk::{BulkLoad, Compression, Family, WriterOptions};
use rowkey_hbase::Cell;

/// `md5(MSISDN)[..4] + MSISDN + time`
#[derive(RowKey, Debug)]
struct ByHash {
    #[hash_prefix(4)]
    #[pad(11)]
    msisdn: String,
    ts_ms: u64,
}

/// Bytes of a record as the sort holds it, roughly: key ~27, two cells' heads, values.
const VALUE: usize = 200;

fn child(budget_mib: usize, multiple: usize) -> Result<(), Box<dyn std::error::Error>> {
    let budget = budget_mib << 20;
    let dir = std::env::temp_dir().join(format!("rowkey-bulk-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let family =
        Family::new("info").options(WriterOptions::default().compression(Compression::Snappy));
    let mut writer = BulkLoad::with_split_points(&dir, &hex_string_split(40), vec![family])?
        .memory_budget(budget)
        .threads(2)
        .writer::<ByHash>()?;
    let target = (budget * multiple) as u64;
    let value = vec![b'v'; VALUE];
    let started = Instant::now();
    let (mut bytes, mut i) = (0u64, 0u64);
    while bytes < target {
        let key = ByHash {
            msisdn: format!("1{:010}", i.wrapping_mul(0x9E37_79B9) % 10_000_000_000),
            ts_ms: 1_700_000_000_000 + i,
        };
        writer.add(&key, [Cell::new("info", "v", &value).at(1)])?;
        // what the sort holds of it: the record (19-byte head, key, family, qualifier, value)
        // and its slot
        bytes += (19 + 27 + 4 + 1 + VALUE + 16) as u64;
        i += 1;
    }
    let report = writer.finish()?;
    let hwm = std::fs::read_to_string("/proc/self/status")?
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|k| k.parse::<u64>().ok())
        })
        .unwrap_or(0);
    println!(
        "{budget_mib} MiB budget, input {multiple}x ({} MiB in the sort, {i} cells): peak RSS {} MiB, {} runs, {} MiB of files, {:.1} s",
        bytes >> 20,
        hwm >> 10,
        report.runs,
        report.bytes >> 20,
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("child") {
        let budget: usize = args.get(2).ok_or("budget")?.parse()?;
        let multiple: usize = args.get(3).ok_or("multiple")?.parse()?;
        return child(budget, multiple);
    }
    let budget: usize = match args.get(1) {
        Some(b) => b.parse()?,
        None => 256,
    };
    let me = PathBuf::from(&args[0]);
    for multiple in [1, 4, 16] {
        let status = Command::new(&me)
            .args(["child", &budget.to_string(), &multiple.to_string()])
            .status()?;
        if !status.success() {
            return Err(format!("the run at {multiple}x failed: {status}").into());
        }
    }
    Ok(())
}
