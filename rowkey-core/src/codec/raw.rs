//! The byte-level steps the codecs share: a fixed-width read, masked writes and reads, the
//! boolean byte.

use bytes::BufMut;

use crate::error::{DecodeError, DecodeErrorKind};

#[inline(always)]
pub(super) fn take<const W: usize>(input: &[u8]) -> Result<[u8; W], DecodeError> {
    match input.first_chunk::<W>() {
        Some(a) => Ok(*a),
        None => Err(DecodeError::truncated(
            input.len(),
            W - input.len(),
            input.len(),
        )),
    }
}

#[inline(always)]
pub(super) fn put_masked<B: BufMut>(buf: &mut B, bytes: &[u8], mask: u8) {
    if mask == 0 {
        buf.put_slice(bytes);
    } else {
        let mut tmp = [0u8; 64];
        for chunk in bytes.chunks(64) {
            if let Some(t) = tmp.get_mut(..chunk.len()) {
                for (d, s) in t.iter_mut().zip(chunk) {
                    *d = s ^ mask;
                }
                buf.put_slice(t);
            }
        }
    }
}

pub(super) fn unmask(bytes: &[u8], mask: u8) -> Vec<u8> {
    bytes.iter().map(|b| b ^ mask).collect()
}

/// The most a per-thread encoding buffer (a trimming key's, a Phoenix column's scratch) keeps
/// between keys: what an ordinary key needs, not what a thread's longest one did (HBase's row
/// keys stop at 32 KiB).
const SCRATCH_KEEP: usize = 64 * 1024;

/// A buffer a thread keeps for encoding (declare one with `thread_local!` and
/// `ScratchBuf::new()`), used through [`with_scratch`].
pub(crate) type ScratchBuf = core::cell::RefCell<Vec<u8>>;

/// `f` of the thread's buffer `key`, emptied — or of a new buffer when that one is in use (a
/// value type's code that encodes a key of its own inside `f`) or the thread is ending: never a
/// `RefCell` panic. Afterwards the thread keeps at most [`SCRATCH_KEEP`] bytes of it.
#[inline]
pub(crate) fn with_scratch<R>(
    key: &'static std::thread::LocalKey<ScratchBuf>,
    mut f: impl FnMut(&mut Vec<u8>) -> R,
) -> R {
    key.try_with(|s| match s.try_borrow_mut() {
        Ok(mut out) => {
            out.clear();
            let r = f(&mut out);
            if out.capacity() > SCRATCH_KEEP {
                *out = Vec::new();
            }
            r
        }
        Err(_) => f(&mut Vec::new()),
    })
    .unwrap_or_else(|_| f(&mut Vec::new()))
}

/// What the one-byte decoders expect: an `InvalidByte` error with one of these is decided by
/// its byte alone (and the bytes before it), so every key starting with the bytes up to it is
/// invalid too (what minimal scan ranges skip by).
pub(crate) const ONE_BYTE_EXPECTED: [&str; 3] = [
    PRESENCE_EXPECTED,
    "a boolean 0x00 or 0x01",
    "a Java boolean 0x00 or 0xFF",
];

/// The `expected` of an invalid `Option` presence byte.
pub(crate) const PRESENCE_EXPECTED: &str = "an Option presence byte 0x00 or 0x01";

/// A boolean byte: `0x00` false, `truth` true, anything else an error.
#[inline(always)]
pub(super) fn decode_bool(
    input: &[u8],
    mask: u8,
    truth: u8,
    expected: &'static str,
) -> Result<(bool, usize), DecodeError> {
    let [b] = take::<1>(input)?;
    match b ^ mask {
        0x00 => Ok((false, 1)),
        t if t == truth => Ok((true, 1)),
        _ => Err(DecodeError::new(
            DecodeErrorKind::InvalidByte { byte: b, expected },
            0,
        )),
    }
}
