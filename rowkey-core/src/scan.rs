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

use core::fmt;
use core::ops::Bound;

/// The smallest byte string greater than every string that starts with `prefix` (HBase's stop
/// row for a prefix scan), or `None` when there is none (`prefix` is empty or all `0xFF`).
pub fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let keep = prefix.iter().rposition(|&b| b != 0xFF)?;
    let mut v = prefix[..=keep].to_vec();
    v[keep] += 1;
    Some(v)
}

/// Append the successor of `buf[from..]` in place (see [`prefix_successor`]): truncates trailing
/// `0xFF` bytes and increments the last byte. Returns `false` (leaving `buf[from..]` cut to
/// nothing) when there is no successor.
pub(crate) fn successor_in_place(buf: &mut Vec<u8>, from: usize) -> bool {
    while buf.len() > from {
        let last = buf.len() - 1;
        if buf[last] == 0xFF {
            buf.truncate(last);
        } else {
            buf[last] += 1;
            return true;
        }
    }
    false
}

/// One `[start, stop)` byte range. Start and stop share one allocation.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ScanRange {
    buf: Vec<u8>,
    start_len: usize,
    bounded: bool,
}

impl ScanRange {
    /// The range `[start, stop)`; `stop = None` is the end of the table.
    pub fn new(start: &[u8], stop: Option<&[u8]>) -> Self {
        let mut buf = Vec::with_capacity(start.len() + stop.map_or(0, <[u8]>::len));
        buf.extend_from_slice(start);
        if let Some(s) = stop {
            buf.extend_from_slice(s);
        }
        Self {
            buf,
            start_len: start.len(),
            bounded: stop.is_some(),
        }
    }

    /// Every key starting with `prefix`.
    pub fn prefix(prefix: &[u8]) -> Self {
        let mut buf = Vec::with_capacity(prefix.len() * 2);
        buf.extend_from_slice(prefix);
        buf.extend_from_slice(prefix);
        let bounded = successor_in_place(&mut buf, prefix.len());
        Self {
            buf,
            start_len: prefix.len(),
            bounded,
        }
    }

    /// Build from a buffer holding `start` then `stop` (crate-internal builders).
    pub(crate) fn from_parts(buf: Vec<u8>, start_len: usize, bounded: bool) -> Self {
        Self {
            buf,
            start_len,
            bounded,
        }
    }

    /// The first row (inclusive).
    pub fn start(&self) -> &[u8] {
        &self.buf[..self.start_len]
    }

    /// The stop row (exclusive); `None` = end of table.
    pub fn stop(&self) -> Option<&[u8]> {
        self.bounded.then(|| &self.buf[self.start_len..])
    }

    /// Whether `key` lies in `[start, stop)`.
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start() && self.stop().is_none_or(|s| key < s)
    }

    /// Whether no key can lie in the range (`start >= stop`).
    pub fn is_empty(&self) -> bool {
        self.stop().is_some_and(|s| s <= self.start())
    }

    /// As `(start, stop)` bounds, e.g. for `BTreeMap::range` or redb's `range`.
    pub fn to_bounds(&self) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
        (
            Bound::Included(self.start().to_vec()),
            self.stop()
                .map_or(Bound::Unbounded, |s| Bound::Excluded(s.to_vec())),
        )
    }

    /// As an HBase-style `(start_row, stop_row)` pair, where an empty stop row means the end of
    /// the table (Thrift `TScan.startRow`/`stopRow`, Java `Scan.withStartRow`/`withStopRow`).
    pub fn to_start_stop(&self) -> (Vec<u8>, Vec<u8>) {
        (
            self.start().to_vec(),
            self.stop().map(<[u8]>::to_vec).unwrap_or_default(),
        )
    }
}

impl fmt::Debug for ScanRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stop = match self.stop() {
            Some(s) => crate::hbase::to_string_binary(s),
            None => "<end>".to_owned(),
        };
        write!(
            f,
            "[{}, {})",
            crate::hbase::to_string_binary(self.start()),
            stop
        )
    }
}

/// The ranges of one logical scan, sorted by start row and non-overlapping (one per salt bucket
/// when the scan fans out).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct ScanRanges {
    ranges: Vec<ScanRange>,
}

impl ScanRanges {
    /// From ranges (sorted and stripped of empty ones here).
    pub fn new(mut ranges: Vec<ScanRange>) -> Self {
        ranges.retain(|r| !r.is_empty());
        ranges.sort_by(|a, b| a.start().cmp(b.start()));
        Self { ranges }
    }

    /// The ranges, in key order.
    pub fn iter(&self) -> core::slice::Iter<'_, ScanRange> {
        self.ranges.iter()
    }

    /// Number of ranges.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether there are none (the scan can match nothing).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether any range contains `key`.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.ranges.iter().any(|r| r.contains(key))
    }

    /// The ranges as a slice.
    pub fn as_slice(&self) -> &[ScanRange] {
        &self.ranges
    }
}

impl fmt::Debug for ScanRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.ranges).finish()
    }
}

impl IntoIterator for ScanRanges {
    type Item = ScanRange;
    type IntoIter = std::vec::IntoIter<ScanRange>;
    fn into_iter(self) -> Self::IntoIter {
        self.ranges.into_iter()
    }
}

impl<'a> IntoIterator for &'a ScanRanges {
    type Item = &'a ScanRange;
    type IntoIter = core::slice::Iter<'a, ScanRange>;
    fn into_iter(self) -> Self::IntoIter {
        self.ranges.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successor() {
        assert_eq!(prefix_successor(b""), None);
        assert_eq!(prefix_successor(b"\x00"), Some(vec![1]));
        assert_eq!(prefix_successor(b"\x01\xFF"), Some(vec![2]));
        let r = ScanRange::prefix(b"\xFF");
        assert_eq!(r.stop(), None);
        assert!(r.contains(b"\xFF\xFF\xFF"));
        assert!(!r.contains(b"\xFE"));
    }
}
