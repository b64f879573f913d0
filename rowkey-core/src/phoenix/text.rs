//! The Phoenix value types in the key tool and in `describe`: [`Show`] and [`FromText`] for
//! [`Char`], [`Date`], [`Time`], [`Timestamp`] and, with their features, `BigDecimal` and the
//! `chrono` date-times — so a `#[rowkey(phoenix)]` key is described, encoded and scanned from
//! text like any other.
//!
//! Text forms: `CHAR(N)` its characters; `DATE`/`TIME` epoch milliseconds (`-5`, `0x10`);
//! `TIMESTAMP` epoch milliseconds, optionally `,` and the nanoseconds within the millisecond
//! (`1700000000000,250`); `DECIMAL` a decimal number (`-12.5`, `1E100`); `chrono` date-times
//! RFC 3339 (`2024-01-02T03:04:05.123456789Z`).

use core::fmt::Write;

use super::time::{Date, Time, Timestamp};
use super::types::Char;
use crate::describe::Show;
use crate::text::FromText;

fn debug(v: &impl core::fmt::Debug, out: &mut String) {
    let _ = write!(out, "{v:?}");
}

impl<const N: usize> Show for Char<N> {
    fn show(&self, out: &mut String) {
        debug(&self.as_str(), out);
    }
}
impl Show for Date {
    fn show(&self, out: &mut String) {
        debug(self, out);
    }
}
impl Show for Time {
    fn show(&self, out: &mut String) {
        debug(self, out);
    }
}
impl Show for Timestamp {
    fn show(&self, out: &mut String) {
        let _ = write!(out, "Timestamp({},{})", self.millis, self.nanos);
    }
}

fn millis(s: &str) -> Result<i64, String> {
    <i64 as FromText>::parse_text(s)
}

impl<const N: usize> FromText for Char<N> {
    const EXPECTED: &'static str = "the characters of a CHAR(N) value";
    fn parse_text(s: &str) -> Result<Self, String> {
        Ok(Char::new(s))
    }
}
impl FromText for Date {
    const EXPECTED: &'static str = "a DATE as epoch milliseconds";
    fn parse_text(s: &str) -> Result<Self, String> {
        millis(s).map(Date)
    }
}
impl FromText for Time {
    const EXPECTED: &'static str = "a TIME as epoch milliseconds";
    fn parse_text(s: &str) -> Result<Self, String> {
        millis(s).map(Time)
    }
}
impl FromText for Timestamp {
    const EXPECTED: &'static str =
        "a TIMESTAMP as epoch milliseconds, optionally `,nanos` within the millisecond";
    fn parse_text(s: &str) -> Result<Self, String> {
        let (ms, nanos) = match s.split_once(',') {
            Some((ms, n)) => (ms, <u32 as FromText>::parse_text(n)?),
            None => (s, 0),
        };
        Ok(Timestamp {
            millis: millis(ms)?,
            nanos,
        })
    }
}

#[cfg(feature = "phoenix-decimal")]
mod decimal {
    use super::*;
    use bigdecimal::BigDecimal;

    impl Show for BigDecimal {
        fn show(&self, out: &mut String) {
            let _ = write!(out, "{self}");
        }
    }
    impl FromText for BigDecimal {
        const EXPECTED: &'static str = "a DECIMAL number";
        fn parse_text(s: &str) -> Result<Self, String> {
            s.trim().parse::<BigDecimal>().map_err(|e| e.to_string())
        }
    }
}

#[cfg(feature = "phoenix-time")]
mod time {
    use super::*;
    use chrono::{DateTime, NaiveDateTime, Utc};

    impl Show for DateTime<Utc> {
        fn show(&self, out: &mut String) {
            out.push_str(&self.to_rfc3339());
        }
    }
    impl Show for NaiveDateTime {
        fn show(&self, out: &mut String) {
            out.push_str(&self.and_utc().to_rfc3339());
        }
    }
    impl FromText for DateTime<Utc> {
        const EXPECTED: &'static str = "an RFC 3339 date-time";
        fn parse_text(s: &str) -> Result<Self, String> {
            DateTime::parse_from_rfc3339(s.trim())
                .map(|t| t.with_timezone(&Utc))
                .map_err(|e| e.to_string())
        }
    }
    impl FromText for NaiveDateTime {
        const EXPECTED: &'static str = "an RFC 3339 date-time (read as UTC)";
        fn parse_text(s: &str) -> Result<Self, String> {
            <DateTime<Utc> as FromText>::parse_text(s).map(|t| t.naive_utc())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_forms() {
        assert_eq!(
            Timestamp::parse_text("5,7"),
            Ok(Timestamp {
                millis: 5,
                nanos: 7
            })
        );
        assert_eq!(
            Timestamp::parse_text("-5"),
            Ok(Timestamp {
                millis: -5,
                nanos: 0
            })
        );
        assert!(Timestamp::parse_text("x").is_err());
        assert_eq!(Date::parse_text("0x10"), Ok(Date(16)));
        assert_eq!(
            <Char<3>>::parse_text("ab").map(|c| c.as_str().to_owned()),
            Ok("ab".into())
        );
        let mut out = String::new();
        Timestamp {
            millis: 1,
            nanos: 2,
        }
        .show(&mut out);
        assert_eq!(out, "Timestamp(1,2)");
    }
}
