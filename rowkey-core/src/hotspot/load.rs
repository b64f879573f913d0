//! [`LoadMap`], the data of the key visualizer: key ranges (regions) in key order, and per
//! time interval the read and write rate of each — from a live sampler of a cluster's request
//! counters, or from an offline [`Report`]'s time slices.

use super::boundary::{boundary_label, range_label};
use super::error::{HotspotError, MAX_HEATMAP_CELLS};
use super::report::Report;

use crate::hbase::to_string_binary;
use crate::key::{DecodeRowKeyOwned, RowKey};

/// One key range of a [`LoadMap`]: a region, `[start, end)` in byte order.
///
/// Built with [`LoadRange::new`] and the `with_` methods; its labels come from the key range
/// itself until [`LoadMap::label_with`] reads them through a key type.
///
/// ```
/// use rowkey::hotspot::LoadRange;
///
/// let r = LoadRange::new(b"\x05", Some(b"\x06".to_vec()))
///     .with_server("rs2.example.com,16020")
///     .with_region("orders,\\x05,1700000000000.3f2a…")
///     .with_store_size(3 << 30);
/// assert_eq!(r.label, r"\x05 … \x06");
/// assert_eq!(r.server.as_deref(), Some("rs2.example.com,16020"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadRange {
    /// Start key (inclusive); empty for the first region of a table.
    pub start: Vec<u8>,
    /// End key (exclusive); `None` for the last region of a table.
    pub end: Option<Vec<u8>>,
    /// The server holding the range (HBase: `host,port,startcode`), if known.
    pub server: Option<String>,
    /// The region's name, if known.
    pub region: Option<String>,
    /// Bytes stored in the range (HBase: store file size), if known.
    pub store_size: Option<u64>,
    /// The range's label on the key axis: `salt 5 · seller_id 42…57` once labelled through a
    /// key type ([`range_label`](super::range_label)), `start … end` in printable form before.
    pub label: String,
    /// The start key described through a key type ([`boundary_label`](super::boundary_label)),
    /// once labelled.
    pub start_decoded: Option<String>,
    /// The end key described through a key type, once labelled.
    pub end_decoded: Option<String>,
}

impl LoadRange {
    /// The range `[start, end)` (`end: None`: to the end of the table), labelled with its keys'
    /// printable forms.
    pub fn new(start: impl Into<Vec<u8>>, end: Option<Vec<u8>>) -> Self {
        let start = start.into();
        let label = format!(
            "{} … {}",
            printable_start(&start),
            printable_end(end.as_deref())
        );
        LoadRange {
            start,
            end,
            server: None,
            region: None,
            store_size: None,
            label,
            start_decoded: None,
            end_decoded: None,
        }
    }

    /// The server holding the range.
    pub fn with_server(mut self, server: impl Into<String>) -> Self {
        self.server = Some(server.into());
        self
    }

    /// The region's name.
    pub fn with_region(mut self, region: impl Into<String>) -> Self {
        self.region = Some(region.into());
        self
    }

    /// Bytes stored in the range.
    pub fn with_store_size(mut self, bytes: u64) -> Self {
        self.store_size = Some(bytes);
        self
    }

    /// A label of one's own for the key axis.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
}

/// A start key in printable form (`(start of table)` when empty).
pub(super) fn printable_start(start: &[u8]) -> String {
    if start.is_empty() {
        "(start of table)".to_owned()
    } else {
        to_string_binary(start)
    }
}

/// An end key in printable form (`(end of table)` when `None`).
pub(super) fn printable_end(end: Option<&[u8]>) -> String {
    end.map_or_else(|| "(end of table)".to_owned(), to_string_binary)
}

/// One time interval of a [`LoadMap`]: `[start_ms, end_ms)` and a read and a write rate per
/// key range, in the map's [`unit`](LoadMap::unit). Added with [`LoadMap::push_interval`],
/// read with [`LoadMap::intervals`] (see the examples there).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LoadInterval {
    /// Start, in milliseconds since the Unix epoch (UTC).
    pub start_ms: u64,
    /// End (exclusive), in milliseconds since the Unix epoch.
    pub end_ms: u64,
    /// Read rate of each key range, in key order.
    pub reads: Vec<f64>,
    /// Write rate of each key range, in key order.
    pub writes: Vec<f64>,
}

/// The mean load of one server over a [`LoadMap`]'s intervals, from
/// [`LoadMap::server_loads`] (see the example on [`LoadMap`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerLoad {
    /// The server, as the key ranges name it.
    pub server: String,
    /// Key ranges it holds.
    pub ranges: usize,
    /// Sum over its ranges of their mean read rate.
    pub reads: f64,
    /// Sum over its ranges of their mean write rate.
    pub writes: f64,
}

/// The data of the key visualizer: a table's key ranges (regions) in key order, and for each
/// time interval the read and write rate of every range — what
/// [`html`](LoadMap::html) draws as time × key-range heatmaps, with the load per server and
/// the plan-lint findings of the layout.
///
/// Two sources fill it alike, so that "before deploying" and "in production" look the same:
/// a live sampler of a cluster's per-region request counters ([`new`](Self::new), then
/// [`push_interval`](Self::push_interval) per sample), and the offline analysis of sampled keys
/// ([`from_report`](Self::from_report): an [`Analyzer`](super::Analyzer)'s time slices, keys
/// per slice as the write rate). [`label_with`](Self::label_with) labels the key axis through
/// the key type.
///
/// ```
/// use rowkey::hotspot::{LoadMap, LoadRange};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Order {
///     #[salt(buckets = 4)]
///     seller_id: u64,
/// }
///
/// let bounds: [&[u8]; 5] = [b"", &[1], &[2], &[3], b""];
/// let ranges = (0..4)
///     .map(|i| {
///         let end = (i < 3).then(|| bounds[i + 1].to_vec());
///         LoadRange::new(bounds[i], end).with_server(format!("rs{}", i % 2))
///     })
///     .collect();
/// let mut map = LoadMap::new("orders, live", ranges)?
///     .label_with::<Order>()
///     .with_findings(["warning: region 3 expected to take 40% of writes"]);
/// map.push_interval(0, 10_000, vec![5.0, 0.0, 1.0, 2.0], vec![120.0, 3.0, 0.5, 0.0])?;
/// assert_eq!(map.ranges()[1].label, "salt 1");
/// assert_eq!(map.intervals()[0].writes[0], 120.0);
/// assert_eq!(map.server_loads()[0].writes, 120.5); // rs0: ranges 0 and 2
/// assert!(map.push_interval(5_000, 20_000, vec![0.0; 4], vec![0.0; 4]).is_err()); // overlaps
/// let html = map.html();
/// assert!(html.starts_with("<!DOCTYPE html>") && html.contains("salt 1"));
/// # Ok::<(), rowkey::hotspot::HotspotError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LoadMap {
    pub(super) title: String,
    pub(super) unit: String,
    pub(super) ranges: Vec<LoadRange>,
    pub(super) intervals: Vec<LoadInterval>,
    pub(super) findings: Vec<String>,
}

impl LoadMap {
    /// A map of `ranges` (in key order) without intervals yet, its rates in requests/s.
    ///
    /// # Errors
    ///
    /// [`HotspotError::NoRanges`] for none; [`HotspotError::UnorderedRanges`] when a range does
    /// not start after the one before it ends, ends before it starts, or is open-ended (`end:
    /// None`) and not the last.
    pub fn new(title: impl Into<String>, ranges: Vec<LoadRange>) -> Result<Self, HotspotError> {
        if ranges.is_empty() {
            return Err(HotspotError::NoRanges);
        }
        for (index, r) in ranges.iter().enumerate() {
            let next = ranges.get(index + 1);
            let ok = match (&r.end, next) {
                (Some(end), next) => *end > r.start && next.is_none_or(|n| n.start >= *end),
                (None, next) => next.is_none(),
            };
            if !ok {
                return Err(HotspotError::UnorderedRanges { index });
            }
        }
        Ok(LoadMap {
            title: title.into(),
            unit: "requests/s".to_owned(),
            ranges,
            intervals: Vec::new(),
            findings: Vec::new(),
        })
    }

    /// The offline analysis as a map: the report's regions as key ranges, its time slices as
    /// intervals, the keys of each region and slice as its write rate (unit `keys per slice`),
    /// no reads. Label it with [`label_with`](Self::label_with).
    ///
    /// ```
    /// use rowkey::hotspot::{Analyzer, LoadMap};
    ///
    /// let mut a = Analyzer::new([b"m"])?.with_name("by name").with_time_span(0, 3_600_000, 6)?;
    /// a.add_with(b"alice", Some(60_000), 100);
    /// let map = LoadMap::from_report(&a.report())?;
    /// assert_eq!((map.ranges().len(), map.intervals().len()), (2, 6));
    /// assert_eq!(map.intervals()[0].writes, [1.0, 0.0]);
    /// assert_eq!(map.unit(), "keys per slice");
    /// # Ok::<(), rowkey::hotspot::HotspotError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`HotspotError::NoTimeSlices`] when the analyzer had no time span
    /// ([`Analyzer::with_time_span`](super::Analyzer::with_time_span)).
    pub fn from_report(report: &Report) -> Result<Self, HotspotError> {
        let grid = report.grid.as_ref().ok_or(HotspotError::NoTimeSlices)?;
        let ranges = report
            .regions
            .iter()
            .map(|r| LoadRange::new(r.start.clone(), r.stop.clone()).with_store_size(r.bytes))
            .collect();
        let title = if report.name.is_empty() {
            "keys (offline analysis)".to_owned()
        } else {
            format!("{} (offline analysis)", report.name)
        };
        let mut map = LoadMap::new(title, ranges)?.with_unit("keys per slice");
        let regions = report.regions.len();
        for slice in 0..grid.slices {
            let writes: Vec<f64> = (0..regions)
                .map(|r| {
                    grid.cells
                        .get(slice * regions + r)
                        .map_or(0.0, |&c| c as f64)
                })
                .collect();
            let (start, end) = (grid.slice_start(slice), grid.slice_start(slice + 1));
            map.push_interval(start, end, vec![0.0; regions], writes)?;
        }
        Ok(map)
    }

    /// Labels every key range through the key type `K`: its axis label
    /// ([`range_label`](super::range_label)) and its start and end keys described
    /// ([`boundary_label`](super::boundary_label)).
    pub fn label_with<K: RowKey + DecodeRowKeyOwned>(mut self) -> Self {
        for r in &mut self.ranges {
            r.label = range_label::<K>(&r.start, r.end.as_deref());
            r.start_decoded = Some(boundary_label::<K>(&r.start));
            r.end_decoded = Some(match &r.end {
                Some(e) => boundary_label::<K>(e),
                None => "(end of table)".to_owned(),
            });
        }
        self
    }

    /// The unit of the rates (shown on the legends and in the details): `requests/s` unless
    /// set.
    pub fn with_unit(mut self, unit: impl Into<String>) -> Self {
        self.unit = unit.into();
        self
    }

    /// The plan-lint findings of the layout, one line each (e.g. the lines of
    /// `rowkey::plan::LintReport`'s `Display`), listed under the heatmaps.
    pub fn with_findings(mut self, lines: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.findings = lines.into_iter().map(Into::into).collect();
        self
    }

    /// Appends the interval `[start_ms, end_ms)` with one read and one write rate per key
    /// range, in key order.
    ///
    /// # Errors
    ///
    /// [`HotspotError::RatesPerRange`] when `reads` or `writes` does not have one rate per
    /// range; [`HotspotError::InvalidRate`] for a negative or non-finite rate;
    /// [`HotspotError::UnorderedIntervals`] when the interval ends before it starts or starts
    /// before the previous one ends; [`HotspotError::InvalidSlices`] beyond
    /// [`MAX_HEATMAP_CELLS`] cells. The map is unchanged on an error.
    pub fn push_interval(
        &mut self,
        start_ms: u64,
        end_ms: u64,
        reads: Vec<f64>,
        writes: Vec<f64>,
    ) -> Result<(), HotspotError> {
        let n = self.ranges.len();
        let interval = self.intervals.len();
        for got in [reads.len(), writes.len()] {
            if got != n {
                return Err(HotspotError::RatesPerRange {
                    interval,
                    expected: n,
                    got,
                });
            }
        }
        let bad = |v: &[f64]| v.iter().position(|r| !r.is_finite() || *r < 0.0);
        if let Some(range) = bad(&reads).or_else(|| bad(&writes)) {
            return Err(HotspotError::InvalidRate { interval, range });
        }
        let after_last = self.intervals.last().is_none_or(|l| start_ms >= l.end_ms);
        if end_ms < start_ms || !after_last {
            return Err(HotspotError::UnorderedIntervals { interval });
        }
        if (interval + 1).saturating_mul(n) > MAX_HEATMAP_CELLS {
            return Err(HotspotError::InvalidSlices {
                slices: interval + 1,
                regions: n,
            });
        }
        self.intervals.push(LoadInterval {
            start_ms,
            end_ms,
            reads,
            writes,
        });
        Ok(())
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The unit of the rates.
    pub fn unit(&self) -> &str {
        &self.unit
    }

    /// The key ranges, in key order.
    pub fn ranges(&self) -> &[LoadRange] {
        &self.ranges
    }

    /// The intervals, in time order.
    pub fn intervals(&self) -> &[LoadInterval] {
        &self.intervals
    }

    /// The plan-lint findings, one line each.
    pub fn findings(&self) -> &[String] {
        &self.findings
    }

    /// Mean read and write rate of each range over the intervals (0 without intervals).
    pub(super) fn range_means(&self) -> Vec<(f64, f64)> {
        let n = self.intervals.len().max(1) as f64;
        (0..self.ranges.len())
            .map(|i| {
                let sum = |pick: fn(&LoadInterval) -> &Vec<f64>| {
                    self.intervals
                        .iter()
                        .map(|iv| pick(iv).get(i).copied().unwrap_or(0.0))
                        .sum::<f64>()
                        / n
                };
                (sum(|iv| &iv.reads), sum(|iv| &iv.writes))
            })
            .collect()
    }

    /// The load of each server named by the ranges, in the order the ranges first name them:
    /// the sum over its ranges of their mean rates over the intervals.
    pub fn server_loads(&self) -> Vec<ServerLoad> {
        let mut out: Vec<ServerLoad> = Vec::new();
        for (r, (reads, writes)) in self.ranges.iter().zip(self.range_means()) {
            let Some(server) = &r.server else { continue };
            let i = match out.iter().position(|s| s.server == *server) {
                Some(i) => i,
                None => {
                    out.push(ServerLoad {
                        server: server.clone(),
                        ranges: 0,
                        reads: 0.0,
                        writes: 0.0,
                    });
                    out.len() - 1
                }
            };
            if let Some(s) = out.get_mut(i) {
                s.ranges += 1;
                s.reads += reads;
                s.writes += writes;
            }
        }
        out
    }
}
