//! Hotspot analysis: how a stream of keys would spread over pre-split regions, before
//! deploying — per-region key counts and bytes, empty regions, skew, and a time × region
//! heatmap (what Bigtable's Key Visualizer shows after the fact).
//!
//! An [`Analyzer`] holds only counters (one per region, plus one per region and time slice for
//! the heatmap), so it takes any number of keys. Each key costs one binary search over the split
//! points and no allocation.
//!
//! ```
//! use rowkey_core::hotspot::Analyzer;
//!
//! let splits = vec![b"4".to_vec(), b"8".to_vec(), b"c".to_vec()];
//! let mut sequential = Analyzer::new(&splits)?.with_name("sequential");
//! let mut hashed = Analyzer::new(&splits)?.with_name("hashed");
//! for i in 0..1000u32 {
//!     sequential.add(format!("{i:04}").as_bytes()); // "0000".."0999": all below "4"
//!     hashed.add(format!("{:x}", i.wrapping_mul(2_654_435_761) >> 28).as_bytes());
//! }
//! let (a, b) = (sequential.report(), hashed.report());
//! assert_eq!(a.empty_regions(), 3);
//! assert_eq!(a.max_mean_skew(), 4.0); // one region holds 4× the mean
//! assert_eq!(b.empty_regions(), 0);
//! println!("{}", a.side_by_side(&b));
//! # Ok::<(), rowkey_core::hotspot::HotspotError>(())
//! ```

use std::fmt::{self, Write as _};
use std::io;
use std::path::Path;

use crate::hbase::to_string_binary;

/// Invalid input to an [`Analyzer`].
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

/// Counts of the heatmap grid: `cells[slice * regions + region]`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TimeGrid {
    t0: u64,
    t1: u64,
    slices: usize,
    cells: Vec<u64>,
}

impl TimeGrid {
    #[inline]
    fn slice_of(&self, t: u64) -> Option<usize> {
        if t < self.t0 || t >= self.t1 {
            return None;
        }
        let offset = t - self.t0;
        let span = self.t1 - self.t0;
        let slices = self.slices as u64;
        let slice = match offset.checked_mul(slices) {
            Some(x) => x / span,
            None => (u128::from(offset) * u128::from(slices) / u128::from(span)) as u64,
        };
        Some(slice as usize)
    }

    /// Start time of `slice` (`slice == slices` gives `t1`).
    fn slice_start(&self, slice: usize) -> u64 {
        let span = u128::from(self.t1 - self.t0);
        let off = span * slice as u128 / (self.slices.max(1) as u128);
        self.t0.saturating_add(off as u64)
    }
}

/// Streams keys into per-region counters for a set of split points.
///
/// Region `0` holds keys below the first split point, region `i` keys in
/// `[split[i - 1], split[i])`, the last region keys from the last split point on — HBase's
/// region boundaries for a table pre-split at these points.
///
/// ```
/// use rowkey_core::hotspot::Analyzer;
///
/// let mut a = Analyzer::new([b"m".as_slice()])?
///     .with_name("by name")
///     .with_time_span(0, 86_400_000, 24)?; // one day in ms, hourly slices
/// a.add(b"alice");
/// a.add_with(b"zoe", Some(3_600_000), 120); // 01:00, a 120-byte row
/// assert_eq!(a.region_of(b"m"), 1);
/// let r = a.report();
/// assert_eq!(r.region(1).map(|s| (s.keys, s.bytes)), Some((1, 120)));
/// assert_eq!(r.untimed_keys(), 1);
/// assert!(a.heatmap_svg().starts_with("<svg"));
/// # Ok::<(), rowkey_core::hotspot::HotspotError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Analyzer {
    name: String,
    splits: Vec<Vec<u8>>,
    /// `(prefix8(split), split)`: most comparisons are one integer compare.
    search: Vec<(u64, Box<[u8]>)>,
    keys: Vec<u64>,
    bytes: Vec<u64>,
    grid: Option<TimeGrid>,
    untimed: u64,
    outside_span: u64,
}

impl Analyzer {
    /// An analyzer for a table pre-split at `split_points` (`regions - 1` of them).
    ///
    /// # Errors
    ///
    /// The split points must be non-empty and strictly increasing (as HBase requires).
    pub fn new(
        split_points: impl IntoIterator<Item = impl AsRef<[u8]>>,
    ) -> Result<Self, HotspotError> {
        let splits: Vec<Vec<u8>> = split_points
            .into_iter()
            .map(|s| s.as_ref().to_vec())
            .collect();
        for (index, s) in splits.iter().enumerate() {
            if s.is_empty() {
                return Err(HotspotError::EmptySplitPoint { index });
            }
            if let Some(prev) = index.checked_sub(1).and_then(|i| splits.get(i)) {
                if prev >= s {
                    return Err(HotspotError::UnsortedSplitPoints { index });
                }
            }
        }
        let regions = splits.len() + 1;
        let search = splits
            .iter()
            .map(|s| (prefix8(s), s.clone().into_boxed_slice()))
            .collect();
        Ok(Analyzer {
            name: String::new(),
            splits,
            search,
            keys: vec![0; regions],
            bytes: vec![0; regions],
            grid: None,
            untimed: 0,
            outside_span: 0,
        })
    }

    /// Names the layout being analyzed (shown in tables and the heatmap title).
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Enables the heatmap: keys added with a time in `[t0, t1)` are counted per region and per
    /// one of `slices` equal time slices. Times are in milliseconds since the Unix epoch for the
    /// axis labels (UTC); any unit works for the counts.
    ///
    /// # Errors
    ///
    /// An empty span, zero slices, or more than [`MAX_HEATMAP_CELLS`] cells.
    pub fn with_time_span(mut self, t0: u64, t1: u64, slices: usize) -> Result<Self, HotspotError> {
        if t1 <= t0 {
            return Err(HotspotError::EmptyTimeSpan { t0, t1 });
        }
        let regions = self.regions();
        let cells = slices
            .checked_mul(regions)
            .filter(|&c| slices > 0 && c <= MAX_HEATMAP_CELLS)
            .ok_or(HotspotError::InvalidSlices { slices, regions })?;
        self.grid = Some(TimeGrid {
            t0,
            t1,
            slices,
            cells: vec![0; cells],
        });
        Ok(self)
    }

    /// Number of regions (split points + 1).
    pub fn regions(&self) -> usize {
        self.keys.len()
    }

    /// The split points.
    pub fn split_points(&self) -> &[Vec<u8>] {
        &self.splits
    }

    /// The region a key falls into.
    #[inline]
    pub fn region_of(&self, key: &[u8]) -> usize {
        // Zero-padded 8-byte prefixes order like the byte strings whenever they differ.
        let kp = prefix8(key);
        self.search
            .partition_point(|(sp, s)| if *sp == kp { **s <= *key } else { *sp < kp })
    }

    /// Counts one key, with its own length as its size and no time.
    #[inline]
    pub fn add(&mut self, key: &[u8]) {
        self.add_with(key, None, key.len() as u64);
    }

    /// Counts one key of `size` bytes (e.g. the whole row), written at `time` (for the heatmap;
    /// keys without a time, or outside the span, count everywhere else).
    #[inline]
    pub fn add_with(&mut self, key: &[u8], time: Option<u64>, size: u64) {
        let region = self.region_of(key);
        if let Some(c) = self.keys.get_mut(region) {
            *c += 1;
        }
        if let Some(b) = self.bytes.get_mut(region) {
            *b = b.saturating_add(size);
        }
        let Some(t) = time else {
            self.untimed += 1;
            return;
        };
        let Some(grid) = self.grid.as_mut() else {
            return;
        };
        let regions = self.keys.len();
        match grid.slice_of(t) {
            Some(slice) => {
                if let Some(c) = grid.cells.get_mut(slice * regions + region) {
                    *c += 1;
                }
            }
            None => self.outside_span += 1,
        }
    }

    /// A snapshot of the counters.
    pub fn report(&self) -> Report {
        let regions = self
            .keys
            .iter()
            .zip(&self.bytes)
            .enumerate()
            .map(|(index, (&keys, &bytes))| RegionStats {
                index,
                start: index
                    .checked_sub(1)
                    .and_then(|i| self.splits.get(i))
                    .cloned()
                    .unwrap_or_default(),
                stop: self.splits.get(index).cloned(),
                keys,
                bytes,
            })
            .collect();
        Report {
            name: self.name.clone(),
            regions,
            untimed: self.untimed,
            outside_span: self.outside_span,
            grid: self.grid.clone(),
        }
    }

    /// The time × region heatmap as SVG text; see [`Report::heatmap_svg`].
    pub fn heatmap_svg(&self) -> String {
        self.report().heatmap_svg()
    }

    /// Writes [`heatmap_svg`](Self::heatmap_svg) to `path`.
    ///
    /// # Errors
    ///
    /// Any I/O error from writing the file.
    pub fn write_heatmap_svg(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.heatmap_svg())
    }
}

/// The first 8 bytes of `b` as a big-endian integer, zero-padded. If `prefix8(a) !=
/// prefix8(b)`, they compare like `a` and `b`.
#[inline]
fn prefix8(b: &[u8]) -> u64 {
    match b.first_chunk::<8>() {
        Some(c) => u64::from_be_bytes(*c),
        None => {
            let mut buf = [0u8; 8];
            for (d, s) in buf.iter_mut().zip(b) {
                *d = *s;
            }
            u64::from_be_bytes(buf)
        }
    }
}

/// Counts of one region.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegionStats {
    /// Region number, in key order from 0.
    pub index: usize,
    /// Start key (inclusive); empty for the first region.
    pub start: Vec<u8>,
    /// Stop key (exclusive); `None` for the last region.
    pub stop: Option<Vec<u8>>,
    /// Keys counted.
    pub keys: u64,
    /// Bytes counted.
    pub bytes: u64,
}

/// Per-region distribution of the keys an [`Analyzer`] has seen.
///
/// `Display` prints a per-region table with a summary line; [`Report::side_by_side`] compares
/// two layouts.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    name: String,
    regions: Vec<RegionStats>,
    untimed: u64,
    outside_span: u64,
    grid: Option<TimeGrid>,
}

fn mean_and_cv(values: impl Iterator<Item = u64> + Clone) -> (f64, f64) {
    let n = values.clone().count();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = values.clone().map(|v| v as f64).sum::<f64>() / n as f64;
    if mean == 0.0 {
        return (0.0, 0.0);
    }
    let var = values
        .map(|v| {
            let d = v as f64 - mean;
            d * d
        })
        .sum::<f64>()
        / n as f64;
    (mean, var.sqrt() / mean)
}

impl Report {
    /// The analyzed layout's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// All regions, in key order.
    pub fn regions(&self) -> &[RegionStats] {
        &self.regions
    }

    /// One region.
    pub fn region(&self, index: usize) -> Option<&RegionStats> {
        self.regions.get(index)
    }

    /// Keys counted over all regions.
    pub fn total_keys(&self) -> u64 {
        self.regions.iter().map(|r| r.keys).sum()
    }

    /// Bytes counted over all regions.
    pub fn total_bytes(&self) -> u64 {
        self.regions
            .iter()
            .fold(0u64, |acc, r| acc.saturating_add(r.bytes))
    }

    /// Keys added without a time (not in the heatmap).
    pub fn untimed_keys(&self) -> u64 {
        self.untimed
    }

    /// Keys added with a time outside the heatmap's span (not in the heatmap).
    pub fn outside_span_keys(&self) -> u64 {
        self.outside_span
    }

    /// Fraction of all keys in region `index` (0.0 when there are no keys).
    pub fn share(&self, index: usize) -> f64 {
        let total = self.total_keys();
        match self.regions.get(index) {
            Some(r) if total > 0 => r.keys as f64 / total as f64,
            _ => 0.0,
        }
    }

    /// Regions without any key.
    pub fn empty_regions(&self) -> usize {
        self.regions.iter().filter(|r| r.keys == 0).count()
    }

    /// Largest region's key count over the mean (1.0 is perfectly even; equal to the number of
    /// regions when one region has every key). 0.0 when there are no keys.
    pub fn max_mean_skew(&self) -> f64 {
        let (mean, _) = mean_and_cv(self.regions.iter().map(|r| r.keys));
        let max = self.regions.iter().map(|r| r.keys).max().unwrap_or(0);
        if mean == 0.0 {
            0.0
        } else {
            max as f64 / mean
        }
    }

    /// [`max_mean_skew`](Self::max_mean_skew) over bytes instead of keys.
    pub fn max_mean_skew_bytes(&self) -> f64 {
        let (mean, _) = mean_and_cv(self.regions.iter().map(|r| r.bytes));
        let max = self.regions.iter().map(|r| r.bytes).max().unwrap_or(0);
        if mean == 0.0 {
            0.0
        } else {
            max as f64 / mean
        }
    }

    /// Coefficient of variation of the keys per region: population standard deviation over the
    /// mean (0.0 is perfectly even). 0.0 when there are no keys.
    pub fn coefficient_of_variation(&self) -> f64 {
        mean_and_cv(self.regions.iter().map(|r| r.keys)).1
    }

    /// The one-line summary printed under the table.
    ///
    /// ```
    /// use rowkey_core::hotspot::Analyzer;
    ///
    /// let mut a = Analyzer::new([b"b"])?;
    /// a.add(b"a");
    /// assert_eq!(
    ///     a.report().summary(),
    ///     "2 regions, 1 keys (1 B), 1 empty, max/mean skew 2.00, CV 1.00"
    /// );
    /// # Ok::<(), rowkey_core::hotspot::HotspotError>(())
    /// ```
    pub fn summary(&self) -> String {
        format!(
            "{} regions, {} keys ({}), {} empty, max/mean skew {:.2}, CV {:.2}",
            self.regions.len(),
            self.total_keys(),
            human_bytes(self.total_bytes()),
            self.empty_regions(),
            self.max_mean_skew(),
            self.coefficient_of_variation()
        )
    }

    /// Two reports as one table, region by region, with their summaries — for comparing two
    /// layouts of the same data. Column titles are the reports' names.
    ///
    /// ```
    /// use rowkey_core::hotspot::Analyzer;
    ///
    /// let mut a = Analyzer::new([b"5"])?.with_name("plain");
    /// let mut b = Analyzer::new([b"5"])?.with_name("hashed");
    /// a.add(b"1");
    /// b.add(b"7");
    /// let table = a.report().side_by_side(&b.report());
    /// assert!(table.contains("plain"));
    /// assert!(table.contains("empty regions"));
    /// # Ok::<(), rowkey_core::hotspot::HotspotError>(())
    /// ```
    pub fn side_by_side(&self, other: &Report) -> String {
        const KEY_W: usize = 14;
        let title = |r: &Report, fallback: &str| {
            if r.name.is_empty() {
                fallback.to_owned()
            } else {
                r.name.clone()
            }
        };
        let (lt, rt) = (title(self, "left"), title(other, "right"));
        let side_w = KEY_W + 2 + 10 + 2 + 7;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>6} | {:<side_w$} | {:<side_w$}",
            "",
            clip(&lt, side_w),
            clip(&rt, side_w)
        );
        let sub = format!("{:<KEY_W$}  {:>10}  {:>7}", "start key", "keys", "share");
        let _ = writeln!(out, "{:>6} | {sub} | {sub}", "region");
        let _ = writeln!(out, "{}", "-".repeat(6 + 3 + side_w + 3 + side_w));
        let cell = |r: &Report, i: usize| match r.regions.get(i) {
            Some(s) => format!(
                "{:<KEY_W$}  {:>10}  {:>6.2}%",
                clip(&start_label(s), KEY_W),
                s.keys,
                r.share(i) * 100.0
            ),
            None => String::new(),
        };
        for i in 0..self.regions.len().max(other.regions.len()) {
            let _ = writeln!(
                out,
                "{i:>6} | {:<side_w$} | {}",
                cell(self, i),
                cell(other, i)
            );
        }
        let _ = writeln!(out, "{}", "-".repeat(6 + 3 + side_w + 3 + side_w));
        let rows: [(&str, String, String); 6] = [
            (
                "regions",
                self.regions.len().to_string(),
                other.regions.len().to_string(),
            ),
            (
                "keys",
                self.total_keys().to_string(),
                other.total_keys().to_string(),
            ),
            (
                "bytes",
                human_bytes(self.total_bytes()),
                human_bytes(other.total_bytes()),
            ),
            (
                "empty regions",
                self.empty_regions().to_string(),
                other.empty_regions().to_string(),
            ),
            (
                "max/mean skew",
                format!("{:.2}", self.max_mean_skew()),
                format!("{:.2}", other.max_mean_skew()),
            ),
            (
                "coeff. of variation",
                format!("{:.3}", self.coefficient_of_variation()),
                format!("{:.3}", other.coefficient_of_variation()),
            ),
        ];
        // Summary values end where the region rows' columns end.
        let (label_w, left_w) = (20, 6 + 3 + side_w - 20);
        for (label, l, r) in rows {
            let _ = writeln!(out, "{label:<label_w$}{l:>left_w$} | {r:>side_w$}");
        }
        out.lines().fold(String::new(), |mut acc, line| {
            acc.push_str(line.trim_end());
            acc.push('\n');
            acc
        })
    }

    /// Any number of reports as one table, region by region (start key, keys and share for
    /// each), with their summaries below — [`side_by_side`](Self::side_by_side) for more than
    /// two plans, e.g. the same keys under three pre-splits. Column titles are the reports'
    /// names; reports with fewer regions leave their cells blank.
    ///
    /// ```
    /// use rowkey_core::hotspot::{Analyzer, Report};
    ///
    /// let mut a = Analyzer::new([b"5"])?.with_name("split at 5");
    /// let mut b = Analyzer::new([b"3", b"7"])?.with_name("split at 3, 7");
    /// for k in [b"1", b"4", b"8"] {
    ///     a.add(k);
    ///     b.add(k);
    /// }
    /// let table = Report::comparison_table(&[&a.report(), &b.report()]);
    /// assert!(table.contains("split at 3, 7"));
    /// assert!(table.lines().any(|l| l.starts_with("empty regions")));
    /// # Ok::<(), rowkey_core::hotspot::HotspotError>(())
    /// ```
    pub fn comparison_table(reports: &[&Report]) -> String {
        const KEY_W: usize = 20;
        let side_w = KEY_W + 2 + 8 + 2 + 7;
        let mut out = String::new();
        let mut line = format!("{:>6}", "");
        for (i, r) in reports.iter().enumerate() {
            let title = if r.name.is_empty() {
                format!("plan {}", i + 1)
            } else {
                r.name.clone()
            };
            let _ = write!(line, " | {:<side_w$}", clip(&title, side_w));
        }
        let _ = writeln!(out, "{line}");
        let sub = format!("{:<KEY_W$}  {:>8}  {:>7}", "start key", "keys", "share");
        let mut line = format!("{:>6}", "region");
        for _ in reports {
            let _ = write!(line, " | {sub}");
        }
        let _ = writeln!(out, "{line}");
        let rule = "-".repeat(6 + reports.len() * (3 + side_w));
        let _ = writeln!(out, "{rule}");
        let rows = reports.iter().map(|r| r.regions.len()).max().unwrap_or(0);
        for i in 0..rows {
            let mut line = format!("{i:>6}");
            for r in reports {
                let cell = match r.regions.get(i) {
                    Some(s) => format!(
                        "{:<KEY_W$}  {:>8}  {:>6.2}%",
                        clip(&start_label(s), KEY_W),
                        s.keys,
                        r.share(i) * 100.0
                    ),
                    None => String::new(),
                };
                let _ = write!(line, " | {cell:<side_w$}");
            }
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "{rule}");
        type Metric = fn(&Report) -> String;
        let metrics: [(&str, Metric); 5] = [
            ("regions", |r| r.regions.len().to_string()),
            ("keys", |r| r.total_keys().to_string()),
            ("empty regions", |r| r.empty_regions().to_string()),
            ("max/mean skew", |r| format!("{:.2}", r.max_mean_skew())),
            ("coeff. of variation", |r| {
                format!("{:.3}", r.coefficient_of_variation())
            }),
        ];
        for (label, metric) in metrics {
            let mut line = format!("{label:<20}");
            for (i, r) in reports.iter().enumerate() {
                // The first value ends where the first column ends.
                let w = if i == 0 { 6 + 3 + side_w - 20 } else { side_w };
                let sep = if i == 0 { "" } else { " | " };
                let _ = write!(line, "{sep}{:>w$}", metric(r));
            }
            let _ = writeln!(out, "{line}");
        }
        out.lines().fold(String::new(), |mut acc, line| {
            acc.push_str(line.trim_end());
            acc.push('\n');
            acc
        })
    }

    /// The time × region heatmap as a standalone SVG document: time on the x axis (UTC labels,
    /// times taken as ms since the Unix epoch), regions in key order on the y axis (first region
    /// at the top), each cell colored by its key count (dark = none, then blue → green → yellow
    /// as the count rises to the maximum cell), with axis labels, a title and a color legend.
    ///
    /// A monotonically increasing key shows as a diagonal (one hot region at a time); a salted
    /// or hashed key as a flat band across all regions. Without a time span
    /// ([`Analyzer::with_time_span`]) the picture has one column: the total per region.
    pub fn heatmap_svg(&self) -> String {
        render_svg(self)
    }

    /// Writes [`heatmap_svg`](Self::heatmap_svg) to `path`.
    ///
    /// # Errors
    ///
    /// Any I/O error from writing the file.
    pub fn write_heatmap_svg(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.heatmap_svg())
    }
}

impl fmt::Display for Report {
    /// A per-region table (start key, stop key, keys, share, bytes) and the summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const KEY_W: usize = 18;
        if !self.name.is_empty() {
            writeln!(f, "{}", self.name)?;
        }
        writeln!(
            f,
            "{:>6}  {:<KEY_W$}  {:<KEY_W$}  {:>12}  {:>7}  {:>10}",
            "region", "start key", "stop key", "keys", "share", "bytes"
        )?;
        for (i, r) in self.regions.iter().enumerate() {
            let stop = match &r.stop {
                Some(s) => to_string_binary(s),
                None => "(end)".to_owned(),
            };
            writeln!(
                f,
                "{:>6}  {:<KEY_W$}  {:<KEY_W$}  {:>12}  {:>6.2}%  {:>10}",
                r.index,
                clip(&start_label(r), KEY_W),
                clip(&stop, KEY_W),
                r.keys,
                self.share(i) * 100.0,
                human_bytes(r.bytes)
            )?;
        }
        writeln!(f, "{}", self.summary())
    }
}

fn start_label(r: &RegionStats) -> String {
    if r.start.is_empty() {
        "(start)".to_owned()
    } else {
        to_string_binary(&r.start)
    }
}

/// At most `width` characters, with `..` marking a cut. A cut never splits a `\xHH` escape of
/// `toStringBinary` (every `\` there starts one).
fn clip(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(width.saturating_sub(2)).collect();
        if let Some(pos) = out.rfind('\\') {
            if out.len() - pos < 4 {
                out.truncate(pos);
            }
        }
        out.push_str("..");
        out
    }
}

fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut v = b as f64 / 1024.0;
    let mut unit = UNITS[0];
    for u in UNITS.iter().skip(1) {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = u;
    }
    format!("{v:.1} {unit}")
}

// ---------------------------------------------------------------------------------------------
// SVG rendering
// ---------------------------------------------------------------------------------------------

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Color stops from low to high count (viridis-like); zero counts are drawn in `EMPTY_COLOR`.
const STOPS: [(u8, u8, u8); 5] = [
    (0x44, 0x01, 0x54),
    (0x3B, 0x52, 0x8B),
    (0x21, 0x90, 0x8C),
    (0x5E, 0xC9, 0x62),
    (0xFD, 0xE7, 0x25),
];
const EMPTY_COLOR: &str = "#15151f";

fn color(t: f64) -> String {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let pos = t * (STOPS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(STOPS.len() - 2);
    let frac = pos - i as f64;
    let (a, b) = match (STOPS.get(i), STOPS.get(i + 1)) {
        (Some(a), Some(b)) => (*a, *b),
        _ => ((0, 0, 0), (0, 0, 0)),
    };
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * frac).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A UTC label for `ms` since the epoch: `HH:MM` (with seconds for short spans, with the date
/// for spans of more than two days).
fn time_label(ms: u64, span_ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let sod = secs % 86_400;
    let (h, m, s) = (sod / 3600, (sod % 3600) / 60, sod % 60);
    if span_ms > 2 * 86_400_000 {
        let (y, mo, d) = civil_from_days(days);
        format!("{y:04}-{mo:02}-{d:02}")
    } else if span_ms < 600_000 {
        format!("{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}")
    }
}

fn render_svg(report: &Report) -> String {
    let regions = report.regions.len().max(1);
    let (slices, cells): (usize, Vec<u64>) = match &report.grid {
        Some(g) => (g.slices.max(1), g.cells.clone()),
        None => (1, report.regions.iter().map(|r| r.keys).collect()),
    };
    let max = cells.iter().copied().max().unwrap_or(0);

    // Geometry.
    let plot_w = 900.0_f64;
    let cell_h = (640.0 / regions as f64).clamp(2.0, 22.0);
    let plot_h = cell_h * regions as f64;
    let cell_w = plot_w / slices as f64;
    let (left, top, right, bottom) = (230.0_f64, 70.0_f64, 150.0_f64, 70.0_f64);
    let width = left + plot_w + right;
    let height = top + plot_h + bottom;

    let mut s = String::with_capacity(4096 + cells.len() * 64);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##
    );

    // Title.
    let name = if report.name.is_empty() {
        "keys".to_owned()
    } else {
        report.name.clone()
    };
    let _ = writeln!(
        s,
        r#"<text x="{left:.0}" y="26" font-size="18" font-weight="bold">{}</text>"#,
        xml_escape(&format!("{name}: keys per region over time"))
    );
    let _ = writeln!(
        s,
        r##"<text x="{left:.0}" y="46" fill="#444444">{}</text>"##,
        xml_escape(&format!(
            "{} keys, {} regions ({} empty), max/mean skew {:.2}, CV {:.2}, busiest cell {max} keys",
            report.total_keys(),
            report.regions.len(),
            report.empty_regions(),
            report.max_mean_skew(),
            report.coefficient_of_variation()
        ))
    );

    // Cells: one background rect for "no keys", then a rect per non-empty cell.
    let _ = writeln!(
        s,
        r#"<rect x="{left:.2}" y="{top:.2}" width="{plot_w:.2}" height="{plot_h:.2}" fill="{EMPTY_COLOR}"/>"#
    );
    let _ = writeln!(s, r#"<g shape-rendering="crispEdges">"#);
    let with_titles = cells.len() <= 20_000;
    for (idx, &count) in cells.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let slice = idx / regions;
        let region = idx % regions;
        let x = left + slice as f64 * cell_w;
        let y = top + region as f64 * cell_h;
        let fill = color(count as f64 / max.max(1) as f64);
        if with_titles {
            let when = match &report.grid {
                Some(g) => {
                    let span = g.t1 - g.t0;
                    format!(
                        "{}–{}",
                        time_label(g.slice_start(slice), span),
                        time_label(g.slice_start(slice + 1), span)
                    )
                }
                None => "all keys".to_owned(),
            };
            let _ = writeln!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{cell_w:.2}" height="{cell_h:.2}" fill="{fill}"><title>region {region}, {when}: {count} keys</title></rect>"#
            );
        } else {
            let _ = writeln!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{cell_w:.2}" height="{cell_h:.2}" fill="{fill}"/>"#
            );
        }
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(
        s,
        r##"<rect x="{left:.2}" y="{top:.2}" width="{plot_w:.2}" height="{plot_h:.2}" fill="none" stroke="#333333"/>"##
    );

    // Y axis: region labels — index and start key (toStringBinary) — as many as fit, and
    // always the busiest region (in bold, with a marker), so the hot spot can be named from
    // the picture alone.
    let every = (13.0 / cell_h).ceil().max(1.0) as usize;
    let busiest = report
        .regions
        .iter()
        .enumerate()
        .filter(|(_, r)| r.keys > 0)
        .max_by(|a, b| a.1.keys.cmp(&b.1.keys).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i);
    for (i, r) in report.regions.iter().enumerate() {
        let hot = busiest == Some(i);
        // Thinned labels give way to the busiest region's label when they would overlap it.
        let near_hot = busiest.is_some_and(|b| !hot && b.abs_diff(i) < every);
        if !hot && (i % every != 0 || near_hot) {
            continue;
        }
        let y = top + (i as f64 + 0.5) * cell_h;
        let label = format!("{i:>3} {}", clip(&start_label(r), 22));
        let label = if hot { format!("▶ {label}") } else { label };
        let weight = if hot { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            s,
            r##"<line x1="{:.2}" y1="{y:.2}" x2="{left:.2}" y2="{y:.2}" stroke="#333333"/>"##,
            left - 4.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="end" font-family="monospace" font-size="11"{weight}>{}</text>"#,
            left - 6.0,
            y + 4.0,
            xml_escape(&label)
        );
    }
    let axis_title = if every > 1 {
        format!("regions in key order: index, start key (1 in {every} labeled; ▶ busiest)")
    } else {
        "regions in key order: index, start key (▶ busiest)".to_owned()
    };
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.2}" transform="rotate(-90 16 {:.2})" text-anchor="middle">{}</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0,
        xml_escape(&axis_title)
    );

    // X axis: time ticks.
    let axis_y = top + plot_h;
    match &report.grid {
        Some(g) => {
            let span = g.t1 - g.t0;
            let ticks = slices.min(8);
            for k in 0..=ticks {
                let slice = k * slices / ticks.max(1);
                let x = left + slice as f64 * cell_w;
                let _ = writeln!(
                    s,
                    r##"<line x1="{x:.2}" y1="{axis_y:.2}" x2="{x:.2}" y2="{:.2}" stroke="#333333"/>"##,
                    axis_y + 5.0
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{x:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                    axis_y + 19.0,
                    xml_escape(&time_label(g.slice_start(slice), span))
                );
            }
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
                left + plot_w / 2.0,
                axis_y + 44.0,
                xml_escape(&format!(
                    "write time (UTC), {slices} slices of {}",
                    duration_label(span / slices.max(1) as u64)
                ))
            );
        }
        None => {
            let _ = writeln!(
                s,
                r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">all keys (no time span given)</text>"#,
                left + plot_w / 2.0,
                axis_y + 24.0
            );
        }
    }

    // Legend.
    let lx = left + plot_w + 30.0;
    let lh = plot_h.clamp(80.0, 300.0);
    let _ = writeln!(
        s,
        r#"<defs><linearGradient id="rk-scale" x1="0" y1="1" x2="0" y2="0">"#
    );
    for (i, _) in STOPS.iter().enumerate() {
        let t = i as f64 / (STOPS.len() - 1) as f64;
        let _ = writeln!(
            s,
            r#"<stop offset="{:.0}%" stop-color="{}"/>"#,
            t * 100.0,
            color(t)
        );
    }
    let _ = writeln!(s, "</linearGradient></defs>");
    let _ = writeln!(
        s,
        r##"<rect x="{lx:.2}" y="{top:.2}" width="18" height="{lh:.2}" fill="url(#rk-scale)" stroke="#333333"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}">{max}</text>"#,
        lx + 24.0,
        top + 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}">1</text>"#,
        lx + 24.0,
        top + lh
    );
    let _ = writeln!(
        s,
        r##"<rect x="{lx:.2}" y="{:.2}" width="18" height="12" fill="{EMPTY_COLOR}" stroke="#333333"/>"##,
        top + lh + 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}">0</text>"#,
        lx + 24.0,
        top + lh + 20.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{lx:.2}" y="{:.2}">keys per cell</text>"#,
        top - 8.0
    );
    s.push_str("</svg>\n");
    s
}

fn duration_label(ms: u64) -> String {
    if ms >= 3_600_000 && ms.is_multiple_of(3_600_000) {
        format!("{} h", ms / 3_600_000)
    } else if ms >= 60_000 && ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else if ms >= 1000 && ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hex_splits(n: u32) -> Vec<Vec<u8>> {
        // HexStringSplit-style points over 2 hex chars, enough for these tests.
        (1..n)
            .map(|i| format!("{:02x}", i * 256 / n).into_bytes())
            .collect()
    }

    #[test]
    fn rejects_bad_split_points() {
        assert_eq!(
            Analyzer::new([b"b".as_slice(), b"a"]).unwrap_err(),
            HotspotError::UnsortedSplitPoints { index: 1 }
        );
        assert_eq!(
            Analyzer::new([b"a".as_slice(), b"a"]).unwrap_err(),
            HotspotError::UnsortedSplitPoints { index: 1 }
        );
        assert_eq!(
            Analyzer::new([b"".as_slice()]).unwrap_err(),
            HotspotError::EmptySplitPoint { index: 0 }
        );
        let a = Analyzer::new(Vec::<Vec<u8>>::new()).unwrap();
        assert_eq!(a.regions(), 1);
        assert!(matches!(
            a.clone().with_time_span(5, 5, 10),
            Err(HotspotError::EmptyTimeSpan { .. })
        ));
        assert!(matches!(
            a.clone().with_time_span(0, 5, 0),
            Err(HotspotError::InvalidSlices { .. })
        ));
        assert!(matches!(
            a.with_time_span(0, 5, usize::MAX),
            Err(HotspotError::InvalidSlices { .. })
        ));
        let e = HotspotError::UnsortedSplitPoints { index: 3 };
        assert!(e.to_string().contains("strictly increasing"));
    }

    #[test]
    fn region_boundaries() {
        let a = Analyzer::new([b"b".as_slice(), b"d"]).unwrap();
        assert_eq!(a.region_of(b""), 0);
        assert_eq!(a.region_of(b"a"), 0);
        assert_eq!(a.region_of(b"azzz"), 0);
        assert_eq!(a.region_of(b"b"), 1); // start keys are inclusive
        assert_eq!(a.region_of(b"c"), 1);
        assert_eq!(a.region_of(b"d"), 2);
        assert_eq!(a.region_of(b"\xFF"), 2);
    }

    #[test]
    fn counts_and_metrics() {
        let mut a = Analyzer::new([b"b".as_slice(), b"c", b"d"]).unwrap();
        for _ in 0..6 {
            a.add(b"a1");
        }
        a.add_with(b"b", None, 100);
        a.add_with(b"bb", Some(1), 100);
        let r = a.report();
        assert_eq!(r.total_keys(), 8);
        assert_eq!(r.total_bytes(), 12 + 200);
        assert_eq!(r.region(0).unwrap().keys, 6);
        assert_eq!(r.region(1).unwrap().bytes, 200);
        assert_eq!(r.region(1).unwrap().start, b"b");
        assert_eq!(r.region(1).unwrap().stop.as_deref(), Some(b"c".as_slice()));
        assert_eq!(r.region(0).unwrap().start, b"");
        assert_eq!(r.region(3).unwrap().stop, None);
        assert_eq!(r.empty_regions(), 2);
        assert!((r.share(0) - 0.75).abs() < 1e-12);
        assert_eq!(r.share(99), 0.0);
        // mean 2, max 6
        assert!((r.max_mean_skew() - 3.0).abs() < 1e-12);
        // values 6,2,0,0: mean 2, variance (16+0+4+4)/4 = 6
        assert!((r.coefficient_of_variation() - 6f64.sqrt() / 2.0).abs() < 1e-12);
        assert!(r.max_mean_skew_bytes() > 1.0);
        assert_eq!(r.untimed_keys(), 7);
        assert_eq!(r.outside_span_keys(), 0); // no heatmap configured
        let table = r.to_string();
        assert!(table.contains("(start)"));
        assert!(table.contains("(end)"));
        assert!(table.contains("75.00%"));
        assert!(table.contains("2 empty"));
    }

    #[test]
    fn empty_report_metrics_are_zero() {
        let r = Analyzer::new([b"m"]).unwrap().report();
        assert_eq!(r.total_keys(), 0);
        assert_eq!(r.max_mean_skew(), 0.0);
        assert_eq!(r.coefficient_of_variation(), 0.0);
        assert_eq!(r.share(0), 0.0);
        assert_eq!(r.empty_regions(), 2);
        assert!(r.to_string().contains("2 regions"));
        assert!(r.heatmap_svg().contains("</svg>"));
    }

    #[test]
    fn even_distribution() {
        let splits = hex_splits(16);
        let mut a = Analyzer::new(&splits).unwrap();
        for i in 0..=255u32 {
            a.add(format!("{i:02x}").as_bytes());
        }
        let r = a.report();
        assert_eq!(r.empty_regions(), 0);
        assert!((r.max_mean_skew() - 1.0).abs() < 1e-12);
        assert!(r.coefficient_of_variation() < 1e-12);
    }

    #[test]
    fn time_grid_slices() {
        let mut a = Analyzer::new([b"5".as_slice()])
            .unwrap()
            .with_time_span(1000, 2000, 10)
            .unwrap();
        a.add_with(b"1", Some(1000), 1);
        a.add_with(b"1", Some(1099), 1);
        a.add_with(b"7", Some(1100), 1);
        a.add_with(b"7", Some(1999), 1);
        a.add_with(b"7", Some(2000), 1); // outside [t0, t1)
        a.add_with(b"7", Some(5), 1);
        let g = a.grid.as_ref().unwrap();
        assert_eq!(g.cells[0], 2); // slice 0, region 0
        assert_eq!(g.cells[2 + 1], 1); // slice 1, region 1
        assert_eq!(g.cells[9 * 2 + 1], 1); // slice 9, region 1
        assert_eq!(g.cells.iter().sum::<u64>(), 4);
        let r = a.report();
        assert_eq!(r.outside_span_keys(), 2);
        assert_eq!(r.total_keys(), 6);
        // Huge spans do not overflow.
        let g = TimeGrid {
            t0: 0,
            t1: u64::MAX,
            slices: 1000,
            cells: vec![],
        };
        assert_eq!(g.slice_of(u64::MAX - 1), Some(999));
        assert_eq!(g.slice_of(0), Some(0));
    }

    #[test]
    fn side_by_side_table() {
        let splits = hex_splits(4);
        let mut a = Analyzer::new(&splits).unwrap().with_name("unhashed");
        let mut b = Analyzer::new(&splits[..2]).unwrap().with_name("hashed");
        for i in 0..100u32 {
            a.add(b"00");
            b.add(format!("{:02x}", (i * 37) % 256).as_bytes());
        }
        let t = a.report().side_by_side(&b.report());
        assert!(t.contains("unhashed"));
        assert!(t.contains("hashed"));
        // Rows for every region of the longer report.
        assert!(t.lines().any(|l| l.trim_start().starts_with("3 |")));
        assert!(t.contains("empty regions"));
        assert!(t.contains("max/mean skew"));
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines.len() >= 4 + 2 + 6);
    }

    #[test]
    fn heatmap_diagonal_versus_band() {
        let splits = hex_splits(8);
        let day = 86_400_000u64;
        let mut mono = Analyzer::new(&splits)
            .unwrap()
            .with_name("monotonic <&>")
            .with_time_span(0, day, 8)
            .unwrap();
        let mut salted = Analyzer::new(&splits)
            .unwrap()
            .with_name("salted")
            .with_time_span(0, day, 8)
            .unwrap();
        for i in 0..8000u64 {
            let t = i * day / 8000;
            // Monotonic key: its first byte follows time.
            mono.add_with(format!("{:02x}", t * 256 / day).as_bytes(), Some(t), 10);
            salted.add_with(format!("{:02x}", (i * 97) % 256).as_bytes(), Some(t), 10);
        }
        let mg = mono.grid.as_ref().unwrap();
        // Diagonal: slice k only writes region k.
        for slice in 0..8 {
            for region in 0..8 {
                let c = mg.cells[slice * 8 + region];
                assert_eq!(c > 0, slice == region, "slice {slice} region {region}");
            }
        }
        let sg = salted.grid.as_ref().unwrap();
        assert!(sg.cells.iter().all(|&c| c > 0)); // flat band
        let svg = mono.heatmap_svg();
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("monotonic &lt;&amp;&gt;"));
        assert!(svg.contains("00:00"));
        assert!(svg.contains("12:00"));
        assert_eq!(svg.matches("<title>").count(), 8);
        assert_eq!(salted.heatmap_svg().matches("<title>").count(), 64);
        let path = std::env::temp_dir().join(format!("rowkey-heatmap-{}.svg", std::process::id()));
        salted.write_heatmap_svg(&path).unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(written, salted.heatmap_svg());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn heatmap_names_regions_on_the_y_axis() {
        // 300 regions: labels are thinned, but the busiest one is always labeled.
        let splits: Vec<Vec<u8>> = (1..300u32).map(|i| i.to_be_bytes().to_vec()).collect();
        let mut a = Analyzer::new(&splits).unwrap().with_name("many");
        for i in 0..300u32 {
            a.add(&i.to_be_bytes());
        }
        for _ in 0..50 {
            a.add(&137u32.to_be_bytes());
        }
        let svg = a.heatmap_svg();
        // Region 137 starts at split 136, the value 137 = 0x89: index and toStringBinary start key.
        assert!(
            svg.contains(r#"font-weight="bold">▶ 137 \x00\x00\x00\x89</text>"#),
            "{svg}"
        );
        // 640 px / 300 regions: 2.1 px a row, one label every 7 rows.
        assert!(svg.contains("(1 in 7 labeled; ▶ busiest)"), "{svg}");
        assert!(svg.contains(">  7 \\x00\\x00\\x00\\x07</text>"));
        assert!(svg.contains(">  0 (start)</text>"));
        // Few regions: every one labeled.
        let mut b = Analyzer::new([b"m"]).unwrap();
        b.add(b"z");
        let svg = b.heatmap_svg();
        assert!(svg.contains(">  0 (start)</text>"));
        assert!(svg.contains(r#"font-weight="bold">▶   1 m</text>"#));
        assert!(svg.contains("(▶ busiest)"));
    }

    #[test]
    fn clip_keeps_escapes_whole() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcdef", 5), "abc..");
        assert_eq!(clip(r"6\xF6\xF6", 8), r"6\xF6..");
        assert_eq!(clip(r"6\xF6\xF6", 7), r"6\xF6..");
        assert_eq!(clip(r"6\xF6\xF6", 6), r"6..");
    }

    #[test]
    fn comparison_of_three() {
        let mut rs = Vec::new();
        for (name, splits) in [
            ("one", vec![b"5".to_vec()]),
            ("two", vec![b"3".to_vec(), b"7".to_vec()]),
            ("", vec![]),
        ] {
            let mut a = Analyzer::new(&splits).unwrap().with_name(name);
            for k in [b"1", b"4", b"8", b"9"] {
                a.add(k);
            }
            rs.push(a.report());
        }
        let t = Report::comparison_table(&rs.iter().collect::<Vec<_>>());
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].contains("one") && lines[0].contains("two") && lines[0].contains("plan 3")
        );
        assert_eq!(lines.len(), 3 + 3 + 1 + 5);
        assert!(lines[3].starts_with("     0 | (start)"), "{t}");
        assert!(lines[5].contains(" 7 "), "{t}");
        assert!(t.contains("empty regions"));
        assert!(t.lines().all(|l| l == l.trim_end()));
    }

    #[test]
    fn heatmap_without_time_span() {
        let mut a = Analyzer::new([b"m".as_slice()]).unwrap();
        a.add(b"a");
        let svg = a.heatmap_svg();
        assert!(svg.contains("no time span"));
        assert_eq!(svg.matches("<title>").count(), 1);
    }

    #[test]
    fn labels() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_675), (2023, 11, 14));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(time_label(1_700_000_000_000, 86_400_000), "22:13");
        assert_eq!(time_label(1_700_000_000_000, 10 * 86_400_000), "2023-11-14");
        assert_eq!(time_label(1_700_000_000_000, 1000), "22:13:20");
        assert_eq!(duration_label(3_600_000), "1 h");
        assert_eq!(duration_label(900_000), "15 min");
        assert_eq!(duration_label(1500), "1500 ms");
        assert_eq!(human_bytes(10), "10 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
        assert_eq!(human_bytes(u64::MAX), "16.0 EiB");
        assert_eq!(clip("abcdef", 4), "ab..");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(color(0.0), "#440154");
        assert_eq!(color(1.0), "#fde725");
        assert_eq!(color(f64::NAN), "#440154");
        assert_eq!(
            xml_escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;"
        );
    }

    /// Run with `cargo test --release -p rowkey-core --lib throughput -- --ignored --nocapture`.
    #[test]
    #[ignore = "performance check; run in release"]
    fn throughput() {
        let splits = hex_splits(40);
        let mut a = Analyzer::new(&splits)
            .unwrap()
            .with_time_span(0, 86_400_000, 96)
            .unwrap();
        let n = 20_000_000u64;
        let mut keys: Vec<[u8; 16]> = Vec::with_capacity(1 << 16);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..(1 << 16) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut k = [0u8; 16];
            k[..8].copy_from_slice(format!("{:08x}", x as u32).as_bytes());
            k[8..].copy_from_slice(&x.to_be_bytes());
            keys.push(k);
        }
        let start = std::time::Instant::now();
        for i in 0..n {
            let k = &keys[(i & 0xFFFF) as usize];
            a.add_with(std::hint::black_box(k), Some(i % 86_400_000), 100);
        }
        let el = start.elapsed();
        let rate = n as f64 / el.as_secs_f64();
        println!("{rate:.0} keys/s ({el:?} for {n})");
        assert_eq!(a.report().total_keys(), n);
        assert!(rate > 10_000_000.0, "{rate:.0} keys/s");
    }

    proptest! {
        #[test]
        fn prop_prefix8_orders_like_bytes(
            a in proptest::collection::vec(0u8..3, 0..12),
            b in proptest::collection::vec(0u8..3, 0..12),
        ) {
            let (pa, pb) = (prefix8(&a), prefix8(&b));
            if pa != pb {
                prop_assert_eq!(pa.cmp(&pb), a.cmp(&b));
            }
        }

        #[test]
        fn prop_counts_add_up(
            mut splits in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..4), 0..20),
            keys in proptest::collection::vec((proptest::collection::vec(any::<u8>(), 0..5), any::<u64>(), 0u64..1000), 0..200),
        ) {
            splits.sort();
            splits.dedup();
            let mut a = Analyzer::new(&splits).unwrap().with_time_span(0, 1 << 40, 7).unwrap();
            for (k, t, size) in &keys {
                a.add_with(k, Some(*t), *size);
                let r = a.region_of(k);
                // The region's bounds contain the key.
                if r > 0 {
                    prop_assert!(splits[r - 1].as_slice() <= k.as_slice());
                }
                if r < splits.len() {
                    prop_assert!(k.as_slice() < splits[r].as_slice());
                }
            }
            let rep = a.report();
            prop_assert_eq!(rep.total_keys(), keys.len() as u64);
            prop_assert_eq!(rep.total_bytes(), keys.iter().map(|k| k.2).sum::<u64>());
            let in_grid: u64 = a.grid.as_ref().unwrap().cells.iter().sum();
            prop_assert_eq!(in_grid + rep.outside_span_keys(), keys.len() as u64);
            let _ = rep.to_string();
            let _ = rep.heatmap_svg();
        }
    }
}
