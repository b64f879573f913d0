//! HBase's own splits, byte-identical: `RegionSplitter`'s `HexStringSplit`,
//! `DecimalStringSplit` and `UniformSplit`, `Bytes.split` and the split keys of
//! `Admin.createTable(desc, startKey, endKey, numRegions)`.

use super::error::{check_limit, PlanError};
use super::nat::Nat;

use crate::hbase::to_string_binary;

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
/// [`MAX_REGIONS`](super::MAX_REGIONS) (HBase itself throws only above the `2^32` rows of the
/// range); use [`hex_string_split_range`] to get an error instead.
///
/// ```
/// use rowkey::plan::hex_string_split;
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
/// [`MAX_REGIONS`](super::MAX_REGIONS), [`PlanError::InvalidRow`] for an empty row or
/// one with a non-hex character (HBase would also accept a sign), [`PlanError::EmptyRange`]
/// unless `last > first`, [`PlanError::RangeTooSmall`] when there are more regions than rows.
///
/// ```
/// use rowkey::plan::{hex_string_split_range, PlanError};
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
/// Returns an empty `Vec` when `regions < 2` or above [`MAX_REGIONS`](super::MAX_REGIONS); use
/// [`decimal_string_split_range`] to get an error instead.
///
/// ```
/// use rowkey::plan::decimal_string_split;
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
/// use rowkey::plan::decimal_string_split_range;
///
/// assert_eq!(decimal_string_split_range(4, "000", "999")?, [b"250", b"500", b"750"]);
/// # Ok::<(), rowkey::plan::PlanError>(())
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
/// Returns an empty `Vec` when `regions < 2` or above [`MAX_REGIONS`](super::MAX_REGIONS); use
/// [`uniform_split_range`] for custom rows and errors.
///
/// ```
/// use rowkey::plan::uniform_split;
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
/// [`MAX_REGIONS`](super::MAX_REGIONS), [`PlanError::EmptyRange`] unless `last`
/// sorts after `first`, also after padding (HBase: "b <= a").
///
/// ```
/// use rowkey::plan::uniform_split_range;
///
/// assert_eq!(uniform_split_range(2, b"a", b"c")?, [b"b"]);
/// // Too narrow a range grows by one byte, as in HBase.
/// assert_eq!(uniform_split_range(4, b"a", b"b")?, [b"a\x40", b"a\x80", b"a\xC0"]);
/// # Ok::<(), rowkey::plan::PlanError>(())
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
/// fall between the characters keys use — see [`create_table_split_keys`] and
/// [`lint`](super::lint).
///
/// # Errors
///
/// [`PlanError::EmptyRange`] unless padded `a` sorts before padded `b`;
/// [`PlanError::TooFewRegions`] for `num == 0` (one part; HBase: "num cannot be <= 0");
/// [`PlanError::RegionLimit`] when `num + 1` is above [`MAX_REGIONS`](super::MAX_REGIONS).
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
/// [`lint`](super::lint); for hex keys use [`hex_string_split_range`] or `T::split_points`.
///
/// # Errors
///
/// [`PlanError::TooFewRegions`] below 3 regions ("Must create at least three regions"),
/// [`PlanError::EmptyRange`] unless `start` sorts before `end` ("Start key must be smaller than
/// end key"; also when they are equal after padding, as `Bytes.split` refuses),
/// [`PlanError::InvalidRow`] for an empty `start` (HBase's `createTable` passes it on as an
/// empty split key and then refuses it), [`PlanError::RegionLimit`] above
/// [`MAX_REGIONS`](super::MAX_REGIONS).
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
