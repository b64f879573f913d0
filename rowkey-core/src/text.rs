//! Keys from text: the `field=value` input of the key tool ([`crate::tool`], feature `tool`).
//!
//! With the `tool` feature, `#[derive(RowKey)]` implements [`FromText`] for every key type (a
//! nested key reads its fields as `outer.inner=value`; a fieldless enum reads a variant name or
//! its numeric code) and [`TextFields`] for every struct key that owns its data (no lifetime
//! parameters; type parameters are fine: register `Tagged<u32>`): encoding a key and building a
//! scan from `field=value` pairs. Without it the derive's text impls are dropped (they pass
//! through a macro of this crate, which sees its features). The generated code is a few calls
//! into this module; the value parsers live here.
//!
//! Value syntax by field type:
//!
//! | type | text |
//! |---|---|
//! | integers | decimal (`-17`, `42`) or hex with `0x` (`0x2A`, `-0x11`) |
//! | `f32`, `f64` | Rust float syntax (`1.5`, `-0`, `inf`, `NaN`) |
//! | `bool` | `true` / `false` |
//! | `char` | one character, or one `\xHH` escape |
//! | strings | the text; HBase `toStringBinary` escapes (`\x00`, `\x5C` for `\`) are decoded |
//! | bytes, `[u8; N]` | `0x…` or `hex:…` hex digits, else `toStringBinary` text (`ab\x00\xFF`) |
//! | `Option<T>` | `none` / `null`, or a value of `T` (write `\x6Eone` for the string "none") |
//! | fieldless enums | the variant name or its numeric code |
//! | nested keys | one `outer.inner=value` pair per field of the nested key |
//!
#![cfg_attr(feature = "tool", doc = "```")]
#![cfg_attr(not(feature = "tool"), doc = "```ignore")]
//! use rowkey::RowKey;
//! use rowkey::text::{TextArgs, TextFields};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Event {
//!     #[sep]
//!     host: String,
//!     ts: u64,
//! }
//!
//! let mut args = TextArgs::parse([r"host=web\x001", "ts=0x10"])?;
//! let key = Event::encode_text(&mut args)?;
//! assert_eq!(key, Event { host: "web\u{0}1".into(), ts: 16 }.to_row_key()?.to_vec());
//!
//! let mut bad = TextArgs::parse(["host=web1", "ts=soon"])?;
//! assert_eq!(
//!     Event::encode_text(&mut bad).unwrap_err().to_string(),
//!     "field `ts`: expected an unsigned integer (u64, decimal or 0x hex), got \"soon\": invalid digit found in string"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::ops::Bound;

use crate::hbase::from_string_binary;
use crate::scan::ScanRanges;

/// Bad text input: names the field (its dotted path) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    field: String,
    message: String,
}

impl TextError {
    /// An error about `field`.
    pub fn new(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            message: message.into(),
        }
    }

    /// The field path (`a`, `inner.b`), empty when the error is about the whole input.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for TextError {}

/// How the last constraint of a scan is given.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Last {
    /// `field=lo..hi`, `lo..=hi`, `lo..`, `..hi`, `..`: a range (an empty side is open).
    Range {
        /// Field path.
        field: String,
        /// Lower bound text, `None` when open.
        lo: Option<String>,
        /// Upper bound text, `None` when open.
        hi: Option<String>,
        /// `..=`: the upper bound is included.
        inclusive: bool,
    },
    /// `field^=prefix`: values starting with a prefix.
    StartsWith {
        /// Field path.
        field: String,
        /// Prefix text.
        prefix: String,
    },
}

impl Last {
    fn field(&self) -> &str {
        match self {
            Last::Range { field, .. } | Last::StartsWith { field, .. } => field,
        }
    }
}

/// `field=value` pairs (and, for scans, one trailing range or starts-with constraint).
#[derive(Debug, Clone, Default)]
pub struct TextArgs {
    pairs: Vec<(String, String, bool)>,
    scan: bool,
    last: Option<Last>,
    last_used: bool,
}

impl TextArgs {
    /// Equality pairs `field=value` (split at the first `=`).
    ///
    /// # Errors
    ///
    /// An argument without `=`, or a field given twice.
    pub fn parse<I, S>(args: I) -> Result<Self, TextError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut out = TextArgs::default();
        for a in args {
            let a = a.as_ref();
            let Some((k, v)) = a.split_once('=') else {
                return Err(TextError::new(
                    "",
                    format!("expected field=value, got {a:?}"),
                ));
            };
            out.push(k, v)?;
        }
        Ok(out)
    }

    /// Scan arguments: equality pairs, and as the last argument optionally a range
    /// (`field=lo..hi`, `lo..=hi`, `lo..`, `..hi`) or a prefix (`field^=prefix`). Only the last
    /// argument is read as a range; to fix a field to a text containing `..` there, escape a dot
    /// as `\x2E`.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse), and a `^=` that is not the last argument.
    pub fn parse_scan<I, S>(args: I) -> Result<Self, TextError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let n = args.len();
        let mut out = TextArgs {
            scan: true,
            ..TextArgs::default()
        };
        for (i, a) in args.iter().enumerate() {
            let a = a.as_ref();
            let is_last = i + 1 == n;
            let Some((k, v)) = a.split_once('=') else {
                return Err(TextError::new(
                    "",
                    format!("expected field=value, field=lo..hi or field^=prefix, got {a:?}"),
                ));
            };
            if let Some(field) = k.strip_suffix('^') {
                if !is_last {
                    return Err(TextError::new(
                        field,
                        "a prefix (^=) ends the scan: give it as the last argument",
                    ));
                }
                out.last = Some(Last::StartsWith {
                    field: field.to_owned(),
                    prefix: v.to_owned(),
                });
                continue;
            }
            if is_last {
                if let Some((lo, hi)) = v.split_once("..") {
                    let (hi, inclusive) = match hi.strip_prefix('=') {
                        Some(h) => (h, true),
                        None => (hi, false),
                    };
                    let side = |s: &str| (!s.is_empty()).then(|| s.to_owned());
                    out.last = Some(Last::Range {
                        field: k.to_owned(),
                        lo: side(lo),
                        hi: side(hi),
                        inclusive,
                    });
                    continue;
                }
            }
            out.push(k, v)?;
        }
        if let Some(l) = &out.last {
            if out.pairs.iter().any(|(k, _, _)| k == l.field()) {
                return Err(TextError::new(
                    l.field(),
                    "given twice (as a value and as a range or prefix)",
                ));
            }
        }
        Ok(out)
    }

    fn push(&mut self, k: &str, v: &str) -> Result<(), TextError> {
        if k.is_empty() {
            return Err(TextError::new("", format!("empty field name in {k}={v}")));
        }
        if self.pairs.iter().any(|(p, _, _)| p == k) {
            return Err(TextError::new(k, "given twice"));
        }
        self.pairs.push((k.to_owned(), v.to_owned(), false));
        Ok(())
    }

    /// The value text of `path`, marked as used.
    ///
    /// # Errors
    ///
    /// `path` is not given (the message says the `expected` form).
    pub fn take(&mut self, path: &str, expected: &str) -> Result<String, TextError> {
        match self.pairs.iter_mut().find(|(k, _, _)| k == path) {
            Some((_, v, used)) => {
                *used = true;
                Ok(v.clone())
            }
            None => Err(TextError::new(
                path,
                format!("missing: give {path}=<{expected}>"),
            )),
        }
    }

    /// A bad value error for `path`, with a hint when a scan value looks like a range that is
    /// not the last argument.
    pub fn bad_value(&self, path: &str, text: &str, message: String) -> TextError {
        let looks_like_range = self.scan && text.contains("..");
        if looks_like_range {
            TextError::new(
                path,
                format!("{message} (a range must be the last argument: it ends the scan)"),
            )
        } else {
            TextError::new(path, message)
        }
    }

    /// Whether `path` (or a sub-field `path.x`) is given.
    pub fn has(&self, path: &str) -> bool {
        self.pairs.iter().any(|(k, _, _)| {
            k == path
                || k.strip_prefix(path)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// Every argument was used.
    ///
    /// # Errors
    ///
    /// The first unused argument: an unknown field, or (in a scan) a field after an unfixed one.
    pub fn finish(&self, fields: &[&str]) -> Result<(), TextError> {
        let known = |k: &str| {
            fields
                .iter()
                .any(|f| k == *f || k.strip_prefix(f).is_some_and(|r| r.starts_with('.')))
        };
        if let Some((k, _, _)) = self.pairs.iter().find(|(_, _, used)| !used) {
            return Err(self.unused(k, fields, known(k)));
        }
        if let Some(l) = self.last.as_ref().filter(|_| !self.last_used) {
            return Err(self.unused(l.field(), fields, known(l.field())));
        }
        Ok(())
    }

    fn unused(&self, k: &str, fields: &[&str], known: bool) -> TextError {
        if !known {
            return TextError::new(k, format!("no such field (fields: {})", fields.join(", ")));
        }
        // A known field left over in a scan: a field before it is not fixed.
        let root = k.split('.').next().unwrap_or(k);
        let free = fields
            .iter()
            .take_while(|f| **f != root)
            .find(|f| !self.has(f) && self.last.as_ref().is_none_or(|l| l.field() != **f));
        match free {
            Some(f) => TextError::new(
                k,
                format!(
                    "cannot be constrained while `{f}` before it is free: a scan fixes fields in key order (give {f}=… too)"
                ),
            ),
            None => TextError::new(
                k,
                "comes after a range or prefix: a range or prefix ends the scan",
            ),
        }
    }

    /// In a generated scan: how field `path` is constrained.
    #[doc(hidden)]
    pub fn step(&mut self, path: &str) -> Step {
        if self.has(path) {
            return Step::Eq;
        }
        match &self.last {
            Some(Last::Range { field, .. }) if field == path => Step::Range,
            Some(Last::StartsWith { field, .. }) if field == path => Step::StartsWith,
            _ => Step::Done,
        }
    }

    /// The bounds of the range on `path`, parsed as `T`.
    ///
    /// # Errors
    ///
    /// A bound that does not parse as `T`.
    pub fn range_bounds<T: FromText>(
        &mut self,
        path: &str,
    ) -> Result<(Bound<T>, Bound<T>), TextError> {
        let Some(Last::Range {
            lo, hi, inclusive, ..
        }) = self.last.clone()
        else {
            return Err(TextError::new(path, "no range given"));
        };
        self.last_used = true;
        let lo = match lo {
            None => Bound::Unbounded,
            Some(s) => Bound::Included(parse_field::<T>(path, &s)?),
        };
        let hi = match hi {
            None => Bound::Unbounded,
            Some(s) if inclusive => Bound::Included(parse_field::<T>(path, &s)?),
            Some(s) => Bound::Excluded(parse_field::<T>(path, &s)?),
        };
        Ok((lo, hi))
    }

    /// The prefix on `path`, parsed as `T`.
    ///
    /// # Errors
    ///
    /// A prefix that does not parse as `T`.
    pub fn prefix<T: FromText>(&mut self, path: &str) -> Result<T, TextError> {
        let Some(Last::StartsWith { prefix, .. }) = self.last.clone() else {
            return Err(TextError::new(path, "no prefix given"));
        };
        self.last_used = true;
        parse_field::<T>(path, &prefix)
    }

    /// In a generated scan: the error for a range or prefix a field does not allow.
    #[doc(hidden)]
    pub fn refused(&self, path: &str, what: &str, why: &str) -> TextError {
        TextError::new(path, format!("no {what} on this field: {why}"))
    }
}

/// How a generated scan constrains one field.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Fixed to a value.
    Eq,
    /// A range (ends the scan).
    Range,
    /// A prefix (ends the scan).
    StartsWith,
    /// Not constrained: the scan ends before this field.
    Done,
}

/// `parent.name`, or `name` at the top level.
#[doc(hidden)]
pub fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

fn parse_field<T: FromText>(path: &str, s: &str) -> Result<T, TextError> {
    T::parse_text(s)
        .map_err(|e| TextError::new(path, format!("expected {}, got {s:?}: {e}", T::expected())))
}

#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` cannot be read from text (key tool)",
    note = "field types must be integers, bool, char, f32/f64, [u8; N], strings/bytes, Option of those, or types deriving RowKey"
)]
/// A field type whose values can be typed as text. `#[derive(RowKey)]` implements it for
/// nested keys and fieldless enums (with the `tool` feature); see the [module docs](self) for
/// the syntax.
pub trait FromText: Sized {
    /// What the text looks like, for errors and help (`an unsigned integer (u64, …)`).
    const EXPECTED: &'static str;

    /// [`EXPECTED`](Self::EXPECTED), with the inner type's form for `Option`s.
    fn expected() -> String {
        Self::EXPECTED.to_owned()
    }

    /// Parse one value.
    ///
    /// # Errors
    ///
    /// Why the text is not a value (the caller adds the field and [`EXPECTED`](Self::EXPECTED)).
    fn parse_text(s: &str) -> Result<Self, String>;

    /// Read the value of field `path` from `args` (nested keys read `path.sub` fields).
    ///
    /// # Errors
    ///
    /// A missing field or bad text, naming the field.
    fn from_args(args: &mut TextArgs, path: &str) -> Result<Self, TextError> {
        let s = args.take(path, &Self::expected())?;
        Self::parse_text(&s).map_err(|e| {
            args.bad_value(
                path,
                &s,
                format!("expected {}, got {s:?}: {e}", Self::expected()),
            )
        })
    }
}

/// Encoding and scanning a key from `field=value` text. `#[derive(RowKey)]` implements it (with
/// the `tool` feature) for every struct key without lifetime parameters (a generic key once its type parameters are
/// given, e.g. `Tagged<u32>`).
pub trait TextFields: crate::RowKey {
    /// `(field, expected text)` of each top-level field, in key order.
    fn fields() -> Vec<(&'static str, String)>;

    /// The key from `field=value` pairs, encoded.
    ///
    /// # Errors
    ///
    /// A missing, unknown or unparsable field, or a value the key cannot encode.
    fn encode_text(args: &mut TextArgs) -> Result<Vec<u8>, TextError>;

    /// The scan ranges the typed builder `T::scan()` gives for the same constraints: fields in
    /// key order fixed by equality, then optionally a range or prefix on the next field.
    ///
    /// # Errors
    ///
    /// As [`encode_text`](Self::encode_text), and a constraint the typed builder refuses (a
    /// range on a hashed field, a skipped field, a field after a range).
    fn scan_text(args: &mut TextArgs) -> Result<ScanRanges, TextError>;

    /// For a tagged key enum (`#[rowkey(tag = ..)]` variants), its variants; empty for a
    /// struct key. Its text form is `variant=Name` then the variant key's own fields, and its
    /// scans are the variant's typed scan behind the tag (`T::scan_<variant>()`).
    fn variants() -> Vec<TaggedVariant> {
        Vec::new()
    }
}

/// One variant of a tagged key enum, for the key tool: its name, tag and key type's text
/// functions. `#[derive(RowKey)]` lists them in [`TextFields::variants`].
///
#[cfg_attr(feature = "tool", doc = "```")]
#[cfg_attr(not(feature = "tool"), doc = "```ignore")]
/// use rowkey::text::{TextArgs, TextFields};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct ByBuyer {
///     #[sep]
///     buyer: String,
///     order_id: u64,
/// }
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct OrderRow {
///     #[salt(buckets = 4)]
///     order_id: u64,
/// }
///
/// #[derive(RowKey, Debug, PartialEq)]
/// enum Orders {
///     #[rowkey(tag = b"r")]
///     Row(OrderRow),
///     #[rowkey(tag = b"i1")]
///     Buyer(ByBuyer),
/// }
///
/// let v = Orders::variants();
/// assert_eq!((v[1].name, v[1].tag), ("Buyer", &b"i1"[..]));
/// assert_eq!(v[1].layout.name, "ByBuyer");
/// // text: the variant, then its key's fields
/// let mut args = TextArgs::parse(["variant=Buyer", "buyer=ann", "order_id=7"])?;
/// let key = Orders::encode_text(&mut args)?;
/// assert_eq!(key, Orders::Buyer(ByBuyer { buyer: "ann".into(), order_id: 7 }).to_row_key()?.to_vec());
/// let mut args = TextArgs::parse_scan(["variant=Row", "order_id=42"])?;
/// assert_eq!(Orders::scan_text(&mut args)?, Orders::scan_row().order_id(42).ranges());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct TaggedVariant {
    /// The variant's name.
    pub name: &'static str,
    /// Its tag: the bytes its keys start with.
    pub tag: &'static [u8],
    /// The layout of the variant's key type (without the tag).
    pub layout: &'static crate::layout::Layout,
    /// The variant key type's [`TextFields::fields`].
    pub fields: fn() -> Vec<(&'static str, String)>,
    /// The variant key type's [`TextFields::encode_text`].
    pub encode: fn(&mut TextArgs) -> Result<Vec<u8>, TextError>,
    /// The variant key type's [`TextFields::scan_text`].
    pub scan: fn(&mut TextArgs) -> Result<ScanRanges, TextError>,
}

impl fmt::Debug for TaggedVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaggedVariant")
            .field("name", &self.name)
            .field("tag", &self.tag)
            .field("layout", &self.layout.name)
            .finish()
    }
}

/// The text of a tagged key enum's `variant` field: one of the names.
fn variant_expected(names: &[&str]) -> String {
    format!("a variant: {}", names.join(", "))
}

/// In generated code: which of `names` the `variant` field under `path` names.
///
/// # Errors
///
/// `variant` missing, or not one of `names`.
#[doc(hidden)]
pub fn variant_index(args: &mut TextArgs, path: &str, names: &[&str]) -> Result<usize, TextError> {
    let field = join(path, "variant");
    let expected = variant_expected(names);
    let v = args.take(&field, &expected)?;
    names
        .iter()
        .position(|n| *n == v)
        .ok_or_else(|| TextError::new(&field, format!("expected {expected}, got {v:?}")))
}

/// [`TextFields::fields`] of a tagged key enum: `variant`, then which fields follow.
#[doc(hidden)]
pub fn tagged_fields(variants: &[TaggedVariant]) -> Vec<(&'static str, String)> {
    let names: Vec<&str> = variants.iter().map(|v| v.name).collect();
    vec![(
        "variant",
        format!("{}, then that variant's fields", variant_expected(&names)),
    )]
}

fn tagged_variant<'v>(
    args: &mut TextArgs,
    variants: &'v [TaggedVariant],
) -> Result<&'v TaggedVariant, TextError> {
    let names: Vec<&str> = variants.iter().map(|v| v.name).collect();
    let i = variant_index(args, "", &names)?;
    variants
        .get(i)
        .ok_or_else(|| TextError::new("variant", "no such variant"))
}

/// [`TextFields::encode_text`] of a tagged key enum: the tag of `variant=…`, then the
/// variant's key from its fields.
///
/// # Errors
///
/// A missing or unknown variant, or the variant key's own errors.
#[doc(hidden)]
pub fn tagged_encode(
    args: &mut TextArgs,
    variants: &[TaggedVariant],
) -> Result<Vec<u8>, TextError> {
    let v = tagged_variant(args, variants)?;
    let key = (v.encode)(args)?;
    let mut out = Vec::with_capacity(v.tag.len() + key.len());
    out.extend_from_slice(v.tag);
    out.extend_from_slice(&key);
    Ok(out)
}

/// [`TextFields::scan_text`] of a tagged key enum: the variant's scan behind its tag (what
/// `T::scan_<variant>()` gives).
///
/// # Errors
///
/// A missing or unknown variant, or the variant scan's own errors.
#[doc(hidden)]
pub fn tagged_scan(
    args: &mut TextArgs,
    variants: &[TaggedVariant],
) -> Result<ScanRanges, TextError> {
    let v = tagged_variant(args, variants)?;
    let inner = (v.scan)(args)?;
    Ok(behind_tag(v.tag, &inner))
}

/// `ranges` of a variant key, for the keys behind `tag`: each range with the tag in front (an
/// open end becomes the end of the tag's keys).
fn behind_tag(tag: &[u8], ranges: &ScanRanges) -> ScanRanges {
    let with_tag = |b: &[u8]| {
        let mut v = Vec::with_capacity(tag.len() + b.len());
        v.extend_from_slice(tag);
        v.extend_from_slice(b);
        v
    };
    let shifted: Vec<crate::scan::ScanRange> = ranges
        .iter()
        .map(|r| {
            let stop = match r.stop() {
                Some(s) => Some(with_tag(s)),
                None => crate::scan::prefix_successor(tag),
            };
            crate::scan::ScanRange::new(&with_tag(r.start()), stop.as_deref())
        })
        .collect();
    let out = match <[crate::scan::ScanRange; 1]>::try_from(shifted) {
        Ok([one]) => ScanRanges::one(one),
        Err(many) => ScanRanges::new(many),
    };
    out.with_salt_end(tag.len() + ranges.salt_end())
}

/// Encode a key built by generated code.
///
/// # Errors
///
/// The key's own [`crate::EncodeError`], as a [`TextError`] naming the field.
#[doc(hidden)]
pub fn encode_key<K: crate::RowKey>(key: &K) -> Result<Vec<u8>, TextError> {
    key.to_row_key()
        .map(|b| b.to_vec())
        .map_err(|e| TextError::new(e.field(), e.to_string()))
}

/// The error a borrowed key (one with lifetime parameters) gives: the key tool builds keys
/// from text it does not keep, so it reads owned keys only.
#[doc(hidden)]
pub fn borrowed_unsupported(path: &str, name: &str) -> TextError {
    TextError::new(
        path,
        format!(
            "`{name}` borrows (it has lifetime parameters): the key tool reads owned keys only, e.g. `String` for `&str`"
        ),
    )
}

/// For a nested key: text alone cannot give it.
#[doc(hidden)]
pub fn nested_text(name: &str) -> String {
    format!("`{name}` is a nested key: give its fields as field.sub=value")
}

// ---------------------------------------------------------------------------------------------
// value parsers

fn split_sign(s: &str) -> (bool, &str) {
    match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    }
}

fn parse_i128(s: &str) -> Result<i128, String> {
    let (neg, body) = split_sign(s.trim());
    let mag = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => u128::from_str_radix(h, 16),
        None => body.parse::<u128>(),
    }
    .map_err(|e| e.to_string())?;
    if neg {
        0i128
            .checked_sub_unsigned(mag)
            .ok_or_else(|| "number too small to fit in target type".to_owned())
    } else {
        i128::try_from(mag).map_err(|_| "number too large to fit in target type".to_owned())
    }
}

fn parse_u128(s: &str) -> Result<u128, String> {
    let (neg, body) = split_sign(s.trim());
    let mag = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => u128::from_str_radix(h, 16),
        None => body.parse::<u128>(),
    }
    .map_err(|e| e.to_string())?;
    if neg && mag != 0 {
        return Err("a negative number for an unsigned type".to_owned());
    }
    Ok(mag)
}

macro_rules! text_uint {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            const EXPECTED: &'static str = concat!("an unsigned integer (", stringify!($t), ", decimal or 0x hex)");
            fn parse_text(s: &str) -> Result<Self, String> {
                let v = parse_u128(s)?;
                <$t>::try_from(v).map_err(|_| format!("out of range for {}", stringify!($t)))
            }
        }
    )*};
}
text_uint!(u8, u16, u32, u64, u128);

macro_rules! text_int {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            const EXPECTED: &'static str = concat!("an integer (", stringify!($t), ", decimal or 0x hex)");
            fn parse_text(s: &str) -> Result<Self, String> {
                let v = parse_i128(s)?;
                <$t>::try_from(v).map_err(|_| format!("out of range for {}", stringify!($t)))
            }
        }
    )*};
}
text_int!(i8, i16, i32, i64, i128);

macro_rules! text_float {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            const EXPECTED: &'static str = concat!("a number (", stringify!($t), ")");
            fn parse_text(s: &str) -> Result<Self, String> {
                s.trim().parse::<$t>().map_err(|e| e.to_string())
            }
        }
    )*};
}
text_float!(f32, f64);

impl FromText for bool {
    const EXPECTED: &'static str = "true or false";
    fn parse_text(s: &str) -> Result<Self, String> {
        match s.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err("not a bool".to_owned()),
        }
    }
}

impl FromText for char {
    const EXPECTED: &'static str = "one character";
    fn parse_text(s: &str) -> Result<Self, String> {
        let text = parse_string(s)?;
        let mut it = text.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Ok(c),
            _ => Err("not exactly one character".to_owned()),
        }
    }
}

fn parse_string(s: &str) -> Result<String, String> {
    let bytes = from_string_binary(s).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 after unescaping: {e}"))
}

fn parse_bytes(s: &str) -> Result<Vec<u8>, String> {
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_prefix("hex:"));
    match hex {
        Some(h) => parse_hex(h),
        None => from_string_binary(s).map_err(|e| e.to_string()),
    }
}

/// Hex digits (upper or lower case; spaces, `:` and `_` between bytes are ignored) as bytes.
///
/// # Errors
///
/// A non-hex character or an odd number of digits.
pub fn parse_hex(h: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = h
        .bytes()
        .filter(|b| !matches!(b, b' ' | b':' | b'_'))
        .collect();
    if !digits.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".to_owned());
    }
    digits
        .chunks_exact(2)
        .map(|c| match c {
            [hi, lo] => match (hex_val(*hi), hex_val(*lo)) {
                (Some(h), Some(l)) => Ok((h << 4) | l),
                _ => Err(format!(
                    "not a hex digit in {:?}",
                    String::from_utf8_lossy(c)
                )),
            },
            _ => Err("an odd number of hex digits".to_owned()),
        })
        .collect()
}

fn hex_val(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

const TEXT: &str = "text (toStringBinary escapes such as \\x00 allowed)";
const BYTES: &str = "bytes (0x… / hex:… hex, or toStringBinary text such as ab\\x00\\xFF)";

impl FromText for String {
    const EXPECTED: &'static str = TEXT;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_string(s)
    }
}
impl FromText for Box<str> {
    const EXPECTED: &'static str = TEXT;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_string(s).map(String::into_boxed_str)
    }
}
impl FromText for Vec<u8> {
    const EXPECTED: &'static str = BYTES;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_bytes(s)
    }
}
impl FromText for bytes::Bytes {
    const EXPECTED: &'static str = BYTES;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_bytes(s).map(bytes::Bytes::from)
    }
}
impl<const N: usize> FromText for [u8; N] {
    const EXPECTED: &'static str = "fixed-size bytes (0x… / hex:… hex, or toStringBinary text)";
    fn parse_text(s: &str) -> Result<Self, String> {
        let v = parse_bytes(s)?;
        let len = v.len();
        <[u8; N]>::try_from(v).map_err(|_| format!("{len} byte(s), the field takes exactly {N}"))
    }
}
impl<T: FromText> FromText for Option<T> {
    const EXPECTED: &'static str = "none, or a value";
    fn expected() -> String {
        format!("none, or {}", T::expected())
    }
    fn parse_text(s: &str) -> Result<Self, String> {
        match s.trim() {
            "none" | "null" | "None" => Ok(None),
            _ => T::parse_text(s).map(Some),
        }
    }
    fn from_args(args: &mut TextArgs, path: &str) -> Result<Self, TextError> {
        let s = args.take(path, &Self::expected())?;
        match s.trim() {
            "none" | "null" | "None" => Ok(None),
            _ => T::parse_text(&s).map(Some).map_err(|e| {
                args.bad_value(
                    path,
                    &s,
                    format!("expected none or {}, got {s:?}: {e}", T::expected()),
                )
            }),
        }
    }
}

/// A fieldless enum value from its variant name or code: `names` and `codes` in declaration order.
///
/// # Errors
///
/// Neither a variant name nor a known code.
#[doc(hidden)]
pub fn enum_index(s: &str, names: &[&str], codes: &[i128]) -> Result<usize, String> {
    let t = s.trim();
    if let Some(i) = names.iter().position(|n| *n == t) {
        return Ok(i);
    }
    if let Ok(code) = parse_i128(t) {
        if let Some(i) = codes.iter().position(|c| *c == code) {
            return Ok(i);
        }
        return Err(format!("no variant has code {code}"));
    }
    Err(format!("not a variant (variants: {})", names.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_parsers() {
        assert_eq!(u8::parse_text("0xFF"), Ok(255));
        assert!(u8::parse_text("256").is_err());
        assert!(u32::parse_text("-1").is_err());
        assert_eq!(u32::parse_text("-0"), Ok(0));
        assert_eq!(i8::parse_text("-0x80"), Ok(-128));
        assert!(i8::parse_text("-0x81").is_err());
        assert_eq!(i128::parse_text(&i128::MIN.to_string()), Ok(i128::MIN));
        assert_eq!(u128::parse_text(&u128::MAX.to_string()), Ok(u128::MAX));
        assert_eq!(f64::parse_text("-0"), Ok(-0.0));
        assert_eq!(bool::parse_text("true"), Ok(true));
        assert!(bool::parse_text("yes").is_err());
        assert_eq!(char::parse_text(r"\x41"), Ok('A'));
        assert_eq!(char::parse_text("é"), Ok('é'));
        assert!(char::parse_text("ab").is_err());
        assert_eq!(String::parse_text(r"a\x00\x5Cb"), Ok("a\0\\b".to_owned()));
        assert!(String::parse_text(r"\xFF").is_err()); // not UTF-8
        assert!(String::parse_text(r"\x4").is_err());
        assert_eq!(Vec::<u8>::parse_text("0xdead"), Ok(vec![0xDE, 0xAD]));
        assert_eq!(Vec::<u8>::parse_text("hex:de:ad"), Ok(vec![0xDE, 0xAD]));
        assert_eq!(Vec::<u8>::parse_text(r"a\xFF"), Ok(vec![b'a', 0xFF]));
        assert!(Vec::<u8>::parse_text("0xabc").is_err());
        assert_eq!(<[u8; 2]>::parse_text("ab"), Ok(*b"ab"));
        assert!(<[u8; 2]>::parse_text("abc").is_err());
        assert_eq!(Option::<u8>::parse_text("none"), Ok(None));
        assert_eq!(Option::<u8>::parse_text("7"), Ok(Some(7)));
        assert_eq!(
            Option::<String>::parse_text(r"\x6Eone"),
            Ok(Some("none".to_owned()))
        );
        assert_eq!(enum_index("B", &["A", "B"], &[1, 2]), Ok(1));
        assert_eq!(enum_index("0x01", &["A", "B"], &[1, 2]), Ok(0));
        assert!(enum_index("3", &["A", "B"], &[1, 2]).is_err());
    }

    #[test]
    fn scan_args() {
        let a = TextArgs::parse_scan(["a=1", "b=x..=y"]).unwrap();
        assert_eq!(
            a.last,
            Some(Last::Range {
                field: "b".into(),
                lo: Some("x".into()),
                hi: Some("y".into()),
                inclusive: true
            })
        );
        // only the last argument is a range
        let a = TextArgs::parse_scan(["a=1..2", "b=3"]).unwrap();
        assert!(a.last.is_none());
        assert!(TextArgs::parse_scan(["a^=x", "b=1"]).is_err());
        assert!(TextArgs::parse_scan(["a=1", "a=2"]).is_err());
        assert!(TextArgs::parse_scan(["a=1", "a=1.."]).is_err());
        assert!(TextArgs::parse(["novalue"]).is_err());
        let mut a = TextArgs::parse(["x.y=1"]).unwrap();
        assert!(a.has("x"));
        assert!(!a.has("x.z"));
        assert!(a.take("x.z", "n").is_err());
        assert!(a.finish(&["x"]).is_err()); // x.y unused
        assert_eq!(a.take("x.y", "n").unwrap(), "1");
        assert!(a.finish(&["x"]).is_ok());
    }
}
