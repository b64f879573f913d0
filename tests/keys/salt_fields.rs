//! Salt over chosen fields: `#[rowkey(salt(buckets = N, fields(a, b)))]` hashes the named
//! fields' encodings in key order (not necessarily adjacent) — OpenTSDB's row key byte for byte:
//! salt + metric UID (3 bytes) + base hour (u32) + tag pairs, salt =
//! `abs(Arrays.hashCode(metric ++ tags) % buckets)`, the timestamp left out so that a series
//! stays in one bucket.

use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 20, fields(metric, tags)), allow_hotspot)]
struct TsdbRow {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// Known values from OpenTSDB's `RowKey.prefixKeyWithSalt` (20 buckets, 1-byte salt).
#[test]
fn opentsdb_known_salts() {
    let row = |tags: &[u8], hour: u32| TsdbRow {
        metric: [0, 0, 1],
        base_hour: hour,
        tags: tags.to_vec(),
    };
    let a = row(&[0, 0, 1, 0, 0, 1], 0x5e0b_e100).to_row_key().unwrap();
    assert_eq!(a[0], 0x08);
    assert_eq!(&a[1..], [0, 0, 1, 0x5e, 0x0b, 0xe1, 0x00, 0, 0, 1, 0, 0, 1]);
    let b = row(&[0, 0, 1, 0, 0, 2], 0x5e0b_e100).to_row_key().unwrap();
    assert_eq!(b[0], 0x09);
    // the same series an hour later keeps its bucket
    let c = row(&[0, 0, 1, 0, 0, 1], 0x5e0b_e100 + 3600)
        .to_row_key()
        .unwrap();
    assert_eq!(c[0], 0x08);
    for k in [&a, &b, &c] {
        assert_eq!(TsdbRow::from_row_key(k).unwrap().to_row_key().unwrap(), *k);
    }
    assert_eq!(TsdbRow::LAYOUT.salt.unwrap().fields, &[0, 2]);
}

/// Decode recomputes the salt from the named fields only.
#[test]
fn decode_checks_the_salt() {
    let k = TsdbRow {
        metric: [0, 0, 1],
        base_hour: 7,
        tags: vec![0, 0, 1, 0, 0, 1],
    }
    .to_row_key()
    .unwrap();
    let mut bad = k.to_vec();
    bad[0] ^= 1;
    let e = TsdbRow::from_row_key(&bad).unwrap_err();
    assert!(e.to_string().contains("salt"), "{e}");
    // changing the base hour (not salted) keeps the key valid
    let mut other_hour = k.to_vec();
    other_hour[4] ^= 0x10;
    assert!(TsdbRow::from_row_key(&other_hour).is_ok());
    // changing a tag byte (salted) breaks it
    let mut other_tag = k.to_vec();
    *other_tag.last_mut().unwrap() ^= 0x10;
    assert!(TsdbRow::from_row_key(&other_tag).is_err());
}

/// Scans: one range when every salted field is fixed, else one per bucket; exact either way.
#[test]
fn scans_fan_out_until_the_salt_is_known() {
    let rows: Vec<TsdbRow> = (0..3u8)
        .flat_map(|m| {
            (0..4u32).flat_map(move |h| {
                (0..3u8).map(move |t| TsdbRow {
                    metric: [0, 0, m],
                    base_hour: h,
                    tags: vec![0, 0, 1, 0, 0, t],
                })
            })
        })
        .collect();
    let keys: Vec<Vec<u8>> = rows
        .iter()
        .map(|r| r.to_row_key().unwrap().to_vec())
        .collect();
    let check = |ranges: rowkey::ScanRanges, pred: &dyn Fn(&TsdbRow) -> bool| {
        crate::common::ranges::assert_well_formed(&"TsdbRow", &ranges);
        for (r, k) in rows.iter().zip(&keys) {
            assert_eq!(ranges.contains(k), pred(r), "{r:?} in {ranges:?}");
        }
    };
    let r = TsdbRow::scan().metric([0, 0, 1]).ranges();
    assert_eq!(r.len(), 20, "tags not fixed: every bucket");
    check(r, &|x| x.metric == [0, 0, 1]);
    let r = TsdbRow::scan()
        .metric([0, 0, 1])
        .base_hour_range(1..3)
        .ranges();
    assert_eq!(r.len(), 20);
    check(r, &|x| {
        x.metric == [0, 0, 1] && (1..3).contains(&x.base_hour)
    });
    let r = TsdbRow::scan()
        .metric([0, 0, 1])
        .base_hour(2)
        .tags(vec![0, 0, 1, 0, 0, 2])
        .ranges();
    assert_eq!(r.len(), 1, "every salted field fixed: one range");
    check(r, &|x| {
        x.metric == [0, 0, 1] && x.base_hour == 2 && x.tags == [0, 0, 1, 0, 0, 2]
    });
}

/// 256 buckets (a one-byte salt that reaches 0xFF) over the second field, so that fixing the
/// first leaves the salt free: the fan-out's ranges are `salt ++ a`, and for `a = 0xFF` each
/// stop carries into the salt byte — the last bucket's range (`0xFF 0xFF`) has no stop at all.
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
#[rowkey(salt(buckets = 256, fields(b)), allow_hotspot)]
struct Pair {
    a: u8,
    b: u8,
}

#[test]
fn fan_out_successors_carry_into_the_salt() {
    for a in [0x00, 0x01, 0x7F, 0xFE, 0xFF] {
        let ranges = Pair::scan().a(a).ranges();
        assert_eq!(ranges.len(), 256, "a = {a:#04x}");
        let last = ranges.iter().last().unwrap();
        assert_eq!(last.start(), [0xFF, a]);
        let stop = a.checked_add(1).map(|next| vec![0xFF, next]);
        assert_eq!(last.stop(), stop.as_deref());
        // every key of the layout (each in its own bucket), against the oracle `k.a == a`
        for x in 0..=255u8 {
            for b in 0..=255u8 {
                let k = Pair { a: x, b };
                let bytes = k.to_row_key().unwrap();
                assert_eq!(ranges.contains(&bytes), x == a, "a = {a:#04x}, {k:?}");
            }
        }
    }
}
