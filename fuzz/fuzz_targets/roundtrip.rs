//! Encode → decode round trips from structured arbitrary keys.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey_fuzz::*;

#[derive(arbitrary::Arbitrary, Debug)]
enum Input {
    SaltedPrefix(SaltedPrefix),
    WholeSalt(WholeSalt),
    Hashed(Hashed),
    Nested(Nested),
    Modulo(Modulo),
}

fuzz_target!(|input: Input| {
    match input {
        Input::SaltedPrefix(k) => roundtrip(&k, |a, b| a == b),
        Input::WholeSalt(k) => roundtrip(&k, |a, b| a == b),
        Input::Hashed(k) => roundtrip(&k, |a, b| a == b),
        Input::Nested(k) => roundtrip(&k, |a, b| {
            a.inner == b.inner
                && a.opt == b.opt
                && a.id == b.id
                && a.phone == b.phone
                && a.f.to_bits() == b.f.to_bits()
                && a.c == b.c
        }),
        Input::Modulo(k) => roundtrip(&k, |a, b| a == b),
    }
});
