//! Shared keyspaces: tagged key enums (several key types in one table, each behind a constant
//! tag) and a container `#[rowkey(prefix = b"..")]`.

use rowkey::plan::SplitPoints;
use std::collections::BTreeMap;

use rowkey::read::{Directed, Read};
use rowkey::{DecodeErrorKind, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderRow {
    #[salt(buckets = 4)]
    order_id: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct BuyerIndex {
    #[sep]
    buyer: String,
    #[reverse_ts]
    created_ms: i64,
    order_id: u64,
}

/// Rows and index entries in one table (TiDB's `t{id}_r` / `t{id}_i`).
#[derive(RowKey, Debug, Clone, PartialEq)]
enum Table {
    #[rowkey(tag = b"r")]
    Row(OrderRow),
    #[rowkey(tag = b"i1")]
    ByBuyer(BuyerIndex),
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"t42_", salt(buckets = 8))]
struct Prefixed {
    #[sep]
    host: String,
    seq: u32,
}

fn rows() -> Vec<Table> {
    let mut v = Vec::new();
    for id in [0u64, 1, 7, 42, u64::MAX] {
        v.push(Table::Row(OrderRow { order_id: id }));
    }
    for (buyer, ts) in [
        ("ann", 5i64),
        ("ann", 9),
        ("bob", 1),
        ("", 3),
        ("ann\0x", 2),
    ] {
        v.push(Table::ByBuyer(BuyerIndex {
            buyer: buyer.into(),
            created_ms: ts,
            order_id: 1,
        }));
    }
    v
}

#[test]
fn tagged_round_trip_and_layout() {
    for r in rows() {
        let k = r.to_row_key().unwrap();
        assert_eq!(k.len(), r.encoded_len());
        match &r {
            Table::Row(inner) => {
                assert_eq!(&k[..1], b"r");
                assert_eq!(
                    &k[1..],
                    &inner.to_row_key().unwrap()[..],
                    "tag then the variant's own key"
                );
            }
            Table::ByBuyer(inner) => {
                assert_eq!(&k[..2], b"i1");
                assert_eq!(&k[2..], &inner.to_row_key().unwrap()[..]);
            }
        }
        assert_eq!(Table::from_row_key(&k).unwrap(), r);
    }
}

#[test]
fn tagged_unknown_tag_and_errors_are_rejected() {
    let e = Table::from_row_key(b"x\x00\x00").unwrap_err();
    assert_eq!(e.kind(), &DecodeErrorKind::UnknownTag);
    assert!(Table::from_row_key(b"").is_err());
    assert!(
        Table::from_row_key(b"i").is_err(),
        "a partial tag is no tag"
    );
    // an error inside the variant's key names the field at its offset in the whole key
    let mut k = Table::Row(OrderRow { order_id: 7 })
        .to_row_key()
        .unwrap()
        .to_vec();
    k[1] ^= 1; // the salt
    let e = Table::from_row_key(&k).unwrap_err();
    assert_eq!(e.offset(), 1, "{e}");
    assert!(e.to_string().contains("salt"), "{e}");
    // a key of one variant is not a key of the other's type
    let idx = Table::ByBuyer(BuyerIndex {
        buyer: "ann".into(),
        created_ms: 5,
        order_id: 1,
    })
    .to_row_key()
    .unwrap();
    assert!(OrderRow::from_row_key(&idx[1..]).is_err());
}

#[test]
fn tagged_order_and_isolation() {
    let mut all: Vec<(Vec<u8>, Table)> = rows()
        .into_iter()
        .map(|r| (r.to_row_key().unwrap().to_vec(), r))
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    // within a tag, the variant's own key order
    let idx: Vec<&BuyerIndex> = all
        .iter()
        .filter_map(|(_, r)| match r {
            Table::ByBuyer(b) => Some(b),
            Table::Row(_) => None,
        })
        .collect();
    let mut by_own: Vec<&BuyerIndex> = idx.clone();
    by_own.sort_by_key(|b| b.to_row_key().unwrap());
    assert_eq!(idx, by_own);
    // a variant's scan sees only its own keys, exactly
    for (k, r) in &all {
        let in_rows = Table::scan_row().ranges().contains(k);
        let in_ann = Table::scan_by_buyer().buyer("ann").ranges().contains(k);
        match r {
            Table::Row(_) => assert!(in_rows && !in_ann),
            Table::ByBuyer(b) => assert_eq!((in_rows, in_ann), (false, b.buyer == "ann")),
        }
    }
    // a salted variant fans out behind its tag, one range per bucket
    let r = Table::scan_row().ranges();
    assert_eq!(r.len(), 4);
    assert!(r.iter().all(|x| x.start().starts_with(b"r")));
    assert_eq!(r.salt_end(), 2, "tag then salt");
    assert_eq!(Table::scan_row().order_id(42).ranges().len(), 1);
}

#[test]
fn tagged_describe_and_typed_reads() {
    let k = Table::ByBuyer(BuyerIndex {
        buyer: "ann".into(),
        created_ms: 5,
        order_id: 1,
    })
    .to_row_key()
    .unwrap();
    let d = Table::describe(&k);
    assert!(d.starts_with("variant=ByBuyer buyer=\"ann\""), "{d}");
    let d = Table::describe(b"zz");
    assert!(d.contains("tag"), "{d}");
    // a salted variant: the salt is a word of its own (issue 23: `variant=Rowsalt=…`)
    let k = Table::Row(OrderRow { order_id: 42 }).to_row_key().unwrap();
    let salt = k[1];
    assert_eq!(
        Table::describe(&k),
        format!("variant=Row salt={salt} order_id=42")
    );

    // typed merged read of one variant, across its salt buckets, in logical order
    let map: BTreeMap<Vec<u8>, u64> = (0..50u64)
        .map(|id| {
            (
                Table::Row(OrderRow { order_id: id })
                    .to_row_key()
                    .unwrap()
                    .to_vec(),
                id,
            )
        })
        .chain(
            rows()
                .into_iter()
                .map(|r| (r.to_row_key().unwrap().to_vec(), 0)),
        )
        .collect();
    let read = Read::<Table>::new(Table::scan_row().ranges());
    let got: Vec<u64> = read
        .rows(
            read.ranges()
                .iter()
                .map(|r| Directed::new(map.range::<[u8], _>(r.bounds()), false)),
        )
        .map(|r| match r.unwrap().0 {
            Table::Row(o) => o.order_id,
            other => panic!("{other:?}"),
        })
        .collect();
    let mut want: Vec<u64> = (0..50).chain([0, 1, 7, 42, u64::MAX]).collect();
    want.sort_unstable();
    want.dedup();
    assert_eq!(got, want);
}

#[test]
fn container_prefix() {
    let k = Prefixed {
        host: "web1".into(),
        seq: 3,
    }
    .to_row_key()
    .unwrap();
    assert_eq!(&k[..4], b"t42_");
    assert_eq!(
        Prefixed::from_row_key(&k).unwrap(),
        Prefixed {
            host: "web1".into(),
            seq: 3
        }
    );
    assert_eq!(Prefixed::LAYOUT.prefix, b"t42_");
    assert_eq!(Prefixed::LAYOUT.salt_end(), 5);
    let mut bad = k.to_vec();
    bad[1] = b'3';
    let e = Prefixed::from_row_key(&bad).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::PrefixMismatch { .. }),
        "{e}"
    );
    assert_eq!(e.field(), "prefix");
    // scans and plans keep the prefix
    let r = Prefixed::scan().ranges();
    assert_eq!(r.len(), 8);
    assert!(r.iter().all(|x| x.start().starts_with(b"t42_")));
    assert!(Prefixed::scan().host("web1").ranges().contains(&k));
    let points = Prefixed::split_points(8).unwrap();
    assert_eq!(points.len(), 7);
    assert!(points
        .iter()
        .all(|p| p.starts_with(b"t42_") && p.len() == 5));
    let sample: Vec<Vec<u8>> = (0..2000u32)
        .map(|seq| {
            Prefixed {
                host: format!("h{}", seq % 37),
                seq,
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        })
        .collect();
    let points = Prefixed::split_points_from_sample(&sample, 16).unwrap();
    assert!(points.iter().all(|p| p.starts_with(b"t42_")));
    let lint = rowkey::plan::Lint::new(Prefixed::split_points(8).unwrap())
        .layout(Prefixed::LAYOUT)
        .run();
    assert!(lint.is_clean(), "{lint}");
}

/// Every builder form behind a constant prefix and behind a tag, against a brute-force filter:
/// equality, ranges in all bound shapes, starts-with.
#[test]
fn prefixed_and_tagged_scans_are_exact() {
    use crate::common::ranges::assert_well_formed as well_formed;
    use std::ops::Bound::{self, Excluded, Included, Unbounded};
    let hosts = ["", "h", "h\0", "h1", "h12", "h2", "\u{7f}"];
    let within = |v: &str, lo: &Bound<&str>, hi: &Bound<&str>| {
        (match lo {
            Included(b) => v >= *b,
            Excluded(b) => v > *b,
            Unbounded => true,
        }) && (match hi {
            Included(b) => v <= *b,
            Excluded(b) => v < *b,
            Unbounded => true,
        })
    };
    let shapes = |a: &'static str, b: &'static str| {
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
    let prefixed: Vec<(Prefixed, Vec<u8>)> = hosts
        .iter()
        .flat_map(|h| {
            [0u32, 7].map(|seq| Prefixed {
                host: (*h).into(),
                seq,
            })
        })
        .map(|k| {
            let b = k.to_row_key().unwrap().to_vec();
            (k, b)
        })
        .collect();
    let tagged: Vec<(Table, Vec<u8>)> = hosts
        .iter()
        .flat_map(|h| {
            [1i64, 9].map(|ts| {
                Table::ByBuyer(BuyerIndex {
                    buyer: (*h).into(),
                    created_ms: ts,
                    order_id: 3,
                })
            })
        })
        .chain((0..5).map(|id| Table::Row(OrderRow { order_id: id })))
        .map(|k| {
            let b = k.to_row_key().unwrap().to_vec();
            (k, b)
        })
        .collect();
    for a in hosts {
        for b in hosts {
            for (lo, hi) in shapes(a, b) {
                let r = Prefixed::scan().host_range((lo, hi)).ranges();
                well_formed(&format_args!("host_range({lo:?}, {hi:?})"), &r);
                for (k, bytes) in &prefixed {
                    assert_eq!(
                        r.contains(bytes),
                        within(&k.host, &lo, &hi),
                        "{k:?} {lo:?}..{hi:?}"
                    );
                }
                let r = Table::scan_by_buyer().buyer_range((lo, hi)).ranges();
                well_formed(&format_args!("buyer_range({lo:?}, {hi:?})"), &r);
                for (k, bytes) in &tagged {
                    let want = matches!(k, Table::ByBuyer(x) if within(&x.buyer, &lo, &hi));
                    assert_eq!(r.contains(bytes), want, "{k:?} {lo:?}..{hi:?}");
                }
            }
        }
        let r = Prefixed::scan().host(a).ranges();
        well_formed(&format_args!("host({a:?})"), &r);
        for (k, bytes) in &prefixed {
            assert_eq!(r.contains(bytes), k.host == a);
        }
        let r = Prefixed::scan().host_starts_with(a).ranges();
        well_formed(&format_args!("host_starts_with({a:?})"), &r);
        for (k, bytes) in &prefixed {
            assert_eq!(r.contains(bytes), k.host.starts_with(a));
        }
        let r = Table::scan_by_buyer().buyer_starts_with(a).ranges();
        well_formed(&format_args!("buyer_starts_with({a:?})"), &r);
        for (k, bytes) in &tagged {
            assert_eq!(
                r.contains(bytes),
                matches!(k, Table::ByBuyer(x) if x.buyer.starts_with(a))
            );
        }
        let r = Table::scan_by_buyer()
            .buyer(a)
            .created_ms_range(2..)
            .ranges();
        well_formed(&format_args!("buyer({a:?}).created_ms_range(2..)"), &r);
        for (k, bytes) in &tagged {
            let want = matches!(k, Table::ByBuyer(x) if x.buyer == a && x.created_ms >= 2);
            assert_eq!(r.contains(bytes), want, "{k:?}");
        }
    }
}
