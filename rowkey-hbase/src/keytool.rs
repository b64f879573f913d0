//! The key tool with a live HBase command (feature `tool`): `rowkey::tool`'s commands (`describe`, `encode`,
//! `scan`, `plan`, `hotspots`, …) plus `visualize`, which samples a table's regions on a running
//! cluster — the region servers' own request counters ([`crate::load`]) — and writes the key
//! visualizer's page, a progress line on standard error while it samples.
//!
//! ```text
//! keytool visualize <TYPE> --gateway HOST:PORT --table TABLE --metrics URL[,URL…]
//!         [--seconds N (60)] [--every S (5)] [--html OUT (TABLE.html)]
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

/// The tool as a `main`: `visualize`, or any command of `rowkey::tool::main` (which runs
/// everything else, streams and exit code included).
pub fn main<K: KeyTypes>() -> ! {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) != Some("visualize") {
        rowkey::tool::main::<K>()
    }
    let stdout = io::stdout();
    let mut stdout = io::BufWriter::new(stdout.lock());
    let mut stderr = io::stderr();
    let progress = io::stderr().is_terminal();
    let code = visualize_with::<K>(&args, &mut stdout, &mut stderr, progress);
    let _ = stdout.flush();
    std::process::exit(code)
}

/// Runs the tool on `args` (`args[0]` is the program name) and returns its exit code (0
/// success, 1 failure, 2 usage error): `visualize` here, anything else by
/// [`rowkey::tool::run`]. `visualize` writes its progress to `stderr` (one line per sample).
pub fn run<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    if args.get(1) == Some(&"visualize") {
        visualize_with::<K>(&args, stdout, stderr, false)
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
    let types = K::key_types();
    let Some(key_type) = types.iter().find(|t| t.name == ty) else {
        let names: Vec<&str> = types.iter().map(|t| t.name).collect();
        let _ = writeln!(
            stderr,
            "error: no key type {ty} (types: {})",
            names.join(", ")
        );
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
