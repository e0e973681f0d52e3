//! A linear objective over a model's 0-1 variables: minimise or maximise `sum_i c_i x_i`.
//!
//! Costs are integers with `|c_i| <= 2^53` ([`MAX_COST`]); a variable not named costs 0. Every
//! sum is computed exactly in `i128` (a model of up to 2^70 variables cannot overflow it), never
//! in floating point. Backends search in *minimisation form* ([`Objective::min_cost`]): the
//! costs themselves for `minimize`, negated for `maximize`, so one comparison serves both.
//!
//! The objective is part of a [`crate::model::Model`] (see `Model::objective` and
//! `ModelBuilder::objective`); puzzle files have none. Cost: one `i64` per variable.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::VarId;

/// The largest absolute cost a variable may have: 2^53 (every cost is then exact in an `f64`,
/// which the MILP and peer solvers need).
pub const MAX_COST: i64 = 1 << 53;

/// Whether the objective is minimised or maximised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ObjectiveSense {
    /// Smaller is better.
    Minimize,
    /// Larger is better.
    Maximize,
}

impl ObjectiveSense {
    /// `minimize` or `maximize`, as files and output spell it.
    pub fn name(self) -> &'static str {
        match self {
            ObjectiveSense::Minimize => "minimize",
            ObjectiveSense::Maximize => "maximize",
        }
    }

    /// Reads `minimize` / `maximize` (also `minimise` / `maximise`, `min` / `max`), in any
    /// case; `None` for anything else. The one place that decides the objective's spellings,
    /// for every entry point (JSON/TOML models, the Python `Model.set_objective`).
    pub fn parse(text: &str) -> Option<ObjectiveSense> {
        match text.to_ascii_lowercase().as_str() {
            "minimize" | "minimise" | "min" => Some(ObjectiveSense::Minimize),
            "maximize" | "maximise" | "max" => Some(ObjectiveSense::Maximize),
            _ => None,
        }
    }
}

impl fmt::Display for ObjectiveSense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A linear objective: a sense and one integer cost per variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Objective {
    sense: ObjectiveSense,
    /// Cost of each variable, indexed by [`VarId`] (0 for a variable not named).
    costs: Vec<i64>,
}

/// Why a list of costs does not make an objective of a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectiveError {
    /// A cost names a variable the model does not have.
    #[error("the objective names variable {var}, but the model has {variables} variables")]
    UnknownVariable {
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// A cost above 2^53 in absolute value.
    #[error("the objective gives variable {var} the cost {cost}, outside -2^53..=2^53")]
    CostOutOfRange {
        /// The variable.
        var: VarId,
        /// Its cost.
        cost: i64,
    },
    /// A variable named twice.
    #[error("the objective names variable {var} twice")]
    Duplicate {
        /// The variable.
        var: VarId,
    },
}

impl Objective {
    /// The objective `sense sum c_v x_v` over a model of `variables` variables, from its nonzero
    /// (or zero) terms. Refuses an unknown variable, a variable named twice and a cost outside
    /// `-2^53..=2^53`. Cost: one pass over the terms, one `i64` per variable.
    pub fn new(
        sense: ObjectiveSense,
        variables: usize,
        terms: impl IntoIterator<Item = (VarId, i64)>,
    ) -> Result<Objective, ObjectiveError> {
        let mut costs = vec![0i64; variables];
        let mut named = vec![false; variables];
        for (var, cost) in terms {
            if var >= variables {
                return Err(ObjectiveError::UnknownVariable { var, variables });
            }
            if !(-MAX_COST..=MAX_COST).contains(&cost) {
                return Err(ObjectiveError::CostOutOfRange { var, cost });
            }
            if std::mem::replace(&mut named[var], true) {
                return Err(ObjectiveError::Duplicate { var });
            }
            costs[var] = cost;
        }
        Ok(Objective { sense, costs })
    }

    /// Minimise or maximise.
    pub fn sense(&self) -> ObjectiveSense {
        self.sense
    }

    /// Whether the objective is maximised.
    pub fn is_maximize(&self) -> bool {
        self.sense == ObjectiveSense::Maximize
    }

    /// The cost of variable `v`.
    pub fn cost(&self, v: VarId) -> i64 {
        self.costs[v]
    }

    /// Every variable's cost, indexed by [`VarId`].
    pub fn costs(&self) -> &[i64] {
        &self.costs
    }

    /// The variables with a nonzero cost and their costs, in id order.
    pub fn terms(&self) -> impl Iterator<Item = (VarId, i64)> + '_ {
        (self.costs.iter().enumerate())
            .filter(|&(_, &c)| c != 0)
            .map(|(v, &c)| (v, c))
    }

    /// The cost of `v` in minimisation form: `c_v` for `minimize`, `-c_v` for `maximize`.
    pub fn min_cost(&self, v: VarId) -> i64 {
        match self.sense {
            ObjectiveSense::Minimize => self.costs[v],
            ObjectiveSense::Maximize => -self.costs[v],
        }
    }

    /// A value in minimisation form turned back into the objective's own sign (or the other
    /// way: the map is its own inverse).
    pub fn flip(&self, value: i128) -> i128 {
        match self.sense {
            ObjectiveSense::Minimize => value,
            ObjectiveSense::Maximize => -value,
        }
    }

    /// The exact objective value of the assignment whose ones are `ones` (ids below the number
    /// of variables; others are ignored). Cost: one addition per one.
    pub fn value(&self, ones: &[VarId]) -> i128 {
        (ones.iter())
            .filter_map(|&v| self.costs.get(v))
            .map(|&c| i128::from(c))
            .sum()
    }

    /// Whether value `a` is strictly better than value `b` under this sense.
    pub fn better(&self, a: i128, b: i128) -> bool {
        match self.sense {
            ObjectiveSense::Minimize => a < b,
            ObjectiveSense::Maximize => a > b,
        }
    }

    /// The relative gap between a solution's value and a proved bound: `|value - bound| /
    /// max(1, |value|)`, HiGHS's `mip_rel_gap` with the denominator kept at least 1 (so a
    /// value of 0 gives a finite gap). A float for display: [`Objective::gap_ratio`] is the
    /// exact fraction.
    pub fn gap(value: i128, bound: i128) -> f64 {
        let (num, den) = Objective::gap_ratio(value, bound);
        num as f64 / den as f64
    }

    /// The relative gap of [`Objective::gap`] as the exact fraction `(|value - bound|,
    /// max(1, |value|))` (not reduced).
    pub fn gap_ratio(value: i128, bound: i128) -> (u128, u128) {
        (value.abs_diff(bound), value.unsigned_abs().max(1))
    }

    /// The objective over the variables `keep` (new id `i` is old id `keep[i]`), for a model
    /// reduced to those variables; the costs of the others are dropped (the caller adds those
    /// of the variables fixed to 1 back). Cost: one step per kept variable.
    pub fn restricted(&self, keep: &[VarId]) -> Objective {
        Objective {
            sense: self.sense,
            costs: keep.iter().map(|&v| self.costs[v]).collect(),
        }
    }

    /// Whether every cost is 0 (any solution is then optimal).
    pub fn is_zero(&self) -> bool {
        self.costs.iter().all(|&c| c == 0)
    }

    /// The smallest and largest value any assignment can take, in minimisation form: the sum of
    /// the negative and of the positive minimisation costs. Cost: one pass over the costs.
    pub fn min_form_range(&self) -> (i128, i128) {
        (0..self.costs.len()).fold((0, 0), |(lo, hi), v| {
            let c = i128::from(self.min_cost(v));
            (lo + c.min(0), hi + c.max(0))
        })
    }
}

/// The serialized form: sense and the nonzero costs by variable id (worker processes receive
/// models this way).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectiveRepr {
    /// Minimise or maximise.
    pub sense: ObjectiveSense,
    /// `(variable id, cost)` for every variable with a nonzero cost.
    pub costs: Vec<(VarId, i64)>,
}

impl From<&Objective> for ObjectiveRepr {
    fn from(o: &Objective) -> ObjectiveRepr {
        ObjectiveRepr {
            sense: o.sense,
            costs: o.terms().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_exact_and_the_sense_orders_them() {
        let o =
            Objective::new(ObjectiveSense::Maximize, 3, [(0, MAX_COST), (2, MAX_COST)]).unwrap();
        // 2^54 is not reached exactly by f64 sums of neighbours, but i128 holds it exactly.
        assert_eq!(o.value(&[0, 2]), 2 * i128::from(MAX_COST));
        assert_eq!(o.min_cost(0), -MAX_COST);
        assert!(o.better(5, 3) && !o.better(3, 3));
        assert_eq!(o.flip(7), -7);
        assert_eq!(o.min_form_range(), (-2 * i128::from(MAX_COST), 0));
        let m = Objective::new(ObjectiveSense::Minimize, 2, [(1, -4)]).unwrap();
        assert!(m.better(-5, -4));
        assert_eq!(m.restricted(&[1]).costs(), &[-4]);
        assert_eq!(Objective::gap(10, 8), 0.2);
    }

    #[test]
    fn bad_terms_are_refused_by_name() {
        let s = ObjectiveSense::Minimize;
        assert_eq!(
            Objective::new(s, 2, [(2, 1)]),
            Err(ObjectiveError::UnknownVariable {
                var: 2,
                variables: 2
            })
        );
        assert_eq!(
            Objective::new(s, 2, [(1, MAX_COST + 1)]),
            Err(ObjectiveError::CostOutOfRange {
                var: 1,
                cost: MAX_COST + 1
            })
        );
        assert_eq!(
            Objective::new(s, 2, [(1, 1), (1, 2)]),
            Err(ObjectiveError::Duplicate { var: 1 })
        );
        assert_eq!(ObjectiveSense::parse("max"), Some(ObjectiveSense::Maximize));
        assert_eq!(ObjectiveSense::parse("largest"), None);
    }
}
