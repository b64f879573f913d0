//! `keytool`: the key tool (`rowkey::tool`, feature `tool`) for the three key types of the
//! `orders` example — one line of `main`.
//!
//! Run: `cargo run --features tool --example keytool -- --help`, e.g.
//!
//! ```text
//! cargo run --features tool --example keytool -- encode OrderBySeller seller_id=42 created_ms=1700000000000 order_no=A-17
//! cargo run --features tool --example keytool -- describe '\x0A\x00\x00\x00\x00\x00\x00\x00*\x7F\xFF\xFEv\xBC9\xE7\xFFA-17\x00'
//! cargo run --features tool --example keytool -- scan OrderBySeller seller_id=42 created_ms=1699999999000..1700000001000
//! cargo run --features tool --example keytool -- plan OrderBySeller --regions 16 --table orders_by_seller
//! cargo run --features tool --example keytool -- hotspots OrderBySeller --regions 16 --keys dump.txt --time-field created_ms --svg heat.svg
//! ```

use rowkey::RowKey;

/// Buyer's orders, newest first. md5 prefix: buyers spread evenly over regions.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderByBuyer {
    #[hash_prefix(4)]
    buyer_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// Seller's orders, newest first, in 16 salt buckets computed from seller_id.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderBySeller {
    #[salt(buckets = 16)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// The order itself, by number (point gets).
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderByNo {
    #[hash_prefix(4)]
    order_no: String,
}

fn main() {
    rowkey::tool::main::<(OrderBySeller, OrderByBuyer, OrderByNo)>()
}
