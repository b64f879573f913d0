//! Bigtable structured row keys: the `Type.Struct` encodings of a table's row key schema
//! (`Table.row_key_schema` in the admin API, googleapis `google/bigtable/admin/v2/types.proto`),
//! byte for byte.
//!
//! A [`StructSchema`] describes the key's fields (name and [`FieldType`]) and the
//! [`StructEncoding`] that joins them; [`StructSchema::encode`] turns a list of [`Value`]s into
//! the key and [`StructSchema::decode`] validates a key and gives the values back. Errors name
//! the field and, for decoding, the byte offset; no input panics. The decoder accepts exactly
//! what the encoder writes (every key that decodes re-encodes to the same bytes).
//!
//! # Byte rules
//!
//! | type / encoding | bytes | sorted |
//! | --- | --- | --- |
//! | `Int64` `BigEndianBytes` | 8-byte big-endian two's complement | non-negative values only |
//! | `Int64` `OrderedCodeBytes` | Google's orderedcode signed varint, 1 to 10 bytes: `0`→`80`, `-1`→`7F`, `63`→`BF`, `64`→`C0 40`, `256`→`C1 00`, `-65`→`3F BF`, `i64::MAX`→`FF C0 7F FF FF FF FF FF FF FF`, `i64::MIN`→`00 3F 80 00 00 00 00 00 00 00` | yes |
//! | `String` `Utf8Bytes` | the UTF-8 bytes | yes (code point order) |
//! | `Bytes` `Raw` | the bytes as they are | yes |
//! | `Timestamp` | unix microseconds, in the given `Int64` encoding | as the `Int64` encoding |
//! | Struct `Singleton` | the one field's own encoding | as the field |
//! | Struct `DelimitedBytes{d}` | the fields' encodings joined by `d`; no fields: `d` alone; a field whose encoding contains `d[0]` is refused | if every field byte is above `d[0]` |
//! | Struct `OrderedCodeBytes` | each field's encoding with `00` → `00 FF` (`FF` is not escaped), an empty field as `00 00`, joined by `00 01`; trailing empty fields are dropped; all fields empty (or none): `00 00` | yes |
//!
//! [`StructSchema::lint`] (and [`lint`] over the parts) lists what the admin API would refuse
//! in a schema and what it accepts but cannot keep sorted; [`StructSchema::lint_values`] does
//! the same for values. The rules and where the API reference states them are in [`lint`];
//! what each finding means for a table: [the guide's chapter on struct
//! keys](https://docs.rs/rowkey/latest/rowkey/guide/struct_keys/index.html).
//!
//! Byte-identical with Google's own code where Google publishes one: `rowkey-core/tests/struct_key.rs`
//! builds and runs a small Go program (`rowkey-core/tests/struct_key_vectors/`, Google's
//! `github.com/google/orderedcode` through the Go module proxy) and compares 20,917 keys across the
//! three struct encodings (≥ 5,000 random keys each, plus the edge cases: empty and trailing empty
//! fields, `00`/`FF` runs, `i64::MIN`/`MAX`); the joining rules, for which Google publishes no code,
//! follow the API reference and are checked against its documented examples
//! (`documented.tsv`). The reference defines no descending (DESC) fields; the data API's
//! `escape_nulls`/`null_escape_char` (NULL values) are not implemented here.
//!
//! # Key types in this format
//!
//! `#[derive(RowKey)]` with `#[rowkey(bigtable(ordered_code))]`, `bigtable(delimited = b"#")`
//! or `bigtable(singleton)` (and `, big_endian` for `BigEndianBytes` Int64/Timestamp fields;
//! `OrderedCodeBytes` otherwise) writes these bytes for a struct of `i64`, `String`, `Vec<u8>`
//! and [`Micros`] fields through the field codecs [`Ordered`], [`Delimited`] and
//! [`Singleton`], so typed scans, split points and the key tool work on them;
//! [`StructKey::row_key_schema`] is the schema. What the mode refuses and which ranges it
//! offers: [`StructKey`] and [the guide's chapter on struct
//! keys](https://docs.rs/rowkey/latest/rowkey/guide/struct_keys/index.html).
//!
//! # Examples
//!
//! ```
//! use rowkey::struct_key::{Field, FieldType, Int64Encoding, StructEncoding, StructSchema, Value};
//!
//! let schema = StructSchema::new(
//!     vec![
//!         Field::new("user", FieldType::String),
//!         Field::new("ts", FieldType::Timestamp(Int64Encoding::OrderedCodeBytes)),
//!         Field::new("tag", FieldType::Bytes),
//!     ],
//!     StructEncoding::OrderedCodeBytes,
//! )?;
//! let values = vec![Value::String("al".into()), Value::Timestamp(256), Value::Bytes(vec![])];
//! let key = schema.encode(&values)?;
//! // "al", 00 01, 256 as C1 00 with its 00 escaped, and the trailing empty field dropped
//! assert_eq!(key, b"al\x00\x01\xC1\x00\xFF");
//! assert_eq!(schema.decode(&key)?, values);
//!
//! let err = schema.decode(b"al\x00\x01\xC1").unwrap_err();
//! assert_eq!((err.field(), err.offset()), ("ts", 5));
//!
//! let delimited = StructSchema::new(
//!     vec![Field::new("a", FieldType::String), Field::new("b", FieldType::String)],
//!     StructEncoding::DelimitedBytes(b"#".to_vec()),
//! )?;
//! let values = [Value::String("x".into()), Value::String("y".into())];
//! assert_eq!(delimited.encode(&values)?, b"x#y");
//! let err = delimited.encode(&[Value::String("x#".into()), Value::String("y".into())]).unwrap_err();
//! assert_eq!(err.field(), "a");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod codec;
mod finding;
mod format;
mod key;
mod renamed;
mod schema;
#[cfg(test)]
mod tests;

pub use codec::{
    Delimited, Micros, Ordered, Singleton, StructDecode, StructDelimiter, StructValue,
};
pub use finding::{SchemaFinding, SchemaFindingKind, SchemaSeverity, RESERVED_NAMES};
pub use format::{decode_ordered_code_i64, encode_ordered_code_i64, Int64Encoding};
pub use key::StructKey;
#[allow(deprecated)]
pub use renamed::{Finding, FindingKind, Severity};
pub use schema::{lint, Field, FieldType, SchemaError, StructEncoding, StructSchema, Value};
