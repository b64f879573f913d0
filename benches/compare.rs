//! Issue 5, measured side by side: `#[derive(RowKey)]` against hand-written `bytes::BufMut` code
//! producing the same bytes, and against storekey 0.11, memcomparable 0.2 and ordcode 0.2 on the
//! equivalent struct; the k-way merge against collect-and-sort; hotspot analysis throughput.
//!
//! ```sh
//! CARGO_TARGET_DIR=/work/target-bench cargo bench --bench compare          # full (criterion)
//! CARGO_TARGET_DIR=/work/target-bench cargo run --release --example perf_report   # quick
//! ```
//!
//! Every measured routine is defined once, in [`shared::cases`], as a timed loop
//! (`fn(iters) -> Duration`): criterion runs it through `iter_custom`, the quick `perf_report`
//! example (which includes this file) runs it interleaved. Both print the same ratio table
//! ([`shared::table`]); after a criterion run it is built from criterion's own estimates.

use std::time::Duration;

use criterion::{Criterion, Throughput};

/// Keys, hand-written codecs, peers, the measured cases and the ratio table. Shared with
/// `examples/perf_report.rs`.
pub mod shared {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    use std::hint::black_box;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    use bytes::{BufMut, Bytes};
    use rowkey::hotspot::Analyzer;
    use rowkey::merge::merge;
    use rowkey::{RowKey, ScanRange};
    use serde::{Deserialize, Serialize};

    // -----------------------------------------------------------------------------------------
    // The keys of issue 5

    /// `seller_id + region (escaped, 0x00-terminated) + Long.MAX_VALUE - ts + order_no`.
    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct OrderKey {
        seller_id: u64,
        #[sep]
        region: String,
        #[reverse_ts]
        ts: i64,
        order_no: u32,
    }

    /// `user_id + ts` (sign-flipped).
    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct Simple {
        user_id: u64,
        ts: i64,
    }

    /// `Phoenix salt(user_id) + user_id + ts`, 16 buckets.
    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct SimpleSalted {
        #[salt(buckets = 16)]
        user_id: u64,
        ts: i64,
    }

    /// `md5(user_id)[..4] (hex) + user_id + ts`.
    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct SimpleHashed {
        #[hash_prefix(4)]
        user_id: u64,
        ts: i64,
    }

    const SELLER: u64 = 1_234_567;
    const REGION: &str = "eu-west-1";
    const TS: i64 = 1_700_000_000_000;
    const ORDER_NO: u32 = 987_654;
    const USER: u64 = 42_424_242;

    fn order_key() -> OrderKey {
        OrderKey {
            seller_id: SELLER,
            region: REGION.into(),
            ts: TS,
            order_no: ORDER_NO,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Hand-written: bytes::BufMut big-endian puts, the same escaping, the same checks

    /// Error of the hand-written codecs (what careful hand-written code returns: no payload).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct HandError;

    const FLIP: u64 = 1 << 63;
    const HEX: &[u8; 16] = b"0123456789abcdef";

    /// `0x00 -> 0x01 0x00`, `0x01 -> 0x01 0x01`, then the `0x00` terminator.
    #[inline]
    fn hand_put_sep<B: BufMut>(c: &[u8], buf: &mut B) {
        let mut rest = c;
        while let Some(i) = rest.iter().position(|&b| b <= 1) {
            buf.put_slice(&rest[..i]);
            buf.put_slice(&[1, rest[i]]);
            rest = &rest[i + 1..];
        }
        buf.put_slice(rest);
        buf.put_u8(0);
    }

    #[inline]
    fn hand_sep_len(c: &[u8]) -> usize {
        c.len() + c.iter().filter(|&&b| b <= 1).count() + 1
    }

    /// Escaped content up to its terminator: the string and the bytes used.
    #[inline]
    fn hand_get_sep(b: &[u8]) -> Result<(String, usize), HandError> {
        let i = b.iter().position(|&x| x <= 1).ok_or(HandError)?;
        if b[i] == 0 {
            let s = std::str::from_utf8(&b[..i]).map_err(|_| HandError)?;
            return Ok((s.to_owned(), i + 1));
        }
        let mut out = b[..i].to_vec();
        let mut pos = i;
        loop {
            match b.get(pos) {
                None => return Err(HandError),
                Some(0) => break,
                Some(1) => match b.get(pos + 1) {
                    Some(&e @ (0 | 1)) => {
                        out.push(e);
                        pos += 2;
                    }
                    _ => return Err(HandError),
                },
                Some(&v) => {
                    out.push(v);
                    pos += 1;
                }
            }
        }
        String::from_utf8(out)
            .map(|s| (s, pos + 1))
            .map_err(|_| HandError)
    }

    #[inline]
    fn hand_encode_order<B: BufMut>(k: &OrderKey, buf: &mut B) -> Result<(), HandError> {
        if k.ts < 0 {
            return Err(HandError);
        }
        buf.put_u64(k.seller_id);
        hand_put_sep(k.region.as_bytes(), buf);
        buf.put_i64(i64::MAX - k.ts);
        buf.put_u32(k.order_no);
        Ok(())
    }

    #[inline]
    fn hand_len_order(k: &OrderKey) -> usize {
        8 + hand_sep_len(k.region.as_bytes()) + 8 + 4
    }

    #[inline]
    fn hand_decode_order(b: &[u8]) -> Result<OrderKey, HandError> {
        let (id, rest) = b.split_first_chunk::<8>().ok_or(HandError)?;
        let (region, used) = hand_get_sep(rest)?;
        let rest = &rest[used..];
        let (ts, rest) = rest.split_first_chunk::<8>().ok_or(HandError)?;
        let stored = i64::from_be_bytes(*ts);
        if stored < 0 {
            return Err(HandError);
        }
        let (no, rest) = rest.split_first_chunk::<4>().ok_or(HandError)?;
        if !rest.is_empty() {
            return Err(HandError);
        }
        Ok(OrderKey {
            seller_id: u64::from_be_bytes(*id),
            region,
            ts: i64::MAX - stored,
            order_no: u32::from_be_bytes(*no),
        })
    }

    #[inline]
    fn hand_encode_simple<B: BufMut>(k: &Simple, buf: &mut B) {
        buf.put_u64(k.user_id);
        buf.put_u64(k.ts as u64 ^ FLIP);
    }

    #[inline]
    fn hand_decode_simple(b: &[u8]) -> Result<Simple, HandError> {
        let b: &[u8; 16] = b.try_into().map_err(|_| HandError)?;
        let (id, ts) = b.split_at(8);
        Ok(Simple {
            user_id: u64::from_be_bytes(id.try_into().map_err(|_| HandError)?),
            ts: (u64::from_be_bytes(ts.try_into().map_err(|_| HandError)?) ^ FLIP) as i64,
        })
    }

    /// Java `Arrays.hashCode(byte[])` over the signed bytes.
    #[inline]
    pub fn phoenix(bytes: &[u8]) -> i32 {
        let mut h: i32 = 1;
        for &b in bytes {
            h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
        }
        h
    }

    #[inline]
    fn salt16(id: &[u8; 8]) -> u8 {
        (phoenix(id) % 16).unsigned_abs() as u8
    }

    #[inline]
    fn hand_encode_salted<B: BufMut>(k: &SimpleSalted, buf: &mut B) {
        let id = k.user_id.to_be_bytes();
        buf.put_u8(salt16(&id));
        buf.put_slice(&id);
        buf.put_u64(k.ts as u64 ^ FLIP);
    }

    #[inline]
    fn hand_decode_salted(b: &[u8]) -> Result<SimpleSalted, HandError> {
        let b: &[u8; 17] = b.try_into().map_err(|_| HandError)?;
        let (salt, rest) = b.split_first().ok_or(HandError)?;
        let (id, ts) = rest.split_first_chunk::<8>().ok_or(HandError)?;
        if *salt != salt16(id) {
            return Err(HandError);
        }
        Ok(SimpleSalted {
            user_id: u64::from_be_bytes(*id),
            ts: (u64::from_be_bytes(ts.try_into().map_err(|_| HandError)?) ^ FLIP) as i64,
        })
    }

    /// The first 4 lowercase hex characters of MD5 (`md5(id).substring(0, 4)`).
    #[inline]
    fn hex4(id: &[u8; 8]) -> [u8; 4] {
        let d = rowkey::codec::md5(id);
        [
            HEX[usize::from(d[0] >> 4)],
            HEX[usize::from(d[0] & 15)],
            HEX[usize::from(d[1] >> 4)],
            HEX[usize::from(d[1] & 15)],
        ]
    }

    #[inline]
    fn hand_encode_hashed<B: BufMut>(k: &SimpleHashed, buf: &mut B) {
        let id = k.user_id.to_be_bytes();
        buf.put_slice(&hex4(&id));
        buf.put_slice(&id);
        buf.put_u64(k.ts as u64 ^ FLIP);
    }

    #[inline]
    fn hand_decode_hashed(b: &[u8]) -> Result<SimpleHashed, HandError> {
        let b: &[u8; 20] = b.try_into().map_err(|_| HandError)?;
        let (hp, rest) = b.split_first_chunk::<4>().ok_or(HandError)?;
        let (id, ts) = rest.split_first_chunk::<8>().ok_or(HandError)?;
        if *hp != hex4(id) {
            return Err(HandError);
        }
        Ok(SimpleHashed {
            user_id: u64::from_be_bytes(*id),
            ts: (u64::from_be_bytes(ts.try_into().map_err(|_| HandError)?) ^ FLIP) as i64,
        })
    }

    /// Exact-size `Vec`, encoded, as `Bytes` (what `to_row_key` does, by hand).
    #[inline]
    fn hand_bytes(len: usize, f: impl FnOnce(&mut Vec<u8>)) -> Bytes {
        let mut v = Vec::with_capacity(len);
        f(&mut v);
        Bytes::from(v)
    }

    /// `[prefix, successor(prefix))` in one allocation, the stop row built on the stack.
    #[inline]
    fn hand_prefix_range(prefix: &[u8]) -> ScanRange {
        let mut stop = [0u8; 64];
        let stop = &mut stop[..prefix.len()];
        stop.copy_from_slice(prefix);
        let mut n = prefix.len();
        while n > 0 && stop[n - 1] == 0xFF {
            n -= 1;
        }
        if n == 0 {
            return ScanRange::new(prefix, None);
        }
        stop[n - 1] += 1;
        ScanRange::new(prefix, Some(&stop[..n]))
    }

    #[inline]
    fn hand_scan_order(seller: u64, region: Option<&str>) -> ScanRange {
        let mut p = [0u8; 64];
        p[..8].copy_from_slice(&seller.to_be_bytes());
        let mut n = 8;
        if let Some(r) = region {
            let mut w = &mut p[8..];
            hand_put_sep(r.as_bytes(), &mut w);
            n = 64 - w.len();
        }
        hand_prefix_range(&p[..n])
    }

    #[inline]
    fn hand_scan_salted(user: u64) -> ScanRange {
        let id = user.to_be_bytes();
        let mut p = [0u8; 9];
        p[0] = salt16(&id);
        p[1..].copy_from_slice(&id);
        hand_prefix_range(&p)
    }

    #[inline]
    fn hand_scan_hashed(user: u64) -> ScanRange {
        let id = user.to_be_bytes();
        let mut p = [0u8; 12];
        p[..4].copy_from_slice(&hex4(&id));
        p[4..].copy_from_slice(&id);
        hand_prefix_range(&p)
    }

    #[inline]
    fn hand_fanout16() -> Vec<ScanRange> {
        let mut v = Vec::with_capacity(16);
        for s in 0..16u8 {
            v.push(ScanRange::new(&[s], Some(&[s + 1])));
        }
        v
    }

    // -----------------------------------------------------------------------------------------
    // Peers: the equivalent structs, serde (memcomparable, ordcode) and storekey's derive.
    // `ts` holds `i64::MAX - ts` already (reversal done by the caller, outside the timing).

    #[derive(
        Serialize, Deserialize, storekey::Encode, storekey::BorrowDecode, Debug, Clone, PartialEq,
    )]
    struct PeerOrderKey {
        seller_id: u64,
        region: String,
        ts: i64,
        order_no: u32,
    }

    #[derive(
        Serialize, Deserialize, storekey::Encode, storekey::BorrowDecode, Debug, Clone, PartialEq,
    )]
    struct PeerSimple {
        user_id: u64,
        ts: i64,
    }

    fn peer_order_key() -> PeerOrderKey {
        PeerOrderKey {
            seller_id: SELLER,
            region: REGION.into(),
            ts: i64::MAX - TS,
            order_no: ORDER_NO,
        }
    }

    fn peer_simple() -> PeerSimple {
        PeerSimple {
            user_id: USER,
            ts: TS,
        }
    }

    fn storekey_into<T: storekey::Encode>(v: &T, buf: &mut Vec<u8>) {
        buf.clear();
        storekey::encode(&mut *buf, v).unwrap();
    }

    fn memcomparable_into<T: Serialize>(v: &T, buf: &mut Vec<u8>) {
        buf.clear();
        let mut s = memcomparable::Serializer::new(&mut *buf);
        v.serialize(&mut s).unwrap();
    }

    /// ordcode's order-preserving path: exact size first, then a double-ended buffer.
    fn ordcode_into<T: Serialize>(v: &T, buf: &mut Vec<u8>) {
        buf.clear();
        buf.resize(ordcode::calc_size_asc(v).unwrap(), 0);
        ordcode::ser_to_buf_asc_exact(buf, v).unwrap();
    }

    // -----------------------------------------------------------------------------------------
    // Merge and hotspot inputs

    /// Keys per merge benchmark (16 streams).
    pub const MERGE_KEYS: usize = 16_000;
    /// Keys per hotspot benchmark.
    pub const HOTSPOT_KEYS: usize = 1_000_000;

    /// 16 streams of `SimpleSalted` keys, one per bucket, each sorted.
    fn merge_streams() -> Vec<Vec<Vec<u8>>> {
        let mut streams = vec![Vec::new(); 16];
        for i in 0..MERGE_KEYS as u64 {
            let k = SimpleSalted {
                user_id: i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40,
                ts: TS + (i % 1000) as i64,
            };
            let b = k.to_row_key().unwrap();
            streams[usize::from(b[0])].push(b.to_vec());
        }
        for s in &mut streams {
            s.sort();
        }
        streams
    }

    fn merge_rowkey(streams: &[Vec<Vec<u8>>]) -> Vec<&[u8]> {
        merge(streams.iter().map(|s| s.iter().map(Vec::as_slice)), 1).collect()
    }

    fn collect_sort(streams: &[Vec<Vec<u8>>], stable: bool) -> Vec<&[u8]> {
        let mut all = Vec::with_capacity(streams.iter().map(Vec::len).sum());
        for s in streams {
            all.extend(s.iter().map(Vec::as_slice));
        }
        if stable {
            all.sort_by(|a, b| a[1..].cmp(&b[1..]));
        } else {
            all.sort_unstable_by(|a, b| a[1..].cmp(&b[1..]));
        }
        all
    }

    /// 1M keys, fixed width, in one flat buffer: `(bytes, width)`.
    fn hotspot_keys(hashed: bool) -> (Vec<u8>, usize) {
        let width = if hashed { 20 } else { 16 };
        let mut flat = Vec::with_capacity(HOTSPOT_KEYS * width);
        for i in 0..HOTSPOT_KEYS as u64 {
            let ts = TS + i as i64;
            if hashed {
                SimpleHashed { user_id: i, ts }
                    .encode_into(&mut flat)
                    .unwrap();
            } else {
                Simple { user_id: i, ts }.encode_into(&mut flat).unwrap();
            }
        }
        (flat, width)
    }

    fn analyze(splits: &[Vec<u8>], flat: &[u8], width: usize) -> Analyzer {
        let mut a = Analyzer::new(splits).unwrap();
        for k in flat.chunks_exact(width) {
            a.add(k);
        }
        a
    }

    /// The obvious alternative: a binary search over the split points per key.
    fn analyze_naive(splits: &[Vec<u8>], flat: &[u8], width: usize) -> Vec<u64> {
        let mut counts = vec![0u64; splits.len() + 1];
        for k in flat.chunks_exact(width) {
            counts[splits.partition_point(|s| s.as_slice() <= k)] += 1;
        }
        counts
    }

    // -----------------------------------------------------------------------------------------
    // Correctness of the comparison: asserted once before measuring

    /// Asserts that the hand-written code produces exactly rowkey's bytes and decodes them back,
    /// that the scan ranges are identical, that the peers round-trip and that merge == sort.
    pub fn verify() {
        let mut v = Vec::new();

        let k = order_key();
        let rk = k.to_row_key().unwrap();
        hand_encode_order(&k, &mut v).unwrap();
        assert_eq!(
            &rk[..],
            &v[..],
            "OrderKey: hand-written bytes == rowkey bytes"
        );
        assert_eq!(hand_len_order(&k), rk.len());
        assert_eq!(OrderKey::from_row_key(&rk).unwrap(), k);
        assert_eq!(hand_decode_order(&rk).unwrap(), k);
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

        // merge == sort
        let streams = merge_streams();
        let m = merge_rowkey(&streams);
        assert_eq!(m.len(), MERGE_KEYS);
        assert_eq!(m, collect_sort(&streams, true));
        assert_eq!(m, collect_sort(&streams, false));

        // hotspot: the analyzer agrees with the naive count
        let splits = rowkey::plan::hex_string_split(40);
        let (flat, w) = hotspot_keys(true);
        let flat = &flat[..w * 10_000];
        let a = analyze(&splits, flat, w).report();
        let counts: Vec<u64> = a.regions().iter().map(|r| r.keys).collect();
        assert_eq!(counts, analyze_naive(&splits, flat, w));
    }

    // -----------------------------------------------------------------------------------------
    // The measured cases

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

    fn case<R>(
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

    /// Encode into a reused buffer: `clear()` then encode.
    fn enc(out: &mut Vec<Case>, id: &str, mut f: impl FnMut(&mut Vec<u8>) + 'static) {
        let mut buf = Vec::with_capacity(256);
        case(out, "encode_into", id, move || {
            buf.clear();
            f(black_box(&mut buf));
            black_box(&buf);
        });
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

        // ---- the hashes the salt and the hash prefix compute
        case(out, "hash", "phoenix_8B", || {
            phoenix(&black_box(USER).to_be_bytes())
        });
        case(out, "hash", "md5_8B", || {
            rowkey::codec::md5(&black_box(USER).to_be_bytes())
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

    // -----------------------------------------------------------------------------------------
    // The ratio table (perf_report and the criterion run print the same one)

    /// Median ns per call, by `group/id`.
    pub type Results = BTreeMap<String, f64>;

    /// The four keys of issue 5.
    pub const KEYS: [&str; 4] = ["OrderKey", "Simple", "SimpleSalted", "SimpleHashed"];
    const PEERS: [&str; 3] = ["storekey", "memcomparable", "ordcode"];

    fn ns(v: Option<f64>) -> String {
        match v {
            Some(v) if v >= 1e6 => format!("{:.2} ms", v / 1e6),
            Some(v) if v >= 1e4 => format!("{:.1} µs", v / 1e3),
            Some(v) if v >= 100.0 => format!("{v:.0}"),
            Some(v) => format!("{v:.1}"),
            None => "—".to_owned(),
        }
    }

    fn verdict(ok: bool, over: f64) -> String {
        if ok {
            "met".to_owned()
        } else {
            format!("**MISSED** (+{:.1}%)", over * 100.0)
        }
    }

    /// The markdown ratio table and the target verdicts.
    pub fn table(r: &Results) -> String {
        let g = |group: &str, id: &str| r.get(&format!("{group}/{id}")).copied();
        let mut out = String::new();
        let mut missed = Vec::new();
        let _ = writeln!(
            out,
            "| key | operation | rowkey ns | hand-written ns | ratio | storekey ns | memcomparable ns | ordcode ns | target | met? |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---|---|");
        for (op, limit) in [
            ("encode_into", 1.10),
            ("to_row_key", 1.20),
            ("from_row_key", 1.15),
        ] {
            for key in KEYS {
                let (Some(rk), Some(hand)) = (
                    g(op, &format!("{key}/rowkey")),
                    g(op, &format!("{key}/hand")),
                ) else {
                    continue;
                };
                let ratio = rk / hand;
                let peers: Vec<Option<f64>> =
                    PEERS.iter().map(|p| g(op, &format!("{key}/{p}"))).collect();
                let fastest_peer = peers.iter().flatten().copied().reduce(f64::min);
                let mut ok = ratio <= limit;
                let mut target = format!("≤ {limit:.2}×");
                if op == "to_row_key" {
                    target.push_str(" (hand → `Bytes`)");
                }
                let mut over = ratio / limit - 1.0;
                if op == "from_row_key" {
                    if let Some(fp) = fastest_peer {
                        target.push_str(", < every peer");
                        if rk >= fp {
                            ok = false;
                            over = over.max(rk / fp - 1.0);
                        }
                    }
                }
                if !ok {
                    missed.push(format!("{key} {op}: {ratio:.2}× (target {target})"));
                }
                let _ = writeln!(
                    out,
                    "| {key} | {op} | {} | {} | {ratio:.2}× | {} | {} | {} | {target} | {} |",
                    ns(Some(rk)),
                    ns(Some(hand)),
                    ns(peers[0]),
                    ns(peers[1]),
                    ns(peers[2]),
                    verdict(ok, over),
                );
            }
        }
        for scan in [
            "OrderKey.seller_id",
            "OrderKey.seller_id.region",
            "Simple.user_id",
            "SimpleSalted.user_id",
            "SimpleHashed.user_id",
            "SimpleSalted.fanout16",
        ] {
            let (Some(rk), Some(hand)) = (
                g("scan_ranges", &format!("{scan}/rowkey")),
                g("scan_ranges", &format!("{scan}/hand")),
            ) else {
                continue;
            };
            let _ = writeln!(
                out,
                "| {scan} | scan ranges | {} | {} | {:.2}× | — | — | — | ≤ 1 alloc/range (tests/alloc.rs) | info |",
                ns(Some(rk)),
                ns(Some(hand)),
                rk / hand
            );
        }

        // Derived targets
        let _ = writeln!(out);
        let _ = writeln!(out, "| target (issue 5) | measured | limit | met? |");
        let _ = writeln!(out, "|---|---|---|---|");
        let enc = |k: &str| g("encode_into", &format!("{k}/rowkey"));
        let dec = |k: &str| g("from_row_key", &format!("{k}/rowkey"));
        if let (Some(salted), Some(simple), Some(ph)) =
            (enc("SimpleSalted"), enc("Simple"), g("hash", "phoenix_8B"))
        {
            let cost = salted - simple;
            let limit = ph + 2.0;
            let ok = cost <= limit;
            if !ok {
                missed.push(format!("salt cost {cost:.1} ns > {limit:.1} ns"));
            }
            let _ = writeln!(
                out,
                "| salt ≤ its hash + 2 ns (encode_into) | SimpleSalted − Simple = {salted:.1} − {simple:.1} = {cost:.1} ns | Phoenix hash of 8 B {ph:.1} + 2 = {limit:.1} ns | {} |",
                verdict(ok, cost / limit - 1.0)
            );
        }
        if let (Some(salted), Some(simple), Some(ph)) =
            (dec("SimpleSalted"), dec("Simple"), g("hash", "phoenix_8B"))
        {
            let cost = salted - simple;
            let limit = ph + 2.0;
            let _ = writeln!(
                out,
                "| salt ≤ its hash + 2 ns (from_row_key, check) | SimpleSalted − Simple = {cost:.1} ns | {limit:.1} ns | {} |",
                if cost <= limit { "met (info)" } else { "over (info)" }
            );
        }
        if let (Some(hashed), Some(simple), Some(md5)) =
            (enc("SimpleHashed"), enc("Simple"), g("hash", "md5_8B"))
        {
            let cost = hashed - simple;
            let limit = md5 * 1.10;
            let ok = cost <= limit;
            if !ok {
                missed.push(format!("hash prefix cost {cost:.1} ns > {limit:.1} ns"));
            }
            let _ = writeln!(
                out,
                "| hash prefix ≤ MD5 + 10% (encode_into) | SimpleHashed − Simple = {hashed:.1} − {simple:.1} = {cost:.1} ns | MD5 of 8 B {md5:.1} × 1.1 = {limit:.1} ns | {} |",
                verdict(ok, cost / limit - 1.0)
            );
        }
        if let (Some(hashed), Some(simple), Some(md5)) =
            (dec("SimpleHashed"), dec("Simple"), g("hash", "md5_8B"))
        {
            let cost = hashed - simple;
            let limit = md5 * 1.10;
            let _ = writeln!(
                out,
                "| hash prefix ≤ MD5 + 10% (from_row_key, check) | SimpleHashed − Simple = {cost:.1} ns | {limit:.1} ns | {} |",
                if cost <= limit { "met (info)" } else { "over (info)" }
            );
        }
        if let Some(t) = g("hotspot", "hashed_1M/rowkey") {
            let kps = HOTSPOT_KEYS as f64 / t * 1e9;
            let ok = kps >= 10e6;
            if !ok {
                missed.push(format!("hotspot {:.1} M keys/s < 10", kps / 1e6));
            }
            let seq = g("hotspot", "sequential_1M/rowkey")
                .map(|t| format!("; sequential keys {:.1} M/s", HOTSPOT_KEYS as f64 / t * 1e3))
                .unwrap_or_default();
            let naive = g("hotspot", "hashed_1M/naive_partition_point")
                .map(|t| {
                    format!(
                        "; naive partition_point {:.1} M/s",
                        HOTSPOT_KEYS as f64 / t * 1e3
                    )
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| hotspot ≥ 10 M keys/s, one core | hashed keys, 40 HexStringSplit regions: {:.1} M keys/s{seq}{naive} | 10 M keys/s | {} |",
                kps / 1e6,
                verdict(ok, 10e6 / kps - 1.0)
            );
        }
        let _ = writeln!(
            out,
            "| `encode_into` zero allocations; `to_row_key` one exact allocation; scan ≤ 1 allocation per range | counting global allocator, `tests/alloc.rs` (`encode_allocations`, `scan_allocations`) | — | met (test) |"
        );

        // Other measurements
        let _ = writeln!(out);
        let _ = writeln!(out, "| other | ns | note |");
        let _ = writeln!(out, "|---|---:|---|");
        for key in ["OrderKey", "Simple"] {
            if let (Some(v), Some(b)) = (
                g("to_row_key", &format!("{key}/hand_vec")),
                g("to_row_key", &format!("{key}/hand")),
            ) {
                let _ = writeln!(
                    out,
                    "| {key} to_row_key, hand-written → `Vec` | {} | → `Bytes`: {} |",
                    ns(Some(v)),
                    ns(Some(b))
                );
            }
        }
        for (id, note) in [
            (
                "phoenix_8B",
                "Phoenix salt hash of the 8-byte salted prefix",
            ),
            ("md5_8B", "MD5 of the 8-byte user_id"),
        ] {
            if let Some(v) = g("hash", id) {
                let _ = writeln!(out, "| {id} | {} | {note} |", ns(Some(v)));
            }
        }
        let merge = g("merge16", "16x1000/rowkey_merge");
        for id in ["rowkey_merge", "collect_sort", "collect_sort_unstable"] {
            if let Some(v) = g("merge16", &format!("16x1000/{id}")) {
                let rel = merge
                    .map(|m| format!("; {:.2}× rowkey merge", v / m))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "| merge of 16 sorted streams, 16 000 keys: {id} | {} | {:.1} M keys/s{rel} |",
                    ns(Some(v)),
                    MERGE_KEYS as f64 / v * 1e3
                );
            }
        }
        for id in [
            "hashed_1M/rowkey",
            "sequential_1M/rowkey",
            "hashed_1M/naive_partition_point",
        ] {
            if let Some(v) = g("hotspot", id) {
                let _ = writeln!(
                    out,
                    "| hotspot {id} | {} | {:.1} M keys/s, {:.2} ns/key |",
                    ns(Some(v)),
                    HOTSPOT_KEYS as f64 / v * 1e3,
                    v / HOTSPOT_KEYS as f64
                );
            }
        }

        let _ = writeln!(out);
        if missed.is_empty() {
            let _ = writeln!(out, "All targets met.");
        } else {
            let _ = writeln!(out, "Missed: {}.", missed.join("; "));
        }
        out
    }

    // -----------------------------------------------------------------------------------------
    // Reading criterion's estimates

    /// Criterion's output directory: `$CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`, or the
    /// `criterion` directory of the target dir this executable was built in.
    pub fn criterion_dir() -> Option<PathBuf> {
        if let Some(h) = std::env::var_os("CRITERION_HOME") {
            return Some(PathBuf::from(h));
        }
        if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
            return Some(PathBuf::from(t).join("criterion"));
        }
        // target/<profile>/{deps,examples}/<exe>
        let exe = std::env::current_exe().ok()?;
        Some(exe.parent()?.parent()?.parent()?.join("criterion"))
    }

    fn json_str<'a>(json: &'a str, field: &str) -> Option<&'a str> {
        let at = json.find(&format!("\"{field}\":\""))? + field.len() + 4;
        let rest = &json[at..];
        Some(&rest[..rest.find('"')?])
    }

    fn json_median(json: &str) -> Option<f64> {
        let m = &json[json.find("\"median\":")?..];
        let p = &m[m.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
        let end = p.find([',', '}'])?;
        p[..end].trim().parse().ok()
    }

    /// Median ns per call of every benchmark criterion has results for (`*/*/new/`).
    pub fn read_criterion(dir: &Path) -> Results {
        let mut r = Results::new();
        let Ok(groups) = std::fs::read_dir(dir) else {
            return r;
        };
        for g in groups.flatten() {
            let Ok(benches) = std::fs::read_dir(g.path()) else {
                continue;
            };
            for b in benches.flatten() {
                let new = b.path().join("new");
                let (Ok(meta), Ok(est)) = (
                    std::fs::read_to_string(new.join("benchmark.json")),
                    std::fs::read_to_string(new.join("estimates.json")),
                ) else {
                    continue;
                };
                if let (Some(id), Some(m)) = (json_str(&meta, "full_id"), json_median(&est)) {
                    r.insert(id.to_owned(), m);
                }
            }
        }
        r
    }
}

fn bench_all(c: &mut Criterion) {
    shared::verify();
    let mut cases = shared::cases();
    let mut groups: Vec<&'static str> = Vec::new();
    for case in &cases {
        if !groups.contains(&case.group) {
            groups.push(case.group);
        }
    }
    for name in groups {
        let mut group = c.benchmark_group(name);
        let elements = cases
            .iter()
            .find(|c| c.group == name)
            .map_or(1, |c| c.elements);
        if elements > 1 {
            group.throughput(Throughput::Elements(elements));
        }
        if name == "merge16" {
            group.sample_size(20);
        }
        if name == "hotspot" {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(6));
        }
        for case in cases.iter_mut().filter(|c| c.group == name) {
            let run = &mut case.run;
            group.bench_function(case.id.as_str(), |b| b.iter_custom(&mut *run));
        }
        group.finish();
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    bench_all(&mut c);
    c.final_summary();
    // Only after a measuring run (`cargo bench` passes `--bench`; `cargo test` and `--list` do not).
    let measured = std::env::args().any(|a| a == "--bench")
        && !std::env::args().any(|a| a == "--list" || a == "--test");
    if !measured {
        return;
    }
    if let Some(dir) = shared::criterion_dir() {
        let results = shared::read_criterion(&dir);
        if !results.is_empty() {
            println!(
                "\nRatio table from the criterion estimates in {} (median ns per call):\n",
                dir.display()
            );
            println!("{}", shared::table(&results));
        }
    }
}
