//! A command-line key tool for a project's own key types (feature `tool`).
//!
//! ```toml
//! [dependencies]
//! rowkey = { version = "0.1", features = ["tool"] }
//! ```
//!
//! A project writes one line and gets a binary that reads and writes its keys the way the HBase
//! shell, `cbt` and logs print them:
//!
//! ```no_run
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct OrderBySeller {
//!     #[salt(buckets = 16)]
//!     seller_id: u64,
//!     #[reverse_ts]
//!     created_ms: i64,
//!     #[sep]
//!     order_no: String,
//! }
//!
//! fn main() {
//!     rowkey::tool::main::<(OrderBySeller,)>()
//! }
//! ```
//!
//! Subcommands (each has `--help` with examples, and `--json` for scripts):
//!
//! * `describe [KEY…]` — keys in HBase `toStringBinary` form (what the shell, `cbt` users and
//!   logs copy), or hex with `--hex`; from the arguments or stdin, one per line. Every key type
//!   is tried; each type that decodes the key is printed field by field (with byte offsets). A
//!   key no type decodes gets each type's decode error (field and byte offset).
//! * `encode TYPE field=value…` — the key as an HBase shell literal, hex and `toStringBinary`.
//!   Value syntax per field type: see [`crate::text`].
//! * `scan TYPE field=value… [field=lo..hi | field^=prefix]` — the ranges `T::scan()` builds,
//!   as HBase shell `scan` commands, `cbt read` commands and hex.
//! * `plan TYPE --regions N [--sample FILE] [--check]` — split points, the HBase `create`
//!   statement and the `cbt createtable` command; `--check` runs the [plan lint](crate::plan::Lint).
//! * `hotspots TYPE (--regions N | --splits FILE) --keys DUMP [--time-field F] [--svg OUT]` —
//!   the [hotspot report](crate::hotspot) of a key dump: the output of an HBase shell `scan`,
//!   of `cbt read`, or one key per line (`toStringBinary` or hex), detected automatically and
//!   read as a stream (constant memory), with a progress line when stderr is a terminal.
//! * `types` — the key types and their fields.
//!
//! A key type may be a keyspace: a tagged key enum (`#[rowkey(tag = ..)]` variants, several
//! key types in one table). `describe` dispatches on the tag and shows the variant (with the
//! tag's byte range) before the variant key's salt and fields; `encode` and `scan` take
//! `variant=NAME` and then that variant's fields (`scan` gives `T::scan_<variant>()`'s ranges,
//! behind the tag); `types` lists each variant with its tag and fields. `plan` and `hotspots`
//! take the keyspace's keys as they are (a keyspace has no one layout to plan from: give
//! `--sample`/`--splits`; `--time-field` may name a field of any variant).
//!
//! ```no_run
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct OrderRow {
//!     #[salt(buckets = 4)]
//!     order_id: u64,
//! }
//!
//! #[derive(RowKey)]
//! struct ByBuyer {
//!     #[sep]
//!     buyer: String,
//!     order_id: u64,
//! }
//!
//! #[derive(RowKey)]
//! enum Orders {
//!     #[rowkey(tag = b"r")]
//!     Row(OrderRow),
//!     #[rowkey(tag = b"i1")]
//!     Buyer(ByBuyer),
//! }
//!
//! // keytool encode Orders variant=Buyer buyer=ann order_id=7
//! // keytool scan Orders variant=Row order_id=42
//! fn main() {
//!     rowkey::tool::main::<(Orders,)>()
//! }
//! ```
//!
//! Exit codes: 0 on success, 1 when the input is bad or a key does not decode (one `error:`
//! line on stderr, naming the field, and the byte offset for a key that does not decode), 2
//! for a command-line usage error. A 3 a.m. session with the tool — a hot region, a key from
//! the log, the seller's rows ready to paste into the HBase shell or `cbt`, the hotspot report
//! of a table dump, a new plan — and how each dump format reads back every byte: [the guide's
//! chapter on operating a table](https://docs.rs/rowkey/latest/rowkey/guide/operating/index.html).
//!
//! Tests drive [`run`] in-process with their own stdin/stdout/stderr.

mod cbt;
mod cli;
mod ctx;
mod decoded;
mod describe;
mod dump;
mod encode;
mod failure;
mod hotspots;
mod json;
mod key_type;
mod plan;
mod run;
mod scan;

pub use dump::{read_dump, read_dump_as, DumpFormat};
pub use key_type::{KeyType, KeyTypes};
pub use run::{main, run};
