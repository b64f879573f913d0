//! The guide: rowkey in the order a user meets it. Each chapter is a page of its own (these
//! modules hold documentation only); the reference of every item is on the item, and a chapter
//! links to it rather than repeating it.
//!
//! 1. [Designing a key](keys): field types, field and container attributes (salts, hash
//!    prefixes, reversed timestamps, several key types in one keyspace), the compile-time
//!    checks, what the derive generates.
//! 2. [Scanning and reading](scans): the typed scan builder, ranges, IN-lists and skip scans,
//!    reading a scan in logical key order from any store.
//! 3. [Planning regions and hotspots](planning): split points from a layout or a sample, the
//!    plan lint, the hotspot report.
//! 4. **On HBase**: the front page of [`rowkey-hbase`](https://docs.rs/rowkey-hbase/latest/rowkey_hbase/)
//!    — typed reads (IN-lists included) and writes over the Thrift2 gateway, gateways,
//!    pre-split tables, the live region view, index tables and migrations on HBase, Phoenix
//!    tables on the server.
//! 5. **On Bigtable**: the front page of
//!    [`rowkey-bigtable`](https://docs.rs/rowkey-bigtable/latest/rowkey_bigtable/) — the same
//!    on Cloud Bigtable and its emulator — and [Bigtable struct keys](struct_keys), the
//!    `Type.Struct` row key format.
//! 6. [Phoenix tables](phoenix): key types that are Apache Phoenix primary keys, byte for byte.
//! 7. [Index tables](index_tables): secondary indexes that stay true through crashes.
//! 8. [Changing a key layout](migrations): re-keying a table while the service reads.
//! 9. [Operating a table](operating): the command-line key tool for your own key types.
//! 10. [The byte format and its stability](byte_format).
//!
//! The examples of each chapter are doc tests. Those that need HBase or Bigtable are on the
//! client crates' pages, compiled but not run there; the servers' own tests run the same calls.

/// A chapter: its Markdown file, then the definitions of the links to the repository's files
/// that chapters use (`[BENCHMARKS.md]`, …), after the repository URL in `Cargo.toml`.
macro_rules! chapter {
    ($(#[$attr:meta])* $name:ident = $file:literal) => {
        $(#[$attr])*
        #[doc = include_str!($file)]
        #[doc = ""]
        #[doc = concat!("[BENCHMARKS.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/BENCHMARKS.md")]
        #[doc = concat!("[CONTRIBUTING.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/CONTRIBUTING.md")]
        #[doc = concat!("[RELIABILITY.md]: ", env!("CARGO_PKG_REPOSITORY"), "/blob/main/RELIABILITY.md")]
        pub mod $name {}
    };
}

// A chapter that links into an operation behind a feature: its links are checked in the
// build with that feature (`--all-features`, what docs.rs shows); without it they render as
// text instead of failing the build.
chapter!(keys = "keys.md");
chapter!(
    #[cfg_attr(not(feature = "redb"), allow(rustdoc::broken_intra_doc_links))]
    scans = "scans.md"
);
chapter!(
    #[cfg_attr(not(feature = "plan"), allow(rustdoc::broken_intra_doc_links))]
    planning = "planning.md"
);
chapter!(struct_keys = "struct_keys.md");
chapter!(phoenix = "phoenix.md");
chapter!(
    #[cfg_attr(
        not(all(feature = "index", feature = "redb")),
        allow(rustdoc::broken_intra_doc_links)
    )]
    index_tables = "index_tables.md"
);
chapter!(
    #[cfg_attr(
        not(all(feature = "migrate", feature = "redb")),
        allow(rustdoc::broken_intra_doc_links)
    )]
    migrations = "migrations.md"
);
chapter!(
    #[cfg_attr(not(feature = "tool"), allow(rustdoc::broken_intra_doc_links))]
    operating = "operating.md"
);
chapter!(byte_format = "byte_format.md");
