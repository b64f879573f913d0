//! `keytool hotspots`: how the keys of a dump spread over regions.

use std::fs::File;
use std::io::{BufRead, BufReader};

use clap::ArgMatches;

use crate::hbase::to_string_binary;

use super::ctx::{key_type, parse_key, Ctx};
use super::failure::{Failure, Res};
use super::json::{jnum, js};

impl Ctx<'_> {
    pub(super) fn hotspots(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let dump = m
            .get_one::<String>("keys")
            .cloned()
            .ok_or_else(|| Failure::msg("--keys is required"))?;
        let format = m
            .get_one::<String>("format")
            .cloned()
            .unwrap_or_else(|| "auto".to_owned());
        let slices = m.get_one::<usize>("slices").copied().unwrap_or(48);
        let splits: Vec<Vec<u8>> = match m.get_one::<String>("splits") {
            Some(path) => {
                let f = File::open(path).map_err(|e| Failure::msg(format!("{path}: {e}")))?;
                let mut out = Vec::new();
                for (i, line) in BufReader::new(f).lines().enumerate() {
                    let line = line?;
                    let l = line.trim();
                    if l.is_empty() {
                        continue;
                    }
                    let hex_mode = l.starts_with("0x") || l.starts_with("hex:");
                    out.push(
                        parse_key(l, hex_mode)
                            .map_err(|e| Failure::msg(format!("{path} line {}: {e}", i + 1)))?,
                    );
                }
                out
            }
            None => {
                let n = m.get_one::<usize>("regions").copied().unwrap_or(1);
                (t.split_points)(n).map_err(|e| Failure::msg(format!("{}: {e}", t.name)))?
            }
        };
        let time_field = m.get_one::<String>("time_field").cloned();
        if let Some(f) = &time_field {
            if !t.has_field(f) {
                return Err(Failure::msg(format!(
                    "--time-field {f}: {} has no such field (fields: {})",
                    t.name,
                    t.field_names().join(", ")
                )));
            }
            if dump == "-" {
                return Err(Failure::msg(
                    "--time-field needs --keys FILE (the dump is read twice: once for the time span)",
                ));
            }
        }
        let mut analyzer = crate::hotspot::Analyzer::new(&splits)
            .map_err(|e| Failure::msg(format!("split points: {e}")))?
            .with_name(t.name);
        let time_of = |key: &[u8]| -> Option<u64> {
            let f = time_field.as_deref()?;
            let d = (t.decode)(key);
            if d.error.is_some() {
                return None;
            }
            let v = d.fields().find(|x| x.name == f)?;
            let s = v.value.trim();
            let s = s
                .strip_prefix("Some(")
                .and_then(|x| x.strip_suffix(')'))
                .unwrap_or(s);
            s.parse::<i128>().ok().and_then(|x| u64::try_from(x).ok())
        };
        if time_field.is_some() {
            let (mut lo, mut hi) = (u64::MAX, 0u64);
            self.read_dump(&dump, &format, Some(t), &mut |k| {
                if let Some(x) = time_of(k) {
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            })?;
            if lo <= hi {
                analyzer = analyzer
                    .with_time_span(lo, hi.saturating_add(1), slices)
                    .map_err(|e| Failure::msg(format!("heatmap: {e}")))?;
            }
        }
        let mut total = 0u64;
        let mut undecodable = 0u64;
        let mut first_error: Option<(Vec<u8>, String)> = None;
        let detected = self.read_dump(&dump, &format, Some(t), &mut |k| {
            total += 1;
            let d = (t.decode)(k);
            let time = if d.error.is_none() { time_of(k) } else { None };
            if let Some(e) = d.error {
                undecodable += 1;
                if first_error.is_none() {
                    first_error = Some((k.to_vec(), e.to_string()));
                }
            }
            analyzer.add_with(k, time, k.len() as u64);
        })?;
        let report = analyzer.report();
        if let Some(path) = m.get_one::<String>("svg") {
            report
                .write_heatmap_svg(path)
                .map_err(|e| Failure::msg(format!("{path}: {e}")))?;
        }
        if let Some(path) = m.get_one::<String>("html") {
            if time_field.is_none() {
                return Err(Failure::msg(
                    "--html draws keys over time: give --time-field (the field holding the write time)",
                ));
            }
            let findings = crate::plan::Lint::new(&splits).layout(t.layout).run();
            let map = crate::hotspot::LoadMap::from_report(&report)
                .map_err(|e| Failure::msg(format!("the key visualizer's report: {e}")))?;
            (t.label_map)(map)
                .with_findings(findings.to_string().lines())
                .write_html(path)
                .map_err(|e| Failure::msg(format!("{path}: {e}")))?;
        }
        if self.json {
            let regions: Vec<String> = report
                .regions()
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    format!(
                        "{{\"index\":{},\"start\":{},\"stop\":{},\"keys\":{},\"bytes\":{},\"share\":{}}}",
                        r.index,
                        js(&to_string_binary(&r.start)),
                        r.stop.as_deref().map_or("null".to_owned(), |s| js(&to_string_binary(s))),
                        r.keys,
                        r.bytes,
                        jnum(report.share(i))
                    )
                })
                .collect();
            writeln!(
                self.out,
                "{{\"type\":{},\"format\":{},\"keys\":{},\"undecodable\":{},\"empty_regions\":{},\"max_mean_skew\":{},\"regions\":[{}]}}",
                js(t.name),
                js(detected.name()),
                total,
                undecodable,
                report.empty_regions(),
                jnum(report.max_mean_skew()),
                regions.join(",")
            )?;
        } else {
            writeln!(
                self.out,
                "{total} key(s) read ({}), {undecodable} not decodable as {}",
                detected.name(),
                t.name
            )?;
            if let Some((k, e)) = &first_error {
                writeln!(self.out, "  first: {}: {e}", to_string_binary(k))?;
            }
            write!(self.out, "{report}")?;
            if let Some(path) = m.get_one::<String>("svg") {
                writeln!(self.out, "heatmap: {path}")?;
            }
            if let Some(path) = m.get_one::<String>("html") {
                writeln!(self.out, "key visualizer report: {path}")?;
            }
        }
        Ok(())
    }
}
