//! The three-axis hex count split into shards that each hold a fraction of the states.
//!
//! [`hex_count`](crate::backend::dp::hex_count) meets in the middle: the top half's states
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
//! rows (all top rows but two) are run by dynamic programming as usual; the last two top rows
//! are *streamed*: every source state is extended through both rows and only the results of
//! the shard's class are kept. So a shard holds the source layer (about a fifth of the top
//! layer at width 25) plus 1/K of the top layer, instead of the whole top layer and the layer
//! before it. The two row orders ([`RowOrder`]) give two computations with different
//! intermediate layers: a cross-check.
//!
//! **Memory layout.** Layers are packed arrays of 64-bit keys and 64-bit counts (16 bytes a
//! state); states are merged in an open-addressing table of atomic slots that both threads
//! fill at once (16 bytes a slot, at most [`MAX_LOAD`] full, so about 19-20 bytes a state
//! while a layer is built), sized from the measured growth of the layers before.
//!
//! Costs: the source dynamic programme once per shard (a fraction of the whole), then every
//! source state times the two streamed rows' cells (about 170 candidate extensions each), then
//! one lookup per (state of the class, middle cell). Counts are exact: `u64` per state (a
//! state count above 2^64 is an error, never wrapped), checked `u128` sums.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::backend::dp::LineProblem;
use crate::backend::BackendError;

const NAME: &str = "dp";
const EMPTY: u64 = u64::MAX;
/// The largest fraction of a table's slots that may be full before it grows.
pub const MAX_LOAD: f64 = 0.85;
/// The fraction of slots a freshly sized table aims at.
const TARGET_LOAD: f64 = 0.75;
/// A key gives up looking for a slot after this many (it is inserted after the table grows).
const MAX_PROBE: usize = 4096;

fn failed(reason: String) -> BackendError {
    BackendError::Failed {
        backend: NAME.into(),
        reason,
    }
}

/// Packed states: keys (used lines as bits) and counts in two arrays, 16 bytes a state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layer {
    /// The keys, in no particular order.
    pub keys: Vec<u64>,
    /// `counts[i]` partial placements have key `keys[i]`.
    pub counts: Vec<u64>,
}

impl Layer {
    /// The single empty placement (key 0, count 1).
    pub fn start() -> Layer {
        Layer {
            keys: vec![0],
            counts: vec![1],
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there is no state.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Bytes held by the two arrays.
    pub fn bytes(&self) -> u64 {
        ((self.keys.capacity() + self.counts.capacity()) * 8) as u64
    }
}

/// A hash of a 64-bit key (the splitmix64 finaliser: every input bit moves every output bit).
fn mix(key: u64) -> u64 {
    let mut z = key ^ (key >> 30);
    z = z.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^= z >> 27;
    z = z.wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What one insertion did.
enum Added {
    New,
    Existing,
    Full,
}

/// An open-addressing table (linear probing) of states with atomic slots, so that several
/// threads add to it at once. Keys are never removed; `u64::MAX` marks an empty slot. Each
/// slot costs 16 bytes.
pub struct StateTable {
    keys: Vec<AtomicU64>,
    counts: Vec<AtomicU64>,
    occupied: usize,
    overflow: AtomicBool,
}

impl StateTable {
    /// An empty table of `slots` slots (at least 16).
    pub fn with_slots(slots: usize) -> StateTable {
        let slots = slots.max(16);
        StateTable {
            keys: (0..slots).map(|_| AtomicU64::new(EMPTY)).collect(),
            counts: (0..slots).map(|_| AtomicU64::new(0)).collect(),
            occupied: 0,
            overflow: AtomicBool::new(false),
        }
    }

    /// An empty table sized for about `states` states.
    pub fn for_states(states: usize) -> StateTable {
        StateTable::with_slots((states as f64 / TARGET_LOAD) as usize + 16)
    }

    /// Number of states held.
    pub fn len(&self) -> usize {
        self.occupied
    }

    /// Whether the table holds no state.
    pub fn is_empty(&self) -> bool {
        self.occupied == 0
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.keys.len()
    }

    /// Bytes held by the slots.
    pub fn bytes(&self) -> u64 {
        (self.keys.len() * 16) as u64
    }

    fn home(&self, key: u64) -> usize {
        ((mix(key) as u128 * self.keys.len() as u128) >> 64) as usize
    }

    /// Adds `count` to `key`'s count (inserting it), from any thread.
    fn add(&self, key: u64, count: u64) -> Added {
        let slots = self.keys.len();
        let mut i = self.home(key);
        for _ in 0..MAX_PROBE.min(slots) {
            let mut found = self.keys[i].load(Ordering::Relaxed);
            let mut added = Added::Existing;
            if found == EMPTY {
                match self.keys[i].compare_exchange(EMPTY, key, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => {
                        found = key;
                        added = Added::New;
                    }
                    Err(other) => found = other,
                }
            }
            if found == key {
                let before = self.counts[i].fetch_add(count, Ordering::Relaxed);
                if before.checked_add(count).is_none() {
                    self.overflow.store(true, Ordering::Relaxed);
                }
                return added;
            }
            i += 1;
            if i == slots {
                i = 0;
            }
        }
        Added::Full
    }

    /// The count of `key`, if present.
    pub fn get(&self, key: u64) -> Option<u64> {
        let slots = self.keys.len();
        let mut i = self.home(key);
        for _ in 0..slots {
            match self.keys[i].load(Ordering::Relaxed) {
                k if k == key => return Some(self.counts[i].load(Ordering::Relaxed)),
                EMPTY => return None,
                _ => {}
            }
            i += 1;
            if i == slots {
                i = 0;
            }
        }
        None
    }

    /// The table moved into `slots` slots (at least as many as its states).
    fn regrown(self, slots: usize) -> StateTable {
        let mut bigger = StateTable::with_slots(slots.max(self.occupied + 16));
        let mut moved = 0;
        for (k, c) in self.keys.into_iter().zip(self.counts) {
            let (k, c) = (k.into_inner(), c.into_inner());
            if k != EMPTY {
                // Fewer states than slots and probing wraps around: there is always room.
                if let Added::New = bigger.add(k, c) {
                    moved += 1;
                }
            }
        }
        bigger.occupied = moved;
        bigger.overflow = self.overflow;
        bigger
    }

    /// Grows the table when it is fuller than [`MAX_LOAD`] (to [`TARGET_LOAD`]).
    fn grow_if_full(self) -> StateTable {
        if self.occupied as f64 > MAX_LOAD * self.keys.len() as f64 {
            let slots = (self.occupied as f64 / TARGET_LOAD) as usize + 16;
            self.regrown(slots)
        } else {
            self
        }
    }

    /// Adds every `(key, count)` that `emit_all(i, emit)` emits for `i` in `0..inputs`, in
    /// parallel and in batches; between batches the table grows if it is too full, and keys
    /// that found no slot are added then. Fails when a count passes 2^64.
    pub fn fill<F>(mut self, inputs: usize, emit_all: F) -> Result<StateTable, BackendError>
    where
        F: Fn(usize, &mut dyn FnMut(u64, u64)) + Sync,
    {
        let batch = (inputs / 64).max(4096);
        let mut start = 0;
        while start < inputs {
            let end = (start + batch).min(inputs);
            let table = &self;
            let (new, mut deferred) = (start..end)
                .into_par_iter()
                .fold(
                    || (0usize, Vec::new()),
                    |(mut new, mut deferred), i| {
                        emit_all(i, &mut |key, count| match table.add(key, count) {
                            Added::New => new += 1,
                            Added::Existing => {}
                            Added::Full => deferred.push((key, count)),
                        });
                        (new, deferred)
                    },
                )
                .reduce(
                    || (0, Vec::new()),
                    |mut a, b| {
                        a.0 += b.0;
                        a.1.extend(b.1);
                        a
                    },
                );
            self.occupied += new;
            while !deferred.is_empty() {
                let needed = ((self.occupied + deferred.len()) as f64 / TARGET_LOAD) as usize;
                let slots = needed.max(self.keys.len() + self.keys.len() / 4);
                self = self.regrown(slots);
                let mut again = Vec::new();
                for (key, count) in deferred {
                    match self.add(key, count) {
                        Added::New => self.occupied += 1,
                        Added::Existing => {}
                        Added::Full => again.push((key, count)),
                    }
                }
                deferred = again;
            }
            self = self.grow_if_full();
            start = end;
        }
        if self.overflow.load(Ordering::Relaxed) {
            return Err(BackendError::TooLarge {
                backend: NAME.into(),
                reason: "a state count passed 2^64".into(),
            });
        }
        Ok(self)
    }

    /// The states as a packed [`Layer`] (reusing the slots' memory where the allocator can).
    pub fn into_layer(self) -> Layer {
        let mut keys: Vec<u64> = self.keys.into_iter().map(AtomicU64::into_inner).collect();
        let mut counts: Vec<u64> = self.counts.into_iter().map(AtomicU64::into_inner).collect();
        let mut kept = 0;
        for i in 0..keys.len() {
            if keys[i] != EMPTY {
                keys[kept] = keys[i];
                counts[kept] = counts[i];
                kept += 1;
            }
        }
        keys.truncate(kept);
        counts.truncate(kept);
        keys.shrink_to_fit();
        counts.shrink_to_fit();
        Layer { keys, counts }
    }

    /// Calls `f(key, count)` for every state of slots `range`.
    fn for_each_in(&self, range: std::ops::Range<usize>, mut f: impl FnMut(u64, u64)) {
        for i in range {
            let k = self.keys[i].load(Ordering::Relaxed);
            if k != EMPTY {
                f(k, self.counts[i].load(Ordering::Relaxed));
            }
        }
    }
}

impl std::fmt::Debug for StateTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateTable")
            .field("slots", &self.keys.len())
            .field("occupied", &self.occupied)
            .finish()
    }
}

/// Which top rows are run by dynamic programming (the source) and which two are streamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowOrder {
    /// Source rows `0..h-2` from the top edge down; rows `h-2` and `h-1` (the two longest,
    /// next to the middle) streamed. The smaller source layer: the default.
    #[default]
    TopDown,
    /// Source rows `h-1` down to `2`, from the middle up; rows 1 and 0 (the two shortest)
    /// streamed. Different intermediate layers: the cross-check.
    BottomUp,
}

impl RowOrder {
    /// The source rows (in the order they are run) and the streamed rows, for `half` top rows.
    pub fn rows(self, half: usize) -> (Vec<usize>, Vec<usize>) {
        let streamed = half.min(2);
        match self {
            RowOrder::TopDown => ((0..half - streamed).collect(), (half - streamed..half).collect()),
            RowOrder::BottomUp => ((streamed..half).rev().collect(), (0..streamed).rev().collect()),
        }
    }

    /// Its name (`top-down` or `bottom-up`).
    pub fn name(self) -> &'static str {
        match self {
            RowOrder::TopDown => "top-down",
            RowOrder::BottomUp => "bottom-up",
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
        let problem = LineProblem::hex(width, (true, true))?;
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
        let table = StateTable::for_states(expected).fill(layer.len(), |i, emit| {
            let (key, count) = (layer.keys[i], layer.counts[i]);
            let asymmetric = self.reflect(key) != key;
            for &mask in choices {
                if key & mask == 0 {
                    let next = key | mask;
                    let image = self.reflect(next);
                    // `next` stands for itself; the same successor of reflect(key) is `image`.
                    if next <= image {
                        emit(next, count);
                    }
                    if asymmetric && image <= next {
                        emit(image, count);
                    }
                }
            }
        })?;
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
        StateTable::for_states(expected).fill(source.len(), |i, emit| {
            let (key, count) = (source.keys[i], source.counts[i]);
            let asymmetric = self.reflect(key) != key;
            let mut keep = |top: u64| {
                if self.class(top, parts) == part {
                    let image = self.reflect(top);
                    if top <= image {
                        emit(top, count);
                    }
                    if asymmetric && image <= top {
                        emit(image, count);
                    }
                }
            };
            extend(key, &rows, &mut keep);
        })
    }

    /// The placements whose top half is in `table` (one class, stored up to the reflection):
    /// for every top state `A` and middle cell `c`, `top(A) * top(turn(rest))`, the rest
    /// being the lines the bottom half must use.
    pub fn join(&self, table: &StateTable) -> Result<u128, BackendError> {
        let middle = &self.rows[self.half()];
        let active = (1u64 << (2 * self.width)) - 1;
        let lookup = |key: u64| table.get(key.min(self.reflect(key))).unwrap_or(0);
        let chunk = (table.slots() / 256).max(1 << 14);
        let starts: Vec<usize> = (0..table.slots()).step_by(chunk).collect();
        let sums: Vec<Option<u128>> = starts
            .par_iter()
            .map(|&from| {
                let mut sum = 0u128;
                let mut ok = true;
                table.for_each_in(from..(from + chunk).min(table.slots()), |key, count| {
                    let mut completions = 0u128;
                    for &mask in middle {
                        if key & mask == 0 {
                            completions += lookup(self.turn(!(key | mask) & active)) as u128;
                        }
                    }
                    let weight = if self.reflect(key) != key { 2 } else { 1 };
                    let term = (count as u128 * weight).checked_mul(completions);
                    match term.and_then(|t| sum.checked_add(t)) {
                        Some(s) => sum = s,
                        None => ok = false,
                    }
                });
                ok.then_some(sum)
            })
            .collect();
        sums.into_iter()
            .try_fold(0u128, |acc, s| s.and_then(|s| acc.checked_add(s)))
            .ok_or_else(|| failed("the count passed 2^128".into()))
    }
}

/// Calls `f` with `key` extended by one compatible cell of each row of `rows`.
fn extend(key: u64, rows: &[&[u64]], f: &mut dyn FnMut(u64)) {
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
    /// The row order used.
    pub order: RowOrder,
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
    /// Wall seconds.
    pub seconds: f64,
}

/// The next layer's size guessed from the growth so far: the last growth ratio, declining
/// as it has declined (at least 1), with 10% to spare.
pub fn next_size_guess(sizes: &[u64]) -> f64 {
    let n = sizes.len();
    let last = *sizes.last().unwrap_or(&1) as f64;
    if n < 3 {
        return last * 32.0;
    }
    let r1 = last / sizes[n - 2].max(1) as f64;
    let r0 = sizes[n - 2] as f64 / sizes[n - 3].max(1) as f64;
    let ratio = (r1 - (r0 - r1).max(0.0)).max(1.0);
    last * ratio * 1.1
}

/// Runs the source rows of `order`, returning the source layer, the states of every layer and
/// the most bytes held at once.
pub fn source_layer(
    halves: &HexHalves,
    order: RowOrder,
) -> Result<(Layer, Vec<u64>, u64), BackendError> {
    let (source_rows, _) = order.rows(halves.half());
    let mut layer = Layer::start();
    let mut sizes = vec![1u64];
    let mut peak = layer.bytes();
    for &row in &source_rows {
        let guess = next_size_guess(&sizes);
        let (next, table_bytes) = halves.step(&layer, row, guess as usize)?;
        peak = peak.max(layer.bytes() + table_bytes);
        layer = next;
        sizes.push(layer.len() as u64);
    }
    Ok((layer, sizes, peak))
}

/// Counts shard `part` (1-based) of `parts` of the three-axis placements of width `width`,
/// starting from `source` when given (the source layer of `order`, as [`source_layer`]
/// returns it: shards run one after another can share it).
pub fn count_part(
    halves: &HexHalves,
    part: usize,
    parts: usize,
    order: RowOrder,
    source: Option<&(Layer, Vec<u64>, u64)>,
) -> Result<PartCount, BackendError> {
    if part == 0 || part > parts {
        return Err(failed(format!("shard {part}/{parts}: expected 1 <= k <= K")));
    }
    let start = Instant::now();
    let computed;
    let (layer, sizes, source_peak) = match source {
        Some(s) => s,
        None => {
            computed = source_layer(halves, order)?;
            &computed
        }
    };
    let (_, streamed) = order.rows(halves.half());
    let mut guess_sizes = sizes.clone();
    let mut guess = layer.len() as f64;
    for _ in &streamed {
        guess = next_size_guess(&guess_sizes);
        guess_sizes.push(guess as u64);
    }
    let expected = (guess / parts as f64) as usize;
    let table = halves.class_table(layer, &streamed, part - 1, parts, expected)?;
    let peak_state_bytes = (*source_peak).max(layer.bytes() + table.bytes());
    let count = halves.join(&table)?;
    Ok(PartCount {
        width: halves.width,
        part,
        parts,
        order,
        count,
        source_states: sizes.clone(),
        class_states: table.len() as u64,
        class_slots: table.slots() as u64,
        peak_state_bytes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The three-axis count of width `width` as the sum of `parts` shards run one after another
/// (sharing one source layer). `None` for an even width or above 31.
pub fn count_all_parts(
    width: usize,
    parts: usize,
    order: RowOrder,
) -> Option<Result<(u128, Vec<PartCount>), BackendError>> {
    let halves = HexHalves::new(width)?;
    let run = || {
        let source = source_layer(&halves, order)?;
        let mut total = 0u128;
        let mut all = Vec::new();
        for part in 1..=parts {
            let p = count_part(&halves, part, parts, order, Some(&source))?;
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
    /// States of each source layer: measured while small, then extrapolated.
    pub source_states: Vec<u64>,
    /// How many of `source_states` were measured (the rest are guesses).
    pub measured_layers: usize,
    /// States after the streamed rows, all classes together (up to the reflection).
    pub top_states: u64,
}

impl MemoryEstimate {
    /// Measures the source layers of `order` while they hold at most `budget` states and
    /// extrapolates the rest with [`next_size_guess`] (which leans high).
    pub fn measure(
        halves: &HexHalves,
        order: RowOrder,
        budget: usize,
    ) -> Result<MemoryEstimate, BackendError> {
        let (source_rows, streamed) = order.rows(halves.half());
        let mut layer = Layer::start();
        let mut sizes = vec![1u64];
        let mut measured = 1;
        for &row in &source_rows {
            if layer.len() <= budget {
                let guess = next_size_guess(&sizes) as usize;
                layer = halves.step(&layer, row, guess)?.0;
                sizes.push(layer.len() as u64);
                measured += 1;
            } else {
                sizes.push(next_size_guess(&sizes) as u64);
            }
        }
        let source_states = sizes.clone();
        for _ in &streamed {
            sizes.push(next_size_guess(&sizes) as u64);
        }
        Ok(MemoryEstimate {
            width: halves.width,
            source_states,
            measured_layers: measured,
            top_states: *sizes.last().unwrap_or(&1),
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

/// Memory the system can give without swapping (`MemAvailable` of `/proc/meminfo`), if known.
pub fn available_memory() -> Option<u64> {
    proc_field("/proc/meminfo", "MemAvailable:")
}

/// This process's peak resident memory (`VmHWM` of `/proc/self/status`), if known.
pub fn peak_rss() -> Option<u64> {
    proc_field("/proc/self/status", "VmHWM:")
}

/// Resets [`peak_rss`] to the current resident memory (Linux 4.0 and later); false when the
/// system does not allow it.
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn proc_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// `bytes` as GiB with two decimals (`7.47 GiB`).
pub fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::dp::hex_count;

    #[test]
    fn the_invariant_is_shared_by_both_halves_and_the_mirror_image() {
        let h = HexHalves::new(9).unwrap();
        let half = h.half();
        let (layer, _, _) = source_layer(&h, RowOrder::TopDown).unwrap();
        let table = h.class_table(&layer, &[half - 2, half - 1], 0, 1, 100).unwrap();
        let middle = &h.rows[half];
        let active = (1u64 << 18) - 1;
        let mut checked = 0;
        table.for_each_in(0..table.slots(), |key, _| {
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
            for order in [RowOrder::TopDown, RowOrder::BottomUp] {
                for parts in [1usize, 2, 3, 7] {
                    let (total, all) = count_all_parts(width, parts, order).unwrap().unwrap();
                    assert_eq!(total, expected, "width {width}, {parts} parts, {order:?}");
                    assert_eq!(all.len(), parts);
                }
            }
        }
    }

    #[test]
    fn a_shard_holds_a_fraction_of_the_states() {
        let (_, all) = count_all_parts(15, 4, RowOrder::TopDown).unwrap().unwrap();
        let (_, one) = count_all_parts(15, 1, RowOrder::TopDown).unwrap().unwrap();
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
            .fill(10_000, |i, emit| {
                emit(i as u64 % 5000, 1);
                emit(7, 2);
            })
            .unwrap();
        assert_eq!(t.len(), 5000);
        assert_eq!(t.get(7), Some(2 + 2 * 10_000));
        assert_eq!(t.get(4999), Some(2));
        assert_eq!(t.get(5000), None);
        let layer = t.into_layer();
        assert_eq!(layer.len(), 5000);
        assert_eq!(layer.counts.iter().sum::<u64>(), 30_000);
    }

    #[test]
    fn the_estimate_covers_the_measured_states_and_shrinks_with_shards() {
        let h = HexHalves::new(17).unwrap();
        let e = MemoryEstimate::measure(&h, RowOrder::TopDown, 1000).unwrap();
        assert!(e.measured_layers < e.source_states.len(), "{e:?}");
        let (_, all) = count_all_parts(17, 1, RowOrder::TopDown).unwrap().unwrap();
        let exact = &all[0];
        for (guess, real) in e.source_states.iter().zip(&exact.source_states) {
            assert!(*guess >= *real, "{e:?} against {exact:?}");
        }
        assert!(e.top_states >= exact.class_states, "{e:?} against {exact:?}");
        assert!(e.top_states < 3 * exact.class_states, "{e:?} against {exact:?}");
        assert!(e.peak_bytes(1) > e.peak_bytes(4));
        let limit = e.peak_bytes(3);
        assert!(e.parts_within(limit).is_some_and(|k| k <= 3));
        assert_eq!(e.parts_within(1), None);
    }

    #[test]
    fn a_count_past_u64_is_an_error_not_a_wrapped_number() {
        let r = StateTable::with_slots(16).fill(3, |_, emit| emit(1, u64::MAX / 2));
        assert!(r.is_err());
    }
}
