//! [`FromText`] for the field types: integers (decimal or `0x` hex), floats, `bool`, `char`,
//! strings and bytes (HBase `toStringBinary` escapes, hex), `Option`s; and what the derived
//! impls of fieldless enums (a variant name or code) and nested keys call.

use super::args::{FromText, TextArgs};
use super::error::TextError;
use crate::hbase::from_string_binary;

fn split_sign(s: &str) -> (bool, &str) {
    match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    }
}

fn parse_i128(s: &str) -> Result<i128, String> {
    let (neg, body) = split_sign(s.trim());
    let mag = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => u128::from_str_radix(h, 16),
        None => body.parse::<u128>(),
    }
    .map_err(|e| e.to_string())?;
    if neg {
        0i128
            .checked_sub_unsigned(mag)
            .ok_or_else(|| "number too small to fit in target type".to_owned())
    } else {
        i128::try_from(mag).map_err(|_| "number too large to fit in target type".to_owned())
    }
}

fn parse_u128(s: &str) -> Result<u128, String> {
    let (neg, body) = split_sign(s.trim());
    let mag = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => u128::from_str_radix(h, 16),
        None => body.parse::<u128>(),
    }
    .map_err(|e| e.to_string())?;
    if neg && mag != 0 {
        return Err("a negative number for an unsigned type".to_owned());
    }
    Ok(mag)
}

macro_rules! text_uint {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            const EXPECTED: &'static str = concat!("an unsigned integer (", stringify!($t), ", decimal or 0x hex)");
            fn parse_text(s: &str) -> Result<Self, String> {
                let v = parse_u128(s)?;
                <$t>::try_from(v).map_err(|_| format!("out of range for {}", stringify!($t)))
            }
        }
    )*};
}
text_uint!(u8, u16, u32, u64, u128);

macro_rules! text_int {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            const EXPECTED: &'static str = concat!("an integer (", stringify!($t), ", decimal or 0x hex)");
            fn parse_text(s: &str) -> Result<Self, String> {
                let v = parse_i128(s)?;
                <$t>::try_from(v).map_err(|_| format!("out of range for {}", stringify!($t)))
            }
        }
    )*};
}
text_int!(i8, i16, i32, i64, i128);

macro_rules! text_float {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            const EXPECTED: &'static str = concat!("a number (", stringify!($t), ")");
            fn parse_text(s: &str) -> Result<Self, String> {
                s.trim().parse::<$t>().map_err(|e| e.to_string())
            }
        }
    )*};
}
text_float!(f32, f64);

impl FromText for bool {
    const EXPECTED: &'static str = "true or false";
    fn parse_text(s: &str) -> Result<Self, String> {
        match s.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err("not a bool".to_owned()),
        }
    }
}

impl FromText for char {
    const EXPECTED: &'static str = "one character";
    fn parse_text(s: &str) -> Result<Self, String> {
        let text = parse_string(s)?;
        let mut it = text.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Ok(c),
            _ => Err("not exactly one character".to_owned()),
        }
    }
}

fn parse_string(s: &str) -> Result<String, String> {
    let bytes = from_string_binary(s).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 after unescaping: {e}"))
}

fn parse_bytes(s: &str) -> Result<Vec<u8>, String> {
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_prefix("hex:"));
    match hex {
        Some(h) => parse_hex(h),
        None => from_string_binary(s).map_err(|e| e.to_string()),
    }
}

/// Hex digits (upper or lower case; spaces, `:` and `_` between bytes are ignored) as bytes.
///
/// # Errors
///
/// A non-hex character or an odd number of digits.
pub fn parse_hex(h: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = h
        .bytes()
        .filter(|b| !matches!(b, b' ' | b':' | b'_'))
        .collect();
    if !digits.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".to_owned());
    }
    digits
        .chunks_exact(2)
        .map(|c| match c {
            [hi, lo] => match (hex_val(*hi), hex_val(*lo)) {
                (Some(h), Some(l)) => Ok((h << 4) | l),
                _ => Err(format!(
                    "not a hex digit in {:?}",
                    String::from_utf8_lossy(c)
                )),
            },
            _ => Err("an odd number of hex digits".to_owned()),
        })
        .collect()
}

fn hex_val(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

const TEXT: &str = "text (toStringBinary escapes such as \\x00 allowed)";
const BYTES: &str = "bytes (0x… / hex:… hex, or toStringBinary text such as ab\\x00\\xFF)";

impl FromText for String {
    const EXPECTED: &'static str = TEXT;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_string(s)
    }
}
impl FromText for Box<str> {
    const EXPECTED: &'static str = TEXT;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_string(s).map(String::into_boxed_str)
    }
}
impl FromText for Vec<u8> {
    const EXPECTED: &'static str = BYTES;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_bytes(s)
    }
}
impl FromText for bytes::Bytes {
    const EXPECTED: &'static str = BYTES;
    fn parse_text(s: &str) -> Result<Self, String> {
        parse_bytes(s).map(bytes::Bytes::from)
    }
}
impl<const N: usize> FromText for [u8; N] {
    const EXPECTED: &'static str = "fixed-size bytes (0x… / hex:… hex, or toStringBinary text)";
    fn parse_text(s: &str) -> Result<Self, String> {
        let v = parse_bytes(s)?;
        let len = v.len();
        <[u8; N]>::try_from(v).map_err(|_| format!("{len} byte(s), the field takes exactly {N}"))
    }
}
impl<T: FromText> FromText for Option<T> {
    const EXPECTED: &'static str = "none, or a value";
    fn expected() -> String {
        format!("none, or {}", T::expected())
    }
    fn parse_text(s: &str) -> Result<Self, String> {
        match s.trim() {
            "none" | "null" | "None" => Ok(None),
            _ => T::parse_text(s).map(Some),
        }
    }
    fn from_args(args: &mut TextArgs, path: &str) -> Result<Self, TextError> {
        let s = args.take(path, &Self::expected())?;
        match s.trim() {
            "none" | "null" | "None" => Ok(None),
            _ => T::parse_text(&s).map(Some).map_err(|e| {
                args.bad_value(
                    path,
                    &s,
                    format!("expected none or {}, got {s:?}: {e}", T::expected()),
                )
            }),
        }
    }
}

/// A fieldless enum value from its variant name or code: `names` and `codes` in declaration order.
///
/// # Errors
///
/// Neither a variant name nor a known code.
#[doc(hidden)]
pub fn enum_index(s: &str, names: &[&str], codes: &[i128]) -> Result<usize, String> {
    let t = s.trim();
    if let Some(i) = names.iter().position(|n| *n == t) {
        return Ok(i);
    }
    if let Ok(code) = parse_i128(t) {
        if let Some(i) = codes.iter().position(|c| *c == code) {
            return Ok(i);
        }
        return Err(format!("no variant has code {code}"));
    }
    Err(format!("not a variant (variants: {})", names.join(", ")))
}

/// The error a borrowed key (one with lifetime parameters) gives: the key tool builds keys
/// from text it does not keep, so it reads owned keys only.
#[doc(hidden)]
pub fn borrowed_unsupported(path: &str, name: &str) -> TextError {
    TextError::new(
        path,
        format!(
            "`{name}` borrows (it has lifetime parameters): the key tool reads owned keys only, e.g. `String` for `&str`"
        ),
    )
}

/// For a nested key: text alone cannot give it.
#[doc(hidden)]
pub fn nested_text(name: &str) -> String {
    format!("`{name}` is a nested key: give its fields as field.sub=value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_parsers() {
        assert_eq!(u8::parse_text("0xFF"), Ok(255));
        assert!(u8::parse_text("256").is_err());
        assert!(u32::parse_text("-1").is_err());
        assert_eq!(u32::parse_text("-0"), Ok(0));
        assert_eq!(i8::parse_text("-0x80"), Ok(-128));
        assert!(i8::parse_text("-0x81").is_err());
        assert_eq!(i128::parse_text(&i128::MIN.to_string()), Ok(i128::MIN));
        assert_eq!(u128::parse_text(&u128::MAX.to_string()), Ok(u128::MAX));
        assert_eq!(f64::parse_text("-0"), Ok(-0.0));
        assert_eq!(bool::parse_text("true"), Ok(true));
        assert!(bool::parse_text("yes").is_err());
        assert_eq!(char::parse_text(r"\x41"), Ok('A'));
        assert_eq!(char::parse_text("é"), Ok('é'));
        assert!(char::parse_text("ab").is_err());
        assert_eq!(String::parse_text(r"a\x00\x5Cb"), Ok("a\0\\b".to_owned()));
        assert!(String::parse_text(r"\xFF").is_err()); // not UTF-8
        assert!(String::parse_text(r"\x4").is_err());
        assert_eq!(Vec::<u8>::parse_text("0xdead"), Ok(vec![0xDE, 0xAD]));
        assert_eq!(Vec::<u8>::parse_text("hex:de:ad"), Ok(vec![0xDE, 0xAD]));
        assert_eq!(Vec::<u8>::parse_text(r"a\xFF"), Ok(vec![b'a', 0xFF]));
        assert!(Vec::<u8>::parse_text("0xabc").is_err());
        assert_eq!(<[u8; 2]>::parse_text("ab"), Ok(*b"ab"));
        assert!(<[u8; 2]>::parse_text("abc").is_err());
        assert_eq!(Option::<u8>::parse_text("none"), Ok(None));
        assert_eq!(Option::<u8>::parse_text("7"), Ok(Some(7)));
        assert_eq!(
            Option::<String>::parse_text(r"\x6Eone"),
            Ok(Some("none".to_owned()))
        );
        assert_eq!(enum_index("B", &["A", "B"], &[1, 2]), Ok(1));
        assert_eq!(enum_index("0x01", &["A", "B"], &[1, 2]), Ok(0));
        assert!(enum_index("3", &["A", "B"], &[1, 2]).is_err());
    }
}
