//! The key visualizer on live HBase: which regions and which region servers take the writes,
//! from the servers' own request counters, on the key axis of your key type.
//!
//! With no arguments it runs seed 001's experiment by itself: a standalone HBase with three
//! region servers (the test kit: JDK 17 and Maven), two tables pre-split into 40 regions with
//! HexStringSplit, phone-number records loaded under the unhashed key `MSISDN[7..11] + MSISDN
//! + time` and under the hashed one, sampled every second while they load:
//!
//! ```sh
//! cargo run -p rowkey-hbase --example hbase_visualizer
//! ```
//!
//! Against your own cluster, for a table keyed by `ByHash` (change the type for yours):
//!
//! ```sh
//! cargo run -p rowkey-hbase --example hbase_visualizer -- GATEWAY:9090 TABLE SECONDS \
//!     http://rs1:16030 http://rs2:16030 …
//! ```
//!
//! Each run writes one self-contained HTML page per table (`target/visualizer/*.html`).

use std::time::Duration;

use rowkey::{plan, RowKey};
use rowkey_hbase::load::{load_map, per_server, LoadSample, LoadSampler};
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::{Batch, Cell, Client, Error};

/// `MSISDN[7..11] + MSISDN + time`
#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByTail {
    #[pad(4)]
    tail: u16,
    #[pad(11)]
    msisdn: String,
    ts_ms: u64,
}

/// `md5(MSISDN)[..4] + MSISDN + time`
#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByHash {
    #[hash_prefix(4)]
    #[pad(11)]
    msisdn: String,
    ts_ms: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::path::Path::new("target/visualizer");
    std::fs::create_dir_all(out)?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [gateway, table, seconds, metrics @ ..] = args.as_slice() {
        if metrics.is_empty() {
            return Err("give at least one region server info server (http://rs:16030)".into());
        }
        let client = Client::connect(gateway.as_str())?;
        let metrics: Vec<&str> = metrics.iter().map(String::as_str).collect();
        let sampler = LoadSampler::new(&client.table(table), &metrics)?;
        let samples = watch(&sampler, Duration::from_secs(seconds.parse()?))?;
        report::<ByHash>(table, &samples, out)?;
        return Ok(());
    }

    eprintln!("starting HBase with three region servers (the first run fetches its jars)…");
    let hbase = HBase::start_with_region_servers(3)?;
    let client = Client::connect(hbase.thrift_addr())?;
    let metrics = hbase.metrics_url().ok_or("no info servers")?;
    let splits = plan::hex_string_split(40);
    for t in ["msisdn_by_tail", "msisdn_by_hash"] {
        client.create_table(t, &["info"], &splits)?;
    }
    let (tail_t, hash_t) = (
        client.table("msisdn_by_tail"),
        client.table("msisdn_by_hash"),
    );
    let samplers = [
        LoadSampler::new(&tail_t, &[&metrics])?,
        LoadSampler::new(&hash_t, &[&metrics])?,
    ];
    // load in the background, sample both tables in the foreground
    let loader = std::thread::spawn(move || load(&tail_t, &hash_t));
    let mut series: [Vec<LoadSample>; 2] = [Vec::new(), Vec::new()];
    let seconds = 24;
    for i in 0..=seconds {
        for (s, out) in samplers.iter().zip(series.iter_mut()) {
            out.push(s.sample()?);
        }
        progress(i + 1, seconds + 1);
        std::thread::sleep(Duration::from_secs(1));
    }
    eprintln!();
    loader.join().map_err(|_| "the loader panicked")??;
    report::<ByTail>("msisdn_by_tail", &series[0], out)?;
    report::<ByHash>("msisdn_by_hash", &series[1], out)?;
    Ok(())
}

/// Sample for `duration`, every second, with a progress bar.
fn watch(sampler: &LoadSampler, duration: Duration) -> Result<Vec<LoadSample>, Error> {
    let samples = sampler.watch(Duration::from_secs(1), duration, progress)?;
    eprintln!();
    Ok(samples)
}

fn progress(done: usize, total: usize) {
    let width = 30;
    let filled = done * width / total.max(1);
    eprint!(
        "\rsampling the region servers' counters [{}{}] {done}/{total}",
        "#".repeat(filled),
        "-".repeat(width - filled)
    );
}

/// Seed 001's records, 40,000 of them, in batches spread over about twenty seconds.
fn load(tail_t: &rowkey_hbase::Table, hash_t: &rowkey_hbase::Table) -> Result<(), Error> {
    let mut state = 2026u64;
    let mut rand = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let prefixes = ["138", "139", "186", "135", "188", "150", "159", "177"];
    let day0 = 1_700_006_400_000u64;
    for round in 0..20u64 {
        let mut batch = Batch::new();
        for i in 0..2_000u64 {
            let msisdn = format!(
                "{}{:08}",
                prefixes[(rand() % 8) as usize],
                rand() % 100_000_000
            );
            let tail: u16 = msisdn[7..11].parse().unwrap_or_default();
            let ts_ms = day0 + (round * 2_000 + i) * 2_160;
            let cells = || [Cell::new("info", "d", "1")];
            batch.put(
                tail_t,
                &ByTail {
                    tail,
                    msisdn: msisdn.clone(),
                    ts_ms,
                },
                cells(),
            )?;
            batch.put(hash_t, &ByHash { msisdn, ts_ms }, cells())?;
        }
        batch.apply()?;
        std::thread::sleep(Duration::from_millis(800));
    }
    Ok(())
}

/// The page of one table, and its servers' load in the terminal.
fn report<K>(table: &str, samples: &[LoadSample], out: &std::path::Path) -> Result<(), Error>
where
    K: RowKey + rowkey::DecodeRowKeyOwned,
{
    let map = load_map::<K>(&format!("{table}: live load"), samples)?;
    let page = out.join(format!("{table}.html"));
    map.write_html(&page)
        .map_err(|e| Error::InvalidArgument(format!("{}: {e}", page.display())))?;
    if let (Some(first), Some(last)) = (samples.first(), samples.last()) {
        let rates = last.rates_since(first);
        let idle = rates.iter().filter(|r| r.writes == 0.0).count();
        println!("{table}: {} regions, {idle} without a write", rates.len());
        for s in per_server(&rates) {
            println!(
                "  {} ({} regions): {:.0} writes/s",
                s.server, s.regions, s.writes
            );
        }
    }
    println!("  report: {}", page.display());
    Ok(())
}
