//! Exact cover in Knuth's DLX text format, in the dialect `miniexact` reads (Knuth's DLX1/DLX2
//! and SSXCC input: one line naming the items, primary ones first and secondary ones after a
//! `|`, then one option per line naming its items). Every row is an item named `<family>_<index>`
//! (as [`Names`] makes them); every variable an option, on line `1 + id` (so the option numbers
//! a solver prints are the variable ids plus one).
//!
//! - "exactly one" rows are primary items, "at most one" rows secondary items;
//! - unit-weight `= k`, `<= k`, `>= k` rows are primary items with multiplicities, written
//!   `name:u;v` (bounds `u..=v`; `miniexact -m` reads them; Knuth's own DLX3 writes `u:v|name`);
//! - a given `v` adds a primary item `given_<v>` that only option `v` holds;
//! - a variable in no binding equation (`= k`, `k > 0`) could be set either way once the
//!   primary items are covered, so it gets a primary item `slack_<v>` held by its option and
//!   by one extra option of that item alone (written after the variables' options, in variable
//!   order): the solutions then match the model's 0-1 solutions one to one, and counts agree.
//!
//! Weighted rows cannot be written (exact cover counts options, not weights) and are refused,
//! naming the row. The format has no comment syntax that `miniexact` accepts, so nothing but
//! the problem is written. Costs one pass over the nonzeros.

use std::fmt::Write;

use super::{ExportError, Names};
use crate::model::{Model, Sense};

/// The model in DLX format (see the module docs), or [`ExportError::UnsupportedRows`] naming
/// the first weighted row ([`ExportError::ObjectiveUnsupported`] for a model with an objective).
pub fn to_xcc(model: &Model) -> Result<String, ExportError> {
    // Exact cover has no objective, and the format no comment to carry one in: refuse rather
    // than drop it.
    if let Some(o) = model.objective() {
        return Err(ExportError::ObjectiveUnsupported {
            format: "xcc",
            sense: o.sense(),
        });
    }
    if let Some(c) = model.constraints().iter().find(|c| c.weights.is_some()) {
        return Err(ExportError::UnsupportedRows {
            format: "xcc",
            reason: format!(
                "row {} of family '{}' has weights other than 1; exact cover reads unit-weight rows only",
                c.index,
                model.families()[c.family].name
            ),
        });
    }
    let names = Names::of(model);
    let slack = undecided(model);
    let mut primary = Vec::new();
    let mut secondary = Vec::new();
    for (c, name) in model.constraints().iter().zip(&names.rows) {
        let len = c.vars.len() as u64;
        match c.sense {
            Sense::ExactlyOne => primary.push(name.clone()),
            Sense::AtMostOne => secondary.push(name.clone()),
            sense => {
                let (low, high) = sense.bounds();
                let high = high.unwrap_or(len).min(len);
                primary.push(format!("{name}:{low};{high}"));
            }
        }
    }
    primary.extend(model.givens().iter().map(|g| format!("given_{g}")));
    primary.extend(
        (0..model.num_variables())
            .filter(|&v| slack[v])
            .map(|v| format!("slack_{v}")),
    );
    let mut out = primary.join(" ");
    if !secondary.is_empty() {
        out.push_str(" | ");
        out.push_str(&secondary.join(" "));
    }
    out.push('\n');
    for (v, &needs_slack) in slack.iter().enumerate() {
        let items: Vec<&str> = model
            .rows_of(v)
            .iter()
            .map(|&r| names.rows[r].as_str())
            .collect();
        out.push_str(&items.join(" "));
        if model.givens().binary_search(&v).is_ok() {
            let _ = write!(out, " given_{v}");
        }
        if needs_slack {
            let _ = write!(out, " slack_{v}");
        }
        out.push('\n');
    }
    for v in (0..model.num_variables()).filter(|&v| slack[v]) {
        let _ = writeln!(out, "slack_{v}");
    }
    Ok(out)
}

/// Per variable: whether it sits in no binding equation (`= k` with `k > 0`), so that covering
/// the primary items does not decide it.
fn undecided(model: &Model) -> Vec<bool> {
    let mut slack = vec![true; model.num_variables()];
    for c in model.constraints() {
        if c.sense.is_equality() && c.sense.rhs() > 0 {
            for &v in &c.vars {
                slack[v] = false;
            }
        }
    }
    slack
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind};

    #[test]
    fn items_options_multiplicities_givens_and_slack_are_written_as_miniexact_reads_them() {
        let mut b = ModelBuilder::new("t", PuzzleKind::Generic);
        let v: Vec<usize> = (0..4)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let (one, apart, two) = (b.family("one"), b.family("apart"), b.family("two"));
        b.row(one, vec![v[0], v[1]], Sense::ExactlyOne);
        b.row(apart, vec![v[1], v[2]], Sense::AtMostOne);
        b.row(two, vec![v[0], v[2], v[3]], Sense::AtLeast(2));
        b.given(v[0]);
        let text = to_xcc(&b.build().unwrap()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "one_0 two_0:2;3 given_0 slack_2 slack_3 | apart_0",
                "one_0 two_0 given_0",
                "one_0 apart_0",
                "apart_0 two_0 slack_2",
                "two_0 slack_3",
                "slack_2",
                "slack_3",
            ]
        );
    }

    #[test]
    fn weighted_rows_are_refused_by_name() {
        let mut b = ModelBuilder::new("t", PuzzleKind::Generic);
        let x = b.variable("x", Coord::Free);
        let y = b.variable("y", Coord::Free);
        let f = b.family("budget");
        b.weighted_row(f, vec![x, y], vec![2, 3], Sense::AtMost(4));
        let e = to_xcc(&b.build().unwrap()).unwrap_err().to_string();
        assert!(e.contains("row 0 of family 'budget'"), "{e}");
    }
}
