//! [`PlanError`], why a plan failed, and the region limit every planner checks.

use std::fmt;

/// Why split points could not be planned.
///
/// ```
/// use rowkey::plan::{hex_string_split_range, PlanError, MAX_REGIONS};
/// use rowkey::plan::SplitPoints;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Log {
///     #[sep]
///     host: String,
///     seq: u64,
/// }
///
/// // nothing in the layout spreads the keys: the split points must come from real keys
/// match Log::split_points(8) {
///     Err(PlanError::NeedsSample { layout, salt_buckets }) => {
///         assert_eq!((layout, salt_buckets), ("Log", None));
///         let sample = ["a", "b", "c", "d"].map(|h| Log { host: h.into(), seq: 0 }.to_row_key().unwrap());
///         assert_eq!(Log::split_points_from_sample(&sample, 2)?.len(), 1);
///     }
///     other => panic!("{other:?}"),
/// }
/// assert!(matches!(
///     hex_string_split_range(MAX_REGIONS + 1, "00", "ff"),
///     Err(PlanError::RegionLimit { .. })
/// ));
/// # Ok::<(), PlanError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanError {
    /// Fewer regions than the operation needs (`min`).
    TooFewRegions {
        /// Regions asked for.
        regions: usize,
        /// The smallest accepted number.
        min: usize,
    },
    /// The requested split would have to cut bytes whose distribution the layout does not
    /// tell (data bytes rather than a salt or hash-prefix character), so some regions could be
    /// unreachable: the layout has neither a salt nor a hash prefix on its first field, or it
    /// is salted (`salt_buckets`) and more regions than buckets were asked for while nothing
    /// after the salt is a hash prefix.
    NeedsSample {
        /// The key type's name.
        layout: &'static str,
        /// The layout's salt buckets, when the layout is salted (then up to this many regions
        /// can be planned from the layout alone; more need
        /// [`salted_sample_split_points`](super::salted_sample_split_points)).
        salt_buckets: Option<u32>,
    },
    /// More regions than salt buckets, but not a multiple of them.
    RegionsNotMultipleOfBuckets {
        /// Regions asked for.
        regions: usize,
        /// Salt buckets of the layout.
        buckets: u32,
    },
    /// More regions than distinct values of the prefix that is being split.
    TooManyRegions {
        /// Regions (or parts of a salt bucket) asked for.
        regions: usize,
        /// The number of distinct prefix values.
        max: u128,
        /// What is being split, e.g. `"4 hex characters of the hash prefix"`.
        space: String,
    },
    /// A first or last row that is not a number in the split's radix.
    InvalidRow {
        /// The row as given.
        row: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The last row does not sort after the first row.
    EmptyRange {
        /// First row (HBase `toStringBinary` form).
        first: String,
        /// Last row (HBase `toStringBinary` form).
        last: String,
    },
    /// More regions than rows in `[first, last]` (HBase: "split granularity is greater than
    /// the range").
    RangeTooSmall {
        /// Regions asked for.
        regions: usize,
        /// The number of rows in the range, in decimal.
        range: String,
    },
    /// The layout is inconsistent (e.g. zero salt buckets, or more buckets than the salt width
    /// can hold).
    InvalidLayout {
        /// What is inconsistent.
        reason: String,
    },
    /// [`salted_sample_split_points`](super::salted_sample_split_points) for a layout without a
    /// salt.
    NotSalted {
        /// The key type's name.
        layout: &'static str,
    },
    /// A sample key that no key of the layout can equal (e.g. a salt byte at or above the
    /// bucket count, or a key shorter than the salt).
    InvalidSampleKey {
        /// Position of the key in the sample.
        index: usize,
        /// The key (HBase `toStringBinary` form).
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// More regions than [`MAX_REGIONS`].
    RegionLimit {
        /// Regions asked for.
        regions: usize,
        /// [`MAX_REGIONS`].
        max: usize,
    },
}

/// The most regions any function here plans for (2^20, about a million): far above real
/// tables (HBase clusters run thousands of regions), low enough that a mistyped count fails
/// instead of exhausting memory.
pub const MAX_REGIONS: usize = 1 << 20;

pub(super) fn check_limit(regions: usize) -> Result<(), PlanError> {
    if regions > MAX_REGIONS {
        Err(PlanError::RegionLimit {
            regions,
            max: MAX_REGIONS,
        })
    } else {
        Ok(())
    }
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::TooFewRegions { regions, min } => {
                write!(f, "{regions} regions requested; at least {min} needed")
            }
            PlanError::NeedsSample {
                layout,
                salt_buckets: None,
            } => write!(
                f,
                "`{layout}` has no salt and no hash prefix on its first field, so its key \
                 distribution cannot be derived from the layout; compute split points from a \
                 sample of real keys with `rowkey::plan::split_points_from_sample`"
            ),
            PlanError::NeedsSample {
                layout,
                salt_buckets: Some(buckets),
            } => write!(
                f,
                "`{layout}` is salted into {buckets} buckets, but no hash prefix follows the \
                 salt: splitting a bucket would cut data bytes whose values the layout does not \
                 tell (e.g. the high byte of a u64 id, which is 0x00 for every realistic id), \
                 leaving regions no key can reach; plan at most {buckets} regions from the \
                 layout, or split each bucket at the quantiles of a sample of real keys with \
                 `rowkey::plan::salted_sample_split_points` (`T::split_points_from_sample` \
                 with `use rowkey::plan::SplitPoints;`)"
            ),
            PlanError::RegionsNotMultipleOfBuckets { regions, buckets } => write!(
                f,
                "{regions} regions for {buckets} salt buckets: more regions than buckets must be \
                 a multiple of the buckets (e.g. {} or {}) so that every bucket is split alike; \
                 for other counts split each bucket at the quantiles of a sample of real keys \
                 with `rowkey::plan::salted_sample_split_points` \
                 (`T::split_points_from_sample` with `use rowkey::plan::SplitPoints;`)",
                buckets,
                u64::from(*buckets) * 2
            ),
            PlanError::TooManyRegions {
                regions,
                max,
                space,
            } => write!(
                f,
                "{regions} regions requested but the {space} only has {max} distinct values; \
                 some regions could never receive a key"
            ),
            PlanError::InvalidRow { row, reason } => write!(f, "invalid row {row:?}: {reason}"),
            PlanError::EmptyRange { first, last } => write!(
                f,
                "last row ({last}) is configured less than or equal to first row ({first})"
            ),
            PlanError::RangeTooSmall { regions, range } => write!(
                f,
                "split granularity ({regions}) is greater than the range ({range})"
            ),
            PlanError::InvalidLayout { reason } => write!(f, "inconsistent key layout: {reason}"),
            PlanError::NotSalted { layout } => write!(
                f,
                "`{layout}` has no salt, so there are no bucket boundaries to keep; use \
                 `rowkey::plan::split_points_from_sample` (or `T::split_points_from_sample` \
                 with `use rowkey::plan::SplitPoints;`)"
            ),
            PlanError::InvalidSampleKey { index, key, reason } => {
                write!(
                    f,
                    "sample key {index} ({key}) is not a key of the layout: {reason}"
                )
            }
            PlanError::RegionLimit { regions, max } => write!(
                f,
                "{regions} regions requested; rowkey::plan plans at most {max}"
            ),
        }
    }
}

impl std::error::Error for PlanError {}
