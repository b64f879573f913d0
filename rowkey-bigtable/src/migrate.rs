//! A [`rowkey::migrate::Store`] over Bigtable: re-key a table from one key layout to another
//! (16 → 32 salt buckets, a v1 → v2 layout) with [`rowkey::migrate::Migration`] — batched,
//! resumable from a checkpoint row, verified, with a dual read — on Cloud Bigtable or the
//! emulator.
//!
//! # What the store does
//!
//! A Bigtable row is many cells, a migration row is `(key, value)`: the store's value is
//! **every cell of the row** — family, qualifier, timestamp and value — serialized into one
//! blob ([`encode_cells`]; [`decode_cells`] reads it back, e.g. the `value` of a
//! [`DualRow`](rowkey::migrate::DualRow)). So the copy keeps the whole row, timestamps
//! included, and verification checksums all of it.
//!
//! - `scan`: one `ReadRows` request with one row range (`start_key_closed`, `end_key_open`)
//!   and `rows_limit`;
//! - `put`: `MutateRows` of `SetCell`s with the copied timestamps (never server time), so a
//!   retried or repeated batch writes the same cells; every entry that failed is reported in
//!   [`Error::Write`] (nothing is dropped, and the migration stops before its checkpoint);
//! - `delete`: `MutateRows` with `DeleteFromRow`;
//! - `get`: one `ReadRows` with a `RowSet` of the keys;
//! - the checkpoint: one cell (`CHECKPOINT_FAMILY:CHECKPOINT_QUALIFIER`, timestamp 0) in the row
//!   named after the migration in a **checkpoint table** of its own (create it with a family
//!   [`CHECKPOINT_FAMILY`], see [`BigtableStore::create_checkpoint_table`]), so neither side's
//!   scan ever sees it;
//! - `apply`: the trait's default — puts, then deletes, then the checkpoint, each durable before
//!   the next starts. Bigtable has no multi-row transactions; this order is what makes a crash
//!   at any point safe (the next run re-writes at most one batch, with the same cells).
//!
//! A put writes cells into the destination row; it does not delete cells already there (a
//! cell with the same column and timestamp is replaced). A destination row that holds other
//! cells as well — written by the service, say — makes [`Migration::verify`] report a
//! mismatch rather than hiding it.
//!
//! Reads must see every write that returned before them: use an app profile with single-cluster
//! routing on a replicated instance (the emulator and single-cluster instances are consistent).
//!
//! # Blocking
//!
//! The `Store` trait is synchronous and `bigtable_rs` is async: the store blocks on its futures
//! with the Tokio runtime [`Handle`] it was given. Run the migration on a thread that may block
//! — [`tokio::task::spawn_blocking`], or a plain thread outside the runtime — **never inside an
//! async task** (Tokio panics: "Cannot start a runtime from within a runtime").
//!
//! ```no_run
//! # use rowkey::RowKey;
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V16 { #[salt(buckets = 16)] id: u64, ts: u64 }
//! # #[derive(RowKey, Debug, Clone, PartialEq)] struct V32 { #[salt(buckets = 32)] id: u64, ts: u64 }
//! # impl From<V16> for V32 { fn from(v: V16) -> V32 { V32 { id: v.id, ts: v.ts } } }
//! # async fn demo(client: rowkey_bigtable::Client) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! use rowkey::migrate::Migration;
//! use rowkey_bigtable::migrate::BigtableStore;
//!
//! BigtableStore::create_checkpoint_table(&client, "migrations").await?;
//! let store = BigtableStore::same_table(
//!     tokio::runtime::Handle::current(),
//!     &client.table("events"),
//!     &client.table("migrations"),
//!     "events-16-to-32",
//! );
//! // The migration blocks on Bigtable requests: run it on a blocking thread.
//! let verified = tokio::task::spawn_blocking(move || {
//!     let m = Migration::<_, V16, V32, _>::from_into(&store).batch_size(1000);
//!     m.run(|p| println!("{p}"))?;
//!     let verified = m.verify()?;
//!     m.retire_source(&verified, |p| println!("{p}"))?;
//!     Ok::<_, rowkey::migrate::MigrateError<rowkey_bigtable::Error>>(verified)
//! })
//! .await??;
//! println!("{}", verified.report());
//! # Ok(()) }
//! ```
//!
//! [`Migration::verify`]: rowkey::migrate::Migration::verify

use std::collections::HashMap;
use std::future::Future;

use bigtable_rs::google::bigtable::v2::read_rows_request::RequestStatsView;
use bigtable_rs::google::bigtable::v2::{
    mutation, row_range, Mutation, ReadRowsRequest, RowRange, RowSet,
};
use futures_util::StreamExt;
use rowkey::migrate::{Row as MigrateRow, Side, Store};
use tokio::runtime::Handle;

use crate::read::RawRow;
use crate::{Batch, Cell, Client, Error, RowCell, Table};

/// The column family of the checkpoint table.
pub const CHECKPOINT_FAMILY: &str = "m";

/// The column of the checkpoint cell.
pub const CHECKPOINT_QUALIFIER: &[u8] = b"checkpoint";

/// A migration's tables on Bigtable: a source and a destination table (or one table for both),
/// and a checkpoint row in a table of checkpoints. See the [module docs](self).
///
/// ```no_run
/// # async fn demo(client: rowkey_bigtable::Client) -> Result<(), rowkey_bigtable::Error> {
/// use rowkey_bigtable::migrate::{BigtableStore, CHECKPOINT_FAMILY, CHECKPOINT_QUALIFIER};
///
/// // a v1 table copied into a new v2 table; the checkpoint is the cell
/// // `m:checkpoint` of row "events-v1-to-v2" in the table "migrations"
/// client.admin().await?.create_table("migrations", &[CHECKPOINT_FAMILY], &[]).await?;
/// let store = BigtableStore::two_tables(
///     tokio::runtime::Handle::current(),
///     &client.table("events_v1"),
///     &client.table("events_v2"),
///     &client.table("migrations"),
///     "events-v1-to-v2",
/// );
/// assert_eq!((store.source().id(), store.destination().id()), ("events_v1", "events_v2"));
/// assert_eq!(CHECKPOINT_QUALIFIER, b"checkpoint");
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct BigtableStore {
    handle: Handle,
    source: Table,
    destination: Table,
    checkpoints: Table,
    name: Vec<u8>,
}

impl core::fmt::Debug for BigtableStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BigtableStore")
            .field("source", &self.source.id())
            .field("destination", &self.destination.id())
            .field("checkpoints", &self.checkpoints.id())
            .field("name", &String::from_utf8_lossy(&self.name))
            .finish_non_exhaustive()
    }
}

impl BigtableStore {
    /// Re-key `table` in place. The checkpoint is the row `name` of `checkpoints` (a table with
    /// the family [`CHECKPOINT_FAMILY`]); `handle` is the runtime the client's requests run on.
    pub fn same_table(handle: Handle, table: &Table, checkpoints: &Table, name: &str) -> Self {
        BigtableStore::two_tables(handle, table, table, checkpoints, name)
    }

    /// Copy `source` into `destination` under the new layout; otherwise as
    /// [`same_table`](Self::same_table).
    pub fn two_tables(
        handle: Handle,
        source: &Table,
        destination: &Table,
        checkpoints: &Table,
        name: &str,
    ) -> Self {
        BigtableStore {
            handle,
            source: source.clone(),
            destination: destination.clone(),
            checkpoints: checkpoints.clone(),
            name: name.as_bytes().to_vec(),
        }
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

    fn block<F: Future>(&self, f: F) -> F::Output {
        self.handle.block_on(f)
    }

    /// All rows of one `ReadRows` request, as `(key, cells)`.
    fn read(&self, table: &Table, rows: RowSet, limit: i64) -> Result<Vec<RawRow>, Error> {
        let request = ReadRowsRequest {
            table_name: table.name().to_owned(),
            app_profile_id: table.app_profile().to_owned(),
            rows: Some(rows),
            rows_limit: limit,
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
}

/// Serialize a row's cells into one blob: for each cell, the family (u16 big-endian length,
/// bytes), qualifier (u32 length, bytes), timestamp in µs (i64 big-endian) and value (u32
/// length, bytes), in a canonical order — by family, qualifier, then newest first — so that
/// the same cells always give the same blob (the server does not keep the order of families:
/// the emulator returns them in a different order from one read to the next). Labels are not
/// kept.
///
/// ```
/// use rowkey_bigtable::migrate::{decode_cells, encode_cells};
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

    fn same_table(&self) -> bool {
        self.source.name() == self.destination.name()
    }

    fn scan(
        &self,
        side: Side,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<MigrateRow>, Error> {
        // rows_limit 0 means "no limit" to Bigtable, and an empty range is refused: answer both
        // without a request.
        if limit == 0 || stop.is_some_and(|s| s <= start) {
            return Ok(Vec::new());
        }
        let rows = range_set(start, stop);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self
            .read(self.table(side), rows, limit)?
            .into_iter()
            .map(|(key, cells)| (key, encode_cells(&cells)))
            .collect())
    }

    fn put(&self, rows: &[MigrateRow]) -> Result<(), Error> {
        let mut batch = Batch::new();
        for (key, blob) in rows {
            let cells = decode_cells(blob)?;
            if cells.is_empty() {
                return Err(Error::InvalidArgument(format!(
                    "row {} has no cells to write",
                    rowkey::hbase::to_string_binary(key)
                )));
            }
            batch.put_raw(
                &self.destination,
                key.clone(),
                cells
                    .into_iter()
                    .map(|c| Cell::new(c.family_name, c.qualifier, c.value).at(c.timestamp_micros)),
            );
        }
        self.block(batch.apply()).map(drop)
    }

    fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Error> {
        let mut batch = Batch::new();
        for key in keys {
            batch.delete_raw(&self.source, key.clone());
        }
        self.block(batch.apply()).map(drop)
    }

    fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Error> {
        let rows = RowSet {
            row_keys: vec![self.name.clone()],
            row_ranges: Vec::new(),
        };
        Ok(self
            .read(&self.checkpoints, rows, 0)?
            .into_iter()
            .filter(|(key, _)| *key == self.name)
            .flat_map(|(_, cells)| cells)
            .filter(|c| c.family_name == CHECKPOINT_FAMILY && c.qualifier == CHECKPOINT_QUALIFIER)
            .max_by_key(|c| c.timestamp_micros)
            .map(|c| c.value))
    }

    fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Error> {
        // One cell, replaced atomically: delete the column, set it at timestamp 0.
        let mutations = vec![
            Mutation {
                mutation: Some(mutation::Mutation::DeleteFromColumn(
                    mutation::DeleteFromColumn {
                        family_name: CHECKPOINT_FAMILY.to_owned(),
                        column_qualifier: CHECKPOINT_QUALIFIER.to_vec(),
                        time_range: None,
                    },
                )),
            },
            Mutation {
                mutation: Some(mutation::Mutation::SetCell(mutation::SetCell {
                    family_name: CHECKPOINT_FAMILY.to_owned(),
                    column_qualifier: CHECKPOINT_QUALIFIER.to_vec(),
                    timestamp_micros: 0,
                    value: blob.to_vec(),
                })),
            },
        ];
        let mut batch = Batch::new();
        batch.push(&self.checkpoints, self.name.clone(), mutations);
        self.block(batch.apply()).map(drop)
    }

    fn get(&self, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        // An empty RowSet means the whole table to Bigtable: never send one.
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let rows = RowSet {
            row_keys: keys.to_vec(),
            row_ranges: Vec::new(),
        };
        let found: HashMap<Vec<u8>, Vec<u8>> = self
            .read(&self.destination, rows, 0)?
            .into_iter()
            .map(|(key, cells)| (key, encode_cells(&cells)))
            .collect();
        Ok(keys.iter().map(|k| found.get(k).cloned()).collect())
    }
}

/// The `RowSet` of the one range `[start, stop)` (`start` empty: from the table's start; `stop`
/// `None`: to its end). Shared with the index store.
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
