//! The three-axis hex count split into shards that each hold a fraction of the states.
//!
//! [`hex_count`](super::lines::hex_count) meets in the middle: the top half's states
//! (`top(A)`: placements of the rows above the middle row that use exactly the lines `A`) are
//! joined with themselves turned by half a turn, `total = sum over A and middle cells c of
//! top(A) * top(turn(rest(A, c)))`, where `rest` is the set of lines the bottom half must use.
//! Every state must be in memory for the join's lookups, which is what stops width 25.
//!
//! **The invariant that splits the join.** Index the diag lines `d_i` and anti lines `a_i` by
//! `i = 0..w`. The middle row's cell `c` at position `p` lies on `d_p` and `a_p`, the same
//! index on both axes. So the vector `x(A)_i = [d_i in A] xor [a_i in A]` does not see which
//! middle cell completes a placement, and for the bottom half's state `B = turn(rest(A, c))`
//! it is exactly reversed: `x(B) = reverse(x(A))`; the left-right reflection (which keeps the
//! rows and swaps the axes) reverses it as well. So the class `hash(min(x, reverse(x))) mod K`
//! is the same for the two halves of every placement and for the mirror image of a state: a
//! shard (one class) needs only the states of its own class, on both sides of the join, and
//! can store them up to the reflection. Shard `k` of `K` gives the exact number of placements
//! whose top half lies in class `k`; the `K` partial counts sum to the total.
//!
//! **How a shard is computed.** The rows above the middle close no line (every line crosses
//! the middle row), so the order of those rows is free and a state only grows. The *source*
//! rows (all top rows but two, or but three: [`StreamedRows`]) are run by dynamic programming
//! as usual; the last two (three) top rows are *streamed*: every source state is extended
//! through those rows and only the results of the shard's class are kept. So a shard holds
//! the source layer (about a quarter of the top layer at width 25 with two streamed rows, a
//! thirteenth with three) plus 1/K of the top layer, instead of the whole top layer and the
//! layer before it. A third streamed row is what brings width 27 within a cluster node's
//! memory; it costs time, since the stream extends every path through the three rows where
//! the dynamic programme would have merged them after the first. The row orders
//! ([`RowOrder`]) and the number of streamed rows ([`RowPlan`]) give computations with
//! different intermediate layers: a cross-check.
//!
//! **Memory layout.** Layers are packed arrays of 64-bit keys and 64-bit counts (16 bytes a
//! state); states are merged in an open-addressing table of atomic slots that both threads
//! fill at once (16 bytes a slot, at most [`MAX_LOAD`] full, so about 19-20 bytes a state
//! while a layer is built), sized from the measured growth of the layers before.
//!
//! Costs: the source dynamic programme once per shard (shards run one after another in one
//! process share it), then every source state times the streamed rows' free cells (every
//! shard streams every path, 1/K of them kept), then one lookup per (state of the class,
//! middle cell). Width 25 in 8 shards with two streamed rows: about 7.4 GiB and 10-15 minutes
//! a shard; width 21 in 4 shards: 145 MiB and 6.4 s of CPU a shard with two, 117 MiB and
//! 7.1 s with three. Width 27 needs three, about 25 GiB and 3-4 CPU-hours a shard with K = 32
//! (extrapolated: `reports/hex-width-27-plan.md`). Counts are exact: `u64` per state (a state
//! count above 2^64 is an error, never wrapped), checked `u128` sums.

const NAME: &str = "dp";
const EMPTY: u64 = u64::MAX;
/// The largest fraction of a table's slots that may be full before it grows.
pub const MAX_LOAD: f64 = 0.85;
/// The fraction of slots a freshly sized table aims at.
const TARGET_LOAD: f64 = 0.75;

/// Why a sharded hex count failed. The messages are the ones the count always gave, when it
/// reported as the `dp` backend (`NAME`), so a failed shard reads the same.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// A count passed its integer bounds, or a shard does not fit its plan.
    #[error("backend '{NAME}' failed: {0}")]
    Failed(String),
    /// A state count passed 2^64.
    #[error("backend '{NAME}' cannot take this model: {0}")]
    TooLarge(String),
}

fn failed(reason: String) -> ShardError {
    ShardError::Failed(reason)
}

mod count;
mod estimate;
mod halves;
mod plan;
mod states;
#[cfg(test)]
mod tests;

pub use count::{count_all_parts, count_part, source_layer, PartCount};
pub use estimate::{MemoryEstimate, BASE_BYTES, CLASS_SPREAD};
pub use halves::HexHalves;
pub use plan::{RowOrder, RowPlan, StreamedRows};
pub use states::{Emitted, Layer, SortedStates, StateTable};
