//! Cells (HBase's `KeyValue`) and HBase's order of them (`CellComparatorImpl`).

use std::cmp::Ordering;

/// HBase's longest row (`HConstants.MAX_ROW_LENGTH`, `Short.MAX_VALUE`).
///
/// ```
/// assert_eq!(rowkey_hfile::MAX_ROW_LENGTH, 32_767);
/// ```
pub const MAX_ROW_LENGTH: usize = i16::MAX as usize;
/// HBase's longest family name (a `KeyValue` stores its length in one signed byte).
///
/// ```
/// assert_eq!(rowkey_hfile::MAX_FAMILY_LENGTH, 127);
/// ```
pub const MAX_FAMILY_LENGTH: usize = i8::MAX as usize;
/// HBase's `HConstants.LATEST_TIMESTAMP` (`Long.MAX_VALUE`): a valid cell timestamp too.
///
/// ```
/// let c = rowkey_hfile::Cell::put(b"r", b"f", b"q", rowkey_hfile::LATEST_TIMESTAMP, b"");
/// assert_eq!(c.timestamp, i64::MAX);
/// ```
pub const LATEST_TIMESTAMP: i64 = i64::MAX;

/// The type of a cell (HBase's `KeyValue.Type`), with HBase's codes. Among cells of the same
/// row, family, qualifier and timestamp HBase orders the higher code first.
///
/// ```
/// use rowkey_hfile::CellType;
///
/// assert_eq!(CellType::Put.code(), 4);
/// assert_eq!(CellType::from_code(14), Some(CellType::DeleteFamily));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CellType {
    /// A value (`Put`, code 4).
    Put = 4,
    /// Deletes one version of a column (`Delete`, code 8).
    Delete = 8,
    /// Deletes one version of every column of a family (`DeleteFamilyVersion`, code 10).
    DeleteFamilyVersion = 10,
    /// Deletes the versions of a column up to the timestamp (`DeleteColumn`, code 12).
    DeleteColumn = 12,
    /// Deletes every column of a family up to the timestamp (`DeleteFamily`, code 14).
    DeleteFamily = 14,
}

impl CellType {
    /// HBase's code of the type (`KeyValue.Type.getCode()`).
    ///
    /// ```
    /// assert_eq!(rowkey_hfile::CellType::DeleteColumn.code(), 12);
    /// ```
    #[must_use]
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The type of a code, `None` for codes no stored cell has (`Minimum`, `Maximum`).
    ///
    /// ```
    /// use rowkey_hfile::CellType;
    /// assert_eq!(CellType::from_code(8), Some(CellType::Delete));
    /// assert_eq!(CellType::from_code(255), None);
    /// ```
    #[must_use]
    pub fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            4 => Self::Put,
            8 => Self::Delete,
            10 => Self::DeleteFamilyVersion,
            12 => Self::DeleteColumn,
            14 => Self::DeleteFamily,
            _ => return None,
        })
    }
}

/// One cell: row, family, qualifier, timestamp, type and value (tags are always empty).
/// Borrowed, so appending a cell copies its bytes once, into the block.
///
/// ```
/// use rowkey_hfile::{Cell, CellType};
///
/// let c = Cell::put(b"row1", b"f", b"q", 42, b"value");
/// assert_eq!(c.cell_type, CellType::Put);
/// let d = Cell { cell_type: CellType::DeleteColumn, value: b"", ..c };
/// // same column and timestamp: the delete (code 12) sorts before the put (code 4)
/// assert!(d.compare_key(&c).is_lt());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell<'a> {
    /// The row key (1 to 32,767 bytes).
    pub row: &'a [u8],
    /// The column family (1 to 127 bytes; one family per file).
    pub family: &'a [u8],
    /// The column qualifier (may be empty).
    pub qualifier: &'a [u8],
    /// Milliseconds since the epoch by convention; 0 to `i64::MAX`.
    pub timestamp: i64,
    /// Put or one of the deletes.
    pub cell_type: CellType,
    /// The value (may be empty).
    pub value: &'a [u8],
}

impl<'a> Cell<'a> {
    /// A `Put` cell.
    ///
    /// ```
    /// let c = rowkey_hfile::Cell::put(b"r", b"f", b"q", 1, b"v");
    /// assert_eq!(c.row, b"r");
    /// ```
    #[must_use]
    pub fn put(
        row: &'a [u8],
        family: &'a [u8],
        qualifier: &'a [u8],
        timestamp: i64,
        value: &'a [u8],
    ) -> Self {
        Cell {
            row,
            family,
            qualifier,
            timestamp,
            cell_type: CellType::Put,
            value,
        }
    }

    /// The length of the cell's key as a `KeyValue` stores it: row length (2 bytes), row,
    /// family length (1), family, qualifier, timestamp (8), type (1).
    ///
    /// ```
    /// assert_eq!(rowkey_hfile::Cell::put(b"r", b"f", b"q", 1, b"").key_len(), 15);
    /// ```
    #[must_use]
    pub fn key_len(&self) -> usize {
        KEY_INFRASTRUCTURE_SIZE + self.row.len() + self.family.len() + self.qualifier.len()
    }

    /// HBase's order of two cells (`CellComparatorImpl.compare`, ignoring sequence ids): row,
    /// family and qualifier as unsigned bytes, then the newer timestamp first, then the higher
    /// type code first.
    ///
    /// ```
    /// use rowkey_hfile::Cell;
    /// let old = Cell::put(b"r", b"f", b"q", 1, b"");
    /// let new = Cell::put(b"r", b"f", b"q", 2, b"");
    /// assert!(new.compare_key(&old).is_lt());
    /// ```
    #[must_use]
    pub fn compare_key(&self, other: &Cell<'_>) -> Ordering {
        self.parts().cmp_hbase(&other.parts())
    }

    pub(crate) fn parts(&self) -> KeyParts<'a> {
        KeyParts {
            row: self.row,
            family: self.family,
            qualifier: self.qualifier,
            timestamp: self.timestamp,
            type_code: self.cell_type.code(),
        }
    }
}

/// Row length (2) + family length (1) + timestamp (8) + type (1): `KeyValue.KEY_INFRASTRUCTURE_SIZE`.
pub(crate) const KEY_INFRASTRUCTURE_SIZE: usize = 12;

/// A key's fields, from a cell or parsed from a serialized key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyParts<'a> {
    pub row: &'a [u8],
    pub family: &'a [u8],
    pub qualifier: &'a [u8],
    pub timestamp: i64,
    pub type_code: u8,
}

impl<'a> KeyParts<'a> {
    /// `CellComparatorImpl.compare` without the sequence id.
    pub fn cmp_hbase(&self, other: &KeyParts<'_>) -> Ordering {
        self.row
            .cmp(other.row)
            .then_with(|| self.family.cmp(other.family))
            .then_with(|| self.qualifier.cmp(other.qualifier))
            .then_with(|| other.timestamp.cmp(&self.timestamp))
            .then_with(|| other.type_code.cmp(&self.type_code))
    }

    /// Parses a key serialized by [`KeyParts::serialize_into`]; `None` if it is malformed
    /// (never for keys this crate wrote).
    pub fn parse(key: &'a [u8]) -> Option<Self> {
        let row_len = usize::from(u16::from_be_bytes([*key.first()?, *key.get(1)?]));
        let row = key.get(2..2 + row_len)?;
        let fam_len = usize::from(*key.get(2 + row_len)?);
        let fam_start = 3 + row_len;
        let family = key.get(fam_start..fam_start + fam_len)?;
        let tail = key.len().checked_sub(9)?;
        let qualifier = key.get(fam_start + fam_len..tail)?;
        let ts: [u8; 8] = key.get(tail..tail + 8)?.try_into().ok()?;
        Some(KeyParts {
            row,
            family,
            qualifier,
            timestamp: i64::from_be_bytes(ts),
            type_code: key[key.len() - 1],
        })
    }

    /// Appends the key as a `KeyValue` stores it (`KeyValue.writeByteArray`'s key part).
    pub fn serialize_into(&self, out: &mut Vec<u8>) {
        // lengths were checked by the writer: row <= i16::MAX, family <= i8::MAX
        out.extend_from_slice(&(self.row.len() as u16).to_be_bytes());
        out.extend_from_slice(self.row);
        out.push(self.family.len() as u8);
        out.extend_from_slice(self.family);
        out.extend_from_slice(self.qualifier);
        out.extend_from_slice(&self.timestamp.to_be_bytes());
        out.push(self.type_code);
    }
}

/// `KeyValue.Type.Maximum`: the type of the fake "first on row" keys of the block index.
pub(crate) const TYPE_MAXIMUM: u8 = 255;

/// `HFileWriterImpl.getMidpoint`: a key that sorts after `left` and not after `right`, shorter
/// than `right` where it can be (the data block index stores it instead of the block's first
/// key). Both are serialized keys; the result is appended to `out`.
pub(crate) fn midpoint_key(left: &KeyParts<'_>, right: &KeyParts<'_>, out: &mut Vec<u8>) {
    if let Some(mid_row) = minimum_midpoint(left.row, right.row) {
        // PrivateCellUtil.createFirstOnRow(midRow)
        KeyParts {
            row: &mid_row,
            family: b"",
            qualifier: b"",
            timestamp: LATEST_TIMESTAMP,
            type_code: TYPE_MAXIMUM,
        }
        .serialize_into(out);
        return;
    }
    if let Some(mid_family) = minimum_midpoint(left.family, right.family) {
        // PrivateCellUtil.createFirstOnRowFamily(right, midFamily)
        KeyParts {
            row: right.row,
            family: &mid_family,
            qualifier: b"",
            timestamp: LATEST_TIMESTAMP,
            type_code: TYPE_MAXIMUM,
        }
        .serialize_into(out);
        return;
    }
    if let Some(mid_qualifier) = minimum_midpoint(left.qualifier, right.qualifier) {
        // PrivateCellUtil.createFirstOnRowCol(right, midQualifier)
        KeyParts {
            row: right.row,
            family: right.family,
            qualifier: &mid_qualifier,
            timestamp: LATEST_TIMESTAMP,
            type_code: TYPE_MAXIMUM,
        }
        .serialize_into(out);
        return;
    }
    right.serialize_into(out);
}

/// `HFileWriterImpl.getMinimumMidpointArray` for `left <= right` (the writer checked the
/// order): `None` when the two are equal.
fn minimum_midpoint(left: &[u8], right: &[u8]) -> Option<Vec<u8>> {
    let min_len = left.len().min(right.len());
    let diff = left
        .iter()
        .zip(right)
        .position(|(l, r)| l != r)
        .unwrap_or(min_len);
    if diff == min_len {
        if left.len() < right.len() {
            let mut mid = right[..=min_len].to_vec();
            mid[min_len] = 0;
            return Some(mid);
        }
        return None;
    }
    let mut mid = left[..=diff].to_vec();
    mid[diff] = mid[diff].wrapping_add(1);
    Some(mid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_round_trip() {
        let c = Cell::put(b"row", b"fam", b"qual", 77, b"v");
        let mut k = Vec::new();
        c.parts().serialize_into(&mut k);
        assert_eq!(k.len(), c.key_len());
        let p = KeyParts::parse(&k).unwrap();
        assert_eq!(p.row, b"row");
        assert_eq!(p.family, b"fam");
        assert_eq!(p.qualifier, b"qual");
        assert_eq!(p.timestamp, 77);
        assert_eq!(p.type_code, 4);
    }

    #[test]
    fn midpoints_as_hbase_computes_them() {
        assert_eq!(minimum_midpoint(b"abc", b"abe"), Some(b"abd".to_vec()));
        assert_eq!(minimum_midpoint(b"ab", b"abc"), Some(b"ab\x00".to_vec()));
        assert_eq!(minimum_midpoint(b"abc", b"abc"), None);
        assert_eq!(
            minimum_midpoint(b"a\x05zz", b"a\x09"),
            Some(b"a\x06".to_vec())
        );
        let l = Cell::put(b"r", b"f", b"a", 1, b"");
        let r = Cell::put(b"r", b"f", b"c", 1, b"");
        let mut out = Vec::new();
        midpoint_key(&l.parts(), &r.parts(), &mut out);
        let m = KeyParts::parse(&out).unwrap();
        assert_eq!(m.qualifier, b"b");
        assert!(l.parts().cmp_hbase(&m).is_lt() && m.cmp_hbase(&r.parts()).is_lt());
    }
}
