//! `keytool plan`: region split points for a key type, checked.

use clap::ArgMatches;

use super::cbt::bash_word;
use crate::hbase::to_string_binary;
use crate::plan;

use super::ctx::{key_type, Ctx};
use super::failure::{Failure, Res};
use super::json::{hex, js};

impl Ctx<'_> {
    pub(super) fn plan(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let regions = m.get_one::<usize>("regions").copied().unwrap_or(1);
        let table = m.get_one::<String>("table").map_or("TABLE", String::as_str);
        let family = m.get_one::<String>("family").map_or("f", String::as_str);
        let sample: Option<Vec<Vec<u8>>> = match m.get_one::<String>("sample") {
            None => None,
            Some(path) => {
                // Rows of other layouts in the dump are skipped: the sample is this type's keys.
                let mut keys = Vec::new();
                let mut skipped = 0usize;
                self.read_dump(path, "auto", Some(t), &mut |k| {
                    if (t.decode)(k).error.is_none() {
                        keys.push(k.to_vec());
                    } else {
                        skipped += 1;
                    }
                })?;
                if keys.is_empty() {
                    return Err(Failure::msg(format!(
                        "--sample {path}: no row decodes as {} ({skipped} other row(s))",
                        t.name
                    )));
                }
                if skipped > 0 && !self.json {
                    writeln!(
                        self.out,
                        "sample: {} key(s) of {}, {skipped} other row(s) skipped",
                        keys.len(),
                        t.name
                    )?;
                }
                Some(keys)
            }
        };
        let splits = match &sample {
            Some(keys) => (t.sample_split_points)(keys, regions),
            None => (t.split_points)(regions),
        }
        .map_err(|e| {
            let hint = if matches!(e, plan::PlanError::NeedsSample { .. }) && sample.is_none() {
                " (give --sample FILE)"
            } else {
                ""
            };
            Failure::msg(format!("{}: {e}{hint}", t.name))
        })?;
        let create = plan::create_statement(table, family, &splits);
        let cbt_splits: Option<Vec<String>> = splits
            .iter()
            .map(|s| {
                if s.contains(&b',') {
                    None
                } else {
                    bash_word(s)
                }
            })
            .collect();
        let tb = bash_word(table.as_bytes()).unwrap_or_else(|| table.to_owned());
        let cbt = match &cbt_splits {
            Some(words) if words.is_empty() => format!("cbt createtable {tb} families={family}"),
            Some(words) => {
                // one bash word: concatenated quoted pieces with commas between
                let joined = words.join(",");
                format!("cbt createtable {tb} families={family} splits={joined}")
            }
            None => {
                "(cbt cannot take these split points: one holds 0x00 or ','; use a client library)"
                    .to_owned()
            }
        };
        let lint = m.get_flag("check").then(|| {
            let mut l = plan::Lint::new(&splits).layout(t.layout);
            if let Some(keys) = &sample {
                l = l.sample(keys);
            }
            l.run()
        });
        if self.json {
            let sp: Vec<String> = splits.iter().map(|s| js(&to_string_binary(s))).collect();
            let sph: Vec<String> = splits.iter().map(|s| js(&hex(s))).collect();
            let lint_json = match &lint {
                None => "null".to_owned(),
                Some(r) => format!(
                    "{{\"errors\":{},\"clean\":{},\"report\":{}}}",
                    r.has_errors(),
                    r.is_clean(),
                    js(&r.to_string())
                ),
            };
            writeln!(
                self.out,
                "{{\"type\":{},\"regions\":{},\"splits\":[{}],\"splits_hex\":[{}],\"hbase\":{},\"cbt\":{},\"check\":{}}}",
                js(t.name),
                splits.len() + 1,
                sp.join(","),
                sph.join(","),
                js(&create),
                js(&cbt),
                lint_json
            )?;
        } else {
            writeln!(
                self.out,
                "{}: {} regions, {} split point(s){}",
                t.name,
                splits.len() + 1,
                splits.len(),
                if sample.is_some() {
                    " from the sample"
                } else {
                    ""
                }
            )?;
            for s in &splits {
                writeln!(self.out, "  {:<24} {}", to_string_binary(s), hex(s))?;
            }
            writeln!(self.out, "hbase:")?;
            writeln!(self.out, "  {create}")?;
            writeln!(self.out, "cbt:")?;
            writeln!(self.out, "  {cbt}")?;
            if let Some(r) = &lint {
                writeln!(self.out, "check:")?;
                write!(self.out, "{r}")?;
                if !r.to_string().ends_with('\n') {
                    writeln!(self.out)?;
                }
            }
        }
        if lint.as_ref().is_some_and(plan::LintReport::has_errors) {
            return Err(Failure::msg("the plan check found errors"));
        }
        Ok(())
    }
}
