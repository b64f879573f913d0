//! Reads end to end (issue 14, item 3): a 16-bucket salted table in redb, read whole through
//! the fan-out `SimpleSalted::scan().ranges()`:
//!
//! - `raw`: redb's own range iterator over each range, touching every key and value (what an
//!   application gets without rowkey: salted bytes, bucket after bucket, unordered);
//! - `typed_unmerged`: the same, every key decoded with `SimpleSalted::from_row_key`;
//! - `typed_merged`: the typed merged reader `rowkey::read::Read` over the 16 iterators: merged
//!   back into logical key order, every key decoded.

use std::hint::black_box;
use std::ops::Bound;

use redb::backends::InMemoryBackend;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use rowkey::merge::merge;
use rowkey::read::Read;
use rowkey::{RowKey, ScanRange, ScanRanges};

use super::keys::*;

const ROWS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("rows");

/// Rows in the table (16 buckets).
pub const READ_ROWS: usize = 16_000;

/// The table: `READ_ROWS` `SimpleSalted` keys (spread over 16 buckets), 16-byte values.
pub fn read_db() -> Database {
    read_db_with(1)
}

/// As [`read_db`], but `READ_ROWS / 20` users with 20 rows each (a time series per user, all
/// in its user's bucket): the merged read meets runs of 20 rows from one range.
pub fn read_db_runs() -> Database {
    read_db_with(20)
}

fn read_db_with(rows_per_user: u64) -> Database {
    let db = Database::builder()
        .create_with_backend(InMemoryBackend::new())
        .unwrap();
    let txn = db.begin_write().unwrap();
    {
        let mut t = txn.open_table(ROWS).unwrap();
        for i in 0..READ_ROWS as u64 {
            let k = series_key(i, rows_per_user);
            let mut v = [0u8; 16];
            v[..8].copy_from_slice(&i.to_be_bytes());
            t.insert(&k.to_row_key().unwrap()[..], &v[..]).unwrap();
        }
    }
    txn.commit().unwrap();
    db
}

/// The scan read by every case: the 16-bucket fan-out over the whole table.
pub fn read_ranges() -> ScanRanges {
    SimpleSalted::scan().ranges()
}

fn bounds(r: &ScanRange) -> (Bound<&[u8]>, Bound<&[u8]>) {
    (
        Bound::Included(r.start()),
        r.stop().map_or(Bound::Unbounded, Bound::Excluded),
    )
}

/// One redb iterator per range, all open at once.
fn open_ranges<'a>(
    t: &'a redb::ReadOnlyTable<&'static [u8], &'static [u8]>,
    ranges: &ScanRanges,
) -> Vec<redb::Range<'a, &'static [u8], &'static [u8]>> {
    ranges
        .iter()
        .map(|r| t.range::<&[u8]>(bounds(r)).unwrap())
        .collect()
}

/// redb's own iterator, range after range: the bytes of every row. Returns the rows read.
pub fn raw(db: &Database, ranges: &ScanRanges) -> usize {
    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let mut n = 0;
    for r in ranges {
        for row in t.range::<&[u8]>(bounds(r)).unwrap() {
            let (k, v) = row.unwrap();
            black_box((k.value(), v.value()));
            n += 1;
        }
    }
    n
}

/// redb's own iterators, all ranges open at once and read in turn (round robin, no
/// comparisons): what interleaving 16 live iterators costs the store itself.
pub fn raw_interleaved(db: &Database, ranges: &ScanRanges) -> usize {
    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let mut its = open_ranges(&t, ranges);
    let mut n = 0;
    while !its.is_empty() {
        its.retain_mut(|it| match it.next() {
            Some(row) => {
                let (k, v) = row.unwrap();
                black_box((k.value(), v.value()));
                n += 1;
                true
            }
            None => false,
        });
    }
    n
}

/// As [`raw_interleaved`], but each iterator's row is held until that iterator is read again
/// (as any merge holds one row per range): round robin, no comparisons.
pub fn raw_interleaved_held(db: &Database, ranges: &ScanRanges) -> usize {
    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let mut its: Vec<_> = open_ranges(&t, ranges)
        .into_iter()
        .map(|it| (it, None))
        .collect();
    let mut n = 0;
    while !its.is_empty() {
        its.retain_mut(|(it, held)| match it.next() {
            Some(row) => {
                let (k, v) = row.unwrap();
                black_box((k.value(), v.value()));
                *held = Some((k, v));
                n += 1;
                true
            }
            None => false,
        });
    }
    n
}

/// As [`raw`], every key decoded (no merge).
pub fn typed_unmerged(db: &Database, ranges: &ScanRanges) -> usize {
    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let mut n = 0;
    for r in ranges {
        for row in t.range::<&[u8]>(bounds(r)).unwrap() {
            let (k, v) = row.unwrap();
            black_box((SimpleSalted::from_row_key(k.value()).unwrap(), v.value()));
            n += 1;
        }
    }
    n
}

/// A redb key guard as `AsRef<[u8]>`, so that the typed reader merges it in place.
struct Key<'a>(redb::AccessGuard<'a, &'static [u8]>);

impl AsRef<[u8]> for Key<'_> {
    fn as_ref(&self) -> &[u8] {
        self.0.value()
    }
}

/// The typed merged read: `rowkey::read::Read` over one redb iterator per range — merged into
/// logical key order after the 1-byte salt, every key decoded. Returns the rows and the keys in
/// read order when `keep` (for the correctness check).
pub fn typed_merged(
    db: &Database,
    ranges: &ScanRanges,
    mut keep: Option<&mut Vec<SimpleSalted>>,
) -> usize {
    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let read = Read::<SimpleSalted>::new(ranges.clone());
    let sources = read.ranges().iter().map(|r| {
        t.range::<&[u8]>(bounds(r))
            .unwrap()
            .map(|row| row.map(|(k, v)| (Key(k), v)))
    });
    let mut n = 0;
    for row in read.try_rows(sources) {
        let (key, v) = row.unwrap();
        if let Some(keep) = keep.as_deref_mut() {
            keep.push(key.clone());
        }
        black_box((key, v.value()));
        n += 1;
    }
    n
}

/// The merged read as one would write it by hand for this one key type: redb's iterators, each
/// key decoded by hand (`hand_decode_salted`), a `std::collections::BinaryHeap` of
/// `(user_id, ts, stream)` and the values held per stream — the peer of `typed_merged` (both
/// merge and decode; this one knows the key type and compares decoded integers).
pub fn hand_merged(db: &Database, ranges: &ScanRanges) -> usize {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let mut its = open_ranges(&t, ranges);
    type Guard<'a> = redb::AccessGuard<'a, &'static [u8]>;
    let mut values: Vec<Option<Guard<'_>>> = its.iter().map(|_| None).collect();
    // the next row of stream `i`: its value held, its decoded key (and `i`) for the heap
    fn pull<'a>(
        i: usize,
        it: &mut redb::Range<'a, &'static [u8], &'static [u8]>,
        values: &mut [Option<Guard<'a>>],
    ) -> Option<Reverse<(u64, i64, usize)>> {
        let (k, v) = it.next()?.unwrap();
        let key = super::hand::hand_decode_salted(k.value()).unwrap();
        values[i] = Some(v);
        Some(Reverse((key.user_id, key.ts, i)))
    }
    let mut heap = BinaryHeap::with_capacity(its.len());
    for (i, it) in its.iter_mut().enumerate() {
        heap.extend(pull(i, it, &mut values));
    }
    let mut n = 0;
    while let Some(Reverse((user_id, ts, i))) = heap.pop() {
        let v = values[i].take().unwrap();
        black_box((SimpleSalted { user_id, ts }, v.value()));
        n += 1;
        heap.extend(pull(i, &mut its[i], &mut values));
    }
    n
}

/// Each range read into a buffer of owned rows first (as a client receives batches), then the
/// buffers merged and every key decoded: what interleaving 16 live redb iterators costs.
pub fn typed_merged_buffered(db: &Database, ranges: &ScanRanges) -> usize {
    let txn = db.begin_read().unwrap();
    let t = txn.open_table(ROWS).unwrap();
    let buffers: Vec<Vec<(Vec<u8>, Vec<u8>)>> = ranges
        .iter()
        .map(|r| {
            t.range::<&[u8]>(bounds(r))
                .unwrap()
                .map(|row| {
                    let (k, v) = row.unwrap();
                    (k.value().to_vec(), v.value().to_vec())
                })
                .collect()
        })
        .collect();
    let mut n = 0;
    for (k, v) in merge(buffers.into_iter().map(Vec::into_iter), 1) {
        black_box((SimpleSalted::from_row_key(&k).unwrap(), v));
        n += 1;
    }
    n
}

/// The reads agree: every row once, and the merged read in logical order (by `user_id`, then
/// `ts`, as the key sorts after its salt).
pub fn verify_reads() {
    verify_reads_of(read_db());
    verify_reads_of(read_db_runs());
}

fn verify_reads_of(db: Database) {
    let ranges = read_ranges();
    assert_eq!(ranges.len(), 16);
    assert_eq!(raw(&db, &ranges), READ_ROWS);
    assert_eq!(typed_unmerged(&db, &ranges), READ_ROWS);
    assert_eq!(raw_interleaved(&db, &ranges), READ_ROWS);
    assert_eq!(raw_interleaved_held(&db, &ranges), READ_ROWS);
    let mut keys = Vec::new();
    assert_eq!(typed_merged(&db, &ranges, Some(&mut keys)), READ_ROWS);
    assert_eq!(typed_merged_buffered(&db, &ranges), READ_ROWS);
    assert_eq!(hand_merged(&db, &ranges), READ_ROWS);
    assert!(
        keys.windows(2)
            .all(|w| (w[0].user_id, w[0].ts) <= (w[1].user_id, w[1].ts)),
        "merged read in logical key order"
    );
}
