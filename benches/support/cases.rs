//! The measured cases: every routine once, as a timed loop both harnesses run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rowkey::RowKey;

use super::hand::*;
use super::inputs::*;
use super::keys::*;
use super::peers::*;
use super::reads;

/// One measured routine: `run(iters)` calls it `iters` times and returns the elapsed time.
pub struct Case {
    /// Criterion group: the operation.
    pub group: &'static str,
    /// `Key/implementation`.
    pub id: String,
    /// Elements (keys) processed per call, for throughput.
    pub elements: u64,
    /// Timed loop.
    pub run: Box<dyn FnMut(u64) -> Duration>,
}

impl Case {
    /// `group/id`, criterion's full id.
    pub fn full_id(&self) -> String {
        format!("{}/{}", self.group, self.id)
    }
}

pub fn case<R>(
    out: &mut Vec<Case>,
    group: &'static str,
    id: &str,
    mut f: impl FnMut() -> R + 'static,
) {
    out.push(Case {
        group,
        id: id.to_owned(),
        elements: 1,
        run: Box::new(move |iters| {
            let t = Instant::now();
            for _ in 0..iters {
                black_box(f());
            }
            t.elapsed()
        }),
    });
}

/// Encode into a reused buffer: `clear()` then encode. The buffer holds the longest key (277
/// bytes) from the start: when it first grew by `realloc` inside the timed loop, where it
/// landed made rowkey's 256-byte case 1.65× slower in every full run on a Zen 3 machine (and
/// not in filtered runs), a placement effect BENCHMARKS-HISTORY.md describes.
pub fn enc(out: &mut Vec<Case>, id: &str, mut f: impl FnMut(&mut Vec<u8>) + 'static) {
    let mut buf = Vec::with_capacity(512);
    case(out, "encode_into", id, move || {
        buf.clear();
        f(black_box(&mut buf));
        black_box(&buf);
    });
}

/// The naive baseline of every `OrderKey` case, and rowkey and the escaping hand-written code
/// for the 64- and 256-byte regions (the 9-byte `OrderKey` has those among the peers below).
fn order_cases(out: &mut Vec<Case>) {
    for (name, len) in ORDER_KEYS {
        let key = order_key_len(len);
        let bytes = key.to_row_key().unwrap().to_vec();
        let id = |imp: &str| format!("{name}/{imp}");
        if name != "OrderKey" {
            let k = key.clone();
            enc(out, &id("rowkey"), move |b| {
                black_box(&k).encode_into(b).unwrap()
            });
            let k = key.clone();
            enc(out, &id("hand"), move |b| {
                hand_encode_order(black_box(&k), b).unwrap()
            });
            let k = key.clone();
            case(out, "to_row_key", &id("rowkey"), move || {
                black_box(&k).to_row_key().unwrap()
            });
            let k = key.clone();
            case(out, "to_row_key", &id("hand"), move || {
                let k = black_box(&k);
                hand_bytes(hand_len_order(k), |v| hand_encode_order(k, v).unwrap())
            });
            let b = bytes.clone();
            case(out, "from_row_key", &id("rowkey"), move || {
                OrderKey::from_row_key(black_box(&b)).unwrap()
            });
            let b = bytes.clone();
            case(out, "from_row_key", &id("hand"), move || {
                hand_decode_order(black_box(&b)).unwrap()
            });
        }
        let k = key.clone();
        enc(out, &id("naive"), move |b| {
            naive_encode_order(black_box(&k), b).unwrap()
        });
        let k = key.clone();
        case(out, "to_row_key", &id("naive"), move || {
            let k = black_box(&k);
            hand_bytes(naive_len_order(k), |v| naive_encode_order(k, v).unwrap())
        });
        let b = bytes;
        case(out, "from_row_key", &id("naive"), move || {
            naive_decode_order(black_box(&b)).unwrap()
        });
    }
}

/// Every measured routine, grouped by operation.
pub fn cases() -> Vec<Case> {
    let mut c = Vec::new();
    let out = &mut c;

    let ok = order_key();
    let sk = Simple {
        user_id: USER,
        ts: TS,
    };
    let ssk = SimpleSalted {
        user_id: USER,
        ts: TS,
    };
    let shk = SimpleHashed {
        user_id: USER,
        ts: TS,
    };
    let pok = peer_order_key();
    let psk = peer_simple();

    order_cases(out);

    // ---- encode_into a reused buffer
    let k = ok.clone();
    enc(out, "OrderKey/rowkey", move |b| {
        black_box(&k).encode_into(b).unwrap()
    });
    let k = ok.clone();
    enc(out, "OrderKey/hand", move |b| {
        hand_encode_order(black_box(&k), b).unwrap()
    });
    let p = pok.clone();
    enc(out, "OrderKey/storekey", move |b| {
        storekey_into(black_box(&p), b)
    });
    let p = pok.clone();
    enc(out, "OrderKey/memcomparable", move |b| {
        memcomparable_into(black_box(&p), b)
    });
    let p = pok.clone();
    enc(out, "OrderKey/ordcode", move |b| {
        ordcode_into(black_box(&p), b)
    });

    let k = sk.clone();
    enc(out, "Simple/rowkey", move |b| {
        black_box(&k).encode_into(b).unwrap()
    });
    let k = sk.clone();
    enc(out, "Simple/hand", move |b| {
        hand_encode_simple(black_box(&k), b)
    });
    let p = psk.clone();
    enc(out, "Simple/storekey", move |b| {
        storekey_into(black_box(&p), b)
    });
    let p = psk.clone();
    enc(out, "Simple/memcomparable", move |b| {
        memcomparable_into(black_box(&p), b)
    });
    let p = psk.clone();
    enc(out, "Simple/ordcode", move |b| {
        ordcode_into(black_box(&p), b)
    });

    let k = ssk.clone();
    enc(out, "SimpleSalted/rowkey", move |b| {
        black_box(&k).encode_into(b).unwrap()
    });
    let k = ssk.clone();
    enc(out, "SimpleSalted/hand", move |b| {
        hand_encode_salted(black_box(&k), b)
    });
    let k = shk.clone();
    enc(out, "SimpleHashed/rowkey", move |b| {
        black_box(&k).encode_into(b).unwrap()
    });
    let k = shk.clone();
    enc(out, "SimpleHashed/hand", move |b| {
        hand_encode_hashed(black_box(&k), b)
    });

    // ---- the key modes: a Phoenix key and a Bigtable struct key, against hand-written code
    let pk = phoenix_event();
    let k = pk.clone();
    enc(out, "PhoenixEvent/rowkey", move |b| {
        black_box(&k).encode_into(b).unwrap()
    });
    let k = pk.clone();
    enc(out, "PhoenixEvent/hand", move |b| {
        hand_encode_phoenix(black_box(&k), b).unwrap()
    });
    let stk = struct_event();
    let k = stk.clone();
    enc(out, "StructEvent/rowkey", move |b| {
        black_box(&k).encode_into(b).unwrap()
    });
    let k = stk.clone();
    enc(out, "StructEvent/hand", move |b| {
        hand_encode_struct(black_box(&k), b)
    });

    let k = pk.clone();
    case(out, "to_row_key", "PhoenixEvent/rowkey", move || {
        black_box(&k).to_row_key().unwrap()
    });
    let k = pk.clone();
    case(out, "to_row_key", "PhoenixEvent/hand", move || {
        let k = black_box(&k);
        hand_bytes(hand_len_phoenix(k), |v| hand_encode_phoenix(k, v).unwrap())
    });
    let k = stk.clone();
    case(out, "to_row_key", "StructEvent/rowkey", move || {
        black_box(&k).to_row_key().unwrap()
    });
    let k = stk.clone();
    case(out, "to_row_key", "StructEvent/hand", move || {
        let k = black_box(&k);
        hand_bytes(hand_len_struct(k), |v| hand_encode_struct(k, v))
    });
    let b = pk.to_row_key().unwrap().to_vec();
    let b2 = b.clone();
    case(out, "from_row_key", "PhoenixEvent/rowkey", move || {
        PhoenixEvent::from_row_key(black_box(&b)).unwrap()
    });
    case(out, "from_row_key", "PhoenixEvent/hand", move || {
        hand_decode_phoenix(black_box(&b2)).unwrap()
    });
    let b = stk.to_row_key().unwrap().to_vec();
    let b2 = b.clone();
    case(out, "from_row_key", "StructEvent/rowkey", move || {
        StructEvent::from_row_key(black_box(&b)).unwrap()
    });
    case(out, "from_row_key", "StructEvent/hand", move || {
        hand_decode_struct(black_box(&b2)).unwrap()
    });

    // ---- the hashes the salt and the hash prefix compute
    case(out, "hash", "phoenix_8B", || {
        phoenix(&black_box(USER).to_be_bytes())
    });
    case(out, "hash", "md5_8B", || {
        rowkey::hash_prefix::md5(&black_box(USER).to_be_bytes())
    });

    // ---- to_row_key: a fresh, exact allocation
    let k = ok.clone();
    case(out, "to_row_key", "OrderKey/rowkey", move || {
        black_box(&k).to_row_key().unwrap()
    });
    let k = ok.clone();
    case(out, "to_row_key", "OrderKey/hand", move || {
        let k = black_box(&k);
        hand_bytes(hand_len_order(k), |v| hand_encode_order(k, v).unwrap())
    });
    let k = ok.clone();
    case(out, "to_row_key", "OrderKey/hand_vec", move || {
        let k = black_box(&k);
        let mut v = Vec::with_capacity(hand_len_order(k));
        hand_encode_order(k, &mut v).unwrap();
        v
    });
    let p = pok.clone();
    case(out, "to_row_key", "OrderKey/storekey", move || {
        storekey::encode_vec(black_box(&p)).unwrap()
    });
    let p = pok.clone();
    case(out, "to_row_key", "OrderKey/memcomparable", move || {
        memcomparable::to_vec(black_box(&p)).unwrap()
    });
    let p = pok.clone();
    case(out, "to_row_key", "OrderKey/ordcode", move || {
        ordcode::ser_to_vec_ordered(black_box(&p), ordcode::Order::Ascending).unwrap()
    });

    let k = sk.clone();
    case(out, "to_row_key", "Simple/rowkey", move || {
        black_box(&k).to_row_key().unwrap()
    });
    let k = sk.clone();
    case(out, "to_row_key", "Simple/hand", move || {
        hand_bytes(16, |v| hand_encode_simple(black_box(&k), v))
    });
    let k = sk.clone();
    case(out, "to_row_key", "Simple/hand_vec", move || {
        let mut v = Vec::with_capacity(16);
        hand_encode_simple(black_box(&k), &mut v);
        v
    });
    let p = psk.clone();
    case(out, "to_row_key", "Simple/storekey", move || {
        storekey::encode_vec(black_box(&p)).unwrap()
    });
    let p = psk.clone();
    case(out, "to_row_key", "Simple/memcomparable", move || {
        memcomparable::to_vec(black_box(&p)).unwrap()
    });
    let p = psk.clone();
    case(out, "to_row_key", "Simple/ordcode", move || {
        ordcode::ser_to_vec_ordered(black_box(&p), ordcode::Order::Ascending).unwrap()
    });

    let k = ssk.clone();
    case(out, "to_row_key", "SimpleSalted/rowkey", move || {
        black_box(&k).to_row_key().unwrap()
    });
    let k = ssk.clone();
    case(out, "to_row_key", "SimpleSalted/hand", move || {
        hand_bytes(17, |v| hand_encode_salted(black_box(&k), v))
    });
    let k = shk.clone();
    case(out, "to_row_key", "SimpleHashed/rowkey", move || {
        black_box(&k).to_row_key().unwrap()
    });
    let k = shk.clone();
    case(out, "to_row_key", "SimpleHashed/hand", move || {
        hand_bytes(20, |v| hand_encode_hashed(black_box(&k), v))
    });

    // ---- from_row_key
    let b = ok.to_row_key().unwrap().to_vec();
    let b2 = b.clone();
    case(out, "from_row_key", "OrderKey/rowkey", move || {
        OrderKey::from_row_key(black_box(&b2)).unwrap()
    });
    let b2 = b.clone();
    case(out, "from_row_key", "OrderKey/hand", move || {
        hand_decode_order(black_box(&b2)).unwrap()
    });
    let mut pb = Vec::new();
    storekey_into(&pok, &mut pb);
    case(out, "from_row_key", "OrderKey/storekey", move || {
        storekey::decode_borrow::<PeerOrderKey>(black_box(&pb)).unwrap()
    });
    let mut pb = Vec::new();
    memcomparable_into(&pok, &mut pb);
    case(out, "from_row_key", "OrderKey/memcomparable", move || {
        memcomparable::from_slice::<PeerOrderKey>(black_box(&pb)).unwrap()
    });
    let mut pb = Vec::new();
    ordcode_into(&pok, &mut pb);
    case(out, "from_row_key", "OrderKey/ordcode", move || {
        ordcode::de_from_bytes_asc::<_, PeerOrderKey>(black_box(&pb)).unwrap()
    });

    let b = sk.to_row_key().unwrap().to_vec();
    let b2 = b.clone();
    case(out, "from_row_key", "Simple/rowkey", move || {
        Simple::from_row_key(black_box(&b2)).unwrap()
    });
    case(out, "from_row_key", "Simple/hand", move || {
        hand_decode_simple(black_box(&b)).unwrap()
    });
    let mut pb = Vec::new();
    storekey_into(&psk, &mut pb);
    case(out, "from_row_key", "Simple/storekey", move || {
        storekey::decode_borrow::<PeerSimple>(black_box(&pb)).unwrap()
    });
    let mut pb = Vec::new();
    memcomparable_into(&psk, &mut pb);
    case(out, "from_row_key", "Simple/memcomparable", move || {
        memcomparable::from_slice::<PeerSimple>(black_box(&pb)).unwrap()
    });
    let mut pb = Vec::new();
    ordcode_into(&psk, &mut pb);
    case(out, "from_row_key", "Simple/ordcode", move || {
        ordcode::de_from_bytes_asc::<_, PeerSimple>(black_box(&pb)).unwrap()
    });

    let b = ssk.to_row_key().unwrap().to_vec();
    let b2 = b.clone();
    case(out, "from_row_key", "SimpleSalted/rowkey", move || {
        SimpleSalted::from_row_key(black_box(&b2)).unwrap()
    });
    case(out, "from_row_key", "SimpleSalted/hand", move || {
        hand_decode_salted(black_box(&b)).unwrap()
    });
    let b = shk.to_row_key().unwrap().to_vec();
    let b2 = b.clone();
    case(out, "from_row_key", "SimpleHashed/rowkey", move || {
        SimpleHashed::from_row_key(black_box(&b2)).unwrap()
    });
    case(out, "from_row_key", "SimpleHashed/hand", move || {
        hand_decode_hashed(black_box(&b)).unwrap()
    });

    // ---- scan ranges
    case(out, "scan_ranges", "OrderKey.seller_id/rowkey", || {
        OrderKey::scan().seller_id(black_box(SELLER)).ranges()
    });
    case(out, "scan_ranges", "OrderKey.seller_id/hand", || {
        hand_scan_order(black_box(SELLER), None)
    });
    case(
        out,
        "scan_ranges",
        "OrderKey.seller_id.region/rowkey",
        || {
            OrderKey::scan()
                .seller_id(black_box(SELLER))
                .region(black_box(REGION))
                .ranges()
        },
    );
    case(out, "scan_ranges", "OrderKey.seller_id.region/hand", || {
        hand_scan_order(black_box(SELLER), Some(black_box(REGION)))
    });
    case(out, "scan_ranges", "Simple.user_id/rowkey", || {
        Simple::scan().user_id(black_box(USER)).ranges()
    });
    case(out, "scan_ranges", "Simple.user_id/hand", || {
        hand_prefix_range(&black_box(USER).to_be_bytes())
    });
    case(out, "scan_ranges", "SimpleSalted.user_id/rowkey", || {
        SimpleSalted::scan().user_id(black_box(USER)).ranges()
    });
    case(out, "scan_ranges", "SimpleSalted.user_id/hand", || {
        hand_scan_salted(black_box(USER))
    });
    case(out, "scan_ranges", "SimpleHashed.user_id/rowkey", || {
        SimpleHashed::scan().user_id(black_box(USER)).ranges()
    });
    case(out, "scan_ranges", "SimpleHashed.user_id/hand", || {
        hand_scan_hashed(black_box(USER))
    });
    case(
        out,
        "scan_ranges",
        "OrderKey.seller_id.region_starts_with/rowkey",
        || {
            OrderKey::scan()
                .seller_id(black_box(SELLER))
                .region_starts_with(black_box("eu-"))
                .ranges()
        },
    );
    case(
        out,
        "scan_ranges",
        "OrderKey.seller_id.region_starts_with/hand",
        || hand_scan_order_starts_with(black_box(SELLER), black_box("eu-")),
    );
    case(out, "scan_ranges", "Simple.user_id.ts_range/rowkey", || {
        let ts = black_box(TS);
        Simple::scan()
            .user_id(black_box(USER))
            .ts_range(ts..ts + 3_600_000)
            .ranges()
    });
    case(out, "scan_ranges", "Simple.user_id.ts_range/hand", || {
        let ts = black_box(TS);
        hand_scan_time(black_box(USER), ts, ts + 3_600_000)
    });
    case(
        out,
        "scan_ranges",
        "SimpleSalted.user_id.ts_range/rowkey",
        || {
            let ts = black_box(TS);
            SimpleSalted::scan()
                .user_id(black_box(USER))
                .ts_range(ts..ts + 3_600_000)
                .ranges()
        },
    );
    case(
        out,
        "scan_ranges",
        "SimpleSalted.user_id.ts_range/hand",
        || {
            let ts = black_box(TS);
            hand_scan_salted_time(black_box(USER), ts, ts + 3_600_000)
        },
    );
    case(out, "scan_ranges", "SimpleSalted.fanout16/rowkey", || {
        black_box(SimpleSalted::scan()).ranges()
    });
    case(out, "scan_ranges", "SimpleSalted.fanout16/hand", || {
        black_box(hand_fanout16())
    });

    // ---- merge of 16 sorted streams
    let streams = std::rc::Rc::new(merge_streams());
    let s = streams.clone();
    case(out, "merge16", "16x1000/rowkey_merge", move || {
        merge_rowkey(black_box(&s)).len()
    });
    let s = streams.clone();
    case(out, "merge16", "16x1000/collect_sort", move || {
        collect_sort(black_box(&s), true).len()
    });
    let s = streams;
    case(out, "merge16", "16x1000/collect_sort_unstable", move || {
        collect_sort(black_box(&s), false).len()
    });
    let runs = std::rc::Rc::new(merge_streams_runs());
    let s = runs.clone();
    case(out, "merge16", "16x1000_runs20/rowkey_merge", move || {
        merge_rowkey(black_box(&s)).len()
    });
    let s = runs;
    case(out, "merge16", "16x1000_runs20/collect_sort", move || {
        collect_sort(black_box(&s), true).len()
    });
    // ---- reads end to end over redb (16-bucket fan-out of the whole table)
    let db = std::rc::Rc::new(reads::read_db());
    for (id, f) in [
        ("redb16/raw", reads::raw as fn(&_, &_) -> usize),
        ("redb16/typed_unmerged", reads::typed_unmerged),
        ("redb16/raw_interleaved", reads::raw_interleaved),
        ("redb16/raw_interleaved_held", reads::raw_interleaved_held),
        ("redb16/typed_merged", |db: &_, r: &_| {
            reads::typed_merged(db, r, None)
        }),
        ("redb16/typed_merged_buffered", reads::typed_merged_buffered),
        ("redb16/hand_merged", reads::hand_merged),
    ] {
        let db = db.clone();
        let ranges = reads::read_ranges();
        case(out, "read", id, move || f(&db, black_box(&ranges)));
    }
    let db = std::rc::Rc::new(reads::read_db_runs());
    for (id, f) in [
        ("redb16_runs20/raw", reads::raw as fn(&_, &_) -> usize),
        ("redb16_runs20/typed_merged", |db: &_, r: &_| {
            reads::typed_merged(db, r, None)
        }),
        ("redb16_runs20/hand_merged", reads::hand_merged),
    ] {
        let db = db.clone();
        let ranges = reads::read_ranges();
        case(out, "read", id, move || f(&db, black_box(&ranges)));
    }
    for c in out.iter_mut().filter(|c| c.group == "read") {
        c.elements = reads::READ_ROWS as u64;
    }
    for c in out.iter_mut().filter(|c| c.group == "merge16") {
        c.elements = MERGE_KEYS as u64;
    }

    // ---- hotspot analysis, 40 HexStringSplit regions
    let splits = std::rc::Rc::new(rowkey::plan::hex_string_split(40));
    let (hashed, hw) = hotspot_keys(true);
    let (seq, sw) = hotspot_keys(false);
    let hashed_rc = std::rc::Rc::new(hashed);
    let (sp, h) = (splits.clone(), hashed_rc.clone());
    case(out, "hotspot", "hashed_1M/rowkey", move || {
        analyze(&sp, black_box(&h), hw)
    });
    let sp = splits.clone();
    case(out, "hotspot", "sequential_1M/rowkey", move || {
        analyze(&sp, black_box(&seq), sw)
    });
    let sp = splits;
    let h = hashed_rc;
    case(
        out,
        "hotspot",
        "hashed_1M/naive_partition_point",
        move || analyze_naive(&sp, black_box(&h), hw),
    );
    for c in out.iter_mut().filter(|c| c.group == "hotspot") {
        c.elements = HOTSPOT_KEYS as u64;
    }

    c
}
