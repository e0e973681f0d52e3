//! [`MemoryEstimate`]: a shard's peak memory, measured on the first layers and extrapolated.

use super::halves::HexHalves;
use super::plan::RowPlan;
use super::states::Layer;
use super::ShardError;
use super::TARGET_LOAD;
use crate::backend::dp::extrapolate;

/// Bytes a process needs besides the state arrays (code, threads, buffers), in estimates.
pub const BASE_BYTES: u64 = 64 << 20;
/// How much larger than the mean the largest class is allowed for in estimates (measured at
/// widths 19-23: at most 1.1 with 64 classes).
pub const CLASS_SPREAD: f64 = 1.25;

/// A shard's peak memory estimated before counting, from the growth of the first layers.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryEstimate {
    /// Board width.
    pub width: usize,
    /// The rows estimated for: the source rows and how many are streamed.
    pub plan: RowPlan,
    /// States of each source layer: measured while small, then extrapolated.
    pub source_states: Vec<u64>,
    /// How many of `source_states` were measured (the rest are guesses).
    pub measured_layers: usize,
    /// States after the streamed rows, all classes together (up to the reflection).
    pub top_states: u64,
}

impl MemoryEstimate {
    /// Measures the source layers of `plan` while they hold at most `budget` states and
    /// extrapolates the rest with [`extrapolate`] (which leans high).
    pub fn measure(
        halves: &HexHalves,
        plan: RowPlan,
        budget: usize,
    ) -> Result<MemoryEstimate, ShardError> {
        let (source_rows, streamed) = plan.rows(halves.half());
        let mut layer = Layer::start();
        let mut sizes = vec![1u64];
        for &row in &source_rows {
            if layer.len() > budget {
                break;
            }
            let guess = extrapolate(&sizes, 1)[0] as usize;
            layer = halves.step(&layer, row, guess)?.0;
            sizes.push(layer.len() as u64);
        }
        let measured = sizes.len();
        let guesses = extrapolate(&sizes, source_rows.len() + 1 - measured + streamed.len());
        let (source_guesses, top_guesses) = guesses.split_at(source_rows.len() + 1 - measured);
        sizes.extend_from_slice(source_guesses);
        Ok(MemoryEstimate {
            width: halves.width,
            plan,
            top_states: top_guesses
                .last()
                .copied()
                .unwrap_or(*sizes.last().unwrap_or(&1)),
            source_states: sizes,
            measured_layers: measured,
        })
    }

    /// Bytes of a table built for `states` states.
    pub(super) fn table_bytes(states: f64) -> u64 {
        (states / TARGET_LOAD * 16.0) as u64
    }

    /// The most bytes one of `parts` shards holds at once: the last source step (its input
    /// and output) or the source layer with the shard's class table, plus [`BASE_BYTES`].
    pub fn peak_bytes(&self, parts: usize) -> u64 {
        let n = self.source_states.len();
        let last = self.source_states[n - 1];
        let before = if n > 1 { self.source_states[n - 2] } else { 0 };
        let source_step = before * 16 + Self::table_bytes(last as f64);
        let spread = if parts > 1 { CLASS_SPREAD } else { 1.0 };
        let class = self.top_states as f64 / parts as f64 * spread;
        let shard = last * 16 + Self::table_bytes(class);
        BASE_BYTES + source_step.max(shard)
    }

    /// The fewest shards (up to 4096) whose peak stays within `limit` bytes, if any.
    pub fn parts_within(&self, limit: u64) -> Option<usize> {
        let mut parts = 1;
        while parts <= 4096 {
            if self.peak_bytes(parts) <= limit {
                return Some(parts);
            }
            parts = if parts < 8 { parts + 1 } else { parts * 2 };
        }
        None
    }
}
