//! Free MPS: rows `N obj` (the model's objective, with an `OBJSENSE MAX` section when it is
//! maximised; without entries when the model has none, and a second free row `N none` holds
//! the entries of variables in no row then), `E` for `= k` ("exactly one" included), `L`
//! for `<= k`, `G` for `>= k`; column entries carry the row weights (1 unless weighted); every
//! column bounded `BV` (binary); one right-hand side per row, written even when 0. Read by HiGHS, CBC, Gurobi, CPLEX,
//! SCIP and GLPK (`--freemps`).
//!
//! Names carry no spaces (see [`super::Names`]), as free MPS requires. `*` lines hold the same
//! header and variable table as the LP file. Costs one pass over the nonzeros.

use std::fmt::Write;

use super::{describe_coord, header_lines, Names};
use crate::model::{Model, Relation};

/// The model in free MPS format.
pub fn to_mps(model: &Model) -> String {
    let model = model.with_givens_as_rows();
    let names = Names::of(&model);
    let mut out = String::new();
    for line in header_lines(&model) {
        let _ = writeln!(out, "* {line}");
    }
    out.push_str("* variable, label, coordinate:\n");
    for (i, (name, v)) in names.variables.iter().zip(model.variables()).enumerate() {
        let label = model.label(i);
        let _ = writeln!(out, "*   {name} {label} {}", describe_coord(&v.coord));
    }
    let model_name = super::sanitize(model.name());
    let _ = writeln!(
        out,
        "NAME {}",
        if model_name.is_empty() {
            "zeroone"
        } else {
            &model_name
        }
    );
    if model.objective().is_some_and(|o| o.is_maximize()) {
        out.push_str("OBJSENSE\n    MAX\n");
    }
    // The first free row is the objective. A variable in no row still needs a column entry
    // to exist: in `obj` when the model has an objective (cost 0 reads back as a cost), in a
    // second free row `none` (ignored by readers) when it has none, so that no objective is
    // read where there was none.
    let isolated = (0..model.num_variables()).any(|v| model.rows_of(v).is_empty());
    let all_zero = model
        .objective()
        .is_some_and(|o| o.terms().next().is_none());
    out.push_str("ROWS\n N obj\n");
    if isolated && model.objective().is_none() {
        out.push_str(" N none\n");
    }
    for (c, row) in model.constraints().iter().zip(&names.rows) {
        let t = match c.sense.relation() {
            Relation::Equal => 'E',
            Relation::AtMost => 'L',
            Relation::AtLeast => 'G',
        };
        let _ = writeln!(out, " {t} {row}");
    }
    out.push_str("COLUMNS\n");
    for v in 0..model.num_variables() {
        let col = &names.variables[v];
        let rows = model.rows_of(v);
        let cost = model.objective().map_or(0, |o| o.cost(v));
        // An objective whose costs are all 0 keeps one entry, so that it reads back.
        let named = rows.is_empty() || (v == 0 && all_zero);
        if cost != 0 || (named && model.objective().is_some()) {
            let _ = writeln!(out, " {col} obj {cost}");
        } else if rows.is_empty() {
            let _ = writeln!(out, " {col} none 0");
        }
        let weights = model.row_weights_of(v);
        for (i, &r) in rows.iter().enumerate() {
            let w = weights.map_or(1, |w| w[i]);
            let _ = writeln!(out, " {col} {} {w}", names.rows[r]);
        }
    }
    out.push_str("RHS\n");
    for (row, c) in names.rows.iter().zip(model.constraints()) {
        let _ = writeln!(out, " rhs {row} {}", c.sense.rhs());
    }
    out.push_str("BOUNDS\n");
    for col in &names.variables {
        let _ = writeln!(out, " BV bnd {col}");
    }
    out.push_str("ENDATA\n");
    out
}
