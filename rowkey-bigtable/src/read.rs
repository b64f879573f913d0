//! Typed reads of [`ScanRanges`]: one `ReadRows` stream per range, run concurrently and merged
//! back into the key's logical order.

use core::marker::PhantomData;
use core::pin::Pin;

use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
use bigtable_rs::google::bigtable::v2::{
    read_rows_request::RequestStatsView, row_range, RowFilter, RowRange, RowSet,
};
use futures_util::{Stream, StreamExt, TryStreamExt};
use rowkey::{ScanRange, ScanRanges};

use crate::merge::{merge_ascending, merge_descending, RowStream};
use crate::{Error, Row, RowCell, Table, TypedKey};

/// A row as the client decodes it: the key and its cells.
pub(crate) type RawRow = (Vec<u8>, Vec<RowCell>);

/// The stream of a typed read: `(key, row)` pairs in the read's order.
pub type TypedRows<T> = Pin<Box<dyn Stream<Item = Result<(T, Row), Error>> + Send>>;

/// A typed read of a [`ScanRanges`], built by [`Table::read`]. Set options, then call
/// [`stream`](Read::stream) or [`collect`](Read::collect).
///
/// By default each range is read by its own `ReadRows` request; the requests run concurrently
/// and their rows are merged into the key's **logical order** — the order of the key after its
/// salt, which is the order of the key's fields. The salt width comes from `T::LAYOUT`: there is
/// nothing to pass.
///
/// ```no_run
/// # use rowkey::RowKey;
/// # #[derive(RowKey, Debug, Clone, PartialEq)]
/// # struct OrderBySeller { #[salt(buckets = 16)] seller_id: u64, #[reverse_ts] created_ms: i64, #[sep] order_no: String }
/// # async fn demo(table: rowkey_bigtable::Table) -> Result<(), rowkey_bigtable::Error> {
/// use futures_util::TryStreamExt;
///
/// // Every seller's orders: 16 ranges (one per salt bucket), merged newest-first.
/// let ranges = OrderBySeller::scan().ranges();
/// let page = table.read::<OrderBySeller>(&ranges).limit(100).collect().await?;
/// // The next page, across all buckets, resumes after the last key seen.
/// if let Some((last, _)) = page.last() {
///     let next = table.read::<OrderBySeller>(&ranges).after(last)?.limit(100).collect().await?;
/// }
/// // Oldest first: the same ranges read in reverse.
/// let mut oldest = table.read::<OrderBySeller>(&ranges).reverse().stream();
/// while let Some((order, row)) = oldest.try_next().await? { /* … */ }
/// # Ok(()) }
/// ```
#[must_use = "a Read does nothing until .stream() or .collect()"]
pub struct Read<T> {
    table: Table,
    ranges: Vec<ScanRange>,
    skip: usize,
    limit: Option<u64>,
    reverse: bool,
    after: Option<Vec<u8>>,
    single: bool,
    filter: Option<RowFilter>,
    _key: PhantomData<fn() -> T>,
}

impl<T: TypedKey> Read<T> {
    pub(crate) fn new(table: Table, ranges: &ScanRanges) -> Self {
        Read {
            table,
            ranges: ranges.iter().cloned().collect(),
            skip: T::LAYOUT.salt.map_or(0, |s| s.width),
            limit: None,
            reverse: false,
            after: None,
            single: false,
            filter: None,
            _key: PhantomData,
        }
    }

    /// At most `n` rows in all (each range's request is limited to `n` too).
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// Read in reverse: the largest logical key first (newest first on an ascending time
    /// index). Each range is read with Bigtable's reversed `ReadRows` and the descending
    /// streams are merged.
    pub fn reverse(mut self) -> Self {
        self.reverse = !self.reverse;
        self
    }

    /// Resume after `key`: only rows that come after it in this read's order (after it in
    /// logical order for a merged read, before it for a reverse read, after it in byte order
    /// for a [`single_request`](Read::single_request) read). Pass the last key of the previous
    /// page to get the next one, across every salt bucket.
    ///
    /// # Errors
    ///
    /// The key does not encode.
    pub fn after(self, key: &T) -> Result<Self, Error> {
        let bytes = key.to_row_key()?;
        Ok(self.after_key(&bytes))
    }

    /// [`after`](Read::after) with the encoded row key.
    pub fn after_key(mut self, key: &[u8]) -> Self {
        self.after = Some(key.to_vec());
        self
    }

    /// A Bigtable row filter applied to every row (e.g. only the latest cell per column). The
    /// rows themselves are chosen by the ranges.
    pub fn filter(mut self, filter: RowFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Send one `ReadRows` request whose `RowSet` holds every range, instead of one request per
    /// range. Bigtable then returns the rows in **byte order** (ascending, or descending with
    /// [`reverse`](Read::reverse)) — salt bucket by salt bucket, not in the key's logical order.
    /// Use it when the order does not matter (counting, exporting) or the key has no salt; with
    /// a salt and a limit it returns the first rows of the lowest buckets, not the first rows
    /// of the key order.
    pub fn single_request(mut self) -> Self {
        self.single = true;
        self
    }

    /// The rows as a stream of `(key, row)`, decoded as `T`. A row whose key does not decode is
    /// an [`Error::Decode`] item naming the key; the stream goes on after it. A failed request
    /// is an error item and ends that range.
    pub fn stream(self) -> TypedRows<T>
    where
        T: Send + 'static,
    {
        let Read {
            table,
            ranges,
            skip,
            limit,
            reverse,
            after,
            single,
            filter,
            _key,
        } = self;
        let skip = if single { 0 } else { skip };
        let row_ranges: Vec<(ScanRange, RowRange)> = ranges
            .into_iter()
            .filter_map(|r| {
                let rr = clip(&r, after.as_deref(), skip, reverse)?;
                Some((r, rr))
            })
            .collect();
        if row_ranges.is_empty() {
            // An empty RowSet means "the whole table" to Bigtable: never send one.
            return Box::pin(futures_util::stream::empty());
        }
        let request = |rows: Vec<RowRange>| ReadRowsRequest {
            table_name: table.name().to_owned(),
            app_profile_id: table.app_profile().to_owned(),
            rows: Some(RowSet {
                row_keys: vec![],
                row_ranges: rows,
            }),
            filter: filter.clone(),
            rows_limit: limit.map_or(0, |n| i64::try_from(n).unwrap_or(i64::MAX)),
            request_stats_view: RequestStatsView::RequestStatsNone as i32,
            reversed: reverse,
            ..ReadRowsRequest::default()
        };
        let streams: Vec<RowStream> = if single {
            vec![lazy(
                table.clone(),
                request(row_ranges.into_iter().map(|(_, rr)| rr).collect()),
            )]
        } else {
            row_ranges
                .into_iter()
                .map(|(_, rr)| lazy(table.clone(), request(vec![rr])))
                .collect()
        };
        let merged = if reverse {
            merge_descending(streams, skip)
        } else {
            merge_ascending(streams, skip)
        };
        // The server clipped each range already; this keeps "after" exact for ranges whose
        // start does not carry the salt (and costs one comparison per row).
        let merged = match after {
            Some(after) => Box::pin(merged.try_filter(move |row| {
                let key = row.0.get(skip..).unwrap_or_default();
                let mark = after.get(skip..).unwrap_or_default();
                futures_util::future::ready(if reverse { key < mark } else { key > mark })
            })) as RowStream,
            None => merged,
        };
        let limited: RowStream = match limit {
            Some(n) => Box::pin(merged.take(usize::try_from(n).unwrap_or(usize::MAX))),
            None => merged,
        };
        Box::pin(limited.map(|item| {
            let (key, cells) = item?;
            match T::from_row_key(&key) {
                Ok(k) => Ok((k, Row { key, cells })),
                Err(source) => Err(Error::Decode {
                    layout: T::LAYOUT.name,
                    key,
                    source,
                }),
            }
        }))
    }

    /// All rows, or the first error.
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](Read::stream).
    pub async fn collect(self) -> Result<Vec<(T, Row)>, Error>
    where
        T: Send + 'static,
    {
        self.stream().try_collect().await
    }

    /// The keys only (cells are still transferred; add a [`filter`](Read::filter) such as
    /// `StripValueTransformer` to avoid that).
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](Read::stream).
    pub async fn keys(self) -> Result<Vec<T>, Error>
    where
        T: Send + 'static,
    {
        self.stream().map_ok(|(k, _)| k).try_collect().await
    }
}

impl<T> core::fmt::Debug for Read<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Read")
            .field("table", &self.table.id())
            .field("ranges", &self.ranges)
            .field("skip", &self.skip)
            .field("limit", &self.limit)
            .field("reverse", &self.reverse)
            .field("single_request", &self.single)
            .finish_non_exhaustive()
    }
}

/// A stream that sends its request when first polled (so that every range's request is in
/// flight at once when the merge polls them all).
fn lazy(table: Table, request: ReadRowsRequest) -> RowStream {
    Box::pin(
        futures_util::stream::once(async move { table.read_rows_raw(request).await }).try_flatten(),
    )
}

/// The Bigtable row range for `r`, clipped to the rows after (forward) or before (reverse)
/// `after`; `None` when nothing is left.
///
/// Within one salt bucket a key is `salt ++ logical`, so "logical key after `after`'s logical
/// key" is "key after `salt ++ after[skip..]`", with the bucket's salt taken from the range's
/// start row.
fn clip(r: &ScanRange, after: Option<&[u8]>, skip: usize, reverse: bool) -> Option<RowRange> {
    let start = r.start().to_vec();
    let stop = r.stop().map(<[u8]>::to_vec);
    let mut start_key =
        (!start.is_empty()).then(|| row_range::StartKey::StartKeyClosed(start.clone()));
    let mut end_key = stop.clone().map(row_range::EndKey::EndKeyOpen);
    if let Some(after) = after {
        let mark = match (start.get(..skip), after.get(skip..)) {
            (Some(salt), Some(logical)) => [salt, logical].concat(),
            // A range start shorter than the salt: leave the range whole (the merged stream
            // filters exactly).
            _ => return Some(RowRange { start_key, end_key }),
        };
        if reverse {
            if mark <= start {
                return None;
            }
            if stop.as_ref().is_none_or(|s| mark < *s) {
                end_key = Some(row_range::EndKey::EndKeyOpen(mark));
            }
        } else {
            if stop.as_ref().is_some_and(|s| mark >= *s) {
                return None;
            }
            if mark >= start {
                start_key = Some(row_range::StartKey::StartKeyOpen(mark));
            }
        }
    }
    Some(RowRange { start_key, end_key })
}

#[cfg(test)]
mod tests {
    use super::*;
    use row_range::{EndKey, StartKey};

    #[test]
    fn clip_forward_and_reverse() {
        let r = ScanRange::new(b"\x03a", Some(b"\x03z"));
        let fwd = clip(&r, Some(b"\x07m"), 1, false).unwrap_or_default();
        assert_eq!(
            fwd.start_key,
            Some(StartKey::StartKeyOpen(b"\x03m".to_vec()))
        );
        assert_eq!(fwd.end_key, Some(EndKey::EndKeyOpen(b"\x03z".to_vec())));
        let rev = clip(&r, Some(b"\x07m"), 1, true).unwrap_or_default();
        assert_eq!(
            rev.start_key,
            Some(StartKey::StartKeyClosed(b"\x03a".to_vec()))
        );
        assert_eq!(rev.end_key, Some(EndKey::EndKeyOpen(b"\x03m".to_vec())));
        assert!(clip(&r, Some(b"\x07z"), 1, false).is_none());
        assert!(clip(&r, Some(b"\x07a"), 1, true).is_none());
        // before the range: forward keeps it whole
        let whole = clip(&r, Some(b"\x07"), 1, false).unwrap_or_default();
        assert_eq!(
            whole.start_key,
            Some(StartKey::StartKeyClosed(b"\x03a".to_vec()))
        );
        // no upper bound
        let open = ScanRange::new(b"\xFF\xFF", None);
        let rev = clip(&open, Some(b"\xFF\xFF\x05"), 0, true).unwrap_or_default();
        assert_eq!(
            rev.end_key,
            Some(EndKey::EndKeyOpen(b"\xFF\xFF\x05".to_vec()))
        );
        assert_eq!(
            clip(&open, None, 0, false).unwrap_or_default().end_key,
            None
        );
    }
}
