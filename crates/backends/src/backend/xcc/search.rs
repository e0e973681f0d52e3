//! The search: Algorithm X/M with word-parallel filtering and copy-on-branch frames.
//!
//! A [`Frame`] is the whole state at one depth: the live options as a bitset, per item the
//! number of live options (`count`), how many more it needs (`need`) and may still take
//! (`room`), and the set of items still in need (`open`). Choosing an option kills it and, for
//! each of its items that becomes full, every live option of that item (one AND-NOT per word of
//! the item's mask), decrementing the counts of the killed options' items (one "update" per
//! decrement, Knuth's measure). Undoing is free: a branch works on a copy of its parent's
//! frame, so nothing is ever relinked.
//!
//! Branching: the open item with the fewest branches, `count - need + 1` (for an exact-cover
//! item, its count: MRV); ties go to the item with less slack (`hi - lo`), then to the first
//! item (Knuth's leftmost). Branch `t` chooses the item's `t`-th live option and, for an item
//! that stays open after one choice, kills its options `0..t` first (the chosen option is the
//! first of the item's options in the solution), so every solution is met exactly once. An
//! open item with fewer live options than it needs is a dead end.

use std::time::{Duration, Instant};

use super::problem::Problem;
use crate::backend::proof::ProofLog;
use crate::backend::Stats;

/// The state of the search at one depth.
#[derive(Debug, Clone, Default)]
pub(crate) struct Frame {
    live: Vec<u64>,
    count: Vec<u32>,
    need: Vec<u32>,
    room: Vec<u32>,
    open: Vec<u64>,
}

impl Frame {
    /// Copies `other` into this frame; `need` and `room` only when `all` (a plain problem's
    /// search below the root reads neither).
    fn copy_from(&mut self, other: &Frame, all: bool) {
        self.live.copy_from_slice(&other.live);
        self.count.copy_from_slice(&other.count);
        if all {
            self.need.copy_from_slice(&other.need);
            self.room.copy_from_slice(&other.room);
        }
        self.open.copy_from_slice(&other.open);
    }
}

/// What the branching rule found at a node.
enum Pick {
    /// Every item has what it needs: the chosen options are a solution.
    Done,
    /// Some open item cannot get what it needs.
    Dead,
    /// Branch on this item, with this many branches.
    Branch(usize, u32),
}

/// One choice point on the explicit stack.
#[derive(Debug, Clone, Copy)]
struct Level {
    /// Where its candidates start in `Searcher::candidates`.
    start: usize,
    /// Number of branches.
    branches: u32,
    /// The next branch to take.
    next: u32,
    /// Whether choosing one option leaves the item open (its other options must then be
    /// excluded branch by branch).
    stays_open: bool,
    /// Whether its decisions are logged to a proof: not when its one option is forced (the
    /// item's row implies it by unit propagation once its other options are out, so the
    /// decision adds nothing a checker needs and only lengthens every `rup` below it).
    logged: bool,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The whole space was searched.
    Exhausted,
    /// The callback asked to stop.
    Stopped,
    /// The time limit was reached.
    TimedOut,
}

/// The counters of the recursive engines (`sweep`, `transposed`), kept during the search and
/// written into [`Stats`] at its end. Costs three additions per node.
#[derive(Debug)]
pub(crate) struct Tally {
    /// Options tried at each depth below the givens (the search profile).
    pub per_depth: Vec<u64>,
    /// Solutions reported.
    pub solutions: u64,
    /// Branches past the first, summed over nodes.
    pub guesses: u64,
    /// Nodes whose branches were all tried (or that had none).
    pub backtracks: u64,
}

impl Tally {
    /// Zero counters for a search at most `depths` deep.
    pub(crate) fn new(depths: usize) -> Self {
        Tally {
            per_depth: vec![0; depths],
            solutions: 0,
            guesses: 0,
            backtracks: 0,
        }
    }

    /// A node at `depth` that tried `taken` options, its search now `ending`.
    #[inline]
    pub(crate) fn node(&mut self, depth: usize, taken: u64, ending: Ending) {
        self.per_depth[depth] += taken;
        self.guesses += taken.saturating_sub(1);
        self.backtracks += u64::from(ending == Ending::Exhausted);
    }

    /// Writes the counters into `stats`, the profile cut after its last non-zero depth and
    /// left out when it never branched (all ones: it says no more than `nodes`, and a batch of
    /// easy Sudoku puzzles would print 64 ones a line), with the seconds since `start`.
    pub(crate) fn write(&self, stats: &mut Stats, start: Instant) {
        let depth = (self.per_depth.iter())
            .rposition(|&k| k > 0)
            .map_or(0, |d| d + 1);
        let profile = &self.per_depth[..depth];
        stats.nodes = profile.iter().sum();
        if profile.iter().any(|&k| k != 1) {
            stats.nodes_per_depth = profile.to_vec();
        }
        stats.guesses = self.guesses;
        stats.backtracks = self.backtracks;
        stats.solutions = self.solutions;
        stats.seconds = start.elapsed().as_secs_f64();
    }
}

/// The search over one [`Problem`], reusing its frames from call to call.
#[derive(Debug, Default)]
pub(crate) struct Searcher {
    frames: Vec<Frame>,
    levels: Vec<Level>,
    candidates: Vec<u32>,
    chosen: Vec<u32>,
    updates: u64,
}

/// Frames up to this many bytes in all are taken without asking how much memory there is.
const FRAMES_ALWAYS_FIT: u64 = 1 << 28;

/// `Err(why)` when the search frames of `p` may need more than `limit()` bytes (`None`: no
/// limit; not asked below [`FRAMES_ALWAYS_FIT`]). The search keeps one frame per depth (`options / 64` words, three counts per item,
/// the open set), and a depth chooses an option that takes one from an open item's need, so
/// the depth is at most the sum of the items' lower bounds: a model of many items that all
/// need covering (thousands of slack items) would need frames quadratic in its size. Costs one
/// pass over the items, and one query of the limit for large frames.
pub(crate) fn frames_fit(p: &Problem, limit: impl FnOnce() -> Option<u64>) -> Result<(), String> {
    let items = p.num_items() as u64;
    let frame = 8 * p.words as u64 + 12 * items + 8 * items.div_ceil(64) + 128;
    let needs: u64 = p.lo.iter().map(|&lo| u64::from(lo)).sum();
    let depths = needs.min(p.num_options as u64) + 1;
    let bytes = depths.saturating_mul(frame);
    if bytes <= FRAMES_ALWAYS_FIT {
        return Ok(());
    }
    match limit() {
        Some(limit) if bytes > limit => Err(format!(
            "would need up to {} for its search frames ({depths} levels of {frame} bytes), more \
             than the {} of memory this process can take",
            crate::backend::memory::gib(bytes),
            crate::backend::memory::gib(limit)
        )),
        _ => Ok(()),
    }
}

/// How often (in nodes) the clock is read (first at the first node).
const CLOCK_EVERY: u64 = 1024;

impl Searcher {
    /// Runs the search from `givens`, calling `found` with the chosen options (model variables
    /// and slack options, givens included) of each solution; `found` returns `false` to stop.
    pub fn run(
        &mut self,
        p: &Problem,
        givens: &[usize],
        time_limit: Option<Duration>,
        stats: &mut Stats,
        found: &mut dyn FnMut(&[u32]) -> bool,
    ) -> Ending {
        self.run_logged(p, givens, time_limit, stats, found, None)
    }

    /// [`Searcher::run`] reporting each decision, backtrack and solution to `proof` (see
    /// [`crate::backend::proof::ProofLog`]): a decision is an option chosen at a branch (a
    /// model variable set to 1, or a slack item's "leave it out" option: its variable set to
    /// 0); leaving it (its node dead, solved, or every branch below it tried) retracts it.
    /// Every deduction of the search (options killed by full items, dead items with fewer
    /// live options than they need) is pseudo-Boolean unit propagation on the model's rows,
    /// and the options killed branch by branch in an item that stays open follow from the
    /// retracted branches before them, so each retraction is a checkable `rup` step.
    pub fn run_logged(
        &mut self,
        p: &Problem,
        givens: &[usize],
        time_limit: Option<Duration>,
        stats: &mut Stats,
        found: &mut dyn FnMut(&[u32]) -> bool,
        proof: Option<&mut (dyn ProofLog + '_)>,
    ) -> Ending {
        let start = Instant::now();
        let deadline = time_limit.and_then(|t| start.checked_add(t));
        self.updates = 0;
        self.levels.clear();
        self.candidates.clear();
        self.chosen.clear();
        let mut proof = proof;
        let ending = if self.root(p, givens) {
            self.descend(p, deadline, stats, found, proof.as_deref_mut())
        } else {
            Ending::Exhausted
        };
        if let (Some(proof), Ending::Exhausted) = (proof, ending) {
            proof.exhausted();
        }
        stats.extra.insert("updates".into(), self.updates.into());
        stats.seconds = start.elapsed().as_secs_f64();
        ending
    }

    /// Sets up frame 0: every option live, then the givens chosen. `false` when the givens
    /// already break a row or the problem is impossible.
    fn root(&mut self, p: &Problem, givens: &[usize]) -> bool {
        if p.impossible {
            return false;
        }
        let items = p.num_items();
        // Frames of another problem have other sizes: start over with one.
        if self
            .frames
            .first()
            .is_none_or(|f| f.live.len() != p.words || f.count.len() != items)
        {
            self.frames.clear();
            self.frames.push(Frame::default());
        }
        let f = &mut self.frames[0];
        f.live.clear();
        f.live.resize(p.words, !0);
        if p.num_options % 64 != 0 {
            f.live[p.words - 1] = (1u64 << (p.num_options % 64)) - 1;
        }
        f.count.clear();
        f.count
            .extend((0..items).map(|i| p.options_of(i).len() as u32));
        f.need.clear();
        f.need.extend_from_slice(&p.lo);
        f.room.clear();
        f.room.extend_from_slice(&p.hi);
        f.open.clear();
        f.open.resize(items.div_ceil(64), 0);
        for i in (0..items).filter(|&i| p.lo[i] > 0) {
            f.open[i / 64] |= 1 << (i % 64);
        }
        for i in (0..items).filter(|&i| p.hi[i] == 0) {
            self.updates += kill_item(p, f, i);
        }
        for &g in givens {
            if f.live[g / 64] >> (g % 64) & 1 == 0 {
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
        p: &Problem,
        deadline: Option<Instant>,
        stats: &mut Stats,
        found: &mut dyn FnMut(&[u32]) -> bool,
        mut proof: Option<&mut (dyn ProofLog + '_)>,
    ) -> Ending {
        // Checked with the deadline: a stopped run ends as if its time limit were reached.
        let stop = crate::backend::stop::current();
        let base = self.chosen.len();
        let mut depth = 0usize;
        loop {
            // A new node at `depth`.
            match pick(&self.frames[depth], p) {
                Pick::Done => {
                    stats.solutions += 1;
                    if let Some(proof) = proof.as_deref_mut() {
                        log_solution(proof, p, &self.chosen);
                    }
                    if !found(&self.chosen) {
                        return Ending::Stopped;
                    }
                    if depth > 0 && self.levels.last().is_some_and(|l| l.logged) {
                        if let Some(proof) = proof.as_deref_mut() {
                            proof.retract();
                        }
                    }
                }
                Pick::Dead => {
                    if depth > 0 && self.levels.last().is_some_and(|l| l.logged) {
                        if let Some(proof) = proof.as_deref_mut() {
                            proof.retract();
                        }
                    }
                }
                Pick::Branch(item, branches) => {
                    let frame = &self.frames[depth];
                    let start = self.candidates.len();
                    let live = &frame.live;
                    self.candidates.extend(
                        p.options_of(item)
                            .iter()
                            .filter(|&&o| live[o as usize / 64] >> (o % 64) & 1 == 1),
                    );
                    let stays_open = !p.plain && frame.room[item] > 1;
                    self.levels.push(Level {
                        start,
                        branches,
                        next: 0,
                        stays_open,
                        logged: branches > 1 || stays_open,
                    });
                }
            }
            // Take the next branch, backtracking as needed.
            loop {
                let Some(level) = self.levels.last_mut() else {
                    return Ending::Exhausted;
                };
                if level.next == level.branches {
                    self.candidates.truncate(level.start);
                    self.levels.pop();
                    stats.backtracks += 1;
                    // The node that owned the level is finished: its own decision goes.
                    if self.levels.last().is_some_and(|l| l.logged) {
                        if let Some(proof) = proof.as_deref_mut() {
                            proof.retract();
                        }
                    }
                    continue;
                }
                let t = level.next as usize;
                level.next += 1;
                let (start, stays_open, logged) = (level.start, level.stays_open, level.logged);
                depth = self.levels.len();
                self.chosen.truncate(base + depth - 1);
                if stays_open && t > 0 {
                    // Branch t: option t comes first, so option t - 1 is out for the rest of
                    // this node (its frame is the parent's, refreshed on every branch above).
                    let out = self.candidates[start + t - 1] as usize;
                    self.updates += kill(p, &mut self.frames[depth - 1], out);
                }
                let option = self.candidates[start + t] as usize;
                if self.frames.len() <= depth {
                    let copy = self.frames[depth - 1].clone();
                    self.frames.push(copy);
                } else {
                    let (parent, child) = self.frames.split_at_mut(depth);
                    child[0].copy_from(&parent[depth - 1], !p.plain);
                }
                let frame = &mut self.frames[depth];
                self.updates += if p.plain {
                    choose_plain(p, frame, option)
                } else {
                    choose(p, frame, option)
                };
                self.chosen.push(option as u32);
                if let Some(proof) = proof.as_deref_mut().filter(|_| logged) {
                    let (var, value) = p.decision_literal(option);
                    proof.decide(var, value);
                }
                stats.nodes += 1;
                if stats.nodes_per_depth.len() < depth {
                    stats.nodes_per_depth.resize(depth, 0);
                }
                stats.nodes_per_depth[depth - 1] += 1;
                if t > 0 {
                    stats.guesses += 1;
                }
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

/// Reports the model variables among `chosen` (givens included) as a solution to `proof`.
fn log_solution(proof: &mut dyn ProofLog, p: &Problem, chosen: &[u32]) {
    let mut ones: Vec<u32> = chosen
        .iter()
        .copied()
        .filter(|&o| (o as usize) < p.model_options)
        .collect();
    ones.sort_unstable();
    proof.solution(&ones, None, 0);
}

/// The branching rule (see the module docs).
#[inline]
fn pick(f: &Frame, p: &Problem) -> Pick {
    if p.plain {
        return pick_plain(f);
    }
    let mut best: Option<(u32, u32, usize)> = None;
    for (w, &bits) in f.open.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (count, need) = (f.count[i], f.need[i]);
            if count < need {
                return Pick::Dead;
            }
            let branches = count - need + 1;
            let slack = p.hi[i] - p.lo[i];
            if best.is_none_or(|(b, s, _)| (branches, slack) < (b, s)) {
                best = Some((branches, slack, i));
            }
        }
    }
    match best {
        None => Pick::Done,
        Some((branches, _, item)) => Pick::Branch(item, branches),
    }
}

/// The branching rule when every open item needs exactly one option (`Problem::plain`): the
/// first open item with the fewest live options, stopping at the first with at most one (no
/// item can beat it; an item with none further on is met one level deeper).
#[inline]
fn pick_plain(f: &Frame) -> Pick {
    let mut best = (u32::MAX, 0);
    'scan: for (w, &bits) in f.open.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let count = f.count[i];
            if count < best.0 {
                best = (count, i);
                if count <= 1 {
                    break 'scan;
                }
            }
        }
    }
    match best {
        (u32::MAX, _) => Pick::Done,
        (0, _) => Pick::Dead,
        (count, item) => Pick::Branch(item, count),
    }
}

/// Chooses live option `o` in `f`: kills it, takes one from the need and room of each of its
/// items, and kills the rest of every item it fills. Returns the updates made.
#[inline]
fn choose(p: &Problem, f: &mut Frame, o: usize) -> u64 {
    let mut updates = kill(p, f, o);
    for &i in p.items_of(o) {
        let i = i as usize;
        if f.need[i] > 0 {
            f.need[i] -= 1;
            if f.need[i] == 0 {
                f.open[i / 64] &= !(1 << (i % 64));
            }
        }
        f.room[i] -= 1;
        if f.room[i] == 0 {
            updates += kill_item(p, f, i);
        }
    }
    updates
}

/// [`choose`] for a plain problem: every item of `o` with room for one is filled (closed
/// and its other options killed); the others never bind.
#[inline]
fn choose_plain(p: &Problem, f: &mut Frame, o: usize) -> u64 {
    let mut updates = kill(p, f, o);
    for &i in p.items_of(o) {
        let i = i as usize;
        if p.hi[i] == 1 {
            f.open[i / 64] &= !(1 << (i % 64));
            updates += kill_item(p, f, i);
        }
    }
    updates
}

/// Kills live option `o`: clears its bit and takes it from its items' counts.
#[inline]
fn kill(p: &Problem, f: &mut Frame, o: usize) -> u64 {
    f.live[o / 64] &= !(1 << (o % 64));
    let items = p.items_of(o);
    for &j in items {
        f.count[j as usize] -= 1;
    }
    items.len() as u64
}

/// Kills every live option of item `i` (word-parallel through its mask when it has one).
#[inline]
fn kill_item(p: &Problem, f: &mut Frame, i: usize) -> u64 {
    let span = p.spans[i];
    let mut updates = 0;
    if span.len == 0 {
        for &o in p.options_of(i) {
            let o = o as usize;
            if f.live[o / 64] >> (o % 64) & 1 == 1 {
                updates += kill(p, f, o);
            }
        }
        return updates;
    }
    let masks = &p.item_masks[span.start as usize..(span.start + span.len) as usize];
    for (k, &m) in masks.iter().enumerate() {
        let w = span.first_word as usize + k;
        let mut dead = f.live[w] & m;
        if dead == 0 {
            continue;
        }
        f.live[w] &= !dead;
        while dead != 0 {
            let o = w * 64 + dead.trailing_zeros() as usize;
            dead &= dead - 1;
            let items = p.items_of(o);
            for &j in items {
                f.count[j as usize] -= 1;
            }
            updates += items.len() as u64;
        }
    }
    updates
}
