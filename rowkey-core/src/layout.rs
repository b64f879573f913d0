//! Introspection of a key layout: what `#[derive(RowKey)]` knows about a key, as a `const`.
//!
//! Every derived type has [`RowKey::LAYOUT`](crate::RowKey::LAYOUT). Tools (region planning,
//! `describe`, documentation generators) read it instead of re-parsing attributes.
//!
//! ```
//! use rowkey::{RowKey, layout::{FieldEncoding, SaltKind}};
//!
//! #[derive(RowKey)]
//! struct Metric {
//!     #[salt(buckets = 16)]
//!     #[sep]
//!     host: String,
//!     ts: u64,
//! }
//!
//! let layout = Metric::LAYOUT;
//! assert_eq!(layout.name, "Metric");
//! assert_eq!(layout.fields[0].name, "host");
//! assert_eq!(layout.fields[0].encoding, FieldEncoding::Sep);
//! let salt = layout.salt.unwrap();
//! assert_eq!((salt.buckets, salt.width, salt.through_field), (16, 1, 0));
//! assert_eq!(salt.kind, SaltKind::Phoenix);
//! assert_eq!(layout.fixed_width, None); // `host` is variable-length
//! ```

/// The layout of one key type.
///
/// ```
/// use rowkey::layout::{HashPrefix, Layout, SaltLayout};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// #[rowkey(prefix = b"ev:", salt(buckets = 300))]
/// struct Event {
///     #[hash_prefix(4)]
///     uid: u64,
///     seq: u32,
/// }
///
/// let l: &Layout = Event::LAYOUT;
/// assert_eq!(SaltLayout::width_for(300), 2); // more than 256 buckets: a 2-byte salt
/// assert_eq!(l.salt_end(), 3 + 2); // prefix and salt come before the logical key
/// let uid = &l.fields[0];
/// assert_eq!(uid.hash_prefix, Some(HashPrefix { width: 4, raw: false }));
/// assert_eq!((uid.width, uid.total_width()), (Some(8), Some(12)));
/// assert_eq!(Layout::key_width_of_fields(l.fields), Some(12 + 4));
/// assert_eq!(l.fixed_width, Some(3 + 2 + 16));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The Rust type name.
    pub name: &'static str,
    /// A constant prefix every key starts with (`#[rowkey(prefix = b"..")]`), before the salt.
    pub prefix: &'static [u8],
    /// The fields in key order.
    pub fields: &'static [FieldLayout],
    /// The salt, if the key starts with one.
    pub salt: Option<SaltLayout>,
    /// Total width in bytes when every value encodes to the same length.
    pub fixed_width: Option<usize>,
    /// The `#[rowkey(max_len = N)]` budget.
    pub max_len: Option<usize>,
}

/// What one field looks like in the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLayout {
    /// Field name (`"0"`, `"1"`, … for tuple structs).
    pub name: &'static str,
    /// The Rust type as written.
    pub ty: &'static str,
    /// How the value is turned into bytes.
    pub encoding: FieldEncoding,
    /// Width of the value bytes when fixed (excluding any hash prefix).
    pub width: Option<usize>,
    /// `#[desc]`: bytes inverted, order reversed.
    pub desc: bool,
    /// `#[hash_prefix]` in front of the value.
    pub hash_prefix: Option<HashPrefix>,
}

impl FieldLayout {
    /// Width of the whole field (hash prefix plus value), when fixed.
    pub const fn total_width(&self) -> Option<usize> {
        match (self.width, self.hash_prefix) {
            (Some(w), Some(h)) => Some(w + h.width),
            (Some(w), None) => Some(w),
            (None, _) => None,
        }
    }
}

/// The encoding chosen for a field by its type and attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldEncoding {
    /// The type's own order-preserving encoding (big-endian integers, total-order floats, …;
    /// strings and bytes as raw content when they are the last field).
    Natural,
    /// Java `Bytes.toBytes` encodings (two's-complement integers, raw IEEE floats, 0x00/0xFF booleans).
    Java,
    /// `#[pad(N)]` / `#[pad(N, fill = b)]`: right-padded to `len` bytes (strings and bytes) or
    /// `len` ASCII decimal digits (unsigned integers).
    Pad {
        /// Width in bytes / digits.
        len: usize,
        /// Fill byte for strings and bytes.
        fill: u8,
    },
    /// `#[sep]`: escaped content followed by a 0x00 terminator.
    Sep,
    /// `#[sep(b'|')]`: content followed by a custom separator byte (interop).
    SepByte(u8),
    /// `#[reverse_ts]`: `i64::MAX - ts`, 8 bytes big-endian.
    ReverseTs,
    /// A column of an Apache Phoenix primary key (`#[rowkey(phoenix)]`): Phoenix's bytes
    /// for its SQL type, a separator after a variable-width value that is not last.
    Phoenix,
    /// A field of a Bigtable struct key (`#[rowkey(bigtable(..))]`): the row key schema's
    /// encoding of its type, joined as the struct encoding joins fields.
    BigtableStruct,
    /// `#[reverse]` on top of the natural or padded encoding.
    Reverse {
        /// The width of the reversed, fixed-width encoding.
        len: usize,
        /// Whether the reversed encoding is the padded one.
        padded: bool,
    },
}

/// A `#[hash_prefix(N)]` / `#[hash_prefix(N, raw)]` in front of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashPrefix {
    /// Bytes taken in the key: N hex characters, or N raw digest bytes.
    pub width: usize,
    /// Raw digest bytes rather than lowercase hex characters.
    pub raw: bool,
}

/// A salt in front of the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaltLayout {
    /// Number of buckets (1..=65536).
    pub buckets: u32,
    /// Salt width in bytes: 1 for up to 256 buckets, else 2 (big-endian).
    pub width: usize,
    /// Index of the last salted field: once the fields up to it are fixed, the salt is known.
    pub through_field: usize,
    /// The fields whose encodings the salt hashes, in key order (`0..=through_field` for a
    /// salted prefix; the named ones for `salt(buckets = N, fields(..))`).
    pub fields: &'static [usize],
    /// How the bucket is computed.
    pub kind: SaltKind,
}

/// How a salt bucket is computed from the salted prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaltKind {
    /// Java `Arrays.hashCode` over the signed encoded bytes, `abs(h % N)` (Apache Phoenix).
    Phoenix,
    /// `value % N` of a single unsigned-integer salted prefix (time buckets).
    Modulo,
}

impl SaltLayout {
    /// Salt width for a bucket count: 1 byte up to 256 buckets, else 2.
    pub const fn width_for(buckets: u32) -> usize {
        if buckets <= 256 {
            1
        } else {
            2
        }
    }
}

impl Layout {
    /// Bytes before the first field: the constant prefix and the salt. Keys of one layout
    /// compare in logical order after these bytes (what merging a fanned-out scan skips).
    pub const fn salt_end(&self) -> usize {
        self.prefix.len()
            + match self.salt {
                Some(s) => s.width,
                None => 0,
            }
    }

    /// Sum of the fields' fixed widths (hash prefixes included), or `None` if any field is
    /// variable-length. Used by the derive to compute [`Layout::fixed_width`].
    pub const fn key_width_of_fields(fields: &[FieldLayout]) -> Option<usize> {
        let mut total = 0;
        let mut rest = fields;
        while let [first, tail @ ..] = rest {
            match first.total_width() {
                Some(w) => total += w,
                None => return None,
            }
            rest = tail;
        }
        Some(total)
    }
}
