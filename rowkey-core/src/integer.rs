//! The integer types a field can be: the conversions `#[reverse_ts]`, `#[pad]` decimal, modulo
//! salts and scans need. A leaf: the codecs and the salt both use it (re-exported as
//! [`crate::codec::Integer`]).

/// Integer types: conversions used by `#[reverse_ts]`, `#[pad]` decimal and `#[hash_prefix]`.
pub trait Integer: Copy {
    /// Byte width.
    const WIDTH: usize;
    /// Whether it is unsigned.
    const UNSIGNED: bool;
    /// Widen.
    fn to_i128(self) -> Option<i128>;
    /// Widen an unsigned value.
    fn to_u128(self) -> Option<u128>;
    /// Narrow, if it fits.
    fn from_i128(v: i128) -> Option<Self>;
    /// Narrow, if it fits.
    fn from_u128(v: u128) -> Option<Self>;
}

macro_rules! integers {
    ($($t:ty, $w:expr, $signed:expr);* $(;)?) => {$(
        impl Integer for $t {
            const WIDTH: usize = $w;
            const UNSIGNED: bool = !$signed;
            #[inline(always)]
            fn to_i128(self) -> Option<i128> { i128::try_from(self).ok() }
            #[inline(always)]
            fn to_u128(self) -> Option<u128> { u128::try_from(self).ok() }
            #[inline(always)]
            fn from_i128(v: i128) -> Option<Self> { <$t>::try_from(v).ok() }
            #[inline(always)]
            fn from_u128(v: u128) -> Option<Self> { <$t>::try_from(v).ok() }
        }
    )*};
}
integers! {
    u8, 1, false; u16, 2, false; u32, 4, false; u64, 8, false; u128, 16, false;
    i8, 1, true; i16, 2, true; i32, 4, true; i64, 8, true; i128, 16, true;
}
