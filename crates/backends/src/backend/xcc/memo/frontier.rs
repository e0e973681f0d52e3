//! `memo-sweep` counted forwards, layer by layer: the same states as the cached recursion of
//! [`super::count`], met in another order. A state whose first uncovered primary bit is `k`
//! only leads to states whose first uncovered bit is after `k`, so the states can be taken
//! in layers by that bit: each state of layer `k` carries the number of ways to reach it,
//! and adds it to each child it reaches by an option whose first primary bit is `k` (one
//! look-up in the child's layer: a new state, or a hit that merges two ways of getting
//! there). The count is the sum over the states with every primary item covered. This is the
//! frontier dynamic programme of `dp` run on `xcc`'s masks: no recursion, no look-up of a
//! state already counted, and each layer's table holds only its own states (measured on Latin
//! squares of order 6, 13.3 million states: 3.3 s for the recursion, see the README's `xcc`
//! section for this engine's time).
//!
//! Witnesses are read backwards: every layer is kept (as the recursion keeps its cache), and
//! a solution is rebuilt from a covered state by finding, among the options inside it, one
//! whose removal gives a state of the layer of its first primary bit. Every kept state was
//! reached from the root, so each step back succeeds and each path found is a solution.
//!
//! Costs: per state, one look-up per live option of its layer's item (as the recursion's
//! mask tests); memory: every state met, with its count (a `u64`, `u128` or `BigUint`), in
//! tables of at most the cache's number of entries in all, past which the count stops with
//! [`Halt::Full`] and the caller counts again by the recursion, whose cache is flushed when
//! full (the time until then is spent twice). Per witness: at most one pass over the options
//! per option chosen.

use std::collections::HashMap;

use super::count::{first_open, low_bits, meets, poll, union, word_masks};
use super::count::{Checkpoint, FoldHash, Halt, MemoStats, Tally};
use super::MemoProblem;
use crate::backend::stop::Alarm;

/// One layer: states (covered items) with the number of ways to reach each.
type Layer<const W: usize, V> = HashMap<[u64; W], V, FoldHash>;

/// The forward counter over `W`-word states, counting in `V`.
pub(crate) struct Frontier<'a, const W: usize, V: Tally> {
    p: &'a MemoProblem,
    /// Per option its mask (all zero for a banned option).
    masks: Vec<[u64; W]>,
    /// The primary items' bits.
    primary: [u64; W],
    /// Per first uncovered primary bit, its states; `layers[p.primary]` holds the states
    /// with every primary item covered.
    layers: Vec<Layer<W, V>>,
    /// The most states all layers may hold together.
    max_entries: usize,
    alarm: Alarm,
    checkpoint: Option<Checkpoint>,
    stats: MemoStats,
}

impl<'a, const W: usize, V: Tally> Frontier<'a, W, V> {
    /// A counter for `p` holding at most `max_entries` states, ending when `alarm` rings or
    /// the `checkpoint` finds too few hits.
    pub fn new(
        p: &'a MemoProblem,
        max_entries: usize,
        alarm: Alarm,
        checkpoint: Option<Checkpoint>,
    ) -> Self {
        Frontier {
            p,
            masks: word_masks(p),
            primary: low_bits(p.primary),
            layers: (0..=p.primary)
                .map(|_| HashMap::with_hasher(FoldHash::default()))
                .collect(),
            max_entries,
            alarm,
            checkpoint,
            stats: MemoStats {
                limit: max_entries as u64,
                ..MemoStats::default()
            },
        }
    }

    /// What the counter did so far (`states`: every layer's, the layer of states with every
    /// primary item covered included).
    pub fn stats(&self) -> MemoStats {
        MemoStats {
            states: self.layers.iter().map(|l| l.len() as u64).sum(),
            ..self.stats
        }
    }

    /// The count from `root`, and up to `want` of its solutions (each `base` and the options
    /// chosen after it).
    pub fn count_with_witnesses(
        &mut self,
        root: [u64; W],
        base: Vec<u32>,
        want: usize,
    ) -> Result<(V, Vec<Vec<u32>>), Halt> {
        let done = self.p.primary;
        let Some(start) = first_open(&root, &self.primary) else {
            return Ok((V::one(), vec![base]));
        };
        self.layers[start].insert(root, V::one());
        for k in start..done {
            self.expand(k)?;
        }
        let mut total = V::none();
        for ways in self.layers[done].values() {
            total = total.plus(ways).ok_or(Halt::Overflow)?;
        }
        let mut out = Vec::new();
        let ends: Vec<[u64; W]> = self.layers[done].keys().copied().collect();
        for end in ends {
            if out.len() >= want {
                break;
            }
            self.paths_to(end, &root, &mut Vec::new(), &mut out, want);
        }
        for path in &mut out {
            path.reverse();
            path.splice(0..0, base.iter().copied());
        }
        Ok((total, out))
    }

    /// Hands the ways to reach each state of layer `k` on to its children (the layer is kept).
    fn expand(&mut self, k: usize) -> Result<(), Halt> {
        let layer = std::mem::take(&mut self.layers[k]);
        let mut held: usize = self.layers.iter().map(|l| l.len()).sum::<usize>() + layer.len();
        for (state, ways) in &layer {
            self.stats.nodes += 1;
            poll(&mut self.alarm, &mut self.checkpoint, &self.stats)?;
            for &o in &self.p.first[k] {
                let m = &self.masks[o as usize];
                if meets(m, state) {
                    continue;
                }
                let child = union(state, m);
                let to = first_open(&child, &self.primary).unwrap_or(self.p.primary);
                // A look-up, then an insert on a miss: `entry` was slower on models whose
                // look-ups mostly hit (set partitions of 15 items: 98 ms against 85-96 ms).
                if let Some(sum) = self.layers[to].get_mut(&child) {
                    if to < self.p.primary {
                        self.stats.hits += 1;
                    }
                    *sum = std::mem::replace(sum, V::none())
                        .plus(ways)
                        .ok_or(Halt::Overflow)?;
                    continue;
                }
                if held >= self.max_entries {
                    return Err(Halt::Full);
                }
                held += 1;
                self.layers[to].insert(child, ways.clone());
            }
        }
        self.layers[k] = layer;
        Ok(())
    }

    /// Up to `want` paths (options in reverse order of choice) from `root` to `state` into
    /// `out`, each `path` followed by the options leading back from `state`: for each option
    /// inside `state` whose removal leaves a kept state of the layer of its first primary bit.
    /// Cost per step back: at most one mask test per option and one look-up per option inside
    /// `state`; no step is wasted, since every kept state was reached from the root.
    fn paths_to(
        &self,
        state: [u64; W],
        root: &[u64; W],
        path: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        want: usize,
    ) {
        if state == *root {
            out.push(path.clone());
            return;
        }
        let open = first_open(&state, &self.primary).unwrap_or(self.p.primary);
        // Latest item first: the last option chosen on a path has the latest first item, and
        // the later an item, the fewer options start there (set partitions: one at the last).
        for b in (0..open).rev() {
            if root_covers(root, b) {
                continue;
            }
            for &o in &self.p.first[b] {
                let m = &self.masks[o as usize];
                if !inside(m, &state) {
                    continue;
                }
                let before: [u64; W] = std::array::from_fn(|w| state[w] & !m[w]);
                if !self.layers[b].contains_key(&before) {
                    continue;
                }
                path.push(o);
                self.paths_to(before, root, path, out, want);
                path.pop();
                if out.len() >= want {
                    return;
                }
            }
        }
    }
}

/// Whether bit `b` is set in `root`.
fn root_covers<const W: usize>(root: &[u64; W], b: usize) -> bool {
    root[b / 64] >> (b % 64) & 1 == 1
}

/// Whether every bit of `a` is in `b`.
fn inside<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
    (0..W).all(|w| a[w] & !b[w] == 0)
}
