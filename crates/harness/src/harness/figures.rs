//! Backend-specific figures, named per backend: what `nodes`, `steps`, `guesses` and
//! `backtracks` mean differs between backends (SAT calls, partial placements, choices), so the
//! reports never pool them into one column. Each backend's counters get the name of what they
//! count, and its `stats.extra` figures (and the typed ones, by their record keys) keep their
//! own keys; a figure a backend does not measure is absent (an empty CSV cell), never 0.

use crate::backend::{Registry, SearchCounter, Status};
use crate::harness::record::Record;

/// The counters `record`'s backend fills, each with the name of what it counts: as recorded
/// (from the backend's registry entry at run time), else, for records made before they were
/// recorded, as this binary's registry names them. A backend with no entry (a peer, a table
/// row) measures none of them (its figures are in `stats.extra`).
fn counters_of(record: &Record) -> Vec<(SearchCounter, String)> {
    match &record.counters {
        Some(recorded) => recorded.clone(),
        None => Registry::builtin()
            .get(&record.name)
            .map_or_else(Vec::new, |info| {
                (info.counters.iter())
                    .map(|&(c, name)| (c, name.to_string()))
                    .collect()
            }),
    }
}

/// One figure's value in one run.
#[derive(Debug, Clone, PartialEq)]
pub enum FigureValue {
    /// A count or measurement.
    Number(f64),
    /// A yes/no property.
    Flag(bool),
    /// A setting echoed by the backend (its order, its code).
    Text(String),
}

impl FigureValue {
    /// The value as a CSV cell.
    pub fn cell(&self) -> String {
        match self {
            FigureValue::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{x:.0}"),
            FigureValue::Number(x) => format!("{x}"),
            FigureValue::Flag(b) => b.to_string(),
            FigureValue::Text(t) => t.clone(),
        }
    }
}

/// Whether the backend ran to the end and reported its counters (a worker killed at the time
/// or memory limit, or crashed, measured nothing).
fn measured(record: &Record) -> bool {
    matches!(
        record.status,
        Status::Solved | Status::Infeasible | Status::Unknown | Status::Limit
    )
}

/// The named figures of one run, in a fixed order: the backend's counters, then its `extra`
/// figures by key (lists and objects, such as a peer's solution, are left out). Cost: one
/// pass over the run's extra figures.
pub fn figures_of(record: &Record) -> Vec<(String, FigureValue)> {
    if !measured(record) {
        return Vec::new();
    }
    let mut out: Vec<(String, FigureValue)> = counters_of(record)
        .into_iter()
        .map(|(c, label)| (label, FigureValue::Number(c.of(&record.stats) as f64)))
        .collect();
    for (key, value) in &record.stats.figures() {
        let v = match value {
            serde_json::Value::Number(n) => n.as_f64().map(FigureValue::Number),
            serde_json::Value::Bool(b) => Some(FigureValue::Flag(*b)),
            serde_json::Value::String(s) => Some(FigureValue::Text(s.clone())),
            _ => None,
        };
        if let Some(v) = v {
            out.push((extra_name(key), v));
        }
    }
    out
}

/// A readable name for an `extra` key: known abbreviations spelt out, underscores as spaces.
fn extra_name(key: &str) -> String {
    match key {
        "fft_batches" => "FFT batches".into(),
        "ffts" => "FFTs".into(),
        "sat_calls" => "SAT calls".into(),
        "lp_feasible" => "LP relaxation feasible".into(),
        "lp_integral" => "LP relaxation integral".into(),
        "solves" => "LP solves".into(),
        "dim" => "dimension".into(),
        other => other.replace('_', " "),
    }
}

/// The CSV column of figure `figure` of backend `owner` (its registry name, or its label for
/// a peer): `owner.figure` in snake case, so figures of different backends never share one.
pub fn column_name(owner: &str, figure: &str) -> String {
    let snake: String = figure
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("{owner}.{snake}")
}

/// Whose figure a record's figures are: the registry name, or the label for a peer (whose
/// registry name is `peer`).
pub fn owner_of(record: &Record) -> &str {
    if record.name == "peer" {
        &record.backend
    } else {
        &record.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::experiment::Task;

    #[test]
    fn counters_are_named_per_backend_and_a_killed_run_measures_nothing() {
        let mut sat = Record::new("i", "enum", "enum", Task::Solve, 0);
        sat.status = Status::Solved;
        sat.stats.nodes = 3;
        let mut milp = Record::new("i", "milp", "milp", Task::Solve, 0);
        milp.status = Status::Solved;
        milp.stats.relaxation = Some(crate::backend::LpVerdict {
            feasible: true,
            integral: true,
            fractional: None,
        });
        assert_eq!(
            figures_of(&sat),
            vec![("partial placements".to_string(), FigureValue::Number(3.0))]
        );
        // milp has no search counter: no "nodes" 0 for it.
        assert_eq!(
            figures_of(&milp),
            vec![
                (
                    "LP relaxation feasible".to_string(),
                    FigureValue::Flag(true)
                ),
                (
                    "LP relaxation integral".to_string(),
                    FigureValue::Flag(true)
                )
            ]
        );
        let mut killed = sat.clone();
        killed.status = Status::Timeout;
        assert!(figures_of(&killed).is_empty());
        assert_eq!(
            column_name("enum", "partial placements"),
            "enum.partial_placements"
        );
    }
}
