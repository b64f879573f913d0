//! [`PhoenixType`] for integers, floats, booleans, strings, bytes and `Option`.

use std::borrow::Cow;

use super::traits::{Clamp, PhoenixDecode, PhoenixType, Stored, VariableWidth};
use crate::error::{DecodeError, DecodeErrorKind, EncodeErrorKind};

/// Append `bytes`, inverted when `desc`.
#[inline]
pub(super) fn put(out: &mut Vec<u8>, bytes: &[u8], desc: bool) {
    if desc {
        out.extend(bytes.iter().map(|b| !b));
    } else {
        out.extend_from_slice(bytes);
    }
}

/// The first `W` bytes, un-inverted.
#[inline]
pub(super) fn fixed<const W: usize>(bytes: &[u8], desc: bool) -> Result<[u8; W], DecodeError> {
    let mut a = match bytes.first_chunk::<W>() {
        Some(a) => *a,
        None => {
            return Err(DecodeError::truncated(
                bytes.len(),
                W - bytes.len(),
                bytes.len(),
            ))
        }
    };
    if desc {
        for b in &mut a {
            *b = !*b;
        }
    }
    Ok(a)
}

fn unmask(bytes: &[u8], desc: bool) -> Cow<'_, [u8]> {
    if desc {
        Cow::Owned(bytes.iter().map(|b| !b).collect())
    } else {
        Cow::Borrowed(bytes)
    }
}

// Signed integers: big-endian, the sign bit flipped (PTinyint, PSmallint, PInteger, PLong).
macro_rules! signed {
    ($($t:ty, $u:ty, $sql:literal);*) => {$(
        impl PhoenixType for $t {
            const WIDTH: Option<usize> = Some(size_of::<$t>());
            fn sql_type() -> Cow<'static, str> {
                Cow::Borrowed($sql)
            }
            #[inline]
            fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
                let flipped = (*self as $u) ^ (1 << (<$u>::BITS - 1));
                put(out, &flipped.to_be_bytes(), desc);
                Ok(())
            }
        }
        impl PhoenixDecode<'_> for $t {
            // every W bytes are one value's, and only its
            const CANONICAL: bool = true;
            #[inline]
            fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
                let a = fixed::<{ size_of::<$t>() }>(bytes, desc)?;
                Ok((<$u>::from_be_bytes(a) ^ (1 << (<$u>::BITS - 1))) as $t)
            }
        }
    )*};
}
signed!(i8, u8, "TINYINT"; i16, u16, "SMALLINT"; i32, u32, "INTEGER"; i64, u64, "BIGINT");

// Unsigned integers: plain big-endian, 0 to the signed maximum (PUnsignedTinyint, …).
macro_rules! unsigned {
    ($($t:ty, $s:ty, $sql:literal, $range:literal);*) => {$(
        impl PhoenixType for $t {
            const WIDTH: Option<usize> = Some(size_of::<$t>());
            fn sql_type() -> Cow<'static, str> {
                Cow::Borrowed($sql)
            }
            #[inline]
            fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
                if *self > <$s>::MAX as $t {
                    return Err(EncodeErrorKind::ValueOutOfRange {
                        value: self.to_string(),
                        range: $range,
                    });
                }
                put(out, &self.to_be_bytes(), desc);
                Ok(())
            }
        }
        impl PhoenixDecode<'_> for $t {
            // W bytes up to the signed maximum: one value's, and only its
            const CANONICAL: bool = true;
            #[inline]
            fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
                let v = <$t>::from_be_bytes(fixed::<{ size_of::<$t>() }>(bytes, desc)?);
                if v > <$s>::MAX as $t {
                    return Err(DecodeError::new(DecodeErrorKind::OutOfRange, 0));
                }
                Ok(v)
            }
        }
    )*};
}
unsigned!(
    u8, i8, "UNSIGNED_TINYINT", "0..=127";
    u16, i16, "UNSIGNED_SMALLINT", "0..=32767";
    u32, i32, "UNSIGNED_INT", "0..=2147483647";
    u64, i64, "UNSIGNED_LONG", "0..=9223372036854775807"
);

// Floats (PFloat, PDouble): Java's canonical bits (`floatToIntBits`: one NaN), negatives
// inverted and positives with the sign bit set, then plus one.
macro_rules! float {
    ($($t:ty, $u:ty, $i:ty, $sql:literal);*) => {$(
        impl PhoenixType for $t {
            const WIDTH: Option<usize> = Some(size_of::<$t>());
            fn sql_type() -> Cow<'static, str> {
                Cow::Borrowed($sql)
            }
            #[inline]
            fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
                let v = if self.is_nan() { <$t>::NAN } else { *self };
                let l = v.to_bits() as $i;
                let l = (l ^ ((l >> (<$i>::BITS - 1)) | <$i>::MIN)).wrapping_add(1);
                put(out, &(l as $u).to_be_bytes(), desc);
                Ok(())
            }
        }
        impl PhoenixDecode<'_> for $t {
            #[inline]
            fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
                let l = <$u>::from_be_bytes(fixed::<{ size_of::<$t>() }>(bytes, desc)?) as $i;
                let l = l.wrapping_sub(1);
                let l = l ^ ((!l >> (<$i>::BITS - 1)) | <$i>::MIN);
                let v = <$t>::from_bits(l as $u);
                if v.is_nan() && v.to_bits() != <$t>::NAN.to_bits() {
                    return Err(DecodeError::new(
                        DecodeErrorKind::NonCanonical("a NaN other than Java's canonical NaN"),
                        0,
                    ));
                }
                Ok(v)
            }
        }
    )*};
}
float!(f32, u32, i32, "FLOAT"; f64, u64, i64, "DOUBLE");

// BOOLEAN (PBoolean): 0x00 false, 0x01 true.
impl PhoenixType for bool {
    const WIDTH: Option<usize> = Some(1);
    fn sql_type() -> Cow<'static, str> {
        Cow::Borrowed("BOOLEAN")
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        put(out, &[u8::from(*self)], desc);
        Ok(())
    }
}
impl PhoenixDecode<'_> for bool {
    // 0x00 and 0x01 only
    const CANONICAL: bool = true;
    #[inline]
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        let [b] = fixed::<1>(bytes, desc)?;
        match b {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: bytes.first().copied().unwrap_or(b),
                    expected: "a BOOLEAN: 0x00 or 0x01 (0xFF or 0xFE DESC)",
                },
                0,
            )),
        }
    }
}

// VARCHAR (PVarchar): the UTF-8 bytes.
impl PhoenixType for str {
    const WIDTH: Option<usize> = None;
    fn sql_type() -> Cow<'static, str> {
        Cow::Borrowed("VARCHAR")
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        put(out, self.as_bytes(), desc);
        Ok(())
    }
    /// `''` lies below every storable string; `x\0…` just above `x` (no storable string has
    /// a `'\0'`, so none lies between).
    fn unstorable(&self) -> Clamp {
        match self.as_bytes().iter().position(|&b| b == 0) {
            _ if self.is_empty() => Clamp::Below,
            Some(0) => Clamp::Below,
            Some(i) => Clamp::JustAbove(Stored::Bytes(
                self.as_bytes().get(..i).unwrap_or_default().to_vec(),
            )),
            None => Clamp::Raw,
        }
    }
}
impl VariableWidth for str {}

impl PhoenixType for String {
    const WIDTH: Option<usize> = None;
    fn sql_type() -> Cow<'static, str> {
        str::sql_type()
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        self.as_str().encode(out, desc)
    }
    fn unstorable(&self) -> Clamp {
        self.as_str().unstorable()
    }
}
impl VariableWidth for String {}

fn utf8(bytes: Vec<u8>) -> Result<String, DecodeError> {
    String::from_utf8(bytes)
        .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, e.utf8_error().valid_up_to()))
}

impl PhoenixDecode<'_> for String {
    // the UTF-8 bytes themselves (inverted DESC)
    const CANONICAL: bool = true;
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        utf8(unmask(bytes, desc).into_owned())
    }
}

impl<'de> PhoenixDecode<'de> for &'de str {
    const CANONICAL: bool = true;
    fn decode(bytes: &'de [u8], desc: bool) -> Result<Self, DecodeError> {
        if desc {
            return Err(DecodeError::new(DecodeErrorKind::NeedsOwned, 0));
        }
        std::str::from_utf8(bytes)
            .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, e.valid_up_to()))
    }
}

// VARBINARY (PVarbinary): raw bytes; only the last column, only ascending.
impl PhoenixType for [u8] {
    const WIDTH: Option<usize> = None;
    const LAST_ONLY: bool = true;
    fn sql_type() -> Cow<'static, str> {
        Cow::Borrowed("VARBINARY")
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        put(out, self, desc);
        Ok(())
    }
    /// Empty bytes lie below every storable value (every other value is storable as the last
    /// column; a bound elsewhere is refused at compile time).
    fn unstorable(&self) -> Clamp {
        if self.is_empty() {
            Clamp::Below
        } else {
            Clamp::Raw
        }
    }
}
impl VariableWidth for [u8] {}

impl PhoenixType for Vec<u8> {
    const WIDTH: Option<usize> = None;
    const LAST_ONLY: bool = true;
    fn sql_type() -> Cow<'static, str> {
        <[u8]>::sql_type()
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        self.as_slice().encode(out, desc)
    }
    fn unstorable(&self) -> Clamp {
        self.as_slice().unstorable()
    }
}
impl VariableWidth for Vec<u8> {}

impl PhoenixDecode<'_> for Vec<u8> {
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        Ok(unmask(bytes, desc).into_owned())
    }
}

impl<'de> PhoenixDecode<'de> for &'de [u8] {
    fn decode(bytes: &'de [u8], desc: bool) -> Result<Self, DecodeError> {
        if desc {
            return Err(DecodeError::new(DecodeErrorKind::NeedsOwned, 0));
        }
        Ok(bytes)
    }
}

// A reference is its referent.
impl<T: PhoenixType + ?Sized> PhoenixType for &T {
    const WIDTH: Option<usize> = T::WIDTH;
    const NULLABLE: bool = T::NULLABLE;
    const LAST_ONLY: bool = T::LAST_ONLY;
    fn sql_type() -> Cow<'static, str> {
        T::sql_type()
    }
    fn is_null(&self) -> bool {
        (**self).is_null()
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        (**self).encode(out, desc)
    }
    fn unstorable(&self) -> Clamp {
        (**self).unstorable()
    }
}
impl<T: VariableWidth + ?Sized> VariableWidth for &T {}

// BINARY(N) (PBinary): exactly N raw bytes.
impl<const N: usize> PhoenixType for [u8; N] {
    const WIDTH: Option<usize> = Some(N);
    fn sql_type() -> Cow<'static, str> {
        Cow::Owned(format!("BINARY({N})"))
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        put(out, self, desc);
        Ok(())
    }
}
impl<const N: usize> PhoenixDecode<'_> for [u8; N] {
    #[inline]
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        fixed::<N>(bytes, desc)
    }
}

/// `CHAR(N)` (Phoenix's `PChar`): ASCII text right-padded with spaces to `N` bytes.
///
/// Phoenix strips the padding when reading, so a value may not end with a space (it would
/// read back shorter); it stores only single-byte characters, and `''` is NULL.
///
/// ```
/// use rowkey::phoenix::{Char, KeyWriter};
///
/// let mut w = KeyWriter::new(None, true);
/// w.field("code", &Char::<4>::new("ab"), false, true)?;
/// assert_eq!(w.finish()?, b"ab  ");
///
/// let mut w = KeyWriter::new(None, true);
/// assert!(w.field("code", &Char::<4>::new("ab "), false, true).is_err()); // ends with a space
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Char<const N: usize>(pub String);

impl<const N: usize> Char<N> {
    /// A `CHAR(N)` value (checked when encoded).
    pub fn new(s: impl Into<String>) -> Self {
        Self(s.into())
    }

    /// The text, without padding.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<const N: usize> PhoenixType for Char<N> {
    const WIDTH: Option<usize> = Some(N);
    fn sql_type() -> Cow<'static, str> {
        Cow::Owned(format!("CHAR({N})"))
    }
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        let b = self.0.as_bytes();
        if !self.0.is_ascii() {
            return Err(EncodeErrorKind::NotStorable {
                reason: "CHAR holds only single-byte (ASCII) characters in Phoenix",
            });
        }
        if b.len() > N {
            return Err(EncodeErrorKind::TooLong {
                len: b.len(),
                max: N,
            });
        }
        if b.is_empty() {
            return Err(EncodeErrorKind::NotStorable {
                reason: "an empty CHAR is NULL in Phoenix",
            });
        }
        if b.last() == Some(&b' ') {
            return Err(EncodeErrorKind::EndsWithFill { fill: b' ' });
        }
        put(out, b, desc);
        let pad = if desc { !b' ' } else { b' ' };
        out.resize(out.len() + (N - b.len()), pad);
        Ok(())
    }
}

impl<const N: usize> PhoenixDecode<'_> for Char<N> {
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        let b = bytes
            .get(..N)
            .ok_or_else(|| DecodeError::truncated(bytes.len(), N - bytes.len(), bytes.len()))?;
        let b = unmask(b, desc);
        let len = b.iter().rposition(|&c| c != b' ').map_or(0, |p| p + 1);
        let content = b.get(..len).unwrap_or_default();
        if let Some(at) = content.iter().position(|c| !c.is_ascii()) {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: bytes.get(at).copied().unwrap_or_default(),
                    expected: "an ASCII character (CHAR)",
                },
                at,
            ));
        }
        Ok(Self(utf8(content.to_vec())?))
    }
}

// Nullable columns: the variable-width types only (Phoenix refuses nullable fixed-width
// primary-key columns).
impl<T: VariableWidth> PhoenixType for Option<T> {
    const WIDTH: Option<usize> = None;
    const NULLABLE: bool = true;
    const LAST_ONLY: bool = T::LAST_ONLY;
    fn sql_type() -> Cow<'static, str> {
        T::sql_type()
    }
    fn is_null(&self) -> bool {
        self.as_ref().is_none_or(|v| v.is_null())
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        match self {
            Some(v) => v.encode(out, desc),
            None => Ok(()),
        }
    }
    const ZONES: Option<&'static super::Zones> = T::ZONES;
    fn zone(&self) -> u8 {
        self.as_ref().map_or(0, T::zone)
    }
    /// As the value's, except that NULL is below every value: a value below every storable
    /// one lies just above NULL.
    fn unstorable(&self) -> Clamp {
        match self {
            Some(v) => match v.unstorable() {
                Clamp::Below => Clamp::JustAbove(Stored::Null),
                c => c,
            },
            None => Clamp::Raw,
        }
    }
}

impl<'de, T: VariableWidth + PhoenixDecode<'de>> PhoenixDecode<'de> for Option<T> {
    const CANONICAL: bool = T::CANONICAL;
    fn null() -> Option<Self> {
        Some(None)
    }
    fn decode(bytes: &'de [u8], desc: bool) -> Result<Self, DecodeError> {
        T::decode(bytes, desc).map(Some)
    }
}
