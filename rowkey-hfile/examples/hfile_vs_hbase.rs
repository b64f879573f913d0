//! This writer against HBase 2.6.1's own HFile writer, side by side in one run.
//!
//! ```text
//! cargo run --release -p rowkey-hfile --example hfile_vs_hbase -- [cells] [none,snappy,gz,zstd] [java warm-ups]
//! ```
//!
//! Both write the same cells with the same settings: 24-byte rows (a 4-byte hex prefix, as an
//! MD5-salted key has, and a zero-padded counter), family `cf`, qualifier `q`, a 100-byte value,
//! 64 KiB blocks, a ROW Bloom filter, CRC32C in 16 KiB chunks, the file info
//! `HFileOutputFormat2` writes and the same create and bulk-load times, so the uncompressed files
//! are byte-identical (checked, and said, in the output; compressed files, whose codecs' bytes
//! differ, are checked to hold the same blocks before compression). HBase's side is
//! `StoreFileWriter` over `HFileWriterImpl`, as `HFileOutputFormat2` drives it
//! (`harness/JavaBench.java`, compiled here against the classpath the tests resolve with Maven
//! and cache under `~/.cache/rowkey-hfile`).
//!
//! One JVM serves every Java run. For each compression each writer makes warm-up runs (this
//! writer 1; HBase's 3 unless told otherwise, as the JIT takes about three 1,000,000-cell runs
//! to settle), then 5 timed runs of each, alternated (this writer first in the even rounds,
//! HBase's first in the odd ones) so that load from other processes falls on both; the table
//! shows each writer's median. A run is timed from creating the writer to closing the file, the
//! cells made in the loop on both sides (a `KeyValue` per cell on HBase's side, which is how its
//! writer takes a cell). MB are the blocks before compression (the trailer's
//! `total_uncompressed_bytes`), the same for every compression. Files go to the system's
//! temporary directory and are removed. Neither side syncs the file to disk.
//!
//! Needs `java`, `javac` (JDK 11 or newer) and `mvn`; the first run fetches HBase's jars.
//! Default: 1,000,000 cells, all four compressions.

#[path = "../tests/common/mod.rs"]
mod common;

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use rowkey_hfile::{Cell, Compression, FileSummary, HFileWriter, WriterOptions};

const RUST_WARMUPS: usize = 1;
const JAVA_WARMUPS: usize = 3;
const RUNS: usize = 5;
// the file info's times and task, the same on both sides (HBase's tests use the same)
const CREATE_TIME: i64 = 1_700_000_000_123;
const BULKLOAD_TIME: i64 = 1_700_000_000_456;
const TASK: &str = "rowkey-hfile-bench";

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let cells: u64 = args
        .next()
        .map_or(Ok(1_000_000), |s| s.replace('_', "").parse())?;
    let compressions = args
        .next()
        .unwrap_or_else(|| "none,snappy,gz,zstd".to_owned())
        .split(',')
        .map(|name| match name {
            "none" => Ok(Compression::None),
            "snappy" => Ok(Compression::Snappy),
            "gz" => Ok(Compression::Gz),
            "zstd" => Ok(Compression::Zstd),
            other => Err(format!(
                "unknown compression {other:?} (none, snappy, gz, zstd)"
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let java_warmups: usize = args.next().map_or(Ok(JAVA_WARMUPS), |s| s.parse())?;
    if let Some((program, install)) = common::missing_tool() {
        eprintln!(
            "`{program}` is missing: this benchmark runs HBase's own writer; install {install}"
        );
        std::process::exit(2);
    }
    let classpath = common::hbase_classpath();
    let classes = common::scratch_dir("bench-classes");
    common::compile_harness_file(&classpath, &classes, "JavaBench.java");
    let dir = common::scratch_dir("bench");
    let rust_path = dir.join("rust.hfile");
    let java_path = dir.join("hbase.hfile");
    let mut java = Java::start(&classpath, &classes, cells, &java_path, &dir)?;

    println!(
        "{} CPU(s), load average {} (files in {})",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average(),
        dir.display()
    );
    let mut rows = Vec::new();
    for &compression in &compressions {
        let name = compression.hbase_name();
        let mut rust_times = Vec::new();
        let mut java_times = Vec::new();
        let mut rust_warm = Vec::new();
        let mut java_warm = Vec::new();
        let mut summary = None;
        for _ in 0..RUST_WARMUPS {
            rust_warm.push(write_rust(&rust_path, cells, compression)?.0);
        }
        for _ in 0..java_warmups {
            java_warm.push(java.run(name)?.0);
        }
        let mut java_bytes = 0;
        for round in 0..RUNS {
            for rust_turn in [round % 2 == 0, round % 2 == 1] {
                if rust_turn {
                    let (t, s) = write_rust(&rust_path, cells, compression)?;
                    rust_times.push(t);
                    summary = Some(s);
                } else {
                    let (t, bytes) = java.run(name)?;
                    java_times.push(t);
                    java_bytes = bytes;
                }
            }
        }
        let summary = summary.expect("at least one run");
        let ours = std::fs::read(&rust_path)?;
        let theirs = std::fs::read(&java_path)?;
        if theirs.len() as u64 != java_bytes {
            return Err(format!("{}: changed since HBase wrote it", java_path.display()).into());
        }
        let files = if ours == theirs {
            format!("byte-identical ({} bytes)", ours.len())
        } else if let Some(blocks) = same_blocks(&ours, &theirs, compression) {
            let sizes = if ours.len() == theirs.len() {
                format!("same size ({} bytes)", ours.len())
            } else {
                format!(
                    "sizes differ: {} vs HBase's {} bytes ({:+} bytes, {:+.3}%)",
                    ours.len(),
                    theirs.len(),
                    ours.len() as i64 - theirs.len() as i64,
                    (ours.len() as f64 / theirs.len() as f64 - 1.0) * 100.0
                )
            };
            format!(
                "{sizes}; the codec's bytes differ, the {blocks} blocks before compression are \
                 HBase's (data, Bloom, file info)"
            )
        } else if ours.len() == theirs.len() {
            let at = ours.iter().zip(&theirs).position(|(a, b)| a != b);
            format!(
                "same size ({} bytes), bytes differ from offset {}",
                ours.len(),
                at.unwrap_or(0)
            )
        } else {
            format!(
                "sizes differ: {} vs HBase's {} bytes ({:+} bytes, {:+.3}%)",
                ours.len(),
                theirs.len(),
                ours.len() as i64 - theirs.len() as i64,
                (ours.len() as f64 / theirs.len() as f64 - 1.0) * 100.0
            )
        };
        println!(
            "{name}: this writer {} (warm-up {}), HBase's {} (warm-up {}); files: {files}",
            secs_list(&rust_times),
            secs_list(&rust_warm),
            secs_list(&java_times),
            secs_list(&java_warm),
        );
        rows.push(Row {
            compression: name.to_uppercase(),
            cells,
            mb: summary.uncompressed_bytes as f64 / 1e6,
            rust: median(&mut rust_times),
            java: median(&mut java_times),
            files,
        });
    }
    java.stop()?;
    println!("load average {} at the end", load_average());
    println!();
    print_table(&rows);
    std::fs::remove_dir_all(&dir)?;
    std::fs::remove_dir_all(&classes)?;
    Ok(())
}

/// Writes the benchmark's cells with this writer; the time from creating it to the closed file.
fn write_rust(
    path: &Path,
    cells: u64,
    compression: Compression,
) -> Result<(Duration, FileSummary), Error> {
    let value: Vec<u8> = (0..100u32).map(|i| b'a' + (i % 26) as u8).collect();
    let mut row = *b"3a7f00000000000000000000";
    let options = WriterOptions::default()
        .compression(compression)
        .create_time_ms(CREATE_TIME)
        .bulkload_time_ms(BULKLOAD_TIME)
        .bulkload_task(TASK);
    let start = Instant::now();
    let mut writer = HFileWriter::create(path, options)?;
    for i in 0..cells {
        let mut n = i;
        for d in row[4..].iter_mut().rev() {
            *d = b'0' + (n % 10) as u8;
            n /= 10;
        }
        writer.append(&Cell::put(&row, b"cf", b"q", 1_700_000_000_000, &value))?;
    }
    let summary = writer.finish()?;
    Ok((start.elapsed(), summary))
}

/// When two files have the same blocks and the same data, Bloom and file info blocks before
/// compression (index blocks hold offsets the codec moved): how many blocks.
fn same_blocks(ours: &[u8], theirs: &[u8], compression: Compression) -> Option<usize> {
    let ours = common::unpacked_blocks(ours, compression);
    let theirs = common::unpacked_blocks(theirs, compression);
    let same = ours.len() == theirs.len()
        && ours.iter().zip(&theirs).all(|((m, a), (n, b))| {
            m == n && (!matches!(m, b"DATABLK*" | b"BLMFBLK2" | b"FILEINF2") || a == b)
        });
    same.then_some(ours.len())
}

/// `harness/JavaBench.java` in one JVM: one line per run asked for, one line back.
struct Java {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    log: std::path::PathBuf,
}

impl Java {
    fn start(
        classpath: &str,
        classes: &Path,
        cells: u64,
        path: &Path,
        dir: &Path,
    ) -> Result<Java, Error> {
        let log = dir.join("java.log");
        let mut child = Command::new("java")
            .arg("-Xmx1g")
            .args(common::JDK17_FLAGS)
            .arg("-cp")
            .arg(format!("{classpath}:{}", classes.display()))
            .arg("JavaBench")
            .arg(cells.to_string())
            .arg(path)
            .arg(CREATE_TIME.to_string())
            .arg(BULKLOAD_TIME.to_string())
            .arg(TASK)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log)?)
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut java = Java {
            child,
            stdin,
            stdout,
            log,
        };
        java.expect("READY")?;
        Ok(java)
    }

    /// The next line starting with `prefix` (HBase may log to stdout too).
    fn expect(&mut self, prefix: &str) -> Result<String, Error> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                return Err(format!("JavaBench ended before {prefix}:\n{log}").into());
            }
            if line.starts_with(prefix) {
                return Ok(line.trim_end().to_owned());
            }
        }
    }

    /// One write by HBase's writer: its time and the file's length.
    fn run(&mut self, compression: &str) -> Result<(Duration, u64), Error> {
        writeln!(self.stdin, "{compression}")?;
        self.stdin.flush()?;
        let line = self.expect("RUN ")?;
        // RUN <compression> <nanoseconds> <bytes>
        let fields: Vec<&str> = line.split(' ').collect();
        match fields[..] {
            ["RUN", c, nanos, bytes] if c == compression => {
                Ok((Duration::from_nanos(nanos.parse()?), bytes.parse()?))
            }
            _ => Err(format!("JavaBench answered {line:?}").into()),
        }
    }

    fn stop(mut self) -> Result<(), Error> {
        drop(self.stdin);
        let status = self.child.wait()?;
        if !status.success() {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            return Err(format!("JavaBench exited with {status}:\n{log}").into());
        }
        Ok(())
    }
}

struct Row {
    compression: String,
    cells: u64,
    mb: f64,
    rust: Duration,
    java: Duration,
    files: String,
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn secs_list(times: &[Duration]) -> String {
    let list: Vec<String> = times
        .iter()
        .map(|t| format!("{:.3}", t.as_secs_f64()))
        .collect();
    format!("[{}] s", list.join(", "))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".to_owned(),
        |s| s.split(' ').take(3).collect::<Vec<_>>().join(" "),
    )
}

fn print_table(rows: &[Row]) {
    println!(
        "{:<11} {:>9} {:>7} {:>8} {:>8} {:>11} {:>9} {:>9} {:>12} {:>12}",
        "compression",
        "cells",
        "MB",
        "Rust s",
        "Java s",
        "Rust ÷ Java",
        "Rust MB/s",
        "Java MB/s",
        "Rust cells/s",
        "Java cells/s"
    );
    for r in rows {
        let (rust, java) = (r.rust.as_secs_f64(), r.java.as_secs_f64());
        println!(
            "{:<11} {:>9} {:>7.1} {:>8.3} {:>8.3} {:>11.2} {:>9.0} {:>9.0} {:>12.0} {:>12.0}",
            r.compression,
            r.cells,
            r.mb,
            rust,
            java,
            rust / java,
            r.mb / rust,
            r.mb / java,
            r.cells as f64 / rust,
            r.cells as f64 / java,
        );
    }
    println!();
    for r in rows {
        println!("{}: {}", r.compression, r.files);
    }
}
