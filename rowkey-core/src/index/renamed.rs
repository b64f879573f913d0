//! Deprecated names of this module's items before the store reshape (#34): each is the item
//! it was renamed to, for at least one release (CONTRIBUTING.md, "Deprecation").
#![allow(deprecated)]

use crate::store;

use super::read::IndexScan;
use super::scrub::ScrubFinding;
use super::table::IndexBatch;

/// Renamed [`IndexBatch`].
#[deprecated(note = "use rowkey::index::IndexBatch")]
pub type Batch<R> = IndexBatch<R>;

/// Renamed [`IndexScan`].
#[deprecated(note = "use rowkey::index::IndexScan")]
pub type Scan<'a, S, R, I> = IndexScan<'a, S, R, I>;

/// Renamed [`ScrubFinding`].
#[deprecated(note = "use rowkey::index::ScrubFinding")]
pub type Finding = ScrubFinding;

/// Moved: [`rowkey::store::KeyValue`](crate::store::KeyValue).
#[deprecated(note = "use rowkey::store::KeyValue")]
pub type Row = store::KeyValue;

/// Moved: [`rowkey::store::Table`](crate::store::Table).
#[deprecated(note = "use rowkey::store::Table")]
pub type Table = store::Table;

/// Moved: [`rowkey::store::Write`](crate::store::Write).
#[deprecated(note = "use rowkey::store::Write")]
pub type Write = store::Write;

/// Moved: [`rowkey::store::Store`](crate::store::Store), which every store implements (this
/// name is a bound only: implement `rowkey::store::Store`, which now also has `get` and a
/// `reverse` scan, and whose `apply` takes the checkpoint).
#[deprecated(note = "use rowkey::store::Store")]
pub trait Store: store::Store {}

impl<T: store::Store + ?Sized> Store for T {}
