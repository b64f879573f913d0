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
use std::collections::BinaryHeap;

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

struct Head<T, const REV: bool> {
    item: T,
    stream: usize,
    skip: usize,
}

impl<T: MergeKey, const REV: bool> Ord for Head<T, REV> {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the item that comes first is the greatest.
        before::<T, REV>(&other.item, &self.item, self.skip).then(other.stream.cmp(&self.stream))
    }
}
impl<T: MergeKey, const REV: bool> PartialOrd for Head<T, REV> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<T: MergeKey, const REV: bool> PartialEq for Head<T, REV> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<T: MergeKey, const REV: bool> Eq for Head<T, REV> {}

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
    let mut heap = BinaryHeap::with_capacity(streams.len());
    for (i, s) in streams.iter_mut().enumerate() {
        if let Some(item) = s.next() {
            heap.push(Head {
                item,
                stream: i,
                skip,
            });
        }
    }
    Merge { streams, heap }
}

/// The iterator of [`merge`] (and, with `REV = true`, of [`merge_rev`]).
pub struct Merge<I: Iterator, const REV: bool = false> {
    streams: Vec<I>,
    heap: BinaryHeap<Head<I::Item, REV>>,
}

impl<I, const REV: bool> Iterator for Merge<I, REV>
where
    I: Iterator,
    I::Item: MergeKey,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let mut top = self.heap.peek_mut()?;
        let stream = top.stream;
        match self.streams.get_mut(stream).and_then(Iterator::next) {
            // Replace the smallest in place: one sift instead of a pop and a push.
            Some(next) => Some(core::mem::replace(&mut top.item, next)),
            None => Some(std::collections::binary_heap::PeekMut::pop(top).item),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (mut lo, mut hi) = (self.heap.len(), Some(self.heap.len()));
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
