//! [`KeyReader`](super::KeyReader): a Phoenix row key read value by value.

use super::format::{read_value, MAX_SALT_BUCKETS};
use super::traits::PhoenixDecode;
use crate::error::{DecodeError, DecodeErrorKind};

/// Reads a Phoenix row key value by value, as Phoenix's `RowKeySchema.next` does, and checks
/// that the key is exactly what [`KeyWriter`](super::KeyWriter) (and Phoenix) writes for the values read: the
/// salt, the separators, canonical value bytes, no bytes after the last value.
///
/// Call [`field`](Self::field) for every primary-key column in order, with the same `desc`
/// and `last` as for [`KeyWriter::field`](super::KeyWriter::field), then [`finish`](Self::finish). Errors name the field
/// and the byte offset in the key; no input panics.
///
/// ```
/// use rowkey::phoenix::KeyReader;
/// use rowkey::DecodeErrorKind;
///
/// // (K1 VARCHAR DESC, K2 VARCHAR nullable)
/// let key = [!b'a', !b'b', 0xFF];
/// let mut r = KeyReader::new(&key, None, true)?;
/// let k1: String = r.field("k1", true, false)?;
/// let k2: Option<String> = r.field("k2", false, true)?;
/// r.finish()?;
/// assert_eq!((k1.as_str(), k2), ("ab", None));
///
/// let mut r = KeyReader::new(b"\x80\x00\x00", None, true)?;
/// let err = r.field::<i32>("n", false, true).unwrap_err();
/// assert_eq!((err.field(), err.offset()), ("n", 3));
/// assert!(matches!(err.kind(), DecodeErrorKind::Truncated { .. }));
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyReader<'de> {
    key: &'de [u8],
    pos: usize,
    optimizable: bool,
    /// The canonical check's re-encoded value, reused from value to value.
    scratch: Vec<u8>,
}

impl<'de> KeyReader<'de> {
    /// A reader of `key` for a table with `salt_buckets` or none: the salt byte is checked
    /// here (recomputed over the rest of the key).
    ///
    /// # Errors
    ///
    /// The key is empty, or its salt byte is not the one Phoenix computes (field `salt`), or
    /// `salt_buckets` is outside Phoenix's `1..=256`.
    pub fn new(
        key: &'de [u8],
        salt_buckets: Option<u32>,
        row_key_order_optimizable: bool,
    ) -> Result<Self, DecodeError> {
        let mut pos = 0;
        if let Some(buckets) = salt_buckets {
            if !(1..=MAX_SALT_BUCKETS).contains(&buckets) {
                return Err(DecodeError::new(
                    DecodeErrorKind::NonCanonical(
                        "SALT_BUCKETS outside Phoenix's 1..=256: no Phoenix key has this salt",
                    ),
                    0,
                )
                .in_field("salt", 0));
            }
            let Some((&stored, rest)) = key.split_first() else {
                return Err(DecodeError::truncated(0, 1, 0).in_field("salt", 0));
            };
            let computed = crate::salt::phoenix(rest, buckets);
            if u32::from(stored) != computed {
                return Err(DecodeError::new(
                    DecodeErrorKind::SaltMismatch {
                        stored: u32::from(stored),
                        computed,
                    },
                    0,
                )
                .in_field("salt", 0));
            }
            pos = 1;
        }
        if key.len() <= pos {
            return Err(DecodeError::new(
                DecodeErrorKind::NonCanonical(
                    "an empty key (Phoenix: primary key may not be null)",
                ),
                pos,
            ));
        }
        Ok(Self {
            key,
            pos,
            optimizable: row_key_order_optimizable,
            scratch: Vec::new(),
        })
    }

    /// The byte offset of the next value.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Read the next primary-key column's value (`desc` and `last` as it was written).
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] naming `name` and the offset in the key: the key ends inside a
    /// fixed-width value, a NULL in a NOT NULL column, bytes the type never writes,
    /// non-canonical bytes (re-encoding the value gives other bytes), a separator Phoenix
    /// would not write.
    pub fn field<T: PhoenixDecode<'de>>(
        &mut self,
        name: &str,
        desc: bool,
        last: bool,
    ) -> Result<T, DecodeError> {
        let start = self.pos;
        self.read::<T>(desc, last)
            .map_err(|e| e.in_field(name, start))
    }

    /// Offsets in the errors are relative to the value's start (`self.pos` on entry).
    fn read<T: PhoenixDecode<'de>>(&mut self, desc: bool, last: bool) -> Result<T, DecodeError> {
        let key: &'de [u8] = self.key;
        let rest: &'de [u8] = key.get(self.pos..).unwrap_or_default();
        let (v, used) = read_value::<T>(rest, desc, last, self.optimizable, &mut self.scratch)?;
        self.pos += used;
        Ok(v)
    }

    /// Check that nothing follows the last value.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::TrailingBytes`] at the first byte after it.
    pub fn finish(self) -> Result<(), DecodeError> {
        let left = self.key.len().saturating_sub(self.pos);
        if left == 0 {
            Ok(())
        } else {
            Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes { count: left },
                self.pos,
            ))
        }
    }
}
