//! The seed scenario of `examples/presplit.rs`, shared with `tests/operations/presplit_golden.rs` so the
//! golden table is exactly what the example prints.
//!
//! Keys are 16 lowercase hex characters (`md5(device id)[..16]`) followed by the id. The table
//! is created three ways, each with 10 regions:
//!
//! 1. `Admin.createTable(desc, "0000000000000000", "ffffffffffffffff", 10)` — the HBase
//!    reference guide's pitfall: `Bytes.split` divides the raw byte space `0x30…`–`0x66…`;
//! 2. `RegionSplitter.HexStringSplit` over the same 16 characters;
//! 3. `Device::split_points(10)`, from the key layout.
#![allow(dead_code)]

use rowkey::hotspot::{Analyzer, Report};
use rowkey::plan::SplitPoints;
use rowkey::plan::{self, Lint, LintReport};
use rowkey::RowKey;

/// `md5(id)[..16] + id`: every key starts with 16 lowercase hex characters.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Device {
    #[hash_prefix(16)]
    pub id: u64,
}

pub const REGIONS: usize = 10;
pub const FIRST: &str = "0000000000000000";
pub const LAST: &str = "ffffffffffffffff";
pub const DAY0: u64 = 1_700_006_400_000; // a midnight, ms
pub const DAY_MS: u64 = 86_400_000;

/// SplitMix64: the sample is the same on every run and machine.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `n` keys of random device ids (seeded), each with a write time spread over one day.
pub fn sample(n: u64) -> Vec<(Vec<u8>, u64)> {
    let mut rng = Rng(15);
    (0..n)
        .map(|i| {
            let key = Device { id: rng.next() }
                .to_row_key()
                .map(|k| k.to_vec())
                .unwrap_or_default();
            (key, DAY0 + i * DAY_MS / n)
        })
        .collect()
}

/// One plan: its name and split points.
pub struct Plan {
    pub name: &'static str,
    pub splits: Vec<Vec<u8>>,
}

/// The three plans of the scenario.
pub fn plans() -> Result<Vec<Plan>, plan::PlanError> {
    Ok(vec![
        Plan {
            name: "createTable(\"0…0\", \"f…f\", 10)",
            splits: plan::create_table_split_keys(FIRST.as_bytes(), LAST.as_bytes(), REGIONS)?,
        },
        Plan {
            name: "HexStringSplit",
            splits: plan::hex_string_split_range(REGIONS, FIRST, LAST)?,
        },
        Plan {
            name: "Device::split_points(10)",
            splits: Device::split_points(REGIONS)?,
        },
    ])
}

/// The keys counted per region under each plan, with a time × region heatmap grid of `slices`
/// columns.
pub fn analyze(
    plans: &[Plan],
    keys: &[(Vec<u8>, u64)],
    slices: usize,
) -> Result<Vec<Analyzer>, rowkey::hotspot::HotspotError> {
    plans
        .iter()
        .map(|p| {
            let mut a = Analyzer::new(&p.splits)?.with_name(p.name).with_time_span(
                DAY0,
                DAY0 + DAY_MS,
                slices,
            )?;
            for (k, t) in keys {
                a.add_with(k, Some(*t), 100);
            }
            Ok(a)
        })
        .collect()
}

/// The side-by-side table of the three plans over `keys` (the golden output).
pub fn table(analyzers: &[Analyzer]) -> String {
    let reports: Vec<Report> = analyzers.iter().map(Analyzer::report).collect();
    Report::comparison_table(&reports.iter().collect::<Vec<_>>())
}

/// The lint of one plan against the layout and the sample.
pub fn lint(plan: &Plan, keys: &[(Vec<u8>, u64)]) -> LintReport {
    Lint::new(&plan.splits)
        .layout(Device::LAYOUT)
        .sample(keys.iter().map(|(k, _)| k))
        .run()
}
