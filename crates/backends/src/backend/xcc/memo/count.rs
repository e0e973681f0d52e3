//! The memo counter proper: the count of a state (covered items as `W` words), cached in a
//! bounded hash map (flushed whole when full), with sweep or MRV branching and, under MRV,
//! component splitting. See the parent module for the method and its costs.
//!
//! The counts are a [`Tally`]: `u64` or `u128` (checked: a sum or product past the type's
//! range halts the count with [`Halt::Overflow`]) or `BigUint` (exact at any size, a heap
//! number per cached state).

use super::{Branching, MemoProblem};
use crate::backend::stop::Alarm;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

/// The number type the counter sums and multiplies in.
pub(crate) trait Tally: Clone {
    /// `0`.
    fn none() -> Self;
    /// `1`.
    fn one() -> Self;
    /// Whether it is `0`.
    fn is_none(&self) -> bool;
    /// `self + other`, or `None` when the type cannot hold it.
    fn plus(self, other: &Self) -> Option<Self>;
    /// `self * other`, or `None` when the type cannot hold it.
    fn times(self, other: &Self) -> Option<Self>;
    /// The value as a `BigUint`.
    fn big(self) -> BigUint;
}

/// `Tally` for a machine integer, its sums and products checked.
macro_rules! checked_tally {
    ($($int:ty),*) => {$(
        impl Tally for $int {
            fn none() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
            fn is_none(&self) -> bool {
                *self == 0
            }
            fn plus(self, other: &Self) -> Option<Self> {
                self.checked_add(*other)
            }
            fn times(self, other: &Self) -> Option<Self> {
                self.checked_mul(*other)
            }
            fn big(self) -> BigUint {
                BigUint::from(self)
            }
        }
    )*};
}

checked_tally!(u64, u128);

impl Tally for BigUint {
    fn none() -> Self {
        BigUint::zero()
    }
    fn one() -> Self {
        <BigUint as One>::one()
    }
    fn is_none(&self) -> bool {
        self.is_zero()
    }
    fn plus(self, other: &Self) -> Option<Self> {
        Some(self + other)
    }
    fn times(self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn big(self) -> BigUint {
        self
    }
}

/// Why a count stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Halt {
    /// The time limit passed or the stop flag was raised.
    Time,
    /// A `u128` count passed 2^128 (the caller counts again in `BigUint`).
    Overflow,
    /// At the [`Checkpoint`], too few states had been found in the cache.
    Abandoned,
    /// The forward counter ([`super::frontier`]) would hold more states than the cache may
    /// (the caller counts again by the recursion, whose cache is flushed when full).
    Full,
}

/// A test of the cache's use once a count has run for a while: when the time `at` has
/// passed (read with the clock, every [`super::CLOCK_EVERY`] nodes) and at least
/// `after_nodes` nodes have been counted, a count whose cache hits are fewer than
/// `min_hits_per_node` per node counted stops with [`Halt::Abandoned`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Checkpoint {
    /// When to look, at the earliest.
    pub at: std::time::Instant,
    /// The fewest nodes counted before the look (0: the time alone decides; with a time
    /// already passed, the look is at a fixed node, whatever the machine's speed).
    pub after_nodes: u64,
    /// The fewest cache hits per node to go on.
    pub min_hits_per_node: f64,
}

/// The test made at each node a count takes (the recursion's and the layers' alike):
/// `Err(Halt::Time)` when `alarm` rings; every [`super::CLOCK_EVERY`] nodes, the test of
/// `checkpoint`, if any: once its time has passed, `Err(Halt::Abandoned)` when the cache hits
/// are too few per node, else the checkpoint is removed (the count goes on with none). Cost:
/// one decrement per node, and a clock read every [`super::CLOCK_EVERY`].
#[inline]
pub(super) fn poll(
    alarm: &mut Alarm,
    checkpoint: &mut Option<Checkpoint>,
    stats: &MemoStats,
) -> Result<(), Halt> {
    if alarm.rings() {
        return Err(Halt::Time);
    }
    if stats.nodes % super::CLOCK_EVERY != 0 {
        return Ok(());
    }
    let Some(c) = *checkpoint else {
        return Ok(());
    };
    if stats.nodes < c.after_nodes || std::time::Instant::now() < c.at {
        return Ok(());
    }
    *checkpoint = None;
    let (hits, nodes) = (stats.hits as f64, stats.nodes as f64);
    if hits < c.min_hits_per_node * nodes {
        return Err(Halt::Abandoned);
    }
    Ok(())
}

/// What the counter did, for `Stats`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MemoStats {
    /// States counted (cache misses).
    pub nodes: u64,
    /// States found in the cache.
    pub hits: u64,
    /// States in the cache at the end.
    pub states: u64,
    /// The most states the cache may hold.
    pub limit: u64,
    /// Times the cache was full and emptied.
    pub flushes: u64,
    /// Nodes split into two or more components.
    pub splits: u64,
    /// Whether `memo-sweep`'s layers ([`super::frontier`]) outgrew the cache, so the count
    /// was made again by the recursion (`nodes` and `hits` cover both).
    pub layers_full: bool,
}

/// A hasher for states: the words folded by multiply and rotate (the keys are bitsets, so
/// the mixing needs to spread nearby bits, nothing more; no protection against chosen keys).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FoldHash(u64);

impl Hasher for FoldHash {
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        // A key of words arrives here whole (`[u64; W]` hashes as one slice of bytes).
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.write_u64(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(26);
    }
    fn write_usize(&mut self, _len: usize) {
        // The length of a fixed-size key says nothing.
    }
}

impl BuildHasher for FoldHash {
    type Hasher = FoldHash;
    fn build_hasher(&self) -> FoldHash {
        FoldHash(0)
    }
}

/// The memo counter over `W`-word states, counting in `V`.
pub(crate) struct Memo<'a, const W: usize, V: Tally> {
    p: &'a MemoProblem,
    branching: Branching,
    /// Per option its mask (all zero for a banned option).
    masks: Vec<[u64; W]>,
    /// The primary items' bits.
    primary: [u64; W],
    /// Every item's bits.
    all: [u64; W],
    cache: HashMap<[u64; W], V, FoldHash>,
    max_entries: usize,
    alarm: Alarm,
    /// The test of the cache's use still to come, if any.
    checkpoint: Option<Checkpoint>,
    stats: MemoStats,
}

/// Per option of `p`, its mask as `W` words (all zero for a banned option).
pub(super) fn word_masks<const W: usize>(p: &MemoProblem) -> Vec<[u64; W]> {
    (p.masks.chunks(p.words))
        .map(|c| std::array::from_fn(|w| c.get(w).copied().unwrap_or(0)))
        .collect()
}

/// `a & b != 0`, word by word.
#[inline]
pub(super) fn meets<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
    (0..W).any(|w| a[w] & b[w] != 0)
}

/// `a | b`.
#[inline]
pub(super) fn union<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    std::array::from_fn(|w| a[w] | b[w])
}

/// The mask with bits `0..n` set.
pub(super) fn low_bits<const W: usize>(n: usize) -> [u64; W] {
    std::array::from_fn(|w| match n.saturating_sub(64 * w) {
        0 => 0,
        k if k >= 64 => u64::MAX,
        k => (1u64 << k) - 1,
    })
}

/// The first bit of `primary & !covered`, if any.
#[inline]
pub(super) fn first_open<const W: usize>(covered: &[u64; W], primary: &[u64; W]) -> Option<usize> {
    (0..W)
        .find(|&w| primary[w] & !covered[w] != 0)
        .map(|w| 64 * w + (primary[w] & !covered[w]).trailing_zeros() as usize)
}

impl<'a, const W: usize, V: Tally> Memo<'a, W, V> {
    /// A counter for `p` with `branching`, a cache of at most `max_entries` states, ending
    /// when `alarm` rings or the `checkpoint` finds the cache of little use.
    pub fn new(
        p: &'a MemoProblem,
        branching: Branching,
        max_entries: usize,
        alarm: Alarm,
        checkpoint: Option<Checkpoint>,
    ) -> Self {
        Memo {
            p,
            branching,
            masks: word_masks(p),
            primary: low_bits(p.primary),
            all: low_bits(p.bits),
            cache: HashMap::with_hasher(FoldHash(0)),
            max_entries,
            alarm,
            checkpoint,
            stats: MemoStats {
                limit: max_entries as u64,
                ..MemoStats::default()
            },
        }
    }

    /// What the counter did so far.
    pub fn stats(&self) -> MemoStats {
        MemoStats {
            states: self.cache.len() as u64,
            ..self.stats
        }
    }

    /// The count from `covered`, and up to `want` of its solutions (each `base` and the
    /// options chosen after it).
    pub fn count_with_witnesses(
        &mut self,
        covered: [u64; W],
        base: Vec<u32>,
        want: usize,
    ) -> Result<(V, Vec<Vec<u32>>), Halt> {
        let total = self.count(covered, false)?;
        self.checkpoint = None;
        let mut out = Vec::new();
        if !total.is_none() {
            let mut path = base;
            self.witnesses(covered, &mut path, &mut out, want)?;
        }
        Ok((total, out))
    }

    /// Up to `want` solutions below `covered` (with `path` chosen so far) into `out`: the
    /// first uncovered primary item's live options, each followed only when its sub-problem
    /// has a solution (a count, cached).
    fn witnesses(
        &mut self,
        covered: [u64; W],
        path: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        want: usize,
    ) -> Result<(), Halt> {
        let Some(k) = first_open(&covered, &self.primary) else {
            out.push(path.clone());
            return Ok(());
        };
        let p = self.p;
        for &o in &p.holding[k] {
            let m = self.masks[o as usize];
            if meets(&m, &covered) {
                continue;
            }
            let child = union(&covered, &m);
            if self.count(child, false)?.is_none() {
                continue;
            }
            path.push(o);
            self.witnesses(child, path, out, want)?;
            path.pop();
            if out.len() >= want {
                break;
            }
        }
        Ok(())
    }

    /// The number of ways to cover every primary item left by live options, disjointly, from
    /// `covered`; `connected` when the caller knows the uncovered items form one component.
    fn count(&mut self, covered: [u64; W], connected: bool) -> Result<V, Halt> {
        if first_open(&covered, &self.primary).is_none() {
            return Ok(V::one());
        }
        if let Some(n) = self.cache.get(&covered) {
            self.stats.hits += 1;
            return Ok(n.clone());
        }
        self.stats.nodes += 1;
        poll(&mut self.alarm, &mut self.checkpoint, &self.stats)?;
        let n = match self.branching {
            Branching::Sweep => self.sweep_node(&covered)?,
            Branching::Mrv => self.mrv_node(&covered, connected)?,
        };
        if self.cache.len() >= self.max_entries {
            self.cache.clear();
            self.stats.flushes += 1;
        }
        self.cache.insert(covered, n.clone());
        Ok(n)
    }

    /// The count below `covered`, branching on the first uncovered primary item: its
    /// candidates are the options whose first primary item it is (every primary item before
    /// it is covered).
    fn sweep_node(&mut self, covered: &[u64; W]) -> Result<V, Halt> {
        let k = first_open(covered, &self.primary).expect("checked by the caller");
        let p = self.p;
        self.branch(covered, &p.first[k])
    }

    /// The sum of the counts below `covered` plus each of `options` that it leaves live.
    fn branch(&mut self, covered: &[u64; W], options: &[u32]) -> Result<V, Halt> {
        let mut sum = V::none();
        for &o in options {
            let m = self.masks[o as usize];
            if meets(&m, covered) {
                continue;
            }
            let below = self.count(union(covered, &m), false)?;
            sum = sum.plus(&below).ok_or(Halt::Overflow)?;
        }
        Ok(sum)
    }

    /// The count below `covered` under MRV: every uncovered primary item's live options are
    /// scanned (a dead item gives 0); unless `connected`, the items are split into components
    /// (their counts multiply); else the item with the fewest live options is branched on.
    fn mrv_node(&mut self, covered: &[u64; W], connected: bool) -> Result<V, Halt> {
        let p = self.p;
        // Per uncovered primary item: its bit and the union of its live options.
        let mut reach: Vec<(usize, [u64; W])> = Vec::new();
        let mut best = (u32::MAX, 0usize);
        for w in 0..W {
            let mut open = self.primary[w] & !covered[w];
            while open != 0 {
                let k = 64 * w + open.trailing_zeros() as usize;
                open &= open - 1;
                let mut live = 0u32;
                let mut near = [0u64; W];
                for &o in &p.holding[k] {
                    let m = &self.masks[o as usize];
                    if !meets(m, covered) {
                        live += 1;
                        near = union(&near, m);
                    }
                }
                if live == 0 {
                    return Ok(V::none());
                }
                if live < best.0 {
                    best = (live, k);
                }
                reach.push((k, near));
            }
        }
        if !connected && reach.len() >= 2 {
            let groups = components(&reach);
            if groups.len() >= 2 {
                self.stats.splits += 1;
                let mut product = V::one();
                for group in groups {
                    // Everything outside the component counts as covered.
                    let key: [u64; W] = std::array::from_fn(|w| self.all[w] & !group[w]);
                    let n = self.count(key, true)?;
                    product = product.times(&n).ok_or(Halt::Overflow)?;
                    if product.is_none() {
                        break;
                    }
                }
                return Ok(product);
            }
        }
        self.branch(covered, &p.holding[best.1])
    }
}

/// The items of each component of the uncovered primary items `reach` (each with the union
/// of its live options): two items are linked when their unions meet (a live option holds
/// both, or their options share a secondary item). Costs at most `reach.len()^2` unions.
fn components<const W: usize>(reach: &[(usize, [u64; W])]) -> Vec<[u64; W]> {
    let mut done = vec![false; reach.len()];
    let mut groups = Vec::new();
    for s in 0..reach.len() {
        if done[s] {
            continue;
        }
        done[s] = true;
        let mut group = reach[s].1;
        let mut grew = true;
        while grew {
            grew = false;
            for (j, (_, near)) in reach.iter().enumerate() {
                if !done[j] && meets(near, &group) {
                    done[j] = true;
                    group = union(&group, near);
                    grew = true;
                }
            }
        }
        groups.push(group);
    }
    groups
}
