//! The impls of a Bigtable struct key (`#[rowkey(bigtable(..))]`): `StructKey` (the row key
//! schema and the values) and, for `bigtable(delimited = b"..")`, the delimiter its field
//! codecs read.

use proc_macro2::TokenStream;
use quote::quote;

use super::respan;
use crate::ast::Input;
use crate::attr::{Bigtable, BigtableJoin};
use crate::prop::KeyProp;

pub fn expand(p: &Input, key: &KeyProp, bt: &Bigtable, krate: &TokenStream) -> TokenStream {
    let name = p.name();
    let pv = quote!(__rk);
    let s = quote!(#krate::struct_key);
    let int64 = if bt.big_endian {
        quote!(#s::Int64Encoding::BigEndianBytes)
    } else {
        quote!(#s::Int64Encoding::OrderedCodeBytes)
    };
    let (encoding, delimiter) = match &bt.join {
        BigtableJoin::OrderedCode => (quote!(#s::StructEncoding::OrderedCodeBytes), None),
        BigtableJoin::Singleton => (quote!(#s::StructEncoding::Singleton), None),
        BigtableJoin::Delimited(d) => {
            let lit = syn::LitByteStr::new(d, proc_macro2::Span::call_site());
            (
                quote!(#s::StructEncoding::DelimitedBytes(<[::core::primitive::u8]>::to_vec(#lit))),
                Some(quote! {
                    impl #s::StructDelimiter for #name {
                        const DELIMITER: &'static [::core::primitive::u8] = #lit;
                    }
                }),
            )
        }
    };
    let fields = key.fields.iter().map(|fp| {
        let (ty, fname) = (fp.f.ty, &fp.f.name);
        respan(
            quote!(#s::Field::new(#fname, <#ty as #s::StructValue>::field_type(#int64))),
            fp.span,
        )
    });
    let values = key.fields.iter().map(|fp| {
        let (ty, member) = (fp.f.ty, &fp.f.member);
        respan(
            quote!(<#ty as #s::StructValue>::to_value(&self.#member)),
            fp.span,
        )
    });
    quote! {
        #delimiter

        impl #s::StructKey for #name {
            fn row_key_schema() -> #s::StructSchema {
                #s::StructSchema::from_checked(#pv::std::vec![#(#fields),*], #encoding)
            }
            fn struct_values(&self) -> #pv::std::vec::Vec<#s::Value> {
                #pv::std::vec![#(#values),*]
            }
        }
    }
}
