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

/// An Apache Phoenix primary key `(TENANT VARCHAR, DEVICE VARCHAR, TS BIGINT)`: each VARCHAR
/// then a `0x00` separator, `TS` 8 bytes big-endian with the sign bit flipped.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
pub struct PhoenixEvent {
    pub tenant: String,
    pub device: String,
    pub ts: i64,
}

/// A Bigtable struct key (`Type.Struct`, `OrderedCodeBytes`): each field with `0x00` escaped as
/// `0x00 0xFF`, fields joined by `0x00 0x01`, `ts` an orderedcode signed varint.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(ordered_code))]
pub struct StructEvent {
    pub tenant: String,
    pub device: String,
    pub ts: i64,
}

pub const TENANT: &str = "acme-industries";
pub const DEVICE: &str = "sensor-0042-eu-west";

pub const SELLER: u64 = 1_234_567;
pub const REGION: &str = "eu-west-1";
pub const TS: i64 = 1_700_000_000_000;
pub const ORDER_NO: u32 = 987_654;
pub const USER: u64 = 42_424_242;

/// Row `i` of the merge and read inputs: `rows_per_user` consecutive rows per user (a time
/// series; user ids spread by a multiplicative hash), timestamps cycling over 1000 ms.
pub fn series_key(i: u64, rows_per_user: u64) -> SimpleSalted {
    SimpleSalted {
        user_id: (i / rows_per_user).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40,
        ts: TS + (i % 1000) as i64,
    }
}

pub fn order_key() -> OrderKey {
    OrderKey {
        seller_id: SELLER,
        region: REGION.into(),
        ts: TS,
        order_no: ORDER_NO,
    }
}

/// The `OrderKey` cases: `eu-west-1` (9 bytes) and 64- and 256-byte regions (ASCII, nothing to
/// escape), by case-name prefix.
pub const ORDER_KEYS: [(&str, usize); 3] =
    [("OrderKey", 9), ("OrderKey64", 64), ("OrderKey256", 256)];

/// An `OrderKey` whose region has `len` bytes (`REGION` itself for 9), none of them `0x00`/`0x01`.
pub fn order_key_len(len: usize) -> OrderKey {
    let region = if len == REGION.len() {
        REGION.to_owned()
    } else {
        let mut s = String::with_capacity(len + 10);
        while s.len() < len {
            s.push_str("eu-west-1/");
        }
        s.truncate(len);
        s
    };
    OrderKey {
        region,
        ..order_key()
    }
}

pub fn phoenix_event() -> PhoenixEvent {
    PhoenixEvent {
        tenant: TENANT.into(),
        device: DEVICE.into(),
        ts: TS,
    }
}

pub fn struct_event() -> StructEvent {
    StructEvent {
        tenant: TENANT.into(),
        device: DEVICE.into(),
        ts: TS,
    }
}
