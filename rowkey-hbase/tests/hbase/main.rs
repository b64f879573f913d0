//! Every test of rowkey-hbase that needs a server, in one test binary: standalone HBase 2.6.1
//! with Apache Phoenix 5.2.1 in it and its Thrift2 gateway
//! (`rowkey_hbase::testkit::HBase::shared_phoenix`, on free loopback ports, stopped when the
//! binary exits; JDK 17 and Maven, the jars from Maven Central on the first run). Tests that need
//! a gateway of their own (idle timeouts, restarts) start one beside the server's; two topics need
//! a server configured otherwise and start it on first use: the HexStringSplit experiment (three
//! region servers) and `kerberos` (a KDC and a Kerberized HBase).
//!
//! One module per topic:
//!
//! - [`bulk`]: typed rows written as HFiles per region, loaded by HBase's `BulkLoadHFilesTool`,
//!   read back cell for cell;
//! - [`live`]: writes, pre-split tables and the region view, faults in the middle of reads and
//!   migrations, the HexStringSplit experiment, and reads that hold up in production;
//! - [`oracle`]: typed reads against a brute-force oracle (2,100 range and 1,020 IN-list queries);
//! - [`gateways`]: every transport a gateway offers (framed, compact, HTTP, HTTPS), and the wrong
//!   client for each refused with a clear error;
//! - [`index`]: the index tables' crash proof on the server;
//! - `kerberos` (feature `kerberos`): SASL GSSAPI at every protection level and SPNEGO over
//!   HTTPS against a Kerberized HBase, and every refusal; `kerberos_mit`: the refusals'
//!   diagnoses against a real MIT KDC, and a Kerberos client at a gateway without SASL;
//! - [`shell`]: the real HBase shell runs what `plan` and the key tool print;
//! - [`phoenix`], [`phoenix_types`], [`phoenix_scans`]: Phoenix's own row keys, every key type,
//!   and typed scans against Phoenix's `WHERE`;
//! - [`phoenix_edges`]: issue 49 — the `DECIMAL` exponent-wrap sweep (Phoenix's `UPSERT` and
//!   `SELECT` against rowkey's encode and decode, value by value) and a legacy
//!   (`rowKeyOrderOptimizable` false) table with `'\0'` inside DESC `VARCHAR`s;
//! - [`phoenix_golden`]: the frozen keys Phoenix wrote (no server).
//!
//! `cargo test -p rowkey-hbase --test hbase -- phoenix_scans --nocapture` runs one topic.

// the bound shapes and their macros, for every module below
#[macro_use]
#[path = "../../../tests/common/shapes.rs"]
mod shapes;
// the crash-injecting store of the index crash proof
#[path = "../../../tests/common/crashy.rs"]
mod crashy;
#[path = "../common/smoke.rs"]
mod smoke;

mod bulk;
mod gateways;
mod index;
#[cfg(feature = "kerberos")]
mod kerberos;
#[cfg(feature = "kerberos")]
mod kerberos_mit;
mod live;
mod oracle;
mod phoenix;
mod phoenix_edges;
mod phoenix_golden;
mod phoenix_scans;
mod phoenix_types;
mod shell;
