//! The one verifier every answer goes through before it is printed or counted.
//!
//! Every row kind is checked: `sum_i w_i x_i (=, <=, >=) k`, exact-cover rows being the unit
//! case. Checking costs one step per row each variable set to 1 lies in (the model's column
//! view, which also holds the weights), one per row, and a binary search per given. On a model
//! with an objective, [`Verifier::objective_value`] recomputes a solution's value exactly, so a
//! backend's claimed value is checked, never trusted.

use serde::Serialize;
use thiserror::Error;

pub use super::rows::row_words;
use crate::model::{Model, Solution, VarId};

/// Why an assignment is not a solution of a model.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
pub enum Violation {
    /// The assignment names a variable the model does not have.
    #[error("variable {var} does not exist (the model has {variables})")]
    UnknownVariable {
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// The assignment lists a variable twice or out of order.
    #[error("the list of ones is not sorted and duplicate-free")]
    Unsorted,
    /// A row's sense does not hold. The message names the row by its own name too when its
    /// file gave it one (`row 'cov3' (row 2 of family 'row') sums to 0, but must be >= 1`).
    #[error("{} sums to {sum}, but must be {sense}", row_words(.label.as_deref(), *.index, .family))]
    Row {
        /// Family name.
        family: String,
        /// Row index within its family.
        index: usize,
        /// The row's own name (an LP or MPS row name, [`Model::row_label`]), if it has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        /// Its weighted sum (for a unit-weight row: how many of its variables are 1).
        sum: u64,
        /// The row's sense, as text (`= 1`, `<= 1`, `>= 3`).
        sense: String,
    },
    /// A given was not kept.
    #[error("given '{label}' is 0 in the answer")]
    GivenDropped {
        /// The given's label.
        label: String,
    },
}

/// Checks assignments against one model.
#[derive(Debug, Clone, Copy)]
pub struct Verifier<'m> {
    model: &'m Model,
}

impl<'m> Verifier<'m> {
    /// A verifier for `model`.
    pub fn new(model: &'m Model) -> Self {
        Verifier { model }
    }

    /// `Ok(())` when every row's sense holds and every given is 1; otherwise the first violation
    /// found (rows in order, then givens).
    pub fn check(&self, solution: &Solution) -> Result<(), Violation> {
        let n = self.model.num_variables();
        if solution.ones.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Violation::Unsorted);
        }
        if let Some(&var) = solution.ones.iter().find(|&&v| v >= n) {
            return Err(Violation::UnknownVariable { var, variables: n });
        }
        // Weighted sum per row, through the column view: one step per (one, row) pair, not per
        // nonzero. No overflow: a row's total weight is at most 2^53.
        let rows = self.model.constraints();
        let mut sum = vec![0u64; rows.len()];
        for &v in &solution.ones {
            match self.model.row_weights_of(v) {
                None => self.model.rows_of(v).iter().for_each(|&r| sum[r] += 1),
                Some(weights) => {
                    for (&r, &w) in self.model.rows_of(v).iter().zip(weights) {
                        sum[r] += w;
                    }
                }
            }
        }
        let senses = self.model.row_senses();
        let broken = (senses.iter().zip(&sum)).position(|(sense, &s)| !sense.holds(s));
        if let Some(r) = broken {
            let c = &rows[r];
            return Err(Violation::Row {
                family: self.model.families()[c.family].name.clone(),
                index: c.index,
                label: self.model.row_label(r).map(str::to_string),
                sum: sum[r],
                sense: c.sense.to_string(),
            });
        }
        if let Some(&g) = self
            .model
            .givens()
            .iter()
            .find(|&&g| solution.ones.binary_search(&g).is_err())
        {
            return Err(Violation::GivenDropped {
                label: self.model.label(g).into_owned(),
            });
        }
        Ok(())
    }

    /// The exact value of the model's objective at `solution` (`None` for a model without an
    /// objective): recomputed here from the model's costs, whatever a backend claims. Cost: one
    /// addition per variable set to 1, in `i128`.
    pub fn objective_value(&self, solution: &Solution) -> Option<i128> {
        Some(self.model.objective()?.value(&solution.ones))
    }

    /// Whether `solution` is a solution.
    pub fn accepts(&self, solution: &Solution) -> bool {
        self.check(solution).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    fn model() -> Model {
        let mut b = ModelBuilder::new("v", PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("one");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        let g = b.family("most");
        b.row(g, vec![1, 2], Sense::AtMostOne);
        b.given(2);
        b.build().unwrap()
    }

    #[test]
    fn accepts_a_solution_and_names_each_violation() {
        let m = model();
        let v = Verifier::new(&m);
        assert!(v.accepts(&Solution::new(vec![0, 2])));
        assert!(matches!(
            v.check(&Solution::new(vec![2])),
            Err(Violation::Row { sum: 0, .. })
        ));
        assert!(matches!(
            v.check(&Solution::new(vec![1, 2])),
            Err(Violation::Row { ref family, sum: 2, .. }) if family == "most"
        ));
        assert!(matches!(
            v.check(&Solution::new(vec![0])),
            Err(Violation::GivenDropped { .. })
        ));
        assert!(matches!(
            v.check(&Solution::new(vec![0, 7])),
            Err(Violation::UnknownVariable { var: 7, .. })
        ));
        assert_eq!(
            v.check(&Solution { ones: vec![2, 0] }),
            Err(Violation::Unsorted)
        );
    }
}
