use super::*;
use crate::error::{DecodeErrorKind, EncodeErrorKind};
use proptest::prelude::*;

fn oc(v: i64) -> Vec<u8> {
    let mut out = Vec::new();
    encode_ordered_code_i64(v, &mut out);
    out
}

fn schema(types: &[FieldType], encoding: StructEncoding) -> StructSchema {
    let fields = types
        .iter()
        .enumerate()
        .map(|(i, &ty)| Field::new(format!("f{i}"), ty))
        .collect();
    StructSchema::new(fields, encoding).unwrap()
}

const OC: FieldType = FieldType::Int64(Int64Encoding::OrderedCodeBytes);
const BE: FieldType = FieldType::Int64(Int64Encoding::BigEndianBytes);
const TS: FieldType = FieldType::Timestamp(Int64Encoding::OrderedCodeBytes);

#[test]
fn ordered_code_int64_known_bytes() {
    assert_eq!(oc(0), [0x80]);
    assert_eq!(oc(-1), [0x7F]);
    assert_eq!(oc(63), [0xBF]);
    assert_eq!(oc(-64), [0x40]);
    assert_eq!(oc(64), [0xC0, 0x40]);
    assert_eq!(oc(-65), [0x3F, 0xBF]);
    assert_eq!(oc(256), [0xC1, 0x00]);
    assert_eq!(oc(0x10e), [0xC1, 0x0E]);
    assert_eq!(oc(-0x10f), [0x3E, 0xF1]);
    assert_eq!(
        oc(i64::MAX),
        [0xFF, 0xC0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(oc(i64::MIN), [0x00, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn ordered_code_int64_rejects_bad_bytes() {
    assert!(decode_ordered_code_i64(&[]).is_err());
    assert!(decode_ordered_code_i64(&[0xC0]).is_err());
    assert!(decode_ordered_code_i64(&[0xC0, 0x01]).is_err()); // non-canonical 1
    assert!(decode_ordered_code_i64(&[0xFF]).is_err());
    assert!(decode_ordered_code_i64(&[0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
    // one above i64::MAX
    assert!(decode_ordered_code_i64(&[0xFF, 0xC0, 0x80, 0, 0, 0, 0, 0, 0, 0]).is_err());
    assert!(
        decode_ordered_code_i64(&[0x00, 0x3F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
            .is_err()
    );
}

#[test]
fn documented_struct_examples() {
    let s = |n: usize| {
        schema(
            &vec![FieldType::String; n],
            StructEncoding::OrderedCodeBytes,
        )
    };
    let v = |xs: &[&str]| {
        xs.iter()
            .map(|x| Value::String((*x).into()))
            .collect::<Vec<_>>()
    };
    let cases: &[(&[&str], &[u8])] = &[
        (&[], b"\x00\x00"),
        (&[""], b"\x00\x00"),
        (&["", ""], b"\x00\x00"),
        (&["", "B"], b"\x00\x00\x00\x01B"),
        (&["A", ""], b"A"),
        (&["", "B", ""], b"\x00\x00\x00\x01B"),
        (&["A", "", "C"], b"A\x00\x01\x00\x00\x00\x01C"),
    ];
    for (values, key) in cases {
        let schema = s(values.len());
        assert_eq!(schema.encode(&v(values)).unwrap(), *key, "{values:?}");
        assert_eq!(schema.decode(key).unwrap(), v(values));
    }
}

#[test]
fn errors_name_field_and_offset() {
    let s = schema(&[FieldType::String, OC], StructEncoding::OrderedCodeBytes);
    let e = s.decode(b"ab\x00\x01\xC1").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("f1", 5));
    let e = s.decode(b"a\xFFb\x00\x01\x80").unwrap_err();
    assert_eq!(
        (e.field(), e.offset(), e.kind()),
        ("f0", 1, &DecodeErrorKind::InvalidUtf8)
    );
    let e = s.decode(b"ab\x00\x02").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("f0", 3));
    let e = s.decode(b"ab").unwrap_err(); // the Int64 is missing
    assert_eq!(e.field(), "f1");
    let e = s.decode(b"ab\x00\x01\x80\x00\x01x").unwrap_err();
    assert!(matches!(
        e.kind(),
        DecodeErrorKind::TrailingBytes { count: 3 }
    ));
    assert_eq!(e.offset(), 5);
    // non-canonical: a trailing empty field written out
    let s2 = schema(
        &[FieldType::String, FieldType::String],
        StructEncoding::OrderedCodeBytes,
    );
    assert!(s2.decode(b"a\x00\x01\x00\x00").is_err());
    assert!(s2.decode(b"").is_err());
    assert!(s2.decode(b"a\x00\x01").is_err());

    let d = schema(
        &[FieldType::Bytes, BE],
        StructEncoding::DelimitedBytes(b"##".to_vec()),
    );
    let e = d
        .encode(&[Value::Bytes(b"a#".to_vec()), Value::Int64(1)])
        .unwrap_err();
    assert_eq!(e.field(), "f0");
    assert_eq!(
        e.kind(),
        &EncodeErrorKind::ContainsSeparator { sep: b'#', at: 1 }
    );
    let e = d
        .encode(&[Value::Bytes(vec![]), Value::Int64(0x23)])
        .unwrap_err();
    assert_eq!(e.field(), "f1");
    let e = d.encode(&[Value::Bytes(vec![])]).unwrap_err();
    assert_eq!(
        e.kind(),
        &EncodeErrorKind::FieldCount {
            expected: 2,
            got: 1
        }
    );
    let e = d.encode(&[Value::Int64(1), Value::Int64(1)]).unwrap_err();
    assert_eq!(
        e.kind(),
        &EncodeErrorKind::TypeMismatch {
            expected: "Bytes",
            got: "Int64"
        }
    );
    let e = d.decode(b"ab#x\0\0\0\0\0\0\0\x01").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("f0", 3));
    let e = d.decode(b"ab##\0\0\0\0\0\0\x01").unwrap_err();
    assert_eq!((e.field(), e.offset()), ("f1", 11));
    assert_eq!(
        d.decode(b"ab##\0\0\0\0\0\0\0\x01").unwrap(),
        [Value::Bytes(b"ab".to_vec()), Value::Int64(1)]
    );
}

/// An error inside an escaped field (each content `00` written `00 FF`) names the key offset
/// of the faulty byte itself: past every escape and every content byte before it, in the
/// first field and behind another (issue 49: a wrong count of content bytes went unnoticed).
#[test]
fn escaped_field_errors_point_past_the_escapes() {
    use super::format::escaped_offset;
    // content byte k of `a 00 b 00 c` sits at key offsets 0, 1, 3, 4, 6 (each 00 takes two)
    let key = b"a\x00\xFFb\x00\xFFc";
    let at: Vec<usize> = (0..=5).map(|k| escaped_offset(key, k)).collect();
    assert_eq!(at, [0, 1, 3, 4, 6, 7]);
    assert_eq!(escaped_offset(b"\x00\xFF\x00\xFF\x00\xFFxy", 4), 7);

    let s = schema(
        &[FieldType::String, FieldType::String],
        StructEncoding::OrderedCodeBytes,
    );
    // (key, field, offset of the invalid UTF-8 byte in the key)
    let cases: &[(&[u8], &str, usize)] = &[
        // content "a\0b\0c" then FF: content byte 5, key byte 7
        (b"a\x00\xFFb\x00\xFFc\xFF\x00\x01x", "f0", 7),
        // three escaped 00s, then FE: content byte 3, key byte 6
        (b"\x00\xFF\x00\xFF\x00\xFF\xFE", "f0", 6),
        // several plain bytes, one escape, two more: content byte 5, key byte 6
        (b"abc\x00\xFFd\xFF\x00\x01y", "f0", 6),
        // the second field: "x", 00 01, then "a\0\0bc" and a cut-off C3 (content byte 5,
        // field byte 7, key byte 3 + 7)
        (b"x\x00\x01a\x00\xFF\x00\xFFbc\xC3", "f1", 10),
        // escapes in the first field move the second one, and in the second the byte
        (b"\x00\xFFq\x00\x01\x00\xFFr\x00\xFFs\xFF", "f1", 11),
    ];
    for &(key, field, offset) in cases {
        let e = s.decode(key).unwrap_err();
        assert_eq!(
            (e.field(), e.offset(), e.kind()),
            (field, offset, &DecodeErrorKind::InvalidUtf8),
            "{key:02X?}"
        );
    }
}

#[test]
fn sorted_mode_checks() {
    let s = schema(
        &[BE, FieldType::Bytes],
        StructEncoding::DelimitedBytes(b"#".to_vec()),
    );
    let e = s
        .check_sorted(&[Value::Int64(-1), Value::Bytes(vec![])])
        .unwrap_err();
    assert_eq!(e.field(), "f0");
    assert!(matches!(e.kind(), EncodeErrorKind::ValueOutOfRange { .. }));
    // a non-negative big-endian Int64 has 00 bytes: below any delimiter
    let e = s
        .check_sorted(&[Value::Int64(5), Value::Bytes(vec![])])
        .unwrap_err();
    assert_eq!(
        e.kind(),
        &EncodeErrorKind::NotAboveDelimiter {
            byte: 0,
            delimiter: b'#',
            at: 0
        }
    );
    let s = schema(
        &[OC, FieldType::Bytes],
        StructEncoding::DelimitedBytes(b"#".to_vec()),
    );
    assert!(s
        .check_sorted(&[Value::Int64(5), Value::Bytes(b"$x".to_vec())])
        .is_ok());
    let e = s
        .check_sorted(&[Value::Int64(5), Value::Bytes(b"x#".to_vec())])
        .unwrap_err();
    assert_eq!(
        (e.field(), e.kind()),
        (
            "f1",
            &EncodeErrorKind::NotAboveDelimiter {
                byte: b'#',
                delimiter: b'#',
                at: 1
            }
        )
    );
    let s = schema(&[BE, OC], StructEncoding::OrderedCodeBytes);
    assert!(s.check_sorted(&[Value::Int64(0), Value::Int64(-5)]).is_ok());
    assert!(s
        .check_sorted(&[Value::Int64(-1), Value::Int64(-5)])
        .is_err());
}

#[test]
fn schema_checks() {
    assert!(StructSchema::new(vec![], StructEncoding::Singleton).is_err());
    assert!(StructSchema::new(vec![], StructEncoding::DelimitedBytes(vec![])).is_err());
    assert!(StructSchema::new(vec![], StructEncoding::DelimitedBytes(vec![b'#'; 51])).is_err());
    assert!(StructSchema::new(vec![], StructEncoding::DelimitedBytes(vec![b'#'; 50])).is_ok());
}

fn adversarial_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            Just(0x00u8),
            Just(0x01),
            Just(0xFF),
            Just(0xFE),
            Just(b'a'),
            any::<u8>()
        ],
        0..6,
    )
}

fn adversarial_string() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just('\0'),
            Just('\u{1}'),
            Just('a'),
            Just('\u{10FFFF}'),
            Just('é'),
            any::<char>()
        ],
        0..5,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn adversarial_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(0i64),
        Just(-1),
        Just(i64::MIN),
        Just(i64::MAX),
        Just(i64::MIN + 1),
        Just(i64::MAX - 1),
        -300i64..300,
        any::<i64>(),
        (any::<i64>(), 0u32..64).prop_map(|(x, s)| x >> s),
    ]
}

fn value_of(ty: FieldType) -> BoxedStrategy<Value> {
    match ty {
        FieldType::Int64(Int64Encoding::BigEndianBytes) => {
            (0..=i64::MAX).prop_map(Value::Int64).boxed()
        }
        FieldType::Int64(_) => adversarial_i64().prop_map(Value::Int64).boxed(),
        FieldType::Timestamp(_) => adversarial_i64().prop_map(Value::Timestamp).boxed(),
        FieldType::String => adversarial_string().prop_map(Value::String).boxed(),
        FieldType::Bytes => adversarial_bytes().prop_map(Value::Bytes).boxed(),
    }
}

const ORDERED_TYPES: [FieldType; 5] = [OC, FieldType::String, FieldType::Bytes, TS, BE];

fn two_keys_of_one_schema() -> impl Strategy<Value = (Vec<FieldType>, Vec<Value>, Vec<Value>)> {
    prop::collection::vec(prop::sample::select(ORDERED_TYPES.to_vec()), 0..4).prop_flat_map(
        |types| {
            let vals: Vec<_> = types.iter().map(|&t| value_of(t)).collect();
            (Just(types), vals.clone(), vals)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn ordered_code_int64_order_and_round_trip(a in adversarial_i64(), b in adversarial_i64()) {
        let (ea, eb) = (oc(a), oc(b));
        prop_assert_eq!(ea.cmp(&eb), a.cmp(&b));
        prop_assert_eq!(decode_ordered_code_i64(&ea).unwrap(), (a, ea.len()));
    }

    /// OrderedCodeBytes structs: byte order is value order, and keys round-trip. Big-endian
    /// Int64s only non-negative (the only values it sorts).
    #[test]
    fn ordered_struct_order((types, a, b) in two_keys_of_one_schema()) {
        let s = schema(&types, StructEncoding::OrderedCodeBytes);
        let (ka, kb) = (s.encode(&a).unwrap(), s.encode(&b).unwrap());
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b), "{:?} {:?}", ka, kb);
        prop_assert_eq!(s.decode(&ka).unwrap(), a);
        prop_assert_eq!(s.decode(&kb).unwrap(), b);
    }

    /// DelimitedBytes with every field byte above the delimiter's first byte: sorted.
    #[test]
    fn delimited_struct_order(
        a in prop::collection::vec(prop::collection::vec(0x24u8..=0xFF, 0..4), 3),
        b in prop::collection::vec(prop::collection::vec(0x24u8..=0xFF, 0..4), 3),
    ) {
        let s = schema(&[FieldType::Bytes; 3], StructEncoding::DelimitedBytes(b"#".to_vec()));
        let va: Vec<_> = a.into_iter().map(Value::Bytes).collect();
        let vb: Vec<_> = b.into_iter().map(Value::Bytes).collect();
        let (ka, kb) = (s.encode(&va).unwrap(), s.encode(&vb).unwrap());
        prop_assert_eq!(ka.cmp(&kb), va.cmp(&vb));
        prop_assert_eq!(s.decode(&ka).unwrap(), va);
    }

    /// Whatever passes `check_sorted` under DelimitedBytes sorts by value.
    #[test]
    fn delimited_check_sorted_means_sorted(
        (types, a, b) in two_keys_of_one_schema(),
        delimiter in prop_oneof![Just(vec![0x00u8]), Just(vec![0x01]), Just(b"#".to_vec()), Just(vec![0x00, 0x01])],
    ) {
        let s = schema(&types, StructEncoding::DelimitedBytes(delimiter));
        if s.check_sorted(&a).is_ok() && s.check_sorted(&b).is_ok() {
            let (ka, kb) = (s.encode(&a).unwrap(), s.encode(&b).unwrap());
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            prop_assert_eq!(s.decode(&ka).unwrap(), a);
        }
    }

    /// No input panics the decoder, and whatever decodes re-encodes to the same bytes.
    #[test]
    fn random_bytes_never_panic(
        bytes in prop::collection::vec(
            prop_oneof![Just(0x00u8), Just(0x01), Just(0xFF), Just(b'#'), Just(0x80), Just(0xC1), any::<u8>()],
            0..24,
        ),
        types in prop::collection::vec(prop::sample::select(ORDERED_TYPES.to_vec()), 0..4),
        which in 0usize..4,
    ) {
        let encoding = match which {
            0 => StructEncoding::OrderedCodeBytes,
            1 => StructEncoding::DelimitedBytes(b"#".to_vec()),
            2 => StructEncoding::DelimitedBytes(vec![0x00, 0x01]),
            _ => StructEncoding::Singleton,
        };
        let types = if which == 3 { vec![types.first().copied().unwrap_or(OC)] } else { types };
        let s = schema(&types, encoding);
        let _ = decode_ordered_code_i64(&bytes);
        if let Ok(values) = s.decode(&bytes) {
            prop_assert_eq!(s.encode(&values).unwrap(), bytes);
        }
    }
}

// ---- lint ----

fn kinds(findings: &[SchemaFinding]) -> Vec<(Option<usize>, &str, SchemaFindingKind)> {
    findings
        .iter()
        .map(|f| (f.index(), f.field(), f.kind().clone()))
        .collect()
}

#[test]
fn lint_names_every_refused_field() {
    let fields = vec![
        Field::new("id", FieldType::String),
        Field::new("_timestamp", FieldType::Bytes),
        Field::new("", FieldType::String),
        Field::new("id", OC),
        Field::new("_key", TS),
        Field::new("id", FieldType::Bytes),
    ];
    let findings = lint(&fields, &StructEncoding::OrderedCodeBytes);
    assert_eq!(
        kinds(&findings),
        [
            (Some(1), "_timestamp", SchemaFindingKind::ReservedName),
            (Some(2), "", SchemaFindingKind::EmptyName),
            (Some(3), "id", SchemaFindingKind::DuplicateName { first: 0 }),
            (Some(4), "_key", SchemaFindingKind::ReservedName),
            (Some(5), "id", SchemaFindingKind::DuplicateName { first: 0 }),
        ]
    );
    assert!(findings
        .iter()
        .all(|f| f.severity() == SchemaSeverity::Refused));
    // the same through a built schema
    let s = StructSchema::new(fields, StructEncoding::OrderedCodeBytes).unwrap();
    assert_eq!(s.lint(), findings);
    // a reserved name is matched exactly (case and all)
    let ok = [
        Field::new("_Key", FieldType::String),
        Field::new("key", FieldType::Bytes),
    ];
    assert!(lint(&ok, &StructEncoding::OrderedCodeBytes).is_empty());
}

#[test]
fn lint_reports_what_new_refuses() {
    let one = [Field::new("a", FieldType::String)];
    let two = [Field::new("a", FieldType::String), Field::new("b", OC)];
    assert_eq!(
        kinds(&lint(&two, &StructEncoding::Singleton)),
        [(
            None,
            "",
            SchemaFindingKind::SingletonFieldCount { fields: 2 }
        )]
    );
    assert_eq!(
        kinds(&lint(&[], &StructEncoding::Singleton)),
        [(
            None,
            "",
            SchemaFindingKind::SingletonFieldCount { fields: 0 }
        )]
    );
    assert!(lint(&one, &StructEncoding::Singleton).is_empty());
    assert_eq!(
        kinds(&lint(&two, &StructEncoding::DelimitedBytes(vec![]))),
        [(None, "", SchemaFindingKind::DelimiterLength { len: 0 })]
    );
    assert_eq!(
        kinds(&lint(&two, &StructEncoding::DelimitedBytes(vec![b'#'; 51]))),
        [(None, "", SchemaFindingKind::DelimiterLength { len: 51 })]
    );
    assert!(lint(&two, &StructEncoding::DelimitedBytes(vec![b'#'; 50])).is_empty());
    // every schema `new` refuses has a Refused finding, and every one it accepts has none of
    // those two kinds
    for (fields, enc) in [
        (&two[..], StructEncoding::Singleton),
        (&one[..], StructEncoding::Singleton),
        (&two[..], StructEncoding::DelimitedBytes(vec![])),
        (&two[..], StructEncoding::DelimitedBytes(b"##".to_vec())),
    ] {
        let refused = lint(fields, &enc).iter().any(|f| {
            matches!(
                f.kind(),
                SchemaFindingKind::SingletonFieldCount { .. }
                    | SchemaFindingKind::DelimiterLength { .. }
            )
        });
        assert_eq!(
            refused,
            StructSchema::new(fields.to_vec(), enc.clone()).is_err(),
            "{enc:?}"
        );
    }
}

#[test]
fn lint_big_endian_under_a_delimiter_is_unsorted() {
    let be_ts = FieldType::Timestamp(Int64Encoding::BigEndianBytes);
    // Google's own example schema: id, date (String), product_code (Int64 BigEndianBytes), '#'
    let s = StructSchema::new(
        vec![
            Field::new("id", FieldType::String),
            Field::new("date", FieldType::String),
            Field::new("product_code", BE),
            Field::new("at", be_ts),
        ],
        StructEncoding::DelimitedBytes(b"#".to_vec()),
    )
    .unwrap();
    let findings = s.lint();
    assert_eq!(
        kinds(&findings),
        [
            (
                Some(2),
                "product_code",
                SchemaFindingKind::BigEndianDelimited { delimiter: b'#' }
            ),
            (
                Some(3),
                "at",
                SchemaFindingKind::BigEndianDelimited { delimiter: b'#' }
            ),
        ]
    );
    assert!(findings
        .iter()
        .all(|f| f.severity() == SchemaSeverity::Unsorted));
    // and the example key itself: product_code 1245427 = 00 13 00 F3 in its last 4 bytes
    let values = [
        Value::String("some_id".into()),
        Value::String("2024-04-30".into()),
        Value::Int64(1_245_427),
        Value::Timestamp(0),
    ];
    let lv = s.lint_values(&values);
    assert_eq!(lv.len(), 2);
    assert_eq!(
        (lv[0].field(), lv[0].kind()),
        (
            "product_code",
            &SchemaFindingKind::NotAboveDelimiter {
                byte: 0,
                delimiter: b'#',
                at: 0
            }
        )
    );
    assert_eq!(lv[1].field(), "at");
    // OrderedCodeBytes or the BigEndianBytes field under the ordered struct encoding: fine
    let fine = StructSchema::new(
        vec![Field::new("n", BE), Field::new("o", OC)],
        StructEncoding::OrderedCodeBytes,
    )
    .unwrap();
    assert!(fine.lint().is_empty());
}

#[test]
fn lint_with_families_names_the_colliding_field() {
    let s = StructSchema::new(
        vec![Field::new("user", FieldType::String), Field::new("cf", OC)],
        StructEncoding::OrderedCodeBytes,
    )
    .unwrap();
    assert!(s.lint_with_families(&["o", "stats"]).is_empty());
    assert_eq!(
        kinds(&s.lint_with_families(&["o", "cf"])),
        [(Some(1), "cf", SchemaFindingKind::FamilyName)]
    );
    let msg = s.lint_with_families(&["cf"])[0].to_string();
    assert!(
        msg.contains("\"cf\"") && msg.contains("column family"),
        "{msg}"
    );
}

#[test]
fn lint_values_reports_every_field() {
    let be_ts = FieldType::Timestamp(Int64Encoding::BigEndianBytes);
    let s = StructSchema::new(
        vec![
            Field::new("a", BE),
            Field::new("b", be_ts),
            Field::new("c", FieldType::String),
            Field::new("d", FieldType::Bytes),
        ],
        StructEncoding::DelimitedBytes(b"#".to_vec()),
    )
    .unwrap();
    let values = [
        Value::Int64(-1),               // FF×8: above '#', but negative
        Value::Timestamp(i64::MIN),     // 80 00…: negative and 00 below '#'
        Value::String("x#y".into()),    // contains the delimiter: not encodable
        Value::Bytes(b"\x01".to_vec()), // below '#': encodable, unsorted
    ];
    let findings = s.lint_values(&values);
    let got: Vec<_> = findings.iter().map(|f| (f.field(), f.severity())).collect();
    assert_eq!(
        got,
        [
            ("a", SchemaSeverity::Unsorted),
            ("b", SchemaSeverity::Unsorted),
            ("b", SchemaSeverity::Unsorted),
            ("c", SchemaSeverity::Refused),
            ("d", SchemaSeverity::Unsorted),
        ]
    );
    assert_eq!(
        findings[0].kind(),
        &SchemaFindingKind::Negative { value: -1 }
    );
    assert_eq!(
        findings[2].kind(),
        &SchemaFindingKind::NotAboveDelimiter {
            byte: 0,
            delimiter: b'#',
            at: 1
        }
    );
    match findings[3].kind() {
        SchemaFindingKind::Unencodable(e) => {
            assert_eq!(e.field(), "c");
            assert_eq!(
                e.kind(),
                &EncodeErrorKind::ContainsSeparator { sep: b'#', at: 1 }
            );
        }
        other => panic!("{other:?}"),
    }
    // the wrong number of values: one schema-wide finding
    let count = s.lint_values(&values[..1]);
    assert_eq!(count.len(), 1);
    assert_eq!(count[0].index(), None);
    assert!(matches!(count[0].kind(), SchemaFindingKind::Unencodable(_)));
    // a negative BigEndianBytes value: encode writes two's complement, check_sorted refuses,
    // lint_values reports it, decode reads it back
    let single = StructSchema::new(vec![Field::new("n", BE)], StructEncoding::Singleton).unwrap();
    let key = single.encode(&[Value::Int64(-2)]).unwrap();
    assert_eq!(key, (-2i64).to_be_bytes());
    assert_eq!(single.decode(&key).unwrap(), [Value::Int64(-2)]);
    assert_eq!(
        single
            .check_sorted(&[Value::Int64(-2)])
            .unwrap_err()
            .field(),
        "n"
    );
    assert_eq!(
        kinds(&single.lint_values(&[Value::Int64(-2)])),
        [(Some(0), "n", SchemaFindingKind::Negative { value: -2 })]
    );
}

fn any_value() -> BoxedStrategy<Value> {
    prop_oneof![
        adversarial_i64().prop_map(Value::Int64),
        adversarial_i64().prop_map(Value::Timestamp),
        adversarial_string().prop_map(Value::String),
        adversarial_bytes().prop_map(Value::Bytes),
    ]
    .boxed()
}

proptest! {
    /// `lint_values` is empty exactly when `encode` and `check_sorted` both pass; it never
    /// reports a Refused finding for values that encode; every finding names its field.
    #[test]
    fn lint_values_agrees_with_encode_and_check_sorted(
        types in prop::collection::vec(prop::sample::select(ORDERED_TYPES.to_vec()), 0..4),
        values in prop::collection::vec(any_value(), 0..4),
        which in 0usize..4,
    ) {
        let encoding = match which {
            0 => StructEncoding::OrderedCodeBytes,
            1 => StructEncoding::DelimitedBytes(b"#".to_vec()),
            2 => StructEncoding::DelimitedBytes(vec![0x00, 0x01]),
            _ => StructEncoding::Singleton,
        };
        let types = if which == 3 { vec![types.first().copied().unwrap_or(OC)] } else { types };
        let s = schema(&types, encoding);
        let findings = s.lint_values(&values);
        let encodes = s.encode(&values).is_ok();
        let sorted = s.check_sorted(&values).is_ok();
        prop_assert_eq!(findings.is_empty(), encodes && sorted);
        prop_assert_eq!(
            findings.iter().any(|f| f.severity() == SchemaSeverity::Refused),
            !encodes
        );
        for f in &findings {
            match f.index() {
                Some(i) => prop_assert_eq!(f.field(), s.fields()[i].name.as_str()),
                None => prop_assert_ne!(values.len(), s.fields().len()),
            }
        }
    }
}
