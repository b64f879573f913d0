//! The nine bound shapes of a `_range` argument, shared by the brute-force scan oracles
//! (`tests/scans/scan_store_props.rs` and the store oracles of `tests/store_oracle/cases.rs`, which
//! `rowkey-bigtable` and `rowkey-hbase` include): the shape as data ([`Shape`], [`SHAPES`]), the
//! oracle's view of it as plain `Bound`s ([`bounds`], [`contains`]), and [`with_range!`], which
//! builds the real `RangeBounds` value of a shape — each shape is its own type — for a builder
//! call. Included by path with `#[macro_use]`.
#![allow(dead_code, unused_macros)]

use std::ops::Bound;

/// A range shape; the doc of each variant is the Rust form it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `a..b`
    HalfOpen,
    /// `a..=b`
    Closed,
    /// `a..`
    From,
    /// `..b`
    To,
    /// `..=b`
    ToClosed,
    /// `..`
    Full,
    /// `(Excluded(a), Excluded(b))`
    OpenOpen,
    /// `(Excluded(a), Included(b))`
    OpenClosed,
    /// `(Excluded(a), Unbounded)`
    OpenFrom,
}

pub const SHAPES: [Shape; 9] = [
    Shape::HalfOpen,
    Shape::Closed,
    Shape::From,
    Shape::To,
    Shape::ToClosed,
    Shape::Full,
    Shape::OpenOpen,
    Shape::OpenClosed,
    Shape::OpenFrom,
];

pub fn bounds<V>(shape: Shape, a: V, b: V) -> (Bound<V>, Bound<V>) {
    use Bound::{Excluded, Included, Unbounded};
    match shape {
        Shape::HalfOpen => (Included(a), Excluded(b)),
        Shape::Closed => (Included(a), Included(b)),
        Shape::From => (Included(a), Unbounded),
        Shape::To => (Unbounded, Excluded(b)),
        Shape::ToClosed => (Unbounded, Included(b)),
        Shape::Full => (Unbounded, Unbounded),
        Shape::OpenOpen => (Excluded(a), Excluded(b)),
        Shape::OpenClosed => (Excluded(a), Included(b)),
        Shape::OpenFrom => (Excluded(a), Unbounded),
    }
}

pub fn contains<V: Ord>(b: &(Bound<V>, Bound<V>), v: &V) -> bool {
    let lo = match &b.0 {
        Bound::Included(a) => v >= a,
        Bound::Excluded(a) => v > a,
        Bound::Unbounded => true,
    };
    let hi = match &b.1 {
        Bound::Included(a) => v <= a,
        Bound::Excluded(a) => v < a,
        Bound::Unbounded => true,
    };
    lo && hi
}

/// Builds the `RangeBounds` value of a shape (each shape is its own type) and runs `$body`.
macro_rules! with_range {
    ($shape:expr, $a:expr, $b:expr, |$r:ident| $body:expr) => {{
        let (a, b) = ($a, $b);
        match $shape {
            Shape::HalfOpen => {
                let $r = a..b;
                $body
            }
            Shape::Closed => {
                let $r = a..=b;
                $body
            }
            Shape::From => {
                let _ = b;
                let $r = a..;
                $body
            }
            Shape::To => {
                let _ = a;
                let $r = ..b;
                $body
            }
            Shape::ToClosed => {
                let _ = a;
                let $r = ..=b;
                $body
            }
            Shape::Full => {
                let _ = (a, b);
                let $r = ..;
                $body
            }
            Shape::OpenOpen => {
                let $r = (Bound::Excluded(a), Bound::Excluded(b));
                $body
            }
            Shape::OpenClosed => {
                let $r = (Bound::Excluded(a), Bound::Included(b));
                $body
            }
            Shape::OpenFrom => {
                let _ = b;
                let $r = (Bound::Excluded(a), Bound::Unbounded);
                $body
            }
        }
    }};
}
