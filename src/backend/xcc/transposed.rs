//! The "transposed" engine for exact cover with few options per item (Langford pairs, n-queens,
//! Sudoku-sized items): per primary item, the set of its live options as one 64-bit word
//! indexed by the option's place in the item's list, so that an item's count of live options
//! is one popcount and MRV needs no counts kept up to date.
//!
//! Choosing option `o` kills every option sharing an item with it (primary or secondary): per
//! primary item `j`, the options of `j` that conflict with `o` are one precomputed word
//! (`kill[o][j]`), so a choice is one AND-NOT per primary item (the compiler makes it SIMD),
//! whatever the number of options killed, and the items `o` covers leave the open set. A
//! branch writes its state into the next frame, so backtracking costs nothing.
//!
//! Branching: MRV over the open primary items (the first met with at most one live option
//! ends the scan). Ties go to the item with the highest degree (the sum over its options of the
//! options each conflicts with: the textbook tie-break of MRV, which on n-queens puts the
//! middle rows and columns first, Knuth's "organ-pipe" order, and takes 14-queens from 10.4
//! to 6.2 million nodes), then to the model's order. When one primary item is left open,
//! each of its live options completes a solution and none is descended into.
//!
//! Takes exact cover (primary and secondary items; items with `hi = 0` ban their options)
//! with at most [`MAX_ITEMS`] primary items, each with at most [`MAX_ITEM_OPTIONS`] options,
//! and kill tables within [`MAX_TABLE_BYTES`]. Costs per node: one scan of the open items
//! (popcount each), then per branch one AND-NOT per primary item. Memory: the kill tables,
//! `options x primary items x 8` bytes, and one frame of `primary items` words per depth.
//! Statistics: nodes, the search profile, guesses, backtracks, solutions.

use std::time::{Duration, Instant};

use super::problem::Problem;
use super::search::{Ending, Tally};
use crate::backend::stop::Alarm;
use crate::backend::Stats;

/// The most primary items this engine takes: one bit each in a `u128` open set.
pub(crate) const MAX_ITEMS: usize = 128;

/// The most options a primary item may have: one bit each in a 64-bit word.
pub(crate) const MAX_ITEM_OPTIONS: usize = 64;

/// The most bytes the kill tables may take, so that they stay in the core's caches; larger
/// problems go to the other engines.
pub(crate) const MAX_TABLE_BYTES: usize = 512 << 10;

/// How often (in nodes) the clock and the stop flag are read (first at the first node).
const CLOCK_EVERY: u64 = 1 << 12;

/// A problem in the form the transposed engine reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct TransposedProblem {
    /// Primary items (their engine order is by degree, see the module docs).
    items: usize,
    /// Per option, per primary item: the item's options (as local bits) that the option
    /// kills, itself included (`items` words per option).
    kill: Vec<u64>,
    /// Per option: the primary items it covers (engine order).
    covers: Vec<u128>,
    /// The options of engine item `j` in local-bit order: `ids[j * 64 + k]` is bit `k`.
    ids: Vec<u32>,
    /// The live local bits of each item at the root (options of `<= 0` rows left out).
    root: Vec<u64>,
    /// Per option: an engine item and local bit where its liveness shows (`None`: it can
    /// never be chosen), for the givens.
    place: Vec<Option<(u32, u32)>>,
}

impl TransposedProblem {
    /// The transposed form of `p`, or `None` when some item is not an exact-cover item, when
    /// more than [`MAX_ITEMS`] primary items bind, when a primary item has more than
    /// [`MAX_ITEM_OPTIONS`] options, when the kill tables would pass [`MAX_TABLE_BYTES`], or
    /// when the problem is impossible.
    pub fn of(p: &Problem) -> Option<TransposedProblem> {
        let mut primary = Vec::new();
        let mut binding = Vec::new();
        let mut banned = vec![false; p.num_options];
        for i in 0..p.num_items() {
            let len = p.options_of(i).len();
            match (p.lo[i], p.hi[i]) {
                (_, 0) => p
                    .options_of(i)
                    .iter()
                    .for_each(|&o| banned[o as usize] = true),
                (1, 1) if len <= MAX_ITEM_OPTIONS => {
                    primary.push(i);
                    binding.push(i);
                }
                (0, 1) => binding.push(i),
                (0, hi) if hi as usize >= len => {}
                _ => return None,
            }
        }
        let bytes = p
            .num_options
            .saturating_mul(primary.len())
            .saturating_mul(8);
        if p.impossible || primary.len() > MAX_ITEMS || bytes > MAX_TABLE_BYTES {
            return None;
        }
        // Per option, the options it conflicts with (sharing a binding item), as a sorted list.
        let conflicts = conflict_lists(p, &binding);
        let primary = by_degree(p, primary, &conflicts);
        let n = primary.len();
        let mut engine_item = vec![u32::MAX; p.num_items()];
        for (j, &i) in primary.iter().enumerate() {
            engine_item[i] = j as u32;
        }
        let mut ids = vec![u32::MAX; n * MAX_ITEM_OPTIONS];
        let mut root = vec![0u64; n];
        // Per option, its (item, bit) in each primary item it sits in.
        let mut places: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.num_options];
        for (j, &i) in primary.iter().enumerate() {
            for (k, &o) in p.options_of(i).iter().enumerate() {
                ids[j * MAX_ITEM_OPTIONS + k] = o;
                places[o as usize].push((j as u32, k as u32));
                if !banned[o as usize] {
                    root[j] |= 1 << k;
                }
            }
        }
        let mut kill = vec![0u64; p.num_options * n];
        let mut covers = vec![0u128; p.num_options];
        for o in 0..p.num_options {
            let row = &mut kill[o * n..(o + 1) * n];
            for &q in &conflicts[o] {
                for &(j, k) in &places[q as usize] {
                    row[j as usize] |= 1 << k;
                }
            }
            covers[o] = places[o].iter().fold(0u128, |m, &(j, _)| m | 1 << j);
        }
        let place = (0..p.num_options)
            .map(|o| places[o].first().copied().filter(|_| !banned[o]))
            .collect();
        Some(TransposedProblem {
            items: n,
            kill,
            covers,
            ids,
            root,
            place,
        })
    }
}

/// Per option, the options sharing a binding item with it (itself included), ascending.
fn conflict_lists(p: &Problem, binding: &[usize]) -> Vec<Vec<u32>> {
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); p.num_options];
    for &i in binding {
        let options = p.options_of(i);
        for &o in options {
            lists[o as usize].extend_from_slice(options);
        }
    }
    for l in &mut lists {
        l.sort_unstable();
        l.dedup();
    }
    lists
}

/// `primary` sorted by degree, highest first (stable: the model's order breaks ties), where an
/// item's degree is the sum over its options of how many options each conflicts with.
fn by_degree(p: &Problem, mut primary: Vec<usize>, conflicts: &[Vec<u32>]) -> Vec<usize> {
    let degree = |i: usize| -> usize {
        p.options_of(i)
            .iter()
            .map(|&o| conflicts[o as usize].len())
            .sum()
    };
    primary.sort_by_key(|&i| std::cmp::Reverse(degree(i)));
    primary
}

/// The search over one [`TransposedProblem`] (recursive: its depth is at most the primary
/// items).
struct Search<'a> {
    p: &'a TransposedProblem,
    /// One frame of `items` words per depth: frame `d` is the state at depth `d`.
    frames: Vec<u64>,
    /// The chosen options, givens first; `chosen[..len]` is the current path.
    chosen: Vec<u32>,
    tally: Tally,
    /// The deadline and the thread's stop flag (Ctrl-C in Python), read every [`CLOCK_EVERY`]
    /// nodes.
    alarm: Alarm,
    ending: Ending,
    found: &'a mut dyn FnMut(&[u32]) -> bool,
}

/// Runs the search from `givens`, calling `found` with the chosen options (givens included) of
/// each solution; `found` returns `false` to stop.
pub(crate) fn run(
    p: &TransposedProblem,
    givens: &[usize],
    time_limit: Option<Duration>,
    stats: &mut Stats,
    found: &mut dyn FnMut(&[u32]) -> bool,
) -> Ending {
    let start = Instant::now();
    let n = p.items;
    let mut frames = vec![0u64; n * (n + 2)];
    frames[..n].copy_from_slice(&p.root);
    let mut open = if n == MAX_ITEMS { !0 } else { (1u128 << n) - 1 };
    let mut chosen = Vec::with_capacity(givens.len() + n + 1);
    for &g in givens {
        let live = p
            .place
            .get(g)
            .copied()
            .flatten()
            .is_some_and(|(j, k)| open >> j & 1 == 1 && frames[j as usize] >> k & 1 == 1);
        if !live {
            return Ending::Exhausted;
        }
        let kill = &p.kill[g * n..(g + 1) * n];
        frames[..n].iter_mut().zip(kill).for_each(|(w, k)| *w &= !k);
        open &= !p.covers[g];
        chosen.push(g as u32);
    }
    let base = chosen.len();
    chosen.resize(base + n + 1, 0);
    let mut search = Search {
        p,
        frames,
        chosen,
        tally: Tally::new(n + 1),
        alarm: Alarm::new(start, time_limit, CLOCK_EVERY),
        ending: Ending::Exhausted,
        found,
    };
    search.descend(open, base);
    search.tally.write(stats, start);
    search.ending
}

impl Search<'_> {
    /// Searches from the root (frame 0, `open` uncovered, the givens `chosen[..base]`), compiled
    /// with the CPU's popcount instruction where it has one (not part of baseline x86-64; the
    /// software popcount made the MRV scan half of the time on Langford pairs).
    fn descend(&mut self, open: u128, base: usize) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the popcnt instruction (checked just above).
            unsafe { self.node_popcnt(0, open, base) };
            return;
        }
        self.node(0, open, base);
    }

    /// [`Search::node`] compiled with the popcnt instruction.
    ///
    /// # Safety
    /// The CPU must have the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn node_popcnt(&mut self, depth: usize, open: u128, len: usize) {
        // SAFETY: reached only from `descend` after its check, or from itself.
        self.node_with(depth, open, len, |s, d, o, l| unsafe {
            s.node_popcnt(d, o, l)
        });
    }

    /// Searches below the node at `depth` (its state in frame `depth`) with the primary items
    /// `open` still uncovered and the path `chosen[..len]`.
    fn node(&mut self, depth: usize, open: u128, len: usize) {
        self.node_with(depth, open, len, Search::node);
    }

    /// The body of [`Search::node`], descending through `descend` (inlined into each compiled
    /// variant, so that each uses its own instructions).
    #[inline(always)]
    fn node_with(
        &mut self,
        depth: usize,
        open: u128,
        len: usize,
        descend: impl Fn(&mut Self, usize, u128, usize),
    ) {
        if open == 0 {
            self.solution(len);
            return;
        }
        if self.alarm.rings() {
            self.ending = Ending::TimedOut;
            return;
        }
        let p = self.p;
        let n = p.items;
        let (item, count) = least(&self.frames[depth * n..(depth + 1) * n], open);
        if count == 0 {
            self.tally.backtracks += 1;
            return;
        }
        let mut live = self.frames[depth * n + item];
        let ids = &p.ids[item * MAX_ITEM_OPTIONS..];
        let mut taken = 0;
        if open & (open - 1) == 0 {
            // The last open item: each live option completes a solution.
            while live != 0 && self.ending == Ending::Exhausted {
                self.chosen[len] = ids[live.trailing_zeros() as usize];
                live &= live - 1;
                taken += 1;
                self.solution(len + 1);
            }
        } else {
            while live != 0 {
                let o = ids[live.trailing_zeros() as usize] as usize;
                live &= live - 1;
                taken += 1;
                let (parent, child) = self.frames.split_at_mut((depth + 1) * n);
                let parent = &parent[depth * n..];
                let kill = &p.kill[o * n..(o + 1) * n];
                for ((c, &w), &k) in child[..n].iter_mut().zip(parent).zip(kill) {
                    *c = w & !k;
                }
                self.chosen[len] = o as u32;
                descend(self, depth + 1, open & !p.covers[o], len + 1);
                if self.ending != Ending::Exhausted {
                    break;
                }
            }
        }
        self.tally.node(depth, taken, self.ending);
    }

    /// Reports the solution `chosen[..len]`.
    fn solution(&mut self, len: usize) {
        self.tally.solutions += 1;
        if !(self.found)(&self.chosen[..len]) {
            self.ending = Ending::Stopped;
        }
    }
}

/// The first open item (in engine order) with the fewest live options, and that number; the
/// scan ends at the first item with at most one.
#[inline(always)]
fn least(frame: &[u64], open: u128) -> (usize, u32) {
    let mut best = (0, u32::MAX);
    let mut bits = open;
    while bits != 0 {
        let j = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let count = frame[j].count_ones();
        if count < best.1 {
            best = (j, count);
            if count <= 1 {
                break;
            }
        }
    }
    best
}
