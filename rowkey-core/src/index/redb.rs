//! The [`Store`] for [redb](https://docs.rs/redb) (feature `redb`): the base table and each
//! index table are redb tables of `&[u8]` → `&[u8]`; every put, delete and batch is **one
//! transaction**, so the tables never disagree.

use ::redb::{Database, ReadableDatabase, TableDefinition, TableError};

use super::store::{Row, Store, Table, Write};

/// The table of scrub checkpoints, keyed `"<base table>/<checkpoint name>"`.
pub const CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
    TableDefinition::new("rowkey_index_checkpoints");

/// An indexed table in one redb database: the base table `name` and one table
/// `"<name>.<index>"` per index.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use rowkey::index::{redb::RedbStore, Table};
///
/// let db = redb::Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
/// let store = RedbStore::new(&db, "orders");
/// assert_eq!(store.table_name(&Table::Base), "orders");
/// assert_eq!(store.table_name(&Table::Index("by_buyer".into())), "orders.by_buyer");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RedbStore<'db> {
    db: &'db Database,
    name: &'db str,
}

impl<'db> RedbStore<'db> {
    /// The tables of `name` in `db`.
    pub fn new(db: &'db Database, name: &'db str) -> Self {
        RedbStore { db, name }
    }

    /// The redb table name of a table.
    pub fn table_name(&self, table: &Table) -> String {
        match table {
            Table::Base => self.name.to_owned(),
            Table::Index(index) => format!("{}.{index}", self.name),
        }
    }

    /// `writes` in one transaction.
    fn commit<'w>(&self, writes: impl Iterator<Item = &'w Write>) -> Result<(), ::redb::Error> {
        let tx = self.db.begin_write()?;
        for w in writes {
            let name = self.table_name(w.table());
            let mut t = tx.open_table(TableDefinition::<&[u8], &[u8]>::new(&name))?;
            match w {
                Write::Put { key, value, .. } => {
                    t.insert(key.as_slice(), value.as_slice())?;
                }
                Write::Delete { key, .. } => {
                    t.remove(key.as_slice())?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }
}

impl Store for RedbStore<'_> {
    type Error = ::redb::Error;

    fn scan(
        &self,
        table: &Table,
        start: &[u8],
        stop: Option<&[u8]>,
        limit: usize,
        reverse: bool,
    ) -> Result<Vec<Row>, Self::Error> {
        let name = self.table_name(table);
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(TableDefinition::<&[u8], &[u8]>::new(&name)) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        if stop.is_some_and(|s| s <= start) {
            return Ok(Vec::new());
        }
        let range = match stop {
            Some(stop) => t.range::<&[u8]>(start..stop)?,
            None => t.range::<&[u8]>(start..)?,
        };
        let mut rows = Vec::with_capacity(limit.min(4096));
        let mut push = |row: Result<_, ::redb::StorageError>| -> Result<(), Self::Error> {
            let (k, v): (::redb::AccessGuard<&[u8]>, ::redb::AccessGuard<&[u8]>) = row?;
            rows.push((k.value().to_vec(), v.value().to_vec()));
            Ok(())
        };
        if reverse {
            for row in range.rev().take(limit) {
                push(row)?;
            }
        } else {
            for row in range.take(limit) {
                push(row)?;
            }
        }
        Ok(rows)
    }

    fn get(&self, table: &Table, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, Self::Error> {
        let name = self.table_name(table);
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(TableDefinition::<&[u8], &[u8]>::new(&name)) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(vec![None; keys.len()]),
            Err(e) => return Err(e.into()),
        };
        keys.iter()
            .map(|k| Ok(t.get(k.as_slice())?.map(|v| v.value().to_vec())))
            .collect()
    }

    fn write(&self, writes: &[Write]) -> Result<(), Self::Error> {
        self.commit(writes.iter())
    }

    /// Every step in one transaction.
    fn apply(&self, steps: &[Vec<Write>]) -> Result<(), Self::Error> {
        self.commit(steps.iter().flatten())
    }

    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error> {
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(CHECKPOINTS) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let key = format!("{}/{name}", self.name);
        Ok(t.get(key.as_str())?.map(|v| v.value().to_vec()))
    }

    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error> {
        let tx = self.db.begin_write()?;
        {
            let mut t = tx.open_table(CHECKPOINTS)?;
            let key = format!("{}/{name}", self.name);
            t.insert(key.as_str(), blob)?;
        }
        tx.commit()?;
        Ok(())
    }
}
