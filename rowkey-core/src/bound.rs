//! Scan bounds: how a condition on one field becomes byte ranges of its encoding. A leaf: the
//! codecs write their bounds in these terms ([`Codec::pieces`](crate::codec::Codec::pieces),
//! [`Codec::bound_into`](crate::codec::Codec::bound_into)) and the scan builder reads them,
//! without either importing the other.
//!
//! - a bound over encodable values ([`Bound`], or [`Edge`] with its bytes written elsewhere);
//! - the pieces a range of values selects ([`Pieces`] of [`Lower`]/[`Upper`] ends);
//! - how each end is finished ([`start_rule`], [`stop_rule`]);
//! - byte-string successors (HBase's stop row for a prefix).

/// The smallest byte string greater than every string that starts with `prefix` (HBase's stop
/// row for a prefix scan), or `None` when there is none (`prefix` is empty or all `0xFF`).
#[inline]
pub fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut v = prefix.get(..successor_len(prefix)?)?.to_vec();
    bump_last(&mut v);
    Some(v)
}

/// How many bytes of `p` its successor keeps: up to and including the last byte that is not
/// `0xFF` (the successor is those bytes with the last one incremented, see [`bump_last`]);
/// `None` when there is no successor (`p` is empty or all `0xFF`).
#[inline]
pub(crate) fn successor_len(p: &[u8]) -> Option<usize> {
    p.iter().rposition(|&b| b != 0xFF).map(|i| i + 1)
}

/// Increment the last byte of a successor cut to [`successor_len`] (never `0xFF`, so it does
/// not overflow).
#[inline]
pub(crate) fn bump_last(v: &mut [u8]) {
    if let Some(b) = v.last_mut() {
        *b += 1;
    }
}

/// Append the successor of `buf[from..]` in place (see [`prefix_successor`]): truncates trailing
/// `0xFF` bytes and increments the last byte. Returns `false` (leaving `buf[from..]` cut to
/// nothing) when there is no successor.
#[inline]
pub(crate) fn successor_in_place(buf: &mut Vec<u8>, from: usize) -> bool {
    match successor_len(buf.get(from..).unwrap_or_default()) {
        Some(n) => {
            buf.truncate(from + n);
            bump_last(buf);
            true
        }
        None => {
            buf.truncate(from);
            false
        }
    }
}

/// Where a range bound lands over the encodable values, its bytes written elsewhere (see
/// [`Codec::bound_into`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// At the bytes just written; `inclusive` keeps keys with them.
    At {
        /// Whether the bound includes the value itself.
        inclusive: bool,
    },
    /// No limit on this side.
    All,
    /// No encodable value passes.
    Nothing,
}

/// `e`, a bound on the part of a composite value written from `at` on, as a bound on the
/// whole composite written from `start` (`out[start..at]`, the parts before, are fixed by
/// equality): what a nested key's or an `Option`'s range bound is when one of its parts
/// decides it. The result does not depend on the composite's prefix-freeness: a bound that
/// takes in or leaves out every value starting with the bytes so far becomes the bytes'
/// successor (within `out[start..]`). `is_start`: the bound is the range's byte-order start.
pub(crate) fn prefix_edge(
    out: &mut Vec<u8>,
    start: usize,
    at: usize,
    e: Edge,
    is_start: bool,
) -> Edge {
    // the bytes `Q` (out[start..] after this) and whether every value starting with them passes
    let take_all = match e {
        Edge::At { inclusive } => inclusive,
        Edge::All | Edge::Nothing => {
            out.truncate(at);
            if at == start {
                return e;
            }
            matches!(e, Edge::All)
        }
    };
    match (is_start, take_all) {
        (true, true) => Edge::At { inclusive: true },
        (false, false) => Edge::At { inclusive: false },
        // past every value starting with `Q`: its successor, or nothing past it
        (true, false) => {
            if successor_in_place(out, start) {
                Edge::At { inclusive: true }
            } else {
                Edge::Nothing
            }
        }
        (false, true) => {
            if successor_in_place(out, start) {
                Edge::At { inclusive: false }
            } else {
                Edge::All
            }
        }
    }
}

/// A range bound over encodable values, as bytes (see [`Codec::bound`](crate::codec::Codec::bound)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// At the value (or prefix) encoded as `bytes`; `inclusive` keeps keys with it.
    Bytes {
        /// The encoding.
        bytes: Vec<u8>,
        /// Whether the bound includes the value itself.
        inclusive: bool,
    },
    /// No limit on this side: every encodable value passes.
    All,
    /// No encodable value passes.
    Nothing,
}

/// Where a scan part starts, relative to the fixed prefix.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lower {
    /// At the prefix.
    Prefix,
    /// At `prefix ++ bytes`.
    At(Vec<u8>),
    /// After every key starting with `prefix ++ bytes`.
    After(Vec<u8>),
}

/// Where a scan part stops (exclusive), relative to the fixed prefix.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upper {
    /// After every key starting with the prefix.
    PrefixEnd,
    /// At `prefix ++ bytes`.
    At(Vec<u8>),
    /// After every key starting with `prefix ++ bytes`.
    After(Vec<u8>),
    /// At `prefix ++ 0x00`: the range of exactly the prefix (a full key).
    AtZero,
}

impl Lower {
    fn prefixed(self, p: &[u8]) -> Lower {
        match self {
            Lower::Prefix => Lower::At(p.to_vec()),
            Lower::At(b) => Lower::At([p, &b].concat()),
            Lower::After(b) => Lower::After([p, &b].concat()),
        }
    }
    /// The least bytes (after the prefix) a key the part starts at can hold; `None` when no key
    /// passes (after every key starting with `0xFF…`).
    pub(crate) fn least(&self) -> Option<Vec<u8>> {
        match self {
            Lower::Prefix => Some(Vec::new()),
            Lower::At(b) => Some(b.clone()),
            Lower::After(b) => prefix_successor(b),
        }
    }

    /// The first bytes the part can hold (for ordering parts).
    fn first(&self) -> &[u8] {
        match self {
            Lower::Prefix => &[],
            Lower::At(b) | Lower::After(b) => b,
        }
    }
}

impl Upper {
    /// The bytes (after the prefix) the part stops at, exclusive; `None`: after every key
    /// starting with the prefix.
    pub(crate) fn stop(&self) -> Option<Vec<u8>> {
        match self {
            Upper::PrefixEnd => None,
            Upper::At(b) => Some(b.clone()),
            Upper::After(b) => prefix_successor(b),
            Upper::AtZero => Some(vec![0]),
        }
    }

    fn prefixed(self, p: &[u8]) -> Upper {
        match self {
            Upper::PrefixEnd => Upper::After(p.to_vec()),
            Upper::At(b) => Upper::At([p, &b].concat()),
            Upper::After(b) => Upper::After([p, &b].concat()),
            Upper::AtZero => Upper::At([p, &[0]].concat()),
        }
    }
}

/// The values of one field that a range (or starts-with) condition selects, as at most three
/// byte ranges of the field's encoding, relative to the fixed prefix, in byte order.
///
/// One piece for every order-preserving (or order-reversing) encoding; Java two's-complement
/// integers and raw IEEE floats are not in value order, so a value range becomes up to two
/// pieces (non-negative values first), and an `Option` of those up to three.
#[doc(hidden)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pieces {
    items: [Option<(Lower, Upper)>; 3],
}

impl Pieces {
    /// No value.
    pub fn none() -> Self {
        Self::default()
    }

    /// One piece.
    pub fn one(lower: Lower, upper: Upper) -> Self {
        let mut p = Self::default();
        p.push(lower, upper);
        p
    }

    /// Add a piece (a fourth is a logic error: dropped pieces would be lost rows, so the
    /// scan would be wrong; every codec yields at most three).
    pub fn push(&mut self, lower: Lower, upper: Upper) {
        if let Some(slot) = self.items.iter_mut().find(|s| s.is_none()) {
            *slot = Some((lower, upper));
        }
    }

    /// The pieces of a value range `[lo, hi]` over an encoding that is monotone in the value
    /// (ascending, or descending when `swap`): each bound as [`Bound`] over encodable
    /// values, in value order. `prefix_free`: whether no encoding is a proper prefix of another
    /// (else an exclusive bound `b` becomes `b ++ 0x00`).
    pub fn monotone(lo: Bound, hi: Bound, swap: bool, prefix_free: bool) -> Self {
        let (lo, hi) = if swap { (hi, lo) } else { (lo, hi) };
        let split = |b: Bound| match b {
            Bound::Bytes { bytes, inclusive } => (Edge::At { inclusive }, bytes),
            Bound::All => (Edge::All, Vec::new()),
            Bound::Nothing => (Edge::Nothing, Vec::new()),
        };
        let ((lo, mut lo_bytes), (hi, mut hi_bytes)) = (split(lo), split(hi));
        let (Some(start), Some(stop)) = (start_rule(lo, prefix_free), stop_rule(hi, prefix_free))
        else {
            // A bound no encodable value passes (e.g. an upper time bound below 0).
            return Self::none();
        };
        let lower = match (lo, start) {
            (Edge::All, _) => Lower::Prefix,
            (_, Rule::At) => Lower::At(lo_bytes),
            (_, Rule::AtZero) => {
                lo_bytes.push(0);
                Lower::At(lo_bytes)
            }
            (_, Rule::After) => Lower::After(lo_bytes),
        };
        let upper = match (hi, stop) {
            (Edge::All, _) => Upper::PrefixEnd,
            (_, Rule::At) => Upper::At(hi_bytes),
            (_, Rule::AtZero) => {
                hi_bytes.push(0);
                Upper::At(hi_bytes)
            }
            (_, Rule::After) => Upper::After(hi_bytes),
        };
        Self::one(lower, upper)
    }

    /// Every piece with `p` in front (an `Option`'s presence byte, say).
    pub fn prefixed(self, p: &[u8]) -> Self {
        let mut out = Self::default();
        for (l, u) in self.items.into_iter().flatten() {
            out.push(l.prefixed(p), u.prefixed(p));
        }
        out
    }

    /// Put the pieces in byte order (of their first bytes).
    pub fn sorted(mut self) -> Self {
        let mut v: Vec<(Lower, Upper)> = self.items.iter_mut().filter_map(Option::take).collect();
        v.sort_by(|a, b| a.0.first().cmp(b.0.first()));
        for p in v {
            self.push(p.0, p.1);
        }
        self
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &(Lower, Upper)> {
        self.items.iter().flatten()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// How one end of a range is finished once its bound's bytes (if any) follow the prefix in the
/// range's buffer: at those bytes, at those bytes `++ 0x00`, or after every key starting with
/// them (no bytes: at the prefix for a start, after the prefix for a stop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    At,
    AtZero,
    After,
}

/// The rule of a range's start (its byte-order lower bound) over an encoding
/// (`prefix_free`: no encoding is a proper prefix of another, so an exclusive bound `b` is
/// "after `b`", else "at `b ++ 0x00`"); `None` when no value passes.
pub(crate) fn start_rule(e: Edge, prefix_free: bool) -> Option<Rule> {
    Some(match e {
        Edge::Nothing => return None,
        Edge::All | Edge::At { inclusive: true } => Rule::At,
        Edge::At { inclusive: false } if prefix_free => Rule::After,
        Edge::At { inclusive: false } => Rule::AtZero,
    })
}

/// The rule of a range's stop (exclusive; its byte-order upper bound), as [`start_rule`]:
/// an inclusive bound `b` is "after `b`", or "at `b ++ 0x00`" when not prefix-free.
pub(crate) fn stop_rule(e: Edge, prefix_free: bool) -> Option<Rule> {
    Some(match e {
        Edge::Nothing => return None,
        Edge::All => Rule::After,
        Edge::At { inclusive: false } => Rule::At,
        Edge::At { inclusive: true } if prefix_free => Rule::After,
        Edge::At { inclusive: true } => Rule::AtZero,
    })
}
