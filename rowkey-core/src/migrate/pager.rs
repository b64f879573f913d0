//! Reading one side of a migration: every range of a layout, page by page.

use bytes::Bytes;

use crate::layout::Layout;
use crate::scan::{ScanRange, ScanRanges};

use crate::store::{Pager as StorePager, Store};

use super::side::Side;

/// Every row of a layout: one range per salt bucket (salt bytes big-endian), or the whole
/// table when unsalted.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct K {
///     #[salt(buckets = 4)]
///     id: u32,
/// }
/// let r = rowkey::migrate::all_ranges(K::LAYOUT);
/// assert_eq!(r.len(), 4);
/// assert_eq!(r.as_slice()[3].start(), &[3]);
/// ```
pub fn all_ranges(layout: &Layout) -> ScanRanges {
    let prefix = layout.prefix;
    let ranges = match layout.salt {
        Some(s) => (0..s.buckets)
            .map(|b| {
                let mut head = prefix.to_vec();
                head.extend_from_slice(crate::salt::bytes(b, s.width).as_ref());
                ScanRange::prefix(&head)
            })
            .collect(),
        None if prefix.is_empty() => vec![ScanRange::new(&[], None)],
        None => vec![ScanRange::prefix(prefix)],
    };
    ScanRanges::new(ranges).with_salt_end(layout.salt_end())
}

/// Rows of one range of one side, fetched page by page by the store's pager, with rows of the
/// other layout skipped in a one-table migration. Items are `(key, (key, value))` so that a
/// typed read keeps the raw key.
pub(super) struct Pager<'s, S: Store> {
    rows: StorePager<'s, S>,
    skip: Option<fn(&[u8]) -> bool>,
}

pub(super) type Item = (Bytes, (Bytes, Vec<u8>));

impl<'s, S: Store> Pager<'s, S> {
    pub(super) fn new(
        store: &'s S,
        side: Side,
        r: &ScanRange,
        page: usize,
        skip: Option<fn(&[u8]) -> bool>,
    ) -> Self {
        Pager {
            rows: StorePager::new(store, side.table(), r.start(), r.stop(), page, false),
            skip,
        }
    }
}

impl<S: Store> Iterator for Pager<'_, S> {
    type Item = Result<Item, S::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (k, v) = match self.rows.next()? {
                Ok(row) => row,
                Err(e) => return Some(Err(e)),
            };
            if self.skip.is_some_and(|skip| skip(&k)) {
                continue;
            }
            let k = Bytes::from(k);
            return Some(Ok((k.clone(), (k, v))));
        }
    }
}
