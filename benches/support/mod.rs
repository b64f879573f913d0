//! What `benches/compare.rs` (criterion) and `examples/perf_report.rs` (quick, interleaved)
//! share: the keys, the hand-written baselines, the peers, the measured cases, the correctness
//! checks run before measuring, and the ratio table both print.
//!
//! | module | what |
//! |---|---|
//! | [`keys`] | the derived keys and the values the cases use |
//! | [`hand`] | hand-written `BufMut` code: naive (no escaping) and escaping (the same bytes) |
//! | [`peers`] | storekey, memcomparable, ordcode on the equivalent structs |
//! | [`inputs`] | merge streams and hotspot keys |
//! | [`reads`] | reads end to end over redb: raw iterator vs typed merged read |
//! | [`verify`] | asserts the baselines produce rowkey's bytes before anything is timed |
//! | [`cases`] | every measured routine, once, as a timed loop |
//! | [`table`] | the ratio table and the reading of criterion's estimates |

// Each harness uses its part (perf_report also `Results` and `Case::full_id`).
#![allow(dead_code, unused_imports)]

pub mod cases;
pub mod hand;
pub mod inputs;
pub mod keys;
pub mod peers;
pub mod reads;
pub mod table;
pub mod verify;

pub use cases::cases;
pub use table::{criterion_dir, read_criterion, table, Results};
pub use verify::verify;
