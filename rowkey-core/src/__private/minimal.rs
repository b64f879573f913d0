//! The generated `.ranges()`: a typed scan's ranges made minimal.

/// A typed scan's ranges, minimal (see `scan/tighten.rs`): what the generated `.ranges()`
/// returns. One range, or a fan-out over whole salt buckets, is left as it is (the hot paths:
/// nothing to join).
#[inline(always)]
pub fn minimal<T: crate::RowKey + crate::DecodeRowKeyOwned>(
    ranges: crate::scan::ScanRanges,
) -> crate::scan::ScanRanges {
    if ranges.len() > 1 && !crate::scan::tighten::whole_buckets(&ranges) {
        tighten::<T>(ranges)
    } else {
        ranges
    }
}

#[inline(never)]
fn tighten<T: crate::RowKey + crate::DecodeRowKeyOwned>(
    ranges: crate::scan::ScanRanges,
) -> crate::scan::ScanRanges {
    crate::scan::tighten::tighten(ranges, T::LAYOUT, |b| T::from_row_key(b).map(drop))
}

/// [`minimal`] of an untyped scan's ranges.
#[inline]
pub fn minimal_scan<T: crate::RowKey + crate::DecodeRowKeyOwned>(
    scan: crate::scan::Scan,
) -> crate::scan::Scan {
    scan.map_ranges(minimal::<T>)
}
