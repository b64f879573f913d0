//! `from_string_binary` on arbitrary text never panics; `to_string_binary` output reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey::hbase::{from_string_binary, to_string_binary};

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = core::str::from_utf8(data) {
        let _ = from_string_binary(s);
    }
    let text = to_string_binary(data);
    assert_eq!(
        from_string_binary(&text).expect("own output reads back"),
        data
    );
});
