//! HBase's own bulk loader (`BulkLoadHFilesTool`, what `hbase completebulkload` runs) loads the
//! files this crate writes into a live standalone HBase 2.6.1, whole (one region: the files are
//! moved in as they are) and split (a pre-split table: the tool splits each file at the region
//! boundaries it spans), and a raw scan of every version and delete marker returns exactly the
//! cells written. The server runs under `flock /tmp/rowkey-server.lock` (one server test on the
//! machine at a time). Needs `java`, `javac`, `mvn` and `flock` (the test fails naming them).

#![cfg(all(feature = "snappy", feature = "gz", feature = "zstd"))]

mod common;

use std::net::{Ipv4Addr, TcpListener};
use std::process::Command;
use std::time::Instant;

use common::{edge_cells, rows_cells, sort_cells, write_file};
use rowkey_hfile::{BloomType, Compression, WriterOptions};

#[test]
fn hbase_bulk_loads_the_files_and_returns_every_cell() {
    let classpath = common::hbase_classpath();
    assert!(
        Command::new("flock")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "`flock` is missing (Debian: util-linux): the test starts HBase under \
         `flock /tmp/rowkey-server.lock`"
    );
    let dir = common::scratch_dir("bulkload");
    let f1 = edge_cells(b"f1");
    let f2 = rows_cells(b"f2", 3000, 2);
    let mut all = f1.clone();
    all.extend(f2.iter().cloned());
    sort_cells(&mut all);
    assert_eq!(all.len(), f1.len() + f2.len());
    let mut dump = Vec::new();
    for c in &all {
        common::dump_cell(&mut dump, &c.cell());
    }
    let expected = dir.join("expected");
    std::fs::write(&expected, dump).unwrap();
    // two load directories (the tool moves files it loads whole): `<dir>/<family>/<file>`
    for load in ["load-whole", "load-split"] {
        write_file(
            &dir.join(format!("{load}/f1/edges")),
            &f1,
            WriterOptions::default().compression(Compression::Snappy),
        );
        write_file(
            &dir.join(format!("{load}/f2/rows")),
            &f2,
            WriterOptions::default()
                .bloom(BloomType::None)
                .compression(Compression::Gz),
        );
        for family in ["f1", "f2"] {
            // the `.expect` dumps are the other test's; the tool must see HFiles only
            for entry in std::fs::read_dir(dir.join(load).join(family)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "expect") {
                    std::fs::remove_file(path).unwrap();
                }
            }
        }
    }
    let classes = dir.join("classes");
    common::compile_harness_file(&classpath, &classes, "BulkLoad.java");
    let zk_port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    // split points inside both files: "d", between the f1 rows; "r001500", inside f2's rows
    let splits = format!("{},{}", hex(b"d"), hex(b"r001500"));
    let t = Instant::now();
    let out = Command::new("flock")
        .arg("/tmp/rowkey-server.lock")
        .arg("java")
        .args(common::JDK17_FLAGS)
        .arg("-Xmx1536m")
        .arg("-cp")
        .arg(format!("{classpath}:{}", classes.display()))
        .arg("BulkLoad")
        .arg(dir.join("server"))
        .arg(zk_port.to_string())
        .arg(&expected)
        .arg(format!("whole={}", dir.join("load-whole").display()))
        .arg(format!(
            "split={}={splits}",
            dir.join("load-split").display()
        ))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!(
        "HBase (waiting for /tmp/rowkey-server.lock, then start, two loads, two scans) in \
         {:?}:\n{stdout}",
        t.elapsed()
    );
    assert!(
        out.status.success(),
        "bulk load failed:\n{stdout}\n{}",
        tail(&String::from_utf8_lossy(&out.stderr), 60)
    );
    let whole = stdout
        .lines()
        .find(|l| l.starts_with("OK whole "))
        .expect("whole table");
    assert!(whole.contains("into 1 region(s)"), "{whole}");
    let split = stdout
        .lines()
        .find(|l| l.starts_with("OK split "))
        .expect("split table");
    assert!(split.contains("into 3 region(s)"), "{split}");
    for line in [whole, split] {
        assert!(
            line.contains(&format!("all {} cells, equal and in order", all.len())),
            "{line}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
