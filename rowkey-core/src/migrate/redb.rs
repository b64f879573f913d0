//! The [`Store`] for [redb](https://docs.rs/redb) tables of `&[u8]` keys and `&[u8]` values
//! (feature `redb`): each batch and its checkpoint are written in one transaction.

use ::redb::{Database, ReadableDatabase, TableDefinition, TableError};

use super::{Batch, Row, Side, Store};

/// The table of checkpoints, keyed by migration name.
pub const CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
    TableDefinition::new("rowkey_migrate_checkpoints");

/// A migration's tables in one redb database: a source and a destination table (or one
/// table for both) of `&[u8]` → `&[u8]`, and a checkpoint under the migration's name in
/// [`CHECKPOINTS`].
#[derive(Debug, Clone, Copy)]
pub struct RedbStore<'db> {
    db: &'db Database,
    source: &'db str,
    destination: &'db str,
    name: &'db str,
}

impl<'db> RedbStore<'db> {
    /// Re-key `table` in place; `name` identifies the migration's checkpoint.
    pub fn same_table(db: &'db Database, table: &'db str, name: &'db str) -> Self {
        RedbStore {
            db,
            source: table,
            destination: table,
            name,
        }
    }

    /// Copy `source` into `destination` under the new layout.
    pub fn two_tables(
        db: &'db Database,
        source: &'db str,
        destination: &'db str,
        name: &'db str,
    ) -> Self {
        RedbStore {
            db,
            source,
            destination,
            name,
        }
    }

    fn def(&self, side: Side) -> TableDefinition<'db, &'static [u8], &'static [u8]> {
        TableDefinition::new(match side {
            Side::Source => self.source,
            Side::Destination => self.destination,
        })
    }

    fn write(
        &self,
        puts: &[Row],
        deletes: &[Vec<u8>],
        checkpoint: Option<&[u8]>,
    ) -> Result<(), ::redb::Error> {
        let tx = self.db.begin_write()?;
        if !puts.is_empty() {
            let mut t = tx.open_table(self.def(Side::Destination))?;
            for (k, v) in puts {
                t.insert(k.as_slice(), v.as_slice())?;
            }
        }
        if !deletes.is_empty() {
            let mut t = tx.open_table(self.def(Side::Source))?;
            for k in deletes {
                t.remove(k.as_slice())?;
            }
        }
        if let Some(blob) = checkpoint {
            let mut t = tx.open_table(CHECKPOINTS)?;
            t.insert(self.name, blob)?;
        }
        tx.commit()?;
        Ok(())
    }
}

impl Store for RedbStore<'_> {
    type Error = ::redb::Error;

    fn same_table(&self) -> bool {
        self.source == self.destination
    }

    fn scan(
        &self,
        side: Side,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Row>, Self::Error> {
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(self.def(side)) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        let range = match stop {
            Some(stop) => t.range::<&[u8]>(start..stop)?,
            None => t.range::<&[u8]>(start..)?,
        };
        let mut rows = Vec::with_capacity(limit.min(4096));
        for row in range.take(limit) {
            let (k, v) = row?;
            rows.push((k.value().to_vec(), v.value().to_vec()));
        }
        Ok(rows)
    }

    fn put(&self, rows: &[Row]) -> Result<(), Self::Error> {
        self.write(rows, &[], None)
    }

    fn delete(&self, keys: &[Vec<u8>]) -> Result<(), Self::Error> {
        self.write(&[], keys, None)
    }

    fn load_checkpoint(&self) -> Result<Option<Vec<u8>>, Self::Error> {
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(CHECKPOINTS) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Ok(t.get(self.name)?.map(|v| v.value().to_vec()))
    }

    fn save_checkpoint(&self, blob: &[u8]) -> Result<(), Self::Error> {
        self.write(&[], &[], Some(blob))
    }

    fn get(&self, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(self.def(Side::Destination)) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(vec![None; keys.len()]),
            Err(e) => return Err(e.into()),
        };
        keys.iter()
            .map(|k| Ok(t.get(k.as_slice())?.map(|v| v.value().to_vec())))
            .collect()
    }

    /// Puts, deletes and the checkpoint in one transaction.
    fn apply(&self, batch: &Batch) -> Result<(), Self::Error> {
        self.write(&batch.puts, &batch.deletes, Some(&batch.checkpoint))
    }
}
