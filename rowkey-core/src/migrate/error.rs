//! The errors of a migration.

use core::fmt;

use crate::hotspot::HotspotError;
use crate::plan::PlanError;
use crate::read::ReadError;
use crate::{DecodeError, EncodeError};

use super::report::VerifyReport;
use super::side::Side;

/// An error of a migration.
#[derive(Debug)]
pub enum MigrateError<E> {
    /// The store failed.
    Store(E),
    /// A key in a scanned range does not decode as the side's layout.
    Decode {
        /// Which table.
        side: Side,
        /// The key as stored.
        key: Vec<u8>,
        /// Why (field and offset).
        error: DecodeError,
    },
    /// The mapped key of a source row does not encode.
    Encode {
        /// The source key.
        source_key: Vec<u8>,
        /// Why (field).
        error: EncodeError,
    },
    /// One table only: a row would be read as both layouts (see the [module docs](super)).
    Ambiguous {
        /// The source key.
        source_key: Vec<u8>,
        /// Its `B` key.
        destination_key: Vec<u8>,
        /// Which way it is ambiguous.
        reason: &'static str,
    },
    /// Dual read: the mapping does not keep logical order, so the layouts cannot be merged
    /// as streams.
    NotOrderPreserving {
        /// The `B` key of the previous source row.
        previous: Vec<u8>,
        /// The `B` key that came after it but sorts before it.
        next: Vec<u8>,
    },
    /// Verification found a difference.
    Mismatch(VerifyReport),
    /// Retirement: a source row's new row is missing or holds another value, so the source row
    /// is not deleted (nothing of its batch is).
    NotCopied {
        /// The source key.
        source_key: Vec<u8>,
        /// Its new key.
        destination_key: Vec<u8>,
        /// Whether a row with the new key exists (with another value).
        found: bool,
    },
    /// The checkpoint blob is not one this version wrote.
    Checkpoint(String),
    /// Dry run: no plan for the region count.
    Plan(PlanError),
    /// Dry run: the analyzer refused the split points.
    Hotspot(HotspotError),
}

impl<E: fmt::Display> fmt::Display for MigrateError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bin = crate::hbase::to_string_binary;
        match self {
            MigrateError::Store(e) => write!(f, "migration store error: {e}"),
            MigrateError::Decode { side, key, error } => {
                write!(f, "{side} key {} does not decode: {error}", bin(key))
            }
            MigrateError::Encode { source_key, error } => write!(
                f,
                "source key {} maps to a key that does not encode: {error}",
                bin(source_key)
            ),
            MigrateError::Ambiguous {
                source_key,
                destination_key,
                reason,
            } => write!(
                f,
                "source key {} (new key {}) is ambiguous in a one-table migration: {reason}; \
                 give the new layout a prefix or tag, or migrate to a second table",
                bin(source_key),
                bin(destination_key)
            ),
            MigrateError::NotOrderPreserving { previous, next } => write!(
                f,
                "dual read: the mapping does not keep logical order (new key {} after {}); \
                 a dual read needs an order-preserving mapping",
                bin(next),
                bin(previous)
            ),
            MigrateError::Mismatch(r) => write!(f, "migration verification failed: {r}"),
            MigrateError::NotCopied {
                source_key,
                destination_key,
                found,
            } => write!(
                f,
                "not retiring source key {}: its new row {} {}; copy again (reset, run) and verify",
                bin(source_key),
                bin(destination_key),
                if *found {
                    "holds another value"
                } else {
                    "is missing"
                }
            ),
            MigrateError::Checkpoint(m) => f.write_str(m),
            MigrateError::Plan(e) => write!(f, "dry run: {e}"),
            MigrateError::Hotspot(e) => write!(f, "dry run: {e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for MigrateError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MigrateError::Store(e) => Some(e),
            MigrateError::Decode { error, .. } => Some(error),
            MigrateError::Encode { error, .. } => Some(error),
            MigrateError::Plan(e) => Some(e),
            MigrateError::Hotspot(e) => Some(e),
            _ => None,
        }
    }
}

impl<E> MigrateError<E> {
    pub(super) fn from_read(side: Side, e: ReadError<E>) -> Self {
        match e {
            ReadError::Decode { key, error } => MigrateError::Decode { side, key, error },
            ReadError::Store(e) => MigrateError::Store(e),
        }
    }
}
