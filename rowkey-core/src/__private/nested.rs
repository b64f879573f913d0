//! A nested key's range bound, written field by field by the `bound_into` the derive generates
//! for a key used as a field of another key.

use crate::bound::{prefix_edge, Edge};
use crate::codec::Codec;

/// A field before the last of a derived key's range bound (see the nested codec's
/// `bound_into`): `None` when its value encodes (equal to the bound's, the next field decides),
/// otherwise the bound of the whole key written from `start`, decided by this field's nearest
/// encodable bound whatever follows. Fields are ascending (`RANGE_EXACT` keys only).
#[doc(hidden)]
pub fn nested_field_bound<C: Codec<T>, T>(
    v: &T,
    mask: u8,
    upper: bool,
    start: usize,
    out: &mut Vec<u8>,
) -> Option<Edge> {
    let at = out.len();
    if C::encode_vec(v, out, mask).is_ok() {
        return None;
    }
    out.truncate(at);
    let e = C::bound_into(v, mask, upper, true, out);
    Some(prefix_edge(out, start, at, e, upper == C::inverted(mask)))
}

/// The last field of a derived key's range bound: the field's own bound, or, when it passes
/// every value or none, the bound of the whole key written from `start`.
#[doc(hidden)]
pub fn nested_last_bound<C: Codec<T>, T>(
    v: &T,
    mask: u8,
    upper: bool,
    inclusive: bool,
    start: usize,
    out: &mut Vec<u8>,
) -> Edge {
    let at = out.len();
    match C::bound_into(v, mask, upper, inclusive, out) {
        e @ Edge::At { .. } => e,
        e => prefix_edge(out, start, at, e, upper == C::inverted(mask)),
    }
}

/// A derived key's range bound, field by field (the generated `bound_into` of a nested key):
/// [`field`](Self::field) for every field but the last — it breaks with the bound when that
/// field decides it — then [`last`](Self::last).
#[doc(hidden)]
pub struct NestedBound<'a> {
    mask: u8,
    upper: bool,
    inclusive: bool,
    start: usize,
    out: &'a mut Vec<u8>,
}

impl<'a> NestedBound<'a> {
    /// The bound of a key written into `out` from `start`.
    #[inline(always)]
    pub fn new(mask: u8, upper: bool, inclusive: bool, start: usize, out: &'a mut Vec<u8>) -> Self {
        Self {
            mask,
            upper,
            inclusive,
            start,
            out,
        }
    }

    /// [`nested_field_bound`]: continue with the next field, or break with the bound.
    #[inline(always)]
    pub fn field<C: Codec<T>, T>(&mut self, v: &T) -> core::ops::ControlFlow<Edge> {
        match nested_field_bound::<C, T>(v, self.mask, self.upper, self.start, self.out) {
            Some(e) => core::ops::ControlFlow::Break(e),
            None => core::ops::ControlFlow::Continue(()),
        }
    }

    /// [`nested_last_bound`].
    #[inline(always)]
    pub fn last<C: Codec<T>, T>(&mut self, v: &T) -> Edge {
        nested_last_bound::<C, T>(
            v,
            self.mask,
            self.upper,
            self.inclusive,
            self.start,
            self.out,
        )
    }

    /// The bound: `fields` (every field but the last), then `last` unless a field decided it.
    #[inline(always)]
    pub fn bound(
        mut self,
        fields: impl FnOnce(&mut Self) -> core::ops::ControlFlow<Edge>,
        last: impl FnOnce(&mut Self) -> Edge,
    ) -> Edge {
        match fields(&mut self) {
            core::ops::ControlFlow::Break(e) => e,
            core::ops::ControlFlow::Continue(()) => last(&mut self),
        }
    }
}
