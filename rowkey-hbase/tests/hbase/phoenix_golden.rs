//! `rowkey::phoenix` against frozen row keys a live Phoenix 5.2.1 stored
//! (`tests/phoenix_golden.txt`, written by `tests/hbase/phoenix_types.rs` with
//! `ROWKEY_PHOENIX_GOLDEN_BLESS=1` after it found 0 mismatches): no server needed, so the format
//! stays checked where Phoenix is not running. For every vector, `KeyWriter` builds exactly the
//! stored key from the values (a row it refuses — a last `VARBINARY` ending with `0xFF`, which
//! Phoenix's `SELECT` misreads — is built with the value as raw bytes) and `KeyReader` decodes
//! the key to the values; and so do the tables' `#[derive(RowKey)]` key types in the Phoenix
//! key mode (`tests/phoenix_common/keys.rs`), which refuse only the rows `KeyWriter` refuses.
// The shared test code is for the live test too: not all of it is used here.
#![allow(dead_code, unused_imports)]

include!("phoenix_common/rows.rs");
include!("phoenix_common/keys.rs");

#[test]
fn phoenix_golden_vectors() {
    let text = std::fs::read_to_string(GOLDEN).expect("tests/phoenix_golden.txt");
    let tables = tables();
    let (mut count, mut derived_count, mut bad) = (0, 0, Vec::new());
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let Some(t) = tables.iter().find(|t| Some(&t.name) == fields.first()) else {
            bad.push(format!("line {}: unknown table in {line:?}", n + 1));
            continue;
        };
        if fields.len() != t.cols.len() + 2 {
            bad.push(format!(
                "line {}: {} fields in {line:?}",
                n + 1,
                fields.len()
            ));
            continue;
        }
        let row: Vec<V> = t
            .cols
            .iter()
            .zip(&fields[1..fields.len() - 1])
            .map(|(c, f)| parse(c.1, f))
            .collect();
        let want = fields[fields.len() - 1];
        let key = stored_key(t, &row);
        if hex(&key) != want {
            bad.push(format!(
                "line {}: {} {row:?}: KeyWriter gives {}, Phoenix stored {want}",
                n + 1,
                t.name,
                hex(&key)
            ));
        }
        let stored: Vec<u8> = (0..want.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&want[i..i + 2], 16).expect("hex"))
            .collect();
        match decode(t, &stored) {
            Ok(back) if back.iter().zip(&row).all(|(a, b)| same(a, b)) => {}
            other => bad.push(format!(
                "line {}: {} {want}: KeyReader gives {other:?}, Phoenix stored {row:?}",
                n + 1,
                t.name
            )),
        }
        // the derived key type of the table (`#[rowkey(phoenix)]`): the same bytes both ways
        let (enc, dec) = derived(t.name, &row, &stored).expect("a derived key type per table");
        match enc {
            Ok(k) if k == stored => {}
            other => bad.push(format!(
                "line {}: {} {row:?}: the derived key gives {other:?}, Phoenix stored {want}",
                n + 1,
                t.name
            )),
        }
        match dec {
            Ok(back) if back.iter().zip(&row).all(|(a, b)| same(a, b)) => {}
            other => bad.push(format!(
                "line {}: {} {want}: the derived key decodes {other:?}, Phoenix stored {row:?}",
                n + 1,
                t.name
            )),
        }
        derived_count += 1;
        count += 1;
    }
    for b in &bad {
        eprintln!("{b}");
    }
    assert!(
        count >= 300,
        "{count} golden vectors: expected the whole file"
    );
    assert_eq!(
        derived_count, count,
        "every vector checked through its derived key type"
    );
    eprintln!(
        "{count} golden vectors: KeyWriter, KeyReader and the derived key types agree with Phoenix"
    );
    assert!(
        bad.is_empty(),
        "{} of {count} golden vectors differ",
        bad.len()
    );
}
