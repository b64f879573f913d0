//! Retiring the source: deleting the old rows, only with the proof of verification.

use std::time::Instant;

use crate::{DecodeRowKeyOwned, RowKey};

use super::checkpoint::{Checkpoint, Phase};
use super::error::MigrateError;
use super::migration::Migration;
use super::report::{Progress, Summary, Verified};
use crate::store::{Store, Table, Write};

impl<S, A, B, F> Migration<S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    /// Delete the source rows (one table: the old-layout rows, fixed points stay as they are
    /// the new rows), batched and resumable like the copy. Needs the proof that
    /// [`verify`](Self::verify) passed. See [`retire_batches`](Self::retire_batches).
    pub fn retire_source(
        &self,
        verified: &Verified,
        progress: impl FnMut(&Progress),
    ) -> Result<Summary, MigrateError<S::Error>> {
        self.retire_batches(verified, usize::MAX, progress)
    }

    /// [`retire_source`](Self::retire_source), at most `max_batches` batches.
    pub fn retire_batches(
        &self,
        _verified: &Verified,
        max_batches: usize,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Summary, MigrateError<S::Error>> {
        let started = Instant::now();
        let mut cp = self.checkpoint()?.unwrap_or_else(Checkpoint::start);
        if cp.phase == Phase::Copy {
            cp = Checkpoint {
                phase: Phase::Retire,
                copied: cp.copied,
                retired: 0,
                last_key: None,
            };
        }
        let mut summary = Summary {
            phase: Phase::Retire,
            complete: false,
            batches: 0,
            rows_this_run: 0,
            rows: cp.retired,
        };
        while (summary.batches as usize) < max_batches {
            let mut deletes: Vec<Vec<u8>> = Vec::new();
            let mut read = 0usize;
            let mut last = None;
            let mut expect = Vec::new();
            for m in self.source_rows(cp.last_key.as_deref(), Some(self.batch)) {
                let m = m?;
                read += 1;
                if !self.in_place(&m)? {
                    deletes.push(m.source_key.to_vec());
                    expect.push((m.new_key.to_vec(), m.value));
                }
                last = Some(m.source_key);
            }
            let Some(last) = last else {
                summary.complete = true;
                break;
            };
            // Never delete a row whose new row is not stored with the same value (a row written
            // to the old layout after verification, say).
            let keys: Vec<Vec<u8>> = expect.iter().map(|(k, _)| k.clone()).collect();
            let found = self
                .store
                .get(&Table::Destination, &keys)
                .map_err(MigrateError::Store)?;
            for ((source_key, (new_key, value)), got) in deletes.iter().zip(&expect).zip(found) {
                if got.as_ref() != Some(value) {
                    return Err(MigrateError::NotCopied {
                        source_key: source_key.clone(),
                        destination_key: new_key.clone(),
                        found: got.is_some(),
                    });
                }
            }
            let retired = deletes.len() as u64;
            cp.retired += retired;
            cp.last_key = Some(last.to_vec());
            let deletes = deletes
                .into_iter()
                .map(|key| Write::Delete {
                    table: Table::Base,
                    key,
                })
                .collect();
            self.store
                .apply(&[deletes], Some((&self.name, &cp.encode())))
                .map_err(MigrateError::Store)?;
            summary.batches += 1;
            summary.rows_this_run += retired;
            summary.rows = cp.retired;
            progress(&Progress {
                phase: Phase::Retire,
                batches: summary.batches,
                rows: cp.retired,
                rows_this_run: summary.rows_this_run,
                elapsed: started.elapsed(),
                total: self.total,
            });
            if read < self.batch {
                summary.complete = true;
                break;
            }
        }
        Ok(summary)
    }
}
