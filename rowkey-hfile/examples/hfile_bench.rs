//! Writes N cells to an HFile and prints the throughput.
//!
//! ```text
//! cargo run --release -p rowkey-hfile --example hfile_bench -- [cells] [none|snappy|gz|zstd] [path]
//! ```
//!
//! HBase's own writer on the same cells, side by side in one run: `examples/hfile_vs_hbase.rs`.
//!
//! Cells: 24-byte rows (a 4-byte hex prefix, as an MD5-salted key has, and a counter), family `cf`, qualifier `q`, a
//! 100-byte value; the default writes 1,000,000 cells with SNAPPY to a temporary file.

use std::io::Write as _;
use std::time::Instant;

use rowkey_hfile::{Cell, Compression, HFileWriter, WriterOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let cells: u64 = args.next().map_or(Ok(1_000_000), |s| s.parse())?;
    let compression = match args.next().as_deref().unwrap_or("snappy") {
        "none" => Compression::None,
        "snappy" => Compression::Snappy,
        "gz" => Compression::Gz,
        "zstd" => Compression::Zstd,
        other => return Err(format!("unknown compression {other}").into()),
    };
    let path = args.next().map_or_else(
        || std::env::temp_dir().join(format!("rowkey-hfile-bench-{}", std::process::id())),
        std::path::PathBuf::from,
    );
    let value: Vec<u8> = (0..100u32).map(|i| b'a' + (i % 26) as u8).collect();
    let options = WriterOptions::default().compression(compression);
    let start = Instant::now();
    let mut writer = HFileWriter::create(&path, options)?;
    let mut row = Vec::with_capacity(24);
    for i in 0..cells {
        // one region's rows: a fixed 4-byte hash prefix, then a zero-padded counter
        row.clear();
        row.extend_from_slice(b"3a7f");
        write!(row, "{i:020}")?;
        writer.append(&Cell::put(&row, b"cf", b"q", 1_700_000_000_000, &value))?;
    }
    let summary = writer.finish()?;
    let secs = start.elapsed().as_secs_f64();
    let raw = summary.uncompressed_bytes as f64 / 1e6;
    println!(
        "{cells} cells, {:?}: {:.1} MB on disk ({raw:.1} MB uncompressed) in {secs:.3} s: \
         {:.1} MB/s (uncompressed), {:.0} cells/s; {} data blocks, {}-level index, {} Bloom chunks",
        compression,
        summary.bytes as f64 / 1e6,
        raw / secs,
        cells as f64 / secs,
        summary.data_blocks,
        summary.index_levels,
        summary.bloom_chunks,
    );
    std::fs::remove_file(&path)?;
    Ok(())
}
