//! Order preservation for every field type × ascending/descending, at the codec level: for any
//! two values, memcmp of the encodings equals the value order (reversed for `#[desc]`, i.e.
//! mask 0xFF, and for `#[reverse_ts]`). Adversarial values: extremes, NaN/±0, 0x00/0x01/0xFF,
//! empty and prefix-related strings.

use std::cmp::Ordering;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rowkey::codec::{Codec, Decode, Natural, Pad, ReverseTs, Sep};

fn enc<C: Codec<T>, T>(v: &T, mask: u8) -> Vec<u8> {
    let mut b = Vec::new();
    C::encode(v, &mut b, mask).expect("encodes");
    assert_eq!(b.len(), C::len(v, mask));
    b
}

fn check<C, T>(
    strategy: impl Strategy<Value = T> + Clone,
    cmp: impl Fn(&T, &T) -> Ordering,
    reversed: bool,
) where
    C: Codec<T> + for<'de> Decode<'de, T>,
    T: std::fmt::Debug + Clone,
{
    let config = Config {
        cases: 1500,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    runner
        .run(&(strategy.clone(), strategy), |(a, b)| {
            for mask in [0x00, 0xFF] {
                let (ea, eb) = (enc::<C, T>(&a, mask), enc::<C, T>(&b, mask));
                let mut want = cmp(&a, &b);
                if (mask != 0) != reversed {
                    want = want.reverse();
                }
                prop_assert_eq!(ea.cmp(&eb), want, "{:?} vs {:?} (mask {:#04X})", a, b, mask);
                let (back, used) = C::decode(&ea, mask).expect("decodes");
                prop_assert_eq!(used, ea.len());
                prop_assert_eq!(cmp(&back, &a), Ordering::Equal);
            }
            Ok(())
        })
        .unwrap();
}

macro_rules! ints {
    ($($name:ident: $t:ty),*) => {$(
        #[test]
        fn $name() {
            let s = prop_oneof![
                Just(<$t>::MIN), Just(<$t>::MAX), Just(0 as $t), Just(1 as $t), Just(<$t>::MAX - 1),
                any::<$t>()
            ];
            check::<Natural, $t>(s, |a, b| a.cmp(b), false);
        }
    )*};
}
ints!(order_u8: u8, order_u16: u16, order_u32: u32, order_u64: u64, order_u128: u128,
      order_i8: i8, order_i16: i16, order_i32: i32, order_i64: i64, order_i128: i128);

#[test]
fn order_bool_char() {
    check::<Natural, bool>(any::<bool>(), |a, b| a.cmp(b), false);
    let c = prop_oneof![
        Just('\0'),
        Just('\u{10FFFF}'),
        Just('\u{D7FF}'),
        Just('\u{E000}'),
        any::<char>()
    ];
    check::<Natural, char>(c, |a, b| a.cmp(b), false);
}

#[test]
fn order_floats_total() {
    let f = prop_oneof![
        Just(f64::NAN),
        Just(-f64::NAN),
        Just(0.0),
        Just(-0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::MIN_POSITIVE),
        Just(-f64::MIN_POSITIVE),
        any::<f64>()
    ];
    check::<Natural, f64>(f, |a, b| a.total_cmp(b), false);
    let g = prop_oneof![Just(f32::NAN), Just(-0.0f32), Just(0.0f32), any::<f32>()];
    check::<Natural, f32>(g, |a, b| a.total_cmp(b), false);
}

fn bytes() -> impl Strategy<Value = Vec<u8>> + Clone {
    prop_oneof![
        Just(vec![]),
        Just(b"host1".to_vec()),
        Just(b"host12".to_vec()),
        Just(b"host1\x00".to_vec()),
        Just(b"host1\x01".to_vec()),
        Just(vec![0xFF, 0xFF]),
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1u8), Just(0xFFu8), any::<u8>()],
            0..8
        ),
    ]
}

fn text() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just(String::new()),
        Just("host1".to_string()),
        Just("host12".to_string()),
        Just("host1\0".to_string()),
        Just("host1\u{1}".to_string()),
        "[a\u{0}\u{1}\u{7f}é]{0,6}",
    ]
}

#[test]
fn order_arrays_bytes_strings() {
    check::<Natural, [u8; 3]>(any::<[u8; 3]>(), |a, b| a.cmp(b), false);
    check::<Sep, Vec<u8>>(bytes(), |a, b| a.cmp(b), false);
    check::<Sep, String>(text(), |a, b| a.cmp(b), false);
    // desc on a raw last field switches to the escaped encoding: still ordered (reversed)
    let run = |a: Vec<u8>, b: Vec<u8>| {
        let (ea, eb) = (
            enc::<Natural, Vec<u8>>(&a, 0xFF),
            enc::<Natural, Vec<u8>>(&b, 0xFF),
        );
        assert_eq!(ea.cmp(&eb), a.cmp(&b).reverse(), "{a:?} {b:?}");
    };
    run(b"host1".to_vec(), b"host12".to_vec());
    run(vec![], vec![0]);
    run(vec![0xFF], vec![0xFF, 0]);
}

#[test]
fn order_padded_and_options() {
    // #[pad(N)] strings: content at most N bytes, not ending in the 0x00 fill
    let padded = "[a\u{1}\u{7f}]{0,5}";
    check::<Pad<5, 0>, String>(padded, |a, b| a.cmp(b), false);
    check::<Pad<6, 0>, u32>(0u32..1_000_000, |a, b| a.cmp(b), false);
    let opt = proptest::option::of(prop_oneof![Just(i32::MIN), Just(i32::MAX), any::<i32>()]);
    check::<Natural, Option<i32>>(opt, |a, b| a.cmp(b), false);
    check::<Sep, Option<String>>(proptest::option::of(text()), |a, b| a.cmp(b), false);
}

#[test]
fn order_reverse_ts() {
    let ts = prop_oneof![
        Just(0i64),
        Just(1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        0..i64::MAX
    ];
    check::<ReverseTs, i64>(ts, |a, b| a.cmp(b), true);
}
