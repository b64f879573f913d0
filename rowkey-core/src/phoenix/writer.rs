//! [`KeyWriter`](super::KeyWriter): a Phoenix row key built value by value.

use super::format::{column_allowed, separator, write_value, DESC_SEPARATOR, MAX_SALT_BUCKETS};
use super::traits::PhoenixType;
use crate::error::{EncodeError, EncodeErrorKind};

/// The last value written: what decides the separator before the next one.
#[derive(Debug, Clone, Copy)]
struct Prev {
    fixed: bool,
    desc: bool,
    was_null: bool,
}

/// Builds a Phoenix row key value by value, as Phoenix's `PTableImpl.newKey` does.
///
/// Call [`field`](Self::field) once for every primary-key column, in the table's order
/// (`last` true for the table's last primary-key column), then [`finish`](Self::finish).
/// Separators are written before the next value (so trailing NULLs leave none), trailing
/// NULLs are dropped, and the salt byte is computed over the rest at the end. After an error
/// the key is unusable: start a new writer (or [`with_buffer`](Self::with_buffer) to reuse the
/// allocation).
///
/// ```
/// use rowkey::phoenix::KeyWriter;
///
/// // (K1 VARCHAR DESC, K2 VARCHAR DESC nullable, K3 VARCHAR nullable)
/// let key = |k2: Option<&str>, k3: Option<&str>| {
///     let mut w = KeyWriter::new(None, true);
///     w.field("k1", "ab", true, false)?;
///     w.field("k2", &k2, true, false)?;
///     w.field("k3", &k3, false, true)?;
///     w.finish()
/// };
/// let inv = |s: &str| s.bytes().map(|b| !b).collect::<Vec<u8>>();
/// // DESC values are followed by 0xFF, the last (ASC) value by nothing
/// assert_eq!(key(Some("c"), Some("d"))?, [&inv("ab")[..], &[0xFF], &inv("c"), &[0xFF], b"d"].concat());
/// // trailing NULLs are not written; the key ends with 0xFF after a DESC value
/// assert_eq!(key(None, None)?, [&inv("ab")[..], &[0xFF]].concat());
/// // a NULL in the middle: nothing, then 0x00 (not 0xFF) even though the column is DESC
/// assert_eq!(key(None, Some("y"))?, [&inv("ab")[..], &[0xFF, 0x00], b"y"].concat());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyWriter {
    buf: Vec<u8>,
    buckets: Option<u32>,
    optimizable: bool,
    prev: Option<Prev>,
    /// NULLs not written yet: `desc` of each (written only when a non-NULL value follows).
    pending_nulls: Vec<bool>,
    any_value: bool,
    after_last: bool,
}

impl KeyWriter {
    /// A writer for a table with `salt_buckets` (`SALT_BUCKETS = n`, 1..=256) or none, and
    /// Phoenix's `rowKeyOrderOptimizable` flag (true for every table a current Phoenix creates).
    pub fn new(salt_buckets: Option<u32>, row_key_order_optimizable: bool) -> Self {
        Self::with_buffer(Vec::new(), salt_buckets, row_key_order_optimizable)
    }

    /// [`new`](Self::new) writing into `buf` (cleared first), to reuse its allocation.
    pub fn with_buffer(
        mut buf: Vec<u8>,
        salt_buckets: Option<u32>,
        row_key_order_optimizable: bool,
    ) -> Self {
        buf.clear();
        if salt_buckets.is_some() {
            buf.push(0); // the salt byte's place
        }
        Self {
            buf,
            buckets: salt_buckets,
            optimizable: row_key_order_optimizable,
            prev: None,
            pending_nulls: Vec::new(),
            any_value: false,
            after_last: false,
        }
    }

    /// Append the next primary-key column's value: `desc` for a DESC column, `last` for the
    /// table's last primary-key column. Returns `self` for chaining.
    ///
    /// # Errors
    ///
    /// An [`EncodeError`] naming `name`: the value cannot be stored in this column (see the
    /// [module docs](super#refused-an-encodeerror-naming-the-field-never-a-panic)), or a
    /// column after the one passed as `last`.
    pub fn field<T: PhoenixType + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
        desc: bool,
        last: bool,
    ) -> Result<&mut Self, EncodeError> {
        let err = |kind| EncodeError::new(name, kind);
        if self.after_last {
            return Err(err(EncodeErrorKind::NotStorable {
                reason: "a column after the table's last primary-key column",
            }));
        }
        self.after_last = last;
        column_allowed::<T>(desc, last).map_err(err)?;
        if value.is_null() {
            self.pending_nulls.push(desc);
            return Ok(self);
        }
        // NULLs before this value are written now: each an empty value, then its separator.
        for i in 0..self.pending_nulls.len() {
            let null_desc = self.pending_nulls.get(i).copied().unwrap_or(false);
            self.put_separator();
            self.prev = Some(Prev {
                fixed: false,
                desc: null_desc,
                was_null: true,
            });
        }
        self.pending_nulls.clear();
        self.put_separator();
        write_value(value, desc, last, &mut self.buf).map_err(err)?;
        self.prev = Some(Prev {
            fixed: T::WIDTH.is_some(),
            desc,
            was_null: false,
        });
        self.any_value = true;
        Ok(self)
    }

    fn put_separator(&mut self) {
        if let Some(p) = self.prev {
            if !p.fixed {
                self.buf
                    .push(separator(self.optimizable, p.was_null, p.desc));
            }
        }
    }

    /// The finished key: the trailing `0xFF` after a last DESC variable-width value, and the
    /// salt byte in front.
    ///
    /// # Errors
    ///
    /// [`EncodeErrorKind::NotStorable`] when every value was NULL;
    /// [`EncodeErrorKind::ValueOutOfRange`] (field `salt`) for a bucket count outside
    /// `1..=256`.
    pub fn finish(mut self) -> Result<Vec<u8>, EncodeError> {
        if !self.any_value {
            return Err(EncodeError::new(
                "",
                EncodeErrorKind::NotStorable {
                    reason:
                        "every primary-key value is NULL (Phoenix: primary key may not be null)",
                },
            ));
        }
        if let Some(p) = self.prev {
            if !p.fixed && separator(self.optimizable, p.was_null, p.desc) == DESC_SEPARATOR {
                self.buf.push(DESC_SEPARATOR);
            }
        }
        if let Some(buckets) = self.buckets {
            if !(1..=MAX_SALT_BUCKETS).contains(&buckets) {
                return Err(EncodeError::new(
                    "salt",
                    EncodeErrorKind::ValueOutOfRange {
                        value: format!("SALT_BUCKETS = {buckets}"),
                        range: "1..=256 salt buckets (Phoenix's range)",
                    },
                ));
            }
            let salt = crate::salt::phoenix(self.buf.get(1..).unwrap_or_default(), buckets);
            if let Some(first) = self.buf.first_mut() {
                *first = salt as u8;
            }
        }
        Ok(self.buf)
    }
}
