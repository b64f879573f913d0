//! The keys of the comparison and the values every case uses.

use rowkey::RowKey;

/// `seller_id + region (escaped, 0x00-terminated) + Long.MAX_VALUE - ts + order_no`.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderKey {
    pub seller_id: u64,
    #[sep]
    pub region: String,
    #[reverse_ts]
    pub ts: i64,
    pub order_no: u32,
}

/// `user_id + ts` (sign-flipped).
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Simple {
    pub user_id: u64,
    pub ts: i64,
}

/// `Phoenix salt(user_id) + user_id + ts`, 16 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SimpleSalted {
    #[salt(buckets = 16)]
    pub user_id: u64,
    pub ts: i64,
}

/// `md5(user_id)[..4] (hex) + user_id + ts`.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SimpleHashed {
    #[hash_prefix(4)]
    pub user_id: u64,
    pub ts: i64,
}

pub const SELLER: u64 = 1_234_567;
pub const REGION: &str = "eu-west-1";
pub const TS: i64 = 1_700_000_000_000;
pub const ORDER_NO: u32 = 987_654;
pub const USER: u64 = 42_424_242;

pub fn order_key() -> OrderKey {
    OrderKey {
        seller_id: SELLER,
        region: REGION.into(),
        ts: TS,
        order_no: ORDER_NO,
    }
}
