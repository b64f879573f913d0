//! Scan argument forms and store bounds.
//!
//! - A field accepts the same forms in equality, `_range` and `_starts_with`: `&str`, `String`,
//!   `&String`, `Box<str>`, `Cow<str>` for strings; `&[u8]`, `Vec<u8>`, `&Vec<u8>`, `Bytes`,
//!   `[u8; N]`, `&[u8; N]` for bytes; any reference to those (`&&str`: see
//!   `rowkey-ui/tests/ui/pass/scan_arg_references.rs`); `Option`s of those in ranges. Every form of one value gives
//!   the same ranges, for every range shape.
//! - `ScanRange::bounds()` passes straight to redb's `Table::range::<&[u8]>` and to
//!   `BTreeMap::range::<[u8], _>`, selecting exactly the keys `contains` does.
//! - Ranges on `Option` fields under `#[reverse_ts]` (None first, then newest first) are exact.

#![allow(clippy::needless_borrows_for_generic_args)] // the borrowed forms are what is tested

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Bound;

use bytes::Bytes;
use redb::{Database, ReadableDatabase, TableDefinition};
use rowkey::{RowKey, ScanRanges};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Host {
    #[sep]
    host: String,
    #[sep]
    tag: Vec<u8>,
    #[pad(8)]
    zone: Box<str>,
    note: Option<String>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Blob {
    #[desc]
    #[sep]
    note: Option<String>,
    #[pad(4)]
    code: Bytes,
    raw: Vec<u8>,
}

fn same(what: &str, a: ScanRanges, b: ScanRanges) {
    crate::common::ranges::assert_well_formed(&what, &a);
    assert_eq!(a, b, "{what}");
}

#[test]
fn string_forms() {
    let s = String::from("web1");
    let canon = || Host::scan().host("web1").ranges();
    same("String", Host::scan().host(s.clone()).ranges(), canon());
    same("&String", Host::scan().host(&s).ranges(), canon());
    same(
        "Box<str>",
        Host::scan().host(Box::<str>::from("web1")).ranges(),
        canon(),
    );
    same(
        "Cow<str>",
        Host::scan().host(Cow::Borrowed("web1")).ranges(),
        canon(),
    );

    let canon = || Host::scan().host_range("web1".."web3").ranges();
    same(
        "Range<String>",
        Host::scan()
            .host_range(String::from("web1")..String::from("web3"))
            .ranges(),
        canon(),
    );
    same(
        "Range<&String>",
        Host::scan().host_range(&s..&String::from("web3")).ranges(),
        canon(),
    );
    same(
        "Range<Box<str>>",
        Host::scan()
            .host_range(Box::<str>::from("web1")..Box::from("web3"))
            .ranges(),
        canon(),
    );
    same(
        "(Bound<&str>, Bound<&str>)",
        Host::scan()
            .host_range((Bound::Included("web1"), Bound::Excluded("web3")))
            .ranges(),
        canon(),
    );
    same(
        "(Bound<String>, Bound<String>)",
        Host::scan()
            .host_range((
                Bound::Included(String::from("web1")),
                Bound::Excluded(String::from("web3")),
            ))
            .ranges(),
        canon(),
    );
    same(
        "RangeInclusive",
        Host::scan()
            .host_range(String::from("a")..=String::from("b"))
            .ranges(),
        Host::scan().host_range("a"..="b").ranges(),
    );
    same(
        "RangeFrom",
        Host::scan().host_range(s.clone()..).ranges(),
        Host::scan().host_range("web1"..).ranges(),
    );
    same(
        "RangeTo",
        Host::scan().host_range(..s.clone()).ranges(),
        Host::scan().host_range(.."web1").ranges(),
    );
    same(
        "RangeToInclusive",
        Host::scan().host_range(..=s.clone()).ranges(),
        Host::scan().host_range(..="web1").ranges(),
    );
    same(
        "RangeFull",
        Host::scan().host_range(..).ranges(),
        Host::scan().ranges(),
    );

    let canon = || Host::scan().host_starts_with("web").ranges();
    same(
        "starts_with String",
        Host::scan().host_starts_with(String::from("web")).ranges(),
        canon(),
    );
    same(
        "starts_with &String",
        Host::scan().host_starts_with(&String::from("web")).ranges(),
        canon(),
    );

    // the padded Box<str> field after fixed ones
    let canon = || Host::scan().host("a").tag(b"t").zone("eu").ranges();
    same(
        "Box<str> field, String",
        Host::scan()
            .host("a")
            .tag(b"t")
            .zone(String::from("eu"))
            .ranges(),
        canon(),
    );
    same(
        "Box<str> field range",
        Host::scan()
            .host("a")
            .tag(b"t")
            .zone_range(String::from("eu")..)
            .ranges(),
        Host::scan().host("a").tag(b"t").zone_range("eu"..).ranges(),
    );
}

#[test]
fn bytes_forms() {
    let v = b"t\x00\xFF".to_vec();
    let canon = || Host::scan().host("a").tag(&b"t\x00\xFF"[..]).ranges();
    same(
        "Vec<u8>",
        Host::scan().host("a").tag(v.clone()).ranges(),
        canon(),
    );
    same("&Vec<u8>", Host::scan().host("a").tag(&v).ranges(), canon());
    same(
        "Bytes",
        Host::scan().host("a").tag(Bytes::from(v.clone())).ranges(),
        canon(),
    );
    same(
        "[u8; N]",
        Host::scan().host("a").tag(*b"t\x00\xFF").ranges(),
        canon(),
    );
    same(
        "&[u8; N]",
        Host::scan().host("a").tag(b"t\x00\xFF").ranges(),
        canon(),
    );

    let canon = || {
        Host::scan()
            .host("a")
            .tag_range(&b"a"[..]..&b"c"[..])
            .ranges()
    };
    same(
        "Range<&[u8; N]>",
        Host::scan().host("a").tag_range(b"a"..b"c").ranges(),
        canon(),
    );
    same(
        "Range<Vec<u8>>",
        Host::scan()
            .host("a")
            .tag_range(b"a".to_vec()..b"c".to_vec())
            .ranges(),
        canon(),
    );
    same(
        "Range<Bytes>",
        Host::scan()
            .host("a")
            .tag_range(Bytes::from_static(b"a")..Bytes::from_static(b"c"))
            .ranges(),
        canon(),
    );
    same(
        "starts_with Vec<u8>",
        Host::scan()
            .host("a")
            .tag_starts_with(b"t\x00".to_vec())
            .ranges(),
        Host::scan()
            .host("a")
            .tag_starts_with(&b"t\x00"[..])
            .ranges(),
    );
    // a raw bytes last field behind a padded Bytes one
    let canon = || {
        Blob::scan()
            .note(None)
            .code(&b"ab"[..])
            .raw_starts_with(&b"\x00"[..])
            .ranges()
    };
    same(
        "Bytes field eq as [u8; 2]",
        Blob::scan()
            .note(None)
            .code(*b"ab")
            .raw_starts_with(vec![0])
            .ranges(),
        canon(),
    );
}

#[test]
fn option_forms_and_exactness() {
    let keys: Vec<(Option<String>, Vec<u8>)> =
        [None, Some(""), Some("a"), Some("a\0"), Some("b"), Some("c")]
            .into_iter()
            .map(|n| {
                let n = n.map(str::to_owned);
                let k = Blob {
                    note: n.clone(),
                    code: Bytes::from_static(b"x"),
                    raw: vec![],
                }
                .to_row_key()
                .unwrap()
                .to_vec();
                (n, k)
            })
            .collect();
    let check = |what: &str, r: ScanRanges, lo: Bound<Option<&str>>, hi: Bound<Option<&str>>| {
        crate::common::ranges::assert_well_formed(&what, &r);
        for (v, k) in &keys {
            let v = v.as_deref();
            let want = (match lo {
                Bound::Included(b) => v >= b,
                Bound::Excluded(b) => v > b,
                Bound::Unbounded => true,
            }) && (match hi {
                Bound::Included(b) => v <= b,
                Bound::Excluded(b) => v < b,
                Bound::Unbounded => true,
            });
            assert_eq!(r.contains(k), want, "{what}: {v:?} in {r:?}");
        }
    };
    check(
        "Some(&str)..Some(&str)",
        Blob::scan().note_range(Some("a")..Some("c")).ranges(),
        Bound::Included(Some("a")),
        Bound::Excluded(Some("c")),
    );
    check(
        "Some(String)..=Some(String)",
        Blob::scan()
            .note_range(Some(String::from("a"))..=Some(String::from("b")))
            .ranges(),
        Bound::Included(Some("a")),
        Bound::Included(Some("b")),
    );
    check(
        "None..Some",
        Blob::scan().note_range(None..Some("b")).ranges(),
        Bound::Included(None),
        Bound::Excluded(Some("b")),
    );
    check(
        "..=Some",
        Blob::scan().note_range(..=Some("a")).ranges(),
        Bound::Unbounded,
        Bound::Included(Some("a")),
    );
    check(
        "Some..",
        Blob::scan().note_range(Some("a\0")..).ranges(),
        Bound::Included(Some("a\0")),
        Bound::Unbounded,
    );
    check(
        "(Excluded(None), Unbounded)",
        Blob::scan()
            .note_range((Bound::Excluded(None::<&str>), Bound::Unbounded))
            .ranges(),
        Bound::Excluded(None),
        Bound::Unbounded,
    );
}

/// `Option` under `#[reverse_ts]`: the byte order is None, then the newest first — a value
/// range is None plus a reversed piece, both exact.
#[test]
fn option_reverse_ts_ranges() {
    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Ev {
        #[sep]
        host: String,
        #[reverse_ts]
        ts: Option<i64>,
        seq: u8,
    }
    let vals: Vec<Option<i64>> = [
        None,
        Some(0),
        Some(1),
        Some(5),
        Some(100),
        Some(i64::MAX - 1),
        Some(i64::MAX),
    ]
    .into();
    let keys: Vec<(Option<i64>, Vec<u8>)> = vals
        .iter()
        .flat_map(|&ts| {
            [0u8, 255].map(|seq| {
                (
                    ts,
                    Ev {
                        host: "h".into(),
                        ts,
                        seq,
                    }
                    .to_row_key()
                    .unwrap()
                    .to_vec(),
                )
            })
        })
        .collect();
    let shapes = |a: Option<i64>, b: Option<i64>| {
        use Bound::*;
        [
            (Included(a), Included(b)),
            (Included(a), Excluded(b)),
            (Included(a), Unbounded),
            (Excluded(a), Included(b)),
            (Excluded(a), Excluded(b)),
            (Excluded(a), Unbounded),
            (Unbounded, Included(b)),
            (Unbounded, Excluded(b)),
            (Unbounded, Unbounded),
        ]
    };
    let mut bounds = vals.clone();
    bounds.push(Some(-5));
    bounds.push(Some(3));
    for &a in &bounds {
        for &b in &bounds {
            for (lo, hi) in shapes(a, b) {
                let r = Ev::scan().host("h").ts_range((lo, hi)).ranges();
                assert!(r.len() <= 2, "{r:?}");
                for (v, k) in &keys {
                    let want = (match lo {
                        Bound::Included(x) => *v >= x,
                        Bound::Excluded(x) => *v > x,
                        Bound::Unbounded => true,
                    }) && (match hi {
                        Bound::Included(x) => *v <= x,
                        Bound::Excluded(x) => *v < x,
                        Bound::Unbounded => true,
                    });
                    assert_eq!(r.contains(k), want, "{v:?} in {lo:?}..{hi:?}: {r:?}");
                }
            }
        }
    }
}

const TABLE: TableDefinition<&[u8], u32> = TableDefinition::new("t");

/// `bounds()` in redb's and BTreeMap's `range`, against `contains`.
#[test]
fn bounds_in_stores() {
    let mut map: BTreeMap<Vec<u8>, u32> = BTreeMap::new();
    let hosts = ["", "web1", "web12", "web1\0", "web2", "\u{FF}"];
    for (i, h) in hosts.iter().enumerate() {
        for tag in [&b""[..], b"\x00", b"\xFF\xFF"] {
            let k = Host {
                host: (*h).into(),
                tag: tag.to_vec(),
                zone: "z".into(),
                note: None,
            };
            map.insert(k.to_row_key().unwrap().to_vec(), i as u32);
        }
    }
    let db = Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .unwrap();
    let tx = db.begin_write().unwrap();
    {
        let mut t = tx.open_table(TABLE).unwrap();
        for (k, v) in &map {
            t.insert(k.as_slice(), v).unwrap();
        }
    }
    tx.commit().unwrap();
    let rtx = db.begin_read().unwrap();
    let table = rtx.open_table(TABLE).unwrap();
    let scans = [
        Host::scan().ranges(),
        Host::scan().host("web1").ranges(),
        Host::scan().host_starts_with("web1").ranges(),
        Host::scan().host_range("web1"..="web2").ranges(),
        Host::scan().host("web1").tag_range(&b"\x00"[..]..).ranges(),
        Host::scan()
            .host("\u{FF}")
            .tag_starts_with(b"\xFF")
            .ranges(),
    ];
    for ranges in &scans {
        for r in ranges {
            let want: Vec<&Vec<u8>> = map.keys().filter(|k| r.contains(k)).collect();
            let from_map: Vec<&Vec<u8>> =
                map.range::<[u8], _>(r.bounds()).map(|(k, _)| k).collect();
            assert_eq!(from_map, want, "BTreeMap {r:?}");
            let from_redb: Vec<Vec<u8>> = table
                .range::<&[u8]>(r.bounds())
                .unwrap()
                .map(|e| e.unwrap().0.value().to_vec())
                .collect();
            assert_eq!(from_redb.iter().collect::<Vec<_>>(), want, "redb {r:?}");
        }
    }
}
