//! The Bigtable struct-key byte format, once: `Int64` encodings, `OrderedCodeBytes` escaping
//! and field splitting, `DelimitedBytes` delimiters. [`StructSchema`](super::StructSchema)
//! (schemas known at run time) and the derived key mode's codecs ([`Ordered`](super::Ordered),
//! [`Delimited`](super::Delimited), [`Singleton`](super::Singleton)) both call these functions.

use std::borrow::Cow;

use bytes::BufMut;

use crate::error::{DecodeError, DecodeErrorKind, EncodeErrorKind};

/// An `Int64` encoding (`Type.Int64.Encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Int64Encoding {
    /// 8-byte big-endian two's complement. Sorts only for non-negative values.
    BigEndianBytes,
    /// Google's orderedcode signed varint (1 to 10 bytes); sorts for all values.
    OrderedCodeBytes,
}

impl Int64Encoding {
    /// Append `value` in this encoding.
    ///
    /// ```
    /// use rowkey::struct_key::Int64Encoding;
    ///
    /// let mut out = Vec::new();
    /// Int64Encoding::OrderedCodeBytes.encode(64, &mut out);
    /// assert_eq!(out, [0xC0, 0x40]);
    /// ```
    pub fn encode(self, value: i64, out: &mut Vec<u8>) {
        let (bytes, n) = self.bytes(value);
        out.extend_from_slice(bytes.get(..n).unwrap_or_default());
    }

    /// [`encode`](Self::encode) into an array: the encoding is its first `n` bytes.
    pub(crate) fn bytes(self, value: i64) -> ([u8; 10], usize) {
        match self {
            Self::BigEndianBytes => {
                let mut out = [0u8; 10];
                if let Some(head) = out.first_chunk_mut::<8>() {
                    *head = value.to_be_bytes();
                }
                (out, 8)
            }
            Self::OrderedCodeBytes => ordered_code_i64(value),
        }
    }

    /// Decode a value that fills `bytes` exactly (offsets in errors are into `bytes`).
    pub fn decode(self, bytes: &[u8]) -> Result<i64, DecodeError> {
        match self {
            Self::BigEndianBytes => match <[u8; 8]>::try_from(bytes) {
                Ok(b) => Ok(i64::from_be_bytes(b)),
                Err(_) if bytes.len() < 8 => Err(DecodeError::truncated(
                    bytes.len(),
                    8 - bytes.len(),
                    bytes.len(),
                )),
                Err(_) => Err(DecodeError::new(
                    DecodeErrorKind::TrailingBytes {
                        count: bytes.len() - 8,
                    },
                    8,
                )),
            },
            Self::OrderedCodeBytes => {
                let (value, used) = decode_ordered_code_i64(bytes)?;
                if used < bytes.len() {
                    return Err(DecodeError::new(
                        DecodeErrorKind::TrailingBytes {
                            count: bytes.len() - used,
                        },
                        used,
                    ));
                }
                Ok(value)
            }
        }
    }
}

/// Append `value` as Google's orderedcode signed varint (`Int64.Encoding.OrderedCodeBytes`):
/// for a non-negative value, `n` leading one bits, a zero bit, then the value big-endian, in
/// the fewest bytes `n` (1 to 10) that hold it; a negative value is the bitwise inverse of the
/// encoding of `!value`.
///
/// ```
/// use rowkey::struct_key::encode_ordered_code_i64;
///
/// let enc = |v| { let mut out = Vec::new(); encode_ordered_code_i64(v, &mut out); out };
/// assert_eq!(enc(0), [0x80]);
/// assert_eq!(enc(-1), [0x7F]);
/// assert_eq!(enc(64), [0xC0, 0x40]);
/// assert_eq!(enc(256), [0xC1, 0x00]);
/// assert_eq!(enc(i64::MAX), [0xFF, 0xC0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
/// assert_eq!(enc(i64::MIN), [0x00, 0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0]);
/// ```
pub fn encode_ordered_code_i64(value: i64, out: &mut Vec<u8>) {
    let (bytes, n) = ordered_code_i64(value);
    out.extend_from_slice(bytes.get(..n).unwrap_or_default());
}

/// [`encode_ordered_code_i64`] into an array: the encoding is its first `n` bytes.
pub(crate) fn ordered_code_i64(value: i64) -> ([u8; 10], usize) {
    let neg = value < 0;
    // the magnitude to encode: the value, or its inverse (which is >= 0) for a negative one
    let y = if neg { !value } else { value } as u64;
    let n = ordered_code_len(y);
    // n leading one bits over the 8n-bit number, then the value (which leaves the bit after
    // them zero: it fits in 7n - 1 bits)
    let bits = 8 * n as u32;
    let ones = ((1u128 << n) - 1) << (bits - n as u32);
    let word = ones | u128::from(y);
    let all = word.to_be_bytes();
    let mut out = [0u8; 10];
    for (o, b) in out.iter_mut().zip(all.iter().skip(16 - n)) {
        *o = if neg { !b } else { *b };
    }
    (out, n)
}

/// Bytes of the orderedcode encoding of a non-negative magnitude: the least `n` with
/// `y < 2^(7n - 1)`.
fn ordered_code_len(y: u64) -> usize {
    let mut n = 1usize;
    while n < 10 && (7 * n - 1) < 64 && y >> (7 * n - 1) != 0 {
        n += 1;
    }
    n
}

/// Decode an orderedcode signed varint from the start of `bytes`: the value and how many bytes
/// it took. Only the canonical (shortest) form is accepted.
///
/// ```
/// use rowkey::struct_key::decode_ordered_code_i64;
///
/// assert_eq!(decode_ordered_code_i64(&[0xC1, 0x00, 0x42])?, (256, 2));
/// assert!(decode_ordered_code_i64(&[0xC0]).is_err()); // truncated
/// assert!(decode_ordered_code_i64(&[0xC0, 0x01]).is_err()); // 1 is written as 0x81
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
pub fn decode_ordered_code_i64(bytes: &[u8]) -> Result<(i64, usize), DecodeError> {
    let Some(&first) = bytes.first() else {
        return Err(DecodeError::truncated(0, 1, 0));
    };
    // a leading zero bit is a negative value, stored inverted
    let dir = if first & 0x80 == 0 { 0xFF } else { 0x00 };
    let mut n = (first ^ dir).leading_ones() as usize;
    if n == 8 {
        // a full byte of ones: the count goes on in the next byte
        let Some(&second) = bytes.get(1) else {
            return Err(DecodeError::truncated(bytes.len(), 1, bytes.len()));
        };
        n += (second ^ dir).leading_ones() as usize;
    }
    if n > 10 {
        return Err(DecodeError::new(
            DecodeErrorKind::InvalidByte {
                byte: bytes.get(1).copied().unwrap_or(first),
                expected: "an orderedcode Int64 of at most 10 bytes",
            },
            1,
        ));
    }
    let Some(encoded) = bytes.get(..n) else {
        return Err(DecodeError::truncated(
            bytes.len(),
            n - bytes.len(),
            bytes.len(),
        ));
    };
    let mut word = 0u128;
    for b in encoded {
        word = (word << 8) | u128::from(b ^ dir);
    }
    let bits = 8 * n as u32;
    let ones = ((1u128 << n) - 1) << (bits - n as u32);
    let y = word & !ones;
    if y > i64::MAX as u128 {
        return Err(DecodeError::new(DecodeErrorKind::OutOfRange, 0));
    }
    let y = y as u64;
    if ordered_code_len(y) != n {
        return Err(DecodeError::new(
            DecodeErrorKind::NonCanonical("an orderedcode Int64 longer than its shortest form"),
            0,
        ));
    }
    let value = if dir == 0xFF { !(y as i64) } else { y as i64 };
    Ok((value, n))
}

pub(crate) const fn int64(be: bool) -> Int64Encoding {
    if be {
        Int64Encoding::BigEndianBytes
    } else {
        Int64Encoding::OrderedCodeBytes
    }
}

/// Append `raw` with `00` escaped as `00 FF` (an empty field as `00 00`).
pub(crate) fn escape_into<B: BufMut>(raw: &[u8], out: &mut B) {
    if raw.is_empty() {
        out.put_slice(&[0x00, 0x00]);
        return;
    }
    let mut rest = raw;
    while let Some(i) = rest.iter().position(|&b| b == 0x00) {
        out.put_slice(rest.get(..i).unwrap_or_default());
        out.put_slice(&[0x00, 0xFF]);
        rest = rest.get(i + 1..).unwrap_or_default();
    }
    out.put_slice(rest);
}

/// The length of `raw` as [`escape_into`] writes it.
pub(crate) fn escaped_len(raw: &[u8]) -> usize {
    if raw.is_empty() {
        2
    } else {
        raw.len() + raw.iter().filter(|&&b| b == 0x00).count()
    }
}

/// Append one `OrderedCodeBytes` field: `raw` escaped (an empty field as `00 00`), then
/// `00 01` unless it is the last written.
pub(crate) fn put_ordered<B: BufMut>(raw: &[u8], last: bool, out: &mut B) {
    escape_into(raw, out);
    if !last {
        out.put_slice(&[0x00, 0x01]);
    }
}

/// One field of an `OrderedCodeBytes` key from the front of `input`: its unescaped bytes
/// (borrowed when nothing was escaped) and how many key bytes it used (with its `00 01`).
pub(crate) fn ordered_split(
    input: &[u8],
    first: bool,
    last: bool,
) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
    if input.is_empty() {
        // the key ended before: a dropped trailing empty field (the first field never is)
        if first {
            return Err(DecodeError::truncated(0, 2, 0));
        }
        return Ok((Cow::Borrowed(&[]), 0));
    }
    let sep_after = |at: usize| -> Result<usize, DecodeError> {
        // `at` is where the field's bytes end; what follows: the end, or 00 01 and more
        match input.get(at..) {
            Some([]) | None => Ok(at),
            Some([0x00, 0x01]) if !last => Err(DecodeError::new(
                DecodeErrorKind::NonCanonical(
                    "00 01 at the end of the key (trailing empty fields are not written)",
                ),
                at,
            )),
            Some([0x00, 0x01, ..]) if !last => Ok(at + 2),
            // more fields than the key has: the key's own trailing-bytes check reports them
            Some([0x00, 0x01, ..]) => Ok(at),
            Some([0x00]) => Err(DecodeError::truncated(input.len(), 1, input.len() - at)),
            Some([0x00, b, ..]) => Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: *b,
                    expected: if last {
                        "the end of the key"
                    } else {
                        "00 01 (between fields)"
                    },
                },
                at + 1,
            )),
            Some([b, ..]) => Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: *b,
                    expected: "00 01 after an empty field's 00 00",
                },
                at,
            )),
        }
    };
    match input {
        [0x00, 0x00, rest @ ..] => {
            if rest.is_empty() && !first {
                return Err(DecodeError::new(
                    DecodeErrorKind::NonCanonical("a trailing empty field is not written"),
                    0,
                ));
            }
            let used = sep_after(2)?;
            Ok((Cow::Borrowed(&[]), used))
        }
        [0x00, 0x01, ..] => Err(DecodeError::new(
            DecodeErrorKind::InvalidByte {
                byte: 0x01,
                expected: "00 00 (an empty field) or 00 FF (an escaped 00)",
            },
            1,
        )),
        _ => {
            let mut owned: Option<Vec<u8>> = None;
            let mut i = 0usize;
            while let Some(&b) = input.get(i) {
                if b != 0x00 {
                    if let Some(o) = owned.as_mut() {
                        o.push(b);
                    }
                    i += 1;
                    continue;
                }
                match input.get(i + 1) {
                    Some(0xFF) => {
                        let o = owned
                            .get_or_insert_with(|| input.get(..i).unwrap_or_default().to_vec());
                        o.push(0x00);
                        i += 2;
                    }
                    Some(0x01) => break,
                    None => return Err(DecodeError::truncated(input.len(), 1, input.len())),
                    Some(&other) => {
                        return Err(DecodeError::new(
                            DecodeErrorKind::InvalidByte {
                                byte: other,
                                expected: "00 01 (between fields) or 00 FF (an escaped 00)",
                            },
                            i + 1,
                        ))
                    }
                }
            }
            let used = sep_after(i)?;
            let content = match owned {
                Some(o) => Cow::Owned(o),
                None => Cow::Borrowed(input.get(..i).unwrap_or_default()),
            };
            Ok((content, used))
        }
    }
}

/// Where content byte `k` of an escaped field sits in the key (for error offsets).
pub(crate) fn escaped_offset(input: &[u8], k: usize) -> usize {
    let mut seen = 0usize;
    let mut i = 0usize;
    while let Some(&b) = input.get(i) {
        if seen == k {
            return i;
        }
        i += if b == 0x00 { 2 } else { 1 };
        seen += 1;
    }
    i
}

/// Check the field bytes `out[at..]` (just appended) for the delimiter's first byte, which a
/// `DelimitedBytes` field never holds, and append the delimiter unless the field is the last.
/// On an error the field's bytes are removed again.
pub(crate) fn put_delimited(
    out: &mut Vec<u8>,
    at: usize,
    delimiter: &[u8],
    last: bool,
) -> Result<(), EncodeErrorKind> {
    if let Err(e) = check_delimited(out.get(at..).unwrap_or_default(), delimiter) {
        out.truncate(at);
        return Err(e);
    }
    if !last {
        out.extend_from_slice(delimiter);
    }
    Ok(())
}

/// A `DelimitedBytes` field's bytes `raw`, then the delimiter unless it is the last — or the
/// error of a field holding the delimiter's first byte (nothing written then).
pub(crate) fn put_delimited_raw<B: BufMut>(
    raw: &[u8],
    delimiter: &[u8],
    last: bool,
    out: &mut B,
) -> Result<(), EncodeErrorKind> {
    check_delimited(raw, delimiter)?;
    out.put_slice(raw);
    if !last {
        out.put_slice(delimiter);
    }
    Ok(())
}

/// Whether a field's bytes are free of the delimiter's first byte.
fn check_delimited(raw: &[u8], delimiter: &[u8]) -> Result<(), EncodeErrorKind> {
    let first = delimiter.first().copied().unwrap_or(0);
    match raw.iter().position(|&c| c == first) {
        Some(p) => Err(EncodeErrorKind::ContainsSeparator { sep: first, at: p }),
        None => Ok(()),
    }
}

/// One field of a `DelimitedBytes` key from the front of `input`: its bytes, and how many key
/// bytes it used with its delimiter — or why the bytes after it are not the delimiter. That
/// second result is the caller's to check after decoding the value (the reference decodes the
/// value first). A field that is not the last ends at the delimiter's first byte; the last
/// field is the bytes up to the next first byte of the delimiter (the key's own trailing-bytes
/// check reports what follows).
pub(crate) fn delimited_split<'de>(
    input: &'de [u8],
    delimiter: &[u8],
    last: bool,
) -> Result<(&'de [u8], Result<usize, DecodeError>), DecodeError> {
    let Some(&first) = delimiter.first() else {
        return Err(DecodeError::new(
            DecodeErrorKind::NonCanonical("empty delimiter"),
            0,
        ));
    };
    let end = input.iter().position(|&b| b == first);
    match (end, last) {
        (None, false) => Err(DecodeError::new(
            DecodeErrorKind::MissingTerminator,
            input.len(),
        )),
        (None, true) => Ok((input, Ok(input.len()))),
        (Some(len), false) => {
            let after = input.get(len..).unwrap_or_default();
            let content = input.get(..len).unwrap_or_default();
            let used = if after.starts_with(delimiter) {
                Ok(len + delimiter.len())
            } else {
                Err(mismatch_delimiter(after, delimiter, len, input.len()))
            };
            Ok((content, used))
        }
        (Some(len), true) => Ok((input.get(..len).unwrap_or_default(), Ok(len))),
    }
}

/// The error for bytes `rest` (at `base` in a key of `len` bytes) that should be the delimiter.
pub(crate) fn mismatch_delimiter(
    rest: &[u8],
    delimiter: &[u8],
    base: usize,
    len: usize,
) -> DecodeError {
    let at = rest
        .iter()
        .zip(delimiter)
        .position(|(a, b)| a != b)
        .unwrap_or(rest.len().min(delimiter.len()));
    match rest.get(at) {
        Some(&byte) => DecodeError::new(
            DecodeErrorKind::InvalidByte {
                byte,
                expected: "the delimiter (a field's bytes never contain its first byte)",
            },
            base + at,
        ),
        None => DecodeError::truncated(len, delimiter.len() - at, rest.len()),
    }
}
