//! The Phoenix row-key format, once: separators, which values a column can hold, and reading
//! one value back. [`KeyWriter`](super::KeyWriter), [`KeyReader`](super::KeyReader) and the
//! derived key mode's codecs ([`Col`](super::Col), [`LastCol`](super::LastCol)) all call these
//! functions, so the runtime and the derive cannot disagree on a byte.

use super::traits::{PhoenixDecode, PhoenixType};
use crate::error::{DecodeError, DecodeErrorKind, EncodeErrorKind};

/// The largest `SALT_BUCKETS` Phoenix allows (one salt byte).
pub const MAX_SALT_BUCKETS: u32 = 256;

/// The separator after a non-NULL ascending value, and after every NULL.
pub const SEPARATOR: u8 = 0x00;
/// The separator after a non-NULL descending value in a `rowKeyOrderOptimizable` table.
pub const DESC_SEPARATOR: u8 = 0xFF;

/// Phoenix's `SchemaUtil.getSeparatorByte`.
#[inline]
pub const fn separator(row_key_order_optimizable: bool, was_null: bool, desc: bool) -> u8 {
    if row_key_order_optimizable && !was_null && desc {
        DESC_SEPARATOR
    } else {
        SEPARATOR
    }
}

/// Whether Phoenix reads the variable-width value `bytes` (as stored: inverted when `desc`)
/// back as written, in a column that is the table's last or not.
///
/// Phoenix's `SELECT` finds a key column with `RowKeyValueAccessor`, which ends a column that
/// is not the last at the first `0x00` *or* `0xFF` (whatever the sort order), and drops one
/// trailing `0xFF` from the last column (whatever the sort order: for a DESC column that is
/// the separator). `RowKeySchema` (scans, the key's own parsing) also reads a first `0x00` as
/// NULL. So: no `0x00`/`0xFF` inside a value that is not the last. A trailing `0xFF` on the
/// last value where no DESC separator follows (an ascending `VARBINARY`, or a DESC `VARCHAR`
/// ending with `'\0'` in a legacy table) is written: Phoenix's `UPSERT` stores it so, the key
/// is unambiguous, and only its `SELECT` reads the value back one byte shorter (module docs).
#[inline]
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

/// A `0x00`/`0xFF` inside a variable-width value that is not the last (see [`read_value`]).
const INSIDE_VALUE: &str = "no 0x00 or 0xFF inside a value that is not the key's last \
     (Phoenix's SELECT reads it as a separator; rowkey does not write it)";

/// A key that ends with a separator: Phoenix drops trailing NULLs, separators included.
const SEPARATOR_AT_END: &str = "a separator at the end of the key (Phoenix drops trailing NULLs)";

/// Whether a column of type `T` can be a primary-key column here (`desc`, the table's `last`
/// or not), whatever its value.
pub(crate) fn column_allowed<T: PhoenixType + ?Sized>(
    desc: bool,
    last: bool,
) -> Result<(), EncodeErrorKind> {
    if T::LAST_ONLY && !last {
        return Err(EncodeErrorKind::NotStorable {
            reason: "VARBINARY can only be the last primary-key column in Phoenix",
        });
    }
    if T::LAST_ONLY && desc {
        return Err(EncodeErrorKind::NotStorable {
            reason: "Phoenix does not support descending VARBINARY columns",
        });
    }
    Ok(())
}

/// Append the bytes of the non-NULL value `v` as its column stores them (inverted when
/// `desc`), with Phoenix's checks for its place (`last`): not empty, and for a
/// variable-width value that is not the last, [`readable`]. On an error `out` is as it was.
#[inline]
pub(crate) fn write_value<T: PhoenixType + ?Sized>(
    v: &T,
    desc: bool,
    last: bool,
    out: &mut Vec<u8>,
) -> Result<(), EncodeErrorKind> {
    let start = out.len();
    let checked = v.encode(out, desc).and_then(|()| {
        let bytes = out.get(start..).unwrap_or_default();
        if bytes.is_empty() {
            return Err(EncodeErrorKind::NotStorable {
                reason: "an empty value is NULL in Phoenix (use None in a nullable column)",
            });
        }
        if T::WIDTH.is_none() {
            readable(bytes, desc, last)?;
        }
        Ok(())
    });
    if checked.is_err() {
        out.truncate(start);
    }
    checked
}

/// Read one column's value from the front of `input` (the rest of the key after the previous
/// column), as Phoenix's `RowKeySchema.next` does: the value and how many bytes it used (with
/// its separator). An empty `input` is a NULL (the key ended before the column). Error
/// offsets are relative to `input`. `scratch` holds the value re-encoded for the canonical check
/// (a reader of many keys passes the same buffer each time).
///
/// The bytes must be canonical: exactly what [`write_value`] and the separators give for the
/// value read, so that every value read is written back to the same bytes. A value that is not
/// the table's last holding a `0x00` or `0xFF` (as stored) is refused although Phoenix's
/// `UPSERT` stores such bytes where the separator is the other byte (a `'\0'` in a DESC
/// `VARCHAR` of a legacy table, a `DECIMAL` whose exponent byte is `0xFF`): Phoenix's own
/// `SELECT` (`RowKeyValueAccessor`) ends the value at that byte and reads every later column
/// from the wrong place (seen live: `'a\0b'` comes back as `'a'`, and a `WHERE` on the value
/// finds no row), so the bytes hold no value Phoenix reads back, and [`write_value`] refuses to
/// write them (`ContainsSeparator`). The error names the byte and its offset.
pub(crate) fn read_value<'de, T: PhoenixDecode<'de>>(
    input: &'de [u8],
    desc: bool,
    last: bool,
    row_key_order_optimizable: bool,
    scratch: &mut Vec<u8>,
) -> Result<(T, usize), DecodeError> {
    let null = |at: usize| {
        T::null().ok_or_else(|| {
            if input.is_empty() {
                DecodeError::truncated(0, T::WIDTH.unwrap_or(1), 0)
            } else {
                DecodeError::new(
                    DecodeErrorKind::NonCanonical("NULL (an empty value) in a NOT NULL column"),
                    at,
                )
            }
        })
    };
    if input.is_empty() {
        return null(0).map(|v| (v, 0));
    }
    let sep = separator(row_key_order_optimizable, false, desc);
    let (value, used): (&'de [u8], usize) = match T::WIDTH {
        Some(w) => {
            let v = input
                .get(..w)
                .ok_or_else(|| DecodeError::truncated(input.len(), w - input.len(), input.len()))?;
            (v, w)
        }
        None if last => {
            // the rest of the key, less the trailing 0xFF of a non-NULL DESC value
            let value = if sep == DESC_SEPARATOR {
                match input.split_last() {
                    Some((&DESC_SEPARATOR, v)) => v,
                    _ => {
                        return Err(DecodeError::new(
                            DecodeErrorKind::MissingTerminator,
                            input.len(),
                        ))
                    }
                }
            } else {
                input
            };
            if value.is_empty() {
                // only a lone 0xFF: Phoenix writes no trailer after a NULL
                return Err(DecodeError::new(
                    DecodeErrorKind::NonCanonical("a DESC separator after a NULL"),
                    0,
                ));
            }
            (value, input.len())
        }
        None => {
            if input.first() == Some(&SEPARATOR) {
                // NULL: an empty value, then its separator 0x00
                if input.len() == 1 {
                    return Err(DecodeError::new(
                        DecodeErrorKind::NonCanonical(SEPARATOR_AT_END),
                        0,
                    ));
                }
                return null(0).map(|v| (v, 1));
            }
            match input.iter().skip(1).position(|&b| b == sep) {
                Some(p) => {
                    let len = p + 1;
                    if len + 1 == input.len() && sep != DESC_SEPARATOR {
                        return Err(DecodeError::new(
                            DecodeErrorKind::NonCanonical(SEPARATOR_AT_END),
                            len,
                        ));
                    }
                    (input.get(..len).unwrap_or_default(), len + 1)
                }
                // the key ends after the value: every later column is NULL
                None if sep == DESC_SEPARATOR => {
                    return Err(DecodeError::new(
                        DecodeErrorKind::MissingTerminator,
                        input.len(),
                    ))
                }
                None => (input, input.len()),
            }
        }
    };
    // what `readable` refuses to write (whatever the separator of this layout): a 0x00 or 0xFF
    // inside a variable-width value that is not the last
    if T::WIDTH.is_none() && !last {
        if let Some(at) = value.iter().position(|&b| b == 0x00 || b == 0xFF) {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidByte {
                    byte: value.get(at).copied().unwrap_or_default(),
                    expected: INSIDE_VALUE,
                },
                at,
            ));
        }
    }
    let v = T::decode(value, desc)?;
    // canonical: the value's own bytes (re-encoded to compare, unless decoding accepts only
    // those: `PhoenixDecode::CANONICAL`)
    let canonical = T::CANONICAL || {
        scratch.clear();
        v.encode(scratch, desc).is_ok() && scratch.as_slice() == value
    };
    if !canonical {
        return Err(DecodeError::new(
            DecodeErrorKind::NonCanonical("bytes Phoenix does not write for this value"),
            0,
        ));
    }
    Ok((v, used))
}
