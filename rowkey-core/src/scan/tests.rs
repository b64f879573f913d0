//! Unit tests of `scan`.

use super::*;

#[test]
fn successor() {
    assert_eq!(prefix_successor(b""), None);
    assert_eq!(prefix_successor(b"\x00"), Some(vec![1]));
    assert_eq!(prefix_successor(b"\x01\xFF"), Some(vec![2]));
    let r = ScanRange::prefix(b"\xFF");
    assert_eq!(r.stop(), None);
    assert!(r.contains(b"\xFF\xFF\xFF"));
    assert!(!r.contains(b"\xFE"));
}

/// The fan-out over the salt buckets against the obvious construction: for every bucket, the
/// head with its salt, then `[p, successor(p))` (none past an all-0xFF `p`), or `[p, p ++ 0x00)`
/// for the one complete key — with a constant prefix before the salt, fields after it, 1- and
/// 2-byte salts, and bytes after the salt on both sides of 0xFF.
#[test]
fn fan_out_is_one_range_per_bucket() {
    let heads: [(&[u8], &[u8]); 5] = [
        (b"", b""),
        (b"ab", b""),
        (b"", b"x\x00"),
        (b"p", b"\xFF\xFF"),
        (b"", b"\x05\xFF"),
    ];
    for (prefix, after) in heads {
        for (width, n) in [(1usize, 1u32), (1, 16), (1, 256), (2, 300)] {
            for exact in [false, true] {
                let mut t = prefix.to_vec();
                t.resize(prefix.len() + width, 0);
                t.extend_from_slice(after);
                let got = builder::fan_out(t.clone(), prefix.len(), width, n, exact);
                let want: Vec<ScanRange> = (0..n)
                    .map(|s| {
                        let mut p = prefix.to_vec();
                        p.extend_from_slice(crate::salt::bytes(s, width).as_ref());
                        p.extend_from_slice(after);
                        if exact {
                            let mut stop = p.clone();
                            stop.push(0);
                            ScanRange::new(&p, Some(&stop))
                        } else {
                            ScanRange::new(&p, prefix_successor(&p).as_deref())
                        }
                    })
                    .collect();
                assert_eq!(got, want, "{prefix:?} {after:?} {width} {n} {exact}");
            }
        }
    }
    assert!(builder::fan_out(vec![0], 0, 1, 0, false).is_empty());
}
