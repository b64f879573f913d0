//! The two sides of a migration and the store tables they live in.

use core::fmt;

use crate::store::Table;

/// Which side of a migration: the source (layout `A`, the store's [`Table::Base`]) or the
/// destination (layout `B`, [`Table::Destination`]). In a one-table migration both name the
/// same table.
///
/// ```
/// use rowkey::migrate::Side;
/// use rowkey::store::Table;
///
/// assert_eq!(Side::Destination.table(), Table::Destination);
/// assert_eq!(Side::Source.to_string(), "source");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Where the `A` rows are.
    Source,
    /// Where the `B` rows go.
    Destination,
}

impl Side {
    /// The store table of this side.
    pub fn table(self) -> Table {
        match self {
            Side::Source => Table::Base,
            Side::Destination => Table::Destination,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Source => "source",
            Side::Destination => "destination",
        })
    }
}
