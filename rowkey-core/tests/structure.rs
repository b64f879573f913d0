//! The runtime's structure, pinned (ARCHITECTURE.md):
//!
//! - nothing in the runtime calls into `__private`: it is only what generated code calls;
//! - no two modules import each other, a parent and its child included (the parent declares
//!   its children and re-exports their items; a child imports its siblings, never the parent),
//!   and no longer circle of imports either: the module graph is acyclic;
//! - no codec (the runtime's, a key mode's codec or format file) imports the scan builder;
//! - the crate root and every `mod.rs` declare modules and re-export items, nothing else;
//! - the derive does not depend on the runtime.
//!
//! The sources are read as text, whole: a module is a file (unit-test files and inline
//! `#[cfg(test)]` modules aside), and an import is a `crate::…` or `super::…` path outside
//! comments, a parent's `use child::…`, or a name a child sees through the parent's glob. A
//! path that reaches an item through a re-export (`crate::RowKey`, `super::Col`) imports the
//! module that defines it.

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
        } else if p.extension().is_some_and(|e| e == "rs") && name != "tests" {
            // (`tests.rs`: a module's unit tests, declared `#[cfg(test)] mod tests;`)
            let mut m = prefix.to_vec();
            if name != "mod" && name != "lib" {
                m.push(name);
            }
            out.insert(m, code_of(&std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The source without comment lines and without its inline unit-test modules
/// (`#[cfg(test)] mod x { … }`); everything else, however far down the file, is read.
fn code_of(s: &str) -> String {
    let code = s
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    without_test_blocks(&without_strings(&code))
}

/// `code` without its `#[cfg(test)]` inline modules (a `mod tests;` declaration stays: the
/// file it names is skipped).
fn without_test_blocks(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "#[cfg(test)]".len()..];
        let decl = after.trim_start();
        let line_end = decl.find('\n').unwrap_or(decl.len());
        let first_line = &decl[..line_end];
        if first_line.starts_with("mod ") && first_line.contains('{') {
            // skip to the matching closing brace
            let open = decl.find('{').unwrap();
            let mut depth = 0usize;
            let mut end = decl.len();
            for (k, c) in decl[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = open + k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &decl[end..];
        } else {
            out.push_str("#[cfg(test)]");
            rest = after;
        }
    }
    out.push_str(rest);
    out
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

/// Re-exports: (module, name it re-exports) → the full path it names (module path + item).
type Reexports = BTreeMap<(Vec<String>, String), Vec<String>>;

/// Every `pub use` / `pub(crate) use` of every module, as [`Reexports`].
fn reexports(mods: &BTreeMap<Vec<String>, String>) -> Reexports {
    let mut out = Reexports::new();
    for (m, code) in mods {
        let mut rest = code.as_str();
        while let Some(i) = rest.find("use ") {
            let before = rest[..i].trim_end();
            let stmt_start = i + 4;
            let end = rest[stmt_start..]
                .find(';')
                .map_or(rest.len(), |e| stmt_start + e);
            let stmt: String = rest[stmt_start..end].split_whitespace().collect();
            let public = before.ends_with("pub") || before.ends_with("pub(crate)");
            let at_start = before.is_empty()
                || before.ends_with(['\n', ';', '}', ']'])
                || before.ends_with("pub")
                || before.ends_with("pub(crate)");
            rest = &rest[end.min(rest.len())..];
            if !public || !at_start {
                continue;
            }
            let mut leaves = Vec::new();
            flatten(&stmt, &mut Vec::new(), &mut leaves);
            for (path, alias) in leaves {
                let Some(abs) = absolute(mods, m, &path) else {
                    continue;
                };
                if alias == "*" {
                    if let Some(code) = mods.get(&abs) {
                        for n in item_names(code) {
                            let mut full = abs.clone();
                            full.push(n.clone());
                            out.insert((m.clone(), n), full);
                        }
                    }
                } else {
                    out.insert((m.clone(), alias), abs);
                }
            }
        }
    }
    out
}

/// The leaves of a `use` tree written without spaces (`a::{b,c::{d,e as f}}`): each path and
/// the name it is bound to (`*` for a glob).
fn flatten(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
            .collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        // split at top-level commas
        let (mut depth, mut start) = (0usize, 0usize);
        let mut parts = Vec::new();
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        let n = prefix.len();
        prefix.extend(head);
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            flatten(part, prefix, out);
        }
        prefix.truncate(n);
        return;
    }
    let (path, alias) = match tree.split_once("as") {
        Some((p, a)) if !p.is_empty() && !p.ends_with(':') => (p, Some(a)),
        _ => (tree, None),
    };
    let mut full = prefix.clone();
    full.extend(
        path.split("::")
            .filter(|p| !p.is_empty())
            .map(str::to_owned),
    );
    let Some(last) = full.last().cloned() else {
        return;
    };
    if last == "self" {
        full.pop();
    }
    let name = alias.map_or_else(|| full.last().cloned().unwrap_or_default(), str::to_owned);
    if last == "*" {
        full.pop();
        out.push((full, "*".to_owned()));
    } else {
        out.push((full, name));
    }
}

/// A `use` path as written in module `m`, made absolute (`crate::`, `super::`, `self::` or a
/// child of `m`); `None` for another crate's path.
fn absolute(
    mods: &BTreeMap<Vec<String>, String>,
    m: &[String],
    path: &[String],
) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut abs = match first.as_str() {
        "crate" => Vec::new(),
        "self" => m.to_vec(),
        "super" => m[..m.len().saturating_sub(1)].to_vec(),
        _ => {
            let mut child = m.to_vec();
            child.push(first.clone());
            if !mods.contains_key(&child) {
                return None;
            }
            child
        }
    };
    let mut rest = rest;
    while let Some(("super", r)) = rest.split_first().map(|(a, r)| (a.as_str(), r)) {
        abs.pop();
        rest = r;
    }
    abs.extend(rest.iter().cloned());
    Some(abs)
}

/// The module `path` imports: the longest module that is a prefix of it, or, when the name
/// after that module is a re-export, the module that defines what it re-exports.
fn resolve(mods: &BTreeMap<Vec<String>, String>, rex: &Reexports, path: &[String]) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let m = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| mods.contains_key(m))
            .unwrap_or_default();
        let Some(name) = path.get(m.len()) else {
            return m;
        };
        match rex.get(&(m.clone(), name.clone())) {
            Some(target) if *target != path[..=m.len()] => {
                let mut next = target.clone();
                next.extend(path[m.len() + 1..].iter().cloned());
                path = next;
            }
            _ => return m,
        }
    }
    Vec::new()
}

/// The module graph: (importer, imported) for every import of one module by another.
fn graph(mods: &BTreeMap<Vec<String>, String>) -> BTreeSet<(Vec<String>, Vec<String>)> {
    let rex = reexports(mods);
    let mut edges = BTreeSet::new();
    for (m, code) in mods {
        let parent = &m[..m.len().saturating_sub(1)];
        let mut targets = Vec::new();
        for p in paths_after(code, "crate::") {
            targets.push(resolve(mods, &rex, &p));
        }
        for p in paths_after(code, "super::") {
            let mut full = parent.to_vec();
            full.extend(p);
            targets.push(resolve(mods, &rex, &full));
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
            for (sibling, names_seen) in via_parent(mods, parent) {
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
    edges
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
    // the whole of every file is read: the biggest module files are there in full
    for (m, min_lines) in [
        (&["phoenix", "codec"][..], 300),
        (&["struct_key", "schema"][..], 500),
    ] {
        let key: Vec<String> = m.iter().map(|s| (*s).to_owned()).collect();
        let lines = mods.get(&key).map_or(0, |c| c.lines().count());
        assert!(lines >= min_lines, "{m:?}: {lines} lines read");
    }
    let edges = graph(&mods);
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
fn no_codec_imports_the_scan_builder() {
    let mut mods = BTreeMap::new();
    modules(&src(), &[], &mut mods);
    let codecs: Vec<&Vec<String>> = mods
        .keys()
        .filter(|m| {
            m.first().is_some_and(|f| f == "codec")
                || m.last().is_some_and(|l| l == "codec" || l == "format")
        })
        .collect();
    assert!(codecs.len() >= 12, "{codecs:?}");
    let edges = graph(&mods);
    let bad: Vec<_> = edges
        .iter()
        .filter(|(a, b)| codecs.contains(&a) && b.first().is_some_and(|f| f == "scan"))
        .collect();
    assert!(
        bad.is_empty(),
        "codecs that import the scan builder: {bad:?}"
    );
}

/// `#[desc]` is one codec, `Desc<C>`: the derive writes no inversion of its own (it names
/// `Desc`), and the scan builder and its forms take no order (they write a key's own fields
/// ascending and ask a field's codec, `Codec::inverted`, which way its bytes run).
#[test]
fn desc_is_decided_by_its_codec_alone() {
    let mut mods = BTreeMap::new();
    modules(&src(), &[], &mut mods);
    let scan: Vec<_> = mods
        .iter()
        .filter(|(m, _)| {
            m.first().is_some_and(|f| f == "scan")
                || *m == &["__private", "forms"].map(String::from)
        })
        .collect();
    assert!(
        scan.len() >= 4,
        "{:?}",
        scan.iter().map(|(m, _)| m).collect::<Vec<_>>()
    );
    for (m, code) in scan {
        assert!(
            !names(code, "mask"),
            "{m:?} passes a field's order (a mask)"
        );
        assert!(
            !code.contains("0xFF ^") && !code.contains("^ 0xFF"),
            "{m:?} inverts"
        );
    }
    let derive = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rowkey-derive/src");
    let mut files = BTreeMap::new();
    modules(&derive, &[], &mut files);
    assert!(files.len() >= 10);
    for (m, code) in &files {
        assert!(
            !code.contains("^ 0xFF") && !code.contains("^0xFF"),
            "the derive inverts a field's order itself in {m:?}: name `Desc` instead"
        );
    }
    assert!(files.values().any(|c| c.contains("codec::Desc<")));
}

/// What a line defines, if it is an item definition (not a module, a `use` or an attribute).
fn defines(line: &str) -> Option<&str> {
    let mut l = line.trim_start();
    for vis in ["pub(crate) ", "pub(super) ", "pub "] {
        if let Some(r) = l.strip_prefix(vis) {
            l = r;
        }
    }
    for q in ["unsafe ", "async ", "const fn ", "extern "] {
        if let Some(r) = l.strip_prefix(q) {
            l = if q == "const fn " { "fn " } else { r };
        }
    }
    [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "impl ",
        "impl<",
        "const ",
        "static ",
        "type ",
        "union ",
        "macro_rules!",
    ]
    .into_iter()
    .find(|kw| l.starts_with(kw))
}

#[test]
fn the_root_and_mod_files_only_declare_and_re_export() {
    let mut mods = BTreeMap::new();
    modules(&src(), &[], &mut mods);
    let mut bad = Vec::new();
    for (m, code) in &mods {
        let file = if m.is_empty() {
            src().join("lib.rs")
        } else {
            src().join(m.join("/")).join("mod.rs")
        };
        if !file.exists() {
            continue;
        }
        for line in code.lines() {
            // only top-level lines: a definition starts at the first column
            if line.starts_with(char::is_whitespace) {
                continue;
            }
            if let Some(kw) = defines(line) {
                bad.push(format!("{}: {kw}… ({line})", file.display()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "definitions outside a leaf file:\n{}",
        bad.join("\n")
    );
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
