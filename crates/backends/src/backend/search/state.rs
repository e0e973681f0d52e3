//! The search's state: what it is asked ([`Goal`]), how it ended ([`SearchOutcome`]), and the
//! placements, legal counts, row sums and trails it keeps, with placing and undoing.

use super::engine::LegalityEngine;
use super::layout::{Layout, TrackedRow, VarSet};
use crate::backend::Stats;
use crate::model::Solution;
use std::time::Instant;

/// What the search is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// Stop at the first solution.
    Solve,
    /// Count solutions, stopping once `limit` are found (`None`: all).
    Count {
        /// Stop after this many solutions.
        limit: Option<u64>,
    },
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome {
    /// Solutions found (model variables only), at most [`WITNESS_LIMIT`](crate::backend::WITNESS_LIMIT) kept.
    pub solutions: Vec<Solution>,
    /// Number of solutions met.
    pub count: u128,
    /// Whether the search space was exhausted (false when stopped by the goal or the time).
    pub exhausted: bool,
    /// Whether the time limit stopped it.
    pub timed_out: bool,
    /// Whether the engine was exact (so `exhausted` proves there are no more solutions).
    pub exact: bool,
    /// Statistics (steps, guesses, backtracks, nodes, seconds, engine extras).
    pub stats: Stats,
}

impl SearchOutcome {
    /// How the enumeration ended: complete only when an exact engine exhausted the space; an
    /// approximate engine's exhausted space proves nothing ([`Undecided::ApproximateEngine`]).
    ///
    /// [`Undecided::ApproximateEngine`]: crate::backend::Undecided::ApproximateEngine
    /// `engine` names the engine for that reason.
    pub fn end(&self, engine: &'static str) -> crate::backend::CountEnd {
        use crate::backend::{CountEnd, Undecided};
        match (self.exhausted, self.timed_out) {
            (true, _) if self.exact => CountEnd::Complete,
            (true, _) => CountEnd::Undecided(Undecided::ApproximateEngine { engine }),
            (false, true) => CountEnd::TimedOut,
            (false, false) => CountEnd::AtLimit,
        }
    }
}

pub(super) struct Frame {
    pub(super) cand_start: usize,
    pub(super) cand_len: usize,
    pub(super) next: usize,
    pub(super) trail_len: usize,
    /// Length of the exclusion trail when the frame was made.
    pub(super) excluded_len: usize,
    /// Whether the frame branches on a general row: alternative `i` places candidate `i` and
    /// excludes candidates `0..i` (so each solution is reached once).
    pub(super) exclusive: bool,
    /// When optimising: a proved lower bound (minimisation form) on every solution of the
    /// frame's subtree not yet explored (see `run.rs`, `Branches`); `i128::MIN` otherwise.
    pub(super) bound: i128,
}

/// Added to the legal count of a row that needs no more variables (a filled "exactly one" row, or
/// any "at most one" or general row), so one comparison (`count <= 1`) finds the rows that force
/// or fail.
pub(super) const CLOSED: u32 = 1 << 24;

/// The legal set's size (in words) from which [`State::sync`] reads back only the words a
/// step touched (with a local engine). Below it a step's rows cover a good share of the words
/// anyway, and reading every word in order costs less than keeping the list (with the list
/// and bitset's word log for every size, bitset's median per royle Sudoku puzzle, 12 words,
/// went from 22 to 28 us; with both thresholds it is 23-24 us).
const LOCAL_SYNC_MIN_WORDS: usize = 256;

pub(super) struct State<'l> {
    pub(super) layout: &'l Layout,
    pub(super) legal: VarSet,
    pub(super) count: Vec<u32>,
    pub(super) filled: Vec<u32>,
    /// Per general row: the weight placed in it.
    pub(super) sum: Vec<u64>,
    /// Per general row: the weight of its legal variables (what it can still gain).
    pub(super) avail: Vec<u64>,
    /// Variables a branch of a general row ruled out (never legal while excluded).
    pub(super) excluded: VarSet,
    pub(super) excluded_trail: Vec<u32>,
    pub(super) open: usize,
    pub(super) placed: Vec<u32>,
    pub(super) queue: Vec<u32>,
    /// Per row when general rows exist: whether it is in `queue` as a demand row.
    pub(super) pending: Vec<bool>,
    /// Demand rows waiting for the clique-cover rule, and whether each row is among them.
    pub(super) cover_queue: Vec<u32>,
    pub(super) cover_pending: Vec<bool>,
    /// Scratch for [`State::candidates`]: (LCV score, variable, weight in the row).
    pub(super) scored: Vec<(u32, u32, u64)>,
    /// Scratch for [`State::propagate_cover`]: (clique row or `u32::MAX`, positions covered).
    pub(super) parts: Vec<(u32, u128)>,
    /// When optimising: each variable's minimisation-form cost, which orders candidates
    /// (cheapest first, then LCV).
    pub(super) costs: Option<Vec<i64>>,
    /// When optimising from a hint: per variable, its rank (hinted values first; see
    /// [`crate::backend::branch_bound::CostBound::set_preference`]), before the cost.
    pub(super) prefer: Option<Vec<u8>>,
    /// When optimising: the slack rows in the order to branch on them, after every open model
    /// row (see [`State::choose_row_optimizing`]).
    pub(super) slack_order: Option<Vec<u32>>,
    /// Whether the engine changes legality only within the rows of the variable it places
    /// ([`LegalityEngine::local`]): then [`State::sync`] reads only the words in `dirty`.
    pub(super) local: bool,
    /// Words of the legal set that may have changed since the last [`State::sync`] (rows of
    /// the variables placed or taken back, words of exclusions); `None` for every word.
    pub(super) dirty: Option<Vec<u32>>,
    /// Every row below it is closed (its count at least [`CLOSED`]), so the choice of a row
    /// starts its scan there ([`State::choose_row_among`]); lowered when a row reopens.
    pub(super) scan_from: std::cell::Cell<usize>,
    /// Scratch for [`State::sync`]: the words it reads.
    pub(super) sync_words: Vec<u32>,
    pub(super) stats: Stats,
    /// Proof logging is on: propagation stays within pseudo-Boolean unit propagation (the
    /// clique-cover rule is off), so every contradiction it meets is a checkable RUP step.
    pub(super) rup_only: bool,
}

impl<'l> State<'l> {
    /// The state before anything is placed (the engine must have been reset on `layout`).
    pub(super) fn new(layout: &'l Layout) -> Self {
        let general_rows = if layout.general { layout.num_rows } else { 0 };
        State {
            layout,
            legal: VarSet::new(layout.num_vars),
            count: (layout.exactly_one.iter())
                .map(|&e| if e { 0 } else { CLOSED })
                .collect(),
            filled: vec![0; layout.num_rows],
            sum: vec![0; general_rows],
            avail: vec![0; general_rows],
            excluded: VarSet::new(layout.num_vars),
            excluded_trail: Vec::new(),
            open: layout.exactly_one.iter().filter(|&&e| e).count() + layout.demand_rows.len(),
            placed: Vec::with_capacity(layout.num_vars),
            queue: Vec::with_capacity(layout.num_rows),
            pending: vec![false; general_rows],
            cover_queue: Vec::new(),
            cover_pending: vec![false; general_rows],
            scored: Vec::new(),
            parts: Vec::new(),
            costs: None,
            prefer: None,
            slack_order: None,
            local: false,
            dirty: None,
            scan_from: std::cell::Cell::new(0),
            sync_words: Vec::new(),
            stats: Stats::default(),
            rup_only: false,
        }
    }

    /// Notes that the legal words of `v`'s rows may change (see [`State::dirty`]).
    #[inline]
    fn touch_rows_of(&mut self, v: usize) {
        if let Some(dirty) = &mut self.dirty {
            for &r in self.layout.rows_of(v) {
                dirty.extend(self.layout.row_words(r as usize).iter().map(|&(w, _)| w));
            }
            dirty.push((v >> 6) as u32);
        }
    }

    /// Notes that row `r` is open again, for the scan of [`State::choose_row_among`].
    #[inline]
    fn reopened(&self, r: usize) {
        if r < self.scan_from.get() {
            self.scan_from.set(r);
        }
    }

    /// Places the givens and queues every row the first propagation must look at.
    pub(super) fn start(&mut self, engine: &mut dyn LegalityEngine) {
        let layout = self.layout;
        self.local = engine.local() && self.legal.words.len() > LOCAL_SYNC_MIN_WORDS;
        self.dirty = None;
        for &g in &layout.givens {
            self.place(engine, g);
        }
        self.sync(engine);
        for r in 0..layout.num_rows {
            if self.count[r] <= 1 {
                self.queue.push(r as u32);
            }
        }
        for &r in &layout.demand_rows {
            self.push_demand(r as usize);
        }
    }

    /// Failed-literal probing at the root of a model with general rows (see
    /// [`root_propagation`]): the state must be a propagated root. False when the root itself
    /// is contradictory.
    pub(super) fn probe(
        &mut self,
        engine: &mut dyn LegalityEngine,
        deadline: Option<Instant>,
    ) -> bool {
        let model_vars = self.layout.model_vars;
        // Probing stops soundly at a stop request too (what it fixed so far holds).
        let stop = crate::backend::stop::current();
        loop {
            let mut fixed = false;
            for v in 0..model_vars {
                if !self.legal.contains(v) {
                    continue;
                }
                if deadline.is_some_and(|d| Instant::now() >= d)
                    || crate::backend::stop::raised(&stop)
                {
                    return true;
                }
                let (placed, excluded) = (self.placed.len(), self.excluded_trail.len());
                self.place(engine, v);
                self.sync(engine);
                let ok = self.propagate(engine);
                self.undo_to(engine, placed);
                self.unexclude_to(excluded);
                self.clear_queue();
                self.sync(engine);
                self.clear_queue();
                if !ok {
                    // No solution has v = 1: rule it out for good and propagate that.
                    self.exclude(v);
                    self.sync(engine);
                    if !self.propagate(engine) {
                        return false;
                    }
                    fixed = true;
                }
            }
            if !fixed {
                return true;
            }
        }
    }

    /// Brings the cached legal set and per-row legal counts up to date with the engine: every
    /// word, or with a local engine only the words touched since the last call (so a step
    /// costs its rows, not `variables / 64`).
    pub(super) fn sync(&mut self, engine: &mut dyn LegalityEngine) {
        if self.dirty.is_none() {
            // Every word, in order (no list of indices to build and follow).
            let all = 0..self.legal.words.len();
            self.sync_over(engine, all);
            if self.local {
                self.dirty = Some(Vec::new());
            }
            return;
        }
        let mut words = std::mem::take(&mut self.sync_words);
        words.clear();
        if let Some(dirty) = &mut self.dirty {
            std::mem::swap(dirty, &mut words);
        }
        self.sync_over(engine, words.iter().map(|&w| w as usize));
        self.sync_words = words;
    }

    /// [`State::sync`] over the words `words`.
    fn sync_over(&mut self, engine: &mut dyn LegalityEngine, words: impl Iterator<Item = usize>) {
        if self.layout.general {
            self.sync_general(engine, words);
        } else {
            self.sync_exact(engine, words);
        }
    }

    /// [`State::sync`] for models without general rows, over the words `words`.
    fn sync_exact(&mut self, engine: &mut dyn LegalityEngine, words: impl Iterator<Item = usize>) {
        let layout = self.layout;
        let fresh = engine.legal(layout);
        // Disjoint borrows of the fields, so the hot loop keeps them in registers instead of
        // reloading them after every queue push.
        let count = self.count.as_mut_slice();
        let queue = &mut self.queue;
        for w in words {
            let (new, old) = (fresh.words[w], &mut self.legal.words[w]);
            let mut changed = new ^ *old;
            if changed == 0 {
                continue;
            }
            *old = new;
            while changed != 0 {
                let bit = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                let v = w * 64 + bit;
                if new >> bit & 1 == 1 {
                    for &r in layout.rows_of(v) {
                        count[r as usize] += 1;
                    }
                } else {
                    for &r in layout.rows_of(v) {
                        let c = &mut count[r as usize];
                        *c -= 1;
                        if *c <= 1 {
                            queue.push(r);
                        }
                    }
                }
            }
        }
    }

    /// [`State::sync`] for models with general rows: the legal set is the engine's minus the
    /// excluded variables, and general rows also track the weight still placeable; a demand
    /// row is queued whenever that weight drops.
    fn sync_general(
        &mut self,
        engine: &mut dyn LegalityEngine,
        words: impl Iterator<Item = usize>,
    ) {
        let layout = self.layout;
        let fresh = engine.legal(layout);
        // Disjoint borrows, as in `sync_exact`. `avail` is kept for every tracked row (only
        // general rows read it), which saves a branch per (variable, row).
        let State {
            legal,
            excluded,
            count,
            avail,
            pending,
            queue,
            ..
        } = self;
        for w in words {
            let new = fresh.words[w] & !excluded.words[w];
            let old = &mut legal.words[w];
            let mut changed = new ^ *old;
            if changed == 0 {
                continue;
            }
            *old = new;
            while changed != 0 {
                let bit = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                let rows = layout.tracked_of(w * 64 + bit);
                if new >> bit & 1 == 1 {
                    for t in rows {
                        count[t.row as usize] += 1;
                        avail[t.row as usize] += t.weight;
                    }
                    continue;
                }
                for t in rows {
                    let r = t.row as usize;
                    count[r] -= 1;
                    avail[r] -= t.weight;
                    let push = match t.kind {
                        TrackedRow::EXACTLY_ONE => count[r] <= 1,
                        TrackedRow::DEMAND => !std::mem::replace(&mut pending[r], true),
                        _ => false,
                    };
                    if push {
                        queue.push(t.row);
                    }
                }
            }
        }
    }

    pub(super) fn place(&mut self, engine: &mut dyn LegalityEngine, v: usize) {
        engine.place(self.layout, v);
        self.touch_rows_of(v);
        self.placed.push(v as u32);
        if self.layout.general {
            return self.mark_general(v, true);
        }
        for &r in self.layout.rows_of(v) {
            let r = r as usize;
            self.filled[r] += 1;
            if self.layout.exactly_one[r] && self.filled[r] == 1 {
                self.open -= 1;
                self.count[r] += CLOSED;
            }
        }
    }

    pub(super) fn undo_to(&mut self, engine: &mut dyn LegalityEngine, len: usize) {
        let layout = self.layout;
        while self.placed.len() > len {
            let v = self.placed.pop().unwrap() as usize;
            engine.unplace(layout, v);
            self.touch_rows_of(v);
            if layout.general {
                self.mark_general(v, false);
                continue;
            }
            for &r in layout.rows_of(v) {
                let r = r as usize;
                self.filled[r] -= 1;
                if layout.exactly_one[r] && self.filled[r] == 0 {
                    self.open += 1;
                    self.count[r] -= CLOSED;
                    self.reopened(r);
                }
            }
        }
    }

    /// [`State::place`] and [`State::undo_to`] for models with general rows: the fill of the
    /// "exactly one" rows and the sums of the general rows through `v` (its tracked rows),
    /// opening or closing rows as they cross their lower bound.
    pub(super) fn mark_general(&mut self, v: usize, placed: bool) {
        for t in self.layout.tracked_of(v) {
            let r = t.row as usize;
            if t.kind == TrackedRow::EXACTLY_ONE {
                if placed {
                    self.filled[r] += 1;
                    if self.filled[r] == 1 {
                        self.open -= 1;
                        self.count[r] += CLOSED;
                    }
                } else {
                    self.filled[r] -= 1;
                    if self.filled[r] == 0 {
                        self.open += 1;
                        self.count[r] -= CLOSED;
                        self.reopened(r);
                    }
                }
                continue;
            }
            let low = self.layout.lower[r];
            let before = self.sum[r];
            if placed {
                self.sum[r] += t.weight;
                if before < low && self.sum[r] >= low {
                    self.open -= 1;
                }
            } else {
                self.sum[r] -= t.weight;
                if before >= low && self.sum[r] < low {
                    self.open += 1;
                }
            }
        }
    }

    /// Queues demand row `r` unless it is queued already (a row loses many variables at once).
    pub(super) fn push_demand(&mut self, r: usize) {
        if !self.pending[r] {
            self.pending[r] = true;
            self.queue.push(r as u32);
        }
    }

    /// Empties the queues.
    pub(super) fn clear_queue(&mut self) {
        if !self.pending.is_empty() {
            for &r in &self.queue {
                self.pending[r as usize] = false;
            }
            for &r in &self.cover_queue {
                self.cover_pending[r as usize] = false;
            }
        }
        self.queue.clear();
        self.cover_queue.clear();
    }

    /// Rules `v` out for the rest of the current branch (see [`Frame::exclusive`]).
    pub(super) fn exclude(&mut self, v: usize) {
        self.excluded.insert(v);
        self.excluded_trail.push(v as u32);
        if let Some(dirty) = &mut self.dirty {
            dirty.push((v >> 6) as u32);
        }
    }

    /// Lets back the variables excluded after the trail had length `len`.
    pub(super) fn unexclude_to(&mut self, len: usize) {
        while self.excluded_trail.len() > len {
            let v = self.excluded_trail.pop().unwrap();
            self.excluded.remove(v as usize);
            if let Some(dirty) = &mut self.dirty {
                dirty.push(v >> 6);
            }
        }
    }
}
