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
//! [`StructSchema::lint`] (and [`lint`] over the parts) lists everything the admin API would
//! refuse in a schema, each finding naming the field — reserved, empty, repeated names, a
//! `Singleton` of other than one field, a bad delimiter — and what it accepts but cannot keep
//! sorted; [`StructSchema::lint_values`] does the same for values (a negative `BigEndianBytes`
//! value is encoded, as two's complement, but does not sort). The rules and where the API
//! reference states them are in [`lint`].
//!
//! The Int64 `OrderedCodeBytes` rule is Google's `github.com/google/orderedcode` (the test
//! vectors are written by it); the Struct rules follow the API reference, whose examples are
//! tested as data. The reference defines no descending (DESC) fields; the data API's
//! `escape_nulls`/`null_escape_char` (NULL values) are not implemented here.
//!
//! # Key types in this format
//!
//! `#[derive(RowKey)]` with `#[rowkey(bigtable(ordered_code))]`, `bigtable(delimited = b"#")`
//! or `bigtable(singleton)` (and `, big_endian` for `BigEndianBytes` Int64/Timestamp fields;
//! `OrderedCodeBytes` otherwise) writes these bytes for a struct of `i64`, `String`, `Vec<u8>`
//! and [`Micros`] fields through the field codecs [`Ordered`], [`Delimited`] and
//! [`Singleton`], so typed scans, split points and the key tool work on them;
//! [`StructKey::row_key_schema`] is the schema. See [`StructKey`] and the README ("Bigtable
//! structured row keys") for what the mode refuses and which ranges it offers.
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

use core::fmt;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

mod codec;
mod finding;
mod key;
#[cfg(test)]
mod tests;

pub use codec::{
    Delimited, Micros, Ordered, Singleton, StructDecode, StructDelimiter, StructValue,
};
pub use finding::{Finding, FindingKind, Severity, RESERVED_NAMES};
pub use key::StructKey;

/// An `Int64` encoding (`Type.Int64.Encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Int64Encoding {
    /// 8-byte big-endian two's complement. Sorts only for non-negative values.
    BigEndianBytes,
    /// Google's orderedcode signed varint (1 to 10 bytes); sorts for all values.
    OrderedCodeBytes,
}

impl Int64Encoding {
    /// Append `value` in this encoding.
    ///
    /// ```
    /// use rowkey::struct_key::Int64Encoding;
    ///
    /// let mut out = Vec::new();
    /// Int64Encoding::OrderedCodeBytes.encode(64, &mut out);
    /// assert_eq!(out, [0xC0, 0x40]);
    /// ```
    pub fn encode(self, value: i64, out: &mut Vec<u8>) {
        match self {
            Self::BigEndianBytes => out.extend_from_slice(&value.to_be_bytes()),
            Self::OrderedCodeBytes => encode_ordered_code_i64(value, out),
        }
    }

    /// Decode a value that fills `bytes` exactly (offsets in errors are into `bytes`).
    pub fn decode(self, bytes: &[u8]) -> Result<i64, DecodeError> {
        match self {
            Self::BigEndianBytes => match <[u8; 8]>::try_from(bytes) {
                Ok(b) => Ok(i64::from_be_bytes(b)),
                Err(_) if bytes.len() < 8 => Err(DecodeError::truncated(
                    bytes.len(),
                    8 - bytes.len(),
                    bytes.len(),
                )),
                Err(_) => Err(DecodeError::new(
                    DecodeErrorKind::TrailingBytes {
                        count: bytes.len() - 8,
                    },
                    8,
                )),
            },
            Self::OrderedCodeBytes => {
                let (value, used) = decode_ordered_code_i64(bytes)?;
                if used < bytes.len() {
                    return Err(DecodeError::new(
                        DecodeErrorKind::TrailingBytes {
                            count: bytes.len() - used,
                        },
                        used,
                    ));
                }
                Ok(value)
            }
        }
    }
}

/// Append `value` as Google's orderedcode signed varint (`Int64.Encoding.OrderedCodeBytes`):
/// for a non-negative value, `n` leading one bits, a zero bit, then the value big-endian, in
/// the fewest bytes `n` (1 to 10) that hold it; a negative value is the bitwise inverse of the
/// encoding of `!value`.
///
/// ```
/// use rowkey::struct_key::encode_ordered_code_i64;
///
/// let enc = |v| { let mut out = Vec::new(); encode_ordered_code_i64(v, &mut out); out };
/// assert_eq!(enc(0), [0x80]);
/// assert_eq!(enc(-1), [0x7F]);
/// assert_eq!(enc(64), [0xC0, 0x40]);
/// assert_eq!(enc(256), [0xC1, 0x00]);
/// assert_eq!(enc(i64::MAX), [0xFF, 0xC0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
/// assert_eq!(enc(i64::MIN), [0x00, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0]);
/// ```
pub fn encode_ordered_code_i64(value: i64, out: &mut Vec<u8>) {
    let neg = value < 0;
    // the magnitude to encode: the value, or its inverse (which is >= 0) for a negative one
    let y = if neg { !value } else { value } as u64;
    let n = ordered_code_len(y);
    // n leading one bits over the 8n-bit number, then the value (which leaves the bit after
    // them zero: it fits in 7n - 1 bits)
    let bits = 8 * n as u32;
    let ones = ((1u128 << n) - 1) << (bits - n as u32);
    let word = ones | u128::from(y);
    let all = word.to_be_bytes();
    let tail = all.iter().skip(16 - n);
    if neg {
        out.extend(tail.map(|b| !b));
    } else {
        out.extend(tail);
    }
}

/// Bytes of the orderedcode encoding of a non-negative magnitude: the least `n` with
/// `y < 2^(7n - 1)`.
fn ordered_code_len(y: u64) -> usize {
    let mut n = 1usize;
    while n < 10 && (7 * n - 1) < 64 && y >> (7 * n - 1) != 0 {
        n += 1;
    }
    n
}

/// Decode an orderedcode signed varint from the start of `bytes`: the value and how many bytes
/// it took. Only the canonical (shortest) form is accepted.
///
/// ```
/// use rowkey::struct_key::decode_ordered_code_i64;
///
/// assert_eq!(decode_ordered_code_i64(&[0xC1, 0x00, 0x42])?, (256, 2));
/// assert!(decode_ordered_code_i64(&[0xC0]).is_err()); // truncated
/// assert!(decode_ordered_code_i64(&[0xC0, 0x01]).is_err()); // 1 is written as 0x81
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
pub fn decode_ordered_code_i64(bytes: &[u8]) -> Result<(i64, usize), DecodeError> {
    let Some(&first) = bytes.first() else {
        return Err(DecodeError::truncated(0, 1, 0));
    };
    // a leading zero bit is a negative value, stored inverted
    let dir = if first & 0x80 == 0 { 0xFF } else { 0x00 };
    let mut n = (first ^ dir).leading_ones() as usize;
    if n == 8 {
        // a full byte of ones: the count goes on in the next byte
        let Some(&second) = bytes.get(1) else {
            return Err(DecodeError::truncated(bytes.len(), 1, bytes.len()));
        };
        n += (second ^ dir).leading_ones() as usize;
    }
    if n > 10 {
        return Err(DecodeError::new(
            DecodeErrorKind::InvalidByte {
                byte: bytes.get(1).copied().unwrap_or(first),
                expected: "an orderedcode Int64 of at most 10 bytes",
            },
            1,
        ));
    }
    let Some(encoded) = bytes.get(..n) else {
        return Err(DecodeError::truncated(
            bytes.len(),
            n - bytes.len(),
            bytes.len(),
        ));
    };
    let mut word = 0u128;
    for b in encoded {
        word = (word << 8) | u128::from(b ^ dir);
    }
    let bits = 8 * n as u32;
    let ones = ((1u128 << n) - 1) << (bits - n as u32);
    let y = word & !ones;
    if y > i64::MAX as u128 {
        return Err(DecodeError::new(DecodeErrorKind::OutOfRange, 0));
    }
    let y = y as u64;
    if ordered_code_len(y) != n {
        return Err(DecodeError::new(
            DecodeErrorKind::NonCanonical("an orderedcode Int64 longer than its shortest form"),
            0,
        ));
    }
    let value = if dir == 0xFF { !(y as i64) } else { y as i64 };
    Ok((value, n))
}

/// A field's type and encoding (`Type` with its `Encoding`), as far as a row key holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// `Int64`, in the given encoding.
    Int64(Int64Encoding),
    /// `String` in `Utf8Bytes`.
    String,
    /// `Bytes` in `Raw`.
    Bytes,
    /// `Timestamp` in `unix_micros_int64`: microseconds since the Unix epoch, in the given
    /// `Int64` encoding.
    Timestamp(Int64Encoding),
}

impl FieldType {
    fn name(self) -> &'static str {
        match self {
            Self::Int64(_) => "Int64",
            Self::String => "String",
            Self::Bytes => "Bytes",
            Self::Timestamp(_) => "Timestamp",
        }
    }
}

/// A field of a struct key: its name (`field_name`, may be empty) and type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// The field name.
    pub name: String,
    /// The field type and encoding.
    pub ty: FieldType,
}

impl Field {
    /// A field named `name` of type `ty`.
    pub fn new(name: impl Into<String>, ty: FieldType) -> Self {
        Self {
            name: name.into(),
            ty,
        }
    }
}

/// How the fields are joined (`Type.Struct.Encoding`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StructEncoding {
    /// The one field's own encoding (a schema of exactly one field).
    Singleton,
    /// The fields' encodings joined by the delimiter (1 to 50 bytes); a field whose encoding
    /// contains the delimiter's first byte cannot be encoded.
    DelimitedBytes(Vec<u8>),
    /// Null-escaped fields joined by `00 01` (see the [module docs](self)).
    OrderedCodeBytes,
}

/// A field value. The derived order compares values of one field type as the type does
/// (integers numerically, strings and bytes bytewise); values of different types are not
/// meant to be compared.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// An `Int64`.
    Int64(i64),
    /// A `String`.
    String(String),
    /// `Bytes`.
    Bytes(Vec<u8>),
    /// A `Timestamp`, in microseconds since the Unix epoch.
    Timestamp(i64),
}

impl Value {
    fn type_name(&self) -> &'static str {
        match self {
            Self::Int64(_) => "Int64",
            Self::String(_) => "String",
            Self::Bytes(_) => "Bytes",
            Self::Timestamp(_) => "Timestamp",
        }
    }
}

/// A schema the API would refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaError {
    /// `Singleton` with other than one field.
    SingletonFieldCount {
        /// Fields in the schema.
        fields: usize,
    },
    /// A `DelimitedBytes` delimiter that is empty or over 50 bytes.
    DelimiterLength {
        /// Its length.
        len: usize,
    },
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SingletonFieldCount { fields } => {
                write!(
                    f,
                    "a Singleton struct key has exactly one field, not {fields}"
                )
            }
            Self::DelimiterLength { len } => {
                write!(f, "a DelimitedBytes delimiter has 1 to 50 bytes, not {len}")
            }
        }
    }
}

impl std::error::Error for SchemaError {}

/// A row key schema: the fields and how they are joined (`Type.Struct`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StructSchema {
    fields: Vec<Field>,
    encoding: StructEncoding,
}

impl StructSchema {
    /// A schema, checked as the API checks it: `Singleton` has one field, a delimiter has 1 to
    /// 50 bytes.
    pub fn new(fields: Vec<Field>, encoding: StructEncoding) -> Result<Self, SchemaError> {
        match &encoding {
            StructEncoding::Singleton if fields.len() != 1 => {
                return Err(SchemaError::SingletonFieldCount {
                    fields: fields.len(),
                })
            }
            StructEncoding::DelimitedBytes(d) if d.is_empty() || d.len() > 50 => {
                return Err(SchemaError::DelimiterLength { len: d.len() })
            }
            _ => {}
        }
        Ok(Self { fields, encoding })
    }

    /// A schema whose invariants the caller has checked (what a derived key's
    /// `row_key_schema` builds: the derive refuses what [`new`](Self::new) refuses).
    #[doc(hidden)]
    pub fn from_checked(fields: Vec<Field>, encoding: StructEncoding) -> Self {
        Self { fields, encoding }
    }

    /// The fields.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The struct encoding.
    pub fn encoding(&self) -> &StructEncoding {
        &self.encoding
    }

    /// The key of `values`, one per field in order.
    pub fn encode(&self, values: &[Value]) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::new();
        self.encode_into(values, &mut out)?;
        Ok(out)
    }

    /// Append the key of `values` to `out` (on an error, `out` may hold part of it).
    pub fn encode_into(&self, values: &[Value], out: &mut Vec<u8>) -> Result<(), EncodeError> {
        if values.len() != self.fields.len() {
            return Err(EncodeError::new(
                "",
                EncodeErrorKind::FieldCount {
                    expected: self.fields.len(),
                    got: values.len(),
                },
            ));
        }
        match &self.encoding {
            StructEncoding::Singleton => {
                for (field, value) in self.fields.iter().zip(values) {
                    encode_field(field, value, out)?;
                }
                Ok(())
            }
            StructEncoding::DelimitedBytes(delimiter) => {
                let Some(&first) = delimiter.first() else {
                    return Ok(()); // refused by `new`
                };
                if self.fields.is_empty() {
                    out.extend_from_slice(delimiter);
                    return Ok(());
                }
                let mut field_bytes = Vec::new();
                for (i, (field, value)) in self.fields.iter().zip(values).enumerate() {
                    field_bytes.clear();
                    encode_field(field, value, &mut field_bytes)?;
                    if let Some(at) = field_bytes.iter().position(|&b| b == first) {
                        return Err(EncodeError::new(
                            &field.name,
                            EncodeErrorKind::ContainsSeparator { sep: first, at },
                        ));
                    }
                    if i > 0 {
                        out.extend_from_slice(delimiter);
                    }
                    out.extend_from_slice(&field_bytes);
                }
                Ok(())
            }
            StructEncoding::OrderedCodeBytes => {
                let mut encoded = Vec::with_capacity(values.len());
                for (field, value) in self.fields.iter().zip(values) {
                    let mut bytes = Vec::new();
                    encode_field(field, value, &mut bytes)?;
                    encoded.push(bytes);
                }
                let Some(last) = encoded.iter().rposition(|f| !f.is_empty()) else {
                    out.extend_from_slice(&[0x00, 0x00]);
                    return Ok(());
                };
                for (i, bytes) in encoded.iter().take(last + 1).enumerate() {
                    if i > 0 {
                        out.extend_from_slice(&[0x00, 0x01]);
                    }
                    if bytes.is_empty() {
                        out.extend_from_slice(&[0x00, 0x00]);
                    }
                    for &b in bytes {
                        if b == 0x00 {
                            out.extend_from_slice(&[0x00, 0xFF]);
                        } else {
                            out.push(b);
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Check that `values` are in the range where the schema sorts (the API reference's
    /// "sorted mode"): an `Int64`/`Timestamp` in `BigEndianBytes` is non-negative, and under
    /// `DelimitedBytes` every byte of every field's encoding is above the delimiter's first
    /// byte. Where this passes, comparing two keys' bytes compares their values field by field
    /// (a strict prefix first); [`encode`](Self::encode) itself needs only the distinct mode.
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, StructEncoding, StructSchema, Value};
    ///
    /// let s = StructSchema::new(
    ///     vec![Field::new("a", FieldType::String), Field::new("b", FieldType::String)],
    ///     StructEncoding::DelimitedBytes(b"#".to_vec()),
    /// )?;
    /// assert!(s.check_sorted(&[Value::String("x".into()), Value::String("y".into())]).is_ok());
    /// // "!" (0x21) is below '#' (0x23): encodable, but "x!" would sort before "x#..."
    /// let err = s.check_sorted(&[Value::String("x!".into()), Value::String("y".into())]).unwrap_err();
    /// assert_eq!(err.field(), "a");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_sorted(&self, values: &[Value]) -> Result<(), EncodeError> {
        if values.len() != self.fields.len() {
            return Err(EncodeError::new(
                "",
                EncodeErrorKind::FieldCount {
                    expected: self.fields.len(),
                    got: values.len(),
                },
            ));
        }
        let mut bytes = Vec::new();
        for (field, value) in self.fields.iter().zip(values) {
            if let (
                FieldType::Int64(Int64Encoding::BigEndianBytes)
                | FieldType::Timestamp(Int64Encoding::BigEndianBytes),
                Value::Int64(v) | Value::Timestamp(v),
            ) = (field.ty, value)
            {
                if *v < 0 {
                    return Err(EncodeError::new(
                        &field.name,
                        EncodeErrorKind::ValueOutOfRange {
                            value: v.to_string(),
                            range: "non-negative values in sorted mode (BigEndianBytes)",
                        },
                    ));
                }
            }
            if let StructEncoding::DelimitedBytes(delimiter) = &self.encoding {
                let Some(&first) = delimiter.first() else {
                    continue;
                };
                bytes.clear();
                encode_field(field, value, &mut bytes)?;
                if let Some(at) = bytes.iter().position(|&b| b <= first) {
                    return Err(EncodeError::new(
                        &field.name,
                        EncodeErrorKind::NotAboveDelimiter {
                            byte: bytes.get(at).copied().unwrap_or(first),
                            delimiter: first,
                            at,
                        },
                    ));
                }
            }
        }
        Ok(())
    }

    /// Decode and validate a key: the values, one per field. Errors name the field and the
    /// byte offset in the key; only what [`encode`](Self::encode) writes is accepted.
    pub fn decode(&self, bytes: &[u8]) -> Result<Vec<Value>, DecodeError> {
        match &self.encoding {
            StructEncoding::Singleton => self
                .fields
                .iter()
                .map(|field| decode_field(field, bytes, 0, None))
                .collect(),
            StructEncoding::DelimitedBytes(delimiter) => self.decode_delimited(delimiter, bytes),
            StructEncoding::OrderedCodeBytes => self.decode_ordered(bytes),
        }
    }

    fn decode_delimited(&self, delimiter: &[u8], bytes: &[u8]) -> Result<Vec<Value>, DecodeError> {
        let Some(&first) = delimiter.first() else {
            return Err(DecodeError::new(
                DecodeErrorKind::NonCanonical("empty delimiter"),
                0,
            ));
        };
        if self.fields.is_empty() {
            return match bytes.strip_prefix(delimiter) {
                Some([]) => Ok(Vec::new()),
                Some(rest) => Err(DecodeError::new(
                    DecodeErrorKind::TrailingBytes { count: rest.len() },
                    delimiter.len(),
                )),
                None => Err(mismatch_delimiter(bytes, delimiter, 0)),
            };
        }
        let mut values = Vec::with_capacity(self.fields.len());
        let mut pos = 0usize;
        let count = self.fields.len();
        for (i, field) in self.fields.iter().enumerate() {
            let rest = bytes.get(pos..).unwrap_or_default();
            let end = rest.iter().position(|&b| b == first);
            let is_last = i + 1 == count;
            match (end, is_last) {
                (None, false) => {
                    return Err(
                        DecodeError::new(DecodeErrorKind::MissingTerminator, bytes.len())
                            .in_field(&field.name, 0),
                    )
                }
                (None, true) => {
                    values.push(decode_field(field, rest, pos, None)?);
                }
                (Some(len), false) => {
                    let content = rest.get(..len).unwrap_or_default();
                    values.push(decode_field(field, content, pos, None)?);
                    let after = rest.get(len..).unwrap_or_default();
                    if !after.starts_with(delimiter) {
                        return Err(mismatch_delimiter(after, delimiter, pos + len)
                            .in_field(&field.name, 0));
                    }
                    pos += len + delimiter.len();
                }
                (Some(len), true) => {
                    // more fields than the schema has
                    let at = pos + len;
                    let content = rest.get(..len).unwrap_or_default();
                    values.push(decode_field(field, content, pos, None)?);
                    return Err(DecodeError::new(
                        DecodeErrorKind::TrailingBytes {
                            count: bytes.len() - at,
                        },
                        at,
                    ));
                }
            }
        }
        Ok(values)
    }

    fn decode_ordered(&self, bytes: &[u8]) -> Result<Vec<Value>, DecodeError> {
        // split into unescaped segments, each with the key offset of every content byte
        let mut segments: Vec<Segment> = Vec::new();
        let mut current = Segment {
            start: 0,
            content: Vec::new(),
            offsets: Vec::new(),
            empty_marker: false,
        };
        let mut i = 0usize;
        while let Some(&b) = bytes.get(i) {
            if b != 0x00 {
                if current.empty_marker {
                    return Err(self.ordered_error(
                        segments.len(),
                        DecodeError::new(
                            DecodeErrorKind::InvalidByte {
                                byte: b,
                                expected: "00 01 after an empty field's 00 00",
                            },
                            i,
                        ),
                    ));
                }
                current.content.push(b);
                current.offsets.push(i);
                i += 1;
                continue;
            }
            match bytes.get(i + 1) {
                None => {
                    return Err(self.ordered_error(
                        segments.len(),
                        DecodeError::truncated(bytes.len(), 1, bytes.len() - current.start),
                    ))
                }
                Some(0xFF) if !current.empty_marker => {
                    current.content.push(0x00);
                    current.offsets.push(i);
                }
                Some(0x00) if current.content.is_empty() && !current.empty_marker => {
                    current.empty_marker = true;
                }
                Some(0x01) if current.empty_marker || !current.content.is_empty() => {
                    let next = Segment {
                        start: i + 2,
                        content: Vec::new(),
                        offsets: Vec::new(),
                        empty_marker: false,
                    };
                    segments.push(core::mem::replace(&mut current, next));
                }
                Some(&other) => {
                    let expected = if current.empty_marker {
                        "00 01 after an empty field's 00 00"
                    } else if current.content.is_empty() {
                        "00 00 (an empty field) or 00 FF (an escaped 00)"
                    } else {
                        "00 01 (between fields) or 00 FF (an escaped 00)"
                    };
                    return Err(self.ordered_error(
                        segments.len(),
                        DecodeError::new(
                            DecodeErrorKind::InvalidByte {
                                byte: other,
                                expected,
                            },
                            i + 1,
                        ),
                    ));
                }
            }
            i += 2;
        }
        if !current.empty_marker && current.content.is_empty() {
            // an empty key, or a key ending in 00 01
            return Err(
                self.ordered_error(segments.len(), DecodeError::truncated(bytes.len(), 2, 0))
            );
        }
        segments.push(current);
        // all empty (or no fields): just 00 00
        if segments.len() == 1 && segments.first().is_some_and(|s| s.empty_marker) {
            return self
                .fields
                .iter()
                .map(|field| decode_field(field, &[], 2, None))
                .collect();
        }
        if segments.last().is_some_and(|s| s.empty_marker) {
            let start = segments.last().map_or(0, |s| s.start);
            return Err(self.ordered_error(
                segments.len() - 1,
                DecodeError::new(
                    DecodeErrorKind::NonCanonical("a trailing empty field is not written"),
                    start,
                ),
            ));
        }
        if segments.len() > self.fields.len() {
            let start = segments.get(self.fields.len()).map_or(0, |s| s.start);
            let at = start.saturating_sub(2);
            return Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes {
                    count: bytes.len() - at,
                },
                at,
            ));
        }
        let mut values = Vec::with_capacity(self.fields.len());
        for (k, field) in self.fields.iter().enumerate() {
            match segments.get(k) {
                Some(seg) => values.push(decode_field(
                    field,
                    &seg.content,
                    seg.start,
                    Some((&seg.offsets, seg_end(bytes.len(), &segments, k))),
                )?),
                // a dropped trailing empty field
                None => values.push(decode_field(field, &[], bytes.len(), None)?),
            }
        }
        Ok(values)
    }

    /// Name the field of segment `k` (or none, past the fields).
    fn ordered_error(&self, k: usize, e: DecodeError) -> DecodeError {
        match self.fields.get(k) {
            Some(field) => e.in_field(&field.name, 0),
            None => e,
        }
    }
}

/// Where segment `k` ends in the key (where its `00 01` starts, or the end).
fn seg_end(len: usize, segments: &[Segment], k: usize) -> usize {
    segments
        .get(k + 1)
        .map_or(len, |next| next.start.saturating_sub(2))
}

struct Segment {
    start: usize,
    content: Vec<u8>,
    offsets: Vec<usize>,
    empty_marker: bool,
}

fn mismatch_delimiter(rest: &[u8], delimiter: &[u8], base: usize) -> DecodeError {
    let at = rest
        .iter()
        .zip(delimiter)
        .position(|(a, b)| a != b)
        .unwrap_or(rest.len().min(delimiter.len()));
    match rest.get(at) {
        Some(&byte) => DecodeError::new(
            DecodeErrorKind::InvalidByte {
                byte,
                expected: "the delimiter (a field's bytes never contain its first byte)",
            },
            base + at,
        ),
        None => DecodeError::truncated(base + at, delimiter.len() - at, rest.len()),
    }
}

fn encode_field(field: &Field, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    match (field.ty, value) {
        (FieldType::Int64(e), Value::Int64(v)) | (FieldType::Timestamp(e), Value::Timestamp(v)) => {
            e.encode(*v, out);
        }
        (FieldType::String, Value::String(s)) => out.extend_from_slice(s.as_bytes()),
        (FieldType::Bytes, Value::Bytes(b)) => out.extend_from_slice(b),
        (ty, value) => {
            return Err(EncodeError::new(
                &field.name,
                EncodeErrorKind::TypeMismatch {
                    expected: ty.name(),
                    got: value.type_name(),
                },
            ))
        }
    }
    Ok(())
}

/// Decode one field from its (unescaped) bytes. `base` is where the field starts in the key;
/// `map` gives the key offset of each content byte and the field's end, for escaped content.
fn decode_field(
    field: &Field,
    content: &[u8],
    base: usize,
    map: Option<(&[usize], usize)>,
) -> Result<Value, DecodeError> {
    let located = |e: DecodeError| {
        // the error's offset is into `content`: move it to the key
        let off = e.offset();
        let key_off = match map {
            Some((offsets, end)) => offsets.get(off).copied().unwrap_or(end),
            None => base + off,
        };
        DecodeError::new(e.kind().clone(), 0).in_field(&field.name, key_off)
    };
    match field.ty {
        FieldType::Int64(e) => e.decode(content).map(Value::Int64).map_err(located),
        FieldType::Timestamp(e) => e.decode(content).map(Value::Timestamp).map_err(located),
        FieldType::String => match core::str::from_utf8(content) {
            Ok(s) => Ok(Value::String(s.to_owned())),
            Err(e) => Err(located(DecodeError::new(
                DecodeErrorKind::InvalidUtf8,
                e.valid_up_to(),
            ))),
        },
        FieldType::Bytes => Ok(Value::Bytes(content.to_vec())),
    }
}

/// Every finding about a schema of `fields` joined by `encoding`, in field order, schema-wide
/// findings first: what the admin API refuses ([`Severity::Refused`]) and what it accepts but
/// cannot keep sorted ([`Severity::Unsorted`]). Empty when the schema is fine. This takes the
/// parts, so it also reports what [`StructSchema::new`] refuses; [`StructSchema::lint`] lints
/// a built schema.
///
/// # What the API reference says it refuses
///
/// From the reference of `Table.row_key_schema` (googleapis `google/bigtable/admin/v2/table.proto`,
/// the same text as the generated docs of `googleapis-tonic-google-bigtable-admin-v2` 0.45 and
/// the REST reference of `Table.rowKeySchema`), "the schema has the following invariants":
///
/// 1. "The decoded field values are order-preserved. For read, the field values will be
///    decoded in sorted mode from the raw bytes." — so the sorted-mode rules below matter:
///    "Queries that reference key fields will fail if they encounter an invalid row key"
///    (the guide "Manage row key schemas", cloud.google.com/bigtable/docs/manage-row-key-schemas:
///    "If any row keys in a table don't conform to the row key schema, queries that select
///    structured row key columns fail and return an error").
/// 2. "Every field in the schema must specify a non-empty name." — [`FindingKind::EmptyName`].
/// 3. "Every field must specify a type with an associated encoding. The type is limited to
///    scalar types only: Array, Map, Aggregate, and Struct are not allowed." — a
///    [`FieldType`] always has both; checked where an API message is converted.
/// 4. "The field names must not collide with existing column family names and reserved
///    keywords `_key` and `_timestamp`." — [`FindingKind::ReservedName`] and
///    [`FindingKind::FamilyName`] (with [`StructSchema::lint_with_families`]).
///
/// From `Type.Struct.Encoding` (googleapis `google/bigtable/admin/v2/types.proto`):
/// `Singleton` "Only valid if `fields.size == 1`" ([`FindingKind::SingletonFieldCount`]);
/// `DelimitedBytes`: "The delimiter must contain at least 1 character and at most 50
/// characters" ([`FindingKind::DelimiterLength`]), and in sorted mode "Encoded field values
/// must not contain any bytes <= `delimiter[0]`" (distinct mode: "must not contain
/// `delimiter[0]`"). `Int64.BigEndianBytes`: "Sorted mode: non-negative values are
/// supported. Distinct mode: all values are supported."
///
/// Two names that are the same ([`FindingKind::DuplicateName`]) are not named in those words;
/// GoogleSQL reads every field as a column by its name, so this lint treats a repeated name
/// like a name that collides with a family: refused.
///
/// # Negative `BigEndianBytes` values
///
/// [`StructSchema::encode`] writes a negative `Int64` or `Timestamp` in `BigEndianBytes` as
/// its 8-byte two's complement (the distinct mode, which supports all values): such a key
/// sorts after every non-negative value, and [`StructSchema::decode`] reads it back. It is
/// not a sorted-mode value, and the API decodes row keys in sorted mode: both
/// [`StructSchema::check_sorted`] (an `EncodeErrorKind::ValueOutOfRange` naming the field) and
/// [`StructSchema::lint_values`] ([`FindingKind::Negative`]) report it. Encoding stays
/// possible so that keys written by others (HBase `Bytes.toBytes`) can be rebuilt byte for byte.
///
/// # Examples
///
/// ```
/// use rowkey::struct_key::{lint, Field, FieldType, FindingKind, Int64Encoding, Severity, StructEncoding};
///
/// let fields = vec![
///     Field::new("_key", FieldType::String),
///     Field::new("", FieldType::Bytes),
///     Field::new("n", FieldType::Int64(Int64Encoding::BigEndianBytes)),
///     Field::new("n", FieldType::String),
/// ];
/// let findings = lint(&fields, &StructEncoding::DelimitedBytes(b"#".to_vec()));
/// let got: Vec<_> = findings.iter().map(|f| (f.index(), f.kind().clone())).collect();
/// assert_eq!(got, [
///     (Some(0), FindingKind::ReservedName),
///     (Some(1), FindingKind::EmptyName),
///     (Some(2), FindingKind::BigEndianDelimited { delimiter: b'#' }),
///     (Some(3), FindingKind::DuplicateName { first: 2 }),
/// ]);
/// assert_eq!(findings[0].field(), "_key");
/// assert_eq!(findings[2].severity(), Severity::Unsorted);
/// assert!(findings[3].to_string().starts_with("field \"n\" (#3): the same name as field #2"));
///
/// // what StructSchema::new refuses is reported too
/// let single = lint(&fields[..2], &StructEncoding::Singleton);
/// assert_eq!(single[0].kind(), &FindingKind::SingletonFieldCount { fields: 2 });
/// assert_eq!(single[0].index(), None);
/// ```
pub fn lint(fields: &[Field], encoding: &StructEncoding) -> Vec<Finding> {
    let mut findings = Vec::new();
    match encoding {
        StructEncoding::Singleton if fields.len() != 1 => {
            findings.push(Finding::schema(FindingKind::SingletonFieldCount {
                fields: fields.len(),
            }));
        }
        StructEncoding::DelimitedBytes(d) if d.is_empty() || d.len() > 50 => {
            findings.push(Finding::schema(FindingKind::DelimiterLength {
                len: d.len(),
            }));
        }
        _ => {}
    }
    for (i, field) in fields.iter().enumerate() {
        if field.name.is_empty() {
            findings.push(Finding::at(i, &field.name, FindingKind::EmptyName));
        } else if RESERVED_NAMES.contains(&field.name.as_str()) {
            findings.push(Finding::at(i, &field.name, FindingKind::ReservedName));
        } else if let Some(first) = fields
            .iter()
            .take(i)
            .position(|earlier| earlier.name == field.name)
        {
            findings.push(Finding::at(
                i,
                &field.name,
                FindingKind::DuplicateName { first },
            ));
        }
        if let (
            StructEncoding::DelimitedBytes(d),
            FieldType::Int64(Int64Encoding::BigEndianBytes)
            | FieldType::Timestamp(Int64Encoding::BigEndianBytes),
        ) = (encoding, field.ty)
        {
            if let Some(&delimiter) = d.first() {
                findings.push(Finding::at(
                    i,
                    &field.name,
                    FindingKind::BigEndianDelimited { delimiter },
                ));
            }
        }
    }
    findings
}

impl StructSchema {
    /// Every finding about this schema (see [`lint`]). A schema built by
    /// [`new`](StructSchema::new) has a valid field count and delimiter; names are only
    /// checked here.
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, FindingKind, StructEncoding, StructSchema};
    ///
    /// let s = StructSchema::new(vec![Field::new("_timestamp", FieldType::Bytes)], StructEncoding::Singleton)?;
    /// let findings = s.lint();
    /// assert_eq!((findings[0].field(), findings[0].kind()), ("_timestamp", &FindingKind::ReservedName));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lint(&self) -> Vec<Finding> {
        lint(self.fields(), self.encoding())
    }

    /// [`lint`](StructSchema::lint), and the fields whose name is also one of the table's
    /// column `families` ([`FindingKind::FamilyName`]).
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, FindingKind, StructEncoding, StructSchema};
    ///
    /// let s = StructSchema::new(vec![Field::new("o", FieldType::Bytes)], StructEncoding::Singleton)?;
    /// assert!(s.lint().is_empty());
    /// let findings = s.lint_with_families(&["o"]);
    /// assert_eq!((findings[0].field(), findings[0].kind()), ("o", &FindingKind::FamilyName));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lint_with_families(&self, families: &[&str]) -> Vec<Finding> {
        let mut findings = self.lint();
        for (i, field) in self.fields().iter().enumerate() {
            if !field.name.is_empty() && families.contains(&field.name.as_str()) {
                findings.push(Finding::at(i, &field.name, FindingKind::FamilyName));
            }
        }
        findings
    }

    /// Every finding about `values` for this schema, in field order: values that cannot be
    /// encoded ([`FindingKind::Unencodable`], [`Severity::Refused`]) and values whose keys do
    /// not sort ([`FindingKind::Negative`], [`FindingKind::NotAboveDelimiter`],
    /// [`Severity::Unsorted`]). Empty exactly when [`encode`](StructSchema::encode) and
    /// [`check_sorted`](StructSchema::check_sorted) both succeed; unlike them it reports every
    /// field, not the first.
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, FindingKind, Int64Encoding, StructEncoding, StructSchema, Value};
    ///
    /// let s = StructSchema::new(
    ///     vec![
    ///         Field::new("n", FieldType::Int64(Int64Encoding::BigEndianBytes)),
    ///         Field::new("s", FieldType::String),
    ///     ],
    ///     StructEncoding::OrderedCodeBytes,
    /// )?;
    /// let findings = s.lint_values(&[Value::Int64(-3), Value::Bytes(vec![])]);
    /// assert_eq!(findings.len(), 2);
    /// assert_eq!((findings[0].field(), findings[0].kind()), ("n", &FindingKind::Negative { value: -3 }));
    /// assert_eq!(findings[1].field(), "s"); // a Bytes value for a String field
    /// assert!(matches!(findings[1].kind(), FindingKind::Unencodable(_)));
    /// // the negative value encodes (two's complement), it just does not sort
    /// assert!(s.encode(&[Value::Int64(-3), Value::String("x".into())]).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lint_values(&self, values: &[Value]) -> Vec<Finding> {
        let fields = self.fields();
        if values.len() != fields.len() {
            return vec![Finding::schema(FindingKind::Unencodable(EncodeError::new(
                "",
                EncodeErrorKind::FieldCount {
                    expected: fields.len(),
                    got: values.len(),
                },
            )))];
        }
        let mut findings = Vec::new();
        let mut bytes = Vec::new();
        for (i, (field, value)) in fields.iter().zip(values).enumerate() {
            bytes.clear();
            if let Err(e) = encode_field(field, value, &mut bytes) {
                findings.push(Finding::at(i, &field.name, FindingKind::Unencodable(e)));
                continue;
            }
            if let (
                FieldType::Int64(Int64Encoding::BigEndianBytes)
                | FieldType::Timestamp(Int64Encoding::BigEndianBytes),
                Value::Int64(v) | Value::Timestamp(v),
            ) = (field.ty, value)
            {
                if *v < 0 {
                    findings.push(Finding::at(
                        i,
                        &field.name,
                        FindingKind::Negative { value: *v },
                    ));
                }
            }
            if let StructEncoding::DelimitedBytes(d) = self.encoding() {
                let Some(&first) = d.first() else { continue };
                if let Some(at) = bytes.iter().position(|&b| b == first) {
                    findings.push(Finding::at(
                        i,
                        &field.name,
                        FindingKind::Unencodable(EncodeError::new(
                            &field.name,
                            EncodeErrorKind::ContainsSeparator { sep: first, at },
                        )),
                    ));
                } else if let Some(at) = bytes.iter().position(|&b| b < first) {
                    findings.push(Finding::at(
                        i,
                        &field.name,
                        FindingKind::NotAboveDelimiter {
                            byte: bytes.get(at).copied().unwrap_or(first),
                            delimiter: first,
                            at,
                        },
                    ));
                }
            }
        }
        findings
    }
}
