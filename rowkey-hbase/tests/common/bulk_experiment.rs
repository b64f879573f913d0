//! The experiment rowkey was built around, as a bulk load: the same phone-call records imported
//! into two tables of 40 `HexStringSplit` regions (`COMPRESSION => 'SNAPPY'`), one keyed
//! `MSISDN[7..11] + MSISDN + time`, one `md5(MSISDN)[..4] + MSISDN + time`; each written as
//! HFiles per region by `rowkey_hbase::bulk`, loaded by HBase's `BulkLoadHFilesTool`, and
//! measured: rows and store-file bytes per region as the servers report them, empty regions,
//! each region's write time, and the import time with one worker per region (the slowest
//! region). Shared by the live test (`tests/hbase/live.rs`) and the example
//! (`examples/hbase_bulk_experiment.rs`), each declaring it with `#[path]`.

#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use rowkey::plan::hex_string_split;
use rowkey::RowKey;
use rowkey_hbase::bulk::BulkLoad;
use rowkey_hbase::load::LoadSampler;
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::thrift::{
    TColumnFamilyDescriptor, TCompressionAlgorithm, TTHBaseServiceSyncClient, TTableDescriptor,
    TTableName,
};
use rowkey_hbase::{Cell, Client, Table};

/// `MSISDN[7..11] + MSISDN + time`
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct ByTail {
    #[pad(4)]
    pub tail: u16,
    #[pad(11)]
    pub msisdn: String,
    pub ts_ms: u64,
}

/// `md5(MSISDN)[..4] + MSISDN + time`
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct ByHash {
    #[hash_prefix(4)]
    #[pad(11)]
    pub msisdn: String,
    pub ts_ms: u64,
}

/// The first day of the records.
pub const DAY0: u64 = 1_700_006_400_000;

/// `n` call records of one day: an 11-digit MSISDN of one of eight carrier prefixes, and a time
/// (the same for every run).
pub fn records(n: u64) -> impl Iterator<Item = (String, u64)> {
    let mut state = 2026u64;
    let mut rand = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let prefixes = ["138", "139", "186", "135", "188", "150", "159", "177"];
    (0..n).map(move |i| {
        let msisdn = format!(
            "{}{:08}",
            prefixes[(rand() % 8) as usize],
            rand() % 100_000_000
        );
        (msisdn, DAY0 + i * 86_400_000 / n.max(1))
    })
}

/// The record's cells: the call's duration and cell, a little over 100 bytes.
pub fn cells(i: u64, ts_ms: u64) -> [Cell; 2] {
    let ts = i64::try_from(ts_ms).unwrap_or(i64::MAX);
    [
        Cell::new("info", "dur", format!("{}", i % 3600)).at(ts),
        Cell::new(
            "info",
            "cell",
            format!("cell-{:05}-lac-{:04}-{:064}", i % 40_000, i % 9000, i),
        )
        .at(ts),
    ]
}

/// What one key design's import measured.
#[derive(Debug, Clone)]
pub struct Measured {
    pub design: &'static str,
    pub table: String,
    /// Rows per region, counted on the server after the load.
    pub region_rows: Vec<u64>,
    /// Store-file bytes per region, from the region servers' metrics after the load.
    pub region_bytes: Vec<u64>,
    /// Each region's write time (merge and HFile writing).
    pub region_write: Vec<Duration>,
    /// Adding the records (encode, sort, spill).
    pub sort_time: Duration,
    /// Writing every region's files, on the writer's threads.
    pub write_time: Duration,
    /// `BulkLoadHFilesTool`'s run.
    pub load_time: Duration,
    /// Bytes of the files written.
    pub file_bytes: u64,
}

impl Measured {
    pub fn empty_regions(&self) -> usize {
        self.region_rows.iter().filter(|r| **r == 0).count()
    }

    /// The import time with one worker per region: the slowest region's write.
    pub fn slowest_region(&self) -> Duration {
        self.region_write.iter().copied().max().unwrap_or_default()
    }

    /// Every region's write time added up (one worker for all).
    pub fn total_work(&self) -> Duration {
        self.region_write.iter().sum()
    }

    pub fn max_rows(&self) -> u64 {
        self.region_rows.iter().copied().max().unwrap_or_default()
    }
}

/// Create `name` as the seed does: one family `info`, SNAPPY, 40 HexStringSplit regions.
pub fn create(client: &Client, name: &str) {
    if client.table_exists(name).expect("exists") {
        client.delete_table(name).expect("drop");
    }
    let mut info = TColumnFamilyDescriptor::new(
        b"info".to_vec(),
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    );
    info.compression_type = Some(TCompressionAlgorithm::SNAPPY);
    let desc = TTableDescriptor::new(
        TTableName::new(None, name.as_bytes().to_vec()),
        vec![info],
        None,
        None,
    );
    client
        .open()
        .expect("connection")
        .create_table(desc, hex_string_split(40))
        .expect("create");
}

/// Import `rows` records into both designs' tables on `hbase` (files under `dir`), with
/// `threads` writer threads and a memory budget of `budget` bytes.
pub fn run(hbase: &HBase, rows: u64, dir: &Path, threads: usize, budget: usize) -> [Measured; 2] {
    let client = Client::connect(hbase.thrift_addr()).expect("connect");
    let metrics = hbase.metrics_url().expect("info servers on");
    let tail = import::<ByTail>(
        hbase,
        &client,
        &metrics,
        "bulk_by_tail",
        "MSISDN[7..11]+MSISDN+time",
        rows,
        dir,
        threads,
        budget,
        |msisdn, ts_ms| ByTail {
            tail: msisdn[7..11].parse().expect("digits"),
            msisdn: msisdn.to_string(),
            ts_ms,
        },
    );
    let hash = import::<ByHash>(
        hbase,
        &client,
        &metrics,
        "bulk_by_hash",
        "md5(MSISDN)[..4]+MSISDN+time",
        rows,
        dir,
        threads,
        budget,
        |msisdn, ts_ms| ByHash {
            msisdn: msisdn.to_string(),
            ts_ms,
        },
    );
    [tail, hash]
}

#[allow(clippy::too_many_arguments)]
fn import<K: RowKey>(
    hbase: &HBase,
    client: &Client,
    metrics: &str,
    name: &str,
    design: &'static str,
    rows: u64,
    dir: &Path,
    threads: usize,
    budget: usize,
    key: impl Fn(&str, u64) -> K,
) -> Measured {
    create(client, name);
    let table: Table = client.table(name);
    let out = dir.join(name);
    let _ = std::fs::remove_dir_all(&out);
    let mut writer = BulkLoad::for_table(&table, &out)
        .expect("the table's regions")
        .threads(threads)
        .memory_budget(budget)
        .writer::<K>()
        .expect("writer");
    for (i, (msisdn, ts_ms)) in records(rows).enumerate() {
        writer
            .add(&key(&msisdn, ts_ms), cells(i as u64, ts_ms))
            .expect("add");
    }
    let report = writer.finish().expect("write the files");
    assert_eq!(report.regions.len(), 40);
    let started = Instant::now();
    hbase
        .bulk_load(&out, name)
        .unwrap_or_else(|e| panic!("{e}"));
    let load_time = started.elapsed();
    let view = table.region_view(1).expect("region view");
    // the servers' store-file sizes (their metrics are refreshed every few seconds)
    let sampler = LoadSampler::new(&table, &[metrics]).expect("sampler");
    let deadline = Instant::now() + Duration::from_secs(60);
    let region_bytes = loop {
        let sample = sampler.sample().expect("sample");
        let bytes: Vec<u64> = sample.regions.iter().map(|r| r.store_file_bytes).collect();
        let with_rows = view.rows.iter().filter(|r| **r > 0).count();
        let with_bytes = bytes.iter().filter(|b| **b > 0).count();
        if with_bytes >= with_rows || Instant::now() > deadline {
            break bytes;
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    Measured {
        design,
        table: name.to_string(),
        region_rows: view.rows.clone(),
        region_bytes,
        region_write: report.regions.iter().map(|r| r.write_time).collect(),
        sort_time: report.sort_time,
        write_time: report.write_time,
        load_time,
        file_bytes: report.bytes,
    }
}

/// The two designs side by side: per region, then the totals.
pub fn side_by_side(m: &[Measured; 2]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:>6} | {:>30} | {:>30}\n",
        "region", m[0].design, m[1].design
    ));
    out.push_str(&format!(
        "{:>6} | {:>9} {:>10} {:>9} | {:>9} {:>10} {:>9}\n",
        "", "rows", "bytes", "write ms", "rows", "bytes", "write ms"
    ));
    for r in 0..m[0].region_rows.len() {
        let cell = |x: &Measured| {
            format!(
                "{:>9} {:>10} {:>9.1}",
                x.region_rows.get(r).copied().unwrap_or_default(),
                x.region_bytes.get(r).copied().unwrap_or_default(),
                x.region_write.get(r).map_or(0.0, |d| d.as_secs_f64() * 1e3)
            )
        };
        out.push_str(&format!("{r:>6} | {} | {}\n", cell(&m[0]), cell(&m[1])));
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for (label, f) in [
        (
            "empty regions",
            &(|x: &Measured| x.empty_regions().to_string()) as &dyn Fn(&Measured) -> String,
        ),
        ("largest region (rows)", &|x: &Measured| {
            x.max_rows().to_string()
        }),
        ("files written (bytes)", &|x: &Measured| {
            x.file_bytes.to_string()
        }),
        ("add + sort (ms)", &|x: &Measured| {
            format!("{:.0}", ms(x.sort_time))
        }),
        ("write, all regions (ms)", &|x: &Measured| {
            format!("{:.0}", ms(x.write_time))
        }),
        ("all regions' work (ms)", &|x: &Measured| {
            format!("{:.0}", ms(x.total_work()))
        }),
        ("one worker per region: slowest (ms)", &|x: &Measured| {
            format!("{:.1}", ms(x.slowest_region()))
        }),
        ("BulkLoadHFilesTool (ms)", &|x: &Measured| {
            format!("{:.0}", ms(x.load_time))
        }),
    ] {
        out.push_str(&format!(
            "{label:>36}: {:>14} | {:>14}\n",
            f(&m[0]),
            f(&m[1])
        ));
    }
    out
}
