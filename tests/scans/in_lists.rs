//! IN-lists and skip-scans (`.field_in(values)`, `.field_any()`) against brute force on a real
//! embedded store (redb), over every field encoding: `#[desc]`, `#[rowkey(java)]`, `Option`s,
//! a salted prefix, a whole-key salt, a hashed field in equality lists, `#[reverse_ts]`, nested
//! keys, fieldless enums and `bool`s.
//!
//! A query fixes a prefix of the key's fields, each by an IN-list of values (one value is an
//! equality; an empty list matches nothing; duplicates are allowed) or by its whole finite
//! domain (`_any()`: a skipped enum or `bool`), then optionally ends with a range (all nine
//! bound shapes) or a starts-with on the next field. Every argument form is listed: integers,
//! enums, nested keys (by value or borrowed), strings, bytes, `Option<String>`, `Option<Vec<u8>>`. For every query:
//!
//! - the keys in the ranges are exactly the keys the predicate selects (every stored key is
//!   tested with `ScanRanges::contains`, and the store's rows of every range are collected:
//!   no key missing, none extra, none twice);
//! - the ranges are minimal: sorted, no two overlap, and no two touch unless they lie in
//!   different salt buckets (a merged read needs each bucket as a stream of its own);
//! - a typed merged read (`rowkey::read::redb::rows`) returns those keys in logical key order
//!   (the bytes after the salt), forward and reversed.
//!
//! The guide's "hard" queries are stated plainly in `guide_queries`; the cap on the number of
//! alternatives in `too_many_alternatives`. Deterministic (a fixed seed); 4,000 queries per
//! layout, 28,000 in all.

use crate::shapes;

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::ops::Bound;

use redb::{backends::InMemoryBackend, Database, ReadableDatabase, TableDefinition};
use rowkey::read::{redb::rows, Read};
use rowkey::scan::{FiniteDomain, TooManyRanges};
use rowkey::{DecodeRowKeyOwned, RowKey, ScanRanges};
use shapes::{Shape, SHAPES};

const T: TableDefinition<&[u8], u32> = TableDefinition::new("rows");
const QUERIES_PER_LAYOUT: usize = 4_000;

// ---------------------------------------------------------------------------------------------
// layouts

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Event {
    Click,
    View,
    Buy,
    Share,
}

/// (a) the guide's key: `uid + event_type + biz_type`, then a time.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Guide {
    uid: u64,
    event: Event,
    #[sep]
    biz: String,
    ts: u64,
}

/// (b) descending and Java-encoded integers, a `bool`, an optional string.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Mixed {
    #[desc]
    a: i32,
    #[rowkey(java)]
    b: i64,
    flag: bool,
    #[sep]
    c: Option<String>,
    d: u16,
}

/// (c) a salted prefix (the salt known once `host` is).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[salt(buckets = 8)]
    #[sep]
    host: String,
    kind: Event,
    seq: u32,
}

/// (d) a hashed field (equality lists only), `#[reverse_ts]`, an `Option<bool>`.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    #[hash_prefix(4)]
    user: u64,
    #[reverse_ts]
    ts: i64,
    flag: Option<bool>,
    n: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Inner {
    a: u8,
    e: Event,
}

/// (e) a nested key, then a descending string last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Nested {
    inner: Inner,
    k: Option<Event>,
    #[desc]
    name: String,
}

/// (f) a whole-key salt over a descending integer and an optional enum.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 4))]
struct Whole {
    tenant: u16,
    kind: Option<Event>,
    #[desc]
    seq: u32,
}

/// (g) bytes fields: a separated `Vec<u8>`, an optional one, a `bool`, a raw string last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Blobs {
    #[sep]
    tag: Vec<u8>,
    #[sep]
    opt: Option<Vec<u8>>,
    flag: bool,
    name: String,
}

// ---------------------------------------------------------------------------------------------
// queries

/// A query: fields `0..p` each by an IN-list (the values are those of the listed keys' field)
/// or by their whole domain, then an optional range on field `p`.
#[derive(Debug, Clone)]
struct Query<K> {
    p: usize,
    lists: Vec<Vec<K>>,
    any: Vec<bool>,
    range: Option<(Shape, K, K)>,
    /// A starts-with on field `p`: the first `n` bytes (whole characters) of a key's field.
    starts: Option<(K, usize)>,
}

/// A string or bytes field's content, for starts-with queries.
trait Content: Clone {
    fn cut(&self, n: usize) -> Self;
    fn begins(&self, p: &Self) -> bool;
}
impl Content for String {
    fn cut(&self, n: usize) -> Self {
        self.chars().take(n).collect()
    }
    fn begins(&self, p: &Self) -> bool {
        self.starts_with(p.as_str())
    }
}
impl Content for Vec<u8> {
    fn cut(&self, n: usize) -> Self {
        self.iter().take(n).copied().collect()
    }
    fn begins(&self, p: &Self) -> bool {
        self.starts_with(p)
    }
}

trait Layout: RowKey + DecodeRowKeyOwned + Clone + Debug + PartialEq {
    const NAME: &'static str;
    /// Fields.
    const N: usize;
    /// Fields with a finite domain (`_any()`).
    const FINITE: &'static [usize];
    /// Fields with a `_range`.
    const RANGES: &'static [usize];
    /// Fields with a `_starts_with`.
    const STARTS: &'static [usize];
    fn random(r: &mut Rng) -> Self;
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool;
    /// Whether `k`'s field `i` lies in the range's bounds (the field's natural order).
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool;
    /// Whether `k`'s field `i` starts with the first `n` of `pk`'s.
    fn field_starts(i: usize, pk: &Self, n: usize, k: &Self) -> bool;
    fn scan(q: &Query<Self>) -> Result<ScanRanges, TooManyRanges>;
}

/// The predicate, by brute force.
fn selects<K: Layout>(q: &Query<K>, k: &K) -> bool {
    for i in 0..q.p {
        if !q.any[i] && !q.lists[i].iter().any(|v| K::field_eq(i, v, k)) {
            return false;
        }
    }
    match &q.range {
        Some((sh, lo, hi)) => K::field_in_range(q.p, *sh, lo, hi, k),
        None => match &q.starts {
            Some((pk, n)) => K::field_starts(q.p, pk, *n, k),
            None => true,
        },
    }
}

/// Chains the typed builder calls of a query: `(index field f_in f_any? range(f_range)?)` per
/// field, in key order.
macro_rules! chain {
    ($q:ident, $s:expr; ) => {
        Ok($s.ranges())
    };
    ($q:ident, $s:expr; ($i:literal $f:ident $fin:ident $(via($via:ident))? $(any($fany:ident))? $(range($fr:ident))? $(starts($fsw:ident))?) $($rest:tt)*) => {{
        let s = $s;
        if $q.p == $i {
            $(
                if let Some((sh, lo, hi)) = &$q.range {
                    let (a, b) = (lo.$f.clone(), hi.$f.clone());
                    return Ok(with_range!(*sh, a, b, |r| s.$fr(r).ranges()));
                }
            )?
            $(
                if let Some((pk, n)) = &$q.starts {
                    return Ok(s.$fsw(Content::cut(&pk.$f, *n)).ranges());
                }
            )?
            return Ok(s.ranges());
        }
        let s = fix!($q, $i, s, $f, [$($via)?] $fin $(, $fany)?);
        chain!($q, s; $($rest)*)
    }};
}

/// One field by its IN-list, or by its whole domain.
macro_rules! fix {
    ($q:ident, $i:literal, $s:ident, $f:ident, [$($via:ident)?] $fin:ident) => {
        $s.$fin($q.lists[$i].iter().map(|k| value!(k.$f $(, $via)?)))?
    };
    ($q:ident, $i:literal, $s:ident, $f:ident, [$($via:ident)?] $fin:ident, $fany:ident) => {
        if $q.any[$i] {
            $s.$fany()?
        } else {
            $s.$fin($q.lists[$i].iter().map(|k| value!(k.$f $(, $via)?)))?
        }
    };
}

/// A listed key's field value as the IN-list takes it (`via`: `Option<String>` → `Option<&str>`).
macro_rules! value {
    ($e:expr) => {
        $e.clone()
    };
    ($e:expr, $via:ident) => {
        $e.$via()
    };
}

macro_rules! layout {
    (
        $key:ident, $name:literal;
        random($r:ident) = $make:expr;
        fields { $( ($i:literal $f:ident $fin:ident $(via($via:ident))? $(any($fany:ident))? $(range($fr:ident))? $(starts($fsw:ident))?) )+ }
    ) => {
        impl Layout for $key {
            const NAME: &'static str = $name;
            const N: usize = [$($i),+].len();
            const FINITE: &'static [usize] = &[$($( { let _ = stringify!($fany); $i },)?)+];
            const RANGES: &'static [usize] = &[$($( { let _ = stringify!($fr); $i },)?)+];
            const STARTS: &'static [usize] = &[$($( { let _ = stringify!($fsw); $i },)?)+];
            fn random($r: &mut Rng) -> Self {
                $make
            }
            fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
                match i {
                    $($i => a.$f == b.$f,)+
                    _ => unreachable!(),
                }
            }
            fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
                match i {
                    $($i => shapes::contains(&shapes::bounds(sh, &lo.$f, &hi.$f), &&k.$f),)+
                    _ => unreachable!(),
                }
            }
            fn field_starts(i: usize, pk: &Self, n: usize, k: &Self) -> bool {
                let _ = (pk, n, k); // a layout may have no starts-with field
                $($(
                    if i == $i {
                        let _ = stringify!($fsw);
                        return Content::begins(&k.$f, &Content::cut(&pk.$f, n));
                    }
                )?)+
                unreachable!("field {i} has no starts-with")
            }
            fn scan(q: &Query<Self>) -> Result<ScanRanges, TooManyRanges> {
                chain!(q, $key::scan(); $(($i $f $fin $(via($via))? $(any($fany))? $(range($fr))? $(starts($fsw))?))+)
            }
        }
    };
}

layout! {
    Guide, "(a) uid + event_type + biz_type + ts";
    random(r) = Guide {
        uid: *r.pick(&[0, 1, 2, 10_457, u64::MAX]),
        event: r.event(),
        biz: r.text(),
        ts: *r.pick(&[0, 5, 99, u64::MAX]),
    };
    fields {
        (0 uid uid_in range(uid_range))
        (1 event event_in any(event_any) range(event_range))
        (2 biz biz_in range(biz_range) starts(biz_starts_with))
        (3 ts ts_in range(ts_range))
    }
}

layout! {
    Mixed, "(b) desc i32 + java i64 + bool + Option<String> + u16";
    random(r) = Mixed {
        a: *r.pick(&[i32::MIN, -1, 0, 1, i32::MAX]),
        b: *r.pick(&[i64::MIN, -7, 0, 7, i64::MAX]),
        flag: r.next().is_multiple_of(2),
        c: if r.next().is_multiple_of(3) { None } else { Some(r.text()) },
        d: *r.pick(&[0, 1, 0xFF, 0x100, u16::MAX]),
    };
    fields {
        (0 a a_in range(a_range))
        (1 b b_in range(b_range))
        (2 flag flag_in any(flag_any) range(flag_range))
        (3 c c_in via(as_deref))
        (4 d d_in range(d_range))
    }
}

layout! {
    Salted, "(c) salted prefix";
    random(r) = Salted {
        host: r.text(),
        kind: r.event(),
        seq: *r.pick(&[0, 1, 2, u32::MAX]),
    };
    fields {
        (0 host host_in range(host_range) starts(host_starts_with))
        (1 kind kind_in any(kind_any) range(kind_range))
        (2 seq seq_in range(seq_range))
    }
}

layout! {
    Hashed, "(d) hash prefix + reverse_ts + Option<bool>";
    random(r) = Hashed {
        user: *r.pick(&[0, 1, 2, 3, u64::MAX]),
        ts: *r.pick(&[0, 1, 1_700_000_000_000, i64::MAX]),
        flag: *r.pick(&[None, Some(false), Some(true)]),
        n: *r.pick(&[0, 1, 0xFF]),
    };
    fields {
        (0 user user_in)
        (1 ts ts_in range(ts_range))
        (2 flag flag_in any(flag_any))
        (3 n n_in range(n_range))
    }
}

layout! {
    Nested, "(e) nested key + Option<enum> + desc String last";
    random(r) = Nested {
        inner: Inner { a: *r.pick(&[0, 1, 0xFF]), e: r.event() },
        k: if r.next().is_multiple_of(3) { None } else { Some(r.event()) },
        name: r.text(),
    };
    fields {
        (0 inner inner_in range(inner_range))
        (1 k k_in any(k_any))
        (2 name name_in range(name_range) starts(name_starts_with))
    }
}

layout! {
    Whole, "(f) whole-key salt + Option<enum> + desc u32";
    random(r) = Whole {
        tenant: *r.pick(&[0, 1, 2, u16::MAX]),
        kind: if r.next().is_multiple_of(3) { None } else { Some(r.event()) },
        seq: *r.pick(&[0, 1, 2, u32::MAX]),
    };
    fields {
        (0 tenant tenant_in range(tenant_range))
        (1 kind kind_in any(kind_any))
        (2 seq seq_in range(seq_range))
    }
}

layout! {
    Blobs, "(g) Vec<u8> + Option<Vec<u8>> + bool + raw String last";
    random(r) = Blobs {
        tag: r.bytes(),
        opt: if r.next().is_multiple_of(3) { None } else { Some(r.bytes()) },
        flag: r.next().is_multiple_of(2),
        name: r.text(),
    };
    fields {
        (0 tag tag_in range(tag_range) starts(tag_starts_with))
        (1 opt opt_in)
        (2 flag flag_in any(flag_any) range(flag_range))
        (3 name name_in range(name_range) starts(name_starts_with))
    }
}

// ---------------------------------------------------------------------------------------------
// the harness

/// SplitMix64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len())]
    }
    fn event(&mut self) -> Event {
        *self.pick(&Event::domain())
    }
    /// Adversarial bytes: empty, prefixes of each other, 0x00/0x01/0xFF.
    fn bytes(&mut self) -> Vec<u8> {
        self.pick(&[
            &b""[..],
            b"\x00",
            b"\x00\x00",
            b"\x01",
            b"\x00\x01",
            b"\xFF",
            b"\xFF\xFF",
            b"a",
            b"ab",
            b"a\xFF",
        ])
        .to_vec()
    }
    /// Adversarial strings: empty, prefixes of each other, 0x01 and 0xFF-ish (UTF-8) content.
    fn text(&mut self) -> String {
        self.pick(&[
            "", "a", "ab", "abc", "a\u{1}", "b", "search", "search2", "\u{ff}", "zz",
        ])
        .to_string()
    }
}

fn salt_bucket(key: &[u8], salt_end: usize) -> &[u8] {
    key.get(..salt_end).unwrap_or(key)
}

fn run<K: Layout>(seed: u64) -> usize {
    let mut r = Rng(seed);
    // keys: sampled from small pools, so IN-lists hit and miss
    let mut keys: Vec<K> = Vec::new();
    let mut seen = BTreeSet::new();
    for _ in 0..300 {
        let k = K::random(&mut r);
        if seen.insert(k.to_row_key().unwrap().to_vec()) {
            keys.push(k);
        }
    }
    let db = Database::builder()
        .create_with_backend(InMemoryBackend::new())
        .unwrap();
    let tx = db.begin_write().unwrap();
    {
        let mut t = tx.open_table(T).unwrap();
        for (i, k) in keys.iter().enumerate() {
            t.insert(&k.to_row_key().unwrap()[..], i as u32).unwrap();
        }
    }
    tx.commit().unwrap();
    let rtx = db.begin_read().unwrap();
    let table = rtx.open_table(T).unwrap();

    let mut non_empty = 0;
    for n in 0..QUERIES_PER_LAYOUT {
        // the query
        let p = r.below(K::N + 1);
        let mut lists = Vec::new();
        let mut any = Vec::new();
        for i in 0..p {
            let use_any = K::FINITE.contains(&i) && r.below(3) == 0;
            any.push(use_any);
            let len = match r.below(10) {
                0 => 0,
                1..=4 => 1,
                _ => 2 + r.below(4),
            };
            let list: Vec<K> = (0..len)
                .map(|_| {
                    // mostly stored values, sometimes a value no key has
                    if r.below(5) == 0 {
                        K::random(&mut r)
                    } else {
                        keys[r.below(keys.len())].clone()
                    }
                })
                .collect();
            lists.push(list);
        }
        let range = (p < K::N && K::RANGES.contains(&p) && r.below(2) == 0).then(|| {
            let sh = *r.pick(&SHAPES);
            let (a, b) = (K::random(&mut r), K::random(&mut r));
            (sh, a, b)
        });
        let starts = (range.is_none() && p < K::N && K::STARTS.contains(&p) && r.below(2) == 0)
            .then(|| (keys[r.below(keys.len())].clone(), r.below(4)));
        let q = Query {
            p,
            lists,
            any,
            range,
            starts,
        };
        let ranges = K::scan(&q).unwrap_or_else(|e| panic!("{}: {q:?}: {e}", K::NAME));
        crate::common::ranges::assert_well_formed(&format_args!("{}: {q:?}", K::NAME), &ranges);
        let what = || format!("{} query {n}: {q:?}\nranges {ranges:?}", K::NAME);

        // exactly the selected keys
        let want: BTreeSet<Vec<u8>> = keys
            .iter()
            .filter(|k| selects(&q, k))
            .map(|k| k.to_row_key().unwrap().to_vec())
            .collect();
        for k in &keys {
            let b = k.to_row_key().unwrap();
            assert_eq!(
                ranges.contains(&b),
                want.contains(&b[..]),
                "{k:?}: {}",
                what()
            );
        }
        let mut got = BTreeSet::new();
        for range in ranges.iter() {
            for row in table.range::<&[u8]>(range.bounds()).unwrap() {
                let (k, _) = row.unwrap();
                assert!(got.insert(k.value().to_vec()), "a key twice: {}", what());
            }
        }
        assert_eq!(got, want, "{}", what());

        // minimal: sorted, disjoint, touching only across salt buckets
        let salt_end = ranges.salt_end();
        for (a, b) in ranges.iter().zip(ranges.iter().skip(1)) {
            let stop = a
                .stop()
                .unwrap_or_else(|| panic!("an unbounded range before another: {}", what()));
            assert!(stop <= b.start(), "overlapping ranges: {}", what());
            if stop == b.start() {
                assert_ne!(
                    salt_bucket(a.start(), salt_end),
                    salt_bucket(b.start(), salt_end),
                    "two ranges touch in one bucket (not minimal): {}",
                    what()
                );
            }
        }

        // typed merged reads, forward and reversed, in logical order
        if !want.is_empty() {
            non_empty += 1;
        }
        if n % 4 == 0 {
            let reverse = n % 8 == 0;
            let mut read = Read::<K>::new(ranges.clone());
            if reverse {
                read = read.reverse();
            }
            let rows: Vec<(K, u32)> = rows(&table, read)
                .unwrap()
                .map(|row| row.map(|(k, v)| (k, v.value())))
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{e}: {}", what()));
            let bytes: Vec<Vec<u8>> = rows
                .iter()
                .map(|(k, _)| k.to_row_key().unwrap().to_vec())
                .collect();
            let mut logical = bytes.clone();
            logical.sort_by(|x, y| x[salt_end..].cmp(&y[salt_end..]));
            if reverse {
                logical.reverse();
            }
            assert_eq!(bytes, logical, "merged read out of order: {}", what());
            assert_eq!(
                bytes.iter().cloned().collect::<BTreeSet<_>>(),
                want,
                "{}",
                what()
            );
            assert_eq!(bytes.len(), want.len(), "{}", what());
        }
    }
    non_empty
}

#[test]
fn guide_layout() {
    let hits = run::<Guide>(1);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

#[test]
fn desc_java_bool_option_layout() {
    let hits = run::<Mixed>(2);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

#[test]
fn salted_prefix_layout() {
    let hits = run::<Salted>(3);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

#[test]
fn hashed_reverse_ts_layout() {
    let hits = run::<Hashed>(4);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

#[test]
fn nested_layout() {
    let hits = run::<Nested>(5);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

#[test]
fn bytes_layout() {
    let hits = run::<Blobs>(7);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

#[test]
fn whole_key_salt_layout() {
    let hits = run::<Whole>(6);
    assert!(
        hits > QUERIES_PER_LAYOUT / 4,
        "only {hits} queries selected a key"
    );
}

/// The guide's "hard" queries, plainly: `uid=10457 AND biz_type=search` (event_type skipped:
/// one range per event type) and `uid IN (…) AND event_type=click`.
#[test]
fn guide_queries() {
    let key = |uid, event, biz: &str, ts| Guide {
        uid,
        event,
        biz: biz.into(),
        ts,
    };
    let all = [
        key(10_457, Event::Click, "search", 1),
        key(10_457, Event::View, "search", 2),
        key(10_457, Event::View, "search2", 3),
        key(10_457, Event::Buy, "ads", 4),
        key(10_458, Event::Click, "search", 5),
        key(7, Event::Click, "search", 6),
        key(7, Event::Share, "ads", 7),
    ];
    let bytes = |k: &Guide| k.to_row_key().unwrap();

    let hard = Guide::scan()
        .uid(10_457)
        .event_any()
        .unwrap()
        .biz("search")
        .ranges();
    assert_eq!(hard.len(), Event::domain().len()); // one range per event type, none touch
    let hits: Vec<u64> = all
        .iter()
        .filter(|k| hard.contains(&bytes(k)))
        .map(|k| k.ts)
        .collect();
    assert_eq!(hits, [1, 2]);

    let clicks = Guide::scan()
        .uid_in([7, 10_457])
        .unwrap()
        .event(Event::Click)
        .ranges();
    assert_eq!(clicks.len(), 2);
    let hits: Vec<u64> = all
        .iter()
        .filter(|k| clicks.contains(&bytes(k)))
        .map(|k| k.ts)
        .collect();
    assert_eq!(hits, [1, 6]);

    // consecutive values make one range; repeated ones count once; an empty list nothing
    let run = Guide::scan().uid_in([3, 1, 2, 2]).unwrap().ranges();
    assert_eq!(run.len(), 1);
    assert_eq!(run.as_slice()[0].start(), 1u64.to_be_bytes());
    assert_eq!(run.as_slice()[0].stop(), Some(&4u64.to_be_bytes()[..]));
    assert!(Guide::scan().uid_in([0u64; 0]).unwrap().ranges().is_empty());
    // every field fixed by lists: one exact key per combination
    let exact = Guide::scan()
        .uid_in([7, 10_457])
        .unwrap()
        .event_in([Event::Click, Event::Share])
        .unwrap()
        .biz_in(["search", "ads"])
        .unwrap()
        .ts_in([1, 6, 7])
        .unwrap()
        .ranges();
    let hits: Vec<u64> = all
        .iter()
        .filter(|k| exact.contains(&bytes(k)))
        .map(|k| k.ts)
        .collect();
    assert_eq!(hits, [1, 6, 7]);
}

#[test]
fn too_many_alternatives() {
    let e = Guide::scan()
        .uid_in(0..10_000)
        .unwrap()
        .event_any()
        .unwrap()
        .biz_in(["a", "b", "c"])
        .unwrap_err();
    assert_eq!(e.field(), "biz");
    assert!(e.alternatives() > rowkey::scan::MAX_ALTERNATIVES);
    // below the cap it is fine, and the count is what was asked for
    let ok = Guide::scan()
        .uid_in(0..1_000)
        .unwrap()
        .event_any()
        .unwrap()
        .ranges();
    // each uid with every event type is one range (the four codes are consecutive), and so
    // is the next uid's: only codes no event type has (4..=255) lie between, so the ranges
    // join (issue 37: minimal ranges) — one range from uid 0 to the end of uid 999
    assert_eq!(ok.len(), 1);
    let first = &ok.as_slice()[0];
    let mut end = 999u64.to_be_bytes().to_vec();
    end.push(4);
    assert_eq!(
        first.bounds(),
        (Bound::Included(&[0u8; 9][..]), Bound::Excluded(&end[..]))
    );
}
