//! [`StructKey`]: what `#[derive(RowKey)]` with `#[rowkey(bigtable(..))]` knows of the Bigtable
//! row key schema whose keys the type writes.

use super::schema::{StructSchema, Value};

/// A key type derived with `#[rowkey(bigtable(ordered_code))]`, `bigtable(delimited = b"..")`
/// or `bigtable(singleton)`: its keys are Bigtable `Type.Struct` keys, byte for byte as
/// [`StructSchema::encode`] writes them for [`row_key_schema`](Self::row_key_schema).
///
/// ```
/// use rowkey::struct_key::{Field, FieldType, Int64Encoding, Micros, StructEncoding, StructKey};
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(bigtable(ordered_code))]
/// struct Click {
///     user: String,
///     at: Micros,
/// }
///
/// let schema = Click::row_key_schema();
/// assert_eq!(schema.encoding(), &StructEncoding::OrderedCodeBytes);
/// assert_eq!(schema.fields()[1], Field::new("at", FieldType::Timestamp(Int64Encoding::OrderedCodeBytes)));
/// let click = Click { user: "al".into(), at: Micros(256) };
/// let key = click.to_row_key()?;
/// assert_eq!(&key[..], b"al\x00\x01\xC1\x00\xFF");
/// assert_eq!(schema.encode(&click.struct_values())?, &key[..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait StructKey: crate::RowKey {
    /// The table's row key schema (`Table.row_key_schema`): the fields in key order, named as
    /// the struct's fields, and the struct encoding.
    fn row_key_schema() -> StructSchema;

    /// The key's values, one per field in order (what [`StructSchema::encode`] takes).
    fn struct_values(&self) -> Vec<Value>;
}
