//! Scan argument forms: one field accepts the same borrowed and owned forms in equality, range
//! and starts-with (`&str`, `String`, `Box<str>`, `Cow<str>` for a string field; `&[u8]`,
//! `Vec<u8>`, `Bytes`, `Cow<[u8]>`, `[u8; N]` for a bytes field; a reference to any of them;
//! `Option`s of those in ranges), and the bounds of a modulo-salted field's range.

/// A family of argument forms and the one borrowed form they all convert to.
pub trait FormFamily {
    type Canon<'a>;
}

/// String fields: every form is read as `&str`.
pub struct TextForms;
/// Bytes fields: every form is read as `&[u8]`.
pub struct BytesForms;
/// `Option` fields of a family.
pub struct OptionForms<F>(core::marker::PhantomData<F>);

impl FormFamily for TextForms {
    type Canon<'a> = &'a str;
}
impl FormFamily for BytesForms {
    type Canon<'a> = &'a [u8];
}
impl<F: FormFamily> FormFamily for OptionForms<F> {
    type Canon<'a> = Option<F::Canon<'a>>;
}

/// An argument form of family `F`.
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` cannot stand for a value of this scan field",
    note = "string fields take &str, String, Box<str> or Cow<str>; bytes fields take &[u8], Vec<u8>, Bytes, Cow<[u8]> or [u8; N]; each also by reference (&String, &&str, …); Option fields take Option of those in ranges"
)]
pub trait FormOf<F: FormFamily> {
    fn canon(&self) -> F::Canon<'_>;
}

// The owned and unsized forms; every reference to a form is a form too (below), so `&str`,
// `&String`, `&&str` (what iterating `&["a", "b"]` yields), `&Vec<u8>`, `&[u8; N]` all are.

macro_rules! text_forms {
    ($($t:ty),*) => {$(
        impl FormOf<TextForms> for $t {
            #[inline(always)]
            fn canon(&self) -> &str { self }
        }
    )*};
}
text_forms!(str, String, Box<str>, std::borrow::Cow<'_, str>);

macro_rules! bytes_forms {
    ($($t:ty),*) => {$(
        impl FormOf<BytesForms> for $t {
            #[inline(always)]
            fn canon(&self) -> &[u8] { self }
        }
    )*};
}
bytes_forms!([u8], Vec<u8>, bytes::Bytes, std::borrow::Cow<'_, [u8]>);
impl<const N: usize> FormOf<BytesForms> for [u8; N] {
    #[inline(always)]
    fn canon(&self) -> &[u8] {
        self
    }
}
impl<F: FormFamily, Q: FormOf<F> + ?Sized> FormOf<F> for &Q {
    #[inline(always)]
    fn canon(&self) -> F::Canon<'_> {
        Q::canon(*self)
    }
}
impl<F: FormFamily, Q: FormOf<F>> FormOf<OptionForms<F>> for Option<Q> {
    #[inline(always)]
    fn canon(&self) -> Option<F::Canon<'_>> {
        self.as_ref().map(FormOf::canon)
    }
}

/// A range of argument forms of family `F`: every `core::ops` range shape, `..`, and a pair of
/// `Bound`s.
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` is not a range of values of this scan field",
    note = "pass a range such as `a..b`, `a..=b`, `a..`, `..b`, `..=b`, `..` or `(Bound, Bound)` of the field's forms (&str, String, … for strings; &[u8], Vec<u8>, … for bytes)"
)]
pub trait RangeOf<F: FormFamily> {
    #[allow(clippy::type_complexity)]
    fn bounds(
        &self,
    ) -> (
        core::ops::Bound<F::Canon<'_>>,
        core::ops::Bound<F::Canon<'_>>,
    );
}

fn map_bound<'a, F: FormFamily, Q: FormOf<F>>(
    b: core::ops::Bound<&'a Q>,
) -> core::ops::Bound<F::Canon<'a>> {
    match b {
        core::ops::Bound::Included(q) => core::ops::Bound::Included(q.canon()),
        core::ops::Bound::Excluded(q) => core::ops::Bound::Excluded(q.canon()),
        core::ops::Bound::Unbounded => core::ops::Bound::Unbounded,
    }
}

macro_rules! range_of {
    ($($shape:ty),*) => {$(
        impl<F: FormFamily, Q: FormOf<F>> RangeOf<F> for $shape {
            #[inline(always)]
            fn bounds(&self) -> (core::ops::Bound<F::Canon<'_>>, core::ops::Bound<F::Canon<'_>>) {
                use core::ops::RangeBounds;
                (map_bound::<F, Q>(self.start_bound()), map_bound::<F, Q>(self.end_bound()))
            }
        }
    )*};
}
range_of!(
    core::ops::Range<Q>,
    core::ops::RangeInclusive<Q>,
    core::ops::RangeFrom<Q>,
    core::ops::RangeTo<Q>,
    core::ops::RangeToInclusive<Q>,
    (core::ops::Bound<Q>, core::ops::Bound<Q>)
);
impl<F: FormFamily> RangeOf<F> for core::ops::RangeFull {
    #[inline(always)]
    fn bounds(
        &self,
    ) -> (
        core::ops::Bound<F::Canon<'_>>,
        core::ops::Bound<F::Canon<'_>>,
    ) {
        (core::ops::Bound::Unbounded, core::ops::Bound::Unbounded)
    }
}

/// The values of a field whose argument is the field's type itself (or anything that borrows
/// as it): integers, `bool`, enums, nested keys.
pub struct Plain<T>(core::marker::PhantomData<T>);

/// The result of an IN-list method: the next stage, or too many alternatives.
pub type In<S> = Result<S, crate::scan::TooManyRanges>;

/// An IN-list (`.field_in(values)`): any iterator or collection of the field's argument forms
/// (`F`: a form family, or [`Plain`]), each fixed with the field's codec `C`.
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` is not a list of values of this scan field",
    note = "pass an iterator or collection of the field's values: an array, a Vec, a slice, a range of integers (`0..10`); a string field takes any string form (&str, String, …), a bytes field any bytes form, an Option field Options of those"
)]
pub trait ListOf<F, C> {
    /// Fix the field to each value, in every alternative of `a`.
    fn add_to(self, a: &mut crate::scan::builder::Alternatives) -> In<()>;
}

impl<I, T, C> ListOf<Plain<T>, C> for I
where
    I: IntoIterator,
    I::Item: core::borrow::Borrow<T>,
    C: crate::codec::Codec<T>,
{
    #[inline]
    fn add_to(self, a: &mut crate::scan::builder::Alternatives) -> In<()> {
        for v in self {
            a.add::<C, T>(core::borrow::Borrow::borrow(&v))?;
        }
        Ok(())
    }
}

impl<I, F, C> ListOf<F, C> for I
where
    I: IntoIterator,
    I::Item: FormOf<F>,
    F: FormFamily,
    C: for<'a> crate::codec::Codec<F::Canon<'a>>,
{
    #[inline]
    fn add_to(self, a: &mut crate::scan::builder::Alternatives) -> In<()> {
        for v in self {
            a.add::<C, F::Canon<'_>>(&v.canon())?;
        }
        Ok(())
    }
}

/// `.field_in(values)`: fix the next field to each value of the list, in every alternative of
/// `b` (`last`: the key's last field).
#[inline]
pub fn list<F, C, L: ListOf<F, C>>(
    b: crate::scan::builder::ScanBuilder,
    field: &'static str,
    last: bool,
    values: L,
) -> In<crate::scan::builder::ScanBuilder> {
    let mut a = b.alternatives(field);
    values.add_to(&mut a)?;
    a.done(last)
}

/// Equality on a string or bytes field, from any of its argument forms.
#[inline(always)]
pub fn fix_form<F, C, Q>(b: &mut crate::scan::builder::ScanBuilder, q: &Q)
where
    F: FormFamily,
    C: for<'a> crate::codec::Codec<F::Canon<'a>>,
    Q: FormOf<F> + ?Sized,
{
    b.field::<C, F::Canon<'_>>(&q.canon());
}

/// A range on a string or bytes field (or an `Option` of one), from any range of its forms.
#[inline(always)]
pub fn range_form<F, C, R>(b: crate::scan::builder::ScanBuilder, r: &R) -> crate::scan::Scan
where
    F: FormFamily,
    C: for<'a> crate::codec::Codec<F::Canon<'a>>,
    R: RangeOf<F>,
{
    let (lo, hi) = r.bounds();
    b.range_bounds::<C, F::Canon<'_>>(lo.as_ref(), hi.as_ref())
}

/// The content bytes of a form (what a starts-with scan compares).
pub trait ContentForm: FormFamily {
    fn bytes<'a>(c: Self::Canon<'a>) -> &'a [u8];
}
impl ContentForm for TextForms {
    #[inline(always)]
    fn bytes<'a>(c: Self::Canon<'a>) -> &'a [u8] {
        c.as_bytes()
    }
}
impl ContentForm for BytesForms {
    #[inline(always)]
    fn bytes<'a>(c: Self::Canon<'a>) -> &'a [u8] {
        c
    }
}

/// A starts-with scan on a string or bytes field, from any of its forms.
#[inline(always)]
pub fn starts_form<F, C, Q>(b: crate::scan::builder::ScanBuilder, q: &Q) -> crate::scan::Scan
where
    F: ContentForm,
    C: crate::codec::ContentPrefix,
    Q: FormOf<F> + ?Sized,
{
    b.starts_with::<C>(F::bytes(q.canon()))
}

/// A starts-with scan on an `Option` string or bytes field, from any form of the content: the
/// `Some` values whose content starts with the prefix (`None` never does; the empty prefix
/// selects every `Some` value).
#[inline(always)]
pub fn starts_form_some<F, C, Q>(b: crate::scan::builder::ScanBuilder, q: &Q) -> crate::scan::Scan
where
    F: ContentForm,
    C: crate::codec::SomePrefix,
    Q: FormOf<F> + ?Sized,
{
    b.starts_some::<C>(F::bytes(q.canon()))
}
