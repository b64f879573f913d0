//! What generated code gives the runtime of a derived key struct: its constant prefix and salt
//! as data, and its fields one call each into a [`FieldSink`] (the buffer when encoding, the
//! salt hash when computing the salt).

use bytes::BufMut;

use crate::codec::Codec;
use crate::error::EncodeError;
use crate::layout::SaltLayout;

/// The masked encode/len of a whole derived key (the body of `encode_into`, reused when the key
/// is nested as a field of another key).
pub trait KeyParts {
    /// The whole key (for a struct: `__private::encode_parts`, plus the checks of generic keys).
    fn encode_masked<B: BufMut>(&self, buf: &mut B, mask: u8) -> Result<(), EncodeError>;
    /// The encoded length of the whole key.
    fn len_masked(&self, mask: u8) -> usize;
}

/// The parts of a derived key struct: its constant prefix and salt (data, also its `LAYOUT`'s)
/// and its fields in order (one generated call per field, into any [`FieldSink`]).
pub trait KeyFields {
    /// The constant prefix (`#[rowkey(prefix = ..)]`).
    const PREFIX: &'static [u8] = b"";
    /// The salt (`LAYOUT.salt`).
    const SALT: Option<SaltLayout> = None;
    /// The salt's name in errors: `salt` for a salt on the type, else the salted field's name.
    const SALT_NAME: &'static str = "salt";
    /// Whether the key drops the trailing separators that only NULLs follow (Apache Phoenix
    /// keys, `#[rowkey(phoenix)]`): the encoder cuts them (and refuses a key of NULLs only),
    /// the reader refuses an empty key.
    const TRIMS: bool = false;

    /// Why the reader refuses an empty key of a key that [`TRIMS`](Self::TRIMS), and the
    /// field it names (a Bigtable ordered-code key: its first field).
    #[doc(hidden)]
    const EMPTY_KEY: (&'static str, &'static str) =
        ("", "an empty key (Phoenix: primary key may not be null)");

    /// Every field, in key order, into `sink` (`mask`: the whole key's).
    fn put_fields<S: FieldSink>(&self, sink: &mut S, mask: u8) -> Result<(), EncodeError>;
}

/// Where a key's fields go, one call per field (`I`: its index): the buffer (encode) or the
/// salt hash (`salt::of_key`).
pub trait FieldSink {
    /// Take field `I`, named `name` in errors, encoded by `C` under `mask`.
    fn put<C: Codec<T>, T, const I: usize>(
        &mut self,
        v: &T,
        mask: u8,
        name: &'static str,
    ) -> Result<(), EncodeError>;
}
