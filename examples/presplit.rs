//! `presplit`: catch a bad pre-split before the table exists.
//!
//! The HBase reference guide's pitfall: keys are lowercase hex strings, and the table is
//! created with `Admin.createTable(desc, "0000000000000000", "ffffffffffffffff", 10)`. The split
//! keys come from `Bytes.split`, which divides the raw *byte* space between `0x30…` (`'0'`) and
//! `0x66…` (`'f'`) — most split keys fall between `'9'` (`0x39`) and `'a'` (`0x61`), where no
//! hex character is, so keys land in 3 of the 10 regions and 7 stay empty.
//!
//! This example reproduces those exact split keys (`rowkey::plan::create_table_split_keys`),
//! counts a seeded sample of `md5(id)[..16] + id` keys per region under that plan, HBase's
//! HexStringSplit and `Device::split_points(10)` (side by side, and as SVG heatmaps), and
//! prints the plan lint's findings for each — what a check before `create` would have said.
//!
//! Run: `cargo run --example presplit` (optional: number of keys, default 100000; output
//! directory, default `target/presplit`).

mod presplit_scenario;

use presplit_scenario as scenario;
use rowkey::hbase::to_string_binary;
use rowkey::plan;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(100_000);
    let out_dir = std::path::PathBuf::from(args.next().unwrap_or_else(|| "target/presplit".into()));
    std::fs::create_dir_all(&out_dir)?;

    let plans = scenario::plans()?;
    let keys = scenario::sample(n);
    let analyzers = scenario::analyze(&plans, &keys, 48)?;

    println!(
        "{n} keys `md5(id)[..16] + id` into {} regions, three ways\n",
        scenario::REGIONS
    );
    for p in &plans {
        let shown: Vec<String> = p.splits.iter().map(|s| to_string_binary(s)).collect();
        println!("{:<26} split keys: {}", p.name, shown.join(", "));
    }
    println!();
    print!("{}", scenario::table(&analyzers));

    for (a, file) in analyzers.iter().zip([
        "create-table.svg",
        "hex-string-split.svg",
        "split-points.svg",
    ]) {
        let path = out_dir.join(file);
        a.write_heatmap_svg(&path)?;
        println!("heatmap (time × region): {}", path.display());
    }

    println!("\nThe plan lint, before `create`:\n");
    let mut lints = Vec::new();
    for p in &plans {
        let report = scenario::lint(p, &keys);
        println!("== {}\n{report}", p.name);
        lints.push(report);
    }

    let reports: Vec<_> = analyzers.iter().map(|a| a.report()).collect();
    assert_eq!(
        reports[0].empty_regions(),
        7,
        "Bytes.split leaves 7 of 10 regions empty"
    );
    assert_eq!(reports[1].empty_regions(), 0);
    assert_eq!(reports[2].empty_regions(), 0);
    assert!(lints[0].has_errors());
    assert!(lints[1].is_clean() && lints[2].is_clean());

    println!(
        "{}",
        plan::create_statement("ns:devices", "d", &plans[2].splits)
    );
    Ok(())
}
