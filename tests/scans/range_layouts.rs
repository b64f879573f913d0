//! Range scans on layouts whose ranges are not one plain prefix, under every bound shape,
//! against brute-force oracles:
//!
//! - time-bucket (`modulo`) salts with `#[desc]`, a padded decimal, `#[reverse_ts]`, a 2-byte
//!   container salt and a constant prefix before the salt — ranges that touch only some buckets;
//! - ranges that split into several byte ranges (a `#[rowkey(java)]` signed field, a descending
//!   `Option`) behind a constant prefix and a fixed salt;
//! - starts-with on a space-padded field with prefixes ending in the fill byte;
//! - paged typed reads behind a constant prefix and a 2-byte salt.

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use rowkey::{RowKey, ScanRanges};

use crate::common;
use common::bound_shapes;

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
struct WideModulo {
    t: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"p:", allow_hotspot)]
struct Prefixed {
    #[salt(buckets = 4, modulo)]
    t: u32,
    x: u8,
}

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

/// Every key against every range shape over pairs of `bounds`: a key is in the ranges exactly
/// when its other fields match the scan's fixed ones (`.0`) and its value (`.1`) is in the
/// range.
fn check<T: Clone + PartialOrd + Debug>(
    name: &str,
    keys: &[(bool, T, Vec<u8>)],
    bounds: &[T],
    scan: impl Fn((Bound<T>, Bound<T>)) -> ScanRanges,
) {
    let mut n = 0;
    for a in bounds {
        for b in bounds {
            for r in bound_shapes(a.clone(), b.clone()) {
                let ranges = scan(r.clone());
                common::ranges::assert_well_formed(&format_args!("{name} {r:?}"), &ranges);
                for (fixed, v, k) in keys {
                    assert_eq!(
                        ranges.contains(k),
                        *fixed && r.contains(v),
                        "{name}: {v:?} (fixed fields match: {fixed}) in {r:?}: {ranges:?}"
                    );
                }
                n += 1;
            }
        }
    }
    assert!(n > 100, "{name}: {n} scans");
}

/// Each of `values` as `t`, with `x` = 0x00 and 0xFF; values the layout cannot hold are left out.
fn keyed<K: RowKey>(
    values: &[u64],
    key: impl Fn(u64, u8) -> Option<K>,
) -> Vec<(bool, u64, Vec<u8>)> {
    let keys: Vec<(bool, u64, Vec<u8>)> = values
        .iter()
        .flat_map(|&t| [0u8, 0xFF].map(|x| (t, x)))
        .filter_map(|(t, x)| key(t, x).map(|k| (true, t, k.to_row_key().unwrap().to_vec())))
        .collect();
    assert!(keys.len() >= values.len(), "keys encode");
    keys
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
        &keyed(&values, |t, x| Some(Desc { t: t as u32, x })),
        &bounds,
        |r| Desc::scan().t_range(b32(r)).ranges(),
    );
    check(
        "decimal",
        &keyed(&values, |t, x| {
            (t < 1000).then_some(Decimal { t: t as u32, x })
        }),
        &bounds,
        |r| Decimal::scan().t_range(b32(r)).ranges(),
    );
    check(
        "reverse_ts",
        &keyed(&values, |t, x| Some(RevTs { t, x })),
        &bounds,
        |r| RevTs::scan().t_range(r).ranges(),
    );
    check(
        "prefix",
        &keyed(&values, |t, x| Some(Prefixed { t: t as u32, x })),
        &bounds,
        |r| Prefixed::scan().t_range(b32(r)).ranges(),
    );
    let wide: Vec<u64> = (0..10)
        .chain(295..305)
        .chain([599, 600, 601, 70_000])
        .collect();
    check(
        "wide",
        &keyed(&wide, |t, _| Some(WideModulo { t: t as u32 })),
        &[0, 1, 299, 300, 301, 600, 70_000],
        |r| WideModulo::scan().t_range(b32(r)).ranges(),
    );
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
    let keys: Vec<(bool, i32, Vec<u8>)> = [0u8, 1, 2]
        .iter()
        .flat_map(|&shop| {
            ints.iter()
                .flat_map(move |&d| [0u8, 0xFF].map(|x| (shop, d, x)))
        })
        .map(|(shop, delta, x)| {
            (
                shop == 1,
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
    let keys: Vec<(bool, Option<i16>, Vec<u8>)> = [0u8, 1, 2]
        .iter()
        .flat_map(|&shop| {
            levels
                .iter()
                .flat_map(move |&l| [0u8, 0xFF].map(|x| (shop, l, x)))
        })
        .map(|(shop, level, x)| {
            (
                shop == 1,
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
struct WideSalted {
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
            let k = WideSalted { a, s: s.into() };
            table.insert(k.to_row_key().unwrap().to_vec(), a);
        }
    }
    for ranges in [
        WideSalted::scan().ranges(),
        WideSalted::scan().a(7).ranges(),
    ] {
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
                    let mut read = Read::<WideSalted>::new(ranges.clone());
                    assert_eq!(read.salt_width(), skip);
                    if reverse {
                        read = read.reverse();
                    }
                    if let Some(l) = &last {
                        read = read.after_key(l);
                    }
                    let read = read.limit(page);
                    let iters = read.ranges().iter().map(|r| {
                        Directed::new(table.range::<[u8], _>(r.bounds()), read.is_reverse())
                    });
                    let rows: Vec<WideSalted> = read.rows(iters).map(|r| r.unwrap().0).collect();
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

/// A padded nested key, and a generic key holding it: the generic range is checked when it is
/// built and gives the same exact ranges.
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Code {
    #[pad(2)]
    code: String,
    n: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Pair<T> {
    a: u8,
    t: T,
    x: u8,
}

#[test]
fn generic_nested_ranges() {
    let codes: Vec<Code> = ["", "a", "a\0", "ab", "abc", "b"]
        .into_iter()
        .flat_map(|c| [0u8, 9, 0xFF].map(move |n| Code { code: c.into(), n }))
        .collect();
    let keys: Vec<(bool, Code, Vec<u8>)> = [0u8, 1, 2]
        .into_iter()
        .flat_map(|a| {
            codes
                .iter()
                .flat_map(move |t| [0u8, 0xFF].map(|x| (a, t.clone(), x)))
        })
        .filter_map(|(a, t, x)| {
            let k = Pair { a, t: t.clone(), x }.to_row_key().ok()?;
            Some((a == 1, t, k.to_vec()))
        })
        .collect();
    assert!(keys.len() > codes.len(), "keys encode");
    check("generic nested", &keys, &codes, |r| {
        Pair::<Code>::scan().a(1).t_range(r).ranges()
    });
}
