//! Seed 001's experiment as it was run — a bulk load — on a standalone HBase with three region
//! servers that this example starts (the test kit: JDK 17 and Maven): the same phone-call
//! records imported into two tables of 40 `HexStringSplit` regions (`COMPRESSION => 'SNAPPY'`),
//! under the digits-led key `MSISDN[7..11] + MSISDN + time` and under the hashed key
//! `md5(MSISDN)[..4] + MSISDN + time`; written as HFiles per region by `rowkey_hbase::bulk`,
//! loaded by HBase's `BulkLoadHFilesTool`, and reported side by side: rows and store-file bytes
//! per region as the servers count them, empty regions, each region's write time, and the
//! import time with one worker per region (the slowest region — the seed's 31-vs-54-minute
//! effect, here in milliseconds).
//!
//! ```sh
//! cargo run --release -p rowkey-hbase --example hbase_bulk_experiment            # 2,000,000 records
//! cargo run --release -p rowkey-hbase --example hbase_bulk_experiment -- 10000000
//! ```
//!
//! It writes the files under `target/bulk-experiment/` and one heatmap per table (rows per
//! region over the key axis) as SVG beside them.

#[path = "../tests/common/bulk_experiment.rs"]
mod bulk_experiment;

use std::path::PathBuf;

use rowkey_hbase::testkit::HBase;
use rowkey_hbase::Client;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows: u64 = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 2_000_000,
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bulk-experiment");
    std::fs::create_dir_all(&dir)?;
    eprintln!("starting HBase with three region servers…");
    let hbase = HBase::start_with_region_servers(3)?;
    eprintln!("importing {rows} records under each key design…");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let measured = bulk_experiment::run(&hbase, rows, &dir, threads, 256 << 20);
    println!("{rows} records, 40 HexStringSplit regions, SNAPPY, {threads} writer threads\n");
    println!("{}", bulk_experiment::side_by_side(&measured));
    let client = Client::connect(hbase.thrift_addr())?;
    let mut reports = Vec::new();
    for m in &measured {
        let view = client.table(&m.table).region_view(1000)?;
        let report = view.analyzer(24)?.with_name(m.design).report();
        let svg = dir.join(format!("{}.svg", m.table));
        report.write_heatmap_svg(&svg)?;
        println!("heatmap: {}", svg.display());
        reports.push(report);
    }
    println!("\n{}", reports[0].side_by_side(&reports[1]));
    let (tail, hash) = (&measured[0], &measured[1]);
    println!(
        "one worker per region: {:.1} ms against {:.1} ms ({:.2}x) — the slowest region decides",
        tail.slowest_region().as_secs_f64() * 1e3,
        hash.slowest_region().as_secs_f64() * 1e3,
        tail.slowest_region().as_secs_f64() / hash.slowest_region().as_secs_f64().max(1e-9)
    );
    Ok(())
}
