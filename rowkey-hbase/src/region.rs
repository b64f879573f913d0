//! The live region view: a table's real regions (`getAllRegionLocations`) and its keys, fed to
//! [`rowkey::hotspot`] (the per-region report and the time × region SVG heatmap) and to
//! [`rowkey::plan::Lint`] — the same report the `hotspots` example draws before deploying, now
//! with the server's own regions.
//!
//! ```no_run
//! # use rowkey::RowKey;
//! # #[derive(RowKey)] struct OrderBySeller { #[salt(buckets = 16)] seller_id: u64, #[reverse_ts] created_ms: i64, #[sep] order_no: String }
//! # fn demo(table: rowkey_hbase::Table) -> Result<(), rowkey_hbase::Error> {
//! let view = table.region_view(1)?; // every key (1 in 1), counted in the server's regions
//! println!("{}", view.analyzer(24)?.with_name("orders_by_seller").report().summary());
//! println!("{}", view.lint().layout(OrderBySeller::LAYOUT).run());
//! # Ok(()) }
//! ```

use rowkey::hotspot::Analyzer;
use rowkey::plan::Lint;

use crate::thrift::TTHBaseServiceSyncClient;
use crate::{Error, Table};

/// One region of a table, as the server reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Its first key (empty for the first region).
    pub start: Vec<u8>,
    /// The first key of the next region (empty for the last).
    pub end: Vec<u8>,
    /// The region id (its creation time).
    pub id: i64,
    /// The region server holding it, `host:port`.
    pub server: String,
}

/// One key of a [`RegionView`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampledKey {
    /// The row key.
    pub key: Vec<u8>,
    /// The newest cell's timestamp (milliseconds since the Unix epoch).
    pub time_ms: Option<u64>,
}

/// A table's regions and a sample of its keys: see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionView {
    /// The table's regions, in key order.
    pub regions: Vec<Region>,
    /// Rows in each region (every row, counted while sampling).
    pub rows: Vec<u64>,
    /// One key in every `every`, in key order.
    pub keys: Vec<SampledKey>,
    /// The sampling step.
    pub every: usize,
}

impl RegionView {
    /// The table's split points: each region's start key after the first.
    pub fn split_points(&self) -> Vec<Vec<u8>> {
        self.regions
            .iter()
            .skip(1)
            .map(|r| r.start.clone())
            .collect()
    }

    /// An analyzer over the server's regions holding the sampled keys, with a heatmap of
    /// `slices` time slices over their cells' timestamps.
    ///
    /// # Errors
    ///
    /// `slices == 0`.
    pub fn analyzer(&self, slices: usize) -> Result<Analyzer, Error> {
        let mut a = Analyzer::new(self.split_points())?;
        let times = self.keys.iter().filter_map(|k| k.time_ms);
        if let (Some(t0), Some(t1)) = (times.clone().min(), times.max()) {
            a = a.with_time_span(t0, t1.saturating_add(1), slices)?;
        }
        for k in &self.keys {
            a.add_with(&k.key, k.time_ms, k.key.len() as u64);
        }
        Ok(a)
    }

    /// The plan lint over the server's regions and the sampled keys (add
    /// `.layout(T::LAYOUT)` for the layout's checks, then `.run()`).
    pub fn lint(&self) -> Lint<'static> {
        Lint::new(self.split_points()).sample(self.keys.iter().map(|k| k.key.clone()))
    }
}

impl Table {
    /// The table's regions, in key order, from the server (`getAllRegionLocations`).
    ///
    /// # Errors
    ///
    /// The call failed (no such table, say).
    pub fn regions(&self) -> Result<Vec<Region>, Error> {
        let name = self.name().as_bytes().to_vec();
        let locations = self
            .client()
            .call(|c| c.get_all_region_locations(name.clone()))?;
        let mut regions: Vec<Region> = locations
            .into_iter()
            .filter(|l| l.region_info.replica_id.unwrap_or(0) == 0)
            .map(|l| Region {
                start: l.region_info.start_key.unwrap_or_default(),
                end: l.region_info.end_key.unwrap_or_default(),
                id: l.region_info.region_id,
                server: format!(
                    "{}:{}",
                    l.server_name.host_name,
                    l.server_name.port.unwrap_or_default()
                ),
            })
            .collect();
        regions.sort_by(|a, b| a.start.cmp(&b.start));
        Ok(regions)
    }

    /// The table's regions and its keys: every row is read (keys only, region by region),
    /// counted in its region, and one in every `every` kept with its write time.
    ///
    /// # Errors
    ///
    /// `every == 0`, or a call failed.
    pub fn region_view(&self, every: usize) -> Result<RegionView, Error> {
        if every == 0 {
            return Err(Error::InvalidArgument("sample every 0th key".into()));
        }
        let regions = self.regions()?;
        let mut rows = Vec::with_capacity(regions.len());
        let mut keys = Vec::new();
        let mut seen = 0usize;
        for region in &regions {
            let stop = (!region.end.is_empty()).then(|| region.end.clone());
            let range = rowkey::ScanRange::new(&region.start, stop.as_deref());
            let raw = crate::read::RawScan::new(self, range).keys_only();
            let mut n = 0u64;
            for row in raw.rows()? {
                let row = row?;
                if seen.is_multiple_of(every) {
                    let time_ms = row
                        .cells
                        .iter()
                        .map(|c| c.timestamp)
                        .max()
                        .and_then(|t| u64::try_from(t).ok());
                    keys.push(SampledKey {
                        key: row.key,
                        time_ms,
                    });
                }
                seen += 1;
                n += 1;
            }
            rows.push(n);
        }
        Ok(RegionView {
            regions,
            rows,
            keys,
            every,
        })
    }
}
