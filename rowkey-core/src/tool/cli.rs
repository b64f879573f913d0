//! The command line: every subcommand, its arguments and help.

use clap::{Arg, ArgAction, Command};

use super::key_type::KeyType;

pub(super) fn json_arg() -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help("Print JSON (one document) for scripts")
}

pub(super) fn type_arg(types: &[KeyType]) -> Arg {
    let names: Vec<&'static str> = types.iter().map(|t| t.name).collect();
    Arg::new("type")
        .value_name("TYPE")
        .required(true)
        .value_parser(clap::builder::PossibleValuesParser::new(names))
        .help("The key type")
}

pub(super) fn command(bin: &str, types: &[KeyType]) -> Command {
    let first = types.first().map_or("Key", |t| t.name);
    let ex_fields = types.first().map_or_else(String::new, |t| {
        t.fields()
            .iter()
            .map(|(f, _)| format!("{f}=…"))
            .collect::<Vec<_>>()
            .join(" ")
    });
    let scan_fields = types.first().map_or_else(String::new, |t| {
        t.fields()
            .first()
            .map_or_else(String::new, |(f, _)| format!("{f}=…"))
    });
    let type_list: Vec<String> = types
        .iter()
        .map(|t| {
            let variants = t.variants();
            if variants.is_empty() {
                let f: Vec<&str> = t.fields().iter().map(|(n, _)| *n).collect();
                format!("  {} ({})", t.name, f.join(", "))
            } else {
                let v: Vec<&str> = variants.iter().map(|v| v.name).collect();
                format!("  {} (keyspace: variant={})", t.name, v.join("|"))
            }
        })
        .collect();
    Command::new(bin.to_owned())
        .about("Describe, encode, scan, plan and find hotspots of this project's row keys")
        .after_help(format!(
            "Key types:\n{}\n\nExit codes: 0 success, 1 bad input or a key that does not decode, 2 usage error.",
            type_list.join("\n")
        ))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("describe")
                .about("Decode keys with every key type, field by field")
                .arg(
                    Arg::new("keys")
                        .value_name("KEY")
                        .num_args(0..)
                        .help("Keys in toStringBinary form (\\x00 escapes, as the HBase shell prints them), or hex with --hex; none: one per line from stdin"),
                )
                .arg(
                    Arg::new("hex")
                        .long("hex")
                        .action(ArgAction::SetTrue)
                        .help("Keys are hex digits (spaces and colons ignored)"),
                )
                .arg(
                    Arg::new("dump")
                        .long("dump")
                        .value_name("DUMP")
                        .conflicts_with("keys")
                        .help("Describe every row of a dump: HBase shell scan output, cbt read output (raw key bytes), or one key per line; - for stdin"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} describe '\\x05\\x80\\x00\\x00\\x00\\x00\\x00\\x00*'\n  {bin} describe --hex 0580000000000000\n  cbt read orders count=5 > rows.txt; {bin} describe --dump rows.txt\n  grep 'region hot' app.log | cut -d' ' -f5 | {bin} describe --json"
                )),
        )
        .subcommand(
            Command::new("encode")
                .about("Encode a key from field=value pairs")
                .arg(type_arg(types))
                .arg(
                    Arg::new("fields")
                        .value_name("FIELD=VALUE")
                        .num_args(0..)
                        .help("One pair per field; nested keys as outer.inner=value. Integers: decimal or 0x hex; strings: text with \\x00 escapes; bytes: 0x…/hex:… or text; Option: none or a value; enums: variant name or code"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} encode {first} {ex_fields}\n  {bin} encode {first} {ex_fields} --json"
                )),
        )
        .subcommand(
            Command::new("scan")
                .about("The row ranges of a scan, as HBase shell and cbt commands")
                .arg(type_arg(types))
                .arg(
                    Arg::new("fields")
                        .value_name("CONSTRAINT")
                        .num_args(0..)
                        .help("Fields in key order: field=value (equality), then optionally field=lo..hi, lo..=hi, lo.., ..hi (range) or field^=prefix as the last one"),
                )
                .arg(
                    Arg::new("table")
                        .long("table")
                        .default_value("TABLE")
                        .help("Table name for the printed commands"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} scan {first} {scan_fields}\n  {bin} scan {first} --table orders {scan_fields} --json"
                )),
        )
        .subcommand(
            Command::new("plan")
                .about("Split points, the HBase create statement and the cbt createtable command")
                .arg(type_arg(types))
                .arg(
                    Arg::new("regions")
                        .long("regions")
                        .value_name("N")
                        .required(true)
                        .value_parser(clap::value_parser!(usize))
                        .help("Number of regions (tablets)"),
                )
                .arg(
                    Arg::new("sample")
                        .long("sample")
                        .value_name("FILE")
                        .help("Split at the quantiles of a key sample (a dump: HBase shell scan, cbt read, or one key per line)"),
                )
                .arg(Arg::new("table").long("table").default_value("TABLE"))
                .arg(Arg::new("family").long("family").default_value("f"))
                .arg(
                    Arg::new("check")
                        .long("check")
                        .action(ArgAction::SetTrue)
                        .help("Lint the plan (unreachable regions, skew, …); exit 1 on errors"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} plan {first} --regions 16 --table orders\n  {bin} plan {first} --regions 8 --sample keys.txt --check"
                )),
        )
        .subcommand(
            Command::new("hotspots")
                .about("Per-region load and a heatmap of a key dump")
                .arg(type_arg(types))
                .arg(
                    Arg::new("regions")
                        .long("regions")
                        .value_name("N")
                        .value_parser(clap::value_parser!(usize))
                        .conflicts_with("splits")
                        .required_unless_present("splits")
                        .help("Regions planned from the layout (as `plan`)"),
                )
                .arg(
                    Arg::new("splits")
                        .long("splits")
                        .value_name("FILE")
                        .help("Split points, one per line (toStringBinary, or 0x…/hex:… hex)"),
                )
                .arg(
                    Arg::new("keys")
                        .long("keys")
                        .value_name("DUMP")
                        .required(true)
                        .help("The dump: HBase shell scan output, cbt read output, or one key per line (toStringBinary or hex); - for stdin"),
                )
                .arg(
                    Arg::new("format")
                        .long("format")
                        .value_parser(["auto", "hbase", "cbt", "lines", "hex"])
                        .default_value("auto")
                        .help("Dump format"),
                )
                .arg(
                    Arg::new("time_field")
                        .long("time-field")
                        .value_name("F")
                        .help("Integer field holding the write time (ms since the epoch for the axis labels): time x region heatmap"),
                )
                .arg(
                    Arg::new("slices")
                        .long("slices")
                        .value_name("N")
                        .value_parser(clap::value_parser!(usize))
                        .default_value("48")
                        .help("Time slices of the heatmap"),
                )
                .arg(
                    Arg::new("svg")
                        .long("svg")
                        .value_name("OUT")
                        .help("Write the heatmap SVG here"),
                )
                .arg(
                    Arg::new("html")
                        .long("html")
                        .value_name("OUT")
                        .help("Write the key visualizer's report here (one HTML file: time x key-range heatmap, decoded key axis, hover details, the layout lint's findings; needs --time-field)"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  hbase shell <<< \"scan 'orders'\" > dump.txt; {bin} hotspots {first} --regions 16 --keys dump.txt\n  cbt read orders > dump.txt; {bin} hotspots {first} --splits splits.txt --keys dump.txt --time-field created_ms --svg heat.svg --html report.html"
                )),
        )
        .subcommand(
            Command::new("types")
                .about("The key types and their fields")
                .arg(json_arg())
                .after_help(format!("Example:\n  {bin} types")),
        )
}

/// The attributes of a field as written (`#[hash_prefix(4)] #[sep]`), from its layout.
pub(super) fn attributes(l: &crate::layout::FieldLayout) -> String {
    use crate::layout::FieldEncoding as E;
    let mut a = Vec::new();
    if let Some(h) = l.hash_prefix {
        a.push(if h.raw {
            format!("#[hash_prefix({}, raw)]", h.width)
        } else {
            format!("#[hash_prefix({})]", h.width)
        });
    }
    match l.encoding {
        E::Natural => {}
        E::Java => a.push("#[rowkey(java)]".to_owned()),
        E::Pad { len, fill: 0 } => a.push(format!("#[pad({len})]")),
        E::Pad { len, fill } => a.push(format!("#[pad({len}, fill = {fill})]")),
        E::Sep => a.push("#[sep]".to_owned()),
        E::SepByte(b) => a.push(format!("#[sep({})]", crate::hbase::shell_literal(&[b]))),
        E::ReverseTs => a.push("#[reverse_ts]".to_owned()),
        E::Reverse { .. } => a.push("#[reverse]".to_owned()),
        // a Phoenix column: its type decides the bytes (the key has #[rowkey(phoenix)])
        E::Phoenix => {}
        // a Bigtable struct-key field: the schema decides the bytes (#[rowkey(bigtable(..))])
        E::BigtableStruct => {}
    }
    if l.desc {
        a.push("#[desc]".to_owned());
    }
    a.join(" ")
}
