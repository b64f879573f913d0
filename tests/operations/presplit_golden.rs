//! Golden output of `examples/presplit.rs`: the side-by-side table of the three plans over the
//! example's seeded sample. Regenerate after an intended change with
//! `ROWKEY_BLESS=1 cargo test --all-features --test operations presplit_golden`.

#[path = "../../examples/presplit_scenario/mod.rs"]
mod scenario;

const GOLDEN: &str = "tests/golden_output/presplit_table.txt";

#[test]
fn presplit_table_matches_golden() {
    let plans = scenario::plans().unwrap();
    let keys = scenario::sample(100_000);
    let analyzers = scenario::analyze(&plans, &keys, 48).unwrap();
    let table = scenario::table(&analyzers);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("ROWKEY_BLESS").is_some() {
        std::fs::write(&path, &table).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap();
    assert_eq!(table, golden, "table differs from {GOLDEN}");

    // The pitfall in numbers: `createTable("0…0", "f…f", 10)` over hex keys uses 3 of 10
    // regions, with about 44%, 19% and 38% of the keys.
    let r = analyzers[0].report();
    assert_eq!(r.empty_regions(), 7);
    let used: Vec<usize> = (0..10).filter(|&i| r.region(i).unwrap().keys > 0).collect();
    assert_eq!(used, [1, 2, 8]);
    for (i, expect) in [(1, 7.0 / 16.0), (2, 3.0 / 16.0), (8, 6.0 / 16.0)] {
        assert!(
            (r.share(i) - expect).abs() < 0.01,
            "region {i}: {}",
            r.share(i)
        );
    }
    for a in &analyzers[1..] {
        let r = a.report();
        assert_eq!(r.empty_regions(), 0);
        assert!(r.max_mean_skew() < 1.05, "{}", r.summary());
    }
}

#[test]
fn lint_flags_the_bytes_split_plan_and_passes_hex_string_split() {
    let plans = scenario::plans().unwrap();
    let keys = scenario::sample(20_000);
    let naive = scenario::lint(&plans[0], &keys);
    assert!(naive.has_errors(), "{naive}");
    assert_eq!(naive.unreachable_regions(), [0, 3, 4, 5, 6, 7]);
    assert_eq!(
        naive.regions_of(rowkey::plan::FindingKind::EmptyInSample),
        [0, 3, 4, 5, 6, 7, 9]
    );
    let text = naive.to_string();
    assert!(text.contains("Device::split_points(10)"), "{text}");
    assert!(text.contains("hex_string_split_range(10"), "{text}");
    for p in &plans[1..] {
        let r = scenario::lint(p, &keys);
        assert!(r.is_clean(), "{}: {r}", p.name);
    }
}
