//! Exact bytes of every field type and attribute, as known values (the formats stated in the
//! README's "Field types" and "Attributes" tables).
//!
//! Each `check` asserts the exact encoding, that `encoded_len` and `encode_into` agree with
//! `to_row_key`, and that `from_row_key` gives the value back.

mod common;

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

/// Exact bytes, `encoded_len`, and the round trip.
#[track_caller]
fn check<K>(k: &K, expected: &[u8])
where
    K: RowKey + DecodeRowKeyOwned + PartialEq + Debug,
{
    let bytes = enc(k);
    assert_eq!(hex(&bytes), hex(expected), "encoding of {k:?}");
    let back = K::from_row_key(&bytes).unwrap_or_else(|e| panic!("{k:?} must decode: {e}"));
    assert_eq!(&back, k);
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
    let mut want = vec![0x12, 0x12, 0x34, 0x12, 0x34, 0x56, 0x78];
    want.extend([1, 2, 3, 4, 5, 6, 7, 8]);
    want.extend(1..=16u8);
    want.push(0x7F); // i8 -1
    want.extend([0x7F, 0xFE]); // i16 -2
    want.extend([0x00, 0x00, 0x00, 0x00]); // i32::MIN
    want.extend([0x80, 0, 0, 0, 0, 0, 0, 1]); // i64 1
    want.push(0x80);
    want.extend([0; 15]); // i128 0
    check(&k, &want);
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
    check(&I8(i8::MIN), &[0x00]);
    check(&I8(-1), &[0x7F]);
    check(&I8(0), &[0x80]);
    check(&I8(1), &[0x81]);
    check(&I8(i8::MAX), &[0xFF]);
    check(&I64(i64::MIN), &[0; 8]);
    check(&I64(i64::MAX), &[0xFF; 8]);
    check(&I64(-1), &[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
    check(&U16(0), &[0, 0]);
    check(&U16(u16::MAX), &[0xFF, 0xFF]);
    check(&I128(i128::MIN), &[0; 16]);
    check(&I128(i128::MAX), &[0xFF; 16]);
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
    check(
        &BoolChar {
            flag: false,
            c: 'A',
        },
        &[0x00, 0, 0, 0, 0x41],
    );
    check(
        &BoolChar {
            flag: true,
            c: '\u{1F600}',
        },
        &[0x01, 0x00, 0x01, 0xF6, 0x00],
    );
    check(
        &BoolChar {
            flag: true,
            c: char::MAX,
        },
        &[0x01, 0x00, 0x10, 0xFF, 0xFF],
    );
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

#[track_caller]
fn check_f64(v: f64, expected: u64) {
    let b = enc(&F64(v));
    assert_eq!(hex(&b), hex(&expected.to_be_bytes()), "encoding of {v:?}");
    let back = F64::from_row_key(&b).unwrap();
    assert_eq!(
        back.0.to_bits(),
        v.to_bits(),
        "bit-exact round trip of {v:?}"
    );
}

#[track_caller]
fn check_f32(v: f32, expected: u32) {
    let b = enc(&F32(v));
    assert_eq!(hex(&b), hex(&expected.to_be_bytes()), "encoding of {v:?}");
    let back = F32::from_row_key(&b).unwrap();
    assert_eq!(
        back.0.to_bits(),
        v.to_bits(),
        "bit-exact round trip of {v:?}"
    );
}

#[test]
fn floats_total_order_transform() {
    // positive (sign bit clear): sign bit flipped; negative: all bits flipped.
    check_f64(0.0, 0x8000_0000_0000_0000);
    check_f64(-0.0, 0x7FFF_FFFF_FFFF_FFFF);
    check_f64(1.0, 0xBFF0_0000_0000_0000);
    check_f64(-1.0, 0x400F_FFFF_FFFF_FFFF);
    check_f64(f64::INFINITY, 0xFFF0_0000_0000_0000);
    check_f64(f64::NEG_INFINITY, 0x000F_FFFF_FFFF_FFFF);
    check_f64(f64::from_bits(0x7FF8_0000_0000_0000), 0xFFF8_0000_0000_0000);
    check_f64(f64::from_bits(0xFFF8_0000_0000_0000), 0x0007_FFFF_FFFF_FFFF);
    check_f64(f64::from_bits(0x7FF0_0000_0000_0001), 0xFFF0_0000_0000_0001); // signalling NaN
    check_f64(f64::from_bits(1), 0x8000_0000_0000_0001); // smallest subnormal
    check_f32(0.0, 0x8000_0000);
    check_f32(-0.0, 0x7FFF_FFFF);
    check_f32(1.5, 0xBFC0_0000);
    check_f32(-1.5, 0x403F_FFFF);
    check_f32(f32::INFINITY, 0xFF80_0000);
    check_f32(f32::NEG_INFINITY, 0x007F_FFFF);
    check_f32(f32::NAN, 0xFFC0_0000);

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
    check(
        &Arr {
            id: [0x00, 0xFF, 0x01],
            tag: 7,
        },
        &[0x00, 0xFF, 0x01, 0x07],
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
    check(
        &LastString {
            id: 1,
            s: "héllo\0\x01".into(),
        },
        b"\x01h\xC3\xA9llo\x00\x01",
    );
    check(
        &LastString {
            id: 1,
            s: String::new(),
        },
        b"\x01",
    );
    check(
        &LastBoxStr {
            id: 2,
            s: "ab".into(),
        },
        b"\x02ab",
    );
    check(
        &LastVec {
            id: 3,
            b: vec![0x00, 0x01, 0xFF],
        },
        b"\x03\x00\x01\xFF",
    );
    check(
        &LastBytes {
            id: 4,
            b: Bytes::from_static(b"\xFFx\x00"),
        },
        b"\x04\xFFx\x00",
    );

    let k = LastStr { id: 5, s: "a\0b" };
    let b = enc(&k);
    assert_eq!(b, b"\x05a\x00b");
    assert_eq!(LastStr::from_row_key(&b).unwrap(), k);
    let k = LastSlice {
        id: 6,
        b: b"\x00\xFF",
    };
    let b = enc(&k);
    assert_eq!(b, b"\x06\x00\xFF");
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
    check(
        &Opts {
            a: None,
            s: None,
            last: None,
        },
        &[0x00, 0x00, 0x00],
    );
    check(
        &Opts {
            a: Some(0x0102),
            s: Some("x".into()),
            last: Some("yz".into()),
        },
        b"\x01\x01\x02\x01x\x00\x01yz",
    );
    check(
        &Opts {
            a: Some(0),
            s: Some(String::new()),
            last: Some(String::new()),
        },
        b"\x01\x00\x00\x01\x00\x01",
    );
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
    check(&Kind::Click, &[0]);
    check(&Kind::View, &[1]);
    check(&Kind::Buy, &[2]);
    check(&Explicit::Low, &[10]);
    check(&Explicit::High, &[200]);
    check(&Wide::X, &[0x00, 0x01]);
    check(&Wide::Y, &[0x12, 0x34]);
    check(
        &Event {
            uid: 7,
            kind: Kind::Buy,
            level: Explicit::High,
            wide: Wide::Y,
        },
        &[0, 0, 0, 7, 2, 200, 0x12, 0x34],
    );
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
    check(&inner, b"h1\x00\x00\x50");
    check(
        &Outer {
            region: 3,
            inner: inner.clone(),
            path: "/a".into(),
            last: Inner {
                host: String::new(),
                port: 0xFFFF,
            },
        },
        b"\x03h1\x00\x00\x50/a\x00\x00\xFF\xFF",
    );
    check(&Pair(0x0102, "x".into(), -128), b"\x01\x02x\x00\x00");
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
    check(
        &Padded {
            name: "abc".into(),
            code: "XY".into(),
            n: 1,
            raw: vec![0xFF],
        },
        b"abc\x00\x00\x00XY   000001\xFF\x00\x00",
    );
    check(
        &Padded {
            name: "abcdef".into(),
            code: "VWXYZ".into(),
            n: 999_999,
            raw: vec![1, 0, 2],
        },
        b"abcdefVWXYZ999999\x01\x00\x02",
    );
    // content with fill bytes inside (not at the end) is fine
    check(
        &Padded {
            name: "a\0b".into(),
            code: "a b".into(),
            n: 0,
            raw: Vec::new(),
        },
        b"a\x00b\x00\x00\x00a b  000000\x00\x00\x00",
    );
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
    check(&Decimal { n: 1 }, b"000001");
    check(&Decimal { n: 42 }, b"000042");
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
    check(
        &Separated {
            a: "host1".into(),
            b: "x".into(),
            raw: vec![],
            tail: 9,
        },
        b"host1\x00x|\x00\x09",
    );
    check(
        &Separated {
            a: "a\0b\x01c".into(),
            b: String::new(),
            raw: vec![0x00, 0x01, 0x02, 0xFF],
            tail: 0,
        },
        b"a\x01\x00b\x01\x01c\x00|\x01\x00\x01\x01\x02\xFF\x00\x00",
    );
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
    let ts = 1_700_000_000_000i64;
    let mut want = vec![1];
    want.extend((i64::MAX - ts).to_be_bytes());
    want.extend((i64::MAX - 5).to_be_bytes());
    check(
        &Latest {
            host: 1,
            ts,
            ts_u: 5,
        },
        &want,
    );
    let mut want = vec![1];
    want.extend([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
    want.extend([0; 8]);
    check(
        &Latest {
            host: 1,
            ts: 0,
            ts_u: i64::MAX as u64,
        },
        &want,
    );
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

#[test]
fn desc_inverts_bytes() {
    check(
        &Desc {
            a: 0x1234,
            i: -1,
            s: "a".into(),
            o: None,
            p: "ab".into(),
            d: 42,
            c: "ab".into(),
            last: "ab\0".into(),
        },
        &[
            0xED, 0xCB, // !0x1234
            0x80, // !0x7F
            0x9E, 0xFF, // !'a', !0x00
            0xFF, // None
            0x9E, 0x9D, 0xFF, 0xFF, // !"ab\0\0"
            0xCF, 0xCB, 0xCD, // !"042"
            0x9E, 0x9D, 0x83, // !"ab|"
            0x9E, 0x9D, 0xFE, 0xFF, 0xFF, // last field: escaped + terminated, inverted
        ],
    );
    check(
        &Desc {
            a: 0,
            i: 0,
            s: "\x01".into(),
            o: Some(5),
            p: String::new(),
            d: 0,
            c: String::new(),
            last: String::new(),
        },
        &[
            0xFF, 0xFF, 0x7F, 0xFE, 0xFE, 0xFF, // !(01 01 00)
            0xFE, 0xFA, // Some(5)
            0xFF, 0xFF, 0xFF, 0xFF, 0xCF, 0xCF, 0xCF, 0x83,
            0xFF, // empty last: terminator only
        ],
    );
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
    // Phoenix SaltingUtil over the whole key: "host1" -> 8, "host12" -> 6 (16 buckets)
    check(
        &SaltField {
            host: "host1".into(),
        },
        b"\x08host1",
    );
    check(
        &SaltField {
            host: "host12".into(),
        },
        b"\x06host12",
    );
    check(
        &SaltWhole {
            host: "host1".into(),
        },
        b"\x08host1",
    );
    check(
        &SaltWhole {
            host: "host12".into(),
        },
        b"\x06host12",
    );
    check(&Salt20 { s: "a".into() }, b"\x08a");

    // the salted prefix is the encoded bytes: "host12\0" -> 10, "host1\0" -> 8
    check(
        &SaltSep {
            host: "host12".into(),
            port: 80,
        },
        b"\x0Ahost12\x00\x00\x50",
    );
    check(
        &SaltSep {
            host: "host1".into(),
            port: 81,
        },
        b"\x08host1\x00\x00\x51",
    );
    // whole-key salt hashes every field: "host1\0\0\x50" -> 8
    check(
        &SaltWhole2 {
            host: "host1".into(),
            port: 80,
        },
        b"\x08host1\x00\x00\x50",
    );
    // the README's example key: seller 42 (8 bytes BE) -> salt 5
    let ts = 1_700_000_000_000i64;
    let mut want = vec![5, 0, 0, 0, 0, 0, 0, 0, 42];
    want.extend((i64::MAX - ts).to_be_bytes());
    want.extend(b"A-17\0");
    check(
        &OrderBySeller {
            seller_id: 42,
            created_ms: ts,
            order_no: "A-17".into(),
        },
        &want,
    );

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
    // "host1": 1000 buckets -> 296 = 0x0128; 65536 buckets -> 38952 = 0x9828
    check(
        &Salt1000 {
            host: "host1".into(),
        },
        b"\x01\x28host1",
    );
    check(
        &Salt65536 {
            host: "host1".into(),
        },
        b"\x98\x28host1",
    );
    // 12345 (u32 BE) -> 66
    check(
        &Salt1000Id { id: 12345 },
        &[0x00, 0x42, 0x00, 0x00, 0x30, 0x39],
    );
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
    check(
        &TimeBucket {
            ts: 1_700_000_000_003,
            host: "h".into(),
        },
        &[
            3, 0x00, 0x00, 0x01, 0x8B, 0xCF, 0xE5, 0x68, 0x03, b'h', 0x00,
        ],
    );
    for ts in [0u64, 7, 8, 15, u64::MAX] {
        let b = enc(&TimeBucket {
            ts,
            host: String::new(),
        });
        assert_eq!(u64::from(b[0]), ts % 8);
    }
    check(&ModuloWhole { id: 301 }, &[0, 1, 0, 0, 0, 0, 0, 0, 1, 0x2D]);
    check(
        &ModuloWhole { id: 299 },
        &[0x01, 0x2B, 0, 0, 0, 0, 0, 0, 1, 0x2B],
    );
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
    check(
        &HashedUser {
            user: "foo0001".into(),
        },
        b"95f18cfoo0001",
    );
    let mut want = Vec::new();
    want.extend(b"7e0535"); // md5(00 00 00 00 00 00 00 2A)
    want.extend(42u64.to_be_bytes());
    want.extend([0x67, 0x9E, 0x19, 0x23]); // md5(00 00 00 07), raw
    want.extend(7u32.to_be_bytes());
    want.extend(b"fd8689cb80113b68be586d8b5a6aa06a"); // md5("user42")
    want.extend(b"user42\0");
    // md5 of the Java two's-complement bytes of -5, raw, all 16 bytes
    want.extend([
        0xAC, 0x4F, 0x80, 0x3B, 0x46, 0xE3, 0x95, 0x51, 0x7C, 0xB5, 0x5F, 0xA4, 0xD0, 0x01, 0x07,
        0x25,
    ]);
    want.extend([0x7F, 0xFF, 0xFF, 0xFB]); // -5 sign-flipped
    check(
        &HashedId {
            id: 42,
            small: 7,
            name: "user42".into(),
            neg: -5,
        },
        &want,
    );
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
    check(
        &Reversed {
            a: 0x0102_0304,
            phone: 13_812_345_678,
            name: "abé".into(),
            arr: [1, 2, 3],
            s: -2,
        },
        b"\x04\x03\x02\x01\
          87654321831\
          \xC3\xA9ba\x00\x00\x00\x00\
          \x03\x02\x01\
          \xFE\x7F",
    );
    // a short number is zero-padded before reversal: 42 -> "00000000042" -> "24000000000"
    let k = Reversed {
        a: 0,
        phone: 42,
        name: String::new(),
        arr: [0; 3],
        s: 0,
    };
    let b = enc(&k);
    assert_eq!(&b[4..15], b"24000000000");
    assert_eq!(Reversed::from_row_key(&b).unwrap(), k);
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
    check(
        &JavaField {
            a: -1,
            b: -1,
            flag: true,
        },
        &[0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF],
    );
    check(
        &JavaField {
            a: 1,
            b: 1,
            flag: false,
        },
        &[0, 0, 0, 1, 0x80, 0, 0, 1, 0x00],
    );
    let mut want = vec![0xFF, 0xFE]; // i16 -2
    want.extend(i64::MIN.to_be_bytes());
    want.extend(5u32.to_be_bytes());
    want.extend((-1.0f64).to_bits().to_be_bytes()); // raw IEEE bits
    want.extend(1.5f32.to_bits().to_be_bytes());
    want.push(0xFF);
    want.extend(b"s\0");
    want.extend([0x01, 0xFF, 0xFF, 0xFF, 0xF9]); // Some(-7)
    check(
        &JavaAll {
            i: -2,
            l: i64::MIN,
            u: 5,
            f: -1.0,
            g: 1.5,
            flag: true,
            s: "s".into(),
            o: Some(-7),
        },
        &want,
    );
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
    check(
        &Budget {
            id: 1,
            name: "abcde".into(),
        },
        b"\x00\x00\x00\x01abcde\x00",
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
    check(
        &FixedBudget { id: 1, at: 2 },
        &[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2],
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
    let b = enc(&k);
    // "web1\0" -> 2
    assert_eq!(b[0], 2);
    assert_eq!(Metric::from_row_key(&b).unwrap(), k);
    assert_eq!(
        Metric::describe(&b),
        r#"salt=2 host="web1" kind=View code=b"ab" ts=Some(17)"#
    );
    let d = Metric::describe(&b[..7]);
    assert!(
        d.starts_with(r#"salt=2 host="web1" kind=View <cannot decode field `code` at byte 7"#),
        "{d}"
    );
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
    let mut want = vec![!b'h', !b'1', 0xFF, 0xFF, 0xAF]; // desc Inner { "h1", 80 }
    want.extend(b"\x01x\x00\x00\x01"); // Some(Inner { "x", 1 })
    want.extend([!b'a', 0xFE, 0xFE, 0xFF]); // desc "a\x01" escaped
    want.extend([0xFE, 0xFF, 0xFF]); // desc [0x01] padded to 3
    want.extend(b"0000000000000000000000000000000000000042");
    check(
        &Combos {
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
        },
        &want,
    );
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
    let b = enc(&k);
    assert_eq!(&b[..6], [0xFF, 0xFF, 0xFF, 0x00, 0xFF, 0xFF]);
    assert_eq!(&b[6..], b"\xFF\xFF0340282366920938463463374607431768211455");
    assert_eq!(Combos::from_row_key(&b).unwrap(), k);
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
    // "t\0host1\0" -> 4; seq is not part of the salted prefix
    check(
        &SaltLater {
            tenant: "t".into(),
            host: "host1".into(),
            seq: 7,
        },
        b"\x04t\x00host1\x00\x00\x00\x00\x07",
    );
    let a = enc(&SaltLater {
        tenant: "t".into(),
        host: "host1".into(),
        seq: 8,
    });
    assert_eq!(a[0], 4);
    assert_eq!(SaltLater::LAYOUT.salt.map(|s| s.through_field), Some(1));
    // "9f" (md5("bob")) "bob\0" !0x0007 -> 18 of 32; md5("é") = 66ddcd97…
    let mut want = vec![18];
    want.extend(b"9fbob\x00\xFF\xF8");
    want.extend(b"66ddcd97");
    want.extend([0, 0, 0, 0xE9]);
    check(
        &SaltOverHash {
            user: "bob".into(),
            n: 7,
            ch: 'é',
        },
        &want,
    );
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
