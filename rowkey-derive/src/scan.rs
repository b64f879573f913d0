//! Typed scan builders (`T::scan()`).

use proc_macro2::TokenStream;

use crate::ast::{Field, Input};

pub fn expand(
    _p: &Input,
    _krate: &TokenStream,
    _fields: &[Field],
    _codecs: &[TokenStream],
    _salt: Option<(u32, usize, usize, bool)>,
) -> TokenStream {
    TokenStream::new()
}

pub fn expand_enum(_p: &Input, _krate: &TokenStream) -> TokenStream {
    TokenStream::new()
}
