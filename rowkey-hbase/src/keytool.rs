//! The key tool with live HBase commands (feature `tool`): `rowkey::tool`'s commands (`describe`,
//! `encode`, `scan`, `plan`, `hotspots`, …) plus
//!
//! ```toml
//! [dependencies]
//! rowkey-hbase = { version = "0.1", features = ["tool"] }
//! ```
//!
//! - `visualize`, which samples a table's regions on a running cluster — the region servers'
//!   own request counters ([`crate::load`]) — and writes the key visualizer's page, a progress
//!   line on standard error while it samples;
//! - `bulk`, which reads records — delimited text, as ImportTsv reads it: each line's columns
//!   named by `--columns`, a key field's name (its value as `keytool encode` takes it) or
//!   `family:qualifier` for a cell — and writes them as HFiles per region of the table
//!   ([`crate::bulk`], the table's current regions and family settings), then prints the
//!   `completebulkload` command that loads them; progress on standard error (a line rewritten
//!   in place on a terminal, a line per 100,000 records otherwise).
//!
//! ```text
//! keytool visualize <TYPE> --gateway HOST:PORT --table TABLE --metrics URL[,URL…]
//!         [--seconds N (60)] [--every S (5)] [--html OUT (TABLE.html)]
//! keytool bulk <TYPE> --gateway HOST:PORT --table TABLE --out DIR --columns COL[,COL…]
//!         [--input FILE (standard input)] [--separator C (tab)] [--memory MIB (256)]
//!         [--threads N] [--timestamp MS]
//! ```
//!
//! ```no_run
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Order {
//!     #[salt(buckets = 16)]
//!     seller_id: u64,
//!     order_no: u64,
//! }
//!
//! fn main() {
//!     // `keytool visualize Order --gateway gw:9090 --table orders --metrics http://rs1:16030`
//!     rowkey_hbase::keytool::main::<(Order,)>()
//! }
//! ```

use std::io::{self, BufRead, IsTerminal, Write};
use std::time::Duration;

use rowkey::tool::KeyTypes;

use crate::load::{per_server, unlabelled_map, LoadSampler};
use crate::Client;

/// The tool as a `main`: `visualize`, `bulk`, or any command of `rowkey::tool::main` (which
/// runs everything else, streams and exit code included).
pub fn main<K: KeyTypes>() -> ! {
    let args: Vec<String> = std::env::args().collect();
    let command = args.get(1).map(String::as_str);
    if command != Some("visualize") && command != Some("bulk") {
        rowkey::tool::main::<K>()
    }
    let stdout = io::stdout();
    let mut stdout = io::BufWriter::new(stdout.lock());
    let mut stderr = io::stderr();
    let progress = io::stderr().is_terminal();
    let code = if command == Some("bulk") {
        let stdin = io::stdin();
        let mut stdin = stdin.lock();
        bulk_with::<K>(&args, &mut stdin, &mut stdout, &mut stderr, progress)
    } else {
        visualize_with::<K>(&args, &mut stdout, &mut stderr, progress)
    };
    let _ = stdout.flush();
    std::process::exit(code)
}

/// Runs the tool on `args` (`args[0]` is the program name) and returns its exit code (0
/// success, 1 failure, 2 usage error): `visualize` here, anything else by
/// [`rowkey::tool::run`]. `visualize` writes its progress to `stderr` (one line per sample),
/// `bulk` one line per 100,000 records.
pub fn run<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    if args.get(1) == Some(&"visualize") {
        visualize_with::<K>(&args, stdout, stderr, false)
    } else if args.get(1) == Some(&"bulk") {
        bulk_with::<K>(&args, stdin, stdout, stderr, false)
    } else {
        rowkey::tool::run::<K>(&args, stdin, stdout, stderr)
    }
}

const USAGE: &str = "usage: keytool visualize <TYPE> --gateway HOST:PORT --table TABLE \
--metrics URL[,URL…] [--seconds N] [--every S] [--html OUT]";

fn visualize_with<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    terminal: bool,
) -> i32 {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let mut ty = None;
    let (mut gateway, mut table, mut metrics, mut html) = (None, None, None, None);
    let (mut seconds, mut every) = (60u64, 5u64);
    let mut rest = args.iter().skip(2);
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| {
            rest.next()
                .copied()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let parsed: Result<(), String> = match *arg {
            "--gateway" => value("--gateway").map(|v| gateway = Some(v)),
            "--table" => value("--table").map(|v| table = Some(v)),
            "--metrics" => value("--metrics").map(|v| metrics = Some(v)),
            "--html" => value("--html").map(|v| html = Some(v.to_owned())),
            "--seconds" => value("--seconds").and_then(|v| {
                v.parse()
                    .map(|n| seconds = n)
                    .map_err(|e| format!("--seconds {v}: {e}"))
            }),
            "--every" => value("--every").and_then(|v| {
                v.parse()
                    .map(|n| every = n)
                    .map_err(|e| format!("--every {v}: {e}"))
            }),
            "-h" | "--help" => {
                let _ = writeln!(stdout, "{USAGE}");
                return 0;
            }
            other if other.starts_with('-') => Err(format!("unknown option {other}")),
            other if ty.is_none() => {
                ty = Some(other);
                Ok(())
            }
            other => Err(format!("unexpected argument {other}")),
        };
        if let Err(e) = parsed {
            let _ = writeln!(stderr, "error: {e}\n{USAGE}");
            return 2;
        }
    }
    let (Some(ty), Some(gateway), Some(table), Some(metrics)) = (ty, gateway, table, metrics)
    else {
        let _ = writeln!(
            stderr,
            "error: <TYPE>, --gateway, --table and --metrics are required\n{USAGE}"
        );
        return 2;
    };
    if every == 0 {
        let _ = writeln!(stderr, "error: --every must be at least 1 (seconds)");
        return 2;
    }
    let Some(key_type) = key_type_named::<K>(ty, stderr) else {
        return 2;
    };
    let html = html.unwrap_or_else(|| format!("{}.html", table.replace(':', "_")));
    let mut run = || -> Result<String, crate::Error> {
        let client = Client::connect(gateway)?;
        let urls: Vec<&str> = metrics.split(',').filter(|u| !u.is_empty()).collect();
        let sampler = LoadSampler::new(&client.table(table), &urls)?;
        let samples = sampler.watch(
            Duration::from_secs(every),
            Duration::from_secs(seconds),
            |done, all| {
                let _ = if terminal {
                    write!(stderr, "\rsampling {table}: {done}/{all}")
                } else {
                    writeln!(stderr, "sampling {table}: {done}/{all}")
                };
            },
        )?;
        if terminal {
            let _ = writeln!(stderr);
        }
        let map = key_type.label_map(unlabelled_map(&format!("{table}: live load"), &samples)?);
        map.write_html(&html)
            .map_err(|e| crate::Error::InvalidArgument(format!("{html}: {e}")))?;
        let mut summary = String::new();
        if let (Some(first), Some(last)) = (samples.first(), samples.last()) {
            let rates = last.rates_since(first);
            let idle = rates
                .iter()
                .filter(|r| r.writes == 0.0 && r.reads == 0.0)
                .count();
            summary.push_str(&format!(
                "{table}: {} regions, {idle} without a request\n",
                rates.len()
            ));
            for s in per_server(&rates) {
                summary.push_str(&format!(
                    "  {} ({} regions): {:.1} reads/s, {:.1} writes/s\n",
                    s.server, s.regions, s.reads, s.writes
                ));
            }
        }
        summary.push_str(&format!("key visualizer report: {html}\n"));
        Ok(summary)
    };
    let result = run();
    match result {
        Ok(summary) => {
            let _ = write!(stdout, "{summary}");
            0
        }
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            1
        }
    }
}

/// The registered key type `name`, or `None` after saying on `stderr` which types there are.
fn key_type_named<K: KeyTypes>(
    name: &str,
    stderr: &mut dyn Write,
) -> Option<rowkey::tool::KeyType> {
    let types = K::key_types();
    let found = types.iter().find(|t| t.name == name).copied();
    if found.is_none() {
        let names: Vec<&str> = types.iter().map(|t| t.name).collect();
        let _ = writeln!(
            stderr,
            "error: no key type {name} (types: {})",
            names.join(", ")
        );
    }
    found
}

const BULK_USAGE: &str = "usage: keytool bulk <TYPE> --gateway HOST:PORT --table TABLE --out DIR \
--columns COL[,COL…] [--input FILE] [--separator C] [--memory MIB] [--threads N] [--timestamp MS]";

/// Records between two progress lines when standard error is not a terminal.
const PROGRESS_EVERY: u64 = 100_000;

fn bulk_with<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    terminal: bool,
) -> i32 {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let mut ty = None;
    let (mut gateway, mut table, mut out, mut columns, mut input) = (None, None, None, None, None);
    let mut separator = '\t';
    let (mut memory, mut threads, mut timestamp) = (None, None, None);
    let mut rest = args.iter().skip(2);
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| {
            rest.next()
                .copied()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, v: &str| v.parse::<u64>().map_err(|e| format!("{name} {v}: {e}"));
        let parsed: Result<(), String> = match *arg {
            "--gateway" => value("--gateway").map(|v| gateway = Some(v)),
            "--table" => value("--table").map(|v| table = Some(v)),
            "--out" => value("--out").map(|v| out = Some(v)),
            "--columns" => value("--columns").map(|v| columns = Some(v)),
            "--input" => value("--input").map(|v| input = Some(v)),
            "--separator" => value("--separator").and_then(|v| {
                let mut chars = v.chars();
                match (v, chars.next(), chars.next()) {
                    ("tab" | "\\t", _, _) => {
                        separator = '\t';
                        Ok(())
                    }
                    (_, Some(c), None) => {
                        separator = c;
                        Ok(())
                    }
                    _ => Err(format!("--separator {v}: one character (or `tab`)")),
                }
            }),
            "--memory" => value("--memory")
                .and_then(|v| number("--memory", v))
                .map(|n| memory = Some(n)),
            "--threads" => value("--threads")
                .and_then(|v| number("--threads", v))
                .map(|n| threads = Some(n)),
            "--timestamp" => value("--timestamp")
                .and_then(|v| number("--timestamp", v))
                .map(|n| timestamp = Some(n)),
            "-h" | "--help" => {
                let _ = writeln!(stdout, "{BULK_USAGE}");
                return 0;
            }
            other if other.starts_with('-') => Err(format!("unknown option {other}")),
            other if ty.is_none() => {
                ty = Some(other);
                Ok(())
            }
            other => Err(format!("unexpected argument {other}")),
        };
        if let Err(e) = parsed {
            let _ = writeln!(stderr, "error: {e}\n{BULK_USAGE}");
            return 2;
        }
    }
    let (Some(ty), Some(gateway), Some(table), Some(out), Some(columns)) =
        (ty, gateway, table, out, columns)
    else {
        let _ = writeln!(
            stderr,
            "error: <TYPE>, --gateway, --table, --out and --columns are required\n{BULK_USAGE}"
        );
        return 2;
    };
    let Some(key_type) = key_type_named::<K>(ty, stderr) else {
        return 2;
    };
    let columns: Vec<Column> = columns.split(',').map(Column::parse).collect();
    if !columns.iter().any(|c| matches!(c, Column::Cell(..))) {
        let _ = writeln!(
            stderr,
            "error: --columns names no cell (family:qualifier)\n{BULK_USAGE}"
        );
        return 2;
    }
    let mut file;
    let reader: &mut dyn BufRead = match input {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => {
                file = io::BufReader::new(f);
                &mut file
            }
            Err(e) => {
                let _ = writeln!(stderr, "error: {path}: {e}");
                return 1;
            }
        },
        None => stdin,
    };
    let mut run = || -> Result<String, crate::Error> {
        let client = Client::connect(gateway)?;
        let mut load = crate::bulk::BulkLoad::for_table(&client.table(table), out)?;
        if let Some(m) = memory {
            load = load.memory_budget(
                usize::try_from(m)
                    .unwrap_or(usize::MAX / 2)
                    .saturating_mul(1 << 20),
            );
        }
        if let Some(n) = threads {
            load = load.threads(usize::try_from(n).unwrap_or(1));
        }
        if let Some(ts) = timestamp {
            load = load.timestamp(i64::try_from(ts).unwrap_or(i64::MAX));
        }
        let mut writer = load.raw_writer(key_type.describe_fn())?;
        let mut records = 0u64;
        let mut line = String::new();
        let mut line_no = 0u64;
        loop {
            line.clear();
            let n = reader
                .read_line(&mut line)
                .map_err(|e| crate::Error::InvalidArgument(format!("reading the records: {e}")))?;
            if n == 0 {
                break;
            }
            line_no += 1;
            let text = line.trim_end_matches(['\n', '\r']);
            if text.is_empty() {
                continue;
            }
            let values: Vec<&str> = text.split(separator).collect();
            if values.len() != columns.len() {
                return Err(crate::Error::InvalidArgument(format!(
                    "line {line_no}: {} columns, --columns names {}",
                    values.len(),
                    columns.len()
                )));
            }
            let mut fields = Vec::new();
            let mut cells = Vec::new();
            for (c, v) in columns.iter().zip(&values) {
                match c {
                    Column::Field(name) => fields.push(format!("{name}={v}")),
                    Column::Cell(f, q) => cells.push(crate::Cell::new(f, q, v)),
                }
            }
            let mut fields = rowkey::text::TextArgs::parse(&fields).map_err(|e| {
                crate::Error::InvalidArgument(format!("line {line_no}: {}: {e}", key_type.name))
            })?;
            let key = key_type.encode_fields(&mut fields).map_err(|e| {
                crate::Error::InvalidArgument(format!("line {line_no}: {}: {e}", key_type.name))
            })?;
            writer.add_raw(&key, cells).map_err(|e| match e {
                crate::Error::Bulk(b) => {
                    crate::Error::InvalidArgument(format!("line {line_no}: {b}"))
                }
                other => other,
            })?;
            records += 1;
            if terminal && records.is_multiple_of(10_000) {
                let _ = write!(stderr, "\r{table}: {records} records read");
            } else if !terminal && records.is_multiple_of(PROGRESS_EVERY) {
                let _ = writeln!(stderr, "{table}: {records} records read");
            }
        }
        let _ = if terminal {
            write!(
                stderr,
                "\r{table}: {records} records read, writing the files…\n"
            )
        } else {
            writeln!(stderr, "{table}: {records} records read, writing the files")
        };
        let report = writer.finish()?;
        let empty = report.regions.iter().filter(|r| r.cells == 0).count();
        Ok(format!(
            "{records} records, {} cells in {} files ({} bytes) for {} regions of {table} \
             ({empty} without rows)\nload them: {}\n",
            report.cells,
            report.files().count(),
            report.bytes,
            report.regions.len(),
            report.load_command(table)
        ))
    };
    match run() {
        Ok(summary) => {
            let _ = write!(stdout, "{summary}");
            0
        }
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            1
        }
    }
}

/// One column of `bulk`'s records.
enum Column {
    /// A key field, by name.
    Field(String),
    /// A cell: family and qualifier.
    Cell(String, String),
}

impl Column {
    fn parse(name: &str) -> Column {
        match name.split_once(':') {
            Some((f, q)) => Column::Cell(f.to_owned(), q.to_owned()),
            None => Column::Field(name.to_owned()),
        }
    }
}
