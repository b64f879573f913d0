//! HBase interop: the printable key format of the HBase shell and logs, and shell literals.
//!
//! * [`to_string_binary`] is byte-identical with HBase `Bytes.toStringBinary`: what the shell
//!   prints for a row key (`scan`, `get`, region boundaries in the web UI and logs).
//! * [`from_string_binary`] reads that format back (HBase `Bytes.toBytesBinary`), so a key
//!   copied from the shell decodes — but it reports a malformed escape instead of silently
//!   dropping a backslash as HBase does.
//! * [`shell_literal`] and [`shell_split_literal`] write a key as a Ruby string literal for
//!   the HBase shell (JRuby): the first for commands that take the string's bytes as they are
//!   (`get`, `put`, `deleteall`, `scan` `STARTROW`/`STOPROW`), the second for `create ...,
//!   SPLITS => [...]`, which runs every split through `Bytes.toBytesBinary` first.
//!
//! ```
//! use rowkey::hbase::{from_string_binary, shell_literal, shell_split_literal, to_string_binary};
//!
//! let key = b"\x00\x07user\\1";
//! assert_eq!(to_string_binary(key), r"\x00\x07user\x5C1");
//! assert_eq!(from_string_binary(r"\x00\x07user\x5C1").unwrap(), key);
//! assert_eq!(shell_literal(key), r#""\x00\x07user\\1""#);
//! assert_eq!(shell_split_literal(key), r#""\\x00\\x07user\\x5C1""#);
//! ```

use std::fmt;

/// Whether HBase `Bytes.toStringBinary` prints this byte as itself: `0x20..=0x7E` except `\`.
const fn is_printable(b: u8) -> bool {
    matches!(b, 0x20..=0x7E) && b != b'\\'
}

/// The hex digit of `n < 16`, with `alpha` (`b'a'` or `b'A'`) for 10.
#[inline(always)]
pub(crate) fn hex_digit(n: u8, alpha: u8) -> u8 {
    if n < 10 {
        b'0' + n
    } else {
        alpha + n - 10
    }
}

fn push_hex_escape(out: &mut String, b: u8) {
    out.push('\\');
    out.push('x');
    out.push(char::from(hex_digit(b >> 4, b'A')));
    out.push(char::from(hex_digit(b & 0x0F, b'A')));
}

/// The printable form of a byte string, byte-identical with HBase `Bytes.toStringBinary`.
///
/// Bytes `0x20..=0x7E` other than `\` stand for themselves; every other byte (including `\`
/// itself, `0x5C`) is written as `\xHH` with two uppercase hex digits. This is what the HBase
/// shell prints for row keys, so keys in logs and shell output compare equal to this string.
///
/// ```
/// use rowkey::hbase::to_string_binary;
///
/// assert_eq!(to_string_binary(b"host1\x00\x7F\xFF"), r"host1\x00\x7F\xFF");
/// assert_eq!(to_string_binary(b"a\\b"), r"a\x5Cb");
/// assert_eq!(to_string_binary(b""), "");
/// ```
pub fn to_string_binary(bytes: &[u8]) -> String {
    let escaped = bytes.iter().filter(|&&b| !is_printable(b)).count();
    let mut out = String::with_capacity(bytes.len() + 3 * escaped);
    for &b in bytes {
        if is_printable(b) {
            out.push(char::from(b));
        } else {
            push_hex_escape(&mut out, b);
        }
    }
    out
}

/// Why [`from_string_binary`] rejected its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StringBinaryErrorKind {
    /// `\x` with fewer than two characters after it.
    TruncatedEscape,
    /// `\x` followed by a character that is not a hex digit (`0-9`, `A-F`, `a-f`).
    InvalidHexDigit {
        /// The offending character.
        found: char,
    },
}

/// A malformed `\x` escape in the input of [`from_string_binary`].
///
/// HBase `Bytes.toBytesBinary` silently drops the backslash of such an escape (and throws
/// `StringIndexOutOfBoundsException` on a truncated one at the end of the input); this is an
/// error here, so a mistyped key is not silently turned into a different key.
///
/// ```
/// use rowkey::hbase::{from_string_binary, StringBinaryErrorKind};
///
/// let err = from_string_binary(r"ab\xZZ").unwrap_err();
/// assert_eq!(err.offset(), 2);
/// assert_eq!(err.kind(), StringBinaryErrorKind::InvalidHexDigit { found: 'Z' });
/// // offsets in characters and in bytes differ after non-ASCII text
/// let short = from_string_binary(r"é\x1").unwrap_err();
/// assert_eq!((short.offset(), short.byte_offset()), (1, 2));
/// assert_eq!(short.kind(), StringBinaryErrorKind::TruncatedEscape);
/// assert_eq!(
///     err.to_string(),
///     r"malformed escape at character 2: `\x` must be followed by two hex digits, found 'Z'"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StringBinaryError {
    offset: usize,
    byte_offset: usize,
    kind: StringBinaryErrorKind,
}

impl StringBinaryError {
    /// Position of the escape's backslash, counted in characters (`str::chars`).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Position of the escape's backslash, counted in bytes of the UTF-8 input.
    pub fn byte_offset(&self) -> usize {
        self.byte_offset
    }

    /// What is wrong with the escape.
    pub fn kind(&self) -> StringBinaryErrorKind {
        self.kind
    }
}

impl fmt::Display for StringBinaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            StringBinaryErrorKind::TruncatedEscape => write!(
                f,
                "truncated escape at character {}: `\\x` must be followed by two hex digits",
                self.offset
            ),
            StringBinaryErrorKind::InvalidHexDigit { found } => write!(
                f,
                "malformed escape at character {}: `\\x` must be followed by two hex digits, \
                 found {found:?}",
                self.offset
            ),
        }
    }
}

impl std::error::Error for StringBinaryError {}

fn hex_value(c: char) -> Option<u8> {
    let v = c.to_digit(16)?;
    u8::try_from(v).ok()
}

/// Reads the printable form back into bytes: the inverse of [`to_string_binary`], compatible
/// with HBase `Bytes.toBytesBinary`.
///
/// * `\xHH` is the byte `0xHH`; upper- and lowercase hex digits are both accepted.
/// * Every other ASCII character stands for its own byte — including a backslash that is not
///   followed by `x` (as in HBase, so `a\b` is the three bytes `a`, `\`, `b`).
/// * A non-ASCII character stands for its UTF-8 bytes. (HBase casts each UTF-16 unit to a
///   byte, which mangles such characters; `to_string_binary` and the shell never print any.)
///
/// # Errors
///
/// A `\x` not followed by two hex digits is a [`StringBinaryError`] with the character offset
/// of the backslash, where HBase silently drops the backslash and keeps the rest.
///
/// ```
/// use rowkey::hbase::{from_string_binary, to_string_binary};
///
/// assert_eq!(from_string_binary(r"\x00\x01row\xff").unwrap(), b"\x00\x01row\xFF");
/// let all: Vec<u8> = (0..=255).collect();
/// assert_eq!(from_string_binary(&to_string_binary(&all)).unwrap(), all);
/// assert_eq!(from_string_binary(r"x\x4").unwrap_err().offset(), 1);
/// ```
pub fn from_string_binary(s: &str) -> Result<Vec<u8>, StringBinaryError> {
    let mut out = Vec::with_capacity(s.len());
    let mut chars = s.char_indices().enumerate().peekable();
    while let Some((offset, (byte_offset, c))) = chars.next() {
        if c != '\\' || !matches!(chars.peek(), Some((_, (_, 'x')))) {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        chars.next(); // the 'x'
        let err = |kind| StringBinaryError {
            offset,
            byte_offset,
            kind,
        };
        let mut digit = || match chars.next() {
            None => Err(err(StringBinaryErrorKind::TruncatedEscape)),
            Some((_, (_, d))) => {
                hex_value(d).ok_or_else(|| err(StringBinaryErrorKind::InvalidHexDigit { found: d }))
            }
        };
        let hi = digit()?;
        let lo = digit()?;
        out.push((hi << 4) | lo);
    }
    Ok(out)
}

/// Appends `s` (printable ASCII plus anything else) escaped for a Ruby double-quoted string.
fn push_ruby_escaped(out: &mut String, bytes: &[u8]) {
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            // `#{...}`, `#$var` and `#@var` interpolate in a double-quoted Ruby string.
            b'#' if matches!(bytes.get(i + 1), Some(b'{' | b'$' | b'@')) => out.push_str("\\#"),
            0x20..=0x7E => out.push(char::from(b)),
            _ => push_hex_escape(out, b),
        }
    }
}

/// A Ruby double-quoted string literal whose bytes are exactly `bytes`, for the HBase shell
/// commands that use a string's raw bytes as the row (`get`, `put`, `deleteall`, `scan` with
/// `STARTROW`/`STOPROW`/`ROWPREFIXFILTER`: they call `to_java_bytes`).
///
/// Printable ASCII stays readable; `"` and `\` are backslash-escaped, `#` is escaped where it
/// would start an interpolation (`#{`, `#$`, `#@`), and every other byte is `\xHH`.
///
/// Not for `create ... SPLITS => [...]`: the shell passes splits through
/// `Bytes.toBytesBinary`, which needs [`shell_split_literal`].
///
/// ```
/// use rowkey::hbase::shell_literal;
///
/// assert_eq!(shell_literal(b"user1\x00\xFF"), r#""user1\x00\xFF""#);
/// assert_eq!(shell_literal(br#"say "hi" #{x} \o/"#), r#""say \"hi\" \#{x} \\o/""#);
/// // in the shell: get 'ns:t', "user1\x00\xFF"
/// ```
pub fn shell_literal(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    push_ruby_escaped(&mut out, bytes);
    out.push('"');
    out
}

/// A Ruby double-quoted string literal for one entry of `create ..., SPLITS => [...]` (or
/// anything else the HBase shell passes through `Bytes.toBytesBinary`) that yields exactly
/// `bytes` as the split key.
///
/// The shell's `create` evaluates the Ruby literal and then decodes the resulting string with
/// `Bytes.toBytesBinary`, so the literal's value must be the [`to_string_binary`] form: the
/// literal is that form with its backslashes doubled (`"\\x00"` is the byte 0x00). Passing raw
/// bytes instead would break on `\` (read as an escape) and on bytes above 0x7F (mangled by the
/// Ruby → Java string conversion).
///
/// ```
/// use rowkey::hbase::shell_split_literal;
///
/// assert_eq!(shell_split_literal(b"3fffffff"), r#""3fffffff""#);
/// assert_eq!(shell_split_literal(b"\x05"), r#""\\x05""#);
/// assert_eq!(shell_split_literal(b"a\\b\"#{"), r#""a\\x5Cb\"\#{""#);
/// ```
pub fn shell_split_literal(bytes: &[u8]) -> String {
    let printable = to_string_binary(bytes);
    let mut out = String::with_capacity(printable.len() + 8);
    out.push('"');
    push_ruby_escaped(&mut out, printable.as_bytes());
    out.push('"');
    out
}

/// A Ruby single-quoted string literal for a name (table, namespace, column family):
/// only `\` and `'` need escaping.
#[cfg_attr(not(feature = "plan"), allow(dead_code))]
pub(crate) fn ruby_single_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        if c == '\\' || c == '\'' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A straight port of HBase's `Bytes.toStringBinary` loop, independent of the code above.
    fn java_to_string_binary(b: &[u8]) -> String {
        let hex = "0123456789ABCDEF".as_bytes();
        let mut result = String::new();
        for &byte in b {
            let ch = u32::from(byte);
            if ch >= u32::from(b' ') && ch <= u32::from(b'~') && ch != u32::from(b'\\') {
                result.push(char::from(byte));
            } else {
                result.push_str("\\x");
                result.push(char::from(hex[(ch / 0x10) as usize]));
                result.push(char::from(hex[(ch % 0x10) as usize]));
            }
        }
        result
    }

    /// A port of HBase 2.x `Bytes.toBytesBinary` (uppercase hex digits only; a bad escape drops
    /// the backslash; `charAt` past the end throws, modelled as `Err`). Input chars must be
    /// ASCII here (each `char` is cast to a byte, as Java does with `(byte) ch`).
    fn java_to_bytes_binary(s: &str) -> Result<Vec<u8>, &'static str> {
        let chars: Vec<char> = s.chars().collect();
        let is_hex = |c: char| c.is_ascii_digit() || ('A'..='F').contains(&c);
        let from_hex = |c: char| {
            if ('A'..='F').contains(&c) {
                10 + (c as u8 - b'A')
            } else {
                c as u8 - b'0'
            }
        };
        let mut b = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let ch = chars[i];
            if ch == '\\' && chars.len() > i + 1 && chars[i + 1] == 'x' {
                let hd1 = *chars.get(i + 2).ok_or("StringIndexOutOfBoundsException")?;
                let hd2 = *chars.get(i + 3).ok_or("StringIndexOutOfBoundsException")?;
                if !is_hex(hd1) || !is_hex(hd2) {
                    i += 1;
                    continue;
                }
                b.push((from_hex(hd1) << 4) + from_hex(hd2));
                i += 4;
            } else {
                assert!(ch.is_ascii(), "model only covers ASCII input");
                b.push(ch as u8);
                i += 1;
            }
        }
        Ok(b)
    }

    /// Reads one Ruby double-quoted string literal (the whole input) into the bytes of the
    /// resulting Ruby string. Rejects unescaped interpolation and unknown escapes.
    fn ruby_double_quoted(lit: &str) -> Result<Vec<u8>, String> {
        let body = lit
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .ok_or_else(|| format!("not a double-quoted literal: {lit}"))?;
        let bytes = body.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'"' => return Err(format!("unescaped quote at {i}")),
                b'#' if matches!(bytes.get(i + 1), Some(b'{' | b'$' | b'@')) => {
                    return Err(format!("interpolation at {i}"))
                }
                b'\\' => {
                    let e = *bytes.get(i + 1).ok_or("trailing backslash")?;
                    i += 2;
                    match e {
                        b'\\' | b'"' | b'#' | b'\'' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'0' => out.push(0),
                        b's' => out.push(b' '),
                        b'e' => out.push(0x1B),
                        b'a' => out.push(0x07),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0C),
                        b'v' => out.push(0x0B),
                        b'x' => {
                            // Ruby: one or two hex digits.
                            let mut v: u32 = 0;
                            let mut n = 0;
                            while n < 2 {
                                match bytes.get(i).and_then(|&d| char::from(d).to_digit(16)) {
                                    Some(d) => {
                                        v = v * 16 + d;
                                        i += 1;
                                        n += 1;
                                    }
                                    None => break,
                                }
                            }
                            if n == 0 {
                                return Err("invalid hex escape".into());
                            }
                            out.push(v as u8);
                        }
                        other => return Err(format!("unexpected escape \\{}", char::from(other))),
                    }
                    continue;
                }
                _ => out.push(c),
            }
            i += 1;
        }
        Ok(out)
    }

    #[test]
    fn to_string_binary_matches_java_for_every_byte() {
        for b in 0..=255u8 {
            let s = to_string_binary(&[b]);
            assert_eq!(s, java_to_string_binary(&[b]));
            if (0x20..=0x7E).contains(&b) && b != b'\\' {
                assert_eq!(s, char::from(b).to_string());
            } else {
                assert_eq!(s, format!("\\x{b:02X}"));
            }
        }
        assert_eq!(to_string_binary(b"\\"), "\\x5C");
        assert_eq!(
            to_string_binary(b"\x00\x0A~ \x7F\x80\xFF"),
            r"\x00\x0A~ \x7F\x80\xFF"
        );
    }

    #[test]
    fn round_trip_all_256_bytes() {
        let all: Vec<u8> = (0..=255).collect();
        let s = to_string_binary(&all);
        assert!(s.is_ascii());
        assert_eq!(from_string_binary(&s).unwrap(), all);
        assert_eq!(java_to_bytes_binary(&s).unwrap(), all);
        for b in 0..=255u8 {
            assert_eq!(
                from_string_binary(&to_string_binary(&[b])).unwrap(),
                vec![b]
            );
        }
    }

    #[test]
    fn from_string_binary_reads_shell_output() {
        // Lowercase as well as uppercase hex digits.
        assert_eq!(from_string_binary(r"\x0a\x0A\xfF").unwrap(), b"\n\n\xFF");
        // A backslash that does not start `\x` is literal, as in HBase.
        assert_eq!(from_string_binary(r"a\b").unwrap(), b"a\\b");
        assert_eq!(from_string_binary("end\\").unwrap(), b"end\\");
        assert_eq!(from_string_binary(r"\X41").unwrap(), b"\\X41");
        assert_eq!(from_string_binary(r"\\x41").unwrap(), b"\\A");
        assert_eq!(java_to_bytes_binary(r"\\x41").unwrap(), b"\\A");
        // Non-ASCII stands for its UTF-8 bytes.
        assert_eq!(from_string_binary("é").unwrap(), "é".as_bytes());
        assert_eq!(from_string_binary("").unwrap(), b"");
    }

    #[test]
    fn malformed_escapes_are_errors_with_offsets() {
        let e = from_string_binary(r"\xG0").unwrap_err();
        assert_eq!((e.offset(), e.byte_offset()), (0, 0));
        assert_eq!(
            e.kind(),
            StringBinaryErrorKind::InvalidHexDigit { found: 'G' }
        );
        let e = from_string_binary(r"é\x0").unwrap_err();
        assert_eq!((e.offset(), e.byte_offset()), (1, 2));
        assert_eq!(e.kind(), StringBinaryErrorKind::TruncatedEscape);
        let e = from_string_binary(r"ab\x").unwrap_err();
        assert_eq!(e.offset(), 2);
        assert_eq!(e.kind(), StringBinaryErrorKind::TruncatedEscape);
        let e = from_string_binary("\\x0é").unwrap_err();
        assert_eq!(
            e.kind(),
            StringBinaryErrorKind::InvalidHexDigit { found: 'é' }
        );
        assert!(e.to_string().contains("character 0"));
        // What HBase does with the same input: the backslash silently disappears.
        assert_eq!(java_to_bytes_binary(r"\xG0").unwrap(), b"xG0");
        assert!(java_to_bytes_binary(r"ab\x").is_err());
        let boxed: Box<dyn std::error::Error> = Box::new(e);
        assert!(!boxed.to_string().is_empty());
    }

    #[test]
    fn shell_literal_reads_back() {
        for b in 0..=255u8 {
            let lit = shell_literal(&[b]);
            assert_eq!(ruby_double_quoted(&lit).unwrap(), vec![b], "{lit}");
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(ruby_double_quoted(&shell_literal(&all)).unwrap(), all);
        assert_eq!(shell_literal(b"#{x}#$y#@z#a#"), r#""\#{x}\#$y\#@z#a#""#);
        // A hex escape followed by a hex-digit character stays two digits long.
        assert_eq!(shell_literal(b"\x00AB"), r#""\x00AB""#);
        assert_eq!(ruby_double_quoted(r#""\x00AB""#).unwrap(), b"\x00AB");
    }

    #[test]
    fn shell_split_literal_reads_back_through_to_bytes_binary() {
        for b in 0..=255u8 {
            let lit = shell_split_literal(&[b]);
            let ruby = ruby_double_quoted(&lit).unwrap();
            assert!(ruby.is_ascii());
            let java = java_to_bytes_binary(std::str::from_utf8(&ruby).unwrap()).unwrap();
            assert_eq!(java, vec![b], "{lit}");
        }
        assert_eq!(shell_split_literal(b"#{"), r#""\#{""#);
    }

    #[test]
    fn single_quoted_names() {
        assert_eq!(ruby_single_quoted("ns:t"), "'ns:t'");
        assert_eq!(ruby_single_quoted(r"a'b\c"), r"'a\'b\\c'");
    }

    proptest! {
        #[test]
        fn prop_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let s = to_string_binary(&bytes);
            prop_assert_eq!(&s, &java_to_string_binary(&bytes));
            prop_assert_eq!(from_string_binary(&s).unwrap(), bytes.clone());
            prop_assert_eq!(java_to_bytes_binary(&s).unwrap(), bytes.clone());
        }

        #[test]
        fn prop_shell_literals(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(ruby_double_quoted(&shell_literal(&bytes)).unwrap(), bytes.clone());
            let ruby = ruby_double_quoted(&shell_split_literal(&bytes)).unwrap();
            let java = java_to_bytes_binary(std::str::from_utf8(&ruby).unwrap()).unwrap();
            prop_assert_eq!(java, bytes);
        }

        #[test]
        fn prop_from_string_binary_never_panics(s in "\\PC{0,40}") {
            let _ = from_string_binary(&s);
        }

        #[test]
        fn prop_agrees_with_java_where_java_is_defined(s in "[a-zA-Z0-9\\\\x ]{0,24}") {
            // Where HBase neither drops a backslash nor throws, the results are identical.
            if let (Ok(ours), Ok(java)) = (from_string_binary(&s), java_to_bytes_binary(&s)) {
                let lower = s.contains("\\x") && s.chars().any(|c| ('a'..='f').contains(&c));
                if !lower {
                    prop_assert_eq!(ours, java);
                }
            }
        }
    }
}
