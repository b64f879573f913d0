//! Runtime of [`rowkey`](https://docs.rs/rowkey): field codecs, errors, scan ranges, merge,
//! region planning and HBase interop. Users depend on the `rowkey` facade, which re-exports
//! everything here together with `#[derive(RowKey)]`.
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod hbase;
pub mod hotspot;
pub mod layout;
pub mod plan;
pub mod codec;
pub mod error;

pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
