//! Time-bucket (`modulo`) salts under every range shape, against a brute-force oracle: with
//! `#[desc]`, a padded decimal, `#[reverse_ts]`, a 2-byte container salt and a constant prefix
//! before the salt — the layouts whose ranges touch only some buckets.

use std::ops::{Bound, RangeBounds};

use rowkey::{RowKey, ScanRanges};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Desc {
    #[salt(buckets = 4, modulo)]
    #[desc]
    t: u32,
    x: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Decimal {
    #[salt(buckets = 4, modulo)]
    #[pad(3)]
    t: u32,
    x: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct RevTs {
    #[salt(buckets = 4, modulo)]
    #[reverse_ts]
    t: u64,
    x: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 300, modulo), allow_hotspot)]
struct Wide {
    t: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"p:", allow_hotspot)]
struct Prefixed {
    #[salt(buckets = 4, modulo)]
    t: u32,
    x: u8,
}

fn shapes(a: u64, b: u64) -> Vec<(Bound<u64>, Bound<u64>)> {
    use Bound::*;
    vec![
        (Included(a), Excluded(b)),
        (Included(a), Included(b)),
        (Included(a), Unbounded),
        (Unbounded, Excluded(b)),
        (Unbounded, Included(b)),
        (Excluded(a), Excluded(b)),
        (Excluded(a), Included(b)),
        (Excluded(a), Unbounded),
        (Unbounded, Unbounded),
    ]
}

/// Every value of `values` (as `t`) with each `x`, against every range shape over pairs of
/// `bounds`: a key is in the ranges exactly when its `t` is in the range.
fn check<K>(
    name: &str,
    values: &[u64],
    bounds: &[u64],
    key: impl Fn(u64, u8) -> Option<K>,
    scan: impl Fn((Bound<u64>, Bound<u64>)) -> ScanRanges,
) where
    K: RowKey,
{
    let keys: Vec<(u64, Vec<u8>)> = values
        .iter()
        .flat_map(|&t| [0u8, 0xFF].map(|x| (t, x)))
        .filter_map(|(t, x)| key(t, x).map(|k| (t, k.to_row_key().unwrap().to_vec())))
        .collect();
    assert!(keys.len() >= values.len(), "{name}: keys encode");
    let mut n = 0;
    for &a in bounds {
        for &b in bounds {
            for r in shapes(a, b) {
                let ranges = scan(r);
                for (t, k) in &keys {
                    assert_eq!(
                        ranges.contains(k),
                        r.contains(t),
                        "{name}: t = {t} in {r:?}: {ranges:?}"
                    );
                }
                n += 1;
            }
        }
    }
    assert!(n > 100, "{name}: {n} scans");
}

fn b32(r: (Bound<u64>, Bound<u64>)) -> (Bound<u32>, Bound<u32>) {
    let f = |b: Bound<u64>| b.map(|v| v as u32);
    (f(r.0), f(r.1))
}

#[test]
fn modulo_ranges_match_the_oracle() {
    let values: Vec<u64> = (0..24).chain([99, 100, 998, 999, 1000, 4_000]).collect();
    let bounds = [0u64, 1, 3, 4, 5, 7, 8, 11, 12, 23, 999, 1000];
    check(
        "desc",
        &values,
        &bounds,
        |t, x| Some(Desc { t: t as u32, x }),
        |r| Desc::scan().t_range(b32(r)).ranges(),
    );
    check(
        "decimal",
        &values,
        &bounds,
        |t, x| (t < 1000).then_some(Decimal { t: t as u32, x }),
        |r| Decimal::scan().t_range(b32(r)).ranges(),
    );
    check(
        "reverse_ts",
        &values,
        &bounds,
        |t, x| Some(RevTs { t, x }),
        |r| RevTs::scan().t_range(r).ranges(),
    );
    check(
        "prefix",
        &values,
        &bounds,
        |t, x| Some(Prefixed { t: t as u32, x }),
        |r| Prefixed::scan().t_range(b32(r)).ranges(),
    );
    let wide: Vec<u64> = (0..10)
        .chain(295..305)
        .chain([599, 600, 601, 70_000])
        .collect();
    check(
        "wide",
        &wide,
        &[0, 1, 299, 300, 301, 600, 70_000],
        |t, _| Some(Wide { t: t as u32 }),
        |r| Wide::scan().t_range(b32(r)).ranges(),
    );
}
