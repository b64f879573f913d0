//! Keys from text, for the key tool (`rowkey::tool`): `impl rowkey::text::FromText` for every key
//! (a nested key reads `outer.inner=value` pairs, a fieldless enum a variant name or code) and
//! `impl rowkey::text::TextFields` for every struct key and tagged key enum without lifetime
//! parameters.
//!
//! The generated code is small and unconditional (a derive cannot see the user's features): it
//! parses each field with `FromText` and drives the typed scan builder `T::scan()` that
//! `scan.rs` generates, so a scan typed as text gives exactly the ranges of the typed chain. A
//! scan is one `__private::text_step` call per field (which reads the value, range or prefix;
//! a refused form is an uninhabited type whose read is the error) and a match that calls the
//! typed builder.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use crate::ast::{Field, Input, TaggedVariant, TyKind, Variant};
use crate::prop::KeyProp;

/// `FromText` for a fieldless enum: a variant name or its numeric code.
pub fn expand_enum(p: &Input, krate: &TokenStream, variants: &[Variant]) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let tx = quote!(#krate::text);
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let names: Vec<String> = idents.iter().map(|i| crate::ast::unraw(i)).collect();
    let idx: Vec<usize> = (0..idents.len()).collect();
    let expected = format!(
        "a variant of {name_str}: {} (or its numeric code)",
        names.join(", ")
    );
    quote! {
        impl #impl_g #tx::FromText for #name #ty_g #where_c {
            const EXPECTED: &'static ::core::primitive::str = #expected;
            fn parse_text(__s: &::core::primitive::str) -> ::core::result::Result<Self, __rk::std::string::String> {
                match #tx::enum_index(__s, &[#(#names),*], &[#(#name::#idents as ::core::primitive::i128),*])? {
                    #(#idx => ::core::result::Result::Ok(#name::#idents),)*
                    _ => ::core::result::Result::Err(__rk::std::string::String::new()),
                }
            }
        }
    }
}

fn has_lifetimes(p: &Input) -> bool {
    p.original.generics.lifetimes().next().is_some()
}

/// `FromText` and `TextFields` for a struct key: `where_key` is the bounds of the derive's
/// `RowKey` impl (which also give the scan builder's), to which each field type's `FromText`
/// is added.
pub fn expand_struct(
    p: &Input,
    krate: &TokenStream,
    key: &KeyProp,
    tuple: bool,
    where_key: &syn::WhereClause,
) -> TokenStream {
    let fields: Vec<&Field> = key.fields.iter().map(|fp| fp.f).collect();
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let tx = quote!(#krate::text);
    let string = quote!(__rk::std::string::String);
    let result = quote!(::core::result::Result);
    let expected_nested = format!("a nested key ({name_str}): give its fields as field.sub=value");
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();

    // A borrowed key cannot be built from text that does not outlive it.
    if has_lifetimes(p) {
        return quote! {
            impl #impl_g #tx::FromText for #name #ty_g #where_c {
                const EXPECTED: &'static ::core::primitive::str = #expected_nested;
                fn parse_text(_: &::core::primitive::str) -> #result<Self, #string> {
                    #result::Err(#tx::nested_text(#name_str))
                }
                fn from_args(_: &mut #tx::TextArgs, __p: &::core::primitive::str) -> #result<Self, #tx::TextError> {
                    #result::Err(#tx::borrowed_unsupported(__p, #name_str))
                }
            }
        };
    }

    let reads: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let ty = f.ty;
            let fname = &f.name;
            quote_spanned!(f.ty.span()=> __rk::text_field::<#ty>(__a, __p, #fname)?)
        })
        .collect();
    let construct = if tuple {
        quote!(Self(#(#reads),*))
    } else {
        let members: Vec<_> = fields.iter().map(|f| &f.member).collect();
        quote!(Self { #(#members: #reads),* })
    };
    let names: Vec<&String> = fields.iter().map(|f| &f.name).collect();
    let field_rows: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let ty = f.ty;
            let fname = &f.name;
            quote!((#fname, <#ty as #tx::FromText>::expected()))
        })
        .collect();

    let steps: Vec<TokenStream> = key
        .fields
        .iter()
        .map(|fp| {
            let f = fp.f;
            let ty = f.ty;
            let path = &f.name;
            let eq = crate::prop::method_ident(f, "");
            let eq_arg = match &f.kind {
                TyKind::Option(inner) if matches!(**inner, TyKind::Text | TyKind::Bytes) => {
                    quote!(::core::option::Option::as_deref(&__v))
                }
                _ => quote!(__v),
            };
            // the arms of `__private::text_step`: a refused form is an uninhabited type
            let pv = quote!(__rk);
            let ok = |e: TokenStream| quote!(return #result::Ok(#e.ranges()));
            let mut exact = quote!(true);
            let (range_ty, range_arm) = match fp.range {
                Err(r) => {
                    let t = format_ident!("{}", r.text_form(true));
                    (quote!(#pv::#t), quote!(match __r {}))
                }
                Ok(()) if fp.nested_natural() => {
                    // the typed `_range` has a bound a nested key may not meet: checked at
                    // run time, then the unchecked twin
                    let m = format_ident!("__{}_unchecked", crate::prop::method_ident(f, "_range"));
                    let codec = &fp.codec;
                    exact = quote!(<#codec as #pv::Codec<#ty>>::RANGE_EXACT);
                    (quote!(#pv::Bounds<#ty>), ok(quote!(__s.#m(__r))))
                }
                Ok(()) => {
                    let m = crate::prop::method_ident(f, "_range");
                    (quote!(#pv::Bounds<#ty>), ok(quote!(__s.#m(__r))))
                }
            };
            let (prefix_ty, prefix_arm) = match fp.starts_with {
                Err(r) => {
                    let t = format_ident!("{}", r.text_form(false));
                    (quote!(#pv::#t), quote!(match __p {}))
                }
                Ok(()) => {
                    let m = crate::prop::method_ident(f, "_starts_with");
                    // an `Option` field's prefix is its `Some` content's
                    let content = match fp.form {
                        crate::prop::Form::OptText => quote!(::std::string::String),
                        crate::prop::Form::OptBytes => quote!(::std::vec::Vec<u8>),
                        _ => quote!(#ty),
                    };
                    (quote!(#pv::Prefix<#content>), ok(quote!(__s.#m(__p.0))))
                }
            };
            let done = ok(quote!(__s));
            let body = quote! {
                let __s = match #pv::text_step::<#ty, #range_ty, #prefix_ty>(__a, #path, __NAMES, #exact)? {
                    #pv::TextStep::Eq(__v) => __s.#eq(#eq_arg),
                    #pv::TextStep::Range(__r) => #range_arm,
                    #pv::TextStep::Prefix(__p) => #prefix_arm,
                    #pv::TextStep::Done => #done,
                };
            };
            super::respan(body, f.ty.span())
        })
        .collect();

    // The field types' `FromText` as higher-ranked bounds: checked where the impls are used,
    // not here, so a field type that is not a key field reports its own error only (no
    // follow-on errors from this impl).
    let mut bounds: Vec<syn::WherePredicate> = Vec::new();
    for f in &fields {
        let ty = f.ty;
        let b: syn::WherePredicate = syn::parse_quote!(for<'__t> #ty: #tx::FromText);
        // once per type
        if !bounds
            .iter()
            .any(|o| o.to_token_stream().to_string() == b.to_token_stream().to_string())
        {
            bounds.push(b);
        }
    }
    let with_bounds = |w: Option<&syn::WhereClause>| {
        let mut w = w.cloned().unwrap_or_else(|| syn::parse_quote!(where));
        w.predicates.extend(bounds.iter().cloned());
        w
    };
    let where_text = with_bounds(where_c);
    let where_fields = with_bounds(Some(where_key));
    quote! {
        impl #impl_g #tx::FromText for #name #ty_g #where_text {
            const EXPECTED: &'static ::core::primitive::str = #expected_nested;
            fn parse_text(_: &::core::primitive::str) -> #result<Self, #string> {
                #result::Err(#tx::nested_text(#name_str))
            }
            fn from_args(__a: &mut #tx::TextArgs, __p: &::core::primitive::str) -> #result<Self, #tx::TextError> {
                #result::Ok(#construct)
            }
        }

        // the top-level field names, for the key tool's unused-argument errors
        const __NAMES: &[&::core::primitive::str] = &[#(#names),*];

        impl #impl_g #tx::TextFields for #name #ty_g #where_fields {
            fn fields() -> __rk::std::vec::Vec<(&'static ::core::primitive::str, #string)> {
                ::core::convert::From::from([#(#field_rows),*])
            }

            fn encode_text(__a: &mut #tx::TextArgs) -> #result<__rk::std::vec::Vec<::core::primitive::u8>, #tx::TextError> {
                let __k = <Self as #tx::FromText>::from_args(__a, "")?;
                __a.finish(__NAMES)?;
                #tx::encode_key(&__k)
            }

            fn scan_text(__a: &mut #tx::TextArgs) -> #result<#krate::ScanRanges, #tx::TextError> {
                let __s = <Self>::scan();
                #(#steps)*
                __a.finish(__NAMES)?;
                #result::Ok(__s.ranges())
            }
        }
    }
}

/// `FromText` and `TextFields` for a tagged key enum: `variant=Name`, then the variant key's
/// own fields; the work is done by `rowkey::text::{variant_index, tagged_encode, tagged_scan}`
/// over the table of variants.
pub fn expand_tagged(p: &Input, krate: &TokenStream, variants: &[TaggedVariant]) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let tx = quote!(#krate::text);
    let string = quote!(__rk::std::string::String);
    let vec = quote!(__rk::std::vec::Vec);
    let result = quote!(::core::result::Result);
    let expected = format!(
        "a key of the keyspace {name_str}: give variant=… and that variant's fields as field.sub=value"
    );
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();

    if has_lifetimes(p) {
        return quote! {
            impl #impl_g #tx::FromText for #name #ty_g #where_c {
                const EXPECTED: &'static ::core::primitive::str = #expected;
                fn parse_text(_: &::core::primitive::str) -> #result<Self, #string> {
                    #result::Err(#tx::nested_text(#name_str))
                }
                fn from_args(_: &mut #tx::TextArgs, __p: &::core::primitive::str) -> #result<Self, #tx::TextError> {
                    #result::Err(#tx::borrowed_unsupported(__p, #name_str))
                }
            }
        };
    }

    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let tys: Vec<_> = variants.iter().map(|v| v.ty).collect();
    let names: Vec<String> = idents.iter().map(|i| crate::ast::unraw(i)).collect();
    let tags: Vec<syn::LitByteStr> = variants
        .iter()
        .map(|v| syn::LitByteStr::new(&v.tag, proc_macro2::Span::call_site()))
        .collect();
    let idx: Vec<usize> = (0..variants.len()).collect();
    let with_bounds = |bound: TokenStream| {
        let mut w = where_c.cloned().unwrap_or_else(|| syn::parse_quote!(where));
        for ty in &tys {
            w.predicates.push(syn::parse_quote!(for<'__t> #ty: #bound));
        }
        w
    };
    let where_text = with_bounds(quote!(#tx::FromText));
    let where_fields = with_bounds(quote!(#tx::TextFields));
    quote! {
        impl #impl_g #tx::FromText for #name #ty_g #where_text {
            const EXPECTED: &'static ::core::primitive::str = #expected;
            fn parse_text(_: &::core::primitive::str) -> #result<Self, #string> {
                #result::Err(#tx::nested_text(#name_str))
            }
            fn from_args(__a: &mut #tx::TextArgs, __p: &::core::primitive::str) -> #result<Self, #tx::TextError> {
                match #tx::variant_index(__a, __p, &[#(#names),*])? {
                    #(#idx => #result::Ok(#name::#idents(<#tys as #tx::FromText>::from_args(__a, __p)?)),)*
                    _ => #result::Err(#tx::TextError::new(__p, "no such variant")),
                }
            }
        }

        impl #impl_g #tx::TextFields for #name #ty_g #where_fields {
            fn fields() -> #vec<(&'static ::core::primitive::str, #string)> {
                #tx::tagged_fields(&<Self as #tx::TextFields>::variants())
            }

            fn encode_text(__a: &mut #tx::TextArgs) -> #result<#vec<::core::primitive::u8>, #tx::TextError> {
                #tx::tagged_encode(__a, &<Self as #tx::TextFields>::variants())
            }

            fn scan_text(__a: &mut #tx::TextArgs) -> #result<#krate::ScanRanges, #tx::TextError> {
                #tx::tagged_scan(__a, &<Self as #tx::TextFields>::variants())
            }

            fn variants() -> #vec<#tx::TaggedVariant> {
                ::core::convert::From::from([#(#tx::TaggedVariant {
                    name: #names,
                    tag: #tags,
                    layout: <#tys as #krate::RowKey>::LAYOUT,
                    fields: <#tys as #tx::TextFields>::fields,
                    encode: <#tys as #tx::TextFields>::encode_text,
                    scan: <#tys as #tx::TextFields>::scan_text,
                }),*])
            }
        }
    }
}
