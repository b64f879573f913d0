//! A tiny ordered key-value store on redb (the embedded default store of the examples and
//! integration tests): bytes in, `[start, stop)` range scans out — what an HBase/Bigtable table
//! does with row keys, on one machine.
#![allow(dead_code)]

use redb::{backends::InMemoryBackend, Database, ReadableDatabase, TableDefinition};
use rowkey::{ScanRange, ScanRanges};

const ROWS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("rows");

pub type Row = (Vec<u8>, Vec<u8>);

pub struct Store {
    db: Database,
    path: Option<std::path::PathBuf>,
}

impl Store {
    /// A store in a file under the temp directory, removed on drop.
    pub fn temp(name: &str) -> Result<Store, redb::Error> {
        let path = std::env::temp_dir().join(format!("rowkey-{name}-{}.redb", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let db = Database::create(&path)?;
        Ok(Store {
            db,
            path: Some(path),
        })
    }

    /// A store in memory.
    pub fn in_memory() -> Result<Store, redb::Error> {
        let db = Database::builder().create_with_backend(InMemoryBackend::new())?;
        Ok(Store { db, path: None })
    }

    /// Insert rows in one write transaction.
    pub fn put_all<K: AsRef<[u8]>, V: AsRef<[u8]>>(
        &self,
        rows: impl IntoIterator<Item = (K, V)>,
    ) -> Result<usize, redb::Error> {
        let txn = self.db.begin_write()?;
        let mut n = 0;
        {
            let mut t = txn.open_table(ROWS)?;
            for (k, v) in rows {
                t.insert(k.as_ref(), v.as_ref())?;
                n += 1;
            }
        }
        txn.commit()?;
        Ok(n)
    }

    /// The rows of one `[start, stop)` range, in key order.
    pub fn scan(&self, range: &ScanRange) -> Result<Vec<Row>, redb::Error> {
        use std::ops::Bound;
        let txn = self.db.begin_read()?;
        let t = match txn.open_table(ROWS) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        let bounds: (Bound<&[u8]>, Bound<&[u8]>) = (
            Bound::Included(range.start()),
            range.stop().map_or(Bound::Unbounded, Bound::Excluded),
        );
        let mut out = Vec::new();
        for row in t.range::<&[u8]>(bounds)? {
            let (k, v) = row?;
            out.push((k.value().to_vec(), v.value().to_vec()));
        }
        Ok(out)
    }

    /// One result list per range (a fanned-out scan), each in key order.
    pub fn scan_each(&self, ranges: &ScanRanges) -> Result<Vec<Vec<Row>>, redb::Error> {
        ranges.iter().map(|r| self.scan(r)).collect()
    }

    /// Every row, in key order.
    pub fn all(&self) -> Result<Vec<Row>, redb::Error> {
        self.scan(&ScanRange::new(b"", None))
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        if let Some(p) = &self.path {
            let _ = std::fs::remove_file(p);
        }
    }
}
