//! Attribute names (serde's `symbol.rs`).
pub const PAD: &str = "pad";
pub const SEP: &str = "sep";
pub const REVERSE_TS: &str = "reverse_ts";
pub const DESC: &str = "desc";
pub const SALT: &str = "salt";
pub const HASH_PREFIX: &str = "hash_prefix";
pub const REVERSE: &str = "reverse";
pub const ROWKEY: &str = "rowkey";

pub const FIELD_ATTRS: &str =
    "#[pad(N)], #[pad(N, fill = b' ')], #[sep], #[sep(b'|')], #[reverse_ts], #[desc], #[salt(buckets = N)], #[salt(buckets = N, modulo)], #[hash_prefix(N)], #[hash_prefix(N, raw)], #[reverse], #[rowkey(java)]";
pub const CONTAINER_ARGS: &str =
    "salt(buckets = N), max_len = N, allow_hotspot, java, crate = \"path\"";
