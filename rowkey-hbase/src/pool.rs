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
use std::time::{Duration, Instant};

use crate::gateway::{Opened, Seen};
use crate::{Conn, Error};

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
}

impl Pooled {
    pub(crate) fn new(opened: Opened) -> Pooled {
        Pooled {
            conn: opened.conn,
            probe: opened.probe,
            seen: opened.seen,
            since: Instant::now(),
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

/// Whether a connection that could not be made may be tried again: not when the gateway
/// refused the credentials (or there were none to give).
pub(crate) fn retryable(e: &Error) -> bool {
    !matches!(e, Error::Auth(_))
}

/// Whether the connection must be dropped after this error (it may be mid-message).
pub(crate) fn breaks_connection(e: &::thrift::Error) -> bool {
    !matches!(e, ::thrift::Error::User(_))
}

/// An error after `attempts`, saying so when there were retries.
pub(crate) fn gave_up(e: ::thrift::Error, attempts: u32) -> Error {
    match Error::from(e) {
        Error::Connection(m) if attempts > 1 => {
            Error::Connection(format!("{m} (after {attempts} attempts)"))
        }
        other => other,
    }
}
