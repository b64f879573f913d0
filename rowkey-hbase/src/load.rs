//! Live load of a table's regions, from the region servers' own request counters.
//!
//! Each region server's info server (port 16030 by default) serves its metrics as JSON at
//! `/jmx`; the bean `Hadoop:service=HBase,name=RegionServer,sub=Regions` holds, for every
//! region the process serves, counters named
//! `Namespace_<ns>_table_<table>_region_<encoded name>_metric_<metric>` — among them
//! `readRequestCount`, `writeRequestCount` and `storeFileSize`. That is what HBase's own web
//! UI shows per region, and the finest load figure a server offers without a coprocessor:
//! chosen over the master's `ClusterMetrics` (aggregated per server, and not exposed by the
//! Thrift2 gateway) and over region-server logs.
//!
//! [`LoadSampler::sample`] reads the counters of one table (its regions and their servers
//! from the gateway's `getAllRegionLocations`, each region's encoded name from its row in
//! `hbase:meta`), and [`LoadSample::rates_since`] turns two samples into per-region request rates;
//! [`per_server`] sums them per server, and [`load_map`] turns a series of samples into the
//! key visualizer's time × key-range page ([`rowkey::hotspot::LoadMap`]), its key axis
//! labelled with the key type's decoded fields. A counter that went down (its region moved or
//! reopened, which starts its counters at zero) counts from zero.
//!
//! The servers publish these counters to JMX through Hadoop's metrics system, which caches a
//! snapshot for about ten seconds: samples closer together see the same numbers twice and then
//! a step (the live page shows them as columns of zero and columns of double). Sample every
//! ten seconds or more for an even picture; the totals over a series are exact either way.
//!
//! ```no_run
//! # fn main() -> Result<(), rowkey_hbase::Error> {
//! use rowkey_hbase::load::{per_server, LoadSampler};
//! use rowkey_hbase::Client;
//!
//! let client = Client::connect("127.0.0.1:9090")?;
//! let table = client.table("orders");
//! // every region server's info server
//! let sampler = LoadSampler::new(&table, &["http://rs1:16030", "http://rs2:16030"])?;
//! let before = sampler.sample()?;
//! std::thread::sleep(std::time::Duration::from_secs(10));
//! let rates = sampler.sample()?.rates_since(&before);
//! for server in per_server(&rates) {
//!     println!("{}: {:.0} reads/s, {:.0} writes/s", server.server, server.reads, server.writes);
//! }
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rowkey::hotspot::{LoadMap, LoadRange};

use crate::error::ConnectionError;
use crate::region::Region;
use crate::{Error, Table};

/// The bean with the per-region counters.
const REGIONS_BEAN: &str = "Hadoop:service=HBase,name=RegionServer,sub=Regions";

/// Reads a table's per-region request counters from its region servers' info servers.
#[derive(Debug, Clone)]
pub struct LoadSampler {
    table: Table,
    urls: Vec<String>,
    agent: ureq::Agent,
}

/// One region's counters at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionCounters {
    /// The region: its key range and server.
    pub region: Region,
    /// Its encoded name (the hex MD5 HBase names it by in metrics and on disk).
    pub encoded: String,
    /// Read requests since it opened.
    pub reads: u64,
    /// Write requests since it opened.
    pub writes: u64,
    /// Bytes in its store files.
    pub store_file_bytes: u64,
}

/// The counters of every region of a table at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadSample {
    /// When it was taken (ms since the Unix epoch).
    pub at_ms: u64,
    /// The table's regions in key order.
    pub regions: Vec<RegionCounters>,
}

/// One region's request rates between two samples.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionRates {
    /// The region (as in the later sample).
    pub region: Region,
    /// Read requests per second.
    pub reads: f64,
    /// Write requests per second.
    pub writes: f64,
    /// Bytes in its store files at the later sample.
    pub store_file_bytes: u64,
}

/// A server's request rates: the sum of its regions'.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerRates {
    /// The server (`host:port`).
    pub server: String,
    /// Its regions of the table.
    pub regions: usize,
    /// Read requests per second.
    pub reads: f64,
    /// Write requests per second.
    pub writes: f64,
}

impl LoadSampler {
    /// A sampler of `table`'s regions on the region servers whose info servers are `metrics`
    /// (`http://host:16030`, one per region server process; a process serving several region
    /// servers — standalone HBase's `--localRegionServers` — needs one of them).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for no URL, or one that is not `http://` or `https://`.
    pub fn new(table: &Table, metrics: &[&str]) -> Result<LoadSampler, Error> {
        if metrics.is_empty() {
            return Err(Error::InvalidArgument(
                "a load sampler needs the info server of at least one region server".into(),
            ));
        }
        if let Some(bad) = metrics
            .iter()
            .find(|u| !(u.starts_with("http://") || u.starts_with("https://")))
        {
            return Err(Error::InvalidArgument(format!(
                "region server info server {bad:?}: expected http://host:port"
            )));
        }
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        Ok(LoadSampler {
            table: table.clone(),
            urls: metrics
                .iter()
                .map(|u| u.trim_end_matches('/').to_owned())
                .collect(),
            agent,
        })
    }

    /// The table's regions (from the gateway) with their counters (from the info servers)
    /// now. A region no info server reports (not open yet) has zero counters.
    ///
    /// # Errors
    ///
    /// The gateway call failed ([`Error::Connection`], [`Error::Server`]), or an info server
    /// did not answer with its metrics ([`Error::Connection`], naming it).
    pub fn sample(&self) -> Result<LoadSample, Error> {
        let regions = self.table.regions()?;
        let (namespace, table) = match self.table.name().split_once(':') {
            Some((ns, t)) => (ns.to_owned(), t.to_owned()),
            None => ("default".to_owned(), self.table.name().to_owned()),
        };
        let prefix = format!("Namespace_{namespace}_table_{table}_region_");
        let mut counters: HashMap<String, (u64, u64, u64)> = HashMap::new();
        for url in &self.urls {
            for (region, metric, value) in self.metrics(url)? {
                let Some(encoded) = region.strip_prefix(&prefix) else {
                    continue;
                };
                let c = counters.entry(encoded.to_owned()).or_default();
                match metric.as_str() {
                    "readRequestCount" => c.0 = c.0.max(value),
                    "writeRequestCount" => c.1 = c.1.max(value),
                    "storeFileSize" => c.2 = c.2.max(value),
                    _ => {}
                }
            }
        }
        let at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or_default();
        let encoded = self.encoded_names()?;
        Ok(LoadSample {
            at_ms,
            regions: regions
                .into_iter()
                .map(|region| {
                    let encoded = encoded.get(&region.start).cloned().unwrap_or_default();
                    let (reads, writes, store_file_bytes) =
                        counters.get(&encoded).copied().unwrap_or_default();
                    RegionCounters {
                        region,
                        encoded,
                        reads,
                        writes,
                        store_file_bytes,
                    }
                })
                .collect(),
        })
    }

    /// Sample every `every` for `duration` (the first sample at once), calling `progress`
    /// with (samples taken, samples planned) after each: the series [`load_map`] draws.
    ///
    /// # Errors
    ///
    /// As [`sample`](Self::sample), at the first sample that fails; `every` of zero is
    /// [`Error::InvalidArgument`].
    pub fn watch(
        &self,
        every: Duration,
        duration: Duration,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Vec<LoadSample>, Error> {
        if every.is_zero() {
            return Err(Error::InvalidArgument("sample every 0 s".into()));
        }
        let planned = usize::try_from(duration.as_millis() / every.as_millis().max(1))
            .unwrap_or(usize::MAX)
            .saturating_add(1);
        let started = std::time::Instant::now();
        let mut samples = Vec::with_capacity(planned.min(100_000));
        for i in 0..planned {
            let due = u32::try_from(i).ok().and_then(|i| every.checked_mul(i));
            if let Some(wait) = due.and_then(|d| d.checked_sub(started.elapsed())) {
                std::thread::sleep(wait);
            }
            samples.push(self.sample()?);
            progress(samples.len(), planned);
        }
        Ok(samples)
    }

    /// Each region's encoded name by its start key, from the table's rows in `hbase:meta`
    /// (keyed by region name, `table,start key,region id.encoded name.`): the gateway's
    /// region locations carry no region id to compute it from.
    fn encoded_names(&self) -> Result<HashMap<Vec<u8>, String>, Error> {
        let table = self.table.name().trim_start_matches("default:");
        // hbase:meta sorts region names field by field (table, start key, id), not byte by
        // byte: `table,,` is where the table's rows begin (what HBase's own MetaTableAccessor
        // starts at), and they are contiguous
        let mut start = table.as_bytes().to_vec();
        start.extend_from_slice(b",,");
        let mut prefix = table.as_bytes().to_vec();
        prefix.push(b',');
        let meta = self.table.client().table("hbase:meta");
        let scan =
            crate::read::RawScan::new(&meta, rowkey::ScanRange::new(&start, None)).keys_only();
        let mut names = HashMap::new();
        for row in scan.rows()? {
            let row = row?;
            if !row.key.starts_with(&prefix) {
                break;
            }
            if let Some((start_key, encoded)) = parse_region_name(table, &row.key) {
                names.insert(start_key, encoded);
            }
        }
        Ok(names)
    }

    /// `(region part of the name, metric, value)` of every numeric per-region counter `url`
    /// reports.
    fn metrics(&self, url: &str) -> Result<Vec<(String, String, u64)>, Error> {
        let at = format!("{url}/jmx?qry={REGIONS_BEAN}");
        let mut response = self.agent.get(&at).call().map_err(|e| {
            Error::Connection(ConnectionError::other(format!(
                "region server metrics at {at}: {e}"
            )))
        })?;
        let body = response
            .body_mut()
            .with_config()
            .limit(256 << 20)
            .read_to_string()
            .map_err(|e| {
                Error::Connection(ConnectionError::other(format!(
                    "reading the metrics of {at}: {e}"
                )))
            })?;
        let json: serde_json::Value = serde_json::from_str(&body).map_err(|e| {
            Error::Connection(ConnectionError::other(format!(
                "the metrics of {at} are not JMX JSON: {e}"
            )))
        })?;
        let mut out = Vec::new();
        let beans = json
            .get("beans")
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| {
                Error::Connection(ConnectionError::other(format!(
                    "the metrics of {at} hold no beans"
                )))
            })?;
        for bean in beans {
            let Some(fields) = bean.as_object() else {
                continue;
            };
            for (name, value) in fields {
                let Some((region, metric)) = name.split_once("_metric_") else {
                    continue;
                };
                if let Some(v) = value.as_u64() {
                    out.push((region.to_owned(), metric.to_owned(), v));
                }
            }
        }
        Ok(out)
    }
}

impl LoadSample {
    /// Each region's request rates from `earlier` to this sample (regions matched by encoded
    /// name; a region new since then, or whose counters went down, counts from zero).
    pub fn rates_since(&self, earlier: &LoadSample) -> Vec<RegionRates> {
        let seconds = (self.at_ms.saturating_sub(earlier.at_ms) as f64 / 1000.0).max(0.001);
        let before: HashMap<&str, &RegionCounters> = earlier
            .regions
            .iter()
            .map(|r| (r.encoded.as_str(), r))
            .collect();
        self.regions
            .iter()
            .map(|r| {
                let (reads0, writes0) = before
                    .get(r.encoded.as_str())
                    .map(|b| (b.reads, b.writes))
                    .unwrap_or_default();
                let delta = |now: u64, then: u64| {
                    if now >= then {
                        now - then
                    } else {
                        now
                    }
                };
                RegionRates {
                    region: r.region.clone(),
                    reads: delta(r.reads, reads0) as f64 / seconds,
                    writes: delta(r.writes, writes0) as f64 / seconds,
                    store_file_bytes: r.store_file_bytes,
                }
            })
            .collect()
    }
}

/// A time × key-range map of `samples` (taken in order by one [`LoadSampler`]): one range
/// per region of the last sample (with its server, encoded name and store size), one
/// interval per pair of consecutive samples with each region's read and write rates, the
/// key-range axis labelled through the key type `K` — the page of
/// [`LoadMap::html`](rowkey::hotspot::LoadMap::html), the same as the offline analysis draws.
/// A region that split or moved between samples counts its requests from the sample it
/// appeared in; rates of regions gone by the last sample are left out.
///
/// # Errors
///
/// [`Error::InvalidArgument`] for fewer than two samples, or samples out of order.
pub fn load_map<K>(title: &str, samples: &[LoadSample]) -> Result<LoadMap, Error>
where
    K: rowkey::RowKey + rowkey::DecodeRowKeyOwned,
{
    Ok(unlabelled_map(title, samples)?.label_with::<K>())
}

/// [`load_map`] without the labels of a key type.
pub(crate) fn unlabelled_map(title: &str, samples: &[LoadSample]) -> Result<LoadMap, Error> {
    let Some(last) = samples.last().filter(|_| samples.len() >= 2) else {
        return Err(Error::InvalidArgument(format!(
            "a load map needs two samples or more, not {}",
            samples.len()
        )));
    };
    let ranges: Vec<LoadRange> = last
        .regions
        .iter()
        .map(|r| {
            let end = (!r.region.end.is_empty()).then(|| r.region.end.clone());
            LoadRange::new(r.region.start.clone(), end)
                .with_server(r.region.server.clone())
                .with_region(r.encoded.clone())
                .with_store_size(r.store_file_bytes)
        })
        .collect();
    let mut map = LoadMap::new(title, ranges)
        .map_err(|e| Error::InvalidArgument(format!("the regions of the map: {e}")))?;
    for pair in samples.windows(2) {
        let [earlier, later] = pair else { continue };
        if later.at_ms < earlier.at_ms {
            return Err(Error::InvalidArgument(
                "load samples out of order (each must be taken after the one before)".into(),
            ));
        }
        let rates: HashMap<&str, (f64, f64)> = later
            .rates_since(earlier)
            .into_iter()
            .zip(&later.regions)
            .map(|(r, c)| (c.encoded.as_str(), (r.reads, r.writes)))
            .collect();
        let (reads, writes): (Vec<f64>, Vec<f64>) = last
            .regions
            .iter()
            .map(|r| rates.get(r.encoded.as_str()).copied().unwrap_or_default())
            .unzip();
        map.push_interval(earlier.at_ms, later.at_ms, reads, writes)
            .map_err(|e| Error::InvalidArgument(format!("an interval of the map: {e}")))?;
    }
    Ok(map)
}

/// Per-server sums of region rates, servers in name order.
pub fn per_server(rates: &[RegionRates]) -> Vec<ServerRates> {
    let mut servers: Vec<ServerRates> = Vec::new();
    for r in rates {
        match servers.iter_mut().find(|s| s.server == r.region.server) {
            Some(s) => {
                s.regions += 1;
                s.reads += r.reads;
                s.writes += r.writes;
            }
            None => servers.push(ServerRates {
                server: r.region.server.clone(),
                regions: 1,
                reads: r.reads,
                writes: r.writes,
            }),
        }
    }
    servers.sort_by(|a, b| a.server.cmp(&b.server));
    servers
}

/// The start key and encoded name of a new-format region name `table,start,id.encoded.`
/// (`None` for another table's, a replica's or an old-format name).
pub(crate) fn parse_region_name(table: &str, name: &[u8]) -> Option<(Vec<u8>, String)> {
    let rest = name.strip_prefix(table.as_bytes())?.strip_prefix(b",")?;
    let rest = rest.strip_suffix(b".")?;
    let dot = rest.iter().rposition(|b| *b == b'.')?;
    let (head, encoded) = (rest.get(..dot)?, rest.get(dot + 1..)?);
    if encoded.len() != 32 || !encoded.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let comma = head.iter().rposition(|b| *b == b',')?;
    let id = head.get(comma + 1..)?;
    if id.is_empty() || !id.iter().all(u8::is_ascii_digit) {
        return None; // a replica (`id_0001`)
    }
    Some((
        head.get(..comma)?.to_vec(),
        String::from_utf8_lossy(encoded).into_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(start: &[u8], server: &str) -> Region {
        Region {
            start: start.to_vec(),
            end: Vec::new(),
            id: 1,
            server: server.into(),
        }
    }

    #[test]
    fn rates_count_from_zero_after_a_reset() {
        let a = |reads, writes, at_ms| LoadSample {
            at_ms,
            regions: vec![RegionCounters {
                region: region(b"", "rs1:1"),
                encoded: "e".into(),
                reads,
                writes,
                store_file_bytes: 0,
            }],
        };
        let r = a(300, 50, 2000).rates_since(&a(100, 10, 1000));
        assert_eq!((r[0].reads, r[0].writes), (200.0, 40.0));
        // reopened: counters went down
        let r = a(30, 5, 3000).rates_since(&a(300, 50, 2000));
        assert_eq!((r[0].reads, r[0].writes), (30.0, 5.0));
    }

    #[test]
    fn region_names_give_start_keys_and_encoded_names() {
        let enc = "0123456789abcdef0123456789abcdef";
        let name = format!("t,a,b.c,1700000000000.{enc}.");
        assert_eq!(
            parse_region_name("t", name.as_bytes()),
            Some((b"a,b.c".to_vec(), enc.to_owned()))
        );
        let first = format!("t,,1.{enc}.");
        assert_eq!(
            parse_region_name("t", first.as_bytes()),
            Some((Vec::new(), enc.into()))
        );
        // another table, a replica, an old-format name
        assert_eq!(parse_region_name("u", name.as_bytes()), None);
        let replica = format!("t,a,1_0001.{enc}.");
        assert_eq!(parse_region_name("t", replica.as_bytes()), None);
        assert_eq!(
            parse_region_name("hbase:meta", b"hbase:meta,,1.1588230740"),
            None
        );
    }

    #[test]
    fn servers_sum_their_regions() {
        let rate = |server: &str, writes| RegionRates {
            region: region(b"a", server),
            reads: 1.0,
            writes,
            store_file_bytes: 0,
        };
        let s = per_server(&[rate("b:1", 2.0), rate("a:1", 3.0), rate("b:1", 4.0)]);
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].server.as_str(), s[0].regions, s[0].writes),
            ("a:1", 1, 3.0)
        );
        assert_eq!(
            (s[1].server.as_str(), s[1].regions, s[1].writes),
            ("b:1", 2, 6.0)
        );
    }
}
