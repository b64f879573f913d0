//! `keytool encode`: a key from `field=value` pairs.

use clap::ArgMatches;

use crate::hbase::{shell_literal, to_string_binary};
use crate::text::TextArgs;

use super::ctx::{key_type, strings, Ctx};
use super::decoded::PartKind;
use super::failure::{Failure, Res};
use super::json::{hex, js};

impl Ctx<'_> {
    pub(super) fn encode(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let mut args = TextArgs::parse(strings(m, "fields"))?;
        let key = (t.encode)(&mut args).map_err(|e| Failure::msg(format!("{}: {e}", t.name)))?;
        let shell = shell_literal(&key);
        let sb = to_string_binary(&key);
        let hx = hex(&key);
        let d = (t.decode)(&key);
        let fields: Vec<String> = d
            .parts
            .iter()
            .filter(|p| p.kind != PartKind::Prefix)
            .map(|f| format!("{}={}", f.name, f.value))
            .collect();
        if self.json {
            writeln!(
                self.out,
                "{{\"type\":{},\"shell\":{},\"hex\":{},\"string_binary\":{},\"len\":{},\"fields\":{}}}",
                js(t.name),
                js(&shell),
                js(&hx),
                js(&sb),
                key.len(),
                js(&fields.join(" "))
            )?;
        } else {
            writeln!(self.out, "{}  ({} bytes)", t.name, key.len())?;
            writeln!(self.out, "  shell   {shell}")?;
            writeln!(self.out, "  hex     {hx}")?;
            writeln!(self.out, "  binary  {sb}")?;
            writeln!(self.out, "  fields  {}", fields.join(" "))?;
        }
        Ok(())
    }
}
