//! The client's connections: a small pool that notices connections the gateway closed, and
//! retries of idempotent calls on fresh connections.
//!
//! A Thrift2 gateway closes a connection that has been idle for
//! `hbase.thrift.server.socket.read.timeout` (60 s by default), and every connection when it
//! restarts. A pooled connection is therefore checked before it is used: one that has been
//! idle longer than the client's idle limit is dropped, and one whose peer has closed it (a
//! non-blocking `peek` sees the end of the stream, or data nobody asked for) is dropped too.
//! A call that still fails on the connection (the gateway closed it a moment after the check,
//! or died mid-call) is retried on a fresh connection, with a backoff, when it is idempotent.

use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::gateway::{Opened, Seen};
use crate::thrift::{TResult, TScan, TTHBaseServiceSyncClient};
use crate::{Conn, Error};

/// The next connection's life: every connection the crate opens gets a number of its own.
static LIVES: AtomicU64 = AtomicU64::new(1);

/// A scanner the gateway opened on one connection.
///
/// A Thrift2 gateway numbers its scanners from 1 again in each process, so an id means *this*
/// scanner only to the gateway process that gave it — and the only way to know a call reaches
/// that process is to make it on the connection the id came from: a connection opened later may
/// reach a restarted gateway (where the same id is another read's scanner) or another gateway
/// behind a load balancer. So a `Scanner` is reached only through [`Pooled::scanner_rows`] and
/// [`Pooled::close_scanner`], which refuse a scanner of another connection's life; a read whose
/// connection was replaced opens its scanner again after the last row it returned.
#[derive(Debug)]
pub(crate) struct Scanner {
    id: i32,
    life: u64,
}

/// A connection with what the pool needs to know of it.
pub(crate) struct Pooled {
    pub(crate) conn: Conn,
    /// The same socket, to look at its state without reading from it (none in HTTP mode,
    /// where the HTTP client keeps its own connections).
    pub(crate) probe: Option<TcpStream>,
    /// The first bytes the connection received.
    pub(crate) seen: Seen,
    /// When it was given back.
    since: Instant,
    /// This connection's own number: the scanners opened on it carry it.
    life: u64,
}

impl Pooled {
    pub(crate) fn new(opened: Opened) -> Pooled {
        Pooled {
            conn: opened.conn,
            probe: opened.probe,
            seen: opened.seen,
            since: Instant::now(),
            life: LIVES.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Open a scanner of `table` on this connection.
    pub(crate) fn open_scanner(
        &mut self,
        table: Vec<u8>,
        scan: TScan,
    ) -> ::thrift::Result<Scanner> {
        let id = self.conn.open_scanner(table, scan)?;
        Ok(Scanner {
            id,
            life: self.life,
        })
    }

    /// Whether `scanner` was opened on this connection (in its life).
    pub(crate) fn owns(&self, scanner: &Scanner) -> bool {
        scanner.life == self.life
    }

    /// The next `rows` rows of `scanner`; `None`, with no call made, when the scanner was
    /// opened on another connection (its id may name another scanner here).
    pub(crate) fn scanner_rows(
        &mut self,
        scanner: &Scanner,
        rows: i32,
    ) -> Option<::thrift::Result<Vec<TResult>>> {
        self.owns(scanner)
            .then(|| self.conn.get_scanner_rows(scanner.id, rows))
    }

    /// Close `scanner` if it was opened on this connection; one of another connection's life
    /// is left alone (its connection is gone, and the gateway drops it when its lease ends).
    pub(crate) fn close_scanner(&mut self, scanner: Scanner) -> ::thrift::Result<()> {
        if self.owns(&scanner) {
            self.conn.close_scanner(scanner.id)
        } else {
            Ok(())
        }
    }

    /// Whether the connection can carry a call: not idle past `max_idle`, and neither closed
    /// by the peer nor holding bytes nobody asked for.
    pub(crate) fn usable(&self, max_idle: Duration) -> bool {
        if self.since.elapsed() > max_idle {
            return false;
        }
        let Some(probe) = &self.probe else {
            return true;
        };
        if probe.set_nonblocking(true).is_err() {
            return false;
        }
        let mut byte = [0u8; 1];
        let open = matches!(
            probe.peek(&mut byte),
            Err(ref e) if e.kind() == std::io::ErrorKind::WouldBlock
        );
        // O_NONBLOCK belongs to the socket both handles share: restore it
        probe.set_nonblocking(false).is_ok() && open
    }

    pub(crate) fn touch(&mut self) {
        self.since = Instant::now();
    }
}

/// How calls are retried: see [`Client::with_retry_for`](crate::Client::with_retry_for).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Retry {
    /// Give up once this long has passed since the first attempt.
    pub(crate) budget: Duration,
    pub(crate) first_backoff: Duration,
    pub(crate) max_backoff: Duration,
}

impl Default for Retry {
    fn default() -> Retry {
        Retry {
            budget: Duration::from_secs(15),
            first_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(2),
        }
    }
}

/// The attempts of one call: the first at once, then after growing pauses until the budget is
/// spent.
pub(crate) struct Attempts {
    retry: Retry,
    started: Instant,
    next_pause: Duration,
    made: u32,
}

impl Attempts {
    pub(crate) fn new(retry: Retry) -> Attempts {
        Attempts {
            retry,
            started: Instant::now(),
            next_pause: retry.first_backoff,
            made: 0,
        }
    }

    /// Wait before the next attempt; `false` when the budget is spent. The first retry comes
    /// at once: a stale pooled connection is the usual cause, and a fresh one answers.
    pub(crate) fn again(&mut self) -> bool {
        self.made += 1;
        if self.made == 1 {
            return self.started.elapsed() < self.retry.budget || self.retry.budget.is_zero();
        }
        let elapsed = self.started.elapsed();
        if elapsed >= self.retry.budget {
            return false;
        }
        let pause = self.next_pause.min(self.retry.budget - elapsed);
        std::thread::sleep(pause);
        self.next_pause = (self.next_pause * 2).min(self.retry.max_backoff);
        true
    }

    /// Attempts made so far (for error messages).
    pub(crate) fn made(&self) -> u32 {
        self.made + 1
    }
}

/// Whether a failed call may be sent again on a fresh connection: the connection broke
/// (a transport or protocol error). An error HBase answered with is not retried here: the
/// gateway's own HBase client has already retried what HBase can retry.
pub(crate) fn transient(e: &::thrift::Error) -> bool {
    matches!(
        e,
        ::thrift::Error::Transport(_) | ::thrift::Error::Protocol(_)
    )
}

/// Whether a connection that could not be made may be tried again: [`Error::is_retryable`]
/// (refused, closed, timed out — not credentials the gateway refused, nor a gateway that
/// speaks another protocol).
pub(crate) fn retryable(e: &Error) -> bool {
    e.is_retryable()
}

/// Whether the connection must be dropped after this error (it may be mid-message).
pub(crate) fn breaks_connection(e: &::thrift::Error) -> bool {
    !matches!(e, ::thrift::Error::User(_))
}

/// An error after `attempts`, saying so when there were retries.
pub(crate) fn gave_up(e: ::thrift::Error, attempts: u32) -> Error {
    match Error::from(e) {
        Error::Connection(c) if attempts > 1 => {
            Error::Connection(c.context(&format!(" (after {attempts} attempts)")))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    /// A scanner id is reached only through [`super::Pooled`]'s methods, which check the
    /// connection's life: no other file of the crate calls the gateway's scanner calls by id.
    #[test]
    fn scanner_ids_are_reached_only_through_their_connection() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src.clone()];
        let mut checked = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).expect("read src") {
                    files.push(entry.expect("entry").path());
                }
                continue;
            }
            let generated = path.starts_with(src.join("thrift"));
            if generated || path.ends_with("pool.rs") || path.extension() != Some("rs".as_ref()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            for call in [".get_scanner_rows(", ".close_scanner(", ".open_scanner("] {
                for (at, _) in text.match_indices(call) {
                    // only the `Pooled` methods of the same names, on a pooled connection
                    let before = &text[..at];
                    assert!(
                        !before.ends_with(".conn"),
                        "{}: a scanner call on the raw connection (`.conn{call}`): go through \
                         `Pooled`, which checks the scanner belongs to the connection",
                        path.display()
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 10, "only {checked} files read");
    }
}
