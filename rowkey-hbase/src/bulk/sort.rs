//! The external sort of a bulk load: cells gathered in a buffer of bounded size, sorted by
//! region and HBase's cell order, spilled as runs (one file each, cut into one segment per
//! region), and merged region by region.
//!
//! A cell is kept as one record: a 19-byte head (row length `u16`, family length `u8`,
//! qualifier length `u32`, timestamp `i64`, value length `u32`, big-endian) and the row,
//! family, qualifier and value bytes. Runs hold the records one after the other; nothing but
//! this module reads them, and they are removed when the load ends.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::BulkError;

/// Bytes of a record's head.
const HEAD: usize = 19;

/// A record's parts, borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rec<'a> {
    pub(crate) row: &'a [u8],
    pub(crate) family: &'a [u8],
    pub(crate) qualifier: &'a [u8],
    pub(crate) timestamp: i64,
    pub(crate) value: &'a [u8],
}

impl<'a> Rec<'a> {
    /// The bytes of a record (`None` if they are not one).
    pub(crate) fn parse(b: &'a [u8]) -> Option<Rec<'a>> {
        let head = b.get(..HEAD)?;
        let row = usize::from(u16::from_be_bytes([head[0], head[1]]));
        let family = usize::from(head[2]);
        let qualifier = u32::from_be_bytes([head[3], head[4], head[5], head[6]]) as usize;
        let mut ts = [0u8; 8];
        ts.copy_from_slice(&head[7..15]);
        let value = u32::from_be_bytes([head[15], head[16], head[17], head[18]]) as usize;
        let mut at = HEAD;
        let mut take = |n: usize| {
            let s = b.get(at..at.checked_add(n)?)?;
            at += n;
            Some(s)
        };
        Some(Rec {
            row: take(row)?,
            family: take(family)?,
            qualifier: take(qualifier)?,
            timestamp: i64::from_be_bytes(ts),
            value: take(value)?,
        })
    }

    /// The record's length in bytes.
    pub(crate) fn len(&self) -> usize {
        HEAD + self.row.len() + self.family.len() + self.qualifier.len() + self.value.len()
    }

    /// Append the record to `out`. The caller has checked the lengths fit their fields (a row
    /// of at most 32,767 bytes, a family of at most 127, a qualifier and value under 4 GiB).
    pub(crate) fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.row.len() as u16).to_be_bytes());
        out.push(self.family.len() as u8);
        out.extend_from_slice(&(self.qualifier.len() as u32).to_be_bytes());
        out.extend_from_slice(&self.timestamp.to_be_bytes());
        out.extend_from_slice(&(self.value.len() as u32).to_be_bytes());
        out.extend_from_slice(self.row);
        out.extend_from_slice(self.family);
        out.extend_from_slice(self.qualifier);
        out.extend_from_slice(self.value);
    }

    /// HBase's order of cells (`CellComparatorImpl`): row, family, qualifier as unsigned bytes,
    /// then the newest timestamp first. (Every cell of a bulk load is a `Put`.)
    pub(crate) fn cmp_hbase(&self, other: &Rec<'_>) -> Ordering {
        self.row
            .cmp(other.row)
            .then_with(|| self.family.cmp(other.family))
            .then_with(|| self.qualifier.cmp(other.qualifier))
            .then_with(|| other.timestamp.cmp(&self.timestamp))
    }

    /// Whether two cells are the same cell to HBase (the later would hide the earlier).
    pub(crate) fn same_cell(&self, other: &Rec<'_>) -> bool {
        self.cmp_hbase(other) == Ordering::Equal
    }
}

/// Where a record of the buffer is: its region and its place in the arena.
#[derive(Clone, Copy, Debug)]
struct Slot {
    region: u32,
    len: u32,
    at: u64,
}

/// Bytes the buffer counts for each record besides its own (its slot).
const SLOT: usize = std::mem::size_of::<Slot>();

/// The in-memory part of the sort: records in an arena, with their regions.
pub(crate) struct Buffer {
    arena: Vec<u8>,
    slots: Vec<Slot>,
    budget: usize,
}

impl Buffer {
    /// A buffer that holds at most `budget` bytes of records and slots.
    pub(crate) fn new(budget: usize) -> Buffer {
        Buffer {
            arena: Vec::new(),
            slots: Vec::new(),
            budget,
        }
    }

    /// Whether `rec` fits beside what is held (an empty buffer takes any record).
    pub(crate) fn fits(&self, rec: &Rec<'_>) -> bool {
        self.slots.is_empty() || self.used() + rec.len() + SLOT <= self.budget
    }

    /// Bytes held, as counted against the budget: the records' and their slots'. (The vectors'
    /// capacities stay within the budget each, and what is reserved past their lengths is
    /// never written, so it takes no memory.)
    pub(crate) fn used(&self) -> usize {
        self.arena.len() + self.slots.len() * SLOT
    }

    /// Add a record of region `region`. The arena and the slots grow as vectors do, but never
    /// to a capacity past the budget.
    pub(crate) fn push(&mut self, region: u32, rec: &Rec<'_>) {
        let len = rec.len();
        if self.arena.len() + len > self.arena.capacity() {
            let left = self.budget.saturating_sub(self.arena.len());
            let grow = self.arena.capacity().max(64 * 1024).min(left).max(len);
            self.arena.reserve_exact(grow);
        }
        if self.slots.len() == self.slots.capacity() {
            let left = (self.budget / SLOT).saturating_sub(self.slots.len());
            let grow = self.slots.capacity().max(1024).min(left).max(1);
            self.slots.reserve_exact(grow);
        }
        let at = self.arena.len() as u64;
        rec.write_to(&mut self.arena);
        self.slots.push(Slot {
            region,
            len: len as u32,
            at,
        });
    }

    fn rec(&self, s: &Slot) -> Rec<'_> {
        let start = s.at as usize;
        self.arena
            .get(start..start + s.len as usize)
            .and_then(Rec::parse)
            .unwrap_or(Rec {
                row: &[],
                family: &[],
                qualifier: &[],
                timestamp: 0,
                value: &[],
            })
    }

    /// Sort the records by region, then in HBase's order.
    pub(crate) fn sort(&mut self) {
        let arena = std::mem::take(&mut self.arena);
        let view = |s: &Slot| {
            let start = s.at as usize;
            arena
                .get(start..start + s.len as usize)
                .and_then(Rec::parse)
        };
        self.slots.sort_unstable_by(|a, b| {
            a.region
                .cmp(&b.region)
                .then_with(|| match (view(a), view(b)) {
                    (Some(x), Some(y)) => x.cmp_hbase(&y),
                    _ => Ordering::Equal,
                })
        });
        self.arena = arena;
    }

    /// The sorted records of `region` (after [`sort`](Self::sort)).
    pub(crate) fn region(&self, region: u32) -> impl Iterator<Item = Rec<'_>> + '_ {
        let from = self.slots.partition_point(|s| s.region < region);
        let to = self.slots.partition_point(|s| s.region <= region);
        self.slots[from..to].iter().map(move |s| self.rec(s))
    }

    /// Write the sorted records to a run file at `path`, one segment per region (of
    /// `regions`), and empty the buffer (its memory is freed).
    pub(crate) fn spill(&mut self, path: PathBuf, regions: usize) -> Result<Run, BulkError> {
        self.sort();
        let file = File::create(&path).map_err(|e| BulkError::io(&path, e))?;
        let mut out = BufWriter::with_capacity(256 * 1024, file);
        let mut segments = Vec::with_capacity(regions + 1);
        let mut pos = 0u64;
        let mut next = 0usize;
        for s in &self.slots {
            while next <= s.region as usize {
                segments.push(pos);
                next += 1;
            }
            let start = s.at as usize;
            let bytes = self.arena.get(start..start + s.len as usize).unwrap_or(&[]);
            out.write_all(bytes).map_err(|e| BulkError::io(&path, e))?;
            pos += bytes.len() as u64;
        }
        while next <= regions {
            segments.push(pos);
            next += 1;
        }
        out.flush().map_err(|e| BulkError::io(&path, e))?;
        self.arena = Vec::new();
        self.slots = Vec::new();
        Ok(Run { path, segments })
    }
}

/// A spilled run: its file and where each region's records start in it (`segments[r]` to
/// `segments[r + 1]`).
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) path: PathBuf,
    segments: Vec<u64>,
}

impl Run {
    /// A reader of region `region`'s records in this run.
    pub(crate) fn reader(&self, region: usize, buffer: usize) -> Result<RunReader, BulkError> {
        let (from, to) = match (self.segments.get(region), self.segments.get(region + 1)) {
            (Some(&a), Some(&b)) => (a, b),
            _ => (0, 0),
        };
        let mut file = File::open(&self.path).map_err(|e| BulkError::io(&self.path, e))?;
        if from > 0 {
            file.seek(SeekFrom::Start(from))
                .map_err(|e| BulkError::io(&self.path, e))?;
        }
        Ok(RunReader {
            input: BufReader::with_capacity(buffer, file),
            left: to - from,
            current: Vec::new(),
            path: self.path.clone(),
        })
    }
}

/// Records of one region of one run, read one at a time into a buffer of its own.
pub(crate) struct RunReader {
    input: BufReader<File>,
    left: u64,
    current: Vec<u8>,
    path: PathBuf,
}

impl RunReader {
    /// Read the next record; `false` at the end of the segment.
    pub(crate) fn advance(&mut self) -> Result<bool, BulkError> {
        if self.left == 0 {
            self.current.clear();
            return Ok(false);
        }
        let mut head = [0u8; HEAD];
        self.input
            .read_exact(&mut head)
            .map_err(|e| BulkError::io(&self.path, e))?;
        let body = usize::from(u16::from_be_bytes([head[0], head[1]]))
            + usize::from(head[2])
            + u32::from_be_bytes([head[3], head[4], head[5], head[6]]) as usize
            + u32::from_be_bytes([head[15], head[16], head[17], head[18]]) as usize;
        self.current.clear();
        self.current.extend_from_slice(&head);
        self.current.resize(HEAD + body, 0);
        self.input
            .read_exact(&mut self.current[HEAD..])
            .map_err(|e| BulkError::io(&self.path, e))?;
        self.left = self.left.saturating_sub((HEAD + body) as u64);
        Ok(true)
    }

    pub(crate) fn rec(&self) -> Option<Rec<'_>> {
        Rec::parse(&self.current)
    }
}

/// A source of one region's sorted records: a run's segment or the buffer's.
pub(crate) enum Source<'a> {
    Run(RunReader),
    Mem {
        iter: Box<dyn Iterator<Item = Rec<'a>> + Send + 'a>,
        current: Option<Rec<'a>>,
    },
}

impl<'a> Source<'a> {
    pub(crate) fn advance(&mut self) -> Result<bool, BulkError> {
        match self {
            Source::Run(r) => r.advance(),
            Source::Mem { iter, current } => {
                *current = iter.next();
                Ok(current.is_some())
            }
        }
    }

    pub(crate) fn rec(&self) -> Option<Rec<'_>> {
        match self {
            Source::Run(r) => r.rec(),
            Source::Mem { current, .. } => *current,
        }
    }
}

/// The records of several sorted sources in HBase's order (a k-way merge on a binary heap of
/// source indices).
pub(crate) struct Merge<'a> {
    sources: Vec<Source<'a>>,
    /// Indices of the sources that have a record, as a min-heap on their records.
    heap: Vec<usize>,
    started: bool,
}

impl<'a> Merge<'a> {
    pub(crate) fn new(sources: Vec<Source<'a>>) -> Merge<'a> {
        Merge {
            sources,
            heap: Vec::new(),
            started: false,
        }
    }

    fn less(&self, a: usize, b: usize) -> bool {
        match (self.sources[a].rec(), self.sources[b].rec()) {
            // equal records: the earlier source first, so the order is stable
            (Some(x), Some(y)) => match x.cmp_hbase(&y) {
                Ordering::Less => true,
                Ordering::Equal => a < b,
                Ordering::Greater => false,
            },
            _ => false,
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < self.heap.len() && self.less(self.heap[l], self.heap[m]) {
                m = l;
            }
            if r < self.heap.len() && self.less(self.heap[r], self.heap[m]) {
                m = r;
            }
            if m == i {
                return;
            }
            self.heap.swap(i, m);
            i = m;
        }
    }

    /// Move to the next record; `false` when every source is done. The record is
    /// [`current`](Self::current).
    pub(crate) fn advance(&mut self) -> Result<bool, BulkError> {
        if !self.started {
            self.started = true;
            for i in 0..self.sources.len() {
                if self.sources[i].advance()? {
                    self.heap.push(i);
                }
            }
            for i in (0..self.heap.len() / 2).rev() {
                self.sift_down(i);
            }
            return Ok(!self.heap.is_empty());
        }
        let Some(&top) = self.heap.first() else {
            return Ok(false);
        };
        if !self.sources[top].advance()? {
            let last = self.heap.len() - 1;
            self.heap.swap(0, last);
            self.heap.pop();
        }
        if !self.heap.is_empty() {
            self.sift_down(0);
        }
        Ok(!self.heap.is_empty())
    }

    pub(crate) fn current(&self) -> Option<Rec<'_>> {
        self.heap.first().and_then(|&i| self.sources[i].rec())
    }
}

/// Merge `runs` (at most a fan-in's worth) into one run at `path`, region by region.
pub(crate) fn merge_runs(
    runs: &[Run],
    regions: usize,
    path: PathBuf,
    buffer: usize,
) -> Result<Run, BulkError> {
    let file = File::create(&path).map_err(|e| BulkError::io(&path, e))?;
    let mut out = BufWriter::with_capacity(256 * 1024, file);
    let mut segments = Vec::with_capacity(regions + 1);
    let mut pos = 0u64;
    let mut bytes = Vec::new();
    for region in 0..regions {
        segments.push(pos);
        let sources = runs
            .iter()
            .map(|r| r.reader(region, buffer).map(Source::Run))
            .collect::<Result<Vec<_>, _>>()?;
        let mut merge = Merge::new(sources);
        while merge.advance()? {
            if let Some(rec) = merge.current() {
                bytes.clear();
                rec.write_to(&mut bytes);
                out.write_all(&bytes).map_err(|e| BulkError::io(&path, e))?;
                pos += bytes.len() as u64;
            }
        }
    }
    segments.push(pos);
    out.flush().map_err(|e| BulkError::io(&path, e))?;
    Ok(Run { path, segments })
}

/// Remove a run's file (best effort: the spill directory is removed at the end anyway).
pub(crate) fn remove(run: &Run) {
    let _ = std::fs::remove_file(&run.path);
}

/// Whether `path` names a directory with nothing in it, or nothing at all.
pub(crate) fn empty_or_missing(path: &Path) -> bool {
    match std::fs::read_dir(path) {
        Ok(mut entries) => entries.next().is_none(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec<'a>(row: &'a [u8], q: &'a [u8], ts: i64, v: &'a [u8]) -> Rec<'a> {
        Rec {
            row,
            family: b"f",
            qualifier: q,
            timestamp: ts,
            value: v,
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let r = rec(b"\x00\xffrow", b"", i64::MAX, b"");
        let mut b = Vec::new();
        r.write_to(&mut b);
        assert_eq!(b.len(), r.len());
        assert_eq!(Rec::parse(&b), Some(r));
        assert_eq!(Rec::parse(&b[..b.len() - 1]), None);
    }

    #[test]
    fn cells_sort_as_hbase_sorts_them() {
        let mut cells = [
            rec(b"b", b"q", 5, b""),
            rec(b"a", b"q", 5, b""),
            rec(b"a", b"q", 9, b""),
            rec(b"a", b"", 0, b""),
            rec(b"a\x00", b"q", 5, b""),
        ];
        cells.sort_by(Rec::cmp_hbase);
        let order: Vec<(&[u8], &[u8], i64)> = cells
            .iter()
            .map(|c| (c.row, c.qualifier, c.timestamp))
            .collect();
        assert_eq!(
            order,
            [
                (&b"a"[..], &b""[..], 0),
                (b"a", b"q", 9),
                (b"a", b"q", 5),
                (b"a\x00", b"q", 5),
                (b"b", b"q", 5)
            ]
        );
    }

    /// A buffer spilled in several runs, merged back: the records of each region in order, none
    /// lost — against a plain sort of the same records.
    #[test]
    fn runs_merge_back_into_one_order_per_region() {
        let dir = std::env::temp_dir().join(format!("rowkey-bulk-sort-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let mut all: Vec<(u32, Vec<u8>, i64)> = Vec::new();
        let mut runs = Vec::new();
        let mut buffer = Buffer::new(4096);
        let mut x = 7u64;
        for i in 0..3000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let row = (x % 500).to_be_bytes().to_vec();
            let region = (row[7] % 3) as u32;
            let ts = i64::from(i % 7);
            let r = rec(&row, b"q", ts, b"v");
            if !buffer.fits(&r) {
                runs.push(
                    buffer
                        .spill(dir.join(format!("run{}", runs.len())), 3)
                        .expect("spill"),
                );
            }
            assert!(buffer.used() <= 4096 + 64, "{}", buffer.used());
            buffer.push(region, &r);
            all.push((region, row, ts));
        }
        assert!(runs.len() > 5, "{} runs", runs.len());
        buffer.sort();
        let merged = merge_runs(&runs[..3], 3, dir.join("merged"), 1024).expect("merge");
        let mut rest = runs.split_off(3);
        rest.insert(0, merged);
        let runs = rest;
        all.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| rec(&a.1, b"q", a.2, b"").cmp_hbase(&rec(&b.1, b"q", b.2, b"")))
        });
        let mut got = Vec::new();
        for region in 0..3u32 {
            let mut sources: Vec<Source<'_>> = runs
                .iter()
                .map(|r| Source::Run(r.reader(region as usize, 512).expect("reader")))
                .collect();
            sources.push(Source::Mem {
                iter: Box::new(buffer.region(region)),
                current: None,
            });
            let mut m = Merge::new(sources);
            while m.advance().expect("advance") {
                let c = m.current().expect("current");
                got.push((region, c.row.to_vec(), c.timestamp));
            }
        }
        assert_eq!(got, all);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
