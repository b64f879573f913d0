//! The storage that migrations and index tables run on: one small, synchronous port
//! ([`Store`]) over named tables ([`Table`]), with row writes ([`Write`]) applied in steps and
//! named checkpoint blobs.
//!
//! ```toml
//! [dependencies]
//! # the port: with `migrate` (which `index` turns on); RedbStore also needs `redb`
//! rowkey = { version = "0.1", features = ["migrate", "redb"] }
//! ```
//!
//! One store serves every operation of a table: [`Indexed`](crate::index::Indexed) reads and
//! writes the base table and one table per index, and [`Migration`](crate::migrate::Migration)
//! copies the base table into the destination table (which may be the base table itself: see
//! [`Store::same_table`]). The `redb` feature implements it for
//! [redb](https://docs.rs/redb) (`RedbStore`); `rowkey-hbase` and `rowkey-bigtable` implement
//! it once each over their servers.
//!
//! ```
//! # #[cfg(feature = "redb")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use rowkey::store::{RedbStore, Store, Table, Write};
//!
//! let db = redb::Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
//! let store = RedbStore::new(&db, "orders").destination("orders_v2");
//! store.write(&[Write::Put { table: Table::Base, key: b"k1".to_vec(), value: b"v1".to_vec() }])?;
//! assert_eq!(store.get(&Table::Base, &[b"k1".to_vec(), b"k2".to_vec()])?, [Some(b"v1".to_vec()), None]);
//! assert!(store.scan(&Table::Destination, b"", None, 10, false)?.is_empty());
//! assert!(!store.same_table());
//! # Ok(()) }
//! # #[cfg(not(feature = "redb"))]
//! # fn main() {}
//! ```

mod pager;
mod port;
#[cfg(feature = "redb")]
mod redb;

pub(crate) use pager::Pager;
pub use port::{KeyValue, Store, Table, Write};
#[cfg(feature = "redb")]
pub use redb::{RedbStore, CHECKPOINTS, LEGACY_INDEX_CHECKPOINTS, LEGACY_MIGRATE_CHECKPOINTS};
