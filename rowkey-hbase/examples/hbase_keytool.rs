//! rowkey's key tool with the live HBase command `visualize`, for the orders example's key
//! types:
//!
//! ```sh
//! cargo run -p rowkey-hbase --example hbase_keytool -- visualize OrderBySeller \
//!     --gateway gw:9090 --table orders_by_seller --metrics http://rs1:16030,http://rs2:16030 \
//!     --seconds 120 --every 5 --html orders.html
//! cargo run -p rowkey-hbase --example hbase_keytool -- describe --hex 05000000000000002a…
//! ```

use rowkey::RowKey;

/// Orders of a seller, newest first.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderBySeller {
    #[salt(buckets = 16)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// The order itself, by number.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderByNo {
    #[hash_prefix(4)]
    order_no: String,
}

fn main() {
    rowkey_hbase::keytool::main::<(OrderBySeller, OrderByNo)>()
}
