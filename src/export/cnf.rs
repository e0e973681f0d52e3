//! DIMACS CNF. Model variable `i` is CNF variable `i + 1`; auxiliary variables follow.
//!
//! An "exactly one" row becomes one at-least-one clause plus an at-most-one encoding; an "at
//! most one" row only the latter; a given a unit clause. The at-most-one encoding depends on
//! the row length `k`:
//! - **pairwise** (`k <= pairwise_up_to`): `k(k-1)/2` binary clauses `(-a | -b)`, no new
//!   variables;
//! - **sequential counter** (Sinz 2005) for longer rows: `k - 1` auxiliary variables `s_j`
//!   ("one of the first `j` is set") and `3k - 4` clauses: `(-x_1 | s_1)`, and for
//!   `1 < j < k` `(-x_j | s_j)`, `(-s_{j-1} | s_j)`, `(-x_j | -s_{j-1})`, then
//!   `(-x_k | -s_{k-1})`.
//!
//! The default threshold 6 switches where the counter starts to pay (15 pairwise clauses against
//! 14 for `k = 6`, 21 against 17 for `k = 7`). The `c` header lines give the encoding, the
//! threshold, the clause counts by kind and the table `variable label coordinate`.
//!
//! Auxiliary variables are not determined by the model variables, so a solution count must be
//! taken over the model variables only (the `sat` backend blocks on those).
//!
//! Costs: `O(sum over rows of min(k^2, 3k))` clauses, built in memory.

use std::fmt::Write;

use super::{describe_coord, header_lines};
use crate::model::{Model, Sense};

/// How at-most-one constraints are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CnfOptions {
    /// Rows of at most this many variables use pairwise clauses; longer rows the sequential
    /// counter. `usize::MAX`: always pairwise; `0` or `1`: always the counter (for rows of two
    /// or more).
    pub pairwise_up_to: usize,
}

impl Default for CnfOptions {
    fn default() -> Self {
        CnfOptions { pairwise_up_to: 6 }
    }
}

/// A CNF formula made from a model, with the bookkeeping the header reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cnf {
    /// Variables of the formula (model variables first, then auxiliary ones).
    pub num_vars: usize,
    /// How many of them are model variables (CNF variables `1..=model_vars`).
    pub model_vars: usize,
    /// The clauses as DIMACS literals (nonzero; negative means negated).
    pub clauses: Vec<Vec<i32>>,
    /// At-least-one clauses (one per "exactly one" row).
    pub at_least_one: usize,
    /// Binary clauses of pairwise at-most-one encodings.
    pub pairwise: usize,
    /// Clauses of sequential-counter encodings.
    pub sequential: usize,
    /// Unit clauses for givens.
    pub givens: usize,
    /// Rows encoded pairwise.
    pub rows_pairwise: usize,
    /// Rows encoded with the sequential counter.
    pub rows_sequential: usize,
}

impl Cnf {
    /// The CNF of `model` with the at-most-one encoding chosen by `options`.
    pub fn encode(model: &Model, options: &CnfOptions) -> Cnf {
        let n = model.num_variables();
        let mut cnf = Cnf {
            num_vars: n,
            model_vars: n,
            ..Cnf::default()
        };
        let lit = |v: usize| (v + 1) as i32;
        for c in model.constraints() {
            if c.sense == Sense::ExactlyOne {
                cnf.clauses.push(c.vars.iter().map(|&v| lit(v)).collect());
                cnf.at_least_one += 1;
            }
            let k = c.vars.len();
            if k < 2 {
                continue;
            }
            if k <= options.pairwise_up_to {
                cnf.rows_pairwise += 1;
                for i in 0..k {
                    for j in i + 1..k {
                        cnf.clauses.push(vec![-lit(c.vars[i]), -lit(c.vars[j])]);
                        cnf.pairwise += 1;
                    }
                }
            } else {
                cnf.rows_sequential += 1;
                let before = cnf.clauses.len();
                // s[j] (j = 0..k-1): one of the first j+1 variables is 1.
                let s: Vec<i32> = (0..k - 1).map(|j| (cnf.num_vars + j + 1) as i32).collect();
                cnf.num_vars += k - 1;
                let x: Vec<i32> = c.vars.iter().map(|&v| lit(v)).collect();
                cnf.clauses.push(vec![-x[0], s[0]]);
                for j in 1..k - 1 {
                    cnf.clauses.push(vec![-x[j], s[j]]);
                    cnf.clauses.push(vec![-s[j - 1], s[j]]);
                    cnf.clauses.push(vec![-x[j], -s[j - 1]]);
                }
                cnf.clauses.push(vec![-x[k - 1], -s[k - 2]]);
                cnf.sequential += cnf.clauses.len() - before;
            }
        }
        for &g in model.givens() {
            cnf.clauses.push(vec![lit(g)]);
            cnf.givens += 1;
        }
        cnf
    }
}

/// The model in DIMACS CNF, with the encoding and clause counts in the `c` header.
pub fn to_dimacs(model: &Model, options: &CnfOptions) -> Result<String, super::ExportError> {
    crate::backend::exact_cover_only(model).map_err(|reason| {
        super::ExportError::UnsupportedRows {
            format: "cnf",
            reason,
        }
    })?;
    let cnf = Cnf::encode(model, options);
    let mut out = String::new();
    for line in header_lines(model) {
        let _ = writeln!(out, "c {line}");
    }
    let threshold = if options.pairwise_up_to == usize::MAX {
        "pairwise for every row".to_string()
    } else {
        format!(
            "pairwise for rows of <= {} variables, sequential counter (Sinz) above",
            options.pairwise_up_to
        )
    };
    let _ = writeln!(
        out,
        "c exactly-one = at-least-one clause + at-most-one encoding; {threshold}"
    );
    let _ = writeln!(
        out,
        "c rows: {} pairwise, {} sequential counter",
        cnf.rows_pairwise, cnf.rows_sequential
    );
    let _ = writeln!(
        out,
        "c clauses: {} at-least-one, {} pairwise, {} sequential counter, {} givens, {} total",
        cnf.at_least_one,
        cnf.pairwise,
        cnf.sequential,
        cnf.givens,
        cnf.clauses.len()
    );
    let _ = writeln!(
        out,
        "c variables: {} model (1..={}), {} auxiliary",
        cnf.model_vars,
        cnf.model_vars,
        cnf.num_vars - cnf.model_vars
    );
    out.push_str("c variable, label, coordinate:\n");
    for (i, v) in model.variables().iter().enumerate() {
        let _ = writeln!(
            out,
            "c   {} {} {}",
            i + 1,
            model.label(i),
            describe_coord(&v.coord)
        );
    }
    let _ = writeln!(out, "p cnf {} {}", cnf.num_vars, cnf.clauses.len());
    for clause in &cnf.clauses {
        for l in clause {
            let _ = write!(out, "{l} ");
        }
        out.push_str("0\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind};

    fn row_model(k: usize, sense: Sense) -> Model {
        let mut b = ModelBuilder::new("row", PuzzleKind::Generic);
        let vars: Vec<usize> = (0..k)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("only");
        b.row(f, vars, sense);
        b.build().unwrap()
    }

    /// Whether some assignment of the auxiliary variables satisfies `cnf` given the model
    /// variables `x` (exhaustive over the auxiliaries: small formulas only).
    fn satisfiable_with(cnf: &Cnf, x: &[bool]) -> bool {
        let aux = cnf.num_vars - cnf.model_vars;
        (0u32..1 << aux).any(|a| {
            let value = |l: i32| {
                let v = l.unsigned_abs() as usize - 1;
                let b = if v < cnf.model_vars {
                    x[v]
                } else {
                    a >> (v - cnf.model_vars) & 1 == 1
                };
                if l > 0 {
                    b
                } else {
                    !b
                }
            };
            cnf.clauses.iter().all(|c| c.iter().any(|&l| value(l)))
        })
    }

    #[test]
    fn both_encodings_accept_exactly_the_right_assignments() {
        for k in 1..=8 {
            for sense in [Sense::ExactlyOne, Sense::AtMostOne] {
                let m = row_model(k, sense);
                for threshold in [0, usize::MAX] {
                    let cnf = Cnf::encode(
                        &m,
                        &CnfOptions {
                            pairwise_up_to: threshold,
                        },
                    );
                    for bits in 0u32..1 << k {
                        let x: Vec<bool> = (0..k).map(|i| bits >> i & 1 == 1).collect();
                        let ones = bits.count_ones() as usize;
                        assert_eq!(
                            satisfiable_with(&cnf, &x),
                            sense.holds(ones as u64),
                            "k={k} {sense:?} threshold {threshold} bits {bits:b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn clause_counts_follow_the_formulas() {
        let m = row_model(9, Sense::ExactlyOne);
        let seq = Cnf::encode(&m, &CnfOptions::default());
        assert_eq!((seq.at_least_one, seq.sequential, seq.pairwise), (1, 23, 0));
        assert_eq!(seq.num_vars, 9 + 8);
        let pw = Cnf::encode(
            &m,
            &CnfOptions {
                pairwise_up_to: usize::MAX,
            },
        );
        assert_eq!((pw.pairwise, pw.num_vars), (36, 9));
        let text = to_dimacs(&m, &CnfOptions::default()).unwrap();
        assert!(text.contains("c clauses: 1 at-least-one, 0 pairwise, 23 sequential counter"));
        assert!(text.contains("p cnf 17 24\n"));
    }
}
