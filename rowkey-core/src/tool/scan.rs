//! `keytool scan`: the ranges of a typed scan, and the shell/cbt commands that run it.

use std::fmt::Write as _;

use clap::ArgMatches;

use crate::hbase::{shell_literal, to_string_binary};
use crate::text::TextArgs;

use super::cbt::{bash_word, cbt_regex, cbt_start, cbt_stop};
use super::ctx::{key_type, strings, Ctx};
use super::failure::{Failure, Res};
use super::json::{hex, js};

impl Ctx<'_> {
    pub(super) fn scan(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let table = m
            .get_one::<String>("table")
            .map_or("TABLE", String::as_str)
            .to_owned();
        let mut args = TextArgs::parse_scan(strings(m, "fields"))?;
        let ranges = (t.scan)(&mut args).map_err(|e| Failure::msg(format!("{}: {e}", t.name)))?;
        let tq = crate::hbase::ruby_single_quoted(&table);
        let tb = bash_word(table.as_bytes()).unwrap_or_else(|| table.clone());
        let mut json_items = Vec::new();
        if !self.json {
            writeln!(
                self.out,
                "{}: {} range(s){}",
                t.name,
                ranges.len(),
                if ranges.is_empty() {
                    " (no key can match)"
                } else {
                    ""
                }
            )?;
        }
        for (i, r) in ranges.iter().enumerate() {
            let mut hb = format!("scan {tq}, {{STARTROW => {}", shell_literal(r.start()));
            if let Some(s) = r.stop() {
                let _ = write!(hb, ", STOPROW => {}", shell_literal(s));
            }
            hb.push('}');
            let (cs, ws) = cbt_start(r.start());
            let mut cbt = format!("cbt read {tb}");
            let mut widened = ws;
            if !cs.is_empty() {
                let _ = write!(cbt, " start={}", bash_word(&cs).unwrap_or_default());
            }
            if let Some(s) = r.stop() {
                let (ce, we) = cbt_stop(s);
                widened |= we;
                let _ = write!(cbt, " end={}", bash_word(&ce).unwrap_or_default());
            }
            // start/end widened: a row-key regex keeps exactly the range's rows
            let regex = if widened {
                cbt_regex(r.start(), r.stop())
            } else {
                None
            };
            if let Some(re) = &regex {
                let _ = write!(cbt, " regex='{re}'");
            }
            let stop_sb = r.stop().map(to_string_binary);
            let stop_hex = r.stop().map(hex);
            if self.json {
                json_items.push(format!(
                    "{{\"start\":{},\"stop\":{},\"start_hex\":{},\"stop_hex\":{},\"hbase\":{},\"cbt\":{},\"cbt_widened\":{},\"cbt_exact\":{}}}",
                    js(&to_string_binary(r.start())),
                    stop_sb.as_deref().map_or("null".to_owned(), js),
                    js(&hex(r.start())),
                    stop_hex.as_deref().map_or("null".to_owned(), js),
                    js(&hb),
                    js(&cbt),
                    widened,
                    !widened || regex.is_some()
                ));
                continue;
            }
            writeln!(self.out, "range {}", i + 1)?;
            writeln!(
                self.out,
                "  rows   [{}, {})",
                to_string_binary(r.start()),
                stop_sb.as_deref().unwrap_or("end of table")
            )?;
            writeln!(
                self.out,
                "  hex    {} .. {}",
                hex(r.start()),
                stop_hex.as_deref().unwrap_or("(end)")
            )?;
            writeln!(self.out, "  hbase  {hb}")?;
            writeln!(self.out, "  cbt    {cbt}")?;
            if widened && regex.is_some() {
                writeln!(
                    self.out,
                    "         (start/end widened to rows without 0x00, which no command-line argument can carry; the regex keeps exactly the range's rows)"
                )?;
            } else if widened {
                writeln!(
                    self.out,
                    "         (widened to the nearest rows without 0x00, which no command-line argument can carry: filter the rows)"
                )?;
            }
        }
        if self.json {
            writeln!(
                self.out,
                "{{\"type\":{},\"ranges\":[{}]}}",
                js(t.name),
                json_items.join(",")
            )?;
        }
        Ok(())
    }
}
