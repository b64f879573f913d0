//! Typed reads of [`ScanRanges`]: one `ReadRows` stream per **ordered group** of ranges (a salt
//! bucket, or every range of a key without a salt), at most [`streams`](Read::streams) of them
//! at a time, merged back into the key's logical order.
//!
//! A group's ranges travel in the `RowSet` of one request, split so that no request carries
//! more than [`max_request_bytes`](Read::max_request_bytes) of row keys (requests of about
//! 512 KiB of keys fail on Cloud Bigtable): an IN-list of 50,000 values is a few requests per
//! bucket, not 50,000 streams. The transport is this crate's; everything else — the groups,
//! cutting the ranges after the resume key, merging the streams in logical order, the row
//! limit, decoding the keys — is [`rowkey::read::Read`]'s, the store-agnostic reader that every
//! store of `rowkey` shares.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};

use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
use bigtable_rs::google::bigtable::v2::{
    read_rows_request::RequestStatsView, row_range, RowFilter, RowRange, RowSet,
};
use std::collections::VecDeque;
use std::sync::Arc;

use futures_util::{Stream, StreamExt, TryStreamExt};
use rowkey::read::{after_in_byte_order, batches, ReadError};
use rowkey::{ScanRange, ScanRanges};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::{retry, Error, Row, RowCell, Table, TypedKey};

/// A row as the client decodes it: the key and its cells.
pub(crate) type RawRow = (Vec<u8>, Vec<RowCell>);

/// One range's rows, in the order the server sent them.
pub(crate) type RowStream = Pin<Box<dyn Stream<Item = Result<RawRow, Error>> + Send>>;

/// The stream of a typed read: `(key, row)` pairs in the read's order.
pub type TypedRows<T> = Pin<Box<dyn Stream<Item = Result<(T, Row), Error>> + Send>>;

/// A typed read of a [`ScanRanges`], built by [`Table::read`]. Set options, then call
/// [`stream`](Read::stream) or [`collect`](Read::collect).
///
/// By default each range is read by its own `ReadRows` request; the requests run concurrently
/// and their rows are merged into the key's **logical order** — the order of the key after its
/// salt, which is the order of the key's fields. The salt width comes from `T::LAYOUT`: there is
/// nothing to pass. The options may be set in any order ([`after`](Read::after) applies to
/// the read's final direction), and a [`rowkey::read::Read`] does the resuming, merging,
/// limiting and decoding, exactly as for any other store.
///
/// ```no_run
/// # use rowkey::RowKey;
/// # #[derive(RowKey, Debug, Clone, PartialEq)]
/// # struct OrderBySeller { #[salt(buckets = 16)] seller_id: u64, #[reverse_ts] created_ms: i64, #[sep] order_no: String }
/// # async fn demo(table: rowkey_bigtable::Table) -> Result<(), rowkey_bigtable::Error> {
/// use futures_util::TryStreamExt;
///
/// // Every seller's orders: 16 ranges (one per salt bucket), merged newest-first.
/// let ranges = OrderBySeller::scan().ranges();
/// let page = table.read::<OrderBySeller>(&ranges).limit(100).collect().await?;
/// // The next page, across all buckets, resumes after the last key seen.
/// if let Some((last, _)) = page.last() {
///     let next = table.read::<OrderBySeller>(&ranges).after(last)?.limit(100).collect().await?;
/// }
/// // Oldest first: the same ranges read in reverse.
/// let mut oldest = table.read::<OrderBySeller>(&ranges).reverse().stream();
/// while let Some((order, row)) = oldest.try_next().await? { /* … */ }
/// # Ok(()) }
/// ```
#[must_use = "a Read does nothing until .stream() or .collect()"]
pub struct Read<T> {
    table: Table,
    /// Resume, direction, limit, merge order and decoding.
    read: rowkey::read::Read<T>,
    /// The limit as given, for each range's request limit.
    limit: Option<u64>,
    single: bool,
    filter: Option<RowFilter>,
    chunk: Option<u64>,
    streams: usize,
    max_request_bytes: usize,
}

/// Streams a read runs at once unless [`Read::streams`] says otherwise.
pub const DEFAULT_STREAMS: usize = 8;

/// Bytes of row keys (range starts and ends) in one request's `RowSet` unless
/// [`Read::max_request_bytes`] says otherwise: well under the ~512 KiB at which Cloud Bigtable
/// refuses a request.
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 256 * 1024;

impl<T: TypedKey> Read<T> {
    pub(crate) fn new(table: Table, ranges: &ScanRanges) -> Self {
        Read {
            table,
            read: rowkey::read::Read::new(ranges.clone()),
            limit: None,
            single: false,
            filter: None,
            chunk: None,
            streams: DEFAULT_STREAMS,
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
        }
    }

    /// Run at most `n` `ReadRows` streams at once (default [`DEFAULT_STREAMS`]; at least 1),
    /// whatever the number of ranges and salt buckets. A stream reads one chunk of a group
    /// whole, then gives its turn to the next group waiting.
    pub fn streams(mut self, n: usize) -> Self {
        self.streams = n.max(1);
        self
    }

    /// Put at most `n` bytes of row keys in one request's `RowSet` (default
    /// [`DEFAULT_MAX_REQUEST_BYTES`]; at least one range per request): a group with more is
    /// read in several requests, one after the other.
    pub fn max_request_bytes(mut self, n: usize) -> Self {
        self.max_request_bytes = n;
        self
    }

    /// The requests the read sends first, in order, as the ranges in their `RowSet`s: one list
    /// per group (salt bucket), each request within the byte budget. (A request that comes back
    /// full, [`chunk_rows`](Read::chunk_rows) rows, is followed by one for what is left of its
    /// ranges.)
    pub fn requests(&self) -> Vec<Vec<ScanRanges>> {
        self.read
            .groups()
            .into_iter()
            .map(|g| {
                let mut b: Vec<ScanRanges> = batches(g, self.max_request_bytes)
                    .into_iter()
                    .map(|b| ScanRanges::new(b.to_vec()))
                    .collect();
                if self.read.is_reverse() {
                    b.reverse();
                }
                b
            })
            .collect()
    }

    /// At most `n` rows in all (each range's request is limited to `n` too).
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(u64::try_from(n).unwrap_or(u64::MAX));
        self.read = self.read.limit(n);
        self
    }

    /// Read in reverse: the largest logical key first (newest first on an ascending time
    /// index). Each range is read with Bigtable's reversed `ReadRows` and the descending
    /// streams are merged. Calling it twice is calling it once.
    pub fn reverse(mut self) -> Self {
        self.read = self.read.reverse();
        self
    }

    /// Resume after `key`: only rows that come after it in this read's order (after it in
    /// logical order for a merged read, before it for a reverse read, after it in byte order
    /// for a [`single_request`](Read::single_request) read). Pass the last key of the previous
    /// page to get the next one, across every salt bucket. Calling it again replaces the key.
    ///
    /// # Errors
    ///
    /// The key does not encode.
    pub fn after(self, key: &T) -> Result<Self, Error> {
        let bytes = key.to_row_key()?;
        Ok(self.after_key(&bytes))
    }

    /// [`after`](Read::after) with the encoded row key.
    pub fn after_key(mut self, key: &[u8]) -> Self {
        self.read = self.read.after_key(key);
        self
    }

    /// A Bigtable row filter applied to every row (e.g. only the latest cell per column). The
    /// rows themselves are chosen by the ranges.
    pub fn filter(mut self, filter: RowFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Read every range as **one** group, in byte order, instead of one group per salt bucket
    /// merged in logical order: one stream (in requests within the byte budget). Bigtable then
    /// returns the rows in **byte order** (ascending, or descending with
    /// [`reverse`](Read::reverse)) — salt bucket by salt bucket, not in the key's logical order.
    /// Use it when the order does not matter (counting, exporting) or the key has no salt; with
    /// a salt and a limit it returns the first rows of the lowest buckets, not the first rows
    /// of the key order.
    pub fn single_request(mut self) -> Self {
        self.single = true;
        self.read = self.read.byte_order();
        self
    }

    /// Rows per `ReadRows` request (default: 8192 divided by the number of concurrent
    /// streams, between 128 and 4096). A range is read in requests of at most this many rows,
    /// each continuing after the last key of the one before, so that no stream has more than
    /// `n` rows in flight.
    ///
    /// Why: the HTTP/2 library (`h2` ≥ 0.4.16) closes a connection ("too_many_data_frames",
    /// `ENHANCE_YOUR_CALM`) that holds too many small DATA frames the application has not read
    /// yet. The emulator sends one row per message, so 16 concurrent streams of small rows
    /// read slower than the emulator writes them can trip it; bounding each request bounds
    /// what is buffered. Cloud Bigtable packs many rows per message and is not affected, so
    /// larger values only save requests there.
    pub fn chunk_rows(mut self, n: u64) -> Self {
        self.chunk = Some(n.max(1));
        self
    }

    /// The rows as a stream of `(key, row)`, decoded as `T`. A row whose key does not decode is
    /// an [`Error::Decode`] item naming the key; the stream goes on after it.
    ///
    /// # Errors mid-read
    ///
    /// A `ReadRows` stream that breaks with a transient status (`Unavailable`,
    /// `DeadlineExceeded`, `Aborted`, an `RST_STREAM` reset, a broken connection) is sent again
    /// for what it had still to read — after the last row it returned, in its direction, with
    /// its limit lowered — after a growing pause, until the client's retry budget
    /// ([`Client::with_retry_for`](crate::Client::with_retry_for)) is spent: the stream you
    /// read goes on with no row twice and none skipped. Any other failure, or a spent budget
    /// ([`Error::GaveUp`]), is **one error item, and the stream ends there**: every row before
    /// it is in the read's order and none after it is missing silently (the rows of the other
    /// salt buckets are not served past a bucket that failed).
    pub fn stream(self) -> TypedRows<T>
    where
        T: Send + 'static,
    {
        let requests = self.requests();
        let Read {
            table,
            read,
            limit,
            filter,
            chunk,
            streams,
            ..
        } = self;
        // The ranges are already cut after the resume key, in every salt bucket (or in byte
        // order for a single group).
        if requests.is_empty() {
            // An empty RowSet means "the whole table" to Bigtable: never send one.
            return Box::pin(futures_util::stream::empty());
        }
        let reverse = read.is_reverse();
        let template = ReadRowsRequest {
            table_name: table.name().to_owned(),
            app_profile_id: table.app_profile().to_owned(),
            filter,
            request_stats_view: RequestStatsView::RequestStatsNone as i32,
            reversed: reverse,
            ..ReadRowsRequest::default()
        };
        let groups = requests.len();
        let chunk = chunk.unwrap_or_else(|| (8192 / groups as u64).clamp(128, 4096));
        let permits = (streams < groups).then(|| Arc::new(Semaphore::new(streams)));
        let sources: Vec<RowStream> = requests
            .into_iter()
            .map(|batches| {
                let batches = batches
                    .iter()
                    .map(|b| b.iter().map(Span::of).collect())
                    .collect();
                Box::pin(
                    Chunked::new(
                        table.clone(),
                        template.clone(),
                        batches,
                        chunk,
                        limit,
                        reverse,
                    )
                    .with_permits(permits.clone()),
                ) as RowStream
            })
            .collect();
        let layout = T::LAYOUT.name;
        let rows = read.stream_keyed(sources).map(move |item| match item {
            Ok((key_type, key, cells)) => Ok((key_type, Row { key, cells })),
            Err(ReadError::Decode { key, error }) => Err(Error::Decode {
                layout,
                key,
                source: error,
            }),
            Err(ReadError::Store(e)) => Err(e),
        });
        Box::pin(until_failed(rows))
    }

    /// All rows, or the first error.
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](Read::stream).
    pub async fn collect(self) -> Result<Vec<(T, Row)>, Error>
    where
        T: Send + 'static,
    {
        self.stream().try_collect().await
    }

    /// The keys only (cells are still transferred; add a [`filter`](Read::filter) such as
    /// `StripValueTransformer` to avoid that).
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](Read::stream).
    pub async fn keys(self) -> Result<Vec<T>, Error>
    where
        T: Send + 'static,
    {
        self.stream().map_ok(|(k, _)| k).try_collect().await
    }
}

impl<T: TypedKey> core::fmt::Debug for Read<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Read")
            .field("table", &self.table.id())
            .field("ranges", self.read.ranges())
            .field("skip", &self.read.salt_width())
            .field("limit", &self.limit)
            .field("reverse", &self.read.is_reverse())
            .field("after", &self.read.resume_key())
            .field("single_request", &self.single)
            .field("streams", &self.streams)
            .field("max_request_bytes", &self.max_request_bytes)
            .finish_non_exhaustive()
    }
}

/// `rows` up to and including its first error item other than [`Error::Decode`]: a merged
/// read stops where one of its streams failed, rather than go on with a gap.
pub(crate) fn until_failed<S, T>(rows: S) -> impl Stream<Item = Result<T, Error>> + Send
where
    S: Stream<Item = Result<T, Error>> + Send,
    T: Send,
{
    rows.scan(false, |failed, item| {
        let out = (!*failed).then(|| {
            *failed = matches!(&item, Err(e) if !matches!(e, Error::Decode { .. }));
            item
        });
        core::future::ready(out)
    })
}

/// The rows of `request`, resumed after the last row returned when the stream fails with a
/// transient status (the request cut by [`retry::resume_request`], after a pause), until the
/// table's retry budget is spent: then an [`Error::GaveUp`] item ends the stream. A failure
/// that is not transient is an error item and ends it too.
pub(crate) fn resuming(
    table: Table,
    request: ReadRowsRequest,
) -> impl Stream<Item = Result<RawRow, Error>> + Send {
    struct Resume {
        table: Table,
        /// What is left to read, as it was last sent; `None`: done.
        request: Option<ReadRowsRequest>,
        rows: Option<RowStream>,
        /// The last row of the current attempt, and how many it returned.
        last: Option<Vec<u8>>,
        returned: u64,
        attempts: retry::Attempts,
    }
    let attempts = retry::Attempts::new(table.retry());
    let state = Resume {
        table,
        request: Some(request),
        rows: None,
        last: None,
        returned: 0,
        attempts,
    };
    futures_util::stream::unfold(state, |mut st| async move {
        loop {
            let request = st.request.as_ref()?;
            let failure = match &mut st.rows {
                None => match st.table.read_rows_once(request.clone()).await {
                    Ok(rows) => {
                        st.rows = Some(rows);
                        continue;
                    }
                    Err(e) => e,
                },
                Some(rows) => match rows.next().await {
                    Some(Ok(row)) => {
                        st.returned += 1;
                        st.last = Some(row.0.clone());
                        st.attempts.progress();
                        return Some((Ok(row), st));
                    }
                    Some(Err(e)) => e,
                    // the request read whole: done
                    None => return None,
                },
            };
            st.rows = None;
            let status = match retry::transient(failure) {
                Ok(status) => status,
                Err(other) => {
                    st.request = None;
                    return Some((Err(other), st));
                }
            };
            let now = std::time::Instant::now();
            let Some(pause) = st.attempts.failed(now) else {
                st.request = None;
                let e = Error::GaveUp {
                    call: "ReadRows",
                    attempts: st.attempts.made(),
                    failing_for: st.attempts.spent(now),
                    budget: st.attempts.budget(),
                    last: status,
                };
                return Some((Err(e), st));
            };
            // what is left: after the last row returned, the limit lowered; done when none
            st.request = retry::resume_request(request, st.last.as_deref(), st.returned);
            st.last = None;
            st.returned = 0;
            st.request.as_ref()?;
            retry::pause(pause).await;
        }
    })
}

/// A byte range of the table, as one `RowRange` of a request: from `start` (inclusive; empty:
/// the start of the table) to `stop` (exclusive; `None`: the end of the table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Span(ScanRange);

impl Span {
    pub(crate) fn of(r: &ScanRange) -> Span {
        Span(r.clone())
    }

    /// The part of the span after `key` (forward) or before it (reverse), in byte order;
    /// `None` when nothing is left. The one cut-after-a-key rule of every store's resumed read:
    /// [`after_in_byte_order`].
    pub(crate) fn after(&self, key: &[u8], reverse: bool) -> Option<Span> {
        after_in_byte_order(core::slice::from_ref(&self.0), key, reverse)
            .as_slice()
            .first()
            .map(Span::of)
    }

    fn row_range(&self) -> RowRange {
        let start = self.0.start();
        RowRange {
            start_key: (!start.is_empty())
                .then(|| row_range::StartKey::StartKeyClosed(start.to_vec())),
            end_key: self
                .0
                .stop()
                .map(|e| row_range::EndKey::EndKeyOpen(e.to_vec())),
        }
    }
}

type Pending = Pin<Box<dyn Future<Output = Result<RowStream, Error>> + Send>>;
/// A turn among the read's streams, held (never read) until dropped.
type Turn = Option<OwnedSemaphorePermit>;
type Acquire =
    Pin<Box<dyn Future<Output = Result<OwnedSemaphorePermit, tokio::sync::AcquireError>> + Send>>;

enum State {
    /// No request yet, or the last chunk was served and the next is to be sent.
    Idle,
    /// Waiting for a turn among the read's streams.
    Waiting(Acquire),
    /// A request is being sent (holding a turn, if the read has turns).
    Sending(Pending, Option<OwnedSemaphorePermit>),
    /// A chunk's rows are arriving. With a turn, they are kept until the chunk ends, then the
    /// turn is given back: a stream never holds a turn while the merge waits on another group.
    /// Without turns (a read with no more groups than streams) they are yielded as they come.
    Reading(RowStream, Turn),
    /// Serving a chunk received whole.
    Serving,
    Done,
}

/// The rows of batches of spans, batch after batch, each in requests of at most `chunk` rows:
/// when a chunk comes back full, the next request continues after its last key (see
/// [`Read::chunk_rows`]); a short one ends its batch. With permits, a request waits for one and
/// gives it back once its chunk has arrived whole.
pub(crate) struct Chunked {
    table: Table,
    template: ReadRowsRequest,
    /// The batches still to read, the current one first (each one request's `RowSet`).
    batches: VecDeque<Vec<Span>>,
    chunk: u64,
    /// Rows still wanted (the read's limit).
    remaining: Option<u64>,
    reverse: bool,
    state: State,
    permits: Option<Arc<Semaphore>>,
    /// The current chunk: rows received, and the rows_limit it was sent with.
    buf: VecDeque<RawRow>,
    in_chunk: u64,
    asked: u64,
    last: Option<Vec<u8>>,
    /// An error that ended a chunk, yielded after the rows received before it.
    failed: Option<Error>,
}

impl Chunked {
    /// The rows of `batches` of spans in byte order (descending when `reverse`), in requests
    /// of at most `chunk` rows built from `template`, at most `limit` rows in all.
    pub(crate) fn new(
        table: Table,
        template: ReadRowsRequest,
        batches: Vec<Vec<Span>>,
        chunk: u64,
        limit: Option<u64>,
        reverse: bool,
    ) -> Self {
        Chunked {
            table,
            template,
            batches: batches.into_iter().filter(|b| !b.is_empty()).collect(),
            chunk,
            remaining: limit,
            reverse,
            state: State::Idle,
            permits: None,
            buf: VecDeque::new(),
            in_chunk: 0,
            asked: 0,
            last: None,
            failed: None,
        }
    }

    /// Take turns with the other streams of `permits` (`None`: no turns).
    pub(crate) fn with_permits(mut self, permits: Option<Arc<Semaphore>>) -> Self {
        self.permits = permits;
        self
    }

    /// The next request, or `Done` when nothing is left to read.
    fn start(&mut self) -> State {
        let asked = self.remaining.map_or(self.chunk, |r| r.min(self.chunk));
        if asked == 0 || self.batches.is_empty() {
            return State::Done;
        }
        match &self.permits {
            Some(p) => State::Waiting(Box::pin(p.clone().acquire_owned())),
            None => self.send(None),
        }
    }

    fn send(&mut self, permit: Option<OwnedSemaphorePermit>) -> State {
        let asked = self.remaining.map_or(self.chunk, |r| r.min(self.chunk));
        let Some(spans) = self.batches.front() else {
            return State::Done;
        };
        self.asked = asked;
        self.in_chunk = 0;
        let request = ReadRowsRequest {
            rows: Some(RowSet {
                row_keys: vec![],
                row_ranges: spans.iter().map(Span::row_range).collect(),
            }),
            rows_limit: i64::try_from(asked).unwrap_or(i64::MAX),
            ..self.template.clone()
        };
        let table = self.table.clone();
        State::Sending(
            Box::pin(async move { table.read_rows_raw(request).await }),
            permit,
        )
    }

    /// After a chunk was served: continue the batch after its last key when the chunk came
    /// back full, or go on to the next batch.
    fn advance(&mut self) {
        match (&self.last, self.in_chunk < self.asked) {
            (Some(last), false) => {
                let reverse = self.reverse;
                if let Some(front) = self.batches.front_mut() {
                    *front = front
                        .iter()
                        .filter_map(|s| s.after(last, reverse))
                        .collect();
                    if front.is_empty() {
                        self.batches.pop_front();
                    }
                }
            }
            _ => {
                self.batches.pop_front();
            }
        }
    }
}

impl Stream for Chunked {
    type Item = Result<RawRow, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            match &mut this.state {
                State::Done => return Poll::Ready(this.failed.take().map(Err)),
                State::Idle => this.state = this.start(),
                State::Waiting(turn) => match turn.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(permit)) => this.state = this.send(Some(permit)),
                    Poll::Ready(Err(_)) => {
                        this.state = State::Done;
                        return Poll::Ready(Some(Err(Error::Grpc(tonic::Status::cancelled(
                            "the read's streams were closed",
                        )))));
                    }
                },
                State::Sending(fut, permit) => match fut.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(rows)) => {
                        let permit = permit.take();
                        this.state = State::Reading(rows, permit);
                    }
                    Poll::Ready(Err(e)) => {
                        this.state = State::Done;
                        return Poll::Ready(Some(Err(e)));
                    }
                },
                State::Reading(rows, turn) => match rows.as_mut().poll_next(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Some(Ok(row))) => {
                        this.in_chunk += 1;
                        if turn.is_none() {
                            // no turns to give back: the rows go to the merge as they come
                            if let Some(r) = &mut this.remaining {
                                *r = r.saturating_sub(1);
                            }
                            this.last = Some(row.0.clone());
                            return Poll::Ready(Some(Ok(row)));
                        }
                        this.buf.push_back(row);
                    }
                    Poll::Ready(Some(Err(e))) => {
                        // the rows received before the error are served first
                        this.failed = Some(e);
                        this.batches.clear();
                        this.state = State::Serving;
                    }
                    // the chunk is whole: give the turn back, serve it
                    Poll::Ready(None) => this.state = State::Serving,
                },
                State::Serving => {
                    if let Some(row) = this.buf.pop_front() {
                        if let Some(r) = &mut this.remaining {
                            *r = r.saturating_sub(1);
                        }
                        this.last = Some(row.0.clone());
                        return Poll::Ready(Some(Ok(row)));
                    }
                    if this.failed.is_some() {
                        this.state = State::Done;
                        continue;
                    }
                    this.advance();
                    this.state = State::Idle;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merged_read_ends_at_its_first_failure_not_at_a_decode_error() {
        let decode = || Error::Decode {
            layout: "K",
            key: vec![1],
            source: rowkey::DecodeError::truncated(0, 4, 2),
        };
        let items: Vec<Result<u8, Error>> = vec![
            Ok(1),
            Err(decode()),
            Ok(2),
            Err(Error::Grpc(tonic::Status::unavailable("gone"))),
            Ok(3),
            Err(Error::Grpc(tonic::Status::unavailable("gone again"))),
        ];
        let out: Vec<_> =
            futures::executor::block_on(until_failed(futures_util::stream::iter(items)).collect());
        assert_eq!(out.len(), 4);
        assert!(matches!(out[1], Err(Error::Decode { .. })));
        assert!(matches!(&out[3], Err(Error::Grpc(s)) if s.message() == "gone"));
    }

    fn span(start: &[u8], end: Option<&[u8]>) -> Span {
        Span::of(&ScanRange::new(start, end))
    }

    #[test]
    fn span_after_forward_and_reverse() {
        let r = Span::of(&ScanRange::new(b"\x03a", Some(b"\x03z")));
        assert_eq!(
            r.after(b"\x03m", false),
            Some(span(b"\x03m\x00", Some(b"\x03z")))
        );
        assert_eq!(
            r.after(b"\x03m", true),
            Some(span(b"\x03a", Some(b"\x03m")))
        );
        assert_eq!(r.after(b"\x03z", false), None);
        assert_eq!(r.after(b"\x03a", true), None);
        assert_eq!(
            r.after(b"\x03", false),
            Some(r.clone()),
            "before the span: whole"
        );
        assert_eq!(
            r.after(b"\x04", true),
            Some(r.clone()),
            "after the span: whole"
        );
        // no upper bound (an all-0xFF prefix)
        let open = Span::of(&ScanRange::new(b"\xFF\xFF", None));
        assert_eq!(
            open.after(b"\xFF\xFF\x05", true),
            Some(span(b"\xFF\xFF", Some(b"\xFF\xFF\x05")))
        );
        assert_eq!(open.row_range().end_key, None);
        // the start of the table
        let all = Span::of(&ScanRange::new(b"", None));
        assert_eq!(all.row_range(), RowRange::default());
        assert_eq!(
            all.after(b"k", false).map(|s| s.row_range().start_key),
            Some(Some(row_range::StartKey::StartKeyClosed(b"k\x00".to_vec())))
        );
    }
}
