//! `orders` on Bigtable: one order written under three keys — by buyer, by seller, by order
//! number — into three tables pre-split from the key layouts, a query per dimension, a
//! fanned-out read merged across 16 salt buckets (forward, reverse, paged), and a live hotspot
//! view of the seller index.
//!
//! Run: `cargo run -p rowkey-bigtable --example bigtable_orders`
//!
//! With `BIGTABLE_EMULATOR_HOST=host:port` set it uses that emulator (tables of the same names
//! are dropped and recreated); otherwise it starts its own `cbtemulator` on a free loopback
//! port (Debian package `google-cloud-cli-bigtable-emulator`) and stops it at the end.

use futures_util::TryStreamExt;
use rowkey::plan::SplitPoints;
use rowkey::RowKey;
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::{Admin, Batch, Cell, Client, Error};

/// Buyer's orders, newest first. md5 prefix: buyers spread evenly over tablets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderByBuyer {
    #[hash_prefix(4)]
    buyer_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// Seller's orders, newest first. 16 salt buckets computed from seller_id.
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

struct Order {
    order_no: String,
    buyer_id: u64,
    seller_id: u64,
    created_ms: i64,
    amount_cents: u64,
}

const FAMILY: &str = "o";

/// Create `id` pre-split at `T::split_points(regions)`, dropping a table left by a former run.
async fn fresh_table<T: RowKey>(admin: &Admin, id: &str, regions: usize) -> Result<usize, Error> {
    match admin.create_table_for::<T>(id, &[FAMILY], regions).await {
        Ok(splits) => Ok(splits.len() + 1),
        Err(Error::Grpc(s)) if s.code() == tonic::Code::AlreadyExists => {
            admin.delete_table(id).await?;
            Ok(admin
                .create_table_for::<T>(id, &[FAMILY], regions)
                .await?
                .len()
                + 1)
        }
        Err(e) => Err(e),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The emulator: the one named by BIGTABLE_EMULATOR_HOST, or our own.
    let own;
    let client = match std::env::var("BIGTABLE_EMULATOR_HOST") {
        Ok(host) => {
            println!("using the emulator at {host} (BIGTABLE_EMULATOR_HOST)");
            Client::connect("rowkey-demo", "orders").await?
        }
        Err(_) => {
            own = Emulator::start()?;
            println!("started cbtemulator on {}", own.endpoint());
            Client::emulator(own.endpoint(), "rowkey-demo", "orders")?
        }
    };

    // Tables from the plan: split points derived from each key layout.
    let admin = client.admin().await?;
    let regions = (
        fresh_table::<OrderByBuyer>(&admin, "orders_by_buyer", 8).await?,
        fresh_table::<OrderBySeller>(&admin, "orders_by_seller", 16).await?,
        fresh_table::<OrderByNo>(&admin, "orders", 8).await?,
    );
    println!(
        "tables pre-split from the layouts: orders_by_buyer {} tablets (hash prefix), \
         orders_by_seller {} (salt buckets), orders {}",
        regions.0, regions.1, regions.2
    );
    let (by_buyer, by_seller, by_no) = (
        client.table("orders_by_buyer"),
        client.table("orders_by_seller"),
        client.table("orders"),
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

    // Dual (here: triple) writes in one batch: the by-number table holds the record, the index
    // tables point to it. Every failed entry would be listed in Error::Write.
    let mut batch = Batch::new();
    for o in &orders {
        let record = format!(
            "{}|{}|{}|{}",
            o.buyer_id, o.seller_id, o.created_ms, o.amount_cents
        );
        batch.put(
            &by_no,
            &OrderByNo {
                order_no: o.order_no.clone(),
            },
            [Cell::new(FAMILY, "order", record)],
        )?;
        batch.put(
            &by_buyer,
            &OrderByBuyer {
                buyer_id: o.buyer_id,
                created_ms: o.created_ms,
                order_no: o.order_no.clone(),
            },
            [Cell::new(FAMILY, "", "")],
        )?;
        batch.put(
            &by_seller,
            &OrderBySeller {
                seller_id: o.seller_id,
                created_ms: o.created_ms,
                order_no: o.order_no.clone(),
            },
            [Cell::new(FAMILY, "", "")],
        )?;
    }
    let written = batch.apply().await?;
    println!(
        "wrote {} orders under 3 keys each ({written} rows, MutateRows)",
        orders.len()
    );
    assert_eq!(written, orders.len() * 3);

    // 1. a buyer's 5 latest orders: one range, the server stops after 5 rows
    let latest = by_buyer
        .read::<OrderByBuyer>(&OrderByBuyer::scan().buyer_id(42).ranges())
        .limit(5)
        .keys()
        .await?;
    let count = by_buyer
        .read::<OrderByBuyer>(&OrderByBuyer::scan().buyer_id(42).ranges())
        .keys()
        .await?
        .len();
    println!(
        "buyer 42: {count} orders; latest: {:?}",
        latest.iter().map(|o| &o.order_no).collect::<Vec<_>>()
    );
    assert_eq!(count, orders.iter().filter(|o| o.buyer_id == 42).count());

    // 2. a seller's orders in a time window: one range (the salt is computed from seller_id)
    let (t0, t1) = (
        1_700_000_000_000 + 10_000_000,
        1_700_000_000_000 + 20_000_000,
    );
    let ranges = OrderBySeller::scan()
        .seller_id(7)
        .created_ms_range(t0..t1)
        .ranges();
    let found = by_seller.read::<OrderBySeller>(&ranges).keys().await?;
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
    // the same window oldest first: Bigtable's reversed ReadRows
    let oldest = by_seller
        .read::<OrderBySeller>(&ranges)
        .reverse()
        .limit(1)
        .keys()
        .await?;
    assert_eq!(oldest.first(), found.last());

    // 3. by order number: a point read through a one-key range
    let no = &orders[1234].order_no;
    let hit = by_no
        .read::<OrderByNo>(&OrderByNo::scan().order_no(no).ranges())
        .collect()
        .await?;
    let (key, row) = hit.first().ok_or("order not found")?;
    println!(
        "order {}: {} -> {}",
        key.order_no,
        rowkey::hbase::to_string_binary(&row.key),
        String::from_utf8_lossy(row.value(FAMILY, b"order").unwrap_or_default())
    );

    // 4. every seller's orders: 16 ranges (one per salt bucket), 16 concurrent ReadRows
    // streams merged into logical order (seller, then newest first), in pages of 4.
    let all = OrderBySeller::scan().ranges();
    let page1 = by_seller
        .read::<OrderBySeller>(&all)
        .limit(4)
        .keys()
        .await?;
    let last = page1.last().ok_or("empty page")?;
    let page2 = by_seller
        .read::<OrderBySeller>(&all)
        .after(last)?
        .limit(4)
        .keys()
        .await?;
    let show = |p: &[OrderBySeller]| {
        p.iter()
            .map(|k| format!("{}/{}", k.seller_id, k.order_no))
            .collect::<Vec<_>>()
    };
    println!(
        "all sellers: {} ranges merged; page 1 {:?}, page 2 {:?}",
        all.len(),
        show(&page1),
        show(&page2)
    );
    let mut merged = by_seller.read::<OrderBySeller>(&all).stream();
    let mut n = 0usize;
    let mut prev: Option<OrderBySeller> = None;
    while let Some((k, _)) = merged.try_next().await? {
        if let Some(p) = &prev {
            assert!(
                (p.seller_id, -p.created_ms) < (k.seller_id, -k.created_ms),
                "logical order across buckets"
            );
        }
        prev = Some(k);
        n += 1;
    }
    assert_eq!(n, orders.len());

    // 5. the live hotspot view of the seller index: per-tablet rows from a table sample
    let splits = OrderBySeller::split_points(16)?;
    let sample = by_seller.sample_keys(1.0).await?;
    let view = sample
        .analyzer(&splits, 12)?
        .with_name("orders_by_seller (live)");
    let report = view.report();
    println!("{}", report.summary());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bigtable-orders");
    std::fs::create_dir_all(&dir)?;
    let svg = dir.join("orders_by_seller.svg");
    view.write_heatmap_svg(&svg)?;
    println!("heatmap: {}", svg.display());
    assert_eq!(report.total_keys(), orders.len() as u64);
    Ok(())
}
