//! Lint a row key schema the way the Bigtable admin API would refuse it, and values the way
//! sorted mode would not hold for them (the rules: [`lint`]).

use core::fmt;

use super::{encode_field, Field, FieldType, Int64Encoding, StructEncoding, StructSchema, Value};
use crate::error::{EncodeError, EncodeErrorKind};

/// The reserved key column names of GoogleSQL for Bigtable.
pub const RESERVED_NAMES: [&str; 2] = ["_key", "_timestamp"];

/// How bad a [`Finding`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The key (or its values) is accepted, but keys do not sort as their values do: sorted
    /// mode does not hold, and GoogleSQL, which decodes keys in sorted mode, may fail on them.
    Unsorted,
    /// The API refuses the schema, or the values cannot be encoded at all.
    Refused,
}

/// What a [`Finding`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindingKind {
    /// A field without a name (invariant 2 of `Table.row_key_schema`).
    EmptyName,
    /// A field named `_key` or `_timestamp` (invariant 4).
    ReservedName,
    /// The same name as an earlier field.
    DuplicateName {
        /// The index of the earlier field.
        first: usize,
    },
    /// The same name as a column family of the table (invariant 4).
    FamilyName,
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
    /// An `Int64`/`Timestamp` field in `BigEndianBytes` under `DelimitedBytes` whose delimiter
    /// starts with `delimiter`: every non-negative value below 2^56 starts with a `00` byte,
    /// which is not above the delimiter, so almost no value sorts (Google's own example in the
    /// `row_key_schema` reference is of this kind: accepted, but unsorted).
    BigEndianDelimited {
        /// The delimiter's first byte.
        delimiter: u8,
    },
    /// A negative value of an `Int64`/`Timestamp` field in `BigEndianBytes`: encodable
    /// (two's complement), not sorted.
    Negative {
        /// The value.
        value: i64,
    },
    /// Under `DelimitedBytes`, a field's encoding has a byte at or below the delimiter's first
    /// byte: encodable when the byte is below it, not sorted.
    NotAboveDelimiter {
        /// The byte.
        byte: u8,
        /// The delimiter's first byte.
        delimiter: u8,
        /// Its offset in the field's encoding.
        at: usize,
    },
    /// The values cannot be encoded (a value of the wrong type, a field's encoding containing
    /// the delimiter's first byte, or the wrong number of values).
    Unencodable(EncodeError),
}

impl FindingKind {
    /// How bad it is.
    pub fn severity(&self) -> Severity {
        match self {
            Self::BigEndianDelimited { .. }
            | Self::Negative { .. }
            | Self::NotAboveDelimiter { .. } => Severity::Unsorted,
            _ => Severity::Refused,
        }
    }
}

/// One finding of [`lint`], [`StructSchema::lint`] or [`StructSchema::lint_values`]: the
/// field it is about and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    field: String,
    index: Option<usize>,
    kind: FindingKind,
}

impl Finding {
    fn at(index: usize, field: &Field, kind: FindingKind) -> Self {
        Self {
            field: field.name.clone(),
            index: Some(index),
            kind,
        }
    }

    fn schema(kind: FindingKind) -> Self {
        Self {
            field: String::new(),
            index: None,
            kind,
        }
    }

    /// The field's name (empty for a finding about the whole schema, or for a field without a
    /// name: see [`index`](Finding::index)).
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The field's position in the schema (`None`: the whole schema).
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// What is wrong.
    pub fn kind(&self) -> &FindingKind {
        &self.kind
    }

    /// How bad it is.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "field {:?} (#{i}): ", self.field)?,
            None => f.write_str("schema: ")?,
        }
        match &self.kind {
            FindingKind::EmptyName => f.write_str(
                "a row key schema field needs a non-empty name (GoogleSQL reads it as a column)",
            ),
            FindingKind::ReservedName => write!(
                f,
                "{:?} is reserved by GoogleSQL for Bigtable (`_key` and `_timestamp`)",
                self.field
            ),
            FindingKind::DuplicateName { first } => {
                write!(f, "the same name as field #{first}")
            }
            FindingKind::FamilyName => write!(
                f,
                "{:?} is also a column family of the table: key field names must not collide with them",
                self.field
            ),
            FindingKind::SingletonFieldCount { fields } => write!(
                f,
                "a Singleton struct key has exactly one field, not {fields}"
            ),
            FindingKind::DelimiterLength { len } => {
                write!(f, "a DelimitedBytes delimiter has 1 to 50 bytes, not {len}")
            }
            FindingKind::BigEndianDelimited { delimiter } => write!(
                f,
                "BigEndianBytes under DelimitedBytes: every non-negative value below 2^56 has a \
                 00 byte, not above the delimiter's first byte 0x{delimiter:02X}, so keys do \
                 not sort (use OrderedCodeBytes, or the OrderedCodeBytes struct encoding)"
            ),
            FindingKind::Negative { value } => write!(
                f,
                "{value} is negative: BigEndianBytes writes it (two's complement, after every \
                 non-negative value) but sorted mode supports non-negative values only"
            ),
            FindingKind::NotAboveDelimiter {
                byte,
                delimiter,
                at,
            } => write!(
                f,
                "byte 0x{byte:02X} at {at} of the field's encoding is not above the delimiter's \
                 first byte 0x{delimiter:02X}: the key does not sort"
            ),
            FindingKind::Unencodable(e) => write!(f, "cannot be encoded: {e}"),
        }
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
            findings.push(Finding::at(i, field, FindingKind::EmptyName));
        } else if RESERVED_NAMES.contains(&field.name.as_str()) {
            findings.push(Finding::at(i, field, FindingKind::ReservedName));
        } else if let Some(first) = fields
            .iter()
            .take(i)
            .position(|earlier| earlier.name == field.name)
        {
            findings.push(Finding::at(i, field, FindingKind::DuplicateName { first }));
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
                    field,
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
                findings.push(Finding::at(i, field, FindingKind::FamilyName));
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
                findings.push(Finding::at(i, field, FindingKind::Unencodable(e)));
                continue;
            }
            if let (
                FieldType::Int64(Int64Encoding::BigEndianBytes)
                | FieldType::Timestamp(Int64Encoding::BigEndianBytes),
                Value::Int64(v) | Value::Timestamp(v),
            ) = (field.ty, value)
            {
                if *v < 0 {
                    findings.push(Finding::at(i, field, FindingKind::Negative { value: *v }));
                }
            }
            if let StructEncoding::DelimitedBytes(d) = self.encoding() {
                let Some(&first) = d.first() else { continue };
                if let Some(at) = bytes.iter().position(|&b| b == first) {
                    findings.push(Finding::at(
                        i,
                        field,
                        FindingKind::Unencodable(EncodeError::new(
                            &field.name,
                            EncodeErrorKind::ContainsSeparator { sep: first, at },
                        )),
                    ));
                } else if let Some(at) = bytes.iter().position(|&b| b < first) {
                    findings.push(Finding::at(
                        i,
                        field,
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
