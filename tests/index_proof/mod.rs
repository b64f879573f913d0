//! The crash proof of `rowkey::index`, shared by the redb test (`tests/operations/index.rs`) and the
//! server tests (`rowkey-bigtable/tests/bigtable/index.rs`, `rowkey-hbase/tests/hbase/index.rs`, which include
//! this file by path).
//!
//! Random sequences of puts, updates, deletes and batches over a small key space (primary keys,
//! index keys and unique keys collide on purpose) run through a store wrapper that fails the
//! n-th row mutation and every one after it — a crash — after which a "restarted process"
//! (a new `Indexed` over a new wrapper) goes on with the rest of the sequence. After every
//! crash and at the end:
//!
//! 1. the base table is the model (each crashed operation either happened or did not, per
//!    primary key);
//! 2. invariant (I) holds: every live record's index rows exist and name it — **0 lost**;
//! 3. verified reads (full scans both ways, paged scans, typed queries of every index) return
//!    exactly the records the model says, in order — **0 wrong rows, 0 lost records**;
//! 4. at the end, a repairing scrub leaves the index tables byte-equal to the index rebuilt
//!    from the base table, and a second scrub is clean.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use rowkey::index::{Index, IndexBatch, IndexError, Indexed, Record, RecordError};
use rowkey::store::{KeyValue, Store, Table, Write};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderId {
    #[salt(buckets = 4)]
    pub id: u32,
}

/// Non-unique, covering, salted.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct ByBuyer {
    #[salt(buckets = 4)]
    pub buyer: u16,
    pub amount: u32,
}

/// Non-unique, not covering, unsalted.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct BySeller {
    pub seller: u16,
}

/// Unique, covering; not self-delimiting (allowed for a unique index).
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderNo {
    pub no: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub id: u32,
    pub buyer: u16,
    pub seller: u16,
    pub no: String,
    pub amount: u32,
}

impl Record for Order {
    type Key = OrderId;
    fn key(&self) -> OrderId {
        OrderId { id: self.id }
    }
    fn to_value(&self) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&self.buyer.to_be_bytes());
        v.extend_from_slice(&self.seller.to_be_bytes());
        v.extend_from_slice(&self.amount.to_be_bytes());
        v.extend_from_slice(self.no.as_bytes());
        v
    }
    fn from_row(key: OrderId, v: &[u8]) -> Result<Order, RecordError> {
        if v.len() < 8 {
            return Err(format!("value of {} bytes", v.len()).into());
        }
        Ok(Order {
            id: key.id,
            buyer: u16::from_be_bytes([v[0], v[1]]),
            seller: u16::from_be_bytes([v[2], v[3]]),
            amount: u32::from_be_bytes([v[4], v[5], v[6], v[7]]),
            no: String::from_utf8(v[8..].to_vec())?,
        })
    }
}

pub struct Indexes {
    pub by_buyer: Index<Order, ByBuyer>,
    pub by_seller: Index<Order, BySeller>,
    pub by_no: Index<Order, OrderNo>,
}

pub fn indexes() -> Indexes {
    Indexes {
        by_buyer: Index::non_unique("by_buyer", |o: &Order| ByBuyer {
            buyer: o.buyer,
            amount: o.amount,
        })
        .expect("by_buyer")
        .covering(),
        by_seller: Index::non_unique("by_seller", |o: &Order| BySeller { seller: o.seller })
            .expect("by_seller"),
        by_no: Index::unique("by_no", |o: &Order| OrderNo { no: o.no.clone() })
            .expect("by_no")
            .covering(),
    }
}

pub const INDEXES: [&str; 3] = ["by_buyer", "by_seller", "by_no"];

pub fn table<S: Store>(store: S, ix: &Indexes) -> Indexed<S, Order> {
    Indexed::new(store)
        .with_index(&ix.by_buyer)
        .and_then(|t| t.with_index(&ix.by_seller))
        .and_then(|t| t.with_index(&ix.by_no))
        .expect("indexes")
}

// ---------------------------------------------------------------------------------------
// The crash wrapper: one for every crash test (`tests/common/crashy.rs`, declared at each
// binary's root)

pub use crate::crashy::{CrashError, Crashy};

// ---------------------------------------------------------------------------------------
// Random operations

#[derive(Debug, Clone)]
pub enum TOp {
    Put(Order),
    Delete(u32),
    IndexBatch(Vec<TOp>),
}

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub const IDS: u64 = 24;

fn random_order(rng: &mut Rng, model: &BTreeMap<u32, Order>) -> Order {
    let id = rng.below(IDS) as u32;
    // Updates change one field of the stored order most of the time (a covered value only,
    // an index key, the unique key), so every kind of index change is frequent.
    if let (Some(old), true) = (model.get(&id), rng.below(4) != 0) {
        let mut o = old.clone();
        match rng.below(4) {
            0 => o.amount = rng.below(3) as u32,
            1 => o.buyer = rng.below(4) as u16,
            2 => o.seller = rng.below(4) as u16,
            _ => o.no = format!("N{}", rng.below(28)),
        }
        return o;
    }
    Order {
        id,
        buyer: rng.below(4) as u16,
        seller: rng.below(4) as u16,
        no: format!("N{}", rng.below(28)),
        amount: rng.below(3) as u32,
    }
}

/// `n` operations; the model is only a guide for generating updates (what actually happens
/// is checked against the store).
pub fn gen_ops(seed: u64, n: usize) -> Vec<TOp> {
    let mut rng = Rng::new(seed);
    let mut model = BTreeMap::new();
    let mut ops = Vec::with_capacity(n);
    let one = |rng: &mut Rng, model: &mut BTreeMap<u32, Order>| {
        if rng.below(10) < 7 {
            let o = random_order(rng, model);
            model.insert(o.id, o.clone());
            TOp::Put(o)
        } else {
            let id = rng.below(IDS) as u32;
            model.remove(&id);
            TOp::Delete(id)
        }
    };
    while ops.len() < n {
        if rng.below(7) == 0 {
            let k = 2 + rng.below(3) as usize;
            let batch = (0..k).map(|_| one(&mut rng, &mut model)).collect();
            ops.push(TOp::IndexBatch(batch));
        } else {
            ops.push(one(&mut rng, &mut model));
        }
    }
    ops
}

/// Each primary key an operation touches, with the state it leaves (the last op wins).
fn finals(op: &TOp, out: &mut BTreeMap<u32, Option<Order>>) {
    match op {
        TOp::Put(o) => {
            out.insert(o.id, Some(o.clone()));
        }
        TOp::Delete(id) => {
            out.insert(*id, None);
        }
        TOp::IndexBatch(ops) => ops.iter().for_each(|o| finals(o, out)),
    }
}

fn run_op<S: Store>(t: &Indexed<S, Order>, op: &TOp) -> Result<(), IndexError<S::Error>> {
    match op {
        TOp::Put(o) => t.put(o),
        TOp::Delete(id) => t.delete(&OrderId { id: *id }).map(drop),
        TOp::IndexBatch(ops) => {
            let mut b = IndexBatch::new();
            for o in ops {
                match o {
                    TOp::Put(o) => b.put(o.clone()),
                    TOp::Delete(id) => b.delete(OrderId { id: *id }),
                    TOp::IndexBatch(_) => unreachable!("batches are flat"),
                };
            }
            t.apply(&b)
        }
    }
}

// ---------------------------------------------------------------------------------------
// The proof

/// What a proof did and found.
#[derive(Debug, Default, Clone, Copy)]
pub struct Proof {
    /// Operations run (each replay counted).
    pub ops: u64,
    /// Crashes injected.
    pub crashes: u64,
    /// Operations refused by the unique check.
    pub unique_refusals: u64,
    /// State checks run (each: base table, invariant, verified reads).
    pub checks: u64,
    /// Verified reads compared with the model.
    pub reads: u64,
    /// Extra index rows (dangling, stale, outdated) seen after crashes, before repair.
    pub extras_seen: u64,
    /// Rows a read returned that the model does not have, or in the wrong order.
    pub wrong_rows: u64,
    /// Records the model has that a read did not return, or whose index row was missing.
    pub lost_records: u64,
    /// Base rows that are neither the state before nor after the crashed operation.
    pub base_mismatches: u64,
    /// Index rows differing from the rebuilt index after the repairing scrub.
    pub scrub_mismatches: u64,
}

impl Proof {
    pub fn add(&mut self, o: Proof) {
        self.ops += o.ops;
        self.crashes += o.crashes;
        self.unique_refusals += o.unique_refusals;
        self.checks += o.checks;
        self.reads += o.reads;
        self.extras_seen += o.extras_seen;
        self.wrong_rows += o.wrong_rows;
        self.lost_records += o.lost_records;
        self.base_mismatches += o.base_mismatches;
        self.scrub_mismatches += o.scrub_mismatches;
    }

    pub fn assert_clean(&self, what: &str) {
        eprintln!("{what}: {self:?}");
        assert_eq!(
            (
                self.wrong_rows,
                self.lost_records,
                self.base_mismatches,
                self.scrub_mismatches
            ),
            (0, 0, 0, 0),
            "{what}: {self:?}"
        );
        assert!(self.checks > 0 && self.reads > 0, "{what}: nothing checked");
    }
}

/// Every row of a table, through the plain store.
pub fn dump<S: Store>(store: &S, table: &Table) -> Vec<KeyValue>
where
    S::Error: fmt::Debug,
{
    let mut out = Vec::new();
    let mut start = Vec::new();
    loop {
        let rows = store.scan(table, &start, None, 1000, false).expect("scan");
        let n = rows.len();
        if let Some((last, _)) = rows.last() {
            start = last.clone();
            start.push(0);
        }
        out.extend(rows);
        if n < 1000 {
            return out;
        }
    }
}

/// Delete every row of the base and index tables.
pub fn clear<S: Store>(store: &S)
where
    S::Error: fmt::Debug,
{
    let mut tables = vec![Table::Base];
    tables.extend(INDEXES.iter().map(|n| Table::Index((*n).into())));
    for t in tables {
        let deletes: Vec<Write> = dump(store, &t)
            .into_iter()
            .map(|(key, _)| Write::Delete {
                table: t.clone(),
                key,
            })
            .collect();
        if !deletes.is_empty() {
            store.write(&deletes).expect("clear");
        }
    }
}

/// Run `ops` from `from` on a fresh handle that crashes at unit `fail_at`, keeping `model`
/// true to the store. Returns the index of the operation that crashed, if one did.
#[allow(clippy::too_many_arguments)] // a test helper: the run's state spelled out
fn run_until_crash<S: Store>(
    store: &S,
    ix: &Indexes,
    ops: &[TOp],
    from: usize,
    fail_at: Option<u64>,
    atomic: bool,
    model: &mut BTreeMap<u32, Order>,
    proof: &mut Proof,
) -> Option<usize>
where
    S::Error: fmt::Debug,
{
    let crashy = Crashy::new(store, fail_at, atomic);
    let t = table(&crashy, ix);
    for (i, op) in ops.iter().enumerate().skip(from) {
        proof.ops += 1;
        let mut touched = BTreeMap::new();
        finals(op, &mut touched);
        match run_op(&t, op) {
            Ok(()) => {
                for (id, state) in touched {
                    match state {
                        Some(o) => model.insert(id, o),
                        None => model.remove(&id),
                    };
                }
            }
            Err(IndexError::UniqueViolation { .. }) => proof.unique_refusals += 1,
            Err(IndexError::Store(CrashError::Crash)) => {
                proof.crashes += 1;
                // Each touched key is either as before or as the operation leaves it.
                let plain = table(store, ix);
                for (id, state) in touched {
                    let now = plain.get(&OrderId { id }).expect("get");
                    if now == state {
                        match state {
                            Some(o) => model.insert(id, o),
                            None => model.remove(&id),
                        };
                    } else if now.as_ref() != model.get(&id) {
                        proof.base_mismatches += 1;
                    }
                }
                return Some(i);
            }
            Err(e) => panic!("operation {i} ({op:?}) failed: {e}"),
        }
    }
    None
}

/// Rows of `index`'s table expected from the model: row key → value.
fn rebuilt<S: Store>(
    t: &Indexed<S, Order>,
    model: &BTreeMap<u32, Order>,
) -> BTreeMap<Table, BTreeMap<Vec<u8>, Vec<u8>>>
where
    S::Error: fmt::Debug,
{
    let mut out: BTreeMap<Table, BTreeMap<Vec<u8>, Vec<u8>>> = BTreeMap::new();
    for n in INDEXES {
        out.insert(Table::Index(n.into()), BTreeMap::new());
    }
    for o in model.values() {
        for (table, (k, v)) in t.expected_rows(o).expect("expected rows") {
            out.entry(table).or_default().insert(k, v);
        }
    }
    out
}

/// Compare a read with the expected list; count wrong and lost rows.
fn compare<T: PartialEq + fmt::Debug>(got: &[T], want: &[T], proof: &mut Proof, what: &str) {
    proof.reads += 1;
    if got == want {
        return;
    }
    let wrong = got.iter().filter(|g| !want.contains(g)).count() as u64;
    let lost = want.iter().filter(|w| !got.contains(w)).count() as u64;
    // same rows in another order count as wrong
    let wrong = if wrong == 0 && lost == 0 {
        got.len() as u64
    } else {
        wrong
    };
    eprintln!("MISMATCH {what}: got {got:?}\nwant {want:?}");
    proof.wrong_rows += wrong;
    proof.lost_records += lost;
}

/// Checks 1–3 (see the module docs), and — `scrub` — 4.
pub fn check_state<S: Store>(
    store: &S,
    ix: &Indexes,
    model: &BTreeMap<u32, Order>,
    scrub: bool,
    proof: &mut Proof,
) where
    S::Error: fmt::Debug,
{
    proof.checks += 1;
    let t = table(store, ix);
    // 1. the base table is the model
    let base: BTreeMap<u32, Order> = dump(store, &Table::Base)
        .into_iter()
        .map(|(k, v)| {
            let key = OrderId::from_row_key(&k).expect("base key");
            let o = Order::from_row(key, &v).expect("base value");
            (o.id, o)
        })
        .collect();
    if &base != model {
        proof.base_mismatches += 1;
        eprintln!("BASE MISMATCH\n{base:?}\n{model:?}");
    }
    // 2. invariant (I): every live record's index rows exist and name it
    let rebuilt_rows = rebuilt(&t, model);
    for (table, rows) in &rebuilt_rows {
        let keys: Vec<Vec<u8>> = rows.keys().cloned().collect();
        let found = store.get(table, &keys).expect("get index rows");
        for ((k, v), f) in rows.iter().zip(found) {
            let pk_part = &v[..5 + u32::from_be_bytes([v[1], v[2], v[3], v[4]]) as usize];
            if !f.is_some_and(|f| f.starts_with(pk_part)) {
                eprintln!("MISSING {table} row {k:?}");
                proof.lost_records += 1;
            }
        }
        let have = dump(store, table);
        proof.extras_seen += have.iter().filter(|(k, v)| rows.get(k) != Some(v)).count() as u64;
    }
    // 3. verified reads
    let orders: Vec<&Order> = model.values().collect();
    let sorted = |mut v: Vec<(Vec<u8>, Order)>| {
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v.into_iter().map(|(_, o)| o).collect::<Vec<_>>()
    };
    let pk = |o: &Order| o.key().to_row_key().expect("pk").to_vec();
    // by_buyer: logical order (buyer, amount, pk) across 4 salt buckets
    let buyer_key = |o: &Order| {
        let mut k = ByBuyer {
            buyer: o.buyer,
            amount: o.amount,
        }
        .to_row_key()
        .expect("k")[1..]
            .to_vec();
        k.extend(pk(o));
        k
    };
    let all_buyer = sorted(
        orders
            .iter()
            .map(|o| (buyer_key(o), (*o).clone()))
            .collect(),
    );
    let got = t
        .scan(&ix.by_buyer, ByBuyer::scan().ranges())
        .records()
        .expect("scan by_buyer");
    compare(&got, &all_buyer, proof, "by_buyer all");
    let got = t
        .scan(&ix.by_buyer, ByBuyer::scan().ranges())
        .reverse()
        .records()
        .expect("reverse by_buyer");
    let mut rev = all_buyer.clone();
    rev.reverse();
    compare(&got, &rev, proof, "by_buyer all reverse");
    // paged, 3 at a time, forward and reverse
    for reverse in [false, true] {
        let mut paged = Vec::new();
        let mut after: Option<(ByBuyer, OrderId)> = None;
        loop {
            let mut s = t
                .scan(&ix.by_buyer, ByBuyer::scan().ranges())
                .limit(3)
                .page_rows(2);
            if reverse {
                s = s.reverse();
            }
            if let Some((i, k)) = &after {
                s = s.after(i, k).expect("after");
            }
            let page = s.collect().expect("page");
            let Some(last) = page.last() else { break };
            after = Some((last.index_key.clone(), last.record.key()));
            paged.extend(page.into_iter().map(|h| h.record));
        }
        compare(
            &paged,
            if reverse { &rev } else { &all_buyer },
            proof,
            "by_buyer paged",
        );
    }
    for b in 0..4u16 {
        for a in 0..3u32 {
            // an equality on every field of a non-unique index key
            let want: Vec<Order> = all_buyer
                .iter()
                .filter(|o| o.buyer == b && o.amount == a)
                .cloned()
                .collect();
            let got = t
                .scan(&ix.by_buyer, ByBuyer::scan().buyer(b).amount(a).ranges())
                .records()
                .expect("buyer and amount");
            compare(&got, &want, proof, "by_buyer full key");
            let got = t
                .scan(&ix.by_buyer, ByBuyer::scan().buyer(b).amount(a).ranges())
                .reverse()
                .records()
                .expect("buyer and amount reverse");
            compare(
                &got,
                &want.iter().rev().cloned().collect::<Vec<_>>(),
                proof,
                "by_buyer full key reverse",
            );
        }
        let want: Vec<Order> = all_buyer.iter().filter(|o| o.buyer == b).cloned().collect();
        let got = t
            .scan(&ix.by_buyer, ByBuyer::scan().buyer(b).ranges())
            .records()
            .expect("buyer");
        compare(&got, &want, proof, "by_buyer eq");
        let want: Vec<Order> = want.into_iter().filter(|o| o.amount >= 1).collect();
        let got = t
            .scan(
                &ix.by_buyer,
                ByBuyer::scan().buyer(b).amount_range(1..).ranges(),
            )
            .records()
            .expect("buyer range");
        compare(&got, &want, proof, "by_buyer range");
    }
    // by_seller: (seller, pk)
    let seller_key = |o: &Order| {
        let mut k = BySeller { seller: o.seller }
            .to_row_key()
            .expect("k")
            .to_vec();
        k.extend(pk(o));
        k
    };
    let all_seller = sorted(
        orders
            .iter()
            .map(|o| (seller_key(o), (*o).clone()))
            .collect(),
    );
    let got = t
        .scan(&ix.by_seller, BySeller::scan().ranges())
        .records()
        .expect("seller");
    compare(&got, &all_seller, proof, "by_seller all");
    let want: Vec<Order> = all_seller
        .iter()
        .filter(|o| (1..3).contains(&o.seller))
        .cloned()
        .collect();
    let got = t
        .scan(&ix.by_seller, BySeller::scan().seller_range(1..3).ranges())
        .records()
        .expect("seller range");
    compare(&got, &want, proof, "by_seller range");
    for s in 0..4u16 {
        let want: Vec<Order> = all_seller
            .iter()
            .filter(|o| o.seller == s)
            .cloned()
            .collect();
        let got = t
            .scan(&ix.by_seller, BySeller::scan().seller(s).ranges())
            .records()
            .expect("seller eq");
        compare(&got, &want, proof, "by_seller eq");
    }
    let want: Vec<Order> = all_seller
        .iter()
        .filter(|o| (1..=2).contains(&o.seller))
        .cloned()
        .collect();
    let got = t
        .scan(&ix.by_seller, BySeller::scan().seller_range(1..=2).ranges())
        .reverse()
        .records()
        .expect("seller inclusive range");
    compare(
        &got,
        &want.into_iter().rev().collect::<Vec<_>>(),
        proof,
        "by_seller inclusive range reverse",
    );
    // an IN-list: several exact-key ranges
    let want: Vec<Order> = all_seller
        .iter()
        .filter(|o| o.seller == 0 || o.seller == 3)
        .cloned()
        .collect();
    let got = t
        .scan(
            &ix.by_seller,
            BySeller::scan()
                .seller_in([3, 0])
                .expect("in-list")
                .ranges(),
        )
        .records()
        .expect("seller in-list");
    compare(&got, &want, proof, "by_seller in-list");
    // by_no: unique
    let all_no = sorted(
        orders
            .iter()
            .map(|o| (o.no.as_bytes().to_vec(), (*o).clone()))
            .collect(),
    );
    let got = t
        .scan(&ix.by_no, OrderNo::scan().ranges())
        .records()
        .expect("no");
    compare(&got, &all_no, proof, "by_no all");
    // the whole unsalted table backwards: one range without bounds
    let got = t
        .scan(&ix.by_no, OrderNo::scan().ranges())
        .reverse()
        .page_rows(5)
        .records()
        .expect("no reverse");
    compare(
        &got,
        &all_no.iter().rev().cloned().collect::<Vec<_>>(),
        proof,
        "by_no all reverse",
    );
    for n in [1, 3, 7] {
        let no = format!("N{n}");
        let want: Vec<Order> = all_no.iter().filter(|o| o.no == no).cloned().collect();
        let got = t
            .scan(&ix.by_no, OrderNo::scan().no(&no).ranges())
            .records()
            .expect("no eq");
        compare(&got, &want, proof, "by_no eq");
    }
    let want: Vec<Order> = all_no
        .iter()
        .filter(|o| o.no.starts_with("N1"))
        .cloned()
        .collect();
    let got = t
        .scan(&ix.by_no, OrderNo::scan().no_starts_with("N1").ranges())
        .records()
        .expect("no prefix");
    compare(&got, &want, proof, "by_no starts_with");

    // 4. a repairing scrub, then the index tables are the rebuilt index
    if scrub {
        let report = t.scrub().repair().page_rows(7).run(|_| {}).expect("scrub");
        // a missing row here is a record the index lost; a conflict, two holders of a unique key
        proof.lost_records += report.missing;
        proof.wrong_rows += report.conflicts;
        for (table, rows) in &rebuilt_rows {
            let have: BTreeMap<Vec<u8>, Vec<u8>> = dump(store, table).into_iter().collect();
            if &have != rows {
                let keys: BTreeSet<_> = have.keys().chain(rows.keys()).collect();
                proof.scrub_mismatches += keys
                    .into_iter()
                    .filter(|k| have.get(*k) != rows.get(*k))
                    .count() as u64;
            }
        }
        let again = t.scrub().run(|_| {}).expect("scrub again");
        assert!(again.is_clean(), "{again}");
    }
}

/// Crash at every write unit of `ops` in turn: for each n, clear the tables, run until the
/// n-th unit fails, check, go on with the rest on a new handle, check and scrub.
pub fn exhaustive<S: Store>(store: &S, ops: &[TOp], atomic: bool) -> (Proof, u64)
where
    S::Error: fmt::Debug,
{
    let ix = indexes();
    let mut proof = Proof::default();
    // the units of an uncrashed run
    clear(store);
    let counter = Crashy::new(store, None, atomic);
    let t = table(&counter, &ix);
    for op in ops {
        match run_op(&t, op) {
            Ok(()) | Err(IndexError::UniqueViolation { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    let units = counter.units();
    for n in 0..units {
        clear(store);
        let mut model = BTreeMap::new();
        let crashed = run_until_crash(store, &ix, ops, 0, Some(n), atomic, &mut model, &mut proof);
        let Some(at) = crashed else {
            panic!("unit {n} of {units} did not crash");
        };
        check_state(store, &ix, &model, false, &mut proof);
        let rest = run_until_crash(
            store,
            &ix,
            ops,
            at + 1,
            None,
            atomic,
            &mut model,
            &mut proof,
        );
        assert_eq!(rest, None);
        check_state(store, &ix, &model, true, &mut proof);
    }
    (proof, units)
}

/// One long run with a crash every 1..=`max_gap` write units, a "restart" after each; checks
/// after every `check_every`-th crash and at the end (with the scrub).
pub fn sequential<S: Store>(
    store: &S,
    ops: &[TOp],
    seed: u64,
    max_gap: u64,
    check_every: u64,
    atomic: bool,
) -> Proof
where
    S::Error: fmt::Debug,
{
    let ix = indexes();
    let mut proof = Proof::default();
    let mut rng = Rng::new(seed);
    clear(store);
    let mut model = BTreeMap::new();
    let mut from = 0;
    while from < ops.len() {
        let gap = 1 + rng.below(max_gap);
        match run_until_crash(
            store,
            &ix,
            ops,
            from,
            Some(gap),
            atomic,
            &mut model,
            &mut proof,
        ) {
            Some(at) => {
                from = at + 1;
                if proof.crashes % check_every == 0 {
                    check_state(store, &ix, &model, false, &mut proof);
                }
            }
            None => from = ops.len(),
        }
    }
    check_state(store, &ix, &model, true, &mut proof);
    proof
}
