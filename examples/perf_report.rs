//! Quick performance report for issues 5 and 14 (well under a minute in release):
//!
//! ```sh
//! cargo run --release --example perf_report                 # measure, print the ratio table
//! cargo run --release --example perf_report -- --rounds 41  # more rounds, steadier medians
//! cargo run --release --example perf_report -- --filter encode_into/Simple   # some cases only
//! cargo run --release --example perf_report -- --criterion [DIR]  # the table of a criterion run
//! ```
//!
//! It measures exactly the routines of `benches/compare.rs` (both use `benches/support/`): every
//! case is calibrated to a batch of about `--batch-ms` milliseconds, then all cases are timed in
//! turn, round after round (interleaved, so that frequency or load changes hit every case
//! alike), and the median ns per call over the rounds goes into the same table the criterion
//! run prints.

use std::time::{Duration, Instant};

// The bench's support module (keys, baselines, cases, table), not the bench itself.
#[path = "../benches/support/mod.rs"]
mod shared;

struct Opts {
    rounds: usize,
    batch: Duration,
    criterion: Option<Option<String>>,
    filter: Vec<String>,
}

fn opts() -> Opts {
    let mut o = Opts {
        rounds: 21,
        batch: Duration::from_millis(3),
        criterion: None,
        filter: Vec::new(),
    };
    let mut args = std::env::args().skip(1).peekable();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                o.rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&r| r > 0)
                    .expect("--rounds N (N > 0)");
            }
            "--batch-ms" => {
                let ms: u64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--batch-ms MS");
                o.batch = Duration::from_millis(ms.max(1));
            }
            "--filter" => o.filter.push(args.next().expect("--filter SUBSTRING")),
            "--criterion" => {
                let dir = args.next_if(|v| !v.starts_with("--"));
                o.criterion = Some(dir);
            }
            "-h" | "--help" => {
                println!(
                    "perf_report [--rounds N] [--batch-ms MS] [--filter SUBSTRING]... [--criterion [DIR]]\n\
                     Measures the cases of benches/compare.rs and prints the ratio table of issues 5 and 14;\n\
                     --criterion prints the table of the last `cargo bench --bench compare` run instead."
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other:?} (try --help)"),
        }
    }
    o
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let o = opts();
    if let Some(dir) = o.criterion {
        let dir = dir
            .map(Into::into)
            .or_else(shared::criterion_dir)
            .expect("criterion directory");
        let results = shared::read_criterion(&dir);
        if results.is_empty() {
            eprintln!(
                "no criterion results in {} (run `cargo bench --bench compare` first)",
                dir.display()
            );
            std::process::exit(1);
        }
        println!(
            "Ratio table from the criterion estimates in {} (median ns per call):\n",
            dir.display()
        );
        print!("{}", shared::table(&results));
        return;
    }

    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build; run with `cargo run --release --example perf_report`");
    }
    let started = Instant::now();
    shared::verify();
    let mut cases = shared::cases();
    if !o.filter.is_empty() {
        cases.retain(|c| o.filter.iter().any(|f| c.full_id().contains(f.as_str())));
    }

    // Calibrate: iterations per batch of about `o.batch`.
    let mut iters = Vec::with_capacity(cases.len());
    for c in &mut cases {
        let mut n: u64 = 1;
        loop {
            let t = (c.run)(n);
            if t >= o.batch || n >= 1 << 30 {
                // scale to the batch length
                let per = t.as_secs_f64() / n as f64;
                let want = (o.batch.as_secs_f64() / per.max(1e-12)).ceil() as u64;
                iters.push(want.clamp(1, 1 << 30));
                break;
            }
            n *= 2;
        }
    }

    // Interleaved rounds; the start rotates so no case always follows the same neighbour.
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(o.rounds); cases.len()];
    for round in 0..o.rounds {
        let n = cases.len();
        for j in 0..n {
            let i = (j + round) % n;
            let t = (cases[i].run)(iters[i]);
            samples[i].push(t.as_nanos() as f64 / iters[i] as f64);
        }
    }

    let mut results = shared::Results::new();
    for (c, s) in cases.iter().zip(&mut samples) {
        results.insert(c.full_id(), median(s));
    }

    println!(
        "perf_report: {} cases × {} interleaved rounds of ~{} ms, median ns per call ({:.1} s)\n",
        cases.len(),
        o.rounds,
        o.batch.as_millis(),
        started.elapsed().as_secs_f64()
    );
    print!("{}", shared::table(&results));
    println!("\nAll medians (ns per call):");
    for (id, v) in &results {
        println!("  {id:<55} {v:>14.1}");
    }
}
