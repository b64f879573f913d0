//! Scan ranges: `[start, stop)` byte ranges in the form every HBase/Bigtable client takes.
//!
//! Stop rows follow HBase's rule for a prefix: strip trailing `0xFF` bytes and increment the
//! last byte; a prefix of only `0xFF` bytes has no upper bound (`stop() == None`, end of table).
//!
//! ```
//! use rowkey::scan::{prefix_successor, ScanRange};
//!
//! assert_eq!(prefix_successor(b"host1"), Some(b"host2".to_vec()));
//! assert_eq!(prefix_successor(b"a\xFF\xFF"), Some(b"b".to_vec()));
//! assert_eq!(prefix_successor(b"\xFF\xFF"), None);
//!
//! let r = ScanRange::prefix(b"host1\x00");
//! assert!(r.contains(b"host1\x00\x07"));
//! assert!(!r.contains(b"host12\x00"));
//! assert_eq!(r.stop(), Some(&b"host1\x01"[..]));
//! ```

pub(crate) mod builder;
mod range;
pub(crate) mod tighten;

pub use builder::{FiniteDomain, Scan, TooManyRanges, MAX_ALTERNATIVES};
pub use range::{IntoIter, ScanRange, ScanRanges};

pub use crate::bound::prefix_successor;

#[cfg(test)]
mod tests;
