//! Blocks as `HFileBlock.Writer` writes them: a 33-byte header, the (compressed) data, and a
//! CRC32C per `bytesPerChecksum` bytes of header + data.

use std::io::Write;

use crate::compress::{compress, Compression};
use crate::Error;

/// `HConstants.HFILEBLOCK_HEADER_SIZE`: magic (8), on-disk size without header (4),
/// uncompressed size without header (4), previous block's offset (8), checksum type (1),
/// bytes per checksum (4), on-disk data size with header (4).
///
/// ```
/// assert_eq!(rowkey_hfile::HEADER_SIZE, 33);
/// ```
pub const HEADER_SIZE: usize = 33;
/// `ChecksumType.CRC32C.getCode()`: the checksum type in every block header.
///
/// ```
/// assert_eq!(rowkey_hfile::CHECKSUM_TYPE_CRC32C, 2);
/// ```
pub const CHECKSUM_TYPE_CRC32C: u8 = 2;

/// The block types this writer writes (HBase's `BlockType`), with their magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockType {
    Data,
    LeafIndex,
    BloomChunk,
    IntermediateIndex,
    RootIndex,
    FileInfo,
    GeneralBloomMeta,
    DeleteFamilyBloomMeta,
}

impl BlockType {
    const COUNT: usize = 8;

    pub fn magic(self) -> &'static [u8; 8] {
        match self {
            BlockType::Data => b"DATABLK*",
            BlockType::LeafIndex => b"IDXLEAF2",
            BlockType::BloomChunk => b"BLMFBLK2",
            BlockType::IntermediateIndex => b"IDXINTE2",
            BlockType::RootIndex => b"IDXROOT2",
            BlockType::FileInfo => b"FILEINF2",
            BlockType::GeneralBloomMeta => b"BLMFMET2",
            BlockType::DeleteFamilyBloomMeta => b"DFBLMET2",
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// Counts the bytes written (`FSDataOutputStream.getPos()`).
pub(crate) struct Positioned<W> {
    pub inner: W,
    pub pos: u64,
}

impl<W: Write> Positioned<W> {
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.inner.write_all(bytes)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }
}

/// Where and how big a written block is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Written {
    pub offset: u64,
    pub on_disk_size_with_header: i32,
    pub uncompressed_size_without_header: i32,
}

impl Written {
    /// `getUncompressedSizeWithHeader()`.
    pub fn uncompressed_with_header(&self) -> u64 {
        self.uncompressed_size_without_header as u64 + HEADER_SIZE as u64
    }
}

/// Writes blocks: `HFileBlock.Writer` (`finishBlock`, `putHeader`, `writeHeaderAndData`).
pub(crate) struct BlockWriter {
    compression: Compression,
    bytes_per_checksum: u32,
    /// `prevOffsetByType`: the offset of the last block of each type, -1 before the first.
    prev_offset: [i64; BlockType::COUNT],
    on_disk: Vec<u8>,
    checksums: Vec<u8>,
}

impl BlockWriter {
    pub fn new(compression: Compression, bytes_per_checksum: u32) -> Self {
        BlockWriter {
            compression,
            bytes_per_checksum,
            prev_offset: [-1; BlockType::COUNT],
            on_disk: Vec::new(),
            checksums: Vec::new(),
        }
    }

    /// A buffer for a block's data: the header's room, then the data goes after it.
    pub fn start(buf: &mut Vec<u8>) {
        buf.clear();
        buf.resize(HEADER_SIZE, 0);
    }

    /// Writes the block whose data follows the header's room in `buf` (see [`Self::start`]).
    pub fn write<W: Write>(
        &mut self,
        out: &mut Positioned<W>,
        kind: BlockType,
        buf: &mut [u8],
    ) -> Result<Written, Error> {
        let offset = out.pos;
        let uncompressed = buf.len() - HEADER_SIZE;
        let too_large = || {
            Error::TooLarge(format!(
                "a {} block of {uncompressed} bytes is larger than the format's 2 GiB",
                String::from_utf8_lossy(kind.magic())
            ))
        };
        let uncompressed_i32 = i32::try_from(uncompressed).map_err(|_| too_large())?;
        let prev = self.prev_offset[kind.slot()];
        let bytes_per_checksum = self.bytes_per_checksum as usize;
        let header_and_data: &mut [u8] = if self.compression == Compression::None {
            buf
        } else {
            self.on_disk.clear();
            self.on_disk.resize(HEADER_SIZE, 0);
            compress(self.compression, &buf[HEADER_SIZE..], &mut self.on_disk)?;
            &mut self.on_disk
        };
        let data_with_header = header_and_data.len();
        let chunks = data_with_header.div_ceil(bytes_per_checksum);
        let on_disk_with_header =
            i32::try_from(data_with_header + 4 * chunks).map_err(|_| too_large())?;
        let header = &mut header_and_data[..HEADER_SIZE];
        header[0..8].copy_from_slice(kind.magic());
        header[8..12].copy_from_slice(&(on_disk_with_header - HEADER_SIZE as i32).to_be_bytes());
        header[12..16].copy_from_slice(&uncompressed_i32.to_be_bytes());
        header[16..24].copy_from_slice(&prev.to_be_bytes());
        header[24] = CHECKSUM_TYPE_CRC32C;
        header[25..29].copy_from_slice(&self.bytes_per_checksum.to_be_bytes());
        header[29..33].copy_from_slice(&(data_with_header as i32).to_be_bytes());
        self.checksums.clear();
        for chunk in header_and_data.chunks(bytes_per_checksum) {
            self.checksums
                .extend_from_slice(&crc32c::crc32c(chunk).to_be_bytes());
        }
        out.write_all(header_and_data)?;
        out.write_all(&self.checksums)?;
        self.prev_offset[kind.slot()] = offset as i64;
        Ok(Written {
            offset,
            on_disk_size_with_header: on_disk_with_header,
            uncompressed_size_without_header: uncompressed_i32,
        })
    }
}
