//! The one table of attribute names and forms (serde's `symbol.rs`): parsing matches on the
//! names, and every "valid attributes are …" message is built from the forms.

pub const PAD: &str = "pad";
pub const SEP: &str = "sep";
pub const REVERSE_TS: &str = "reverse_ts";
pub const DESC: &str = "desc";
pub const SALT: &str = "salt";
pub const HASH_PREFIX: &str = "hash_prefix";
pub const REVERSE: &str = "reverse";
pub const ROWKEY: &str = "rowkey";
/// `#[rowkey(java)]`, the one `rowkey(..)` argument a field takes.
pub const JAVA: &str = "java";

/// Field attributes (in `#[derive(RowKey, attributes(..))]` too) and their forms.
pub const FIELD: &[(&str, &[&str])] = &[
    (PAD, &["#[pad(N)]", "#[pad(N, fill = b' ')]"]),
    (SEP, &["#[sep]", "#[sep(b'|')]"]),
    (REVERSE_TS, &["#[reverse_ts]"]),
    (DESC, &["#[desc]"]),
    (
        SALT,
        &["#[salt(buckets = N)]", "#[salt(buckets = N, modulo)]"],
    ),
    (
        HASH_PREFIX,
        &["#[hash_prefix(N)]", "#[hash_prefix(N, raw)]"],
    ),
    (REVERSE, &["#[reverse]"]),
    (JAVA, &["#[rowkey(java)]"]),
];

/// `#[rowkey(..)]` arguments on the type, and their forms.
pub const CONTAINER: &[(&str, &[&str])] = &[
    (
        SALT,
        &[
            "salt(buckets = N)",
            "salt(buckets = N, modulo)",
            "salt(buckets = N, fields(a, b))",
        ],
    ),
    ("prefix", &["prefix = b\"..\""]),
    ("max_len", &["max_len = N"]),
    ("allow_hotspot", &["allow_hotspot"]),
    (JAVA, &["java"]),
    ("crate", &["crate = \"path\""]),
    (
        "phoenix",
        &["phoenix", "phoenix(row_key_order_optimizable = false)"],
    ),
    (
        "bigtable",
        &[
            "bigtable(ordered_code)",
            "bigtable(delimited = b\"#\")",
            "bigtable(singleton)",
            "bigtable(.., big_endian)",
        ],
    ),
];

/// Field names a Bigtable row key schema reserves.
pub const STRUCT_RESERVED: &[&str] = &["_key", "_timestamp"];

/// Whether `name` is a field attribute written as `#[name..]` (not `#[rowkey(java)]`).
pub fn is_field_attr(name: &str) -> bool {
    FIELD.iter().any(|(n, _)| *n == name && *n != JAVA)
}

fn forms(table: &[(&str, &[&str])]) -> String {
    table
        .iter()
        .flat_map(|(_, f)| f.iter().copied())
        .collect::<Vec<_>>()
        .join(", ")
}

/// "#[pad(N)], #[pad(N, fill = b' ')], …"
pub fn field_forms() -> String {
    forms(FIELD)
}

/// "salt(buckets = N), …"
pub fn container_forms() -> String {
    forms(CONTAINER)
}
