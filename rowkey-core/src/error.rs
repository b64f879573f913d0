//! Encode and decode errors. Both name the field; decode errors also give the byte offset. An
//! error about the whole key rather than one field (trailing bytes, `max_len`) names the key
//! type instead, and an error inside a tagged key enum's variant names the variant too.

use core::fmt;

/// Why a value could not be encoded.
///
/// ```
/// use rowkey::{EncodeErrorKind, RowKey};
///
/// #[derive(RowKey)]
/// struct Order {
///     #[pad(3, fill = b' ')]
///     region: String,
///     #[reverse_ts]
///     ts: i64,
/// }
///
/// let err = Order { region: "eu1".into(), ts: -5 }.to_row_key().unwrap_err();
/// assert_eq!(err.field(), "ts");
/// match err.kind() {
///     EncodeErrorKind::TimestampOutOfRange { value } => assert_eq!(*value, -5),
///     other => panic!("unexpected {other}"),
/// }
/// let err = Order { region: "eu ".into(), ts: 5 }.to_row_key().unwrap_err();
/// assert_eq!(err.kind(), &EncodeErrorKind::EndsWithFill { fill: b' ' });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// `#[pad(N)]`: the content is longer than N bytes (never truncated).
    TooLong {
        /// Content length in bytes.
        len: usize,
        /// The pad width.
        max: usize,
    },
    /// `#[pad(N)]` on an unsigned integer: the value needs more than N decimal digits.
    TooManyDigits {
        /// The value, as decimal.
        value: u128,
        /// The pad width in digits.
        digits: usize,
    },
    /// `#[pad]`: the content ends in the fill byte, so decoding could not tell content from padding.
    EndsWithFill {
        /// The fill byte.
        fill: u8,
    },
    /// `#[reverse] #[pad]`: the content starts with the fill byte, which the reversal stores
    /// last, so decoding could not tell it from padding.
    StartsWithFill {
        /// The fill byte.
        fill: u8,
    },
    /// `#[sep(b'x')]`: the content contains the custom separator byte.
    ContainsSeparator {
        /// The separator byte.
        sep: u8,
        /// Offset of the first occurrence inside the content.
        at: usize,
    },
    /// `#[reverse_ts]`: the timestamp is negative or does not fit `i64`.
    TimestampOutOfRange {
        /// The value (`i128::MAX` for a `u128` above it).
        value: i128,
    },
    /// `#[rowkey(max_len = N)]`: the encoded key is longer than the budget.
    KeyTooLong {
        /// Encoded length.
        len: usize,
        /// The budget.
        max_len: usize,
    },
    /// The value is outside the range the key's column type can hold (a Phoenix `UNSIGNED_INT`
    /// above `i32::MAX`, a `DECIMAL` with more than 38 digits, …).
    ValueOutOfRange {
        /// The value, as text.
        value: String,
        /// What the column holds.
        range: &'static str,
    },
    /// A value the column cannot store in its place in the key (an empty string, which
    /// Phoenix stores as NULL in a NOT NULL column; a `VARBINARY` that is not the last column).
    NotStorable {
        /// Why.
        reason: &'static str,
    },
    /// A list of values for a described key ([`struct_key`](crate::struct_key)) has another
    /// number of values than the schema has fields.
    FieldCount {
        /// Fields in the schema.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// A Bigtable `DelimitedBytes` struct key in sorted mode
    /// ([`StructSchema::check_sorted`](crate::struct_key::StructSchema::check_sorted)): the
    /// field's encoding has a byte at or below the delimiter's first byte.
    NotAboveDelimiter {
        /// The byte.
        byte: u8,
        /// The delimiter's first byte.
        delimiter: u8,
        /// Offset of the byte in the field's encoding.
        at: usize,
    },
    /// A value of another type than its field's ([`struct_key`](crate::struct_key)).
    TypeMismatch {
        /// The field's type.
        expected: &'static str,
        /// The value's type.
        got: &'static str,
    },
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong { len, max } => write!(
                f,
                "content is {len} bytes, longer than #[pad({max})] (it would have to be truncated)"
            ),
            Self::TooManyDigits { value, digits } => {
                write!(f, "value {value} does not fit in #[pad({digits})] decimal digits")
            }
            Self::EndsWithFill { fill } => write!(
                f,
                "content ends with the fill byte 0x{fill:02X}, so decoding could not tell it from padding"
            ),
            Self::StartsWithFill { fill } => write!(
                f,
                "content starts with the fill byte 0x{fill:02X}, which #[reverse] stores last, so decoding could not tell it from padding"
            ),
            Self::ContainsSeparator { sep, at } => write!(
                f,
                "content contains the separator byte 0x{sep:02X} at content offset {at}"
            ),
            Self::TimestampOutOfRange { value } => write!(
                f,
                "#[reverse_ts] needs a timestamp in 0..=i64::MAX, got {value}{}",
                // a u128 above i128::MAX is reported as i128::MAX
                if *value == i128::MAX { " or more" } else { "" }
            ),
            Self::KeyTooLong { len, max_len } => {
                write!(f, "encoded key is {len} bytes, over max_len = {max_len}")
            }
            Self::ValueOutOfRange { value, range } => {
                write!(f, "value {value} is out of range: the column holds {range}")
            }
            Self::NotStorable { reason } => f.write_str(reason),
            Self::FieldCount { expected, got } => {
                write!(f, "{got} value(s) given for a key of {expected} field(s)")
            }
            Self::NotAboveDelimiter { byte, delimiter, at } => write!(
                f,
                "byte 0x{byte:02X} at field offset {at} is not above the delimiter's first byte 0x{delimiter:02X}, so the key would not sort"
            ),
            Self::TypeMismatch { expected, got } => {
                write!(f, "a value of type {got} given for a field of type {expected}")
            }
        }
    }
}

/// A value that cannot be encoded as a row key. Names the field.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Host {
///     #[pad(4)]
///     name: String,
///     port: u16,
/// }
///
/// let err = Host { name: "host12".into(), port: 80 }.to_row_key().unwrap_err();
/// assert_eq!(err.field(), "name");
/// assert_eq!(
///     err.to_string(),
///     "cannot encode field `name`: content is 6 bytes, longer than #[pad(4)] (it would have to be truncated)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    // Boxed: keeps `Result<(), EncodeError>` one word, so the hot path returns in a register.
    inner: Box<EncodeErrorInner>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct EncodeErrorInner {
    field: String,
    key: &'static str,
    variant: Option<&'static str>,
    kind: EncodeErrorKind,
}

impl EncodeError {
    /// An error for `field` (for a codec of your own; derived code builds these for you).
    ///
    /// ```
    /// use rowkey::{EncodeError, EncodeErrorKind};
    ///
    /// let e = EncodeError::new("name", EncodeErrorKind::TooLong { len: 6, max: 4 })
    ///     .in_field("host"); // raised inside a nested key's field `host`
    /// assert_eq!(e.field(), "host.name");
    /// assert_eq!(e.kind(), &EncodeErrorKind::TooLong { len: 6, max: 4 });
    /// ```
    #[cold]
    pub fn new(field: &str, kind: EncodeErrorKind) -> Self {
        Self {
            inner: Box::new(EncodeErrorInner {
                field: field.to_owned(),
                key: "",
                variant: None,
                kind,
            }),
        }
    }

    /// Name the key type of an error about the whole key (derived code does it for `max_len`).
    /// A name given before is kept.
    ///
    /// ```
    /// use rowkey::{EncodeError, EncodeErrorKind};
    ///
    /// let e = EncodeError::new("", EncodeErrorKind::KeyTooLong { len: 12, max_len: 10 }).in_key("Budget");
    /// assert_eq!((e.field(), e.key()), ("", "Budget"));
    /// assert_eq!(e.to_string(), "cannot encode key `Budget`: encoded key is 12 bytes, over max_len = 10");
    /// ```
    #[cold]
    #[must_use]
    pub fn in_key(mut self, key: &'static str) -> Self {
        if self.inner.key.is_empty() {
            self.inner.key = key;
        }
        self
    }

    /// Name the tagged key enum's variant the error happened in (derived code does it).
    ///
    /// ```
    /// use rowkey::{EncodeError, EncodeErrorKind};
    ///
    /// let e = EncodeError::new("ts", EncodeErrorKind::TimestampOutOfRange { value: -1 }).in_variant("Buyer");
    /// assert_eq!((e.field(), e.variant()), ("ts", Some("Buyer")));
    /// assert!(e.to_string().starts_with("cannot encode field `ts` of variant `Buyer`: "));
    /// ```
    #[cold]
    #[must_use]
    pub fn in_variant(mut self, variant: &'static str) -> Self {
        self.inner.variant = Some(variant);
        self
    }

    /// Prefix the field path with an enclosing field (nested keys): `outer.inner`.
    #[cold]
    #[must_use]
    pub fn in_field(mut self, outer: &str) -> Self {
        self.inner.field = if self.inner.field.is_empty() {
            outer.to_owned()
        } else {
            format!("{outer}.{}", self.inner.field)
        };
        self
    }

    /// The field whose value cannot be encoded: its name, a dotted path for nested keys
    /// (`host.name`). Empty when the error is about the whole key (`max_len`): then
    /// [`key`](Self::key) names the key type.
    pub fn field(&self) -> &str {
        &self.inner.field
    }

    /// The key type (its `LAYOUT.name`) of an error about the whole key, such as `max_len`;
    /// empty for an error about one field, which [`field`](Self::field) names.
    pub fn key(&self) -> &str {
        self.inner.key
    }

    /// The variant of a tagged key enum (`#[rowkey(tag = ..)]`) the error happened in: which of
    /// the variants' keys the [`field`](Self::field) belongs to.
    pub fn variant(&self) -> Option<&str> {
        self.inner.variant
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.inner.kind
    }
}

/// `` `Key` ``, `` `Key::Variant` ``, `` variant `Variant` `` or nothing.
fn whose(key: &str, variant: Option<&str>) -> String {
    match (key.is_empty(), variant) {
        (false, Some(v)) => format!("`{key}::{v}`"),
        (false, None) => format!("`{key}`"),
        (true, Some(v)) => format!("variant `{v}`"),
        (true, None) => String::new(),
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whose = whose(self.inner.key, self.inner.variant);
        match (self.inner.field.is_empty(), whose.is_empty()) {
            (true, true) => write!(f, "cannot encode key: {}", self.inner.kind),
            (true, false) => write!(f, "cannot encode key {whose}: {}", self.inner.kind),
            (false, true) => write!(
                f,
                "cannot encode field `{}`: {}",
                self.inner.field, self.inner.kind
            ),
            (false, false) => write!(
                f,
                "cannot encode field `{}` of {whose}: {}",
                self.inner.field, self.inner.kind
            ),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why bytes could not be decoded.
///
/// ```
/// use rowkey::{DecodeErrorKind, RowKey};
///
/// #[derive(RowKey, Debug)]
/// struct Event {
///     uid: u32,
///     flag: bool,
/// }
///
/// let err = Event::from_row_key(b"\x00\x00").unwrap_err();
/// // the offset is where the bytes ran out; the field has 2 bytes and needs 2 more
/// assert_eq!((err.field(), err.offset()), ("uid", 2));
/// assert_eq!(err.kind(), &DecodeErrorKind::Truncated { needed: 2, available: 2 });
///
/// let err = Event::from_row_key(b"\x00\x00\x00\x07\x02").unwrap_err();
/// assert_eq!((err.field(), err.offset()), ("flag", 4));
/// assert!(matches!(err.kind(), DecodeErrorKind::InvalidByte { byte: 2, .. }));
///
/// let err = Event::from_row_key(b"\x00\x00\x00\x07\x01!").unwrap_err();
/// assert_eq!(err.kind(), &DecodeErrorKind::TrailingBytes { count: 1 });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The key ends before the field does (the error's offset is the end of the key).
    Truncated {
        /// How many bytes more the field needs, at least.
        needed: usize,
        /// How many bytes the field has: from its start to the end of the key.
        available: usize,
    },
    /// Bytes are left after the last field.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A byte that this encoding never produces (bad bool, presence byte, escape, digit, …).
    InvalidByte {
        /// The byte.
        byte: u8,
        /// What was expected.
        expected: &'static str,
    },
    /// The content is not UTF-8.
    InvalidUtf8,
    /// Not a valid `char`.
    InvalidChar {
        /// The code point read.
        value: u32,
    },
    /// No terminator found for a separated field.
    MissingTerminator,
    /// A decimal or reversed-timestamp value that does not fit the field's type.
    OutOfRange,
    /// The salt does not match the salted prefix: the key belongs to another layout or was altered.
    SaltMismatch {
        /// Salt stored in the key.
        stored: u32,
        /// Salt recomputed from the key.
        computed: u32,
    },
    /// The hash prefix does not match the field: another layout, or an altered key.
    HashMismatch,
    /// A code that no enum variant has.
    UnknownVariant {
        /// The code read.
        code: u64,
    },
    /// Padding that a canonical encoding would not produce.
    NonCanonical(&'static str),
    /// A borrowed field (`&str`, `&[u8]`) cannot hold escaped content: use an owned type.
    NeedsOwned,
    /// The key does not start with its layout's constant prefix (`#[rowkey(prefix = ..)]`).
    PrefixMismatch {
        /// The prefix the layout writes.
        expected: &'static [u8],
    },
    /// The key starts with no tag of a tagged key enum's variants.
    UnknownTag,
    /// Longer than the layout's `#[rowkey(max_len = N)]`: never written by this layout.
    KeyTooLong {
        /// Key length.
        len: usize,
        /// The budget.
        max_len: usize,
    },
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { needed, available } => write!(
                f,
                "key ends early: needs {needed} more byte(s) (the field has {available})"
            ),
            Self::TrailingBytes { count } => write!(f, "{count} unexpected byte(s) after the last field"),
            Self::InvalidByte { byte, expected } => {
                write!(f, "invalid byte 0x{byte:02X}, expected {expected}")
            }
            Self::InvalidUtf8 => f.write_str("content is not valid UTF-8"),
            Self::InvalidChar { value } => write!(f, "0x{value:X} is not a Unicode scalar value"),
            Self::MissingTerminator => f.write_str("no terminator before the end of the key"),
            Self::OutOfRange => f.write_str("value does not fit the field's type"),
            Self::SaltMismatch { stored, computed } => write!(
                f,
                "salt mismatch: key has {stored}, its salted prefix hashes to {computed} (a key of another layout, or altered)"
            ),
            Self::HashMismatch => f.write_str(
                "hash prefix does not match the field value (a key of another layout, or altered)",
            ),
            Self::UnknownVariant { code } => write!(f, "unknown enum code {code}"),
            Self::NonCanonical(what) => write!(f, "non-canonical encoding: {what}"),
            Self::PrefixMismatch { expected } => write!(
                f,
                "does not start with the layout's prefix \"{}\" (a key of another layout or keyspace)",
                crate::hbase::to_string_binary(expected)
            ),
            Self::UnknownTag => f.write_str("starts with no variant's tag (a key of another keyspace)"),
            Self::KeyTooLong { len, max_len } => {
                write!(f, "key is {len} bytes, over max_len = {max_len}")
            }
            Self::NeedsOwned => f.write_str(
                "escaped content cannot be borrowed: use String / Vec<u8> for this field",
            ),
        }
    }
}

/// Bytes that are not a key of this layout. Names the field and the byte offset.
///
/// ```
/// use rowkey::{DecodeErrorKind, RowKey};
///
/// #[derive(RowKey, Debug)]
/// struct Event {
///     uid: u32,
///     #[sep]
///     kind: String,
/// }
///
/// let err = Event::from_row_key(b"\x00\x00\x00\x07click").unwrap_err();
/// assert_eq!(err.field(), "kind");
/// assert_eq!(err.offset(), 9); // where the key ended without the field's terminator
/// assert_eq!(err.kind(), &DecodeErrorKind::MissingTerminator);
/// assert_eq!(
///     err.to_string(),
///     "cannot decode field `kind` at byte 9: no terminator before the end of the key"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    // Boxed: keeps decode results small, so the hot path returns in registers.
    inner: Box<DecodeErrorInner>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct DecodeErrorInner {
    field: String,
    key: &'static str,
    variant: Option<&'static str>,
    offset: usize,
    kind: DecodeErrorKind,
}

impl DecodeError {
    /// An error at `offset` (relative to where the current decoder started), not yet tied to a
    /// field (for a codec of your own; derived code builds these for you).
    ///
    /// ```
    /// use rowkey::{DecodeError, DecodeErrorKind};
    ///
    /// // a codec's value needs 4 bytes, 2 are left; its field `port` starts at byte 10 of a
    /// // nested key `addr` that starts at byte 3 of the whole key
    /// let e = DecodeError::truncated(0, 4, 2).in_field("port", 10).in_field("addr", 3);
    /// assert_eq!((e.field(), e.offset()), ("addr.port", 13));
    /// let e = DecodeError::new(DecodeErrorKind::InvalidUtf8, 1).shifted(4);
    /// assert_eq!(e.offset(), 5);
    /// ```
    #[cold]
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        Self {
            inner: Box::new(DecodeErrorInner {
                field: String::new(),
                key: "",
                variant: None,
                offset,
                kind,
            }),
        }
    }

    /// `Truncated` at `offset`.
    #[cold]
    pub fn truncated(offset: usize, needed: usize, available: usize) -> Self {
        Self::new(DecodeErrorKind::Truncated { needed, available }, offset)
    }

    /// Attach the error to `field`, which starts at byte `base`: the offset becomes
    /// `base + offset`, and a nested field path becomes `field.inner`.
    #[cold]
    #[must_use]
    pub fn in_field(mut self, field: &str, base: usize) -> Self {
        self.inner.offset = self.inner.offset.saturating_add(base);
        self.inner.field = if self.inner.field.is_empty() {
            field.to_owned()
        } else {
            format!("{field}.{}", self.inner.field)
        };
        self
    }

    /// Move the offset by `by` bytes (the error happened `by` bytes into an enclosing value).
    #[cold]
    #[must_use]
    pub fn shifted(mut self, by: usize) -> Self {
        self.inner.offset = self.inner.offset.saturating_add(by);
        self
    }

    /// Name the key type of an error about the whole key (derived code does it for trailing
    /// bytes and `max_len`). A name given before is kept.
    ///
    /// ```
    /// use rowkey::{DecodeError, DecodeErrorKind};
    ///
    /// let e = DecodeError::new(DecodeErrorKind::TrailingBytes { count: 2 }, 12).in_key("Two");
    /// assert_eq!((e.field(), e.key()), ("", "Two"));
    /// assert_eq!(e.to_string(), "cannot decode key `Two` at byte 12: 2 unexpected byte(s) after the last field");
    /// ```
    #[cold]
    #[must_use]
    pub fn in_key(mut self, key: &'static str) -> Self {
        if self.inner.key.is_empty() {
            self.inner.key = key;
        }
        self
    }

    /// Name the tagged key enum's variant the error happened in (derived code does it).
    ///
    /// ```
    /// use rowkey::{DecodeError, DecodeErrorKind};
    ///
    /// let e = DecodeError::new(DecodeErrorKind::MissingTerminator, 4)
    ///     .in_field("order_no", 0)
    ///     .in_variant("Buyer");
    /// assert_eq!((e.field(), e.variant()), ("order_no", Some("Buyer")));
    /// assert_eq!(
    ///     e.to_string(),
    ///     "cannot decode field `order_no` of variant `Buyer` at byte 4: no terminator before the end of the key"
    /// );
    /// ```
    #[cold]
    #[must_use]
    pub fn in_variant(mut self, variant: &'static str) -> Self {
        self.inner.variant = Some(variant);
        self
    }

    /// The field that does not decode: its name, a dotted path for nested keys (`addr.port`).
    /// Empty when the error is about the whole key (trailing bytes, `max_len`): then
    /// [`key`](Self::key) names the key type. A key's constant prefix and a tagged enum's tag
    /// are named `prefix` and `tag`, the salt by the field that carries it (or `salt`).
    pub fn field(&self) -> &str {
        &self.inner.field
    }

    /// The key type (its `LAYOUT.name`) of an error about the whole key, such as trailing
    /// bytes or `max_len`; empty for an error about one field, which [`field`](Self::field)
    /// names.
    pub fn key(&self) -> &str {
        self.inner.key
    }

    /// The variant of a tagged key enum (`#[rowkey(tag = ..)]`) the error happened in: which of
    /// the variants' keys the [`field`](Self::field) belongs to (several variants may have a
    /// field of the same name).
    pub fn variant(&self) -> Option<&str> {
        self.inner.variant
    }

    /// Byte offset in the key where the problem is.
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.inner.kind
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whose = whose(self.inner.key, self.inner.variant);
        let (offset, kind) = (self.inner.offset, &self.inner.kind);
        match (self.inner.field.is_empty(), whose.is_empty()) {
            (true, true) => write!(f, "cannot decode key at byte {offset}: {kind}"),
            (true, false) => write!(f, "cannot decode key {whose} at byte {offset}: {kind}"),
            (false, true) => write!(
                f,
                "cannot decode field `{}` at byte {offset}: {kind}",
                self.inner.field
            ),
            (false, false) => write!(
                f,
                "cannot decode field `{}` of {whose} at byte {offset}: {kind}",
                self.inner.field
            ),
        }
    }
}

impl std::error::Error for DecodeError {}
