//! `resalt`: the OpenTSDB story — a layout that cannot change once data is written (OpenTSDB
//! #1244, #874: no new salt width or bucket count on a live table; #1536, #1096: turning
//! salting on hides every older row until an offline re-key) — done live with
//! `rowkey::migrate` on redb:
//!
//! 1. a table of metric rows salted with 16 buckets, re-keyed **in place** to 32 buckets: the
//!    dry run's region distribution before and after, the copy stopped halfway (the process
//!    "dies": database closed), a dual read serving queries in between, the copy resumed from
//!    the checkpoint after reopening the file, verified, the old keys retired, and the table's
//!    real distribution afterwards;
//! 2. an unsalted table turned salted: refused in one table (every salted key is also a valid
//!    unsalted key), done into a second table instead, with the write hotspot of the current
//!    hour before and after.
//!
//! The row is OpenTSDB's, byte for byte: salt + metric UID (3 bytes) + base hour (u32) + tags
//! (raw tag UID pairs), the salt hashing the metric and the tags but not the hour
//! (`#[rowkey(salt(buckets = N, fields(metric, tags)))]`), so that a series stays in one bucket
//! and a metric's series spread over all of them. 16 → 32 keeps about half of the keys where
//! they are: a series whose 32-bucket salt equals its 16-bucket one (`hash % 32 < 16`) has the
//! same key in both layouts — a fixed point the one-table migration leaves in place — and a
//! moved key's salt (16..32) is never a valid 16-bucket key, so no row is ambiguous.
//!
//! Run: `cargo run --example resalt --features redb` (optional: hours of data, default 24;
//! output directory for the dry run's SVG heatmaps, default `target/resalt`).

use rowkey::plan::SplitPoints;
use std::error::Error;
use std::path::PathBuf;

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use rowkey::hotspot::Analyzer;
use rowkey::migrate::{MigrateError, Migration, Side};
use rowkey::store::RedbStore;
use rowkey::RowKey;

/// `tsdb` with 16 salt buckets (`tsd.storage.salt.buckets = 16`): OpenTSDB's row key.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16, fields(metric, tags)), allow_hotspot)]
struct Tsdb16 {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// The same row with 32 buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 32, fields(metric, tags)), allow_hotspot)]
struct Tsdb32 {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// The row before salting existed (OpenTSDB 2.1 and earlier).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct TsdbUnsalted {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

impl From<Tsdb16> for Tsdb32 {
    fn from(r: Tsdb16) -> Self {
        Tsdb32 {
            metric: r.metric,
            base_hour: r.base_hour,
            tags: r.tags,
        }
    }
}

impl From<TsdbUnsalted> for Tsdb16 {
    fn from(r: TsdbUnsalted) -> Self {
        Tsdb16 {
            metric: r.metric,
            base_hour: r.base_hour,
            tags: r.tags,
        }
    }
}

const TSDB: TableDefinition<&[u8], &[u8]> = TableDefinition::new("tsdb");
const LEGACY: TableDefinition<&[u8], &[u8]> = TableDefinition::new("tsdb_legacy");
const HOUR0: u32 = 1_700_006_400;
const METRICS: u32 = 300;

/// Series per metric: 6 to 12 hosts.
fn hosts(m: u32) -> u32 {
    6 + m % 7
}

/// Rows of one hour: metric `m` reported by [`hosts`]`(m)` hosts, tags `host=webN` as tag UID
/// pairs, a 12-byte compacted value.
fn hour_rows(hour: u32) -> impl Iterator<Item = (TsdbUnsalted, Vec<u8>)> {
    (0..METRICS).flat_map(move |m| {
        let hosts = hosts(m);
        (0..hosts).map(move |h| {
            let metric = (m + 1).to_be_bytes();
            let mut tags = vec![0, 0, 1]; // tagk "host"
            tags.extend_from_slice(&(h + 1).to_be_bytes()[1..]); // tagv "webN"
            let mut value = (m * 1000 + h).to_be_bytes().to_vec();
            value.extend_from_slice(&hour.to_be_bytes());
            value.extend_from_slice(&[0, 0, 0, 42]);
            (
                TsdbUnsalted {
                    metric: [metric[1], metric[2], metric[3]],
                    base_hour: HOUR0 + hour * 3600,
                    tags,
                },
                value,
            )
        })
    })
}

fn load<K: RowKey>(
    db: &Database,
    table: TableDefinition<&[u8], &[u8]>,
    rows: impl Iterator<Item = (K, Vec<u8>)>,
) -> Result<u64, Box<dyn Error>> {
    let tx = db.begin_write()?;
    let mut n = 0;
    {
        let mut t = tx.open_table(table)?;
        for (k, v) in rows {
            t.insert(&k.to_row_key()?[..], v.as_slice())?;
            n += 1;
        }
    }
    tx.commit()?;
    Ok(n)
}

/// Rows per leading salt byte of a table.
fn per_salt(
    db: &Database,
    table: TableDefinition<&[u8], &[u8]>,
) -> Result<Vec<u64>, Box<dyn Error>> {
    let mut counts = vec![0u64; 256];
    let tx = db.begin_read()?;
    for row in tx.open_table(table)?.iter()? {
        let (k, _) = row?;
        if let Some(&b) = k.value().first() {
            counts[usize::from(b)] += 1;
        }
    }
    while counts.last() == Some(&0) {
        counts.pop();
    }
    Ok(counts)
}

/// The 16 → 32 re-key as each process builds it — the first one, and the one that resumes
/// after the first "dies". `Migration<S, A, B>` names a `From`-mapped migration.
fn resalt_16_to_32<'s>(
    store: &'s RedbStore<'s>,
    rows: u64,
) -> Migration<&'s RedbStore<'s>, Tsdb16, Tsdb32> {
    Migration::from_into(store)
        .name("tsdb-16-to-32")
        .batch_size(5000)
        .expect_rows(rows)
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let hours: u32 = args.next().map(|a| a.parse()).transpose()?.unwrap_or(24);
    let out_dir = PathBuf::from(args.next().unwrap_or_else(|| "target/resalt".into()));
    let path: PathBuf =
        std::env::temp_dir().join(format!("rowkey-resalt-{}.redb", std::process::id()));
    let _ = std::fs::remove_file(&path);

    println!("== 1. 16 -> 32 salt buckets, in place\n");
    let db = Database::create(&path)?;
    let rows = load(
        &db,
        TSDB,
        (0..hours)
            .flat_map(hour_rows)
            .map(|(k, v)| (Tsdb16::from(k), v)),
    )?;
    println!(
        "table `tsdb`: {rows} rows salted over 16 buckets, {hours} hours of {METRICS} metrics"
    );

    let store = RedbStore::new(&db, "tsdb");
    let m = resalt_16_to_32(&store, rows);
    let dry = m.dry_run(16, 32)?;
    println!(
        "\ndry run — region distribution of the existing keys, 16 regions now, 32 after:\n{dry}"
    );
    assert_eq!(dry.ambiguous, 0);
    assert_eq!(dry.after.empty_regions(), 0);
    std::fs::create_dir_all(&out_dir)?;
    for (report, file) in [(&dry.before, "before-16.svg"), (&dry.after, "after-32.svg")] {
        let svg = out_dir.join(file);
        report.write_heatmap_svg(&svg)?;
        println!("region heatmap: {}", svg.display());
    }

    let batches = rows.div_ceil(5000);
    let half = (batches / 2) as usize;
    println!("copy, stopped after {half} of {batches} batches:");
    let s = m.run_batches(half, |p| println!("  {p}"))?;
    assert!(!s.complete);
    let cp = m.checkpoint()?.ok_or("no checkpoint")?;
    println!(
        "checkpoint: {} rows copied, last source key {}",
        cp.copied,
        Tsdb16::describe(cp.last_key.as_deref().unwrap_or_default())
    );

    // The service keeps serving: one metric over both layouts (every bucket of each: the salt
    // depends on the tags too), each data point once — here the metric the copy stopped in,
    // part of it copied.
    let last = Tsdb16::from_row_key(cp.last_key.as_deref().unwrap_or_default())?;
    let metric = last.metric;
    let (mut from_old, mut from_new, mut fixed, mut n) = (0, 0, 0, 0);
    let mut prev: Option<(u32, Vec<u8>)> = None;
    let (new_ranges, old_ranges) = (
        Tsdb32::scan().metric(metric).ranges(),
        Tsdb16::scan().metric(metric).ranges(),
    );
    println!(
        "dual read of metric {metric:?}: {} ranges of the 32-bucket layout merged with {} of \
         the 16-bucket one",
        new_ranges.len(),
        old_ranges.len()
    );
    for row in m.dual_read(new_ranges, old_ranges) {
        let row = row?;
        let at = (row.key.base_hour, row.key.tags.clone());
        assert!(prev.as_ref().is_none_or(|p| *p < at), "logical order");
        prev = Some(at);
        n += 1;
        let old_key = Tsdb16 {
            metric: row.key.metric,
            base_hour: row.key.base_hour,
            tags: row.key.tags.clone(),
        }
        .to_row_key()?;
        if old_key == row.key.to_row_key()? {
            fixed += 1;
        }
        match row.from {
            Side::Source => from_old += 1,
            Side::Destination => from_new += 1,
        }
    }
    println!(
        "  {n} rows in time order, each once: {from_new} under the 32-bucket key ({fixed} of \
         them never move: their series' 16- and 32-bucket salts agree), {from_old} still \
         under the 16-bucket key"
    );
    let m_index = u32::from_be_bytes([0, metric[0], metric[1], metric[2]]) - 1;
    assert_eq!(n, (hosts(m_index) * hours) as usize);
    assert!(fixed <= from_new);

    // And the whole table: every data point once.
    let (mut old_keys, mut new_keys) = (0u64, 0u64);
    for row in m.dual_read_all() {
        match row?.from {
            Side::Source => old_keys += 1,
            Side::Destination => new_keys += 1,
        }
    }
    println!(
        "dual read of the whole table: {} rows ({new_keys} under 32-bucket keys, {old_keys} \
         under 16-bucket keys)",
        old_keys + new_keys
    );
    assert_eq!(old_keys + new_keys, rows);
    assert!(old_keys > 0 && new_keys > 0);

    // The process dies: nothing is cleaned up. A new one opens the file and resumes.
    drop(db);
    let db = Database::open(&path)?;
    let store = RedbStore::new(&db, "tsdb");
    let m = resalt_16_to_32(&store, rows);
    println!("\nreopened; resuming from the checkpoint:");
    let s = m.run(|p| println!("  {p}"))?;
    assert!(s.complete);
    assert_eq!(s.rows, rows);
    let verified = m.verify()?;
    println!("verify: {}", verified.report());
    let r = m.retire_source(&verified, |_| {})?;
    println!(
        "retired {} old keys ({} rows kept their key: their 16- and 32-bucket salts agree)",
        r.rows,
        rows - r.rows
    );
    let after = per_salt(&db, TSDB)?;
    println!("rows per salt byte now: {after:?}");
    assert_eq!(after.len(), 32);
    assert_eq!(after.iter().sum::<u64>(), rows);
    let mut real = Analyzer::new(Tsdb32::split_points(32)?)?.with_name("stored");
    let tx = db.begin_read()?;
    for row in tx.open_table(TSDB)?.iter()? {
        real.add(row?.0.value());
    }
    let real = real.report();
    println!("stored keys over 32 regions: {}", real.summary());
    assert_eq!(real.summary(), dry.after.summary());
    drop(tx);

    println!("\n== 2. unsalted -> 16 salt buckets\n");
    let legacy = load(&db, LEGACY, (0..hours).flat_map(hour_rows))?;
    println!("table `tsdb_legacy`: {legacy} unsalted rows");
    let in_place = RedbStore::new(&db, "tsdb_legacy");
    let m: Migration<_, TsdbUnsalted, Tsdb16> =
        Migration::from_into(&in_place).name("salt-in-place");
    let dry = m.dry_run(16, 16)?;
    println!(
        "in place: {} of {} rows ambiguous — {}",
        dry.ambiguous,
        dry.rows,
        dry.first_ambiguous.as_deref().unwrap_or_default()
    );
    match m.run(|_| {}) {
        Err(MigrateError::Ambiguous { .. }) => println!("  (refused; nothing written)"),
        other => return Err(format!("expected a refusal, got {other:?}").into()),
    }

    let two = RedbStore::new(&db, "tsdb_legacy").destination("tsdb_salted");
    let m = Migration::<_, TsdbUnsalted, Tsdb16>::from_into(&two)
        .name("salt-to-new-table")
        .batch_size(10_000)
        .expect_rows(legacy);
    let s = m.run(|_| {})?;
    println!(
        "into `tsdb_salted`: {} rows in {} batches",
        s.rows, s.batches
    );
    println!("verify: {}", m.verify()?.report());

    // The regions: the unsalted layout cannot be pre-split from its layout (a sample of real
    // keys is needed, and new metrics with higher UIDs all land in the last region); the
    // salted one splits at its bucket boundaries.
    match TsdbUnsalted::split_points(16) {
        Err(e) => println!("unsalted split_points(16): {e}"),
        Ok(_) => return Err("an unsalted layout should need a sample".into()),
    }
    println!("region distribution (dry run of the second-table migration):");
    let dry = m.dry_run(16, 16)?;
    println!("  before: {}", dry.before.summary());
    println!("  after:  {}", dry.after.summary());
    assert_eq!(dry.after.empty_regions(), 0);

    drop(db);
    let _ = std::fs::remove_file(&path);
    Ok(())
}
