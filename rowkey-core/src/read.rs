//! Typed reads of a scan: given the rows of each range (one iterator or stream per
//! [`ScanRange`], from any store), yield `(T, value)` in the key's logical order — forward, or
//! **reverse** (the newest first on an ascending time index) — resuming after a given key, with
//! an optional row limit. The salt is skipped for you (from `T::LAYOUT`), keys are decoded and
//! validated, and nothing is copied: any key that is `AsRef<[u8]>` merges as it is.
//!
//! The steps, for a store of your own:
//!
//! 1. `let read = Read::<T>::new(ranges)` (then `.reverse()`, `.after(&last)?` or `.after_key(bytes)`,
//!    `.limit(n)` as needed, in any order);
//! 2. open one iterator per range of [`read.ranges()`](Read::ranges) — in **descending** key
//!    order when [`read.is_reverse()`](Read::is_reverse) (a store's reverse scan; with a
//!    `DoubleEndedIterator`, [`Directed`] does it);
//! 3. [`read.rows(iters)`](Read::rows) for `(key, value)` items, or
//!    [`read.try_rows(iters)`](Read::try_rows) for `Result<(key, value), E>` items (a store
//!    whose iteration can fail). With the `async` feature, `Read::stream` does the same for
//!    `futures::Stream`s.
//!
//! ```
//! use std::collections::BTreeMap;
//! use rowkey::read::{Directed, Read};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Event {
//!     #[salt(buckets = 4)]
//!     #[sep]
//!     host: String,
//!     seq: u32,
//! }
//!
//! let mut table = BTreeMap::new();
//! for seq in 0..10 {
//!     for host in ["a", "b", "c"] {
//!         let k = Event { host: host.into(), seq }.to_row_key()?;
//!         table.insert(k.to_vec(), seq * 10);
//!     }
//! }
//! // Every event, newest first within the logical order (host, seq) — reversed — 4 at a time.
//! let read = Read::<Event>::new(Event::scan().ranges()).reverse().limit(4);
//! let iters = read.ranges().iter().map(|r| {
//!     Directed::new(table.range::<[u8], _>(r.bounds()), read.is_reverse())
//! });
//! let page: Vec<(Event, u32)> = read.rows(iters).map(|row| row.map(|(k, v)| (k, *v))).collect::<Result<_, _>>()?;
//! assert_eq!(page[0], (Event { host: "c".into(), seq: 9 }, 90));
//! assert_eq!(page[3], (Event { host: "c".into(), seq: 6 }, 60));
//!
//! // The next page: resume after the last key (across every salt bucket).
//! let read = Read::<Event>::new(Event::scan().ranges()).reverse().after(&page[3].0)?.limit(4);
//! let iters = read.ranges().iter().map(|r| {
//!     Directed::new(table.range::<[u8], _>(r.bounds()), read.is_reverse())
//! });
//! let next: Vec<Event> = read.rows(iters).map(|row| row.map(|(k, _)| k)).collect::<Result<_, _>>()?;
//! assert_eq!(next[0], Event { host: "c".into(), seq: 5 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::convert::Infallible;
use core::fmt;
use core::marker::PhantomData;

use crate::merge;
use crate::scan::{ScanRange, ScanRanges};
use crate::{DecodeError, DecodeRowKeyOwned, RowKey};

/// An error of a typed read: a row whose key does not decode as `T` (the key is kept), or an
/// error of the store.
///
/// ```
/// use rowkey::read::{Read, ReadError, Rows};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Job {
///     #[salt(buckets = 2)]
///     id: u32,
/// }
///
/// let read = Read::<Job>::new(Job::scan().ranges());
/// assert_eq!(read.salt_width(), 1);
/// let key = |id| Job { id }.to_row_key().unwrap().to_vec();
/// // one source per range, each row a `Result` from the store
/// let bucket_of = |id| usize::from(key(id)[0]);
/// let mut sources = vec![Vec::new(), Vec::new()];
/// for id in [1, 2, 3] {
///     sources[bucket_of(id)].push(Ok((key(id), "v")));
/// }
/// sources[bucket_of(9)].push(Ok((vec![bucket_of(9) as u8, 0xFF], "bad key")));
/// sources[1 - bucket_of(9)].push(Err("connection reset"));
/// let rows: Rows<Job, _> = read.try_rows(sources.into_iter().map(Vec::into_iter));
/// let mut store_errors = 0;
/// let mut jobs = Vec::new();
/// for row in rows {
///     match row {
///         Ok((job, _value)) => jobs.push(job.id),
///         Err(ReadError::Store(e)) => { assert_eq!(e, "connection reset"); store_errors += 1 }
///         Err(ReadError::Decode { key, error }) => {
///             assert_eq!(key.len(), 2);
///             assert_eq!(error.field(), "id");
///         }
///     }
/// }
/// assert_eq!(store_errors, 1);
/// assert!(jobs.windows(2).all(|w| w[0] < w[1])); // logical order across the buckets
/// ```
#[derive(Debug)]
pub enum ReadError<E = Infallible> {
    /// A key in the scanned ranges is not a valid `T` key.
    Decode {
        /// The key as stored.
        key: Vec<u8>,
        /// Why it does not decode (field and offset).
        error: DecodeError,
    },
    /// The store failed.
    Store(E),
}

impl<E: fmt::Display> fmt::Display for ReadError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Decode { key, error } => write!(
                f,
                "key {} does not decode: {error}",
                crate::hbase::to_string_binary(key)
            ),
            ReadError::Store(e) => write!(f, "store error: {e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ReadError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Decode { error, .. } => Some(error),
            ReadError::Store(e) => Some(e),
        }
    }
}

/// The rows of a read of an infallible source fail only to decode.
impl From<ReadError<Infallible>> for DecodeError {
    fn from(e: ReadError<Infallible>) -> DecodeError {
        match e {
            ReadError::Decode { error, .. } => error,
            ReadError::Store(never) => match never {},
        }
    }
}

/// A typed read of `T` over some [`ScanRanges`]: see the [module docs](self).
#[derive(Debug, Clone)]
pub struct Read<T> {
    /// The ranges as given to [`Read::new`].
    scan: ScanRanges,
    /// `scan` cut after `after` in the read's direction (`scan` itself without `after`):
    /// recomputed whenever `after` or the direction changes, so that the builder's calls may
    /// come in any order.
    ranges: ScanRanges,
    after: Option<Vec<u8>>,
    skip: usize,
    reverse: bool,
    limit: Option<usize>,
    _t: PhantomData<fn() -> T>,
}

impl<T: RowKey> Read<T> {
    /// A forward read of every row in `ranges` (from `T::scan()…ranges()`).
    pub fn new(ranges: ScanRanges) -> Self {
        Self {
            skip: ranges.salt_end().max(T::LAYOUT.salt_end()),
            scan: ranges.clone(),
            ranges,
            after: None,
            reverse: false,
            limit: None,
            _t: PhantomData,
        }
    }

    /// Read in descending logical order (the newest first on an ascending time index). Each
    /// range must then be read in descending key order. Calling it twice is calling it once.
    #[must_use]
    pub fn reverse(mut self) -> Self {
        self.reverse = true;
        self.cut();
        self
    }

    /// Resume strictly after `key` in the read's order (a page's last key): every range is cut
    /// to what lies after it — before it for a [`reverse`](Self::reverse) read — in every salt
    /// bucket.
    ///
    /// The builder's calls may come in any order: the key is kept and the ranges are cut for
    /// the read's final direction, so `.after_key(k).reverse()` and `.reverse().after_key(k)` are the
    /// same read. Calling it again replaces the key (the last call wins).
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use rowkey::read::{Directed, Read};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Job {
    ///     #[salt(buckets = 4)]
    ///     id: u32,
    /// }
    ///
    /// let table: BTreeMap<Vec<u8>, ()> =
    ///     (0..10).map(|id| (Job { id }.to_row_key().unwrap().to_vec(), ())).collect();
    /// let page = |read: Read<Job>| -> Vec<u32> {
    ///     let iters = read.ranges().iter().map(|r| {
    ///         Directed::new(table.range::<[u8], _>(r.bounds()), read.is_reverse())
    ///     });
    ///     read.rows(iters).map(|row| row.unwrap().0.id).collect()
    /// };
    /// let five = Job { id: 5 }.to_row_key()?;
    /// let all = || Read::<Job>::new(Job::scan().ranges());
    /// assert_eq!(page(all().after_key(&five).reverse().limit(3)), [4, 3, 2]);
    /// assert_eq!(page(all().limit(3).reverse().after_key(&five)), [4, 3, 2]);
    /// assert_eq!(page(all().after_key(&five).limit(3)), [6, 7, 8]);
    /// // the last `after` wins
    /// let one = Job { id: 1 }.to_row_key()?;
    /// assert_eq!(page(all().after_key(&five).after_key(&one).limit(3)), [2, 3, 4]);
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[must_use]
    pub fn after_key(mut self, key: impl AsRef<[u8]>) -> Self {
        self.after = Some(key.as_ref().to_vec());
        self.cut();
        self
    }

    /// [`after_key`](Self::after_key) with the key value (typically the last row of the
    /// previous page): the same spelling as the store crates' reads.
    ///
    /// ```
    /// use rowkey::read::Read;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Job {
    ///     id: u32,
    /// }
    ///
    /// let read = Read::<Job>::new(Job::scan().ranges()).after(&Job { id: 7 })?;
    /// assert_eq!(read.resume_key(), Some(&[0, 0, 0, 7][..]));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The key does not encode.
    pub fn after(self, key: &T) -> Result<Self, crate::EncodeError> {
        let bytes = key.to_row_key()?;
        Ok(self.after_key(bytes))
    }

    /// Recompute [`ranges`](Self::ranges) from the scan's ranges, the resume key and the
    /// direction.
    fn cut(&mut self) {
        self.ranges = match &self.after {
            Some(key) => cut_after(self.scan.as_slice(), key, self.skip, self.reverse),
            None => self.scan.clone(),
        };
    }

    /// Order, merge and resume by the whole key, salt included (byte order) instead of the
    /// logical order after the salt: for sources that come back as **one** stream in byte
    /// order, such as a single request whose row set holds every range. With a salt, such a
    /// read goes bucket by bucket, and [`after`](Self::after) resumes after the key's bytes.
    ///
    /// ```
    /// use rowkey::read::Read;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Job {
    ///     #[salt(buckets = 4)]
    ///     id: u32,
    /// }
    ///
    /// let read = Read::<Job>::new(Job::scan().ranges());
    /// assert_eq!(read.salt_width(), 1);
    /// let read = read.byte_order();
    /// assert_eq!(read.salt_width(), 0);
    /// // resuming after a key of bucket 2 leaves the rest of bucket 2 and bucket 3
    /// let read = read.after_key(b"\x02\0\0\0\x09");
    /// assert_eq!(read.ranges().len(), 2);
    /// ```
    #[must_use]
    pub fn byte_order(mut self) -> Self {
        self.skip = 0;
        self.cut();
        self
    }

    /// The filter that keeps a merged row only when it lies strictly after the resume key in
    /// the read's order. The cut ranges already hold only such rows when each range's start
    /// carries its salt (every `T::scan()` range); the filter keeps `after` exact for ranges
    /// that do not (a hand-made range over several buckets), at one comparison per row.
    fn resume(&self) -> Resume {
        Resume {
            key: self
                .after
                .as_ref()
                .map(|a| a.get(self.skip..).unwrap_or_default().to_vec()),
            skip: self.skip,
            reverse: self.reverse,
        }
    }

    /// Yield at most `n` rows (the last call wins).
    #[must_use]
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// The ranges to open, one source each, in this order: the scan's ranges cut after the
    /// resume key, if any, in the read's direction.
    pub fn ranges(&self) -> &ScanRanges {
        &self.ranges
    }

    /// The ranges to open in **ordered groups**: the ranges of one salt bucket (all of them
    /// for a key without a salt, or for a [`byte_order`](Self::byte_order) read), in key order.
    /// Read one after the other — in reverse order, each in descending key order, for a
    /// [`reverse`](Self::reverse) read — a group's rows come in the read's order, so a store
    /// can answer a whole group with **one** multi-range request or scanner (HBase's
    /// `MultiRowRangeFilter`, a Bigtable `RowSet`) and give [`try_rows`](Self::try_rows) one
    /// source per group instead of one per range: the number of sources is the number of
    /// buckets, whatever the length of an IN-list.
    ///
    /// ```
    /// use rowkey::read::Read;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Reading {
    ///     #[salt(buckets = 4)]
    ///     sensor: u32,
    ///     at: u64,
    /// }
    ///
    /// // 2 sensors × 3 time windows: 6 ranges, each sensor in its own salt bucket
    /// let ranges = Reading::scan().sensor_in([7, 8])?.at_in([1, 5, 9])?.ranges();
    /// let read = Read::<Reading>::new(ranges);
    /// assert_eq!(read.ranges().len(), 6);
    /// let groups = read.groups();
    /// let mut buckets: Vec<u8> = read.ranges().iter().map(|r| r.start()[0]).collect();
    /// buckets.dedup();
    /// assert_eq!(groups.len(), buckets.len()); // one group per salt bucket the sensors use
    /// assert!(groups.iter().all(|g| g.iter().all(|r| r.start()[0] == g[0].start()[0])));
    /// // a byte-order read is one group
    /// assert_eq!(read.byte_order().groups().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn groups(&self) -> Vec<&[ScanRange]> {
        let skip = self.skip;
        self.ranges
            .as_slice()
            .chunk_by(|a, b| a.start().get(..skip) == b.start().get(..skip))
            .collect()
    }

    /// The key the read resumes after, if any (see [`after`](Self::after)).
    ///
    /// ```
    /// use rowkey::read::Read;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Job {
    ///     #[salt(buckets = 4)]
    ///     id: u32,
    /// }
    ///
    /// let read = Read::<Job>::new(Job::scan().ranges()).limit(10).after_key(b"\x01\0\0\0\x07");
    /// assert_eq!(read.resume_key(), Some(&b"\x01\0\0\0\x07"[..]));
    /// assert_eq!(read.row_limit(), Some(10));
    /// assert!(!read.is_reverse());
    /// ```
    pub fn resume_key(&self) -> Option<&[u8]> {
        self.after.as_deref()
    }

    /// The row limit, if any (see [`limit`](Self::limit)).
    pub fn row_limit(&self) -> Option<usize> {
        self.limit
    }

    /// Whether each range must be read in descending key order.
    pub fn is_reverse(&self) -> bool {
        self.reverse
    }

    /// Salt bytes skipped when merging.
    pub fn salt_width(&self) -> usize {
        self.skip
    }

    /// Merge the rows of each range (`(key, value)` items, each source sorted in the read's
    /// direction) into typed rows in logical order.
    pub fn rows<I, K, V>(&self, sources: impl IntoIterator<Item = I>) -> Rows<T, Okay<I>>
    where
        I: Iterator<Item = (K, V)>,
        K: AsRef<[u8]>,
        T: DecodeRowKeyOwned,
    {
        self.try_rows(sources.into_iter().map(Okay))
    }

    /// [`rows`](Self::rows) for sources whose items can fail (`Result<(key, value), E>`): a
    /// store error is yielded as [`ReadError::Store`] as soon as it is seen.
    pub fn try_rows<I, K, V, E>(&self, sources: impl IntoIterator<Item = I>) -> Rows<T, I>
    where
        I: Iterator<Item = Result<(K, V), E>>,
        K: AsRef<[u8]>,
        T: DecodeRowKeyOwned,
    {
        let inner = if self.reverse {
            Either::Rev(merge::merge_rev(sources, self.skip))
        } else {
            Either::Fwd(merge::merge(sources, self.skip))
        };
        Rows {
            inner,
            left: self.limit.unwrap_or(usize::MAX),
            resume: self.resume(),
            _t: PhantomData,
        }
    }
}

/// See [`Read::resume`].
#[derive(Debug, Clone)]
struct Resume {
    /// The resume key's bytes after `skip`.
    key: Option<Vec<u8>>,
    skip: usize,
    reverse: bool,
}

impl Resume {
    #[inline]
    fn keeps<K: AsRef<[u8]>, V, E>(&self, row: &Result<(K, V), E>) -> bool {
        match (&self.key, row) {
            (Some(after), Ok((k, _))) => {
                let k = k.as_ref().get(self.skip..).unwrap_or_default();
                if self.reverse {
                    k < after.as_slice()
                } else {
                    k > after.as_slice()
                }
            }
            _ => true,
        }
    }
}

/// The parts of `ranges` that lie strictly after `key` in logical order (comparing the bytes
/// after `skip` salt bytes; each range keeps its own salt), or before it when `reverse`: how a
/// paged read resumes in every salt bucket at once. With `skip = 0` it is plain byte order.
pub(crate) fn cut_after(
    ranges: &[ScanRange],
    key: &[u8],
    skip: usize,
    reverse: bool,
) -> ScanRanges {
    let logical = key.get(skip..).unwrap_or_default();
    let cut = ranges
        .iter()
        .filter_map(|r| {
            let salt = r.start().get(..skip).unwrap_or_default();
            let mut at = Vec::with_capacity(salt.len() + logical.len() + 1);
            at.extend_from_slice(salt);
            at.extend_from_slice(logical);
            if reverse {
                // keys below `at`
                let stop = match r.stop() {
                    Some(s) if s <= at.as_slice() => s,
                    _ => at.as_slice(),
                };
                (r.start() < stop).then(|| ScanRange::new(r.start(), Some(stop)))
            } else {
                // keys above `at`: the first is `at ++ 0x00`
                at.push(0);
                let start = if r.start() >= at.as_slice() {
                    r.start()
                } else {
                    at.as_slice()
                };
                r.stop()
                    .is_none_or(|s| start < s)
                    .then(|| ScanRange::new(start, r.stop()))
            }
        })
        .collect();
    ScanRanges::new(cut)
}

/// The parts of `ranges` (sorted and disjoint) that lie strictly after `key` in byte order, or
/// strictly before it when `reverse`: where a scan of those ranges that returned `key` last
/// resumes, with no row twice and none skipped.
///
/// ```
/// use rowkey::read::after_in_byte_order;
/// use rowkey::ScanRange;
///
/// let ranges = [ScanRange::new(b"a", Some(b"c")), ScanRange::new(b"e", Some(b"g"))];
/// let rest = after_in_byte_order(&ranges, b"b", false);
/// assert_eq!(rest.as_slice(), [ScanRange::new(b"b\0", Some(b"c")), ScanRange::new(b"e", Some(b"g"))]);
/// let rest = after_in_byte_order(&ranges, b"f", true);
/// assert_eq!(rest.as_slice(), [ScanRange::new(b"a", Some(b"c")), ScanRange::new(b"e", Some(b"f"))]);
/// ```
pub fn after_in_byte_order(ranges: &[ScanRange], key: &[u8], reverse: bool) -> ScanRanges {
    cut_after(ranges, key, 0, reverse)
}

/// `ranges` in consecutive batches whose row keys (starts and stops) add up to at most
/// `max_bytes` — at least one range each — for stores that refuse or choke on large requests
/// (a Bigtable `ReadRows` whose `RowSet` holds more than about 512 KiB of keys; a Thrift
/// frame). Read one after the other, the batches of a [`Read::groups`] group keep its order.
///
/// ```
/// use rowkey::read::batches;
/// use rowkey::ScanRange;
///
/// let ranges: Vec<ScanRange> = (0u8..10).map(|i| ScanRange::prefix(&[i, 0, 0, 0])).collect();
/// // each range is 8 bytes of keys (a 4-byte start, a 4-byte stop)
/// let b = batches(&ranges, 20);
/// assert_eq!(b.iter().map(|b| b.len()).collect::<Vec<_>>(), [2, 2, 2, 2, 2]);
/// assert_eq!(batches(&ranges, 0).len(), 10, "at least one range a batch");
/// assert_eq!(batches(&ranges, usize::MAX).len(), 1);
/// ```
pub fn batches(ranges: &[ScanRange], max_bytes: usize) -> Vec<&[ScanRange]> {
    let mut out = Vec::new();
    let mut rest = ranges;
    while !rest.is_empty() {
        let mut bytes = 0usize;
        let n = rest
            .iter()
            .take_while(|r| {
                bytes = bytes.saturating_add(r.start().len() + r.stop().map_or(0, <[u8]>::len));
                bytes <= max_bytes
            })
            .count()
            .max(1);
        let Some((batch, tail)) = rest.split_at_checked(n) else {
            out.push(rest);
            break;
        };
        out.push(batch);
        rest = tail;
    }
    out
}

/// Decode one merged row, keeping its key as stored.
#[inline]
fn keyed<T, K, V, E>(row: Result<(K, V), E>) -> Result<(T, K, V), ReadError<E>>
where
    K: AsRef<[u8]>,
    T: RowKey + DecodeRowKeyOwned,
{
    let (k, v) = row.map_err(ReadError::Store)?;
    match T::from_row_key(k.as_ref()) {
        Ok(t) => Ok((t, k, v)),
        Err(error) => Err(ReadError::Decode {
            key: k.as_ref().to_vec(),
            error,
        }),
    }
}

/// Decode one merged row.
#[inline]
fn typed<T, K, V, E>(row: Result<(K, V), E>) -> Result<(T, V), ReadError<E>>
where
    K: AsRef<[u8]>,
    T: RowKey + DecodeRowKeyOwned,
{
    keyed(row).map(|(t, _, v)| (t, v))
}

/// Wraps an infallible source for [`Read::rows`].
#[doc(hidden)]
#[derive(Debug)]
pub struct Okay<I>(I);

impl<I: Iterator<Item = (K, V)>, K, V> Iterator for Okay<I> {
    type Item = Result<(K, V), Infallible>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(Ok)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

enum Either<I: Iterator> {
    Fwd(merge::Merge<I>),
    Rev(merge::Merge<I, true>),
}

/// The typed rows of a [`Read`], in logical order.
pub struct Rows<T, I: Iterator> {
    inner: Either<I>,
    left: usize,
    resume: Resume,
    _t: PhantomData<fn() -> T>,
}

impl<T, I, K, V, E> Iterator for Rows<T, I>
where
    I: Iterator<Item = Result<(K, V), E>>,
    K: AsRef<[u8]>,
    T: RowKey + DecodeRowKeyOwned,
{
    type Item = Result<(T, V), ReadError<E>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.left == 0 {
                return None;
            }
            let row = match &mut self.inner {
                Either::Fwd(m) => m.next(),
                Either::Rev(m) => m.next(),
            }?;
            if self.resume.keeps(&row) {
                self.left -= 1;
                return Some(typed(row));
            }
        }
    }
}

/// An iterator read forward, or backward when `reverse` (for [`Read`] sources from a
/// `DoubleEndedIterator`, such as redb's or `BTreeMap`'s `range`).
#[derive(Debug)]
pub struct Directed<I> {
    iter: I,
    reverse: bool,
}

impl<I: DoubleEndedIterator> Directed<I> {
    /// Read `iter` backward when `reverse`.
    pub fn new(iter: I, reverse: bool) -> Self {
        Self { iter, reverse }
    }
}

impl<I: DoubleEndedIterator> Iterator for Directed<I> {
    type Item = I::Item;
    #[inline]
    fn next(&mut self) -> Option<I::Item> {
        if self.reverse {
            self.iter.next_back()
        } else {
            self.iter.next()
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

#[cfg(feature = "async")]
mod stream {
    use core::pin::Pin;
    use core::task::{Context, Poll};

    use futures_core::Stream;

    use super::{keyed, Read, ReadError, Resume};
    use crate::merge::{self, MergeStreams};
    use crate::{DecodeRowKeyOwned, RowKey};

    impl<T: RowKey> Read<T> {
        /// [`try_rows`](Read::try_rows) for `futures::Stream`s (feature `async`): one stream per
        /// range of [`ranges`](Read::ranges), each in the read's direction, merged as they
        /// produce rows.
        pub fn stream<S, K, V, E>(&self, sources: impl IntoIterator<Item = S>) -> RowStream<T, S>
        where
            S: Stream<Item = Result<(K, V), E>> + Unpin,
            K: AsRef<[u8]>,
            T: DecodeRowKeyOwned,
        {
            RowStream {
                inner: self.stream_keyed(sources),
            }
        }

        /// [`stream`](Read::stream) that also yields each row's key as the source gave it:
        /// `(T, key, value)` items, for a client whose row type holds its key (feature `async`).
        ///
        /// ```
        /// # futures::executor::block_on(async {
        /// use futures::{stream, StreamExt};
        /// use rowkey::read::Read;
        /// use rowkey::RowKey;
        ///
        /// #[derive(RowKey, Debug, PartialEq)]
        /// struct Job {
        ///     #[salt(buckets = 2)]
        ///     id: u32,
        /// }
        ///
        /// let key = |id| Job { id }.to_row_key().unwrap().to_vec();
        /// let read = Read::<Job>::new(Job::scan().ranges()).limit(3);
        /// // one stream per bucket, as a client's per-range requests would return them
        /// let mut buckets = vec![Vec::new(), Vec::new()];
        /// for id in 0..10 {
        ///     buckets[usize::from(key(id)[0])].push(Ok::<_, std::io::Error>((key(id), format!("job {id}"))));
        /// }
        /// let rows: Vec<_> = read.stream_keyed(buckets.into_iter().map(stream::iter)).collect().await;
        /// let (job, stored, value) = rows[2].as_ref().unwrap();
        /// assert_eq!((job.id, stored.as_slice(), value.as_str()), (2, key(2).as_slice(), "job 2"));
        /// # });
        /// ```
        pub fn stream_keyed<S, K, V, E>(
            &self,
            sources: impl IntoIterator<Item = S>,
        ) -> KeyedRowStream<T, S>
        where
            S: Stream<Item = Result<(K, V), E>> + Unpin,
            K: AsRef<[u8]>,
            T: DecodeRowKeyOwned,
        {
            let inner = if self.reverse {
                StreamEither::Rev(merge::merge_streams_rev(sources, self.skip))
            } else {
                StreamEither::Fwd(merge::merge_streams(sources, self.skip))
            };
            KeyedRowStream {
                inner,
                left: self.limit.unwrap_or(usize::MAX),
                resume: self.resume(),
                _t: core::marker::PhantomData,
            }
        }
    }

    enum StreamEither<S: Stream> {
        Fwd(MergeStreams<S>),
        Rev(MergeStreams<S, true>),
    }

    #[cfg(feature = "async")] // (again: the badge of the re-export in `rowkey`)
    /// The typed rows of [`Read::stream_keyed`], with their keys, in logical order.
    pub struct KeyedRowStream<T, S: Stream> {
        inner: StreamEither<S>,
        left: usize,
        resume: Resume,
        _t: core::marker::PhantomData<fn() -> T>,
    }

    impl<T, S: Stream + Unpin> Unpin for KeyedRowStream<T, S> {}

    impl<T, S, K, V, E> Stream for KeyedRowStream<T, S>
    where
        S: Stream<Item = Result<(K, V), E>> + Unpin,
        K: AsRef<[u8]>,
        T: RowKey + DecodeRowKeyOwned,
    {
        type Item = Result<(T, K, V), ReadError<E>>;

        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            let this = self.get_mut();
            loop {
                if this.left == 0 {
                    return Poll::Ready(None);
                }
                let polled = match &mut this.inner {
                    StreamEither::Fwd(m) => Pin::new(m).poll_next(cx),
                    StreamEither::Rev(m) => Pin::new(m).poll_next(cx),
                };
                match polled {
                    Poll::Ready(Some(row)) => {
                        if this.resume.keeps(&row) {
                            this.left -= 1;
                            return Poll::Ready(Some(keyed(row)));
                        }
                    }
                    Poll::Ready(None) => return Poll::Ready(None),
                    Poll::Pending => return Poll::Pending,
                }
            }
        }
    }

    #[cfg(feature = "async")] // (again: the badge of the re-export in `rowkey`)
    /// The typed rows of [`Read::stream`], in logical order.
    pub struct RowStream<T, S: Stream> {
        inner: KeyedRowStream<T, S>,
    }

    impl<T, S: Stream + Unpin> Unpin for RowStream<T, S> {}

    impl<T, S, K, V, E> Stream for RowStream<T, S>
    where
        S: Stream<Item = Result<(K, V), E>> + Unpin,
        K: AsRef<[u8]>,
        T: RowKey + DecodeRowKeyOwned,
    {
        type Item = Result<(T, V), ReadError<E>>;

        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Pin::new(&mut self.get_mut().inner)
                .poll_next(cx)
                .map(|row| row.map(|r| r.map(|(t, _, v)| (t, v))))
        }
    }
}

#[cfg(feature = "async")]
pub use stream::{KeyedRowStream, RowStream};

/// A ready adapter for [redb](https://docs.rs/redb) tables keyed by `&[u8]` (feature `redb`):
/// [`rows`](redb::rows) for `(key, value)` rows, [`keys`](redb::keys) for the keys alone.
///
/// ```toml
/// [dependencies]
/// rowkey = { version = "0.1", features = ["redb"] }
/// ```
#[cfg(feature = "redb")]
pub mod redb {
    use ::redb::{AccessGuard, ReadableTable, StorageError, Value};

    use super::{Directed, Read, ReadError, Rows};
    use crate::{DecodeRowKeyOwned, RowKey};

    /// A redb key guard as `AsRef<[u8]>`, so that merging compares it in place (no copy).
    pub struct Key<'a>(pub AccessGuard<'a, &'static [u8]>);

    impl AsRef<[u8]> for Key<'_> {
        #[inline]
        fn as_ref(&self) -> &[u8] {
            self.0.value()
        }
    }

    /// A row as redb's `range` yields it.
    pub type RawRow<'a, V> =
        Result<(AccessGuard<'a, &'static [u8]>, AccessGuard<'a, V>), StorageError>;
    /// A row with its key wrapped for merging.
    pub type Row<'a, V> = Result<(Key<'a>, AccessGuard<'a, V>), StorageError>;

    /// One source per range of a [`Read`]: redb's range, read in the read's direction, each
    /// row's key wrapped as [`Key`] (inline: no call through a function pointer per row).
    pub struct Source<'a, V: Value + 'static> {
        range: Directed<::redb::Range<'a, &'static [u8], V>>,
    }

    impl<'a, V: Value + 'static> Iterator for Source<'a, V> {
        type Item = Row<'a, V>;

        #[inline]
        fn next(&mut self) -> Option<Row<'a, V>> {
            let row: RawRow<'a, V> = self.range.next()?;
            Some(row.map(|(k, v)| (Key(k), v)))
        }

        fn size_hint(&self) -> (usize, Option<usize>) {
            self.range.size_hint()
        }
    }

    /// The typed rows of `read` from `table`: `(T, value guard)` in logical order (call
    /// `.value()` on the guard). Opening a range can fail; reading one can too
    /// ([`ReadError::Store`]).
    ///
    /// ```
    /// use redb::{Database, ReadableDatabase, TableDefinition};
    /// use rowkey::read::{redb::rows, Read};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Log {
    ///     #[salt(buckets = 8)]
    ///     #[sep]
    ///     host: String,
    ///     ts: u64,
    /// }
    ///
    /// const T: TableDefinition<&[u8], u64> = TableDefinition::new("log");
    /// let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
    /// let tx = db.begin_write()?;
    /// {
    ///     let mut t = tx.open_table(T)?;
    ///     for ts in 0..100u64 {
    ///         for host in ["web1", "web12", "db1"] {
    ///             t.insert(&Log { host: host.into(), ts }.to_row_key()?[..], ts)?;
    ///         }
    ///     }
    /// }
    /// tx.commit()?;
    /// let t = db.begin_read()?.open_table(T)?;
    /// // The latest 3 events of web1 (one range: the salt is fixed by the host).
    /// let read = Read::<Log>::new(Log::scan().host("web1").ranges()).reverse().limit(3);
    /// let latest: Vec<u64> = rows(&t, read)?.map(|r| r.map(|(k, _)| k.ts)).collect::<Result<_, _>>()?;
    /// assert_eq!(latest, [99, 98, 97]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rows<'a, T, V, Tbl>(
        table: &'a Tbl,
        read: Read<T>,
    ) -> Result<Rows<T, Source<'a, V>>, StorageError>
    where
        T: RowKey + DecodeRowKeyOwned,
        V: Value + 'static,
        Tbl: ReadableTable<&'static [u8], V>,
    {
        let reverse = read.is_reverse();
        let mut sources = Vec::with_capacity(read.ranges().len());
        for r in read.ranges() {
            let range = table.range::<&[u8]>(r.bounds())?;
            sources.push(Source {
                range: Directed::new(range, reverse),
            });
        }
        Ok(read.try_rows(sources))
    }

    /// The keys of `read` from `table`, decoded, in logical order: [`rows`] without the
    /// values, collected (as `rowkey_bigtable::Read::keys` does on Bigtable).
    ///
    /// # Errors
    ///
    /// Opening or reading a range failed ([`ReadError::Store`]), or a key in the ranges does
    /// not decode as `T` ([`ReadError::Decode`]): the first error stops the read.
    ///
    /// ```
    /// use redb::{Database, ReadableDatabase, TableDefinition};
    /// use rowkey::read::{redb::keys, Read};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Log {
    ///     #[salt(buckets = 8)]
    ///     #[sep]
    ///     host: String,
    ///     ts: u64,
    /// }
    ///
    /// const T: TableDefinition<&[u8], &[u8]> = TableDefinition::new("log");
    /// let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
    /// let tx = db.begin_write()?;
    /// {
    ///     let mut t = tx.open_table(T)?;
    ///     for ts in 0..10u64 {
    ///         for host in ["web1", "web2"] {
    ///             t.insert(&Log { host: host.into(), ts }.to_row_key()?[..], &b"event"[..])?;
    ///         }
    ///     }
    /// }
    /// tx.commit()?;
    /// let t = db.begin_read()?.open_table(T)?;
    /// // The 3 latest events of any host (8 buckets merged), then the next 3.
    /// let read = || Read::<Log>::new(Log::scan().ranges()).reverse().limit(3);
    /// let page: Vec<Log> = keys(&t, read())?;
    /// assert_eq!(page.iter().map(|k| (k.host.as_str(), k.ts)).collect::<Vec<_>>(), [("web2", 9), ("web2", 8), ("web2", 7)]);
    /// let next = keys(&t, read().after(&page[2])?)?;
    /// assert_eq!((next[0].host.as_str(), next[0].ts), ("web2", 6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keys<T, V, Tbl>(table: &Tbl, read: Read<T>) -> Result<Vec<T>, Error>
    where
        T: RowKey + DecodeRowKeyOwned,
        V: Value + 'static,
        Tbl: ReadableTable<&'static [u8], V>,
    {
        rows(table, read)
            .map_err(ReadError::Store)?
            .map(|row| row.map(|(k, _)| k))
            .collect()
    }

    /// The error type of [`rows`]' items and of [`keys`].
    pub type Error = ReadError<StorageError>;
}

#[cfg(test)]
mod tests {
    use super::cut_after;
    use crate::scan::{ScanRange, ScanRanges};

    #[test]
    fn cut_after_resumes_in_every_salt_bucket() {
        let buckets = ScanRanges::new(vec![ScanRange::prefix(b"\x00"), ScanRange::prefix(b"\x01")]);
        let next = cut_after(buckets.as_slice(), b"\x01m", 1, false);
        assert_eq!(
            next.iter().map(|r| r.start().to_vec()).collect::<Vec<_>>(),
            [b"\x00m\x00".to_vec(), b"\x01m\x00".to_vec()]
        );
    }
}
