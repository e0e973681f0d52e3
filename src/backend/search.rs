//! One backtracking search for every model, with a pluggable legality engine.
//!
//! The search ([`run`]) works on any [`Model`]: it places variables (sets them to 1) and asks a
//! [`LegalityEngine`] which variables are still legal, i.e. sit in no row that already holds a
//! placed variable. Two engines drive it: [`crate::backend::bitset`] (exact row counts) and
//! [`crate::backend::vsa`] (bundled shift-code vectors queried by FFT circular correlation), so
//! the cost of the vector representation is measured against the very same steps.
//!
//! The search itself:
//! - **Propagation to a fixed point** with one general rule: an open "exactly one" row with a
//!   single legal variable forces it. On Sudoku this rule covers naked singles (a `cell` row) and
//!   hidden singles (a `row-digit`, `column-digit` or `box-digit` row).
//! - **Contradiction**: an open "exactly one" row with no legal variable left; the search
//!   backtracks at once.
//! - **Choice point**: MRV (the open "exactly one" row with the fewest legal variables; ties to
//!   the lowest row id), then LCV (its candidates ordered by how many peers, i.e. other legal
//!   variables sharing one of their other rows, they leave legal: most first; ties to the lowest
//!   variable id).
//! - **An explicit stack** of decisions; undoing a decision unplaces (the VSA engine subtracts
//!   item vectors) every variable placed since.
//!
//! Variables that sit in no "exactly one" row (only in "at most one" rows) get a slack partner
//! here: a synthetic "exactly one" row `{v, not-v}` (family `slack`), so the same branching
//! decides them and counting stays exact. Slack variables never appear in solutions.
//!
//! Cost per placement: the engine's `place` plus one `legal` query (for `vsa` that is one FFT
//! batch), then work proportional to the number of variables whose legality changed times the
//! rows they sit in. A choice point scans the open rows once.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::backend::{BackendError, Stats, WITNESS_LIMIT};
use crate::model::{Model, Sense, Solution};

/// A fixed-size set of variables, one bit each. Cost: `n / 64` words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VarSet {
    words: Vec<u64>,
}

impl VarSet {
    /// An empty set able to hold ids below `n`.
    pub fn new(n: usize) -> Self {
        VarSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Whether `v` is in the set.
    #[inline]
    pub fn contains(&self, v: usize) -> bool {
        self.words[v >> 6] >> (v & 63) & 1 == 1
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: usize) {
        self.words[v >> 6] |= 1 << (v & 63);
    }

    /// Removes `v`.
    #[inline]
    pub fn remove(&mut self, v: usize) {
        self.words[v >> 6] &= !(1 << (v & 63));
    }

    /// The underlying words (bit `v & 63` of word `v >> 6` is variable `v`).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Makes this set a copy of `other` (same capacity).
    #[inline]
    pub fn copy_from(&mut self, other: &[u64]) {
        self.words.copy_from_slice(other);
    }

    /// Removes every member of a row given as `(word index, mask)` pairs.
    #[inline]
    pub fn remove_words(&mut self, masks: &[(u32, u64)]) {
        for &(w, m) in masks {
            self.words[w as usize] &= !m;
        }
    }

    /// A set holding every id below `n`.
    pub fn full(n: usize) -> Self {
        let mut s = VarSet::new(n);
        for (i, w) in s.words.iter_mut().enumerate() {
            let left = n - i * 64;
            *w = if left >= 64 {
                u64::MAX
            } else {
                (1u64 << left) - 1
            };
        }
        s
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
}

/// The model flattened for the search and the engines: rows and columns as compressed lists,
/// plus slack variables (see the module docs). Built once per solve; cost linear in the nonzeros.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Variables of the model (ids below this are model variables).
    pub model_vars: usize,
    /// Model variables plus slack variables.
    pub num_vars: usize,
    /// Rows: the model's rows in order, then one slack row per slack variable.
    pub num_rows: usize,
    row_start: Vec<u32>,
    row_vars: Vec<u32>,
    var_start: Vec<u32>,
    var_rows: Vec<u32>,
    /// Per row: whether it is an "exactly one" row.
    pub exactly_one: Vec<bool>,
    /// Per row: its family (the model's family ids; slack rows get `families.len() - 1`).
    pub row_family: Vec<u32>,
    /// Per row: its index inside its family.
    pub row_index: Vec<u32>,
    /// Family names (the model's, then `slack` when slack rows exist).
    pub families: Vec<String>,
    /// Number of rows in each family.
    pub family_rows: Vec<u32>,
    /// The givens (model variable ids).
    pub givens: Vec<usize>,
    /// The longest row of the model.
    pub max_row_len: usize,
    word_start: Vec<u32>,
    word_masks: Vec<(u32, u64)>,
}

impl Layout {
    /// Flattens `model`. Cost: two passes over the nonzeros.
    pub fn new(model: &Model) -> Layout {
        let n = model.num_variables();
        let cons = model.constraints();
        let mut in_eq = vec![false; n];
        for c in cons {
            if c.sense == Sense::ExactlyOne {
                for &v in &c.vars {
                    in_eq[v] = true;
                }
            }
        }
        let slack: Vec<usize> = (0..n).filter(|&v| !in_eq[v]).collect();
        let num_vars = n + slack.len();
        let num_rows = cons.len() + slack.len();
        let mut families: Vec<String> = model.families().iter().map(|f| f.name.clone()).collect();
        let mut family_rows: Vec<u32> = model
            .families()
            .iter()
            .map(|f| f.rows.len() as u32)
            .collect();
        if !slack.is_empty() {
            families.push("slack".into());
            family_rows.push(slack.len() as u32);
        }
        let slack_family = families.len().saturating_sub(1) as u32;
        let mut row_start = Vec::with_capacity(num_rows + 1);
        let mut row_vars = Vec::with_capacity(model.nonzeros() + 2 * slack.len());
        let mut exactly_one = Vec::with_capacity(num_rows);
        let mut row_family = Vec::with_capacity(num_rows);
        let mut row_index = Vec::with_capacity(num_rows);
        let mut max_row_len = 0;
        for c in cons {
            row_start.push(row_vars.len() as u32);
            row_vars.extend(c.vars.iter().map(|&v| v as u32));
            exactly_one.push(c.sense == Sense::ExactlyOne);
            row_family.push(c.family as u32);
            row_index.push(c.index as u32);
            max_row_len = max_row_len.max(c.vars.len());
        }
        for (i, &v) in slack.iter().enumerate() {
            row_start.push(row_vars.len() as u32);
            row_vars.push(v as u32);
            row_vars.push((n + i) as u32);
            exactly_one.push(true);
            row_family.push(slack_family);
            row_index.push(i as u32);
        }
        row_start.push(row_vars.len() as u32);
        // Columns by counting sort.
        let mut deg = vec![0u32; num_vars + 1];
        for &v in &row_vars {
            deg[v as usize + 1] += 1;
        }
        for i in 0..num_vars {
            deg[i + 1] += deg[i];
        }
        let var_start = deg.clone();
        let mut fill = deg;
        let mut var_rows = vec![0u32; row_vars.len()];
        for r in 0..num_rows {
            for &v in &row_vars[row_start[r] as usize..row_start[r + 1] as usize] {
                var_rows[fill[v as usize] as usize] = r as u32;
                fill[v as usize] += 1;
            }
        }
        // Each row as (word index, bit mask) pairs over the variable bitset.
        let mut word_start = Vec::with_capacity(num_rows + 1);
        let mut word_masks: Vec<(u32, u64)> = Vec::new();
        for r in 0..num_rows {
            word_start.push(word_masks.len() as u32);
            let first = word_masks.len();
            for &v in &row_vars[row_start[r] as usize..row_start[r + 1] as usize] {
                let (w, bit) = (v >> 6, 1u64 << (v & 63));
                match word_masks[first..].iter_mut().find(|(x, _)| *x == w) {
                    Some((_, m)) => *m |= bit,
                    None => word_masks.push((w, bit)),
                }
            }
        }
        word_start.push(word_masks.len() as u32);
        Layout {
            word_start,
            word_masks,
            model_vars: n,
            num_vars,
            num_rows,
            row_start,
            row_vars,
            var_start,
            var_rows,
            exactly_one,
            row_family,
            row_index,
            families,
            family_rows,
            givens: model.givens().to_vec(),
            max_row_len,
        }
    }

    /// The variables of row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> &[u32] {
        &self.row_vars[self.row_start[r] as usize..self.row_start[r + 1] as usize]
    }

    /// Row `r` as `(word index, mask)` pairs over a [`VarSet`] of all variables.
    #[inline]
    pub fn row_words(&self, r: usize) -> &[(u32, u64)] {
        &self.word_masks[self.word_start[r] as usize..self.word_start[r + 1] as usize]
    }

    /// The rows variable `v` sits in.
    #[inline]
    pub fn rows_of(&self, v: usize) -> &[u32] {
        &self.var_rows[self.var_start[v] as usize..self.var_start[v + 1] as usize]
    }
}

/// Decides which variables are legal: a variable is legal when none of its rows holds a placed
/// variable. The search tells the engine every placement and every undo; the engine answers
/// with the legal set. Engines may be approximate ([`LegalityEngine::exact`] false); the search
/// then never claims infeasibility or an exhaustive count, and the verifier judges any answer.
pub trait LegalityEngine {
    /// Short name (`bitset`, `vsa`).
    fn name(&self) -> &'static str;
    /// Prepares for a new model; forgets all placements. Called once per solve.
    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError>;
    /// Whether the engine's answers are exact for the layout given to the last `reset`.
    fn exact(&self) -> bool;
    /// Records that `var` is placed (set to 1).
    fn place(&mut self, layout: &Layout, var: usize);
    /// Undoes a [`LegalityEngine::place`] of `var` (placements are undone in reverse order).
    fn unplace(&mut self, layout: &Layout, var: usize);
    /// The legal variables given the current placements (placed variables are never legal).
    fn legal(&mut self, layout: &Layout) -> &VarSet;
    /// Adds engine-specific figures (FFT batches, ...) to `stats.extra`.
    fn report(&self, _stats: &mut Stats) {}
}

/// Turns row occupancy into the legal set: tracks, per variable, how many of its rows are
/// occupied. Shared by the engines so that they differ only in how they learn occupancy.
/// Cost per occupancy change: the length of the row.
#[derive(Debug, Clone, Default)]
pub struct RowGate {
    occupied: Vec<bool>,
    blocked: Vec<u16>,
    legal: VarSet,
}

impl RowGate {
    /// All rows free, all variables legal.
    pub fn reset(&mut self, layout: &Layout) {
        self.occupied.clear();
        self.occupied.resize(layout.num_rows, false);
        self.blocked.clear();
        self.blocked.resize(layout.num_vars, 0);
        self.legal = VarSet::full(layout.num_vars);
    }

    /// Whether row `r` is currently seen as occupied.
    #[inline]
    pub fn is_occupied(&self, r: usize) -> bool {
        self.occupied[r]
    }

    /// Marks row `r` occupied or free, updating the legality of its variables.
    #[inline]
    pub fn set(&mut self, layout: &Layout, r: usize, occupied: bool) {
        if self.occupied[r] == occupied {
            return;
        }
        self.occupied[r] = occupied;
        for &v in layout.row(r) {
            let v = v as usize;
            if occupied {
                if self.blocked[v] == 0 {
                    self.legal.remove(v);
                }
                self.blocked[v] += 1;
            } else {
                self.blocked[v] -= 1;
                if self.blocked[v] == 0 {
                    self.legal.insert(v);
                }
            }
        }
    }

    /// The legal set.
    #[inline]
    pub fn legal(&self) -> &VarSet {
        &self.legal
    }
}

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
    /// Solutions found (model variables only), at most [`WITNESS_LIMIT`] kept.
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

struct Frame {
    cand_start: usize,
    cand_len: usize,
    next: usize,
    trail_len: usize,
}

/// Added to the legal count of a row that needs no more variables (a filled "exactly one" row, or
/// any "at most one" row), so one comparison (`count <= 1`) finds the rows that force or fail.
const CLOSED: u32 = 1 << 24;

struct State<'l> {
    layout: &'l Layout,
    legal: VarSet,
    count: Vec<u32>,
    filled: Vec<u32>,
    open: usize,
    placed: Vec<u32>,
    queue: Vec<u32>,
    scored: Vec<(u32, u32)>,
    stats: Stats,
}

impl State<'_> {
    /// Brings the cached legal set and per-row legal counts up to date with the engine.
    fn sync(&mut self, engine: &mut dyn LegalityEngine) {
        let layout = self.layout;
        let fresh = engine.legal(layout);
        // Disjoint borrows of the fields, so the hot loop keeps them in registers instead of
        // reloading them after every queue push.
        let count = self.count.as_mut_slice();
        let queue = &mut self.queue;
        for (w, (&new, old)) in fresh
            .words
            .iter()
            .zip(self.legal.words.iter_mut())
            .enumerate()
        {
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

    fn place(&mut self, engine: &mut dyn LegalityEngine, v: usize) {
        engine.place(self.layout, v);
        self.placed.push(v as u32);
        for &r in self.layout.rows_of(v) {
            let r = r as usize;
            self.filled[r] += 1;
            if self.filled[r] == 1 && self.layout.exactly_one[r] {
                self.open -= 1;
                self.count[r] += CLOSED;
            }
        }
    }

    fn undo_to(&mut self, engine: &mut dyn LegalityEngine, len: usize) {
        while self.placed.len() > len {
            let v = self.placed.pop().unwrap() as usize;
            engine.unplace(self.layout, v);
            for &r in self.layout.rows_of(v) {
                let r = r as usize;
                self.filled[r] -= 1;
                if self.filled[r] == 0 && self.layout.exactly_one[r] {
                    self.open += 1;
                    self.count[r] -= CLOSED;
                }
            }
        }
    }

    /// Places forced variables until none is left. False on a contradiction.
    fn propagate(&mut self, engine: &mut dyn LegalityEngine) -> bool {
        while let Some(r) = self.queue.pop() {
            let r = r as usize;
            match self.count[r] {
                0 => {
                    self.queue.clear();
                    return false;
                }
                1 => {
                    let layout = self.layout;
                    let v = layout
                        .row(r)
                        .iter()
                        .map(|&v| v as usize)
                        .find(|&v| self.legal.contains(v))
                        .expect("a row with one legal variable holds it");
                    self.stats.steps += 1;
                    self.place(engine, v);
                    self.sync(engine);
                }
                _ => {}
            }
        }
        true
    }

    /// MRV: the open "exactly one" row with the fewest legal variables.
    fn choose_row(&self) -> usize {
        let layout = self.layout;
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        for r in 0..layout.num_rows {
            // Closed rows carry CLOSED, so they never win.
            if self.count[r] < best_count {
                best = r;
                best_count = self.count[r];
                if best_count <= 2 {
                    break;
                }
            }
        }
        best
    }

    /// LCV: the legal variables of row `r`, those leaving the most peers legal first.
    fn candidates(&mut self, r: usize, out: &mut Vec<u32>) {
        let layout = self.layout;
        let start = out.len();
        let scored = &mut self.scored;
        scored.clear();
        for &v in layout.row(r) {
            if !self.legal.contains(v as usize) {
                continue;
            }
            let peers: u32 = layout
                .rows_of(v as usize)
                .iter()
                .filter(|&&q| q as usize != r)
                .map(|&q| (self.count[q as usize] & (CLOSED - 1)).saturating_sub(1))
                .sum();
            scored.push((peers, v));
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.extend(scored.iter().map(|&(_, v)| v));
        debug_assert!(out.len() > start);
    }

    fn solution(&self) -> Solution {
        Solution::new(
            self.placed
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| v < self.layout.model_vars)
                .collect(),
        )
    }
}

/// Runs the search on `layout` with `engine`. The engine is reset first. Stops at the goal, when
/// the space is exhausted, or at `time_limit` (checked every 256 placements).
pub fn run(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    goal: Goal,
    time_limit: Option<Duration>,
) -> Result<SearchOutcome, BackendError> {
    search(engine, layout, goal, time_limit, None)
}

/// Runs the search on `layout` handing every solution to `sink` (which may stop it) instead of
/// keeping witnesses; `outcome.solutions` stays empty. Same steps and limits as [`run`].
pub fn run_streaming(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    time_limit: Option<Duration>,
    sink: &mut dyn FnMut(Solution) -> ControlFlow<()>,
) -> Result<SearchOutcome, BackendError> {
    search(
        engine,
        layout,
        Goal::Count { limit: None },
        time_limit,
        Some(sink),
    )
}

fn search(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    goal: Goal,
    time_limit: Option<Duration>,
    mut sink: Option<&mut dyn FnMut(Solution) -> ControlFlow<()>>,
) -> Result<SearchOutcome, BackendError> {
    let start = Instant::now();
    let deadline = time_limit.and_then(|t| start.checked_add(t));
    engine.reset(layout)?;
    let exact = engine.exact();
    let mut st = State {
        layout,
        legal: VarSet::new(layout.num_vars),
        count: layout
            .exactly_one
            .iter()
            .map(|&e| if e { 0 } else { CLOSED })
            .collect(),
        filled: vec![0; layout.num_rows],
        open: layout.exactly_one.iter().filter(|&&e| e).count(),
        placed: Vec::with_capacity(layout.num_vars),
        queue: Vec::with_capacity(layout.num_rows),
        scored: Vec::new(),
        stats: Stats::default(),
    };
    let limit = match goal {
        Goal::Solve => Some(1),
        Goal::Count { limit } => limit,
    };
    let mut outcome = SearchOutcome {
        solutions: Vec::new(),
        count: 0,
        exhausted: false,
        timed_out: false,
        exact,
        stats: Stats::default(),
    };
    let finish = |mut st: State, mut outcome: SearchOutcome, engine: &dyn LegalityEngine| {
        st.stats.nodes = st.stats.guesses + 1;
        st.stats.solutions = outcome.count as u64;
        st.stats.seconds = start.elapsed().as_secs_f64();
        engine.report(&mut st.stats);
        outcome.stats = st.stats;
        Ok(outcome)
    };
    if limit == Some(0) {
        return finish(st, outcome, engine);
    }
    for &g in &layout.givens {
        st.place(engine, g);
    }
    st.sync(engine);
    for r in 0..layout.num_rows {
        if st.count[r] <= 1 {
            st.queue.push(r as u32);
        }
    }
    let mut frames: Vec<Frame> = Vec::new();
    let mut cands: Vec<u32> = Vec::new();
    let mut checked = 0u64;
    loop {
        if let Some(d) = deadline {
            if st.stats.steps >= checked + 256 {
                checked = st.stats.steps;
                if Instant::now() >= d {
                    outcome.timed_out = true;
                    return finish(st, outcome, engine);
                }
            }
        }
        let mut ok = st.propagate(engine);
        if ok && st.open == 0 {
            outcome.count += 1;
            if let Some(sink) = sink.as_deref_mut() {
                if sink(st.solution()).is_break() {
                    return finish(st, outcome, engine);
                }
            } else if outcome.solutions.len() < WITNESS_LIMIT {
                outcome.solutions.push(st.solution());
            }
            if limit.is_some_and(|l| outcome.count >= l as u128) {
                return finish(st, outcome, engine);
            }
            ok = false;
        }
        if ok {
            let r = st.choose_row();
            let cand_start = cands.len();
            st.candidates(r, &mut cands);
            let first = cands[cand_start] as usize;
            frames.push(Frame {
                cand_start,
                cand_len: cands.len() - cand_start,
                next: 1,
                trail_len: st.placed.len(),
            });
            st.stats.guesses += 1;
            st.stats.steps += 1;
            st.place(engine, first);
            st.sync(engine);
            continue;
        }
        // Contradiction (or a solution counted): back to the latest open alternative.
        loop {
            let Some(f) = frames.last_mut() else {
                outcome.exhausted = true;
                return finish(st, outcome, engine);
            };
            st.undo_to(engine, f.trail_len);
            st.stats.backtracks += 1;
            if f.next < f.cand_len {
                let v = cands[f.cand_start + f.next] as usize;
                f.next += 1;
                st.queue.clear();
                st.sync(engine);
                st.queue.clear();
                st.stats.guesses += 1;
                st.stats.steps += 1;
                st.place(engine, v);
                st.sync(engine);
                break;
            }
            cands.truncate(f.cand_start);
            frames.pop();
        }
    }
}

/// Keeps the last [`Layout`] and reuses it when the next model has the same rows (only the
/// givens differ, as for a series of Sudoku puzzles). Models that share their structure by
/// reference (see [`Model::shares_shape_with`]) are recognised in constant time; others cost
/// one comparison of the rows.
#[derive(Debug, Clone, Default)]
pub struct LayoutCache {
    last: Option<(Model, Layout)>,
}

impl LayoutCache {
    /// The layout of `model`, rebuilt only when its rows differ from the previous model's.
    pub fn layout(&mut self, model: &Model) -> &Layout {
        let same = matches!(&self.last, Some((m, _))
            if m.shares_shape_with(model)
                || (m.num_variables() == model.num_variables()
                    && m.constraints() == model.constraints()));
        if same {
            let (_, layout) = self.last.as_mut().expect("checked above");
            layout.givens.clear();
            layout.givens.extend_from_slice(model.givens());
        } else {
            self.last = Some((model.clone(), Layout::new(model)));
        }
        &self.last.as_ref().expect("set above").1
    }
}

/// The shared `solve` body of the search backends.
pub(crate) fn solve_report(
    engine: &mut dyn LegalityEngine,
    cache: &mut LayoutCache,
    model: &Model,
    time_limit: Option<Duration>,
) -> Result<crate::backend::SolveReport, BackendError> {
    use crate::backend::Found;
    let layout = cache.layout(model);
    let out = run(engine, layout, Goal::Solve, time_limit)?;
    let found = match out.solutions.into_iter().next() {
        Some(s) => Found::Solution(s),
        None if out.timed_out => Found::Unknown("time limit reached".into()),
        None if !out.exact => Found::Unknown(format!(
            "search exhausted without a solution, but the {} engine is approximate",
            engine.name()
        )),
        None => Found::Infeasible,
    };
    Ok(crate::backend::SolveReport {
        found,
        stats: out.stats,
    })
}

/// The shared `count` body: exhaustive only when the engine is exact.
pub(crate) fn count_report(
    engine: &mut dyn LegalityEngine,
    cache: &mut LayoutCache,
    model: &Model,
    limit: Option<u64>,
    time_limit: Option<Duration>,
) -> Result<crate::backend::CountReport, BackendError> {
    let layout = cache.layout(model);
    let out = run(engine, layout, Goal::Count { limit }, time_limit)?;
    Ok(crate::backend::CountReport {
        count: out.count,
        exhaustive: out.exhausted && out.exact,
        witnesses: out.solutions,
        stats: out.stats,
    })
}

/// A backend made of the shared search and one legality engine `E`: solves, counts and honours
/// a time limit. `bitset` and `vsa` are this struct with their engines, so both run the very
/// same steps and differ only in how legality is read.
#[derive(Debug, Clone, Default)]
pub struct SearchBackend<E> {
    engine: E,
    time_limit: Option<Duration>,
    layouts: LayoutCache,
}

impl<E: LegalityEngine> SearchBackend<E> {
    /// The search driving `engine`, with the time limit of `options`.
    pub fn with_engine(engine: E, options: &crate::backend::BackendOptions) -> Self {
        SearchBackend {
            engine,
            time_limit: options.time_limit,
            layouts: LayoutCache::default(),
        }
    }

    /// The legality engine (for its statistics and settings).
    pub fn engine(&self) -> &E {
        &self.engine
    }
}

impl<E: LegalityEngine> crate::backend::Solver for SearchBackend<E> {
    fn solve(&mut self, model: &Model) -> Result<crate::backend::SolveReport, BackendError> {
        solve_report(&mut self.engine, &mut self.layouts, model, self.time_limit)
    }
}

impl<E: LegalityEngine> crate::backend::Counter for SearchBackend<E> {
    fn count(
        &mut self,
        model: &Model,
        limit: Option<u64>,
    ) -> Result<crate::backend::CountReport, BackendError> {
        count_report(
            &mut self.engine,
            &mut self.layouts,
            model,
            limit,
            self.time_limit,
        )
    }
}

impl<E: LegalityEngine> crate::backend::SolutionStream for SearchBackend<E> {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        let layout = self.layouts.layout(model);
        let out = run_streaming(&mut self.engine, layout, self.time_limit, found)?;
        Ok(crate::backend::StreamReport {
            exhaustive: out.exhausted && out.exact,
            stats: out.stats,
        })
    }
}

impl<E: LegalityEngine> crate::backend::TimeLimit for SearchBackend<E> {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl<E: LegalityEngine + Send> crate::backend::Backend for SearchBackend<E> {
    fn name(&self) -> &'static str {
        self.engine.name()
    }
    fn solver(&mut self) -> Option<&mut dyn crate::backend::Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn crate::backend::Counter> {
        Some(self)
    }
    fn time_limit(&mut self) -> Option<&mut dyn crate::backend::TimeLimit> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
}
