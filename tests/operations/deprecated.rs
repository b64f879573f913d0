//! The deprecated names of items renamed or moved by the #34 reshape still compile and are the
//! new items (CONTRIBUTING.md, "Deprecation"; CHANGELOG.md, "Deprecated").
#![allow(deprecated)]

use rowkey::store::{KeyValue, RedbStore, Store as NewStore, Table as NewTable};

/// Generic code written against the old bound.
fn count_base<S: rowkey::index::Store>(store: &S) -> usize {
    store
        .scan(&NewTable::Base, b"", None, 100, false)
        .map(|rows| rows.len())
        .unwrap_or(0)
}

/// The same through the migration module's old bound.
fn has_checkpoint<S: rowkey::migrate::Store>(store: &S, name: &str) -> bool {
    matches!(store.load_checkpoint(name), Ok(Some(_)))
}

#[test]
fn the_old_names_are_the_new_items() {
    let db = redb::Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .unwrap();
    // rowkey::index::redb::RedbStore and rowkey::migrate::redb::RedbStore are the one store
    let old: rowkey::index::redb::RedbStore = RedbStore::new(&db, "t");
    let store: rowkey::migrate::redb::RedbStore = old;
    // index::{Table, Write, Row}, migrate::Row: the store's
    let write = rowkey::index::Write::Put {
        table: rowkey::index::Table::Base,
        key: b"k".to_vec(),
        value: b"v".to_vec(),
    };
    NewStore::write(&store, &[write]).unwrap();
    assert_eq!(count_base(&store), 1);
    let row: rowkey::index::Row = (b"k".to_vec(), b"v".to_vec());
    let same: rowkey::migrate::Row = row.clone();
    let new: KeyValue = same;
    assert_eq!(new, row);
    store.save_checkpoint("m", b"blob").unwrap();
    assert!(has_checkpoint(&store, "m"));

    // index::{Batch, Scan, Finding}: type names only (Scan is what Indexed::scan returns)
    fn _scan_type<'a, S, R: rowkey::index::Record, I>(s: rowkey::index::Scan<'a, S, R, I>) {
        let _: rowkey::index::IndexScan<'a, S, R, I> = s;
    }
    fn _batch_type<R: rowkey::index::Record>(
        b: rowkey::index::Batch<R>,
    ) -> rowkey::index::IndexBatch<R> {
        b
    }
    fn _finding_type(f: rowkey::index::Finding) -> rowkey::index::ScrubFinding {
        f
    }
    // struct_key::{Finding, FindingKind, Severity}
    fn _schema_types(
        f: rowkey::struct_key::Finding,
        k: rowkey::struct_key::FindingKind,
        s: rowkey::struct_key::Severity,
    ) -> (
        rowkey::struct_key::SchemaFinding,
        rowkey::struct_key::SchemaFindingKind,
        rowkey::struct_key::SchemaSeverity,
    ) {
        (f, k, s)
    }
}
