//! `rowkey::index` on redb: definitions, maintenance, verified reads, the scrub, and the crash
//! proof (`tests/index_proof/`): a crash at every row mutation of a 200-operation sequence in
//! the Bigtable/HBase step order (and at every transaction with redb's atomic writes), and a
//! 5,000-operation sequence with a crash every 1–8 row mutations.

#[path = "../index_proof/mod.rs"]
mod index_proof;

use std::collections::BTreeMap;

use proptest::prelude::*;
use redb::Database;
use rowkey::index::{Index, IndexBatch, IndexError, Indexed, Problem, Record, RecordError};
use rowkey::store::{RedbStore, Store, Table, Write};
use rowkey::RowKey;

use index_proof::{
    exhaustive, gen_ops, indexes, sequential, table, ByBuyer, Order, OrderId, OrderNo, Proof, Rng,
};

fn db() -> Database {
    Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .expect("in-memory redb")
}

fn order(id: u32, buyer: u16, seller: u16, no: &str, amount: u32) -> Order {
    Order {
        id,
        buyer,
        seller,
        no: no.into(),
        amount,
    }
}

#[test]
fn a_non_unique_index_needs_a_self_delimiting_key() {
    #[derive(RowKey)]
    struct Title {
        title: String,
    }
    #[derive(RowKey)]
    struct Tail {
        id: u32,
        rest: Vec<u8>,
    }
    let e = Index::non_unique("by_title", |o: &Order| Title {
        title: o.no.clone(),
    })
    .expect_err("refused");
    let msg = e.to_string();
    assert!(
        msg.contains("by_title") && msg.contains("`title`") && msg.contains("#[sep]"),
        "{msg}"
    );
    assert!(Index::non_unique("by_tail", |o: &Order| Tail {
        id: o.id,
        rest: vec![]
    })
    .is_err());
    assert!(Index::unique("by_title", |o: &Order| Title {
        title: o.no.clone()
    })
    .is_ok());
    assert!(Index::unique("", |o: &Order| Title {
        title: o.no.clone()
    })
    .is_err());
    let ix = indexes();
    let e = Indexed::new(RedbStore::new(&db(), "t"))
        .with_index(&ix.by_no)
        .and_then(|t| t.with_index(&ix.by_no))
        .expect_err("duplicate");
    assert!(e.to_string().contains("already"), "{e}");
}

#[test]
fn reads_of_an_index_the_table_does_not_maintain_are_refused() {
    let db = db();
    let ix = indexes();
    let t = Indexed::new(RedbStore::new(&db, "t"))
        .with_index(&ix.by_no)
        .expect("index");
    match t.scan(&ix.by_buyer, ByBuyer::scan().ranges()).collect() {
        Err(IndexError::NotRegistered { index }) => assert_eq!(index, "by_buyer"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn puts_updates_and_deletes_keep_every_index_exact() {
    let db = db();
    let ix = indexes();
    let store = RedbStore::new(&db, "orders");
    let t = table(store, &ix);
    t.put(&order(1, 1, 1, "A", 5)).expect("put");
    t.put(&order(2, 1, 2, "B", 3)).expect("put");
    t.put(&order(3, 2, 2, "C", 3)).expect("put");
    // update: buyer and amount change; the old by_buyer row goes
    t.put(&order(1, 2, 1, "A", 1)).expect("update");
    let buyer2 = t
        .scan(&ix.by_buyer, ByBuyer::scan().buyer(2).ranges())
        .records()
        .expect("scan");
    assert_eq!(buyer2, [order(1, 2, 1, "A", 1), order(3, 2, 2, "C", 3)]);
    let buyer1 = t
        .scan(&ix.by_buyer, ByBuyer::scan().buyer(1).ranges())
        .records()
        .expect("scan");
    assert_eq!(buyer1, [order(2, 1, 2, "B", 3)]);
    // unique: a second holder is refused, nothing written
    match t.put(&order(4, 1, 1, "B", 0)) {
        Err(IndexError::UniqueViolation { index, .. }) => assert_eq!(index, "by_no"),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.get(&OrderId { id: 4 }).expect("get"), None);
    // a unique key moved between records in one batch is refused; in two batches it works
    let mut b = IndexBatch::new();
    b.put(order(2, 1, 2, "B2", 3)).put(order(4, 1, 1, "B", 0));
    assert!(matches!(
        t.apply(&b),
        Err(IndexError::UniqueViolation { .. })
    ));
    t.put(&order(2, 1, 2, "B2", 3)).expect("move away");
    t.put(&order(4, 1, 1, "B", 0)).expect("take over");
    // two records of one batch claiming one unique key
    let mut b = IndexBatch::new();
    b.put(order(5, 0, 0, "Z", 0)).put(order(6, 0, 0, "Z", 0));
    assert!(matches!(
        t.apply(&b),
        Err(IndexError::UniqueViolation { .. })
    ));
    // delete
    assert!(t.delete(&OrderId { id: 3 }).expect("delete"));
    assert!(!t.delete(&OrderId { id: 3 }).expect("delete again"));
    let nos: Vec<String> = t
        .scan(&ix.by_no, OrderNo::scan().ranges())
        .records()
        .expect("scan")
        .into_iter()
        .map(|o| o.no)
        .collect();
    assert_eq!(nos, ["A", "B", "B2"]);
    // pages of a unique index resume after the index key alone
    let first = t
        .scan(&ix.by_no, OrderNo::scan().ranges())
        .limit(2)
        .collect()
        .expect("page");
    let last = first.last().expect("two hits");
    let rest = t
        .scan(&ix.by_no, OrderNo::scan().ranges())
        .after(&last.index_key, &last.record.key())
        .expect("after")
        .collect()
        .expect("next page");
    let paged: Vec<&str> = first
        .iter()
        .chain(&rest)
        .map(|h| h.index_key.no.as_str())
        .collect();
    assert_eq!(paged, ["A", "B", "B2"]);
    let report = t.scrub().run(|_| {}).expect("scrub");
    assert!(report.is_clean(), "{report}");
    assert_eq!((report.base_rows, report.index_rows), (3, 9));
}

/// A crashed writer's leftovers, made by hand: each kind is skipped by verified reads,
/// repaired by a repairing read, and found and repaired by the scrub.
#[test]
fn verified_reads_skip_and_repair_what_a_crash_leaves() {
    let db = db();
    let ix = indexes();
    let store = RedbStore::new(&db, "orders");
    let t = table(store, &ix);
    for id in 0..6 {
        t.put(&order(id, 1, 1, &format!("N{id}"), id)).expect("put");
    }
    let by = Table::Index("by_buyer".into());
    let pk = |id: u32| OrderId { id }.to_row_key().expect("pk").to_vec();
    let rows_of = |o: &Order| t.expected_rows(o).expect("rows");
    // dangling: a record deleted behind the index's back
    store
        .write(&[Write::Delete {
            table: Table::Base,
            key: pk(0),
        }])
        .expect("write");
    // stale: an update whose old rows were not deleted (crash before step 3)
    let stale = rows_of(&order(1, 1, 1, "N1", 1));
    t.put(&order(1, 3, 1, "N1", 1)).expect("update");
    let stale_rows: Vec<Write> = stale
        .into_iter()
        .map(|(table, (key, value))| Write::Put { table, key, value })
        .collect();
    store.write(&stale_rows).expect("write");
    // outdated: a covered value from an update whose base row never landed
    let (_, (key, value)) = rows_of(&order(2, 1, 3, "N2", 2)).remove(0); // seller: covered only
    store
        .write(&[Write::Put {
            table: by.clone(),
            key,
            value,
        }])
        .expect("write");
    // invalid: garbage in the index table
    store
        .write(&[Write::Put {
            table: by.clone(),
            key: b"\x01garbage".to_vec(),
            value: b"?".to_vec(),
        }])
        .expect("write");

    let read = || t.scan(&ix.by_buyer, ByBuyer::scan().buyer(1).ranges());
    let mut hits = read().rows().expect("rows");
    let ids: Vec<u32> = hits.by_ref().map(|h| h.expect("hit").record.id).collect();
    assert_eq!(ids, [2, 3, 4, 5]);
    let stats = hits.stats();
    assert_eq!(
        (stats.dangling, stats.stale, stats.outdated, stats.repaired),
        (1, 1, 1, 0),
        "{stats}"
    );
    // the outdated row's record is the base table's
    let two = read()
        .records()
        .expect("scan")
        .into_iter()
        .find(|o| o.id == 2)
        .expect("2");
    assert_eq!(two.seller, 1);

    let found = t.scrub().run(|_| {}).expect("scrub");
    assert_eq!(
        (
            found.dangling,
            found.stale,
            found.outdated,
            found.invalid,
            found.missing
        ),
        (3, 1, 2, 1, 0),
        "{found}"
    );
    assert!(found
        .findings
        .iter()
        .any(|f| f.problem == Problem::Invalid && f.table == by));

    let mut hits = read().repair().rows().expect("rows");
    assert_eq!(hits.by_ref().count(), 4);
    assert_eq!(hits.stats().repaired, 3); // dangling, stale, outdated (the garbage sorts in bucket 1, outside buyer 1's range)
    let fixed = t.scrub().repair().run(|_| {}).expect("scrub");
    assert!(fixed.repaired > 0, "{fixed}");
    let clean = t.scrub().run(|_| {}).expect("scrub");
    assert!(clean.is_clean(), "{clean}");
}

/// An index added to a table that already has records: the scrub finds every row missing
/// and builds it; stopped after one page and resumed by a "new process", it ends with the
/// same counts as an uninterrupted scrub.
#[test]
fn the_scrub_builds_a_late_index_and_resumes_from_its_checkpoint() {
    let ix = indexes();
    let run = |stop_after: Option<usize>| {
        let db = db();
        let store = RedbStore::new(&db, "orders");
        let plain = Indexed::new(store).with_index(&ix.by_buyer).expect("index");
        for id in 0..50 {
            plain
                .put(&order(
                    id,
                    (id % 4) as u16,
                    (id % 3) as u16,
                    &format!("N{id}"),
                    id % 5,
                ))
                .expect("put");
        }
        let t = table(store, &ix);
        let report = match stop_after {
            Some(pages) => {
                let first = t
                    .scrub()
                    .repair()
                    .page_rows(8)
                    .run_pages(pages, |_| {})
                    .expect("first");
                assert!(!first.complete);
                let restarted = table(RedbStore::new(&db, "orders"), &ix);
                let mut seen = Vec::new();
                let r = restarted
                    .scrub()
                    .repair()
                    .page_rows(8)
                    .run(|p| seen.push(p.to_string()))
                    .expect("resumed");
                assert!(seen.iter().any(|p| p.contains("index by_no")), "{seen:?}");
                r
            }
            None => t.scrub().repair().page_rows(8).run(|_| {}).expect("scrub"),
        };
        assert!(report.complete);
        let scan = t
            .scan(&ix.by_no, OrderNo::scan().ranges())
            .records()
            .expect("scan");
        assert_eq!(scan.len(), 50);
        assert!(t.scrub().run(|_| {}).expect("again").is_clean());
        (
            report.base_rows,
            report.index_rows,
            report.missing,
            report.repaired,
        )
    };
    let straight = run(None);
    assert_eq!(straight.2, 100); // by_seller and by_no rows of 50 records
    assert_eq!(run(Some(3)), straight);
    assert_eq!(run(Some(9)), straight);
}

/// Issue 37: a unique index built (or checked) by the scrub over base rows that a writer
/// bypassing the unique check left — several records per order number — and index rows of
/// every kind already there (right, with an outdated covered value, naming a record without
/// the key, naming no record, for a key no record holds). Brute force: the counts and the
/// rows a repair leaves follow from the records alone, the same for every page size, with
/// and without repair; a conflict is reported, never resolved by writing a key's row twice.
#[test]
fn the_scrub_reports_every_unique_conflict_and_outdated_row_with_any_page_size() {
    const NOS: [&str; 5] = ["dup", "x", "y", "z", "gone"];
    let ix = indexes();
    let by_no = Table::Index("by_no".into());
    let proto_db = db();
    let proto = Indexed::new(RedbStore::new(&proto_db, "rows"))
        .with_index(&ix.by_no)
        .expect("index");
    let mut checked = 0u32;
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed + 1);
        let n = 2 + rng.below(7) as u32;
        // the records: numbers from the first four (so that holders repeat)
        let mut records: Vec<Order> = Vec::new();
        for id in 0..n {
            let no = NOS[rng.below(5) as usize % 4];
            if rng.below(5) > 0 {
                records.push(order(id, 1, 1, no, id));
            }
        }
        let mut holders: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for r in &records {
            holders.entry(r.no.as_str()).or_default().push(r.id);
        }
        // the index rows already there: (number, the id the row names, amount of its value)
        let mut existing: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
        for no in NOS {
            match rng.below(5) {
                0 => {}
                _ => {
                    let named = rng.below(u64::from(n) + 2) as u32;
                    let amount = if rng.below(3) == 0 { 999 } else { named };
                    existing.insert(no, (named, amount));
                }
            }
        }
        // what the scrub must find, and the rows a repair must leave
        let (mut missing, mut outdated, mut conflicts, mut dangling, mut stale) = (0, 0, 0, 0, 0);
        let mut want_rows: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        let row_of = |o: &Order| {
            let (_, row) = proto.expected_rows(o).expect("rows").remove(0);
            row
        };
        let by_id: BTreeMap<u32, &Order> = records.iter().map(|r| (r.id, r)).collect();
        for no in NOS {
            let mut held = holders.get(no).cloned().unwrap_or_default();
            // "first" is first in the base table's order: the encoded (salted) primary key's
            held.sort_by_key(|&id| OrderId { id }.to_row_key().expect("pk"));
            let row = existing.get(no);
            if let Some(&first) = held.first() {
                conflicts += held.len() - 1;
                let owner = match row {
                    None => {
                        missing += 1;
                        first
                    }
                    Some(&(named, amount)) if held.contains(&named) => {
                        if amount != named {
                            outdated += 1;
                        }
                        named
                    }
                    Some(_) => {
                        outdated += 1;
                        first
                    }
                };
                let (k, v) = row_of(by_id[&owner]);
                want_rows.insert(k, v);
            } else if let Some(&(named, _)) = row {
                if by_id.contains_key(&named) {
                    stale += 1;
                } else {
                    dangling += 1;
                }
            }
        }
        let want = (missing, outdated, conflicts, dangling, stale, 0);
        for repair in [false, true] {
            for page in [1, 2, 3, 500] {
                let db = db();
                let store = RedbStore::new(&db, "orders");
                let mut writes: Vec<Write> = records
                    .iter()
                    .map(|r| Write::Put {
                        table: Table::Base,
                        key: OrderId { id: r.id }.to_row_key().expect("pk").to_vec(),
                        value: r.to_value(),
                    })
                    .collect();
                for (no, &(named, amount)) in &existing {
                    let (key, value) = row_of(&order(named, 1, 1, no, amount));
                    writes.push(Write::Put {
                        table: by_no.clone(),
                        key,
                        value,
                    });
                }
                store.write(&writes).expect("write");
                let t = Indexed::new(store).with_index(&ix.by_no).expect("index");
                let mut scrub = t.scrub().page_rows(page);
                if repair {
                    scrub = scrub.repair();
                }
                let r = scrub.run(|_| {}).expect("scrub");
                let what = format!(
                    "seed {seed}, repair {repair}, page {page}: {records:?} {existing:?}: {r}"
                );
                let got = (
                    r.missing as usize,
                    r.outdated as usize,
                    r.conflicts as usize,
                    r.dangling as usize,
                    r.stale as usize,
                    r.invalid as usize,
                );
                assert_eq!(got, want, "{what}");
                assert_eq!(
                    r.findings
                        .iter()
                        .filter(|f| f.problem == Problem::Conflict)
                        .count(),
                    conflicts,
                    "{what}"
                );
                if repair {
                    let rows: BTreeMap<Vec<u8>, Vec<u8>> =
                        index_proof::dump(&store, &by_no).into_iter().collect();
                    assert_eq!(rows, want_rows, "{what}");
                    let again = t.scrub().page_rows(page).run(|_| {}).expect("again");
                    assert_eq!(
                        (again.conflicts as usize, again.problems() as usize),
                        (conflicts, conflicts),
                        "{what}: {again}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 40 * 8);
}

#[test]
fn crash_at_every_row_mutation_redb_in_step_order() {
    let db = db();
    let store = RedbStore::new(&db, "orders");
    let ops = gen_ops(27, 200);
    let (proof, units) = exhaustive(&store, &ops, false);
    eprintln!("200 operations, {units} crash points (row mutations)");
    assert_eq!(proof.crashes, units);
    assert!(
        proof.extras_seen > 0,
        "crashes left extra rows to tell apart"
    );
    proof.assert_clean("redb, step order, crash at every row mutation");
}

#[test]
fn crash_at_every_transaction_redb_atomic() {
    let db = db();
    let store = RedbStore::new(&db, "orders");
    let ops = gen_ops(28, 200);
    let (proof, units) = exhaustive(&store, &ops, true);
    eprintln!("200 operations, {units} crash points (transactions)");
    assert_eq!(
        proof.extras_seen, 0,
        "redb's transactions leave nothing to repair"
    );
    proof.assert_clean("redb, atomic, crash at every transaction");
}

#[test]
fn five_thousand_operations_with_a_crash_every_few_mutations_redb() {
    let db = db();
    let store = RedbStore::new(&db, "orders");
    let mut total = Proof::default();
    for seed in [1, 2] {
        let ops = gen_ops(seed, 2500);
        total.add(sequential(&store, &ops, seed, 8, 25, false));
    }
    assert!(total.crashes > 500, "{total:?}");
    total.assert_clean("redb, 5,000 operations, a crash every 1-8 row mutations");
}

// ---------------------------------------------------------------------------------------
// Adversarial index keys

#[derive(RowKey, Debug, Clone, PartialEq)]
struct DocId {
    id: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByTag {
    #[salt(buckets = 3)]
    #[sep]
    tag: String,
    #[desc]
    #[sep]
    sub: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq)]
struct Doc {
    id: u8,
    tag: String,
    sub: Vec<u8>,
}

impl Record for Doc {
    type Key = DocId;
    fn key(&self) -> DocId {
        DocId { id: self.id }
    }
    fn to_value(&self) -> Vec<u8> {
        let mut v = (self.tag.len() as u32).to_be_bytes().to_vec();
        v.extend_from_slice(self.tag.as_bytes());
        v.extend_from_slice(&self.sub);
        v
    }
    fn from_row(key: DocId, v: &[u8]) -> Result<Doc, RecordError> {
        let n = u32::from_be_bytes(v.get(..4).ok_or("short")?.try_into()?) as usize;
        let tag = String::from_utf8(v.get(4..4 + n).ok_or("short")?.to_vec())?;
        Ok(Doc {
            id: key.id,
            tag,
            sub: v[4 + n..].to_vec(),
        })
    }
}

fn tag() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "a", "a\0", "a\u{1}", "ab", "\0", "\u{1}\0", "b", "a\0b",
    ])
    .prop_map(String::from)
}

fn sub() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(vec![0u8, 1, 2, 0xFF]), 0..3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Index keys full of separator and escape bytes, desc bytes, salt: every verified read
    /// (all, per tag, per tag prefix, reversed) equals brute force over the live records.
    #[test]
    fn adversarial_index_keys_read_exactly(
        ops in prop::collection::vec((0u8..12, prop::option::weighted(0.8, (tag(), sub()))), 1..60),
    ) {
        let db = db();
        let by_tag = Index::non_unique("by_tag", |d: &Doc| ByTag { tag: d.tag.clone(), sub: d.sub.clone() }).expect("index");
        let t = Indexed::new(RedbStore::new(&db, "docs")).with_index(&by_tag).expect("with");
        let mut model: BTreeMap<u8, Doc> = BTreeMap::new();
        for (id, op) in ops {
            match op {
                Some((tag, sub)) => {
                    let d = Doc { id, tag, sub };
                    t.put(&d).expect("put");
                    model.insert(id, d);
                }
                None => {
                    t.delete(&DocId { id }).expect("delete");
                    model.remove(&id);
                }
            }
        }
        let logical = |d: &Doc| {
            let mut k = ByTag { tag: d.tag.clone(), sub: d.sub.clone() }.to_row_key().expect("k")[1..].to_vec();
            k.extend(DocId { id: d.id }.to_row_key().expect("pk").to_vec());
            k
        };
        let mut all: Vec<Doc> = model.values().cloned().collect();
        all.sort_by_key(logical);
        let got = t.scan(&by_tag, ByTag::scan().ranges()).records().expect("all");
        prop_assert_eq!(&got, &all);
        let got = t.scan(&by_tag, ByTag::scan().ranges()).reverse().records().expect("rev");
        prop_assert_eq!(got, all.iter().rev().cloned().collect::<Vec<_>>());
        for tag in ["", "a", "a\0", "\0", "ab"] {
            let want: Vec<Doc> = all.iter().filter(|d| d.tag == tag).cloned().collect();
            let got = t.scan(&by_tag, ByTag::scan().tag(tag).ranges()).records().expect("eq");
            prop_assert_eq!(got, want);
            let want: Vec<Doc> = all.iter().filter(|d| d.tag.starts_with(tag)).cloned().collect();
            let mut got = t.scan(&by_tag, ByTag::scan().tag_starts_with(tag).ranges()).records().expect("prefix");
            // a starts-with scan spans tags (and salt buckets): compare as sets
            got.sort_by_key(|d| d.id);
            let mut want = want;
            want.sort_by_key(|d| d.id);
            prop_assert_eq!(got, want);
        }
        let report = t.scrub().run(|_| {}).expect("scrub");
        prop_assert!(report.is_clean(), "{}", report);
    }
}

/// A scrub stopped under the checkpoint layout before #34 (the redb table
/// `rowkey_index_checkpoints`, same key) resumes from it instead of starting over, and its next
/// checkpoint moves to `rowkey_checkpoints`.
#[test]
fn a_scrub_stopped_with_the_old_checkpoint_layout_resumes() {
    use redb::ReadableDatabase;
    use rowkey::store::{CHECKPOINTS, LEGACY_INDEX_CHECKPOINTS};
    let db = db();
    let ix = indexes();
    let t = table(RedbStore::new(&db, "orders"), &ix);
    for id in 0..40 {
        t.put(&order(id, 1, 1, &format!("N{id}"), id)).expect("put");
    }
    let first = t.scrub().page_rows(5).run_pages(2, |_| {}).expect("scrub");
    assert!(!first.complete);
    // the checkpoint, moved to where the earlier version wrote it
    let tx = db.begin_write().unwrap();
    {
        let mut new = tx.open_table(CHECKPOINTS).unwrap();
        let blob = new
            .remove("orders/index-scrub/scrub")
            .unwrap()
            .expect("saved")
            .value()
            .to_vec();
        tx.open_table(LEGACY_INDEX_CHECKPOINTS)
            .unwrap()
            .insert("orders/index-scrub/scrub", blob.as_slice())
            .unwrap();
    }
    tx.commit().unwrap();

    let mut this_run = 0;
    let rest = t
        .scrub()
        .page_rows(5)
        .run(|p| {
            if p.table == Table::Base {
                this_run = p.rows_this_run;
            }
        })
        .expect("resume");
    assert!(rest.complete && rest.is_clean(), "{rest}");
    assert_eq!(
        rest.base_rows, 40,
        "the report counts the rows before the stop too"
    );
    assert_eq!(
        this_run, 30,
        "the 10 base rows scrubbed before the stop are not read again"
    );
    let tx = db.begin_read().unwrap();
    let old = tx.open_table(LEGACY_INDEX_CHECKPOINTS).unwrap();
    assert!(
        old.get("orders/index-scrub/scrub").unwrap().is_none(),
        "moved"
    );
}
