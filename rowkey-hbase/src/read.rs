//! Typed reads of [`ScanRanges`] from HBase, merged into the key's logical order by
//! [`rowkey::read`] (the one merge, decode, limit and resume of the workspace: this module only
//! opens the scanners).
//!
//! Each range of the read is one HBase scanner (`openScanner`, then `getScannerRows` pages of
//! [`page_rows`](Read::page_rows) rows, then `closeScanner`). By default, when there are
//! several ranges, every scanner runs on a thread and a connection of its own, one page ahead of
//! the merge (`concurrent`); with [`sequential`](Read::sequential) — and for a read of one range
//! — they share one connection and fetch a page only when the merge needs one.
//!
//! # Reverse reads
//!
//! [`reverse`](Read::reverse) sends HBase `reversed` scans and merges them largest-first. A
//! reversed HBase scan starts at its (inclusive) start row and stops before its (exclusive)
//! stop row, going down; a rowkey range is `[start, stop)`. So a reversed scanner starts at
//! `stop` (a row equal to `stop` is dropped) and ends with an `InclusiveStopFilter(start)`,
//! which ends the scan at the first row below `start` — never reading past the range.
//!
//! # Errors mid-read
//!
//! A scanner that fails (the gateway or HBase went away, a scanner lease expired: HBase drops a
//! scanner left idle longer than `hbase.client.scanner.timeout.period`, 60 s by default) yields
//! one [`Error`] item and ends: a read that was cut short always says so; it never ends as if
//! the range were exhausted.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::mpsc::{sync_channel, Receiver};

use rowkey::read::ReadError;
use rowkey::{DecodeRowKeyOwned, RowKey, ScanRange, ScanRanges};

use crate::thrift::{TColumn, TResult, TScan, TTHBaseServiceSyncClient};
use crate::{Client, Conn, Error, Row, Table};

/// Rows per `getScannerRows` call unless [`Read::page_rows`] says otherwise.
pub const DEFAULT_PAGE_ROWS: usize = 1000;

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
/// // every sensor, oldest first (16 reversed scanners merged), keys only
/// let oldest = table.read::<Reading>(&Reading::scan().ranges()).reverse().keys_only().keys()?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Read<T> {
    table: Table,
    ranges: ScanRanges,
    spec: Spec,
    after: Option<Vec<u8>>,
    concurrent: bool,
    _t: PhantomData<fn() -> T>,
}

/// How each scanner scans.
#[derive(Debug, Clone)]
struct Spec {
    reverse: bool,
    limit: Option<usize>,
    page_rows: usize,
    filter: Option<Vec<u8>>,
    keys_only: bool,
    families: Vec<Vec<u8>>,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            reverse: false,
            limit: None,
            page_rows: DEFAULT_PAGE_ROWS,
            filter: None,
            keys_only: false,
            families: Vec::new(),
        }
    }
}

/// The server-side filter: the user's, keys-only, and a reversed scanner's lower bound, joined
/// with `AND` (in this order, whatever the order of the builder calls).
fn filter_string(spec: &Spec, lower: Option<&[u8]>) -> Option<Vec<u8>> {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    if let Some(f) = &spec.filter {
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

impl<T: RowKey> Read<T> {
    pub(crate) fn new(table: Table, ranges: ScanRanges) -> Read<T> {
        Read {
            table,
            ranges,
            spec: Spec::default(),
            after: None,
            concurrent: true,
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

    /// Fetch the scanners' pages one at a time over one connection, as the merge needs them,
    /// instead of on a thread and connection per range.
    #[must_use]
    pub fn sequential(mut self) -> Self {
        self.concurrent = false;
        self
    }

    /// A server-side filter in HBase's filter language (`"ValueFilter(=, 'binary:x')"`,
    /// `"KeyOnlyFilter()"`, …), applied to every scanner.
    #[must_use]
    pub fn filter(mut self, filter: impl Into<Vec<u8>>) -> Self {
        self.spec.filter = Some(filter.into());
        self
    }

    /// Return only the row keys from the server (`KeyOnlyFilter` and `FirstKeyOnlyFilter`:
    /// each row comes back with one cell and an empty value); combined with
    /// [`filter`](Self::filter) by `AND`.
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

    /// The typed rows, in logical order. The scanners are opened here (lazily, for a
    /// sequential read).
    ///
    /// # Errors
    ///
    /// A scanner thread could not be started; errors of the scans come as items.
    pub fn rows(&self) -> Result<Rows<T>, Error>
    where
        T: DecodeRowKeyOwned,
    {
        let plan = self.plan();
        // One range has nothing to overlap with: its scanner runs on the caller's thread (the
        // hand-off to a thread of its own cost 1.24x against 1.05x, BENCHMARKS.md).
        let shared = if self.concurrent && plan.ranges().len() > 1 {
            None
        } else {
            Some(Rc::new(RefCell::new(None)))
        };
        let mut sources = Vec::with_capacity(plan.ranges().len());
        for r in plan.ranges() {
            let fetch = Fetch::new(&self.table, &self.spec, r);
            let source = match &shared {
                None => Source::spawn(self.table.client().clone(), fetch)?,
                Some(conn) => Source::Lazy {
                    client: self.table.client().clone(),
                    conn: conn.clone(),
                    fetch: Box::new(fetch),
                    buf: VecDeque::new(),
                },
            };
            sources.push(source);
        }
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

/// One range's scanner: what to open and where it is.
#[derive(Debug)]
struct Fetch {
    table: Vec<u8>,
    scan: TScan,
    page: i32,
    /// Drop a row with exactly this key (a reversed scan's start row is inclusive).
    skip: Option<Vec<u8>>,
    id: Option<i32>,
    done: bool,
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

impl Fetch {
    fn new(table: &Table, read: &Spec, r: &ScanRange) -> Fetch {
        // A reversed scanner starts at the range's stop row, inclusive, and drops that row:
        // it may take one row more than the limit.
        let extra = usize::from(read.reverse && r.stop().is_some());
        let limit = read.limit.map(|n| {
            i32::try_from(n.saturating_add(extra))
                .unwrap_or(i32::MAX)
                .max(1)
        });
        let page = i32::try_from(read.page_rows)
            .unwrap_or(i32::MAX)
            .min(limit.unwrap_or(i32::MAX));
        let lower = (read.reverse && !r.start().is_empty()).then(|| r.start());
        let filter = filter_string(read, lower);
        let (start, stop, skip) = if read.reverse {
            (
                r.stop().map(<[u8]>::to_vec),
                None,
                r.stop().map(<[u8]>::to_vec),
            )
        } else {
            (
                Some(r.start().to_vec()).filter(|s| !s.is_empty()),
                r.stop().map(<[u8]>::to_vec),
                None,
            )
        };
        let columns = (!read.families.is_empty()).then(|| {
            read.families
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
            filter,
            None,
            None,
            None,
            read.reverse,
            None,
            None,
            None,
            limit,
            None,
            None,
            None,
        );
        Fetch {
            table: table.name().as_bytes().to_vec(),
            scan,
            page,
            skip,
            id: None,
            done: false,
        }
    }

    /// The next page (`None` at the end); the scanner is closed at the end.
    fn next_page(&mut self, conn: &mut Conn) -> Result<Option<Vec<TResult>>, ::thrift::Error> {
        if self.done {
            return Ok(None);
        }
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = conn.open_scanner(self.table.clone(), self.scan.clone())?;
                self.id = Some(id);
                id
            }
        };
        let mut rows = conn.get_scanner_rows(id, self.page)?;
        // The gateway fills a page unless the scanner is exhausted (`ResultScanner.next(n)`):
        // a short page is the last one.
        let last = rows.len() < usize::try_from(self.page).unwrap_or(usize::MAX);
        if last {
            self.done = true;
            self.id = None;
            let _ = conn.close_scanner(id);
        }
        if let Some(skip) = &self.skip {
            rows.retain(|r| r.row.as_deref() != Some(skip.as_slice()));
        }
        Ok((!rows.is_empty())
            .then_some(rows)
            .or_else(|| (!last).then(Vec::new)))
    }

    fn close(&mut self, conn: &mut Conn) {
        if let Some(id) = self.id.take() {
            let _ = conn.close_scanner(id);
        }
        self.done = true;
    }
}

type Page = Result<Vec<TResult>, Error>;

/// One range's rows: a scanner on a thread of its own one page ahead, or a lazily fetched one
/// on a shared connection.
enum Source {
    Thread {
        pages: Receiver<Page>,
        buf: VecDeque<TResult>,
        failed: bool,
    },
    Lazy {
        client: Client,
        conn: Rc<RefCell<Option<Conn>>>,
        fetch: Box<Fetch>,
        buf: VecDeque<TResult>,
    },
}

impl Source {
    /// # Errors
    ///
    /// The system could not start a thread ([`Error::Connection`]).
    fn spawn(client: Client, mut fetch: Fetch) -> Result<Source, Error> {
        let (tx, rx) = sync_channel::<Page>(1);
        let spawned = std::thread::Builder::new()
            .name("rowkey-hbase-scanner".into())
            .spawn(move || {
                let mut conn = match client.checkout() {
                    Ok(c) => c,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    match fetch.next_page(&mut conn) {
                        Ok(Some(rows)) => {
                            if tx.send(Ok(rows)).is_err() {
                                // the read was dropped: free the scanner on the server
                                fetch.close(&mut conn);
                                client.give_back(conn);
                                return;
                            }
                        }
                        Ok(None) => {
                            client.give_back(conn);
                            return;
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e.into()));
                            return;
                        }
                    }
                }
            });
        spawned.map_err(|e| Error::Connection(format!("starting a scanner thread: {e}")))?;
        Ok(Source::Thread {
            pages: rx,
            buf: VecDeque::new(),
            failed: false,
        })
    }
}

fn split(r: TResult) -> (Vec<u8>, Row) {
    let row = Row::from(r);
    (row.key.clone(), row)
}

impl Iterator for Source {
    type Item = Result<(Vec<u8>, Row), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Source::Thread { pages, buf, failed } => loop {
                if let Some(r) = buf.pop_front() {
                    return Some(Ok(split(r)));
                }
                if *failed {
                    return None;
                }
                match pages.recv() {
                    Ok(Ok(rows)) => buf.extend(rows),
                    Ok(Err(e)) => {
                        *failed = true;
                        return Some(Err(e));
                    }
                    // the thread ended after the last page
                    Err(_) => return None,
                }
            },
            Source::Lazy {
                client,
                conn,
                fetch,
                buf,
            } => loop {
                if let Some(r) = buf.pop_front() {
                    return Some(Ok(split(r)));
                }
                if fetch.done {
                    return None;
                }
                let mut slot = conn.borrow_mut();
                if slot.is_none() {
                    match client.open() {
                        Ok(c) => *slot = Some(c),
                        Err(e) => {
                            fetch.done = true;
                            return Some(Err(e));
                        }
                    }
                }
                let c = slot.as_mut()?;
                match fetch.next_page(c) {
                    Ok(Some(rows)) => buf.extend(rows),
                    Ok(None) => return None,
                    Err(e) => {
                        fetch.done = true;
                        // the connection may be mid-message: the next scanner opens a new one
                        *slot = None;
                        return Some(Err(e.into()));
                    }
                }
            },
        }
    }
}

impl Drop for Source {
    fn drop(&mut self) {
        if let Source::Lazy { conn, fetch, .. } = self {
            if let Ok(mut slot) = conn.try_borrow_mut() {
                if let Some(c) = slot.as_mut() {
                    fetch.close(c);
                }
            }
        }
    }
}

/// The typed rows of a [`Read`], in logical order: `(key, row)` items, or an [`Error`] (a key
/// that does not decode — the read goes on — or a failed scan).
pub struct Rows<T> {
    inner: rowkey::read::Rows<T, Source>,
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
/// a typed read is measured against.
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
    range: ScanRange,
    spec: Spec,
}

impl RawScan {
    /// A forward scan of `range`.
    pub fn new(table: &Table, range: ScanRange) -> RawScan {
        RawScan {
            table: table.clone(),
            range,
            spec: Spec::default(),
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
        Ok(RawRows {
            source: Source::Lazy {
                client: self.table.client().clone(),
                conn: Rc::new(RefCell::new(None)),
                fetch: Box::new(Fetch::new(&self.table, &self.spec, &self.range)),
                buf: VecDeque::new(),
            },
            left: self.spec.limit.unwrap_or(usize::MAX),
        })
    }
}

/// The rows of a [`RawScan`].
pub struct RawRows {
    source: Source,
    left: usize,
}

impl Iterator for RawRows {
    type Item = Result<Row, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(self.source.next()?.map(|(_, row)| row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_doubles_quotes() {
        assert_eq!(quote(b"a'b"), b"'a''b'");
        assert_eq!(quote(b"\x00\xFF"), b"'\x00\xFF'");
    }

    #[test]
    fn the_filter_does_not_depend_on_the_order_of_the_calls() {
        let user = Spec {
            filter: Some(b"ValueFilter(=, 'binary:x')".to_vec()),
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
}
