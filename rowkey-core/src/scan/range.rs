//! [`ScanRange`] (one `[start, stop)` byte range) and [`ScanRanges`] (the sorted, disjoint
//! ranges of one logical scan).

use core::fmt;
use core::ops::Bound;

use crate::bound::successor_in_place;
use crate::hbase::to_string_binary;

/// One `[start, stop)` byte range. Start and stop share one allocation.
///
/// ```
/// use rowkey::ScanRange;
///
/// let r = ScanRange::new(b"a", Some(b"c"));
/// assert_eq!((r.start(), r.stop()), (&b"a"[..], Some(&b"c"[..])));
/// assert!(r.contains(b"b\xFF") && !r.contains(b"c"));
/// assert!(!r.is_empty() && ScanRange::new(b"c", Some(b"a")).is_empty());
///
/// // every key starting with 0xFF: no stop row (the end of the table)
/// let tail = ScanRange::prefix(b"\xFF");
/// assert_eq!(tail.stop(), None);
/// // HBase's convention: an empty stop row is the end of the table
/// assert_eq!(tail.to_start_stop(), (b"\xFF".to_vec(), Vec::new()));
/// let (lo, hi) = r.to_bounds();
/// assert_eq!(lo, std::ops::Bound::Included(b"a".to_vec()));
/// assert_eq!(hi, std::ops::Bound::Excluded(b"c".to_vec()));
/// ```
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
    #[inline]
    pub(crate) fn from_parts(buf: Vec<u8>, start_len: usize, bounded: bool) -> Self {
        Self {
            buf,
            start_len,
            bounded,
        }
    }

    /// The first row (inclusive).
    #[inline]
    pub fn start(&self) -> &[u8] {
        self.buf.get(..self.start_len).unwrap_or_default()
    }

    /// The stop row (exclusive); `None` = end of table.
    #[inline]
    pub fn stop(&self) -> Option<&[u8]> {
        self.bounded
            .then(|| self.buf.get(self.start_len..).unwrap_or_default())
    }

    /// Whether `key` lies in `[start, stop)`.
    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start() && self.stop().is_none_or(|s| key < s)
    }

    /// Whether no key can lie in the range (`start >= stop`).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.stop().is_some_and(|s| s <= self.start())
    }

    /// As borrowed `(start, stop)` bounds, ready for the `range` of ordered stores and maps:
    /// redb's `Table::range::<&[u8]>` (a `&[u8]`-keyed table) and `BTreeMap::range::<[u8], _>`
    /// (`Vec<u8>` keys) take them as they are.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use rowkey::ScanRange;
    ///
    /// let map: BTreeMap<Vec<u8>, u32> =
    ///     [(b"host1\x00a".to_vec(), 1), (b"host12\x00b".to_vec(), 2)].into_iter().collect();
    /// let r = ScanRange::prefix(b"host1\x00");
    /// let hits: Vec<u32> = map.range::<[u8], _>(r.bounds()).map(|(_, v)| *v).collect();
    /// assert_eq!(hits, [1]);
    /// ```
    pub fn bounds(&self) -> (Bound<&[u8]>, Bound<&[u8]>) {
        (
            Bound::Included(self.start()),
            self.stop().map_or(Bound::Unbounded, Bound::Excluded),
        )
    }

    /// As owned `(start, stop)` bounds, e.g. for `BTreeMap::<Vec<u8>, _>::range` (use
    /// [`bounds`](Self::bounds) to borrow instead; redb's `range` needs the borrowed form).
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
            Some(s) => to_string_binary(s),
            None => "<end>".to_owned(),
        };
        write!(f, "[{}, {})", to_string_binary(self.start()), stop)
    }
}

/// The ranges of one logical scan, sorted by start row and non-overlapping (one per salt bucket
/// when the scan fans out).
///
/// ```
/// use rowkey::{RowKey, ScanRange, ScanRanges};
///
/// #[derive(RowKey)]
/// struct Event {
///     #[salt(buckets = 4)]
///     host: u32,
///     seq: u64,
/// }
///
/// // a fixed salted field: one range; nothing fixed: one range per bucket
/// let one = Event::scan().host(7).ranges();
/// assert_eq!(one.len(), 1);
/// let all = Event::scan().ranges();
/// assert_eq!(all.len(), 4);
/// assert_eq!(all.salt_end(), 1); // merge results after the 1-byte salt
/// let key = Event { host: 7, seq: 1 }.to_row_key()?;
/// assert!(one.contains(&key) && all.contains(&key));
/// for r in all.iter() {
///     assert_eq!(r.start().len(), 1); // each bucket's salt byte
/// }
/// assert_eq!(all.as_slice()[0].start(), [0]);
///
/// // ranges of your own: sorted, empty ones dropped, overlapping ones joined
/// let mine = ScanRanges::new(vec![
///     ScanRange::new(b"m", Some(b"n")),
///     ScanRange::new(b"a", Some(b"b")),
///     ScanRange::new(b"z", Some(b"z")),
///     ScanRange::new(b"m\x05", Some(b"o")),
///     ScanRange::new(b"n\x07", Some(b"n\x08")),
/// ]);
/// assert_eq!(mine.len(), 2);
/// assert_eq!(mine.as_slice()[1], ScanRange::new(b"m", Some(b"o")));
/// // ranges that only touch stay apart (each may be one salt bucket)
/// assert_eq!(ScanRanges::new(vec![ScanRange::prefix(b"\x00"), ScanRange::prefix(b"\x01")]).len(), 2);
/// assert_eq!(mine.iter().next().unwrap().start(), b"a");
/// assert!(ScanRanges::one(ScanRange::new(b"z", Some(b"a"))).is_empty());
/// assert_eq!(mine.with_salt_end(1).salt_end(), 1);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Default)]
pub struct ScanRanges {
    ranges: Ranges,
    /// Bytes before the logical key in every range (constant prefix and salt).
    salt_end: usize,
}

/// One range inline (the common fixed-prefix case costs no extra allocation), or many.
#[derive(Clone, PartialEq, Eq, Default)]
enum Ranges {
    #[default]
    None,
    One(ScanRange),
    Many(Vec<ScanRange>),
}

impl ScanRanges {
    /// From ranges: sorted here, empty ones dropped, and overlapping ones joined (a key in two
    /// ranges would be read twice). Ranges that only touch stay apart: each may be one salt
    /// bucket, which a merged read needs as a stream of its own.
    pub fn new(mut ranges: Vec<ScanRange>) -> Self {
        ranges.retain(|r| !r.is_empty());
        if !ranges.is_sorted_by(|a, b| a.start() <= b.start()) {
            ranges.sort_by(|a, b| a.start().cmp(b.start()));
        }
        let overlaps = |a: &ScanRange, b: &ScanRange| a.stop().is_none_or(|s| s > b.start());
        if ranges
            .iter()
            .zip(ranges.iter().skip(1))
            .any(|(a, b)| overlaps(a, b))
        {
            let mut joined: Vec<ScanRange> = Vec::with_capacity(ranges.len());
            for r in ranges {
                match joined.last_mut() {
                    Some(prev) if overlaps(prev, &r) => {
                        let stop = match (prev.stop(), r.stop()) {
                            (Some(a), Some(b)) => Some(a.max(b).to_vec()),
                            _ => None,
                        };
                        *prev = ScanRange::new(prev.start(), stop.as_deref());
                    }
                    _ => joined.push(r),
                }
            }
            ranges = joined;
        }
        Self {
            ranges: Ranges::Many(ranges),
            salt_end: 0,
        }
    }

    /// A single range (none if it is empty).
    #[inline]
    pub fn one(range: ScanRange) -> Self {
        Self {
            ranges: if range.is_empty() {
                Ranges::None
            } else {
                Ranges::One(range)
            },
            salt_end: 0,
        }
    }

    /// How many bytes of every key come before its logical part: the key's constant prefix
    /// (a `#[rowkey(prefix = ..)]`, a tagged variant's tag) and its salt. Merging the results of
    /// the ranges compares keys after these bytes; ranges a typed scan built know it, others
    /// say 0.
    pub fn salt_end(&self) -> usize {
        self.salt_end
    }

    /// The same ranges, with [`salt_end`](Self::salt_end) set.
    #[inline]
    #[must_use]
    pub fn with_salt_end(mut self, salt_end: usize) -> Self {
        self.salt_end = salt_end;
        self
    }

    /// One range known to be non-empty (crate-internal builders).
    #[inline]
    pub(crate) fn one_nonempty(range: ScanRange) -> Self {
        Self {
            ranges: Ranges::One(range),
            salt_end: 0,
        }
    }

    /// Ranges known to be non-empty, sorted and disjoint (crate-internal builders).
    #[inline]
    pub(crate) fn sorted_nonempty(ranges: Vec<ScanRange>) -> Self {
        Self {
            ranges: Ranges::Many(ranges),
            salt_end: 0,
        }
    }

    /// The ranges, in key order.
    pub fn iter(&self) -> core::slice::Iter<'_, ScanRange> {
        self.as_slice().iter()
    }

    /// Number of ranges.
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Whether there are none (the scan can match nothing).
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    /// Whether any range contains `key`.
    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        self.iter().any(|r| r.contains(key))
    }

    /// The ranges as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[ScanRange] {
        match &self.ranges {
            Ranges::None => &[],
            Ranges::One(r) => core::slice::from_ref(r),
            Ranges::Many(v) => v,
        }
    }
}

impl fmt::Debug for ScanRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The owning iterator of [`ScanRanges`].
#[derive(Debug)]
pub struct IntoIter(IntoIterInner);

#[derive(Debug)]
enum IntoIterInner {
    One(core::option::IntoIter<ScanRange>),
    Many(std::vec::IntoIter<ScanRange>),
}

impl Iterator for IntoIter {
    type Item = ScanRange;
    fn next(&mut self) -> Option<ScanRange> {
        match &mut self.0 {
            IntoIterInner::One(i) => i.next(),
            IntoIterInner::Many(i) => i.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IntoIterInner::One(i) => i.size_hint(),
            IntoIterInner::Many(i) => i.size_hint(),
        }
    }
}

impl IntoIterator for ScanRanges {
    type Item = ScanRange;
    type IntoIter = IntoIter;
    fn into_iter(self) -> IntoIter {
        IntoIter(match self.ranges {
            Ranges::None => IntoIterInner::One(None.into_iter()),
            Ranges::One(r) => IntoIterInner::One(Some(r).into_iter()),
            Ranges::Many(v) => IntoIterInner::Many(v.into_iter()),
        })
    }
}

impl<'a> IntoIterator for &'a ScanRanges {
    type Item = &'a ScanRange;
    type IntoIter = core::slice::Iter<'a, ScanRange>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
