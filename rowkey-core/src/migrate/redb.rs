//! Moved: [`rowkey::store::RedbStore`](crate::store::RedbStore). The constructors changed:
//! `RedbStore::same_table(&db, table, name)` is `RedbStore::new(&db, table)` with
//! [`Migration::name`](crate::migrate::Migration::name)`(name)`, and
//! `RedbStore::two_tables(&db, source, destination, name)` is
//! `RedbStore::new(&db, source).destination(destination)` with the same.

/// Moved: [`rowkey::store::RedbStore`](crate::store::RedbStore).
#[deprecated(note = "use rowkey::store::RedbStore")]
pub type RedbStore<'db> = crate::store::RedbStore<'db>;
