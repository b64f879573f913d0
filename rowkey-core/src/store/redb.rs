//! The [`Store`] for [redb](https://docs.rs/redb) (feature `redb`): every table is a redb table
//! of `&[u8]` → `&[u8]`, and every write, step list and checkpoint is **one transaction**.

use ::redb::{Database, ReadableDatabase, TableDefinition, TableError};

use super::port::{KeyValue, Store, Table, Write};

/// The table of checkpoints, keyed `"<base table>/<checkpoint name>"`.
pub const CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
    TableDefinition::new("rowkey_checkpoints");

/// A table's store in one redb database: the base table `name`, one table `"<name>.<index>"`
/// per index, a migration's destination table (the base table unless
/// [`destination`](Self::destination) names another) and checkpoints in [`CHECKPOINTS`].
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use rowkey::store::{RedbStore, Store, Table};
///
/// let db = redb::Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
/// let store = RedbStore::new(&db, "orders");
/// assert_eq!(store.table_name(&Table::Base), "orders");
/// assert_eq!(store.table_name(&Table::Index("by_buyer".into())), "orders.by_buyer");
/// assert!(store.same_table()); // a migration re-keys "orders" in place
/// let copy = store.destination("orders_v2");
/// assert_eq!(copy.table_name(&Table::Destination), "orders_v2");
/// assert!(!copy.same_table());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RedbStore<'db> {
    db: &'db Database,
    name: &'db str,
    destination: &'db str,
}

impl<'db> RedbStore<'db> {
    /// The tables of `name` in `db`.
    pub fn new(db: &'db Database, name: &'db str) -> Self {
        RedbStore {
            db,
            name,
            destination: name,
        }
    }

    /// A migration's destination: the table `destination` (the base table by default, a
    /// migration in place).
    #[must_use]
    pub fn destination(mut self, destination: &'db str) -> Self {
        self.destination = destination;
        self
    }

    /// The redb table name of a table.
    pub fn table_name(&self, table: &Table) -> String {
        match table {
            Table::Base => self.name.to_owned(),
            Table::Index(index) => format!("{}.{index}", self.name),
            Table::Destination => self.destination.to_owned(),
        }
    }

    fn checkpoint_key(&self, name: &str) -> String {
        format!("{}/{name}", self.name)
    }

    /// `writes` and the checkpoint in one transaction.
    fn commit<'w>(
        &self,
        writes: impl Iterator<Item = &'w Write>,
        checkpoint: Option<(&str, &[u8])>,
    ) -> Result<(), ::redb::Error> {
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
        if let Some((name, blob)) = checkpoint {
            let mut t = tx.open_table(CHECKPOINTS)?;
            t.insert(self.checkpoint_key(name).as_str(), blob)?;
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
    ) -> Result<Vec<KeyValue>, Self::Error> {
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
        self.commit(writes.iter(), None)
    }

    /// Every step and the checkpoint in one transaction.
    fn apply(
        &self,
        steps: &[Vec<Write>],
        checkpoint: Option<(&str, &[u8])>,
    ) -> Result<(), Self::Error> {
        self.commit(steps.iter().flatten(), checkpoint)
    }

    fn load_checkpoint(&self, name: &str) -> Result<Option<Vec<u8>>, Self::Error> {
        let tx = self.db.begin_read()?;
        let t = match tx.open_table(CHECKPOINTS) {
            Ok(t) => t,
            Err(TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Ok(t.get(self.checkpoint_key(name).as_str())?
            .map(|v| v.value().to_vec()))
    }

    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error> {
        self.commit(core::iter::empty(), Some((name, blob)))
    }

    fn same_table(&self) -> bool {
        self.name == self.destination
    }
}
