//! The "transposed" engine for exact cover with few options per item (Langford pairs, n-queens,
//! Sudoku): per primary item, the set of its live options as one word (a "lane" of 16, 32 or 64
//! bits, the narrowest that holds the longest item) indexed by the option's place in the item's
//! list, so that an item's count of live options is one popcount and MRV needs no counts kept
//! up to date.
//!
//! Choosing option `o` kills every option sharing an item with it (primary or secondary): per
//! primary item `j`, the options of `j` that conflict with `o` are one precomputed lane
//! (`kill[o][j]`), so a choice is one AND-NOT per primary item (16 lanes at a time with SSE2,
//! see `lanes`: Sudoku's 324 items are 672 bytes of 16-bit lanes with padding), whatever the
//! number of options killed, and the items `o` covers leave the open set (one bit per item, in
//! 2 words up to 128 items, else 8). The same pass marks the items it leaves with no option and
//! with at most one. A branch writes its state into the next frame, so backtracking costs
//! nothing.
//!
//! Branching: a node with an open item of no option is a dead end; else the first open item
//! with one option is taken (a forced choice, no scan); else MRV over the open primary items.
//! Ties go to the item with the highest degree (the sum over its options of the
//! options each conflicts with: the textbook tie-break of MRV, which on n-queens puts the
//! middle rows and columns first, Knuth's "organ-pipe" order, and takes 14-queens from 10.4
//! to 6.2 million nodes), then to the model's order. When one primary item is left open,
//! each of its live options completes a solution and none is descended into.
//!
//! Takes exact cover (primary and secondary items; items with `hi = 0` ban their options)
//! with at most [`MAX_ITEMS`] primary items, each with at most [`MAX_ITEM_OPTIONS`] options,
//! and kill tables within [`MAX_TABLE_BYTES`]. Costs per node: a look at the masks (a scan of
//! the open items, popcount each, only when no item is forced), then per branch one AND-NOT
//! per primary item. Memory: the kill tables, `options x primary items (rounded up to 16) x
//! lane bytes` (Sudoku: 490 KB), and one frame of as many lanes per depth reached, kept from
//! run to run (a batch of puzzles allocates them once). Statistics: nodes, the search profile,
//! guesses, backtracks, solutions.

mod lanes;

use std::time::{Duration, Instant};

use super::problem::Problem;
use super::search::{Ending, Tally};
use crate::backend::stop::Alarm;
use crate::backend::Stats;
pub(crate) use lanes::Scratch;
use lanes::{Lane, Thin, BLOCK};

/// Open-set words for problems past 128 primary items.
const WIDE: usize = 8;

/// The most primary items this engine takes: one bit each in the open set.
pub(crate) const MAX_ITEMS: usize = 64 * WIDE;

/// The most options a primary item may have: one bit each in a 64-bit lane.
pub(crate) const MAX_ITEM_OPTIONS: usize = 64;

/// The most bytes the kill tables may take, so that they stay in the core's caches; larger
/// problems go to the other engines.
pub(crate) const MAX_TABLE_BYTES: usize = 512 << 10;

/// How often (in nodes) the clock and the stop flag are read (first at the first node).
const CLOCK_EVERY: u64 = 1 << 12;

/// The bytes of the lane that holds items of up to `options` options (2, 4 or 8; `None` past
/// [`MAX_ITEM_OPTIONS`]).
pub(crate) fn lane_bytes(options: usize) -> Option<usize> {
    match options {
        0..=16 => Some(2),
        17..=32 => Some(4),
        33..=MAX_ITEM_OPTIONS => Some(8),
        _ => None,
    }
}

/// Whether the kill tables of `options` options over `items` primary items of at most
/// `longest` options each (rows of `items` lanes rounded up to a whole [`BLOCK`]) fit this
/// engine's limits. Costs nothing.
pub(crate) fn fits(options: usize, items: usize, longest: usize) -> bool {
    let span = items.div_ceil(BLOCK) * BLOCK;
    lane_bytes(longest).is_some_and(|lane| {
        items <= MAX_ITEMS && options.saturating_mul(span).saturating_mul(lane) <= MAX_TABLE_BYTES
    })
}

/// A problem in the form the transposed engine reads, with lanes `L` and `W` open-set words.
#[derive(Debug, Clone)]
pub(crate) struct Tables<L, const W: usize> {
    /// Primary items (their engine order is by degree, see the module docs).
    items: usize,
    /// Lanes per frame and per kill row: `items` rounded up to a whole [`BLOCK`] (the padding
    /// lanes are zero and never open).
    span: usize,
    /// Lane width in bits: item `j`'s options are `ids[j * stride..]`.
    stride: usize,
    /// Per option, per primary item: the item's options (as local bits) that the option
    /// kills, itself included (`span` lanes per option).
    kill: Vec<L>,
    /// Per option: the primary items it covers (engine order).
    covers: Vec<[u64; W]>,
    /// The options of engine item `j` in local-bit order: `ids[j * stride + k]` is bit `k`.
    ids: Vec<u32>,
    /// The live local bits of each item at the root (options of `<= 0` rows left out).
    root: Vec<L>,
    /// A kill row of zeros (`span` lanes), to take the root's masks.
    blank: Vec<L>,
    /// Per option: an engine item and local bit where its liveness shows (`None`: it can
    /// never be chosen), for the givens.
    place: Vec<Option<(u32, u32)>>,
}

/// A problem in the form the transposed engine reads: its tables in the narrowest lane that
/// holds the longest item, and 2 open-set words up to 128 primary items, else 8.
#[derive(Debug, Clone)]
pub(crate) enum TransposedProblem {
    /// Items of up to 16 options, up to 128 items.
    Lanes16(Tables<u16, 2>),
    /// Items of up to 32 options, up to 128 items.
    Lanes32(Tables<u32, 2>),
    /// Items of up to 64 options, up to 128 items.
    Lanes64(Tables<u64, 2>),
    /// Items of up to 16 options, up to [`MAX_ITEMS`] items.
    Wide16(Tables<u16, WIDE>),
    /// Items of up to 32 options, up to [`MAX_ITEMS`] items.
    Wide32(Tables<u32, WIDE>),
    /// Items of up to 64 options, up to [`MAX_ITEMS`] items.
    Wide64(Tables<u64, WIDE>),
}

/// The problem's primary items and the options' places in them, before they are cast into
/// lanes.
struct Layout {
    /// Primary items, by degree (see [`by_degree`]).
    primary: Vec<usize>,
    /// Per option, its (engine item, local bit) in each primary item it sits in.
    places: Vec<Vec<(u32, u32)>>,
    /// Per option, the options sharing a binding item with it (itself included).
    conflicts: Vec<Vec<u32>>,
    /// Options banned by an item with `hi = 0`.
    banned: Vec<bool>,
    /// The most options of a primary item.
    longest: usize,
}

impl TransposedProblem {
    /// The transposed form of `p`, or `None` when some item is not an exact-cover item, when
    /// more than [`MAX_ITEMS`] primary items bind, when a primary item has more than
    /// [`MAX_ITEM_OPTIONS`] options, when the kill tables would pass [`MAX_TABLE_BYTES`], or
    /// when the problem is impossible.
    pub fn of(p: &Problem) -> Option<TransposedProblem> {
        let layout = Layout::of(p)?;
        let n = layout.primary.len();
        Some(match (layout.longest, n) {
            (0..=16, 0..=128) => TransposedProblem::Lanes16(Tables::of(p, &layout)),
            (17..=32, 0..=128) => TransposedProblem::Lanes32(Tables::of(p, &layout)),
            (_, 0..=128) => TransposedProblem::Lanes64(Tables::of(p, &layout)),
            (0..=16, _) => TransposedProblem::Wide16(Tables::of(p, &layout)),
            (17..=32, _) => TransposedProblem::Wide32(Tables::of(p, &layout)),
            _ => TransposedProblem::Wide64(Tables::of(p, &layout)),
        })
    }
}

impl Layout {
    /// The layout of `p` (see [`TransposedProblem::of`] for when there is none).
    fn of(p: &Problem) -> Option<Layout> {
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
        let longest = primary.iter().map(|&i| p.options_of(i).len()).max();
        if p.impossible || !fits(p.num_options, primary.len(), longest.unwrap_or(0)) {
            return None;
        }
        // Per option, the options it conflicts with (sharing a binding item), as a sorted list.
        let conflicts = conflict_lists(p, &binding);
        let primary = by_degree(p, primary, &conflicts);
        let mut places: Vec<Vec<(u32, u32)>> = vec![Vec::new(); p.num_options];
        for (j, &i) in primary.iter().enumerate() {
            for (k, &o) in p.options_of(i).iter().enumerate() {
                places[o as usize].push((j as u32, k as u32));
            }
        }
        Some(Layout {
            primary,
            places,
            conflicts,
            banned,
            longest: longest.unwrap_or(0),
        })
    }
}

impl<L: Lane, const W: usize> Tables<L, W> {
    /// The tables of `layout` (of `p`) in lanes `L` (wide enough: chosen by the caller).
    fn of(p: &Problem, layout: &Layout) -> Self {
        let n = layout.primary.len();
        let span = n.div_ceil(BLOCK) * BLOCK;
        let stride = 8 * std::mem::size_of::<L>();
        let mut ids = vec![u32::MAX; n * stride];
        let mut root = vec![0u64; span];
        for (j, &i) in layout.primary.iter().enumerate() {
            for (k, &o) in p.options_of(i).iter().enumerate() {
                ids[j * stride + k] = o;
                if !layout.banned[o as usize] {
                    root[j] |= 1 << k;
                }
            }
        }
        let mut kill = vec![L::default(); p.num_options * span];
        let mut covers = vec![[0u64; W]; p.num_options];
        let mut row = vec![0u64; span];
        for o in 0..p.num_options {
            row.fill(0);
            for &q in &layout.conflicts[o] {
                for &(j, k) in &layout.places[q as usize] {
                    row[j as usize] |= 1 << k;
                }
            }
            for (lane, &w) in kill[o * span..(o + 1) * span].iter_mut().zip(&row) {
                *lane = L::of(w);
            }
            for &(j, _) in &layout.places[o] {
                covers[o][j as usize / 64] |= 1 << (j % 64);
            }
        }
        let place = (0..p.num_options)
            .map(|o| {
                let first = layout.places[o].first().copied();
                first.filter(|_| !layout.banned[o])
            })
            .collect();
        Tables {
            items: n,
            span,
            stride,
            kill,
            covers,
            ids,
            root: root.into_iter().map(L::of).collect(),
            blank: vec![L::default(); span],
            place,
        }
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

/// Runs the search from `givens`, calling `found` with the chosen options (givens included) of
/// each solution; `found` returns `false` to stop. The frames are taken from `scratch`.
pub(crate) fn run(
    p: &TransposedProblem,
    scratch: &mut Scratch,
    givens: &[usize],
    time_limit: Option<Duration>,
    stats: &mut Stats,
    found: &mut dyn FnMut(&[u32]) -> bool,
) -> Ending {
    match p {
        TransposedProblem::Lanes16(t) => t.run(scratch, givens, time_limit, stats, found),
        TransposedProblem::Lanes32(t) => t.run(scratch, givens, time_limit, stats, found),
        TransposedProblem::Lanes64(t) => t.run(scratch, givens, time_limit, stats, found),
        TransposedProblem::Wide16(t) => t.run(scratch, givens, time_limit, stats, found),
        TransposedProblem::Wide32(t) => t.run(scratch, givens, time_limit, stats, found),
        TransposedProblem::Wide64(t) => t.run(scratch, givens, time_limit, stats, found),
    }
}

/// The search over one set of [`Tables`] (recursive: its depth is at most the primary items).
struct Search<'a, L, const W: usize> {
    p: &'a Tables<L, W>,
    /// One frame of `span` lanes per depth reached: frame `d` is the state at depth `d`.
    frames: &'a mut Vec<L>,
    /// The chosen options, givens first; `chosen[..len]` is the current path.
    chosen: Vec<u32>,
    tally: Tally,
    /// The deadline and the thread's stop flag (Ctrl-C in Python), read every [`CLOCK_EVERY`]
    /// nodes.
    alarm: Alarm,
    ending: Ending,
    found: &'a mut dyn FnMut(&[u32]) -> bool,
}

impl<L: Lane, const W: usize> Tables<L, W> {
    /// See [`run`].
    fn run(
        &self,
        scratch: &mut Scratch,
        givens: &[usize],
        time_limit: Option<Duration>,
        stats: &mut Stats,
        found: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Ending {
        let start = Instant::now();
        let (n, span) = (self.items, self.span);
        let frames = L::frames(scratch);
        if frames.len() < 2 * span {
            frames.resize(2 * span, L::default());
        }
        let mut open = [0u64; W];
        (0..n).for_each(|j| open[j / 64] |= 1 << (j % 64));
        let mut chosen = Vec::with_capacity(givens.len() + n + 1);
        // Each given is one kill from frame to frame (the empty kill when there is none, for
        // the root's masks); the root tables start in the frame that leaves the last in 0.
        let kills = givens.len().max(1);
        let mut at = kills % 2;
        frames[at * span..(at + 1) * span].copy_from_slice(&self.root);
        let mut thin = Thin::default();
        for step in 0..kills {
            let kill = match givens.get(step) {
                Some(&g) => {
                    let state = &frames[at * span..(at + 1) * span];
                    let live = self.place.get(g).copied().flatten().is_some_and(|(j, k)| {
                        let j = j as usize;
                        open[j / 64] >> (j % 64) & 1 == 1 && state[j].bits() >> k & 1 == 1
                    });
                    if !live {
                        return Ending::Exhausted;
                    }
                    open = without(open, &self.covers[g]);
                    chosen.push(g as u32);
                    &self.kill[g * span..(g + 1) * span]
                }
                None => &self.blank[..],
            };
            let (first, second) = frames.split_at_mut(span);
            let second = &mut second[..span];
            thin = match at {
                0 => L::kill_into(second, first, kill),
                _ => L::kill_into(first, second, kill),
            };
            at = 1 - at;
        }
        let base = chosen.len();
        chosen.resize(base + n + 1, 0);
        let mut search = Search {
            p: self,
            frames,
            chosen,
            tally: Tally::new(n + 1),
            alarm: Alarm::new(start, time_limit, CLOCK_EVERY),
            ending: Ending::Exhausted,
            found,
        };
        search.descend(Node { open, thin }, base);
        search.tally.write(stats, start);
        search.ending
    }
}

/// What a node knows of its frame: the open items, and which items have no live option or
/// one (from the AND-NOT that made the frame).
#[derive(Debug, Clone, Copy)]
struct Node<const W: usize> {
    open: [u64; W],
    thin: Thin<W>,
}

impl<L: Lane, const W: usize> Search<'_, L, W> {
    /// Searches from the root (frame 0, the givens `chosen[..base]`), compiled with the CPU's
    /// popcount instruction where it has one (not part of baseline x86-64; the software
    /// popcount made the MRV scan half of the time on Langford pairs).
    fn descend(&mut self, root: Node<W>, base: usize) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the popcnt instruction (checked just above).
            unsafe { self.node_popcnt(0, root, base) };
            return;
        }
        self.node(0, root, base);
    }

    /// [`Search::node`] compiled with the popcnt instruction.
    ///
    /// # Safety
    /// The CPU must have the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn node_popcnt(&mut self, depth: usize, node: Node<W>, len: usize) {
        // SAFETY: reached only from `descend` after its check, or from itself.
        self.node_with(depth, node, len, |s, d, o, l| unsafe {
            s.node_popcnt(d, o, l)
        });
    }

    /// Searches below the node at `depth` (its state in frame `depth`) with the path
    /// `chosen[..len]`.
    fn node(&mut self, depth: usize, node: Node<W>, len: usize) {
        self.node_with(depth, node, len, Search::node);
    }

    /// The item to branch on at `depth` and its number of live options: none (`0`) when an
    /// open item has no option left, else the first open item with one, else MRV over the
    /// open items.
    #[inline(always)]
    fn pick(&self, depth: usize, node: &Node<W>) -> (usize, u32) {
        let masked = |m: &[u64; W]| (0..W).find(|&w| m[w] & node.open[w] != 0);
        if masked(&node.thin.empty).is_some() {
            return (0, 0);
        }
        if let Some(w) = masked(&node.thin.at_most_one) {
            let bits = node.thin.at_most_one[w] & node.open[w];
            return (w * 64 + bits.trailing_zeros() as usize, 1);
        }
        let span = self.p.span;
        least(&self.frames[depth * span..(depth + 1) * span], &node.open)
    }

    /// The body of [`Search::node`], descending through `descend` (inlined into each compiled
    /// variant, so that each uses its own instructions).
    #[inline(always)]
    fn node_with(
        &mut self,
        depth: usize,
        node: Node<W>,
        len: usize,
        descend: impl Fn(&mut Self, usize, Node<W>, usize),
    ) {
        let open_items: u32 = node.open.iter().map(|w| w.count_ones()).sum();
        if open_items == 0 {
            self.solution(len);
            return;
        }
        if self.alarm.rings() {
            self.ending = Ending::TimedOut;
            return;
        }
        let (item, count) = self.pick(depth, &node);
        if count == 0 {
            self.tally.backtracks += 1;
            return;
        }
        let p = self.p;
        let span = p.span;
        let mut live = self.frames[depth * span + item].bits();
        let ids = &p.ids[item * p.stride..];
        let mut taken = 0;
        if open_items == 1 {
            // The last open item: each live option completes a solution.
            while live != 0 && self.ending == Ending::Exhausted {
                self.chosen[len] = ids[live.trailing_zeros() as usize];
                live &= live - 1;
                taken += 1;
                self.solution(len + 1);
            }
        } else {
            if self.frames.len() < (depth + 2) * span {
                self.frames.resize((depth + 2) * span, L::default());
            }
            while live != 0 {
                let o = ids[live.trailing_zeros() as usize] as usize;
                live &= live - 1;
                taken += 1;
                let (parent, child) = self.frames.split_at_mut((depth + 1) * span);
                let parent = &parent[depth * span..];
                let kill = &p.kill[o * span..(o + 1) * span];
                let child = &mut child[..span];
                let thin = L::kill_into(child, parent, kill);
                self.chosen[len] = o as u32;
                let open = without(node.open, &p.covers[o]);
                descend(self, depth + 1, Node { open, thin }, len + 1);
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

/// `open` without the items of `covered`.
#[inline(always)]
fn without<const W: usize>(mut open: [u64; W], covered: &[u64; W]) -> [u64; W] {
    open.iter_mut().zip(covered).for_each(|(o, c)| *o &= !c);
    open
}

/// The first open item (in engine order) with the fewest live options, and that number; the
/// scan ends at the first item with at most one.
#[inline(always)]
fn least<L: Lane, const W: usize>(frame: &[L], open: &[u64; W]) -> (usize, u32) {
    let mut best = (0, u32::MAX);
    for (word, &bits) in open.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let j = word * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let count = frame[j].bits().count_ones();
            if count < best.1 {
                best = (j, count);
                if count <= 1 {
                    return best;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::generate::exact_cover::{langford, n_queens};

    /// The count of every solution of `t` from no givens.
    fn count<L: Lane, const W: usize>(t: &Tables<L, W>) -> u64 {
        let mut stats = Stats::default();
        let mut scratch = Scratch::default();
        let ending = t.run(&mut scratch, &[], None, &mut stats, &mut |_| true);
        assert_eq!(ending, Ending::Exhausted);
        stats.solutions
    }

    /// Every lane width and open-set width counts the same, as the engine's choice would.
    #[test]
    fn every_lane_and_open_width_counts_alike() {
        for (model, expected) in [(n_queens(8), 92), (langford(7), 52), (n_queens(5), 10)] {
            let p = Problem::new(&model);
            let layout = Layout::of(&p).expect("exact cover within limits");
            assert_eq!(count(&Tables::<u16, 2>::of(&p, &layout)), expected);
            assert_eq!(count(&Tables::<u32, 2>::of(&p, &layout)), expected);
            assert_eq!(count(&Tables::<u64, 2>::of(&p, &layout)), expected);
            assert_eq!(count(&Tables::<u16, WIDE>::of(&p, &layout)), expected);
            assert_eq!(count(&Tables::<u32, WIDE>::of(&p, &layout)), expected);
            assert_eq!(count(&Tables::<u64, WIDE>::of(&p, &layout)), expected);
        }
    }

    /// The narrowest lane that holds the longest item, and 8 open words past 128 items.
    #[test]
    fn the_form_follows_the_shape() {
        let form = |m| TransposedProblem::of(&Problem::new(&m));
        assert!(matches!(
            form(n_queens(16)),
            Some(TransposedProblem::Lanes16(_))
        ));
        assert!(matches!(
            form(n_queens(17)),
            Some(TransposedProblem::Lanes32(_))
        ));
        assert!(matches!(
            form(langford(20)),
            Some(TransposedProblem::Lanes64(_))
        ));
        // 100-queens: 200 items of 100 options, past the lane and the table budget.
        assert!(form(n_queens(100)).is_none());
        assert_eq!(lane_bytes(16), Some(2));
        assert_eq!(lane_bytes(64), Some(8));
        assert_eq!(lane_bytes(65), None);
        assert!(!fits(1000, MAX_ITEMS + 1, 2));
    }
}
