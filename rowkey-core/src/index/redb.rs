//! Moved: [`rowkey::store::RedbStore`](crate::store::RedbStore) (the same constructor,
//! `RedbStore::new(&db, base)`).

pub use crate::store::RedbStore;
