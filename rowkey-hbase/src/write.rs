//! Typed batch writes: puts and deletes of `T: RowKey` rows, with every failed entry reported.

use rowkey::RowKey;

use crate::thrift::{TColumnValue, TDelete, TPut, TTHBaseServiceSyncClient};
use crate::{Error, FailedWrite, Table, WriteFailures};

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
/// calls, one per run of same-kind entries of one table, in the order they were added. When
/// HBase refuses a `putMultiple` (a missing or disabled table, an unknown family), each of its
/// entries is put alone, so that [`Error::Write`] names exactly the entries that failed;
/// `deleteMultiple` reports its failed entries itself. When the connection breaks or times
/// out, the entries of that call are reported as "not known to be written" (puts and deletes
/// are idempotent: apply them again) and the next call opens a new connection.
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
    /// [`Error::Write`] listing every entry that was not (or not known to be) written, with
    /// HBase's message; the others were written.
    pub fn apply(self) -> Result<usize, Error> {
        let mut failed = Vec::new();
        let mut written = 0usize;
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
            if is_put {
                match put_run(run) {
                    Ok(()) => written += run.len(),
                    Err(Error::Server(_)) => {
                        // find exactly which entries HBase refuses
                        for (k, e) in run.iter().enumerate() {
                            match put_one(e) {
                                Ok(()) => written += 1,
                                Err(Error::Server(m)) => failed.push(failure(e, i + k, m)),
                                Err(other) => failed.push(failure(e, i + k, not_known(&other))),
                            }
                        }
                    }
                    Err(other) => fail_all(run, i, &not_known(&other), &mut failed),
                }
            } else {
                match delete_run(run) {
                    Ok(refused) => {
                        // HBase returns the deletes it could not apply
                        let mut refused = refused;
                        for (k, e) in run.iter().enumerate() {
                            if let Some(p) = refused.iter().position(|d| d.row == e.key) {
                                refused.swap_remove(p);
                                failed.push(failure(
                                    e,
                                    i + k,
                                    "HBase could not apply this delete".into(),
                                ));
                            } else {
                                written += 1;
                            }
                        }
                    }
                    Err(Error::Server(m)) => {
                        for (k, e) in run.iter().enumerate() {
                            failed.push(failure(e, i + k, m.clone()));
                        }
                    }
                    Err(other) => fail_all(run, i, &not_known(&other), &mut failed),
                }
            }
            i = j;
        }
        if failed.is_empty() {
            Ok(written)
        } else {
            Err(Error::Write(WriteFailures { written, failed }))
        }
    }
}

fn not_known(e: &Error) -> String {
    format!("not known to be written: {e}")
}

fn failure(e: &Entry, index: usize, message: String) -> FailedWrite {
    FailedWrite {
        table: e.table.name().to_string(),
        index,
        key: e.key.clone(),
        message,
    }
}

fn fail_all(run: &[Entry], first: usize, msg: &str, out: &mut Vec<FailedWrite>) {
    for (k, e) in run.iter().enumerate() {
        out.push(failure(e, first + k, msg.to_string()));
    }
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
