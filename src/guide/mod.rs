//! The guide: rowkey in the order a user meets it, one page per chapter (these modules hold
//! documentation only). What each chapter covers is on [the crate's front page](crate); the
//! reference of every item is on the item, and a chapter links to it rather than repeating it.
//!
//! 1. [Designing a key](keys)
//! 2. [Scanning and reading](scans)
//! 3. [Planning regions and hotspots](planning)
//! 4. On HBase: the front page of [`rowkey-hbase`](https://docs.rs/rowkey-hbase/latest/rowkey_hbase/)
//! 5. On Bigtable: the front page of
//!    [`rowkey-bigtable`](https://docs.rs/rowkey-bigtable/latest/rowkey_bigtable/), and
//!    [Bigtable struct keys](struct_keys)
//! 6. [Phoenix tables](phoenix)
//! 7. [Index tables](index_tables)
//! 8. [Changing a key layout](migrations)
//! 9. [Operating a table](operating)
//! 10. [The byte format and its stability](byte_format)
//!
//! The examples of each chapter are doc tests; those that need HBase or Bigtable are on the
//! client crates' pages, compiled there but not run (the servers' own tests run the same calls).

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
