//! Hotspot analysis: how a stream of keys would spread over pre-split regions, before
//! deploying — per-region key counts and bytes, empty regions, skew, and a time × region
//! heatmap (what Bigtable's Key Visualizer shows after the fact).
//!
//! ```toml
//! [dependencies]
//! rowkey = { version = "0.1", features = ["hotspot"] }
//! ```
//!
//! An [`Analyzer`] holds only counters (one per region, plus one per region and time slice for
//! the heatmap), so it takes any number of keys. Each key costs one binary search over the split
//! points and no allocation.
//!
//! ```
//! use rowkey::hotspot::Analyzer;
//!
//! let splits = vec![b"4".to_vec(), b"8".to_vec(), b"c".to_vec()];
//! let mut sequential = Analyzer::new(&splits)?.with_name("sequential");
//! let mut hashed = Analyzer::new(&splits)?.with_name("hashed");
//! for i in 0..1000u32 {
//!     sequential.add(format!("{i:04}").as_bytes()); // "0000".."0999": all below "4"
//!     hashed.add(format!("{:x}", i.wrapping_mul(2_654_435_761) >> 28).as_bytes());
//! }
//! let (a, b) = (sequential.report(), hashed.report());
//! assert_eq!(a.empty_regions(), 3);
//! assert_eq!(a.max_mean_skew(), 4.0); // one region holds 4× the mean
//! assert_eq!(b.empty_regions(), 0);
//! println!("{}", a.side_by_side(&b));
//! # Ok::<(), rowkey::hotspot::HotspotError>(())
//! ```

mod analyzer;
mod boundary;
mod error;
mod grid;
mod html;
mod load;
mod report;
mod svg;

pub use analyzer::Analyzer;
pub use boundary::{boundary_label, range_label};
pub use error::{HotspotError, MAX_HEATMAP_CELLS};
#[cfg(feature = "tool")]
pub(crate) use html::json_string;
pub use load::{LoadInterval, LoadMap, LoadRange, ServerLoad};
pub use report::{RegionStats, Report};

#[cfg(test)]
mod tests;
