//! Tagged key enums in text: [`TaggedVariant`] and the `variant=Name` field their derived impls
//! read, then the variant key's own fields and scan behind its tag.

use core::fmt;

use super::args::{join, TextArgs};
use super::error::TextError;
use crate::scan::ScanRanges;

/// One variant of a tagged key enum, for the key tool: its name, tag and key type's text
/// functions. `#[derive(RowKey)]` lists them in
/// [`TextFields::variants`](super::TextFields::variants).
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
    /// The variant key type's [`TextFields::fields`](super::TextFields::fields).
    pub fields: fn() -> Vec<(&'static str, String)>,
    /// The variant key type's [`TextFields::encode_text`](super::TextFields::encode_text).
    pub encode: fn(&mut TextArgs) -> Result<Vec<u8>, TextError>,
    /// The variant key type's [`TextFields::scan_text`](super::TextFields::scan_text).
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

/// [`TextFields::fields`](super::TextFields::fields) of a tagged key enum: `variant`, then which
/// fields follow.
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

/// [`TextFields::encode_text`](super::TextFields::encode_text) of a tagged key enum: the tag of
/// `variant=…`, then the variant's key from its fields.
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

/// [`TextFields::scan_text`](super::TextFields::scan_text) of a tagged key enum: the variant's
/// scan behind its tag (what `T::scan_<variant>()` gives).
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
