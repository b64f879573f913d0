//! The [`Store`] for [redb](https://docs.rs/redb) (feature `redb`): every table is a redb table
//! of `&[u8]` → `&[u8]`, and every write, step list and checkpoint is **one transaction**.

use ::redb::{Database, ReadableDatabase, ReadableTable, TableDefinition, TableError};

use super::port::{KeyValue, Store, Table, Write};

#[cfg(feature = "redb")] // (again: the badge of the re-export in `rowkey`)
/// The table of checkpoints, keyed `"<base table>/<checkpoint name>"`.
pub const CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
    TableDefinition::new("rowkey_checkpoints");

#[cfg(feature = "redb")] // (again: the badge of the re-export in `rowkey`)
/// Where migrations kept their checkpoints before [`CHECKPOINTS`]: keyed by the migration's
/// name alone (the `name` argument of the old `RedbStore::same_table`/`two_tables`).
///
/// Read, never written: a migration whose checkpoint is not in [`CHECKPOINTS`] resumes from
/// the entry under its [`Migration::name`](crate::migrate::Migration::name) here, and its
/// next checkpoint moves it (written to [`CHECKPOINTS`] and removed here, in one
/// transaction). A migration with no entry of its own here while the table still holds
/// entries **refuses to start** ([`load_checkpoint`](Store::load_checkpoint) fails naming
/// them): give it the old name to resume, or remove the entries to start over.
pub const LEGACY_MIGRATE_CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
    TableDefinition::new("rowkey_migrate_checkpoints");

#[cfg(feature = "redb")] // (again: the badge of the re-export in `rowkey`)
/// Where index scrubs kept their checkpoints before [`CHECKPOINTS`], under the same key
/// (`"<base table>/index-scrub/<index>"`). Read, never written: a scrub whose checkpoint is
/// not in [`CHECKPOINTS`] resumes from its entry here, and its next checkpoint moves it.
pub const LEGACY_INDEX_CHECKPOINTS: TableDefinition<'static, &str, &[u8]> =
    TableDefinition::new("rowkey_index_checkpoints");

/// The prefix of a scrub's checkpoint name (`index::Scrub`'s).
const SCRUB_PREFIX: &str = "index-scrub/";

#[cfg(feature = "redb")] // (again: the badge of the re-export in `rowkey`)
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
            let key = self.checkpoint_key(name);
            {
                let mut t = tx.open_table(CHECKPOINTS)?;
                t.insert(key.as_str(), blob)?;
            }
            // the checkpoint moves out of the old layout's tables, if it was there
            for (legacy, old_key) in [
                (LEGACY_MIGRATE_CHECKPOINTS, name),
                (LEGACY_INDEX_CHECKPOINTS, key.as_str()),
            ] {
                match tx.open_table(legacy) {
                    Ok(mut t) => {
                        t.remove(old_key)?;
                    }
                    Err(TableError::TableDoesNotExist(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// The entry `key` of `table`, if the table exists and has it.
fn read_entry(
    tx: &::redb::ReadTransaction,
    table: TableDefinition<'static, &str, &[u8]>,
    key: &str,
) -> Result<Option<Vec<u8>>, ::redb::Error> {
    match tx.open_table(table) {
        Ok(t) => Ok(t.get(key)?.map(|v| v.value().to_vec())),
        Err(TableError::TableDoesNotExist(_)) => Ok(None),
        Err(e) => Err(e.into()),
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
        let key = self.checkpoint_key(name);
        if let Some(blob) = read_entry(&tx, CHECKPOINTS, &key)? {
            return Ok(Some(blob));
        }
        // a checkpoint written before the layout changed: read the old names
        if name.starts_with(SCRUB_PREFIX) {
            return read_entry(&tx, LEGACY_INDEX_CHECKPOINTS, &key);
        }
        if let Some(blob) = read_entry(&tx, LEGACY_MIGRATE_CHECKPOINTS, name)? {
            return Ok(Some(blob));
        }
        let others = match tx.open_table(LEGACY_MIGRATE_CHECKPOINTS) {
            Ok(t) => t
                .iter()?
                .map(|e| e.map(|(k, _)| format!("{:?}", k.value())))
                .collect::<Result<Vec<_>, _>>()?,
            Err(TableError::TableDoesNotExist(_)) => Vec::new(),
            Err(e) => return Err(e.into()),
        };
        if others.is_empty() {
            return Ok(None);
        }
        Err(::redb::Error::Io(std::io::Error::other(format!(
            "the checkpoint {name:?} of table {:?} is not in rowkey_checkpoints, but the \
             redb table rowkey_migrate_checkpoints (the checkpoint layout before rowkey's \
             store reshape) holds the checkpoints of migrations started earlier: {}. Refusing \
             to start from the first row: to resume one of them, give this migration its \
             name (Migration::name); to start over, remove those entries from \
             rowkey_migrate_checkpoints",
            self.name,
            others.join(", ")
        ))))
    }

    fn save_checkpoint(&self, name: &str, blob: &[u8]) -> Result<(), Self::Error> {
        self.commit(core::iter::empty(), Some((name, blob)))
    }

    fn same_table(&self) -> bool {
        self.name == self.destination
    }
}
