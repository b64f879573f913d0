//! `#[derive(RowKey)]` for the [`rowkey`](https://docs.rs/rowkey) crate. Use it through the
//! `rowkey` facade (`use rowkey::RowKey;`); the generated code calls `rowkey`'s runtime.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod ast;
mod attr;
mod codegen;
mod ctxt;
mod expand;
mod fallback;
#[cfg(test)]
mod output_tests;
mod prop;
mod symbol;
mod valid;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derive `rowkey::RowKey` (and, for structs, the typed `T::scan()` builder). The field and
/// container attributes and the compile-time checks: [the guide's chapter "Designing a
/// key"](https://docs.rs/rowkey/latest/rowkey/guide/keys/index.html).
#[proc_macro_derive(
    RowKey,
    attributes(rowkey, pad, sep, reverse_ts, desc, salt, hash_prefix, reverse)
)]
pub fn derive_row_key(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
