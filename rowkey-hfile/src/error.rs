//! The writer's errors.

use std::fmt::Write as _;

/// What went wrong writing an HFile. Every variant names what is wrong; cell errors carry the
/// cell's index (0-based, in append order) and its row as escaped bytes (HBase's
/// `Bytes.toStringBinary` style: printable ASCII as is, other bytes as `\xHH`, long rows cut).
///
/// ```
/// use rowkey_hfile::{Cell, Error, HFileWriter, WriterOptions};
///
/// let mut w = HFileWriter::new(Vec::new(), WriterOptions::default()).unwrap();
/// w.append(&Cell::put(b"b", b"f", b"q", 1, b"v")).unwrap();
/// let err = w.append(&Cell::put(b"a", b"f", b"q", 1, b"v")).unwrap_err();
/// assert!(matches!(err, Error::OutOfOrder { index: 1, .. }));
/// assert!(err.to_string().contains("row a"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A cell sorts before the cell appended before it (HBase's order: row, family, qualifier
    /// ascending as unsigned bytes, then timestamp descending, then type code descending).
    #[error(
        "cell {index} (row {row}) sorts before the previous cell (row {previous_row}): cells \
         must arrive in HBase's order (row, family, qualifier ascending; timestamp and type \
         descending)"
    )]
    OutOfOrder {
        /// The cell's index (0-based, in append order).
        index: u64,
        /// The cell's row, escaped.
        row: String,
        /// The previous cell's row, escaped.
        previous_row: String,
    },
    /// A cell has the same row, family, qualifier, timestamp and type as the previous cell:
    /// HBase would keep only one of them.
    #[error(
        "cell {index} (row {row}) duplicates the previous cell (same row, family, qualifier, \
         timestamp and type)"
    )]
    Duplicate {
        /// The cell's index (0-based, in append order).
        index: u64,
        /// The cell's row, escaped.
        row: String,
    },
    /// A cell HBase cannot store: an empty or too long row (HBase's limit is 32,767 bytes), an
    /// empty or too long family (127 bytes), a negative timestamp, a family other than the
    /// file's, a value or key too large for the format.
    #[error("cell {index} (row {row}): {problem}")]
    InvalidCell {
        /// The cell's index (0-based, in append order).
        index: u64,
        /// The cell's row, escaped.
        row: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The [`WriterOptions`](crate::WriterOptions) cannot make a valid file.
    #[error("invalid writer options: {0}")]
    InvalidOptions(String),
    /// A codec failed.
    #[error("{codec} compression failed: {message}")]
    Compression {
        /// The codec (HBase's name for it).
        codec: &'static str,
        /// The codec's message.
        message: String,
    },
    /// A block (or the file) outgrew a size field of the format.
    #[error("{0}")]
    TooLarge(String),
    /// Writing to the output failed.
    #[error("writing the HFile failed: {0}")]
    Io(#[from] std::io::Error),
    /// An earlier error left the file incomplete: the writer takes no more cells.
    #[error("the writer failed earlier and takes no more cells: {0}")]
    Failed(String),
}

/// A row (or any bytes) as HBase's `Bytes.toStringBinary` shows it, cut after 64 bytes.
pub(crate) fn escape(bytes: &[u8]) -> String {
    const SHOWN: usize = 64;
    let mut s = String::with_capacity(bytes.len().min(SHOWN) + 8);
    for &b in bytes.iter().take(SHOWN) {
        if (b' '..=b'~').contains(&b) && b != b'\\' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\x{b:02X}");
        }
    }
    if bytes.len() > SHOWN {
        let _ = write!(s, "… ({} bytes)", bytes.len());
    }
    if bytes.is_empty() {
        s.push_str("<empty>");
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_like_to_string_binary() {
        assert_eq!(super::escape(b"ab\x00\xff\\"), "ab\\x00\\xFF\\x5C");
        assert_eq!(super::escape(b""), "<empty>");
        assert!(super::escape(&[b'a'; 100]).ends_with("… (100 bytes)"));
    }
}
