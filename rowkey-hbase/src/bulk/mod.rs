//! Bulk load: typed rows written as HFiles, one set per region, for HBase's own
//! `BulkLoadHFilesTool` (`hbase completebulkload`) to move into the table — what ImportTsv and
//! `HFileOutputFormat2` do on the JVM, without MapReduce (feature `bulk`).
//!
//! ```toml
//! [dependencies]
//! rowkey-hbase = { version = "0.1", features = ["bulk"] }
//! ```
//!
//! ```no_run
//! use rowkey::RowKey;
//! use rowkey_hbase::bulk::BulkLoad;
//! use rowkey_hbase::{Cell, Client};
//!
//! #[derive(RowKey, Debug)]
//! struct Call {
//!     #[hash_prefix(4)]
//!     msisdn: u64,
//!     #[reverse_ts]
//!     at_ms: i64,
//! }
//!
//! # fn main() -> Result<(), rowkey_hbase::Error> {
//! let client = Client::connect("127.0.0.1:9090")?;
//! let table = client.table("calls");
//! // the table's regions as they are now, and its families' block size, compression and
//! // Bloom filter (as HFileOutputFormat2.configureIncrementalLoad reads them)
//! let mut writer = BulkLoad::for_table(&table, "/data/calls-2026-11-29")?
//!     .memory_budget(256 << 20)
//!     .threads(4)
//!     .writer::<Call>()?;
//! for i in 0..1_000_000u64 {
//!     let key = Call { msisdn: 4_915_100_000_000 + i % 5_000, at_ms: 1_700_000_000_000 + i as i64 };
//!     writer.add(&key, [Cell::new("d", "dur", (i % 600).to_string())])?;
//! }
//! let report = writer.finish()?;
//! println!("{} cells in {} files", report.cells, report.files().count());
//! println!("then: {}", report.load_command("calls"));
//! # Ok(()) }
//! ```
//!
//! # What is written
//!
//! `<dir>/<family>/<file>`: one file per family per region (a region with no rows of a family
//! gets none), cut at the table's **current** region boundaries ([`BulkLoad::for_table`] reads
//! them when it is called; a region split after that is still loaded — the tool splits a file
//! that spans a boundary) or at split points you give ([`BulkLoad::with_split_points`], a
//! plan's). Files are HFile version 3 as HBase 2.6 writes them ([`rowkey_hfile`], the format
//! and the HBase class each rule follows): the family's block size, compression (NONE, SNAPPY,
//! GZ, ZSTD) and Bloom filter (ROW or NONE), CRC32C block checksums, the bulk-load time in the
//! file info.
//!
//! Cells arrive in any order. Each is kept as HBase will: a cell without a timestamp
//! ([`Cell::at`]) gets the load's ([`BulkLoad::timestamp`], by default the time the load was
//! set up — ImportTsv's rule), and the cells of each region are sorted as HBase sorts them
//! (row, family, qualifier, newest first).
//!
//! # Memory
//!
//! Cells are gathered in a buffer of at most [`BulkLoad::memory_budget`] bytes (256 MiB by
//! default); a full buffer is sorted and written to a run file in a spill directory (under
//! `<dir>`, named with a leading `.` so the load tool skips it; removed at the end). At
//! [`BulkWriter::finish`] every region's runs are merged — at most 32 runs at once, more are
//! merged down first — and written on [`BulkLoad::threads`] threads, each holding a 64 KiB read
//! buffer per run and one block per family. What the load holds is the budget plus a few MiB,
//! whatever the size of its input.
//!
//! # Refused input
//!
//! Refused when added, with the key as the key type describes it ([`RowKey::describe`]): a row
//! over HBase's 32,767 bytes, an empty row, a family the load does not write (for
//! [`BulkLoad::for_table`]: one the table does not have), a negative timestamp. Refused at
//! [`finish`](BulkWriter::finish): the same cell twice (row, family, qualifier and timestamp —
//! HBase would keep one of them). A `finish` that fails removes every file it wrote and the
//! spill directory, and says so; a writer dropped unfinished removes its spill directory.
//!
//! # Loading
//!
//! On a cluster, from a host with the HBase client configuration:
//!
//! ```sh
//! hdfs dfs -put /data/calls-2026-11-29 /tmp/bulk/calls-2026-11-29   # the files reach HDFS
//! hbase completebulkload /tmp/bulk/calls-2026-11-29 calls            # BulkLoadHFilesTool
//! ```
//!
//! ([`BulkReport::load_command`] prints the second line.) The tool moves each file into its
//! region (splitting one that spans a boundary since the files were written) and HBase serves
//! the rows at once, with no write-ahead log and no memstore. The test kit runs the same tool
//! (`testkit::HBase::bulk_load`).
//!
//! # Larger than one machine
//!
//! The work is already split by region: give each task of a Spark or Kubernetes job the split
//! points and its share of the input, or route records to the task owning their region
//! ([`BulkLoad::region_of`]); each task writes its files with a `BulkLoad` of its own to a
//! directory of its own, then one `completebulkload` per directory (or one over a directory
//! holding them all) loads them. Writing straight to HDFS needs a Hadoop client; no maintained
//! Rust HDFS client is used here — write locally and `hdfs dfs -put`, or write to an HDFS
//! mounted over NFS/FUSE.

mod sort;

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use std::{fmt, io};

use rowkey::RowKey;
use rowkey_hfile::HFileWriter;
pub use rowkey_hfile::{BloomType, Compression, WriterOptions};

use self::sort::{Buffer, Merge, Rec, Run, Source};
use crate::thrift::{TBloomFilterType, TCompressionAlgorithm, TTHBaseServiceSyncClient};
use crate::{Cell, Error, Table};

/// HBase's longest row key (`Short.MAX_VALUE`).
pub const MAX_ROW_LEN: usize = 32_767;

/// The memory budget unless [`BulkLoad::memory_budget`] says otherwise: 256 MiB.
pub const DEFAULT_MEMORY_BUDGET: usize = 256 << 20;

/// Runs merged at once.
const FAN_IN: usize = 32;

/// Read buffer per run in a merge.
const RUN_BUFFER: usize = 64 * 1024;

/// A column family the load writes, and how its files are written.
#[derive(Debug, Clone)]
pub struct Family {
    name: String,
    options: WriterOptions,
}

impl Family {
    /// Family `name` with HBase 2's defaults for a new family (64 KiB blocks, no compression,
    /// a ROW Bloom filter).
    ///
    /// ```
    /// use rowkey_hbase::bulk::{Compression, Family, WriterOptions};
    /// let d = Family::new("d").options(WriterOptions::default().compression(Compression::Snappy));
    /// assert_eq!(d.name(), "d");
    /// ```
    pub fn new(name: impl Into<String>) -> Family {
        Family {
            name: name.into(),
            options: WriterOptions::default(),
        }
    }

    /// Write the family's files with `options` (block size, compression, Bloom filter).
    #[must_use]
    pub fn options(mut self, options: WriterOptions) -> Family {
        self.options = options;
        self
    }

    /// The family's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// How a bulk load is written: where, for which regions and families, with how much memory and
/// how many threads. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct BulkLoad {
    dir: PathBuf,
    families: Vec<Family>,
    split_points: Vec<Vec<u8>>,
    budget: usize,
    threads: usize,
    timestamp: i64,
    spill_dir: Option<PathBuf>,
}

impl BulkLoad {
    /// A load into `table` as it is now: its regions' boundaries (`getAllRegionLocations`) and
    /// its families with their block size, compression and Bloom filter
    /// (`getTableDescriptor`), written under `dir`.
    ///
    /// # Errors
    ///
    /// The calls fail (no such table), or a family's settings cannot be written
    /// ([`BulkError::Family`]: a compression other than NONE, SNAPPY, GZ, ZSTD, or a Bloom
    /// filter other than ROW or NONE — give the family's options with
    /// [`family`](Self::family) instead).
    pub fn for_table(table: &Table, dir: impl Into<PathBuf>) -> Result<BulkLoad, Error> {
        let regions = table.regions()?;
        let split_points = regions
            .iter()
            .skip(1)
            .map(|r| r.start.clone())
            .collect::<Vec<_>>();
        let name = crate::table_name(table.name());
        let desc = table
            .client()
            .call(|c| c.get_table_descriptor(name.clone()))?;
        let mut families = Vec::new();
        for f in desc.columns.unwrap_or_default() {
            let name = String::from_utf8_lossy(&f.name).into_owned();
            let compression = match f.compression_type {
                None | Some(TCompressionAlgorithm::NONE) => Compression::None,
                Some(TCompressionAlgorithm::SNAPPY) => Compression::Snappy,
                Some(TCompressionAlgorithm::GZ) => Compression::Gz,
                Some(TCompressionAlgorithm::ZSTD) => Compression::Zstd,
                Some(other) => {
                    return Err(BulkError::Family(format!(
                        "family {name} of {} is compressed with {other:?}: rowkey writes NONE, \
                         SNAPPY, GZ or ZSTD (give the family's options with BulkLoad::family)",
                        table.name()
                    ))
                    .into())
                }
            };
            let bloom = match f.bloomn_filter_type {
                Some(TBloomFilterType::NONE) => BloomType::None,
                None | Some(TBloomFilterType::ROW) => BloomType::Row,
                Some(other) => {
                    return Err(BulkError::Family(format!(
                        "family {name} of {} has the Bloom filter {other:?}: rowkey writes ROW or \
                         NONE (give the family's options with BulkLoad::family)",
                        table.name()
                    ))
                    .into())
                }
            };
            let mut options = WriterOptions::default()
                .compression(compression)
                .bloom(bloom);
            if let Some(size) = f.block_size.and_then(|s| usize::try_from(s).ok()) {
                if size > 0 {
                    options = options.block_size(size);
                }
            }
            families.push(Family { name, options });
        }
        BulkLoad::with_split_points(dir, &split_points, families)
    }

    /// A load cut at `split_points` (sorted, distinct, non-empty: a plan's, or a table's region
    /// start keys but the first) writing `families`, under `dir`.
    ///
    /// ```
    /// use rowkey_hbase::bulk::{BulkLoad, Family};
    /// let load = BulkLoad::with_split_points("/tmp/load", &[b"\x40".to_vec(), b"\x80".to_vec()], vec![Family::new("d")])?;
    /// assert_eq!(load.region_of(b"\x00"), 0);
    /// assert_eq!(load.region_of(b"\x40"), 1);
    /// assert_eq!(load.region_of(b"\xff"), 2);
    /// # Ok::<(), rowkey_hbase::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Split points not sorted, repeated or empty; no family; a family name HBase would refuse
    /// ([`BulkError::Family`]).
    pub fn with_split_points(
        dir: impl Into<PathBuf>,
        split_points: &[Vec<u8>],
        families: Vec<Family>,
    ) -> Result<BulkLoad, Error> {
        if let Some(i) = split_points
            .windows(2)
            .position(|w| w[0] >= w[1])
            .or_else(|| split_points.iter().position(Vec::is_empty))
        {
            return Err(BulkError::SplitPoints(format!(
                "split points must be non-empty, sorted and distinct (at {i})"
            ))
            .into());
        }
        if families.is_empty() {
            return Err(BulkError::Family("a bulk load writes at least one family".into()).into());
        }
        for f in &families {
            legal_family(&f.name)?;
        }
        let now = now_ms();
        Ok(BulkLoad {
            dir: dir.into(),
            families,
            split_points: split_points.to_vec(),
            budget: DEFAULT_MEMORY_BUDGET,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(8)),
            timestamp: now,
            spill_dir: None,
        })
    }

    /// Replace (or add) a family's options.
    #[must_use]
    pub fn family(mut self, family: Family) -> BulkLoad {
        match self.families.iter_mut().find(|f| f.name == family.name) {
            Some(f) => *f = family,
            None => self.families.push(family),
        }
        self
    }

    /// Sort at most this many bytes of cells in memory before spilling a run (default
    /// [`DEFAULT_MEMORY_BUDGET`]; at least 1 MiB).
    #[must_use]
    pub fn memory_budget(mut self, bytes: usize) -> BulkLoad {
        self.budget = bytes.max(1 << 20);
        self
    }

    /// Write regions on at most `n` threads (default: the machine's cores, at most 8).
    #[must_use]
    pub fn threads(mut self, n: usize) -> BulkLoad {
        self.threads = n.max(1);
        self
    }

    /// The timestamp of cells added without one (default: when the load was set up).
    #[must_use]
    pub fn timestamp(mut self, ms: i64) -> BulkLoad {
        self.timestamp = ms;
        self
    }

    /// Spill runs under this directory instead of the output directory: in a directory of the
    /// writer's own inside it (`.rowkey-spill-…`), created and removed by the writer; `dir`
    /// itself is created if missing and never removed.
    #[must_use]
    pub fn spill_dir(mut self, dir: impl Into<PathBuf>) -> BulkLoad {
        self.spill_dir = Some(dir.into());
        self
    }

    /// The index of the region a row belongs to (0 for rows before the first split point).
    pub fn region_of(&self, row: &[u8]) -> usize {
        self.split_points.partition_point(|p| p.as_slice() <= row)
    }

    /// The number of regions (split points + 1).
    pub fn regions(&self) -> usize {
        self.split_points.len() + 1
    }

    /// Start writing rows whose keys are bytes given as they are
    /// ([`BulkWriter::add_raw`]), described in errors by `describe` — for a key type chosen at
    /// run time (the key tool's `bulk`: `KeyType::describe_fn`).
    ///
    /// # Errors
    ///
    /// As [`writer`](Self::writer).
    pub fn raw_writer(self, describe: fn(&[u8]) -> String) -> Result<BulkWriter<[u8]>, Error> {
        self.start(describe)
    }

    /// Start writing keys of type `T`.
    ///
    /// # Errors
    ///
    /// The output directory exists and is not empty, or it cannot be made
    /// ([`BulkError::Output`], [`BulkError::Io`]).
    pub fn writer<T: RowKey>(self) -> Result<BulkWriter<T>, Error> {
        self.start(T::describe)
    }

    fn start<T: ?Sized>(self, describe: fn(&[u8]) -> String) -> Result<BulkWriter<T>, Error> {
        if !sort::empty_or_missing(&self.dir) {
            return Err(BulkError::Output(self.dir.clone()).into());
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| BulkError::io(&self.dir, e))?;
        // a directory of this writer's own, inside the one given (which is never removed)
        static WRITERS: AtomicUsize = AtomicUsize::new(0);
        let spill = self
            .spill_dir
            .clone()
            .unwrap_or_else(|| self.dir.clone())
            .join(format!(
                ".rowkey-spill-{:08x}-{}",
                std::process::id(),
                WRITERS.fetch_add(1, Ordering::Relaxed)
            ));
        std::fs::create_dir_all(&spill).map_err(|e| BulkError::io(&spill, e))?;
        Ok(BulkWriter {
            buffer: Buffer::new(self.budget),
            load: self,
            runs: Vec::new(),
            spill,
            describe,
            started: Instant::now(),
            added: 0,
            bulkload_time: now_ms(),
            _t: PhantomData,
        })
    }
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// HBase's rules for a family name (`ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName`),
/// and a directory name.
fn legal_family(name: &str) -> Result<(), BulkError> {
    let bad = name.is_empty()
        || name.len() > 127
        || name.starts_with('.')
        || name.starts_with('_')
        || name
            .bytes()
            .any(|b| b.is_ascii_control() || b == b':' || b == b'/' || b == b'\\')
        || name == "recovered.edits";
    if bad {
        Err(BulkError::Family(format!(
            "{name:?} is not a column family name HBase takes"
        )))
    } else {
        Ok(())
    }
}

/// Cells of `T` rows being written as a bulk load: [`add`](Self::add) them in any order, then
/// [`finish`](Self::finish). See the [module docs](self).
pub struct BulkWriter<T: ?Sized> {
    load: BulkLoad,
    buffer: Buffer,
    runs: Vec<Run>,
    spill: PathBuf,
    describe: fn(&[u8]) -> String,
    started: Instant,
    added: u64,
    /// The file info's `BULKLOAD_TIMESTAMP` of every file.
    bulkload_time: i64,
    _t: PhantomData<fn(&T)>,
}

impl<T: ?Sized> fmt::Debug for BulkWriter<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BulkWriter")
            .field("dir", &self.load.dir)
            .field("added", &self.added)
            .field("runs", &self.runs.len())
            .finish_non_exhaustive()
    }
}

impl<T: RowKey> BulkWriter<T> {
    /// Add `cells` to the row of `key`.
    ///
    /// # Errors
    ///
    /// The key does not encode ([`Error::Encode`]); a cell is refused ([`BulkError`], naming
    /// the key — nothing of the row is added); a run could not be spilled.
    pub fn add(&mut self, key: &T, cells: impl IntoIterator<Item = Cell>) -> Result<(), Error> {
        let row = key.to_row_key()?;
        self.add_raw(&row, cells)
    }
}

impl<T: ?Sized> BulkWriter<T> {
    /// Add `cells` to the row `row` (bytes as they are; errors describe them as `T`).
    ///
    /// # Errors
    ///
    /// As [`add`](Self::add).
    pub fn add_raw(
        &mut self,
        row: &[u8],
        cells: impl IntoIterator<Item = Cell>,
    ) -> Result<(), Error> {
        let describe = self.describe;
        if row.is_empty() {
            return Err(BulkError::Row {
                key: describe(row),
                problem: "an empty row key (HBase refuses it)".into(),
            }
            .into());
        }
        if row.len() > MAX_ROW_LEN {
            return Err(BulkError::Row {
                key: describe(row),
                problem: format!(
                    "a row key of {} bytes: HBase's limit is {MAX_ROW_LEN}",
                    row.len()
                ),
            }
            .into());
        }
        let region = self.load.region_of(row) as u32;
        let cells: Vec<Cell> = cells.into_iter().collect();
        for c in &cells {
            if !self
                .load
                .families
                .iter()
                .any(|f| f.name.as_bytes() == c.family())
            {
                return Err(BulkError::Row {
                    key: describe(row),
                    problem: format!(
                        "family {} is not one the load writes ({})",
                        String::from_utf8_lossy(c.family()),
                        self.load
                            .families
                            .iter()
                            .map(|f| f.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
                .into());
            }
            if c.timestamp().is_some_and(|t| t < 0) {
                return Err(BulkError::Row {
                    key: describe(row),
                    problem: format!("a negative timestamp ({:?})", c.timestamp()),
                }
                .into());
            }
            if u32::try_from(c.qualifier().len()).is_err()
                || u32::try_from(c.value().len()).is_err()
            {
                return Err(BulkError::Row {
                    key: describe(row),
                    problem: "a qualifier or value of 4 GiB or more".into(),
                }
                .into());
            }
        }
        for c in &cells {
            let rec = Rec {
                row,
                family: c.family(),
                qualifier: c.qualifier(),
                timestamp: c.timestamp().unwrap_or(self.load.timestamp),
                value: c.value(),
            };
            if !self.buffer.fits(&rec) {
                self.spill()?;
            }
            self.buffer.push(region, &rec);
            self.added += 1;
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), BulkError> {
        let path = self.spill.join(format!("run-{:06}", self.runs.len()));
        let run = self.buffer.spill(path, self.load.regions())?;
        self.runs.push(run);
        Ok(())
    }

    /// Cells added so far.
    pub fn cells(&self) -> u64 {
        self.added
    }

    /// Sort what is left, merge every region's runs and write the files.
    ///
    /// # Errors
    ///
    /// A duplicate cell ([`BulkError::Duplicate`], naming the key), an I/O error, or the HFile
    /// writer refused a cell. Every file written is removed first, and the spill directory.
    pub fn finish(mut self) -> Result<BulkReport, Error> {
        let result = self.write_all();
        let _ = std::fs::remove_dir_all(&self.spill);
        result.map_err(Error::from)
    }

    fn write_all(&mut self) -> Result<BulkReport, BulkError> {
        // too many runs to merge at once: merge them down first
        let mut generation = 0;
        while self.runs.len() > FAN_IN {
            generation += 1;
            let mut merged = Vec::new();
            let mut old = std::mem::take(&mut self.runs).into_iter().peekable();
            while old.peek().is_some() {
                let group: Vec<Run> = old.by_ref().take(FAN_IN).collect();
                if group.len() == 1 {
                    merged.extend(group);
                    continue;
                }
                let path = self
                    .spill
                    .join(format!("merged-{generation}-{:06}", merged.len()));
                let run = sort::merge_runs(&group, self.load.regions(), path, RUN_BUFFER)?;
                group.iter().for_each(sort::remove);
                merged.push(run);
            }
            self.runs = merged;
        }
        self.buffer.sort();
        let write_started = Instant::now();
        let regions = self.load.regions();
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let written: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
        let reports: Mutex<Vec<RegionReport>> = Mutex::new(Vec::new());
        let failure: Mutex<Option<BulkError>> = Mutex::new(None);
        let nonce = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
            ^ u64::from(std::process::id()).rotate_left(32);
        let threads = self.load.threads.min(regions).max(1);
        let this = &*self;
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let r = next.fetch_add(1, Ordering::Relaxed);
                    if r >= regions {
                        return;
                    }
                    match this.write_region(r, nonce, &written) {
                        Ok(report) => {
                            if let Ok(mut all) = reports.lock() {
                                all.push(report);
                            }
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            return;
                        }
                    }
                });
            }
        });
        let written = written.into_inner().unwrap_or_default();
        if let Some(e) = failure.into_inner().ok().flatten() {
            let mut left = Vec::new();
            for path in &written {
                if std::fs::remove_file(path).is_err() && path.exists() {
                    left.push(path.clone());
                }
            }
            for f in &self.load.families {
                let _ = std::fs::remove_dir(self.load.dir.join(&f.name));
            }
            return Err(BulkError::Failed {
                error: Box::new(e),
                removed: written.len() - left.len(),
                left,
            });
        }
        let mut regions = reports.into_inner().unwrap_or_default();
        regions.sort_by_key(|r| r.index);
        Ok(BulkReport {
            dir: self.load.dir.clone(),
            cells: regions.iter().map(|r| r.cells).sum(),
            bytes: regions.iter().map(|r| r.bytes).sum(),
            rows: regions.iter().map(|r| r.rows).sum(),
            runs: self.runs.len(),
            sort_time: write_started.duration_since(self.started),
            write_time: write_started.elapsed(),
            regions,
        })
    }

    /// Merge region `r`'s runs and buffer and write its files.
    fn write_region(
        &self,
        r: usize,
        nonce: u64,
        written: &Mutex<Vec<PathBuf>>,
    ) -> Result<RegionReport, BulkError> {
        let started = Instant::now();
        let mut sources = Vec::with_capacity(self.runs.len() + 1);
        for run in &self.runs {
            sources.push(Source::Run(run.reader(r, RUN_BUFFER)?));
        }
        sources.push(Source::Mem {
            iter: Box::new(self.buffer.region(r as u32)),
            current: None,
        });
        let mut merge = Merge::new(sources);
        let mut writers: Vec<Option<(HFileWriter<io::BufWriter<std::fs::File>>, PathBuf)>> =
            self.load.families.iter().map(|_| None).collect();
        let mut prev: Vec<u8> = Vec::new();
        let (mut cells, mut rows) = (0u64, 0u64);
        while merge.advance()? {
            let Some(rec) = merge.current() else { break };
            if let Some(p) = Rec::parse(&prev) {
                if p.same_cell(&rec) {
                    return Err(BulkError::Duplicate {
                        key: (self.describe)(rec.row),
                        family: String::from_utf8_lossy(rec.family).into_owned(),
                        qualifier: rowkey::hbase::to_string_binary(rec.qualifier),
                        timestamp: rec.timestamp,
                    });
                }
                if p.row != rec.row {
                    rows += 1;
                }
            } else {
                rows += 1;
            }
            let f = self
                .load
                .families
                .iter()
                .position(|f| f.name.as_bytes() == rec.family)
                .unwrap_or(0);
            if writers[f].is_none() {
                let family = &self.load.families[f];
                let dir = self.load.dir.join(&family.name);
                std::fs::create_dir_all(&dir).map_err(|e| BulkError::io(&dir, e))?;
                let path = dir.join(format!("{nonce:016x}{r:08x}"));
                let options = family.options.clone().bulkload_time_ms(self.bulkload_time);
                if let Ok(mut w) = written.lock() {
                    w.push(path.clone());
                }
                let w = HFileWriter::create(&path, options).map_err(|e| BulkError::HFile {
                    path: path.clone(),
                    source: e,
                })?;
                writers[f] = Some((w, path));
            }
            if let Some((w, path)) = writers[f].as_mut() {
                w.append(&rowkey_hfile::Cell::put(
                    rec.row,
                    rec.family,
                    rec.qualifier,
                    rec.timestamp,
                    rec.value,
                ))
                .map_err(|e| BulkError::HFile {
                    path: path.clone(),
                    source: e,
                })?;
            }
            cells += 1;
            prev.clear();
            rec.write_to(&mut prev);
        }
        let mut files = Vec::new();
        let mut bytes = 0;
        for (w, path) in writers.into_iter().flatten() {
            let summary = w.finish().map_err(|e| BulkError::HFile {
                path: path.clone(),
                source: e,
            })?;
            bytes += summary.bytes;
            files.push(path);
        }
        let start = if r == 0 {
            Vec::new()
        } else {
            self.load.split_points[r - 1].clone()
        };
        let end = self.load.split_points.get(r).cloned().unwrap_or_default();
        Ok(RegionReport {
            index: r,
            start,
            end,
            rows,
            cells,
            bytes,
            files,
            write_time: started.elapsed(),
        })
    }
}

impl<T: ?Sized> Drop for BulkWriter<T> {
    fn drop(&mut self) {
        // finished or not, the runs go (finish has removed them already)
        let _ = std::fs::remove_dir_all(&self.spill);
    }
}

/// One region's files.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegionReport {
    /// The region's place (0 = the first).
    pub index: usize,
    /// Its start row (empty for the first region).
    pub start: Vec<u8>,
    /// Its end row (empty for the last region).
    pub end: Vec<u8>,
    /// Rows written.
    pub rows: u64,
    /// Cells written.
    pub cells: u64,
    /// Bytes of its files.
    pub bytes: u64,
    /// Its files, one per family that has rows in it.
    pub files: Vec<PathBuf>,
    /// How long merging and writing it took.
    pub write_time: Duration,
}

/// What a bulk load wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BulkReport {
    /// The output directory (`<dir>/<family>/<file>`).
    pub dir: PathBuf,
    /// Every region, in order (those with no rows too).
    pub regions: Vec<RegionReport>,
    /// Rows written.
    pub rows: u64,
    /// Cells written.
    pub cells: u64,
    /// Bytes of all files.
    pub bytes: u64,
    /// Runs spilled (0: the input fit the memory budget).
    pub runs: usize,
    /// From [`BulkLoad::writer`] to the start of the writing (adding, sorting, spilling).
    pub sort_time: Duration,
    /// Merging and writing the files, all regions.
    pub write_time: Duration,
}

impl BulkReport {
    /// Every file written.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.regions
            .iter()
            .flat_map(|r| r.files.iter().map(PathBuf::as_path))
    }

    /// The command that loads the files into `table` on a cluster (after they reach its file
    /// system): `hbase completebulkload <dir> <table>` (HBase's `BulkLoadHFilesTool`).
    ///
    /// ```
    /// # use rowkey_hbase::bulk::BulkReport;
    /// # fn demo(report: &BulkReport) {
    /// println!("{}", report.load_command("calls"));
    /// # }
    /// ```
    pub fn load_command(&self, table: &str) -> String {
        format!("hbase completebulkload {} {table}", self.dir.display())
    }
}

/// Why a bulk load refused its input or failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum BulkError {
    /// A row was refused when added (nothing of it was added): the key as its type describes
    /// it, and why.
    Row {
        /// The key, described by its type.
        key: String,
        /// What is wrong.
        problem: String,
    },
    /// The same cell twice: row, family, qualifier and timestamp.
    Duplicate {
        /// The key, described by its type.
        key: String,
        /// The family.
        family: String,
        /// The qualifier (HBase's `toStringBinary`).
        qualifier: String,
        /// The timestamp.
        timestamp: i64,
    },
    /// A family that cannot be written, or none.
    Family(String),
    /// Split points that are not sorted, distinct and non-empty.
    SplitPoints(String),
    /// The output directory holds files already.
    Output(PathBuf),
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// The HFile writer refused a cell or failed.
    HFile {
        /// The file.
        path: PathBuf,
        /// The error.
        source: rowkey_hfile::Error,
    },
    /// Writing the files failed: the files written were removed (`left` names any that could
    /// not be).
    Failed {
        /// Why.
        error: Box<BulkError>,
        /// Files removed.
        removed: usize,
        /// Files that could not be removed.
        left: Vec<PathBuf>,
    },
}

impl BulkError {
    pub(crate) fn io(path: &Path, source: io::Error) -> BulkError {
        BulkError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for BulkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BulkError::Row { key, problem } => write!(f, "row {key}: {problem}"),
            BulkError::Duplicate {
                key,
                family,
                qualifier,
                timestamp,
            } => write!(
                f,
                "row {key}: cell {family}:{qualifier} at timestamp {timestamp} was added twice \
                 (HBase would keep one of them)"
            ),
            BulkError::Family(m) | BulkError::SplitPoints(m) => f.write_str(m),
            BulkError::Output(p) => write!(
                f,
                "the output directory {} is not empty: a bulk load writes into a directory of \
                 its own",
                p.display()
            ),
            BulkError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            BulkError::HFile { path, source } => write!(f, "{}: {source}", path.display()),
            BulkError::Failed {
                error,
                removed,
                left,
            } => {
                write!(f, "{error}; the {removed} files written were removed")?;
                if !left.is_empty() {
                    write!(f, ", except (remove them by hand): ")?;
                    for (i, p) in left.iter().enumerate() {
                        write!(f, "{}{}", if i > 0 { ", " } else { "" }, p.display())?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BulkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BulkError::Io { source, .. } => Some(source),
            BulkError::HFile { source, .. } => Some(source),
            BulkError::Failed { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<BulkError> for Error {
    fn from(e: BulkError) -> Error {
        Error::Bulk(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(rowkey::RowKey, Debug)]
    struct K {
        id: u32,
    }

    /// A spill directory given by the caller keeps everything that was in it: the writer spills
    /// into a directory of its own inside it and removes only that.
    #[test]
    fn a_given_spill_directory_is_never_removed() {
        let base = std::env::temp_dir().join(format!("rowkey-bulk-spill-{}", std::process::id()));
        let spill = base.join("spill");
        std::fs::create_dir_all(&spill).expect("dir");
        std::fs::write(spill.join("keep"), b"mine").expect("write");
        let out = base.join("out");
        let mut w = BulkLoad::with_split_points(&out, &[vec![0, 0, 0, 9]], vec![Family::new("d")])
            .expect("load")
            .memory_budget(1)
            .spill_dir(&spill)
            .writer::<K>()
            .expect("writer");
        for id in 0..20_000u32 {
            w.add(&K { id }, [Cell::new("d", "q", [7u8; 64]).at(1)])
                .expect("add");
        }
        let report = w.finish().expect("finish");
        assert!(report.runs >= 1, "{} runs", report.runs);
        assert_eq!(report.cells, 20_000);
        let left: Vec<_> = std::fs::read_dir(&spill)
            .expect("spill dir kept")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left, ["keep"]);
        // dropped unfinished: the same
        let out2 = base.join("out2");
        let mut w = BulkLoad::with_split_points(&out2, &[], vec![Family::new("d")])
            .expect("load")
            .spill_dir(&spill)
            .writer::<K>()
            .expect("writer");
        w.add(&K { id: 1 }, [Cell::new("d", "q", "v")])
            .expect("add");
        drop(w);
        let left: Vec<_> = std::fs::read_dir(&spill)
            .expect("spill dir kept")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(left, ["keep"]);
        let _ = std::fs::remove_dir_all(&base);
    }
}
