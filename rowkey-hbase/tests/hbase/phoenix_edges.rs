//! Issue 49, items 4 and 5, against the live Phoenix 5.2.1 (`HBase::shared_phoenix`): rows
//! written by Phoenix's own `UPSERT`, their raw keys read back through the gateway, and
//! rowkey's decode and encode compared value by value with what Phoenix's `SELECT` returns.
//!
//! * [`phoenix_decimal_wrap_sweep`]: `DECIMAL`s from `±1E-130` to `±1E-120` and from
//!   `±1E+120` to `±1E+130` (one significant digit and more) in every place a `DECIMAL` key
//!   column can be — not last (NOT NULL and nullable, ASC and DESC) and last (the four
//!   kinds). Phoenix's exponent byte is Java's `byte`: `PDataType.toBytes` writes `1E-127` as
//!   `0x81 0x0B`, the bytes of `1E+129`, and `PDataType.toBigDecimal` reads `0x81 0x0B` as
//!   `1E+129` — so Phoenix's own `SELECT` returns `1E+129` for the `1E-127` it stored (seen
//!   here, value by value). rowkey decodes every stored key to exactly what Phoenix's `SELECT`
//!   returns (or refuses a key Phoenix's `SELECT` misreads), writes exactly the values Phoenix
//!   reads back as written (to Phoenix's bytes), and refuses every other value.
//! * [`phoenix_legacy_layout`]: a table turned into a legacy (`rowKeyOrderOptimizable` false,
//!   before PHOENIX-2067) table the way Phoenix's upgrade code marks one (`SYSTEM.CATALOG`'s
//!   `ROW_KEY_ORDER_OPTIMIZABLE` cell, then an `ALTER TABLE` so the server rebuilds its
//!   metadata), filled with random rows and with `'\0'` inside DESC `VARCHAR`s: the keys of
//!   ordinary rows are byte for byte `#[rowkey(phoenix(row_key_order_optimizable = false))]`'s
//!   (`0x00` after a DESC value, no trailing `0xFF`); a `'\0'` inside a value that is not the
//!   last is stored by Phoenix's `UPSERT` (an `0xFF` inside the value) but read back wrong by
//!   its `SELECT` (the value ends at the `0xFF`), and not found by a `WHERE` on it: rowkey
//!   refuses both ways, naming the field and the byte's offset; a typed read returns every
//!   other row, and pages past each row it returns with `after(&row)` (past a key it refuses
//!   with `after_key`).
//!
//! `cargo test -p rowkey-hbase --all-features --test hbase -- phoenix_edges --nocapture`

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::str::FromStr;

use rowkey::hbase::to_string_binary;
use rowkey::phoenix::bigdecimal::BigDecimal;
use rowkey::phoenix::PhoenixKey;
use rowkey::{DecodeErrorKind, DecodeRowKeyOwned, EncodeErrorKind, RowKey, ScanRange};
use rowkey_hbase::read::RawScan;
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::{Client, Error};

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

/// The rows of each query in a `phoenix_sql` output (header dropped), fields split at tabs.
fn results(out: &str) -> Vec<Vec<Vec<String>>> {
    let mut blocks = Vec::new();
    let mut cur = Vec::new();
    let mut header = true;
    for line in out.lines() {
        if header {
            header = false;
        } else if line.starts_with('(') && line.ends_with(" rows)") {
            blocks.push(std::mem::take(&mut cur));
            header = true;
        } else {
            cur.push(line.split('\t').map(unescape).collect());
        }
    }
    blocks
}

/// The harness's text escapes undone (`\\`, `\t`, `\n`, `\r`; `\N` is NULL, kept as is).
fn unescape(s: &str) -> String {
    if s == "\\N" {
        return s.into();
    }
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(c) => out.push(c),
            None => out.push('\\'),
        }
    }
    out
}

fn dec(s: &str) -> BigDecimal {
    BigDecimal::from_str(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// Phoenix's `DECIMAL` as the harness prints it (`toPlainString`), or NULL.
fn dec_field(s: &str) -> Option<BigDecimal> {
    (s != "\\N").then(|| dec(s))
}

/// `TO_NUMBER` of the value's exact digits (a number literal with an exponent is a `DOUBLE`).
fn literal(v: &Option<BigDecimal>) -> String {
    match v {
        None => "NULL".into(),
        Some(d) => {
            let (unscaled, scale) = d.as_bigint_and_exponent();
            format!("TO_NUMBER('{unscaled}E{}')", -scale)
        }
    }
}

fn rows_of(client: &Client, table: &str) -> Vec<Vec<u8>> {
    RawScan::new(&client.table(table), ScanRange::new(b"", None))
        .rows()
        .expect("scan")
        .map(|r| r.map(|r| r.key))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("scanning {table}: {e}"))
}

/// The `INTEGER` first column of a key (its row id here).
fn id_of(key: &[u8]) -> i32 {
    let b: [u8; 4] = key[..4]
        .try_into()
        .expect("a key starts with its INTEGER id");
    (u32::from_be_bytes(b) ^ 0x8000_0000) as i32
}

// ---- item 5: the DECIMAL sweep ----

/// Five `DECIMAL`s after the id: not last (NOT NULL ASC, NOT NULL DESC, nullable ASC, nullable
/// DESC) and last (NOT NULL ASC).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Sweep {
    k: i32,
    a: BigDecimal,
    #[desc]
    b: BigDecimal,
    c: Option<BigDecimal>,
    #[desc]
    d: Option<BigDecimal>,
    e: BigDecimal,
}

/// The three other kinds of last column.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct LastDesc {
    k: i32,
    #[desc]
    e: BigDecimal,
}
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct LastNullable {
    k: i32,
    e: Option<BigDecimal>,
}
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct LastNullableDesc {
    k: i32,
    #[desc]
    e: Option<BigDecimal>,
}

/// A sweep table as the test sees it: its values as `Option`s (NULL only in nullable columns).
trait SweepRow: RowKey + DecodeRowKeyOwned + PhoenixKey + std::fmt::Debug {
    const NAME: &'static str;
    /// The `DECIMAL` columns: name, nullable.
    const COLS: &'static [(&'static str, bool)];
    fn from_values(k: i32, v: &[Option<BigDecimal>]) -> Self;
    fn values(&self) -> Vec<Option<BigDecimal>>;
}

impl SweepRow for Sweep {
    const NAME: &'static str = "RKE_SWEEP";
    const COLS: &'static [(&'static str, bool)] = &[
        ("a", false),
        ("b", false),
        ("c", true),
        ("d", true),
        ("e", false),
    ];
    fn from_values(k: i32, v: &[Option<BigDecimal>]) -> Self {
        let nn = |i: usize| v[i].clone().expect("NOT NULL");
        Sweep {
            k,
            a: nn(0),
            b: nn(1),
            c: v[2].clone(),
            d: v[3].clone(),
            e: nn(4),
        }
    }
    fn values(&self) -> Vec<Option<BigDecimal>> {
        vec![
            Some(self.a.clone()),
            Some(self.b.clone()),
            self.c.clone(),
            self.d.clone(),
            Some(self.e.clone()),
        ]
    }
}

fn not_null(v: Option<BigDecimal>) -> BigDecimal {
    v.expect("NOT NULL")
}

fn same<T>(v: T) -> T {
    v
}

macro_rules! last_only {
    ($t:ident, $name:literal, $nullable:literal, $wrap:path, $unwrap:path) => {
        impl SweepRow for $t {
            const NAME: &'static str = $name;
            const COLS: &'static [(&'static str, bool)] = &[("e", $nullable)];
            fn from_values(k: i32, v: &[Option<BigDecimal>]) -> Self {
                $t {
                    k,
                    e: $wrap(v[0].clone()),
                }
            }
            fn values(&self) -> Vec<Option<BigDecimal>> {
                vec![$unwrap(self.e.clone())]
            }
        }
    };
}
last_only!(LastDesc, "RKE_SWEEP_LAST_DESC", false, not_null, Some);
last_only!(LastNullable, "RKE_SWEEP_LAST_NULL", true, same, same);
last_only!(
    LastNullableDesc,
    "RKE_SWEEP_LAST_NULL_DESC",
    true,
    same,
    same
);

/// The sweep: every power of ten from `1E-130` to `1E-120` and from `1E+120` to `1E+130`,
/// several digits at the wrap's edges, both signs.
fn sweep_values() -> Vec<BigDecimal> {
    let mut out = Vec::new();
    for e in (-130..=-120).chain(120..=130) {
        out.push(BigDecimal::new(1.into(), -e));
    }
    for s in [
        "5E-127",
        "1.5E-127",
        "9.9E-127",
        "1.2345678901234567890123456789012345678E-127",
        "9.9E-126",
        "5E-130",
        "5E+129",
        "9.9E+129",
        "1.5E+126",
        "1.2345678901234567890123456789012345678E+128",
        "9.99E+125",
    ] {
        out.push(dec(s));
    }
    let negatives: Vec<BigDecimal> = out.iter().map(|v| -v).collect();
    out.extend(negatives);
    out
}

/// A row's values as text (`NULL`, or the decimal in scientific notation).
fn show(v: Option<&Vec<Option<BigDecimal>>>) -> String {
    match v {
        None => "no row".into(),
        Some(v) => {
            let f: Vec<String> = v
                .iter()
                .map(|d| {
                    d.as_ref()
                        .map_or("NULL".into(), |d| d.normalized().to_scientific_notation())
                })
                .collect();
            format!("[{}]", f.join(", "))
        }
    }
}

/// What one sweep table found.
#[derive(Default, Debug)]
struct Tally {
    /// sweep values stored by Phoenix and compared
    values: usize,
    /// of those, Phoenix's `SELECT` returned another value than its `UPSERT` was given
    phoenix_changed: usize,
    /// keys rowkey refused to decode (Phoenix's `SELECT` misread each of them)
    refused_keys: usize,
    /// values rowkey refused to encode (Phoenix reads each back as another value)
    refused_values: usize,
    /// disagreements (listed on standard error)
    bad: usize,
}

/// The filler of the columns a row does not probe: 7, or NULL every other row when nullable.
fn filler(nullable: bool, id: i32) -> Option<BigDecimal> {
    (!nullable || id % 2 == 0).then(|| BigDecimal::from(7))
}

/// The rows of a sweep table: each sweep value in each column in turn (id, values).
fn sweep_rows<T: SweepRow>(first_id: i32) -> Vec<(i32, Vec<Option<BigDecimal>>)> {
    let mut rows = Vec::new();
    let mut id = first_id;
    for col in 0..T::COLS.len() {
        for v in sweep_values() {
            let values = T::COLS
                .iter()
                .enumerate()
                .map(|(i, (_, nullable))| {
                    if i == col {
                        Some(v.clone())
                    } else {
                        filler(*nullable, id)
                    }
                })
                .collect();
            rows.push((id, values));
            id += 1;
        }
    }
    rows
}

fn upserts<T: SweepRow>(rows: &[(i32, Vec<Option<BigDecimal>>)], script: &mut String) {
    let names: Vec<&str> = T::COLS.iter().map(|c| c.0).collect();
    for (id, values) in rows {
        let vals: Vec<String> = values.iter().map(literal).collect();
        writeln!(
            script,
            "UPSERT INTO {} (k, {}) VALUES ({id}, {});",
            T::NAME,
            names.join(", "),
            vals.join(", ")
        )
        .unwrap();
    }
}

fn select<T: SweepRow>(script: &mut String) {
    let names: Vec<&str> = T::COLS.iter().map(|c| c.0).collect();
    writeln!(
        script,
        "SELECT k, {} FROM {} ORDER BY k;",
        names.join(", "),
        T::NAME
    )
    .unwrap();
}

/// Compare one table: rowkey's decode of each stored key with Phoenix's `SELECT`, and rowkey's
/// encode of each upserted row with the stored key.
fn compare<T: SweepRow>(
    client: &Client,
    rows: &[(i32, Vec<Option<BigDecimal>>)],
    phoenix: &[Vec<String>],
) -> Tally {
    let mut t = Tally::default();
    let stored: BTreeMap<i32, Vec<u8>> = rows_of(client, T::NAME)
        .into_iter()
        .map(|k| (id_of(&k), k))
        .collect();
    let selected: BTreeMap<i32, Vec<Option<BigDecimal>>> = phoenix
        .iter()
        .map(|r| {
            (
                r[0].parse().expect("id"),
                r[1..].iter().map(|f| dec_field(f)).collect(),
            )
        })
        .collect();
    assert_eq!(
        stored.len(),
        rows.len(),
        "{}: one stored row per upsert",
        T::NAME
    );
    let mut bad = |what: String| {
        t.bad += 1;
        if t.bad <= 12 {
            eprintln!("  {}: {what}", T::NAME);
        }
    };
    for (id, upserted) in rows {
        let key = &stored[id];
        let row = || {
            format!(
                "row {id} {}, key {} ({})",
                show(Some(upserted)),
                to_string_binary(key),
                hex(key)
            )
        };
        // what Phoenix's SELECT returned for the row, or None: it did not return the row
        let theirs = selected.get(id);
        let phoenix_exact = theirs == Some(upserted);
        t.values += 1;
        if !phoenix_exact {
            t.phoenix_changed += 1;
            if t.phoenix_changed % 10 == 1 {
                eprintln!(
                    "  {}: Phoenix's UPSERT of {} stored {}; its SELECT returns {}",
                    T::NAME,
                    show(Some(upserted)),
                    to_string_binary(key),
                    show(theirs)
                );
            }
        }
        // the decode: Phoenix's SELECT's values, or a refusal of a key it misreads
        match T::from_row_key(key) {
            Ok(ours) => {
                if Some(&ours.values()) != theirs {
                    bad(format!(
                        "{}: rowkey decodes {:?}, Phoenix's SELECT returns {theirs:?}",
                        row(),
                        ours.values()
                    ));
                }
                match ours.to_row_key() {
                    Ok(again) if again.as_ref() == key.as_slice() => {}
                    other => bad(format!("{}: decoded, then written as {other:?}", row())),
                }
            }
            Err(e) => {
                t.refused_keys += 1;
                if phoenix_exact {
                    bad(format!(
                        "{}: Phoenix's SELECT reads it as upserted, rowkey refuses: {e}",
                        row()
                    ));
                }
                // (a column whose exponent byte is 0x00 reads as NULL: then the error is at a
                // later column, where the key stops making sense)
                let named = T::COLS.iter().any(|c| c.0 == e.field());
                if !named || e.offset() > key.len() {
                    bad(format!(
                        "{}: the refusal names no column or offset: {e}",
                        row()
                    ));
                }
            }
        }
        // the encode: exactly the values Phoenix reads back as written, to Phoenix's bytes
        match T::from_values(*id, upserted).to_row_key() {
            Ok(ours) if phoenix_exact && ours.as_ref() == key.as_slice() => {}
            Ok(ours) => bad(format!(
                "{}: rowkey writes {} although Phoenix's SELECT returns {}",
                row(),
                hex(&ours),
                show(theirs)
            )),
            Err(e) => {
                t.refused_values += 1;
                if phoenix_exact {
                    bad(format!(
                        "{}: Phoenix reads it back as written, rowkey refuses it: {e}",
                        row()
                    ));
                }
                if !matches!(
                    e.kind(),
                    EncodeErrorKind::ValueOutOfRange { .. }
                        | EncodeErrorKind::ContainsSeparator { .. }
                ) {
                    bad(format!("{}: refused as {e}", row()));
                }
            }
        }
    }
    t
}

#[test]
fn phoenix_decimal_wrap_sweep() {
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let client = Client::connect(hbase.thrift_addr()).expect("gateway client");
    let sweep = sweep_rows::<Sweep>(0);
    let last_desc = sweep_rows::<LastDesc>(10_000);
    let last_null = sweep_rows::<LastNullable>(20_000);
    let last_null_desc = sweep_rows::<LastNullableDesc>(30_000);
    let mut script = String::new();
    for ddl in [
        Sweep::phoenix_ddl(Sweep::NAME),
        LastDesc::phoenix_ddl(LastDesc::NAME),
        LastNullable::phoenix_ddl(LastNullable::NAME),
        LastNullableDesc::phoenix_ddl(LastNullableDesc::NAME),
    ] {
        writeln!(script, "{ddl};").unwrap();
    }
    upserts::<Sweep>(&sweep, &mut script);
    upserts::<LastDesc>(&last_desc, &mut script);
    upserts::<LastNullable>(&last_null, &mut script);
    upserts::<LastNullableDesc>(&last_null_desc, &mut script);
    // Phoenix's SELECT of the last-column tables (never misplaced by a separator inside a
    // value) and of the rows of the five-column table whose values hold no 0x00/0xFF byte
    select::<LastDesc>(&mut script);
    select::<LastNullable>(&mut script);
    select::<LastNullableDesc>(&mut script);
    let out = hbase.phoenix_sql(&script).unwrap_or_else(|e| panic!("{e}"));
    let blocks = results(&out);
    assert_eq!(blocks.len(), 3, "one result per SELECT");
    // the five-column table on its own: Phoenix's SELECT of a row whose non-last value holds
    // a separator byte may fail outright (then every row of it counts as misread)
    let mut five = String::new();
    select::<Sweep>(&mut five);
    let sweep_select = match hbase.phoenix_sql(&five) {
        Ok(out) => results(&out).pop().expect("one result"),
        Err(e) => {
            eprintln!("Phoenix's SELECT of {} fails: {e}", Sweep::NAME);
            Vec::new()
        }
    };
    let tallies = [
        (
            Sweep::NAME,
            compare::<Sweep>(&client, &sweep, &sweep_select),
        ),
        (
            LastDesc::NAME,
            compare::<LastDesc>(&client, &last_desc, &blocks[0]),
        ),
        (
            LastNullable::NAME,
            compare::<LastNullable>(&client, &last_null, &blocks[1]),
        ),
        (
            LastNullableDesc::NAME,
            compare::<LastNullableDesc>(&client, &last_null_desc, &blocks[2]),
        ),
    ];
    eprintln!(
        "{:<26} {:>6} {:>15} {:>13} {:>15} {:>5}",
        "table", "values", "phoenix changed", "keys refused", "values refused", "bad"
    );
    let mut total = Tally::default();
    for (name, t) in &tallies {
        eprintln!(
            "{name:<26} {:>6} {:>15} {:>13} {:>15} {:>5}",
            t.values, t.phoenix_changed, t.refused_keys, t.refused_values, t.bad
        );
        total.values += t.values;
        total.phoenix_changed += t.phoenix_changed;
        total.refused_keys += t.refused_keys;
        total.refused_values += t.refused_values;
        total.bad += t.bad;
    }
    eprintln!(
        "{} sweep values stored by Phoenix's UPSERT; Phoenix's SELECT returned another value for \
         {}; rowkey refused {} keys and {} values; {} disagreements",
        total.values, total.phoenix_changed, total.refused_keys, total.refused_values, total.bad
    );
    assert_eq!(total.bad, 0, "rowkey and Phoenix disagree (listed above)");
    // Phoenix itself turns the tiny values into huge ones: 1E-127 comes back as 1E+129
    let probe_last = last_null
        .iter()
        .find(|(_, v)| v[0] == Some(dec("1E-127")))
        .expect("1E-127 in the sweep");
    let back = blocks[1]
        .iter()
        .find(|r| r[0] == probe_last.0.to_string())
        .expect("its row");
    assert_eq!(dec_field(&back[1]), Some(dec("1E+129")));
    let stored = LastNullable {
        k: probe_last.0,
        e: Some(dec("1E+129")),
    }
    .to_row_key()
    .unwrap();
    assert_eq!(&stored[4..], [0x81, 0x0B]);
    assert!(LastNullable {
        k: 0,
        e: Some(dec("1E-127"))
    }
    .to_row_key()
    .is_err());
    assert!(total.phoenix_changed > 0 && total.refused_values >= total.phoenix_changed);
}

// ---- item 4: a legacy table ----

/// A legacy table's key: DESC `VARCHAR`s (NOT NULL, nullable) and a DESC `DECIMAL` before an
/// ASC `VARCHAR`, and a DESC `VARCHAR` last.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix(row_key_order_optimizable = false))]
struct Legacy {
    k: i32,
    #[desc]
    a: String,
    #[desc]
    b: Option<String>,
    #[desc]
    c: Option<BigDecimal>,
    d: Option<String>,
    #[desc]
    e: Option<String>,
}

const LEGACY: &str = "RKE_LEGACY";

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn text(&mut self) -> String {
        const CHARS: &[char] = &['a', 'b', 'z', 'é', '\u{7f}', '~', ' ', '語'];
        let n = 1 + self.below(4);
        (0..n).map(|_| CHARS[self.below(CHARS.len())]).collect()
    }
    fn opt_text(&mut self) -> Option<String> {
        (self.below(4) != 0).then(|| self.text())
    }
    fn decimal(&mut self) -> Option<BigDecimal> {
        (self.below(4) != 0).then(|| {
            let unscaled = self.next() as i64 / (1 << self.below(60));
            BigDecimal::new(unscaled.into(), self.below(9) as i64 - 4)
        })
    }
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn text_literal(s: &Option<String>) -> String {
    s.as_deref().map_or("NULL".into(), quote)
}

fn text_field(s: &str) -> Option<String> {
    (s != "\\N").then(|| s.to_string())
}

/// The row as Phoenix's `SELECT` prints it, parsed.
fn legacy_select(r: &[String]) -> (i32, Vec<Option<String>>, Option<BigDecimal>) {
    (
        r[0].parse().expect("k"),
        vec![
            text_field(&r[1]),
            text_field(&r[2]),
            text_field(&r[4]),
            text_field(&r[5]),
        ],
        dec_field(&r[3]),
    )
}

fn legacy_view(l: &Legacy) -> (i32, Vec<Option<String>>, Option<BigDecimal>) {
    (
        l.k,
        vec![Some(l.a.clone()), l.b.clone(), l.d.clone(), l.e.clone()],
        l.c.clone(),
    )
}

#[test]
fn phoenix_legacy_layout() {
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let client = Client::connect(hbase.thrift_addr()).expect("gateway client");
    // 1. the table, made legacy as Phoenix's upgrade code marks tables (UpgradeUtil: the
    //    header row's ROW_KEY_ORDER_OPTIMIZABLE cell; MetaDataEndpointImpl reads a table
    //    without TRUE there as not optimizable), then an ALTER so that the server rebuilds
    //    the table from SYSTEM.CATALOG
    let setup = format!(
        "{};\n\
         UPSERT INTO SYSTEM.CATALOG (TENANT_ID, TABLE_SCHEM, TABLE_NAME, \
         ROW_KEY_ORDER_OPTIMIZABLE BOOLEAN) VALUES (NULL, NULL, '{LEGACY}', FALSE);\n\
         SELECT COUNT(*) FROM {LEGACY};\n\
         ALTER TABLE {LEGACY} ADD v INTEGER;\n\
         SELECT ROW_KEY_ORDER_OPTIMIZABLE FROM SYSTEM.CATALOG (ROW_KEY_ORDER_OPTIMIZABLE BOOLEAN) \
         WHERE TABLE_SCHEM IS NULL AND TABLE_NAME = '{LEGACY}' AND COLUMN_NAME IS NULL \
         AND COLUMN_FAMILY IS NULL;",
        Legacy::phoenix_ddl(LEGACY)
    );
    let out = hbase.phoenix_sql(&setup).unwrap_or_else(|e| panic!("{e}"));
    let flag = results(&out);
    assert_eq!(
        flag.get(1).map(|r| r.as_slice()),
        Some(&[vec!["false".to_string()]][..]),
        "{out}"
    );

    // 2. rows: random ones, and '\0' inside DESC VARCHARs (not last; last, ending with it)
    let mut rng = Rng(0x4E6A_C1E5_0049);
    let mut rows: Vec<Legacy> = (0..240)
        .map(|k| Legacy {
            k,
            a: rng.text(),
            b: rng.opt_text(),
            c: rng.decimal(),
            d: rng.opt_text(),
            e: if k % 5 == 0 { None } else { rng.opt_text() },
        })
        .collect();
    let base = |k: i32| Legacy {
        k,
        a: "ab".into(),
        b: Some("c".into()),
        c: Some(BigDecimal::from(5)),
        d: Some("d".into()),
        e: Some("e".into()),
    };
    // (field, row): '\0' inside a value that is not the last
    let hostile: Vec<(&str, Legacy)> = vec![
        (
            "a",
            Legacy {
                a: "a\0b\u{7f}".into(),
                ..base(1000)
            },
        ),
        (
            "a",
            Legacy {
                a: "\0".into(),
                b: None,
                c: None,
                d: None,
                e: None,
                ..base(1001)
            },
        ),
        (
            "b",
            Legacy {
                b: Some("x\0".into()),
                ..base(1002)
            },
        ),
        (
            "b",
            Legacy {
                b: Some("\0y".into()),
                d: None,
                e: None,
                ..base(1003)
            },
        ),
    ];
    // the last column: '\0' inside and at the end (an 0xFF at the key's end)
    rows.push(Legacy {
        e: Some("e\0f".into()),
        ..base(1100)
    });
    rows.push(Legacy {
        e: Some("ef\0".into()),
        ..base(1101)
    });
    let mut script = String::new();
    for r in rows.iter().chain(hostile.iter().map(|(_, r)| r)) {
        writeln!(
            script,
            "UPSERT INTO {LEGACY} (k, a, b, c, d, e, v) VALUES ({}, {}, {}, {}, {}, {}, {});",
            r.k,
            quote(&r.a),
            text_literal(&r.b),
            literal(&r.c),
            text_literal(&r.d),
            text_literal(&r.e),
            r.k
        )
        .unwrap();
    }
    writeln!(
        script,
        "SELECT k, a, b, c, d, e FROM {LEGACY} WHERE v < 1000 OR v >= 1100;"
    )
    .unwrap();
    let out = hbase.phoenix_sql(&script).unwrap_or_else(|e| panic!("{e}"));
    let blocks = results(&out);
    assert_eq!(blocks.len(), 1, "{out}");
    let mut selected: BTreeMap<i32, _> = blocks[0]
        .iter()
        .map(|r| {
            let row = legacy_select(r);
            (row.0, row)
        })
        .collect();
    // Phoenix's SELECT of the rows with '\0' inside a value, and a WHERE on such a value, on
    // their own (a SELECT that reads a column from the wrong place may fail outright)
    let misread = format!(
        "SELECT k, a, b, c, d, e FROM {LEGACY} WHERE v >= 1000 AND v < 1100;\n\
         SELECT v FROM {LEGACY} WHERE a = {};",
        quote(&hostile[0].1.a)
    );
    match hbase.phoenix_sql(&misread) {
        Ok(out) => {
            let blocks = results(&out);
            for r in &blocks[0] {
                let row = legacy_select(r);
                selected.insert(row.0, row);
            }
            eprintln!(
                "  {LEGACY}: Phoenix's SELECT … WHERE a = {:?} returns {} row(s)",
                hostile[0].1.a,
                blocks.get(1).map_or(0, Vec::len)
            );
        }
        Err(e) => eprintln!("  {LEGACY}: Phoenix's SELECT of the rows with '\\0' fails: {e}"),
    }

    // 3. the stored keys, rowkey's decode and encode, and Phoenix's SELECT
    let stored: BTreeMap<i32, Vec<u8>> = rows_of(&client, LEGACY)
        .into_iter()
        .map(|k| (id_of(&k), k))
        .collect();
    assert_eq!(stored.len(), rows.len() + hostile.len());
    let mut checked = 0;
    for r in &rows {
        let key = &stored[&r.k];
        let ours = r.to_row_key().unwrap_or_else(|e| panic!("{r:?}: {e}"));
        assert_eq!(
            ours.as_ref(),
            key.as_slice(),
            "{r:?}: rowkey's key {} is not Phoenix's {}",
            hex(&ours),
            hex(key)
        );
        assert_eq!(&Legacy::from_row_key(key).expect("decodes"), r);
        let theirs = &selected[&r.k];
        if r.e.as_deref().is_some_and(|e| e.ends_with('\0')) {
            // Phoenix's SELECT drops the trailing 0xFF of the last column: one character short
            let mut short = legacy_view(r);
            short.1[3] = r.e.as_ref().map(|e| e.trim_end_matches('\0').to_string());
            assert_eq!(theirs, &short, "{r:?}");
        } else {
            assert_eq!(theirs, &legacy_view(r), "Phoenix's SELECT of {r:?}");
        }
        checked += 1;
    }
    // the legacy layout as stored: 0x00 after each DESC value, no trailing 0xFF
    let plain = &stored[&1100];
    assert_eq!(plain[4..7], [!b'a', !b'b', 0x00]);
    assert_ne!(plain.last(), Some(&0xFF));
    for (field, r) in &hostile {
        let key = &stored[&r.k];
        // Phoenix's UPSERT stored it, with the value's bytes as they are
        let at = key
            .iter()
            .position(|&b| b == 0xFF)
            .expect("an 0xFF inside a value");
        let e = Legacy::from_row_key(key).expect_err("a key Phoenix's SELECT misreads");
        assert_eq!(e.field(), *field, "{e}");
        assert_eq!(e.offset(), at, "{e}");
        assert!(
            matches!(e.kind(), DecodeErrorKind::InvalidByte { .. }),
            "{e}"
        );
        let w = r
            .to_row_key()
            .expect_err("a value Phoenix reads back as another");
        assert_eq!(w.field(), *field, "{w}");
        assert!(
            matches!(w.kind(), EncodeErrorKind::ContainsSeparator { .. }),
            "{w}"
        );
        // and Phoenix's SELECT does not return it as written
        assert_ne!(selected.get(&r.k), Some(&legacy_view(r)), "{r:?}");
        eprintln!(
            "  {LEGACY}: {field} = {:?}: Phoenix stored {} and its SELECT returns {:?}; rowkey: {e}",
            match *field {
                "a" => Some(r.a.clone()),
                "b" => r.b.clone(),
                _ => r.d.clone(),
            },
            to_string_binary(key),
            selected.get(&r.k)
        );
    }

    // 4. a typed read pages past every row it returns (after(&row)), and past every key it
    //    refuses (after_key)
    let table = client.table(LEGACY);
    let ranges = Legacy::scan().ranges();
    let (mut got, mut refused) = (Vec::new(), Vec::new());
    let mut cursor: Option<Result<Legacy, Vec<u8>>> = None;
    let mut pages = 0;
    loop {
        let read = table.read::<Legacy>(&ranges).limit(7).page_rows(3);
        let read = match &cursor {
            None => read,
            Some(Ok(row)) => read
                .after(row)
                .unwrap_or_else(|e| panic!("after {row:?}: {e}")),
            Some(Err(key)) => read.after_key(key),
        };
        let mut n = 0;
        for item in read.rows().expect("read") {
            n += 1;
            match item {
                Ok((row, _)) => {
                    got.push(row.clone());
                    cursor = Some(Ok(row));
                }
                Err(Error::Decode { key, .. }) => {
                    refused.push(key.clone());
                    cursor = Some(Err(key));
                }
                Err(e) => panic!("read: {e}"),
            }
        }
        pages += 1;
        if n == 0 {
            break;
        }
        assert!(pages < 1000, "the read does not advance");
    }
    let want: Vec<&Legacy> = {
        let mut w: Vec<&Legacy> = rows.iter().collect();
        w.sort_by_key(|r| &stored[&r.k]);
        w
    };
    assert_eq!(
        got.iter().collect::<Vec<_>>(),
        want,
        "the typed read's rows"
    );
    let mut want_refused: Vec<Vec<u8>> =
        hostile.iter().map(|(_, r)| stored[&r.k].clone()).collect();
    want_refused.sort();
    assert_eq!(refused, want_refused);
    eprintln!(
        "{LEGACY} (legacy layout, live): {checked} rows with rowkey's keys = Phoenix's, decoded = \
         SELECT; {} keys with '\\0' inside a value that is not the last: stored by Phoenix, \
         misread by its SELECT, refused by rowkey both ways; typed read in {pages} pages of 7: \
         {} rows, {} refused keys",
        hostile.len(),
        got.len(),
        refused.len()
    );
}
