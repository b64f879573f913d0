//! The length checks around a derived key's `decode_visit` (`RowKey::from_row_key`, the key
//! tool): `max_len` and trailing bytes.

use crate::error::{DecodeError, DecodeErrorKind};

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
