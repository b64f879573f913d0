//! `rowkey::migrate` over Bigtable (`BigtableStore` with whole rows) against the Cloud Bigtable emulator (one
//! per test binary, started on a free loopback port; a missing emulator fails the test naming
//! the Debian package `google-cloud-cli-bigtable-emulator`).

use std::collections::BTreeMap;

use rowkey::migrate::{all_ranges, MigrateError, Migration, Side};
use rowkey::store::{Store, Table as StoreTable, Write};
use rowkey::{RowKey, ScanRange, ScanRanges};
use rowkey_bigtable::store::{decode_cells, encode_cells, BigtableStore};
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::{Batch, Cell, Client, Error, RowCell, Table};

/// Events salted over 16 buckets …
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ev16 {
    #[salt(buckets = 16)]
    device: u32,
    ts: u64,
}

/// … re-keyed to 32.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ev32 {
    #[salt(buckets = 32)]
    device: u32,
    ts: u64,
}

impl From<Ev16> for Ev32 {
    fn from(e: Ev16) -> Ev32 {
        Ev32 {
            device: e.device,
            ts: e.ts,
        }
    }
}

const DEVICES: u32 = 100;
const PER_DEVICE: u64 = 25;
const ROWS: u64 = DEVICES as u64 * PER_DEVICE;
const BATCH: usize = 300;

fn client() -> Client {
    let emulator = Emulator::shared().unwrap_or_else(|e| panic!("{e}"));
    Client::emulator(emulator.endpoint(), "migrate", "migrate").expect("emulator client")
}

/// A record's cells, in the server's order (family, column, newest first): two families,
/// three columns, distinct explicit timestamps.
fn cells(device: u32, ts: u64) -> Vec<RowCell> {
    let at = 1_600_000_000_000_000 + i64::from(device) * 1_000_000 + ts as i64 * 1000;
    let cell = |family: &str, q: &[u8], value: Vec<u8>, t: i64| RowCell {
        family_name: family.into(),
        qualifier: q.to_vec(),
        value,
        timestamp_micros: t,
        labels: vec![],
    };
    vec![
        cell("d", b"temp", format!("{device}.{ts}").into_bytes(), at),
        cell(
            "d",
            b"v\0bin",
            vec![device as u8, ts as u8, 0, 0xFF],
            at + 5000,
        ),
        cell("e", b"", b"meta".to_vec(), at - 7000),
    ]
}

fn records() -> impl Iterator<Item = (u32, u64)> {
    (0..DEVICES).flat_map(|d| (0..PER_DEVICE).map(move |t| (d * 7 + 1, t * 60)))
}

/// A table of `Ev16` rows pre-split at the 16 buckets.
async fn load(client: &Client, id: &str) -> Table {
    client
        .admin()
        .await
        .expect("admin")
        .create_table_for::<Ev16>(id, &["d", "e"], 16)
        .await
        .expect("create");
    let table = client.table(id);
    let mut batch = Batch::new();
    for (device, ts) in records() {
        let cells = cells(device, ts)
            .into_iter()
            .map(|c| Cell::new(c.family_name, c.qualifier, c.value).at(c.timestamp_micros));
        batch.put(&table, &Ev16 { device, ts }, cells).expect("put");
    }
    assert_eq!(batch.apply().await.expect("load"), ROWS as usize);
    table
}

/// Every row of a table (all must decode as `Ev32`), as key bytes → cells (as a blob).
async fn dump(table: &Table) -> BTreeMap<Vec<u8>, Vec<u8>> {
    table
        .read::<Ev32>(&ScanRanges::one(ScanRange::new(b"", None)))
        .single_request()
        .collect()
        .await
        .expect("every row decodes as Ev32")
        .into_iter()
        .map(|(_, row)| (row.key, encode_cells(&row.cells)))
        .collect()
}

/// The records in Ev32's logical order (device, ts), with their cell blobs.
fn expected() -> Vec<(Ev32, Vec<u8>)> {
    let mut v: Vec<(Ev32, Vec<u8>)> = records()
        .map(|(device, ts)| (Ev32 { device, ts }, encode_cells(&cells(device, ts))))
        .collect();
    v.sort_by_key(|(k, _)| (k.device, k.ts));
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resalt_16_to_32_interrupted_resumed_verified_retired() {
    let client = client();
    BigtableStore::create_checkpoint_table(&client, "checkpoints")
        .await
        .expect("checkpoint table");
    let checkpoints = client.table("checkpoints");
    let resumed = load(&client, "ev_resumed").await;
    let straight = load(&client, "ev_straight").await;
    let source = load(&client, "ev_source").await;
    let handle = tokio::runtime::Handle::current();
    client
        .admin()
        .await
        .expect("admin")
        .create_table_for::<Ev32>("ev_dest", &["d", "e"], 32)
        .await
        .expect("create");
    let dest = client.table("ev_dest");

    let (r, s, src, dst, cp) = (
        resumed.clone(),
        straight.clone(),
        source.clone(),
        dest.clone(),
        checkpoints.clone(),
    );
    // The migration blocks on the client: run it on a blocking thread, as documented.
    tokio::task::spawn_blocking(move || {
        // 1. In place, stopped after 3 batches.
        let store = BigtableStore::new(handle.clone(), &r, &cp).whole_rows();
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store)
            .name("resumed")
            .batch_size(BATCH);
        let first = m.run_batches(3, |_| {}).expect("first run");
        assert!(!first.complete);
        assert_eq!((first.batches, first.rows), (3, 3 * BATCH as u64));
        assert!(m.verify().is_err(), "not all copied yet");

        // Mid-migration, a dual read is the logical union: every record once, in Ev32's
        // logical order, with its cells, from both layouts.
        let dual: Vec<_> = m
            .dual_read_all()
            .collect::<Result<_, _>>()
            .expect("dual read");
        let (mut old, mut new) = (0, 0);
        for row in &dual {
            match row.from {
                Side::Source => old += 1,
                Side::Destination => new += 1,
            }
        }
        assert!(
            old > 0 && new > 0,
            "both layouts read ({old} old, {new} new)"
        );
        let got: Vec<(Ev32, Vec<u8>)> = dual.into_iter().map(|r| (r.key, r.value)).collect();
        assert_eq!(got, expected());

        // 2. A new "process": resume from the checkpoint row, verify, retire.
        let store = BigtableStore::new(handle.clone(), &r, &cp).whole_rows();
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store)
            .name("resumed")
            .batch_size(BATCH);
        let cp_row = m.checkpoint().expect("checkpoint").expect("saved");
        assert_eq!(cp_row.copied, 3 * BATCH as u64);
        let rest = m.run(|_| {}).expect("resume");
        assert!(rest.complete);
        assert_eq!(rest.rows, ROWS);
        let verified = m.verify().expect("verify");
        assert_eq!(verified.report().source_rows, ROWS);
        let retired = m.retire_source(&verified, |_| {}).expect("retire");
        assert!(retired.complete);
        // Fixed points (16- and 32-bucket salts agree) keep their key and are not deleted.
        assert!(retired.rows > 0 && retired.rows < ROWS, "{retired:?}");

        // 3. The same migration without interruption, in another table.
        let store = BigtableStore::new(handle.clone(), &s, &cp).whole_rows();
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store)
            .name("straight")
            .batch_size(BATCH);
        assert!(m.run(|_| {}).expect("run").complete);
        let verified = m.verify().expect("verify");
        let straight_retired = m.retire_source(&verified, |_| {}).expect("retire");
        assert_eq!(straight_retired.rows, retired.rows);

        // 4. Two tables: every row moves (nothing is a fixed point across tables).
        let store = BigtableStore::new(handle, &src, &cp)
            .destination(&dst)
            .whole_rows();
        assert!(!store.same_table());
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store).batch_size(BATCH);
        let run = m.run_batches(2, |_| {}).expect("run");
        assert!(!run.complete);
        assert!(m.run(|_| {}).expect("run").complete);
        m.verify().expect("verify");
        // Copying everything again (a reset, or batches re-sent after a crash) writes the same
        // cells at the same timestamps: still one version per cell, still a match.
        m.reset().expect("reset");
        assert_eq!(m.run(|_| {}).expect("run again").rows, ROWS);
        let verified = m.verify().expect("verify after a second copy");
        let all = m.retire_source(&verified, |_| {}).expect("retire");
        assert_eq!(all.rows, ROWS);
        assert!(m.count_source().expect("count") == 0);
    })
    .await
    .expect("migration thread");

    // The interrupted table equals the uninterrupted one and the two-table destination, and
    // holds exactly the expected records: every cell, timestamp and value intact.
    let want: BTreeMap<Vec<u8>, Vec<u8>> = records()
        .map(|(device, ts)| {
            (
                Ev32 { device, ts }.to_row_key().expect("key").to_vec(),
                encode_cells(&cells(device, ts)),
            )
        })
        .collect();
    let got = dump(&resumed).await;
    assert_eq!(got.len(), ROWS as usize);
    assert!(
        got == want,
        "the re-keyed table differs from the expected records"
    );
    assert!(dump(&straight).await == got, "interrupted != uninterrupted");
    assert!(dump(&dest).await == got, "two-table destination differs");
    assert!(dump(&source).await.is_empty(), "two-table source retired");
    // Every row is a 32-bucket key now: one per bucket range at least.
    let per_bucket = all_ranges(Ev32::LAYOUT)
        .iter()
        .filter(|r| got.keys().any(|k| r.contains(k)))
        .count();
    assert_eq!(per_bucket, 32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_writes_are_errors_and_stop_the_batch() {
    let client = client();
    BigtableStore::create_checkpoint_table(&client, "checkpoints_w")
        .await
        .expect("checkpoint table");
    let source = load(&client, "fw_source").await;
    client
        .admin()
        .await
        .expect("admin")
        .create_table_for::<Ev32>("fw_dest", &["d"], 32)
        .await
        .expect("create");
    let (dest, cp) = (client.table("fw_dest"), client.table("checkpoints_w"));
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        // A store that keeps values in one cell (an indexed table's) refuses rows with other
        // columns by name instead of reading them as empty values: a migration over it stops
        // at its first scan, and nothing is written.
        let one_cell = BigtableStore::new(handle.clone(), &source, &cp).destination(&dest);
        let e = one_cell
            .scan(&StoreTable::Base, b"", None, 10, false)
            .expect_err("rows without r:v");
        assert!(
            e.to_string().contains("has no cell r:v") && e.to_string().contains("whole_rows"),
            "{e}"
        );
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&one_cell).batch_size(BATCH);
        assert!(matches!(m.run(|_| {}), Err(MigrateError::Store(_))));
        assert!(one_cell
            .scan(&StoreTable::Destination, b"", None, 1, false)
            .expect("scan")
            .is_empty());

        let store = BigtableStore::new(handle, &source, &cp)
            .destination(&dest)
            .whole_rows();
        // Direct: one entry with an unknown family fails, the other is written; both reported.
        let ok = (b"\x00ok".to_vec(), encode_cells(&cells(1, 1)[..2]));
        let bad = (b"\x00bad".to_vec(), encode_cells(&cells(1, 1)));
        let put = |(key, value): &(Vec<u8>, Vec<u8>)| Write::Put {
            table: StoreTable::Destination,
            key: key.clone(),
            value: value.clone(),
        };
        match store.write(&[put(&ok), put(&bad)]) {
            Err(Error::Write(w)) => {
                assert_eq!(w.written, 1);
                assert_eq!(w.failed.len(), 1);
                assert_eq!(w.failed[0].key, bad.0);
                assert_eq!(w.failed[0].index, 1);
            }
            other => panic!("expected a write failure, got {other:?}"),
        }
        // (The emulator applies an entry's mutations one by one, so `bad` may hold its `d`
        // cells; Cloud Bigtable applies an entry atomically.)
        assert_eq!(
            store
                .get(&StoreTable::Destination, std::slice::from_ref(&ok.0))
                .expect("get"),
            vec![Some(ok.1)]
        );
        // A cell blob that does not decode is refused before anything is sent.
        let e = store
            .write(&[put(&(b"k".to_vec(), vec![0, 9]))])
            .expect_err("bad blob");
        assert!(e.to_string().contains("at byte"), "{e}");
        assert!(decode_cells(&[0, 9]).is_err());
        // Through a migration: the destination has no family `e`, so the first batch fails,
        // the error names the entries, and no checkpoint is written.
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store).batch_size(BATCH);
        match m.run(|_| {}) {
            Err(MigrateError::Store(Error::Write(w))) => {
                assert_eq!(w.failed.len(), BATCH, "every entry writes family e");
                assert!(w.failed.iter().all(|f| f.table == "fw_dest"));
            }
            other => panic!("expected a write failure, got {other:?}"),
        }
        assert_eq!(m.checkpoint().expect("checkpoint"), None);
    })
    .await
    .expect("migration thread");
}

/// A migration begun before the store reshape kept its checkpoint in the row `<name>` of its
/// checkpoint table (the old `migrate::BigtableStore::same_table(.., checkpoints, name)`); the
/// migration given that name resumes from it, and writes its next checkpoint to the new row
/// `<base table>/<name>`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checkpoint_row_of_the_earlier_layout_is_resumed() {
    let client = client();
    for id in ["cp_new", "cp_old"] {
        BigtableStore::create_checkpoint_table(&client, id)
            .await
            .expect("checkpoint table");
    }
    let (cp_new, cp_old) = (client.table("cp_new"), client.table("cp_old"));
    let table = load(&client, "ev_legacy").await;
    let handle = tokio::runtime::Handle::current();
    let (t, new, old) = (table.clone(), cp_new.clone(), cp_old.clone());
    let blob = tokio::task::spawn_blocking(move || {
        let store = BigtableStore::new(handle, &t, &new).whole_rows();
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store)
            .name("ev-16-to-32")
            .batch_size(BATCH);
        m.run_batches(2, |_| {}).expect("first run");
        store
            .load_checkpoint("ev-16-to-32")
            .expect("load")
            .expect("saved")
    })
    .await
    .expect("thread");
    // the checkpoint in the old form: the cell m:checkpoint (timestamp 0) of the row named
    // after the migration
    let mut batch = Batch::new();
    batch.put_raw(
        &cp_old,
        b"ev-16-to-32".to_vec(),
        [Cell::new("m", b"checkpoint", blob).at(0)],
    );
    batch.apply().await.expect("old checkpoint row");

    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let store = BigtableStore::new(handle, &table, &old).whole_rows();
        let m = Migration::<_, Ev16, Ev32, _>::from_into(&store)
            .name("ev-16-to-32")
            .batch_size(BATCH);
        let cp = m
            .checkpoint()
            .expect("checkpoint")
            .expect("the old row is read");
        assert_eq!(cp.copied, 2 * BATCH as u64);
        let rest = m.run(|_| {}).expect("resume");
        assert!(rest.complete);
        assert_eq!(rest.rows, ROWS);
        assert_eq!(rest.rows_this_run, ROWS - 2 * BATCH as u64);
        m.verify().expect("verify");
        // the new row holds the checkpoint now and is read first (the old row, never written,
        // still says 2 batches)
        assert_eq!(
            m.checkpoint().expect("checkpoint").expect("saved").copied,
            ROWS
        );
    })
    .await
    .expect("thread");
}
