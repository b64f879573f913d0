//! The writer: `HFileWriterImpl` as `StoreFileWriter` and `HFileOutputFormat2` drive it.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use prost::Message;

use crate::block::{BlockType, BlockWriter, Positioned};
use crate::bloom::CompoundBloom;
use crate::cell::{midpoint_key, Cell, CellType, KeyParts, MAX_FAMILY_LENGTH, MAX_ROW_LENGTH};
use crate::compress::Compression;
use crate::error::escape;
use crate::index::{DataIndexWriter, IndexChunk};
use crate::proto;
use crate::Error;

/// `FixedFileTrailer.getTrailerSize(3)`: the trailer is a file's last 4096 bytes.
///
/// ```
/// let (_, file) = rowkey_hfile::HFileWriter::new(Vec::new(), Default::default())
///     .unwrap()
///     .finish_into_inner()
///     .unwrap();
/// let trailer = &file[file.len() - rowkey_hfile::TRAILER_SIZE..];
/// assert_eq!(&trailer[..8], b"TRABLK\"$");
/// ```
pub const TRAILER_SIZE: usize = 4096;
/// The major version (3) and minor version (`HFileReaderImpl.MAX_MINOR_VERSION`, 3) in the
/// trailer's last four bytes.
const VERSION_MATERIALIZED: i32 = 3 | (3 << 24);
/// What `FixedFileTrailer.getHBase1CompatibleName` writes for `CellComparatorImpl`: the
/// trailer's comparator.
///
/// ```
/// assert!(rowkey_hfile::COMPARATOR_CLASS_NAME.ends_with("KVComparator"));
/// ```
pub const COMPARATOR_CLASS_NAME: &str = "org.apache.hadoop.hbase.KeyValue$KVComparator";

/// A family's `BLOOMFILTER`.
///
/// ```
/// assert_eq!(rowkey_hfile::BloomType::default(), rowkey_hfile::BloomType::Row);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BloomType {
    /// `NONE`: no general Bloom filter.
    None,
    /// `ROW` (HBase 2's default for a family): a compound Bloom filter of the rows.
    #[default]
    Row,
}

/// How to write a file: the family's settings (block size, compression, Bloom filter) and the
/// store's (checksums, index block size), with HBase 2.6's defaults.
///
/// ```
/// use rowkey_hfile::{BloomType, Compression, WriterOptions};
///
/// let options = WriterOptions::default()
///     .block_size(32 * 1024)
///     .compression(Compression::Snappy)
///     .bloom(BloomType::Row);
/// assert_eq!(options.get_block_size(), 32 * 1024);
/// ```
#[derive(Clone, Debug)]
pub struct WriterOptions {
    block_size: usize,
    compression: Compression,
    bloom: BloomType,
    bytes_per_checksum: u32,
    index_block_max_size: usize,
    index_min_entries: usize,
    delete_family_bloom: bool,
    bulkload_time_ms: Option<i64>,
    bulkload_task: String,
    create_time_ms: Option<i64>,
    exclude_from_minor_compaction: bool,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            block_size: 64 * 1024,
            compression: Compression::None,
            bloom: BloomType::Row,
            bytes_per_checksum: 16 * 1024,
            index_block_max_size: 128 * 1024,
            index_min_entries: 16,
            delete_family_bloom: true,
            bulkload_time_ms: None,
            bulkload_task: "rowkey-hfile".to_owned(),
            create_time_ms: None,
            exclude_from_minor_compaction: false,
        }
    }
}

impl WriterOptions {
    /// The family's `BLOCKSIZE` (default 65,536): a data block is cut once its cells reach it.
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().block_size(8192);
    /// assert_eq!(o.get_block_size(), 8192);
    /// ```
    #[must_use]
    pub fn block_size(mut self, bytes: usize) -> Self {
        self.block_size = bytes;
        self
    }

    /// The family's `COMPRESSION` (default `NONE`).
    ///
    /// ```
    /// use rowkey_hfile::{Compression, WriterOptions};
    /// let o = WriterOptions::default().compression(Compression::Gz);
    /// assert_eq!(o.get_compression(), Compression::Gz);
    /// ```
    #[must_use]
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// The family's `BLOOMFILTER` (default `ROW`).
    ///
    /// ```
    /// use rowkey_hfile::{BloomType, WriterOptions};
    /// let o = WriterOptions::default().bloom(BloomType::None);
    /// assert_eq!(o.get_bloom(), BloomType::None);
    /// ```
    #[must_use]
    pub fn bloom(mut self, bloom: BloomType) -> Self {
        self.bloom = bloom;
        self
    }

    /// `hbase.hstore.bytes.per.checksum` (default 16,384): one CRC32C per this many bytes of
    /// a block's header and data.
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().bytes_per_checksum(512);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn bytes_per_checksum(mut self, bytes: u32) -> Self {
        self.bytes_per_checksum = bytes;
        self
    }

    /// `hfile.index.block.max.size` (default 131,072): a leaf index block is cut at this size,
    /// and a root larger than this gets intermediate levels.
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().index_block_max_size(4096);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn index_block_max_size(mut self, bytes: usize) -> Self {
        self.index_block_max_size = bytes;
        self
    }

    /// `hfile.index.block.min.entries` (default 16, at least 2): the fewest entries an
    /// intermediate index block is cut with.
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().index_min_entries(2);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn index_min_entries(mut self, entries: usize) -> Self {
        self.index_min_entries = entries;
        self
    }

    /// `io.storefile.delete.family.bloom.enabled` (default true): a Bloom filter of the rows
    /// with `DeleteFamily` cells, written when there are any.
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().delete_family_bloom(false);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn delete_family_bloom(mut self, enabled: bool) -> Self {
        self.delete_family_bloom = enabled;
        self
    }

    /// The file info's `BULKLOAD_TIMESTAMP` (milliseconds; default: when the file is finished).
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().bulkload_time_ms(1_700_000_000_000);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn bulkload_time_ms(mut self, ms: i64) -> Self {
        self.bulkload_time_ms = Some(ms);
        self
    }

    /// The file info's `BULKLOAD_SOURCE_TASK` (`HFileOutputFormat2` writes the task attempt;
    /// default `rowkey-hfile`).
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().bulkload_task("region-07");
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn bulkload_task(mut self, task: impl Into<String>) -> Self {
        self.bulkload_task = task.into();
        self
    }

    /// The file info's `hfile.CREATE_TIME_TS` (milliseconds; default: when the writer is made).
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().create_time_ms(0);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn create_time_ms(mut self, ms: i64) -> Self {
        self.create_time_ms = Some(ms);
        self
    }

    /// The file info's `EXCLUDE_FROM_MINOR_COMPACTION`
    /// (`hbase.mapreduce.hfileoutputformat.compaction.exclude`, default false).
    ///
    /// ```
    /// let o = rowkey_hfile::WriterOptions::default().exclude_from_minor_compaction(true);
    /// # let _ = o;
    /// ```
    #[must_use]
    pub fn exclude_from_minor_compaction(mut self, exclude: bool) -> Self {
        self.exclude_from_minor_compaction = exclude;
        self
    }

    /// The data block size.
    ///
    /// ```
    /// assert_eq!(rowkey_hfile::WriterOptions::default().get_block_size(), 65_536);
    /// ```
    #[must_use]
    pub fn get_block_size(&self) -> usize {
        self.block_size
    }

    /// The compression.
    ///
    /// ```
    /// use rowkey_hfile::{Compression, WriterOptions};
    /// assert_eq!(WriterOptions::default().get_compression(), Compression::None);
    /// ```
    #[must_use]
    pub fn get_compression(&self) -> Compression {
        self.compression
    }

    /// The Bloom filter type.
    ///
    /// ```
    /// use rowkey_hfile::{BloomType, WriterOptions};
    /// assert_eq!(WriterOptions::default().get_bloom(), BloomType::Row);
    /// ```
    #[must_use]
    pub fn get_bloom(&self) -> BloomType {
        self.bloom
    }

    fn validate(&self) -> Result<(), Error> {
        let bad = |m: String| Err(Error::InvalidOptions(m));
        if self.block_size == 0 || self.block_size > 1 << 30 {
            return bad(format!("block size {} (1 byte to 1 GiB)", self.block_size));
        }
        if self.bytes_per_checksum == 0 || self.bytes_per_checksum > 1 << 30 {
            return bad(format!("bytes per checksum {}", self.bytes_per_checksum));
        }
        if self.index_block_max_size == 0 || self.index_block_max_size > 1 << 30 {
            return bad(format!("index block size {}", self.index_block_max_size));
        }
        if self.index_min_entries < 2 {
            return bad(format!(
                "index min entries {} (HBase needs at least 2)",
                self.index_min_entries
            ));
        }
        Ok(())
    }
}

/// What a finished file holds.
///
/// ```
/// use rowkey_hfile::{Cell, HFileWriter, WriterOptions};
///
/// let mut w = HFileWriter::new(Vec::new(), WriterOptions::default()).unwrap();
/// w.append(&Cell::put(b"r1", b"f", b"q", 5, b"v")).unwrap();
/// let (summary, bytes) = w.finish_into_inner().unwrap();
/// assert_eq!(summary.cells, 1);
/// assert_eq!(summary.bytes, bytes.len() as u64);
/// assert_eq!(summary.first_row.as_deref(), Some(&b"r1"[..]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileSummary {
    /// Cells written.
    pub cells: u64,
    /// The file's length in bytes.
    pub bytes: u64,
    /// The file's family (`None` for an empty file).
    pub family: Option<Vec<u8>>,
    /// The first cell's row.
    pub first_row: Option<Vec<u8>>,
    /// The last cell's row.
    pub last_row: Option<Vec<u8>>,
    /// Data blocks written.
    pub data_blocks: u64,
    /// Levels of the data block index (1: root only; 2: root and leaves; more: intermediate).
    pub index_levels: u32,
    /// Chunks of the row Bloom filter (0 without one).
    pub bloom_chunks: u32,
    /// The smallest and largest timestamp of the cells (HBase's `TIMERANGE`).
    pub time_range: Option<(i64, i64)>,
    /// The bytes of every block before compression, with headers, and the trailer
    /// (the trailer's `total_uncompressed_bytes`).
    pub uncompressed_bytes: u64,
}

/// Writes one HFile (format version 3) for one column family, as HBase 2.6 writes a bulk-load
/// file (`HFileOutputFormat2` → `StoreFileWriter` → `HFileWriterImpl`), streaming to `W`.
///
/// Cells must arrive in HBase's order; each is checked against the previous one. Memory holds
/// one data block, one Bloom chunk and the index entries (one key per data block, leaf index
/// blocks written as they fill). Wrap a file in a `BufWriter` (or use [`HFileWriter::create`]).
/// A writer dropped before [`finish`](HFileWriter::finish) leaves an incomplete file.
///
/// ```
/// use rowkey_hfile::{Cell, CellType, Compression, HFileWriter, WriterOptions};
///
/// let options = WriterOptions::default().compression(Compression::Snappy);
/// let mut w = HFileWriter::new(Vec::new(), options).unwrap();
/// w.append(&Cell::put(b"row1", b"cf", b"a", 10, b"x")).unwrap();
/// w.append_parts(b"row1", b"cf", b"b", 10, CellType::Put, b"y").unwrap();
/// w.append(&Cell::put(b"row2", b"cf", b"a", 10, b"")).unwrap();
/// let (summary, file) = w.finish_into_inner().unwrap();
/// assert_eq!(summary.cells, 3);
/// assert_eq!(&file[file.len() - 4..], &[3, 0, 0, 3]); // minor 3, major 3
/// ```
pub struct HFileWriter<W: Write> {
    out: Positioned<W>,
    options: WriterOptions,
    blocks: BlockWriter,
    /// The data block being filled: header room, then cells.
    block: Vec<u8>,
    block_open: bool,
    /// `EncodingState.getUnencodedDataSizeWritten()`: the cells' bytes in the block.
    block_cells_size: usize,
    scratch: Vec<u8>,
    first_key_in_block: Vec<u8>,
    last_key: Vec<u8>,
    prev_block_last_key: Vec<u8>,
    has_prev_block: bool,
    index: DataIndexWriter,
    bloom: Option<CompoundBloom>,
    delete_bloom: Option<CompoundBloom>,
    family: Vec<u8>,
    first_row: Vec<u8>,
    cells: u64,
    total_key_len: u64,
    total_value_len: u64,
    biggest_len: i64,
    biggest_key: Vec<u8>,
    total_uncompressed: u64,
    first_data_block_offset: i64,
    last_data_block_offset: i64,
    data_blocks: u64,
    ts_min: i64,
    ts_max: i64,
    earliest_put_ts: i64,
    delete_family_count: i64,
    create_time_ms: i64,
    failed: Option<String>,
}

impl HFileWriter<BufWriter<File>> {
    /// Creates (or truncates) the file at `path` and writes to it through a 1 MiB buffer.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidOptions`], or [`Error::Io`] if the file cannot be created.
    ///
    /// ```no_run
    /// use rowkey_hfile::{Cell, HFileWriter, WriterOptions};
    /// let mut w = HFileWriter::create("/tmp/cf/hfile1", WriterOptions::default())?;
    /// w.append(&Cell::put(b"r", b"cf", b"q", 1, b"v"))?;
    /// w.finish()?;
    /// # Ok::<(), rowkey_hfile::Error>(())
    /// ```
    pub fn create(path: impl AsRef<Path>, options: WriterOptions) -> Result<Self, Error> {
        options.validate()?;
        let file = File::create(path)?;
        HFileWriter::new(BufWriter::with_capacity(1 << 20, file), options)
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl<W: Write> HFileWriter<W> {
    /// A writer to `out`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidOptions`] for options no valid file has (a zero block size, fewer than 2
    /// index entries per block, ...).
    ///
    /// ```
    /// use rowkey_hfile::{HFileWriter, WriterOptions};
    /// assert!(HFileWriter::new(Vec::new(), WriterOptions::default().block_size(0)).is_err());
    /// ```
    pub fn new(out: W, options: WriterOptions) -> Result<Self, Error> {
        options.validate()?;
        Ok(HFileWriter {
            out: Positioned { inner: out, pos: 0 },
            blocks: BlockWriter::new(options.compression, options.bytes_per_checksum),
            block: Vec::with_capacity(options.block_size + options.block_size / 4 + 64),
            block_open: false,
            block_cells_size: 0,
            scratch: Vec::new(),
            first_key_in_block: Vec::new(),
            last_key: Vec::new(),
            prev_block_last_key: Vec::new(),
            has_prev_block: false,
            index: DataIndexWriter::new(options.index_block_max_size, options.index_min_entries),
            bloom: (options.bloom == BloomType::Row).then(CompoundBloom::new),
            delete_bloom: options.delete_family_bloom.then(CompoundBloom::new),
            family: Vec::new(),
            first_row: Vec::new(),
            cells: 0,
            total_key_len: 0,
            total_value_len: 0,
            biggest_len: 0,
            biggest_key: Vec::new(),
            total_uncompressed: 0,
            first_data_block_offset: -1,
            last_data_block_offset: -1,
            data_blocks: 0,
            ts_min: i64::MAX,
            ts_max: -1,
            earliest_put_ts: i64::MAX,
            delete_family_count: 0,
            create_time_ms: options.create_time_ms.unwrap_or_else(now_ms),
            failed: None,
            options,
        })
    }

    /// Cells appended so far.
    ///
    /// ```
    /// let w = rowkey_hfile::HFileWriter::new(Vec::new(), Default::default()).unwrap();
    /// assert_eq!(w.cells(), 0);
    /// ```
    #[must_use]
    pub fn cells(&self) -> u64 {
        self.cells
    }

    /// Bytes written to the output so far.
    ///
    /// ```
    /// let w = rowkey_hfile::HFileWriter::new(Vec::new(), Default::default()).unwrap();
    /// assert_eq!(w.bytes_written(), 0);
    /// ```
    #[must_use]
    pub fn bytes_written(&self) -> u64 {
        self.out.pos
    }

    /// Appends a cell from its parts; see [`append`](Self::append).
    ///
    /// # Errors
    ///
    /// As [`append`](Self::append).
    ///
    /// ```
    /// use rowkey_hfile::{CellType, HFileWriter};
    /// let mut w = HFileWriter::new(Vec::new(), Default::default()).unwrap();
    /// w.append_parts(b"r", b"f", b"q", 9, CellType::DeleteColumn, b"").unwrap();
    /// ```
    pub fn append_parts(
        &mut self,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        timestamp: i64,
        cell_type: CellType,
        value: &[u8],
    ) -> Result<(), Error> {
        self.append(&Cell {
            row,
            family,
            qualifier,
            timestamp,
            cell_type,
            value,
        })
    }

    /// Appends a cell. It must sort after the previous one in HBase's order and belong to the
    /// same family.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfOrder`], [`Error::Duplicate`] or [`Error::InvalidCell`] (nothing written:
    /// the writer takes the next cell); [`Error::Io`], [`Error::Compression`] or
    /// [`Error::TooLarge`] while writing a block, after which the file is incomplete and every
    /// call fails with [`Error::Failed`].
    ///
    /// ```
    /// use rowkey_hfile::{Cell, Error, HFileWriter};
    /// let mut w = HFileWriter::new(Vec::new(), Default::default()).unwrap();
    /// w.append(&Cell::put(b"r", b"f", b"q", 2, b"new")).unwrap();
    /// w.append(&Cell::put(b"r", b"f", b"q", 1, b"old")).unwrap(); // older after newer
    /// let dup = w.append(&Cell::put(b"r", b"f", b"q", 1, b"again"));
    /// assert!(matches!(dup, Err(Error::Duplicate { index: 2, .. })));
    /// ```
    pub fn append(&mut self, cell: &Cell<'_>) -> Result<(), Error> {
        if let Some(why) = &self.failed {
            return Err(Error::Failed(why.clone()));
        }
        self.check(cell)?;
        let result = self.append_checked(cell);
        if let Err(e) = &result {
            self.failed = Some(e.to_string());
        }
        result
    }

    fn check(&self, cell: &Cell<'_>) -> Result<(), Error> {
        let index = self.cells;
        let invalid = |problem: String| {
            Err(Error::InvalidCell {
                index,
                row: escape(cell.row),
                problem,
            })
        };
        if cell.row.is_empty() {
            return invalid("the row is empty (HBase refuses empty rows)".into());
        }
        if cell.row.len() > MAX_ROW_LENGTH {
            return invalid(format!(
                "the row is {} bytes, HBase's limit is {MAX_ROW_LENGTH}",
                cell.row.len()
            ));
        }
        if cell.family.is_empty() || cell.family.len() > MAX_FAMILY_LENGTH {
            return invalid(format!(
                "the family is {} bytes (1 to {MAX_FAMILY_LENGTH})",
                cell.family.len()
            ));
        }
        if cell.timestamp < 0 {
            return invalid(format!("negative timestamp {}", cell.timestamp));
        }
        let size = 8u64 + cell.key_len() as u64 + cell.value.len() as u64 + 3;
        if size > (i32::MAX as u64) / 2 {
            return invalid(format!("the cell is {size} bytes, too large for a block"));
        }
        if self.cells > 0 {
            if cell.family != self.family.as_slice() {
                return invalid(format!(
                    "family {} in a file of family {} (one file per family)",
                    escape(cell.family),
                    escape(&self.family)
                ));
            }
            if let Some(last) = KeyParts::parse(&self.last_key) {
                match cell.parts().cmp_hbase(&last) {
                    std::cmp::Ordering::Less => {
                        return Err(Error::OutOfOrder {
                            index,
                            row: escape(cell.row),
                            previous_row: escape(last.row),
                        })
                    }
                    std::cmp::Ordering::Equal => {
                        return Err(Error::Duplicate {
                            index,
                            row: escape(cell.row),
                        })
                    }
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
        Ok(())
    }

    fn append_checked(&mut self, cell: &Cell<'_>) -> Result<(), Error> {
        // StoreFileWriter.append: the Blooms first, then HFileWriterImpl.append
        if let Some(bloom) = self.bloom.as_mut() {
            bloom.add_row(cell.row);
        }
        if matches!(
            cell.cell_type,
            CellType::DeleteFamily | CellType::DeleteFamilyVersion
        ) {
            self.delete_family_count += 1;
            if let Some(bloom) = self.delete_bloom.as_mut() {
                bloom.add_row(cell.row);
            }
        }
        // checkBlockBoundary
        if self.block_open && self.block_cells_size >= self.options.block_size {
            self.finish_block()?;
            self.write_inline_blocks(false)?;
            self.new_block();
        }
        if !self.block_open {
            self.new_block();
        }
        // NoneEncoder.write: key length, value length, key, value, tags length, mvcc (vlong 0)
        let key_len = cell.key_len();
        let key_start = self.block.len() + 8;
        self.block
            .extend_from_slice(&(key_len as i32).to_be_bytes());
        self.block
            .extend_from_slice(&(cell.value.len() as i32).to_be_bytes());
        cell.parts().serialize_into(&mut self.block);
        self.block.extend_from_slice(cell.value);
        self.block.extend_from_slice(&[0, 0, 0]);
        self.block_cells_size += 8 + key_len + cell.value.len() + 3;
        let key = &self.block[key_start..key_start + key_len];
        if self.first_key_in_block.is_empty() {
            self.first_key_in_block.extend_from_slice(key);
        }
        self.last_key.clear();
        self.last_key.extend_from_slice(key);

        if self.cells == 0 {
            self.family.extend_from_slice(cell.family);
            self.first_row.extend_from_slice(cell.row);
        }
        self.cells += 1;
        self.total_key_len += key_len as u64;
        self.total_value_len += cell.value.len() as u64;
        // PrivateCellUtil.estimatedSerializedSizeOf: a tagless KeyValue's length + 4
        let serialized = (8 + key_len + cell.value.len() + 4) as i64;
        if self.biggest_len < serialized {
            self.biggest_len = serialized;
            self.biggest_key.clear();
            self.biggest_key.extend_from_slice(&self.last_key);
        }
        // TimeRangeTracker.includeTimestamp(cell), StoreFileWriter.trackTimestamps
        self.include_timestamp(cell.timestamp);
        if matches!(
            cell.cell_type,
            CellType::DeleteColumn | CellType::DeleteFamily
        ) {
            self.include_timestamp(0);
        }
        if cell.cell_type == CellType::Put {
            self.earliest_put_ts = self.earliest_put_ts.min(cell.timestamp);
        }
        Ok(())
    }

    fn include_timestamp(&mut self, ts: i64) {
        self.ts_min = self.ts_min.min(ts);
        self.ts_max = self.ts_max.max(ts);
    }

    fn new_block(&mut self) {
        BlockWriter::start(&mut self.block);
        self.block_open = true;
        self.block_cells_size = 0;
        self.first_key_in_block.clear();
        if self.cells > 0 {
            self.prev_block_last_key.clear();
            self.prev_block_last_key.extend_from_slice(&self.last_key);
            self.has_prev_block = true;
        }
    }

    /// `HFileWriterImpl.finishBlock`: writes the data block, indexes it under the midpoint of
    /// the previous block's last key and this block's first key.
    fn finish_block(&mut self) -> Result<(), Error> {
        if !self.block_open || self.block_cells_size == 0 {
            return Ok(());
        }
        let written = self
            .blocks
            .write(&mut self.out, BlockType::Data, &mut self.block)?;
        if self.first_data_block_offset < 0 {
            self.first_data_block_offset = written.offset as i64;
        }
        self.last_data_block_offset = written.offset as i64;
        let mut key = Vec::with_capacity(self.first_key_in_block.len());
        match (
            self.has_prev_block,
            KeyParts::parse(&self.prev_block_last_key),
            KeyParts::parse(&self.first_key_in_block),
        ) {
            (true, Some(left), Some(right)) => midpoint_key(&left, &right, &mut key),
            _ => key.extend_from_slice(&self.first_key_in_block),
        }
        self.index
            .add_entry(key, written.offset, written.on_disk_size_with_header);
        self.total_uncompressed += written.uncompressed_with_header();
        self.data_blocks += 1;
        self.block_open = false;
        Ok(())
    }

    /// `HFileWriterImpl.writeInlineBlocks`: leaf index blocks, then Bloom chunks, when due.
    fn write_inline_blocks(&mut self, closing: bool) -> Result<(), Error> {
        while self.index.should_write_block(closing) {
            BlockWriter::start(&mut self.scratch);
            self.index.write_inline_block(&mut self.scratch);
            let w = self
                .blocks
                .write(&mut self.out, BlockType::LeafIndex, &mut self.scratch)?;
            self.index.block_written(
                w.offset,
                w.on_disk_size_with_header,
                w.uncompressed_size_without_header,
            );
            self.total_uncompressed += w.uncompressed_with_header();
        }
        for bloom in [self.bloom.as_mut(), self.delete_bloom.as_mut()]
            .into_iter()
            .flatten()
        {
            while bloom.should_write_block(closing) {
                BlockWriter::start(&mut self.scratch);
                bloom.write_inline_block(&mut self.scratch);
                let w =
                    self.blocks
                        .write(&mut self.out, BlockType::BloomChunk, &mut self.scratch)?;
                bloom.block_written(w.offset, w.on_disk_size_with_header);
                self.total_uncompressed += w.uncompressed_with_header();
            }
        }
        Ok(())
    }

    /// Finishes the file (the last block, the index, the file info, the Bloom meta, the
    /// trailer), flushes the output and drops it.
    ///
    /// # Errors
    ///
    /// [`Error::Io`], [`Error::Compression`], [`Error::TooLarge`], or [`Error::Failed`] after an
    /// earlier failure.
    ///
    /// ```
    /// use rowkey_hfile::{Cell, HFileWriter};
    /// let mut w = HFileWriter::new(Vec::new(), Default::default()).unwrap();
    /// w.append(&Cell::put(b"r", b"f", b"q", 1, b"v")).unwrap();
    /// assert_eq!(w.finish().unwrap().cells, 1);
    /// ```
    pub fn finish(self) -> Result<FileSummary, Error> {
        self.finish_into_inner().map(|(summary, _)| summary)
    }

    /// As [`finish`](Self::finish), returning the output too.
    ///
    /// # Errors
    ///
    /// As [`finish`](Self::finish).
    ///
    /// ```
    /// use rowkey_hfile::HFileWriter;
    /// let w = HFileWriter::new(Vec::new(), Default::default()).unwrap();
    /// let (summary, bytes) = w.finish_into_inner().unwrap(); // an empty file is valid
    /// assert_eq!(summary.cells, 0);
    /// assert!(bytes.len() > 4096);
    /// ```
    pub fn finish_into_inner(mut self) -> Result<(FileSummary, W), Error> {
        if let Some(why) = &self.failed {
            return Err(Error::Failed(why.clone()));
        }
        self.finish_block()?;
        self.write_inline_blocks(true)?;
        let load_on_open = self.write_index_blocks()?;

        // the meta block index (no meta blocks)
        BlockWriter::start(&mut self.scratch);
        let w = self
            .blocks
            .write(&mut self.out, BlockType::RootIndex, &mut self.scratch)?;
        self.total_uncompressed += w.uncompressed_with_header();

        let file_info_offset = self.out.pos;
        BlockWriter::start(&mut self.scratch);
        self.scratch.extend_from_slice(b"PBUF");
        let info = proto::FileInfoProto {
            map_entry: self
                .file_info()
                .into_iter()
                .map(|(first, second)| proto::BytesBytesPair { first, second })
                .collect(),
        };
        info.encode_length_delimited(&mut self.scratch)
            .map_err(|e| Error::TooLarge(format!("file info: {e}")))?;
        let w = self
            .blocks
            .write(&mut self.out, BlockType::FileInfo, &mut self.scratch)?;
        self.total_uncompressed += w.uncompressed_with_header();

        for (bloom, kind) in [
            (self.bloom.as_ref(), BlockType::GeneralBloomMeta),
            (self.delete_bloom.as_ref(), BlockType::DeleteFamilyBloomMeta),
        ] {
            if let Some(bloom) = bloom.filter(|b| b.key_count() > 0) {
                BlockWriter::start(&mut self.scratch);
                bloom.write_meta(&mut self.scratch);
                let w = self.blocks.write(&mut self.out, kind, &mut self.scratch)?;
                self.total_uncompressed += w.uncompressed_with_header();
            }
        }

        let uncompressed_bytes = self.total_uncompressed + TRAILER_SIZE as u64;
        let trailer = proto::FileTrailerProto {
            file_info_offset: Some(file_info_offset),
            load_on_open_data_offset: Some(load_on_open),
            uncompressed_data_index_size: Some(self.index.total_uncompressed),
            total_uncompressed_bytes: Some(uncompressed_bytes),
            data_index_count: Some(self.index.root.len() as u32),
            meta_index_count: Some(0),
            entry_count: Some(self.cells),
            num_data_index_levels: Some(self.index.num_levels),
            first_data_block_offset: Some(self.first_data_block_offset as u64),
            last_data_block_offset: Some(self.last_data_block_offset as u64),
            comparator_class_name: Some(COMPARATOR_CLASS_NAME.to_owned()),
            compression_codec: Some(self.options.compression.trailer_code()),
            encryption_key: None,
        };
        let mut t = Vec::with_capacity(TRAILER_SIZE);
        t.extend_from_slice(b"TRABLK\"$");
        trailer
            .encode_length_delimited(&mut t)
            .map_err(|e| Error::TooLarge(format!("trailer: {e}")))?;
        if t.len() > TRAILER_SIZE - 4 {
            return Err(Error::TooLarge("the trailer outgrew 4096 bytes".into()));
        }
        t.resize(TRAILER_SIZE - 4, 0);
        t.extend_from_slice(&VERSION_MATERIALIZED.to_be_bytes());
        self.out.write_all(&t)?;
        self.out.inner.flush()?;

        let summary = FileSummary {
            cells: self.cells,
            bytes: self.out.pos,
            family: (self.cells > 0).then(|| self.family.clone()),
            first_row: (self.cells > 0).then(|| self.first_row.clone()),
            last_row: KeyParts::parse(&self.last_key).map(|k| k.row.to_vec()),
            data_blocks: self.data_blocks,
            index_levels: self.index.num_levels,
            bloom_chunks: self
                .bloom
                .as_ref()
                .map_or(0, |b| b.chunk_count().max(0) as u32),
            time_range: (self.cells > 0).then_some((self.ts_min, self.ts_max)),
            uncompressed_bytes,
        };
        Ok((summary, self.out.inner))
    }

    /// `BlockIndexWriter.writeIndexBlocks`: intermediate levels while the root is too large,
    /// then the root (with the mid-key metadata of a multi-level index). Returns the root's
    /// offset, where the load-on-open section starts.
    fn write_index_blocks(&mut self) -> Result<u64, Error> {
        let mid_key = if self.index.num_levels > 1 {
            self.index.root.mid_key_metadata()
        } else {
            None
        };
        let max = self.index.max_chunk_size();
        let min_entries = self.index.min_entries();
        if self.index.has_inline() {
            while self.index.root.root_size() > max
                && self.index.root.len() > min_entries
                && self.index.num_levels < 16
            {
                let chunks = self.index.split_level(&self.index.root);
                let mut parent = IndexChunk::default();
                for chunk in chunks {
                    BlockWriter::start(&mut self.scratch);
                    chunk.write_non_root(&mut self.scratch);
                    let w = self.blocks.write(
                        &mut self.out,
                        BlockType::IntermediateIndex,
                        &mut self.scratch,
                    )?;
                    self.index.total_uncompressed += w.uncompressed_size_without_header as u64;
                    let first = chunk.first_key().unwrap_or_default().to_vec();
                    parent.add(first, w.offset, w.on_disk_size_with_header, None);
                }
                self.index.root = parent;
                self.index.num_levels += 1;
            }
        }
        BlockWriter::start(&mut self.scratch);
        self.index.root.write_root(&mut self.scratch);
        if let Some(mid) = mid_key {
            self.scratch.extend_from_slice(&mid);
        }
        let w = self
            .blocks
            .write(&mut self.out, BlockType::RootIndex, &mut self.scratch)?;
        self.index.total_uncompressed += w.uncompressed_size_without_header as u64;
        Ok(w.offset)
    }

    /// The file info, as `HFileOutputFormat2`, `StoreFileWriter` and `HFileWriterImpl` fill it
    /// (a map sorted by unsigned bytes).
    fn file_info(&self) -> BTreeMap<Vec<u8>, Vec<u8>> {
        let mut m: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        let mut put = |k: &str, v: Vec<u8>| {
            m.insert(k.as_bytes().to_vec(), v);
        };
        let boolean = |b: bool| vec![if b { 0xff } else { 0 }];
        // HFileOutputFormat2's close
        put(
            "BULKLOAD_TIMESTAMP",
            self.options
                .bulkload_time_ms
                .unwrap_or_else(now_ms)
                .to_be_bytes()
                .to_vec(),
        );
        put(
            "BULKLOAD_SOURCE_TASK",
            self.options.bulkload_task.as_bytes().to_vec(),
        );
        put("MAJOR_COMPACTION_KEY", boolean(true));
        put(
            "EXCLUDE_FROM_MINOR_COMPACTION",
            boolean(self.options.exclude_from_minor_compaction),
        );
        // StoreFileWriter: appendTrackedTimestampsToMetadata, close
        let mut range = self.ts_min.to_be_bytes().to_vec();
        range.extend_from_slice(&self.ts_max.to_be_bytes());
        put("TIMERANGE", range);
        put(
            "EARLIEST_PUT_TS",
            self.earliest_put_ts.to_be_bytes().to_vec(),
        );
        put("HISTORICAL", boolean(false));
        if let Some(bloom) = self.bloom.as_ref().filter(|b| b.key_count() > 0) {
            put("BLOOM_FILTER_TYPE", b"ROW".to_vec());
            if let Some(row) = bloom.last_row() {
                put("LAST_BLOOM_KEY", row.to_vec());
            }
        }
        put(
            "DELETE_FAMILY_COUNT",
            self.delete_family_count.to_be_bytes().to_vec(),
        );
        // HFileWriterImpl.close (includesMvcc) and finishFileInfo (includesTags)
        put("MAX_MEMSTORE_TS_KEY", 0i64.to_be_bytes().to_vec());
        put("KEY_VALUE_VERSION", 1i32.to_be_bytes().to_vec());
        if self.cells > 0 {
            put("hfile.LASTKEY", self.last_key.clone());
        }
        let avg = |total: u64| total.checked_div(self.cells).unwrap_or(0) as i32;
        put(
            "hfile.AVG_KEY_LEN",
            avg(self.total_key_len).to_be_bytes().to_vec(),
        );
        put(
            "hfile.CREATE_TIME_TS",
            self.create_time_ms.to_be_bytes().to_vec(),
        );
        put(
            "hfile.AVG_VALUE_LEN",
            avg(self.total_value_len).to_be_bytes().to_vec(),
        );
        if self.cells > 0 {
            put("hfile.KEY_OF_BIGGEST_CELL", self.biggest_key.clone());
            put(
                "hfile.LEN_OF_BIGGEST_CELL",
                self.biggest_len.to_be_bytes().to_vec(),
            );
        }
        put("hfile.MAX_TAGS_LEN", 0i32.to_be_bytes().to_vec());
        put("hfile.TAGS_COMPRESSED", boolean(false));
        m
    }
}
