//! Apache Phoenix row keys: the bytes Phoenix writes for a composite `PRIMARY KEY`, value by
//! value ([`PhoenixType`]), assembled into a key ([`KeyWriter`]) and read back
//! ([`KeyReader`]), and the `CREATE TABLE` of such a key ([`create_table`]).
//!
//! The runtime half of a Phoenix key mode: `#[rowkey(phoenix)]` key types call these codecs
//! (the derive mode, its checks and scans: [the guide's chapter on Phoenix
//! tables](https://docs.rs/rowkey/latest/rowkey/guide/phoenix/index.html)), and code that
//! builds keys without a key type calls them value by value and key by key. Every rule below
//! was read in Phoenix 5.2.1's sources (`PTableImpl.newKey`, `SchemaUtil.getSeparatorByte`,
//! `RowKeySchema.next`, the `PDataType`s) and checked against a live Phoenix 5.2.1
//! (`rowkey-hbase/tests/hbase/phoenix_types.rs`: 12 tables × 520 random rows upserted through
//! Phoenix SQL, every stored key equal to ours, decoded back to the upserted values, in the
//! order of Phoenix's own `ORDER BY`; and 3,471 rows written from Rust that Phoenix's `SELECT`
//! returns with their values, in order).
//!
//! ```
//! use rowkey::phoenix::{create_table, Column, KeyReader, KeyWriter};
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
//!
//! let ddl = create_table(
//!     "METRICS",
//!     &[Column::of::<str>("HOST", false), Column::of::<i64>("TS", true), Column::of::<i32>("SEQ", false)],
//!     &[],
//!     Some(4),
//! );
//! assert!(ddl.contains("SALT_BUCKETS = 4"));
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
//! # Refused (an [`EncodeError`](crate::EncodeError) naming the field, never a panic)
//!
//! * Values outside the Phoenix type's range: unsigned integers above the signed maximum
//!   (`UNSIGNED_TINYINT` holds 0..=127), `DECIMAL`s with more than 38 significant digits (Phoenix
//!   would round them) or an exponent its own decoder misreads, timestamps with 1,000,000
//!   nanoseconds or more within the millisecond.
//! * An empty `VARCHAR`/`VARBINARY`/`CHAR`: Phoenix stores `''` as NULL (write `None`).
//! * A `VARCHAR` or `DECIMAL` value holding a `0x00` or `0xFF` byte (as stored) when it is not
//!   the table's last column: `'\0'` in a `VARCHAR` (ASC or DESC, in either layout), a
//!   `DECIMAL` whose exponent byte is `0x00`/`0xFF` (near `±1E125`). Phoenix's `UPSERT` stores
//!   some of these (where the separator is the other byte), but its `SELECT` ends the value at
//!   that byte and reads the later columns from the wrong place.
//! * A `CHAR(N)` value that is not ASCII, longer than `N` or ends with a space (Phoenix pads
//!   with spaces and strips them when reading).
//! * `VARBINARY` as any column but the last, or DESC (Phoenix refuses both in DDL).
//! * A key whose values are all NULL (Phoenix: "Primary key may not be null").
//!
//! Decoding validates every byte (a separator Phoenix would not write, a key ending where a
//! `NOT NULL` column should be), errors naming the field and the byte offset. It reads exactly
//! the keys the encoder writes, in both layouts: every key it accepts is the encoding of the
//! values it returns, so a read can page past any row it returns (`after(&row)`). A key
//! Phoenix's `UPSERT` stored with a `0x00`/`0xFF` inside a value that is not the last (above)
//! is refused with the offset of that byte — Phoenix's own `SELECT` misreads it, and a `WHERE`
//! on the value does not find it (seen live, issue 49).
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
//! * The tiny `DECIMAL`s, magnitudes from `1E-130` to below `1E-126`, wrap the same byte the
//!   other way and land on the same bytes: Phoenix's `UPSERT` stores `1E-127` as `0x81 0x0B`,
//!   the bytes of `1E+129`, and its `SELECT` returns `1E+129` (`PDataType.toBigDecimal`), for
//!   every such value in every column kind (issue 49: 184 of 528 swept values came back as
//!   another value, each of them refused here). rowkey decodes those bytes as Phoenix does, to
//!   the huge value, and refuses to write a tiny value (as it refuses `1E+130` and beyond,
//!   which Phoenix stores with the bytes of a value near `1E-126`); as a scan bound a tiny value
//!   lies just beside zero.
//! * A legacy table (`rowKeyOrderOptimizable` false) stores what the sources say (`0x00` after
//!   a DESC value, no trailing `0xFF`; a live 5.2.1 table marked legacy in `SYSTEM.CATALOG`).
//! * A `CREATE TABLE` in the middle of a script drops the connection's uncommitted upserts
//!   (a test-harness matter, noted for whoever scripts Phoenix).
//! * Rows written without Phoenix need one cell besides the key: Phoenix's empty column
//!   (family `0`, qualifier `\x00\x00\x00\x00`, value `x` in a table with Phoenix 5's default
//!   column encoding); `rowkey-hbase/tests/hbase/phoenix_types.rs` writes rows that way and reads them
//!   back through Phoenix's `SELECT`.

mod codec;
mod ddl;
mod format;
mod key;
mod reader;
mod text;
mod traits;
mod types;
mod writer;

#[cfg(feature = "phoenix-decimal")]
mod decimal;
mod time;

#[cfg(test)]
mod tests;

/// The `bigdecimal` crate (feature `phoenix-decimal`), whose `BigDecimal` is `DECIMAL`.
#[cfg(feature = "phoenix-decimal")]
pub use bigdecimal;
/// The `chrono` crate (feature `phoenix-time`), whose `DateTime<Utc>` and `NaiveDateTime`
/// are `TIMESTAMP`.
#[cfg(feature = "phoenix-time")]
pub use chrono;
pub use codec::{Col, LastCol};
pub use ddl::{create_table, Column};
pub use format::{separator, DESC_SEPARATOR, MAX_SALT_BUCKETS, SEPARATOR};
pub use key::PhoenixKey;
pub use reader::KeyReader;
pub use time::{Date, Time, Timestamp};
pub use traits::{Clamp, PhoenixDecode, PhoenixType, Stored, VariableWidth, Zones};
pub use types::Char;
pub use writer::KeyWriter;
