//! Error audit: every `EncodeErrorKind` and `DecodeErrorKind` variant is produced here, with its
//! field name, byte offset and Display message checked.

use crate::common;

use std::fmt::Debug;

use rowkey::{
    DecodeError, DecodeErrorKind, DecodeRowKeyOwned, EncodeError, EncodeErrorKind, RowKey,
};

use common::{Budget, Salt1000, SaltField, SaltWhole, TimeBucket};

/// Decode `bytes` as `K`, expecting an error.
#[track_caller]
fn decode_err<K>(bytes: &[u8]) -> DecodeError
where
    K: RowKey + DecodeRowKeyOwned + Debug,
{
    match K::from_row_key(bytes) {
        Ok(v) => panic!("{bytes:02X?} must not decode, got {v:?}"),
        Err(e) => e,
    }
}

/// The error's field, offset, kind and full message.
#[track_caller]
fn assert_decode(e: &DecodeError, field: &str, offset: usize, kind: DecodeErrorKind, msg: &str) {
    assert_eq!(e.field(), field, "field of {e:?}");
    assert_eq!(e.offset(), offset, "offset of {e:?}");
    assert_eq!(e.kind(), &kind, "kind of {e:?}");
    assert_eq!(e.to_string(), msg);
}

#[track_caller]
fn assert_encode(e: &EncodeError, field: &str, kind: EncodeErrorKind, msg: &str) {
    assert_eq!(e.field(), field, "field of {e:?}");
    assert_eq!(e.kind(), &kind, "kind of {e:?}");
    assert_eq!(e.to_string(), msg);
}

#[track_caller]
fn encode_err<K: RowKey + Debug>(k: &K) -> EncodeError {
    let e = match k.to_row_key() {
        Ok(b) => panic!("{k:?} must not encode, got {b:02X?}"),
        Err(e) => e,
    };
    let mut v = Vec::new();
    assert_eq!(k.encode_into(&mut v).unwrap_err(), e, "encode_into agrees");
    e
}

// ---------------------------------------------------------------------------------------------
// key types

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Host {
    #[pad(4)]
    name: String,
    port: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Padding {
    #[pad(3)]
    small: u8,
    #[pad(5, fill = b' ')]
    code: String,
    #[reverse]
    #[pad(4)]
    rev: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Piped {
    id: u8,
    #[sep(b'|')]
    path: String,
    #[sep(b'|')]
    raw: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Timed {
    host: u8,
    #[reverse_ts]
    ts: i64,
    #[reverse_ts]
    small_ts: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Inner {
    #[sep]
    host: String,
    #[pad(2)]
    dc: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Outer {
    region: u8,
    inner: Inner,
    tail: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Deep {
    id: u8,
    outer: Outer,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct MaybeInner {
    id: u8,
    inner: Option<Inner>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Two {
    a: u32,
    b: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Flags {
    id: u16,
    on: bool,
    maybe: Option<u8>,
    #[desc]
    off: bool,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct JavaFlag {
    #[rowkey(java)]
    on: bool,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Named {
    id: u8,
    #[sep]
    name: String,
    #[desc]
    #[sep]
    back: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Text {
    id: u8,
    #[pad(3)]
    fixed: String,
    last: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Letter {
    id: u8,
    c: char,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Kind {
    Click,
    View,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
#[repr(u16)]
enum Wide {
    A = 1,
    B = 0x1234,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    uid: u32,
    kind: Kind,
    wide: Wide,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct SaltMid {
    #[sep]
    tenant: String,
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    seq: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    id: u8,
    #[hash_prefix(4)]
    #[sep]
    user: String,
    #[hash_prefix(2, raw)]
    n: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    #[sep]
    name: &'a str,
    #[sep]
    raw: &'a [u8],
}

// ---------------------------------------------------------------------------------------------
// encode errors

#[test]
fn encode_too_long() {
    let e = encode_err(&Host {
        name: "host12".into(),
        port: 80,
    });
    assert_encode(
        &e,
        "name",
        EncodeErrorKind::TooLong { len: 6, max: 4 },
        "cannot encode field `name`: content is 6 bytes, longer than #[pad(4)] (it would have to be truncated)",
    );
    // #[reverse] #[pad(4)]
    let e = encode_err(&Padding {
        small: 0,
        code: String::new(),
        rev: "abcde".into(),
    });
    assert_encode(
        &e,
        "rev",
        EncodeErrorKind::TooLong { len: 5, max: 4 },
        "cannot encode field `rev`: content is 5 bytes, longer than #[pad(4)] (it would have to be truncated)",
    );
    // 2 characters but 4 bytes: the width is in bytes
    assert!(Padding {
        small: 0,
        code: String::new(),
        rev: "éé".into(),
    }
    .to_row_key()
    .is_ok());
}

#[test]
fn encode_too_many_digits() {
    #[derive(RowKey, Debug)]
    struct Narrow {
        #[pad(2)]
        n: u32,
    }
    assert!(Narrow { n: 99 }.to_row_key().is_ok());
    let e = encode_err(&Narrow { n: 100 });
    assert_encode(
        &e,
        "n",
        EncodeErrorKind::TooManyDigits {
            value: 100,
            digits: 2,
        },
        "cannot encode field `n`: value 100 does not fit in #[pad(2)] decimal digits",
    );
}

#[test]
fn encode_ends_with_fill() {
    let e = encode_err(&Host {
        name: "ab\0".into(),
        port: 1,
    });
    assert_encode(
        &e,
        "name",
        EncodeErrorKind::EndsWithFill { fill: 0 },
        "cannot encode field `name`: content ends with the fill byte 0x00, so decoding could not tell it from padding",
    );
    let e = encode_err(&Padding {
        small: 0,
        code: "ab ".into(),
        rev: String::new(),
    });
    assert_encode(
        &e,
        "code",
        EncodeErrorKind::EndsWithFill { fill: b' ' },
        "cannot encode field `code`: content ends with the fill byte 0x20, so decoding could not tell it from padding",
    );
    // #[reverse]: a leading fill byte ends up last after reversal, and the error says so
    let e = encode_err(&Padding {
        small: 0,
        code: String::new(),
        rev: "\0ab".into(),
    });
    assert_encode(
        &e,
        "rev",
        EncodeErrorKind::StartsWithFill { fill: 0 },
        "cannot encode field `rev`: content starts with the fill byte 0x00, which #[reverse] stores last, so decoding could not tell it from padding",
    );
}

#[test]
fn encode_contains_separator() {
    let e = encode_err(&Piped {
        id: 1,
        path: "a/b|c".into(),
        raw: vec![],
    });
    assert_encode(
        &e,
        "path",
        EncodeErrorKind::ContainsSeparator { sep: b'|', at: 3 },
        "cannot encode field `path`: content contains the separator byte 0x7C at content offset 3",
    );
    let e = encode_err(&Piped {
        id: 1,
        path: String::new(),
        raw: vec![b'|'],
    });
    assert_encode(
        &e,
        "raw",
        EncodeErrorKind::ContainsSeparator { sep: b'|', at: 0 },
        "cannot encode field `raw`: content contains the separator byte 0x7C at content offset 0",
    );
}

#[test]
fn encode_timestamp_out_of_range() {
    let e = encode_err(&Timed {
        host: 1,
        ts: -1,
        small_ts: 0,
    });
    assert_encode(
        &e,
        "ts",
        EncodeErrorKind::TimestampOutOfRange { value: -1 },
        "cannot encode field `ts`: #[reverse_ts] needs a timestamp in 0..=i64::MAX, got -1",
    );
    let e = encode_err(&Timed {
        host: 1,
        ts: i64::MIN,
        small_ts: 0,
    });
    assert_eq!(
        e.kind(),
        &EncodeErrorKind::TimestampOutOfRange {
            value: i128::from(i64::MIN)
        }
    );
    #[derive(RowKey, Debug)]
    struct Unsigned {
        id: u8,
        #[reverse_ts]
        ts: u64,
    }
    let e = encode_err(&Unsigned {
        id: 0,
        ts: u64::MAX,
    });
    assert_encode(
        &e,
        "ts",
        EncodeErrorKind::TimestampOutOfRange {
            value: i128::from(u64::MAX),
        },
        "cannot encode field `ts`: #[reverse_ts] needs a timestamp in 0..=i64::MAX, got 18446744073709551615",
    );
}

#[test]
fn encode_key_too_long() {
    let k = Budget {
        id: 1,
        name: "abcdefg".into(),
    };
    let e = encode_err(&k);
    assert_encode(
        &e,
        "",
        EncodeErrorKind::KeyTooLong {
            len: 12,
            max_len: 10,
        },
        "cannot encode key `Budget`: encoded key is 12 bytes, over max_len = 10",
    );
    assert_eq!((e.key(), e.variant()), ("Budget", None));
    // exactly at the budget is fine
    assert_eq!(
        Budget {
            id: 1,
            name: "abcde".into()
        }
        .to_row_key()
        .unwrap()
        .len(),
        10
    );
}

#[test]
fn encode_nested_field_paths() {
    let e = encode_err(&Outer {
        region: 1,
        inner: Inner {
            host: "h".into(),
            dc: "abc".into(),
        },
        tail: 0,
    });
    assert_encode(
        &e,
        "inner.dc",
        EncodeErrorKind::TooLong { len: 3, max: 2 },
        "cannot encode field `inner.dc`: content is 3 bytes, longer than #[pad(2)] (it would have to be truncated)",
    );
    let e = encode_err(&Deep {
        id: 0,
        outer: Outer {
            region: 1,
            inner: Inner {
                host: "h".into(),
                dc: "a\0".into(),
            },
            tail: 0,
        },
    });
    assert_eq!(e.field(), "outer.inner.dc");
    assert!(e
        .to_string()
        .starts_with("cannot encode field `outer.inner.dc`: content ends with the fill byte"));
    let e = encode_err(&MaybeInner {
        id: 0,
        inner: Some(Inner {
            host: String::new(),
            dc: "xyz".into(),
        }),
    });
    assert_eq!(e.field(), "inner.dc");
}

#[test]
fn encode_error_inside_salted_prefix_names_the_field() {
    #[derive(RowKey, Debug)]
    struct SaltedPad {
        #[salt(buckets = 16)]
        #[pad(2)]
        host: String,
        id: u8,
    }
    let e = encode_err(&SaltedPad {
        host: "abc".into(),
        id: 0,
    });
    assert_eq!(e.field(), "host");
    assert_eq!(e.kind(), &EncodeErrorKind::TooLong { len: 3, max: 2 });
}

// ---------------------------------------------------------------------------------------------
// decode errors

#[test]
fn decode_truncated() {
    let e = decode_err::<Two>(&[0, 0, 0, 1, 0, 0, 0]);
    assert_decode(
        &e,
        "b",
        7,
        DecodeErrorKind::Truncated {
            needed: 5,
            available: 3,
        },
        "cannot decode field `b` at byte 7: key ends early: needs 5 more byte(s) (the field has 3)",
    );
    let e = decode_err::<Two>(&[]);
    assert_decode(
        &e,
        "a",
        0,
        DecodeErrorKind::Truncated {
            needed: 4,
            available: 0,
        },
        "cannot decode field `a` at byte 0: key ends early: needs 4 more byte(s) (the field has 0)",
    );
    // padded string
    let e = decode_err::<Host>(b"ab");
    assert_decode(
        &e,
        "name",
        2,
        DecodeErrorKind::Truncated {
            needed: 2,
            available: 2,
        },
        "cannot decode field `name` at byte 2: key ends early: needs 2 more byte(s) (the field has 2)",
    );
    // decimal digits
    let e = decode_err::<Padding>(b"01");
    assert_eq!((e.field(), e.offset()), ("small", 2));
    // Option presence byte
    let e = decode_err::<Flags>(&[0, 1, 1]);
    assert_decode(
        &e,
        "maybe",
        3,
        DecodeErrorKind::Truncated {
            needed: 1,
            available: 0,
        },
        "cannot decode field `maybe` at byte 3: key ends early: needs 1 more byte(s) (the field has 0)",
    );
    // Option payload
    let e = decode_err::<Flags>(&[0, 1, 1, 1]);
    assert_eq!((e.field(), e.offset()), ("maybe", 4));
    // salt
    let e = decode_err::<SaltWhole>(&[]);
    assert_decode(
        &e,
        "salt",
        0,
        DecodeErrorKind::Truncated {
            needed: 1,
            available: 0,
        },
        "cannot decode field `salt` at byte 0: key ends early: needs 1 more byte(s) (the field has 0)",
    );
    let e = decode_err::<Salt1000>(&[1]);
    assert_eq!((e.field(), e.offset()), ("salt", 1));
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::Truncated {
            needed: 1,
            available: 1
        }
    );
    // hash prefix: 2 of 4 hex characters
    let e = decode_err::<Hashed>(b"\x01ab");
    assert_decode(
        &e,
        "user",
        3,
        DecodeErrorKind::Truncated {
            needed: 2,
            available: 2,
        },
        "cannot decode field `user` at byte 3: key ends early: needs 2 more byte(s) (the field has 2)",
    );
    // nested
    let e = decode_err::<Outer>(b"\x01h\x00a");
    assert_decode(
        &e,
        "inner.dc",
        4,
        DecodeErrorKind::Truncated {
            needed: 1,
            available: 1,
        },
        "cannot decode field `inner.dc` at byte 4: key ends early: needs 1 more byte(s) (the field has 1)",
    );
    let e = decode_err::<Outer>(b"\x01h\x00ab\x00");
    assert_eq!((e.field(), e.offset()), ("tail", 6));
}

#[test]
fn decode_trailing_bytes() {
    let e = decode_err::<Two>(&[0; 14]);
    assert_decode(
        &e,
        "",
        12,
        DecodeErrorKind::TrailingBytes { count: 2 },
        "cannot decode key `Two` at byte 12: 2 unexpected byte(s) after the last field",
    );
    // a whole-key error has no field: the key type is named (issue 23)
    assert_eq!((e.key(), e.variant()), ("Two", None));
    let e = decode_err::<Kind>(&[0, 0]);
    assert_decode(
        &e,
        "",
        1,
        DecodeErrorKind::TrailingBytes { count: 1 },
        "cannot decode key `Kind` at byte 1: 1 unexpected byte(s) after the last field",
    );
}

#[test]
fn decode_invalid_byte() {
    // bool 0x02
    let e = decode_err::<Flags>(&[0, 1, 2, 0, 0xFF]);
    assert_decode(
        &e,
        "on",
        2,
        DecodeErrorKind::InvalidByte {
            byte: 0x02,
            expected: "a boolean 0x00 or 0x01",
        },
        "cannot decode field `on` at byte 2: invalid byte 0x02, expected a boolean 0x00 or 0x01",
    );
    // Option presence 0x07
    let e = decode_err::<Flags>(&[0, 1, 1, 7, 5, 0xFF]);
    assert_decode(
        &e,
        "maybe",
        3,
        DecodeErrorKind::InvalidByte {
            byte: 0x07,
            expected: "an Option presence byte 0x00 or 0x01",
        },
        "cannot decode field `maybe` at byte 3: invalid byte 0x07, expected an Option presence byte 0x00 or 0x01",
    );
    // desc bool: the stored byte is reported
    let e = decode_err::<Flags>(&[0, 1, 1, 0, 0xFD]);
    assert_decode(
        &e,
        "off",
        4,
        DecodeErrorKind::InvalidByte {
            byte: 0xFD,
            expected: "a boolean 0x00 or 0x01",
        },
        "cannot decode field `off` at byte 4: invalid byte 0xFD, expected a boolean 0x00 or 0x01",
    );
    // Java boolean 0x01
    let e = decode_err::<JavaFlag>(&[0x01]);
    assert_decode(
        &e,
        "on",
        0,
        DecodeErrorKind::InvalidByte {
            byte: 0x01,
            expected: "a Java boolean 0x00 or 0xFF",
        },
        "cannot decode field `on` at byte 0: invalid byte 0x01, expected a Java boolean 0x00 or 0xFF",
    );
    // bad escape: 0x01 must be followed by 0x00 or 0x01
    let e = decode_err::<Named>(b"\x07ab\x01\x05\x00\xFF");
    assert_decode(
        &e,
        "name",
        4,
        DecodeErrorKind::InvalidByte {
            byte: 0x05,
            expected: "an escaped 0x00 or 0x01 after the escape byte 0x01",
        },
        "cannot decode field `name` at byte 4: invalid byte 0x05, expected an escaped 0x00 or 0x01 after the escape byte 0x01",
    );
    // bad escape in a desc field: stored 0xFE (escape) then 0x10
    let e = decode_err::<Named>(b"\x07\x00x\xFE\x10\xFF");
    assert_eq!((e.field(), e.offset()), ("back", 4));
    assert!(matches!(
        e.kind(),
        DecodeErrorKind::InvalidByte { byte: 0x10, .. }
    ));
    // decimal digit
    let e = decode_err::<Padding>(b"2a5     \0\0\0\0");
    assert_decode(
        &e,
        "small",
        1,
        DecodeErrorKind::InvalidByte {
            byte: b'a',
            expected: "an ASCII decimal digit",
        },
        "cannot decode field `small` at byte 1: invalid byte 0x61, expected an ASCII decimal digit",
    );
}

#[test]
fn decode_invalid_utf8() {
    let e = decode_err::<Text>(b"\x01a\xFF\0ok");
    assert_decode(
        &e,
        "fixed",
        1,
        DecodeErrorKind::InvalidUtf8,
        "cannot decode field `fixed` at byte 1: content is not valid UTF-8",
    );
    let e = decode_err::<Text>(b"\x01abcok\xC3");
    assert_decode(
        &e,
        "last",
        4,
        DecodeErrorKind::InvalidUtf8,
        "cannot decode field `last` at byte 4: content is not valid UTF-8",
    );
    let e = decode_err::<Named>(b"\x01\xC0\x80\x00\xFF");
    assert_decode(
        &e,
        "name",
        1,
        DecodeErrorKind::InvalidUtf8,
        "cannot decode field `name` at byte 1: content is not valid UTF-8",
    );
    // reversed padded text
    let e = decode_err::<Padding>(b"000     \xA9\xC3a\0");
    assert_eq!((e.field(), e.offset()), ("rev", 8));
    assert_eq!(e.kind(), &DecodeErrorKind::InvalidUtf8);
}

#[test]
fn decode_invalid_char() {
    let e = decode_err::<Letter>(&[9, 0x00, 0x11, 0x00, 0x00]);
    assert_decode(
        &e,
        "c",
        1,
        DecodeErrorKind::InvalidChar { value: 0x11_0000 },
        "cannot decode field `c` at byte 1: 0x110000 is not a Unicode scalar value",
    );
    let e = decode_err::<Letter>(&[9, 0x00, 0x00, 0xD8, 0x00]);
    assert_decode(
        &e,
        "c",
        1,
        DecodeErrorKind::InvalidChar { value: 0xD800 },
        "cannot decode field `c` at byte 1: 0xD800 is not a Unicode scalar value",
    );
}

#[test]
fn decode_missing_terminator() {
    // no 0x00/0x01 at all: reported where the key ends, like every missing terminator
    let e = decode_err::<Named>(b"\x01abc");
    assert_decode(
        &e,
        "name",
        4,
        DecodeErrorKind::MissingTerminator,
        "cannot decode field `name` at byte 4: no terminator before the end of the key",
    );
    // content with escapes that runs out: reported where the key ends
    let e = decode_err::<Named>(b"\x01a\x01\x00b");
    assert_eq!(e.field(), "name");
    assert_eq!(e.kind(), &DecodeErrorKind::MissingTerminator);
    assert_eq!(e.offset(), 5);
    // an escape byte as the last byte
    let e = decode_err::<Named>(b"\x01a\x01");
    assert_eq!((e.field(), e.offset()), ("name", 3));
    assert_eq!(e.kind(), &DecodeErrorKind::MissingTerminator);
    // desc field without its 0xFF terminator
    let e = decode_err::<Named>(b"\x01a\x00\x9E");
    assert_eq!(e.field(), "back");
    assert_eq!(e.kind(), &DecodeErrorKind::MissingTerminator);
    // custom separator: reported where the key ends
    let e = decode_err::<Piped>(b"\x01abc");
    assert_decode(
        &e,
        "path",
        4,
        DecodeErrorKind::MissingTerminator,
        "cannot decode field `path` at byte 4: no terminator before the end of the key",
    );
}

#[test]
fn decode_out_of_range() {
    // "300" does not fit u8
    let e = decode_err::<Padding>(b"300     \0\0\0\0");
    assert_decode(
        &e,
        "small",
        0,
        DecodeErrorKind::OutOfRange,
        "cannot decode field `small` at byte 0: value does not fit the field's type",
    );
    // reverse_ts stored negative (top bit set): never produced by encode
    let mut b = vec![1];
    b.extend([0x80, 0, 0, 0, 0, 0, 0, 0]);
    b.extend((i64::MAX - 5).to_be_bytes());
    let e = decode_err::<Timed>(&b);
    assert_decode(
        &e,
        "ts",
        1,
        DecodeErrorKind::OutOfRange,
        "cannot decode field `ts` at byte 1: value does not fit the field's type",
    );
    // reverse_ts into u32: i64::MAX - stored > u32::MAX
    let mut b = vec![1];
    b.extend((i64::MAX - 5).to_be_bytes());
    b.extend((i64::MAX - (i64::from(u32::MAX) + 1)).to_be_bytes());
    let e = decode_err::<Timed>(&b);
    assert_decode(
        &e,
        "small_ts",
        9,
        DecodeErrorKind::OutOfRange,
        "cannot decode field `small_ts` at byte 9: value does not fit the field's type",
    );
    // 40 nines overflow u128
    #[derive(RowKey, Debug)]
    struct Huge {
        #[pad(40)]
        n: u128,
    }
    let e = decode_err::<Huge>(&[b'9'; 40]);
    assert_eq!(e.field(), "n");
    assert_eq!(e.kind(), &DecodeErrorKind::OutOfRange);
    assert!(e.offset() < 40);
}

#[test]
fn decode_salt_mismatch() {
    // "host1" hashes to 8 of 16
    let mut b = SaltField {
        host: "host1".into(),
    }
    .to_row_key()
    .unwrap()
    .to_vec();
    assert_eq!(b[0], 8);
    b[0] = 9;
    let e = decode_err::<SaltField>(&b);
    assert_decode(
        &e,
        "host",
        0,
        DecodeErrorKind::SaltMismatch {
            stored: 9,
            computed: 8,
        },
        "cannot decode field `host` at byte 0: salt mismatch: key has 9, its salted prefix hashes to 8 (a key of another layout, or altered)",
    );
    // a salt byte outside 0..16
    b[0] = 0xFF;
    let e = decode_err::<SaltField>(&b);
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::SaltMismatch {
            stored: 255,
            computed: 8
        }
    );
    // the salted prefix altered: "host2" hashes to 9
    let e = decode_err::<SaltWhole>(b"\x08host2");
    assert_decode(
        &e,
        "salt",
        0,
        DecodeErrorKind::SaltMismatch {
            stored: 8,
            computed: 9,
        },
        "cannot decode field `salt` at byte 0: salt mismatch: key has 8, its salted prefix hashes to 9 (a key of another layout, or altered)",
    );
    // two-byte salt: "host1" -> 296 of 1000
    let e = decode_err::<Salt1000>(b"\x01\x29host1");
    assert_decode(
        &e,
        "salt",
        0,
        DecodeErrorKind::SaltMismatch {
            stored: 297,
            computed: 296,
        },
        "cannot decode field `salt` at byte 0: salt mismatch: key has 297, its salted prefix hashes to 296 (a key of another layout, or altered)",
    );
    // modulo: 11 % 8 == 3
    let mut b = TimeBucket {
        ts: 11,
        host: "h".into(),
    }
    .to_row_key()
    .unwrap()
    .to_vec();
    assert_eq!(b[0], 3);
    b[0] = 4;
    let e = decode_err::<TimeBucket>(&b);
    assert_decode(
        &e,
        "ts",
        0,
        DecodeErrorKind::SaltMismatch {
            stored: 4,
            computed: 3,
        },
        "cannot decode field `ts` at byte 0: salt mismatch: key has 4, its salted prefix hashes to 3 (a key of another layout, or altered)",
    );
    // salt on a later field: "t\0host1\0" -> 4; fields after the salted prefix are not hashed
    let k = SaltMid {
        tenant: "t".into(),
        host: "host1".into(),
        seq: 9,
    };
    let mut b = k.to_row_key().unwrap().to_vec();
    assert_eq!(b[0], 4);
    let last = b.len() - 1;
    b[last] = 10;
    assert_eq!(SaltMid::from_row_key(&b).unwrap().seq, 10);
    b[1] = b'u';
    let e = decode_err::<SaltMid>(&b);
    assert_eq!((e.field(), e.offset()), ("host", 0));
    assert!(matches!(
        e.kind(),
        DecodeErrorKind::SaltMismatch { stored: 4, .. }
    ));
}

#[test]
fn decode_hash_mismatch() {
    let k = Hashed {
        id: 1,
        user: "user42".into(),
        n: 7,
    };
    let b = k.to_row_key().unwrap().to_vec();
    assert_eq!(&b[1..5], b"fd86"); // md5("user42")
    assert_eq!(Hashed::from_row_key(&b).unwrap(), k);
    // alter a hash character
    let mut bad = b.clone();
    bad[2] = b'e';
    let e = decode_err::<Hashed>(&bad);
    assert_decode(
        &e,
        "user",
        1,
        DecodeErrorKind::HashMismatch,
        "cannot decode field `user` at byte 1: hash prefix does not match the field value (a key of another layout, or altered)",
    );
    // alter the value behind the hash
    let mut bad = b.clone();
    bad[5] = b'U';
    let e = decode_err::<Hashed>(&bad);
    assert_eq!((e.field(), e.offset()), ("user", 1));
    assert_eq!(e.kind(), &DecodeErrorKind::HashMismatch);
    // raw hash of the u32: prefix at 12 ("\x01" + 4 + "user42\0")
    let mut bad = b.clone();
    bad[12] ^= 0x01;
    let e = decode_err::<Hashed>(&bad);
    assert_decode(
        &e,
        "n",
        12,
        DecodeErrorKind::HashMismatch,
        "cannot decode field `n` at byte 12: hash prefix does not match the field value (a key of another layout, or altered)",
    );
}

#[test]
fn decode_unknown_variant() {
    let e = decode_err::<Event>(&[0, 0, 0, 1, 9, 0, 1]);
    assert_decode(
        &e,
        "kind",
        4,
        DecodeErrorKind::UnknownVariant { code: 9 },
        "cannot decode field `kind` at byte 4: unknown enum code 9",
    );
    let e = decode_err::<Event>(&[0, 0, 0, 1, 1, 0x12, 0x35]);
    assert_decode(
        &e,
        "wide",
        5,
        DecodeErrorKind::UnknownVariant { code: 0x1235 },
        "cannot decode field `wide` at byte 5: unknown enum code 4661",
    );
    let e = decode_err::<Kind>(&[7]);
    assert_decode(
        &e,
        "code",
        0,
        DecodeErrorKind::UnknownVariant { code: 7 },
        "cannot decode field `code` at byte 0: unknown enum code 7",
    );
    assert_eq!(Kind::from_row_key(&[1]).unwrap(), Kind::View);
    assert_eq!(Wide::from_row_key(&[0, 1]).unwrap(), Wide::A);
}

#[test]
fn decode_needs_owned() {
    let k = Borrowed {
        name: "plain",
        raw: b"xyz",
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(Borrowed::from_row_key(&b).unwrap(), k);
    // escaped content cannot be borrowed from the key bytes
    let k = Borrowed {
        name: "a\0b",
        raw: b"",
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(&b[..], b"a\x01\x00b\x00\x00");
    let e = Borrowed::from_row_key(&b).unwrap_err();
    assert_decode(
        &e,
        "name",
        0,
        DecodeErrorKind::NeedsOwned,
        "cannot decode field `name` at byte 0: escaped content cannot be borrowed: use String / Vec<u8> for this field",
    );
    let k = Borrowed {
        name: "",
        raw: b"\x01",
    };
    let b = k.to_row_key().unwrap();
    let e = Borrowed::from_row_key(&b).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("raw", 1));
    assert_eq!(e.kind(), &DecodeErrorKind::NeedsOwned);
}

#[test]
fn decode_nested_field_paths() {
    // Outer { region, inner: Inner { host (sep), dc (pad 2) }, tail }
    let e = decode_err::<Outer>(b"\x01h\xFF\xFF\x00ab\x00\x01");
    assert_decode(
        &e,
        "inner.host",
        1,
        DecodeErrorKind::InvalidUtf8,
        "cannot decode field `inner.host` at byte 1: content is not valid UTF-8",
    );
    let e = decode_err::<Deep>(b"\x00\x01h\x00\xFFa\x00\x01");
    assert_decode(
        &e,
        "outer.inner.dc",
        4,
        DecodeErrorKind::InvalidUtf8,
        "cannot decode field `outer.inner.dc` at byte 4: content is not valid UTF-8",
    );
    let e = decode_err::<Deep>(b"\x00\x01h");
    // reported where the key ends
    assert_eq!((e.field(), e.offset()), ("outer.inner.host", 3));
    assert_eq!(e.kind(), &DecodeErrorKind::MissingTerminator);
}

#[test]
fn decode_nested_path_through_option() {
    let e = decode_err::<MaybeInner>(b"\x00\x01h\x00\xFFa");
    assert_decode(
        &e,
        "inner.dc",
        4,
        DecodeErrorKind::InvalidUtf8,
        "cannot decode field `inner.dc` at byte 4: content is not valid UTF-8",
    );
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct RevPad {
    id: u8,
    #[reverse]
    #[pad(4)]
    name: String,
}

#[test]
fn decode_non_canonical() {
    // "\0ab" + one fill byte: the content "\0ab" reversed would be "ba\0", a value whose
    // encoding fails (EndsWithFill), so no key holds these bytes: rejected, not returned.
    let bytes = b"\x01\x00ab\x00";
    match RevPad::from_row_key(bytes) {
        Ok(v) => {
            let re = v.to_row_key();
            panic!("decoded {v:?}, which re-encodes to {re:?} instead of the input");
        }
        Err(e) => {
            assert_eq!((e.field(), e.offset()), ("name", 1));
            assert!(matches!(e.kind(), DecodeErrorKind::NonCanonical(_)), "{e}");
            assert!(e
                .to_string()
                .starts_with("cannot decode field `name` at byte 1: non-canonical encoding: "));
        }
    }
}

#[test]
fn decode_key_too_long() {
    // a key over the layout's max_len is never written by it
    let mut b = Budget {
        id: 1,
        name: "abcde".into(),
    }
    .to_row_key()
    .unwrap()
    .to_vec();
    assert_eq!(b.len(), 10);
    assert!(Budget::from_row_key(&b).is_ok());
    b.insert(9, b'f');
    let e = decode_err::<Budget>(&b);
    assert_decode(
        &e,
        "",
        10,
        DecodeErrorKind::KeyTooLong {
            len: 11,
            max_len: 10,
        },
        "cannot decode key `Budget` at byte 10: key is 11 bytes, over max_len = 10",
    );
    assert_eq!((e.key(), e.variant()), ("Budget", None));
}

#[test]
fn errors_are_std_errors() {
    fn is_error<E: std::error::Error + Send + Sync + 'static>(_: &E) {}
    let d = decode_err::<Two>(&[]);
    let e = encode_err(&Host {
        name: "abcde".into(),
        port: 0,
    });
    is_error(&d);
    is_error(&e);
    let boxed: Box<dyn std::error::Error> = Box::new(d.clone());
    assert_eq!(boxed.to_string(), d.to_string());
}

// ---------------------------------------------------------------------------------------------
// tagged key enums: errors name the variant (issue 23: three variants have an `order_no`)

#[derive(RowKey, Debug, Clone, PartialEq)]
struct BySeller {
    seller: u32,
    #[sep]
    order_no: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByBuyer {
    #[sep]
    buyer: String,
    #[reverse_ts]
    ts: i64,
    #[sep]
    order_no: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByNo {
    #[pad(4)]
    order_no: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
enum Orders {
    #[rowkey(tag = b"s")]
    Seller(BySeller),
    #[rowkey(tag = b"b")]
    Buyer(ByBuyer),
    #[rowkey(tag = b"n")]
    No(ByNo),
}

#[test]
fn tagged_errors_name_the_variant() {
    // decode: the same field name in three variants, told apart by the variant
    let e = decode_err::<Orders>(b"s\x00\x00\x00\x01A-1");
    assert_decode(
        &e,
        "order_no",
        8,
        DecodeErrorKind::MissingTerminator,
        "cannot decode field `order_no` of variant `Seller` at byte 8: no terminator before the end of the key",
    );
    assert_eq!((e.key(), e.variant()), ("", Some("Seller")));
    let e = decode_err::<Orders>(b"nA-1\xFF");
    assert_eq!((e.field(), e.variant()), ("order_no", Some("No")));
    assert!(
        e.to_string()
            .starts_with("cannot decode field `order_no` of variant `No` at byte 1: "),
        "{e}"
    );
    // an unknown tag is the enum's own field `tag`, in no variant
    let e = decode_err::<Orders>(b"x");
    assert_eq!((e.field(), e.variant()), ("tag", None));
    // trailing bytes after a whole variant key: the key type
    let mut k = Orders::No(ByNo {
        order_no: "A-1".into(),
    })
    .to_row_key()
    .unwrap()
    .to_vec();
    k.push(0);
    let e = decode_err::<Orders>(&k);
    assert_decode(
        &e,
        "",
        5,
        DecodeErrorKind::TrailingBytes { count: 1 },
        "cannot decode key `Orders` at byte 5: 1 unexpected byte(s) after the last field",
    );

    // encode
    let e = encode_err(&Orders::Buyer(ByBuyer {
        buyer: "ann".into(),
        ts: -1,
        order_no: "A-1".into(),
    }));
    assert_encode(
        &e,
        "ts",
        EncodeErrorKind::TimestampOutOfRange { value: -1 },
        "cannot encode field `ts` of variant `Buyer`: #[reverse_ts] needs a timestamp in 0..=i64::MAX, got -1",
    );
    assert_eq!(e.variant(), Some("Buyer"));
    let e = encode_err(&Orders::No(ByNo {
        order_no: "A-123".into(),
    }));
    assert_eq!((e.field(), e.variant()), ("order_no", Some("No")));
}
