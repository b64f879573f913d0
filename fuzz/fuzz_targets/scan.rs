//! Scan ranges never leak: for arbitrary keys and an equality prefix taken from one of them,
//! every key the ranges contain has that prefix's values, and the key itself is contained.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowkey::RowKey;
use rowkey_fuzz::*;

fuzz_target!(|input: (SaltedPrefix, SaltedPrefix, u8)| {
    let (a, b, depth) = input;
    let (Ok(ka), Ok(kb)) = (a.to_row_key(), b.to_row_key()) else {
        return;
    };
    let s = SaltedPrefix::scan();
    let ranges = match depth % 4 {
        0 => s.ranges(),
        1 => s.host(&a.host).ranges(),
        2 => s.host(&a.host).ts(a.ts).ranges(),
        _ => s.host(&a.host).ts(a.ts).seq(a.seq).ranges(),
    };
    assert!(
        ranges.contains(&ka),
        "a scan for a key's own prefix contains it"
    );
    let matches = match depth % 4 {
        0 => true,
        1 => b.host == a.host,
        2 => b.host == a.host && b.ts == a.ts,
        _ => b == a,
    };
    assert_eq!(
        ranges.contains(&kb),
        matches,
        "{a:?} / {b:?} at depth {}",
        depth % 4
    );
});
