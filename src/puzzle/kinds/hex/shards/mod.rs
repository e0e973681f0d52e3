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

use std::time::Instant;

use rayon::prelude::*;

use super::lines::line_problem;
use crate::backend::dp::extrapolate;
use crate::backend::BackendError;

const NAME: &str = "dp";
const EMPTY: u64 = u64::MAX;
/// The largest fraction of a table's slots that may be full before it grows.
pub const MAX_LOAD: f64 = 0.85;
/// The fraction of slots a freshly sized table aims at.
const TARGET_LOAD: f64 = 0.75;

fn failed(reason: String) -> BackendError {
    BackendError::Failed {
        backend: NAME.into(),
        reason,
    }
}

/// Packed states: `[key, count]` pairs (used lines as bits, partial placements), 16 bytes a
/// state, in chunks (one per table part, so that a table turns into a layer in place).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layer {
    /// The chunks of `[key, count]` pairs, in no particular order.
    pub chunks: Vec<Vec<[u64; 2]>>,
}

impl Layer {
    /// The single empty placement (key 0, count 1).
    pub fn start() -> Layer {
        Layer {
            chunks: vec![vec![[0, 1]]],
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// Whether there is no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by the chunks.
    pub fn bytes(&self) -> u64 {
        self.chunks.iter().map(|c| c.capacity() as u64 * 16).sum()
    }

    /// Every `[key, count]` pair.
    pub fn iter(&self) -> impl Iterator<Item = &[u64; 2]> {
        self.chunks.iter().flatten()
    }
}

/// The occupied slots of `slots`, moved to its front in place; the rest freed.
fn compact(mut slots: Vec<[u64; 2]>) -> Vec<[u64; 2]> {
    let mut kept = 0;
    for i in 0..slots.len() {
        if slots[i][0] != EMPTY {
            slots[kept] = slots[i];
            kept += 1;
        }
    }
    slots.truncate(kept);
    slots.shrink_to_fit();
    slots
}

/// A hash of a 64-bit key (the splitmix64 finaliser: every input bit moves every output bit).
fn mix(key: u64) -> u64 {
    let mut z = key ^ (key >> 30);
    z = z.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^= z >> 27;
    z = z.wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How many parts a [`StateTable`] is cut into (by the top bits of a key's hash): each is
/// filled by one thread at a time, without atomic operations, and grows on its own.
const PARTS: usize = 32;
/// Emitted `(key, count)` pairs buffered per batch before they are added.
const BATCH_ITEMS: usize = 1 << 21;

/// One part of a [`StateTable`]: open addressing with linear probing, `[key, count]` per slot
/// (one cache line per probe), `u64::MAX` marking an empty slot.
#[derive(Debug, Clone, Default)]
struct Part {
    slots: Vec<[u64; 2]>,
    len: usize,
    overflow: bool,
}

impl Part {
    fn with_slots(slots: usize) -> Part {
        Part {
            slots: vec![[EMPTY, 0]; slots.max(8)],
            len: 0,
            overflow: false,
        }
    }

    fn home(&self, hash: u64) -> usize {
        // The top bits chose the part; the rest choose the slot.
        (((hash << 5) as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Adds `count` to `key` (inserting it), growing first when the part is nearly full.
    fn add(&mut self, key: u64, count: u64, hash: u64) {
        if (self.len + 1) as f64 > MAX_LOAD * self.slots.len() as f64 {
            self.grow();
        }
        let n = self.slots.len();
        let mut i = self.home(hash);
        loop {
            let slot = &mut self.slots[i];
            if slot[0] == key {
                match slot[1].checked_add(count) {
                    Some(c) => slot[1] = c,
                    None => self.overflow = true,
                }
                return;
            }
            if slot[0] == EMPTY {
                *slot = [key, count];
                self.len += 1;
                return;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Adds a run of pairs, touching each run of 16 home slots first so that their cache
    /// misses overlap instead of following one another.
    fn add_all(&mut self, items: &[(u64, u64)]) {
        for run in items.chunks(16) {
            let mut touched = 0u64;
            for &(key, _) in run {
                touched ^= self.slots[self.home(mix(key))][0];
            }
            std::hint::black_box(touched);
            for &(key, count) in run {
                self.add(key, count, mix(key));
            }
        }
    }

    fn get(&self, key: u64, hash: u64) -> Option<u64> {
        let n = self.slots.len();
        let mut i = self.home(hash);
        for _ in 0..n {
            let slot = &self.slots[i];
            if slot[0] == key {
                return Some(slot[1]);
            }
            if slot[0] == EMPTY {
                return None;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
        None
    }

    fn grow(&mut self) {
        let slots = ((self.len + 1) as f64 / TARGET_LOAD) as usize + 8;
        let old = std::mem::replace(self, Part::with_slots(slots.max(self.slots.len() + 8)));
        self.overflow = old.overflow;
        for [key, count] in old.slots {
            if key != EMPTY {
                self.add(key, count, mix(key));
            }
        }
    }
}

/// A hash table of states cut into `PARTS` (32) parts by the hash of the key, so that the
/// threads add to it together without atomic operations: emitted pairs are buffered by part,
/// then each part takes its own. 16 bytes a slot, at most [`MAX_LOAD`] of the slots full
/// (each part grows by itself, so a growth briefly costs only that part twice).
#[derive(Debug, Clone)]
pub struct StateTable {
    parts: Vec<Part>,
}

fn part_of(hash: u64) -> usize {
    (hash >> 59) as usize
}

/// The pairs one task emits into a [`StateTable::fill`], buffered by the table part they go to.
#[derive(Debug)]
pub struct Emitted {
    buffers: Vec<Vec<(u64, u64)>>,
}

impl Emitted {
    /// Adds `count` placements to state `key`.
    #[inline]
    pub fn add(&mut self, key: u64, count: u64) {
        self.buffers[part_of(mix(key))].push((key, count));
    }
}

impl StateTable {
    /// An empty table of about `slots` slots.
    pub fn with_slots(slots: usize) -> StateTable {
        StateTable {
            parts: (0..PARTS)
                .map(|_| Part::with_slots(slots / PARTS))
                .collect(),
        }
    }

    /// An empty table sized for about `states` states.
    pub fn for_states(states: usize) -> StateTable {
        StateTable::with_slots((states as f64 / TARGET_LOAD) as usize + 16)
    }

    /// Number of states held.
    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len).sum()
    }

    /// Whether the table holds no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.parts.iter().map(|p| p.slots.len()).sum()
    }

    /// Bytes held by the slots.
    pub fn bytes(&self) -> u64 {
        (self.slots() * 16) as u64
    }

    /// The count of `key`, if present.
    pub fn get(&self, key: u64) -> Option<u64> {
        let hash = mix(key);
        self.parts[part_of(hash)].get(key, hash)
    }

    /// Adds every `(key, count)` that `emit_all(i, out)` adds to `out` for `i` in
    /// `0..inputs`: the inputs are taken in batches, each generated in parallel into buffers
    /// by part, then added part by part in parallel. Fails when a count passes 2^64.
    pub fn fill<F>(mut self, inputs: usize, emit_all: F) -> Result<StateTable, BackendError>
    where
        F: Fn(usize, &mut Emitted) + Sync,
    {
        let mut start = 0;
        let mut per_input = 64.0f64; // emitted pairs per input, measured as batches go
        let tasks = 4 * rayon::current_num_threads().max(1);
        while start < inputs {
            let take = ((BATCH_ITEMS as f64 / per_input.max(1.0)) as usize).max(64);
            let end = (start + take).min(inputs);
            let min_len = ((end - start) / tasks).max(64);
            let reserve = (per_input * min_len as f64 / PARTS as f64 * 1.25) as usize;
            let buffers: Vec<Emitted> = (start..end)
                .into_par_iter()
                .with_min_len(min_len)
                .fold(
                    || Emitted {
                        buffers: (0..PARTS).map(|_| Vec::with_capacity(reserve)).collect(),
                    },
                    |mut out, i| {
                        emit_all(i, &mut out);
                        out
                    },
                )
                .collect();
            let emitted: usize = buffers.iter().flat_map(|e| &e.buffers).map(Vec::len).sum();
            per_input = emitted as f64 / (end - start) as f64;
            self.parts.par_iter_mut().enumerate().for_each(|(p, part)| {
                for b in &buffers {
                    part.add_all(&b.buffers[p]);
                }
            });
            start = end;
        }
        if self.parts.iter().any(|p| p.overflow) {
            return Err(BackendError::TooLarge {
                backend: NAME.into(),
                reason: "a state count passed 2^64".into(),
            });
        }
        Ok(self)
    }

    /// The states as a packed [`Layer`], each part compacted in place (no second copy).
    pub fn into_layer(self) -> Layer {
        Layer {
            chunks: self.parts.into_iter().map(|p| compact(p.slots)).collect(),
        }
    }

    /// Calls `f(key, count)` for every state (one part after another).
    pub fn for_each(&self, mut f: impl FnMut(u64, u64)) {
        for part in &self.parts {
            for &[key, count] in &part.slots {
                if key != EMPTY {
                    f(key, count);
                }
            }
        }
    }
}

/// One part of [`SortedStates`]: its states sorted by hash, and where each hash prefix's
/// run starts.
#[derive(Debug, Clone, Default)]
struct SortedPart {
    entries: Vec<[u64; 2]>,
    starts: Vec<u64>,
    bits: u32,
}

impl SortedPart {
    fn new(slots: Vec<[u64; 2]>) -> SortedPart {
        let mut entries = compact(slots);
        entries.sort_unstable_by_key(|e| mix(e[0]));
        let bits = (entries.len() / 4).max(2).ilog2().min(40);
        let mut starts = vec![0u64; (1usize << bits) + 1];
        for e in &entries {
            starts[Self::bucket(mix(e[0]), bits) + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        SortedPart {
            entries,
            starts,
            bits,
        }
    }

    /// The hash's bits after the part's (the top 5), as a bucket of `bits` bits.
    fn bucket(hash: u64, bits: u32) -> usize {
        ((hash << 5) >> (64 - bits)) as usize
    }

    fn run(&self, hash: u64) -> (usize, usize) {
        let b = Self::bucket(hash, self.bits);
        (self.starts[b] as usize, self.starts[b + 1] as usize)
    }
}

/// States sorted by the hash of their key, in `PARTS` (32) parts by the hash's top bits, each
/// with a directory of where each run of hash prefixes starts: 16 bytes a state plus 8 bytes
/// per 4-8 states; a lookup reads the directory and one short run (two cache misses, found
/// or not). Built from a [`StateTable`] in place.
#[derive(Debug, Clone, Default)]
pub struct SortedStates {
    parts: Vec<SortedPart>,
}

impl SortedStates {
    /// Number of states.
    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| p.entries.len()).sum()
    }

    /// Whether there is no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| (p.entries.capacity() * 16 + p.starts.capacity() * 8) as u64)
            .sum()
    }

    /// The count of `key`, if present.
    pub fn get(&self, key: u64) -> Option<u64> {
        let hash = mix(key);
        let part = &self.parts[part_of(hash)];
        let (from, to) = part.run(hash);
        part.entries[from..to]
            .iter()
            .find(|e| e[0] == key)
            .map(|e| e[1])
    }

    /// The counts of `keys` (0 when absent) into `counts`: every directory entry is read
    /// first, then every run, so that the cache misses of the keys overlap.
    pub fn get_many(&self, keys: &[u64], counts: &mut [u64]) {
        let mut runs = [(0usize, 0usize, 0usize); 64];
        for (run, &key) in runs.iter_mut().zip(keys) {
            let hash = mix(key);
            let p = part_of(hash);
            let (from, to) = self.parts[p].run(hash);
            *run = (p, from, to);
        }
        let mut touched = 0u64;
        for &(p, from, to) in &runs[..keys.len()] {
            if from < to {
                touched ^= self.parts[p].entries[from][0];
            }
        }
        std::hint::black_box(touched);
        for ((count, &key), &(p, from, to)) in counts.iter_mut().zip(keys).zip(&runs) {
            *count = self.parts[p].entries[from..to]
                .iter()
                .find(|e| e[0] == key)
                .map_or(0, |e| e[1]);
        }
    }

    /// The sum over states of `f(key, count)` (exact, `None` on overflow), in parallel.
    pub fn sum_par(&self, f: impl Fn(u64, u64) -> Option<u128> + Sync) -> Option<u128> {
        self.parts
            .par_iter()
            .flat_map(|p| p.entries.par_chunks(1 << 14))
            .map(|chunk| {
                chunk
                    .iter()
                    .try_fold(0u128, |acc, e| acc.checked_add(f(e[0], e[1])?))
            })
            .try_reduce(|| 0u128, |a, b| a.checked_add(b))
    }
}

impl StateTable {
    /// The states as [`SortedStates`], each part sorted in place (no second copy).
    pub fn into_sorted(self) -> SortedStates {
        SortedStates {
            parts: self
                .parts
                .into_par_iter()
                .map(|p| SortedPart::new(p.slots))
                .collect(),
        }
    }
}

/// In which order the top half's rows are run: which rows are the source (run by dynamic
/// programming) and which are streamed ([`RowPlan`] says how many).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowOrder {
    /// Source rows from the top edge down; the last rows (the longest, next to the middle)
    /// streamed. The smaller source layer: the default.
    #[default]
    TopDown,
    /// Source rows from the middle up; the first rows (the shortest) streamed. Different
    /// intermediate layers, but a source layer 7-8 times the top-down one (width 21, two
    /// streamed rows: 23.2 million states against 3.1 million).
    BottomUp,
    /// Source row `h-1`, then the rows from the top edge down; the rows just above `h-1`
    /// streamed. Every intermediate layer differs from the top-down ones (each holds row
    /// `h-1`): the cross-check meant to fit in memory.
    MiddleFirst,
}

impl RowOrder {
    /// Every order, for the command line and the experiment file.
    pub const ALL: [RowOrder; 3] = [RowOrder::TopDown, RowOrder::BottomUp, RowOrder::MiddleFirst];

    /// Its name (`top-down`, `bottom-up` or `middle-first`).
    pub fn name(self) -> &'static str {
        match self {
            RowOrder::TopDown => "top-down",
            RowOrder::BottomUp => "bottom-up",
            RowOrder::MiddleFirst => "middle-first",
        }
    }

    /// The order of this name, if any.
    pub fn from_name(name: &str) -> Option<RowOrder> {
        RowOrder::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// How many top rows are streamed (extended from every source state, only the shard's class
/// kept) instead of run by dynamic programming. One more streamed row makes the source layer
/// smaller by that row's growth (3-4 times near the middle, so a shard fits in less memory)
/// and the stream longer by the same factor and more (the states the source step would have
/// merged are extended one by one): two rows, the faster, are the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StreamedRows {
    /// The last two top rows streamed.
    #[default]
    Two,
    /// The last three top rows streamed.
    Three,
}

impl StreamedRows {
    /// Every choice, fewest rows first.
    pub const ALL: [StreamedRows; 2] = [StreamedRows::Two, StreamedRows::Three];

    /// The number of rows.
    pub fn count(self) -> usize {
        match self {
            StreamedRows::Two => 2,
            StreamedRows::Three => 3,
        }
    }

    /// The choice of `count` rows (2 or 3), if any.
    pub fn from_count(count: usize) -> Option<StreamedRows> {
        StreamedRows::ALL.into_iter().find(|s| s.count() == count)
    }
}

/// Which top rows a shard runs by dynamic programming (the source) and which it streams, and
/// in which order: every plan gives the same shard counts through different intermediate
/// layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowPlan {
    /// The order of the rows.
    pub order: RowOrder,
    /// How many rows are streamed.
    pub streamed: StreamedRows,
}

impl RowPlan {
    /// The plan of `order` with `streamed` rows.
    pub fn new(order: RowOrder, streamed: StreamedRows) -> RowPlan {
        RowPlan { order, streamed }
    }

    /// The source rows (in the order they are run) and the streamed rows, for `half` top
    /// rows (all of them streamed when there are fewer than the plan streams).
    pub fn rows(self, half: usize) -> (Vec<usize>, Vec<usize>) {
        let s = half.min(self.streamed.count());
        match self.order {
            RowOrder::TopDown => ((0..half - s).collect(), (half - s..half).collect()),
            RowOrder::BottomUp => ((s..half).rev().collect(), (0..s).rev().collect()),
            RowOrder::MiddleFirst if half > s => {
                let source = std::iter::once(half - 1).chain(0..half - 1 - s).collect();
                (source, (half - 1 - s..half - 1).collect())
            }
            RowOrder::MiddleFirst => RowPlan::new(RowOrder::BottomUp, self.streamed).rows(half),
        }
    }

    /// Its name: the order, with `, 3 streamed rows` unless two are.
    pub fn name(self) -> String {
        match self.streamed {
            StreamedRows::Two => self.order.name().into(),
            s => format!("{}, {} streamed rows", self.order.name(), s.count()),
        }
    }
}

/// The geometry a shard needs: the rows' cells as line masks and the two key symmetries.
#[derive(Debug, Clone)]
pub struct HexHalves {
    width: usize,
    /// For each row, the line mask (diag bit `p`, anti bit `w + t`) of each cell.
    rows: Vec<Vec<u64>>,
}

impl HexHalves {
    /// The halves of the board of odd width `width` (1..=31); `None` otherwise.
    pub fn new(width: usize) -> Option<HexHalves> {
        if width > 31 {
            return None;
        }
        let problem = line_problem(width, (true, true))?;
        // Every line crosses the middle row, so no line closes above it: the top rows'
        // states only grow, which is what lets their order change.
        let half = width / 2;
        if problem.lines[..half].iter().any(|l| l.closing != 0) {
            return None;
        }
        Some(HexHalves {
            width,
            rows: problem.lines.into_iter().map(|l| l.choices).collect(),
        })
    }

    /// Rows above the middle row.
    pub fn half(&self) -> usize {
        self.width / 2
    }

    fn full(&self) -> u64 {
        (1u64 << self.width) - 1
    }

    fn rev(&self, x: u64) -> u64 {
        x.reverse_bits() >> (64 - self.width)
    }

    /// The left-right reflection: a cell on lines `(p, t)` goes to `(w-1-t, w-1-p)`.
    pub fn reflect(&self, key: u64) -> u64 {
        let full = self.full();
        self.rev(key >> self.width & full) | self.rev(key & full) << self.width
    }

    /// The half-turn: a cell on lines `(p, t)` goes to `(w-1-p, w-1-t)`.
    pub fn turn(&self, key: u64) -> u64 {
        let full = self.full();
        self.rev(key & full) | self.rev(key >> self.width & full) << self.width
    }

    /// The invariant of the join: `min(x, reverse(x))` with `x_i = [d_i used] xor [a_i used]`.
    pub fn invariant(&self, key: u64) -> u64 {
        let x = (key ^ key >> self.width) & self.full();
        x.min(self.rev(x))
    }

    /// The class of a top state among `parts`: the same for both halves of a placement and
    /// for a state's mirror image.
    pub fn class(&self, key: u64, parts: usize) -> usize {
        if parts <= 1 {
            0
        } else {
            ((mix(self.invariant(key)) as u128 * parts as u128) >> 64) as usize
        }
    }

    /// One dynamic-programming step over row `row`, states stored up to the reflection (only
    /// keys `key <= reflect(key)`, each with its own count). `expected` sizes the table.
    /// Returns the layer and the bytes its table held.
    pub fn step(
        &self,
        layer: &Layer,
        row: usize,
        expected: usize,
    ) -> Result<(Layer, u64), BackendError> {
        let choices = &self.rows[row];
        let successors = |key: u64, count: u64, out: &mut Emitted| {
            let asymmetric = self.reflect(key) != key;
            for &mask in choices {
                if key & mask == 0 {
                    let next = key | mask;
                    let image = self.reflect(next);
                    // `next` stands for itself; the same successor of reflect(key) is `image`.
                    if next <= image {
                        out.add(next, count);
                    }
                    if asymmetric && image <= next {
                        out.add(image, count);
                    }
                }
            }
        };
        let mut table = StateTable::for_states(expected);
        for chunk in &layer.chunks {
            table = table.fill(chunk.len(), |i, out| {
                successors(chunk[i][0], chunk[i][1], out)
            })?;
        }
        let bytes = table.bytes();
        Ok((table.into_layer(), bytes))
    }

    /// The states of class `part` (of `parts`) after the streamed rows, from the source
    /// layer: every source state extended through `streamed`, up to the reflection.
    pub fn class_table(
        &self,
        source: &Layer,
        streamed: &[usize],
        part: usize,
        parts: usize,
        expected: usize,
    ) -> Result<StateTable, BackendError> {
        let rows: Vec<&[u64]> = streamed.iter().map(|&r| self.rows[r].as_slice()).collect();
        let extensions = |key: u64, count: u64, out: &mut Emitted| {
            let asymmetric = self.reflect(key) != key;
            let mut keep = |top: u64| {
                if self.class(top, parts) == part {
                    let image = self.reflect(top);
                    if top <= image {
                        out.add(top, count);
                    }
                    if asymmetric && image <= top {
                        out.add(image, count);
                    }
                }
            };
            extend(key, &rows, &mut keep);
        };
        let mut table = StateTable::for_states(expected);
        for chunk in &source.chunks {
            table = table.fill(chunk.len(), |i, out| {
                extensions(chunk[i][0], chunk[i][1], out)
            })?;
        }
        Ok(table)
    }

    /// The placements whose top half is in `table` (one class, stored up to the reflection):
    /// for every top state `A` and middle cell `c`, `top(A) * top(turn(rest))`, the rest
    /// being the lines the bottom half must use.
    pub fn join(&self, table: &SortedStates) -> Result<u128, BackendError> {
        let middle = &self.rows[self.half()];
        let active = (1u64 << (2 * self.width)) - 1;
        table
            .sum_par(|key, count| {
                let mut wanted = [0u64; 64];
                let mut found = [0u64; 64];
                let mut n = 0;
                for &mask in middle {
                    if key & mask == 0 {
                        let bottom = self.turn(!(key | mask) & active);
                        wanted[n] = bottom.min(self.reflect(bottom));
                        n += 1;
                    }
                }
                table.get_many(&wanted[..n], &mut found[..n]);
                let completions: u128 = found[..n].iter().map(|&c| c as u128).sum();
                let weight = if self.reflect(key) != key { 2 } else { 1 };
                (count as u128 * weight).checked_mul(completions)
            })
            .ok_or_else(|| failed("the count passed 2^128".into()))
    }
}

/// Calls `f` with `key` extended by one compatible cell of each row of `rows`.
fn extend<F: FnMut(u64)>(key: u64, rows: &[&[u64]], f: &mut F) {
    match rows.split_first() {
        None => f(key),
        Some((first, rest)) => {
            for &mask in *first {
                if key & mask == 0 {
                    extend(key | mask, rest, f);
                }
            }
        }
    }
}

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
const FIRST_SIZING: f64 = 0.7;

/// Runs the source rows of `plan`, returning the source layer, the states of every layer and
/// the most bytes held at once.
pub fn source_layer(
    halves: &HexHalves,
    plan: RowPlan,
) -> Result<(Layer, Vec<u64>, u64), BackendError> {
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
) -> Result<PartCount, BackendError> {
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
) -> Option<Result<(u128, Vec<PartCount>), BackendError>> {
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
    ) -> Result<MemoryEstimate, BackendError> {
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
    fn table_bytes(states: f64) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use super::super::lines::hex_count;

    #[test]
    fn the_invariant_is_shared_by_both_halves_and_the_mirror_image() {
        let h = HexHalves::new(9).unwrap();
        let half = h.half();
        let (layer, _, _) = source_layer(&h, RowPlan::default()).unwrap();
        let table = h
            .class_table(&layer, &[half - 2, half - 1], 0, 1, 100)
            .unwrap();
        let middle = &h.rows[half];
        let active = (1u64 << 18) - 1;
        let mut checked = 0;
        table.for_each(|key, _| {
            assert_eq!(h.invariant(key), h.invariant(h.reflect(key)));
            for &mask in middle {
                if key & mask == 0 {
                    let bottom = h.turn(!(key | mask) & active);
                    assert_eq!(h.invariant(key), h.invariant(bottom), "{key:b}");
                    checked += 1;
                }
            }
        });
        assert!(checked > 100);
    }

    #[test]
    fn shards_sum_to_the_unsharded_count_in_both_row_orders() {
        for width in [1usize, 3, 5, 7, 9, 11, 13, 15] {
            let expected = hex_count(width, (true, true)).unwrap().unwrap().0;
            for order in RowOrder::ALL {
                for parts in [1usize, 2, 3, 7] {
                    let plan = RowPlan::new(order, StreamedRows::Two);
                    let (total, all) = count_all_parts(width, parts, plan).unwrap().unwrap();
                    assert_eq!(total, expected, "width {width}, {parts} parts, {order:?}");
                    assert_eq!(all.len(), parts);
                }
            }
        }
    }

    #[test]
    fn every_width_to_17_gives_oeis_a002047_with_several_shard_counts() {
        let a002047 = [1u128, 2, 6, 28, 244, 2544, 35600, 659632, 15106128];
        for (i, &expected) in a002047.iter().enumerate() {
            let width = 2 * i + 1;
            for parts in [2usize, 5, 16] {
                let (total, _) = count_all_parts(width, parts, RowPlan::default())
                    .unwrap()
                    .unwrap();
                assert_eq!(total, expected, "width {width}, {parts} parts");
            }
        }
    }

    /// Counts every shard of `width` in `parts` with two and with three streamed rows (both
    /// from one process each) and checks them shard by shard: the same partial count and the
    /// same states of the class (the top states do not depend on how they were reached).
    fn three_streamed_rows_match_two(width: usize, parts: usize, order: RowOrder) {
        let run = |streamed| {
            count_all_parts(width, parts, RowPlan::new(order, streamed))
                .unwrap()
                .unwrap()
        };
        let ((total2, two), (total3, three)) = (run(StreamedRows::Two), run(StreamedRows::Three));
        assert_eq!(total2, total3, "width {width}, {parts} parts, {order:?}");
        for (a, b) in two.iter().zip(&three) {
            let at = format!("width {width}, shard {}/{parts}, {order:?}", a.part);
            assert_eq!((a.part, a.count), (b.part, b.count), "{at}");
            assert_eq!(a.class_states, b.class_states, "{at}");
            assert_eq!(b.plan, RowPlan::new(order, StreamedRows::Three));
            // One source row fewer; with rows enough, a smaller source layer.
            if width / 2 > 3 {
                assert_eq!(a.source_states.len(), b.source_states.len() + 1, "{at}");
                assert!(a.source_states.last() > b.source_states.last(), "{at}");
            }
        }
    }

    #[test]
    fn three_streamed_rows_give_the_two_row_counts_shard_by_shard() {
        for width in [1usize, 3, 5, 7, 9, 11, 13, 15] {
            for order in RowOrder::ALL {
                for parts in [1usize, 2, 3, 7] {
                    three_streamed_rows_match_two(width, parts, order);
                }
            }
        }
    }

    /// Widths 17-23 in 8 shards, top-down and middle-first: minutes in a release build (width
    /// 23: about 1 GiB). `cargo test --release --lib kinds::hex::shards -- --ignored`.
    #[test]
    #[ignore = "minutes in a release build; run with --ignored"]
    fn three_streamed_rows_give_the_two_row_counts_shard_by_shard_to_width_23() {
        for width in [17usize, 19, 21, 23] {
            for order in [RowOrder::TopDown, RowOrder::MiddleFirst] {
                three_streamed_rows_match_two(width, 8, order);
            }
        }
    }

    #[test]
    fn the_rows_of_every_plan_are_the_top_rows_once_each() {
        for half in 0..14 {
            for order in RowOrder::ALL {
                for streamed in StreamedRows::ALL {
                    let (source, stream) = RowPlan::new(order, streamed).rows(half);
                    assert_eq!(stream.len(), half.min(streamed.count()));
                    let mut all: Vec<usize> = source.into_iter().chain(stream).collect();
                    all.sort_unstable();
                    assert_eq!(all, (0..half).collect::<Vec<_>>(), "{order:?} {streamed:?}");
                }
            }
        }
    }

    #[test]
    fn a_shard_holds_a_fraction_of_the_states() {
        let (_, all) = count_all_parts(15, 4, RowPlan::default()).unwrap().unwrap();
        let (_, one) = count_all_parts(15, 1, RowPlan::default()).unwrap().unwrap();
        let whole = one[0].class_states;
        let held: u64 = all.iter().map(|p| p.class_states).sum();
        assert_eq!(held, whole);
        for p in &all {
            assert!(p.class_states * 2 < whole, "{p:?} of {whole}");
            assert!(p.count > 0);
        }
    }

    #[test]
    fn a_table_grows_when_its_size_was_guessed_too_small() {
        let t = StateTable::with_slots(16)
            .fill(10_000, |i, out| {
                out.add(i as u64 % 5000, 1);
                out.add(7, 2);
            })
            .unwrap();
        assert_eq!(t.len(), 5000);
        assert_eq!(t.get(7), Some(2 + 2 * 10_000));
        assert_eq!(t.get(4999), Some(2));
        assert_eq!(t.get(5000), None);
        let layer = t.into_layer();
        assert_eq!(layer.len(), 5000);
        assert_eq!(layer.iter().map(|e| e[1]).sum::<u64>(), 30_000);
        let sorted = StateTable::with_slots(16)
            .fill(layer.len(), |i, out| {
                let e = layer.iter().nth(i).unwrap();
                out.add(e[0], e[1]);
            })
            .unwrap()
            .into_sorted();
        assert_eq!(sorted.get(7), Some(20_002));
        assert_eq!(sorted.get(5000), None);
        let mut found = [1u64; 3];
        sorted.get_many(&[4999, 5001, 7], &mut found);
        assert_eq!(found, [2, 0, 20_002]);
    }

    #[test]
    fn the_estimate_covers_the_measured_states_and_shrinks_with_shards() {
        let h = HexHalves::new(17).unwrap();
        for streamed in StreamedRows::ALL {
            let plan = RowPlan::new(RowOrder::TopDown, streamed);
            let e = MemoryEstimate::measure(&h, plan, 1000).unwrap();
            assert_eq!(e.plan, plan);
            assert!(e.measured_layers < e.source_states.len(), "{e:?}");
            let (_, all) = count_all_parts(17, 1, plan).unwrap().unwrap();
            let exact = &all[0];
            assert_eq!(e.source_states.len(), exact.source_states.len());
            // Measured layers are exact; guessed ones within a factor of the truth.
            let measured = e.measured_layers;
            assert_eq!(e.source_states[..measured], exact.source_states[..measured]);
            let near = |guess: u64, real: u64| 4 * guess >= 3 * real && guess <= 3 * real;
            for (&guess, &real) in e.source_states.iter().zip(&exact.source_states) {
                assert!(near(guess, real), "{e:?} against {exact:?}");
            }
            assert!(
                near(e.top_states, exact.class_states),
                "{e:?} against {exact:?}"
            );
            assert!(e.peak_bytes(1) > e.peak_bytes(4));
            let limit = e.peak_bytes(3);
            assert!(e.parts_within(limit).is_some_and(|k| k <= 3));
            assert_eq!(e.parts_within(1), None);
        }
    }

    #[test]
    fn a_third_streamed_row_needs_less_memory_when_the_shards_are_many() {
        let h = HexHalves::new(21).unwrap();
        let estimate = |streamed| {
            MemoryEstimate::measure(&h, RowPlan::new(RowOrder::TopDown, streamed), 1 << 16).unwrap()
        };
        let (two, three) = (estimate(StreamedRows::Two), estimate(StreamedRows::Three));
        assert_eq!(two.source_states.len(), three.source_states.len() + 1);
        // The same rows in the same order: the three-row source layers are the two-row ones
        // but the last, and the states after all top rows are the same.
        assert_eq!(
            two.source_states[..two.source_states.len() - 1],
            three.source_states
        );
        assert_eq!(two.top_states, three.top_states);
        let states = |e: &MemoryEstimate, parts| e.peak_bytes(parts) - BASE_BYTES;
        // Many shards: the source layer dominates, and it is 3-4 times smaller.
        assert!(
            3 * states(&three, 64) < states(&two, 64),
            "{two:?} {three:?}"
        );
        // One shard: the top layer dominates both.
        assert!(2 * states(&three, 1) > states(&two, 1), "{two:?} {three:?}");
    }

    #[test]
    fn a_count_past_u64_is_an_error_not_a_wrapped_number() {
        let r = StateTable::with_slots(16).fill(3, |_, out| out.add(1, u64::MAX / 2));
        assert!(r.is_err());
    }
}
