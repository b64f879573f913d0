//! Ranges are exact and minimal, against the whole key space of small layouts (issue 37).
//!
//! Every key of each layout is enumerated and sorted by its bytes; for every query (each field
//! fixed, listed, ranged over every bound shape, or left free, in every combination over the
//! first two fields) the oracle is the set of keys whose values satisfy it. The ranges must
//! hold exactly those keys, and there must be exactly as many ranges as there are maximal runs
//! of matching keys in byte order — split where the salt bucket changes, since a merged read
//! needs each bucket's keys as a stream of their own. That count is the least number of
//! `[start, stop)` ranges that can hold the matching keys and no other key: a range holding
//! keys of two runs would hold the key between them.

use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use rowkey::{RowKey, ScanRanges};

use crate::common;
use common::bound_shapes;

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Click,
    View,
    Buy,
}

/// Codes with gaps: 1, 5, 9 (the codes between are no value).
#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Gap {
    A = 1,
    B = 5,
    C = 9,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Wide {
    a: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Gaps {
    k: Gap,
    b: bool,
    c: Kind,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[salt(buckets = 3)]
    a: u8,
    b: bool,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Modulo {
    #[salt(buckets = 4, modulo)]
    t: u8,
    x: Gap,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct DescOpt {
    #[desc]
    a: i8,
    b: Option<bool>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"p:")]
struct Prefixed {
    k: Kind,
    #[desc]
    b: bool,
    c: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct OptKind {
    o: Option<Kind>,
    #[desc]
    g: Gap,
    a: u8,
}

/// A key with a borrowed field: its generated `.ranges()` cannot decode it for every lifetime,
/// so it returns the builder's own ranges as they are (the union of an IN-list's alternatives,
/// never tightened) — which must be well formed by themselves.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct SaltedRef<'a> {
    #[salt(buckets = 3)]
    a: u8,
    b: bool,
    t: &'a str,
}

/// The same, unsalted.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct PlainRef<'a> {
    a: u8,
    b: bool,
    t: &'a str,
}

/// The key space of a layout, sorted by bytes.
struct Space<K> {
    keys: Vec<(Vec<u8>, K)>,
    salt_end: usize,
    queries: usize,
    /// Whether `.ranges()` makes the ranges minimal over the key space (a key without
    /// generics); with generics only the checks of `assert_well_formed` apply.
    tightened: bool,
}

impl<K: RowKey + Debug> Space<K> {
    fn new(values: impl IntoIterator<Item = K>) -> Self {
        let mut keys: Vec<(Vec<u8>, K)> = values
            .into_iter()
            .map(|k| (k.to_row_key().expect("encodes").to_vec(), k))
            .collect();
        keys.sort_by(|a, b| a.0.cmp(&b.0));
        keys.dedup_by(|a, b| a.0 == b.0);
        Space {
            keys,
            salt_end: K::LAYOUT.salt_end(),
            queries: 0,
            tightened: true,
        }
    }

    /// The key space of a key with generics (ranges exact and well formed, not tightened).
    fn untightened(values: impl IntoIterator<Item = K>) -> Self {
        Space {
            tightened: false,
            ..Space::new(values)
        }
    }

    /// The ranges hold exactly the keys `pred` selects, in the least number of ranges.
    fn judge(&mut self, what: &str, ranges: ScanRanges, pred: impl Fn(&K) -> bool) {
        self.queries += 1;
        common::ranges::assert_well_formed(&what, &ranges);
        let mut runs = 0usize;
        let mut prev: Option<&[u8]> = None; // the salt of the previous key, when it matched
        for (bytes, k) in &self.keys {
            let want = pred(k);
            assert_eq!(
                ranges.contains(bytes),
                want,
                "{what}: key {k:?} ({bytes:?}) in {ranges:?}"
            );
            let salt = &bytes[..self.salt_end];
            if want {
                if prev != Some(salt) {
                    runs += 1;
                }
                prev = Some(salt);
            } else {
                prev = None;
            }
        }
        if !self.tightened {
            return;
        }
        assert_eq!(
            ranges.len(),
            runs,
            "{what}: {} ranges where {runs} suffice: {ranges:?}",
            ranges.len()
        );
        for r in ranges.iter() {
            assert!(
                self.keys.iter().any(|(b, _)| r.contains(b)),
                "{what}: a range that holds no key: {r:?}"
            );
        }
    }
}

fn in_bounds<T: PartialOrd>(r: &(Bound<T>, Bound<T>), v: &T) -> bool {
    r.contains(v)
}

/// Value lists to try as IN-lists: single values, neighbours, runs, the whole domain, every
/// other value, the ends, repeated values out of order, and nothing.
fn lists<T: Clone>(all: &[T]) -> Vec<Vec<T>> {
    let n = all.len();
    let mut out = vec![Vec::new(), all.to_vec()];
    out.push(all.iter().step_by(2).cloned().collect());
    out.push(vec![all[0].clone(), all[n - 1].clone()]);
    out.push(vec![all[n / 2].clone(), all[0].clone(), all[n / 2].clone()]);
    out.push(vec![all[n - 1].clone(), all[n - 1].clone()]);
    for i in [0, n / 2, n - 1] {
        out.push(vec![all[i].clone()]);
        out.push(all[i..(i + 3).min(n)].to_vec());
    }
    out
}

/// A few values to fix a field to or bound a range with: the ends and the middle.
fn samples<T: Clone>(all: &[T]) -> Vec<T> {
    let n = all.len();
    let mut idx = vec![0, 1.min(n - 1), n / 2, n.saturating_sub(2), n - 1];
    idx.dedup();
    idx.into_iter().map(|i| all[i].clone()).collect()
}

/// Every query over the first two fields `$a`, `$b` of `$t` (the rest left free): each field
/// fixed, listed, ranged (sampled bounds, every shape), or scanned whole (`_any`, where the
/// type has it), and every combination of a fixed or listed first field with a second.
macro_rules! two_fields {
    ($space:expr, $t:ident,
     $a:ident [$a_in:ident, $a_range:ident $(, $a_any:ident)?] = $va:expr,
     $b:ident [$b_in:ident, $b_range:ident $(, $b_any:ident)?] = $vb:expr) => {{
        let space = &mut $space;
        let va = $va;
        let vb = $vb;
        let (fa, fb) = (stringify!($a), stringify!($b));
        space.judge("everything", $t::scan().ranges(), |_| true);
        for x in va.iter() {
            space.judge(&format!("{fa}({x:?})"), $t::scan().$a(x.clone()).ranges(), |k| k.$a == *x);
        }
        for list in lists(&va) {
            let r = $t::scan().$a_in(list.clone()).expect("in").ranges();
            space.judge(&format!("{fa}_in({list:?})"), r, |k| list.contains(&k.$a));
        }
        for lo in samples(&va) {
            for hi in samples(&va) {
                for sh in bound_shapes(lo.clone(), hi.clone()) {
                    let r = $t::scan().$a_range(sh.clone()).ranges();
                    space.judge(&format!("{fa}_range({sh:?})"), r, |k| in_bounds(&sh, &k.$a));
                }
            }
        }
        $(space.judge(&format!("{fa}_any"), $t::scan().$a_any().expect("any").ranges(), |_| true);)?

        // a first field fixed or listed, then every form of the second
        let mut firsts: Vec<(String, _, Box<dyn Fn(&$t) -> bool>)> = Vec::new();
        for x in samples(&va) {
            let keep = x.clone();
            firsts.push((format!("{fa}({x:?})"), $t::scan().$a(x.clone()), Box::new(move |k: &$t| k.$a == keep)));
        }
        for list in lists(&va).into_iter().skip(1) {
            let keep = list.clone();
            firsts.push((format!("{fa}_in({list:?})"), $t::scan().$a_in(list.clone()).expect("in"), Box::new(move |k: &$t| keep.contains(&k.$a))));
        }
        $(firsts.push((format!("{fa}_any"), $t::scan().$a_any().expect("any"), Box::new(|_: &$t| true)));)?
        for (what, first, p) in &firsts {
            space.judge(what, first.clone().ranges(), |k| p(k));
            for y in samples(&vb) {
                let r = first.clone().$b(y.clone()).ranges();
                space.judge(&format!("{what}.{fb}({y:?})"), r, |k| p(k) && k.$b == y);
            }
            for list in lists(&vb) {
                let r = first.clone().$b_in(list.clone()).expect("in").ranges();
                space.judge(&format!("{what}.{fb}_in({list:?})"), r, |k| p(k) && list.contains(&k.$b));
            }
            for lo in samples(&vb) {
                for hi in samples(&vb) {
                    for sh in bound_shapes(lo.clone(), hi.clone()) {
                        let r = first.clone().$b_range(sh.clone()).ranges();
                        space.judge(&format!("{what}.{fb}_range({sh:?})"), r, |k| p(k) && in_bounds(&sh, &k.$b));
                    }
                }
            }
            $(space.judge(&format!("{what}.{fb}_any"), first.clone().$b_any().expect("any").ranges(), |k| p(k));)?
        }
    }};
}

const KINDS: [Kind; 3] = [Kind::Click, Kind::View, Kind::Buy];
const GAPS: [Gap; 3] = [Gap::A, Gap::B, Gap::C];

fn all_u8() -> Vec<u8> {
    (0..=255).collect()
}

fn all_i8() -> Vec<i8> {
    (-128..=127).collect()
}

#[test]
fn a_wide_field_s_ranges_join_across_the_carry() {
    let mut space = Space::new((0..=u16::MAX).map(|a| Wide { a }));
    let all: Vec<u16> = (0..=u16::MAX).collect();
    for list in [
        (254..=257).collect::<Vec<u16>>(),
        (0..10_000).collect(),
        (0..=255).step_by(3).collect(),
        vec![0x00FF, 0x0100, 0x01FF, 0x0200, 0xFFFF],
        vec![0xFFFE, 0xFFFF],
    ] {
        let r = Wide::scan().a_in(list.clone()).expect("in").ranges();
        space.judge(&format!("a_in({:?}..)", &list[..2]), r, |k| {
            list.contains(&k.a)
        });
    }
    for lo in samples(&all) {
        for hi in samples(&all) {
            for sh in bound_shapes(lo, hi) {
                let r = Wide::scan().a_range(sh).ranges();
                space.judge(&format!("a_range({sh:?})"), r, |k| in_bounds(&sh, &k.a));
            }
        }
    }
    assert_eq!(Wide::scan().a_in(254..=257).expect("in").ranges().len(), 1);
    assert_eq!(Wide::scan().a_in(0..10_000).expect("in").ranges().len(), 1);
    assert!(space.queries > 100);
}

#[test]
fn enum_codes_with_gaps() {
    let mut space = Space::new(GAPS.iter().flat_map(|&k| {
        [false, true]
            .into_iter()
            .flat_map(move |b| KINDS.iter().map(move |&c| Gaps { k, b, c }))
    }));
    two_fields!(space, Gaps, k [k_in, k_range, k_any] = GAPS.to_vec(), b [b_in, b_range, b_any] = vec![false, true]);
    // past the last variant, before the first: nothing
    let none = Gaps::scan()
        .k_range((Bound::Excluded(Gap::C), Bound::Unbounded))
        .ranges();
    assert!(none.is_empty(), "{none:?}");
    assert!(Gaps::scan().k_range(..Gap::A).ranges().is_empty());
    assert_eq!(
        Gaps::scan()
            .k_in([Gap::A, Gap::C])
            .expect("in")
            .ranges()
            .len(),
        2
    );
    assert_eq!(Gaps::scan().k_any().expect("any").ranges().len(), 1);
    assert!(space.queries > 100);
}

#[test]
fn salted_buckets_stay_apart() {
    let mut space = Space::new(
        all_u8()
            .into_iter()
            .flat_map(|a| [false, true].map(|b| Salted { a, b })),
    );
    two_fields!(space, Salted, a [a_in, a_range] = all_u8(), b [b_in, b_range, b_any] = vec![false, true]);
    // every value of the salted field: one range per bucket, whole
    assert_eq!(Salted::scan().a_in(0..=255).expect("in").ranges().len(), 3);
    assert!(space.queries > 100);
}

#[test]
fn modulo_buckets() {
    let mut space = Space::new(
        all_u8()
            .into_iter()
            .flat_map(|t| GAPS.map(|x| Modulo { t, x })),
    );
    two_fields!(space, Modulo, t [t_in, t_range] = all_u8(), x [x_in, x_range, x_any] = GAPS.to_vec());
    assert!(space.queries > 100);
}

#[test]
fn descending_integers_and_options() {
    let opts = vec![None, Some(false), Some(true)];
    let mut space = Space::new(
        all_i8()
            .into_iter()
            .flat_map(|a| opts.clone().into_iter().map(move |b| DescOpt { a, b })),
    );
    two_fields!(space, DescOpt, a [a_in, a_range] = all_i8(), b [b_in, b_range, b_any] = opts.clone());
    assert!(DescOpt::scan().a_range(..i8::MIN).ranges().is_empty());
    assert!(DescOpt::scan()
        .a_range((Bound::Excluded(i8::MAX), Bound::Unbounded))
        .ranges()
        .is_empty());
    assert_eq!(
        DescOpt::scan()
            .a(3)
            .b_in(opts.clone())
            .expect("in")
            .ranges()
            .len(),
        1
    );
    assert!(space.queries > 100);
}

#[test]
fn behind_a_constant_prefix() {
    let mut space = Space::new(KINDS.iter().flat_map(|&k| {
        [false, true]
            .into_iter()
            .flat_map(move |b| all_u8().into_iter().map(move |c| Prefixed { k, b, c }))
    }));
    two_fields!(space, Prefixed, k [k_in, k_range, k_any] = KINDS.to_vec(), b [b_in, b_range, b_any] = vec![false, true]);
    assert!(space.queries > 100);
}

#[test]
fn optional_enums_then_descending_gaps() {
    let opts: Vec<Option<Kind>> = std::iter::once(None).chain(KINDS.map(Some)).collect();
    let mut space = Space::new(opts.clone().into_iter().flat_map(|o| {
        GAPS.iter()
            .flat_map(move |&g| all_u8().into_iter().map(move |a| OptKind { o, g, a }))
    }));
    two_fields!(space, OptKind, o [o_in, o_range, o_any] = opts.clone(), g [g_in, g_range, g_any] = GAPS.to_vec());
    assert!(space.queries > 100);
}

/// Keys with generics keep the builder's own ranges (no tightening): exact, and sorted,
/// disjoint and without two ranges touching in one bucket — IN-lists of repeated, neighbouring
/// and out-of-order values included, salted and not.
#[test]
fn generic_keys_keep_well_formed_ranges() {
    const TEXTS: [&str; 3] = ["", "x", "x\0"];
    let mut space = Space::untightened(all_u8().into_iter().flat_map(|a| {
        [false, true]
            .into_iter()
            .flat_map(move |b| TEXTS.map(|t| SaltedRef { a, b, t }))
    }));
    two_fields!(space, SaltedRef, a [a_in, a_range] = all_u8(), b [b_in, b_range, b_any] = vec![false, true]);
    assert!(space.queries > 100);
    let mut space = Space::untightened(all_u8().into_iter().flat_map(|a| {
        [false, true]
            .into_iter()
            .flat_map(move |b| TEXTS.map(|t| PlainRef { a, b, t }))
    }));
    two_fields!(space, PlainRef, a [a_in, a_range] = all_u8(), b [b_in, b_range, b_any] = vec![false, true]);
    // neighbours join in the builder's own union
    assert_eq!(
        PlainRef::scan()
            .a_in([7, 8, 7, 9])
            .expect("in")
            .ranges()
            .len(),
        1
    );
    assert!(space.queries > 100);
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Pair {
    a: u16,
    b: u16,
}

/// The issue's examples on a key space too large to enumerate: the counts, and exactness on
/// every key whose fields are near the values queried (0..300 and the top of the range).
#[test]
fn the_issue_s_pair() {
    let near: Vec<u16> = (0..300).chain(65_500..=u16::MAX).collect();
    let keys: Vec<(Vec<u8>, Pair)> = near
        .iter()
        .flat_map(|&a| near.iter().map(move |&b| Pair { a, b }))
        .map(|k| (k.to_row_key().expect("encodes").to_vec(), k))
        .collect();
    let check = |what: &str, r: ScanRanges, want: usize, pred: &dyn Fn(&Pair) -> bool| {
        common::ranges::assert_well_formed(&what, &r);
        assert_eq!(r.len(), want, "{what}: {r:?}");
        for (bytes, k) in &keys {
            assert_eq!(r.contains(bytes), pred(k), "{what}: {k:?}");
        }
    };
    check(
        "a_in(254..=257)",
        Pair::scan().a_in(254..=257).expect("in").ranges(),
        1,
        &|k| (254..=257).contains(&k.a),
    );
    check(
        "a_in(0..10_000)",
        Pair::scan().a_in(0..10_000).expect("in").ranges(),
        1,
        &|k| k.a < 10_000,
    );
    check(
        "a(1).b_in(1..=3)",
        Pair::scan().a(1).b_in(1..=3).expect("in").ranges(),
        1,
        &|k| k.a == 1 && (1..=3).contains(&k.b),
    );
    check(
        "a_in(0..100).b_in(0..100)",
        Pair::scan()
            .a_in(0..100)
            .and_then(|s| s.b_in(0..100))
            .expect("in")
            .ranges(),
        100,
        &|k| k.a < 100 && k.b < 100,
    );
    check(
        "a_in([7, 9]).b_in(0..=4000)",
        Pair::scan()
            .a_in([7, 9])
            .and_then(|s| s.b_in(0..=4000))
            .expect("in")
            .ranges(),
        2,
        &|k| (k.a == 7 || k.a == 9) && k.b <= 4000,
    );
    check(
        "a_range(..0)",
        Pair::scan().a_range(..0).ranges(),
        0,
        &|_| false,
    );
}
