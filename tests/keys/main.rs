//! The key format: what `#[derive(RowKey)]` writes and reads, byte for byte, in every key mode.
//!
//! - [`golden`]: the frozen byte format (`tests/golden/`, never changed);
//! - [`encoding`], [`type_order_props`], [`roundtrip_props`]: every field type and attribute,
//!   order preservation and round trips over adversarial values;
//! - [`errors`]: every encode and decode error, with its key type, field and byte offset;
//! - [`salt_fields`], [`keyspace`], [`hygiene`], [`smoke`]: salt over chosen fields, tagged
//!   keyspaces, the derive under `#![no_implicit_prelude]`, the README's first example;
//! - [`phoenix_keys`], [`bigtable_struct_keys`]: the Phoenix and Bigtable struct-key modes against
//!   their references and brute force.

// the bound shapes and their macros, for every module below
#[macro_use]
#[path = "../common/shapes.rs"]
mod shapes;

#[path = "../common/mod.rs"]
mod common;

mod bigtable_struct_keys;
mod encoding;
mod errors;
mod golden;
mod hygiene;
mod keyspace;
#[cfg(all(
    feature = "phoenix-decimal",
    feature = "phoenix-time",
    feature = "tool"
))]
mod phoenix_keys;
mod roundtrip_props;
mod salt_fields;
mod smoke;
mod type_order_props;
