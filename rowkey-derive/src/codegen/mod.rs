//! Code generation, one module per concern; each reads the decisions of [`crate::prop`].
//!
//! - [`key`]: the `RowKey`/`DecodeRowKey` impls of a key struct (encode, decode, describe) and
//!   its use as a nested field;
//! - [`layout`]: the `LAYOUT` constant and the compile-time checks that need the trait system;
//! - [`scan`]: the typed scan builder;
//! - [`enums`]: fieldless enums (codes);
//! - [`tagged`]: tagged key enums (several key types in one keyspace).
//!
//! The generated code is thin: every encoding step is one call into `rowkey::__private` or
//! `rowkey::codec`, which are tested once.

pub mod enums;
pub mod key;
pub mod layout;
pub mod scan;
pub mod struct_key;
pub mod tagged;
pub mod text;

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};

use crate::ast::Input;
use crate::prop::KeyProp;

/// Give every token of `ts` the span `span` (a field's type), so that trait errors in the
/// generated code point at the field rather than at `#[derive(RowKey)]`.
pub fn respan(ts: TokenStream, span: Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    ts.into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                TokenTree::Group(ng)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// The type with every lifetime elided (`Foo<'_>`), for calls that pick their own lifetime.
pub fn elided_type(p: &Input) -> TokenStream {
    let name = p.name();
    let g = &p.original.generics;
    if g.params.is_empty() {
        return quote!(#name);
    }
    let args: Vec<TokenStream> = g
        .params
        .iter()
        .map(|param| match param {
            syn::GenericParam::Lifetime(_) => quote!('_),
            syn::GenericParam::Type(t) => t.ident.to_token_stream(),
            syn::GenericParam::Const(c) => c.ident.to_token_stream(),
        })
        .collect();
    quote!(#name<#(#args),*>)
}

/// The generics with `'__de` first, outliving every lifetime of the type (decode impls).
pub fn de_generics(p: &Input) -> syn::Generics {
    let mut de = p.original.generics.clone();
    let lifetimes: Vec<_> = de.lifetimes().map(|l| l.lifetime.clone()).collect();
    de.params.insert(
        0,
        syn::GenericParam::Lifetime(syn::LifetimeParam {
            attrs: Vec::new(),
            lifetime: syn::Lifetime::new("'__de", Span::call_site()),
            colon_token: (!lifetimes.is_empty()).then(Default::default),
            bounds: lifetimes.into_iter().collect(),
        }),
    );
    de
}

/// Where clauses of a key's impls, with the bounds each generic field type needs.
pub struct Bounds {
    /// Encode and show.
    pub enc: syn::WhereClause,
    /// Decode at `'__de`, and show.
    pub dec: syn::WhereClause,
    /// Encode, show and decode at every lifetime.
    pub all: syn::WhereClause,
}

/// For generic keys: the bounds each field's type needs, so that users write none.
pub fn generic_bounds(p: &Input, key: &KeyProp) -> Bounds {
    let generics = &p.original.generics;
    let params: Vec<String> = generics
        .type_params()
        .map(|t| t.ident.to_string())
        .collect();
    let mut enc = generics
        .where_clause
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(where));
    let mut dec = enc.clone();
    let mut all = enc.clone();
    let pv = quote!(__rk);
    for fp in &key.fields {
        if !mentions(fp.f.ty.to_token_stream(), &params) {
            continue;
        }
        let (codec, ty) = (&fp.codec, fp.f.ty);
        enc.predicates
            .push(syn::parse_quote!(#codec: #pv::Codec<#ty>));
        enc.predicates.push(syn::parse_quote!(#ty: #pv::Show));
        dec.predicates
            .push(syn::parse_quote!(#codec: for<'__x> #pv::Decode<'__x, #ty>));
        dec.predicates.push(syn::parse_quote!(#ty: #pv::Show));
        all.predicates
            .push(syn::parse_quote!(#codec: for<'__x> #pv::Decode<'__x, #ty>));
        all.predicates.push(syn::parse_quote!(#ty: #pv::Show));
    }
    Bounds { enc, dec, all }
}

/// Whether the key has type or const parameters: its checks that depend on them run at
/// monomorphization (in `encode_masked`), not as items.
pub fn is_generic(p: &Input) -> bool {
    let g = &p.original.generics;
    g.type_params().next().is_some() || g.const_params().next().is_some()
}

/// Whether `ty` mentions one of the key's type parameters.
pub fn mentions_type_param(p: &Input, ty: &syn::Type) -> bool {
    let params: Vec<String> = p
        .original
        .generics
        .type_params()
        .map(|t| t.ident.to_string())
        .chain(
            p.original
                .generics
                .const_params()
                .map(|c| c.ident.to_string()),
        )
        .collect();
    mentions(ty.to_token_stream(), &params)
}

fn mentions(ts: TokenStream, params: &[String]) -> bool {
    use proc_macro2::TokenTree;
    ts.into_iter().any(|tt| match tt {
        TokenTree::Ident(i) => params.iter().any(|p| i == p),
        TokenTree::Group(g) => mentions(g.stream(), params),
        _ => false,
    })
}
