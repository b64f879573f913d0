#![doc = include_str!("../README.md")]
//!
//! ## Crate layout
//!
//! This facade re-exports the runtime ([`rowkey-core`](rowkey_core)) and the derive
//! ([`RowKey`](derive@RowKey)). Depend on `rowkey` alone; generated code refers to `::rowkey`
//! (override with `#[rowkey(crate = "path")]` when re-exporting).
#![warn(missing_docs)]

pub use rowkey_core::*;

/// `#[derive(RowKey)]`: see the [crate documentation](crate) for the attributes.
pub use rowkey_derive::RowKey;
