//! [`Table`] and the rows a read returns ([`Row`], [`RowCell`]).

use std::sync::Arc;

use rowkey::{RowKey, ScanRanges};

use crate::client::Client;
use crate::read::Read;

/// One table. Cheap to clone; clones share the client's connections.
#[derive(Clone, Debug)]
pub struct Table {
    pub(crate) client: Client,
    pub(crate) name: Arc<str>,
}

impl Table {
    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The client it belongs to.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// A typed read of every row of `ranges` (from `T::scan()…ranges()`), in `T`'s logical
    /// order; see [`Read`].
    pub fn read<T: RowKey>(&self, ranges: &ScanRanges) -> Read<T> {
        Read::new(self.clone(), ranges.clone())
    }
}

/// One cell of a row read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowCell {
    /// The column family.
    pub family: Vec<u8>,
    /// The qualifier.
    pub qualifier: Vec<u8>,
    /// The value.
    pub value: Vec<u8>,
    /// The cell's timestamp (milliseconds since the Unix epoch).
    pub timestamp: i64,
}

/// A row read back: its key and cells (the newest version of each column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The row key as stored.
    pub key: Vec<u8>,
    /// The cells, in family/qualifier order.
    pub cells: Vec<RowCell>,
}

impl Row {
    /// The value of column `family:qualifier`, if the row has it.
    ///
    /// ```
    /// use rowkey_hbase::{Row, RowCell};
    ///
    /// let cell = RowCell { family: b"o".to_vec(), qualifier: b"amount".to_vec(), value: b"1999".to_vec(), timestamp: 1 };
    /// let row = Row { key: b"k".to_vec(), cells: vec![cell] };
    /// assert_eq!(row.value("o", b"amount"), Some(&b"1999"[..]));
    /// assert_eq!(row.value("o", b"other"), None);
    /// ```
    pub fn value(&self, family: &str, qualifier: &[u8]) -> Option<&[u8]> {
        self.cells
            .iter()
            .find(|c| c.family == family.as_bytes() && c.qualifier == qualifier)
            .map(|c| c.value.as_slice())
    }
}

impl From<crate::thrift::TResult> for Row {
    fn from(r: crate::thrift::TResult) -> Row {
        Row {
            key: r.row.unwrap_or_default(),
            cells: r
                .column_values
                .into_iter()
                .map(|c| RowCell {
                    family: c.family,
                    qualifier: c.qualifier,
                    value: c.value,
                    timestamp: c.timestamp.unwrap_or_default(),
                })
                .collect(),
        }
    }
}
