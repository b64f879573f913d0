//! [`rowkey::store::Store`] over Bigtable: the one store of [`rowkey::index`] (typed secondary
//! indexes with maintenance, verified reads and a resumable scrub) and [`rowkey::migrate`]
//! (re-keying a table from one layout to another: batched, resumable, verified, with a dual
//! read), on Cloud Bigtable or the emulator.
//!
//! # Tables
//!
//! A [`BigtableStore`] names a base table, one table per index ([`index`](BigtableStore::index)),
//! a migration's destination table ([`destination`](BigtableStore::destination); the base table
//! itself, a migration in place, unless another is named) and a **checkpoint table** of its own
//! (family [`CHECKPOINT_FAMILY`]), where a checkpoint is the cell `m:checkpoint` (timestamp 0)
//! of the row `<base table>/<name>` — so no table's scan ever sees it.
//!
//! **Checkpoints of the earlier layout.** Before `BigtableStore::new`, a migration's store
//! (`rowkey_bigtable::migrate::BigtableStore::same_table(handle, table, checkpoints, name)`)
//! kept its checkpoint in the row `<name>` of its checkpoint table. A migration given that
//! name ([`Migration::name`](rowkey::migrate::Migration::name)) and the same checkpoint table
//! resumes from that row when its own row `<base table>/<name>` does not exist yet; its next
//! checkpoint is written to the new row (the old row is left as it was: delete it once the
//! migration is done). A scrub's checkpoint row (`<base table>/index-scrub/<index>`) did not
//! change.
//!
//! # Values
//!
//! A Bigtable row is many cells, a store row is `(key, value)`. The store keeps values one of
//! two ways:
//!
//! - **One cell** (the default; what an indexed table needs): the value is the cell `r:v`
//!   ([`FAMILY`], [`QUALIFIER`]) at timestamp 0. A put is one row mutation
//!   `DeleteFromColumn(r:v)` + `SetCell(r:v, 0, value)` (atomic per row, so a reader never sees
//!   a row half-written, and a repeated put writes the same cell). A row without that cell is
//!   an error naming the row, never an empty value: a table with other columns is migrated
//!   with whole rows.
//! - **Whole rows** ([`whole_rows`](BigtableStore::whole_rows); what a migration of any table
//!   needs): the value is **every cell of the row** — family, qualifier, timestamp and value —
//!   serialized into one blob ([`encode_cells`]; [`decode_cells`] reads it back, e.g. the `value`
//!   of a [`DualRow`](rowkey::migrate::DualRow)). A put writes the cells with their own
//!   timestamps (never server time), so the copy keeps the whole row, a retried or repeated
//!   batch writes the same cells, and verification checksums all of it. A put does not delete
//!   cells already in the destination row: a destination row that holds other cells as well
//!   makes [`Migration::verify`](rowkey::migrate::Migration::verify) report a mismatch rather
//!   than hide it.
//!
//! # Requests
//!
//! - `scan`: one `ReadRows` with one row range (`start_key_closed`, `end_key_open`) and
//!   `rows_limit`, `reversed` for reverse reads (sent with the `bigtable-features` header, as
//!   the crate's typed reverse reads are);
//! - `get`: one `ReadRows` with a `RowSet` of the keys;
//! - `write`: one `MutateRows` ([`Batch`]); every failed entry is reported in
//!   [`Error::Write`], the others were written; a delete is `DeleteFromRow`;
//! - `apply`: the trait's default — each step one `MutateRows` after the other, then the
//!   checkpoint, each finished before the next starts. Bigtable applies each row atomically and
//!   the rows of a request independently, so a crash leaves any subset of one step: for an
//!   index that only ever leaves extra index rows, which verified reads skip and the scrub
//!   removes ([`rowkey::index`]); for a migration the next run re-writes at most one batch,
//!   with the same cells.
//!
//! Reads must see every write that returned before them: use an app profile with
//! single-cluster routing on a replicated instance (the emulator and single-cluster instances
//! are consistent).
//!
//! # Blocking
//!
//! The port is synchronous and `bigtable_rs` is async: the store blocks on its futures with the
//! Tokio runtime [`Handle`] it was given. Use it on a thread that may block —
//! [`tokio::task::spawn_blocking`], or a plain thread outside the runtime — **never inside an
//! async task** (Tokio panics: "Cannot start a runtime from within a runtime").
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
//! # async fn demo(client: rowkey_bigtable::Client) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! use rowkey::index::{Index, Indexed};
//! use rowkey_bigtable::store::BigtableStore;
//!
//! let by_buyer = Index::non_unique("by_buyer", |o: &Order| ByBuyer { buyer: o.buyer, ts: o.ts })?;
//! BigtableStore::create_tables(&client, "orders", &["orders_by_buyer"], "checkpoints").await?;
//! let store = BigtableStore::new(tokio::runtime::Handle::current(), &client.table("orders"), &client.table("checkpoints"))
//!     .index("by_buyer", &client.table("orders_by_buyer"));
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
//!
//! A migration in place, 16 → 32 salt buckets:
//!
//! ```no_run
//! # use rowkey::RowKey;
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V16 { #[salt(buckets = 16)] id: u64, ts: u64 }
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V32 { #[salt(buckets = 32)] id: u64, ts: u64 }
//! # impl From<V16> for V32 { fn from(v: V16) -> V32 { V32 { id: v.id, ts: v.ts } } }
//! # async fn demo(client: rowkey_bigtable::Client) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! use rowkey::migrate::Migration;
//! use rowkey_bigtable::store::BigtableStore;
//!
//! BigtableStore::create_checkpoint_table(&client, "checkpoints").await?;
//! let store = BigtableStore::new(
//!     tokio::runtime::Handle::current(),
//!     &client.table("events"),
//!     &client.table("checkpoints"),
//! )
//! .whole_rows();
//! // The migration blocks on Bigtable requests: run it on a blocking thread.
//! let verified = tokio::task::spawn_blocking(move || {
//!     let m = Migration::<_, V16, V32, _>::from_into(&store).name("events-16-to-32").batch_size(1000);
//!     m.run(|p| println!("{p}"))?;
//!     let verified = m.verify()?;
//!     m.retire_source(&verified, |p| println!("{p}"))?;
//!     Ok::<_, rowkey::migrate::MigrateError<rowkey_bigtable::Error>>(verified)
//! })
//! .await??;
//! println!("{}", verified.report());
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::future::Future;

use bigtable_rs::google::bigtable::v2::read_rows_request::RequestStatsView;
use bigtable_rs::google::bigtable::v2::{
    mutation, row_range, Mutation, ReadRowsRequest, RowRange, RowSet,
};
use futures_util::StreamExt;
use rowkey::store::{KeyValue, Store, Table as StoreTable, Write};
use tokio::runtime::Handle;

use crate::read::RawRow;
use crate::{Batch, Cell, Client, Error, RowCell, Table};

/// The column family of a one-cell value (and of the tables [`BigtableStore::create_tables`]
/// creates).
pub const FAMILY: &str = "r";
/// The column that holds a one-cell value.
pub const QUALIFIER: &[u8] = b"v";
/// The column family of the checkpoint table.
pub const CHECKPOINT_FAMILY: &str = "m";
/// The column of a checkpoint.
pub const CHECKPOINT_QUALIFIER: &[u8] = b"checkpoint";

/// The prefix of a scrub's checkpoint name (`rowkey::index::Scrub`'s); a scrub's row never
/// moved.
const SCRUB_PREFIX: &str = "index-scrub/";

/// A table's store on Bigtable: see the [module docs](self).
///
/// ```no_run
/// # async fn demo(client: rowkey_bigtable::Client) -> Result<(), rowkey_bigtable::Error> {
/// use rowkey::store::Table;
/// use rowkey_bigtable::store::BigtableStore;
///
/// // a v1 table copied into a new v2 table; checkpoints in the table "checkpoints"
/// BigtableStore::create_checkpoint_table(&client, "checkpoints").await?;
/// let store = BigtableStore::new(
///     tokio::runtime::Handle::current(),
///     &client.table("events_v1"),
///     &client.table("checkpoints"),
/// )
/// .destination(&client.table("events_v2"))
/// .whole_rows();
/// assert_eq!(store.table(&Table::Destination)?.id(), "events_v2");
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct BigtableStore {
    handle: Handle,
    base: Table,
    destination: Table,
    indexes: HashMap<String, Table>,
    checkpoints: Table,
    whole_rows: bool,
}

impl core::fmt::Debug for BigtableStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut indexes: Vec<(&str, &str)> = self
            .indexes
            .iter()
            .map(|(n, t)| (n.as_str(), t.id()))
            .collect();
        indexes.sort_unstable();
        f.debug_struct("BigtableStore")
            .field("base", &self.base.id())
            .field("destination", &self.destination.id())
            .field("indexes", &indexes)
            .field("checkpoints", &self.checkpoints.id())
            .field("whole_rows", &self.whole_rows)
            .finish_non_exhaustive()
    }
}

impl BigtableStore {
    /// The base table `base` with its checkpoints in `checkpoints` (family
    /// [`CHECKPOINT_FAMILY`]); values in one cell ([`FAMILY`]`:`[`QUALIFIER`]); a migration's
    /// destination is the base table. `handle` is the runtime the client's requests run on.
    pub fn new(handle: Handle, base: &Table, checkpoints: &Table) -> Self {
        BigtableStore {
            handle,
            base: base.clone(),
            destination: base.clone(),
            indexes: HashMap::new(),
            checkpoints: checkpoints.clone(),
            whole_rows: false,
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

    /// Create a table for checkpoints (family [`CHECKPOINT_FAMILY`], not pre-split). Async:
    /// call it before handing the store to a blocking thread.
    ///
    /// # Errors
    ///
    /// As [`Admin::create_table`](crate::Admin::create_table) (`AlreadyExists` when it exists).
    pub async fn create_checkpoint_table(client: &Client, table_id: &str) -> Result<(), Error> {
        client
            .admin()
            .await?
            .create_table(table_id, &[CHECKPOINT_FAMILY], &[])
            .await
    }

    /// The Bigtable table of a store table.
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
                    "no Bigtable table for index {name:?}: add it with BigtableStore::index"
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

    /// A stored row as a store row: its one cell, or all of its cells.
    fn value(&self, table: &Table, key: &[u8], cells: Vec<RowCell>) -> Result<Vec<u8>, Error> {
        if self.whole_rows {
            return Ok(encode_cells(&cells));
        }
        cell_value(cells, FAMILY, QUALIFIER).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "row {} of table {} has no cell {FAMILY}:{}: this store keeps a value in that \
                 one cell (to migrate rows with other columns, use BigtableStore::whole_rows)",
                rowkey::hbase::to_string_binary(key),
                table.id(),
                String::from_utf8_lossy(QUALIFIER)
            ))
        })
    }

    /// Add a put to `batch`: the one cell, or every cell of the blob at its own timestamp.
    fn put(&self, batch: &mut Batch, table: &Table, key: &[u8], value: &[u8]) -> Result<(), Error> {
        if !self.whole_rows {
            batch.push(
                table,
                key.to_vec(),
                set_one(FAMILY, QUALIFIER, value.to_vec()),
            );
            return Ok(());
        }
        let cells = decode_cells(value)?;
        if cells.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "row {} has no cells to write",
                rowkey::hbase::to_string_binary(key)
            )));
        }
        batch.put_raw(
            table,
            key.to_vec(),
            cells
                .into_iter()
                .map(|c| Cell::new(c.family_name, c.qualifier, c.value).at(c.timestamp_micros)),
        );
        Ok(())
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

/// Serialize a row's cells into one blob: for each cell, the family (u16 big-endian length,
/// bytes), qualifier (u32 length, bytes), timestamp in µs (i64 big-endian) and value (u32
/// length, bytes), in a canonical order — by family, qualifier, then newest first — so that
/// the same cells always give the same blob (the server does not keep the order of families:
/// the emulator returns them in a different order from one read to the next). Labels are not
/// kept.
///
/// ```
/// use rowkey_bigtable::store::{decode_cells, encode_cells};
/// use rowkey_bigtable::RowCell;
///
/// let cells = vec![RowCell {
///     family_name: "d".into(),
///     qualifier: b"v".to_vec(),
///     value: b"42".to_vec(),
///     timestamp_micros: 1_000,
///     labels: vec![],
/// }];
/// let blob = encode_cells(&cells);
/// let back = decode_cells(&blob)?;
/// assert_eq!((back[0].family_name.as_str(), back[0].timestamp_micros), ("d", 1_000));
/// assert_eq!(encode_cells(&back), blob);
/// # Ok::<(), rowkey_bigtable::Error>(())
/// ```
pub fn encode_cells(cells: &[RowCell]) -> Vec<u8> {
    let size: usize = cells
        .iter()
        .map(|c| 2 + c.family_name.len() + 4 + c.qualifier.len() + 8 + 4 + c.value.len())
        .sum();
    let mut sorted: Vec<&RowCell> = cells.iter().collect();
    sorted.sort_by(|a, b| {
        (&a.family_name, &a.qualifier, b.timestamp_micros, &a.value).cmp(&(
            &b.family_name,
            &b.qualifier,
            a.timestamp_micros,
            &b.value,
        ))
    });
    let mut out = Vec::with_capacity(size);
    for c in sorted {
        // Family names are at most 64 characters and cells at most 100 MB (Bigtable's limits);
        // saturating keeps this total for anything else, and decode_cells then refuses it.
        let family = u16::try_from(c.family_name.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&family.to_be_bytes());
        out.extend_from_slice(c.family_name.as_bytes());
        out.extend_from_slice(&len32(c.qualifier.len()).to_be_bytes());
        out.extend_from_slice(&c.qualifier);
        out.extend_from_slice(&c.timestamp_micros.to_be_bytes());
        out.extend_from_slice(&len32(c.value.len()).to_be_bytes());
        out.extend_from_slice(&c.value);
    }
    out
}

fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Read a blob written by [`encode_cells`].
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the byte offset where the blob is cut short or the family
/// name is not UTF-8.
pub fn decode_cells(blob: &[u8]) -> Result<Vec<RowCell>, Error> {
    let mut cells = Vec::new();
    let mut at = 0usize;
    let bad = |what: &str, at: usize| {
        Error::InvalidArgument(format!(
            "cell blob of {} bytes: {what} at byte {at}",
            blob.len()
        ))
    };
    let take = |at: &mut usize, n: usize, what: &str| -> Result<&[u8], Error> {
        let end = at
            .checked_add(n)
            .filter(|&e| e <= blob.len())
            .ok_or_else(|| bad(&format!("{what} cut short"), *at))?;
        let s = blob.get(*at..end).ok_or_else(|| bad(what, *at))?;
        *at = end;
        Ok(s)
    };
    while at < blob.len() {
        let n = u16::from_be_bytes(arr(take(&mut at, 2, "family length")?));
        let start = at;
        let family = String::from_utf8(take(&mut at, usize::from(n), "family")?.to_vec())
            .map_err(|_| bad("family name is not UTF-8", start))?;
        let n = u32::from_be_bytes(arr(take(&mut at, 4, "qualifier length")?));
        let qualifier = take(&mut at, n as usize, "qualifier")?.to_vec();
        let ts = i64::from_be_bytes(arr(take(&mut at, 8, "timestamp")?));
        let n = u32::from_be_bytes(arr(take(&mut at, 4, "value length")?));
        let value = take(&mut at, n as usize, "value")?.to_vec();
        cells.push(RowCell {
            family_name: family,
            qualifier,
            value,
            timestamp_micros: ts,
            labels: Vec::new(),
        });
    }
    Ok(cells)
}

/// A slice of known length as an array (the callers take exactly `N` bytes).
fn arr<const N: usize>(s: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    for (d, b) in a.iter_mut().zip(s) {
        *d = *b;
    }
    a
}

impl Store for BigtableStore {
    type Error = Error;

    fn scan(
        &self,
        table: &StoreTable,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<KeyValue>, Error> {
        // rows_limit 0 means "no limit" to Bigtable, and an empty range is refused: answer both
        // without a request.
        if limit == 0 || stop.is_some_and(|s| s <= start) {
            return Ok(Vec::new());
        }
        let table = self.table(table)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(table, range_set(start, stop), limit, reverse)?
            .into_iter()
            .map(|(key, cells)| {
                let value = self.value(table, &key, cells)?;
                Ok((key, value))
            })
            .collect()
    }

    fn get(&self, table: &StoreTable, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        // An empty RowSet means the whole table to Bigtable: never send one.
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let table = self.table(table)?;
        let rows = RowSet {
            row_keys: keys.to_vec(),
            row_ranges: Vec::new(),
        };
        let mut found: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
        for (key, cells) in self.read(table, rows, 0, false)? {
            let value = self.value(table, &key, cells)?;
            found.insert(key, value);
        }
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
                Write::Put { key, value, .. } => self.put(&mut batch, table, key, value)?,
                Write::Delete { key, .. } => {
                    batch.delete_raw(table, key.clone());
                }
            }
        }
        self.block(batch.apply()).map(drop)
    }

    /// The checkpoint's row `<base table>/<name>`; for a migration without one, the row
    /// `<name>` the migration store of the earlier layout wrote (read, never written: the next
    /// checkpoint goes to the new row, which is read first from then on).
    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Error> {
        let row = self.checkpoint_row(name);
        let mut row_keys = vec![row.clone()];
        let legacy = (!name.starts_with(SCRUB_PREFIX)).then(|| name.as_bytes().to_vec());
        row_keys.extend(legacy.clone());
        let rows = RowSet {
            row_keys,
            row_ranges: Vec::new(),
        };
        let mut found = self.read(&self.checkpoints, rows, 0, false)?;
        found.sort_by_key(|(key, _)| *key != row);
        Ok(found
            .into_iter()
            .filter(|(key, _)| *key == row || Some(key) == legacy.as_ref())
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

    fn same_table(&self) -> bool {
        self.base.name() == self.destination.name()
    }
}

/// The `RowSet` of the one range `[start, stop)` (`start` empty: from the table's start; `stop`
/// `None`: to its end).
pub(crate) fn range_set(start: &[u8], stop: Option<&[u8]>) -> RowSet {
    let range = RowRange {
        start_key: (!start.is_empty()).then(|| row_range::StartKey::StartKeyClosed(start.to_vec())),
        end_key: stop.map(|s| row_range::EndKey::EndKeyOpen(s.to_vec())),
    };
    RowSet {
        row_keys: Vec::new(),
        row_ranges: vec![range],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_and_refuse_short_blobs() {
        let cells = vec![
            RowCell {
                family_name: "a".into(),
                qualifier: vec![],
                value: vec![1, 2, 3],
                timestamp_micros: -1,
                labels: vec![],
            },
            RowCell {
                family_name: "bb".into(),
                qualifier: b"q\0".to_vec(),
                value: vec![],
                timestamp_micros: 1_700_000_000_000_000,
                labels: vec![],
            },
        ];
        let blob = encode_cells(&cells);
        let back = decode_cells(&blob).expect("decode");
        assert_eq!(back.len(), 2);
        assert_eq!(
            (
                back[1].family_name.as_str(),
                &back[1].qualifier[..],
                back[1].timestamp_micros
            ),
            ("bb", &b"q\0"[..], 1_700_000_000_000_000)
        );
        assert_eq!(encode_cells(&back), blob);
        assert_eq!(decode_cells(&[]).expect("empty").len(), 0);
        let first = encode_cells(&cells[..1]).len();
        for cut in (1..blob.len()).filter(|&c| c != first) {
            let e = decode_cells(&blob[..cut]).expect_err("cut short");
            assert!(e.to_string().contains("at byte"), "{e}");
        }
    }
}
