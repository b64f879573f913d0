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

/// A heap entry: the cached key prefix of a stream's head item and the stream. Small, so that
/// sifting moves 16 bytes, not items.
#[derive(Clone, Copy)]
struct Entry {
    prefix: u64,
    stream: usize,
    /// The head item is an error (yielded first, in either direction).
    error: bool,
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
    let mut streams: Vec<I> = streams.into_iter().collect();
    let mut heads = Vec::with_capacity(streams.len());
    let mut heap = Vec::with_capacity(streams.len());
    for (i, s) in streams.iter_mut().enumerate() {
        let item = s.next();
        if let Some(item) = &item {
            heap.push(Entry {
                prefix: prefix(item.merge_key(), skip),
                stream: i,
                error: item.is_error(),
            });
        }
        heads.push(item);
    }
    let mut m = Merge {
        streams,
        heads,
        heap,
        skip,
        refill: false,
    };
    for i in (0..m.heap.len() / 2).rev() {
        m.sift_down(i);
    }
    m
}

/// The iterator of [`merge`] (and, with `REV = true`, of [`merge_rev`]): a binary heap of
/// (key prefix, stream) entries over the streams' head items, the first in the merged order on
/// top, ties broken by stream order.
pub struct Merge<I: Iterator, const REV: bool = false> {
    streams: Vec<I>,
    heads: Vec<Option<I::Item>>,
    heap: Vec<Entry>,
    skip: usize,
    /// The top stream's head was handed out: refill it before the next selection.
    refill: bool,
}

impl<I, const REV: bool> Merge<I, REV>
where
    I: Iterator,
    I::Item: MergeKey,
{
    /// Whether entry `a` comes before entry `b`.
    #[inline]
    fn less(&self, a: Entry, b: Entry) -> bool {
        if a.error != b.error {
            return a.error;
        }
        if a.prefix != b.prefix {
            return (a.prefix < b.prefix) != REV;
        }
        let key = |e: Entry| {
            self.heads
                .get(e.stream)
                .and_then(Option::as_ref)
                .map_or(&[][..], |item| logical(item.merge_key(), self.skip))
        };
        match key(a).cmp(key(b)) {
            Ordering::Equal => a.stream < b.stream,
            o => (o == Ordering::Less) != REV,
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        let Some(&e) = self.heap.get(i) else {
            return;
        };
        loop {
            let l = 2 * i + 1;
            let Some(&le) = self.heap.get(l) else {
                break;
            };
            let (c, ce) = match self.heap.get(l + 1) {
                Some(&re) if self.less(re, le) => (l + 1, re),
                _ => (l, le),
            };
            if !self.less(ce, e) {
                break;
            }
            if let Some(slot) = self.heap.get_mut(i) {
                *slot = ce;
            }
            i = c;
        }
        if let Some(slot) = self.heap.get_mut(i) {
            *slot = e;
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
            let top = *self.heap.first()?;
            let slot = self.heads.get_mut(top.stream)?;
            *slot = self.streams.get_mut(top.stream).and_then(Iterator::next);
            match slot {
                // Replace the top in place: one sift instead of a pop and a push.
                Some(next) => {
                    let (prefix, error) = (prefix(next.merge_key(), self.skip), next.is_error());
                    if let Some(e) = self.heap.first_mut() {
                        e.prefix = prefix;
                        e.error = error;
                    }
                }
                None => {
                    if let Some(last) = self.heap.pop() {
                        if let Some(e) = self.heap.first_mut() {
                            *e = last;
                        }
                    }
                }
            }
            self.sift_down(0);
        }
        let top = *self.heap.first()?;
        self.refill = true;
        self.heads.get_mut(top.stream)?.take()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // heads waiting in the heap (the top's was handed out when a refill is pending)
        let held = self.heap.len() - usize::from(self.refill && !self.heap.is_empty());
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

    /// [`merge_streams`] for streams each in **descending** key order (reverse scans): one
    /// descending stream.
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
