//! `rowkey::index` over Bigtable ([`BigtableStore`]) against the Cloud Bigtable emulator
//! (one per test binary, started on a free loopback port; a missing emulator fails the test
//! naming the Debian package `google-cloud-cli-bigtable-emulator`): the crash proof of
//! `tests/index_proof/` — a crash at every row mutation of a 30-operation sequence, and 300
//! operations with a crash every 1–8 row mutations — plus reverse reads, repair and a resumed
//! scrub on the server.

#[path = "../../../tests/index_proof/mod.rs"]
mod index_proof;

use rowkey::store::{Store, Table, Write};
use rowkey::RowKey;
use rowkey_bigtable::store::BigtableStore;
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::Client;
use tokio::runtime::Runtime;

use index_proof::{exhaustive, gen_ops, indexes, sequential, table, ByBuyer, Order, OrderId};

/// A runtime for the client (the store blocks on it from the test's own thread) and a store
/// over fresh tables named after `prefix`.
fn store(prefix: &str) -> (Runtime, BigtableStore) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let emulator = Emulator::shared().unwrap_or_else(|e| panic!("{e}"));
    let client = {
        let _enter = rt.enter();
        Client::emulator(emulator.endpoint(), "index", "index").expect("emulator client")
    };
    let name = |t: &str| format!("{prefix}_{t}");
    let index_tables: Vec<String> = ["by_buyer", "by_seller", "by_no"]
        .iter()
        .map(|t| name(t))
        .collect();
    let refs: Vec<&str> = index_tables.iter().map(String::as_str).collect();
    rt.block_on(BigtableStore::create_tables(
        &client,
        &name("orders"),
        &refs,
        &name("checkpoints"),
    ))
    .expect("create tables");
    let mut store = BigtableStore::new(
        rt.handle().clone(),
        &client.table(&name("orders")),
        &client.table(&name("checkpoints")),
    );
    for (index, table) in ["by_buyer", "by_seller", "by_no"].iter().zip(&index_tables) {
        store = store.index(index, &client.table(table));
    }
    (rt, store)
}

#[test]
fn crash_at_every_row_mutation_bigtable() {
    let (_rt, store) = store("every");
    let ops = gen_ops(271, 30);
    let (proof, units) = exhaustive(&store, &ops, false);
    eprintln!("30 operations, {units} crash points (row mutations)");
    assert_eq!(proof.crashes, units);
    assert!(
        proof.extras_seen > 0,
        "crashes left extra rows to tell apart"
    );
    proof.assert_clean("Bigtable emulator, crash at every row mutation");
}

#[test]
fn three_hundred_operations_with_a_crash_every_few_mutations_bigtable() {
    let (_rt, store) = store("seq");
    let ops = gen_ops(272, 300);
    let proof = sequential(&store, &ops, 272, 8, 10, false);
    assert!(proof.crashes > 50, "{proof:?}");
    proof.assert_clean("Bigtable emulator, 300 operations, a crash every 1-8 row mutations");
}

#[test]
fn repairing_reads_and_a_resumed_scrub_on_bigtable() {
    let (_rt, store) = store("repair");
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
