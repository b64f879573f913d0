//! `keytool describe`: keys shown field by field, with their byte ranges.

use clap::ArgMatches;

use crate::hbase::to_string_binary;

use super::ctx::{parse_key, strings, Ctx};
use super::decoded::Decoded;
use super::dump::trim_eol;
use super::failure::{Failure, Res};
use super::json::{hex, js};
use super::key_type::KeyType;

impl Ctx<'_> {
    pub(super) fn describe(&mut self, m: &ArgMatches) -> Res {
        let hex_mode = m.get_flag("hex");
        // (as typed, the key or why it is not one)
        let mut inputs: Vec<(String, Result<Vec<u8>, String>)> = strings(m, "keys")
            .into_iter()
            .map(|k| (k.to_owned(), parse_key(k, hex_mode)))
            .collect();
        if let Some(path) = m.get_one::<String>("dump") {
            self.read_dump(path, "auto", None, &mut |k| {
                inputs.push((to_string_binary(k), Ok(k.to_vec())));
            })?;
        } else if inputs.is_empty() {
            let mut line = Vec::new();
            loop {
                line.clear();
                if self.stdin.read_until(b'\n', &mut line)? == 0 {
                    break;
                }
                let raw = trim_eol(&line);
                if raw.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match std::str::from_utf8(raw) {
                    Ok(t) => inputs.push((t.to_owned(), parse_key(t, hex_mode))),
                    Err(_) => inputs.push((
                        to_string_binary(raw),
                        Err("not text: raw key bytes (such as cbt read output) go through --dump FILE".to_owned()),
                    )),
                }
            }
        }
        let mut failed = 0usize;
        // what the `error:` line says about the first key that failed
        let mut first_failure: Option<String> = None;
        let mut json_items = Vec::new();
        for (input, parsed) in &inputs {
            let key = match parsed {
                Ok(k) => k.clone(),
                Err(e) => {
                    failed += 1;
                    first_failure.get_or_insert_with(|| format!("{input}: not a key: {e}"));
                    if self.json {
                        json_items.push(format!("{{\"input\":{},\"error\":{}}}", js(input), js(e)));
                    } else {
                        writeln!(self.out, "{input}\n  not a key: {e}")?;
                    }
                    continue;
                }
            };
            let decoded: Vec<(&KeyType, Decoded)> =
                self.types.iter().map(|t| (t, (t.decode)(&key))).collect();
            let ok: Vec<&(&KeyType, Decoded)> =
                decoded.iter().filter(|(_, d)| d.error.is_none()).collect();
            if ok.is_empty() {
                failed += 1;
                first_failure.get_or_insert_with(|| {
                    let errors: Vec<String> = decoded
                        .iter()
                        .filter_map(|(t, d)| d.error.as_ref().map(|e| format!("{}: {e}", t.name)))
                        .collect();
                    format!("{}: {}", to_string_binary(&key), errors.join("; "))
                });
            }
            if self.json {
                let show: Vec<&(&KeyType, Decoded)> = if ok.is_empty() {
                    decoded.iter().collect()
                } else {
                    ok.clone()
                };
                let types: Vec<String> = show
                    .iter()
                    .map(|(t, d)| {
                        let fields: Vec<String> = d
                            .fields()
                            .map(|f| {
                                format!(
                                    "{{\"name\":{},\"value\":{},\"start\":{},\"end\":{}}}",
                                    js(f.name),
                                    js(&f.value),
                                    f.start,
                                    f.end
                                )
                            })
                            .collect();
                        let salt = d.salt.map_or("null".to_owned(), |s| s.to_string());
                        let error = match &d.error {
                            None => "null".to_owned(),
                            Some(e) => format!(
                                "{{\"field\":{},\"variant\":{},\"offset\":{},\"message\":{}}}",
                                js(e.field()),
                                e.variant().map_or("null".to_owned(), js),
                                e.offset(),
                                js(&e.to_string())
                            ),
                        };
                        format!(
                            "{{\"type\":{},\"ok\":{},\"salt\":{},\"fields\":[{}],\"error\":{}}}",
                            js(t.name),
                            d.error.is_none(),
                            salt,
                            fields.join(","),
                            error
                        )
                    })
                    .collect();
                json_items.push(format!(
                    "{{\"input\":{},\"key\":{},\"hex\":{},\"len\":{},\"decoded\":{},\"types\":[{}]}}",
                    js(input),
                    js(&to_string_binary(&key)),
                    js(&hex(&key)),
                    key.len(),
                    !ok.is_empty(),
                    types.join(",")
                ));
                continue;
            }
            writeln!(
                self.out,
                "{}  ({} bytes)",
                to_string_binary(&key),
                key.len()
            )?;
            if ok.is_empty() {
                writeln!(self.out, "  no key type decodes it:")?;
                for (t, d) in &decoded {
                    if let Some(e) = &d.error {
                        writeln!(self.out, "  {}: {e}", t.name)?;
                    }
                }
                continue;
            }
            for (t, d) in ok {
                writeln!(self.out, "  {}", t.name)?;
                let w = d
                    .parts
                    .iter()
                    .map(|f| f.name.len())
                    .max()
                    .unwrap_or(0)
                    .max(4);
                for f in &d.parts {
                    writeln!(
                        self.out,
                        "    {:<w$}  {:<8}  {}",
                        f.name,
                        format!("[{}, {})", f.start, f.end),
                        f.value
                    )?;
                }
            }
        }
        if self.json {
            writeln!(self.out, "[{}]", json_items.join(","))?;
        }
        if let Some(first) = first_failure {
            let more = if failed > 1 {
                format!(" (the first of {failed}; each one's errors are on stdout)")
            } else {
                String::new()
            };
            return Err(Failure::msg(format!(
                "{failed} of {} key(s) decoded by no key type: {first}{more}",
                inputs.len()
            )));
        }
        Ok(())
    }
}
