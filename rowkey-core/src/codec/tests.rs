//! Unit tests of `codec`.

use super::*;
use crate::error::DecodeErrorKind;

/// The word-at-a-time escape search against the obvious byte loop: every length up to 100
/// and longer ones through the AVX2/AVX-512 paths,
/// every position of a byte to find (each of the four bytes near the flagged range), both
/// masks, over pseudo-random filler — for the search, the length pass and the one-pass
/// copy-and-test alike; and the escaping built on it against a reference.
#[test]
fn escape_search_matches_byte_loop() {
    fn reference_escape(c: &[u8], mask: u8) -> Vec<u8> {
        let mut v = Vec::new();
        for &b in c {
            if b <= 1 {
                v.push(1 ^ mask);
            }
            v.push(b ^ mask);
        }
        v.push(mask);
        v
    }
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // every short length, and lengths around the SIMD block sizes and thresholds
    let lens = (0..100usize).chain([127, 128, 129, 160, 191, 192, 255, 256, 257, 300, 513]);
    for len in lens {
        for mask in [0u8, 0xFF] {
            // filler that is never flagged (bytes 2..=0xFD, masked or not), then one byte
            // to find at each position, then random content with several
            let filler: Vec<u8> = (0..len).map(|_| 2 + (rnd() % 252) as u8).collect();
            assert_eq!(escape::find_low(&filler, mask), None, "{len} {mask}");
            assert_eq!(escape::escapes(&filler), 0);
            for at in 0..len {
                for b in [0u8, 1, 2, 0x80, 0xFE, 0xFF] {
                    let mut c = filler.clone();
                    c[at] = b;
                    let want = c.iter().position(|&x| (x ^ mask) <= 1);
                    assert_eq!(escape::find_low(&c, mask), want, "{len} {at} {b} {mask}");
                    // the one-pass copy-and-test and the length pass see it too
                    let low = usize::from(b <= 1);
                    assert_eq!(escape::escapes(&c), low, "{len} {at} {b}");
                    let mut got = Vec::with_capacity(len + 4);
                    escape::put_escaped(&c, &mut got, mask);
                    got.push(mask);
                    assert_eq!(got, reference_escape(&c, mask), "{len} {at} {b} {mask}");
                }
            }
            let c: Vec<u8> = (0..len).map(|_| (rnd() % 5) as u8 * 63).collect();
            let c2: Vec<u8> = (0..len).map(|_| rnd() as u8).collect();
            for c in [c, c2] {
                let want = c.iter().position(|&x| (x ^ mask) <= 1);
                assert_eq!(escape::find_low(&c, mask), want);
                assert_eq!(escape::escapes(&c), c.iter().filter(|&&x| x <= 1).count());
                let e = reference_escape(&c, mask);
                assert_eq!(escape::escaped_len(&c), e.len());
                // a growing buffer (first chunk: 64 bytes), an exact one, a roomy one
                for cap in [0, e.len(), 2048] {
                    let mut got = Vec::with_capacity(cap);
                    escape::put_escaped(&c, &mut got, mask);
                    got.push(mask);
                    assert_eq!(got, e, "{len} {mask} {cap}");
                }
                let mut arr = [0u8; 1100];
                let mut w = &mut arr[..];
                escape::put_escaped(&c, &mut w, mask);
                let left = w.len();
                assert_eq!(&arr[..1100 - left], &e[..e.len() - 1]);
                let mut tailed = e.clone();
                tailed.extend_from_slice(&[7, 0, 1]);
                let (back, used) = escape::get_escaped(&tailed, mask).unwrap();
                assert_eq!((&back[..], used), (&c[..], e.len()));
            }
        }
    }
}

fn enc<C: Codec<T>, T>(v: &T, mask: u8) -> Vec<u8> {
    let mut b = Vec::new();
    C::encode(v, &mut b, mask).unwrap();
    assert_eq!(b.len(), C::len(v, mask));
    b
}

#[test]
fn ints() {
    assert_eq!(enc::<Natural, i64>(&i64::MIN, 0), [0; 8]);
    assert_eq!(
        enc::<Natural, i64>(&-1, 0),
        [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(enc::<Natural, u16>(&0x1234, 0), [0x12, 0x34]);
    assert_eq!(enc::<Natural, u16>(&0x1234, 0xFF), [0xED, 0xCB]);
    assert_eq!(enc::<Java, i32>(&-1, 0), [0xFF; 4]);
    assert_eq!(enc::<Reverse<Natural>, u32>(&0x01020304, 0), [4, 3, 2, 1]);
    for v in [i16::MIN, -1, 0, 1, i16::MAX] {
        for m in [0, 0xFF] {
            let b = enc::<Natural, i16>(&v, m);
            assert_eq!(<Natural as Decode<i16>>::decode(&b, m).unwrap(), (v, 2));
        }
    }
}

#[test]
fn reverse_ts_is_java_identical() {
    let ts: i64 = 1_700_000_000_000;
    assert_eq!(enc::<ReverseTs, i64>(&ts, 0), (i64::MAX - ts).to_be_bytes());
    assert!(<ReverseTs as Codec<i64>>::encode(&-1, &mut Vec::new(), 0).is_err());
    assert!(<ReverseTs as Codec<u64>>::encode(&u64::MAX, &mut Vec::new(), 0).is_err());
    assert_eq!(
        <ReverseTs as Decode<u64>>::decode(&(i64::MAX - 5).to_be_bytes(), 0).unwrap(),
        (5, 8)
    );
    // A stored value with the top bit set is never produced.
    assert!(<ReverseTs as Decode<i64>>::decode(&[0x80, 0, 0, 0, 0, 0, 0, 0], 0).is_err());
}

#[test]
fn decimal() {
    assert_eq!(enc::<Pad<6, 0>, u32>(&1, 0), b"000001");
    assert_eq!(enc::<Reverse<Pad<6, 0>>, u32>(&12, 0), b"210000");
    assert!(<Pad<2, 0> as Codec<u32>>::encode(&100, &mut Vec::new(), 0).is_err());
    assert_eq!(enc::<Pad<45, 0>, u128>(&u128::MAX, 0).len(), 45);
    let b = enc::<Pad<45, 0>, u128>(&u128::MAX, 0);
    assert_eq!(
        <Pad<45, 0> as Decode<u128>>::decode(&b, 0).unwrap().0,
        u128::MAX
    );
    assert!(<Pad<3, 0> as Decode<u8>>::decode(b"300", 0).is_err());
    assert!(<Pad<3, 0> as Decode<u8>>::decode(b"2a5", 0).is_err());
    assert_eq!(<Pad<3, 0> as Decode<u8>>::decode(b"255", 0).unwrap().0, 255);
    assert!(<Pad<40, 0> as Decode<u128>>::decode(&[b'9'; 40], 0).is_err());
}

#[test]
fn floats_total_order() {
    let vals = [
        f64::NEG_INFINITY,
        -1.5,
        -0.0,
        0.0,
        f64::MIN_POSITIVE,
        1.0,
        f64::INFINITY,
        f64::NAN,
    ];
    let encs: Vec<_> = vals.iter().map(|v| enc::<Natural, f64>(v, 0)).collect();
    for w in encs.windows(2) {
        assert!(w[0] < w[1]);
    }
    for v in vals {
        let b = enc::<Natural, f64>(&v, 0);
        let (d, _) = <Natural as Decode<f64>>::decode(&b, 0).unwrap();
        assert_eq!(d.to_bits(), v.to_bits());
    }
}

#[test]
fn escaped_strings() {
    let s = |x: &[u8]| enc::<Sep, Vec<u8>>(&x.to_vec(), 0);
    assert_eq!(s(b"host1"), b"host1\0");
    assert_eq!(s(b"\x00\x01\x02"), b"\x01\x00\x01\x01\x02\x00");
    assert!(s(b"host1") < s(b"host12"));
    assert!(s(b"a") < s(b"a\0"));
    assert!(s(b"a\0") < s(b"a\x01"));
    for v in [&b""[..], b"\0", b"\x01", b"a\x00\x01b", b"\xFF\xFF"] {
        for m in [0, 0xFF] {
            let b = enc::<Sep, Vec<u8>>(&v.to_vec(), m);
            let (d, n) = <Sep as Decode<Vec<u8>>>::decode(&b, m).unwrap();
            assert_eq!((d.as_slice(), n), (v, b.len()));
        }
    }
    assert!(<Sep as Decode<Vec<u8>>>::decode(b"ab", 0).is_err());
    assert!(<Sep as Decode<Vec<u8>>>::decode(b"a\x01\x05\x00", 0).is_err());
    assert!(<Sep as Decode<Vec<u8>>>::decode(b"a\x01", 0).is_err());
}

#[test]
fn borrowed_decode() {
    let (s, _) = <Sep as Decode<&str>>::decode(b"abc\0", 0).unwrap();
    assert_eq!(s, "abc");
    let err = <Sep as Decode<&str>>::decode(b"a\x01\x00\0", 0).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::NeedsOwned);
}

#[test]
fn padding() {
    assert_eq!(enc::<Pad<4, 0>, String>(&"ab".into(), 0), b"ab\0\0");
    assert_eq!(enc::<Pad<4, b' '>, String>(&"ab".into(), 0), b"ab  ");
    assert!(<Pad<4, 0> as Codec<String>>::encode(&"abcde".into(), &mut Vec::new(), 0).is_err());
    assert!(<Pad<4, b' '> as Codec<String>>::encode(&"a ".into(), &mut Vec::new(), 0).is_err());
    assert_eq!(
        enc::<Reverse<Pad<4, 0>>, String>(&"aé".into(), 0),
        "éa\0".as_bytes()
    );
    let b = enc::<Reverse<Pad<5, 0>>, String>(&"aé".into(), 0xFF);
    assert_eq!(
        <Reverse<Pad<5, 0>> as Decode<String>>::decode(&b, 0xFF)
            .unwrap()
            .0,
        "aé"
    );
}

#[test]
fn options() {
    assert_eq!(enc::<Natural, Option<u8>>(&None, 0), [0]);
    assert_eq!(enc::<Natural, Option<u8>>(&Some(7), 0), [1, 7]);
    assert!(<Natural as Decode<Option<u8>>>::decode(&[2], 0).is_err());
}

/// `Desc<C>` is `C` at the other order, in every method, for every family of codec (and twice
/// flipped is ascending again, as in a `#[desc]` field of a key nested `#[desc]`); its bytes
/// sort in the reverse of the value order, values on both sides of the escape and fill bytes.
#[test]
fn desc_is_the_inner_codec_at_the_other_order() {
    use core::ops::Bound as B;
    fn same<C: Codec<T> + for<'de> Decode<'de, T>, T: PartialEq + core::fmt::Debug + Ord>(
        vs: &[T],
    ) {
        for m in [0u8, 0xFF] {
            assert_eq!(Desc::<C>::inverted(m), !C::inverted(m));
            for v in vs {
                let d = enc::<Desc<C>, T>(v, m);
                assert_eq!(d, enc::<C, T>(v, m ^ 0xFF), "{v:?} at {m:#x}");
                let (back, n) = <Desc<C> as Decode<T>>::decode(&d, m).unwrap();
                assert_eq!((&back, n), (v, d.len()));
                for (upper, inclusive) in
                    [(false, false), (false, true), (true, false), (true, true)]
                {
                    assert_eq!(
                        Desc::<C>::bound(v, m, upper, inclusive),
                        C::bound(v, m ^ 0xFF, upper, inclusive)
                    );
                }
                for w in vs {
                    assert_eq!(
                        Desc::<C>::pieces(B::Included(v), B::Excluded(w), m),
                        C::pieces(B::Included(v), B::Excluded(w), m ^ 0xFF)
                    );
                    // descending at the key's own order: the bytes sort the other way
                    if C::PREFIX_FREE || d.len() == enc::<Desc<C>, T>(w, m).len() {
                        let (a, b) = (enc::<Desc<C>, T>(v, 0), enc::<Desc<C>, T>(w, 0));
                        if !C::REVERSED {
                            assert_eq!(a.cmp(&b), w.cmp(v), "{v:?} {w:?}");
                        }
                    }
                }
            }
        }
    }
    same::<Natural, u16>(&[0, 1, 0xFF, 0x100, 0xFEFF, u16::MAX]);
    same::<Natural, i32>(&[i32::MIN, -1, 0, 1, i32::MAX]);
    same::<Natural, bool>(&[false, true]);
    same::<ReverseTs, i64>(&[0, 1, 1 << 40, i64::MAX]);
    same::<Pad<6, 0>, u32>(&[0, 9, 10, 999_999]);
    let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let s = strings(&[
        "", "\0", "\u{1}", "a", "a\0", "a\u{1}", "ab", "b", "\u{7f}", "é",
    ]);
    same::<Natural, String>(&s);
    same::<Sep, String>(&s);
    same::<Pad<4, 0>, String>(&strings(&["", "a", "a\u{1}", "ab", "abcd", "b"]));
    // (a custom separator keeps the order of content bytes above it only)
    same::<SepByte<b'|'>, String>(&strings(&["", "}", "}}", "}~", "~", "\u{7f}"]));
    let opt: Vec<Option<u16>> = vec![None, Some(0), Some(1), Some(u16::MAX)];
    same::<Natural, Option<u16>>(&opt);
    same::<Natural, Option<String>>(&[None, Some(String::new()), Some("a".into())]);
    // a prefix of a `_starts_with` under `Desc`, behind `Some` too
    for m in [0u8, 0xFF] {
        for p in [&b""[..], b"a", b"a\0", b"\x01b"] {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            assert_eq!(
                <Desc<Sep> as ContentPrefix>::prefix_into(p, m, &mut x),
                <Sep as ContentPrefix>::prefix_into(p, m ^ 0xFF, &mut y)
            );
            assert_eq!(x, y);
            assert_eq!(
                <<Desc<Pad<4, 0>> as SomePrefix>::Prefix as ContentPrefix>::prefix_parts(p, m),
                <Present<Pad<4, 0>> as ContentPrefix>::prefix_parts(p, m ^ 0xFF)
            );
        }
    }
}
