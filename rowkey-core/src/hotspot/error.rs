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
        }
    }
}

impl std::error::Error for HotspotError {}
