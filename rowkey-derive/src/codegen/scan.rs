//! Typed scan builders: `T::scan()` returns the stage `Scan<F0>`; `Scan<F>` (one generic type
//! per key, `F` the marker of the field to constrain next, `()` once every field is fixed) has
//! one inherent impl per field with the ways of constraining it (`.field(v)` → the next stage,
//! `.field_range(r)` / `.field_starts_with(p)` → the end stage) and one generic `.ranges()`.
//!
//! Scans that would be wrong do not compile, with the derive's message: a range or starts-with
//! the field refuses (hashed, reversed, custom separator, not a string) is a method of its stage
//! whose argument bound never holds; a later field's methods (a skipped field) and every
//! field's methods after a range are found through `Deref` on the key's misuse chain
//! `ScanRefused<F, S>`: one impl per field with its three method names, bound on
//! `NoSkippedField` (`S = Skipping<E>`) or `NothingAfterRange` (`S = Ended`), dereferencing to
//! the next field. Generated code is linear in the fields. Everything lives inside the derive's
//! `const _` block; the chain is documented on `scan()`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::respan;
use crate::ast::Input;
use crate::prop::{method_ident, Form, KeyProp};

pub fn expand(
    p: &Input,
    key: &KeyProp,
    krate: &TokenStream,
    where_enc: &syn::WhereClause,
) -> TokenStream {
    let name = p.name();
    // `__rk`: the runtime's `__private`, imported once in the scan code (shorter lines)
    let pv = quote!(__rk);
    let sc = quote!(#krate::scan);
    let generics = &p.original.generics;
    let (impl_g, ty_g, _) = generics.split_for_impl();
    let where_c = where_enc;
    // Named after the key and the field the stage constrains, so that an error says where the
    // chain stands.
    let key_name = crate::ast::unraw(name);
    // One generic stage type, `Scan<F>`: `F` is the marker of the field to constrain next, `()`
    // once every field is fixed.
    let scan_ty = format_ident!("__{}Scan", key_name, span = Span::call_site());
    let end = format_ident!("__{}ScanEnd", key_name, span = Span::call_site());
    let phantom = quote!(::core::marker::PhantomData<fn() -> #name #ty_g>);

    // Misuse: a method whose argument must implement a `__private` trait that nothing
    // implements; its diagnostic names the key and the field (a marker type named after it).
    let fields_mod = format_ident!("__{}Fields", key_name, span = Span::call_site());
    let marker = |f: &crate::ast::Field| {
        let id = method_ident(f, "");
        quote!(#fields_mod::#id)
    };
    let key_ty = quote!(#name #ty_g);
    let stage = |i: usize| {
        let f = key
            .fields
            .get(i)
            .map_or_else(|| quote!(()), |fp| marker(fp.f));
        let args = generic_args(generics, &[f]);
        quote!(#scan_ty #args)
    };
    let refused_ty = format_ident!("__{}ScanRefused", key_name, span = Span::call_site());
    // `Refused<F, S>` with the key's generics
    let refused_at = |f: &TokenStream, s: TokenStream| {
        let args = generic_args(generics, &[f.clone(), s]);
        quote!(#refused_ty #args)
    };
    let deref_to = |stage: TokenStream, target: TokenStream| {
        quote! {
            impl #impl_g ::core::ops::Deref for #stage #where_c {
                type Target = #target;
                #[inline(always)]
                fn deref(&self) -> &Self::Target {
                    &#refused_ty(::core::marker::PhantomData)
                }
            }
        }
    };
    let refused = |method: &syn::Ident, bound: TokenStream, span: Span| {
        respan(
            quote! {
                #[doc(hidden)]
                pub fn #method(self, _: impl #bound) -> #end #ty_g {
                    #end(self.0.nothing(), ::core::marker::PhantomData)
                }
            },
            span,
        )
    };
    let why = |tr: &str, f: &crate::ast::Field| {
        let tr = format_ident!("{}", tr);
        let m = marker(f);
        quote!(#pv::#tr<#key_ty, #m>)
    };

    let last = key.fields.len() - 1;
    let mut items = Vec::new();
    let mut chain_doc = vec![
        String::new(),
        "# Scan chain".to_owned(),
        String::new(),
        "Fields are constrained in key order: each field either by equality (then the next field), or by a range or starts-with (which ends the chain); `.ranges()` may be called at any point and gives the `[start, stop)` byte ranges of every key that matches so far.".to_owned(),
        String::new(),
        "| field | equality | range | starts-with |".to_owned(),
        "|---|---|---|---|".to_owned(),
    ];
    for (i, fp) in key.fields.iter().enumerate() {
        let f = fp.f;
        let this = stage(i);
        let next = stage(i + 1);
        let codec = &fp.codec;
        let ty = f.ty;
        let span = fp.span;
        let fname = &f.name;
        let form = &fp.form;
        let (arg_ty, enc_ty, val_ref) = match form {
            Form::Text => (
                quote!(impl #pv::FormOf<#pv::TextForms>),
                quote!(&::core::primitive::str),
                quote!(&#pv::FormOf::<#pv::TextForms>::canon(&__v)),
            ),
            Form::Bytes => (
                quote!(impl #pv::FormOf<#pv::BytesForms>),
                quote!(&[::core::primitive::u8]),
                quote!(&#pv::FormOf::<#pv::BytesForms>::canon(&__v)),
            ),
            Form::OptText => (
                quote!(::core::option::Option<&::core::primitive::str>),
                quote!(::core::option::Option<&::core::primitive::str>),
                quote!(&__v),
            ),
            Form::OptBytes => (
                quote!(::core::option::Option<&[::core::primitive::u8]>),
                quote!(::core::option::Option<&[::core::primitive::u8]>),
                quote!(&__v),
            ),
            Form::Plain => (quote!(#ty), quote!(#ty), quote!(&__v)),
            Form::Borrowed => (
                quote!(impl ::core::borrow::Borrow<#ty>),
                quote!(#ty),
                quote!(::core::borrow::Borrow::<#ty>::borrow(&__v)),
            ),
        };
        let fix = match form {
            Form::Text => {
                quote!(#pv::fix_form::<#pv::TextForms, #codec, _>(&mut __b, &__v);)
            }
            Form::Bytes => {
                quote!(#pv::fix_form::<#pv::BytesForms, #codec, _>(&mut __b, &__v);)
            }
            _ => quote!(__b.field::<#codec, #enc_ty>(#val_ref);),
        };
        let complete = (i == last).then(|| quote!(__b.complete();));
        let eq_name = method_ident(f, "");
        let eq_doc = format!("Fix `{fname}` to a value (equality) and go on to the next field.");
        // Every step of the chain is `inline(always)`: `T::scan().a(x).b(y).ranges()` then
        // compiles to straight-line code in the caller, with the builder in registers (moved
        // by value through calls, it was read back with wider loads than it was written with,
        // a store-forwarding stall per step) and the layout's constants (salt buckets,
        // widths) folded in.
        let mut methods = vec![respan(
            quote! {
                #[doc = #eq_doc]
                #[inline(always)]
                pub fn #eq_name(self, __v: #arg_ty) -> #next {
                    let mut __b = self.0;
                    #fix
                    #complete
                    #scan_ty(__b, ::core::marker::PhantomData)
                }
            },
            span,
        )];

        // IN-lists: `.f_in(values)` — every alternative so far, once per value; `.f_any()` —
        // every value of a finite domain. Both go on to the next field.
        let in_name = method_ident(f, "_in");
        let any_name = method_ident(f, "_any");
        let fam = match form {
            Form::Text => quote!(#pv::TextForms),
            Form::Bytes => quote!(#pv::BytesForms),
            Form::OptText => quote!(#pv::OptionForms<#pv::TextForms>),
            Form::OptBytes => quote!(#pv::OptionForms<#pv::BytesForms>),
            Form::Plain | Form::Borrowed => quote!(#pv::Plain<#ty>),
        };
        let in_doc = format!("Fix `{fname}` to each of `values` (an IN-list; the union of one scan per value) and go on to the next field. Errors past `rowkey::scan::MAX_ALTERNATIVES` combinations.");
        let is_last = i == last;
        methods.push(respan(
            quote! {
                #[doc = #in_doc]
                #[inline]
                pub fn #in_name(self, __vs: impl #pv::ListOf<#fam, #codec>) -> #pv::In<#next> {
                    #pv::list(self.0, #fname, #is_last, __vs).map(#scan_ty::new)
                }
            },
            span,
        ));
        if fp.finite() {
            let any_doc = format!("Scan every value of `{fname}` (a `bool`, a fieldless enum, an `Option` of those) and go on to the next field: the IN-list of all its values. Errors past `rowkey::scan::MAX_ALTERNATIVES` combinations.");
            methods.push(respan(
                quote! {
                    #[doc = #any_doc]
                    #[inline]
                    pub fn #any_name(self) -> #pv::In<#next> where for<'__x> #ty: #sc::FiniteDomain, for<'__x> #codec: #pv::Codec<#ty> {
                        self.0.any::<#codec, #ty>(#fname, #is_last).map(#scan_ty::new)
                    }
                },
                span,
            ));
        }

        let range_name = method_ident(f, "_range");
        let range_cell = match fp.range {
            Ok(()) => {
                let doc = format!(
                    "Constrain `{fname}` to a range of values (in the value's natural order; reversed and Java encodings are handled) and end the scan."
                );
                let body = match form.family(&pv) {
                    Some((fam, _)) => quote! {
                        pub fn #range_name<__R: #pv::RangeOf<#fam>>(self, __r: __R) -> #end #ty_g {
                            #end(#pv::range_form::<#fam, #codec, __R>(self.0, &__r), ::core::marker::PhantomData)
                        }
                    },
                    None => {
                        // A nested key (or an `Option` of one) encodes its bounds whole, which
                        // is exact only for some keys (`Codec::RANGE_EXACT`): refused at the
                        // call otherwise — by a bound, or, when the type depends on the key's
                        // type parameters, by an assertion at monomorphization.
                        let nested = fp.nested_natural();
                        let exact = quote!(<#codec as #pv::Codec<#ty>>::RANGE_EXACT);
                        let (bound, check) = if !nested {
                            (quote!(), quote!())
                        } else if super::mentions_type_param(p, ty) {
                            let msg = format!(
                                "rowkey: no range scan on `{fname}` of `{key_name}`: {}",
                                crate::prop::NESTED_RANGE_REASON
                            );
                            (quote!(), quote!(const { ::core::assert!(#exact, #msg) };))
                        } else {
                            let m = marker(f);
                            (
                                quote!(+ #pv::NestedRangeExact<#key_ty, #m, { #exact }>),
                                quote!(),
                            )
                        };
                        // the key tool's text scan checks `RANGE_EXACT` at run time and calls
                        // this one (a bound it could not meet would not compile)
                        let unchecked = if nested {
                            let name = format_ident!("__{}_unchecked", range_name);
                            quote! {
                                #[doc(hidden)]
                                #[inline(always)]
                                pub fn #name<__R: ::core::ops::RangeBounds<#ty>>(self, __r: __R) -> #end #ty_g {
                                    let __s = self.0.range::<#codec, #ty, __R>(__r);
                                    #end(__s, ::core::marker::PhantomData)
                                }
                            }
                        } else {
                            quote!()
                        };
                        quote! {
                            pub fn #range_name<__R: ::core::ops::RangeBounds<#ty> #bound>(self, __r: __R) -> #end #ty_g {
                                #check
                                let __s = self.0.range::<#codec, #ty, __R>(__r);
                                #end(__s, ::core::marker::PhantomData)
                            }
                            #unchecked
                        }
                    }
                };
                methods.push(respan(
                    quote! {
                        #[doc = #doc]
                        #[inline(always)]
                        #body
                    },
                    span,
                ));
                format!("`.{range_name}(a..b)`")
            }
            Err(r) => {
                methods.push(refused(&range_name, why(r.trait_name(true), f), span));
                "—".to_owned()
            }
        };

        let sw = method_ident(f, "_starts_with");
        let sw_cell = match fp.starts_with {
            Ok(()) => {
                let fam = match form {
                    Form::Text | Form::OptText => quote!(#pv::TextForms),
                    _ => quote!(#pv::BytesForms),
                };
                let (doc, call) = if matches!(form, Form::OptText | Form::OptBytes) {
                    (
                        format!(
                            "Constrain `{fname}` to `Some` values starting with `p` (never \
                             `None`; `\"\"` selects every `Some` value) and end the scan."
                        ),
                        quote!(#pv::starts_form_some::<#fam, #codec, _>(self.0, &__p)),
                    )
                } else {
                    (
                        format!(
                            "Constrain `{fname}` to values starting with `p` and end the scan."
                        ),
                        quote!(#pv::starts_form::<#fam, #codec, _>(self.0, &__p)),
                    )
                };
                methods.push(respan(
                    quote! {
                        #[doc = #doc]
                        #[inline(always)]
                        pub fn #sw(self, __p: impl #pv::FormOf<#fam>) -> #end #ty_g {
                            let __s = #call;
                            #end(__s, ::core::marker::PhantomData)
                        }
                    },
                    span,
                ));
                format!("`.{sw}(p)`")
            }
            Err(r) => {
                methods.push(refused(&sw, why(r.trait_name(false), f), span));
                "—".to_owned()
            }
        };
        let reason = match fp.range {
            Err(r) => r.reason(),
            Ok(()) => "",
        };
        chain_doc.push(format!(
            "| `{fname}`{reason} | `.{eq_name}(v)` | {range_cell} | {sw_cell} |"
        ));

        items.push(quote! {
            impl #impl_g #this #where_c {
                #(#methods)*
            }
        });
    }

    // After a range or starts-with: nothing more can be fixed; every field's method names are
    // found down the misuse chain, which says so.
    let first_m = marker(key.fields[0].f);
    let end_deref = deref_to(quote!(#end #ty_g), refused_at(&first_m, quote!(#pv::Ended)));
    let chain = misuse_chain(p, key, &refused_ty, &fields_mod, &pv, where_c);
    let markers = key.fields.iter().map(|fp| method_ident(fp.f, ""));

    let doc = format!("Scan builder for `{name}`: `F` is the field to constrain next (`()` once every field is fixed).");
    let end_doc =
        format!("A finished scan of `{name}` (after a range or starts-with): call `.ranges()`.");
    // Minimal ranges (adjacent ones joined, empty ones dropped) need the key's decoding: a key
    // without generics has it for every lifetime; a generic one keeps the builder's ranges.
    let (minimal, minimal_scan) = if generics.params.is_empty() {
        (
            quote!(#pv::minimal::<#key_ty>),
            quote!(#pv::minimal_scan::<#key_ty>),
        )
    } else {
        (
            quote!(::core::convert::identity),
            quote!(::core::convert::identity),
        )
    };
    let first = stage(0);
    let with_f = with_params(generics, &[quote!(__F)]);
    let (impl_f, ty_f, _) = with_f.split_for_impl();
    let with_next = with_params(generics, &[quote!(__F: #pv::NextField)]);
    let (impl_next, _, _) = with_next.split_for_impl();
    let ty_next = generic_args(
        generics,
        &[
            quote!(<__F as #pv::NextField>::Next),
            quote!(#pv::Skipping<__F>),
        ],
    );
    chain_doc.push(String::new());
    chain_doc.push("A dash marks a scan that would not be one byte range per salt bucket; calling it is a compile error that says why. With every field fixed, `.ranges()` is the one key.".to_owned());
    let scan_doc = chain_doc.iter().map(|l| quote!(#[doc = #l]));
    quote! {
        #[doc(hidden)]
        pub mod #fields_mod {
            #(pub struct #markers;)*
        }
        #(#items)*
        #[doc = #doc]
        #[must_use = "call .ranges() to get the byte ranges to scan"]
        pub struct #scan_ty #impl_f (#pv::ScanBuilder, ::core::marker::PhantomData<(fn() -> #key_ty, __F)>) #where_c;
        impl #impl_f ::core::clone::Clone for #scan_ty #ty_f #where_c {
            #[inline(always)]
            fn clone(&self) -> Self {
                #scan_ty(::core::clone::Clone::clone(&self.0), ::core::marker::PhantomData)
            }
        }
        impl #impl_f ::core::fmt::Debug for #scan_ty #ty_f #where_c {
            fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Debug::fmt(&self.0, __f)
            }
        }
        impl #impl_f #scan_ty #ty_f #where_c {
            #[inline(always)]
            fn new(__b: #pv::ScanBuilder) -> Self {
                #scan_ty(__b, ::core::marker::PhantomData)
            }

            /// The ranges of every key matching the fields fixed so far (with every field
            /// fixed, the range holding exactly the one key).
            #[inline(always)]
            pub fn ranges(self) -> #sc::ScanRanges {
                #minimal(self.0.ranges())
            }
        }
        // Later fields cannot be fixed while this one is free: their method names are found
        // down the misuse chain (one per key), which says so.
        impl #impl_next ::core::ops::Deref for #scan_ty #ty_f #where_c {
            type Target = #refused_ty #ty_next;
            #[inline(always)]
            fn deref(&self) -> &Self::Target {
                &#refused_ty(::core::marker::PhantomData)
            }
        }
        #[doc = #end_doc]
        #[derive(Clone, Debug)]
        #[must_use = "call .ranges() to get the byte ranges to scan"]
        pub struct #end #impl_g (#sc::Scan, #phantom) #where_c;
        #end_deref
        #chain
        impl #impl_g #end #ty_g #where_c {

            /// The `[start, stop)` ranges, in key order: one per salt bucket the scan can touch
            /// (one in all when the salted prefix is fixed).
            #[inline(always)]
            pub fn ranges(self) -> #sc::ScanRanges {
                #minimal(self.0.ranges())
            }

            /// The untyped scan.
            #[inline]
            pub fn into_scan(self) -> #sc::Scan {
                #minimal_scan(self.0)
            }
        }
        impl #impl_g #name #ty_g #where_c {
            /// A typed scan over this key layout: one method per field, in key order.
            #(#scan_doc)*
            #[inline(always)]
            pub fn scan() -> #first {
                <Self as #pv::ScanKey>::scan_within(&[])
            }
        }
        impl #impl_g #pv::ScanKey for #name #ty_g #where_c {
            type Scan = #first;
            #[inline(always)]
            fn scan_within(__outer: &[::core::primitive::u8]) -> #first {
                #scan_ty(#pv::ScanBuilder::new(__outer, <Self as #pv::KeyFields>::PREFIX, <Self as #pv::KeyFields>::SALT), ::core::marker::PhantomData)
            }
        }
    }
}

/// The key's generics with `extra` parameters after the lifetimes.
fn with_params(g: &syn::Generics, extra: &[TokenStream]) -> syn::Generics {
    let mut g = g.clone();
    let at = g.lifetimes().count();
    for (k, e) in extra.iter().enumerate() {
        g.params.insert(at + k, syn::parse_quote!(#e));
    }
    g
}

/// `<'a, X, Y, T, N>`: the key's generic arguments with `extra` after the lifetimes.
fn generic_args(g: &syn::Generics, extra: &[TokenStream]) -> TokenStream {
    let lifetimes = g.lifetimes().map(|l| &l.lifetime);
    let rest = g.params.iter().filter_map(|p| match p {
        syn::GenericParam::Type(t) => Some(&t.ident),
        syn::GenericParam::Const(c) => Some(&c.ident),
        syn::GenericParam::Lifetime(_) => None,
    });
    quote!(<#(#lifetimes,)* #(#extra,)* #(#rest),*>)
}

/// The key's misuse chain: `Refused<F, S>` has the three method names of field `F`, each bound on
/// `__private::NoSkippedField` or `NothingAfterRange` by the stage kind `S` (never met; their
/// messages are the error), and dereferences to
/// `Refused<next field, S>` — one impl per field, found from any earlier stage.
fn misuse_chain(
    p: &Input,
    key: &KeyProp,
    refused_ty: &syn::Ident,
    fields_mod: &syn::Ident,
    pv: &TokenStream,
    where_c: &syn::WhereClause,
) -> TokenStream {
    let name = p.name();
    let generics = &p.original.generics;
    let (_, key_g, _) = generics.split_for_impl();
    let key_ty = quote!(#name #key_g);
    let all = with_params(generics, &[quote!(__F), quote!(__S)]);
    let (impl_all, ty_all, _) = all.split_for_impl();
    let bounded = with_params(generics, &[quote!(__F: #pv::NextField), quote!(__S)]);
    let (impl_next, _, _) = bounded.split_for_impl();
    let ty_next = generic_args(
        generics,
        &[quote!(<__F as #pv::NextField>::Next), quote!(__S)],
    );
    let mut items = Vec::new();
    for (i, fp) in key.fields.iter().enumerate() {
        let id = method_ident(fp.f, "");
        let m = quote!(#fields_mod::#id);
        if let Some(next) = key.fields.get(i + 1) {
            let next = method_ident(next.f, "");
            items.push(quote! {
                impl #pv::NextField for #m {
                    type Next = #fields_mod::#next;
                }
            });
        }
        let methods = |bound: TokenStream| {
            // the names a field has in some stage: `_range` and `_starts_with` only where the
            // field takes them (elsewhere the name exists nowhere)
            let mut suffixes = vec![""];
            if fp.range.is_ok() {
                suffixes.push("_range");
            }
            if fp.starts_with.is_ok() {
                suffixes.push("_starts_with");
            }
            suffixes.push("_in");
            let mut ms: Vec<TokenStream> = suffixes
                .iter()
                .map(|suffix| {
                    let mut name = method_ident(fp.f, suffix);
                    name.set_span(Span::call_site());
                    quote! {
                        pub fn #name(&self, _: impl #bound) -> #pv::Misused {
                            #pv::Misused
                        }
                    }
                })
                .collect();
            // `_any()` takes no argument: the refusal is a bound on the method
            if fp.finite() {
                let mut name = method_ident(fp.f, "_any");
                name.set_span(Span::call_site());
                ms.push(quote! {
                    pub fn #name(&self) -> #pv::Misused where for<'__x> #pv::Misused: #bound {
                        #pv::Misused
                    }
                });
            }
            ms
        };
        let skipped = methods(quote!(#pv::NoSkippedField<#key_ty, #m, __E>));
        let ended = methods(quote!(#pv::NothingAfterRange<#key_ty, #m>));
        let with_e = {
            let mut g = generics.clone();
            let at = g.lifetimes().count();
            g.params.insert(at, syn::parse_quote!(__E));
            g
        };
        let (impl_e, _, _) = with_e.split_for_impl();
        let (impl_g, _, _) = generics.split_for_impl();
        let ty_skipped = generic_args(generics, &[m.clone(), quote!(#pv::Skipping<__E>)]);
        let ty_ended = generic_args(generics, &[m.clone(), quote!(#pv::Ended)]);
        items.push(quote! {
            impl #impl_e #refused_ty #ty_skipped #where_c {
                #(#skipped)*
            }
            impl #impl_g #refused_ty #ty_ended #where_c {
                #(#ended)*
            }
        });
    }
    let phantom = quote!(::core::marker::PhantomData<(fn() -> #key_ty, __F, __S)>);
    quote! {
        #[doc(hidden)]
        pub struct #refused_ty #impl_all (#phantom) #where_c;
        impl #impl_next ::core::ops::Deref for #refused_ty #ty_all #where_c {
            type Target = #refused_ty #ty_next;
            #[inline(always)]
            fn deref(&self) -> &Self::Target {
                &#refused_ty(::core::marker::PhantomData)
            }
        }
        #(#items)*
    }
}
