//! On error: the compile errors plus a stub impl, so that uses of the type do not add
//! follow-on errors (thiserror's `fallback.rs`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub fn expand(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let krate = krate_lenient(input);
    let name = &input.ident;
    let (impl_g, ty_g, where_c) = input.generics.split_for_impl();
    let errors = error.to_compile_error();
    let pv = quote!(#krate::__private);
    quote! {
        #errors

        #[allow(unused_qualifications, unused_variables, clippy::all)]
        const _: () = {
            impl #impl_g #krate::RowKey for #name #ty_g #where_c {
                const LAYOUT: &'static #krate::layout::Layout = &#krate::layout::Layout {
                    name: "", fields: &[], salt: ::core::option::Option::None,
                    fixed_width: ::core::option::Option::None, max_len: ::core::option::Option::None,
                };
                fn encode_into<__B: #pv::bytes::BufMut>(&self, buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                    ::core::unreachable!()
                }
                fn encoded_len(&self) -> usize {
                    ::core::unreachable!()
                }
                fn describe(bytes: &[u8]) -> #pv::std::string::String {
                    ::core::unreachable!()
                }
            }
        };
    }
}

fn krate_lenient(input: &DeriveInput) -> TokenStream {
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("rowkey")) {
        let mut found = None;
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                if let Ok(v) = meta.value() {
                    if let Ok(s) = v.parse::<syn::LitStr>() {
                        found = s.parse::<syn::Path>().ok();
                    }
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _ = meta.value().and_then(|v| v.parse::<syn::Expr>());
            } else if meta.input.peek(syn::token::Paren) {
                let _ = meta.parse_nested_meta(|_| Ok(()));
            }
            Ok(())
        });
        if let Some(p) = found {
            return quote!(#p);
        }
    }
    quote!(::rowkey)
}
