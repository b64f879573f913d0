//! The dual read: both layouts merged in `B`'s logical order, each record once.

use bytes::Bytes;

use crate::read::{Read, Rows};
use crate::scan::ScanRanges;
use crate::{DecodeRowKeyOwned, RowKey};

use super::error::MigrateError;
use super::migration::Migration;
use super::pager::{all_ranges, Pager};
use super::side::Side;
use crate::store::Store;

impl<S, A, B, F> Migration<S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    /// A logical read of every record over both layouts: see [`dual_read`](Self::dual_read).
    pub fn dual_read_all(&self) -> DualRead<'_, S, A, B, F> {
        self.dual_read(all_ranges(B::LAYOUT), all_ranges(A::LAYOUT))
    }

    /// A logical read over both layouts while the migration runs: the destination rows in
    /// `new_ranges` (a `B` scan, e.g. `B::scan().metric(m).ranges()`) merged with the source
    /// rows in `old_ranges` (the same query in `A`'s terms, or anything wider) whose `B` key
    /// falls in `new_ranges`; in `B`'s logical order, each record once, the destination row
    /// winning when both exist. Lazy: rows are fetched page by page (`take(n)` for a page).
    ///
    /// # Errors (per item)
    ///
    /// Store, decode and encode errors, and [`MigrateError::NotOrderPreserving`] when the
    /// mapping does not keep order (see the [module docs](super)).
    pub fn dual_read(
        &self,
        new_ranges: ScanRanges,
        old_ranges: ScanRanges,
    ) -> DualRead<'_, S, A, B, F> {
        self.dual_read_from(new_ranges, old_ranges, None)
    }

    /// The next page of a [`dual_read`](Self::dual_read): the records strictly after `after`
    /// (the last record of the previous page) in `B`'s logical order. `old_of` gives the old
    /// key of a new one (the inverse of the mapping, e.g. `|b| A::from(b.clone())`), so that
    /// the old layout's scan starts there too instead of from its beginning.
    ///
    /// # Errors
    ///
    /// `after` or its old key does not encode.
    pub fn dual_read_after(
        &self,
        new_ranges: ScanRanges,
        old_ranges: ScanRanges,
        after: &B,
        old_of: impl FnOnce(&B) -> A,
    ) -> Result<DualRead<'_, S, A, B, F>, MigrateError<S::Error>> {
        let new_key = after.to_row_key();
        let old = old_of(after);
        let old_key = old.to_row_key();
        let (new_key, old_key) = match (new_key, old_key) {
            (Ok(n), Ok(o)) => (n, o),
            (Err(error), Ok(o)) => {
                return Err(MigrateError::Encode {
                    source_key: o.to_vec(),
                    error,
                })
            }
            (_, Err(error)) => {
                return Err(MigrateError::Encode {
                    source_key: Vec::new(),
                    error,
                })
            }
        };
        Ok(self.dual_read_from(new_ranges, old_ranges, Some((new_key, old_key))))
    }

    pub(super) fn dual_read_from(
        &self,
        new_ranges: ScanRanges,
        old_ranges: ScanRanges,
        after: Option<(Bytes, Bytes)>,
    ) -> DualRead<'_, S, A, B, F> {
        let page = self.batch.clamp(1, 256);
        let mut read_b = Read::<B>::new(new_ranges);
        let mut read_a = Read::<A>::new(old_ranges);
        let mut floor = None;
        if let Some((new_key, old_key)) = after {
            read_b = read_b.after_key(&new_key);
            read_a = read_a.after_key(&old_key);
            floor = Some(new_key);
        }
        let skip_b = self.skip_for(Side::Destination);
        let skip_a = self.skip_for(Side::Source);
        let b = read_b.try_rows(
            read_b
                .ranges()
                .iter()
                .map(|r| Pager::new(&self.store, Side::Destination, r, page, skip_b))
                .collect::<Vec<_>>(),
        );
        let a = read_a.try_rows(
            read_a
                .ranges()
                .iter()
                .map(|r| Pager::new(&self.store, Side::Source, r, page, skip_a))
                .collect::<Vec<_>>(),
        );
        DualRead {
            m: self,
            b,
            a,
            filter: read_b.ranges().clone(),
            head_b: None,
            head_a: None,
            last_a: None,
            floor,
            failed: false,
        }
    }
}

/// A record of a dual read.
#[derive(Debug, Clone, PartialEq)]
pub struct DualRow<B> {
    /// The record's key in the new layout.
    pub key: B,
    /// The value.
    pub value: Vec<u8>,
    /// Where it was read: the destination when both layouts hold it.
    pub from: Side,
}

pub(super) type Typed<'s, S, T> = Rows<T, Pager<'s, S>>;
pub(super) type Head<B, E> = Option<Result<(B, Bytes, Vec<u8>), MigrateError<E>>>;

/// The rows of [`Migration::dual_read`].
pub struct DualRead<'s, S: Store, A, B, F> {
    pub(super) m: &'s Migration<S, A, B, F>,
    pub(super) b: Typed<'s, S, B>,
    pub(super) a: Typed<'s, S, A>,
    pub(super) filter: ScanRanges,
    pub(super) head_b: Head<B, S::Error>,
    pub(super) head_a: Head<B, S::Error>,
    pub(super) last_a: Option<Bytes>,
    /// A resumed read: nothing at or before this new key.
    pub(super) floor: Option<Bytes>,
    pub(super) failed: bool,
}

impl<S, A, B, F> DualRead<'_, S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    pub(super) fn fill_b(&mut self) {
        if self.head_b.is_none() {
            self.head_b = self.b.next().map(|row| match row {
                Ok((key, (raw, value))) => Ok((key, raw, value)),
                Err(e) => Err(MigrateError::from_read(Side::Destination, e)),
            });
        }
    }

    pub(super) fn fill_a(&mut self) {
        let skip = B::LAYOUT.salt_end();
        while self.head_a.is_none() {
            let Some(row) = self.a.next() else { return };
            let (a, (raw, value)) = match row {
                Ok(r) => r,
                Err(e) => {
                    self.head_a = Some(Err(MigrateError::from_read(Side::Source, e)));
                    return;
                }
            };
            let key = (self.m.map)(a);
            let new_key = match key.to_row_key() {
                Ok(k) => k,
                Err(error) => {
                    self.head_a = Some(Err(MigrateError::Encode {
                        source_key: raw.to_vec(),
                        error,
                    }));
                    return;
                }
            };
            if !self.filter.contains(&new_key) {
                continue;
            }
            if let Some(floor) = &self.floor {
                if new_key.get(skip..) <= floor.get(skip..) {
                    continue;
                }
            }
            if let Some(prev) = &self.last_a {
                let (p, n) = (prev.get(skip..), new_key.get(skip..));
                if n < p {
                    self.head_a = Some(Err(MigrateError::NotOrderPreserving {
                        previous: prev.to_vec(),
                        next: new_key.to_vec(),
                    }));
                    return;
                }
                if n == p {
                    // two source rows with one new key: verification reports it
                    continue;
                }
            }
            self.last_a = Some(new_key.clone());
            self.head_a = Some(Ok((key, new_key, value)));
        }
    }
}

impl<S, A, B, F> Iterator for DualRead<'_, S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    type Item = Result<DualRow<B>, MigrateError<S::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.fill_b();
        self.fill_a();
        let skip = B::LAYOUT.salt_end();
        let (take_b, drop_a) = match (&self.head_b, &self.head_a) {
            (None, None) => return None,
            (Some(Err(_)), _) => (true, false),
            (_, Some(Err(_))) => (false, false),
            (Some(Ok(_)), None) => (true, false),
            (None, Some(Ok(_))) => (false, false),
            (Some(Ok((_, kb, _))), Some(Ok((_, ka, _)))) => {
                let (lb, la) = (kb.get(skip..), ka.get(skip..));
                // both layouts hold the record: the destination wins
                (lb <= la, lb == la)
            }
        };
        if drop_a {
            self.head_a = None;
        }
        let head = if take_b {
            self.head_b.take()
        } else {
            self.head_a.take()
        };
        let from = if take_b {
            Side::Destination
        } else {
            Side::Source
        };
        match head? {
            Ok((key, _, value)) => Some(Ok(DualRow { key, value, from })),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}
