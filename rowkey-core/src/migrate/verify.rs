//! Verification: count and order-independent checksum of the logical records on both sides.

use crate::{DecodeRowKeyOwned, RowKey};

use super::error::MigrateError;
use super::migration::Migration;
use super::pager::{all_ranges, Pager};
use super::report::{Verified, VerifyReport};
use super::side::Side;
use crate::store::Store;

pub(super) fn record_hash(key: &[u8], value: &[u8]) -> u128 {
    use md5::{Digest, Md5};
    let mut h = Md5::new();
    h.update((key.len() as u64).to_be_bytes());
    h.update(key);
    h.update(value);
    u128::from_be_bytes(h.finalize().into())
}

impl<S, A, B, F> Migration<S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    /// Every row of one side, range by range (no merge), skipping the other layout's rows in
    /// one table.
    pub(super) fn scan_side(
        &self,
        side: Side,
        mut f: impl FnMut(&[u8], &[u8]) -> Result<(), MigrateError<S::Error>>,
    ) -> Result<(), MigrateError<S::Error>> {
        let layout = match side {
            Side::Source => A::LAYOUT,
            Side::Destination => B::LAYOUT,
        };
        let skip = self.skip_for(side);
        for r in &all_ranges(layout) {
            for row in Pager::new(&self.store, side, r, self.batch, skip) {
                let (k, (_, v)) = row.map_err(MigrateError::Store)?;
                f(&k, &v)?;
            }
        }
        Ok(())
    }

    /// Compare the logical records of both sides: every source row mapped to its `B` key (with
    /// its value) against every destination row, by count and order-independent checksum.
    ///
    /// # Errors
    ///
    /// [`MigrateError::Mismatch`] with the report when they differ; a store, decode, encode or
    /// ambiguity error as in the copy.
    pub fn verify(&self) -> Result<Verified, MigrateError<S::Error>> {
        let mut r = VerifyReport {
            source_rows: 0,
            destination_rows: 0,
            source_checksum: 0,
            destination_checksum: 0,
        };
        self.scan_side(Side::Source, |k, v| {
            let m = self.map_key(k)?;
            self.in_place(&m)?;
            r.source_rows += 1;
            r.source_checksum = r.source_checksum.wrapping_add(record_hash(&m.new_key, v));
            Ok(())
        })?;
        self.scan_side(Side::Destination, |k, v| {
            B::from_row_key(k).map_err(|error| MigrateError::Decode {
                side: Side::Destination,
                key: k.to_vec(),
                error,
            })?;
            r.destination_rows += 1;
            r.destination_checksum = r.destination_checksum.wrapping_add(record_hash(k, v));
            Ok(())
        })?;
        if r.is_match() {
            Ok(Verified(r))
        } else {
            Err(MigrateError::Mismatch(r))
        }
    }
}
