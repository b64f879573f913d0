//! `T::split_points` from real layouts: sorted, unique, the right count, and every region
//! reachable by keys of the layout (checked by encoding many keys and counting per region).

use rowkey::hotspot::Analyzer;
use rowkey::plan::{self, PlanError};
use rowkey::RowKey;

#[derive(RowKey)]
struct Salted {
    #[salt(buckets = 16)]
    host: u32,
    ts: u64,
}

#[derive(RowKey)]
struct BigSalt {
    #[salt(buckets = 1000)]
    id: u64,
}

#[derive(RowKey)]
#[rowkey(salt(buckets = 8))]
struct WholeKeySalt {
    tenant: u32,
    #[sep]
    name: String,
}

#[derive(RowKey)]
struct Hashed {
    #[hash_prefix(4)]
    #[sep]
    user: String,
    n: u32,
}

#[derive(RowKey)]
struct RawHashed {
    #[hash_prefix(2, raw)]
    user: u64,
}

#[derive(RowKey)]
struct Plain {
    #[sep]
    host: String,
    n: u32,
}

fn check_reachable(points: &[Vec<u8>], regions: usize, keys: impl Iterator<Item = Vec<u8>>) {
    assert_eq!(points.len(), regions - 1, "n - 1 split points");
    assert!(points.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
    let mut a = Analyzer::new(points).unwrap();
    for k in keys {
        a.add(&k);
    }
    let r = a.report();
    assert_eq!(
        r.empty_regions(),
        0,
        "every region is reachable: {}",
        r.summary()
    );
}

#[test]
fn salted_layouts() {
    let keys = || {
        (0..20_000u32).map(|i| {
            Salted {
                host: i.wrapping_mul(2_654_435_761),
                ts: u64::from(i),
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        })
    };
    for regions in [16, 8, 4, 2, 32, 64] {
        let p = Salted::split_points(regions).unwrap();
        check_reachable(&p, regions, keys());
    }
    // regions == buckets: one split per bucket boundary
    assert_eq!(
        Salted::split_points(16).unwrap(),
        (1..16u8).map(|b| vec![b]).collect::<Vec<_>>()
    );
    assert!(matches!(
        Salted::split_points(24),
        Err(PlanError::RegionsNotMultipleOfBuckets { .. })
    ));

    let p = BigSalt::split_points(100).unwrap();
    check_reachable(
        &p,
        100,
        (0..50_000u64).map(|i| BigSalt { id: i }.to_row_key().unwrap().to_vec()),
    );
    assert!(
        p.iter().all(|s| s.len() == 2),
        "two salt bytes above 256 buckets"
    );

    let p = WholeKeySalt::split_points(8).unwrap();
    check_reachable(
        &p,
        8,
        (0..5_000u32).map(|i| {
            WholeKeySalt {
                tenant: i % 7,
                name: format!("n{i}"),
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        }),
    );
}

#[test]
fn hash_prefix_layouts() {
    for regions in [2, 10, 40, 100] {
        let p = Hashed::split_points(regions).unwrap();
        assert!(
            p.iter().all(|s| s.iter().all(u8::is_ascii_hexdigit)),
            "hex characters only"
        );
        check_reachable(
            &p,
            regions,
            (0..30_000u32).map(|i| {
                Hashed {
                    user: format!("user{i}"),
                    n: i,
                }
                .to_row_key()
                .unwrap()
                .to_vec()
            }),
        );
    }
    let p = RawHashed::split_points(50).unwrap();
    check_reachable(
        &p,
        50,
        (0..30_000u64).map(|i| RawHashed { user: i }.to_row_key().unwrap().to_vec()),
    );
}

#[test]
fn layouts_without_salt_or_hash_need_a_sample() {
    let err = Plain::split_points(10).unwrap_err();
    assert!(matches!(err, PlanError::NeedsSample { .. }));
    assert!(
        err.to_string().contains("split_points_from_sample"),
        "{err}"
    );
    // ... which works:
    let sample: Vec<Vec<u8>> = (0..1000u32)
        .map(|i| {
            Plain {
                host: format!("host{}", i % 37),
                n: i,
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        })
        .collect();
    let p = plan::split_points_from_sample(&sample, 10);
    check_reachable(&p, 10, sample.into_iter());
    assert_eq!(Plain::split_points(1).unwrap(), Vec::<Vec<u8>>::new());
}

#[test]
fn hex_string_split_matches_hbase() {
    // RegionSplitter.HexStringSplit: rows "00000000".."ffffffff", last row inclusive.
    let p = plan::hex_string_split(4);
    assert_eq!(
        p,
        [
            b"40000000".to_vec(),
            b"80000000".to_vec(),
            b"c0000000".to_vec()
        ]
    );
    assert_eq!(plan::region_count(6_500_000_000_000, 10_000_000_000), 650);
    let stmt = plan::create_statement("ns:t", "d", &p);
    assert_eq!(
        stmt,
        "create 'ns:t', {NAME => 'd', COMPRESSION => 'SNAPPY'}, SPLITS => [\"40000000\", \"80000000\", \"c0000000\"]"
    );
}
