// Shared by tests/hbase/phoenix_types.rs (live Phoenix) and tests/hbase/phoenix_golden.rs (no server),
// which `include!` it: the test tables, seeded value generators, SQL literals, Phoenix's value
// order, and the `SELECT` output format.

use std::cmp::Ordering;

use rowkey::phoenix::bigdecimal::num_bigint::BigInt;
use rowkey::phoenix::bigdecimal::BigDecimal;
use rowkey::phoenix::chrono::{DateTime, Utc};
use rowkey::phoenix::{Char, Column, Date, KeyReader, KeyWriter, Time, Timestamp};
use rowkey::{DecodeError, EncodeError};

/// Rows upserted per table (some replace earlier ones: equal keys).
const ROWS: usize = 520;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    TinyInt,
    SmallInt,
    Integer,
    BigInt,
    UTinyInt,
    USmallInt,
    UInt,
    ULong,
    Float,
    Double,
    Boolean,
    Varchar,
    /// `Option<String>`
    NVarchar,
    Char4,
    Binary3,
    /// `Option<Vec<u8>>`, last only
    NVarbinary,
    Decimal,
    /// `Option<BigDecimal>`
    NDecimal,
    Date,
    Time,
    Timestamp,
    /// `chrono::DateTime<Utc>` as `TIMESTAMP`
    Chrono,
}

#[derive(Clone, Debug)]
enum V {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool),
    Str(String),
    NStr(Option<String>),
    Char(Char<4>),
    Bin([u8; 3]),
    NBytes(Option<Vec<u8>>),
    Dec(BigDecimal),
    NDec(Option<BigDecimal>),
    Date(Date),
    Time(Time),
    Ts(Timestamp),
    Chrono(DateTime<Utc>),
}

struct Table {
    name: &'static str,
    salt: Option<u32>,
    cols: Vec<(&'static str, Kind, bool)>,
}

fn tables() -> Vec<Table> {
    use Kind::*;
    let t = |name, salt, cols| Table { name, salt, cols };
    vec![
        t(
            "RKT_INTS",
            None,
            vec![
                ("a", TinyInt, false),
                ("b", SmallInt, true),
                ("c", Integer, false),
                ("d", BigInt, true),
                ("e", Varchar, false),
            ],
        ),
        t(
            "RKT_INTS_SALTED",
            Some(8),
            vec![
                ("a", TinyInt, true),
                ("b", SmallInt, false),
                ("c", Integer, true),
                ("d", BigInt, false),
                ("e", NVarchar, true),
            ],
        ),
        t(
            "RKT_UNSIGNED",
            None,
            vec![
                ("a", UTinyInt, false),
                ("b", USmallInt, true),
                ("c", UInt, false),
                ("d", ULong, true),
            ],
        ),
        t(
            "RKT_UNSIGNED_SALTED",
            Some(4),
            vec![
                ("a", UTinyInt, true),
                ("b", USmallInt, false),
                ("c", UInt, true),
                ("d", ULong, false),
            ],
        ),
        t(
            "RKT_FLOATS",
            None,
            vec![
                ("a", Boolean, false),
                ("b", Double, false),
                ("c", Float, true),
                ("d", NVarchar, true),
                ("e", Double, true),
            ],
        ),
        t(
            "RKT_FLOATS_SALTED",
            Some(16),
            vec![
                ("a", Boolean, true),
                ("b", Float, false),
                ("c", Double, true),
                ("d", NVarchar, false),
                ("e", Float, true),
            ],
        ),
        t(
            "RKT_TEXT",
            None,
            vec![
                ("a", Varchar, false),
                ("b", Char4, true),
                ("c", Binary3, false),
                ("d", NVarchar, true),
                ("e", NVarchar, false),
            ],
        ),
        t(
            "RKT_TEXT_SALTED",
            Some(3),
            vec![
                ("a", Char4, false),
                ("b", Varchar, true),
                ("c", Binary3, true),
                ("d", NVarchar, false),
                ("e", NVarbinary, false),
            ],
        ),
        t(
            "RKT_DECIMAL",
            None,
            vec![
                ("a", Decimal, false),
                ("b", NDecimal, true),
                ("c", Integer, false),
                ("d", NDecimal, false),
            ],
        ),
        t(
            "RKT_DECIMAL_SALTED",
            Some(5),
            vec![
                ("a", Decimal, true),
                ("b", NVarchar, false),
                ("c", NDecimal, true),
            ],
        ),
        t(
            "RKT_TIME",
            None,
            vec![
                ("a", Date, false),
                ("b", Time, true),
                ("c", Timestamp, false),
                ("d", Chrono, true),
                ("e", NVarbinary, false),
            ],
        ),
        t(
            "RKT_TIME_SALTED",
            Some(6),
            vec![
                ("a", Timestamp, true),
                ("b", Date, true),
                ("c", Time, false),
                ("d", Chrono, false),
            ],
        ),
    ]
}

/// SplitMix64: a seeded, dependency-free generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize].clone()
    }
}

/// An integer: an extreme, a small value (ties, so later columns decide the order) or any.
fn int(rng: &mut Rng, min: i128, max: i128) -> i128 {
    match rng.below(10) {
        0..=2 => rng
            .pick(&[min, max, 0, -1, 1, min + 1, max - 1])
            .clamp(min, max),
        3..=5 => (rng.below(7) as i128 - 3).clamp(min, max),
        _ => min + (rng.next() as i128).rem_euclid(max - min + 1),
    }
}

fn text(rng: &mut Rng, pool: &mut Vec<String>) -> String {
    const CHARS: &[char] = &[
        'a',
        'b',
        'z',
        'A',
        '0',
        ' ',
        '\u{1}',
        '\u{7f}',
        '\t',
        '\n',
        'é',
        'ß',
        'Ω',
        '中',
        '\u{FFFF}',
        '\u{10FFFF}',
        '😀',
        '\'',
        '-',
        ';',
        '"',
        '\\',
    ];
    let s = match rng.below(10) {
        // a value seen before: ties
        0..=1 if !pool.is_empty() => rng.pick(pool),
        // a prefix of one seen before, or one extended
        2..=4 if !pool.is_empty() => {
            let mut s: Vec<char> = rng.pick(pool).chars().collect();
            if rng.chance(50) && s.len() > 1 {
                s.truncate(1 + rng.below(s.len() as u64 - 1) as usize);
            } else {
                s.push(rng.pick(CHARS));
            }
            s.into_iter().collect()
        }
        _ => {
            let n = 1 + rng.below(6) as usize;
            (0..n)
                .map(|_| {
                    if rng.chance(15) {
                        // any scalar value but NUL (the separator: refused when not last)
                        char::from_u32(1 + rng.below(0x10FFFF) as u32).unwrap_or('x')
                    } else {
                        rng.pick(CHARS)
                    }
                })
                .collect()
        }
    };
    pool.push(s.clone());
    s
}

fn bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| match rng.below(4) {
            0 => 0x00,
            1 => 0xFF,
            _ => rng.next() as u8,
        })
        .collect()
}

fn f64_value(rng: &mut Rng) -> f64 {
    match rng.below(12) {
        0 => rng.pick(&[
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
        ]),
        1..=3 => rng.below(7) as f64 - 3.0,
        4..=5 => (rng.next() as i64 as f64) / 1e6,
        _ => {
            let v = f64::from_bits(rng.next());
            if v.is_nan() {
                1.5
            } else {
                v
            }
        }
    }
}

fn f32_value(rng: &mut Rng) -> f32 {
    match rng.below(12) {
        0 => rng.pick(&[
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            -f32::MAX,
            f32::MIN_POSITIVE,
            1e-45,
        ]),
        1..=3 => rng.below(7) as f32 - 3.0,
        _ => {
            let v = f32::from_bits(rng.next() as u32);
            if v.is_nan() {
                -2.5
            } else {
                v
            }
        }
    }
}

fn decimal(rng: &mut Rng) -> BigDecimal {
    let max38 = 10i128.pow(38) - 1;
    let (unscaled, scale) = match rng.below(10) {
        0 => rng.pick(&[
            (0, 0),
            (1, -100),
            (-1, 100),
            (max38, 0),
            (-max38, 1), // 38 digits, negative, odd scale: no terminator byte
            (-max38, 37),
            (max38, -50),
            (5, 1),
            (-5, 1),
            // Phoenix's exponent byte wraps from 1E+126 to below 1E+130: stored next to zero
            (1, -126),
            (-1, -127),
            (55, -126),
            (max38, -92),
            (-max38, -92),
        ]),
        1..=3 => (rng.below(7) as i128 - 3, rng.below(3) as i64 - 1),
        4..=6 => (
            (rng.next() as i64) as i128 / (1 << rng.below(60)),
            rng.below(21) as i64 - 10,
        ),
        _ => (
            (((rng.next() as u128) << 64 | rng.next() as u128) % (max38 as u128)) as i128
                * if rng.chance(50) { -1 } else { 1 },
            rng.below(61) as i64 - 30,
        ),
    };
    BigDecimal::new(BigInt::from(unscaled), scale)
}

fn millis(rng: &mut Rng) -> i64 {
    int(rng, i64::MIN as i128, i64::MAX as i128) as i64
}

fn timestamp(rng: &mut Rng) -> Timestamp {
    let millis = if rng.chance(60) {
        1_700_000_000_000 + rng.below(1000) as i64 - 500
    } else {
        millis(rng)
    };
    // Phoenix SQL writes sub-millisecond nanoseconds only for times from 1970 on
    let nanos = if millis >= 0 && rng.chance(70) {
        let any = rng.below(1_000_000) as u32;
        rng.pick(&[1, 999_999, any])
    } else {
        0
    };
    Timestamp { millis, nanos }
}

fn value(kind: Kind, rng: &mut Rng, pool: &mut Vec<String>) -> V {
    match kind {
        Kind::TinyInt => V::I8(int(rng, i8::MIN.into(), i8::MAX.into()) as i8),
        Kind::SmallInt => V::I16(int(rng, i16::MIN.into(), i16::MAX.into()) as i16),
        Kind::Integer => V::I32(int(rng, i32::MIN.into(), i32::MAX.into()) as i32),
        Kind::BigInt => V::I64(int(rng, i64::MIN.into(), i64::MAX.into()) as i64),
        Kind::UTinyInt => V::U8(int(rng, 0, i8::MAX.into()) as u8),
        Kind::USmallInt => V::U16(int(rng, 0, i16::MAX.into()) as u16),
        Kind::UInt => V::U32(int(rng, 0, i32::MAX.into()) as u32),
        Kind::ULong => V::U64(int(rng, 0, i64::MAX.into()) as u64),
        Kind::Float => V::F32(f32_value(rng)),
        Kind::Double => V::F64(f64_value(rng)),
        Kind::Boolean => V::Bool(rng.chance(50)),
        Kind::Varchar => V::Str(text(rng, pool)),
        Kind::NVarchar => V::NStr((!rng.chance(20)).then(|| text(rng, pool))),
        Kind::Char4 => {
            let n = 1 + rng.below(4) as usize;
            let mut s: String = (0..n)
                .map(|_| (0x20 + rng.below(0x5F) as u8) as char)
                .collect();
            if s.ends_with(' ') {
                s.pop();
                s.push('~');
            }
            V::Char(Char::new(s))
        }
        Kind::Binary3 => {
            let b = bytes(rng, 3);
            V::Bin([b[0], b[1], b[2]])
        }
        Kind::NVarbinary => V::NBytes((!rng.chance(20)).then(|| {
            let n = 1 + rng.below(6) as usize;
            bytes(rng, n)
        })),
        Kind::Decimal => V::Dec(decimal(rng)),
        Kind::NDecimal => V::NDec((!rng.chance(20)).then(|| decimal(rng))),
        Kind::Date => V::Date(Date(millis(rng))),
        Kind::Time => V::Time(Time(millis(rng))),
        Kind::Timestamp => V::Ts(timestamp(rng)),
        Kind::Chrono => {
            // within chrono's range: years 1 to 9999
            let ms = -62_135_596_800_000 + (rng.next() % 315_537_897_600_000) as i64;
            let ms = if rng.chance(40) {
                1_700_000_000_000 + rng.below(5) as i64
            } else {
                ms
            };
            let sub = if ms >= 0 {
                rng.below(1_000_000) as u32
            } else {
                0
            };
            let t = DateTime::from_timestamp_millis(ms).expect("in range")
                + std::time::Duration::from_nanos(u64::from(sub));
            V::Chrono(t)
        }
    }
}

fn column(kind: Kind, name: &str, desc: bool) -> Column {
    match kind {
        Kind::TinyInt => Column::of::<i8>(name, desc),
        Kind::SmallInt => Column::of::<i16>(name, desc),
        Kind::Integer => Column::of::<i32>(name, desc),
        Kind::BigInt => Column::of::<i64>(name, desc),
        Kind::UTinyInt => Column::of::<u8>(name, desc),
        Kind::USmallInt => Column::of::<u16>(name, desc),
        Kind::UInt => Column::of::<u32>(name, desc),
        Kind::ULong => Column::of::<u64>(name, desc),
        Kind::Float => Column::of::<f32>(name, desc),
        Kind::Double => Column::of::<f64>(name, desc),
        Kind::Boolean => Column::of::<bool>(name, desc),
        Kind::Varchar => Column::of::<String>(name, desc),
        Kind::NVarchar => Column::of::<Option<String>>(name, desc),
        Kind::Char4 => Column::of::<Char<4>>(name, desc),
        Kind::Binary3 => Column::of::<[u8; 3]>(name, desc),
        Kind::NVarbinary => Column::of::<Option<Vec<u8>>>(name, desc),
        Kind::Decimal => Column::of::<BigDecimal>(name, desc),
        Kind::NDecimal => Column::of::<Option<BigDecimal>>(name, desc),
        Kind::Date => Column::of::<Date>(name, desc),
        Kind::Time => Column::of::<Time>(name, desc),
        Kind::Timestamp => Column::of::<Timestamp>(name, desc),
        Kind::Chrono => Column::of::<DateTime<Utc>>(name, desc),
    }
}

fn put(w: &mut KeyWriter, name: &str, v: &V, desc: bool, last: bool) -> Result<(), EncodeError> {
    match v {
        V::I8(x) => w.field(name, x, desc, last),
        V::I16(x) => w.field(name, x, desc, last),
        V::I32(x) => w.field(name, x, desc, last),
        V::I64(x) => w.field(name, x, desc, last),
        V::U8(x) => w.field(name, x, desc, last),
        V::U16(x) => w.field(name, x, desc, last),
        V::U32(x) => w.field(name, x, desc, last),
        V::U64(x) => w.field(name, x, desc, last),
        V::F32(x) => w.field(name, x, desc, last),
        V::F64(x) => w.field(name, x, desc, last),
        V::Bool(x) => w.field(name, x, desc, last),
        V::Str(x) => w.field(name, x, desc, last),
        V::NStr(x) => w.field(name, x, desc, last),
        V::Char(x) => w.field(name, x, desc, last),
        V::Bin(x) => w.field(name, x, desc, last),
        V::NBytes(x) => w.field(name, x, desc, last),
        V::Dec(x) => w.field(name, x, desc, last),
        V::NDec(x) => w.field(name, x, desc, last),
        V::Date(x) => w.field(name, x, desc, last),
        V::Time(x) => w.field(name, x, desc, last),
        V::Ts(x) => w.field(name, x, desc, last),
        V::Chrono(x) => w.field(name, x, desc, last),
    }
    .map(|_| ())
}

fn get(
    r: &mut KeyReader<'_>,
    kind: Kind,
    name: &str,
    desc: bool,
    last: bool,
) -> Result<V, DecodeError> {
    Ok(match kind {
        Kind::TinyInt => V::I8(r.field(name, desc, last)?),
        Kind::SmallInt => V::I16(r.field(name, desc, last)?),
        Kind::Integer => V::I32(r.field(name, desc, last)?),
        Kind::BigInt => V::I64(r.field(name, desc, last)?),
        Kind::UTinyInt => V::U8(r.field(name, desc, last)?),
        Kind::USmallInt => V::U16(r.field(name, desc, last)?),
        Kind::UInt => V::U32(r.field(name, desc, last)?),
        Kind::ULong => V::U64(r.field(name, desc, last)?),
        Kind::Float => V::F32(r.field(name, desc, last)?),
        Kind::Double => V::F64(r.field(name, desc, last)?),
        Kind::Boolean => V::Bool(r.field(name, desc, last)?),
        Kind::Varchar => V::Str(r.field(name, desc, last)?),
        Kind::NVarchar => V::NStr(r.field(name, desc, last)?),
        Kind::Char4 => V::Char(r.field(name, desc, last)?),
        Kind::Binary3 => V::Bin(r.field(name, desc, last)?),
        Kind::NVarbinary => V::NBytes(r.field(name, desc, last)?),
        Kind::Decimal => V::Dec(r.field(name, desc, last)?),
        Kind::NDecimal => V::NDec(r.field(name, desc, last)?),
        Kind::Date => V::Date(r.field(name, desc, last)?),
        Kind::Time => V::Time(r.field(name, desc, last)?),
        Kind::Timestamp => V::Ts(r.field(name, desc, last)?),
        Kind::Chrono => V::Chrono(r.field(name, desc, last)?),
    })
}

/// A Phoenix string literal: `''` for a quote, and `\\` for a backslash (Phoenix's lexer reads
/// C-style escapes: `'\n'` is a newline).
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "''"))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn double_literal(v: f64) -> String {
    const ZERO: &str = "CAST(0.0 AS DOUBLE)";
    if v.is_nan() {
        format!("{ZERO}/{ZERO}")
    } else if v == f64::INFINITY {
        format!("CAST(1.0 AS DOUBLE)/{ZERO}")
    } else if v == f64::NEG_INFINITY {
        format!("CAST(-1.0 AS DOUBLE)/{ZERO}")
    } else if v == 0.0 && v.is_sign_negative() {
        format!("CAST(-1.0 AS DOUBLE)*{ZERO}")
    } else {
        // the shortest decimal that reads back as exactly this double
        format!("{v:?}")
    }
}

/// `TO_NUMBER` of the unscaled value and exponent, which Phoenix parses with Java's `new
/// BigDecimal(String)`: exact. (A number literal with an exponent is a `DOUBLE`; a plain one of
/// more than 38 digits, such as `1E+61` written out, exceeds `DECIMAL(38)` even though its
/// value has one significant digit; typed literals are only for dates.)
fn decimal_literal(d: &BigDecimal) -> String {
    let (unscaled, scale) = d.as_bigint_and_exponent();
    format!("TO_NUMBER('{unscaled}E{}')", -scale)
}

fn millis_literal(ms: i64, ty: &str) -> String {
    format!("CAST(CAST({ms} AS BIGINT) AS {ty})")
}

fn timestamp_literal(t: Timestamp) -> String {
    if t.nanos == 0 {
        format!("CAST({} AS TIMESTAMP)", millis_literal(t.millis, "DATE"))
    } else {
        assert!(t.millis >= 0, "Phoenix SQL cannot write {t:?}");
        format!("CAST({}.{:06} AS TIMESTAMP)", t.millis, t.nanos)
    }
}

fn chrono_timestamp(t: &DateTime<Utc>) -> Timestamp {
    let millis = t.timestamp_millis();
    Timestamp {
        millis,
        nanos: t.timestamp_subsec_nanos() % 1_000_000,
    }
}

fn literal(v: &V) -> String {
    match v {
        V::I8(x) => x.to_string(),
        V::I16(x) => x.to_string(),
        V::I32(x) => x.to_string(),
        V::I64(x) => x.to_string(),
        V::U8(x) => x.to_string(),
        V::U16(x) => x.to_string(),
        V::U32(x) => x.to_string(),
        V::U64(x) => x.to_string(),
        // the float's exact value as a double, which Phoenix casts without change
        V::F32(x) => format!("CAST({} AS FLOAT)", double_literal(f64::from(*x))),
        V::F64(x) => double_literal(*x),
        V::Bool(x) => x.to_string().to_uppercase(),
        V::Str(s) => quote(s),
        V::NStr(s) => s.as_deref().map_or("NULL".into(), quote),
        V::Char(c) => quote(c.as_str()),
        V::Bin(b) => format!("X'{}'", hex(b)),
        V::NBytes(b) => b
            .as_ref()
            .map_or("NULL".into(), |b| format!("X'{}'", hex(b))),
        V::Dec(d) => decimal_literal(d),
        V::NDec(d) => d.as_ref().map_or("NULL".into(), decimal_literal),
        V::Date(d) => millis_literal(d.0, "DATE"),
        V::Time(t) => millis_literal(t.0, "TIME"),
        V::Ts(t) => timestamp_literal(*t),
        V::Chrono(t) => timestamp_literal(chrono_timestamp(t)),
    }
}

/// Phoenix's value order (`ORDER BY … ASC`): numeric, `Double.compare` for floats (−0.0
/// before 0.0, NaN last), byte order for text and bytes, NULL first.
fn cmp(a: &V, b: &V) -> Ordering {
    fn opt<T>(a: &Option<T>, b: &Option<T>, f: impl Fn(&T, &T) -> Ordering) -> Ordering {
        match (a, b) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(a), Some(b)) => f(a, b),
        }
    }
    let f64c = |x: f64| if x.is_nan() { f64::NAN } else { x };
    let f32c = |x: f32| if x.is_nan() { f32::NAN } else { x };
    match (a, b) {
        (V::I8(a), V::I8(b)) => a.cmp(b),
        (V::I16(a), V::I16(b)) => a.cmp(b),
        (V::I32(a), V::I32(b)) => a.cmp(b),
        (V::I64(a), V::I64(b)) => a.cmp(b),
        (V::U8(a), V::U8(b)) => a.cmp(b),
        (V::U16(a), V::U16(b)) => a.cmp(b),
        (V::U32(a), V::U32(b)) => a.cmp(b),
        (V::U64(a), V::U64(b)) => a.cmp(b),
        (V::F32(a), V::F32(b)) => f32c(*a).total_cmp(&f32c(*b)),
        (V::F64(a), V::F64(b)) => f64c(*a).total_cmp(&f64c(*b)),
        (V::Bool(a), V::Bool(b)) => a.cmp(b),
        (V::Str(a), V::Str(b)) => a.cmp(b),
        (V::NStr(a), V::NStr(b)) => opt(a, b, |a, b| a.cmp(b)),
        (V::Char(a), V::Char(b)) => a.cmp(b),
        (V::Bin(a), V::Bin(b)) => a.cmp(b),
        (V::NBytes(a), V::NBytes(b)) => opt(a, b, |a, b| a.cmp(b)),
        (V::Dec(a), V::Dec(b)) => a.cmp(b),
        (V::NDec(a), V::NDec(b)) => opt(a, b, |a, b| a.cmp(b)),
        (V::Date(a), V::Date(b)) => a.cmp(b),
        (V::Time(a), V::Time(b)) => a.cmp(b),
        (V::Ts(a), V::Ts(b)) => a.cmp(b),
        (V::Chrono(a), V::Chrono(b)) => a.cmp(b),
        _ => panic!("compare {a:?} with {b:?}"),
    }
}

fn is_null(v: &V) -> bool {
    matches!(v, V::NStr(None) | V::NBytes(None) | V::NDec(None))
}

/// Equal values (floats by bits after NaN canonicalization: −0.0 is not 0.0).
fn same(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::F32(a), V::F32(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        (V::F64(a), V::F64(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
        _ => cmp(a, b) == Ordering::Equal,
    }
}

fn encode(t: &Table, row: &[V]) -> Result<Vec<u8>, EncodeError> {
    let mut w = KeyWriter::new(t.salt, true);
    let n = t.cols.len();
    for (i, ((name, _, desc), v)) in t.cols.iter().zip(row).enumerate() {
        put(&mut w, name, v, *desc, i + 1 == n)?;
    }
    w.finish()
}

fn decode(t: &Table, key: &[u8]) -> Result<Vec<V>, DecodeError> {
    let mut r = KeyReader::new(key, t.salt, true)?;
    let n = t.cols.len();
    let mut row = Vec::with_capacity(n);
    for (i, (name, kind, desc)) in t.cols.iter().enumerate() {
        row.push(get(&mut r, *kind, name, *desc, i + 1 == n)?);
    }
    r.finish()?;
    Ok(row)
}

/// The key Phoenix stores for `row`: `KeyWriter`'s (it writes every value the generators make,
/// a last `VARBINARY` ending with `0xFF` too: Phoenix's `UPSERT` stores it so).
fn stored_key(t: &Table, row: &[V]) -> Vec<u8> {
    encode(t, row).unwrap_or_else(|e| panic!("{}: the writer refused {row:?}: {e}", t.name))
}

/// Whether Phoenix's `SELECT` reads `row` back other than stored: a last `VARBINARY` ending
/// with `0xFF` comes back without that byte (`RowKeyValueAccessor`).
fn select_misreads(row: &[V]) -> bool {
    matches!(row.last(), Some(V::NBytes(Some(b))) if b.last() == Some(&0xFF))
}

/// `ORDER BY` the primary key, in the key's order: DESC columns descending, NULLs first.
fn order_by(t: &Table) -> String {
    t.cols
        .iter()
        .map(|(n, k, d)| {
            let nullable = matches!(k, Kind::NVarchar | Kind::NVarbinary | Kind::NDecimal);
            format!(
                "{n}{}{}",
                if *d { " DESC" } else { "" },
                if nullable { " NULLS FIRST" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// DECIMALs in the order of their bytes: the value order, except that Phoenix's exponent byte
/// wraps from `1E+126` on and puts `v ≤ -1E+126` just below zero and `v ≥ 1E+126` just above
/// it (its `ORDER BY` of the key follows the bytes).
fn dec_cmp(a: &BigDecimal, b: &BigDecimal) -> Ordering {
    let zone = |v: &BigDecimal| {
        let wrap = BigDecimal::new(BigInt::from(1), -126);
        match v.sign() {
            rowkey::phoenix::bigdecimal::num_bigint::Sign::Minus if -v >= wrap => 1,
            rowkey::phoenix::bigdecimal::num_bigint::Sign::Minus => 0,
            rowkey::phoenix::bigdecimal::num_bigint::Sign::NoSign => 2,
            _ if *v >= wrap => 3,
            _ => 4,
        }
    };
    zone(a).cmp(&zone(b)).then_with(|| a.cmp(b))
}

/// Values in the order of their bytes in the key: [`cmp`], but DECIMALs by [`dec_cmp`].
fn key_cmp(a: &V, b: &V) -> Ordering {
    match (a, b) {
        (V::Dec(a), V::Dec(b)) | (V::NDec(Some(a)), V::NDec(Some(b))) => dec_cmp(a, b),
        _ => cmp(a, b),
    }
}

/// Rows in Phoenix's order of the primary key: column by column, DESC reversed, NULLs first
/// in both directions (the key's order, and `NULLS FIRST`; DECIMALs by [`dec_cmp`]).
fn row_cmp(t: &Table, a: &[V], b: &[V]) -> Ordering {
    t.cols
        .iter()
        .zip(a.iter().zip(b.iter()))
        .map(|((_, _, desc), (x, y))| match (is_null(x), is_null(y)) {
            (false, false) if *desc => key_cmp(y, x),
            _ => key_cmp(x, y),
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The query blocks of `phoenix_sql`'s output: the lines of each, without header and count.
fn query_blocks(out: &str) -> Vec<Vec<&str>> {
    let mut blocks = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut in_block = false;
    for line in out.lines() {
        if !in_block {
            in_block = true; // the header line
            cur.clear();
        } else if line.starts_with('(') && line.ends_with(" rows)") {
            blocks.push(std::mem::take(&mut cur));
            in_block = false;
        } else {
            cur.push(line);
        }
    }
    blocks
}

/// Undo the harness's escapes of text (`\\`, `\t`, `\n`, `\r`).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `millis.nanos` (the harness's `TIMESTAMP` format).
fn parse_timestamp(s: &str) -> Timestamp {
    let (ms, ns) = s.split_once('.').expect("millis.nanos");
    Timestamp {
        millis: ms.parse().expect("millis"),
        nanos: ns.parse().expect("nanos"),
    }
}

/// A value as Phoenix's `SELECT` printed it (the format of `HBase::phoenix_sql`).
fn parse(kind: Kind, s: &str) -> V {
    use std::str::FromStr;
    let null = s == "\\N";
    let num = |s: &str| -> i128 { s.parse().unwrap_or_else(|e| panic!("{s:?}: {e}")) };
    match kind {
        Kind::TinyInt => V::I8(num(s) as i8),
        Kind::SmallInt => V::I16(num(s) as i16),
        Kind::Integer => V::I32(num(s) as i32),
        Kind::BigInt => V::I64(num(s) as i64),
        Kind::UTinyInt => V::U8(num(s) as u8),
        Kind::USmallInt => V::U16(num(s) as u16),
        Kind::UInt => V::U32(num(s) as u32),
        Kind::ULong => V::U64(num(s) as u64),
        Kind::Float => V::F32(s.parse().unwrap_or_else(|e| panic!("{s:?}: {e}"))),
        Kind::Double => V::F64(s.parse().unwrap_or_else(|e| panic!("{s:?}: {e}"))),
        Kind::Boolean => V::Bool(s == "true"),
        Kind::Varchar => V::Str(unescape(s)),
        Kind::NVarchar => V::NStr((!null).then(|| unescape(s))),
        Kind::Char4 => V::Char(Char::new(unescape(s))),
        Kind::Binary3 => {
            let b = unhex(s);
            V::Bin([b[0], b[1], b[2]])
        }
        Kind::NVarbinary => V::NBytes((!null).then(|| unhex(s))),
        Kind::Decimal => V::Dec(BigDecimal::from_str(s).expect("decimal")),
        Kind::NDecimal => V::NDec((!null).then(|| BigDecimal::from_str(s).expect("decimal"))),
        Kind::Date => V::Date(Date(num(s) as i64)),
        Kind::Time => V::Time(Time(num(s) as i64)),
        Kind::Timestamp => V::Ts(parse_timestamp(s)),
        Kind::Chrono => {
            let t = parse_timestamp(s);
            V::Chrono(
                DateTime::from_timestamp_millis(t.millis).expect("in range")
                    + std::time::Duration::from_nanos(u64::from(t.nanos)),
            )
        }
    }
}

/// Text in the harness's format: `\\`, `\t`, `\n`, `\r` escaped.
fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// A value as text that [`parse`] reads back exactly (the harness's format, except floats in
/// Rust's shortest round-trip form and decimals as `unscaledEexponent`).
fn render(v: &V) -> String {
    fn ts(t: Timestamp) -> String {
        format!("{}.{:06}", t.millis, t.nanos)
    }
    fn dec(d: &BigDecimal) -> String {
        let (unscaled, scale) = d.as_bigint_and_exponent();
        format!("{unscaled}E{}", -scale)
    }
    const NULL: &str = "\\N";
    match v {
        V::I8(x) => x.to_string(),
        V::I16(x) => x.to_string(),
        V::I32(x) => x.to_string(),
        V::I64(x) => x.to_string(),
        V::U8(x) => x.to_string(),
        V::U16(x) => x.to_string(),
        V::U32(x) => x.to_string(),
        V::U64(x) => x.to_string(),
        V::F32(x) => format!("{x:?}"),
        V::F64(x) => format!("{x:?}"),
        V::Bool(x) => x.to_string(),
        V::Str(s) => escape_text(s),
        V::NStr(s) => s.as_deref().map_or(NULL.into(), escape_text),
        V::Char(c) => escape_text(c.as_str()),
        V::Bin(b) => hex(b),
        V::NBytes(b) => b.as_deref().map_or(NULL.into(), hex),
        V::Dec(d) => dec(d),
        V::NDec(d) => d.as_ref().map_or(NULL.into(), dec),
        V::Date(d) => d.0.to_string(),
        V::Time(t) => t.0.to_string(),
        V::Ts(t) => ts(*t),
        V::Chrono(t) => ts(chrono_timestamp(t)),
    }
}

/// Whether a row holds an edge value worth a golden vector of its own: a float NaN, infinite,
/// zero or subnormal, an integer at its type's limit, a 38-digit decimal, a NULL, bytes ending
/// with 0xFF.
fn special(row: &[V]) -> bool {
    row.iter().any(|v| match v {
        V::F32(x) => !x.is_normal(),
        V::F64(x) => !x.is_normal(),
        V::I8(x) => *x == i8::MIN || *x == i8::MAX,
        V::I16(x) => *x == i16::MIN || *x == i16::MAX,
        V::I32(x) => *x == i32::MIN || *x == i32::MAX,
        V::I64(x) => *x == i64::MIN || *x == i64::MAX,
        V::U8(x) => *x == i8::MAX as u8,
        V::U16(x) => *x == i16::MAX as u16,
        V::U32(x) => *x == i32::MAX as u32,
        V::U64(x) => *x == i64::MAX as u64,
        V::Dec(d) | V::NDec(Some(d)) => d.digits() >= 38,
        V::Date(d) => d.0 == i64::MIN || d.0 == i64::MAX,
        V::NBytes(Some(b)) => b.last() == Some(&0xFF),
        V::NStr(None) | V::NBytes(None) | V::NDec(None) => true,
        _ => false,
    })
}

/// The golden vectors' file: keys the live Phoenix stored, frozen (tests/hbase/phoenix_golden.rs).
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/phoenix_golden.txt");

/// One golden line: `TABLE<TAB>value<TAB>…<TAB>key as hex`.
fn golden_line(t: &Table, row: &[V], key: &[u8]) -> String {
    let mut fields = vec![t.name.to_string()];
    fields.extend(row.iter().map(render));
    fields.push(hex(key));
    fields.join("\t")
}
