//! Merge and hotspot inputs.

use rowkey::hotspot::Analyzer;
use rowkey::merge::merge;
use rowkey::RowKey;

use super::keys::*;

/// Keys per merge benchmark (16 streams).
pub const MERGE_KEYS: usize = 16_000;
/// Keys per hotspot benchmark.
pub const HOTSPOT_KEYS: usize = 1_000_000;

/// 16 streams of `SimpleSalted` keys, one per bucket, each sorted.
pub fn merge_streams() -> Vec<Vec<Vec<u8>>> {
    merge_streams_with(1)
}

/// As [`merge_streams`], but 800 users with 20 rows each (a time series per user): each user's
/// rows sit in one bucket, so the merge meets runs of 20 rows from one stream.
pub fn merge_streams_runs() -> Vec<Vec<Vec<u8>>> {
    merge_streams_with(20)
}

/// `MERGE_KEYS` keys of [`series_key`] (the redb read's table holds the same keys),
/// split into their buckets, each bucket sorted.
fn merge_streams_with(rows_per_user: u64) -> Vec<Vec<Vec<u8>>> {
    let mut streams = vec![Vec::new(); 16];
    for i in 0..MERGE_KEYS as u64 {
        let k = series_key(i, rows_per_user);
        let b = k.to_row_key().unwrap();
        streams[usize::from(b[0])].push(b.to_vec());
    }
    for s in &mut streams {
        s.sort();
    }
    streams
}

pub fn merge_rowkey(streams: &[Vec<Vec<u8>>]) -> Vec<&[u8]> {
    merge(streams.iter().map(|s| s.iter().map(Vec::as_slice)), 1).collect()
}

pub fn collect_sort(streams: &[Vec<Vec<u8>>], stable: bool) -> Vec<&[u8]> {
    let mut all = Vec::with_capacity(streams.iter().map(Vec::len).sum());
    for s in streams {
        all.extend(s.iter().map(Vec::as_slice));
    }
    if stable {
        all.sort_by(|a, b| a[1..].cmp(&b[1..]));
    } else {
        all.sort_unstable_by(|a, b| a[1..].cmp(&b[1..]));
    }
    all
}

/// 1M keys, fixed width, in one flat buffer: `(bytes, width)`.
pub fn hotspot_keys(hashed: bool) -> (Vec<u8>, usize) {
    let width = if hashed { 20 } else { 16 };
    let mut flat = Vec::with_capacity(HOTSPOT_KEYS * width);
    for i in 0..HOTSPOT_KEYS as u64 {
        let ts = TS + i as i64;
        if hashed {
            SimpleHashed { user_id: i, ts }
                .encode_into(&mut flat)
                .unwrap();
        } else {
            Simple { user_id: i, ts }.encode_into(&mut flat).unwrap();
        }
    }
    (flat, width)
}

pub fn analyze(splits: &[Vec<u8>], flat: &[u8], width: usize) -> Analyzer {
    let mut a = Analyzer::new(splits).unwrap();
    for k in flat.chunks_exact(width) {
        a.add(k);
    }
    a
}

/// The obvious alternative: a binary search over the split points per key.
pub fn analyze_naive(splits: &[Vec<u8>], flat: &[u8], width: usize) -> Vec<u64> {
    let mut counts = vec![0u64; splits.len() + 1];
    for k in flat.chunks_exact(width) {
        counts[splits.partition_point(|s| s.as_slice() <= k)] += 1;
    }
    counts
}
