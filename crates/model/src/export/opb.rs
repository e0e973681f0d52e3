//! OPB, the input format of the pseudo-Boolean competitions: variables `x1..xN` (model variable
//! `i` is `x{i+1}`), one constraint per line ending in `;`, with the row weights as
//! coefficients. Equality rows are `+1 x1 +2 x2 = 2 ;`, `>= k` rows `+1 x1 +1 x2 >= 2 ;`; OPB
//! has no `<=`, so `<= k` rows are negated: `-1 x1 -1 x2 >= -1 ;` ("at most one"), `-1 x1 >= 0 ;`
//! for `<= 0`. Givens are `+1 xi = 1 ;` rows.
//!
//! The first line is the required `* #variable= N #constraint= M`; `*` comment lines then give
//! the model, its families and the table `x<i> label coordinate`; a row with a name of its own
//! (an LP or MPS row name) follows a comment `* row NAME`, which the OPB reader reads back. A model with an objective
//! then has its `min:` line (OPB only minimises: a maximised objective is written with its costs
//! negated, and a comment says so); without one, no objective line: a satisfaction problem. Costs one pass over the nonzeros.

use std::fmt::Write;

use super::{describe_coord, header_lines};
use crate::model::{Model, Relation};

/// The model in OPB format.
pub fn to_opb(model: &Model) -> String {
    let model = model.with_givens_as_rows();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "* #variable= {} #constraint= {}",
        model.num_variables(),
        model.constraints().len()
    );
    for line in header_lines(&model) {
        let _ = writeln!(out, "* {line}");
    }
    out.push_str("* variable, label, coordinate:\n");
    for (i, v) in model.variables().iter().enumerate() {
        let _ = writeln!(
            out,
            "*   x{} {} {}",
            i + 1,
            model.label(i),
            describe_coord(&v.coord)
        );
    }
    if let Some(o) = model.objective() {
        if o.is_maximize() {
            out.push_str("* objective: maximize, written as min: of the negated costs\n");
        }
        out.push_str("min:");
        for (v, _) in o.terms() {
            let c = o.min_cost(v);
            let _ = write!(
                out,
                " {}{} x{}",
                if c < 0 { "-" } else { "+" },
                c.unsigned_abs(),
                v + 1
            );
        }
        out.push_str(" ;\n");
    }
    let mut family = usize::MAX;
    for (r, c) in model.constraints().iter().enumerate() {
        if c.family != family {
            family = c.family;
            let _ = writeln!(out, "* family {}", model.families()[family].name);
        }
        if let Some(name) = model.row_label(r) {
            let _ = writeln!(out, "* row {name}");
        }
        // OPB has only "=" and ">=": "sum <= k" is written "sum -w x >= -k".
        let (sign, op) = match c.sense.relation() {
            Relation::Equal => ("+", "="),
            Relation::AtMost => ("-", ">="),
            Relation::AtLeast => ("+", ">="),
        };
        for (v, w) in c.terms() {
            let _ = write!(out, "{sign}{w} x{} ", v + 1);
        }
        let rhs = c.sense.rhs();
        let rhs = if sign == "-" && rhs > 0 {
            format!("-{rhs}")
        } else {
            rhs.to_string()
        };
        let _ = writeln!(out, "{op} {rhs} ;");
    }
    out
}
