//! The derive input lowered to a typed AST that borrows from syn (thiserror's `ast.rs`).

use quote::format_ident;
use syn::{Data, DeriveInput, Fields, Type};

use crate::attr::{self, ContainerAttrs, FieldAttrs};
use crate::ctxt::Ctxt;

/// What the derive can tell about a field type from its syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TyKind {
    Unsigned(usize),
    Signed(usize),
    Bool,
    Char,
    Float(usize),
    /// `[u8; N]`; width when N is a literal.
    ByteArray(Option<usize>),
    /// `String`, `Box<str>`, `&str`.
    Text,
    /// `Vec<u8>`, `&[u8]`, `Bytes`.
    Bytes,
    Option(Box<TyKind>),
    /// A path type the derive cannot see into: a nested key deriving `RowKey`, or an alias.
    Other,
    /// A type that can never be a key field, with the reason.
    Unsupported(&'static str),
}

impl TyKind {
    pub fn of(ty: &Type) -> TyKind {
        match ty {
            Type::Group(g) => TyKind::of(&g.elem),
            Type::Paren(p) => TyKind::of(&p.elem),
            Type::Reference(r) => match &*r.elem {
                Type::Path(p) if is_prim(p, "str") => TyKind::Text,
                Type::Slice(s) if is_u8(&s.elem) => TyKind::Bytes,
                _ => TyKind::Unsupported(
                    "references other than &str and &[u8] cannot be key fields",
                ),
            },
            Type::Array(a) if is_u8(&a.elem) => TyKind::ByteArray(match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) => i.base10_parse().ok(),
                _ => None,
            }),
            Type::Array(_) => {
                TyKind::Unsupported("arrays other than [u8; N] cannot be key fields")
            }
            Type::Tuple(t) if t.elems.is_empty() => {
                TyKind::Unsupported("`()` carries no data and cannot be a key field")
            }
            Type::Tuple(_) => TyKind::Unsupported(
                "tuples cannot be key fields: make each element a field, or use a nested struct deriving RowKey",
            ),
            Type::Slice(_) => TyKind::Unsupported("unsized slices cannot be key fields"),
            Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return TyKind::Other;
                };
                // A multi-segment path is one of ours only under a known crate root: a user's
                // `own::Bytes` is their own type (a nested key, say), not `bytes::Bytes`.
                if p.path.segments.len() > 1 {
                    let root = p.path.segments.first().map(|s| s.ident.to_string());
                    if !matches!(
                        root.as_deref(),
                        Some("std" | "core" | "alloc" | "bytes" | "rowkey")
                    ) {
                        return TyKind::Other;
                    }
                }
                let name = last.ident.to_string();
                let arg = match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => {
                        match a.args.first() {
                            Some(syn::GenericArgument::Type(t)) => Some(t),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let plain = matches!(last.arguments, syn::PathArguments::None);
                match (name.as_str(), arg) {
                    ("u8", None) if plain => TyKind::Unsigned(1),
                    ("u16", None) if plain => TyKind::Unsigned(2),
                    ("u32", None) if plain => TyKind::Unsigned(4),
                    ("u64", None) if plain => TyKind::Unsigned(8),
                    ("u128", None) if plain => TyKind::Unsigned(16),
                    ("i8", None) if plain => TyKind::Signed(1),
                    ("i16", None) if plain => TyKind::Signed(2),
                    ("i32", None) if plain => TyKind::Signed(4),
                    ("i64", None) if plain => TyKind::Signed(8),
                    ("i128", None) if plain => TyKind::Signed(16),
                    ("usize" | "isize", None) if plain => TyKind::Unsupported(
                        "usize/isize have a platform-dependent width: use u32/u64/i32/i64 so keys are the same on every machine",
                    ),
                    ("bool", None) if plain => TyKind::Bool,
                    ("char", None) if plain => TyKind::Char,
                    ("f32", None) if plain => TyKind::Float(4),
                    ("f64", None) if plain => TyKind::Float(8),
                    ("String", None) if plain => TyKind::Text,
                    ("Bytes", None) if plain => TyKind::Bytes,
                    ("Box", Some(Type::Path(t))) if is_prim(t, "str") => TyKind::Text,
                    ("Vec", Some(t)) if is_u8(t) => TyKind::Bytes,
                    ("Vec", Some(_)) => TyKind::Unsupported(
                        "Vec<T> is only supported as Vec<u8> (bytes): a list has no order-preserving key encoding here",
                    ),
                    ("HashMap" | "BTreeMap" | "HashSet" | "BTreeSet" | "VecDeque", _) => {
                        TyKind::Unsupported("collections cannot be key fields")
                    }
                    ("Option", Some(t)) => TyKind::Option(Box::new(TyKind::of(t))),
                    _ => TyKind::Other,
                }
            }
            _ => TyKind::Unsupported("this kind of type cannot be a key field"),
        }
    }

    /// Strip `Option`s.
    pub fn inner(&self) -> &TyKind {
        match self {
            TyKind::Option(t) => t.inner(),
            t => t,
        }
    }

    pub fn is_var_len(&self) -> bool {
        matches!(self.inner(), TyKind::Text | TyKind::Bytes)
    }

    pub fn is_int(&self) -> bool {
        matches!(self, TyKind::Unsigned(_) | TyKind::Signed(_))
    }

    pub fn unsupported(&self) -> Option<&'static str> {
        match self {
            TyKind::Unsupported(why) => Some(why),
            TyKind::Option(t) => t.unsupported(),
            _ => None,
        }
    }

    /// Natural width when the syntax tells.
    pub fn natural_width(&self) -> Option<usize> {
        match self {
            TyKind::Unsigned(w) | TyKind::Signed(w) | TyKind::Float(w) => Some(*w),
            TyKind::Bool => Some(1),
            TyKind::Char => Some(4),
            TyKind::ByteArray(n) => *n,
            _ => None,
        }
    }
}

fn is_u8(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if is_prim(p, "u8"))
}

/// `name`, or `::core::primitive::name` / `std::primitive::name`.
fn is_prim(p: &syn::TypePath, name: &str) -> bool {
    if p.qself.is_some() {
        return false;
    }
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    match segs.as_slice() {
        [n] => n == name,
        [root, prim, n] => (root == "core" || root == "std") && prim == "primitive" && n == name,
        _ => false,
    }
}

/// A type as users write it: `&'a str`, `Option<Vec<u8>>`, `[u8; 4]`.
pub fn type_string(ty: &Type) -> String {
    use quote::ToTokens;
    let raw = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(raw.len());
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.get(i + 1).copied();
            let wordy = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            // after a lifetime (`'a`), always keep the space: `&'a str`, `&'a [u8]`
            let word_start = out
                .trim_end_matches(|c: char| c.is_alphanumeric() || c == '_')
                .chars()
                .last();
            let after_lifetime = wordy(prev) && word_start == Some('\'');
            let keep = (wordy(prev) && (wordy(next) || next == Some('\'')))
                || prev == Some(';')
                || after_lifetime;
            if keep {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}

pub struct Field<'a> {
    pub original: &'a syn::Field,
    pub index: usize,
    /// `name` for named fields, `0`, `1`… for tuple fields.
    pub member: syn::Member,
    /// The field name as users see it in errors and layouts.
    pub name: String,
    /// A local variable name for the decoded value.
    pub var: syn::Ident,
    pub ty: &'a Type,
    pub kind: TyKind,
    pub attrs: FieldAttrs<'a>,
}

pub struct Variant<'a> {
    pub ident: &'a syn::Ident,
    pub original: &'a syn::Variant,
}

/// A variant of a tagged key enum: `#[rowkey(tag = ..)] Name(KeyType)`.
pub struct TaggedVariant<'a> {
    pub ident: &'a syn::Ident,
    pub ty: &'a Type,
    pub tag: Vec<u8>,
    /// Where errors about the tag point.
    pub tag_span: proc_macro2::Span,
}

pub enum Body<'a> {
    Struct {
        fields: Vec<Field<'a>>,
        tuple: bool,
    },
    /// A fieldless enum: a key field encoded as its code.
    Enum {
        variants: Vec<Variant<'a>>,
        repr: Option<(syn::Ident, TyKind)>,
    },
    /// An enum of key types sharing one keyspace: the variant's tag, then its key.
    Tagged {
        variants: Vec<TaggedVariant<'a>>,
    },
}

pub struct Input<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs<'a>,
    pub body: Body<'a>,
}

impl<'a> Input<'a> {
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Input<'a>> {
        let attrs = attr::container_attrs(cx, &input.attrs);
        let body = match &input.data {
            Data::Struct(s) => {
                let (fields, tuple) = match &s.fields {
                    Fields::Named(f) => (f.named.iter().collect::<Vec<_>>(), false),
                    Fields::Unnamed(f) => (f.unnamed.iter().collect::<Vec<_>>(), true),
                    Fields::Unit => (Vec::new(), false),
                };
                if fields.is_empty() {
                    cx.error_spanned_by(
                        &input.ident,
                        "a row key needs at least one field: an empty key cannot identify a row",
                    );
                    return None;
                }
                let fields = fields
                    .into_iter()
                    .enumerate()
                    .map(|(index, f)| {
                        let (member, name) = match &f.ident {
                            Some(id) => (syn::Member::Named(id.clone()), unraw(id)),
                            None => (
                                syn::Member::Unnamed(syn::Index::from(index)),
                                index.to_string(),
                            ),
                        };
                        Field {
                            original: f,
                            index,
                            member,
                            var: format_ident!("__f{}", index),
                            name,
                            ty: &f.ty,
                            kind: TyKind::of(&f.ty),
                            attrs: attr::field_attrs(cx, &f.attrs),
                        }
                    })
                    .collect();
                Body::Struct { fields, tuple }
            }
            Data::Enum(e) if e.variants.iter().any(|v| !matches!(v.fields, Fields::Unit)) => {
                let mut ok = true;
                let mut variants = Vec::new();
                for v in &e.variants {
                    let tag = attr::variant_tag(cx, &v.attrs);
                    let ty = match &v.fields {
                        Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                            f.unnamed.first().map(|f| &f.ty)
                        }
                        _ => None,
                    };
                    match (ty, tag) {
                        (Some(ty), Some((tag, tag_span))) => variants.push(TaggedVariant {
                            ident: &v.ident,
                            ty,
                            tag,
                            tag_span,
                        }),
                        (None, _) => {
                            cx.error_spanned_by(
                                v,
                                format!(
                                    "variant `{}` of a tagged key enum must hold exactly one key type, as in `{}(OrderKey)`; a RowKey enum is either fieldless (codes, not names) or tagged (each variant one key type behind #[rowkey(tag = N)])",
                                    v.ident, v.ident
                                ),
                            );
                            ok = false;
                        }
                        (Some(_), None) => {
                            cx.error_spanned_by(
                                v,
                                format!(
                                    "variant `{}` holds a key but has no tag: give every variant of a tagged key enum a distinct #[rowkey(tag = N)] (a byte, or b\"..\"), which its keys start with",
                                    v.ident
                                ),
                            );
                            ok = false;
                        }
                    }
                }
                if !ok {
                    return None;
                }
                Body::Tagged { variants }
            }
            Data::Enum(e) => {
                let mut ok = true;
                for v in &e.variants {
                    if !matches!(v.fields, Fields::Unit) {
                        cx.error_spanned_by(
                            v,
                            format!(
                                "RowKey enums must be fieldless (codes, not names): variant `{}` carries data; encode the data in separate key fields instead",
                                v.ident
                            ),
                        );
                        ok = false;
                    }
                }
                if e.variants.is_empty() {
                    cx.error_spanned_by(
                        &input.ident,
                        "an enum without variants has no values to encode",
                    );
                    ok = false;
                }
                if !ok {
                    return None;
                }
                let repr = repr_of(cx, &input.attrs);
                Body::Enum {
                    variants: e
                        .variants
                        .iter()
                        .map(|v| Variant {
                            ident: &v.ident,
                            original: v,
                        })
                        .collect(),
                    repr,
                }
            }
            Data::Union(u) => {
                cx.error_spanned_by(
                    u.union_token,
                    "unions cannot derive RowKey: which field is live is unknown, so there is nothing to encode; use a struct or a fieldless enum",
                );
                return None;
            }
        };
        Some(Input {
            original: input,
            attrs,
            body,
        })
    }

    pub fn name(&self) -> &syn::Ident {
        &self.original.ident
    }
}

pub fn unraw(id: &syn::Ident) -> String {
    let s = id.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

fn repr_of(cx: &Ctxt, attrs: &[syn::Attribute]) -> Option<(syn::Ident, TyKind)> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(id) = meta.path.get_ident() {
                let ty: Type = syn::parse_quote!(#id);
                let kind = TyKind::of(&ty);
                if kind.is_int() {
                    out = Some((id.clone(), kind));
                } else if id == "usize" || id == "isize" {
                    cx.error_spanned_by(
                        id,
                        "#[repr(usize/isize)] has a platform-dependent width: use a fixed-width repr for a RowKey enum",
                    );
                }
            }
            Ok(())
        });
    }
    out
}
