//! Decisions, made once per key and read by every generator (thiserror's `prop.rs`): each
//! field's encoding (its codec type — `Desc<..>` when descending — and `LAYOUT` entry), hash prefix, argument form,
//! which scans it allows, and its role in the salt; the key's salt.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;

use crate::ast::{Field, Input, TyKind};

/// The encoding a field's attributes and (syntactic) type select.
pub enum Encoding {
    Natural,
    Java,
    Pad {
        len: usize,
        fill: u8,
    },
    Sep,
    SepByte(u8),
    ReverseTs,
    /// A column of an Apache Phoenix key (`#[rowkey(phoenix)]`).
    Phoenix,
    /// A field of a Bigtable struct key (`#[rowkey(bigtable(..))]`).
    BigtableStruct,
}

/// How a field's scan arguments are typed.
pub enum Form {
    /// `impl FormOf<TextForms>` (any string form).
    Text,
    /// `impl FormOf<BytesForms>` (any bytes form).
    Bytes,
    /// `Option<&str>` in equality; any `Option` string form in ranges.
    OptText,
    /// `Option<&[u8]>` in equality; any `Option` bytes form in ranges.
    OptBytes,
    /// The field type itself (`Copy` scalars).
    Plain,
    /// `impl Borrow<T>` (nested keys, enums, other types).
    Borrowed,
}

/// Everything the generators need to know about one field.
pub struct FieldProp<'a> {
    pub f: &'a Field<'a>,
    pub base: Encoding,
    pub reverse: bool,
    /// The codec type, e.g. `::rowkey::codec::Pad<8, 0>` (behind `Hashed<..>` when hashed).
    pub codec: TokenStream,
    /// The codec of the value alone (without the hash prefix): the layout's field width.
    pub value_codec: TokenStream,
    /// `#[desc]`: the codec is `Desc<..>` (the layout and the lints also say so).
    pub desc: bool,
    /// `#[hash_prefix(N)]` / `#[hash_prefix(N, raw)]`.
    pub hash: Option<(usize, bool)>,
    pub form: Form,
    /// `Err(why)`: no `_range`.
    pub range: Result<(), Refusal>,
    /// `Err(why)`: no `_starts_with`.
    pub starts_with: Result<(), Refusal>,
    /// Where errors about the field's type point.
    pub span: Span,
}

/// The salt of a key.
pub struct SaltProp {
    pub buckets: u32,
    pub modulo: bool,
    /// The hashed fields, in key order.
    pub fields: Vec<usize>,
    /// The last salted field: once it is fixed, the salt is known.
    pub through: usize,
    /// The salt's name in errors (`salt` for a container salt, else the salted field).
    pub name: String,
}

impl KeyProp<'_> {
    /// The key's salt as data: its `KeyFields::SALT` (and so `LAYOUT.salt`), which encode,
    /// decode and the scan builder act on, and `SALT_NAME` (the salt's name in errors) when it
    /// is a field's; nothing for an unsalted key (the trait's defaults).
    pub fn salt_consts(&self, krate: &TokenStream) -> Option<TokenStream> {
        let s = self.salt.as_ref()?;
        let layout = self.salt_layout(krate);
        let name = (s.name != "salt").then(|| {
            let n = &s.name;
            quote!(const SALT_NAME: &'static ::core::primitive::str = #n;)
        });
        Some(
            quote!(const SALT: ::core::option::Option<#krate::layout::SaltLayout> = #layout; #name),
        )
    }

    /// Whether a range over this key as a nested field is inexact whatever its fields' codecs
    /// say: a salt scatters the values, a descending or hashed field reorders them.
    pub fn range_inexact(&self) -> bool {
        self.salt.is_some() || self.fields.iter().any(|fp| fp.desc || fp.hash.is_some())
    }

    /// The `Option<SaltLayout>` expression of the key's salt.
    fn salt_layout(&self, krate: &TokenStream) -> TokenStream {
        match &self.salt {
            Some(s) => {
                let (b, t) = (s.buckets, s.through);
                let fields = &s.fields;
                let kind = if s.modulo {
                    quote!(#krate::layout::SaltKind::Modulo)
                } else {
                    quote!(#krate::layout::SaltKind::Phoenix)
                };
                quote!(::core::option::Option::Some(#krate::layout::SaltLayout {
                    buckets: #b,
                    width: #krate::layout::SaltLayout::width_for(#b),
                    through_field: #t,
                    fields: &[#(#fields),*],
                    kind: #kind,
                }))
            }
            None => quote!(::core::option::Option::None),
        }
    }
}

/// The decisions for a whole key struct.
pub struct KeyProp<'a> {
    pub fields: Vec<FieldProp<'a>>,
    pub salt: Option<SaltProp>,
    /// `Some(rowKeyOrderOptimizable)` for a Phoenix key (`#[rowkey(phoenix)]`).
    pub phoenix: Option<bool>,
    /// A Bigtable struct key (`#[rowkey(bigtable(..))]`).
    pub bigtable: Option<&'a crate::attr::Bigtable>,
}

impl<'a> KeyProp<'a> {
    pub fn of(p: &'a Input, fields: &'a [Field<'a>], krate: &TokenStream) -> KeyProp<'a> {
        let salt = salt_of(p, fields);
        let bigtable = p.attrs.bigtable.as_ref().map(|a| &a.value);
        let container_java = p.attrs.java.is_some();
        let phoenix = p.attrs.phoenix.as_ref().map(|a| a.value.optimizable);
        let count = fields.len();
        let fields = fields
            .iter()
            .map(|f| match (phoenix, bigtable) {
                (_, Some(bt)) => FieldProp::bigtable(f, bt, p.name(), count, krate),
                (Some(opt), None) => FieldProp::phoenix(f, opt, f.index + 1 == count, krate),
                (None, None) => FieldProp::of(f, container_java, krate),
            })
            .collect();
        KeyProp {
            fields,
            salt,
            phoenix,
            bigtable,
        }
    }

    pub fn last(&self) -> &FieldProp<'a> {
        // a key has at least one field (checked when parsing)
        &self.fields[self.fields.len() - 1]
    }
}

fn salt_of(p: &Input, fields: &[Field]) -> Option<SaltProp> {
    if let Some(s) = &p.attrs.salt {
        let last = fields.len() - 1;
        let named: Vec<usize> = s
            .value
            .fields
            .iter()
            .filter_map(|id| {
                fields
                    .iter()
                    .position(|f| f.member == syn::Member::Named(id.clone()))
            })
            .collect();
        let (hashed, through) = if s.value.fields.is_empty() {
            ((0..=last).collect(), last)
        } else {
            let mut v = named;
            v.sort_unstable();
            v.dedup();
            let through = v.last().copied().unwrap_or(last);
            (v, through)
        };
        return Some(SaltProp {
            buckets: s.value.buckets as u32,
            modulo: s.value.modulo.is_some(),
            fields: hashed,
            through,
            name: "salt".to_owned(),
        });
    }
    fields.iter().find_map(|f| {
        f.attrs.salt.as_ref().map(|s| SaltProp {
            buckets: s.value.buckets as u32,
            modulo: s.value.modulo.is_some(),
            fields: (0..=f.index).collect(),
            through: f.index,
            name: f.name.clone(),
        })
    })
}

impl<'a> FieldProp<'a> {
    /// A field of a Bigtable struct key: its codec is `struct_key::Ordered`, `Delimited` or
    /// `Singleton`, with the field's place and the key's Int64 encoding. Ranges only where the
    /// bytes sort as the values: never on a `BigEndianBytes` Int64/Timestamp (negative values
    /// sort last), nor on a delimited string/bytes field that is not the last (a value sorts
    /// after its extensions when they continue below the delimiter).
    fn bigtable(
        f: &'a Field<'a>,
        bt: &crate::attr::Bigtable,
        key: &syn::Ident,
        count: usize,
        krate: &TokenStream,
    ) -> Self {
        use crate::attr::BigtableJoin;
        let (first, last, be) = (f.index == 0, f.index + 1 == count, bt.big_endian);
        let s = quote!(#krate::struct_key);
        let codec = match bt.join {
            BigtableJoin::OrderedCode => quote!(#s::Ordered<#first, #last, #be>),
            BigtableJoin::Delimited(_) => quote!(#s::Delimited<#key, #last, #be>),
            BigtableJoin::Singleton => quote!(#s::Singleton<#be>),
        };
        let content = matches!(f.kind, TyKind::Text | TyKind::Bytes);
        let unordered =
            (be && !content) || (matches!(bt.join, BigtableJoin::Delimited(_)) && content && !last);
        FieldProp {
            f,
            base: Encoding::BigtableStruct,
            reverse: false,
            codec: codec.clone(),
            value_codec: codec,
            desc: false,
            hash: None,
            form: Form::of(&f.kind),
            range: if unordered {
                Err(Refusal::StructUnordered)
            } else {
                Ok(())
            },
            // (struct keys have no `Option` fields)
            starts_with: starts_with_refusal(f),
            span: f.ty.span(),
        }
    }

    /// A column of a Phoenix key: its codec is `phoenix::Col` (`LastCol` for the last), which
    /// writes Phoenix's bytes for the field's type; only `#[desc]` applies.
    fn phoenix(f: &'a Field<'a>, optimizable: bool, last: bool, krate: &TokenStream) -> Self {
        let col = if last {
            quote!(#krate::phoenix::LastCol<#optimizable>)
        } else {
            quote!(#krate::phoenix::Col<#optimizable>)
        };
        let desc = f.attrs.desc.is_some();
        let codec = desc_type(col, desc, krate);
        // CHAR(N) compares padded; a legacy DESC variable-width column sorts a value before
        // its extensions: neither is a byte range per value range
        let legacy_desc_var = !optimizable && desc && f.kind.natural_width().is_none();
        let is_char = matches!(f.kind.inner(), TyKind::Other) && last_segment_is(f.ty, "Char");
        let range = if is_char || legacy_desc_var {
            Err(Refusal::PhoenixUnordered)
        } else {
            Ok(())
        };
        let starts_with = match starts_with_refusal(f) {
            Ok(()) if legacy_desc_var => Err(Refusal::PhoenixUnordered),
            other => other,
        };
        FieldProp {
            f,
            base: Encoding::Phoenix,
            reverse: false,
            codec: codec.clone(),
            value_codec: codec,
            desc,
            hash: None,
            form: Form::of(&f.kind),
            range,
            starts_with,
            span: f.ty.span(),
        }
    }

    fn of(f: &'a Field<'a>, container_java: bool, krate: &TokenStream) -> Self {
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
        let reverse = a.reverse.is_some();
        let desc = a.desc.is_some();
        let value_codec = desc_type(codec_type(&base, reverse, krate), desc, krate);
        let hash = a.hash_prefix.as_ref().map(|h| (h.value.len, h.value.raw));
        // a hashed field is its encoding behind the `Hashed` codec wrapper (which owns the hash
        // bytes and their check; a `#[desc]` field's hash bytes stay as they are: `Desc` inside)
        let codec = match hash {
            Some((len, raw)) => quote!(#krate::hash_prefix::Hashed<#value_codec, #len, #raw>),
            None => value_codec.clone(),
        };
        FieldProp {
            f,
            base,
            reverse,
            codec,
            value_codec,
            desc,
            hash,
            form: Form::of(&f.kind),
            range: range_refusal(f),
            starts_with: starts_with_refusal(f),
            span: f.ty.span(),
        }
    }

    /// Whether the field is a nested key (or an `Option` of one) in its own encoding: a range
    /// over it is exact only when the nested key's `Codec::RANGE_EXACT` holds (checked where
    /// the range is built).
    pub fn nested_natural(&self) -> bool {
        matches!(self.base, Encoding::Natural)
            && !self.reverse
            && matches!(self.f.kind.inner(), TyKind::Other)
    }

    /// Whether the field may have a finite domain (`.field_any()`): a `bool`, a type the derive
    /// cannot see into (a fieldless enum — or a nested key, which the method's bound then
    /// refuses), or an `Option` of those.
    pub fn finite(&self) -> bool {
        matches!(self.f.kind.inner(), TyKind::Bool | TyKind::Other)
    }

    /// The `layout::FieldEncoding` value.
    pub fn layout_encoding(&self, krate: &TokenStream) -> TokenStream {
        let e = quote!(#krate::layout::FieldEncoding);
        if self.reverse {
            let padded = matches!(self.base, Encoding::Pad { .. });
            let (codec, ty) = (&self.value_codec, self.f.ty);
            return quote!(#e::Reverse {
                len: match <#codec as __rk::Codec<#ty>>::WIDTH { ::core::option::Option::Some(__w) => __w, ::core::option::Option::None => 0 },
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
            Encoding::Phoenix => quote!(#e::Phoenix),
            Encoding::BigtableStruct => quote!(#e::BigtableStruct),
        }
    }
}

/// Whether `ty` is a path whose last segment is `name` (`Char<8>`, `rowkey::phoenix::Char<8>`),
/// or an `Option` of one.
pub fn last_segment_is(ty: &syn::Type, name: &str) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| {
            s.ident == name
                || (s.ident == "Option"
                    && matches!(&s.arguments, syn::PathArguments::AngleBracketed(a)
                        if a.args.iter().any(|g| matches!(g, syn::GenericArgument::Type(t) if last_segment_is(t, name)))))
        }),
        syn::Type::Group(g) => last_segment_is(&g.elem, name),
        syn::Type::Paren(p) => last_segment_is(&p.elem, name),
        _ => false,
    }
}

/// `#[desc]`: the codec `c` in descending order, `Desc<c>`.
fn desc_type(c: TokenStream, desc: bool, krate: &TokenStream) -> TokenStream {
    if desc {
        quote!(#krate::codec::Desc<#c>)
    } else {
        c
    }
}

fn codec_type(base: &Encoding, reverse: bool, krate: &TokenStream) -> TokenStream {
    let c = quote!(#krate::codec);
    let base = match *base {
        Encoding::Natural => quote!(#c::Natural),
        Encoding::Java => quote!(#c::Java),
        Encoding::Pad { len, fill } => quote!(#c::Pad<#len, #fill>),
        Encoding::Sep => quote!(#c::Sep),
        Encoding::SepByte(b) => quote!(#c::SepByte<#b>),
        Encoding::ReverseTs => quote!(#c::ReverseTs),
        // chosen in `FieldProp::phoenix`, which does not come here
        Encoding::Phoenix | Encoding::BigtableStruct => quote!(#c::Natural),
    };
    if reverse {
        quote!(#c::Reverse<#base>)
    } else {
        base
    }
}

impl Form {
    /// The family of forms a `_range` takes, and the borrowed type the codec encodes (`None`:
    /// the field type itself).
    pub fn family(&self, pv: &TokenStream) -> Option<(TokenStream, TokenStream)> {
        let text = quote!(#pv::TextForms);
        let bytes = quote!(#pv::BytesForms);
        let str_ty = quote!(&::core::primitive::str);
        let bytes_ty = quote!(&[::core::primitive::u8]);
        match self {
            Form::Text => Some((text, str_ty)),
            Form::Bytes => Some((bytes, bytes_ty)),
            Form::OptText => Some((
                quote!(#pv::OptionForms<#text>),
                quote!(::core::option::Option<#str_ty>),
            )),
            Form::OptBytes => Some((
                quote!(#pv::OptionForms<#bytes>),
                quote!(::core::option::Option<#bytes_ty>),
            )),
            Form::Plain | Form::Borrowed => None,
        }
    }

    fn of(kind: &TyKind) -> Form {
        match kind {
            TyKind::Text => Form::Text,
            TyKind::Bytes => Form::Bytes,
            TyKind::Option(inner) if matches!(**inner, TyKind::Text) => Form::OptText,
            TyKind::Option(inner) if matches!(**inner, TyKind::Bytes) => Form::OptBytes,
            k if is_plain(k) => Form::Plain,
            _ => Form::Borrowed,
        }
    }
}

fn is_plain(k: &TyKind) -> bool {
    match k {
        TyKind::Unsigned(_)
        | TyKind::Signed(_)
        | TyKind::Bool
        | TyKind::Char
        | TyKind::Float(_)
        | TyKind::ByteArray(_) => true,
        TyKind::Option(inner) => is_plain(inner),
        _ => false,
    }
}

/// Why a scan form is refused for a field.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `#[hash_prefix]`: the key bytes start with a hash of the value.
    Hashed,
    /// `#[reverse]`: the bytes are stored reversed.
    Reversed,
    /// `#[sep(b'..')]`: order holds only above the separator (ranges only).
    CustomSeparator,
    /// `#[pad(N, fill = b)]` with a fill other than 0x00 on a string or bytes field: a value
    /// continuing with bytes below the fill sorts before a shorter one (ranges only).
    PadFill,
    /// Starts-with on a field that is not a string or bytes.
    NotContent,
    /// A Phoenix column whose bytes do not sort as its values (CHAR(N); DESC variable-width
    /// without rowKeyOrderOptimizable).
    PhoenixUnordered,
    /// A Bigtable struct-key field whose bytes do not sort as its values (BigEndianBytes
    /// Int64/Timestamp; a delimited string/bytes field that is not the last).
    StructUnordered,
}

impl Refusal {
    /// The scan chain table's note on a refused range.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Hashed => " (hashed)",
            Refusal::Reversed => " (reversed)",
            Refusal::CustomSeparator => " (custom separator)",
            Refusal::PadFill => " (padded with a fill other than 0x00)",
            Refusal::NotContent => "",
            Refusal::PhoenixUnordered => " (Phoenix bytes out of value order)",
            Refusal::StructUnordered => " (struct-key bytes out of value order)",
        }
    }

    /// The `__private` trait whose diagnostic explains a refused typed-builder method.
    pub fn trait_name(self, range: bool) -> &'static str {
        match (self, range) {
            (Refusal::Hashed, true) => "NoRangeOnHashed",
            (Refusal::Reversed, true) => "NoRangeOnReversed",
            (Refusal::CustomSeparator, _) => "NoRangeOnCustomSeparator",
            (Refusal::PadFill, _) => "NoRangeOnPadFill",
            (Refusal::Hashed, false) => "NoStartsWithOnHashed",
            (Refusal::Reversed, false) => "NoStartsWithOnReversed",
            (Refusal::NotContent, _) => "NoStartsWithOnNonContent",
            (Refusal::PhoenixUnordered, true) => "NoRangeOnPhoenixUnordered",
            (Refusal::PhoenixUnordered, false) => "NoStartsWithOnPhoenixUnordered",
            (Refusal::StructUnordered, _) => "NoRangeOnStructUnordered",
        }
    }

    /// The `__private` type that refuses it in a text scan (its error says why).
    pub fn text_form(self, range: bool) -> &'static str {
        match (self, range) {
            (Refusal::Hashed, true) => "RangeOnHashed",
            (Refusal::Reversed, true) => "RangeOnReversed",
            (Refusal::CustomSeparator, _) => "RangeOnCustomSeparator",
            (Refusal::PadFill, _) => "RangeOnPadFill",
            (Refusal::Hashed, false) => "PrefixOnHashed",
            (Refusal::Reversed, false) => "PrefixOnReversed",
            (Refusal::NotContent, _) => "PrefixOnNonContent",
            (Refusal::PhoenixUnordered, true) => "RangeOnPhoenixUnordered",
            (Refusal::PhoenixUnordered, false) => "PrefixOnPhoenixUnordered",
            (Refusal::StructUnordered, _) => "RangeOnStructUnordered",
        }
    }
}

/// Why a range over a nested key field is refused when its `RANGE_EXACT` does not hold.
pub const NESTED_RANGE_REASON: &str = "the nested key's bytes do not sort as its values (a field with #[desc], #[reverse_ts], #[rowkey(java)], #[hash_prefix], #[reverse], a custom separator or a #[pad] fill other than 0x00, or a salt); fix it by equality";

/// Whether a range may follow the fixed fields: not where the byte order is not the value order.
pub fn range_refusal(f: &Field) -> Result<(), Refusal> {
    let a = &f.attrs;
    if a.hash_prefix.is_some() {
        Err(Refusal::Hashed)
    } else if a.reverse.is_some() {
        Err(Refusal::Reversed)
    } else if matches!(a.sep.as_ref().map(|s| s.value), Some(Some(_))) {
        Err(Refusal::CustomSeparator)
    } else if a
        .pad
        .as_ref()
        .is_some_and(|p| p.value.fill.is_some_and(|(b, _)| b != 0))
        && matches!(f.kind.inner(), TyKind::Text | TyKind::Bytes)
    {
        Err(Refusal::PadFill)
    } else {
        Ok(())
    }
}

/// Whether a starts-with may follow the fixed fields: on a string or bytes field, or an
/// `Option` of one (the `Some` values starting with the prefix).
pub fn starts_with_refusal(f: &Field) -> Result<(), Refusal> {
    let content = |k: &TyKind| matches!(k, TyKind::Text | TyKind::Bytes);
    let ok = match &f.kind {
        TyKind::Option(inner) => content(inner),
        k => content(k),
    };
    if !ok {
        Err(Refusal::NotContent)
    } else if f.attrs.hash_prefix.is_some() {
        Err(Refusal::Hashed)
    } else if f.attrs.reverse.is_some() {
        Err(Refusal::Reversed)
    } else {
        Ok(())
    }
}

/// Width of a field when the syntax tells (hash prefix included), for the compile-time
/// `max_len` check.
pub fn syntactic_width(f: &Field) -> Option<usize> {
    let a = &f.attrs;
    let value = if a.reverse_ts.is_some() {
        Some(8)
    } else if let Some(p) = &a.pad {
        if matches!(f.kind, TyKind::Option(_)) {
            None
        } else {
            Some(p.value.len)
        }
    } else if a.sep.is_some() {
        None
    } else {
        f.kind.natural_width()
    };
    Some(value? + a.hash_prefix.as_ref().map_or(0, |h| h.value.len))
}

/// The method name of a field with a suffix (`uid_range`; tuple fields: `field_0_range`).
pub fn method_ident(f: &Field, suffix: &str) -> syn::Ident {
    match &f.member {
        syn::Member::Named(id) if suffix.is_empty() => id.clone(),
        syn::Member::Named(_) => format_ident!("{}{}", f.name, suffix),
        syn::Member::Unnamed(i) => format_ident!("field_{}{}", i.index, suffix),
    }
}
