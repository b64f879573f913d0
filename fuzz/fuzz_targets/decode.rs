//! Decode arbitrary bytes under every representative layout: never panics; what decodes is
//! canonical.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey_fuzz::*;

fuzz_target!(|data: &[u8]| {
    decode_canonical::<SaltedPrefix>(data);
    decode_canonical::<WholeSalt>(data);
    decode_canonical::<Hashed>(data);
    decode_canonical::<Nested>(data);
    decode_canonical::<Modulo>(data);
    decode_canonical::<Kind>(data);
});
