//! [`HotspotError`], the invalid inputs of an analysis, and the heatmap's size limit.

use std::fmt;

/// Invalid input to an [`Analyzer`](super::Analyzer).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HotspotError {
    /// Split point `index` does not sort strictly after the one before it.
    UnsortedSplitPoints {
        /// Index of the offending split point.
        index: usize,
    },
    /// Split point `index` is empty (the empty key is the start of the table, not a split).
    EmptySplitPoint {
        /// Index of the offending split point.
        index: usize,
    },
    /// The heatmap's time span `[t0, t1)` is empty.
    EmptyTimeSpan {
        /// Start of the span.
        t0: u64,
        /// End of the span (exclusive).
        t1: u64,
    },
    /// Zero time slices, or more slices × regions cells than [`MAX_HEATMAP_CELLS`].
    InvalidSlices {
        /// Slices asked for.
        slices: usize,
        /// Regions of the analyzer.
        regions: usize,
    },
    /// A [`LoadMap`](super::LoadMap) without key ranges.
    NoRanges,
    /// Key range `index` of a [`LoadMap`](super::LoadMap) ends before it starts, starts before
    /// the one before it ends, or has no end and is not the last.
    UnorderedRanges {
        /// Index of the offending range.
        index: usize,
    },
    /// Interval `interval` of a [`LoadMap`](super::LoadMap) does not have one rate per range.
    RatesPerRange {
        /// Index the interval would have had.
        interval: usize,
        /// Key ranges of the map.
        expected: usize,
        /// Rates given.
        got: usize,
    },
    /// A rate that is negative, infinite or not a number.
    InvalidRate {
        /// Index the interval would have had.
        interval: usize,
        /// The range of the first such rate.
        range: usize,
    },
    /// Interval `interval` ends before it starts, or starts before the previous one ends.
    UnorderedIntervals {
        /// Index the interval would have had.
        interval: usize,
    },
    /// A [`Report`](super::Report) without time slices made into a
    /// [`LoadMap`](super::LoadMap).
    NoTimeSlices,
}

/// Upper bound on time slices × regions of a heatmap (16 Mi cells, 128 MiB of counters).
pub const MAX_HEATMAP_CELLS: usize = 1 << 24;

impl fmt::Display for HotspotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HotspotError::UnsortedSplitPoints { index } => write!(
                f,
                "split point {index} does not sort after split point {}: split points must be \
                 strictly increasing",
                index.saturating_sub(1)
            ),
            HotspotError::EmptySplitPoint { index } => write!(
                f,
                "split point {index} is empty; the empty key is the start of the table, not a split"
            ),
            HotspotError::EmptyTimeSpan { t0, t1 } => {
                write!(f, "heatmap time span [{t0}, {t1}) is empty")
            }
            HotspotError::InvalidSlices { slices, regions } => write!(
                f,
                "{slices} time slices × {regions} regions: need 1 or more slices and at most \
                 {MAX_HEATMAP_CELLS} cells"
            ),
            HotspotError::NoRanges => f.write_str("a load map needs at least one key range"),
            HotspotError::UnorderedRanges { index } => write!(
                f,
                "key range {index} ends before it starts, starts before the range before it \
                 ends, or has no end and is not the last: ranges must be in key order"
            ),
            HotspotError::RatesPerRange {
                interval,
                expected,
                got,
            } => write!(
                f,
                "interval {interval}: {got} rates for {expected} key ranges (one per range, in \
                 key order)"
            ),
            HotspotError::InvalidRate { interval, range } => write!(
                f,
                "interval {interval}, key range {range}: a rate must be a finite number, 0 or more"
            ),
            HotspotError::UnorderedIntervals { interval } => write!(
                f,
                "interval {interval} ends before it starts or starts before the previous one \
                 ends: intervals must be in time order"
            ),
            HotspotError::NoTimeSlices => f.write_str(
                "the report has no time slices: give the Analyzer a time span \
                 (with_time_span) to see its keys over time",
            ),
        }
    }
}

impl std::error::Error for HotspotError {}
