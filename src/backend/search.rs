//! One backtracking search for every model, with a pluggable legality engine.
//!
//! The search ([`run`]) works on any [`Model`]: it places variables (sets them to 1) and asks a
//! [`LegalityEngine`] which variables are still legal, i.e. would take none of their rows past
//! its upper bound (for an exact-cover row: sit in no row that already holds a placed
//! variable). Two engines drive it: [`crate::backend::bitset`] (exact row sums) and
//! [`crate::backend::vsa`] (bundled shift-code vectors queried by FFT circular correlation), so
//! the cost of the vector representation is measured against the very same steps.
//!
//! Rows are `sum_i w_i x_i (=, <=, >=) k`. Upper bounds (`= k`, `<= k`) are the engines'
//! business: a variable whose weight no longer fits is not legal. Lower bounds (`= k`, `>= k`)
//! are the search's: each such row keeps its placed weight `sum` and the weight still
//! placeable `avail` (that of its legal variables).
//!
//! The search itself:
//! - **Propagation to a fixed point** with one general rule: a row with lower bound `k` and
//!   `sum < k` has slack `sum + avail - k`; every legal variable heavier than the slack is
//!   forced (without it the row cannot reach `k`). With unit weights: slack 0 forces every
//!   remaining candidate. For "exactly one" rows this is the single rule "a single legal
//!   variable is forced"; on Sudoku it covers naked singles (a `cell` row) and hidden singles
//!   (a `row-digit`, `column-digit` or `box-digit` row). Exact-cover rows keep their own fast
//!   path (a legal count per row, no sums).
//! - **Clique cover** (general rows with a lower bound, once the rule above is at a fixed
//!   point): the row's legal variables are covered greedily by parts of the exact-cover rows
//!   (`= 1`, `<= 1`) through them; each part takes at most one variable, so the sum of the
//!   parts' largest weights bounds what the row can still gain. Below the need: contradiction.
//!   Equal to it: every part must take one variable of its largest weight, so the part's
//!   lighter variables and the rest of the exact-cover row it came from are excluded, and a
//!   part with one such variable forces it (on Star Battle: the 2x2-window argument).
//! - **Contradiction**: an open "exactly one" row with no legal variable left, or a row whose
//!   `sum + avail` (or clique-cover bound) falls below its lower bound; the search backtracks
//!   at once.
//! - **Choice point**: MRV, counting branches: an open "exactly one" row branches once per legal
//!   variable; an open general row with `c` legal variables that needs at least `need` more
//!   (missing weight over its largest weight, rounded up) counts `c - need + 1` (its slack in
//!   variables, plus one), the same measure for both. Ties go to "exactly one" rows, then the
//!   lowest row id. Candidates are ordered by LCV (how many peers, i.e. other legal variables
//!   sharing one of their other rows, they leave legal: most first; ties to the lowest id).
//! - **Branching**: on an "exactly one" row, candidate `i` is placed (the others are then shut
//!   out by the row). On a general row, alternative `i` places candidate `i` and *excludes*
//!   candidates `0..i` for the rest of that branch (the first of the candidates to be placed),
//!   so every solution is met exactly once however many variables the row takes.
//! - **An explicit stack** of decisions; undoing a decision unplaces (the VSA engine subtracts
//!   item vectors) every variable placed since, and lets back the exclusions made since.
//!
//! Variables that sit in no equation (only in `<=` or `>=` rows) get a slack partner here: a
//! synthetic "exactly one" row `{v, not-v}` (family `slack`), so the same branching decides
//! them and counting stays exact. A variable in an equation needs none: once the equation holds,
//! every variable of it left out is shut out by its upper bound. Slack variables never appear in
//! solutions. A solution is met when every "exactly one" row and every lower bound holds.
//!
//! Cost per placement: the engine's `place` plus one `legal` query (for `vsa` that is one FFT
//! batch), then work proportional to the number of variables whose legality changed times the
//! rows they sit in. A choice point scans the open rows once. Models with general rows pay a
//! weight per (variable, row) pair in the layout and a sum per row, and per demand row and
//! round of propagation one clique cover (its length times the exact-cover rows through each
//! variable; the layout keeps those as bit masks over the row, for rows of up to 128
//! variables).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::backend::branch_bound::CostBound;
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
/// plus slack variables (see the module docs). Built once per solve; cost linear in the nonzeros
/// (plus a sort of each general row by weight).
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
    row_weights: Vec<u64>,
    var_start: Vec<u32>,
    var_rows: Vec<u32>,
    var_weights: Vec<u64>,
    /// Per row: whether it is an "exactly one" row.
    pub exactly_one: Vec<bool>,
    /// Per row: whether it is a general row (not `= 1` / `<= 1` on unit weights). A general
    /// row lists its variables heaviest first (ties by id), so the variables a partial sum
    /// shuts out are always a prefix of the row.
    pub general_row: Vec<bool>,
    /// Whether any row is general (the exact-cover fast paths are taken when not).
    pub general: bool,
    /// Per row: the smallest weighted sum it allows (1 for "exactly one", 0 for `<=` rows).
    pub lower: Vec<u64>,
    /// Per row: the largest weighted sum it allows (`u64::MAX` for `>=` rows).
    pub upper: Vec<u64>,
    /// Per row: its largest weight.
    pub max_weight: Vec<u64>,
    /// General rows with a positive lower bound (`= k`, `>= k`): the rows the search must
    /// fill, besides the "exactly one" rows.
    pub demand_rows: Vec<u32>,
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
    /// Per nonzero (indexed like the rows' variables), plus one: where its cliques start in
    /// `cliques`. Empty when no row is general.
    clique_start: Vec<u32>,
    /// For each position `i` of a demand row of 2 to 128 variables: the exact-cover rows
    /// (`= 1`, `<= 1`) through its variable that hold at least two of the row's variables, as
    /// (row, mask of the row positions they hold). See [`State::propagate_cover`].
    cliques: Vec<Clique>,
    /// Per row when general rows exist: the most positions one of its cliques holds (0 when
    /// it has none).
    clique_width: Vec<u32>,
    /// Per variable, plus one, when general rows exist: where its entries start in `tracked`.
    tracked_start: Vec<u32>,
    /// The (variable, row) pairs whose legal count the search keeps when general rows exist
    /// (see [`Layout::tracked`]), grouped by variable.
    tracked: Vec<TrackedRow>,
}

/// What the clique cover of a demand row says (see [`State::propagate_cover`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cover {
    /// The cover bound exceeds the need (or no cover was tried): nothing follows.
    Loose,
    /// The bound is below the need: the row cannot be filled.
    Short,
    /// The bound equals the need: every part must take one of its heaviest variables.
    Tight,
}

/// An exact-cover row through a variable of a demand row, seen from that demand row.
#[derive(Debug, Clone, Copy)]
struct Clique {
    /// The exact-cover row.
    row: u32,
    /// How many of the demand row's variables it holds (at least two).
    width: u32,
    /// Those variables, as positions in the demand row.
    mask: u128,
}

/// One row of a variable whose legal count and weight [`State::sync`] keeps up to date.
#[derive(Debug, Clone, Copy)]
struct TrackedRow {
    row: u32,
    /// What losing a legal variable means for the row: see [`TrackedRow::DEMAND`].
    kind: u32,
    weight: u64,
}

impl TrackedRow {
    /// An "exactly one" row: queued when at most one legal variable is left.
    const EXACTLY_ONE: u32 = 0;
    /// A general row with a lower bound: queued whenever it loses a variable.
    const DEMAND: u32 = 1;
    /// A general row without a lower bound: counted, never queued.
    const UPPER: u32 = 2;
}

impl Layout {
    /// Flattens `model`. Cost: two passes over the nonzeros.
    pub fn new(model: &Model) -> Layout {
        let n = model.num_variables();
        let cons = model.constraints();
        // A variable in an equation is settled once that equation holds (every other variable
        // of a full `= k` row would overshoot); the others get slack partners.
        let mut in_eq = vec![false; n];
        for c in cons {
            if c.sense.is_equality() {
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
        let mut l = Layout {
            model_vars: n,
            num_vars,
            num_rows,
            row_start: Vec::with_capacity(num_rows + 1),
            row_vars: Vec::with_capacity(model.nonzeros() + 2 * slack.len()),
            row_weights: Vec::with_capacity(model.nonzeros() + 2 * slack.len()),
            var_start: Vec::new(),
            var_rows: Vec::new(),
            var_weights: Vec::new(),
            exactly_one: Vec::with_capacity(num_rows),
            general_row: Vec::with_capacity(num_rows),
            general: false,
            lower: Vec::with_capacity(num_rows),
            upper: Vec::with_capacity(num_rows),
            max_weight: Vec::with_capacity(num_rows),
            demand_rows: Vec::new(),
            row_family: Vec::with_capacity(num_rows),
            row_index: Vec::with_capacity(num_rows),
            families,
            family_rows,
            givens: model.givens().to_vec(),
            max_row_len: 0,
            word_start: Vec::new(),
            word_masks: Vec::new(),
            clique_start: Vec::new(),
            cliques: Vec::new(),
            clique_width: Vec::new(),
            tracked_start: Vec::new(),
            tracked: Vec::new(),
        };
        let mut terms: Vec<(usize, u64)> = Vec::new();
        for c in cons {
            terms.clear();
            terms.extend(c.terms());
            let general = !c.is_unit();
            if general {
                terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            }
            let (low, high) = c.sense.bounds();
            l.push_row(&terms, c.sense == Sense::ExactlyOne, general, (low, high));
            l.row_family.push(c.family as u32);
            l.row_index.push(c.index as u32);
        }
        for (i, &v) in slack.iter().enumerate() {
            l.push_row(&[(v, 1), (n + i, 1)], true, false, (1, Some(1)));
            l.row_family.push(slack_family);
            l.row_index.push(i as u32);
        }
        l.row_start.push(l.row_vars.len() as u32);
        l.general = l.general_row.iter().any(|&g| g);
        l.demand_rows = (0..num_rows)
            .filter(|&r| l.general_row[r] && l.lower[r] > 0)
            .map(|r| r as u32)
            .collect();
        l.build_columns();
        l.build_word_masks();
        l.build_cliques();
        l.build_tracked();
        l
    }

    /// The tracked rows of every variable (see [`Layout::tracked`]). Cost: one pass over the
    /// nonzeros; nothing when no row is general.
    fn build_tracked(&mut self) {
        if !self.general {
            return;
        }
        self.tracked_start = Vec::with_capacity(self.num_vars + 1);
        for v in 0..self.num_vars {
            self.tracked_start.push(self.tracked.len() as u32);
            let (start, end) = (self.var_start[v] as usize, self.var_start[v + 1] as usize);
            for i in start..end {
                let r = self.var_rows[i] as usize;
                let kind = if self.exactly_one[r] {
                    TrackedRow::EXACTLY_ONE
                } else if !self.general_row[r] {
                    continue;
                } else if self.lower[r] > 0 {
                    TrackedRow::DEMAND
                } else {
                    TrackedRow::UPPER
                };
                self.tracked.push(TrackedRow {
                    row: r as u32,
                    kind,
                    weight: self.var_weights[i],
                });
            }
        }
        self.tracked_start.push(self.tracked.len() as u32);
    }

    /// The tracked rows of `v` (general rows exist).
    #[inline]
    fn tracked_of(&self, v: usize) -> &[TrackedRow] {
        &self.tracked[self.tracked_start[v] as usize..self.tracked_start[v + 1] as usize]
    }

    /// The cliques of every demand row (see [`Layout::cliques_at`]). Cost: for each variable
    /// of a demand row, the lengths of the exact-cover rows through it; nothing when no row is
    /// general.
    fn build_cliques(&mut self) {
        if !self.general {
            return;
        }
        let mut demand = vec![false; self.num_rows];
        for &r in &self.demand_rows {
            demand[r as usize] = true;
        }
        // Per exact-cover row, the positions of the current demand row it holds, and how many.
        let mut through = vec![(0u128, 0u32); self.num_rows];
        let mut cliques = Vec::new();
        let mut clique_start = Vec::with_capacity(self.row_vars.len() + 1);
        let mut clique_width = vec![0; self.num_rows];
        let is_clique = |q: u32| !self.general_row[q as usize];
        for r in 0..self.num_rows {
            let vars = self.row(r);
            if !demand[r] || !(2..=128).contains(&vars.len()) {
                clique_start.extend(std::iter::repeat_n(cliques.len() as u32, vars.len()));
                continue;
            }
            for (i, &v) in vars.iter().enumerate() {
                for &q in self.rows_of(v as usize).iter().filter(|&&q| is_clique(q)) {
                    let (mask, width) = &mut through[q as usize];
                    *mask |= 1 << i;
                    *width += 1;
                }
            }
            let from = cliques.len();
            for &v in vars {
                clique_start.push(cliques.len() as u32);
                let at = cliques.len();
                for &q in self.rows_of(v as usize).iter().filter(|&&q| is_clique(q)) {
                    let (mask, width) = through[q as usize];
                    if width >= 2 {
                        cliques.push(Clique {
                            row: q,
                            width,
                            mask,
                        });
                    }
                }
                // Widest first: the search stops at the first narrower than its best part.
                if cliques.len() - at > 1 {
                    cliques[at..].sort_unstable_by_key(|c| (std::cmp::Reverse(c.width), c.row));
                }
            }
            for &v in vars {
                for &q in self.rows_of(v as usize) {
                    through[q as usize] = (0, 0);
                }
            }
            clique_width[r] = cliques[from..].iter().map(|c| c.width).max().unwrap_or(0);
        }
        clique_start.push(cliques.len() as u32);
        (self.cliques, self.clique_start, self.clique_width) =
            (cliques, clique_start, clique_width);
    }

    /// The cliques through position `i` of row `r`: exact-cover rows holding that variable
    /// and at least one more of row `r`, each with the mask of row `r`'s positions it holds.
    /// Empty unless `r` is a demand row of at most 128 variables.
    #[inline]
    fn cliques_at(&self, r: usize, i: usize) -> &[Clique] {
        if self.clique_start.is_empty() {
            return &[];
        }
        let at = self.row_start[r] as usize + i;
        &self.cliques[self.clique_start[at] as usize..self.clique_start[at + 1] as usize]
    }

    /// Whether any position of row `r` has a clique.
    #[inline]
    fn has_cliques(&self, r: usize) -> bool {
        self.clique_width.get(r).is_some_and(|&w| w > 0)
    }

    fn push_row(
        &mut self,
        terms: &[(usize, u64)],
        exactly_one: bool,
        general: bool,
        bounds: (u64, Option<u64>),
    ) {
        self.row_start.push(self.row_vars.len() as u32);
        self.row_vars.extend(terms.iter().map(|&(v, _)| v as u32));
        self.row_weights.extend(terms.iter().map(|&(_, w)| w));
        self.exactly_one.push(exactly_one);
        self.general_row.push(general);
        self.lower.push(bounds.0);
        self.upper.push(bounds.1.unwrap_or(u64::MAX));
        self.max_weight
            .push(terms.iter().map(|&(_, w)| w).max().unwrap_or(1));
        self.max_row_len = self.max_row_len.max(terms.len());
    }

    /// Columns by counting sort, each with the variable's weight in that row.
    fn build_columns(&mut self) {
        let mut deg = vec![0u32; self.num_vars + 1];
        for &v in &self.row_vars {
            deg[v as usize + 1] += 1;
        }
        for i in 0..self.num_vars {
            deg[i + 1] += deg[i];
        }
        self.var_start = deg.clone();
        let mut fill = deg;
        self.var_rows = vec![0u32; self.row_vars.len()];
        self.var_weights = vec![0u64; self.row_vars.len()];
        for r in 0..self.num_rows {
            let (start, end) = (self.row_start[r] as usize, self.row_start[r + 1] as usize);
            for i in start..end {
                let v = self.row_vars[i] as usize;
                self.var_rows[fill[v] as usize] = r as u32;
                self.var_weights[fill[v] as usize] = self.row_weights[i];
                fill[v] += 1;
            }
        }
    }

    /// Each row as (word index, bit mask) pairs over the variable bitset.
    fn build_word_masks(&mut self) {
        self.word_start = Vec::with_capacity(self.num_rows + 1);
        for r in 0..self.num_rows {
            self.word_start.push(self.word_masks.len() as u32);
            let first = self.word_masks.len();
            for i in self.row_start[r] as usize..self.row_start[r + 1] as usize {
                let v = self.row_vars[i];
                let (w, bit) = (v >> 6, 1u64 << (v & 63));
                match self.word_masks[first..].iter_mut().find(|(x, _)| *x == w) {
                    Some((_, m)) => *m |= bit,
                    None => self.word_masks.push((w, bit)),
                }
            }
        }
        self.word_start.push(self.word_masks.len() as u32);
    }

    /// The variables of row `r` (a general row lists them heaviest first).
    #[inline]
    pub fn row(&self, r: usize) -> &[u32] {
        &self.row_vars[self.row_start[r] as usize..self.row_start[r + 1] as usize]
    }

    /// The weights of row `r`, parallel to [`Layout::row`].
    #[inline]
    pub fn row_weights(&self, r: usize) -> &[u64] {
        &self.row_weights[self.row_start[r] as usize..self.row_start[r + 1] as usize]
    }

    /// Row `r` as `(word index, mask)` pairs over a [`VarSet`] of all variables.
    #[inline]
    pub fn row_words(&self, r: usize) -> &[(u32, u64)] {
        &self.word_masks[self.word_start[r] as usize..self.word_start[r + 1] as usize]
    }

    /// Whether the search keeps a legal count for row `r` when general rows exist: "exactly
    /// one" and general rows; an "at most one" row's count only matters to LCV, which then
    /// counts its legal variables on demand (see [`State::candidates`]).
    #[inline]
    fn tracked(&self, r: usize) -> bool {
        self.exactly_one[r] || self.general_row[r]
    }

    /// The rows variable `v` sits in.
    #[inline]
    pub fn rows_of(&self, v: usize) -> &[u32] {
        &self.var_rows[self.var_start[v] as usize..self.var_start[v + 1] as usize]
    }

    /// The weights of `v` in its rows, parallel to [`Layout::rows_of`].
    #[inline]
    pub fn weights_of(&self, v: usize) -> &[u64] {
        &self.var_weights[self.var_start[v] as usize..self.var_start[v + 1] as usize]
    }

    /// How many of row `r`'s variables (a prefix, heaviest first) a weighted sum of `sum`
    /// shuts out: those whose weight would take the row past its upper bound. Every
    /// variable of a full `= 1` / `<= 1` row; none of a `>=` row. Cost: the prefix length.
    #[inline]
    pub fn shut_out(&self, r: usize, sum: u64) -> usize {
        let upper = self.upper[r];
        if upper == u64::MAX {
            return 0;
        }
        let weights = self.row_weights(r);
        if sum > upper || (sum == upper && self.max_weight[r] == 1) {
            return weights.len();
        }
        if self.max_weight[r] == 1 {
            return 0;
        }
        let room = upper - sum;
        weights.iter().take_while(|&&w| w > room).count()
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
    /// `Err(reason)` when the engine cannot read some row of `model` exactly. The default
    /// takes every row kind (`= k`, `<= k`, `>= k`, any weights). Cost: at most one scan of
    /// the rows.
    fn rows_supported(&self, _model: &Model) -> Result<(), String> {
        Ok(())
    }
}

/// Turns row sums into the legal set: tracks, per row, the weighted sum an engine read for it
/// and how many of its variables (a prefix, heaviest first) that sum shuts out (see
/// [`Layout::shut_out`]), and per variable how many rows shut it out. Shared by the engines so
/// that they differ only in how they learn the sums. An exact-cover row is the case where a
/// sum of 1 shuts out the whole row. Cost per sum change: the change in the prefix.
#[derive(Debug, Clone, Default)]
pub struct RowGate {
    sums: Vec<u64>,
    shut: Vec<u32>,
    blocked: Vec<u32>,
    legal: VarSet,
}

impl RowGate {
    /// All sums 0, every variable legal unless a row's bound already shuts it out (a weight
    /// above the row's right-hand side, or any variable of a `= 0` row).
    pub fn reset(&mut self, layout: &Layout) {
        self.sums.clear();
        self.sums.resize(layout.num_rows, 0);
        self.shut.clear();
        self.shut.resize(layout.num_rows, 0);
        self.blocked.clear();
        self.blocked.resize(layout.num_vars, 0);
        self.legal = VarSet::full(layout.num_vars);
        for r in 0..layout.num_rows {
            if layout.general_row[r] {
                let shut = layout.shut_out(r, 0);
                self.shut[r] = shut as u32;
                for &v in &layout.row(r)[..shut] {
                    self.block(v as usize);
                }
            }
        }
    }

    /// The sum last read for row `r`.
    #[inline]
    pub fn sum(&self, r: usize) -> u64 {
        self.sums[r]
    }

    /// Marks row `r` occupied (sum 1) or free (sum 0): the exact-cover case of
    /// [`RowGate::set_sum`].
    #[inline]
    pub fn set(&mut self, layout: &Layout, r: usize, occupied: bool) {
        self.set_sum(layout, r, occupied as u64);
    }

    /// Records that row `r`'s weighted sum reads `sum`, updating the legality of the variables
    /// it shuts out or lets back in.
    #[inline]
    pub fn set_sum(&mut self, layout: &Layout, r: usize, sum: u64) {
        if self.sums[r] == sum {
            return;
        }
        self.sums[r] = sum;
        let old = self.shut[r] as usize;
        let new = layout.shut_out(r, sum);
        if old == new {
            return;
        }
        self.shut[r] = new as u32;
        let row = layout.row(r);
        if new > old {
            for &v in &row[old..new] {
                self.block(v as usize);
            }
        } else {
            for &v in &row[new..old] {
                self.unblock(v as usize);
            }
        }
    }

    /// Marks a placed variable illegal (`placed`) or lets it back (a placed variable is never
    /// legal, even when its rows have room for it again).
    #[inline]
    pub fn set_placed(&mut self, var: usize, placed: bool) {
        if placed {
            self.block(var);
        } else {
            self.unblock(var);
        }
    }

    #[inline]
    fn block(&mut self, v: usize) {
        if self.blocked[v] == 0 {
            self.legal.remove(v);
        }
        self.blocked[v] += 1;
    }

    #[inline]
    fn unblock(&mut self, v: usize) {
        self.blocked[v] -= 1;
        if self.blocked[v] == 0 {
            self.legal.insert(v);
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

struct Frame {
    cand_start: usize,
    cand_len: usize,
    next: usize,
    trail_len: usize,
    /// Length of the exclusion trail when the frame was made.
    excluded_len: usize,
    /// Whether the frame branches on a general row: alternative `i` places candidate `i` and
    /// excludes candidates `0..i` (so each solution is reached once).
    exclusive: bool,
}

/// Added to the legal count of a row that needs no more variables (a filled "exactly one" row, or
/// any "at most one" or general row), so one comparison (`count <= 1`) finds the rows that force
/// or fail.
const CLOSED: u32 = 1 << 24;

struct State<'l> {
    layout: &'l Layout,
    legal: VarSet,
    count: Vec<u32>,
    filled: Vec<u32>,
    /// Per general row: the weight placed in it.
    sum: Vec<u64>,
    /// Per general row: the weight of its legal variables (what it can still gain).
    avail: Vec<u64>,
    /// Variables a branch of a general row ruled out (never legal while excluded).
    excluded: VarSet,
    excluded_trail: Vec<u32>,
    open: usize,
    placed: Vec<u32>,
    queue: Vec<u32>,
    /// Per row when general rows exist: whether it is in `queue` as a demand row.
    pending: Vec<bool>,
    /// Demand rows waiting for the clique-cover rule, and whether each row is among them.
    cover_queue: Vec<u32>,
    cover_pending: Vec<bool>,
    /// Scratch for [`State::candidates`]: (LCV score, variable, weight in the row).
    scored: Vec<(u32, u32, u64)>,
    /// Scratch for [`State::propagate_cover`]: (clique row or `u32::MAX`, positions covered).
    parts: Vec<(u32, u128)>,
    /// When optimising: each variable's minimisation-form cost, which orders candidates
    /// (cheapest first, then LCV).
    costs: Option<Vec<i64>>,
    /// When optimising: the slack rows in the order to branch on them, after every open model
    /// row (see [`State::choose_row_optimizing`]).
    slack_order: Option<Vec<u32>>,
    stats: Stats,
}

impl<'l> State<'l> {
    /// The state before anything is placed (the engine must have been reset on `layout`).
    fn new(layout: &'l Layout) -> Self {
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
            slack_order: None,
            stats: Stats::default(),
        }
    }

    /// Places the givens and queues every row the first propagation must look at.
    fn start(&mut self, engine: &mut dyn LegalityEngine) {
        let layout = self.layout;
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
    fn probe(&mut self, engine: &mut dyn LegalityEngine, deadline: Option<Instant>) -> bool {
        let model_vars = self.layout.model_vars;
        // Probing stops soundly at a stop request too (what it fixed so far holds).
        let stop = super::stop::current();
        loop {
            let mut fixed = false;
            for v in 0..model_vars {
                if !self.legal.contains(v) {
                    continue;
                }
                if deadline.is_some_and(|d| Instant::now() >= d) || super::stop::raised(&stop) {
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

    /// Brings the cached legal set and per-row legal counts up to date with the engine.
    fn sync(&mut self, engine: &mut dyn LegalityEngine) {
        if self.layout.general {
            return self.sync_general(engine);
        }
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

    /// [`State::sync`] for models with general rows: the legal set is the engine's minus the
    /// excluded variables, and general rows also track the weight still placeable; a demand
    /// row is queued whenever that weight drops.
    fn sync_general(&mut self, engine: &mut dyn LegalityEngine) {
        let layout = self.layout;
        let fresh = engine.legal(layout);
        // Disjoint borrows, as in `sync`. `avail` is kept for every tracked row (only general
        // rows read it), which saves a branch per (variable, row).
        let State {
            legal,
            excluded,
            count,
            avail,
            pending,
            queue,
            ..
        } = self;
        let words = fresh.words.iter().zip(&excluded.words);
        for (w, ((&engine_word, &out), old)) in words.zip(legal.words.iter_mut()).enumerate() {
            let new = engine_word & !out;
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

    fn place(&mut self, engine: &mut dyn LegalityEngine, v: usize) {
        engine.place(self.layout, v);
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

    fn undo_to(&mut self, engine: &mut dyn LegalityEngine, len: usize) {
        let layout = self.layout;
        while self.placed.len() > len {
            let v = self.placed.pop().unwrap() as usize;
            engine.unplace(layout, v);
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
                }
            }
        }
    }

    /// [`State::place`] and [`State::undo_to`] for models with general rows: the fill of the
    /// "exactly one" rows and the sums of the general rows through `v` (its tracked rows),
    /// opening or closing rows as they cross their lower bound.
    fn mark_general(&mut self, v: usize, placed: bool) {
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
    fn push_demand(&mut self, r: usize) {
        if !self.pending[r] {
            self.pending[r] = true;
            self.queue.push(r as u32);
        }
    }

    /// Empties the queues.
    fn clear_queue(&mut self) {
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
    fn exclude(&mut self, v: usize) {
        self.excluded.insert(v);
        self.excluded_trail.push(v as u32);
    }

    /// Lets back the variables excluded after the trail had length `len`.
    fn unexclude_to(&mut self, len: usize) {
        while self.excluded_trail.len() > len {
            let v = self.excluded_trail.pop().unwrap();
            self.excluded.remove(v as usize);
        }
    }

    /// Places forced variables until none is left. False on a contradiction.
    fn propagate(&mut self, engine: &mut dyn LegalityEngine) -> bool {
        loop {
            if !self.propagate_rows(engine) {
                return false;
            }
            let Some(r) = self.cover_queue.pop() else {
                return true;
            };
            self.cover_pending[r as usize] = false;
            if !self.propagate_cover(engine, r as usize) {
                self.clear_queue();
                return false;
            }
        }
    }

    /// The queue of [`State::propagate`] without the clique-cover rule.
    fn propagate_rows(&mut self, engine: &mut dyn LegalityEngine) -> bool {
        while let Some(r) = self.queue.pop() {
            let r = r as usize;
            if self.layout.general && self.layout.general_row[r] {
                self.pending[r] = false;
                if !self.propagate_demand(engine, r) {
                    self.clear_queue();
                    return false;
                }
                continue;
            }
            match self.count[r] {
                0 => {
                    self.clear_queue();
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

    /// The rule for a general row with lower bound `low` and placed weight `sum < low`: with
    /// `avail` the weight of its legal variables, the row fails when `sum + avail < low`, and
    /// otherwise every legal variable heavier than the slack `sum + avail - low` is forced
    /// (without it the row cannot reach `low`). With unit weights: slack 0 forces every
    /// candidate; for "exactly one" this is the single rule. Forces the heaviest such variable
    /// and requeues the row. False on a contradiction.
    fn propagate_demand(&mut self, engine: &mut dyn LegalityEngine, r: usize) -> bool {
        let layout = self.layout;
        let low = layout.lower[r];
        if self.sum[r] >= low {
            return true;
        }
        let reach = self.sum[r] + self.avail[r];
        if reach < low {
            return false;
        }
        let slack = reach - low;
        if slack >= layout.max_weight[r] {
            self.defer_cover(r);
            return true;
        }
        let forced = layout
            .row(r)
            .iter()
            .zip(layout.row_weights(r))
            .take_while(|&(_, &w)| w > slack)
            .map(|(&v, _)| v as usize)
            .find(|&v| self.legal.contains(v));
        if let Some(v) = forced {
            self.stats.steps += 1;
            self.place(engine, v);
            self.sync(engine);
            self.push_demand(r);
            return true;
        }
        self.defer_cover(r);
        true
    }

    /// Queues demand row `r` for [`State::propagate_cover`], which runs once the cheap rules
    /// are at a fixed point (so a row is covered once per round, not once per placement).
    /// Rows the rule cannot conclude on are not queued: those without cliques, and unit-weight
    /// rows with more than `need x clique_width` candidates (every part holds at most
    /// `clique_width` of them, so there are more than `need` parts).
    fn defer_cover(&mut self, r: usize) {
        let layout = self.layout;
        let need = layout.lower[r] - self.sum[r];
        let candidates = (self.count[r] - CLOSED) as u64;
        let loose = layout.max_weight[r] == 1 && candidates > need * layout.clique_width[r] as u64;
        if layout.has_cliques(r) && !loose && !self.cover_pending[r] {
            self.cover_pending[r] = true;
            self.cover_queue.push(r as u32);
        }
    }

    /// The clique-cover rule for a demand row `r` that still needs weight `need`: cover its
    /// legal variables greedily by parts, each part the still uncovered variables of one
    /// exact-cover row through the heaviest uncovered variable (the row holding most of them,
    /// or that variable alone). A part holds at most one placed variable, so the row can gain
    /// at most the sum of the parts' largest weights, `bound`. `bound < need` fails. `bound == need`
    /// means every part must take one variable of its largest weight: its lighter variables
    /// are excluded, so is every other variable of the exact-cover row it came from (that
    /// row's one variable is in this part), and a part with a single such variable forces
    /// it. On Star Battle this is the 2x2-window argument: a row whose candidates are covered
    /// by exactly as many windows as it needs stars empties those windows' other cells.
    /// Cost: the row's length times the cliques per variable; exclusions are undone with the
    /// branch (they sit on the exclusion trail). False on a contradiction.
    fn propagate_cover(&mut self, engine: &mut dyn LegalityEngine, r: usize) -> bool {
        let layout = self.layout;
        let (vars, weights) = (layout.row(r), layout.row_weights(r));
        match self.cover(r) {
            Cover::Loose => return true,
            Cover::Short => return false,
            Cover::Tight => {}
        }
        let mut excluded = false;
        let mut single = None;
        for k in 0..self.parts.len() {
            let (q, part) = self.parts[k];
            let top = weights[part.trailing_zeros() as usize];
            let mut heaviest = part;
            for j in bits(part).filter(|&j| weights[j] < top) {
                heaviest &= !(1 << j);
                excluded |= self.exclude_legal(vars[j] as usize);
            }
            if heaviest & (heaviest - 1) == 0 && single.is_none() {
                single = Some(vars[heaviest.trailing_zeros() as usize] as usize);
            }
            if q != u32::MAX {
                for &u in layout.row(q as usize) {
                    let open =
                        self.legal.contains(u as usize) && !self.excluded.contains(u as usize);
                    if open && !bits(part).any(|j| vars[j] == u) {
                        excluded |= self.exclude_legal(u as usize);
                    }
                }
            }
        }
        if excluded {
            self.sync(engine);
            self.push_demand(r);
        } else if let Some(v) = single {
            self.stats.steps += 1;
            self.place(engine, v);
            self.sync(engine);
            self.push_demand(r);
        }
        true
    }

    /// The greedy clique cover of demand row `r`'s legal variables (see
    /// [`State::propagate_cover`]); when tight, its parts are left in `parts`. Rows reach it
    /// through [`State::defer_cover`], which leaves out those it cannot conclude on.
    fn cover(&mut self, r: usize) -> Cover {
        let layout = self.layout;
        // A row queued for the cover may have been filled since (a placement through another
        // row): it needs nothing, so the rule concludes nothing.
        let Some(need) = layout.lower[r].checked_sub(self.sum[r]) else {
            return Cover::Loose;
        };
        let (vars, weights) = (layout.row(r), layout.row_weights(r));
        let mut uncovered = vars
            .iter()
            .enumerate()
            .filter(|&(_, &v)| self.legal.contains(v as usize))
            .fold(0u128, |m, (i, _)| m | 1 << i);
        let mut bound = 0u64;
        self.parts.clear();
        while uncovered != 0 {
            let i = uncovered.trailing_zeros() as usize;
            let (mut by, mut part) = (u32::MAX, 1u128 << i);
            let mut size = 1;
            for c in layout.cliques_at(r, i) {
                if c.width <= size {
                    // Widest first: no clique left can cover more.
                    break;
                }
                let p = c.mask & uncovered;
                let covered = if p == c.mask { c.width } else { p.count_ones() };
                if covered > size {
                    (by, part, size) = (c.row, p, covered);
                }
            }
            uncovered &= !part;
            bound += weights[i];
            if bound > need {
                return Cover::Loose;
            }
            self.parts.push((by, part));
        }
        if bound < need {
            Cover::Short
        } else {
            Cover::Tight
        }
    }

    /// Excludes `v` if it is legal and not yet excluded; whether it did.
    fn exclude_legal(&mut self, v: usize) -> bool {
        if !self.legal.contains(v) || self.excluded.contains(v) {
            return false;
        }
        self.exclude(v);
        true
    }

    /// MRV: the open row with the fewest branches. An open "exactly one" row branches once
    /// per legal variable; an open general row with `c` legal variables that needs at least
    /// `need` more of them (its missing weight over its largest weight, rounded up) counts as
    /// `c - need + 1` branches, its slack in variables plus one: the same measure, since an
    /// "exactly one" row needs one. Ties go to "exactly one" rows, then the lowest row id.
    /// Returns the row and whether it is general.
    fn choose_row(&self) -> (usize, bool) {
        if let Some(slack) = &self.slack_order {
            return self.choose_row_optimizing(slack);
        }
        self.choose_row_among(self.layout.num_rows)
    }

    /// [`State::choose_row`] over the rows below `rows` and the demand rows (a closed row when
    /// none of them is open).
    fn choose_row_among(&self, rows: usize) -> (usize, bool) {
        let layout = self.layout;
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        for r in 0..rows {
            // Closed rows carry CLOSED, so they never win.
            if self.count[r] < best_count {
                best = r;
                best_count = self.count[r];
                if best_count <= 2 {
                    return (best, false);
                }
            }
        }
        let mut general = false;
        for &r in &layout.demand_rows {
            let r = r as usize;
            let low = layout.lower[r];
            if self.sum[r] >= low {
                continue;
            }
            let need = (low - self.sum[r]).div_ceil(layout.max_weight[r]);
            let candidates = (self.count[r] - CLOSED) as u64;
            let branches = (candidates + 1).saturating_sub(need).min(u32::MAX as u64) as u32;
            if branches < best_count {
                best = r;
                best_count = branches;
                general = true;
            }
        }
        (best, general)
    }

    /// The choice of an optimising search: MRV over the model's rows (so a weighted set cover
    /// branches on its element with the fewest sets, cheapest first), and only when every
    /// model row is settled the variables in no equation, through their slack rows in `slack`
    /// order (best value per weight first: a knapsack follows its fractional bound). Cost: as
    /// [`State::choose_row`].
    fn choose_row_optimizing(&self, slack: &[u32]) -> (usize, bool) {
        let first_slack = self.layout.num_rows - slack.len();
        let (r, general) = self.choose_row_among(first_slack);
        if general || (r < first_slack && self.count[r] < CLOSED) {
            return (r, general);
        }
        let open = slack.iter().find(|&&r| self.count[r as usize] < CLOSED);
        (open.map_or(first_slack, |&r| r as usize), false)
    }

    /// LCV: the legal variables of row `r`, those leaving the most peers legal first.
    ///
    /// For a general row (branched on exclusively) only the candidates worth a branch are
    /// listed: alternative `i` leaves the row candidates `i..`, so it is dead when their
    /// weight falls short of the row's missing weight (with unit weights: `c - need + 1` of
    /// `c` candidates).
    fn candidates(&mut self, r: usize, out: &mut Vec<u32>, exclusive: bool) {
        let layout = self.layout;
        let start = out.len();
        let scored = &mut self.scored;
        scored.clear();
        for (&v, &weight) in layout.row(r).iter().zip(layout.row_weights(r)) {
            if !self.legal.contains(v as usize) {
                continue;
            }
            let legal = &self.legal;
            let count = &self.count;
            let peers: u32 = layout
                .rows_of(v as usize)
                .iter()
                .filter(|&&q| q as usize != r)
                .map(|&q| {
                    let q = q as usize;
                    let legal_in_q = if layout.general && !layout.tracked(q) {
                        layout
                            .row_words(q)
                            .iter()
                            .map(|&(w, mask)| (legal.words[w as usize] & mask).count_ones())
                            .sum()
                    } else {
                        count[q] & (CLOSED - 1)
                    };
                    legal_in_q.saturating_sub(1)
                })
                .sum();
            scored.push((peers, v, weight));
        }
        match &self.costs {
            None => scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))),
            Some(c) => scored.sort_by(|a, b| {
                (c[a.1 as usize].cmp(&c[b.1 as usize]))
                    .then(b.0.cmp(&a.0))
                    .then(a.1.cmp(&b.1))
            }),
        }
        let mut worth = scored.len();
        if exclusive {
            let missing = layout.lower[r] - self.sum[r];
            let mut left = 0u64;
            worth = scored
                .iter()
                .rposition(|&(_, _, w)| {
                    left += w;
                    left >= missing
                })
                .map_or(0, |i| i + 1);
        }
        out.extend(scored[..worth].iter().map(|&(_, v, _)| v));
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
    search(engine, layout, goal, time_limit, None, None)
}

/// Runs the search as branch and bound (see [`crate::backend::branch_bound`]): every solution
/// is offered to `bound`, which keeps the best, and a node whose lower bound cannot beat it is
/// pruned. Candidates are tried cheapest first. `outcome.exhausted` (with an exact engine)
/// proves the kept solution optimal. Same steps and limits as [`run`].
pub fn run_optimizing(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    time_limit: Option<Duration>,
    bound: &mut CostBound,
) -> Result<SearchOutcome, BackendError> {
    search(
        engine,
        layout,
        Goal::Count { limit: None },
        time_limit,
        None,
        Some(bound),
    )
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
        None,
    )
}

/// What the search's propagation decides before any choice (see [`root_propagation`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootPropagation {
    /// Propagation met a contradiction: the model has no solution.
    Contradiction,
    /// Per model variable: the value every solution gives it (`Some`), or `None` when
    /// propagation leaves it open.
    Fixed(Vec<Option<bool>>),
}

/// Runs the search's propagation from the givens to its fixed point, with no choice made, on
/// the exact [`crate::backend::bitset::BitsetEngine`]: the variables it places are 1 in every
/// solution, those it shuts out (past a row's upper bound, or excluded by the clique-cover
/// rule) are 0 in every solution. Sound, not complete: open variables may still be forced.
/// Cost: one root node of the search (the layout's nonzeros, plus the propagation rounds).
///
/// With `probe` (models with general rows only; others are propagated alone), each open
/// variable is then tried at 1 in turn: when propagation from there meets a contradiction, no
/// solution has it, so it is fixed to 0 (excluded at the root) and the root propagated again;
/// rounds repeat until one fixes nothing. Probing stops early, soundly, at the deadline
/// `probe` holds (`Some(None)`: no deadline). Cost of probing: per round, one propagation per
/// open variable.
pub fn root_propagation(
    layout: &Layout,
    probe: Option<Option<Instant>>,
) -> Result<RootPropagation, BackendError> {
    let mut engine = crate::backend::bitset::BitsetEngine::default();
    engine.reset(layout)?;
    let mut st = State::new(layout);
    st.start(&mut engine);
    if !st.propagate(&mut engine) {
        return Ok(RootPropagation::Contradiction);
    }
    if let (Some(deadline), true) = (probe, layout.general) {
        if !st.probe(&mut engine, deadline) {
            return Ok(RootPropagation::Contradiction);
        }
    }
    let mut values: Vec<Option<bool>> = (0..layout.model_vars)
        .map(|v| (!st.legal.contains(v)).then_some(false))
        .collect();
    for &v in st
        .placed
        .iter()
        .filter(|&&v| (v as usize) < layout.model_vars)
    {
        values[v as usize] = Some(true);
    }
    Ok(RootPropagation::Fixed(values))
}

fn search(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    goal: Goal,
    time_limit: Option<Duration>,
    mut sink: Option<&mut dyn FnMut(Solution) -> ControlFlow<()>>,
    mut bound: Option<&mut CostBound>,
) -> Result<SearchOutcome, BackendError> {
    let start = Instant::now();
    let deadline = time_limit.and_then(|t| start.checked_add(t));
    let stop = super::stop::current();
    engine.reset(layout)?;
    let exact = engine.exact();
    let mut st = State::new(layout);
    st.costs = bound.as_ref().map(|b| b.costs().to_vec());
    st.slack_order = bound.as_ref().map(|b| b.slack_order(layout));
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
    st.start(engine);
    let mut frames: Vec<Frame> = Vec::new();
    let mut cands: Vec<u32> = Vec::new();
    let mut checked = 0u64;
    loop {
        if (deadline.is_some() || stop.is_some()) && st.stats.steps >= checked + 256 {
            checked = st.stats.steps;
            if deadline.is_some_and(|d| Instant::now() >= d) || super::stop::raised(&stop) {
                outcome.timed_out = true;
                return finish(st, outcome, engine);
            }
        }
        let mut ok = st.propagate(engine);
        if let Some(b) = bound.as_deref_mut().filter(|_| ok) {
            ok = b.admits(layout, &st.legal, &st.placed);
        }
        if ok && st.open == 0 {
            outcome.count += 1;
            if let Some(b) = bound.as_deref_mut() {
                b.offer(&st.placed, || st.solution());
            } else if let Some(sink) = sink.as_deref_mut() {
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
            let (r, exclusive) = st.choose_row();
            let cand_start = cands.len();
            st.candidates(r, &mut cands, exclusive);
            let first = cands[cand_start] as usize;
            frames.push(Frame {
                cand_start,
                cand_len: cands.len() - cand_start,
                next: 1,
                trail_len: st.placed.len(),
                excluded_len: st.excluded_trail.len(),
                exclusive,
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
                let tried = &cands[f.cand_start..f.cand_start + f.next];
                f.next += 1;
                // Back to the state the frame was made in (a fixed point), plus this frame's
                // exclusions but the last one.
                st.unexclude_to(f.excluded_len + if f.exclusive { tried.len() - 1 } else { 0 });
                st.clear_queue();
                st.sync(engine);
                st.clear_queue();
                if f.exclusive {
                    // Candidate `next - 1` is out from here on. The exclusions are not part of
                    // the frame's fixed point, so recheck every row they touch.
                    st.exclude(tried[tried.len() - 1] as usize);
                    for &u in tried {
                        for t in layout.tracked_of(u as usize) {
                            match t.kind {
                                TrackedRow::DEMAND => st.push_demand(t.row as usize),
                                TrackedRow::EXACTLY_ONE => st.queue.push(t.row),
                                _ => {}
                            }
                        }
                    }
                }
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

/// The positions of the set bits of `mask`, lowest first.
fn bits(mask: u128) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
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
        None if out.timed_out => Found::TimedOut,
        None if !out.exact => Found::Undecided(crate::backend::Undecided::ApproximateEngine {
            engine: engine.name(),
        }),
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
        end: out.end(engine.name()),
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
            end: out.end(self.engine.name()),
            stats: out.stats,
        })
    }
}

impl<E: LegalityEngine> crate::backend::Optimizer for SearchBackend<E> {
    fn optimize(&mut self, model: &Model) -> Result<crate::backend::OptimizeReport, BackendError> {
        optimize_report(&mut self.engine, &mut self.layouts, model, self.time_limit)
    }
}

/// The shared `optimize` body: branch and bound over the search. Proved optimal when the
/// search is exhausted (the engine is exact: [`SearchBackend`] offers the ability only then);
/// stopped by the time limit with a solution: `feasible`, with no bound.
pub(crate) fn optimize_report(
    engine: &mut dyn LegalityEngine,
    cache: &mut LayoutCache,
    model: &Model,
    time_limit: Option<Duration>,
) -> Result<crate::backend::OptimizeReport, BackendError> {
    use crate::backend::{Found, OptimizeReport};
    let objective = model.objective().ok_or_else(|| BackendError::Failed {
        backend: engine.name().into(),
        reason: "optimize called on a model without an objective".into(),
    })?;
    let layout = cache.layout(model);
    let mut bound = CostBound::new(layout, objective);
    let mut out = run_optimizing(engine, layout, time_limit, &mut bound)?;
    out.stats.extra.insert("bounds".into(), bound.bounds.into());
    out.stats.extra.insert("pruned".into(), bound.pruned.into());
    let proved = out.exhausted && out.exact;
    Ok(match bound.best() {
        Some((value, s)) => OptimizeReport {
            found: Found::Solution(s.clone()),
            value: Some(objective.flip(*value)),
            proved,
            bound: proved.then(|| objective.flip(*value)),
            stats: out.stats,
        },
        None if proved => OptimizeReport::without_solution(Found::Infeasible, out.stats),
        None if out.timed_out => OptimizeReport::without_solution(Found::TimedOut, out.stats),
        None => OptimizeReport::without_solution(
            Found::Undecided(crate::backend::Undecided::ApproximateEngine {
                engine: engine.name(),
            }),
            out.stats,
        ),
    })
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
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
    /// Branch and bound, with an exact engine only: an approximate one may hide solutions, so
    /// an exhausted search would prove nothing.
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        if self.engine.exact() {
            Some(self)
        } else {
            None
        }
    }
    fn no_optimizer_reason(&self) -> String {
        format!(
            "the {} engine is approximate with these settings (an exhausted search proves nothing; use bitset, or an exact code)",
            self.engine.name()
        )
    }
    /// Every row kind the engine reads (for `bitset`: all of them), since the search keeps
    /// the sums and bounds of general rows itself.
    fn rows_supported(&self, model: &Model) -> Result<(), String> {
        self.engine.rows_supported(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::bitset::{BitsetBackend, BitsetEngine};
    use crate::backend::vsa::VsaBackend;
    use crate::backend::{count_verified, Backend, BackendOptions, Status};
    use crate::model::{Coord, ModelBuilder, PuzzleKind};

    /// One row of a test model: family name, variables, weights (`None`: all 1), sense.
    type RowSpec = (&'static str, Vec<usize>, Option<Vec<u64>>, Sense);

    /// A generic model with `n` variables `x0..`, and `rows`.
    fn model(n: usize, rows: &[RowSpec]) -> Model {
        let mut b = ModelBuilder::new("t", PuzzleKind::Generic);
        for i in 0..n {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let mut families: Vec<(&str, usize)> = Vec::new();
        for (name, vars, weights, sense) in rows {
            let f = match families.iter().find(|(n, _)| n == name) {
                Some(&(_, f)) => f,
                None => {
                    let f = b.family(*name);
                    families.push((name, f));
                    f
                }
            };
            match weights {
                Some(w) => b.weighted_row(f, vars.clone(), w.clone(), *sense),
                None => b.row(f, vars.clone(), *sense),
            };
        }
        b.build().unwrap()
    }

    /// `n x n` 0-1 matrices whose every row and column sum is `sense`.
    fn matrices(n: usize, sense: Sense) -> Model {
        let mut rows = Vec::new();
        for i in 0..n {
            rows.push(("row", (0..n).map(|j| i * n + j).collect(), None, sense));
            rows.push(("column", (0..n).map(|j| j * n + i).collect(), None, sense));
        }
        model(n * n, &rows)
    }

    fn backends() -> Vec<Box<dyn Backend>> {
        let o = BackendOptions::default();
        vec![
            Box::new(BitsetBackend::new(&o)),
            Box::new(VsaBackend::new(&o).unwrap()),
        ]
    }

    fn count(b: &mut dyn Backend, m: &Model) -> u128 {
        let out = count_verified(b, m, None).unwrap();
        assert_eq!(out.status, Status::Solved, "{}: {:?}", b.name(), out.reason);
        out.count
    }

    #[test]
    fn two_ones_in_every_row_and_column_match_a001499() {
        for (n, want) in [(2, 1u128), (3, 6), (4, 90), (5, 2040), (6, 67950)] {
            let m = matrices(n, Sense::Exactly(2));
            for mut b in backends() {
                assert_eq!(count(b.as_mut(), &m), want, "{} n = {n}", b.name());
            }
        }
    }

    #[test]
    fn at_least_one_in_every_row_and_column_matches_a048291() {
        for (n, want) in [(1, 1u128), (2, 7), (3, 265), (4, 41503)] {
            let m = matrices(n, Sense::AtLeast(1));
            for mut b in backends() {
                assert_eq!(count(b.as_mut(), &m), want, "{} n = {n}", b.name());
            }
        }
    }

    /// Subsets of `weights` with sum in `relation target`, by trying all of them.
    fn subsets(weights: &[u64], sense: Sense) -> u128 {
        (0u32..1 << weights.len())
            .filter(|mask| {
                let sum: u64 = (0..weights.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| weights[i])
                    .sum();
                sense.holds(sum)
            })
            .count() as u128
    }

    #[test]
    fn weighted_rows_count_subset_sums() {
        let weights: Vec<u64> = (1..=10).collect();
        // Distinct parts of 15 no larger than 10: 27 partitions of 15 minus 7 with a part > 10.
        assert_eq!(subsets(&weights, Sense::Exactly(15)), 20);
        let odd = vec![3, 5, 7, 7, 9, 12, 20, 1];
        for (w, sense) in [
            (&weights, Sense::Exactly(15)),
            (&weights, Sense::AtMost(9)),
            (&weights, Sense::AtLeast(40)),
            (&odd, Sense::Exactly(21)),
            (&odd, Sense::Exactly(0)),
            (&odd, Sense::AtLeast(64)),
            (&odd, Sense::Exactly(65)),
        ] {
            let m = model(
                w.len(),
                &[("sum", (0..w.len()).collect(), Some(w.clone()), sense)],
            );
            for mut b in backends() {
                assert_eq!(
                    count(b.as_mut(), &m),
                    subsets(w, sense),
                    "{} {sense}",
                    b.name()
                );
            }
        }
    }

    /// 2-star Star Battle boards of side `n` with no regions: two stars in every row and
    /// column, no two touching, by a plain row-by-row search (the oracle).
    fn two_star_placements(n: usize) -> u128 {
        fn go(n: usize, row: usize, prev: u32, cols: &mut [u8]) -> u128 {
            if row == n {
                return cols.iter().all(|&c| c == 2) as u128;
            }
            let mut total = 0;
            for a in 0..n {
                for b in a + 2..n {
                    let mask = 1u32 << a | 1 << b;
                    let near = prev | prev << 1 | prev >> 1;
                    if mask & near != 0 || cols[a] == 2 || cols[b] == 2 {
                        continue;
                    }
                    cols[a] += 1;
                    cols[b] += 1;
                    total += go(n, row + 1, mask, cols);
                    cols[a] -= 1;
                    cols[b] -= 1;
                }
            }
            total
        }
        go(n, 0, 0, &mut vec![0; n])
    }

    /// The bare 2-star model: rows and columns `= 2`, every 2x2 block `<= 1`.
    fn two_star_model(n: usize) -> Model {
        let mut rows = Vec::new();
        for i in 0..n {
            rows.push((
                "row",
                (0..n).map(|j| i * n + j).collect(),
                None,
                Sense::Exactly(2),
            ));
            rows.push((
                "column",
                (0..n).map(|j| j * n + i).collect(),
                None,
                Sense::Exactly(2),
            ));
        }
        for i in 0..n - 1 {
            for j in 0..n - 1 {
                let block = vec![
                    i * n + j,
                    i * n + j + 1,
                    (i + 1) * n + j,
                    (i + 1) * n + j + 1,
                ];
                rows.push(("block", block, None, Sense::AtMostOne));
            }
        }
        model(n * n, &rows)
    }

    #[test]
    fn bare_two_star_boards_are_counted_without_auxiliary_variables() {
        for n in [5, 6, 8] {
            let want = two_star_placements(n);
            assert!(n < 8 || want > 0);
            let m = two_star_model(n);
            assert_eq!(m.num_variables(), n * n);
            let mut b = BitsetBackend::new(&BackendOptions::default());
            assert_eq!(count(&mut b, &m), want, "n = {n}");
        }
    }

    /// Runs the bitset search to the end and returns its outcome.
    fn run_bitset(m: &Model) -> SearchOutcome {
        let layout = Layout::new(m);
        run(
            &mut BitsetEngine::default(),
            &layout,
            Goal::Count { limit: None },
            None,
        )
        .unwrap()
    }

    /// `pairs` independent "exactly one" pairs after variable `first`: 2^pairs ways, so a
    /// search that does not notice a dead row at once wanders through them.
    fn free_pairs(first: usize, pairs: usize) -> Vec<RowSpec> {
        (0..pairs)
            .map(|i| {
                (
                    "pair",
                    vec![first + 2 * i, first + 2 * i + 1],
                    None,
                    Sense::ExactlyOne,
                )
            })
            .collect()
    }

    #[test]
    fn a_row_with_no_slack_forces_every_candidate() {
        // x0 + x1 + x2 = 3 and x3 + x4 >= 2 have slack 0 from the start: all five are forced
        // without a guess.
        let mut rows = vec![
            ("three", vec![0, 1, 2], None, Sense::Exactly(3)),
            ("two", vec![3, 4], None, Sense::AtLeast(2)),
        ];
        rows.extend(free_pairs(5, 3));
        let m = model(11, &rows);
        let out = run_bitset(&m);
        assert_eq!(out.count, 8);
        // Only the free pairs are guessed: 1 + 2 + 4 frames of two guesses each.
        assert_eq!(out.stats.guesses, 2 + 4 + 8, "{:?}", out.stats);
        for s in &out.solutions {
            assert!([0, 1, 2, 3, 4].iter().all(|v| s.ones.contains(v)));
        }
        // Weighted: 3 x0 + 2 x1 + x2 = 5 with x2 given out by an "exactly one" row with x3
        // given: slack 0 forces x0 and x1.
        let mut b = ModelBuilder::new("w", PuzzleKind::Generic);
        for i in 0..4 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("w");
        b.weighted_row(f, vec![0, 1, 2], vec![3, 2, 1], Sense::Exactly(5));
        let g = b.family("e");
        b.row(g, vec![2, 3], Sense::ExactlyOne);
        b.given(3);
        let m = b.build().unwrap();
        let out = run_bitset(&m);
        assert_eq!(out.count, 1);
        assert_eq!(out.stats.guesses, 0);
        assert_eq!(out.solutions[0].ones, vec![0, 1, 3]);
    }

    #[test]
    fn candidates_that_would_overshoot_are_not_legal() {
        // 3 x0 + 3 x1 + 2 x2 + x3 <= 5: once x0 is placed, x1 (3 > 2 left) is out, x2 and x3
        // stay; then x2 placed: x3 (1 > 0 left) is out too.
        let m = model(
            4,
            &[(
                "w",
                vec![0, 1, 2, 3],
                Some(vec![3, 3, 2, 1]),
                Sense::AtMost(5),
            )],
        );
        let layout = Layout::new(&m);
        let mut bitset = BitsetEngine::default();
        let mut gate = RowGate::default();
        bitset.reset(&layout).unwrap();
        gate.reset(&layout);
        bitset.place(&layout, 0);
        gate.set_sum(&layout, 0, 3);
        gate.set_placed(0, true);
        for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
            assert!(!legal.contains(0) && !legal.contains(1));
            assert!(legal.contains(2) && legal.contains(3));
        }
        bitset.place(&layout, 2);
        gate.set_sum(&layout, 0, 5);
        gate.set_placed(2, true);
        for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
            assert!((0..4).all(|v| !legal.contains(v)));
        }
        bitset.unplace(&layout, 2);
        gate.set_sum(&layout, 0, 3);
        gate.set_placed(2, false);
        for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
            assert!(!legal.contains(1) && legal.contains(2) && legal.contains(3));
        }
        // A weight above the right-hand side is never legal, nor is anything in a `= 0` row.
        let m = model(
            3,
            &[
                ("w", vec![0, 1], Some(vec![7, 2]), Sense::AtMost(4)),
                ("z", vec![2], None, Sense::Exactly(0)),
            ],
        );
        let layout = Layout::new(&m);
        bitset.reset(&layout).unwrap();
        gate.reset(&layout);
        for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
            assert!(!legal.contains(0) && legal.contains(1) && !legal.contains(2));
        }
        assert_eq!(run_bitset(&m).count, 2);
    }

    #[test]
    fn a_row_that_cannot_reach_its_bound_backtracks_at_once() {
        // x0 + x1 + x2 >= 3 but x0, x1 are "exactly one": dead at the root, before any of the
        // 2^12 ways of the free pairs is tried.
        let mut rows = vec![
            ("three", vec![0, 1, 2], None, Sense::AtLeast(3)),
            ("one", vec![0, 1], None, Sense::ExactlyOne),
        ];
        rows.extend(free_pairs(3, 12));
        let m = model(27, &rows);
        let out = run_bitset(&m);
        assert_eq!(out.count, 0);
        assert!(out.exhausted);
        assert_eq!(out.stats.guesses, 0, "{:?}", out.stats);
        // Dead one level down: x0 + x1 + x2 + x3 >= 3 with (x0 | x1) and (x2 | x3) each
        // "exactly one" holds at the root (4 legal, slack 1) but fails in both branches of the
        // first choice, before any of the 2^12 ways of the free pairs is tried.
        let mut rows = vec![
            ("one", vec![0, 1], None, Sense::ExactlyOne),
            ("one", vec![2, 3], None, Sense::ExactlyOne),
            ("three", vec![0, 1, 2, 3], None, Sense::AtLeast(3)),
        ];
        rows.extend(free_pairs(4, 12));
        let m = model(28, &rows);
        let out = run_bitset(&m);
        assert_eq!(out.count, 0);
        // The pairs cover the row's candidates with two parts of one variable each: a bound of
        // 2 < 3, seen by the clique cover at the root.
        assert_eq!(out.stats.guesses, 0, "{:?}", out.stats);
    }

    #[test]
    fn a_tight_clique_cover_empties_the_rest_of_its_windows() {
        // a0 + a1 + a2 + a3 = 2 with windows {a0, a1, b0} and {a2, a3, b1} (at most one each):
        // the two windows must each give the row one star, so b0 and b1 are out, and their
        // "exactly one" partners p0, p1 are forced, at the root. Then 4 ways for the a's.
        let (a, b0, b1, p0, p1) = ([0, 1, 2, 3], 4, 5, 6, 7);
        let rows = vec![
            ("pair", vec![b0, p0], None, Sense::ExactlyOne),
            ("pair", vec![b1, p1], None, Sense::ExactlyOne),
            ("two", a.to_vec(), None, Sense::Exactly(2)),
            ("window", vec![a[0], a[1], b0], None, Sense::AtMostOne),
            ("window", vec![a[2], a[3], b1], None, Sense::AtMostOne),
        ];
        let m = model(8, &rows);
        let out = run_bitset(&m);
        assert_eq!(out.count, 4);
        assert!(out
            .solutions
            .iter()
            .all(|s| s.ones.contains(&p0) && s.ones.contains(&p1)));
        // Only the a's are guessed: 3 alternatives for the row (4 candidates, 2 needed; the
        // third dies at once), 2 more under each of the first two. Without the cover, the
        // pairs (two candidates each) would be branched on first, at 12 guesses.
        assert_eq!(out.stats.guesses, 7, "{:?}", out.stats);
        assert_eq!(
            out.stats.steps - out.stats.guesses,
            2,
            "p0 and p1 are forced"
        );
    }

    #[test]
    fn exact_cover_rows_keep_the_exact_cover_path() {
        let m = matrices(5, Sense::ExactlyOne);
        assert!(!Layout::new(&m).general);
        let mut b = BitsetBackend::new(&BackendOptions::default());
        assert_eq!(count(&mut b, &m), 120);
    }

    #[test]
    fn vsa_refuses_rows_too_heavy_for_its_bundles_and_bitset_takes_them() {
        let m = model(
            2,
            &[(
                "w",
                vec![0, 1],
                Some(vec![1000, 1000]),
                Sense::Exactly(1000),
            )],
        );
        let mut vsa = VsaBackend::new(&BackendOptions::default()).unwrap();
        assert!(vsa.rows_supported(&m).unwrap_err().contains("2000"));
        let out = count_verified(&mut vsa, &m, None).unwrap();
        assert_eq!(out.status, Status::Unsupported);
        let mut b = BitsetBackend::new(&BackendOptions::default());
        assert_eq!(count(&mut b, &m), 2);
    }
}
