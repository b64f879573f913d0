//! [`rowkey::store::Store`] over HBase: the one store of [`rowkey::index`] (typed secondary
//! indexes with maintenance, verified reads and a resumable scrub) and [`rowkey::migrate`]
//! (re-keying a table from one layout to another — 16 → 32 salt buckets, a v1 → v2 layout —
//! batched, resumable, verified, with a dual read).
//!
//! # Tables
//!
//! An [`HBaseStore`] names a base table, one table per index ([`index`](HBaseStore::index)), a
//! migration's destination table ([`destination`](HBaseStore::destination); the base table
//! itself, a migration in place, unless another is named) and a **checkpoint table** of its own
//! (family [`CHECKPOINT_FAMILY`]), where a checkpoint is the cell `m:checkpoint` of the row
//! `<base table>/<name>` — so no table's scan ever sees it.
//!
//! **Checkpoints of the earlier layout.** Before `HBaseStore::new`, a migration's store
//! (`rowkey_hbase::migrate::HBaseStore::same_table(table, checkpoints, name)`) kept its
//! checkpoint in the row `<name>` of its checkpoint table. A migration given that name
//! ([`Migration::name`](rowkey::migrate::Migration::name)) and the same checkpoint table resumes
//! from that row when its own row `<base table>/<name>` does not exist yet; its next
//! checkpoint is written to the new row (the old row is left as it was: delete it once the
//! migration is done). A scrub's checkpoint row (`<base table>/index-scrub/<index>`) did not
//! change.
//!
//! # Values
//!
//! An HBase row is many cells, a store row is `(key, value)`. The store keeps values one of two
//! ways:
//!
//! - **One cell** (the default; what an indexed table needs): the value is the cell `r:v`
//!   ([`FAMILY`], [`QUALIFIER`]); create such tables with [`HBaseStore::create_tables`]. A row
//!   without that cell is an error naming the row, never an empty value: a table with other
//!   columns is migrated with whole rows.
//! - **Whole rows** ([`whole_rows`](HBaseStore::whole_rows); what a migration of any table
//!   needs): the value is **every cell of the row** — family, qualifier, timestamp, value —
//!   serialized into one blob ([`encode_cells`]; [`decode_cells`] reads it back), in a canonical
//!   order. A put writes the cells with their own timestamps (never server time), so the copy
//!   keeps the whole row, a retried or repeated batch writes the same cells, and verification
//!   checksums all of it.
//!
//! # Timestamps
//!
//! An HBase delete is a marker that hides every cell at or below its timestamp: with the
//! server's time, a row deleted and written again in the same millisecond — an index row removed
//! by one update and brought back by the next — would stay hidden. So every `putMultiple` of
//! one-cell values and every `deleteMultiple` carries one explicit timestamp for all its rows,
//! from a clock that strictly increases from call to call (shared by the store's clones) and
//! never runs ahead of the wall clock (a call that would get a timestamp ahead of it waits for
//! it, under a millisecond): a delete hides exactly the cells written before it, and a
//! restarted process, whose clock starts at the wall clock, writes above every marker the
//! previous one left. Two processes writing one table each keep their own clock: keep their
//! clocks (NTP) closer than the time between one's delete and the other's re-put of the same
//! row, or write through one process; a wall clock stepped backwards can likewise hide a re-put
//! until the clock has caught up.
//!
//! # Requests
//!
//! - `scan`: one scanner over `[start, stop)` with a row limit, reversed for reverse reads
//!   ([`RawScan`]); `get`: `getMultiple`;
//! - `write`: `putMultiple` and `deleteMultiple` per run of one table and kind, in order; the
//!   deletes HBase could not apply are listed in [`Error::Write`], a refused `putMultiple` is
//!   HBase's message (puts and deletes are idempotent: apply them again);
//! - `apply`: the trait's default — each step finished before the next starts, then the
//!   checkpoint. HBase writes each row atomically and the rows of a call independently, so a
//!   crash leaves any subset of one step: for an index that only ever leaves extra index rows,
//!   which verified reads skip and the scrub removes ([`rowkey::index`]); for a migration the
//!   next run re-writes at most one batch, with the same cells.
//!
//! An indexed table:
//!
//! ```no_run
//! # use rowkey::index::{Record, RecordError};
//! # use rowkey::RowKey;
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct OrderId { #[salt(buckets = 8)] id: u64 }
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct ByBuyer { #[salt(buckets = 8)] buyer: u64, ts: u64 }
//! # #[derive(Debug, Clone, PartialEq)] struct Order { id: u64, buyer: u64, ts: u64 }
//! # impl Record for Order {
//! #     type Key = OrderId;
//! #     fn key(&self) -> OrderId { OrderId { id: self.id } }
//! #     fn to_value(&self) -> Vec<u8> { [self.buyer.to_be_bytes(), self.ts.to_be_bytes()].concat() }
//! #     fn from_row(k: OrderId, v: &[u8]) -> Result<Order, RecordError> {
//! #         Ok(Order { id: k.id, buyer: u64::from_be_bytes(v[..8].try_into()?), ts: u64::from_be_bytes(v[8..16].try_into()?) })
//! #     }
//! # }
//! # fn demo(client: rowkey_hbase::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use rowkey::index::{Index, Indexed};
//! use rowkey_hbase::store::HBaseStore;
//!
//! let by_buyer = Index::non_unique("by_buyer", |o: &Order| ByBuyer { buyer: o.buyer, ts: o.ts })?;
//! HBaseStore::create_tables(&client, "orders", &["orders_by_buyer"], "checkpoints")?;
//! let store = HBaseStore::new(&client.table("orders"), &client.table("checkpoints"))
//!     .index("by_buyer", &client.table("orders_by_buyer"));
//! let orders = Indexed::new(store).with_index(&by_buyer)?;
//! orders.put(&Order { id: 1, buyer: 42, ts: 1_700_000_000 })?;
//! let recent = orders.scan(&by_buyer, ByBuyer::scan().buyer(42).ranges()).reverse().limit(10).records()?;
//! let report = orders.scrub().repair().run(|p| eprintln!("{p}"))?; // resumable
//! # Ok(()) }
//! ```
//!
//! A migration in place, 16 → 32 salt buckets:
//!
//! ```no_run
//! # use rowkey::RowKey;
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V16 { #[salt(buckets = 16)] id: u64, ts: u64 }
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V32 { #[salt(buckets = 32)] id: u64, ts: u64 }
//! # impl From<V16> for V32 { fn from(v: V16) -> V32 { V32 { id: v.id, ts: v.ts } } }
//! # fn demo(client: rowkey_hbase::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use rowkey::migrate::Migration;
//! use rowkey_hbase::store::HBaseStore;
//!
//! HBaseStore::create_checkpoint_table(&client, "checkpoints")?;
//! let store = HBaseStore::new(&client.table("events"), &client.table("checkpoints")).whole_rows();
//! let m = Migration::<_, V16, V32, _>::from_into(&store).name("events-16-to-32");
//! m.run(|p| eprintln!("{p}"))?; // resumable: run it again after a crash
//! let verified = m.verify()?;
//! m.retire_source(&verified, |_| {})?;
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rowkey::store::{KeyValue, Store, Table as StoreTable, Write};
use rowkey::ScanRange;

use crate::read::RawScan;
use crate::thrift::{TColumn, TColumnValue, TDelete, TGet, TPut, TTHBaseServiceSyncClient};
use crate::{Client, Error, FailedWrite, RowCell, Table, WriteFailures};

/// The column family of a one-cell value (and of the tables [`HBaseStore::create_tables`]
/// creates).
pub const FAMILY: &str = "r";
/// The column that holds a one-cell value.
pub const QUALIFIER: &[u8] = b"v";
/// The column family of the checkpoint table.
pub const CHECKPOINT_FAMILY: &str = "m";
/// The column of a checkpoint.
pub const CHECKPOINT_QUALIFIER: &[u8] = b"checkpoint";

/// A table's store on HBase: see the [module docs](self).
///
/// ```no_run
/// # fn demo(client: rowkey_hbase::Client) -> Result<(), rowkey_hbase::Error> {
/// use rowkey::store::{Store, Table};
/// use rowkey_hbase::store::HBaseStore;
///
/// // a v1 table copied into a new v2 table; checkpoints in the table "checkpoints"
/// let store = HBaseStore::new(&client.table("events_v1"), &client.table("checkpoints"))
///     .destination(&client.table("events_v2"))
///     .whole_rows();
/// assert_eq!(store.table(&Table::Destination)?.name(), "events_v2");
/// assert!(!store.same_table());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct HBaseStore {
    base: Table,
    destination: Table,
    indexes: HashMap<String, Table>,
    checkpoints: Table,
    whole_rows: bool,
    clock: Arc<AtomicI64>,
}

impl HBaseStore {
    /// The base table `base` with its checkpoints in `checkpoints` (family
    /// [`CHECKPOINT_FAMILY`]); values in one cell ([`FAMILY`]`:`[`QUALIFIER`]); a migration's
    /// destination is the base table.
    pub fn new(base: &Table, checkpoints: &Table) -> Self {
        HBaseStore {
            base: base.clone(),
            destination: base.clone(),
            indexes: HashMap::new(),
            checkpoints: checkpoints.clone(),
            whole_rows: false,
            clock: Arc::new(AtomicI64::new(0)),
        }
    }

    /// The table of the index named `name` (family [`FAMILY`]).
    #[must_use]
    pub fn index(mut self, name: &str, table: &Table) -> Self {
        self.indexes.insert(name.to_owned(), table.clone());
        self
    }

    /// A migration's destination: `table` (the base table by default: a migration in place).
    #[must_use]
    pub fn destination(mut self, table: &Table) -> Self {
        self.destination = table.clone();
        self
    }

    /// Values are whole rows: every cell, serialized with [`encode_cells`] (see the
    /// [module docs](self#values)). For migrating a table with any columns.
    #[must_use]
    pub fn whole_rows(mut self) -> Self {
        self.whole_rows = true;
        self
    }

    /// Create the base and index tables (family [`FAMILY`], not pre-split; use
    /// [`Client::create_table_for`] to pre-split one at its key's split points) and the
    /// checkpoint table (family [`CHECKPOINT_FAMILY`]).
    ///
    /// # Errors
    ///
    /// As [`Client::create_table`] (a table exists, say).
    pub fn create_tables(
        client: &Client,
        base: &str,
        indexes: &[&str],
        checkpoints: &str,
    ) -> Result<(), Error> {
        client.create_table(base, &[FAMILY], &[])?;
        for t in indexes {
            client.create_table(t, &[FAMILY], &[])?;
        }
        Self::create_checkpoint_table(client, checkpoints)
    }

    /// Create a checkpoint table (family [`CHECKPOINT_FAMILY`]).
    ///
    /// # Errors
    ///
    /// As [`Client::create_table`] (the table exists, say).
    pub fn create_checkpoint_table(client: &Client, name: &str) -> Result<(), Error> {
        client.create_table(name, &[CHECKPOINT_FAMILY], &[])
    }

    /// The HBase table of a store table.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for an index this store was not given.
    pub fn table(&self, table: &StoreTable) -> Result<&Table, Error> {
        match table {
            StoreTable::Base => Ok(&self.base),
            StoreTable::Destination => Ok(&self.destination),
            StoreTable::Index(name) => self.indexes.get(name).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "no HBase table for index {name:?}: add it with HBaseStore::index"
                ))
            }),
        }
    }

    /// The next timestamp: the wall clock in ms, or one past the last timestamp given —
    /// waiting, if that is ahead of the wall clock, until it is not.
    fn tick(&self) -> i64 {
        let now = || {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        };
        let wall = now();
        let mut last = self.clock.load(Ordering::SeqCst);
        let next = loop {
            let next = wall.max(last.saturating_add(1));
            match self
                .clock
                .compare_exchange(last, next, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => break next,
                Err(seen) => last = seen,
            }
        };
        while now() < next {
            std::thread::sleep(Duration::from_micros(200));
        }
        next
    }

    fn checkpoint_row(&self, name: &str) -> Vec<u8> {
        format!("{}/{name}", self.base.name()).into_bytes()
    }

    /// A stored row as a store row: its one cell, or all of its cells.
    fn value(&self, table: &Table, row: crate::Row) -> Result<KeyValue, Error> {
        if self.whole_rows {
            let value = encode_cells(&row.cells);
            return Ok((row.key, value));
        }
        let key = row.key.clone();
        match cell_value(row, FAMILY, QUALIFIER) {
            Some(value) => Ok((key, value)),
            None => Err(Error::InvalidArgument(format!(
                "row {} of table {} has no cell {FAMILY}:{}: this store keeps a value in that \
                 one cell (to migrate rows with other columns, use HBaseStore::whole_rows)",
                rowkey::hbase::to_string_binary(&key),
                table.name(),
                String::from_utf8_lossy(QUALIFIER)
            ))),
        }
    }

    fn get_rows(
        &self,
        table: &Table,
        keys: &[Vec<u8>],
        columns: Option<Vec<TColumn>>,
    ) -> Result<Vec<crate::Row>, Error> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let name = table.name().as_bytes().to_vec();
        let gets: Vec<TGet> = keys.iter().map(|k| tget(k, columns.clone())).collect();
        let results = table
            .client()
            .call(|c| c.get_multiple(name.clone(), gets.clone()))?;
        Ok(results.into_iter().map(crate::Row::from).collect())
    }

    /// The `TPut` of one store row: the one cell at `ts`, or every cell of the blob at its own
    /// timestamp.
    fn tput(&self, key: &[u8], value: &[u8], ts: i64) -> Result<TPut, Error> {
        let cells = if self.whole_rows {
            let cells = decode_cells(value)?;
            if cells.is_empty() {
                return Err(Error::InvalidArgument(format!(
                    "row {} has no cells to write",
                    rowkey::hbase::to_string_binary(key)
                )));
            }
            cells
                .into_iter()
                .map(|c| {
                    TColumnValue::new(
                        c.family,
                        c.qualifier,
                        c.value,
                        Some(c.timestamp),
                        None,
                        None,
                    )
                })
                .collect()
        } else {
            vec![cell(FAMILY, QUALIFIER, value.to_vec(), ts)]
        };
        Ok(TPut::new(key.to_vec(), cells, None, None, None, None))
    }
}

/// One cell at `ts`.
fn cell(family: &str, qualifier: &[u8], value: Vec<u8>, ts: i64) -> TColumnValue {
    TColumnValue::new(
        family.as_bytes().to_vec(),
        qualifier.to_vec(),
        value,
        Some(ts),
        None,
        None,
    )
}

/// A `TGet` of one row (`columns`: all of them when `None`).
fn tget(key: &[u8], columns: Option<Vec<TColumn>>) -> TGet {
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

/// The newest `family:qualifier` cell of a row.
fn cell_value(row: crate::Row, family: &str, qualifier: &[u8]) -> Option<Vec<u8>> {
    row.cells
        .into_iter()
        .filter(|c| c.family == family.as_bytes() && c.qualifier == qualifier)
        .max_by_key(|c| c.timestamp)
        .map(|c| c.value)
}

/// Serialize a row's cells into one blob: for each cell, the family (u16 big-endian length,
/// bytes), qualifier (u32 length, bytes), timestamp in ms (i64 big-endian) and value (u32
/// length, bytes), sorted by family, qualifier, then newest first, so that the same cells
/// always give the same blob.
///
/// ```
/// use rowkey_hbase::store::{decode_cells, encode_cells};
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

impl Store for HBaseStore {
    type Error = Error;

    fn scan(
        &self,
        table: &StoreTable,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<KeyValue>, Error> {
        if limit == 0 || stop.is_some_and(|s| s <= start) {
            return Ok(Vec::new());
        }
        let table = self.table(table)?;
        let mut scan = RawScan::new(table, ScanRange::new(start, stop))
            .limit(limit)
            .page_rows(limit.clamp(1, 5000));
        if reverse {
            scan = scan.reverse();
        }
        scan.rows()?
            .map(|r| r.and_then(|row| self.value(table, row)))
            .collect()
    }

    fn get(&self, table: &StoreTable, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        let table = self.table(table)?;
        let columns = (!self.whole_rows).then(|| {
            vec![TColumn::new(
                FAMILY.as_bytes().to_vec(),
                QUALIFIER.to_vec(),
                None,
            )]
        });
        self.get_rows(table, keys, columns)?
            .into_iter()
            .map(|row| {
                if row.cells.is_empty() {
                    return Ok(None);
                }
                self.value(table, row).map(|(_, v)| Some(v))
            })
            .collect()
    }

    fn write(&self, writes: &[Write]) -> Result<(), Error> {
        // Runs of one table and kind, in order.
        let mut i = 0;
        while let Some(head) = writes.get(i) {
            let is_put = matches!(head, Write::Put { .. });
            let run: Vec<&Write> = writes[i..]
                .iter()
                .take_while(|w| {
                    matches!(w, Write::Put { .. }) == is_put && w.table() == head.table()
                })
                .collect();
            let table = self.table(head.table())?;
            let name = table.name().as_bytes().to_vec();
            let ts = self.tick();
            if is_put {
                let puts = run
                    .iter()
                    .filter_map(|w| match w {
                        Write::Put { key, value, .. } => Some(self.tput(key, value, ts)),
                        Write::Delete { .. } => None,
                    })
                    .collect::<Result<Vec<TPut>, Error>>()?;
                table
                    .client()
                    .call(|c| c.put_multiple(name.clone(), puts.clone()))?;
            } else {
                let deletes: Vec<TDelete> = run
                    .iter()
                    .map(|w| TDelete::new(w.key().to_vec(), None, Some(ts), None, None, None))
                    .collect();
                let refused = table
                    .client()
                    .call(|c| c.delete_multiple(name.clone(), deletes.clone()))?;
                if !refused.is_empty() {
                    let failed: Vec<FailedWrite> = refused
                        .into_iter()
                        .map(|d| FailedWrite {
                            table: table.name().to_owned(),
                            index: i + run
                                .iter()
                                .position(|w| w.key() == d.row.as_slice())
                                .unwrap_or(0),
                            key: d.row,
                            outcome: crate::Outcome::Failed,
                            message: "HBase could not apply this delete".into(),
                        })
                        .collect();
                    return Err(Error::Write(WriteFailures {
                        written: i + run.len() - failed.len(),
                        failed,
                    }));
                }
            }
            i += run.len();
        }
        Ok(())
    }

    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Error> {
        let column = TColumn::new(
            CHECKPOINT_FAMILY.as_bytes().to_vec(),
            CHECKPOINT_QUALIFIER.to_vec(),
            None,
        );
        // the row `<base table>/<name>`, then (a migration's) the row `<name>` the migration
        // store of the earlier layout wrote: read, never written (the module docs)
        let mut keys = vec![self.checkpoint_row(name)];
        if !name.starts_with("index-scrub/") {
            keys.push(name.as_bytes().to_vec());
        }
        let rows = self.get_rows(&self.checkpoints, &keys, Some(vec![column]))?;
        Ok(rows
            .into_iter()
            .find_map(|row| cell_value(row, CHECKPOINT_FAMILY, CHECKPOINT_QUALIFIER)))
    }

    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Error> {
        let table = self.checkpoints.name().as_bytes().to_vec();
        let put = TPut::new(
            self.checkpoint_row(name),
            vec![cell(
                CHECKPOINT_FAMILY,
                CHECKPOINT_QUALIFIER,
                blob.to_vec(),
                self.tick(),
            )],
            None,
            None,
            None,
            None,
        );
        self.checkpoints
            .client()
            .call(|c| c.put(table.clone(), put.clone()))
    }

    fn same_table(&self) -> bool {
        self.base.name() == self.destination.name()
    }
}
