//! Typed batch writes: puts and deletes of `T: RowKey` rows, with every failed entry reported.

use rowkey::RowKey;

use crate::thrift::{TColumnValue, TDelete, TPut, TTHBaseServiceSyncClient};
use crate::{Error, FailedWrite, Outcome, Table, WriteFailures};

/// One cell to write: `family:qualifier = value`, at the server's time unless
/// [`at`](Cell::at) gives one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    family: Vec<u8>,
    qualifier: Vec<u8>,
    value: Vec<u8>,
    timestamp: Option<i64>,
}

impl Cell {
    /// A cell of column `family:qualifier`.
    ///
    /// ```
    /// use rowkey_hbase::Cell;
    /// let cell = Cell::new("o", "amount", "1999").at(1_700_000_000_000);
    /// assert_eq!(cell, Cell::new("o", b"amount".to_vec(), b"1999".to_vec()).at(1_700_000_000_000));
    /// ```
    pub fn new(
        family: impl AsRef<[u8]>,
        qualifier: impl AsRef<[u8]>,
        value: impl AsRef<[u8]>,
    ) -> Cell {
        Cell {
            family: family.as_ref().to_vec(),
            qualifier: qualifier.as_ref().to_vec(),
            value: value.as_ref().to_vec(),
            timestamp: None,
        }
    }

    /// Write the cell with this timestamp (milliseconds since the Unix epoch) instead of the
    /// server's time: a repeated write then writes the same cell.
    #[must_use]
    pub fn at(mut self, timestamp_ms: i64) -> Cell {
        self.timestamp = Some(timestamp_ms);
        self
    }

    pub(crate) fn family(&self) -> &[u8] {
        &self.family
    }

    pub(crate) fn qualifier(&self) -> &[u8] {
        &self.qualifier
    }

    pub(crate) fn value(&self) -> &[u8] {
        &self.value
    }

    pub(crate) fn timestamp(&self) -> Option<i64> {
        self.timestamp
    }

    fn into_thrift(self) -> TColumnValue {
        TColumnValue::new(
            self.family,
            self.qualifier,
            self.value,
            self.timestamp,
            None,
            None,
        )
    }
}

#[derive(Debug)]
enum Op {
    Put(Vec<TColumnValue>),
    Delete,
}

#[derive(Debug)]
struct Entry {
    table: Table,
    key: Vec<u8>,
    op: Op,
}

/// A batch of puts and deletes, over one or more tables, applied in order.
///
/// HBase has no multi-row transactions: entries are sent as `putMultiple`/`deleteMultiple`
/// calls, one per run of same-kind entries of one table, in the order they were added.
///
/// # When a call fails
///
/// [`apply`](Batch::apply) reports every entry that was not written, or is not known to have
/// been, with an [`Outcome`]: [`Failed`](Outcome::Failed) (HBase did not apply it) or
/// [`Unknown`](Outcome::Unknown). No entry is ever sent twice when that could write it twice:
///
/// - HBase refused the call (`TIOError`: a missing or disabled table, an unknown family, a
///   region that stayed unavailable through the gateway's own retries). HBase says how many of
///   the call's entries failed, not which — the others **were applied**. Entries that cannot
///   succeed are found without writing (a missing table, a family the table does not have); when
///   they account for every failure HBase counted, the rest are known to be written. Otherwise,
///   a put whose cells all carry a timestamp ([`Cell::at`]) is sent again alone (writing it
///   twice writes it once), so it ends written or `Failed`; a put at the server's time and a
///   delete are **not** sent again (a second version; a second delete would also remove what
///   another writer put in between) and are reported `Unknown` — unless HBase failed every entry
///   of the call, when they are `Failed`.
/// - The connection broke or timed out after the call was sent: its entries are `Unknown`
///   (timestamped puts were already retried on a fresh connection, see [`Client`]). The next
///   call opens a new connection.
///
/// ```no_run
/// # fn demo(table: rowkey_hbase::Table) -> Result<(), rowkey_hbase::Error> {
/// use rowkey_hbase::{Batch, Cell, Error, Outcome};
///
/// let mut batch = Batch::new();
/// batch.put_raw(&table, b"row-1".to_vec(), [Cell::new("f", "q", "v")]);
/// batch.delete_raw(&table, b"row-2".to_vec());
/// match batch.apply() {
///     Ok(n) => println!("{n} entries written"),
///     Err(Error::Write(w)) => {
///         for f in &w.failed {
///             match f.outcome {
///                 Outcome::Failed => println!("entry {} was not written: {}", f.index, f.message),
///                 _ => println!("entry {} may have been written: read it first", f.index),
///             }
///         }
///     }
///     Err(e) => return Err(e),
/// }
/// # Ok(()) }
/// ```
///
/// [`Client`]: crate::Client
#[derive(Debug, Default)]
pub struct Batch {
    entries: Vec<Entry>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Put `cells` into the row of `key`.
    ///
    /// # Errors
    ///
    /// The key does not encode ([`Error::Encode`], naming the field); nothing is added.
    pub fn put<T: RowKey>(
        &mut self,
        table: &Table,
        key: &T,
        cells: impl IntoIterator<Item = Cell>,
    ) -> Result<&mut Batch, Error> {
        let k = key.to_row_key()?;
        Ok(self.put_raw(table, k.to_vec(), cells))
    }

    /// Put `cells` into the row `key` (bytes as they are).
    pub fn put_raw(
        &mut self,
        table: &Table,
        key: Vec<u8>,
        cells: impl IntoIterator<Item = Cell>,
    ) -> &mut Batch {
        let cells = cells.into_iter().map(Cell::into_thrift).collect();
        self.entries.push(Entry {
            table: table.clone(),
            key,
            op: Op::Put(cells),
        });
        self
    }

    /// Delete the whole row of `key`.
    ///
    /// # Errors
    ///
    /// The key does not encode; nothing is added.
    pub fn delete<T: RowKey>(&mut self, table: &Table, key: &T) -> Result<&mut Batch, Error> {
        let k = key.to_row_key()?;
        Ok(self.delete_raw(table, k.to_vec()))
    }

    /// Delete the whole row `key`.
    pub fn delete_raw(&mut self, table: &Table, key: Vec<u8>) -> &mut Batch {
        self.entries.push(Entry {
            table: table.clone(),
            key,
            op: Op::Delete,
        });
        self
    }

    /// Entries in the batch.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the batch is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Send the batch. Returns the number of entries written.
    ///
    /// # Errors
    ///
    /// [`Error::Write`] listing every entry that was not, or is not known to have been, written
    /// — each with its [`Outcome`] and HBase's message (see [the type docs](Batch)); the
    /// entries not listed were written.
    pub fn apply(self) -> Result<usize, Error> {
        let mut report = Report::default();
        let total = self.entries.len();
        let mut i = 0;
        while i < total {
            let head = &self.entries[i];
            let is_put = matches!(head.op, Op::Put(_));
            let mut j = i + 1;
            while j < total
                && matches!(self.entries[j].op, Op::Put(_)) == is_put
                && self.entries[j].table.name() == head.table.name()
            {
                j += 1;
            }
            let run = &self.entries[i..j];
            let sent = if is_put {
                put_run(run)
            } else {
                // HBase 2's gateway returns no refused deletes (it throws instead); an older one
                // may list them
                delete_run(run).map(|refused| {
                    for (k, e) in run.iter().enumerate() {
                        if refused.iter().any(|d| d.row == e.key) {
                            report.fail(
                                e,
                                i + k,
                                Outcome::Failed,
                                "HBase could not apply this delete",
                            );
                        } else {
                            report.written += 1;
                        }
                    }
                })
            };
            match sent {
                Ok(()) if is_put => report.written += run.len(),
                Ok(()) => {}
                Err(Error::Server(m)) => refused_run(run, i, m.message(), &mut report),
                Err(other) => {
                    let m = format!("the call broke off: {other}");
                    for (k, e) in run.iter().enumerate() {
                        report.fail(e, i + k, Outcome::Unknown, &m);
                    }
                }
            }
            i = j;
        }
        if report.failed.is_empty() {
            Ok(report.written)
        } else {
            report.failed.sort_by_key(|f| f.index);
            Err(Error::Write(WriteFailures {
                written: report.written,
                failed: report.failed,
            }))
        }
    }
}

/// What [`Batch::apply`] found so far.
#[derive(Default)]
struct Report {
    written: usize,
    failed: Vec<FailedWrite>,
}

impl Report {
    fn fail(&mut self, e: &Entry, index: usize, outcome: Outcome, message: &str) {
        self.failed.push(FailedWrite {
            table: e.table.name().to_string(),
            index,
            key: e.key.clone(),
            outcome,
            message: message.to_string(),
        });
    }
}

/// The entries of a run (`first` is the batch index of its first entry) whose call HBase
/// refused with `message`: what is known of each, and the timestamped puts whose fate is not
/// known sent again alone. See [`Batch`]'s docs.
fn refused_run(run: &[Entry], first: usize, message: &str, report: &mut Report) {
    let Some(head) = run.first() else { return };
    let counted = failed_actions(message);
    // entries that cannot have been applied, found without writing
    let doomed: Vec<bool> = match head
        .table
        .client()
        .call(|c| c.get_table_descriptor(crate::table_name(head.table.name())))
    {
        Ok(desc) => {
            let families: Vec<Vec<u8>> = desc
                .columns
                .unwrap_or_default()
                .into_iter()
                .map(|f| f.name)
                .collect();
            run.iter()
                .map(|e| match &e.op {
                    Op::Put(cells) => cells.iter().any(|c| !families.contains(&c.family)),
                    Op::Delete => false,
                })
                .collect()
        }
        // the table is not there: nothing of the run can have been applied
        Err(Error::Server(m)) if is_table_not_found(m.message()) || is_table_not_found(message) => {
            vec![true; run.len()]
        }
        Err(_) => vec![false; run.len()],
    };
    let known = doomed.iter().filter(|d| **d).count();
    // HBase counted every entry as failed, or the doomed entries are all it counted
    let all_failed = counted == Some(run.len()) || known == run.len();
    let rest_written = !all_failed && counted == Some(known);
    for (k, e) in run.iter().enumerate() {
        let index = first + k;
        if doomed[k] || all_failed {
            report.fail(e, index, Outcome::Failed, message);
        } else if rest_written {
            report.written += 1;
        } else if timestamped(e) {
            // idempotent: find out by sending it again, alone
            match put_one(e) {
                Ok(()) => report.written += 1,
                Err(Error::Server(m)) => report.fail(e, index, Outcome::Failed, m.message()),
                Err(other) => report.fail(
                    e,
                    index,
                    Outcome::Unknown,
                    &format!("{message}; sent again alone, the call broke off: {other}"),
                ),
            }
        } else {
            report.fail(
                e,
                index,
                Outcome::Unknown,
                &format!(
                    "{message} (HBase refused the call this entry was part of without saying \
                     which entries failed; not sent again)"
                ),
            );
        }
    }
}

/// How many of a call's actions failed, from HBase's `RetriesExhaustedWithDetailsException`
/// message (`Failed 3 actions: …`, `Failed 1 action: …`).
fn failed_actions(message: &str) -> Option<usize> {
    let at = message.find("Failed ")?;
    let rest = message.get(at + "Failed ".len()..)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = rest.get(digits.len()..)?;
    if !after.starts_with(" action") {
        return None;
    }
    digits.parse().ok()
}

/// Whether HBase's message says the table does not exist.
fn is_table_not_found(message: &str) -> bool {
    message.contains("TableNotFoundException")
}

fn tput(e: &Entry) -> TPut {
    let cells = match &e.op {
        Op::Put(c) => c.clone(),
        Op::Delete => Vec::new(),
    };
    TPut::new(e.key.clone(), cells, None, None, None, None)
}

/// A put whose cells all carry their timestamp: sending it twice writes the same cells.
fn timestamped(e: &Entry) -> bool {
    match &e.op {
        Op::Put(cells) => cells.iter().all(|c| c.timestamp.is_some()),
        Op::Delete => false,
    }
}

fn put_run(run: &[Entry]) -> Result<(), Error> {
    let Some(first) = run.first() else {
        return Ok(());
    };
    let name = first.table.name().as_bytes().to_vec();
    let puts: Vec<TPut> = run.iter().map(tput).collect();
    let client = first.table.client();
    if run.iter().all(timestamped) {
        client.call(|c| c.put_multiple(name.clone(), puts.clone()))
    } else {
        client.call_once(|c| c.put_multiple(name.clone(), puts.clone()))
    }
}

fn put_one(e: &Entry) -> Result<(), Error> {
    let name = e.table.name().as_bytes().to_vec();
    if timestamped(e) {
        e.table.client().call(|c| c.put(name.clone(), tput(e)))
    } else {
        e.table.client().call_once(|c| c.put(name.clone(), tput(e)))
    }
}

fn delete_run(run: &[Entry]) -> Result<Vec<TDelete>, Error> {
    let Some(first) = run.first() else {
        return Ok(Vec::new());
    };
    let name = first.table.name().as_bytes().to_vec();
    let deletes: Vec<TDelete> = run
        .iter()
        .map(|e| TDelete::new(e.key.clone(), None, None, None, None, None))
        .collect();
    first
        .table
        .client()
        .call_once(|c| c.delete_multiple(name.clone(), deletes.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hbase_counts_the_failed_actions_of_a_call() {
        // RetriesExhaustedWithDetailsException's message, as the gateway passes it on
        let m = "org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException: Failed 10 \
                 actions: NotServingRegionException: 10 times, servers with issues: \
                 localhost,16020,1";
        assert_eq!(failed_actions(m), Some(10));
        assert_eq!(
            failed_actions("Failed 1 action: Column family x does not exist: 1 time, "),
            Some(1)
        );
        assert_eq!(failed_actions("Failed to connect"), None);
        assert_eq!(failed_actions("Failed 3 attempts"), None);
        assert_eq!(
            failed_actions("org.apache.hadoop.hbase.TableNotFoundException: t"),
            None
        );
        assert_eq!(
            failed_actions("Failed 99999999999999999999999 actions"),
            None
        );
    }

    #[test]
    fn a_missing_table_is_named_by_its_exception() {
        assert!(is_table_not_found(
            "org.apache.hadoop.hbase.TableNotFoundException: wf_no_such_table"
        ));
        assert!(!is_table_not_found("TableNotEnabledException: wf_disabled"));
    }
}
