//! The real HBase shell against a real HBase (`HBase::shell`: the HBase 2.4.17 shell, the newest
//! on Maven Central, on the server's 2.6.1 client jars):
//!
//! * the `create … SPLITS => [...]` statements that `rowkey::plan::create_statement` and the
//!   key tool's `plan` print — for a salted layout, a hash-prefix layout and split points made
//!   of awkward bytes (0x00, 0xFF, `"`, `\`, `'`, `#`, `#{`, space, `\x41` as text) — run by the
//!   shell, create tables whose real regions (`Table::regions`, the server's
//!   `getAllRegionLocations`) start exactly at the planned keys (and, as a control, the same
//!   splits written as raw-byte literals do not);
//! * the key tool's `scan 'table', {STARTROW => …, STOPROW => …}` commands, run by the shell
//!   over rows written with `Batch`, print exactly the rows the typed scan means (the rows are
//!   read back from the shell's `toStringBinary` output with `from_string_binary`).
//!
//! A missing JDK, Maven or jar fails the test with what to install; a shell statement that
//! fails fails the test with the shell's output.

use rowkey::plan::SplitPoints;
use std::collections::BTreeSet;

use rowkey::hbase::{from_string_binary, shell_literal, to_string_binary};
use rowkey::plan::create_statement;
use rowkey::RowKey;
use rowkey_hbase::testkit::{HBase, ServerError, SHELL_VERSION};
use rowkey_hbase::{Batch, Cell, Client};

/// Salted: 8 buckets from the seller id.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderBySeller {
    #[salt(buckets = 8)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// Hash prefix: 4 hex characters of the buyer id's md5.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderByBuyer {
    #[hash_prefix(4)]
    buyer_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// Neither: its first byte takes every value from 0x00 to 0xFF, the text and bytes hold what a
/// Ruby string literal must escape.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Odd {
    code: u8,
    #[sep]
    name: String,
    blob: Vec<u8>,
}

type Types = (OrderBySeller, OrderByBuyer, Odd);

fn hbase() -> &'static HBase {
    HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"))
}

fn shell(script: &str) -> String {
    let started = std::time::Instant::now();
    let out = hbase().shell(script).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "HBase shell {SHELL_VERSION}: {} statement(s) in {:.1} s",
        script.lines().count(),
        started.elapsed().as_secs_f64()
    );
    // Shown when the test fails.
    eprintln!("{out}");
    out
}

/// Runs the key tool in-process; its standard output.
fn keytool(args: &[&str]) -> String {
    let mut argv = vec!["keytool"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rowkey::tool::run::<Types>(&argv, &mut &b""[..], &mut out, &mut err);
    let (out, err) = (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    );
    assert_eq!(code, 0, "keytool {args:?}:\n{out}{err}");
    out
}

/// Split points with the bytes a shell literal or `Bytes.toBytesBinary` could get wrong.
fn awkward_splits() -> Vec<Vec<u8>> {
    let mut s: Vec<Vec<u8>> = vec![
        vec![0x00],
        vec![0x00, 0x00],
        vec![0x00, 0xFF],
        b"\t\n".to_vec(),
        b" ".to_vec(),
        b" '#".to_vec(),
        b"\"".to_vec(),
        b"\"\"".to_vec(),
        b"#".to_vec(),
        b"#$x".to_vec(),
        b"#@x".to_vec(),
        b"#{".to_vec(),
        b"#{1+1}".to_vec(),
        b"'".to_vec(),
        b"''".to_vec(),
        b"\\".to_vec(),
        b"\\\\".to_vec(),
        b"\\x".to_vec(),
        b"\\x4".to_vec(),
        b"\\x41".to_vec(),
        b"\\xZZ".to_vec(),
        b"a b".to_vec(),
        b"x\x7F".to_vec(),
        vec![0x80],
        "é".as_bytes().to_vec(),
        vec![0xFF],
        vec![0xFF, 0x00],
        vec![0xFF, 0xFF, 0xFF],
    ];
    s.sort();
    s.dedup();
    s
}

/// The statement after `hbase:` in the key tool's `plan` output.
fn plan_statement(out: &str) -> String {
    let mut lines = out.lines().skip_while(|l| *l != "hbase:");
    lines.next();
    lines
        .next()
        .unwrap_or_else(|| panic!("no create statement in:\n{out}"))
        .trim()
        .to_owned()
}

#[test]
fn create_statements_make_the_planned_regions() {
    let salted = OrderBySeller::split_points(8).unwrap();
    let hashed = OrderByBuyer::split_points(16).unwrap();
    let awkward = awkward_splits();
    // The key tool prints the same statement as create_statement.
    let tool_salted = plan_statement(&keytool(&[
        "plan",
        "OrderBySeller",
        "--regions",
        "8",
        "--table",
        "shell_plan_salted",
    ]));
    assert_eq!(
        tool_salted,
        create_statement("shell_plan_salted", "f", &salted)
    );
    let tool_hashed = plan_statement(&keytool(&[
        "plan",
        "OrderByBuyer",
        "--regions",
        "16",
        "--table",
        "shell_plan_hashed",
    ]));
    assert_eq!(
        tool_hashed,
        create_statement("shell_plan_hashed", "f", &hashed)
    );
    let tables: Vec<(&str, &[Vec<u8>], String)> = vec![
        (
            "shell_salted",
            &salted,
            create_statement("shell_salted", "d", &salted),
        ),
        (
            "shell_hashed",
            &hashed,
            create_statement("shell_hashed", "d", &hashed),
        ),
        (
            "shell_awkward",
            &awkward,
            create_statement("shell_awkward", "d", &awkward),
        ),
        (
            "rowkey_shell:awkward",
            &awkward,
            create_statement("rowkey_shell:awkward", "d", &awkward),
        ),
        ("shell_plan_salted", &salted, tool_salted),
        ("shell_plan_hashed", &hashed, tool_hashed),
    ];
    // The control: splits written as raw-byte literals (`shell_literal`, right for `scan` and
    // `put`), which `create` then reads with `Bytes.toBytesBinary`: other regions.
    let control: Vec<Vec<u8>> = vec![b"\\x41".to_vec(), vec![0xFF]];
    let control_stmt = format!(
        "create 'shell_control', {{NAME => 'd'}}, SPLITS => [{}]",
        control
            .iter()
            .map(|s| shell_literal(s))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut script = String::from("create_namespace 'rowkey_shell'\n");
    for (_, _, stmt) in &tables {
        script.push_str(stmt);
        script.push('\n');
    }
    script.push_str(&control_stmt);
    let out = shell(&script);
    let client = Client::connect(hbase().thrift_addr()).unwrap();
    for (table, splits, stmt) in &tables {
        assert!(
            out.contains(&format!("Created table {table}")),
            "{stmt}\n{out}"
        );
        let starts: Vec<Vec<u8>> = client
            .table(table)
            .regions()
            .unwrap()
            .into_iter()
            .map(|r| r.start)
            .collect();
        let mut planned = vec![Vec::new()];
        planned.extend(splits.iter().cloned());
        assert_eq!(
            starts
                .iter()
                .map(|k| to_string_binary(k))
                .collect::<Vec<_>>(),
            planned
                .iter()
                .map(|k| to_string_binary(k))
                .collect::<Vec<_>>(),
            "{table}: the regions the shell made from\n{stmt}"
        );
    }
    let starts: Vec<String> = client
        .table("shell_control")
        .regions()
        .unwrap()
        .iter()
        .map(|r| to_string_binary(&r.start))
        .collect();
    // `\x41` (text) became "A"; the byte 0xFF became U+FFFD in the Ruby → Java string, cut to
    // 0xFD by toBytesBinary.
    assert_eq!(starts, ["", "A", "\\xFD"], "{control_stmt}\n{out}");
}

/// The `scan` blocks of the shell's output, in order: the rows (read back from
/// `toStringBinary`) of each `ROW  COLUMN+CELL` … `N row(s)` block, checked against its count.
fn scan_blocks(out: &str) -> Vec<Vec<Vec<u8>>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Vec<u8>>> = None;
    for line in out.lines() {
        if line.trim_end() == "ROW  COLUMN+CELL" {
            assert!(current.is_none(), "a scan inside a scan:\n{out}");
            current = Some(Vec::new());
            continue;
        }
        let Some(rows) = current.as_mut() else {
            continue;
        };
        if let Some(n) = line.strip_suffix(" row(s)") {
            let n: usize = n.trim().parse().unwrap_or_else(|_| panic!("{line:?}"));
            assert_eq!(n, rows.len(), "row count of a scan:\n{out}");
            blocks.push(current.take().unwrap());
            continue;
        }
        // ` ROW column=FAMILY:QUALIFIER, timestamp=…, value=…`: our rows hold no " column=".
        let (row, _) = line
            .strip_prefix(' ')
            .and_then(|l| l.split_once(" column=d:q, timestamp="))
            .unwrap_or_else(|| panic!("not a row line: {line:?}\n{out}"));
        rows.push(from_string_binary(row).unwrap_or_else(|e| panic!("{row:?}: {e}")));
    }
    assert!(current.is_none(), "unfinished scan:\n{out}");
    blocks
}

/// One typed scan: the key tool's arguments, and which written rows it means.
struct Case<T> {
    args: &'static [&'static str],
    wants: fn(&T) -> bool,
}

/// One key tool scan's commands and ranges: `(hbase command, start, stop)` per range.
fn tool_scan(kind: &str, table: &str, args: &[&str]) -> Vec<(String, Vec<u8>, Option<Vec<u8>>)> {
    let mut argv = vec!["scan", kind, "--table", table];
    argv.extend_from_slice(args);
    let out = keytool(&argv);
    let mut ranges = Vec::new();
    let mut rows = None;
    for line in out.lines() {
        if let Some(r) = line.strip_prefix("  rows   [") {
            let r = r.strip_suffix(')').unwrap();
            // toStringBinary has no ", " of its own (a space is printed as is, a comma too:
            // the stop is after the last ", ").
            let (start, stop) = r.rsplit_once(", ").unwrap();
            let stop = (stop != "end of table").then(|| from_string_binary(stop).unwrap());
            rows = Some((from_string_binary(start).unwrap(), stop));
        } else if let Some(cmd) = line.strip_prefix("  hbase  ") {
            let (start, stop) = rows.take().expect("rows before hbase");
            ranges.push((cmd.to_owned(), start, stop));
        }
    }
    assert!(
        out.contains(&format!("{} range(s)", ranges.len())),
        "keytool {argv:?}:\n{out}"
    );
    ranges
}

/// Writes `rows` into `table`, runs each case's key tool scan commands through the shell, and
/// checks what the shell printed: per range exactly the written keys in `[start, stop)` in key
/// order, and over all ranges exactly the rows the case wants.
fn check_scans<T: RowKey>(
    kind: &str,
    table: &str,
    regions: usize,
    rows: &[T],
    cases: &[Case<T>],
    split: impl Fn(usize) -> Vec<Vec<u8>>,
) {
    let client = Client::connect(hbase().thrift_addr()).unwrap();
    client.create_table(table, &["d"], &split(regions)).unwrap();
    let t = client.table(table);
    let mut batch = Batch::new();
    for r in rows {
        batch.put(&t, r, [Cell::new("d", "q", "v")]).unwrap();
    }
    batch.apply().unwrap();
    let keys: BTreeSet<Vec<u8>> = rows
        .iter()
        .map(|r| r.to_row_key().unwrap().to_vec())
        .collect();
    assert_eq!(keys.len(), rows.len(), "distinct rows");

    let plans: Vec<_> = cases
        .iter()
        .map(|c| tool_scan(kind, table, c.args))
        .collect();
    let mut script = String::new();
    for (cmd, _, _) in plans.iter().flatten() {
        script.push_str(cmd);
        script.push('\n');
    }
    let out = shell(&script);
    let mut blocks = scan_blocks(&out).into_iter();
    let mut statements = out.lines().filter_map(|l| {
        l.strip_prefix("hbase:")
            .and_then(|l| l.split_once("> "))
            .map(|(_, s)| s)
    });
    for (case, plan) in cases.iter().zip(&plans) {
        let mut got = BTreeSet::new();
        for (cmd, start, stop) in plan {
            assert_eq!(statements.next(), Some(cmd.as_str()), "the shell's echo");
            let shown = blocks
                .next()
                .unwrap_or_else(|| panic!("no output of {cmd}:\n{out}"));
            let expected: Vec<&Vec<u8>> = keys
                .iter()
                .filter(|k| *k >= start && stop.as_ref().is_none_or(|s| *k < s))
                .collect();
            assert_eq!(
                shown
                    .iter()
                    .map(|k| to_string_binary(k))
                    .collect::<Vec<_>>(),
                expected
                    .iter()
                    .map(|k| to_string_binary(k))
                    .collect::<Vec<_>>(),
                "{cmd}"
            );
            got.extend(shown);
        }
        let wanted: BTreeSet<Vec<u8>> = rows
            .iter()
            .filter(|r| (case.wants)(r))
            .map(|r| r.to_row_key().unwrap().to_vec())
            .collect();
        assert!(!wanted.is_empty(), "{:?} wants no row", case.args);
        assert_eq!(
            got.iter().map(|k| to_string_binary(k)).collect::<Vec<_>>(),
            wanted
                .iter()
                .map(|k| to_string_binary(k))
                .collect::<Vec<_>>(),
            "keytool scan {kind} {:?}",
            case.args
        );
    }
    assert!(blocks.next().is_none(), "more scans than commands:\n{out}");
}

/// Order numbers with what a Ruby literal must escape, bytes above 0x7F, and a 0x00.
const ORDER_NOS: &[&str] = &[
    "A-1", "a\"b", "c\\d", "#{x}", "#", "it's", "sp ace", "\u{0}z", "é", "\\x41", "~",
];
const T0: i64 = 1_700_000_000_000;

#[test]
fn keytool_scans_through_the_shell_salted() {
    let mut rows = Vec::new();
    for seller_id in [1, 2, 3, 42, 43, 1000] {
        for (i, no) in ORDER_NOS.iter().enumerate() {
            rows.push(OrderBySeller {
                seller_id,
                created_ms: T0 + (i as i64 % 4) * 1000,
                order_no: (*no).into(),
            });
        }
    }
    let cases: &[Case<OrderBySeller>] = &[
        Case {
            args: &[],
            wants: |_| true,
        },
        Case {
            args: &["seller_id=42"],
            wants: |r| r.seller_id == 42,
        },
        Case {
            args: &["seller_id=42", "created_ms=1700000001000..=1700000002000"],
            wants: |r| r.seller_id == 42 && (T0 + 1000..=T0 + 2000).contains(&r.created_ms),
        },
        Case {
            args: &["seller_id=1000", "created_ms=1700000003000", "order_no^=#"],
            wants: |r| {
                r.seller_id == 1000 && r.created_ms == T0 + 3000 && r.order_no.starts_with('#')
            },
        },
        Case {
            args: &["seller_id=3", "created_ms=1700000003000", "order_no^=#{"],
            wants: |r| {
                r.seller_id == 3 && r.created_ms == T0 + 3000 && r.order_no.starts_with("#{")
            },
        },
        Case {
            args: &[
                "seller_id=2",
                "created_ms=1700000002000",
                "order_no^=c\\x5C",
            ],
            wants: |r| {
                r.seller_id == 2 && r.created_ms == T0 + 2000 && r.order_no.starts_with("c\\")
            },
        },
    ];
    check_scans("OrderBySeller", "shell_scan_salted", 8, &rows, cases, |n| {
        OrderBySeller::split_points(n).unwrap()
    });
}

#[test]
fn keytool_scans_through_the_shell_hashed() {
    let mut rows = Vec::new();
    for buyer_id in [0, 7, 8, 99, u64::MAX] {
        for (i, no) in ORDER_NOS.iter().enumerate() {
            rows.push(OrderByBuyer {
                buyer_id,
                created_ms: T0 - (i as i64 % 3) * 1000,
                order_no: (*no).into(),
            });
        }
    }
    let cases: &[Case<OrderByBuyer>] = &[
        Case {
            args: &["buyer_id=7"],
            wants: |r| r.buyer_id == 7,
        },
        Case {
            args: &[
                "buyer_id=18446744073709551615",
                "created_ms=..1700000000000",
            ],
            wants: |r| r.buyer_id == u64::MAX && r.created_ms < T0,
        },
        Case {
            args: &["buyer_id=0", "created_ms=1699999999000", "order_no^=a\""],
            wants: |r| {
                r.buyer_id == 0 && r.created_ms == T0 - 1000 && r.order_no.starts_with("a\"")
            },
        },
        Case {
            args: &["buyer_id=99", "created_ms=1699999998000", "order_no^=é"],
            wants: |r| r.buyer_id == 99 && r.created_ms == T0 - 2000 && r.order_no.starts_with('é'),
        },
    ];
    check_scans("OrderByBuyer", "shell_scan_hashed", 16, &rows, cases, |n| {
        OrderByBuyer::split_points(n).unwrap()
    });
}

#[test]
fn keytool_scans_through_the_shell_awkward_bytes() {
    let mut rows = Vec::new();
    for code in [0x00, 0x01, 0x22, 0x23, 0x5C, 0x7F, 0x80, 0xFE, 0xFF] {
        for (i, name) in ["", "it's", "#{x}", "a b", "q\"", "\\", "\u{0}", "ÿ"]
            .iter()
            .enumerate()
        {
            let blob = match i % 4 {
                0 => vec![],
                1 => vec![0x00],
                2 => vec![0xFF, 0x00, 0x5C],
                _ => b"#{\"'".to_vec(),
            };
            rows.push(Odd {
                code,
                name: (*name).into(),
                blob,
            });
        }
    }
    let cases: &[Case<Odd>] = &[
        Case {
            args: &["code=0"],
            wants: |r| r.code == 0,
        },
        Case {
            // The last prefix of the key space: no STOPROW.
            args: &["code=255"],
            wants: |r| r.code == 0xFF,
        },
        Case {
            args: &["code=0x5C..0xFF"],
            wants: |r| (0x5C..0xFF).contains(&r.code),
        },
        Case {
            args: &["code=0x80.."],
            wants: |r| r.code >= 0x80,
        },
        Case {
            args: &["code=0x23", "name=#{x}"],
            wants: |r| r.code == 0x23 && r.name == "#{x}",
        },
        Case {
            args: &["code=0x22", "name=q\""],
            wants: |r| r.code == 0x22 && r.name == "q\"",
        },
        Case {
            args: &["code=0xFF", "name=\\x00", "blob^=\\xFF\\x00"],
            wants: |r| r.code == 0xFF && r.name == "\u{0}" && r.blob.starts_with(&[0xFF, 0x00]),
        },
        Case {
            args: &["code=0xFE", "name=\\x5C"],
            wants: |r| r.code == 0xFE && r.name == "\\",
        },
        Case {
            args: &["code=0x7F", "name=a b", "blob^=#{"],
            wants: |r| r.code == 0x7F && r.name == "a b" && r.blob.starts_with(b"#{"),
        },
    ];
    let splits = awkward_splits();
    check_scans("Odd", "shell_scan_awkward", 0, &rows, cases, |_| {
        splits.clone()
    });
}

/// A statement that fails, or that the shell cannot read, fails the call: the shell stops at
/// the first error (`-n`) and exits non-zero.
#[test]
fn a_failing_statement_fails() {
    let err = hbase()
        .shell("create 'shell_twice', 'd'\ncreate 'shell_twice', 'd'\nlist_namespace\n")
        .expect_err("creating a table twice");
    let ServerError::Shell(text) = &err else {
        panic!("{err}");
    };
    assert!(text.contains("Table already exists: shell_twice"), "{err}");
    assert!(
        !text.contains("list_namespace"),
        "ran past the error: {err}"
    );
    // A literal the shell's Ruby cannot read (an unterminated string) fails too.
    let err = hbase()
        .shell("scan 'shell_twice', {STARTROW => \"a}\nlist_namespace\n")
        .expect_err("an unterminated string");
    assert!(err.to_string().contains("SyntaxError"), "{err}");
}
