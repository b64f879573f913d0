//! `rowkey` on Apache HBase: typed reads of [`rowkey::ScanRanges`] merged into the key's
//! logical order (forward, reverse, limit, resume), typed batch writes and deletes with
//! per-entry errors, tables pre-split from the key layout, and a live region view from the
//! server's own regions — over HBase's **Thrift2 gateway**, through bindings generated from
//! HBase's own IDL (`thrift2/hbase.thrift`, see [`thrift`]).
//!
//! This page is the HBase chapter of [rowkey's guide](https://docs.rs/rowkey/latest/rowkey/guide/):
//! the key types, their scans (IN-lists and skip scans) and the operations are rowkey's; here
//! they meet a server.
//!
//! ```no_run
//! use rowkey::RowKey;
//! use rowkey_hbase::{Batch, Cell, Client};
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
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A Thrift2 gateway: `hbase thrift2 start` (or rowkey_hbase::testkit::HBase in tests).
//! let client = Client::connect("127.0.0.1:9090")?;
//! // `create 'orders_by_seller', 'o', SPLITS => [...]` at the 16 salt buckets
//! client.create_table_for::<OrderBySeller>("orders_by_seller", &["o"], 16)?;
//! let table = client.table("orders_by_seller");
//!
//! let mut batch = Batch::new(); // putMultiple / deleteMultiple, in order
//! let key = OrderBySeller { seller_id: 42, created_ms: 1_700_000_000_000, order_no: "A-17".into() };
//! batch.put(&table, &key, [Cell::new("o", "amount", "1999")])?;
//! batch.apply()?; // every failed entry is reported in Error::Write
//!
//! // All sellers' orders: 16 ranges (one per salt bucket), one scanner each, at most 8 at
//! // once, merged in logical order.
//! let ranges = OrderBySeller::scan().ranges();
//! for row in table.read::<OrderBySeller>(&ranges).limit(10).rows()? {
//!     let (order, row) = row?;
//!     assert_eq!(row.value("o", b"amount"), Some(&b"1999"[..]));
//! }
//! let page = table.read::<OrderBySeller>(&ranges).limit(100).collect()?;
//! if let Some((last, _)) = page.last() {
//!     // the next page, resumed after the last key in every bucket
//!     let next = table.read::<OrderBySeller>(&ranges).after(last)?.limit(100).keys()?;
//! }
//! let oldest = table.read::<OrderBySeller>(&ranges).reverse().limit(10).keys()?; // reversed scans
//!
//! // An IN-list: sellers 7, 42 and 1001 — still one scanner per salt bucket the list touches,
//! // its ranges in one MultiRowRangeFilter, however long the list.
//! let sellers = table.read::<OrderBySeller>(&OrderBySeller::scan().seller_id_in([7, 42, 1001])?.ranges()).collect()?;
//!
//! // The server's own regions, 1 key in 10 counted: the hotspot report and the plan lint.
//! let view = table.region_view(10)?;
//! println!("{}", view.analyzer(24)?.report().summary());
//! println!("{}", view.lint().layout(OrderBySeller::LAYOUT).run());
//! # Ok(()) }
//! ```
//!
//! What the crate does, and where each part is documented:
//!
//! - **Reads** ([`Read`], from [`Table::read`]; the module [`read`]): one HBase scanner per salt
//!   bucket, not per range — a `MultiRowRangeFilter` of the bucket's ranges in the scan's
//!   `filterBytes`, so an IN-list of 5,000 values is one scanner per bucket —, at most
//!   [`Client::with_max_streams`] scanners at once, typed server-side filters ([`filter`]),
//!   reversed scans, and a scanner that breaks mid-read opened again after its last row. The
//!   order of the builder calls does not matter; [`Read::scanners`] shows the scanners a read
//!   opens. The merge, decode, limit and resume are [`rowkey::read`]'s, as on every store.
//! - **Connections** ([`Client`], "Connections that survive"): pooled connections checked before
//!   use, idempotent calls retried on fresh ones after an idle timeout or a gateway restart.
//! - **Writes** ([`Batch`], [`Cell`]): `putMultiple`/`deleteMultiple` in order, every entry
//!   not written named with what is known of it ([`Outcome`]: failed, or perhaps applied); an
//!   entry that could be written twice is never sent twice.
//! - **Bulk load** (feature `bulk`; the module `rowkey_hbase::bulk`): typed rows written as HFiles, one set
//!   per region of the table as it is now, through an external sort of bounded memory, for
//!   HBase's own `BulkLoadHFilesTool` (`hbase completebulkload`) to load — what ImportTsv and
//!   `HFileOutputFormat2` do on the JVM; the format is the crate `rowkey-hfile`. The key tool's
//!   `bulk` command (`rowkey_hbase::keytool`) does it from delimited records.
//! - **Tables and regions**: [`Client::create_table_for`] pre-splits at the layout's split
//!   points; [`Table::regions`] and [`Table::region_view`] ([`region`]) read the real regions
//!   (`getAllRegionLocations`) and count every row in its region — the hotspot report, heatmap
//!   and plan lint over the server's own regions, not over a plan.
//! - **Index tables and migrations** ([`store`]): [`store::HBaseStore`], the one
//!   [`rowkey::store::Store`] on HBase, runs [`rowkey::index`] and [`rowkey::migrate`].
//!
//! # Gateways
//!
//! Gateways in production rarely run with `hbase thrift2 start`'s defaults. Say what yours runs
//! with ([`GatewayConfig`]: framed or buffered sockets, binary or compact protocol, HTTP mode, in
//! the clear or over TLS — the settings and their configuration are tabled in [`gateway`]);
//! [`Client::connect_to`] checks it with one call, and a client that speaks something else gets
//! an error that names what the gateway may run with (an HTTP answer on a socket: HTTP mode; no
//! answer in 10 s: framed, compact or HTTP) — never a hang. In HTTP mode a read pages with
//! stateless calls instead of holding scanners on the gateway: scanner ids are small integers
//! counted from 1 in each gateway process, so after a restart — or behind a load balancer — a
//! held id could name another scanner's rows. Everything else — typed reads and writes, the
//! region view, index tables, migrations, the pool and its retries — works the same over each
//! (`rowkey-hbase/tests/hbase/gateways.rs` runs them on real gateways started in each mode).
//!
//! ## Kerberos
//!
//! A gateway of a Kerberized cluster speaks SASL GSSAPI on its socket
//! (`hbase.thrift.security.qop` = `auth`, `auth-int` or `auth-conf`) or SPNEGO in HTTP mode.
//! With the `kerberos` feature (the system's MIT Kerberos; building needs `libkrb5-dev` and
//! `libclang-dev`), `GatewayConfig::kerberos` names the gateway's principal and where the
//! client's tickets come from — `kinit`'s cache, a cache of its own, or a keytab:
//!
//! ```toml
//! rowkey-hbase = { version = "0.1", features = ["kerberos"] }
//! ```
//!
//! ```no_run
//! # #[cfg(feature = "kerberos")]
//! # fn main() -> Result<(), rowkey_hbase::Error> {
//! use rowkey_hbase::{Client, GatewayConfig, Kerberos, Qop};
//!
//! // hbase.thrift.security.qop = auth-conf; tickets from a keytab
//! let client = Client::connect_to(GatewayConfig::socket("gw1.example.com:9090")?.kerberos(
//!     Kerberos::keytab(
//!         "hbase/gw1.example.com@EXAMPLE.COM",
//!         "etl@EXAMPLE.COM",
//!         "/etc/security/keytabs/etl.keytab",
//!     )
//!     .qop(Qop::AuthConf),
//! ))?;
//! // HTTP mode behind TLS: SPNEGO with kinit's ticket
//! let client = Client::connect_to(
//!     GatewayConfig::http("https://gw1.example.com:9090/")?
//!         .kerberos(Kerberos::service("HTTP/gw1.example.com@EXAMPLE.COM")),
//! )?;
//! # Ok(()) }
//! # #[cfg(not(feature = "kerberos"))]
//! # fn main() {}
//! ```
//!
//! A refusal — no ticket, an expired one, a principal the KDC or the gateway does not know, a
//! protection level the gateway does not offer, HTTP 401 — is [`Error::Auth`], saying why, and
//! is never retried; a ticket renewed in the cache is picked up by the next connection. The
//! error names what is actually wrong: the client principal the KDC does not know (not the
//! gateway's, when the client's was deleted after its keytab was made), the gateway's principal
//! the KDC does not know, the keytab that does not exist or holds no key for the client's
//! principal (no "run kinit" when a keytab was given). A Kerberos client at a gateway without
//! SASL — which reads the SASL start as the beginning of a long Thrift call and says nothing —
//! is told so after 1.5 s of silence, once a plain Thrift call on a second connection got a
//! Thrift answer ([`Error::Connection`]), instead of waiting out the first call's 10 s. The
//! details are in the `kerberos` module's docs; `rowkey-hbase/tests/hbase/kerberos.rs` runs all of it
//! against a Kerberized HBase it starts with its own KDC (the test kit's `Kdc` and
//! `HBase::start_kerberized`), and `kerberos_mit.rs` checks the refusals' words against a real
//! MIT KDC (the test kit's `MitKdc`).
//!
//! # Key visualizer
//!
//! Which regions and which region servers are busy, over time, on your key type's axis:
//! [`load::LoadSampler`] reads each region's request counters from the region servers' own
//! metrics (the JMX JSON of their info servers, port 16030), [`load::load_map`] turns samples
//! into the page of rowkey's key visualizer (`rowkey::hotspot::LoadMap`: time × key-range
//! heatmaps of writes and reads, decoded labels, load per server, hover details, the layout
//! lint's findings) — the same page as the offline analysis of sampled keys draws.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use rowkey::RowKey;
//! use rowkey_hbase::load::{load_map, LoadSampler};
//! use rowkey_hbase::Client;
//!
//! #[derive(RowKey)]
//! struct Order {
//!     #[salt(buckets = 16)]
//!     seller_id: u64,
//!     order_no: u64,
//! }
//!
//! let client = Client::connect("gateway:9090")?;
//! let sampler = LoadSampler::new(&client.table("orders"), &["http://rs1:16030", "http://rs2:16030"])?;
//! // a sample every 10 s for 10 minutes, with a progress line
//! let samples = sampler.watch(Duration::from_secs(10), Duration::from_secs(600), |done, all| {
//!     eprint!("\rsampling {done}/{all}");
//! })?;
//! load_map::<Order>("orders, live", &samples)?.write_html("orders.html")?;
//! # Ok(()) }
//! ```
//!
//! `cargo run -p rowkey-hbase --example hbase_visualizer` runs seed 001's experiment on three
//! region servers by itself and writes both designs' pages; with a gateway, a table and info
//! servers as arguments it watches your cluster. The key tool does it too (feature `tool`:
//! `keytool visualize <TYPE> --gateway … --table … --metrics …`, a progress line while it
//! samples; `rowkey_hbase::keytool`, example `hbase_keytool`), and draws the same page from a
//! dump (`keytool hotspots … --time-field F --html OUT`).
//!
//! # Phoenix tables
//!
//! A table Apache Phoenix created is an HBase table whose row key is a Phoenix primary key: a
//! key type with `#[rowkey(phoenix)]` (rowkey's guide, chapter "Phoenix tables") reads and
//! writes it like any other. A row Phoenix's `SELECT` sees needs, besides your cells, Phoenix's
//! empty column (family `0`, qualifier `\x00\x00\x00\x00`, value `x` with Phoenix 5's default
//! column encoding).
//!
//! ```no_run
//! use rowkey::phoenix::PhoenixKey;
//! use rowkey::RowKey;
//! use rowkey_hbase::{Batch, Cell, Client};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(phoenix, salt(buckets = 8))]
//! struct Reading {
//!     tenant: String,
//!     device: i64,
//!     ts: i64,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // CREATE TABLE READINGS (tenant VARCHAR NOT NULL, device BIGINT NOT NULL, ts BIGINT NOT NULL
//! //     CONSTRAINT pk PRIMARY KEY (tenant, device, ts)) SALT_BUCKETS = 8, run in Phoenix
//! println!("{}", Reading::phoenix_ddl("READINGS"));
//! let client = Client::connect("127.0.0.1:9090")?;
//! let table = client.table("READINGS");
//!
//! let mut batch = Batch::new();
//! let row = Reading { tenant: "t1".into(), device: 7, ts: 1_700_000_000_000 };
//! batch.put(&table, &row, [Cell::new("0", b"\x00\x00\x00\x00".to_vec(), "x")])?; // Phoenix's empty column
//! batch.apply()?;
//!
//! // SELECT … WHERE TENANT = 't1' AND DEVICE IN (7, 9, 12): the 8 buckets' scanners, each with
//! // one MultiRowRangeFilter, merged in the key's order
//! let ranges = Reading::scan().tenant("t1").device_in([7, 9, 12])?.ranges();
//! let keys: Vec<Reading> = table.read::<Reading>(&ranges).keys_only().keys()?;
//! # Ok(()) }
//! ```
//!
//! Against Phoenix's own `SELECT` on the same server these reads return exactly the stored rows
//! of the condition (`tests/hbase/phoenix_scans.rs`), and IN-lists of 1 to 5,000 devices read in
//! 0.21–0.70× Phoenix's time (BENCHMARKS.md).
//!
//! # Why Thrift2
//!
//! HBase's native client protocol is protobuf RPC over its own framing, with region routing,
//! retries and ZooKeeper look-ups in the client: only the Java client implements it. The
//! gateways are the supported way in from other languages. The Thrift2 gateway (`hbase
//! thrift2`) exposes the modern API — scans with `reversed` and `limit`, batch puts and
//! deletes, `createTable` **with split keys**, `getAllRegionLocations` — where the older Thrift1
//! API (what the `hbase-thrift` crate speaks) cannot create a pre-split table and the REST
//! gateway has no reversed scans. The bindings in [`thrift`] are generated by the Apache Thrift
//! compiler 0.17 from the IDL inside `hbase-thrift` 2.6.1 and committed with the script that
//! regenerates them (`rowkey-hbase/thrift/regen.sh`), so building needs no Thrift compiler; the
//! filter messages come from HBase's own `Filter.proto`, `Comparator.proto` and `HBase.proto`
//! through prost (`rowkey-hbase/proto/regen.sh`).
//!
//! # Tests
//!
//! ```sh
//! cargo run -p rowkey-hbase --example hbase_orders   # the orders scenario on a real HBase it starts
//! cargo test -p rowkey-hbase                         # its tests (part of the workspace test command)
//! ```
//!
//! The tests start standalone HBase 2.6.1 — master, region server and ZooKeeper in one JVM —
//! and its Thrift2 gateway themselves on free loopback ports, once per test binary, killed when
//! the binary exits (JDK 17 and Maven; the jars are resolved from `rowkey-hbase/harness/pom.xml`
//! into `~/.m2` on the first run, which prints what it is fetching). HBase 2.6.1 is the newest
//! 2.6 release whose `hbase-thrift` artifact Maven Central serves. They check: 2,100 typed
//! queries over the six layouts of the Bigtable oracle against a brute-force filter (forward,
//! reverse, sequential, pages of 1–5 rows from the server, paged with `after`), per-entry write
//! failures, pre-split tables and the region view, a gateway killed for good in the middle of a
//! merged read (forward and reverse, concurrent and sequential: an error item once the retry
//! budget is spent), a gateway **restarted** in the middle of a read (the read goes on: every
//! row once, in order — also on a gateway started fresh, whose scanner ids after the restart
//! are the same small numbers as before, for every `streams(n)`, both directions and the
//! stateless HTTP mode), a batch of puts (at server time and timestamped) and deletes across a
//! region taken offline (`unassign`: every entry reported truly, nothing written twice,
//! checked version by version once the region is back), a client idle past a gateway's idle timeout (its next calls, read and
//! write, succeed at once), IN-lists of 5,000 values on an unsalted and an 8-bucket salted
//! table against brute force (forward, reverse, limits, `after`, keys only, typed filters, a
//! filter string, small request budgets, one stream), a 40,000-range read within its
//! connection bound (connections counted in `/proc/net/tcp`), a migration cut by a gateway kill
//! (resumed after a restart: no row lost or doubled), the HexStringSplit experiment of rowkey's
//! guide (chapter "Planning regions and hotspots"), and **the real HBase shell**
//! (`tests/hbase/shell.rs`, `HBase::shell`: hbase-shell 2.4.17 with JRuby from Maven Central —
//! no 2.5/2.6 shell jar is served there — on the server's 2.6.1 jars): the `create … SPLITS`
//! statements `rowkey::plan` and `keytool plan` print, for salted and hash-prefix layouts and
//! for split points full of awkward bytes (`0x00`, `0xFF`, quotes, `\`, `#{`), make exactly the
//! planned regions, and the key tool's `scan` commands print exactly the rows of the typed
//! scan. (The test server loads HBase's pure-Java Snappy codec, so the statements'
//! `COMPRESSION => 'SNAPPY'` is accepted without native libraries.)
//!
//! The fixture that starts the server is yours too, for your own integration tests: the
//! `testkit` feature adds the module `rowkey_hbase::testkit` (`HBase::shared()`, Phoenix and the
//! HBase shell on the same server, extra gateways with their own settings, a gateway restarted
//! on its port). Enable it in `[dev-dependencies]` only:
//!
//! ```toml
//! [dev-dependencies]
//! rowkey-hbase = { version = "0.1", features = ["testkit"] }
//! ```
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "bulk")]
pub mod bulk;
mod client;
pub mod error;
pub mod filter;
pub mod gateway;
#[cfg(feature = "kerberos")]
pub mod kerberos;
#[cfg(feature = "tool")]
pub mod keytool;
pub mod load;
mod pool;
pub mod read;
pub mod region;
#[cfg(feature = "kerberos")]
mod sasl;
pub mod store;
mod table;
#[cfg(feature = "testkit")]
pub mod testkit;
mod write;

/// Renamed [`testkit`] (feature `testkit`, for `[dev-dependencies]`).
///
/// ```
/// # #![allow(deprecated)]
/// // the old names are the new items
/// fn kit(h: &rowkey_hbase::server::HBase) -> &rowkey_hbase::testkit::HBase { h }
/// fn store(s: rowkey_hbase::index::HBaseIndexStore) -> rowkey_hbase::store::HBaseStore { s }
/// assert_eq!(rowkey_hbase::index::FAMILY, rowkey_hbase::store::FAMILY);
/// ```
#[cfg(feature = "testkit")]
#[deprecated(note = "use rowkey_hbase::testkit (feature `testkit`)")]
pub mod server {
    #![allow(deprecated)]
    pub use crate::testkit::*;
    /// Moved: [`testkit::HBase`](crate::testkit::HBase).
    #[deprecated(note = "use rowkey_hbase::testkit::HBase (feature `testkit`)")]
    pub type HBase = crate::testkit::HBase;
    /// Moved: [`testkit::Gateway`](crate::testkit::Gateway).
    #[deprecated(note = "use rowkey_hbase::testkit::Gateway (feature `testkit`)")]
    pub type Gateway = crate::testkit::Gateway;
    /// Moved: [`testkit::ServerError`](crate::testkit::ServerError).
    #[deprecated(note = "use rowkey_hbase::testkit::ServerError (feature `testkit`)")]
    pub type ServerError = crate::testkit::ServerError;
    /// Moved: [`testkit::PhoenixTimer`](crate::testkit::PhoenixTimer).
    #[deprecated(note = "use rowkey_hbase::testkit::PhoenixTimer (feature `testkit`)")]
    pub type PhoenixTimer = crate::testkit::PhoenixTimer;
}

/// Moved: the index store is [`store::HBaseStore`], the one store of indexes and migrations
/// (the same constructor, `HBaseStore::new(&base, &checkpoints)`, and `index`,
/// `create_tables`).
#[deprecated(note = "use rowkey_hbase::store::HBaseStore")]
pub mod index {
    #![allow(deprecated)]
    pub use crate::store::{CHECKPOINT_FAMILY, CHECKPOINT_QUALIFIER, FAMILY, QUALIFIER};
    /// Renamed [`HBaseStore`](crate::store::HBaseStore).
    #[deprecated(note = "use rowkey_hbase::store::HBaseStore")]
    pub type HBaseIndexStore = crate::store::HBaseStore;
}

/// HBase's protobuf messages for filters, generated by prost from HBase's own `Filter.proto`,
/// `Comparator.proto` and `HBase.proto` (`proto/regen.sh`).
#[allow(missing_docs, dead_code, clippy::all, rustdoc::all)]
pub(crate) mod proto {
    include!("proto/hbase.pb.rs");
}

/// The Thrift2 bindings, generated from HBase's `thrift2/hbase.thrift` (for calls this crate
/// does not wrap: `Client::raw` hands out a connection).
#[allow(missing_docs, unused_imports, clippy::all, rustdoc::all)]
#[path = "thrift/hbase.rs"]
pub mod thrift;

pub use client::{Client, Conn, DEFAULT_MAX_STREAMS};
pub use error::{
    ConnectionError, ConnectionKind, Error, FailedWrite, Outcome, ServerError, WriteFailures,
};
pub use gateway::{GatewayConfig, Protocol, Transport};
#[cfg(feature = "kerberos")]
pub use kerberos::{Kerberos, Qop};
pub use read::Read;
pub use region::Region;
pub use table::{Row, RowCell, Table};
pub use write::{Batch, Cell};

pub(crate) use client::table_name;
