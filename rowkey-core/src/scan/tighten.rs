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

use crate::error::{DecodeError, DecodeErrorKind};
use crate::layout::Layout;

use super::range::{ScanRange, ScanRanges};

/// The most candidate keys decoded to prove that one gap (or range) holds no key.
const GAP_BUDGET: usize = 256;
/// The most candidate keys decoded for one scan's ranges.
const BUDGET: usize = 1 << 16;

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

impl Space<'_> {
    /// Whether `c` is a key of the layout; when not, how many leading bytes of `c` make it
    /// none (every byte string starting with them is none either).
    fn check(&mut self, c: &[u8]) -> Result<(), Option<usize>> {
        let Some(inner) = c.strip_prefix(self.outer) else {
            return Err(None);
        };
        if self.width.is_some_and(|w| w != c.len()) {
            return Err(None);
        }
        self.budget = self.budget.saturating_sub(1);
        self.gap = self.gap.saturating_sub(1);
        match (self.decode)(inner) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.failed_span(&e).map(|end| end + self.outer.len())),
        }
    }

    /// How many leading bytes of a key make it fail as `e` says, whatever follows: the end of
    /// the field whose own bytes (hash prefix included) failed to decode, or of the last salted
    /// field when the salt does not match — when every field up to there has a fixed width.
    /// `None` for errors of the whole key (its length, prefix or tag).
    fn failed_span(&self, e: &DecodeError) -> Option<usize> {
        let layout = self.layout;
        let through = match e.kind() {
            DecodeErrorKind::InvalidByte { .. }
            | DecodeErrorKind::InvalidUtf8
            | DecodeErrorKind::InvalidChar { .. }
            | DecodeErrorKind::OutOfRange
            | DecodeErrorKind::UnknownVariant { .. }
            | DecodeErrorKind::NonCanonical(_)
            | DecodeErrorKind::HashMismatch => {
                let name = e.field().split('.').next()?;
                layout.fields.iter().position(|f| f.name == name)?
            }
            DecodeErrorKind::SaltMismatch { .. } => layout.salt?.through_field,
            _ => return None,
        };
        let mut at = layout.prefix.len() + layout.salt.map_or(0, |s| s.width);
        for f in layout.fields.get(..=through)? {
            at += f.hash_prefix.map_or(0, |h| h.width) + f.width?;
        }
        Some(at)
    }

    /// Whether no key of the layout lies in `[lo, hi)` (`hi = None`: to the end), proven;
    /// `false` when it cannot be (a key found, or too many candidates).
    fn holds_no_key(&mut self, lo: &[u8], hi: Option<&[u8]>) -> bool {
        self.gap = GAP_BUDGET.min(self.budget);
        if hi.is_some_and(|h| h <= lo) {
            return true;
        }
        // `[lo, lo 00 .. 00)` holds the byte strings `lo`, `lo 00`, …: finitely many
        if let Some(h) = hi {
            if let Some(zeros) = h.strip_prefix(lo) {
                if zeros.iter().all(|&b| b == 0) {
                    let mut c = lo.to_vec();
                    for _ in 0..zeros.len() {
                        if self.gap == 0 || self.check(&c).is_ok() {
                            return false;
                        }
                        c.push(0);
                    }
                    return true;
                }
            }
        }
        // a fixed-width layout: every key of `width` bytes in the range, skipping fields that
        // failed
        let Some(w) = self.width else {
            return false;
        };
        let mut c = if lo.len() <= w {
            let mut c = lo.to_vec();
            c.resize(w, 0);
            c
        } else {
            let mut c = lo.get(..w).unwrap_or_default().to_vec();
            if !increment(&mut c, w) {
                return true;
            }
            c
        };
        loop {
            if hi.is_some_and(|h| c.as_slice() >= h) {
                return true;
            }
            if self.gap == 0 {
                return false;
            }
            match self.check(&c) {
                Ok(()) => return false,
                Err(span) => {
                    let end = span.filter(|&e| e > 0 && e <= w).unwrap_or(w);
                    if !increment(&mut c, end) {
                        return true;
                    }
                }
            }
        }
    }
}

/// Add one to `c[..end]` as a big-endian number and zero the bytes after it; `false` on
/// overflow (no byte string of this length is greater).
fn increment(c: &mut [u8], end: usize) -> bool {
    if let Some(rest) = c.get_mut(end..) {
        rest.fill(0);
    }
    for i in (0..end.min(c.len())).rev() {
        if let Some(b) = c.get_mut(i) {
            if *b == 0xFF {
                *b = 0;
            } else {
                *b += 1;
                return true;
            }
        }
    }
    false
}

/// `ranges` (a typed scan's, of keys of `layout` behind outer bytes), minimal: ranges that
/// hold no key dropped, adjacent ranges of one salt bucket joined.
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
    let mut out: Vec<ScanRange> = Vec::with_capacity(ranges.len());
    for r in ranges.iter() {
        if space.holds_no_key(r.start(), r.stop()) {
            continue;
        }
        match out.last_mut() {
            Some(prev)
                if prev.start().get(..salt_end) == r.start().get(..salt_end)
                    && prev
                        .stop()
                        .is_some_and(|s| s >= r.start() || space.holds_no_key(s, Some(r.start()))) =>
            {
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
