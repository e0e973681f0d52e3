//! The engine for exact cover with at most [`MAX_ITEMS`] items (pentominoes, Langford pairs,
//! n-queens): every item is an exact-cover item ("exactly one": primary, "at most one":
//! secondary), the live-option count of each primary item is 16 bits, and the counts sit side
//! by side in 16-byte chunks of 8, so that the compiler turns every step into SIMD (SSE2, part of
//! every x86-64):
//!
//! - Killing an option subtracts its item vector (16 bits per item: 1 where it holds a
//!   primary item) from the counts: one 16-byte subtraction per 8 items, whatever the
//!   option's size, with no loads of item ids and no chains of dependent decrements.
//! - Choosing an option kills the live options it conflicts with (those sharing an item with
//!   it, precomputed as a bitset over the options: one AND-NOT per option word), then marks
//!   its primary items closed (count 65535).
//! - MRV is a minimum over the chunks (closed items read 65535), and the first item holding
//!   it is Knuth's leftmost tie-break; a minimum of 0 is a dead end, 65535 a solution.
//!
//! A branch works on a copy of its parent's state (live options and counts), so backtracking
//! costs nothing. Per node: that copy (`options / 64 + items / 4` words), one word operation
//! per option word, and per killed option one subtraction per 8 items. Memory: the conflict
//! sets, `options^2 / 8` bytes, and 16 bytes per 8 items per option. The engine is used only
//! while both tables together fit in [`MAX_TABLE_BYTES`]: measured on pentominoes 6x10 (2,056
//! options, 840 KB of tables), streaming the item vectors from memory made it 1.8x slower than
//! the general engine's per-item decrements, while on n-queens 14 and Langford L(2, 12) (under
//! 32 KB) it is 1.0x to 1.25x faster.

use std::time::{Duration, Instant};

use super::problem::Problem;
use super::search::Ending;
use crate::backend::Stats;

/// The most items (rows that bind) this engine takes.
pub(crate) const MAX_ITEMS: usize = 128;

/// The most bytes the conflict sets and item vectors may take together (so that they stay in
/// the core's cache); larger problems go to the general engine.
pub(crate) const MAX_TABLE_BYTES: usize = 256 << 10;

/// A count meaning "closed" (the item holds its option); a live count stays below it.
const CLOSED: u16 = u16::MAX;

/// How often (in nodes) the clock is read (first at the first node).
const CLOCK_EVERY: u64 = 1024;

/// Eight items' counts.
type Chunk = [u16; LANES];

/// Items per chunk.
const LANES: usize = 8;

/// A problem in the form this engine reads, or `None` when some item is not an exact-cover
/// item, when more than [`MAX_ITEMS`] items bind, when a primary item has 65,535 options or more,
/// or when the tables would exceed [`MAX_TABLE_BYTES`]. Items that never bind
/// (`lo = 0`, `hi >= len`) are left out; items with `hi = 0` kill their options at the root.
#[derive(Debug, Clone, Default)]
pub(crate) struct SmallProblem {
    /// Option words.
    words: usize,
    /// Count chunks (primary items / 8, rounded up).
    chunks: usize,
    /// Per option: 1 at each of its primary items (`chunks` chunks per option).
    delta: Vec<Chunk>,
    /// Per option: the options sharing a binding item with it, itself included (`words` words
    /// per option).
    conflicts: Vec<u64>,
    /// Per option: how many binding items it holds (its updates when it dies).
    size: Vec<u8>,
    /// Options of each primary item (ascending), for the branch candidates.
    options: Vec<Vec<u32>>,
    /// The counts at the root, before any option is killed (65535 past the last item).
    counts: Vec<Chunk>,
    /// Options killed before the search (they sit in a `<= 0` row).
    banned: Vec<u32>,
}

impl SmallProblem {
    /// The packed-count form of `p`, when it is exact cover with few enough items.
    pub fn of(p: &Problem) -> Option<SmallProblem> {
        let mut binding = Vec::new();
        let mut primary = Vec::new();
        let mut banned = Vec::new();
        for i in 0..p.num_items() {
            let len = p.options_of(i).len();
            match (p.lo[i], p.hi[i]) {
                (_, 0) => banned.extend_from_slice(p.options_of(i)),
                (1, 1) if len < usize::from(CLOSED) => {
                    binding.push(i);
                    primary.push(i);
                }
                (0, 1) => binding.push(i),
                (0, hi) if hi as usize >= len => {}
                _ => return None,
            }
        }
        let (n, words) = (p.num_options, p.words);
        let chunks = primary.len().div_ceil(LANES).max(1);
        let bytes = n.saturating_mul(words * 8 + chunks * 16);
        if binding.len() > MAX_ITEMS || p.impossible || bytes > MAX_TABLE_BYTES {
            return None;
        }
        let mut delta = vec![[0u16; LANES]; n * chunks];
        let mut counts = vec![[CLOSED; LANES]; chunks];
        for (b, &i) in primary.iter().enumerate() {
            counts[b / LANES][b % LANES] = p.options_of(i).len() as u16;
            for &o in p.options_of(i) {
                delta[o as usize * chunks + b / LANES][b % LANES] = 1;
            }
        }
        let mut conflicts = vec![0u64; n * words];
        let mut size = vec![0u8; n];
        for &i in &binding {
            let list = p.options_of(i);
            for &o in list {
                size[o as usize] = size[o as usize].saturating_add(1);
                let row = &mut conflicts[o as usize * words..(o as usize + 1) * words];
                for &q in list {
                    row[q as usize / 64] |= 1 << (q % 64);
                }
            }
        }
        Some(SmallProblem {
            words,
            chunks,
            delta,
            conflicts,
            size,
            options: primary.iter().map(|&i| p.options_of(i).to_vec()).collect(),
            counts,
            banned,
        })
    }
}

/// The state at one depth: live options and the primary items' counts.
#[derive(Debug, Clone, Default)]
struct Frame {
    live: Vec<u64>,
    counts: Vec<Chunk>,
}

impl Frame {
    fn copy_from(&mut self, other: &Frame) {
        self.live.copy_from_slice(&other.live);
        self.counts.copy_from_slice(&other.counts);
    }
}

/// One choice point: where its candidates start and end, the next to take.
#[derive(Debug, Clone, Copy)]
struct Level {
    start: usize,
    end: usize,
    next: usize,
}

/// The search over one [`SmallProblem`], reusing its frames from call to call.
#[derive(Debug, Default)]
pub(crate) struct SmallSearcher {
    frames: Vec<Frame>,
    levels: Vec<Level>,
    candidates: Vec<u32>,
    chosen: Vec<u32>,
    updates: u64,
}

impl SmallSearcher {
    /// Runs the search from `givens`, calling `found` with the chosen options of each solution
    /// (givens included); `found` returns `false` to stop.
    pub fn run(
        &mut self,
        p: &SmallProblem,
        num_options: usize,
        givens: &[usize],
        time_limit: Option<Duration>,
        stats: &mut Stats,
        found: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Ending {
        let start = Instant::now();
        let deadline = time_limit.and_then(|t| start.checked_add(t));
        self.updates = 0;
        self.levels.clear();
        self.candidates.clear();
        self.chosen.clear();
        let ending = if self.root(p, num_options, givens) {
            self.descend(p, deadline, stats, found)
        } else {
            Ending::Exhausted
        };
        stats.extra.insert("updates".into(), self.updates.into());
        stats.seconds = start.elapsed().as_secs_f64();
        ending
    }

    /// Frame 0: every option live and counted, banned options killed, givens chosen. `false`
    /// when a given is already dead.
    fn root(&mut self, p: &SmallProblem, num_options: usize, givens: &[usize]) -> bool {
        if self
            .frames
            .first()
            .is_none_or(|f| f.live.len() != p.words || f.counts.len() != p.chunks)
        {
            self.frames.clear();
            self.frames.push(Frame::default());
        }
        let f = &mut self.frames[0];
        f.live.clear();
        f.live.resize(p.words, !0);
        if num_options % 64 != 0 {
            f.live[p.words - 1] = (1u64 << (num_options % 64)) - 1;
        }
        f.counts.clear();
        f.counts.extend_from_slice(&p.counts);
        for &o in &p.banned {
            if is_live(f, o as usize) {
                f.live[o as usize / 64] &= !(1 << (o % 64));
                subtract(&mut f.counts, delta(p, o as usize));
                self.updates += u64::from(p.size[o as usize]);
            }
        }
        for &g in givens {
            if !is_live(f, g) {
                return false;
            }
            self.updates += choose(p, f, g);
            self.chosen.push(g as u32);
        }
        true
    }

    /// The depth-first search from frame 0, on an explicit stack.
    fn descend(
        &mut self,
        p: &SmallProblem,
        deadline: Option<Instant>,
        stats: &mut Stats,
        found: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Ending {
        // Checked with the deadline: a stopped run ends as if its time limit were reached.
        let stop = crate::backend::stop::current();
        let base = self.chosen.len();
        let mut depth = 0usize;
        loop {
            let f = &self.frames[depth];
            let (item, count) = least(&f.counts);
            if count == CLOSED {
                stats.solutions += 1;
                if !found(&self.chosen) {
                    return Ending::Stopped;
                }
            } else if count > 0 {
                let start = self.candidates.len();
                let live = &f.live;
                self.candidates.extend(
                    p.options[item]
                        .iter()
                        .filter(|&&o| live[o as usize / 64] >> (o % 64) & 1 == 1),
                );
                self.levels.push(Level {
                    start,
                    end: self.candidates.len(),
                    next: start,
                });
            }
            loop {
                let Some(level) = self.levels.last_mut() else {
                    return Ending::Exhausted;
                };
                if level.next == level.end {
                    self.candidates.truncate(level.start);
                    self.levels.pop();
                    stats.backtracks += 1;
                    continue;
                }
                let option = self.candidates[level.next] as usize;
                if level.next > level.start {
                    stats.guesses += 1;
                }
                level.next += 1;
                depth = self.levels.len();
                self.chosen.truncate(base + depth - 1);
                if self.frames.len() <= depth {
                    let copy = self.frames[depth - 1].clone();
                    self.frames.push(copy);
                } else {
                    let (parent, child) = self.frames.split_at_mut(depth);
                    child[0].copy_from(&parent[depth - 1]);
                }
                self.updates += choose(p, &mut self.frames[depth], option);
                self.chosen.push(option as u32);
                stats.nodes += 1;
                if stats.nodes_per_depth.len() < depth {
                    stats.nodes_per_depth.resize(depth, 0);
                }
                stats.nodes_per_depth[depth - 1] += 1;
                if stats.nodes % CLOCK_EVERY == 1
                    && (deadline.is_some_and(|d| Instant::now() >= d)
                        || crate::backend::stop::raised(&stop))
                {
                    return Ending::TimedOut;
                }
                break;
            }
        }
    }
}

/// The first item of least count, and that count (65535: every primary item is closed).
#[inline]
fn least(counts: &[Chunk]) -> (usize, u16) {
    let mut low = [CLOSED; LANES];
    for c in counts {
        for k in 0..LANES {
            low[k] = low[k].min(c[k]);
        }
    }
    let min = low.iter().copied().min().unwrap_or(CLOSED);
    for (i, c) in counts.iter().enumerate() {
        let mut hits = 0u32;
        for (k, &x) in c.iter().enumerate() {
            hits |= u32::from(x == min) << k;
        }
        if hits != 0 {
            return (i * LANES + hits.trailing_zeros() as usize, min);
        }
    }
    (0, CLOSED)
}

#[inline]
fn is_live(f: &Frame, o: usize) -> bool {
    f.live[o / 64] >> (o % 64) & 1 == 1
}

/// Option `o`'s item vector.
#[inline]
fn delta(p: &SmallProblem, o: usize) -> &[Chunk] {
    &p.delta[o * p.chunks..(o + 1) * p.chunks]
}

/// Takes an item vector from the counts (one 16-bit subtraction per item, SIMD).
#[inline]
fn subtract(counts: &mut [Chunk], delta: &[Chunk]) {
    for (c, d) in counts.iter_mut().zip(delta) {
        for k in 0..LANES {
            c[k] = c[k].wrapping_sub(d[k]);
        }
    }
}

/// Chooses live option `o`: kills every live option sharing an item with it (itself
/// included), then closes its primary items. Returns the updates made.
#[inline]
fn choose(p: &SmallProblem, f: &mut Frame, o: usize) -> u64 {
    let mut updates = 0u64;
    let conflicts = &p.conflicts[o * p.words..(o + 1) * p.words];
    for (w, &m) in conflicts.iter().enumerate() {
        let mut dead = f.live[w] & m;
        if dead == 0 {
            continue;
        }
        f.live[w] &= !m;
        while dead != 0 {
            let q = w * 64 + dead.trailing_zeros() as usize;
            dead &= dead - 1;
            subtract(&mut f.counts, delta(p, q));
            updates += u64::from(p.size[q]);
        }
    }
    for (c, d) in f.counts.iter_mut().zip(delta(p, o)) {
        for k in 0..LANES {
            c[k] |= d[k].wrapping_neg();
        }
    }
    updates
}
