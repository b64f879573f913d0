//! `rowkey` on Cloud Bigtable: typed reads of [`rowkey::ScanRanges`] merged into the key's
//! logical order, typed batch writes, tables pre-split from the key layout, and a live hotspot
//! view — over the [`bigtable_rs`] client (0.4, ring TLS), so that the `rowkey` crate itself stays
//! free of gRPC.
//!
//! This page is the Bigtable chapter of [rowkey's guide](https://docs.rs/rowkey/latest/rowkey/guide/):
//! the key types, their scans (IN-lists and skip scans) and the operations are rowkey's; here
//! they meet Cloud Bigtable or its emulator. The key format Bigtable defines for itself is the
//! guide's chapter on [struct keys](https://docs.rs/rowkey/latest/rowkey/guide/struct_keys/).
//!
//! ```no_run
//! use futures_util::TryStreamExt;
//! use rowkey::plan::SplitPoints;
//! use rowkey::RowKey;
//! use rowkey_bigtable::{Batch, Cell, Client};
//!
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! struct OrderBySeller {
//!     #[salt(buckets = 16)]
//!     seller_id: u64,
//!     #[reverse_ts]
//!     created_ms: i64,
//!     #[sep]
//!     order_no: String,
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // BIGTABLE_EMULATOR_HOST=host:port selects the emulator (e.g. one from `gcloud beta emulators
//! // bigtable start`; or Client::emulator(endpoint, project, instance)); otherwise the usual
//! // Google credentials (GOOGLE_APPLICATION_CREDENTIALS, a service account key; gcloud's
//! // application-default login; or the metadata server on GCP) are used.
//! let client = Client::connect("my-project", "my-instance").await?;
//!
//! // A table pre-split at the 16 salt buckets (OrderBySeller::split_points(16)).
//! client.admin().await?.create_table_for::<OrderBySeller>("orders_by_seller", &["o"], 16).await?;
//! let table = client.table("orders_by_seller");
//!
//! let mut batch = Batch::new(); // MutateRows; one record under several keys = one batch
//! let key = OrderBySeller { seller_id: 42, created_ms: 1_700_000_000_000, order_no: "A-17".into() };
//! batch.put(&table, &key, [Cell::new("o", "amount", "1999")])?;
//! batch.apply().await?; // every failed entry is reported in Error::Write
//!
//! // All sellers' orders: 16 ranges, 16 concurrent ReadRows streams, merged newest first.
//! let ranges = OrderBySeller::scan().ranges();
//! let mut rows = table.read::<OrderBySeller>(&ranges).limit(10).stream();
//! while let Some((order, row)) = rows.try_next().await? {
//!     assert_eq!((order.order_no.as_str(), row.value("o", b"amount")), ("A-17", Some(&b"1999"[..])));
//! }
//! let page = table.read::<OrderBySeller>(&ranges).limit(100).collect().await?;
//! if let Some((last, _)) = page.last() {
//!     // the next page, resumed after the last key in every bucket
//!     let next = table.read::<OrderBySeller>(&ranges).after(last)?.limit(100).collect().await?;
//! }
//! let oldest = table.read::<OrderBySeller>(&ranges).reverse().stream(); // reversed ReadRows
//!
//! // An IN-list: one ReadRows per salt bucket it touches, its ranges in the request's RowSet.
//! let sellers = table.read::<OrderBySeller>(&OrderBySeller::scan().seller_id_in([7, 42, 1001])?.ranges()).collect().await?;
//!
//! // A live hotspot view from about one row in ten.
//! let sample = table.sample_keys(0.1).await?.analyzer(&OrderBySeller::split_points(16)?, 24)?;
//! # Ok(()) }
//! ```
//!
//! What the crate does, and where each part is documented:
//!
//! - **Reads** ([`Read`], from [`Table::read`]): one `ReadRows` per salt bucket (one for an
//!   unsalted key) whose `RowSet` holds that bucket's ranges, within a byte budget
//!   ([`Read::max_request_bytes`]) — an IN-list of 50,000 values is a few requests per bucket
//!   (`tests/bigtable/features.rs`, on the emulator, against brute force) —, at most
//!   [`Read::streams`] at once, merged in the key's logical order by [`rowkey::read`] (the same
//!   resume, merge, limit and decoding as every other store); [`Read::single_request`] for byte
//!   order in one stream, [`Read::chunk_rows`] for the rows per request, [`Read::requests`] to
//!   see the requests. The builder calls may come in any order.
//! - **Writes** ([`Batch`], [`Cell`]): one `MutateRows` per table (within its mutation
//!   limit), transient failures of idempotent entries retried, every entry that still failed
//!   named.
//! - **Failures** ([`Client::with_retry_for`], [`Error::is_retryable`]): reads resume after the
//!   last row returned and writes retry, as the official Bigtable clients do — see
//!   [below](#retries-and-resumed-reads).
//! - **Tables** ([`Admin`], from [`Client::admin`]): pre-split at the layout's split points.
//!   [`Client::emulator`], [`Client::connect`] and [`Client::admin`] set up gRPC channels on the
//!   current Tokio runtime: outside one they return [`Error::NoRuntime`].
//! - **The live hotspot view** ([`hotspot`]): sampled rows or the server's `SampleRowKeys`,
//!   counted against your split points. A pre-split cannot be checked on the emulator (it has
//!   no tablets): see [`Table::sample_row_keys`].
//! - **Index tables and migrations** ([`store`]): [`store::BigtableStore`] is the
//!   [`rowkey::store::Store`] of a table on Bigtable: it runs [`rowkey::index`] (index tables kept
//!   in step, verified reads, the scrub) and [`rowkey::migrate`] (16 → 32 salt buckets, a v1 →
//!   v2 layout — batched, resumable from a checkpoint row, verified, with a dual read over both
//!   layouts). Both are synchronous: run them from `tokio::task::spawn_blocking`.
//!
//! # Retries and resumed reads
//!
//! `bigtable_rs` retries nothing. This crate does what Google's own clients (Go's
//! `bigtable.go`, Java's `ReadRowsResumptionStrategy`, Node.js's `createReadStream`) do, within
//! a budget set on the client ([`Client::with_retry_for`], default [`DEFAULT_RETRY_FOR`]):
//!
//! - **Transient** failures are `Unavailable`, `DeadlineExceeded`, `Aborted`, an `Internal`
//!   status that says the stream was reset (`RST_STREAM`), and a connection that broke under
//!   the call (reset, closed, refused) — [`Error::is_retryable`]. Nothing else is retried.
//! - **A `ReadRows` stream that breaks** with one of them is sent again for what it had still
//!   to read: its `RowSet` cut after the last row it returned (by
//!   [`rowkey::read::after_in_byte_order`], the cut every store of `rowkey` shares; before it
//!   for a reversed read), its `rows_limit` lowered by the rows returned. No row comes twice
//!   and none is skipped, in merged, reversed, limited and [`Read::single_request`] reads, the
//!   index and migration store's reads, struct reads and the hotspot sample alike. When
//!   nothing is left the read is done: an empty `RowSet` would read the whole table, so none
//!   is ever sent.
//! - **Pauses**: 50 ms, growing ×2 to 2 s, with jitter. The budget counts from the first
//!   failure after the last progress (a row returned, an entry written), so a long read that
//!   keeps moving is never cut short, and one that cannot move ends once the budget is spent.
//! - **Errors mid-read**: a failure that is not transient, or a spent budget
//!   ([`Error::GaveUp`], naming the call, the attempts and the last status), is one error item
//!   that ends the stream — after every row already returned, never a silently short read.
//!   (A row whose key does not decode is an [`Error::Decode`] item and the read goes on.)
//! - **`MutateRows`**: entries that fail with a transient status (a request that fails whole
//!   fails each of its entries) are sent again, only they, when they are idempotent — every
//!   cell timestamped (a [`Cell`] always is: [`Cell::at`], or the time it was added to the
//!   batch), no aggregate. Those still failing when the budget is spent, and every other
//!   failure, are listed in [`Error::Write`] per entry.
//! - **`SampleRowKeys`** ([`Table::sample_row_keys`]) is made again, whole.
//!
//! Not done: the server's `RetryInfo` delay and `last_scanned_row_key` (a resumed filtered read
//! starts after the last row *returned*, which `bigtable_rs`'s decoder gives, not after the last
//! row the server scanned), and table administration is never retried.
//!
//! The tests run these against the emulator through a fault-injecting TCP proxy between the
//! client and the emulator (`tests/bigtable/proxy.rs`): connections cut every few kilobytes,
//! refused for a while, delayed, all cut at once — every read compared row by row with the
//! same read over a clean connection (`tests/bigtable/resume.rs`).
//!
//! # Reverse reads
//!
//! Bigtable answers `reversed` `ReadRows` requests only from clients that announce the
//! `reverse_scans` feature in the `bigtable-features` request header (a serialized
//! `FeatureFlags` message); `bigtable_rs` does not send it (the emulator answers
//! `Unimplemented: Client doesn't support reverse scans yet`), so this crate sends its read
//! requests through the client's generated gRPC stub with that header (the emulator checks it
//! the same way). Each salt bucket is then read newest-first by the server and the descending
//! streams are merged — nothing is collected beyond one chunk per bucket.
//!
//! # Struct keys
//!
//! Tables with a row key schema (a `Type.Struct`, rowkey's `StructSchema`), and the keys
//! continuous materialized views and asynchronous secondary indexes write:
//!
//! - the schema as the admin API's message and back: [`schema::to_api`], [`schema::from_api`]
//!   (types rowkey cannot express are a [`schema::FromApiError`] naming the field);
//! - a table declaring a schema, pre-split, linted first with its families (what the API would
//!   refuse is [`Error::RowKeySchema`] with every finding, and nothing is sent):
//!   [`Admin::create_table_with_schema`], the request itself
//!   [`Admin::create_table_with_schema_request`], the schema of a table
//!   [`Admin::row_key_schema`] (the emulator creates the table but keeps no schema: the tests
//!   check the request message, decoded from its protobuf bytes, and the table);
//! - keys read back as values, in key order, a key that does not decode an error item naming
//!   the row key: [`Table::read_struct`] ([`StructRead`]), and a materialized view:
//!   [`Client::read_view`] (the emulator has none: tested on the request only);
//! - a derived struct key type (`#[rowkey(bigtable(..))]`) does the same through its own
//!   schema: [`Admin::create_table_for_struct`], [`Table::read`] with its typed scans,
//!   [`Table::read_struct_as`], [`Client::read_view_as`].
//!
//! # Tests
//!
//! ```sh
//! cargo run -p rowkey-bigtable --example bigtable_orders  # the orders scenario on the emulator, end to end
//! cargo test -p rowkey-bigtable                            # its tests (part of the workspace test command)
//! ```
//!
//! The tests and examples start the Cloud Bigtable emulator themselves (`cbtemulator`, Debian
//! package `google-cloud-cli-bigtable-emulator`, found at
//! `/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator`, `$CBTEMULATOR` or on
//! `PATH`) on a free loopback port, one per test binary, stopped when the process exits; without
//! it they fail with a message naming the package. The example uses `BIGTABLE_EMULATOR_HOST`
//! instead when it is set. The fixture is yours too, for your own integration tests: the
//! `testkit` feature adds the module `rowkey_bigtable::testkit` (`Emulator::shared()`,
//! `Emulator::start()`). Enable it in `[dev-dependencies]` only:
//!
//! ```toml
//! [dev-dependencies]
//! rowkey-bigtable = { version = "0.1", features = ["testkit"] }
//! ```
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use std::sync::Arc;
use std::time::Duration;

use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use bigtable_rs::google::bigtable::v2::{ReadRowsRequest, SampleRowKeysRequest};
use futures_util::{StreamExt, TryStreamExt};
use rowkey::{DecodeRowKeyOwned, RowKey, ScanRanges};
use tonic::metadata::MetadataValue;

pub mod admin;
mod error;
pub mod hotspot;
mod read;
mod retry;
pub mod schema;
pub mod store;
mod struct_read;
mod struct_typed;
#[cfg(feature = "testkit")]
pub mod testkit;
mod write;

/// Renamed [`testkit`] (feature `testkit`, for `[dev-dependencies]`).
///
/// ```
/// # #![allow(deprecated)]
/// // the old names are the new items
/// fn kit(e: &rowkey_bigtable::emulator::Emulator) -> &rowkey_bigtable::testkit::Emulator { e }
/// fn store(s: rowkey_bigtable::index::BigtableIndexStore) -> rowkey_bigtable::store::BigtableStore { s }
/// assert_eq!(rowkey_bigtable::index::FAMILY, rowkey_bigtable::store::FAMILY);
/// ```
#[cfg(feature = "testkit")]
#[deprecated(note = "use rowkey_bigtable::testkit (feature `testkit`)")]
pub mod emulator {
    #![allow(deprecated)]
    pub use crate::testkit::*;
    /// Moved: [`testkit::Emulator`](crate::testkit::Emulator).
    #[deprecated(note = "use rowkey_bigtable::testkit::Emulator (feature `testkit`)")]
    pub type Emulator = crate::testkit::Emulator;
    /// Moved: [`testkit::EmulatorError`](crate::testkit::EmulatorError).
    #[deprecated(note = "use rowkey_bigtable::testkit::EmulatorError (feature `testkit`)")]
    pub type EmulatorError = crate::testkit::EmulatorError;
}

/// Moved: the index store is [`store::BigtableStore`], the one store of indexes and
/// migrations (the same constructor, `BigtableStore::new(handle, &base, &checkpoints)`, and
/// `index`, `create_tables`).
#[deprecated(note = "use rowkey_bigtable::store::BigtableStore")]
pub mod index {
    #![allow(deprecated)]
    pub use crate::store::{CHECKPOINT_FAMILY, CHECKPOINT_QUALIFIER, FAMILY, QUALIFIER};
    /// Renamed [`BigtableStore`](crate::store::BigtableStore).
    #[deprecated(note = "use rowkey_bigtable::store::BigtableStore")]
    pub type BigtableIndexStore = crate::store::BigtableStore;
}

pub use admin::Admin;
pub use error::{Error, FailedWrite, WriteFailures};
pub use read::{Read, TypedRows, DEFAULT_MAX_REQUEST_BYTES, DEFAULT_STREAMS};
pub use retry::DEFAULT_RETRY_FOR;
pub use struct_read::{StructRead, StructRows, STRUCT_LAYOUT};
pub use struct_typed::{StructReadAs, StructRowsAs};
pub use write::{Batch, Cell};

/// The client this crate is built on.
pub use bigtable_rs;
/// A cell as read: family, qualifier, value, timestamp (µs), labels.
pub use bigtable_rs::bigtable::RowCell;
/// The Bigtable data API messages (`RowFilter`, `ReadRowsRequest`, …) of `bigtable_rs`.
pub use bigtable_rs::google::bigtable::v2;
/// The Bigtable table admin API messages (`Table`, `CreateTableRequest`, `Type`, …) of
/// `googleapis-tonic-google-bigtable-admin-v2`: [`schema::to_api`] makes a row key schema's
/// `admin_v2::r#type::Struct`.
pub use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin_v2;

/// A key type that decodes into an owned value (every `#[derive(RowKey)]` struct without
/// borrowed `&str`/`&[u8]` fields): what typed reads yield. Shorthand for
/// `RowKey + DecodeRowKeyOwned` ([`rowkey::DecodeRowKeyOwned`]), implemented for every such type.
pub trait TypedKey: RowKey + DecodeRowKeyOwned {}
impl<T: RowKey + DecodeRowKeyOwned> TypedKey for T {}

/// The `bigtable-features` header value: a web-safe base64 `FeatureFlags { reverse_scans: true }`
/// (field 1, varint 1 = bytes `08 01`).
const FEATURE_FLAGS: &str = "CAE=";

/// A connection to one Bigtable instance (or the emulator). Cheap to clone.
#[derive(Clone)]
pub struct Client {
    conn: BigTableConnection,
    project: Arc<str>,
    instance: Arc<str>,
    /// `host:port` of the emulator, for the admin API; `None` for Cloud Bigtable.
    emulator: Option<Arc<str>>,
    app_profile: Arc<str>,
    retry: retry::Retry,
}

impl core::fmt::Debug for Client {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Client")
            .field("project", &self.project)
            .field("instance", &self.instance)
            .field("emulator", &self.emulator)
            .field("retry_for", &self.retry.budget)
            .finish_non_exhaustive()
    }
}

/// Channels (HTTP/2 connections) the client balances requests over.
const CHANNELS: usize = 4;

/// `Err(NoRuntime)` outside a Tokio runtime: setting up a gRPC channel spawns onto the
/// current runtime, and panics ("there is no reactor running") without one.
pub(crate) fn in_runtime(function: &'static str) -> Result<(), Error> {
    match tokio::runtime::Handle::try_current() {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::NoRuntime { function }),
    }
}

impl Client {
    /// Connect to `projects/{project}/instances/{instance}`.
    ///
    /// With `BIGTABLE_EMULATOR_HOST=host:port` set, connects to the emulator there (no
    /// credentials). Otherwise connects to Cloud Bigtable with the usual Google credentials:
    /// `GOOGLE_APPLICATION_CREDENTIALS` (a service-account key file), gcloud's
    /// application-default credentials (`gcloud auth application-default login`), or the
    /// metadata server on Google Cloud.
    ///
    /// Must run inside a Tokio runtime (see [`Error::NoRuntime`]).
    ///
    /// # Errors
    ///
    /// Polled outside a Tokio runtime ([`Error::NoRuntime`]), no credentials could be found, or
    /// the connection could not be set up.
    pub async fn connect(project: &str, instance: &str) -> Result<Client, Error> {
        in_runtime("Client::connect")?;
        let conn = BigTableConnection::new(project, instance, false, CHANNELS, None).await?;
        let emulator = std::env::var("BIGTABLE_EMULATOR_HOST").ok();
        Ok(Client::with_connection(
            conn,
            project,
            instance,
            emulator.as_deref(),
        ))
    }

    /// Connect to the emulator at `endpoint` (`host:port`) without reading the environment.
    /// No request is made yet. Call it inside a Tokio runtime: the client's channels run on it.
    ///
    /// # Errors
    ///
    /// The endpoint is not a valid `host:port`, or there is no current Tokio runtime
    /// ([`Error::NoRuntime`]).
    pub fn emulator(endpoint: &str, project: &str, instance: &str) -> Result<Client, Error> {
        if endpoint.is_empty() || endpoint.contains('/') {
            return Err(Error::InvalidArgument(format!(
                "emulator endpoint {endpoint:?} is not host:port"
            )));
        }
        in_runtime("Client::emulator")?;
        let conn = BigTableConnection::new_with_emulator(
            endpoint,
            project,
            instance,
            false,
            CHANNELS,
            Some(Duration::from_secs(60)),
        )?;
        Ok(Client::with_connection(
            conn,
            project,
            instance,
            Some(endpoint),
        ))
    }

    /// Wrap a connection made with `bigtable_rs` directly (custom channel count, timeout or
    /// token provider). `emulator` is the emulator's `host:port` when the connection goes to
    /// one (the admin API needs to know), `None` for Cloud Bigtable.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rowkey_bigtable::bigtable_rs::bigtable::BigTableConnection;
    /// use rowkey_bigtable::Client;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // one channel and a 5-second timeout; no request is made yet
    /// let conn = BigTableConnection::new_with_emulator(
    ///     "127.0.0.1:8086", "p", "i", false, 1, Some(Duration::from_secs(5)),
    /// )?;
    /// let client = Client::with_connection(conn, "p", "i", Some("127.0.0.1:8086"))
    ///     .with_app_profile("batch-jobs"); // data requests go through this app profile
    /// assert_eq!(client.table("t").name(), "projects/p/instances/i/tables/t");
    /// # Ok(()) }
    /// ```
    pub fn with_connection(
        conn: BigTableConnection,
        project: &str,
        instance: &str,
        emulator: Option<&str>,
    ) -> Client {
        Client {
            conn,
            project: project.into(),
            instance: instance.into(),
            emulator: emulator.map(Into::into),
            app_profile: "".into(),
            retry: retry::Retry::default(),
        }
    }

    /// Retry transient failures of data calls until `budget` has passed since the first
    /// failure after the call's last progress (default [`DEFAULT_RETRY_FOR`], 60 s;
    /// `Duration::ZERO`: never retry), pausing 50 ms, growing ×2 to 2 s, with jitter, between
    /// attempts — as the official Bigtable clients do:
    ///
    /// - **Reads** (`ReadRows`, every read of this crate): a stream that fails with a transient
    ///   status ([`Error::is_retryable`]: `Unavailable`, `DeadlineExceeded`, `Aborted`, an
    ///   `RST_STREAM` reset, a broken connection) is sent again for **what it had still to
    ///   read**: its row set cut after the last row it returned, in its direction, its row
    ///   limit lowered by the rows returned — never a row twice, none skipped. When nothing is
    ///   left the read is done (an empty row set would read the whole table: none is sent).
    ///   A row returned is progress: a long read that keeps moving is never cut short.
    /// - **Writes** ([`Batch::apply`], `MutateRows`): the entries that failed with a transient
    ///   status are sent again, the others not, when they are idempotent — every cell
    ///   timestamped (a [`Cell`] always is: at [`Cell::at`], or at the time it was added to the
    ///   batch), no aggregate. An entry written is progress.
    ///
    /// Once the budget is spent, a read yields [`Error::GaveUp`] (naming the call, the
    /// attempts and the last status) as its last item, and a write reports each entry still
    /// failing in [`Error::Write`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use rowkey_bigtable::Client;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), rowkey_bigtable::Error> {
    /// let client = Client::emulator("127.0.0.1:8086", "p", "i")?
    ///     .with_retry_for(Duration::from_secs(10));
    /// assert_eq!(client.retry_for(), Duration::from_secs(10));
    /// assert_eq!(Client::emulator("127.0.0.1:8086", "p", "i")?.retry_for(), rowkey_bigtable::DEFAULT_RETRY_FOR);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_retry_for(mut self, budget: Duration) -> Client {
        self.retry.budget = budget;
        self
    }

    /// The retry budget of data calls: see [`with_retry_for`](Self::with_retry_for).
    pub fn retry_for(&self) -> Duration {
        self.retry.budget
    }

    /// Use this app profile for data requests (the instance's default profile otherwise).
    pub fn with_app_profile(mut self, app_profile: &str) -> Client {
        self.app_profile = app_profile.into();
        self
    }

    /// The table `table_id` of this instance (no request is made).
    pub fn table(&self, table_id: &str) -> Table {
        let bt = self.conn.client();
        let name = bt.get_full_table_name(table_id);
        Table {
            bt,
            name: name.into(),
            id: table_id.into(),
            app_profile: self.app_profile.clone(),
            retry: self.retry,
        }
    }

    /// The project id.
    pub fn project(&self) -> &str {
        &self.project
    }

    /// The instance id.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The emulator's `host:port`, when connected to one.
    pub fn emulator_endpoint(&self) -> Option<&str> {
        self.emulator.as_deref()
    }
}

/// One table. Cheap to clone; clones share the connection.
///
/// Writing, reading in the ways a [`Read`] offers, and deleting, on the emulator:
///
/// ```
/// use rowkey::RowKey;
/// use rowkey_bigtable::v2::{row_filter::Filter, RowFilter};
/// use rowkey_bigtable::{testkit::Emulator, Batch, Cell, Client};
///
/// #[derive(RowKey, Debug, Clone, PartialEq)]
/// struct Reading {
///     #[salt(buckets = 4)]
///     sensor: u32,
///     #[reverse_ts]
///     at_ms: i64,
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), rowkey_bigtable::Error> {
/// let emulator = Emulator::start()?; // on a free loopback port; stopped when dropped
/// let client = Client::emulator(emulator.endpoint(), "p", "i")?;
/// assert_eq!((client.project(), client.instance()), ("p", "i"));
/// assert_eq!(client.emulator_endpoint(), Some(emulator.endpoint()));
/// let admin = client.admin().await?;
/// admin.create_table_for::<Reading>("readings", &["r"], 4).await?;
/// assert_eq!(admin.list_tables().await?, ["readings"]);
/// let table = client.table("readings");
/// assert_eq!(table.id(), "readings");
/// assert_eq!(table.name(), "projects/p/instances/i/tables/readings");
///
/// let mut batch = Batch::new();
/// for sensor in 0..3 {
///     for at_ms in 1..=5 {
///         // two versions of the cell: a read can keep the newest only
///         let cells = [Cell::new("r", "v", "old").at(1_000), Cell::new("r", "v", "new").at(2_000)];
///         batch.put(&table, &Reading { sensor, at_ms }, cells)?;
///     }
/// }
/// batch.put_raw(&table, b"\x00not a reading".to_vec(), [Cell::new("r", "v", "?")]);
/// assert_eq!(batch.len(), 16);
/// assert!(batch.len() <= Batch::MAX_MUTATIONS);
/// assert_eq!(batch.apply().await?, 16);
///
/// // sensor 1, newest first, the newest cell of each column only
/// let newest = RowFilter { filter: Some(Filter::CellsPerColumnLimitFilter(1)) };
/// let ranges = Reading::scan().sensor(1).ranges();
/// let rows = table.read::<Reading>(&ranges).filter(newest).limit(2).collect().await?;
/// assert_eq!(rows.len(), 2);
/// assert_eq!((rows[0].0.at_ms, rows[0].1.cells.len()), (5, 1));
/// assert_eq!(rows[0].1.value("r", b"v"), Some(&b"new"[..]));
/// // the next page, by the last key's bytes; keys only
/// let last = rows[1].0.to_row_key()?;
/// let rest = table.read::<Reading>(&ranges).after_key(&last).keys().await?;
/// assert_eq!(rest.iter().map(|r| r.at_ms).collect::<Vec<_>>(), [3, 2, 1]);
///
/// // every row of every bucket in one request, in byte order (the foreign row included: it
/// // is a decode error item, and the stream goes on)
/// let all = table.read::<Reading>(&Reading::scan().ranges()).single_request().chunk_rows(4);
/// let items: Vec<_> = futures_util::StreamExt::collect(all.stream()).await;
/// assert_eq!(items.len(), 16);
/// assert_eq!(items.iter().filter(|i| i.is_err()).count(), 1);
///
/// let samples = table.sample_row_keys().await?;
/// assert!(samples.iter().all(|s| s.offset_bytes >= 0));
///
/// let mut batch = Batch::new();
/// batch.delete(&table, &Reading { sensor: 1, at_ms: 5 })?;
/// batch.delete_raw(&table, b"\x00not a reading".to_vec());
/// batch.apply().await?;
/// assert_eq!(table.read::<Reading>(&Reading::scan().ranges()).keys().await?.len(), 14);
/// admin.delete_table("readings").await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Table {
    bt: BigTable,
    name: Arc<str>,
    id: Arc<str>,
    app_profile: Arc<str>,
    retry: retry::Retry,
}

impl core::fmt::Debug for Table {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Table")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A row read from a table: its key and cells.
#[derive(Debug)]
pub struct Row {
    /// The row key as stored.
    pub key: Vec<u8>,
    /// The cells, grouped by family and column, newest cell of a column first.
    pub cells: Vec<RowCell>,
}

impl Row {
    /// The newest value of column `family:qualifier`.
    pub fn value(&self, family: &str, qualifier: &[u8]) -> Option<&[u8]> {
        self.cells
            .iter()
            .filter(|c| c.family_name == family && c.qualifier == qualifier)
            .max_by_key(|c| c.timestamp_micros)
            .map(|c| c.value.as_slice())
    }
}

/// One sample of [`Table::sample_row_keys`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowKeySample {
    /// A row key (empty: the end of the table).
    pub key: Vec<u8>,
    /// Approximate bytes stored in the table before `key`.
    pub offset_bytes: i64,
}

impl Table {
    /// The full table name, `projects/…/instances/…/tables/{id}`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The table id.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub(crate) fn app_profile(&self) -> &str {
        &self.app_profile
    }

    pub(crate) fn bigtable(&self) -> BigTable {
        self.bt.clone()
    }

    pub(crate) fn retry(&self) -> retry::Retry {
        self.retry
    }

    /// A typed read of `ranges` (from any `T::scan()…ranges()`); see [`Read`].
    pub fn read<T: TypedKey>(&self, ranges: &ScanRanges) -> Read<T> {
        Read::new(self.clone(), ranges)
    }

    /// The `x-goog-request-params` routing header Bigtable expects on table requests.
    fn routing(&self) -> Result<MetadataValue<tonic::metadata::Ascii>, Error> {
        let value = format!(
            "table_name={}&app_profile_id={}",
            urlencoding::encode(&self.name),
            urlencoding::encode(&self.app_profile)
        );
        MetadataValue::try_from(value)
            .map_err(|e| Error::InvalidArgument(format!("table name {:?}: {e}", self.name)))
    }

    /// The routing header of a `ReadRows` request: the table's, or for a read of a continuous
    /// materialized view (`materialized_view_name` set) `name=<its instance>`, the routing
    /// parameter that Google's client conformance tests (`cloud-bigtable-clients-test`,
    /// `TestTypedReadRows_TargetRouting`) expect for a materialized view target — taken to
    /// hold for `ReadRows` too, which is not checked against Cloud Bigtable here.
    pub(crate) fn routing_of(
        &self,
        request: &ReadRowsRequest,
    ) -> Result<MetadataValue<tonic::metadata::Ascii>, Error> {
        let view = request.materialized_view_name.as_str();
        if view.is_empty() {
            return self.routing();
        }
        let instance = view.split("/materializedViews/").next().unwrap_or(view);
        let value = format!(
            "name={}&app_profile_id={}",
            urlencoding::encode(instance),
            urlencoding::encode(&request.app_profile_id)
        );
        MetadataValue::try_from(value)
            .map_err(|e| Error::InvalidArgument(format!("materialized view {view:?}: {e}")))
    }

    /// The rows of one `ReadRows` request, resumed after the last row returned when the
    /// stream fails with a transient status, within the client's retry budget (see
    /// [`Client::with_retry_for`]); a request that cannot be sent or read any more ends the
    /// stream with an error item ([`Error::GaveUp`] when the budget was spent).
    pub(crate) async fn read_rows_raw(
        &self,
        request: ReadRowsRequest,
    ) -> Result<read::RowStream, Error> {
        // a routing header that cannot be made fails at once, as before
        self.routing_of(&request)?;
        Ok(Box::pin(read::resuming(self.clone(), request)))
    }

    /// One attempt of a `ReadRows` request, sent through the generated stub with the routing
    /// and `bigtable-features` headers (the latter allows reversed reads).
    pub(crate) async fn read_rows_once(
        &self,
        request: ReadRowsRequest,
    ) -> Result<read::RowStream, Error> {
        let routing = self.routing_of(&request)?;
        let mut req = tonic::Request::new(request);
        req.metadata_mut().insert("x-goog-request-params", routing);
        req.metadata_mut().insert(
            "bigtable-features",
            MetadataValue::from_static(FEATURE_FLAGS),
        );
        let mut bt = self.bt.clone();
        let response = bt.get_client().read_rows(req).await?.into_inner();
        let rows = bigtable_rs::bigtable::read_rows::decode_read_rows_response_stream(response)
            .await
            .map(|r| r.map_err(Error::from));
        Ok(Box::pin(rows))
    }

    /// `SampleRowKeys`: row keys that divide the table into pieces of roughly known size (the
    /// server's tablet boundaries; the emulator samples about one row in a hundred, plus the
    /// last row).
    ///
    /// # Checking a pre-split
    ///
    /// On Cloud Bigtable the samples follow the tablets (the Bigtable HBase client builds its
    /// region locations from this call), so a pre-split shows — until Bigtable splits and
    /// merges tablets by load on its own. **The emulator has no tablets**: an empty pre-split
    /// table answers `[""]` (the end of the table alone), and a filled one sampled row keys,
    /// never the split points. `cbt` cannot show them either (`cbt ls <table>` lists column
    /// families; no `cbt` command lists splits). So a pre-split cannot be checked on the
    /// emulator: check the split points sent — what
    /// [`Admin::create_table_for`](crate::Admin::create_table_for) returns — and the splits
    /// themselves on Cloud Bigtable with this call, or on HBase, where the `rowkey-hbase`
    /// crate's region view reads the server's own regions (`getAllRegionLocations`).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey_bigtable::{testkit::Emulator, Client};
    ///
    /// #[derive(RowKey)]
    /// struct Reading {
    ///     #[salt(buckets = 4)]
    ///     sensor: u32,
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), rowkey_bigtable::Error> {
    /// let emulator = Emulator::start()?;
    /// let client = Client::emulator(emulator.endpoint(), "p", "i")?;
    /// let splits = client.admin().await?.create_table_for::<Reading>("readings", &["r"], 4).await?;
    /// assert_eq!(splits, [[1], [2], [3]]); // what was sent: the table has 4 tablets
    /// let samples = client.table("readings").sample_row_keys().await?;
    /// // the emulator does not show them: the end of the table only
    /// assert_eq!(samples.iter().map(|s| s.key.as_slice()).collect::<Vec<_>>(), [b""]);
    /// # Ok(()) }
    /// ```
    ///
    /// A call that fails with a transient status is made again, whole, within the client's
    /// retry budget ([`Client::with_retry_for`]), as the official clients do.
    ///
    /// # Errors
    ///
    /// The request failed ([`Error::GaveUp`] when it kept failing transiently).
    pub async fn sample_row_keys(&self) -> Result<Vec<RowKeySample>, Error> {
        let mut attempts = retry::Attempts::new(self.retry);
        loop {
            let status = match retry::transient(match self.sample_row_keys_once().await {
                Ok(samples) => return Ok(samples),
                Err(e) => e,
            }) {
                Ok(status) => status,
                Err(e) => return Err(e),
            };
            let now = std::time::Instant::now();
            match attempts.failed(now) {
                Some(pause) => retry::pause(pause).await,
                None => {
                    return Err(Error::GaveUp {
                        call: "SampleRowKeys",
                        attempts: attempts.made(),
                        failing_for: attempts.spent(now),
                        budget: attempts.budget(),
                        last: status,
                    })
                }
            }
        }
    }

    async fn sample_row_keys_once(&self) -> Result<Vec<RowKeySample>, Error> {
        let mut bt = self.bt.clone();
        let stream = bt
            .sample_row_keys(SampleRowKeysRequest {
                table_name: self.name.to_string(),
                app_profile_id: self.app_profile.to_string(),
                ..SampleRowKeysRequest::default()
            })
            .await?;
        stream
            .map_err(Error::from)
            .map_ok(|s| RowKeySample {
                key: s.row_key,
                offset_bytes: s.offset_bytes,
            })
            .try_collect()
            .await
    }
}
