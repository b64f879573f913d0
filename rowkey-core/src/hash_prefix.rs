//! `#[hash_prefix(N)]`: the first N lowercase hex characters (or raw bytes) of MD5 of a field's
//! plain bytes, `md5(userid).substring(0, N)` as the Java HBase idiom writes it.

/// The plain bytes `#[hash_prefix]` hashes: UTF-8 for strings, raw bytes, Java `Bytes.toBytes`
/// big-endian two's complement for integers, UTF-8 for `char`.
///
/// ```
/// use rowkey::hash_prefix::HashPlain;
///
/// assert_eq!((-2i32).with_plain(|b| b.to_vec()), [0xFF, 0xFF, 0xFF, 0xFE]); // Bytes.toBytes(-2)
/// assert_eq!("é".to_string().with_plain(|b| b.len()), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "rowkey: #[hash_prefix] cannot hash a field of type `{Self}`",
    note = "#[hash_prefix] works on integers, char, strings and bytes (their plain bytes are hashed)"
)]
pub trait HashPlain {
    /// Call `f` with the plain bytes.
    fn with_plain<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R;
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

/// MD5 digest of `bytes`.
///
/// ```
/// let d = rowkey::hash_prefix::md5(b"foo0001");
/// assert_eq!(&d[..3], [0x95, 0xf1, 0x8c]); // md5("foo0001") = 95f18c…
/// ```
#[inline]
pub fn md5(bytes: &[u8]) -> [u8; 16] {
    use md5::{Digest, Md5};
    Md5::digest(bytes).into()
}

/// The hash prefix bytes of a field value: the first `width` lowercase hex characters of its MD5
/// (or the first `width` raw digest bytes), written into `out[..width]`.
///
/// ```
/// let mut out = [0u8; 32];
/// rowkey::codec::hash_prefix(&"foo0001".to_string(), 6, false, &mut out);
/// assert_eq!(&out[..6], b"95f18c"); // md5("foo0001").substring(0, 6)
/// ```
#[inline]
pub fn hash_prefix<T: HashPlain + ?Sized>(v: &T, width: usize, raw: bool, out: &mut [u8; 32]) {
    let digest = v.with_plain(md5);
    if raw {
        for (o, d) in out.iter_mut().zip(digest.iter()).take(width) {
            *o = *d;
        }
    } else {
        // only the `width` characters the key keeps
        for (i, o) in out.iter_mut().enumerate().take(width) {
            let b = digest.get(i / 2).copied().unwrap_or_default();
            *o = hex_digit(if i % 2 == 0 { b >> 4 } else { b & 15 }, b'a');
        }
    }
}

/// Write the hash prefix of a field value (encode, and a scan fixing a hashed field).
#[inline(always)]
pub(crate) fn put_hash<T: HashPlain + ?Sized, B: bytes::BufMut>(
    v: &T,
    width: usize,
    raw: bool,
    buf: &mut B,
) {
    let mut h = [0u8; 32];
    hash_prefix(v, width, raw, &mut h);
    buf.put_slice(h.get(..width).unwrap_or(&h));
}

/// Compare a stored hash prefix with the one recomputed from the decoded value (decode).
#[inline(always)]
pub(crate) fn check_hash<T: HashPlain + ?Sized>(
    v: &T,
    width: usize,
    raw: bool,
    stored: &[u8],
) -> Result<(), crate::DecodeError> {
    let mut h = [0u8; 32];
    hash_prefix(v, width, raw, &mut h);
    if h.get(..width) == Some(stored) {
        Ok(())
    } else {
        Err(crate::DecodeError::new(
            crate::DecodeErrorKind::HashMismatch,
            0,
        ))
    }
}
