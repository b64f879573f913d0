//! The writer's checks and the file structure, without a JVM: order and duplicate errors,
//! invalid cells, a failing output, every block's CRC32C recomputed (memory: tests/memory.rs).

#![cfg(all(feature = "snappy", feature = "gz", feature = "zstd"))]

mod common;

use common::walk;
use rowkey_hfile::{
    Cell, CellType, Compression, Error, HFileWriter, WriterOptions, MAX_ROW_LENGTH,
};

#[test]
fn out_of_order_and_duplicate_cells_are_refused_and_the_writer_goes_on() {
    let mut w = HFileWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    w.append(&Cell::put(b"b", b"f", b"q", 5, b"v")).unwrap();
    let e = w
        .append(&Cell::put(b"a\xff", b"f", b"q", 5, b"v"))
        .unwrap_err();
    assert!(
        matches!(&e, Error::OutOfOrder { index: 1, row, previous_row } if row == "a\\xFF" && previous_row == "b"),
        "{e:?}"
    );
    // older timestamp after newer: fine; same key again: duplicate
    w.append(&Cell::put(b"b", b"f", b"q", 4, b"v")).unwrap();
    let e = w
        .append(&Cell::put(b"b", b"f", b"q", 4, b"other"))
        .unwrap_err();
    assert!(matches!(e, Error::Duplicate { index: 2, .. }), "{e:?}");
    // a newer timestamp after an older one is out of order
    let e = w.append(&Cell::put(b"b", b"f", b"q", 9, b"v")).unwrap_err();
    assert!(matches!(e, Error::OutOfOrder { .. }), "{e:?}");
    // same column and timestamp: the higher type code first
    w.append(&Cell {
        cell_type: CellType::DeleteColumn,
        ..Cell::put(b"b", b"f", b"r", 1, b"")
    })
    .unwrap();
    w.append(&Cell::put(b"b", b"f", b"r", 1, b"")).unwrap();
    let e = w
        .append(&Cell {
            cell_type: CellType::Delete,
            ..Cell::put(b"b", b"f", b"r", 1, b"")
        })
        .unwrap_err();
    assert!(matches!(e, Error::OutOfOrder { .. }), "{e:?}");
    let (summary, bytes) = w.finish_into_inner().unwrap();
    assert_eq!(summary.cells, 4);
    walk(&bytes).unwrap();
}

#[test]
fn invalid_cells_are_named() {
    let mut w = HFileWriter::new(Vec::new(), WriterOptions::default()).unwrap();
    let long = vec![b'x'; MAX_ROW_LENGTH + 1];
    for (cell, needle) in [
        (Cell::put(b"", b"f", b"q", 1, b""), "empty"),
        (Cell::put(&long, b"f", b"q", 1, b""), "32767"),
        (Cell::put(b"r", b"", b"q", 1, b""), "family"),
        (Cell::put(b"r", &[b'f'; 128], b"q", 1, b""), "family"),
        (Cell::put(b"r", b"f", b"q", -1, b""), "negative"),
    ] {
        let e = w.append(&cell).unwrap_err();
        assert!(matches!(e, Error::InvalidCell { index: 0, .. }), "{e:?}");
        assert!(e.to_string().contains(needle), "{e}");
    }
    w.append(&Cell::put(b"r", b"f", b"q", 1, b"")).unwrap();
    let e = w.append(&Cell::put(b"s", b"g", b"q", 1, b"")).unwrap_err();
    assert!(e.to_string().contains("one file per family"), "{e}");
    assert!(HFileWriter::new(Vec::new(), WriterOptions::default().index_min_entries(1)).is_err());
}

#[test]
fn a_failed_output_fails_every_later_call() {
    struct Full(usize);
    impl std::io::Write for Full {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0 < b.len() {
                return Err(std::io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = HFileWriter::new(Full(1000), WriterOptions::default().block_size(100)).unwrap();
    let mut failed = None;
    for i in 0..1000u32 {
        if let Err(e) = w.append(&Cell::put(&i.to_be_bytes(), b"f", b"q", 1, &[7; 50])) {
            failed = Some(e);
            break;
        }
    }
    assert!(matches!(failed, Some(Error::Io(_))), "{failed:?}");
    let e = w
        .append(&Cell::put(b"\xff\xff\xff\xff\xff", b"f", b"q", 1, b""))
        .unwrap_err();
    assert!(matches!(e, Error::Failed(_)), "{e:?}");
    assert!(matches!(w.finish(), Err(Error::Failed(_))));
}

#[test]
fn every_block_checksum_is_recomputed_and_a_flipped_byte_is_caught() {
    for compression in [
        Compression::None,
        Compression::Snappy,
        Compression::Gz,
        Compression::Zstd,
    ] {
        for bytes_per_checksum in [512, 16 * 1024] {
            let options = WriterOptions::default()
                .compression(compression)
                .block_size(2048)
                .bytes_per_checksum(bytes_per_checksum);
            let mut w = HFileWriter::new(Vec::new(), options).unwrap();
            for i in 0..20_000u32 {
                w.append(&Cell::put(
                    &i.to_be_bytes(),
                    b"f",
                    b"q",
                    1,
                    format!("v{i}").as_bytes(),
                ))
                .unwrap();
            }
            let (summary, bytes) = w.finish_into_inner().unwrap();
            let report = walk(&bytes).unwrap();
            assert_eq!(report.data_blocks as u64, summary.data_blocks);
            assert!(report.bloom_chunks >= 1);
            for at in [40, bytes.len() / 2, bytes.len() - 4096 - 10] {
                let mut bad = bytes.clone();
                bad[at] ^= 0x40;
                assert!(
                    walk(&bad).is_err(),
                    "{compression:?}: flipped byte at {at} not caught"
                );
            }
        }
    }
}

#[test]
fn arbitrary_cells_in_any_order_get_errors_never_panics_and_the_file_stays_valid() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    for round in 0..20 {
        let options = WriterOptions::default()
            .block_size(1 + (next() % 512) as usize)
            .index_block_max_size(64 + (next() % 512) as usize)
            .index_min_entries(2 + (next() % 4) as usize)
            .bytes_per_checksum(1 + (next() % 100) as u32)
            .compression(
                [
                    Compression::None,
                    Compression::Snappy,
                    Compression::Gz,
                    Compression::Zstd,
                ][round % 4],
            );
        let mut w = HFileWriter::new(Vec::new(), options).unwrap();
        let mut accepted = 0u64;
        for _ in 0..500 {
            let len = |n: u64, next: &mut dyn FnMut() -> u64| (next() % n) as usize;
            let row: Vec<u8> = (0..len(4, &mut next))
                .map(|_| (next() % 3) as u8 * 0x7f)
                .collect();
            let family: &[u8] = if next() % 50 == 0 { b"other" } else { b"f" };
            let qualifier: Vec<u8> = (0..len(3, &mut next)).map(|_| (next() % 2) as u8).collect();
            let timestamp = (next() % 5) as i64 - 1;
            let cell_type = [
                CellType::Put,
                CellType::Delete,
                CellType::DeleteColumn,
                CellType::DeleteFamily,
                CellType::DeleteFamilyVersion,
            ][(next() % 5) as usize];
            let value = vec![0xab; len(20, &mut next)];
            let cell = Cell {
                row: &row,
                family,
                qualifier: &qualifier,
                timestamp,
                cell_type,
                value: &value,
            };
            match w.append(&cell) {
                Ok(()) => accepted += 1,
                Err(
                    Error::OutOfOrder { .. } | Error::Duplicate { .. } | Error::InvalidCell { .. },
                ) => {}
                Err(e) => panic!("unexpected {e}"),
            }
        }
        let (summary, bytes) = w.finish_into_inner().unwrap();
        assert!(accepted > 0);
        assert_eq!(summary.cells, accepted);
        let report = walk(&bytes).unwrap();
        assert_eq!(report.data_blocks as u64, summary.data_blocks);
    }
}
