//! The [`Model`] itself and its read-only views: names, variables, rows, columns, summary.

use super::shape::Shape;
use crate::model::{
    coord_label, Constraint, Derived, Family, FamilyId, ModelError, ModelHints, Objective,
    ObjectiveError, PuzzleKind, RowId, Sense, Solution, VarId, Variable,
};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A 0-1 model: variables, rows in families, givens. Immutable once built. The structure
/// (variables, rows, families) sits behind an [`Arc`]: cloning a model, or making another
/// puzzle of the same shape with [`Model::with_givens`], copies only the name and the givens.
///
/// ```
/// use zeroone::puzzle::HexBoard;
///
/// // The bare width-9 hex board of the seed write-up: 61 cells, 9 lines on each of 3 axes.
/// let model = HexBoard::geometry(9).unwrap().to_model("hex-9");
/// assert_eq!(model.num_variables(), 61);
/// assert_eq!(model.constraints().len(), 27);
/// let names: Vec<&str> = model.families().iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(names, ["row", "diag", "anti"]);
/// // Keep only two axes: a relaxation with more solutions.
/// let two_axes = model.restricted_to(&["row", "diag"]);
/// assert_eq!(two_axes.constraints().len(), 18);
/// ```
#[derive(Debug, Clone)]
pub struct Model {
    pub(super) name: String,
    pub(super) shape: Arc<Shape>,
    pub(super) givens: Vec<VarId>,
    /// The objective, if the model has one (shared like the shape).
    pub(super) objective: Option<Arc<Objective>>,
}

impl PartialEq for Model {
    fn eq(&self, other: &Model) -> bool {
        let (a, b) = (&*self.shape, &*other.shape);
        let same_shape = Arc::ptr_eq(&self.shape, &other.shape)
            || (a.kind == b.kind
                && a.hints == b.hints
                && a.variables == b.variables
                && a.families == b.families
                && a.constraints == b.constraints
                && a.row_labels == b.row_labels
                && a.derived == b.derived
                && a.projection == b.projection
                && (0..a.variables.len()).all(|v| self.label(v) == other.label(v)));
        self.name == other.name
            && self.givens == other.givens
            && self.objective == other.objective
            && same_shape
    }
}

impl Eq for Model {}

/// The size of a model in the terms `zeroone show` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSummary {
    /// Number of variables.
    pub variables: usize,
    /// Number of rows (both senses), givens not counted.
    pub constraints: usize,
    /// Rows per family, by family name.
    pub families: BTreeMap<String, usize>,
    /// Number of nonzeros of the constraint matrix.
    pub nonzeros: usize,
}

impl Model {
    /// A short name for the puzzle (file stem and index, or a builder's description).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Returns the same model under another name.
    pub fn renamed(mut self, name: impl Into<String>) -> Model {
        self.name = name.into();
        self
    }

    /// A model of the same shape (the structure is shared, not copied) named `name`, with
    /// `givens` instead of this model's givens. Costs a sort of the givens and one look at
    /// the rows of each given (to refuse two givens in one exact-cover row, or givens that
    /// overfill a general row); nothing per variable.
    pub fn with_givens(
        &self,
        name: impl Into<String>,
        mut givens: Vec<VarId>,
    ) -> Result<Model, ModelError> {
        givens.sort_unstable();
        givens.dedup();
        let n = self.num_variables();
        if let Some(&var) = givens.iter().find(|&&v| v >= n) {
            return Err(ModelError::UnknownGiven { var, variables: n });
        }
        let model = Model {
            name: name.into(),
            shape: Arc::clone(&self.shape),
            givens,
            objective: self.objective.clone(),
        };
        model.check_givens()?;
        Ok(model)
    }

    /// The objective, if the model has one (a puzzle has none).
    pub fn objective(&self) -> Option<&Objective> {
        self.objective.as_deref()
    }

    /// The same model with `objective` (or none). Refuses an objective made for another number
    /// of variables. Constant time.
    pub fn with_objective(mut self, objective: Option<Objective>) -> Result<Model, ModelError> {
        if let Some(o) = &objective {
            if o.costs().len() != self.num_variables() {
                return Err(ModelError::Objective(ObjectiveError::UnknownVariable {
                    var: o.costs().len().saturating_sub(1),
                    variables: self.num_variables(),
                }));
            }
        }
        self.objective = objective.map(Arc::new);
        Ok(self)
    }

    /// Whether `other` shares this model's structure by reference (made from one shape with
    /// [`Model::with_givens`] or `clone`). Constant time; `false` says nothing about equality.
    pub fn shares_shape_with(&self, other: &Model) -> bool {
        Arc::ptr_eq(&self.shape, &other.shape)
    }

    /// The puzzle kind: its identity, for output (names, titles, drawings).
    pub fn kind(&self) -> &PuzzleKind {
        &self.shape.kind
    }

    /// What the puzzle kind tells backends about this model (see [`ModelHints`]).
    pub fn hints(&self) -> &ModelHints {
        &self.shape.hints
    }

    /// All variables, indexed by [`VarId`].
    pub fn variables(&self) -> &[Variable] {
        &self.shape.variables
    }

    /// The label of variable `v` (`r3c4`, `r1c2=7`, or a generic model's own label): borrowed
    /// when the model stores it, otherwise made from the coordinates (one small allocation).
    pub fn label(&self, v: VarId) -> Cow<'_, str> {
        match &self.shape.labels {
            Some(labels) => labels.get(v),
            None => Cow::Owned(coord_label(v, self.shape.variables[v].coord)),
        }
    }

    /// Number of variables.
    pub fn num_variables(&self) -> usize {
        self.shape.variables.len()
    }

    /// Number of the model's own variables (those of its file or builder): every variable but
    /// the derived ones ([`Derived`]), which come after them. Free.
    pub fn own_variables(&self) -> usize {
        self.num_variables() - self.shape.derived.len()
    }

    /// The variables this model's count is projected onto (ascending), when that is not every
    /// one of its own variables: a CNF file's `c p show` lines naming fewer than all of them.
    /// zeroone counts over every variable, so the shared runner refuses to count such a model
    /// (status `unsupported`, saying so) rather than count something else; solving and listing
    /// solutions (each an assignment of every variable) are unaffected. `None`: counts are
    /// over all variables. Free.
    pub fn count_projection(&self) -> Option<&[VarId]> {
        self.shape.projection.as_deref()
    }

    /// What variable `v` is derived from, if it is derived ([`Derived`]). Free.
    pub fn derived(&self, v: VarId) -> Option<Derived> {
        let own = self.own_variables();
        v.checked_sub(own)
            .and_then(|i| self.shape.derived.get(i).copied())
    }

    /// `solution` in the model's own variables: the derived variables dropped (they are fixed
    /// by the others, so this loses nothing). This is what output shows. Costs a copy of the
    /// ones.
    pub fn own_solution(&self, solution: &Solution) -> Solution {
        let own = self.own_variables();
        Solution {
            ones: solution.ones.iter().copied().filter(|&v| v < own).collect(),
        }
    }

    /// All families, indexed by [`FamilyId`].
    pub fn families(&self) -> &[Family] {
        &self.shape.families
    }

    /// The id of the family called `name`, if any.
    pub fn family_id(&self, name: &str) -> Option<FamilyId> {
        self.families().iter().position(|f| f.name == name)
    }

    /// All rows (the sparse view), indexed by [`RowId`]. Givens are not rows; see
    /// [`Model::with_givens_as_rows`].
    pub fn constraints(&self) -> &[Constraint] {
        &self.shape.constraints
    }

    /// The name row `r` was given in its file (an LP or MPS row name, see
    /// [`ModelBuilder::name_row`](crate::model::ModelBuilder::name_row)), if any. Costs a binary
    /// search over the named rows.
    pub fn row_label(&self, r: RowId) -> Option<&str> {
        self.shape.row_labels.get(r)
    }

    /// Whether some row has a name of its own ([`Model::row_label`]). Free.
    pub fn has_row_labels(&self) -> bool {
        !self.shape.row_labels.is_empty()
    }

    /// Row `r` in words, for messages: `row 'cov3' (row 2 of family 'row')` when the row has
    /// a name of its own, else `row 2 of family 'row'`. One allocation.
    pub fn describe_row(&self, r: RowId) -> String {
        let c = &self.constraints()[r];
        let family = &self.families()[c.family].name;
        super::rows::row_words(self.row_label(r), c.index, family)
    }

    /// The rows of one family.
    pub fn family_rows(&self, family: FamilyId) -> impl Iterator<Item = &Constraint> + '_ {
        self.families()[family]
            .rows
            .iter()
            .map(move |&r| &self.constraints()[r])
    }

    /// Variables fixed to 1, sorted.
    pub fn givens(&self) -> &[VarId] {
        &self.givens
    }

    /// The rows variable `v` appears in, in row order. Free: the column view is built once
    /// per shape.
    pub fn rows_of(&self, v: VarId) -> &[RowId] {
        self.shape.rows_of(v)
    }

    /// The weight of `v` in each row of [`Model::rows_of`] (same order); `None` when no row of
    /// the model is weighted (every weight is then 1). Free, like the column view.
    pub fn row_weights_of(&self, v: VarId) -> Option<&[u64]> {
        self.shape.weights_of(v)
    }

    /// Whether every row is an exact-cover row (`= 1` or `<= 1` on unit weights): the case the
    /// exact-cover fast paths handle. Costs one scan of the senses.
    pub fn is_exact_cover(&self) -> bool {
        self.shape.senses.iter().all(|s| s.is_unit())
    }

    /// The first row that is not an exact-cover row, if any (for "unsupported" messages).
    pub fn first_general_row(&self) -> Option<&Constraint> {
        self.constraints().iter().find(|c| !c.is_unit())
    }

    /// The sense of every row, in row order (cheaper to scan than the rows).
    pub fn row_senses(&self) -> &[Sense] {
        &self.shape.senses
    }

    /// For every variable, the rows it appears in (the column view), as owned lists. Costs one
    /// allocation per variable; [`Model::rows_of`] is free.
    pub fn columns(&self) -> Vec<Vec<RowId>> {
        (0..self.num_variables())
            .map(|v| self.rows_of(v).to_vec())
            .collect()
    }

    /// Number of nonzeros of the constraint matrix.
    pub fn nonzeros(&self) -> usize {
        self.shape.col_rows.len()
    }

    /// Variables, rows per family and nonzeros.
    pub fn summary(&self) -> ModelSummary {
        ModelSummary {
            variables: self.num_variables(),
            constraints: self.constraints().len(),
            families: self
                .families()
                .iter()
                .map(|f| (f.name.clone(), f.rows.len()))
                .collect(),
            nonzeros: self.nonzeros(),
        }
    }

    /// The variable whose label is `label`, if any (linear scan).
    pub fn variable_by_label(&self, label: &str) -> Option<VarId> {
        (0..self.num_variables()).find(|&v| self.label(v) == label)
    }
}
