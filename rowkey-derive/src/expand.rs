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
    let tool = crate::tool::expand(&p, &krate);
    Ok(quote! {
        #[automatically_derived]
        #[allow(
            non_upper_case_globals,
            non_snake_case,
            non_camel_case_types,
            unused_qualifications,
            unused_variables,
            unused_mut,
            clippy::all,
            clippy::pedantic,
            clippy::nursery
        )]
        const _: () = {
            #body
            #tool
        };
    })
}

/// Give every token of `ts` the span `span` (a field's type), so that trait errors in the
/// generated code point at the field rather than at `#[derive(RowKey)]`.
pub fn respan(ts: TokenStream, span: Span) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    ts.into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                TokenTree::Group(ng)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

pub fn krate_path(p: &Input) -> TokenStream {
    match &p.attrs.krate {
        Some(k) => k.value.to_token_stream(),
        None => quote!(::rowkey),
    }
}

/// The encoding a field's attributes and (syntactic) type select — decided once, rendered both
/// as the codec type and as the `LAYOUT` entry.
enum Encoding {
    Natural,
    Java,
    Pad { len: usize, fill: u8 },
    Sep,
    SepByte(u8),
    ReverseTs,
}

struct FieldEnc {
    base: Encoding,
    reverse: bool,
}

impl FieldEnc {
    fn of(f: &Field, container_java: bool) -> FieldEnc {
        let a = &f.attrs;
        let base = if let Some(p) = &a.pad {
            Encoding::Pad {
                len: p.value.len,
                fill: p.value.fill.map_or(0, |(b, _)| b),
            }
        } else if let Some(s) = &a.sep {
            s.value.map_or(Encoding::Sep, Encoding::SepByte)
        } else if a.reverse_ts.is_some() {
            Encoding::ReverseTs
        } else if a.java.is_some()
            // container java covers scalar fields, but not #[reverse] ones (reversal is of the
            // natural encoding)
            || (container_java
                && a.reverse.is_none()
                && matches!(
                    f.kind.inner(),
                    TyKind::Unsigned(_) | TyKind::Signed(_) | TyKind::Float(_) | TyKind::Bool
                ))
        {
            Encoding::Java
        } else {
            Encoding::Natural
        };
        FieldEnc {
            base,
            reverse: a.reverse.is_some(),
        }
    }

    /// The codec type.
    fn codec(&self, krate: &TokenStream) -> TokenStream {
        let c = quote!(#krate::codec);
        let base = match self.base {
            Encoding::Natural => quote!(#c::Natural),
            Encoding::Java => quote!(#c::Java),
            Encoding::Pad { len, fill } => quote!(#c::Pad<#len, #fill>),
            Encoding::Sep => quote!(#c::Sep),
            Encoding::SepByte(b) => quote!(#c::SepByte<#b>),
            Encoding::ReverseTs => quote!(#c::ReverseTs),
        };
        if self.reverse {
            quote!(#c::Reverse<#base>)
        } else {
            base
        }
    }

    /// The `layout::FieldEncoding` value.
    fn layout(&self, codec_ty: &TokenStream, ty: &syn::Type, krate: &TokenStream) -> TokenStream {
        let e = quote!(#krate::layout::FieldEncoding);
        if self.reverse {
            let padded = matches!(self.base, Encoding::Pad { .. });
            return quote!(#e::Reverse {
                len: match <#codec_ty as #krate::__private::Codec<#ty>>::WIDTH { ::core::option::Option::Some(__w) => __w, ::core::option::Option::None => 0 },
                padded: #padded,
            });
        }
        match self.base {
            Encoding::Natural => quote!(#e::Natural),
            Encoding::Java => quote!(#e::Java),
            Encoding::Pad { len, fill } => quote!(#e::Pad { len: #len, fill: #fill }),
            Encoding::Sep => quote!(#e::Sep),
            Encoding::SepByte(b) => quote!(#e::SepByte(#b)),
            Encoding::ReverseTs => quote!(#e::ReverseTs),
        }
    }
}

struct Gen<'a> {
    f: &'a Field<'a>,
    enc: FieldEnc,
    codec: TokenStream,
    mask: TokenStream,
    hash: Option<(usize, bool)>,
    span: Span,
}

fn expand_struct(p: &Input, krate: &TokenStream, fields: &[Field], tuple: bool) -> TokenStream {
    let name = p.name();
    let name_str = crate::ast::unraw(name);
    let (impl_g, ty_g, _) = p.original.generics.split_for_impl();
    let generic = p.original.generics.type_params().next().is_some()
        || p.original.generics.const_params().next().is_some();
    let container_java = p.attrs.java.is_some();
    let pv = quote!(#krate::__private);

    let gens: Vec<Gen> = fields
        .iter()
        .map(|f| {
            let enc = FieldEnc::of(f, container_java);
            let codec = enc.codec(krate);
            Gen {
                f,
                enc,
                codec,
                mask: if f.attrs.desc.is_some() {
                    quote!(__mask ^ 0xFF)
                } else {
                    quote!(__mask)
                },
                hash: f
                    .attrs
                    .hash_prefix
                    .as_ref()
                    .map(|h| (h.value.len, h.value.raw)),
                span: f.ty.span(),
            }
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
            ..
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
                .map_err(|__e| __e.in_field(#fname))?;
        }
    };

    let salt_width = salt.as_ref().map_or(0, |s| s.width);
    let salt_encode = salt.as_ref().map(|s| {
        let buckets = s.buckets;
        let width = s.width;
        if s.modulo {
            let f = &fields[0].member;
            quote!(#pv::put_salt(__buf, #pv::modulo_salt(self.#f, #buckets), #width, __mask);)
        } else {
            let hashed: Vec<_> = gens[..=s.through]
                .iter()
                .map(|g| respan(encode_field(g, quote!(&mut __h)), g.span))
                .collect();
            quote! {
                let mut __h = #pv::PhoenixHash::new();
                #(#hashed)*
                #pv::put_salt(__buf, __h.bucket(#buckets), #width, __mask);
            }
        }
    });
    let encodes: Vec<_> = gens
        .iter()
        .map(|g| respan(encode_field(g, quote!(__buf)), g.span))
        .collect();

    let lens: Vec<_> = gens
        .iter()
        .map(|g| {
            let Gen {
                f,
                codec,
                mask,
                hash,
                span, .. } = g;
            let member = &f.member;
            let ty = f.ty;
            let h = hash.map_or(0, |(l, _)| l);
            respan(quote_spanned!(*span=> + #h + <#codec as #pv::Codec<#ty>>::len(&self.#member, #mask)), *span)
        })
        .collect();

    // decode
    let decodes: Vec<_> = gens
        .iter()
        .map(|g| {
            let Gen { f, codec, mask, hash, span, .. } = g;
            let ty = f.ty;
            let var = &f.var;
            let fname = &f.name;
            let (take_hash, check_hash) = match hash {
                Some((len, raw)) => (
                    Some(quote! {
                        let __hp_at = __pos;
                        let __hp = #pv::take_hash(__input, __pos, #len).map_err(|__e| __e.in_field(#fname, 0))?;
                        __pos += #len;
                    }),
                    Some(quote! {
                        #pv::check_hash(&#var, #len, #raw, __hp).map_err(|__e| __e.in_field(#fname, __hp_at))?;
                    }),
                ),
                None => (None, None),
            };
            let salt_check = salt.as_ref().filter(|s| s.through == f.index).map(|s| {
                let buckets = s.buckets;
                let sname = &s.field_name;
                if s.modulo {
                    quote! {
                        #pv::check_salt_value(__salt, #pv::modulo_salt(#var, #buckets)).map_err(|__e| __e.in_field(#sname, 0))?;
                    }
                } else {
                    quote! {
                        #pv::check_salt(#pv::slice(__input, #salt_width, __pos), __salt, #buckets).map_err(|__e| __e.in_field(#sname, 0))?;
                    }
                }
            });
            respan(quote_spanned! {*span=>
                #take_hash
                let (#var, __n) = <#codec as #pv::Decode<'__de, #ty>>::decode(#pv::rest(__input, __pos), #mask)
                    .map_err(|__e| __e.in_field(#fname, __pos))?;
                #check_hash
                __pos += __n;
                #salt_check
                __visit.field(#fname, __pos, &#var);
            }, *span)
        })
        .collect();
    let salt_decode = salt.as_ref().map(|s| {
        let width = s.width;
        let sname = &s.field_name;
        quote! {
            let __salt = #pv::get_salt(__input, #width, __mask).map_err(|__e| __e.in_field(#sname, 0))?;
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
            let ty_str = crate::ast::type_string(ty);
            let codec = &g.codec;
            let enc = g.enc.layout(codec, ty, krate);
            let desc = f.attrs.desc.is_some();
            let hp = match g.hash {
                Some((w, raw)) => quote!(::core::option::Option::Some(#krate::layout::HashPrefix { width: #w, raw: #raw })),
                None => quote!(::core::option::Option::None),
            };
            respan(quote! {
                #krate::layout::FieldLayout {
                    name: #fname,
                    ty: #ty_str,
                    encoding: #enc,
                    width: <#codec as #pv::Codec<#ty>>::WIDTH,
                    desc: #desc,
                    hash_prefix: #hp,
                }
            }, g.span)
        })
        .collect();
    let width_sum = gens.iter().fold(
        quote!(::core::option::Option::Some(#salt_width)),
        |acc, g| {
            let codec = &g.codec;
            let ty = g.f.ty;
            let h = g.hash.map_or(0, |(l, _)| l);
            let w = respan(quote!(<#codec as #pv::Codec<#ty>>::WIDTH), g.span);
            quote!(#pv::add_width(#pv::add_width(#acc, ::core::option::Option::Some(#h)), #w))
        },
    );
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
                "rowkey: field `{}` of `{}` is not the last field, but its type `{}` does not mark its own end \
                 (a nested key whose last field is variable-length and unterminated): a prefix scan for `web1` would also return `web12`, \
                 and keys could not be decoded. Give the last field of that type #[sep] or #[pad(N)], or move `{}` last",
                g.f.name,
                name_str,
                crate::ast::type_string(g.f.ty),
                g.f.name
            );
            if generic {
                // the check depends on type parameters: a const assertion at monomorphization
                respan(quote!(::core::assert!(<#codec as #pv::Codec<#ty>>::PREFIX_FREE, #msg);), g.span)
            } else {
                // a trait bound that only holds when the nested key is self-delimiting, so the
                // failure is a normal error with the message of `__private::SelfDelimited`
                let fields_mod = format_ident!("__{}Fields", name_str);
                let field = crate::scan::method_ident(g.f, "");
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
                    g.span,
                )
            }
        })
        .collect();
    let max_len_const = max_len.map(|m| {
        let msg = format!(
            "rowkey: key `{name_str}` is fixed-width and longer than #[rowkey(max_len = {m})]: every byte of a row key is stored again \
             in every cell of the row; shorten fields (codes instead of names, binary instead of decimal) or raise max_len"
        );
        let span = p
            .attrs
            .max_len
            .as_ref()
            .map_or(Span::call_site(), |a| a.value.1);
        quote_spanned! {span=>
            if let ::core::option::Option::Some(__w) = <#name as #krate::RowKey>::LAYOUT.fixed_width {
                ::core::assert!(__w <= #m, #msg);
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
    let (where_enc, where_dec, where_all) = generic_bounds(p, &gens, krate);
    let last_prefix_free = respan(
        quote!(<#last_codec as #pv::Codec<#last_ty>>::PREFIX_FREE),
        last_g.span,
    );

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
            let show = respan(quote!(#pv::Show::show(&self.#member, __out);), f.ty.span());
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

    let codecs: Vec<_> = gens.iter().map(|g| g.codec.clone()).collect();
    let salt_info = salt.as_ref().map(|s| crate::scan::SaltInfo {
        buckets: s.buckets,
        width: s.width,
        through: s.through,
        modulo: s.modulo,
    });
    let scan = crate::scan::expand(p, krate, fields, &codecs, salt_info.as_ref(), &where_enc);

    quote! {
        #item_checks

        impl #impl_g #krate::RowKey for #name #ty_g #where_all {
            const LAYOUT: &'static #krate::layout::Layout = &#krate::layout::Layout {
                name: #name_str,
                fields: &[#(#field_layouts),*],
                salt: #salt_layout,
                fixed_width: #width_sum,
                max_len: #max_len_expr,
            };

            #[inline]
            fn encode_into<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B) -> ::core::result::Result<(), #pv::EncodeError> {
                #max_len_check
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

        impl #impl_g #pv::KeyParts for #name #ty_g #where_enc {
            #[inline(always)]
            fn encode_masked<__B: #pv::bytes::BufMut>(&self, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                #inline_checks
                #salt_encode
                #(#encodes)*
                ::core::result::Result::Ok(())
            }

            #[inline(always)]
            fn len_masked(&self, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                #salt_width #(#lens)*
            }
        }

        impl #de_impl_g #krate::DecodeRowKey<'__de> for #name #ty_g #where_dec {
            #[inline(always)]
            fn decode_visit<__V: #pv::Visit>(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8, __visit: &mut __V)
                -> ::core::result::Result<(Self, ::core::primitive::usize), #pv::DecodeError>
            {
                #inline_checks
                let mut __pos: ::core::primitive::usize = 0;
                #salt_decode
                #(#decodes)*
                ::core::result::Result::Ok((#construct, __pos))
            }
        }

        impl #impl_g #pv::Codec<#name #ty_g> for #krate::codec::Natural #where_all {
            const WIDTH: ::core::option::Option<::core::primitive::usize> = <#name #ty_g as #krate::RowKey>::LAYOUT.fixed_width;
            const PREFIX_FREE: ::core::primitive::bool = #last_prefix_free;
            #[inline]
            fn len(__v: &#name #ty_g, __mask: ::core::primitive::u8) -> ::core::primitive::usize {
                <#name #ty_g as #pv::KeyParts>::len_masked(__v, __mask)
            }
            #[inline]
            fn encode<__B: #pv::bytes::BufMut>(__v: &#name #ty_g, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                <#name #ty_g as #pv::KeyParts>::encode_masked(__v, __buf, __mask)
            }
        }

        impl #de_impl_g #pv::Decode<'__de, #name #ty_g> for #krate::codec::Natural #where_dec {
            #[inline]
            fn decode(__input: &'__de [::core::primitive::u8], __mask: ::core::primitive::u8) -> ::core::result::Result<(#name #ty_g, ::core::primitive::usize), #pv::DecodeError> {
                <#name #ty_g as #krate::DecodeRowKey<'__de>>::decode_visit(__input, __mask, &mut #pv::NoVisit)
            }
        }

        impl #impl_g #pv::Show for #name #ty_g #where_enc {
            fn show(&self, __out: &mut #pv::std::string::String) {
                __out.push_str(#open);
                #(#show_fields)*
                __out.push_str(#close);
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
            #[inline]
            fn len(_: &#name #ty_g, _: ::core::primitive::u8) -> ::core::primitive::usize {
                ::core::mem::size_of::<#repr_ty>()
            }
            #[inline]
            fn encode<__B: #pv::bytes::BufMut>(__v: &#name #ty_g, __buf: &mut __B, __mask: ::core::primitive::u8) -> ::core::result::Result<(), #pv::EncodeError> {
                let __code: #repr_ty = match __v { #(#name::#idents => #codes,)* };
                <#krate::codec::Natural as #pv::Codec<#repr_ty>>::encode(&__code, __buf, __mask)
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
    }
}

/// For generic keys: the bounds each field's type needs, added to the impls' where clauses so
/// that users write none. Returns (encode + show, decode at `'__de`, encode + show + decode at
/// every lifetime).
fn generic_bounds(
    p: &Input,
    gens: &[Gen],
    krate: &TokenStream,
) -> (syn::WhereClause, syn::WhereClause, syn::WhereClause) {
    let generics = &p.original.generics;
    let params: Vec<String> = generics
        .type_params()
        .map(|t| t.ident.to_string())
        .collect();
    let mut enc = generics
        .where_clause
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(where));
    let mut dec = enc.clone();
    let mut all = enc.clone();
    let pv = quote!(#krate::__private);
    for g in gens {
        if !mentions(g.f.ty.to_token_stream(), &params) {
            continue;
        }
        let (codec, ty) = (&g.codec, g.f.ty);
        enc.predicates
            .push(syn::parse_quote!(#codec: #pv::Codec<#ty>));
        enc.predicates.push(syn::parse_quote!(#ty: #pv::Show));
        dec.predicates
            .push(syn::parse_quote!(#codec: for<'__x> #pv::Decode<'__x, #ty>));
        dec.predicates.push(syn::parse_quote!(#ty: #pv::Show));
        all.predicates
            .push(syn::parse_quote!(#codec: for<'__x> #pv::Decode<'__x, #ty>));
        all.predicates.push(syn::parse_quote!(#ty: #pv::Show));
    }
    (enc, dec, all)
}

fn mentions(ts: TokenStream, params: &[String]) -> bool {
    use proc_macro2::TokenTree;
    ts.into_iter().any(|tt| match tt {
        TokenTree::Ident(i) => params.iter().any(|p| i == p),
        TokenTree::Group(g) => mentions(g.stream(), params),
        _ => false,
    })
}
