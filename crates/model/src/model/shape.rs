//! The shared part of a model ([`Shape`]): variables, labels, rows, families and the column
//! view, held by reference by every model of that shape.

use super::labels::{Labels, RowLabels};
use crate::model::{
    Constraint, Derived, Family, ModelHints, PuzzleKind, RowId, Sense, VarId, Variable,
};

/// What models of one shape share: variables, labels, rows and families, and the column view
/// used to check givens. Built once; every model of the shape holds it by reference.
#[derive(Debug)]
pub(super) struct Shape {
    pub(super) kind: PuzzleKind,
    pub(super) hints: ModelHints,
    pub(super) variables: Vec<Variable>,
    /// `None`: every label is [`coord_label`] of its variable (made on demand).
    pub(super) labels: Option<Labels>,
    pub(super) families: Vec<Family>,
    pub(super) constraints: Vec<Constraint>,
    /// The rows' own names, for the rows a file named (empty for most models).
    pub(super) row_labels: RowLabels,
    /// Column view as compressed lists: the rows of variable `v` are
    /// `col_rows[col_start[v]..col_start[v + 1]]`.
    pub(super) col_start: Vec<usize>,
    pub(super) col_rows: Vec<RowId>,
    /// The weight of each entry of `col_rows`; `None` when every row is unweighted.
    pub(super) col_weights: Option<Vec<u64>>,
    /// The sense of each row, packed (the verifier's per-row pass reads only these).
    pub(super) senses: Vec<Sense>,
    /// What each derived variable is: the last `derived.len()` variables are derived.
    pub(super) derived: Vec<Derived>,
    /// The variables a count is projected onto, ascending, when not every variable (a CNF
    /// file's `c p show` lines; see [`crate::model::Model::count_projection`]).
    pub(super) projection: Option<Vec<VarId>>,
}

impl Shape {
    /// The shape of `vars` = (variables, stored labels, what the last variables derive from)
    /// and `rows` = (families, rows, the rows' own names).
    pub(super) fn new(
        kind: PuzzleKind,
        hints: ModelHints,
        vars: (Vec<Variable>, Option<Labels>, Vec<Derived>),
        rows: (Vec<Family>, Vec<Constraint>, RowLabels),
    ) -> Shape {
        let (families, constraints, row_labels) = rows;
        let (variables, labels, derived) = vars;
        let n = variables.len();
        // Column v's entries end at col_start[v] after the counting pass; placing the rows
        // last to first moves it back to where they start (no second array of n + 1 positions).
        let mut col_start = vec![0usize; n + 1];
        for c in &constraints {
            for &v in &c.vars {
                col_start[v] += 1;
            }
        }
        let mut total = 0;
        for start in col_start.iter_mut().take(n) {
            total += *start;
            *start = total;
        }
        col_start[n] = total;
        let mut col_rows = vec![0; total];
        let weighted = constraints.iter().any(|c| c.weights.is_some());
        let mut col_weights = weighted.then(|| vec![1u64; total]);
        for (r, c) in constraints.iter().enumerate().rev() {
            for (v, w) in c.terms() {
                col_start[v] -= 1;
                col_rows[col_start[v]] = r;
                if let Some(cw) = &mut col_weights {
                    cw[col_start[v]] = w;
                }
            }
        }
        let senses = constraints.iter().map(|c| c.sense).collect();
        Shape {
            kind,
            hints,
            variables,
            labels,
            families,
            constraints,
            row_labels,
            col_start,
            col_rows,
            col_weights,
            senses,
            derived,
            projection: None,
        }
    }

    pub(super) fn rows_of(&self, v: VarId) -> &[RowId] {
        &self.col_rows[self.col_start[v]..self.col_start[v + 1]]
    }

    pub(super) fn weights_of(&self, v: VarId) -> Option<&[u64]> {
        let range = self.col_start[v]..self.col_start[v + 1];
        self.col_weights.as_ref().map(|w| &w[range])
    }
}
