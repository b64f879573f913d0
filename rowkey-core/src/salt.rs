//! Salts: the one place salt bytes are computed, written and read (by encode and decode, the
//! scan builder and the region planner).
//!
//! A salt is 1 byte for up to 256 buckets and 2 bytes (big-endian) above ([`width`]). Its value
//! is the Apache Phoenix bucket of the salted bytes ([`PhoenixHash`]: Java `Arrays.hashCode`,
//! `abs(h % N)`), or `value % N` of a single unsigned integer ([`modulo`], time buckets).
//!
//! ```
//! use rowkey::salt;
//!
//! assert_eq!(salt::width(256), 1);
//! assert_eq!(salt::width(257), 2);
//! assert_eq!(salt::bytes(0x0102, 2).as_ref(), [1, 2]);
//! assert_eq!(salt::phoenix(b"host1", 16), 8);
//! assert_eq!(salt::modulo(1_700_000_000_000u64, 16), 0);
//! ```

use bytes::BufMut;

use crate::codec::Codec;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::layout::{SaltKind, SaltLayout};
use crate::parts::{FieldSink, KeyFields};

/// Salt width in bytes for a bucket count: 1 up to 256 buckets, else 2 (big-endian).
#[inline(always)]
pub const fn width(buckets: u32) -> usize {
    SaltLayout::width_for(buckets)
}

/// The stored bytes of a salt (`width` of them, unmasked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaltBytes {
    bytes: [u8; 2],
    width: usize,
}

impl AsRef<[u8]> for SaltBytes {
    #[inline(always)]
    fn as_ref(&self) -> &[u8] {
        self.bytes.get(..self.width).unwrap_or(&self.bytes)
    }
}

/// The bytes of salt value `salt` in `width` bytes (1 or 2; none for an unsalted layout's 0).
#[inline(always)]
pub fn bytes(salt: u32, width: usize) -> SaltBytes {
    match width {
        1 => SaltBytes {
            bytes: [salt as u8, 0],
            width: 1,
        },
        2 => SaltBytes {
            bytes: (salt as u16).to_be_bytes(),
            width: 2,
        },
        _ => SaltBytes {
            bytes: [0, 0],
            width: 0,
        },
    }
}

/// Write salt `salt` of a layout with `buckets` buckets (masked for a descending key).
#[inline(always)]
pub(crate) fn put<B: BufMut>(buf: &mut B, salt: u32, buckets: u32, mask: u8) {
    let b = bytes(salt, width(buckets));
    for &x in b.as_ref() {
        buf.put_u8(x ^ mask);
    }
}

/// Overwrite the first bytes of `head` with salt `salt` of `width` bytes (scan ranges).
#[inline(always)]
pub(crate) fn write_at(head: &mut [u8], salt: u32, width: usize) {
    for (dst, src) in head.iter_mut().zip(bytes(salt, width).as_ref()) {
        *dst = *src;
    }
}

/// Read the salt of a layout with `buckets` buckets from the front of `input`.
#[inline(always)]
pub(crate) fn get(input: &[u8], buckets: u32, mask: u8) -> Result<u32, DecodeError> {
    let w = width(buckets);
    match input.get(..w) {
        Some([b]) => Ok(u32::from(b ^ mask)),
        Some([a, b]) => Ok(u32::from(u16::from_be_bytes([a ^ mask, b ^ mask]))),
        _ => Err(DecodeError::truncated(
            input.len(),
            w - input.len(),
            input.len(),
        )),
    }
}

/// The Java `Arrays.hashCode` state `h` after `bytes` (`h = 31 * h + b` over signed bytes; a
/// fresh hash starts at 1).
#[inline(always)]
pub(crate) fn step(mut h: i32, bytes: &[u8]) -> i32 {
    for &b in bytes {
        h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
    }
    h
}

/// `abs(h % buckets)`, the Phoenix `SaltingUtil` bucket of hash code `h`.
#[inline(always)]
pub(crate) fn bucket_of(h: i32, buckets: u32) -> u32 {
    // layouts have 1..=65536 buckets; a count of 0 (or past i32::MAX) from a caller of the
    // public `phoenix`/`PhoenixHash::bucket` gives bucket 0, never a division panic
    i32::try_from(buckets)
        .ok()
        .and_then(|n| h.checked_rem(n))
        .map_or(0, i32::unsigned_abs)
}

/// The Phoenix bucket of the salted bytes.
#[inline]
pub fn phoenix(salted: &[u8], buckets: u32) -> u32 {
    PhoenixHash::of(salted).bucket(buckets)
}

/// `value % buckets` (`#[salt(buckets = N, modulo)]`).
#[inline(always)]
pub fn modulo<T: crate::integer::Integer>(v: T, buckets: u32) -> u32 {
    // Unsigned by construction (the derive checks), so to_u128 succeeds.
    bucket_mod(v.to_u128().unwrap_or_default(), buckets)
}

/// `v % buckets` as a bucket (`buckets` ≥ 1 by construction; 0 gives bucket 0, not a panic).
#[inline(always)]
fn bucket_mod(v: u128, buckets: u32) -> u32 {
    v.checked_rem(u128::from(buckets)).unwrap_or_default() as u32
}

/// `value % buckets` of a field value that is an unsigned integer (the scan builder's and the
/// reader's modulo salt, from the layout's data); 0 for any other type (the derive allows
/// modulo salts on unsigned integers only).
#[inline(always)]
pub(crate) fn modulo_of<C: Codec<T>, T>(v: &T, buckets: u32) -> u32 {
    bucket_mod(C::unsigned(v).unwrap_or_default(), buckets)
}

/// Whether field `i` is one a salt hashes (a constant where `salt` is a key's `SALT`).
#[inline(always)]
pub(crate) const fn hashes(salt: Option<SaltLayout>, i: usize) -> bool {
    let Some(s) = salt else { return false };
    if matches!(s.kind, SaltKind::Modulo) {
        return false;
    }
    let mut f = s.fields;
    while let [first, rest @ ..] = f {
        if *first == i {
            return true;
        }
        f = rest;
    }
    false
}

/// Whether field `i` is the last salted one (once it is known, so is the salt).
#[inline(always)]
pub(crate) const fn completes(salt: Option<SaltLayout>, i: usize) -> bool {
    matches!(salt, Some(s) if s.through_field == i)
}

/// The salt of key `k` under its layout's salt `s` (its [`KeyFields::SALT`], data): the fields
/// it hashes are encoded into a [`PhoenixHash`], or the modulo field's value taken `% N`.
#[inline(always)]
pub(crate) fn of_key<K: KeyFields + ?Sized>(
    k: &K,
    s: SaltLayout,
    mask: u8,
) -> Result<u32, EncodeError> {
    let mut sink = SaltSink::<K> {
        hash: PhoenixHash::new(),
        value: 0,
        key: core::marker::PhantomData,
    };
    k.put_fields(&mut sink, mask)?;
    Ok(match s.kind {
        SaltKind::Phoenix => sink.hash.bucket(s.buckets),
        SaltKind::Modulo => sink.value,
    })
}

/// The field sink that computes a key's salt: the salted fields' bytes into the Phoenix hash,
/// the modulo field's value `% N`; every other field is skipped (decided at compile time).
struct SaltSink<K: ?Sized> {
    hash: PhoenixHash,
    value: u32,
    key: core::marker::PhantomData<fn(&K)>,
}

impl<K: KeyFields + ?Sized> FieldSink for SaltSink<K> {
    #[inline(always)]
    fn put<C: Codec<T>, T, const I: usize>(
        &mut self,
        v: &T,
        mask: u8,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        if const { hashes(K::SALT, I) } {
            C::encode(v, &mut self.hash, mask).map_err(|e| e.in_field(name))?;
        } else if const { completes(K::SALT, I) } {
            if let Some(s) = K::SALT {
                self.value = modulo_of::<C, T>(v, s.buckets);
            }
        }
        Ok(())
    }
}

/// Compare a stored salt with the recomputed one.
#[inline(always)]
pub(crate) fn check(stored: u32, computed: u32) -> Result<(), DecodeError> {
    if stored == computed {
        Ok(())
    } else {
        Err(DecodeError::new(
            DecodeErrorKind::SaltMismatch { stored, computed },
            0,
        ))
    }
}

/// The Phoenix salt hash: Java `Arrays.hashCode(byte[])` over signed bytes (`h = 31 * h + b`,
/// starting at 1). Implements [`BufMut`] so that the salted prefix can be hashed by encoding it
/// straight into the hasher, without a buffer.
///
/// ```
/// use bytes::BufMut;
/// use rowkey::salt::PhoenixHash;
///
/// let mut h = PhoenixHash::new();
/// h.put_slice(b"host1");
/// assert_eq!(h.bucket(16), 8);
/// assert_eq!(PhoenixHash::of(b"host12").bucket(16), 6);
/// assert_eq!(PhoenixHash::of(b"a").bucket(20), 8);
/// ```
#[derive(Debug, Clone)]
pub struct PhoenixHash {
    h: i32,
    scratch: [u8; 32],
}

impl Default for PhoenixHash {
    fn default() -> Self {
        Self::new()
    }
}

impl PhoenixHash {
    /// A fresh hash (`h = 1`).
    #[inline(always)]
    pub const fn new() -> Self {
        Self {
            h: 1,
            scratch: [0; 32],
        }
    }

    /// Hash of `bytes`.
    #[inline]
    pub fn of(bytes: &[u8]) -> Self {
        let mut h = Self::new();
        h.update(bytes);
        h
    }

    /// Feed bytes: a salted prefix may be hashed field by field.
    ///
    /// ```
    /// use rowkey::salt::PhoenixHash;
    ///
    /// let mut h = PhoenixHash::new();
    /// h.update(b"web");
    /// h.update(b"1");
    /// assert_eq!(h.hash_code(), PhoenixHash::of(b"web1").hash_code());
    /// // Java: Arrays.hashCode(new byte[] {'a'}) == 31 + 97
    /// assert_eq!(PhoenixHash::of(b"a").hash_code(), 128);
    /// ```
    #[inline(always)]
    pub fn update(&mut self, bytes: &[u8]) {
        self.h = step(self.h, bytes);
    }

    /// The Java hash code.
    #[inline(always)]
    pub fn hash_code(&self) -> i32 {
        self.h
    }

    /// `abs(h % buckets)`, the Phoenix `SaltingUtil` bucket.
    #[inline(always)]
    pub fn bucket(&self, buckets: u32) -> u32 {
        bucket_of(self.h, buckets)
    }
}

// SAFETY: `chunk_mut` always returns the initialized scratch buffer, and `advance_mut` only
// reads the first `cnt <= scratch.len()` bytes of it.
unsafe impl BufMut for PhoenixHash {
    #[inline(always)]
    fn remaining_mut(&self) -> usize {
        usize::MAX
    }

    #[inline(always)]
    unsafe fn advance_mut(&mut self, cnt: usize) {
        let scratch = self.scratch;
        self.update(scratch.get(..cnt).unwrap_or(&scratch));
    }

    #[inline(always)]
    fn chunk_mut(&mut self) -> &mut bytes::buf::UninitSlice {
        bytes::buf::UninitSlice::new(&mut self.scratch)
    }

    #[inline(always)]
    fn put_slice(&mut self, src: &[u8]) {
        self.update(src);
    }

    #[inline(always)]
    fn put_u8(&mut self, n: u8) {
        self.update(&[n]);
    }

    #[inline(always)]
    fn put_bytes(&mut self, val: u8, cnt: usize) {
        for _ in 0..cnt {
            self.update(&[val]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bucket counts no layout has (0, past `i32::MAX`) give bucket 0 instead of a panic.
    #[test]
    fn odd_bucket_counts_do_not_panic() {
        assert_eq!(phoenix(b"host1", 0), 0);
        assert_eq!(PhoenixHash::of(b"host1").bucket(u32::MAX), 0);
        assert_eq!(modulo(7u64, 0), 0);
        assert_eq!(phoenix(b"host1", 16), 8);
        assert_eq!(modulo(1_700_000_000_000u64, 16), 0);
    }
}
