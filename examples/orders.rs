//! `orders`: one order written under three keys — by buyer, by seller, by order number — as
//! three tables (the usual secondary-index layout with dual writes), and a query per dimension.
//! Then the same tables as `rowkey::index` index tables: maintained on every put, update and
//! delete in a crash-safe order, read with verification, and scrubbed after a simulated crash.
//!
//! Run: `cargo run --example orders`

mod support;

use redb::Database;
use rowkey::index::{Index, IndexBatch, Indexed, Record, RecordError};
use rowkey::store::{RedbStore, Store as _, Write};
use rowkey::RowKey;
use support::Store;

/// Buyer's orders, newest first. md5 prefix: buyers spread evenly over regions.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderByBuyer {
    #[hash_prefix(4)]
    buyer_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// Seller's orders, newest first. 16 salt buckets computed from seller_id: a seller's orders
/// are in one bucket (one range to scan), big sellers do not pile onto one region.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderBySeller {
    #[salt(buckets = 16)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// The order itself, by number (point gets).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderByNo {
    #[hash_prefix(4)]
    order_no: String,
}

#[derive(Debug, Clone, PartialEq)]
struct Order {
    order_no: String,
    buyer_id: u64,
    seller_id: u64,
    created_ms: i64,
    amount_cents: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (by_buyer, by_seller, by_no) = (
        Store::temp("orders-buyer")?,
        Store::temp("orders-seller")?,
        Store::temp("orders-no")?,
    );
    let orders: Vec<Order> = (0..3_000u64)
        .map(|i| Order {
            order_no: format!("O-{:06}", i * 7919 % 1_000_000),
            buyer_id: 1 + i % 97,
            seller_id: 1 + (i * 13) % 20,
            created_ms: 1_700_000_000_000 + (i as i64) * 30_000,
            amount_cents: 100 + (i * 37) % 10_000,
        })
        .collect();

    // Dual (here: triple) writes: the same order under each key. The by-number table holds the
    // record; the index tables point to it.
    let mut b = Vec::new();
    let mut s = Vec::new();
    let mut n = Vec::new();
    for o in &orders {
        b.push((
            OrderByBuyer {
                buyer_id: o.buyer_id,
                created_ms: o.created_ms,
                order_no: o.order_no.clone(),
            }
            .to_row_key()?,
            Vec::new(),
        ));
        s.push((
            OrderBySeller {
                seller_id: o.seller_id,
                created_ms: o.created_ms,
                order_no: o.order_no.clone(),
            }
            .to_row_key()?,
            Vec::new(),
        ));
        n.push((
            OrderByNo {
                order_no: o.order_no.clone(),
            }
            .to_row_key()?,
            format!(
                "{}|{}|{}|{}",
                o.buyer_id, o.seller_id, o.created_ms, o.amount_cents
            )
            .into_bytes(),
        ));
    }
    by_buyer.put_all(b)?;
    by_seller.put_all(s)?;
    by_no.put_all(n)?;
    println!("wrote {} orders under 3 keys each", orders.len());

    // 1. a buyer's 5 latest orders
    let rows = by_buyer.scan_each(&OrderByBuyer::scan().buyer_id(42).ranges())?;
    let latest: Vec<OrderByBuyer> = rows
        .iter()
        .flatten()
        .take(5)
        .map(|(k, _)| OrderByBuyer::from_row_key(k))
        .collect::<Result<_, _>>()?;
    println!(
        "buyer 42: {} orders; latest: {:?}",
        rows.iter().flatten().count(),
        latest.iter().map(|o| &o.order_no).collect::<Vec<_>>()
    );
    assert_eq!(
        rows.iter().flatten().count(),
        orders.iter().filter(|o| o.buyer_id == 42).count()
    );

    // 2. a seller's orders in a time window: one range, because the salt is computed from seller_id
    let (t0, t1) = (
        1_700_000_000_000 + 10_000_000,
        1_700_000_000_000 + 20_000_000,
    );
    let ranges = OrderBySeller::scan()
        .seller_id(7)
        .created_ms_range(t0..t1)
        .ranges();
    let found: Vec<OrderBySeller> = by_seller
        .scan_each(&ranges)?
        .into_iter()
        .flatten()
        .map(|(k, _)| OrderBySeller::from_row_key(&k))
        .collect::<Result<_, _>>()?;
    let expected = orders
        .iter()
        .filter(|o| o.seller_id == 7 && (t0..t1).contains(&o.created_ms))
        .count();
    println!(
        "seller 7 in a ~2.8 h window: {} range(s), {} orders (expected {expected})",
        ranges.len(),
        found.len()
    );
    assert_eq!(found.len(), expected);
    assert!(
        found.windows(2).all(|w| w[0].created_ms >= w[1].created_ms),
        "newest first"
    );

    // 3. by order number: a point get through a one-key range
    let no = &orders[1234].order_no;
    let hit = by_no.scan_each(&OrderByNo::scan().order_no(no).ranges())?;
    let (key, value) = hit.iter().flatten().next().ok_or("order not found")?;
    println!(
        "order {no}: key {} -> {}",
        rowkey::hbase::to_string_binary(key),
        String::from_utf8_lossy(value)
    );

    // The seller table fans out when the seller is not known: all 16 buckets.
    println!(
        "all sellers' orders: {} ranges (one per salt bucket)",
        OrderBySeller::scan().ranges().len()
    );
    indexed_tables(&orders)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The same three keys as index tables that stay true (`rowkey::index`).

/// A buyer's orders, newest first: a non-unique index (the order number follows the index key
/// in each index row, so the index key must be self-delimiting: fixed widths here).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct BuyerOrders {
    #[hash_prefix(4)]
    buyer_id: u64,
    #[reverse_ts]
    created_ms: i64,
}

/// A seller's orders, newest first, salted; covering: each index row holds the order too.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct SellerOrders {
    #[salt(buckets = 16)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
}

impl Record for Order {
    type Key = OrderByNo;
    fn key(&self) -> OrderByNo {
        OrderByNo {
            order_no: self.order_no.clone(),
        }
    }
    fn to_value(&self) -> Vec<u8> {
        format!(
            "{}|{}|{}|{}",
            self.buyer_id, self.seller_id, self.created_ms, self.amount_cents
        )
        .into_bytes()
    }
    fn from_row(key: OrderByNo, value: &[u8]) -> Result<Order, RecordError> {
        let text = std::str::from_utf8(value)?;
        let f: Vec<&str> = text.split('|').collect();
        let [b, s, t, a] = f.as_slice() else {
            return Err(format!("order value {text:?}").into());
        };
        Ok(Order {
            order_no: key.order_no,
            buyer_id: b.parse()?,
            seller_id: s.parse()?,
            created_ms: t.parse()?,
            amount_cents: a.parse()?,
        })
    }
}

fn indexed_tables(orders: &[Order]) -> Result<(), Box<dyn std::error::Error>> {
    let by_buyer = Index::non_unique("by_buyer", |o: &Order| BuyerOrders {
        buyer_id: o.buyer_id,
        created_ms: o.created_ms,
    })?;
    let by_seller = Index::non_unique("by_seller", |o: &Order| SellerOrders {
        seller_id: o.seller_id,
        created_ms: o.created_ms,
    })?
    .covering();
    let db = Database::builder().create_with_backend(redb::backends::InMemoryBackend::new())?;
    let tables = Indexed::new(RedbStore::new(&db, "orders"))
        .with_index(&by_buyer)?
        .with_index(&by_seller)?;
    for chunk in orders.chunks(500) {
        let mut batch = IndexBatch::new();
        for o in chunk {
            batch.put(o.clone());
        }
        tables.apply(&batch)?;
    }
    println!(
        "index tables: {} orders, each with its by_buyer and by_seller rows",
        orders.len()
    );

    // A buyer's 5 latest orders, verified against the orders table.
    let latest = tables
        .scan(&by_buyer, BuyerOrders::scan().buyer_id(42).ranges())
        .limit(5)
        .records()?;
    println!(
        "buyer 42 through the index: latest {:?}",
        latest.iter().map(|o| &o.order_no).collect::<Vec<_>>()
    );
    // An update moves the order between buyers: new index row, order, old row deleted.
    let mut moved = latest[0].clone();
    moved.buyer_id = 43;
    tables.put(&moved)?;
    let after = tables
        .scan(&by_buyer, BuyerOrders::scan().buyer_id(42).ranges())
        .records()?;
    assert!(after.iter().all(|o| o.order_no != moved.order_no));
    assert_eq!(
        after.len(),
        orders.iter().filter(|o| o.buyer_id == 42).count() - 1
    );

    // A seller's orders in a time window (one range: the salt comes from seller_id).
    let (t0, t1) = (
        1_700_000_000_000 + 10_000_000,
        1_700_000_000_000 + 20_000_000,
    );
    let window = tables
        .scan(
            &by_seller,
            SellerOrders::scan()
                .seller_id(7)
                .created_ms_range(t0..t1)
                .ranges(),
        )
        .collect()?;
    assert!(window
        .iter()
        .all(|h| h.record.seller_id == 7 && (t0..t1).contains(&h.index_key.created_ms)));
    println!(
        "seller 7 in the window through the covering index: {} orders",
        window.len()
    );

    // A writer that crashed after step 1 of an update (new index row written, order not):
    // the row points at an order that does not have that index key.
    let ghost = Order {
        buyer_id: 42,
        created_ms: 1_800_000_000_000,
        ..orders[7].clone()
    };
    let rows = tables.expected_rows(&ghost)?;
    let (table, (key, value)) = rows.into_iter().next().ok_or("no index")?;
    tables.store().write(&[Write::Put { table, key, value }])?;
    let mut hits = tables
        .scan(&by_buyer, BuyerOrders::scan().buyer_id(42).ranges())
        .rows()?;
    let seen = hits
        .by_ref()
        .filter(|h| {
            h.as_ref()
                .is_ok_and(|h| h.record.order_no == ghost.order_no)
        })
        .count();
    assert_eq!(seen, 0, "a stale index row is never returned");
    println!(
        "after a simulated crash, a verified read of buyer 42: {}",
        hits.stats()
    );
    let found = tables.scrub().run(|_| {})?;
    println!("{found}");
    let fixed = tables.scrub().repair().run(|_| {})?;
    assert!(tables.scrub().run(|_| {})?.is_clean());
    println!("repaired {} row(s); the tables agree again", fixed.repaired);
    Ok(())
}
