//! A bulk load against puts through the gateway, for the same rows, end to end, in one run:
//! a standalone HBase that this example starts (the test kit: JDK 17 and Maven), two tables of
//! 40 `HexStringSplit` regions, the same records written once as `putMultiple` batches of 4,000
//! rows (`rowkey_hbase::Batch`) and once as HFiles per region (`rowkey_hbase::bulk`) loaded by
//! `BulkLoadHFilesTool`; both read back and counted.
//!
//! ```sh
//! cargo run --release -p rowkey-hbase --example hbase_bulk_vs_puts              # 500,000 records
//! cargo run --release -p rowkey-hbase --example hbase_bulk_vs_puts -- 2000000
//! ```

#[path = "../tests/common/bulk_experiment.rs"]
mod bulk_experiment;

use std::path::PathBuf;
use std::time::Instant;

use bulk_experiment::{cells, create, records, ByHash};
use rowkey_hbase::bulk::BulkLoad;
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::{Batch, Client};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows: u64 = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 500_000,
    };
    let hbase = HBase::start()?;
    let client = Client::connect(hbase.thrift_addr())?;
    let key = |msisdn: &str, ts_ms: u64| ByHash {
        msisdn: msisdn.to_string(),
        ts_ms,
    };

    create(&client, "by_puts");
    let table = client.table("by_puts");
    let started = Instant::now();
    let mut batch = Batch::new();
    for (i, (msisdn, ts_ms)) in records(rows).enumerate() {
        batch.put(&table, &key(&msisdn, ts_ms), cells(i as u64, ts_ms))?;
        if batch.len() >= 4000 {
            std::mem::take(&mut batch).apply()?;
        }
    }
    batch.apply()?;
    let puts = started.elapsed();

    create(&client, "by_bulk");
    let table_b = client.table("by_bulk");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bulk-vs-puts");
    let _ = std::fs::remove_dir_all(&dir);
    let started = Instant::now();
    let mut writer = BulkLoad::for_table(&table_b, &dir)?.writer::<ByHash>()?;
    for (i, (msisdn, ts_ms)) in records(rows).enumerate() {
        writer.add(&key(&msisdn, ts_ms), cells(i as u64, ts_ms))?;
    }
    let report = writer.finish()?;
    let written = started.elapsed();
    hbase.bulk_load(&dir, "by_bulk")?;
    let bulk = started.elapsed();

    let all = ByHash::scan().ranges();
    let counted = |t: &rowkey_hbase::Table| -> Result<usize, rowkey_hbase::Error> {
        Ok(t.read::<ByHash>(&all).keys_only().keys()?.len())
    };
    let (n_puts, n_bulk) = (counted(&table)?, counted(&table_b)?);
    println!("{rows} records (2 cells each), 40 regions, SNAPPY; rows read back: {n_puts} put, {n_bulk} bulk-loaded");
    println!(
        "puts through the gateway: {:.2} s ({:.0} rows/s)",
        puts.as_secs_f64(),
        rows as f64 / puts.as_secs_f64()
    );
    println!(
        "bulk load: {:.2} s ({:.2} s to write {} files, {} MiB; the rest BulkLoadHFilesTool) ({:.0} rows/s)",
        bulk.as_secs_f64(),
        written.as_secs_f64(),
        report.files().count(),
        report.bytes >> 20,
        rows as f64 / bulk.as_secs_f64()
    );
    println!(
        "bulk load ÷ puts: {:.3}x the time",
        bulk.as_secs_f64() / puts.as_secs_f64()
    );
    Ok(())
}
