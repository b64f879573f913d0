//! Decoding a derived key: the [`Reader`] the generated `decode_visit` drives, one call per
//! field.

use crate::codec::Decode;
use crate::describe::{Show, Visit};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::layout::SaltKind;
use crate::parts::KeyFields;

/// `input[at..]`, or empty (never panics).
#[inline(always)]
fn rest(input: &[u8], at: usize) -> &[u8] {
    input.get(at..).unwrap_or_default()
}

/// `input[from..to]`, or empty (never panics).
#[inline(always)]
fn slice(input: &[u8], from: usize, to: usize) -> &[u8] {
    input.get(from..to).unwrap_or_default()
}

/// Decoding state of one derived key `K`: the input, the position, the salt (read first,
/// checked once its salted fields are decoded — the layout's salt is data, `K::SALT`) and the
/// visitor. Errors name the field and carry the offset from the start of this key.
pub struct Reader<'de, 'v, K: ?Sized, V: Visit> {
    input: &'de [u8],
    pos: usize,
    mask: u8,
    visit: &'v mut V,
    salt: u32,
    salt_at: usize,
    /// The Java hash code of the salted fields read so far.
    hash: i32,
    key: core::marker::PhantomData<fn(&K)>,
}

impl<'de, 'v, K: KeyFields + ?Sized, V: Visit> Reader<'de, 'v, K, V> {
    /// Start reading `input` (masked with `mask` when the whole key is descending).
    #[inline(always)]
    pub fn new(input: &'de [u8], mask: u8, visit: &'v mut V) -> Self {
        Self {
            input,
            pos: 0,
            mask,
            visit,
            salt: 0,
            salt_at: 0,
            hash: 1,
            key: core::marker::PhantomData,
        }
    }

    /// The mask of the key (the fields' masks are relative to it).
    #[inline(always)]
    pub fn mask(&self) -> u8 {
        self.mask
    }

    /// Check the layout's constant prefix and read its salt.
    #[inline(always)]
    pub fn head(&mut self) -> Result<(), DecodeError> {
        let prefix = K::PREFIX;
        if !prefix.is_empty() {
            let mask = self.mask;
            let at = self.pos;
            let ok = rest(self.input, at).len() >= prefix.len()
                && rest(self.input, at)
                    .iter()
                    .zip(prefix)
                    .all(|(b, p)| *b == *p ^ mask);
            if !ok {
                return Err(DecodeError::new(
                    DecodeErrorKind::PrefixMismatch { expected: prefix },
                    at,
                )
                .in_field("prefix", 0));
            }
            self.pos += prefix.len();
            self.visit.prefix(prefix, at);
        }
        if let Some(s) = K::SALT {
            let at = self.pos;
            self.salt_at = at;
            self.salt = crate::salt::get(rest(self.input, at), s.buckets, self.mask)
                .map_err(|e| e.in_field(K::SALT_NAME, at))?;
            self.pos += s.width;
            self.visit.salt(self.salt, at, self.pos);
        }
        if K::TRIMS && rest(self.input, self.pos).is_empty() {
            let (field, why) = K::EMPTY_KEY;
            return Err(
                DecodeError::new(DecodeErrorKind::NonCanonical(why), 0).in_field(field, self.pos)
            );
        }
        Ok(())
    }

    /// Decode field `I`; when it is salted its bytes feed the salt hash, and when it is the last
    /// salted field the stored salt is checked.
    #[inline(always)]
    pub fn field<C: Decode<'de, T>, T: Show, const I: usize>(
        &mut self,
        name: &'static str,
        mask: u8,
    ) -> Result<T, DecodeError> {
        let start = self.pos;
        let (v, n) =
            C::decode(rest(self.input, start), mask).map_err(|e| e.in_field(name, start))?;
        self.pos += n;
        if const { crate::salt::hashes(K::SALT, I) } {
            self.hash = crate::salt::step(self.hash, slice(self.input, start, self.pos));
        }
        self.visit.field(name, self.pos, &v);
        if const { crate::salt::completes(K::SALT, I) } {
            self.check_salt::<C, T>(&v)?;
        }
        Ok(v)
    }

    /// Check the stored salt against the one of the salted fields read so far.
    #[inline(always)]
    fn check_salt<C: Decode<'de, T>, T>(&self, v: &T) -> Result<(), DecodeError> {
        let Some(s) = K::SALT else { return Ok(()) };
        match s.kind {
            SaltKind::Phoenix => {
                crate::salt::check(self.salt, crate::salt::bucket_of(self.hash, s.buckets))
                    .map_err(|e| e.in_field(K::SALT_NAME, self.salt_at))
            }
            SaltKind::Modulo => {
                crate::salt::check(self.salt, crate::salt::modulo_of::<C, T>(v, s.buckets))
                    .map_err(|e| e.in_field(K::SALT_NAME, 0))
            }
        }
    }

    /// The bytes read.
    #[inline(always)]
    pub fn finish(self) -> usize {
        self.pos
    }
}

/// Decode an enum code.
#[cold]
pub fn unknown_variant(code: u64) -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnknownVariant { code }, 0)
}
