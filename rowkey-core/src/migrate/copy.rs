//! The copy phase: batches of mapped rows, each written with its checkpoint.

use std::time::Instant;

use crate::{DecodeRowKeyOwned, RowKey};

use super::checkpoint::{Checkpoint, Phase};
use super::error::MigrateError;
use super::migration::Migration;
use super::report::{Progress, Summary};
use super::side::Side;
use crate::store::{Store, Table, Write};

impl<S, A, B, F> Migration<S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    /// Copy everything that is left, then return. See [`run_batches`](Self::run_batches).
    pub fn run(&self, progress: impl FnMut(&Progress)) -> Result<Summary, MigrateError<S::Error>> {
        self.run_batches(usize::MAX, progress)
    }

    /// Copy at most `max_batches` batches from the checkpoint on, calling `progress` after
    /// each. Each batch's rows and the checkpoint after its last source key are written with
    /// [`Store::apply`](crate::store::Store::apply). Returns whether the copy is complete; call again to continue (in this
    /// process or another).
    ///
    /// In one table, the first run (no checkpoint yet) first checks every source row for
    /// ambiguity (a scan of the source, like the dry run's), so a refused migration writes
    /// nothing at all.
    ///
    /// # Errors
    ///
    /// A store error, a source key that does not decode as `A`, a mapped key that does not
    /// encode, or (one table) an ambiguous row: nothing of the failing batch is written.
    pub fn run_batches(
        &self,
        max_batches: usize,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Summary, MigrateError<S::Error>> {
        let started = Instant::now();
        let saved = self.checkpoint()?;
        if saved.is_none() && self.store.same_table() {
            // One table, first run: every row must be unambiguous before anything is written.
            self.scan_side(Side::Source, |k, _| {
                self.in_place(&self.map_key(k)?).map(drop)
            })?;
        }
        let mut cp = saved.unwrap_or_else(Checkpoint::start);
        let mut summary = Summary {
            phase: Phase::Copy,
            complete: false,
            batches: 0,
            rows_this_run: 0,
            rows: cp.copied,
        };
        if cp.phase == Phase::Retire {
            summary.complete = true;
            return Ok(summary);
        }
        while (summary.batches as usize) < max_batches {
            let mut puts = Vec::new();
            let mut read = 0usize;
            let mut last = None;
            for m in self.source_rows(cp.last_key.as_deref(), Some(self.batch)) {
                let m = m?;
                read += 1;
                if !self.in_place(&m)? {
                    puts.push(Write::Put {
                        table: Table::Destination,
                        key: m.new_key.to_vec(),
                        value: m.value,
                    });
                }
                last = Some(m.source_key);
            }
            let Some(last) = last else {
                summary.complete = true;
                break;
            };
            cp.copied += read as u64;
            cp.last_key = Some(last.to_vec());
            self.store
                .apply(&[puts], Some((&self.name, &cp.encode())))
                .map_err(MigrateError::Store)?;
            summary.batches += 1;
            summary.rows_this_run += read as u64;
            summary.rows = cp.copied;
            progress(&Progress {
                phase: Phase::Copy,
                batches: summary.batches,
                rows: cp.copied,
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

    /// Count the source rows (a full scan).
    pub fn count_source(&self) -> Result<u64, MigrateError<S::Error>> {
        let mut n = 0;
        self.scan_side(Side::Source, |_, _| {
            n += 1;
            Ok(())
        })?;
        Ok(n)
    }
}
