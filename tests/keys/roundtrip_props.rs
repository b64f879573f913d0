//! Property tests over adversarial values, for key layouts that together combine every field
//! type and attribute:
//!
//! (a) round trip: every value either encodes and decodes back to itself (floats by bits), or
//!     fails to encode with an `EncodeError` naming the field that cannot be encoded;
//! (b) order: memcmp order of two encodings equals the field-by-field order of the values
//!     (desc and reverse_ts fields reversed, floats by `total_cmp`); for salted layouts, the
//!     bytes after the salt always, the whole key when the salts are equal;
//! (c) decode of arbitrary bytes and of mutated encodings never panics, and when it succeeds
//!     re-encoding gives the same bytes (the decode is canonical).
//!
//! The seed is fixed (deterministic in CI); set `PROPTEST_RNG_SEED` to explore others, and
//! `PROPTEST_CASES` to change the case counts.

use std::cmp::Ordering;
use std::fmt::Debug;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{RngSeed, TestCaseError};
use rowkey::{Bytes, DecodeErrorKind, DecodeRowKeyOwned, EncodeErrorKind, RowKey};

// ---------------------------------------------------------------------------------------------
// configuration

const SEED: u64 = 0x5EED_0F20_4BE7;

fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let env_cases = std::env::var("PROPTEST_CASES").is_ok();
    let env_seed = std::env::var("PROPTEST_RNG_SEED").is_ok();
    ProptestConfig {
        cases: if env_cases { default.cases } else { cases },
        rng_seed: if env_seed {
            default.rng_seed
        } else {
            RngSeed::Fixed(SEED)
        },
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..default
    }
}

/// Cases per property (each property is cheap: a few encodes/decodes).
const CASES: u32 = 2048;

// ---------------------------------------------------------------------------------------------
// key types

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    A,
    B,
    C,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u16)]
enum Code {
    Low = 3,
    Mid = 0x100,
    High = 0xFFFF,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i8)]
enum Temp {
    Cold = -5,
    Zero = 0,
    Warm = 7,
}

/// Fixed-width scalars, ascending and descending, and enums.
#[derive(RowKey, Debug, Clone)]
struct Scalars {
    u: u64,
    #[desc]
    i: i32,
    flag: bool,
    #[desc]
    c: char,
    f: f64,
    #[desc]
    g: f32,
    arr: [u8; 2],
    kind: Kind,
    #[desc]
    code: Code,
    temp: Temp,
    big: i128,
    #[desc]
    small: u8,
}

/// Strings and bytes: sep, custom sep, pad (0x00 and custom fill), decimal, desc on each,
/// desc on a variable-length last field.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Texts {
    #[sep]
    s: String,
    #[desc]
    #[sep]
    ds: String,
    #[pad(4)]
    p: String,
    #[desc]
    #[pad(3)]
    dp: Vec<u8>,
    #[pad(5, fill = b' ')]
    sp: String,
    #[pad(6)]
    dec: u32,
    #[desc]
    #[pad(3)]
    ddec: u16,
    #[sep(b'|')]
    piped: String,
    #[desc]
    #[sep(b'|')]
    dpiped: Vec<u8>,
    #[desc]
    last: String,
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
struct Inner {
    #[sep]
    host: String,
    #[desc]
    port: u16,
}

/// Options, nested keys (asc, desc, optional), reverse timestamps, raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Mixed {
    id: Option<u16>,
    #[desc]
    rank: Option<i8>,
    #[sep]
    name: Option<String>,
    #[desc]
    #[sep]
    alias: Option<Vec<u8>>,
    inner: Inner,
    #[desc]
    dinner: Inner,
    #[reverse_ts]
    ts: i64,
    #[reverse_ts]
    ts2: u64,
    oi: Option<Inner>,
    tail: Vec<u8>,
}

/// A tuple struct ending in raw `Bytes`.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Tup(#[sep] String, #[desc] i64, Option<bool>, Bytes);

/// A salt over a two-field salted prefix that includes a desc field.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[sep]
    tenant: String,
    #[salt(buckets = 4)]
    #[desc]
    #[sep]
    host: String,
    #[reverse_ts]
    ts: i64,
    seq: Option<u32>,
    #[desc]
    last: Vec<u8>,
}

/// Whole-key salt with two salt bytes, and a runtime length budget.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 300), max_len = 24)]
struct WholeSalted {
    #[sep]
    a: String,
    b: i8,
    #[desc]
    c: Option<Kind>,
    d: String,
}

/// Modulo salt (time buckets) on a desc leading field.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Bucketed {
    #[salt(buckets = 7, modulo)]
    #[desc]
    slot: u32,
    #[pad(4)]
    name: String,
    at: u16,
}

/// Whole-key modulo salt, two bytes.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 1000, modulo))]
struct ModWhole {
    id: u64,
}

/// Hash prefixes (hex and raw, on strings, integers, bytes), reverse on fixed-width fields,
/// Java encodings: these scramble order on purpose, so round trip and decode only.
#[derive(RowKey, Debug, Clone)]
struct Scrambled {
    #[hash_prefix(4)]
    #[sep]
    user: String,
    #[hash_prefix(3, raw)]
    id: u64,
    #[reverse]
    #[pad(11)]
    phone: u64,
    #[reverse]
    n: i32,
    #[reverse]
    arr: [u8; 3],
    #[rowkey(java)]
    j: i64,
    #[rowkey(java)]
    jf: f64,
    #[rowkey(java)]
    jb: bool,
    #[desc]
    #[hash_prefix(5)]
    h: i16,
    #[hash_prefix(2)]
    last: Bytes,
}

/// `#[reverse]` on padded strings and bytes.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct RevPadded {
    id: u8,
    #[reverse]
    #[pad(6)]
    name: String,
    #[desc]
    #[reverse]
    #[pad(5, fill = b'.')]
    code: Vec<u8>,
}

/// Wide decimals, `Box<str>` and `Bytes` with sep/pad/desc, an optional raw last field.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Decimals {
    #[pad(40)]
    big: u128,
    #[desc]
    #[pad(2)]
    d: u8,
    #[sep]
    bx: Box<str>,
    #[desc]
    #[pad(4)]
    by: Bytes,
    #[desc]
    #[sep]
    dbx: Box<str>,
    last: Option<Box<str>>,
}

/// A salt whose salted prefix holds a hash prefix and a desc field; hash prefixes on `char`
/// and `[u8; N]`; `#[reverse]` decimals, asc and desc.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct HashSalted {
    #[hash_prefix(2)]
    #[sep]
    user: String,
    #[salt(buckets = 32)]
    #[desc]
    n: u16,
    #[hash_prefix(8)]
    ch: char,
    #[hash_prefix(1, raw)]
    key: [u8; 4],
    #[reverse]
    #[pad(20)]
    r: u64,
    #[desc]
    #[reverse]
    #[pad(3)]
    dr: u16,
    #[desc]
    last: Option<String>,
}

/// The Java opt-in on the container.
#[derive(RowKey, Debug, Clone)]
#[rowkey(java)]
struct JavaKey {
    a: i16,
    f: f32,
    b: bool,
    #[desc]
    c: i64,
    o: Option<i32>,
    #[sep]
    s: String,
    u: u128,
}

/// Borrowed fields: decode borrows, or reports NeedsOwned for escaped content.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    #[sep]
    name: &'a str,
    #[desc]
    tag: u8,
    raw: &'a [u8],
}

// ---------------------------------------------------------------------------------------------
// adversarial strategies

macro_rules! int_strategy {
    ($name:ident, $t:ty) => {
        fn $name() -> impl Strategy<Value = $t> {
            prop_oneof![
                1 => Just(<$t>::MIN),
                1 => Just(<$t>::MAX),
                1 => Just(0 as $t),
                1 => Just(1 as $t),
                1 => Just((0 as $t).wrapping_sub(1)),
                1 => Just(<$t>::MAX / 2),
                1 => Just((<$t>::MAX / 2).wrapping_add(1)),
                3 => (0 as $t)..=(3 as $t),
                4 => any::<$t>(),
            ]
        }
    };
}
int_strategy!(u8s, u8);
int_strategy!(u16s, u16);
int_strategy!(u32s, u32);
int_strategy!(u64s, u64);
int_strategy!(u128s, u128);
int_strategy!(i8s, i8);
int_strategy!(i16s, i16);
int_strategy!(i32s, i32);
int_strategy!(i64s, i64);
int_strategy!(i128s, i128);

fn f64s() -> BoxedStrategy<f64> {
    prop_oneof![
        1 => Just(f64::NAN),
        1 => Just(-f64::NAN),
        1 => Just(f64::from_bits(0x7FF0_0000_0000_0001)),
        1 => Just(0.0),
        1 => Just(-0.0),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(f64::MIN_POSITIVE),
        1 => Just(-f64::from_bits(1)),
        1 => Just(1.0),
        1 => Just(-1.0),
        1 => Just(f64::MAX),
        4 => any::<u64>().prop_map(f64::from_bits),
    ]
    .boxed()
}

fn f32s() -> BoxedStrategy<f32> {
    prop_oneof![
        1 => Just(f32::NAN),
        1 => Just(-f32::NAN),
        1 => Just(0.0f32),
        1 => Just(-0.0f32),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::from_bits(1)),
        1 => Just(-1.5f32),
        4 => any::<u32>().prop_map(f32::from_bits),
    ]
    .boxed()
}

fn chars() -> BoxedStrategy<char> {
    prop_oneof![
        1 => Just('\0'),
        1 => Just('\u{1}'),
        1 => Just('a'),
        1 => Just('é'),
        1 => Just('\u{D7FF}'),
        1 => Just('\u{E000}'),
        1 => Just(char::MAX),
        4 => any::<char>(),
    ]
    .boxed()
}

fn adv_char() -> BoxedStrategy<char> {
    prop_oneof![
        3 => Just('a'),
        2 => Just('b'),
        3 => Just('\0'),
        3 => Just('\u{1}'),
        1 => Just('\u{2}'),
        1 => Just('|'),
        1 => Just(' '),
        1 => Just('.'),
        1 => Just('}'),
        1 => Just('\u{7F}'),
        1 => Just('é'),
        1 => Just('\u{FF}'),
        1 => Just(char::MAX),
        2 => any::<char>(),
    ]
    .boxed()
}

const WORDS: &[&str] = &[
    "host1",
    "host12",
    "host",
    "host1\0",
    "host1\u{1}",
    "host1\u{2}",
    "a",
    "a\0",
    "a\u{1}",
    "\0",
    "\u{1}",
    "\0\0",
    "\u{1}\0",
    "ÿ",
    "é",
    "|",
    " ",
    "a b",
    "}~",
];

fn text() -> BoxedStrategy<String> {
    prop_oneof![
        1 => Just(String::new()),
        3 => select(WORDS).prop_map(String::from),
        5 => vec(adv_char(), 0..8).prop_map(|v| v.into_iter().collect()),
    ]
    .boxed()
}

fn adv_byte() -> BoxedStrategy<u8> {
    prop_oneof![
        3 => Just(0u8),
        3 => Just(1u8),
        1 => Just(2u8),
        3 => Just(0xFFu8),
        1 => Just(0xFEu8),
        1 => Just(b'|'),
        1 => Just(b'.'),
        1 => Just(b'a'),
        3 => any::<u8>(),
    ]
    .boxed()
}

const BWORDS: &[&[u8]] = &[
    b"host1",
    b"host12",
    b"\x00",
    b"\x01",
    b"\xFF",
    b"\xFF\xFF",
    b"\x00\x00",
    b"\x01\x00",
    b"a\x00",
    b"a\xFF",
];

fn bytes() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        1 => Just(Vec::new()),
        2 => select(BWORDS).prop_map(<[u8]>::to_vec),
        5 => vec(adv_byte(), 0..8),
    ]
    .boxed()
}

/// Make `s` fit `#[pad(n)]`: at most `n` bytes, not ending in `fill`.
fn fit(mut s: String, n: usize, fill: char) -> String {
    while s.len() > n || s.ends_with(fill) {
        s.pop();
    }
    s
}

fn fit_bytes(mut b: Vec<u8>, n: usize, fill: u8) -> Vec<u8> {
    while b.len() > n || b.last() == Some(&fill) {
        b.pop();
    }
    b
}

/// Mostly values that fit `#[pad(n)]`, sometimes anything (too long, ending in fill).
fn padded_text(n: usize, fill: char) -> BoxedStrategy<String> {
    prop_oneof![
        6 => text().prop_map(move |s| fit(s, n, fill)),
        1 => text(),
    ]
    .boxed()
}

fn padded_bytes(n: usize, fill: u8) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        6 => bytes().prop_map(move |b| fit_bytes(b, n, fill)),
        1 => bytes(),
    ]
    .boxed()
}

/// Text whose bytes are all at or above `' '` (the order precondition of `fill = b' '`).
fn spaced_text() -> BoxedStrategy<String> {
    let c = prop_oneof![
        Just(' '),
        Just('a'),
        Just('b'),
        Just('~'),
        Just('é'),
        Just('|')
    ];
    prop_oneof![
        6 => vec(c, 0..6).prop_map(|v| fit(v.into_iter().collect(), 5, ' ')),
        1 => text(),
    ]
    .boxed()
}

/// Text whose bytes are all above `'|'` (the order precondition of `#[sep(b'|')]`), sometimes
/// anything (containing `|`, or bytes below it).
fn piped_text() -> BoxedStrategy<String> {
    let c = prop_oneof![
        Just('}'),
        Just('~'),
        Just('\u{7F}'),
        Just('é'),
        Just('ÿ'),
        Just(char::MAX)
    ];
    prop_oneof![
        6 => vec(c, 0..5).prop_map(|v| v.into_iter().collect()),
        1 => text(),
    ]
    .boxed()
}

fn piped_bytes() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        6 => vec(prop_oneof![Just(b'}'), Just(0x80u8), Just(0xFEu8), Just(0xFFu8)], 0..5),
        1 => bytes(),
    ]
    .boxed()
}

fn decimal_u32(digits: u32) -> impl Strategy<Value = u32> {
    let max = 10u32.pow(digits) - 1;
    prop_oneof![
        1 => Just(max),
        1 => Just(max + 1),
        5 => 0..=max,
        1 => u32s(),
    ]
}

fn timestamps() -> BoxedStrategy<i64> {
    prop_oneof![
        8 => 0..=i64::MAX,
        1 => Just(0i64),
        1 => Just(i64::MAX),
        1 => i64s(),
    ]
    .boxed()
}

fn timestamps_u64() -> BoxedStrategy<u64> {
    prop_oneof![
        8 => 0..=(i64::MAX as u64),
        1 => Just(i64::MAX as u64),
        1 => u64s(),
    ]
    .boxed()
}

fn kinds() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::A), Just(Kind::B), Just(Kind::C)]
}

fn codes() -> impl Strategy<Value = Code> {
    prop_oneof![Just(Code::Low), Just(Code::Mid), Just(Code::High)]
}

fn temps() -> impl Strategy<Value = Temp> {
    prop_oneof![Just(Temp::Cold), Just(Temp::Zero), Just(Temp::Warm)]
}

fn inners() -> BoxedStrategy<Inner> {
    (text(), u16s())
        .prop_map(|(host, port)| Inner { host, port })
        .boxed()
}

fn scalars() -> BoxedStrategy<Scalars> {
    (
        (u64s(), i32s(), any::<bool>(), chars(), f64s(), f32s()),
        (
            prop_oneof![Just([0u8, 0]), Just([0xFF, 0xFF]), any::<[u8; 2]>()],
            kinds(),
            codes(),
            temps(),
            i128s(),
            u8s(),
        ),
    )
        .prop_map(
            |((u, i, flag, c, f, g), (arr, kind, code, temp, big, small))| Scalars {
                u,
                i,
                flag,
                c,
                f,
                g,
                arr,
                kind,
                code,
                temp,
                big,
                small,
            },
        )
        .boxed()
}

fn texts() -> BoxedStrategy<Texts> {
    (
        (
            text(),
            text(),
            padded_text(4, '\0'),
            padded_bytes(3, 0),
            spaced_text(),
        ),
        (
            decimal_u32(6),
            prop_oneof![3 => 0..=999u16, 1 => u16s()],
            piped_text(),
            piped_bytes(),
            text(),
        ),
    )
        .prop_map(
            |((s, ds, p, dp, sp), (dec, ddec, piped, dpiped, last))| Texts {
                s,
                ds,
                p,
                dp,
                sp,
                dec,
                ddec,
                piped,
                dpiped,
                last,
            },
        )
        .boxed()
}

fn mixed() -> BoxedStrategy<Mixed> {
    (
        (
            proptest::option::of(u16s()),
            proptest::option::of(i8s()),
            proptest::option::of(text()),
            proptest::option::of(bytes()),
            inners(),
        ),
        (
            inners(),
            timestamps(),
            timestamps_u64(),
            proptest::option::of(inners()),
            bytes(),
        ),
    )
        .prop_map(
            |((id, rank, name, alias, inner), (dinner, ts, ts2, oi, tail))| Mixed {
                id,
                rank,
                name,
                alias,
                inner,
                dinner,
                ts,
                ts2,
                oi,
                tail,
            },
        )
        .boxed()
}

fn tups() -> BoxedStrategy<Tup> {
    (text(), i64s(), proptest::option::of(any::<bool>()), bytes())
        .prop_map(|(a, b, c, d)| Tup(a, b, c, Bytes::from(d)))
        .boxed()
}

fn salteds() -> BoxedStrategy<Salted> {
    (
        text(),
        text(),
        timestamps(),
        proptest::option::of(u32s()),
        bytes(),
    )
        .prop_map(|(tenant, host, ts, seq, last)| Salted {
            tenant,
            host,
            ts,
            seq,
            last,
        })
        .boxed()
}

fn whole_salteds() -> BoxedStrategy<WholeSalted> {
    (text(), i8s(), proptest::option::of(kinds()), text())
        .prop_map(|(a, b, c, d)| WholeSalted { a, b, c, d })
        .boxed()
}

fn bucketeds() -> BoxedStrategy<Bucketed> {
    (u32s(), padded_text(4, '\0'), u16s())
        .prop_map(|(slot, name, at)| Bucketed { slot, name, at })
        .boxed()
}

fn mod_wholes() -> BoxedStrategy<ModWhole> {
    u64s().prop_map(|id| ModWhole { id }).boxed()
}

fn scrambleds() -> BoxedStrategy<Scrambled> {
    (
        (
            text(),
            u64s(),
            prop_oneof![4 => 0..=99_999_999_999u64, 1 => u64s()],
            i32s(),
            any::<[u8; 3]>(),
        ),
        (i64s(), f64s(), any::<bool>(), i16s(), bytes()),
    )
        .prop_map(
            |((user, id, phone, n, arr), (j, jf, jb, h, last))| Scrambled {
                user,
                id,
                phone,
                n,
                arr,
                j,
                jf,
                jb,
                h,
                last: Bytes::from(last),
            },
        )
        .boxed()
}

fn rev_paddeds() -> BoxedStrategy<RevPadded> {
    let name = prop_oneof![
        6 => text().prop_map(|s| {
            let mut s = fit(s, 6, '\0');
            while s.starts_with('\0') {
                s.remove(0);
            }
            s
        }),
        1 => text(),
    ];
    let code = prop_oneof![
        6 => bytes().prop_map(|b| {
            let mut b = fit_bytes(b, 5, b'.');
            while b.first() == Some(&b'.') {
                b.remove(0);
            }
            b
        }),
        1 => bytes(),
    ];
    (u8s(), name, code)
        .prop_map(|(id, name, code)| RevPadded { id, name, code })
        .boxed()
}

fn decimals() -> BoxedStrategy<Decimals> {
    let big = prop_oneof![
        1 => Just(u128::MAX),
        1 => Just(10u128.pow(38)),
        1 => Just(0u128),
        3 => u128s(),
    ];
    let d = prop_oneof![4 => 0..=99u8, 1 => u8s()];
    (
        big,
        d,
        text(),
        padded_bytes(4, 0),
        text(),
        proptest::option::of(text()),
    )
        .prop_map(|(big, d, bx, by, dbx, last)| Decimals {
            big,
            d,
            bx: bx.into(),
            by: Bytes::from(by),
            dbx: dbx.into(),
            last: last.map(Into::into),
        })
        .boxed()
}

fn hash_salteds() -> BoxedStrategy<HashSalted> {
    (
        (text(), u16s(), chars(), any::<[u8; 4]>()),
        (
            u64s(),
            prop_oneof![4 => 0..=999u16, 1 => u16s()],
            proptest::option::of(text()),
        ),
    )
        .prop_map(|((user, n, ch, key), (r, dr, last))| HashSalted {
            user,
            n,
            ch,
            key,
            r,
            dr,
            last,
        })
        .boxed()
}

fn java_keys() -> BoxedStrategy<JavaKey> {
    (
        i16s(),
        f32s(),
        any::<bool>(),
        i64s(),
        proptest::option::of(i32s()),
        text(),
        u128s(),
    )
        .prop_map(|(a, f, b, c, o, s, u)| JavaKey {
            a,
            f,
            b,
            c,
            o,
            s,
            u,
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// per-layout expectations: equality (floats by bits), encode validity, field order

/// Keys the properties run on.
trait Case: RowKey + DecodeRowKeyOwned + Clone + Debug {
    /// Equality, floats compared by bits.
    fn same(&self, other: &Self) -> bool;
    /// The first field (in key order) that cannot be encoded, if any: `Some("")` for a whole-key
    /// error (`max_len`).
    fn invalid_field(&self) -> Option<&'static str>;
}

/// Keys with an order property: the expected order of two keys, field by field.
trait Ordered: Case {
    /// Salt bytes at the front of the key.
    const SALT: usize = 0;
    /// Whether the value meets the order preconditions of its encodings (custom separator and
    /// custom fill: content bytes above/at the separator/fill).
    fn order_ok(&self) -> bool {
        true
    }
    fn expected_cmp(&self, other: &Self) -> Ordering;
}

fn pad_ok(c: &[u8], n: usize, fill: u8) -> bool {
    c.len() <= n && c.last() != Some(&fill)
}

fn rev_pad_ok(c: &[u8], n: usize, fill: u8) -> bool {
    pad_ok(c, n, fill) && c.first() != Some(&fill)
}

fn first_bad(checks: &[(&'static str, bool)]) -> Option<&'static str> {
    checks.iter().find(|(_, ok)| !ok).map(|(f, _)| *f)
}

fn inner_cmp(a: &Inner, b: &Inner) -> Ordering {
    a.host
        .cmp(&b.host)
        .then_with(|| a.port.cmp(&b.port).reverse())
}

fn opt_inner_cmp(a: &Option<Inner>, b: &Option<Inner>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => inner_cmp(a, b),
    }
}

impl Case for Scalars {
    fn same(&self, o: &Self) -> bool {
        (
            self.u, self.i, self.flag, self.c, self.arr, self.kind, self.code, self.temp, self.big,
            self.small,
        ) == (
            o.u, o.i, o.flag, o.c, o.arr, o.kind, o.code, o.temp, o.big, o.small,
        ) && self.f.to_bits() == o.f.to_bits()
            && self.g.to_bits() == o.g.to_bits()
    }
    fn invalid_field(&self) -> Option<&'static str> {
        None
    }
}

impl Ordered for Scalars {
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.u
            .cmp(&o.u)
            .then_with(|| self.i.cmp(&o.i).reverse())
            .then_with(|| self.flag.cmp(&o.flag))
            .then_with(|| self.c.cmp(&o.c).reverse())
            .then_with(|| self.f.total_cmp(&o.f))
            .then_with(|| self.g.total_cmp(&o.g).reverse())
            .then_with(|| self.arr.cmp(&o.arr))
            .then_with(|| self.kind.cmp(&o.kind))
            .then_with(|| self.code.cmp(&o.code).reverse())
            .then_with(|| self.temp.cmp(&o.temp))
            .then_with(|| self.big.cmp(&o.big))
            .then_with(|| self.small.cmp(&o.small).reverse())
    }
}

impl Case for Texts {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[
            ("p", pad_ok(self.p.as_bytes(), 4, 0)),
            ("dp", pad_ok(&self.dp, 3, 0)),
            ("sp", pad_ok(self.sp.as_bytes(), 5, b' ')),
            ("dec", self.dec < 1_000_000),
            ("ddec", self.ddec < 1000),
            ("piped", !self.piped.contains('|')),
            ("dpiped", !self.dpiped.contains(&b'|')),
        ])
    }
}

impl Ordered for Texts {
    fn order_ok(&self) -> bool {
        self.sp.bytes().all(|b| b >= b' ')
            && self.piped.bytes().all(|b| b > b'|')
            && self.dpiped.iter().all(|&b| b > b'|')
    }
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.s
            .cmp(&o.s)
            .then_with(|| self.ds.cmp(&o.ds).reverse())
            .then_with(|| self.p.cmp(&o.p))
            .then_with(|| self.dp.cmp(&o.dp).reverse())
            .then_with(|| self.sp.cmp(&o.sp))
            .then_with(|| self.dec.cmp(&o.dec))
            .then_with(|| self.ddec.cmp(&o.ddec).reverse())
            .then_with(|| self.piped.cmp(&o.piped))
            .then_with(|| self.dpiped.cmp(&o.dpiped).reverse())
            .then_with(|| self.last.cmp(&o.last).reverse())
    }
}

impl Case for Mixed {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[
            ("ts", self.ts >= 0),
            ("ts2", i64::try_from(self.ts2).is_ok()),
        ])
    }
}

impl Ordered for Mixed {
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.id
            .cmp(&o.id)
            .then_with(|| self.rank.cmp(&o.rank).reverse())
            .then_with(|| self.name.cmp(&o.name))
            .then_with(|| self.alias.cmp(&o.alias).reverse())
            .then_with(|| inner_cmp(&self.inner, &o.inner))
            .then_with(|| inner_cmp(&self.dinner, &o.dinner).reverse())
            .then_with(|| self.ts.cmp(&o.ts).reverse())
            .then_with(|| self.ts2.cmp(&o.ts2).reverse())
            .then_with(|| opt_inner_cmp(&self.oi, &o.oi))
            .then_with(|| self.tail.cmp(&o.tail))
    }
}

impl Case for Tup {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        None
    }
}

impl Ordered for Tup {
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.0
            .cmp(&o.0)
            .then_with(|| self.1.cmp(&o.1).reverse())
            .then_with(|| self.2.cmp(&o.2))
            .then_with(|| self.3.cmp(&o.3))
    }
}

impl Case for Salted {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[("ts", self.ts >= 0)])
    }
}

impl Ordered for Salted {
    const SALT: usize = 1;
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.tenant
            .cmp(&o.tenant)
            .then_with(|| self.host.cmp(&o.host).reverse())
            .then_with(|| self.ts.cmp(&o.ts).reverse())
            .then_with(|| self.seq.cmp(&o.seq))
            .then_with(|| self.last.cmp(&o.last).reverse())
    }
}

impl Case for WholeSalted {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[("", self.encoded_len() <= 24)])
    }
}

impl Ordered for WholeSalted {
    const SALT: usize = 2;
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.a
            .cmp(&o.a)
            .then_with(|| self.b.cmp(&o.b))
            .then_with(|| self.c.cmp(&o.c).reverse())
            .then_with(|| self.d.cmp(&o.d))
    }
}

impl Case for Bucketed {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[("name", pad_ok(self.name.as_bytes(), 4, 0))])
    }
}

impl Ordered for Bucketed {
    const SALT: usize = 1;
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.slot
            .cmp(&o.slot)
            .reverse()
            .then_with(|| self.name.cmp(&o.name))
            .then_with(|| self.at.cmp(&o.at))
    }
}

impl Case for Inner {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        None
    }
}

impl Case for ModWhole {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        None
    }
}

impl Ordered for ModWhole {
    const SALT: usize = 2;
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.id.cmp(&o.id)
    }
}

impl Case for Scrambled {
    fn same(&self, o: &Self) -> bool {
        (
            &self.user, self.id, self.phone, self.n, self.arr, self.j, self.jb, self.h, &self.last,
        ) == (&o.user, o.id, o.phone, o.n, o.arr, o.j, o.jb, o.h, &o.last)
            && self.jf.to_bits() == o.jf.to_bits()
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[("phone", self.phone < 100_000_000_000)])
    }
}

impl Case for RevPadded {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[
            ("name", rev_pad_ok(self.name.as_bytes(), 6, 0)),
            ("code", rev_pad_ok(&self.code, 5, b'.')),
        ])
    }
}

impl Case for Decimals {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[("d", self.d < 100), ("by", pad_ok(&self.by, 4, 0))])
    }
}

impl Ordered for Decimals {
    fn expected_cmp(&self, o: &Self) -> Ordering {
        self.big
            .cmp(&o.big)
            .then_with(|| self.d.cmp(&o.d).reverse())
            .then_with(|| self.bx.cmp(&o.bx))
            .then_with(|| self.by.cmp(&o.by).reverse())
            .then_with(|| self.dbx.cmp(&o.dbx).reverse())
            .then_with(|| self.last.cmp(&o.last))
    }
}

impl Case for HashSalted {
    fn same(&self, o: &Self) -> bool {
        self == o
    }
    fn invalid_field(&self) -> Option<&'static str> {
        first_bad(&[("dr", self.dr < 1000)])
    }
}

impl Case for JavaKey {
    fn same(&self, o: &Self) -> bool {
        (self.a, self.b, self.c, self.o, &self.s, self.u) == (o.a, o.b, o.c, o.o, &o.s, o.u)
            && self.f.to_bits() == o.f.to_bits()
    }
    fn invalid_field(&self) -> Option<&'static str> {
        None
    }
}

// ---------------------------------------------------------------------------------------------
// the properties, generic over the layout

/// (a) Encodes and decodes back, or fails to encode naming the expected field.
fn roundtrip<K: Case>(k: &K) -> Result<(), TestCaseError> {
    let len = k.encoded_len();
    match (k.to_row_key(), k.invalid_field()) {
        (Ok(bytes), None) => {
            prop_assert_eq!(bytes.len(), len, "encoded_len of {:?}", k);
            let mut v = Vec::new();
            k.encode_into(&mut v).unwrap();
            prop_assert_eq!(&v[..], &bytes[..]);
            match K::from_row_key(&bytes) {
                Ok(back) => prop_assert!(
                    back.same(k),
                    "round trip of {:?} gave {:?} (bytes {:02X?})",
                    k,
                    back,
                    &bytes[..]
                ),
                Err(e) => {
                    return Err(TestCaseError::fail(format!(
                        "{k:?} encodes to {:02X?} which does not decode: {e}",
                        &bytes[..]
                    )))
                }
            }
            let _ = K::describe(&bytes);
        }
        (Ok(bytes), Some(field)) => {
            return Err(TestCaseError::fail(format!(
                "{k:?} encodes to {:02X?}, expected an error for field `{field}`",
                &bytes[..]
            )))
        }
        (Err(e), Some(field)) => {
            prop_assert_eq!(e.field(), field, "error {} for {:?}", e, k);
            let name_ok = if field.is_empty() {
                e.to_string().starts_with("cannot encode key `")
            } else {
                e.to_string()
                    .starts_with(&format!("cannot encode field `{field}`: "))
            };
            prop_assert!(name_ok, "message {} for {:?}", e, k);
            if field.is_empty() {
                let too_long =
                    matches!(e.kind(), EncodeErrorKind::KeyTooLong { len: l, .. } if *l == len);
                prop_assert!(too_long, "kind {:?} for {:?}", e.kind(), k);
            }
        }
        (Err(e), None) => return Err(TestCaseError::fail(format!("{k:?} must encode, got {e}"))),
    }
    Ok(())
}

/// (b) memcmp order equals the field order.
fn order<K: Ordered>(a: &K, b: &K) -> Result<(), TestCaseError> {
    if !a.order_ok() || !b.order_ok() {
        return Ok(());
    }
    let (Ok(ea), Ok(eb)) = (a.to_row_key(), b.to_row_key()) else {
        return Ok(());
    };
    let want = a.expected_cmp(b);
    prop_assert_eq!(
        want,
        b.expected_cmp(a).reverse(),
        "comparator is antisymmetric"
    );
    let s = K::SALT;
    prop_assert_eq!(
        ea[s..].cmp(&eb[s..]),
        want,
        "order after the salt of\n  {:?} = {:02X?}\n  {:?} = {:02X?}",
        a,
        &ea[..],
        b,
        &eb[..]
    );
    if ea[..s] == eb[..s] {
        prop_assert_eq!(ea.cmp(&eb), want);
    }
    if want == Ordering::Equal {
        prop_assert_eq!(&ea[..], &eb[..]);
    }
    Ok(())
}

/// (c) Decoding never panics; a successful decode re-encodes to the same bytes.
fn canonical<K: Case>(bytes: &[u8]) -> Result<(), TestCaseError> {
    let res = K::from_row_key(bytes);
    let _ = K::describe(bytes);
    if let Ok(k) = res {
        match k.to_row_key() {
            Ok(re) => prop_assert_eq!(
                &re[..],
                bytes,
                "{:02X?} decodes to {:?}, which encodes differently",
                bytes,
                k
            ),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "{bytes:02X?} decodes to {k:?}, which does not encode: {e}"
                )))
            }
        }
    }
    Ok(())
}

/// Regression: a key longer than `#[rowkey(max_len = N)]` cannot come from `to_row_key`, so
/// decode rejects it (found by `decode_mutated_whole_salted` with `PROPTEST_RNG_SEED=11
/// PROPTEST_CASES=20000`: an extension of the last field whose salt happened to match).
#[test]
fn decode_rejects_keys_over_max_len() {
    // WholeSalted: 2 salt bytes + "aaaaaaaaaaaaaaaa\0" (17) + b (1) + c (1) + "dddd" = 25 > 24
    let mut body = b"aaaaaaaaaaaaaaaa\x00".to_vec();
    body.push(0x80); // b = 0
    body.push(0xFF); // c = None (desc)
    body.extend(b"dddd");
    let salt = rowkey::salt::PhoenixHash::of(&body).bucket(300) as u16;
    let mut key = salt.to_be_bytes().to_vec();
    key.extend(&body);
    assert_eq!(key.len(), 25);
    match WholeSalted::from_row_key(&key) {
        Ok(k) => panic!(
            "{key:02X?} ({} bytes, max_len 24) decodes to {k:?}, which encodes to {:?}",
            key.len(),
            k.to_row_key()
        ),
        Err(e) => {
            assert_eq!((e.field(), e.offset()), ("", 24));
            assert_eq!(
                e.kind(),
                &DecodeErrorKind::KeyTooLong {
                    len: 25,
                    max_len: 24
                }
            );
        }
    }
}

/// A mutation of a valid encoding.
#[derive(Debug, Clone)]
enum Mutation {
    Truncate(Index),
    Extend(Vec<u8>),
    FlipBit(Index, u8),
    SetByte(Index, u8),
    Delete(Index),
    Insert(Index, u8),
}

fn mutations() -> BoxedStrategy<Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Truncate),
        vec(adv_byte(), 1..4).prop_map(Mutation::Extend),
        (any::<Index>(), 0..8u8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (any::<Index>(), adv_byte()).prop_map(|(i, b)| Mutation::SetByte(i, b)),
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), adv_byte()).prop_map(|(i, b)| Mutation::Insert(i, b)),
    ]
    .boxed()
}

fn mutate(bytes: &[u8], m: &Mutation) -> Vec<u8> {
    let mut v = bytes.to_vec();
    match m {
        Mutation::Truncate(i) => v.truncate(i.index(v.len() + 1)),
        Mutation::Extend(e) => v.extend(e),
        Mutation::FlipBit(i, b) if !v.is_empty() => {
            let at = i.index(v.len());
            v[at] ^= 1 << b;
        }
        Mutation::SetByte(i, b) if !v.is_empty() => {
            let at = i.index(v.len());
            v[at] = *b;
        }
        Mutation::Delete(i) if !v.is_empty() => {
            v.remove(i.index(v.len()));
        }
        Mutation::Insert(i, b) => v.insert(i.index(v.len() + 1), *b),
        _ => {}
    }
    v
}

fn mutated<K: Case>(k: &K, m: &Mutation) -> Result<(), TestCaseError> {
    if let Ok(bytes) = k.to_row_key() {
        canonical::<K>(&mutate(&bytes, m))?;
    }
    Ok(())
}

/// Pairs for the order property: `b` is `a` with some fields taken from another value, so that
/// keys often share a prefix of equal fields.
macro_rules! mix {
    ($ty:ident, $a:expr, $b:expr, $bits:expr; $($f:tt),* $(,)?) => {{
        let (a, b, bits): (&$ty, &$ty, u32) = (&$a, &$b, $bits);
        let mut i = 0u32;
        $ty {
            $($f: {
                i += 1;
                if bits >> (i - 1) & 1 == 1 { b.$f.clone() } else { a.$f.clone() }
            }),*
        }
    }};
}

/// Which fields of a key with `n` fields `b` takes from the other value: mostly one or two.
fn bits(n: u32) -> BoxedStrategy<u32> {
    prop_oneof![
        2 => (0..n).prop_map(|k| 1 << k),
        1 => (0..n, 0..n).prop_map(|(j, k)| (1 << j) | (1 << k)),
        1 => any::<u32>(),
    ]
    .boxed()
}

/// Random bytes for (c), biased towards the bytes the encodings give meaning to.
fn raw_bytes() -> BoxedStrategy<Vec<u8>> {
    vec(
        prop_oneof![
            4 => any::<u8>(),
            1 => Just(0u8),
            1 => Just(1u8),
            1 => Just(0xFFu8),
            1 => Just(0xFEu8),
            1 => Just(b'|'),
            1 => Just(b'0'),
            1 => Just(b'a'),
        ],
        0..=64,
    )
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// (a) round trip

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn roundtrip_scalars(k in scalars()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_texts(k in texts()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_mixed(k in mixed()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_tuple(k in tups()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_salted(k in salteds()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_whole_salted(k in whole_salteds()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_modulo(k in bucketeds(), w in mod_wholes()) {
        roundtrip(&k)?;
        let b = k.to_row_key();
        if let Ok(b) = b {
            prop_assert_eq!(u32::from(b[0]), k.slot % 7);
        }
        roundtrip(&w)?;
        let b = w.to_row_key().unwrap();
        prop_assert_eq!(u64::from(u16::from_be_bytes([b[0], b[1]])), w.id % 1000);
    }

    #[test]
    fn roundtrip_scrambled(k in scrambleds()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_reverse_padded(k in rev_paddeds()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_decimals(k in decimals()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_hash_salted(k in hash_salteds()) {
        roundtrip(&k)?;
        if let Ok(b) = k.to_row_key() {
            // the salt hashes the salted prefix: hash prefix, user, desc n
            let escapes = k.user.bytes().filter(|&b| b <= 1).count();
            let prefix = 1 + 2 + k.user.len() + escapes + 1 + 2;
            prop_assert_eq!(
                u32::from(b[0]),
                rowkey::salt::PhoenixHash::of(&b[1..prefix]).bucket(32)
            );
        }
    }

    #[test]
    fn roundtrip_java(k in java_keys()) {
        roundtrip(&k)?;
    }

    #[test]
    fn roundtrip_borrowed(name in text(), tag in u8s(), raw in bytes()) {
        let k = Borrowed { name: &name, tag, raw: &raw };
        let bytes = k.to_row_key().unwrap();
        prop_assert_eq!(bytes.len(), k.encoded_len());
        match Borrowed::from_row_key(&bytes) {
            Ok(back) => {
                prop_assert!(!name.bytes().any(|b| b <= 1));
                prop_assert_eq!(back, k);
            }
            Err(e) => {
                // escaped content cannot be borrowed
                prop_assert!(name.bytes().any(|b| b <= 1), "{}", e);
                prop_assert_eq!(e.kind(), &DecodeErrorKind::NeedsOwned);
                prop_assert_eq!((e.field(), e.offset()), ("name", 0));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (b) order preservation

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn order_scalars(a in scalars(), b in scalars(), bits in bits(12)) {
        let b = mix!(Scalars, a, b, bits; u, i, flag, c, f, g, arr, kind, code, temp, big, small);
        order(&a, &b)?;
    }

    #[test]
    fn order_texts(a in texts(), b in texts(), bits in bits(10)) {
        let b = mix!(Texts, a, b, bits; s, ds, p, dp, sp, dec, ddec, piped, dpiped, last);
        order(&a, &b)?;
    }

    #[test]
    fn order_mixed(a in mixed(), b in mixed(), bits in bits(10)) {
        let b = mix!(Mixed, a, b, bits; id, rank, name, alias, inner, dinner, ts, ts2, oi, tail);
        order(&a, &b)?;
    }

    #[test]
    fn order_tuple(a in tups(), b in tups(), bits in bits(4)) {
        let b = mix!(Tup, a, b, bits; 0, 1, 2, 3);
        order(&a, &b)?;
    }

    #[test]
    fn order_salted(a in salteds(), b in salteds(), bits in bits(5)) {
        let b = mix!(Salted, a, b, bits; tenant, host, ts, seq, last);
        order(&a, &b)?;
    }

    #[test]
    fn order_whole_salted(a in whole_salteds(), b in whole_salteds(), bits in bits(4)) {
        let b = mix!(WholeSalted, a, b, bits; a, b, c, d);
        order(&a, &b)?;
    }

    #[test]
    fn order_decimals(a in decimals(), b in decimals(), bits in bits(6)) {
        let b = mix!(Decimals, a, b, bits; big, d, bx, by, dbx, last);
        order(&a, &b)?;
    }

    #[test]
    fn order_modulo(a in bucketeds(), b in bucketeds(), bits in bits(3), x in mod_wholes(), y in mod_wholes()) {
        let b = mix!(Bucketed, a, b, bits; slot, name, at);
        order(&a, &b)?;
        order(&x, &y)?;
    }
}

// ---------------------------------------------------------------------------------------------
// (c) decode of arbitrary and mutated bytes

proptest! {
    #![proptest_config(config(CASES * 2))]

    #[test]
    fn decode_random_bytes(bytes in raw_bytes()) {
        canonical::<Scalars>(&bytes)?;
        canonical::<Texts>(&bytes)?;
        canonical::<Mixed>(&bytes)?;
        canonical::<Tup>(&bytes)?;
        canonical::<Salted>(&bytes)?;
        canonical::<WholeSalted>(&bytes)?;
        canonical::<Bucketed>(&bytes)?;
        canonical::<ModWhole>(&bytes)?;
        canonical::<Scrambled>(&bytes)?;
        canonical::<JavaKey>(&bytes)?;
        canonical::<Decimals>(&bytes)?;
        canonical::<HashSalted>(&bytes)?;
        canonical::<Inner>(&bytes)?;
        let _ = Borrowed::from_row_key(&bytes);
        let _ = Borrowed::describe(&bytes);
    }
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn decode_mutated_scalars(k in scalars(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_texts(k in texts(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_mixed(k in mixed(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_tuple(k in tups(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_salted(k in salteds(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_whole_salted(k in whole_salteds(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_modulo(k in bucketeds(), w in mod_wholes(), m in mutations()) {
        mutated(&k, &m)?;
        mutated(&w, &m)?;
    }

    #[test]
    fn decode_mutated_scrambled(k in scrambleds(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_decimals(k in decimals(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_hash_salted(k in hash_salteds(), m in mutations()) {
        mutated(&k, &m)?;
    }

    #[test]
    fn decode_mutated_java(k in java_keys(), m in mutations()) {
        mutated(&k, &m)?;
    }
}

proptest! {
    #![proptest_config(config(CASES))]

    /// `#[reverse] #[pad]`: a stored leading fill byte (no value encodes to it) is rejected.
    #[test]
    fn decode_mutated_reverse_padded(k in rev_paddeds(), m in mutations()) {
        mutated(&k, &m)?;
    }
}

/// Regression: non-canonical `#[reverse] #[pad]` inputs once decoded to values that cannot be
/// encoded; they are rejected as `NonCanonical`.
#[test]
fn reverse_padded_leading_fill_is_rejected() {
    for bytes in [
        &b"\x01\x00ab\x00\x00\x00\xD1\xD1\xD1\xD1\xD1"[..], // name: "\0ab" reversed -> "ba\0"
        &b"\x01ab\x00\x00\x00\x00\xD1\xD1\xD1\x9D\xD1"[..], // code: leading '.' (desc: 0xD1)
    ] {
        match RevPadded::from_row_key(bytes) {
            Ok(k) => panic!(
                "{bytes:02X?} decodes to {k:?}, which encodes to {:?}",
                k.to_row_key()
            ),
            Err(e) => assert!(matches!(e.kind(), DecodeErrorKind::NonCanonical(_)), "{e}"),
        }
    }
}
