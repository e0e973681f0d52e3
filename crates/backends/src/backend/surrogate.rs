//! Surrogate multipliers for the branch-and-bound bound's relaxation (c)
//! ([`crate::backend::branch_bound`]): the optimal dual of the LP relaxation of the knapsack
//! rows, scaled to integers.
//!
//! The knapsack rows `sum_v w_rv x_v <= U_r` (with the negative-cost variables' values
//! `p_v = -c_v > 0`) have the LP relaxation `max sum p_v x_v, 0 <= x <= 1`, whose dual is
//! `min sum_r U_r y_r + sum_v u_v` subject to `sum_r w_rv y_r + u_v >= p_v`, `y, u >= 0`.
//! With the optimal `y` as multipliers, the surrogate row `sum_r y_r (row r)` has a fractional
//! knapsack bound equal to that LP's optimum (LP duality); with the plain sum of the rows it
//! can be far weaker (several rows, none binding alone).
//!
//! The dual is solved in floating point (good_lp on microlp), but nothing exact depends on it:
//! the multipliers are rounded to non-negative integers, and *any* non-negative multipliers
//! give a valid relaxation, whose bound the branch and bound then computes in exact integers.
//! A poor or failed LP only weakens the bound. Cost: one LP over the knapsack rows and the
//! negative-cost variables in them (refused beyond [`MAX_LP_ENTRIES`] nonzeros), plus a pass
//! over them.

use std::time::Duration;

use good_lp::solvers::{Solution as _, SolverModel, WithTimeLimit};
use good_lp::{variable, Expression, ProblemVariables};

use crate::backend::branch_bound::CostBound;
use crate::backend::search::Layout;

/// The largest LP (nonzeros of the knapsack rows over negative-cost variables) solved for
/// multipliers; larger models keep the plain sum.
pub const MAX_LP_ENTRIES: usize = 200_000;

/// The largest multiplier: the dual values are scaled so the largest becomes this.
const SCALE: f64 = (1u64 << 20) as f64;

/// Integer multipliers for `bound`'s knapsack rows ([`CostBound::knapsack_rows`], in that
/// order) from the optimal LP dual, or `None` when there are fewer than two knapsack rows, the
/// LP is too large, fails, or every dual value is 0. Cost: see the module docs.
pub fn lp_multipliers(layout: &Layout, bound: &CostBound) -> Option<Vec<u64>> {
    let rows = bound.knapsack_rows();
    let costs = bound.costs();
    let entries: usize = rows.iter().map(|&r| layout.row(r as usize).len()).sum();
    if rows.len() < 2 || entries > MAX_LP_ENTRIES {
        return None;
    }
    // The negative-cost variables of the knapsack rows, and per variable its (row, weight).
    let mut column: Vec<Vec<(usize, f64)>> = vec![Vec::new(); layout.num_vars];
    for (i, &r) in rows.iter().enumerate() {
        let r = r as usize;
        for (&v, &w) in layout.row(r).iter().zip(layout.row_weights(r)) {
            if costs[v as usize] < 0 {
                column[v as usize].push((i, w as f64));
            }
        }
    }
    let mut vars = ProblemVariables::new();
    let y: Vec<_> = rows.iter().map(|_| vars.add(variable().min(0))).collect();
    let mut objective: Expression = rows
        .iter()
        .zip(&y)
        .map(|(&r, &y)| layout.upper[r as usize] as f64 * y)
        .sum();
    let mut covers = Vec::new();
    for (v, col) in column.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        let u = vars.add(variable().min(0));
        objective += u;
        let lhs: Expression = col.iter().map(|&(i, w)| w * y[i]).sum::<Expression>() + u;
        covers.push(lhs.geq(-(costs[v] as f64)));
    }
    let mut problem = vars
        .minimise(objective)
        .using(good_lp::microlp)
        .with_time_limit(Duration::from_secs(1).as_secs_f64());
    for c in covers {
        problem.add_constraint(c);
    }
    let solution = problem.solve().ok()?;
    let dual: Vec<f64> = y.iter().map(|&y| solution.value(y).max(0.0)).collect();
    let largest = dual.iter().copied().fold(0.0f64, f64::max);
    if !(largest > 0.0 && largest.is_finite()) {
        return None;
    }
    Some(
        dual.iter()
            .map(|&d| (d / largest * SCALE).round() as u64)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::search::VarSet;
    use crate::model::{Coord, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};

    /// Maximise `values` under `<=` rows `(weights, capacity)` over every variable.
    fn knapsack(values: &[i64], rows: &[(Vec<u64>, u64)]) -> Model {
        let mut b = ModelBuilder::new("knapsack", PuzzleKind::Generic);
        let vars: Vec<usize> = (0..values.len())
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("capacity");
        for (weights, capacity) in rows {
            b.weighted_row(f, vars.clone(), weights.clone(), Sense::AtMost(*capacity));
        }
        b.objective(
            ObjectiveSense::Maximize,
            values.iter().copied().enumerate().collect(),
        );
        b.build().unwrap()
    }

    fn root(m: &Model, multipliers: bool) -> i128 {
        let layout = Layout::new(m);
        let mut bound = CostBound::new(&layout, m.objective().unwrap());
        if multipliers {
            let mult = lp_multipliers(&layout, &bound).expect("multipliers");
            assert!(bound.use_surrogate_multipliers(&layout, &mult));
        }
        bound.lower_bound(&layout, &VarSet::full(layout.num_vars), &[])
    }

    #[test]
    fn lp_multipliers_reach_the_lp_bound_where_no_single_row_does() {
        // Values 9, 8, 4; rows x0 + 5 x1 + 3 x2 <= 3 and 3 x0 + 2 x1 + 4 x2 <= 3. Each row
        // alone bounds the value by 11 (fractional knapsack), their plain sum by 79/7; the LP
        // of both rows by 129/13 = 9.92 (HiGHS), and the optimum is 9 ({x0}).
        let m = knapsack(&[9, 8, 4], &[(vec![1, 5, 3], 3), (vec![3, 2, 4], 3)]);
        assert_eq!(root(&m, false), -11);
        assert_eq!(root(&m, true), -9);
    }

    #[test]
    fn multiplied_bounds_stay_valid_and_never_weaker_on_random_knapsacks() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut stronger = 0;
        for _ in 0..200 {
            let n = rng.gen_range(2..=8);
            let values: Vec<i64> = (0..n).map(|_| rng.gen_range(1..=20)).collect();
            let rows: Vec<(Vec<u64>, u64)> = (0..rng.gen_range(2..=4))
                .map(|_| {
                    let w: Vec<u64> = (0..n).map(|_| rng.gen_range(1..=9)).collect();
                    let total: u64 = w.iter().sum();
                    (w, rng.gen_range(1..=total))
                })
                .collect();
            let m = knapsack(&values, &rows);
            let best = (0u32..1 << n)
                .filter(|mask| {
                    rows.iter().all(|(w, cap)| {
                        (0..n)
                            .filter(|i| mask >> i & 1 == 1)
                            .map(|i| w[i])
                            .sum::<u64>()
                            <= *cap
                    })
                })
                .map(|mask| {
                    -(0..n)
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| i128::from(values[i]))
                        .sum::<i128>()
                })
                .min()
                .unwrap();
            let (plain, multiplied) = (root(&m, false), root(&m, true));
            assert!(multiplied <= best, "{values:?} {rows:?}");
            assert!(multiplied >= plain, "{values:?} {rows:?}");
            stronger += usize::from(multiplied > plain);
        }
        assert!(stronger > 20, "{stronger} of 200 stronger");
    }
}
