//! What a Rust type must say to be a Phoenix primary-key column: [`PhoenixType`] (its SQL type
//! and value bytes), [`PhoenixDecode`], and where a value Phoenix cannot store lies
//! ([`Clamp`], [`Zones`], [`Stored`]) for scan bounds.

use std::borrow::Cow;

use crate::error::{DecodeError, EncodeErrorKind};

/// A Rust type that is a Phoenix primary-key column type: its SQL type and its value bytes.
///
/// `encode` writes the bytes of one value as Phoenix stores it in a row key, every byte
/// inverted when `desc` (Phoenix's `SortOrder.DESC`); separators and the salt are the
/// [`KeyWriter`](super::KeyWriter)'s. Implemented for the types of the [module table](super#types).
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
    /// A value the type cannot hold in Phoenix (the [module docs](super#refused-an-encodeerror-naming-the-field-never-a-panic)).
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

    /// Whether every byte string [`decode`](Self::decode) accepts is the encoding of the value
    /// it returns — decoding and encoding are inverse on what decoding accepts —, so a reader
    /// need not encode the value again to check that the key is canonical (`false`: it does).
    #[doc(hidden)]
    const CANONICAL: bool = false;

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

/// Where a value Phoenix cannot store lies among the values it can: what a scan bound at it
/// means ([`PhoenixType::unstorable`]). `JustAbove(x)`: above the storable `x` with no storable
/// value in between; `JustBelow(y)`: below the storable `y`, likewise; `Below`/`Above`: below
/// or above every storable value; `Raw`: its unchecked bytes are a bound as they are.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clamp {
    /// Below every storable value.
    Below,
    /// Above every storable value.
    Above,
    /// Just above this storable value.
    JustAbove(Stored),
    /// Just below this storable value.
    JustBelow(Stored),
    /// The value's own bytes (unchecked) are the bound.
    Raw,
}

/// The zones of a type whose bytes leave its value order in places ([`PhoenixType::ZONES`]):
/// runs of values whose bytes sort as the values, listed in byte order for an ascending and for
/// a descending column. Each entry is the zone's rank in value order and the bytes its keys
/// start from (the first zone: from the field's start). `DECIMAL`: its wrapped exponents put
/// `±1E+126…` next to zero.
#[doc(hidden)]
#[derive(Debug)]
pub struct Zones {
    /// Ascending column: (rank, first bytes), in byte order.
    pub asc: &'static [(u8, &'static [u8])],
    /// Descending column, likewise.
    pub desc: &'static [(u8, &'static [u8])],
}

/// A storable value as [`Clamp`] names it: NULL, or its bytes as an ascending column stores
/// them.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored {
    /// NULL (a nullable column's smallest value).
    Null,
    /// The value's ascending bytes.
    Bytes(Vec<u8>),
}
