//! Typed scans against a real embedded store (redb, via `examples/support`), checked against a
//! brute-force oracle over the decoded keys (issue 3 item 5, issue 6 item 2).
//!
//! For the eight layouts of the brief — (a) salted prefix + reverse_ts, (b) whole-key salt, (c) modulo time
//! buckets, (d) hash prefix + desc separated string, (e) desc int + padded string + raw bytes
//! last, (f) padded decimal + custom separator + Option, (g) nested key + desc Option<String>
//! last, (h) tuple struct with a desc String last — each proptest case inserts a randomized,
//! adversarial key set (prefix-related strings, 0x00/0x01 escapes, 0xFF tails, extreme integers
//! and timestamps) into an in-memory redb store, then runs *every* builder form of the layout
//! (each equality prefix length 0..=n, `_range` on every orderable field after an equality prefix
//! with all nine `RangeBounds` shapes, `_starts_with` on every string/bytes field) and checks:
//!
//! - the keys the store returns for the `ScanRanges` equal the oracle's set (no missing key, no
//!   extra key), each returned key lies in the range that returned it, no key twice;
//! - `ScanRanges::contains` agrees with the oracle for every stored key;
//! - the ranges are sorted, non-empty and non-overlapping;
//! - salt fan-out: one range when the salted prefix is fixed (equality scans), one per bucket
//!   otherwise; every range stays inside one bucket; for `modulo` buckets a time range touches
//!   exactly the buckets `v % n` of the values it contains;
//! - `rowkey::merge::merge` of the per-range results is strictly sorted by the bytes after the
//!   salt and equals the oracle's set in that order.
//!
//! - `ScanRange::to_start_stop` / `to_bounds` select the same keys as `contains`.
//!
//! A ninth layout, (i), goes beyond the brief: a two-byte salt (300 buckets) over a desc padded
//! string, a `#[reverse]` integer, a desc nested key and desc raw bytes last.
//!
//! Prefix isolation: families of values where one is a byte prefix of another, or that differ
//! only in 0x00/0x01 or trailing 0xFF, replace one variable-length field's pool; every scan form
//! must still match the oracle exactly (an equality scan for one never returns another).
//! `isolation_direct` states it plainly on three layouts.
//!
//! Unencodable query values (`wild_*`): equality values, starts-with prefixes and range bounds
//! the layout cannot hold (negative `#[reverse_ts]` times, too long or fill-terminated padded
//! strings, 9-digit `#[pad(8)]` ids, tags containing the custom separator). Range scans with such
//! a bound are left out of the properties: they currently return nothing (see the ignored
//! `unencodable_bound_*` regression tests at the end of the file).
//!
//! Deterministic: fixed case counts, ChaCha with proptest's fixed deterministic seed, no failure
//! persistence; independent of `PROPTEST_*` seeds. About 10 s of CPU in the debug profile.
//!
//! Oracle conventions: natural `Ord` of the field type, except the `#[sep(b'|')]` field of layout
//! (f), whose documented order is that of its bytes followed by the separator (the design doc:
//! "order is then only preserved for content bytes above the separator"); for content above
//! `|` both orders agree.

#[path = "../examples/support/mod.rs"]
mod support;

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::ops::{Bound, RangeBounds};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use rowkey::{DecodeRowKey, RowKey, ScanRanges};
use support::Store;

// ---------------------------------------------------------------------------------------------
// Layouts

/// (a) salted prefix: salt over `host`, newest first, then a sequence number.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct A {
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    #[reverse_ts]
    ts: i64,
    seq: u32,
}

/// (b) whole-key salt (Phoenix default).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 8))]
struct B {
    tenant: u32,
    #[sep]
    name: String,
}

/// (c) modulo time buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct C {
    #[salt(buckets = 16, modulo)]
    ts: u64,
    #[sep]
    host: String,
    event: u8,
}

/// (d) hash prefix, then a descending separated string.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct D {
    #[hash_prefix(4)]
    uid: u64,
    #[desc]
    #[sep]
    kind: String,
    n: i16,
}

/// (e) descending int, padded string, raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct E {
    #[desc]
    score: i32,
    #[pad(6)]
    code: String,
    tail: Vec<u8>,
}

/// (f) padded decimal, custom separator, Option last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct F {
    #[pad(8)]
    id: u32,
    #[sep(b'|')]
    tag: String,
    opt: Option<u16>,
}

/// The nested key of (g).
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Inner {
    a: u8,
    #[sep]
    b: String,
}

/// (g) nested key first, descending Option<String> last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct G {
    inner: Inner,
    #[desc]
    c: Option<String>,
}

/// (h) tuple struct, descending String last without `#[sep]` (implicitly escaped).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct H(u8, #[desc] String);

/// (i) beyond the brief: a two-byte salt (300 buckets) over a desc padded string, a
/// `#[reverse]` integer (equality only), a desc nested key, desc raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct I {
    #[salt(buckets = 300)]
    #[desc]
    #[pad(4)]
    code: String,
    #[reverse]
    r: u16,
    #[desc]
    inner: Inner,
    #[desc]
    tail: Vec<u8>,
}

// ---------------------------------------------------------------------------------------------
// Range shapes

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `a..b`
    HalfOpen,
    /// `a..=b`
    Closed,
    /// `a..`
    From,
    /// `..b`
    To,
    /// `..=b`
    ToClosed,
    /// `..`
    Full,
    /// `(Excluded(a), Excluded(b))`
    OpenOpen,
    /// `(Excluded(a), Included(b))`
    OpenClosed,
    /// `(Excluded(a), Unbounded)`
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

/// Build the real `RangeBounds` value of `shape` from `a` and `b` and evaluate `body` with it.
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

/// The oracle's view of a shape: plain std bounds.
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

fn in_range<V: Ord>(shape: Shape, a: &V, b: &V, v: &V) -> bool {
    bounds(shape, a, b).contains(&v)
}

/// Order of a `#[sep(b'|')]` field as documented: its content bytes, then the separator.
fn sep_order(s: &str) -> Vec<u8> {
    let mut v = s.as_bytes().to_vec();
    v.push(b'|');
    v
}

// ---------------------------------------------------------------------------------------------
// The per-layout glue

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Equality on the first `n` fields, then `.ranges()`.
    Eq(usize),
    /// Equality on fields `0..i`, `_range` on field `i`.
    Range(usize),
    /// Equality on fields `0..i`, `_starts_with` on field `i`.
    Starts(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Salt {
    None,
    Phoenix { buckets: u32, through: usize },
    Modulo { buckets: u32 },
}

impl Salt {
    fn width(self) -> usize {
        match self {
            Salt::None => 0,
            Salt::Phoenix { buckets, .. } | Salt::Modulo { buckets } => {
                if buckets <= 256 {
                    1
                } else {
                    2
                }
            }
        }
    }
}

/// The content of a string or bytes field, for building `_starts_with` prefixes.
enum Content<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
}

/// One query: `t` gives the equality values, `lo`/`hi` the range bounds (of field `i`).
struct Query<'a, L> {
    form: Form,
    shape: Shape,
    t: &'a L,
    lo: &'a L,
    hi: &'a L,
    /// UTF-8 when the field is a string.
    prefix: &'a [u8],
}

impl<L> Query<'_, L> {
    fn text(&self) -> &str {
        std::str::from_utf8(self.prefix).expect("text prefixes are UTF-8")
    }
}

impl<L: Debug> Debug for Query<'_, L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.form)?;
        if let Form::Range(_) = self.form {
            write!(f, " {:?} lo={:?} hi={:?}", self.shape, self.lo, self.hi)?;
        }
        if let Form::Starts(_) = self.form {
            write!(
                f,
                " prefix={:?}",
                rowkey::hbase::to_string_binary(self.prefix)
            )?;
        }
        write!(f, " t={:?}", self.t)
    }
}

trait Case: RowKey + for<'de> DecodeRowKey<'de> + Clone + Debug + PartialEq {
    const NAME: &'static str;
    const N: usize;
    const SALT: Salt;
    /// Fields with a `_range` method.
    const RANGES: &'static [usize];
    /// Fields with a `_starts_with` method.
    const STARTS: &'static [usize];
    /// Variable-length fields (prefix-isolation targets).
    const VARLEN: &'static [usize];
    type Pools: Clone + Debug;
    /// Value pools per field; `wild` also draws values the layout cannot encode.
    fn pools(wild: bool) -> BoxedStrategy<Self::Pools>;
    fn pick(p: &Self::Pools, ix: &[Index]) -> Self;
    /// Replace the pool of variable-length field `i` with a family of near-identical values
    /// (the values the field cannot hold are left out).
    fn set_family(p: &mut Self::Pools, i: usize, text: &[String], bytes: &[Vec<u8>]);
    /// Run the builder form of `q`.
    fn scan(q: &Query<'_, Self>) -> ScanRanges;
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool;
    fn field_in_range(i: usize, shape: Shape, lo: &Self, hi: &Self, k: &Self) -> bool;
    fn content(&self, i: usize) -> Content<'_>;
    /// Whether field `i` of `self` can be encoded (the layouts' field constraints).
    fn field_ok(&self, _i: usize) -> bool {
        true
    }
    /// Field 0 of a modulo-salted layout.
    fn modulo_value(&self) -> u64 {
        unreachable!("not modulo-salted")
    }
}

fn forms<L: Case>() -> Vec<Form> {
    (0..=L::N)
        .map(Form::Eq)
        .chain(L::RANGES.iter().map(|&i| Form::Range(i)))
        .chain(L::STARTS.iter().map(|&i| Form::Starts(i)))
        .collect()
}

fn oracle<L: Case>(q: &Query<'_, L>, k: &L) -> bool {
    let fixed = |n: usize| (0..n).all(|i| L::field_eq(i, q.t, k));
    match q.form {
        Form::Eq(n) => fixed(n),
        Form::Range(i) => fixed(i) && L::field_in_range(i, q.shape, q.lo, q.hi, k),
        Form::Starts(i) => {
            fixed(i)
                && match k.content(i) {
                    Content::Text(s) => s.as_bytes().starts_with(q.prefix),
                    Content::Bytes(b) => b.starts_with(q.prefix),
                }
        }
    }
}

fn pick<T: Clone>(pool: &[T], ix: &Index) -> T {
    ix.get(pool).clone()
}

fn keep_family<T: Clone>(pool: &mut Vec<T>, family: &[T], ok: impl Fn(&T) -> bool) {
    let f: Vec<T> = family.iter().filter(|v| ok(v)).cloned().collect();
    if !f.is_empty() {
        *pool = f;
    }
}

// --- (a)

#[derive(Clone, Debug)]
struct APools {
    host: Vec<String>,
    ts: Vec<i64>,
    seq: Vec<u32>,
}

impl Case for A {
    const NAME: &'static str = "(a) salted prefix + reverse_ts";
    const N: usize = 3;
    const SALT: Salt = Salt::Phoenix {
        buckets: 16,
        through: 0,
    };
    const RANGES: &'static [usize] = &[0, 1, 2];
    const STARTS: &'static [usize] = &[0];
    const VARLEN: &'static [usize] = &[0];
    type Pools = APools;

    fn pools(wild: bool) -> BoxedStrategy<APools> {
        (pool(text()), pool(timestamp(wild)), pool(u32s()))
            .prop_map(|(host, ts, seq)| APools { host, ts, seq })
            .boxed()
    }
    fn pick(p: &APools, ix: &[Index]) -> Self {
        A {
            host: pick(&p.host, &ix[0]),
            ts: pick(&p.ts, &ix[1]),
            seq: pick(&p.seq, &ix[2]),
        }
    }
    fn set_family(p: &mut APools, _: usize, text: &[String], _: &[Vec<u8>]) {
        keep_family(&mut p.host, text, |_| true);
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = A::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.host(&t.host).ranges(),
            Form::Eq(2) => s.host(&t.host).ts(t.ts).ranges(),
            Form::Eq(3) => s.host(&t.host).ts(t.ts).seq(t.seq).ranges(),
            Form::Range(0) => with_range!(q.shape, lo.host.clone(), hi.host.clone(), |r| s
                .host_range(r)
                .ranges()),
            Form::Range(1) => {
                with_range!(q.shape, lo.ts, hi.ts, |r| s
                    .host(&t.host)
                    .ts_range(r)
                    .ranges())
            }
            Form::Range(2) => with_range!(q.shape, lo.seq, hi.seq, |r| s
                .host(&t.host)
                .ts(t.ts)
                .seq_range(r)
                .ranges()),
            Form::Starts(0) => s.host_starts_with(q.text()).ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.host == b.host,
            1 => a.ts == b.ts,
            _ => a.seq == b.seq,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.host, &hi.host, &k.host),
            1 => in_range(sh, &lo.ts, &hi.ts, &k.ts),
            _ => in_range(sh, &lo.seq, &hi.seq, &k.seq),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        Content::Text(&self.host)
    }
    fn field_ok(&self, i: usize) -> bool {
        i != 1 || self.ts >= 0
    }
}

// --- (b)

#[derive(Clone, Debug)]
struct BPools {
    tenant: Vec<u32>,
    name: Vec<String>,
}

impl Case for B {
    const NAME: &'static str = "(b) whole-key salt";
    const N: usize = 2;
    const SALT: Salt = Salt::Phoenix {
        buckets: 8,
        through: 1,
    };
    const RANGES: &'static [usize] = &[0, 1];
    const STARTS: &'static [usize] = &[1];
    const VARLEN: &'static [usize] = &[1];
    type Pools = BPools;

    fn pools(_: bool) -> BoxedStrategy<BPools> {
        (pool(u32s()), pool(text()))
            .prop_map(|(tenant, name)| BPools { tenant, name })
            .boxed()
    }
    fn pick(p: &BPools, ix: &[Index]) -> Self {
        B {
            tenant: pick(&p.tenant, &ix[0]),
            name: pick(&p.name, &ix[1]),
        }
    }
    fn set_family(p: &mut BPools, _: usize, text: &[String], _: &[Vec<u8>]) {
        keep_family(&mut p.name, text, |_| true);
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = B::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.tenant(t.tenant).ranges(),
            Form::Eq(2) => s.tenant(t.tenant).name(&t.name).ranges(),
            Form::Range(0) => {
                with_range!(q.shape, lo.tenant, hi.tenant, |r| s
                    .tenant_range(r)
                    .ranges())
            }
            Form::Range(1) => with_range!(q.shape, lo.name.clone(), hi.name.clone(), |r| s
                .tenant(t.tenant)
                .name_range(r)
                .ranges()),
            Form::Starts(1) => s.tenant(t.tenant).name_starts_with(q.text()).ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.tenant == b.tenant,
            _ => a.name == b.name,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.tenant, &hi.tenant, &k.tenant),
            _ => in_range(sh, &lo.name, &hi.name, &k.name),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        Content::Text(&self.name)
    }
}

// --- (c)

#[derive(Clone, Debug)]
struct CPools {
    ts: Vec<u64>,
    host: Vec<String>,
    event: Vec<u8>,
}

impl Case for C {
    const NAME: &'static str = "(c) modulo time buckets";
    const N: usize = 3;
    const SALT: Salt = Salt::Modulo { buckets: 16 };
    const RANGES: &'static [usize] = &[0, 1, 2];
    const STARTS: &'static [usize] = &[1];
    const VARLEN: &'static [usize] = &[1];
    type Pools = CPools;

    fn pools(_: bool) -> BoxedStrategy<CPools> {
        (pool(bucket_times()), pool(text()), pool(u8s()))
            .prop_map(|(ts, host, event)| CPools { ts, host, event })
            .boxed()
    }
    fn pick(p: &CPools, ix: &[Index]) -> Self {
        C {
            ts: pick(&p.ts, &ix[0]),
            host: pick(&p.host, &ix[1]),
            event: pick(&p.event, &ix[2]),
        }
    }
    fn set_family(p: &mut CPools, _: usize, text: &[String], _: &[Vec<u8>]) {
        keep_family(&mut p.host, text, |_| true);
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = C::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.ts(t.ts).ranges(),
            Form::Eq(2) => s.ts(t.ts).host(&t.host).ranges(),
            Form::Eq(3) => s.ts(t.ts).host(&t.host).event(t.event).ranges(),
            Form::Range(0) => with_range!(q.shape, lo.ts, hi.ts, |r| s.ts_range(r).ranges()),
            Form::Range(1) => with_range!(q.shape, lo.host.clone(), hi.host.clone(), |r| s
                .ts(t.ts)
                .host_range(r)
                .ranges()),
            Form::Range(2) => with_range!(q.shape, lo.event, hi.event, |r| s
                .ts(t.ts)
                .host(&t.host)
                .event_range(r)
                .ranges()),
            Form::Starts(1) => s.ts(t.ts).host_starts_with(q.text()).ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.ts == b.ts,
            1 => a.host == b.host,
            _ => a.event == b.event,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.ts, &hi.ts, &k.ts),
            1 => in_range(sh, &lo.host, &hi.host, &k.host),
            _ => in_range(sh, &lo.event, &hi.event, &k.event),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        Content::Text(&self.host)
    }
    fn modulo_value(&self) -> u64 {
        self.ts
    }
}

// --- (d)

#[derive(Clone, Debug)]
struct DPools {
    uid: Vec<u64>,
    kind: Vec<String>,
    n: Vec<i16>,
}

impl Case for D {
    const NAME: &'static str = "(d) hash prefix + desc sep";
    const N: usize = 3;
    const SALT: Salt = Salt::None;
    const RANGES: &'static [usize] = &[1, 2];
    const STARTS: &'static [usize] = &[1];
    const VARLEN: &'static [usize] = &[1];
    type Pools = DPools;

    fn pools(_: bool) -> BoxedStrategy<DPools> {
        (pool(u64s()), pool(text()), pool(i16s()))
            .prop_map(|(uid, kind, n)| DPools { uid, kind, n })
            .boxed()
    }
    fn pick(p: &DPools, ix: &[Index]) -> Self {
        D {
            uid: pick(&p.uid, &ix[0]),
            kind: pick(&p.kind, &ix[1]),
            n: pick(&p.n, &ix[2]),
        }
    }
    fn set_family(p: &mut DPools, _: usize, text: &[String], _: &[Vec<u8>]) {
        keep_family(&mut p.kind, text, |_| true);
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = D::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.uid(t.uid).ranges(),
            Form::Eq(2) => s.uid(t.uid).kind(&t.kind).ranges(),
            Form::Eq(3) => s.uid(t.uid).kind(&t.kind).n(t.n).ranges(),
            Form::Range(1) => with_range!(q.shape, lo.kind.clone(), hi.kind.clone(), |r| s
                .uid(t.uid)
                .kind_range(r)
                .ranges()),
            Form::Range(2) => with_range!(q.shape, lo.n, hi.n, |r| s
                .uid(t.uid)
                .kind(&t.kind)
                .n_range(r)
                .ranges()),
            Form::Starts(1) => s.uid(t.uid).kind_starts_with(q.text()).ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.uid == b.uid,
            1 => a.kind == b.kind,
            _ => a.n == b.n,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            1 => in_range(sh, &lo.kind, &hi.kind, &k.kind),
            _ => in_range(sh, &lo.n, &hi.n, &k.n),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        Content::Text(&self.kind)
    }
}

// --- (e)

#[derive(Clone, Debug)]
struct EPools {
    score: Vec<i32>,
    code: Vec<String>,
    tail: Vec<Vec<u8>>,
}

fn pad_ok(s: &str, n: usize) -> bool {
    s.len() <= n && !s.ends_with('\0')
}

/// Cut to at most `n` bytes (on a char boundary) and drop trailing 0x00: a valid padded value.
fn fit_pad(mut s: String, n: usize) -> String {
    let mut cut = s.len().min(n);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    while s.ends_with('\0') {
        s.pop();
    }
    s
}

impl Case for E {
    const NAME: &'static str = "(e) desc int + pad(6) + raw bytes last";
    const N: usize = 3;
    const SALT: Salt = Salt::None;
    const RANGES: &'static [usize] = &[0, 1, 2];
    const STARTS: &'static [usize] = &[1, 2];
    const VARLEN: &'static [usize] = &[1, 2];
    type Pools = EPools;

    fn pools(wild: bool) -> BoxedStrategy<EPools> {
        let code = if wild {
            text().boxed()
        } else {
            text().prop_map(|s| fit_pad(s, 6)).boxed()
        };
        (pool(i32s()), pool(code), pool(bytes()))
            .prop_map(|(score, code, tail)| EPools { score, code, tail })
            .boxed()
    }
    fn pick(p: &EPools, ix: &[Index]) -> Self {
        E {
            score: pick(&p.score, &ix[0]),
            code: pick(&p.code, &ix[1]),
            tail: pick(&p.tail, &ix[2]),
        }
    }
    fn set_family(p: &mut EPools, i: usize, text: &[String], bytes: &[Vec<u8>]) {
        if i == 1 {
            keep_family(&mut p.code, text, |s| pad_ok(s, 6));
        } else {
            keep_family(&mut p.tail, bytes, |_| true);
        }
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = E::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.score(t.score).ranges(),
            Form::Eq(2) => s.score(t.score).code(&t.code).ranges(),
            Form::Eq(3) => s.score(t.score).code(&t.code).tail(&t.tail).ranges(),
            Form::Range(0) => {
                with_range!(q.shape, lo.score, hi.score, |r| s.score_range(r).ranges())
            }
            Form::Range(1) => with_range!(q.shape, lo.code.clone(), hi.code.clone(), |r| s
                .score(t.score)
                .code_range(r)
                .ranges()),
            Form::Range(2) => with_range!(q.shape, lo.tail.clone(), hi.tail.clone(), |r| s
                .score(t.score)
                .code(&t.code)
                .tail_range(r)
                .ranges()),
            Form::Starts(1) => s.score(t.score).code_starts_with(q.text()).ranges(),
            Form::Starts(2) => s
                .score(t.score)
                .code(&t.code)
                .tail_starts_with(q.prefix)
                .ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.score == b.score,
            1 => a.code == b.code,
            _ => a.tail == b.tail,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.score, &hi.score, &k.score),
            1 => in_range(sh, &lo.code, &hi.code, &k.code),
            _ => in_range(sh, &lo.tail, &hi.tail, &k.tail),
        }
    }
    fn content(&self, i: usize) -> Content<'_> {
        if i == 1 {
            Content::Text(&self.code)
        } else {
            Content::Bytes(&self.tail)
        }
    }
    fn field_ok(&self, i: usize) -> bool {
        i != 1 || pad_ok(&self.code, 6)
    }
}

// --- (f)

#[derive(Clone, Debug)]
struct FPools {
    id: Vec<u32>,
    tag: Vec<String>,
    opt: Vec<Option<u16>>,
}

impl Case for F {
    const NAME: &'static str = "(f) pad(8) decimal + sep(b'|') + Option";
    const N: usize = 3;
    const SALT: Salt = Salt::None;
    // No range on the custom-separator field: its byte order is not the string order, so the
    // builder has no `tag_range` (starts-with is exact).
    const RANGES: &'static [usize] = &[0, 2];
    const STARTS: &'static [usize] = &[1];
    const VARLEN: &'static [usize] = &[1];
    type Pools = FPools;

    fn pools(wild: bool) -> BoxedStrategy<FPools> {
        let tag = if wild {
            text().boxed()
        } else {
            text().prop_map(|s| s.replace('|', "")).boxed()
        };
        (pool(decimal8(wild)), pool(tag), pool(opt_u16s()))
            .prop_map(|(id, tag, opt)| FPools { id, tag, opt })
            .boxed()
    }
    fn pick(p: &FPools, ix: &[Index]) -> Self {
        F {
            id: pick(&p.id, &ix[0]),
            tag: pick(&p.tag, &ix[1]),
            opt: pick(&p.opt, &ix[2]),
        }
    }
    fn set_family(p: &mut FPools, _: usize, text: &[String], _: &[Vec<u8>]) {
        keep_family(&mut p.tag, text, |s| !s.contains('|'));
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = F::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.id(t.id).ranges(),
            Form::Eq(2) => s.id(t.id).tag(&t.tag).ranges(),
            Form::Eq(3) => s.id(t.id).tag(&t.tag).opt(t.opt).ranges(),
            Form::Range(0) => with_range!(q.shape, lo.id, hi.id, |r| s.id_range(r).ranges()),
            Form::Range(2) => with_range!(q.shape, lo.opt, hi.opt, |r| s
                .id(t.id)
                .tag(&t.tag)
                .opt_range(r)
                .ranges()),
            Form::Starts(1) => s.id(t.id).tag_starts_with(q.text()).ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.id == b.id,
            1 => a.tag == b.tag,
            _ => a.opt == b.opt,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.id, &hi.id, &k.id),
            1 => in_range(
                sh,
                &sep_order(&lo.tag),
                &sep_order(&hi.tag),
                &sep_order(&k.tag),
            ),
            _ => in_range(sh, &lo.opt, &hi.opt, &k.opt),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        Content::Text(&self.tag)
    }
    fn field_ok(&self, i: usize) -> bool {
        match i {
            0 => self.id <= 99_999_999,
            1 => !self.tag.contains('|'),
            _ => true,
        }
    }
}

// --- (g)

#[derive(Clone, Debug)]
struct GPools {
    a: Vec<u8>,
    b: Vec<String>,
    c: Vec<Option<String>>,
}

impl Case for G {
    const NAME: &'static str = "(g) nested + desc Option<String> last";
    const N: usize = 2;
    const SALT: Salt = Salt::None;
    const RANGES: &'static [usize] = &[0, 1];
    const STARTS: &'static [usize] = &[];
    const VARLEN: &'static [usize] = &[0, 1];
    type Pools = GPools;

    fn pools(_: bool) -> BoxedStrategy<GPools> {
        (
            pool(u8s()),
            pool(text()),
            pool(proptest::option::of(text())),
        )
            .prop_map(|(a, b, c)| GPools { a, b, c })
            .boxed()
    }
    /// Three picks: `inner.a`, `c`, `inner.b` (the struct has two fields; the third index is
    /// the nested string).
    fn pick(p: &GPools, ix: &[Index]) -> Self {
        G {
            inner: Inner {
                a: pick(&p.a, &ix[0]),
                b: pick(&p.b, &ix[2]),
            },
            c: pick(&p.c, &ix[1]),
        }
    }
    fn set_family(p: &mut GPools, i: usize, text: &[String], _: &[Vec<u8>]) {
        if i == 0 {
            keep_family(&mut p.b, text, |_| true);
        } else {
            let fam: Vec<Option<String>> = std::iter::once(None)
                .chain(text.iter().cloned().map(Some))
                .collect();
            keep_family(&mut p.c, &fam, |_| true);
        }
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = G::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.inner(&t.inner).ranges(),
            Form::Eq(2) => s.inner(t.inner.clone()).c(t.c.as_deref()).ranges(),
            Form::Range(0) => with_range!(q.shape, lo.inner.clone(), hi.inner.clone(), |r| s
                .inner_range(r)
                .ranges()),
            Form::Range(1) => with_range!(q.shape, lo.c.clone(), hi.c.clone(), |r| s
                .inner(&t.inner)
                .c_range(r)
                .ranges()),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.inner == b.inner,
            _ => a.c == b.c,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.inner, &hi.inner, &k.inner),
            _ => in_range(sh, &lo.c, &hi.c, &k.c),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        unreachable!("no starts_with in (g)")
    }
}

// --- (h)

#[derive(Clone, Debug)]
struct HPools {
    k: Vec<u8>,
    s: Vec<String>,
}

impl Case for H {
    const NAME: &'static str = "(h) tuple, desc String last";
    const N: usize = 2;
    const SALT: Salt = Salt::None;
    const RANGES: &'static [usize] = &[0, 1];
    const STARTS: &'static [usize] = &[1];
    const VARLEN: &'static [usize] = &[1];
    type Pools = HPools;

    fn pools(_: bool) -> BoxedStrategy<HPools> {
        (pool(u8s()), pool(text()))
            .prop_map(|(k, s)| HPools { k, s })
            .boxed()
    }
    fn pick(p: &HPools, ix: &[Index]) -> Self {
        H(pick(&p.k, &ix[0]), pick(&p.s, &ix[1]))
    }
    fn set_family(p: &mut HPools, _: usize, text: &[String], _: &[Vec<u8>]) {
        keep_family(&mut p.s, text, |_| true);
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = H::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.field_0(t.0).ranges(),
            Form::Eq(2) => s.field_0(t.0).field_1(&t.1).ranges(),
            Form::Range(0) => with_range!(q.shape, lo.0, hi.0, |r| s.field_0_range(r).ranges()),
            Form::Range(1) => with_range!(q.shape, lo.1.clone(), hi.1.clone(), |r| s
                .field_0(t.0)
                .field_1_range(r)
                .ranges()),
            Form::Starts(1) => s.field_0(t.0).field_1_starts_with(q.text()).ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.0 == b.0,
            _ => a.1 == b.1,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.0, &hi.0, &k.0),
            _ => in_range(sh, &lo.1, &hi.1, &k.1),
        }
    }
    fn content(&self, _: usize) -> Content<'_> {
        Content::Text(&self.1)
    }
}

// --- (i)

#[derive(Clone, Debug)]
struct IPools {
    code: Vec<String>,
    r: Vec<u16>,
    a: Vec<u8>,
    b: Vec<String>,
    tail: Vec<Vec<u8>>,
}

impl Case for I {
    const NAME: &'static str = "(i) 2-byte salt + desc pad + reverse + desc nested + desc bytes";
    const N: usize = 4;
    const SALT: Salt = Salt::Phoenix {
        buckets: 300,
        through: 0,
    };
    const RANGES: &'static [usize] = &[0, 2, 3];
    const STARTS: &'static [usize] = &[0, 3];
    const VARLEN: &'static [usize] = &[0, 2, 3];
    type Pools = IPools;

    fn pools(_: bool) -> BoxedStrategy<IPools> {
        (
            pool(text().prop_map(|s| fit_pad(s, 4))),
            pool(u16s()),
            pool(u8s()),
            pool(text()),
            pool(bytes()),
        )
            .prop_map(|(code, r, a, b, tail)| IPools {
                code,
                r,
                a,
                b,
                tail,
            })
            .boxed()
    }
    /// Four picks: code, r, inner (a and b from the same index), tail.
    fn pick(p: &IPools, ix: &[Index]) -> Self {
        I {
            code: pick(&p.code, &ix[0]),
            r: pick(&p.r, &ix[1]),
            inner: Inner {
                a: pick(&p.a, &ix[2]),
                b: pick(&p.b, &ix[2]),
            },
            tail: pick(&p.tail, &ix[3]),
        }
    }
    fn set_family(p: &mut IPools, i: usize, text: &[String], bytes: &[Vec<u8>]) {
        match i {
            0 => keep_family(&mut p.code, text, |s| pad_ok(s, 4)),
            2 => keep_family(&mut p.b, text, |_| true),
            _ => keep_family(&mut p.tail, bytes, |_| true),
        }
    }
    fn scan(q: &Query<'_, Self>) -> ScanRanges {
        let (t, lo, hi) = (q.t, q.lo, q.hi);
        let s = I::scan();
        match q.form {
            Form::Eq(0) => s.ranges(),
            Form::Eq(1) => s.code(&t.code).ranges(),
            Form::Eq(2) => s.code(&t.code).r(t.r).ranges(),
            Form::Eq(3) => s.code(&t.code).r(t.r).inner(&t.inner).ranges(),
            Form::Eq(4) => s
                .code(&t.code)
                .r(t.r)
                .inner(&t.inner)
                .tail(&t.tail)
                .ranges(),
            Form::Range(0) => with_range!(q.shape, lo.code.clone(), hi.code.clone(), |r| s
                .code_range(r)
                .ranges()),
            Form::Range(2) => with_range!(q.shape, lo.inner.clone(), hi.inner.clone(), |r| s
                .code(&t.code)
                .r(t.r)
                .inner_range(r)
                .ranges()),
            Form::Range(3) => with_range!(q.shape, lo.tail.clone(), hi.tail.clone(), |r| s
                .code(&t.code)
                .r(t.r)
                .inner(&t.inner)
                .tail_range(r)
                .ranges()),
            Form::Starts(0) => s.code_starts_with(q.text()).ranges(),
            Form::Starts(3) => s
                .code(&t.code)
                .r(t.r)
                .inner(&t.inner)
                .tail_starts_with(q.prefix)
                .ranges(),
            f => unreachable!("{f:?}"),
        }
    }
    fn field_eq(i: usize, a: &Self, b: &Self) -> bool {
        match i {
            0 => a.code == b.code,
            1 => a.r == b.r,
            2 => a.inner == b.inner,
            _ => a.tail == b.tail,
        }
    }
    fn field_in_range(i: usize, sh: Shape, lo: &Self, hi: &Self, k: &Self) -> bool {
        match i {
            0 => in_range(sh, &lo.code, &hi.code, &k.code),
            2 => in_range(sh, &lo.inner, &hi.inner, &k.inner),
            _ => in_range(sh, &lo.tail, &hi.tail, &k.tail),
        }
    }
    fn content(&self, i: usize) -> Content<'_> {
        if i == 0 {
            Content::Text(&self.code)
        } else {
            Content::Bytes(&self.tail)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Adversarial value strategies

const TEXT_ATOMS: &[&str] = &[
    "",
    "host1",
    "host12",
    "host1\0",
    "host1\x01",
    "host1\x01\0",
    "host1\0\x01",
    "host2",
    "host",
    "h",
    "\0",
    "\x01",
    "\x02",
    "\0\0",
    "\x01\x01",
    "\0\x01",
    "|",
    "a|b",
    "}",
    "~",
    "\u{7f}",
    "\u{80}",
    "\u{ff}",
    "\u{10FFFF}",
    "host1\u{10FFFF}",
];

const TEXT_CHARS: &[char] = &[
    '\0',
    '\x01',
    '\x02',
    'h',
    '1',
    '2',
    '|',
    '}',
    '\u{7f}',
    '\u{80}',
    '\u{ff}',
    '\u{10FFFF}',
];

const BYTE_ATOMS: &[&[u8]] = &[
    b"",
    b"\0",
    b"\x01",
    b"\x02",
    b"\xFF",
    b"\xFF\xFF",
    b"\xFE\xFF",
    b"\0\xFF",
    b"\xFF\0",
    b"host1",
    b"host12",
    b"host1\0",
    b"host1\x01",
    b"host1\xFF",
    b"host1\xFF\xFF",
];

const BYTE_ALPHABET: &[u8] = &[0x00, 0x01, 0x02, b'1', b'h', 0x7F, 0x80, 0xFE, 0xFF];

/// Suffixes appended to a truncated field value to make `_starts_with` prefixes.
const TEXT_SUFFIXES: &[&str] = &[
    "",
    "",
    "\0",
    "\x01",
    "|",
    "1",
    "2",
    "\u{7f}",
    "\u{10FFFF}",
    "\0\0",
];
const BYTE_SUFFIXES: &[&[u8]] = &[
    b"",
    b"",
    b"\0",
    b"\x01",
    b"\xFF",
    b"\xFF\xFF",
    b"\xFE",
    b"1",
];

fn text() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(TEXT_ATOMS).prop_map(String::from),
        2 => vec(select(TEXT_ATOMS), 1..3).prop_map(|v| v.concat()),
        2 => vec(select(TEXT_CHARS), 0..5).prop_map(|v| v.into_iter().collect::<String>()),
    ]
    .boxed()
}

fn bytes() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        3 => select(BYTE_ATOMS).prop_map(<[u8]>::to_vec),
        2 => vec(select(BYTE_ATOMS), 1..3).prop_map(|v| v.concat()),
        2 => vec(select(BYTE_ALPHABET), 0..5),
    ]
    .boxed()
}

fn pool<T: Debug>(s: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    vec(s, 1..6)
}

const T0: i64 = 1_700_000_000_000;

/// `#[reverse_ts]` timestamps; `wild` adds negative ones (not encodable).
fn timestamp(wild: bool) -> BoxedStrategy<i64> {
    let base = prop_oneof![
        3 => select(vec![0, 1, 2, i64::MAX - 1, i64::MAX, T0]),
        2 => T0..T0 + 8,
        1 => 0..=i64::MAX,
    ];
    if wild {
        prop_oneof![3 => base, 1 => select(vec![-1, -2, i64::MIN, i64::MIN + 1])].boxed()
    } else {
        base.boxed()
    }
}

fn bucket_times() -> BoxedStrategy<u64> {
    let t0 = T0 as u64;
    prop_oneof![
        2 => select(vec![0, 1, 2, 15, 16, 17, 31, 32, u64::MAX - 1, u64::MAX, t0]),
        3 => t0..t0 + 40,
        1 => u64::MAX - 20..=u64::MAX,
        1 => any::<u64>(),
    ]
    .boxed()
}

fn u32s() -> BoxedStrategy<u32> {
    prop_oneof![
        2 => select(vec![0, 1, 2, u32::MAX - 1, u32::MAX, 0x0100_0000, 0xFF]),
        1 => 0..4u32,
        1 => any::<u32>(),
    ]
    .boxed()
}

fn u64s() -> BoxedStrategy<u64> {
    prop_oneof![
        2 => select(vec![0, 1, 2, u64::MAX - 1, u64::MAX]),
        1 => any::<u64>(),
    ]
    .boxed()
}

fn i32s() -> BoxedStrategy<i32> {
    prop_oneof![
        2 => select(vec![i32::MIN, i32::MIN + 1, -2, -1, 0, 1, 2, i32::MAX - 1, i32::MAX]),
        1 => any::<i32>(),
    ]
    .boxed()
}

fn u16s() -> BoxedStrategy<u16> {
    prop_oneof![
        2 => select(vec![0u16, 1, 0xFF, 0x100, u16::MAX - 1, u16::MAX]),
        1 => any::<u16>(),
    ]
    .boxed()
}

fn i16s() -> BoxedStrategy<i16> {
    prop_oneof![
        2 => select(vec![i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX - 1, i16::MAX]),
        1 => any::<i16>(),
    ]
    .boxed()
}

fn u8s() -> BoxedStrategy<u8> {
    prop_oneof![
        2 => select(vec![0u8, 1, 2, 0x7F, 0x80, 0xFE, 0xFF]),
        1 => any::<u8>(),
    ]
    .boxed()
}

fn opt_u16s() -> BoxedStrategy<Option<u16>> {
    prop_oneof![
        2 => select(vec![None, Some(0), Some(1), Some(0xFF), Some(u16::MAX - 1), Some(u16::MAX)]),
        1 => any::<Option<u16>>(),
    ]
    .boxed()
}

/// `#[pad(8)]` decimal ids; `wild` adds ones with more than 8 digits (not encodable).
fn decimal8(wild: bool) -> BoxedStrategy<u32> {
    let base = prop_oneof![
        2 => select(vec![0, 1, 9, 10, 9_999_999, 10_000_000, 99_999_998, 99_999_999]),
        1 => 0..=99_999_999u32,
    ];
    if wild {
        prop_oneof![3 => base, 1 => select(vec![100_000_000, u32::MAX])].boxed()
    } else {
        base.boxed()
    }
}

// ---------------------------------------------------------------------------------------------
// Case inputs

#[derive(Clone, Debug)]
struct PrefixSpec {
    random: bool,
    trunc: Index,
    suffix: Index,
    text: String,
    bytes: Vec<u8>,
}

fn prefix_spec() -> impl Strategy<Value = PrefixSpec> {
    (
        prop::bool::weighted(0.3),
        any::<Index>(),
        any::<Index>(),
        text(),
        bytes(),
    )
        .prop_map(|(random, trunc, suffix, text, bytes)| PrefixSpec {
            random,
            trunc,
            suffix,
            text,
            bytes,
        })
}

/// A `_starts_with` prefix: a truncation of the template's value plus an adversarial suffix, or
/// a random adversarial value.
fn resolve_prefix(c: Content<'_>, p: &PrefixSpec) -> Vec<u8> {
    match c {
        Content::Text(s) => {
            if p.random {
                return p.text.clone().into_bytes();
            }
            let mut cut = p.trunc.index(s.len() + 1);
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            let mut v = s[..cut].to_string();
            let suffix: &&str = p.suffix.get(TEXT_SUFFIXES);
            v.push_str(suffix);
            v.into_bytes()
        }
        Content::Bytes(b) => {
            if p.random {
                return p.bytes.clone();
            }
            let mut v = b[..p.trunc.index(b.len() + 1)].to_vec();
            let suffix: &&[u8] = p.suffix.get(BYTE_SUFFIXES);
            v.extend_from_slice(suffix);
            v
        }
    }
}

#[derive(Clone, Debug)]
struct Spec {
    /// Template from the stored keys (most of the time) or fresh from the pools.
    t_key: Option<Index>,
    t: Vec<Index>,
    lo: Vec<Index>,
    hi: Vec<Index>,
    prefix: PrefixSpec,
}

#[derive(Clone, Debug)]
struct Input<P> {
    pools: P,
    keys: Vec<Vec<Index>>,
    specs: Vec<Spec>,
}

/// Index picks per key: one per field (G picks three: a, c, b; I picks four).
const PICKS: usize = 4;

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::option::weighted(0.75, any::<Index>()),
        vec(any::<Index>(), PICKS),
        vec(any::<Index>(), PICKS),
        vec(any::<Index>(), PICKS),
        prefix_spec(),
    )
        .prop_map(|(t_key, t, lo, hi, prefix)| Spec {
            t_key,
            t,
            lo,
            hi,
            prefix,
        })
}

fn input<L: Case>(
    wild: bool,
    keys: std::ops::Range<usize>,
    specs: usize,
) -> impl Strategy<Value = Input<L::Pools>> {
    (
        L::pools(wild),
        vec(vec(any::<Index>(), PICKS), keys),
        vec(spec(), specs),
    )
        .prop_map(|(pools, keys, specs)| Input { pools, keys, specs })
}

// ---------------------------------------------------------------------------------------------
// The checks

#[derive(Default)]
struct Stats {
    cases: Cell<usize>,
    keys: Cell<usize>,
    queries: Cell<usize>,
    ranges: Cell<usize>,
    hits: Cell<usize>,
    nonempty: Cell<usize>,
}

impl Stats {
    fn add(c: &Cell<usize>, n: usize) {
        c.set(c.get() + n);
    }
    fn report(&self, name: &str) {
        eprintln!(
            "{name}: {} cases, {} stored keys, {} queries ({} with hits), {} ranges scanned, {} keys returned",
            self.cases.get(),
            self.keys.get(),
            self.queries.get(),
            self.nonempty.get(),
            self.ranges.get(),
            self.hits.get(),
        );
    }
}

fn err(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

fn show<L: Case>(keys: &BTreeSet<&[u8]>) -> String {
    let v: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(
                "{} ({})",
                rowkey::hbase::to_string_binary(k),
                L::describe(k)
            )
        })
        .collect();
    format!("[{}]", v.join(", "))
}

/// Insert the case's keys, then run every builder form for every spec.
fn check_case<L: Case>(inp: &Input<L::Pools>, st: &Stats) -> Result<(), TestCaseError> {
    check_case_with::<L>(inp, st, false)
}

/// `skip_bad_bounds`: leave out range scans with a bound the layout cannot encode (a known
/// problem, see the `unencodable_bound_*` regression tests).
fn check_case_with<L: Case>(
    inp: &Input<L::Pools>,
    st: &Stats,
    skip_bad_bounds: bool,
) -> Result<(), TestCaseError> {
    let mut cands: BTreeMap<Vec<u8>, L> = BTreeMap::new();
    for ix in &inp.keys {
        let k = L::pick(&inp.pools, ix);
        if let Ok(b) = k.to_row_key() {
            let back = L::from_row_key(&b).map_err(err)?;
            prop_assert_eq!(&back, &k, "round trip of {:?}", b);
            cands.insert(b.to_vec(), k);
        }
    }
    let store = Store::in_memory().map_err(err)?;
    store
        .put_all(cands.keys().map(|k| (k.as_slice(), &b""[..])))
        .map_err(err)?;
    let mut universe: Vec<(Vec<u8>, L)> = Vec::new();
    for (k, _) in store.all().map_err(err)? {
        let d = L::from_row_key(&k).map_err(err)?;
        universe.push((k, d));
    }
    prop_assert_eq!(universe.len(), cands.len());
    Stats::add(&st.cases, 1);
    Stats::add(&st.keys, universe.len());

    for spec in &inp.specs {
        let t = match &spec.t_key {
            Some(i) if !universe.is_empty() => i.get(&universe).1.clone(),
            _ => L::pick(&inp.pools, &spec.t),
        };
        let lo = L::pick(&inp.pools, &spec.lo);
        let hi = L::pick(&inp.pools, &spec.hi);
        for form in forms::<L>() {
            let prefix = match form {
                Form::Starts(i) => resolve_prefix(t.content(i), &spec.prefix),
                _ => Vec::new(),
            };
            let shapes: &[Shape] = match form {
                Form::Range(_) => &SHAPES,
                _ => &[Shape::Full],
            };
            if let Form::Range(i) = form {
                if skip_bad_bounds && !(lo.field_ok(i) && hi.field_ok(i)) {
                    continue;
                }
            }
            for &shape in shapes {
                let q = Query {
                    form,
                    shape,
                    t: &t,
                    lo: &lo,
                    hi: &hi,
                    prefix: &prefix,
                };
                check_query(&store, &universe, &q, st)?;
            }
        }
    }
    Ok(())
}

fn check_query<L: Case>(
    store: &Store,
    universe: &[(Vec<u8>, L)],
    q: &Query<'_, L>,
    st: &Stats,
) -> Result<(), TestCaseError> {
    let ranges = L::scan(q);
    let ctx = || format!("{}: {q:?}\n  ranges {ranges:?}", L::NAME);
    Stats::add(&st.queries, 1);
    Stats::add(&st.ranges, ranges.len());

    // Sorted, non-empty, non-overlapping.
    for r in &ranges {
        prop_assert!(
            r.stop().is_none_or(|s| r.start() < s),
            "empty range {:?} in {}",
            r,
            ctx()
        );
    }
    for w in ranges.as_slice().windows(2) {
        prop_assert!(
            w[0].stop().is_some_and(|s| s <= w[1].start()),
            "ranges unsorted or overlapping: {}",
            ctx()
        );
    }

    // The store against the oracle.
    let expected: BTreeSet<&[u8]> = universe
        .iter()
        .filter(|(_, k)| oracle(q, k))
        .map(|(b, _)| b.as_slice())
        .collect();
    let results = store.scan_each(&ranges).map_err(err)?;
    let mut got: BTreeSet<&[u8]> = BTreeSet::new();
    for (r, rows) in ranges.iter().zip(&results) {
        for (k, _) in rows {
            prop_assert!(r.contains(k), "store returned a key outside its range");
            prop_assert!(got.insert(k.as_slice()), "key returned twice: {}", ctx());
        }
    }
    if got != expected {
        let missing: BTreeSet<&[u8]> = expected.difference(&got).copied().collect();
        let extra: BTreeSet<&[u8]> = got.difference(&expected).copied().collect();
        return Err(TestCaseError::fail(format!(
            "store result differs from the oracle\n  {}\n  missing {}\n  extra {}\n  expected {}",
            ctx(),
            show::<L>(&missing),
            show::<L>(&extra),
            show::<L>(&expected),
        )));
    }
    Stats::add(&st.hits, got.len());
    if !got.is_empty() {
        Stats::add(&st.nonempty, 1);
    }
    // Client hand-off forms select the same keys: `(start, stop)` with an empty stop meaning
    // the end of the table, and std bounds.
    for r in &ranges {
        let (start, stop) = r.to_start_stop();
        let bounds = r.to_bounds();
        for (b, _) in universe {
            let in_pair = b.as_slice() >= start.as_slice() && (stop.is_empty() || *b < stop);
            prop_assert_eq!(in_pair, r.contains(b), "to_start_stop of {:?}", r);
            prop_assert_eq!(bounds.contains(b), r.contains(b), "to_bounds of {:?}", r);
        }
    }
    for (b, _) in universe {
        prop_assert_eq!(
            ranges.contains(b),
            expected.contains(b.as_slice()),
            "ScanRanges::contains({}) disagrees: {}",
            rowkey::hbase::to_string_binary(b),
            ctx()
        );
    }

    check_salts(q, &ranges).map_err(|e| TestCaseError::fail(format!("{e}\n  {}", ctx())))?;

    // Merged fan-out: strictly sorted by the bytes after the salt, equal to the oracle's set.
    let w = L::SALT.width();
    let merged: Vec<Vec<u8>> = rowkey::merge::merge(results.into_iter().map(|v| v.into_iter()), w)
        .map(|(k, _)| k)
        .collect();
    for p in merged.windows(2) {
        prop_assert!(p[0][w..] < p[1][w..], "merge out of order: {}", ctx());
    }
    let mut want: Vec<&[u8]> = expected.into_iter().collect();
    want.sort_by(|a, b| a[w..].cmp(&b[w..]));
    prop_assert_eq!(
        merged.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        want,
        "merge: {}",
        ctx()
    );
    Ok(())
}

/// The buckets `v % n` of the values of a range (brute force over at most `n` values).
fn modulo_expected(shape: Shape, lo: u64, hi: u64, n: u32) -> BTreeSet<u32> {
    let (l, h) = bounds(shape, u128::from(lo), u128::from(hi));
    let l = match l {
        Bound::Included(v) => v,
        Bound::Excluded(v) => v + 1,
        Bound::Unbounded => 0,
    };
    let h = match h {
        Bound::Included(v) => v,
        Bound::Excluded(0) => return BTreeSet::new(),
        Bound::Excluded(v) => v - 1,
        Bound::Unbounded => u128::from(u64::MAX),
    };
    (l..=h)
        .take(n as usize)
        .map(|v| (v % u128::from(n)) as u32)
        .collect()
}

/// The salt value at the front of a key or range start (`w` bytes, big-endian).
fn salt_of(b: &[u8], w: usize) -> Option<u32> {
    let s = b.get(..w)?;
    Some(s.iter().fold(0, |acc, &x| acc << 8 | u32::from(x)))
}

fn check_salts<L: Case>(q: &Query<'_, L>, ranges: &ScanRanges) -> Result<(), String> {
    let parts = match q.form {
        Form::Starts(_) => 2,
        _ => 1,
    };
    let (buckets, fixed) = match L::SALT {
        Salt::None => {
            let n = ranges.len();
            let ok = match q.form {
                // (an unencodable equality value makes the scan empty)
                Form::Eq(_) => n == 1 || (n == 0 && q.t.to_row_key().is_err()),
                _ => n <= parts,
            };
            return if ok {
                Ok(())
            } else {
                Err(format!("unsalted layout: {n} ranges"))
            };
        }
        Salt::Phoenix { buckets, through } => (
            buckets,
            match q.form {
                Form::Eq(n) => n > through,
                Form::Range(i) | Form::Starts(i) => i > through,
            },
        ),
        Salt::Modulo { buckets } => (
            buckets,
            match q.form {
                Form::Eq(n) => n > 0,
                Form::Range(i) | Form::Starts(i) => i > 0,
            },
        ),
    };
    let w = L::SALT.width();
    let mut salts = BTreeSet::new();
    for r in ranges {
        let Some(s) = salt_of(r.start(), w) else {
            return Err(format!("range {r:?} starts before the salt"));
        };
        // The start of the next bucket (none after the last possible salt value).
        let next = (s + 1).to_be_bytes();
        let next = &next[4 - w..];
        let inside = s + 1 >= 1 << (8 * w) || matches!(r.stop(), Some(stop) if stop <= next);
        if !inside {
            return Err(format!("range {r:?} leaves bucket {s}"));
        }
        salts.insert(s);
    }
    if fixed {
        let Ok(tb) = q.t.to_row_key() else {
            return Ok(()); // an unencodable equality value: nothing to compare with
        };
        let want = salt_of(&tb, w).expect("a key holds its salt");
        if let Salt::Modulo { buckets } = L::SALT {
            if u64::from(want) != q.t.modulo_value() % u64::from(buckets) {
                return Err(format!("modulo salt {want} of {:?}", q.t));
            }
        }
        let ok = match q.form {
            Form::Eq(_) => ranges.len() == 1 && salts.contains(&want),
            _ => ranges.len() <= parts && salts.iter().all(|&s| s == want),
        };
        if !ok {
            return Err(format!(
                "salted prefix fixed (salt {want}): expected one bucket, got {} ranges in buckets {salts:?}",
                ranges.len()
            ));
        }
        return Ok(());
    }
    let all: BTreeSet<u32> = (0..buckets).collect();
    let want = match (L::SALT, q.form) {
        (Salt::Modulo { buckets }, Form::Range(0)) => {
            modulo_expected(q.shape, q.lo.modulo_value(), q.hi.modulo_value(), buckets)
        }
        _ => all,
    };
    let ok = match q.form {
        Form::Eq(_) => ranges.len() == want.len() && salts == want,
        _ => ranges.is_empty() || (salts == want && ranges.len().is_multiple_of(want.len())),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "fan-out: expected buckets {want:?}, got {} ranges in buckets {salts:?}",
            ranges.len()
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Runners

fn run<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        max_shrink_iters: 20_000,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{name}: {e}");
    }
}

/// Cases per layout of the main property; keys per case; query specs per case (each spec runs
/// every builder form and, for ranges, every shape).
const CASES: u32 = 192;
const KEYS: std::ops::Range<usize> = 8..96;
const SPECS: usize = 4;

fn store_vs_oracle<L: Case>() {
    store_vs_oracle_n::<L>(CASES, SPECS);
}

fn store_vs_oracle_n<L: Case>(cases: u32, specs: usize) {
    let st = Stats::default();
    run(L::NAME, cases, input::<L>(false, KEYS, specs), |inp| {
        check_case::<L>(&inp, &st)
    });
    st.report(L::NAME);
}

#[test]
fn a_salted_prefix() {
    store_vs_oracle::<A>();
}
#[test]
fn b_whole_key_salt() {
    store_vs_oracle::<B>();
}
#[test]
fn c_modulo_buckets() {
    store_vs_oracle::<C>();
}
#[test]
fn d_hash_prefix() {
    store_vs_oracle::<D>();
}
#[test]
fn e_desc_pad_raw_tail() {
    store_vs_oracle::<E>();
}
#[test]
fn f_decimal_custom_sep_option() {
    store_vs_oracle::<F>();
}
#[test]
fn g_nested_desc_option() {
    store_vs_oracle::<G>();
}
#[test]
fn h_tuple_desc_string() {
    store_vs_oracle::<H>();
}

/// Fewer cases: a 300-bucket fan-out scans 300 or 600 ranges per unsalted query.
#[test]
fn i_two_byte_salt_desc_pad_reverse_nested() {
    store_vs_oracle_n::<I>(32, 2);
}

// --- values the layout cannot encode, as equality values and range bounds

/// Pools that also hold values the layout cannot encode (negative `#[reverse_ts]` times, too
/// long or fill-terminated padded strings, 9-digit `#[pad(8)]` ids, tags containing the custom
/// separator): such keys are never stored, but they are used as equality values and range
/// bounds, where the scan must still return exactly the stored keys the oracle selects.
fn wild<L: Case>() {
    let st = Stats::default();
    let name = format!("{} (unencodable query values)", L::NAME);
    run(&name, CASES, input::<L>(true, KEYS, SPECS), |inp| {
        check_case_with::<L>(&inp, &st, false)
    });
    st.report(&name);
}

#[test]
fn wild_a() {
    wild::<A>();
}
#[test]
fn wild_e() {
    wild::<E>();
}
#[test]
fn wild_f() {
    wild::<F>();
}

// --- prefix isolation (issue 6 item 2)

/// A family of near-identical values: a base, values it is a byte prefix of, values that
/// differ from it only in 0x00/0x01, and (bytes) trailing 0xFF.
fn text_family() -> impl Strategy<Value = Vec<String>> {
    const EXT: &[&str] = &[
        "\0",
        "\x01",
        "\0\0",
        "\x01\0",
        "\0\x01",
        "1",
        "12",
        "2",
        "|",
        "\u{7f}",
        "\u{10FFFF}",
    ];
    (text(), vec(select(EXT), 1..4)).prop_map(|(base, ext)| {
        let mut fam = vec![base.clone()];
        for e in ext {
            fam.push(format!("{base}{e}"));
        }
        // 0x00 <-> 0x01 swaps
        let swapped: String = base
            .chars()
            .map(|c| match c {
                '\0' => '\x01',
                '\x01' => '\0',
                c => c,
            })
            .collect();
        fam.push(swapped);
        fam.push(format!("{base}\0x"));
        fam.push(format!("{base}\x01x"));
        fam
    })
}

fn bytes_family() -> impl Strategy<Value = Vec<Vec<u8>>> {
    const EXT: &[&[u8]] = &[
        b"\0",
        b"\x01",
        b"\xFF",
        b"\xFF\xFF",
        b"\0\xFF",
        b"\xFE",
        b"\xFE\xFF",
        b"1",
    ];
    (bytes(), vec(select(EXT), 1..4)).prop_map(|(base, ext)| {
        let mut fam = vec![base.clone()];
        for e in ext {
            let mut v = base.clone();
            v.extend_from_slice(e);
            fam.push(v);
        }
        let swapped: Vec<u8> = base
            .iter()
            .map(|&b| match b {
                0 => 1,
                1 => 0,
                b => b,
            })
            .collect();
        fam.push(swapped);
        fam
    })
}

const ISO_CASES: u32 = 96;

fn prefix_isolation<L: Case>() {
    let st = Stats::default();
    let strategy = (
        input::<L>(false, 8..40, 3),
        any::<Index>(),
        text_family(),
        bytes_family(),
    );
    run(
        &format!("{} prefix isolation", L::NAME),
        ISO_CASES,
        strategy,
        |(mut inp, field, text, bytes)| {
            let i = *field.get(L::VARLEN);
            L::set_family(&mut inp.pools, i, &text, &bytes);
            check_case::<L>(&inp, &st)
        },
    );
    st.report(&format!("{} prefix isolation", L::NAME));
}

#[test]
fn isolation_a() {
    prefix_isolation::<A>();
}
#[test]
fn isolation_b() {
    prefix_isolation::<B>();
}
#[test]
fn isolation_c() {
    prefix_isolation::<C>();
}
#[test]
fn isolation_d() {
    prefix_isolation::<D>();
}
#[test]
fn isolation_e() {
    prefix_isolation::<E>();
}
#[test]
fn isolation_f() {
    prefix_isolation::<F>();
}
#[test]
fn isolation_g() {
    prefix_isolation::<G>();
}
#[test]
fn isolation_h() {
    prefix_isolation::<H>();
}

/// Equality scans on the store for each member of a family never return another member (the
/// property above checks this among other things; this one says it directly, on (a)'s salted
/// host, (e)'s raw tail and (h)'s desc string).
#[test]
fn isolation_direct() {
    run(
        "isolation direct",
        32,
        (text_family(), bytes_family()),
        |(text, bytes)| {
            let store = Store::in_memory().map_err(err)?;
            let mut rows = Vec::new();
            for s in &text {
                let a = A {
                    host: s.clone(),
                    ts: 7,
                    seq: 1,
                };
                let h = H(1, s.clone());
                rows.push(a.to_row_key().map_err(err)?.to_vec());
                rows.push(h.to_row_key().map_err(err)?.to_vec());
            }
            for b in &bytes {
                let e = E {
                    score: -1,
                    code: "c".into(),
                    tail: b.clone(),
                };
                rows.push(e.to_row_key().map_err(err)?.to_vec());
            }
            store
                .put_all(rows.iter().map(|k| (k.as_slice(), &b""[..])))
                .map_err(err)?;
            let hits = |r: ScanRanges| -> Result<Vec<Vec<u8>>, TestCaseError> {
                Ok(store
                    .scan_each(&r)
                    .map_err(err)?
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k)
                    .collect())
            };
            for s in &text {
                for k in hits(A::scan().host(s).ranges())? {
                    let d = A::from_row_key(&k).map_err(err)?;
                    prop_assert_eq!(&d.host, s);
                }
                for k in hits(H::scan().field_0(1).field_1(s).ranges())? {
                    let d = H::from_row_key(&k).map_err(err)?;
                    prop_assert_eq!(&d.1, s);
                }
                let n = hits(A::scan().host(s).ts(7).seq(1).ranges())?.len();
                prop_assert_eq!(n, 1);
            }
            for b in &bytes {
                let got = hits(E::scan().score(-1).code("c").tail(b).ranges())?;
                prop_assert_eq!(got.len(), 1);
                let d = E::from_row_key(&got[0]).map_err(err)?;
                prop_assert_eq!(&d.tail, b);
            }
            Ok(())
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Regressions (minimal cases shrunk from the properties)

/// Store `keys`, run `ranges`, decode what comes back (in store order, range by range).
fn on_store<L: Case>(keys: &[L], ranges: &ScanRanges) -> Vec<L> {
    let store = Store::in_memory().unwrap();
    let rows: Vec<Vec<u8>> = keys
        .iter()
        .map(|k| k.to_row_key().unwrap().to_vec())
        .collect();
    store
        .put_all(rows.iter().map(|k| (k.as_slice(), &b""[..])))
        .unwrap();
    store
        .scan_each(ranges)
        .unwrap()
        .into_iter()
        .flatten()
        .map(|(k, _)| L::from_row_key(&k).unwrap())
        .collect()
}

/// `ts_range(u64::MAX - 1..)` holds two values (buckets 14 and 15 of 16) but fans out to all
/// 16 buckets: the unbounded upper end is treated as "spans every bucket"
/// (`modulo_buckets` in rowkey-core/src/scan.rs; the derive passes `Bound::Unbounded` through
/// `map_bound_u128` without the type's maximum). Results are still exact; only the fan-out is
/// wider than needed.
#[test]
fn modulo_unbounded_upper_fans_out_to_all_buckets() {
    let r = C::scan().ts_range(u64::MAX - 1..).ranges();
    let salts: Vec<u8> = r.iter().map(|r| r.start()[0]).collect();
    assert_eq!(salts, [14, 15], "{r:?}");
}

#[test]
fn modulo_short_ranges_touch_only_their_buckets() {
    let r = C::scan().ts_range(17..=18).ranges();
    let salts: Vec<u8> = r.iter().map(|r| r.start()[0]).collect();
    assert_eq!(salts, [1, 2], "{r:?}");
    let r = C::scan().ts_range(15..17).ranges();
    let salts: Vec<u8> = r.iter().map(|r| r.start()[0]).collect();
    assert_eq!(salts, [0, 15], "{r:?}");
    let r = C::scan().ts_range(..=1).ranges();
    let salts: Vec<u8> = r.iter().map(|r| r.start()[0]).collect();
    assert_eq!(salts, [0, 1], "{r:?}");
    assert!(C::scan().ts_range(5..5).ranges().is_empty());
}

/// A range bound the field cannot hold makes the whole scan empty, although stored keys lie in
/// the range: `ScanBuilder::range` in rowkey-core/src/scan.rs sets `impossible` when a bound does
/// not encode ("matches nothing rather than too much"). Here: a negative `#[reverse_ts]` lower
/// bound; `ts_range(-1..10)` should return ts 0 and 5.
#[test]
fn unencodable_bound_negative_reverse_ts() {
    let keys: Vec<A> = [0, 5]
        .map(|ts| A {
            host: "h".into(),
            ts,
            seq: 0,
        })
        .into();
    let got = on_store(&keys, &A::scan().host("h").ts_range(-1..10).ranges());
    assert_eq!(got.len(), 2, "{got:?}");
}

/// Same, `#[pad(6)]` string: an upper bound longer than 6 bytes.
#[test]
fn unencodable_bound_pad_too_long() {
    let keys = [E {
        score: 0,
        code: "".into(),
        tail: vec![],
    }];
    let got = on_store(
        &keys,
        &E::scan()
            .score(0)
            .code_range(..="abcdefg".to_string())
            .ranges(),
    );
    assert_eq!(got, keys);
}

/// Same, `#[pad(6)]` string: a bound ending in the fill byte (shrunk from the property:
/// `code_range(.."host1\x01\0")` misses the stored code "").
#[test]
fn unencodable_bound_pad_fill_terminated() {
    let keys = [E {
        score: i32::MIN,
        code: "".into(),
        tail: vec![],
    }];
    let got = on_store(
        &keys,
        &E::scan()
            .score(i32::MIN)
            .code_range(.."host1\x01\0".to_string())
            .ranges(),
    );
    assert_eq!(got, keys);
}

/// Same, `#[pad(8)]` decimal: an upper bound with more than 8 digits.
#[test]
fn unencodable_bound_decimal_too_many_digits() {
    let keys = [F {
        id: 5,
        tag: "t".into(),
        opt: None,
    }];
    let got = on_store(&keys, &F::scan().id_range(1..u32::MAX).ranges());
    assert_eq!(got, keys);
}

/// Equality and starts-with on values the layout cannot hold: empty, never an error or a
/// wrong match.
#[test]
fn unencodable_equality_and_prefix_values_match_nothing() {
    let e = [E {
        score: 1,
        code: "ab".into(),
        tail: vec![],
    }];
    assert!(on_store(&e, &E::scan().score(1).code("ab\0").ranges()).is_empty());
    assert!(on_store(&e, &E::scan().score(1).code("abcdefg").ranges()).is_empty());
    assert!(on_store(&e, &E::scan().score(1).code_starts_with("abcdefg").ranges()).is_empty());
    assert_eq!(
        on_store(&e, &E::scan().score(1).code_starts_with("ab\0").ranges()),
        []
    );
    assert_eq!(
        on_store(&e, &E::scan().score(1).code_starts_with("ab").ranges()),
        e
    );
    let f = [F {
        id: 5,
        tag: "a".into(),
        opt: None,
    }];
    assert!(on_store(&f, &F::scan().id(5).tag("a|").ranges()).is_empty());
    assert!(on_store(&f, &F::scan().id(5).tag_starts_with("a|").ranges()).is_empty());
    assert!(on_store(&f, &F::scan().id(100_000_005).ranges()).is_empty());
    let a = [A {
        host: "h".into(),
        ts: 0,
        seq: 0,
    }];
    assert!(on_store(&a, &A::scan().host("h").ts(-1).ranges()).is_empty());
}
