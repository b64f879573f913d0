//! `rowkey::index` over HBase ([`HBaseStore`]) against standalone HBase 2.6 and its Thrift2
//! gateway (started by this test binary on free loopback ports; JDK 17 and Maven, the jars
//! from Maven Central on the first run): the crash proof of `tests/index_proof/` — a crash at
//! every row mutation of a 30-operation sequence, and 300 operations with a crash every 1–8 row
//! mutations — plus reverse reads, repair and a resumed scrub on the server.

#[path = "../../../tests/index_proof/mod.rs"]
mod index_proof;

use rowkey::index::Record;
use rowkey::store::{Store, Table, Write};
use rowkey::RowKey;
use rowkey_hbase::store::HBaseStore;
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::Client;

use index_proof::{exhaustive, gen_ops, indexes, sequential, table, ByBuyer, Order, OrderId};

/// A store over fresh tables named after `prefix`.
fn store(prefix: &str) -> HBaseStore {
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let client = Client::connect(hbase.thrift_addr()).expect("gateway client");
    let name = |t: &str| format!("{prefix}_{t}");
    let index_tables: Vec<String> = ["by_buyer", "by_seller", "by_no"]
        .iter()
        .map(|t| name(t))
        .collect();
    let refs: Vec<&str> = index_tables.iter().map(String::as_str).collect();
    HBaseStore::create_tables(&client, &name("orders"), &refs, &name("checkpoints"))
        .expect("create tables");
    open(prefix)
}

/// A new store (a new clock, a new connection) over the tables of `prefix`.
fn open(prefix: &str) -> HBaseStore {
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let client = Client::connect(hbase.thrift_addr()).expect("gateway client");
    let name = |t: &str| format!("{prefix}_{t}");
    let mut store = HBaseStore::new(
        &client.table(&name("orders")),
        &client.table(&name("checkpoints")),
    );
    for index in ["by_buyer", "by_seller", "by_no"] {
        store = store.index(index, &client.table(&name(index)));
    }
    store
}

#[test]
fn crash_at_every_row_mutation_hbase() {
    let store = store("every");
    let ops = gen_ops(271, 30);
    let (proof, units) = exhaustive(&store, &ops, false);
    eprintln!("30 operations, {units} crash points (row mutations)");
    assert_eq!(proof.crashes, units);
    assert!(
        proof.extras_seen > 0,
        "crashes left extra rows to tell apart"
    );
    proof.assert_clean("HBase, crash at every row mutation");
}

#[test]
fn three_hundred_operations_with_a_crash_every_few_mutations_hbase() {
    let store = store("seq");
    let ops = gen_ops(272, 300);
    let proof = sequential(&store, &ops, 272, 8, 10, false);
    assert!(proof.crashes > 50, "{proof:?}");
    proof.assert_clean("HBase, 300 operations, a crash every 1-8 row mutations");
}

#[test]
fn repairing_reads_and_a_resumed_scrub_on_hbase() {
    let store = store("repair");
    let ix = indexes();
    let t = table(&store, &ix);
    for id in 0..40u32 {
        let o = Order {
            id,
            buyer: (id % 3) as u16,
            seller: (id % 5) as u16,
            no: format!("N{id}"),
            amount: id % 4,
        };
        t.put(&o).expect("put");
    }
    // newest (largest amount) first for buyer 1, across the salt bucket
    let top = t
        .scan(&ix.by_buyer, ByBuyer::scan().buyer(1).ranges())
        .reverse()
        .limit(3)
        .records()
        .expect("reverse");
    assert_eq!(top.iter().map(|o| o.amount).collect::<Vec<_>>(), [3, 3, 3]);
    assert!(top.windows(2).all(|w| w[0].id > w[1].id));
    // records deleted behind the index's back: dangling rows in all three indexes
    let gone: Vec<Write> = [1u32, 4, 7]
        .iter()
        .map(|&id| Write::Delete {
            table: Table::Base,
            key: OrderId { id }.to_row_key().expect("pk").to_vec(),
        })
        .collect();
    store.write(&gone).expect("delete base rows");
    let mut hits = t
        .scan(&ix.by_buyer, ByBuyer::scan().buyer(1).ranges())
        .repair()
        .rows()
        .expect("rows");
    let ids: Vec<u32> = hits.by_ref().map(|h| h.expect("hit").record.id).collect();
    assert!(
        !ids.contains(&1) && !ids.contains(&4) && !ids.contains(&7),
        "{ids:?}"
    );
    assert_eq!((hits.stats().dangling, hits.stats().repaired), (3, 3));
    // the scrub finds the other 6 (by_seller, by_no), stopped after 2 pages, resumed by a new store handle
    let first = t
        .scrub()
        .repair()
        .page_rows(10)
        .run_pages(2, |_| {})
        .expect("first pages");
    assert!(!first.complete);
    let again = table(store.clone(), &ix);
    let done = again
        .scrub()
        .repair()
        .page_rows(10)
        .run(|p| eprintln!("{p}"))
        .expect("resumed");
    assert!(done.complete);
    assert_eq!(
        (done.dangling, done.repaired, done.missing),
        (6, 6, 0),
        "{done}"
    );
    assert!(again.scrub().run(|_| {}).expect("clean").is_clean());
}

/// An HBase delete marker hides every cell at or below its timestamp: a row deleted and put
/// again at once (an index row removed by one update and restored by the next, a record
/// deleted and re-created) must come back — each call gets a later timestamp, also from a new
/// store handle (a "restarted process"). A regression test of the behaviour, not a
/// demonstration of the hazard: with the server's time, the calls here also land in different
/// milliseconds (a Thrift round trip takes longer than one), so it passes with server time
/// too; the explicit timestamps make the outcome certain rather than likely.
#[test]
fn a_row_deleted_and_written_again_at_once_is_there_hbase() {
    let store = store("redo");
    let ix = indexes();
    let o = Order {
        id: 1,
        buyer: 1,
        seller: 1,
        no: "N1".into(),
        amount: 1,
    };
    let moved = Order {
        buyer: 2,
        ..o.clone()
    };
    for round in 0..30 {
        let t = table(store.clone(), &ix);
        t.put(&o).expect("put");
        t.put(&moved).expect("move"); // by_buyer row of `o` deleted
        t.put(&o).expect("move back"); // … and written again
        assert_eq!(
            t.get(&o.key()).expect("get"),
            Some(o.clone()),
            "round {round}"
        );
        let found = t
            .scan(&ix.by_buyer, ByBuyer::scan().buyer(1).ranges())
            .records()
            .expect("scan");
        assert_eq!(found, std::slice::from_ref(&o), "round {round}");
        assert!(t.delete(&o.key()).expect("delete"));
        // a fresh handle: its clock starts at the wall clock
        let restarted = table(open("redo"), &ix);
        restarted.put(&o).expect("re-create");
        assert_eq!(
            restarted.get(&o.key()).expect("get"),
            Some(o.clone()),
            "round {round}"
        );
    }
}
