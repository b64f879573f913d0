//! Unit tests of `plan`.

use super::nat::Nat;
use super::*;
use crate::hbase::{from_string_binary, to_string_binary};
use crate::layout::{FieldEncoding, FieldLayout, HashPrefix, Layout, SaltKind, SaltLayout};
use proptest::prelude::*;

fn strs(points: &[Vec<u8>]) -> Vec<String> {
    points
        .iter()
        .map(|p| String::from_utf8(p.clone()).unwrap())
        .collect()
}

fn assert_strictly_increasing(points: &[Vec<u8>]) {
    for w in points.windows(2) {
        assert!(w[0] < w[1], "{:?} !< {:?}", w[0], w[1]);
    }
    assert!(points.iter().all(|p| !p.is_empty()));
}

// Expected values below were computed from the Java source of RegionSplitter
// (NumberStringSplit.split: range = last - first + 1; step = range / n; first + i*step,
// BigInteger.toString(radix) left-padded to lastRow.length()) and Bytes.split
// (inclusive, interval = (b - a + 1) / (num + 1)).

#[test]
fn hex_string_split_matches_hbase() {
    assert_eq!(strs(&hex_string_split(2)), ["80000000"]);
    assert_eq!(
        strs(&hex_string_split(4)),
        ["40000000", "80000000", "c0000000"]
    );
    assert_eq!(
        strs(&hex_string_split(15)),
        [
            "11111111", "22222222", "33333333", "44444444", "55555555", "66666666", "77777777",
            "88888888", "99999999", "aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd", "eeeeeeee"
        ]
    );
    // 40 regions, as the seed's table: step = 2^32 / 40 = 107374182 = 0x06666666.
    let forty = strs(&hex_string_split(40));
    assert_eq!(forty.len(), 39);
    assert_eq!(
        &forty[..4],
        ["06666666", "0ccccccc", "13333332", "19999998"]
    );
    assert_eq!(forty[19], "7ffffff8");
    assert_eq!(&forty[36..], ["ecccccbe", "f3333324", "f999998a"]);
    assert!(hex_string_split(0).is_empty());
    assert!(hex_string_split(1).is_empty());
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn hexes(v: &[&str]) -> Vec<Vec<u8>> {
    v.iter().map(|s| hex(s)).collect()
}

// Expected values below come from a transliteration of HBase `Bytes.iterateOnSplits` (Java
// `BigInteger` with the `{1, 0}` header and `toByteArray`, the 0x00-padding retry) and
// `HBaseAdmin.createTable(desc, startKey, endKey, numRegions)`.
#[test]
fn create_table_split_keys_match_hbase() {
    // The known value: 'a'..'z', 5 regions.
    assert_eq!(
        create_table_split_keys(b"a", b"z", 5).unwrap(),
        hexes(&["61", "69", "71", "7a"])
    );
    // The reference guide's hex pitfall.
    assert_eq!(
        create_table_split_keys(b"0000000000000000", b"ffffffffffffffff", 10).unwrap(),
        hexes(&[
            "30303030303030303030303030303030",
            "36f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6",
            "3dbdbdbdbdbdbdbdbdbdbdbdbdbdbdbc",
            "44848484848484848484848484848482",
            "4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b48",
            "5212121212121212121212121212120e",
            "58d8d8d8d8d8d8d8d8d8d8d8d8d8d8d4",
            "5f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9a",
            "66666666666666666666666666666666",
        ])
    );
    // All 0x00 .. all 0xFF.
    assert_eq!(
        create_table_split_keys(&[0; 8], &[0xFF; 8], 10).unwrap(),
        hexes(&[
            "0000000000000000",
            "1fffffffffffffff",
            "3ffffffffffffffe",
            "5ffffffffffffffd",
            "7ffffffffffffffc",
            "9ffffffffffffffb",
            "bffffffffffffffa",
            "dffffffffffffff9",
            "ffffffffffffffff",
        ])
    );
    // Different lengths: the shorter is padded with 0x00 for the arithmetic, but returned
    // as given.
    assert_eq!(
        create_table_split_keys(b"a", b"b\x00\x10", 5).unwrap(),
        hexes(&["61", "61555a", "61aab4", "620010"])
    );
    // Tiny range: diff 1 < 8 parts, so both ends grow by a 0x00 byte (and are returned so).
    assert_eq!(
        create_table_split_keys(b"a", b"b", 10).unwrap(),
        hexes(&["6100", "6120", "6140", "6160", "6180", "61a0", "61c0", "61e0", "6200"])
    );
    // ... twice when once is not enough.
    let two = create_table_split_keys(b"\x00", b"\x00\x01", 302).unwrap();
    assert_eq!(two.len(), 301);
    assert_eq!(
        &two[..4],
        hexes(&["00000000", "000000da", "000001b4", "0000028e"])
    );
    assert_eq!(&two[299..], hexes(&["0000fe9e", "00010000"]));
    assert_eq!(
        create_table_split_keys(b"aaaaa", b"zzzzz", 4).unwrap(),
        hexes(&["6161616161", "6dedededed", "7a7a7a7a7a"])
    );
    // Three regions: the two keys as given.
    assert_eq!(
        create_table_split_keys(b"\x01", b"\x01\x00", 3).unwrap(),
        [vec![1], vec![1, 0]]
    );
    // Errors, as HBase.
    assert_eq!(
        create_table_split_keys(b"a", b"z", 2),
        Err(PlanError::TooFewRegions { regions: 2, min: 3 })
    );
    assert!(matches!(
        create_table_split_keys(b"z", b"a", 5),
        Err(PlanError::EmptyRange { .. })
    ));
    assert!(matches!(
        create_table_split_keys(b"a", b"a", 5),
        Err(PlanError::EmptyRange { .. })
    ));
    // Raw order is fine, but equal after padding: Bytes.split's "b <= a".
    assert!(matches!(
        create_table_split_keys(b"\x01", b"\x01\x00", 4),
        Err(PlanError::EmptyRange { .. })
    ));
    assert!(matches!(
        create_table_split_keys(b"", b"\xff", 4),
        Err(PlanError::InvalidRow { .. })
    ));
    assert!(matches!(
        create_table_split_keys(b"a", b"z", MAX_REGIONS + 1),
        Err(PlanError::RegionLimit { .. })
    ));
}

#[test]
fn bytes_split_matches_hbase() {
    assert_eq!(
        bytes_split(b"a", b"z", false, 2).unwrap(),
        hexes(&["61", "69", "71", "7a"])
    );
    // Inclusive: the range is one larger (what UniformSplit uses).
    assert_eq!(
        bytes_split(b"", &[0xFF; 8], true, 3).unwrap(),
        [
            vec![],
            hex("4000000000000000"),
            hex("8000000000000000"),
            hex("c000000000000000"),
            vec![0xFF; 8]
        ]
    );
    assert!(matches!(
        bytes_split(b"a", b"b", false, 0),
        Err(PlanError::TooFewRegions { .. })
    ));
    assert!(matches!(
        bytes_split(b"", b"", false, 1),
        Err(PlanError::EmptyRange { .. })
    ));
    // UniformSplit is Bytes.split(first, last, true, n - 1) without its two ends.
    for n in [2usize, 3, 7, 40] {
        let full = bytes_split(b"", &[0xFF; 8], true, n - 1).unwrap();
        assert_eq!(full[1..n].to_vec(), uniform_split(n));
    }
}

#[test]
fn decimal_string_split_matches_hbase() {
    assert_eq!(
        strs(&decimal_string_split(4)),
        ["25000000", "50000000", "75000000"]
    );
    assert_eq!(
        strs(&decimal_string_split(7)),
        ["14285714", "28571428", "42857142", "57142856", "71428570", "85714284"]
    );
    assert_eq!(strs(&decimal_string_split(2)), ["50000000"]);
}

#[test]
fn uniform_split_matches_hbase() {
    assert_eq!(uniform_split(2), [vec![0x80, 0, 0, 0, 0, 0, 0, 0]]);
    assert_eq!(uniform_split(3), [[0x55u8; 8].to_vec(), [0xAA; 8].to_vec()]);
    let seven: Vec<String> = uniform_split(7)
        .iter()
        .map(|p| to_string_binary(p))
        .collect();
    let expected = [
        "2492492492492492",
        "4924924924924924",
        "6DB6DB6DB6DB6DB6",
        "9249249249249248",
        "B6DB6DB6DB6DB6DA",
        "DB6DB6DB6DB6DB6C",
    ];
    for (got, hex) in seven.iter().zip(expected) {
        let bytes: Vec<u8> = (0..8)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        assert_eq!(*got, to_string_binary(&bytes));
    }
    assert!(uniform_split(1).is_empty());
}

#[test]
fn uniform_split_range_follows_bytes_split() {
    assert_eq!(uniform_split_range(2, b"a", b"c").unwrap(), [b"b".to_vec()]);
    // diff + 1 = 2 < 4 regions: both rows grow by a 0x00 byte: range = 256 + 1 = 257,
    // interval 64.
    assert_eq!(
        uniform_split_range(4, b"a", b"b").unwrap(),
        [b"a\x40".to_vec(), b"a\x80".to_vec(), b"a\xC0".to_vec()]
    );
    // Shorter row padded with 0x00 to the longer one's length.
    assert_eq!(
        uniform_split_range(2, b"", b"\xFF\xFF").unwrap(),
        [b"\x80\x00".to_vec()]
    );
    assert!(matches!(
        uniform_split_range(2, b"\x01", b"\x01\x00"),
        Err(PlanError::EmptyRange { .. })
    ));
    assert!(matches!(
        uniform_split_range(2, b"b", b"a"),
        Err(PlanError::EmptyRange { .. })
    ));
    assert!(matches!(
        uniform_split_range(1, b"a", b"b"),
        Err(PlanError::TooFewRegions { .. })
    ));
    // Wider than u128: still exact.
    let pts = uniform_split_range(2, &[0u8; 20], &[0xFF; 20]).unwrap();
    let mut half = vec![0x80u8];
    half.extend_from_slice(&[0; 19]);
    assert_eq!(pts, [half]);
}

#[test]
fn number_split_ranges_and_errors() {
    assert_eq!(
        strs(&hex_string_split_range(4, "0000", "FFFF").unwrap()),
        ["4000", "8000", "c000"]
    );
    // Padding follows the last row's length; first row offsets the points.
    assert_eq!(
        strs(&hex_string_split_range(2, "1", "0003").unwrap()),
        ["0002"]
    );
    // Wider than u128.
    let wide = hex_string_split_range(2, "0", &"f".repeat(40)).unwrap();
    assert_eq!(strs(&wide), [format!("8{}", "0".repeat(39))]);
    assert!(matches!(
        hex_string_split_range(2, "", "ff"),
        Err(PlanError::InvalidRow { .. })
    ));
    assert!(matches!(
        hex_string_split_range(2, "-1", "ff"),
        Err(PlanError::InvalidRow { .. })
    ));
    assert!(matches!(
        decimal_string_split_range(2, "00", "9a"),
        Err(PlanError::InvalidRow { .. })
    ));
    assert!(matches!(
        hex_string_split_range(2, "ff", "ff"),
        Err(PlanError::EmptyRange { .. })
    ));
    let e = hex_string_split_range(5, "0", "3").unwrap_err();
    assert_eq!(
        e,
        PlanError::RangeTooSmall {
            regions: 5,
            range: "4".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "split granularity (5) is greater than the range (4)"
    );
    // Exactly as many regions as rows.
    assert_eq!(
        strs(&hex_string_split_range(4, "0", "3").unwrap()),
        ["1", "2", "3"]
    );
    assert!(matches!(
        hex_string_split_range(1, "0", "f"),
        Err(PlanError::TooFewRegions { .. })
    ));
    // Absurd counts fail fast instead of exhausting memory.
    let huge = "f".repeat(64);
    for regions in [MAX_REGIONS + 1, usize::MAX] {
        assert_eq!(
            hex_string_split_range(regions, "0", &huge),
            Err(PlanError::RegionLimit {
                regions,
                max: MAX_REGIONS
            })
        );
        assert!(matches!(
            uniform_split_range(regions, b"", &[0xFF; 16]),
            Err(PlanError::RegionLimit { .. })
        ));
        assert!(hex_string_split(regions).is_empty());
        assert!(uniform_split(regions).is_empty());
    }
    assert!(PlanError::RegionLimit { regions: 5, max: 4 }
        .to_string()
        .contains("at most 4"));
}

#[test]
fn nat_arithmetic() {
    let a = Nat::from_u128(1_000_000_007);
    assert_eq!(a.to_radix_string(10), "1000000007");
    assert_eq!(a.to_radix_string(16), "3b9aca07");
    assert_eq!(Nat::parse_radix("3B9ACA07", 16), Some(a.clone()));
    assert_eq!(Nat::zero().to_radix_string(16), "0");
    let b = Nat::from_u128(u128::MAX);
    let c = b.add(&Nat::from_u128(1));
    assert_eq!(c.0.len(), 17);
    assert_eq!(c.checked_sub(&b), Some(Nat::from_u128(1)));
    assert_eq!(b.checked_sub(&c), None);
    assert_eq!(c.div_rem_small(2).0, Nat::from_u128(1 << 127));
    assert_eq!(Nat::from_be_bytes(&[0, 0, 5]), Nat::from_u128(5));
    assert!(Nat::from_u128(256) > Nat::from_u128(255));
}

#[test]
fn sample_quantiles() {
    let keys: Vec<String> = (0..1000).map(|i| format!("k{i:04}")).collect();
    let pts = split_points_from_sample(&keys, 10);
    assert_eq!(pts.len(), 9);
    assert_eq!(pts[0], b"k0100");
    assert_eq!(pts[8], b"k0900");
    assert_strictly_increasing(&pts);
    assert!(split_points_from_sample(&keys, 1).is_empty());
    assert!(split_points_from_sample(&keys, 0).is_empty());
    assert!(split_points_from_sample(Vec::<Vec<u8>>::new(), 4).is_empty());
    // More regions than keys: each distinct key above the smallest, once.
    assert_eq!(
        split_points_from_sample(["b", "a", "c"], 10),
        [b"b".to_vec(), b"c".to_vec()]
    );
    assert!(split_points_from_sample(["x", "x", "x"], 3).is_empty());
    assert_eq!(
        split_points_from_sample(["b", "a", "c"], usize::MAX),
        [b"b".to_vec(), b"c".to_vec()]
    );
}

#[test]
fn region_count_formula() {
    const GB: u64 = 1_000_000_000;
    const GIB: u64 = 1 << 30;
    const TIB: u64 = 1 << 40;
    // The seed's "6.5 TB → 600 regions" is a rounded figure: no unit convention gives
    // exactly 600 at 10 GB regions (650 decimal, 606 TB/GiB, 666 TiB/GiB).
    assert_eq!(region_count(6_500 * GB, 10 * GB), 650);
    assert_eq!(region_count(6_500 * GB, 10 * GIB), 606);
    assert_eq!(region_count(13 * TIB / 2, 10 * GIB), 666);
    assert_eq!(region_count(10 * GB, 10 * GB), 1);
    assert_eq!(region_count(10 * GB + 1, 10 * GB), 2);
    assert_eq!(region_count(0, 10 * GB), 0);
    assert_eq!(region_count(5, 0), 0);
    assert_eq!(region_count(u64::MAX, 1), u64::MAX);
    assert_eq!(region_count(u64::MAX, 2), u64::MAX / 2 + 1);
}

#[test]
fn create_statement_format() {
    assert_eq!(
        create_statement("ns:table", "d", &hex_string_split(4)),
        r#"create 'ns:table', {NAME => 'd', COMPRESSION => 'SNAPPY'}, SPLITS => ["40000000", "80000000", "c0000000"]"#
    );
    assert_eq!(
        create_statement("t", "d", &Vec::<Vec<u8>>::new()),
        "create 't', {NAME => 'd', COMPRESSION => 'SNAPPY'}"
    );
    let s = CreateStatement::new("o'k", "f")
        .compression(None)
        .splits([b"\\\"#{}".as_slice()])
        .to_string();
    assert_eq!(
        s,
        r#"create 'o\'k', {NAME => 'f'}, SPLITS => ["\\x5C\"\#{}"]"#
    );
}

/// Parses the SPLITS of a create statement the way the HBase shell does: evaluate the Ruby
/// literal, then `Bytes.toBytesBinary`.
#[test]
fn create_statement_splits_read_back() {
    let splits: Vec<Vec<u8>> = vec![vec![0], vec![1, 0x5C], b"a\"b#{c}".to_vec(), vec![0xFF]];
    let stmt = create_statement("t", "d", &splits);
    let list = stmt
        .split("SPLITS => [")
        .nth(1)
        .unwrap()
        .trim_end_matches(']');
    let mut got = Vec::new();
    for lit in list.split("\", \"") {
        let lit = lit.trim_matches('"');
        // Ruby: `\\` → `\`, `\"` → `"`, `\#` → `#` (the only escapes the literal uses).
        let mut value = String::new();
        let mut it = lit.chars();
        while let Some(c) = it.next() {
            if c == '\\' {
                value.push(it.next().unwrap());
            } else {
                assert!(c != '"');
                value.push(c);
            }
        }
        got.push(from_string_binary(&value).unwrap());
    }
    assert_eq!(got, splits);
}

const HEX4: FieldLayout = FieldLayout {
    name: "user",
    ty: "String",
    encoding: FieldEncoding::Sep,
    width: None,
    desc: false,
    hash_prefix: Some(HashPrefix {
        width: 4,
        raw: false,
    }),
};
const PLAIN: FieldLayout = FieldLayout {
    hash_prefix: None,
    ..HEX4
};
const RAW2: FieldLayout = FieldLayout {
    hash_prefix: Some(HashPrefix {
        width: 2,
        raw: true,
    }),
    desc: true,
    ..HEX4
};
const HEX32: FieldLayout = FieldLayout {
    hash_prefix: Some(HashPrefix {
        width: 32,
        raw: false,
    }),
    ..HEX4
};

fn layout(fields: &'static [FieldLayout], salt: Option<(u32, usize)>) -> Layout {
    Layout {
        name: "K",
        prefix: &[],
        fields,
        salt: salt.map(|(buckets, width)| SaltLayout {
            buckets,
            width,
            through_field: 0,
            fields: &[0],
            kind: SaltKind::Phoenix,
        }),
        fixed_width: None,
        max_len: None,
    }
}

/// Region index of `key` given split points.
fn region_of(points: &[Vec<u8>], key: &[u8]) -> usize {
    points.partition_point(|p| p.as_slice() <= key)
}

#[test]
fn layout_hash_prefix_hex() {
    let l = layout(&[HEX4], None);
    let pts = layout_split_points(&l, 40).unwrap();
    assert_eq!(pts.len(), 39);
    assert_strictly_increasing(&pts);
    // floor(j * 65536 / 40): 1638.4 → 0666, 3276.8 → 0ccc
    assert_eq!(strs(&pts[..2]), ["0666", "0ccc"]);
    // Only hex characters: every point is a reachable 4-char hex prefix.
    assert!(pts.iter().all(|p| p.len() == 4
        && p.iter()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())));
    // Every region receives keys: each point itself is a possible prefix.
    let mut hit = [false; 40];
    for v in 0..=0xFFFFu32 {
        hit[region_of(&pts, format!("{v:04x}rest").as_bytes())] = true;
    }
    assert!(hit.iter().all(|&h| h));
    assert!(layout_split_points(&l, 1).unwrap().is_empty());
    assert!(matches!(
        layout_split_points(&l, 0),
        Err(PlanError::TooFewRegions { .. })
    ));
    assert!(matches!(
        layout_split_points(&l, 65_537),
        Err(PlanError::TooManyRegions { .. })
    ));
    assert_eq!(layout_split_points(&l, 65_536).unwrap().len(), 65_535);
    // Long prefixes use their first 8 characters.
    let pts = layout_split_points(&layout(&[HEX32], None), 4).unwrap();
    assert_eq!(strs(&pts), ["40000000", "80000000", "c0000000"]);
}

#[test]
fn layout_hash_prefix_raw_desc() {
    let pts = layout_split_points(&layout(&[RAW2], None), 4).unwrap();
    assert_eq!(pts, [vec![0x40, 0], vec![0x80, 0], vec![0xC0, 0]]);
}

#[test]
fn layout_needs_sample() {
    let e = layout_split_points(&layout(&[PLAIN], None), 4).unwrap_err();
    assert_eq!(
        e,
        PlanError::NeedsSample {
            layout: "K",
            salt_buckets: None
        }
    );
    assert!(e.to_string().contains("split_points_from_sample"));
    assert!(layout_split_points(&layout(&[], None), 4).is_err());
    // One region never needs a sample.
    assert!(layout_split_points(&layout(&[PLAIN], None), 1)
        .unwrap()
        .is_empty());
}

#[test]
fn layout_salt_buckets() {
    let l = layout(&[HEX4], Some((16, 1)));
    let pts = layout_split_points(&l, 16).unwrap();
    assert_eq!(pts, (1..16u8).map(|b| vec![b]).collect::<Vec<_>>());
    assert_eq!(layout_split_points(&l, 4).unwrap(), [[4], [8], [12]]);
    assert_eq!(layout_split_points(&l, 3).unwrap(), [[5], [10]]);
    assert_eq!(layout_split_points(&l, 2).unwrap(), [[8]]);
    let e = layout_split_points(&l, 20).unwrap_err();
    assert_eq!(
        e,
        PlanError::RegionsNotMultipleOfBuckets {
            regions: 20,
            buckets: 16
        }
    );
    assert!(e.to_string().contains("multiple"));
    assert!(e.to_string().contains("salted_sample_split_points"));
    // Without a hash prefix after the salt, nothing within a bucket is known to vary: more
    // regions than buckets need a sample (never a split at byte 0x80 of a u64 id).
    let l = layout(&[PLAIN], Some((16, 1)));
    let e = layout_split_points(&l, 32).unwrap_err();
    assert_eq!(
        e,
        PlanError::NeedsSample {
            layout: "K",
            salt_buckets: Some(16)
        }
    );
    assert!(e.to_string().contains("salted_sample_split_points"), "{e}");
    assert!(e.to_string().contains("16 buckets"), "{e}");
    assert_eq!(
        layout_split_points(&l, 20),
        Err(PlanError::NeedsSample {
            layout: "K",
            salt_buckets: Some(16)
        })
    );
    assert_eq!(layout_split_points(&l, 16).unwrap().len(), 15);
}

#[test]
fn layout_salt_with_hash_prefix() {
    let l = layout(&[HEX4], Some((4, 1)));
    let pts = layout_split_points(&l, 8).unwrap();
    let shown: Vec<String> = pts.iter().map(|p| to_string_binary(p)).collect();
    assert_eq!(
        shown,
        [
            r"\x008000",
            r"\x01",
            r"\x018000",
            r"\x02",
            r"\x028000",
            r"\x03",
            r"\x038000"
        ]
    );
}

#[test]
fn layout_two_byte_salt() {
    let l = layout(&[PLAIN], Some((1000, 2)));
    let pts = layout_split_points(&l, 1000).unwrap();
    assert_eq!(pts.len(), 999);
    assert_eq!(pts[0], [0, 1]);
    assert_eq!(pts[998], [0x03, 0xE7]);
    assert_strictly_increasing(&pts);
    assert!(matches!(
        layout_split_points(&l, 2000),
        Err(PlanError::NeedsSample { .. })
    ));
    let pts = layout_split_points(&layout(&[HEX4], Some((1000, 2))), 2000).unwrap();
    assert_eq!(pts.len(), 1999);
    assert_strictly_increasing(&pts);
    assert_eq!(pts[0], [0, 0, b'8', b'0', b'0', b'0']);
    // Inconsistent layouts are errors, not panics.
    assert!(matches!(
        layout_split_points(&layout(&[PLAIN], Some((1000, 1))), 4),
        Err(PlanError::InvalidLayout { .. })
    ));
    assert!(matches!(
        layout_split_points(&layout(&[PLAIN], Some((0, 1))), 4),
        Err(PlanError::InvalidLayout { .. })
    ));
    assert!(matches!(
        layout_split_points(&layout(&[PLAIN], Some((1000, 2))), usize::MAX / 1000 * 1000),
        Err(PlanError::RegionLimit { .. })
    ));
}

/// `n` keys per bucket of a `buckets`-bucket, 1-byte salt: salt then a big-endian counter.
fn salted_sample(counts: &[u32]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (b, &n) in counts.iter().enumerate() {
        for i in 0..n {
            let mut k = vec![b as u8];
            k.extend_from_slice(&u64::from(i).to_be_bytes());
            out.push(k);
        }
    }
    out
}

#[test]
fn salted_sample_keeps_buckets_and_apportions() {
    let l = layout(&[PLAIN], Some((4, 1)));
    // Bucket sizes 100, 300, 100, 0: 8 regions = 4 buckets + 4 extra by D'Hondt, each to
    // the highest keys/region: 300 (bucket 1 → 150), 150 (bucket 1 → 100), a three-way tie
    // at 100 goes to the lowest bucket (0 → 50), then 100 again (bucket 1 → 75).
    let sample = salted_sample(&[100, 300, 100, 0]);
    let pts = salted_sample_split_points(&l, &sample, 8).unwrap();
    assert_strictly_increasing(&pts);
    assert_eq!(pts.len(), 7);
    let boundaries: Vec<&Vec<u8>> = pts.iter().filter(|p| p.len() == 1).collect();
    assert_eq!(boundaries, [&vec![1u8], &vec![2], &vec![3]]);
    let mut per_region = vec![0usize; pts.len() + 1];
    for k in &sample {
        per_region[region_of(&pts, k)] += 1;
    }
    // Bucket 0: 2 regions of 50; bucket 1: 4 of 75; bucket 2: 1 of 100; bucket 3: none in
    // the sample, one region.
    assert_eq!(per_region, [50, 50, 75, 75, 75, 75, 100, 0]);
    // Order of the sample does not matter.
    let mut rev = sample.clone();
    rev.reverse();
    assert_eq!(salted_sample_split_points(&l, &rev, 8).unwrap(), pts);
    // Not more than buckets: the layout's bucket boundaries.
    assert_eq!(
        salted_sample_split_points(&l, &sample, 4).unwrap(),
        [[1], [2], [3]]
    );
    assert_eq!(salted_sample_split_points(&l, &sample, 2).unwrap(), [[2]]);
    // 3 regions over 4 buckets: the whole sample's quantiles.
    assert_eq!(
        salted_sample_split_points(&l, &sample, 3).unwrap(),
        split_points_from_sample(&sample, 3)
    );
    assert!(salted_sample_split_points(&l, &sample, 1)
        .unwrap()
        .is_empty());
    // A bucket gets at most its distinct keys; duplicates do not produce empty regions.
    let few = salted_sample(&[2, 1, 1, 1]);
    let pts = salted_sample_split_points(&l, &few, 100).unwrap();
    assert_eq!(pts.len(), 4);
    // Non-multiples are fine.
    let even = salted_sample(&[1000, 1000, 1000, 1000]);
    let pts = salted_sample_split_points(&l, &even, 10).unwrap();
    assert_eq!(pts.len(), 9);
    let mut per_region = vec![0usize; 10];
    for k in &even {
        per_region[region_of(&pts, k)] += 1;
    }
    assert_eq!(
        per_region,
        [333, 333, 334, 333, 333, 334, 500, 500, 500, 500]
    );
}

#[test]
fn salted_sample_errors() {
    let l = layout(&[PLAIN], Some((4, 1)));
    let e = salted_sample_split_points(&l, [b"\x04abc".as_slice()], 8).unwrap_err();
    assert!(matches!(e, PlanError::InvalidSampleKey { index: 0, .. }));
    assert!(
        e.to_string().contains("salt 4 is not below the 4 buckets"),
        "{e}"
    );
    let e = salted_sample_split_points(&l, [b"\x01".as_slice(), b""], 8).unwrap_err();
    assert!(matches!(e, PlanError::InvalidSampleKey { index: 1, .. }));
    // Invalid keys are errors for every region count.
    assert!(salted_sample_split_points(&l, [b"\x09".as_slice()], 2).is_err());
    let unsalted = layout(&[PLAIN], None);
    let e = salted_sample_split_points(&unsalted, [b"a".as_slice()], 8).unwrap_err();
    assert_eq!(e, PlanError::NotSalted { layout: "K" });
    assert!(e.to_string().contains("split_points_from_sample"));
    assert!(matches!(
        salted_sample_split_points(&l, [b"\x01".as_slice()], 0),
        Err(PlanError::TooFewRegions { .. })
    ));
    assert!(matches!(
        salted_sample_split_points(&l, [b"\x01".as_slice()], MAX_REGIONS + 1),
        Err(PlanError::RegionLimit { .. })
    ));
    assert!(matches!(
        salted_sample_split_points(&layout(&[PLAIN], Some((0, 1))), [b"\x01".as_slice()], 8),
        Err(PlanError::InvalidLayout { .. })
    ));
    // Two-byte salts.
    let big = layout(&[PLAIN], Some((1000, 2)));
    let sample: Vec<Vec<u8>> = (0..4000u32)
        .map(|i| {
            let mut k = ((i % 1000) as u16).to_be_bytes().to_vec();
            k.extend_from_slice(&i.to_be_bytes());
            k
        })
        .collect();
    let pts = salted_sample_split_points(&big, &sample, 2000).unwrap();
    assert_eq!(pts.len(), 1999);
    assert_strictly_increasing(&pts);
    // The dispatcher: unsalted layouts use plain quantiles.
    assert_eq!(
        layout_sample_split_points(&unsalted, ["a", "b", "c", "d"], 2).unwrap(),
        [b"c"]
    );
    assert!(layout_sample_split_points(&unsalted, ["a"], 0).is_err());
}

#[test]
fn salted_regions_all_reachable() {
    // Keys: salt byte then 4 hex chars; every region of every plan gets at least one.
    let l = layout(&[HEX4], Some((8, 1)));
    for regions in [2, 3, 5, 8, 16, 24, 64] {
        let pts = layout_split_points(&l, regions).unwrap();
        assert_eq!(pts.len(), regions - 1);
        assert_strictly_increasing(&pts);
        let mut hit = vec![false; regions];
        for salt in 0..8u8 {
            for v in (0..=0xFFFFu32).step_by(7) {
                let mut key = vec![salt];
                key.extend_from_slice(format!("{v:04x}").as_bytes());
                hit[region_of(&pts, &key)] = true;
            }
        }
        assert!(hit.iter().all(|&h| h), "regions = {regions}");
    }
}

proptest! {
    #[test]
    fn prop_hex_split_properties(n in 2usize..2000) {
        let pts = hex_string_split(n);
        prop_assert_eq!(pts.len(), n - 1);
        for w in pts.windows(2) {
            prop_assert!(w[0] < w[1]);
        }
        prop_assert!(pts.iter().all(|p| p.len() == 8));
        // Same as the u64 formula.
        let step = (1u64 << 32) / n as u64;
        for (i, p) in pts.iter().enumerate() {
            prop_assert_eq!(p.clone(), format!("{:08x}", step * (i as u64 + 1)).into_bytes());
        }
    }

    #[test]
    fn prop_uniform_split_properties(n in 2usize..2000) {
        let pts = uniform_split(n);
        prop_assert_eq!(pts.len(), n - 1);
        let interval = (1u128 << 64) / n as u128;
        for (i, p) in pts.iter().enumerate() {
            let v = interval * (i as u128 + 1);
            prop_assert_eq!(p.clone(), (v as u64).to_be_bytes().to_vec());
        }
    }

    #[test]
    fn prop_uniform_range(
        a in proptest::collection::vec(any::<u8>(), 0..6),
        b in proptest::collection::vec(any::<u8>(), 0..6),
        n in 2usize..50,
    ) {
        match uniform_split_range(n, &a, &b) {
            Ok(pts) => {
                prop_assert_eq!(pts.len(), n - 1);
                for w in pts.windows(2) {
                    prop_assert!(w[0] < w[1]);
                }
                let first = pts.first().unwrap();
                let last = pts.last().unwrap();
                prop_assert!(a.as_slice() < first.as_slice());
                prop_assert!(last.as_slice() <= b.as_slice() || b.len() < last.len());
            }
            Err(_) => {
                let len = a.len().max(b.len());
                let mut ap = a.clone();
                ap.resize(len, 0);
                let mut bp = b.clone();
                bp.resize(len, 0);
                prop_assert!(bp <= ap || b <= a);
            }
        }
    }

    #[test]
    fn prop_sample_points(
        keys in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..4), 0..200),
        regions in 0usize..50,
    ) {
        let pts = split_points_from_sample(&keys, regions);
        prop_assert!(pts.len() <= regions.saturating_sub(1));
        for w in pts.windows(2) {
            prop_assert!(w[0] < w[1]);
        }
        // Every region holds at least one sample key.
        if !pts.is_empty() {
            let mut hit = vec![false; pts.len() + 1];
            for k in &keys {
                hit[region_of(&pts, k)] = true;
            }
            prop_assert!(hit.iter().all(|&h| h));
        }
    }

    #[test]
    fn prop_layout_points(buckets in 1u32..300, m in 1usize..6, hex in any::<bool>()) {
        let fields: &'static [FieldLayout] = if hex { &[HEX4] } else { &[PLAIN] };
        let width = crate::layout::SaltLayout::width_for(buckets);
        let l = layout(fields, Some((buckets, width)));
        let regions = buckets as usize * m;
        match layout_split_points(&l, regions) {
            Ok(pts) => {
                prop_assert!(hex || m == 1);
                prop_assert_eq!(pts.len(), regions - 1);
                for w in pts.windows(2) {
                    prop_assert!(w[0] < w[1]);
                }
            }
            Err(e) => {
                prop_assert!(!hex && m > 1);
                prop_assert_eq!(e, PlanError::NeedsSample { layout: "K", salt_buckets: Some(buckets) });
            }
        }
        for fewer in [1usize, 2, buckets as usize / 2, buckets as usize] {
            if fewer >= 1 && (hex || fewer <= buckets as usize) {
                let pts = layout_split_points(&l, fewer).unwrap();
                prop_assert_eq!(pts.len(), fewer - 1);
                for w in pts.windows(2) {
                    prop_assert!(w[0] < w[1]);
                }
            }
        }
    }
}
