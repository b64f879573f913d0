//! Validation: per-field attribute/type rules (attribute combinations in one conflict table)
//! and the cross-field checks. Every problem is reported (collected in `Ctxt`), each pointing at
//! its source.

use crate::ast::{Body, Field, Input, TyKind};
use crate::ctxt::Ctxt;
use crate::symbol::*;

/// Attributes that cannot be combined on one field: `(a, b, why)` reports `b` when `a` is there.
const CONFLICTS: &[(&str, &str, &str)] = &[
    (
        PAD,
        SEP,
        "#[pad] makes it fixed-width, #[sep] terminates it; use one",
    ),
    (REVERSE_TS, PAD, "#[reverse_ts] always writes 8 bytes"),
    (REVERSE_TS, SEP, "#[reverse_ts] always writes 8 bytes"),
    (REVERSE_TS, REVERSE, "#[reverse_ts] always writes 8 bytes"),
    (JAVA, PAD, "each selects the encoding"),
    (JAVA, SEP, "each selects the encoding"),
    (JAVA, REVERSE_TS, "each selects the encoding"),
    (JAVA, REVERSE, "each selects the encoding"),
    (REVERSE, SEP, "reversal needs a fixed width (#[pad(N)])"),
];

fn attr_form(name: &str) -> String {
    if name == JAVA {
        "#[rowkey(java)]".to_owned()
    } else {
        format!("#[{name}]")
    }
}

pub fn check(cx: &Ctxt, input: &Input) {
    match &input.body {
        Body::Struct { fields, .. } if input.attrs.bigtable.is_some() => {
            check_bigtable(cx, input, fields);
            check_scan_names(cx, fields);
            check_hotspot(cx, input, fields);
        }
        Body::Struct { fields, .. } if input.attrs.phoenix.is_some() => {
            check_phoenix(cx, input, fields);
            check_scan_names(cx, fields);
            check_hotspot(cx, input, fields);
            check_max_len(cx, input, fields);
        }
        Body::Struct { fields, .. } => {
            for f in fields {
                check_field(cx, input, f, fields.len());
            }
            check_salts(cx, input, fields);
            check_scan_names(cx, fields);
            check_hotspot(cx, input, fields);
            check_max_len(cx, input, fields);
        }
        Body::Enum { .. } => check_enum_container(
            cx,
            input,
            "an enum is a 1-code field (only #[rowkey(crate = \"...\")] applies)",
        ),
        Body::Tagged { variants } => {
            check_enum_container(
                cx,
                input,
                "a tagged key enum is its variants' keys behind their tags; put them on the variants' key types (only #[rowkey(crate = \"...\")] applies)",
            );
            check_tags(cx, variants);
        }
    }
}

fn check_enum_container(cx: &Ctxt, input: &Input, why: &str) {
    let a = &input.attrs;
    for (present, what) in [
        (a.salt.as_ref().map(|s| s.original), "salt"),
        (a.max_len.as_ref().map(|s| s.original), "max_len"),
        (
            a.allow_hotspot.as_ref().map(|s| s.original),
            "allow_hotspot",
        ),
        (a.java.as_ref().map(|s| s.original), "java"),
        (a.prefix.as_ref().map(|s| s.original), "prefix"),
        (a.phoenix.as_ref().map(|s| s.original), "phoenix"),
        (a.bigtable.as_ref().map(|s| s.original), "bigtable"),
    ] {
        if let Some(attr) = present {
            cx.error_spanned_by(
                attr,
                format!("#[rowkey({what})] applies to key structs; {why}"),
            );
        }
    }
}

/// Tags tell variants apart only if none is a prefix of another (equal ones included).
fn check_tags(cx: &Ctxt, variants: &[crate::ast::TaggedVariant]) {
    for (i, v) in variants.iter().enumerate() {
        for w in variants.iter().take(i) {
            if v.tag.starts_with(&w.tag) || w.tag.starts_with(&v.tag) {
                let how = if v.tag == w.tag {
                    "the same tag as"
                } else {
                    "a tag that is a prefix of (or starts with) the tag of"
                };
                cx.syn_error(syn::Error::new(
                    v.tag_span,
                    format!(
                        "variant `{}` has {how} `{}`: a key's tag must say which variant it is; give each variant a distinct tag, none a prefix of another",
                        v.ident, w.ident
                    ),
                ));
            }
        }
    }
}

fn ty_str(f: &Field) -> String {
    crate::ast::type_string(f.ty)
}

fn check_field(cx: &Ctxt, input: &Input, f: &Field, count: usize) {
    let a = &f.attrs;
    let name = &f.name;
    let ty = ty_str(f);
    if let Some(why) = f.kind.unsupported() {
        cx.error_spanned_by(
            f.ty,
            format!("field `{name}` has unsupported type `{ty}`: {why}"),
        );
        return;
    }
    let inner = f.kind.inner();
    let is_option = matches!(f.kind, TyKind::Option(_));

    // check 1: variable length, not last, not delimited
    if f.kind.is_var_len() && f.index + 1 != count && !a.delimited {
        cx.error_spanned_by(
            f.original,
            format!(
                "field `{name}` ({ty}) is variable-length but not the last field: without #[pad(N)] or #[sep] \
                 its end is unknown, so a prefix scan for `host1` also returns `host12` and keys cannot be decoded; \
                 add #[sep] (terminated, any length) or #[pad(N)] (fixed width), or move it last"
            ),
        );
    }

    // Inverted (desc) or reversed bytes never equal the content: a borrowed field could
    // encode but never decode.
    if is_borrowed(f.ty) {
        for (attr, what) in [
            (a.desc.as_ref().map(|x| x.original), "desc"),
            (a.reverse.as_ref().map(|x| x.original), "reverse"),
        ] {
            if let Some(attr) = attr {
                cx.error_spanned_by(
                    attr,
                    format!(
                        "#[{what}] on the borrowed field `{name}: {ty}`: its bytes are stored transformed, so decoding cannot borrow them from the key; use an owned type (String, Vec<u8>)"
                    ),
                );
            }
        }
    }

    for (x, y, why) in CONFLICTS {
        if let (Some(_), Some(attr)) = (a.get(x), a.get(y)) {
            cx.error_spanned_by(
                attr,
                format!(
                    "{} conflicts with {} on field `{name}`: {why}",
                    attr_form(y),
                    attr_form(x)
                ),
            );
        }
    }

    if let Some(p) = &a.pad {
        match inner {
            TyKind::Text | TyKind::Bytes | TyKind::Other => {}
            TyKind::Unsigned(_) => {
                if let Some((_, span)) = p.value.fill {
                    cx.syn_error(syn::Error::new(
                        span,
                        format!("`fill` is for strings and bytes; #[pad({})] on the unsigned integer `{name}` writes zero-padded decimal digits", p.value.len),
                    ));
                }
            }
            TyKind::Signed(_) => cx.error_spanned_by(
                p.original,
                format!("#[pad] on the signed integer `{name}`: zero-padded decimal cannot order negative numbers; drop #[pad] (binary, sign-flipped, ordered) or use an unsigned type"),
            ),
            _ => cx.error_spanned_by(
                p.original,
                format!("#[pad] applies to strings, bytes and unsigned integers, not to `{name}: {ty}`, which is already fixed-width"),
            ),
        }
    }

    if let Some(s) = &a.sep {
        if !matches!(inner, TyKind::Text | TyKind::Bytes | TyKind::Other) {
            cx.error_spanned_by(
                s.original,
                format!("#[sep] applies to variable-length strings and bytes; `{name}: {ty}` is fixed-width and needs no separator"),
            );
        }
    }

    if let Some(r) = &a.reverse_ts {
        if !matches!(
            inner,
            TyKind::Unsigned(_) | TyKind::Signed(_) | TyKind::Other
        ) {
            cx.error_spanned_by(
                r.original,
                format!("#[reverse_ts] stores i64::MAX - ts and needs an integer timestamp; `{name}` is `{ty}`"),
            );
        }
    }

    if let Some(r) = &a.reverse {
        let fixed = match inner {
            TyKind::Unsigned(_) | TyKind::Signed(_) | TyKind::ByteArray(_) | TyKind::Other => true,
            TyKind::Text | TyKind::Bytes => a.pad.is_some(),
            _ => false,
        };
        if is_option || !fixed {
            let why = if f.kind.is_var_len() {
                "it is variable-length: add #[pad(N)] so reversal happens within a fixed width"
            } else if is_option {
                "an Option is not fixed-width"
            } else {
                "#[reverse] applies to integers, [u8; N] and padded strings or bytes"
            };
            cx.error_spanned_by(
                r.original,
                format!("#[reverse] on field `{name}` ({ty}): {why}"),
            );
        }
    }

    if let Some(h) = &a.hash_prefix {
        if is_option
            || !matches!(
                inner,
                TyKind::Unsigned(_)
                    | TyKind::Signed(_)
                    | TyKind::Text
                    | TyKind::Bytes
                    | TyKind::ByteArray(_)
                    | TyKind::Char
                    | TyKind::Other
            )
        {
            cx.error_spanned_by(
                h.original,
                format!("#[hash_prefix] hashes the plain bytes of an integer, string or bytes value; `{name}` is `{ty}`"),
            );
        }
    }

    if let Some(j) = &a.java {
        if !matches!(
            inner,
            TyKind::Unsigned(_) | TyKind::Signed(_) | TyKind::Float(_) | TyKind::Bool
        ) {
            cx.error_spanned_by(
                j.original,
                format!("#[rowkey(java)] selects Java Bytes.toBytes encodings of integers, floats and booleans; `{name}` is `{ty}`"),
            );
        }
    }

    if let Some(s) = &a.salt {
        if let Some(m) = s.value.modulo {
            if f.index != 0 || !matches!(f.kind, TyKind::Unsigned(_)) {
                let what = if f.index != 0 {
                    format!("the salted prefix here is fields 0..={} (through `{name}`), not a single field", f.index)
                } else {
                    format!("`{name}` is `{ty}`")
                };
                cx.syn_error(syn::Error::new(
                    m,
                    format!("#[salt(buckets = N, modulo)] computes value % N of a single unsigned-integer salted prefix (time buckets); {what}. Use #[salt(buckets = N)] (hash) instead"),
                ));
            }
        }
    }
    let _ = input;
}

/// A Phoenix key (`#[rowkey(phoenix)]`): the column types decide the bytes, so of the field
/// attributes only `#[desc]` applies; the salt is Phoenix's (`SALT_BUCKETS`, the whole key,
/// at most 256 buckets); what Phoenix refuses in a primary key is refused here.
fn check_phoenix(cx: &Ctxt, input: &Input, fields: &[Field]) {
    let a = &input.attrs;
    let why = "a Phoenix key (#[rowkey(phoenix)]) is Phoenix's own encoding of its primary key";
    for (present, what) in [
        (a.java.as_ref().map(|s| s.original), "java"),
        (a.prefix.as_ref().map(|s| s.original), "prefix"),
    ] {
        if let Some(attr) = present {
            cx.error_spanned_by(
                attr,
                format!("#[rowkey({what})] does not apply: {why}, with nothing before it but the salt byte"),
            );
        }
    }
    if let Some(s) = &a.salt {
        if s.value.modulo.is_some() || !s.value.fields.is_empty() || s.value.buckets > 256 {
            cx.error_spanned_by(
                s.original,
                "a Phoenix key takes Phoenix's salt: #[rowkey(salt(buckets = N))] with N in 1..=256 (SALT_BUCKETS = N, one salt byte over the whole key)",
            );
        }
    }
    if !input.original.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.original.generics,
            "a Phoenix key cannot be generic: each field is a Phoenix column of one SQL type",
        );
    }
    let count = fields.len();
    for f in fields {
        let name = &f.name;
        let ty = ty_str(f);
        if let Some(why) = f.kind.unsupported() {
            cx.error_spanned_by(
                f.ty,
                format!("field `{name}` has unsupported type `{ty}`: {why}"),
            );
            continue;
        }
        let fa = &f.attrs;
        for (attr, what) in [
            (fa.pad.as_ref().map(|x| x.original), "#[pad]"),
            (fa.sep.as_ref().map(|x| x.original), "#[sep]"),
            (fa.reverse_ts.as_ref().map(|x| x.original), "#[reverse_ts]"),
            (fa.salt.as_ref().map(|x| x.original), "#[salt]"),
            (
                fa.hash_prefix.as_ref().map(|x| x.original),
                "#[hash_prefix]",
            ),
            (fa.reverse.as_ref().map(|x| x.original), "#[reverse]"),
            (fa.java.as_ref().map(|x| x.original), "#[rowkey(java)]"),
        ] {
            if let Some(attr) = attr {
                cx.error_spanned_by(
                    attr,
                    format!("{what} on field `{name}` does not apply: {why}; of the field attributes only #[desc] (a DESC column) does"),
                );
            }
        }
        let inner = f.kind.inner();
        let last = f.index + 1 == count;
        if matches!(
            inner,
            TyKind::Char | TyKind::Unsigned(16) | TyKind::Signed(16)
        ) {
            cx.error_spanned_by(
                f.ty,
                format!("field `{name}: {ty}` has no Phoenix column type: use an integer up to 64 bits, a float, bool, String (VARCHAR), Char<N>, [u8; N], Vec<u8> (VARBINARY), a date/time type or BigDecimal"),
            );
        }
        if let TyKind::Option(_) = f.kind {
            if inner.natural_width().is_some() {
                cx.error_spanned_by(
                    f.ty,
                    format!("field `{name}: {ty}`: Phoenix refuses nullable fixed-width primary-key columns (\"PK columns may not be both fixed width and nullable\"); only VARCHAR, DECIMAL and VARBINARY columns can be Option"),
                );
            }
        }
        if matches!(inner, TyKind::Bytes) {
            if !last {
                cx.error_spanned_by(
                    f.ty,
                    format!("field `{name}: {ty}` is a VARBINARY column, which Phoenix allows only as the last primary-key column; move it last, or use [u8; N] (BINARY(N))"),
                );
            }
            if let Some(d) = &fa.desc {
                cx.error_spanned_by(
                    d.original,
                    format!("#[desc] on the VARBINARY column `{name}`: Phoenix does not support descending VARBINARY columns"),
                );
            }
        }
        if fa.desc.is_some() && is_borrowed(f.ty) {
            cx.error_spanned_by(
                f.ty,
                format!("#[desc] on the borrowed field `{name}: {ty}`: its bytes are stored inverted, so decoding cannot borrow them from the key; use an owned type (String, Vec<u8>)"),
            );
        }
    }
}

/// A Bigtable struct key (`#[rowkey(bigtable(..))]`): the schema decides the bytes, so no
/// field attribute applies; nothing may come before the fields (GoogleSQL decodes the whole
/// key as the schema's fields); the field types are the four a row key schema holds.
fn check_bigtable(cx: &Ctxt, input: &Input, fields: &[Field]) {
    let a = &input.attrs;
    let why = "a Bigtable struct key (#[rowkey(bigtable(..))]) is the row key schema's own encoding, which GoogleSQL, materialized views and secondary indexes decode as the schema's fields";
    for (present, what, more) in [
        (a.java.as_ref().map(|s| s.original), "java", ""),
        (a.prefix.as_ref().map(|s| s.original), "prefix", ": a constant prefix would be read as part of the first field"),
        (a.salt.as_ref().map(|s| s.original), "salt", ": a salt byte would be read as part of the first field (spread writes with a leading field of your own, e.g. a bucket String or Int64)"),
        (a.phoenix.as_ref().map(|s| s.original), "phoenix", ": a key is either a Phoenix key or a Bigtable struct key"),
    ] {
        if let Some(attr) = present {
            cx.error_spanned_by(
                attr,
                format!("#[rowkey({what})] does not apply: {why}{more}"),
            );
        }
    }
    if !input.original.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.original.generics,
            "a Bigtable struct key cannot be generic: each field is a schema field of one type (use owned String and Vec<u8> fields)",
        );
    }
    let Some(bt) = &a.bigtable else { return };
    if fields.is_empty() {
        cx.error_spanned_by(
            bt.original,
            "a Bigtable struct key needs at least one field",
        );
    }
    if matches!(bt.value.join, crate::attr::BigtableJoin::Singleton) && fields.len() != 1 {
        cx.error_spanned_by(
            bt.original,
            format!("bigtable(singleton) is a key of exactly one field, not {}: use bigtable(ordered_code) or bigtable(delimited = b\"#\") for several", fields.len()),
        );
    }
    for f in fields {
        let name = &f.name;
        let ty = ty_str(f);
        let fa = &f.attrs;
        for (attr, what, more) in [
            (fa.pad.as_ref().map(|x| x.original), "#[pad]", ""),
            (fa.sep.as_ref().map(|x| x.original), "#[sep]", ""),
            (
                fa.reverse_ts.as_ref().map(|x| x.original),
                "#[reverse_ts]",
                "",
            ),
            (
                fa.desc.as_ref().map(|x| x.original),
                "#[desc]",
                " (the row key schema has no descending fields)",
            ),
            (
                fa.salt.as_ref().map(|x| x.original),
                "#[salt]",
                " (a salt byte would be read as part of the first field)",
            ),
            (
                fa.hash_prefix.as_ref().map(|x| x.original),
                "#[hash_prefix]",
                " (hash characters would be read as part of the field)",
            ),
            (fa.reverse.as_ref().map(|x| x.original), "#[reverse]", ""),
            (fa.java.as_ref().map(|x| x.original), "#[rowkey(java)]", ""),
        ] {
            if let Some(attr) = attr {
                cx.error_spanned_by(
                    attr,
                    format!("{what} on field `{name}` does not apply: {why}; no field attribute does{more}"),
                );
            }
        }
        if crate::symbol::STRUCT_RESERVED.contains(&name.as_str()) {
            cx.error_spanned_by(
                &f.original.ident,
                format!("field `{name}`: `_key` and `_timestamp` are reserved names in a row key schema (the admin API refuses them); rename the field"),
            );
        }
        let ok = match &f.kind {
            TyKind::Signed(8) | TyKind::Text | TyKind::Bytes => true,
            TyKind::Other => crate::prop::last_segment_is(f.ty, "Micros"),
            _ => false,
        };
        if !ok {
            cx.error_spanned_by(
                f.ty,
                format!("field `{name}: {ty}` has no Bigtable row key schema type: use i64 (Int64), String (String), Vec<u8> (Bytes) or rowkey::struct_key::Micros (Timestamp)"),
            );
        }
    }
}

/// The scan builder's method names (`.f(v)`, `.f_range(r)`, `.f_starts_with(p)`, `.f_in(vs)`,
/// `.f_any()`, `.ranges()`) must be unambiguous: with fields `id` and `id_range`, `.id_range(..)` would be a range on
/// `id` at one stage and equality on `id_range` at the next.
fn check_scan_names(cx: &Ctxt, fields: &[Field]) {
    let mut taken: Vec<(String, &Field, &str)> = Vec::new();
    for f in fields {
        let eq = crate::ast::unraw(&crate::prop::method_ident(f, ""));
        if eq == "ranges" {
            cx.error_spanned_by(
                &f.original.ident,
                "a field named `ranges` collides with the scan builder's `.ranges()`, which returns the byte ranges to scan; rename the field",
            );
        }
        for (suffix, what) in [
            ("", "equality on"),
            ("_range", "the range scan on"),
            ("_starts_with", "the starts-with scan on"),
            ("_in", "the IN-list on"),
            ("_any", "every value of"),
        ] {
            let name = crate::ast::unraw(&crate::prop::method_ident(f, suffix));
            if let Some((_, g, g_what)) = taken.iter().find(|(n, _, _)| *n == name) {
                cx.error_spanned_by(
                    &f.original.ident,
                    format!(
                        "fields `{}` and `{}` collide in the scan builder: `.{name}(..)` would be both {g_what} `{}` and {what} `{}`, so a scan could mean either; rename one of the two fields",
                        g.name, f.name, g.name, f.name
                    ),
                );
            } else {
                taken.push((name, f, what));
            }
        }
    }
}

fn check_salts(cx: &Ctxt, input: &Input, fields: &[Field]) {
    let mut first: Option<String> = input
        .attrs
        .salt
        .as_ref()
        .map(|_| "#[rowkey(salt(...))]".to_owned());
    if let Some(s) = &input.attrs.salt {
        check_salt_fields(cx, &s.value.fields, fields);
        if let Some(m) = s.value.modulo {
            if fields.len() != 1 || !matches!(fields[0].kind, TyKind::Unsigned(_)) {
                cx.syn_error(syn::Error::new(
                    m,
                    "#[rowkey(salt(buckets = N, modulo))] salts the whole key with value % N, which needs a key of a single unsigned-integer field; use #[salt(buckets = N, modulo)] on a leading unsigned field, or a hash salt",
                ));
            }
        }
    }
    for f in fields {
        if let Some(s) = &f.attrs.salt {
            match &first {
                Some(prev) => cx.error_spanned_by(
                    s.original,
                    format!("only one salt per key: a key starts with a single salt, and {prev} already sets it"),
                ),
                None => first = Some(format!("#[salt] on field `{}`", f.name)),
            }
        }
    }
}

/// `salt(buckets = N, fields(a, b))`: every name a field of the key, each once.
fn check_salt_fields(cx: &Ctxt, names: &[syn::Ident], fields: &[Field]) {
    let mut seen: Vec<&syn::Ident> = Vec::new();
    for id in names {
        if seen.contains(&id) {
            cx.error_spanned_by(
                id,
                format!(
                    "`{id}` is named twice in the salt's fields(..): each field is hashed once"
                ),
            );
            continue;
        }
        seen.push(id);
        if !fields
            .iter()
            .any(|f| f.member == syn::Member::Named(id.clone()))
        {
            let known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            cx.error_spanned_by(
                id,
                format!(
                    "the salt's fields(..) names `{id}`, which is not a field of this key (fields: {})",
                    known.join(", ")
                ),
            );
        }
    }
}

/// Whether a field name says "time" or "sequence": a whole `_`-separated word such as `ts`,
/// `time`, `date`, `epoch`, `seq` (`ts_hour`, `epoch_seconds`, `event_date`, `seq_no`), or a
/// time-unit or `_at` suffix (`created_at`, `sent_ms`, `ingest_nanos`).
fn looks_like_time(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "ts",
        "time",
        "timestamp",
        "datetime",
        "date",
        "epoch",
        "seq",
        "sequence",
        "created",
        "updated",
        "modified",
        "inserted",
    ];
    const SUFFIXES: &[&str] = &[
        "_at", "_ms", "_us", "_ns", "_secs", "_seconds", "_millis", "_micros", "_nanos",
    ];
    let n = name.trim_start_matches("r#").to_ascii_lowercase();
    n.split('_').any(|w| WORDS.contains(&w)) || SUFFIXES.iter().any(|s| n.ends_with(s))
}

fn check_hotspot(cx: &Ctxt, input: &Input, fields: &[Field]) {
    if input.attrs.allow_hotspot.is_some() || input.attrs.salt.is_some() {
        return;
    }
    if fields.iter().any(|f| f.attrs.salt.is_some()) {
        return;
    }
    let Some(f0) = fields.first() else { return };
    if f0.attrs.hash_prefix.is_some() {
        return;
    }
    // Numbers, and text or bytes (an ISO date, a zero-padded counter): each grows with time
    // when the name says so.
    let ordered = matches!(
        f0.kind.inner(),
        TyKind::Unsigned(_)
            | TyKind::Signed(_)
            | TyKind::Float(_)
            | TyKind::Text
            | TyKind::Bytes
            | TyKind::ByteArray(_)
    );
    let why = if f0.attrs.reverse_ts.is_some() {
        "a #[reverse_ts] timestamp"
    } else if ordered && f0.attrs.reverse.is_none() && looks_like_time(&f0.name) {
        "a time or sequence value"
    } else {
        return;
    };
    cx.error_spanned_by(
        f0.original,
        format!(
            "key `{}` leads with {why} (`{}`): monotonically increasing keys write to one region at a time (hotspotting). \
             Put a salt or hash before it (#[salt(buckets = N)] or #[hash_prefix(N)] on a leading field, or #[rowkey(salt(buckets = N))]), \
             lead with another field such as a host or user id, or add #[rowkey(allow_hotspot)] if the write rate is low",
            input.name(),
            f0.name
        ),
    );
}

fn salt_width(input: &Input, fields: &[Field]) -> usize {
    let buckets = input
        .attrs
        .salt
        .as_ref()
        .map(|s| s.value.buckets)
        .or_else(|| {
            fields
                .iter()
                .find_map(|f| f.attrs.salt.as_ref().map(|s| s.value.buckets))
        });
    buckets.map_or(0, salt_bytes)
}

/// Salt width in bytes for a bucket count (`1..=65536`, checked in `attr.rs`): one byte up to
/// 256 buckets, two above. The rule of `rowkey::salt::width`, which the generated layout uses;
/// restated here so that the derive does not depend on the runtime crate. Both are pinned to
/// agree by `rowkey-core/tests/salt_width.rs` (a key exactly at its `max_len` compiles) and
/// `rowkey-ui/tests/ui/fail/max_len/salted_too_long.rs` (the width this check computes, in its message).
const fn salt_bytes(buckets: u64) -> usize {
    if buckets <= 256 {
        1
    } else {
        2
    }
}

fn check_max_len(cx: &Ctxt, input: &Input, fields: &[Field]) {
    let Some(m) = &input.attrs.max_len else {
        return;
    };
    let (max, span) = m.value;
    let prefix = input.attrs.prefix.as_ref().map_or(0, |a| a.value.len());
    let mut total = prefix + salt_width(input, fields);
    for f in fields {
        match crate::prop::syntactic_width(f) {
            Some(w) => total += w,
            None => return,
        }
    }
    if total > max {
        cx.syn_error(syn::Error::new(
            span,
            format!(
                "key `{}` is fixed-width and {total} bytes long, over #[rowkey(max_len = {max})]: \
                 every byte of a row key is stored again in every cell of the row; shorten fields (codes instead of names, binary instead of decimal) or raise max_len",
                input.name()
            ),
        ));
    }
}

/// `&str`, `&[u8]`, or an `Option` of one.
fn is_borrowed(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(_) => true,
        syn::Type::Group(g) => is_borrowed(&g.elem),
        syn::Type::Paren(p) => is_borrowed(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|seg| {
            seg.ident == "Option"
                && matches!(&seg.arguments, syn::PathArguments::AngleBracketed(a)
                    if a.args.iter().any(|g| matches!(g, syn::GenericArgument::Type(t) if is_borrowed(t))))
        }),
        _ => false,
    }
}
