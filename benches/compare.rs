//! Issues 5 and 14, measured side by side: `#[derive(RowKey)]` against hand-written
//! `bytes::BufMut` code (naive code that does not escape, and code producing exactly rowkey's
//! bytes), against storekey 0.11, memcomparable 0.2 and ordcode 0.2 on the equivalent struct;
//! scan ranges against hand-written ones; a typed merged read over redb against redb's own
//! iterator; the k-way merge against collect-and-sort; hotspot analysis throughput.
//!
//! ```sh
//! cargo bench --bench compare                       # full (criterion)
//! cargo run --release --example perf_report         # quick, interleaved
//! ```
//!
//! Every measured routine is defined once, in `support::cases` (`benches/support/`), as a timed
//! loop (`fn(iters) -> Duration`): criterion runs it through `iter_custom`, the quick
//! `perf_report` example (which uses the same `benches/support` module) runs it interleaved.
//! Both print the same ratio table (`support::table`); after a criterion run it is built from
//! criterion's own estimates.

use std::time::Duration;

use criterion::{Criterion, Throughput};

mod support;

fn bench_all(c: &mut Criterion) {
    support::verify();
    let mut cases = support::cases();
    let mut groups: Vec<&'static str> = Vec::new();
    for case in &cases {
        if !groups.contains(&case.group) {
            groups.push(case.group);
        }
    }
    for name in groups {
        let mut group = c.benchmark_group(name);
        let elements = cases
            .iter()
            .find(|c| c.group == name)
            .map_or(1, |c| c.elements);
        if elements > 1 {
            group.throughput(Throughput::Elements(elements));
        }
        if name == "merge16" {
            group.sample_size(20);
        }
        if name == "hotspot" {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(6));
        }
        for case in cases.iter_mut().filter(|c| c.group == name) {
            let run = &mut case.run;
            group.bench_function(case.id.as_str(), |b| b.iter_custom(&mut *run));
        }
        group.finish();
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    bench_all(&mut c);
    c.final_summary();
    // Only after a measuring run (`cargo bench` passes `--bench`; `cargo test` and `--list` do not).
    let measured = std::env::args().any(|a| a == "--bench")
        && !std::env::args().any(|a| a == "--list" || a == "--test");
    if !measured {
        return;
    }
    if let Some(dir) = support::criterion_dir() {
        let results = support::read_criterion(&dir);
        if !results.is_empty() {
            println!(
                "\nRatio table from the criterion estimates in {} (median ns per call):\n",
                dir.display()
            );
            println!("{}", support::table(&results));
        }
    }
}
