//! A [`rowkey::index::Store`] over Bigtable: typed secondary indexes with maintenance,
//! verified reads and a resumable scrub ([`rowkey::index`]) on Cloud Bigtable or the emulator.
//!
//! # What the store does
//!
//! - Every table (the base table and one table per index) keeps a row's value in **one cell**,
//!   `r:v` ([`FAMILY`], [`QUALIFIER`]) at timestamp 0: a put is one row mutation
//!   `DeleteFromColumn(r:v)` + `SetCell(r:v, 0, value)` (atomic per row, so a reader never sees
//!   a row half-written, and a repeated put writes the same cell); a delete is `DeleteFromRow`.
//!   Create the tables with the family `r` ([`BigtableIndexStore::create_tables`]).
//! - `scan`: one `ReadRows` with one row range and `rows_limit`, `reversed` for reverse reads
//!   (sent with the `bigtable-features` header, as the crate's typed reverse reads are);
//! - `get`: one `ReadRows` with a `RowSet` of the keys;
//! - `write`: one `MutateRows` ([`Batch`]); every failed entry is reported in
//!   [`Error::Write`], the others were written;
//! - `apply`: the trait's default — the three maintenance steps (new index rows, base rows,
//!   old index rows) one `MutateRows` after the other, each finished before the next starts.
//!   Bigtable applies each row atomically and the rows of a request independently, so a crash
//!   leaves any subset of one step: the [`rowkey::index`] docs show why that only ever leaves
//!   extra index rows, which verified reads skip and the scrub removes;
//! - the scrub checkpoint: the cell `m:checkpoint` of the row `<base table>/<name>` in a
//!   checkpoint table (family [`CHECKPOINT_FAMILY`]).
//!
//! Reads must see every write that returned before them: use an app profile with
//! single-cluster routing on a replicated instance (the emulator and single-cluster instances
//! are consistent).
//!
//! # Blocking
//!
//! The port is synchronous and `bigtable_rs` is async: the store blocks on its futures with the
//! Tokio runtime [`Handle`] it was given. Use the indexed table on a thread that may block —
//! [`tokio::task::spawn_blocking`], or a plain thread — **never inside an async task**.
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
//! # async fn demo(client: rowkey_bigtable::Client) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! use rowkey::index::{Index, Indexed};
//! use rowkey_bigtable::index::BigtableIndexStore;
//!
//! let by_buyer = Index::non_unique("by_buyer", |o: &Order| ByBuyer { buyer: o.buyer, ts: o.ts })?;
//! BigtableIndexStore::create_tables(&client, "orders", &["orders_by_buyer"], "index_checkpoints").await?;
//! let store = BigtableIndexStore::new(
//!     tokio::runtime::Handle::current(),
//!     &client.table("orders"),
//!     &client.table("index_checkpoints"),
//! )
//! .index("by_buyer", &client.table("orders_by_buyer"));
//! // The indexed table blocks on Bigtable requests: use it on a blocking thread.
//! let recent = tokio::task::spawn_blocking(move || {
//!     let orders = Indexed::new(store).with_index(&by_buyer)?;
//!     orders.put(&Order { id: 1, buyer: 42, ts: 1_700_000_000 })?;
//!     let recent = orders.scan(&by_buyer, ByBuyer::scan().buyer(42).ranges()).reverse().limit(10).records()?;
//!     Ok::<_, Box<dyn std::error::Error + Send + Sync>>(recent)
//! })
//! .await??;
//! assert_eq!(recent.len(), 1);
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::future::Future;

use bigtable_rs::google::bigtable::v2::read_rows_request::RequestStatsView;
use bigtable_rs::google::bigtable::v2::{mutation, Mutation, ReadRowsRequest, RowSet};
use futures_util::StreamExt;
use rowkey::index::{Row, Store, Table as IndexTable, Write};
use tokio::runtime::Handle;

use crate::read::RawRow;
use crate::{Batch, Client, Error, RowCell, Table};

/// The column family of every table of an indexed table.
pub const FAMILY: &str = "r";
/// The column that holds a row's value.
pub const QUALIFIER: &[u8] = b"v";
/// The column family of the checkpoint table.
pub const CHECKPOINT_FAMILY: &str = "m";
/// The column of a checkpoint.
pub const CHECKPOINT_QUALIFIER: &[u8] = b"checkpoint";

/// An indexed table's tables on Bigtable: see the [module docs](self).
#[derive(Clone)]
pub struct BigtableIndexStore {
    handle: Handle,
    base: Table,
    indexes: HashMap<String, Table>,
    checkpoints: Table,
}

impl core::fmt::Debug for BigtableIndexStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut indexes: Vec<(&str, &str)> = self
            .indexes
            .iter()
            .map(|(n, t)| (n.as_str(), t.id()))
            .collect();
        indexes.sort_unstable();
        f.debug_struct("BigtableIndexStore")
            .field("base", &self.base.id())
            .field("indexes", &indexes)
            .field("checkpoints", &self.checkpoints.id())
            .finish_non_exhaustive()
    }
}

impl BigtableIndexStore {
    /// The base table `base` (family [`FAMILY`]) with its scrub checkpoints in `checkpoints`
    /// (family [`CHECKPOINT_FAMILY`]); `handle` is the runtime the client's requests run on.
    /// Add each index's table with [`index`](Self::index).
    pub fn new(handle: Handle, base: &Table, checkpoints: &Table) -> Self {
        BigtableIndexStore {
            handle,
            base: base.clone(),
            indexes: HashMap::new(),
            checkpoints: checkpoints.clone(),
        }
    }

    /// The table of the index named `name` (family [`FAMILY`]).
    #[must_use]
    pub fn index(mut self, name: &str, table: &Table) -> Self {
        self.indexes.insert(name.to_owned(), table.clone());
        self
    }

    /// Create the base table and the index tables (family [`FAMILY`], not pre-split; use
    /// [`Admin::create_table_for`](crate::Admin::create_table_for) to pre-split one at its
    /// key's split points) and the checkpoint table (family [`CHECKPOINT_FAMILY`]). Async:
    /// call it before handing the store to a blocking thread.
    ///
    /// # Errors
    ///
    /// As [`Admin::create_table`](crate::Admin::create_table) (`AlreadyExists` when one exists).
    pub async fn create_tables(
        client: &Client,
        base: &str,
        indexes: &[&str],
        checkpoints: &str,
    ) -> Result<(), Error> {
        let admin = client.admin().await?;
        admin.create_table(base, &[FAMILY], &[]).await?;
        for t in indexes {
            admin.create_table(t, &[FAMILY], &[]).await?;
        }
        admin
            .create_table(checkpoints, &[CHECKPOINT_FAMILY], &[])
            .await
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
                    "no Bigtable table for index {name:?}: add it with BigtableIndexStore::index"
                ))
            }),
        }
    }

    fn block<F: Future>(&self, f: F) -> F::Output {
        self.handle.block_on(f)
    }

    /// All rows of one `ReadRows` request.
    fn read(
        &self,
        table: &Table,
        rows: RowSet,
        limit: i64,
        reversed: bool,
    ) -> Result<Vec<RawRow>, Error> {
        let request = ReadRowsRequest {
            table_name: table.name().to_owned(),
            app_profile_id: table.app_profile().to_owned(),
            rows: Some(rows),
            rows_limit: limit,
            reversed,
            request_stats_view: RequestStatsView::RequestStatsNone as i32,
            ..ReadRowsRequest::default()
        };
        self.block(async {
            let mut stream = table.read_rows_raw(request).await?;
            let mut out = Vec::new();
            while let Some(row) = stream.next().await {
                out.push(row?);
            }
            Ok(out)
        })
    }

    fn checkpoint_row(&self, name: &str) -> Vec<u8> {
        format!("{}/{name}", self.base.id()).into_bytes()
    }
}

/// The newest `family:qualifier` cell of a row.
fn cell_value(cells: Vec<RowCell>, family: &str, qualifier: &[u8]) -> Option<Vec<u8>> {
    cells
        .into_iter()
        .filter(|c| c.family_name == family && c.qualifier == qualifier)
        .max_by_key(|c| c.timestamp_micros)
        .map(|c| c.value)
}

/// Replace one cell (at timestamp 0) in one row mutation.
fn set_one(family: &str, qualifier: &[u8], value: Vec<u8>) -> Vec<Mutation> {
    vec![
        Mutation {
            mutation: Some(mutation::Mutation::DeleteFromColumn(
                mutation::DeleteFromColumn {
                    family_name: family.to_owned(),
                    column_qualifier: qualifier.to_vec(),
                    time_range: None,
                },
            )),
        },
        Mutation {
            mutation: Some(mutation::Mutation::SetCell(mutation::SetCell {
                family_name: family.to_owned(),
                column_qualifier: qualifier.to_vec(),
                timestamp_micros: 0,
                value,
            })),
        },
    ]
}

impl Store for BigtableIndexStore {
    type Error = Error;

    fn scan(
        &self,
        table: &IndexTable,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<Row>, Error> {
        // rows_limit 0 means "no limit" to Bigtable, and an empty range is refused: answer both
        // without a request.
        if limit == 0 || stop.is_some_and(|s| s <= start) {
            return Ok(Vec::new());
        }
        let rows = crate::migrate::range_set(start, stop);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self
            .read(self.table(table)?, rows, limit, reverse)?
            .into_iter()
            .map(|(key, cells)| {
                (
                    key,
                    cell_value(cells, FAMILY, QUALIFIER).unwrap_or_default(),
                )
            })
            .collect())
    }

    fn get(&self, table: &IndexTable, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        // An empty RowSet means the whole table to Bigtable: never send one.
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let rows = RowSet {
            row_keys: keys.to_vec(),
            row_ranges: Vec::new(),
        };
        let found: HashMap<Vec<u8>, Vec<u8>> = self
            .read(self.table(table)?, rows, 0, false)?
            .into_iter()
            .map(|(key, cells)| {
                (
                    key,
                    cell_value(cells, FAMILY, QUALIFIER).unwrap_or_default(),
                )
            })
            .collect();
        Ok(keys.iter().map(|k| found.get(k).cloned()).collect())
    }

    fn write(&self, writes: &[Write]) -> Result<(), Error> {
        if writes.is_empty() {
            return Ok(());
        }
        let mut batch = Batch::new();
        for w in writes {
            let table = self.table(w.table())?;
            match w {
                Write::Put { key, value, .. } => batch.push(
                    table,
                    key.clone(),
                    set_one(FAMILY, QUALIFIER, value.clone()),
                ),
                Write::Delete { key, .. } => batch.delete_raw(table, key.clone()),
            };
        }
        self.block(batch.apply()).map(drop)
    }

    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Error> {
        let row = self.checkpoint_row(name);
        let rows = RowSet {
            row_keys: vec![row.clone()],
            row_ranges: Vec::new(),
        };
        Ok(self
            .read(&self.checkpoints, rows, 0, false)?
            .into_iter()
            .filter(|(key, _)| *key == row)
            .find_map(|(_, cells)| cell_value(cells, CHECKPOINT_FAMILY, CHECKPOINT_QUALIFIER)))
    }

    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Error> {
        let mut batch = Batch::new();
        batch.push(
            &self.checkpoints,
            self.checkpoint_row(name),
            set_one(CHECKPOINT_FAMILY, CHECKPOINT_QUALIFIER, blob.to_vec()),
        );
        self.block(batch.apply()).map(drop)
    }
}
