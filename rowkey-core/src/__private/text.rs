//! Text scans (the key tool): what a generated `TextFields` calls, one call per field, and the
//! macro that keeps the derive's text impls only with the `tool` feature.

/// The derive's key tool impls (`FromText`, `TextFields`) pass through here: kept with the
/// `tool` feature, dropped without it (a derive cannot see the user's features; this macro is
/// expanded with rowkey-core's).
#[cfg(feature = "tool")]
#[doc(hidden)]
#[macro_export]
macro_rules! __rowkey_text_impls {
    ($($t:tt)*) => { $($t)* };
}
#[cfg(not(feature = "tool"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __rowkey_text_impls {
    ($($t:tt)*) => {};
}
pub use crate::__rowkey_text_impls as text_impls;

/// What a text scan asks of one field: a value, a range `R`, a prefix `P`, or nothing more.
/// A form the typed builder refuses is an uninhabited `R`/`P` (its `read` is the error).
pub enum TextStep<T, R, P> {
    Eq(T),
    Range(R),
    Prefix(P),
    Done,
}

/// A range or prefix of a text scan, read from the arguments (or refused).
pub trait TextForm: Sized {
    /// # Errors
    ///
    /// A bound or prefix that does not parse, or a refused form.
    fn read(args: &mut crate::text::TextArgs, path: &str) -> Result<Self, crate::text::TextError>;
}

/// The bounds of a range.
pub type Bounds<T> = (core::ops::Bound<T>, core::ops::Bound<T>);

impl<T: crate::text::FromText> TextForm for Bounds<T> {
    fn read(args: &mut crate::text::TextArgs, path: &str) -> Result<Self, crate::text::TextError> {
        args.range_bounds::<T>(path)
    }
}

/// A prefix.
pub struct Prefix<T>(pub T);

impl<T: crate::text::FromText> TextForm for Prefix<T> {
    fn read(args: &mut crate::text::TextArgs, path: &str) -> Result<Self, crate::text::TextError> {
        args.prefix::<T>(path).map(Prefix)
    }
}

/// Why a range over a nested key is refused when its bytes do not sort as its values.
pub const NESTED_RANGE_REASON: &str = "the nested key's bytes do not sort as its values (a field with #[desc], #[reverse_ts], #[rowkey(java)], #[hash_prefix], #[reverse], a custom separator or a #[pad] fill other than 0x00, or a salt); fix it by equality";

macro_rules! refused_forms {
    ($($name:ident: $what:literal, $why:literal;)*) => {$(
        /// A refused form of a text scan (uninhabited).
        pub enum $name {}
        impl TextForm for $name {
            fn read(args: &mut crate::text::TextArgs, path: &str) -> Result<Self, crate::text::TextError> {
                Err(args.refused(path, $what, $why))
            }
        }
    )*};
}

refused_forms! {
    RangeOnHashed: "range", "the field is hashed (#[hash_prefix]), so its values are not in key order; fix it by equality";
    RangeOnReversed: "range", "the field is #[reverse]d; fix it by equality";
    RangeOnCustomSeparator: "range", "the field ends at a custom separator, so ranges would not be exact; fix it by equality";
    RangeOnPadFill: "range", "the field is padded with a fill byte other than 0x00, so a value continuing below the fill sorts before a shorter one and ranges would not be exact; fix it by equality";
    PrefixOnHashed: "prefix", "the field is hashed (#[hash_prefix]), so its values are not in key order; fix it by equality";
    PrefixOnReversed: "prefix", "the field is #[reverse]d; fix it by equality";
    PrefixOnNonContent: "prefix", "only string and bytes fields (and an Option of one) take a prefix; use a range";
    RangeOnPhoenixUnordered: "range", "in this Phoenix key the field's bytes do not sort as its values (CHAR(N), or DESC without rowKeyOrderOptimizable); fix it by equality";
    RangeOnStructUnordered: "range", "in this Bigtable struct key the field's bytes do not sort as its values (BigEndianBytes Int64, or a delimited string/bytes field that is not last); fix it by equality";
    PrefixOnPhoenixUnordered: "prefix", "a DESC variable-width column without rowKeyOrderOptimizable does not keep a value's extensions together; fix it by equality";
}

/// Field `name` of a key read from text under `parent` (`FromText::from_args` of a nested key's
/// field).
///
/// # Errors
///
/// A missing or bad value.
#[inline]
pub fn text_field<T: crate::text::FromText>(
    args: &mut crate::text::TextArgs,
    parent: &str,
    name: &str,
) -> Result<T, crate::text::TextError> {
    T::from_args(args, &crate::text::join(parent, name))
}

/// One field `path` of a generated text scan: its value, its range or prefix (then every
/// argument must have been used), or `Done` when the scan ends before it. `range_exact` is
/// false for a nested key whose bytes do not sort as its values (`Codec::RANGE_EXACT`; the
/// typed `_range` refuses it at compile time): its range is refused before it is parsed.
///
/// # Errors
///
/// A missing or bad value, a refused form, an unused argument.
#[inline]
pub fn text_step<T: crate::text::FromText, R: TextForm, P: TextForm>(
    args: &mut crate::text::TextArgs,
    path: &str,
    names: &[&str],
    range_exact: bool,
) -> Result<TextStep<T, R, P>, crate::text::TextError> {
    use crate::text::Step;
    Ok(match args.step(path) {
        Step::Eq => TextStep::Eq(T::from_args(args, path)?),
        Step::Range => {
            if !range_exact {
                return Err(args.refused(path, "range", NESTED_RANGE_REASON));
            }
            let r = R::read(args, path)?;
            args.finish(names)?;
            TextStep::Range(r)
        }
        Step::StartsWith => {
            let p = P::read(args, path)?;
            args.finish(names)?;
            TextStep::Prefix(p)
        }
        Step::Done => {
            args.finish(names)?;
            TextStep::Done
        }
    })
}
