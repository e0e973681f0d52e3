//! SAT: the model's CNF encoding ([`crate::export::cnf`]: at-least-one clauses plus pairwise or
//! sequential-counter at-most-one clauses, givens as unit clauses) handed to varisat, a
//! pure-Rust CDCL solver.
//!
//! Counting adds one blocking clause per solution found, over the model variables only (the
//! counter's auxiliary variables are not determined by them), and solves again incrementally,
//! so `count(limit)` costs `min(count, limit) + 1` SAT calls.
//!
//! Options: `pairwise-up-to` (default 6): rows of at most this many variables get pairwise
//! at-most-one clauses, longer rows the sequential counter. No time limit: varisat cannot be
//! interrupted from outside.

use varisat::{ExtendFormula, Lit, Solver as VarisatSolver};

use crate::backend::{
    count_by_enumeration, solve_by_enumeration, Backend, BackendError, BackendOptions, CountReport,
    Counter, SolveReport, Solver, Stats,
};
use crate::export::cnf::{Cnf, CnfOptions};
use crate::model::{Model, Solution};

/// The SAT backend (`--backend sat`).
#[derive(Debug, Clone)]
pub struct Sat {
    encoding: CnfOptions,
}

impl Sat {
    /// A SAT backend; reads `pairwise-up-to` from `options.params`.
    pub fn new(options: &BackendOptions) -> Result<Sat, BackendError> {
        let pairwise_up_to = options.param(
            "sat",
            "pairwise-up-to",
            CnfOptions::default().pairwise_up_to,
            "a row length (non-negative integer)",
        )?;
        Ok(Sat {
            encoding: CnfOptions { pairwise_up_to },
        })
    }

    /// Runs the solver on `model`, calling `found` for each solution until it returns false or
    /// none is left. Returns the number found and whether the search ran out of solutions.
    fn enumerate(
        &self,
        model: &Model,
        mut found: impl FnMut(Solution) -> bool,
        stats: &mut Stats,
    ) -> Result<(u128, bool), BackendError> {
        let cnf = Cnf::encode(model, &self.encoding);
        let mut solver = VarisatSolver::new();
        for clause in &cnf.clauses {
            let lits: Vec<Lit> = clause
                .iter()
                .map(|&l| Lit::from_dimacs(l as isize))
                .collect();
            solver.add_clause(&lits);
        }
        stats
            .extra
            .insert("clauses".into(), (cnf.clauses.len() as u64).into());
        stats.extra.insert(
            "auxiliary_variables".into(),
            ((cnf.num_vars - cnf.model_vars) as u64).into(),
        );
        let n = cnf.model_vars;
        let mut count = 0u128;
        let mut calls = 0u64;
        let finished = loop {
            calls += 1;
            let sat = solver.solve().map_err(|e| BackendError::Failed {
                backend: "sat".into(),
                reason: e.to_string(),
            })?;
            if !sat {
                break true;
            }
            let mut value = vec![false; n];
            for lit in solver.model().unwrap_or_default() {
                let v = lit.index();
                if v < n && lit.is_positive() {
                    value[v] = true;
                }
            }
            count += 1;
            // Block this assignment of the model variables.
            let blocking: Vec<Lit> = (0..n)
                .map(|v| {
                    Lit::from_dimacs(if value[v] {
                        -(v as isize + 1)
                    } else {
                        v as isize + 1
                    })
                })
                .collect();
            if !found(Solution::from_bools(&value)) {
                break false;
            }
            if blocking.is_empty() {
                // A model with no variables has exactly one (empty) solution.
                break true;
            }
            solver.add_clause(&blocking);
        };
        stats.nodes = calls;
        stats.solutions = count as u64;
        stats.extra.insert("sat_calls".into(), calls.into());
        Ok((count, finished))
    }
}

impl Solver for Sat {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        solve_by_enumeration(&mut |found, stats| self.enumerate(model, found, stats))
    }
}

impl Counter for Sat {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        count_by_enumeration(limit, &mut |found, stats| {
            self.enumerate(model, found, stats)
        })
    }
}

impl crate::backend::SolutionStream for Sat {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> std::ops::ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        crate::backend::stream::stream_by_enumeration(
            &mut |each, stats| self.enumerate(model, each, stats),
            found,
        )
    }
}

impl Backend for Sat {
    fn name(&self) -> &'static str {
        "sat"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::count_verified;
    use crate::puzzle::{HexBoard, QueensBoard};

    #[test]
    fn counts_the_seed_placements_of_the_bare_width_9_board() {
        // The seed: 244 placements obey all three axes on the width-9 board.
        let m = HexBoard::geometry(9).unwrap().to_model("w9");
        let mut sat = Sat::new(&BackendOptions::default()).unwrap();
        let out = count_verified(&mut sat, &m, None).unwrap();
        assert_eq!((out.count, out.exhaustive, out.verified), (244, true, true));
    }

    #[test]
    fn encodings_agree_on_queens_counts() {
        // Bare 6x6 Queens (rows, columns, no touching): the king-free permutations.
        let m = QueensBoard::bare(6).to_model("q6");
        let mut counts = Vec::new();
        for t in ["0", "6", "1000"] {
            let mut o = BackendOptions::default();
            o.params.insert("pairwise-up-to".into(), t.into());
            let mut sat = Sat::new(&o).unwrap();
            counts.push(count_verified(&mut sat, &m, None).unwrap().count);
        }
        // Permutations of 6 with no two adjacent rows in adjacent columns: 90 (OEIS A002464).
        assert_eq!(counts, vec![90, 90, 90]);
        let mut o = BackendOptions::default();
        o.params.insert("pairwise-up-to".into(), "many".into());
        assert!(matches!(Sat::new(&o), Err(BackendError::BadOption { .. })));
    }
}
