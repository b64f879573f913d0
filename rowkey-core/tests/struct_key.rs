//! Bigtable structured row keys (`rowkey::struct_key`) against vectors written by the Go
//! program in `tests/struct_key_vectors/`: Int64 `OrderedCodeBytes` from Google's own
//! `github.com/google/orderedcode`, the Struct joining from the API reference (no Google Go
//! code implements it; its documented examples are in `documented.tsv`, checked here too).
//!
//! The test runs `go run .` itself: without the `go` command it fails, naming what to install.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use rowkey::struct_key::{Field, FieldType, Int64Encoding, StructEncoding, StructSchema, Value};
use rowkey::EncodeErrorKind;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/struct_key_vectors")
}

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|e| panic!("hex {s:?}: {e}")))
        .collect()
}

fn list(s: &str) -> Vec<&str> {
    if s == "-" {
        Vec::new()
    } else {
        s.split(',').collect()
    }
}

fn field_type(t: &str) -> FieldType {
    match t {
        "i64oc" => FieldType::Int64(Int64Encoding::OrderedCodeBytes),
        "i64be" => FieldType::Int64(Int64Encoding::BigEndianBytes),
        "tsoc" => FieldType::Timestamp(Int64Encoding::OrderedCodeBytes),
        "tsbe" => FieldType::Timestamp(Int64Encoding::BigEndianBytes),
        "str" => FieldType::String,
        "bytes" => FieldType::Bytes,
        other => panic!("unknown field type {other:?}"),
    }
}

fn value(ty: FieldType, v: &str) -> Value {
    match ty {
        FieldType::Int64(_) => Value::Int64(v.parse().unwrap()),
        FieldType::Timestamp(_) => Value::Timestamp(v.parse().unwrap()),
        FieldType::String => Value::String(String::from_utf8(hex(&v[1..])).unwrap()),
        FieldType::Bytes => Value::Bytes(hex(&v[1..])),
    }
}

/// Check one vector line; returns the struct encoding's kind and whether the key encoded (not
/// refused), for counting.
fn check_line(line: &str) -> (&'static str, bool) {
    let cols: Vec<&str> = line.split('\t').collect();
    assert_eq!(cols.len(), 4, "bad vector line {line:?}");
    let (encoding, kind) = match cols[0] {
        "singleton" => (StructEncoding::Singleton, "singleton"),
        "ordered" => (StructEncoding::OrderedCodeBytes, "ordered"),
        d => match d.strip_prefix("delimited:") {
            Some(h) => (StructEncoding::DelimitedBytes(hex(h)), "delimited"),
            None => panic!("unknown struct encoding {d:?}"),
        },
    };
    let types: Vec<FieldType> = list(cols[1]).into_iter().map(field_type).collect();
    let raw = list(cols[2]);
    assert_eq!(raw.len(), types.len(), "{line:?}");
    let values: Vec<Value> = types.iter().zip(&raw).map(|(&t, v)| value(t, v)).collect();
    let fields = types
        .iter()
        .enumerate()
        .map(|(i, &t)| Field::new(format!("f{i}"), t))
        .collect();
    let schema = StructSchema::new(fields, encoding).unwrap();
    let got = schema.encode(&values);
    match cols[3].strip_prefix("ERR:") {
        Some(reason) => {
            assert_eq!(reason, "contains-delimiter", "{line:?}");
            let err = got.expect_err(line);
            assert!(
                matches!(err.kind(), EncodeErrorKind::ContainsSeparator { .. }),
                "{line:?}: {err}"
            );
            (kind, false)
        }
        None => {
            let expected = hex(cols[3]);
            let got = got.unwrap_or_else(|e| panic!("{line:?}: {e}"));
            assert_eq!(got, expected, "encode {line:?}");
            let back = schema
                .decode(&expected)
                .unwrap_or_else(|e| panic!("decode {line:?}: {e}"));
            assert_eq!(back, values, "decode {line:?}");
            (kind, true)
        }
    }
}

/// Vectors per struct encoding: (encoded, refused).
fn check_text(text: &str) -> BTreeMap<&'static str, (usize, usize)> {
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, encoded) = check_line(line);
        let count = counts.entry(kind).or_insert((0, 0));
        if encoded {
            count.0 += 1;
        } else {
            count.1 += 1;
        }
    }
    counts
}

#[test]
fn documented_examples() {
    let text = std::fs::read_to_string(dir().join("documented.tsv")).unwrap();
    let counts = check_text(&text);
    assert_eq!(counts.values().map(|c| c.0 + c.1).sum::<usize>(), 9);
}

#[test]
fn go_vectors() {
    let started = Instant::now();
    let output = match Command::new("go")
        .arg("run")
        .arg(".")
        .current_dir(dir())
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!(
            "cannot run `go run .` in {} ({e}): this test needs the Go toolchain (the `go` \
             command, Go 1.21 or newer, e.g. Debian package `golang-go`) and the Go module \
             proxy for github.com/google/orderedcode v0.0.1 (or it in the module cache)",
            dir().display()
        ),
    };
    assert!(
        output.status.success(),
        "`go run .` in {} failed: {}\n{}",
        dir().display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let generated = started.elapsed();
    let text = String::from_utf8(output.stdout).unwrap();
    let counts = check_text(&text);
    eprintln!(
        "vectors (encoded, refused): {counts:?}, generated in {generated:?}, checked in {:?}",
        started.elapsed() - generated
    );
    for kind in ["singleton", "ordered", "delimited"] {
        let (n, _) = counts.get(kind).copied().unwrap_or((0, 0));
        assert!(n >= 6000, "only {n} encoded {kind} vectors");
    }
}
