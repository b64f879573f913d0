//! Decoding a derived key: the [`Reader`] the generated `decode_visit` drives, one call per
//! field.

use crate::codec::{Decode, HashPlain};
use crate::describe::{Show, Visit};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::hash_prefix::check_hash;

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

/// Take the `width` stored hash-prefix bytes at `at`.
#[inline(always)]
fn take_hash(input: &[u8], at: usize, width: usize) -> Result<&[u8], DecodeError> {
    let rest = rest(input, at);
    rest.get(..width)
        .ok_or_else(|| DecodeError::truncated(at + rest.len(), width - rest.len(), rest.len()))
}

/// Decoding state of one derived key: the input, the position, the salt (read first, checked
/// once its salted fields are decoded) and the visitor. Errors name the field and carry the
/// offset from the start of this key.
pub struct Reader<'de, 'v, V: Visit> {
    input: &'de [u8],
    pos: usize,
    mask: u8,
    visit: &'v mut V,
    salt: u32,
    salt_name: &'static str,
    salt_at: usize,
    /// The Java hash code of the salted fields read so far.
    hash: i32,
}

impl<'de, 'v, V: Visit> Reader<'de, 'v, V> {
    /// Start reading `input` (masked with `mask` when the whole key is descending).
    #[inline(always)]
    pub fn new(input: &'de [u8], mask: u8, visit: &'v mut V) -> Self {
        Self {
            input,
            pos: 0,
            mask,
            visit,
            salt: 0,
            salt_name: "salt",
            salt_at: 0,
            hash: 1,
        }
    }

    /// The mask of the key (the fields' masks are relative to it).
    #[inline(always)]
    pub fn mask(&self) -> u8 {
        self.mask
    }

    /// Check the layout's constant prefix.
    #[inline(always)]
    pub fn prefix(&mut self, prefix: &'static [u8]) -> Result<(), DecodeError> {
        let mask = self.mask;
        let at = self.pos;
        let ok = rest(self.input, at).len() >= prefix.len()
            && rest(self.input, at)
                .iter()
                .zip(prefix)
                .all(|(b, p)| *b == *p ^ mask);
        if !ok {
            return Err(
                DecodeError::new(DecodeErrorKind::PrefixMismatch { expected: prefix }, at)
                    .in_field("prefix", 0),
            );
        }
        self.pos += prefix.len();
        self.visit.prefix(prefix, at);
        Ok(())
    }

    /// Read the salt of a layout with `buckets` buckets (`name`: the salt's name in errors).
    #[inline(always)]
    pub fn salt(&mut self, buckets: u32, name: &'static str) -> Result<(), DecodeError> {
        self.salt_name = name;
        let at = self.pos;
        self.salt_at = at;
        self.salt = crate::salt::get(rest(self.input, at), buckets, self.mask)
            .map_err(|e| e.in_field(name, at))?;
        self.pos += crate::salt::width(buckets);
        self.visit.salt(self.salt, at, self.pos);
        Ok(())
    }

    /// Decode the next field. `salted`: its bytes feed the Phoenix salt hash.
    #[inline(always)]
    pub fn field<C: Decode<'de, T>, T: Show>(
        &mut self,
        name: &'static str,
        mask: u8,
        salted: bool,
    ) -> Result<T, DecodeError> {
        let start = self.pos;
        let (v, n) =
            C::decode(rest(self.input, start), mask).map_err(|e| e.in_field(name, start))?;
        self.pos += n;
        self.done(name, start, salted, &v);
        Ok(v)
    }

    /// [`field`](Self::field) behind a `#[hash_prefix]`: takes the stored prefix, decodes the
    /// value and checks the prefix against it.
    #[inline(always)]
    pub fn hashed_field<C: Decode<'de, T>, T: Show + HashPlain>(
        &mut self,
        name: &'static str,
        mask: u8,
        salted: bool,
        hash: (usize, bool),
    ) -> Result<T, DecodeError> {
        let start = self.pos;
        let (width, raw) = hash;
        let stored = take_hash(self.input, start, width).map_err(|e| e.in_field(name, 0))?;
        let at = start + width;
        let (v, n) = C::decode(rest(self.input, at), mask).map_err(|e| e.in_field(name, at))?;
        check_hash(&v, width, raw, stored).map_err(|e| e.in_field(name, start))?;
        self.pos = at + n;
        self.done(name, start, salted, &v);
        Ok(v)
    }

    #[inline(always)]
    fn done(&mut self, name: &'static str, start: usize, salted: bool, v: &dyn Show) {
        if salted {
            self.hash = crate::salt::step(self.hash, slice(self.input, start, self.pos));
        }
        self.visit.field(name, self.pos, v);
    }

    /// Check the stored salt against the Phoenix hash of the salted fields read so far.
    #[inline(always)]
    pub fn check_phoenix_salt(&self, buckets: u32) -> Result<(), DecodeError> {
        crate::salt::check(self.salt, crate::salt::bucket_of(self.hash, buckets))
            .map_err(|e| e.in_field(self.salt_name, self.salt_at))
    }

    /// Check the stored salt against `value % buckets` of the decoded field.
    #[inline(always)]
    pub fn check_modulo_salt<T: crate::integer::Integer>(
        &self,
        value: T,
        buckets: u32,
    ) -> Result<(), DecodeError> {
        crate::salt::check(self.salt, crate::salt::modulo(value, buckets))
            .map_err(|e| e.in_field(self.salt_name, 0))
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
