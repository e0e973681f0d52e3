//! SAT: the model's CNF encoding ([`crate::encode::cnf`]: at-least-one clauses plus pairwise or
//! sequential-counter at-most-one clauses for exact-cover rows, rustsat's totalizer for
//! cardinality rows and a pseudo-Boolean encoding for weighted rows, givens as unit clauses)
//! handed to varisat, a pure-Rust CDCL solver. Every row kind is accepted.
//!
//! Counting adds one blocking clause per solution found, over the model variables only (the
//! counter's auxiliary variables are not determined by them), and solves again incrementally,
//! so `count(limit)` costs `min(count, limit) + 1` SAT calls.
//!
//! Options: `pairwise-up-to` (default 6): exact-cover rows of at most this many variables get
//! pairwise at-most-one clauses, longer rows the sequential counter; `pb-encoding` (`gte`,
//! the default, `dpw` or `adder`): the encoding of weighted rows; `bound-fixing` (`true`, the
//! default, or `false`): whether the solution-improving search ([`improve`]) fixes variables
//! by the branch-and-bound bound.
//!
//! Time limit and stop flag: varisat has no interrupt or terminate callback, but it stops at
//! a failed proof write. With a time limit or a [stop flag](crate::backend::stop), the solver
//! writes its proof (varisat's own format: DRAT refuses the clauses that counting adds
//! between calls) into `LimitSink`, which discards it and fails once the deadline has passed
//! or the flag is raised; the failed write ends varisat's step loop (within an 8 KiB proof
//! buffer, a few hundred conflicts), and the limits are checked again between SAT calls. A
//! run stopped either way ends as at a time limit: `timeout` without a solution, `limit` for
//! a count (its partial value), `feasible` with the incumbent and its proved bound for an
//! optimisation. Cost of the sink: hashing and encoding each learnt and deleted clause, only
//! when a limit or a flag is set (see the README's optimisation section for the measured
//! figure).

pub mod improve;
#[cfg(test)]
mod improve_tests;

use std::cell::Cell;
use std::time::{Duration, Instant};

use varisat::{ExtendFormula, Lit, ProofFormat, Solver as VarisatSolver};

use crate::backend::stop::{self, StopFlag};
use crate::backend::{
    count_by_enumeration, solve_by_enumeration, Backend, BackendError, BackendOptions, CountEnd,
    CountReport, Counter, Found, RowLimit, RowRefusal, SolveReport, Solver, Stats,
};
use crate::encode::cnf::{Cnf, CnfOptions, EncodeError, PbEncoding};
use crate::model::{Model, Solution};

/// The SAT backend (`--backend sat`).
#[derive(Debug, Clone)]
pub struct Sat {
    encoding: CnfOptions,
    /// Reduced-cost fixing by the branch-and-bound bound in the solution-improving search.
    bound_fixing: bool,
    /// Per-call wall-clock limit (see the module docs).
    time_limit: Option<Duration>,
}

impl Sat {
    /// A SAT backend; reads `pairwise-up-to`, `pb-encoding` and `bound-fixing` from
    /// `options.params`, and the time limit.
    pub fn new(options: &BackendOptions) -> Result<Sat, BackendError> {
        let pairwise_up_to = options.param(
            "sat",
            "pairwise-up-to",
            CnfOptions::default().pairwise_up_to,
            "a row length (non-negative integer)",
        )?;
        let pb = options.param(
            "sat",
            "pb-encoding",
            PbEncoding::default(),
            "a pseudo-Boolean encoding: gte, dpw or adder",
        )?;
        let bound_fixing = options.param("sat", "bound-fixing", true, "true or false")?;
        Ok(Sat {
            encoding: CnfOptions { pairwise_up_to, pb },
            bound_fixing,
            time_limit: options.checked_time_limit("sat")?,
        })
    }

    /// Runs the solver on `model`, calling `found` for each solution until it returns false or
    /// none is left. Returns the number found and whether the search ran out of solutions;
    /// sets `timed_out` when the time limit or the stop flag ended it.
    fn enumerate(
        &self,
        model: &Model,
        mut found: impl FnMut(Solution) -> bool,
        stats: &mut Stats,
        timed_out: &Cell<bool>,
    ) -> Result<(u128, bool), BackendError> {
        let limits = Limits::start(self.time_limit);
        let cnf = encode(model, &self.encoding)?;
        let mut solver = new_solver(&limits);
        add_clauses(&mut solver, &cnf.clauses);
        stats
            .extra
            .insert("clauses".into(), (cnf.clauses.len() as u64).into());
        if cnf.rows_cardinality + cnf.rows_pseudo_boolean > 0 {
            stats.extra.insert(
                "general_row_clauses".into(),
                ((cnf.cardinality + cnf.pseudo_boolean) as u64).into(),
            );
        }
        stats.extra.insert(
            "auxiliary_variables".into(),
            ((cnf.num_vars - cnf.model_vars) as u64).into(),
        );
        let n = cnf.model_vars;
        let mut count = 0u128;
        let mut calls = 0u64;
        let finished = loop {
            calls += 1;
            let Some(sat) = run(&mut solver, &limits)? else {
                timed_out.set(true);
                break false;
            };
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

/// The model's CNF encoding, a row too large for its encoding refused as `unsupported`.
fn encode(model: &Model, options: &CnfOptions) -> Result<Cnf, BackendError> {
    Cnf::encode(model, options).map_err(|e| match e {
        EncodeError::EncodingTooLarge {
            family,
            row,
            encoding,
            estimate,
        } => BackendError::UnsupportedRows {
            backend: "sat".into(),
            reason: Box::new(RowRefusal {
                label: (model.family_id(&family))
                    .and_then(|f| model.families()[f].rows.get(row).copied())
                    .and_then(|r| model.row_label(r))
                    .map(Box::from),
                family,
                index: row,
                limit: RowLimit::EncodingTooLarge { encoding, estimate },
            }),
        },
        _ => failed(&e.to_string()),
    })
}

/// When a run must stop: the caller's stop flag and the time limit's deadline.
#[derive(Debug, Clone)]
struct Limits {
    flag: Option<StopFlag>,
    deadline: Option<Instant>,
}

impl Limits {
    /// The limits of a run starting now: the thread's stop flag and `now + time_limit`.
    fn start(time_limit: Option<Duration>) -> Limits {
        Limits {
            flag: stop::current(),
            deadline: time_limit.and_then(|t| Instant::now().checked_add(t)),
        }
    }

    /// Whether the flag is raised or the deadline has passed. Cost: one clock read.
    fn reached(&self) -> bool {
        stop::raised(&self.flag) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A varisat solver that `limits` can stop (see the module docs): with a flag or a deadline,
/// its proof goes to a [`LimitSink`].
fn new_solver<'a>(limits: &Limits) -> VarisatSolver<'a> {
    let mut solver = VarisatSolver::new();
    if limits.flag.is_some() || limits.deadline.is_some() {
        solver.write_proof(LimitSink(limits.clone()), ProofFormat::Varisat);
    }
    solver
}

/// One SAT call under `limits`: `Some(satisfiable)`, or `None` when a limit was reached
/// before or during the call. A solver failure with no limit reached is an error.
fn run(solver: &mut VarisatSolver, limits: &Limits) -> Result<Option<bool>, BackendError> {
    if limits.reached() {
        return Ok(None);
    }
    match solver.solve() {
        Ok(sat) => Ok(Some(sat)),
        Err(_) if limits.reached() => Ok(None),
        Err(e) => Err(failed(&e.to_string())),
    }
}

/// Where varisat writes the proof of a run that may be stopped: discards it, and fails once
/// a limit is reached (varisat then ends its solve with an error).
struct LimitSink(Limits);

impl std::io::Write for LimitSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.reached() {
            return Err(std::io::Error::other("stopped"));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Adds DIMACS clauses to `solver`.
fn add_clauses(solver: &mut VarisatSolver, clauses: &[Vec<i32>]) {
    for clause in clauses {
        let lits: Vec<Lit> = clause
            .iter()
            .map(|&l| Lit::from_dimacs(l as isize))
            .collect();
        solver.add_clause(&lits);
    }
}

fn failed(reason: &str) -> BackendError {
    BackendError::Failed {
        backend: "sat".into(),
        reason: reason.into(),
    }
}

impl Solver for Sat {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let timed_out = Cell::new(false);
        let mut report = solve_by_enumeration(&mut |found, stats| {
            self.enumerate(model, found, stats, &timed_out)
        })?;
        if timed_out.get() {
            report.found = Found::TimedOut;
        }
        Ok(report)
    }
}

impl Counter for Sat {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let timed_out = Cell::new(false);
        let mut report = count_by_enumeration(limit, &mut |found, stats| {
            self.enumerate(model, found, stats, &timed_out)
        })?;
        if timed_out.get() {
            report.end = CountEnd::TimedOut;
        }
        Ok(report)
    }
}

impl crate::backend::SolutionStream for Sat {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> std::ops::ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        let timed_out = Cell::new(false);
        let mut report = crate::backend::stream::stream_by_enumeration(
            &mut |each, stats| self.enumerate(model, each, stats, &timed_out),
            found,
        )?;
        if timed_out.get() {
            report.end = CountEnd::TimedOut;
        }
        Ok(report)
    }
}

impl Backend for Sat {
    fn name(&self) -> &'static str {
        "sat"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
    fn size_caps(&self) -> &'static str {
        "a row's encoding 2^24 clauses; objective costs summing to 2^63"
    }
    /// Every row kind has a CNF encoding (see [`crate::encode::cnf`]).
    fn rows_supported(&self, _model: &Model) -> Result<(), RowRefusal> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::count_verified;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
    use crate::puzzle::{HexBoard, QueensBoard};

    #[test]
    fn counts_the_seed_placements_of_the_bare_width_9_board() {
        // The seed: 244 placements obey all three axes on the width-9 board.
        let m = HexBoard::geometry(9).unwrap().to_model("w9");
        let mut sat = Sat::new(&BackendOptions::default()).unwrap();
        let out = count_verified(&mut sat, &m, None).unwrap();
        assert_eq!(
            (out.count.to_u128().unwrap(), out.exhaustive, out.verified),
            (244, true, true)
        );
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

    /// OEIS A001499: n x n 0-1 matrices with exactly two ones in every row and column.
    fn two_per_line(n: usize) -> Model {
        crate::backend::fixtures::line_sums(n, Sense::Exactly(2), Sense::Exactly(2))
    }

    fn sat_with(pb: &str) -> Sat {
        let mut o = BackendOptions::default();
        o.params.insert("pb-encoding".into(), pb.into());
        Sat::new(&o).unwrap()
    }

    #[test]
    fn counts_two_ones_per_row_and_column_exactly() {
        // A001499: 90 for n = 4, 2040 for n = 5.
        for (n, expected) in [(4, 90), (5, 2040)] {
            let m = two_per_line(n);
            let mut sat = Sat::new(&BackendOptions::default()).unwrap();
            let out = count_verified(&mut sat, &m, None).unwrap();
            assert_eq!(
                (out.count.to_u128().unwrap(), out.exhaustive, out.verified),
                (expected, true, true)
            );
        }
    }

    /// The subsets of `weights` (one variable each) whose weights sum to `k`, as a weighted
    /// row, plus how many there are by enumeration.
    fn subset_sum(weights: &[u64], sense: Sense) -> (Model, u128) {
        let mut b = ModelBuilder::new("subset-sum", PuzzleKind::Generic);
        let vars: Vec<usize> = (0..weights.len())
            .map(|i| b.variable(format!("w{}", weights[i]), Coord::Free))
            .collect();
        let f = b.family("sum");
        b.weighted_row(f, vars, weights.to_vec(), sense);
        let expected = (0u32..1 << weights.len())
            .filter(|bits| {
                let sum = (0..weights.len())
                    .filter(|&i| bits >> i & 1 == 1)
                    .map(|i| weights[i])
                    .sum();
                sense.holds(sum)
            })
            .count() as u128;
        (b.build().unwrap(), expected)
    }

    #[test]
    fn counts_subset_sums_with_every_pb_encoding() {
        let weights: Vec<u64> = (1..=10).collect();
        // Subsets of {1..10} summing to 10: the partitions of 10 into distinct parts, 10.
        let (m, expected) = subset_sum(&weights, Sense::Exactly(10));
        assert_eq!(expected, 10);
        let cases = [
            (m, expected),
            subset_sum(&[3, 5, 7, 11, 13, 17, 19], Sense::AtLeast(40)),
            subset_sum(&[3, 5, 7, 11, 13, 17, 19], Sense::AtMost(30)),
            subset_sum(&[4, 6, 10, 14], Sense::Exactly(15)),
        ];
        for pb in ["gte", "dpw", "adder"] {
            for (m, expected) in &cases {
                let out = count_verified(&mut sat_with(pb), m, None).unwrap();
                let sense = m.constraints()[0].sense;
                assert_eq!(
                    (out.count.to_u128().unwrap(), out.exhaustive),
                    (*expected, true),
                    "{pb} {sense:?}"
                );
                assert_eq!(out.verified, out.count > 0, "{pb} {sense:?}");
            }
        }
        // {4, 6, 10, 14} has only even sums: 15 is out of reach.
        assert_eq!(cases[3].1, 0);
    }

    #[test]
    fn at_least_rows_count_with_givens() {
        // Five variables, at least three ones, x0 given: C(4,2) + C(4,3) + C(4,4) = 11.
        let mut b = ModelBuilder::new("at-least", PuzzleKind::Generic);
        let v: Vec<usize> = (0..5)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("min");
        b.row(f, v.clone(), Sense::AtLeast(3));
        b.given(v[0]);
        let m = b.build().unwrap();
        let out = count_verified(&mut sat_with("gte"), &m, None).unwrap();
        assert_eq!((out.count.to_u128().unwrap(), out.verified), (11, true));
        let mut o = BackendOptions::default();
        o.params.insert("pb-encoding".into(), "bdd".into());
        assert!(matches!(Sat::new(&o), Err(BackendError::BadOption { .. })));
    }
}
