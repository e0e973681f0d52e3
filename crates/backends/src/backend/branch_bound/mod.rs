//! Branch and bound for the shared search ([`crate::backend::search`]): the incumbent and the
//! lower bound that prunes every branch that cannot beat it.
//!
//! Costs are in minimisation form ([`crate::model::objective::Objective::min_cost`]); slack
//! variables cost 0. Every cost splits into its positive part `c+ = max(c, 0)` and its
//! negative part `c- = min(c, 0)`, and the bound at a node (a propagation fixed point) is the
//! cost of the placed variables plus a lower bound on each part over the still-legal variables:
//!
//! - **Positive part: dual ascent over the covering rows** (non-slack "exactly one" rows and
//!   rows with a lower bound still short of it by `need`), fewest variables first, on each
//!   variable's residual cost (what earlier rows left of `c+`). A unit-weight row adds the sum
//!   of its `need` cheapest residuals `y_1 <= ... <= y_need` and charges each of its variables
//!   `min(residual, y_need)`; a weighted row adds the LP bound of covering `need` with its
//!   residuals (cheapest per weight first, the last fractionally, rounded up) and takes them
//!   whole. No variable is charged more than its cost (cost splitting), so any completion pays
//!   at least the sum. This dominates counting one row per disjoint set of variables: on a
//!   weighted set cover every element row contributes, not only those that share no set with
//!   an earlier one.
//! - **Negative part: the tightest of several packing relaxations**, each a valid lower bound
//!   on `sum c- x` over every completion: (a) the packing rows (upper bounds: "exactly one",
//!   `<= k`, `= k`) each take their not yet counted negative-cost variables as a fractional
//!   knapsack into the room left, every other negative-cost variable its cost; (b) one
//!   knapsack row alone over all negative-cost variables (its own fractional knapsack, the
//!   variables outside it at their cost), for each knapsack row; (c) the surrogate row, the sum
//!   of all knapsack rows (or a weighted sum with multipliers from an LP dual, see
//!   [`CostBound::use_surrogate_multipliers`]), as a fractional knapsack. On a knapsack with several capacity rows
//!   (b) and (c) bound what (a), counting each item once, leaves to the first row.
//!
//! A branch is pruned when its bound is at least the incumbent's value (ties: the first
//! solution found in search order is kept, so results are stable). Every value is an exact
//! integer (fractions are rounded towards the weaker side). Cost per node: one pass over the
//! covering rows' variables, plus, when some cost is negative, one fractional knapsack (a sort
//! of its legal negative-cost variables) per packing row and per knapsack relaxation.
//!
//! [`CostBound::slack_order`] also gives the search its branching order on variables in no
//! equation when optimising: best value per unit of knapsack weight first.
//!
//! For proof logging, [`CostBound::set_recording`] makes every bound also write its own
//! derivation ([`CostBound::derivation`], [`PolOp`]): the multipliers above as a VeriPB
//! `pol` step that a checker replays, so a logged search prunes exactly as this one.

mod explain;

pub use explain::PolOp;

use crate::backend::incumbent::{GapLimit, Trace};
use crate::backend::search::{Layout, VarSet};
use crate::model::objective::Objective;
use crate::model::Solution;

/// The branch-and-bound state of one optimising search.
#[derive(Debug, Clone)]
pub struct CostBound {
    /// Minimisation-form cost of every layout variable (slack variables: 0).
    costs: Vec<i64>,
    /// Layout variables with a negative cost.
    negative: Vec<u32>,
    /// Covering rows (not slack rows), fewest variables first: the dual ascent's order.
    cover_rows: Vec<u32>,
    /// Packing rows holding a negative-cost variable (not slack rows): "exactly one" rows,
    /// then other unit rows, then general rows (relaxation (a)).
    pack_rows: Vec<u32>,
    /// General packing rows holding a negative-cost variable (relaxations (b) and (c)).
    knapsack_rows: Vec<u32>,
    /// Per variable: its weight in the surrogate row, `sum_r m_r w_rv` over `knapsack_rows`.
    surrogate_weight: Vec<u64>,
    /// Per knapsack row: its multiplier `m_r` in the surrogate row (1 unless
    /// [`CostBound::use_surrogate_multipliers`] set others).
    surrogate_multiplier: Vec<u64>,
    /// The first slack row (rows from here on pair a variable with its slack partner).
    first_slack: usize,
    /// Per variable: the dual ascent's residual cost, valid when `residual_at[v] == epoch`.
    residual: Vec<i64>,
    residual_at: Vec<u32>,
    /// `mark[v] == round`: `v` was counted by a row of relaxation (a) in its latest pass.
    mark: Vec<u32>,
    round: u32,
    /// `placed_at[v] == epoch`: `v` is placed at this node.
    placed_at: Vec<u32>,
    epoch: u32,
    /// Scratch: placed weight per row.
    row_sum: Vec<u64>,
    /// Scratch: (cost, weight) of a row's legal variables.
    items: Vec<(i64, u64)>,
    /// The best solution so far and its minimisation-form value.
    best: Option<(i128, Solution)>,
    /// Bounds computed (for statistics).
    pub bounds: u64,
    /// Branches pruned by the bound.
    pub pruned: u64,
    /// The bound [`CostBound::admits`] computed at the last node it judged (`None` when it
    /// computed none: before the first solution).
    node_bound: Option<i128>,
    /// The proved global bound (minimisation form) at the last [`CostBound::note_progress`]:
    /// the least of the incumbent and the bounds of the nodes still open.
    proved: Option<i128>,
    /// The gap tolerances the search stops at.
    gap_limit: GapLimit,
    /// Whether the search stopped because the gap reached a tolerance.
    stopped_at_gap: bool,
    /// Every improving solution and bound change (minimisation form).
    trace: Trace,
    /// Whether the objective is maximised (values are turned back for progress reports).
    maximise: bool,
    /// Added to every value in the trace, the progress reports and the gap (minimisation
    /// form): the cost of the variables a reduction fixed before the search (see
    /// [`CostBound::set_value_offset`]).
    value_offset: i128,
    /// Per layout variable, from a hint: 0 for a value the hint asks for, 2 for one it rules
    /// out, 1 otherwise (the search tries lower ranks first); `None` without a hint.
    preference: Option<Vec<u8>>,
    /// Whether each bound computed also writes its derivation to `derivation` (proof
    /// logging, see [`CostBound::set_recording`]).
    recording: bool,
    /// The cutting-planes derivation of the last bound computed while recording.
    derivation: Vec<PolOp>,
    /// Scratch for the derivation: `seen[v] == seen_round` marks a variable already written.
    seen: Vec<u32>,
    seen_round: u32,
}

impl CostBound {
    /// The bound for `layout` (made from a model with `objective`). Cost: one pass over the
    /// variables and rows, plus a sort of the covering rows by length.
    pub fn new(layout: &Layout, objective: &Objective) -> CostBound {
        let mut costs = vec![0i64; layout.num_vars];
        for (v, c) in costs.iter_mut().enumerate().take(layout.model_vars) {
            *c = objective.min_cost(v);
        }
        let negative: Vec<u32> = (0..layout.num_vars as u32)
            .filter(|&v| costs[v as usize] < 0)
            .collect();
        let first_slack = layout.num_rows - (layout.num_vars - layout.model_vars);
        let mut cover_rows: Vec<u32> = (0..first_slack as u32)
            .filter(|&r| layout.lower[r as usize] > 0)
            .collect();
        cover_rows.sort_by_key(|&r| (layout.row(r as usize).len(), r));
        let holds_negative = |r: usize| layout.row(r).iter().any(|&v| costs[v as usize] < 0);
        let packing = |r: usize| layout.upper[r] != u64::MAX && holds_negative(r);
        let mut pack_rows: Vec<u32> = (0..first_slack as u32)
            .filter(|&r| packing(r as usize))
            .collect();
        pack_rows.sort_by_key(|&r| {
            let r = r as usize;
            (!layout.exactly_one[r], layout.general_row[r], r)
        });
        let knapsack_rows: Vec<u32> = pack_rows
            .iter()
            .copied()
            .filter(|&r| layout.general_row[r as usize])
            .collect();
        let mut surrogate_weight = vec![0u64; layout.num_vars];
        for &r in &knapsack_rows {
            let r = r as usize;
            for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
                surrogate_weight[v as usize] = surrogate_weight[v as usize].saturating_add(w);
            }
        }
        CostBound {
            surrogate_multiplier: vec![1; knapsack_rows.len()],
            costs,
            negative,
            cover_rows,
            pack_rows,
            knapsack_rows,
            surrogate_weight,
            first_slack,
            residual: vec![0; layout.num_vars],
            residual_at: vec![0; layout.num_vars],
            mark: vec![0; layout.num_vars],
            round: 0,
            placed_at: vec![0; layout.num_vars],
            epoch: 0,
            row_sum: vec![0; layout.num_rows],
            items: Vec::new(),
            best: None,
            bounds: 0,
            pruned: 0,
            node_bound: None,
            proved: None,
            gap_limit: GapLimit::default(),
            stopped_at_gap: false,
            trace: Trace::default(),
            maximise: objective.sense() == crate::model::ObjectiveSense::Maximize,
            preference: None,
            value_offset: 0,
            recording: false,
            derivation: Vec::new(),
            seen: vec![0; layout.num_vars],
            seen_round: 0,
        }
    }

    /// Makes the trace, the progress reports and the gap count `offset` (minimisation form)
    /// on top of the search's own values: for a search over a reduced model, the cost of the
    /// variables the reduction fixed to 1. The incumbent, the bounds and
    /// [`CostBound::proved_bound`] stay the search's own.
    pub fn set_value_offset(&mut self, offset: i128) {
        self.value_offset = offset;
    }

    /// Makes the search try the values of `hint` (per model variable) first: a hinted 1
    /// before the other candidates of its row, a hinted 0 after them (through its slack
    /// partner, when it has one, first). Cost: one pass over the slack rows.
    pub fn set_preference(&mut self, layout: &Layout, hint: &[Option<bool>]) {
        let mut rank = vec![1u8; layout.num_vars];
        for (v, h) in hint.iter().enumerate().take(layout.model_vars) {
            rank[v] = match h {
                Some(true) => 0,
                Some(false) => 2,
                None => 1,
            };
        }
        for r in self.first_slack..layout.num_rows {
            let row = layout.row(r);
            if let (Some(&v), Some(&s)) = (
                row.iter().find(|&&v| (v as usize) < layout.model_vars),
                row.iter().find(|&&v| (v as usize) >= layout.model_vars),
            ) {
                rank[s as usize] = 2 - rank[v as usize];
            }
        }
        self.preference = Some(rank);
    }

    /// The ranks of [`CostBound::set_preference`], if a hint set them.
    pub fn preference(&self) -> Option<&[u8]> {
        self.preference.as_deref()
    }

    /// Makes the search stop once the gap between the incumbent and the proved bound is
    /// within `limit` (see [`crate::backend::incumbent`]).
    pub fn set_gap_limit(&mut self, limit: GapLimit) {
        self.gap_limit = limit;
    }

    /// Whether the search stopped because the gap reached a tolerance of
    /// [`CostBound::set_gap_limit`] (rather than a proof, a time limit or a stop).
    pub fn stopped_at_gap(&self) -> bool {
        self.stopped_at_gap
    }

    /// The bound computed at the last node [`CostBound::admits`] judged, if it computed one.
    pub fn node_bound(&self) -> Option<i128> {
        self.node_bound
    }

    /// The proved global bound (minimisation form) at the last
    /// [`CostBound::note_progress`]: no solution costs less. `None` before the first note.
    pub fn proved_bound(&self) -> Option<i128> {
        self.proved
    }

    /// Notes the search's progress `seconds` after it started, with `open` the least bound
    /// of the nodes still open (`None`: none is open, the search is over): the proved global
    /// bound becomes the least of the incumbent and `open` (never lower than before), and the
    /// trace gets a point when the incumbent or that bound changed. True when the gap is now
    /// within the tolerance of [`CostBound::set_gap_limit`] (the search should stop). Cost:
    /// constant.
    pub fn note_progress(&mut self, seconds: f64, open: Option<i128>) -> bool {
        let incumbent = self.best.as_ref().map(|(v, _)| *v);
        let global = match (incumbent, open) {
            (Some(v), Some(o)) => Some(v.min(o)),
            (v, o) => v.or(o),
        };
        self.proved = match (self.proved, global) {
            (Some(p), Some(g)) => Some(p.max(g)),
            (p, g) => p.or(g),
        };
        // The model's own values: the costs of variables fixed before the search added.
        let incumbent = incumbent.map(|v| v + self.value_offset);
        let proved = self.proved.map(|b| b + self.value_offset);
        if self.trace.note(seconds, incumbent, proved) {
            let sign = |v: i128| if self.maximise { -v } else { v };
            crate::backend::incumbent::report_progress(&crate::backend::incumbent::TracePoint {
                seconds,
                value: incumbent.map(sign),
                bound: proved.map(sign),
            });
        }
        let reached = match (incumbent, proved) {
            (Some(v), Some(b)) => self.gap_limit.is_set() && self.gap_limit.reached(v, b),
            _ => false,
        };
        self.stopped_at_gap |= reached;
        reached
    }

    /// Takes the trace (minimisation form) out of the bound.
    pub fn take_trace(&mut self) -> Trace {
        std::mem::take(&mut self.trace)
    }

    /// The knapsack rows (general packing rows holding a negative-cost variable), the rows
    /// of the surrogate relaxation (c).
    pub fn knapsack_rows(&self) -> &[u32] {
        &self.knapsack_rows
    }

    /// Makes the surrogate relaxation (c) the row `sum_r m_r (row r)` over the knapsack rows,
    /// with `multipliers[i]` for `knapsack_rows()[i]`, instead of their plain sum. Any
    /// non-negative multipliers give a valid relaxation; those of an optimal LP dual make its
    /// fractional knapsack as strong as the LP relaxation of all knapsack rows together
    /// ([`crate::backend::surrogate`]). Refused (false, nothing changed) when a weighted sum
    /// could exceed `u64` (no saturation, which could make the bound invalid) or the lengths
    /// differ. Cost: one pass over the knapsack rows.
    pub fn use_surrogate_multipliers(&mut self, layout: &Layout, multipliers: &[u64]) -> bool {
        if multipliers.len() != self.knapsack_rows.len() {
            return false;
        }
        let mut weight = vec![0u128; layout.num_vars];
        let mut room = 0u128;
        for (&r, &m) in self.knapsack_rows.iter().zip(multipliers) {
            let r = r as usize;
            room += u128::from(layout.upper[r]) * u128::from(m);
            for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
                weight[v as usize] += u128::from(w) * u128::from(m);
            }
        }
        let fits = |x: u128| x <= u128::from(u64::MAX);
        if !fits(room) || !weight.iter().all(|&w| fits(w)) {
            return false;
        }
        self.surrogate_weight = weight.into_iter().map(|w| w as u64).collect();
        self.surrogate_multiplier = multipliers.to_vec();
        true
    }

    /// The minimisation-form costs of the layout's variables (for ordering candidates).
    pub fn costs(&self) -> &[i64] {
        &self.costs
    }

    /// The slack rows (variables in no equation, each paired with its slack partner) in the
    /// order an optimising search should branch on them: best value per unit of knapsack
    /// weight first (the order of the fractional knapsack bound, so the search follows it),
    /// ties by row. The ratio is a heuristic only: no value is computed from it. Cost: a sort
    /// of the slack rows.
    pub fn slack_order(&self, layout: &Layout) -> Vec<u32> {
        let key = self.branch_keys(layout);
        let mut rows: Vec<(f64, u32)> = (self.first_slack..layout.num_rows)
            .map(|r| (key[layout.row(r)[0] as usize], r as u32))
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        rows.into_iter().map(|(_, r)| r).collect()
    }

    /// Per variable, the heuristic key of [`CostBound::slack_order`]: its cost over its load
    /// (the sum over knapsack rows of its weight over the row's capacity); smaller is tried
    /// first. Cost: one pass over the knapsack rows.
    pub fn branch_keys(&self, layout: &Layout) -> Vec<f64> {
        let mut load = vec![0.0f64; layout.num_vars];
        for &r in &self.knapsack_rows {
            let r = r as usize;
            let room = layout.upper[r].max(1) as f64;
            for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
                load[v as usize] += w as f64 / room;
            }
        }
        (0..layout.num_vars)
            .map(|v| self.costs[v] as f64 / load[v].max(1e-9))
            .collect()
    }

    /// The minimisation-form value of the best solution found.
    pub fn incumbent(&self) -> Option<i128> {
        self.best.as_ref().map(|(v, _)| *v)
    }

    /// The best solution found and its minimisation-form value.
    pub fn best(&self) -> Option<&(i128, Solution)> {
        self.best.as_ref()
    }

    /// The exact minimisation-form cost of the placed variables.
    pub fn placed_cost(&self, placed: &[u32]) -> i128 {
        placed
            .iter()
            .map(|&v| i128::from(self.costs[v as usize]))
            .sum()
    }

    /// Offers a solution (every row holds with `placed`): kept when strictly better than the
    /// incumbent. `solution` is made only then.
    pub fn offer(&mut self, placed: &[u32], solution: impl FnOnce() -> Solution) {
        let value = self.placed_cost(placed);
        if self.best.as_ref().is_none_or(|(b, _)| value < *b) {
            self.best = Some((value, solution()));
        }
    }

    /// Whether the node may still hold a solution better than the incumbent (always, before
    /// the first solution). Cost: [`CostBound::lower_bound`] once there is an incumbent.
    pub fn admits(&mut self, layout: &Layout, legal: &VarSet, placed: &[u32]) -> bool {
        self.node_bound = None;
        let Some(incumbent) = self.best.as_ref().map(|(v, _)| *v) else {
            return true;
        };
        let bound = self.lower_bound(layout, legal, placed);
        self.node_bound = Some(bound);
        let keep = bound < incumbent;
        self.pruned += u64::from(!keep);
        keep
    }

    /// A lower bound on the cost of every solution extending `placed` (see the module docs).
    pub fn lower_bound(&mut self, layout: &Layout, legal: &VarSet, placed: &[u32]) -> i128 {
        self.bounds += 1;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for marks in [&mut self.placed_at, &mut self.residual_at] {
                marks.iter_mut().for_each(|m| *m = u32::MAX);
            }
            self.epoch = 1;
        }
        let epoch = self.epoch;
        if self.recording {
            self.derivation.clear();
            self.derivation.push(PolOp::Improving);
        }
        let mut bound = self.placed_cost(placed);
        self.row_sum.iter_mut().for_each(|s| *s = 0);
        for &v in placed {
            self.placed_at[v as usize] = epoch;
            for (&r, &w) in layout
                .rows_of(v as usize)
                .iter()
                .zip(layout.weights_of(v as usize))
            {
                self.row_sum[r as usize] += w;
            }
        }
        bound += self.positive_part(layout, legal);
        let (mut open_negative, mut relaxation) = (0, Relaxation::Nothing);
        if !self.negative.is_empty() {
            open_negative = self.open_negative(legal);
            let (part, which) = self.negative_part(layout, legal, open_negative);
            bound += part;
            relaxation = which;
        }
        if self.recording {
            self.finish_derivation(layout, legal, placed, bound, open_negative, relaxation);
        }
        bound
    }

    /// Completes the derivation of a bound `bound` just computed while recording: when it
    /// prunes, the pieces of the packing relaxation that gave the negative part (computed a
    /// second time, at prunes only); when the placed cost with every open negative cost
    /// already reaches the incumbent, nothing beyond the improving constraint (it alone is
    /// falsified).
    fn finish_derivation(
        &mut self,
        layout: &Layout,
        legal: &VarSet,
        placed: &[u32],
        bound: i128,
        open_negative: i128,
        relaxation: Relaxation,
    ) {
        let Some(incumbent) = self.incumbent() else {
            return;
        };
        if self.placed_cost(placed) + open_negative >= incumbent {
            self.derivation.truncate(1);
        } else if bound >= incumbent {
            match relaxation {
                Relaxation::Nothing => {}
                Relaxation::Disjoint => _ = self.disjoint_packing(layout, legal, true),
                Relaxation::Row(r) => _ = self.row_packing(layout, legal, r, true),
                Relaxation::Surrogate => _ = self.surrogate_packing(layout, legal, true),
            }
        }
    }

    /// The cost of the open negative-cost variables.
    fn open_negative(&self, legal: &VarSet) -> i128 {
        (self.negative.iter())
            .filter(|&&v| self.open(legal, v as usize))
            .map(|&v| i128::from(self.costs[v as usize]))
            .sum()
    }

    /// Whether `v` is legal and not placed at this node.
    #[inline]
    fn open(&self, legal: &VarSet, v: usize) -> bool {
        legal.contains(v) && self.placed_at[v] != self.epoch
    }

    /// The dual ascent over the covering rows (see the module docs): a lower bound on the
    /// positive part of every completion's cost. While recording, each row that adds to it
    /// writes its piece of the derivation (see [`explain`]).
    fn positive_part(&mut self, layout: &Layout, legal: &VarSet) -> i128 {
        let epoch = self.epoch;
        let mut total = 0i128;
        for i in 0..self.cover_rows.len() {
            let r = self.cover_rows[i] as usize;
            let need = layout.lower[r].saturating_sub(self.row_sum[r]);
            if need == 0 {
                continue;
            }
            self.items.clear();
            let mut unit = true;
            for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
                let v = v as usize;
                if !self.open(legal, v) {
                    continue;
                }
                if self.residual_at[v] != epoch {
                    self.residual_at[v] = epoch;
                    self.residual[v] = self.costs[v].max(0);
                }
                unit &= w == 1;
                self.items.push((self.residual[v], w));
            }
            if unit {
                // Sum x >= need on unit weights: the `need` cheapest residuals; each variable
                // is charged at most the largest of them (cost splitting).
                let k = need as usize;
                if self.items.len() < k {
                    continue; // the search's propagation finds this contradiction
                }
                self.items.select_nth_unstable(k - 1);
                let y = self.items[k - 1].0;
                total += self.items[..k]
                    .iter()
                    .map(|&(c, _)| i128::from(c))
                    .sum::<i128>();
                if y > 0 {
                    self.charge_unit_row(layout, legal, r, y);
                }
            } else if let Some((part, critical)) = cover_bound(&mut self.items, need) {
                // Weighted: the row takes its variables' whole residuals.
                total += part;
                if let (true, Some(critical)) = (self.recording, critical) {
                    self.explain_weighted_cover(layout, legal, r, critical);
                }
                for &v in layout.row(r) {
                    if self.open(legal, v as usize) {
                        self.residual[v as usize] = 0;
                    }
                }
            }
        }
        total
    }

    /// Charges every open variable of unit covering row `r` at most `y` (its dual value) of
    /// its residual; while recording, writes the row's piece of the derivation in the same
    /// pass (see [`explain`]).
    fn charge_unit_row(&mut self, layout: &Layout, legal: &VarSet, r: usize, y: i64) {
        if self.recording {
            self.start_unit_cover(r, y);
        }
        for &v in layout.row(r) {
            let v = v as usize;
            if self.open(legal, v) {
                if self.recording && self.residual[v] < y {
                    self.axiom(v, true, (y - self.residual[v]) as u128);
                }
                let res = &mut self.residual[v];
                *res -= (*res).min(y);
            }
        }
        if self.recording {
            self.derivation.push(PolOp::Add);
        }
    }

    /// The tightest of the packing relaxations (a), (b), (c) of the module docs: a lower
    /// bound on the negative part of every completion's cost, `all` (the cost of every open
    /// negative-cost variable) when none is tighter; with it, which relaxation gave it.
    fn negative_part(&mut self, layout: &Layout, legal: &VarSet, all: i128) -> (i128, Relaxation) {
        let mut best = (all, Relaxation::Nothing);
        let keep = |best: &mut (i128, Relaxation), value: i128, which| {
            if value > best.0 {
                *best = (value, which);
            }
        };
        // (a): each packing row packs its not yet counted variables; the rest at cost.
        let (packed, counted) = self.disjoint_packing(layout, legal, false);
        keep(&mut best, packed + all - counted, Relaxation::Disjoint);
        // (b): one knapsack row alone; (c): their sum.
        for i in 0..self.knapsack_rows.len() {
            let r = self.knapsack_rows[i] as usize;
            let (packed, inside) = self.row_packing(layout, legal, r, false);
            keep(&mut best, packed + all - inside, Relaxation::Row(r));
        }
        if self.knapsack_rows.len() >= 2 {
            let packed = self.surrogate_packing(layout, legal, false);
            keep(&mut best, packed, Relaxation::Surrogate);
        }
        best
    }

    /// Relaxation (a): every packing row packs, as a fractional knapsack, its open
    /// negative-cost variables no earlier row counted. The packed total and the cost of the
    /// variables counted; with `explain`, each row's piece of the derivation.
    fn disjoint_packing(&mut self, layout: &Layout, legal: &VarSet, explain: bool) -> (i128, i128) {
        if self.round as usize >= u32::MAX as usize - self.pack_rows.len() - 1 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.round = 0;
        }
        let first = self.round + 1;
        let (mut packed, mut counted) = (0i128, 0i128);
        for i in 0..self.pack_rows.len() {
            let r = self.pack_rows[i] as usize;
            self.round += 1;
            self.items.clear();
            for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
                let v = v as usize;
                if self.costs[v] < 0 && self.open(legal, v) && self.mark[v] < first {
                    self.mark[v] = self.round;
                    counted += i128::from(self.costs[v]);
                    self.items.push((self.costs[v], w));
                }
            }
            let room = layout.upper[r].saturating_sub(self.row_sum[r]);
            let (value, critical) = pack_bound(&mut self.items, room);
            packed += value;
            if let (true, Some(critical)) = (explain, critical) {
                let items = Items::Marked(self.round);
                self.explain_packing(layout, legal, Piece::Row(r), critical, items);
            }
        }
        (packed, counted)
    }

    /// Relaxation (b) for knapsack row `r`: its open negative-cost variables packed as a
    /// fractional knapsack. The packed total and their whole cost; with `explain`, the piece.
    fn row_packing(
        &mut self,
        layout: &Layout,
        legal: &VarSet,
        r: usize,
        explain: bool,
    ) -> (i128, i128) {
        self.items.clear();
        let mut inside = 0i128;
        for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
            let v = v as usize;
            if self.costs[v] < 0 && self.open(legal, v) {
                inside += i128::from(self.costs[v]);
                self.items.push((self.costs[v], w));
            }
        }
        let room = layout.upper[r].saturating_sub(self.row_sum[r]);
        let (packed, critical) = pack_bound(&mut self.items, room);
        if let (true, Some(critical)) = (explain, critical) {
            self.explain_packing(layout, legal, Piece::Row(r), critical, Items::Negative);
        }
        (packed, inside)
    }

    /// Relaxation (c): every open negative-cost variable packed into the surrogate row. With
    /// `explain`, the piece.
    fn surrogate_packing(&mut self, layout: &Layout, legal: &VarSet, explain: bool) -> i128 {
        let room = (self.knapsack_rows.iter().zip(&self.surrogate_multiplier))
            .map(|(&r, &m)| {
                let room = layout.upper[r as usize].saturating_sub(self.row_sum[r as usize]);
                room.saturating_mul(m)
            })
            .fold(0u64, u64::saturating_add);
        self.items.clear();
        for &v in &self.negative {
            let v = v as usize;
            if self.open(legal, v) {
                self.items.push((self.costs[v], self.surrogate_weight[v]));
            }
        }
        let (packed, critical) = pack_bound(&mut self.items, room);
        if let (true, Some(critical)) = (explain, critical) {
            self.explain_packing(layout, legal, Piece::Surrogate, critical, Items::Negative);
        }
        packed
    }
}

/// Which relaxation of the negative part gave the bound (see [`CostBound::negative_part`]).
#[derive(Debug, Clone, Copy)]
enum Relaxation {
    /// None beat counting every open negative cost.
    Nothing,
    /// (a).
    Disjoint,
    /// (b) on this knapsack row.
    Row(usize),
    /// (c).
    Surrogate,
}

/// The row (or rows) of one packing piece of a derivation.
#[derive(Debug, Clone, Copy)]
enum Piece {
    /// One packing row.
    Row(usize),
    /// The surrogate row: the knapsack rows with their multipliers.
    Surrogate,
}

/// Which variables of a packing piece are its knapsack's items.
#[derive(Debug, Clone, Copy)]
enum Items {
    /// Those with `mark[v]` equal to this round (relaxation (a)).
    Marked(u32),
    /// Every open negative-cost variable.
    Negative,
}

/// A proved bound on the optimum of `model` (in the objective's own sign: a lower bound when
/// minimising, an upper bound when maximising) from the bound of this module at the root,
/// nothing placed and every variable open; `None` without an objective. For optimisers with
/// no bound of their own at a stop. Cost: one [`Layout`] and one bound evaluation.
pub fn root_bound(model: &crate::model::Model) -> Option<i128> {
    let objective = model.objective()?;
    let layout = Layout::new(model);
    let mut bound = CostBound::new(&layout, objective);
    let root = bound.lower_bound(&layout, &VarSet::full(layout.num_vars), &[]);
    Some(objective.flip(root))
}

/// What [`CostBound::fix_against`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoundFixing {
    /// No solution is strictly better than the incumbent: it is optimal.
    NoneBetter,
    /// Every strictly better solution gives these model variables these values (only the
    /// variables fixed by this call; fixings passed in are not repeated).
    Fixed(Vec<(usize, bool)>),
}

/// The most bound evaluations' worth of work (variables times layout entries) one round of
/// [`CostBound::fix_against`] may take; a larger model is not probed (the fixing is only a
/// help, never needed for correctness).
pub const FIXING_WORK_LIMIT: u64 = 200_000_000;

impl CostBound {
    /// Reduced-cost fixing by probing the bound against an incumbent of minimisation-form
    /// value `incumbent`: a solution strictly better must cost less than it, so a model
    /// variable whose bound at 1 (or at 0) is at least `incumbent` takes the other value in
    /// every such solution. `fixed` (per model variable, updated in place) holds what earlier
    /// calls fixed; the bound is evaluated with those fixings (ones placed, zeros not legal)
    /// and the layout's givens placed. Rounds repeat while one fixes something (at most
    /// four). `NoneBetter` when the bound with the fixings, or both values of one variable,
    /// reach the incumbent. Sound for any incumbent: it only removes solutions that cannot
    /// beat it. Cost per round: two bound evaluations per open model variable, skipped (no
    /// fixing) beyond [`FIXING_WORK_LIMIT`].
    pub fn fix_against(
        &mut self,
        layout: &Layout,
        fixed: &mut [Option<bool>],
        incumbent: i128,
    ) -> BoundFixing {
        let nonzeros: usize = (0..layout.num_rows).map(|r| layout.row(r).len()).sum();
        let entries = (layout.num_rows + layout.num_vars + nonzeros) as u64;
        let mut legal = VarSet::full(layout.num_vars);
        let mut placed: Vec<u32> = Vec::new();
        for &g in &layout.givens {
            fixed[g] = fixed[g].or(Some(true));
        }
        for (v, f) in fixed.iter().enumerate() {
            match f {
                Some(true) => placed.push(v as u32),
                Some(false) => legal.remove(v),
                None => {}
            }
        }
        let mut news = Vec::new();
        if self.lower_bound(layout, &legal, &placed) >= incumbent {
            return BoundFixing::NoneBetter;
        }
        if (layout.model_vars as u64).saturating_mul(2 * entries) > FIXING_WORK_LIMIT {
            return BoundFixing::Fixed(news);
        }
        for _round in 0..4 {
            let before = news.len();
            for (v, fix) in fixed.iter_mut().enumerate().take(layout.model_vars) {
                if fix.is_some() {
                    continue;
                }
                placed.push(v as u32);
                let at_one = self.lower_bound(layout, &legal, &placed);
                placed.pop();
                legal.remove(v);
                let at_zero = self.lower_bound(layout, &legal, &placed);
                legal.insert(v);
                let value = match (at_one >= incumbent, at_zero >= incumbent) {
                    (true, true) => return BoundFixing::NoneBetter,
                    (true, false) => false,
                    (false, true) => true,
                    (false, false) => continue,
                };
                *fix = Some(value);
                news.push((v, value));
                if value {
                    placed.push(v as u32);
                } else {
                    legal.remove(v);
                }
            }
            if news.len() == before {
                break;
            }
            if self.lower_bound(layout, &legal, &placed) >= incumbent {
                return BoundFixing::NoneBetter;
            }
        }
        BoundFixing::Fixed(news)
    }
}

/// An item (cost, weight) of a fractional knapsack: the critical one whose cost per weight is
/// the LP dual of the row (see [`cover_bound`], [`pack_bound`]).
type Critical = Option<(i64, u64)>;

/// The LP bound of covering weight `need` with `items` (cost, weight), each at most once: every
/// non-positive cost taken, then positive costs by cost per weight, the last fractionally;
/// rounded up. With it the critical item: the last positive-cost item taken (in whole or in
/// part), `None` when the non-positive ones cover `need`. `None` when the items cannot cover
/// `need` (the search's propagation finds that contradiction; the row then adds nothing here).
fn cover_bound(items: &mut [(i64, u64)], need: u64) -> Option<(i128, Critical)> {
    let mut total = 0i128;
    let mut left = i128::from(need);
    for &(c, w) in items.iter().filter(|&&(c, _)| c <= 0) {
        total += i128::from(c);
        left -= i128::from(w);
    }
    // Cheapest per unit of weight first: c1 / w1 < c2 / w2  <=>  c1 * w2 < c2 * w1.
    items.sort_unstable_by(|a, b| {
        (i128::from(a.0) * i128::from(b.1)).cmp(&(i128::from(b.0) * i128::from(a.1)))
    });
    let mut critical = None;
    for &(c, w) in items.iter().filter(|&&(c, _)| c > 0) {
        if left <= 0 {
            break;
        }
        critical = Some((c, w));
        let (c, w) = (i128::from(c), i128::from(w));
        if w <= left {
            total += c;
            left -= w;
        } else {
            // The fraction left / w of this item, rounded up (the total is an integer).
            total += (c * left + w - 1) / w;
            left = 0;
        }
    }
    (left <= 0).then_some((total, critical))
}

/// The LP bound of packing `items` (all with negative cost) into `room`: best value per weight
/// first (weightless items always), the last fractionally; the (negative) total rounded up.
/// With it the critical item: the first that does not fit whole (`None`: all fit).
fn pack_bound(items: &mut [(i64, u64)], room: u64) -> (i128, Critical) {
    // Most negative per unit of weight first: c1 / w1 < c2 / w2.
    items.sort_unstable_by(|a, b| {
        (i128::from(a.0) * i128::from(b.1)).cmp(&(i128::from(b.0) * i128::from(a.1)))
    });
    let mut total = 0i128;
    let mut left = i128::from(room);
    let mut critical = None;
    for &(c, w) in items.iter() {
        if critical.is_none() && i128::from(w) > left {
            critical = Some((c, w));
        }
        let (c, w) = (i128::from(c), i128::from(w));
        if w <= left {
            total += c;
            left -= w;
        } else if left > 0 {
            // c * left / w with c < 0, rounded towards +infinity (the bound may round up).
            total += (c * left).div_euclid(w) + i128::from((c * left).rem_euclid(w) != 0);
            left = 0;
        }
    }
    (total, critical)
}

#[cfg(test)]
mod tests;
