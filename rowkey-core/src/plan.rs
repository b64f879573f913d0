//! Region planning: where to pre-split a table, how many regions, and the HBase shell
//! statement that creates it.
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
//! use rowkey_core::plan::{create_statement, hex_string_split, region_count};
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

use std::cmp::Ordering;
use std::fmt;

pub mod lint;
pub use lint::{Finding, FindingKind, Lint, LintReport, Severity};

use crate::hbase::{ruby_single_quoted, shell_split_literal, to_string_binary};
use crate::layout::{HashPrefix, Layout, SaltLayout};

/// Why split points could not be planned.
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
        /// [`salted_sample_split_points`]).
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
    /// [`salted_sample_split_points`] for a layout without a salt.
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

fn check_limit(regions: usize) -> Result<(), PlanError> {
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
                 `rowkey::plan::salted_sample_split_points` (`T::split_points_from_sample`)"
            ),
            PlanError::RegionsNotMultipleOfBuckets { regions, buckets } => write!(
                f,
                "{regions} regions for {buckets} salt buckets: more regions than buckets must be \
                 a multiple of the buckets (e.g. {} or {}) so that every bucket is split alike; \
                 for other counts split each bucket at the quantiles of a sample of real keys \
                 with `rowkey::plan::salted_sample_split_points` (`T::split_points_from_sample`)",
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
                 `rowkey::plan::split_points_from_sample` (or `T::split_points_from_sample`)"
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

// ---------------------------------------------------------------------------------------------
// Exact unsigned arithmetic on big-endian byte strings (the `BigInteger` of RegionSplitter),
// so that every width is exact, not only the default ones.
// ---------------------------------------------------------------------------------------------

/// An unsigned integer as big-endian bytes without leading zero bytes (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Nat(Vec<u8>);

impl Nat {
    fn zero() -> Self {
        Nat(Vec::new())
    }

    fn from_be_bytes(bytes: &[u8]) -> Self {
        let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
        Nat(bytes.get(start..).unwrap_or_default().to_vec())
    }

    fn from_u128(v: u128) -> Self {
        Nat::from_be_bytes(&v.to_be_bytes())
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn normalize(mut self) -> Self {
        let start = self.0.iter().position(|&b| b != 0).unwrap_or(self.0.len());
        self.0.drain(..start);
        self
    }

    /// `self * m + a`.
    fn mul_add_small(&self, m: u64, a: u64) -> Self {
        let mut out = Vec::with_capacity(self.0.len() + 9);
        let mut carry = u128::from(a);
        for &b in self.0.iter().rev() {
            let v = u128::from(b) * u128::from(m) + carry;
            out.push((v & 0xFF) as u8);
            carry = v >> 8;
        }
        while carry > 0 {
            out.push((carry & 0xFF) as u8);
            carry >>= 8;
        }
        out.reverse();
        Nat(out).normalize()
    }

    /// `(self / d, self % d)`; `d` must not be zero.
    fn div_rem_small(&self, d: u64) -> (Self, u64) {
        let d = u128::from(d.max(1));
        let mut q = Vec::with_capacity(self.0.len());
        let mut rem: u128 = 0;
        for &b in &self.0 {
            let cur = (rem << 8) | u128::from(b);
            q.push((cur / d) as u8);
            rem = cur % d;
        }
        (Nat(q).normalize(), rem as u64)
    }

    fn add(&self, other: &Nat) -> Self {
        let (a, b) = (&self.0, &other.0);
        let len = a.len().max(b.len());
        let mut out = Vec::with_capacity(len + 1);
        let mut carry = 0u16;
        for i in 0..len {
            let x = a.len().checked_sub(i + 1).and_then(|j| a.get(j)).copied();
            let y = b.len().checked_sub(i + 1).and_then(|j| b.get(j)).copied();
            let v = u16::from(x.unwrap_or(0)) + u16::from(y.unwrap_or(0)) + carry;
            out.push((v & 0xFF) as u8);
            carry = v >> 8;
        }
        if carry > 0 {
            out.push(carry as u8);
        }
        out.reverse();
        Nat(out).normalize()
    }

    /// `self - other`, or `None` when `other > self`.
    fn checked_sub(&self, other: &Nat) -> Option<Self> {
        if *self < *other {
            return None;
        }
        let (a, b) = (&self.0, &other.0);
        let mut out = Vec::with_capacity(a.len());
        let mut borrow = 0i16;
        for i in 0..a.len() {
            let x = a.len().checked_sub(i + 1).and_then(|j| a.get(j)).copied();
            let y = b.len().checked_sub(i + 1).and_then(|j| b.get(j)).copied();
            let mut v = i16::from(x.unwrap_or(0)) - i16::from(y.unwrap_or(0)) - borrow;
            borrow = 0;
            if v < 0 {
                v += 256;
                borrow = 1;
            }
            out.push(v as u8);
        }
        out.reverse();
        Some(Nat(out).normalize())
    }

    fn parse_radix(s: &str, radix: u32) -> Option<Self> {
        if s.is_empty() {
            return None;
        }
        let mut n = Nat::zero();
        for c in s.chars() {
            n = n.mul_add_small(u64::from(radix), u64::from(c.to_digit(radix)?));
        }
        Some(n)
    }

    /// Lowercase digits, as Java `BigInteger.toString(radix)`.
    fn to_radix_string(&self, radix: u32) -> String {
        if self.is_zero() {
            return "0".to_owned();
        }
        let mut digits = Vec::new();
        let mut n = self.clone();
        while !n.is_zero() {
            let (q, r) = n.div_rem_small(u64::from(radix));
            digits.push(char::from_digit(r as u32, radix).unwrap_or('0'));
            n = q;
        }
        digits.iter().rev().collect()
    }

    /// Big-endian bytes left-padded with zeros to `len` (never truncated).
    fn to_be_padded(&self, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len.saturating_sub(self.0.len())];
        out.extend_from_slice(&self.0);
        out
    }
}

impl PartialOrd for Nat {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Nat {
    fn cmp(&self, other: &Self) -> Ordering {
        // Normalized: a longer number is larger; equal lengths compare bytewise.
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.cmp(&other.0))
    }
}

// ---------------------------------------------------------------------------------------------
// RegionSplitter.NumberStringSplit (HexStringSplit, DecimalStringSplit)
// ---------------------------------------------------------------------------------------------

fn number_string_split(
    regions: usize,
    first: &str,
    last: &str,
    radix: u32,
) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions < 2 {
        return Err(PlanError::TooFewRegions { regions, min: 2 });
    }
    check_limit(regions)?;
    let what = if radix == 16 {
        "not a hexadecimal number (0-9, a-f, A-F)"
    } else {
        "not a decimal number (0-9)"
    };
    let parse = |row: &str| {
        Nat::parse_radix(row, radix).ok_or_else(|| PlanError::InvalidRow {
            row: row.to_owned(),
            reason: what,
        })
    };
    let first_n = parse(first)?;
    let last_n = parse(last)?;
    // +1 because the last row is inclusive.
    let range = match last_n.checked_sub(&first_n) {
        Some(d) if !d.is_zero() => d.mul_add_small(1, 1),
        _ => {
            return Err(PlanError::EmptyRange {
                first: first.to_owned(),
                last: last.to_owned(),
            })
        }
    };
    let n = u64::try_from(regions).unwrap_or(u64::MAX);
    if range < Nat::from_u128(u128::from(n)) {
        return Err(PlanError::RangeTooSmall {
            regions,
            range: range.to_radix_string(10),
        });
    }
    let (step, _) = range.div_rem_small(n);
    // Java pads to `lastRow.length()`.
    let width = last.chars().count();
    let mut out = Vec::with_capacity(regions - 1);
    let mut cur = first_n;
    for _ in 1..regions {
        cur = cur.add(&step);
        let digits = cur.to_radix_string(radix);
        let mut row = "0".repeat(width.saturating_sub(digits.len()));
        row.push_str(&digits);
        out.push(row.into_bytes());
    }
    Ok(out)
}

/// HBase `RegionSplitter.HexStringSplit` split points for `regions` regions, byte-identical:
/// the `regions - 1` boundaries over the default range `"00000000"` to `"FFFFFFFF"`.
///
/// As in HBase: the range is `last - first + 1`, `step = floor(range / regions)`, point `i`
/// is `first + i * step` as lowercase hex left-padded with `0` to the width of the last row
/// (8), and the last region gets the remainder.
///
/// Returns an empty `Vec` when `regions < 2` (one region needs no split) or above
/// [`MAX_REGIONS`] (HBase itself throws only above the `2^32` rows of the range); use
/// [`hex_string_split_range`] to get an error instead.
///
/// ```
/// use rowkey_core::plan::hex_string_split;
///
/// assert_eq!(hex_string_split(4), [b"40000000", b"80000000", b"c0000000"]);
/// assert_eq!(hex_string_split(15)[0], b"11111111");
/// assert_eq!(hex_string_split(40).len(), 39);
/// assert!(hex_string_split(1).is_empty());
/// ```
pub fn hex_string_split(regions: usize) -> Vec<Vec<u8>> {
    hex_string_split_range(regions, "00000000", "FFFFFFFF").unwrap_or_default()
}

/// HBase `HexStringSplit` over a custom `[first, last]` range (`--firstrow`/`--lastrow`, or
/// `setFirstRow`/`setLastRow`): hex digits of either case; the points are lowercase and padded
/// to the length of `last`.
///
/// Exact for any width (arbitrary-precision arithmetic, like Java's `BigInteger`).
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] for `regions < 2`, [`PlanError::RegionLimit`] above
/// [`MAX_REGIONS`], [`PlanError::InvalidRow`] for an empty row or
/// one with a non-hex character (HBase would also accept a sign), [`PlanError::EmptyRange`]
/// unless `last > first`, [`PlanError::RangeTooSmall`] when there are more regions than rows.
///
/// ```
/// use rowkey_core::plan::{hex_string_split_range, PlanError};
///
/// assert_eq!(hex_string_split_range(4, "0000", "ffff")?, [b"4000", b"8000", b"c000"]);
/// assert_eq!(hex_string_split_range(2, "10", "1F")?, [b"18"]);
/// assert!(matches!(hex_string_split_range(2, "00", "zz"), Err(PlanError::InvalidRow { .. })));
/// assert!(matches!(hex_string_split_range(2, "ff", "00"), Err(PlanError::EmptyRange { .. })));
/// # Ok::<(), PlanError>(())
/// ```
pub fn hex_string_split_range(
    regions: usize,
    first: &str,
    last: &str,
) -> Result<Vec<Vec<u8>>, PlanError> {
    number_string_split(regions, first, last, 16)
}

/// HBase `RegionSplitter.DecimalStringSplit` split points for `regions` regions,
/// byte-identical: the `regions - 1` boundaries over the default range `"00000000"` to
/// `"99999999"`, computed like [`hex_string_split`] in radix 10.
///
/// Returns an empty `Vec` when `regions < 2` or above [`MAX_REGIONS`]; use
/// [`decimal_string_split_range`] to get an error instead.
///
/// ```
/// use rowkey_core::plan::decimal_string_split;
///
/// assert_eq!(decimal_string_split(4), [b"25000000", b"50000000", b"75000000"]);
/// assert_eq!(decimal_string_split(3), [b"33333333", b"66666666"]);
/// ```
pub fn decimal_string_split(regions: usize) -> Vec<Vec<u8>> {
    decimal_string_split_range(regions, "00000000", "99999999").unwrap_or_default()
}

/// HBase `DecimalStringSplit` over a custom `[first, last]` range of decimal rows; points are
/// padded to the length of `last`.
///
/// # Errors
///
/// As [`hex_string_split_range`], for decimal digits.
///
/// ```
/// use rowkey_core::plan::decimal_string_split_range;
///
/// assert_eq!(decimal_string_split_range(4, "000", "999")?, [b"250", b"500", b"750"]);
/// # Ok::<(), rowkey_core::plan::PlanError>(())
/// ```
pub fn decimal_string_split_range(
    regions: usize,
    first: &str,
    last: &str,
) -> Result<Vec<Vec<u8>>, PlanError> {
    number_string_split(regions, first, last, 10)
}

// ---------------------------------------------------------------------------------------------
// RegionSplitter.UniformSplit (Bytes.split(first, last, inclusive = true, regions - 1))
// ---------------------------------------------------------------------------------------------

/// HBase `RegionSplitter.UniformSplit` split points for `regions` regions, byte-identical:
/// the default range is the empty first row (padded to `0x00 × 8`) to `0xFF × 8`, and point `i`
/// is `i * floor(2^64 / regions)` as 8 big-endian bytes.
///
/// Returns an empty `Vec` when `regions < 2` or above [`MAX_REGIONS`]; use
/// [`uniform_split_range`] for custom rows and errors.
///
/// ```
/// use rowkey_core::plan::uniform_split;
///
/// assert_eq!(uniform_split(4), [
///     [0x40, 0, 0, 0, 0, 0, 0, 0],
///     [0x80, 0, 0, 0, 0, 0, 0, 0],
///     [0xC0, 0, 0, 0, 0, 0, 0, 0],
/// ]);
/// assert_eq!(uniform_split(3)[0], [0x55; 8]);
/// ```
pub fn uniform_split(regions: usize) -> Vec<Vec<u8>> {
    uniform_split_range(regions, &[], &[0xFF; 8]).unwrap_or_default()
}

/// HBase `UniformSplit` over custom first/last rows, following `Bytes.split(first, last,
/// true, regions - 1)` exactly: the shorter row is right-padded with `0x00` to the length of the
/// longer; the range is `last - first + 1` (inclusive); while it is smaller than `regions`, both
/// rows get one more `0x00` byte; then point `i` is `first + i * floor(range / regions)` with the
/// padded length.
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] for `regions < 2`, [`PlanError::RegionLimit`] above
/// [`MAX_REGIONS`], [`PlanError::EmptyRange`] unless `last`
/// sorts after `first`, also after padding (HBase: "b <= a").
///
/// ```
/// use rowkey_core::plan::uniform_split_range;
///
/// assert_eq!(uniform_split_range(2, b"a", b"c")?, [b"b"]);
/// // Too narrow a range grows by one byte, as in HBase.
/// assert_eq!(uniform_split_range(4, b"a", b"b")?, [b"a\x40", b"a\x80", b"a\xC0"]);
/// # Ok::<(), rowkey_core::plan::PlanError>(())
/// ```
pub fn uniform_split_range(
    regions: usize,
    first: &[u8],
    last: &[u8],
) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions < 2 {
        return Err(PlanError::TooFewRegions { regions, min: 2 });
    }
    check_limit(regions)?;
    let empty_range = || PlanError::EmptyRange {
        first: to_string_binary(first),
        last: to_string_binary(last),
    };
    if last <= first {
        return Err(empty_range());
    }
    let mut len = first.len().max(last.len());
    let a = Nat::from_be_bytes(first);
    let b = Nat::from_be_bytes(last);
    // Right-padding to `len` bytes multiplies by 256^(len - own length).
    let shift = |n: &Nat, by: usize| (0..by).fold(n.clone(), |acc, _| acc.mul_add_small(256, 0));
    let mut a = shift(&a, len - first.len());
    let mut b = shift(&b, len - last.len());
    let diff = match b.checked_sub(&a) {
        Some(d) if !d.is_zero() => d,
        _ => return Err(empty_range()),
    };
    let n = u64::try_from(regions).unwrap_or(u64::MAX);
    let splits = Nat::from_u128(u128::from(n));
    let mut range = diff.mul_add_small(1, 1);
    while range < splits {
        a = a.mul_add_small(256, 0);
        b = b.mul_add_small(256, 0);
        len += 1;
        range = b
            .checked_sub(&a)
            .map(|d| d.mul_add_small(1, 1))
            .unwrap_or_else(Nat::zero);
    }
    let (interval, _) = range.div_rem_small(n);
    let mut out = Vec::with_capacity(regions - 1);
    let mut cur = a;
    for _ in 1..regions {
        cur = cur.add(&interval);
        out.push(cur.to_be_padded(len));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Bytes.split and Admin.createTable(desc, startKey, endKey, numRegions)
// ---------------------------------------------------------------------------------------------

/// HBase `Bytes.split(a, b, inclusive, num)`, byte-identical: `num + 2` keys — `a`, the `num`
/// points dividing `[a, b]` evenly, and `b`.
///
/// Followed line by line from `Bytes.iterateOnSplits`:
/// 1. the shorter of `a` and `b` is right-padded with `0x00` to the longer one's length;
///    unless padded `a` sorts before padded `b`: error ("b <= a");
/// 2. `diff = b - a` as unsigned big-endian numbers (`+ 1` when `inclusive`);
/// 3. while `diff < num + 1`, both padded rows get one more `0x00` byte and the split is
///    retried — then the first and last keys returned are these padded rows, not `a` and `b`;
/// 4. `interval = floor(diff / (num + 1))` and point `i` is `a + i * interval` as big-endian
///    bytes of the padded length (Java's `BigInteger.toByteArray` with the `{1, 0}` header
///    stripped again; the header's `0x00` byte is always the one dropped, since every point is
///    below `b`).
///
/// The points are strictly increasing, all above `a` and below `b`. Note that this divides the
/// raw *byte* space: for keys drawn from a smaller alphabet (hex or decimal digits) most points
/// fall between the characters keys use — see [`create_table_split_keys`] and [`lint`].
///
/// # Errors
///
/// [`PlanError::EmptyRange`] unless padded `a` sorts before padded `b`;
/// [`PlanError::TooFewRegions`] for `num == 0` (one part; HBase: "num cannot be <= 0");
/// [`PlanError::RegionLimit`] when `num + 1` is above [`MAX_REGIONS`].
///
/// ```
/// use rowkey::plan::bytes_split;
///
/// assert_eq!(bytes_split(b"a", b"z", false, 2)?, [b"a", b"i", b"q", b"z"]);
/// // Too small a range: both ends grow by a 0x00 byte, and are returned that way.
/// assert_eq!(
///     bytes_split(b"a", b"b", false, 3)?,
///     [b"a\x00", b"a\x40", b"a\x80", b"a\xC0", b"b\x00"]
/// );
/// # Ok::<(), rowkey::plan::PlanError>(())
/// ```
pub fn bytes_split(
    a: &[u8],
    b: &[u8],
    inclusive: bool,
    num: usize,
) -> Result<Vec<Vec<u8>>, PlanError> {
    let len = a.len().max(b.len());
    let mut a_padded = a.to_vec();
    a_padded.resize(len, 0);
    let mut b_padded = b.to_vec();
    b_padded.resize(len, 0);
    if a_padded >= b_padded {
        return Err(PlanError::EmptyRange {
            first: to_string_binary(a),
            last: to_string_binary(b),
        });
    }
    if num == 0 {
        return Err(PlanError::TooFewRegions { regions: 1, min: 2 });
    }
    check_limit(num.saturating_add(1))?;
    let splits = Nat::from_u128((num as u128) + 1);
    // The first and last keys returned: `a` and `b` as given, or after a retry, padded.
    let (mut first, mut last) = (a.to_vec(), b.to_vec());
    let diff = loop {
        let start = Nat::from_be_bytes(&a_padded);
        let stop = Nat::from_be_bytes(&b_padded);
        let mut diff = stop.checked_sub(&start).unwrap_or_else(Nat::zero);
        if inclusive {
            diff = diff.mul_add_small(1, 1);
        }
        if diff >= splits {
            break diff;
        }
        // "when diffBI < splitBI, use an additional byte to increase diffBI"
        a_padded.push(0);
        b_padded.push(0);
        first.clone_from(&a_padded);
        last.clone_from(&b_padded);
    };
    let (interval, _) = diff.div_rem_small(num as u64 + 1);
    let mut out = Vec::with_capacity(num + 2);
    out.push(first);
    let mut cur = Nat::from_be_bytes(&a_padded);
    for _ in 0..num {
        cur = cur.add(&interval);
        out.push(cur.to_be_padded(a_padded.len()));
    }
    out.push(last);
    Ok(out)
}

/// The split keys HBase's `Admin.createTable(desc, startKey, endKey, numRegions)` creates a
/// table with, byte-identical: fewer than 3 regions is an error; 3 regions are split at
/// `[start, end]`; more at `Bytes.split(start, end, regions - 3)` ([`bytes_split`], not
/// inclusive), whose first and last keys are `start` and `end` themselves — so the first region
/// is `(-∞, start)` and the last `[end, +∞)`, and only `regions - 2` regions divide the range.
///
/// The division is over raw bytes. The HBase reference guide's pitfall: for keys that are
/// lowercase hex strings, `createTable(desc, "0000000000000000", "ffffffffffffffff", 10)` puts
/// split keys between `0x30` (`'0'`) and `0x66` (`'f'`), most of them between `'9'` and `'a'`
/// where no hex character is, so keys land in only 3 of the 10 regions. Check a plan with
/// [`lint`]; for hex keys use [`hex_string_split_range`] or `T::split_points`.
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] below 3 regions ("Must create at least three regions"),
/// [`PlanError::EmptyRange`] unless `start` sorts before `end` ("Start key must be smaller than
/// end key"; also when they are equal after padding, as `Bytes.split` refuses),
/// [`PlanError::InvalidRow`] for an empty `start` (HBase's `createTable` passes it on as an
/// empty split key and then refuses it), [`PlanError::RegionLimit`] above [`MAX_REGIONS`].
///
/// ```
/// use rowkey::plan::create_table_split_keys;
///
/// assert_eq!(create_table_split_keys(b"a", b"z", 5)?, [b"a", b"i", b"q", b"z"]);
/// assert_eq!(create_table_split_keys(b"a", b"z", 3)?, [b"a", b"z"]);
/// let hex = create_table_split_keys(b"0000000000000000", b"ffffffffffffffff", 10)?;
/// assert_eq!(hex.len(), 9);
/// assert_eq!(&hex[1][..2], b"6\xF6"); // '0'..'6' all below the first split inside the range
/// # Ok::<(), rowkey::plan::PlanError>(())
/// ```
pub fn create_table_split_keys(
    start: &[u8],
    end: &[u8],
    regions: usize,
) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions < 3 {
        return Err(PlanError::TooFewRegions { regions, min: 3 });
    }
    check_limit(regions)?;
    if start >= end {
        return Err(PlanError::EmptyRange {
            first: to_string_binary(start),
            last: to_string_binary(end),
        });
    }
    if start.is_empty() {
        // HBase accepts the call, then refuses the split keys it made.
        return Err(PlanError::InvalidRow {
            row: String::new(),
            reason: "an empty start key becomes an empty split key, which HBase refuses \
                     (\"Empty split key must not be passed in the split keys.\")",
        });
    }
    if regions == 3 {
        return Ok(vec![start.to_vec(), end.to_vec()]);
    }
    bytes_split(start, end, false, regions - 3)
}

// ---------------------------------------------------------------------------------------------
// Split points from a key sample, region count, create statement
// ---------------------------------------------------------------------------------------------

/// Split points at the quantiles of a sample of keys: for `regions` regions, the keys at
/// positions `j * len / regions` (`j = 1..regions`) of the sorted sample, de-duplicated, strictly
/// increasing, at most `regions - 1` of them. A point equal to the smallest sample key is
/// dropped (the region before it would hold none of the sample).
///
/// Use this for layouts whose distribution the layout cannot tell (no salt, no hash prefix):
/// sample real keys, e.g. every 1000th row of an existing table or a day of production data.
/// The sample is held in memory and sorted. For salted layouts prefer
/// [`salted_sample_split_points`], which keeps every bucket boundary as a split.
///
/// ```
/// use rowkey_core::plan::split_points_from_sample;
///
/// let keys = (0..100u32).map(|i| format!("user{i:03}"));
/// assert_eq!(split_points_from_sample(keys, 4), [b"user025", b"user050", b"user075"]);
///
/// // Heavy duplicates give fewer, still strictly increasing points.
/// let skewed = ["a", "a", "a", "a", "a", "a", "b", "c"];
/// assert_eq!(split_points_from_sample(skewed, 4), [b"b"]);
/// ```
pub fn split_points_from_sample(
    keys: impl IntoIterator<Item = impl AsRef<[u8]>>,
    regions: usize,
) -> Vec<Vec<u8>> {
    let mut sample: Vec<Vec<u8>> = keys.into_iter().map(|k| k.as_ref().to_vec()).collect();
    sample.sort_unstable();
    quantile_points(&sample, regions)
}

/// The quantile points of a sorted sample (see [`split_points_from_sample`]).
fn quantile_points(sample: &[Vec<u8>], regions: usize) -> Vec<Vec<u8>> {
    if regions < 2 || sample.is_empty() {
        return Vec::new();
    }
    let len = sample.len();
    // With more regions than keys every key is a quantile already; `len + 1` gives the same
    // points and keeps the loop short.
    let regions = regions.min(len.saturating_add(1));
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(regions.min(len));
    let Some(smallest) = sample.first() else {
        return out;
    };
    for j in 1..regions {
        let idx = (j as u128 * len as u128 / regions as u128) as usize;
        let Some(p) = sample.get(idx) else { break };
        let above_last = match out.last() {
            Some(last) => p > last,
            None => p > smallest,
        };
        if above_last {
            out.push(p.clone());
        }
    }
    out
}

/// Number of regions for `total_bytes` of data at `region_size_bytes` per region:
/// `ceil(total / region_size)`. Returns 0 for a `region_size_bytes` of 0.
///
/// Units are the caller's: 6.5 TB at 10 GB is 650 regions; 6.5 TB at 10 GiB is 606; 6.5 TiB at
/// 10 GiB is 666 (the "6.5 TB → 600 regions" of the classic HBase write-up is a round number).
///
/// ```
/// use rowkey_core::plan::region_count;
///
/// const GB: u64 = 1_000_000_000;
/// assert_eq!(region_count(6_500 * GB, 10 * GB), 650);
/// assert_eq!(region_count(6_500 * GB, 10 << 30), 606);
/// assert_eq!(region_count(1, 10 * GB), 1);
/// ```
pub fn region_count(total_bytes: u64, region_size_bytes: u64) -> u64 {
    if region_size_bytes == 0 {
        0
    } else {
        total_bytes.div_ceil(region_size_bytes)
    }
}

/// An HBase shell `create` statement with one column family and pre-split regions.
///
/// ```
/// use rowkey_core::plan::CreateStatement;
///
/// let stmt = CreateStatement::new("ns:events", "d")
///     .compression(Some("ZSTD"))
///     .family_attribute("BLOOMFILTER", "ROW")
///     .splits([b"\x01".as_slice(), b"\x02"]);
/// assert_eq!(
///     stmt.to_string(),
///     r#"create 'ns:events', {NAME => 'd', COMPRESSION => 'ZSTD', BLOOMFILTER => 'ROW'}, SPLITS => ["\\x01", "\\x02"]"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateStatement {
    table: String,
    family: String,
    compression: Option<String>,
    attributes: Vec<(String, String)>,
    splits: Vec<Vec<u8>>,
}

impl CreateStatement {
    /// A statement for `table` (`"ns:table"` or `"table"`) with column family `family`,
    /// `COMPRESSION => 'SNAPPY'` and no splits.
    pub fn new(table: &str, family: &str) -> Self {
        CreateStatement {
            table: table.to_owned(),
            family: family.to_owned(),
            compression: Some("SNAPPY".to_owned()),
            attributes: Vec::new(),
            splits: Vec::new(),
        }
    }

    /// The family's `COMPRESSION` (`"SNAPPY"`, `"ZSTD"`, `"LZ4"`, `"GZ"`...), or `None` to leave
    /// it out (HBase default: none).
    pub fn compression(mut self, compression: Option<&str>) -> Self {
        self.compression = compression.map(str::to_owned);
        self
    }

    /// Another family attribute, e.g. `("BLOOMFILTER", "ROW")`, `("VERSIONS", "1")`,
    /// `("DATA_BLOCK_ENCODING", "FAST_DIFF")`; written as `KEY => 'value'`.
    pub fn family_attribute(mut self, key: &str, value: &str) -> Self {
        self.attributes.push((key.to_owned(), value.to_owned()));
        self
    }

    /// The split points (`regions - 1` of them, strictly increasing). Each is written with
    /// [`shell_split_literal`], so the shell creates exactly these byte strings as region
    /// boundaries. With none, `SPLITS` is left out.
    pub fn splits(mut self, splits: impl IntoIterator<Item = impl AsRef<[u8]>>) -> Self {
        self.splits = splits.into_iter().map(|s| s.as_ref().to_vec()).collect();
        self
    }
}

impl fmt::Display for CreateStatement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "create {}, {{NAME => {}",
            ruby_single_quoted(&self.table),
            ruby_single_quoted(&self.family)
        )?;
        if let Some(c) = &self.compression {
            write!(f, ", COMPRESSION => {}", ruby_single_quoted(c))?;
        }
        for (k, v) in &self.attributes {
            write!(f, ", {k} => {}", ruby_single_quoted(v))?;
        }
        f.write_str("}")?;
        if !self.splits.is_empty() {
            f.write_str(", SPLITS => [")?;
            for (i, s) in self.splits.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(&shell_split_literal(s))?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

/// The HBase shell statement `create 'ns:table', {NAME => 'd', COMPRESSION => 'SNAPPY'},
/// SPLITS => [...]` for pre-split regions, each split escaped with
/// [`shell_split_literal`] so the shell creates exactly
/// these bytes. See [`CreateStatement`] for other options.
///
/// ```
/// use rowkey_core::plan::create_statement;
///
/// assert_eq!(
///     create_statement("t", "d", &[b"\x00\x80".to_vec()]),
///     r#"create 't', {NAME => 'd', COMPRESSION => 'SNAPPY'}, SPLITS => ["\\x00\\x80"]"#
/// );
/// ```
pub fn create_statement(table: &str, family: &str, splits: &[impl AsRef<[u8]>]) -> String {
    CreateStatement::new(table, family)
        .splits(splits)
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Split points from a key layout
// ---------------------------------------------------------------------------------------------

/// `floor(j * space / parts)` for `j = 1..parts`; `parts <= space <= 2^64`, so it is exact and
/// strictly increasing.
fn even_points(space: u128, parts: usize) -> impl Iterator<Item = u128> {
    let parts = parts as u128;
    (1..parts).map(move |j| j * space / parts)
}

fn too_many(regions: usize, max: u128, space: String) -> PlanError {
    PlanError::TooManyRegions {
        regions,
        max,
        space,
    }
}

/// Points splitting a hash prefix evenly: hex prefixes over the hex-character space of their
/// first `min(width, 8)` characters (only `0-9a-f`, so every region is reachable), raw prefixes
/// over their first `min(width, 8)` bytes.
fn hash_prefix_points(hp: HashPrefix, parts: usize) -> Result<Vec<Vec<u8>>, PlanError> {
    let chars = hp.width.min(8);
    let (space, what) = if hp.raw {
        (
            1u128 << (8 * chars),
            format!("{chars} leading raw bytes of the hash prefix"),
        )
    } else {
        (
            1u128 << (4 * chars),
            format!("{chars} leading hex characters of the hash prefix"),
        )
    };
    if parts as u128 > space {
        return Err(too_many(parts, space, what));
    }
    Ok(even_points(space, parts)
        .map(|p| {
            if hp.raw {
                let b = p.to_be_bytes();
                b.get(b.len() - chars..).unwrap_or_default().to_vec()
            } else {
                format!("{p:0chars$x}").into_bytes()
            }
        })
        .collect())
}

/// `(buckets, width)` of a salt, or [`PlanError::InvalidLayout`] when the layout's width is not
/// the one its bucket count takes.
fn checked_salt(salt: SaltLayout) -> Result<(u64, usize), PlanError> {
    if salt.buckets == 0 || salt.buckets > 65536 || salt.width != crate::salt::width(salt.buckets) {
        return Err(PlanError::InvalidLayout {
            reason: format!(
                "{} salt buckets do not fit a {}-byte salt",
                salt.buckets, salt.width
            ),
        });
    }
    Ok((u64::from(salt.buckets), salt.width))
}

fn salt_bytes(bucket: u64, width: usize) -> Vec<u8> {
    crate::salt::bytes(bucket as u32, width).as_ref().to_vec()
}

/// Pre-split points derived from a key layout, for `regions` regions — what
/// `T::split_points(regions)` returns.
///
/// * **Salted** (`#[salt(buckets = B)]`): the key starts with the bucket (1 byte for up to 256
///   buckets, else 2 bytes big-endian).
///   * `regions == B`: a split at every bucket `1..B`.
///   * `regions < B`: splits at evenly spaced bucket boundaries (`floor(j * B / regions)`).
///   * `regions == m * B` and the first field has a hash prefix: every bucket is split into
///     `m` parts over the hex (or raw) space of that hash prefix, which follows the salt.
///   * other counts above `B` with a hash prefix: [`PlanError::RegionsNotMultipleOfBuckets`].
///   * any count above `B` without a hash prefix: [`PlanError::NeedsSample`]. What follows the
///     salt is data whose distribution the layout does not tell — a `u64` id's first byte is
///     `0x00` for every realistic id, so splitting each bucket at byte `0x80` would leave half
///     the regions empty. Split each bucket at the quantiles of a sample of real keys with
///     [`salted_sample_split_points`] (`T::split_points_from_sample`) instead.
///
///   Every plan returned here only cuts bytes that vary by construction (the salt, a hash-prefix
///   character), so every region is reachable by keys of the layout.
/// * **Hash prefix on the first field** (`#[hash_prefix(N)]`): evenly over the hex-character
///   space of the first `min(N, 8)` characters, using only `0-9a-f` so that every region is
///   reachable (a naive byte split of `"0000"`..`"ffff"` would leave most regions empty);
///   `#[hash_prefix(N, raw)]` evenly over the first `min(N, 8)` raw bytes. A `#[desc]` field's
///   hash prefix is stored as is, so this holds for it too.
/// * **Neither**: [`PlanError::NeedsSample`] — use [`split_points_from_sample`] (or
///   `T::split_points_from_sample`).
///
/// `regions == 1` gives no points.
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] for 0 regions, [`PlanError::RegionsNotMultipleOfBuckets`],
/// [`PlanError::TooManyRegions`] when the prefix has fewer distinct values than regions,
/// [`PlanError::NeedsSample`], [`PlanError::InvalidLayout`], [`PlanError::RegionLimit`] above
/// [`MAX_REGIONS`].
///
/// ```
/// use rowkey_core::layout::{FieldEncoding, FieldLayout, HashPrefix, Layout, SaltKind, SaltLayout};
/// use rowkey_core::plan::{layout_split_points, PlanError};
///
/// const USER: FieldLayout = FieldLayout {
///     name: "user", ty: "String", encoding: FieldEncoding::Sep, width: None, desc: false,
///     hash_prefix: Some(HashPrefix { width: 4, raw: false }),
/// };
/// let hashed = Layout { name: "ByUser", prefix: &[], fields: &[USER], salt: None, fixed_width: None, max_len: None };
/// assert_eq!(layout_split_points(&hashed, 4)?, [b"4000", b"8000", b"c000"]);
///
/// let salt = SaltLayout { buckets: 16, width: 1, through_field: 0, fields: &[0], kind: SaltKind::Phoenix };
/// let salted = Layout { salt: Some(salt), ..hashed };
/// assert_eq!(layout_split_points(&salted, 4)?, [[4], [8], [12]]);
/// assert_eq!(layout_split_points(&salted, 32)?.len(), 31); // each bucket split in two
/// assert!(matches!(layout_split_points(&salted, 20), Err(PlanError::RegionsNotMultipleOfBuckets { .. })));
///
/// const PLAIN: FieldLayout = FieldLayout { hash_prefix: None, ..USER };
/// let plain = Layout { name: "Plain", fields: &[PLAIN], ..hashed };
/// assert_eq!(
///     layout_split_points(&plain, 4),
///     Err(PlanError::NeedsSample { layout: "Plain", salt_buckets: None })
/// );
///
/// // Salted, but nothing after the salt is known to vary: 16 regions at most from the layout.
/// let salted_plain = Layout { salt: Some(salt), ..plain };
/// assert_eq!(layout_split_points(&salted_plain, 16)?.len(), 15);
/// assert_eq!(
///     layout_split_points(&salted_plain, 32),
///     Err(PlanError::NeedsSample { layout: "Plain", salt_buckets: Some(16) })
/// );
/// # Ok::<(), PlanError>(())
/// ```
pub fn layout_split_points(layout: &Layout, regions: usize) -> Result<Vec<Vec<u8>>, PlanError> {
    let mut points = layout_points_after_prefix(layout, regions)?;
    if !layout.prefix.is_empty() {
        for p in &mut points {
            p.splice(0..0, layout.prefix.iter().copied());
        }
    }
    Ok(points)
}

/// [`layout_split_points`] without the layout's constant prefix.
fn layout_points_after_prefix(layout: &Layout, regions: usize) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions == 0 {
        return Err(PlanError::TooFewRegions { regions, min: 1 });
    }
    if regions == 1 {
        return Ok(Vec::new());
    }
    check_limit(regions)?;
    let first_hash = layout.fields.first().and_then(|f| f.hash_prefix);
    if let Some(salt) = layout.salt {
        let (buckets, width) = checked_salt(salt)?;
        let r = regions as u64;
        if r <= buckets {
            return Ok(even_points(u128::from(buckets), regions)
                .map(|k| salt_bytes(k as u64, width))
                .collect());
        }
        // Only a hash prefix right after the salt is known to vary within a bucket; any other
        // byte there is data (a u64 id's high byte is 0x00 for every realistic id), and an even
        // split of it would plan regions that no key reaches.
        let Some(hp) = first_hash else {
            return Err(PlanError::NeedsSample {
                layout: layout.name,
                salt_buckets: Some(salt.buckets),
            });
        };
        if !r.is_multiple_of(buckets) {
            return Err(PlanError::RegionsNotMultipleOfBuckets {
                regions,
                buckets: salt.buckets,
            });
        }
        let parts = (r / buckets) as usize;
        let within = hash_prefix_points(hp, parts)?;
        let mut out = Vec::with_capacity(regions - 1);
        for k in 0..buckets {
            let prefix = salt_bytes(k, width);
            if k > 0 {
                out.push(prefix.clone());
            }
            for p in &within {
                let mut point = prefix.clone();
                point.extend_from_slice(p);
                out.push(point);
            }
        }
        return Ok(out);
    }
    match first_hash {
        Some(hp) => hash_prefix_points(hp, regions),
        None => Err(PlanError::NeedsSample {
            layout: layout.name,
            salt_buckets: None,
        }),
    }
}

/// Split points for a salted layout from a sample of its keys: every salt bucket boundary is a
/// split, and each bucket is split further at the quantiles of its own sample keys (as
/// [`split_points_from_sample`] does for the whole sample). Use it when a salted layout needs
/// more regions than buckets and nothing after the salt is a hash prefix — where
/// [`layout_split_points`] returns [`PlanError::NeedsSample`] — or when the region count is not
/// a multiple of the buckets.
///
/// **How regions are distributed among buckets.** Every bucket gets at least one region (its
/// boundary is always a split). The `regions - B` further regions go, one at a time, to the
/// bucket with the most sample keys per region so far (ties to the lower bucket): D'Hondt
/// apportionment, i.e. proportional to each bucket's sample count, and it minimizes the largest
/// number of sample keys any one region gets. A bucket gets at most as many regions as it has
/// distinct sample keys, and heavy duplicates can merge quantiles, so the plan may have fewer
/// than `regions - 1` points (never more); a bucket with no sample keys keeps one region.
/// Keeping the boundaries has a cost when `regions` is not a multiple of `B`: 40 regions over
/// 16 equal buckets give 8 buckets 3 regions and 8 buckets 2, a max/mean skew of 1.25.
///
/// With fewer regions than buckets, not every boundary can be kept: when `regions` divides
/// `B` the points are [`layout_split_points`]'s bucket boundaries (equal groups of buckets);
/// otherwise equal groups are impossible (16 buckets in 7 regions would give some regions 3
/// buckets and others 2, a skew of 1.31), so the points are the quantiles of the whole sample,
/// as [`split_points_from_sample`].
///
/// The sample is held in memory and sorted; every key must start with a salt below the bucket
/// count (as every key of the layout does).
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] for 0 regions, [`PlanError::NotSalted`] for a layout without a
/// salt (use [`split_points_from_sample`]), [`PlanError::InvalidLayout`],
/// [`PlanError::InvalidSampleKey`] for a key shorter than the salt or with a salt at or above
/// the bucket count, [`PlanError::RegionLimit`] above [`MAX_REGIONS`].
///
/// ```
/// use rowkey::plan::salted_sample_split_points;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Order {
///     #[salt(buckets = 4)]
///     id: u64,
/// }
///
/// let sample: Vec<Vec<u8>> = (0..4000u64)
///     .map(|id| Order { id }.to_row_key().map(|k| k.to_vec()))
///     .collect::<Result<_, _>>()?;
/// // `Order::split_points(8)` would need to cut the id's bytes: NeedsSample. From a sample:
/// let points = salted_sample_split_points(Order::LAYOUT, &sample, 8)?;
/// assert_eq!(points.len(), 7);
/// assert_eq!([points[1].as_slice(), &points[3], &points[5]], [[1], [2], [3]]); // bucket boundaries kept
/// // Same thing through the key type:
/// assert_eq!(Order::split_points_from_sample(&sample, 8)?, points);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn salted_sample_split_points(
    layout: &Layout,
    keys: impl IntoIterator<Item = impl AsRef<[u8]>>,
    regions: usize,
) -> Result<Vec<Vec<u8>>, PlanError> {
    if regions == 0 {
        return Err(PlanError::TooFewRegions { regions, min: 1 });
    }
    check_limit(regions)?;
    let Some(salt) = layout.salt else {
        return Err(PlanError::NotSalted {
            layout: layout.name,
        });
    };
    let (buckets, width) = checked_salt(salt)?;
    let nb = usize::try_from(buckets).unwrap_or(usize::MAX);
    let mut per_bucket: Vec<Vec<Vec<u8>>> = Vec::new();
    // Bucket boundaries alone (regions divide the buckets), or the whole sample's quantiles
    // (fewer regions that do not divide them), or per-bucket quantiles (more regions).
    let boundaries_only = regions <= nb && nb.is_multiple_of(regions);
    let grouping = regions > nb;
    let mut whole: Vec<Vec<u8>> = Vec::new();
    if grouping {
        per_bucket.resize_with(nb, Vec::new);
    }
    let at = layout.prefix.len();
    for (index, key) in keys.into_iter().enumerate() {
        let key = key.as_ref();
        if !key.starts_with(layout.prefix) {
            return Err(PlanError::InvalidSampleKey {
                index,
                key: to_string_binary(key),
                reason: format!(
                    "does not start with the prefix \"{}\" of `{}`",
                    to_string_binary(layout.prefix),
                    layout.name
                ),
            });
        }
        let bucket = match key.get(at..at + width) {
            Some(prefix) => prefix
                .iter()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
            None => {
                return Err(PlanError::InvalidSampleKey {
                    index,
                    key: to_string_binary(key),
                    reason: format!("shorter than the {width}-byte salt of `{}`", layout.name),
                })
            }
        };
        if bucket >= buckets {
            return Err(PlanError::InvalidSampleKey {
                index,
                key: to_string_binary(key),
                reason: format!(
                    "salt {bucket} is not below the {buckets} buckets of `{}`",
                    layout.name
                ),
            });
        }
        if grouping {
            if let Some(b) = usize::try_from(bucket)
                .ok()
                .and_then(|b| per_bucket.get_mut(b))
            {
                b.push(key.to_vec());
            }
        } else if !boundaries_only {
            whole.push(key.to_vec());
        }
    }
    if boundaries_only {
        return layout_split_points(
            &Layout {
                salt: Some(salt),
                ..*layout
            },
            regions,
        );
    }
    if !grouping {
        whole.sort_unstable();
        return Ok(quantile_points(&whole, regions));
    }
    let mut distinct = Vec::with_capacity(nb);
    for b in &mut per_bucket {
        b.sort_unstable();
        let d = b.windows(2).filter(|w| w.first() != w.get(1)).count() + usize::from(!b.is_empty());
        distinct.push(d);
    }
    let parts = apportion(&per_bucket, &distinct, regions - nb);
    let mut out = Vec::with_capacity(regions - 1);
    for (k, (sample, &m)) in per_bucket.iter().zip(&parts).enumerate() {
        if k > 0 {
            let mut boundary = layout.prefix.to_vec();
            boundary.extend(salt_bytes(k as u64, width));
            out.push(boundary);
        }
        out.extend(quantile_points(sample, m));
    }
    Ok(out)
}

/// Keys per region of one bucket, ordered by `keys / parts` (exact rational comparison), ties
/// to the lower bucket.
#[derive(PartialEq, Eq)]
struct Load {
    keys: u64,
    parts: u64,
    bucket: usize,
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        (u128::from(self.keys) * u128::from(other.parts))
            .cmp(&(u128::from(other.keys) * u128::from(self.parts)))
            .then_with(|| other.bucket.cmp(&self.bucket))
    }
}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Regions per bucket: one each, then `extra` more by D'Hondt (each to the bucket with the most
/// keys per region so far), capped at each bucket's distinct keys.
fn apportion(per_bucket: &[Vec<Vec<u8>>], distinct: &[usize], extra: usize) -> Vec<usize> {
    let mut parts = vec![1usize; per_bucket.len()];
    let mut heap: std::collections::BinaryHeap<Load> = per_bucket
        .iter()
        .zip(distinct)
        .enumerate()
        .filter(|(_, (_, &d))| d > 1)
        .map(|(bucket, (keys, _))| Load {
            keys: keys.len() as u64,
            parts: 1,
            bucket,
        })
        .collect();
    for _ in 0..extra {
        let Some(top) = heap.pop() else { break };
        let (Some(p), Some(&d)) = (parts.get_mut(top.bucket), distinct.get(top.bucket)) else {
            continue;
        };
        *p += 1;
        if *p < d {
            heap.push(Load {
                parts: *p as u64,
                ..top
            });
        }
    }
    parts
}

/// Split points from a sample of keys of `layout`: [`salted_sample_split_points`] for a salted
/// layout (bucket boundaries kept), [`split_points_from_sample`] otherwise. What
/// `T::split_points_from_sample(keys, regions)` returns.
///
/// # Errors
///
/// As [`salted_sample_split_points`] for salted layouts; [`PlanError::TooFewRegions`] for 0
/// regions and [`PlanError::RegionLimit`] above [`MAX_REGIONS`] otherwise.
///
/// ```
/// use rowkey::plan::layout_sample_split_points;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[sep]
///     host: String,
///     ts: u64,
/// }
///
/// let sample: Vec<Vec<u8>> = (0..100u64)
///     .map(|ts| Event { host: format!("h{}", ts % 10), ts }.to_row_key().map(|k| k.to_vec()))
///     .collect::<Result<_, _>>()?;
/// let points = layout_sample_split_points(Event::LAYOUT, &sample, 5)?;
/// assert_eq!(points.len(), 4);
/// assert!(points[0].starts_with(b"h2"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn layout_sample_split_points(
    layout: &Layout,
    keys: impl IntoIterator<Item = impl AsRef<[u8]>>,
    regions: usize,
) -> Result<Vec<Vec<u8>>, PlanError> {
    if layout.salt.is_some() {
        return salted_sample_split_points(layout, keys, regions);
    }
    if regions == 0 {
        return Err(PlanError::TooFewRegions { regions, min: 1 });
    }
    check_limit(regions)?;
    Ok(split_points_from_sample(keys, regions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hbase::from_string_binary;
    use crate::layout::{FieldEncoding, FieldLayout, SaltKind};
    use proptest::prelude::*;

    fn strs(points: &[Vec<u8>]) -> Vec<String> {
        points
            .iter()
            .map(|p| String::from_utf8(p.clone()).unwrap())
            .collect()
    }

    fn assert_strictly_increasing(points: &[Vec<u8>]) {
        for w in points.windows(2) {
            assert!(w[0] < w[1], "{:?} !< {:?}", w[0], w[1]);
        }
        assert!(points.iter().all(|p| !p.is_empty()));
    }

    // Expected values below were computed from the Java source of RegionSplitter
    // (NumberStringSplit.split: range = last - first + 1; step = range / n; first + i*step,
    // BigInteger.toString(radix) left-padded to lastRow.length()) and Bytes.split
    // (inclusive, interval = (b - a + 1) / (num + 1)).

    #[test]
    fn hex_string_split_matches_hbase() {
        assert_eq!(strs(&hex_string_split(2)), ["80000000"]);
        assert_eq!(
            strs(&hex_string_split(4)),
            ["40000000", "80000000", "c0000000"]
        );
        assert_eq!(
            strs(&hex_string_split(15)),
            [
                "11111111", "22222222", "33333333", "44444444", "55555555", "66666666", "77777777",
                "88888888", "99999999", "aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd", "eeeeeeee"
            ]
        );
        // 40 regions, as the seed's table: step = 2^32 / 40 = 107374182 = 0x06666666.
        let forty = strs(&hex_string_split(40));
        assert_eq!(forty.len(), 39);
        assert_eq!(
            &forty[..4],
            ["06666666", "0ccccccc", "13333332", "19999998"]
        );
        assert_eq!(forty[19], "7ffffff8");
        assert_eq!(&forty[36..], ["ecccccbe", "f3333324", "f999998a"]);
        assert!(hex_string_split(0).is_empty());
        assert!(hex_string_split(1).is_empty());
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    fn hexes(v: &[&str]) -> Vec<Vec<u8>> {
        v.iter().map(|s| hex(s)).collect()
    }

    // Expected values below come from a transliteration of HBase `Bytes.iterateOnSplits` (Java
    // `BigInteger` with the `{1, 0}` header and `toByteArray`, the 0x00-padding retry) and
    // `HBaseAdmin.createTable(desc, startKey, endKey, numRegions)`.
    #[test]
    fn create_table_split_keys_match_hbase() {
        // The known value: 'a'..'z', 5 regions.
        assert_eq!(
            create_table_split_keys(b"a", b"z", 5).unwrap(),
            hexes(&["61", "69", "71", "7a"])
        );
        // The reference guide's hex pitfall.
        assert_eq!(
            create_table_split_keys(b"0000000000000000", b"ffffffffffffffff", 10).unwrap(),
            hexes(&[
                "30303030303030303030303030303030",
                "36f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6",
                "3dbdbdbdbdbdbdbdbdbdbdbdbdbdbdbc",
                "44848484848484848484848484848482",
                "4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b48",
                "5212121212121212121212121212120e",
                "58d8d8d8d8d8d8d8d8d8d8d8d8d8d8d4",
                "5f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9a",
                "66666666666666666666666666666666",
            ])
        );
        // All 0x00 .. all 0xFF.
        assert_eq!(
            create_table_split_keys(&[0; 8], &[0xFF; 8], 10).unwrap(),
            hexes(&[
                "0000000000000000",
                "1fffffffffffffff",
                "3ffffffffffffffe",
                "5ffffffffffffffd",
                "7ffffffffffffffc",
                "9ffffffffffffffb",
                "bffffffffffffffa",
                "dffffffffffffff9",
                "ffffffffffffffff",
            ])
        );
        // Different lengths: the shorter is padded with 0x00 for the arithmetic, but returned
        // as given.
        assert_eq!(
            create_table_split_keys(b"a", b"b\x00\x10", 5).unwrap(),
            hexes(&["61", "61555a", "61aab4", "620010"])
        );
        // Tiny range: diff 1 < 8 parts, so both ends grow by a 0x00 byte (and are returned so).
        assert_eq!(
            create_table_split_keys(b"a", b"b", 10).unwrap(),
            hexes(&["6100", "6120", "6140", "6160", "6180", "61a0", "61c0", "61e0", "6200"])
        );
        // ... twice when once is not enough.
        let two = create_table_split_keys(b"\x00", b"\x00\x01", 302).unwrap();
        assert_eq!(two.len(), 301);
        assert_eq!(
            &two[..4],
            hexes(&["00000000", "000000da", "000001b4", "0000028e"])
        );
        assert_eq!(&two[299..], hexes(&["0000fe9e", "00010000"]));
        assert_eq!(
            create_table_split_keys(b"aaaaa", b"zzzzz", 4).unwrap(),
            hexes(&["6161616161", "6dedededed", "7a7a7a7a7a"])
        );
        // Three regions: the two keys as given.
        assert_eq!(
            create_table_split_keys(b"\x01", b"\x01\x00", 3).unwrap(),
            [vec![1], vec![1, 0]]
        );
        // Errors, as HBase.
        assert_eq!(
            create_table_split_keys(b"a", b"z", 2),
            Err(PlanError::TooFewRegions { regions: 2, min: 3 })
        );
        assert!(matches!(
            create_table_split_keys(b"z", b"a", 5),
            Err(PlanError::EmptyRange { .. })
        ));
        assert!(matches!(
            create_table_split_keys(b"a", b"a", 5),
            Err(PlanError::EmptyRange { .. })
        ));
        // Raw order is fine, but equal after padding: Bytes.split's "b <= a".
        assert!(matches!(
            create_table_split_keys(b"\x01", b"\x01\x00", 4),
            Err(PlanError::EmptyRange { .. })
        ));
        assert!(matches!(
            create_table_split_keys(b"", b"\xff", 4),
            Err(PlanError::InvalidRow { .. })
        ));
        assert!(matches!(
            create_table_split_keys(b"a", b"z", MAX_REGIONS + 1),
            Err(PlanError::RegionLimit { .. })
        ));
    }

    #[test]
    fn bytes_split_matches_hbase() {
        assert_eq!(
            bytes_split(b"a", b"z", false, 2).unwrap(),
            hexes(&["61", "69", "71", "7a"])
        );
        // Inclusive: the range is one larger (what UniformSplit uses).
        assert_eq!(
            bytes_split(b"", &[0xFF; 8], true, 3).unwrap(),
            [
                vec![],
                hex("4000000000000000"),
                hex("8000000000000000"),
                hex("c000000000000000"),
                vec![0xFF; 8]
            ]
        );
        assert!(matches!(
            bytes_split(b"a", b"b", false, 0),
            Err(PlanError::TooFewRegions { .. })
        ));
        assert!(matches!(
            bytes_split(b"", b"", false, 1),
            Err(PlanError::EmptyRange { .. })
        ));
        // UniformSplit is Bytes.split(first, last, true, n - 1) without its two ends.
        for n in [2usize, 3, 7, 40] {
            let full = bytes_split(b"", &[0xFF; 8], true, n - 1).unwrap();
            assert_eq!(full[1..n].to_vec(), uniform_split(n));
        }
    }

    #[test]
    fn decimal_string_split_matches_hbase() {
        assert_eq!(
            strs(&decimal_string_split(4)),
            ["25000000", "50000000", "75000000"]
        );
        assert_eq!(
            strs(&decimal_string_split(7)),
            ["14285714", "28571428", "42857142", "57142856", "71428570", "85714284"]
        );
        assert_eq!(strs(&decimal_string_split(2)), ["50000000"]);
    }

    #[test]
    fn uniform_split_matches_hbase() {
        assert_eq!(uniform_split(2), [vec![0x80, 0, 0, 0, 0, 0, 0, 0]]);
        assert_eq!(uniform_split(3), [[0x55u8; 8].to_vec(), [0xAA; 8].to_vec()]);
        let seven: Vec<String> = uniform_split(7)
            .iter()
            .map(|p| to_string_binary(p))
            .collect();
        let expected = [
            "2492492492492492",
            "4924924924924924",
            "6DB6DB6DB6DB6DB6",
            "9249249249249248",
            "B6DB6DB6DB6DB6DA",
            "DB6DB6DB6DB6DB6C",
        ];
        for (got, hex) in seven.iter().zip(expected) {
            let bytes: Vec<u8> = (0..8)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            assert_eq!(*got, to_string_binary(&bytes));
        }
        assert!(uniform_split(1).is_empty());
    }

    #[test]
    fn uniform_split_range_follows_bytes_split() {
        assert_eq!(uniform_split_range(2, b"a", b"c").unwrap(), [b"b".to_vec()]);
        // diff + 1 = 2 < 4 regions: both rows grow by a 0x00 byte: range = 256 + 1 = 257,
        // interval 64.
        assert_eq!(
            uniform_split_range(4, b"a", b"b").unwrap(),
            [b"a\x40".to_vec(), b"a\x80".to_vec(), b"a\xC0".to_vec()]
        );
        // Shorter row padded with 0x00 to the longer one's length.
        assert_eq!(
            uniform_split_range(2, b"", b"\xFF\xFF").unwrap(),
            [b"\x80\x00".to_vec()]
        );
        assert!(matches!(
            uniform_split_range(2, b"\x01", b"\x01\x00"),
            Err(PlanError::EmptyRange { .. })
        ));
        assert!(matches!(
            uniform_split_range(2, b"b", b"a"),
            Err(PlanError::EmptyRange { .. })
        ));
        assert!(matches!(
            uniform_split_range(1, b"a", b"b"),
            Err(PlanError::TooFewRegions { .. })
        ));
        // Wider than u128: still exact.
        let pts = uniform_split_range(2, &[0u8; 20], &[0xFF; 20]).unwrap();
        let mut half = vec![0x80u8];
        half.extend_from_slice(&[0; 19]);
        assert_eq!(pts, [half]);
    }

    #[test]
    fn number_split_ranges_and_errors() {
        assert_eq!(
            strs(&hex_string_split_range(4, "0000", "FFFF").unwrap()),
            ["4000", "8000", "c000"]
        );
        // Padding follows the last row's length; first row offsets the points.
        assert_eq!(
            strs(&hex_string_split_range(2, "1", "0003").unwrap()),
            ["0002"]
        );
        // Wider than u128.
        let wide = hex_string_split_range(2, "0", &"f".repeat(40)).unwrap();
        assert_eq!(strs(&wide), [format!("8{}", "0".repeat(39))]);
        assert!(matches!(
            hex_string_split_range(2, "", "ff"),
            Err(PlanError::InvalidRow { .. })
        ));
        assert!(matches!(
            hex_string_split_range(2, "-1", "ff"),
            Err(PlanError::InvalidRow { .. })
        ));
        assert!(matches!(
            decimal_string_split_range(2, "00", "9a"),
            Err(PlanError::InvalidRow { .. })
        ));
        assert!(matches!(
            hex_string_split_range(2, "ff", "ff"),
            Err(PlanError::EmptyRange { .. })
        ));
        let e = hex_string_split_range(5, "0", "3").unwrap_err();
        assert_eq!(
            e,
            PlanError::RangeTooSmall {
                regions: 5,
                range: "4".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "split granularity (5) is greater than the range (4)"
        );
        // Exactly as many regions as rows.
        assert_eq!(
            strs(&hex_string_split_range(4, "0", "3").unwrap()),
            ["1", "2", "3"]
        );
        assert!(matches!(
            hex_string_split_range(1, "0", "f"),
            Err(PlanError::TooFewRegions { .. })
        ));
        // Absurd counts fail fast instead of exhausting memory.
        let huge = "f".repeat(64);
        for regions in [MAX_REGIONS + 1, usize::MAX] {
            assert_eq!(
                hex_string_split_range(regions, "0", &huge),
                Err(PlanError::RegionLimit {
                    regions,
                    max: MAX_REGIONS
                })
            );
            assert!(matches!(
                uniform_split_range(regions, b"", &[0xFF; 16]),
                Err(PlanError::RegionLimit { .. })
            ));
            assert!(hex_string_split(regions).is_empty());
            assert!(uniform_split(regions).is_empty());
        }
        assert!(PlanError::RegionLimit { regions: 5, max: 4 }
            .to_string()
            .contains("at most 4"));
    }

    #[test]
    fn nat_arithmetic() {
        let a = Nat::from_u128(1_000_000_007);
        assert_eq!(a.to_radix_string(10), "1000000007");
        assert_eq!(a.to_radix_string(16), "3b9aca07");
        assert_eq!(Nat::parse_radix("3B9ACA07", 16), Some(a.clone()));
        assert_eq!(Nat::zero().to_radix_string(16), "0");
        let b = Nat::from_u128(u128::MAX);
        let c = b.add(&Nat::from_u128(1));
        assert_eq!(c.0.len(), 17);
        assert_eq!(c.checked_sub(&b), Some(Nat::from_u128(1)));
        assert_eq!(b.checked_sub(&c), None);
        assert_eq!(c.div_rem_small(2).0, Nat::from_u128(1 << 127));
        assert_eq!(Nat::from_be_bytes(&[0, 0, 5]), Nat::from_u128(5));
        assert!(Nat::from_u128(256) > Nat::from_u128(255));
    }

    #[test]
    fn sample_quantiles() {
        let keys: Vec<String> = (0..1000).map(|i| format!("k{i:04}")).collect();
        let pts = split_points_from_sample(&keys, 10);
        assert_eq!(pts.len(), 9);
        assert_eq!(pts[0], b"k0100");
        assert_eq!(pts[8], b"k0900");
        assert_strictly_increasing(&pts);
        assert!(split_points_from_sample(&keys, 1).is_empty());
        assert!(split_points_from_sample(&keys, 0).is_empty());
        assert!(split_points_from_sample(Vec::<Vec<u8>>::new(), 4).is_empty());
        // More regions than keys: each distinct key above the smallest, once.
        assert_eq!(
            split_points_from_sample(["b", "a", "c"], 10),
            [b"b".to_vec(), b"c".to_vec()]
        );
        assert!(split_points_from_sample(["x", "x", "x"], 3).is_empty());
        assert_eq!(
            split_points_from_sample(["b", "a", "c"], usize::MAX),
            [b"b".to_vec(), b"c".to_vec()]
        );
    }

    #[test]
    fn region_count_formula() {
        const GB: u64 = 1_000_000_000;
        const GIB: u64 = 1 << 30;
        const TIB: u64 = 1 << 40;
        // The seed's "6.5 TB → 600 regions" is a rounded figure: no unit convention gives
        // exactly 600 at 10 GB regions (650 decimal, 606 TB/GiB, 666 TiB/GiB).
        assert_eq!(region_count(6_500 * GB, 10 * GB), 650);
        assert_eq!(region_count(6_500 * GB, 10 * GIB), 606);
        assert_eq!(region_count(13 * TIB / 2, 10 * GIB), 666);
        assert_eq!(region_count(10 * GB, 10 * GB), 1);
        assert_eq!(region_count(10 * GB + 1, 10 * GB), 2);
        assert_eq!(region_count(0, 10 * GB), 0);
        assert_eq!(region_count(5, 0), 0);
        assert_eq!(region_count(u64::MAX, 1), u64::MAX);
        assert_eq!(region_count(u64::MAX, 2), u64::MAX / 2 + 1);
    }

    #[test]
    fn create_statement_format() {
        assert_eq!(
            create_statement("ns:table", "d", &hex_string_split(4)),
            r#"create 'ns:table', {NAME => 'd', COMPRESSION => 'SNAPPY'}, SPLITS => ["40000000", "80000000", "c0000000"]"#
        );
        assert_eq!(
            create_statement("t", "d", &Vec::<Vec<u8>>::new()),
            "create 't', {NAME => 'd', COMPRESSION => 'SNAPPY'}"
        );
        let s = CreateStatement::new("o'k", "f")
            .compression(None)
            .splits([b"\\\"#{}".as_slice()])
            .to_string();
        assert_eq!(
            s,
            r#"create 'o\'k', {NAME => 'f'}, SPLITS => ["\\x5C\"\#{}"]"#
        );
    }

    /// Parses the SPLITS of a create statement the way the HBase shell does: evaluate the Ruby
    /// literal, then `Bytes.toBytesBinary`.
    #[test]
    fn create_statement_splits_read_back() {
        let splits: Vec<Vec<u8>> = vec![vec![0], vec![1, 0x5C], b"a\"b#{c}".to_vec(), vec![0xFF]];
        let stmt = create_statement("t", "d", &splits);
        let list = stmt
            .split("SPLITS => [")
            .nth(1)
            .unwrap()
            .trim_end_matches(']');
        let mut got = Vec::new();
        for lit in list.split("\", \"") {
            let lit = lit.trim_matches('"');
            // Ruby: `\\` → `\`, `\"` → `"`, `\#` → `#` (the only escapes the literal uses).
            let mut value = String::new();
            let mut it = lit.chars();
            while let Some(c) = it.next() {
                if c == '\\' {
                    value.push(it.next().unwrap());
                } else {
                    assert!(c != '"');
                    value.push(c);
                }
            }
            got.push(from_string_binary(&value).unwrap());
        }
        assert_eq!(got, splits);
    }

    const HEX4: FieldLayout = FieldLayout {
        name: "user",
        ty: "String",
        encoding: FieldEncoding::Sep,
        width: None,
        desc: false,
        hash_prefix: Some(HashPrefix {
            width: 4,
            raw: false,
        }),
    };
    const PLAIN: FieldLayout = FieldLayout {
        hash_prefix: None,
        ..HEX4
    };
    const RAW2: FieldLayout = FieldLayout {
        hash_prefix: Some(HashPrefix {
            width: 2,
            raw: true,
        }),
        desc: true,
        ..HEX4
    };
    const HEX32: FieldLayout = FieldLayout {
        hash_prefix: Some(HashPrefix {
            width: 32,
            raw: false,
        }),
        ..HEX4
    };

    fn layout(fields: &'static [FieldLayout], salt: Option<(u32, usize)>) -> Layout {
        Layout {
            name: "K",
            prefix: &[],
            fields,
            salt: salt.map(|(buckets, width)| SaltLayout {
                buckets,
                width,
                through_field: 0,
                fields: &[0],
                kind: SaltKind::Phoenix,
            }),
            fixed_width: None,
            max_len: None,
        }
    }

    /// Region index of `key` given split points.
    fn region_of(points: &[Vec<u8>], key: &[u8]) -> usize {
        points.partition_point(|p| p.as_slice() <= key)
    }

    #[test]
    fn layout_hash_prefix_hex() {
        let l = layout(&[HEX4], None);
        let pts = layout_split_points(&l, 40).unwrap();
        assert_eq!(pts.len(), 39);
        assert_strictly_increasing(&pts);
        // floor(j * 65536 / 40): 1638.4 → 0666, 3276.8 → 0ccc
        assert_eq!(strs(&pts[..2]), ["0666", "0ccc"]);
        // Only hex characters: every point is a reachable 4-char hex prefix.
        assert!(pts.iter().all(|p| p.len() == 4
            && p.iter()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())));
        // Every region receives keys: each point itself is a possible prefix.
        let mut hit = [false; 40];
        for v in 0..=0xFFFFu32 {
            hit[region_of(&pts, format!("{v:04x}rest").as_bytes())] = true;
        }
        assert!(hit.iter().all(|&h| h));
        assert!(layout_split_points(&l, 1).unwrap().is_empty());
        assert!(matches!(
            layout_split_points(&l, 0),
            Err(PlanError::TooFewRegions { .. })
        ));
        assert!(matches!(
            layout_split_points(&l, 65_537),
            Err(PlanError::TooManyRegions { .. })
        ));
        assert_eq!(layout_split_points(&l, 65_536).unwrap().len(), 65_535);
        // Long prefixes use their first 8 characters.
        let pts = layout_split_points(&layout(&[HEX32], None), 4).unwrap();
        assert_eq!(strs(&pts), ["40000000", "80000000", "c0000000"]);
    }

    #[test]
    fn layout_hash_prefix_raw_desc() {
        let pts = layout_split_points(&layout(&[RAW2], None), 4).unwrap();
        assert_eq!(pts, [vec![0x40, 0], vec![0x80, 0], vec![0xC0, 0]]);
    }

    #[test]
    fn layout_needs_sample() {
        let e = layout_split_points(&layout(&[PLAIN], None), 4).unwrap_err();
        assert_eq!(
            e,
            PlanError::NeedsSample {
                layout: "K",
                salt_buckets: None
            }
        );
        assert!(e.to_string().contains("split_points_from_sample"));
        assert!(layout_split_points(&layout(&[], None), 4).is_err());
        // One region never needs a sample.
        assert!(layout_split_points(&layout(&[PLAIN], None), 1)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn layout_salt_buckets() {
        let l = layout(&[HEX4], Some((16, 1)));
        let pts = layout_split_points(&l, 16).unwrap();
        assert_eq!(pts, (1..16u8).map(|b| vec![b]).collect::<Vec<_>>());
        assert_eq!(layout_split_points(&l, 4).unwrap(), [[4], [8], [12]]);
        assert_eq!(layout_split_points(&l, 3).unwrap(), [[5], [10]]);
        assert_eq!(layout_split_points(&l, 2).unwrap(), [[8]]);
        let e = layout_split_points(&l, 20).unwrap_err();
        assert_eq!(
            e,
            PlanError::RegionsNotMultipleOfBuckets {
                regions: 20,
                buckets: 16
            }
        );
        assert!(e.to_string().contains("multiple"));
        assert!(e.to_string().contains("salted_sample_split_points"));
        // Without a hash prefix after the salt, nothing within a bucket is known to vary: more
        // regions than buckets need a sample (never a split at byte 0x80 of a u64 id).
        let l = layout(&[PLAIN], Some((16, 1)));
        let e = layout_split_points(&l, 32).unwrap_err();
        assert_eq!(
            e,
            PlanError::NeedsSample {
                layout: "K",
                salt_buckets: Some(16)
            }
        );
        assert!(e.to_string().contains("salted_sample_split_points"), "{e}");
        assert!(e.to_string().contains("16 buckets"), "{e}");
        assert_eq!(
            layout_split_points(&l, 20),
            Err(PlanError::NeedsSample {
                layout: "K",
                salt_buckets: Some(16)
            })
        );
        assert_eq!(layout_split_points(&l, 16).unwrap().len(), 15);
    }

    #[test]
    fn layout_salt_with_hash_prefix() {
        let l = layout(&[HEX4], Some((4, 1)));
        let pts = layout_split_points(&l, 8).unwrap();
        let shown: Vec<String> = pts.iter().map(|p| to_string_binary(p)).collect();
        assert_eq!(
            shown,
            [
                r"\x008000",
                r"\x01",
                r"\x018000",
                r"\x02",
                r"\x028000",
                r"\x03",
                r"\x038000"
            ]
        );
    }

    #[test]
    fn layout_two_byte_salt() {
        let l = layout(&[PLAIN], Some((1000, 2)));
        let pts = layout_split_points(&l, 1000).unwrap();
        assert_eq!(pts.len(), 999);
        assert_eq!(pts[0], [0, 1]);
        assert_eq!(pts[998], [0x03, 0xE7]);
        assert_strictly_increasing(&pts);
        assert!(matches!(
            layout_split_points(&l, 2000),
            Err(PlanError::NeedsSample { .. })
        ));
        let pts = layout_split_points(&layout(&[HEX4], Some((1000, 2))), 2000).unwrap();
        assert_eq!(pts.len(), 1999);
        assert_strictly_increasing(&pts);
        assert_eq!(pts[0], [0, 0, b'8', b'0', b'0', b'0']);
        // Inconsistent layouts are errors, not panics.
        assert!(matches!(
            layout_split_points(&layout(&[PLAIN], Some((1000, 1))), 4),
            Err(PlanError::InvalidLayout { .. })
        ));
        assert!(matches!(
            layout_split_points(&layout(&[PLAIN], Some((0, 1))), 4),
            Err(PlanError::InvalidLayout { .. })
        ));
        assert!(matches!(
            layout_split_points(&layout(&[PLAIN], Some((1000, 2))), usize::MAX / 1000 * 1000),
            Err(PlanError::RegionLimit { .. })
        ));
    }

    /// `n` keys per bucket of a `buckets`-bucket, 1-byte salt: salt then a big-endian counter.
    fn salted_sample(counts: &[u32]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (b, &n) in counts.iter().enumerate() {
            for i in 0..n {
                let mut k = vec![b as u8];
                k.extend_from_slice(&u64::from(i).to_be_bytes());
                out.push(k);
            }
        }
        out
    }

    #[test]
    fn salted_sample_keeps_buckets_and_apportions() {
        let l = layout(&[PLAIN], Some((4, 1)));
        // Bucket sizes 100, 300, 100, 0: 8 regions = 4 buckets + 4 extra by D'Hondt, each to
        // the highest keys/region: 300 (bucket 1 → 150), 150 (bucket 1 → 100), a three-way tie
        // at 100 goes to the lowest bucket (0 → 50), then 100 again (bucket 1 → 75).
        let sample = salted_sample(&[100, 300, 100, 0]);
        let pts = salted_sample_split_points(&l, &sample, 8).unwrap();
        assert_strictly_increasing(&pts);
        assert_eq!(pts.len(), 7);
        let boundaries: Vec<&Vec<u8>> = pts.iter().filter(|p| p.len() == 1).collect();
        assert_eq!(boundaries, [&vec![1u8], &vec![2], &vec![3]]);
        let mut per_region = vec![0usize; pts.len() + 1];
        for k in &sample {
            per_region[region_of(&pts, k)] += 1;
        }
        // Bucket 0: 2 regions of 50; bucket 1: 4 of 75; bucket 2: 1 of 100; bucket 3: none in
        // the sample, one region.
        assert_eq!(per_region, [50, 50, 75, 75, 75, 75, 100, 0]);
        // Order of the sample does not matter.
        let mut rev = sample.clone();
        rev.reverse();
        assert_eq!(salted_sample_split_points(&l, &rev, 8).unwrap(), pts);
        // Not more than buckets: the layout's bucket boundaries.
        assert_eq!(
            salted_sample_split_points(&l, &sample, 4).unwrap(),
            [[1], [2], [3]]
        );
        assert_eq!(salted_sample_split_points(&l, &sample, 2).unwrap(), [[2]]);
        // 3 regions over 4 buckets: the whole sample's quantiles.
        assert_eq!(
            salted_sample_split_points(&l, &sample, 3).unwrap(),
            split_points_from_sample(&sample, 3)
        );
        assert!(salted_sample_split_points(&l, &sample, 1)
            .unwrap()
            .is_empty());
        // A bucket gets at most its distinct keys; duplicates do not produce empty regions.
        let few = salted_sample(&[2, 1, 1, 1]);
        let pts = salted_sample_split_points(&l, &few, 100).unwrap();
        assert_eq!(pts.len(), 4);
        // Non-multiples are fine.
        let even = salted_sample(&[1000, 1000, 1000, 1000]);
        let pts = salted_sample_split_points(&l, &even, 10).unwrap();
        assert_eq!(pts.len(), 9);
        let mut per_region = vec![0usize; 10];
        for k in &even {
            per_region[region_of(&pts, k)] += 1;
        }
        assert_eq!(
            per_region,
            [333, 333, 334, 333, 333, 334, 500, 500, 500, 500]
        );
    }

    #[test]
    fn salted_sample_errors() {
        let l = layout(&[PLAIN], Some((4, 1)));
        let e = salted_sample_split_points(&l, [b"\x04abc".as_slice()], 8).unwrap_err();
        assert!(matches!(e, PlanError::InvalidSampleKey { index: 0, .. }));
        assert!(
            e.to_string().contains("salt 4 is not below the 4 buckets"),
            "{e}"
        );
        let e = salted_sample_split_points(&l, [b"\x01".as_slice(), b""], 8).unwrap_err();
        assert!(matches!(e, PlanError::InvalidSampleKey { index: 1, .. }));
        // Invalid keys are errors for every region count.
        assert!(salted_sample_split_points(&l, [b"\x09".as_slice()], 2).is_err());
        let unsalted = layout(&[PLAIN], None);
        let e = salted_sample_split_points(&unsalted, [b"a".as_slice()], 8).unwrap_err();
        assert_eq!(e, PlanError::NotSalted { layout: "K" });
        assert!(e.to_string().contains("split_points_from_sample"));
        assert!(matches!(
            salted_sample_split_points(&l, [b"\x01".as_slice()], 0),
            Err(PlanError::TooFewRegions { .. })
        ));
        assert!(matches!(
            salted_sample_split_points(&l, [b"\x01".as_slice()], MAX_REGIONS + 1),
            Err(PlanError::RegionLimit { .. })
        ));
        assert!(matches!(
            salted_sample_split_points(&layout(&[PLAIN], Some((0, 1))), [b"\x01".as_slice()], 8),
            Err(PlanError::InvalidLayout { .. })
        ));
        // Two-byte salts.
        let big = layout(&[PLAIN], Some((1000, 2)));
        let sample: Vec<Vec<u8>> = (0..4000u32)
            .map(|i| {
                let mut k = ((i % 1000) as u16).to_be_bytes().to_vec();
                k.extend_from_slice(&i.to_be_bytes());
                k
            })
            .collect();
        let pts = salted_sample_split_points(&big, &sample, 2000).unwrap();
        assert_eq!(pts.len(), 1999);
        assert_strictly_increasing(&pts);
        // The dispatcher: unsalted layouts use plain quantiles.
        assert_eq!(
            layout_sample_split_points(&unsalted, ["a", "b", "c", "d"], 2).unwrap(),
            [b"c"]
        );
        assert!(layout_sample_split_points(&unsalted, ["a"], 0).is_err());
    }

    #[test]
    fn salted_regions_all_reachable() {
        // Keys: salt byte then 4 hex chars; every region of every plan gets at least one.
        let l = layout(&[HEX4], Some((8, 1)));
        for regions in [2, 3, 5, 8, 16, 24, 64] {
            let pts = layout_split_points(&l, regions).unwrap();
            assert_eq!(pts.len(), regions - 1);
            assert_strictly_increasing(&pts);
            let mut hit = vec![false; regions];
            for salt in 0..8u8 {
                for v in (0..=0xFFFFu32).step_by(7) {
                    let mut key = vec![salt];
                    key.extend_from_slice(format!("{v:04x}").as_bytes());
                    hit[region_of(&pts, &key)] = true;
                }
            }
            assert!(hit.iter().all(|&h| h), "regions = {regions}");
        }
    }

    proptest! {
        #[test]
        fn prop_hex_split_properties(n in 2usize..2000) {
            let pts = hex_string_split(n);
            prop_assert_eq!(pts.len(), n - 1);
            for w in pts.windows(2) {
                prop_assert!(w[0] < w[1]);
            }
            prop_assert!(pts.iter().all(|p| p.len() == 8));
            // Same as the u64 formula.
            let step = (1u64 << 32) / n as u64;
            for (i, p) in pts.iter().enumerate() {
                prop_assert_eq!(p.clone(), format!("{:08x}", step * (i as u64 + 1)).into_bytes());
            }
        }

        #[test]
        fn prop_uniform_split_properties(n in 2usize..2000) {
            let pts = uniform_split(n);
            prop_assert_eq!(pts.len(), n - 1);
            let interval = (1u128 << 64) / n as u128;
            for (i, p) in pts.iter().enumerate() {
                let v = interval * (i as u128 + 1);
                prop_assert_eq!(p.clone(), (v as u64).to_be_bytes().to_vec());
            }
        }

        #[test]
        fn prop_uniform_range(
            a in proptest::collection::vec(any::<u8>(), 0..6),
            b in proptest::collection::vec(any::<u8>(), 0..6),
            n in 2usize..50,
        ) {
            match uniform_split_range(n, &a, &b) {
                Ok(pts) => {
                    prop_assert_eq!(pts.len(), n - 1);
                    for w in pts.windows(2) {
                        prop_assert!(w[0] < w[1]);
                    }
                    let first = pts.first().unwrap();
                    let last = pts.last().unwrap();
                    prop_assert!(a.as_slice() < first.as_slice());
                    prop_assert!(last.as_slice() <= b.as_slice() || b.len() < last.len());
                }
                Err(_) => {
                    let len = a.len().max(b.len());
                    let mut ap = a.clone();
                    ap.resize(len, 0);
                    let mut bp = b.clone();
                    bp.resize(len, 0);
                    prop_assert!(bp <= ap || b <= a);
                }
            }
        }

        #[test]
        fn prop_sample_points(
            keys in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..4), 0..200),
            regions in 0usize..50,
        ) {
            let pts = split_points_from_sample(&keys, regions);
            prop_assert!(pts.len() <= regions.saturating_sub(1));
            for w in pts.windows(2) {
                prop_assert!(w[0] < w[1]);
            }
            // Every region holds at least one sample key.
            if !pts.is_empty() {
                let mut hit = vec![false; pts.len() + 1];
                for k in &keys {
                    hit[region_of(&pts, k)] = true;
                }
                prop_assert!(hit.iter().all(|&h| h));
            }
        }

        #[test]
        fn prop_layout_points(buckets in 1u32..300, m in 1usize..6, hex in any::<bool>()) {
            let fields: &'static [FieldLayout] = if hex { &[HEX4] } else { &[PLAIN] };
            let width = crate::layout::SaltLayout::width_for(buckets);
            let l = layout(fields, Some((buckets, width)));
            let regions = buckets as usize * m;
            match layout_split_points(&l, regions) {
                Ok(pts) => {
                    prop_assert!(hex || m == 1);
                    prop_assert_eq!(pts.len(), regions - 1);
                    for w in pts.windows(2) {
                        prop_assert!(w[0] < w[1]);
                    }
                }
                Err(e) => {
                    prop_assert!(!hex && m > 1);
                    prop_assert_eq!(e, PlanError::NeedsSample { layout: "K", salt_buckets: Some(buckets) });
                }
            }
            for fewer in [1usize, 2, buckets as usize / 2, buckets as usize] {
                if fewer >= 1 && (hex || fewer <= buckets as usize) {
                    let pts = layout_split_points(&l, fewer).unwrap();
                    prop_assert_eq!(pts.len(), fewer - 1);
                    for w in pts.windows(2) {
                        prop_assert!(w[0] < w[1]);
                    }
                }
            }
        }
    }
}
