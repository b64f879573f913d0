//! Prefixes of string and bytes contents under a codec, for `_starts_with` scans: the bytes
//! every encoded value starting with a prefix starts with ([`ContentPrefix`]), behind an
//! `Option`'s `Some` byte ([`Present`], [`SomePrefix`]). The scan builder turns them into
//! ranges; each codec (the key modes' included) says here what its bytes are.

use crate::bound::Pieces;

/// Byte encoding of a string/bytes prefix under a codec, for `_starts_with` scans.
#[doc(hidden)]
pub trait ContentPrefix {
    /// The bytes every encoded value starting with `p` starts with, and the encoding of the
    /// one value whose encoding also starts with them without starting with `p` (padding).
    /// `None` when no value can start with `p`.
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)>;

    /// The common case of [`prefix_parts`](Self::prefix_parts) written into `out`: `Some(true)`
    /// when the bytes every encoded value starting with `p` starts with were appended and no
    /// second piece is needed; `Some(false)` (nothing appended) when one is (padding);
    /// `None` when no value can start with `p`.
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool>;
}

fn masked(bytes: &[u8], mask: u8) -> Vec<u8> {
    bytes.iter().map(|b| b ^ mask).collect()
}

/// `prefix_parts` from `prefix_into` for the codecs that never need a second piece.
fn one_part<C: ContentPrefix>(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
    let mut e = Vec::new();
    C::prefix_into(p, mask, &mut e).map(|_| (e, None))
}

impl ContentPrefix for super::encodings::Natural {
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        one_part::<Self>(p, mask)
    }
    #[inline]
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        // raw last content ascending is the bytes themselves; descending it is escaped
        if mask == 0 {
            out.extend_from_slice(p);
        } else {
            super::escape::put_escaped(p, out, mask);
        }
        Some(true)
    }
}
impl ContentPrefix for super::encodings::Sep {
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        one_part::<Self>(p, mask)
    }
    #[inline]
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        super::escape::put_escaped(p, out, mask);
        Some(true)
    }
}
impl<const S: u8> ContentPrefix for super::encodings::SepByte<S> {
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        one_part::<Self>(p, mask)
    }
    #[inline]
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        if p.contains(&S) {
            return None;
        }
        out.extend(p.iter().map(|b| b ^ mask));
        Some(true)
    }
}
impl<const N: usize, const F: u8> ContentPrefix for super::encodings::Pad<N, F> {
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        if p.len() > N {
            return None;
        }
        let stripped = p.iter().rposition(|&b| b != F).map_or(0, |i| i + 1);
        let block = (stripped < p.len()).then(|| {
            let mut x = masked(p.get(..stripped).unwrap_or_default(), mask);
            x.resize(N, F ^ mask);
            x
        });
        Some((masked(p, mask), block))
    }
    #[inline]
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        if p.len() > N {
            return None;
        }
        if p.last() == Some(&F) {
            // a value whose padding starts inside `p` also matches: two pieces
            return Some(false);
        }
        out.extend(p.iter().map(|b| b ^ mask));
        Some(true)
    }
}

/// How a codec's `Option` field takes a starts-with (`__private::starts_form_some`): the
/// prefix codec of the `Some` values, and for the empty prefix (every `Some` value) the pieces
/// when they are not the prefix codec's.
#[doc(hidden)]
pub trait SomePrefix {
    /// The prefix bytes of the `Some` values starting with a prefix.
    type Prefix: ContentPrefix;

    /// Every `Some` value (the empty prefix), when that is not the empty prefix of
    /// [`Prefix`](Self::Prefix): Phoenix's NULL is no bytes, so it is the range above NULL.
    fn every_some(mask: u8) -> Option<Pieces> {
        let _ = mask;
        None
    }
}

/// The codecs whose `Option` is a presence byte: the `Some` byte, then the content's prefix.
impl<C: ContentPrefix + super::option::OptionPresence> SomePrefix for C {
    type Prefix = Present<C>;
}

/// [`ContentPrefix`] of `C` behind `Option`'s `Some` byte.
#[doc(hidden)]
pub struct Present<C>(core::marker::PhantomData<C>);

impl<C: ContentPrefix> ContentPrefix for Present<C> {
    fn prefix_parts(p: &[u8], mask: u8) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let (e, x) = C::prefix_parts(p, mask)?;
        let some = |v: Vec<u8>| [&[1 ^ mask][..], &v].concat();
        Some((some(e), x.map(some)))
    }
    #[inline]
    fn prefix_into(p: &[u8], mask: u8, out: &mut Vec<u8>) -> Option<bool> {
        let at = out.len();
        out.push(1 ^ mask);
        let r = C::prefix_into(p, mask, out);
        if r != Some(true) {
            out.truncate(at);
        }
        r
    }
}
