//! The `LAYOUT` constant of a key struct, and the compile-time checks that need the trait
//! system: a non-last nested key must be self-delimiting; a fixed-width key must fit `max_len`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::respan;
use crate::ast::Input;
use crate::prop::{method_ident, syntactic_width, KeyProp};

/// The `Layout` value.
pub fn layout(p: &Input, key: &KeyProp, krate: &TokenStream) -> TokenStream {
    let pv = quote!(__rk);
    let name_str = crate::ast::unraw(p.name());
    let fields: Vec<_> = key
        .fields
        .iter()
        .map(|fp| {
            let f = fp.f;
            let fname = &f.name;
            let ty = f.ty;
            let ty_str = crate::ast::type_string(ty);
            let codec = &fp.value_codec;
            let enc = fp.layout_encoding(krate);
            let desc = fp.desc;
            let hp = match fp.hash {
                Some((w, raw)) => quote!(::core::option::Option::Some(#krate::layout::HashPrefix { width: #w, raw: #raw })),
                None => quote!(::core::option::Option::None),
            };
            respan(
                quote! {
                    #krate::layout::FieldLayout {
                        name: #fname,
                        ty: #ty_str,
                        encoding: #enc,
                        width: <#codec as #pv::Codec<#ty>>::WIDTH,
                        desc: #desc,
                        hash_prefix: #hp,
                    }
                },
                fp.span,
            )
        })
        .collect();
    let width_sum = width_sum(p, key);
    let salt = quote!(<Self as #pv::KeyFields>::SALT);
    let max_len = match p.attrs.max_len.as_ref().map(|m| m.value.0) {
        Some(m) => quote!(::core::option::Option::Some(#m)),
        None => quote!(::core::option::Option::None),
    };
    let prefix = quote!(<Self as #pv::KeyFields>::PREFIX);
    quote! {
        #krate::layout::Layout {
            name: #name_str,
            prefix: #prefix,
            fields: &[#(#fields),*],
            salt: #salt,
            fixed_width: #width_sum,
            max_len: #max_len,
        }
    }
}

/// The key's fixed width as an `Option<usize>` constant expression (`None`: variable), from
/// the fields' codecs: usable where only the codec bounds hold (the checks of a generic key).
fn width_sum(p: &Input, key: &KeyProp) -> TokenStream {
    let pv = quote!(__rk);
    // one flat sum (a nested `add_width` per field grew the expansion's indentation with the
    // field count)
    let _ = p;
    let mut parts = vec![quote!(::core::option::Option::Some(#pv::head_len::<Self>()))];
    for fp in &key.fields {
        let (codec, ty) = (&fp.codec, fp.f.ty);
        parts.push(respan(quote!(<#codec as #pv::Codec<#ty>>::WIDTH), fp.span));
    }
    quote!(#pv::sum_widths(&[#(#parts),*]))
}

/// The checks: items for a non-generic key (checked where the key is defined), or statements
/// for the body of an impl method of a generic one (checked when it is instantiated).
pub struct Checks {
    pub items: Option<TokenStream>,
    pub inline: Option<TokenStream>,
}

pub fn checks(p: &Input, key: &KeyProp, krate: &TokenStream) -> Checks {
    let pv = quote!(__rk);
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let generic = super::is_generic(p);
    let last = key.fields.len() - 1;
    let delimit: Vec<_> = key
        .fields
        .iter()
        .filter(|fp| {
            fp.f.index != last && !fp.f.kind.is_var_len() && syntactic_width(fp.f).is_none()
        })
        .map(|fp| {
            let (codec, ty) = (&fp.codec, fp.f.ty);
            if generic {
                // depends on type parameters: a const assertion at monomorphization
                let msg = format!(
                    "rowkey: field `{}` of `{}` is not the last field, but its type `{}` does not mark its own end \
                     (a nested key whose last field is variable-length and unterminated): a prefix scan for `web1` would also return `web12`, \
                     and keys could not be decoded. Give the last field of that type #[sep] or #[pad(N)], or move `{}` last",
                    fp.f.name,
                    name_str,
                    crate::ast::type_string(ty),
                    fp.f.name
                );
                respan(quote!(::core::assert!(<#codec as #pv::Codec<#ty>>::PREFIX_FREE, #msg);), fp.span)
            } else {
                // a bound that holds only for a self-delimiting nested key: a normal trait
                // error with the message of `__private::SelfDelimited`
                let fields_mod = format_ident!("__{}Fields", name_str);
                let field = method_ident(fp.f, "");
                respan(
                    quote! {
                        const _: () = {
                            #[allow(dead_code)]
                            fn __rowkey_self_delimited()
                            where
                                #pv::Bool<{ <#codec as #pv::Codec<#ty>>::PREFIX_FREE }>:
                                    #pv::SelfDelimited<#name, #fields_mod::#field, #ty>,
                            {
                            }
                        };
                    },
                    fp.span,
                )
            }
        })
        .collect();
    let max_len = p.attrs.max_len.as_ref().map(|m| {
        let max = m.value.0;
        let msg = format!(
            "rowkey: key `{name_str}` is fixed-width and longer than #[rowkey(max_len = {max})]: every byte of a row key is stored again \
             in every cell of the row; shorten fields (codes instead of names, binary instead of decimal) or raise max_len"
        );
        let span = m.value.1;
        // a generic key's width is known once its type parameters are: from the codecs, at
        // monomorphization (its `LAYOUT` needs bounds the encoder does not have)
        let width = if generic {
            width_sum(p, key)
        } else {
            quote!(<#name as #krate::RowKey>::LAYOUT.fixed_width)
        };
        quote_spanned! {span=>
            if let ::core::option::Option::Some(__w) = #width {
                ::core::assert!(__w <= #max, #msg);
            }
        }
    });
    if generic {
        Checks {
            items: None,
            inline: Some(quote!(const { #(#delimit)* #max_len })),
        }
    } else {
        Checks {
            items: Some(quote!(const _: () = { #(#delimit)* #max_len };)),
            inline: None,
        }
    }
}

/// The constant prefix as a `&'static [u8]` expression (empty when there is none).
pub fn prefix_lit(p: &Input) -> TokenStream {
    match &p.attrs.prefix {
        Some(a) => {
            let b = syn::LitByteStr::new(&a.value, proc_macro2::Span::call_site());
            quote!(#b)
        }
        None => quote!(&[]),
    }
}
