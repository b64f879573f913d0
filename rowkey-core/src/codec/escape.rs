//! Content bytes of strings and bytes: escaping (`#[sep]`: `0x00` → `0x01 0x00`, `0x01` →
//! `0x01 0x01`, with a word-at-a-time or vector search for bytes to escape), padding and
//! separated forms. Only the codecs use these helpers.

use core::mem::MaybeUninit;
use std::borrow::Cow;

use bytes::BufMut;

use super::raw::{put_masked, unmask};
use crate::bound::Edge;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

// The search for bytes to escape, a word (8 bytes) at a time: every escaping routine
// below spends its time here, so content without `0x00`/`0x01` costs one fast pass.

/// From this many bytes on, the AVX2/AVX-512 builds of the block loops are used (when the
/// CPU has them): below, the call and the feature check cost more than they save.
const AVX2_FROM: usize = 128;
// the 64-byte blocks of the AVX-512 copy need at least one whole block
const _: () = assert!(AVX2_FROM >= 64);
const LO7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HI: u64 = 0x8080_8080_8080_8080;
/// Clears bit 0 of every byte: `0x00` and `0x01` (only they) become `0x00`.
const NOT_BIT0: u64 = 0xFEFE_FEFE_FEFE_FEFE;

/// `0x80` in each byte of `w` that is `0x00` or `0x01`, `0x00` in every other byte (exact
/// per byte: no carry crosses bytes).
#[inline(always)]
fn low_flags(w: u64) -> u64 {
    let x = w & NOT_BIT0;
    // per byte: high bit of `(x & 0x7F) + 0x7F` is set iff the low 7 bits are not all zero
    !(((x & LO7).wrapping_add(LO7)) | x) & HI
}

/// Index of the first byte `b` of `c` with `b ^ mask` in `{0x00, 0x01}`.
///
/// Short content (up to 32 bytes) is read as two or four overlapping words (no byte
/// loop, no tail loop); longer content in blocks of 32 bytes tested with one branch each (a byte-wise OR the
/// compiler turns into vector compares), the exact position then taken from little-endian
/// words (the lowest flag is the first such byte), the last partial word read overlapping
/// its predecessor.
#[inline(always)]
pub fn find_low(c: &[u8], mask: u8) -> Option<usize> {
    let m = u64::from_ne_bytes([mask; 8]);
    let flags = |w: u64| low_flags(w ^ m);
    let at = |f: u64| (f.trailing_zeros() / 8) as usize;
    let n = c.len();
    if n < 8 {
        if let (Some(a), Some(b)) = (c.first_chunk::<4>(), c.last_chunk::<4>()) {
            // 4..=7 bytes: the first four and the last four, overlapping
            let w = u64::from(u32::from_le_bytes(*a)) | u64::from(u32::from_le_bytes(*b)) << 32;
            let f = flags(w);
            return (f != 0).then(|| {
                let i = at(f);
                if i < 4 {
                    i
                } else {
                    i + n - 8
                }
            });
        }
        return c.iter().position(|&b| (b ^ mask) <= 1);
    }
    if n <= 32 {
        // 8..=32 bytes: words at 0 and 8 (when n > 16), then n - 16 and n - 8, in this
        // order (each overlapping bytes already found clean); no loop
        let word = |at_: usize| {
            c.get(at_..)
                .and_then(<[u8]>::first_chunk::<8>)
                .map_or(0, |w| flags(u64::from_le_bytes(*w)))
        };
        let (offsets, k) = if n <= 16 {
            ([0, n - 8, 0, 0], 2)
        } else {
            ([0, 8, n - 16, n - 8], 4)
        };
        return offsets.into_iter().take(k).find_map(|o| {
            let f = word(o);
            (f != 0).then(|| o + at(f))
        });
    }
    let (blocks, rest) = c.as_chunks::<32>();
    if let Some(k) = first_low_block(blocks, mask) {
        let (ws, _) = blocks.get(k)?.as_chunks::<8>();
        return ws.iter().enumerate().find_map(|(j, w)| {
            let f = flags(u64::from_le_bytes(*w));
            (f != 0).then(|| k * 32 + j * 8 + at(f))
        });
    }
    let base = n - rest.len();
    let (ws, tail) = rest.as_chunks::<8>();
    for (j, w) in ws.iter().enumerate() {
        let f = flags(u64::from_le_bytes(*w));
        if f != 0 {
            return Some(base + j * 8 + at(f));
        }
    }
    if tail.is_empty() {
        return None;
    }
    // the last word, overlapping bytes already found clean
    let f = flags(u64::from_le_bytes(*c.last_chunk::<8>()?));
    (f != 0).then(|| n - 8 + at(f))
}

/// Whether the byte-wise test of a 32-byte block finds `0x00`/`0x01` (after `^ mask`): a
/// loop the compiler turns into vector compares and ORs.
#[inline(always)]
fn block_low(b: &[u8; 32], mask: u8) -> bool {
    b.iter().fold(0u8, |a, &x| a | u8::from((x ^ mask) <= 1)) != 0
}

/// Index of the first block holding a byte `b` with `b ^ mask` in `{0x00, 0x01}`: with
/// AVX2 when the CPU has it and there are `AVX2_FROM` bytes or more (one 32-byte compare per
/// block instead of two 16-byte ones).
#[inline(always)]
fn first_low_block(blocks: &[[u8; 32]], mask: u8) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if blocks.len() >= AVX2_FROM / 32 && std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { first_low_block_avx2(blocks, mask) };
    }
    first_low_block_portable(blocks, mask)
}

/// The loop of [`first_low_block`] (a plain loop: `Iterator::position` may stay a call).
#[inline(always)]
fn first_low_block_portable(blocks: &[[u8; 32]], mask: u8) -> Option<usize> {
    for (k, b) in blocks.iter().enumerate() {
        if block_low(b, mask) {
            return Some(k);
        }
    }
    None
}

/// [`first_low_block`] compiled for AVX2 (the same portable code).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn first_low_block_avx2(blocks: &[[u8; 32]], mask: u8) -> Option<usize> {
    first_low_block_portable(blocks, mask)
}

/// Number of bytes `0x00`/`0x01` in `c` (each costs one escape byte).
#[inline(always)]
pub fn escapes(c: &[u8]) -> usize {
    if any_low(c) {
        escapes_from(c)
    } else {
        0
    }
}

/// Whether `c` holds a `0x00`/`0x01`: [`find_low`] without the position, so without a
/// branch per word or block (an OR of all the flags, tested once).
#[inline(always)]
fn any_low(c: &[u8]) -> bool {
    let word = |w: &[u8; 8]| low_flags(u64::from_ne_bytes(*w));
    let n = c.len();
    if n < 8 {
        return find_low(c, 0).is_some();
    }
    if n <= 32 {
        // words at 0, n - 8 and, beyond 16 bytes, 8 and n - 16
        let at = |o: usize| {
            c.get(o..)
                .and_then(<[u8]>::first_chunk::<8>)
                .map_or(0, word)
        };
        let mut f = at(0) | at(n - 8);
        if n > 16 {
            f |= at(8) | at(n - 16);
        }
        return f != 0;
    }
    #[cfg(target_arch = "x86_64")]
    if n >= AVX2_FROM {
        if std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU supports AVX-512BW, checked just above.
            return unsafe { any_low_blocks_avx512(c) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { any_low_blocks_avx2(c) };
        }
    }
    any_low_blocks(c)
}

/// [`any_low`] over 32-byte blocks (more than 32 bytes), the last one overlapping.
#[inline(never)]
fn any_low_blocks(c: &[u8]) -> bool {
    any_low_blocks_inline::<32>(c)
}

/// Blocks folded into a lane-wise minimum (one vector min per block once compiled), tested
/// for a byte `≤ 0x01` once, at the end.
#[inline(always)]
fn any_low_blocks_inline<const N: usize>(c: &[u8]) -> bool {
    let (blocks, tail) = c.as_chunks::<N>();
    let mut min = [u8::MAX; N];
    for b in blocks {
        fold_min(&mut min, b);
    }
    if !tail.is_empty() {
        if let Some(b) = c.last_chunk::<N>() {
            fold_min(&mut min, b);
        }
    }
    any_low_lane(&min)
}

/// [`any_low_blocks`] compiled for AVX-512BW, in 64-byte blocks (the same portable code).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512bw")]
fn any_low_blocks_avx512(c: &[u8]) -> bool {
    any_low_blocks_inline::<64>(c)
}

/// `min = min(min, b)` lane by lane (one vector min once compiled).
#[inline(always)]
fn fold_min<const N: usize>(min: &mut [u8; N], b: &[u8; N]) {
    for (m, &x) in min.iter_mut().zip(b) {
        *m = (*m).min(x);
    }
}

/// Whether a lane of the minimum is `0x00`/`0x01`: some folded byte needs escaping.
#[inline(always)]
fn any_low_lane<const N: usize>(min: &[u8; N]) -> bool {
    min.iter().fold(0u8, |a, &m| a | u8::from(m <= 1)) != 0
}

/// [`any_low_blocks`] compiled for AVX2 (the same portable code).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn any_low_blocks_avx2(c: &[u8]) -> bool {
    any_low_blocks_inline::<32>(c)
}

/// The count of [`escapes`] once one is known to exist (rare: out of line).
#[cold]
#[inline(never)]
fn escapes_from(c: &[u8]) -> usize {
    c.iter().filter(|&&b| b <= 1).count()
}

/// Escaped length of `c`, terminator included.
#[inline(always)]
pub fn escaped_len(c: &[u8]) -> usize {
    c.len() + escapes(c) + 1
}

/// Write `c` escaped (`0x00` → `0x01 0x00`, `0x01` → `0x01 0x01`), without terminator.
///
/// Ascending content of 8 bytes or more is copied and tested in one pass
/// (`put_plain`); the search runs separately only when that finds a byte to escape, the
/// content is shorter or descending, or the buffer has no room in its current chunk.
#[inline(always)]
pub fn put_escaped<B: BufMut>(c: &[u8], buf: &mut B, mask: u8) {
    if mask == 0 && c.len() >= 8 && put_plain(c, buf) {
        return;
    }
    put_escaped_search(c, buf, mask);
}

/// [`put_escaped`] by searching first (short or descending content, or a byte to escape
/// found by the one-pass copy): out of line, so that the inlined fast path stays small.
#[inline(never)]
fn put_escaped_search<B: BufMut>(c: &[u8], buf: &mut B, mask: u8) {
    match find_low(c, 0) {
        None => put_masked(buf, c, mask),
        Some(i) => put_escaped_from(c, i, buf, mask),
    }
}

/// Copy `c` (8 bytes or more) into `buf` and test it for bytes to escape in the same pass;
/// `true` if there were none (`c` is written), `false` if there were or `buf`'s current
/// chunk is shorter than `c` (then nothing is written).
#[inline(always)]
fn put_plain<B: BufMut>(c: &[u8], buf: &mut B) -> bool {
    let n = c.len();
    let chunk = buf.chunk_mut();
    if chunk.len() < n {
        return false;
    }
    // SAFETY: only initialized bytes (copies of `c`) are written through this slice.
    let dst = unsafe { chunk.as_uninit_slice_mut() };
    let Some(dst) = dst.get_mut(..n) else {
        return false;
    };
    if !copy_plain(c, dst) {
        return false;
    }
    // SAFETY: `copy_plain` initialized all `n` bytes of `dst`, the start of `chunk_mut()`.
    unsafe { buf.advance_mut(n) };
    true
}

/// Copy `src` into `dst` (same length, 8 or more) and tell whether no byte is
/// `0x00`/`0x01`. Up to 32 bytes: words, the last one overlapping its predecessor; longer:
/// blocks (a copy and a byte-wise test the compiler vectorizes), the last one overlapping:
/// 32 bytes (SSE2), or from `AVX2_FROM` bytes on 64 bytes with AVX-512BW or 32 with AVX2
/// when the CPU has them.
#[inline(always)]
fn copy_plain(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
    if src.len() <= 32 {
        return copy_plain_words(src, dst);
    }
    #[cfg(target_arch = "x86_64")]
    if src.len() >= AVX2_FROM {
        if std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU supports AVX-512BW, checked just above.
            return unsafe { copy_plain_blocks_avx512(src, dst) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { copy_plain_blocks_avx2(src, dst) };
        }
    }
    copy_plain_blocks::<32, 1>(src, dst)
}

/// 8..=32 bytes: two (up to 16 bytes) or four words, the last ones overlapping their
/// predecessors; no loop.
#[inline(always)]
fn copy_plain_words(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
    fn half<const N: usize>(
        src: &[u8],
        dst: &mut [MaybeUninit<u8>],
        flag: impl Fn(&[u8; N]) -> u64,
    ) -> u64 {
        let mut flags = 0;
        if let (Some(d), Some(s)) = (dst.first_chunk_mut::<N>(), src.first_chunk::<N>()) {
            put_array(d, s);
            flags |= flag(s);
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
            put_array(d, s);
            flags |= flag(s);
        }
        flags
    }
    let word = |s: &[u8; 8]| low_flags(u64::from_ne_bytes(*s));
    let flags = if src.len() <= 16 {
        half::<8>(src, dst, word)
    } else {
        half::<16>(src, dst, |s: &[u8; 16]| {
            let (a, b) = s.split_at(8);
            a.as_chunks::<8>()
                .0
                .iter()
                .chain(b.as_chunks::<8>().0)
                .fold(0, |f, w| f | word(w))
        })
    };
    flags == 0
}

/// Blocks of `N` bytes, `G` at a time: each copied whole and folded into a lane-wise minimum
/// (one vector min per block once compiled), the last one overlapping its predecessor; the
/// minimum is tested for a byte `≤ 0x01` once, at the end.
#[inline(always)]
fn copy_plain_blocks<const N: usize, const G: usize>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> bool {
    // Every byte of `dst` must be written before `true` is returned (the caller then
    // advances the buffer over them): only whole blocks, the last one overlapping, cover it.
    if src.len() < N || dst.len() != src.len() {
        return false;
    }
    let block = |d: &mut [MaybeUninit<u8>; N], s: &[u8; N], min: &mut [u8; N]| {
        let v = *s;
        put_array(d, &v);
        fold_min(min, &v);
    };
    let mut min = [u8::MAX; N];
    let (sb, tail) = src.as_chunks::<N>();
    let (db, _) = dst.as_chunks_mut::<N>();
    // `G` blocks at a time, all loaded before any is stored (as `memcpy` does). The wide
    // builds use 2: with one load and one store per block, 256 bytes measured up to 1.6×
    // `memcpy` on Zen 3, 1.1–1.2× grouped (A/B in one binary); the inline 32-byte path keeps 1
    // (grouped, 64 bytes measured slower there)
    let (sg, s_rest) = sb.as_chunks::<G>();
    let (dg, d_rest) = db.as_chunks_mut::<G>();
    for (d, s) in dg.iter_mut().zip(sg) {
        let v: [[u8; N]; G] = *s;
        for (d, v) in d.iter_mut().zip(&v) {
            put_array(d, v);
            fold_min(&mut min, v);
        }
    }
    for (d, s) in d_rest.iter_mut().zip(s_rest) {
        block(d, s, &mut min);
    }
    if !tail.is_empty() {
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
            block(d, s, &mut min);
        }
    }
    !any_low_lane(&min)
}

/// `d = s` (one vector or word store once compiled).
#[inline(always)]
fn put_array<const N: usize>(d: &mut [MaybeUninit<u8>; N], s: &[u8; N]) {
    for (d, &s) in d.iter_mut().zip(s) {
        d.write(s);
    }
}

/// [`copy_plain_blocks`] compiled for AVX2 (the same portable code).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn copy_plain_blocks_avx2(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
    copy_plain_blocks::<32, 2>(src, dst)
}

/// [`copy_plain_blocks`] compiled for AVX-512BW, in 64-byte blocks (the same portable code).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512bw")]
fn copy_plain_blocks_avx512(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> bool {
    copy_plain_blocks::<64, 2>(src, dst)
}

/// [`put_escaped`] once the first byte to escape, at `i`, is known.
#[inline(never)]
fn put_escaped_from<B: BufMut>(c: &[u8], mut i: usize, buf: &mut B, mask: u8) {
    let mut rest = c;
    loop {
        let (run, tail) = rest.split_at_checked(i).unwrap_or((rest, &[]));
        let Some((&b, after)) = tail.split_first() else {
            put_masked(buf, rest, mask);
            return;
        };
        put_masked(buf, run, mask);
        buf.put_slice(&[1 ^ mask, b ^ mask]);
        rest = after;
        match find_low(rest, 0) {
            Some(j) => i = j,
            None => {
                put_masked(buf, rest, mask);
                return;
            }
        }
    }
}

/// Read escaped content up to and including its `0x00` terminator.
#[inline(always)]
pub fn get_escaped(input: &[u8], mask: u8) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
    let Some(i) = find_low(input, mask) else {
        return Err(DecodeError::new(
            DecodeErrorKind::MissingTerminator,
            input.len(),
        ));
    };
    match input.get(i).map(|b| b ^ mask) {
        Some(0) => {
            let run = input.get(..i).unwrap_or_default();
            let c = if mask == 0 {
                Cow::Borrowed(run)
            } else {
                Cow::Owned(unmask(run, mask))
            };
            Ok((c, i + 1))
        }
        _ => get_escaped_from(input, i, mask),
    }
}

/// [`get_escaped`] once the first escape byte, at `i`, is known: runs between escapes are
/// copied whole.
#[inline(never)]
fn get_escaped_from(
    input: &[u8],
    mut pos: usize,
    mask: u8,
) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
    let mut out = Vec::with_capacity(input.len());
    out.extend(
        input
            .get(..pos)
            .unwrap_or_default()
            .iter()
            .map(|b| b ^ mask),
    );
    loop {
        // `pos` is at a byte that is 0x00 or 0x01 after unmasking
        let Some(&b) = input.get(pos) else {
            return Err(DecodeError::new(DecodeErrorKind::MissingTerminator, pos));
        };
        if b ^ mask == 0 {
            return Ok((Cow::Owned(out), pos + 1));
        }
        match input.get(pos + 1).map(|e| e ^ mask) {
            Some(e @ (0 | 1)) => out.push(e),
            Some(e) => {
                return Err(DecodeError::new(
                    DecodeErrorKind::InvalidByte {
                        byte: e ^ mask,
                        expected: "an escaped 0x00 or 0x01 after the escape byte 0x01",
                    },
                    pos + 1,
                ))
            }
            None => {
                return Err(DecodeError::new(
                    DecodeErrorKind::MissingTerminator,
                    pos + 1,
                ))
            }
        }
        pos += 2;
        let rest = input.get(pos..).unwrap_or_default();
        let Some(j) = find_low(rest, mask) else {
            return Err(DecodeError::new(
                DecodeErrorKind::MissingTerminator,
                input.len(),
            ));
        };
        out.extend(rest.get(..j).unwrap_or_default().iter().map(|b| b ^ mask));
        pos += j;
    }
}

/// Check pad constraints and write `c` padded to `n` with `fill`.
#[inline]
pub fn put_padded<B: BufMut>(
    c: &[u8],
    n: usize,
    fill: u8,
    buf: &mut B,
    mask: u8,
) -> Result<(), EncodeError> {
    check_pad(c, n, fill)?;
    put_masked(buf, c, mask);
    buf.put_bytes(fill ^ mask, n - c.len());
    Ok(())
}

/// Pad constraints: fits, and does not end with the fill byte.
#[inline]
pub fn check_pad(c: &[u8], n: usize, fill: u8) -> Result<(), EncodeError> {
    if c.len() > n {
        return Err(EncodeError::new(
            "",
            EncodeErrorKind::TooLong {
                len: c.len(),
                max: n,
            },
        ));
    }
    if c.last() == Some(&fill) {
        return Err(EncodeError::new("", EncodeErrorKind::EndsWithFill { fill }));
    }
    Ok(())
}

/// [`Codec::bound_into`] for padded content: a bound longer than `n`, or ending in the fill
/// byte, is not a value; over the values that exist (at most `n` bytes, not ending in `fill`),
/// `v >= b` ⇔ `v > s` and `v <= b` ⇔ `v <= s`, where `s` is `b` cut to `n` bytes and
/// stripped of trailing fill bytes (exact for the order-preserving fill `0x00`). The `n`
/// bytes are appended to `out`.
pub fn pad_bound(
    c: &[u8],
    n: usize,
    fill: u8,
    mask: u8,
    upper: bool,
    inclusive: bool,
    out: &mut Vec<u8>,
) -> Edge {
    let cut = c.get(..n).unwrap_or(c);
    let keep = cut.iter().rposition(|&b| b != fill).map_or(0, |i| i + 1);
    let stripped = cut.get(..keep).unwrap_or_default();
    out.reserve(n);
    if stripped.len() == c.len() {
        // a value: encode as is
        put_masked(out, c, mask);
        out.put_bytes(fill ^ mask, n - c.len());
        return Edge::At { inclusive };
    }
    put_masked(out, stripped, mask);
    out.put_bytes(fill ^ mask, n - stripped.len());
    Edge::At { inclusive: upper }
}

/// Read `n` padded bytes; the content is what precedes the trailing fill bytes.
pub fn get_padded(
    input: &[u8],
    n: usize,
    fill: u8,
    mask: u8,
) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
    let Some(field) = input.get(..n) else {
        return Err(DecodeError::truncated(
            input.len(),
            n - input.len(),
            input.len(),
        ));
    };
    let end = field
        .iter()
        .rposition(|&b| b ^ mask != fill)
        .map_or(0, |i| i + 1);
    let content = field.get(..end).unwrap_or_default();
    let c = if mask == 0 {
        Cow::Borrowed(content)
    } else {
        Cow::Owned(unmask(content, mask))
    };
    Ok((c, n))
}

/// Write content followed by a custom separator byte.
#[inline]
pub fn put_separated<B: BufMut>(
    c: &[u8],
    sep: u8,
    buf: &mut B,
    mask: u8,
) -> Result<(), EncodeError> {
    if let Some(at) = c.iter().position(|&b| b == sep) {
        return Err(EncodeError::new(
            "",
            EncodeErrorKind::ContainsSeparator { sep, at },
        ));
    }
    put_masked(buf, c, mask);
    buf.put_u8(sep ^ mask);
    Ok(())
}

/// Read content up to a custom separator byte.
pub fn get_separated(
    input: &[u8],
    sep: u8,
    mask: u8,
) -> Result<(Cow<'_, [u8]>, usize), DecodeError> {
    match input.iter().position(|&b| b ^ mask == sep) {
        None => Err(DecodeError::new(
            DecodeErrorKind::MissingTerminator,
            input.len(),
        )),
        Some(i) => {
            let content = input.get(..i).unwrap_or_default();
            let c = if mask == 0 {
                Cow::Borrowed(content)
            } else {
                Cow::Owned(unmask(content, mask))
            };
            Ok((c, i + 1))
        }
    }
}

/// Reverse content: characters for text, bytes otherwise. Returns `None` for text that is
/// not UTF-8.
pub fn reversed(c: &[u8], text: bool) -> Option<Vec<u8>> {
    if text {
        let s = core::str::from_utf8(c).ok()?;
        let mut out = String::with_capacity(s.len());
        out.extend(s.chars().rev());
        Some(out.into_bytes())
    } else {
        let mut v = c.to_vec();
        v.reverse();
        Some(v)
    }
}
