//! The `memo` engines of `xcc`: exact cover and XCC counted without listing the solutions, by
//! caching the count of every sub-problem met (Nishino et al., "Dancing with Decision
//! Diagrams", AAAI 2017: the count below a node depends only on the items still uncovered) and,
//! in `memo-mrv`, by splitting the uncovered items into independent components whose counts
//! multiply.
//!
//! The state of a sub-problem is the set of covered items (primary and secondary) as a bitset:
//! an option is live when it touches no covered item. Primary items must all be covered; a
//! secondary item (an "at most one" row) may be covered at most once. Counts are exact at any
//! size: the counter runs in checked `u64`, a count that passes 2^64 is counted again from
//! the start in checked `u128`, and one that passes 2^128 again in `BigUint`
//! (`extra.big_integers`; the time until each overflow is spent again, and the cache holds a
//! heap number per state), never wrapped. Items with other multiplicities
//! (`= k`, `<= k` with `k >= 2`, `>= k`) are refused by name: the key would then need the
//! multiplicities left and the options already passed over; the `counts` engine takes them.
//! The colours of Knuth's XCC files reach this layer as rows of that kind, so a file with
//! colours is refused too (not done yet: colours in the key).
//!
//! Branching (see [`Branching`]): `memo-sweep` takes the first uncovered primary item of the
//! `sweep` engine's item order (space before labels) and tries the options whose first primary
//! item it is, one mask test each, so the covered items form a moving frontier; it counts
//! forwards, layer by layer of that item ([`frontier`]: the same states, no recursion), and by
//! the cached recursion only when the layers would outgrow the cache; `memo-mrv`
//! scans every uncovered primary item's live options per node (one mask test per incidence),
//! branches on the item with the fewest, and splits the uncovered items into components no
//! live option links (the count is the product of the components' counts, each cached under
//! its own key: every item outside it marked covered). `memo` picks `memo-sweep` (see
//! [`choose`] for the measured rule).
//!
//! The cache is a hash map from state to count holding at most [`Budget::entries`] states;
//! when it is full it is emptied at once (eviction policy: flush all, counted in
//! `extra.flushes`), so its memory stays inside the budget: half of the memory the process can
//! still take (the smaller of the system's available memory and the address-space limit of
//! `--memory-limit` less the address space already used), at most 2 GiB, or param `memo-cache`
//! (a size such as `512M`; a larger cache may overrun a time limit while it doubles). A flush
//! costs recomputation, never a wrong count. `memo-sweep`'s layers hold at most as many
//! states in all, never flushed: past that the count starts again by the recursion
//! (`extra.layers_full`).
//!
//! Counts only: `solve`, `solve --all` and streaming refuse it (status `unsupported`, naming
//! the engines that serve them). Witnesses (up to [`WITNESS_LIMIT`]) are read back from the
//! cache by descending into sub-problems of nonzero count (from the layers: backwards, see
//! [`frontier`]). Time limit and stop flag are read
//! every [`CLOCK_EVERY`] nodes; a run stopped there is reported as timed out with count 0.
//!
//! Costs: per node (a state not in the cache), one hash look-up and insert plus the mask tests
//! above; memory: at most the budget for the cache, one mask of `W` words per option, and a
//! recursion at most twice the number of primary items deep, run on a thread of its own
//! with [`STACK_PER_LEVEL`] of stack per level (address space, touched only as deep as it goes;
//! the layers of `memo-sweep` run on the calling thread up to 240 primary items).

mod count;
mod frontier;

use std::time::{Duration, Instant};

use super::problem::Problem;
use super::sweep;
use crate::backend::memory::{available_memory, gib, parse_size};
use crate::backend::stop::Alarm;
use crate::backend::{
    BackendError, BackendOptions, Count, CountEnd, CountReport, Stats, WITNESS_LIMIT,
};
use crate::model::{Model, Solution};
pub(crate) use count::Checkpoint;
use count::{Halt, Memo, Tally};
use frontier::Frontier;
use num_bigint::BigUint;

/// The most items (primary and secondary) the memo engines take: 16 words of 64 bits a state.
pub(crate) const MAX_ITEMS: usize = 1024;

/// How often (in nodes) the clock and the stop flag are read.
pub(crate) const CLOCK_EVERY: u64 = 1 << 10;

/// The least cache budget: 64 KiB (a smaller `memo-cache` is refused).
const MIN_BUDGET: u64 = 64 << 10;

/// The largest cache budget taken without param `memo-cache`: 2 GiB. The cache grows by
/// doubling, and one doubling of a table of many GiB moves every entry at once (seconds, in
/// which the time limit is not read): STS(13) with half of 22 GiB available ran 7 s past its
/// 60 s limit and was killed. At 2 GiB a doubling moves at most about 16 million entries.
const DEFAULT_BUDGET_CAP: u64 = 2 << 30;

/// How the memo counter picks the item to branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branching {
    /// The first uncovered primary item of a fixed order (see the module docs).
    Sweep,
    /// The uncovered primary item with the fewest live options, with component splitting.
    Mrv,
}

/// The branching `memo` uses for `problem`: always [`Branching::Sweep`]. Measured (release, 2
/// loaded cores, user CPU, see the README's `xcc` section): `memo-sweep` against `memo-mrv`
/// on Bell(15) 0.20 s against 2.17 s, 23!! 0.02 s against 0.08 s, Latin squares of order 5
/// 0.01 s against 0.11 s, pentominoes 6x10 1.48 s against 15.3 s: the per-node scan of every
/// open item costs more than the components save.
fn choose(_problem: &MemoProblem) -> Branching {
    Branching::Sweep
}

/// The memory the cache may take, and what it allows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// Bytes allowed for the cache.
    pub bytes: u64,
}

impl Budget {
    /// The budget from param `memo-cache` when given, else half of what the process can still
    /// take (see the module docs). A value that is no size, or below 64 KiB, is refused.
    pub fn of(options: &BackendOptions) -> Result<Option<Budget>, BackendError> {
        let Some(text) = options.params.get("memo-cache") else {
            return Ok(None);
        };
        match parse_size(text) {
            Some(bytes) if bytes >= MIN_BUDGET => Ok(Some(Budget { bytes })),
            _ => Err(BackendError::BadOption {
                backend: "xcc".into(),
                key: "memo-cache".into(),
                value: text.clone(),
                expected: "a size of at least 64K (bytes, or a number with K, M, G or T)".into(),
            }),
        }
    }

    /// Half of what this process can still take (the smaller of the system's available
    /// memory and the room left under its address-space limit; 1 GiB when neither is known),
    /// at most [`DEFAULT_BUDGET_CAP`].
    pub fn default_now() -> Budget {
        let room = address_space_room();
        let available = match (available_memory(), room) {
            (Some(a), Some(r)) => a.min(r),
            (a, r) => a.or(r).unwrap_or(2 << 30),
        };
        Budget {
            bytes: (available / 2).clamp(MIN_BUDGET, DEFAULT_BUDGET_CAP),
        }
    }

    /// The most states a cache of `words`-word keys may hold within the budget: each entry
    /// is costed at four times its key, count and control byte (the table is at most 7/8
    /// full, grows by doubling, and holds the old table while it grows).
    pub fn entries(&self, words: usize) -> usize {
        let entry = 4 * (8 * words as u64 + 16 + 1);
        (self.bytes / entry).clamp(64, usize::MAX as u64) as usize
    }
}

/// The address space this process may still map: its `RLIMIT_AS` (`/proc/self/limits`) less
/// what it has mapped (`VmSize`); `None` without a limit or without `/proc`.
fn address_space_room() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let size = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let used_kb: u64 = size["VmSize:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(soft.saturating_sub(used_kb * 1024))
}

/// A problem in the form the memo counter reads: items renumbered so that the primary items
/// come first in branching order (bits `0..primary`), the secondary ones after; each option as
/// a mask of `words` words (`None`: the option can never be chosen, it sits in a `<= 0` row).
#[derive(Debug, Clone)]
pub(crate) struct MemoProblem {
    /// Words per state (1, 2, 4, 8 or 16).
    pub words: usize,
    /// Primary items (bits `0..primary`).
    pub primary: usize,
    /// Primary and secondary items.
    pub bits: usize,
    /// Per option, its mask (`words` words from `o * words`), all zero for a banned option.
    pub masks: Vec<u64>,
    /// Per option, whether it can be chosen.
    pub allowed: Vec<bool>,
    /// Per primary bit, the allowed options holding it.
    pub holding: Vec<Vec<u32>>,
    /// Per primary bit, the allowed options whose first primary bit it is.
    pub first: Vec<Vec<u32>>,
    /// Some item needs more options than it has: no solution.
    pub impossible: bool,
}

impl MemoProblem {
    /// The memo form of `p` (of `model`), or why the memo engines cannot take it.
    pub fn of(p: &Problem, model: &Model) -> Result<MemoProblem, String> {
        let mut primary = Vec::new();
        let mut secondary = Vec::new();
        let mut allowed = vec![true; p.num_options];
        // Variables no row constrains multiply the count (see `count`): no engine chooses them.
        p.free.iter().for_each(|&v| allowed[v as usize] = false);
        for i in 0..p.num_items() {
            let len = p.options_of(i).len() as u32;
            match (p.lo[i], p.hi[i]) {
                (_, 0) => p
                    .options_of(i)
                    .iter()
                    .for_each(|&o| allowed[o as usize] = false),
                (1, 1) => primary.push(i),
                (0, 1) => secondary.push(i),
                (0, hi) if hi >= len => {}
                (lo, hi) => {
                    return Err(format!(
                        "counts exact cover only (rows '= 1' and '<= 1'); item {i} needs {lo} \
                         to {hi} options (multiplicities go to engine 'counts')"
                    ))
                }
            }
        }
        let bits = primary.len() + secondary.len();
        if bits > MAX_ITEMS {
            return Err(format!(
                "takes at most {MAX_ITEMS} binding items; this model has {bits}"
            ));
        }
        let words = bits.div_ceil(64).max(1).next_power_of_two();
        let (order, _, _) = sweep::item_order(p, model.constraints().len(), &primary);
        let mut bit = vec![u32::MAX; p.num_items()];
        for (k, &i) in order.iter().chain(&secondary).enumerate() {
            bit[i] = k as u32;
        }
        let mut masks = vec![0u64; p.num_options * words];
        let mut holding = vec![Vec::new(); primary.len()];
        let mut first = vec![Vec::new(); primary.len()];
        for o in (0..p.num_options).filter(|&o| allowed[o]) {
            let mask = &mut masks[o * words..(o + 1) * words];
            let mut lowest = u32::MAX;
            for &i in p.items_of(o) {
                let b = bit[i as usize];
                if b == u32::MAX {
                    continue;
                }
                mask[b as usize / 64] |= 1 << (b % 64);
                if (b as usize) < primary.len() {
                    holding[b as usize].push(o as u32);
                    lowest = lowest.min(b);
                }
            }
            if lowest == u32::MAX {
                return Err(format!(
                    "needs a primary item in every option; option {o} has none"
                ));
            }
            first[lowest as usize].push(o as u32);
        }
        Ok(MemoProblem {
            words,
            primary: primary.len(),
            bits,
            masks,
            allowed,
            holding,
            first,
            impossible: p.impossible,
        })
    }
}

impl MemoProblem {
    /// An upper bound on the mask tests `memo-sweep` makes on this problem (saturating at
    /// `u64::MAX`), known before it runs: a state whose first uncovered primary bit is `k`
    /// has every bit before `k` covered, and its covered bits after `k` are bits of options
    /// chosen earlier (options whose first primary bit is before `k`), so there are at most
    /// `2^r(k)` such states, `r(k)` the number of bits after `k` those options reach; each
    /// tests the options whose first primary bit is `k`. The sum over `k` is small on sets of
    /// options that reach few bits ahead of the item order or few items in all (set
    /// partitions of 10 items: about 350,000; perfect matchings of 14 points: about 200,000)
    /// and astronomical on wide ones (Latin squares, pentominoes, Sudoku), where it says
    /// nothing. `auto` counts with the memo at once where it is small (see
    /// `crate::backend::auto::COUNT_SWITCH`). Cost: one pass over the allowed options' masks.
    pub fn sweep_work_bound(&self) -> u64 {
        let words = self.words;
        let mut reached = vec![0u64; words];
        let mut total = 0u64;
        for k in 0..self.primary {
            // The bits after k reached by the options whose first primary bit is before k.
            let after: u32 = (0..words)
                .map(|w| (reached[w] & !low_bits_upto(k + 1, w)).count_ones())
                .sum();
            let states = 1u64.checked_shl(after).unwrap_or(u64::MAX);
            let work = states.saturating_mul(self.first[k].len() as u64);
            total = total.saturating_add(work);
            for &o in &self.first[k] {
                let mask = &self.masks[o as usize * words..(o as usize + 1) * words];
                (0..words).for_each(|w| reached[w] |= mask[w]);
            }
        }
        total
    }
}

/// Word `w` of the mask with bits `0..n` set.
fn low_bits_upto(n: usize, w: usize) -> u64 {
    match n.saturating_sub(64 * w) {
        0 => 0,
        k if k >= 64 => u64::MAX,
        k => (1u64 << k) - 1,
    }
}

/// What one memo count found, before the free variables are applied.
struct Counted {
    count: Option<BigUint>,
    witnesses: Vec<Vec<u32>>,
}

/// How a memo count ended.
pub(crate) enum MemoEnd {
    /// With a count report (complete, at the limit, or timed out).
    Counted(CountReport),
    /// At its [`Checkpoint`], with the statistics so far (`extra.cache_hits` among them).
    Abandoned(Stats),
}

/// Counts `model` (its problem `p`, memo form `m`) under `branching` with the cache `budget`,
/// `time_limit`, the count `limit` and the `checkpoint`, as a count report; the free variables
/// of `p` multiply the count (exact at any size).
#[allow(clippy::too_many_arguments)]
pub(crate) fn count(
    p: &Problem,
    m: &MemoProblem,
    model: &Model,
    branching: Option<Branching>,
    budget: Option<Budget>,
    time_limit: Option<Duration>,
    limit: Option<u64>,
    checkpoint: Option<Checkpoint>,
) -> Result<MemoEnd, BackendError> {
    let start = Instant::now();
    let branching = branching.unwrap_or_else(|| choose(m));
    let budget = budget.unwrap_or_else(Budget::default_now);
    let is_free = |v: usize| p.free.binary_search(&(v as u32)).is_ok();
    let givens: Vec<usize> = model.givens().to_vec();
    let free_given: Vec<u32> = givens
        .iter()
        .filter(|&&g| is_free(g))
        .map(|&g| g as u32)
        .collect();
    let open_free = p.free.len() - free_given.len();
    let mut stats = Stats::default();
    // Read on this thread: the stop flag is the caller's.
    let alarm = Alarm::new(start, time_limit, CLOCK_EVERY);
    let run = Run {
        m,
        givens: &givens,
        free: &p.free,
        branching,
        entries: budget.entries(m.words),
        checkpoint,
    };
    let deep = match m.words {
        1 => run.count_exactly::<1>(alarm),
        2 => run.count_exactly::<2>(alarm),
        4 => run.count_exactly::<4>(alarm),
        8 => run.count_exactly::<8>(alarm),
        _ => run.count_exactly::<16>(alarm),
    };
    let (counted, memo_stats, in_big) = deep.map_err(|why| BackendError::TooLarge {
        backend: "xcc".into(),
        reason: format!("engine 'memo' {why}"),
    })?;
    stats.nodes = memo_stats.nodes;
    let extra = &mut stats.extra;
    extra.insert(
        "engine".into(),
        match branching {
            Branching::Sweep => "memo-sweep",
            Branching::Mrv => "memo-mrv",
        }
        .into(),
    );
    extra.insert("items".into(), p.num_items().into());
    extra.insert("options".into(), p.num_options.into());
    extra.insert("cache_hits".into(), memo_stats.hits.into());
    extra.insert("cache_states".into(), memo_stats.states.into());
    extra.insert("cache_limit".into(), memo_stats.limit.into());
    extra.insert("cache_budget".into(), gib(budget.bytes).into());
    extra.insert("flushes".into(), memo_stats.flushes.into());
    extra.insert("components".into(), memo_stats.splits.into());
    if memo_stats.layers_full {
        // The layers outgrew the cache: counted again by the recursion.
        extra.insert("layers_full".into(), true.into());
    }
    if !p.free.is_empty() {
        extra.insert("free".into(), p.free.len().into());
    }
    if in_big {
        extra.insert("big_integers".into(), true.into());
    }
    stats.seconds = start.elapsed().as_secs_f64();
    // A halt is a time-out (Ok with no count) or the checkpoint's; a BigUint count cannot
    // overflow.
    let (core, witnesses) = match counted {
        Ok(Counted {
            count: Some(core),
            witnesses,
        }) => (core, witnesses),
        Err(Halt::Abandoned) => return Ok(MemoEnd::Abandoned(stats)),
        _ => {
            return Ok(MemoEnd::Counted(CountReport {
                count: Count::zero(),
                end: CountEnd::TimedOut,
                witnesses: Vec::new(),
                stats,
            }))
        }
    };
    // Each variable in no row doubles the count.
    let total = Count::from(core << open_free);
    stats.solutions = total.to_u64().unwrap_or(u64::MAX);
    let (count, end) = match limit {
        Some(l) if total >= u128::from(l) => (Count::from(l), CountEnd::AtLimit),
        _ => (total, CountEnd::Complete),
    };
    let witnesses = witnesses
        .into_iter()
        .take(count.min_u128(WITNESS_LIMIT as u128) as usize)
        .map(|chosen| {
            let mut vars: Vec<usize> = chosen
                .iter()
                .map(|&o| o as usize)
                .filter(|&o| o < p.model_options)
                .chain(free_given.iter().map(|&v| v as usize))
                .collect();
            vars.sort_unstable();
            vars.dedup();
            Solution::new(vars)
        })
        .collect();
    Ok(MemoEnd::Counted(CountReport {
        count,
        end,
        witnesses,
        stats,
    }))
}

/// Stack per level of the counter's recursion (two levels per primary item at most), ample
/// for an unoptimised build, whose frames are the largest.
const STACK_PER_LEVEL: usize = 16 << 10;

/// Stack per step of the layered count's walk back from a solution (one step per option
/// chosen, so at most one per primary item): a frame of two states and a loop, far smaller
/// than the recursion's.
const STACK_PER_STEP_BACK: usize = 4 << 10;

/// The deepest recursion (in bytes of stack, see [`STACK_PER_LEVEL`]) run on the calling
/// thread: 1 MiB, half of the 2 MiB Rust gives a spawned thread (the main thread has 8 MiB).
const INLINE_STACK: usize = 1 << 20;

/// Runs `work` on a scoped thread whose stack holds `levels` levels of `per_level` bytes,
/// plus 1 MiB (Rust's spawned threads have 2 MiB, too little for the recursion over 1,024
/// items); on the calling thread when that needs at most [`INLINE_STACK`] (the recursion up to
/// 24 primary items, the layered count's walk back up to 240). A panic in `work` is passed on.
/// Costs one thread start, whose scheduling on a loaded machine took 3-4 ms of wall time (0.2
/// ms of CPU) on models counted in microseconds; the stack is address space, touched only as
/// deep as the recursion goes.
fn on_deep_stack<R: Send>(
    levels: usize,
    per_level: usize,
    work: impl FnOnce() -> R + Send,
) -> Result<R, String> {
    let deepest = (levels + 16) * per_level;
    if deepest <= INLINE_STACK {
        return Ok(work());
    }
    let size = deepest + (1 << 20);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("xcc-memo".into())
            .stack_size(size)
            .spawn_scoped(scope, work)
            .map_err(|e| {
                format!(
                    "could not start its counting thread with {} of stack: {e}",
                    gib(size as u64)
                )
            })?;
        Ok(handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// A count, what the counter did, and whether it was made in `BigUint`.
type Tiered = (Result<Counted, Halt>, count::MemoStats, bool);

/// What one memo count reads.
struct Run<'a> {
    m: &'a MemoProblem,
    givens: &'a [usize],
    /// The variables no row constrains, ascending (a given one is left to the caller).
    free: &'a [u32],
    branching: Branching,
    /// The most states the cache may hold.
    entries: usize,
    /// The test of the cache's use (of the `u64` and `u128` counts, not of the last).
    checkpoint: Option<Checkpoint>,
}

impl Run<'_> {
    /// The memo count with `W`-word states in `u64` under `alarm`, and when that overflows,
    /// again in `u128`, and past that in `BigUint` (each time from the start, under the same
    /// deadline); `true` for the last. The narrow counts come first because they make the
    /// tables smaller: `u64` against `u128` took Latin squares of order 6 from 2.2 s to 2.0 s.
    fn count_exactly<const W: usize>(&self, alarm: Alarm) -> Result<Tiered, String> {
        let (result, stats) = self.count::<W, u64>(alarm.clone(), self.checkpoint)?;
        if !matches!(result, Err(Halt::Overflow)) {
            return Ok((result, stats, false));
        }
        Ok(
            match self.count::<W, u128>(alarm.clone(), self.checkpoint)? {
                (Err(Halt::Overflow), _) => {
                    let (result, stats) = self.count::<W, BigUint>(alarm, None)?;
                    (result, stats, true)
                }
                (result, stats) => (result, stats, false),
            },
        )
    }

    /// The memo count with `W`-word states under `alarm`: the givens applied (a given that
    /// clashes, or that no option may be, gives 0), then the count and up to
    /// [`WITNESS_LIMIT`] witnesses: under [`Branching::Sweep`] forwards by layers
    /// ([`frontier`]), and again by the cached recursion should the layers outgrow the cache;
    /// under [`Branching::Mrv`] by the recursion. `Ok` with no count when the time limit or
    /// the stop flag ended it, `Err(Halt::Abandoned)` when the `checkpoint` did; the outer
    /// `Err` when no thread with the stack the count needs could be started.
    fn count<const W: usize, V: Tally + Send>(
        &self,
        alarm: Alarm,
        checkpoint: Option<Checkpoint>,
    ) -> Result<(Result<Counted, Halt>, count::MemoStats), String> {
        let m = self.m;
        let zero = || Counted {
            count: Some(BigUint::default()),
            witnesses: Vec::new(),
        };
        let nothing = count::MemoStats {
            limit: self.entries as u64,
            ..count::MemoStats::default()
        };
        let Some((root, base)) = self.root::<W>() else {
            return Ok((Ok(zero()), nothing));
        };
        if m.impossible {
            return Ok((Ok(zero()), nothing));
        }
        let mut before = None;
        if self.branching == Branching::Sweep {
            let (counted, stats) = on_deep_stack(m.primary, STACK_PER_STEP_BACK, || {
                let mut layers = Frontier::<W, V>::new(m, self.entries, alarm.clone(), checkpoint);
                let counted = layers.count_with_witnesses(root, base.clone(), WITNESS_LIMIT);
                (finish(counted), layers.stats())
            })?;
            if !matches!(counted, Err(Halt::Full)) {
                return Ok((counted, stats));
            }
            before = Some(stats);
        }
        let (counted, mut stats) = on_deep_stack(2 * m.primary, STACK_PER_LEVEL, || {
            let mut memo = Memo::<W, V>::new(m, self.branching, self.entries, alarm, checkpoint);
            let counted = memo.count_with_witnesses(root, base, WITNESS_LIMIT);
            (finish(counted), memo.stats())
        })?;
        if let Some(layers) = before {
            stats.nodes += layers.nodes;
            stats.hits += layers.hits;
            stats.layers_full = true;
        }
        Ok((counted, stats))
    }

    /// The items the givens cover as a `W`-word state, with the givens (the free ones left
    /// to the caller); `None` when a given clashes with another or may not be chosen.
    fn root<const W: usize>(&self) -> Option<([u64; W], Vec<u32>)> {
        let m = self.m;
        let is_free = |v: usize| self.free.binary_search(&(v as u32)).is_ok();
        let mut covered = [0u64; W];
        let mut base = Vec::new();
        for &g in self.givens.iter().filter(|&&g| !is_free(g)) {
            let mask = &m.masks[g * m.words..(g + 1) * m.words];
            if !m.allowed[g] || (0..W).any(|w| mask[w] & covered[w] != 0) {
                return None;
            }
            (0..W).for_each(|w| covered[w] |= mask[w]);
            base.push(g as u32);
        }
        Some((covered, base))
    }
}

/// A count and its witnesses as [`Counted`]: a time-out as no count, another halt as it is.
fn finish<V: Tally>(counted: Result<(V, Vec<Vec<u32>>), Halt>) -> Result<Counted, Halt> {
    match counted {
        Ok((count, witnesses)) => Ok(Counted {
            count: Some(count.big()),
            witnesses,
        }),
        Err(Halt::Time) => Ok(Counted {
            count: None,
            witnesses: Vec::new(),
        }),
        Err(halt) => Err(halt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_work_bound_holds_the_states_counted_and_is_exact_on_three_items() {
        use crate::puzzle::generate::counting::{latin_squares, perfect_matchings, set_partitions};
        // Set partitions of 3 items (7 options), in any order of the items x0 x1 x2: 1 state
        // at x0 testing its 4 options, 2 at x1 (x2 covered or not) testing 2, 1 at x2 testing
        // 1: 4 + 4 + 1.
        let three = set_partitions(3).unwrap();
        let p = Problem::new(&three);
        assert_eq!(MemoProblem::of(&p, &three).unwrap().sweep_work_bound(), 9);
        for model in [
            set_partitions(7).unwrap(),
            perfect_matchings(5).unwrap(),
            latin_squares(3).unwrap(),
        ] {
            let p = Problem::new(&model);
            let m = MemoProblem::of(&p, &model).unwrap();
            let sweep = Some(Branching::Sweep);
            let Ok(MemoEnd::Counted(report)) = count(&p, &m, &model, sweep, None, None, None, None)
            else {
                panic!("{} not counted", model.name())
            };
            // Each state counted tests at least one option.
            assert!(
                m.sweep_work_bound() >= report.stats.nodes,
                "{}",
                model.name()
            );
        }
    }

    #[test]
    fn the_default_budget_stays_where_one_doubling_of_the_cache_is_short() {
        // Half of the memory available was taken: 11 GiB on a 23 GiB machine, whose last
        // doubling overran a 60 s time limit by 7 s.
        let budget = Budget::default_now();
        assert!(budget.bytes <= DEFAULT_BUDGET_CAP, "{}", gib(budget.bytes));
        assert!(budget.bytes >= MIN_BUDGET);
    }
}
