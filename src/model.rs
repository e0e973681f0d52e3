//! The 0-1 model: binary variables, "exactly one" / "at most one" rows grouped into named
//! families, and givens. Every puzzle kind builds one; every backend reads one. The model knows
//! nothing about any backend.
//!
//! Costs: a model stores each row as a sorted `Vec<VarId>`, so memory is linear in the number of
//! nonzeros. The dense view ([`Model::dense_equalities`]) is `rows x variables` floats and is
//! meant for small and medium models (a 9x9 Sudoku is 324 x 729).

use std::collections::BTreeMap;
use std::fmt;

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Index of a variable in [`Model::variables`].
pub type VarId = usize;
/// Index of a row in [`Model::constraints`].
pub type RowId = usize;
/// Index of a family in [`Model::families`].
pub type FamilyId = usize;

/// Where a variable sits on the puzzle, for rendering answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coord {
    /// A cell: `row` from the top, `col` the 0-based position in that row (hex: position within
    /// the row, not the shared diagonal coordinate).
    Cell {
        /// Row from the top, 0-based.
        row: usize,
        /// Position in the row, 0-based.
        col: usize,
    },
    /// A cell holding a value (Sudoku: `value` is the 0-based digit index).
    CellValue {
        /// Row from the top, 0-based.
        row: usize,
        /// Column, 0-based.
        col: usize,
        /// Value index, 0-based (digit 1 is value 0).
        value: usize,
    },
    /// No geometric meaning (generic models).
    Free,
}

/// What kind of puzzle a model came from; decides how answers are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PuzzleKind {
    /// Hex board of odd width `width` (`2 * side - 1`).
    Hex {
        /// Number of rows (and cells in the middle row).
        width: usize,
    },
    /// Square Queens of side `size`.
    Queens {
        /// Number of rows and columns.
        size: usize,
    },
    /// Sudoku with boxes `box_size x box_size`, so `box_size^2` digits.
    Sudoku {
        /// Side of one box (3 for the classic 9x9).
        box_size: usize,
    },
    /// A model read from a JSON or TOML file, with no puzzle geometry.
    Generic,
}

impl PuzzleKind {
    /// The short name used in JSON output: `hex`, `queens`, `sudoku` or `model`.
    pub fn name(&self) -> &'static str {
        match self {
            PuzzleKind::Hex { .. } => "hex",
            PuzzleKind::Queens { .. } => "queens",
            PuzzleKind::Sudoku { .. } => "sudoku",
            PuzzleKind::Generic => "model",
        }
    }
}

/// The sense of a row: how many of its variables may be 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sense {
    /// `sum = 1`.
    ExactlyOne,
    /// `sum <= 1`.
    AtMostOne,
}

impl Sense {
    /// Whether `count` ones satisfy this sense.
    pub fn holds(self, count: usize) -> bool {
        match self {
            Sense::ExactlyOne => count == 1,
            Sense::AtMostOne => count <= 1,
        }
    }
}

impl fmt::Display for Sense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sense::ExactlyOne => "= 1",
            Sense::AtMostOne => "<= 1",
        })
    }
}

/// One binary variable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variable {
    /// Human-readable name, unique in the model (`r3c4`, `r1c2d7`, ...).
    pub label: String,
    /// Position on the puzzle.
    pub coord: Coord,
}

/// One row: a sorted, duplicate-free set of variables with a sense.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constraint {
    /// The family this row belongs to.
    pub family: FamilyId,
    /// Position of this row within its family (0-based).
    pub index: usize,
    /// Sorted variable ids, no duplicates, never empty.
    pub vars: Vec<VarId>,
    /// `= 1` or `<= 1`.
    pub sense: Sense,
}

/// A named group of rows (the rows of one rule: "row", "colour", "box-digit", ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Family {
    /// Name used in reports and for switching families on and off.
    pub name: String,
    /// The rows of this family, in order.
    pub rows: Vec<RowId>,
}

/// Errors found while building a model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    /// A row names a variable id the model does not have.
    #[error("row {index} of family '{family}' names variable {var}, but the model has {variables} variables")]
    UnknownVariable {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// A row with no variables (it could never hold as "exactly one").
    #[error("row {index} of family '{family}' is empty")]
    EmptyRow {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
    },
    /// A row lists the same variable twice.
    #[error("row {index} of family '{family}' lists variable '{label}' twice")]
    DuplicateInRow {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The repeated variable.
        label: String,
    },
    /// Two variables share a label.
    #[error("two variables are labelled '{0}'")]
    DuplicateLabel(String),
    /// Two families share a name.
    #[error("two families are named '{0}'")]
    DuplicateFamily(String),
    /// A given names a variable id the model does not have.
    #[error("given {var} does not exist (the model has {variables} variables)")]
    UnknownGiven {
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// Two givens share a row, so no assignment can keep both.
    #[error("givens '{first}' and '{second}' clash in row {index} of family '{family}'")]
    ClashingGivens {
        /// One given.
        first: String,
        /// The other given.
        second: String,
        /// Family of the shared row.
        family: String,
        /// Row index within the family.
        index: usize,
    },
}

/// Builds a [`Model`] row by row; [`ModelBuilder::build`] checks it. Cost: linear in the
/// number of nonzeros (rows are sorted once when built).
///
/// ```
/// use zeroone::model::{Coord, ModelBuilder, PuzzleKind, Sense};
///
/// // A 2x2 Latin square of 0-1 variables x[r][c] = "cell (r, c) holds symbol 1":
/// // exactly one per row and per column.
/// let mut b = ModelBuilder::new("latin-2", PuzzleKind::Generic);
/// let x: Vec<_> = (0..4)
///     .map(|i| b.variable(format!("r{}c{}", i / 2, i % 2), Coord::Cell { row: i / 2, col: i % 2 }))
///     .collect();
/// let rows = b.family("row");
/// b.row(rows, vec![x[0], x[1]], Sense::ExactlyOne);
/// b.row(rows, vec![x[2], x[3]], Sense::ExactlyOne);
/// let cols = b.family("column");
/// b.row(cols, vec![x[0], x[2]], Sense::ExactlyOne);
/// b.row(cols, vec![x[1], x[3]], Sense::ExactlyOne);
/// b.given(x[0]);
/// let model = b.build().unwrap();
/// assert_eq!((model.num_variables(), model.constraints().len(), model.nonzeros()), (4, 4, 8));
/// ```
#[derive(Debug, Clone)]
pub struct ModelBuilder {
    name: String,
    kind: PuzzleKind,
    variables: Vec<Variable>,
    families: Vec<Family>,
    constraints: Vec<Constraint>,
    givens: Vec<VarId>,
}

impl ModelBuilder {
    /// Starts an empty model.
    pub fn new(name: impl Into<String>, kind: PuzzleKind) -> Self {
        ModelBuilder {
            name: name.into(),
            kind,
            variables: Vec::new(),
            families: Vec::new(),
            constraints: Vec::new(),
            givens: Vec::new(),
        }
    }

    /// Adds a variable and returns its id.
    pub fn variable(&mut self, label: impl Into<String>, coord: Coord) -> VarId {
        self.variables.push(Variable {
            label: label.into(),
            coord,
        });
        self.variables.len() - 1
    }

    /// Adds a family (initially with no rows) and returns its id.
    pub fn family(&mut self, name: impl Into<String>) -> FamilyId {
        self.families.push(Family {
            name: name.into(),
            rows: Vec::new(),
        });
        self.families.len() - 1
    }

    /// Appends a row to `family`. Variables are sorted; checks happen in [`ModelBuilder::build`].
    pub fn row(&mut self, family: FamilyId, mut vars: Vec<VarId>, sense: Sense) -> RowId {
        vars.sort_unstable();
        let id = self.constraints.len();
        let index = self.families[family].rows.len();
        self.families[family].rows.push(id);
        self.constraints.push(Constraint {
            family,
            index,
            vars,
            sense,
        });
        id
    }

    /// Fixes `var` to 1.
    pub fn given(&mut self, var: VarId) {
        self.givens.push(var);
    }

    /// Checks every row and given and returns the model.
    pub fn build(mut self) -> Result<Model, ModelError> {
        let n = self.variables.len();
        let mut labels = std::collections::HashSet::new();
        for v in &self.variables {
            if !labels.insert(v.label.as_str()) {
                return Err(ModelError::DuplicateLabel(v.label.clone()));
            }
        }
        let mut names = std::collections::HashSet::new();
        for f in &self.families {
            if !names.insert(f.name.as_str()) {
                return Err(ModelError::DuplicateFamily(f.name.clone()));
            }
        }
        for c in &self.constraints {
            let family = || self.families[c.family].name.clone();
            if c.vars.is_empty() {
                return Err(ModelError::EmptyRow {
                    family: family(),
                    index: c.index,
                });
            }
            if let Some(&var) = c.vars.iter().find(|&&v| v >= n) {
                return Err(ModelError::UnknownVariable {
                    family: family(),
                    index: c.index,
                    var,
                    variables: n,
                });
            }
            if let Some(w) = c.vars.windows(2).find(|w| w[0] == w[1]) {
                return Err(ModelError::DuplicateInRow {
                    family: family(),
                    index: c.index,
                    label: self.variables[w[0]].label.clone(),
                });
            }
        }
        self.givens.sort_unstable();
        self.givens.dedup();
        if let Some(&var) = self.givens.iter().find(|&&v| v >= n) {
            return Err(ModelError::UnknownGiven { var, variables: n });
        }
        let model = Model {
            name: self.name,
            kind: self.kind,
            variables: self.variables,
            families: self.families,
            constraints: self.constraints,
            givens: self.givens,
        };
        model.check_givens()?;
        Ok(model)
    }
}

/// A 0-1 model: variables, rows in families, givens. Immutable once built; every backend takes
/// it as it is, and the views (columns, dense `A x = b`, restrictions) are computed on demand.
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    name: String,
    kind: PuzzleKind,
    variables: Vec<Variable>,
    families: Vec<Family>,
    constraints: Vec<Constraint>,
    givens: Vec<VarId>,
}

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

    /// The puzzle kind, for rendering.
    pub fn kind(&self) -> PuzzleKind {
        self.kind
    }

    /// All variables, indexed by [`VarId`].
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// Number of variables.
    pub fn num_variables(&self) -> usize {
        self.variables.len()
    }

    /// All families, indexed by [`FamilyId`].
    pub fn families(&self) -> &[Family] {
        &self.families
    }

    /// The id of the family called `name`, if any.
    pub fn family_id(&self, name: &str) -> Option<FamilyId> {
        self.families.iter().position(|f| f.name == name)
    }

    /// All rows (the sparse view), indexed by [`RowId`]. Givens are not rows; see
    /// [`Model::with_givens_as_rows`].
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The rows of one family.
    pub fn family_rows(&self, family: FamilyId) -> impl Iterator<Item = &Constraint> + '_ {
        self.families[family]
            .rows
            .iter()
            .map(move |&r| &self.constraints[r])
    }

    /// Variables fixed to 1, sorted.
    pub fn givens(&self) -> &[VarId] {
        &self.givens
    }

    /// For every variable, the rows it appears in (the column view). Costs one pass over the
    /// nonzeros; backends call it once per model.
    pub fn columns(&self) -> Vec<Vec<RowId>> {
        let mut cols = vec![Vec::new(); self.variables.len()];
        for (r, c) in self.constraints.iter().enumerate() {
            for &v in &c.vars {
                cols[v].push(r);
            }
        }
        cols
    }

    /// Number of nonzeros of the constraint matrix.
    pub fn nonzeros(&self) -> usize {
        self.constraints.iter().map(|c| c.vars.len()).sum()
    }

    /// Variables, rows per family and nonzeros.
    pub fn summary(&self) -> ModelSummary {
        ModelSummary {
            variables: self.variables.len(),
            constraints: self.constraints.len(),
            families: self
                .families
                .iter()
                .map(|f| (f.name.clone(), f.rows.len()))
                .collect(),
            nonzeros: self.nonzeros(),
        }
    }

    /// The variable whose label is `label`, if any (linear scan).
    pub fn variable_by_label(&self, label: &str) -> Option<VarId> {
        self.variables.iter().position(|v| v.label == label)
    }

    /// The dense view of the equality rows: `A` (one row per "exactly one" row, in row order,
    /// then one row per given when `with_givens`) and `b` (all ones). Costs
    /// `rows x variables` floats.
    pub fn dense_equalities(&self, with_givens: bool) -> (DMatrix<f64>, DVector<f64>) {
        let eq: Vec<&Constraint> = self
            .constraints
            .iter()
            .filter(|c| c.sense == Sense::ExactlyOne)
            .collect();
        let rows = eq.len() + if with_givens { self.givens.len() } else { 0 };
        let mut a = DMatrix::zeros(rows, self.variables.len());
        for (i, c) in eq.iter().enumerate() {
            for &v in &c.vars {
                a[(i, v)] = 1.0;
            }
        }
        if with_givens {
            for (j, &g) in self.givens.iter().enumerate() {
                a[(eq.len() + j, g)] = 1.0;
            }
        }
        (a, DVector::from_element(rows, 1.0))
    }

    /// The same model with the givens written as rows of a family `given` (one `x = 1` row
    /// each) and no separate givens, for backends that only read rows.
    pub fn with_givens_as_rows(&self) -> Model {
        let mut m = self.clone();
        if m.givens.is_empty() {
            return m;
        }
        let fam = m.families.len();
        m.families.push(Family {
            name: "given".into(),
            rows: Vec::new(),
        });
        for (index, &g) in self.givens.iter().enumerate() {
            m.families[fam].rows.push(m.constraints.len());
            m.constraints.push(Constraint {
                family: fam,
                index,
                vars: vec![g],
                sense: Sense::ExactlyOne,
            });
        }
        m.givens.clear();
        m
    }

    /// The same model keeping only the families named in `keep` (in their original order).
    /// Unknown names are ignored; givens are kept.
    pub fn restricted_to(&self, keep: &[&str]) -> Model {
        let mut b = ModelBuilder::new(self.name.clone(), self.kind);
        b.variables = self.variables.clone();
        for f in &self.families {
            if keep.contains(&f.name.as_str()) {
                let id = b.family(f.name.clone());
                for &r in &f.rows {
                    let c = &self.constraints[r];
                    b.row(id, c.vars.clone(), c.sense);
                }
            }
        }
        b.givens = self.givens.clone();
        Model {
            name: b.name,
            kind: b.kind,
            variables: b.variables,
            families: b.families,
            constraints: b.constraints,
            givens: b.givens,
        }
    }

    /// Applies the givens: every given is fixed to 1, every other variable sharing a row with a
    /// given is fixed to 0, satisfied "exactly one" rows and emptied "at most one" rows are
    /// dropped. Returns the smaller model and the map back. Costs one pass over the nonzeros.
    pub fn reduce(&self) -> Reduction {
        let mut value: Vec<Option<bool>> = vec![None; self.variables.len()];
        for &g in &self.givens {
            value[g] = Some(true);
        }
        for c in &self.constraints {
            if c.vars.iter().any(|&v| value[v] == Some(true)) {
                for &v in &c.vars {
                    if value[v].is_none() {
                        value[v] = Some(false);
                    }
                }
            }
        }
        let mut new_id = vec![None; self.variables.len()];
        let mut b = ModelBuilder::new(self.name.clone(), self.kind);
        let mut original = Vec::new();
        for (v, var) in self.variables.iter().enumerate() {
            if value[v].is_none() {
                new_id[v] = Some(b.variable(var.label.clone(), var.coord));
                original.push(v);
            }
        }
        let mut infeasible = false;
        for f in &self.families {
            let id = b.family(f.name.clone());
            for &r in &f.rows {
                let c = &self.constraints[r];
                if c.vars.iter().any(|&v| value[v] == Some(true)) {
                    continue;
                }
                let vars: Vec<VarId> = c.vars.iter().filter_map(|&v| new_id[v]).collect();
                if vars.is_empty() {
                    if c.sense == Sense::ExactlyOne {
                        infeasible = true;
                    }
                    continue;
                }
                b.row(id, vars, c.sense);
            }
        }
        let model = Model {
            name: b.name,
            kind: b.kind,
            variables: b.variables,
            families: b.families,
            constraints: b.constraints,
            givens: Vec::new(),
        };
        Reduction {
            model,
            original,
            ones: self.givens.clone(),
            original_variables: self.variables.len(),
            infeasible,
        }
    }

    fn check_givens(&self) -> Result<(), ModelError> {
        let mut given = vec![false; self.variables.len()];
        for &g in &self.givens {
            given[g] = true;
        }
        for c in &self.constraints {
            let mut it = c.vars.iter().filter(|&&v| given[v]);
            if let (Some(&a), Some(&b)) = (it.next(), it.next()) {
                return Err(ModelError::ClashingGivens {
                    first: self.variables[a].label.clone(),
                    second: self.variables[b].label.clone(),
                    family: self.families[c.family].name.clone(),
                    index: c.index,
                });
            }
        }
        Ok(())
    }
}

/// A model with its givens applied, and the way back to the original variables.
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The reduced model (no givens; free variables only).
    pub model: Model,
    /// For each variable of the reduced model, its id in the original model.
    pub original: Vec<VarId>,
    /// Original variables fixed to 1 (the givens).
    pub ones: Vec<VarId>,
    /// Number of variables of the original model.
    pub original_variables: usize,
    /// An "exactly one" row lost all its variables: the givens leave no solution.
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

/// An assignment, stored as the sorted ids of the variables set to 1.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Solution {
    /// Sorted, duplicate-free ids of the variables equal to 1.
    pub ones: Vec<VarId>,
}

impl Solution {
    /// Builds a solution from any list of ids (sorted and deduplicated here).
    pub fn new(mut ones: Vec<VarId>) -> Self {
        ones.sort_unstable();
        ones.dedup();
        Solution { ones }
    }

    /// Builds a solution from a full 0-1 vector.
    pub fn from_bools(values: &[bool]) -> Self {
        Solution {
            ones: values
                .iter()
                .enumerate()
                .filter_map(|(i, &b)| b.then_some(i))
                .collect(),
        }
    }

    /// The full 0-1 vector of length `n`.
    pub fn to_bools(&self, n: usize) -> Vec<bool> {
        let mut v = vec![false; n];
        for &i in &self.ones {
            if i < n {
                v[i] = true;
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Model {
        let mut b = ModelBuilder::new("tiny", PuzzleKind::Generic);
        let x: Vec<VarId> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("pair");
        b.row(f, vec![x[1], x[0]], Sense::ExactlyOne);
        b.row(f, vec![x[2], x[3]], Sense::ExactlyOne);
        let g = b.family("cross");
        b.row(g, vec![x[0], x[2]], Sense::AtMostOne);
        b.given(x[0]);
        b.build().unwrap()
    }

    #[test]
    fn rows_are_sorted_and_summary_counts() {
        let m = tiny();
        assert_eq!(m.constraints()[0].vars, vec![0, 1]);
        let s = m.summary();
        assert_eq!(s.variables, 4);
        assert_eq!(s.constraints, 3);
        assert_eq!(s.nonzeros, 6);
        assert_eq!(s.families["pair"], 2);
    }

    #[test]
    fn reduce_fixes_neighbours_and_lifts_back() {
        let m = tiny();
        let r = m.reduce();
        // x0 = 1 fixes x1 = 0 and x2 = 0; only x3 is left, forced by the second pair row.
        assert_eq!(r.model.num_variables(), 1);
        assert_eq!(r.original, vec![3]);
        assert!(!r.infeasible);
        let lifted = r.lift(&Solution::new(vec![0]));
        assert_eq!(lifted.ones, vec![0, 3]);
    }

    #[test]
    fn givens_as_rows_adds_a_family() {
        let m = tiny().with_givens_as_rows();
        assert!(m.givens().is_empty());
        assert_eq!(m.summary().families["given"], 1);
        let (a, b) = m.dense_equalities(false);
        assert_eq!(a.nrows(), 3);
        assert_eq!(b.len(), 3);
    }

    #[test]
    fn build_rejects_bad_rows() {
        let mut b = ModelBuilder::new("bad", PuzzleKind::Generic);
        b.variable("a", Coord::Free);
        let f = b.family("f");
        b.row(f, vec![0, 3], Sense::ExactlyOne);
        assert!(matches!(
            b.build(),
            Err(ModelError::UnknownVariable { var: 3, .. })
        ));
        let mut b = ModelBuilder::new("bad", PuzzleKind::Generic);
        b.variable("a", Coord::Free);
        b.variable("b", Coord::Free);
        let f = b.family("f");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        b.given(0);
        b.given(1);
        assert!(matches!(b.build(), Err(ModelError::ClashingGivens { .. })));
    }
}
