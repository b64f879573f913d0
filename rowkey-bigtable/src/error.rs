//! The one error type of `rowkey-bigtable`.

use std::fmt;
use std::time::Duration;

use rowkey::hbase::to_string_binary;
use rowkey::hotspot::HotspotError;
use rowkey::plan::PlanError;
use rowkey::struct_key::SchemaFinding;
use rowkey::{DecodeError, EncodeError};

use crate::schema::FromApiError;
#[cfg(feature = "testkit")]
use crate::testkit::EmulatorError;

/// What went wrong talking to Bigtable with typed keys.
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
    /// The server answered a request with an error status (or tonic made one: the connection
    /// broke, say). [`is_retryable`](Error::is_retryable) tells a transient one.
    Grpc(tonic::Status),
    /// A call kept failing with transient statuses (see [`is_retryable`](Error::is_retryable))
    /// until the client's retry budget ([`Client::with_retry_for`](crate::Client::with_retry_for))
    /// was spent: the last status is the [`source`](std::error::Error::source). A read that
    /// gives up yields this as its last item, after every row it returned (never a row twice,
    /// none skipped).
    ///
    /// ```
    /// use std::time::Duration;
    /// use rowkey_bigtable::Error;
    ///
    /// let e = Error::GaveUp {
    ///     call: "ReadRows",
    ///     attempts: 4,
    ///     failing_for: Duration::from_millis(900),
    ///     budget: Duration::from_secs(1),
    ///     last: tonic::Status::unavailable("connection refused"),
    /// };
    /// assert_eq!(
    ///     e.to_string(),
    ///     "ReadRows gave up after 4 attempts, failing for 900ms (retry budget 1s): Bigtable \
    ///      returned Unavailable: connection refused"
    /// );
    /// assert!(!e.is_retryable(), "already retried");
    /// ```
    GaveUp {
        /// The call: `"ReadRows"`, `"SampleRowKeys"`.
        call: &'static str,
        /// Attempts made, the first included.
        attempts: u32,
        /// Time from the first failure after the call's last progress to giving up.
        failing_for: Duration,
        /// The client's retry budget.
        budget: Duration,
        /// The status of the last attempt.
        last: tonic::Status,
    },
    /// The client failed before or after the server answered: connection, credentials, or a
    /// response it could not decode.
    Client(bigtable_rs::bigtable::Error),
    /// Entries of a batch write failed; the other entries were written. Every failed entry is
    /// listed.
    Write(WriteFailures),
    /// Split points could not be derived from the key layout.
    Plan(PlanError),
    /// The hotspot analyzer refused its input.
    Hotspot(HotspotError),
    /// The emulator could not be started (feature `testkit`).
    #[cfg(feature = "testkit")]
    Emulator(EmulatorError),
    /// An argument the server would refuse, caught before sending (a bad table id, say).
    InvalidArgument(String),
    /// A row key schema the admin API would refuse, caught before sending: every finding
    /// ([`SchemaSeverity::Refused`](rowkey::struct_key::SchemaSeverity::Refused)), each naming the field.
    RowKeySchema(Vec<SchemaFinding>),
    /// A row key schema received from the API that rowkey cannot express (a field type it
    /// does not encode, say).
    SchemaMessage(FromApiError),
    /// A constructor of the client ([`Client::emulator`](crate::Client::emulator),
    /// [`Client::connect`](crate::Client::connect), [`Client::admin`](crate::Client::admin)) was
    /// called outside a Tokio runtime: its gRPC channels run on the runtime. Call it from
    /// `#[tokio::main]`/`#[tokio::test]` code, inside `Runtime::block_on`, or after
    /// `Runtime::enter`.
    ///
    /// ```
    /// use rowkey_bigtable::{Client, Error};
    ///
    /// // a plain function: no runtime
    /// let e = Client::emulator("127.0.0.1:8086", "p", "i").unwrap_err();
    /// assert!(matches!(e, Error::NoRuntime { function: "Client::emulator" }));
    /// assert!(e.to_string().contains("inside a Tokio runtime"));
    ///
    /// // inside one
    /// let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    /// let _guard = rt.enter();
    /// let client = Client::emulator("127.0.0.1:8086", "p", "i")?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    NoRuntime {
        /// The function called, e.g. `"Client::emulator"`.
        function: &'static str,
    },
}

/// The failed entries of a [`Batch`](crate::Batch) write.
///
/// ```
/// use rowkey_bigtable::{testkit::Emulator, Batch, Cell, Client, Error, FailedWrite};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Error> {
/// let emulator = Emulator::start()?;
/// let client = Client::emulator(emulator.endpoint(), "p", "i")?;
/// client.admin().await?.create_table("t", &["ok"], &[]).await?;
/// let table = client.table("t");
/// let mut batch = Batch::new();
/// batch.put_raw(&table, b"a".to_vec(), [Cell::new("ok", "q", "1")]);
/// batch.put_raw(&table, b"b".to_vec(), [Cell::new("no_such_family", "q", "1")]);
/// match batch.apply().await {
///     Err(Error::Write(w)) => {
///         assert_eq!(w.written, 1);
///         let FailedWrite { table, index, key, code, message } = &w.failed[0];
///         assert_eq!((table.as_str(), *index, key.as_slice()), ("t", 1, &b"b"[..]));
///         println!("{code:?}: {message}");
///     }
///     other => panic!("{other:?}"),
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteFailures {
    /// Entries written.
    pub written: usize,
    /// Entries not written, in batch order.
    pub failed: Vec<FailedWrite>,
}

/// One entry of a batch that was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedWrite {
    /// The table id.
    pub table: String,
    /// The entry's position in the batch (the order of `put`/`delete` calls, from 0).
    pub index: usize,
    /// Its row key.
    pub key: Vec<u8>,
    /// The status the server gave it (`Unknown` when the server returned no status for it).
    pub code: tonic::Code,
    /// The server's message.
    pub message: String,
}

impl fmt::Display for FailedWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "entry {} (table {}, row {}): {:?}: {}",
            self.index,
            self.table,
            to_string_binary(&self.key),
            self.code,
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
            Error::Grpc(s) => write!(f, "Bigtable returned {:?}: {}", s.code(), s.message()),
            Error::GaveUp {
                call,
                attempts,
                failing_for,
                budget,
                last,
            } => write!(
                f,
                "{call} gave up after {attempts} attempts, failing for {failing_for:?} (retry \
                 budget {budget:?}): Bigtable returned {:?}: {}",
                last.code(),
                last.message()
            ),
            Error::Client(e) => write!(f, "Bigtable client error: {e}"),
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
            #[cfg(feature = "testkit")]
            Error::Emulator(e) => write!(f, "{e}"),
            Error::InvalidArgument(m) => write!(f, "invalid argument: {m}"),
            Error::RowKeySchema(findings) => {
                f.write_str("the API would refuse this row key schema")?;
                for (i, finding) in findings.iter().enumerate() {
                    write!(f, "{} {finding}", if i == 0 { ":" } else { ";" })?;
                }
                Ok(())
            }
            Error::SchemaMessage(e) => write!(f, "{e}"),
            Error::NoRuntime { function } => write!(
                f,
                "rowkey_bigtable::{function} must be called inside a Tokio runtime (from \
                 #[tokio::main] or #[tokio::test] code, inside Runtime::block_on, or after \
                 Runtime::enter): the client's gRPC channels run on the runtime"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Decode { source, .. } => Some(source),
            Error::Encode(e) => Some(e),
            Error::Grpc(s) => Some(s),
            Error::GaveUp { last, .. } => Some(last),
            Error::Client(e) => Some(e),
            Error::Plan(e) => Some(e),
            Error::Hotspot(e) => Some(e),
            #[cfg(feature = "testkit")]
            Error::Emulator(e) => Some(e),
            Error::SchemaMessage(e) => Some(e),
            Error::RowKeySchema(_)
            | Error::Write(_)
            | Error::InvalidArgument(_)
            | Error::NoRuntime { .. } => None,
        }
    }
}

impl Error {
    /// Whether the call may succeed if sent again: a transient status — `Unavailable`,
    /// `DeadlineExceeded`, `Aborted`, an `Internal` stream reset (`RST_STREAM`), or a broken
    /// connection — as the official Bigtable clients classify them, or a transport failure of
    /// the client. Reads and idempotent writes of this crate already retry these within the
    /// client's budget ([`Client::with_retry_for`](crate::Client::with_retry_for)); an error
    /// that reaches you after that is [`Error::GaveUp`], which is not retryable itself.
    ///
    /// ```
    /// use rowkey_bigtable::Error;
    ///
    /// assert!(Error::Grpc(tonic::Status::unavailable("try again")).is_retryable());
    /// assert!(Error::Grpc(tonic::Status::internal("stream terminated by RST_STREAM")).is_retryable());
    /// assert!(!Error::Grpc(tonic::Status::not_found("table t")).is_retryable());
    /// assert!(!Error::InvalidArgument("bad table id".into()).is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Grpc(s) => crate::retry::retryable(s),
            Error::Client(
                bigtable_rs::bigtable::Error::TransportError(_)
                | bigtable_rs::bigtable::Error::IoError(_),
            ) => true,
            _ => false,
        }
    }
}

impl From<bigtable_rs::bigtable::Error> for Error {
    fn from(e: bigtable_rs::bigtable::Error) -> Self {
        match e {
            bigtable_rs::bigtable::Error::RpcError(s) => Error::Grpc(s),
            other => Error::Client(other),
        }
    }
}

impl From<tonic::Status> for Error {
    fn from(s: tonic::Status) -> Self {
        Error::Grpc(s)
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

#[cfg(feature = "testkit")]
impl From<EmulatorError> for Error {
    fn from(e: EmulatorError) -> Self {
        Error::Emulator(e)
    }
}
