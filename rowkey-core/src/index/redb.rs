//! Moved: [`rowkey::store::RedbStore`](crate::store::RedbStore) (the same constructor,
//! `RedbStore::new(&db, base)`).

/// Moved: [`rowkey::store::RedbStore`](crate::store::RedbStore).
#[deprecated(note = "use rowkey::store::RedbStore")]
pub type RedbStore<'db> = crate::store::RedbStore<'db>;
