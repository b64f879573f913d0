//! Ranges that split into several byte ranges (a `#[rowkey(java)]` signed field, an `Option`)
//! behind a constant prefix and a fixed salt, under every bound shape, against a brute-force
//! oracle.

use std::ops::{Bound, RangeBounds};

use rowkey::{RowKey, ScanRanges};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"t:")]
struct Java {
    #[salt(buckets = 4)]
    shop: u8,
    #[rowkey(java)]
    delta: i32,
    x: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"t:")]
struct Opt {
    #[salt(buckets = 4)]
    shop: u8,
    #[desc]
    level: Option<i16>,
    x: u8,
}

fn shapes<T: Copy>(a: T, b: T) -> Vec<(Bound<T>, Bound<T>)> {
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

fn check<T: Copy + PartialOrd + std::fmt::Debug>(
    name: &str,
    keys: &[(u8, T, Vec<u8>)],
    bounds: &[T],
    scan: impl Fn((Bound<T>, Bound<T>)) -> ScanRanges,
) {
    let mut n = 0;
    for &a in bounds {
        for &b in bounds {
            for r in shapes(a, b) {
                let ranges = scan(r);
                for (shop, v, k) in keys {
                    assert_eq!(
                        ranges.contains(k),
                        *shop == 1 && r.contains(v),
                        "{name}: shop {shop}, {v:?} in {r:?}: {ranges:?}"
                    );
                }
                n += 1;
            }
        }
    }
    assert!(n > 100, "{name}: {n} scans");
}

#[test]
fn split_ranges_behind_a_prefix_and_a_salt() {
    let ints = [
        i32::MIN,
        -70_000,
        -2,
        -1,
        0,
        1,
        2,
        255,
        256,
        70_000,
        i32::MAX,
    ];
    let keys: Vec<(u8, i32, Vec<u8>)> = [0u8, 1, 2]
        .iter()
        .flat_map(|&shop| {
            ints.iter()
                .flat_map(move |&d| [0u8, 0xFF].map(|x| (shop, d, x)))
        })
        .map(|(shop, delta, x)| {
            (
                shop,
                delta,
                Java { shop, delta, x }.to_row_key().unwrap().to_vec(),
            )
        })
        .collect();
    check("java", &keys, &ints, |r| {
        Java::scan().shop(1).delta_range(r).ranges()
    });

    let levels = [
        None,
        Some(i16::MIN),
        Some(-1),
        Some(0),
        Some(1),
        Some(i16::MAX),
    ];
    let keys: Vec<(u8, Option<i16>, Vec<u8>)> = [0u8, 1, 2]
        .iter()
        .flat_map(|&shop| {
            levels
                .iter()
                .flat_map(move |&l| [0u8, 0xFF].map(|x| (shop, l, x)))
        })
        .map(|(shop, level, x)| {
            (
                shop,
                level,
                Opt { shop, level, x }.to_row_key().unwrap().to_vec(),
            )
        })
        .collect();
    check("option desc", &keys, &levels, |r| {
        Opt::scan().shop(1).level_range(r).ranges()
    });
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Spaced {
    a: u8,
    #[pad(4, fill = b' ')]
    code: String,
    x: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct SpacedDesc {
    a: u8,
    #[pad(4, fill = b' ')]
    #[desc]
    code: String,
    x: u8,
}

/// Starts-with on a space-padded field, with prefixes that end in the fill byte (the value
/// `"a"` is stored `"a   "`, so it starts with `"a "` in bytes but not as a value).
#[test]
fn starts_with_on_a_space_fill() {
    let values = ["", "a", "a b", "ab", "abcd", "b", " a", "a  b", "ba"];
    let prefixes = ["", "a", "a ", "a  ", " ", "a b", "ab", "abcd", "abcde", "b"];
    macro_rules! run {
        ($k:ident) => {{
            let keys: Vec<(&str, u8, Vec<u8>)> = values
                .iter()
                .flat_map(|&v| [0u8, 1, 2].map(move |a| (v, a)))
                .flat_map(|(v, a)| [0u8, 0xFF].map(move |x| (v, a, x)))
                .filter_map(|(v, a, x)| {
                    $k {
                        a,
                        code: v.into(),
                        x,
                    }
                    .to_row_key()
                    .ok()
                    .map(|k| (v, a, k.to_vec()))
                })
                .collect();
            assert!(
                keys.len() >= 2 * 3 * (values.len() - 1),
                "{}",
                stringify!($k)
            );
            for p in prefixes {
                let ranges = $k::scan().a(1).code_starts_with(p).ranges();
                for (v, a, k) in &keys {
                    assert_eq!(
                        ranges.contains(k),
                        *a == 1 && v.starts_with(p),
                        "{}: {v:?} starts with {p:?}: {ranges:?}",
                        stringify!($k)
                    );
                }
            }
        }};
    }
    run!(Spaced);
    run!(SpacedDesc);
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"p:", salt(buckets = 300))]
struct Wide {
    a: u16,
    #[sep]
    s: String,
}

/// Typed reads behind a prefix and a 2-byte salt: forward and reverse, paged with `after` and
/// `limit`, every page against the oracle order (the key bytes after prefix and salt).
#[test]
fn paged_reads_behind_a_prefix_and_a_wide_salt() {
    use std::collections::BTreeMap;

    use rowkey::read::{Directed, Read};

    let mut table = BTreeMap::new();
    for a in [0u16, 1, 7, 300, u16::MAX] {
        for s in ["", "a", "a\0", "b"] {
            let k = Wide { a, s: s.into() };
            table.insert(k.to_row_key().unwrap().to_vec(), a);
        }
    }
    for ranges in [Wide::scan().ranges(), Wide::scan().a(7).ranges()] {
        let skip = 2 + 2;
        for reverse in [false, true] {
            let mut want: Vec<Vec<u8>> = table
                .keys()
                .filter(|k| ranges.contains(k))
                .cloned()
                .collect();
            want.sort_by(|x, y| x[skip..].cmp(&y[skip..]));
            if reverse {
                want.reverse();
            }
            for page in [1usize, 3, 100] {
                let mut got = Vec::new();
                let mut last: Option<Vec<u8>> = None;
                loop {
                    let mut read = Read::<Wide>::new(ranges.clone());
                    assert_eq!(read.salt_width(), skip);
                    if reverse {
                        read = read.reverse();
                    }
                    if let Some(l) = &last {
                        read = read.after(l);
                    }
                    let read = read.limit(page);
                    let iters = read.ranges().iter().map(|r| {
                        Directed::new(table.range::<[u8], _>(r.bounds()), read.is_reverse())
                    });
                    let rows: Vec<Wide> = read.rows(iters).map(|r| r.unwrap().0).collect();
                    let n = rows.len();
                    for k in rows {
                        let b = k.to_row_key().unwrap().to_vec();
                        last = Some(b.clone());
                        got.push(b);
                    }
                    if n < page {
                        break;
                    }
                }
                assert_eq!(got, want, "reverse {reverse}, page {page}");
            }
        }
    }
}
