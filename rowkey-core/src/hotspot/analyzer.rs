//! The streaming analyzer: one binary search over the split points per key, counters per
//! region (and per region and time slice for the heatmap), no allocation per key.

use std::io;
use std::path::Path;

use super::error::{HotspotError, MAX_HEATMAP_CELLS};
use super::grid::TimeGrid;
use super::report::{RegionStats, Report};

/// Streams keys into per-region counters for a set of split points.
///
/// Region `0` holds keys below the first split point, region `i` keys in
/// `[split[i - 1], split[i])`, the last region keys from the last split point on — HBase's
/// region boundaries for a table pre-split at these points.
///
/// ```
/// use rowkey::hotspot::Analyzer;
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
/// # Ok::<(), rowkey::hotspot::HotspotError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Analyzer {
    name: String,
    splits: Vec<Vec<u8>>,
    /// `(prefix8(split), split)`: most comparisons are one integer compare.
    search: Vec<(u64, Box<[u8]>)>,
    keys: Vec<u64>,
    bytes: Vec<u64>,
    pub(super) grid: Option<TimeGrid>,
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
pub(super) fn prefix8(b: &[u8]) -> u64 {
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
