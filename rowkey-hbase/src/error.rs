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
    /// away mid-call).
    Connection(String),
    /// HBase answered with an error (`TIOError`/`TIllegalArgument`: a missing or disabled
    /// table, an unknown column family, …).
    Server(String),
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
            Error::Encode(e) => write!(f, "{e}"),
            Error::Connection(m) => write!(f, "HBase Thrift2 connection: {m}"),
            Error::Server(m) => write!(f, "HBase returned an error: {m}"),
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
            Error::Decode { source, .. } => Some(source),
            Error::Encode(e) => Some(e),
            Error::Plan(e) => Some(e),
            Error::Hotspot(e) => Some(e),
            // the message is in this error's own text: its cause is the bulk error's
            #[cfg(feature = "bulk")]
            Error::Bulk(e) => std::error::Error::source(e),
            Error::Connection(_)
            | Error::Server(_)
            | Error::Write(_)
            | Error::InvalidArgument(_)
            | Error::Auth(_) => None,
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
                    Error::Server(msg.lines().next().unwrap_or(msg).to_string())
                } else if let Some(arg) = u.downcast_ref::<crate::thrift::TIllegalArgument>() {
                    Error::Server(format!(
                        "illegal argument: {}",
                        arg.message.clone().unwrap_or_default()
                    ))
                } else {
                    Error::Server(u.to_string())
                }
            }
            thrift::Error::Application(a) => Error::Server(a.message),
            thrift::Error::Transport(t) => Error::Connection(t.to_string()),
            thrift::Error::Protocol(p) => Error::Connection(p.to_string()),
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
