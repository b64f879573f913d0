//! Operating tables with typed keys: region planning, index tables, re-keying (migrations) and
//! the key tool, on the embedded store (redb).
//!
//! - [`planning`], [`presplit_golden`]: split points from layouts and samples;
//! - [`index`]: index tables, the scrub and the crash proof;
//! - [`migrate`], [`migrate_props`]: migrations stopped and resumed at random points;
//! - [`keytool`], [`dump_props`]: every key tool command, and its dump readers;
//! - [`visualizer`]: the key visualizer's report in headless Chromium;
//! - [`deprecated`]: the deprecated names of renamed items still compile.

#[path = "../common/mod.rs"]
mod common;
// the one crash-injecting store, for the index crash proof and the migration properties
#[path = "../common/crashy.rs"]
mod crashy;

#[cfg(feature = "redb")]
mod deprecated;
mod dump_props;
#[cfg(feature = "redb")]
mod index;
mod keytool;
#[cfg(feature = "redb")]
mod migrate;
#[cfg(feature = "redb")]
mod migrate_props;
mod planning;
mod presplit_golden;
mod visualizer;
