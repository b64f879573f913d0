//! The key tool's dump readers: arbitrary text never panics them, and arbitrary keys written as
//! `cbt read` (raw and `%q`-quoted keys), HBase shell `scan` (redirected output),
//! `toStringBinary` lines and hex lines print them read back byte for byte — except the
//! ambiguities `rowkey::tool::DumpFormat` documents, which are skipped.
#![no_main]

use std::fmt::Write as _;

use libfuzzer_sys::fuzz_target;
use rowkey::hbase::to_string_binary;
use rowkey::tool::{read_dump, read_dump_as, DumpFormat};

const RULE: &str = "----------------------------------------";

fn read(dump: &[u8], format: Option<DumpFormat>) -> Vec<Vec<u8>> {
    let mut keys = Vec::new();
    let res = match format {
        None => read_dump(&mut &dump[..], &mut |k| keys.push(k.to_vec())),
        Some(f) => read_dump_as(&mut &dump[..], f, &mut |k| keys.push(k.to_vec())),
    };
    res.expect("a written dump reads");
    keys
}

/// A segment after a newline that starts like a cbt cell header (a superset of the documented
/// ambiguity: two spaces, then ` @ ` somewhere).
fn cbt_ambiguous(k: &[u8]) -> bool {
    k.split(|b| *b == b'\n')
        .skip(1)
        .any(|seg| seg.starts_with(b"  ") && seg.windows(3).any(|w| w == b" @ "))
}

/// ` column=NAME:` in the key's text (the documented HBase ambiguity).
fn hbase_ambiguous(k: &[u8]) -> bool {
    let t = to_string_binary(k);
    t.match_indices(" column=").any(|(i, m)| {
        let rest = &t[i + m.len()..];
        rest.find([' ', ',', '=', ':'])
            .is_some_and(|n| n > 0 && rest[n..].starts_with(':'))
    })
}

fn go_quote(b: &[u8]) -> String {
    let mut s = String::from("\"");
    for &x in b {
        match x {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            0x20..=0x7E => s.push(char::from(x)),
            _ => {
                let _ = write!(s, "\\x{x:02x}");
            }
        }
    }
    s.push('"');
    s
}

fuzz_target!(|input: (Vec<Vec<u8>>, &[u8])| {
    let (mut keys, raw) = input;
    // arbitrary text: an error or keys, never a panic
    let _ = read_dump(&mut &raw[..], &mut |_| {});
    for f in [
        DumpFormat::Cbt,
        DumpFormat::HBase,
        DumpFormat::Lines,
        DumpFormat::Hex,
    ] {
        let _ = read_dump_as(&mut &raw[..], f, &mut |_| {});
    }

    keys.retain(|k| !k.is_empty());
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        return;
    }

    let cell = format!("  {:<40} @ 2023/11/14-22:13:20.000000\n    \"v\"\n", "f:q");
    let quoted_cell = format!(
        "  {:<40} @ 2023/11/14-22:13:20.000000\n    \"v\"\n",
        "\"f:q\""
    );
    let cbt_keys: Vec<Vec<u8>> = keys.iter().filter(|k| !cbt_ambiguous(k)).cloned().collect();
    let mut cbt = Vec::new();
    let mut quoted = Vec::new();
    for k in &cbt_keys {
        cbt.extend_from_slice(format!("{RULE}\n").as_bytes());
        cbt.extend_from_slice(k);
        cbt.extend_from_slice(format!("\n{cell}\n").as_bytes());
        quoted.extend_from_slice(format!("{RULE}\n{}\n{}\n", go_quote(k), quoted_cell).as_bytes());
    }
    if !cbt_keys.is_empty() {
        assert_eq!(read(&cbt, None), cbt_keys);
        assert_eq!(read(&quoted, Some(DumpFormat::Cbt)), cbt_keys);
    }

    let hb_keys: Vec<Vec<u8>> = keys
        .iter()
        .filter(|k| !hbase_ambiguous(k))
        .cloned()
        .collect();
    let mut hbase = String::from("ROW  COLUMN+CELL\n");
    for k in &hb_keys {
        let _ = writeln!(
            hbase,
            " {} column=f:q, timestamp=1, value=v",
            to_string_binary(k)
        );
    }
    let _ = writeln!(hbase, "{} row(s)", hb_keys.len());
    if !hb_keys.is_empty() {
        assert_eq!(read(hbase.as_bytes(), None), hb_keys);
    }

    let lines: String = keys.iter().map(|k| to_string_binary(k) + "\n").collect();
    assert_eq!(read(lines.as_bytes(), Some(DumpFormat::Lines)), keys);
    let hex: String = keys
        .iter()
        .map(|k| k.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    assert_eq!(read(hex.as_bytes(), Some(DumpFormat::Hex)), keys);
});
