//! `orders` on HBase: one order written under three keys — by buyer, by seller, by order
//! number — into three tables pre-split from the key layouts, a query per dimension, a
//! fanned-out read merged across 16 salt buckets (forward, reverse, paged), and the seller
//! table's regions and rows as the server sees them.
//!
//! Run: `cargo run -p rowkey-hbase --example hbase_orders` — it starts standalone HBase 2.6 and
//! its Thrift2 gateway itself (JDK 17 and Maven; the jars are fetched on the first run) and stops
//! them at the end. `cargo run -p rowkey-hbase --example hbase_orders -- 127.0.0.1:9090` uses
//! the Thrift2 gateway there instead (tables of the same names are dropped and recreated).

use rowkey::plan::SplitPoints;
use rowkey::RowKey;
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::{Batch, Cell, Client, Error};

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

const T0: i64 = 1_700_000_000_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let started = std::time::Instant::now();
    let (_server, addr) = match std::env::args().nth(1) {
        Some(addr) => (None, addr),
        None => {
            eprintln!("starting standalone HBase and its Thrift2 gateway…");
            let hbase = HBase::start()?;
            let addr = hbase.thrift_addr().to_string();
            eprintln!("HBase is up ({:.0?}); gateway at {addr}", started.elapsed());
            (Some(hbase), addr)
        }
    };
    let client = Client::connect(addr.as_str())?;

    // Three tables, pre-split from the layouts: 16 salt buckets, 8 hash-prefix ranges.
    for (name, splits) in [
        ("orders_by_buyer", OrderByBuyer::split_points(8)?),
        ("orders_by_seller", OrderBySeller::split_points(16)?),
        ("orders_by_no", OrderByNo::split_points(8)?),
    ] {
        if client.table_exists(name)? {
            client.delete_table(name)?;
        }
        client.create_table(name, &["o"], &splits)?;
        println!("{}", rowkey::plan::create_statement(name, "o", &splits));
    }
    let (by_buyer, by_seller, by_no) = (
        client.table("orders_by_buyer"),
        client.table("orders_by_seller"),
        client.table("orders_by_no"),
    );

    // Triple writes: the record by number, the index rows by buyer and by seller.
    let mut batch = Batch::new();
    let n = 3_000u64;
    for i in 0..n {
        let order_no = format!("O-{:06}", i * 7919 % 1_000_000);
        let (buyer_id, seller_id) = (1 + i % 97, 1 + (i * 13) % 20);
        let created_ms = T0 + (i as i64) * 30_000;
        let amount = (100 + (i * 37) % 10_000).to_string();
        batch.put(
            &by_buyer,
            &OrderByBuyer {
                buyer_id,
                created_ms,
                order_no: order_no.clone(),
            },
            [Cell::new("o", "", "")],
        )?;
        batch.put(
            &by_seller,
            &OrderBySeller {
                seller_id,
                created_ms,
                order_no: order_no.clone(),
            },
            [Cell::new("o", "amount", &amount)],
        )?;
        batch.put(
            &by_no,
            &OrderByNo { order_no },
            [
                Cell::new("o", "buyer", buyer_id.to_string()),
                Cell::new("o", "amount", amount),
            ],
        )?;
    }
    let written = batch.apply()?;
    println!("wrote {n} orders under 3 keys each ({written} rows)");

    // 1. a buyer's 5 latest orders: one range (the md5 prefix is computed from buyer_id)
    let latest = by_buyer
        .read::<OrderByBuyer>(&OrderByBuyer::scan().buyer_id(42).ranges())
        .limit(5)
        .keys()?;
    println!(
        "buyer 42, latest: {:?}",
        latest.iter().map(|o| &o.order_no).collect::<Vec<_>>()
    );
    assert!(latest
        .windows(2)
        .all(|w| w[0].created_ms >= w[1].created_ms));

    // 2. a seller's orders in a time window: one range (the salt is computed from seller_id)
    let window = T0 + 10_000_000..T0 + 20_000_000;
    let ranges = OrderBySeller::scan()
        .seller_id(7)
        .created_ms_range(window.clone())
        .ranges();
    let found = by_seller.read::<OrderBySeller>(&ranges).collect()?;
    let expected = (0..n)
        .filter(|&i| 1 + (i * 13) % 20 == 7 && window.contains(&(T0 + (i as i64) * 30_000)))
        .count();
    println!(
        "seller 7 in a ~2.8 h window: {} range(s), {} orders",
        ranges.len(),
        found.len()
    );
    assert_eq!(found.len(), expected);

    // 3. by order number: a point read through a one-key range
    let wanted = format!("O-{:06}", 1234 * 7919 % 1_000_000);
    let hit = by_no
        .read::<OrderByNo>(&OrderByNo::scan().order_no(&wanted).ranges())
        .collect()?;
    let (order, row) = hit.first().ok_or("order not found")?;
    println!(
        "order {}: buyer {:?}, amount {:?}",
        order.order_no,
        row.value("o", b"buyer").map(String::from_utf8_lossy),
        row.value("o", b"amount").map(String::from_utf8_lossy)
    );

    // 4. every seller's orders in reverse logical order (the highest seller first, each
    //    seller's oldest order first): 16 reversed scanners merged, in pages of 100
    let all = OrderBySeller::scan().ranges();
    let first = by_seller
        .read::<OrderBySeller>(&all)
        .reverse()
        .limit(100)
        .keys()?;
    let next = by_seller
        .read::<OrderBySeller>(&all)
        .reverse()
        .after(first.last().ok_or("empty")?)?
        .limit(100)
        .keys()?;
    println!(
        "all sellers, reversed: {} range(s); page 1 starts at seller {} +{} ms, page 2 at seller {} +{} ms",
        all.len(),
        first[0].seller_id,
        first[0].created_ms - T0,
        next[0].seller_id,
        next[0].created_ms - T0
    );
    // page 2 continues below page 1 in logical order (the bytes after the salt)
    assert!(next[0].to_row_key()?[1..] < first[99].to_row_key()?[1..]);

    // 5. the seller table as the server sees it: its regions and the rows in each
    let view = by_seller.region_view(1)?;
    let report = view.analyzer(12)?.with_name("orders_by_seller").report();
    println!("{}", report.summary());
    println!("{}", view.lint().layout(OrderBySeller::LAYOUT).run());
    match by_seller.read::<OrderByNo>(&all).limit(1).keys() {
        Err(Error::Decode { layout, source, .. }) => {
            println!("reading the seller table as {layout} is refused: {source}")
        }
        other => return Err(format!("expected a decode error, got {other:?}").into()),
    }
    println!("done in {:.1?}", started.elapsed());
    Ok(())
}
