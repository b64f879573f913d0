//! An HBase HFile writer: the files HBase 2.6's own `HFileWriterImpl` writes for a bulk load
//! (`HFileOutputFormat2` → `StoreFileWriter` → `HFileWriterImpl`), in Rust, streamed to any
//! [`std::io::Write`], ready for HBase's `BulkLoadHFilesTool` (`<dir>/<family>/<file>`).
//!
//! This crate is the format only: it knows nothing of row keys, Thrift or the clients.
//!
//! ```
//! use rowkey_hfile::{Cell, Compression, HFileWriter, WriterOptions};
//!
//! let options = WriterOptions::default().compression(Compression::Snappy);
//! let mut writer = HFileWriter::new(Vec::new(), options)?;
//! for i in 0..1000u32 {
//!     let row = format!("row{i:05}");
//!     writer.append(&Cell::put(row.as_bytes(), b"cf", b"q", 1_700_000_000_000, b"value"))?;
//! }
//! let (summary, file) = writer.finish_into_inner()?;
//! assert_eq!(summary.cells, 1000);
//! assert_eq!(file.len() as u64, summary.bytes);
//! # Ok::<(), rowkey_hfile::Error>(())
//! ```
//!
//! # The format, and the HBase class each rule follows
//!
//! Every rule below was read from the HBase 2.6.1 sources; the tests check the files with
//! HBase 2.6.1's own reader (`HFile.createReader`, `HFilePrettyPrinter`), not with a reader of
//! this crate's.
//!
//! - **Cells** (`KeyValue`, `NoneEncoder`): key length (4), value length (4), the key (row
//!   length (2), row, family length (1), family, qualifier, timestamp (8), type (1)), the value,
//!   tags length (2, always 0: HFile v3 with `includesTags`, as `HFileOutputFormat2` sets it),
//!   and the memstore timestamp as a Hadoop vlong (always 0: `HFileContextBuilder` includes
//!   MVCC by default, so the file info says `KEY_VALUE_VERSION` 1 and `MAX_MEMSTORE_TS_KEY` 0).
//!   No data block encoding (`DataBlockEncoding.NONE`, the family default).
//! - **Order** (`CellComparatorImpl`): row, family, qualifier as unsigned bytes, then timestamp
//!   descending, then type code descending. The writer refuses a cell that sorts before the
//!   previous one, or equals it ([`Error::OutOfOrder`], [`Error::Duplicate`]), and a cell of
//!   another family than the file's (one file per family, as `HFileOutputFormat2` writes).
//! - **Data blocks** (`HFileWriterImpl.checkBlockBoundary`): a block is cut before the cell that
//!   would follow once the cells' bytes reached the block size (64 KiB default).
//! - **Blocks** (`HFileBlock.Writer`): a 33-byte header (magic, on-disk size without header,
//!   uncompressed size without header, the offset of the previous block of the same type or
//!   -1, checksum type 2 = CRC32C, bytes per checksum, on-disk size of header + data), the data
//!   (compressed if the family is), then one big-endian CRC32C per `bytesPerChecksum` (16 KiB
//!   default) bytes of header + on-disk data (`ChecksumUtil.generateChecksums`). Every block
//!   type is compressed, as HBase does; headers and checksums are not.
//! - **Compression** (`Compression.Algorithm`, Hadoop's `BlockCompressorStream`, HBase's
//!   `xerial.SnappyCodec`, `zstd.ZstdCodec`, `ReusableStreamGzipCodec`): SNAPPY and ZSTD blocks
//!   are `[uncompressed length][compressed length][compressed bytes]` (big-endian `int`s; input
//!   over the codec's 256 KiB buffer less its overhead is cut in pieces); GZ is one gzip member.
//! - **Block index** (`HFileBlockIndex.BlockIndexWriter`, `NoOpIndexBlockEncoder`): one entry
//!   per data block, keyed by `HFileWriterImpl.getMidpoint` of the previous block's last key and
//!   the block's first key. Entries gather in a leaf chunk written as an inline `IDXLEAF2` block
//!   once it reaches `hfile.index.block.max.size` (128 KiB); the root (`IDXROOT2`, first block of
//!   the load-on-open section) lists the leaves, with the mid-key metadata, and gets
//!   `IDXINTE2` intermediate levels while it is larger than 128 KiB with more than 16 entries.
//!   A file whose entries fit one chunk has a single-level index (the root lists data blocks).
//! - **Bloom filters** (`CompoundBloomFilterWriter`, `BloomFilterChunk`, `BloomFilterUtil`,
//!   `MurmurHash`, `RowBloomContext`): with `BLOOMFILTER => 'ROW'` each new row goes into a
//!   128 KiB chunk (error rate 0.01, Murmur hash, `hbase.hash.type` default `murmur`), written
//!   as an inline `BLMFBLK2` block when full; the last chunk is folded; the meta (`BLMFMET2`)
//!   with the chunks' index is in the load-on-open section, with `BLOOM_FILTER_TYPE` and
//!   `LAST_BLOOM_KEY` in the file info. Rows of `DeleteFamily` cells get the same kind of
//!   filter (`DFBLMET2`), as `StoreFileWriter` does by default.
//! - **Load-on-open section** (`HFileWriterImpl.close`): the root data index, the (empty) meta
//!   index, the file info (`FILEINF2`: `PBUF` + a length-delimited `FileInfoProto`), the Bloom
//!   metas, then the trailer.
//! - **File info**: what `HFileOutputFormat2` (`BULKLOAD_TIMESTAMP`, `BULKLOAD_SOURCE_TASK`,
//!   `MAJOR_COMPACTION_KEY`, `EXCLUDE_FROM_MINOR_COMPACTION`), `StoreFileWriter` (`TIMERANGE`,
//!   `EARLIEST_PUT_TS`, `HISTORICAL`, `DELETE_FAMILY_COUNT`, the Bloom keys) and
//!   `HFileWriterImpl` (`hfile.LASTKEY`, `hfile.AVG_KEY_LEN`, `hfile.AVG_VALUE_LEN`,
//!   `hfile.CREATE_TIME_TS`, `hfile.KEY_OF_BIGGEST_CELL`, `hfile.LEN_OF_BIGGEST_CELL`,
//!   `hfile.MAX_TAGS_LEN`, `hfile.TAGS_COMPRESSED`, `MAX_MEMSTORE_TS_KEY`, `KEY_VALUE_VERSION`)
//!   write.
//! - **Trailer** (`FixedFileTrailer`, HFile version 3): 4096 bytes: `TRABLK"$`, a
//!   length-delimited `FileTrailerProto` (HBase's own `HFile.proto`, bindings generated by
//!   `proto/regen.sh`), zeros, then the version (major 3, minor 3). The comparator is named
//!   `org.apache.hadoop.hbase.KeyValue$KVComparator`, as HBase 2 writes it for HBase 1 readers.
//!
//! Not written: tags, data block encodings (`FAST_DIFF`, ...), encryption, `ROWCOL` and
//! `ROWPREFIX_FIXED_LENGTH` Bloom filters, meta blocks.
//!
//! # Loading the files
//!
//! Lay the files out as HBase's bulk loader expects, one directory per family
//! (`<dir>/<family>/<file>`, one file per family and region), put `<dir>` on the cluster's file
//! system, then run HBase's own tool:
//!
//! ```text
//! hdfs dfs -put /local/out /tmp/bulk          # or write them there directly
//! hbase completebulkload /tmp/bulk <table>   # BulkLoadHFilesTool
//! ```
//!
//! The tool moves a file that fits one region into it as it is, and splits one that spans a
//! region boundary (a region split since the files were planned). A family with
//! `COMPRESSION => 'SNAPPY'` or `'ZSTD'` must be readable by the region servers: HBase 2.6's
//! defaults are Hadoop's native codecs; without Hadoop's native library set
//! `hbase.io.compress.snappy.codec` to `org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec`
//! (module `hbase-compression-snappy`) and `hbase.io.compress.zstd.codec` to
//! `org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec` (`hbase-compression-zstd`); both read the
//! same framing as Hadoop's.
//!
//! # How it is verified
//!
//! By HBase 2.6.1 itself (`tests/hbase.rs`, `tests/bulkload.rs`, `harness/*.java`): every test
//! file is read by `HFilePrettyPrinter -v -k -a -m -b -h` and by a scan compared cell for cell,
//! with HBase's own block checksum verification on (through `HFileSystem`, as a region server
//! reads) and its failure count checked; exact seeks exercise every index level; HBase's Bloom
//! filter reader finds every row. HBase's own writer writes the same cells with the same
//! settings: uncompressed files are byte-identical to it (Bloom filters, 3-level indexes and the
//! empty file included); compressed files have the same blocks before compression (the codecs'
//! bytes may differ: `snap` is not `snappy-java`, `miniz_oxide` is not zlib). The tests also walk
//! every block and recompute each CRC32C (HBase falls back to file system checksums without a
//! word when one is wrong), and load the files with `BulkLoadHFilesTool` into a live HBase, whole
//! and split across regions, reading every cell back.
//!
//! # Memory
//!
//! One data block (plus its compressed copy), one Bloom chunk per filter (128 KiB), and the
//! index: one key per data block until a leaf chunk (128 KiB) is written, then one key per leaf
//! block (the root). With 50-byte keys a leaf block indexes about 2,000 data blocks, so a
//! 100 GB file of 64 KiB blocks keeps about 800 root keys; the Bloom filter keeps one row per
//! written chunk (about 110,000 rows each). `tests/memory.rs` measures the peak heap: under
//! 1 MiB writing 94 MB.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod block;
mod bloom;
mod cell;
mod compress;
mod error;
mod index;
mod writer;

/// HBase's protobuf messages of the HFile (`HFile.proto`, `HBase.proto`), generated by
/// `proto/regen.sh`.
#[allow(missing_docs, dead_code, clippy::all, clippy::pedantic)]
mod proto {
    include!("proto/hbase.pb.rs");
}

pub use block::{CHECKSUM_TYPE_CRC32C, HEADER_SIZE};
pub use cell::{Cell, CellType, LATEST_TIMESTAMP, MAX_FAMILY_LENGTH, MAX_ROW_LENGTH};
pub use compress::Compression;
pub use error::Error;
pub use writer::{
    BloomType, FileSummary, HFileWriter, WriterOptions, COMPARATOR_CLASS_NAME, TRAILER_SIZE,
};
