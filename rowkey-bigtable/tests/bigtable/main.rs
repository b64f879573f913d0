//! Every test of rowkey-bigtable, in one test binary that shares one Cloud Bigtable emulator
//! (`rowkey_bigtable::testkit::Emulator::shared`, on a free loopback port, stopped when the
//! binary exits; Debian package `google-cloud-cli-bigtable-emulator`).
//!
//! One module per topic:
//!
//! - [`features`]: writes, admin, the hotspot view, errors and the emulator harness;
//! - [`oracle`]: typed reads against a brute-force oracle;
//! - [`index`], [`migrate`]: index tables and re-keying on Bigtable;
//! - [`struct_schema`], [`struct_derive`]: Bigtable structured row keys;
//! - [`no_runtime`]: the constructors outside a Tokio runtime (no emulator);
//! - [`resume`]: reads that resume and writes that retry, through [`proxy`], a fault-injecting
//!   TCP proxy between the client and the emulator.
//!
//! `cargo test -p rowkey-bigtable --test bigtable -- oracle` runs one topic.

// the bound shapes and their macros, for every module below
#[macro_use]
#[path = "../../../tests/common/shapes.rs"]
mod shapes;
// the crash-injecting store of the index crash proof
#[path = "../../../tests/common/crashy.rs"]
mod crashy;

mod features;
mod index;
mod migrate;
mod no_runtime;
mod oracle;
mod proxy;
mod resume;
mod struct_derive;
mod struct_schema;
