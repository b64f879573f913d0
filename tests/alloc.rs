//! Allocation counts, measured with a counting global allocator: `encode_into` a buffer with
//! room allocates nothing; `to_row_key` allocates exactly once, exactly the key's size; a
//! fixed-prefix scan allocates at most once per range.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rowkey::RowKey;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        let _ = BYTES.try_with(|c| c.set(c.get() + layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        let _ = BYTES.try_with(|c| c.set(c.get() + new_size));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    let (a0, b0) = (ALLOCS.with(Cell::get), BYTES.with(Cell::get));
    let r = f();
    (r, ALLOCS.with(Cell::get) - a0, BYTES.with(Cell::get) - b0)
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderKey {
    seller_id: u64,
    #[sep]
    region: String,
    #[reverse_ts]
    ts: i64,
    order_no: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[salt(buckets = 16)]
    user_id: u64,
    ts: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    #[hash_prefix(4)]
    user_id: u64,
    ts: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Everything {
    #[salt(buckets = 300)]
    #[desc]
    #[sep]
    a: String,
    #[pad(8)]
    b: u32,
    #[hash_prefix(6)]
    #[pad(5, fill = b' ')]
    c: String,
    #[reverse]
    d: u16,
    e: Option<i8>,
    #[desc]
    f: Vec<u8>,
}

fn check<K: RowKey>(k: &K) {
    let mut buf = Vec::with_capacity(256);
    let (r, allocs, _) = count(|| k.encode_into(&mut buf));
    r.unwrap();
    assert_eq!(
        allocs, 0,
        "encode_into into a buffer with room allocates nothing"
    );
    let (bytes, allocs, size) = count(|| k.to_row_key().unwrap());
    assert_eq!(allocs, 1, "to_row_key allocates once");
    assert_eq!(size, bytes.len(), "... exactly the key's size");
    assert_eq!(&bytes[..], &buf[..]);
}

#[test]
fn encode_allocations() {
    check(&OrderKey {
        seller_id: 7,
        region: "eu-west\0x".into(),
        ts: 1_700_000_000_000,
        order_no: 9,
    });
    check(&Salted { user_id: 7, ts: -5 });
    check(&Hashed { user_id: 7, ts: 5 });
    check(&Everything {
        a: "x\x01y".into(),
        b: 12345,
        c: "abc".into(),
        d: 0x0102,
        e: Some(-1),
        f: vec![0, 1, 0xFF],
    });
}

#[test]
fn scan_allocations() {
    // A fixed prefix: one range, built in the builder's own buffer.
    let (r, allocs, _) = count(|| OrderKey::scan().seller_id(7).region("eu").ranges());
    assert_eq!(r.len(), 1);
    assert_eq!(allocs, 1, "one range, built in the builder's buffer");
    let (r, allocs, _) = count(|| Salted::scan().user_id(7).ranges());
    assert_eq!(r.len(), 1);
    assert_eq!(allocs, 1, "salted, salt known: one range, one allocation");
    // A range on the next field: its bounds written into the same buffer.
    let (r, allocs, _) = count(|| {
        OrderKey::scan()
            .seller_id(7)
            .region("eu")
            .ts_range(1_000..2_000)
            .ranges()
    });
    assert_eq!(r.len(), 1);
    assert_eq!(
        allocs, 1,
        "a range (reverse_ts bounds swapped): one allocation"
    );
    let (r, allocs, _) = count(|| Salted::scan().user_id(7).ts_range(..=5).ranges());
    assert_eq!(r.len(), 1);
    assert_eq!(allocs, 1, "salted, salt known, a range: one allocation");
    let (r, allocs, _) = count(|| {
        OrderKey::scan()
            .seller_id(7)
            .region_range("a".."m")
            .ranges()
    });
    assert_eq!(r.len(), 1);
    assert_eq!(allocs, 1, "a range of escaped strings: one allocation");
    let (r, allocs, _) = count(|| {
        OrderKey::scan()
            .seller_id(7)
            .region_starts_with("eu-")
            .ranges()
    });
    assert_eq!(r.len(), 1);
    assert_eq!(allocs, 1, "starts-with: one allocation");
    let (r, allocs, _) = count(|| Salted::scan().ranges());
    assert_eq!(r.len(), 16);
    assert!(
        allocs <= 16 + 1,
        "fan-out: list + one per range, the last one in the builder's buffer ({allocs})"
    );
}
