//! Hand-written baselines: `bytes::BufMut` big-endian puts, the same escaping, the same checks.

use bytes::{BufMut, Bytes};
use rowkey::ScanRange;

use super::keys::*;

/// Error of the hand-written codecs (what careful hand-written code returns: no payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandError;

pub const FLIP: u64 = 1 << 63;
pub const HEX: &[u8; 16] = b"0123456789abcdef";

/// `0x00 -> 0x01 0x00`, `0x01 -> 0x01 0x01`, then the `0x00` terminator.
#[inline]
pub fn hand_put_sep<B: BufMut>(c: &[u8], buf: &mut B) {
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
pub fn hand_sep_len(c: &[u8]) -> usize {
    c.len() + c.iter().filter(|&&b| b <= 1).count() + 1
}

/// Escaped content up to its terminator: the string and the bytes used.
#[inline]
pub fn hand_get_sep(b: &[u8]) -> Result<(String, usize), HandError> {
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
pub fn hand_encode_order<B: BufMut>(k: &OrderKey, buf: &mut B) -> Result<(), HandError> {
    if k.ts < 0 {
        return Err(HandError);
    }
    buf.put_u64(k.seller_id);
    hand_put_sep(k.region.as_bytes(), buf);
    buf.put_i64(i64::MAX - k.ts);
    buf.put_u32(k.order_no);
    Ok(())
}

/// Naive: what HBase users write (`Bytes.add(Bytes.toBytes(id), Bytes.toBytes(region), …)`):
/// the same puts and checks, the region copied as is (no escaping) and its `0x00` terminator.
/// The same bytes as rowkey's for a region without `0x00`/`0x01`, wrong bytes otherwise.
#[inline]
pub fn naive_encode_order<B: BufMut>(k: &OrderKey, buf: &mut B) -> Result<(), HandError> {
    if k.ts < 0 {
        return Err(HandError);
    }
    buf.put_u64(k.seller_id);
    buf.put_slice(k.region.as_bytes());
    buf.put_u8(0);
    buf.put_i64(i64::MAX - k.ts);
    buf.put_u32(k.order_no);
    Ok(())
}

/// Naive length: no escape to count.
#[inline]
pub fn naive_len_order(k: &OrderKey) -> usize {
    8 + k.region.len() + 1 + 8 + 4
}

/// Naive validating decode: the region is everything up to the first `0x00` (no unescaping),
/// then the same checks as [`hand_decode_order`] (UTF-8, terminator, `ts` range, length).
#[inline]
pub fn naive_decode_order(b: &[u8]) -> Result<OrderKey, HandError> {
    let (id, rest) = b.split_first_chunk::<8>().ok_or(HandError)?;
    let end = rest.iter().position(|&x| x == 0).ok_or(HandError)?;
    let region = std::str::from_utf8(&rest[..end]).map_err(|_| HandError)?;
    let rest = &rest[end + 1..];
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
        region: region.to_owned(),
        ts: i64::MAX - stored,
        order_no: u32::from_be_bytes(*no),
    })
}

#[inline]
pub fn hand_len_order(k: &OrderKey) -> usize {
    8 + hand_sep_len(k.region.as_bytes()) + 8 + 4
}

#[inline]
pub fn hand_decode_order(b: &[u8]) -> Result<OrderKey, HandError> {
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
pub fn hand_encode_simple<B: BufMut>(k: &Simple, buf: &mut B) {
    buf.put_u64(k.user_id);
    buf.put_u64(k.ts as u64 ^ FLIP);
}

#[inline]
pub fn hand_decode_simple(b: &[u8]) -> Result<Simple, HandError> {
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
pub fn salt16(id: &[u8; 8]) -> u8 {
    (phoenix(id) % 16).unsigned_abs() as u8
}

#[inline]
pub fn hand_encode_salted<B: BufMut>(k: &SimpleSalted, buf: &mut B) {
    let id = k.user_id.to_be_bytes();
    buf.put_u8(salt16(&id));
    buf.put_slice(&id);
    buf.put_u64(k.ts as u64 ^ FLIP);
}

#[inline]
pub fn hand_decode_salted(b: &[u8]) -> Result<SimpleSalted, HandError> {
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
pub fn hex4(id: &[u8; 8]) -> [u8; 4] {
    let d = rowkey::hash_prefix::md5(id);
    [
        HEX[usize::from(d[0] >> 4)],
        HEX[usize::from(d[0] & 15)],
        HEX[usize::from(d[1] >> 4)],
        HEX[usize::from(d[1] & 15)],
    ]
}

#[inline]
pub fn hand_encode_hashed<B: BufMut>(k: &SimpleHashed, buf: &mut B) {
    let id = k.user_id.to_be_bytes();
    buf.put_slice(&hex4(&id));
    buf.put_slice(&id);
    buf.put_u64(k.ts as u64 ^ FLIP);
}

#[inline]
pub fn hand_decode_hashed(b: &[u8]) -> Result<SimpleHashed, HandError> {
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

/// Phoenix: `tenant 00 device 00 ts^FLIP` (a VARCHAR before another column holds no `0x00`;
/// an empty one is NULL).
#[inline]
pub fn hand_encode_phoenix<B: BufMut>(k: &PhoenixEvent, buf: &mut B) -> Result<(), HandError> {
    let (t, d) = (k.tenant.as_bytes(), k.device.as_bytes());
    // an empty VARCHAR is NULL, which a primary-key column here may not be
    if t.is_empty() || d.is_empty() || t.contains(&0) || d.contains(&0) {
        return Err(HandError);
    }
    buf.put_slice(t);
    buf.put_u8(0);
    buf.put_slice(d);
    buf.put_u8(0);
    buf.put_u64(k.ts as u64 ^ FLIP);
    Ok(())
}

#[inline]
pub fn hand_len_phoenix(k: &PhoenixEvent) -> usize {
    k.tenant.len() + k.device.len() + 2 + 8
}

#[inline]
pub fn hand_decode_phoenix(b: &[u8]) -> Result<PhoenixEvent, HandError> {
    let text = |b: &[u8]| -> Result<(String, usize), HandError> {
        let i = b.iter().position(|&x| x == 0).ok_or(HandError)?;
        let s = std::str::from_utf8(&b[..i]).map_err(|_| HandError)?;
        Ok((s.to_owned(), i + 1))
    };
    let (tenant, n) = text(b)?;
    let (device, m) = text(&b[n..])?;
    let ts: &[u8; 8] = b[n + m..].try_into().map_err(|_| HandError)?;
    Ok(PhoenixEvent {
        tenant,
        device,
        ts: (u64::from_be_bytes(*ts) ^ FLIP) as i64,
    })
}

/// `OrderedCodeBytes`: `0x00` escaped as `0x00 0xFF` (an empty field as `0x00 0x00`).
#[inline]
fn oc_escape(raw: &[u8], out: &mut Vec<u8>) {
    if raw.is_empty() {
        out.extend_from_slice(&[0, 0]);
        return;
    }
    let mut rest = raw;
    while let Some(i) = rest.iter().position(|&x| x == 0) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(&[0, 0xFF]);
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

/// Google's orderedcode signed varint: `n` one bits, a zero bit, the value big-endian in the
/// fewest bytes `n`; a negative value is the inverse of the encoding of `!value`.
#[inline]
fn oc_varint(v: i64, out: &mut [u8; 10]) -> usize {
    let (y, inv) = if v < 0 {
        (!v as u64, 0xFF)
    } else {
        (v as u64, 0)
    };
    let mut n = 1;
    while n < 10 && u128::from(y) >= 1u128 << (7 * n - 1) {
        n += 1;
    }
    let x = u128::from(y) | (((1u128 << n) - 1) << (7 * n));
    let be = x.to_be_bytes();
    for (o, b) in out.iter_mut().zip(&be[16 - n..]) {
        *o = b ^ inv;
    }
    n
}

/// The varint at the front of `b`: value and length (canonical form only).
#[inline]
fn oc_varint_get(b: &[u8]) -> Result<(i64, usize), HandError> {
    let &b0 = b.first().ok_or(HandError)?;
    let inv = if b0 & 0x80 == 0 { 0xFF } else { 0 };
    let mut n = (b0 ^ inv).leading_ones() as usize;
    if n == 8 {
        n += (b.get(1).ok_or(HandError)? ^ inv).leading_ones() as usize;
    }
    if n == 0 || n > 10 {
        return Err(HandError);
    }
    let bytes = b.get(..n).ok_or(HandError)?;
    let x = bytes
        .iter()
        .fold(0u128, |a, &c| a << 8 | u128::from(c ^ inv));
    let y = x & ((1u128 << (7 * n - 1)) - 1);
    if n > 1 && y < 1u128 << (7 * (n - 1) - 1) || y > i64::MAX as u128 {
        return Err(HandError);
    }
    let v = y as i64;
    Ok((if inv == 0 { v } else { !v }, n))
}

#[inline]
pub fn hand_encode_struct(k: &StructEvent, out: &mut Vec<u8>) {
    oc_escape(k.tenant.as_bytes(), out);
    out.extend_from_slice(&[0, 1]);
    oc_escape(k.device.as_bytes(), out);
    out.extend_from_slice(&[0, 1]);
    let mut v = [0u8; 10];
    let n = oc_varint(k.ts, &mut v);
    oc_escape(&v[..n], out);
}

#[inline]
pub fn hand_len_struct(k: &StructEvent) -> usize {
    let esc = |b: &[u8]| {
        if b.is_empty() {
            2
        } else {
            b.len() + b.iter().filter(|&&x| x == 0).count()
        }
    };
    let mut v = [0u8; 10];
    let n = oc_varint(k.ts, &mut v);
    esc(k.tenant.as_bytes()) + esc(k.device.as_bytes()) + esc(&v[..n]) + 4
}

/// One escaped field from the front of `b` (`last`: to the end): its bytes and the key bytes
/// it used with its `0x00 0x01`.
#[inline]
fn oc_field(b: &[u8], last: bool) -> Result<(Vec<u8>, usize), HandError> {
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        match b[i..].iter().position(|&x| x == 0) {
            None if last => {
                out.extend_from_slice(&b[i..]);
                return Ok((out, b.len()));
            }
            None => return Err(HandError),
            Some(j) => {
                out.extend_from_slice(&b[i..i + j]);
                match b.get(i + j + 1) {
                    Some(0xFF) => {
                        out.push(0);
                        i += j + 2;
                    }
                    Some(0x01) if !last => return Ok((out, i + j + 2)),
                    Some(0x00) if j == 0 && i == 0 => {
                        // the empty field
                        return match (last, b.get(2..4)) {
                            (true, _) if b.len() == 2 => Ok((out, 2)),
                            (false, Some([0, 1])) => Ok((out, 4)),
                            _ => Err(HandError),
                        };
                    }
                    _ => return Err(HandError),
                }
            }
        }
    }
}

#[inline]
pub fn hand_decode_struct(b: &[u8]) -> Result<StructEvent, HandError> {
    let text = |v: Vec<u8>| String::from_utf8(v).map_err(|_| HandError);
    let (t, n) = oc_field(b, false)?;
    let (d, m) = oc_field(&b[n..], false)?;
    let (v, _) = oc_field(&b[n + m..], true)?;
    let (ts, used) = oc_varint_get(&v)?;
    if used != v.len() {
        return Err(HandError);
    }
    Ok(StructEvent {
        tenant: text(t)?,
        device: text(d)?,
        ts,
    })
}

/// Exact-size `Vec`, encoded, as `Bytes` (what `to_row_key` does, by hand).
#[inline]
pub fn hand_bytes(len: usize, f: impl FnOnce(&mut Vec<u8>)) -> Bytes {
    let mut v = Vec::with_capacity(len);
    f(&mut v);
    Bytes::from(v)
}

/// `[prefix, successor(prefix))` in one allocation, the stop row built on the stack.
#[inline]
pub fn hand_prefix_range(prefix: &[u8]) -> ScanRange {
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
pub fn hand_scan_order(seller: u64, region: Option<&str>) -> ScanRange {
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
pub fn hand_scan_salted(user: u64) -> ScanRange {
    let id = user.to_be_bytes();
    let mut p = [0u8; 9];
    p[0] = salt16(&id);
    p[1..].copy_from_slice(&id);
    hand_prefix_range(&p)
}

#[inline]
pub fn hand_scan_hashed(user: u64) -> ScanRange {
    let id = user.to_be_bytes();
    let mut p = [0u8; 12];
    p[..4].copy_from_slice(&hex4(&id));
    p[4..].copy_from_slice(&id);
    hand_prefix_range(&p)
}

/// Every `OrderKey` of `seller` whose region starts with `p`: `[seller ++ esc(p),
/// successor(seller ++ esc(p)))` (the escaped prefix without its terminator).
#[inline]
pub fn hand_scan_order_starts_with(seller: u64, p: &str) -> ScanRange {
    let mut b = [0u8; 64];
    b[..8].copy_from_slice(&seller.to_be_bytes());
    let mut w = &mut b[8..];
    hand_put_sep(p.as_bytes(), &mut w);
    // everything but the terminator
    let n = 64 - w.len() - 1;
    hand_prefix_range(&b[..n])
}

/// `[prefix ++ ts(lo), prefix ++ ts(hi))`: the keys under `prefix` with `lo <= ts < hi` (a
/// time range), the two bounds built on the stack, one allocation.
#[inline]
fn hand_prefixed_time(prefix: &[u8], lo: i64, hi: i64) -> ScanRange {
    let n = prefix.len();
    let mut start = [0u8; 32];
    start[..n].copy_from_slice(prefix);
    let mut stop = start;
    start[n..n + 8].copy_from_slice(&(lo as u64 ^ FLIP).to_be_bytes());
    stop[n..n + 8].copy_from_slice(&(hi as u64 ^ FLIP).to_be_bytes());
    ScanRange::new(&start[..n + 8], Some(&stop[..n + 8]))
}

/// One user's rows with `lo <= ts < hi`.
#[inline]
pub fn hand_scan_time(user: u64, lo: i64, hi: i64) -> ScanRange {
    hand_prefixed_time(&user.to_be_bytes(), lo, hi)
}

/// [`hand_scan_time`] behind the user's 16-bucket salt.
#[inline]
pub fn hand_scan_salted_time(user: u64, lo: i64, hi: i64) -> ScanRange {
    let id = user.to_be_bytes();
    let mut p = [0u8; 9];
    p[0] = salt16(&id);
    p[1..].copy_from_slice(&id);
    hand_prefixed_time(&p, lo, hi)
}

#[inline]
pub fn hand_fanout16() -> Vec<ScanRange> {
    let mut v = Vec::with_capacity(16);
    for s in 0..16u8 {
        v.push(ScanRange::new(&[s], Some(&[s + 1])));
    }
    v
}
