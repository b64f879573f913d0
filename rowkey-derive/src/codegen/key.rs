//! The impls of a key struct: `RowKey` (encode, length, describe, `LAYOUT`), `DecodeRowKey`
//! (one `Reader` call per field), `KeyParts`, the nested-field codec and `Show`.

use proc_macro2::TokenStream;
use quote::quote;

use super::{layout, respan, Bounds};
use crate::ast::Input;
use crate::prop::KeyProp;

pub fn expand(p: &Input, key: &KeyProp, krate: &TokenStream, tuple: bool) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let (impl_g, ty_g, _) = p.original.generics.split_for_impl();
    let pv = quote!(__rk);
    let Bounds { enc, dec, all } = super::generic_bounds(p, key);
    let checks = layout::checks(p, key, krate);
    let item_checks = &checks.items;
    let inline_checks = &checks.inline;
    let layout = layout::layout(p, key, krate);

    // the prefix and the salt are data (`KeyFields::PREFIX`/`SALT`, also the `LAYOUT`'s,
    // decided in `prop.rs`): the runtime writes, reads and checks them; each field is one call
    let prefix_const = p.attrs.prefix.as_ref().map(|_| {
        let prefix = layout::prefix_lit(p);
        quote!(const PREFIX: &'static [::core::primitive::u8] = #prefix;)
    });
    let salt_const = key.salt_consts(krate);
    let puts: Vec<_> = key
        .fields
        .iter()
        .map(|fp| {
            let (codec, ty, member, fname) = (&fp.codec, fp.f.ty, &fp.f.member, &fp.f.name);
            let i = fp.f.index;
            respan(
                quote!(__sink.put::<#codec, #ty, #i>(&self.#member, __mask, #fname)?;),
                fp.span,
            )
        })
        .collect();
    let lens: Vec<_> = key
        .fields
        .iter()
        .map(|fp| {
            let (codec, ty, member) = (&fp.codec, fp.f.ty, &fp.f.member);
            respan(
                quote!(+ <#codec as #pv::Codec<#ty>>::len(&self.#member, __mask)),
                fp.span,
            )
        })
        .collect();
    let decodes: Vec<_> = key
        .fields
        .iter()
        .map(|fp| {
            let (codec, ty, var, fname) = (&fp.codec, fp.f.ty, &fp.f.var, &fp.f.name);
            let i = fp.f.index;
            respan(
                quote!(let #var = __r.field::<#codec, #ty, #i>(#fname, __r.mask())?;),
                fp.span,
            )
        })
        .collect();
    let vars: Vec<_> = key.fields.iter().map(|fp| &fp.f.var).collect();
    let construct = if tuple {
        quote!(Self(#(#vars),*))
    } else {
        let members: Vec<_> = key.fields.iter().map(|fp| &fp.f.member).collect();
        quote!(Self { #(#members: #vars),* })
    };

    // A fixed-width layout is written into the buffer's chunk in one step (`encode_key`). Not
    // for generic keys: their post-monomorphization checks live in `encode_masked`, and a second
    // instantiation (into the cursor) would report each of them twice.
    let encode = if super::is_generic(p) {
        quote!(<Self as #pv::KeyParts>::encode_masked(self, __buf, 0))
    } else {
        quote!(#pv::encode_key(self, __buf))
    };
    // a key that drops its trailing separators refuses a key of NULLs only: an error about the
    // whole key, which names the key type
    let encode = if key.phoenix.is_some() || key.bigtable.is_some() {
        quote!(#pv::whole_key(#encode, <Self as #krate::RowKey>::LAYOUT.name))
    } else {
        encode
    };

    let max_len_check = p.attrs.max_len.as_ref().map(|m| {
        let m = m.value.0;
        quote! {
            if <Self as #krate::RowKey>::LAYOUT.fixed_width.is_none() {
                #pv::check_max_len(<Self as #pv::KeyParts>::len_masked(self, 0), #m, <Self as #krate::RowKey>::LAYOUT.name)?;
            }
        }
    });
    // a key that drops its trailing separators builds its fields in a buffer before it cuts
    // them: `to_row_key` makes that buffer the key (`encode_into` would copy it)
    let trims = key.phoenix.is_some()
        || matches!(key.bigtable, Some(bt) if matches!(bt.join, crate::attr::BigtableJoin::OrderedCode));
    let to_row_key = trims.then(|| {
        quote! {
            #[inline]
            fn to_row_key(&self) -> ::core::result::Result<#pv::bytes::Bytes, #pv::EncodeError> {
                #max_len_check
                #pv::whole_key(#pv::trimmed_row_key(self), <Self as #krate::RowKey>::LAYOUT.name)
            }
        }
    });

    // A range over this key as a nested field: exact when every field sorts ascending in its
    // natural order with every bound encodable or clamped (`Codec::RANGE_EXACT`), and no salt
    // scatters the values.
    let statically_inexact = key.range_inexact();
    let range_exact = if statically_inexact {
        quote!(false)
    } else {
        let parts = key.fields.iter().map(|fp| {
            let (codec, ty) = (&fp.codec, fp.f.ty);
            respan(quote!(<#codec as #pv::Codec<#ty>>::RANGE_EXACT), fp.span)
        });
        quote!(true #(&& #parts)*)
    };
    // Its range bound, field by field: the fields before the one that decides equal the
    // bound's, and a value that does not encode is replaced by its nearest encodable bound
    // (`__private::nested_field_bound`). Only for keys that can range exactly; the others keep
    // the default (their ranges do not compile).
    let bound_into = if statically_inexact {
        quote!()
    } else {
        let last = key.last();
        let steps = key.fields.iter().take(key.fields.len() - 1).map(|fp| {
            let (codec, ty, member) = (&fp.codec, fp.f.ty, &fp.f.member);
            respan(quote!(__c.field::<#codec, #ty>(&__v.#member)?;), fp.span)
        });
        let last_step = {
            let (codec, ty, member) = (&last.codec, last.f.ty, &last.f.member);
            respan(quote!(__c.last::<#codec, #ty>(&__v.#member)), last.span)
        };
        let prefix_put = p.attrs.prefix.as_ref().map(
            |_| quote!(#pv::put_prefix(__out, <#name #ty_g as #pv::KeyFields>::PREFIX, __mask);),
        );
        quote! {
            fn bound_into(
                __v: &#name #ty_g,
                __mask: ::core::primitive::u8,
                __upper: ::core::primitive::bool,
                __inclusive: ::core::primitive::bool,
                __out: &mut #pv::std::vec::Vec<::core::primitive::u8>,
            ) -> #pv::Edge {
                let __start = __out.len();
                #prefix_put
                #pv::NestedBound::new(__mask, __upper, __inclusive, __start, __out).bound(
                    |__c| {
                        #(#steps)*
                        ::core::ops::ControlFlow::Continue(())
                    },
                    |__c| #last_step,
                )
            }
        }
    };

    let de = super::de_generics(p);
    let (de_impl_g, _, _) = de.split_for_impl();
    let elided = super::elided_type(p);
    let last = key.last();
    let (last_codec, last_ty) = (&last.codec, last.f.ty);
    let last_prefix_free = respan(
        quote!(<#last_codec as #pv::Codec<#last_ty>>::PREFIX_FREE),
        last.span,
    );

    let show_fields: Vec<_> = key
        .fields
        .iter()
        .map(|fp| {
            let f = fp.f;
            let member = &f.member;
            let sep = if f.index == 0 { "" } else { ", " };
            let label = if tuple {
                sep.to_owned()
            } else {
                format!("{sep}{}: ", f.name)
            };
            let show = respan(quote!(#pv::Show::show(&self.#member, __out);), fp.span);
            quote! {
                __out.push_str(#label);
                #show
            }
        })
        .collect();
    let (open, close) = if tuple {
        (format!("{name_str}("), ")")
    } else {
        (format!("{name_str} {{ "), " }")
    };

    // a Phoenix key drops its trailing separators (`KeyFields::TRIMS`), is the primary key of
    // a Phoenix table (`PhoenixKey`), and is not a nested field of another key
    let phoenix = key.phoenix;
    // a Bigtable struct key is like it (an ordered-code one drops its trailing empty fields);
    // it is the row key schema of a table (`StructKey`)
    let trimmed = phoenix.is_some()
        || matches!(key.bigtable, Some(bt) if matches!(bt.join, crate::attr::BigtableJoin::OrderedCode));
    let empty_key = key.bigtable.is_some().then(|| {
        let first = &key.fields[0].f.name;
        quote!(
            const EMPTY_KEY: (&'static ::core::primitive::str, &'static ::core::primitive::str) =
                (#first, "an empty key (an OrderedCodeBytes key has at least 2 bytes: 00 00 when every field is empty)");
        )
    });
    let trims = trimmed.then(|| {
        quote!(
            const TRIMS: ::core::primitive::bool = true;
            #empty_key
        )
    });
    let len_body = if trimmed {
        quote!(#pv::trimmed_len(self, __mask))
    } else {
        quote!(#pv::head_len::<Self>() #(#lens)*)
    };
    let phoenix_key = phoenix.map(|opt| {
        let buckets = match &key.salt {
            Some(s) => {
                let b = s.buckets;
                quote!(::core::option::Option::Some(#b))
            }
            None => quote!(::core::option::Option::None),
        };
        let columns = key.fields.iter().map(|fp| {
            let (ty, fname, desc) = (fp.f.ty, &fp.f.name, fp.desc);
            respan(
                quote!(#krate::phoenix::Column::of::<#ty>(#fname, #desc)),
                fp.span,
            )
        });
        quote! {
            impl #krate::phoenix::PhoenixKey for #name {
                const SALT_BUCKETS: ::core::option::Option<::core::primitive::u32> = #buckets;
                const ROW_KEY_ORDER_OPTIMIZABLE: ::core::primitive::bool = #opt;
                fn columns() -> #pv::std::vec::Vec<#krate::phoenix::Column> {
                    #pv::std::vec![#(#columns),*]
                }
            }
        }
    });
    let struct_key = key
        .bigtable
        .map(|bt| super::struct_key::expand(p, key, bt, krate));
    let nested = if phoenix.is_some() || key.bigtable.is_some() {
        quote!()
    } else {
        quote! {
        impl #impl_g #pv::Codec<#name #ty_g> for #krate::codec::Natural #all {
            const WIDTH: ::core::option::Option<::core::primitive::usize> = <#name #ty_g as #krate::RowKey>::LAYOUT.fixed_width;
            const PREFIX_FREE: ::core::primitive::bool = #last_prefix_free;
            const RANGE_EXACT: ::core::primitive::bool = #range_exact;
            #bound_into
            #[inline]
            fn len(__v: &#name #ty_g, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                <#name #ty_g as #pv::KeyParts>::len_masked(__v, __mask)
            }
            #[inline]
            fn encode<__B: #pv::bytes::BufMut>(__v: &#name #ty_g, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                <#name #ty_g as #pv::KeyParts>::encode_masked(__v, __buf, __mask)
            }
        }

        impl #de_impl_g #pv::Decode<'__de, #name #ty_g> for #krate::codec::Natural #dec {
            #[inline]
            fn decode(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8) -> ::core::result::Result<(#name #ty_g, ::core::primitive::usize), #pv::DecodeError> {
                <#name #ty_g as #krate::DecodeRowKey<'__de>>::decode_visit(__input, __mask, &mut #pv::NoVisit)
            }
        }
        }
    };

    quote! {
        #item_checks

        impl #impl_g #krate::RowKey for #name #ty_g #all {
            const LAYOUT: &'static #krate::layout::Layout = &#layout;

            #[inline]
            fn encode_into<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                #max_len_check
                #encode
            }

            #[inline]
            fn encoded_len(&self) -> ::core::primitive::usize {
                <Self as #pv::KeyParts>::len_masked(self, 0)
            }
            #to_row_key

            fn describe(__bytes: &[::core::primitive::u8]) -> #pv::std::string::String {
                #pv::describe::<#elided>(__bytes)
            }
        }

        impl #impl_g #pv::KeyFields for #name #ty_g #enc {
            #prefix_const
            #salt_const
            #trims

            #[inline(always)]
            fn put_fields<__S: #pv::FieldSink>(&self, __sink: &mut __S, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                #(#puts)*
                ::core::result::Result::Ok(())
            }
        }

        impl #impl_g #pv::KeyParts for #name #ty_g #enc {
            #[inline(always)]
            fn encode_masked<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                #inline_checks
                #pv::encode_parts(self, __buf, __mask)
            }

            #[inline(always)]
            fn len_masked(&self, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                #len_body
            }
        }

        impl #de_impl_g #krate::DecodeRowKey<'__de> for #name #ty_g #dec {
            #[inline(always)]
            fn decode_visit<__V: #pv::Visit>(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8, __visit: &mut __V)
                -> ::core::result::Result<(Self, ::core::primitive::usize), #pv::DecodeError>
            {
                #inline_checks
                let mut __r = #pv::Reader::<Self, __V>::new(__input, __mask, __visit);
                __r.head()?;
                #(#decodes)*
                ::core::result::Result::Ok((#construct, __r.finish()))
            }
        }

        #nested

        #phoenix_key

        #struct_key

        impl #impl_g #pv::Show for #name #ty_g #enc {
            fn show(&self, __out: &mut #pv::std::string::String) {
                __out.push_str(#open);
                #(#show_fields)*
                __out.push_str(#close);
            }
        }
    }
}
