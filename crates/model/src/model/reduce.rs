//! Derived models: givens as rows, families restricted, and reduction by fixed values
//! ([`Reduction`], with the way back to the original variables).

use super::shape::Shape;
use crate::model::{
    Constraint, Coord, FamilyId, Model, ModelBuilder, ModelError, RowId, Sense, Solution, VarId,
};
use std::collections::BTreeMap;
use std::sync::Arc;

impl Model {
    /// A builder holding this model's variables (with their labels) and name, and no rows.
    pub(super) fn builder_with_variables(&self) -> ModelBuilder {
        let mut b = ModelBuilder::new(self.name.clone(), self.kind().clone());
        b.hints(self.hints().clone());
        b.variables = self.shape.variables.clone();
        b.labels = self.shape.labels.clone();
        let own = self.own_variables();
        b.derived = (own..).zip(self.shape.derived.iter().copied()).collect();
        b.projection = self.shape.projection.clone();
        b
    }

    /// Wraps a builder's parts as a model without the builder's checks (for models derived
    /// from a checked one, whose derived variables are already last).
    pub(super) fn from_parts(b: ModelBuilder) -> Model {
        let derived = b.derived.iter().map(|&(_, d)| d).collect();
        let mut shape = Shape::new(
            b.kind,
            b.hints,
            (b.variables, b.labels, derived),
            (b.families, b.constraints, b.row_labels),
        );
        shape.projection = b.projection;
        Model {
            shape: Arc::new(shape),
            name: b.name,
            givens: b.givens,
            objective: None,
        }
    }

    /// The same model with the givens written as rows of a family `given` (one `x = 1` row
    /// each) and no separate givens, for backends that only read rows.
    pub fn with_givens_as_rows(&self) -> Model {
        if self.givens.is_empty() {
            return self.clone();
        }
        let mut b = self.builder_with_variables();
        b.families = self.shape.families.clone();
        b.constraints = self.shape.constraints.clone();
        b.row_labels = self.shape.row_labels.clone();
        let fam = b.family("given");
        for &g in &self.givens {
            b.row(fam, vec![g], Sense::ExactlyOne);
        }
        Model {
            objective: self.objective.clone(),
            ..Model::from_parts(b)
        }
    }

    /// The same model keeping only the families named in `keep` (in their original order).
    /// Unknown names are ignored; givens are kept.
    pub fn restricted_to(&self, keep: &[&str]) -> Model {
        let mut b = self.builder_with_variables();
        let mut new_row = vec![None; self.constraints().len()];
        for f in self.families() {
            if keep.contains(&f.name.as_str()) {
                let id = b.family(f.name.clone());
                for &r in &f.rows {
                    let c = &self.constraints()[r];
                    new_row[r] = Some(b.push_row(id, c.vars.clone(), c.weights.clone(), c.sense));
                }
            }
        }
        b.row_labels = self.shape.row_labels.renumbered(|r| new_row[r]);
        b.givens = self.givens.clone();
        Model {
            objective: self.objective.clone(),
            ..Model::from_parts(b)
        }
    }

    /// Applies the givens: every given is fixed to 1, every other variable sharing an
    /// exact-cover row with a given is fixed to 0, satisfied "exactly one" rows and emptied
    /// "at most one" rows are dropped; a general row loses its fixed variables and its
    /// right-hand side drops by the givens' weight (a row left always true is dropped). Returns
    /// the smaller model and the map back. The objective keeps the costs of the free variables
    /// (the givens' costs are a constant the caller adds back, e.g. by valuing the lifted
    /// solution). Costs one pass over the nonzeros.
    pub fn reduce(&self) -> Reduction {
        self.reduce_fixed(&self.fixed_by_givens())
    }

    /// [`Model::reduce`] for any fixed values (`value[v]`: `Some` fixes variable `v`, `None`
    /// leaves it free), such as those a presolve proves: every fixed variable leaves the model,
    /// each row loses them and its right-hand side drops by the weight fixed to 1, and rows left
    /// always true are dropped (an exact-cover row with one variable fixed to 1 is satisfied).
    /// `infeasible` is set when a row can no longer hold. The solutions of the reduced model,
    /// lifted, are exactly the solutions of this model that agree with `value`. Panics when
    /// `value` does not have one entry per variable. Costs one pass over the nonzeros.
    pub fn reduce_fixed(&self, value: &[Option<bool>]) -> Reduction {
        assert_eq!(value.len(), self.num_variables(), "one value per variable");
        let n = self.num_variables();
        let mut new_id = vec![None; n];
        let mut b = ModelBuilder::new(self.name.clone(), self.kind().clone());
        b.hints(self.hints().clone());
        let mut original = Vec::new();
        let stored = self.shape.labels.is_some();
        for (v, var) in self.variables().iter().enumerate() {
            if value[v].is_none() {
                // Reduced ids differ from the original ones, so keep every label as it was.
                new_id[v] = Some(if stored || var.coord == Coord::Free {
                    b.variable(self.label(v).into_owned(), var.coord)
                } else {
                    b.coord_variable(var.coord)
                });
                original.push(v);
            }
        }
        let mut infeasible = false;
        for f in self.families() {
            let id = b.family(f.name.clone());
            for &r in &f.rows {
                let c = &self.constraints()[r];
                let before = b.constraints.len();
                infeasible |= !reduce_row(c, value, &new_id, id, &mut b);
                // A kept row keeps its name.
                if let Some(label) = (b.constraints.len() > before)
                    .then(|| self.row_label(r))
                    .flatten()
                {
                    b.name_row(before, label);
                }
            }
        }
        let objective = (self.objective.as_ref()).map(|o| Arc::new(o.restricted(&original)));
        Reduction {
            model: Model {
                objective,
                ..Model::from_parts(b)
            },
            original,
            ones: (0..n).filter(|&v| value[v] == Some(true)).collect(),
            original_variables: n,
            infeasible,
        }
    }

    /// The value the givens fix for each variable: 1 for a given, 0 for another variable of an
    /// exact-cover row holding a given, `None` otherwise.
    pub(super) fn fixed_by_givens(&self) -> Vec<Option<bool>> {
        let mut value: Vec<Option<bool>> = vec![None; self.num_variables()];
        for &g in &self.givens {
            value[g] = Some(true);
        }
        for c in self.constraints().iter().filter(|c| c.is_unit()) {
            if c.vars.iter().any(|&v| value[v] == Some(true)) {
                for &v in &c.vars {
                    if value[v].is_none() {
                        value[v] = Some(false);
                    }
                }
            }
        }
        value
    }

    /// Refuses two givens in one exact-cover row, and givens that sum past a general row's
    /// upper bound. Costs one look at the rows of each given (and a sort of them, only to name
    /// the first clash).
    pub(super) fn check_givens(&self) -> Result<(), ModelError> {
        let mut taken = vec![0u64; self.constraints().len().div_ceil(64)];
        let mut clash = false;
        let mut sums: BTreeMap<RowId, u64> = BTreeMap::new();
        let senses = self.row_senses();
        for &g in &self.givens {
            let weights = self.row_weights_of(g);
            for (i, &r) in self.rows_of(g).iter().enumerate() {
                if senses[r].is_unit() {
                    let (word, bit) = (r / 64, 1u64 << (r % 64));
                    clash |= taken[word] & bit != 0;
                    taken[word] |= bit;
                } else {
                    *sums.entry(r).or_default() += weights.map_or(1, |w| w[i]);
                }
            }
        }
        if let Some(error) = clash.then(|| self.first_clash()).flatten() {
            return Err(error);
        }
        for (r, sum) in sums {
            let c = &self.constraints()[r];
            if c.sense.bounds().1.is_some_and(|high| sum > high) {
                let labels: Vec<String> = (c.vars.iter())
                    .filter(|v| self.givens.binary_search(v).is_ok())
                    .map(|&v| self.label(v).into_owned())
                    .collect();
                return Err(ModelError::OverfullRow {
                    givens: labels.join(", "),
                    sum,
                    sense: c.sense.to_string(),
                    family: self.families()[c.family].name.clone(),
                    index: c.index,
                });
            }
        }
        Ok(())
    }

    /// The first exact-cover row (in row order) holding two givens, as an error.
    pub(super) fn first_clash(&self) -> Option<ModelError> {
        // (row, given) pairs, sorted: two givens of one row end up side by side.
        let senses = self.row_senses();
        let mut hits: Vec<(RowId, VarId)> = Vec::with_capacity(self.givens.len() * 4);
        for &g in &self.givens {
            hits.extend(
                (self.rows_of(g).iter())
                    .filter(|&&r| senses[r].is_unit())
                    .map(|&r| (r, g)),
            );
        }
        hits.sort_unstable();
        let w = hits
            .windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .min_by_key(|w| w[0].0)?;
        let c = &self.constraints()[w[0].0];
        Some(ModelError::ClashingGivens {
            first: self.label(w[0].1).into_owned(),
            second: self.label(w[1].1).into_owned(),
            family: self.families()[c.family].name.clone(),
            index: c.index,
        })
    }
}
/// Writes row `c` of a model into the reduced model's builder `b` (family `family`), given the
/// fixed values and the reduced ids of the free variables: the row keeps its free variables and
/// its right-hand side drops by the weight fixed to 1. A row left always true is dropped, except
/// an exact-cover row untouched by the fixed ones (kept as it was). Returns `false` when the row
/// can no longer hold (the fixed values leave no solution).
pub(super) fn reduce_row(
    c: &Constraint,
    value: &[Option<bool>],
    new_id: &[Option<VarId>],
    family: FamilyId,
    b: &mut ModelBuilder,
) -> bool {
    let mut used = 0u64;
    let (mut vars, mut weights) = (Vec::new(), Vec::new());
    for (v, w) in c.terms() {
        match (value[v], new_id[v]) {
            (Some(true), _) => used = used.saturating_add(w),
            (None, Some(id)) => {
                vars.push(id);
                weights.push(w);
            }
            _ => {}
        }
    }
    let (low, high) = c.sense.bounds();
    if high.is_some_and(|h| used > h) {
        return false;
    }
    let rest: u64 = weights.iter().sum();
    let sense = c.sense.with_rhs(c.sense.rhs().saturating_sub(used));
    if vars.is_empty() {
        return sense.holds(0);
    }
    let always_true = low <= used && high.is_none_or(|h| used + rest <= h);
    if !always_true || (c.is_unit() && used == 0) {
        // An exact-cover row holding a one keeps its free variables as `= 0` / `<= 0`.
        b.weighted_row(family, vars, weights, sense);
    }
    true
}

/// A model with its givens applied, and the way back to the original variables.
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The reduced model (no givens; free variables only).
    pub model: Model,
    /// For each variable of the reduced model, its id in the original model.
    pub original: Vec<VarId>,
    /// Original variables fixed to 1 (the givens, or every variable fixed to 1), sorted.
    pub ones: Vec<VarId>,
    /// Number of variables of the original model.
    pub original_variables: usize,
    /// A row can no longer hold (an "exactly one" row lost all its variables, or the fixed
    /// ones overfill a row): the fixed values leave no solution.
    pub infeasible: bool,
}

impl Reduction {
    /// Maps a solution of the reduced model back to the original model.
    pub fn lift(&self, reduced: &Solution) -> Solution {
        let mut ones: Vec<VarId> = reduced.ones.iter().map(|&v| self.original[v]).collect();
        ones.extend_from_slice(&self.ones);
        Solution::new(ones)
    }
}
