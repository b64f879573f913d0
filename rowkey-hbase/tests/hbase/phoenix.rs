//! Apache Phoenix on the tests' own HBase (`HBase::shared_phoenix`: Phoenix 5.2.1 on HBase
//! 2.6.1, SQL through Phoenix's thick JDBC driver with `HBase::phoenix_sql`), and a first set of
//! real Phoenix row keys: tables created and rows upserted through Phoenix SQL, their raw row
//! keys read back from HBase through the Thrift2 gateway and compared with the bytes Phoenix's
//! sources say it writes (written out below from `PTableImpl.newKey`,
//! `SchemaUtil.getSeparatorByte`, `SaltingUtil.getSaltingByte` and the `PDataType`s):
//!
//! * fixed-width values concatenated; a separator after each variable-width value except the
//!   last: `0x00`, or `0xFF` after a non-null DESC value; one trailing `0xFF` when the last
//!   value written is a non-null DESC variable-width one; trailing NULLs not written;
//! * TINYINT/SMALLINT/INTEGER/BIGINT big-endian with the sign bit flipped, UNSIGNED_INT plain
//!   big-endian, VARCHAR its UTF-8 bytes; DESC inverts every byte of the value;
//! * salted tables: the first byte is `abs(hash % buckets)` of the rest, `hash` Java's
//!   `Arrays.hashCode` over signed bytes (also checked against `rowkey::salt::phoenix`).
//!
//! Every key is printed (HBase's `toStringBinary` form and hex) so the bytes can be read in the
//! test output (`cargo test -p rowkey-hbase --test hbase -- phoenix:: --nocapture`).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rowkey::hbase::to_string_binary;
use rowkey::ScanRange;
use rowkey_hbase::read::RawScan;
use rowkey_hbase::testkit::{HBase, ServerError, PHOENIX_VERSION};
use rowkey_hbase::{Client, Row};

/// The shared server with Phoenix, and how long it took to start (first caller only).
fn phoenix() -> &'static HBase {
    static STARTED: OnceLock<Duration> = OnceLock::new();
    let t = Instant::now();
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let took = *STARTED.get_or_init(|| t.elapsed());
    eprintln!(
        "HBase + Phoenix {PHOENIX_VERSION} (start and first connection): {:.1} s",
        took.as_secs_f64()
    );
    hbase
}

fn sql(script: &str) -> String {
    let hbase = phoenix();
    let t = Instant::now();
    let out = hbase.phoenix_sql(script).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "phoenix_sql: {} statement(s) in {:.1} s",
        script.matches(';').count() + 1,
        t.elapsed().as_secs_f64()
    );
    out
}

/// Every row of `table` as stored, in key order.
fn raw_rows(table: &str) -> Vec<Row> {
    let client = Client::connect(phoenix().thrift_addr()).expect("gateway client");
    RawScan::new(&client.table(table), ScanRange::new(b"", None))
        .rows()
        .expect("scan")
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("scanning {table}: {e}"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compare the stored keys with the expected ones (in byte order), printing both.
fn assert_keys(table: &str, expected: Vec<(String, Vec<u8>)>) -> Vec<Row> {
    let rows = raw_rows(table);
    let mut expected = expected;
    expected.sort_by(|a, b| a.1.cmp(&b.1));
    eprintln!("{table}: {} row(s) in HBase", rows.len());
    for row in &rows {
        let what = expected
            .iter()
            .find(|(_, k)| *k == row.key)
            .map_or("(not expected)", |(w, _)| w.as_str());
        eprintln!(
            "  {:<48} {:<40} {what}",
            to_string_binary(&row.key),
            hex(&row.key)
        );
    }
    let got: Vec<&[u8]> = rows.iter().map(|r| r.key.as_slice()).collect();
    let want: Vec<&[u8]> = expected.iter().map(|(_, k)| k.as_slice()).collect();
    if got != want {
        for (what, key) in &expected {
            eprintln!(
                "  expected {:<40} {:<40} {what}",
                to_string_binary(key),
                hex(key)
            );
        }
        panic!("{table}: the stored row keys are not the expected ones (both listed above)");
    }
    rows
}

// Phoenix's encodings, from its sources.

/// TINYINT (`PTinyint`): the sign bit flipped.
fn tinyint(v: i8) -> Vec<u8> {
    vec![(v as u8) ^ 0x80]
}

/// SMALLINT (`PSmallint`): big-endian, the sign bit flipped.
fn smallint(v: i16) -> Vec<u8> {
    ((v as u16) ^ 0x8000).to_be_bytes().to_vec()
}

/// INTEGER (`PInteger`): big-endian, the sign bit flipped.
fn integer(v: i32) -> Vec<u8> {
    ((v as u32) ^ 0x8000_0000).to_be_bytes().to_vec()
}

/// BIGINT (`PLong`): big-endian, the sign bit flipped.
fn bigint(v: i64) -> Vec<u8> {
    ((v as u64) ^ 0x8000_0000_0000_0000).to_be_bytes().to_vec()
}

/// UNSIGNED_INT (`PUnsignedInt`): plain big-endian (0 to 2^31 − 1).
fn unsigned_int(v: i32) -> Vec<u8> {
    assert!(v >= 0);
    v.to_be_bytes().to_vec()
}

/// DESC (`SortOrder.invert`): every byte inverted.
fn desc(mut bytes: Vec<u8>) -> Vec<u8> {
    for b in &mut bytes {
        *b = !*b;
    }
    bytes
}

/// The salt byte (`SaltingUtil.getSaltingByte`): Java's `Arrays.hashCode` over the signed
/// bytes of the key after the salt, `(byte) Math.abs(hash % buckets)`.
fn salted(buckets: i32, rest: Vec<u8>) -> Vec<u8> {
    let hash = rest.iter().fold(1i32, |h, &b| {
        h.wrapping_mul(31).wrapping_add(i32::from(b as i8))
    });
    let salt = (hash % buckets).unsigned_abs() as u8;
    assert_eq!(
        salt,
        rowkey::salt::phoenix(&rest, buckets as u32) as u8,
        "rowkey's Phoenix salt of {}",
        hex(&rest)
    );
    let mut key = vec![salt];
    key.extend(rest);
    key
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The METRICS rows: (host, ts, seq), with extremes, negatives, a host that is a prefix of
/// another, and non-ASCII text.
const METRICS_ROWS: &[(&str, i64, i32)] = &[
    ("web-1", 1_700_000_000_000, 1),
    ("web-1", 1_700_000_000_000, -1),
    ("web-1", -5, 0),
    ("web-10", i64::MAX, i32::MAX),
    ("a", i64::MIN, i32::MIN),
    ("a", 0, 7),
    ("zürich", 42, 256),
];

fn metrics_upserts(table: &str) -> String {
    METRICS_ROWS
        .iter()
        .map(|(host, ts, seq)| {
            format!("UPSERT INTO {table} (HOST, TS, SEQ) VALUES ('{host}', {ts}, {seq});\n")
        })
        .collect()
}

/// `host VARCHAR ASC, ts BIGINT DESC, seq INTEGER ASC`: host, `0x00`, ~ts, seq.
fn metrics_key(host: &str, ts: i64, seq: i32) -> Vec<u8> {
    cat(&[host.as_bytes(), &[0x00], &desc(bigint(ts)), &integer(seq)])
}

#[test]
fn composite_key_varchar_bigint_desc_integer() {
    let out = sql(&format!(
        "CREATE TABLE RK_METRICS (
            host VARCHAR NOT NULL,
            ts BIGINT NOT NULL,
            seq INTEGER NOT NULL,
            val DOUBLE
            CONSTRAINT pk PRIMARY KEY (host, ts DESC, seq));
         {}
         SELECT HOST, TS, SEQ FROM RK_METRICS",
        metrics_upserts("RK_METRICS")
    ));
    eprintln!("{out}");
    // Phoenix returns the rows in key order: host, then ts descending, then seq.
    let mut by_key: Vec<_> = METRICS_ROWS.to_vec();
    by_key.sort_by_key(|(h, t, s)| metrics_key(h, *t, *s));
    let mut want = String::from("HOST\tTS\tSEQ\n");
    for (h, t, s) in &by_key {
        want.push_str(&format!("{h}\t{t}\t{s}\n"));
    }
    want.push_str(&format!("({} rows)\n", by_key.len()));
    assert_eq!(out, want);

    let rows = assert_keys(
        "RK_METRICS",
        METRICS_ROWS
            .iter()
            .map(|&(h, t, s)| (format!("({h:?}, {t}, {s})"), metrics_key(h, t, s)))
            .collect(),
    );
    // What else Phoenix stores in a row (no value column was set: only its empty column).
    for cell in &rows[0].cells {
        eprintln!(
            "  cell {}:{} = {}",
            to_string_binary(&cell.family),
            to_string_binary(&cell.qualifier),
            to_string_binary(&cell.value)
        );
    }
}

#[test]
fn salted_table() {
    sql(&format!(
        "CREATE TABLE RK_METRICS_SALTED (
            host VARCHAR NOT NULL,
            ts BIGINT NOT NULL,
            seq INTEGER NOT NULL
            CONSTRAINT pk PRIMARY KEY (host, ts DESC, seq)) SALT_BUCKETS = 4;
         {}",
        metrics_upserts("RK_METRICS_SALTED")
    ));
    let rows = assert_keys(
        "RK_METRICS_SALTED",
        METRICS_ROWS
            .iter()
            .map(|&(h, t, s)| {
                (
                    format!("({h:?}, {t}, {s})"),
                    salted(4, metrics_key(h, t, s)),
                )
            })
            .collect(),
    );
    let salts: std::collections::BTreeSet<u8> = rows.iter().map(|r| r.key[0]).collect();
    eprintln!("RK_METRICS_SALTED: salt bytes used {salts:?}");
    // Phoenix pre-splits a salted table at each bucket: the split points are the salt bytes
    // 1..buckets, each padded with zeros to the key's estimated fixed length
    // (`SchemaUtil.processSplit`: salt, VARCHAR estimated at 0, its separator, BIGINT,
    // INTEGER).
    let client = Client::connect(phoenix().thrift_addr()).expect("gateway client");
    let regions = client
        .table("RK_METRICS_SALTED")
        .regions()
        .expect("regions");
    let starts: Vec<Vec<u8>> = regions.iter().map(|r| r.start.clone()).collect();
    eprintln!(
        "RK_METRICS_SALTED: region starts {:?}",
        starts
            .iter()
            .map(|s| to_string_binary(s))
            .collect::<Vec<_>>()
    );
    let padded = |salt: u8| cat(&[&[salt], &[0; 1 + 8 + 4]]);
    assert_eq!(starts, vec![vec![], padded(1), padded(2), padded(3)]);
}

#[test]
fn desc_varchar_separators_and_trailing_nulls() {
    // (k1 DESC, k2 DESC nullable, k3 ASC nullable)
    let rows: &[(&str, Option<&str>, Option<&str>)] = &[
        ("ab", Some("c"), Some("d")),
        ("ab", Some("c"), None),
        ("ab", None, None),
        ("x", None, Some("y")),
        ("a", Some("bc"), None),
        ("b", Some(""), Some("")), // '' is NULL in Phoenix
    ];
    let q = |v: Option<&str>| v.map_or("NULL".to_string(), |s| format!("'{s}'"));
    let mut script = String::from(
        "CREATE TABLE RK_NAMES (
            k1 VARCHAR NOT NULL,
            k2 VARCHAR,
            k3 VARCHAR
            CONSTRAINT pk PRIMARY KEY (k1 DESC, k2 DESC, k3));\n",
    );
    for (k1, k2, k3) in rows {
        script.push_str(&format!(
            "UPSERT INTO RK_NAMES (K1, K2, K3) VALUES ('{k1}', {}, {});\n",
            q(*k2),
            q(*k3)
        ));
    }
    script.push_str("SELECT K1, K2, K3 FROM RK_NAMES");
    let out = sql(&script);
    eprintln!("{out}");
    let inv = |s: &str| desc(s.as_bytes().to_vec());
    let expected = vec![
        // k1 DESC then 0xFF, k2 DESC then 0xFF, k3 last ASC: no separator after it
        (
            "ab, c, d",
            cat(&[&inv("ab"), &[0xFF], &inv("c"), &[0xFF], b"d"]),
        ),
        // trailing NULL k3 not written; the last value written (k2) is DESC: trailing 0xFF
        (
            "ab, c, NULL",
            cat(&[&inv("ab"), &[0xFF], &inv("c"), &[0xFF]]),
        ),
        ("ab, NULL, NULL", cat(&[&inv("ab"), &[0xFF]])),
        // a NULL DESC value is followed by 0x00, not 0xFF
        ("x, NULL, y", cat(&[&inv("x"), &[0xFF], &[0x00], b"y"])),
        (
            "a, bc, NULL",
            cat(&[&inv("a"), &[0xFF], &inv("bc"), &[0xFF]]),
        ),
        ("b, '', ''", cat(&[&inv("b"), &[0xFF]])),
    ];
    assert_keys(
        "RK_NAMES",
        expected
            .into_iter()
            .map(|(w, k)| (w.to_string(), k))
            .collect(),
    );
    // The empty strings came back as NULL.
    assert!(out.contains("b\t\\N\t\\N\n"), "{out}");
}

#[test]
fn small_integers_and_unsigned() {
    // (a TINYINT, b SMALLINT DESC, c UNSIGNED_INT, d VARCHAR nullable, last)
    let rows: &[(i8, i16, i32, Option<&str>)] = &[
        (-128, -32768, 0, Some("z")),
        (127, 32767, i32::MAX, None),
        (0, -1, 1, Some("é")),
        (-1, 0, 65536, Some("a\u{1F600}")),
    ];
    let mut script = String::from(
        "CREATE TABLE RK_SMALL (
            a TINYINT NOT NULL,
            b SMALLINT NOT NULL,
            c UNSIGNED_INT NOT NULL,
            d VARCHAR
            CONSTRAINT pk PRIMARY KEY (a, b DESC, c, d));\n",
    );
    for (a, b, c, d) in rows {
        script.push_str(&format!(
            "UPSERT INTO RK_SMALL (A, B, C, D) VALUES ({a}, {b}, {c}, {});\n",
            d.map_or("NULL".to_string(), |s| format!("'{s}'"))
        ));
    }
    sql(&script);
    assert_keys(
        "RK_SMALL",
        rows.iter()
            .map(|&(a, b, c, d)| {
                (
                    format!("({a}, {b}, {c}, {d:?})"),
                    cat(&[
                        &tinyint(a),
                        &desc(smallint(b)),
                        &unsigned_int(c),
                        d.unwrap_or("").as_bytes(),
                    ]),
                )
            })
            .collect(),
    );
}

#[test]
fn failures_name_the_statement_and_the_cause() {
    let hbase = phoenix();
    let check = |script: &str, needles: &[&str]| {
        let e = hbase.phoenix_sql(script).expect_err("the script fails");
        assert!(matches!(e, ServerError::Phoenix(_)), "{e:?}");
        let e = e.to_string();
        eprintln!("{}", e.lines().take(4).collect::<Vec<_>>().join("\n"));
        for n in needles {
            assert!(e.contains(n), "{n:?} not in: {e}");
        }
    };
    check(
        "SELECT * FROM RK_NO_SUCH_TABLE",
        &[
            "statement 1 failed",
            "RK_NO_SUCH_TABLE",
            "TableNotFoundException",
        ],
    );
    // An empty VARCHAR is NULL, which a NOT NULL key column refuses.
    check(
        "CREATE TABLE RK_REFUSES (k VARCHAR NOT NULL, n INTEGER NOT NULL CONSTRAINT pk PRIMARY KEY (k, n));
         UPSERT INTO RK_REFUSES VALUES ('', 1)",
        &["statement 2 failed", "may not be null"],
    );
    // A negative UNSIGNED value is refused.
    check(
        "CREATE TABLE IF NOT EXISTS RK_UNSIGNED (k UNSIGNED_INT NOT NULL PRIMARY KEY);
         UPSERT INTO RK_UNSIGNED VALUES (-1)",
        &["statement 2 failed", "Type mismatch. UNSIGNED_INT"],
    );
    // The `;` inside a literal does not split the statement.
    let out = sql("SELECT 'a;b' AS S, 1 AS N FROM SYSTEM.CATALOG LIMIT 1");
    assert_eq!(out, "S\tN\na;b\t1\n(1 rows)\n");
}
