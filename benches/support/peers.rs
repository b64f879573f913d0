//! Peers: the equivalent structs, serde (memcomparable, ordcode) and storekey's derive.
//! `ts` holds `i64::MAX - ts` already (reversal done by the caller, outside the timing).

use serde::{Deserialize, Serialize};

use super::keys::*;

// `ts` holds `i64::MAX - ts` already (reversal done by the caller, outside the timing).

#[derive(
    Serialize, Deserialize, storekey::Encode, storekey::BorrowDecode, Debug, Clone, PartialEq,
)]
pub struct PeerOrderKey {
    pub seller_id: u64,
    pub region: String,
    pub ts: i64,
    pub order_no: u32,
}

#[derive(
    Serialize, Deserialize, storekey::Encode, storekey::BorrowDecode, Debug, Clone, PartialEq,
)]
pub struct PeerSimple {
    pub user_id: u64,
    pub ts: i64,
}

pub fn peer_order_key() -> PeerOrderKey {
    PeerOrderKey {
        seller_id: SELLER,
        region: REGION.into(),
        ts: i64::MAX - TS,
        order_no: ORDER_NO,
    }
}

pub fn peer_simple() -> PeerSimple {
    PeerSimple {
        user_id: USER,
        ts: TS,
    }
}

pub fn storekey_into<T: storekey::Encode>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    storekey::encode(&mut *buf, v).unwrap();
}

pub fn memcomparable_into<T: Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    let mut s = memcomparable::Serializer::new(&mut *buf);
    v.serialize(&mut s).unwrap();
}

/// ordcode's order-preserving path: exact size first, then a double-ended buffer.
pub fn ordcode_into<T: Serialize>(v: &T, buf: &mut Vec<u8>) {
    buf.clear();
    buf.resize(ordcode::calc_size_asc(v).unwrap(), 0);
    ordcode::ser_to_buf_asc_exact(buf, v).unwrap();
}
