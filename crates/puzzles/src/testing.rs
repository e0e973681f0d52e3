//! Snapshot-testing your own models: stable, serialisable views of a model, its 0-1 matrix, its
//! Gaussian-elimination report, its solution set and its count.
//!
//! Every value here is deterministic: no timings, no machine-dependent fields, variables named by
//! their labels, solutions sorted, keys in a fixed order (struct field order, sorted maps). Hand
//! them to `insta::assert_yaml_snapshot!` or `assert_json_snapshot!` with no redactions, or write
//! them with [`Snapshot::to_text`] (what `zeroone snapshot FILE` prints) and diff the text in any CI.
//!
//! ```
//! use zeroone::model::{Coord, ModelBuilder, PuzzleKind, Sense};
//! use zeroone::testing::{snapshot, SnapshotOptions};
//!
//! // Two variables, exactly one of them set: two solutions.
//! let mut b = ModelBuilder::new("either", PuzzleKind::Generic);
//! let x = b.variable("x", Coord::Free);
//! let y = b.variable("y", Coord::Free);
//! let f = b.family("pick");
//! b.row(f, vec![x, y], Sense::ExactlyOne);
//! let model = b.build().unwrap();
//!
//! let snap = snapshot(&model, &SnapshotOptions::default()).unwrap();
//! assert_eq!(snap.solutions.solutions, vec![vec!["x".to_string()], vec!["y".to_string()]]);
//! assert_eq!(snap.model.families[0].sense, "exactly-one");
//! // insta::assert_yaml_snapshot!(snap);  // in your own tests
//! ```
//!
//! Costs: the views are linear in the model's size, except [`MatrixView`] (one entry per nonzero)
//! and [`SolutionSet`], which runs a backend over every solution (bound it with
//! [`SnapshotOptions::limit`]) and keeps them all in memory to sort them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use thiserror::Error;

use crate::backend::gauss::{analyse, Verdict};
use crate::backend::{
    count_verified, make_backend, solutions_verified, BackendError, BackendOptions, Count, Status,
};
use crate::model::{Model, Sense, Solution, VarId};
use crate::puzzle::parse::{load_models, ParseError};

/// Errors of the snapshot layer.
#[derive(Debug, Error)]
pub enum TestingError {
    /// The file could not be read or parsed (file, line and column in the message).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The backend could not be made or lacks the ability asked for.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// The backend ran but failed, or an answer was rejected by the verifier.
    #[error("{backend}: {reason}")]
    Failed {
        /// Backend name.
        backend: String,
        /// What went wrong.
        reason: String,
    },
}

/// Reads every puzzle of a file (any format `zeroone` reads) as models named `"{stem}#{index}"`.
/// Cost: parsing the file and building each model.
pub fn load(path: impl AsRef<Path>) -> Result<Vec<Model>, TestingError> {
    Ok(load_models(path.as_ref())?)
}

/// The name of `sense` as files write it (`exactly-one`, `at-most-one`, and for the general
/// senses the name with its right-hand side: `exactly 2`, `at-least 3`).
fn sense_name(sense: Sense) -> String {
    if sense.is_unit() {
        sense.name().to_string()
    } else {
        format!("{} {}", sense.name(), sense.rhs())
    }
}

fn label(model: &Model, v: VarId) -> String {
    model.label(v).into_owned()
}

fn labels(model: &Model, vars: &[VarId]) -> Vec<String> {
    vars.iter().map(|&v| label(model, v)).collect()
}

/// One family of rows: its sense and row sizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FamilyView {
    /// Family name.
    pub name: String,
    /// `exactly-one`, `at-most-one`, or `mixed` when its rows differ.
    pub sense: String,
    /// Number of rows.
    pub rows: usize,
    /// Fewest variables in a row.
    pub smallest_row: usize,
    /// Most variables in a row.
    pub largest_row: usize,
}

/// The shape of a model: sizes, families, givens. Cost: one pass over the rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelView {
    /// The model's name.
    pub name: String,
    /// `hex`, `queens`, `sudoku` or `model`.
    pub kind: String,
    /// Number of variables.
    pub variables: usize,
    /// Number of rows, givens not counted.
    pub constraints: usize,
    /// Nonzeros of the constraint matrix.
    pub nonzeros: usize,
    /// Labels of the variables fixed to 1 by the puzzle.
    pub givens: Vec<String>,
    /// Every family, in model order.
    pub families: Vec<FamilyView>,
}

impl ModelView {
    /// The view of `model`.
    pub fn of(model: &Model) -> ModelView {
        let families = model
            .families()
            .iter()
            .enumerate()
            .map(|(f, family)| {
                let rows: Vec<_> = model.family_rows(f).collect();
                let mut senses: Vec<String> = rows.iter().map(|c| sense_name(c.sense)).collect();
                senses.dedup();
                FamilyView {
                    name: family.name.clone(),
                    sense: match senses.as_slice() {
                        [one] => one.clone(),
                        [] => "none".into(),
                        _ => "mixed".into(),
                    },
                    rows: rows.len(),
                    smallest_row: rows.iter().map(|c| c.vars.len()).min().unwrap_or(0),
                    largest_row: rows.iter().map(|c| c.vars.len()).max().unwrap_or(0),
                }
            })
            .collect();
        ModelView {
            name: model.name().to_string(),
            kind: model.kind().name().to_string(),
            variables: model.num_variables(),
            constraints: model.constraints().len(),
            nonzeros: model.nonzeros(),
            givens: labels(model, model.givens()),
            families,
        }
    }
}

/// One row of the 0-1 matrix, sparse: its family, position, sense and the labels of its ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatrixRow {
    /// Family name.
    pub family: String,
    /// Row index within the family.
    pub index: usize,
    /// `exactly-one`, `at-most-one`, or a general sense with its right-hand side (`exactly 2`).
    pub sense: String,
    /// Labels of the row's variables (nonzero coefficients), in variable order.
    pub ones: Vec<String>,
    /// The coefficient of each of `ones`, for a weighted row (left out when all are 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<u64>>,
}

/// The whole 0-1 matrix, row by row in model order. Cost: one label per nonzero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatrixView {
    /// Every row.
    pub rows: Vec<MatrixRow>,
}

impl MatrixView {
    /// The matrix of `model`.
    pub fn of(model: &Model) -> MatrixView {
        let rows = model
            .constraints()
            .iter()
            .map(|c| MatrixRow {
                family: model.families()[c.family].name.clone(),
                index: c.index,
                sense: sense_name(c.sense),
                ones: labels(model, &c.vars),
                weights: c.weights.clone(),
            })
            .collect();
        MatrixView { rows }
    }
}

/// What Gaussian elimination alone says about a model (exact, so stable across machines; the
/// floating-point least-norm solution is left out for that reason).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GaussView {
    /// Equations ("exactly one" rows plus one per given).
    pub equations: usize,
    /// Unknowns.
    pub unknowns: usize,
    /// Exact rank.
    pub rank: usize,
    /// `unknowns - rank`.
    pub nullity: usize,
    /// Whether some real vector satisfies every equation.
    pub consistent: bool,
    /// Redundant equations per family.
    pub redundant: BTreeMap<String, usize>,
    /// Variables fixed by the equations alone, with their exact values.
    pub fixed: BTreeMap<String, String>,
    /// `solved`, `infeasible` or `unknown`.
    pub verdict: String,
}

impl GaussView {
    /// Runs the exact elimination on `model` (see [`crate::backend::gauss`] for its cost).
    pub fn of(model: &Model) -> GaussView {
        let report = analyse(model);
        GaussView {
            equations: report.equations,
            unknowns: report.unknowns,
            rank: report.rank,
            nullity: report.nullity,
            consistent: report.consistent,
            redundant: report
                .redundant
                .iter()
                .map(|(family, rows)| (family.clone(), rows.len()))
                .collect(),
            fixed: report
                .fixed
                .iter()
                .map(|f| (f.label.clone(), f.value.clone()))
                .collect(),
            verdict: match report.verdict {
                Verdict::Solved => "solved",
                Verdict::Infeasible(_) => "infeasible",
                Verdict::Unknown(_) => "unknown",
            }
            .into(),
        }
    }
}

/// Every solution a backend found, each verified, as sorted lists of labels, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolutionSet {
    /// The backend that enumerated them.
    pub backend: String,
    /// `solved`, `infeasible` or `unknown` (a stream that stopped early with none).
    pub status: String,
    /// How many solutions are listed.
    pub count: u128,
    /// Whether these are all the solutions (false when the limit stopped the enumeration).
    pub exhaustive: bool,
    /// Each solution as the labels of its variables set to 1.
    pub solutions: Vec<Vec<String>>,
}

/// A verified count of solutions, without the solutions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountView {
    /// The backend that counted.
    pub backend: String,
    /// Solutions counted (exact).
    pub count: Count,
    /// Whether the count is complete.
    pub exhaustive: bool,
}

/// Which backend enumerates and counts, and how far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotOptions {
    /// Backend name (default `bitset`, exact on every model).
    pub backend: String,
    /// List at most this many solutions (default 100).
    pub limit: Option<u64>,
}

impl Default for SnapshotOptions {
    fn default() -> Self {
        SnapshotOptions {
            backend: "bitset".into(),
            limit: Some(100),
        }
    }
}

fn failed(backend: &str, status: Status, reason: Option<String>) -> TestingError {
    TestingError::Failed {
        backend: backend.into(),
        reason: format!(
            "{}: {}",
            status.name(),
            reason.unwrap_or_else(|| "no reason given".into())
        ),
    }
}

/// Every solution of `model` (up to `options.limit`), each verified. Cost: the backend's
/// enumeration plus one verifier pass per solution.
pub fn solution_set(model: &Model, options: &SnapshotOptions) -> Result<SolutionSet, TestingError> {
    let mut backend = make_backend(&options.backend, &BackendOptions::default())?;
    let mut solutions: Vec<Vec<String>> = Vec::new();
    let outcome = solutions_verified(
        backend.as_mut(),
        model,
        options.limit,
        &mut |s: &Solution| {
            let mut ones = labels(model, &s.ones);
            ones.sort();
            solutions.push(ones);
        },
    )?;
    if outcome.status.is_failure() {
        return Err(failed(&options.backend, outcome.status, outcome.reason));
    }
    solutions.sort();
    Ok(SolutionSet {
        backend: options.backend.clone(),
        status: outcome.status.name().into(),
        count: outcome.count,
        exhaustive: outcome.exhaustive,
        solutions,
    })
}

/// The verified count of `model`'s solutions by `backend` (no limit). Cost: the backend's count.
pub fn count(model: &Model, backend: &str) -> Result<CountView, TestingError> {
    let mut made = make_backend(backend, &BackendOptions::default())?;
    let outcome = count_verified(made.as_mut(), model, None)?;
    if outcome.status != Status::Solved {
        return Err(failed(backend, outcome.status, outcome.reason));
    }
    Ok(CountView {
        backend: backend.into(),
        count: outcome.count,
        exhaustive: outcome.exhaustive,
    })
}

/// Everything stable about one model: its shape, the Gauss relaxation and its solutions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// Sizes, families, givens.
    pub model: ModelView,
    /// What linear algebra alone fixes.
    pub gauss: GaussView,
    /// The verified solutions.
    pub solutions: SolutionSet,
}

/// The snapshot of `model`. Cost: [`GaussView::of`] plus [`solution_set`].
pub fn snapshot(model: &Model, options: &SnapshotOptions) -> Result<Snapshot, TestingError> {
    Ok(Snapshot {
        model: ModelView::of(model),
        gauss: GaussView::of(model),
        solutions: solution_set(model, options)?,
    })
}

impl Snapshot {
    /// The snapshot as pretty-printed JSON with a trailing newline: the stable text `zeroone
    /// snapshot` prints, byte-identical across runs, machines and `--jobs`.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}
