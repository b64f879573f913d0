//! Typed scan builders: `T::scan()` returns stage 0; stage `i` has one method per way of
//! constraining field `i` (`.field(v)` → stage `i + 1`, `.field_range(r)` / `.field_starts_with(p)`
//! → the end stage) and `.ranges()`. Scans that would be wrong do not compile: a misuse (a range
//! on a hashed, reversed or custom-separator field, a skipped field, a field after a range) is a
//! method whose bound can never hold, so the compiler says why, with the derive's message. Stage
//! types live inside the derive's `const _` block; the chain is documented on `scan()`.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use syn::spanned::Spanned;

use crate::ast::{Field, Input, TyKind};

pub struct SaltInfo {
    pub buckets: u32,
    pub width: usize,
    pub through: usize,
    pub modulo: bool,
}

fn method_name(f: &Field, suffix: &str) -> String {
    match &f.member {
        syn::Member::Named(_) => format!("{}{}", f.name, suffix),
        syn::Member::Unnamed(i) => format!("field_{}{}", i.index, suffix),
    }
}

pub fn method_ident(f: &Field, suffix: &str) -> syn::Ident {
    match &f.member {
        syn::Member::Named(id) if suffix.is_empty() => id.clone(),
        _ => format_ident!("{}", method_name(f, suffix)),
    }
}

/// How a field's scan arguments are typed.
enum Form {
    /// `impl FormOf<TextForms>` (any string form).
    Text,
    /// `impl FormOf<BytesForms>` (any bytes form).
    Bytes,
    /// `Option<&str>` / `Option<&[u8]>` for equality; any `Option` form in ranges.
    OptText,
    OptBytes,
    /// The field type itself (`Copy` scalars).
    Plain,
    /// `impl Borrow<T>` (nested keys, enums, other types).
    Borrowed,
}

impl Form {
    fn of(kind: &TyKind) -> Form {
        match kind {
            TyKind::Text => Form::Text,
            TyKind::Bytes => Form::Bytes,
            TyKind::Option(inner) if matches!(**inner, TyKind::Text) => Form::OptText,
            TyKind::Option(inner) if matches!(**inner, TyKind::Bytes) => Form::OptBytes,
            k if is_plain(k) => Form::Plain,
            _ => Form::Borrowed,
        }
    }

    /// The family of forms a `_range` takes, and the borrowed type the codec encodes.
    fn family(&self, pv: &TokenStream) -> Option<(TokenStream, TokenStream)> {
        let text = quote!(#pv::TextForms);
        let bytes = quote!(#pv::BytesForms);
        let str_ty = quote!(&::core::primitive::str);
        let bytes_ty = quote!(&[::core::primitive::u8]);
        match self {
            Form::Text => Some((text, str_ty)),
            Form::Bytes => Some((bytes, bytes_ty)),
            Form::OptText => Some((
                quote!(#pv::OptionForms<#text>),
                quote!(::core::option::Option<#str_ty>),
            )),
            Form::OptBytes => Some((
                quote!(#pv::OptionForms<#bytes>),
                quote!(::core::option::Option<#bytes_ty>),
            )),
            Form::Plain | Form::Borrowed => None,
        }
    }
}

/// Why a range method is refused for a field (`None`: it exists): the `__private` trait whose
/// diagnostic says so.
fn range_refusal(f: &Field) -> Option<&'static str> {
    let a = &f.attrs;
    if a.hash_prefix.is_some() {
        Some("NoRangeOnHashed")
    } else if a.reverse.is_some() {
        Some("NoRangeOnReversed")
    } else if matches!(a.sep.as_ref().map(|s| s.value), Some(Some(_))) {
        Some("NoRangeOnCustomSeparator")
    } else {
        None
    }
}

fn starts_with_refusal(f: &Field) -> Option<&'static str> {
    if !matches!(f.kind, TyKind::Text | TyKind::Bytes) {
        Some("NoStartsWithOnNonContent")
    } else if f.attrs.hash_prefix.is_some() {
        Some("NoStartsWithOnHashed")
    } else if f.attrs.reverse.is_some() {
        Some("NoStartsWithOnReversed")
    } else {
        None
    }
}

pub fn expand(
    p: &Input,
    krate: &TokenStream,
    fields: &[Field],
    codecs: &[TokenStream],
    salt: Option<&SaltInfo>,
    where_enc: &syn::WhereClause,
) -> TokenStream {
    let name = p.name();
    let pv = quote!(#krate::__private);
    let sc = quote!(#krate::scan);
    let generics = &p.original.generics;
    let (impl_g, ty_g, _) = generics.split_for_impl();
    let where_c = where_enc;
    // Named after the key and the field the stage constrains, so that an error says where the
    // chain stands.
    let key_name = crate::ast::unraw(name);
    let stage = |i: usize| match fields.get(i) {
        Some(f) => format_ident!("__{}Scan_{}", key_name, f.name, span = Span::call_site()),
        None => format_ident!("__{}ScanComplete", key_name, span = Span::call_site()),
    };
    let end = format_ident!("__{}ScanEnd", key_name, span = Span::call_site());
    let phantom = quote!(::core::marker::PhantomData<fn() -> #name #ty_g>);
    let salt_spec = match salt {
        None => quote!(#sc::SaltSpec::None),
        Some(s) => {
            let (b, w) = (s.buckets, s.width);
            if s.modulo {
                quote!(#sc::SaltSpec::Modulo { buckets: #b, width: #w })
            } else {
                quote!(#sc::SaltSpec::Phoenix { buckets: #b, width: #w })
            }
        }
    };

    // Misuse: a method whose argument must implement a `__private` trait that nothing
    // implements; its diagnostic names the key and the field (a marker type named after it).
    let fields_mod = format_ident!("__{}Fields", key_name, span = Span::call_site());
    let marker = |f: &Field| {
        let id = method_ident(f, "");
        quote!(#fields_mod::#id)
    };
    let key_ty = quote!(#name #ty_g);
    let refused_in = |method: &syn::Ident, bound: TokenStream, span: Span, scan: TokenStream| {
        crate::expand::respan(
            quote! {
                #[doc(hidden)]
                #[allow(unused_variables)]
                pub fn #method<__A: #bound>(self, __a: __A) -> #end #ty_g {
                    #end { __s: #scan, _k: ::core::marker::PhantomData }
                }
            },
            span,
        )
    };
    let refused = |method: &syn::Ident, bound: TokenStream, span: Span| {
        refused_in(method, bound, span, quote!(self.__b.nothing()))
    };
    let why = |tr: &str, f: &Field| {
        let tr = format_ident!("{}", tr);
        let m = marker(f);
        quote!(#pv::#tr<#key_ty, #m>)
    };

    let last = fields.len() - 1;
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
    for (i, f) in fields.iter().enumerate() {
        let this = stage(i);
        let next = stage(i + 1);
        let codec = &codecs[i];
        let ty = f.ty;
        let span = f.ty.span();
        let mask: u8 = if f.attrs.desc.is_some() { 0xFF } else { 0 };
        let fname = &f.name;
        let form = Form::of(&f.kind);
        let (arg_ty, enc_ty, val_ref) = match &form {
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
        let hash = f.attrs.hash_prefix.as_ref().map(|h| {
            let (w, raw) = (h.value.len, h.value.raw);
            quote!(__b.hash(#val_ref, #w, #raw);)
        });
        let fix_salt = salt.filter(|s| s.through == i).map(|s| {
            let n = s.buckets;
            if s.modulo {
                quote!(__b.fix_salt_value(#pv::modulo_salt(__v, #n));)
            } else {
                quote!(__b.fix_salt();)
            }
        });
        let complete = (i == last).then(|| quote!(__b.complete();));
        let eq_name = method_ident(f, "");
        let mut defined: BTreeSet<String> = ["ranges".to_owned(), eq_name.to_string()].into();
        let eq_doc = format!("Fix `{fname}` to a value (equality) and go on to the next field.");
        let mut methods = vec![crate::expand::respan(
            quote! {
                #[doc = #eq_doc]
                #[inline]
                pub fn #eq_name(self, __v: #arg_ty) -> #next #ty_g {
                    let mut __b = self.__b;
                    #hash
                    __b.eq::<#codec, #enc_ty>(#val_ref, #mask);
                    #fix_salt
                    #complete
                    #next { __b, _k: ::core::marker::PhantomData }
                }
            },
            span,
        )];

        let range_name = method_ident(f, "_range");
        defined.insert(range_name.to_string());
        let range_cell = match range_refusal(f) {
            None => {
                let modulo = if salt.is_some_and(|s| s.modulo && s.through == i) {
                    quote!(::core::option::Option::Some((
                        #pv::map_bound_u128(::core::ops::RangeBounds::start_bound(&__r), false),
                        #pv::map_bound_u128(::core::ops::RangeBounds::end_bound(&__r), true),
                    )))
                } else {
                    quote!(::core::option::Option::None)
                };
                let doc = format!(
                    "Constrain `{fname}` to a range of values (in the value's natural order; reversed and Java encodings are handled) and end the scan."
                );
                let body = match form.family(&pv) {
                    Some((fam, canon)) => quote! {
                        pub fn #range_name<__R: #pv::RangeOf<#fam>>(self, __r: __R) -> #end #ty_g {
                            let (__lo, __hi) = #pv::RangeOf::<#fam>::bounds(&__r);
                            let __s = self.__b.range_bounds::<#codec, #canon>(__lo.as_ref(), __hi.as_ref(), #mask, ::core::option::Option::None);
                            #end { __s, _k: ::core::marker::PhantomData }
                        }
                    },
                    None => quote! {
                        pub fn #range_name<__R: ::core::ops::RangeBounds<#ty>>(self, __r: __R) -> #end #ty_g {
                            let __m = #modulo;
                            let __s = self.__b.range::<#codec, #ty, __R>(__r, #mask, __m);
                            #end { __s, _k: ::core::marker::PhantomData }
                        }
                    },
                };
                methods.push(crate::expand::respan(
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        #body
                    },
                    span,
                ));
                format!("`.{range_name}(a..b)`")
            }
            Some(tr) => {
                methods.push(refused(&range_name, why(tr, f), span));
                "—".to_owned()
            }
        };

        let sw = method_ident(f, "_starts_with");
        defined.insert(sw.to_string());
        let sw_cell = match starts_with_refusal(f) {
            None => {
                let (fam, bytes) = match form {
                    Form::Text => (
                        quote!(#pv::TextForms),
                        quote!(::core::primitive::str::as_bytes(#pv::FormOf::<#pv::TextForms>::canon(&__p))),
                    ),
                    _ => (
                        quote!(#pv::BytesForms),
                        quote!(#pv::FormOf::<#pv::BytesForms>::canon(&__p)),
                    ),
                };
                let doc =
                    format!("Constrain `{fname}` to values starting with `p` and end the scan.");
                methods.push(crate::expand::respan(
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        pub fn #sw(self, __p: impl #pv::FormOf<#fam>) -> #end #ty_g {
                            let __s = self.__b.starts_with::<#codec>(#bytes, #mask);
                            #end { __s, _k: ::core::marker::PhantomData }
                        }
                    },
                    span,
                ));
                format!("`.{sw}(p)`")
            }
            Some(tr) => {
                methods.push(refused(&sw, why(tr, f), span));
                "—".to_owned()
            }
        };
        let reason = if f.attrs.hash_prefix.is_some() {
            " (hashed)"
        } else if f.attrs.reverse.is_some() {
            " (reversed)"
        } else if range_cell == "—" {
            " (custom separator)"
        } else {
            ""
        };
        chain_doc.push(format!(
            "| `{fname}`{reason} | `.{eq_name}(v)` | {range_cell} | {sw_cell} |"
        ));

        // Later fields cannot be fixed while this one is free.
        for g in fields.iter().skip(i + 1) {
            let (later, earlier) = (marker(g), marker(f));
            let bound = quote!(#pv::NoSkippedField<#key_ty, #later, #earlier>);
            for suffix in ["", "_range", "_starts_with"] {
                let m = method_ident(g, suffix);
                if defined.insert(m.to_string()) {
                    methods.push(refused(&m, bound.clone(), Span::call_site()));
                }
            }
        }

        let doc = format!("Scan builder for `{name}`, at field `{fname}`.");
        items.push(quote! {
            #[doc = #doc]
            #[derive(Clone, Debug)]
            #[must_use = "call .ranges() to get the byte ranges to scan"]
            pub struct #this #impl_g #where_c {
                __b: #sc::ScanBuilder,
                _k: #phantom,
            }
            #[allow(dead_code)]
            impl #impl_g #this #ty_g #where_c {
                #(#methods)*

                /// The ranges of every key matching the fields fixed so far.
                #[inline]
                pub fn ranges(self) -> #sc::ScanRanges {
                    self.__b.ranges()
                }
            }
        });
    }

    // After a range or starts-with: nothing more can be fixed.
    let mut after_defined: BTreeSet<String> = ["ranges".to_owned(), "into_scan".to_owned()].into();
    let mut end_methods = Vec::new();
    for f in fields {
        for suffix in ["", "_range", "_starts_with"] {
            let m = method_ident(f, suffix);
            if after_defined.insert(m.to_string()) {
                end_methods.push(refused_in(
                    &m,
                    why("NothingAfterRange", f),
                    Span::call_site(),
                    quote!(self.__s),
                ));
            }
        }
    }
    let markers = fields.iter().map(|f| method_ident(f, ""));

    let done = stage(fields.len());
    let doc = format!("Scan builder for `{name}` with every field fixed: one key.");
    let end_doc =
        format!("A finished scan of `{name}` (after a range or starts-with): call `.ranges()`.");
    let first = stage(0);
    chain_doc.push(String::new());
    chain_doc.push("A dash marks a scan that would not be one byte range per salt bucket; calling it is a compile error that says why. With every field fixed, `.ranges()` is the one key.".to_owned());
    let scan_doc = chain_doc.iter().map(|l| quote!(#[doc = #l]));
    quote! {
        #[doc(hidden)]
        #[allow(non_snake_case, non_camel_case_types, dead_code)]
        pub mod #fields_mod {
            #(pub struct #markers;)*
        }
        #(#items)*
        #[doc = #doc]
        #[derive(Clone, Debug)]
        #[must_use = "call .ranges() to get the byte ranges to scan"]
        pub struct #done #impl_g #where_c {
            __b: #sc::ScanBuilder,
            _k: #phantom,
        }
        #[allow(dead_code)]
        impl #impl_g #done #ty_g #where_c {
            /// The range holding exactly the one key.
            #[inline]
            pub fn ranges(self) -> #sc::ScanRanges {
                self.__b.ranges()
            }
        }
        #[doc = #end_doc]
        #[derive(Clone, Debug)]
        #[must_use = "call .ranges() to get the byte ranges to scan"]
        pub struct #end #impl_g #where_c {
            __s: #sc::Scan,
            _k: #phantom,
        }
        #[allow(dead_code)]
        impl #impl_g #end #ty_g #where_c {
            #(#end_methods)*

            /// The `[start, stop)` ranges, in key order: one per salt bucket the scan can touch
            /// (one in all when the salted prefix is fixed).
            #[inline]
            pub fn ranges(self) -> #sc::ScanRanges {
                self.__s.ranges()
            }

            /// The untyped scan.
            #[inline]
            pub fn into_scan(self) -> #sc::Scan {
                self.__s
            }
        }
        #[allow(dead_code)]
        impl #impl_g #name #ty_g #where_c {
            /// A typed scan over this key layout: one method per field, in key order.
            #(#scan_doc)*
            #[inline]
            pub fn scan() -> #first #ty_g {
                #first { __b: #sc::ScanBuilder::new(#salt_spec), _k: ::core::marker::PhantomData }
            }
        }
    }
}

fn is_plain(k: &TyKind) -> bool {
    match k {
        TyKind::Unsigned(_)
        | TyKind::Signed(_)
        | TyKind::Bool
        | TyKind::Char
        | TyKind::Float(_)
        | TyKind::ByteArray(_) => true,
        TyKind::Option(inner) => is_plain(inner),
        _ => false,
    }
}
