//! Branch and bound for the shared search ([`crate::backend::search`]): the incumbent and the
//! lower bound that prunes every branch that cannot beat it.
//!
//! Costs are in minimisation form ([`crate::model::objective::Objective::min_cost`]); slack variables
//! cost 0. At a node (a propagation fixed point) the bound is the cost of the placed variables
//! plus, for rows whose still-legal variables are counted **once each** (a row is used only when
//! none of the variables it would count was counted by an earlier row):
//! - an open "exactly one" row: its cheapest legal variable (any completion takes exactly one);
//! - an open general row with a lower bound (`>= k`, `= k`) still short of `need`: the LP
//!   relaxation of covering `need` with its legal variables (all non-positive costs taken, then
//!   positive costs cheapest per unit of weight first, the last one fractionally, rounded up);
//! - a row with an upper bound (`<= k`, `<= 1`): the LP relaxation of packing its legal
//!   negative-cost variables into the room left (best value per weight first, rounded down);
//!   positive costs count 0;
//! - every other legal negative-cost variable: its cost.
//!
//! Each part bounds the cost of the completion restricted to the variables it counts, and the
//! parts are disjoint, so the sum bounds every completion. A branch is pruned when its bound is
//! at least the incumbent's value (ties: the first solution found in search order is kept, so
//! results are stable). Cost per node: one pass over the rows' variables, plus a sort of the
//! legal variables of each general row.

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
    /// Rows in the order the bound visits them: covering rows first, then packing rows.
    order: Vec<u32>,
    /// `mark[v] == epoch`: `v` was counted by a row at this node.
    mark: Vec<u32>,
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
}

impl CostBound {
    /// The bound for `layout` (made from a model with `objective`). Cost: one pass over the
    /// variables and rows.
    pub fn new(layout: &Layout, objective: &Objective) -> CostBound {
        let mut costs = vec![0i64; layout.num_vars];
        for (v, c) in costs.iter_mut().enumerate().take(layout.model_vars) {
            *c = objective.min_cost(v);
        }
        let negative = (0..layout.num_vars as u32)
            .filter(|&v| costs[v as usize] < 0)
            .collect();
        let covering = |r: usize| layout.exactly_one[r] || layout.lower[r] > 0;
        let mut order: Vec<u32> = (0..layout.num_rows as u32)
            .filter(|&r| covering(r as usize))
            .collect();
        order.extend((0..layout.num_rows as u32).filter(|&r| {
            let r = r as usize;
            !covering(r) && layout.upper[r] != u64::MAX
        }));
        CostBound {
            costs,
            negative,
            order,
            mark: vec![0; layout.num_vars],
            placed_at: vec![0; layout.num_vars],
            epoch: 0,
            row_sum: vec![0; layout.num_rows],
            items: Vec::new(),
            best: None,
            bounds: 0,
            pruned: 0,
        }
    }

    /// The minimisation-form costs of the layout's variables (for ordering candidates).
    pub fn costs(&self) -> &[i64] {
        &self.costs
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
        let Some(incumbent) = self.best.as_ref().map(|(v, _)| *v) else {
            return true;
        };
        let keep = self.lower_bound(layout, legal, placed) < incumbent;
        self.pruned += u64::from(!keep);
        keep
    }

    /// A lower bound on the cost of every solution extending `placed` (see the module docs).
    pub fn lower_bound(&mut self, layout: &Layout, legal: &VarSet, placed: &[u32]) -> i128 {
        self.bounds += 1;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.iter_mut().for_each(|m| *m = u32::MAX);
            self.placed_at.iter_mut().for_each(|m| *m = u32::MAX);
            self.epoch = 1;
        }
        let epoch = self.epoch;
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
        for i in 0..self.order.len() {
            let r = self.order[i] as usize;
            bound += self.row_part(layout, legal, r);
        }
        for &v in &self.negative {
            let v = v as usize;
            if self.mark[v] != epoch && self.placed_at[v] != epoch && legal.contains(v) {
                bound += i128::from(self.costs[v]);
            }
        }
        bound
    }

    /// Row `r`'s part of the bound (0 when it is closed or shares a counted variable), marking
    /// the variables it counts.
    fn row_part(&mut self, layout: &Layout, legal: &VarSet, r: usize) -> i128 {
        let epoch = self.epoch;
        let sum = self.row_sum[r];
        let covering = layout.exactly_one[r] || layout.lower[r] > 0;
        if covering && sum >= layout.lower[r] {
            return 0;
        }
        self.items.clear();
        let vars = layout.row(r);
        for (&v, &w) in vars.iter().zip(layout.row_weights(r)) {
            let v = v as usize;
            if !legal.contains(v)
                || self.placed_at[v] == epoch
                || (self.mark[v] == epoch && !covering)
            {
                continue;
            }
            if self.mark[v] == epoch {
                return 0; // counted by an earlier row (or placed): skip this row
            }
            let c = self.costs[v];
            if covering || c < 0 {
                self.items.push((c, w));
            }
        }
        if self.items.is_empty() {
            return 0;
        }
        let part = if layout.exactly_one[r] {
            self.items.iter().map(|&(c, _)| i128::from(c)).min()
        } else if covering {
            cover_bound(&mut self.items, layout.lower[r] - sum)
        } else {
            pack_bound(&mut self.items, layout.upper[r].saturating_sub(sum))
        };
        let Some(part) = part else {
            return 0;
        };
        for &v in vars {
            let v = v as usize;
            let counted = covering || self.costs[v] < 0;
            if legal.contains(v) && self.placed_at[v] != epoch && counted {
                self.mark[v] = epoch;
            }
        }
        part
    }
}

/// The LP bound of covering weight `need` with `items` (cost, weight), each at most once: every
/// non-positive cost taken, then positive costs by cost per weight, the last fractionally;
/// rounded up. `None` when the items cannot cover `need` (the search's propagation finds that
/// contradiction; the row then adds nothing here).
fn cover_bound(items: &mut [(i64, u64)], need: u64) -> Option<i128> {
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
    for &(c, w) in items.iter().filter(|&&(c, _)| c > 0) {
        if left <= 0 {
            break;
        }
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
    (left <= 0).then_some(total)
}

/// The LP bound of packing `items` (all with negative cost) into `room`: best value per weight
/// first, the last fractionally; the (negative) total rounded up. Always `Some`.
fn pack_bound(items: &mut [(i64, u64)], room: u64) -> Option<i128> {
    // Most negative per unit of weight first: c1 / w1 < c2 / w2.
    items.sort_unstable_by(|a, b| {
        (i128::from(a.0) * i128::from(b.1)).cmp(&(i128::from(b.0) * i128::from(a.1)))
    });
    let mut total = 0i128;
    let mut left = i128::from(room);
    for &(c, w) in items.iter() {
        if left <= 0 {
            break;
        }
        let (c, w) = (i128::from(c), i128::from(w));
        if w <= left {
            total += c;
            left -= w;
        } else {
            // c * left / w with c < 0, rounded towards +infinity (the bound may round up).
            total += (c * left).div_euclid(w) + i128::from((c * left).rem_euclid(w) != 0);
            left = 0;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lp_bounds_round_the_right_way() {
        // Cover 5 with (3, w2), (4, w4): 3 + 4 * 3/4 = 6 exactly.
        assert_eq!(cover_bound(&mut [(4, 4), (3, 2)], 5), Some(6));
        // Cover 3 with (5, w2), (5, w2): 5 + 5/2 = 7.5 -> 8.
        assert_eq!(cover_bound(&mut [(5, 2), (5, 2)], 3), Some(8));
        // A negative item covers for free.
        assert_eq!(cover_bound(&mut [(-2, 3), (7, 1)], 3), Some(-2));
        assert_eq!(cover_bound(&mut [(1, 1)], 2), None);
        // Pack room 3 with (-6, w2), (-4, w2): -6 - 4/2 = -8.
        assert_eq!(pack_bound(&mut [(-4, 2), (-6, 2)], 3), Some(-8));
        // -5 * 1/2 = -2.5 -> -2.
        assert_eq!(pack_bound(&mut [(-5, 2)], 1), Some(-2));
    }
}
