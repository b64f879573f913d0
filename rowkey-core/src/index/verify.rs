//! Index rows checked against the base table: what verified reads and the scrub share.

use core::fmt;

use super::def::{parse, Spec};
use super::error::IndexError;
use super::record::Record;
use super::table::{decode_record, entry_of};
use crate::store::{KeyValue, Store, Table, Write};

/// What is wrong with an index row, or with a record's index rows.
///
/// ```
/// use rowkey::index::Problem;
/// assert_eq!(Problem::Dangling.to_string(), "dangling (its record does not exist)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Problem {
    /// A live record has no index row for its index key. Maintenance never leaves one (see
    /// the [module docs](super)); the scrub finds those an index built late or a foreign
    /// writer left.
    Missing,
    /// The row names a record that does not exist (a delete, or a put that failed before its
    /// base row was written).
    Dangling,
    /// The row names a record whose index key is another one now (an update whose old row
    /// was not deleted yet, or whose new base row was never written).
    Stale,
    /// The row's key is right but its value is not the one the record gives (a covered value
    /// from an update that failed before its base row, or a unique row naming a record that
    /// does not hold the key). Reads return the base table's record.
    Outdated,
    /// Not an index row: its value is not one this module wrote, or its key does not decode
    /// as the index key.
    Invalid,
    /// Two live records hold one unique index key (only a writer that bypassed the unique
    /// check can cause it): reported for each record the key's row does not name. Never
    /// repaired — see [`Scrub::repair`](super::Scrub::repair) for the row that is kept.
    Conflict,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::Missing => "missing (a live record has no index row)",
            Problem::Dangling => "dangling (its record does not exist)",
            Problem::Stale => "stale (its record has another index key now)",
            Problem::Outdated => "outdated (its value is not the record's)",
            Problem::Invalid => "invalid (not an index row of this index)",
            Problem::Conflict => "conflict (two live records hold one unique key)",
        })
    }
}

/// One index row checked against its record.
pub(super) struct Checked<R> {
    /// The row's record when the row leads to it (a good or an outdated row).
    pub(super) record: Option<R>,
    /// What is wrong, if anything.
    pub(super) problem: Option<Problem>,
    /// The write that repairs the row: a delete, or (outdated) the right row.
    pub(super) fix: Option<Write>,
    /// The length of the index key at the start of the row key (when the row parses).
    pub(super) index_key_len: usize,
}

/// Check index rows of `spec` against the base table, with one multi-get.
pub(super) fn check<S: Store, R: Record>(
    store: &S,
    spec: &dyn Spec<R>,
    rows: &[KeyValue],
) -> Result<Vec<Checked<R>>, IndexError<S::Error>> {
    let table = Table::Index(spec.name().to_owned());
    let parsed: Vec<_> = rows
        .iter()
        .map(|(k, v)| parse(spec.kind(), k, v).filter(|p| spec.decodes(p.index_key)))
        .collect();
    let pks: Vec<Vec<u8>> = parsed.iter().flatten().map(|p| p.pk.to_vec()).collect();
    let mut bases = if pks.is_empty() {
        Vec::new()
    } else {
        store.get(&Table::Base, &pks).map_err(IndexError::Store)?
    }
    .into_iter();
    let mut out = Vec::with_capacity(rows.len());
    for ((key, value), p) in rows.iter().zip(parsed) {
        let delete = || {
            Some(Write::Delete {
                table: table.clone(),
                key: key.clone(),
            })
        };
        let bad = |problem| Checked {
            record: None,
            problem: Some(problem),
            fix: delete(),
            index_key_len: 0,
        };
        let Some(p) = p else {
            out.push(bad(Problem::Invalid));
            continue;
        };
        let Some(base) = bases.next().flatten() else {
            out.push(bad(Problem::Dangling));
            continue;
        };
        let record = decode_record::<R, S::Error>(p.pk, &base)?;
        let expected = entry_of::<R, S::Error>(spec, &record, p.pk, &base)?;
        if expected.key != *key {
            out.push(bad(Problem::Stale));
        } else if expected.value != *value {
            out.push(Checked {
                record: Some(record),
                problem: Some(Problem::Outdated),
                fix: Some(Write::Put {
                    table: table.clone(),
                    key: expected.key,
                    value: expected.value,
                }),
                index_key_len: p.index_key.len(),
            });
        } else {
            out.push(Checked {
                record: Some(record),
                problem: None,
                fix: None,
                index_key_len: p.index_key.len(),
            });
        }
    }
    Ok(out)
}
