//! The encoding rules of every field type and attribute (the README's "Field types" and
//! "Attributes" tables), checked as relations between a value and its bytes rather than as
//! restated bytes: integers are big-endian with the sign bit flipped, floats take the IEEE total
//! order transform, `#[desc]` inverts the ascending bytes, `#[sep]` escapes and terminates,
//! `#[reverse_ts]` is Java's `Long.MAX_VALUE - ts`, a salt is the Phoenix bucket
//! (`rowkey::salt::phoenix`) of the salted bytes or the value modulo N, a hash prefix is the MD5 of
//! the plain bytes, `#[rowkey(java)]` is `Bytes.toBytes`, and so on, each computed in the test.
//!
//! The exact bytes of these values are pinned once, in the golden corpus: `tests/keys/golden.rs`
//! checks every entry of `tests/golden/*.txt` (encode, decode, re-encode). Here every value also
//! round-trips (`round_trip`: `encoded_len` and `encode_into` agree with `to_row_key`, and
//! `from_row_key` gives the value back), byte order follows value order (`assert_sorted`), and
//! the layouts, `describe` output, errors and every kind of output buffer are checked.

use crate::common;

use std::fmt::Debug;

use rowkey::layout::{FieldEncoding, HashPrefix, SaltKind, SaltLayout};
use rowkey::{Bytes, DecodeRowKeyOwned, EncodeErrorKind, RowKey};

use common::{Budget, OrderBySeller, Salt1000, SaltField, SaltWhole, TimeBucket};

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Encoding without the round-trip check (for keys that borrow or hold floats).
#[track_caller]
fn enc<K: RowKey + Debug>(k: &K) -> Vec<u8> {
    let bytes = k
        .to_row_key()
        .unwrap_or_else(|e| panic!("{k:?} must encode: {e}"));
    assert_eq!(k.encoded_len(), bytes.len(), "encoded_len of {k:?}");
    let mut v = Vec::new();
    k.encode_into(&mut v).unwrap();
    assert_eq!(v, bytes, "encode_into of {k:?}");
    bytes.to_vec()
}

/// `encoded_len`, `encode_into` and `to_row_key` agree, and `from_row_key` gives the value
/// back; returns the bytes (pinned in the golden corpus) for the rule checks.
#[track_caller]
fn round_trip<K>(k: &K) -> Vec<u8>
where
    K: RowKey + DecodeRowKeyOwned + PartialEq + Debug,
{
    let bytes = enc(k);
    let back = K::from_row_key(&bytes).unwrap_or_else(|e| panic!("{k:?} must decode: {e}"));
    assert_eq!(&back, k);
    bytes
}

/// `bytes` follow `rule`, the bytes computed from the value by the format's rule.
#[track_caller]
fn assert_rule(bytes: &[u8], rule: &[u8], what: &str) {
    assert_eq!(hex(bytes), hex(rule), "{what}");
}

/// `#[sep]`: `0x00` escaped as `01 00`, `0x01` as `01 01`, then a `0x00` terminator.
fn escaped(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &x in b {
        if x <= 1 {
            out.push(0x01);
        }
        out.push(x);
    }
    out.push(0x00);
    out
}

/// `#[desc]`: every byte inverted.
fn inverted(b: &[u8]) -> Vec<u8> {
    b.iter().map(|x| !x).collect()
}

/// `#[pad(len, fill)]`: the content, then `fill` up to `len` bytes.
fn padded(b: &[u8], len: usize, fill: u8) -> Vec<u8> {
    let mut out = b.to_vec();
    out.resize(len, fill);
    out
}

/// `#[hash_prefix(n)]`: the first `n` lowercase hex characters of the MD5 of `plain`.
fn md5_hex(plain: &[u8], n: usize) -> Vec<u8> {
    let hex: String = rowkey::hash_prefix::md5(plain)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    hex.as_bytes()[..n].to_vec()
}

/// The Phoenix salt byte of the salted bytes (`SaltingUtil`, fewer than 257 buckets).
fn phoenix1(salted: &[u8], buckets: u32) -> u8 {
    u8::try_from(rowkey::salt::phoenix(salted, buckets)).unwrap()
}

/// The two-byte (big-endian) Phoenix salt of the salted bytes (more than 256 buckets).
fn phoenix2(salted: &[u8], buckets: u32) -> [u8; 2] {
    u16::try_from(rowkey::salt::phoenix(salted, buckets))
        .unwrap()
        .to_be_bytes()
}

/// Bytes compare (memcmp) in the order of the values given.
#[track_caller]
fn assert_sorted<K: RowKey + Debug>(keys: &[K]) {
    let encs: Vec<Vec<u8>> = keys.iter().map(enc).collect();
    for (i, w) in encs.windows(2).enumerate() {
        assert!(
            w[0] < w[1],
            "{:?} ({}) must sort before {:?} ({})",
            keys[i],
            hex(&w[0]),
            keys[i + 1],
            hex(&w[1])
        );
    }
}

// ---------------------------------------------------------------------------------------------
// integers

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ints {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: i8,
    g: i16,
    h: i32,
    i: i64,
    j: i128,
}

#[test]
fn integers_big_endian_signed_flipped() {
    let k = Ints {
        a: 0x12,
        b: 0x1234,
        c: 0x1234_5678,
        d: 0x0102_0304_0506_0708,
        e: 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10,
        f: -1,
        g: -2,
        h: i32::MIN,
        i: 1,
        j: 0,
    };
    let b = round_trip(&k);
    // unsigned: big-endian; signed: big-endian two's complement with the sign bit flipped
    let mut want = vec![k.a];
    want.extend(k.b.to_be_bytes());
    want.extend(k.c.to_be_bytes());
    want.extend(k.d.to_be_bytes());
    want.extend(k.e.to_be_bytes());
    want.extend(((k.f as u8) ^ 0x80).to_be_bytes());
    want.extend(((k.g as u16) ^ 0x8000).to_be_bytes());
    want.extend(((k.h as u32) ^ (1 << 31)).to_be_bytes());
    want.extend(((k.i as u64) ^ (1 << 63)).to_be_bytes());
    want.extend(((k.j as u128) ^ (1 << 127)).to_be_bytes());
    assert_rule(
        &b,
        &want,
        "fields concatenated, big-endian, signed sign-flipped",
    );
    assert_eq!(k.encoded_len(), 1 + 2 + 4 + 8 + 16 + 1 + 2 + 4 + 8 + 16);
    assert_eq!(Ints::LAYOUT.fixed_width, Some(62));
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct I8(i8);
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct I64(i64);
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct U16(u16);
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct I128(i128);

#[test]
fn integer_extremes_and_order() {
    for v in [i8::MIN, -1, 0, 1, i8::MAX] {
        let b = round_trip(&I8(v));
        assert_rule(&b, &[(v as u8) ^ 0x80], "i8 sign-flipped");
    }
    for v in [i64::MIN, i64::MAX, -1] {
        let b = round_trip(&I64(v));
        assert_rule(&b, &((v as u64) ^ (1 << 63)).to_be_bytes(), "i64");
    }
    for v in [0, u16::MAX] {
        let b = round_trip(&U16(v));
        assert_rule(&b, &v.to_be_bytes(), "u16 big-endian");
    }
    for v in [i128::MIN, i128::MAX] {
        let b = round_trip(&I128(v));
        assert_rule(&b, &((v as u128) ^ (1 << 127)).to_be_bytes(), "i128");
    }
    assert_sorted(&[I8(i8::MIN), I8(-1), I8(0), I8(1), I8(i8::MAX)]);
    assert_sorted(&[I64(i64::MIN), I64(-1), I64(0), I64(1), I64(i64::MAX)]);
    assert_sorted(&[I128(i128::MIN), I128(-1), I128(0), I128(i128::MAX)]);
}

// ---------------------------------------------------------------------------------------------
// bool, char, floats, arrays

#[derive(RowKey, Debug, Clone, PartialEq)]
struct BoolChar {
    flag: bool,
    c: char,
}

#[test]
fn bool_and_char() {
    for (flag, c) in [(false, 'A'), (true, '\u{1F600}'), (true, char::MAX)] {
        let b = round_trip(&BoolChar { flag, c });
        // bool: one byte 0/1; char: its scalar value, u32 big-endian
        let mut want = vec![u8::from(flag)];
        want.extend(u32::from(c).to_be_bytes());
        assert_rule(&b, &want, "bool byte, char as u32");
    }
    assert_sorted(&[
        BoolChar {
            flag: false,
            c: 'z',
        },
        BoolChar { flag: true, c: 'a' },
        BoolChar {
            flag: true, c: 'é'
        },
    ]);
}

#[derive(RowKey, Debug, Clone, Copy)]
struct F64(f64);
#[derive(RowKey, Debug, Clone, Copy)]
struct F32(f32);

/// The total order transform: sign bit clear, flip the sign bit; sign bit set, flip every bit.
/// Also the bit-exact round trip (NaN payloads and signed zeros kept).
#[track_caller]
fn float_rule_f64(v: f64) {
    let b = enc(&F64(v));
    let bits = v.to_bits();
    let want = if bits >> 63 == 0 {
        bits ^ (1 << 63)
    } else {
        !bits
    };
    assert_rule(
        &b,
        &want.to_be_bytes(),
        &format!("total order transform of {v:?}"),
    );
    let back = F64::from_row_key(&b).unwrap();
    assert_eq!(
        back.0.to_bits(),
        v.to_bits(),
        "bit-exact round trip of {v:?}"
    );
}

#[track_caller]
fn float_rule_f32(v: f32) {
    let b = enc(&F32(v));
    let bits = v.to_bits();
    let want = if bits >> 31 == 0 {
        bits ^ (1 << 31)
    } else {
        !bits
    };
    assert_rule(
        &b,
        &want.to_be_bytes(),
        &format!("total order transform of {v:?}"),
    );
    let back = F32::from_row_key(&b).unwrap();
    assert_eq!(
        back.0.to_bits(),
        v.to_bits(),
        "bit-exact round trip of {v:?}"
    );
}

#[test]
fn floats_total_order_transform() {
    for v in [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from_bits(0x7FF8_0000_0000_0000),
        f64::from_bits(0xFFF8_0000_0000_0000),
        f64::from_bits(0x7FF0_0000_0000_0001), // signalling NaN
        f64::from_bits(1),                     // smallest subnormal
    ] {
        float_rule_f64(v);
    }
    for v in [
        0.0,
        -0.0,
        1.5,
        -1.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ] {
        float_rule_f32(v);
    }

    // -NaN < -inf < -MAX < -1 < -min subnormal < -0 < 0 < min subnormal < 1 < MAX < inf < NaN
    let order = [
        -f64::NAN,
        f64::NEG_INFINITY,
        f64::MIN,
        -1.0,
        -f64::from_bits(1),
        -0.0,
        0.0,
        f64::from_bits(1),
        1.0,
        f64::MAX,
        f64::INFINITY,
        f64::NAN,
    ];
    let keys: Vec<F64> = order.iter().map(|&v| F64(v)).collect();
    assert_sorted(&keys);
    for w in order.windows(2) {
        assert_eq!(w[0].total_cmp(&w[1]), std::cmp::Ordering::Less);
    }
    let order32 = [
        -f32::NAN,
        f32::NEG_INFINITY,
        -1.0,
        -0.0,
        0.0,
        1.0,
        f32::INFINITY,
        f32::NAN,
    ];
    assert_sorted(&order32.iter().map(|&v| F32(v)).collect::<Vec<_>>());
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Arr {
    id: [u8; 3],
    tag: u8,
}

#[test]
fn byte_arrays_raw() {
    let k = Arr {
        id: [0x00, 0xFF, 0x01],
        tag: 7,
    };
    let b = round_trip(&k);
    assert_rule(
        &b,
        &[&k.id[..], &[k.tag]].concat(),
        "array bytes as they are",
    );
    assert_eq!(Arr::LAYOUT.fixed_width, Some(4));
    assert_eq!(Arr::LAYOUT.fields[0].width, Some(3));
}

// ---------------------------------------------------------------------------------------------
// strings and bytes as the last field: raw

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastString {
    id: u8,
    s: String,
}
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastStr<'a> {
    id: u8,
    s: &'a str,
}
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastBoxStr {
    id: u8,
    s: Box<str>,
}
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastVec {
    id: u8,
    b: Vec<u8>,
}
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastSlice<'a> {
    id: u8,
    b: &'a [u8],
}
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LastBytes {
    id: u8,
    b: Bytes,
}

#[test]
fn last_field_strings_and_bytes_are_raw() {
    // the last field is its bytes as they are: no escape, no terminator
    let raw = "raw last field";
    for s in ["héllo\0\x01", ""] {
        let k = LastString { id: 1, s: s.into() };
        assert_rule(&round_trip(&k), &[&[1], s.as_bytes()].concat(), raw);
    }
    let k = LastBoxStr {
        id: 2,
        s: "ab".into(),
    };
    assert_rule(&round_trip(&k), &[&[2], k.s.as_bytes()].concat(), raw);
    let k = LastVec {
        id: 3,
        b: vec![0x00, 0x01, 0xFF],
    };
    assert_rule(&round_trip(&k), &[&[3], &k.b[..]].concat(), raw);
    let k = LastBytes {
        id: 4,
        b: Bytes::from_static(b"\xFFx\x00"),
    };
    assert_rule(&round_trip(&k), &[&[4], &k.b[..]].concat(), raw);

    let k = LastStr { id: 5, s: "a\0b" };
    let b = enc(&k);
    assert_rule(&b, &[&[5], k.s.as_bytes()].concat(), raw);
    assert_eq!(LastStr::from_row_key(&b).unwrap(), k);
    let k = LastSlice {
        id: 6,
        b: b"\x00\xFF",
    };
    let b = enc(&k);
    assert_rule(&b, &[&[6], k.b].concat(), raw);
    let back = LastSlice::from_row_key(&b).unwrap();
    assert_eq!(back, k);
    // borrowed from the key bytes
    assert_eq!(back.b.as_ptr(), b[1..].as_ptr());

    for l in [LastString::LAYOUT, LastVec::LAYOUT, LastBytes::LAYOUT] {
        assert_eq!(l.fields[1].encoding, FieldEncoding::Natural);
        assert_eq!(l.fields[1].width, None);
        assert_eq!(l.fixed_width, None);
    }
}

// ---------------------------------------------------------------------------------------------
// Option

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Opts {
    a: Option<u16>,
    #[sep]
    s: Option<String>,
    last: Option<String>,
}

#[test]
fn option_presence_byte_none_first() {
    // None: one 0x00 byte; Some(v): 0x01, then v as the field would encode it without Option
    let rule = |k: &Opts| {
        let mut want = Vec::new();
        match k.a {
            None => want.push(0),
            Some(a) => want.extend([&[1][..], &a.to_be_bytes()].concat()),
        }
        match &k.s {
            None => want.push(0),
            Some(s) => want.extend([&[1][..], &escaped(s.as_bytes())].concat()),
        }
        match &k.last {
            None => want.push(0),
            Some(s) => want.extend([&[1][..], s.as_bytes()].concat()),
        }
        want
    };
    for k in [
        Opts {
            a: None,
            s: None,
            last: None,
        },
        Opts {
            a: Some(0x0102),
            s: Some("x".into()),
            last: Some("yz".into()),
        },
        Opts {
            a: Some(0),
            s: Some(String::new()),
            last: Some(String::new()),
        },
    ] {
        assert_rule(&round_trip(&k), &rule(&k), "presence byte, then the value");
    }
    let k = |a, s: Option<&str>| Opts {
        a,
        s: s.map(Into::into),
        last: None,
    };
    assert_sorted(&[
        k(None, None),
        k(None, Some("")),
        k(None, Some("a")),
        k(Some(0), None),
        k(Some(1), None),
        k(Some(u16::MAX), None),
    ]);
    assert_eq!(Opts::LAYOUT.fields[0].width, None);
}

// ---------------------------------------------------------------------------------------------
// enums, nested structs, tuple structs

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Kind {
    Click,
    View,
    Buy,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Explicit {
    Low = 10,
    High = 200,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
#[repr(u16)]
enum Wide {
    X = 1,
    Y = 0x1234,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    uid: u32,
    kind: Kind,
    level: Explicit,
    wide: Wide,
}

#[test]
fn enums_encode_codes() {
    // a fieldless enum is its discriminant: one byte, or its `#[repr]` integer big-endian
    for k in [Kind::Click, Kind::View, Kind::Buy] {
        assert_rule(&round_trip(&k), &[k as u8], "discriminant");
    }
    for k in [Explicit::Low, Explicit::High] {
        assert_rule(&round_trip(&k), &[k as u8], "explicit discriminant");
    }
    for k in [Wide::X, Wide::Y] {
        assert_rule(&round_trip(&k), &(k as u16).to_be_bytes(), "repr(u16)");
    }
    let k = Event {
        uid: 7,
        kind: Kind::Buy,
        level: Explicit::High,
        wide: Wide::Y,
    };
    let mut want = k.uid.to_be_bytes().to_vec();
    want.push(k.kind as u8);
    want.push(k.level as u8);
    want.extend((k.wide as u16).to_be_bytes());
    assert_rule(&round_trip(&k), &want, "enum fields");
    assert_eq!(Event::LAYOUT.fixed_width, Some(8));
    assert_eq!(Wide::LAYOUT.fixed_width, Some(2));
    assert_eq!(Kind::LAYOUT.fields[0].name, "code");
    assert_sorted(&[Kind::Click, Kind::View, Kind::Buy]);
    assert_sorted(&[Explicit::Low, Explicit::High]);
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Inner {
    #[sep]
    host: String,
    port: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Outer {
    region: u8,
    inner: Inner,
    #[sep]
    path: String,
    last: Inner,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Pair(u16, #[sep] String, i8);

#[test]
fn nested_and_tuple_structs() {
    let inner = Inner {
        host: "h1".into(),
        port: 80,
    };
    let b = round_trip(&inner);
    assert_rule(
        &b,
        &[escaped(b"h1"), 80u16.to_be_bytes().to_vec()].concat(),
        "sep string, u16",
    );
    // a nested key is its own key's bytes in place
    let k = Outer {
        region: 3,
        inner: inner.clone(),
        path: "/a".into(),
        last: Inner {
            host: String::new(),
            port: 0xFFFF,
        },
    };
    let want = [
        vec![k.region],
        enc(&k.inner),
        escaped(k.path.as_bytes()),
        enc(&k.last),
    ]
    .concat();
    assert_rule(&round_trip(&k), &want, "nested keys in place");
    let k = Pair(0x0102, "x".into(), -128);
    let want = [
        k.0.to_be_bytes().to_vec(),
        escaped(k.1.as_bytes()),
        vec![(k.2 as u8) ^ 0x80],
    ]
    .concat();
    assert_rule(&round_trip(&k), &want, "tuple struct fields in order");
    assert_eq!(Pair::LAYOUT.fields[0].name, "0");
    assert_eq!(Pair::LAYOUT.fields[1].name, "1");
    assert_eq!(Pair::LAYOUT.fields[2].name, "2");
    assert_eq!(Pair::LAYOUT.fields[1].encoding, FieldEncoding::Sep);
}

// ---------------------------------------------------------------------------------------------
// #[pad]

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Padded {
    #[pad(6)]
    name: String,
    #[pad(5, fill = b' ')]
    code: String,
    #[pad(6)]
    n: u32,
    #[pad(3)]
    raw: Vec<u8>,
}

#[test]
fn pad_strings_fill_and_decimal() {
    // strings and bytes filled up to the width, integers as zero-padded decimal digits
    let rule = |k: &Padded| {
        [
            padded(k.name.as_bytes(), 6, 0),
            padded(k.code.as_bytes(), 5, b' '),
            format!("{:06}", k.n).into_bytes(),
            padded(&k.raw, 3, 0),
        ]
        .concat()
    };
    for k in [
        Padded {
            name: "abc".into(),
            code: "XY".into(),
            n: 1,
            raw: vec![0xFF],
        },
        Padded {
            name: "abcdef".into(),
            code: "VWXYZ".into(),
            n: 999_999,
            raw: vec![1, 0, 2],
        },
        // content with fill bytes inside (not at the end) is fine
        Padded {
            name: "a\0b".into(),
            code: "a b".into(),
            n: 0,
            raw: Vec::new(),
        },
    ] {
        assert_rule(&round_trip(&k), &rule(&k), "filled to the width");
    }
    assert_eq!(
        Padded::LAYOUT.fields[1].encoding,
        FieldEncoding::Pad { len: 5, fill: b' ' }
    );
    assert_eq!(
        Padded::LAYOUT.fields[2].encoding,
        FieldEncoding::Pad { len: 6, fill: 0 }
    );
    assert_eq!(Padded::LAYOUT.fixed_width, Some(6 + 5 + 6 + 3));

    let err = Padded {
        name: "abcdefg".into(),
        code: String::new(),
        n: 0,
        raw: Vec::new(),
    }
    .to_row_key()
    .unwrap_err();
    assert_eq!(err.field(), "name");
    assert_eq!(err.kind(), &EncodeErrorKind::TooLong { len: 7, max: 6 });
    let err = Padded {
        name: String::new(),
        code: String::new(),
        n: 1_000_000,
        raw: Vec::new(),
    }
    .to_row_key()
    .unwrap_err();
    assert_eq!(err.field(), "n");
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::TooManyDigits {
            value: 1_000_000,
            digits: 6
        }
    );
    let err = Padded {
        name: String::new(),
        code: "ab ".into(),
        n: 0,
        raw: Vec::new(),
    }
    .to_row_key()
    .unwrap_err();
    assert_eq!(err.field(), "code");
    assert_eq!(err.kind(), &EncodeErrorKind::EndsWithFill { fill: b' ' });
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Decimal {
    #[pad(6)]
    n: u32,
}

#[test]
fn pad_decimal_order() {
    for n in [1, 42] {
        let b = round_trip(&Decimal { n });
        assert_rule(&b, format!("{n:06}").as_bytes(), "six decimal digits");
    }
    assert_sorted(&[
        Decimal { n: 0 },
        Decimal { n: 9 },
        Decimal { n: 10 },
        Decimal { n: 99_999 },
        Decimal { n: 100_000 },
    ]);
}

// ---------------------------------------------------------------------------------------------
// #[sep]

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Separated {
    #[sep]
    a: String,
    #[sep(b'|')]
    b: String,
    #[sep]
    raw: Vec<u8>,
    tail: u8,
}

#[test]
fn sep_escapes_and_custom_separator() {
    // `#[sep]`: 00 -> 01 00, 01 -> 01 01, then 00; `#[sep(b'|')]`: the bytes, then `|`
    let rule = |k: &Separated| {
        [
            escaped(k.a.as_bytes()),
            [k.b.as_bytes(), b"|"].concat(),
            escaped(&k.raw),
            vec![k.tail],
        ]
        .concat()
    };
    for k in [
        Separated {
            a: "host1".into(),
            b: "x".into(),
            raw: vec![],
            tail: 9,
        },
        Separated {
            a: "a\0b\x01c".into(),
            b: String::new(),
            raw: vec![0x00, 0x01, 0x02, 0xFF],
            tail: 0,
        },
    ] {
        assert_rule(&round_trip(&k), &rule(&k), "escaped and terminated");
    }
    assert_eq!(Separated::LAYOUT.fields[0].encoding, FieldEncoding::Sep);
    assert_eq!(
        Separated::LAYOUT.fields[1].encoding,
        FieldEncoding::SepByte(b'|')
    );

    // prefix scans stay exact: host1 < host1\0 < host1\x01 < host12
    let k = |a: &str| Separated {
        a: a.into(),
        b: String::new(),
        raw: vec![],
        tail: 0xFF,
    };
    assert_sorted(&[k(""), k("host1"), k("host1\0"), k("host1\x01"), k("host12")]);
    let host1 = enc(&k("host1"));
    let host12 = enc(&k("host12"));
    assert!(!host12.starts_with(&host1[..6]));

    let err = Separated {
        a: String::new(),
        b: "a|b".into(),
        raw: vec![],
        tail: 0,
    }
    .to_row_key()
    .unwrap_err();
    assert_eq!(err.field(), "b");
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::ContainsSeparator { sep: b'|', at: 1 }
    );
}

// ---------------------------------------------------------------------------------------------
// #[reverse_ts]

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Latest {
    host: u8,
    #[reverse_ts]
    ts: i64,
    #[reverse_ts]
    ts_u: u64,
}

#[test]
fn reverse_ts_is_java_identical() {
    // Java: Bytes.toBytes(Long.MAX_VALUE - ts)
    let ts = 1_700_000_000_000i64;
    for (ts, ts_u) in [(ts, 5u64), (0, i64::MAX as u64)] {
        let k = Latest { host: 1, ts, ts_u };
        let mut want = vec![1];
        want.extend((i64::MAX - ts).to_be_bytes());
        want.extend((i64::MAX - i64::try_from(ts_u).unwrap()).to_be_bytes());
        assert_rule(&round_trip(&k), &want, "Long.MAX_VALUE - ts, big-endian");
    }
    // newest first
    let k = |ts| Latest {
        host: 1,
        ts,
        ts_u: 0,
    };
    assert_sorted(&[k(i64::MAX), k(ts + 1), k(ts), k(1), k(0)]);
    assert_eq!(Latest::LAYOUT.fields[1].encoding, FieldEncoding::ReverseTs);
    assert_eq!(Latest::LAYOUT.fields[2].width, Some(8));

    for (ts, ts_u, field, value) in [
        (-1, 0, "ts", -1i128),
        (i64::MIN, 0, "ts", i128::from(i64::MIN)),
        (0, u64::MAX, "ts_u", i128::from(u64::MAX)),
        (0, 1 << 63, "ts_u", 1i128 << 63),
    ] {
        let err = Latest { host: 0, ts, ts_u }.to_row_key().unwrap_err();
        assert_eq!(err.field(), field);
        assert_eq!(err.kind(), &EncodeErrorKind::TimestampOutOfRange { value });
    }
}

// ---------------------------------------------------------------------------------------------
// #[desc]

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Desc {
    #[desc]
    a: u16,
    #[desc]
    i: i8,
    #[desc]
    #[sep]
    s: String,
    #[desc]
    o: Option<u8>,
    #[desc]
    #[pad(4)]
    p: String,
    #[desc]
    #[pad(3)]
    d: u32,
    #[desc]
    #[sep(b'|')]
    c: String,
    #[desc]
    last: String,
}

/// [`Desc`] without `#[desc]`; its last field `#[sep]`, as a `#[desc]` last field is escaped and
/// terminated (so that a shorter value sorts after the longer ones it prefixes).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct AscTwin {
    a: u16,
    i: i8,
    #[sep]
    s: String,
    o: Option<u8>,
    #[pad(4)]
    p: String,
    #[pad(3)]
    d: u32,
    #[sep(b'|')]
    c: String,
    #[sep]
    last: String,
}

impl From<&Desc> for AscTwin {
    fn from(k: &Desc) -> Self {
        AscTwin {
            a: k.a,
            i: k.i,
            s: k.s.clone(),
            o: k.o,
            p: k.p.clone(),
            d: k.d,
            c: k.c.clone(),
            last: k.last.clone(),
        }
    }
}

#[test]
fn desc_inverts_bytes() {
    for k in [
        Desc {
            a: 0x1234,
            i: -1,
            s: "a".into(),
            o: None,
            p: "ab".into(),
            d: 42,
            c: "ab".into(),
            last: "ab\0".into(),
        },
        Desc {
            a: 0,
            i: 0,
            s: "\x01".into(),
            o: Some(5),
            p: String::new(),
            d: 0,
            c: String::new(),
            last: String::new(),
        },
    ] {
        let b = round_trip(&k);
        let asc = round_trip(&AscTwin::from(&k));
        assert_rule(&b, &inverted(&asc), "the ascending bytes inverted");
    }
    assert!(Desc::LAYOUT.fields.iter().all(|f| f.desc));

    let base = Desc {
        a: 1,
        i: 0,
        s: String::new(),
        o: None,
        p: String::new(),
        d: 0,
        c: String::new(),
        last: String::new(),
    };
    let with = |f: &dyn Fn(&mut Desc)| {
        let mut k = base.clone();
        f(&mut k);
        k
    };
    // each desc field sorts descending
    assert_sorted(&[with(&|k| k.a = 2), with(&|k| k.a = 1), with(&|k| k.a = 0)]);
    assert_sorted(&[
        with(&|k| k.s = "host12".into()),
        with(&|k| k.s = "host1\x01".into()),
        with(&|k| k.s = "host1\0".into()),
        with(&|k| k.s = "host1".into()),
        with(&|k| k.s = String::new()),
    ]);
    assert_sorted(&[
        with(&|k| k.o = Some(1)),
        with(&|k| k.o = Some(0)),
        with(&|k| k.o = None),
    ]);
    assert_sorted(&[
        with(&|k| k.last = "b".into()),
        with(&|k| k.last = "ab".into()),
        with(&|k| k.last = "a\0".into()),
        with(&|k| k.last = "a".into()),
        with(&|k| k.last = String::new()),
    ]);
}

// ---------------------------------------------------------------------------------------------
// salt

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 20))]
struct Salt20 {
    s: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct SaltSep {
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    port: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
struct SaltWhole2 {
    #[sep]
    host: String,
    port: u16,
}

#[test]
fn salt_phoenix_known_values() {
    // Phoenix SaltingUtil over the salted bytes, then the key itself
    let salted = |b: &[u8], salted: &[u8], buckets| {
        let want = [&[phoenix1(salted, buckets)][..], &b[1..]].concat();
        assert_rule(b, &want, "the Phoenix bucket of the salted bytes");
    };
    for host in ["host1", "host12"] {
        // a salt over the only field is over the whole key
        let b = round_trip(&SaltField { host: host.into() });
        assert_rule(&b[1..], host.as_bytes(), "the key after the salt");
        salted(&b, host.as_bytes(), 16);
        let w = round_trip(&SaltWhole { host: host.into() });
        assert_eq!(w, b);
    }
    let b = round_trip(&Salt20 { s: "a".into() });
    assert_rule(&b[1..], b"a", "the key after the salt");
    salted(&b, b"a", 20);

    // the salted prefix is the encoded bytes of the salted field, `#[sep]` terminator included
    for (host, port) in [("host12", 80u16), ("host1", 81)] {
        let b = round_trip(&SaltSep {
            host: host.into(),
            port,
        });
        let key = [escaped(host.as_bytes()), port.to_be_bytes().to_vec()].concat();
        assert_rule(&b[1..], &key, "the key after the salt");
        salted(&b, &escaped(host.as_bytes()), 16);
    }
    // whole-key salt hashes every field
    let b = round_trip(&SaltWhole2 {
        host: "host1".into(),
        port: 80,
    });
    let key = [escaped(b"host1"), 80u16.to_be_bytes().to_vec()].concat();
    assert_rule(&b[1..], &key, "the key after the salt");
    salted(&b, &key, 16);
    // the README's example key: the salt hashes seller_id's 8 bytes only
    let ts = 1_700_000_000_000i64;
    let b = round_trip(&OrderBySeller {
        seller_id: 42,
        created_ms: ts,
        order_no: "A-17".into(),
    });
    let key = [
        &42u64.to_be_bytes()[..],
        &(i64::MAX - ts).to_be_bytes(),
        &escaped(b"A-17"),
    ]
    .concat();
    assert_rule(&b[1..], &key, "the key after the salt");
    salted(&b, &42u64.to_be_bytes(), 16);

    assert_eq!(
        SaltSep::LAYOUT.salt,
        Some(SaltLayout {
            buckets: 16,
            width: 1,
            through_field: 0,
            fields: &[0],
            kind: SaltKind::Phoenix
        })
    );
    assert_eq!(
        SaltWhole2::LAYOUT.salt,
        Some(SaltLayout {
            buckets: 16,
            width: 1,
            through_field: 1,
            fields: &[0, 1],
            kind: SaltKind::Phoenix
        })
    );
    assert_eq!(OrderBySeller::LAYOUT.fixed_width, None);
    assert_eq!(OrderBySeller::LAYOUT.salt.map(|s| s.through_field), Some(0));
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salt65536 {
    #[salt(buckets = 65536)]
    host: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 1000))]
struct Salt1000Id {
    id: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 256))]
struct Salt256 {
    host: String,
}

#[test]
fn two_byte_salt_above_256_buckets() {
    // the bucket as two bytes, big-endian
    let b = round_trip(&Salt1000 {
        host: "host1".into(),
    });
    assert_rule(
        &b,
        &[&phoenix2(b"host1", 1000)[..], b"host1"].concat(),
        "1000",
    );
    let b = round_trip(&Salt65536 {
        host: "host1".into(),
    });
    assert_rule(
        &b,
        &[&phoenix2(b"host1", 65536)[..], b"host1"].concat(),
        "65536",
    );
    let b = round_trip(&Salt1000Id { id: 12345 });
    let id = 12345u32.to_be_bytes();
    assert_rule(&b, &[&phoenix2(&id, 1000)[..], &id].concat(), "1000, u32");
    assert_eq!(Salt1000::LAYOUT.salt.map(|s| s.width), Some(2));
    assert_eq!(Salt1000Id::LAYOUT.fixed_width, Some(6));
    assert_eq!(Salt256::LAYOUT.salt.map(|s| s.width), Some(1));
    let b = enc(&Salt256 {
        host: "host1".into(),
    });
    assert_eq!(b.len(), 6);
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 300, modulo))]
struct ModuloWhole {
    id: u64,
}

#[test]
fn modulo_salt_is_value_mod_n() {
    for (ts, host) in [
        (1_700_000_000_003u64, "h"),
        (0, ""),
        (7, ""),
        (8, ""),
        (15, ""),
    ] {
        let k = TimeBucket {
            ts,
            host: host.into(),
        };
        let b = round_trip(&k);
        let key = [ts.to_be_bytes().to_vec(), escaped(host.as_bytes())].concat();
        let want = [&[(ts % 8) as u8][..], &key].concat();
        assert_rule(&b, &want, "ts % 8, then the key");
        assert_eq!(u32::from(b[0]), rowkey::salt::modulo(ts, 8));
    }
    let b = enc(&TimeBucket {
        ts: u64::MAX,
        host: String::new(),
    });
    assert_eq!(u64::from(b[0]), u64::MAX % 8);
    // more than 256 buckets: two bytes, big-endian
    for id in [301u64, 299] {
        let b = round_trip(&ModuloWhole { id });
        let salt = u16::try_from(id % 300).unwrap().to_be_bytes();
        assert_rule(&b, &[&salt[..], &id.to_be_bytes()].concat(), "id % 300");
    }
    assert_eq!(
        TimeBucket::LAYOUT.salt,
        Some(SaltLayout {
            buckets: 8,
            width: 1,
            through_field: 0,
            fields: &[0],
            kind: SaltKind::Modulo
        })
    );
    assert_eq!(ModuloWhole::LAYOUT.salt.map(|s| s.width), Some(2));
}

// ---------------------------------------------------------------------------------------------
// #[hash_prefix]

#[derive(RowKey, Debug, Clone, PartialEq)]
struct HashedUser {
    #[hash_prefix(6)]
    user: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct HashedId {
    #[hash_prefix(6)]
    id: u64,
    #[hash_prefix(4, raw)]
    small: u32,
    #[hash_prefix(32)]
    #[sep]
    name: String,
    #[hash_prefix(16, raw)]
    neg: i32,
}

#[test]
fn hash_prefix_md5() {
    // md5(userid).substring(0, 6), then the field
    let b = round_trip(&HashedUser {
        user: "foo0001".into(),
    });
    assert_rule(
        &b,
        &[md5_hex(b"foo0001", 6), b"foo0001".to_vec()].concat(),
        "hex",
    );
    // integers hash their Java `Bytes.toBytes` (two's complement, big-endian); raw keeps the
    // first digest bytes
    let mut want = md5_hex(&42u64.to_be_bytes(), 6);
    want.extend(42u64.to_be_bytes());
    want.extend(&rowkey::hash_prefix::md5(&7u32.to_be_bytes())[..4]);
    want.extend(7u32.to_be_bytes());
    want.extend(md5_hex(b"user42", 32));
    want.extend(escaped(b"user42"));
    want.extend(rowkey::hash_prefix::md5(&(-5i32).to_be_bytes()));
    want.extend(((-5i32 as u32) ^ (1 << 31)).to_be_bytes()); // -5 sign-flipped
    let b = round_trip(&HashedId {
        id: 42,
        small: 7,
        name: "user42".into(),
        neg: -5,
    });
    assert_rule(&b, &want, "md5 of the plain bytes before each field");
    let l = HashedId::LAYOUT;
    assert_eq!(
        l.fields[0].hash_prefix,
        Some(HashPrefix {
            width: 6,
            raw: false
        })
    );
    assert_eq!(
        l.fields[1].hash_prefix,
        Some(HashPrefix {
            width: 4,
            raw: true
        })
    );
    assert_eq!(l.fields[0].width, Some(8));
    assert_eq!(l.fields[0].total_width(), Some(14));
    assert_eq!(l.fixed_width, None);
}

// ---------------------------------------------------------------------------------------------
// #[reverse]

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reversed {
    #[reverse]
    a: u32,
    #[reverse]
    #[pad(11)]
    phone: u64,
    #[reverse]
    #[pad(8)]
    name: String,
    #[reverse]
    arr: [u8; 3],
    #[reverse]
    s: i16,
}

#[test]
fn reverse_bytes_digits_characters() {
    // integers: their bytes reversed; a padded number: its zero-padded digits reversed (so a
    // short number is padded before reversal); a string: its characters reversed, then filled
    let rule = |k: &Reversed| {
        let rev = |mut v: Vec<u8>| {
            v.reverse();
            v
        };
        let name: String = k.name.chars().rev().collect();
        [
            rev(k.a.to_be_bytes().to_vec()),
            rev(format!("{:011}", k.phone).into_bytes()),
            padded(name.as_bytes(), 8, 0),
            rev(k.arr.to_vec()),
            rev(((k.s as u16) ^ 0x8000).to_be_bytes().to_vec()),
        ]
        .concat()
    };
    for k in [
        Reversed {
            a: 0x0102_0304,
            phone: 13_812_345_678,
            name: "abé".into(),
            arr: [1, 2, 3],
            s: -2,
        },
        Reversed {
            a: 0,
            phone: 42,
            name: String::new(),
            arr: [0; 3],
            s: 0,
        },
    ] {
        assert_rule(&round_trip(&k), &rule(&k), "reversed");
    }
    assert_eq!(
        Reversed::LAYOUT.fields[1].encoding,
        FieldEncoding::Reverse {
            len: 11,
            padded: true
        }
    );
    assert_eq!(
        Reversed::LAYOUT.fields[0].encoding,
        FieldEncoding::Reverse {
            len: 4,
            padded: false
        }
    );
    assert_eq!(Reversed::LAYOUT.fixed_width, Some(4 + 11 + 8 + 3 + 2));
}

// ---------------------------------------------------------------------------------------------
// Java interop

#[derive(RowKey, Debug, Clone, PartialEq)]
struct JavaField {
    #[rowkey(java)]
    a: i32,
    b: i32,
    #[rowkey(java)]
    flag: bool,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(java)]
struct JavaAll {
    i: i16,
    l: i64,
    u: u32,
    f: f64,
    g: f32,
    flag: bool,
    #[sep]
    s: String,
    o: Option<i32>,
}

#[test]
fn java_bytes_to_bytes() {
    // Bytes.toBytes: two's complement big-endian integers, raw IEEE bits, a boolean as
    // -1 (0xFF) or 0; next to a natural (sign-flipped) field
    let java_bool = |b: bool| if b { 0xFF } else { 0x00 };
    for (a, b, flag) in [(-1i32, -1i32, true), (1, 1, false)] {
        let mut want = a.to_be_bytes().to_vec();
        want.extend(((b as u32) ^ (1 << 31)).to_be_bytes());
        want.push(java_bool(flag));
        let k = JavaField { a, b, flag };
        assert_rule(&round_trip(&k), &want, "Bytes.toBytes beside natural");
    }
    let k = JavaAll {
        i: -2,
        l: i64::MIN,
        u: 5,
        f: -1.0,
        g: 1.5,
        flag: true,
        s: "s".into(),
        o: Some(-7),
    };
    let mut want = k.i.to_be_bytes().to_vec();
    want.extend(k.l.to_be_bytes());
    want.extend(k.u.to_be_bytes());
    want.extend(k.f.to_bits().to_be_bytes()); // raw IEEE bits
    want.extend(k.g.to_bits().to_be_bytes());
    want.push(java_bool(k.flag));
    want.extend(escaped(k.s.as_bytes()));
    want.push(1); // Some
    want.extend((-7i32).to_be_bytes());
    assert_rule(&round_trip(&k), &want, "Bytes.toBytes of every field");
    assert_eq!(JavaField::LAYOUT.fields[0].encoding, FieldEncoding::Java);
    assert_eq!(JavaField::LAYOUT.fields[1].encoding, FieldEncoding::Natural);
    assert_eq!(JavaAll::LAYOUT.fields[3].encoding, FieldEncoding::Java);
    assert_eq!(JavaAll::LAYOUT.fields[6].encoding, FieldEncoding::Sep);
    // documented caveat: negatives sort after positives
    let neg = enc(&JavaField {
        a: -1,
        b: 0,
        flag: false,
    });
    let pos = enc(&JavaField {
        a: 1,
        b: 0,
        flag: false,
    });
    assert!(neg > pos);
}

// ---------------------------------------------------------------------------------------------
// max_len, LAYOUT, describe

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(max_len = 12)]
struct FixedBudget {
    id: u32,
    at: u64,
}

#[test]
fn max_len_budget() {
    // at the limit: 4 + 5 + 1 = 10 bytes
    let b = round_trip(&Budget {
        id: 1,
        name: "abcde".into(),
    });
    assert_rule(
        &b,
        &[&1u32.to_be_bytes()[..], &escaped(b"abcde")].concat(),
        "10",
    );
    let k = Budget {
        id: 1,
        name: "abcdefg".into(),
    };
    assert_eq!(k.encoded_len(), 12);
    let err = k.to_row_key().unwrap_err();
    assert_eq!(err.field(), "");
    assert_eq!(
        err.kind(),
        &EncodeErrorKind::KeyTooLong {
            len: 12,
            max_len: 10
        }
    );
    let mut v = Vec::new();
    assert!(k.encode_into(&mut v).is_err());
    assert_eq!(Budget::LAYOUT.max_len, Some(10));
    assert_eq!(FixedBudget::LAYOUT.max_len, Some(12));
    assert_eq!(FixedBudget::LAYOUT.fixed_width, Some(12));
    let b = round_trip(&FixedBudget { id: 1, at: 2 });
    assert_rule(
        &b,
        &[&1u32.to_be_bytes()[..], &2u64.to_be_bytes()].concat(),
        "12",
    );
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Metric {
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    #[desc]
    kind: Kind,
    #[pad(4, fill = b'_')]
    code: Vec<u8>,
    ts: Option<u64>,
}

#[test]
fn layout_contents() {
    let l = Metric::LAYOUT;
    assert_eq!(l.name, "Metric");
    assert_eq!(l.fields.len(), 4);
    let names: Vec<_> = l.fields.iter().map(|f| f.name).collect();
    assert_eq!(names, ["host", "kind", "code", "ts"]);
    let tys: Vec<_> = l.fields.iter().map(|f| f.ty).collect();
    assert_eq!(tys, ["String", "Kind", "Vec<u8>", "Option<u64>"]);
    let encs: Vec<_> = l.fields.iter().map(|f| f.encoding).collect();
    assert_eq!(
        encs,
        [
            FieldEncoding::Sep,
            FieldEncoding::Natural,
            FieldEncoding::Pad { len: 4, fill: b'_' },
            FieldEncoding::Natural
        ]
    );
    let widths: Vec<_> = l.fields.iter().map(|f| f.width).collect();
    assert_eq!(widths, [None, Some(1), Some(4), None]);
    let descs: Vec<_> = l.fields.iter().map(|f| f.desc).collect();
    assert_eq!(descs, [false, true, false, false]);
    assert!(l.fields.iter().all(|f| f.hash_prefix.is_none()));
    assert_eq!(
        l.salt,
        Some(SaltLayout {
            buckets: 16,
            width: 1,
            through_field: 0,
            fields: &[0],
            kind: SaltKind::Phoenix
        })
    );
    assert_eq!(l.fixed_width, None);
    assert_eq!(l.max_len, None);

    assert_eq!(Ints::LAYOUT.salt, None);
    assert_eq!(Ints::LAYOUT.fields[9].ty, "i128");
    assert_eq!(Arr::LAYOUT.fields[0].ty, "[u8; 3]");
}

#[test]
fn describe_output() {
    let k = Metric {
        host: "web1".into(),
        kind: Kind::View,
        code: b"ab".to_vec(),
        ts: Some(17),
    };
    let b = round_trip(&k);
    // the salt of "web1\0"
    let salt = phoenix1(&escaped(b"web1"), 16);
    assert_eq!(b[0], salt);
    assert_eq!(
        Metric::describe(&b),
        format!(r#"salt={salt} host="web1" kind=View code=b"ab" ts=Some(17)"#)
    );
    let d = Metric::describe(&b[..7]);
    let want =
        format!(r#"salt={salt} host="web1" kind=View <cannot decode field `code` at byte 7"#);
    assert!(d.starts_with(&want), "{d}");
    let mut long = b.to_vec();
    long.push(b'!');
    let d = Metric::describe(&long);
    assert!(d.ends_with("<1 trailing byte(s): !>"), "{d}");

    let b = enc(&Outer {
        region: 1,
        inner: Inner {
            host: "h".into(),
            port: 2,
        },
        path: "p".into(),
        last: Inner {
            host: String::new(),
            port: 3,
        },
    });
    assert_eq!(
        Outer::describe(&b),
        r#"region=1 inner=Inner { host: "h", port: 2 } path="p" last=Inner { host: "", port: 3 }"#
    );
    let b = enc(&Pair(1, "x".into(), -1));
    assert_eq!(Pair::describe(&b), r#"0=1 1="x" 2=-1"#);
    assert_eq!(Kind::describe(&[2]), "code=Buy");
}

#[test]
fn encoded_len_matches_everywhere() {
    let keys: Vec<Box<dyn Fn() -> (usize, usize)>> = vec![
        Box::new(|| {
            let k = Desc {
                a: 1,
                i: 2,
                s: "\0\x01\x02".into(),
                o: Some(3),
                p: "x".into(),
                d: 4,
                c: "y".into(),
                last: "\0\0".into(),
            };
            (k.encoded_len(), k.to_row_key().unwrap().len())
        }),
        Box::new(|| {
            let k = Opts {
                a: Some(1),
                s: Some("\0".into()),
                last: Some("ab".into()),
            };
            (k.encoded_len(), k.to_row_key().unwrap().len())
        }),
        Box::new(|| {
            let k = HashedId {
                id: 1,
                small: 2,
                name: "\x01".into(),
                neg: 3,
            };
            (k.encoded_len(), k.to_row_key().unwrap().len())
        }),
        Box::new(|| {
            let k = Salt65536 { host: "x".into() };
            (k.encoded_len(), k.to_row_key().unwrap().len())
        }),
        Box::new(|| {
            let k = Separated {
                a: "\0".into(),
                b: "b".into(),
                raw: vec![1, 1, 1],
                tail: 1,
            };
            (k.encoded_len(), k.to_row_key().unwrap().len())
        }),
    ];
    for f in keys {
        let (a, b) = f();
        assert_eq!(a, b);
    }
}

// ---------------------------------------------------------------------------------------------
// combinations

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Combos {
    #[desc]
    inner: Inner,
    maybe: Option<Inner>,
    #[desc]
    #[sep]
    bx: Box<str>,
    #[desc]
    #[pad(3)]
    by: Bytes,
    #[pad(40)]
    wide: u128,
}

#[test]
fn combinations_desc_nested_box_bytes_wide_decimal() {
    // desc nested key: its bytes inverted; Some: 0x01 and the nested key; desc sep: the
    // escaped bytes inverted; desc pad: the filled bytes inverted; pad(40): 40 digits
    let rule = |k: &Combos| {
        let maybe = match &k.maybe {
            None => vec![0],
            Some(i) => [vec![1], enc(i)].concat(),
        };
        [
            inverted(&enc(&k.inner)),
            maybe,
            inverted(&escaped(k.bx.as_bytes())),
            inverted(&padded(&k.by, 3, 0)),
            format!("{:040}", k.wide).into_bytes(),
        ]
        .concat()
    };
    let k = Combos {
        inner: Inner {
            host: "h1".into(),
            port: 80,
        },
        maybe: Some(Inner {
            host: "x".into(),
            port: 1,
        }),
        bx: "a\x01".into(),
        by: Bytes::from_static(b"\x01"),
        wide: 42,
    };
    assert_rule(&round_trip(&k), &rule(&k), "every field by its rule");
    let k = Combos {
        inner: Inner {
            host: String::new(),
            port: 0,
        },
        maybe: None,
        bx: "".into(),
        by: Bytes::new(),
        wide: u128::MAX,
    };
    assert_rule(&round_trip(&k), &rule(&k), "every field by its rule, empty");
    // desc nested: descending host order
    assert_sorted(&[
        Combos {
            inner: Inner {
                host: "b".into(),
                port: 0,
            },
            ..k.clone()
        },
        Combos {
            inner: Inner {
                host: "a".into(),
                port: 0,
            },
            ..k.clone()
        },
        k.clone(),
    ]);
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct SaltLater {
    #[sep]
    tenant: String,
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    seq: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct SaltOverHash {
    #[hash_prefix(2)]
    #[sep]
    user: String,
    #[salt(buckets = 32)]
    #[desc]
    n: u16,
    #[hash_prefix(8)]
    ch: char,
}

#[test]
fn salted_prefix_through_a_later_field_and_a_hash_prefix() {
    // the salt hashes "t\0host1\0"; seq is not part of the salted prefix
    let prefix = [escaped(b"t"), escaped(b"host1")].concat();
    for seq in [7u32, 8] {
        let b = round_trip(&SaltLater {
            tenant: "t".into(),
            host: "host1".into(),
            seq,
        });
        let want = [&[phoenix1(&prefix, 16)][..], &prefix, &seq.to_be_bytes()].concat();
        assert_rule(&b, &want, "salt of the fields through host");
    }
    assert_eq!(SaltLater::LAYOUT.salt.map(|s| s.through_field), Some(1));
    // the salted prefix holds the hash prefix: md5("bob")[..2] "bob\0" !0x0007; then the
    // hashed char: md5("é")[..8] and the char
    let prefix = [
        md5_hex(b"bob", 2),
        escaped(b"bob"),
        inverted(&7u16.to_be_bytes()),
    ]
    .concat();
    let want = [
        vec![phoenix1(&prefix, 32)],
        prefix,
        md5_hex("é".as_bytes(), 8),
        u32::from('é').to_be_bytes().to_vec(),
    ]
    .concat();
    let b = round_trip(&SaltOverHash {
        user: "bob".into(),
        n: 7,
        ch: 'é',
    });
    assert_rule(&b, &want, "salt over hash");
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct BorrowedLayout<'a> {
    #[sep]
    name: &'a str,
    raw: &'a [u8],
}

#[test]
fn layout_type_names() {
    let tys: Vec<_> = Combos::LAYOUT.fields.iter().map(|f| f.ty).collect();
    assert_eq!(tys, ["Inner", "Option<Inner>", "Box<str>", "Bytes", "u128"]);
    assert_eq!(Combos::LAYOUT.fields[4].width, Some(40));
}

#[test]
fn layout_type_names_with_lifetimes() {
    let tys: Vec<_> = BorrowedLayout::LAYOUT.fields.iter().map(|f| f.ty).collect();
    assert_eq!(tys, ["&'a str", "&'a [u8]"]);
}

// ---------------------------------------------------------------------------------------------
// Fixed-width layouts: `encode_into` writes the whole key into the buffer's current chunk at
// once when it has room, and through the buffer otherwise; the bytes are the same either way.

#[derive(RowKey, Debug, Clone, PartialEq)]
struct FixedSalted {
    #[salt(buckets = 8)]
    id: u32,
    #[desc]
    at: u64,
    flag: bool,
    code: [u8; 3],
    #[reverse_ts]
    ts: i64,
}

/// A fixed-width nested key: written through the outer key's cursor, ascending and `#[desc]`.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct FixedPoint {
    x: i32,
    #[desc]
    y: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct FixedNested {
    a: u8,
    p: FixedPoint,
    #[desc]
    q: FixedPoint,
    #[hash_prefix(2)]
    h: u32,
}

/// `k` appended to every kind of buffer gives `to_row_key`'s bytes, which decode to `k`.
#[track_caller]
fn into_every_buffer<K>(k: &K) -> Vec<u8>
where
    K: RowKey + DecodeRowKeyOwned + PartialEq + Debug,
{
    use bytes::BufMut;
    let want = k.to_row_key().unwrap().to_vec();
    assert_eq!(Some(want.len()), K::LAYOUT.fixed_width);
    assert_eq!(&K::from_row_key(&want).unwrap(), k);
    // an empty vector (no chunk until it grows), room to spare, too little room
    for (before, spare) in [(0usize, 0usize), (2, 100), (2, 3), (2, want.len() - 1)] {
        let mut v = Vec::with_capacity(before + spare);
        v.extend(std::iter::repeat_n(9u8, before));
        k.encode_into(&mut v).unwrap();
        assert_eq!(&v[..before], &vec![9; before][..]);
        assert_eq!(
            &v[before..],
            &want[..],
            "{before} bytes before, {spare} spare"
        );
    }
    let mut b = bytes::BytesMut::new();
    k.encode_into(&mut b).unwrap();
    assert_eq!(&b[..], &want[..]);
    // a slice of exactly the key's size
    let mut exact = vec![0u8; want.len()];
    k.encode_into(&mut &mut exact[..]).unwrap();
    assert_eq!(exact, want);
    // two chunks, the first shorter than the key: written across both
    let (mut a, mut z) = ([0u8; 5], vec![0u8; want.len() - 5]);
    let mut chain = (&mut a[..]).chain_mut(&mut z[..]);
    k.encode_into(&mut chain).unwrap();
    assert_eq!([&a[..], &z[..]].concat(), want);
    want
}

#[test]
fn fixed_width_keys_into_every_kind_of_buffer() {
    let keys = [
        FixedSalted {
            id: 7,
            at: 0,
            flag: true,
            code: *b"abc",
            ts: 5,
        },
        FixedSalted {
            id: u32::MAX,
            at: u64::MAX,
            flag: false,
            code: [0, 1, 0xFF],
            ts: i64::MAX,
        },
    ];
    for k in keys {
        into_every_buffer(&k);
    }
    for (x, y, h) in [(0, 0, 0), (-1, 0xFFFF, u32::MAX), (i32::MIN, 1, 7)] {
        let (p, q) = (FixedPoint { x, y }, FixedPoint { x: !x, y: !y });
        let k = FixedNested { a: 3, p, q, h };
        let bytes = into_every_buffer(&k);
        // the nested keys' own bytes, the descending one inverted, then the hashed field
        let p = k.p.to_row_key().unwrap();
        let q: Vec<u8> = k.q.to_row_key().unwrap().iter().map(|b| !b).collect();
        assert_eq!(bytes[0], 3);
        assert_eq!(&bytes[1..7], &p[..]);
        assert_eq!(&bytes[7..13], &q[..]);
        assert_eq!(&bytes[15..], &h.to_be_bytes());
    }
    // an error leaves the buffer as it was and names the field
    let mut v = vec![1, 2];
    v.reserve(64);
    let bad = FixedSalted {
        id: 1,
        at: 1,
        flag: true,
        code: *b"xyz",
        ts: -1,
    };
    let e = bad.encode_into(&mut v).unwrap_err();
    assert_eq!(e.field(), "ts");
    assert_eq!(v, [1, 2]);
}
