//! `T::split_points` from real layouts: sorted, unique, the right count, and every region
//! reachable by keys of the layout (checked by encoding many keys and counting per region).

use rowkey::hotspot::Analyzer;
use rowkey::plan::SplitPoints;
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

/// 16 salt buckets in front of a sequential `u64` id: a layout-only plan cannot tell which id
/// bytes vary (see `salted_plans_only_cut_bytes_that_vary`).
#[derive(RowKey)]
struct SaltedId {
    #[salt(buckets = 16)]
    id: u64,
}

/// A hashed field right after the salt: buckets can be sub-split from the layout.
#[derive(RowKey)]
struct SaltedHashed {
    #[salt(buckets = 16)]
    #[hash_prefix(4)]
    #[sep]
    user: String,
}

/// A hashed field behind a salted tenant: the bytes after the salt are the tenant's.
#[derive(RowKey)]
struct TenantHashed {
    #[salt(buckets = 16)]
    tenant: u32,
    #[hash_prefix(4)]
    #[sep]
    user: String,
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
    for regions in [16, 8, 4, 2, 3, 5] {
        let p = Salted::split_points(regions).unwrap();
        check_reachable(&p, regions, keys());
    }
    // More regions than buckets would cut the bytes of `host` itself: a sample is needed.
    for regions in [32, 64, 17] {
        let e = Salted::split_points(regions).unwrap_err();
        assert_eq!(
            e,
            PlanError::NeedsSample {
                layout: "Salted",
                salt_buckets: Some(16)
            }
        );
    }
    let sample: Vec<Vec<u8>> = keys().collect();
    let p = Salted::split_points_from_sample(&sample, 64).unwrap();
    check_reachable(&p, 64, keys());
    // regions == buckets: one split per bucket boundary
    assert_eq!(
        Salted::split_points(16).unwrap(),
        (1..16u8).map(|b| vec![b]).collect::<Vec<_>>()
    );
    assert!(matches!(
        Salted::split_points(24),
        Err(PlanError::NeedsSample { .. })
    ));
    assert!(matches!(
        SaltedHashed::split_points(24),
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

/// SplitMix64, so the "random" ids are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Regions, empty regions and max/mean skew of `points` over `keys`, by the crate's analyzer.
fn analyze(points: &[Vec<u8>], keys: &[Vec<u8>]) -> (usize, usize, f64) {
    let mut a = Analyzer::new(points).unwrap();
    for k in keys {
        a.add(k);
    }
    let r = a.report();
    (r.regions().len(), r.empty_regions(), r.max_mean_skew())
}

/// Regression: with 16 salt buckets and a `u64` id, `split_points(32)` used to split each
/// bucket at byte 0x80 of the id — where every realistic id has 0x00 — and 16 of 32 regions
/// were empty. Now it needs a sample, and the sample-based plan reaches every region.
#[test]
fn salted_plans_only_cut_bytes_that_vary() {
    let sequential: Vec<Vec<u8>> = (0..20_000u64)
        .map(|id| SaltedId { id }.to_row_key().unwrap().to_vec())
        .collect();
    // No unreachable regions from the layout: either a plan every key spreads over, or an error.
    let e = SaltedId::split_points(32).unwrap_err();
    assert_eq!(
        e,
        PlanError::NeedsSample {
            layout: "SaltedId",
            salt_buckets: Some(16)
        }
    );
    assert!(e.to_string().contains("salted_sample_split_points"), "{e}");
    for regions in [2, 4, 8, 16] {
        let p = SaltedId::split_points(regions).unwrap();
        let (n, empty, skew) = analyze(&p, &sequential);
        assert_eq!((n, empty), (regions, 0));
        assert!(skew <= 1.3, "{regions} regions: skew {skew}");
    }
    // What the old plan did, for the record: a split at 0x80 inside every bucket.
    let old: Vec<Vec<u8>> = (0..16u8)
        .flat_map(|b| {
            let half = vec![b, 0x80];
            if b == 0 {
                vec![half]
            } else {
                vec![vec![b], half]
            }
        })
        .collect();
    assert_eq!(analyze(&old, &sequential).1, 16);

    let mut rng = Rng(10);
    let random: Vec<Vec<u8>> = (0..20_000)
        .map(|_| SaltedId { id: rng.next() }.to_row_key().unwrap().to_vec())
        .collect();
    let hashed: Vec<Vec<u8>> = (0..20_000u32)
        .map(|i| {
            TenantHashed {
                tenant: i % 1000,
                user: format!("user{i}"),
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        })
        .collect();
    let salted_hashed: Vec<Vec<u8>> = (0..20_000u32)
        .map(|i| {
            SaltedHashed {
                user: format!("user{i}"),
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        })
        .collect();
    assert!(matches!(
        TenantHashed::split_points(32),
        Err(PlanError::NeedsSample { .. })
    ));
    let cases: [(&str, &[Vec<u8>], &'static rowkey::Layout); 4] = [
        ("sequential ids", &sequential, SaltedId::LAYOUT),
        ("random ids", &random, SaltedId::LAYOUT),
        (
            "hashed field behind a salted tenant",
            &hashed,
            TenantHashed::LAYOUT,
        ),
        (
            "hashed field after the salt",
            &salted_hashed,
            SaltedHashed::LAYOUT,
        ),
    ];
    for (what, sample, layout) in cases {
        for regions in [32, 40, 100, 16, 7] {
            let p = plan::salted_sample_split_points(layout, sample, regions).unwrap();
            let (n, empty, skew) = analyze(&p, sample);
            assert_eq!(n, regions, "{what}, {regions} regions");
            assert_eq!(empty, 0, "{what}, {regions} regions: no empty region");
            assert!(skew <= 1.3, "{what}, {regions} regions: skew {skew}");
            // Every bucket boundary is a split once there are at least as many regions.
            if regions >= 16 {
                for b in 1..16u8 {
                    assert!(p.contains(&vec![b]), "{what}: bucket {b} boundary kept");
                }
            }
        }
    }
    // Through the key type: the same plan.
    assert_eq!(
        SaltedId::split_points_from_sample(&random, 32).unwrap(),
        plan::salted_sample_split_points(SaltedId::LAYOUT, &random, 32).unwrap()
    );
    // The salted hashed layout can also be planned from the layout for multiples: compare.
    let from_layout = SaltedHashed::split_points(32).unwrap();
    let (_, empty, skew) = analyze(&from_layout, &salted_hashed);
    assert_eq!(empty, 0);
    assert!(skew <= 1.3, "{skew}");
    // Without a salt, `T::split_points_from_sample` takes plain quantiles.
    let users: Vec<Vec<u8>> = (0..5_000u32)
        .map(|i| {
            Hashed {
                user: format!("u{i}"),
                n: i,
            }
            .to_row_key()
            .unwrap()
            .to_vec()
        })
        .collect();
    let p = Hashed::split_points_from_sample(&users, 40).unwrap();
    assert_eq!(p, plan::split_points_from_sample(&users, 40));
    let (n, empty, skew) = analyze(&p, &users);
    assert_eq!((n, empty), (40, 0));
    assert!(skew <= 1.3, "{skew}");
}
