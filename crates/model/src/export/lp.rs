//! CPLEX LP: `Minimize` or `Maximize` the model's objective (an empty `obj:`, a feasibility
//! problem, for a model without one; `0 x` for an objective whose costs are all 0), one named row per model row, every variable in the `Binary`
//! section. Read by CPLEX, Gurobi, HiGHS, CBC, SCIP and GLPK (`--lp`).
//!
//! Layout: `\` comment lines (model, families, a table variable -> label -> coordinate), then
//! `Minimize`, `Subject To`, `Binary`, `End`. Long rows wrap after eight terms (LP allows a
//! row over several lines). Costs one pass over the nonzeros.

use std::fmt::Write;

use super::{describe_coord, header_lines, Names};
use crate::model::Model;

/// Terms per line before a row wraps.
const TERMS_PER_LINE: usize = 8;

/// The `Minimize` / `Maximize` section: the objective's nonzero terms (wrapped like rows), `0 x`
/// for an objective whose costs are all 0, nothing for a model without an objective.
fn objective_lines(model: &Model, names: &Names, out: &mut String) {
    let objective = model.objective();
    let maximize = objective.is_some_and(|o| o.is_maximize());
    out.push_str(if maximize {
        "Maximize\n obj:"
    } else {
        "Minimize\n obj:"
    });
    let terms: Vec<(usize, i64)> = objective.map(|o| o.terms().collect()).unwrap_or_default();
    // An objective whose costs are all 0 names a variable with cost 0, so that it reads back
    // as an objective; a model without one gets an empty objective (a feasibility problem).
    if terms.is_empty() && objective.is_some() {
        if let Some(first) = names.variables.first() {
            let _ = write!(out, " 0 {first}");
        }
    }
    for (i, (v, c)) in terms.into_iter().enumerate() {
        if i > 0 && i % TERMS_PER_LINE == 0 {
            out.push_str("\n   ");
        }
        let sign = match (i, c < 0) {
            (_, true) => "- ",
            (0, false) => "",
            (_, false) => "+ ",
        };
        let _ = write!(out, " {sign}{} {}", c.unsigned_abs(), names.variables[v]);
    }
    out.push('\n');
}

/// The model in CPLEX LP format.
pub fn to_lp(model: &Model) -> String {
    let model = model.with_givens_as_rows();
    let names = Names::of(&model);
    let mut out = String::new();
    for line in header_lines(&model) {
        let _ = writeln!(out, "\\ {line}");
    }
    out.push_str("\\ variable, label, coordinate:\n");
    for (i, (name, v)) in names.variables.iter().zip(model.variables()).enumerate() {
        let label = model.label(i);
        let _ = writeln!(out, "\\   {name} {label} {}", describe_coord(&v.coord));
    }
    objective_lines(&model, &names, &mut out);
    out.push_str("Subject To\n");
    for (c, row) in model.constraints().iter().zip(&names.rows) {
        let _ = write!(out, " {row}:");
        for (i, (v, w)) in c.terms().enumerate() {
            if i > 0 && i % TERMS_PER_LINE == 0 {
                out.push_str("\n   ");
            }
            let sign = if i == 0 { "" } else { "+ " };
            let coef = if w == 1 {
                String::new()
            } else {
                format!("{w} ")
            };
            let _ = write!(out, " {sign}{coef}{}", names.variables[v]);
        }
        let _ = writeln!(out, " {} {}", c.sense.relation(), c.sense.rhs());
    }
    out.push_str("Binary\n");
    for chunk in names.variables.chunks(TERMS_PER_LINE) {
        let _ = writeln!(out, " {}", chunk.join(" "));
    }
    out.push_str("End\n");
    out
}
