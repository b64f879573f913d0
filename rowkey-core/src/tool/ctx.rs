//! What every subcommand works with: the key types, the streams and the flags; the
//! listing of key types and fields, and reading a dump.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};

use clap::ArgMatches;

use crate::hbase::{from_string_binary, to_string_binary};
use crate::layout::Layout;
use crate::text::parse_hex;

use super::cli::attributes;
use super::dump::{read_dump_from, DumpFormat, Progress};
use super::failure::{Failure, Res};
use super::json::{fields_json, js};
use super::key_type::KeyType;

pub(super) struct Ctx<'a> {
    pub(super) types: &'a [KeyType],
    pub(super) stdin: &'a mut dyn BufRead,
    pub(super) out: &'a mut dyn Write,
    pub(super) err: &'a mut dyn Write,
    pub(super) progress: bool,
    pub(super) json: bool,
}

pub(super) fn key_type<'t>(types: &'t [KeyType], m: &ArgMatches) -> Result<&'t KeyType, Failure> {
    let name = m
        .get_one::<String>("type")
        .ok_or_else(|| Failure::msg("no key type given"))?;
    types
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| Failure::msg(format!("no key type {name}")))
}

/// The first name two registered key types share (`a::Key` and `b::Key`): the tool could not
/// tell them apart on its command line.
pub(super) fn shared_name(types: &[KeyType]) -> Option<&'static str> {
    types
        .iter()
        .enumerate()
        .find(|&(i, t)| types.iter().take(i).any(|u| u.name == t.name))
        .map(|(_, t)| t.name)
}

pub(super) fn strings<'m>(m: &'m ArgMatches, id: &str) -> Vec<&'m str> {
    m.get_many::<String>(id)
        .map(|v| v.map(String::as_str).collect())
        .unwrap_or_default()
}

/// A key as typed: `toStringBinary` (optionally in matching quotes) or hex.
pub(super) fn parse_key(text: &str, hex_mode: bool) -> Result<Vec<u8>, String> {
    let t = text.trim_end_matches(['\r', '\n']);
    if hex_mode {
        let t = t.trim();
        let t = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("hex:"))
            .unwrap_or(t);
        return parse_hex(t).map_err(|e| format!("{text:?} is not hex: {e}"));
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)))
        .unwrap_or(t);
    from_string_binary(unquoted).map_err(|e| format!("{text:?} is not a toStringBinary key: {e}"))
}

impl Ctx<'_> {
    pub(super) fn list_types(&mut self) -> Res {
        if self.json {
            let items: Vec<String> = self
                .types
                .iter()
                .map(|t| {
                    let variants = t.variants();
                    if variants.is_empty() {
                        return format!(
                            "{{\"type\":{},\"fields\":[{}]}}",
                            js(t.name),
                            fields_json(t.layout, &t.fields())
                        );
                    }
                    let vs: Vec<String> = variants
                        .iter()
                        .map(|v| {
                            format!(
                                "{{\"name\":{},\"tag\":{},\"key\":{},\"fields\":[{}]}}",
                                js(v.name),
                                js(&to_string_binary(v.tag)),
                                js(v.layout.name),
                                fields_json(v.layout, &(v.fields)())
                            )
                        })
                        .collect();
                    format!(
                        "{{\"type\":{},\"fields\":[],\"variants\":[{}]}}",
                        js(t.name),
                        vs.join(",")
                    )
                })
                .collect();
            writeln!(self.out, "[{}]", items.join(","))?;
            return Ok(());
        }
        for t in self.types {
            writeln!(self.out, "{}", t.name)?;
            let variants = t.variants();
            if variants.is_empty() {
                self.write_fields(t.layout, &t.fields(), "  ")?;
                continue;
            }
            writeln!(
                self.out,
                "  (a keyspace: variant=NAME, then that variant's fields)"
            )?;
            for v in &variants {
                writeln!(
                    self.out,
                    "  variant {}  tag {}  key {}",
                    v.name,
                    crate::hbase::shell_literal(v.tag),
                    v.layout.name
                )?;
                self.write_fields(v.layout, &(v.fields)(), "    ")?;
            }
        }
        Ok(())
    }

    /// The salt and the fields of a layout, one per line: name, type, attributes, text form.
    pub(super) fn write_fields(
        &mut self,
        layout: &Layout,
        texts: &[(&'static str, String)],
        indent: &str,
    ) -> Res {
        if let Some(s) = layout.salt {
            writeln!(
                self.out,
                "{indent}(salt: {} buckets, {} byte(s), over fields 0..={})",
                s.buckets, s.width, s.through_field
            )?;
        }
        let nw = layout
            .fields
            .iter()
            .map(|l| l.name.len())
            .max()
            .unwrap_or(0);
        let tw = layout.fields.iter().map(|l| l.ty.len()).max().unwrap_or(0);
        let attrs: Vec<String> = layout.fields.iter().map(attributes).collect();
        let aw = attrs.iter().map(String::len).max().unwrap_or(0);
        for ((l, (_, exp)), a) in layout.fields.iter().zip(texts).zip(&attrs) {
            let line = format!("{indent}{:<nw$}  {:<tw$}  {a:<aw$}  {exp}", l.name, l.ty);
            writeln!(self.out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

impl Ctx<'_> {
    /// Streams the keys of a dump (a path, or `-` for stdin) into `f`; returns the format.
    pub(super) fn read_dump(
        &mut self,
        path: &str,
        format: &str,
        t: Option<&KeyType>,
        f: &mut dyn FnMut(&[u8]),
    ) -> Result<DumpFormat, Failure> {
        let forced = DumpFormat::from_option(format);
        let decodes = t.map(|t| move |k: &[u8]| (t.decode)(k).error.is_none());
        let decodes = decodes.as_ref().map(|d| d as super::dump::Decodes<'_>);
        if path == "-" {
            let progress = Progress::new(false, None);
            return read_dump_from(self.stdin, forced, decodes, f, progress, self.err)
                .map_err(|e| Failure::msg(format!("stdin: {e}")));
        }
        let file = File::open(path).map_err(|e| Failure::msg(format!("{path}: {e}")))?;
        let len = file.metadata().ok().map(|m| m.len());
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let progress = Progress::new(self.progress, len);
        read_dump_from(&mut reader, forced, decodes, f, progress, self.err)
            .map_err(|e| Failure::msg(format!("{path}: {e}")))
    }
}
