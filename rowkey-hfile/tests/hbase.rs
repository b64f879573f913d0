//! Every file these tests write is read by HBase 2.6.1's own code, in one JVM run
//! (harness/ReadHFiles.java): `HFilePrettyPrinter -v -k -a -m -b -h`, a scan compared cell for
//! cell with the input, exact seeks, the Bloom filters, HBase's checksum failure count. Each
//! file's blocks are also walked here with every CRC32C recomputed, and a file with one flipped
//! byte is shown to be caught by both. Needs `java`, `javac` and `mvn` (the test fails naming
//! them otherwise).

#![cfg(all(feature = "snappy", feature = "gz", feature = "zstd"))]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::{edge_cells, rows_cells, walk, write_file, Owned};
use rowkey_hfile::{BloomType, Compression, FileSummary, WriterOptions};

struct Written {
    path: PathBuf,
    summary: FileSummary,
    corrupt: bool,
    /// The same cells written by HBase's own writer, for a byte comparison.
    twin: Option<(PathBuf, Spec)>,
}

/// A file's settings, for this writer and for HBase's.
#[derive(Clone, Debug)]
struct Spec {
    compression: Compression,
    bloom: BloomType,
    block_size: usize,
    index_max: usize,
    index_min: usize,
    bytes_per_checksum: u32,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            compression: Compression::None,
            bloom: BloomType::Row,
            block_size: 65536,
            index_max: 131072,
            index_min: 16,
            bytes_per_checksum: 16384,
        }
    }
}

const CREATE_TIME: i64 = 1_700_000_000_123;
const BULKLOAD_TIME: i64 = 1_700_000_000_456;
const TASK: &str = "rowkey-hfile-test";

impl Spec {
    fn options(&self) -> WriterOptions {
        WriterOptions::default()
            .compression(self.compression)
            .bloom(self.bloom)
            .block_size(self.block_size)
            .index_block_max_size(self.index_max)
            .index_min_entries(self.index_min)
            .bytes_per_checksum(self.bytes_per_checksum)
            .create_time_ms(CREATE_TIME)
            .bulkload_time_ms(BULKLOAD_TIME)
            .bulkload_task(TASK)
    }

    fn write_manifest_line(&self, expect: &Path, out: &Path) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{CREATE_TIME}\t{BULKLOAD_TIME}\t{TASK}\t{}\n",
            expect.display(),
            out.display(),
            self.compression.hbase_name(),
            if self.bloom == BloomType::Row {
                "ROW"
            } else {
                "NONE"
            },
            self.block_size,
            self.index_max,
            self.index_min,
            self.bytes_per_checksum,
        )
    }
}

fn next(seed: &mut u64) -> u64 {
    // xorshift64*
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn random_cells(seed: &mut u64, n: usize) -> Vec<Owned> {
    use rowkey_hfile::CellType::*;
    let alphabet = [0x00u8, 0x01, b'a', 0x7f, 0x80, 0xfe, 0xff];
    let bytes = |seed: &mut u64, max: u64| -> Vec<u8> {
        let len = next(seed) % (max + 1);
        (0..len)
            .map(|_| alphabet[(next(seed) % alphabet.len() as u64) as usize])
            .collect()
    };
    let mut cells = Vec::with_capacity(n);
    while cells.len() < n {
        let mut row = bytes(seed, 12);
        if row.is_empty() {
            row.push(0x00);
        }
        let ty = [
            Put,
            Put,
            Put,
            Delete,
            DeleteColumn,
            DeleteFamily,
            DeleteFamilyVersion,
        ][(next(seed) % 7) as usize];
        let qualifier = bytes(seed, 6);
        let ts = match next(seed) % 4 {
            0 => 0,
            1 => i64::MAX,
            _ => (next(seed) >> 1) as i64 % 2_000_000_000_000,
        };
        let value = if ty == Put {
            bytes(seed, 40)
        } else {
            Vec::new()
        };
        cells.push(Owned::new(&row, b"r", &qualifier, ts, ty, &value));
    }
    common::sort_cells(&mut cells);
    cells
}

fn compressions() -> Vec<Compression> {
    vec![
        Compression::None,
        Compression::Snappy,
        Compression::Gz,
        Compression::Zstd,
    ]
}

#[test]
fn hbase_reads_every_file_cell_for_cell() {
    let classpath = common::hbase_classpath();
    let dir = common::scratch_dir("hbase");
    let started = Instant::now();
    let mut files: Vec<Written> = Vec::new();
    let mut add = |name: &str, family: &str, cells: &[Owned], spec: Spec| {
        let path = dir.join(format!("{name}/{family}/hfile"));
        let summary = write_file(&path, cells, spec.options());
        let twin = dir.join(format!("hbase-writer/{name}/{family}/hfile"));
        std::fs::create_dir_all(twin.parent().unwrap()).unwrap();
        files.push(Written {
            path,
            summary,
            corrupt: false,
            twin: Some((twin, spec)),
        });
    };

    // the edges, in every compression, Bloom ROW (default)
    let edges = edge_cells(b"cf");
    for c in compressions() {
        add(
            &format!("edges-{}", c.hbase_name()),
            "cf",
            &edges,
            Spec {
                compression: c,
                ..Spec::default()
            },
        );
    }
    // two families of the same rows, one file each (one with no Bloom filter)
    add("two", "f1", &rows_cells(b"f1", 3000, 4), Spec::default());
    add(
        "two",
        "f2",
        &rows_cells(b"f2", 3000, 2),
        Spec {
            bloom: BloomType::None,
            compression: Compression::Snappy,
            ..Spec::default()
        },
    );
    // a multi-level index from few cells: one cell per data block, tiny index blocks
    let small = Spec {
        block_size: 64,
        index_max: 512,
        index_min: 2,
        ..Spec::default()
    };
    add("levels", "cf", &rows_cells(b"cf", 5000, 1), small.clone());
    add(
        "levels-gz",
        "cf",
        &rows_cells(b"cf", 5000, 1),
        Spec {
            compression: Compression::Gz,
            ..small
        },
    );
    // an empty file
    add("empty", "cf", &[], Spec::default());
    // random cells (rows and qualifiers of few distinct bytes, so keys share long prefixes;
    // every cell type; any timestamp) with random block, index and checksum sizes
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for n in 0..6 {
        let cells = random_cells(&mut seed, 3000);
        let spec = Spec {
            compression: if n % 3 == 2 {
                Compression::Snappy
            } else {
                Compression::None
            },
            bloom: if n % 2 == 0 {
                BloomType::Row
            } else {
                BloomType::None
            },
            block_size: 1 + (next(&mut seed) % 3000) as usize,
            index_max: 64 + (next(&mut seed) % 2000) as usize,
            index_min: 2 + (next(&mut seed) % 20) as usize,
            bytes_per_checksum: [64, 512, 16384][n % 3],
        };
        add(&format!("random-{n}"), "r", &cells, spec);
    }
    // a million cells: a two-level index with the default index size, ten Bloom chunks
    let million = {
        let t = Instant::now();
        let path = dir.join("million/cf/hfile");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let spec = Spec {
            block_size: 4096,
            compression: Compression::Snappy,
            ..Spec::default()
        };
        let mut w = rowkey_hfile::HFileWriter::create(&path, spec.options()).unwrap();
        let mut dump = Vec::with_capacity(64 << 20);
        for i in 0..1_000_000u64 {
            let row = (i * 7919).to_be_bytes();
            let value = i.to_le_bytes();
            let cell = rowkey_hfile::Cell::put(
                &row,
                b"cf",
                b"q",
                1_600_000_000_000 + (i % 1000) as i64,
                &value,
            );
            w.append(&cell).unwrap();
            common::dump_cell(&mut dump, &cell);
        }
        std::fs::write(common::expect_path(&path), dump).unwrap();
        let summary = w.finish().unwrap();
        eprintln!(
            "wrote 1,000,000 cells ({} bytes) in {:?}",
            summary.bytes,
            t.elapsed()
        );
        let twin = dir.join("hbase-writer/million/cf/hfile");
        std::fs::create_dir_all(twin.parent().unwrap()).unwrap();
        Written {
            path,
            summary,
            corrupt: false,
            twin: Some((twin, spec)),
        }
    };
    files.push(million);

    // one flipped byte in a value of the first data block: the walker and HBase must catch it
    let good = std::fs::read(&files[0].path).unwrap();
    let at = good
        .windows(17)
        .position(|w| w == b"corrupt-me-please")
        .unwrap();
    let mut bad = good.clone();
    bad[at + 3] ^= 0x01;
    let bad_path = dir.join("corrupt/cf/hfile");
    std::fs::create_dir_all(bad_path.parent().unwrap()).unwrap();
    std::fs::write(&bad_path, &bad).unwrap();
    std::fs::copy(
        common::expect_path(&files[0].path),
        common::expect_path(&bad_path),
    )
    .unwrap();
    let err = walk(&bad).unwrap_err();
    assert!(err.contains("CRC32C of chunk 0"), "{err}");
    files.push(Written {
        path: bad_path,
        summary: files[0].summary.clone(),
        corrupt: true,
        twin: None,
    });
    eprintln!("wrote {} files in {:?}", files.len(), started.elapsed());

    // our own walk of every block, every checksum
    for f in files.iter().filter(|f| !f.corrupt) {
        let bytes = std::fs::read(&f.path).unwrap();
        assert_eq!(bytes.len() as u64, f.summary.bytes);
        let w = walk(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.path.display()));
        assert_eq!(
            w.data_blocks as u64,
            f.summary.data_blocks,
            "{}",
            f.path.display()
        );
        assert!(w.checksums >= w.blocks);
    }
    let levels = files
        .iter()
        .find(|f| f.path.ends_with("levels/cf/hfile"))
        .unwrap();
    assert!(levels.summary.index_levels >= 3, "{:?}", levels.summary);
    let million = files
        .iter()
        .find(|f| f.path.ends_with("million/cf/hfile"))
        .unwrap();
    assert_eq!(million.summary.index_levels, 2, "{:?}", million.summary);
    assert!(million.summary.bloom_chunks >= 9, "{:?}", million.summary);

    // HBase reads them all, in one JVM
    let classes = dir.join("classes");
    common::compile_harness(&classpath, &classes);
    let manifest = dir.join("manifest.tsv");
    let lines: String = files
        .iter()
        .map(|f| {
            format!(
                "{}\t{}\t{}\n",
                f.path.display(),
                common::expect_path(&f.path).display(),
                if f.corrupt { "corrupt" } else { "ok" }
            )
        })
        .collect();
    std::fs::write(&manifest, lines).unwrap();
    let write_manifest = dir.join("write-manifest.tsv");
    let twins: String = files
        .iter()
        .filter_map(|f| {
            f.twin
                .as_ref()
                .map(|(twin, spec)| spec.write_manifest_line(&common::expect_path(&f.path), twin))
        })
        .collect();
    std::fs::write(&write_manifest, twins).unwrap();
    let t = Instant::now();
    let out = Command::new("java")
        .arg("-Xmx1g")
        .arg("-cp")
        .arg(format!("{classpath}:{}", classes.display()))
        .arg("ReadHFiles")
        .arg(&manifest)
        .arg(&write_manifest)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!(
        "HBase read {} files in {:?}:\n{stdout}",
        files.len(),
        t.elapsed()
    );
    assert!(
        out.status.success(),
        "HBase's reader refused a file:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for f in &files {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("OK {} ", f.path.display())))
            .unwrap_or_else(|| panic!("no OK line for {}:\n{stdout}", f.path.display()));
        if f.corrupt {
            assert!(line.contains("checksum verification failed"), "{line}");
        } else if f.summary.cells > 0 {
            assert!(
                line.contains(&format!("scanned {} cells equal", f.summary.cells)),
                "{line}"
            );
        }
        if f.summary.index_levels > 1 {
            assert!(line.contains("midkey present"), "{line}");
        }
    }

    // byte for byte against HBase's own writer (StoreFileWriter over HFileWriterImpl, as
    // HFileOutputFormat2 drives it), same cells, same settings, same times
    let mut report = String::new();
    let mut differ = Vec::new();
    for f in &files {
        let Some((twin, spec)) = &f.twin else {
            continue;
        };
        let ours = std::fs::read(&f.path).unwrap();
        let theirs = std::fs::read(twin).unwrap();
        let first_diff = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        let line = match (first_diff, ours.len() == theirs.len()) {
            (None, true) => format!("identical ({} bytes)", ours.len()),
            (d, _) => format!(
                "DIFFERENT: {} vs {} bytes, first difference at {:?}",
                ours.len(),
                theirs.len(),
                d
            ),
        };
        report.push_str(&format!(
            "{} ({:?}): {line}\n",
            f.path.strip_prefix(&dir).unwrap().display(),
            spec.compression
        ));
        if !line.starts_with("identical") {
            differ.push((f.path.clone(), spec.compression));
        }
    }
    eprintln!("against HBase's own writer:\n{report}");
    // where the codec's bytes differ (snap vs snappy-java, miniz vs zlib, zstd versions), the
    // blocks must not: the same blocks of each type, the same data blocks, Bloom chunks and file
    // info before compression (index blocks differ only by the offsets the codec moved)
    for (path, compression) in &differ {
        let twin = &files
            .iter()
            .find(|f| &f.path == path)
            .unwrap()
            .twin
            .as_ref()
            .unwrap()
            .0;
        let ours = common::unpacked_blocks(&std::fs::read(path).unwrap(), *compression);
        let theirs = common::unpacked_blocks(&std::fs::read(twin).unwrap(), *compression);
        let kinds = |b: &[([u8; 8], Vec<u8>)]| b.iter().map(|(m, _)| *m).collect::<Vec<_>>();
        assert_eq!(kinds(&ours), kinds(&theirs), "{}", path.display());
        for (i, ((magic, a), (_, b))) in ours.iter().zip(&theirs).enumerate() {
            if [b"DATABLK*", b"BLMFBLK2", b"FILEINF2"].contains(&magic) {
                assert!(
                    a == b,
                    "{}: block {i} ({}) differs from HBase's",
                    path.display(),
                    String::from_utf8_lossy(magic)
                );
            }
        }
        eprintln!(
            "{}: {} blocks, the same as HBase's before compression",
            path.strip_prefix(&dir).unwrap().display(),
            ours.len()
        );
    }
    let uncompressed_differ: Vec<_> = differ
        .iter()
        .filter(|(_, c)| *c == Compression::None)
        .collect();
    assert!(
        uncompressed_differ.is_empty(),
        "files differ from HBase's own:\n{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the tests' files go when kept (not used by the test above, which cleans up).
#[allow(dead_code)]
fn keep(dir: &Path) {
    eprintln!("files kept in {}", dir.display());
}
