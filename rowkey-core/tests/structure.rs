//! The runtime's structure, pinned (README "Architecture"):
//!
//! - nothing in the runtime calls into `__private`: it is only what generated code calls;
//! - no two modules import each other, a parent and its child included (the parent declares
//!   its children and re-exports their items; a child imports its siblings, never the parent),
//!   and no longer circle of imports either: the module graph is acyclic;
//! - the derive does not depend on the runtime.
//!
//! The sources are read as text: a module is a file, and an import is a `crate::…` or
//! `super::…` path outside comments (`use super::*` imports the parent), a parent's
//! `use child::…`, or a name a child sees through the parent's glob.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as (module path, source without comments and tests).
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<Vec<String>, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
        if p.is_dir() {
            let mut sub = prefix.to_vec();
            sub.push(name);
            modules(&p, &sub, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let mut m = prefix.to_vec();
            if name != "mod" && name != "lib" {
                m.push(name);
            }
            out.insert(m, code_of(&std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The source without comment lines and without its unit tests.
fn code_of(s: &str) -> String {
    let s = match s.find("#[cfg(test)]\nmod tests") {
        Some(i) => &s[..i],
        None => s,
    };
    let code = s
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    without_strings(&code)
}

/// `code` with the contents of its string literals removed (help texts name fields and
/// commands that are not imports).
fn without_strings(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' if chars.peek() == Some(&'"') => {
                // the char literal '"'
                out.push(c);
                out.push(chars.next().unwrap());
            }
            '"' => {
                out.push('"');
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push('"');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether `word` occurs in `code` as a whole identifier.
fn names(code: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(i, _)| {
        !code[..i].chars().next_back().is_some_and(is_ident)
            && !code[i + word.len()..].chars().next().is_some_and(is_ident)
    })
}

/// The names of the items a module declares visible to its parent.
fn item_names(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in code.lines() {
        let Some(rest) = ["pub ", "pub(super) ", "pub(crate) "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
        else {
            continue;
        };
        let rest = rest.strip_prefix("const fn ").map_or(rest, |r| r);
        for kw in [
            "fn ", "struct ", "enum ", "type ", "const ", "trait ", "static ",
        ] {
            if let Some(r) = rest.strip_prefix(kw) {
                let n: String = r
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(n);
            }
        }
    }
    out
}

/// What a parent module imports from each of its children (`use child::{a, b}`,
/// `pub use child::*`, …): a child that glob-imports the parent (`use super::*`) sees these
/// names, so naming one imports that sibling.
fn via_parent(
    mods: &BTreeMap<Vec<String>, String>,
    parent: &[String],
) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    for line in mods[parent].lines() {
        let l = line.trim_start();
        let l = ["pub ", "pub(crate) ", "pub(super) "]
            .iter()
            .find_map(|p| l.strip_prefix(p))
            .unwrap_or(l);
        let Some(r) = l.strip_prefix("use ") else {
            continue;
        };
        let Some((head, rest)) = r.split_once("::") else {
            continue;
        };
        let mut child = parent.to_vec();
        child.push(head.to_owned());
        let Some(child_code) = mods.get(&child) else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        let names: Vec<String> = if rest == "*" {
            item_names(child_code)
        } else {
            rest.trim_matches(|c| c == '{' || c == '}')
                .split(',')
                .filter_map(|n| n.split_whitespace().last())
                .map(|n| n.rsplit("::").next().unwrap_or(n).to_owned())
                .filter(|n| !n.is_empty())
                .collect()
        };
        out.push((child, names));
    }
    out
}

/// The `a::b::c` paths that follow each `marker` (`crate::`, `super::`) in `code`.
fn paths_after(code: &str, marker: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(marker) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + marker.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut path = Vec::new();
        let mut s = rest;
        loop {
            let n = s
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            if n == 0 {
                break;
            }
            path.push(s[..n].to_owned());
            match s[n..].strip_prefix("::") {
                Some(t) => s = t,
                None => break,
            }
        }
        out.push(path);
    }
    out
}

/// The longest module that is a prefix of `path`.
fn resolve(mods: &BTreeMap<Vec<String>, String>, path: &[String]) -> Vec<String> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| mods.contains_key(m))
        .unwrap_or_default()
}

#[test]
fn the_runtime_never_calls_into_private() {
    let mut mods = BTreeMap::new();
    modules(&src(), &[], &mut mods);
    for (m, code) in &mods {
        if m.first().is_some_and(|f| f == "__private") {
            continue;
        }
        let uses: Vec<_> = code.lines().filter(|l| l.contains("__private::")).collect();
        assert!(uses.is_empty(), "{m:?} calls into __private: {uses:?}");
    }
}

#[test]
fn no_two_modules_import_each_other() {
    let mut mods = BTreeMap::new();
    modules(&src(), &[], &mut mods);
    let mut edges = BTreeSet::new();
    for (m, code) in &mods {
        let parent = &m[..m.len().saturating_sub(1)];
        let mut targets = Vec::new();
        for p in paths_after(code, "crate::") {
            targets.push(resolve(&mods, &p));
        }
        for p in paths_after(code, "super::") {
            let mut full = parent.to_vec();
            full.extend(p);
            targets.push(resolve(&mods, &full));
        }
        // `use child::…` / `pub use child::…` of a declared child module
        for line in code.lines() {
            let l = line.trim_start();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            if let Some(r) = l.strip_prefix("use ") {
                let head: String = r
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let mut child = m.clone();
                child.push(head);
                if mods.contains_key(&child) {
                    targets.push(child);
                }
            }
        }
        // `use super::*`: the siblings whose items the parent imports, when named here
        if !m.is_empty() && code.contains("use super::*;") {
            for (sibling, names_seen) in via_parent(&mods, parent) {
                if names_seen.iter().any(|n| names(code, n)) {
                    targets.push(sibling);
                }
            }
        }
        for t in targets {
            if !t.is_empty() && &t != m {
                edges.insert((m.clone(), t));
            }
        }
    }
    let mutual: Vec<_> = edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .collect();
    assert!(
        mutual.is_empty(),
        "modules that import each other: {mutual:?}"
    );
    // nor in a longer circle: peel off the modules that import none of the rest, or that none
    // of the rest imports, until none is left
    let mut left: BTreeSet<&Vec<String>> = mods.keys().collect();
    loop {
        let peel: Vec<_> = left
            .iter()
            .copied()
            .filter(|m| {
                let out = edges.iter().any(|(a, b)| a == *m && left.contains(b));
                let inn = edges.iter().any(|(a, b)| b == *m && left.contains(a));
                !out || !inn
            })
            .collect();
        if peel.is_empty() {
            break;
        }
        for m in peel {
            left.remove(m);
        }
    }
    assert!(
        left.is_empty(),
        "modules that import each other in a circle: {left:?}"
    );
    // the cycles this replaced stay gone
    let one = |s: &str| s.split("::").map(str::to_owned).collect::<Vec<_>>();
    for (a, b) in [
        ("codec", "scan::builder"),
        ("codec::java", "codec::scalar"),
        ("codec", "salt"),
        ("codec::content", "codec::escape"),
        ("hotspot::analyzer", "hotspot::report"),
        ("hotspot::report", "hotspot::svg"),
    ] {
        assert!(
            !(edges.contains(&(one(a), one(b))) && edges.contains(&(one(b), one(a)))),
            "{a} <-> {b}"
        );
    }
    assert!(!edges.contains(&(one("codec"), one("scan::builder"))));
}

#[test]
fn the_derive_does_not_depend_on_the_runtime() {
    // (in the workspace; a packaged rowkey-core has no sibling to check)
    let Ok(toml) = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../rowkey-derive/Cargo.toml"),
    ) else {
        return;
    };
    let deps = toml
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    assert!(!deps.contains("rowkey-core"), "{deps}");
}
