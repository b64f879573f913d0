//! Key types shared by several integration tests (`mod common;`). Each test crate compiles this
//! module and uses only some of it, hence the `dead_code` allowance.
//!
//! Only layouts that are identical wherever they are used live here; a test that needs a
//! variant defines its own. `tests/keys/golden.rs` and `tests/keys/hygiene.rs` deliberately keep their own
//! definitions: the golden corpus must not change when another test's key changes, and the
//! hygiene test builds its keys under `#![no_implicit_prelude]`.
#![allow(dead_code)]

use std::ops::Bound;

use rowkey::RowKey;

/// The shape every scan's ranges must have (`ranges::assert_well_formed`).
#[path = "ranges.rs"]
pub mod ranges;

/// The canonical example: salt over the seller, newest orders first, the order number last.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderBySeller {
    #[salt(buckets = 16)]
    pub seller_id: u64,
    #[reverse_ts]
    pub created_ms: i64,
    #[sep]
    pub order_no: String,
}

/// Phoenix salt (16 buckets) over one field, which here is the whole key.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SaltField {
    #[salt(buckets = 16)]
    pub host: String,
}

/// Phoenix salt (16 buckets) over the whole key, as a container attribute.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
pub struct SaltWhole {
    pub host: String,
}

/// More than 256 buckets: a two-byte salt.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 1000))]
pub struct Salt1000 {
    pub host: String,
}

/// Time buckets: salt = `ts % 8`.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct TimeBucket {
    #[salt(buckets = 8, modulo)]
    pub ts: u64,
    #[sep]
    pub host: String,
}

/// A variable-length key with a 10-byte limit (`EncodeError` above it, checked on decode too).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(max_len = 10)]
pub struct Budget {
    pub id: u32,
    #[sep]
    pub name: String,
}

/// The nine bound shapes of a range from `a` to `b`: `a..=b`, `a..b`, `a..`, the three with `a`
/// excluded, `..=b`, `..b` and `..` — every `RangeBounds` form a `_range` takes.
pub fn bound_shapes<T: Clone>(a: T, b: T) -> [(Bound<T>, Bound<T>); 9] {
    use Bound::*;
    [
        (Included(a.clone()), Included(b.clone())),
        (Included(a.clone()), Excluded(b.clone())),
        (Included(a.clone()), Unbounded),
        (Excluded(a.clone()), Included(b.clone())),
        (Excluded(a.clone()), Excluded(b.clone())),
        (Excluded(a), Unbounded),
        (Unbounded, Included(b.clone())),
        (Unbounded, Excluded(b)),
        (Unbounded, Unbounded),
    ]
}
