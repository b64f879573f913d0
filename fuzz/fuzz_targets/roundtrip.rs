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
    Fixed(Fixed),
}

fuzz_target!(|case: (Input, u8, u8)| {
    let (input, spare, split) = case;
    match input {
        Input::SaltedPrefix(k) => roundtrip_eq(&k, spare, split),
        Input::WholeSalt(k) => roundtrip_eq(&k, spare, split),
        Input::Hashed(k) => roundtrip_eq(&k, spare, split),
        Input::Nested(k) => {
            roundtrip(&k, |a, b| {
                a.inner == b.inner
                    && a.opt == b.opt
                    && a.id == b.id
                    && a.phone == b.phone
                    && a.f.to_bits() == b.f.to_bits()
                    && a.c == b.c
            });
            buffers(&k, spare, split);
        }
        Input::Modulo(k) => roundtrip_eq(&k, spare, split),
        Input::Fixed(k) => roundtrip_eq(&k, spare, split),
    }
});
