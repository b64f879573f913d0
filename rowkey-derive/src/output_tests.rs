//! Expansion snapshots: the code `#[derive(RowKey)]` generates for a few representative keys,
//! checked in under `rowkey-derive/tests/expand/<name>.expanded.rs`, so that any change to the
//! generated code shows up as a diff in review.
//!
//! Each snapshot file holds the input (as written below) followed by its expansion, both
//! formatted with `prettyplease`. A difference fails the test with the first differing lines.
//!
//! After an intended change to the generated code, rewrite the snapshots with
//!
//! ```text
//! ROWKEY_BLESS_EXPAND=1 cargo test -p rowkey-derive
//! ```
//!
//! and review the resulting `git diff rowkey-derive/tests/expand` before committing.
//!
//! This is a unit-test module rather than an integration test because a proc-macro crate can
//! only export its macros: `crate::expand::derive` (over `proc_macro2`) is reachable only from
//! inside the crate.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use syn::{parse_quote, DeriveInput};

const BLESS_VAR: &str = "ROWKEY_BLESS_EXPAND";

/// The representative inputs, one snapshot file each.
fn cases() -> Vec<(&'static str, DeriveInput)> {
    vec![
        (
            // whole-field salt, newest-first timestamp, terminated string
            "salt_reverse_ts_sep",
            parse_quote! {
                #[derive(RowKey)]
                struct OrderBySeller {
                    #[salt(buckets = 16)]
                    seller_id: u64,
                    #[reverse_ts]
                    created_ms: i64,
                    #[sep]
                    order_no: String,
                }
            },
        ),
        (
            // md5 hex prefix before a field, a nested enum key, a terminated string
            "hash_prefix",
            parse_quote! {
                #[derive(RowKey)]
                struct EventKey {
                    #[hash_prefix(4)]
                    uid: u64,
                    event_type: EventType,
                    #[sep]
                    biz_type: String,
                    #[reverse_ts]
                    ts_ms: i64,
                }
            },
        ),
        (
            // time buckets: salt = ts % 16
            "modulo_time_bucket",
            parse_quote! {
                #[derive(RowKey)]
                struct LogByTime {
                    #[salt(buckets = 16, modulo)]
                    ts_ms: u64,
                    #[sep]
                    host: String,
                    #[sep]
                    event: String,
                }
            },
        ),
        (
            // padded string and decimal, descending optional field, reversed digits
            "option_desc_pad",
            parse_quote! {
                #[derive(RowKey)]
                #[rowkey(max_len = 64)]
                struct Profile {
                    #[pad(8)]
                    region: String,
                    #[pad(6)]
                    shard: u32,
                    #[desc]
                    score: Option<i32>,
                    #[reverse]
                    account: u64,
                    name: String,
                }
            },
        ),
        (
            // fieldless enum with an explicit representation and discriminants
            "fieldless_enum",
            parse_quote! {
                #[derive(RowKey)]
                #[repr(u16)]
                enum Status {
                    Pending = 1,
                    Shipped = 2,
                    Delivered = 300,
                }
            },
        ),
        (
            // generic parameter (bounds added by the derive) and a borrowed field
            "generic_borrowed",
            parse_quote! {
                #[derive(RowKey)]
                struct Tagged<'a, T> {
                    tag: T,
                    #[sep]
                    name: &'a str,
                    id: u64,
                }
            },
        ),
        (
            // eight mixed fields: generated code grows linearly with the fields
            "wide_8",
            parse_quote! {
                #[derive(RowKey)]
                struct Wide8 {
                    f00: u64,
                    #[sep]
                    f01: String,
                    f02: i32,
                    #[sep]
                    f03: Vec<u8>,
                    f04: u16,
                    f05: bool,
                    #[pad(8)]
                    f06: String,
                    f07: char,
                }
            },
        ),
        (
            // sixteen mixed fields: at most 2,500 lines expanded
            "wide_16",
            parse_quote! {
                #[derive(RowKey)]
                struct Wide16 {
                    f00: u64,
                    #[sep]
                    f01: String,
                    f02: i32,
                    #[sep]
                    f03: Vec<u8>,
                    f04: u16,
                    f05: bool,
                    #[pad(8)]
                    f06: String,
                    f07: char,
                    f08: u64,
                    #[sep]
                    f09: String,
                    f10: i32,
                    #[sep]
                    f11: Vec<u8>,
                    f12: u16,
                    f13: bool,
                    #[pad(8)]
                    f14: String,
                    f15: char,
                }
            },
        ),
    ]
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand")
}

fn file_name(name: &str) -> String {
    format!("{name}.expanded.rs")
}

/// The input item followed by its expansion, formatted.
fn render(input: &DeriveInput) -> String {
    let expanded = crate::expand::derive(input);
    let expansion: syn::File = match syn::parse2(expanded.clone()) {
        Ok(file) => file,
        Err(e) => panic!(
            "expansion of `{}` does not parse as items: {e}\n{expanded}",
            input.ident
        ),
    };
    let mut expansion = expansion;
    let text = take_text_impls(&mut expansion);
    let mut items: Vec<syn::Item> = vec![syn::Item::from(input.clone())];
    items.extend(expansion.items);
    let file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items,
    };
    let mut out = String::from(
        "// @generated by rowkey-derive's output_tests: the input, then its expansion.\n\
         // Rewrite with `ROWKEY_BLESS_EXPAND=1 cargo test -p rowkey-derive`.\n\n",
    );
    out.push_str(&prettyplease::unparse(&file));
    if let Some(text) = text {
        out.push_str(
            "\n// The items inside `__private::text_impls! { .. }` above (the key tool's impls, kept\n\
             // only with rowkey's `tool` feature):\n\n",
        );
        out.push_str(&prettyplease::unparse(&text));
    }
    out
}

/// The key tool's impls pass through `__private::text_impls! { .. }`, whose tokens prettyplease
/// cannot format: they are left out of the expansion (an empty invocation marks the place) and
/// returned as items, to be printed formatted after it.
fn take_text_impls(file: &mut syn::File) -> Option<syn::File> {
    for item in &mut file.items {
        let syn::Item::Const(c) = item else { continue };
        let syn::Expr::Block(block) = &mut *c.expr else {
            continue;
        };
        for stmt in &mut block.block.stmts {
            let mac = match stmt {
                syn::Stmt::Item(syn::Item::Macro(m)) => &mut m.mac,
                syn::Stmt::Macro(m) => &mut m.mac,
                _ => continue,
            };
            if mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "text_impls")
            {
                let tokens = std::mem::take(&mut mac.tokens);
                return Some(syn::parse2(tokens).expect("text impls parse as items"));
            }
        }
    }
    None
}

/// A readable account of how `actual` differs from `expected`: line counts, then the first
/// changed region (between the common beginning and the common end), with a few lines of
/// context before it.
fn describe_difference(expected: &str, actual: &str) -> String {
    const CONTEXT: usize = 3;
    const SHOWN: usize = 12;
    let exp: Vec<&str> = expected.lines().collect();
    let act: Vec<&str> = actual.lines().collect();
    let first = exp
        .iter()
        .zip(&act)
        .position(|(e, a)| e != a)
        .unwrap_or(exp.len().min(act.len()));
    let common_end = exp[first..]
        .iter()
        .rev()
        .zip(act[first..].iter().rev())
        .take_while(|(e, a)| e == a)
        .count();
    let (exp_changed, act_changed) = (
        &exp[first..exp.len() - common_end],
        &act[first..act.len() - common_end],
    );
    let what = if exp_changed.is_empty() {
        format!("{} line(s) inserted after line {first}", act_changed.len())
    } else {
        format!(
            "lines {}..={} of the snapshot changed",
            first + 1,
            first + exp_changed.len()
        )
    };
    let mut out = format!("expected {} lines, got {}; {what}:\n", exp.len(), act.len());
    let start = first.saturating_sub(CONTEXT);
    for (i, line) in exp.iter().enumerate().take(first).skip(start) {
        let _ = writeln!(out, "  {:>5}   {line}", i + 1);
    }
    for (i, line) in exp_changed.iter().enumerate().take(SHOWN) {
        let _ = writeln!(out, "- {:>5}   {line}", first + i + 1);
    }
    if exp_changed.len() > SHOWN {
        let _ = writeln!(out, "- ({} more)", exp_changed.len() - SHOWN);
    }
    for (i, line) in act_changed.iter().enumerate().take(SHOWN) {
        let _ = writeln!(out, "+ {:>5}   {line}", first + i + 1);
    }
    if act_changed.len() > SHOWN {
        let _ = writeln!(out, "+ ({} more)", act_changed.len() - SHOWN);
    }
    out
}

#[test]
fn expansion_snapshots() {
    let bless = std::env::var_os(BLESS_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    let dir = snapshot_dir();
    let mut failures = Vec::new();
    let cases = cases();
    for (name, input) in &cases {
        let path = dir.join(file_name(name));
        let actual = render(input);
        if bless {
            if std::fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
                if let Err(e) = std::fs::create_dir_all(&dir) {
                    panic!("cannot create {}: {e}", dir.display());
                }
                if let Err(e) = std::fs::write(&path, &actual) {
                    panic!("cannot write {}: {e}", path.display());
                }
                eprintln!("blessed {}", path.display());
            }
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{}: the expansion changed; {}",
                path.display(),
                describe_difference(&expected, &actual)
            )),
            Err(e) => failures.push(format!("{}: cannot read snapshot ({e})", path.display())),
        }
    }

    // A snapshot whose case was removed or renamed would otherwise linger unchecked.
    let known: Vec<String> = cases.iter().map(|(name, _)| file_name(name)).collect();
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) => panic!("cannot list {}: {e}", dir.display()),
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.ends_with(".expanded.rs") && !known.contains(&file) {
            failures.push(format!(
                "{}: no case renders this snapshot; delete it or add the case",
                entry.path().display()
            ));
        }
    }

    assert!(
        failures.is_empty(),
        "{} expansion snapshot(s) differ; if the change is intended, run \
         `{BLESS_VAR}=1 cargo test -p rowkey-derive` and review the diff:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn difference_report_points_at_first_changed_line() {
    let report = describe_difference("a\nb\nc\nd\ne\n", "a\nb\nX\nY\nd\ne\n");
    assert_eq!(
        report,
        "expected 5 lines, got 6; lines 3..=3 of the snapshot changed:\n\
         \x20     1   a\n\
         \x20     2   b\n\
         -     3   c\n\
         +     3   X\n\
         +     4   Y\n"
    );
    // a pure addition at the end
    let report = describe_difference("a\n", "a\nb\n");
    assert_eq!(
        report,
        "expected 1 lines, got 2; 1 line(s) inserted after line 1:\n\
         \x20     1   a\n\
         +     2   b\n"
    );
}
