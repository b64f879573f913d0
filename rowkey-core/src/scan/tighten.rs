//! Minimal ranges: a typed scan's ranges with the ones that hold no key of the layout dropped
//! and the ones that are adjacent in the layout's key space joined (what the generated
//! `.ranges()` calls when a scan has more than one range).
//!
//! Two ranges of one salt bucket are adjacent when no key of the layout lies between them:
//! `[.. 00 FE, 01)` and `[01 00, ..)` of a `u16` field (the stop carried over a 0xFF byte, the
//! start did not: only the byte strings `01` lies between, which is no key), or `[k, k 00)` and
//! `[k', k' 00)` of two keys that follow each other (a fixed-width layout has no key between
//! them). "No key between" is proven, never assumed: by the candidates' lengths, or by
//! decoding each candidate (a bounded number of them, skipping every candidate that shares a
//! field that failed to decode); when it cannot be proven the ranges stay apart. So a joined
//! range holds exactly the keys of the layout the two held (and byte strings that are no key
//! of it).

use crate::bound::successor_in_place;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::layout::Layout;

use super::range::{ScanRange, ScanRanges};

/// The most candidate keys decoded to prove that one gap (or range) holds no key.
const GAP_BUDGET: usize = 512;
/// The most candidate keys decoded for one scan's ranges (the gaps after the budget stay
/// apart: exact, not minimal).
const BUDGET: usize = 1 << 20;
/// The most byte strings tried one after the other by extending the last one (a walk that
/// learns nothing from its failures: a salt over variable-width fields, say).
const MAX_EXTENDS: usize = 16;
/// The most candidate keys decoded to prove that a range holds no key (the builder leaves few
/// such ranges: a cheap proof or none).
const EMPTY_BUDGET: usize = 8;

/// The key space of one layout behind `outer` bytes (a tagged variant's tag).
struct Space<'a> {
    layout: &'static Layout,
    decode: fn(&[u8]) -> Result<(), DecodeError>,
    outer: &'a [u8],
    /// The width of every key (outer bytes included) when the layout is fixed-width.
    width: Option<usize>,
    /// Decodes left for this scan, and for the gap being proven.
    budget: usize,
    gap: usize,
}

/// What a failed candidate says about the byte strings after it.
enum Next {
    /// Nothing: try the next byte string, `c ++ 00`.
    Extend,
    /// The key ends inside a fixed-width read that needs `n` more bytes: the strings
    /// `c ++ 00…` shorter than `c ++ 00 × n` (the only byte strings between those two) end
    /// inside it too; try `c ++ 00 × n`.
    ExtendBy(usize),
    /// A salt that does not match over fields whose widths vary: the next strings say nothing
    /// new either (give the gap up).
    Unlearnable,
    /// Every byte string starting with the first `n` bytes of the candidate is no key either.
    Past(usize),
}

impl Space<'_> {
    /// Whether `c` is a key of the layout; when not, what that says of the strings after it.
    fn check(&mut self, c: &[u8]) -> Result<(), Next> {
        let outer = self.outer.len();
        let Some(inner) = c.strip_prefix(self.outer) else {
            return Err(Next::Extend);
        };
        match self.width {
            Some(w) if c.len() > w => return Err(Next::Past(w)),
            Some(w) if c.len() < w => return Err(Next::Extend),
            _ => {}
        }
        self.budget = self.budget.saturating_sub(1);
        self.gap = self.gap.saturating_sub(1);
        let e = match (self.decode)(inner) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let past = match e.kind() {
            // the key's fields end before the bytes do: so for every longer string
            DecodeErrorKind::TrailingBytes { count } => inner.len().checked_sub(*count),
            // a byte a one-byte decoder refused (a bool, an `Option`'s presence byte)
            DecodeErrorKind::InvalidByte { expected, .. }
                if crate::codec::ONE_BYTE_EXPECTED.contains(expected) =>
            {
                Some(e.offset() + 1)
            }
            DecodeErrorKind::Truncated { needed, .. } if *needed > 1 => {
                return Err(Next::ExtendBy(*needed));
            }
            _ => self.failed_span(&e),
        };
        match past {
            Some(n) if n > 0 && n <= inner.len() => Err(Next::Past(n + outer)),
            _ if matches!(e.kind(), DecodeErrorKind::SaltMismatch { .. }) => Err(Next::Unlearnable),
            _ => Err(Next::Extend),
        }
    }

    /// How many leading bytes of a key make it fail as `e` says, whatever follows: the end of
    /// the field whose own bytes (hash prefix included) failed to decode, or of the last salted
    /// field when the salt does not match — when every field up to there has a fixed width, or
    /// the failed field is one byte wide. `None` when that is not known.
    fn failed_span(&self, e: &DecodeError) -> Option<usize> {
        let layout = self.layout;
        let (through, local) = match e.kind() {
            DecodeErrorKind::InvalidByte { .. }
            | DecodeErrorKind::InvalidUtf8
            | DecodeErrorKind::InvalidChar { .. }
            | DecodeErrorKind::OutOfRange
            | DecodeErrorKind::UnknownVariant { .. }
            | DecodeErrorKind::NonCanonical(_)
            | DecodeErrorKind::HashMismatch => {
                let name = e.field().split('.').next()?;
                (layout.fields.iter().position(|f| f.name == name)?, true)
            }
            DecodeErrorKind::SaltMismatch { .. } => (layout.salt?.through_field, false),
            _ => return None,
        };
        let mut at = layout.prefix.len() + layout.salt.map_or(0, |s| s.width);
        for f in layout.fields.get(..=through)? {
            match f.width {
                Some(w) => at += f.hash_prefix.map_or(0, |h| h.width) + w,
                None => {
                    // a variable-width field before: the error's offset is the failed field's
                    // one byte, when it has one byte only
                    let failed = layout.fields.get(through)?;
                    return (local && failed.width == Some(1) && failed.hash_prefix.is_none())
                        .then(|| e.offset() + 1);
                }
            }
        }
        Some(at)
    }

    /// Whether no key of the layout lies in `[lo, hi)` (`hi = None`: to the end), proven by
    /// walking the byte strings from `lo` in order, skipping those a failed candidate rules
    /// out; `false` when it cannot be (a key found, or too many candidates).
    fn holds_no_key(&mut self, lo: &[u8], hi: Option<&[u8]>, budget: usize) -> bool {
        self.gap = budget.min(self.budget);
        let mut c = lo.to_vec();
        let mut extends = 0;
        loop {
            if hi.is_some_and(|h| c.as_slice() >= h) {
                return true;
            }
            if self.gap == 0 || extends > MAX_EXTENDS {
                return false;
            }
            let next = self.check(&c);
            extends = if matches!(next, Err(Next::Extend | Next::ExtendBy(_))) {
                extends + 1
            } else {
                0
            };
            match next {
                Ok(()) | Err(Next::Unlearnable) => return false,
                Err(Next::ExtendBy(n)) => c.resize(c.len() + n, 0),
                Err(Next::Extend) => match self.width {
                    // the strings from `c` to `c` padded with zeros are all too short
                    Some(w) if c.len() < w => c.resize(w, 0),
                    _ => c.push(0),
                },
                Err(Next::Past(n)) => {
                    c.truncate(n);
                    if !successor_in_place(&mut c, 0) {
                        return true;
                    }
                }
            }
        }
    }
}

/// `ranges` (a typed scan's, of keys of `layout` behind outer bytes), minimal: ranges that
/// hold no key dropped, adjacent ranges of one salt bucket joined. The caller
/// (`__private::minimal`) has already passed over one range and fan-outs of
/// [`whole_buckets`].
pub fn tighten(
    ranges: ScanRanges,
    layout: &'static Layout,
    decode: fn(&[u8]) -> Result<(), DecodeError>,
) -> ScanRanges {
    let salt_end = ranges.salt_end();
    let own = layout.prefix.len() + layout.salt.map_or(0, |s| s.width);
    let Some(outer_len) = salt_end.checked_sub(own) else {
        return ranges;
    };
    let Some(outer) = ranges
        .iter()
        .next()
        .and_then(|r| r.start().get(..outer_len))
        .map(<[u8]>::to_vec)
    else {
        return ranges;
    };
    if !ranges.iter().all(|r| r.start().starts_with(&outer)) {
        return ranges;
    }
    let mut space = Space {
        layout,
        decode,
        outer: &outer,
        width: layout.fixed_width.map(|w| w + outer_len),
        budget: BUDGET,
        gap: 0,
    };
    // What becomes of each range, decided first without copying any: most scans come out as
    // they went in (a full fan-out, say), and then they are returned as they are.
    let mut fate: Vec<Fate> = Vec::with_capacity(ranges.len());
    let mut prev: Option<(&[u8], Option<&[u8]>)> = None; // the last range kept: salt, stop
    for r in ranges.iter() {
        // a whole salt bucket (a fan-out over every bucket) is not worth a proof: whether a
        // bucket holds keys is the salt's business, and a full fan-out is the hot path
        let whole_bucket = is_whole_bucket(r, salt_end);
        if !whole_bucket && space.holds_no_key(r.start(), r.stop(), EMPTY_BUDGET) {
            fate.push(Fate::Drop);
            continue;
        }
        let salt = r.start().get(..salt_end).unwrap_or_default();
        let joins = prev.is_some_and(|(p_salt, p_stop)| {
            p_salt == salt
                && p_stop.is_some_and(|s| {
                    s >= r.start() || space.holds_no_key(s, Some(r.start()), GAP_BUDGET)
                })
        });
        if joins {
            fate.push(Fate::Join);
            if let Some((_, p_stop)) = prev.as_mut() {
                *p_stop = match (*p_stop, r.stop()) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
            }
        } else {
            fate.push(Fate::Keep);
            prev = Some((salt, r.stop()));
        }
    }
    if fate.iter().all(|f| matches!(f, Fate::Keep)) {
        return ranges;
    }
    let mut out: Vec<ScanRange> = Vec::with_capacity(ranges.len());
    for (r, f) in ranges.iter().zip(&fate) {
        match (f, out.last_mut()) {
            (Fate::Drop, _) => {}
            (Fate::Join, Some(prev)) => {
                let stop = match (prev.stop(), r.stop()) {
                    (Some(a), Some(b)) => Some(a.max(b).to_vec()),
                    _ => None,
                };
                *prev = ScanRange::new(prev.start(), stop.as_deref());
            }
            _ => out.push(r.clone()),
        }
    }
    ScanRanges::new(out).with_salt_end(salt_end)
}

/// Whether `ranges` are a fan-out over whole salt buckets, one range each: nothing to drop
/// (whether a bucket holds keys is the salt's business) or join (buckets stay apart).
#[inline]
pub fn whole_buckets(ranges: &ScanRanges) -> bool {
    let salt_end = ranges.salt_end();
    salt_end > 0
        && ranges.iter().all(|r| is_whole_bucket(r, salt_end))
        && ranges
            .iter()
            .zip(ranges.iter().skip(1))
            .all(|(a, b)| !same_bucket(a.start(), b.start(), salt_end))
}

/// Whether two starts have the same salt prefix: a byte loop (one or two bytes after a short
/// constant prefix, where a call to `memcmp` per pair cost more than the comparison).
#[inline(always)]
fn same_bucket(a: &[u8], b: &[u8], salt_end: usize) -> bool {
    match (a.get(..salt_end), b.get(..salt_end)) {
        (Some(a), Some(b)) => a.iter().zip(b).all(|(x, y)| x == y),
        (a, b) => a == b,
    }
}

/// Whether `r` is whole salt buckets: from a salt prefix to a salt prefix (or the end).
fn is_whole_bucket(r: &ScanRange, salt_end: usize) -> bool {
    r.start().len() <= salt_end && r.stop().is_none_or(|s| s.len() <= salt_end)
}

/// What [`tighten`] does with one range.
enum Fate {
    Keep,
    Drop,
    /// Joined to the range kept before it.
    Join,
}
