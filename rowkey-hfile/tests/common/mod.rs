//! Helpers of the integration tests: cells to write, the expected-cells dump the Java harness
//! reads, a block walker that recomputes every block's CRC32C, and HBase's jars.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rowkey_hfile::{Cell, CellType, FileSummary, HFileWriter, WriterOptions, MAX_ROW_LENGTH};

/// An owned cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owned {
    pub row: Vec<u8>,
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    pub ts: i64,
    pub ty: CellType,
    pub value: Vec<u8>,
}

impl Owned {
    pub fn new(
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        ts: i64,
        ty: CellType,
        value: &[u8],
    ) -> Self {
        Owned {
            row: row.to_vec(),
            family: family.to_vec(),
            qualifier: qualifier.to_vec(),
            ts,
            ty,
            value: value.to_vec(),
        }
    }

    pub fn cell(&self) -> Cell<'_> {
        Cell {
            row: &self.row,
            family: &self.family,
            qualifier: &self.qualifier,
            timestamp: self.ts,
            cell_type: self.ty,
            value: &self.value,
        }
    }
}

/// Sorts cells in HBase's order and drops duplicate keys.
pub fn sort_cells(cells: &mut Vec<Owned>) {
    cells.sort_by(|a, b| a.cell().compare_key(&b.cell()));
    cells.dedup_by(|a, b| a.cell().compare_key(&b.cell()).is_eq());
}

/// Appends the expected-cells record of a cell (the format ReadHFiles.java reads).
pub fn dump_cell(out: &mut Vec<u8>, c: &Cell<'_>) {
    for part in [c.row, c.family, c.qualifier] {
        out.extend_from_slice(&(part.len() as i32).to_be_bytes());
        out.extend_from_slice(part);
    }
    out.extend_from_slice(&c.timestamp.to_be_bytes());
    out.push(c.cell_type.code());
    out.extend_from_slice(&(c.value.len() as i32).to_be_bytes());
    out.extend_from_slice(c.value);
}

/// Writes `cells` to `path` (creating its directory) and their dump to `path.expect`.
pub fn write_file(path: &Path, cells: &[Owned], options: WriterOptions) -> FileSummary {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut w = HFileWriter::create(path, options).unwrap();
    let mut dump = Vec::new();
    for c in cells {
        w.append(&c.cell()).unwrap();
        dump_cell(&mut dump, &c.cell());
    }
    std::fs::write(expect_path(path), dump).unwrap();
    w.finish().unwrap()
}

pub fn expect_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".expect");
    PathBuf::from(p)
}

/// What the block walker saw.
#[derive(Debug, Default)]
pub struct Walk {
    pub blocks: usize,
    pub data_blocks: usize,
    pub leaf_index_blocks: usize,
    pub intermediate_index_blocks: usize,
    pub root_index_blocks: usize,
    pub bloom_chunks: usize,
    pub checksums: usize,
}

const MAGICS: [&[u8; 8]; 8] = [
    b"DATABLK*",
    b"IDXLEAF2",
    b"BLMFBLK2",
    b"IDXINTE2",
    b"IDXROOT2",
    b"FILEINF2",
    b"BLMFMET2",
    b"DFBLMET2",
];

fn be_i32(b: &[u8]) -> i32 {
    i32::from_be_bytes(b[..4].try_into().unwrap())
}

/// Walks every block of an HFile from offset 0 to the trailer, checking each header and
/// recomputing each CRC32C chunk (HBase's reader silently falls back to file system checksums
/// when one does not match, so a wrong checksum would pass its scans unnoticed).
pub fn walk(file: &[u8]) -> Result<Walk, String> {
    let trailer_at = file
        .len()
        .checked_sub(rowkey_hfile::TRAILER_SIZE)
        .ok_or("shorter than a trailer")?;
    if &file[trailer_at..trailer_at + 8] != b"TRABLK\"$" {
        return Err("no trailer magic".into());
    }
    if file[file.len() - 4..] != [3, 0, 0, 3] {
        return Err(format!("version bytes {:?}", &file[file.len() - 4..]));
    }
    let mut w = Walk::default();
    let mut prev_by_type: std::collections::HashMap<[u8; 8], i64> = Default::default();
    let mut at = 0usize;
    while at < trailer_at {
        let h = file.get(at..at + 33).ok_or(format!("header at {at} cut"))?;
        let magic: [u8; 8] = h[0..8].try_into().unwrap();
        if !MAGICS.contains(&&magic) {
            return Err(format!(
                "unknown magic {:?} at {at}",
                String::from_utf8_lossy(&magic)
            ));
        }
        let on_disk_without_header = be_i32(&h[8..]) as usize;
        let prev = i64::from_be_bytes(h[16..24].try_into().unwrap());
        let expected_prev = prev_by_type.get(&magic).copied().unwrap_or(-1);
        if prev != expected_prev {
            return Err(format!(
                "block at {at}: previous offset {prev}, expected {expected_prev}"
            ));
        }
        if h[24] != 2 {
            return Err(format!("block at {at}: checksum type {}", h[24]));
        }
        let per_chunk = be_i32(&h[25..]) as usize;
        let data_with_header = be_i32(&h[29..]) as usize;
        let end = at + 33 + on_disk_without_header;
        if end > trailer_at || data_with_header > 33 + on_disk_without_header {
            return Err(format!("block at {at} overruns"));
        }
        let chunks = data_with_header.div_ceil(per_chunk);
        if 33 + on_disk_without_header != data_with_header + 4 * chunks {
            return Err(format!(
                "block at {at}: sizes disagree with the checksum count"
            ));
        }
        let data = &file[at..at + data_with_header];
        let sums = &file[at + data_with_header..end];
        for (i, chunk) in data.chunks(per_chunk).enumerate() {
            let stored = u32::from_be_bytes(sums[i * 4..i * 4 + 4].try_into().unwrap());
            if crc32c::crc32c(chunk) != stored {
                return Err(format!(
                    "block at {at} ({}): CRC32C of chunk {i} is {:08x}, stored {stored:08x}",
                    String::from_utf8_lossy(&magic),
                    crc32c::crc32c(chunk)
                ));
            }
            w.checksums += 1;
        }
        w.blocks += 1;
        match &magic {
            b"DATABLK*" => w.data_blocks += 1,
            b"IDXLEAF2" => w.leaf_index_blocks += 1,
            b"IDXINTE2" => w.intermediate_index_blocks += 1,
            b"IDXROOT2" => w.root_index_blocks += 1,
            b"BLMFBLK2" => w.bloom_chunks += 1,
            _ => {}
        }
        prev_by_type.insert(magic, at as i64);
        at = end;
    }
    if at != trailer_at {
        return Err(format!(
            "blocks end at {at}, the trailer starts at {trailer_at}"
        ));
    }
    Ok(w)
}

fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The first of `java`, `javac` and `mvn` that does not run, with what to install for it.
pub fn missing_tool() -> Option<(&'static str, &'static str)> {
    const JDK: &str = "a JDK 11 or newer (Debian: apt-get install openjdk-17-jdk-headless)";
    [
        ("java", "-version", JDK),
        ("javac", "-version", JDK),
        (
            "mvn",
            "-v",
            "Maven (Debian: apt-get install maven), which fetches HBase's jars",
        ),
    ]
    .into_iter()
    .find(|(program, arg, _)| !have(program, arg))
    .map(|(program, _, install)| (program, install))
}

/// HBase 2.6.1's classpath (HBase's reader and its pure-Java codecs), resolved by Maven from
/// `harness/pom.xml` and cached under `~/.cache/rowkey-hfile`. Panics naming what to install if
/// `java`, `javac` or `mvn` is missing: these tests never pass without HBase reading the files.
pub fn hbase_classpath() -> String {
    if let Some((program, install)) = missing_tool() {
        panic!(
            "`{program}` is missing: HBase itself reads the files these tests write; install {install}"
        );
    }
    let pom = Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/pom.xml");
    let pom_text = std::fs::read(&pom).unwrap();
    let hash = pom_text.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let home = std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from);
    let dir = home.join(".cache/rowkey-hfile");
    std::fs::create_dir_all(&dir).unwrap();
    let cached = dir.join(format!("classpath-{hash:016x}.txt"));
    if let Ok(cp) = std::fs::read_to_string(&cached) {
        if !cp.is_empty() && cp.split(':').all(|j| Path::new(j).is_file()) {
            return cp;
        }
    }
    eprintln!("rowkey-hfile tests: fetching HBase 2.6.1's jars with Maven (first run only)…");
    let tmp = dir.join(format!("classpath-{hash:016x}.{}.tmp", std::process::id()));
    let out = Command::new("mvn")
        .args(["-B", "-q", "-f"])
        .arg(&pom)
        .arg("dependency:build-classpath")
        .arg(format!("-Dmdep.outputFile={}", tmp.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "`mvn dependency:build-classpath` failed (Maven Central must be reachable):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&tmp, &cached).unwrap();
    std::fs::read_to_string(&cached).unwrap()
}

/// Compiles harness/ReadHFiles.java into `classes`.
pub fn compile_harness(classpath: &str, classes: &Path) {
    compile_harness_file(classpath, classes, "ReadHFiles.java");
}

/// The JVM flags HBase's server needs on JDK 17 (as rowkey-hbase's test kit runs it).
pub const JDK17_FLAGS: &[&str] = &[
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.dns=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
    "--add-modules=jdk.unsupported",
    "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
    "-Djava.net.preferIPv4Stack=true",
];

/// Compiles one harness/*.java into `classes`.
pub fn compile_harness_file(classpath: &str, classes: &Path, file: &str) {
    std::fs::create_dir_all(classes).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("harness")
        .join(file);
    let out = Command::new("javac")
        .arg("-cp")
        .arg(classpath)
        .arg("-d")
        .arg(classes)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "javac {file} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A fresh directory under the system's temporary directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rowkey-hfile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every block of a file as (magic, data before compression), in file order.
pub fn unpacked_blocks(
    file: &[u8],
    compression: rowkey_hfile::Compression,
) -> Vec<([u8; 8], Vec<u8>)> {
    use rowkey_hfile::Compression;
    let trailer_at = file.len() - rowkey_hfile::TRAILER_SIZE;
    let mut blocks = Vec::new();
    let mut at = 0usize;
    while at < trailer_at {
        let h = &file[at..at + 33];
        let magic: [u8; 8] = h[0..8].try_into().unwrap();
        let on_disk_without_header = be_i32(&h[8..]) as usize;
        let uncompressed = be_i32(&h[12..]) as usize;
        let data_with_header = be_i32(&h[29..]) as usize;
        let data = &file[at + 33..at + data_with_header];
        let plain = match compression {
            Compression::None => data.to_vec(),
            Compression::Gz => {
                use std::io::Read as _;
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(data)
                    .read_to_end(&mut out)
                    .unwrap();
                out
            }
            c => unframe(data, uncompressed, c),
        };
        assert_eq!(plain.len(), uncompressed, "block at {at}");
        blocks.push((magic, plain));
        at += 33 + on_disk_without_header;
    }
    blocks
}

/// Undoes Hadoop's BlockCompressorStream framing: [length][compressed length][compressed]...
fn unframe(mut data: &[u8], uncompressed: usize, c: rowkey_hfile::Compression) -> Vec<u8> {
    let mut out = Vec::with_capacity(uncompressed);
    while out.len() < uncompressed {
        let group = be_i32(data) as usize;
        data = &data[4..];
        let mut payload = Vec::new();
        let target = out.len() + group;
        while out.len() + decoded_len(&payload, c) < target {
            let n = be_i32(data) as usize;
            payload.extend_from_slice(&data[4..4 + n]);
            data = &data[4 + n..];
            if c == rowkey_hfile::Compression::Snappy {
                out.extend(snap::raw::Decoder::new().decompress_vec(&payload).unwrap());
                payload.clear();
            }
        }
        if c == rowkey_hfile::Compression::Zstd {
            out.extend(zstd::stream::decode_all(&payload[..]).unwrap());
        }
    }
    out
}

fn decoded_len(payload: &[u8], c: rowkey_hfile::Compression) -> usize {
    if payload.is_empty() || c != rowkey_hfile::Compression::Zstd {
        return 0;
    }
    zstd::stream::decode_all(payload).map_or(0, |v| v.len())
}

/// Rows on the edges: 0x00 and 0xFF bytes, the longest legal row, a row of many qualifiers,
/// empty values and qualifiers, `Long.MAX_VALUE` and 0 timestamps, every cell type, values
/// larger than a codec's buffer.
pub fn edge_cells(family: &[u8]) -> Vec<Owned> {
    use CellType::*;
    let f = family;
    let mut cells = vec![
        Owned::new(&[0x00], f, b"a", i64::MAX, Put, b""),
        Owned::new(&[0x00], f, b"a", 0, Put, b"corrupt-me-please"),
        Owned::new(&[0x00], f, b"", 5, Put, b"empty qualifier"),
        Owned::new(&[0x00, 0x00], f, b"a", 1, Put, b"\x00\xff"),
        Owned::new(&[0x00, 0xff], f, b"a", 1, Put, b"x"),
        Owned::new(
            &[0x00; MAX_ROW_LENGTH],
            f,
            b"a",
            1,
            Put,
            b"longest row of zeros",
        ),
        Owned::new(b"d", f, b"", 100, DeleteFamily, b""),
        Owned::new(b"d", f, b"", 100, DeleteFamilyVersion, b""),
        Owned::new(b"d", f, b"x", 50, DeleteColumn, b""),
        Owned::new(b"d", f, b"x", 50, Delete, b""),
        Owned::new(b"d", f, b"x", 50, Put, b"v"),
        Owned::new(b"d", f, b"x", 49, Put, b"older"),
        Owned::new(b"e", f, b"", 7, DeleteFamily, b""),
        Owned::new(&[0xff], f, b"a", 1, Put, b""),
        Owned::new(&[0xff; 10], f, &[0xff; 10], i64::MAX, Put, &[0xff; 10]),
        Owned::new(
            &[0xff; MAX_ROW_LENGTH],
            f,
            b"a",
            0,
            Put,
            b"longest row of 0xFF",
        ),
    ];
    for i in 0..1000u32 {
        let q = format!("q{i:05}");
        let v = format!("value of qualifier {i}").repeat((i % 7) as usize);
        cells.push(Owned::new(
            b"many-qualifiers",
            f,
            q.as_bytes(),
            1_700_000_000_000,
            Put,
            v.as_bytes(),
        ));
    }
    // values larger than snappy's (218,422 bytes) and zstd's (261,120) framing piece
    let big: Vec<u8> = (0..1_100_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    cells.push(Owned::new(b"big", f, b"1mib", 1, Put, &big));
    let text: Vec<u8> = b"compressible text "
        .iter()
        .copied()
        .cycle()
        .take(300_000)
        .collect();
    cells.push(Owned::new(b"big", f, b"300k", 1, Put, &text));
    sort_cells(&mut cells);
    cells
}

pub fn rows_cells(family: &[u8], rows: u32, qualifiers: u32) -> Vec<Owned> {
    let mut cells = Vec::new();
    for r in 0..rows {
        for q in 0..qualifiers {
            let row = format!("r{r:06}");
            cells.push(Owned::new(
                row.as_bytes(),
                family,
                format!("c{q}").as_bytes(),
                1_000 + u64::from(r % 3) as i64,
                CellType::Put,
                format!("{family:?}/{r}/{q}").as_bytes(),
            ));
        }
    }
    sort_cells(&mut cells);
    cells
}
