//! Scan ranges never leak: for arbitrary keys and a scan taken from one of them (an equality
//! prefix, a range over the next field — every `RangeBounds` shape — or a starts-with on the
//! salted string), the key itself is contained, and the other key is contained exactly when its
//! values match the scan. `SaltedPrefix` is salted by its first field; `WholeSalt` by the whole
//! key, so its scans fan out over every bucket with the fixed fields after the salt.
#![no_main]

use std::ops::Bound;

use libfuzzer_sys::fuzz_target;
use rowkey::RowKey;
use rowkey_fuzz::*;

/// A bound over `v`: included, excluded or unbounded by `kind`.
fn bound<T>(kind: u8, v: T) -> Bound<T> {
    match kind % 3 {
        0 => Bound::Included(v),
        1 => Bound::Excluded(v),
        _ => Bound::Unbounded,
    }
}

fn inside<T: PartialOrd>(v: &T, lo: &Bound<T>, hi: &Bound<T>) -> bool {
    let above = match lo {
        Bound::Included(l) => v >= l,
        Bound::Excluded(l) => v > l,
        Bound::Unbounded => true,
    };
    let below = match hi {
        Bound::Included(h) => v <= h,
        Bound::Excluded(h) => v < h,
        Bound::Unbounded => true,
    };
    above && below
}

fuzz_target!(|input: (
    SaltedPrefix,
    SaltedPrefix,
    u8,
    i64,
    u32,
    u8,
    WholeSalt,
    WholeSalt
)| {
    let (a, b, form, other_ts, other_seq, cut, wa, wb) = input;
    whole_salt(&wa, &wb, form, other_seq, cut);
    let (Ok(ka), Ok(kb)) = (a.to_row_key(), b.to_row_key()) else {
        return;
    };
    let s = SaltedPrefix::scan();
    // a range from `a`'s value to another (either way round: a reversed range is empty)
    let (lo_kind, hi_kind) = (form / 8 % 3, form / 24 % 3);
    let ts_lo = bound(lo_kind, a.ts.min(other_ts));
    let ts_hi = bound(hi_kind, a.ts.max(other_ts));
    let seq_lo = bound(lo_kind, a.seq.min(other_seq));
    let seq_hi = bound(hi_kind, a.seq.max(other_seq));
    // a prefix of `a.host` on a char boundary
    let mut at = usize::from(cut) % (a.host.len() + 1);
    while !a.host.is_char_boundary(at) {
        at -= 1;
    }
    let prefix = &a.host[..at];
    let (ranges, matches) = match form % 8 {
        0 => (s.ranges(), true),
        1 => (s.host(&a.host).ranges(), b.host == a.host),
        2 => (
            s.host(&a.host).ts(a.ts).ranges(),
            b.host == a.host && b.ts == a.ts,
        ),
        3 => (s.host(&a.host).ts(a.ts).seq(a.seq).ranges(), b == a),
        4 => (
            s.host(&a.host).ts_range((ts_lo, ts_hi)).ranges(),
            b.host == a.host && inside(&b.ts, &ts_lo, &ts_hi),
        ),
        5 => (
            s.host(&a.host)
                .ts(a.ts)
                .seq_range((seq_lo, seq_hi))
                .ranges(),
            b.host == a.host && b.ts == a.ts && inside(&b.seq, &seq_lo, &seq_hi),
        ),
        6 => (
            s.host_starts_with(prefix).ranges(),
            b.host.starts_with(prefix),
        ),
        _ => {
            let (lo, hi) = if a.host <= b.host {
                (bound(lo_kind, prefix), bound(hi_kind, a.host.as_str()))
            } else {
                (bound(lo_kind, a.host.as_str()), bound(hi_kind, prefix))
            };
            let m = inside(&b.host.as_str(), &lo, &hi);
            (s.host_range((lo, hi)).ranges(), m)
        }
    };
    // `a` is inside its own scan, except for a range that does not hold it
    let a_inside = match form % 8 {
        4 => inside(&a.ts, &ts_lo, &ts_hi),
        5 => inside(&a.seq, &seq_lo, &seq_hi),
        7 => false,
        _ => true,
    };
    if a_inside {
        assert!(
            ranges.contains(&ka),
            "{a:?} is inside its own scan (form {form})"
        );
    }
    assert_eq!(ranges.contains(&kb), matches, "{a:?} / {b:?}, form {form}");
});

/// The scans of `WholeSalt` (salted over both fields: fixing `tenant` leaves the salt free).
fn whole_salt(a: &WholeSalt, b: &WholeSalt, form: u8, other: u32, cut: u8) {
    let (Ok(ka), Ok(kb)) = (a.to_row_key(), b.to_row_key()) else {
        return;
    };
    let s = WholeSalt::scan();
    let (lo, hi) = (
        bound(form / 8 % 3, a.tenant.min(other)),
        bound(form / 24 % 3, a.tenant.max(other)),
    );
    let mut at = usize::from(cut) % (a.name.len() + 1);
    while !a.name.is_char_boundary(at) {
        at -= 1;
    }
    let prefix = &a.name[..at];
    let (ranges, matches, a_inside) = match form % 4 {
        0 => (s.tenant(a.tenant).ranges(), b.tenant == a.tenant, true),
        1 => (s.tenant(a.tenant).name(&a.name).ranges(), b == a, true),
        2 => (
            s.tenant_range((lo, hi)).ranges(),
            inside(&b.tenant, &lo, &hi),
            inside(&a.tenant, &lo, &hi),
        ),
        _ => (
            s.tenant(a.tenant).name_starts_with(prefix).ranges(),
            b.tenant == a.tenant && b.name.starts_with(prefix),
            true,
        ),
    };
    if a_inside {
        assert!(
            ranges.contains(&ka),
            "{a:?} is inside its own scan (form {form})"
        );
    }
    assert_eq!(ranges.contains(&kb), matches, "{a:?} / {b:?}, form {form}");
}
