//! The writer's memory is bounded by a block (plus a Bloom chunk and the index keys), whatever
//! the file size: measured with a counting allocator (this test binary's only test, so no other
//! test's allocations are counted).

#![cfg(all(feature = "snappy", feature = "gz", feature = "zstd"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use rowkey_hfile::{Cell, Compression, HFileWriter, WriterOptions};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Writes `cells` cells of 200-byte values to a sink; returns (file bytes, peak heap growth).
fn peak_while_writing(cells: u64, compression: Compression) -> (u64, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut w = HFileWriter::new(
        std::io::sink(),
        WriterOptions::default().compression(compression),
    )
    .unwrap();
    let value = [7u8; 200];
    for i in 0..cells {
        w.append(&Cell::put(&i.to_be_bytes(), b"f", b"q", 1, &value))
            .unwrap();
    }
    let summary = w.finish().unwrap();
    (summary.bytes, PEAK.load(Ordering::Relaxed) - before)
}

#[test]
fn peak_heap_does_not_grow_with_the_file() {
    for compression in [Compression::None, Compression::Snappy] {
        let (small_bytes, small_peak) = peak_while_writing(20_000, compression);
        let (big_bytes, big_peak) = peak_while_writing(400_000, compression);
        eprintln!(
            "{compression:?}: {small_bytes} bytes written with a peak of {small_peak} heap bytes; \
             {big_bytes} bytes with {big_peak}"
        );
        assert!(big_bytes > 10 * small_bytes);
        // a 64 KiB block, its compressed copy, a 128 KiB Bloom chunk, index keys: well under
        // 2 MiB, and 20x the cells adds only index entries (about 40 bytes per 64 KiB block)
        assert!(big_peak < 2 << 20, "peak {big_peak} bytes");
        assert!(
            big_peak < small_peak + (512 << 10),
            "peak {big_peak} vs {small_peak}"
        );
    }
}
