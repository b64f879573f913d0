//! Typed reads of [`ScanRanges`] from HBase, merged into the key's logical order by
//! [`rowkey::read`] (the one merge, decode, limit and resume of the workspace: this module only
//! runs the scanners).
//!
//! # One scanner per salt bucket, not per range
//!
//! A read's ranges come in ordered groups ([`rowkey::read::Read::groups`]): the ranges of one
//! salt bucket, or all of them for a key without a salt. Each group is read by **one** HBase
//! scanner whose start and stop rows are the group's bounds and whose filter (the scan's
//! `filterBytes`) is a `MultiRowRangeFilter` of the group's ranges: the region server seeks
//! from range to range itself, as Phoenix's skip scan does — an IN-list of 5,000 values is
//! one scanner, not 5,000. A group whose ranges hold more than
//! [`max_request_bytes`](Read::max_request_bytes) of row keys is read by several scanners one
//! after the other. The groups' rows are merged in logical order.
//!
//! # Bounded fan-out
//!
//! The scanners of a read run on at most [`streams`](Read::streams) threads, each with one
//! connection (default [`Client::with_max_streams`](crate::Client::with_max_streams), 8),
//! whatever the number of ranges or buckets: the groups are dealt out to the threads, and each
//! thread fetches a page of [`page_rows`](Read::page_rows) rows for one of its groups, then the
//! next one's, keeping every group one page ahead of the merge. A group stays on its thread
//! for the whole read, since its scanner lives on that thread's connection. A read of one group, or with `streams(1)`
//! ([`sequential`](Read::sequential)), fetches its pages on the caller's thread when the merge
//! needs them. What a read holds is bounded by groups × 2 pages.
//!
//! A read and its rows ([`Rows`], [`RawRows`]) are `Send`: an async service hands one to
//! `tokio::task::spawn_blocking` and streams its rows out.
//!
//! # Filters
//!
//! [`with_filter`](Read::with_filter) takes HBase's filters typed ([`crate::filter`]); they go
//! into the same `FilterList` as the ranges. A filter string ([`filter`](Read::filter)) cannot
//! travel beside the ranges (the gateway applies either the scan's `filterString` or its
//! `filterBytes`): a read given one opens one scanner per range instead, in turn, each with the
//! string — exact, but a round trip per range.
//!
//! # Reverse reads
//!
//! [`reverse`](Read::reverse) sends HBase `reversed` scans and merges them largest-first. A
//! reversed HBase scan starts at its (inclusive) start row and goes down; a rowkey range is
//! `[start, stop)`. So a reversed scanner starts at the group's highest `stop` — a row equal to
//! it is not in the range: the `MultiRowRangeFilter` leaves it out (a single range drops it
//! itself) — and ends with an `InclusiveStopFilter` at the group's lowest `start`, never reading
//! past the group. `MultiRowRangeFilter` walks its ranges backwards in a reversed scan.
//!
//! # Errors mid-read
//!
//! A scanner whose connection breaks (the gateway restarted, or closed an idle connection) or
//! that HBase no longer knows (a lease expired: the gateway drops a scanner left unread longer
//! than `hbase.client.scanner.timeout.period`, 60 s by default) is opened again on a fresh
//! connection **after the last row it returned** — no row twice, none skipped — for as long as
//! the client's [retry budget](crate::Client::with_retry_for) lasts. A scanner is only ever
//! continued on the connection it was opened on: a gateway numbers its scanners from 1 again
//! when it restarts, so after any reconnect every scanner of the old connection — including
//! those of other groups sharing it — is opened again after its last row, never continued by
//! its id (which could name another group's new scanner). A page is all or nothing:
//! the rows of a call that failed were never returned. When the budget is spent, the group
//! yields one [`Error`] item and ends: a read that was cut short always says so; it never ends
//! as if the range were exhausted.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};

use rowkey::read::{after_in_byte_order, batches, ReadError};
use rowkey::{DecodeRowKeyOwned, RowKey, ScanRange, ScanRanges};

use crate::error::ConnectionError;
use crate::filter::{filter_list, own, Filter};
use crate::pool::{self, Attempts, Pooled, Scanner};
use crate::thrift::{TColumn, TResult, TScan, TTHBaseServiceSyncClient};
use crate::{proto, Client, Error, Row, Table};

/// Rows per `getScannerRows` call unless [`Read::page_rows`] says otherwise.
pub const DEFAULT_PAGE_ROWS: usize = 1000;

/// Bytes of row keys (range starts and stops) in one scanner's `MultiRowRangeFilter` unless
/// [`Read::max_request_bytes`] says otherwise.
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 256 * 1024;

/// Reopening a scanner HBase answered with an error (an expired lease, an unknown scanner id):
/// at most this many times in a row.
const SCANNER_REOPENS: u32 = 2;

/// A typed read of `T` rows from a [`Table`]: see the [module docs](self). Built by
/// [`Table::read`]; the order of the builder calls does not matter.
///
/// ```no_run
/// use rowkey::RowKey;
/// # use rowkey_hbase::Client;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Reading {
///     #[salt(buckets = 4)]
///     sensor: u32,
///     #[reverse_ts]
///     at_ms: i64,
/// }
///
/// # fn main() -> Result<(), rowkey_hbase::Error> {
/// # let client = Client::connect("127.0.0.1:9090")?;
/// let table = client.table("readings");
/// let ranges = Reading::scan().sensor(1).ranges();
/// // sensor 1, newest first, two at a time
/// let page = table.read::<Reading>(&ranges).limit(2).collect()?;
/// let next = table.read::<Reading>(&ranges).after(&page[1].0)?.limit(2).keys()?;
/// // every sensor, oldest first (4 reversed scanners merged), keys only
/// let oldest = table.read::<Reading>(&Reading::scan().ranges()).reverse().keys_only().keys()?;
/// // 1,000 sensors: still one scanner per salt bucket, at most 2 at a time
/// let many = Reading::scan().sensor_in(0..1000)?.ranges();
/// let rows = table.read::<Reading>(&many).streams(2).keys_only().keys()?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Read<T> {
    table: Table,
    ranges: ScanRanges,
    spec: Spec,
    after: Option<Vec<u8>>,
    streams: Option<usize>,
    _t: PhantomData<fn() -> T>,
}

/// How each scanner scans.
#[derive(Debug, Clone)]
struct Spec {
    reverse: bool,
    limit: Option<usize>,
    page_rows: usize,
    text: Option<Vec<u8>>,
    filters: Vec<Filter>,
    keys_only: bool,
    families: Vec<Vec<u8>>,
    max_request_bytes: usize,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            reverse: false,
            limit: None,
            page_rows: DEFAULT_PAGE_ROWS,
            text: None,
            filters: Vec::new(),
            keys_only: false,
            families: Vec::new(),
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
        }
    }
}

/// The server-side filter string of a read given one: the user's, keys-only, and a reversed
/// scanner's lower bound, joined with `AND` (in this order, whatever the order of the builder
/// calls).
fn filter_string(spec: &Spec, lower: Option<&[u8]>) -> Option<Vec<u8>> {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    if let Some(f) = &spec.text {
        let mut p = b"(".to_vec();
        p.extend_from_slice(f);
        p.push(b')');
        parts.push(p);
    }
    if spec.keys_only {
        parts.push(b"FirstKeyOnlyFilter() AND KeyOnlyFilter()".to_vec());
    }
    if let Some(start) = lower {
        let mut p = b"InclusiveStopFilter(".to_vec();
        p.extend_from_slice(&quote(start));
        p.push(b')');
        parts.push(p);
    }
    (!parts.is_empty()).then(|| parts.join(&b" AND "[..]))
}

/// The `filterBytes` of a scanner of `ranges` (typed filters): the ranges (when more than
/// one), a reversed scanner's lower bound, the user's filters, keys-only — one `FilterList`.
fn filter_bytes(spec: &Spec, ranges: &[ScanRange], lower: Option<&[u8]>) -> Option<Vec<u8>> {
    use prost::Message;
    let mut filters: Vec<proto::Filter> = Vec::new();
    if ranges.len() > 1 {
        filters.push(own::multi_row_range(
            ranges.iter().map(|r| (r.start(), r.stop())),
        ));
    }
    if let Some(start) = lower {
        filters.push(own::inclusive_stop(start));
    }
    filters.extend(spec.filters.iter().map(Filter::to_proto));
    if spec.keys_only {
        filters.extend(own::keys_only());
    }
    let one = match filters.len() {
        0 => return None,
        1 => filters.pop()?,
        _ => filter_list(proto::filter_list::Operator::MustPassAll, filters),
    };
    Some(one.encode_to_vec())
}

impl<T: RowKey> Read<T> {
    pub(crate) fn new(table: Table, ranges: ScanRanges) -> Read<T> {
        Read {
            table,
            ranges,
            spec: Spec::default(),
            after: None,
            streams: None,
            _t: PhantomData,
        }
    }

    /// Read in descending logical order (reversed HBase scans, merged largest-first).
    #[must_use]
    pub fn reverse(mut self) -> Self {
        self.spec.reverse = true;
        self
    }

    /// Yield at most `n` rows (each scanner also asks HBase for at most `n`).
    #[must_use]
    pub fn limit(mut self, n: usize) -> Self {
        self.spec.limit = Some(n);
        self
    }

    /// Resume strictly after `key` in the read's order (a page's last key), in every salt
    /// bucket.
    ///
    /// # Errors
    ///
    /// The key does not encode.
    pub fn after(self, key: &T) -> Result<Self, Error> {
        let k = key.to_row_key()?;
        Ok(self.after_key(&k))
    }

    /// [`after`](Self::after) with the key's bytes.
    #[must_use]
    pub fn after_key(mut self, key: &[u8]) -> Self {
        self.after = Some(key.to_vec());
        self
    }

    /// Rows per `getScannerRows` call (default [`DEFAULT_PAGE_ROWS`]; at least 1).
    #[must_use]
    pub fn page_rows(mut self, n: usize) -> Self {
        self.spec.page_rows = n.max(1);
        self
    }

    /// Run at most `n` scanners at once — threads and connections — whatever the number of
    /// ranges and salt buckets (default: the client's
    /// [`with_max_streams`](crate::Client::with_max_streams); at least 1). With 1, pages are
    /// fetched on the caller's thread as the merge needs them.
    #[must_use]
    pub fn streams(mut self, n: usize) -> Self {
        self.streams = Some(n.max(1));
        self
    }

    /// [`streams(1)`](Self::streams): fetch the scanners' pages one at a time over one
    /// connection, on the caller's thread, as the merge needs them.
    #[must_use]
    pub fn sequential(self) -> Self {
        self.streams(1)
    }

    /// Split a group whose ranges hold more than `n` bytes of row keys into several scanners,
    /// read one after the other (default [`DEFAULT_MAX_REQUEST_BYTES`]; at least one range per
    /// scanner). Keeps each `openScanner` call well within the gateway's frame and message
    /// limits.
    #[must_use]
    pub fn max_request_bytes(mut self, n: usize) -> Self {
        self.spec.max_request_bytes = n;
        self
    }

    /// A server-side filter in HBase's filter language (`"ValueFilter(=, 'binary:x')"`,
    /// `"KeyOnlyFilter()"`, …), applied to every scanner. The gateway cannot apply a filter
    /// string together with the ranges' `MultiRowRangeFilter`, so such a read opens **one
    /// scanner per range**, in turn (still at most [`streams`](Self::streams) at once):
    /// prefer [`with_filter`](Self::with_filter) for reads of many ranges. A read given both
    /// a filter string and typed filters fails with [`Error::InvalidArgument`].
    #[must_use]
    pub fn filter(mut self, filter: impl Into<Vec<u8>>) -> Self {
        self.spec.text = Some(filter.into());
        self
    }

    /// A typed server-side filter ([`crate::filter`]), sent in the same `FilterList` as the
    /// read's ranges. Several calls: every filter must pass.
    ///
    /// ```no_run
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey, Debug)] struct K { #[salt(buckets = 8)] device: u64, ts: u64 }
    /// # fn demo(table: rowkey_hbase::Table) -> Result<(), rowkey_hbase::Error> {
    /// use rowkey_hbase::filter::{CompareOp, Comparator, Filter};
    ///
    /// let ranges = K::scan().device_in([3, 5, 8])?.ranges();
    /// let hot = table
    ///     .read::<K>(&ranges)
    ///     .with_filter(Filter::single_column_value("m", b"level", CompareOp::Equal, Comparator::Binary(b"hot".to_vec())).if_missing_drop())
    ///     .collect()?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.spec.filters.push(filter);
        self
    }

    /// Return only the row keys from the server (`KeyOnlyFilter` and `FirstKeyOnlyFilter`:
    /// each row comes back with one cell and an empty value); combined with the filters by
    /// `AND`.
    #[must_use]
    pub fn keys_only(mut self) -> Self {
        self.spec.keys_only = true;
        self
    }

    /// Read only these column families.
    #[must_use]
    pub fn families(mut self, families: &[&str]) -> Self {
        self.spec.families = families.iter().map(|f| f.as_bytes().to_vec()).collect();
        self
    }

    /// The read as [`rowkey::read`] plans it: resume and direction applied to the ranges.
    pub fn plan(&self) -> rowkey::read::Read<T> {
        let mut read = rowkey::read::Read::<T>::new(self.ranges.clone());
        if self.spec.reverse {
            read = read.reverse();
        }
        if let Some(k) = &self.after {
            read = read.after_key(k);
        }
        if let Some(n) = self.spec.limit {
            read = read.limit(n);
        }
        read
    }

    /// The scanners the read opens, in order, each as the ranges it covers: one list per
    /// group (salt bucket), each scanner's ranges within the request budget — one range per
    /// scanner for a read with a [filter string](Self::filter).
    pub fn scanners(&self) -> Vec<Vec<ScanRanges>> {
        let plan = self.plan();
        plan.groups()
            .into_iter()
            .map(|g| {
                steps(&self.spec, g)
                    .into_iter()
                    .map(ScanRanges::new)
                    .collect()
            })
            .collect()
    }

    /// The typed rows, in logical order. The scanners are opened here (lazily, for a read on
    /// the caller's thread).
    ///
    /// # Errors
    ///
    /// A thread could not be started, or the read has both a filter string and typed filters
    /// ([`Error::InvalidArgument`]); errors of the scans come as items.
    pub fn rows(&self) -> Result<Rows<T>, Error>
    where
        T: DecodeRowKeyOwned,
    {
        if self.spec.text.is_some() && !self.spec.filters.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "a read of {} has both a filter string and typed filters: the gateway applies \
                 only one of them; use typed filters only",
                self.table.name()
            )));
        }
        let plan = self.plan();
        let spec = Arc::new(self.spec.clone());
        let table = self.table.name().as_bytes().to_vec();
        let scans: Vec<GroupScan> = plan
            .groups()
            .into_iter()
            .map(|g| GroupScan::new(table.clone(), spec.clone(), steps(&spec, g)))
            .collect();
        let client = self.table.client();
        let streams = self
            .streams
            .unwrap_or_else(|| client.max_streams())
            .min(scans.len());
        let sources = if streams <= 1 {
            // One group has nothing to overlap with: its scanner runs on the caller's thread
            // (the hand-off to a thread of its own cost 1.24x against 1.05x, BENCHMARKS.md).
            let conn = Arc::new(Shared::new(client.clone()));
            scans
                .into_iter()
                .map(|scan| GroupSource::inline(client.clone(), conn.clone(), scan))
                .collect::<Vec<_>>()
        } else {
            let queues = workers(client, streams)?;
            scans
                .into_iter()
                .zip(queues.iter().cycle())
                .map(|(scan, jobs)| GroupSource::pooled(client.clone(), jobs.clone(), scan))
                .collect()
        };
        Ok(Rows {
            inner: plan.try_rows(sources),
        })
    }

    /// Every row, in logical order.
    ///
    /// # Errors
    ///
    /// The first error of the read: a failed scan, or a key that does not decode.
    pub fn collect(&self) -> Result<Vec<(T, Row)>, Error>
    where
        T: DecodeRowKeyOwned,
    {
        self.rows()?.collect()
    }

    /// Every key, in logical order.
    ///
    /// # Errors
    ///
    /// As [`collect`](Self::collect).
    pub fn keys(&self) -> Result<Vec<T>, Error>
    where
        T: DecodeRowKeyOwned,
    {
        self.rows()?.map(|r| r.map(|(k, _)| k)).collect()
    }
}

/// The scanners of one group, in the read's order: batches within the request budget, or one
/// range each for a read with a filter string.
fn steps(spec: &Spec, group: &[ScanRange]) -> Vec<Vec<ScanRange>> {
    let mut steps: Vec<Vec<ScanRange>> = if spec.text.is_some() {
        group.iter().map(|r| vec![r.clone()]).collect()
    } else {
        batches(group, spec.max_request_bytes)
            .into_iter()
            .map(<[ScanRange]>::to_vec)
            .collect()
    };
    if spec.reverse {
        // HBase's MultiRowRangeFilter orders a reversed scan's ranges by their stop rows as
        // bytes, so a range with no stop (the end of the table) would sort last instead of
        // first: such a range (always a group's highest) gets a scanner of its own.
        if let Some(last) = steps.last_mut() {
            if last.len() > 1 && last.last().is_some_and(|r| r.stop().is_none()) {
                if let Some(open) = last.pop() {
                    steps.push(vec![open]);
                }
            }
        }
        steps.reverse();
    }
    steps
}

/// Quote bytes for HBase's filter language: `'…'`, a quote doubled.
fn quote(bytes: &[u8]) -> Vec<u8> {
    let mut q = Vec::with_capacity(bytes.len() + 2);
    q.push(b'\'');
    for &b in bytes {
        q.push(b);
        if b == b'\'' {
            q.push(b'\'');
        }
    }
    q.push(b'\'');
    q
}

/// An open scanner: the scanner (reached only through the connection it was opened on), the
/// ranges it covers, the page size it was asked with, and a row to drop (a reversed
/// single-range scanner's start row is the range's exclusive stop).
#[derive(Debug)]
struct Open {
    scanner: Scanner,
    ranges: Vec<ScanRange>,
    page: i32,
    skip: Option<Vec<u8>>,
}

/// One group's scanners, one after the other, resuming after the last row returned when a
/// scanner breaks.
#[derive(Debug)]
struct GroupScan {
    table: Vec<u8>,
    spec: Arc<Spec>,
    /// Scanners still to open, in read order: each the ranges it covers.
    steps: VecDeque<Vec<ScanRange>>,
    open: Option<Open>,
    /// The last row returned.
    last: Option<Vec<u8>>,
    /// Rows still wanted (the read's limit).
    remaining: Option<usize>,
    done: bool,
}

impl GroupScan {
    fn new(table: Vec<u8>, spec: Arc<Spec>, steps: Vec<Vec<ScanRange>>) -> GroupScan {
        GroupScan {
            table,
            remaining: spec.limit,
            spec,
            steps: steps.into(),
            open: None,
            last: None,
            done: false,
        }
    }

    /// The scan of `ranges` (sorted, disjoint, non-empty), and the row to drop.
    fn tscan(&self, ranges: &[ScanRange]) -> Option<(TScan, i32, Option<Vec<u8>>)> {
        let spec = &*self.spec;
        let (first, last) = (ranges.first()?, ranges.last()?);
        let single = ranges.len() == 1;
        // A reversed scanner starts at the highest stop row, inclusive: one range drops that
        // row itself (and may take one row more than the limit); several ranges leave it to
        // the MultiRowRangeFilter.
        let skip = (spec.reverse && single)
            .then(|| last.stop().map(<[u8]>::to_vec))
            .flatten();
        let extra = usize::from(skip.is_some());
        let limit = self.remaining.map(|n| {
            i32::try_from(n.saturating_add(extra))
                .unwrap_or(i32::MAX)
                .max(1)
        });
        let page = i32::try_from(spec.page_rows)
            .unwrap_or(i32::MAX)
            .min(limit.unwrap_or(i32::MAX));
        let lower = (spec.reverse && !first.start().is_empty()).then(|| first.start());
        let (start, stop) = if spec.reverse {
            (last.stop().map(<[u8]>::to_vec), None)
        } else {
            (
                Some(first.start().to_vec()).filter(|s| !s.is_empty()),
                last.stop().map(<[u8]>::to_vec),
            )
        };
        let (text, bytes) = if spec.text.is_some() {
            (filter_string(spec, lower), None)
        } else {
            (None, filter_bytes(spec, ranges, lower))
        };
        let columns = (!spec.families.is_empty()).then(|| {
            spec.families
                .iter()
                .map(|f| TColumn::new(f.clone(), None, None))
                .collect::<Vec<_>>()
        });
        let scan = TScan::new(
            start,
            stop,
            columns,
            page,
            None,
            None,
            text,
            None,
            None,
            None,
            spec.reverse,
            None,
            None,
            None,
            limit,
            None,
            None,
            bytes,
        );
        Some((scan, page, skip))
    }

    /// The next page of the group (`None` at its end), opening scanners as needed, on
    /// `conn` (a fresh pooled connection when `None` or broken). A scanner that breaks is
    /// opened again after the last row returned, within the client's retry budget.
    fn next_page(
        &mut self,
        client: &Client,
        conn: &mut Option<Pooled>,
    ) -> Result<Option<Vec<TResult>>, Error> {
        if client.stateless_scans() {
            return self.next_page_stateless(client, conn);
        }
        let mut attempts = Attempts::new(client.retry());
        let mut reopens = 0u32;
        loop {
            if self.done || self.remaining == Some(0) {
                self.finish(conn);
                return Ok(None);
            }
            if conn.is_none() {
                match client.checkout() {
                    Ok(c) => *conn = Some(c),
                    Err(e) => {
                        if pool::retryable(&e) && attempts.again() {
                            continue;
                        }
                        self.done = true;
                        return Err(e);
                    }
                }
            }
            let Some(c) = conn.as_mut() else { continue };
            if self.open.is_none() {
                let Some(step) = self.steps.pop_front() else {
                    self.done = true;
                    return Ok(None);
                };
                let ranges = self.resumed(step);
                let Some((scan, page, skip)) = self.tscan(&ranges) else {
                    continue;
                };
                match c.open_scanner(self.table.clone(), scan) {
                    Ok(scanner) => {
                        self.open = Some(Open {
                            scanner,
                            ranges,
                            page,
                            skip,
                        });
                    }
                    Err(e) => {
                        let e = crate::gateway::explain(&c.seen, e);
                        self.steps.push_front(ranges);
                        if let Some(refusal) = crate::gateway::refused(&c.seen) {
                            self.done = true;
                            return Err(refusal);
                        }
                        if pool::breaks_connection(&e) {
                            *conn = None;
                        }
                        if pool::transient(&e) && attempts.again() {
                            continue;
                        }
                        self.done = true;
                        return Err(pool::gave_up(e, attempts.made()));
                    }
                }
            }
            let Some(open) = self.open.as_ref() else {
                continue;
            };
            let page = open.page;
            let Some(result) = c.scanner_rows(&open.scanner, page) else {
                // The scanner was opened on a connection that has since been replaced (it
                // broke, here or for another group on the same connection): its id may name
                // another scanner on this one (a restarted gateway counts from 1 again). Open
                // it again after the last row returned.
                if let Some(open) = self.open.take() {
                    self.steps.push_front(open.ranges);
                }
                continue;
            };
            match result {
                Ok(mut rows) => {
                    // The gateway fills a page unless the scanner is exhausted
                    // (`ResultScanner.next(n)`): a short page is its last one.
                    let last_page = rows.len() < usize::try_from(page).unwrap_or(usize::MAX);
                    let skip = open.skip.clone();
                    if last_page {
                        if let Some(open) = self.open.take() {
                            let _ = c.close_scanner(open.scanner);
                        }
                    }
                    self.keep(&mut rows, skip.as_deref());
                    if rows.is_empty() {
                        continue;
                    }
                    return Ok(Some(rows));
                }
                Err(e) => {
                    let e = crate::gateway::explain(&c.seen, e);
                    if let Some(refusal) = crate::gateway::refused(&c.seen) {
                        self.done = true;
                        return Err(refusal);
                    }
                    // The scanner's state is unknown: open it again after the last row
                    // returned (the rows of this call were never returned).
                    let broken = pool::breaks_connection(&e);
                    if broken {
                        *conn = None;
                    }
                    let again = if broken {
                        pool::transient(&e) && attempts.again()
                    } else {
                        // HBase answered: an expired lease, an unknown scanner id
                        reopens += 1;
                        reopens <= SCANNER_REOPENS
                    };
                    if let Some(open) = self.open.take() {
                        if !broken {
                            if let Some(c) = conn.as_mut() {
                                let _ = c.close_scanner(open.scanner);
                            }
                        }
                        self.steps.push_front(open.ranges);
                    }
                    if again {
                        continue;
                    }
                    self.done = true;
                    return Err(pool::gave_up(e, attempts.made()));
                }
            }
        }
    }

    /// The ranges of `step` still to read: those after the last row returned, if any.
    fn resumed(&self, step: Vec<ScanRange>) -> Vec<ScanRange> {
        match &self.last {
            Some(k) => after_in_byte_order(&step, k, self.spec.reverse)
                .iter()
                .cloned()
                .collect(),
            None => step,
        }
    }

    /// A page as returned: without the row a reversed scanner repeats (`skip`), within the
    /// read's limit, its last row remembered for resuming.
    fn keep(&mut self, rows: &mut Vec<TResult>, skip: Option<&[u8]>) {
        if let Some(skip) = skip {
            rows.retain(|r| r.row.as_deref() != Some(skip));
        }
        if let Some(r) = self.remaining.as_mut() {
            rows.truncate(*r);
            *r -= rows.len();
        }
        if let Some(row) = rows.last().and_then(|r| r.row.clone()) {
            self.last = Some(row);
        }
    }

    /// [`next_page`](Self::next_page) in HTTP mode: each page is one `getScannerResults` call
    /// (open, fetch, close on the gateway), resuming after the last row returned. No scanner id
    /// lives on the gateway between requests, so a restarted gateway — or another one behind a
    /// load balancer — can never answer with a page of another scanner (scanner ids are small
    /// integers counted from 1 in each gateway process).
    fn next_page_stateless(
        &mut self,
        client: &Client,
        conn: &mut Option<Pooled>,
    ) -> Result<Option<Vec<TResult>>, Error> {
        let mut attempts = Attempts::new(client.retry());
        loop {
            if self.done || self.remaining == Some(0) {
                self.done = true;
                return Ok(None);
            }
            if conn.is_none() {
                match client.checkout() {
                    Ok(c) => *conn = Some(c),
                    Err(e) => {
                        if pool::retryable(&e) && attempts.again() {
                            continue;
                        }
                        self.done = true;
                        return Err(e);
                    }
                }
            }
            let Some(c) = conn.as_mut() else { continue };
            let Some(step) = self.steps.front() else {
                self.done = true;
                return Ok(None);
            };
            let ranges = self.resumed(step.clone());
            let Some((scan, page, skip)) = self.tscan(&ranges) else {
                // nothing of this step is left after the last row
                self.steps.pop_front();
                continue;
            };
            match c.conn.get_scanner_results(self.table.clone(), scan, page) {
                Ok(mut rows) => {
                    if rows.len() < usize::try_from(page).unwrap_or(usize::MAX) {
                        self.steps.pop_front();
                    }
                    self.keep(&mut rows, skip.as_deref());
                    if rows.is_empty() {
                        continue;
                    }
                    return Ok(Some(rows));
                }
                Err(e) => {
                    let e = crate::gateway::explain(&c.seen, e);
                    if let Some(refusal) = crate::gateway::refused(&c.seen) {
                        self.done = true;
                        return Err(refusal);
                    }
                    if pool::breaks_connection(&e) {
                        *conn = None;
                    }
                    if pool::transient(&e) && attempts.again() {
                        continue;
                    }
                    self.done = true;
                    return Err(pool::gave_up(e, attempts.made()));
                }
            }
        }
    }

    /// Close the open scanner, if any (the read was dropped, or its limit reached), on the
    /// connection it was opened on. Without that connection there is nothing to close: a
    /// scanner id sent on another connection could close another read's scanner; the gateway
    /// drops the scanner of a broken connection when its lease ends.
    fn finish(&mut self, conn: &mut Option<Pooled>) {
        self.done = true;
        if let Some(open) = self.open.take() {
            if let Some(c) = conn.as_mut() {
                if c.owns(&open.scanner) && c.close_scanner(open.scanner).is_err() {
                    *conn = None;
                }
            }
        }
    }
}

type Page = Result<Option<Vec<TResult>>, Error>;

/// Work for a read's threads.
enum Job {
    /// Fetch the group's next page and send it back.
    Fetch(Box<GroupScan>, SyncSender<(Box<GroupScan>, Page)>),
    /// The read was dropped: close the group's scanner.
    Close(Box<GroupScan>),
}

/// Start `n` threads, each with one connection and a queue of its own, serving the jobs of one
/// read; they end when the read is dropped (every sender gone), giving their connections back.
///
/// A group is served by one thread for the whole read (its queue): its scanner lives on that
/// thread's connection, and a scanner is reached only on the connection it was opened on.
fn workers(client: &Client, n: usize) -> Result<Vec<Sender<Job>>, Error> {
    let mut queues = Vec::with_capacity(n);
    for _ in 0..n {
        let (tx, rx) = channel::<Job>();
        let client = client.clone();
        std::thread::Builder::new()
            .name("rowkey-hbase-read".into())
            .spawn(move || work(&client, &rx))
            .map_err(|e| Error::Connection(ConnectionError::io("starting a read thread", e)))?;
        queues.push(tx);
    }
    Ok(queues)
}

fn work(client: &Client, jobs: &Receiver<Job>) {
    let mut conn: Option<Pooled> = None;
    loop {
        match jobs.recv() {
            Ok(Job::Fetch(mut scan, reply)) => {
                let page = scan.next_page(client, &mut conn);
                if let Err(std::sync::mpsc::SendError((mut scan, _))) = reply.send((scan, page)) {
                    // the read was dropped meanwhile
                    scan.finish(&mut conn);
                }
            }
            Ok(Job::Close(mut scan)) => scan.finish(&mut conn),
            Err(_) => break,
        }
    }
    if let Some(c) = conn {
        client.give_back(c);
    }
}

/// The one connection of a read on the caller's thread, shared by its groups and given back to
/// the pool when the read is dropped (after its groups closed their scanners).
struct Shared {
    client: Client,
    slot: Mutex<Option<Pooled>>,
}

impl Shared {
    fn new(client: Client) -> Shared {
        Shared {
            client,
            slot: Mutex::new(None),
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        if let Some(conn) = self
            .slot
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            self.client.give_back(conn);
        }
    }
}

/// One group's rows for the merge: fetched on the caller's thread, or by the read's threads
/// one page ahead.
struct GroupSource {
    client: Client,
    scan: Option<Box<GroupScan>>,
    buf: VecDeque<TResult>,
    mode: Mode,
    ended: bool,
}

enum Mode {
    Inline(Arc<Shared>),
    Pooled {
        jobs: Sender<Job>,
        reply: SyncSender<(Box<GroupScan>, Page)>,
        pages: Receiver<(Box<GroupScan>, Page)>,
        in_flight: bool,
    },
}

impl GroupSource {
    fn inline(client: Client, conn: Arc<Shared>, scan: GroupScan) -> GroupSource {
        GroupSource {
            client,
            scan: Some(Box::new(scan)),
            buf: VecDeque::new(),
            mode: Mode::Inline(conn),
            ended: false,
        }
    }

    /// A group served by the read's threads; its first page is asked for at once.
    fn pooled(client: Client, jobs: Sender<Job>, scan: GroupScan) -> GroupSource {
        let (reply, pages) = sync_channel(1);
        let mut source = GroupSource {
            client,
            scan: Some(Box::new(scan)),
            buf: VecDeque::new(),
            mode: Mode::Pooled {
                jobs,
                reply,
                pages,
                in_flight: false,
            },
            ended: false,
        };
        source.ask();
        source
    }

    /// Send the group to the read's threads for its next page (if it is not there already).
    fn ask(&mut self) {
        if let Mode::Pooled {
            jobs,
            reply,
            in_flight,
            ..
        } = &mut self.mode
        {
            if let Some(scan) = self.scan.take() {
                if jobs.send(Job::Fetch(scan, reply.clone())).is_ok() {
                    *in_flight = true;
                }
            }
        }
    }

    /// The next page, on the caller's thread or from the read's threads.
    fn page(&mut self) -> Page {
        match &mut self.mode {
            Mode::Inline(conn) => {
                let Some(scan) = self.scan.as_mut() else {
                    return Ok(None);
                };
                // the groups of a sequential read take turns on one thread: never contended
                let mut slot = conn.slot.lock().unwrap_or_else(PoisonError::into_inner);
                scan.next_page(&self.client, &mut slot)
            }
            Mode::Pooled { .. } => {
                self.ask();
                let Mode::Pooled {
                    pages, in_flight, ..
                } = &mut self.mode
                else {
                    return Ok(None);
                };
                if !*in_flight {
                    return Err(Error::Connection(ConnectionError::other(
                        "the read's threads have stopped",
                    )));
                }
                let (scan, page) = pages.recv().map_err(|_| {
                    Error::Connection(ConnectionError::other("a read thread stopped"))
                })?;
                *in_flight = false;
                let more = !scan.done;
                self.scan = Some(scan);
                if more && matches!(page, Ok(Some(_))) {
                    // keep the group one page ahead of the merge
                    self.ask();
                }
                page
            }
        }
    }
}

fn split(r: TResult) -> (Vec<u8>, Row) {
    let row = Row::from(r);
    (row.key.clone(), row)
}

impl Iterator for GroupSource {
    type Item = Result<(Vec<u8>, Row), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(r) = self.buf.pop_front() {
                return Some(Ok(split(r)));
            }
            if self.ended {
                return None;
            }
            match self.page() {
                Ok(Some(rows)) => self.buf.extend(rows),
                Ok(None) => {
                    self.ended = true;
                    return None;
                }
                Err(e) => {
                    self.ended = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

impl Drop for GroupSource {
    fn drop(&mut self) {
        let Some(mut scan) = self.scan.take() else {
            // in flight: the thread that has it closes it when the reply finds no one
            return;
        };
        if scan.open.is_none() {
            return;
        }
        match &self.mode {
            Mode::Inline(conn) => {
                if let Ok(mut slot) = conn.slot.try_lock() {
                    scan.finish(&mut slot);
                }
            }
            Mode::Pooled { jobs, .. } => {
                let _ = jobs.send(Job::Close(scan));
            }
        }
    }
}

/// The typed rows of a [`Read`], in logical order: `(key, row)` items, or an [`Error`] (a key
/// that does not decode — the read goes on — or a failed scan).
pub struct Rows<T> {
    inner: rowkey::read::Rows<T, GroupSource>,
}

impl<T> Iterator for Rows<T>
where
    T: RowKey + DecodeRowKeyOwned,
{
    type Item = Result<(T, Row), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.inner.next()?.map_err(|e| match e {
            ReadError::Decode { key, error } => Error::Decode {
                layout: T::LAYOUT.name,
                key,
                source: error,
            },
            ReadError::Store(e) => e,
        }))
    }
}

/// An untyped scan of one range: the rows as HBase returns them, in byte order (descending
/// with [`reverse`](RawScan::reverse)), over one connection. For tools that look at every
/// row whatever its layout — the region view, a migration's source scan — and as the baseline
/// a typed read is measured against. It resumes after its last row when its connection breaks,
/// as a [`Read`] does.
///
/// ```no_run
/// # fn demo(table: rowkey_hbase::Table) -> Result<(), rowkey_hbase::Error> {
/// use rowkey::ScanRange;
/// use rowkey_hbase::read::RawScan;
///
/// let rows = RawScan::new(&table, ScanRange::prefix(b"\x05")).keys_only().limit(10);
/// for row in rows.rows()? {
///     println!("{}", rowkey::hbase::to_string_binary(&row?.key));
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct RawScan {
    table: Table,
    ranges: Vec<ScanRange>,
    spec: Spec,
}

impl RawScan {
    /// A forward scan of `range`.
    pub fn new(table: &Table, range: ScanRange) -> RawScan {
        RawScan {
            table: table.clone(),
            ranges: vec![range],
            spec: Spec::default(),
        }
    }

    /// A forward scan of several ranges by **one** scanner (a `MultiRowRangeFilter`): the
    /// raw multi-range scan a typed read of one group is measured against.
    pub fn multi(table: &Table, ranges: &ScanRanges) -> RawScan {
        RawScan {
            table: table.clone(),
            ranges: ranges.iter().cloned().collect(),
            spec: Spec {
                max_request_bytes: usize::MAX,
                ..Spec::default()
            },
        }
    }

    /// Scan in descending byte order.
    #[must_use]
    pub fn reverse(mut self) -> Self {
        self.spec.reverse = true;
        self
    }

    /// At most `n` rows.
    #[must_use]
    pub fn limit(mut self, n: usize) -> Self {
        self.spec.limit = Some(n);
        self
    }

    /// Rows per `getScannerRows` call.
    #[must_use]
    pub fn page_rows(mut self, n: usize) -> Self {
        self.spec.page_rows = n.max(1);
        self
    }

    /// Keys only, as [`Read::keys_only`].
    #[must_use]
    pub fn keys_only(mut self) -> Self {
        self.spec.keys_only = true;
        self
    }

    /// The rows (the scanner opens on the first call of `next`).
    ///
    /// # Errors
    ///
    /// None yet: errors of the scan come as items.
    pub fn rows(&self) -> Result<RawRows, Error> {
        let ranges = ScanRanges::new(self.ranges.clone());
        let steps = if ranges.is_empty() {
            Vec::new()
        } else {
            steps(&self.spec, ranges.as_slice())
        };
        let scan = GroupScan::new(
            self.table.name().as_bytes().to_vec(),
            Arc::new(self.spec.clone()),
            steps,
        );
        Ok(RawRows {
            source: GroupSource::inline(
                self.table.client().clone(),
                Arc::new(Shared::new(self.table.client().clone())),
                scan,
            ),
        })
    }
}

/// The rows of a [`RawScan`].
pub struct RawRows {
    source: GroupSource,
}

impl Iterator for RawRows {
    type Item = Result<Row, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.source.next()?.map(|(_, row)| row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    /// A read can move to another thread (a tokio service's `spawn_blocking`), whatever mode it
    /// runs in: a compile-time check.
    #[test]
    fn reads_can_move_between_threads() {
        fn send<T: Send>() {}
        #[derive(rowkey::RowKey, Debug)]
        struct K {
            #[salt(buckets = 4)]
            a: u32,
        }
        send::<Read<K>>();
        send::<Rows<K>>();
        send::<RawScan>();
        send::<RawRows>();
        send::<GroupSource>();
    }

    #[test]
    fn quote_doubles_quotes() {
        assert_eq!(quote(b"a'b"), b"'a''b'");
        assert_eq!(quote(b"\x00\xFF"), b"'\x00\xFF'");
    }

    #[test]
    fn the_filter_does_not_depend_on_the_order_of_the_calls() {
        let user = Spec {
            text: Some(b"ValueFilter(=, 'binary:x')".to_vec()),
            ..Spec::default()
        };
        let both = Spec {
            keys_only: true,
            ..user.clone()
        };
        assert_eq!(
            filter_string(&both, Some(b"k")).as_deref(),
            Some(&b"(ValueFilter(=, 'binary:x')) AND FirstKeyOnlyFilter() AND KeyOnlyFilter() AND InclusiveStopFilter('k')"[..])
        );
        assert_eq!(filter_string(&Spec::default(), None), None);
        assert_eq!(
            filter_string(&user, None).as_deref(),
            Some(&b"(ValueFilter(=, 'binary:x'))"[..])
        );
    }

    fn decoded(bytes: &[u8]) -> Vec<String> {
        let f = proto::Filter::decode(bytes).expect("a Filter");
        if f.name.ends_with(".FilterList") {
            let list =
                proto::FilterList::decode(f.serialized_filter.as_deref().unwrap_or_default())
                    .expect("a FilterList");
            list.filters.into_iter().map(|f| f.name).collect()
        } else {
            vec![f.name]
        }
    }

    #[test]
    fn one_filter_list_holds_the_ranges_the_bound_the_filters_and_keys_only() {
        let ranges = [
            ScanRange::new(b"a", Some(b"b")),
            ScanRange::new(b"c", Some(b"d")),
        ];
        let spec = Spec {
            keys_only: true,
            filters: vec![Filter::ColumnPrefix(b"x".to_vec())],
            ..Spec::default()
        };
        let names = decoded(&filter_bytes(&spec, &ranges, Some(b"a")).expect("filters"));
        let short: Vec<&str> = names
            .iter()
            .map(|n| n.rsplit('.').next().unwrap_or_default())
            .collect();
        assert_eq!(
            short,
            [
                "MultiRowRangeFilter",
                "InclusiveStopFilter",
                "ColumnPrefixFilter",
                "FirstKeyOnlyFilter",
                "KeyOnlyFilter"
            ]
        );
        // one range needs no MultiRowRangeFilter, and nothing at all needs no filter
        assert_eq!(filter_bytes(&Spec::default(), &ranges[..1], None), None);
        let one = decoded(&filter_bytes(&spec, &ranges[..1], None).expect("filters"));
        assert_eq!(one.len(), 3);
    }

    #[test]
    fn steps_follow_the_budget_and_the_direction() {
        let group: Vec<ScanRange> = (0u8..6).map(|i| ScanRange::prefix(&[1, i])).collect();
        let spec = Spec {
            max_request_bytes: 8,
            ..Spec::default()
        };
        let fwd = steps(&spec, &group);
        assert_eq!(fwd.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 2]);
        assert_eq!(fwd[0][0], group[0]);
        let rev = steps(
            &Spec {
                reverse: true,
                ..spec.clone()
            },
            &group,
        );
        assert_eq!(
            rev[0][0], group[4],
            "a reverse read takes the last batch first"
        );
        let text = steps(
            &Spec {
                text: Some(b"KeyOnlyFilter()".to_vec()),
                ..Spec::default()
            },
            &group,
        );
        assert_eq!(text.len(), 6, "a filter string: one scanner per range");
    }

    #[test]
    fn a_reversed_range_to_the_end_of_the_table_gets_a_scanner_of_its_own() {
        let group = [
            ScanRange::new(b"\0\0", Some(b"\0\x01")),
            ScanRange::new(b"\x05", Some(b"\x06")),
            ScanRange::new(b"\xFF\xFE", None),
        ];
        let rev = Spec {
            reverse: true,
            ..Spec::default()
        };
        let steps = steps(&rev, &group);
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0], [group[2].clone()]);
        assert_eq!(steps[1], group[..2]);
        // forward, the filter orders the ranges by their start rows: one scanner
        assert_eq!(super::steps(&Spec::default(), &group).len(), 1);
    }
}
