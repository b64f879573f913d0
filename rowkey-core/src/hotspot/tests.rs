//! Unit tests of `hotspot`.

use super::analyzer::prefix8;
use super::grid::TimeGrid;
use super::html;
use super::report::*;
use super::svg::*;
use super::*;
use proptest::prelude::*;

fn hex_splits(n: u32) -> Vec<Vec<u8>> {
    // HexStringSplit-style points over 2 hex chars, enough for these tests.
    (1..n)
        .map(|i| format!("{:02x}", i * 256 / n).into_bytes())
        .collect()
}

#[test]
fn rejects_bad_split_points() {
    assert_eq!(
        Analyzer::new([b"b".as_slice(), b"a"]).unwrap_err(),
        HotspotError::UnsortedSplitPoints { index: 1 }
    );
    assert_eq!(
        Analyzer::new([b"a".as_slice(), b"a"]).unwrap_err(),
        HotspotError::UnsortedSplitPoints { index: 1 }
    );
    assert_eq!(
        Analyzer::new([b"".as_slice()]).unwrap_err(),
        HotspotError::EmptySplitPoint { index: 0 }
    );
    let a = Analyzer::new(Vec::<Vec<u8>>::new()).unwrap();
    assert_eq!(a.regions(), 1);
    assert!(matches!(
        a.clone().with_time_span(5, 5, 10),
        Err(HotspotError::EmptyTimeSpan { .. })
    ));
    assert!(matches!(
        a.clone().with_time_span(0, 5, 0),
        Err(HotspotError::InvalidSlices { .. })
    ));
    assert!(matches!(
        a.with_time_span(0, 5, usize::MAX),
        Err(HotspotError::InvalidSlices { .. })
    ));
    let e = HotspotError::UnsortedSplitPoints { index: 3 };
    assert!(e.to_string().contains("strictly increasing"));
}

#[test]
fn region_boundaries() {
    let a = Analyzer::new([b"b".as_slice(), b"d"]).unwrap();
    assert_eq!(a.region_of(b""), 0);
    assert_eq!(a.region_of(b"a"), 0);
    assert_eq!(a.region_of(b"azzz"), 0);
    assert_eq!(a.region_of(b"b"), 1); // start keys are inclusive
    assert_eq!(a.region_of(b"c"), 1);
    assert_eq!(a.region_of(b"d"), 2);
    assert_eq!(a.region_of(b"\xFF"), 2);
}

#[test]
fn counts_and_metrics() {
    let mut a = Analyzer::new([b"b".as_slice(), b"c", b"d"]).unwrap();
    for _ in 0..6 {
        a.add(b"a1");
    }
    a.add_with(b"b", None, 100);
    a.add_with(b"bb", Some(1), 100);
    let r = a.report();
    assert_eq!(r.total_keys(), 8);
    assert_eq!(r.total_bytes(), 12 + 200);
    assert_eq!(r.region(0).unwrap().keys, 6);
    assert_eq!(r.region(1).unwrap().bytes, 200);
    assert_eq!(r.region(1).unwrap().start, b"b");
    assert_eq!(r.region(1).unwrap().stop.as_deref(), Some(b"c".as_slice()));
    assert_eq!(r.region(0).unwrap().start, b"");
    assert_eq!(r.region(3).unwrap().stop, None);
    assert_eq!(r.empty_regions(), 2);
    assert!((r.share(0) - 0.75).abs() < 1e-12);
    assert_eq!(r.share(99), 0.0);
    // mean 2, max 6
    assert!((r.max_mean_skew() - 3.0).abs() < 1e-12);
    // values 6,2,0,0: mean 2, variance (16+0+4+4)/4 = 6
    assert!((r.coefficient_of_variation() - 6f64.sqrt() / 2.0).abs() < 1e-12);
    assert!(r.max_mean_skew_bytes() > 1.0);
    assert_eq!(r.untimed_keys(), 7);
    assert_eq!(r.outside_span_keys(), 0); // no heatmap configured
    let table = r.to_string();
    assert!(table.contains("(start)"));
    assert!(table.contains("(end)"));
    assert!(table.contains("75.00%"));
    assert!(table.contains("2 empty"));
}

#[test]
fn empty_report_metrics_are_zero() {
    let r = Analyzer::new([b"m"]).unwrap().report();
    assert_eq!(r.total_keys(), 0);
    assert_eq!(r.max_mean_skew(), 0.0);
    assert_eq!(r.coefficient_of_variation(), 0.0);
    assert_eq!(r.share(0), 0.0);
    assert_eq!(r.empty_regions(), 2);
    assert!(r.to_string().contains("2 regions"));
    assert!(r.heatmap_svg().contains("</svg>"));
}

#[test]
fn even_distribution() {
    let splits = hex_splits(16);
    let mut a = Analyzer::new(&splits).unwrap();
    for i in 0..=255u32 {
        a.add(format!("{i:02x}").as_bytes());
    }
    let r = a.report();
    assert_eq!(r.empty_regions(), 0);
    assert!((r.max_mean_skew() - 1.0).abs() < 1e-12);
    assert!(r.coefficient_of_variation() < 1e-12);
}

#[test]
fn time_grid_slices() {
    let mut a = Analyzer::new([b"5".as_slice()])
        .unwrap()
        .with_time_span(1000, 2000, 10)
        .unwrap();
    a.add_with(b"1", Some(1000), 1);
    a.add_with(b"1", Some(1099), 1);
    a.add_with(b"7", Some(1100), 1);
    a.add_with(b"7", Some(1999), 1);
    a.add_with(b"7", Some(2000), 1); // outside [t0, t1)
    a.add_with(b"7", Some(5), 1);
    let g = a.grid.as_ref().unwrap();
    assert_eq!(g.cells[0], 2); // slice 0, region 0
    assert_eq!(g.cells[2 + 1], 1); // slice 1, region 1
    assert_eq!(g.cells[9 * 2 + 1], 1); // slice 9, region 1
    assert_eq!(g.cells.iter().sum::<u64>(), 4);
    let r = a.report();
    assert_eq!(r.outside_span_keys(), 2);
    assert_eq!(r.total_keys(), 6);
    // Huge spans do not overflow.
    let g = TimeGrid {
        t0: 0,
        t1: u64::MAX,
        slices: 1000,
        cells: vec![],
    };
    assert_eq!(g.slice_of(u64::MAX - 1), Some(999));
    assert_eq!(g.slice_of(0), Some(0));
}

#[test]
fn side_by_side_table() {
    let splits = hex_splits(4);
    let mut a = Analyzer::new(&splits).unwrap().with_name("unhashed");
    let mut b = Analyzer::new(&splits[..2]).unwrap().with_name("hashed");
    for i in 0..100u32 {
        a.add(b"00");
        b.add(format!("{:02x}", (i * 37) % 256).as_bytes());
    }
    let t = a.report().side_by_side(&b.report());
    assert!(t.contains("unhashed"));
    assert!(t.contains("hashed"));
    // Rows for every region of the longer report.
    assert!(t.lines().any(|l| l.trim_start().starts_with("3 |")));
    assert!(t.contains("empty regions"));
    assert!(t.contains("max/mean skew"));
    let lines: Vec<&str> = t.lines().collect();
    assert!(lines.len() >= 4 + 2 + 6);
}

#[test]
fn heatmap_diagonal_versus_band() {
    let splits = hex_splits(8);
    let day = 86_400_000u64;
    let mut mono = Analyzer::new(&splits)
        .unwrap()
        .with_name("monotonic <&>")
        .with_time_span(0, day, 8)
        .unwrap();
    let mut salted = Analyzer::new(&splits)
        .unwrap()
        .with_name("salted")
        .with_time_span(0, day, 8)
        .unwrap();
    for i in 0..8000u64 {
        let t = i * day / 8000;
        // Monotonic key: its first byte follows time.
        mono.add_with(format!("{:02x}", t * 256 / day).as_bytes(), Some(t), 10);
        salted.add_with(format!("{:02x}", (i * 97) % 256).as_bytes(), Some(t), 10);
    }
    let mg = mono.grid.as_ref().unwrap();
    // Diagonal: slice k only writes region k.
    for slice in 0..8 {
        for region in 0..8 {
            let c = mg.cells[slice * 8 + region];
            assert_eq!(c > 0, slice == region, "slice {slice} region {region}");
        }
    }
    let sg = salted.grid.as_ref().unwrap();
    assert!(sg.cells.iter().all(|&c| c > 0)); // flat band
    let svg = mono.heatmap_svg();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("monotonic &lt;&amp;&gt;"));
    assert!(svg.contains("00:00"));
    assert!(svg.contains("12:00"));
    assert_eq!(svg.matches("<title>").count(), 8);
    assert_eq!(salted.heatmap_svg().matches("<title>").count(), 64);
    let path = std::env::temp_dir().join(format!("rowkey-heatmap-{}.svg", std::process::id()));
    salted.write_heatmap_svg(&path).unwrap();
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, salted.heatmap_svg());
    let _ = std::fs::remove_file(&path);
}

#[test]
fn heatmap_names_regions_on_the_y_axis() {
    // 300 regions: labels are thinned, but the busiest one is always labeled.
    let splits: Vec<Vec<u8>> = (1..300u32).map(|i| i.to_be_bytes().to_vec()).collect();
    let mut a = Analyzer::new(&splits).unwrap().with_name("many");
    for i in 0..300u32 {
        a.add(&i.to_be_bytes());
    }
    for _ in 0..50 {
        a.add(&137u32.to_be_bytes());
    }
    let svg = a.heatmap_svg();
    // Region 137 starts at split 136, the value 137 = 0x89: index and toStringBinary start key.
    assert!(
        svg.contains(r#"font-weight="bold">▶ 137 \x00\x00\x00\x89</text>"#),
        "{svg}"
    );
    // 640 px / 300 regions: 2.1 px a row, one label every 7 rows.
    assert!(svg.contains("(1 in 7 labeled; ▶ busiest)"), "{svg}");
    assert!(svg.contains(">  7 \\x00\\x00\\x00\\x07</text>"));
    assert!(svg.contains(">  0 (start)</text>"));
    // Few regions: every one labeled.
    let mut b = Analyzer::new([b"m"]).unwrap();
    b.add(b"z");
    let svg = b.heatmap_svg();
    assert!(svg.contains(">  0 (start)</text>"));
    assert!(svg.contains(r#"font-weight="bold">▶   1 m</text>"#));
    assert!(svg.contains("(▶ busiest)"));
}

/// Issue 23: labels were cut to 5 bytes, so regions 1-15 of a u64 sequence key all read
/// `\x00\x00\x00\x00\x00..`.
#[test]
fn region_labels_tell_neighbours_apart() {
    let splits: Vec<Vec<u8>> = (1..16u64).map(|i| i.to_be_bytes().to_vec()).collect();
    let mut a = Analyzer::new(&splits).unwrap().with_name("seq");
    for i in 0..16u64 {
        a.add(&i.to_be_bytes());
    }
    let r = a.report();
    for width in [14, 18, 20, 22] {
        let labels = start_labels(r.regions(), width);
        assert_eq!(labels.len(), 16);
        let mut distinct = labels.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 16, "{labels:?}");
        assert!(
            labels.iter().all(|l| l.chars().count() <= width),
            "{labels:?}"
        );
        assert_eq!(labels[15], r"\x00×7\x0F");
    }
    // every table and the picture show them
    let table = r.to_string();
    let row1 = table.lines().find(|l| l.starts_with("     1  ")).unwrap();
    assert!(
        row1.contains(r"\x00×7\x01") && row1.contains(r"\x00×7\x02"),
        "{table}"
    );
    let both = r.side_by_side(&r);
    assert!(both.contains(r"\x00×7\x0E"), "{both}");
    let three = Report::comparison_table(&[&r, &r, &r]);
    assert!(three.contains(r"\x00×7\x0B"), "{three}");
    let svg = r.heatmap_svg();
    for i in 1..16 {
        assert!(
            svg.contains(&format!(r"{i:>3} \x00×7\x{i:02X}</text>")),
            "{i}: {svg}"
        );
    }

    // long keys: the shortest prefix that differs from both neighbours, or its end
    let keys: [&[u8]; 3] = [
        b"tenant-0001/user-0000",
        b"tenant-0001/user-5000",
        b"tenant-0002/a",
    ];
    let mut b = Analyzer::new(keys).unwrap();
    b.add(b"x");
    let labels = start_labels(b.report().regions(), 14);
    assert_eq!(
        labels,
        [
            "(start)",
            "..001/user-0..",
            "..001/user-5..",
            "tenant-0002/a"
        ]
    );
    let labels = start_labels(b.report().regions(), 20);
    assert_eq!(labels[1], "tenant-0001/user-0..");
}

/// Issue 23: colours were linear from 1 to the busiest cell, so 125-key cells beside
/// 2,000-key cells looked empty.
#[test]
fn heatmap_colours_are_logarithmic() {
    assert!(scale(125, 2000) > 0.6, "{}", scale(125, 2000));
    assert!((scale(2000, 2000) - 1.0).abs() < 1e-12);
    assert!((scale(1, 2000) - MIN_T).abs() < 1e-12);
    assert_eq!(scale(1, 1), 1.0);
    // a cell of one key is not the empty colour nor the scale's darkest stop
    assert_ne!(color(scale(1, 2000)), EMPTY_COLOR);
    assert_ne!(color(scale(1, 2000)), color(0.0));

    let mut a = Analyzer::new([b"m"]).unwrap();
    for _ in 0..2000 {
        a.add(b"a");
    }
    for _ in 0..125 {
        a.add(b"z");
    }
    let svg = a.heatmap_svg();
    let quiet = color(scale(125, 2000));
    assert!(
        svg.contains(&format!(
            r#"fill="{quiet}"><title>region 1, all keys: 125 keys"#
        )),
        "{svg}"
    );
    assert!(svg.contains("(log scale)"), "{svg}");
    // (a tick too close to the top or bottom label is left out: 1000 here)
    for tick in [">10<", ">100<", ">2000<", ">1<"] {
        assert!(svg.contains(tick), "{tick}: {svg}");
    }
}

#[test]
fn clip_keeps_escapes_whole() {
    assert_eq!(clip("abc", 3), "abc");
    assert_eq!(clip("abcdef", 5), "abc..");
    assert_eq!(clip(r"6\xF6\xF6", 8), r"6\xF6..");
    assert_eq!(clip(r"6\xF6\xF6", 7), r"6\xF6..");
    assert_eq!(clip(r"6\xF6\xF6", 6), r"6..");
}

#[test]
fn comparison_of_three() {
    let mut rs = Vec::new();
    for (name, splits) in [
        ("one", vec![b"5".to_vec()]),
        ("two", vec![b"3".to_vec(), b"7".to_vec()]),
        ("", vec![]),
    ] {
        let mut a = Analyzer::new(&splits).unwrap().with_name(name);
        for k in [b"1", b"4", b"8", b"9"] {
            a.add(k);
        }
        rs.push(a.report());
    }
    let t = Report::comparison_table(&rs.iter().collect::<Vec<_>>());
    let lines: Vec<&str> = t.lines().collect();
    assert!(lines[0].contains("one") && lines[0].contains("two") && lines[0].contains("plan 3"));
    assert_eq!(lines.len(), 3 + 3 + 1 + 5);
    assert!(lines[3].starts_with("     0 | (start)"), "{t}");
    assert!(lines[5].contains(" 7 "), "{t}");
    assert!(t.contains("empty regions"));
    assert!(t.lines().all(|l| l == l.trim_end()));
}

#[test]
fn heatmap_without_time_span() {
    let mut a = Analyzer::new([b"m".as_slice()]).unwrap();
    a.add(b"a");
    let svg = a.heatmap_svg();
    assert!(svg.contains("no time span"));
    assert_eq!(svg.matches("<title>").count(), 1);
}

#[test]
fn labels() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(19_675), (2023, 11, 14));
    assert_eq!(civil_from_days(-1), (1969, 12, 31));
    assert_eq!(time_label(1_700_000_000_000, 86_400_000), "22:13");
    assert_eq!(time_label(1_700_000_000_000, 10 * 86_400_000), "2023-11-14");
    assert_eq!(time_label(1_700_000_000_000, 1000), "22:13:20");
    assert_eq!(duration_label(3_600_000), "1 h");
    assert_eq!(duration_label(900_000), "15 min");
    assert_eq!(duration_label(1500), "1500 ms");
    assert_eq!(human_bytes(10), "10 B");
    assert_eq!(human_bytes(1536), "1.5 KiB");
    assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    assert_eq!(human_bytes(u64::MAX), "16.0 EiB");
    assert_eq!(clip("abcdef", 4), "ab..");
    assert_eq!(clip("abc", 4), "abc");
    assert_eq!(color(0.0), "#440154");
    assert_eq!(color(1.0), "#fde725");
    assert_eq!(color(f64::NAN), "#440154");
    assert_eq!(
        xml_escape(r#"<a href="x">'&'</a>"#),
        "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;"
    );
}

/// Run with `cargo test --release -p rowkey-core --lib throughput -- --ignored --nocapture`.
#[test]
#[ignore = "performance check; run in release"]
fn throughput() {
    let splits = hex_splits(40);
    let mut a = Analyzer::new(&splits)
        .unwrap()
        .with_time_span(0, 86_400_000, 96)
        .unwrap();
    let n = 20_000_000u64;
    let mut keys: Vec<[u8; 16]> = Vec::with_capacity(1 << 16);
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..(1 << 16) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut k = [0u8; 16];
        k[..8].copy_from_slice(format!("{:08x}", x as u32).as_bytes());
        k[8..].copy_from_slice(&x.to_be_bytes());
        keys.push(k);
    }
    let start = std::time::Instant::now();
    for i in 0..n {
        let k = &keys[(i & 0xFFFF) as usize];
        a.add_with(std::hint::black_box(k), Some(i % 86_400_000), 100);
    }
    let el = start.elapsed();
    let rate = n as f64 / el.as_secs_f64();
    println!("{rate:.0} keys/s ({el:?} for {n})");
    assert_eq!(a.report().total_keys(), n);
    assert!(rate > 10_000_000.0, "{rate:.0} keys/s");
}

proptest! {
    #[test]
    fn prop_prefix8_orders_like_bytes(
        a in proptest::collection::vec(0u8..3, 0..12),
        b in proptest::collection::vec(0u8..3, 0..12),
    ) {
        let (pa, pb) = (prefix8(&a), prefix8(&b));
        if pa != pb {
            prop_assert_eq!(pa.cmp(&pb), a.cmp(&b));
        }
    }

    #[test]
    fn prop_counts_add_up(
        mut splits in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..4), 0..20),
        keys in proptest::collection::vec((proptest::collection::vec(any::<u8>(), 0..5), any::<u64>(), 0u64..1000), 0..200),
    ) {
        splits.sort();
        splits.dedup();
        let mut a = Analyzer::new(&splits).unwrap().with_time_span(0, 1 << 40, 7).unwrap();
        for (k, t, size) in &keys {
            a.add_with(k, Some(*t), *size);
            let r = a.region_of(k);
            // The region's bounds contain the key.
            if r > 0 {
                prop_assert!(splits[r - 1].as_slice() <= k.as_slice());
            }
            if r < splits.len() {
                prop_assert!(k.as_slice() < splits[r].as_slice());
            }
        }
        let rep = a.report();
        prop_assert_eq!(rep.total_keys(), keys.len() as u64);
        prop_assert_eq!(rep.total_bytes(), keys.iter().map(|k| k.2).sum::<u64>());
        let in_grid: u64 = a.grid.as_ref().unwrap().cells.iter().sum();
        prop_assert_eq!(in_grid + rep.outside_span_keys(), keys.len() as u64);
        let _ = rep.to_string();
        let _ = rep.heatmap_svg();
    }
}

fn ranges(bounds: &[&[u8]]) -> Vec<LoadRange> {
    // bounds: the split points; the ranges cover the whole table
    let mut out = Vec::new();
    for i in 0..=bounds.len() {
        let start = if i == 0 {
            Vec::new()
        } else {
            bounds[i - 1].to_vec()
        };
        out.push(LoadRange::new(start, bounds.get(i).map(|b| b.to_vec())));
    }
    out
}

#[test]
fn load_map_rejects_bad_ranges_and_intervals() {
    assert_eq!(
        LoadMap::new("t", Vec::new()).unwrap_err(),
        HotspotError::NoRanges
    );
    // out of order, overlapping, empty, open-ended in the middle
    let bad = [
        vec![
            LoadRange::new(b"b", Some(b"c".to_vec())),
            LoadRange::new(b"a", None),
        ],
        vec![
            LoadRange::new(b"a", Some(b"c".to_vec())),
            LoadRange::new(b"b", None),
        ],
        vec![LoadRange::new(b"b", Some(b"b".to_vec()))],
        vec![LoadRange::new(b"", None), LoadRange::new(b"b", None)],
    ];
    for (i, r) in bad.into_iter().enumerate() {
        assert_eq!(
            LoadMap::new("t", r).unwrap_err(),
            HotspotError::UnorderedRanges { index: 0 },
            "case {i}"
        );
    }
    // a gap between ranges is fine (a region offline)
    assert!(LoadMap::new(
        "t",
        vec![
            LoadRange::new(b"a", Some(b"b".to_vec())),
            LoadRange::new(b"c", None)
        ]
    )
    .is_ok());

    let mut m = LoadMap::new("t", ranges(&[b"m"])).unwrap();
    assert_eq!(
        m.push_interval(0, 10, vec![1.0], vec![1.0, 2.0])
            .unwrap_err(),
        HotspotError::RatesPerRange {
            interval: 0,
            expected: 2,
            got: 1
        }
    );
    for bad in [f64::NAN, f64::INFINITY, -1.0] {
        assert_eq!(
            m.push_interval(0, 10, vec![0.0, 0.0], vec![0.0, bad])
                .unwrap_err(),
            HotspotError::InvalidRate {
                interval: 0,
                range: 1
            }
        );
    }
    assert_eq!(
        m.push_interval(10, 5, vec![0.0; 2], vec![0.0; 2])
            .unwrap_err(),
        HotspotError::UnorderedIntervals { interval: 0 }
    );
    m.push_interval(0, 10, vec![1.0, 3.0], vec![2.0, 0.0])
        .unwrap();
    assert_eq!(
        m.push_interval(9, 20, vec![0.0; 2], vec![0.0; 2])
            .unwrap_err(),
        HotspotError::UnorderedIntervals { interval: 1 }
    );
    m.push_interval(10, 20, vec![3.0, 1.0], vec![0.0, 0.0])
        .unwrap();
    assert_eq!(m.intervals().len(), 2);
    assert_eq!(m.range_means(), [(2.0, 1.0), (2.0, 0.0)]);
    // no servers named: no server loads
    assert!(m.server_loads().is_empty());
    for e in [
        HotspotError::NoRanges,
        HotspotError::UnorderedRanges { index: 3 },
        HotspotError::RatesPerRange {
            interval: 1,
            expected: 2,
            got: 3,
        },
        HotspotError::InvalidRate {
            interval: 1,
            range: 0,
        },
        HotspotError::UnorderedIntervals { interval: 2 },
        HotspotError::NoTimeSlices,
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn load_map_from_report_counts_keys_per_slice() {
    let mut a = Analyzer::new([b"m"]).unwrap();
    a.add(b"a");
    assert_eq!(
        LoadMap::from_report(&a.report()).unwrap_err(),
        HotspotError::NoTimeSlices
    );
    let mut a = Analyzer::new([b"m"])
        .unwrap()
        .with_name("n")
        .with_time_span(1_000, 4_000, 3)
        .unwrap();
    a.add_with(b"a", Some(1_500), 10);
    a.add_with(b"z", Some(3_999), 20);
    a.add_with(b"z", Some(3_000), 20);
    let m = LoadMap::from_report(&a.report()).unwrap();
    assert_eq!(m.title(), "n (offline analysis)");
    assert_eq!(m.ranges()[0].label, "(start of table) … m");
    assert_eq!(m.ranges()[1].label, "m … (end of table)");
    assert_eq!(m.ranges()[1].store_size, Some(40));
    let iv: Vec<(u64, u64, Vec<f64>)> = m
        .intervals()
        .iter()
        .map(|i| (i.start_ms, i.end_ms, i.writes.clone()))
        .collect();
    assert_eq!(
        iv,
        [
            (1_000, 2_000, vec![1.0, 0.0]),
            (2_000, 3_000, vec![0.0, 0.0]),
            (3_000, 4_000, vec![0.0, 2.0])
        ]
    );
    assert!(m.intervals().iter().all(|i| i.reads == [0.0, 0.0]));
    // a span shorter than its slices: empty intervals, still in order
    let a = Analyzer::new([b"m"])
        .unwrap()
        .with_time_span(0, 2, 5)
        .unwrap();
    assert_eq!(
        LoadMap::from_report(&a.report()).unwrap().intervals().len(),
        5
    );
}

#[test]
fn server_loads_sum_mean_rates() {
    let r = ranges(&[b"b", b"c"]);
    let r: Vec<LoadRange> = r
        .into_iter()
        .zip(["s1", "s2", "s1"])
        .map(|(r, s)| r.with_server(s))
        .collect();
    let mut m = LoadMap::new("t", r).unwrap();
    m.push_interval(0, 1, vec![1.0, 2.0, 3.0], vec![10.0, 0.0, 0.0])
        .unwrap();
    m.push_interval(1, 2, vec![1.0, 2.0, 5.0], vec![30.0, 0.0, 2.0])
        .unwrap();
    let loads: Vec<(String, usize, f64, f64)> = m
        .server_loads()
        .into_iter()
        .map(|l| (l.server, l.ranges, l.reads, l.writes))
        .collect();
    assert_eq!(
        loads,
        [
            ("s1".to_owned(), 2, 5.0, 21.0),
            ("s2".to_owned(), 1, 2.0, 0.0)
        ]
    );
}

#[test]
fn html_is_self_contained_and_escapes_its_data() {
    let hostile = "</script><script>alert(1)</script><!-- & \u{2028}\"\\\n";
    let r = LoadRange::new(b"<\x00", None)
        .with_label(hostile)
        .with_region(hostile)
        .with_server(hostile);
    let mut m = LoadMap::new(hostile, vec![r])
        .unwrap()
        .with_findings([hostile]);
    m.push_interval(0, 1, vec![0.5], vec![1e-9]).unwrap();
    let page = m.html();
    // only the page's own two script elements, nothing fetched
    assert_eq!(page.matches("</script>").count(), 2);
    assert_eq!(page.matches("<script").count(), 2);
    assert!(!page.contains("alert(1)</"));
    assert!(!page.contains("<!--"));
    for fetch in ["http://", "https://", "src=", "href=", "@import", "url("] {
        assert!(!page.contains(fetch), "{fetch}");
    }
    // the data round-trips as JSON text
    let start = page.find("application/json\">").unwrap() + "application/json\">".len();
    let data = &page[start..start + page[start..].find("</script>").unwrap()];
    assert!(data.contains(r#"\u003c/script\u003e\u003cscript\u003ealert(1)"#));
    assert!(data.contains(r#"\u2028\"\\\u000a"#));
    assert!(data.contains(r#""start":"\u003c\\x00""#));
    assert!(data.contains(r#""reads":[[0.5]],"writes":[[0.000000001]]"#));
    assert_eq!(html::js_str("a\u{1}b"), r#""a\u0001b""#);
    assert_eq!(html::js_num(f64::NAN), "0");
}
