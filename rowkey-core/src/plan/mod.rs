//! Region planning: where to pre-split a table, how many regions, and the HBase shell
//! statement that creates it.
//!
//! ```toml
//! [dependencies]
//! rowkey = { version = "0.1", features = ["plan"] }
//! ```
//!
//! * [`layout_split_points`] (behind `T::split_points(regions)`): split points derived from a
//!   key layout — salt bucket boundaries, or even splits of the hash-prefix space.
//!   Only bytes that vary by construction (salt, hash-prefix characters) are cut, so every
//!   region is reachable; anything else is [`PlanError::NeedsSample`].
//! * [`split_points_from_sample`]: quantiles of a sample of real keys, for layouts with neither;
//!   [`salted_sample_split_points`]: for salted layouts, bucket boundaries kept and each bucket
//!   split at its own sample quantiles; [`layout_sample_split_points`] (behind
//!   `T::split_points_from_sample`) picks the right one.
//! * [`hex_string_split`], [`decimal_string_split`], [`uniform_split`]: HBase `RegionSplitter`
//!   `HexStringSplit`, `DecimalStringSplit` and `UniformSplit`, byte-identical, with `_range`
//!   variants for a custom first/last row.
//! * [`create_table_split_keys`] / [`bytes_split`]: the split keys of HBase
//!   `Admin.createTable(desc, startKey, endKey, numRegions)` and `Bytes.split`, byte-identical.
//! * [`lint`]: a plan's problems before the table exists ([`Lint`]).
//! * [`region_count`] and [`create_statement`] / [`CreateStatement`].
//!
//! ```
//! use rowkey::plan::{create_statement, hex_string_split, region_count};
//!
//! let regions = region_count(6_500 * 1_000_000_000, 10 * 1_000_000_000); // 6.5 TB, 10 GB regions
//! assert_eq!(regions, 650);
//! let splits = hex_string_split(4);
//! assert_eq!(splits, [b"40000000", b"80000000", b"c0000000"]);
//! assert_eq!(
//!     create_statement("ns:orders", "d", &splits),
//!     r#"create 'ns:orders', {NAME => 'd', COMPRESSION => 'SNAPPY'}, SPLITS => ["40000000", "80000000", "c0000000"]"#
//! );
//! ```

mod error;
mod hbase_split;
mod layout;
pub mod lint;
mod nat;
mod sample;

pub use error::{PlanError, MAX_REGIONS};
pub use hbase_split::{
    bytes_split, create_table_split_keys, decimal_string_split, decimal_string_split_range,
    hex_string_split, hex_string_split_range, uniform_split, uniform_split_range,
};
pub use layout::{
    layout_sample_split_points, layout_split_points, salted_sample_split_points, SplitPoints,
};
pub use lint::{Finding, FindingKind, Lint, LintReport, Severity};
pub use sample::{create_statement, region_count, split_points_from_sample, CreateStatement};

#[cfg(test)]
mod tests;
