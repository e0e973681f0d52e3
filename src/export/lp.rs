//! CPLEX LP: a feasibility problem (objective `0`), one named row per model row, every variable
//! in the `Binary` section. Read by CPLEX, Gurobi, HiGHS, CBC, SCIP and GLPK (`--lp`).
//!
//! Layout: `\` comment lines (model, families, a table variable -> label -> coordinate), then
//! `Minimize`, `Subject To`, `Binary`, `End`. Long rows wrap after eight terms (LP allows a
//! row over several lines). Costs one pass over the nonzeros.

use std::fmt::Write;

use super::{describe_coord, header_lines, Names};
use crate::model::Model;

/// Terms per line before a row wraps.
const TERMS_PER_LINE: usize = 8;

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
    out.push_str("Minimize\n obj:");
    if let Some(first) = names.variables.first() {
        let _ = write!(out, " 0 {first}");
    }
    out.push_str("\nSubject To\n");
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
