//! Encoding a derived key: the body of `encode_into`, one call per field, and the fixed-width
//! fast path.

use bytes::BufMut;

use crate::codec::{with_scratch, Codec, ScratchBuf};
use crate::error::{EncodeError, EncodeErrorKind};
pub use crate::parts::{FieldSink, KeyFields, KeyParts};

/// The sink that writes fields into a buffer.
struct Out<'a, B>(&'a mut B);

impl<B: BufMut> FieldSink for Out<'_, B> {
    #[inline(always)]
    fn put<C: Codec<T>, T, const I: usize>(
        &mut self,
        v: &T,
        mask: u8,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        C::encode(v, self.0, mask).map_err(|e| e.in_field(name))
    }
}

/// A derived key's bytes: the constant prefix, the salt (computed from the layout's data), then
/// every field.
#[inline(always)]
pub fn encode_parts<K: KeyFields, B: BufMut>(
    k: &K,
    buf: &mut B,
    mask: u8,
) -> Result<(), EncodeError> {
    if const { K::TRIMS } {
        return encode_trimmed(k, buf, mask);
    }
    put_prefix(buf, K::PREFIX, mask);
    if let Some(s) = const { K::SALT } {
        let v = crate::salt::of_key(k, s, mask)?;
        crate::salt::put(buf, v, s.buckets, mask);
    }
    k.put_fields(&mut Out(buf), mask)
}

/// The sink of a key that drops its trailing separators ([`KeyFields::TRIMS`]): the fields'
/// full forms, and where the key ends (after the last non-NULL value, less what its codec
/// drops).
struct Trimmed<O> {
    out: O,
    keep: usize,
    any: bool,
}

/// Where the bytes of a [`Trimmed`] sink go: a buffer, or only a count.
trait TrimOut {
    fn len(&self) -> usize;
    fn put<C: Codec<T>, T>(&mut self, v: &T, mask: u8) -> Result<(), EncodeError>;
}

impl TrimOut for &mut Vec<u8> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn put<C: Codec<T>, T>(&mut self, v: &T, mask: u8) -> Result<(), EncodeError> {
        C::encode_vec(v, self, mask)
    }
}

impl TrimOut for usize {
    fn len(&self) -> usize {
        *self
    }
    fn put<C: Codec<T>, T>(&mut self, v: &T, mask: u8) -> Result<(), EncodeError> {
        *self += C::len(v, mask);
        Ok(())
    }
}

impl<O: TrimOut> FieldSink for Trimmed<O> {
    #[inline]
    fn put<C: Codec<T>, T, const I: usize>(
        &mut self,
        v: &T,
        mask: u8,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        self.out
            .put::<C, T>(v, mask)
            .map_err(|e| e.in_field(name))?;
        let end = self.out.len();
        let tail = if C::TRIMS {
            C::trim_tail(v, mask)
        } else {
            Some(0)
        };
        if let Some(t) = tail {
            self.keep = end.saturating_sub(t);
            self.any = true;
        }
        Ok(())
    }
}

/// A key of NULLs only: Phoenix's "primary key may not be null".
fn all_null() -> EncodeError {
    EncodeError::new(
        "",
        EncodeErrorKind::NotStorable {
            reason: "every primary-key value is NULL (Phoenix: primary key may not be null)",
        },
    )
}

/// Append the fields of a key that drops its trailing separators to `out`: their full forms,
/// cut after the last non-NULL value (less what its codec drops). A key of NULLs only is an
/// error.
#[inline]
fn trimmed_fields<K: KeyFields>(k: &K, mask: u8, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let keep = out.len();
    let mut sink = Trimmed {
        out: &mut *out,
        keep,
        any: false,
    };
    k.put_fields(&mut sink, mask)?;
    if !sink.any {
        return Err(all_null());
    }
    // never into what `out` held before (a codec's `trim_tail` larger than its bytes): the
    // head stays whole, so the callers' splits at it hold
    let keep = sink.keep.max(keep);
    out.truncate(keep);
    Ok(())
}

/// The salt of a key that drops its trailing separators: over the fields' bytes as cut (the
/// whole key after the prefix: Phoenix's salt).
#[inline]
fn trimmed_salt(fields: &[u8], buckets: u32) -> u32 {
    crate::salt::bucket_of(crate::salt::step(1, fields), buckets)
}

std::thread_local! {
    /// Where a key that drops its trailing separators writes its fields before it cuts them:
    /// a buffer per thread, not one per key.
    static TRIM_SCRATCH: ScratchBuf = const { ScratchBuf::new(Vec::new()) };
}

/// `f` of the thread's trimming buffer (see [`with_scratch`]).
#[inline]
fn with_trim_scratch<R>(f: impl FnMut(&mut Vec<u8>) -> R) -> R {
    with_scratch(&TRIM_SCRATCH, f)
}

/// [`encode_parts`] of a key that drops its trailing separators: the fields' full forms cut
/// after the last non-NULL value, then the salt over them (the whole key: Phoenix's salt).
#[cold]
#[inline(never)]
fn encode_trimmed<K: KeyFields, B: BufMut>(
    k: &K,
    buf: &mut B,
    mask: u8,
) -> Result<(), EncodeError> {
    with_trim_scratch(|fields| {
        trimmed_fields(k, mask, fields)?;
        put_prefix(&mut *buf, K::PREFIX, mask);
        if let Some(s) = const { K::SALT } {
            crate::salt::put(&mut *buf, trimmed_salt(fields, s.buckets), s.buckets, mask);
        }
        buf.put_slice(fields);
        Ok(())
    })
}

/// `to_row_key` of a key that drops its trailing separators: `encode_trimmed`'s bytes built
/// in the thread's trimming buffer with room for the prefix and salt (filled in after the
/// fields), then copied once into a buffer of the key's exact length — where the default
/// would measure the key (a pass of its own) and then copy it from the trimming buffer.
pub fn trimmed_row_key<K: KeyFields>(k: &K) -> Result<bytes::Bytes, EncodeError> {
    let head = head_len::<K>();
    with_trim_scratch(|out| {
        out.resize(head, 0);
        trimmed_fields(k, 0, out)?;
        let (h, fields) = out.split_at_mut(head);
        let (p, salt) = h.split_at_mut(K::PREFIX.len().min(head));
        for (d, s) in p.iter_mut().zip(K::PREFIX) {
            *d = *s;
        }
        if let Some(s) = const { K::SALT } {
            crate::salt::write_at(salt, trimmed_salt(fields, s.buckets), s.width);
        }
        Ok(bytes::Bytes::copy_from_slice(out))
    })
}

/// The encoded length of a key that drops its trailing separators (`len_masked` of a
/// `#[rowkey(phoenix)]` key): the prefix and salt, then the fields cut as
/// [`encode_parts`] cuts them (0 for a key it refuses).
pub fn trimmed_len<K: KeyFields>(k: &K, mask: u8) -> usize {
    let mut sink = Trimmed {
        out: 0usize,
        keep: 0,
        any: false,
    };
    match k.put_fields(&mut sink, mask) {
        Ok(()) => head_len::<K>() + sink.keep,
        Err(_) => 0,
    }
}

/// The length of a derived key's prefix and salt.
#[inline(always)]
pub const fn head_len<K: KeyFields>() -> usize {
    K::PREFIX.len()
        + match K::SALT {
            Some(s) => s.width,
            None => 0,
        }
}

/// `encode_into` of a derived struct key. A fixed-width layout is written straight into the
/// buffer's current chunk through a `FixedCursor`: one capacity check and one length update
/// for the whole key, where `BufMut`'s puts make one of each per field. The buffer is advanced
/// only when the whole width was written; otherwise (a chunk too short for the key, or a codec
/// that wrote other than its `WIDTH`) the key is encoded through the buffer itself, as for a
/// variable-width layout. On an error nothing of the fast path reaches the buffer.
#[inline(always)]
pub fn encode_key<K, B>(k: &K, buf: &mut B) -> Result<(), EncodeError>
where
    K: crate::RowKey + KeyParts,
    B: BufMut,
{
    encode_fixed(k, buf, const { K::LAYOUT.fixed_width })
}

/// [`encode_key`] for a layout of `fixed` width (`None`: variable).
#[inline(always)]
fn encode_fixed<K: KeyParts, B: BufMut>(
    k: &K,
    buf: &mut B,
    fixed: Option<usize>,
) -> Result<(), EncodeError> {
    if let Some(width) = fixed {
        // SAFETY: only initialized bytes (the key's) are written through this slice.
        let chunk = unsafe { buf.chunk_mut().as_uninit_slice_mut() };
        if let Some(dst) = chunk.get_mut(..width) {
            let mut cursor = FixedCursor {
                dst,
                pos: 0,
                over: false,
            };
            k.encode_masked(&mut cursor, 0)?;
            if !cursor.over && cursor.pos == width {
                // SAFETY: the cursor wrote all `width` bytes at the start of `chunk_mut()`.
                unsafe { buf.advance_mut(width) };
                return Ok(());
            }
        }
    }
    k.encode_masked(buf, 0)
}

/// A `BufMut` over a fixed, uninitialized region (see [`encode_key`]): writes go to `dst` in
/// order; a write past its end is dropped and flagged (`over`), never a panic.
struct FixedCursor<'a> {
    dst: &'a mut [core::mem::MaybeUninit<u8>],
    pos: usize,
    over: bool,
}

impl FixedCursor<'_> {
    /// The next `n` bytes, or `None` (flagged) when fewer are left.
    #[inline(always)]
    fn take(&mut self, n: usize) -> Option<&mut [core::mem::MaybeUninit<u8>]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.dst.len());
        let Some(end) = end else {
            self.over = true;
            return None;
        };
        let at = self.pos;
        self.pos = end;
        self.dst.get_mut(at..end)
    }
}

// SAFETY: `remaining_mut` is the length of `chunk_mut`, `advance_mut` never moves past the end
// of `dst`, and every byte before `pos` was written (by `put_slice`/`put_bytes`, or by a caller
// of `chunk_mut` before it advanced over it).
unsafe impl BufMut for FixedCursor<'_> {
    #[inline(always)]
    fn remaining_mut(&self) -> usize {
        self.dst.len().saturating_sub(self.pos)
    }

    #[inline(always)]
    unsafe fn advance_mut(&mut self, cnt: usize) {
        let _ = self.take(cnt);
    }

    #[inline(always)]
    fn chunk_mut(&mut self) -> &mut bytes::buf::UninitSlice {
        let rest = match self.dst.get_mut(self.pos..) {
            Some(rest) => rest,
            None => &mut [],
        };
        bytes::buf::UninitSlice::uninit(rest)
    }

    #[inline(always)]
    fn put_slice(&mut self, src: &[u8]) {
        if let Some(d) = self.take(src.len()) {
            for (d, &s) in d.iter_mut().zip(src) {
                d.write(s);
            }
        }
    }

    #[inline(always)]
    fn put_bytes(&mut self, val: u8, cnt: usize) {
        if let Some(d) = self.take(cnt) {
            for d in d {
                d.write(val);
            }
        }
    }
}

/// Write a layout's constant prefix (masked for a descending key).
#[inline(always)]
pub fn put_prefix<B: BufMut>(buf: &mut B, prefix: &[u8], mask: u8) {
    if mask == 0 {
        buf.put_slice(prefix);
    } else {
        for &b in prefix {
            buf.put_u8(b ^ mask);
        }
    }
}

/// Name the key type `key` in an error about the whole key (one that names no field).
#[inline(always)]
pub fn whole_key<T>(r: Result<T, EncodeError>, key: &'static str) -> Result<T, EncodeError> {
    r.map_err(|e| {
        if e.field().is_empty() {
            e.in_key(key)
        } else {
            e
        }
    })
}

/// The `max_len` check of variable-width keys of type `key`.
#[inline(always)]
pub fn check_max_len(len: usize, max_len: usize, key: &'static str) -> Result<(), EncodeError> {
    if len > max_len {
        Err(EncodeError::new("", EncodeErrorKind::KeyTooLong { len, max_len }).in_key(key))
    } else {
        Ok(())
    }
}

/// The fixed width of a layout from its parts' widths: `None` when any part is variable.
pub const fn sum_widths(mut widths: &[Option<usize>]) -> Option<usize> {
    let mut total = 0;
    while let [first, rest @ ..] = widths {
        match *first {
            Some(w) => total += w,
            None => return None,
        }
        widths = rest;
    }
    Some(total)
}

/// `Some(a + b)` of optional widths.
pub const fn add_width(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `n` bytes `0xAB` (a codec that may disagree with the layout's width), or fails.
    struct Writes(usize, bool);

    impl KeyParts for Writes {
        fn encode_masked<B: BufMut>(&self, buf: &mut B, _: u8) -> Result<(), EncodeError> {
            if self.1 {
                return Err(EncodeError::new(
                    "f",
                    EncodeErrorKind::TimestampOutOfRange { value: -1 },
                ));
            }
            // a put, a fill and a direct chunk write, so every path of the cursor is taken
            let n = self.0;
            if n == 0 {
                return Ok(());
            }
            buf.put_u8(0xAB);
            buf.put_bytes(0xAB, n.saturating_sub(1) / 2);
            let rest = n.saturating_sub(1) - n.saturating_sub(1) / 2;
            for _ in 0..rest {
                let chunk = buf.chunk_mut();
                if chunk.len() == 0 {
                    buf.put_slice(&[0xAB]);
                } else {
                    chunk.write_byte(0, 0xAB);
                    // SAFETY: the byte was just written.
                    unsafe { buf.advance_mut(1) };
                }
            }
            Ok(())
        }
        fn len_masked(&self, _: u8) -> usize {
            self.0
        }
    }

    #[test]
    fn fixed_width_fast_path_writes_the_key_or_falls_back() {
        for width in [0usize, 1, 5, 16, 100] {
            for wrote in [0usize, 1, 4, 5, 6, 16, 17, 101] {
                for spare in [0usize, 3, 16, 200] {
                    // the buffer holds two bytes and has `spare` bytes of room
                    let mut v = Vec::with_capacity(2 + spare);
                    v.extend_from_slice(&[1, 2]);
                    encode_fixed(&Writes(wrote, false), &mut v, Some(width)).unwrap();
                    let mut want = vec![1, 2];
                    want.extend(std::iter::repeat_n(0xAB, wrote));
                    assert_eq!(v, want, "width {width}, wrote {wrote}, spare {spare}");
                }
            }
        }
    }

    #[test]
    fn fixed_width_fast_path_error_leaves_the_buffer() {
        let mut v = vec![1, 2];
        v.reserve(64);
        let e = encode_fixed(&Writes(8, true), &mut v, Some(8)).unwrap_err();
        assert_eq!(e.field(), "f");
        assert_eq!(v, [1, 2]);
    }

    #[test]
    fn cursor_drops_and_flags_writes_past_its_end() {
        let mut region = [core::mem::MaybeUninit::new(0u8); 4];
        let mut c = FixedCursor {
            dst: &mut region,
            pos: 0,
            over: false,
        };
        c.put_u16(0x0102);
        assert!(!c.over);
        assert_eq!(c.remaining_mut(), 2);
        c.put_u32(7); // does not fit: dropped, not a panic
        assert!(c.over);
        assert_eq!(c.remaining_mut(), 2);
        c.put_bytes(9, 3);
        assert_eq!(c.remaining_mut(), 2);
        c.put_bytes(9, 2);
        assert_eq!(c.remaining_mut(), 0);
        assert_eq!(c.chunk_mut().len(), 0);
        // SAFETY: a no-op past the end (flagged)
        unsafe { c.advance_mut(1) };
        assert_eq!(c.pos, 4);
        // SAFETY: all four bytes were written
        let bytes = region.map(|b| unsafe { b.assume_init() });
        assert_eq!(bytes, [1, 2, 9, 9]);
    }
}
