//! The block index (`HFileBlockIndex.BlockIndexWriter`, `BlockIndexChunkImpl`,
//! `NoOpIndexBlockEncoder`): root, intermediate and leaf levels.

/// Hadoop's `WritableUtils.writeVLong`.
pub(crate) fn write_vlong(out: &mut Vec<u8>, value: i64) {
    if (-112..=127).contains(&value) {
        out.push(value as u8);
        return;
    }
    let (mut i, mut len) = (value, -112i32);
    if i < 0 {
        i ^= -1;
        len = -120;
    }
    let mut tmp = i;
    while tmp != 0 {
        tmp >>= 8;
        len -= 1;
    }
    out.push(len as u8);
    let n = if len < -120 {
        -(len + 120)
    } else {
        -(len + 112)
    };
    for idx in (1..=n).rev() {
        let shift = (idx - 1) * 8;
        out.push(((i >> shift) & 0xff) as u8);
    }
}

/// Hadoop's `WritableUtils.getVIntSize`.
pub(crate) fn vlong_size(value: i64) -> usize {
    if (-112..=127).contains(&value) {
        return 1;
    }
    let i = if value < 0 { value ^ -1 } else { value };
    let data_bits = 64 - i.leading_zeros() as usize;
    data_bits.div_ceil(8) + 1
}

/// `Bytes.writeByteArray`: a vint length, then the bytes.
pub(crate) fn write_byte_array(out: &mut Vec<u8>, bytes: &[u8]) {
    write_vlong(out, bytes.len() as i64);
    out.extend_from_slice(bytes);
}

/// `Bytes.SIZEOF_INT + Bytes.SIZEOF_LONG`: a non-root entry's offset and size.
const SECONDARY_INDEX_ENTRY_OVERHEAD: usize = 12;

/// One index block's entries (`BlockIndexChunkImpl`).
#[derive(Default)]
pub(crate) struct IndexChunk {
    keys: Vec<Vec<u8>>,
    offsets: Vec<u64>,
    on_disk_sizes: Vec<i32>,
    /// Cumulative count of entries of the level below, for the mid-key (root of a
    /// multi-level index only).
    sub_entries: Vec<u64>,
    secondary_index: Vec<i32>,
    non_root_entries_size: usize,
    root_size: usize,
}

impl IndexChunk {
    pub fn add(&mut self, key: Vec<u8>, offset: u64, on_disk_size: i32, sub_entries: Option<u64>) {
        self.secondary_index.push(self.non_root_entries_size as i32);
        self.non_root_entries_size += SECONDARY_INDEX_ENTRY_OVERHEAD + key.len();
        self.root_size += 12 + vlong_size(key.len() as i64) + key.len();
        self.keys.push(key);
        self.offsets.push(offset);
        self.on_disk_sizes.push(on_disk_size);
        if let Some(n) = sub_entries {
            self.sub_entries.push(n);
        }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// `getNonRootSize()`: entry count, secondary index, entries.
    pub fn non_root_size(&self) -> usize {
        4 + 4 * (self.keys.len() + 1) + self.non_root_entries_size
    }

    pub fn root_size(&self) -> usize {
        self.root_size
    }

    /// `writeNonRoot`: count, the secondary index (offsets of the entries after it, plus the
    /// total), then offset (8), on-disk size (4) and key (no length) per entry.
    pub fn write_non_root(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.keys.len() as i32).to_be_bytes());
        for mark in &self.secondary_index {
            out.extend_from_slice(&mark.to_be_bytes());
        }
        out.extend_from_slice(&(self.non_root_entries_size as i32).to_be_bytes());
        for i in 0..self.keys.len() {
            out.extend_from_slice(&self.offsets[i].to_be_bytes());
            out.extend_from_slice(&self.on_disk_sizes[i].to_be_bytes());
            out.extend_from_slice(&self.keys[i]);
        }
    }

    /// `writeRoot`: offset (8), on-disk size (4), vint-length key per entry (the count is in the
    /// trailer, or the bloom meta).
    pub fn write_root(&self, out: &mut Vec<u8>) {
        for i in 0..self.keys.len() {
            out.extend_from_slice(&self.offsets[i].to_be_bytes());
            out.extend_from_slice(&self.on_disk_sizes[i].to_be_bytes());
            write_byte_array(out, &self.keys[i]);
        }
    }

    /// `getMidKeyMetadata()`: the leaf block holding the middle data block's entry, and the
    /// entry's index in it.
    pub fn mid_key_metadata(&self) -> Option<[u8; 16]> {
        let total = *self.sub_entries.last()?;
        if total == 0 || self.sub_entries.len() != self.keys.len() {
            return None;
        }
        let mid_sub = (total - 1) / 2;
        // Collections.binarySearch on the cumulative counts
        let entry = match self.sub_entries.binary_search(&mid_sub) {
            Ok(i) => i + 1,
            Err(i) => i,
        };
        let before = if entry > 0 {
            self.sub_entries[entry - 1]
        } else {
            0
        };
        let within = i32::try_from(mid_sub - before).ok()?;
        let mut out = [0u8; 16];
        out[0..8].copy_from_slice(&self.offsets.get(entry)?.to_be_bytes());
        out[8..12].copy_from_slice(&self.on_disk_sizes.get(entry)?.to_be_bytes());
        out[12..16].copy_from_slice(&within.to_be_bytes());
        Some(out)
    }

    pub fn first_key(&self) -> Option<&[u8]> {
        self.keys.first().map(Vec::as_slice)
    }

    fn clear(&mut self) {
        *self = IndexChunk::default();
    }

    fn entry(&self, i: usize) -> (&[u8], u64, i32) {
        (&self.keys[i], self.offsets[i], self.on_disk_sizes[i])
    }
}

/// The data block index writer (`BlockIndexWriter` in multi-level mode).
pub(crate) struct DataIndexWriter {
    pub root: IndexChunk,
    /// `curInlineChunk`: the leaf chunk being filled; `None` once closing moved it to the root.
    inline: Option<IndexChunk>,
    pub num_levels: u32,
    total_entries: u64,
    /// `totalBlockUncompressedSize`: the index blocks' data (without headers).
    pub total_uncompressed: u64,
    max_chunk_size: usize,
    min_entries: usize,
    pending_first_key: Option<Vec<u8>>,
}

impl DataIndexWriter {
    pub fn new(max_chunk_size: usize, min_entries: usize) -> Self {
        DataIndexWriter {
            root: IndexChunk::default(),
            inline: Some(IndexChunk::default()),
            num_levels: 1,
            total_entries: 0,
            total_uncompressed: 0,
            max_chunk_size,
            min_entries,
            pending_first_key: None,
        }
    }

    pub fn add_entry(&mut self, key: Vec<u8>, offset: u64, on_disk_size: i32) {
        if let Some(chunk) = self.inline.as_mut() {
            chunk.add(key, offset, on_disk_size, None);
            self.total_entries += 1;
        }
    }

    /// `shouldWriteBlock(closing)`: a leaf block is due when the leaf chunk reached the max
    /// chunk size, or on closing if a leaf level exists (otherwise the chunk becomes the root).
    pub fn should_write_block(&mut self, closing: bool) -> bool {
        let Some(chunk) = self.inline.as_ref() else {
            return false;
        };
        if chunk.len() == 0 {
            return false;
        }
        if closing {
            if self.root.len() == 0 {
                self.root = self.inline.take().unwrap_or_default();
                return false;
            }
            return true;
        }
        chunk.non_root_size() >= self.max_chunk_size
    }

    /// `writeInlineBlock`: the leaf chunk's data.
    pub fn write_inline_block(&mut self, out: &mut Vec<u8>) {
        if let Some(chunk) = self.inline.as_mut() {
            chunk.write_non_root(out);
            self.pending_first_key = chunk.first_key().map(<[u8]>::to_vec);
            chunk.clear();
        }
    }

    /// `blockWritten`: the leaf block's entry in the root.
    pub fn block_written(&mut self, offset: u64, on_disk_size: i32, uncompressed_size: i32) {
        self.total_uncompressed += uncompressed_size as u64;
        if let Some(key) = self.pending_first_key.take() {
            if self.root.len() == 0 {
                self.num_levels = 2;
            }
            self.root
                .add(key, offset, on_disk_size, Some(self.total_entries));
        }
    }

    /// False once closing made the leaf chunk the root (a single-level index).
    pub fn has_inline(&self) -> bool {
        self.inline.is_some()
    }

    pub fn max_chunk_size(&self) -> usize {
        self.max_chunk_size
    }

    pub fn min_entries(&self) -> usize {
        self.min_entries
    }

    /// `writeIntermediateLevel`'s split of a too-large root into intermediate blocks: the
    /// chunks to write, in order.
    pub fn split_level(&self, level: &IndexChunk) -> Vec<IndexChunk> {
        let mut chunks = Vec::new();
        let mut cur = IndexChunk::default();
        for i in 0..level.len() {
            let (key, offset, size) = level.entry(i);
            cur.add(key.to_vec(), offset, size, None);
            if i >= self.min_entries && cur.root_size() >= self.max_chunk_size {
                chunks.push(std::mem::take(&mut cur));
            }
        }
        if cur.len() > 0 {
            chunks.push(cur);
        }
        chunks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vlongs_as_hadoop_writes_them() {
        let cases: [(i64, &[u8]); 6] = [
            (0, &[0]),
            (127, &[127]),
            (-112, &[0x90]),
            (128, &[0x8f, 0x80]),
            (300, &[0x8e, 0x01, 0x2c]),
            (-113, &[0x87, 0x70]),
        ];
        for (v, bytes) in cases {
            let mut out = Vec::new();
            write_vlong(&mut out, v);
            assert_eq!(out, bytes, "{v}");
            assert_eq!(vlong_size(v), bytes.len(), "{v}");
        }
    }

    #[test]
    fn mid_key_of_a_two_level_root() {
        let mut root = IndexChunk::default();
        root.add(b"a".to_vec(), 100, 10, Some(4));
        root.add(b"b".to_vec(), 200, 20, Some(9));
        // 9 data blocks: the middle one (index 4) is the first entry of the second leaf
        let m = root.mid_key_metadata().unwrap();
        assert_eq!(u64::from_be_bytes(m[0..8].try_into().unwrap()), 200);
        assert_eq!(i32::from_be_bytes(m[12..16].try_into().unwrap()), 0);
    }
}
