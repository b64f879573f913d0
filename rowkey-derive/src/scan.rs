//! Typed scan builders: `T::scan()` returns stage 0; stage `i` has one method per way of
//! constraining field `i` (`.field(v)` → stage `i + 1`, `.field_range(r)` / `.field_starts_with(p)`
//! → a finished `rowkey::scan::Scan`) and `.ranges()`. Scans that would be wrong do not exist
//! as methods: no range or starts-with on `#[hash_prefix]` or `#[reverse]` fields, nothing after
//! a range, no skipping a field. Stage types live inside the derive's `const _` block.

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

fn method_ident(f: &Field, suffix: &str) -> syn::Ident {
    match &f.member {
        syn::Member::Named(id) if suffix.is_empty() => id.clone(),
        syn::Member::Named(_) => format_ident!("{}{}", f.name, suffix),
        syn::Member::Unnamed(i) => format_ident!("field_{}{}", i.index, suffix),
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
    // Named after the key and the field the stage constrains, so that "no method named
    // `uid_range` found for struct `__EventScan_uid`" says where the chain stands.
    let key_name = crate::ast::unraw(name);
    let stage = |i: usize| match fields.get(i) {
        Some(f) => format_ident!("__{}Scan_{}", key_name, f.name, span = Span::call_site()),
        None => format_ident!("__{}ScanComplete", key_name, span = Span::call_site()),
    };
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
    let last = fields.len() - 1;
    let mut items = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let this = stage(i);
        let next = stage(i + 1);
        let codec = &codecs[i];
        let ty = f.ty;
        let mask: u8 = if f.attrs.desc.is_some() { 0xFF } else { 0 };
        let fname = &f.name;
        let (arg_ty, enc_ty, val_ref) = match &f.kind {
            TyKind::Text => (
                quote!(&::core::primitive::str),
                quote!(&::core::primitive::str),
                quote!(&__v),
            ),
            TyKind::Bytes => (
                quote!(&[::core::primitive::u8]),
                quote!(&[::core::primitive::u8]),
                quote!(&__v),
            ),
            TyKind::Option(inner) if matches!(**inner, TyKind::Text) => (
                quote!(::core::option::Option<&::core::primitive::str>),
                quote!(::core::option::Option<&::core::primitive::str>),
                quote!(&__v),
            ),
            TyKind::Option(inner) if matches!(**inner, TyKind::Bytes) => (
                quote!(::core::option::Option<&[::core::primitive::u8]>),
                quote!(::core::option::Option<&[::core::primitive::u8]>),
                quote!(&__v),
            ),
            k if is_plain(k) => (quote!(#ty), quote!(#ty), quote!(&__v)),
            _ => (
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
            f.ty.span(),
        )];
        // No range where the byte order is not the value order: hashed and reversed fields,
        // an `Option` under `#[reverse_ts]` (None first, then newest first), and custom
        // separators.
        let orderable = f.attrs.hash_prefix.is_none()
            && f.attrs.reverse.is_none()
            && !(matches!(f.kind, TyKind::Option(_)) && f.attrs.reverse_ts.is_some());
        // A custom separator orders content only above its byte: no exact range exists
        // (starts-with stays exact).
        let rangeable = !matches!(f.attrs.sep.as_ref().map(|s| s.value), Some(Some(_)));
        if orderable && rangeable {
            let range_name = method_ident(f, "_range");
            let modulo = if salt.is_some_and(|s| s.modulo && s.through == i) {
                quote!(::core::option::Option::Some((
                    #pv::map_bound_u128(::core::ops::RangeBounds::start_bound(&__r), false),
                    #pv::map_bound_u128(::core::ops::RangeBounds::end_bound(&__r), true),
                )))
            } else {
                quote!(::core::option::Option::None)
            };
            let doc = format!(
                "Constrain `{fname}` to a range of values (in the value's natural order; reversed encodings are handled) and end the scan."
            );
            methods.push(crate::expand::respan(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #range_name<__R: ::core::ops::RangeBounds<#ty>>(self, __r: __R) -> #sc::Scan {
                    let __m = #modulo;
                    self.__b.range::<#codec, #ty, __R>(__r, #mask, __m)
                }
            }, f.ty.span()));
        }
        if orderable {
            let content = match f.kind {
                TyKind::Text => Some((quote!(&::core::primitive::str), quote!(__p.as_bytes()))),
                TyKind::Bytes => Some((quote!(&[::core::primitive::u8]), quote!(__p))),
                _ => None,
            };
            if let Some((pty, bytes)) = content {
                let sw = method_ident(f, "_starts_with");
                let doc =
                    format!("Constrain `{fname}` to values starting with `p` and end the scan.");
                methods.push(crate::expand::respan(
                    quote! {
                        #[doc = #doc]
                        #[inline]
                        pub fn #sw(self, __p: #pty) -> #sc::Scan {
                            self.__b.starts_with::<#codec>(#bytes, #mask)
                        }
                    },
                    f.ty.span(),
                ));
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
    let done = stage(fields.len());
    let doc = format!("Scan builder for `{name}` with every field fixed: one key.");
    let first = stage(0);
    quote! {
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
        #[allow(dead_code)]
        impl #impl_g #name #ty_g #where_c {
            /// A typed scan over this key layout: one method per field, in key order.
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
