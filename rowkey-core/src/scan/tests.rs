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
