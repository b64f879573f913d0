//! Scans and reads: the typed scan builders (prefixes, ranges, IN-lists, skip forms) against
//! brute force, and merged reads on an embedded store.
//!
//! - [`scan_matrix`]: every field encoding × every builder form;
//! - [`range_layouts`], [`minimal_ranges`]: ranges on layouts that are not one plain prefix,
//!   exact and minimal over whole small key spaces;
//! - [`in_lists`]: IN-lists and skip-scans on redb;
//! - [`scan_forms`], [`scan_store_props`]: argument forms and store bounds, typed scans on redb;
//! - [`read_props`]: typed, merged reads (`rowkey::read`) on redb and streams.

// the bound shapes and their macros, for every module below
#[macro_use]
#[path = "../common/shapes.rs"]
mod shapes;

#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "redb")]
mod in_lists;
mod minimal_ranges;
mod range_layouts;
#[cfg(all(feature = "redb", feature = "async"))]
mod read_props;
#[cfg(feature = "redb")]
mod scan_forms;
mod scan_matrix;
mod scan_store_props;
