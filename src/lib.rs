//! rowkey facade.
pub use rowkey_core::*;
pub use rowkey_derive::RowKey;
