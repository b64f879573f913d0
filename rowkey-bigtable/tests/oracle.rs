//! Typed reads from the Cloud Bigtable emulator against a brute-force oracle.
//!
//! Six layouts — (1) salted prefix, (2) whole-key salt (every scan short of the full key fans
//! out over 16 buckets), (3) `hash_prefix`, (4) modulo time buckets, (5) no salt with a
//! fixed-width id that can be all `0xFF` (scans with no upper bound), (6) a constant prefix and a
//! 2-byte salt before a `#[rowkey(java)]` signed field and an `Option` — each written to its own
//! emulator table (pre-split at `T::split_points` where the layout has them) through `Batch`,
//! then queried with every builder form: equality prefixes of every length, `_range` on every
//! orderable field with all nine bound shapes (`a..b`, `a..=b`, `a..`, `..b`, `..=b`, `..`,
//! `(Excluded(a), Excluded(b))`, `(Excluded(a), Included(b))`, `(Excluded(a), Unbounded)`),
//! and `_starts_with` on every string/bytes field that has it. Values include `0x00`/`0x01`/
//! `0xFF` bytes, `host1`/`host12`-style prefix pairs, empty strings and extreme integers.
//!
//! For each query, the oracle filters the written keys with a predicate on the field values
//! (never with the scan ranges) and sorts them by the key after the salt (logical order):
//!
//! - the merged read (one `ReadRows` per range, concurrently) equals it, in order, and each
//!   row carries the value written for its key;
//! - every 2nd query: the reverse read equals it reversed;
//! - every 3rd query: the single-request read equals it in byte order;
//! - every 4th query: read in requests of 1–5 rows (plus one per 8 rows of the result; `chunk_rows`, each request continuing after
//!   the last key of the one before), merged or single-request, forward or reverse: the same;
//! - every 5th query: reading it in pages (`limit` + `after` the last key, `after` before or
//!   after `reverse`) gives it back whole.
//!
//! `QUERIES_PER_LAYOUT` × 6 layouts = 3,000 queries, each checked.

use std::collections::HashMap;
use std::fmt::Debug;
use std::ops::Bound;

use rowkey::{RowKey, ScanRanges};
use rowkey_bigtable::emulator::Emulator;
use rowkey_bigtable::{Batch, Cell, Client, TypedKey};

const QUERIES_PER_LAYOUT: usize = 500;

// ---------------------------------------------------------------------------------------------
// Layouts

/// (1) salted prefix: the salt hashes `host` only.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[salt(buckets = 8)]
    #[sep]
    host: String,
    #[sep]
    data: Vec<u8>,
    ts: u64,
}

/// (2) whole-key salt (Phoenix style).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
struct Whole {
    #[sep]
    user: Vec<u8>,
    kind: u8,
    ts: u64,
}

/// (3) hash prefix, newest first, raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    #[hash_prefix(4)]
    #[sep]
    user: String,
    #[reverse_ts]
    ts: i64,
    tag: Vec<u8>,
}

/// (4) modulo time buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Bucketed {
    #[salt(buckets = 16, modulo)]
    ts: u64,
    #[sep]
    host: String,
    event: u8,
}

/// (5) no salt; an id that can be all 0xFF, a separated name, a descending counter.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Plain {
    id: [u8; 2],
    #[sep]
    name: Vec<u8>,
    #[desc]
    rev: u16,
}

/// (6) interop behind a constant prefix and a 2-byte salt: a Java-encoded signed field (a range
/// is up to two byte ranges) and an `Option` (None first).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"ix:")]
struct Interop {
    #[salt(buckets = 260)]
    shop: u8,
    #[rowkey(java)]
    delta: i32,
    level: Option<u16>,
}

// ---------------------------------------------------------------------------------------------
// Values

/// SplitMix64: deterministic.
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
    fn pick<T: Clone>(&mut self, pool: &[T]) -> T {
        pool[self.below(pool.len())].clone()
    }
}

const HOSTS: &[&str] = &[
    "host1",
    "host12",
    "host2",
    "host",
    "",
    "h\u{0}",
    "h\u{0}x",
    "h\u{1}",
    "h\u{1}\u{1}",
    "a",
    "zz",
    "host1\u{0}",
    "host1\u{1}",
];

fn bytes_pool() -> Vec<Vec<u8>> {
    vec![
        vec![],
        vec![0],
        vec![0, 0],
        vec![1],
        vec![0, 1],
        vec![1, 0],
        vec![0xFF],
        vec![0xFF, 0xFF],
        vec![0xFF, 0xFF, 0xFF],
        vec![0xFF, 0x00],
        vec![0xFE, 0xFF],
        vec![0x00, 0xFF],
        b"host1".to_vec(),
        b"host12".to_vec(),
    ]
}

const TS_BASE: u64 = 1_700_000_000_000;

fn ts_pool() -> Vec<u64> {
    let mut v: Vec<u64> = (0..24).map(|i| TS_BASE + i * 7).collect();
    v.extend([0, 1, 255, 256, u64::MAX, u64::MAX - 1]);
    v
}

fn i64_ts_pool() -> Vec<i64> {
    let mut v: Vec<i64> = (0..12).map(|i| TS_BASE as i64 + i * 1000).collect();
    v.extend([0, 1, i64::MAX]);
    v
}

/// Prefixes for `_starts_with`: pool values and their prefixes.
fn prefixes_of(values: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = values
        .iter()
        .flat_map(|v| (0..=v.len()).map(move |i| v[..i].to_vec()))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn str_prefixes() -> Vec<String> {
    let mut out: Vec<String> = HOSTS
        .iter()
        .flat_map(|h| {
            h.char_indices()
                .map(|(i, _)| h[..i].to_owned())
                .chain([h.to_string()])
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

// ---------------------------------------------------------------------------------------------
// Range shapes

#[derive(Clone, Copy, Debug)]
enum Shape {
    HalfOpen,
    Closed,
    From,
    To,
    ToClosed,
    Full,
    OpenOpen,
    OpenClosed,
    OpenFrom,
}

const SHAPES: [Shape; 9] = [
    Shape::HalfOpen,
    Shape::Closed,
    Shape::From,
    Shape::To,
    Shape::ToClosed,
    Shape::Full,
    Shape::OpenOpen,
    Shape::OpenClosed,
    Shape::OpenFrom,
];

fn bounds<V>(shape: Shape, a: V, b: V) -> (Bound<V>, Bound<V>) {
    use Bound::{Excluded, Included, Unbounded};
    match shape {
        Shape::HalfOpen => (Included(a), Excluded(b)),
        Shape::Closed => (Included(a), Included(b)),
        Shape::From => (Included(a), Unbounded),
        Shape::To => (Unbounded, Excluded(b)),
        Shape::ToClosed => (Unbounded, Included(b)),
        Shape::Full => (Unbounded, Unbounded),
        Shape::OpenOpen => (Excluded(a), Excluded(b)),
        Shape::OpenClosed => (Excluded(a), Included(b)),
        Shape::OpenFrom => (Excluded(a), Unbounded),
    }
}

fn contains<V: Ord>(b: &(Bound<V>, Bound<V>), v: &V) -> bool {
    let lo = match &b.0 {
        Bound::Included(a) => v >= a,
        Bound::Excluded(a) => v > a,
        Bound::Unbounded => true,
    };
    let hi = match &b.1 {
        Bound::Included(a) => v <= a,
        Bound::Excluded(a) => v < a,
        Bound::Unbounded => true,
    };
    lo && hi
}

/// Builds the `RangeBounds` value of a shape (each shape is its own type) and runs `$body`.
macro_rules! with_range {
    ($shape:expr, $a:expr, $b:expr, |$r:ident| $body:expr) => {{
        let (a, b) = ($a, $b);
        match $shape {
            Shape::HalfOpen => {
                let $r = a..b;
                $body
            }
            Shape::Closed => {
                let $r = a..=b;
                $body
            }
            Shape::From => {
                let _ = b;
                let $r = a..;
                $body
            }
            Shape::To => {
                let _ = a;
                let $r = ..b;
                $body
            }
            Shape::ToClosed => {
                let _ = a;
                let $r = ..=b;
                $body
            }
            Shape::Full => {
                let _ = (a, b);
                let $r = ..;
                $body
            }
            Shape::OpenOpen => {
                let $r = (Bound::Excluded(a), Bound::Excluded(b));
                $body
            }
            Shape::OpenClosed => {
                let $r = (Bound::Excluded(a), Bound::Included(b));
                $body
            }
            Shape::OpenFrom => {
                let _ = b;
                let $r = (Bound::Excluded(a), Bound::Unbounded);
                $body
            }
        }
    }};
}

// ---------------------------------------------------------------------------------------------
// Queries

type Pred<T> = Box<dyn Fn(&T) -> bool>;

struct Query<T> {
    form: String,
    ranges: ScanRanges,
    pred: Pred<T>,
}

fn q<T>(
    form: impl Into<String>,
    ranges: ScanRanges,
    pred: impl Fn(&T) -> bool + 'static,
) -> Query<T> {
    Query {
        form: form.into(),
        ranges,
        pred: Box::new(pred),
    }
}

trait Case: TypedKey + Clone + Debug + PartialEq + Send + 'static {
    const TABLE: &'static str;
    /// Number of builder forms [`Case::query`] chooses from.
    const FORMS: usize;
    fn random(rng: &mut Rng) -> Self;
    /// Query of form `form`, with equality values from `t` and range bounds from `lo`, `hi`.
    fn query(
        form: usize,
        shape: Shape,
        t: &Self,
        lo: &Self,
        hi: &Self,
        rng: &mut Rng,
    ) -> Query<Self>;
}

impl Case for Salted {
    const TABLE: &'static str = "salted";
    const FORMS: usize = 9;
    fn random(rng: &mut Rng) -> Self {
        Salted {
            host: rng.pick(HOSTS).to_owned(),
            data: rng.pick(&bytes_pool()),
            ts: rng.pick(&ts_pool()),
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Salted::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("host", s.host(&t.host).ranges(), move |k: &Self| {
                k.host == t.host
            }),
            2 => q(
                "host.data",
                s.host(&t.host).data(&t.data).ranges(),
                move |k: &Self| k.host == t.host && k.data == t.data,
            ),
            3 => q(
                "host.data.ts",
                s.host(&t.host).data(&t.data).ts(t.ts).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.host.clone(), hi.host.clone());
                let r = with_range!(sh, lo.host.clone(), hi.host.clone(), |r| s
                    .host_range(r)
                    .ranges());
                q(format!("host_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.host)
                })
            }
            5 => {
                let b = bounds(sh, lo.data.clone(), hi.data.clone());
                let r = with_range!(sh, lo.data.clone(), hi.data.clone(), |r| s
                    .host(&t.host)
                    .data_range(r)
                    .ranges());
                q(format!("host.data_range {sh:?}"), r, move |k: &Self| {
                    k.host == t.host && contains(&b, &k.data)
                })
            }
            6 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s
                    .host(&t.host)
                    .data(&t.data)
                    .ts_range(r)
                    .ranges());
                q(format!("host.data.ts_range {sh:?}"), r, move |k: &Self| {
                    k.host == t.host && k.data == t.data && contains(&b, &k.ts)
                })
            }
            7 => {
                let p = rng.pick(&str_prefixes());
                let r = s.host_starts_with(&p).ranges();
                q(format!("host_starts_with {p:?}"), r, move |k: &Self| {
                    k.host.starts_with(&p)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.host(&t.host).data_starts_with(&p).ranges();
                q(
                    format!("host.data_starts_with {p:?}"),
                    r,
                    move |k: &Self| k.host == t.host && k.data.starts_with(&p),
                )
            }
        }
    }
}

impl Case for Whole {
    const TABLE: &'static str = "whole";
    const FORMS: usize = 8;
    fn random(rng: &mut Rng) -> Self {
        Whole {
            user: rng.pick(&bytes_pool()),
            kind: rng.pick(&[0u8, 1, 7, 0xFF]),
            ts: rng.pick(&ts_pool()),
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Whole::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("user", s.user(&t.user).ranges(), move |k: &Self| {
                k.user == t.user
            }),
            2 => q(
                "user.kind",
                s.user(&t.user).kind(t.kind).ranges(),
                move |k: &Self| k.user == t.user && k.kind == t.kind,
            ),
            3 => q(
                "user.kind.ts",
                s.user(&t.user).kind(t.kind).ts(t.ts).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.user.clone(), hi.user.clone());
                let r = with_range!(sh, lo.user.clone(), hi.user.clone(), |r| s
                    .user_range(r)
                    .ranges());
                q(format!("user_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.user)
                })
            }
            5 => {
                let b = bounds(sh, lo.kind, hi.kind);
                let r = with_range!(sh, lo.kind, hi.kind, |r| s
                    .user(&t.user)
                    .kind_range(r)
                    .ranges());
                q(format!("user.kind_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && contains(&b, &k.kind)
                })
            }
            6 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s
                    .user(&t.user)
                    .kind(t.kind)
                    .ts_range(r)
                    .ranges());
                q(format!("user.kind.ts_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && k.kind == t.kind && contains(&b, &k.ts)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.user_starts_with(&p).ranges();
                q(format!("user_starts_with {p:?}"), r, move |k: &Self| {
                    k.user.starts_with(&p)
                })
            }
        }
    }
}

impl Case for Hashed {
    const TABLE: &'static str = "hashed";
    const FORMS: usize = 7;
    fn random(rng: &mut Rng) -> Self {
        Hashed {
            user: rng.pick(HOSTS).to_owned(),
            ts: rng.pick(&i64_ts_pool()),
            tag: rng.pick(&bytes_pool()),
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Hashed::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("user", s.user(&t.user).ranges(), move |k: &Self| {
                k.user == t.user
            }),
            2 => q(
                "user.ts",
                s.user(&t.user).ts(t.ts).ranges(),
                move |k: &Self| k.user == t.user && k.ts == t.ts,
            ),
            3 => q(
                "user.ts.tag",
                s.user(&t.user).ts(t.ts).tag(&t.tag).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s.user(&t.user).ts_range(r).ranges());
                q(format!("user.ts_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && contains(&b, &k.ts)
                })
            }
            5 => {
                let b = bounds(sh, lo.tag.clone(), hi.tag.clone());
                let r = with_range!(sh, lo.tag.clone(), hi.tag.clone(), |r| s
                    .user(&t.user)
                    .ts(t.ts)
                    .tag_range(r)
                    .ranges());
                q(format!("user.ts.tag_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && k.ts == t.ts && contains(&b, &k.tag)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.user(&t.user).ts(t.ts).tag_starts_with(&p).ranges();
                q(
                    format!("user.ts.tag_starts_with {p:?}"),
                    r,
                    move |k: &Self| k.user == t.user && k.ts == t.ts && k.tag.starts_with(&p),
                )
            }
        }
    }
}

impl Case for Bucketed {
    const TABLE: &'static str = "bucketed";
    const FORMS: usize = 8;
    fn random(rng: &mut Rng) -> Self {
        Bucketed {
            ts: rng.pick(&ts_pool()),
            host: rng.pick(HOSTS).to_owned(),
            event: rng.pick(&[0u8, 1, 2, 0xFF]),
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Bucketed::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("ts", s.ts(t.ts).ranges(), move |k: &Self| k.ts == t.ts),
            2 => q(
                "ts.host",
                s.ts(t.ts).host(&t.host).ranges(),
                move |k: &Self| k.ts == t.ts && k.host == t.host,
            ),
            3 => q(
                "ts.host.event",
                s.ts(t.ts).host(&t.host).event(t.event).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s.ts_range(r).ranges());
                q(format!("ts_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.ts)
                })
            }
            5 => {
                let b = bounds(sh, lo.host.clone(), hi.host.clone());
                let r = with_range!(sh, lo.host.clone(), hi.host.clone(), |r| s
                    .ts(t.ts)
                    .host_range(r)
                    .ranges());
                q(format!("ts.host_range {sh:?}"), r, move |k: &Self| {
                    k.ts == t.ts && contains(&b, &k.host)
                })
            }
            6 => {
                let b = bounds(sh, lo.event, hi.event);
                let r = with_range!(sh, lo.event, hi.event, |r| s
                    .ts(t.ts)
                    .host(&t.host)
                    .event_range(r)
                    .ranges());
                q(format!("ts.host.event_range {sh:?}"), r, move |k: &Self| {
                    k.ts == t.ts && k.host == t.host && contains(&b, &k.event)
                })
            }
            _ => {
                let p = rng.pick(&str_prefixes());
                let r = s.ts(t.ts).host_starts_with(&p).ranges();
                q(format!("ts.host_starts_with {p:?}"), r, move |k: &Self| {
                    k.ts == t.ts && k.host.starts_with(&p)
                })
            }
        }
    }
}

const IDS: &[[u8; 2]] = &[
    [0xFF, 0xFF],
    [0xFF, 0xFE],
    [0xFE, 0xFF],
    [0x00, 0x00],
    [0x00, 0x01],
    [0x01, 0x00],
    [0x7F, 0xFF],
];

impl Case for Plain {
    const TABLE: &'static str = "plain";
    const FORMS: usize = 8;
    fn random(rng: &mut Rng) -> Self {
        Plain {
            id: rng.pick(IDS),
            name: rng.pick(&bytes_pool()),
            rev: rng.pick(&[0u16, 1, 0xFF, 0x100, u16::MAX]),
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Plain::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("id", s.id(t.id).ranges(), move |k: &Self| k.id == t.id),
            2 => q(
                "id.name",
                s.id(t.id).name(&t.name).ranges(),
                move |k: &Self| k.id == t.id && k.name == t.name,
            ),
            3 => q(
                "id.name.rev",
                s.id(t.id).name(&t.name).rev(t.rev).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.id, hi.id);
                let r = with_range!(sh, lo.id, hi.id, |r| s.id_range(r).ranges());
                q(format!("id_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.id)
                })
            }
            5 => {
                let b = bounds(sh, lo.name.clone(), hi.name.clone());
                let r = with_range!(sh, lo.name.clone(), hi.name.clone(), |r| s
                    .id(t.id)
                    .name_range(r)
                    .ranges());
                q(format!("id.name_range {sh:?}"), r, move |k: &Self| {
                    k.id == t.id && contains(&b, &k.name)
                })
            }
            6 => {
                let b = bounds(sh, lo.rev, hi.rev);
                let r = with_range!(sh, lo.rev, hi.rev, |r| s
                    .id(t.id)
                    .name(&t.name)
                    .rev_range(r)
                    .ranges());
                q(format!("id.name.rev_range {sh:?}"), r, move |k: &Self| {
                    k.id == t.id && k.name == t.name && contains(&b, &k.rev)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.id(t.id).name_starts_with(&p).ranges();
                q(format!("id.name_starts_with {p:?}"), r, move |k: &Self| {
                    k.id == t.id && k.name.starts_with(&p)
                })
            }
        }
    }
}

impl Case for Interop {
    const TABLE: &'static str = "interop";
    const FORMS: usize = 5;
    fn random(rng: &mut Rng) -> Self {
        let delta = if rng.below(2) == 0 {
            rng.pick(&[i32::MIN, -70_000, -2, -1, 0, 1, 2, 70_000, i32::MAX])
        } else {
            rng.below(101) as i32 - 50
        };
        Interop {
            shop: rng.pick(&[0u8, 1, 2, 0xFF]),
            delta,
            level: rng.pick(&[None, Some(0u16), Some(1), Some(0xFF), Some(u16::MAX)]),
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, _: &mut Rng) -> Query<Self> {
        let s = Interop::scan();
        let t = t.clone();
        match form {
            0 => q("shop", s.shop(t.shop).ranges(), move |k: &Self| {
                k.shop == t.shop
            }),
            1 => q(
                "shop.delta",
                s.shop(t.shop).delta(t.delta).ranges(),
                move |k: &Self| k.shop == t.shop && k.delta == t.delta,
            ),
            2 => {
                let b = bounds(sh, lo.delta, hi.delta);
                let r = with_range!(sh, lo.delta, hi.delta, |r| s
                    .shop(t.shop)
                    .delta_range(r)
                    .ranges());
                q(format!("shop.delta_range {sh:?}"), r, move |k: &Self| {
                    k.shop == t.shop && contains(&b, &k.delta)
                })
            }
            3 => {
                let b = bounds(sh, lo.level, hi.level);
                let r = with_range!(sh, lo.level, hi.level, |r| s
                    .shop(t.shop)
                    .delta(t.delta)
                    .level_range(r)
                    .ranges());
                q(
                    format!("shop.delta.level_range {sh:?}"),
                    r,
                    move |k: &Self| {
                        k.shop == t.shop && k.delta == t.delta && contains(&b, &k.level)
                    },
                )
            }
            _ => q(
                "shop.delta.level",
                s.shop(t.shop).delta(t.delta).level(t.level).ranges(),
                move |k: &Self| *k == t,
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The runner

fn client() -> Client {
    let emulator = Emulator::shared().unwrap_or_else(|e| panic!("{e}"));
    Client::emulator(emulator.endpoint(), "oracle", "oracle").expect("emulator client")
}

struct Stats {
    queries: usize,
    fanned_out: usize,
    unbounded: usize,
    rows_checked: usize,
}

/// Write `rows` keys of `T`, run `QUERIES_PER_LAYOUT` queries, return what was checked.
async fn run<T: Case>(seed: u64, rows: usize) -> Stats {
    let client = client();
    let admin = client.admin().await.expect("admin");
    let splits = T::split_points(8).unwrap_or_default();
    admin
        .create_table(T::TABLE, &["f"], &splits)
        .await
        .expect("create table");
    let table = client.table(T::TABLE);
    let skip = T::LAYOUT.salt_end();

    let mut rng = Rng(seed);
    let mut written: HashMap<Vec<u8>, (usize, T)> = HashMap::new();
    let mut all: Vec<(Vec<u8>, T)> = Vec::new(); // in write order: the run is deterministic
    let mut batch = Batch::new();
    for _ in 0..rows * 4 {
        if written.len() == rows {
            break;
        }
        let k = T::random(&mut rng);
        let bytes = k.to_row_key().expect("encode").to_vec();
        if written.contains_key(&bytes) {
            continue;
        }
        let i = written.len();
        batch.put_raw(&table, bytes.clone(), [Cell::new("f", "i", i.to_string())]);
        all.push((bytes.clone(), k.clone()));
        written.insert(bytes, (i, k));
    }
    assert_eq!(batch.apply().await.expect("write"), written.len());
    let keys: Vec<T> = all.iter().map(|(_, k)| k.clone()).collect();

    let mut stats = Stats {
        queries: 0,
        fanned_out: 0,
        unbounded: 0,
        rows_checked: 0,
    };
    for n in 0..QUERIES_PER_LAYOUT {
        // Equality values from a written key (4 in 5) or a fresh random one (often absent).
        let t = if rng.below(5) == 0 {
            T::random(&mut rng)
        } else {
            rng.pick(&keys)
        };
        let (lo, hi) = (T::random(&mut rng), T::random(&mut rng));
        let form = n % T::FORMS;
        let shape = SHAPES[(n / T::FORMS) % SHAPES.len()];
        let query = T::query(form, shape, &t, &lo, &hi, &mut rng);

        let mut expected: Vec<&(Vec<u8>, T)> =
            all.iter().filter(|(_, k)| (query.pred)(k)).collect();
        expected.sort_by(|a, b| a.0[skip..].cmp(&b.0[skip..]));
        let want: Vec<T> = expected.iter().map(|(_, k)| k.clone()).collect();
        let ctx = || {
            format!(
                "{} query {n}: {} {:?} ranges {:?}",
                T::TABLE,
                query.form,
                t,
                query.ranges
            )
        };

        // Merged, forward: exactly the oracle's rows, in logical order, with their values.
        let got = table
            .read::<T>(&query.ranges)
            .collect()
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", ctx()));
        for (k, row) in &got {
            let (i, _) = &written[&row.key];
            assert_eq!(
                row.value("f", b"i"),
                Some(i.to_string().as_bytes()),
                "{}",
                ctx()
            );
            assert_eq!(k.to_row_key().expect("encode").as_ref(), row.key.as_slice());
        }
        let got: Vec<T> = got.into_iter().map(|(k, _)| k).collect();
        assert_eq!(got, want, "{}", ctx());
        stats.queries += 1;
        stats.rows_checked += got.len();
        stats.fanned_out += usize::from(query.ranges.len() > 1);
        stats.unbounded += usize::from(
            !want.is_empty()
                && query
                    .ranges
                    .iter()
                    .any(|r| r.stop().is_none() && !r.start().is_empty()),
        );

        if n % 2 == 0 {
            let rev = table
                .read::<T>(&query.ranges)
                .reverse()
                .keys()
                .await
                .unwrap_or_else(|e| panic!("reverse {}: {e}", ctx()));
            let mut want_rev = want.clone();
            want_rev.reverse();
            assert_eq!(rev, want_rev, "reverse {}", ctx());
        }
        if n % 3 == 0 {
            let single = table
                .read::<T>(&query.ranges)
                .single_request()
                .keys()
                .await
                .unwrap_or_else(|e| panic!("single {}: {e}", ctx()));
            let mut by_bytes = expected.clone();
            by_bytes.sort_by(|a, b| a.0.cmp(&b.0));
            let want_bytes: Vec<T> = by_bytes.iter().map(|(_, k)| k.clone()).collect();
            assert_eq!(single, want_bytes, "single request {}", ctx());
        }
        if n % 4 == 1 {
            // small requests, each continuing after the last key of the one before
            let chunk = (1 + rng.below(5) + want.len() / 8) as u64;
            let reverse = n % 8 == 1;
            let single = n % 3 == 1;
            let mut read = table.read::<T>(&query.ranges).chunk_rows(chunk);
            if reverse {
                read = read.reverse();
            }
            if single {
                read = read.single_request();
            }
            let got = read
                .keys()
                .await
                .unwrap_or_else(|e| panic!("chunked {}: {e}", ctx()));
            let mut want_chunked: Vec<T> = if single {
                let mut by_bytes = expected.clone();
                by_bytes.sort_by(|a, b| a.0.cmp(&b.0));
                by_bytes.iter().map(|(_, k)| k.clone()).collect()
            } else {
                want.clone()
            };
            if reverse {
                want_chunked.reverse();
            }
            assert_eq!(
                got,
                want_chunked,
                "chunks of {chunk} (reverse {reverse}, single {single}) {}",
                ctx()
            );
        }
        if n % 5 == 0 {
            let page = 1 + want.len() / 3 + rng.below(3);
            let reverse = n % 10 == 0;
            let mut paged: Vec<T> = Vec::new();
            loop {
                // the options in either order: `after` applies to the final direction
                let reverse_first = rng.below(2) == 0;
                let mut read = table.read::<T>(&query.ranges).limit(page as u64);
                if reverse && reverse_first {
                    read = read.reverse();
                }
                if let Some(last) = paged.last() {
                    read = read.after(last).expect("encode");
                }
                if reverse && !reverse_first {
                    read = read.reverse();
                }
                let got = read
                    .keys()
                    .await
                    .unwrap_or_else(|e| panic!("page {}: {e}", ctx()));
                assert!(got.len() <= page);
                let done = got.len() < page;
                paged.extend(got);
                if done {
                    break;
                }
            }
            let mut want_paged = want.clone();
            if reverse {
                want_paged.reverse();
            }
            assert_eq!(
                paged,
                want_paged,
                "pages of {page} (reverse: {reverse}) {}",
                ctx()
            );
        }
    }
    eprintln!(
        "{}: {} queries ({} fanned out, {} non-empty with an unbounded range), {} rows checked",
        T::TABLE,
        stats.queries,
        stats.fanned_out,
        stats.unbounded,
        stats.rows_checked
    );
    stats
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn salted_prefix() {
    let s = run::<Salted>(1, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 50,
        "host_range / host_starts_with / all fan out over 8 buckets"
    );
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_key_salt() {
    let s = run::<Whole>(2, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 300,
        "every form short of the full key fans out"
    );
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hash_prefix() {
    let s = run::<Hashed>(3, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT);
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modulo_time_buckets() {
    let s = run::<Bucketed>(4, 1500).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT);
    assert!(s.fanned_out > 30);
    assert!(s.rows_checked > 10_000, "{}", s.rows_checked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsalted_all_ff_prefix() {
    let s = run::<Plain>(5, 1000).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT);
    // `.id([0xFF, 0xFF])` and friends: ranges with no upper bound, and rows in them.
    assert!(
        s.unbounded > 5,
        "{} non-empty queries with an unbounded range",
        s.unbounded
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prefix_wide_salt_java_option() {
    let s = run::<Interop>(6, 1000).await;
    assert_eq!(s.queries, QUERIES_PER_LAYOUT);
    assert!(
        s.fanned_out > 20,
        "java ranges across zero: two byte ranges"
    );
    assert!(s.rows_checked > 5_000, "{}", s.rows_checked);
}

/// The pairs the rowkey guides warn about, stated plainly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host1_is_not_host12() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table(
            "host1_host12",
            &["f"],
            &Salted::split_points(8).expect("splits"),
        )
        .await
        .expect("create");
    let table = client.table("host1_host12");
    let mut batch = Batch::new();
    for host in ["host1", "host12", "host1\u{0}", "host"] {
        for ts in 0..3 {
            let k = Salted {
                host: host.into(),
                data: vec![0xFF, 0x00, 0x01],
                ts,
            };
            batch
                .put(&table, &k, [Cell::new("f", "i", "")])
                .expect("put");
        }
    }
    batch.apply().await.expect("write");
    let hosts = |v: Vec<Salted>| v.into_iter().map(|k| k.host).collect::<Vec<_>>();
    let one = table
        .read::<Salted>(&Salted::scan().host("host1").ranges())
        .keys()
        .await
        .expect("read");
    assert_eq!(hosts(one), ["host1"; 3]);
    let starts = table
        .read::<Salted>(&Salted::scan().host_starts_with("host1").ranges())
        .keys()
        .await
        .expect("read");
    let mut h = hosts(starts);
    h.dedup();
    assert_eq!(
        h,
        ["host1", "host1\u{0}", "host12"],
        "logical order across buckets"
    );
    // all-0xFF prefix: no upper bound, and it still finds exactly its rows
    let ff = Plain::scan().id([0xFF, 0xFF]).ranges();
    assert_eq!(ff.iter().next().and_then(|r| r.stop()), None);
}

/// The emulator's own check: a single range can be asked with Bigtable's reversed flag only
/// because the client sends the `bigtable-features` header; the merged reverse read of a
/// fan-out must not collect (it returns the first row with a limit of one, whatever the size).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reverse_limit_one_across_buckets() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table("rev_one", &["f"], &Whole::split_points(16).expect("splits"))
        .await
        .expect("create");
    let table = client.table("rev_one");
    let mut batch = Batch::new();
    for ts in 0..200u64 {
        let k = Whole {
            user: b"u".to_vec(),
            kind: 1,
            ts,
        };
        batch
            .put(&table, &k, [Cell::new("f", "i", "")])
            .expect("put");
    }
    batch.apply().await.expect("write");
    let ranges = Whole::scan().user(b"u").ranges();
    assert_eq!(ranges.len(), 16);
    let newest = table
        .read::<Whole>(&ranges)
        .reverse()
        .limit(1)
        .keys()
        .await
        .expect("read");
    assert_eq!(newest.iter().map(|k| k.ts).collect::<Vec<_>>(), [199]);
    let oldest = table
        .read::<Whole>(&ranges)
        .limit(3)
        .keys()
        .await
        .expect("read");
    assert_eq!(oldest.iter().map(|k| k.ts).collect::<Vec<_>>(), [0, 1, 2]);
}
