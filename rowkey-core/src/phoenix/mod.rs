//! Apache Phoenix row keys: the bytes Phoenix writes for a composite `PRIMARY KEY`, value by
//! value ([`PhoenixType`]), assembled into a key ([`KeyWriter`]) and read back
//! ([`KeyReader`]), and the `CREATE TABLE` of such a key ([`create_table`]).
//!
//! The runtime half of a Phoenix key mode: every rule below was read in Phoenix 5.2.1's
//! sources (`PTableImpl.newKey`, `SchemaUtil.getSeparatorByte`, `RowKeySchema.next`, the
//! `PDataType`s) and checked against a live Phoenix 5.2.1 (`rowkey-hbase/tests/hbase/phoenix_types.rs`
//! upserts random rows through Phoenix SQL and compares the stored row keys byte for byte).
//!
//! ```
//! use rowkey::phoenix::{KeyReader, KeyWriter};
//!
//! // CREATE TABLE METRICS (HOST VARCHAR NOT NULL, TS BIGINT NOT NULL, SEQ INTEGER NOT NULL
//! //     CONSTRAINT pk PRIMARY KEY (HOST, TS DESC, SEQ)) SALT_BUCKETS = 4
//! let mut w = KeyWriter::new(Some(4), true);
//! w.field("host", "web-1", false, false)?;
//! w.field("ts", &1_700_000_000_000i64, true, false)?;
//! w.field("seq", &7i32, false, true)?;
//! let key = w.finish()?;
//! assert_eq!(key[0], rowkey::salt::phoenix(&key[1..], 4) as u8); // the salt byte
//! assert_eq!(&key[1..7], b"web-1\x00"); // VARCHAR, then the 0x00 separator
//! assert_eq!(key[7], !0x80); // BIGINT DESC: sign bit flipped, every byte inverted
//!
//! let mut r = KeyReader::new(&key, Some(4), true)?;
//! let host: String = r.field("host", false, false)?;
//! let ts: i64 = r.field("ts", true, false)?;
//! let seq: i32 = r.field("seq", false, true)?;
//! r.finish()?;
//! assert_eq!((host.as_str(), ts, seq), ("web-1", 1_700_000_000_000, 7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What generated code calls
//!
//! For a key type with fields `f1 … fn` (in primary-key order), `desc_i` its DESC flags,
//! `SALT` its `Option<u32>` bucket count and `OPT` the table's `rowKeyOrderOptimizable` flag
//! (`true` for every table created by a Phoenix with the fix of PHOENIX-2067, which is every
//! current release; `false` for older tables not upgraded):
//!
//! * encode: `let mut w = KeyWriter::with_buffer(buf, SALT, OPT);` then
//!   `w.field("f1", &self.f1, desc_1, false)?;` … `w.field("fn", &self.fn, desc_n, true)?;` and
//!   `w.finish()?` (the key; errors name the field);
//! * decode: `let mut r = KeyReader::new(bytes, SALT, OPT)?;` then
//!   `let f1 = r.field("f1", desc_1, false)?;` … `let fn = r.field("fn", desc_n, true)?;` and
//!   `r.finish()?` (errors name the field and the byte offset);
//! * DDL: `create_table("S.T", &[Column::of::<F1>("f1", desc_1), …], &[], SALT)`.
//!
//! # Types
//!
//! | Rust | Phoenix | bytes (ASC; DESC inverts every byte) |
//! |---|---|---|
//! | `i8`, `i16`, `i32`, `i64` | `TINYINT`, `SMALLINT`, `INTEGER`, `BIGINT` | big-endian, sign bit flipped |
//! | `u8`, `u16`, `u32`, `u64` | `UNSIGNED_TINYINT` … `UNSIGNED_LONG` | big-endian; values above the signed maximum are refused (Phoenix's range) |
//! | `f32`, `f64` | `FLOAT`, `DOUBLE` | IEEE bits, negatives inverted, positives with the sign bit set, **plus one**; NaN canonical |
//! | `bool` | `BOOLEAN` | `0x00` / `0x01` |
//! | `String`, `&str`, `str` | `VARCHAR` | UTF-8, variable width |
//! | [`Char<N>`] | `CHAR(N)` | ASCII, right-padded with spaces to `N` |
//! | `Vec<u8>`, `&[u8]`, `[u8]` | `VARBINARY` | raw, variable width; only as the last column, only ASC |
//! | `[u8; N]` | `BINARY(N)` | raw, exactly `N` bytes |
//! | `bigdecimal::BigDecimal` (feature `phoenix-decimal`) | `DECIMAL` | exponent byte, base-100 digits; negatives inverted with a `0x66` terminator; variable width |
//! | [`Date`], [`Time`] | `DATE`, `TIME` | epoch milliseconds as `BIGINT` |
//! | [`Timestamp`], `chrono::DateTime<Utc>`, `chrono::NaiveDateTime` (feature `phoenix-time`) | `TIMESTAMP` | epoch milliseconds as `BIGINT`, then the nanoseconds within the millisecond as 4 bytes big-endian |
//! | `Option<T>`, `T` variable width | the same, nullable | NULL is no bytes |
//!
//! # The key
//!
//! * The salt byte first when the table has `SALT_BUCKETS = n`: Java's `Arrays.hashCode` of
//!   the rest of the key, `abs(h % n)` ([`crate::salt::phoenix`]).
//! * Fixed-width values are concatenated.
//! * A variable-width value (`VARCHAR`, `DECIMAL`, `VARBINARY`) of a column that is not the
//!   table's last is followed by a separator: `0x00`, or `0xFF` after a non-NULL DESC value in
//!   a `rowKeyOrderOptimizable` table (every table created since PHOENIX-2067; older tables
//!   keep `0x00`).
//! * Trailing NULLs are not written at all, and the key then ends after the last value
//!   written — with one `0xFF` when that value is a non-NULL DESC variable-width one (also when
//!   it is the table's last column).
//! * NULL in the middle is an empty value followed by its separator, which is `0x00` even for a
//!   DESC column.
//!
//! # Refused (an [`EncodeError`] naming the field, never a panic)
//!
//! * Values outside the Phoenix type's range: unsigned integers above the signed maximum
//!   (`UNSIGNED_TINYINT` holds 0..=127), `DECIMAL`s with more than 38 significant digits (Phoenix
//!   would round them) or an exponent its own decoder misreads, timestamps with 1,000,000
//!   nanoseconds or more within the millisecond.
//! * An empty `VARCHAR`/`VARBINARY`/`CHAR`: Phoenix stores `''` as NULL (write `None`).
//! * A `VARCHAR` or `DECIMAL` value holding a `0x00` or `0xFF` byte (as stored) when it is not
//!   the table's last column: `'\0'` in a `VARCHAR`, a `DECIMAL` whose exponent byte is
//!   `0x00`/`0xFF` (near `±1E125`). Phoenix would end the value there when reading.
//! * A `CHAR(N)` value that is not ASCII, longer than `N` or ends with a space (Phoenix pads
//!   with spaces and strips them when reading).
//! * `VARBINARY` as any column but the last, or DESC (Phoenix refuses both in DDL).
//! * A key whose values are all NULL (Phoenix: "Primary key may not be null").
//!
//! Fixed-width columns cannot be nullable in a Phoenix primary key ("PK columns may not be
//! both fixed width and nullable"), so `Option` is implemented only for the variable-width
//! types ([`VariableWidth`]).
//!
//! # Found on the live Phoenix 5.2.1, not in the sources' comments
//!
//! * `BOOLEAN DESC` is stored inverted (`0xFE` true, `0xFF` false) like every other type, but
//!   Phoenix's own `SELECT` reads every such value back as `false` (a Phoenix bug): the bytes
//!   here are what it stores.
//! * `-0.0` and `NaN` and `±Infinity` are stored (through `DOUBLE` arithmetic; the literal
//!   `-0.0` is the `DECIMAL` zero), `-0.0` before `+0.0`, NaN after `+Infinity`.
//! * A 38-digit negative `DECIMAL` with an odd scale has no `0x66` terminator (22 bytes would
//!   not fit Phoenix's 21-byte maximum).
//! * Phoenix's `SELECT` (`RowKeyValueAccessor`) drops a trailing `0xFF` from the last key
//!   column whatever its sort order, so an ascending `VARBINARY` ending with `0xFF` comes back
//!   one byte short; and it ends any other variable-width column at a `0x00` or an `0xFF`.
//!   Phoenix's `UPSERT` writes such a `VARBINARY` whole, and rowkey reads and writes the bytes
//!   stored (so a read can page past such a row with `after(&row)`): the value rowkey decodes
//!   is one byte longer than the one Phoenix's `SELECT` returns for the same row.
//! * `DECIMAL` magnitudes from `1E+126` to below `1E+130` wrap Phoenix's exponent byte (to
//!   `0x80`/`0x81` for positive values, `0x7E`/`0x7F` for negative ones) and Phoenix reads every
//!   one back exactly: rowkey writes and reads them as Phoenix does. Their bytes sort next to
//!   zero instead of beyond `±9.99E+125`, so a typed range on a `DECIMAL` column is cut into up
//!   to three byte ranges around those zones: it returns exactly the rows whose values are in
//!   it (the wrapped values included when the range reaches them, never otherwise).
//! * A `CREATE TABLE` in the middle of a script drops the connection's uncommitted upserts
//!   (a test-harness matter, noted for whoever scripts Phoenix).
//! * Rows written without Phoenix need one cell besides the key: Phoenix's empty column
//!   (family `0`, qualifier `\x00\x00\x00\x00`, value `x` in a table with Phoenix 5's default
//!   column encoding); `rowkey-hbase/tests/hbase/phoenix_types.rs` writes rows that way and reads them
//!   back through Phoenix's `SELECT`.
//! * `VARBINARY_ENCODED` (Phoenix 5.3) does not exist in 5.2.1; it is not supported here.

use std::borrow::Cow;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

mod codec;
mod key;
mod text;
mod types;

#[cfg(feature = "phoenix-decimal")]
mod decimal;
mod time;

#[cfg(test)]
mod tests;

pub use time::{Date, Time, Timestamp};

/// The `bigdecimal` crate (feature `phoenix-decimal`), whose `BigDecimal` is `DECIMAL`.
#[cfg(feature = "phoenix-decimal")]
pub use bigdecimal;
/// The `chrono` crate (feature `phoenix-time`), whose `DateTime<Utc>` and `NaiveDateTime`
/// are `TIMESTAMP`.
#[cfg(feature = "phoenix-time")]
pub use chrono;
pub use codec::{Clamp, Col, LastCol, Stored, Zones};
pub use key::PhoenixKey;
pub use types::Char;

/// The largest `SALT_BUCKETS` Phoenix allows (one salt byte).
pub const MAX_SALT_BUCKETS: u32 = 256;

/// The separator after a non-NULL ascending value, and after every NULL.
pub const SEPARATOR: u8 = 0x00;
/// The separator after a non-NULL descending value in a `rowKeyOrderOptimizable` table.
pub const DESC_SEPARATOR: u8 = 0xFF;

/// A Rust type that is a Phoenix primary-key column type: its SQL type and its value bytes.
///
/// `encode` writes the bytes of one value as Phoenix stores it in a row key, every byte
/// inverted when `desc` (Phoenix's `SortOrder.DESC`); separators and the salt are the
/// [`KeyWriter`]'s. Implemented for the types of the [module table](self#types).
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` has no Phoenix column type",
    label = "not a Phoenix primary-key column type",
    note = "a Phoenix key's fields are integers up to 64 bits, f32/f64, bool, String (VARCHAR), rowkey::phoenix::Char<N>, [u8; N] (BINARY), Vec<u8> (VARBINARY, last), rowkey::phoenix::Date / Time / Timestamp, BigDecimal (feature phoenix-decimal), chrono date-times (feature phoenix-time), or Option of the variable-width ones"
)]
pub trait PhoenixType {
    /// `Some(width)` for a fixed-width type, `None` for a variable-width one (followed by a
    /// separator when not the table's last column).
    const WIDTH: Option<usize>;
    /// Whether the column is nullable (`Option`).
    const NULLABLE: bool = false;
    /// `VARBINARY`: only the table's last column, only ascending.
    const LAST_ONLY: bool = false;

    /// The Phoenix SQL type for DDL: `"BIGINT"`, `"VARCHAR"`, `"CHAR(8)"`, `"BINARY(16)"`.
    fn sql_type() -> Cow<'static, str>;

    /// Whether this value is NULL (`None`).
    fn is_null(&self) -> bool {
        false
    }

    /// Where this value lies among the storable ones when Phoenix cannot store it (`encode`
    /// refuses it, or it is empty): what a typed scan bound at it means. Every value `encode`
    /// refuses must be placed exactly; the default, [`Clamp::Above`], is right for the types
    /// whose only unstorable values lie above every storable one (unsigned integers).
    #[doc(hidden)]
    fn unstorable(&self) -> Clamp {
        Clamp::Above
    }

    /// For a type whose bytes leave its value order in places (`DECIMAL`'s wrapped exponent
    /// bytes): its [`Zones`], so that a range becomes byte ranges that hold exactly its values.
    /// `None` (the default): the bytes sort as the values (ascending, or descending when DESC).
    #[doc(hidden)]
    const ZONES: Option<&'static Zones> = None;

    /// With [`ZONES`](Self::ZONES): the rank in value order of the zone that holds this value
    /// (whether Phoenix can store it or not; NULL is not in a zone).
    #[doc(hidden)]
    fn zone(&self) -> u8 {
        0
    }

    /// Append the value's bytes to `out`, inverted when `desc`. A NULL appends nothing.
    ///
    /// # Errors
    ///
    /// A value the type cannot hold in Phoenix (the [module docs](self#refused-an-encodeerror-naming-the-field-never-a-panic)).
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind>;
}

/// Decoding of a [`PhoenixType`] from the bytes of one value in a row key.
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` has no Phoenix column type",
    label = "not a Phoenix primary-key column type",
    note = "a Phoenix key's fields are integers up to 64 bits, f32/f64, bool, String (VARCHAR), rowkey::phoenix::Char<N>, [u8; N] (BINARY), Vec<u8> (VARBINARY, last), rowkey::phoenix::Date / Time / Timestamp, BigDecimal (feature phoenix-decimal), chrono date-times (feature phoenix-time), or Option of the variable-width ones"
)]
pub trait PhoenixDecode<'de>: PhoenixType + Sized {
    /// The value of a NULL (an empty value, or one the key ends before): `Some(None)` for an
    /// `Option`, `None` (an error) for a NOT NULL type.
    fn null() -> Option<Self> {
        None
    }

    /// Decode one value from exactly its bytes (never empty: NULL is [`null`](Self::null)),
    /// inverted when `desc`. Error offsets are relative to `bytes`.
    ///
    /// # Errors
    ///
    /// Bytes Phoenix never writes for this type.
    fn decode(bytes: &'de [u8], desc: bool) -> Result<Self, DecodeError>;
}

/// The variable-width types, the only ones a Phoenix primary key allows to be nullable:
/// `Option<T>` is a [`PhoenixType`] for these.
pub trait VariableWidth: PhoenixType {}

/// Phoenix's `SchemaUtil.getSeparatorByte`.
#[inline]
pub const fn separator(row_key_order_optimizable: bool, was_null: bool, desc: bool) -> u8 {
    if row_key_order_optimizable && !was_null && desc {
        DESC_SEPARATOR
    } else {
        SEPARATOR
    }
}

/// Where a variable-width value that is not the table's last holds a byte that would end it
/// early when read: a first byte `0x00` (read as NULL) or the separator `sep` anywhere.
fn separator_inside(bytes: &[u8], sep: u8) -> Option<usize> {
    if bytes.first() == Some(&SEPARATOR) {
        Some(0)
    } else {
        bytes.iter().position(|&b| b == sep)
    }
}

/// Whether Phoenix reads the variable-width value `bytes` (as stored: inverted when `desc`)
/// back as written, in a column that is the table's last or not.
///
/// Phoenix's `SELECT` finds a key column with `RowKeyValueAccessor`, which ends a column that
/// is not the last at the first `0x00` *or* `0xFF` (whatever the sort order), and drops one
/// trailing `0xFF` from the last column (whatever the sort order: for a DESC column that is
/// the separator). `RowKeySchema` (scans, the key's own parsing) also reads a first `0x00` as
/// NULL. So: no `0x00`/`0xFF` inside a value that is not the last. A trailing `0xFF` on an
/// ascending last value (only a `VARBINARY` can have one) is written: Phoenix's `UPSERT` stores
/// it so, and only its `SELECT` reads the value back one byte shorter (module docs).
pub(crate) fn readable(bytes: &[u8], desc: bool, last: bool) -> Result<(), EncodeErrorKind> {
    let content = |b: u8| if desc { !b } else { b };
    if !last {
        if let Some(at) = bytes.iter().position(|&b| b == 0x00 || b == 0xFF) {
            let sep = bytes.get(at).map_or(SEPARATOR, |&b| content(b));
            return Err(EncodeErrorKind::ContainsSeparator { sep, at });
        }
    }
    Ok(())
}

/// The last value written: what decides the separator before the next one.
#[derive(Debug, Clone, Copy)]
struct Prev {
    fixed: bool,
    desc: bool,
    was_null: bool,
}

/// Builds a Phoenix row key value by value, as Phoenix's `PTableImpl.newKey` does.
///
/// Call [`field`](Self::field) once for every primary-key column, in the table's order
/// (`last` true for the table's last primary-key column), then [`finish`](Self::finish).
/// Separators are written before the next value (so trailing NULLs leave none), trailing
/// NULLs are dropped, and the salt byte is computed over the rest at the end. After an error
/// the key is unusable: start a new writer (or [`with_buffer`](Self::with_buffer) to reuse the
/// allocation).
///
/// ```
/// use rowkey::phoenix::KeyWriter;
///
/// // (K1 VARCHAR DESC, K2 VARCHAR DESC nullable, K3 VARCHAR nullable)
/// let key = |k2: Option<&str>, k3: Option<&str>| {
///     let mut w = KeyWriter::new(None, true);
///     w.field("k1", "ab", true, false)?;
///     w.field("k2", &k2, true, false)?;
///     w.field("k3", &k3, false, true)?;
///     w.finish()
/// };
/// let inv = |s: &str| s.bytes().map(|b| !b).collect::<Vec<u8>>();
/// // DESC values are followed by 0xFF, the last (ASC) value by nothing
/// assert_eq!(key(Some("c"), Some("d"))?, [&inv("ab")[..], &[0xFF], &inv("c"), &[0xFF], b"d"].concat());
/// // trailing NULLs are not written; the key ends with 0xFF after a DESC value
/// assert_eq!(key(None, None)?, [&inv("ab")[..], &[0xFF]].concat());
/// // a NULL in the middle: nothing, then 0x00 (not 0xFF) even though the column is DESC
/// assert_eq!(key(None, Some("y"))?, [&inv("ab")[..], &[0xFF, 0x00], b"y"].concat());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyWriter {
    buf: Vec<u8>,
    buckets: Option<u32>,
    optimizable: bool,
    prev: Option<Prev>,
    /// NULLs not written yet: `desc` of each (written only when a non-NULL value follows).
    pending_nulls: Vec<bool>,
    any_value: bool,
    after_last: bool,
}

impl KeyWriter {
    /// A writer for a table with `salt_buckets` (`SALT_BUCKETS = n`, 1..=256) or none, and
    /// Phoenix's `rowKeyOrderOptimizable` flag (true for every table a current Phoenix creates).
    pub fn new(salt_buckets: Option<u32>, row_key_order_optimizable: bool) -> Self {
        Self::with_buffer(Vec::new(), salt_buckets, row_key_order_optimizable)
    }

    /// [`new`](Self::new) writing into `buf` (cleared first), to reuse its allocation.
    pub fn with_buffer(
        mut buf: Vec<u8>,
        salt_buckets: Option<u32>,
        row_key_order_optimizable: bool,
    ) -> Self {
        buf.clear();
        if salt_buckets.is_some() {
            buf.push(0); // the salt byte's place
        }
        Self {
            buf,
            buckets: salt_buckets,
            optimizable: row_key_order_optimizable,
            prev: None,
            pending_nulls: Vec::new(),
            any_value: false,
            after_last: false,
        }
    }

    /// Append the next primary-key column's value: `desc` for a DESC column, `last` for the
    /// table's last primary-key column. Returns `self` for chaining.
    ///
    /// # Errors
    ///
    /// An [`EncodeError`] naming `name`: the value cannot be stored in this column (see the
    /// [module docs](self#refused-an-encodeerror-naming-the-field-never-a-panic)), or a
    /// column after the one passed as `last`.
    pub fn field<T: PhoenixType + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
        desc: bool,
        last: bool,
    ) -> Result<&mut Self, EncodeError> {
        let err = |kind| EncodeError::new(name, kind);
        if self.after_last {
            return Err(err(EncodeErrorKind::NotStorable {
                reason: "a column after the table's last primary-key column",
            }));
        }
        self.after_last = last;
        if T::LAST_ONLY && !last {
            return Err(err(EncodeErrorKind::NotStorable {
                reason: "VARBINARY can only be the last primary-key column in Phoenix",
            }));
        }
        if T::LAST_ONLY && desc {
            return Err(err(EncodeErrorKind::NotStorable {
                reason: "Phoenix does not support descending VARBINARY columns",
            }));
        }
        if value.is_null() {
            self.pending_nulls.push(desc);
            return Ok(self);
        }
        // NULLs before this value are written now: each an empty value, then its separator.
        for i in 0..self.pending_nulls.len() {
            let null_desc = self.pending_nulls.get(i).copied().unwrap_or(false);
            self.put_separator();
            self.prev = Some(Prev {
                fixed: false,
                desc: null_desc,
                was_null: true,
            });
        }
        self.pending_nulls.clear();
        self.put_separator();
        let start = self.buf.len();
        if let Err(kind) = value.encode(&mut self.buf, desc) {
            self.buf.truncate(start);
            return Err(err(kind));
        }
        let bytes = self.buf.get(start..).unwrap_or_default();
        if bytes.is_empty() {
            self.buf.truncate(start);
            return Err(err(EncodeErrorKind::NotStorable {
                reason: "an empty value is NULL in Phoenix (use None in a nullable column)",
            }));
        }
        if T::WIDTH.is_none() {
            if let Err(kind) = readable(bytes, desc, last) {
                self.buf.truncate(start);
                return Err(err(kind));
            }
        }
        self.prev = Some(Prev {
            fixed: T::WIDTH.is_some(),
            desc,
            was_null: false,
        });
        self.any_value = true;
        Ok(self)
    }

    fn put_separator(&mut self) {
        if let Some(p) = self.prev {
            if !p.fixed {
                self.buf
                    .push(separator(self.optimizable, p.was_null, p.desc));
            }
        }
    }

    /// The finished key: the trailing `0xFF` after a last DESC variable-width value, and the
    /// salt byte in front.
    ///
    /// # Errors
    ///
    /// [`EncodeErrorKind::NotStorable`] when every value was NULL;
    /// [`EncodeErrorKind::ValueOutOfRange`] (field `salt`) for a bucket count outside
    /// `1..=256`.
    pub fn finish(mut self) -> Result<Vec<u8>, EncodeError> {
        if !self.any_value {
            return Err(EncodeError::new(
                "",
                EncodeErrorKind::NotStorable {
                    reason:
                        "every primary-key value is NULL (Phoenix: primary key may not be null)",
                },
            ));
        }
        if let Some(p) = self.prev {
            if !p.fixed && separator(self.optimizable, p.was_null, p.desc) == DESC_SEPARATOR {
                self.buf.push(DESC_SEPARATOR);
            }
        }
        if let Some(buckets) = self.buckets {
            if !(1..=MAX_SALT_BUCKETS).contains(&buckets) {
                return Err(EncodeError::new(
                    "salt",
                    EncodeErrorKind::ValueOutOfRange {
                        value: format!("SALT_BUCKETS = {buckets}"),
                        range: "1..=256 salt buckets (Phoenix's range)",
                    },
                ));
            }
            let salt = crate::salt::phoenix(self.buf.get(1..).unwrap_or_default(), buckets);
            if let Some(first) = self.buf.first_mut() {
                *first = salt as u8;
            }
        }
        Ok(self.buf)
    }
}

/// Reads a Phoenix row key value by value, as Phoenix's `RowKeySchema.next` does, and checks
/// that the key is exactly what [`KeyWriter`] (and Phoenix) writes for the values read: the
/// salt, the separators, canonical value bytes, no bytes after the last value.
///
/// Call [`field`](Self::field) for every primary-key column in order, with the same `desc`
/// and `last` as for [`KeyWriter::field`], then [`finish`](Self::finish). Errors name the field
/// and the byte offset in the key; no input panics.
///
/// ```
/// use rowkey::phoenix::KeyReader;
/// use rowkey::DecodeErrorKind;
///
/// // (K1 VARCHAR DESC, K2 VARCHAR nullable)
/// let key = [!b'a', !b'b', 0xFF];
/// let mut r = KeyReader::new(&key, None, true)?;
/// let k1: String = r.field("k1", true, false)?;
/// let k2: Option<String> = r.field("k2", false, true)?;
/// r.finish()?;
/// assert_eq!((k1.as_str(), k2), ("ab", None));
///
/// let mut r = KeyReader::new(b"\x80\x00\x00", None, true)?;
/// let err = r.field::<i32>("n", false, true).unwrap_err();
/// assert_eq!((err.field(), err.offset()), ("n", 3));
/// assert!(matches!(err.kind(), DecodeErrorKind::Truncated { .. }));
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyReader<'de> {
    key: &'de [u8],
    pos: usize,
    optimizable: bool,
    /// The key ended (trailing NULLs): every later value is NULL.
    ended: bool,
    scratch: Vec<u8>,
}

impl<'de> KeyReader<'de> {
    /// A reader of `key` for a table with `salt_buckets` or none: the salt byte is checked
    /// here (recomputed over the rest of the key).
    ///
    /// # Errors
    ///
    /// The key is empty, or its salt byte is not the one Phoenix computes (field `salt`), or
    /// `salt_buckets` is outside Phoenix's `1..=256`.
    pub fn new(
        key: &'de [u8],
        salt_buckets: Option<u32>,
        row_key_order_optimizable: bool,
    ) -> Result<Self, DecodeError> {
        let mut pos = 0;
        if let Some(buckets) = salt_buckets {
            if !(1..=MAX_SALT_BUCKETS).contains(&buckets) {
                return Err(DecodeError::new(
                    DecodeErrorKind::NonCanonical(
                        "SALT_BUCKETS outside Phoenix's 1..=256: no Phoenix key has this salt",
                    ),
                    0,
                )
                .in_field("salt", 0));
            }
            let Some((&stored, rest)) = key.split_first() else {
                return Err(DecodeError::truncated(0, 1, 0).in_field("salt", 0));
            };
            let computed = crate::salt::phoenix(rest, buckets);
            if u32::from(stored) != computed {
                return Err(DecodeError::new(
                    DecodeErrorKind::SaltMismatch {
                        stored: u32::from(stored),
                        computed,
                    },
                    0,
                )
                .in_field("salt", 0));
            }
            pos = 1;
        }
        if key.len() <= pos {
            return Err(DecodeError::new(
                DecodeErrorKind::NonCanonical(
                    "an empty key (Phoenix: primary key may not be null)",
                ),
                pos,
            ));
        }
        Ok(Self {
            key,
            pos,
            optimizable: row_key_order_optimizable,
            ended: false,
            scratch: Vec::new(),
        })
    }

    /// The byte offset of the next value.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Read the next primary-key column's value (`desc` and `last` as it was written).
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] naming `name` and the offset in the key: the key ends inside a
    /// fixed-width value, a NULL in a NOT NULL column, bytes the type never writes,
    /// non-canonical bytes (re-encoding the value gives other bytes), a separator Phoenix
    /// would not write.
    pub fn field<T: PhoenixDecode<'de>>(
        &mut self,
        name: &str,
        desc: bool,
        last: bool,
    ) -> Result<T, DecodeError> {
        let start = self.pos;
        self.read::<T>(desc, last)
            .map_err(|e| e.in_field(name, start))
    }

    fn null<T: PhoenixDecode<'de>>(&self, at: usize) -> Result<T, DecodeError> {
        T::null().ok_or_else(|| {
            if self.pos >= self.key.len() {
                DecodeError::truncated(at, T::WIDTH.unwrap_or(1), 0)
            } else {
                DecodeError::new(
                    DecodeErrorKind::NonCanonical("NULL (an empty value) in a NOT NULL column"),
                    at,
                )
            }
        })
    }

    /// Offsets in the errors are relative to the value's start (`self.pos` on entry).
    fn read<T: PhoenixDecode<'de>>(&mut self, desc: bool, last: bool) -> Result<T, DecodeError> {
        let key: &'de [u8] = self.key;
        let start = self.pos;
        let rest: &'de [u8] = key.get(start..).unwrap_or_default();
        if self.ended || rest.is_empty() {
            self.ended = true;
            return self.null(0);
        }
        let value: &'de [u8];
        match T::WIDTH {
            Some(w) => {
                value = rest.get(..w).ok_or_else(|| {
                    DecodeError::truncated(rest.len(), w - rest.len(), rest.len())
                })?;
                self.pos = start + w;
            }
            None if last => {
                // the rest of the key, less the trailing 0xFF of a non-NULL DESC value
                if separator(self.optimizable, false, desc) == DESC_SEPARATOR {
                    match rest.split_last() {
                        Some((&DESC_SEPARATOR, v)) => value = v,
                        _ => {
                            return Err(DecodeError::new(
                                DecodeErrorKind::MissingTerminator,
                                rest.len(),
                            ))
                        }
                    }
                } else {
                    value = rest;
                }
                self.pos = key.len();
                if value.is_empty() {
                    // only a lone 0xFF: Phoenix writes no trailer after a NULL
                    return Err(DecodeError::new(
                        DecodeErrorKind::NonCanonical("a DESC separator after a NULL"),
                        0,
                    ));
                }
            }
            None => {
                if rest.first() == Some(&SEPARATOR) {
                    // NULL: an empty value, then its separator 0x00
                    self.pos = start + 1;
                    if self.pos == key.len() {
                        return Err(DecodeError::new(
                            DecodeErrorKind::NonCanonical(
                                "a separator at the end of the key (Phoenix drops trailing NULLs)",
                            ),
                            0,
                        ));
                    }
                    return self.null(0);
                }
                let sep = separator(self.optimizable, false, desc);
                let len = rest
                    .get(1..)
                    .and_then(|r| r.iter().position(|&b| b == sep))
                    .map_or(rest.len(), |p| p + 1);
                value = rest.get(..len).unwrap_or(rest);
                if len == rest.len() {
                    // the key ends after the value: every later value is NULL
                    self.pos = key.len();
                    self.ended = true;
                    if sep == DESC_SEPARATOR {
                        return Err(DecodeError::new(DecodeErrorKind::MissingTerminator, len));
                    }
                } else {
                    self.pos = start + len + 1;
                    if self.pos == key.len() && sep != DESC_SEPARATOR {
                        return Err(DecodeError::new(
                            DecodeErrorKind::NonCanonical(
                                "a separator at the end of the key (Phoenix drops trailing NULLs)",
                            ),
                            len,
                        ));
                    }
                }
            }
        }
        let v = T::decode(value, desc)?;
        // Canonical: the value's own encoding must be exactly these bytes, and one the writer
        // accepts in this place.
        self.scratch.clear();
        let canonical = v.encode(&mut self.scratch, desc).is_ok()
            && self.scratch == value
            && (T::WIDTH.is_some()
                || last
                || separator_inside(value, separator(self.optimizable, false, desc)).is_none());
        if !canonical {
            return Err(DecodeError::new(
                DecodeErrorKind::NonCanonical("bytes Phoenix does not write for this value"),
                0,
            ));
        }
        Ok(v)
    }

    /// Check that nothing follows the last value.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::TrailingBytes`] at the first byte after it.
    pub fn finish(self) -> Result<(), DecodeError> {
        let left = self.key.len().saturating_sub(self.pos);
        if left == 0 {
            Ok(())
        } else {
            Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes { count: left },
                self.pos,
            ))
        }
    }
}

/// One primary-key column of a [`create_table`] statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The column name (unquoted identifiers are upper-cased by Phoenix; a name that is not
    /// a plain identifier is written quoted).
    pub name: String,
    /// The SQL type (`PhoenixType::sql_type`).
    pub sql_type: Cow<'static, str>,
    /// A DESC column.
    pub desc: bool,
    /// A nullable column (`Option`); otherwise `NOT NULL`.
    pub nullable: bool,
}

impl Column {
    /// The column `name` of Rust type `T`.
    ///
    /// ```
    /// use rowkey::phoenix::Column;
    ///
    /// let c = Column::of::<Option<String>>("name", true);
    /// assert_eq!((c.sql_type.as_ref(), c.desc, c.nullable), ("VARCHAR", true, true));
    /// ```
    pub fn of<T: PhoenixType + ?Sized>(name: &str, desc: bool) -> Self {
        Self {
            name: name.to_owned(),
            sql_type: T::sql_type(),
            desc,
            nullable: T::NULLABLE,
        }
    }
}

/// A name as Phoenix SQL: as is when it is a plain identifier, else double-quoted.
fn sql_name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_owned()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// The Phoenix `CREATE TABLE` for a primary key of `pk` columns (in key order) and the
/// non-key `values` columns (name, SQL type; nullable, in Phoenix's default column family),
/// with `SALT_BUCKETS = n` when salted.
///
/// Phoenix needs no column besides the key: each row then stores only its empty marker cell
/// (`0:_0`, or `0:\x00\x00\x00\x00` with column encoding), which is what makes a row visible
/// to `SELECT`. `table` may be `SCHEMA.TABLE` (written as given: quote parts yourself when
/// they are not plain identifiers).
///
/// ```
/// use rowkey::phoenix::{create_table, Column};
///
/// let ddl = create_table(
///     "METRICS.EVENTS",
///     &[
///         Column::of::<String>("host", false),
///         Column::of::<i64>("ts", true),
///         Column::of::<Option<String>>("tag", false),
///     ],
///     &[("val", "DOUBLE")],
///     Some(8),
/// );
/// assert_eq!(
///     ddl,
///     "CREATE TABLE METRICS.EVENTS (host VARCHAR NOT NULL, ts BIGINT NOT NULL, tag VARCHAR, \
///      val DOUBLE CONSTRAINT pk PRIMARY KEY (host, ts DESC, tag)) SALT_BUCKETS = 8"
/// );
/// ```
pub fn create_table(
    table: &str,
    pk: &[Column],
    values: &[(&str, &str)],
    salt_buckets: Option<u32>,
) -> String {
    let mut cols: Vec<String> = pk
        .iter()
        .map(|c| {
            format!(
                "{} {}{}",
                sql_name(&c.name),
                c.sql_type,
                if c.nullable { "" } else { " NOT NULL" }
            )
        })
        .collect();
    cols.extend(values.iter().map(|(n, t)| format!("{} {t}", sql_name(n))));
    let keys: Vec<String> = pk
        .iter()
        .map(|c| format!("{}{}", sql_name(&c.name), if c.desc { " DESC" } else { "" }))
        .collect();
    let mut ddl = format!(
        "CREATE TABLE {table} ({} CONSTRAINT pk PRIMARY KEY ({}))",
        cols.join(", "),
        keys.join(", ")
    );
    if let Some(n) = salt_buckets {
        ddl.push_str(&format!(" SALT_BUCKETS = {n}"));
    }
    ddl
}
