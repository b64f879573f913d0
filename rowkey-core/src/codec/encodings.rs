//! The encodings a field's attributes select, as zero-sized types: each implements
//! [`Codec`](super::Codec) for the field types it supports.

/// The type's own order-preserving encoding: big-endian unsigned integers, sign-flipped
/// big-endian signed integers, `0x00`/`0x01` booleans, `char` as `u32`, IEEE total-order floats,
/// `[u8; N]` raw, and strings/bytes as raw content (valid only as the last field; escaped and
/// terminated when `#[desc]`).
#[derive(Debug, Clone, Copy)]
pub struct Natural;

/// HBase `Bytes.toBytes` encodings for interop with tables Java services wrote: two's-complement
/// big-endian integers, raw IEEE bits for floats, `0x00`/`0xFF` for booleans. **Negative numbers
/// sort after positive ones**, and negative floats in reverse: use it to read existing tables, not
/// for new ones.
///
/// ```
/// use rowkey::codec::{Codec, Java};
///
/// let mut buf = Vec::new();
/// <Java as Codec<i32>>::encode(&-1, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, [0xFF, 0xFF, 0xFF, 0xFF]); // Bytes.toBytes(-1): after every positive number
/// buf.clear();
/// <Java as Codec<bool>>::encode(&true, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, [0xFF]); // Bytes.toBytes(true)
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Java;

/// `#[pad(N)]` / `#[pad(N, fill = F)]`: strings and bytes right-padded with `F` to exactly `N`
/// bytes; unsigned integers as exactly `N` ASCII decimal digits (`FILL` is then 0 and unused).
///
/// Order: with the default `0x00` fill the byte order is the value order. With another fill
/// (`b' '` for interop) it is only for content bytes above the fill: `"a\x01"` sorts before
/// `"a"` under a space fill, because the shorter value is padded with `0x20`.
///
/// ```
/// use rowkey::codec::{Codec, Pad};
///
/// let mut buf = Vec::new();
/// <Pad<6, 0> as Codec<u32>>::encode(&42, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"000042"); // decimal digits, human-readable
/// buf.clear();
/// <Pad<4, b' '> as Codec<String>>::encode(&"eu".to_string(), &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"eu  ");
/// // never truncated: too long is an error
/// assert!(<Pad<4, 0> as Codec<String>>::encode(&"europe".to_string(), &mut buf, 0x00).is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Pad<const N: usize, const FILL: u8>;

/// `#[sep]`: content with `0x00` → `0x01 0x00` and `0x01` → `0x01 0x01` escaped, then a `0x00`
/// terminator. Order-preserving and prefix-free for all content; strings without `0x00`/`0x01`
/// are plain UTF-8 plus one `0x00` (readable in the HBase shell, Phoenix-compatible).
#[derive(Debug, Clone, Copy)]
pub struct Sep;

/// `#[sep(b'|')]`: content followed by the custom separator byte `S` (interop). Content containing
/// `S` is an encode error; order is preserved only for content bytes above `S`.
///
/// ```
/// use rowkey::codec::{Codec, SepByte};
///
/// let mut buf = Vec::new();
/// <SepByte<b'|'> as Codec<String>>::encode(&"web1".to_string(), &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"web1|");
/// let err = <SepByte<b'|'> as Codec<String>>::encode(&"a|b".to_string(), &mut buf, 0x00);
/// assert!(err.is_err()); // the separator inside the content
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SepByte<const S: u8>;

/// `#[reverse_ts]`: `i64::MAX - ts` as 8 bytes big-endian, byte-identical with Java
/// `Bytes.toBytes(Long.MAX_VALUE - ts)`; newest first. Timestamps must be in `0..=i64::MAX`.
///
/// ```
/// use rowkey::codec::{Codec, ReverseTs};
///
/// let enc = |ts: i64| {
///     let mut buf = Vec::new();
///     <ReverseTs as Codec<i64>>::encode(&ts, &mut buf, 0x00).map(|_| buf)
/// };
/// assert_eq!(enc(0)?, i64::MAX.to_be_bytes());
/// assert!(enc(2_000)? < enc(1_000)?); // newer sorts first
/// assert!(enc(-1).is_err());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ReverseTs;

/// `#[reverse]`: the fixed-width encoding `C` with its bytes (integers, `[u8; N]`), characters
/// (padded strings) or digits (padded unsigned integers) reversed: the fast-changing tail first.
/// Only exact-match scans are meaningful on it.
///
/// ```
/// use rowkey::codec::{Codec, Natural, Pad, Reverse};
///
/// let mut buf = Vec::new();
/// <Reverse<Natural> as Codec<u32>>::encode(&0x0102_0304, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, [4, 3, 2, 1]);
/// buf.clear();
/// <Reverse<Pad<6, 0>> as Codec<u64>>::encode(&1234, &mut buf, 0x00).unwrap();
/// assert_eq!(buf, b"432100"); // phone numbers, order ids: the fast-changing digits first
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Reverse<C>(C);

impl super::option::OptionPresence for Natural {}
impl super::option::OptionPresence for Java {}
impl<const N: usize, const FILL: u8> super::option::OptionPresence for Pad<N, FILL> {}
impl super::option::OptionPresence for Sep {}
impl<const S: u8> super::option::OptionPresence for SepByte<S> {}
impl super::option::OptionPresence for ReverseTs {}
impl<C> super::option::OptionPresence for Reverse<C> {}
