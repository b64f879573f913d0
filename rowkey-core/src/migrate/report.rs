//! What a migration reports: progress after every batch, the summary of a run, and the
//! verification report (with the proof a passing one gives).

use core::fmt;
use std::time::Duration;

use super::checkpoint::Phase;

/// Where a run stands, passed to the progress callback after every batch.
#[derive(Debug, Clone)]
pub struct Progress {
    /// The phase running.
    pub phase: Phase,
    /// Batches written by this run.
    pub batches: u64,
    /// Rows done in this phase, earlier runs included.
    pub rows: u64,
    /// Rows done by this run.
    pub rows_this_run: u64,
    /// Time since this run started.
    pub elapsed: Duration,
    /// The expected number of source rows, when known ([`Migration::expect_rows`](super::Migration::expect_rows)).
    pub total: Option<u64>,
}

impl Progress {
    /// Rows per second in this run.
    pub fn rows_per_sec(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.rows_this_run as f64 / s
        } else {
            0.0
        }
    }

    /// Estimated time to finish the phase, when the total is known and rows are moving.
    pub fn eta(&self) -> Option<Duration> {
        let total = self.total?;
        let rate = self.rows_per_sec();
        if rate <= 0.0 {
            return None;
        }
        let left = total.saturating_sub(self.rows) as f64;
        Some(Duration::from_secs_f64(left / rate))
    }
}

impl fmt::Display for Progress {
    /// `copy: 12000 of 100000 rows (12.0%), 45210 rows/s, ETA 1.9 s`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ", self.phase, self.rows)?;
        if let Some(total) = self.total.filter(|&t| t > 0) {
            write!(
                f,
                "of {total} rows ({:.1}%)",
                self.rows as f64 * 100.0 / total as f64
            )?;
        } else {
            f.write_str("rows")?;
        }
        write!(f, ", {:.0} rows/s", self.rows_per_sec())?;
        if let Some(eta) = self.eta() {
            write!(f, ", ETA {:.1} s", eta.as_secs_f64())?;
        }
        Ok(())
    }
}

/// The result of [`Migration::run`](super::Migration::run), [`run_batches`](super::Migration::run_batches) or
/// [`retire_source`](super::Migration::retire_source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The phase run.
    pub phase: Phase,
    /// Whether the phase is finished (false: stopped at the batch limit).
    pub complete: bool,
    /// Batches written by this run.
    pub batches: u64,
    /// Rows done by this run.
    pub rows_this_run: u64,
    /// Rows done in the phase, earlier runs included.
    pub rows: u64,
}

/// Row count and order-independent checksum of the logical records on both sides: each source
/// row as its `B` key and value, each destination row as stored. The checksum is the wrapping
/// sum of the 128-bit MD5 of every record (`len(key)` as u64 big-endian, key, value), so it
/// counts duplicates and does not depend on scan order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyReport {
    /// Source rows.
    pub source_rows: u64,
    /// Destination rows.
    pub destination_rows: u64,
    /// Checksum of the source rows' logical records.
    pub source_checksum: u128,
    /// Checksum of the destination rows.
    pub destination_checksum: u128,
}

impl VerifyReport {
    /// Counts and checksums both equal.
    pub fn is_match(&self) -> bool {
        self.source_rows == self.destination_rows
            && self.source_checksum == self.destination_checksum
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "source {} rows, checksum {:032x}; destination {} rows, checksum {:032x}: {}",
            self.source_rows,
            self.source_checksum,
            self.destination_rows,
            self.destination_checksum,
            if self.is_match() { "match" } else { "MISMATCH" }
        )
    }
}

/// Proof that [`Migration::verify`](super::Migration::verify) passed: needed to retire the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified(pub(super) VerifyReport);

impl Verified {
    /// The matching report.
    pub fn report(&self) -> &VerifyReport {
        &self.0
    }
}
