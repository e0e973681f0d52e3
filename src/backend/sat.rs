//! SAT: the model's CNF encoding ([`crate::export::cnf`]: at-least-one clauses plus pairwise or
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
//! default, or `false`): whether the solution-improving search fixes variables by the
//! branch-and-bound bound. No time limit: varisat has
//! no interrupt or terminate callback. A [stop flag](crate::backend::stop) does stop it: with
//! one set, the solver writes its proof (varisat's own format: DRAT refuses the clauses that
//! counting adds between calls) into [`StopSink`], which discards it and fails once the flag
//! is raised, and a failed proof write ends varisat's step loop (within an 8 KiB proof
//! buffer, a few hundred conflicts). Cost of the sink: hashing and encoding each learnt and
//! deleted clause, only when a flag is set (the Python package sets one; the CLI does not).

use varisat::{ExtendFormula, Lit, ProofFormat, Solver as VarisatSolver};

use crate::backend::branch_bound::{BoundFixing, CostBound};
use crate::backend::search::{Layout, VarSet};
use crate::backend::stop::{self, StopFlag};
use crate::backend::{
    count_by_enumeration, solve_by_enumeration, Backend, BackendError, BackendOptions, CountReport,
    Counter, RowLimit, RowRefusal, SolveReport, Solver, Stats,
};
use crate::export::cnf::{Cnf, CnfOptions, ObjectiveBounds, PbEncoding};
use crate::export::ExportError;
use crate::model::{Model, Solution};

/// The SAT backend (`--backend sat`).
#[derive(Debug, Clone)]
pub struct Sat {
    encoding: CnfOptions,
    /// Reduced-cost fixing by the branch-and-bound bound in the solution-improving search.
    bound_fixing: bool,
}

impl Sat {
    /// A SAT backend; reads `pairwise-up-to`, `pb-encoding` and `bound-fixing` from
    /// `options.params`.
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
        let cnf = Cnf::encode(model, &self.encoding).map_err(|e| match e {
            ExportError::EncodingTooLarge {
                family,
                row,
                encoding,
                estimate,
            } => BackendError::UnsupportedRows {
                backend: "sat".into(),
                reason: RowRefusal {
                    family,
                    index: row,
                    limit: RowLimit::EncodingTooLarge { encoding, estimate },
                },
            },
            _ => BackendError::Failed {
                backend: "sat".into(),
                reason: e.to_string(),
            },
        })?;
        let stop = stop::current();
        let mut solver = new_solver(&stop);
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
            stop::check(&stop, "sat")?;
            let sat = solver.solve().map_err(|e| solver_error(&stop, &e))?;
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

/// A varisat solver that `stop` can stop (see the module docs): with a flag, its proof goes
/// to a [`StopSink`].
fn new_solver<'a>(stop: &Option<StopFlag>) -> VarisatSolver<'a> {
    let mut solver = VarisatSolver::new();
    if let Some(flag) = stop {
        solver.write_proof(StopSink(flag.clone()), ProofFormat::Varisat);
    }
    solver
}

/// The error of a failed `solve()`: [`BackendError::Stopped`] when the stop flag failed the
/// proof sink, else the solver's own failure.
fn solver_error(stop: &Option<StopFlag>, e: &varisat::solver::SolverError) -> BackendError {
    stop::check(stop, "sat")
        .err()
        .unwrap_or_else(|| failed(&e.to_string()))
}

/// Where varisat writes the proof of a run that may be stopped: discards it, and fails once
/// the flag is raised (varisat then ends its solve with an error).
struct StopSink(StopFlag);

impl std::io::Write for StopSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.is_raised() {
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

/// The most objective terms the solution-improving search encodes (the encodings need the
/// total weight in an `isize`: 2^9 terms of at most 2^53 each).
pub const MAX_OBJECTIVE_TERMS: usize = 1 << 9;

/// The most clauses one objective bound may add; a larger encoding is refused (`unsupported`)
/// rather than allowed to exhaust memory.
pub const MAX_OBJECTIVE_CLAUSES: usize = 2_000_000;

impl Sat {
    /// The solution-improving search (see [`crate::backend::Optimizer`] for `Sat`).
    fn improve(&self, model: &Model, stats: &mut Stats) -> Result<Improved, BackendError> {
        let objective = model.objective().ok_or_else(|| failed("no objective"))?;
        let costs: Vec<(usize, i64)> = objective
            .terms()
            .map(|(v, _)| (v, objective.min_cost(v)))
            .collect();
        let too_large = |reason: String| BackendError::TooLarge {
            backend: "sat".into(),
            reason,
        };
        if costs.len() > MAX_OBJECTIVE_TERMS {
            return Err(too_large(format!(
                "{} objective terms; the solution-improving encoding takes at most {MAX_OBJECTIVE_TERMS}",
                costs.len()
            )));
        }
        let cnf = Cnf::encode(model, &self.encoding).map_err(|e| failed(&e.to_string()))?;
        let stop = stop::current();
        let mut solver = new_solver(&stop);
        add_clauses(&mut solver, &cnf.clauses);
        let n = cnf.model_vars;
        let mut bounds = ObjectiveBounds::new(&costs, cnf.num_vars, self.encoding.pb);
        let mut fixing = self.bound_fixing.then(|| BoundFixer::new(model));
        // No solution is below `lower` (proved); `best` is the incumbent.
        let mut lower = fixing.as_mut().map_or(i128::MIN, BoundFixer::root_bound);
        let (mut best, mut calls, mut added) = (None::<(i128, Solution)>, 0u64, 0usize);
        loop {
            let mut assumed: Vec<i32> = Vec::new();
            let mut target = None;
            if let Some((b, _)) = &best {
                if lower >= *b {
                    break; // proved: nothing below the incumbent
                }
                // Ask for a solution of value <= t: without fixing the next better value
                // (linear search), with it the middle of (lower, best) rounded up.
                let t = match &fixing {
                    None => *b - 1,
                    Some(_) => *b - 1 - (*b - 1 - lower) / 2,
                };
                target = Some(t);
                let Some((clauses, lits, _)) = bounds
                    .at_most_assumed(t)
                    .map_err(|e| too_large(e.to_string()))?
                else {
                    lower = t + 1; // nothing can be at most t
                    continue;
                };
                added += clauses.len();
                if added > MAX_OBJECTIVE_CLAUSES {
                    return Err(too_large(format!(
                        "the objective bounds took more than {MAX_OBJECTIVE_CLAUSES} clauses ({} encoding); try pb-encoding=adder",
                        self.encoding.pb.name()
                    )));
                }
                add_clauses(&mut solver, &clauses);
                if t == *b - 1 {
                    // Only better solutions are wanted from now on: the bound stays.
                    let units: Vec<Vec<i32>> = lits.iter().map(|&l| vec![l]).collect();
                    add_clauses(&mut solver, &units);
                } else {
                    assumed = lits;
                }
                // What the bound fixes for a solution of value <= t (for this call only).
                if let Some(fixer) = fixing.as_mut() {
                    match fixer.trial(t + 1) {
                        BoundFixing::NoneBetter => {
                            lower = t + 1;
                            continue;
                        }
                        BoundFixing::Fixed(units) => assumed.extend(units.iter().map(dimacs)),
                    }
                }
            }
            calls += 1;
            stop::check(&stop, "sat")?;
            let lits: Vec<Lit> = assumed
                .iter()
                .map(|&l| Lit::from_dimacs(l as isize))
                .collect();
            solver.assume(&lits);
            if !solver.solve().map_err(|e| solver_error(&stop, &e))? {
                match target {
                    Some(t) => lower = t + 1,
                    None => break, // no solution at all
                }
                continue;
            }
            let mut value = vec![false; n];
            for lit in solver.model().unwrap_or_default() {
                if lit.index() < n && lit.is_positive() {
                    value[lit.index()] = true;
                }
            }
            if let Some(fixer) = &fixing {
                fixer.fill(&mut value);
            }
            let solution = Solution::from_bools(&value);
            let v: i128 = (solution.ones.iter())
                .map(|&x| i128::from(objective.min_cost(x)))
                .sum();
            best = Some((v, solution));
            // Every better solution obeys what the bound fixes against v (unit clauses); the
            // bound may also show that none exists.
            if let Some(fixer) = fixing.as_mut() {
                match fixer.fix_against(v) {
                    BoundFixing::NoneBetter => lower = v,
                    BoundFixing::Fixed(units) => add_units(&mut solver, &units),
                }
            }
        }
        stats.nodes = calls;
        stats.extra.insert("sat_calls".into(), calls.into());
        stats
            .extra
            .insert("objective_clauses".into(), (added as u64).into());
        if let Some(fixer) = &fixing {
            let fixed = fixer.fixed.iter().filter(|f| f.is_some()).count();
            stats
                .extra
                .insert("fixed_by_bound".into(), (fixed as u64).into());
        }
        Ok(best.map(|(v, s)| (objective.flip(v), s)))
    }
}

/// Reduced-cost fixing for the solution-improving search: the shared branch-and-bound bound
/// ([`CostBound::fix_against`]), its surrogate row weighted by the LP dual
/// ([`crate::backend::surrogate`]), probed against each new incumbent.
struct BoundFixer {
    layout: Layout,
    bound: CostBound,
    /// Per model variable: the value every better solution takes, when fixed.
    fixed: Vec<Option<bool>>,
}

impl BoundFixer {
    /// Cost: the search layout of `model` (linear in its nonzeros) and one LP over its
    /// knapsack rows.
    fn new(model: &Model) -> BoundFixer {
        let layout = Layout::new(model);
        let objective = model
            .objective()
            .expect("an optimising search has an objective");
        let mut bound = CostBound::new(&layout, objective);
        if let Some(multipliers) = crate::backend::surrogate::lp_multipliers(&layout, &bound) {
            bound.use_surrogate_multipliers(&layout, &multipliers);
        }
        let fixed = vec![None; layout.model_vars];
        BoundFixer {
            layout,
            bound,
            fixed,
        }
    }

    /// What the bound fixes against an incumbent of minimisation-form value `incumbent`
    /// (kept for every later call).
    fn fix_against(&mut self, incumbent: i128) -> BoundFixing {
        self.bound
            .fix_against(&self.layout, &mut self.fixed, incumbent)
    }

    /// What the bound fixes against `incumbent` on top of the kept fixings, for one query
    /// only (nothing is kept).
    fn trial(&mut self, incumbent: i128) -> BoundFixing {
        let mut fixed = self.fixed.clone();
        self.bound.fix_against(&self.layout, &mut fixed, incumbent)
    }

    /// Greedy improvement of a solution (`value` per model variable): each variable at 0
    /// with a negative cost, best value per unit of knapsack load first
    /// ([`CostBound::branch_keys`]), is set to 1 when every row it sits in has room for its
    /// weight. Upper bounds stay met and sums only grow, so the solution stays one (the caller
    /// verifies it anyway). Cost: a sort of the negative-cost variables and a pass over
    /// their rows.
    fn fill(&self, value: &mut [bool]) {
        let layout = &self.layout;
        let mut sum = vec![0u64; layout.num_rows];
        for v in (0..layout.model_vars).filter(|&v| value[v]) {
            for (&r, &w) in layout.rows_of(v).iter().zip(layout.weights_of(v)) {
                sum[r as usize] += w;
            }
        }
        let keys = self.bound.branch_keys(layout);
        let costs = self.bound.costs();
        let mut open: Vec<usize> = (0..layout.model_vars)
            .filter(|&v| !value[v] && costs[v] < 0 && self.fixed[v] != Some(false))
            .collect();
        open.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]).then(a.cmp(&b)));
        for v in open {
            let rows = layout.rows_of(v).iter().zip(layout.weights_of(v));
            let fits = |(&r, &w): (&u32, &u64)| {
                (sum[r as usize].checked_add(w)).is_some_and(|t| t <= layout.upper[r as usize])
            };
            if rows.clone().all(fits) {
                value[v] = true;
                rows.for_each(|(&r, &w)| sum[r as usize] += w);
            }
        }
    }

    /// The bound at the root (the givens placed): no solution costs less.
    fn root_bound(&mut self) -> i128 {
        let legal = VarSet::full(self.layout.num_vars);
        let givens: Vec<u32> = self.layout.givens.iter().map(|&g| g as u32).collect();
        self.bound.lower_bound(&self.layout, &legal, &givens)
    }
}

/// The DIMACS literal saying model variable `v` has `value`.
fn dimacs(&(v, value): &(usize, bool)) -> i32 {
    if value {
        v as i32 + 1
    } else {
        -(v as i32 + 1)
    }
}

/// Adds one unit clause per fixed model variable.
fn add_units(solver: &mut VarisatSolver, units: &[(usize, bool)]) {
    for unit in units {
        solver.add_clause(&[Lit::from_dimacs(dimacs(unit) as isize)]);
    }
}

/// The best solution of a solution-improving search and its value, if any.
type Improved = Option<(i128, Solution)>;

fn failed(reason: &str) -> BackendError {
    BackendError::Failed {
        backend: "sat".into(),
        reason: reason.into(),
    }
}

/// Solution-improving search: solve, then require `objective <= best - 1` (a pseudo-Boolean
/// constraint encoded with the backend's `pb-encoding` through rustsat, negative costs on
/// negated literals) and solve again, until unsatisfiable: the last solution is optimal.
/// With `bound-fixing` (the default) the shared branch-and-bound bound
/// ([`CostBound::fix_against`], its surrogate row weighted by an LP dual) joins in: the
/// search keeps a proved lower bound `lower` (first the bound at the root) and asks for a
/// solution of value at most `t`, the middle of `lower` and the incumbent (rounded up), by
/// assumptions: the objective bound's literals and the variables the bound fixes for any
/// solution of value at most `t`. Satisfiable: a better incumbent, against which fixings are
/// kept as unit clauses. Unsatisfiable (or the bound alone shows it): `lower = t + 1`. The
/// incumbent is optimal once `lower` reaches it. Cost: two bound evaluations per open
/// variable per query and incumbent. The
/// objective is one incremental encoding ([`ObjectiveBounds`]): each better bound adds only
/// the encoding's new part and unit clauses on its outputs, so no bound is encoded twice. The
/// solver is incremental, so learnt clauses carry over. Refused (`unsupported`) beyond
/// [`MAX_OBJECTIVE_TERMS`] terms or [`MAX_OBJECTIVE_CLAUSES`] clauses of bounds.
impl crate::backend::Optimizer for Sat {
    fn optimize(&mut self, model: &Model) -> Result<crate::backend::OptimizeReport, BackendError> {
        use crate::backend::{Found, OptimizeReport};
        let start = std::time::Instant::now();
        let mut stats = Stats::default();
        let best = self.improve(model, &mut stats)?;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(match best {
            Some((value, s)) => OptimizeReport::optimal(s, value, stats),
            None => OptimizeReport::without_solution(Found::Infeasible, stats),
        })
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
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
    /// Every row kind has a CNF encoding (see [`crate::export::cnf`]).
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

    /// OEIS A001499: n x n 0-1 matrices with exactly two ones in every row and column.
    fn two_per_line(n: usize) -> Model {
        let mut b = ModelBuilder::new(format!("a001499-{n}"), PuzzleKind::Generic);
        let x: Vec<Vec<usize>> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| b.variable(format!("r{r}c{c}"), Coord::Free))
                    .collect()
            })
            .collect();
        let rows = b.family("row");
        let cols = b.family("col");
        for (i, line) in x.iter().enumerate() {
            b.row(rows, line.clone(), Sense::Exactly(2));
            b.row(cols, x.iter().map(|r| r[i]).collect(), Sense::Exactly(2));
        }
        b.build().unwrap()
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
                (out.count, out.exhaustive, out.verified),
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
                    (out.count, out.exhaustive),
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
        assert_eq!((out.count, out.verified), (11, true));
        let mut o = BackendOptions::default();
        o.params.insert("pb-encoding".into(), "bdd".into());
        assert!(matches!(Sat::new(&o), Err(BackendError::BadOption { .. })));
    }
}
