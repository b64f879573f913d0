//! Batch writes while one region of the table is unavailable (issue 49's second and third
//! defects): HBase refuses a `putMultiple`/`deleteMultiple` that touches the region after the
//! gateway's own retries, having applied every entry of the other regions. What `apply`
//! reports must be true of every entry — written, `Failed` (not applied) or `Unknown` — and it
//! must never send again what could be written twice: checked through a raw scan of every
//! version after the region is back.

use std::collections::BTreeMap;

use rowkey::plan::SplitPoints;
use rowkey::RowKey;
use rowkey_hbase::thrift::{TColumnFamilyDescriptor, TScan, TTableDescriptor, TTableName};
use rowkey_hbase::{Batch, Cell, Client, Error, Outcome, WriteFailures};

use super::{client, hbase};

/// A 16-bucket salted key, as the user who found the defects had.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
struct Account {
    #[sep]
    name: String,
    n: u32,
}

const TABLE: &str = "wr_unavailable";
/// The bucket whose region is taken offline.
const OFFLINE: u8 = 3;

/// 160 keys, 10 in each bucket.
fn keys() -> Vec<Account> {
    let mut keys = Vec::new();
    let mut per_bucket = [0usize; 16];
    let mut n = 0u32;
    while keys.len() < 160 {
        let k = Account {
            name: format!("acct{n}"),
            n,
        };
        n += 1;
        let bucket = usize::from(k.to_row_key().expect("encode")[0]);
        if per_bucket[bucket] < 10 {
            per_bucket[bucket] += 1;
            keys.push(k);
        }
    }
    keys
}

fn offline(k: &Account) -> bool {
    k.to_row_key().expect("encode")[0] == OFFLINE
}

/// Every version of every cell of the table: row → [(timestamp, value)], newest first.
fn versions(client: &Client, table: &str) -> BTreeMap<Vec<u8>, Vec<(i64, Vec<u8>)>> {
    let mut conn = client.open().expect("a raw connection");
    let scan = TScan::new(
        None, None, None, None, 10, None, None, None, None, None, None, None, None, None, None,
        None, None, None,
    );
    let rows = rowkey_hbase::thrift::TTHBaseServiceSyncClient::get_scanner_results(
        &mut conn,
        table.as_bytes().to_vec(),
        scan,
        100_000,
    )
    .expect("a raw scan of every version");
    rows.into_iter()
        .map(|r| {
            let cells = r
                .column_values
                .into_iter()
                .map(|c| (c.timestamp.unwrap_or_default(), c.value))
                .collect();
            (r.row.unwrap_or_default(), cells)
        })
        .collect()
}

fn values_of(all: &BTreeMap<Vec<u8>, Vec<(i64, Vec<u8>)>>, k: &Account) -> Vec<String> {
    all.get(&k.to_row_key().expect("encode").to_vec())
        .map(|cells| {
            cells
                .iter()
                .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Take the region of bucket `OFFLINE` of each of `tables` offline (`unassign`) or bring it
/// back (`assign`), in one run of the HBase shell (a JVM start each: the test makes two).
fn regions(action: &str, tables: &[&str]) {
    let mut script = String::from(
        "conn = org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(\
         org.apache.hadoop.hbase.HBaseConfiguration.create)\n\
         admin = conn.getAdmin\n",
    );
    let force = if action == "unassign" { ", true" } else { "" };
    for t in tables {
        script.push_str(&format!(
            "rs = admin.getRegions(org.apache.hadoop.hbase.TableName.valueOf('{t}'))\n\
             r = rs.find {{ |ri| ri.getStartKey.to_a == [{OFFLINE}] }}\n\
             raise 'no region of {t} starts at bucket {OFFLINE}' if r.nil?\n\
             admin.{action}(r.getRegionName{force})\n\
             puts \"REGION {t} #{{r.getEncodedName}} {action}\"\n"
        ));
    }
    script.push_str("conn.close\n");
    let out = hbase().shell(&script).unwrap_or_else(|e| panic!("{e}"));
    for t in tables {
        assert!(out.contains(&format!("REGION {t} ")), "{out}");
    }
}

/// The failures of a batch that must fail.
fn failures(batch: Batch) -> WriteFailures {
    match batch.apply() {
        Err(Error::Write(w)) => w,
        other => panic!("the batch touches the offline region: {other:?}"),
    }
}

/// Every entry is accounted for once: written, or listed with an outcome.
fn accounted(w: &WriteFailures, total: usize) {
    let mut seen: Vec<usize> = w.failed.iter().map(|f| f.index).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), w.failed.len(), "an entry listed twice: {w:?}");
    assert_eq!(w.written + w.failed.len(), total, "{w:?}");
}

/// A table of 16 regions (the salt buckets) keeping 5 versions, each key's first version
/// written while every region is online.
fn create(client: &Client, name: &str, keys: &[Account]) {
    if client.table_exists(name).expect("exists") {
        client.delete_table(name).expect("drop");
    }
    // five versions kept, so a put sent twice shows as a second version
    let mut family = TColumnFamilyDescriptor::new(
        b"f".to_vec(),
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    );
    family.max_versions = Some(5);
    let desc = TTableDescriptor::new(
        TTableName::new(None, name.as_bytes().to_vec()),
        vec![family],
        None,
        None,
    );
    let splits = Account::split_points(16).expect("split points");
    let mut admin = client.open().expect("connection");
    rowkey_hbase::thrift::TTHBaseServiceSyncClient::create_table(&mut admin, desc, splits)
        .expect("create");
    let table = client.table(name);
    let mut batch = Batch::new();
    for k in keys {
        batch
            .put(&table, k, [Cell::new("f", "q", "v1").at(1_000)])
            .expect("encode");
    }
    assert_eq!(batch.apply().expect("every region online"), 160);
}

#[test]
fn a_batch_across_an_unavailable_region_reports_what_is_known_and_sends_nothing_twice() {
    let client = client();
    let keys = keys();
    let (puts_t, deletes_t) = (TABLE, "wr_unavailable_deletes");
    create(&client, puts_t, &keys);
    create(&client, deletes_t, &keys);
    regions("unassign", &[puts_t, deletes_t]);
    let table = client.table(puts_t);

    // 1. puts at the server's time, across every bucket: none may be sent twice
    let mut batch = Batch::new();
    for k in &keys {
        batch
            .put(&table, k, [Cell::new("f", "q", "v2")])
            .expect("encode");
    }
    let w = failures(batch);
    accounted(&w, 160);
    for k in keys.iter().filter(|k| offline(k)) {
        let key = k.to_row_key().expect("encode").to_vec();
        assert!(
            w.failed.iter().any(|f| f.key == key),
            "{k:?} is in the offline region and was reported written"
        );
    }
    let server_time = w.clone();

    // 2. puts that carry their timestamp: sent again alone, so each ends written or failed
    let mut batch = Batch::new();
    for k in &keys {
        batch
            .put(&table, k, [Cell::new("f", "q", "v3").at(3_000)])
            .expect("encode");
    }
    let w = failures(batch);
    accounted(&w, 160);
    assert_eq!(w.written, 150, "{w:?}");
    for f in &w.failed {
        assert_eq!(f.outcome, Outcome::Failed, "{f}");
        assert_eq!(f.key[0], OFFLINE, "{f}");
    }

    // 3. puts only to the offline region: HBase counts every entry as failed
    let mut batch = Batch::new();
    for k in keys.iter().filter(|k| offline(k)) {
        batch
            .put(&table, k, [Cell::new("f", "q", "v4")])
            .expect("encode");
    }
    let w = failures(batch);
    accounted(&w, 10);
    assert!(
        w.failed.iter().all(|f| f.outcome == Outcome::Failed),
        "{w:?}"
    );

    // 4. deletes of whole rows, across every bucket (of the other table): an applied delete is
    // never reported failed (a caller would delete again)
    let deleting = client.table(deletes_t);
    let mut batch = Batch::new();
    for k in &keys {
        batch.delete(&deleting, k).expect("encode");
    }
    let deletes = failures(batch);
    accounted(&deletes, 160);

    regions("assign", &[puts_t, deletes_t]);
    // every online row holds v2 (server time), v3 (3,000) and v1 (1,000) once each: nothing was
    // sent twice; the offline rows hold v1 alone
    let all = versions(&client, puts_t);
    for (i, k) in keys.iter().enumerate() {
        let want: &[&str] = if offline(k) {
            &["v1"]
        } else {
            &["v2", "v3", "v1"]
        };
        assert_eq!(values_of(&all, k), want, "{k:?}");
        let listed = server_time.failed.iter().find(|f| f.index == i);
        if let Some(f) = listed.filter(|_| !offline(k)) {
            assert_eq!(f.outcome, Outcome::Unknown, "{f}: applied, reported failed");
        }
    }
    let all = versions(&client, deletes_t);
    for (i, k) in keys.iter().enumerate() {
        let values = values_of(&all, k);
        let listed = deletes.failed.iter().find(|f| f.index == i);
        if offline(k) {
            // nothing but the first put ever reached the offline region
            assert_eq!(values, ["v1"], "{k:?}");
            assert!(listed.is_some(), "{k:?}: not deleted, reported written");
            continue;
        }
        assert!(values.is_empty(), "{k:?}: {values:?}");
        if let Some(f) = listed {
            assert_ne!(f.outcome, Outcome::Failed, "{f}: applied, reported failed");
        }
    }
    client.delete_table(puts_t).expect("drop");
    client.delete_table(deletes_t).expect("drop");
}
