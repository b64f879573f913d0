//! Parse the helper attributes into typed values. Simple checks (argument shapes, ranges,
//! duplicates, unknown names) happen here; cross-field rules live in `valid.rs`.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Lit, LitInt, Token};

use crate::ctxt::Ctxt;
use crate::symbol::*;

/// An attribute value with the attribute it came from (for error spans).
pub struct Attr<'a, T> {
    pub original: &'a Attribute,
    pub value: T,
}

pub struct Pad {
    pub len: usize,
    pub fill: Option<(u8, Span)>,
}

pub struct Salt {
    pub buckets: u64,
    pub modulo: Option<Span>,
    /// `fields(a, b)` of a container salt: the fields the salt hashes (empty: all).
    pub fields: Vec<syn::Ident>,
}

pub struct HashPrefix {
    pub len: usize,
    pub raw: bool,
}

#[derive(Default)]
pub struct FieldAttrs<'a> {
    /// A `#[pad]` or `#[sep]` was written, even if invalid (so check 1 does not pile on).
    pub delimited: bool,
    pub pad: Option<Attr<'a, Pad>>,
    pub sep: Option<Attr<'a, Option<u8>>>,
    pub reverse_ts: Option<Attr<'a, ()>>,
    pub desc: Option<Attr<'a, ()>>,
    pub salt: Option<Attr<'a, Salt>>,
    pub hash_prefix: Option<Attr<'a, HashPrefix>>,
    pub reverse: Option<Attr<'a, ()>>,
    pub java: Option<Attr<'a, ()>>,
}

impl<'a> FieldAttrs<'a> {
    /// The attribute named `name` (a [`crate::symbol`] name), if present.
    pub fn get(&self, name: &str) -> Option<&'a Attribute> {
        match name {
            PAD => self.pad.as_ref().map(|a| a.original),
            SEP => self.sep.as_ref().map(|a| a.original),
            REVERSE_TS => self.reverse_ts.as_ref().map(|a| a.original),
            DESC => self.desc.as_ref().map(|a| a.original),
            SALT => self.salt.as_ref().map(|a| a.original),
            HASH_PREFIX => self.hash_prefix.as_ref().map(|a| a.original),
            REVERSE => self.reverse.as_ref().map(|a| a.original),
            JAVA => self.java.as_ref().map(|a| a.original),
            _ => None,
        }
    }
}

#[derive(Default)]
pub struct ContainerAttrs<'a> {
    pub salt: Option<Attr<'a, Salt>>,
    pub max_len: Option<Attr<'a, (usize, Span)>>,
    pub allow_hotspot: Option<Attr<'a, ()>>,
    pub java: Option<Attr<'a, ()>>,
    pub krate: Option<Attr<'a, syn::Path>>,
    /// `prefix = b".."`: constant bytes at the start of every key.
    pub prefix: Option<Attr<'a, Vec<u8>>>,
    /// `phoenix` / `phoenix(row_key_order_optimizable = false)`: the key is an Apache Phoenix
    /// primary key.
    pub phoenix: Option<Attr<'a, Phoenix>>,
    /// `bigtable(ordered_code | delimited = b".." | singleton [, big_endian])`: the key is a
    /// Bigtable `Type.Struct` row key.
    pub bigtable: Option<Attr<'a, Bigtable>>,
}

/// `#[rowkey(bigtable(..))]`.
pub struct Bigtable {
    pub join: BigtableJoin,
    /// `big_endian`: Int64/Timestamp fields in `BigEndianBytes` (else `OrderedCodeBytes`).
    pub big_endian: bool,
}

/// The struct encoding of `#[rowkey(bigtable(..))]`.
pub enum BigtableJoin {
    OrderedCode,
    /// The delimiter (1 to 50 bytes).
    Delimited(Vec<u8>),
    Singleton,
}

/// `#[rowkey(phoenix(..))]`.
pub struct Phoenix {
    /// Phoenix's `rowKeyOrderOptimizable` (PHOENIX-2067): `0xFF` after DESC variable-width
    /// values. `true` unless the table predates it.
    pub optimizable: bool,
}

fn set<'a, T>(
    cx: &Ctxt,
    slot: &mut Option<Attr<'a, T>>,
    original: &'a Attribute,
    value: T,
    name: &str,
) {
    if slot.is_some() {
        cx.error_spanned_by(
            original,
            format!("duplicate #[{name}] attribute: each attribute may appear once per field"),
        );
    } else {
        *slot = Some(Attr { original, value });
    }
}

/// `#[name(N)]` or `#[name(N, key...)]`: the number, then each trailing `key` (and whatever
/// follows it) handed to `arg`.
fn parse_len_args(
    attr: &Attribute,
    usage: &str,
    mut arg: impl FnMut(&syn::Ident, syn::parse::ParseStream) -> syn::Result<()>,
) -> syn::Result<(usize, Span)> {
    attr.parse_args_with(|input: syn::parse::ParseStream| {
        let lit: LitInt = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), format!("needs a number: {usage}")))?;
        let len = (parse_usize(&lit)?, lit.span());
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            arg(&key, input)?;
        }
        Ok(len)
    })
}

fn parse_usize(lit: &LitInt) -> syn::Result<usize> {
    lit.base10_parse::<usize>()
}

fn byte_of(lit: &Lit, what: &str) -> syn::Result<(u8, Span)> {
    match lit {
        Lit::Byte(b) => Ok((b.value(), b.span())),
        Lit::Int(i) => i.base10_parse::<u8>().map(|v| (v, i.span())).map_err(|_| {
            syn::Error::new(i.span(), format!("{what} must be a byte: 0..=255 or b'x'"))
        }),
        Lit::Char(c) if c.value().is_ascii() => Ok((c.value() as u8, c.span())),
        other => Err(syn::Error::new(
            other.span(),
            format!("{what} must be a byte literal such as b'|' or 0x7C"),
        )),
    }
}

fn marker(cx: &Ctxt, attr: &Attribute, name: &str) -> bool {
    match attr.meta.require_path_only() {
        Ok(_) => true,
        Err(_) => {
            cx.error_spanned_by(attr, format!("#[{name}] takes no arguments"));
            false
        }
    }
}

/// The arguments of one `salt(..)` as they are parsed.
#[derive(Default)]
struct SaltArgs {
    buckets: Option<(u64, Span)>,
    modulo: Option<Span>,
    fields: Option<(Vec<syn::Ident>, Span)>,
}

pub fn parse_salt(meta_list: &Attribute, cx: &Ctxt) -> Option<Salt> {
    let mut args = SaltArgs::default();
    let res = meta_list.parse_nested_meta(|meta| parse_salt_arg(&meta, &mut args, false));
    finish_salt(cx, meta_list, res, args)
}

fn parse_salt_arg(meta: &ParseNestedMeta, args: &mut SaltArgs, container: bool) -> syn::Result<()> {
    let SaltArgs {
        buckets,
        modulo,
        fields,
    } = args;
    if meta.path.is_ident("buckets") {
        let lit: LitInt = meta.value()?.parse()?;
        if buckets.is_some() {
            return Err(meta.error("duplicate `buckets` argument"));
        }
        *buckets = Some((lit.base10_parse::<u64>()?, lit.span()));
        Ok(())
    } else if meta.path.is_ident("modulo") {
        if modulo.is_some() {
            return Err(meta.error("duplicate `modulo` argument"));
        }
        *modulo = Some(meta.path.span());
        Ok(())
    } else if meta.path.is_ident("fields") && container {
        if fields.is_some() {
            return Err(meta.error("duplicate `fields` argument"));
        }
        let content;
        syn::parenthesized!(content in meta.input);
        let names: Vec<syn::Ident> =
            syn::punctuated::Punctuated::<syn::Ident, Token![,]>::parse_terminated(&content)
                .map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        "`fields(..)` lists field names: fields(metric, tags)",
                    )
                })?
                .into_iter()
                .collect();
        *fields = Some((names, meta.path.span()));
        Ok(())
    } else {
        let valid = if container {
            "buckets = N, modulo, fields(a, b)"
        } else {
            "buckets = N, modulo (fields(..) is for #[rowkey(salt(..))] on the type)"
        };
        Err(meta.error(format!(
            "unknown salt argument `{}`; valid arguments: {valid}",
            path_str(&meta.path)
        )))
    }
}

fn finish_salt(cx: &Ctxt, attr: &Attribute, res: syn::Result<()>, args: SaltArgs) -> Option<Salt> {
    let SaltArgs {
        buckets,
        modulo,
        fields,
    } = args;
    if let Err(e) = res {
        cx.syn_error(e);
        return None;
    }
    let Some((n, span)) = buckets else {
        cx.error_spanned_by(
            attr,
            "salt needs a bucket count: #[salt(buckets = N)] with N in 1..=65536",
        );
        return None;
    };
    if n == 0 || n > 65536 {
        cx.syn_error(syn::Error::new(
            span,
            format!(
                "salt buckets must be in 1..=65536 (one salt byte up to 256 buckets, two above), got {n}"
            ),
        ));
        return None;
    }
    let fields = match fields {
        Some((names, span)) => {
            if names.is_empty() {
                cx.syn_error(syn::Error::new(
                    span,
                    "`fields()` names no field: list the fields the salt hashes, e.g. fields(metric, tags)",
                ));
                return None;
            }
            if let Some(m) = modulo {
                cx.syn_error(syn::Error::new(
                    m,
                    "`modulo` takes one unsigned field's value % N; it cannot hash chosen fields",
                ));
                return None;
            }
            names
        }
        None => Vec::new(),
    };
    Some(Salt {
        buckets: n,
        modulo,
        fields,
    })
}

fn path_str(p: &syn::Path) -> String {
    p.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

pub fn field_attrs<'a>(cx: &Ctxt, attrs: &'a [Attribute]) -> FieldAttrs<'a> {
    let mut out = FieldAttrs::default();
    for attr in attrs {
        let Some(ident) = attr.path().get_ident() else {
            continue;
        };
        let name = ident.to_string();
        match name.as_str() {
            PAD => {
                out.delimited = true;
                let mut fill = None;
                let usage = "#[pad(N)] or #[pad(N, fill = b' ')]";
                let res = parse_len_args(attr, usage, |key, input| {
                    if key != "fill" {
                        return Err(syn::Error::new(
                            key.span(),
                            format!("unknown pad argument `{key}`; valid: {usage}"),
                        ));
                    }
                    input.parse::<Token![=]>()?;
                    let lit: Lit = input.parse()?;
                    if fill.is_some() {
                        return Err(syn::Error::new(key.span(), "duplicate `fill` argument"));
                    }
                    fill = Some(byte_of(&lit, "fill")?);
                    Ok(())
                });
                match res {
                    Err(e) => cx.syn_error(e),
                    Ok((0, span)) => cx.syn_error(syn::Error::new(
                        span,
                        "#[pad(0)] makes every value empty: give the fixed width in bytes (strings/bytes) or digits (unsigned integers)",
                    )),
                    Ok((len, _)) => set(cx, &mut out.pad, attr, Pad { len, fill }, PAD),
                }
            }
            SEP => {
                out.delimited = true;
                if matches!(attr.meta, syn::Meta::Path(_)) {
                    set(cx, &mut out.sep, attr, None, SEP);
                } else {
                    let res = attr.parse_args_with(|input: syn::parse::ParseStream| {
                        let lit: Lit = input.parse()?;
                        let b = byte_of(&lit, "the separator")?;
                        if !input.is_empty() {
                            return Err(
                                input.error("#[sep] takes one byte: #[sep] or #[sep(b'|')]")
                            );
                        }
                        Ok(b)
                    });
                    match res {
                        Err(e) => cx.syn_error(e),
                        Ok((0, span)) => cx.syn_error(syn::Error::new(
                            span,
                            "#[sep(0)]: use plain #[sep], whose 0x00 terminator is escaped so that any content works",
                        )),
                        Ok((b, _)) => set(cx, &mut out.sep, attr, Some(b), SEP),
                    }
                }
            }
            REVERSE_TS if marker(cx, attr, REVERSE_TS) => {
                set(cx, &mut out.reverse_ts, attr, (), REVERSE_TS)
            }
            DESC if marker(cx, attr, DESC) => set(cx, &mut out.desc, attr, (), DESC),
            REVERSE if marker(cx, attr, REVERSE) => set(cx, &mut out.reverse, attr, (), REVERSE),
            SALT => {
                if let Some(s) = parse_salt(attr, cx) {
                    set(cx, &mut out.salt, attr, s, SALT);
                }
            }
            HASH_PREFIX => {
                let mut raw = false;
                let usage = "#[hash_prefix(N)] or #[hash_prefix(N, raw)]";
                let res = parse_len_args(attr, usage, |key, _| {
                    if key != "raw" {
                        return Err(syn::Error::new(
                            key.span(),
                            format!("unknown hash_prefix argument `{key}`; valid: {usage}"),
                        ));
                    }
                    if raw {
                        return Err(syn::Error::new(key.span(), "duplicate `raw` argument"));
                    }
                    raw = true;
                    Ok(())
                });
                match res {
                    Err(e) => cx.syn_error(e),
                    Ok((len, span)) => {
                        let max = if raw { 16 } else { 32 };
                        if len == 0 || len > max {
                            let unit = if raw {
                                "raw MD5 bytes"
                            } else {
                                "hex characters of MD5"
                            };
                            cx.syn_error(syn::Error::new(
                                span,
                                format!("#[hash_prefix({len}{})] is out of range: the prefix takes 1..={max} {unit}", if raw { ", raw" } else { "" }),
                            ));
                        } else {
                            set(
                                cx,
                                &mut out.hash_prefix,
                                attr,
                                HashPrefix { len, raw },
                                HASH_PREFIX,
                            );
                        }
                    }
                }
            }
            ROWKEY => {
                let res = attr.parse_nested_meta(|meta| {
                    if meta.path.is_ident(JAVA) {
                        set(cx, &mut out.java, attr, (), "rowkey(java)");
                        Ok(())
                    } else {
                        Err(meta.error(format!(
                            "unknown field attribute `rowkey({})`; on a field only #[rowkey(java)] is valid. Field attributes: {}",
                            path_str(&meta.path),
                            field_forms()
                        )))
                    }
                });
                if let Err(e) = res {
                    cx.syn_error(e);
                }
            }
            _ => {}
        }
    }
    out
}

pub fn container_attrs<'a>(cx: &Ctxt, attrs: &'a [Attribute]) -> ContainerAttrs<'a> {
    let mut out = ContainerAttrs::default();
    for attr in attrs {
        let Some(ident) = attr.path().get_ident() else {
            continue;
        };
        let name = ident.to_string();
        if is_field_attr(&name) {
            let hint = if name == SALT {
                " (to salt the whole key, write #[rowkey(salt(buckets = N))])"
            } else {
                ""
            };
            cx.error_spanned_by(
                attr,
                format!("#[{name}] belongs on a field, not on the type{hint}"),
            );
            continue;
        }
        if name != ROWKEY {
            continue;
        }
        let res = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("salt") {
                let mut args = SaltArgs::default();
                let r = meta.parse_nested_meta(|m| parse_salt_arg(&m, &mut args, true));
                if let Some(s) = finish_salt(cx, attr, r, args) {
                    set(cx, &mut out.salt, attr, s, "rowkey(salt)");
                }
                Ok(())
            } else if meta.path.is_ident("max_len") {
                let lit: LitInt = meta.value()?.parse()?;
                let n = parse_usize(&lit)?;
                if n == 0 {
                    return Err(syn::Error::new(lit.span(), "max_len must be at least 1"));
                }
                set(
                    cx,
                    &mut out.max_len,
                    attr,
                    (n, lit.span()),
                    "rowkey(max_len)",
                );
                Ok(())
            } else if meta.path.is_ident("allow_hotspot") {
                set(
                    cx,
                    &mut out.allow_hotspot,
                    attr,
                    (),
                    "rowkey(allow_hotspot)",
                );
                Ok(())
            } else if meta.path.is_ident(JAVA) {
                set(cx, &mut out.java, attr, (), "rowkey(java)");
                Ok(())
            } else if meta.path.is_ident("prefix") {
                let lit: Lit = meta.value()?.parse()?;
                let bytes = match &lit {
                    Lit::ByteStr(b) => b.value(),
                    Lit::Str(s) => s.value().into_bytes(),
                    other => {
                        return Err(syn::Error::new(
                            other.span(),
                            "prefix takes a byte string: prefix = b\"t1_\"",
                        ))
                    }
                };
                if bytes.is_empty() {
                    return Err(syn::Error::new(
                        lit.span(),
                        "an empty prefix adds nothing: drop it",
                    ));
                }
                set(cx, &mut out.prefix, attr, bytes, "rowkey(prefix)");
                Ok(())
            } else if meta.path.is_ident("phoenix") {
                let mut optimizable = true;
                if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|m| {
                        if m.path.is_ident("row_key_order_optimizable") {
                            let b: syn::LitBool = m.value()?.parse()?;
                            optimizable = b.value;
                            Ok(())
                        } else {
                            Err(m.error(format!(
                                "unknown phoenix argument `{}`; valid: phoenix(row_key_order_optimizable = false)",
                                path_str(&m.path)
                            )))
                        }
                    })?;
                }
                set(
                    cx,
                    &mut out.phoenix,
                    attr,
                    Phoenix { optimizable },
                    "rowkey(phoenix)",
                );
                Ok(())
            } else if meta.path.is_ident("bigtable") {
                let usage = "bigtable(ordered_code), bigtable(delimited = b\"#\") or bigtable(singleton), optionally with `, big_endian`";
                if !meta.input.peek(syn::token::Paren) {
                    return Err(meta.error(format!("#[rowkey(bigtable)] needs the struct encoding: {usage}")));
                }
                let mut join: Option<BigtableJoin> = None;
                let mut big_endian = false;
                meta.parse_nested_meta(|m| {
                    let j = if m.path.is_ident("ordered_code") {
                        BigtableJoin::OrderedCode
                    } else if m.path.is_ident("singleton") {
                        BigtableJoin::Singleton
                    } else if m.path.is_ident("delimited") {
                        let lit: Lit = m.value()?.parse()?;
                        let d = match &lit {
                            Lit::ByteStr(b) => b.value(),
                            Lit::Str(s) => s.value().into_bytes(),
                            other => {
                                return Err(syn::Error::new(
                                    other.span(),
                                    "delimited takes a byte string: delimited = b\"#\"",
                                ))
                            }
                        };
                        if d.is_empty() || d.len() > 50 {
                            // reported here; the key stays a struct key (no follow-on errors)
                            cx.syn_error(syn::Error::new(
                                lit.span(),
                                format!("a DelimitedBytes delimiter has 1 to 50 bytes, not {} (the admin API refuses the schema)", d.len()),
                            ));
                        }
                        BigtableJoin::Delimited(d)
                    } else if m.path.is_ident("big_endian") {
                        if big_endian {
                            return Err(m.error("duplicate `big_endian`"));
                        }
                        big_endian = true;
                        return Ok(());
                    } else {
                        return Err(m.error(format!(
                            "unknown bigtable argument `{}`; valid: {usage}",
                            path_str(&m.path)
                        )));
                    };
                    if join.is_some() {
                        return Err(m.error(format!("one struct encoding per key: {usage}")));
                    }
                    join = Some(j);
                    Ok(())
                })?;
                let Some(join) = join else {
                    return Err(meta.error(format!("#[rowkey(bigtable(..))] needs the struct encoding: {usage}")));
                };
                set(
                    cx,
                    &mut out.bigtable,
                    attr,
                    Bigtable { join, big_endian },
                    "rowkey(bigtable)",
                );
                Ok(())
            } else if meta.path.is_ident("crate") {
                let s: syn::LitStr = meta.value()?.parse()?;
                let p: syn::Path = s.parse()?;
                set(cx, &mut out.krate, attr, p, "rowkey(crate)");
                Ok(())
            } else {
                // reported, then skipped, so that the arguments after it (`crate = ".."`
                // among them) are still read
                cx.syn_error(meta.error(format!(
                    "unknown rowkey container attribute `{}`; valid: #[rowkey({})]",
                    path_str(&meta.path),
                    container_forms()
                )));
                if meta.input.peek(Token![=]) {
                    meta.value()?.parse::<syn::Expr>()?;
                } else if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|_| Ok(()))?;
                }
                Ok(())
            }
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
    out
}

/// `#[rowkey(tag = N)]` / `#[rowkey(tag = b"..")]` on a variant of a tagged key enum.
pub fn variant_tag(cx: &Ctxt, attrs: &[Attribute]) -> Option<(Vec<u8>, Span)> {
    let mut out: Option<(Vec<u8>, Span)> = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident(ROWKEY)) {
        let res = attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("tag") {
                return Err(meta.error(format!(
                    "unknown variant attribute `rowkey({})`; a variant of a tagged key enum takes #[rowkey(tag = N)] or #[rowkey(tag = b\"..\")]",
                    path_str(&meta.path)
                )));
            }
            let lit: Lit = meta.value()?.parse()?;
            let tag = match &lit {
                Lit::ByteStr(b) => b.value(),
                Lit::Str(s) => s.value().into_bytes(),
                other => vec![byte_of(other, "a tag")?.0],
            };
            if tag.is_empty() {
                return Err(syn::Error::new(lit.span(), "an empty tag cannot tell variants apart"));
            }
            if out.is_some() {
                return Err(meta.error("duplicate tag"));
            }
            out = Some((tag, lit.span()));
            Ok(())
        });
        if let Err(e) = res {
            cx.syn_error(e);
        }
    }
    out
}
