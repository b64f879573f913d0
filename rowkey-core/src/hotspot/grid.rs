//! The time × region grid of the heatmap: which time slice a key falls in, and the counts.

/// Counts of the heatmap grid: `cells[slice * regions + region]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TimeGrid {
    pub(super) t0: u64,
    pub(super) t1: u64,
    pub(super) slices: usize,
    pub(super) cells: Vec<u64>,
}

impl TimeGrid {
    #[inline]
    pub(super) fn slice_of(&self, t: u64) -> Option<usize> {
        if t < self.t0 || t >= self.t1 {
            return None;
        }
        let offset = t - self.t0;
        let span = self.t1 - self.t0;
        let slices = self.slices as u64;
        let slice = match offset.checked_mul(slices) {
            Some(x) => x / span,
            None => (u128::from(offset) * u128::from(slices) / u128::from(span)) as u64,
        };
        Some(slice as usize)
    }

    /// Start time of `slice` (`slice == slices` gives `t1`).
    pub(super) fn slice_start(&self, slice: usize) -> u64 {
        let span = u128::from(self.t1 - self.t0);
        let off = span * slice as u128 / (self.slices.max(1) as u128);
        self.t0.saturating_add(off as u64)
    }
}
