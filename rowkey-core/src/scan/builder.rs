//! Scan building: the state behind the typed `T::scan()` builders `#[derive(RowKey)]`
//! generates (they call it through `rowkey::__private`). How one field's condition becomes
//! byte ranges ([`Pieces`]) is in [`crate::bound`].

use core::ops::{Bound, RangeBounds};

use super::range::{ScanRange, ScanRanges};

use crate::bound::{
    bump_last, start_rule, stop_rule, successor_in_place, successor_len, Lower, Pieces, Rule, Upper,
};
use crate::codec::{self, Codec, ContentPrefix, SomePrefix};
use crate::layout::{SaltKind, SaltLayout};
use crate::salt;

/// The order a scanned key writes its own fields in (the `mask` of [`Codec`]): ascending. A
/// descending field says so itself (its codec is `Desc<C>`), so the builder never reads an
/// attribute; [`Codec::inverted`] tells it which way the field's bytes run.
const KEY_ORDER: u8 = 0x00;

/// Finish a range's start: `buf` holds the prefix (`head_len` bytes) and the bound's bytes.
/// `false` when the range is empty for sure (the successor carried into the prefix: nothing
/// after the bound has it).
#[inline]
fn close_start(buf: &mut Vec<u8>, head_len: usize, rule: Rule) -> bool {
    match rule {
        Rule::At => true,
        Rule::AtZero => {
            buf.push(0);
            true
        }
        Rule::After => successor_in_place(buf, 0) && buf.len() > head_len,
    }
}

/// Finish a range's stop: `buf` holds the start (`start_len` bytes), the prefix again and the
/// bound's bytes. Whether the range is bounded (`false`: to the end of the table).
#[inline]
fn close_stop(buf: &mut Vec<u8>, start_len: usize, rule: Rule) -> bool {
    match rule {
        Rule::At => true,
        Rule::AtZero => {
            buf.push(0);
            true
        }
        Rule::After => successor_in_place(buf, start_len),
    }
}

/// What the builder needs of a layout's salt (small: the builder moves through every stage).
#[derive(Debug, Clone, Copy)]
struct Salt {
    buckets: u32,
    width: usize,
    modulo: bool,
    /// The salted fields and the last of them (`SaltLayout::fields`, `through_field`).
    fields: &'static [usize],
    through: usize,
}

/// The state of a typed scan builder: the encoded bytes of the fields fixed so far (after a
/// placeholder for the salt), and what is known of the salt. Not used directly: `T::scan()`
/// wraps it in one typed stage per field.
#[derive(Debug, Clone)]
pub struct ScanBuilder {
    buf: Vec<u8>,
    /// Where the salt is written: after the constant prefix (`u32`, like `next`: the builder
    /// stays at 120 bytes, which the scans of plain chains measured faster than 128).
    salt_at: u32,
    salt: Option<Salt>,
    /// The Java hash code of the salted fields fixed so far (Phoenix salts).
    salt_h: i32,
    salt_value: Option<u32>,
    /// The index of the next field (how many are fixed).
    next: u32,
    /// Salt buckets a range on a modulo-salted field can touch.
    buckets: Option<Vec<u32>>,
    impossible: bool,
    complete: bool,
    /// How many bytes at the end of `buf` a key drops when only NULLs follow them (Phoenix
    /// keys: [`Codec::TRIMS`]); 0 for every other layout.
    tail: u16,
    /// The other alternatives of an IN-list (`.field_in(..)`): each a builder like this one
    /// (with none of its own); the scan is the union of all. `None` for a plain chain.
    // boxed: one pointer in the builder that every stage moves (a `Vec` would be three words)
    #[allow(clippy::box_collection)]
    others: Option<Box<Vec<ScanBuilder>>>,
}

// The builder moves through every stage of a typed scan: at 128 bytes (one word more) the
// unsalted range and starts-with chains measured slower (BENCHMARKS-HISTORY.md, issues 24 and 26).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(core::mem::size_of::<ScanBuilder>() <= 120);

/// A finished scan, untyped: call [`ranges`](Scan::ranges).
///
/// The `_range` and `_starts_with` methods of a typed scan builder end the chain in a typed
/// end stage (on which any further field method is a compile error); its `into_scan()` gives
/// this untyped scan, e.g. to keep scans of different key types in one collection.
///
/// The ranges are computed when the scan ends (the builder and the pieces of the last field are
/// consumed there, not moved on), so a `Scan` is just its ranges.
///
/// ```
/// use rowkey::scan::Scan;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Log {
///     #[sep]
///     host: String,
///     ts: u64,
/// }
///
/// let scans: Vec<Scan> = vec![
///     Log::scan().host("web1").ts_range(100..200).into_scan(),
///     Log::scan().host_starts_with("db").into_scan(),
/// ];
/// let ranges = scans[0].clone().ranges();
/// assert_eq!(ranges.len(), 1);
/// assert!(ranges.contains(&Log { host: "web1".into(), ts: 150 }.to_row_key()?));
/// assert!(!ranges.contains(&Log { host: "web12".into(), ts: 150 }.to_row_key()?));
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "call .ranges() to get the byte ranges to scan"]
pub struct Scan {
    ranges: ScanRanges,
}

impl ScanBuilder {
    /// A builder for keys that start with `outer` (a tagged variant's tag) and `prefix` (the
    /// layout's constant prefix), then a salt as `salt`.
    #[inline(always)]
    pub fn new(outer: &[u8], prefix: &[u8], salt: Option<SaltLayout>) -> Self {
        let mut buf = Vec::with_capacity(64);
        if !outer.is_empty() || !prefix.is_empty() {
            buf.extend_from_slice(outer);
            buf.extend_from_slice(prefix);
        }
        let salt_at = buf.len();
        if let Some(s) = salt {
            buf.resize(salt_at + s.width, 0);
        }
        let salt_at = u32::try_from(salt_at).unwrap_or(u32::MAX);
        Self {
            buf,
            salt_at,
            salt: salt.map(|s| Salt {
                buckets: s.buckets,
                width: s.width,
                modulo: s.kind == SaltKind::Modulo,
                fields: s.fields,
                through: s.through_field,
            }),
            salt_h: 1,
            salt_value: None,
            next: 0,
            buckets: None,
            impossible: false,
            complete: false,
            tail: 0,
            others: None,
        }
    }

    /// The salt every range of this scan starts with when it is one salt: `Some(0)` without a
    /// salt, the salt once its fields are fixed; `None` while the scan fans out.
    #[inline(always)]
    fn fixed_salt(&self) -> Option<u32> {
        match (self.salt, self.salt_value) {
            (None, _) => Some(0),
            (_, Some(s)) => Some(s),
            (Some(_), None) => None,
        }
    }

    /// The builder's buffer with `salt` written in its place, and where the logical key starts
    /// (after the constant prefix and the salt).
    #[inline(always)]
    fn head_with_salt(self, salt: u32) -> (Vec<u8>, usize) {
        let width = self.salt.map_or(0, |s| s.width);
        let mut buf = self.buf;
        let at = self.salt_at as usize;
        salt::write_at(buf.get_mut(at..).unwrap_or_default(), salt, width);
        (buf, at + width)
    }

    /// Fix the next field to `v`. A value that cannot be encoded cannot be in the table: the
    /// scan becomes empty. The layout's salt (data) says whether the field's bytes are salted
    /// and whether it is the last salted one: then the salt is known.
    #[inline(always)]
    pub fn field<C: Codec<T>, T>(&mut self, v: &T) {
        if let Some(others) = self.others.as_deref_mut() {
            for b in others {
                b.field_one::<C, T>(v);
            }
        }
        self.field_one::<C, T>(v);
    }

    /// [`field`](Self::field) on this alternative only.
    #[inline(always)]
    fn field_one<C: Codec<T>, T>(&mut self, v: &T) {
        let start = self.buf.len();
        if C::encode_vec(v, &mut self.buf, KEY_ORDER).is_err() {
            self.impossible = true;
        }
        if C::TRIMS {
            let n = self.buf.len() - start;
            self.tail = match C::trim_tail(v, KEY_ORDER) {
                None => self
                    .tail
                    .saturating_add(u16::try_from(n).unwrap_or(u16::MAX)),
                Some(t) => u16::try_from(t).unwrap_or(u16::MAX),
            };
        }
        let i = self.next as usize;
        self.next += 1;
        if let Some(s) = self.salt {
            if s.modulo {
                if i == s.through {
                    self.salt_value = Some(salt::modulo_of::<C, T>(v, s.buckets));
                }
            } else if s.fields.contains(&i) {
                self.salt_h = salt::step(self.salt_h, self.buf.get(start..).unwrap_or_default());
                if i == s.through {
                    self.salt_value = Some(salt::bucket_of(self.salt_h, s.buckets));
                }
            }
        }
    }

    /// Every field is fixed: the scan is the one key.
    #[inline(always)]
    pub fn complete(&mut self) {
        self.complete = true;
        if let Some(others) = self.others.as_deref_mut() {
            for b in others {
                b.complete = true;
            }
        }
    }

    /// Start an IN-list on the next field: every alternative so far, once per value
    /// ([`Alternatives::add`]), then [`Alternatives::finish`].
    #[inline]
    pub fn alternatives(mut self, field: &'static str) -> Alternatives {
        let mut bases = match self.others.take() {
            Some(o) => *o,
            None => Vec::new(),
        };
        bases.insert(0, self);
        Alternatives {
            field,
            bases,
            out: Vec::new(),
        }
    }

    /// `.field_any()`: the IN-list of every value of the field's finite domain.
    ///
    /// # Errors
    ///
    /// [`TooManyRanges`] past [`MAX_ALTERNATIVES`].
    #[inline]
    pub fn any<C: Codec<T>, T: FiniteDomain>(
        self,
        field: &'static str,
        last: bool,
    ) -> Result<ScanBuilder, TooManyRanges> {
        let mut a = self.alternatives(field);
        for v in T::domain() {
            a.add::<C, T>(&v)?;
        }
        a.done(last)
    }

    /// The scan of every alternative, each by `f`, as one union of ranges (cold: IN-lists).
    #[inline(never)]
    fn each(mut self, f: impl Fn(ScanBuilder) -> ScanRanges) -> Scan {
        let others = match self.others.take() {
            Some(o) => *o,
            None => Vec::new(),
        };
        let mut all = Vec::with_capacity(others.len() + 1);
        all.push(f(self));
        all.extend(others.into_iter().map(&f));
        Scan { ranges: union(all) }
    }

    /// End with a range over the next field, in the value's natural order: see
    /// [`Codec::pieces`] (bounds are swapped when the byte order is reversed, a value range over
    /// a Java encoding is split where the byte order wraps, an exclusive bound on a raw last
    /// field becomes `bytes ++ 0x00`). A range on the field of a modulo salt touches only the
    /// buckets its values can have.
    #[inline(always)]
    pub fn range<C: Codec<T>, T, R: RangeBounds<T>>(mut self, r: R) -> Scan {
        if self.others.is_some() {
            return self.each(|b| b.range::<C, T, _>((r.start_bound(), r.end_bound())).ranges);
        }
        if let Some(s) = self.salt {
            if s.modulo && self.next as usize == s.through {
                // an open upper end is the type's maximum, so that a range near it touches
                // only its buckets
                let num = |b: Bound<&T>, upper: bool| match b {
                    Bound::Included(v) => C::unsigned(v).map_or(Bound::Unbounded, Bound::Included),
                    Bound::Excluded(v) => C::unsigned(v).map_or(Bound::Unbounded, Bound::Excluded),
                    Bound::Unbounded if upper => {
                        C::UNSIGNED_MAX.map_or(Bound::Unbounded, Bound::Included)
                    }
                    Bound::Unbounded => Bound::Unbounded,
                };
                let (lo, hi) = (num(r.start_bound(), false), num(r.end_bound(), true));
                self.buckets = Some(modulo_buckets(lo, hi, s.buckets));
            }
        }
        self.range_bounds::<C, T>(r.start_bound(), r.end_bound())
    }

    /// [`range`](Self::range) from the two bounds.
    #[inline(always)]
    pub fn range_bounds<C: Codec<T>, T>(mut self, lo: Bound<&T>, hi: Bound<&T>) -> Scan {
        if self.others.is_some() {
            return self.each(|b| b.range_bounds::<C, T>(lo, hi).ranges);
        }
        if self.tail != 0 {
            let ranges = self.trim_heads(|b| b.range_bounds::<C, T>(lo, hi).ranges);
            return Scan { ranges };
        }
        if let (true, false, Some(salt)) = (C::MONOTONE, self.impossible, self.fixed_salt()) {
            return Scan {
                ranges: self.monotone_range::<C, T>(salt, lo, hi),
            };
        }
        let parts = C::pieces(lo, hi, KEY_ORDER);
        if parts.is_empty() {
            self.impossible = true;
        }
        Scan {
            ranges: finish(self, parts),
        }
    }

    /// [`range_bounds`](Self::range_bounds) over a monotone encoding with the salt fixed to
    /// `salt` (or none): the one range, its bounds written by [`Codec::bound_into`] straight into the
    /// builder's buffer — what `Codec::pieces` and the general path would build, without the
    /// intermediate pieces (the same rules: bounds swapped when the byte order is reversed, an
    /// exclusive bound over an encoding that is not prefix-free becomes `bytes ++ 0x00`).
    #[inline(always)]
    fn monotone_range<C: Codec<T>, T>(self, salt: u32, lo: Bound<&T>, hi: Bound<&T>) -> ScanRanges {
        let swap = C::inverted(KEY_ORDER) != C::REVERSED;
        let prefix_free = C::PREFIX_FREE || C::inverted(KEY_ORDER);
        // the byte-order lower and upper ends: a value bound and whether it is the value's upper
        let ((first, first_up), (last, last_up)) = if swap {
            ((hi, true), (lo, false))
        } else {
            ((lo, false), (hi, true))
        };
        let edge = |b: Bound<&T>, upper: bool, out: &mut Vec<u8>| match b {
            Bound::Unbounded => codec::Edge::All,
            Bound::Included(v) => C::bound_into(v, KEY_ORDER, upper, true, out),
            Bound::Excluded(v) => C::bound_into(v, KEY_ORDER, upper, false, out),
        };
        let (mut buf, salt_end) = self.head_with_salt(salt);
        let head_len = buf.len();
        buf.reserve(head_len + 2 * C::WIDTH.unwrap_or(16) + 2);
        let start = start_rule(edge(first, first_up, &mut buf), prefix_free);
        if !start.is_some_and(|rule| close_start(&mut buf, head_len, rule)) {
            return ScanRanges::default();
        }
        let start_len = buf.len();
        buf.extend_from_within(..head_len);
        let Some(stop) = stop_rule(edge(last, last_up, &mut buf), prefix_free) else {
            return ScanRanges::default();
        };
        let bounded = close_stop(&mut buf, start_len, stop);
        ScanRanges::one(ScanRange::from_parts(buf, start_len, bounded)).with_salt_end(salt_end)
    }

    /// A scan that matches nothing (what a misused scan method returns; such calls do not
    /// compile, so this never runs in a program that builds).
    pub fn nothing(self) -> Scan {
        Scan {
            ranges: ScanRanges::default(),
        }
    }

    /// A starts-with on an `Option` field: the `Some` values whose content starts with `p`
    /// (the empty `p`: every `Some` value, never `None`).
    #[inline(always)]
    pub fn starts_some<C: SomePrefix>(self, p: &[u8]) -> Scan {
        if p.is_empty() {
            if let Some(parts) = C::every_some(KEY_ORDER) {
                return self.pieces(&parts);
            }
        }
        self.starts_with::<C::Prefix>(p)
    }

    /// The scan of the field pieces `parts` (a range computed by the field's codec).
    fn pieces(mut self, parts: &Pieces) -> Scan {
        if self.others.is_some() {
            return self.each(|b| b.pieces(parts).ranges);
        }
        if self.tail != 0 {
            let ranges = self.trim_heads(|b| b.pieces(parts).ranges);
            return Scan { ranges };
        }
        if parts.is_empty() {
            self.impossible = true;
        }
        Scan {
            ranges: finish(self, parts.clone()),
        }
    }

    /// End with a starts-with condition on the next (string or bytes) field.
    ///
    /// With the salt fixed (or none) and no padding involved, the one range
    /// `[head ++ e, successor(head ++ e))` is written in place (inlined into the caller);
    /// otherwise the pieces path.
    #[inline(always)]
    pub fn starts_with<C: ContentPrefix>(mut self, p: &[u8]) -> Scan {
        if self.others.is_some() {
            return self.each(|b| b.starts_with::<C>(p).ranges);
        }
        if self.tail != 0 {
            let ranges = self.trim_heads(|b| b.starts_with::<C>(p).ranges);
            return Scan { ranges };
        }
        if let (false, Some(salt)) = (self.impossible, self.fixed_salt()) {
            // One range, `[head ++ e, successor(head ++ e))`, written in place.
            let head_len = self.buf.len();
            match C::prefix_into(p, KEY_ORDER, &mut self.buf) {
                None => {
                    return Scan {
                        ranges: ScanRanges::default(),
                    }
                }
                Some(true) => {
                    let (buf, salt_end) = self.head_with_salt(salt);
                    return Scan {
                        ranges: ScanRanges::one_nonempty(prefix_in(buf, false))
                            .with_salt_end(salt_end),
                    };
                }
                Some(false) => self.buf.truncate(head_len),
            }
        }
        self.starts_with_pieces::<C>(p)
    }

    /// [`starts_with`](Self::starts_with) through the pieces: a padded prefix ending in the
    /// fill byte (two pieces), or the salt not fixed (one range per bucket).
    #[inline(never)]
    fn starts_with_pieces<C: ContentPrefix>(mut self, p: &[u8]) -> Scan {
        let parts = match C::prefix_parts(p, KEY_ORDER) {
            None => Pieces::none(),
            Some((e, None)) => Pieces::one(Lower::At(e.clone()), Upper::After(e)),
            Some((e, Some(x))) => {
                let mut parts = Pieces::one(Lower::At(e.clone()), Upper::At(x.clone()));
                parts.push(Lower::After(x), Upper::After(e));
                parts
            }
        };
        if parts.is_empty() {
            self.impossible = true;
        }
        Scan {
            ranges: finish(self, parts),
        }
    }

    /// The ranges of everything that matches the fields fixed so far.
    ///
    /// The hot path (only equalities): each range is `[p, successor(p))` (`[p, p ++ 0x00)` for
    /// a complete key) built straight from the prefix `p`, one allocation per range, the last
    /// (or only) one in the builder's own buffer; the ranges are non-empty and in salt order by
    /// construction.
    ///
    /// The one-range case (no salt, or the salt fixed) is inlined into the caller, so that the
    /// builder is not moved into a call (a by-value move read back at once stalls on store
    /// forwarding) and only the buffer goes on.
    #[inline(always)]
    pub fn ranges(self) -> ScanRanges {
        if self.others.is_some() {
            return self.each(ScanBuilder::ranges).ranges;
        }
        if self.tail != 0 {
            return self.trim_heads(ScanBuilder::ranges);
        }
        if let (false, None, Some(salt)) = (self.impossible, &self.buckets, self.fixed_salt()) {
            let complete = self.complete;
            let (buf, salt_end) = self.head_with_salt(salt);
            return ScanRanges::one_nonempty(prefix_in(buf, complete)).with_salt_end(salt_end);
        }
        self.ranges_general()
    }

    /// The ranges `f` builds from this builder, with every bound that lies exactly at the
    /// fixed prefix (whatever its salt) cut by the prefix's trailing separators (`tail`): a
    /// Phoenix key whose later columns are all NULL ends before them, so the keys of the
    /// prefix start at the cut prefix. Bounds after the prefix (a successor, a later field's
    /// bytes) are not cut: the codecs cut their own ([`Codec::bound_into`]).
    #[cold]
    #[inline(never)]
    fn trim_heads(mut self, f: impl FnOnce(ScanBuilder) -> ScanRanges) -> ScanRanges {
        let head = self.buf.clone();
        let salt_at = self.salt_at as usize;
        let salt_end = salt_at + self.salt.map_or(0, |s| s.width);
        let cut = head
            .len()
            .saturating_sub(usize::from(self.tail))
            .max(salt_end);
        self.tail = 0;
        let ranges = f(self);
        let at_head = |x: &[u8]| {
            x.len() == head.len()
                && x.get(..salt_at) == head.get(..salt_at)
                && x.get(salt_end..) == head.get(salt_end..)
        };
        let cut_at_head = |x: &[u8]| -> Vec<u8> {
            if at_head(x) {
                x.get(..cut).unwrap_or(x).to_vec()
            } else {
                x.to_vec()
            }
        };
        let salt_end_out = ranges.salt_end();
        let out: Vec<ScanRange> = ranges
            .iter()
            .map(|r| {
                let start = cut_at_head(r.start());
                let stop = r.stop().map(cut_at_head);
                ScanRange::new(&start, stop.as_deref())
            })
            .collect();
        ScanRanges::new(out).with_salt_end(salt_end_out)
    }

    /// [`ranges`](Self::ranges) beyond one range: the salt fan-out and modulo buckets.
    #[inline(never)]
    fn ranges_general(self) -> ScanRanges {
        if self.impossible {
            return ScanRanges::default();
        }
        if let (None, Some(s), None) = (&self.buckets, self.salt, self.fixed_salt()) {
            // the salt not fixed yet: one range per bucket
            let (width, n) = (s.width, s.buckets);
            let at = self.salt_at as usize;
            let end = at + width;
            let out = fan_out(self.buf, at, width, n, self.complete);
            return ScanRanges::sorted_nonempty(out).with_salt_end(end);
        }
        let part = if self.complete {
            (Lower::Prefix, Upper::AtZero)
        } else {
            (Lower::Prefix, Upper::PrefixEnd)
        };
        finish(self, Pieces::one(part.0, part.1))
    }
}

/// A field type whose values rowkey can list: `.field_any()` on a key field of such a type
/// scans every value of it (one alternative each), so that later fields can still be fixed.
/// Implemented for `bool`, for fieldless enums deriving `RowKey`, and for `Option`s of those
/// (`None` first).
///
/// ```
/// use rowkey::scan::FiniteDomain;
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq, Clone, Copy)]
/// enum Kind {
///     Click,
///     View,
/// }
///
/// assert_eq!(Kind::domain(), [Kind::Click, Kind::View]);
/// assert_eq!(<Option<bool>>::domain(), [None, Some(false), Some(true)]);
/// ```
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` has no finite domain that rowkey knows, so `_any()` cannot list its values",
    label = "not a bool, a fieldless enum deriving RowKey, or an Option of those",
    note = "list the values instead with `_in(values)` (an integer range works: `.code_in(0..=9)`), or keep an index table keyed by the later field"
)]
pub trait FiniteDomain: Sized {
    /// Every value, in key order.
    fn domain() -> Vec<Self>;
}

impl FiniteDomain for bool {
    fn domain() -> Vec<Self> {
        vec![false, true]
    }
}

impl<T: FiniteDomain> FiniteDomain for Option<T> {
    fn domain() -> Vec<Self> {
        let mut v = vec![None];
        v.extend(T::domain().into_iter().map(Some));
        v
    }
}

/// The most alternatives an IN-list scan may build ([`TooManyRanges`] past it): the product of
/// the lengths of its IN-lists (and finite domains). Each alternative is one range once its salt
/// is known (or without a salt), else one range per salt bucket. The store crates read the
/// ranges of a salt bucket with one multi-range request, so the cap bounds the memory of the
/// ranges (a few MiB), not the requests.
pub const MAX_ALTERNATIVES: usize = 100_000;

/// An IN-list (`.field_in(values)`, `.field_any()`) would make more than [`MAX_ALTERNATIVES`]
/// alternatives: the product of the IN-lists' lengths is too large for one scan.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Pair {
///     a: u32,
///     b: u32,
/// }
///
/// let e = Pair::scan().a_in(0..2000).unwrap().b_in(0..100).unwrap_err();
/// assert_eq!((e.field(), e.alternatives()), ("b", 102_000));
/// assert_eq!(
///     e.to_string(),
///     "the IN-list on `b` makes more than 100000 alternatives (102000 so far) in one scan: split the scan, or list fewer values"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyRanges {
    field: &'static str,
    alternatives: usize,
}

impl TooManyRanges {
    /// The field whose IN-list went past the limit.
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// How many alternatives the scan had reached when it stopped.
    pub fn alternatives(&self) -> usize {
        self.alternatives
    }
}

impl core::fmt::Display for TooManyRanges {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "the IN-list on `{}` makes more than {MAX_ALTERNATIVES} alternatives ({} so far) in one scan: split the scan, or list fewer values",
            self.field, self.alternatives
        )
    }
}

impl std::error::Error for TooManyRanges {}

/// An IN-list being built on one field: every alternative of the scan so far (`bases`), once
/// per value added.
#[derive(Debug)]
pub struct Alternatives {
    field: &'static str,
    bases: Vec<ScanBuilder>,
    out: Vec<ScanBuilder>,
}

impl Alternatives {
    /// Every alternative so far with the field fixed to `v` (a value that cannot be encoded
    /// adds nothing: no key holds it).
    ///
    /// # Errors
    ///
    /// [`TooManyRanges`] when the scan would have more than [`MAX_ALTERNATIVES`].
    #[inline]
    pub fn add<C: Codec<T>, T>(&mut self, v: &T) -> Result<(), TooManyRanges> {
        for b in &self.bases {
            let mut nb = b.clone();
            nb.field_one::<C, T>(v);
            if !nb.impossible {
                self.out.push(nb);
            }
        }
        if self.out.len() > MAX_ALTERNATIVES {
            return Err(TooManyRanges {
                field: self.field,
                alternatives: self.out.len(),
            });
        }
        Ok(())
    }

    /// [`finish`](Self::finish) as the result of an IN-list method: `last` when the field is
    /// the key's last (every alternative is then one key).
    #[inline]
    pub fn done(self, last: bool) -> Result<ScanBuilder, TooManyRanges> {
        let mut b = self.finish();
        if last {
            b.complete();
        }
        Ok(b)
    }

    /// The builder of every alternative (a scan of nothing when none is left).
    #[inline]
    pub fn finish(self) -> ScanBuilder {
        let mut out = self.out.into_iter();
        match out.next() {
            Some(mut first) => {
                let rest: Vec<ScanBuilder> = out.collect();
                if !rest.is_empty() {
                    first.others = Some(Box::new(rest));
                }
                first
            }
            None => {
                let mut none = self
                    .bases
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| ScanBuilder::new(&[], &[], None));
                none.impossible = true;
                none
            }
        }
    }
}

/// The union of the ranges of several alternatives of one scan (one layout, so one
/// `salt_end`): sorted, overlapping ranges joined, and ranges that touch joined when they lie
/// in the same salt bucket (a merged read needs each bucket's keys as a stream of their own,
/// so ranges of two buckets stay apart even when they touch). The typed `.ranges()` then joins
/// the ones that no key of the layout lies between (`scan/tighten.rs`).
fn union(parts: Vec<ScanRanges>) -> ScanRanges {
    let salt_end = parts.iter().map(ScanRanges::salt_end).max().unwrap_or(0);
    let mut ranges: Vec<ScanRange> = parts.into_iter().flatten().collect();
    ranges.sort_by(|a, b| a.start().cmp(b.start()));
    let mut out: Vec<ScanRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(prev) if joins(prev, &r, salt_end) => {
                let stop = match (prev.stop(), r.stop()) {
                    (Some(a), Some(b)) => Some(a.max(b).to_vec()),
                    _ => None,
                };
                *prev = ScanRange::new(prev.start(), stop.as_deref());
            }
            _ => out.push(r),
        }
    }
    ScanRanges::sorted_nonempty(out).with_salt_end(salt_end)
}

/// Whether `b` (starting at or after `a`) overlaps `a`, or touches it within one salt bucket.
fn joins(a: &ScanRange, b: &ScanRange, salt_end: usize) -> bool {
    match a.stop() {
        None => true,
        Some(stop) if stop > b.start() => true,
        Some(stop) if stop == b.start() => a.start().get(..salt_end) == b.start().get(..salt_end),
        Some(_) => false,
    }
}

/// Buckets `v % n` for `v` in a range; all of them when the range spans `n` values or more.
fn modulo_buckets(lo: Bound<u128>, hi: Bound<u128>, n: u32) -> Vec<u32> {
    let n128 = u128::from(n);
    let lo = match lo {
        Bound::Unbounded => 0,
        Bound::Included(v) => v,
        Bound::Excluded(v) => match v.checked_add(1) {
            Some(v) => v,
            None => return Vec::new(),
        },
    };
    let hi = match hi {
        Bound::Unbounded => return (0..n).collect(),
        Bound::Included(v) => v,
        Bound::Excluded(0) => return Vec::new(),
        Bound::Excluded(v) => v - 1,
    };
    if hi < lo {
        return Vec::new();
    }
    if hi - lo + 1 >= n128 {
        return (0..n).collect();
    }
    let mut b: Vec<u32> = (lo..=hi).map(|v| (v % n128) as u32).collect();
    b.sort_unstable();
    b
}

impl Scan {
    /// The `[start, stop)` ranges, in key order: one per salt bucket the scan can touch (one in
    /// all when the salted prefix is fixed).
    #[inline]
    pub fn ranges(self) -> ScanRanges {
        self.ranges
    }

    /// The same scan with its ranges passed through `f` (generated code: minimal ranges).
    #[doc(hidden)]
    #[inline]
    pub fn map_ranges(self, f: impl FnOnce(ScanRanges) -> ScanRanges) -> Scan {
        Scan {
            ranges: f(self.ranges),
        }
    }
}

/// The ranges of `parts` (the pieces of the last field) after the prefix fixed in `base`.
///
/// The one-range case (no salt or the salt fixed, one piece) is inlined into the caller, so
/// that the builder is not moved into a call and read back at once (a store-forwarding stall).
#[inline(always)]
fn finish(base: ScanBuilder, parts: Pieces) -> ScanRanges {
    if !base.impossible {
        let mut it = parts.iter();
        if let (Some(salt), Some((lower, upper)), None) = (base.fixed_salt(), it.next(), it.next())
        {
            let (buf, salt_end) = base.head_with_salt(salt);
            return match build_in(buf, lower, upper) {
                Some(r) => ScanRanges::one(r).with_salt_end(salt_end),
                None => ScanRanges::default(),
            };
        }
    }
    finish_general(base, parts)
}

/// [`finish`] beyond one range: every salt bucket the scan can touch × every piece.
#[inline(never)]
fn finish_general(base: ScanBuilder, parts: Pieces) -> ScanRanges {
    if base.impossible {
        return ScanRanges::default();
    }
    let width = base.salt.map_or(0, |s| s.width);
    let salt_at = base.salt_at as usize;
    let salt_end = salt_at + width;
    let single_salt = base.fixed_salt();
    let n_parts = parts.iter().count();
    let n_salts = match (single_salt, &base.buckets) {
        (Some(_), _) => 1,
        (None, Some(b)) => b.len(),
        (None, None) => base.salt.map_or(1, |s| s.buckets) as usize,
    };
    let mut out: Vec<ScanRange> = Vec::with_capacity(n_salts * n_parts);
    let mut head = base.buf;
    for i in 0..n_salts {
        let salt = match (single_salt, &base.buckets) {
            (Some(s), _) => s,
            (None, Some(b)) => b.get(i).copied().unwrap_or_default(),
            (None, None) => i as u32,
        };
        salt::write_at(head.get_mut(salt_at..).unwrap_or_default(), salt, width);
        let first = out.len();
        for (lower, upper) in parts.iter() {
            let mut buf = Vec::with_capacity(2 * head.len() + 16);
            buf.extend_from_slice(&head);
            let Some(r) = build_in(buf, lower, upper) else {
                continue;
            };
            // Pieces of one field that touch (an `Option`'s None next to its smallest
            // value, say) are one range: join them.
            let joinable = out.len() > first;
            match out.last_mut() {
                Some(prev) if joinable && prev.stop() == Some(r.start()) => {
                    *prev = ScanRange::new(prev.start(), r.stop());
                }
                _ => out.push(r),
            }
        }
    }
    ScanRanges::new(out).with_salt_end(salt_end)
}

/// One range per salt bucket `0..n`: `[p, successor(p))` (`[p, p ++ 0x00)` when `exact`), `p`
/// being `head` with the salt (`width` bytes) written at `at`. Never empty; in salt order.
///
/// `head` becomes a template `p ++ p` whose salts are rewritten per bucket; each range is one
/// exact copy of its bytes (no growth path, so no range is built in a `Vec` that is then moved
/// and read back: a store-forwarding stall per range), and the last range is the template.
pub(super) fn fan_out(
    mut t: Vec<u8>,
    at: usize,
    width: usize,
    n: u32,
    exact: bool,
) -> Vec<ScanRange> {
    let Some(last) = n.checked_sub(1) else {
        return Vec::new();
    };
    let len = t.len();
    // `r` holds `p` with its bucket's salt: write its stop after it — `p ++ 0x00` when `exact`,
    // else the successor of `p` (the last byte that is not 0xFF bumped, those after it
    // dropped; none when `p` is all 0xFF) — and make it the range
    let close = |mut r: Vec<u8>| {
        r.extend_from_within(..len);
        let bounded = if exact {
            r.push(0);
            true
        } else if let Some(k) = successor_len(r.get(len..).unwrap_or_default()) {
            r.truncate(len + k);
            bump_last(&mut r);
            true
        } else {
            r.truncate(len);
            false
        };
        ScanRange::from_parts(r, len, bounded)
    };
    // each range in a buffer of its exact size, the last in the builder's own
    let cap = 2 * len + usize::from(exact);
    let mut out = Vec::with_capacity(n as usize);
    for salt in 0..last {
        let mut r = Vec::with_capacity(cap);
        r.extend_from_slice(&t);
        salt::write_at(r.get_mut(at..).unwrap_or_default(), salt, width);
        out.push(close(r));
    }
    salt::write_at(t.get_mut(at..).unwrap_or_default(), last, width);
    out.push(close(t));
    out
}

/// `[p, successor(p))`, or `[p, p ++ 0x00)` when `exact` (the range of the one key `p`), built
/// in `buf` holding `p`. Never empty.
#[inline]
fn prefix_in(mut buf: Vec<u8>, exact: bool) -> ScanRange {
    let n = buf.len();
    buf.extend_from_within(..);
    let bounded = if exact {
        buf.push(0);
        true
    } else {
        successor_in_place(&mut buf, n)
    };
    ScanRange::from_parts(buf, n, bounded)
}

/// One range from `buf` (holding the fixed prefix) and a part, reusing `buf`; `None` if it is
/// empty for sure.
#[inline]
fn build_in(mut buf: Vec<u8>, lower: &Lower, upper: &Upper) -> Option<ScanRange> {
    let head_len = buf.len();
    buf.reserve(head_len + 16);
    let start = match lower {
        Lower::Prefix => Rule::At,
        Lower::At(b) => {
            buf.extend_from_slice(b);
            Rule::At
        }
        Lower::After(b) => {
            buf.extend_from_slice(b);
            Rule::After
        }
    };
    if !close_start(&mut buf, head_len, start) {
        return None;
    }
    let start_len = buf.len();
    buf.extend_from_within(..head_len);
    let stop = match upper {
        Upper::PrefixEnd => Rule::After,
        Upper::At(b) => {
            buf.extend_from_slice(b);
            Rule::At
        }
        Upper::After(b) => {
            buf.extend_from_slice(b);
            Rule::After
        }
        Upper::AtZero => Rule::AtZero,
    };
    let bounded = close_stop(&mut buf, start_len, stop);
    Some(ScanRange::from_parts(buf, start_len, bounded))
}
