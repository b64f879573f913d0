//! Code generation: from_syn → validate → expand. The generated code is thin: every encoding
//! step is a call into `rowkey::__private` / `rowkey::codec`, which are tested once.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::DeriveInput;

use crate::ast::{Body, Field, Input, TyKind, Variant};
use crate::ctxt::Ctxt;
use crate::valid;

pub fn derive(input: &DeriveInput) -> TokenStream {
    match try_expand(input) {
        Ok(ts) => ts,
        Err(err) => crate::fallback::expand(input, err),
    }
}

fn try_expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::new();
    let parsed = Input::from_syn(&cx, input);
    if let Some(p) = &parsed {
        valid::check(&cx, p);
    }
    cx.check()?;
    let Some(p) = parsed else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "invalid RowKey input",
        ));
    };
    let krate = krate_path(&p);
    let body = match &p.body {
        Body::Struct { fields, tuple } => expand_struct(&p, &krate, fields, *tuple),
        Body::Enum { variants, repr } => expand_enum(&p, &krate, variants, repr.as_ref()),
    };
    Ok(quote! {
        #[automatically_derived]
        #[allow(
            non_upper_case_globals,
            non_snake_case,
            unused_qualifications,
            unused_variables,
            unused_mut,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
        const _: () = {
            #body
        };
    })
}

pub fn krate_path(p: &Input) -> TokenStream {
    match &p.attrs.krate {
        Some(k) => k.value.to_token_stream(),
        None => quote!(::rowkey),
    }
}

/// The codec type for a field, from its attributes and (syntactic) type.
fn codec(f: &Field, container_java: bool, krate: &TokenStream) -> TokenStream {
    let a = &f.attrs;
    let inner = f.kind.inner();
    let base = if let Some(p) = &a.pad {
        let n = p.value.len;
        let fill = p.value.fill.map_or(0, |(b, _)| b);
        quote!(#krate::codec::Pad<#n, #fill>)
    } else if let Some(s) = &a.sep {
        match s.value {
            None => quote!(#krate::codec::Sep),
            Some(b) => quote!(#krate::codec::SepByte<#b>),
        }
    } else if a.reverse_ts.is_some() {
        quote!(#krate::codec::ReverseTs)
    } else if a.java.is_some()
        || (container_java
            && matches!(
                inner,
                TyKind::Unsigned(_) | TyKind::Signed(_) | TyKind::Float(_) | TyKind::Bool
            ))
    {
        quote!(#krate::codec::Java)
    } else {
        quote!(#krate::codec::Natural)
    };
    if a.reverse.is_some() {
        quote!(#krate::codec::Reverse<#base>)
    } else {
        base
    }
}

fn encoding_expr(
    f: &Field,
    codec_ty: &TokenStream,
    krate: &TokenStream,
    container_java: bool,
) -> TokenStream {
    let a = &f.attrs;
    let ty = f.ty;
    let e = quote!(#krate::layout::FieldEncoding);
    let base = if let Some(p) = &a.pad {
        let n = p.value.len;
        let fill = p.value.fill.map_or(0, |(b, _)| b);
        quote!(#e::Pad { len: #n, fill: #fill })
    } else if let Some(s) = &a.sep {
        match s.value {
            None => quote!(#e::Sep),
            Some(b) => quote!(#e::SepByte(#b)),
        }
    } else if a.reverse_ts.is_some() {
        quote!(#e::ReverseTs)
    } else if a.java.is_some()
        || (container_java
            && matches!(
                f.kind.inner(),
                TyKind::Unsigned(_) | TyKind::Signed(_) | TyKind::Float(_) | TyKind::Bool
            ))
    {
        quote!(#e::Java)
    } else {
        quote!(#e::Natural)
    };
    if a.reverse.is_some() {
        let padded = a.pad.is_some();
        quote!(#e::Reverse {
            len: match <#codec_ty as #krate::__private::Codec<#ty>>::WIDTH { ::core::option::Option::Some(w) => w, ::core::option::Option::None => 0 },
            padded: #padded,
        })
    } else {
        base
    }
}

struct Gen<'a> {
    f: &'a Field<'a>,
    codec: TokenStream,
    mask: TokenStream,
    hash: Option<(usize, bool)>,
    span: Span,
}

fn expand_struct(p: &Input, krate: &TokenStream, fields: &[Field], tuple: bool) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();
    let generic = p.original.generics.type_params().next().is_some()
        || p.original.generics.const_params().next().is_some();
    let container_java = p.attrs.java.is_some();
    let pv = quote!(#krate::__private);

    let gens: Vec<Gen> = fields
        .iter()
        .map(|f| Gen {
            f,
            codec: codec(f, container_java, krate),
            mask: if f.attrs.desc.is_some() {
                quote!(mask ^ 0xFF)
            } else {
                quote!(mask)
            },
            hash: f
                .attrs
                .hash_prefix
                .as_ref()
                .map(|h| (h.value.len, h.value.raw)),
            span: f.ty.span(),
        })
        .collect();

    // salt
    struct SaltGen {
        buckets: u32,
        width: usize,
        through: usize,
        modulo: bool,
        field_name: String,
    }
    let salt = if let Some(s) = &p.attrs.salt {
        Some(SaltGen {
            buckets: s.value.buckets as u32,
            width: if s.value.buckets <= 256 { 1 } else { 2 },
            through: fields.len() - 1,
            modulo: s.value.modulo.is_some(),
            field_name: "salt".to_owned(),
        })
    } else {
        fields.iter().find_map(|f| {
            f.attrs.salt.as_ref().map(|s| SaltGen {
                buckets: s.value.buckets as u32,
                width: if s.value.buckets <= 256 { 1 } else { 2 },
                through: f.index,
                modulo: s.value.modulo.is_some(),
                field_name: f.name.clone(),
            })
        })
    };

    let encode_field = |g: &Gen, target: TokenStream| -> TokenStream {
        let Gen {
            f,
            codec,
            mask,
            hash,
            span,
        } = g;
        let member = &f.member;
        let ty = f.ty;
        let fname = &f.name;
        let hash = hash.map(
            |(len, raw)| quote_spanned!(*span=> #pv::put_hash(&self.#member, #len, #raw, #target);),
        );
        quote_spanned! {*span=>
            #hash
            <#codec as #pv::Codec<#ty>>::encode(&self.#member, #target, #mask)
                .map_err(|e| e.in_field(#fname))?;
        }
    };

    let salt_width = salt.as_ref().map_or(0, |s| s.width);
    let salt_encode = salt.as_ref().map(|s| {
        let buckets = s.buckets;
        let width = s.width;
        if s.modulo {
            let f = &fields[0].member;
            quote!(#pv::put_salt(buf, #pv::modulo_salt(self.#f, #buckets), #width, mask);)
        } else {
            let hashed: Vec<_> = gens[..=s.through]
                .iter()
                .map(|g| encode_field(g, quote!(&mut __h)))
                .collect();
            quote! {
                let mut __h = #pv::PhoenixHash::new();
                #(#hashed)*
                #pv::put_salt(buf, __h.bucket(#buckets), #width, mask);
            }
        }
    });
    let encodes: Vec<_> = gens.iter().map(|g| encode_field(g, quote!(buf))).collect();

    let lens: Vec<_> = gens
        .iter()
        .map(|g| {
            let Gen {
                f,
                codec,
                mask,
                hash,
                span,
            } = g;
            let member = &f.member;
            let ty = f.ty;
            let h = hash.map_or(0, |(l, _)| l);
            quote_spanned!(*span=> + #h + <#codec as #pv::Codec<#ty>>::len(&self.#member, #mask))
        })
        .collect();

    // decode
    let decodes: Vec<_> = gens
        .iter()
        .map(|g| {
            let Gen { f, codec, mask, hash, span } = g;
            let ty = f.ty;
            let var = &f.var;
            let fname = &f.name;
            let (take_hash, check_hash) = match hash {
                Some((len, raw)) => (
                    Some(quote! {
                        let __hp_at = __pos;
                        let __hp = #pv::take_hash(input, __pos, #len).map_err(|e| e.in_field(#fname, 0))?;
                        __pos += #len;
                    }),
                    Some(quote! {
                        #pv::check_hash(&#var, #len, #raw, __hp).map_err(|e| e.in_field(#fname, __hp_at))?;
                    }),
                ),
                None => (None, None),
            };
            let salt_check = salt.as_ref().filter(|s| s.through == f.index).map(|s| {
                let buckets = s.buckets;
                let sname = &s.field_name;
                if s.modulo {
                    quote! {
                        #pv::check_salt_value(__salt, #pv::modulo_salt(#var, #buckets)).map_err(|e| e.in_field(#sname, 0))?;
                    }
                } else {
                    quote! {
                        #pv::check_salt(#pv::slice(input, #salt_width, __pos), __salt, #buckets).map_err(|e| e.in_field(#sname, 0))?;
                    }
                }
            });
            quote_spanned! {*span=>
                #take_hash
                let (#var, __n) = <#codec as #pv::Decode<'__de, #ty>>::decode(#pv::rest(input, __pos), #mask)
                    .map_err(|e| e.in_field(#fname, __pos))?;
                #check_hash
                __pos += __n;
                #salt_check
                __visit.field(#fname, __pos, &#var);
            }
        })
        .collect();
    let salt_decode = salt.as_ref().map(|s| {
        let width = s.width;
        let sname = &s.field_name;
        quote! {
            let __salt = #pv::get_salt(input, #width, mask).map_err(|e| e.in_field(#sname, 0))?;
            __pos += #width;
            __visit.salt(__salt);
        }
    });
    let vars: Vec<_> = fields.iter().map(|f| &f.var).collect();
    let construct = if tuple {
        quote!(Self(#(#vars),*))
    } else {
        let members: Vec<_> = fields.iter().map(|f| &f.member).collect();
        quote!(Self { #(#members: #vars),* })
    };

    // layout
    let field_layouts: Vec<_> = gens
        .iter()
        .map(|g| {
            let f = g.f;
            let fname = &f.name;
            let ty = f.ty;
            let ty_str = ty.to_token_stream().to_string().replace(' ', "");
            let codec = &g.codec;
            let enc = encoding_expr(f, codec, krate, container_java);
            let desc = f.attrs.desc.is_some();
            let hp = match g.hash {
                Some((w, raw)) => quote!(::core::option::Option::Some(#krate::layout::HashPrefix { width: #w, raw: #raw })),
                None => quote!(::core::option::Option::None),
            };
            quote! {
                #krate::layout::FieldLayout {
                    name: #fname,
                    ty: #ty_str,
                    encoding: #enc,
                    width: <#codec as #pv::Codec<#ty>>::WIDTH,
                    desc: #desc,
                    hash_prefix: #hp,
                }
            }
        })
        .collect();
    let width_sum = gens.iter().fold(quote!(::core::option::Option::Some(#salt_width)), |acc, g| {
        let codec = &g.codec;
        let ty = g.f.ty;
        let h = g.hash.map_or(0, |(l, _)| l);
        quote!(#pv::add_width(#pv::add_width(#acc, ::core::option::Option::Some(#h)), <#codec as #pv::Codec<#ty>>::WIDTH))
    });
    let salt_layout = match &salt {
        Some(s) => {
            let (b, w, t) = (s.buckets, s.width, s.through);
            let kind = if s.modulo {
                quote!(#krate::layout::SaltKind::Modulo)
            } else {
                quote!(#krate::layout::SaltKind::Phoenix)
            };
            quote!(::core::option::Option::Some(#krate::layout::SaltLayout { buckets: #b, width: #w, through_field: #t, kind: #kind }))
        }
        None => quote!(::core::option::Option::None),
    };
    let max_len = p.attrs.max_len.as_ref().map(|m| m.value.0);
    let max_len_expr = match max_len {
        Some(m) => quote!(::core::option::Option::Some(#m)),
        None => quote!(::core::option::Option::None),
    };
    let max_len_check = max_len.map(|m| {
        quote! {
            if <Self as #krate::RowKey>::LAYOUT.fixed_width.is_none() {
                #pv::check_max_len(<Self as #pv::KeyParts>::len_masked(self, 0), #m)?;
            }
        }
    });

    // compile-time checks that need the trait system: non-last fields must be self-delimiting;
    // a fixed-width key must fit max_len.
    let last = fields.len() - 1;
    let delimit_checks: Vec<_> = gens
        .iter()
        .filter(|g| g.f.index != last && !g.f.kind.is_var_len() && valid::syntactic_width(g.f).is_none())
        .map(|g| {
            let codec = &g.codec;
            let ty = g.f.ty;
            let msg = format!(
                "rowkey: field `{}` of `{}` is not self-delimiting but not the last field: its encoding must be fixed-width or terminated (add #[sep] or #[pad(N)], or make the nested key end in a fixed-width or separated field)",
                g.f.name, name_str
            );
            quote_spanned!(g.span=> ::core::assert!(<#codec as #pv::Codec<#ty>>::PREFIX_FREE, #msg);)
        })
        .collect();
    let max_len_const = max_len.map(|m| {
        let msg = format!(
            "rowkey: key `{name_str}` is fixed-width and longer than #[rowkey(max_len = {m})]"
        );
        let span = p
            .attrs
            .max_len
            .as_ref()
            .map_or(Span::call_site(), |a| a.value.1);
        quote_spanned! {span=>
            if let ::core::option::Option::Some(w) = <#name as #krate::RowKey>::LAYOUT.fixed_width {
                ::core::assert!(w <= #m, #msg);
            }
        }
    });
    let (item_checks, inline_checks) = if generic {
        let c = quote!(const { #(#delimit_checks)* });
        (None, Some(c))
    } else {
        (
            Some(quote!(const _: () = { #(#delimit_checks)* #max_len_const };)),
            None,
        )
    };

    // decode generics: add '__de outliving every lifetime of the type
    let mut de_generics = p.original.generics.clone();
    let lifetimes: Vec<_> = de_generics
        .lifetimes()
        .map(|l| l.lifetime.clone())
        .collect();
    de_generics.params.insert(
        0,
        syn::GenericParam::Lifetime(syn::LifetimeParam {
            attrs: Vec::new(),
            lifetime: syn::Lifetime::new("'__de", Span::call_site()),
            colon_token: (!lifetimes.is_empty()).then(Default::default),
            bounds: lifetimes.into_iter().collect(),
        }),
    );
    let (de_impl_g, _, _) = de_generics.split_for_impl();
    let elided = elided_type(p);

    let last_g = &gens[last];
    let last_codec = &last_g.codec;
    let last_ty = last_g.f.ty;

    let show_fields: Vec<_> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let member = &f.member;
            let sep = if i == 0 { "" } else { ", " };
            let label = if tuple {
                String::new()
            } else {
                format!("{}: ", f.name)
            };
            let label = format!("{sep}{label}");
            quote! {
                out.push_str(#label);
                #pv::Show::show(&self.#member, out);
            }
        })
        .collect();
    let (open, close) = if tuple {
        (format!("{name_str}("), ")")
    } else {
        (format!("{name_str} {{ "), " }")
    };

    let codecs: Vec<_> = gens.iter().map(|g| g.codec.clone()).collect();
    let salt_info = salt.as_ref().map(|s| crate::scan::SaltInfo {
        buckets: s.buckets,
        width: s.width,
        through: s.through,
        modulo: s.modulo,
    });
    let scan = crate::scan::expand(p, krate, fields, &codecs, salt_info.as_ref());

    quote! {
        #item_checks

        impl #impl_g #krate::RowKey for #name #ty_g #where_c {
            const LAYOUT: &'static #krate::layout::Layout = &#krate::layout::Layout {
                name: #name_str,
                fields: &[#(#field_layouts),*],
                salt: #salt_layout,
                fixed_width: #width_sum,
                max_len: #max_len_expr,
            };

            #[inline]
            fn encode_into<__B: #pv::bytes::BufMut>(&self, buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                #max_len_check
                <Self as #pv::KeyParts>::encode_masked(self, buf, 0)
            }

            #[inline]
            fn encoded_len(&self) -> usize {
                <Self as #pv::KeyParts>::len_masked(self, 0)
            }

            fn describe(bytes: &[u8]) -> #pv::std::string::String {
                #pv::describe::<#elided>(bytes)
            }
        }

        impl #impl_g #pv::KeyParts for #name #ty_g #where_c {
            #[inline]
            fn encode_masked<__B: #pv::bytes::BufMut>(&self, buf: &mut __B, mask: u8) -> ::core::result::Result<(), #pv::EncodeError> {
                #inline_checks
                #salt_encode
                #(#encodes)*
                ::core::result::Result::Ok(())
            }

            #[inline]
            fn len_masked(&self, mask: u8) -> usize {
                #salt_width #(#lens)*
            }
        }

        impl #de_impl_g #krate::DecodeRowKey<'__de> for #name #ty_g #where_c {
            #[inline]
            fn decode_visit<__V: #pv::Visit>(input: &'__de [u8], mask: u8, __visit: &mut __V)
                -> ::core::result::Result<(Self, usize), #pv::DecodeError>
            {
                #inline_checks
                let mut __pos: usize = 0;
                #salt_decode
                #(#decodes)*
                ::core::result::Result::Ok((#construct, __pos))
            }
        }

        impl #impl_g #pv::Codec<#name #ty_g> for #krate::codec::Natural #where_c {
            const WIDTH: ::core::option::Option<usize> = <#name #ty_g as #krate::RowKey>::LAYOUT.fixed_width;
            const PREFIX_FREE: bool = <#last_codec as #pv::Codec<#last_ty>>::PREFIX_FREE;
            #[inline]
            fn len(v: &#name #ty_g, mask: u8) -> usize {
                <#name #ty_g as #pv::KeyParts>::len_masked(v, mask)
            }
            #[inline]
            fn encode<__B: #pv::bytes::BufMut>(v: &#name #ty_g, buf: &mut __B, mask: u8) -> ::core::result::Result<(), #pv::EncodeError> {
                <#name #ty_g as #pv::KeyParts>::encode_masked(v, buf, mask)
            }
        }

        impl #de_impl_g #pv::Decode<'__de, #name #ty_g> for #krate::codec::Natural #where_c {
            #[inline]
            fn decode(input: &'__de [u8], mask: u8) -> ::core::result::Result<(#name #ty_g, usize), #pv::DecodeError> {
                <#name #ty_g as #krate::DecodeRowKey<'__de>>::decode_visit(input, mask, &mut #pv::NoVisit)
            }
        }

        impl #impl_g #pv::Show for #name #ty_g #where_c {
            fn show(&self, out: &mut #pv::std::string::String) {
                out.push_str(#open);
                #(#show_fields)*
                out.push_str(#close);
            }
        }

        #scan
    }
}

/// The type with every lifetime elided (`Foo<'_>`), for calls that pick their own lifetime.
fn elided_type(p: &Input) -> TokenStream {
    let name = p.name();
    let g = &p.original.generics;
    if g.params.is_empty() {
        return quote!(#name);
    }
    let args: Vec<TokenStream> = g
        .params
        .iter()
        .map(|param| match param {
            syn::GenericParam::Lifetime(_) => quote!('_),
            syn::GenericParam::Type(t) => t.ident.to_token_stream(),
            syn::GenericParam::Const(c) => c.ident.to_token_stream(),
        })
        .collect();
    quote!(#name<#(#args),*>)
}

fn expand_enum(
    p: &Input,
    krate: &TokenStream,
    variants: &[Variant],
    repr: Option<&(syn::Ident, TyKind)>,
) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let pv = quote!(#krate::__private);
    let (impl_g, ty_g, where_c) = p.original.generics.split_for_impl();
    let repr_ty = match repr {
        Some((id, _)) => quote!(#id),
        None => quote!(u8),
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
                    const #c: u8 = {
                        ::core::assert!((#name::#id as i128) >= 0 && (#name::#id as i128) <= 255, #msg);
                        #name::#id as u8
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
    let repr_str = repr_ty.to_string();
    quote! {
        #(#code_consts)*

        impl #impl_g #pv::Codec<#name #ty_g> for #krate::codec::Natural #where_c {
            const WIDTH: ::core::option::Option<usize> = <#krate::codec::Natural as #pv::Codec<#repr_ty>>::WIDTH;
            const PREFIX_FREE: bool = true;
            #[inline]
            fn len(_: &#name #ty_g, _: u8) -> usize {
                ::core::mem::size_of::<#repr_ty>()
            }
            #[inline]
            fn encode<__B: #pv::bytes::BufMut>(v: &#name #ty_g, buf: &mut __B, mask: u8) -> ::core::result::Result<(), #pv::EncodeError> {
                let code: #repr_ty = match v { #(#name::#idents => #codes,)* };
                <#krate::codec::Natural as #pv::Codec<#repr_ty>>::encode(&code, buf, mask)
            }
        }

        impl<'__de> #pv::Decode<'__de, #name #ty_g> for #krate::codec::Natural #where_c {
            #[inline]
            fn decode(input: &'__de [u8], mask: u8) -> ::core::result::Result<(#name #ty_g, usize), #pv::DecodeError> {
                let (code, n) = <#krate::codec::Natural as #pv::Decode<'__de, #repr_ty>>::decode(input, mask)?;
                #( if code == #codes { return ::core::result::Result::Ok((#name::#idents, n)); } )*
                ::core::result::Result::Err(#pv::unknown_variant(code as u64))
            }
        }

        impl #impl_g #krate::RowKey for #name #ty_g #where_c {
            const LAYOUT: &'static #krate::layout::Layout = &#krate::layout::Layout {
                name: #name_str,
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
            fn encode_into<__B: #pv::bytes::BufMut>(&self, buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                <#krate::codec::Natural as #pv::Codec<Self>>::encode(self, buf, 0)
            }

            #[inline]
            fn encoded_len(&self) -> usize {
                ::core::mem::size_of::<#repr_ty>()
            }

            fn describe(bytes: &[u8]) -> #pv::std::string::String {
                #pv::describe::<Self>(bytes)
            }
        }

        impl<'__de> #krate::DecodeRowKey<'__de> for #name #ty_g #where_c {
            #[inline]
            fn decode_visit<__V: #pv::Visit>(input: &'__de [u8], mask: u8, __visit: &mut __V)
                -> ::core::result::Result<(Self, usize), #pv::DecodeError>
            {
                let (v, n) = <#krate::codec::Natural as #pv::Decode<'__de, Self>>::decode(input, mask)
                    .map_err(|e| e.in_field("code", 0))?;
                __visit.field("code", n, &v);
                ::core::result::Result::Ok((v, n))
            }
        }

        impl #impl_g #pv::Show for #name #ty_g #where_c {
            fn show(&self, out: &mut #pv::std::string::String) {
                out.push_str(match self { #(#name::#idents => #names,)* });
            }
        }
    }
}
