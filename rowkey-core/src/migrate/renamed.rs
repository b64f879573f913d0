//! Deprecated names of this module's items before the store reshape (#34), for at least one
//! release (CONTRIBUTING.md, "Deprecation").
#![allow(deprecated)]

use crate::store;

/// Moved: [`rowkey::store::KeyValue`](crate::store::KeyValue).
#[deprecated(note = "use rowkey::store::KeyValue")]
pub type Row = store::KeyValue;

/// Moved: [`rowkey::store::Store`](crate::store::Store), which every store implements (this
/// name is a bound only: implement `rowkey::store::Store` — `scan` takes a
/// [`Table`](crate::store::Table) and a `reverse` flag, `get` and `apply` are new, and the
/// checkpoint is named).
#[deprecated(note = "use rowkey::store::Store")]
pub trait Store: store::Store {}

impl<T: store::Store + ?Sized> Store for T {}
