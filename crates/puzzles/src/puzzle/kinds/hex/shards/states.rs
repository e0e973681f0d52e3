//! Where a shard's states live: packed [`Layer`]s, the open-addressing [`StateTable`] both
//! threads fill at once, and the [`SortedStates`] the join looks up.

use rayon::prelude::*;

use super::ShardError;
use super::{EMPTY, MAX_LOAD, TARGET_LOAD};

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
pub(super) fn compact(mut slots: Vec<[u64; 2]>) -> Vec<[u64; 2]> {
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
pub(super) fn mix(key: u64) -> u64 {
    let mut z = key ^ (key >> 30);
    z = z.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^= z >> 27;
    z = z.wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How many parts a [`StateTable`] is cut into (by the top bits of a key's hash): each is
/// filled by one thread at a time, without atomic operations, and grows on its own.
pub(super) const PARTS: usize = 32;
/// Emitted `(key, count)` pairs buffered per batch before they are added.
pub(super) const BATCH_ITEMS: usize = 1 << 21;

/// One part of a [`StateTable`]: open addressing with linear probing, `[key, count]` per slot
/// (one cache line per probe), `u64::MAX` marking an empty slot.
#[derive(Debug, Clone, Default)]
pub(super) struct Part {
    pub(super) slots: Vec<[u64; 2]>,
    pub(super) len: usize,
    pub(super) overflow: bool,
}

impl Part {
    pub(super) fn with_slots(slots: usize) -> Part {
        Part {
            slots: vec![[EMPTY, 0]; slots.max(8)],
            len: 0,
            overflow: false,
        }
    }

    pub(super) fn home(&self, hash: u64) -> usize {
        // The top bits chose the part; the rest choose the slot.
        (((hash << 5) as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Adds `count` to `key` (inserting it), growing first when the part is nearly full.
    pub(super) fn add(&mut self, key: u64, count: u64, hash: u64) {
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
    pub(super) fn add_all(&mut self, items: &[(u64, u64)]) {
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

    pub(super) fn get(&self, key: u64, hash: u64) -> Option<u64> {
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

    pub(super) fn grow(&mut self) {
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
    pub(super) parts: Vec<Part>,
}

pub(super) fn part_of(hash: u64) -> usize {
    (hash >> 59) as usize
}

/// The pairs one task emits into a [`StateTable::fill`], buffered by the table part they go to.
#[derive(Debug)]
pub struct Emitted {
    pub(super) buffers: Vec<Vec<(u64, u64)>>,
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
    pub fn fill<F>(mut self, inputs: usize, emit_all: F) -> Result<StateTable, ShardError>
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
            return Err(ShardError::TooLarge("a state count passed 2^64".into()));
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
pub(super) struct SortedPart {
    pub(super) entries: Vec<[u64; 2]>,
    pub(super) starts: Vec<u64>,
    pub(super) bits: u32,
}

impl SortedPart {
    pub(super) fn new(slots: Vec<[u64; 2]>) -> SortedPart {
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
    pub(super) fn bucket(hash: u64, bits: u32) -> usize {
        ((hash << 5) >> (64 - bits)) as usize
    }

    pub(super) fn run(&self, hash: u64) -> (usize, usize) {
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
    pub(super) parts: Vec<SortedPart>,
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
