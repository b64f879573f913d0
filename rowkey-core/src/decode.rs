//! Decoding a whole key: the length checks around a derived key's `decode_visit`
//! (`RowKey::from_row_key`, the key tool).

use crate::describe::NoVisit;
use crate::error::{DecodeError, DecodeErrorKind};

/// [`RowKey::from_row_key`](crate::RowKey::from_row_key): the whole key, its
/// `max_len` and trailing bytes checked.
#[inline(always)]
pub fn decode_whole<'de, T: crate::RowKey + crate::DecodeRowKey<'de>>(
    bytes: &'de [u8],
) -> Result<T, DecodeError> {
    if let Some(max_len) = T::LAYOUT.max_len {
        check_decode_max_len(bytes.len(), max_len).map_err(|e| e.in_key(T::LAYOUT.name))?;
    }
    let (v, used) = T::decode_visit(bytes, 0, &mut NoVisit).map_err(|e| {
        // an error about the whole key (an empty Phoenix key, say) names the key type
        if e.field().is_empty() {
            e.in_key(T::LAYOUT.name)
        } else {
            e
        }
    })?;
    check_end(used, bytes.len()).map_err(|e| e.in_key(T::LAYOUT.name))?;
    Ok(v)
}

/// [`decode_whole`] out of line: a fixed-width key of the wrong length (always an error).
#[cold]
#[inline(never)]
pub fn decode_cold<'de, T: crate::RowKey + crate::DecodeRowKey<'de>>(
    bytes: &'de [u8],
) -> Result<T, DecodeError> {
    decode_whole(bytes)
}

/// `max_len` on decode: a key this layout would never write.
#[inline(always)]
pub fn check_decode_max_len(len: usize, max_len: usize) -> Result<(), DecodeError> {
    if len > max_len {
        Err(DecodeError::new(
            DecodeErrorKind::KeyTooLong { len, max_len },
            max_len,
        ))
    } else {
        Ok(())
    }
}

/// Trailing-bytes check of a whole key.
#[inline(always)]
pub fn check_end(used: usize, len: usize) -> Result<(), DecodeError> {
    if used == len {
        Ok(())
    } else {
        Err(DecodeError::new(
            DecodeErrorKind::TrailingBytes { count: len - used },
            used,
        ))
    }
}
