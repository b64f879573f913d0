//! trybuild UI tests: every compile-time check of the derive (the README's "Compile-time checks")
//! has a compile-fail case with its `.stderr` snapshot under `tests/ui/fail/<topic>/`, and
//! hostile but legal derive input (shadowed std and primitive names, raw identifiers,
//! `#![no_implicit_prelude]`, generics, re-exported crate paths, …) compiles and round-trips
//! under `tests/ui/pass/`.
//!
//! The snapshots depend on the exact rustc diagnostics, so they are pinned to one toolchain.
//! Regenerate with `TRYBUILD=overwrite cargo test -p rowkey-ui` and review the diff. The tests
//! live in a package of their own (`rowkey-ui`, depending on `rowkey` only) because trybuild
//! compiles every dev-dependency of the package it runs in.

#[rustversion::attr(not(stable(1.95)), ignore = "ui snapshots pinned to rustc 1.95")]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/**/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
