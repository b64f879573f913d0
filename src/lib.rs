// The README's links point at docs.rs and the repository's files, which is what reads on
// GitHub. Here the same labels are defined first, as intra-doc links (checked by rustdoc) and
// as the repository's URLs: Markdown uses a label's first definition.
#![doc = "[guide]: crate::guide"]
#![doc = "[keys]: crate::guide::keys"]
#![doc = "[scans]: crate::guide::scans"]
#![doc = "[planning]: crate::guide::planning"]
#![doc = "[struct_keys]: crate::guide::struct_keys"]
#![doc = "[phoenix]: crate::guide::phoenix"]
#![doc = "[index_tables]: crate::guide::index_tables"]
#![doc = "[migrations]: crate::guide::migrations"]
#![doc = "[operating]: crate::guide::operating"]
#![doc = "[format]: crate::guide::byte_format"]
#![doc = concat!("[BENCHMARKS.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/BENCHMARKS.md")]
#![doc = concat!("[RELIABILITY.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/RELIABILITY.md")]
#![doc = concat!("[CONTRIBUTING.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/CONTRIBUTING.md")]
#![doc = concat!("[ARCHITECTURE.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/ARCHITECTURE.md")]
#![doc = ""]
#![doc = include_str!("../README.md")]
//!
//! ## Crate layout
//!
//! This facade re-exports the runtime ([`rowkey-core`](rowkey_core)) and the derive
//! ([`RowKey`](derive@RowKey)), and holds [the guide](guide). Depend on `rowkey` alone;
//! generated code refers to `::rowkey` (override with `#[rowkey(crate = "path")]` when
//! re-exporting).
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use rowkey_core::*;

pub use rowkey_derive::RowKey;

pub mod guide;
