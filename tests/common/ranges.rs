//! The shape every `ScanRanges` a scan builder returns must have, checked by every scan oracle
//! on every `ScanRanges` it gets, besides the keys the ranges hold (`tests/scans`, `tests/keys`,
//! and through `tests/store_oracle/cases.rs` the live HBase and Bigtable oracles):
//!
//! - no empty range;
//! - sorted: each range starts after the one before;
//! - disjoint: each range stops at or before the next one starts (a key in two ranges would be
//!   read twice);
//! - each within one salt bucket (the bytes before `salt_end`: constant prefix, tag and salt):
//!   a merged read needs each bucket's keys as a stream of its own;
//! - minimal: no two ranges of one salt bucket that touch (one range would hold the same keys).
//!
//! Whether the ranges hold exactly the right keys, and (for the layouts small enough) whether
//! no key of the layout lies between two ranges, is each oracle's own business.

use rowkey::ScanRanges;

/// Panics, naming `what`, when `ranges` is not well formed (see the module docs).
#[track_caller]
pub fn assert_well_formed(what: &dyn std::fmt::Display, ranges: &ScanRanges) {
    if let Err(m) = well_formed(ranges) {
        panic!("{what}: {m}: {ranges:?}");
    }
}

/// Why `ranges` is not well formed (see the module docs), if it is not.
pub fn well_formed(ranges: &ScanRanges) -> Result<(), String> {
    let salt_end = ranges.salt_end();
    let all = ranges.as_slice();
    for (i, r) in all.iter().enumerate() {
        if r.is_empty() {
            return Err(format!("range {i} is empty"));
        }
        if salt_end > 0 {
            let Some(bucket) = r.start().get(..salt_end) else {
                return Err(format!(
                    "range {i} starts before its salt bucket (start {:02X?}, salt_end {salt_end})",
                    r.start()
                ));
            };
            // the first byte string after every key of the bucket
            if let Some(end) = successor(bucket) {
                if r.stop().is_none_or(|s| s > end.as_slice()) {
                    return Err(format!(
                        "range {i} runs past its salt bucket {bucket:02X?} (stop {:02X?})",
                        r.stop()
                    ));
                }
            }
        }
    }
    for (i, (a, b)) in all.iter().zip(all.iter().skip(1)).enumerate() {
        if a.start() >= b.start() {
            return Err(format!("ranges {i} and {} are not sorted", i + 1));
        }
        match a.stop() {
            None => return Err(format!("range {i} runs to the end, before range {}", i + 1)),
            Some(stop) if stop > b.start() => {
                return Err(format!("ranges {i} and {} overlap", i + 1));
            }
            Some(stop)
                if stop == b.start() && a.start().get(..salt_end) == b.start().get(..salt_end) =>
            {
                return Err(format!(
                    "ranges {i} and {} touch in one salt bucket: one range would do",
                    i + 1
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The first byte string after every string that starts with `prefix` (`None`: there is none,
/// `prefix` is all `FF`).
fn successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut s = prefix.to_vec();
    while let Some(last) = s.pop() {
        if last < 0xFF {
            s.push(last + 1);
            return Some(s);
        }
    }
    None
}

#[test]
fn well_formed_refuses_each_defect() {
    use rowkey::ScanRange;
    let r = |a: &[u8], b: Option<&[u8]>| ScanRange::new(a, b);
    // (`ScanRanges::new` joins overlapping ranges itself, and keeps touching ones apart)
    let of = |rs: Vec<ScanRange>, salt_end: usize| ScanRanges::new(rs).with_salt_end(salt_end);
    assert!(well_formed(&of(
        vec![r(b"\x01a", Some(b"\x01b")), r(b"\x02", Some(b"\x03"))],
        1
    ))
    .is_ok());
    // touching in two buckets is fine, in one it is not
    assert!(well_formed(&of(
        vec![r(b"\x01a", Some(b"\x02")), r(b"\x02", Some(b"\x02a"))],
        1
    ))
    .is_ok());
    let touching = of(
        vec![r(b"\x01a", Some(b"\x01b")), r(b"\x01b", Some(b"\x01c"))],
        1,
    );
    assert!(
        well_formed(&touching).unwrap_err().contains("touch"),
        "{touching:?}"
    );
    // a range across two buckets
    let across = of(vec![r(b"\x01a", Some(b"\x02a"))], 1);
    assert!(well_formed(&across)
        .unwrap_err()
        .contains("past its salt bucket"));
    assert!(well_formed(&of(vec![r(b"\xFFa", None)], 1)).is_ok());
}
