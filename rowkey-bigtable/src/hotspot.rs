//! A live hotspot view: how a table's rows actually spread over its tablets, fed to
//! [`rowkey::hotspot`] for the same per-region report and time × region SVG heatmap the
//! `hotspots` example draws before deploying.
//!
//! Two sources:
//!
//! - [`Table::sample_keys`]: a random sample of the rows (Bigtable's `RowSampleFilter`), each
//!   with its size and write time (the newest cell's timestamp) — per-region counts, bytes and
//!   a heatmap over write time;
//! - [`Table::sample_row_keys`](crate::Table::sample_row_keys) and [`from_row_key_samples`]:
//!   the server's own `SampleRowKeys` boundaries with byte offsets — per-region bytes, cheap,
//!   coarse.
//!
//! Both count rows against the split points you pass; neither shows the table's own splits on
//! the emulator, which has no tablets (`SampleRowKeys` of an empty pre-split table is `[""]`,
//! and `cbt` lists no splits either): a pre-split is checked on Cloud Bigtable, or on HBase
//! with the `rowkey-hbase` crate's region view — see
//! "Checking a pre-split" on [`Table::sample_row_keys`](crate::Table::sample_row_keys).
//!
//! ```no_run
//! # use rowkey::RowKey;
//! use rowkey::plan::SplitPoints;
//! # #[derive(RowKey)] struct OrderBySeller { #[salt(buckets = 16)] seller_id: u64, #[reverse_ts] created_ms: i64, #[sep] order_no: String }
//! # async fn demo(table: rowkey_bigtable::Table) -> Result<(), rowkey_bigtable::Error> {
//! let splits = OrderBySeller::split_points(16)?;
//! let sample = table.sample_keys(0.1).await?; // about one row in ten
//! let view = sample.analyzer(&splits, 24)?.with_name("orders_by_seller");
//! println!("{}", view.report().summary());
//! view.write_heatmap_svg("target/orders_by_seller.svg").map_err(|e| rowkey_bigtable::Error::InvalidArgument(e.to_string()))?;
//! # Ok(()) }
//! ```

use bigtable_rs::google::bigtable::v2::{
    read_rows_request::RequestStatsView, row_filter, ReadRowsRequest, RowFilter,
};
use futures_util::TryStreamExt;
use rowkey::hotspot::Analyzer;

use crate::{Error, RowKeySample, Table};

/// One sampled row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampledRow {
    /// Its key.
    pub key: Vec<u8>,
    /// Write time: the newest cell's timestamp, in milliseconds since the Unix epoch.
    pub time_ms: Option<u64>,
    /// Key, qualifier and value bytes of its (newest) cells.
    pub bytes: u64,
}

/// A random sample of a table's rows, from [`Table::sample_keys`].
///
/// ```
/// use rowkey_bigtable::hotspot::{KeySample, SampledRow};
///
/// let row = |key: &[u8], time_ms| SampledRow { key: key.to_vec(), time_ms: Some(time_ms), bytes: 100 };
/// let sample = KeySample { rate: 0.5, rows: vec![row(b"a", 1_000), row(b"b", 2_000), row(b"x", 2_500)] };
/// let view = sample.analyzer(&[b"m".to_vec()], 2)?; // two regions, two time slices
/// let report = view.report();
/// assert_eq!((report.region(0).unwrap().keys, report.region(1).unwrap().keys), (2, 1));
/// // sampled at 1 in 2: about 4 rows in the first region
/// assert_eq!(report.region(0).unwrap().keys as f64 / sample.rate, 4.0);
/// # Ok::<(), rowkey_bigtable::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KeySample {
    /// The sampling rate asked for (each row was kept with this probability).
    pub rate: f64,
    /// The rows, in key order.
    pub rows: Vec<SampledRow>,
}

impl KeySample {
    /// An analyzer over `split_points` holding the sample: per-region counts and bytes, and a
    /// heatmap of `slices` time slices over the sample's write times (skipped when no row has
    /// a time). Counts are of sampled rows: divide by [`rate`](KeySample::rate) for estimates.
    ///
    /// # Errors
    ///
    /// Invalid split points (unsorted or empty keys) or `slices == 0`.
    pub fn analyzer(&self, split_points: &[Vec<u8>], slices: usize) -> Result<Analyzer, Error> {
        let mut a = Analyzer::new(split_points)?;
        let times = self.rows.iter().filter_map(|r| r.time_ms);
        if let (Some(t0), Some(t1)) = (times.clone().min(), times.max()) {
            a = a.with_time_span(t0, t1.saturating_add(1), slices)?;
        }
        for r in &self.rows {
            a.add_with(&r.key, r.time_ms, r.bytes);
        }
        Ok(a)
    }
}

impl Table {
    /// Read a random sample of the table's rows (`rate` in `(0, 1]`: each row is kept with
    /// that probability; `1.0` reads every row), newest cell per column only.
    ///
    /// # Errors
    ///
    /// `rate` out of range, or the read failed.
    pub async fn sample_keys(&self, rate: f64) -> Result<KeySample, Error> {
        if !(rate > 0.0 && rate <= 1.0) {
            return Err(Error::InvalidArgument(format!(
                "sampling rate {rate}: must be in (0, 1]"
            )));
        }
        let latest = RowFilter {
            filter: Some(row_filter::Filter::CellsPerColumnLimitFilter(1)),
        };
        let filter = if rate < 1.0 {
            RowFilter {
                filter: Some(row_filter::Filter::Chain(row_filter::Chain {
                    filters: vec![
                        RowFilter {
                            filter: Some(row_filter::Filter::RowSampleFilter(rate)),
                        },
                        latest,
                    ],
                })),
            }
        } else {
            latest
        };
        let request = ReadRowsRequest {
            table_name: self.name().to_owned(),
            app_profile_id: self.app_profile().to_owned(),
            filter: Some(filter),
            request_stats_view: RequestStatsView::RequestStatsNone as i32,
            ..ReadRowsRequest::default()
        };
        let rows = self
            .read_rows_raw(request)
            .await?
            .map_ok(|(key, cells)| {
                let time_us = cells.iter().map(|c| c.timestamp_micros).max();
                let bytes = key.len() as u64
                    + cells
                        .iter()
                        .map(|c| (c.qualifier.len() + c.value.len()) as u64)
                        .sum::<u64>();
                SampledRow {
                    key,
                    time_ms: time_us.and_then(|t| u64::try_from(t / 1000).ok()),
                    bytes,
                }
            })
            .try_collect()
            .await?;
        Ok(KeySample { rate, rows })
    }
}

/// An analyzer over `split_points` fed with `SampleRowKeys` samples: each sample stands for the
/// bytes between the previous sample and itself (its `offset_bytes` minus the previous one),
/// counted in the region holding its key; the final empty key (end of table) counts in the last
/// region. Per-region **bytes** are the meaningful figure; key counts are sample counts.
///
/// ```
/// use rowkey_bigtable::{hotspot::from_row_key_samples, RowKeySample};
///
/// // what SampleRowKeys might answer: 3 MB before "g", 4 MB more before "t", 1 MB to the end
/// let samples = [
///     RowKeySample { key: b"g".to_vec(), offset_bytes: 3_000_000 },
///     RowKeySample { key: b"t".to_vec(), offset_bytes: 7_000_000 },
///     RowKeySample { key: Vec::new(), offset_bytes: 8_000_000 },
/// ];
/// let view = from_row_key_samples(&samples, &[b"m".to_vec()])?;
/// let r = view.report();
/// assert_eq!((r.region(0).unwrap().bytes, r.region(1).unwrap().bytes), (3_000_000, 5_000_000));
/// # Ok::<(), rowkey_bigtable::Error>(())
/// ```
///
/// # Errors
///
/// Invalid split points.
pub fn from_row_key_samples(
    samples: &[RowKeySample],
    split_points: &[Vec<u8>],
) -> Result<Analyzer, Error> {
    let mut a = Analyzer::new(split_points)?;
    let mut prev = 0i64;
    for s in samples {
        let bytes = u64::try_from(s.offset_bytes.saturating_sub(prev)).unwrap_or(0);
        prev = prev.max(s.offset_bytes);
        if s.key.is_empty() {
            // The end of the table: the last region.
            match split_points.last() {
                Some(last) => a.add_with(last, None, bytes),
                None => a.add_with(b"\x00", None, bytes),
            }
        } else {
            a.add_with(&s.key, None, bytes);
        }
    }
    Ok(a)
}
