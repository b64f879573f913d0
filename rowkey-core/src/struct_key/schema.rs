//! [`StructSchema`]: a Bigtable row key schema known at run time (fields, types, the struct
//! encoding), its keys written and read through the format of [`format`](super::format), and
//! its lint.

use core::fmt;
use std::borrow::Cow;

use super::finding::{SchemaFinding, SchemaFindingKind, RESERVED_NAMES};
use super::format::{
    delimited_split, escaped_offset, mismatch_delimiter, ordered_split, put_delimited, put_ordered,
    Int64Encoding,
};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

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
    /// Null-escaped fields joined by `00 01` (see the [module docs](super)).
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
        let count = self.fields.len();
        match &self.encoding {
            StructEncoding::Singleton => {
                for (field, value) in self.fields.iter().zip(values) {
                    encode_field(field, value, out)?;
                }
                Ok(())
            }
            StructEncoding::DelimitedBytes(delimiter) => {
                if delimiter.is_empty() {
                    return Ok(()); // refused by `new`
                }
                if self.fields.is_empty() {
                    out.extend_from_slice(delimiter);
                    return Ok(());
                }
                for (i, (field, value)) in self.fields.iter().zip(values).enumerate() {
                    let at = out.len();
                    encode_field(field, value, out)?;
                    put_delimited(out, at, delimiter, i + 1 == count)
                        .map_err(|kind| EncodeError::new(&field.name, kind))?;
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
                // trailing empty fields are not written (all empty: the first one is)
                let last = encoded.iter().rposition(|f| !f.is_empty()).unwrap_or(0);
                if encoded.is_empty() {
                    put_ordered(&[], true, out);
                }
                for (i, bytes) in encoded.iter().take(last + 1).enumerate() {
                    put_ordered(bytes, i == last, out);
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
                .map(|field| decode_field(field, bytes, |off| off))
                .collect(),
            StructEncoding::DelimitedBytes(delimiter) => self.decode_delimited(delimiter, bytes),
            StructEncoding::OrderedCodeBytes => self.decode_ordered(bytes),
        }
    }

    fn decode_delimited(&self, delimiter: &[u8], bytes: &[u8]) -> Result<Vec<Value>, DecodeError> {
        if delimiter.is_empty() {
            return Err(DecodeError::new(
                DecodeErrorKind::NonCanonical("empty delimiter"),
                0,
            ));
        }
        if self.fields.is_empty() {
            return match bytes.strip_prefix(delimiter) {
                Some([]) => Ok(Vec::new()),
                Some(rest) => Err(DecodeError::new(
                    DecodeErrorKind::TrailingBytes { count: rest.len() },
                    delimiter.len(),
                )),
                None => Err(mismatch_delimiter(bytes, delimiter, 0, bytes.len())),
            };
        }
        let count = self.fields.len();
        let mut values = Vec::with_capacity(count);
        let mut pos = 0usize;
        for (i, field) in self.fields.iter().enumerate() {
            let rest = bytes.get(pos..).unwrap_or_default();
            let at = |off: usize| pos + off;
            let (content, used) = delimited_split(rest, delimiter, i + 1 == count)
                .map_err(|e| e.in_field(&field.name, pos))?;
            // the field's value first (as the reference decodes it), then the delimiter
            values.push(decode_field(field, content, at)?);
            pos += used.map_err(|e| e.in_field(&field.name, pos))?;
        }
        trailing(bytes, pos)?;
        Ok(values)
    }

    fn decode_ordered(&self, bytes: &[u8]) -> Result<Vec<Value>, DecodeError> {
        let count = self.fields.len();
        if count == 0 {
            // no fields: the key of all-empty fields, 00 00
            return match bytes {
                [0x00, 0x00] => Ok(Vec::new()),
                [] => Err(DecodeError::truncated(0, 2, 0)),
                _ => Err(DecodeError::new(
                    DecodeErrorKind::TrailingBytes { count: bytes.len() },
                    0,
                )),
            };
        }
        let mut values = Vec::with_capacity(count);
        let mut pos = 0usize;
        for (k, field) in self.fields.iter().enumerate() {
            let input = bytes.get(pos..).unwrap_or_default();
            let (content, used) = ordered_split(input, k == 0, k + 1 == count)
                .map_err(|e| e.in_field(&field.name, pos))?;
            let escaped = matches!(content, Cow::Owned(_));
            let at = |off: usize| {
                pos + if escaped {
                    escaped_offset(input, off)
                } else {
                    off
                }
            };
            values.push(decode_field(field, &content, at)?);
            pos += used;
        }
        trailing(bytes, pos)?;
        Ok(values)
    }
}

/// Nothing may follow the last field.
fn trailing(bytes: &[u8], pos: usize) -> Result<(), DecodeError> {
    match bytes.len().checked_sub(pos) {
        Some(0) | None => Ok(()),
        Some(count) => Err(DecodeError::new(
            DecodeErrorKind::TrailingBytes { count },
            pos,
        )),
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

/// Decode one field from its (unescaped) bytes; `at` maps an offset in `content` to the key.
fn decode_field(
    field: &Field,
    content: &[u8],
    at: impl Fn(usize) -> usize,
) -> Result<Value, DecodeError> {
    let located = |e: DecodeError| {
        let key_off = at(e.offset());
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
/// findings first: what the admin API refuses ([`SchemaSeverity::Refused`](super::SchemaSeverity::Refused)) and what it accepts but
/// cannot keep sorted ([`SchemaSeverity::Unsorted`](super::SchemaSeverity::Unsorted)). Empty when the schema is fine. This takes the
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
/// 2. "Every field in the schema must specify a non-empty name." — [`SchemaFindingKind::EmptyName`].
/// 3. "Every field must specify a type with an associated encoding. The type is limited to
///    scalar types only: Array, Map, Aggregate, and Struct are not allowed." — a
///    [`FieldType`] always has both; checked where an API message is converted.
/// 4. "The field names must not collide with existing column family names and reserved
///    keywords `_key` and `_timestamp`." — [`SchemaFindingKind::ReservedName`] and
///    [`SchemaFindingKind::FamilyName`] (with [`StructSchema::lint_with_families`]).
///
/// From `Type.Struct.Encoding` (googleapis `google/bigtable/admin/v2/types.proto`):
/// `Singleton` "Only valid if `fields.size == 1`" ([`SchemaFindingKind::SingletonFieldCount`]);
/// `DelimitedBytes`: "The delimiter must contain at least 1 character and at most 50
/// characters" ([`SchemaFindingKind::DelimiterLength`]), and in sorted mode "Encoded field values
/// must not contain any bytes <= `delimiter[0]`" (distinct mode: "must not contain
/// `delimiter[0]`"). `Int64.BigEndianBytes`: "Sorted mode: non-negative values are
/// supported. Distinct mode: all values are supported."
///
/// Two names that are the same ([`SchemaFindingKind::DuplicateName`]) are not named in those words;
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
/// [`StructSchema::lint_values`] ([`SchemaFindingKind::Negative`]) report it. Encoding stays
/// possible so that keys written by others (HBase `Bytes.toBytes`) can be rebuilt byte for byte.
///
/// # Examples
///
/// ```
/// use rowkey::struct_key::{lint, Field, FieldType, SchemaFindingKind, Int64Encoding, SchemaSeverity, StructEncoding};
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
///     (Some(0), SchemaFindingKind::ReservedName),
///     (Some(1), SchemaFindingKind::EmptyName),
///     (Some(2), SchemaFindingKind::BigEndianDelimited { delimiter: b'#' }),
///     (Some(3), SchemaFindingKind::DuplicateName { first: 2 }),
/// ]);
/// assert_eq!(findings[0].field(), "_key");
/// assert_eq!(findings[2].severity(), SchemaSeverity::Unsorted);
/// assert!(findings[3].to_string().starts_with("field \"n\" (#3): the same name as field #2"));
///
/// // what StructSchema::new refuses is reported too
/// let single = lint(&fields[..2], &StructEncoding::Singleton);
/// assert_eq!(single[0].kind(), &SchemaFindingKind::SingletonFieldCount { fields: 2 });
/// assert_eq!(single[0].index(), None);
/// ```
pub fn lint(fields: &[Field], encoding: &StructEncoding) -> Vec<SchemaFinding> {
    let mut findings = Vec::new();
    match encoding {
        StructEncoding::Singleton if fields.len() != 1 => {
            findings.push(SchemaFinding::schema(
                SchemaFindingKind::SingletonFieldCount {
                    fields: fields.len(),
                },
            ));
        }
        StructEncoding::DelimitedBytes(d) if d.is_empty() || d.len() > 50 => {
            findings.push(SchemaFinding::schema(SchemaFindingKind::DelimiterLength {
                len: d.len(),
            }));
        }
        _ => {}
    }
    for (i, field) in fields.iter().enumerate() {
        if field.name.is_empty() {
            findings.push(SchemaFinding::at(
                i,
                &field.name,
                SchemaFindingKind::EmptyName,
            ));
        } else if RESERVED_NAMES.contains(&field.name.as_str()) {
            findings.push(SchemaFinding::at(
                i,
                &field.name,
                SchemaFindingKind::ReservedName,
            ));
        } else if let Some(first) = fields
            .iter()
            .take(i)
            .position(|earlier| earlier.name == field.name)
        {
            findings.push(SchemaFinding::at(
                i,
                &field.name,
                SchemaFindingKind::DuplicateName { first },
            ));
        }
        if let (
            StructEncoding::DelimitedBytes(d),
            FieldType::Int64(Int64Encoding::BigEndianBytes)
            | FieldType::Timestamp(Int64Encoding::BigEndianBytes),
        ) = (encoding, field.ty)
        {
            if let Some(&delimiter) = d.first() {
                findings.push(SchemaFinding::at(
                    i,
                    &field.name,
                    SchemaFindingKind::BigEndianDelimited { delimiter },
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
    /// use rowkey::struct_key::{Field, FieldType, SchemaFindingKind, StructEncoding, StructSchema};
    ///
    /// let s = StructSchema::new(vec![Field::new("_timestamp", FieldType::Bytes)], StructEncoding::Singleton)?;
    /// let findings = s.lint();
    /// assert_eq!((findings[0].field(), findings[0].kind()), ("_timestamp", &SchemaFindingKind::ReservedName));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lint(&self) -> Vec<SchemaFinding> {
        lint(self.fields(), self.encoding())
    }

    /// [`lint`](StructSchema::lint), and the fields whose name is also one of the table's
    /// column `families` ([`SchemaFindingKind::FamilyName`]).
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, SchemaFindingKind, StructEncoding, StructSchema};
    ///
    /// let s = StructSchema::new(vec![Field::new("o", FieldType::Bytes)], StructEncoding::Singleton)?;
    /// assert!(s.lint().is_empty());
    /// let findings = s.lint_with_families(&["o"]);
    /// assert_eq!((findings[0].field(), findings[0].kind()), ("o", &SchemaFindingKind::FamilyName));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lint_with_families(&self, families: &[&str]) -> Vec<SchemaFinding> {
        let mut findings = self.lint();
        for (i, field) in self.fields().iter().enumerate() {
            if !field.name.is_empty() && families.contains(&field.name.as_str()) {
                findings.push(SchemaFinding::at(
                    i,
                    &field.name,
                    SchemaFindingKind::FamilyName,
                ));
            }
        }
        findings
    }

    /// Every finding about `values` for this schema, in field order: values that cannot be
    /// encoded ([`SchemaFindingKind::Unencodable`], [`SchemaSeverity::Refused`](super::SchemaSeverity::Refused)) and values whose keys do
    /// not sort ([`SchemaFindingKind::Negative`], [`SchemaFindingKind::NotAboveDelimiter`],
    /// [`SchemaSeverity::Unsorted`](super::SchemaSeverity::Unsorted)). Empty exactly when [`encode`](StructSchema::encode) and
    /// [`check_sorted`](StructSchema::check_sorted) both succeed; unlike them it reports every
    /// field, not the first.
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, SchemaFindingKind, Int64Encoding, StructEncoding, StructSchema, Value};
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
    /// assert_eq!((findings[0].field(), findings[0].kind()), ("n", &SchemaFindingKind::Negative { value: -3 }));
    /// assert_eq!(findings[1].field(), "s"); // a Bytes value for a String field
    /// assert!(matches!(findings[1].kind(), SchemaFindingKind::Unencodable(_)));
    /// // the negative value encodes (two's complement), it just does not sort
    /// assert!(s.encode(&[Value::Int64(-3), Value::String("x".into())]).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lint_values(&self, values: &[Value]) -> Vec<SchemaFinding> {
        let fields = self.fields();
        if values.len() != fields.len() {
            return vec![SchemaFinding::schema(SchemaFindingKind::Unencodable(
                EncodeError::new(
                    "",
                    EncodeErrorKind::FieldCount {
                        expected: fields.len(),
                        got: values.len(),
                    },
                ),
            ))];
        }
        let mut findings = Vec::new();
        let mut bytes = Vec::new();
        for (i, (field, value)) in fields.iter().zip(values).enumerate() {
            bytes.clear();
            if let Err(e) = encode_field(field, value, &mut bytes) {
                findings.push(SchemaFinding::at(
                    i,
                    &field.name,
                    SchemaFindingKind::Unencodable(e),
                ));
                continue;
            }
            if let (
                FieldType::Int64(Int64Encoding::BigEndianBytes)
                | FieldType::Timestamp(Int64Encoding::BigEndianBytes),
                Value::Int64(v) | Value::Timestamp(v),
            ) = (field.ty, value)
            {
                if *v < 0 {
                    findings.push(SchemaFinding::at(
                        i,
                        &field.name,
                        SchemaFindingKind::Negative { value: *v },
                    ));
                }
            }
            if let StructEncoding::DelimitedBytes(d) = self.encoding() {
                let Some(&first) = d.first() else { continue };
                if let Some(at) = bytes.iter().position(|&b| b == first) {
                    findings.push(SchemaFinding::at(
                        i,
                        &field.name,
                        SchemaFindingKind::Unencodable(EncodeError::new(
                            &field.name,
                            EncodeErrorKind::ContainsSeparator { sep: first, at },
                        )),
                    ));
                } else if let Some(at) = bytes.iter().position(|&b| b < first) {
                    findings.push(SchemaFinding::at(
                        i,
                        &field.name,
                        SchemaFindingKind::NotAboveDelimiter {
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
