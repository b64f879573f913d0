//! Runtime of [`rowkey`](https://docs.rs/rowkey): field codecs, errors, scan ranges, merge,
//! region planning and HBase interop. Users depend on the `rowkey` facade, which re-exports
//! everything here together with `#[derive(RowKey)]`.
#![forbid(unsafe_op_in_unsafe_fn)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
// Keys come from storage and users: no input may panic the runtime. Tests may unwrap.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]

pub mod codec;
pub mod error;
pub mod hash_prefix;
pub mod hbase;
#[cfg(feature = "hotspot")]
pub mod hotspot;
#[cfg(feature = "index")]
pub mod index;
pub mod layout;
pub mod merge;
#[cfg(feature = "migrate")]
pub mod migrate;
pub mod phoenix;
#[cfg(feature = "plan")]
pub mod plan;
pub mod read;
pub mod salt;
#[cfg(feature = "migrate")]
pub mod store;
pub mod struct_key;
pub mod text;
#[cfg(feature = "tool")]
pub mod tool;

pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

#[doc(hidden)]
pub mod __private;
mod bound;
mod decode;
mod describe;
mod integer;
mod key;
mod parts;
pub mod scan;

pub use bytes::{BufMut, Bytes};
pub use key::{DecodeRowKey, DecodeRowKeyOwned, RowKey};
pub use layout::Layout;
pub use scan::{ScanRange, ScanRanges};
