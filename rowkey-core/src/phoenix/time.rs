//! `DATE`, `TIME`, `TIMESTAMP`: Phoenix's own value domain as newtypes (epoch milliseconds,
//! and nanoseconds within the millisecond), and `chrono` types behind the `phoenix-time`
//! feature.
//!
//! The newtypes hold every value Phoenix can store (the full `i64` range of milliseconds,
//! wider than `chrono`'s ±262,143 years), so a key read from any table decodes into them.

use std::borrow::Cow;

use super::traits::{Clamp, PhoenixDecode, PhoenixType, Stored};
use super::types::{fixed, put};
use crate::error::{DecodeError, DecodeErrorKind, EncodeErrorKind};

/// A Phoenix `DATE`: milliseconds since 1970-01-01 00:00 UTC (stored as a `BIGINT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Date(pub i64);

/// A Phoenix `TIME`: milliseconds since 1970-01-01 00:00 UTC (stored as a `BIGINT`, like
/// `DATE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub i64);

/// A Phoenix `TIMESTAMP`: milliseconds since 1970-01-01 00:00 UTC (rounded down) and the
/// nanoseconds within that millisecond (`0..1_000_000`); 12 bytes: the milliseconds as a
/// `BIGINT`, then the nanoseconds as 4 bytes big-endian. The order is `(millis, nanos)`.
///
/// ```
/// use rowkey::phoenix::{KeyWriter, Timestamp};
///
/// // 1969-12-31 23:59:59.999999999 UTC: one nanosecond before the epoch
/// let t = Timestamp::from_nanos(-1).unwrap();
/// assert_eq!((t.millis, t.nanos), (-1, 999_999));
/// let mut w = KeyWriter::new(None, true);
/// w.field("at", &t, false, true)?;
/// assert_eq!(w.finish()?, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x0F, 0x42, 0x3F]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    /// Milliseconds since the epoch, rounded down.
    pub millis: i64,
    /// Nanoseconds within the millisecond: `0..1_000_000` (more is refused when encoding).
    pub nanos: u32,
}

impl Timestamp {
    /// The timestamp `nanos` nanoseconds from the epoch; `None` outside the `i64`
    /// milliseconds (never for an `i64` of nanoseconds).
    pub fn from_nanos(nanos: i128) -> Option<Self> {
        let millis = i64::try_from(nanos.div_euclid(1_000_000)).ok()?;
        Some(Self {
            millis,
            nanos: nanos.rem_euclid(1_000_000) as u32,
        })
    }

    /// Nanoseconds since the epoch.
    pub fn as_nanos(&self) -> i128 {
        i128::from(self.millis) * 1_000_000 + i128::from(self.nanos)
    }
}

fn put_millis(out: &mut Vec<u8>, millis: i64, desc: bool) {
    put(out, &((millis as u64) ^ (1 << 63)).to_be_bytes(), desc);
}

fn get_millis(bytes: &[u8], desc: bool) -> Result<i64, DecodeError> {
    Ok((u64::from_be_bytes(fixed::<8>(bytes, desc)?) ^ (1 << 63)) as i64)
}

macro_rules! millis_type {
    ($($t:ident, $sql:literal);*) => {$(
        impl PhoenixType for $t {
            const WIDTH: Option<usize> = Some(8);
            fn sql_type() -> Cow<'static, str> {
                Cow::Borrowed($sql)
            }
            #[inline]
            fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
                put_millis(out, self.0, desc);
                Ok(())
            }
        }
        impl PhoenixDecode<'_> for $t {
            #[inline]
            fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
                get_millis(bytes, desc).map($t)
            }
        }
    )*};
}
millis_type!(Date, "DATE"; Time, "TIME");

impl PhoenixType for Timestamp {
    const WIDTH: Option<usize> = Some(12);
    fn sql_type() -> Cow<'static, str> {
        Cow::Borrowed("TIMESTAMP")
    }
    #[inline]
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        if self.nanos >= 1_000_000 {
            return Err(EncodeErrorKind::ValueOutOfRange {
                value: format!("{} nanoseconds within the millisecond", self.nanos),
                range: "0..1000000 nanoseconds within the millisecond",
            });
        }
        put_millis(out, self.millis, desc);
        put(out, &self.nanos.to_be_bytes(), desc);
        Ok(())
    }
    /// Nanoseconds past Phoenix's `0..1_000_000` lie just above the millisecond's last
    /// nanosecond.
    fn unstorable(&self) -> Clamp {
        let mut b = Vec::new();
        let last = Timestamp {
            millis: self.millis,
            nanos: 999_999,
        };
        match last.encode(&mut b, false) {
            Ok(()) => Clamp::JustAbove(Stored::Bytes(b)),
            Err(_) => Clamp::Above,
        }
    }
}

impl PhoenixDecode<'_> for Timestamp {
    #[inline]
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        let millis = get_millis(bytes, desc)?;
        let rest = bytes.get(8..).unwrap_or_default();
        let nanos = u32::from_be_bytes(fixed::<4>(rest, desc).map_err(|e| e.shifted(8))?);
        if nanos >= 1_000_000 {
            return Err(DecodeError::new(DecodeErrorKind::OutOfRange, 8));
        }
        Ok(Self { millis, nanos })
    }
}

#[cfg(feature = "phoenix-time")]
mod chrono_impls {
    use std::borrow::Cow;

    use crate::error::{DecodeError, DecodeErrorKind, EncodeErrorKind};
    use crate::phoenix::time::Timestamp;
    use crate::phoenix::traits::{Clamp, PhoenixDecode, PhoenixType, Stored};
    use chrono::{DateTime, NaiveDateTime, Utc};

    fn to_timestamp(t: &DateTime<Utc>) -> Result<Timestamp, EncodeErrorKind> {
        let nanos =
            i128::from(t.timestamp()) * 1_000_000_000 + i128::from(t.timestamp_subsec_nanos());
        Timestamp::from_nanos(nanos).ok_or_else(|| EncodeErrorKind::ValueOutOfRange {
            value: t.to_rfc3339(),
            range: "i64 milliseconds since the epoch",
        })
    }

    fn from_timestamp(t: Timestamp) -> Result<DateTime<Utc>, DecodeError> {
        let secs = t.millis.div_euclid(1000);
        let nanos = (t.millis.rem_euclid(1000) as u32) * 1_000_000 + t.nanos;
        DateTime::from_timestamp(secs, nanos)
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::OutOfRange, 0))
    }

    /// `TIMESTAMP` (UTC). Leap-second representations (`nanos >= 1e9` in chrono) are refused.
    impl PhoenixType for DateTime<Utc> {
        const WIDTH: Option<usize> = Some(12);
        fn sql_type() -> Cow<'static, str> {
            Cow::Borrowed("TIMESTAMP")
        }
        fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
            if self.timestamp_subsec_nanos() >= 1_000_000_000 {
                return Err(EncodeErrorKind::ValueOutOfRange {
                    value: self.to_rfc3339(),
                    range: "times without a leap second",
                });
            }
            to_timestamp(self)?.encode(out, desc)
        }
        /// A leap second lies just above the second's last nanosecond.
        fn unstorable(&self) -> Clamp {
            let nanos = i128::from(self.timestamp()) * 1_000_000_000 + 999_999_999;
            let mut b = Vec::new();
            match Timestamp::from_nanos(nanos).map(|t| t.encode(&mut b, false)) {
                Some(Ok(())) => Clamp::JustAbove(Stored::Bytes(b)),
                _ => Clamp::Above,
            }
        }
    }

    impl PhoenixDecode<'_> for DateTime<Utc> {
        fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
            from_timestamp(Timestamp::decode(bytes, desc)?)
        }
    }

    /// `TIMESTAMP`, read as UTC (Phoenix stores epoch time; it has no time zone).
    impl PhoenixType for NaiveDateTime {
        const WIDTH: Option<usize> = Some(12);
        fn sql_type() -> Cow<'static, str> {
            Cow::Borrowed("TIMESTAMP")
        }
        fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
            self.and_utc().encode(out, desc)
        }
        fn unstorable(&self) -> Clamp {
            self.and_utc().unstorable()
        }
    }

    impl PhoenixDecode<'_> for NaiveDateTime {
        fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
            DateTime::<Utc>::decode(bytes, desc).map(|t| t.naive_utc())
        }
    }
}
