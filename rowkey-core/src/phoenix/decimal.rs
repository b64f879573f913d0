//! `DECIMAL` (Phoenix's `PDecimal`, `PDataType.toBytes(BigDecimal)` / `toBigDecimal`) as
//! `bigdecimal::BigDecimal`.
//!
//! The value is normalized (trailing zeros stripped); a zero is `0x80`. Otherwise an exponent
//! byte, then base-100 digits, most significant first: `digit + 1` for a positive number, `101 -
//! digit` and a `0x66` terminator for a negative one (the exponent byte inverted too), so the
//! bytes sort in numeric order. An odd scale stores the last digit times ten. At most 21 bytes:
//! a negative number of 38 digits with an odd scale loses its terminator (as in Phoenix).
//!
//! The exponent byte is Java's `byte` arithmetic on both sides: `toBytes` wraps it for
//! magnitudes from `1E+126` to below `1E+130` (`0x80`/`0x81`, negative `0x7E`/`0x7F`) and for
//! magnitudes from `1E-130` to below `1E-126` onto the same bytes (`1E-127` and `1E+129` are
//! both `0x81 0x0B`); `toBigDecimal` reads those bytes as the large magnitude (its scale is
//! `(byte)((e & 0x7F) - 65) * -2`). Decoding follows `toBigDecimal` exactly (a live Phoenix
//! 5.2.1 returns `1E+129` for the `1E-127` it stored); encoding writes a value only when
//! `toBigDecimal` reads its bytes back as the same value, so the tiny magnitudes and those from
//! `1E+130` on are refused.
//!
//! `bigdecimal` rather than `rust_decimal`: Phoenix's `DECIMAL` holds 38 significant digits at
//! any exponent within its exponent byte (`1E100` is a valid key value), which
//! `rust_decimal`'s 96-bit mantissa and scale 0..=28 cannot represent; `BigDecimal` is Java's
//! `BigDecimal` model (unscaled integer, scale), so every stored value decodes exactly.

use std::borrow::Cow;

use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::{BigDecimal, ToPrimitive};

use super::traits::{PhoenixDecode, PhoenixType, VariableWidth};
use super::types::put;
use crate::error::{DecodeError, DecodeErrorKind, EncodeErrorKind};

const ZERO_BYTE: u8 = 0x80;
const NEG_TERMINAL_BYTE: u8 = 102;
const MAX_BYTES: usize = 21;
const MAX_PRECISION: u32 = 38;

fn decimal_digits(mut v: u128) -> u32 {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// `PDataType.toBytes(BigDecimal, …)` of a normalized value: `negative`, its unscaled
/// magnitude and scale. `None` when the arithmetic leaves Phoenix's byte layout.
fn to_bytes(negative: bool, magnitude: u128, scale: i64) -> Option<([u8; 22], usize)> {
    let mut result = [0u8; 22];
    if magnitude == 0 {
        result[0] = ZERO_BYTE;
        return Some((result, 1));
    }
    let precision = i64::from(decimal_digits(magnitude));
    let odd = scale % 2 != 0;
    let mut length: i64 =
        if negative { 2 } else { 1 } + (precision + 1 + if odd { 1 } else { 0 }) / 2;
    let exp_offset = i64::from(odd);
    let (mut multiply_by, mut divide_by): (u128, u128) = if odd { (10, 10) } else { (1, 100) };
    let mut index;
    let mut scale = scale;
    // Java's int arithmetic cut to a byte: beyond 7 bits the exponent wraps (`1E+126` is
    // `0x80 0x02`); the caller keeps only what Phoenix's decoder reads back as the value.
    let exponent = |scale: i64| -(scale + exp_offset) / 2 + 65;
    if !negative {
        scale -= (length - 2) * 2;
        *result.first_mut()? = (exponent(scale) | 0x80) as u8;
        index = length;
    } else {
        scale -= (length - 3) * 2;
        *result.first_mut()? = (!(exponent(scale) + 128) & 0x7F) as u8;
        if length <= MAX_BYTES as i64 {
            index = length - 1;
            *result.get_mut(usize::try_from(index).ok()?)? = NEG_TERMINAL_BYTE;
        } else {
            length = MAX_BYTES as i64;
            index = length;
        }
    }
    let mut m = magnitude;
    loop {
        let digit = (m % divide_by) * multiply_by;
        m /= divide_by;
        index -= 1;
        if index < 1 {
            return None;
        }
        *result.get_mut(usize::try_from(index).ok()?)? = if negative {
            101 - digit as u8
        } else {
            digit as u8 + 1
        };
        multiply_by = 1;
        divide_by = 100;
        if m == 0 {
            break;
        }
    }
    if index != 1 {
        return None;
    }
    Some((result, usize::try_from(length).ok()?))
}

/// `PDataType.toBigDecimal`: (negative, unscaled magnitude, scale), with Java's `byte`
/// arithmetic for the exponent. Offsets in errors are relative to `b`.
fn from_bytes(b: &[u8]) -> Result<(bool, u128, i64), DecodeError> {
    let invalid = |at: usize, expected| {
        DecodeError::new(
            DecodeErrorKind::InvalidByte {
                byte: b.get(at).copied().unwrap_or_default(),
                expected,
            },
            at,
        )
    };
    let Some(&first) = b.first() else {
        return Err(DecodeError::truncated(0, 1, 0));
    };
    if b.len() == 1 && first == ZERO_BYTE {
        return Ok((false, 0, 0));
    }
    let negative = first & 0x80 == 0;
    let (mut scale, index) = if !negative {
        (
            i64::from((((i32::from(first) & 0x7F) - 65) * -2) as i8),
            b.len(),
        )
    } else {
        let terminated = b.last() == Some(&NEG_TERMINAL_BYTE);
        (
            i64::from(((!i32::from(first as i8) - 65 - 128) * -2) as i8),
            b.len() - usize::from(terminated),
        )
    };
    let digits = b.get(1..index).unwrap_or_default();
    if digits.is_empty() {
        return Err(invalid(
            index.min(b.len()),
            "DECIMAL digits after the exponent byte",
        ));
    }
    let digit = |i: usize| -> Result<u128, DecodeError> {
        let byte = digits.get(i).copied().unwrap_or_default();
        let d = if negative {
            101i32 - i32::from(byte)
        } else {
            i32::from(byte) - 1
        };
        if (0..100).contains(&d) {
            Ok(d as u128)
        } else {
            Err(invalid(i + 1, "a DECIMAL base-100 digit"))
        }
    };
    let overflow = || DecodeError::new(DecodeErrorKind::OutOfRange, 0);
    let last = digits.len() - 1;
    let mut l = digit(last)?;
    let mut multiplier: u128 = 100;
    if l % 10 == 0 {
        scale -= 1;
        l /= 10;
        multiplier = 10;
    }
    for i in (0..last).rev() {
        l = digit(i)?
            .checked_mul(multiplier)
            .and_then(|d| d.checked_add(l))
            .ok_or_else(overflow)?;
        multiplier = multiplier.saturating_mul(100);
    }
    scale += (index as i64 - 2) * 2;
    Ok((negative, l, scale))
}

fn big(negative: bool, magnitude: u128, scale: i64) -> BigDecimal {
    let sign = if negative { Sign::Minus } else { Sign::Plus };
    BigDecimal::new(BigInt::from_biguint(sign, magnitude.into()), scale)
}

/// The zones of `DECIMAL`'s bytes (ranks in value order): `≤ -1E+126` (0, wrapped: `0x7E`,
/// `0x7F`), `-1E+126 < v < 0` (1), zero (2, `0x80`), `0 < v < 1E+126` (3), `≥ 1E+126` (4,
/// wrapped: `0x80 0x02…`, `0x81`). Descending columns store the bytes inverted.
static DECIMAL_ZONES: super::Zones = super::Zones {
    asc: &[
        (1, &[]),
        (0, &[0x7E]),
        (2, &[0x80]),
        (4, &[0x80, 0x01]),
        (3, &[0x82]),
    ],
    // zero is `0x7F 0xFF` (its DESC separator), a wrapped positive `0x7E…` or `0x7F` and a
    // digit byte up to `0xFD`
    desc: &[
        (3, &[]),
        (4, &[0x7E]),
        (2, &[0x7F, 0xFE]),
        (0, &[0x80]),
        (1, &[0x82]),
    ],
};

/// `DECIMAL`: at most 38 significant digits (after trailing zeros are stripped), and an
/// exponent Phoenix's decoder reads back: magnitudes from `1E-126` to below `1E+130`. Phoenix's
/// exponent byte wraps from `1E+126` on (Java's `byte`), and Phoenix reads those values back
/// exactly, so they are written as it writes them; their bytes sort next to zero ([`Zones`]:
/// ranges stay exact). Below `1E-126` the byte wraps onto the same bytes, which Phoenix reads
/// as the large value (`1E-127` as `1E+129`): refused, like `1E+130` and beyond.
///
/// [`Zones`]: super::Zones
impl PhoenixType for BigDecimal {
    const WIDTH: Option<usize> = None;
    const ZONES: Option<&'static super::Zones> = Some(&DECIMAL_ZONES);
    fn zone(&self) -> u8 {
        let wrap = BigDecimal::new(BigInt::from(1), -126);
        match self.sign() {
            Sign::Minus if -self >= wrap => 0,
            Sign::Minus => 1,
            Sign::NoSign => 2,
            Sign::Plus if *self >= wrap => 4,
            Sign::Plus => 3,
        }
    }
    fn sql_type() -> Cow<'static, str> {
        Cow::Borrowed("DECIMAL")
    }
    fn encode(&self, out: &mut Vec<u8>, desc: bool) -> Result<(), EncodeErrorKind> {
        let n = self.normalized();
        let (int, scale) = n.as_bigint_and_exponent();
        let negative = int.sign() == Sign::Minus;
        let out_of_range = |range| EncodeErrorKind::ValueOutOfRange {
            value: self.to_string(),
            range,
        };
        let magnitude = int
            .magnitude()
            .to_u128()
            .filter(|&m| decimal_digits(m) <= MAX_PRECISION)
            .ok_or_else(|| out_of_range("DECIMAL values of at most 38 significant digits"))?;
        let exponent_range = "DECIMAL values with an exponent Phoenix's exponent byte holds";
        let (bytes, len) =
            to_bytes(negative, magnitude, scale).ok_or_else(|| out_of_range(exponent_range))?;
        let bytes = bytes.get(..len).unwrap_or_default();
        // Phoenix's own decoder must read the same value back (its exponent byte wraps).
        match from_bytes(bytes) {
            Ok((neg, m, s)) if big(neg, m, s) == n => {}
            _ => return Err(out_of_range(exponent_range)),
        }
        put(out, bytes, desc);
        Ok(())
    }

    /// More than 38 significant digits: just above the value rounded down to 38 (no 38-digit
    /// value lies between). From `1E+124` to below `1E+126` (a column that is not the last:
    /// exponent byte `0xFF`/`0x00`): just above the largest 38-digit magnitude below `1E+124`
    /// (just below its negative). An exponent beyond Phoenix's: above (or below) every
    /// storable value when the magnitude is at least 1, else just above (below) zero.
    fn unstorable(&self) -> super::Clamp {
        use super::{Clamp, Stored};
        let stored = |d: &BigDecimal| {
            let mut b = Vec::new();
            d.encode(&mut b, false).ok().map(|()| Stored::Bytes(b))
        };
        let n = self.normalized();
        let (_, scale) = n.as_bigint_and_exponent();
        let digits = i64::try_from(n.digits()).unwrap_or(i64::MAX);
        let floor = i64::from(MAX_PRECISION)
            .checked_sub(digits)
            .and_then(|d| scale.checked_add(d))
            .filter(|_| digits > i64::from(MAX_PRECISION))
            .map(|s| n.with_scale_round(s, bigdecimal::RoundingMode::Floor));
        if let Some(below) = floor.as_ref().and_then(stored) {
            return Clamp::JustAbove(below);
        }
        // At most 38 digits from 1E+124 to below 1E+126 (either sign): the exponent byte is
        // 0xFF (0x00 when negative), storable only as the last column; elsewhere between the
        // largest 38-digit magnitude below 1E+124 and 1E+126 (wrapped, storable).
        let magnitude = n.abs();
        if magnitude >= BigDecimal::new(BigInt::from(1), -124)
            && magnitude < BigDecimal::new(BigInt::from(1), -126)
        {
            let nines = BigDecimal::new(BigInt::from(10u128.pow(MAX_PRECISION) - 1), -86);
            let clamp = if n.sign() == Sign::Minus {
                stored(&-nines).map(Clamp::JustBelow)
            } else {
                stored(&nines).map(Clamp::JustAbove)
            };
            if let Some(c) = clamp {
                return c;
            }
        }
        let zero = || stored(&BigDecimal::from(0)).unwrap_or(Stored::Bytes(vec![ZERO_BYTE]));
        let one = BigDecimal::from(1);
        let large = n.abs() >= one;
        match (n.sign() == Sign::Minus, large) {
            (false, true) => Clamp::Above,
            (true, true) => Clamp::Below,
            (false, false) => Clamp::JustAbove(zero()),
            (true, false) => Clamp::JustBelow(zero()),
        }
    }
}

impl VariableWidth for BigDecimal {}

impl PhoenixDecode<'_> for BigDecimal {
    fn decode(bytes: &[u8], desc: bool) -> Result<Self, DecodeError> {
        let b: Cow<'_, [u8]> = if desc {
            Cow::Owned(bytes.iter().map(|b| !b).collect())
        } else {
            Cow::Borrowed(bytes)
        };
        let (negative, magnitude, scale) = from_bytes(&b)?;
        Ok(big(negative, magnitude, scale))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn enc(s: &str) -> Vec<u8> {
        let mut v = Vec::new();
        BigDecimal::from_str(s)
            .unwrap()
            .encode(&mut v, false)
            .unwrap();
        v
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// Bytes the live Phoenix 5.2.1 stored (rowkey-hbase tests, `DECIMAL` ASC).
    #[test]
    fn phoenix_vectors() {
        assert_eq!(enc("0"), [0x80]);
        assert_eq!(enc("1"), hex("c102"));
        assert_eq!(enc("-1"), hex("3e6466"));
        assert_eq!(enc("12.5"), hex("c10d33"));
        assert_eq!(enc("100"), hex("c202"));
        assert_eq!(enc("1E100"), hex("f302"));
        assert_eq!(
            enc("12345678901234567890123456789012345678"),
            hex("d30d23394f5b0d23394f5b0d23394f5b0d23394f")
        );
        assert_eq!(
            enc("-12345678901234567890123456789012345678"),
            hex("2c59432d170b59432d170b59432d170b59432d1766")
        );
        // 38 digits, odd scale, negative: no terminator (21 bytes)
        let v = enc("-1234567890123456789012345678901234567.8");
        assert_eq!(v.len(), 21);
        assert_eq!(
            v,
            hex("d39bb1c7ddf39bb1c7ddf39bb1c7ddf39bb1c7ddea")
                .iter()
                .map(|b| !b)
                .collect::<Vec<_>>()
        );
        // 39 digits: Phoenix rounds; refused here
        let mut out = Vec::new();
        assert!(matches!(
            BigDecimal::from_str("123456789012345678901234567890123456789")
                .unwrap()
                .encode(&mut out, false),
            Err(EncodeErrorKind::ValueOutOfRange { .. })
        ));
        // trailing zeros are not digits
        assert_eq!(enc("1.500"), enc("1.5"));
        assert_eq!(enc("1E+40"), hex("d502"));
    }

    /// Issue 49, from the live sweep (rowkey-hbase `phoenix_edges`): the bytes Phoenix's
    /// `UPSERT` stored for tiny values, and the value its `SELECT` returned for them — the
    /// wrapped large one. rowkey decodes them so, and refuses to write the tiny value.
    #[test]
    fn tiny_values_are_stored_as_wrapped_ones() {
        let dec = |s: &str| BigDecimal::from_str(s).unwrap();
        for (upserted, stored, selected) in [
            ("1E-130", "8002", "1E+126"),
            ("1E-127", "810b", "1E+129"),
            ("5E-127", "8133", "5E+129"),
            ("1.5E-127", "8110", "1.5E+129"),
            ("-1E-129", "7f5b66", "-1E+127"),
            ("-5E-127", "7e3366", "-5E+129"),
            ("1E+130", "8202", "1E-126"),
        ] {
            let bytes = hex(stored);
            for desc in [false, true] {
                let b: Vec<u8> = bytes.iter().map(|&b| if desc { !b } else { b }).collect();
                assert_eq!(
                    BigDecimal::decode(&b, desc).unwrap(),
                    dec(selected),
                    "{stored} (desc {desc})"
                );
                let mut out = Vec::new();
                assert!(
                    matches!(
                        dec(upserted).encode(&mut out, desc),
                        Err(EncodeErrorKind::ValueOutOfRange { .. })
                    ),
                    "{upserted}"
                );
                assert!(out.is_empty());
            }
            if selected != "1E-126" {
                assert_eq!(enc(selected), bytes, "{selected}");
                assert_eq!(
                    dec(selected).zone(),
                    if selected.starts_with('-') { 0 } else { 4 }
                );
            }
        }
        // the smallest magnitude written: 1E-126 (0x82 0x02), read back exactly
        assert_eq!(enc("1E-126"), hex("8202"));
        assert_eq!(
            BigDecimal::decode(&hex("8202"), false).unwrap(),
            dec("1E-126")
        );
    }
}
