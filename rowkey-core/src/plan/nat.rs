//! Exact unsigned arithmetic on big-endian byte strings (the `BigInteger` of HBase's
//! `RegionSplitter`), so that every width is exact, not only the default ones.

use std::cmp::Ordering;

/// An unsigned integer as big-endian bytes without leading zero bytes (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Nat(pub(super) Vec<u8>);

impl Nat {
    pub(super) fn zero() -> Self {
        Nat(Vec::new())
    }

    pub(super) fn from_be_bytes(bytes: &[u8]) -> Self {
        let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
        Nat(bytes.get(start..).unwrap_or_default().to_vec())
    }

    pub(super) fn from_u128(v: u128) -> Self {
        Nat::from_be_bytes(&v.to_be_bytes())
    }

    pub(super) fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn normalize(mut self) -> Self {
        let start = self.0.iter().position(|&b| b != 0).unwrap_or(self.0.len());
        self.0.drain(..start);
        self
    }

    /// `self * m + a`.
    pub(super) fn mul_add_small(&self, m: u64, a: u64) -> Self {
        let mut out = Vec::with_capacity(self.0.len() + 9);
        let mut carry = u128::from(a);
        for &b in self.0.iter().rev() {
            let v = u128::from(b) * u128::from(m) + carry;
            out.push((v & 0xFF) as u8);
            carry = v >> 8;
        }
        while carry > 0 {
            out.push((carry & 0xFF) as u8);
            carry >>= 8;
        }
        out.reverse();
        Nat(out).normalize()
    }

    /// `(self / d, self % d)`; `d` must not be zero.
    pub(super) fn div_rem_small(&self, d: u64) -> (Self, u64) {
        let d = u128::from(d.max(1));
        let mut q = Vec::with_capacity(self.0.len());
        let mut rem: u128 = 0;
        for &b in &self.0 {
            let cur = (rem << 8) | u128::from(b);
            q.push((cur / d) as u8);
            rem = cur % d;
        }
        (Nat(q).normalize(), rem as u64)
    }

    pub(super) fn add(&self, other: &Nat) -> Self {
        let (a, b) = (&self.0, &other.0);
        let len = a.len().max(b.len());
        let mut out = Vec::with_capacity(len + 1);
        let mut carry = 0u16;
        for i in 0..len {
            let x = a.len().checked_sub(i + 1).and_then(|j| a.get(j)).copied();
            let y = b.len().checked_sub(i + 1).and_then(|j| b.get(j)).copied();
            let v = u16::from(x.unwrap_or(0)) + u16::from(y.unwrap_or(0)) + carry;
            out.push((v & 0xFF) as u8);
            carry = v >> 8;
        }
        if carry > 0 {
            out.push(carry as u8);
        }
        out.reverse();
        Nat(out).normalize()
    }

    /// `self - other`, or `None` when `other > self`.
    pub(super) fn checked_sub(&self, other: &Nat) -> Option<Self> {
        if *self < *other {
            return None;
        }
        let (a, b) = (&self.0, &other.0);
        let mut out = Vec::with_capacity(a.len());
        let mut borrow = 0i16;
        for i in 0..a.len() {
            let x = a.len().checked_sub(i + 1).and_then(|j| a.get(j)).copied();
            let y = b.len().checked_sub(i + 1).and_then(|j| b.get(j)).copied();
            let mut v = i16::from(x.unwrap_or(0)) - i16::from(y.unwrap_or(0)) - borrow;
            borrow = 0;
            if v < 0 {
                v += 256;
                borrow = 1;
            }
            out.push(v as u8);
        }
        out.reverse();
        Some(Nat(out).normalize())
    }

    pub(super) fn parse_radix(s: &str, radix: u32) -> Option<Self> {
        if s.is_empty() {
            return None;
        }
        let mut n = Nat::zero();
        for c in s.chars() {
            n = n.mul_add_small(u64::from(radix), u64::from(c.to_digit(radix)?));
        }
        Some(n)
    }

    /// Lowercase digits, as Java `BigInteger.toString(radix)`.
    pub(super) fn to_radix_string(&self, radix: u32) -> String {
        if self.is_zero() {
            return "0".to_owned();
        }
        let mut digits = Vec::new();
        let mut n = self.clone();
        while !n.is_zero() {
            let (q, r) = n.div_rem_small(u64::from(radix));
            digits.push(char::from_digit(r as u32, radix).unwrap_or('0'));
            n = q;
        }
        digits.iter().rev().collect()
    }

    /// Big-endian bytes left-padded with zeros to `len` (never truncated).
    pub(super) fn to_be_padded(&self, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len.saturating_sub(self.0.len())];
        out.extend_from_slice(&self.0);
        out
    }
}

impl PartialOrd for Nat {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Nat {
    fn cmp(&self, other: &Self) -> Ordering {
        // Normalized: a longer number is larger; equal lengths compare bytewise.
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.cmp(&other.0))
    }
}
