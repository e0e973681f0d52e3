//! Rendering models and verified outcomes as text and JSON, shared by the CLI and the harness.
//!
//! Everything here reads a [`Model`] only (never the puzzle it came from), so any code holding
//! a model can draw it: hex boards as indented hexagons, Queens as grids (region letters, `*`
//! for a piece), Sudoku in box drawing, generic answers as lists of labels. JSON records are
//! plain structs whose field order is the order printed.
//!
//! Costs: linear in the size of the model; the 0-1 matrix drawing is `rows x variables`
//! characters and is only drawn up to [`MATRIX_MAX_VARIABLES`] x [`MATRIX_MAX_ROWS`].

use std::fmt::Write as _;

use serde::Serialize;

use crate::backend::{Count, CountOutcome, Outcome, Stats, Status};
use crate::model::{Constraint, Model, ModelSummary, PuzzleKind, Sense, Solution};
use crate::puzzle::kind::Answer;
use crate::puzzle::kinds;

pub use crate::puzzle::grid::region_letter;

/// Models with more variables than this are shown without their 0-1 matrix.
pub const MATRIX_MAX_VARIABLES: usize = 64;
/// Models with more rows than this are shown without their 0-1 matrix.
pub const MATRIX_MAX_ROWS: usize = 100;

/// The JSON object of a model's summary: exactly `variables`, `constraints`, `families` (rows
/// per family) and `nonzeros`.
pub fn summary_json(model: &Model) -> String {
    let s: ModelSummary = model.summary();
    serde_json::to_string(&s).unwrap_or_default()
}

/// One line of `zeroone show --json`: the puzzle's `index` in its file, then the summary.
#[derive(Debug, Clone, Serialize)]
pub struct ShowRecord {
    /// 0-based index of the puzzle in its file.
    pub index: usize,
    /// Sizes and rows per family.
    #[serde(flatten)]
    pub summary: ModelSummary,
    /// The objective's sense and its number of nonzero costs, when the model has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<ObjectiveSummary>,
}

/// The objective as `show --json` describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ObjectiveSummary {
    /// `minimize` or `maximize`.
    pub sense: &'static str,
    /// Variables with a nonzero cost.
    pub costs: usize,
}

impl ShowRecord {
    /// The record of puzzle `index`.
    pub fn new(index: usize, model: &Model) -> ShowRecord {
        ShowRecord {
            index,
            summary: model.summary(),
            objective: model.objective().map(|o| ObjectiveSummary {
                sense: o.sense().name(),
                costs: o.terms().count(),
            }),
        }
    }

    /// The record as one line of JSON (no machine-dependent fields: stable as it is).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The variables set to 1 in a generic model's answer: their labels, or their ids (`--ids`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Ones {
    /// Labels, in variable order (the default).
    Labels(Vec<String>),
    /// Variable ids (0-based, in declaration order).
    Ids(Vec<usize>),
}

/// A solution in the most readable form for its kind: the board with its pieces, the filled
/// Sudoku, or the labels of the variables set to 1.
pub fn solution_text(model: &Model, solution: &Solution) -> String {
    if let Some(t) = drawing(model, Some(solution)) {
        return t;
    }
    let labels: Vec<_> = solution
        .ones
        .iter()
        .filter(|&&v| v < model.own_variables())
        .map(|&v| model.label(v))
        .collect();
    format!("ones: {}\n", labels.join(" "))
}

/// A family's sense for `show`: `= 1`, `<= 3`, `>= 2`, or `mixed` when its rows differ.
fn family_sense_text(rows: &[&Constraint]) -> String {
    match rows.first() {
        None => String::new(),
        Some(first) if rows.iter().all(|c| c.sense == first.sense) => first.sense.to_string(),
        Some(_) => "mixed".into(),
    }
}

/// The puzzle drawn by its kind ([`crate::puzzle::kind::Kind::draw`]): the board with the
/// pieces of `solution`, the filled Sudoku, or (without a solution) the puzzle as given.
/// `None` for generic models.
pub fn drawing(model: &Model, solution: Option<&Solution>) -> Option<String> {
    kinds::of(model.kind())?.draw(model, solution)
}

fn kind_text(kind: &PuzzleKind) -> String {
    match kinds::of(kind) {
        Some(k) => k.title(kind),
        None => "generic model".into(),
    }
}

/// Terms of the objective `show` writes out before summarising the rest.
const OBJECTIVE_TERMS_SHOWN: usize = 12;

/// `objective: minimize 3 A - 2 C (2 nonzero costs)`, the first
/// [`OBJECTIVE_TERMS_SHOWN`] terms written out; `None` without an objective.
fn objective_line(model: &Model) -> Option<String> {
    let o = model.objective()?;
    let mut line = format!("objective: {}", o.sense());
    let count = o.terms().count();
    for (i, (v, c)) in o.terms().take(OBJECTIVE_TERMS_SHOWN).enumerate() {
        let sign = match (i, c < 0) {
            (0, true) => " -",
            (0, false) => "",
            (_, true) => " -",
            (_, false) => " +",
        };
        let _ = write!(line, "{sign} {} {}", c.unsigned_abs(), model.label(v));
    }
    if count == 0 {
        line.push_str(" 0");
    }
    if count > OBJECTIVE_TERMS_SHOWN {
        line.push_str(" + ...");
    }
    let _ = write!(
        line,
        " ({count} nonzero cost{})",
        if count == 1 { "" } else { "s" }
    );
    Some(line)
}

/// The text of `zeroone show`: kind, sizes, the objective, rows per family (with sense and row lengths), the
/// puzzle drawn (generic models: the variable labels and givens), and for small models the 0-1 matrix (one line per row, `1` where the row
/// holds the variable, columns numbered by variable id).
pub fn model_text(model: &Model) -> String {
    let s = model.summary();
    let mut out = String::new();
    let count = |sense: Option<Sense>| {
        let senses = model.row_senses().iter();
        senses
            .filter(|s| sense.map_or(!s.is_unit(), |x| **s == x))
            .count()
    };
    let (eq, general) = (count(Some(Sense::ExactlyOne)), count(None));
    let _ = writeln!(out, "model {} ({})", model.name(), kind_text(model.kind()));
    let _ = writeln!(out, "variables: {}", s.variables);
    let _ = writeln!(
        out,
        "constraints: {} ({} exactly-one, {} at-most-one{})",
        s.constraints,
        eq,
        s.constraints - eq - general,
        if general > 0 {
            format!(", {general} general")
        } else {
            String::new()
        }
    );
    let _ = writeln!(out, "nonzeros: {}", s.nonzeros);
    let _ = writeln!(out, "givens: {}", model.givens().len());
    if let Some(line) = objective_line(model) {
        let _ = writeln!(out, "{line}");
    }
    let width = model
        .families()
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(0);
    write_families(&mut out, model, width);
    if model.kind().is_generic() && s.variables <= MATRIX_MAX_VARIABLES {
        let labels: Vec<String> = (0..model.num_variables())
            .map(|i| format!("{i}={}", model.label(i)))
            .collect();
        let _ = writeln!(out, "labels: {}", labels.join(" "));
        if !model.givens().is_empty() {
            let givens: Vec<_> = model.givens().iter().map(|&g| model.label(g)).collect();
            let _ = writeln!(out, "given: {}", givens.join(" "));
        }
    }
    if let Some(d) = drawing(model, None) {
        let _ = writeln!(out, "puzzle:");
        for line in d.lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    write_matrix(&mut out, model, width);
    out
}

/// The `families:` block of [`model_text`]: per family its rows, sense, row lengths and weight
/// range, names padded to `width`.
fn write_families(out: &mut String, model: &Model, width: usize) {
    let _ = writeln!(out, "families:");
    for (fid, f) in model.families().iter().enumerate() {
        let rows: Vec<_> = model.family_rows(fid).collect();
        let sense = family_sense_text(&rows);
        let min = rows.iter().map(|c| c.vars.len()).min().unwrap_or(0);
        let max = rows.iter().map(|c| c.vars.len()).max().unwrap_or(0);
        let mut sizes = if min == max {
            let plural = if min == 1 { "" } else { "s" };
            format!("{min} variable{plural} each")
        } else {
            format!("{min}-{max} variables")
        };
        if rows.iter().any(|c| c.weights.is_some()) {
            let low = rows.iter().map(|c| c.weight_range().0).min().unwrap_or(1);
            let high = rows.iter().map(|c| c.weight_range().1).max().unwrap_or(1);
            sizes.push_str(&format!(", weights {low}-{high}"));
        }
        let row_word = if rows.len() == 1 { "row " } else { "rows" };
        let _ = writeln!(
            out,
            "  {:<width$}  {:>4} {row_word}  {:<4}  {}",
            f.name,
            rows.len(),
            sense,
            sizes
        );
    }
}

/// The 0-1 matrix block of [`model_text`] for small models (one line per row, the weight where
/// the row holds the variable, `#` above 9), or the line saying why it is not drawn.
fn write_matrix(out: &mut String, model: &Model, width: usize) {
    let s = model.summary();
    if s.variables > MATRIX_MAX_VARIABLES || s.constraints > MATRIX_MAX_ROWS || s.variables == 0 {
        let _ = writeln!(
            out,
            "matrix: not drawn (drawn up to {MATRIX_MAX_VARIABLES} variables and {MATRIX_MAX_ROWS} rows)"
        );
        return;
    }
    let _ = writeln!(
        out,
        "matrix ({} rows x {} variables; 1 = the row holds the variable):",
        s.constraints, s.variables
    );
    let label_width = width + 9;
    if s.variables > 10 {
        let tens: String = (0..s.variables)
            .map(|v| {
                if v % 10 == 0 {
                    char::from(b'0' + (v / 10 % 10) as u8)
                } else {
                    ' '
                }
            })
            .collect();
        let _ = writeln!(out, "  {:label_width$}{}", "", tens.trim_end());
    }
    let units: String = (0..s.variables)
        .map(|v| char::from(b'0' + (v % 10) as u8))
        .collect();
    let _ = writeln!(out, "  {:label_width$}{}", "", units);
    for c in model.constraints() {
        let mut line = vec!['.'; s.variables];
        for (v, w) in c.terms() {
            // A weight above 9 does not fit one column: '#'.
            line[v] = char::from_digit(w as u32, 10)
                .filter(|_| w <= 9)
                .unwrap_or('#');
        }
        let sense = format!("{}{}", c.sense.relation(), c.sense.rhs());
        let name = &model.families()[c.family].name;
        let _ = writeln!(
            out,
            "  {:<width$} {:>3} {:<3} {}",
            name,
            c.index,
            sense,
            line.into_iter().collect::<String>()
        );
    }
}

/// One line of `zeroone solve --json`. The answer field present depends on the kind:
/// `placements` (hex, Queens), `grid` (Sudoku) or `ones` (generic); it is `null` when there is
/// no verified solution.
#[derive(Debug, Clone, Serialize)]
pub struct SolveRecord {
    /// 0-based index of the puzzle in its file.
    pub index: usize,
    /// `hex`, `queens`, `sudoku` or `model`.
    pub kind: &'static str,
    /// Backend name.
    pub backend: String,
    /// With `solve --all`: the 0-based number of this solution among the puzzle's solutions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<u64>,
    /// `solved`, `optimal`, `feasible`, `infeasible`, `unknown`, `timeout`, `memout`, `crash`,
    /// `unsupported` or `error`.
    pub status: &'static str,
    /// Hex and Queens: `[row, position-in-row]` of each piece.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placements: Option<Option<Vec<[usize; 2]>>>,
    /// Sudoku: the filled grid, `n*n` symbols.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<Option<String>>,
    /// Generic models: labels (or, after [`SolveRecord::with_ids`], ids) of the variables set
    /// to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ones: Option<Option<Ones>>,
    /// A model with an objective: the value of the answer, recomputed by the verifier (exact).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<i128>,
    /// A model with an objective: the bound on the optimum the backend proved, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<i128>,
    /// The relative gap `|objective - bound| / max(1, |objective|)`, when both are known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// The same gap as the exact fraction `"num/den"` (not reduced), when both are known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_exact: Option<String>,
    /// Whether the verifier accepted the answer.
    pub verified: bool,
    /// Why the status is `unknown` or `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The backend's statistics; `None` (left out) after [`SolveRecord::stable`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    /// The model's own variables (ids below this), for [`SolveRecord::with_ids`].
    #[serde(skip)]
    own_variables: usize,
}

impl SolveRecord {
    /// The record of puzzle `index` solved (or not) by `backend`.
    pub fn new(index: usize, model: &Model, backend: &str, outcome: &Outcome) -> SolveRecord {
        let solution = outcome
            .solution
            .as_ref()
            .filter(|_| outcome.status.has_solution() && outcome.verified);
        let (mut placements_field, mut grid, mut ones) = (None, None, None);
        match kinds::of(model.kind()).map(|k| k.answer(model, solution)) {
            Some(Answer::Placements(p)) => placements_field = Some(p),
            Some(Answer::Grid(g)) => grid = Some(g),
            None => ones = Some(solution.map(|s| Ones::Labels(labels_of(model, s)))),
        }
        SolveRecord {
            index,
            kind: kinds::of(model.kind()).map_or("model", |k| k.name()),
            backend: backend.into(),
            solution: None,
            status: outcome.status.name(),
            placements: placements_field,
            grid,
            ones,
            objective: outcome.objective,
            bound: outcome.bound,
            gap: outcome.gap(),
            gap_exact: outcome.gap_ratio().map(|(n, d)| format!("{n}/{d}")),
            verified: outcome.verified,
            reason: outcome.reason.clone(),
            stats: Some(outcome.stats.clone()),
            own_variables: model.own_variables(),
        }
    }

    /// The same record with generic answers as variable ids instead of labels (`--ids`).
    pub fn with_ids(mut self, solution: Option<&Solution>) -> SolveRecord {
        if let Some(Some(_)) = &self.ones {
            let own = self.own_variables;
            let ids = |s: &Solution| s.ones.iter().copied().filter(|&v| v < own).collect();
            self.ones = Some(solution.map(|s| Ones::Ids(ids(s))));
        }
        self
    }

    /// The same record without statistics, so it is byte-identical across runs and machines
    /// (`--stable`): timings and engine figures that depend on threads are dropped.
    pub fn stable(mut self) -> SolveRecord {
        self.stats = None;
        self
    }

    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The labels of the model's own variables set to 1 in `solution`, in variable order (derived
/// variables, such as complements, are left out: see [`Model::own_solution`]).
pub fn labels_of(model: &Model, solution: &Solution) -> Vec<String> {
    solution
        .ones
        .iter()
        .filter(|&&v| v < model.own_variables())
        .map(|&v| model.label(v).into_owned())
        .collect()
}

/// One line of `zeroone count --json`.
#[derive(Debug, Clone, Serialize)]
pub struct CountRecord {
    /// 0-based index of the puzzle in its file.
    pub index: usize,
    /// Backend name.
    pub backend: String,
    /// `solved` when the count is complete (every witness verified), `limit` when it stopped at
    /// `--limit` or the time limit (the partial count stands), else `timeout`, `memout`,
    /// `crash`, `unsupported` or `error`.
    pub status: &'static str,
    /// Solutions counted (exact; in JSON a number up to 2^128 - 1, a decimal string beyond).
    pub count: Count,
    /// Whether the search finished rather than stopping at the limit.
    pub exhaustive: bool,
    /// Whether witnesses were checked and all passed the verifier.
    pub verified: bool,
    /// Why the status is `error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The backend's statistics; `None` (left out) after [`CountRecord::stable`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
}

impl CountRecord {
    /// The record of puzzle `index` counted by `backend`.
    pub fn new(index: usize, backend: &str, outcome: &CountOutcome) -> CountRecord {
        CountRecord {
            index,
            backend: backend.into(),
            status: outcome.status.name(),
            count: outcome.count.clone(),
            exhaustive: outcome.exhaustive,
            verified: outcome.verified,
            reason: outcome.reason.clone(),
            stats: Some(outcome.stats.clone()),
        }
    }

    /// The same record without statistics (`--stable`): byte-identical across runs.
    pub fn stable(mut self) -> CountRecord {
        self.stats = None;
        self
    }

    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The human-readable report of one solve: a status line, then the drawn answer when solved
/// (stopped before a solution: the bound, if any, with the gap as `-`).
pub fn outcome_text(index: usize, model: &Model, backend: &str, outcome: &Outcome) -> String {
    outcome_text_timed(index, model, backend, outcome, true)
}

/// [`outcome_text`] without the time taken (`--stable`): the same bytes on every run.
pub fn stable_outcome_text(
    index: usize,
    model: &Model,
    backend: &str,
    outcome: &Outcome,
) -> String {
    outcome_text_timed(index, model, backend, outcome, false)
}

/// `, objective 17` (and `, bound 15, gap 11.76% (2/17)` when not proved: the relative gap
/// and its exact fraction), or nothing without an objective.
fn objective_text(outcome: &Outcome) -> String {
    let Some(value) = outcome.objective else {
        return String::new();
    };
    let mut text = format!(", objective {value}");
    if outcome.status != Status::Optimal {
        if let (Some(bound), Some(gap), Some((num, den))) =
            (outcome.bound, outcome.gap(), outcome.gap_ratio())
        {
            let _ = write!(
                text,
                ", bound {bound}, gap {:.2}% ({num}/{den})",
                gap * 100.0
            );
        }
    }
    text
}

/// ` in 43.2 us`, or nothing for stable output.
fn time_text(seconds: f64, timed: bool) -> String {
    if timed {
        format!(" in {}", duration_text(seconds))
    } else {
        String::new()
    }
}

/// A duration for a person to read: three significant digits in the unit that keeps it between
/// 1 and 1000 (`812 ns`, `43.2 us`, `12.1 ms`, `2.31 s`; `1234 s` from 1000 s on), trailing
/// zeros dropped (`43 us`). `0 s` for zero, `-` for a negative or non-finite value. Records,
/// CSV and JSON keep plain seconds; this is for tables, captions and the terminal.
pub fn duration_text(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "-".into();
    }
    if seconds == 0.0 {
        return "0 s".into();
    }
    let (value, unit) = match seconds {
        s if s < 1e-6 => (s * 1e9, "ns"),
        s if s < 1e-3 => (s * 1e6, "us"),
        s if s < 1.0 => (s * 1e3, "ms"),
        s => (s, "s"),
    };
    // Rounding may carry into the next unit (999.7 us is 1.00 ms).
    if value >= 999.5 && unit != "s" {
        return duration_text(seconds * 1.0005);
    }
    let decimals = match value {
        v if v >= 99.95 => 0,
        v if v >= 9.995 => 1,
        _ => 2,
    };
    let mut text = format!("{value:.decimals$}");
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{text} {unit}")
}

fn outcome_text_timed(
    index: usize,
    model: &Model,
    backend: &str,
    outcome: &Outcome,
    timed: bool,
) -> String {
    let mut out = format!(
        "puzzle {index} ({}): {} by {backend}{}",
        model.name(),
        outcome.status.name(),
        time_text(outcome.stats.seconds, timed)
    );
    match (&outcome.solution, outcome.status.has_solution()) {
        (Some(s), true) => {
            out.push_str(if outcome.verified {
                ", verified"
            } else {
                ", NOT verified"
            });
            out.push_str(&objective_text(outcome));
            out.push('\n');
            out.push_str(&solution_text(model, s));
        }
        _ => {
            // Stopped before a solution: the bound still says how good one can be.
            if let Some(bound) = outcome.bound {
                let _ = write!(out, ", bound {bound}, gap -");
            }
            if let Some(r) = &outcome.reason {
                let _ = write!(out, ": {r}");
            }
            out.push('\n');
        }
    }
    out
}

/// The human-readable report of one count.
pub fn count_text(index: usize, model: &Model, backend: &str, outcome: &CountOutcome) -> String {
    count_text_timed(index, model, backend, outcome, true)
}

/// [`count_text`] without the time taken (`--stable`).
pub fn stable_count_text(
    index: usize,
    model: &Model,
    backend: &str,
    outcome: &CountOutcome,
) -> String {
    count_text_timed(index, model, backend, outcome, false)
}

fn count_text_timed(
    index: usize,
    model: &Model,
    backend: &str,
    outcome: &CountOutcome,
    timed: bool,
) -> String {
    let name = model.name();
    if !matches!(outcome.status, Status::Solved | Status::Limit) {
        return format!(
            "puzzle {index} ({name}): {} by {backend}: {}\n",
            outcome.status.name(),
            outcome.reason.as_deref().unwrap_or("no reason given")
        );
    }
    let plural = if outcome.count == 1 { "" } else { "s" };
    let how = if outcome.exhaustive {
        "exhaustive"
    } else {
        "stopped early: at least this many"
    };
    let checked = if outcome.verified {
        "witnesses verified"
    } else {
        "no witness to verify"
    };
    format!(
        "puzzle {index} ({name}): {} solution{plural} ({how}; {checked}) by {backend}{}\n",
        outcome.count,
        time_text(outcome.stats.seconds, timed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_three_significant_digits_in_the_fitting_unit() {
        let cases = [
            (0.0, "0 s"),
            (4.3e-7, "430 ns"),
            (4.3e-5, "43 us"),
            (1.263e-4, "126 us"),
            (0.0121, "12.1 ms"),
            (2.314, "2.31 s"),
            (20.0, "20 s"),
            (0.0009997, "1 ms"),
            (0.9996, "1 s"),
            (1234.2, "1234 s"),
            (-1.0, "-"),
            (f64::NAN, "-"),
        ];
        for (seconds, text) in cases {
            assert_eq!(duration_text(seconds), text, "{seconds}");
        }
    }
    use crate::backend::{CountOutcome, Outcome, Stats, Status};
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

    fn solved(solution: Solution) -> Outcome {
        Outcome::solved(solution, Stats::default())
    }

    #[test]
    fn hex_board_is_drawn_with_its_pieces() {
        let m = HexBoard::geometry(3).unwrap().to_model("h");
        // Cells 1 (row 0, k 1), 2 (row 1, k 0), 6 (row 2, k 1): one per row, diag and anti.
        let s = Solution::new(vec![1, 2, 6]);
        assert!(crate::model::verify::Verifier::new(&m).accepts(&s));
        assert_eq!(drawing(&m, Some(&s)).unwrap(), " . *\n* . .\n . *\n");
    }

    #[test]
    fn queens_board_shows_region_letters() {
        let q = QueensBoard::with_regions(vec![vec![0, 1], vec![1, 1]]).unwrap();
        let m = q.to_model("q");
        assert_eq!(drawing(&m, None).unwrap(), "AB\nBB\n");
    }

    #[test]
    fn sudoku_is_drawn_in_boxes() {
        let mut cells = vec![None; 81];
        cells[0] = Some(4);
        cells[80] = Some(8);
        let m = Sudoku::from_cells(3, cells).unwrap().to_model("s").unwrap();
        let text = drawing(&m, None).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 13);
        assert_eq!(lines[0], "+-------+-------+-------+");
        assert_eq!(lines[1], "| 5 . . | . . . | . . . |");
        assert_eq!(lines[11], "| . . . | . . . | . . 9 |");
    }

    #[test]
    fn solve_records_carry_the_answer_field_of_their_kind() {
        let m = HexBoard::geometry(3).unwrap().to_model("h");
        let r = SolveRecord::new(2, &m, "brute", &solved(Solution::new(vec![1, 2, 6])));
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["index"], 2);
        assert_eq!(v["kind"], "hex");
        assert_eq!(v["placements"], serde_json::json!([[0, 1], [1, 0], [2, 1]]));
        assert!(v.get("grid").is_none() && v.get("ones").is_none() && v.get("reason").is_none());

        let unknown = Outcome {
            status: Status::Unknown,
            reason: Some("time limit".into()),
            ..Outcome::empty(Stats::default())
        };
        let s = Sudoku::empty(2).to_model("s").unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&SolveRecord::new(0, &s, "x", &unknown).to_json()).unwrap();
        assert!(v["grid"].is_null() && v.get("grid").is_some());
        assert_eq!(v["status"], "unknown");
        assert_eq!(v["reason"], "time limit");
        // JSON keys come out in the documented order.
        let text = SolveRecord::new(0, &s, "x", &unknown).to_json();
        let order: Vec<usize> = [
            "\"index\"",
            "\"kind\"",
            "\"backend\"",
            "\"status\"",
            "\"grid\"",
            "\"verified\"",
            "\"reason\"",
            "\"stats\"",
        ]
        .iter()
        .map(|k| text.find(k).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn count_record_shape() {
        let c = CountOutcome {
            status: Status::Solved,
            count: 14u128.into(),
            exhaustive: true,
            verified: true,
            reason: None,
            stats: Stats::default(),
        };
        let v: serde_json::Value =
            serde_json::from_str(&CountRecord::new(1, "brute", &c).to_json()).unwrap();
        assert_eq!(v["count"], 14);
        assert_eq!(v["exhaustive"], true);
        let m = QueensBoard::bare(5).to_model("q");
        assert!(count_text(1, &m, "brute", &c).contains("14 solutions (exhaustive"));
    }
}
