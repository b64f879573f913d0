//! A [`rowkey::index::Store`] over HBase: typed secondary indexes with maintenance, verified
//! reads and a resumable scrub ([`rowkey::index`]).
//!
//! # What the store does
//!
//! - Every table (the base table and one per index) keeps a row's value in **one cell**, `r:v`
//!   ([`FAMILY`], [`QUALIFIER`]); create them with [`HBaseIndexStore::create_tables`].
//! - **Timestamps from the store's clock.** An HBase delete is a marker that hides every cell
//!   at or below its timestamp: with the server's time, a row deleted and written again in the
//!   same millisecond — an index row removed by one update and brought back by the next —
//!   would stay hidden. So every `putMultiple` and `deleteMultiple` call carries one explicit
//!   timestamp for all its rows, from a clock that strictly increases from call to call (shared
//!   by the store's clones) and never runs ahead of the wall clock (a call that would get a
//!   timestamp ahead of it waits for it, under a millisecond): a delete hides exactly the
//!   cells written before it, and a restarted process, whose clock starts at the wall clock,
//!   writes above every marker the previous one left.
//! - `scan`: one scanner over `[start, stop)` with a row limit, reversed for reverse reads
//!   ([`RawScan`]); `get`: `getMultiple`;
//! - `write`: `putMultiple` and `deleteMultiple` per run of one table and kind, in order; the
//!   deletes HBase could not apply are listed in [`Error::Write`], a refused `putMultiple` is
//!   HBase's message (puts and deletes are idempotent: apply them again);
//! - `apply`: the trait's default — the three maintenance steps (new index rows, base rows, old
//!   index rows) one after the other, each finished before the next starts. HBase writes each
//!   row atomically and the rows of a call independently, so a crash leaves any subset of one
//!   step: the [`rowkey::index`] docs show why that only ever leaves extra index rows, which
//!   verified reads skip and the scrub removes;
//! - the scrub checkpoint: the cell `m:checkpoint` of the row `<base table>/<name>` in a
//!   checkpoint table (family [`CHECKPOINT_FAMILY`]).
//!
//! Two processes writing one table each keep their own clock: keep their clocks (NTP) closer
//! than the time between one's delete and the other's re-put of the same row, or write
//! through one process; a wall clock stepped backwards can likewise hide a re-put until the
//! clock has caught up.
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
//! use rowkey_hbase::index::HBaseIndexStore;
//!
//! let by_buyer = Index::non_unique("by_buyer", |o: &Order| ByBuyer { buyer: o.buyer, ts: o.ts })?;
//! HBaseIndexStore::create_tables(&client, "orders", &["orders_by_buyer"], "index_checkpoints")?;
//! let store = HBaseIndexStore::new(&client.table("orders"), &client.table("index_checkpoints"))
//!     .index("by_buyer", &client.table("orders_by_buyer"));
//! let orders = Indexed::new(store).with_index(&by_buyer)?;
//! orders.put(&Order { id: 1, buyer: 42, ts: 1_700_000_000 })?;
//! let recent = orders.scan(&by_buyer, ByBuyer::scan().buyer(42).ranges()).reverse().limit(10).records()?;
//! let report = orders.scrub().repair().run(|p| eprintln!("{p}"))?; // resumable
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rowkey::index::{Row, Store, Table as IndexTable, Write};
use rowkey::ScanRange;

use crate::read::RawScan;
use crate::thrift::{TColumn, TColumnValue, TDelete, TGet, TPut, TTHBaseServiceSyncClient};
use crate::{Client, Error, FailedWrite, Table, WriteFailures};

/// The column family of every table of an indexed table.
pub const FAMILY: &str = "r";
/// The column that holds a row's value.
pub const QUALIFIER: &[u8] = b"v";
/// The column family of the checkpoint table.
pub const CHECKPOINT_FAMILY: &str = "m";
/// The column of a checkpoint.
pub const CHECKPOINT_QUALIFIER: &[u8] = b"checkpoint";

/// An indexed table's tables on HBase: see the [module docs](self).
#[derive(Debug, Clone)]
pub struct HBaseIndexStore {
    base: Table,
    indexes: HashMap<String, Table>,
    checkpoints: Table,
    clock: Arc<AtomicI64>,
}

impl HBaseIndexStore {
    /// The base table `base` (family [`FAMILY`]) with its scrub checkpoints in `checkpoints`
    /// (family [`CHECKPOINT_FAMILY`]). Add each index's table with [`index`](Self::index).
    pub fn new(base: &Table, checkpoints: &Table) -> Self {
        HBaseIndexStore {
            base: base.clone(),
            indexes: HashMap::new(),
            checkpoints: checkpoints.clone(),
            clock: Arc::new(AtomicI64::new(0)),
        }
    }

    /// The table of the index named `name` (family [`FAMILY`]).
    #[must_use]
    pub fn index(mut self, name: &str, table: &Table) -> Self {
        self.indexes.insert(name.to_owned(), table.clone());
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
        client.create_table(checkpoints, &[CHECKPOINT_FAMILY], &[])
    }

    /// The base table.
    pub fn base(&self) -> &Table {
        &self.base
    }

    fn table(&self, table: &IndexTable) -> Result<&Table, Error> {
        match table {
            IndexTable::Base => Ok(&self.base),
            IndexTable::Index(name) => self.indexes.get(name).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "no HBase table for index {name:?}: add it with HBaseIndexStore::index"
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

    fn get_cells(
        &self,
        table: &Table,
        keys: &[Vec<u8>],
        family: &str,
        qualifier: &[u8],
    ) -> Result<Vec<Option<Vec<u8>>>, Error> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let name = table.name().as_bytes().to_vec();
        let column = TColumn::new(family.as_bytes().to_vec(), qualifier.to_vec(), None);
        let gets: Vec<TGet> = keys.iter().map(|k| tget(k, vec![column.clone()])).collect();
        let results = table
            .client()
            .call(|c| c.get_multiple(name.clone(), gets.clone()))?;
        Ok(results
            .into_iter()
            .map(|r| cell_value(crate::Row::from(r), family, qualifier))
            .collect())
    }

    fn put_cells(
        &self,
        table: &Table,
        rows: Vec<(Vec<u8>, Vec<u8>)>,
        family: &str,
        qualifier: &[u8],
    ) -> Result<(), Error> {
        let name = table.name().as_bytes().to_vec();
        let ts = self.tick();
        let puts: Vec<TPut> = rows
            .into_iter()
            .map(|(key, value)| {
                let cell = TColumnValue::new(
                    family.as_bytes().to_vec(),
                    qualifier.to_vec(),
                    value,
                    Some(ts),
                    None,
                    None,
                );
                TPut::new(key, vec![cell], None, None, None, None)
            })
            .collect();
        table
            .client()
            .call(|c| c.put_multiple(name.clone(), puts.clone()))
    }
}

fn tget(key: &[u8], columns: Vec<TColumn>) -> TGet {
    crate::migrate::tget(key, Some(columns))
}

/// The newest `family:qualifier` cell of a row.
fn cell_value(row: crate::Row, family: &str, qualifier: &[u8]) -> Option<Vec<u8>> {
    row.cells
        .into_iter()
        .filter(|c| c.family == family.as_bytes() && c.qualifier == qualifier)
        .max_by_key(|c| c.timestamp)
        .map(|c| c.value)
}

impl Store for HBaseIndexStore {
    type Error = Error;

    fn scan(
        &self,
        table: &IndexTable,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<Row>, Error> {
        if limit == 0 || stop.is_some_and(|s| s <= start) {
            return Ok(Vec::new());
        }
        let mut scan = RawScan::new(self.table(table)?, ScanRange::new(start, stop))
            .limit(limit)
            .page_rows(limit.clamp(1, 5000));
        if reverse {
            scan = scan.reverse();
        }
        scan.rows()?
            .map(|r| {
                r.map(|row| {
                    let key = row.key.clone();
                    (key, cell_value(row, FAMILY, QUALIFIER).unwrap_or_default())
                })
            })
            .collect()
    }

    fn get(&self, table: &IndexTable, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        self.get_cells(self.table(table)?, keys, FAMILY, QUALIFIER)
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
            if is_put {
                let rows = run
                    .iter()
                    .filter_map(|w| match w {
                        Write::Put { key, value, .. } => Some((key.clone(), value.clone())),
                        Write::Delete { .. } => None,
                    })
                    .collect();
                self.put_cells(table, rows, FAMILY, QUALIFIER)?;
            } else {
                let name = table.name().as_bytes().to_vec();
                let ts = self.tick();
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
        let row = self.checkpoint_row(name);
        Ok(self
            .get_cells(
                &self.checkpoints,
                &[row],
                CHECKPOINT_FAMILY,
                CHECKPOINT_QUALIFIER,
            )?
            .into_iter()
            .next()
            .flatten())
    }

    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Error> {
        let row = self.checkpoint_row(name);
        self.put_cells(
            &self.checkpoints,
            vec![(row, blob.to_vec())],
            CHECKPOINT_FAMILY,
            CHECKPOINT_QUALIFIER,
        )
    }
}
