//! The per-region report: counts, bytes, empty regions, skew, tables side by side.

use std::fmt::{self, Write as _};

use super::grid::TimeGrid;

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

/// Per-region distribution of the keys an [`Analyzer`](super::Analyzer) has seen.
///
/// `Display` prints a per-region table with a summary line; [`Report::side_by_side`] compares
/// two layouts.
///
/// ```
/// use rowkey::hotspot::{Analyzer, HotspotError, RegionStats};
///
/// // two regions split at "m"; a heatmap of 10 one-second slices
/// let mut a = Analyzer::new([b"m"])?
///     .with_name("hosts")
///     .with_time_span(0, 10_000, 10)?;
/// assert_eq!((a.regions(), a.split_points()), (2, &[b"m".to_vec()][..]));
/// a.add_with(b"alpha", Some(1_000), 100); // a 100-byte row at t = 1 s
/// a.add_with(b"beta", Some(2_000), 100);
/// a.add_with(b"zulu", None, 50); // no time: counted, not in the heatmap
/// a.add_with(b"zeta", Some(99_000), 50); // after the span
/// let r = a.report();
/// assert_eq!(r.name(), "hosts");
/// assert_eq!((r.total_keys(), r.total_bytes()), (4, 300));
/// assert_eq!((r.untimed_keys(), r.outside_span_keys()), (1, 1));
/// let first: &RegionStats = r.region(0).unwrap();
/// assert_eq!((first.start.as_slice(), first.stop.as_deref()), (&b""[..], Some(&b"m"[..])));
/// assert_eq!((first.keys, first.bytes), (2, 200));
/// assert_eq!(r.regions().len(), 2);
/// assert_eq!(r.share(1), 0.5);
/// assert_eq!(r.max_mean_skew(), 1.0); // 2 keys each: even by count
/// assert!(r.max_mean_skew_bytes() > 1.3); // 200 vs 100 bytes: not by size
/// assert_eq!(r.coefficient_of_variation(), 0.0);
/// assert!(r.heatmap_svg().starts_with("<svg"));
/// // r.write_heatmap_svg("hot.svg")?; writes the same to a file
/// # Ok::<(), HotspotError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub(super) name: String,
    pub(super) regions: Vec<RegionStats>,
    pub(super) untimed: u64,
    pub(super) outside_span: u64,
    pub(super) grid: Option<TimeGrid>,
}

pub(super) fn mean_and_cv(values: impl Iterator<Item = u64> + Clone) -> (f64, f64) {
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
    /// use rowkey::hotspot::Analyzer;
    ///
    /// let mut a = Analyzer::new([b"b"])?;
    /// a.add(b"a");
    /// assert_eq!(
    ///     a.report().summary(),
    ///     "2 regions, 1 keys (1 B), 1 empty, max/mean skew 2.00, CV 1.00"
    /// );
    /// # Ok::<(), rowkey::hotspot::HotspotError>(())
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
    /// use rowkey::hotspot::Analyzer;
    ///
    /// let mut a = Analyzer::new([b"5"])?.with_name("plain");
    /// let mut b = Analyzer::new([b"5"])?.with_name("hashed");
    /// a.add(b"1");
    /// b.add(b"7");
    /// let table = a.report().side_by_side(&b.report());
    /// assert!(table.contains("plain"));
    /// assert!(table.contains("empty regions"));
    /// # Ok::<(), rowkey::hotspot::HotspotError>(())
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
        let labels = [
            start_labels(&self.regions, KEY_W),
            start_labels(&other.regions, KEY_W),
        ];
        let cell = |r: &Report, side: usize, i: usize| match r.regions.get(i) {
            Some(s) => format!(
                "{:<KEY_W$}  {:>10}  {:>6.2}%",
                labels
                    .get(side)
                    .and_then(|l| l.get(i))
                    .map_or("", String::as_str),
                s.keys,
                r.share(i) * 100.0
            ),
            None => String::new(),
        };
        for i in 0..self.regions.len().max(other.regions.len()) {
            let _ = writeln!(
                out,
                "{i:>6} | {:<side_w$} | {}",
                cell(self, 0, i),
                cell(other, 1, i)
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
    /// use rowkey::hotspot::{Analyzer, Report};
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
    /// # Ok::<(), rowkey::hotspot::HotspotError>(())
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
        let labels: Vec<Vec<String>> = reports
            .iter()
            .map(|r| start_labels(&r.regions, KEY_W))
            .collect();
        for i in 0..rows {
            let mut line = format!("{i:>6}");
            for (r, labels) in reports.iter().zip(&labels) {
                let cell = match r.regions.get(i) {
                    Some(s) => format!(
                        "{:<KEY_W$}  {:>8}  {:>6.2}%",
                        labels.get(i).map_or("", String::as_str),
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
        let labels = start_labels(&self.regions, KEY_W);
        for (i, r) in self.regions.iter().enumerate() {
            // a region's stop key is the next one's start key
            let stop = match (&r.stop, labels.get(i + 1)) {
                (None, _) => "(end)".to_owned(),
                (Some(_), Some(l)) => l.clone(),
                (Some(s), None) => key_label(s, 0, KEY_W),
            };
            writeln!(
                f,
                "{:>6}  {:<KEY_W$}  {:<KEY_W$}  {:>12}  {:>6.2}%  {:>10}",
                r.index,
                labels.get(i).map_or("", String::as_str),
                stop,
                r.keys,
                self.share(i) * 100.0,
                human_bytes(r.bytes)
            )?;
        }
        writeln!(f, "{}", self.summary())
    }
}

/// The start key of each region as a label of at most `width` characters that tells it apart
/// from its neighbours: the whole key in `toStringBinary` form when it fits, or with each run
/// of three or more equal escaped bytes written once with its count (`\x00×7`), else the
/// shortest prefix (runs written so too) that
/// differs from both neighbours' start keys, marked `..` where cut; when even that does not
/// fit, its last characters after a leading `..` (the bytes it shares with a neighbour left
/// out). The first region is `(start)`.
///
/// A `u64` sequence split at 1, 2, … 15 gives `\x00×7\x01` … `\x00×7\x0F` where a plain cut
/// to the first bytes gave `\x00\x00\x00\x00\x00..` for all of them.
pub(super) fn start_labels(regions: &[RegionStats], width: usize) -> Vec<String> {
    let starts: Vec<&[u8]> = regions.iter().map(|r| r.start.as_slice()).collect();
    (0..starts.len())
        .map(|i| {
            let s = starts.get(i).copied().unwrap_or_default();
            if s.is_empty() {
                return "(start)".to_owned();
            }
            let lcp = |o: Option<&&[u8]>| {
                o.map_or(0, |o| {
                    s.iter().zip(o.iter()).take_while(|(a, b)| a == b).count()
                })
            };
            let shared =
                lcp(i.checked_sub(1).and_then(|p| starts.get(p))).max(lcp(starts.get(i + 1)));
            key_label(s, shared, width)
        })
        .collect()
}

/// The label of `key` (see [`start_labels`]), `shared`: how many leading bytes it shares with
/// a neighbour.
pub(super) fn key_label(key: &[u8], shared: usize, width: usize) -> String {
    let plain = crate::hbase::to_string_binary(key);
    if plain.chars().count() <= width {
        return plain;
    }
    let whole = label_tokens(key);
    if whole.iter().map(|t| t.chars().count()).sum::<usize>() <= width {
        return whole.concat();
    }
    let n = (shared + 1).min(key.len());
    let mut toks = label_tokens(key.get(..n).unwrap_or(key));
    if n < key.len() {
        toks.push("..".to_owned());
    }
    let len = |t: &[String]| t.iter().map(|x| x.chars().count()).sum::<usize>();
    if len(&toks) <= width {
        return toks.concat();
    }
    // Too long even so: the distinguishing end, after a leading `..`.
    let mut start = 0;
    while start + 1 < toks.len() && 2 + len(toks.get(start..).unwrap_or_default()) > width {
        start += 1;
    }
    format!("..{}", toks.get(start..).unwrap_or_default().concat())
}

/// `toStringBinary` of `key` as tokens (a character, a `\xHH` escape, or a run `\xHH×N`).
fn label_tokens(key: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = key.get(i) {
        let plain = (0x20..=0x7E).contains(&b) && b != b'\\';
        let run = key
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|x| **x == b)
            .count();
        if plain {
            out.push(char::from(b).to_string());
            i += 1;
        } else if run >= 3 {
            out.push(format!("\\x{b:02X}×{run}"));
            i += run;
        } else {
            out.push(format!("\\x{b:02X}"));
            i += 1;
        }
    }
    out
}

/// At most `width` characters, with `..` marking a cut. A cut never splits a `\xHH` escape of
/// `toStringBinary` (every `\` there starts one).
pub(super) fn clip(s: &str, width: usize) -> String {
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

pub(super) fn human_bytes(b: u64) -> String {
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
