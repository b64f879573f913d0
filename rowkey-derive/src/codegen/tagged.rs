//! Tagged key enums: several key types in one keyspace, each behind a constant tag
//! (`#[rowkey(tag = N)]`). The key is the tag then the variant's own key; decode dispatches on
//! the tag; `T::scan_<variant>()` is the variant key's typed scan behind its tag.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Input, TaggedVariant};

/// `OrderKey` → `order_key`.
fn snake(id: &syn::Ident) -> String {
    let s = crate::ast::unraw(id);
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn expand(p: &Input, krate: &TokenStream, variants: &[TaggedVariant]) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let pv = quote!(__rk);
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();
    let tags: Vec<syn::LitByteStr> = variants
        .iter()
        .map(|v| syn::LitByteStr::new(&v.tag, proc_macro2::Span::call_site()))
        .collect();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let tys: Vec<_> = variants.iter().map(|v| v.ty).collect();
    let names: Vec<String> = variants
        .iter()
        .map(|v| crate::ast::unraw(v.ident))
        .collect();
    let scans: Vec<TokenStream> = variants
        .iter()
        .zip(&tags)
        .map(|(v, tag)| {
            let m = format_ident!("scan_{}", snake(v.ident));
            let ty = v.ty;
            let doc = format!(
                "A typed scan over the `{}` keys of this keyspace: `{}::scan()` behind the variant's tag.",
                crate::ast::unraw(v.ident),
                crate::ast::type_string(ty)
            );
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #m() -> <#ty as #pv::ScanKey>::Scan {
                    <#ty as #pv::ScanKey>::scan_within(#tag)
                }
            }
        })
        .collect();
    // One variant whose key has no prefix of its own (a layout version, a migration's view):
    // the variant's layout behind the tag, so that plans, merges and migrations see its salt.
    // Several variants share no one layout: no fields (reads take the tag and salt from the
    // scan's ranges).
    let layout = match (variants, tags.first()) {
        ([v], Some(tag)) => {
            let ty = v.ty;
            quote! {{
                const __INNER: &#krate::layout::Layout = <#ty as #krate::RowKey>::LAYOUT;
                #krate::layout::Layout {
                    name: #name_str,
                    prefix: if __INNER.prefix.is_empty() { #tag } else { &[] },
                    fields: if __INNER.prefix.is_empty() { __INNER.fields } else { &[] },
                    salt: if __INNER.prefix.is_empty() { __INNER.salt } else { ::core::option::Option::None },
                    fixed_width: if __INNER.prefix.is_empty() {
                        #pv::add_width(::core::option::Option::Some(#tag.len()), __INNER.fixed_width)
                    } else {
                        ::core::option::Option::None
                    },
                    max_len: ::core::option::Option::None,
                }
            }}
        }
        _ => quote! {
            #krate::layout::Layout {
                name: #name_str,
                prefix: &[],
                fields: &[],
                salt: ::core::option::Option::None,
                fixed_width: ::core::option::Option::None,
                max_len: ::core::option::Option::None,
            }
        },
    };
    let de = super::de_generics(p);
    let (de_impl_g, _, _) = de.split_for_impl();
    let elided = super::elided_type(p);
    quote! {
        impl #impl_g #krate::RowKey for #name #ty_g #where_c {
            const LAYOUT: &'static #krate::layout::Layout = &#layout;

            #[inline]
            fn encode_into<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                <Self as #pv::KeyParts>::encode_masked(self, __buf, 0)
            }

            #[inline]
            fn encoded_len(&self) -> ::core::primitive::usize {
                <Self as #pv::KeyParts>::len_masked(self, 0)
            }

            fn describe(__bytes: &[::core::primitive::u8]) -> #pv::std::string::String {
                #pv::describe::<#elided>(__bytes)
            }
        }

        impl #impl_g #pv::KeyParts for #name #ty_g #where_c {
            #[inline(always)]
            fn encode_masked<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                match self {
                    #(#name::#idents(__k) => #pv::put_variant(__k, __buf, #tags, __mask, #names),)*
                }
            }

            #[inline(always)]
            fn len_masked(&self, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                match self {
                    #(#name::#idents(__k) => #tags.len() + <#tys as #pv::KeyParts>::len_masked(__k, __mask),)*
                }
            }
        }

        impl #de_impl_g #krate::DecodeRowKey<'__de> for #name #ty_g #where_c {
            fn decode_visit<__V: #pv::Visit>(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8, __visit: &mut __V)
                -> ::core::result::Result<(Self, ::core::primitive::usize), #pv::DecodeError>
            {
                #(
                    if let ::core::option::Option::Some(__rest) = #pv::strip_tag(__input, #tags, __mask) {
                        let __n = #tags.len();
                        __visit.field("variant", __n, &#pv::VariantName(#names));
                        let mut __at = #pv::Offset { visit: __visit, by: __n };
                        let (__k, __used) = <#tys as #krate::DecodeRowKey<'__de>>::decode_visit(__rest, __mask, &mut __at)
                            .map_err(|__e| #pv::variant_error(__e, __n, #names))?;
                        return ::core::result::Result::Ok((#name::#idents(__k), __n + __used));
                    }
                )*
                ::core::result::Result::Err(#pv::unknown_tag())
            }
        }

        impl #impl_g #pv::Show for #name #ty_g #where_c {
            fn show(&self, __out: &mut #pv::std::string::String) {
                match self {
                    #(#name::#idents(__k) => {
                        __out.push_str(::core::concat!(#names, "("));
                        #pv::Show::show(__k, __out);
                        __out.push_str(")");
                    })*
                }
            }
        }

        #[allow(dead_code)]
        impl #impl_g #name #ty_g #where_c {
            #(#scans)*
        }
    }
}
