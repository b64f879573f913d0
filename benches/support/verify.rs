//! Correctness of the comparison: asserted once before measuring.

use rowkey::{RowKey, ScanRange};

use super::hand::*;
use super::inputs::*;
use super::keys::*;
use super::peers::*;
use super::reads::verify_reads;

/// Asserts that the hand-written code produces exactly rowkey's bytes and decodes them back,
/// that the scan ranges are identical, that the peers round-trip and that merge == sort.
pub fn verify() {
    let mut v = Vec::new();

    for (name, len) in ORDER_KEYS {
        let k = order_key_len(len);
        assert_eq!(k.region.len(), len);
        let rk = k.to_row_key().unwrap();
        v.clear();
        hand_encode_order(&k, &mut v).unwrap();
        assert_eq!(
            &rk[..],
            &v[..],
            "{name}: hand-written bytes == rowkey bytes"
        );
        assert_eq!(hand_len_order(&k), rk.len());
        v.clear();
        naive_encode_order(&k, &mut v).unwrap();
        assert_eq!(&rk[..], &v[..], "{name}: naive bytes == rowkey bytes");
        assert_eq!(naive_len_order(&k), rk.len());
        assert_eq!(OrderKey::from_row_key(&rk).unwrap(), k);
        assert_eq!(hand_decode_order(&rk).unwrap(), k);
        assert_eq!(naive_decode_order(&rk).unwrap(), k);
    }
    // the key modes: the hand-written Phoenix and struct-key code writes rowkey's bytes
    for (tenant, device, ts) in [
        (TENANT, DEVICE, TS),
        ("", "d", -1),
        ("t", "", i64::MIN),
        ("a\u{1}\u{ff}", "\u{7f}b", i64::MAX),
        ("x", "y", 0),
        ("x", "y", 64),
    ] {
        let p = PhoenixEvent {
            tenant: tenant.into(),
            device: device.into(),
            ts,
        };
        if tenant.is_empty() || device.is_empty() {
            // NULL in Phoenix: refused by both
            assert!(p.to_row_key().is_err() && hand_encode_phoenix(&p, &mut v).is_err());
        } else {
            let rk = p.to_row_key().unwrap();
            v.clear();
            hand_encode_phoenix(&p, &mut v).unwrap();
            assert_eq!(
                &rk[..],
                &v[..],
                "PhoenixEvent: hand-written bytes == rowkey bytes"
            );
            assert_eq!(hand_len_phoenix(&p), rk.len());
            assert_eq!(hand_decode_phoenix(&rk).unwrap(), p);
            assert_eq!(PhoenixEvent::from_row_key(&rk).unwrap(), p);
        }
        let s = StructEvent {
            tenant: tenant.into(),
            device: device.into(),
            ts,
        };
        let rk = s.to_row_key().unwrap();
        v.clear();
        hand_encode_struct(&s, &mut v);
        assert_eq!(
            &rk[..],
            &v[..],
            "StructEvent {s:?}: hand-written bytes == rowkey bytes"
        );
        assert_eq!(hand_len_struct(&s), rk.len());
        assert_eq!(hand_decode_struct(&rk).unwrap(), s);
        assert_eq!(StructEvent::from_row_key(&rk).unwrap(), s);
    }
    let bad = PhoenixEvent {
        tenant: "a\0b".into(),
        ..phoenix_event()
    };
    assert!(bad.to_row_key().is_err() && hand_encode_phoenix(&bad, &mut v).is_err());
    // struct keys escape 0x00 instead
    let esc = StructEvent {
        tenant: "a\0b".into(),
        device: "\0\0".into(),
        ts: -300,
    };
    let rk = esc.to_row_key().unwrap();
    v.clear();
    hand_encode_struct(&esc, &mut v);
    assert_eq!(
        &rk[..],
        &v[..],
        "StructEvent escaped: hand-written bytes == rowkey bytes"
    );
    assert_eq!(hand_len_struct(&esc), rk.len());
    assert_eq!(hand_decode_struct(&rk).unwrap(), esc);

    // escaping: the slow paths agree too
    let esc = OrderKey {
        region: "a\0b\x01c".into(),
        ..order_key()
    };
    v.clear();
    hand_encode_order(&esc, &mut v).unwrap();
    assert_eq!(&esc.to_row_key().unwrap()[..], &v[..]);
    assert_eq!(hand_len_order(&esc), v.len());
    assert_eq!(hand_decode_order(&v).unwrap(), esc);
    let mut naive = Vec::new();
    naive_encode_order(&esc, &mut naive).unwrap();
    assert_ne!(naive, v, "naive code does not escape");
    assert!(hand_encode_order(
        &OrderKey {
            ts: -1,
            ..order_key()
        },
        &mut v
    )
    .is_err());

    let k = Simple {
        user_id: USER,
        ts: TS,
    };
    let rk = k.to_row_key().unwrap();
    v.clear();
    hand_encode_simple(&k, &mut v);
    assert_eq!(
        &rk[..],
        &v[..],
        "Simple: hand-written bytes == rowkey bytes"
    );
    assert_eq!(Simple::from_row_key(&rk).unwrap(), k);
    assert_eq!(hand_decode_simple(&rk).unwrap(), k);
    let neg = Simple { user_id: 1, ts: -5 };
    v.clear();
    hand_encode_simple(&neg, &mut v);
    assert_eq!(&neg.to_row_key().unwrap()[..], &v[..]);

    for user_id in [USER, 0, 1, 7, u64::MAX, 0x80FF_0001] {
        let k = SimpleSalted { user_id, ts: TS };
        let rk = k.to_row_key().unwrap();
        v.clear();
        hand_encode_salted(&k, &mut v);
        assert_eq!(
            &rk[..],
            &v[..],
            "SimpleSalted: hand-written bytes == rowkey bytes"
        );
        assert_eq!(SimpleSalted::from_row_key(&rk).unwrap(), k);
        assert_eq!(hand_decode_salted(&rk).unwrap(), k);
        let mut bad = rk.to_vec();
        bad[0] = (bad[0] + 1) % 16;
        assert!(hand_decode_salted(&bad).is_err());
        assert!(SimpleSalted::from_row_key(&bad).is_err());

        let k = SimpleHashed { user_id, ts: TS };
        let rk = k.to_row_key().unwrap();
        v.clear();
        hand_encode_hashed(&k, &mut v);
        assert_eq!(
            &rk[..],
            &v[..],
            "SimpleHashed: hand-written bytes == rowkey bytes"
        );
        assert_eq!(SimpleHashed::from_row_key(&rk).unwrap(), k);
        assert_eq!(hand_decode_hashed(&rk).unwrap(), k);
        let mut bad = rk.to_vec();
        bad[0] ^= 1;
        assert!(hand_decode_hashed(&bad).is_err());
        assert!(SimpleHashed::from_row_key(&bad).is_err());
    }

    // scans
    let one = |r: rowkey::ScanRanges, h: ScanRange, what: &str| {
        assert_eq!(r.as_slice(), std::slice::from_ref(&h), "{what}");
    };
    one(
        OrderKey::scan().seller_id(SELLER).ranges(),
        hand_scan_order(SELLER, None),
        "OrderKey.seller_id scan",
    );
    one(
        OrderKey::scan().seller_id(SELLER).region(REGION).ranges(),
        hand_scan_order(SELLER, Some(REGION)),
        "OrderKey.seller_id.region scan",
    );
    one(
        Simple::scan().user_id(USER).ranges(),
        hand_prefix_range(&USER.to_be_bytes()),
        "Simple.user_id scan",
    );
    one(
        SimpleSalted::scan().user_id(USER).ranges(),
        hand_scan_salted(USER),
        "SimpleSalted.user_id scan",
    );
    one(
        SimpleHashed::scan().user_id(USER).ranges(),
        hand_scan_hashed(USER),
        "SimpleHashed.user_id scan",
    );
    one(
        OrderKey::scan()
            .seller_id(SELLER)
            .region_starts_with("eu-")
            .ranges(),
        hand_scan_order_starts_with(SELLER, "eu-"),
        "OrderKey.seller_id.region_starts_with scan",
    );
    one(
        Simple::scan()
            .user_id(USER)
            .ts_range(TS..TS + 3_600_000)
            .ranges(),
        hand_scan_time(USER, TS, TS + 3_600_000),
        "Simple.user_id.ts_range scan",
    );
    one(
        SimpleSalted::scan()
            .user_id(USER)
            .ts_range(TS..TS + 3_600_000)
            .ranges(),
        hand_scan_salted_time(USER, TS, TS + 3_600_000),
        "SimpleSalted.user_id.ts_range scan",
    );
    assert_eq!(
        SimpleSalted::scan().ranges().as_slice(),
        &hand_fanout16()[..],
        "16-bucket fan-out"
    );

    // peers round-trip
    let p = peer_order_key();
    storekey_into(&p, &mut v);
    assert_eq!(storekey::decode_borrow::<PeerOrderKey>(&v).unwrap(), p);
    memcomparable_into(&p, &mut v);
    assert_eq!(memcomparable::from_slice::<PeerOrderKey>(&v).unwrap(), p);
    ordcode_into(&p, &mut v);
    assert_eq!(
        ordcode::de_from_bytes_asc::<_, PeerOrderKey>(&v).unwrap(),
        p
    );
    let p = peer_simple();
    storekey_into(&p, &mut v);
    assert_eq!(storekey::decode_borrow::<PeerSimple>(&v).unwrap(), p);
    memcomparable_into(&p, &mut v);
    assert_eq!(memcomparable::from_slice::<PeerSimple>(&v).unwrap(), p);
    ordcode_into(&p, &mut v);
    assert_eq!(ordcode::de_from_bytes_asc::<_, PeerSimple>(&v).unwrap(), p);

    // reads over redb: every row, the merged one in order
    verify_reads();

    // merge == sort
    let streams = merge_streams();
    let m = merge_rowkey(&streams);
    assert_eq!(m.len(), MERGE_KEYS);
    assert_eq!(m, collect_sort(&streams, true));
    assert_eq!(m, collect_sort(&streams, false));
    let runs = merge_streams_runs();
    let m = merge_rowkey(&runs);
    assert_eq!(m.len(), MERGE_KEYS);
    assert_eq!(m, collect_sort(&runs, true));

    // hotspot: the analyzer agrees with the naive count
    let splits = rowkey::plan::hex_string_split(40);
    let (flat, w) = hotspot_keys(true);
    let flat = &flat[..w * 10_000];
    let a = analyze(&splits, flat, w).report();
    let counts: Vec<u64> = a.regions().iter().map(|r| r.keys).collect();
    assert_eq!(counts, analyze_naive(&splits, flat, w));
}
