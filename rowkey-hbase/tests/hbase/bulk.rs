//! Bulk load on the live server (issue 46): typed rows written as HFiles per region by
//! `rowkey_hbase::bulk`, loaded by HBase's own `BulkLoadHFilesTool`, and read back through the
//! gateway cell for cell — values on the edges (empty values, rows of `0x00` and `0xFF`, the
//! longest legal row, many qualifiers, three families (NONE, SNAPPY, ZSTD), timestamps 0
//! and `Long.MAX_VALUE`, cells at the load's timestamp), an input spilled in many runs, and a
//! region split between writing and loading.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rowkey::plan::SplitPoints;
use rowkey::RowKey;
use rowkey_hbase::bulk::{BulkError, BulkLoad};
use rowkey_hbase::testkit::HBase;
use rowkey_hbase::thrift::{
    TColumnFamilyDescriptor, TCompressionAlgorithm, TScan, TTHBaseServiceSyncClient,
    TTableDescriptor, TTableName,
};
use rowkey_hbase::{Cell, Client, Error};

fn hbase() -> &'static HBase {
    HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"))
}

fn client() -> Client {
    Client::connect(hbase().thrift_addr()).expect("gateway client")
}

/// A salted key whose last field takes any bytes.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 8))]
struct Blob {
    id: u32,
    #[sep]
    tail: Vec<u8>,
}

/// Every cell of the table, every version: (row, family, qualifier, timestamp) → value.
type Cells = BTreeMap<(Vec<u8>, String, Vec<u8>, i64), Vec<u8>>;

fn cells_of(client: &Client, table: &str) -> Cells {
    let mut conn = client.open().expect("a raw connection");
    let scan = TScan::new(
        None, None, None, None, 10, None, None, None, None, None, None, None, None, None, None,
        None, None, None,
    );
    let rows = conn
        .get_scanner_results(table.as_bytes().to_vec(), scan, 1_000_000)
        .expect("a raw scan");
    let mut out = Cells::new();
    for r in rows {
        let row = r.row.unwrap_or_default();
        for c in r.column_values {
            out.insert(
                (
                    row.clone(),
                    String::from_utf8_lossy(&c.family).into_owned(),
                    c.qualifier,
                    c.timestamp.unwrap_or_default(),
                ),
                c.value,
            );
        }
    }
    out
}

fn family(name: &str, compression: TCompressionAlgorithm) -> TColumnFamilyDescriptor {
    let mut f = TColumnFamilyDescriptor::new(
        name.as_bytes().to_vec(),
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
    f.compression_type = Some(compression);
    f
}

fn out_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bulk-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn typed_rows_bulk_loaded_by_hbase_read_back_cell_for_cell() {
    let client = client();
    let name = "bulk_edges";
    if client.table_exists(name).expect("exists") {
        client.delete_table(name).expect("drop");
    }
    let desc = TTableDescriptor::new(
        TTableName::new(None, name.as_bytes().to_vec()),
        vec![
            family("d", TCompressionAlgorithm::NONE),
            family("e", TCompressionAlgorithm::SNAPPY),
            // HBase's own ZSTD codec (hbase-compression-zstd) is on the test server
            family("z", TCompressionAlgorithm::ZSTD),
        ],
        None,
        None,
    );
    let splits = Blob::split_points(8).expect("split points");
    client
        .open()
        .expect("connection")
        .create_table(desc, splits)
        .expect("create");
    let table = client.table(name);
    let load_ts = 1_650_000_000_000;
    let dir = out_dir(name);
    // a 1 MiB budget (the least): the cells below spill into several runs
    let mut writer = BulkLoad::for_table(&table, &dir)
        .expect("the table's regions and families")
        .memory_budget(1 << 20)
        .threads(2)
        .timestamp(load_ts)
        .writer::<Blob>()
        .expect("writer");
    let mut want = Cells::new();
    let mut add = |key: &Blob, cells: Vec<Cell>, expect: Vec<(&str, Vec<u8>, i64, Vec<u8>)>| {
        writer.add(key, cells).expect("add");
        let row = key.to_row_key().expect("encode").to_vec();
        for (f, q, ts, v) in expect {
            want.insert((row.clone(), f.to_string(), q, ts), v);
        }
    };
    // many rows, cells in no order (ids descending), two families, values of every length
    for id in (0..12_000u32).rev() {
        let tail = vec![(id % 256) as u8; (id % 7) as usize];
        let key = Blob { id, tail };
        let value = vec![b'x'; (id % 500) as usize];
        let mut cells = vec![
            Cell::new("e", "b", &value).at(i64::from(id) + 1),
            Cell::new("d", "a", id.to_string()),
        ];
        let mut expect = vec![
            ("e", b"b".to_vec(), i64::from(id) + 1, value.clone()),
            ("d", b"a".to_vec(), load_ts, id.to_string().into_bytes()),
        ];
        if id % 3 == 0 {
            cells.push(Cell::new("z", "c", &value).at(9));
            expect.push(("z", b"c".to_vec(), 9, value.clone()));
        }
        add(&key, cells, expect);
    }
    // edges: rows of 0x00 and 0xFF, the longest row HBase takes, empty values, timestamps 0
    // and Long.MAX_VALUE, 500 qualifiers in one row
    let zeros = Blob {
        id: 0,
        tail: vec![0; 40],
    };
    let ones = Blob {
        id: u32::MAX,
        tail: vec![0xFF; 40],
    };
    add(
        &zeros,
        vec![
            Cell::new("d", "", "").at(0),
            Cell::new("d", "max", "m").at(i64::MAX),
        ],
        vec![
            ("d", b"".to_vec(), 0, vec![]),
            ("d", b"max".to_vec(), i64::MAX, b"m".to_vec()),
        ],
    );
    add(
        &ones,
        vec![Cell::new("e", [0u8, 0xFF], "").at(7)],
        vec![("e", vec![0u8, 0xFF], 7, vec![])],
    );
    let longest_tail = {
        // a key of exactly 32,767 bytes: salt (1) + id (4) + the escaped tail and its end
        let mut probe = Blob {
            id: 9,
            tail: vec![b'a'; 32_767 - 1 - 4 - 2],
        };
        while probe.to_row_key().expect("encode").len() < 32_767 {
            probe.tail.push(b'a');
        }
        probe
    };
    assert_eq!(longest_tail.to_row_key().expect("encode").len(), 32_767);
    add(
        &longest_tail,
        vec![Cell::new("d", "q", "long").at(5)],
        vec![("d", b"q".to_vec(), 5, b"long".to_vec())],
    );
    let wide = Blob {
        id: 77,
        tail: b"wide".to_vec(),
    };
    let qualifiers: Vec<Cell> = (0..500)
        .rev()
        .map(|q| Cell::new("d", format!("q{q:04}"), format!("{q}")).at(11))
        .collect();
    let expect: Vec<_> = (0..500)
        .map(|q| {
            (
                "d",
                format!("q{q:04}").into_bytes(),
                11,
                format!("{q}").into_bytes(),
            )
        })
        .collect();
    add(&wide, qualifiers, expect);
    // a row over HBase's limit is refused, naming the key; nothing of it is written
    let too_long = Blob {
        id: 5,
        tail: vec![b'z'; 32_767],
    };
    match writer.add(&too_long, [Cell::new("d", "q", "v")]) {
        Err(Error::Bulk(BulkError::Row { key, problem })) => {
            assert!(key.contains("id=5"), "{key}");
            assert!(problem.contains("32767"), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    // so is a family the table does not have
    match writer.add(&wide, [Cell::new("nope", "q", "v")]) {
        Err(Error::Bulk(BulkError::Row { key, problem })) => {
            assert!(key.contains("id=77"), "{key}");
            assert!(problem.contains("nope"), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    let report = writer.finish().expect("write the files");
    assert!(report.runs >= 2, "the input spilled: {} runs", report.runs);
    assert_eq!(report.regions.len(), 8);
    assert_eq!(report.cells, want.len() as u64);
    for r in &report.regions {
        assert!(!r.files.is_empty(), "every salt bucket has rows: {r:?}");
        for f in &r.files {
            let family = f
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .expect("a family directory");
            assert!(["d", "e", "z"].contains(&family), "{}", f.display());
        }
    }
    // the spill directory is gone: only the family directories are left
    let mut top: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    top.sort();
    assert_eq!(top, ["d", "e", "z"]);

    // a region split after the files were written: the tool splits the files that span it
    let mid = Blob {
        id: 3000,
        tail: vec![],
    }
    .to_row_key()
    .expect("encode");
    let bucket = mid[0];
    let split_at: String = mid.iter().map(|b| format!("\\x{b:02x}")).collect();
    let out = hbase()
        .shell(&format!(
            "split '{name}', \"{split_at}\"\nsleep 2\nputs 'SPLIT ASKED'\n"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("SPLIT ASKED"), "{out}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while table.regions().expect("regions").len() < 9 {
        assert!(
            std::time::Instant::now() < deadline,
            "the region of bucket {bucket} did not split"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }

    hbase()
        .bulk_load(&dir, name)
        .unwrap_or_else(|e| panic!("{e}"));
    let got = cells_of(&client, name);
    assert_eq!(got.len(), want.len(), "cells read back");
    if got != want {
        let first = want
            .iter()
            .find(|(k, v)| got.get(*k) != Some(*v))
            .map(|(k, _)| k.clone());
        panic!("the cells read back differ, first at {first:?}");
    }
    client.delete_table(name).expect("drop");
}

/// The same cell twice is refused at `finish`, naming the key, and nothing is left behind.
#[test]
fn a_duplicate_cell_fails_the_load_and_leaves_no_file() {
    let dir = out_dir("duplicate");
    let mut writer =
        BulkLoad::with_split_points(&dir, &[vec![4]], vec![rowkey_hbase::bulk::Family::new("d")])
            .expect("load")
            .writer::<Blob>()
            .expect("writer");
    for id in 0..100u32 {
        let key = Blob {
            id,
            tail: b"t".to_vec(),
        };
        writer
            .add(&key, [Cell::new("d", "q", "v").at(1)])
            .expect("add");
    }
    let again = Blob {
        id: 42,
        tail: b"t".to_vec(),
    };
    writer
        .add(&again, [Cell::new("d", "q", "other").at(1)])
        .expect("refused only when sorted");
    match writer.finish() {
        Err(Error::Bulk(BulkError::Failed { error, left, .. })) => {
            assert!(left.is_empty(), "{left:?}");
            match *error {
                BulkError::Duplicate { key, family, .. } => {
                    assert!(key.contains("id=42"), "{key}");
                    assert_eq!(family, "d");
                }
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
    let left: Vec<_> = walk(&dir);
    assert!(left.is_empty(), "files left: {left:?}");
    // an output directory with files in it is refused
    std::fs::write(dir.join("other"), b"x").expect("write");
    let e = BulkLoad::with_split_points(&dir, &[], vec![rowkey_hbase::bulk::Family::new("d")])
        .expect("load")
        .writer::<Blob>()
        .expect_err("not empty");
    assert!(e.to_string().contains("not empty"), "{e}");
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 4))]
struct Order {
    seller: u32,
    #[sep]
    no: String,
}

/// The key tool's `bulk`: delimited records (as ImportTsv reads them) to files per region of a
/// live table, the load command printed; HBase's tool loads them and a typed read returns them.
#[test]
fn the_key_tool_writes_a_bulk_load_from_delimited_records() {
    let client = client();
    let name = "bulk_keytool";
    if client.table_exists(name).expect("exists") {
        client.delete_table(name).expect("drop");
    }
    client
        .create_table(name, &["d"], &Order::split_points(4).expect("splits"))
        .expect("create");
    let dir = out_dir(name);
    let mut tsv = String::new();
    for i in 0..5000u32 {
        tsv.push_str(&format!("{}\tA-{i}\t{}\tnote {i}\n", i % 97, i * 3));
    }
    let addr = hbase().thrift_addr().to_string();
    let dir_s = dir.display().to_string();
    let args = [
        "keytool",
        "bulk",
        "Order",
        "--gateway",
        &addr,
        "--table",
        name,
        "--out",
        &dir_s,
        "--columns",
        "seller,no,d:amount,d:note",
        "--timestamp",
        "1000",
    ];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = rowkey_hbase::keytool::run::<(Order,)>(
        &args,
        &mut tsv.as_bytes(),
        &mut stdout,
        &mut stderr,
    );
    let (out, err) = (
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5000 records, 10000 cells"), "{out}");
    assert!(
        out.contains(&format!("hbase completebulkload {dir_s} {name}")),
        "{out}"
    );
    assert!(err.contains("5000 records read"), "{err}");
    hbase()
        .bulk_load(&dir, name)
        .unwrap_or_else(|e| panic!("{e}"));
    let rows = client
        .table(name)
        .read::<Order>(&Order::scan().ranges())
        .collect()
        .expect("read");
    assert_eq!(rows.len(), 5000);
    for (k, row) in &rows {
        let i: u32 = k.no[2..].parse().expect("number");
        assert_eq!(k.seller, i % 97);
        assert_eq!(
            row.value("d", b"amount"),
            Some((i * 3).to_string().as_bytes())
        );
        assert_eq!(
            row.value("d", b"note"),
            Some(format!("note {i}").as_bytes())
        );
        assert!(row.cells.iter().all(|c| c.timestamp == 1000));
    }
    // a record with a column too few is refused with its line; nothing is left behind
    let bad_dir = out_dir("keytool-bad");
    let bad_s = bad_dir.display().to_string();
    let mut args = args.to_vec();
    args[8] = &bad_s;
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = rowkey_hbase::keytool::run::<(Order,)>(
        &args,
        &mut &b"1\tA-1\t3\tx\n2\tA-2\t4\n"[..],
        &mut stdout,
        &mut stderr,
    );
    let err = String::from_utf8_lossy(&stderr);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2: 3 columns"), "{err}");
    assert!(walk(&bad_dir).is_empty(), "{:?}", walk(&bad_dir));
    client.delete_table(name).expect("drop");
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Big {
    id: u32,
}

/// A million cells in one region, with 1 KiB blocks so the file's block index has several
/// levels: written through a spilling sort, loaded by HBase's tool, and read back through the
/// gateway — every row, in order, with its value.
#[test]
fn a_million_cells_in_one_region_load_and_read_back() {
    let client = client();
    let name = "bulk_million";
    if client.table_exists(name).expect("exists") {
        client.delete_table(name).expect("drop");
    }
    let mut d = family("d", TCompressionAlgorithm::NONE);
    d.block_size = Some(1024);
    let desc = TTableDescriptor::new(
        TTableName::new(None, name.as_bytes().to_vec()),
        vec![d],
        None,
        None,
    );
    client
        .open()
        .expect("connection")
        .create_table(desc, vec![])
        .expect("create");
    let table = client.table(name);
    let dir = out_dir(name);
    let mut writer = BulkLoad::for_table(&table, &dir)
        .expect("load")
        .memory_budget(16 << 20)
        .writer::<Big>()
        .expect("writer");
    const N: u32 = 1_000_000;
    // in no order: a stride through the ids
    for i in 0..N {
        let id = u32::try_from(u64::from(i) * 7_919 % u64::from(N)).expect("below N");
        writer
            .add(&Big { id }, [Cell::new("d", "v", id.to_be_bytes()).at(1)])
            .expect("add");
    }
    let report = writer.finish().expect("write");
    assert_eq!(report.cells, u64::from(N));
    assert!(report.runs >= 2, "{} runs", report.runs);
    assert_eq!(report.files().count(), 1);
    hbase()
        .bulk_load(&dir, name)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut next = 0u32;
    for row in table
        .read::<Big>(&Big::scan().ranges())
        .page_rows(10_000)
        .rows()
        .expect("rows")
    {
        let (k, row) = row.expect("row");
        assert_eq!(k.id, next);
        assert_eq!(row.value("d", b"v"), Some(&next.to_be_bytes()[..]));
        next += 1;
    }
    assert_eq!(next, N, "every cell read back");
    client.delete_table(name).expect("drop");
}
