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
