//! A [`rowkey::migrate::Store`] over HBase: re-key a table from one key layout to another
//! (16 → 32 salt buckets, a v1 → v2 layout) with [`rowkey::migrate::Migration`] — batched,
//! resumable from a checkpoint row, verified, with a dual read.
//!
//! # What the store does
//!
//! - The migration's row value is **every cell of the HBase row** — family, qualifier,
//!   timestamp, value — serialized into one blob ([`encode_cells`]; [`decode_cells`] reads it
//!   back), in a canonical order, so the copy keeps the whole row, timestamps included, and
//!   verification checksums all of it.
//! - `scan`: one scanner over `[start, stop)` with a row limit ([`RawScan`]);
//! - `put`: a [`Batch`] of puts with the copied timestamps (never server time), so a retried or
//!   repeated batch writes the same cells; every failed entry is reported ([`Error::Write`]) and
//!   the migration stops before its checkpoint;
//! - `delete`: a [`Batch`] of whole-row deletes;
//! - `get`: `getMultiple`;
//! - the checkpoint: the cell `m:checkpoint` in the row named after the migration, in a
//!   **checkpoint table** of its own ([`HBaseStore::create_checkpoint_table`]), so neither
//!   side's scan ever sees it;
//! - `apply`: the trait's default — puts, then deletes, then the checkpoint, each durable
//!   before the next starts. HBase has no multi-row transactions; this order is what makes a
//!   crash at any point safe: the next run re-writes at most one batch, with the same cells.
//!
//! ```no_run
//! # use rowkey::RowKey;
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V16 { #[salt(buckets = 16)] id: u64, ts: u64 }
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V32 { #[salt(buckets = 32)] id: u64, ts: u64 }
//! # impl From<V16> for V32 { fn from(v: V16) -> V32 { V32 { id: v.id, ts: v.ts } } }
//! # fn demo(client: rowkey_hbase::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use rowkey::migrate::Migration;
//! use rowkey_hbase::migrate::HBaseStore;
//!
//! HBaseStore::create_checkpoint_table(&client, "migrations")?;
//! let store = HBaseStore::same_table(&client.table("events"), &client.table("migrations"), "events-16-to-32");
//! let m = Migration::<_, V16, V32, _>::from_into(&store);
//! m.run(|p| eprintln!("{p}"))?; // resumable: run it again after a crash
//! let verified = m.verify()?;
//! m.retire_source(&verified, |_| {})?;
//! # Ok(()) }
//! ```

use rowkey::migrate::{Row, Side, Store};
use rowkey::ScanRange;

use crate::read::RawScan;
use crate::thrift::{TColumn, TColumnValue, TGet, TPut, TTHBaseServiceSyncClient};
use crate::{Batch, Cell, Client, Error, RowCell, Table};

/// The checkpoint table's column family.
pub const CHECKPOINT_FAMILY: &str = "m";
/// The checkpoint cell's qualifier.
pub const CHECKPOINT_QUALIFIER: &[u8] = b"checkpoint";

/// A migration store over one or two HBase tables: see the [module docs](self).
#[derive(Debug, Clone)]
pub struct HBaseStore {
    source: Table,
    destination: Table,
    checkpoints: Table,
    name: Vec<u8>,
}

impl HBaseStore {
    /// Re-key `table` in place; the checkpoint is the row `name` of `checkpoints`.
    pub fn same_table(table: &Table, checkpoints: &Table, name: &str) -> Self {
        HBaseStore::two_tables(table, table, checkpoints, name)
    }

    /// Copy `source` into `destination` under the new layout.
    pub fn two_tables(
        source: &Table,
        destination: &Table,
        checkpoints: &Table,
        name: &str,
    ) -> Self {
        HBaseStore {
            source: source.clone(),
            destination: destination.clone(),
            checkpoints: checkpoints.clone(),
            name: name.as_bytes().to_vec(),
        }
    }

    /// Create a checkpoint table (family [`CHECKPOINT_FAMILY`]).
    ///
    /// # Errors
    ///
    /// As [`Client::create_table`] (the table exists, say).
    pub fn create_checkpoint_table(client: &Client, name: &str) -> Result<(), Error> {
        client.create_table(name, &[CHECKPOINT_FAMILY], &[])
    }

    /// The source table.
    pub fn source(&self) -> &Table {
        &self.source
    }

    /// The destination table (the source table in a one-table migration).
    pub fn destination(&self) -> &Table {
        &self.destination
    }

    fn table(&self, side: Side) -> &Table {
        match side {
            Side::Source => &self.source,
            Side::Destination => &self.destination,
        }
    }
}

/// Serialize a row's cells into one blob: for each cell, the family (u16 big-endian length,
/// bytes), qualifier (u32 length, bytes), timestamp in ms (i64 big-endian) and value (u32
/// length, bytes), sorted by family, qualifier, then newest first, so that the same cells
/// always give the same blob.
///
/// ```
/// use rowkey_hbase::migrate::{decode_cells, encode_cells};
/// use rowkey_hbase::RowCell;
///
/// let cells = vec![RowCell { family: b"d".to_vec(), qualifier: b"v".to_vec(), value: b"42".to_vec(), timestamp: 1_000 }];
/// let blob = encode_cells(&cells);
/// assert_eq!(decode_cells(&blob)?, cells);
/// assert!(decode_cells(&blob[..blob.len() - 1]).is_err());
/// # Ok::<(), rowkey_hbase::Error>(())
/// ```
pub fn encode_cells(cells: &[RowCell]) -> Vec<u8> {
    let mut sorted: Vec<&RowCell> = cells.iter().collect();
    sorted.sort_by(|a, b| {
        (&a.family, &a.qualifier, b.timestamp).cmp(&(&b.family, &b.qualifier, a.timestamp))
    });
    let mut out = Vec::new();
    for c in sorted {
        out.extend_from_slice(&(c.family.len() as u16).to_be_bytes());
        out.extend_from_slice(&c.family);
        out.extend_from_slice(&(c.qualifier.len() as u32).to_be_bytes());
        out.extend_from_slice(&c.qualifier);
        out.extend_from_slice(&c.timestamp.to_be_bytes());
        out.extend_from_slice(&(c.value.len() as u32).to_be_bytes());
        out.extend_from_slice(&c.value);
    }
    out
}

/// Read back a blob of [`encode_cells`].
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the byte offset where the blob is cut short.
pub fn decode_cells(blob: &[u8]) -> Result<Vec<RowCell>, Error> {
    fn take<'a>(blob: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], Error> {
        let end = at
            .checked_add(n)
            .filter(|&e| e <= blob.len())
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "cell blob of {} bytes cut short at byte {at} (wanted {n} more)",
                    blob.len()
                ))
            })?;
        let s = &blob[*at..end];
        *at = end;
        Ok(s)
    }
    fn len(b: &[u8]) -> usize {
        b.iter().fold(0usize, |n, &x| (n << 8) | usize::from(x))
    }
    let mut cells = Vec::new();
    let mut at = 0;
    while at < blob.len() {
        let n = len(take(blob, &mut at, 2)?);
        let family = take(blob, &mut at, n)?.to_vec();
        let n = len(take(blob, &mut at, 4)?);
        let qualifier = take(blob, &mut at, n)?.to_vec();
        let mut ts = [0u8; 8];
        ts.copy_from_slice(take(blob, &mut at, 8)?);
        let n = len(take(blob, &mut at, 4)?);
        let value = take(blob, &mut at, n)?.to_vec();
        cells.push(RowCell {
            family,
            qualifier,
            value,
            timestamp: i64::from_be_bytes(ts),
        });
    }
    Ok(cells)
}

/// A `TGet` of one row (`columns`: all of them when `None`); shared with the index store.
pub(crate) fn tget(key: &[u8], columns: Option<Vec<TColumn>>) -> TGet {
    TGet::new(
        key.to_vec(),
        columns,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    )
}

impl Store for HBaseStore {
    type Error = Error;

    fn same_table(&self) -> bool {
        self.source.name() == self.destination.name()
    }

    fn scan(
        &self,
        side: Side,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Row>, Error> {
        let scan = RawScan::new(self.table(side), ScanRange::new(start, stop))
            .limit(limit)
            .page_rows(limit.clamp(1, 5000));
        scan.rows()?
            .map(|r| r.map(|row| (row.key, encode_cells(&row.cells))))
            .collect()
    }

    fn put(&self, rows: &[Row]) -> Result<(), Error> {
        let mut batch = Batch::new();
        for (key, blob) in rows {
            let cells = decode_cells(blob)?
                .into_iter()
                .map(|c| Cell::new(c.family, c.qualifier, c.value).at(c.timestamp));
            batch.put_raw(&self.destination, key.clone(), cells);
        }
        batch.apply().map(drop)
    }

    fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Error> {
        let mut batch = Batch::new();
        for k in keys {
            batch.delete_raw(&self.source, k.clone());
        }
        batch.apply().map(drop)
    }

    fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Error> {
        let name = self.checkpoints.name().as_bytes().to_vec();
        let column = TColumn::new(
            CHECKPOINT_FAMILY.as_bytes().to_vec(),
            CHECKPOINT_QUALIFIER.to_vec(),
            None,
        );
        let get = tget(&self.name, Some(vec![column]));
        let result = self
            .checkpoints
            .client()
            .call(|c| c.get(name.clone(), get.clone()))?;
        Ok(result.column_values.into_iter().next().map(|c| c.value))
    }

    fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Error> {
        let name = self.checkpoints.name().as_bytes().to_vec();
        let cell = TColumnValue::new(
            CHECKPOINT_FAMILY.as_bytes().to_vec(),
            CHECKPOINT_QUALIFIER.to_vec(),
            blob.to_vec(),
            None,
            None,
            None,
        );
        let put = TPut::new(self.name.clone(), vec![cell], None, None, None, None);
        self.checkpoints
            .client()
            .call(|c| c.put(name.clone(), put.clone()))
    }

    fn get(&self, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        let name = self.destination.name().as_bytes().to_vec();
        let gets: Vec<TGet> = keys.iter().map(|k| tget(k, None)).collect();
        let results = self
            .destination
            .client()
            .call(|c| c.get_multiple(name.clone(), gets.clone()))?;
        Ok(results
            .into_iter()
            .map(|r| {
                let row = crate::Row::from(r);
                (!row.cells.is_empty()).then(|| encode_cells(&row.cells))
            })
            .collect())
    }
}
