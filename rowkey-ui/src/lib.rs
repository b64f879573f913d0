//! No library: this package holds the trybuild UI tests of rowkey's derive
//! (`tests/compiletest.rs`, the cases and their `.stderr` snapshots under `tests/ui/`).
