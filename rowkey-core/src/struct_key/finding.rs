//! The findings of the row key schema lint: what the Bigtable admin API would refuse in a
//! schema, and values for which sorted mode would not hold (the rules are on
//! `struct_key::lint`, which with `StructSchema::lint*` lives in the parent module).

use core::fmt;

use crate::error::EncodeError;

/// The reserved key column names of GoogleSQL for Bigtable.
pub const RESERVED_NAMES: [&str; 2] = ["_key", "_timestamp"];

/// How bad a [`SchemaFinding`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SchemaSeverity {
    /// The key (or its values) is accepted, but keys do not sort as their values do: sorted
    /// mode does not hold, and GoogleSQL, which decodes keys in sorted mode, may fail on them.
    Unsorted,
    /// The API refuses the schema, or the values cannot be encoded at all.
    Refused,
}

/// What a [`SchemaFinding`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaFindingKind {
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

impl SchemaFindingKind {
    /// How bad it is.
    pub fn severity(&self) -> SchemaSeverity {
        match self {
            Self::BigEndianDelimited { .. }
            | Self::Negative { .. }
            | Self::NotAboveDelimiter { .. } => SchemaSeverity::Unsorted,
            _ => SchemaSeverity::Refused,
        }
    }
}

/// One finding of [`lint`](crate::struct_key::lint), [`StructSchema::lint`](crate::struct_key::StructSchema::lint) or [`StructSchema::lint_values`](crate::struct_key::StructSchema::lint_values): the
/// field it is about and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaFinding {
    field: String,
    index: Option<usize>,
    kind: SchemaFindingKind,
}

impl SchemaFinding {
    /// A finding about field `index`, named `field`.
    pub(crate) fn at(index: usize, field: &str, kind: SchemaFindingKind) -> Self {
        Self {
            field: field.to_owned(),
            index: Some(index),
            kind,
        }
    }

    /// A finding about the whole schema.
    pub(crate) fn schema(kind: SchemaFindingKind) -> Self {
        Self {
            field: String::new(),
            index: None,
            kind,
        }
    }

    /// The field's name (empty for a finding about the whole schema, or for a field without a
    /// name: see [`index`](SchemaFinding::index)).
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The field's position in the schema (`None`: the whole schema).
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// What is wrong.
    pub fn kind(&self) -> &SchemaFindingKind {
        &self.kind
    }

    /// How bad it is.
    pub fn severity(&self) -> SchemaSeverity {
        self.kind.severity()
    }
}

impl fmt::Display for SchemaFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "field {:?} (#{i}): ", self.field)?,
            None => f.write_str("schema: ")?,
        }
        match &self.kind {
            SchemaFindingKind::EmptyName => f.write_str(
                "a row key schema field needs a non-empty name (GoogleSQL reads it as a column)",
            ),
            SchemaFindingKind::ReservedName => write!(
                f,
                "{:?} is reserved by GoogleSQL for Bigtable (`_key` and `_timestamp`)",
                self.field
            ),
            SchemaFindingKind::DuplicateName { first } => {
                write!(f, "the same name as field #{first}")
            }
            SchemaFindingKind::FamilyName => write!(
                f,
                "{:?} is also a column family of the table: key field names must not collide with them",
                self.field
            ),
            SchemaFindingKind::SingletonFieldCount { fields } => write!(
                f,
                "a Singleton struct key has exactly one field, not {fields}"
            ),
            SchemaFindingKind::DelimiterLength { len } => {
                write!(f, "a DelimitedBytes delimiter has 1 to 50 bytes, not {len}")
            }
            SchemaFindingKind::BigEndianDelimited { delimiter } => write!(
                f,
                "BigEndianBytes under DelimitedBytes: every non-negative value below 2^56 has a \
                 00 byte, not above the delimiter's first byte 0x{delimiter:02X}, so keys do \
                 not sort (use OrderedCodeBytes, or the OrderedCodeBytes struct encoding)"
            ),
            SchemaFindingKind::Negative { value } => write!(
                f,
                "{value} is negative: BigEndianBytes writes it (two's complement, after every \
                 non-negative value) but sorted mode supports non-negative values only"
            ),
            SchemaFindingKind::NotAboveDelimiter {
                byte,
                delimiter,
                at,
            } => write!(
                f,
                "byte 0x{byte:02X} at {at} of the field's encoding is not above the delimiter's \
                 first byte 0x{delimiter:02X}: the key does not sort"
            ),
            SchemaFindingKind::Unencodable(e) => write!(f, "cannot be encoded: {e}"),
        }
    }
}
