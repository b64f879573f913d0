//! Typed batch writes through `MutateRows`, with every failed entry reported.

use std::time::{SystemTime, UNIX_EPOCH};

use bigtable_rs::google::bigtable::v2::{
    mutate_rows_request::Entry, mutation, MutateRowsRequest, Mutation,
};
use futures_util::StreamExt;
use rowkey::RowKey;

use crate::{Error, FailedWrite, Table, WriteFailures};

/// One cell to write: `family:qualifier = value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    family: String,
    qualifier: Vec<u8>,
    value: Vec<u8>,
    timestamp_micros: Option<i64>,
}

impl Cell {
    /// A cell in column `family:qualifier`, timestamped when it is added to a batch.
    pub fn new(
        family: impl Into<String>,
        qualifier: impl AsRef<[u8]>,
        value: impl AsRef<[u8]>,
    ) -> Cell {
        Cell {
            family: family.into(),
            qualifier: qualifier.as_ref().to_vec(),
            value: value.as_ref().to_vec(),
            timestamp_micros: None,
        }
    }

    /// With an explicit timestamp in microseconds (Bigtable tables keep millisecond
    /// granularity: use a multiple of 1000).
    pub fn at(mut self, timestamp_micros: i64) -> Cell {
        self.timestamp_micros = Some(timestamp_micros);
        self
    }
}

/// Now, in microseconds, rounded down to the millisecond (Bigtable's default granularity).
fn now_micros() -> i64 {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    i64::try_from(ms).unwrap_or(i64::MAX / 1000) * 1000
}

struct Pending {
    /// Index into `Batch::tables`.
    table: usize,
    entry: Entry,
}

/// A batch of row writes and deletes, over one or more tables, sent with `MutateRows` (one
/// request per table and at most [`Batch::MAX_MUTATIONS`] mutations; the requests run
/// concurrently).
///
/// A dual write — one record under several key types, each in its own index table — is one
/// batch:
///
/// ```no_run
/// # use rowkey::RowKey;
/// # #[derive(RowKey)] struct OrderByNo { #[hash_prefix(4)] order_no: String }
/// # #[derive(RowKey)] struct OrderByBuyer { #[hash_prefix(4)] buyer_id: u64, #[reverse_ts] created_ms: i64, #[sep] order_no: String }
/// # async fn demo(orders: rowkey_bigtable::Table, by_buyer: rowkey_bigtable::Table) -> Result<(), rowkey_bigtable::Error> {
/// use rowkey_bigtable::{Batch, Cell, Error};
///
/// let mut batch = Batch::new();
/// batch.put(&orders, &OrderByNo { order_no: "A-17".into() }, [Cell::new("o", "amount", "1999")])?;
/// batch.put(&by_buyer, &OrderByBuyer { buyer_id: 7, created_ms: 1_700_000_000_000, order_no: "A-17".into() }, [Cell::new("o", "", "")])?;
/// match batch.apply().await {
///     Ok(written) => assert_eq!(written, 2),
///     Err(Error::Write(failures)) => {
///         for f in &failures.failed {
///             eprintln!("not written: {f}"); // table, batch index, key, status
///         }
///     }
///     Err(other) => return Err(other),
/// }
/// # Ok(()) }
/// ```
#[derive(Default)]
pub struct Batch {
    tables: Vec<Table>,
    entries: Vec<Pending>,
}

impl core::fmt::Debug for Batch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Batch")
            .field(
                "tables",
                &self.tables.iter().map(Table::id).collect::<Vec<_>>(),
            )
            .field("entries", &self.entries.len())
            .finish()
    }
}

impl Batch {
    /// Bigtable's limit of mutations in one `MutateRows` request.
    pub const MAX_MUTATIONS: usize = 100_000;

    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Entries so far.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn table_index(&mut self, table: &Table) -> usize {
        match self.tables.iter().position(|t| t.name() == table.name()) {
            Some(i) => i,
            None => {
                self.tables.push(table.clone());
                self.tables.len() - 1
            }
        }
    }

    /// Write `cells` to the row `key` of `table`.
    ///
    /// # Errors
    ///
    /// The key does not encode (the entry is not added).
    pub fn put<T: RowKey>(
        &mut self,
        table: &Table,
        key: &T,
        cells: impl IntoIterator<Item = Cell>,
    ) -> Result<&mut Batch, Error> {
        let key = key.to_row_key()?;
        Ok(self.put_raw(table, key.to_vec(), cells))
    }

    /// [`put`](Batch::put) with an encoded row key.
    pub fn put_raw(
        &mut self,
        table: &Table,
        key: Vec<u8>,
        cells: impl IntoIterator<Item = Cell>,
    ) -> &mut Batch {
        let now = now_micros();
        let mutations = cells
            .into_iter()
            .map(|c| Mutation {
                mutation: Some(mutation::Mutation::SetCell(mutation::SetCell {
                    family_name: c.family,
                    column_qualifier: c.qualifier,
                    timestamp_micros: c.timestamp_micros.unwrap_or(now),
                    value: c.value,
                })),
            })
            .collect();
        self.push(table, key, mutations)
    }

    /// Delete the whole row `key` of `table`.
    ///
    /// # Errors
    ///
    /// The key does not encode (the entry is not added).
    pub fn delete<T: RowKey>(&mut self, table: &Table, key: &T) -> Result<&mut Batch, Error> {
        let key = key.to_row_key()?;
        Ok(self.delete_raw(table, key.to_vec()))
    }

    /// [`delete`](Batch::delete) with an encoded row key.
    pub fn delete_raw(&mut self, table: &Table, key: Vec<u8>) -> &mut Batch {
        let m = Mutation {
            mutation: Some(mutation::Mutation::DeleteFromRow(
                mutation::DeleteFromRow {},
            )),
        };
        self.push(table, key, vec![m])
    }

    pub(crate) fn push(
        &mut self,
        table: &Table,
        key: Vec<u8>,
        mutations: Vec<Mutation>,
    ) -> &mut Batch {
        let table = self.table_index(table);
        self.entries.push(Pending {
            table,
            entry: Entry {
                row_key: key,
                mutations,
                idempotency: None,
            },
        });
        self
    }

    /// Send the batch. Returns the number of entries written.
    ///
    /// Bigtable applies each entry (row) atomically and independently: some can fail while
    /// others succeed. Entries that fail with a transient status (`Unavailable`,
    /// `DeadlineExceeded`, `Aborted`, a reset stream or connection — a request that failed
    /// whole fails each of its entries with its status) are sent again, only they, after a
    /// growing pause, within the client's retry budget
    /// ([`Client::with_retry_for`](crate::Client::with_retry_for)), when they are idempotent:
    /// every cell timestamped ([`Cell`]s always are), no aggregate. The entries still failing
    /// then, and every entry that failed otherwise, are listed in [`Error::Write`] with their
    /// batch index, key and status (the message says when retries gave up) — an entry the
    /// server gave no status for counts as failed.
    ///
    /// # Errors
    ///
    /// [`Error::Write`] when any entry failed.
    pub async fn apply(self) -> Result<usize, Error> {
        let Batch { tables, entries } = self;
        // Requests: per table, chunks of at most MAX_MUTATIONS mutations, remembering each
        // entry's batch index.
        let mut requests: Vec<(usize, Vec<usize>, Vec<Entry>)> = Vec::new();
        let mut open: Vec<Option<usize>> = vec![None; tables.len()];
        let mut counts: Vec<usize> = Vec::new();
        for (index, Pending { table, entry }) in entries.into_iter().enumerate() {
            let n = entry.mutations.len().max(1);
            let slot = open.get_mut(table);
            let current = slot.as_ref().and_then(|s| **s);
            let fits = current
                .and_then(|r| counts.get(r))
                .is_some_and(|&c| c + n <= Self::MAX_MUTATIONS);
            let r = match (current, fits) {
                (Some(r), true) => r,
                _ => {
                    requests.push((table, Vec::new(), Vec::new()));
                    counts.push(0);
                    let r = requests.len() - 1;
                    if let Some(slot) = slot {
                        *slot = Some(r);
                    }
                    r
                }
            };
            if let (Some(req), Some(c)) = (requests.get_mut(r), counts.get_mut(r)) {
                req.1.push(index);
                req.2.push(entry);
                *c += n;
            }
        }
        let sends = requests.into_iter().filter_map(|(t, indices, entries)| {
            let table = tables.get(t)?.clone();
            Some(send(table, indices, entries))
        });
        let results = futures_util::future::join_all(sends).await;
        let mut written = 0;
        let mut failed = Vec::new();
        for (ok, bad) in results {
            written += ok;
            failed.extend(bad);
        }
        if failed.is_empty() {
            Ok(written)
        } else {
            failed.sort_by_key(|f| f.index);
            Err(Error::Write(WriteFailures { written, failed }))
        }
    }
}

/// How one entry of a `MutateRows` attempt ended.
enum Outcome {
    Written,
    /// Failed with this status (the entry's own, or the request's when it failed whole).
    Failed(tonic::Status),
}

/// The entries of one table's `MutateRows` request: written, or failed. Entries that failed
/// with a transient status and are idempotent are sent again (only they), after a pause,
/// until the table's retry budget is spent; the others are reported at once.
async fn send(table: Table, indices: Vec<usize>, entries: Vec<Entry>) -> (usize, Vec<FailedWrite>) {
    let mut attempts = crate::retry::Attempts::new(table.retry());
    let mut pending: Vec<(usize, Entry)> = indices.into_iter().zip(entries).collect();
    let mut written = 0;
    let mut failed = Vec::new();
    let failure = |index: usize, key: Vec<u8>, status: &tonic::Status, note: &str| FailedWrite {
        table: table.id().to_owned(),
        index,
        key,
        code: status.code(),
        message: format!("{}{note}", status.message()),
    };
    loop {
        let outcomes = attempt(&table, pending.iter().map(|(_, e)| e.clone()).collect()).await;
        let mut again = Vec::new();
        let mut progress = false;
        for ((index, entry), outcome) in pending.into_iter().zip(outcomes) {
            match outcome {
                Outcome::Written => {
                    written += 1;
                    progress = true;
                }
                Outcome::Failed(status)
                    if crate::retry::retryable(&status)
                        && crate::retry::idempotent(&entry.mutations) =>
                {
                    again.push((index, entry, status));
                }
                Outcome::Failed(status) => failed.push(failure(index, entry.row_key, &status, "")),
            }
        }
        if again.is_empty() {
            break;
        }
        if progress {
            attempts.progress();
        }
        let now = std::time::Instant::now();
        match attempts.failed(now) {
            Some(pause) => {
                crate::retry::pause(pause).await;
                pending = again.into_iter().map(|(i, e, _)| (i, e)).collect();
            }
            None => {
                let note = format!(
                    " (MutateRows gave up after {} attempts, failing for {:?}: retry budget {:?})",
                    attempts.made(),
                    attempts.spent(now),
                    attempts.budget()
                );
                for (index, entry, status) in again {
                    failed.push(failure(index, entry.row_key, &status, &note));
                }
                break;
            }
        }
    }
    (written, failed)
}

/// One `MutateRows` attempt: how each entry ended, in order.
async fn attempt(table: &Table, entries: Vec<Entry>) -> Vec<Outcome> {
    let n = entries.len();
    let request = MutateRowsRequest {
        table_name: table.name().to_owned(),
        app_profile_id: table.app_profile().to_owned(),
        entries,
        ..MutateRowsRequest::default()
    };
    let as_status = |e: bigtable_rs::bigtable::Error| match e {
        bigtable_rs::bigtable::Error::RpcError(s) => s,
        e @ (bigtable_rs::bigtable::Error::TransportError(_)
        | bigtable_rs::bigtable::Error::IoError(_)) => tonic::Status::unavailable(e.to_string()),
        other => tonic::Status::unknown(Error::from(other).to_string()),
    };
    let mut bt = table.bigtable();
    let mut stream = match bt.mutate_rows(request).await {
        Ok(s) => s,
        Err(e) => {
            let status = as_status(e);
            return (0..n).map(|_| Outcome::Failed(status.clone())).collect();
        }
    };
    // status per entry: None = not reported yet
    let mut status: Vec<Option<Outcome>> = (0..n).map(|_| None).collect();
    let mut stream_error: Option<tonic::Status> = None;
    while let Some(msg) = stream.next().await {
        match msg {
            Ok(resp) => {
                for e in resp.entries {
                    let outcome = match e.status {
                        Some(s) if s.code != 0 => Outcome::Failed(tonic::Status::new(
                            tonic::Code::from_i32(s.code),
                            s.message,
                        )),
                        _ => Outcome::Written,
                    };
                    if let Some(slot) = usize::try_from(e.index)
                        .ok()
                        .and_then(|i| status.get_mut(i))
                    {
                        *slot = Some(outcome);
                    }
                }
            }
            Err(s) => {
                stream_error = Some(s);
                break;
            }
        }
    }
    status
        .into_iter()
        .map(|s| match (s, &stream_error) {
            (Some(outcome), _) => outcome,
            (None, Some(e)) => Outcome::Failed(e.clone()),
            (None, None) => Outcome::Failed(tonic::Status::unknown(
                "the server returned no status for this entry",
            )),
        })
        .collect()
}
