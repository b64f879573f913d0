//! `rowkey::phoenix` against a live Apache Phoenix 5.2.1 (`HBase::shared_phoenix`): tables
//! covering every supported primary-key type, ASC and DESC, salted and not, filled with
//! seeded random rows (extreme numbers, negatives, ±0, NaN, ±Infinity, unicode, strings that
//! are prefixes of each other, NULLs in the middle and at the end) through Phoenix SQL, in one
//! script (one JVM). Then, per table:
//!
//! * the raw row keys read back from HBase are exactly the keys `KeyWriter` builds for the
//!   upserted rows (same set, same count: an upsert of an existing key replaces the row);
//! * `KeyReader` decodes every stored key to the values upserted for it, and so does the
//!   table's `#[derive(RowKey)]` key type in the Phoenix key mode (`phoenix_common/keys.rs`),
//!   which also encodes the values to the stored key (refusing only what `KeyWriter` refuses);
//! * Phoenix's own `SELECT RID … ORDER BY <primary key>` returns the rows in the order their
//!   values sort in (Phoenix's value order per type, DESC reversed, NULLs first).
//!
//! The other way (`rows_written_by_rowkey_are_read_by_phoenix`): rows whose keys `KeyWriter`
//! and the derived key types build (the same bytes, asserted), written through rowkey-hbase with the one cell Phoenix needs (its empty column),
//! are returned by Phoenix's `SELECT … ORDER BY <primary key>` with the values written, in
//! order.
//!
//! Both print a summary (`cargo test -p rowkey-hbase --test hbase -- phoenix_types --nocapture`).
//! With `ROWKEY_PHOENIX_GOLDEN_BLESS=1` the first writes the verified keys it samples to
//! `tests/phoenix_golden.txt`, which `tests/hbase/phoenix_golden.rs` checks without a server.
//!
//! What Phoenix SQL cannot write, and so is not covered here (the unit tests in
//! `rowkey-core/src/phoenix` are): a `TIMESTAMP` before 1970 with nanoseconds (a negative
//! `CAST(… AS TIMESTAMP)` is refused, `TO_TIMESTAMP` drops nanoseconds). (`'\0'` in a
//! `VARCHAR` Phoenix SQL does write, from a raw NUL in the literal — misread by its own
//! `SELECT` when the column is not the last: `phoenix_edges.rs`.)

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

use rowkey::hbase::to_string_binary;
use rowkey::phoenix::create_table;
use rowkey::ScanRange;
use rowkey_hbase::read::RawScan;
use rowkey_hbase::testkit::{HBase, PHOENIX_VERSION};
use rowkey_hbase::Client;

include!("phoenix_common/rows.rs");
include!("phoenix_common/keys.rs");

#[test]
fn phoenix_types_oracle() {
    let t0 = Instant::now();
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "HBase + Phoenix {PHOENIX_VERSION} up in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let tables = tables();
    let mut rng = Rng(0x5EED_2025_0025);
    // Every CREATE TABLE first: DDL in the middle of the script drops the connection's
    // uncommitted upserts (found the hard way: only the last table kept its rows).
    let mut script = String::new();
    for t in &tables {
        let cols: Vec<Column> = t.cols.iter().map(|(n, k, d)| column(*k, n, *d)).collect();
        script.push_str(&create_table(t.name, &cols, &[("RID", "INTEGER")], t.salt));
        script.push_str(";\n");
    }
    let mut upserted: Vec<Vec<(usize, Vec<V>)>> = Vec::new();
    for t in &tables {
        let names: Vec<&str> = t.cols.iter().map(|c| c.0).collect();
        let mut pool = Vec::new();
        let mut rows = Vec::new();
        for rid in 0..ROWS {
            let row: Vec<V> = t
                .cols
                .iter()
                .map(|c| value(c.1, &mut rng, &mut pool))
                .collect();
            // every generated value is one Phoenix stores: the writer accepts it
            stored_key(t, &row);
            let values: Vec<String> = row.iter().map(literal).collect();
            writeln!(
                script,
                "UPSERT INTO {} ({}, RID) VALUES ({}, {rid});",
                t.name,
                names.join(", "),
                values.join(", ")
            )
            .unwrap();
            rows.push((rid, row));
        }
        upserted.push(rows);
    }
    for t in &tables {
        let order = order_by(t);
        writeln!(script, "SELECT RID FROM {} ORDER BY {order};", t.name,).unwrap();
    }
    let t_sql = Instant::now();
    let out = hbase.phoenix_sql(&script).unwrap_or_else(|e| panic!("{e}"));
    let sql_secs = t_sql.elapsed().as_secs_f64();
    let blocks = query_blocks(&out);
    assert_eq!(blocks.len(), tables.len(), "one result per SELECT");

    let client = Client::connect(hbase.thrift_addr()).expect("gateway client");
    let (mut total_rows, mut total_keys, mut total_bad) = (0, 0, 0);
    let mut golden = Vec::new();
    eprintln!(
        "{:<20} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8}",
        "table", "rows", "keys", "missing", "extra", "decode", "order"
    );
    for ((t, rows), phoenix_order) in tables.iter().zip(&upserted).zip(&blocks) {
        // the rows Phoenix keeps: the last upsert of each key
        let mut by_key: HashMap<Vec<u8>, (usize, &Vec<V>)> = HashMap::new();
        for (rid, row) in rows {
            by_key.insert(stored_key(t, row), (*rid, row));
        }
        let stored: Vec<Vec<u8>> = RawScan::new(&client.table(t.name), ScanRange::new(b"", None))
            .rows()
            .expect("scan")
            .map(|r| r.map(|r| r.key))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("scanning {}: {e}", t.name));
        let (mut extra, mut decode_bad, mut derive_bad) = (0, 0, 0);
        let mut found = 0;
        // golden vectors: about 32 stored keys per table, spread over the key space
        // and up to 24 more holding edge values
        let step = (stored.len() / 32).max(1);
        let mut specials = 0;
        for (i, key) in stored.iter().enumerate() {
            match by_key.get(key) {
                Some((rid, row)) => {
                    found += 1;
                    if i % step == 0 || (special(row) && specials < 24) {
                        specials += usize::from(i % step != 0);
                        golden.push(golden_line(t, row, key));
                    }
                    // the table's derived key type (`#[rowkey(phoenix)]`): the same bytes from
                    // the values, the same values from the bytes
                    let (enc, dec) = derived(t.name, row, key).expect("a derived key type");
                    let enc_ok = match enc {
                        Ok(k) => &k == key,
                        Err(_) => encode(t, row).is_err(), // refused like KeyWriter refuses it
                    };
                    let dec_ok =
                        dec.is_ok_and(|back| back.iter().zip(row.iter()).all(|(a, b)| same(a, b)));
                    if !(enc_ok && dec_ok) {
                        derive_bad += 1;
                        if derive_bad <= 5 {
                            eprintln!(
                                "  {}: RID {rid} {row:?}: the derived key type disagrees on {}",
                                t.name,
                                to_string_binary(key)
                            );
                        }
                    }
                    match decode(t, key) {
                        Ok(back) if back.iter().zip(row.iter()).all(|(a, b)| same(a, b)) => {}
                        other => {
                            decode_bad += 1;
                            if decode_bad <= 5 {
                                eprintln!(
                                    "  {}: RID {rid} {row:?} decoded as {other:?} from {}",
                                    t.name,
                                    to_string_binary(key)
                                );
                            }
                        }
                    }
                }
                None => {
                    extra += 1;
                    if extra <= 5 {
                        eprintln!(
                            "  {}: stored key {} ({}) is no upserted row's; decodes as {:?}",
                            t.name,
                            to_string_binary(key),
                            hex(key),
                            decode(t, key)
                        );
                    }
                }
            }
        }
        let missing = by_key.len() - found;
        if missing > 0 {
            let stored: std::collections::HashSet<&Vec<u8>> = stored.iter().collect();
            for (key, (rid, row)) in by_key.iter().filter(|(k, _)| !stored.contains(k)).take(5) {
                eprintln!(
                    "  {}: RID {rid} {row:?}: rowkey's key {} ({}) is not stored",
                    t.name,
                    to_string_binary(key),
                    hex(key)
                );
            }
        }
        // Phoenix's ORDER BY against the values' order
        let mut expected: Vec<(usize, &Vec<V>)> = by_key.values().copied().collect();
        expected.sort_by(|(_, a), (_, b)| row_cmp(t, a, b));
        let want: Vec<String> = expected.iter().map(|(rid, _)| rid.to_string()).collect();
        let order_bad = want
            .iter()
            .zip(phoenix_order.iter())
            .filter(|(a, b)| a.as_str() != **b)
            .count()
            + want.len().abs_diff(phoenix_order.len());
        if order_bad > 0 {
            let at = want
                .iter()
                .zip(phoenix_order.iter())
                .position(|(a, b)| a.as_str() != *b)
                .unwrap_or(0);
            let row_of = |rid: &str| {
                rows.iter()
                    .find(|(r, _)| r.to_string() == rid)
                    .map(|(_, v)| v)
            };
            eprintln!(
                "  {}: first order difference at {at}: expected RID {:?} {:?}, Phoenix RID {:?} {:?}",
                t.name,
                want.get(at),
                want.get(at).and_then(|r| row_of(r)),
                phoenix_order.get(at),
                phoenix_order.get(at).and_then(|r| row_of(r)),
            );
        }
        eprintln!(
            "{:<20} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8}",
            t.name,
            rows.len(),
            stored.len(),
            missing,
            extra,
            decode_bad,
            order_bad
        );
        total_rows += rows.len();
        total_keys += stored.len();
        total_bad += missing + extra + decode_bad + order_bad + derive_bad;
    }
    eprintln!(
        "{} tables, {total_rows} rows upserted, {total_keys} stored keys compared, {total_bad} mismatches; \
         SQL script {:.1} s, whole test {:.1} s",
        tables.len(),
        sql_secs,
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(
        total_bad, 0,
        "mismatches between rowkey::phoenix and Phoenix (listed above)"
    );
    // Verified by the live Phoenix: with ROWKEY_PHOENIX_GOLDEN_BLESS=1, freeze them for
    // tests/hbase/phoenix_golden.rs (which runs without a server).
    if std::env::var_os("ROWKEY_PHOENIX_GOLDEN_BLESS").is_some() {
        let mut text = format!(
            "# rowkey::phoenix golden vectors: row keys a live Phoenix {PHOENIX_VERSION} stored for these\n\
             # values (tests/phoenix_types.rs with ROWKEY_PHOENIX_GOLDEN_BLESS=1). Checked by\n\
             # tests/phoenix_golden.rs without a server. One key a line, tab-separated:\n\
             # table, its primary-key values (tests/phoenix_common/rows.rs `render`), key as hex.\n"
        );
        for line in &golden {
            text.push_str(line);
            text.push('\n');
        }
        std::fs::write(GOLDEN, text).expect("writing the golden vectors");
        eprintln!("wrote {} golden vectors to {GOLDEN}", golden.len());
    }
}

/// The other way: rows written by rowkey (the `KeyWriter`'s key and the one cell Phoenix
/// needs, written through rowkey-hbase) are rows to Phoenix: its `SELECT … ORDER BY
/// <primary key>` returns every one, with the values written, in the values' order.
///
/// The cell is Phoenix's empty column, which every Phoenix row has: learnt here from a row
/// Phoenix writes into each table first.
#[test]
fn rows_written_by_rowkey_are_read_by_phoenix() {
    const WRITTEN: usize = 300;
    let t0 = Instant::now();
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let tables: Vec<Table> = tables()
        .into_iter()
        .map(|mut t| {
            t.name = t.name.strip_prefix("RKT_").map_or(t.name, |rest| {
                Box::leak(format!("RKW_{rest}").into_boxed_str())
            });
            t
        })
        .collect();
    let mut rng = Rng(0x0DD_BA11_2025);
    // the tables, and one row Phoenix writes into each (to learn the cell it needs)
    let mut script = String::new();
    for t in &tables {
        let cols: Vec<Column> = t.cols.iter().map(|(n, k, d)| column(*k, n, *d)).collect();
        writeln!(script, "{};", create_table(t.name, &cols, &[], t.salt)).unwrap();
    }
    let mut first_rows = Vec::new();
    for t in &tables {
        let mut pool = Vec::new();
        let row: Vec<V> = t
            .cols
            .iter()
            .map(|c| value(c.1, &mut rng, &mut pool))
            .collect();
        let names: Vec<&str> = t.cols.iter().map(|c| c.0).collect();
        let values: Vec<String> = row.iter().map(literal).collect();
        writeln!(
            script,
            "UPSERT INTO {} ({}) VALUES ({});",
            t.name,
            names.join(", "),
            values.join(", ")
        )
        .unwrap();
        first_rows.push(row);
    }
    hbase.phoenix_sql(&script).unwrap_or_else(|e| panic!("{e}"));

    let client = Client::connect(hbase.thrift_addr()).expect("gateway client");
    let mut batch = rowkey_hbase::Batch::new();
    let mut misread = 0;
    let mut expected: Vec<Vec<Vec<V>>> = Vec::new();
    for (t, first) in tables.iter().zip(first_rows) {
        let table = client.table(t.name);
        let rows = RawScan::new(&table, ScanRange::new(b"", None))
            .rows()
            .expect("scan")
            .collect::<Result<Vec<_>, _>>()
            .expect("scan");
        assert_eq!(rows.len(), 1, "{}: Phoenix's one row", t.name);
        let cells: Vec<rowkey_hbase::Cell> = rows[0]
            .cells
            .iter()
            .map(|c| rowkey_hbase::Cell::new(&c.family, &c.qualifier, &c.value))
            .collect();
        if t.name == tables[0].name {
            for c in &rows[0].cells {
                eprintln!(
                    "the cell of a Phoenix row without value columns: {}:{} = {}",
                    to_string_binary(&c.family),
                    to_string_binary(&c.qualifier),
                    to_string_binary(&c.value)
                );
            }
        }
        let mut by_key: HashMap<Vec<u8>, Vec<V>> = HashMap::new();
        by_key.insert(rows[0].key.clone(), first);
        let mut pool = Vec::new();
        for _ in 0..WRITTEN {
            let row: Vec<V> = t
                .cols
                .iter()
                .map(|c| value(c.1, &mut rng, &mut pool))
                .collect();
            let key = stored_key(t, &row);
            // Phoenix's SELECT will read it back one byte short (checked below)
            misread += usize::from(select_misreads(&row));
            // the key the table's derived key type (`#[rowkey(phoenix)]`) writes: the same
            let of_table = t.name.replace("RKW_", "RKT_"); // the key type of the RKT_ table
            let (derived_key, _) = derived(&of_table, &row, &key).expect("a derived key type");
            assert_eq!(
                derived_key.as_ref().ok(),
                Some(&key),
                "{}: {row:?}: the derived key type writes another key",
                t.name
            );
            batch.put_raw(&table, key.clone(), cells.clone());
            by_key.insert(key, row);
        }
        let mut rows: Vec<Vec<V>> = by_key.into_values().collect();
        rows.sort_by(|a, b| row_cmp(t, a, b));
        expected.push(rows);
    }
    let written = batch.apply().expect("writing the rows");
    eprintln!(
        "wrote {written} rows through rowkey-hbase ({misread} with a last VARBINARY ending with \
         0xFF)"
    );

    let mut script = String::new();
    for t in &tables {
        let names: Vec<&str> = t.cols.iter().map(|c| c.0).collect();
        writeln!(
            script,
            "SELECT {} FROM {} ORDER BY {};",
            names.join(", "),
            t.name,
            order_by(t)
        )
        .unwrap();
    }
    let out = hbase.phoenix_sql(&script).unwrap_or_else(|e| panic!("{e}"));
    let blocks = query_blocks(&out);
    assert_eq!(blocks.len(), tables.len(), "one result per SELECT");
    let (mut total, mut bad, mut bool_desc, mut short) = (0, 0, 0, 0);
    for ((t, want), got) in tables.iter().zip(&expected).zip(&blocks) {
        let mut table_bad = want.len().abs_diff(got.len());
        for (i, (w, line)) in want.iter().zip(got).enumerate() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), t.cols.len(), "{}: {line:?}", t.name);
            for ((col, w), f) in t.cols.iter().zip(w).zip(&fields) {
                let g = parse(col.1, f);
                if same(w, &g) {
                    continue;
                }
                if col.1 == Kind::Boolean && col.2 {
                    // Phoenix reads every BOOLEAN DESC value back as false (its own rows too)
                    bool_desc += 1;
                    continue;
                }
                if let (V::NBytes(Some(w)), V::NBytes(g)) = (w, &g) {
                    // a last VARBINARY ending with 0xFF: Phoenix's SELECT drops that byte (its
                    // own rows too; `[0xFF]` then reads as NULL); rowkey wrote the bytes
                    // Phoenix's UPSERT writes
                    let g = g.as_deref().unwrap_or_default();
                    if w.last() == Some(&0xFF) && w.get(..w.len() - 1) == Some(g) {
                        short += 1;
                        continue;
                    }
                }
                table_bad += 1;
                if table_bad <= 5 {
                    eprintln!(
                        "  {} row {i} column {}: wrote {w:?}, Phoenix read {g:?} ({f:?})",
                        t.name, col.0
                    );
                }
            }
        }
        eprintln!(
            "{:<20} {:>4} rows written, {:>4} read by Phoenix, {table_bad} mismatches",
            t.name,
            want.len(),
            got.len()
        );
        total += want.len();
        bad += table_bad;
    }
    eprintln!(
        "{} tables, {total} rows, {bad} mismatches ({bool_desc} BOOLEAN DESC values Phoenix reads \
         as false, {short} last VARBINARY values ending with 0xFF it reads one byte short: its \
         known misreads); {:.1} s",
        tables.len(),
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(
        bad, 0,
        "Phoenix reads rowkey's rows differently (listed above)"
    );
}
