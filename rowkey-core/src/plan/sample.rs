//! Split points from a sample of keys (quantiles), the region count for a data size, and the
//! HBase shell `create` statement.

use std::fmt;

use crate::hbase::{ruby_single_quoted, shell_split_literal};

/// Split points at the quantiles of a sample of keys: for `regions` regions, the keys at
/// positions `j * len / regions` (`j = 1..regions`) of the sorted sample, de-duplicated, strictly
/// increasing, at most `regions - 1` of them. A point equal to the smallest sample key is
/// dropped (the region before it would hold none of the sample).
///
/// Use this for layouts whose distribution the layout cannot tell (no salt, no hash prefix):
/// sample real keys, e.g. every 1000th row of an existing table or a day of production data.
/// The sample is held in memory and sorted. For salted layouts prefer
/// [`salted_sample_split_points`](super::salted_sample_split_points), which keeps every bucket
/// boundary as a split.
///
/// ```
/// use rowkey::plan::split_points_from_sample;
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
pub(super) fn quantile_points(sample: &[Vec<u8>], regions: usize) -> Vec<Vec<u8>> {
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
/// use rowkey::plan::region_count;
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
/// use rowkey::plan::CreateStatement;
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
/// use rowkey::plan::create_statement;
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
