//! Counting shards: the source layer, one shard ([`count_part`]) and all of them.

use super::failed;
use super::halves::HexHalves;
use super::plan::RowPlan;
use super::states::Layer;
use super::ShardError;
use crate::backend::dp::extrapolate;
use std::time::Instant;

/// What one shard did.
#[derive(Debug, Clone, PartialEq)]
pub struct PartCount {
    /// Board width.
    pub width: usize,
    /// Which shard, from 1.
    pub part: usize,
    /// How many shards.
    pub parts: usize,
    /// The rows used: their order and how many were streamed.
    pub plan: RowPlan,
    /// Placements whose top half is in this shard's class (exact).
    pub count: u128,
    /// States of each source layer (stored up to the reflection).
    pub source_states: Vec<u64>,
    /// States of the shard's class after the streamed rows (up to the reflection).
    pub class_states: u64,
    /// Slots of the class table.
    pub class_slots: u64,
    /// The most bytes of state arrays and tables held at once.
    pub peak_state_bytes: u64,
    /// Wall seconds in all.
    pub seconds: f64,
    /// Wall seconds of the source layer (0 when it was given).
    pub source_seconds: f64,
    /// Wall seconds building the class table.
    pub class_seconds: f64,
    /// Wall seconds of the join.
    pub join_seconds: f64,
}

/// Tables are first sized for this fraction of the guessed states (the guesses lean high;
/// a part that fills grows by itself).
pub(super) const FIRST_SIZING: f64 = 0.7;

/// Runs the source rows of `plan`, returning the source layer, the states of every layer and
/// the most bytes held at once.
pub fn source_layer(
    halves: &HexHalves,
    plan: RowPlan,
) -> Result<(Layer, Vec<u64>, u64), ShardError> {
    let (source_rows, _) = plan.rows(halves.half());
    let mut layer = Layer::start();
    let mut sizes = vec![1u64];
    let mut peak = layer.bytes();
    for &row in &source_rows {
        let guess = extrapolate(&sizes, 1)[0] as f64 * FIRST_SIZING;
        let (next, table_bytes) = halves.step(&layer, row, guess as usize)?;
        peak = peak.max(layer.bytes() + table_bytes);
        layer = next;
        sizes.push(layer.len() as u64);
    }
    Ok((layer, sizes, peak))
}

/// Counts shard `part` (1-based) of `parts` of the three-axis placements of width `width`,
/// starting from `source` when given (the source layer of `plan`, as [`source_layer`]
/// returns it: shards run one after another can share it).
pub fn count_part(
    halves: &HexHalves,
    part: usize,
    parts: usize,
    plan: RowPlan,
    source: Option<&(Layer, Vec<u64>, u64)>,
) -> Result<PartCount, ShardError> {
    if part == 0 || part > parts {
        return Err(failed(format!(
            "shard {part}/{parts}: expected 1 <= k <= K"
        )));
    }
    let start = Instant::now();
    let computed;
    let (layer, sizes, source_peak) = match source {
        Some(s) => s,
        None => {
            computed = source_layer(halves, plan)?;
            &computed
        }
    };
    let source_seconds = start.elapsed().as_secs_f64();
    let (_, streamed) = plan.rows(halves.half());
    let guess = extrapolate(sizes, streamed.len())
        .last()
        .map_or(layer.len() as f64, |&g| g as f64);
    let expected = (guess * FIRST_SIZING / parts as f64) as usize;
    let table = halves.class_table(layer, &streamed, part - 1, parts, expected)?;
    let (class_states, class_slots) = (table.len() as u64, table.slots() as u64);
    let peak_state_bytes = (*source_peak).max(layer.bytes() + table.bytes());
    let sorted = table.into_sorted();
    let class_seconds = start.elapsed().as_secs_f64() - source_seconds;
    let count = halves.join(&sorted)?;
    let join_seconds = start.elapsed().as_secs_f64() - source_seconds - class_seconds;
    Ok(PartCount {
        width: halves.width,
        part,
        parts,
        plan,
        count,
        source_states: sizes.clone(),
        class_states,
        class_slots,
        peak_state_bytes,
        seconds: start.elapsed().as_secs_f64(),
        source_seconds,
        class_seconds,
        join_seconds,
    })
}

/// The three-axis count of width `width` as the sum of `parts` shards run one after another
/// (sharing one source layer). `None` for an even width or above 31.
pub fn count_all_parts(
    width: usize,
    parts: usize,
    plan: RowPlan,
) -> Option<Result<(u128, Vec<PartCount>), ShardError>> {
    let halves = HexHalves::new(width)?;
    let run = || {
        let source = source_layer(&halves, plan)?;
        let mut total = 0u128;
        let mut all = Vec::new();
        for part in 1..=parts {
            let p = count_part(&halves, part, parts, plan, Some(&source))?;
            total = total
                .checked_add(p.count)
                .ok_or_else(|| failed("the count passed 2^128".into()))?;
            all.push(p);
        }
        Ok((total, all))
    };
    Some(run())
}
