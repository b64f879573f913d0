//! K-way merge of the result streams of a fanned-out scan back into logical key order.
//!
//! A salted scan returns one range per bucket; each range's results are sorted, but the
//! buckets interleave in logical order. [`merge`] compares keys **after the salt** (skip the
//! salt width, [`crate::layout::SaltLayout::width`]) and yields one sorted sequence. Ties keep
//! the order of the streams; empty streams are fine.
//!
//! ```
//! use rowkey::merge::merge;
//!
//! // two buckets (salt byte first), each sorted
//! let b0 = vec![b"\x00b".to_vec(), b"\x00d".to_vec()];
//! let b1 = vec![b"\x01a".to_vec(), b"\x01c".to_vec(), b"\x01e".to_vec()];
//! let merged: Vec<_> = merge(vec![b0.into_iter(), b1.into_iter()], 1).collect();
//! assert_eq!(merged, [&b"\x01a"[..], b"\x00b", b"\x01c", b"\x00d", b"\x01e"]);
//! ```
//!
//! With the `async` feature, `merge_streams` does the same for `futures::Stream`s (one per
//! region server scan, say).

use core::cmp::Ordering;

/// An item of a scan result stream: something with a row key.
///
/// Implemented for byte strings, `(key, value)` pairs and `Result`s of those (an `Err` is
/// yielded first); implement it for a client's own row type:
///
/// ```
/// use rowkey::merge::{merge, MergeKey};
///
/// struct Row {
///     key: Vec<u8>,
///     cells: usize,
/// }
///
/// impl MergeKey for Row {
///     fn merge_key(&self) -> &[u8] {
///         &self.key
///     }
/// }
///
/// let b0 = vec![Row { key: b"\x00b".to_vec(), cells: 2 }];
/// let b1 = vec![Row { key: b"\x01a".to_vec(), cells: 1 }];
/// let cells: Vec<usize> = merge([b0.into_iter(), b1.into_iter()], 1).map(|r| r.cells).collect();
/// assert_eq!(cells, [1, 2]);
/// ```
pub trait MergeKey {
    /// The full row key (salt included).
    fn merge_key(&self) -> &[u8];

    /// Whether the item is an error: errors are yielded first, in either direction, so that
    /// they surface as soon as they are seen.
    fn is_error(&self) -> bool {
        false
    }
}

impl MergeKey for Vec<u8> {
    fn merge_key(&self) -> &[u8] {
        self
    }
}
impl MergeKey for &[u8] {
    fn merge_key(&self) -> &[u8] {
        self
    }
}
impl MergeKey for bytes::Bytes {
    fn merge_key(&self) -> &[u8] {
        self
    }
}
impl<const N: usize> MergeKey for [u8; N] {
    fn merge_key(&self) -> &[u8] {
        self
    }
}
/// `(key, value)` pairs, as most clients return rows.
impl<K: AsRef<[u8]>, V> MergeKey for (K, V) {
    fn merge_key(&self) -> &[u8] {
        self.0.as_ref()
    }
}
impl<T: MergeKey, E> MergeKey for Result<T, E> {
    fn merge_key(&self) -> &[u8] {
        match self {
            Ok(t) => t.merge_key(),
            Err(_) => &[],
        }
    }
    fn is_error(&self) -> bool {
        self.is_err()
    }
}

fn logical(key: &[u8], skip: usize) -> &[u8] {
    key.get(skip..).unwrap_or_default()
}

/// Which of two items comes first in the merged order (`REV`: descending), errors first.
#[cfg(feature = "async")]
#[inline]
fn before<T: MergeKey, const REV: bool>(a: &T, b: &T, skip: usize) -> Ordering {
    match (a.is_error(), b.is_error()) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    let ord = logical(a.merge_key(), skip).cmp(logical(b.merge_key(), skip));
    if REV {
        ord.reverse()
    } else {
        ord
    }
}

/// The first 8 bytes of a logical key as a big-endian number (zero-padded): comparing two of
/// them orders the keys, unless they are equal (then the whole keys are compared).
#[inline]
fn prefix(key: &[u8], skip: usize) -> u64 {
    let k = logical(key, skip);
    match k.first_chunk::<8>() {
        Some(p) => u64::from_be_bytes(*p),
        None => {
            let mut p = [0u8; 8];
            for (d, s) in p.iter_mut().zip(k) {
                *d = *s;
            }
            u64::from_be_bytes(p)
        }
    }
}

/// A stream's place in the tournament: its head item's sort word and the stream.
///
/// The word orders heads without touching them: errors first (class 0), then items by the first
/// 8 bytes of their logical key (class 1; inverted for a descending merge), then finished
/// streams (class 2). Equal words are the rare case that compares whole keys.
#[derive(Clone, Copy)]
struct Node {
    word: u128,
    stream: usize,
}

const ERROR: u128 = 0;
const ITEM: u128 = 1 << 64;
const DONE: u128 = 2 << 64;

/// The sort word of a stream's head (see [`Node`]).
#[inline]
fn word<T: MergeKey, const REV: bool>(head: Option<&T>, skip: usize) -> u128 {
    match head {
        None => DONE,
        Some(item) if item.is_error() => ERROR,
        Some(item) => {
            let p = prefix(item.merge_key(), skip);
            ITEM | u128::from(if REV { !p } else { p })
        }
    }
}

/// Merge sorted iterators into one sorted iterator, comparing keys after `skip` salt bytes.
pub fn merge<I>(streams: impl IntoIterator<Item = I>, skip: usize) -> Merge<I>
where
    I: Iterator,
    I::Item: MergeKey,
{
    merge_in(streams, skip)
}

/// Merge iterators that are each sorted in **descending** key order (a store's reverse scan of
/// each range) into one descending iterator, comparing keys after `skip` salt bytes: the newest
/// first on an ascending time index, lazily.
///
/// ```
/// use rowkey::merge::merge_rev;
///
/// let b0 = vec![b"\x00d".to_vec(), b"\x00b".to_vec()];
/// let b1 = vec![b"\x01e".to_vec(), b"\x01c".to_vec(), b"\x01a".to_vec()];
/// let merged: Vec<_> = merge_rev(vec![b0.into_iter(), b1.into_iter()], 1).take(3).collect();
/// assert_eq!(merged, [&b"\x01e"[..], b"\x00d", b"\x01c"]);
/// ```
pub fn merge_rev<I>(streams: impl IntoIterator<Item = I>, skip: usize) -> Merge<I, true>
where
    I: Iterator,
    I::Item: MergeKey,
{
    merge_in(streams, skip)
}

fn merge_in<I, const REV: bool>(streams: impl IntoIterator<Item = I>, skip: usize) -> Merge<I, REV>
where
    I: Iterator,
    I::Item: MergeKey,
{
    let streams: Vec<I> = streams.into_iter().collect();
    let mut m = Merge {
        heads: streams.iter().map(|_| None).collect(),
        streams,
        tree: Vec::new(),
        skip,
        live: 0,
        refill: false,
        bound: 0,
        primed: 0,
    };
    m.prime();
    m.build();
    m
}

/// The iterator of [`merge`] (and, with `REV = true`, of [`merge_rev`]; see their examples):
/// a tournament (loser) tree over the streams' head items — each internal node holds the loser
/// of the match played there, the root slot the overall winner — so that replacing the
/// winner's head costs one comparison per level (⌈log₂ streams⌉), on cached 8-byte key
/// prefixes; ties are broken by stream order.
pub struct Merge<I: Iterator, const REV: bool = false> {
    streams: Vec<I>,
    heads: Vec<Option<I::Item>>,
    /// `tree[0]`: the winner; `tree[n]`, `1 ≤ n < streams`: the loser at internal node `n`
    /// (leaf `s` sits at node `streams + s`, node `n`'s parent is `n / 2`).
    tree: Vec<Node>,
    skip: usize,
    /// Streams not finished (their head waiting, or handed out and due for a refill).
    live: usize,
    /// The winner's head was handed out: refill it before the next selection.
    refill: bool,
    /// While one stream keeps winning (a run: rows of one series, say), the smallest word of
    /// the losers on its path: a new head whose word is below it wins every match again, so
    /// the replay is skipped. `0` (no word is below it) when unknown.
    bound: u128,
    /// Streams `0..primed` have had their first item pulled. Priming stops at the first error
    /// (which wins at once): a read over many ranges whose store is down fails after one
    /// range's attempts, not after every range's. The rest are primed once the error is out.
    primed: usize,
}

impl<I, const REV: bool> Merge<I, REV>
where
    I: Iterator,
    I::Item: MergeKey,
{
    /// Pull the first item of the streams not primed yet, stopping after an error.
    fn prime(&mut self) {
        while let Some(stream) = self.streams.get_mut(self.primed) {
            let head = stream.next();
            let error = head.as_ref().is_some_and(MergeKey::is_error);
            self.live += usize::from(head.is_some());
            if let Some(slot) = self.heads.get_mut(self.primed) {
                *slot = head;
            }
            self.primed += 1;
            if error {
                break;
            }
        }
    }

    /// After an error went out: prime the streams after it and play every match again.
    #[cold]
    #[inline(never)]
    fn prime_rest(&mut self) {
        self.prime();
        self.build();
        self.bound = 0;
    }

    /// Whether node `a` comes before node `b` in the merged order.
    #[inline(always)]
    fn before(&self, a: Node, b: Node) -> bool {
        if a.word != b.word {
            return a.word < b.word;
        }
        self.tie(a, b)
    }

    /// `a` before `b` when their words are equal: whole logical keys, then stream order.
    #[inline(never)]
    fn tie(&self, a: Node, b: Node) -> bool {
        if a.word >> 64 == ITEM >> 64 {
            let key = |n: Node| {
                self.heads
                    .get(n.stream)
                    .and_then(Option::as_ref)
                    .map_or(&[][..], |item| logical(item.merge_key(), self.skip))
            };
            match key(a).cmp(key(b)) {
                Ordering::Equal => {}
                o => return (o == Ordering::Less) != REV,
            }
        }
        a.stream < b.stream
    }

    /// Play every match once: the losers into the internal nodes, the winner into `tree[0]`.
    fn build(&mut self) {
        let k = self.heads.len();
        let leaves: Vec<Node> = self
            .heads
            .iter()
            .enumerate()
            .map(|(stream, h)| Node {
                word: word::<_, REV>(h.as_ref(), self.skip),
                stream,
            })
            .collect();
        // winners[n] for internal nodes; node n's children are 2n and 2n + 1 (a leaf when ≥ k)
        let mut winners = vec![
            Node {
                word: DONE,
                stream: 0
            };
            k
        ];
        let mut tree = winners.clone();
        for n in (1..k).rev() {
            let child = |c: usize| {
                if c >= k {
                    leaves.get(c - k).copied()
                } else {
                    winners.get(c).copied()
                }
            };
            let (Some(a), Some(b)) = (child(2 * n), child(2 * n + 1)) else {
                continue;
            };
            let (w, l) = if self.before(b, a) { (b, a) } else { (a, b) };
            if let (Some(ws), Some(ts)) = (winners.get_mut(n), tree.get_mut(n)) {
                *ws = w;
                *ts = l;
            }
        }
        if let Some(root) = tree.first_mut() {
            *root = if k == 1 {
                leaves.first().copied().unwrap_or(Node {
                    word: DONE,
                    stream: 0,
                })
            } else {
                winners.get(1).copied().unwrap_or(Node {
                    word: DONE,
                    stream: 0,
                })
            };
        }
        self.tree = tree;
    }

    /// Stream `s`'s head changed (it was the winner, its new head's word is `word`): replay
    /// its matches up to the root — unless the word is below [`bound`](Self::bound), when `s`
    /// wins them all again and only the root's word changes.
    #[inline]
    fn refilled(&mut self, s: usize, word: u128) {
        if word < self.bound {
            if let Some(root) = self.tree.first_mut() {
                root.word = word;
            }
            return;
        }
        self.replay(Node { word, stream: s });
        // `s` won again: a run may be under way, so learn the word it has to stay below
        self.bound = if self.tree.first().is_some_and(|r| r.stream == s) {
            self.path_min(s)
        } else {
            0
        };
    }

    /// The smallest word among the losers on leaf `s`'s path (the runner-up's, when `s` is
    /// the winner). Out of line: with randomly interleaved streams it is rarely needed.
    #[inline(never)]
    fn path_min(&self, s: usize) -> u128 {
        let mut min = DONE;
        let mut n = (self.tree.len() + s) / 2;
        while n > 0 {
            if let Some(l) = self.tree.get(n) {
                min = min.min(l.word);
            }
            n /= 2;
        }
        min
    }

    /// Play the matches of node `w` (a winner's new head) from its leaf up to the root.
    #[inline]
    fn replay(&mut self, mut w: Node) {
        let k = self.tree.len();
        let mut n = (k + w.stream) / 2;
        while n > 0 {
            let Some(&l) = self.tree.get(n) else { break };
            // the loser stays, the winner goes on up
            let l_first = self.before(l, w);
            let (stay, up) = if l_first { (w, l) } else { (l, w) };
            if let Some(slot) = self.tree.get_mut(n) {
                *slot = stay;
            }
            w = up;
            n /= 2;
        }
        if let Some(root) = self.tree.first_mut() {
            *root = w;
        }
    }
}

impl<I, const REV: bool> Iterator for Merge<I, REV>
where
    I: Iterator,
    I::Item: MergeKey,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        // The stream whose head went out last time is refilled now (lazily: nothing is pulled
        // before it is needed, and each item moves once into its slot and once out).
        if self.refill {
            self.refill = false;
            let s = self.tree.first()?.stream;
            let slot = self.heads.get_mut(s)?;
            let stream = self.streams.get_mut(s)?;
            debug_assert!(slot.is_none());
            // `slot` is `None` (its item was taken when handed out): nothing to drop, so the
            // drop glue of the old value is skipped.
            core::mem::forget(core::mem::replace(slot, stream.next()));
            if slot.is_none() {
                self.live -= 1;
            }
            let word = word::<_, REV>(slot.as_ref(), self.skip);
            self.refilled(s, word);
            if self.primed < self.streams.len() {
                self.prime_rest();
            }
        }
        let top = *self.tree.first()?;
        if top.word == DONE {
            return None;
        }
        self.refill = true;
        self.heads.get_mut(top.stream)?.take()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // heads waiting in the tree (the winner's was handed out when a refill is pending)
        let held = self.live - usize::from(self.refill);
        let (mut lo, mut hi) = (held, Some(held));
        for s in &self.streams {
            let (l, h) = s.size_hint();
            lo = lo.saturating_add(l);
            hi = match (hi, h) {
                (Some(a), Some(b)) => a.checked_add(b),
                _ => None,
            };
        }
        (lo, hi)
    }
}

#[cfg(feature = "async")]
pub use self::stream::{merge_streams, merge_streams_rev, MergeStreams};

#[cfg(feature = "async")]
mod stream {
    use core::pin::Pin;
    use core::task::{Context, Poll};

    use futures_core::Stream;

    use super::{before, MergeKey};

    #[cfg(feature = "async")] // (again: the badge of the re-export in `rowkey`)
    /// Merge sorted streams into one sorted stream, comparing keys after `skip` salt bytes.
    /// Waits until every unfinished stream has its next item before yielding the smallest.
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// use futures::{stream, StreamExt};
    /// use rowkey::merge::merge_streams;
    ///
    /// let a = stream::iter(vec![b"\x00b".to_vec(), b"\x00d".to_vec()]);
    /// let b = stream::iter(vec![b"\x01a".to_vec(), b"\x01c".to_vec()]);
    /// let merged: Vec<_> = merge_streams(vec![a, b], 1).collect().await;
    /// assert_eq!(merged, [&b"\x01a"[..], b"\x00b", b"\x01c", b"\x00d"]);
    /// # });
    /// ```
    pub fn merge_streams<S>(streams: impl IntoIterator<Item = S>, skip: usize) -> MergeStreams<S>
    where
        S: Stream + Unpin,
        S::Item: MergeKey,
    {
        merge_streams_in(streams, skip)
    }

    #[cfg(feature = "async")] // (again: the badge of the re-export in `rowkey`)
    /// [`merge_streams`] for streams each in **descending** key order (reverse scans): one
    /// descending stream.
    ///
    /// ```
    /// # futures::executor::block_on(async {
    /// use futures::{stream, StreamExt};
    /// use rowkey::merge::merge_streams_rev;
    ///
    /// let a = stream::iter(vec![b"\x00d".to_vec(), b"\x00b".to_vec()]);
    /// let b = stream::iter(vec![b"\x01c".to_vec(), b"\x01a".to_vec()]);
    /// let newest: Vec<_> = merge_streams_rev(vec![a, b], 1).take(2).collect().await;
    /// assert_eq!(newest, [&b"\x00d"[..], b"\x01c"]);
    /// # });
    /// ```
    pub fn merge_streams_rev<S>(
        streams: impl IntoIterator<Item = S>,
        skip: usize,
    ) -> MergeStreams<S, true>
    where
        S: Stream + Unpin,
        S::Item: MergeKey,
    {
        merge_streams_in(streams, skip)
    }

    fn merge_streams_in<S, const REV: bool>(
        streams: impl IntoIterator<Item = S>,
        skip: usize,
    ) -> MergeStreams<S, REV>
    where
        S: Stream + Unpin,
        S::Item: MergeKey,
    {
        let streams: Vec<S> = streams.into_iter().collect();
        let n = streams.len();
        MergeStreams {
            streams,
            heads: (0..n).map(|_| None).collect(),
            done: vec![false; n],
            skip,
        }
    }

    #[cfg(feature = "async")] // (again: the badge of the re-export in `rowkey`)
    /// The stream of [`merge_streams`] (and, with `REV = true`, of [`merge_streams_rev`]).
    pub struct MergeStreams<S: Stream, const REV: bool = false> {
        streams: Vec<S>,
        heads: Vec<Option<S::Item>>,
        done: Vec<bool>,
        skip: usize,
    }

    impl<S: Stream + Unpin, const REV: bool> Unpin for MergeStreams<S, REV> {}

    impl<S, const REV: bool> Stream for MergeStreams<S, REV>
    where
        S: Stream + Unpin,
        S::Item: MergeKey,
    {
        type Item = S::Item;

        fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
            let this = self.get_mut();
            let mut pending = false;
            for ((stream, head), done) in this
                .streams
                .iter_mut()
                .zip(this.heads.iter_mut())
                .zip(this.done.iter_mut())
            {
                if head.is_none() && !*done {
                    match Pin::new(stream).poll_next(cx) {
                        Poll::Ready(Some(item)) => *head = Some(item),
                        Poll::Ready(None) => *done = true,
                        Poll::Pending => pending = true,
                    }
                }
            }
            // An error goes out at once, even while other streams are still pending.
            if let Some(i) = this
                .heads
                .iter()
                .position(|h| h.as_ref().is_some_and(MergeKey::is_error))
            {
                return Poll::Ready(this.heads.get_mut(i).and_then(Option::take));
            }
            if pending {
                return Poll::Pending;
            }
            let skip = this.skip;
            let mut best: Option<(usize, &S::Item)> = None;
            for (i, h) in this.heads.iter().enumerate() {
                if let Some(item) = h {
                    if best.is_none_or(|(_, b)| {
                        before::<S::Item, REV>(item, b, skip) == core::cmp::Ordering::Less
                    }) {
                        best = Some((i, item));
                    }
                }
            }
            let best = best.map(|(i, _)| i);
            Poll::Ready(best.and_then(|i| this.heads.get_mut(i).and_then(Option::take)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_and_empty_streams() {
        let a: Vec<Vec<u8>> = vec![];
        let b = vec![b"\x01x".to_vec(), b"\x01y".to_vec()];
        let c = vec![b"\x02x".to_vec()];
        let out: Vec<_> = merge(vec![a.into_iter(), b.into_iter(), c.into_iter()], 1).collect();
        assert_eq!(
            out,
            [b"\x01x".to_vec(), b"\x02x".to_vec(), b"\x01y".to_vec()]
        );
        let none: Vec<std::vec::IntoIter<Vec<u8>>> = vec![];
        assert_eq!(merge(none, 1).count(), 0);
    }

    /// A stream whose first item is an error (a store that is down) is yielded before the
    /// streams after it are pulled at all: a read over 16 ranges fails after one range's
    /// attempts, not 16. Once the error is out, the rest are read as usual.
    #[test]
    fn an_error_goes_out_before_later_streams_are_pulled() {
        use std::cell::Cell;
        let pulled = Cell::new(0usize);
        let counted = |items: Vec<Result<Vec<u8>, u32>>| {
            let pulled = &pulled;
            items
                .into_iter()
                .inspect(move |_| pulled.set(pulled.get() + 1))
        };
        let streams = vec![
            counted(vec![Ok(b"\x00b".to_vec())]),
            counted(vec![Err(7)]),
            counted(vec![Ok(b"\x02a".to_vec())]),
            counted(vec![Ok(b"\x03c".to_vec())]),
        ];
        let mut m = merge(streams, 1);
        assert_eq!(m.next(), Some(Err(7)));
        assert_eq!(
            pulled.get(),
            2,
            "streams 2 and 3 not pulled before the error"
        );
        let rest: Vec<_> = m.collect();
        assert_eq!(
            rest,
            [
                Ok(b"\x02a".to_vec()),
                Ok(b"\x00b".to_vec()),
                Ok(b"\x03c".to_vec())
            ]
        );
    }

    /// Against a stable sort of all items by logical key (ties in stream order): random
    /// stream counts, key lengths around the 8-byte cached prefix (shorter, equal prefixes,
    /// longer), many ties, errors, and the salt skipped or not.
    #[test]
    fn merge_equals_stable_sort() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..300 {
            let skip = (round % 2) as usize;
            let k = 1 + rnd(20) as usize;
            let mut streams: Vec<Vec<Result<Vec<u8>, u32>>> = Vec::new();
            for s in 0..k {
                let mut items: Vec<Vec<u8>> = (0..rnd(12))
                    .map(|_| {
                        let len = skip + rnd(14) as usize;
                        (0..len).map(|_| rnd(3) as u8).collect()
                    })
                    .collect();
                items.sort_by(|a, b| logical(a, skip).cmp(logical(b, skip)));
                let mut items: Vec<Result<Vec<u8>, u32>> = items.into_iter().map(Ok).collect();
                if rnd(10) == 0 {
                    items.insert(0, Err(s as u32));
                }
                streams.push(items);
            }
            // errors first, then the keys in order, ties in stream order (a stable sort)
            let all: Vec<Result<Vec<u8>, u32>> = streams.iter().flatten().cloned().collect();
            let mut want = all.clone();
            want.sort_by(|a, b| {
                b.is_error()
                    .cmp(&a.is_error())
                    .then_with(|| logical(a.merge_key(), skip).cmp(logical(b.merge_key(), skip)))
            });
            let got: Vec<_> = merge(streams.iter().cloned().map(Vec::into_iter), skip).collect();
            assert_eq!(got, want, "round {round}");
            // descending: each stream reversed (its error still first), keys descending
            let mut want_rev = all;
            want_rev.sort_by(|a, b| {
                b.is_error()
                    .cmp(&a.is_error())
                    .then_with(|| logical(b.merge_key(), skip).cmp(logical(a.merge_key(), skip)))
            });
            let rev_streams = streams.into_iter().map(|v| {
                let (errs, mut oks): (Vec<_>, Vec<_>) = v.into_iter().partition(Result::is_err);
                oks.reverse();
                errs.into_iter().chain(oks)
            });
            let got_rev: Vec<_> = merge_rev(rev_streams, skip).collect();
            let key_of = |v: &[Result<Vec<u8>, u32>]| -> Vec<(bool, Vec<u8>)> {
                v.iter()
                    .map(|x| (x.is_error(), logical(x.merge_key(), skip).to_vec()))
                    .collect()
            };
            assert_eq!(
                key_of(&got_rev),
                key_of(&want_rev),
                "round {round} (reverse)"
            );
        }
    }

    /// Runs: blocks of consecutive keys (a series' rows) dealt to random streams, so that one
    /// stream wins many times in a row (the replay is skipped while its head stays below the
    /// runner-up) and then hands over; keys of 0–12 bytes so that the 8-byte words tie too.
    #[test]
    fn runs_merge_in_order() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..200 {
            let k = 1 + rnd(17) as usize;
            let mut keys: Vec<Vec<u8>> = (0..rnd(400))
                .map(|_| {
                    let len = rnd(13) as usize;
                    let mut key: Vec<u8> = vec![b's'];
                    key.extend((0..len).map(|_| [0u8, 7, 0xFF][rnd(3) as usize]));
                    key
                })
                .collect();
            keys.sort();
            keys.dedup();
            let mut streams: Vec<Vec<Vec<u8>>> = vec![Vec::new(); k];
            let mut rest = keys.as_slice();
            while !rest.is_empty() {
                let take = (1 + rnd(30) as usize).min(rest.len());
                let (block, after) = rest.split_at(take);
                streams[rnd(k as u64) as usize].extend_from_slice(block);
                rest = after;
            }
            let got: Vec<Vec<u8>> = merge(streams.iter().cloned().map(Vec::into_iter), 1).collect();
            assert_eq!(got, keys, "round {round}");
            let rev: Vec<Vec<u8>> = merge_rev(
                streams
                    .iter()
                    .map(|s| s.iter().rev().cloned().collect::<Vec<_>>().into_iter()),
                1,
            )
            .collect();
            let mut want = keys.clone();
            want.reverse();
            assert_eq!(rev, want, "round {round} (reverse)");
            // the size hint stays exact through runs and hand-overs
            let mut m = merge(streams.iter().cloned().map(Vec::into_iter), 1);
            for left in (0..=keys.len()).rev() {
                assert_eq!(m.size_hint(), (left, Some(left)));
                m.next();
            }
        }
    }

    #[test]
    fn pairs() {
        let a = vec![(b"\x00b".to_vec(), 1), (b"\x00c".to_vec(), 2)];
        let b = vec![(b"\x01a".to_vec(), 3)];
        let out: Vec<i32> = merge(vec![a.into_iter(), b.into_iter()], 1)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(out, [3, 1, 2]);
    }
}
