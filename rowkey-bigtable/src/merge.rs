//! Merging the per-range row streams of a fanned-out read into the key's logical order.
//!
//! All merging of this crate lives here, so that it can be swapped for a store-agnostic reader
//! later. Forward reads use [`rowkey::merge::merge_streams`]; reverse reads (each range read
//! newest-first, i.e. in descending byte order) use [`rowkey::merge::merge_streams_rev`].
//! Both compare keys after the salt (`skip` bytes) and surface errors as soon as they are seen.

use core::pin::Pin;

use futures_util::Stream;

use crate::read::RawRow;
use crate::Error;

/// One range's rows, in the order the server sent them.
pub(crate) type RowStream = Pin<Box<dyn Stream<Item = Result<RawRow, Error>> + Send>>;

/// Merge ascending per-range streams into one ascending stream by the key after `skip` bytes.
pub(crate) fn merge_ascending(streams: Vec<RowStream>, skip: usize) -> RowStream {
    if streams.len() == 1 {
        if let Some(s) = streams.into_iter().next() {
            return s;
        }
        return Box::pin(futures_util::stream::empty());
    }
    Box::pin(rowkey::merge::merge_streams(streams, skip))
}

/// Merge descending per-range streams into one descending stream by the key after `skip` bytes:
/// the largest logical key first. Errors are yielded as soon as a stream produces one.
pub(crate) fn merge_descending(streams: Vec<RowStream>, skip: usize) -> RowStream {
    if streams.len() == 1 {
        if let Some(s) = streams.into_iter().next() {
            return s;
        }
        return Box::pin(futures_util::stream::empty());
    }
    Box::pin(rowkey::merge::merge_streams_rev(streams, skip))
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{stream, StreamExt};

    fn rows(keys: &[&[u8]]) -> RowStream {
        let v: Vec<Result<RawRow, Error>> = keys.iter().map(|k| Ok((k.to_vec(), vec![]))).collect();
        Box::pin(stream::iter(v))
    }

    fn keys(s: RowStream) -> Vec<Vec<u8>> {
        futures::executor::block_on(s.map(|r| r.map(|r| r.0).unwrap_or_default()).collect())
    }

    #[test]
    fn descending_by_logical_key() {
        let a = rows(&[b"\x00d", b"\x00b"]);
        let b = rows(&[b"\x01e", b"\x01c", b"\x01a"]);
        let c = rows(&[]);
        let out = keys(merge_descending(vec![a, b, c], 1));
        assert_eq!(out, [&b"\x01e"[..], b"\x00d", b"\x01c", b"\x00b", b"\x01a"]);
        let a = rows(&[b"\x00b", b"\x00d"]);
        let b = rows(&[b"\x01a", b"\x01c"]);
        let out = keys(merge_ascending(vec![a, b], 1));
        assert_eq!(out, [&b"\x01a"[..], b"\x00b", b"\x01c", b"\x00d"]);
    }

    #[test]
    fn errors_first() {
        let a = rows(&[b"\x00d"]);
        let b: RowStream = Box::pin(stream::iter(vec![Err(Error::InvalidArgument("x".into()))]));
        let mut m = merge_descending(vec![a, b], 1);
        let first = futures::executor::block_on(m.next());
        assert!(matches!(first, Some(Err(Error::InvalidArgument(_)))));
    }
}
