//! The block codecs, framed as HBase 2.6's `Compression.Algorithm` codecs frame them.

use crate::Error;

/// A family's `COMPRESSION`: how each block's data (not its header, not its checksums) is
/// compressed, as HBase 2.6's `Compression.Algorithm` does it.
///
/// ```
/// use rowkey_hfile::Compression;
/// assert_eq!(Compression::Snappy.hbase_name(), "snappy");
/// assert_eq!(Compression::default(), Compression::None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// `NONE`.
    #[default]
    None,
    /// `SNAPPY`: Hadoop's `BlockCompressorStream` framing (big-endian lengths) around raw
    /// snappy, as both Hadoop's `SnappyCodec` and HBase's `xerial.SnappyCodec` write it.
    #[cfg(feature = "snappy")]
    Snappy,
    /// `GZ`: one gzip member per block (HBase's `ReusableStreamGzipCodec`, deflate level 6).
    #[cfg(feature = "gz")]
    Gz,
    /// `ZSTD`: Hadoop's `BlockCompressorStream` framing around zstd frames (level 3), as
    /// HBase's `zstd.ZstdCodec` (module `hbase-compression-zstd`) and Hadoop's
    /// `ZStandardCodec` write it. The region servers need one of those codecs.
    #[cfg(feature = "zstd")]
    Zstd,
}

impl Compression {
    /// HBase's name of the algorithm (`Compression.Algorithm.getName()`).
    ///
    /// ```
    /// assert_eq!(rowkey_hfile::Compression::None.hbase_name(), "none");
    /// ```
    #[must_use]
    pub fn hbase_name(self) -> &'static str {
        match self {
            Compression::None => "none",
            #[cfg(feature = "snappy")]
            Compression::Snappy => "snappy",
            #[cfg(feature = "gz")]
            Compression::Gz => "gz",
            #[cfg(feature = "zstd")]
            Compression::Zstd => "zstd",
        }
    }

    /// The algorithm's ordinal in HBase's `Compression.Algorithm` enum: what the trailer's
    /// `compression_codec` stores (LZO 0, GZ 1, NONE 2, SNAPPY 3, LZ4 4, BZIP2 5, ZSTD 6).
    ///
    /// ```
    /// assert_eq!(rowkey_hfile::Compression::None.trailer_code(), 2);
    /// ```
    #[must_use]
    pub fn trailer_code(self) -> u32 {
        match self {
            Compression::None => 2,
            #[cfg(feature = "snappy")]
            Compression::Snappy => 3,
            #[cfg(feature = "gz")]
            Compression::Gz => 1,
            #[cfg(feature = "zstd")]
            Compression::Zstd => 6,
        }
    }
}

/// Hadoop's `BlockCompressorStream` over a codec whose buffer is `buffer` bytes and whose
/// worst-case overhead is `overhead`: input of at most `buffer - overhead` bytes is written as
/// `[input length][compressed length][compressed]`; longer input as `[input length]` then
/// `[compressed length][compressed]` per piece of `buffer - overhead` bytes, then the `[0]` the
/// stream's `finish()` adds after a reset compressor. A compressed piece longer than `buffer` is
/// written in `buffer`-sized length-prefixed parts, as the stream's `compress()` loop does.
#[cfg(any(feature = "snappy", feature = "zstd"))]
fn block_framed(
    input: &[u8],
    buffer: usize,
    overhead: usize,
    out: &mut Vec<u8>,
    mut codec: impl FnMut(&[u8], &mut Vec<u8>) -> Result<(), Error>,
) -> Result<(), Error> {
    let max_input = buffer - overhead;
    let mut piece_out = Vec::new();
    let mut emit = |piece: &[u8], out: &mut Vec<u8>| -> Result<(), Error> {
        piece_out.clear();
        codec(piece, &mut piece_out)?;
        for part in piece_out.chunks(buffer) {
            out.extend_from_slice(&len_i32(part.len())?.to_be_bytes());
            out.extend_from_slice(part);
        }
        Ok(())
    };
    out.extend_from_slice(&len_i32(input.len())?.to_be_bytes());
    if input.len() > max_input {
        for piece in input.chunks(max_input) {
            emit(piece, out)?;
        }
        out.extend_from_slice(&0i32.to_be_bytes());
    } else if !input.is_empty() {
        emit(input, out)?;
    }
    Ok(())
}

#[cfg(any(feature = "snappy", feature = "zstd"))]
fn len_i32(n: usize) -> Result<i32, Error> {
    i32::try_from(n).map_err(|_| Error::TooLarge(format!("{n} bytes do not fit a block")))
}

/// Compresses `input` with `compression`, appending to `out`.
pub(crate) fn compress(
    compression: Compression,
    input: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    match compression {
        Compression::None => {
            out.extend_from_slice(input);
            Ok(())
        }
        #[cfg(feature = "snappy")]
        Compression::Snappy => {
            // io.compression.codec.snappy.buffersize (256 KiB); overhead as
            // Snappy.maxCompressedLength(buffer) - buffer = buffer / 6 + 32
            const BUFFER: usize = 256 * 1024;
            let mut encoder = snap::raw::Encoder::new();
            block_framed(input, BUFFER, BUFFER / 6 + 32, out, |piece, dst| {
                dst.resize(snap::raw::max_compress_len(piece.len()), 0);
                let n = encoder
                    .compress(piece, dst)
                    .map_err(|e| Error::Compression {
                        codec: "snappy",
                        message: e.to_string(),
                    })?;
                dst.truncate(n);
                Ok(())
            })
        }
        #[cfg(feature = "gz")]
        Compression::Gz => {
            use std::io::Write as _;
            let mut gz =
                flate2::GzBuilder::new().write(std::mem::take(out), flate2::Compression::new(6));
            let done = gz.write_all(input).and_then(|()| gz.finish());
            *out = done.map_err(|e| Error::Compression {
                codec: "gz",
                message: e.to_string(),
            })?;
            Ok(())
        }
        #[cfg(feature = "zstd")]
        Compression::Zstd => {
            // hbase.io.compress.zstd.buffersize (256 KiB); overhead as
            // Zstd.compressBound(buffer) - buffer
            const BUFFER: usize = 256 * 1024;
            let overhead = zstd::zstd_safe::compress_bound(BUFFER) - BUFFER;
            let mut cx = zstd::bulk::Compressor::new(3).map_err(|e| Error::Compression {
                codec: "zstd",
                message: e.to_string(),
            })?;
            block_framed(input, BUFFER, overhead, out, |piece, dst| {
                *dst = cx.compress(piece).map_err(|e| Error::Compression {
                    codec: "zstd",
                    message: e.to_string(),
                })?;
                Ok(())
            })
        }
    }
}

#[cfg(all(test, feature = "snappy"))]
mod tests {
    use super::*;

    #[test]
    fn snappy_framing() {
        let mut out = Vec::new();
        compress(Compression::Snappy, b"hello hello hello", &mut out).unwrap();
        assert_eq!(&out[..4], &17i32.to_be_bytes());
        let clen = i32::from_be_bytes(out[4..8].try_into().unwrap()) as usize;
        assert_eq!(out.len(), 8 + clen);
        let plain = snap::raw::Decoder::new().decompress_vec(&out[8..]).unwrap();
        assert_eq!(plain, b"hello hello hello");
        out.clear();
        compress(Compression::Snappy, b"", &mut out).unwrap();
        assert_eq!(out, 0i32.to_be_bytes());
    }

    #[test]
    fn snappy_framing_of_large_input() {
        let input: Vec<u8> = (0..600_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut out = Vec::new();
        compress(Compression::Snappy, &input, &mut out).unwrap();
        let mut at = 4;
        let mut plain = Vec::new();
        assert_eq!(&out[..4], &(input.len() as i32).to_be_bytes());
        while plain.len() < input.len() {
            let n = i32::from_be_bytes(out[at..at + 4].try_into().unwrap()) as usize;
            plain.extend(
                snap::raw::Decoder::new()
                    .decompress_vec(&out[at + 4..at + 4 + n])
                    .unwrap(),
            );
            at += 4 + n;
        }
        assert_eq!(plain, input);
        assert_eq!(&out[at..], &[0, 0, 0, 0]);
    }
}
