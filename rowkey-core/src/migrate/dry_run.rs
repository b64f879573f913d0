//! The dry run: the new layout's region distribution on the existing keys, nothing written.

use crate::plan::SplitPoints;
use core::fmt;

use bytes::Bytes;

use crate::hotspot::{Analyzer, Report};
use crate::plan::PlanError;
use crate::{DecodeRowKeyOwned, RowKey};

use super::error::MigrateError;
use super::migration::Migration;
use super::side::Side;
use crate::store::Store;

impl<S, A, B, F> Migration<S, A, B, F>
where
    S: Store,
    A: RowKey + DecodeRowKeyOwned,
    B: RowKey + DecodeRowKeyOwned,
    F: Fn(A) -> B,
{
    /// Map every source row to its new key and report the region distribution of both
    /// layouts: `A` over `regions_before` regions and `B` over `regions_after`, split from the
    /// layout ([`SplitPoints::split_points`](crate::plan::SplitPoints::split_points)) or, when that needs a sample, from the keys
    /// themselves. One table: counts the rows that would be ambiguous. Writes nothing.
    pub fn dry_run(
        &self,
        regions_before: usize,
        regions_after: usize,
    ) -> Result<DryRun, MigrateError<S::Error>> {
        let mut old_keys = Vec::new();
        let mut new_keys = Vec::new();
        let mut ambiguous = 0u64;
        let mut first_ambiguous = None;
        self.scan_side(Side::Source, |k, _| {
            let m = self.map_key(k)?;
            if let Err(e) = self.in_place(&m) {
                ambiguous += 1;
                if first_ambiguous.is_none() {
                    first_ambiguous = Some(e.to_string());
                }
            }
            old_keys.push(m.source_key);
            new_keys.push(m.new_key);
            Ok(())
        })?;
        let before = analyze::<A, S::Error>(&old_keys, regions_before, "before")?;
        let after = analyze::<B, S::Error>(&new_keys, regions_after, "after")?;
        Ok(DryRun {
            rows: old_keys.len() as u64,
            before,
            after,
            ambiguous,
            first_ambiguous,
        })
    }
}

pub(super) fn analyze<T: RowKey, E>(
    keys: &[Bytes],
    regions: usize,
    when: &str,
) -> Result<Report, MigrateError<E>> {
    let splits = match T::split_points(regions) {
        Ok(s) => s,
        Err(PlanError::NeedsSample { .. }) => {
            T::split_points_from_sample(keys, regions).map_err(MigrateError::Plan)?
        }
        Err(e) => return Err(MigrateError::Plan(e)),
    };
    let mut a = Analyzer::new(&splits)
        .map_err(MigrateError::Hotspot)?
        .with_name(format!("{when}: {} ({regions} regions)", T::LAYOUT.name));
    for k in keys {
        a.add(k);
    }
    Ok(a.report())
}

/// The result of [`Migration::dry_run`]. `Display` prints both distributions side by side.
#[derive(Debug, Clone)]
pub struct DryRun {
    /// Source rows.
    pub rows: u64,
    /// The current layout's distribution.
    pub before: Report,
    /// The new layout's distribution of the same records.
    pub after: Report,
    /// One table: rows the layouts cannot tell apart (the copy would stop at the first).
    pub ambiguous: u64,
    /// One table: why the first ambiguous row is.
    pub first_ambiguous: Option<String>,
}

impl fmt::Display for DryRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "dry run over {} source rows", self.rows)?;
        f.write_str(&Report::comparison_table(&[&self.before, &self.after]))?;
        writeln!(f, "before: {}", self.before.summary())?;
        writeln!(f, "after:  {}", self.after.summary())?;
        match &self.first_ambiguous {
            Some(why) => writeln!(f, "{} ambiguous rows; first: {why}", self.ambiguous),
            None => Ok(()),
        }
    }
}
