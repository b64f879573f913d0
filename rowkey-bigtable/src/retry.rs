//! Failure handling of every data call, as the official Bigtable clients do it: which statuses
//! are transient, the pauses between attempts, the budget, where a broken `ReadRows` stream
//! resumes, and which `MutateRows` entries may be sent again.
//!
//! - **Transient** ([`retryable`]): `UNAVAILABLE`, `DEADLINE_EXCEEDED`, `ABORTED` (the codes of
//!   Go's `idempotentRetryCodes` and of the Java and Node.js clients), an `INTERNAL` status
//!   whose message says the stream was reset (`RST_STREAM`, `rst stream`, "received unexpected
//!   EOS on DATA frame"), and a status tonic made itself because the connection broke (an I/O
//!   error, or hyper's "connection closed", in its source chain; a status from the server has
//!   no source) — where a grpc-java client reports `UNAVAILABLE`.
//! - **Pauses** ([`Backoff`]): 50 ms growing ×2 up to 2 s, each drawn at random between half
//!   and all of it (jitter, so that the streams of one read do not reconnect in step).
//! - **Budget** ([`Attempts`]): the time since the first failure that followed the last
//!   progress (a row returned, an entry written); once spent the call fails with
//!   [`Error::GaveUp`](crate::Error::GaveUp). A long read that keeps moving is never cut short.
//! - **Where a read resumes** ([`resume_request`]): after the last row it returned, the
//!   request's `RowSet` cut with [`rowkey::read::after_in_byte_order`] (the one cut-after-a-key
//!   rule of every store), its `rows_limit` lowered by the rows returned. Nothing left means the
//!   read is done: an empty `RowSet` would read the whole table.
//! - **Which writes are retried** ([`idempotent`]): an entry with no `SetCell` at server time
//!   (timestamp `-1`) and no `AddToCell`/`MergeToCell` — the rule of Go's
//!   `mutationsAreRetryable` and Java's `Mutation::isIdempotent`.

use std::time::{Duration, Instant};

use bigtable_rs::google::bigtable::v2::mutation;
use bigtable_rs::google::bigtable::v2::{row_range, Mutation, ReadRowsRequest, RowRange, RowSet};
use rowkey::read::after_in_byte_order;
use rowkey::{ScanRange, ScanRanges};

/// How data calls are retried: see [`Client::with_retry_for`](crate::Client::with_retry_for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Retry {
    /// Give up once this long has passed since the first failure after the last progress.
    pub(crate) budget: Duration,
    pub(crate) first_backoff: Duration,
    pub(crate) max_backoff: Duration,
}

/// The retry budget of a [`Client`](crate::Client) unless
/// [`Client::with_retry_for`](crate::Client::with_retry_for) says otherwise: 60 s.
pub const DEFAULT_RETRY_FOR: Duration = Duration::from_secs(60);

impl Default for Retry {
    fn default() -> Retry {
        Retry {
            budget: DEFAULT_RETRY_FOR,
            first_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(2),
        }
    }
}

/// Whether a status is transient: the call may be sent again (see the module docs).
pub(crate) fn retryable(status: &tonic::Status) -> bool {
    use tonic::Code;
    match status.code() {
        Code::Unavailable | Code::DeadlineExceeded | Code::Aborted => true,
        Code::Internal => reset_message(status.message()) || broken_connection(status),
        Code::Unknown | Code::Cancelled => broken_connection(status),
        _ => false,
    }
}

/// The status of a transient failure (a client transport failure as `Unavailable`), or the
/// error back when it is not transient.
pub(crate) fn transient(e: crate::Error) -> Result<tonic::Status, crate::Error> {
    match e {
        crate::Error::Grpc(s) if retryable(&s) => Ok(s),
        crate::Error::Client(
            e @ (bigtable_rs::bigtable::Error::TransportError(_)
            | bigtable_rs::bigtable::Error::IoError(_)),
        ) => Ok(tonic::Status::unavailable(e.to_string())),
        other => Err(other),
    }
}

/// An `INTERNAL` message that says the server (or a proxy) reset the stream.
fn reset_message(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "rst_stream",
        "rst stream",
        "received unexpected eos on data frame from server",
    ]
    .iter()
    .any(|s| m.contains(s))
}

/// A status tonic made itself because the connection under the call broke: its source chain
/// (a status from the server has none) holds a tonic transport error, an I/O error, or
/// hyper's or h2's error for a connection that closed, was reset or went away — what
/// grpc-java and grpc-go report as `UNAVAILABLE`. Seen through the test proxy: `Unknown`
/// "h2 protocol error: error reading a body from connection" and "transport error" (an I/O
/// error inside), `Cancelled` "operation was canceled" (a tonic transport error around
/// hyper's `Canceled`, with or without "connection closed" inside).
fn broken_connection(status: &tonic::Status) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(status);
    while let Some(e) = source {
        if e.is::<std::io::Error>() || e.is::<tonic::transport::Error>() {
            return true;
        }
        let text = e.to_string().to_ascii_lowercase();
        if [
            "connection closed",
            "operation was canceled",
            "error reading a body from connection",
            "bytes remaining on stream",
            "connection reset",
            "connection error",
            "broken pipe",
            "go_away",
            "goaway",
        ]
        .iter()
        .any(|s| text.contains(s))
        {
            return true;
        }
        source = e.source();
    }
    false
}

/// Exponential pauses with jitter: `first`, then ×2 up to `max`, each drawn between half and
/// all of its nominal value.
#[derive(Debug, Clone)]
pub(crate) struct Backoff {
    next: Duration,
    max: Duration,
    seed: u64,
}

impl Backoff {
    pub(crate) fn new(first: Duration, max: Duration) -> Backoff {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9_7F4A_7C15, |d| {
                u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(0)
            })
            | 1;
        Backoff {
            next: first,
            max,
            seed,
        }
    }

    /// The nominal pause of the next attempt (before jitter).
    pub(crate) fn nominal(&self) -> Duration {
        self.next.min(self.max)
    }

    /// The next pause, and the one after grows.
    pub(crate) fn pause(&mut self) -> Duration {
        let nominal = self.nominal();
        // xorshift64: enough randomness to spread reconnections
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        let half = nominal / 2;
        let spread = u64::try_from(half.as_micros()).unwrap_or(u64::MAX);
        let extra = if spread == 0 { 0 } else { self.seed % spread };
        self.next = nominal.saturating_mul(2).min(self.max);
        half + Duration::from_micros(extra)
    }
}

/// Wait `d` without needing Tokio's time driver (a runtime built without `enable_time` would
/// panic on `tokio::time::sleep`): a short-lived thread wakes the task. Without a thread, no
/// pause.
pub(crate) async fn pause(d: Duration) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let spawned = std::thread::Builder::new()
        .name("rowkey-bigtable-backoff".into())
        .spawn(move || {
            std::thread::sleep(d);
            let _ = tx.send(());
        });
    if spawned.is_ok() {
        let _ = rx.await;
    }
}

/// The failures of one call since its last progress, against the budget.
#[derive(Debug, Clone)]
pub(crate) struct Attempts {
    retry: Retry,
    backoff: Backoff,
    /// The first failure since the last progress.
    since: Option<Instant>,
    /// Attempts made in all (1 for the first).
    made: u32,
}

impl Attempts {
    pub(crate) fn new(retry: Retry) -> Attempts {
        Attempts {
            retry,
            backoff: Backoff::new(retry.first_backoff, retry.max_backoff),
            since: None,
            made: 1,
        }
    }

    /// The call made progress: the budget and the pauses start again at the next failure.
    pub(crate) fn progress(&mut self) {
        // the pauses only grow after a failure: nothing to reset without one (a read calls
        // this for every row)
        if self.since.take().is_some() {
            self.backoff = Backoff::new(self.retry.first_backoff, self.retry.max_backoff);
        }
    }

    /// A transient failure: the pause before the next attempt, or `None` when the budget is
    /// spent (the pause would end after it).
    pub(crate) fn failed(&mut self, now: Instant) -> Option<Duration> {
        let since = *self.since.get_or_insert(now);
        let spent = now.saturating_duration_since(since);
        let pause = self.backoff.pause();
        if spent + pause > self.retry.budget {
            return None;
        }
        self.made += 1;
        Some(pause)
    }

    /// Attempts made so far.
    pub(crate) fn made(&self) -> u32 {
        self.made
    }

    /// Time since the first failure after the last progress.
    pub(crate) fn spent(&self, now: Instant) -> Duration {
        self.since
            .map_or(Duration::ZERO, |s| now.saturating_duration_since(s))
    }

    pub(crate) fn budget(&self) -> Duration {
        self.retry.budget
    }
}

/// A `RowRange` as the `ScanRange` of the same rows: an open start `k` is the closed start
/// `k\0`, a closed end `k` the open end `k\0` (nothing lies between a key and the key with a
/// zero byte appended).
fn scan_range(r: &RowRange) -> ScanRange {
    let start = match &r.start_key {
        None => Vec::new(),
        Some(row_range::StartKey::StartKeyClosed(k)) => k.clone(),
        Some(row_range::StartKey::StartKeyOpen(k)) => [k.as_slice(), &[0]].concat(),
    };
    let stop = match &r.end_key {
        None => None,
        Some(row_range::EndKey::EndKeyOpen(k)) if k.is_empty() => None,
        Some(row_range::EndKey::EndKeyClosed(k)) if k.is_empty() => None,
        Some(row_range::EndKey::EndKeyOpen(k)) => Some(k.clone()),
        Some(row_range::EndKey::EndKeyClosed(k)) => Some([k.as_slice(), &[0]].concat()),
    };
    ScanRange::new(&start, stop.as_deref())
}

fn row_range(r: &ScanRange) -> RowRange {
    let start = r.start();
    RowRange {
        start_key: (!start.is_empty()).then(|| row_range::StartKey::StartKeyClosed(start.to_vec())),
        end_key: r.stop().map(|e| row_range::EndKey::EndKeyOpen(e.to_vec())),
    }
}

/// The rows of a request: its `RowSet`, or the whole table for none (an empty one).
fn row_set_ranges(rows: Option<&RowSet>) -> (Vec<Vec<u8>>, Vec<ScanRange>) {
    match rows {
        Some(set) if !set.row_keys.is_empty() || !set.row_ranges.is_empty() => (
            set.row_keys.clone(),
            set.row_ranges.iter().map(scan_range).collect(),
        ),
        _ => (Vec::new(), vec![ScanRange::new(b"", None)]),
    }
}

/// The request that reads what `request` had still to read after it returned `returned` rows,
/// the last one `last` (in the request's order, descending when `reversed`): its `RowSet` cut
/// after `last`, its `rows_limit` lowered by `returned`. `None` when nothing is left: the
/// read is done (an empty `RowSet` would read the whole table, so none is ever sent).
pub(crate) fn resume_request(
    request: &ReadRowsRequest,
    last: Option<&[u8]>,
    returned: u64,
) -> Option<ReadRowsRequest> {
    let rows_limit = if request.rows_limit > 0 {
        let left = request
            .rows_limit
            .saturating_sub(i64::try_from(returned).unwrap_or(i64::MAX));
        if left <= 0 {
            return None;
        }
        left
    } else {
        request.rows_limit
    };
    let Some(last) = last else {
        // nothing returned yet: the same request again
        return Some(ReadRowsRequest {
            rows_limit,
            ..request.clone()
        });
    };
    let reverse = request.reversed;
    let (keys, ranges) = row_set_ranges(request.rows.as_ref());
    let keys: Vec<Vec<u8>> = keys
        .into_iter()
        .filter(|k| {
            if reverse {
                k.as_slice() < last
            } else {
                k.as_slice() > last
            }
        })
        .collect();
    let ranges = ScanRanges::new(ranges);
    let ranges = after_in_byte_order(ranges.as_slice(), last, reverse);
    if keys.is_empty() && ranges.is_empty() {
        return None;
    }
    Some(ReadRowsRequest {
        rows: Some(RowSet {
            row_keys: keys,
            row_ranges: ranges.iter().map(row_range).collect(),
        }),
        rows_limit,
        ..request.clone()
    })
}

/// Whether sending `mutations` twice leaves the row as sending them once: no cell written at
/// the server's time (`SetCell` with timestamp `-1`), no aggregate (`AddToCell`,
/// `MergeToCell`).
pub(crate) fn idempotent(mutations: &[Mutation]) -> bool {
    mutations.iter().all(|m| match &m.mutation {
        Some(mutation::Mutation::SetCell(s)) => s.timestamp_micros != -1,
        Some(mutation::Mutation::AddToCell(_) | mutation::Mutation::MergeToCell(_)) => false,
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::{Code, Status};

    fn closed(start: &[u8], end: &[u8]) -> RowRange {
        RowRange {
            start_key: Some(row_range::StartKey::StartKeyClosed(start.to_vec())),
            end_key: Some(row_range::EndKey::EndKeyOpen(end.to_vec())),
        }
    }

    fn request(
        keys: &[&[u8]],
        ranges: Vec<RowRange>,
        limit: i64,
        reversed: bool,
    ) -> ReadRowsRequest {
        ReadRowsRequest {
            table_name: "t".into(),
            rows: Some(RowSet {
                row_keys: keys.iter().map(|k| k.to_vec()).collect(),
                row_ranges: ranges,
            }),
            rows_limit: limit,
            reversed,
            ..ReadRowsRequest::default()
        }
    }

    /// The rows of a request out of a sorted "table" of keys, in the request's order.
    fn read(table: &[Vec<u8>], r: &ReadRowsRequest) -> Vec<Vec<u8>> {
        let (keys, ranges) = row_set_ranges(r.rows.as_ref());
        let mut rows: Vec<Vec<u8>> = table
            .iter()
            .filter(|k| keys.contains(k) || ranges.iter().any(|s| s.contains(k)))
            .cloned()
            .collect();
        if r.reversed {
            rows.reverse();
        }
        if r.rows_limit > 0 {
            rows.truncate(usize::try_from(r.rows_limit).unwrap_or(usize::MAX));
        }
        rows
    }

    #[test]
    fn statuses_transient_and_not() {
        for code in [Code::Unavailable, Code::DeadlineExceeded, Code::Aborted] {
            assert!(retryable(&Status::new(code, "x")), "{code:?}");
        }
        for code in [
            Code::InvalidArgument,
            Code::NotFound,
            Code::PermissionDenied,
            Code::ResourceExhausted,
            Code::FailedPrecondition,
            Code::Unimplemented,
            Code::Unauthenticated,
            Code::OutOfRange,
            Code::AlreadyExists,
        ] {
            assert!(
                !retryable(&Status::new(code, "connection reset")),
                "{code:?}"
            );
        }
        assert!(retryable(&Status::internal(
            "stream terminated by RST_STREAM with error code: INTERNAL_ERROR"
        )));
        assert!(retryable(&Status::internal("Received Rst stream")));
        assert!(retryable(&Status::internal(
            "Received unexpected EOS on DATA frame from server"
        )));
        assert!(!retryable(&Status::internal("the row is corrupt")));
        assert!(!retryable(&Status::unknown("something the server said")));
        // a status from the server has no source: its words alone do not make it transient
        assert!(!retryable(&Status::unknown(
            "error reading a body from connection: connection reset"
        )));
        assert!(!retryable(&Status::cancelled("operation was canceled")));
        // tonic's own statuses for a connection that went away: the cause is their source
        let io = Status::from_error(Box::new(std::io::Error::other("bytes remaining on stream")));
        assert_eq!(io.code(), Code::Unknown);
        assert!(retryable(&io), "{io:?}");
        #[derive(Debug)]
        struct Hyper(&'static str);
        impl std::fmt::Display for Hyper {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.0)
            }
        }
        impl std::error::Error for Hyper {}
        let mut closed = Status::cancelled("operation was canceled");
        closed.set_source(std::sync::Arc::new(Hyper("connection closed")));
        assert!(retryable(&closed));
        let mut canceled = Status::cancelled("operation was canceled");
        canceled.set_source(std::sync::Arc::new(Hyper("operation was canceled")));
        assert!(retryable(&canceled));
        let mut body = Status::unknown("h2 protocol error: error reading a body from connection");
        body.set_source(std::sync::Arc::new(Hyper(
            "error reading a body from connection",
        )));
        assert!(retryable(&body));
        let mut other = Status::unknown("transport error");
        other.set_source(std::sync::Arc::new(Hyper("invalid certificate")));
        assert!(!retryable(&other));
    }

    #[test]
    fn backoff_grows_to_its_maximum_with_jitter() {
        let mut b = Backoff::new(Duration::from_millis(50), Duration::from_secs(2));
        let mut nominal = Duration::from_millis(50);
        for _ in 0..12 {
            assert_eq!(b.nominal(), nominal);
            let p = b.pause();
            assert!(p >= nominal / 2 && p <= nominal, "{p:?} of {nominal:?}");
            nominal = (nominal * 2).min(Duration::from_secs(2));
        }
        assert_eq!(b.nominal(), Duration::from_secs(2));
    }

    #[test]
    fn budget_counts_from_the_first_failure_after_progress() {
        let retry = Retry {
            budget: Duration::from_secs(1),
            first_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(400),
        };
        let mut a = Attempts::new(retry);
        let t0 = Instant::now();
        let mut at = t0;
        let mut pauses = 0;
        while let Some(p) = a.failed(at) {
            at += p;
            pauses += 1;
        }
        assert!(a.spent(at) <= retry.budget, "never past the budget");
        assert!(pauses >= 3, "{pauses} attempts within a second");
        assert_eq!(a.made(), 1 + pauses);
        // progress: a new budget
        a.progress();
        assert_eq!(a.spent(at), Duration::ZERO);
        assert!(a.failed(at + Duration::from_secs(5)).is_some());
        // no budget: no retry
        let mut none = Attempts::new(Retry {
            budget: Duration::ZERO,
            ..retry
        });
        assert_eq!(none.failed(t0), None);
        assert_eq!(none.budget(), Duration::ZERO);
    }

    #[test]
    fn resume_forward_reverse_keys_and_limits_against_brute_force() {
        let table: Vec<Vec<u8>> = (0u8..40)
            .map(|i| vec![b'a' + i / 10, b'0' + i % 10])
            .collect();
        let requests = [
            request(
                &[],
                vec![closed(b"a3", b"b5"), closed(b"c0", b"c9")],
                0,
                false,
            ),
            request(
                &[],
                vec![closed(b"a3", b"b5"), closed(b"c0", b"c9")],
                0,
                true,
            ),
            request(
                &[],
                vec![closed(b"a3", b"b5"), closed(b"c0", b"c9")],
                7,
                false,
            ),
            request(
                &[],
                vec![closed(b"a3", b"b5"), closed(b"c0", b"c9")],
                7,
                true,
            ),
            request(&[b"a1", b"b7", b"d2"], vec![closed(b"c0", b"c4")], 0, false),
            request(&[b"a1", b"b7", b"d2"], vec![closed(b"c0", b"c4")], 0, true),
            request(&[b"a1", b"b7", b"d2"], vec![closed(b"c0", b"c4")], 5, true),
            // every other kind of bound
            request(
                &[],
                vec![RowRange {
                    start_key: Some(row_range::StartKey::StartKeyOpen(b"a4".to_vec())),
                    end_key: Some(row_range::EndKey::EndKeyClosed(b"b2".to_vec())),
                }],
                0,
                false,
            ),
            request(
                &[],
                vec![RowRange {
                    start_key: Some(row_range::StartKey::StartKeyOpen(b"a4".to_vec())),
                    end_key: Some(row_range::EndKey::EndKeyClosed(b"b2".to_vec())),
                }],
                0,
                true,
            ),
            // the whole table, forward and reverse, with and without a limit
            ReadRowsRequest::default(),
            ReadRowsRequest {
                reversed: true,
                ..ReadRowsRequest::default()
            },
            ReadRowsRequest {
                reversed: true,
                rows_limit: 12,
                ..ReadRowsRequest::default()
            },
        ];
        for r in &requests {
            let whole = read(&table, r);
            assert!(!whole.is_empty(), "{r:?}");
            // broken after every possible number of rows: the rest, exactly
            for cut in 0..=whole.len() {
                let last = cut.checked_sub(1).and_then(|i| whole.get(i));
                let rest = resume_request(r, last.map(Vec::as_slice), cut as u64);
                let got = rest.as_ref().map_or(Vec::new(), |rest| read(&table, rest));
                assert_eq!(got, whole[cut..], "{r:?} cut after {cut}");
                if let Some(rest) = &rest {
                    let set = rest.rows.as_ref();
                    assert!(
                        set.is_some_and(|s| !s.row_keys.is_empty() || !s.row_ranges.is_empty())
                            || (cut == 0 && r.rows.is_none()),
                        "never an empty row set after a row: {rest:?}"
                    );
                }
            }
            // a second break after the first resumption
            let (a, b) = (whole.len() / 3, 2 * whole.len() / 3);
            if a > 0 && b > a {
                let first = resume_request(r, whole.get(a - 1).map(Vec::as_slice), a as u64);
                let first = first.as_ref().map_or_else(Vec::new, |f| {
                    resume_request(f, whole.get(b - 1).map(Vec::as_slice), (b - a) as u64)
                        .map_or_else(Vec::new, |g| read(&table, &g))
                });
                assert_eq!(first, whole[b..], "{r:?} twice");
            }
        }
    }

    #[test]
    fn done_means_done() {
        // the last range ended with the last row returned: nothing to send
        let r = request(&[], vec![closed(b"a", b"b")], 0, false);
        assert_eq!(
            resume_request(&r, Some(b"a\xff\xff"), 3).map(|_| ()),
            Some(())
        );
        assert_eq!(resume_request(&r, Some(b"b"), 3), None);
        let r = request(&[b"k"], vec![], 0, false);
        assert_eq!(resume_request(&r, Some(b"k"), 1), None);
        // the limit reached
        let r = request(&[], vec![closed(b"a", b"z")], 4, false);
        assert_eq!(resume_request(&r, Some(b"c"), 4), None);
        // a reverse read at the start of the table
        let r = ReadRowsRequest {
            reversed: true,
            ..ReadRowsRequest::default()
        };
        assert_eq!(resume_request(&r, Some(b""), 1), None);
        // nothing returned: the same request
        let r = request(&[], vec![closed(b"a", b"z")], 4, true);
        assert_eq!(resume_request(&r, None, 0), Some(r.clone()));
    }

    #[test]
    fn idempotent_mutations() {
        let set = |ts| Mutation {
            mutation: Some(mutation::Mutation::SetCell(mutation::SetCell {
                family_name: "f".into(),
                column_qualifier: b"q".to_vec(),
                timestamp_micros: ts,
                value: b"v".to_vec(),
            })),
        };
        let delete = Mutation {
            mutation: Some(mutation::Mutation::DeleteFromRow(
                mutation::DeleteFromRow {},
            )),
        };
        assert!(idempotent(&[set(1_000), set(0), delete.clone()]));
        assert!(!idempotent(&[set(1_000), set(-1)]));
        let add = Mutation {
            mutation: Some(mutation::Mutation::AddToCell(mutation::AddToCell::default())),
        };
        assert!(!idempotent(&[delete, add]));
        assert!(idempotent(&[]));
    }
}
