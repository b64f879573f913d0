//! On error: the compile errors plus a stub impl, so that uses of the type do not add
//! follow-on errors (thiserror's `fallback.rs`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub fn expand(input: &DeriveInput, krate: &TokenStream, error: syn::Error) -> TokenStream {
    let name = &input.ident;
    let (impl_g, ty_g, where_c) = input.generics.split_for_impl();
    let errors = error.to_compile_error();
    let mut de_generics = input.generics.clone();
    de_generics.params.insert(
        0,
        syn::GenericParam::Lifetime(syn::LifetimeParam::new(syn::Lifetime::new(
            "'__de",
            proc_macro2::Span::call_site(),
        ))),
    );
    let (de_impl_g, _, _) = de_generics.split_for_impl();
    let pv = quote!(#krate::__private);
    let scan = scan_stub(input, krate);
    quote! {
        #errors

        #[allow(unused_qualifications, unused_variables, non_snake_case, clippy::all)]
        const _: () = {
            impl #impl_g #krate::RowKey for #name #ty_g #where_c {
                const LAYOUT: &'static #krate::layout::Layout = &#krate::layout::Layout {
                    name: "", prefix: &[], fields: &[], salt: ::core::option::Option::None,
                    fixed_width: ::core::option::Option::None, max_len: ::core::option::Option::None,
                };
                fn encode_into<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                    ::core::unreachable!()
                }
                fn encoded_len(&self) -> ::core::primitive::usize {
                    ::core::unreachable!()
                }
                fn describe(__bytes: &[::core::primitive::u8]) -> #pv::std::string::String {
                    ::core::unreachable!()
                }
            }
            impl #de_impl_g #krate::DecodeRowKey<'__de> for #name #ty_g #where_c {
                fn decode_visit<__V: #pv::Visit>(
                    __input: &'__de [::core::primitive::u8],
                    __mask: ::core::primitive::u8,
                    __visit: &mut __V,
                ) -> ::core::result::Result<(Self, ::core::primitive::usize), #pv::DecodeError> {
                    ::core::unreachable!()
                }
            }
            impl #impl_g #pv::Codec<#name #ty_g> for #krate::codec::Natural #where_c {
                const WIDTH: ::core::option::Option<::core::primitive::usize> = ::core::option::Option::None;
                const PREFIX_FREE: ::core::primitive::bool = true;
                fn len(__v: &#name #ty_g, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                    ::core::unreachable!()
                }
                fn encode<__B: #pv::bytes::BufMut>(
                    __v: &#name #ty_g,
                    __buf: &mut __B,
                    __mask: ::core::primitive::u8,
                ) -> ::core::result::Result<(), #pv::EncodeError> {
                    ::core::unreachable!()
                }
            }
            impl #de_impl_g #pv::Decode<'__de, #name #ty_g> for #krate::codec::Natural #where_c {
                fn decode(
                    __input: &'__de [::core::primitive::u8],
                    __mask: ::core::primitive::u8,
                ) -> ::core::result::Result<(#name #ty_g, ::core::primitive::usize), #pv::DecodeError> {
                    ::core::unreachable!()
                }
            }
            impl #impl_g #pv::KeyParts for #name #ty_g #where_c {
                fn encode_masked<__B: #pv::bytes::BufMut>(
                    &self,
                    __buf: &mut __B,
                    __mask: ::core::primitive::u8,
                ) -> ::core::result::Result<(), #pv::EncodeError> {
                    ::core::unreachable!()
                }
                fn len_masked(&self, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                    ::core::unreachable!()
                }
            }
            impl #impl_g #pv::Show for #name #ty_g #where_c {
                fn show(&self, __out: &mut #pv::std::string::String) {}
            }
            #scan
        };
    }
}

/// For a struct: `T::scan()` returning a stub builder that takes every field's methods with any
/// argument, in any order, so that a scan of the broken key adds no error of its own.
fn scan_stub(input: &DeriveInput, krate: &TokenStream) -> TokenStream {
    let syn::Data::Struct(data) = &input.data else {
        return TokenStream::new();
    };
    let name = &input.ident;
    let (impl_g, ty_g, where_c) = input.generics.split_for_impl();
    let stub = quote::format_ident!("__{}ScanStub", name);
    let mut names = std::collections::BTreeMap::new();
    for (i, f) in data.fields.iter().enumerate() {
        let base = f
            .ident
            .as_ref()
            .map_or_else(|| format!("field_{i}"), crate::ast::unraw);
        for suffix in ["", "_range", "_starts_with", "_in", "_any"] {
            let m = format!("{base}{suffix}");
            if m != "ranges" && m != "into_scan" {
                names.entry(m).or_insert(suffix);
            }
        }
    }
    let methods = names.iter().map(|(m, suffix)| {
        let m = syn::Ident::new_raw(m, proc_macro2::Span::call_site());
        match *suffix {
            "_in" => quote!(pub fn #m<__A>(self, _: __A) -> ::core::result::Result<Self, #krate::scan::TooManyRanges> { ::core::result::Result::Ok(self) }),
            "_any" => quote!(pub fn #m(self) -> Self { self }),
            _ => quote!(pub fn #m<__A>(self, _: __A) -> Self { self }),
        }
    });
    quote! {
        pub struct #stub;
        #[allow(dead_code)]
        impl #stub {
            #(#methods)*
            pub fn ranges(self) -> #krate::ScanRanges {
                ::core::unreachable!()
            }
            pub fn into_scan(self) -> #krate::scan::Scan {
                ::core::unreachable!()
            }
        }
        #[allow(dead_code)]
        impl #impl_g #name #ty_g #where_c {
            pub fn scan() -> #stub {
                #stub
            }
        }
        impl #impl_g #krate::__private::ScanKey for #name #ty_g #where_c {
            type Scan = #stub;
            fn scan_within(_: &[::core::primitive::u8]) -> #stub {
                #stub
            }
        }
    }
}
