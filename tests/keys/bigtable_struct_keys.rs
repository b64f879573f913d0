//! The Bigtable struct-key derive mode (`#[rowkey(bigtable(..))]`) against its reference and
//! against brute force.
//!
//! - Every key the derive writes is byte-identical with `rowkey::struct_key::StructSchema::encode`
//!   for a schema built here by hand (the runtime checked against Google's Go `orderedcode` and
//!   the API reference's examples in `rowkey-core/tests/struct_key.rs`), ≥ 5,000 random keys per
//!   layout with the edge cases (empty and trailing empty strings/bytes, `00`/`FF` runs, the
//!   delimiter inside values, `i64::MIN`/`MAX`); it decodes back to its values; the derive
//!   refuses exactly the values the schema refuses, naming the same field; `row_key_schema()`
//!   is that schema.
//! - Typed scans: random queries fix a prefix of the fields by equality and end with nothing, a
//!   range (all nine bound shapes, on every field where the mode offers one), a starts-with or
//!   an IN-list; every stored key is in the ranges exactly when its values satisfy the query.
//! - Random bytes: the derive's decoder accepts exactly what `StructSchema::decode` accepts,
//!   with the same values, and never panics; its errors name a field of the key (the first
//!   problem in key order, which may be another one than the reference's, since the reference
//!   splits the whole key into fields first) and an offset inside the key.
//!
//! Deterministic (a fixed seed).

use crate::shapes;
use rowkey::plan::SplitPoints;

use std::collections::BTreeMap;
use std::ops::Bound;

use rowkey::struct_key::{
    Field, FieldType, Int64Encoding, Micros, StructEncoding, StructKey, StructSchema, Value,
};
use rowkey::{DecodeRowKeyOwned, RowKey, ScanRanges};
use shapes::{Shape, SHAPES};

const KEYS: usize = 8_000;
const ROWS: usize = 800;
const QUERIES: usize = 2_500;

/// SplitMix64.
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
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    fn string(&mut self) -> String {
        if self.chance(40) {
            return self
                .pick(&[
                    "",
                    "",
                    "a",
                    "ab",
                    "b",
                    "\0",
                    "a\0",
                    "a\0\0b",
                    "#",
                    "a#",
                    "é",
                    ":",
                    "a::b",
                    "\u{1}",
                    "\u{7f}",
                    "zz",
                    "\u{10FFFF}",
                ])
                .to_owned();
        }
        let len = self.below(4);
        (0..len)
            .map(|_| self.pick(&['a', 'b', '\0', '\u{1}', '#', ':', '\u{7f}', 'é', 'z']))
            .collect()
    }
    fn bytes(&mut self) -> Vec<u8> {
        let len = self.below(5);
        (0..len)
            .map(|_| {
                self.pick(&[
                    0x00, 0x00, 0x01, 0x23, 0x3A, 0x61, 0x7F, 0x80, 0xFE, 0xFF, 0xFF,
                ])
            })
            .collect()
    }
    fn int(&mut self) -> i64 {
        match self.below(8) {
            0 => self.pick(&[i64::MIN, i64::MAX, i64::MIN + 1, i64::MAX - 1]),
            1 => self.pick(&[0, -1, 1, 63, 64, -64, -65, 0x23, 255, 256, 0x2300]),
            2 => self.next() as i64,
            3 => -(self.below(1 << 20) as i64),
            _ => self.below(1 << 20) as i64,
        }
    }
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}
fn b(v: &[u8]) -> Value {
    Value::Bytes(v.to_vec())
}

/// How a query ends after its fixed fields.
#[derive(Clone, Debug)]
enum End<R> {
    Nothing,
    Range(Shape, R, R),
    StartsWith(String),
    In(Vec<R>),
}

/// A layout under test.
trait Layout: RowKey + DecodeRowKeyOwned + StructKey + Clone + std::fmt::Debug + Sized {
    const FIELDS: usize;
    /// Which fields are strings (a starts-with may end a query on them).
    const TEXT: &'static [usize];
    /// Which fields take no range.
    const NO_RANGE: &'static [usize] = &[];
    /// The reference schema, written by hand.
    fn schema() -> StructSchema;
    fn random(rng: &mut Rng) -> Self;
    fn values(&self) -> Vec<Value>;
    fn scan(k: usize, eq: &Self, end: &End<Self>) -> ScanRanges;
}

fn run<L: Layout>(seed: u64) -> (usize, usize, usize) {
    let mut rng = Rng(seed);
    let schema = L::schema();
    assert_eq!(L::row_key_schema(), schema);
    let mut keys: BTreeMap<Vec<u8>, L> = BTreeMap::new();
    let mut refused = 0;
    let mut checked = 0;
    for i in 0..KEYS {
        let row = L::random(&mut rng);
        assert_eq!(row.struct_values(), row.values());
        let ours = row.to_row_key();
        // `to_row_key` builds the key in place; `encode_into` writes the same bytes, or the
        // same refusal
        let mut into = Vec::new();
        match (row.encode_into(&mut into), &ours) {
            (Ok(()), Ok(k)) => assert_eq!(&into[..], k.as_ref(), "{row:?}: encode_into"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{row:?}"),
            (a, b) => panic!("{row:?}: encode_into {a:?}, to_row_key {b:?}"),
        }
        match schema.encode(&row.values()) {
            Ok(bytes) => {
                let ours = ours.unwrap_or_else(|e| {
                    panic!("{row:?}: refused ({e}), StructSchema wrote {bytes:02X?}")
                });
                assert_eq!(
                    ours.as_ref(),
                    &bytes[..],
                    "{row:?}: other bytes than StructSchema's"
                );
                assert_eq!(row.encoded_len(), bytes.len(), "{row:?}: encoded_len");
                let back =
                    L::from_row_key(&bytes).unwrap_or_else(|e| panic!("{row:?} {bytes:02X?}: {e}"));
                assert_eq!(back.values(), row.values(), "{row:?} {bytes:02X?}");
                checked += 1;
                if i < ROWS {
                    keys.insert(bytes, row);
                }
            }
            Err(want) => {
                let e = ours.expect_err(&format!(
                    "{row:?}: StructSchema refuses it ({want}), the derive wrote it"
                ));
                assert_eq!(e.field(), want.field(), "{row:?}: {e} / {want}");
                refused += 1;
            }
        }
    }
    let rows: Vec<L> = keys.values().cloned().collect();
    let mut queries = 0;
    for _ in 0..QUERIES {
        let k = rng.below(L::FIELDS + 1);
        let pick = |rng: &mut Rng| {
            if rng.chance(60) && !rows.is_empty() {
                rows[rng.below(rows.len())].clone()
            } else {
                L::random(rng)
            }
        };
        let eq = pick(&mut rng);
        let end = if k == L::FIELDS {
            End::Nothing
        } else {
            match rng.below(4) {
                0 => End::Nothing,
                1 if !L::NO_RANGE.contains(&k) => {
                    End::Range(rng.pick(&SHAPES), pick(&mut rng), pick(&mut rng))
                }
                2 if L::TEXT.contains(&k) => {
                    let from = match &eq.values()[k] {
                        Value::String(x) => x.clone(),
                        _ => String::new(),
                    };
                    let cut = from
                        .char_indices()
                        .map(|(i, _)| i)
                        .nth(rng.below(3))
                        .unwrap_or(from.len());
                    End::StartsWith(if rng.chance(80) {
                        from[..cut].to_owned()
                    } else {
                        rng.string()
                    })
                }
                3 => {
                    let n = rng.below(4);
                    End::In((0..n).map(|_| pick(&mut rng)).collect())
                }
                _ => End::Nothing,
            }
        };
        let ranges = L::scan(k, &eq, &end);
        crate::common::ranges::assert_well_formed(
            &format_args!("{}: {k} fields, {end:?}", std::any::type_name::<L>()),
            &ranges,
        );
        let want_eq = eq.values();
        for (key, row) in &keys {
            let v = row.values();
            let mut hit = v[..k] == want_eq[..k];
            if hit {
                hit = match &end {
                    End::Nothing => true,
                    End::Range(shape, a, b) => {
                        let bounds =
                            shapes::bounds(*shape, a.values()[k].clone(), b.values()[k].clone());
                        shapes::contains(&bounds, &v[k])
                    }
                    End::StartsWith(p) => {
                        matches!(&v[k], Value::String(x) if x.as_bytes().starts_with(p.as_bytes()))
                    }
                    End::In(xs) => xs.iter().any(|x| x.values()[k] == v[k]),
                };
            }
            assert_eq!(
                ranges.contains(key),
                hit,
                "k={k} eq={eq:?} end={end:?}\nrow {row:?} key {key:02X?}\nranges {ranges:?}"
            );
        }
        queries += 1;
    }
    // random bytes: the derive accepts exactly what the schema accepts, with the same values
    for _ in 0..20_000 {
        let len = rng.below(24);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                rng.pick(&[
                    0x00, 0x00, 0x01, 0x23, 0x3A, 0x61, 0x7F, 0x80, 0xC1, 0xFE, 0xFF,
                ])
            })
            .collect();
        let ours = L::from_row_key(&bytes);
        let want = schema.decode(&bytes);
        match (&ours, &want) {
            (Ok(v), Ok(w)) => {
                assert_eq!(&v.values(), w, "{bytes:02X?}");
                assert_eq!(v.to_row_key().unwrap().as_ref(), &bytes[..], "{v:?}");
            }
            // both refuse it; the reference splits the whole key before it reads a field, the
            // derive reads field by field, so the first error found may be another one
            (Err(e), Err(w)) => {
                assert!(
                    e.field().is_empty() || schema.fields().iter().any(|f| f.name == e.field()),
                    "{bytes:02X?}: {e} / {w}"
                );
                assert!(e.offset() <= bytes.len(), "{bytes:02X?}: {e}");
            }
            _ => panic!("{bytes:02X?}: derive {ours:?}, StructSchema {want:?}"),
        }
    }
    (checked, refused, queries)
}

/// Ends a scan stage on field `$f` as `$end` says.
macro_rules! end {
    ($stage:expr, $end:expr, $fr:ident, $fi:ident, $arg:expr) => {
        match $end {
            End::Nothing | End::StartsWith(_) => $stage.ranges(),
            End::Range(sh, a, b) => {
                let conv = $arg;
                with_range!(*sh, conv(a), conv(b), |r| $stage.$fr(r).ranges())
            }
            End::In(xs) => {
                let conv = $arg;
                $stage
                    .$fi(xs.iter().map(|x| conv(x)).collect::<Vec<_>>())
                    .unwrap()
                    .ranges()
            }
        }
    };
    (norange $stage:expr, $end:expr, $fi:ident, $arg:expr) => {
        match $end {
            End::In(xs) => {
                let conv = $arg;
                $stage
                    .$fi(xs.iter().map(|x| conv(x)).collect::<Vec<_>>())
                    .unwrap()
                    .ranges()
            }
            _ => $stage.ranges(),
        }
    };
    ($stage:expr, $end:expr, $fr:ident, $fs:ident, $fi:ident, $arg:expr) => {
        match $end {
            End::StartsWith(p) => $stage.$fs(p.as_str()).ranges(),
            other => end!($stage, other, $fr, $fi, $arg),
        }
    };
    (norange $stage:expr, $end:expr, $fs:ident, $fi:ident, $arg:expr, text) => {
        match $end {
            End::StartsWith(p) => $stage.$fs(p.as_str()).ranges(),
            other => end!(norange $stage, other, $fi, $arg),
        }
    };
}

fn oc() -> Int64Encoding {
    Int64Encoding::OrderedCodeBytes
}
fn be() -> Int64Encoding {
    Int64Encoding::BigEndianBytes
}

// ---- O1: ordered code, empty and trailing empty fields ----

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(ordered_code))]
struct O1 {
    a: String,
    n: i64,
    c: Vec<u8>,
    d: String,
}

impl Layout for O1 {
    const FIELDS: usize = 4;
    const TEXT: &'static [usize] = &[0, 3];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![
                Field::new("a", FieldType::String),
                Field::new("n", FieldType::Int64(oc())),
                Field::new("c", FieldType::Bytes),
                Field::new("d", FieldType::String),
            ],
            StructEncoding::OrderedCodeBytes,
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        O1 {
            a: r.string(),
            n: r.int(),
            c: r.bytes(),
            d: r.string(),
        }
    }
    fn values(&self) -> Vec<Value> {
        vec![s(&self.a), Value::Int64(self.n), b(&self.c), s(&self.d)]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        let sc = O1::scan;
        match k {
            0 => end!(sc(), end, a_range, a_starts_with, a_in, |x: &O1| x
                .a
                .clone()),
            1 => end!(sc().a(e.a.as_str()), end, n_range, n_in, |x: &O1| x.n),
            2 => end!(sc().a(e.a.as_str()).n(e.n), end, c_range, c_in, |x: &O1| x
                .c
                .clone()),
            3 => end!(
                sc().a(e.a.as_str()).n(e.n).c(e.c.as_slice()),
                end,
                d_range,
                d_starts_with,
                d_in,
                |x: &O1| x.d.clone()
            ),
            _ => sc()
                .a(e.a.as_str())
                .n(e.n)
                .c(e.c.as_slice())
                .d(e.d.as_str())
                .ranges(),
        }
    }
}

// ---- O2: ordered code, empty fields first, big-endian Int64/Timestamp ----

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(ordered_code, big_endian), allow_hotspot)]
struct O2 {
    c: Vec<u8>,
    t: Micros,
    a: String,
    d: String,
}

impl Layout for O2 {
    const FIELDS: usize = 4;
    const TEXT: &'static [usize] = &[2, 3];
    const NO_RANGE: &'static [usize] = &[1];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![
                Field::new("c", FieldType::Bytes),
                Field::new("t", FieldType::Timestamp(be())),
                Field::new("a", FieldType::String),
                Field::new("d", FieldType::String),
            ],
            StructEncoding::OrderedCodeBytes,
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        O2 {
            c: r.bytes(),
            t: Micros(r.int()),
            a: r.string(),
            d: r.string(),
        }
    }
    fn values(&self) -> Vec<Value> {
        vec![
            b(&self.c),
            Value::Timestamp(self.t.0),
            s(&self.a),
            s(&self.d),
        ]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        let sc = O2::scan;
        match k {
            0 => end!(sc(), end, c_range, c_in, |x: &O2| x.c.clone()),
            1 => end!(norange sc().c(e.c.as_slice()), end, t_in, |x: &O2| x.t),
            2 => end!(
                sc().c(e.c.as_slice()).t(e.t),
                end,
                a_range,
                a_starts_with,
                a_in,
                |x: &O2| x.a.clone()
            ),
            3 => end!(
                sc().c(e.c.as_slice()).t(e.t).a(e.a.as_str()),
                end,
                d_range,
                d_starts_with,
                d_in,
                |x: &O2| x.d.clone()
            ),
            _ => sc()
                .c(e.c.as_slice())
                .t(e.t)
                .a(e.a.as_str())
                .d(e.d.as_str())
                .ranges(),
        }
    }
}

// ---- D1: delimited by '#', orderedcode integers (ranges), strings (starts-with) ----

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(delimited = b"#"))]
struct D1 {
    a: String,
    n: i64,
    t: Micros,
    d: String,
}

impl Layout for D1 {
    const FIELDS: usize = 4;
    const TEXT: &'static [usize] = &[0, 3];
    const NO_RANGE: &'static [usize] = &[0];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![
                Field::new("a", FieldType::String),
                Field::new("n", FieldType::Int64(oc())),
                Field::new("t", FieldType::Timestamp(oc())),
                Field::new("d", FieldType::String),
            ],
            StructEncoding::DelimitedBytes(b"#".to_vec()),
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        D1 {
            a: r.string(),
            n: r.int(),
            t: Micros(r.int()),
            d: r.string(),
        }
    }
    fn values(&self) -> Vec<Value> {
        vec![
            s(&self.a),
            Value::Int64(self.n),
            Value::Timestamp(self.t.0),
            s(&self.d),
        ]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        let sc = D1::scan;
        match k {
            0 => end!(norange sc(), end, a_starts_with, a_in, |x: &D1| x.a.clone(), text),
            1 => end!(sc().a(e.a.as_str()), end, n_range, n_in, |x: &D1| x.n),
            2 => end!(sc().a(e.a.as_str()).n(e.n), end, t_range, t_in, |x: &D1| x
                .t),
            3 => end!(
                sc().a(e.a.as_str()).n(e.n).t(e.t),
                end,
                d_range,
                d_starts_with,
                d_in,
                |x: &D1| x.d.clone()
            ),
            _ => sc().a(e.a.as_str()).n(e.n).t(e.t).d(e.d.as_str()).ranges(),
        }
    }
}

// ---- D2: a two-byte delimiter, big-endian integers, bytes last ----

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(delimited = b"::", big_endian))]
struct D2 {
    a: String,
    n: i64,
    c: Vec<u8>,
}

impl Layout for D2 {
    const FIELDS: usize = 3;
    const TEXT: &'static [usize] = &[0];
    const NO_RANGE: &'static [usize] = &[0, 1];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![
                Field::new("a", FieldType::String),
                Field::new("n", FieldType::Int64(be())),
                Field::new("c", FieldType::Bytes),
            ],
            StructEncoding::DelimitedBytes(b"::".to_vec()),
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        let n = if r.chance(50) {
            r.below(1 << 16) as i64
        } else {
            r.int()
        };
        D2 {
            a: r.string(),
            n,
            c: r.bytes(),
        }
    }
    fn values(&self) -> Vec<Value> {
        vec![s(&self.a), Value::Int64(self.n), b(&self.c)]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        let sc = D2::scan;
        match k {
            0 => end!(norange sc(), end, a_starts_with, a_in, |x: &D2| x.a.clone(), text),
            1 => end!(norange sc().a(e.a.as_str()), end, n_in, |x: &D2| x.n),
            2 => end!(sc().a(e.a.as_str()).n(e.n), end, c_range, c_in, |x: &D2| x
                .c
                .clone()),
            _ => sc().a(e.a.as_str()).n(e.n).c(e.c.as_slice()).ranges(),
        }
    }
}

// ---- singletons ----

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(singleton))]
struct S1 {
    a: String,
}

impl Layout for S1 {
    const FIELDS: usize = 1;
    const TEXT: &'static [usize] = &[0];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![Field::new("a", FieldType::String)],
            StructEncoding::Singleton,
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        S1 { a: r.string() }
    }
    fn values(&self) -> Vec<Value> {
        vec![s(&self.a)]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        match k {
            0 => end!(S1::scan(), end, a_range, a_starts_with, a_in, |x: &S1| x
                .a
                .clone()),
            _ => S1::scan().a(e.a.as_str()).ranges(),
        }
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(singleton))]
struct S2 {
    n: i64,
}

impl Layout for S2 {
    const FIELDS: usize = 1;
    const TEXT: &'static [usize] = &[];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![Field::new("n", FieldType::Int64(oc()))],
            StructEncoding::Singleton,
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        S2 { n: r.int() }
    }
    fn values(&self) -> Vec<Value> {
        vec![Value::Int64(self.n)]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        match k {
            0 => end!(S2::scan(), end, n_range, n_in, |x: &S2| x.n),
            _ => S2::scan().n(e.n).ranges(),
        }
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(singleton, big_endian), allow_hotspot)]
struct S3 {
    t: Micros,
}

impl Layout for S3 {
    const FIELDS: usize = 1;
    const TEXT: &'static [usize] = &[];
    const NO_RANGE: &'static [usize] = &[0];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![Field::new("t", FieldType::Timestamp(be()))],
            StructEncoding::Singleton,
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        S3 { t: Micros(r.int()) }
    }
    fn values(&self) -> Vec<Value> {
        vec![Value::Timestamp(self.t.0)]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        match k {
            0 => end!(norange S3::scan(), end, t_in, |x: &S3| x.t),
            _ => S3::scan().t(e.t).ranges(),
        }
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(singleton))]
struct S4 {
    c: Vec<u8>,
}

impl Layout for S4 {
    const FIELDS: usize = 1;
    const TEXT: &'static [usize] = &[];
    fn schema() -> StructSchema {
        StructSchema::new(
            vec![Field::new("c", FieldType::Bytes)],
            StructEncoding::Singleton,
        )
        .unwrap()
    }
    fn random(r: &mut Rng) -> Self {
        S4 { c: r.bytes() }
    }
    fn values(&self) -> Vec<Value> {
        vec![b(&self.c)]
    }
    fn scan(k: usize, e: &Self, end: &End<Self>) -> ScanRanges {
        match k {
            0 => end!(S4::scan(), end, c_range, c_in, |x: &S4| x.c.clone()),
            _ => S4::scan().c(e.c.as_slice()).ranges(),
        }
    }
}

fn report(name: &str, (keys, refused, queries): (usize, usize, usize)) {
    eprintln!("{name}: {keys} keys equal to StructSchema's ({refused} values refused as it refuses them), {queries} queries");
    assert!(keys >= 5_000, "{name}: too few keys ({keys})");
}

#[test]
fn ordered_code() {
    report("O1", run::<O1>(1));
}

#[test]
fn ordered_code_big_endian() {
    report("O2", run::<O2>(2));
}

#[test]
fn delimited() {
    let r = run::<D1>(3);
    assert!(r.0 >= 2_000 && r.1 >= 500, "{r:?}");
    report("D1", r);
}

#[test]
fn delimited_two_bytes_big_endian() {
    let r = run::<D2>(4);
    assert!(r.0 >= 2_000 && r.1 >= 100, "{r:?}");
    report("D2", r);
}

#[test]
fn singletons() {
    report("S1", run::<S1>(5));
    report("S2", run::<S2>(6));
    report("S3", run::<S3>(7));
    report("S4", run::<S4>(8));
}

#[test]
fn edge_cases_and_errors() {
    // trailing empty fields are dropped; all empty: 00 00
    let k = O1 {
        a: "x".into(),
        n: 1,
        c: vec![],
        d: String::new(),
    }
    .to_row_key()
    .unwrap();
    assert_eq!(k.as_ref(), b"x\x00\x01\x81");
    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(bigtable(ordered_code))]
    struct E {
        a: String,
        b: Vec<u8>,
    }
    let empty = E {
        a: String::new(),
        b: vec![],
    };
    assert_eq!(empty.to_row_key().unwrap().as_ref(), b"\x00\x00");
    assert_eq!(E::from_row_key(b"\x00\x00").unwrap(), empty);
    let k = E {
        a: String::new(),
        b: vec![0],
    }
    .to_row_key()
    .unwrap();
    assert_eq!(k.as_ref(), b"\x00\x00\x00\x01\x00\xFF");
    // errors name the field and the offset
    let e = E::from_row_key(b"").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("a", 0));
    let e = E::from_row_key(b"a\x00\x01").unwrap_err();
    assert_eq!(e.field(), "a");
    let e = O1::from_row_key(b"x\x00\x01\xC1").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("n", 4));
    let e = D1::from_row_key(b"x#\x80#\x80").unwrap_err();
    assert_eq!(e.field(), "t");
    let e = D1 {
        a: "a#".into(),
        n: 0,
        t: Micros(0),
        d: String::new(),
    }
    .to_row_key()
    .unwrap_err();
    assert_eq!(e.field(), "a");
    assert!(matches!(
        e.kind(),
        rowkey::EncodeErrorKind::ContainsSeparator { sep: b'#', at: 1 }
    ));
    // a delimited Int64 whose bytes hold the delimiter is refused too
    let e = D2 {
        a: "a".into(),
        n: 0x3A,
        c: vec![],
    }
    .to_row_key()
    .unwrap_err();
    assert_eq!(e.field(), "n");
    // the scan of `a = "x"` holds the key that ends after it
    let r = O1::scan().a("x").ranges();
    assert!(r.contains(b"x"));
    assert!(r.contains(
        &O1 {
            a: "x".into(),
            n: 0,
            c: vec![],
            d: "y".into()
        }
        .to_row_key()
        .unwrap()
    ));
    assert!(!r.contains(
        &O1 {
            a: "x\0".into(),
            n: 0,
            c: vec![],
            d: String::new()
        }
        .to_row_key()
        .unwrap()
    ));
    // the layout, split points (none: no salt or hash prefix), describe
    assert_eq!(
        O1::LAYOUT.fields[0].encoding,
        rowkey::layout::FieldEncoding::BigtableStruct
    );
    assert!(O1::split_points(4).is_err());
    let key = O1 {
        a: "x".into(),
        n: -1,
        c: vec![0xFF],
        d: "z".into(),
    }
    .to_row_key()
    .unwrap();
    let shown = O1::describe(&key);
    for want in ["a", "\"x\"", "n", "-1", "d", "\"z\""] {
        assert!(shown.contains(want), "{shown}");
    }
    // the schema: names, types, encodings
    assert_eq!(
        D2::row_key_schema().encoding(),
        &StructEncoding::DelimitedBytes(b"::".to_vec())
    );
    assert_eq!(
        S3::row_key_schema().fields()[0].ty,
        FieldType::Timestamp(be())
    );
    assert!(O1::row_key_schema().lint().is_empty());
}

/// The derive's errors inside an escaped field (each content `00` written `00 FF`) name the key
/// offset of the faulty byte — past the escapes and content bytes before it — as the schema's
/// do (issue 49: a wrong count of content bytes went unnoticed).
#[test]
fn errors_after_escaped_bytes_name_the_byte() {
    // (key, field, offset of the invalid UTF-8 byte)
    let cases: &[(&[u8], &str, usize)] = &[
        // a = "a\0b\0c" then FF: content byte 5, key byte 7
        (b"a\x00\xFFb\x00\xFFc\xFF\x00\x01\x80", "a", 7),
        // several plain bytes, an escape, then FE at content byte 5, key byte 6
        (b"xyz\x00\xFFw\xFE\x00\x01\x80", "a", 6),
        // d behind escaped fields: "x" 00 01, 80 00 01, c = 00 (00 FF) 00 01, then
        // d = "\0\0z" and FF: content byte 3 of d, key byte 10 + 5
        (
            b"x\x00\x01\x80\x00\x01\x00\xFF\x00\x01\x00\xFF\x00\xFFz\xFF",
            "d",
            15,
        ),
    ];
    for &(key, field, offset) in cases {
        let e = O1::from_row_key(key).unwrap_err();
        assert_eq!(
            (e.field(), e.offset(), e.kind()),
            (field, offset, &rowkey::DecodeErrorKind::InvalidUtf8),
            "{key:02X?}: {e}"
        );
        let r = O1::schema().decode(key).unwrap_err();
        assert_eq!((r.field(), r.offset()), (field, offset), "{key:02X?}: {r}");
    }
}

#[cfg(feature = "tool")]
#[test]
fn key_tool() {
    fn run(args: &[&str]) -> (i32, String) {
        let mut full = vec!["keytool"];
        full.extend_from_slice(args);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = rowkey::tool::run::<(O1, D1)>(&full, &mut &b""[..], &mut out, &mut err);
        (
            code,
            String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err),
        )
    }
    let (code, out) = run(&["encode", "O1", "a=x", "n=1", "c=", "d="]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("x\\x00\\x01\\x81"), "{out}");
    let (code, out) = run(&["describe", "x#\\x80#\\x80#z"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Micros(0)"), "{out}");
    let (code, out) = run(&["scan", "D1", "a=x", "n=0..5"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&["scan", "D1", "a=x.."]);
    assert_ne!(code, 0, "{out}");
}
