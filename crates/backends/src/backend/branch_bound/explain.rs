//! The bound's own derivation, for proof logging: while [`CostBound::set_recording`] is on,
//! every bound the search computes is also written as a cutting-planes derivation
//! ([`PolOp`], a VeriPB `pol` step in reverse Polish) from the objective-improving constraint
//! of the latest improving solution and the model's rows. Under the node's assignment (the
//! placed variables 1, the variables not legal 0) the derived constraint cannot hold when the
//! bound reaches the incumbent, so the node's backjump clause follows by reverse unit
//! propagation and a checker replays exactly the prunes the plain search makes.
//!
//! The derivation is the bound's LP dual, piece by piece, added to the improving constraint
//! `sum c_v x_v <= incumbent - 1`:
//!
//! - a **unit covering row** `sum x >= k` whose `k` cheapest residual costs top out at `y`:
//!   `y` times the row, plus `(y - residual_v) ~x_v >= 0` for each open variable cheaper
//!   than `y`, charges each open variable at most its residual and adds the `k` cheapest;
//! - a **weighted covering row**, with critical item `(c_j, w_j)` (see `cover_bound`):
//!   `c_j` times the row, plus `(c_j w_v - w_j residual_v) ~x_v >= 0` for each open
//!   variable at most as dear per weight, the placed variables weakened away, then divided
//!   by `w_j`: the division rounds the LP bound up as the search does;
//! - a **packing piece** (a packing row, or the surrogate row, with critical item
//!   `(c_j, w_j)`, see `pack_bound`): `|c_j|` times the row(s), plus
//!   `(w_j |c_v| - |c_j| W_v) ~x_v >= 0` for each item at least as good per weight, the
//!   other open variables' coefficients rounded down to multiples of `w_j` by `x_v >= 0`
//!   axioms, the variables not legal weakened away, then divided by `w_j`: the division
//!   rounds the packed value down as the search does.
//!
//! Every piece charges each open variable at most what the bound charged it, so the
//! derived constraint's slack under the node's assignment is `incumbent - 1 - bound`:
//! negative exactly when the search prunes. Cost while recording: one more pass over each
//! row that adds to the bound, and over the winning packing relaxation once more.

use super::{CostBound, Items, Piece};
use crate::backend::search::{Layout, VarSet};

/// One step of a cutting-planes derivation in reverse Polish (VeriPB's `pol`), over layout
/// rows and model variables; the proof writer turns rows into constraint ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolOp {
    /// Push the objective-improving constraint of the latest improving solution.
    Improving,
    /// Push layout row `row` (a model row): its `>=` side (`upper == false`) or its `<=`
    /// side.
    Row {
        /// The layout row.
        row: u32,
        /// Which side of the row.
        upper: bool,
    },
    /// Push the literal axiom `x >= 0` (`negated`: `~x >= 0`) of model variable `var`.
    Literal {
        /// The model variable.
        var: u32,
        /// Whether the literal is the negation.
        negated: bool,
    },
    /// Multiply the top by a positive integer.
    Multiply(u128),
    /// Divide the top (in normalised form) by a positive integer, rounding up.
    Divide(u128),
    /// Weaken the top on model variable `var` (drop its term).
    Weaken(u32),
    /// Add the top two.
    Add,
}

impl CostBound {
    /// Makes every bound computed from now on also write its derivation (see the module
    /// docs), read by [`CostBound::derivation`]. Off by default: a search without a proof
    /// pays one test per row.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// The derivation of the last bound computed while recording: from the
    /// objective-improving constraint, a constraint that unit propagation under that node's
    /// assignment falsifies when the bound reaches the incumbent.
    pub fn derivation(&self) -> &[PolOp] {
        &self.derivation
    }

    /// Pushes `value` times the top (nothing for 1).
    fn scale(&mut self, value: u128) {
        if value != 1 {
            self.derivation.push(PolOp::Multiply(value));
        }
    }

    /// Adds `times` the axiom of literal `var` (negated or not) to the top.
    pub(super) fn axiom(&mut self, var: usize, negated: bool, times: u128) {
        if times > 0 {
            let var = var as u32;
            self.derivation.push(PolOp::Literal { var, negated });
            self.scale(times);
            self.derivation.push(PolOp::Add);
        }
    }

    /// Starts the piece of a unit covering row `r` whose dual value is `y`: the row taken `y`
    /// times; [`CostBound::charge_unit_row`] adds `(y - residual) ~x >= 0` for each open
    /// variable cheaper than `y` and the final `+`.
    pub(super) fn start_unit_cover(&mut self, r: usize, y: i64) {
        self.derivation.push(PolOp::Row {
            row: r as u32,
            upper: false,
        });
        self.scale(y as u128);
    }

    /// The piece of a weighted covering row `r` with critical item `(c_j, w_j)`, `c_j > 0`
    /// (before its residuals are charged).
    pub(super) fn explain_weighted_cover(
        &mut self,
        layout: &Layout,
        legal: &VarSet,
        r: usize,
        (cj, wj): (i64, u64),
    ) {
        self.derivation.push(PolOp::Row {
            row: r as u32,
            upper: false,
        });
        self.scale(cj as u128);
        let (cj, wj) = (i128::from(cj), i128::from(wj));
        for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
            let v = v as usize;
            if self.open(legal, v) {
                let z = cj * i128::from(w) - wj * i128::from(self.residual[v]);
                self.axiom(v, true, z.max(0) as u128);
            }
        }
        if wj > 1 {
            for &v in layout.row(r) {
                if self.placed_at[v as usize] == self.epoch {
                    self.derivation.push(PolOp::Weaken(v));
                }
            }
            self.derivation.push(PolOp::Divide(wj as u128));
        }
        self.derivation.push(PolOp::Add);
    }

    /// The rows of `piece` with their multipliers.
    fn piece_rows(&self, piece: Piece) -> Vec<(usize, u64)> {
        match piece {
            Piece::Row(r) => vec![(r, 1)],
            Piece::Surrogate => (self.knapsack_rows.iter().zip(&self.surrogate_multiplier))
                .filter(|&(_, &m)| m > 0)
                .map(|(&r, &m)| (r as usize, m))
                .collect(),
        }
    }

    /// The piece of a packing relaxation over `piece` with critical item `(c_j, w_j)`,
    /// `c_j < 0`, whose knapsack items are `items`.
    pub(super) fn explain_packing(
        &mut self,
        layout: &Layout,
        legal: &VarSet,
        piece: Piece,
        (cj, wj): (i64, u64),
        items: Items,
    ) {
        let rows = self.piece_rows(piece);
        for (i, &(r, m)) in rows.iter().enumerate() {
            self.derivation.push(PolOp::Row {
                row: r as u32,
                upper: true,
            });
            self.scale(u128::from(m));
            if i > 0 {
                self.derivation.push(PolOp::Add);
            }
        }
        let s = i128::from(cj.unsigned_abs());
        let d = i128::from(wj);
        self.scale(s as u128);
        self.seen_round = self.seen_round.wrapping_add(1);
        if self.seen_round == 0 {
            self.seen.iter_mut().for_each(|x| *x = u32::MAX);
            self.seen_round = 1;
        }
        for &(r, _) in &rows {
            for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
                let v = v as usize;
                if self.seen[v] == self.seen_round || self.placed_at[v] == self.epoch {
                    continue;
                }
                self.seen[v] = self.seen_round;
                if !legal.contains(v) {
                    if d > 1 {
                        self.derivation.push(PolOp::Weaken(v as u32));
                    }
                    continue;
                }
                let weight = match piece {
                    Piece::Row(_) => i128::from(w),
                    Piece::Surrogate => i128::from(self.surrogate_weight[v]),
                };
                let a = s * weight;
                let gain = i128::from(self.costs[v].unsigned_abs()) * d;
                if self.is_item(items, legal, v) && gain >= a {
                    self.axiom(v, true, (gain - a) as u128);
                } else {
                    self.axiom(v, false, (a % d) as u128);
                }
            }
        }
        if d > 1 {
            self.derivation.push(PolOp::Divide(d as u128));
        }
        self.derivation.push(PolOp::Add);
    }

    /// Whether open variable `v` is one of the knapsack's `items`.
    fn is_item(&self, items: Items, legal: &VarSet, v: usize) -> bool {
        match items {
            Items::Marked(round) => self.mark[v] == round,
            Items::Negative => self.costs[v] < 0 && self.open(legal, v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Relation, Solution};
    use rand::{Rng, SeedableRng};

    /// A constraint `sum a_v x_v >= rhs` over model variables, in variable form (negative
    /// coefficients allowed), as the cutting-planes rules act on it.
    #[derive(Debug, Clone, Default)]
    struct Linear {
        a: std::collections::BTreeMap<u32, i128>,
        rhs: i128,
    }

    impl Linear {
        fn scaled(mut self, k: i128) -> Linear {
            self.a.values_mut().for_each(|a| *a *= k);
            self.rhs *= k;
            self
        }
        fn plus(mut self, other: &Linear) -> Linear {
            for (&v, &a) in &other.a {
                *self.a.entry(v).or_insert(0) += a;
            }
            self.rhs += other.rhs;
            self
        }
        /// Drops `v` (adds the axiom that cancels its term, in normalised form).
        fn weakened(mut self, v: u32) -> Linear {
            let a = self.a.remove(&v).unwrap_or(0);
            if a > 0 {
                self.rhs -= a;
            }
            self
        }
        /// Division in normalised form (literal coefficients and degree rounded up).
        fn divided(self, d: i128) -> Linear {
            let up = |x: i128| x.div_euclid(d) + i128::from(x.rem_euclid(d) != 0);
            let negative: i128 = self.a.values().filter(|&&a| a < 0).map(|a| -a).sum();
            let degree = up(self.rhs + negative);
            let mut out = Linear::default();
            let mut shift = 0;
            for (&v, &a) in &self.a {
                let b = if a >= 0 { up(a) } else { -up(-a) };
                shift += (-b).max(0);
                out.a.insert(v, b);
            }
            out.rhs = degree - shift;
            out
        }
        /// The largest `sum a x - rhs` over the assignments extending `fixed`.
        fn slack(&self, fixed: &dyn Fn(u32) -> Option<bool>) -> i128 {
            (self.a.iter())
                .map(|(&v, &a)| match fixed(v) {
                    Some(x) => a * i128::from(x),
                    None => a.max(0),
                })
                .sum::<i128>()
                - self.rhs
        }
    }

    /// Replays `ops` on `model` with the improving constraint of `incumbent`.
    fn replay(model: &Model, ops: &[PolOp], incumbent: i128) -> Linear {
        let o = model.objective().unwrap();
        let mut stack: Vec<Linear> = Vec::new();
        for &op in ops {
            let top = match op {
                PolOp::Improving => Linear {
                    a: (0..model.num_variables() as u32)
                        .map(|v| (v, -i128::from(o.min_cost(v as usize))))
                        .collect(),
                    rhs: 1 - incumbent,
                },
                PolOp::Row { row, upper } => {
                    let c = &model.constraints()[row as usize];
                    let (low, high) = c.sense.bounds();
                    let sign = if upper { -1 } else { 1 };
                    let rhs = if upper {
                        -i128::from(high.unwrap())
                    } else {
                        i128::from(low)
                    };
                    assert!(upper || c.sense.relation() != Relation::AtMost);
                    Linear {
                        a: c.terms()
                            .map(|(v, w)| (v as u32, sign * i128::from(w)))
                            .collect(),
                        rhs,
                    }
                }
                PolOp::Literal { var, negated } => Linear {
                    a: [(var, if negated { -1 } else { 1 })].into_iter().collect(),
                    rhs: if negated { -1 } else { 0 },
                },
                PolOp::Multiply(k) => stack.pop().unwrap().scaled(k as i128),
                PolOp::Divide(d) => stack.pop().unwrap().divided(d as i128),
                PolOp::Weaken(v) => stack.pop().unwrap().weakened(v),
                PolOp::Add => {
                    let second = stack.pop().unwrap();
                    stack.pop().unwrap().plus(&second)
                }
            };
            stack.push(top);
        }
        assert_eq!(stack.len(), 1, "{ops:?}");
        stack.pop().unwrap()
    }

    #[test]
    fn every_prune_derives_a_constraint_the_node_falsifies() {
        // Random models, random nodes (some variables placed, some shut out), the incumbent
        // at the optimum and above it: whenever the bound reaches the incumbent, the replayed
        // derivation's largest slack over the node's completions is negative.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3801);
        let (mut pruned, mut pieces) = (0, 0);
        for _ in 0..400 {
            let (m, what) = super::super::tests::random_model(&mut rng);
            let Some(best) = super::super::tests::brute_optimum(&m) else {
                continue;
            };
            let layout = Layout::new(&m);
            let mut bound = CostBound::new(&layout, m.objective().unwrap());
            bound.set_recording(true);
            let incumbent = best + rng.gen_range(0..4);
            bound.best = Some((incumbent, Solution::new(vec![])));
            for _ in 0..10 {
                let mut legal = VarSet::full(layout.num_vars);
                let mut placed = Vec::new();
                for v in 0..layout.model_vars {
                    match rng.gen_range(0..6) {
                        0 => placed.push(v as u32),
                        1 => legal.remove(v),
                        _ => {}
                    }
                }
                let value = bound.lower_bound(&layout, &legal, &placed);
                if value < incumbent {
                    continue;
                }
                pruned += 1;
                pieces += usize::from(bound.derivation().len() > 1);
                let derived = replay(&m, bound.derivation(), incumbent);
                let fixed = |v: u32| {
                    if placed.contains(&v) {
                        Some(true)
                    } else if !legal.contains(v as usize) {
                        Some(false)
                    } else {
                        None
                    }
                };
                assert!(
                    derived.slack(&fixed) < 0,
                    "bound {value} >= {incumbent}, {:?} -> {derived:?}: {what}",
                    bound.derivation()
                );
            }
        }
        assert!(
            pruned > 300 && pieces > 100,
            "{pruned} prunes, {pieces} with pieces"
        );
    }
}
