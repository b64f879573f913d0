//! `hotspots`: a day of mobile-number (MSISDN) records bulk-loaded into a table pre-split into
//! 40 regions with HBase's HexStringSplit — the classic import experiment — with two key designs:
//!
//! - `MSISDN[7..11] + MSISDN + time`: the last four digits lead. They are ASCII digits `0`–`9`,
//!   but HexStringSplit cut the key space at hex characters `0`–`f`: every region whose range
//!   starts above `9…` stays empty, and the rest are overloaded.
//! - `md5(MSISDN)[..4] + MSISDN + time`: four lowercase hex characters lead, spread evenly over
//!   exactly the space HexStringSplit divides.
//!
//! It prints both distributions side by side, writes time × region heatmaps as SVG (and a
//! third, time-first key, whose heatmap is the diagonal of a monotonic hotspot) and the key
//! visualizer's HTML report of both designs (`unhashed.html`, `hashed.html`), loads a sample
//! into the embedded store and scans one region, then prints the recommended plan: split points
//! derived from the hashed layout and the HBase shell `create` statement.
//!
//! Run: `cargo run --example hotspots` (optional: number of records, default 400000; output
//! directory, default `target/hotspots`).

mod support;

use rowkey::plan::SplitPoints;
use std::time::Instant;

use rowkey::hotspot::{Analyzer, LoadMap};
use rowkey::{plan, RowKey, ScanRange};
use support::Store;

/// `MSISDN[7..11] + MSISDN + time`
#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByTail {
    /// The last four digits, as four ASCII digits.
    #[pad(4)]
    tail: u16,
    #[pad(11)]
    msisdn: String,
    ts_ms: u64,
}

/// `md5(MSISDN)[..4] + MSISDN + time`
#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByHash {
    #[hash_prefix(4)]
    #[pad(11)]
    msisdn: String,
    ts_ms: u64,
}

/// The time-first design every rowkey guide warns about (allowed here to show why).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct ByTime {
    ts_ms: u64,
    #[pad(11)]
    msisdn: String,
}

/// SplitMix64: a small deterministic generator, so the run is reproducible.
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

/// Mobile prefixes with skewed popularity (percent).
const PREFIXES: [(&str, u64); 8] = [
    ("138", 22),
    ("139", 18),
    ("186", 14),
    ("135", 12),
    ("188", 10),
    ("150", 9),
    ("159", 8),
    ("177", 7),
];

const DAY0: u64 = 1_700_006_400_000; // a midnight, ms
const DAY_MS: u64 = 86_400_000;

fn msisdn(rng: &mut Rng) -> String {
    let mut pick = rng.next() % 100;
    let mut prefix = PREFIXES[0].0;
    for (p, w) in PREFIXES {
        if pick < w {
            prefix = p;
            break;
        }
        pick -= w;
    }
    // A subscriber base of 2 million numbers per prefix, some much busier than others.
    let sub = (rng.next() % 2_000_000).pow(2) / 2_000_000 * 37 % 100_000_000;
    format!("{prefix}{sub:08}")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(400_000);
    let out_dir = std::path::PathBuf::from(args.next().unwrap_or_else(|| "target/hotspots".into()));
    std::fs::create_dir_all(&out_dir)?;
    let started = Instant::now();

    // The table as the seed created it: 40 regions, HexStringSplit.
    let splits = plan::hex_string_split(40);
    let slices = 48; // half-hour columns
    let mut tail = Analyzer::new(&splits)?
        .with_name("MSISDN[7..11]+MSISDN+time")
        .with_time_span(DAY0, DAY0 + DAY_MS, slices)?;
    let mut hashed = Analyzer::new(&splits)?
        .with_name("md5(MSISDN)[..4]+MSISDN+time")
        .with_time_span(DAY0, DAY0 + DAY_MS, slices)?;

    // Time-first keys: split on a sample of themselves (the best a time-first key can do).
    let time_sample: Vec<Vec<u8>> = (0..1000u64)
        .map(|i| {
            ByTime {
                ts_ms: DAY0 + i * DAY_MS / 1000,
                msisdn: "13800000000".into(),
            }
            .to_row_key()
            .map(|b| b.to_vec())
        })
        .collect::<Result<_, _>>()?;
    let mut by_time = Analyzer::new(plan::split_points_from_sample(&time_sample, 40))?
        .with_name("time+MSISDN")
        .with_time_span(DAY0, DAY0 + DAY_MS, slices)?;

    let mut rng = Rng(2026);
    let store = Store::temp("hotspots")?;
    let mut sample = Vec::new();
    let mut buf = Vec::with_capacity(64);
    for i in 0..n {
        // Writes arrive through the day, busier in the daytime.
        let x = (i as f64 + 0.5) / n as f64;
        let ts =
            DAY0 + ((x - 0.12 * (2.0 * std::f64::consts::PI * x).sin()) * DAY_MS as f64) as u64;
        let m = msisdn(&mut rng);
        let t: u16 = m[7..11].parse()?;
        let size = 120 + rng.next() % 200; // bytes of the record

        buf.clear();
        ByTail {
            tail: t,
            msisdn: m.clone(),
            ts_ms: ts,
        }
        .encode_into(&mut buf)?;
        tail.add_with(&buf, Some(ts), size);

        buf.clear();
        let hk = ByHash {
            msisdn: m.clone(),
            ts_ms: ts,
        };
        hk.encode_into(&mut buf)?;
        hashed.add_with(&buf, Some(ts), size);
        if i % 20 == 0 {
            sample.push((buf.clone(), format!("{m},{ts}").into_bytes()));
        }

        buf.clear();
        ByTime {
            ts_ms: ts,
            msisdn: m,
        }
        .encode_into(&mut buf)?;
        by_time.add_with(&buf, Some(ts), size);
    }
    let (rt, rh, rm) = (tail.report(), hashed.report(), by_time.report());
    println!("{n} records over one day into 40 regions pre-split with HexStringSplit\n");
    println!("{}", rt.side_by_side(&rh));
    for r in [&rt, &rh, &rm] {
        println!("{:<30} {}", r.name(), r.summary());
    }
    println!(
        "(time+MSISDN looks even over the day only because its splits came from a sample of itself:\n \
         at any moment every write goes to one region — the diagonal in time-first.svg)"
    );
    for (a, file) in [
        (&tail, "unhashed.svg"),
        (&hashed, "hashed.svg"),
        (&by_time, "time-first.svg"),
    ] {
        let path = out_dir.join(file);
        a.write_heatmap_svg(&path)?;
        println!("heatmap (time × region): {}", path.display());
    }
    // The key visualizer's report of each design: the key axis read through the key type, the
    // plan lint's findings for the layout; the same page a live sampler's map gives.
    let lint = |layout| plan::Lint::new(&splits).layout(layout).run().to_string();
    for (map, file) in [
        (
            LoadMap::from_report(&rt)?
                .label_with::<ByTail>()
                .with_findings(lint(ByTail::LAYOUT).lines()),
            "unhashed.html",
        ),
        (
            LoadMap::from_report(&rh)?
                .label_with::<ByHash>()
                .with_findings(lint(ByHash::LAYOUT).lines()),
            "hashed.html",
        ),
    ] {
        let path = out_dir.join(file);
        map.write_html(&path)?;
        println!("report (open in a browser): {}", path.display());
    }
    assert!(
        rt.empty_regions() >= 10,
        "the unhashed design leaves many regions empty"
    );
    assert_eq!(
        rh.empty_regions(),
        0,
        "the hashed design reaches every region"
    );
    assert!(rh.max_mean_skew() < 1.2 && rt.max_mean_skew() > 1.5);

    // A sample of the hashed table in the embedded store; scan one region's range.
    store.put_all(sample.iter().map(|(k, v)| (k.as_slice(), v.as_slice())))?;
    let region = 17;
    let range = ScanRange::new(&splits[region - 1], Some(&splits[region]));
    let rows = store.scan(&range)?;
    println!(
        "\nregion {region} = [{}, {}): {} of {} sampled rows, e.g. {}",
        rowkey::hbase::to_string_binary(range.start()),
        rowkey::hbase::to_string_binary(range.stop().unwrap_or_default()),
        rows.len(),
        sample.len(),
        rows.first()
            .map(|(k, _)| ByHash::describe(k))
            .unwrap_or_default(),
    );

    // The plan: split points from the layout itself (hex characters only), and the shell statement.
    let points = ByHash::split_points(40)?;
    let mut planned = Analyzer::new(&points)?.with_name("md5 layout, split_points(40)");
    for (k, _) in &sample {
        planned.add(k);
    }
    println!(
        "\nrecommended: ByHash::split_points(40) — {}",
        planned.report().summary()
    );
    let data = n * 220; // ~220 bytes a record
    println!(
        "regions for this day at 10 GB per region: {}; for a year: {}",
        plan::region_count(data, 10_000_000_000),
        plan::region_count(data * 365, 10_000_000_000)
    );
    println!(
        "\n{}",
        plan::create_statement("ns:msisdn_records", "d", &points)
    );
    println!("\ndone in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
