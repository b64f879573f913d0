//! Fieldless enums: a key field encoded as its code (`u8`, or the `#[repr]` type; explicit
//! discriminants kept), with a one-field `LAYOUT`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Input, TyKind, Variant};

pub fn expand(
    p: &Input,
    krate: &TokenStream,
    variants: &[Variant],
    repr: Option<&(syn::Ident, TyKind)>,
) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let pv = quote!(__rk);
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();
    let repr_ty = match repr {
        Some((id, _)) => quote!(::core::primitive::#id),
        None => quote!(::core::primitive::u8),
    };
    let codes: Vec<_> = variants
        .iter()
        .enumerate()
        .map(|(i, _)| format_ident!("__CODE_{}", i))
        .collect();
    let code_consts: Vec<_> = variants
        .iter()
        .zip(&codes)
        .map(|(v, c)| {
            let id = v.ident;
            let span = v.original.span();
            let msg = format!(
                "rowkey: the discriminant of `{name_str}::{}` does not fit the enum's {} key code; add #[repr(u16)] (or wider) or use smaller discriminants",
                crate::ast::unraw(id),
                repr_ty
            );
            if repr.is_some() {
                quote!(const #c: #repr_ty = #name::#id as #repr_ty;)
            } else {
                quote_spanned! {span=>
                    const #c: ::core::primitive::u8 = {
                        ::core::assert!((#name::#id as ::core::primitive::i128) >= 0 && (#name::#id as ::core::primitive::i128) <= 255, #msg);
                        #name::#id as ::core::primitive::u8
                    };
                }
            }
        })
        .collect();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let names: Vec<_> = variants
        .iter()
        .map(|v| crate::ast::unraw(v.ident))
        .collect();
    let repr_str = repr.map_or_else(|| "u8".to_owned(), |(id, _)| id.to_string());
    quote! {
        #(#code_consts)*

        impl #impl_g #pv::Codec<#name #ty_g> for #krate::codec::Natural #where_c {
            const WIDTH: ::core::option::Option<::core::primitive::usize> = <#krate::codec::Natural as #pv::Codec<#repr_ty>>::WIDTH;
            const PREFIX_FREE: ::core::primitive::bool = true;
            // codes in discriminant order, which derived `Ord` follows
            const RANGE_EXACT: ::core::primitive::bool = true;
            #[inline]
            fn len(_: &#name #ty_g, _: ::core::primitive::u8) -> ::core::primitive::usize {
                ::core::mem::size_of::<#repr_ty>()
            }
            #[inline]
            fn encode<__B: #pv::bytes::BufMut>(__v: &#name #ty_g, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                let __code: #repr_ty = match __v { #(#name::#idents => #codes,)* };
                <#krate::codec::Natural as #pv::Codec<#repr_ty>>::encode(&__code, __buf, __mask)
            }
            // An exclusive bound is the next variant's code (in code order), inclusive: a range
            // past the last variant (or before the first) is nothing, and codes no variant has
            // are never a bound.
            #[inline]
            fn bound_into(__v: &#name #ty_g, __mask: ::core::primitive::u8, __upper: ::core::primitive::bool, __inclusive: ::core::primitive::bool, __out: &mut #pv::std::vec::Vec<::core::primitive::u8>) -> #pv::Edge {
                let __code: #repr_ty = match __v { #(#name::#idents => #codes,)* };
                let __code = if __inclusive {
                    ::core::option::Option::Some(__code)
                } else {
                    // the nearest code below (upper) or above (lower); a loop, not iterator
                    // adapters, so that it needs no trait in scope (`no_implicit_prelude`)
                    let __all: &[#repr_ty] = &[#(#codes),*];
                    let mut __best: ::core::option::Option<#repr_ty> = ::core::option::Option::None;
                    for __c in __all {
                        let __c = *__c;
                        let __beyond = if __upper { __c < __code } else { __c > __code };
                        let __nearer = match __best {
                            ::core::option::Option::Some(__b) => if __upper { __c > __b } else { __c < __b },
                            ::core::option::Option::None => true,
                        };
                        if __beyond && __nearer {
                            __best = ::core::option::Option::Some(__c);
                        }
                    }
                    __best
                };
                match __code {
                    ::core::option::Option::Some(__c) => {
                        let _ = <#krate::codec::Natural as #pv::Codec<#repr_ty>>::encode(&__c, __out, __mask);
                        #pv::Edge::At { inclusive: true }
                    }
                    ::core::option::Option::None => #pv::Edge::Nothing,
                }
            }
        }

        impl<'__de> #pv::Decode<'__de, #name #ty_g> for #krate::codec::Natural #where_c {
            #[inline]
            fn decode(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8) -> ::core::result::Result<(#name #ty_g, ::core::primitive::usize), #pv::DecodeError> {
                let (__code, __n) = <#krate::codec::Natural as #pv::Decode<'__de, #repr_ty>>::decode(__input, __mask)?;
                #( if __code == #codes { return ::core::result::Result::Ok((#name::#idents, __n)); } )*
                ::core::result::Result::Err(#pv::unknown_variant(__code as ::core::primitive::u64))
            }
        }

        impl #impl_g #krate::RowKey for #name #ty_g #where_c {
            const LAYOUT: &'static #krate::layout::Layout = &#krate::layout::Layout {
                name: #name_str,
                prefix: &[],
                fields: &[#krate::layout::FieldLayout {
                    name: "code",
                    ty: #repr_str,
                    encoding: #krate::layout::FieldEncoding::Natural,
                    width: <#krate::codec::Natural as #pv::Codec<#repr_ty>>::WIDTH,
                    desc: false,
                    hash_prefix: ::core::option::Option::None,
                }],
                salt: ::core::option::Option::None,
                fixed_width: <#krate::codec::Natural as #pv::Codec<#repr_ty>>::WIDTH,
                max_len: ::core::option::Option::None,
            };

            #[inline]
            fn encode_into<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                <#krate::codec::Natural as #pv::Codec<Self>>::encode(self, __buf, 0)
            }

            #[inline]
            fn encoded_len(&self) -> ::core::primitive::usize {
                ::core::mem::size_of::<#repr_ty>()
            }

            fn describe(__bytes: &[::core::primitive::u8]) -> #pv::std::string::String {
                #pv::describe::<Self>(__bytes)
            }
        }

        impl<'__de> #krate::DecodeRowKey<'__de> for #name #ty_g #where_c {
            #[inline]
            fn decode_visit<__V: #pv::Visit>(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8, __visit: &mut __V)
                -> ::core::result::Result<(Self, ::core::primitive::usize), #pv::DecodeError>
            {
                let (__v, __n) = <#krate::codec::Natural as #pv::Decode<'__de, Self>>::decode(__input, __mask)
                    .map_err(|__e| __e.in_field("code", 0))?;
                __visit.field("code", __n, &__v);
                ::core::result::Result::Ok((__v, __n))
            }
        }

        impl #impl_g #pv::Show for #name #ty_g #where_c {
            fn show(&self, __out: &mut #pv::std::string::String) {
                __out.push_str(match self { #(#name::#idents => #names,)* });
            }
        }

        impl #impl_g #krate::scan::FiniteDomain for #name #ty_g #where_c {
            fn domain() -> #pv::std::vec::Vec<Self> {
                let mut __all = #pv::std::vec![#(#name::#idents),*];
                // in key order (the codes')
                __all.sort_by_key(|__v| match __v { #(#name::#idents => #codes,)* });
                __all
            }
        }
    }
}
