//! The one error type of `rowkey-hbase`.

use std::fmt;

use rowkey::hbase::to_string_binary;
use rowkey::hotspot::HotspotError;
use rowkey::plan::PlanError;
use rowkey::{DecodeError, EncodeError};

/// What went wrong talking to HBase with typed keys.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A row key read from the table does not decode as the key type asked for (a row of
    /// another layout in the range, or a corrupt key). The read goes on after this item.
    Decode {
        /// The key type (`T::LAYOUT.name`).
        layout: &'static str,
        /// The row key as read.
        key: Vec<u8>,
        /// Which field, at which byte offset, and why.
        source: DecodeError,
    },
    /// A key could not be encoded (a write, or the key to resume after).
    Encode(EncodeError),
    /// The gateway could not be reached, or the connection broke (the gateway or HBase went
    /// away mid-call): [`ConnectionError::kind`] says which.
    Connection(ConnectionError),
    /// HBase answered with an error (`TIOError`/`TIllegalArgument`: a missing or disabled
    /// table, an unknown column family, …): [`ServerError::class`] names the Java exception.
    Server(ServerError),
    /// Entries of a batch write failed; the other entries were written. Every failed entry is
    /// listed.
    Write(WriteFailures),
    /// Split points could not be derived from the key layout.
    Plan(PlanError),
    /// The hotspot analyzer refused its input.
    Hotspot(HotspotError),
    /// A bulk load refused its input or could not write its files (feature `bulk`).
    #[cfg(feature = "bulk")]
    Bulk(crate::bulk::BulkError),
    /// An argument HBase would refuse, caught before sending.
    InvalidArgument(String),
    /// The gateway wants credentials this client does not have or it does not take (Kerberos:
    /// no ticket, an expired one, a principal the KDC or the gateway does not know, a
    /// protection level the gateway does not offer; HTTP 401/403). Never retried; the message
    /// says why, and holds no secret.
    Auth(String),
}

/// What kind of connection failure an [`Error::Connection`] was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConnectionKind {
    /// Nothing listens at the address (connection refused), or it resolves to nothing.
    Refused,
    /// The gateway closed or reset the connection (a restart, its idle timeout, a crash).
    Closed,
    /// No answer within the client's timeout ([`Client::with_timeout`](crate::Client::with_timeout)).
    Timeout,
    /// The bytes that came back were not what the client's transport and protocol expect (a
    /// gateway running another transport, protocol or HTTP mode), or an HTTP(S) error.
    Protocol,
    /// Anything else: a thread that could not start, metrics that could not be read, …
    Other,
}

impl ConnectionKind {
    /// Whether a call that failed so may succeed on a fresh connection: a refused, closed or
    /// timed-out connection, not a protocol mismatch.
    pub fn is_transient(self) -> bool {
        matches!(
            self,
            ConnectionKind::Refused | ConnectionKind::Closed | ConnectionKind::Timeout
        )
    }
}

/// A connection failure: its [kind](ConnectionKind) and what happened, with the underlying
/// error (an I/O or Thrift transport error) as [`source`](std::error::Error::source).
///
/// ```
/// use rowkey_hbase::{Client, ConnectionKind, Error};
/// // nothing listens on port 1
/// match Client::connect("127.0.0.1:1") {
///     Err(Error::Connection(e)) => {
///         assert_eq!(e.kind(), ConnectionKind::Refused);
///         assert!(e.to_string().contains("connecting to 127.0.0.1:1"));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug)]
pub struct ConnectionError {
    kind: ConnectionKind,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl ConnectionError {
    pub(crate) fn new(kind: ConnectionKind, message: impl Into<String>) -> ConnectionError {
        ConnectionError {
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// A failure of kind `Other`.
    pub(crate) fn other(message: impl Into<String>) -> ConnectionError {
        ConnectionError::new(ConnectionKind::Other, message)
    }

    /// An I/O failure: its kind from the I/O error's.
    pub(crate) fn io(message: impl Into<String>, e: std::io::Error) -> ConnectionError {
        let kind = io_kind(&e);
        ConnectionError {
            kind,
            message: message.into(),
            source: Some(Box::new(e)),
        }
    }

    /// A Thrift transport or protocol failure: its kind from the error's.
    pub(crate) fn thrift(message: impl Into<String>, e: thrift::Error) -> ConnectionError {
        let kind = thrift_kind(&e);
        ConnectionError {
            kind,
            message: message.into(),
            source: Some(Box::new(e)),
        }
    }

    /// The same failure, its message extended (`"{message}{more}"`).
    pub(crate) fn context(mut self, more: &str) -> ConnectionError {
        self.message.push_str(more);
        self
    }

    /// What kind of failure it was.
    pub fn kind(&self) -> ConnectionKind {
        self.kind
    }

    /// What happened, in words.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ConnectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConnectionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

fn io_kind(e: &std::io::Error) -> ConnectionKind {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::ConnectionRefused | K::AddrNotAvailable | K::NotFound => ConnectionKind::Refused,
        K::ConnectionReset
        | K::ConnectionAborted
        | K::BrokenPipe
        | K::UnexpectedEof
        | K::NotConnected => ConnectionKind::Closed,
        K::TimedOut | K::WouldBlock => ConnectionKind::Timeout,
        K::InvalidData => ConnectionKind::Protocol,
        _ => ConnectionKind::Other,
    }
}

fn thrift_kind(e: &thrift::Error) -> ConnectionKind {
    match e {
        thrift::Error::Transport(t) => {
            use thrift::TransportErrorKind as K;
            let text = t.message.to_ascii_lowercase();
            match t.kind {
                K::TimedOut => ConnectionKind::Timeout,
                K::EndOfFile => ConnectionKind::Closed,
                K::NegativeSize | K::SizeLimit => ConnectionKind::Protocol,
                _ if text.contains("refused") => ConnectionKind::Refused,
                _ if text.contains("timed out")
                    || text.contains("would block")
                    || text.contains("temporarily unavailable") =>
                {
                    ConnectionKind::Timeout
                }
                _ if text.contains("reset")
                    || text.contains("broken pipe")
                    || text.contains("eof")
                    || text.contains("not connected")
                    || text.contains("aborted") =>
                {
                    ConnectionKind::Closed
                }
                _ => ConnectionKind::Other,
            }
        }
        thrift::Error::Protocol(_) => ConnectionKind::Protocol,
        _ => ConnectionKind::Other,
    }
}

/// An error HBase answered with: its message, whether HBase says the call may be retried
/// (`TIOError.canRetry`: false for a `DoNotRetryIOException`), and the Java exception's class
/// name when the message names one. (The gateway passes the exception's message, not its class:
/// a missing table is its name alone; a batch HBase gave up on names the classes of its
/// failures, `Failed 3 actions: org.apache….NotServingRegionException: …`.)
///
/// ```
/// # fn demo(client: rowkey_hbase::Client) {
/// use rowkey_hbase::Error;
/// match client.table("no_such_table").regions() {
///     Err(Error::Server(e)) if e.can_retry() == Some(false) => println!("final: {e}"),
///     Err(e) if e.is_retryable() => println!("try again later: {e}"),
///     other => println!("{other:?}"),
/// }
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerError {
    class: Option<String>,
    message: String,
    can_retry: Option<bool>,
}

impl ServerError {
    /// From the first line of HBase's text (`org.apache.…Exception: message`).
    pub(crate) fn new(text: &str, can_retry: Option<bool>) -> ServerError {
        let line = text.lines().next().unwrap_or(text).to_string();
        let class = line
            .split_once(": ")
            .map_or(line.as_str(), |(c, _)| c)
            .trim();
        let class = (class.contains('.')
            && !class.contains(' ')
            && (class.ends_with("Exception") || class.ends_with("Error")))
        .then(|| class.to_string());
        ServerError {
            class,
            message: line,
            can_retry,
        }
    }

    /// The Java exception's class (`org.apache.hadoop.hbase.TableNotFoundException`), when the
    /// message starts with one.
    pub fn class(&self) -> Option<&str> {
        self.class.as_deref()
    }

    /// HBase's message (the first line of what the gateway sent).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether HBase says the call may be retried (`TIOError.canRetry`: false for a
    /// `DoNotRetryIOException`), when it says.
    pub fn can_retry(&self) -> Option<bool> {
        self.can_retry
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ServerError {}

impl Error {
    /// Whether the failed call may succeed if made again: a connection that was refused,
    /// closed or timed out, or an HBase error HBase says may be retried. The client's own
    /// retries follow the same rule for idempotent calls.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Connection(e) => e.kind().is_transient(),
            Error::Server(e) => e.can_retry() == Some(true),
            _ => false,
        }
    }
}

/// The failed entries of a [`Batch`](crate::Batch) write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteFailures {
    /// Entries written.
    pub written: usize,
    /// Entries not written, in batch order.
    pub failed: Vec<FailedWrite>,
}

/// One entry of a batch that was not written, or not known to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedWrite {
    /// The table name.
    pub table: String,
    /// The entry's position in the batch (the order of `put`/`delete` calls, from 0).
    pub index: usize,
    /// Its row key.
    pub key: Vec<u8>,
    /// Whether HBase is known not to have applied it, or it may have been applied.
    pub outcome: Outcome,
    /// HBase's message (or the connection's, for an entry whose call broke off).
    pub message: String,
}

/// What is known of a batch entry that is listed in [`WriteFailures`].
///
/// HBase answers a `putMultiple`/`deleteMultiple` it could not complete with one error for the
/// whole call: it tells how many of the call's entries failed (`Failed 10 actions: …`), not
/// which. An entry is [`Failed`](Outcome::Failed) only when that is known — every entry of the
/// call failed, HBase refused the entry alone, or the entry names a column family the table does
/// not have and the failures HBase counted are exactly those — and
/// [`Unknown`](Outcome::Unknown) otherwise. An entry that is not listed was written.
///
/// ```
/// use rowkey_hbase::{FailedWrite, Outcome, WriteFailures};
///
/// // what a caller does with a batch's failures
/// fn to_retry(failures: &WriteFailures) -> Vec<&FailedWrite> {
///     failures.failed.iter().filter(|f| f.outcome == Outcome::Failed).collect()
/// }
/// # let w = WriteFailures { written: 0, failed: vec![] };
/// # assert!(to_retry(&w).is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// Not applied: writing it again writes it once.
    Failed,
    /// Perhaps applied, perhaps not: HBase refused the call it was part of without saying
    /// which entries failed, or the connection broke after the call was sent. A put with the
    /// server's time or a delete written again may act twice (a second version; a delete of
    /// what another writer put in between): read the row first. Puts whose cells all carry a
    /// timestamp ([`Cell::at`](crate::Cell::at)) are never left unknown for a refusal: they are
    /// sent again alone, which is safe.
    Unknown,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Failed => "not written",
            Outcome::Unknown => "outcome unknown",
        })
    }
}

impl fmt::Display for FailedWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "entry {} (table {}, row {}) {}: {}",
            self.index,
            self.table,
            to_string_binary(&self.key),
            self.outcome,
            self.message
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Decode {
                layout,
                key,
                source,
            } => write!(
                f,
                "row key {} does not decode as {layout}: {source}",
                to_string_binary(key)
            ),
            // transparent: the inner error's text here, its cause as the source (never both)
            Error::Encode(e) => write!(f, "{e}"),
            Error::Connection(e) => write!(f, "HBase Thrift2 connection: {e}"),
            Error::Server(e) => write!(f, "HBase returned an error: {e}"),
            Error::Write(w) => {
                write!(
                    f,
                    "{} of {} batch entries failed",
                    w.failed.len(),
                    w.failed.len() + w.written
                )?;
                for (i, e) in w.failed.iter().enumerate() {
                    if i == 3 {
                        return write!(f, "; …");
                    }
                    write!(f, "{} {e}", if i == 0 { ":" } else { ";" })?;
                }
                Ok(())
            }
            Error::Plan(e) => write!(f, "{e}"),
            Error::Hotspot(e) => write!(f, "{e}"),
            #[cfg(feature = "bulk")]
            Error::Bulk(e) => write!(f, "bulk load: {e}"),
            Error::InvalidArgument(m) => write!(f, "invalid argument: {m}"),
            Error::Auth(m) => write!(f, "authentication with the gateway: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // their text is this error's text already: the chain goes on with their causes
            Error::Decode { source, .. } => std::error::Error::source(source),
            Error::Encode(e) => std::error::Error::source(e),
            Error::Plan(e) => std::error::Error::source(e),
            Error::Hotspot(e) => std::error::Error::source(e),
            // the message is in this error's own text: its cause is the bulk error's
            #[cfg(feature = "bulk")]
            Error::Bulk(e) => std::error::Error::source(e),
            Error::Connection(e) => std::error::Error::source(e),
            Error::Server(_) | Error::Write(_) | Error::InvalidArgument(_) | Error::Auth(_) => None,
        }
    }
}

impl From<thrift::Error> for Error {
    fn from(e: thrift::Error) -> Self {
        match e {
            thrift::Error::User(u) => {
                if let Some(io) = u.downcast_ref::<crate::thrift::TIOError>() {
                    // the gateway sends the Java exception with its stack trace: keep its
                    // first line (the exception and its message)
                    let msg = io.message.as_deref().unwrap_or("TIOError");
                    Error::Server(ServerError::new(msg, io.can_retry))
                } else if let Some(arg) = u.downcast_ref::<crate::thrift::TIllegalArgument>() {
                    Error::Server(ServerError::new(
                        &format!(
                            "illegal argument: {}",
                            arg.message.clone().unwrap_or_default()
                        ),
                        Some(false),
                    ))
                } else {
                    Error::Server(ServerError::new(&u.to_string(), None))
                }
            }
            thrift::Error::Application(a) => Error::Server(ServerError::new(&a.message, None)),
            e @ (thrift::Error::Transport(_) | thrift::Error::Protocol(_)) => {
                Error::Connection(ConnectionError::thrift(e.to_string(), e))
            }
        }
    }
}

impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Self {
        Error::Encode(e)
    }
}

impl From<PlanError> for Error {
    fn from(e: PlanError) -> Self {
        Error::Plan(e)
    }
}

impl From<HotspotError> for Error {
    fn from(e: HotspotError) -> Self {
        Error::Hotspot(e)
    }
}

/// An IN-list or skip form with too many alternatives, met while building a read's ranges.
impl From<rowkey::scan::TooManyRanges> for Error {
    fn from(e: rowkey::scan::TooManyRanges) -> Self {
        Error::InvalidArgument(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hbase_exceptions_are_named_by_their_class() {
        let e = ServerError::new(
            "org.apache.hadoop.hbase.TableNotFoundException: t\n\tat org.apache…",
            Some(false),
        );
        assert_eq!(
            e.class(),
            Some("org.apache.hadoop.hbase.TableNotFoundException")
        );
        assert_eq!(
            e.message(),
            "org.apache.hadoop.hbase.TableNotFoundException: t"
        );
        assert_eq!(e.can_retry(), Some(false));
        let plain = ServerError::new("illegal argument: no family", None);
        assert_eq!(plain.class(), None);
        assert!(!Error::Server(e).is_retryable());
        assert!(Error::Server(ServerError::new(
            "org.apache.hadoop.hbase.NotServingRegionException: r",
            Some(true)
        ))
        .is_retryable());
    }

    #[test]
    fn connection_failures_have_a_kind() {
        use std::io::{Error as Io, ErrorKind as K};
        let kind = |k: K| ConnectionError::io("x", Io::new(k, "y")).kind();
        assert_eq!(kind(K::ConnectionRefused), ConnectionKind::Refused);
        assert_eq!(kind(K::ConnectionReset), ConnectionKind::Closed);
        assert_eq!(kind(K::BrokenPipe), ConnectionKind::Closed);
        assert_eq!(kind(K::UnexpectedEof), ConnectionKind::Closed);
        assert_eq!(kind(K::TimedOut), ConnectionKind::Timeout);
        assert_eq!(kind(K::WouldBlock), ConnectionKind::Timeout);
        assert_eq!(kind(K::PermissionDenied), ConnectionKind::Other);
        // what the thrift crate makes of a socket's errors
        let t = |k: K, text: &str| Error::from(thrift::Error::from(Io::new(k, text.to_string())));
        for (k, text, want) in [
            (
                K::ConnectionRefused,
                "Connection refused (os error 111)",
                ConnectionKind::Refused,
            ),
            (
                K::ConnectionReset,
                "Connection reset by peer (os error 104)",
                ConnectionKind::Closed,
            ),
            (K::UnexpectedEof, "early eof", ConnectionKind::Closed),
            (K::TimedOut, "timed out", ConnectionKind::Timeout),
            (
                K::WouldBlock,
                "Resource temporarily unavailable (os error 11)",
                ConnectionKind::Timeout,
            ),
        ] {
            match t(k, text) {
                Error::Connection(c) => {
                    assert_eq!(c.kind(), want, "{k:?} {text}");
                    assert!(c.kind().is_transient());
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(
            Error::Connection(ConnectionError::new(ConnectionKind::Timeout, "t")).is_retryable()
        );
        assert!(
            !Error::Connection(ConnectionError::new(ConnectionKind::Protocol, "p")).is_retryable()
        );
    }

    /// A chain prints each message once: the outer text, then the causes.
    #[test]
    fn a_chain_prints_each_message_once() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused here");
        let e = Error::Connection(ConnectionError::io("connecting to a:1", io));
        let mut chain = vec![e.to_string()];
        let mut next = std::error::Error::source(&e);
        while let Some(s) = next {
            chain.push(s.to_string());
            next = s.source();
        }
        assert_eq!(
            chain,
            [
                "HBase Thrift2 connection: connecting to a:1",
                "refused here"
            ]
        );
        let inner =
            rowkey::EncodeError::new("name", rowkey::EncodeErrorKind::TooLong { len: 7, max: 3 });
        let text = inner.to_string();
        let e = Error::from(inner);
        assert_eq!(e.to_string(), text, "transparent");
        assert!(std::error::Error::source(&e).is_none(), "not printed twice");
    }
}
