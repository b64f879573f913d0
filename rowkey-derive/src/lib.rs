//! `#[derive(RowKey)]`.
use proc_macro::TokenStream;

/// Derive `rowkey::RowKey`.
#[proc_macro_derive(RowKey, attributes(rowkey, pad, sep, reverse_ts, desc, salt, hash_prefix, reverse))]
pub fn derive_row_key(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
