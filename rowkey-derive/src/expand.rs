//! The derive's pipeline: parse (`ast`, `attr`) → validate (`valid`) → decide (`prop`) →
//! generate (`codegen`), with all errors of an input reported together and a stub impl on
//! error (`fallback`).

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::DeriveInput;

use crate::ast::{Body, Input};
use crate::ctxt::Ctxt;
use crate::prop::KeyProp;
use crate::{codegen, valid};

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let parsed = Input::from_syn(&cx, input);
    if let Some(p) = &parsed {
        valid::check(&cx, p);
    }
    // `crate = "..."` as parsed with the rest (a stub impl needs it too)
    let krate = parsed
        .as_ref()
        .and_then(|p| p.attrs.krate.as_ref())
        .map_or_else(|| quote!(::rowkey), |k| k.value.to_token_stream());
    if let Err(err) = cx.check() {
        return crate::fallback::expand(input, &krate, err);
    }
    let Some(p) = parsed else {
        let err = syn::Error::new_spanned(&input.ident, "invalid RowKey input");
        return crate::fallback::expand(input, &krate, err);
    };
    let body = match &p.body {
        Body::Struct { fields, tuple } => {
            let key = KeyProp::of(&p, fields, &krate);
            let bounds = codegen::generic_bounds(&p, &key);
            let impls = codegen::key::expand(&p, &key, &krate, *tuple);
            let scan = codegen::scan::expand(&p, &key, &krate, &bounds.enc);
            let text = codegen::text::expand_struct(&p, &krate, &key, *tuple, &bounds.all);
            let text = gate_text(text);
            quote!(#impls #scan #text)
        }
        Body::Enum { variants, repr } => {
            let text = codegen::text::expand_enum(&p, &krate, variants);
            let text = gate_text(text);
            let impls = codegen::enums::expand(&p, &krate, variants, repr.as_ref());
            quote!(#impls #text)
        }
        Body::Tagged { variants } => {
            let impls = codegen::tagged::expand(&p, &krate, variants);
            // its text form: `variant=…`, then the variant key's fields
            let text = codegen::text::expand_tagged(&p, &krate, variants);
            let text = gate_text(text);
            quote!(#impls #text)
        }
    };
    quote! {
        #[automatically_derived]
        #[allow(
            non_upper_case_globals,
            non_snake_case,
            non_camel_case_types,
            unused_qualifications,
            unused_variables,
            unused_mut,
            dead_code,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
        const _: () = {
            // the runtime's `__private`, under one short name for every generated path
            use #krate::__private as __rk;
            #body
        };
    }
}

/// The key tool's text impls, kept by `__private::text_impls!` only when rowkey-core has its
/// `tool` feature (a derive cannot see the user's features; the macro expands with the
/// runtime's).
fn gate_text(text: TokenStream) -> TokenStream {
    quote!(__rk::text_impls! { #text })
}
