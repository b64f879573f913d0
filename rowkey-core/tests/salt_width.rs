//! The salt width rule is stated twice: `rowkey::salt::width` (the runtime and the generated
//! layouts) and `salt_bytes` in rowkey-derive's `valid.rs` (the compile-time `max_len` check; the
//! derive does not depend on the runtime). This pins that they agree at every boundary.
//!
//! Each key here is fixed-width and exactly at its `max_len`, so it compiles only if the derive
//! counts no more salt bytes than the runtime writes; `rowkey-ui/tests/ui/fail/max_len/salted_too_long.rs`
//! pins the other direction (its message states the width the derive computed).

use rowkey::salt::width;
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 9)]
struct One {
    #[salt(buckets = 1)]
    id: u64,
}

#[derive(RowKey)]
#[rowkey(max_len = 9)]
struct Max1 {
    #[salt(buckets = 256)]
    id: u64,
}

#[derive(RowKey)]
#[rowkey(max_len = 10)]
struct Min2 {
    #[salt(buckets = 257)]
    id: u64,
}

#[derive(RowKey)]
#[rowkey(max_len = 10)]
struct Max2 {
    #[salt(buckets = 65536)]
    id: u64,
}

#[test]
fn derive_and_runtime_agree_on_the_salt_width() {
    assert_eq!(
        (width(1), width(256), width(257), width(65536)),
        (1, 1, 2, 2)
    );
    for (layout, buckets) in [
        (One::LAYOUT, 1),
        (Max1::LAYOUT, 256),
        (Min2::LAYOUT, 257),
        (Max2::LAYOUT, 65536),
    ] {
        assert_eq!(
            layout.fixed_width,
            Some(width(buckets) + 8),
            "{buckets} buckets"
        );
        assert_eq!(layout.max_len, layout.fixed_width, "{buckets} buckets");
    }
    assert_eq!(Max1 { id: 7 }.to_row_key().unwrap().len(), 9);
    assert_eq!(Min2 { id: 7 }.to_row_key().unwrap().len(), 10);
}
