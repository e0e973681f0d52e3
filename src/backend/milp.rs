//! Mixed-integer programming through `good_lp`: one binary variable per model variable, one
//! linear row per model row (`sum w x (=, <=, >=) k` with its weights; every row kind is
//! accepted), and the model's objective (minimised in minimisation form), or a zero objective
//! (pure feasibility) for a model without one.
//!
//! Robustness, in three layers:
//! - **presolve** ([`crate::backend::presolve`], param `presolve=off|propagate|probe`, default
//!   `probe`): the search's propagation (and failed-literal probing) fixes what every solution
//!   agrees on; fixed variables leave the model and satisfied rows are dropped, so the engine
//!   sees only the open part, and a contradiction proves infeasibility with no engine call;
//! - **exact rows** ([`crate::backend::linear`]): rows with weights or right-hand sides of
//!   2^16 or more are divided by their common divisor and split into base-2^16 digit rows
//!   with integer carries, so no coefficient the engine sees is large;
//! - **retries** ([`ATTEMPTS`]): an engine error ("Singular matrix", a failed validation) or a
//!   MILP answer that breaks a row is retried on a perturbed problem (shuffled variables and
//!   rows, a random objective, seeded by the attempt) before the run is an error.
//!
//! The default engine is microlp (pure Rust, always built). With the cargo feature `highs` the
//! same code drives HiGHS (module `backend::highs`, built with that feature). Abilities:
//! - `solve`: one MILP solve of the presolved model (none when presolve decides it);
//! - `count` up to a limit: after each solution a no-good cut
//!   `sum_{x_i = 1} x_i - sum_{x_i = 0} x_i <= ones - 1` excludes exactly that solution (the
//!   `x_i = 0` terms are left out for variables in an equality row, which no other solution
//!   can add to this one) and the
//!   MILP is solved again (one full solve per solution, so counting `k` solutions costs `k + 1`
//!   solves; "is it unique" is a count with limit 2). Every solution found while counting goes
//!   through the shared verifier before it is counted, because a cut built from a wrong answer
//!   would make the count wrong;
//! - the LP relaxation (param `relax=true`, CLI `--relax`): `0 <= x <= 1` instead of binary.
//!   [`lp_relaxation`] reports whether the vertex the simplex stops at is integral; an integral
//!   vertex is a 0-1 solution (and is returned as one, to be verified), an infeasible LP proves
//!   there is no 0-1 solution, and a fractional vertex is `unknown`. With a zero objective the
//!   vertex reached is whichever feasible basis the simplex meets first, so "integral" means
//!   "this LP solver, from this model, happened to land on a 0-1 vertex";
//! - a wall-clock time limit (`time_limit` in its options): handed to the engine for each solve (microlp checks
//!   it between simplex and branch-and-bound steps, HiGHS natively) and, when counting, also
//!   checked between solves, each solve getting only the time left. A solve stopped by the limit
//!   without a solution is `unknown`; a count stopped by it is not exhaustive.
//!
//! A solver error or a value that is not 0/1 in a MILP answer is a [`BackendError::Failed`]
//! (reported as status `error` by the shared runner), never a panic and never `solved`.
//!
//! Costs: building a problem is linear in the nonzeros; each solve is a branch-and-bound of
//! unbounded worst case (microlp solves 10x10 Queens levels and 9x9 Sudoku in milliseconds to
//! tens of milliseconds in release builds; see `reports/milp.md`).

use std::cell::Cell;
use std::time::{Duration, Instant};

use good_lp::solvers::{ResolutionError, Solution as _, SolverModel, WithTimeLimit};
use good_lp::{variable, Expression, ProblemVariables, Variable};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::backend::linear::{linear_program, Column, LinearProgram};
use crate::backend::presolve::{presolve, PresolveLevel, Presolved};
use crate::backend::stop;
use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, Found, SolveReport,
    Solver, Stats, Undecided, WITNESS_LIMIT,
};
use crate::model::verify::Verifier;
use crate::model::{Model, Reduction, Relation, Solution};

/// Distance from 0 or 1 below which an LP or MILP value counts as integral.
pub const INTEGRALITY_TOLERANCE: f64 = 1e-6;

/// The MILP engine behind the backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// microlp: pure Rust simplex with branch and bound (always available).
    Microlp,
    /// HiGHS, built from source (cargo feature `highs`).
    #[cfg(feature = "highs")]
    Highs,
}

impl Engine {
    /// The engine's name in reports and statistics.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Microlp => "microlp",
            #[cfg(feature = "highs")]
            Engine::Highs => "highs",
        }
    }
}

/// The result of one LP relaxation, for the harness's "how often is the LP integral" question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Relaxation {
    /// Whether the LP (with givens) has any solution; `false` proves the model has none.
    pub feasible: bool,
    /// Whether every value of the vertex found is within [`INTEGRALITY_TOLERANCE`] of 0 or 1.
    pub integral: bool,
    /// How many values are fractional.
    pub fractional: usize,
    /// Variables of the model (givens included).
    pub variables: usize,
    /// The value of every model variable (givens as 1, variables they rule out as 0); empty
    /// when infeasible.
    pub values: Vec<f64>,
    /// The rounded 0-1 solution when `integral` (still to be verified).
    #[serde(skip)]
    pub solution: Option<Solution>,
}

/// One attempt's problem (see [`Formulation::build`]).
struct Built {
    vars: ProblemVariables,
    /// The model variables, by reduced id.
    xs: Vec<Variable>,
    /// The creation index of each model variable (its engine column).
    created: Vec<usize>,
    rows: Vec<good_lp::Constraint>,
    objective: Expression,
}

/// Why one engine call ended without a solution.
enum Stop {
    Infeasible,
    TimeLimit,
}

/// How many times one MILP is tried before an internal solver error is reported: the model as
/// it is, then on perturbed copies (shuffled variables and rows, a random objective).
pub const ATTEMPTS: u32 = 3;

/// The MILP of a reduced model (a model without givens), built once per solve or count: its
/// LP rows (heavy rows divided and split, see [`crate::backend::linear`]), which variables sit
/// in an equation (for sparse no-good cuts) and a verifier of the reduced model.
struct Formulation<'m> {
    reduced: &'m Model,
    lp: LinearProgram,
    /// Variables in some equality row `sum w x = k`: such a variable can never be added to a
    /// solution (weights are positive, so a superset of a solution puts more than `k` on that
    /// row). A no-good cut may leave them out: `sum_{ones} x <= ones - 1` is exact over
    /// covered variables and much sparser; uncovered ones keep the `- x` terms. Not so for
    /// `<=` rows (a subset may leave room) nor `>=` rows (a superset of a solution is one
    /// again).
    covered: Vec<bool>,
    /// Checks an engine's rounded answer against the reduced model, so that an answer the
    /// engine got wrong is retried (the shared runner still verifies what is returned).
    verifier: Verifier<'m>,
    /// Engine calls made (retries included).
    calls: Cell<u64>,
    /// Engine calls beyond the first that solves needed (see [`ATTEMPTS`]).
    retries: Cell<u64>,
}

impl<'m> Formulation<'m> {
    fn new(reduced: &'m Model) -> Self {
        let mut covered = vec![false; reduced.num_variables()];
        for c in reduced.constraints() {
            if c.sense.is_equality() {
                for &v in &c.vars {
                    covered[v] = true;
                }
            }
        }
        Formulation {
            reduced,
            lp: linear_program(reduced),
            covered,
            verifier: Verifier::new(reduced),
            calls: Cell::new(0),
            retries: Cell::new(0),
        }
    }

    /// The problem for attempt `attempt` with `cuts`: the variables (model ones, then
    /// auxiliaries), the model ones, the rows and the objective (the model's, in minimisation
    /// form, or zero). Attempt 0 is the model as it is. A later attempt perturbs it, seeded by
    /// the attempt number (so runs are reproducible): the variables are created and the rows
    /// added in a shuffled order, and a model without an objective gets a random integer cost
    /// in `[-3, 3]` per variable. The feasible set (and any objective) is the same, so any
    /// answer is still an answer of the model.
    fn build(&self, cuts: &[Vec<usize>], relax: bool, attempt: u32) -> Built {
        let n = self.reduced.num_variables();
        let mut rng = ChaCha8Rng::seed_from_u64(attempt as u64);
        let mut order: Vec<usize> = (0..n).collect();
        if attempt > 0 {
            order.shuffle(&mut rng);
        }
        let mut vars = ProblemVariables::new();
        let mut slots: Vec<Option<Variable>> = vec![None; n];
        for &v in &order {
            slots[v] = Some(vars.add(if relax {
                variable().min(0).max(1)
            } else {
                variable().binary()
            }));
        }
        let xs: Vec<Variable> = slots
            .into_iter()
            .map(|x| x.expect("every variable"))
            .collect();
        let mut created = vec![0; n];
        for (i, &v) in order.iter().enumerate() {
            created[v] = i;
        }
        let aux: Vec<Variable> = (self.lp.aux.iter())
            .map(|&(low, high)| {
                let v = variable().min(low as f64).max(high as f64);
                vars.add(if relax { v } else { v.integer() })
            })
            .collect();
        let mut rows: Vec<good_lp::Constraint> = (self.lp.rows.iter())
            .map(|row| {
                let sum: Expression = (row.terms.iter())
                    .map(|&(column, k)| {
                        k as f64
                            * match column {
                                Column::Model(v) => xs[v],
                                Column::Aux(a) => aux[a],
                            }
                    })
                    .sum();
                let k = row.rhs as f64;
                match row.relation {
                    Relation::Equal => sum.eq(k),
                    Relation::AtMost => sum.leq(k),
                    Relation::AtLeast => sum.geq(k),
                }
            })
            .chain(cuts.iter().map(|ones| self.cut(ones, &xs)))
            .collect();
        let mut objective: Expression = match self.reduced.objective() {
            Some(o) => o.terms().map(|(v, _)| o.min_cost(v) as f64 * xs[v]).sum(),
            None => Expression::from(0),
        };
        if attempt > 0 {
            rows.shuffle(&mut rng);
            if self.reduced.objective().is_none() {
                for &x in &xs {
                    objective += rng.gen_range(-3..=3) as f64 * x;
                }
            }
        }
        Built {
            vars,
            xs,
            created,
            rows,
            objective,
        }
    }

    /// The no-good cut excluding the solution with these ones (sorted reduced ids).
    fn cut(&self, ones: &[usize], xs: &[Variable]) -> good_lp::Constraint {
        let mut e = Expression::from(0);
        let mut next = ones.iter().peekable();
        for (v, &x) in xs.iter().enumerate() {
            if next.next_if_eq(&&v).is_some() {
                e += x;
            } else if !self.covered[v] {
                // Only needed where a solution could hold a superset of this one.
                e -= x;
            }
        }
        e.leq(ones.len() as f64 - 1.0)
    }

    /// Solves with `cuts` on `engine`, retrying with a perturbation (up to [`ATTEMPTS`] in all)
    /// when the engine fails or returns a MILP answer that breaks a row of the model. Returns
    /// the values of the reduced model's variables, or why there are none; an error names
    /// every attempt's failure.
    fn solve(
        &self,
        engine: Engine,
        cuts: &[Vec<usize>],
        relax: bool,
        deadline: Option<Instant>,
    ) -> Result<Result<(Vec<f64>, bool), Stop>, BackendError> {
        let stop = &stop::current();
        if stop::raised(stop) {
            return Ok(Err(Stop::TimeLimit));
        }
        if self.lp.infeasible {
            return Ok(Err(Stop::Infeasible));
        }
        let mut failures = Vec::new();
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                self.retries.set(self.retries.get() + 1);
            }
            let time_left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if time_left.is_some_and(|t| t.is_zero()) {
                return Ok(Err(Stop::TimeLimit));
            }
            self.calls.set(self.calls.get() + 1);
            let Built {
                vars,
                xs,
                created,
                rows,
                objective,
            } = self.build(cuts, relax, attempt);
            let problem = vars.minimise(objective);
            let seconds = time_left.map(|t| t.as_secs_f64());
            let started = Instant::now();
            let result = match engine {
                Engine::Microlp if stop.is_some() => {
                    let problem = problem.using(good_lp::microlp);
                    match finish_in_slices(problem, rows, deadline, stop, &created) {
                        Sliced::Stopped => return Ok(Err(Stop::TimeLimit)),
                        Sliced::Ended(result) => result,
                    }
                }
                Engine::Microlp => finish(problem.using(good_lp::microlp), rows, seconds, &xs),
                #[cfg(feature = "highs")]
                Engine::Highs => {
                    // Integer costs: a gap below 1 proves the optimum; the default relative
                    // gap (1e-4) would stop early and call a near-optimal solution optimal.
                    let model = problem.using(good_lp::highs).set_threads(1);
                    let model = model
                        .set_mip_rel_gap(0.0)
                        .and_then(|m| m.set_mip_abs_gap(0.5))
                        .map_err(|e| BackendError::Failed {
                            backend: engine.name().into(),
                            reason: format!("setting the MIP gap: {e:?}"),
                        })?;
                    finish(model, rows, seconds, &xs)
                }
            };
            match result {
                Ok(answer) if relax => return Ok(Ok(answer)),
                Ok(answer) => match to_solution(engine, &answer.0) {
                    Ok(s) if self.verifier.accepts(&s) => return Ok(Ok(answer)),
                    Ok(_) => failures.push("an answer that breaks a row".to_string()),
                    Err(e) => failures.push(e.to_string()),
                },
                Err(ResolutionError::Infeasible) => return Ok(Err(Stop::Infeasible)),
                Err(e) => {
                    // microlp says "Time limit reached ..."; HiGHS stopped by its limit without
                    // a solution says "NoSolutionFound". Either way, a call that used (nearly)
                    // all the time it was given was stopped by the limit.
                    let timed_out = format!("{e}").to_lowercase().contains("time limit")
                        || time_left.is_some_and(|t| started.elapsed() >= t.mul_f64(0.9));
                    if timed_out {
                        return Ok(Err(Stop::TimeLimit));
                    }
                    failures.push(e.to_string());
                }
            }
        }
        Err(BackendError::Failed {
            backend: engine.name().into(),
            reason: format!(
                "{} failed on the model and {} perturbations of it: {}",
                engine.name(),
                ATTEMPTS - 1,
                failures.join("; ")
            ),
        })
    }
}

/// Adds the rows, sets the time limit, solves and reads the values back.
fn finish<M: SolverModel<Error = ResolutionError> + WithTimeLimit>(
    mut problem: M,
    rows: Vec<good_lp::Constraint>,
    seconds: Option<f64>,
    xs: &[Variable],
) -> Result<(Vec<f64>, bool), ResolutionError> {
    for row in rows {
        problem.add_constraint(row);
    }
    if let Some(s) = seconds {
        problem = problem.with_time_limit(s);
    }
    let solution = problem.solve()?;
    let proved = matches!(solution.status(), good_lp::solvers::SolutionStatus::Optimal);
    Ok((xs.iter().map(|&x| solution.value(x)).collect(), proved))
}

/// How often a microlp solve that may be stopped looks at its stop flag.
const SLICE: Duration = Duration::from_millis(100);

/// How [`finish_in_slices`] ended.
enum Sliced {
    /// The stop flag was raised between two slices.
    Stopped,
    /// The engine's own end, as [`finish`] reports it.
    Ended(Result<(Vec<f64>, bool), ResolutionError>),
}

/// [`finish`] for a run with a stop flag: microlp solves in slices of [`SLICE`] (its time
/// limit, then `resume`, which continues the same branch and bound), checking `stop` and
/// `deadline` between slices. `created` maps each model variable to its column. Without a
/// flag the plain [`finish`] runs (the same search in one call).
fn finish_in_slices(
    mut problem: good_lp::solvers::microlp::MicroLpProblem,
    rows: Vec<good_lp::Constraint>,
    deadline: Option<Instant>,
    stop: &Option<stop::StopFlag>,
    created: &[usize],
) -> Sliced {
    use microlp::{ResumeOptions, SolveOptions, SolveOutcome, TerminationReason};
    for row in rows {
        problem.add_constraint(row);
    }
    let slice = || {
        let left = deadline.map_or(SLICE, |d| d.saturating_duration_since(Instant::now()));
        Some(left.min(SLICE))
    };
    let mut first = SolveOptions::default();
    first.time_limit = slice();
    let mut outcome = problem.as_inner().solve_with(first);
    while let Ok(o) = &outcome {
        if o.termination_reason() != TerminationReason::TimeLimit {
            break;
        }
        if stop::raised(stop) {
            return Sliced::Stopped;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut next = ResumeOptions::default();
        next.time_limit = slice();
        outcome = outcome.and_then(|o| o.resume_with(next));
    }
    Sliced::Ended(match outcome {
        Err(e) => Err(ResolutionError::from(e)),
        Ok(SolveOutcome::Interrupted(_)) => Err(ResolutionError::Other("time limit reached")),
        Ok(SolveOutcome::Solution(solution)) => {
            let values: Vec<f64> = solution.iter().map(|(_, x)| x).collect();
            let proved = solution.termination_reason() == TerminationReason::ProvenOptimal;
            Ok((created.iter().map(|&c| values[c]).collect(), proved))
        }
    })
}

/// Turns MILP values into a solution of `reduction.model`, refusing non-0/1 values.
fn to_solution(engine: Engine, values: &[f64]) -> Result<Solution, BackendError> {
    if let Some((v, x)) = values
        .iter()
        .enumerate()
        .find(|(_, x)| (**x - x.round()).abs() > INTEGRALITY_TOLERANCE || x.round() > 1.0)
    {
        return Err(BackendError::Failed {
            backend: engine.name().into(),
            reason: format!(
                "{} returned the non-0/1 value {x} for a binary variable (reduced variable {v})",
                engine.name()
            ),
        });
    }
    Ok(Solution::from_bools(
        &values.iter().map(|x| x.round() == 1.0).collect::<Vec<_>>(),
    ))
}

/// Solves the LP relaxation (`0 <= x <= 1`, givens applied) of `model` with `engine`, within
/// `time_limit`. `Ok(None)` when the time limit stopped it. Cost: one LP solve.
pub fn lp_relaxation(
    model: &Model,
    engine: Engine,
    time_limit: Option<Duration>,
) -> Result<Option<Relaxation>, BackendError> {
    let reduction = model.reduce();
    let n = model.num_variables();
    let infeasible = Relaxation {
        feasible: false,
        integral: false,
        fractional: 0,
        variables: n,
        values: Vec::new(),
        solution: None,
    };
    if reduction.infeasible {
        return Ok(Some(infeasible));
    }
    let reduced_values = if reduction.model.num_variables() == 0 {
        Vec::new()
    } else {
        let deadline = time_limit.and_then(|t| Instant::now().checked_add(t));
        match Formulation::new(&reduction.model).solve(engine, &[], true, deadline)? {
            Ok((v, _)) => v,
            Err(Stop::Infeasible) => return Ok(Some(infeasible)),
            Err(Stop::TimeLimit) => return Ok(None),
        }
    };
    let mut values = vec![0.0; n];
    for &g in &reduction.ones {
        values[g] = 1.0;
    }
    for (i, &x) in reduced_values.iter().enumerate() {
        values[reduction.original[i]] = x;
    }
    let fractional = values
        .iter()
        .filter(|&&x| x.abs() > INTEGRALITY_TOLERANCE && (x - 1.0).abs() > INTEGRALITY_TOLERANCE)
        .count();
    let solution = (fractional == 0).then(|| {
        Solution::from_bools(
            &values
                .iter()
                .map(|&x| (x - 1.0).abs() <= INTEGRALITY_TOLERANCE)
                .collect::<Vec<_>>(),
        )
    });
    Ok(Some(Relaxation {
        feasible: true,
        integral: fractional == 0,
        fractional,
        variables: n,
        values,
        solution,
    }))
}

/// The MILP backend (`--backend milp`, and `--backend highs` with the feature).
#[derive(Debug, Clone)]
pub struct Milp {
    engine: Engine,
    relax: bool,
    presolve: PresolveLevel,
    time_limit: Option<Duration>,
    registry_name: &'static str,
}

impl Milp {
    /// The microlp backend. Reads `relax` (`true`/`false`, default false) and `presolve`
    /// (`off`, `propagate`, `probe`; default `probe`, see [`crate::backend::presolve`]).
    pub fn new(options: &BackendOptions) -> Result<Self, BackendError> {
        Self::with_engine(Engine::Microlp, "milp", options)
    }

    /// A MILP backend on `engine`, registered as `name`. Reads `relax` and `presolve`.
    pub fn with_engine(
        engine: Engine,
        name: &'static str,
        options: &BackendOptions,
    ) -> Result<Self, BackendError> {
        Ok(Milp {
            engine,
            relax: options.param(name, "relax", false, "true or false")?,
            presolve: options.param(
                name,
                "presolve",
                PresolveLevel::Probe,
                "off, propagate or probe",
            )?,
            time_limit: options.checked_time_limit(name)?,
            registry_name: name,
        })
    }

    fn stats(&self, solves: u64, start: Instant) -> Stats {
        let mut stats = Stats::default();
        stats
            .extra
            .insert("engine".into(), self.engine.name().into());
        stats.extra.insert("solves".into(), solves.into());
        stats.seconds = start.elapsed().as_secs_f64();
        stats
    }

    fn solve_relaxation(&self, model: &Model, start: Instant) -> Result<SolveReport, BackendError> {
        let relaxation = lp_relaxation(model, self.engine, self.time_limit)?;
        let mut stats = self.stats(1, start);
        let found = match relaxation {
            None => Found::TimedOut,
            Some(r) => {
                stats.extra.insert("lp_feasible".into(), r.feasible.into());
                stats.extra.insert("lp_integral".into(), r.integral.into());
                stats
                    .extra
                    .insert("lp_fractional".into(), r.fractional.into());
                match (r.feasible, r.solution) {
                    (false, _) => Found::Infeasible,
                    (true, Some(s)) => Found::Solution(s),
                    (true, None) => Found::Undecided(Undecided::FractionalVertex {
                        fractional: r.fractional,
                        variables: r.variables,
                    }),
                }
            }
        };
        Ok(SolveReport { found, stats })
    }

    /// Solves `reduction.model` (whose MILP is `formulation`) with `cuts`: `Ok(Some)` is a
    /// solution of the original model and whether the engine proved it optimal, `Ok(None)`
    /// says there is none (left), `Err(())` that the time limit stopped it.
    fn solve_reduced(
        &self,
        reduction: &Reduction,
        formulation: &Formulation,
        cuts: &[Vec<usize>],
        deadline: Option<Instant>,
    ) -> Result<Result<Option<(Solution, bool)>, ()>, BackendError> {
        if reduction.infeasible {
            return Ok(Ok(None));
        }
        if reduction.model.num_variables() == 0 {
            // Nothing left to choose: the fixed values are the only candidate, and only once.
            return Ok(Ok(cuts
                .is_empty()
                .then(|| (reduction.lift(&Solution::new(vec![])), true))));
        }
        match formulation.solve(self.engine, cuts, false, deadline)? {
            Ok((values, proved)) => Ok(Ok(Some((
                reduction.lift(&to_solution(self.engine, &values)?),
                proved,
            )))),
            Err(Stop::Infeasible) => Ok(Ok(None)),
            Err(Stop::TimeLimit) => Ok(Err(())),
        }
    }

    /// The statistics of a MILP run: the engine, its calls (`solves`, 0 when presolve decided
    /// everything) and retries, and what presolve and the row encoding did.
    fn milp_stats(
        &self,
        start: Instant,
        presolved: &Presolved,
        formulation: &Formulation,
    ) -> Stats {
        let mut stats = self.stats(formulation.calls.get(), start);
        let p = presolved.stats;
        for (key, value) in [
            ("presolve_fixed_ones", p.fixed_ones),
            ("presolve_fixed_zeros", p.fixed_zeros),
            ("presolve_rows_dropped", p.rows_dropped),
            ("split_rows", formulation.lp.split_rows),
            ("retries", formulation.retries.get() as usize),
        ] {
            stats.extra.insert(key.into(), value.into());
        }
        stats
    }
}

impl Solver for Milp {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let start = Instant::now();
        if self.relax {
            return self.solve_relaxation(model, start);
        }
        let deadline = self.time_limit.and_then(|t| start.checked_add(t));
        let presolved = presolve(model, self.presolve, deadline)?;
        let reduction = &presolved.reduction;
        let formulation = Formulation::new(&reduction.model);
        let found = match self.solve_reduced(reduction, &formulation, &[], deadline)? {
            Ok(Some((s, _))) => Found::Solution(s),
            Ok(None) => Found::Infeasible,
            Err(()) => Found::TimedOut,
        };
        let mut stats = self.milp_stats(start, &presolved, &formulation);
        stats.solutions = matches!(found, Found::Solution(_)) as u64;
        Ok(SolveReport { found, stats })
    }
}

impl Counter for Milp {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let start = Instant::now();
        if self.relax {
            return Err(BackendError::Unsupported {
                backend: self.registry_name.into(),
                ability: "count with relax=true (an LP relaxation has no solutions to count)"
                    .into(),
            });
        }
        // Counting ignores the objective: every solution counts, and a feasibility MILP is
        // cheaper to solve.
        let plain = model
            .clone()
            .with_objective(None)
            .expect("no objective always fits");
        let deadline = self.time_limit.and_then(|t| start.checked_add(t));
        let presolved = presolve(&plain, self.presolve, deadline)?;
        let reduction = &presolved.reduction;
        let formulation = Formulation::new(&reduction.model);
        let verifier = Verifier::new(model);
        let mut cuts: Vec<Vec<usize>> = Vec::new();
        let mut witnesses = Vec::new();
        let mut count: u128 = 0;
        let end = loop {
            if limit.is_some_and(|l| count >= l as u128) {
                break CountEnd::AtLimit;
            }
            match self.solve_reduced(reduction, &formulation, &cuts, deadline)? {
                Ok(None) => break CountEnd::Complete,
                Err(()) => break CountEnd::TimedOut,
                Ok(Some((s, _))) => {
                    if let Err(v) = verifier.check(&s) {
                        return Err(BackendError::Failed {
                            backend: self.registry_name.into(),
                            reason: format!(
                                "{} returned a wrong solution while counting: {v}",
                                self.engine.name()
                            ),
                        });
                    }
                    count += 1;
                    // The cut is over the reduced variables: map the ones back.
                    let ones: Vec<usize> = reduction
                        .original
                        .iter()
                        .enumerate()
                        .filter(|(_, &orig)| s.ones.binary_search(&orig).is_ok())
                        .map(|(i, _)| i)
                        .collect();
                    if witnesses.len() < WITNESS_LIMIT {
                        witnesses.push(s);
                    }
                    cuts.push(ones);
                }
            }
        };
        let mut stats = self.milp_stats(start, &presolved, &formulation);
        stats.solutions = count as u64;
        Ok(CountReport {
            count,
            end,
            witnesses,
            stats,
        })
    }
}

/// The native objective: the MILP minimises it (in minimisation form). Proved optimal when
/// the engine says so (microlp: no gap; HiGHS: absolute gap below 1, which is exact for integer
/// costs); a solution the time limit stopped is `feasible`. good_lp reports no dual bound, so
/// `bound` is known only once proved. The claimed value is the exact value of the solution
/// returned (the engine's own objective is a float).
impl crate::backend::Optimizer for Milp {
    fn optimize(&mut self, model: &Model) -> Result<crate::backend::OptimizeReport, BackendError> {
        use crate::backend::OptimizeReport;
        let start = Instant::now();
        let objective = model.objective().ok_or_else(|| BackendError::Failed {
            backend: self.registry_name.into(),
            reason: "optimize called on a model without an objective".into(),
        })?;
        if self.relax {
            // An integral optimal vertex of the LP relaxation is an optimal 0-1 solution.
            let report = self.solve_relaxation(model, start)?;
            return Ok(match report.found {
                Found::Solution(s) => {
                    let value = objective.value(&s.ones);
                    OptimizeReport::optimal(s, value, report.stats)
                }
                found => OptimizeReport::without_solution(found, report.stats),
            });
        }
        // Presolve keeps every solution (fixings hold in all of them), so the optimum of the
        // reduced model, lifted, is the model's; the fixed ones add a constant the exact
        // value of the lifted solution includes.
        let deadline = self.time_limit.and_then(|t| start.checked_add(t));
        let presolved = presolve(model, self.presolve, deadline)?;
        let reduction = &presolved.reduction;
        let formulation = Formulation::new(&reduction.model);
        let result = self.solve_reduced(reduction, &formulation, &[], deadline)?;
        let mut stats = self.milp_stats(start, &presolved, &formulation);
        stats.solutions = matches!(result, Ok(Some(_))) as u64;
        Ok(match result {
            Ok(Some((s, true))) => {
                let value = objective.value(&s.ones);
                OptimizeReport::optimal(s, value, stats)
            }
            Ok(Some((s, false))) => OptimizeReport {
                value: Some(objective.value(&s.ones)),
                found: Found::Solution(s),
                proved: false,
                bound: None,
                stats,
            },
            Ok(None) => OptimizeReport::without_solution(Found::Infeasible, stats),
            Err(()) => OptimizeReport::without_solution(Found::TimedOut, stats),
        })
    }
}

impl Backend for Milp {
    fn name(&self) -> &'static str {
        self.registry_name
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        // An LP relaxation has no solutions to count.
        (!self.relax).then_some(self as &mut dyn Counter)
    }
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
    /// Every row kind: rows are linear constraints with their weights, relation and
    /// right-hand side (exact in `f64`: coefficients are at most 2^53).
    fn rows_supported(&self, _model: &Model) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, solve_verified, Status};
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

    fn milp(relax: bool) -> Milp {
        let mut o = BackendOptions::default();
        o.params.insert("relax".into(), relax.to_string());
        Milp::new(&o).unwrap()
    }

    /// The MILP backend with a time limit, made as the registry makes it.
    fn limited(t: Duration) -> Milp {
        let o = BackendOptions {
            time_limit: Some(t),
            ..BackendOptions::default()
        };
        Milp::new(&o).unwrap()
    }

    #[test]
    fn counts_bare_hex_and_queens_exactly() {
        // The bare width-5 hex board, against brute force.
        let mut m = milp(false);
        let hex = HexBoard::geometry(5).unwrap().to_model("h5");
        let c = count_verified(&mut m, &hex, None).unwrap();
        assert_eq!(c.status, Status::Solved);
        assert!(c.exhaustive);
        let mut brute = crate::backend::brute::BruteForce;
        let b = count_verified(&mut brute, &hex, None).unwrap();
        assert_eq!(c.count, b.count);
        let two = count_verified(&mut m, &hex, Some(2)).unwrap();
        assert_eq!((two.count, two.exhaustive), (2, false));
    }

    #[test]
    fn solves_a_sudoku_and_proves_a_clash_infeasible() {
        let mut m = milp(false);
        let line = "1...........2..3";
        let cells = line
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
            .collect();
        let model = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
        let out = solve_verified(&mut m, &model).unwrap();
        assert_eq!(out.status, Status::Solved, "{:?}", out.reason);
        // 2x2 Queens has no solution (every pair of cells touches).
        let out = solve_verified(&mut m, &QueensBoard::bare(2).to_model("q2")).unwrap();
        assert_eq!(out.status, Status::Infeasible);
    }

    #[test]
    fn relaxation_reports_integrality() {
        // A fully given Sudoku leaves nothing to relax: integral.
        let cells = "1234341221434321"
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
            .collect();
        let full = Sudoku::from_cells(2, cells).unwrap().to_model("f").unwrap();
        let r = lp_relaxation(&full, Engine::Microlp, None)
            .unwrap()
            .unwrap();
        assert!(r.feasible && r.integral && r.solution.is_some());
        // The odd triangle x0+x1 = x1+x2 = x0+x2 = 1 has only the LP point (1/2, 1/2, 1/2).
        let mut b = crate::model::ModelBuilder::new("tri", crate::model::PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), crate::model::Coord::Free);
        }
        let f = b.family("pair");
        for pair in [[0, 1], [1, 2], [0, 2]] {
            b.row(f, pair.to_vec(), Sense::ExactlyOne);
        }
        let tri = b.build().unwrap();
        let r = lp_relaxation(&tri, Engine::Microlp, None).unwrap().unwrap();
        assert!(r.feasible && !r.integral);
        assert_eq!(r.fractional, 3);
        let out = solve_verified(&mut milp(true), &tri).unwrap();
        assert_eq!(out.status, Status::Unknown);
        assert_eq!(out.stats.extra["lp_integral"], false);
        // The MILP proves the triangle has no 0-1 solution.
        let out = solve_verified(&mut milp(false), &tri).unwrap();
        assert_eq!(out.status, Status::Infeasible);
    }

    #[test]
    fn a_zero_time_limit_gives_timeout_not_an_answer() {
        let mut m = limited(Duration::ZERO);
        let model = Sudoku::empty(3).to_model("s9").unwrap();
        let out = solve_verified(&mut m, &model).unwrap();
        assert_eq!(out.status, Status::Timeout);
        let c = count_verified(&mut m, &model, Some(2)).unwrap();
        assert_eq!(c.status, Status::Limit);
        assert!(!c.exhaustive);
    }

    #[test]
    fn a_count_stops_at_the_time_limit_between_solves() {
        // 9x9 Sudoku grids are far too many to count: the limit must end the count.
        let mut m = limited(Duration::from_millis(300));
        let model = Sudoku::empty(3).to_model("s9").unwrap();
        let start = Instant::now();
        let c = count_verified(&mut m, &model, None).unwrap();
        assert_eq!(c.status, Status::Limit, "{:?}", c.reason);
        assert!(!c.exhaustive);
        assert!(start.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn bad_options_are_rejected() {
        let mut o = BackendOptions::default();
        o.params.insert("relax".into(), "maybe".into());
        assert!(matches!(
            Milp::new(&o),
            Err(BackendError::BadOption { ref key, .. }) if key == "relax"
        ));
    }

    #[test]
    fn non_binary_values_are_an_error() {
        assert!(to_solution(Engine::Microlp, &[0.0, 1.0, 0.5]).is_err());
        assert!(to_solution(Engine::Microlp, &[0.0, 2.0]).is_err());
        assert_eq!(
            to_solution(Engine::Microlp, &[1e-9, 1.0 - 1e-9])
                .unwrap()
                .ones,
            vec![1]
        );
    }

    /// OEIS A001499: n x n 0-1 matrices with two ones in every row and column.
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

    #[test]
    fn counts_and_solves_two_ones_per_row_and_column() {
        // A001499: 90 for n = 4 (counted with no-good cuts over the equality rows).
        let c = count_verified(&mut milp(false), &two_per_line(4), None).unwrap();
        assert_eq!((c.count, c.exhaustive, c.verified), (90, true, true));
        let out = solve_verified(&mut milp(false), &two_per_line(5)).unwrap();
        assert_eq!((out.status, out.verified), (Status::Solved, true));
    }

    #[test]
    fn at_least_and_weighted_rows_count_like_brute_force() {
        // ">= 3 of 5" (supersets of a solution are solutions: the cuts need the "- x" terms),
        // "<= 2" and a weighted equation with a given; brute force counts the same models.
        let mut b = ModelBuilder::new("mixed", PuzzleKind::Generic);
        let v: Vec<usize> = (0..7)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("min");
        b.row(f, v[..5].to_vec(), Sense::AtLeast(3));
        let g = b.family("max");
        b.row(g, v[3..].to_vec(), Sense::AtMost(2));
        let h = b.family("sum");
        b.weighted_row(h, v.clone(), vec![1, 2, 3, 4, 5, 6, 7], Sense::Exactly(14));
        b.given(v[1]);
        let m = b.build().unwrap();
        let brute = count_verified(&mut crate::backend::brute::BruteForce, &m, None).unwrap();
        let c = count_verified(&mut milp(false), &m, None).unwrap();
        assert_eq!((c.count, c.exhaustive), (brute.count, true));
        assert!(c.count > 1, "{}", c.count);
        // ">= 3 of 5" alone: C(5,3) + C(5,4) + C(5,5) = 16.
        let mut b = ModelBuilder::new("at-least", PuzzleKind::Generic);
        let v: Vec<usize> = (0..5)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("min");
        b.row(f, v, Sense::AtLeast(3));
        let c = count_verified(&mut milp(false), &b.build().unwrap(), None).unwrap();
        assert_eq!((c.count, c.exhaustive), (16, true));
    }
}

#[cfg(test)]
mod large_weights {
    use super::*;
    use crate::backend::brute::BruteForce;
    use crate::backend::{count_verified, solve_verified, Status};
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense, MAX_COEFFICIENT};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn milp(presolve: &str) -> Milp {
        let mut o = BackendOptions::default();
        o.params.insert("presolve".into(), presolve.into());
        Milp::new(&o).unwrap()
    }

    /// A random model of `n` variables whose weighted rows have weights near `2^53 / len`
    /// (so a row's total stays within the model's cap of 2^53), now and then mixed with small
    /// ones, and right-hand sides at or next to the sum of a random subset of the row.
    fn heavy_model(rng: &mut ChaCha8Rng, n: usize) -> Option<Model> {
        let mut b = ModelBuilder::new("heavy", PuzzleKind::Generic);
        let v: Vec<usize> = (0..n)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("heavy");
        for _ in 0..rng.gen_range(1..=3) {
            let mut row: Vec<usize> = v.iter().copied().filter(|_| rng.gen_bool(0.6)).collect();
            while row.len() < 2 {
                let x = v[rng.gen_range(0..n)];
                if !row.contains(&x) {
                    row.push(x);
                }
            }
            let top = MAX_COEFFICIENT / row.len() as u64;
            let weights: Vec<u64> = (row.iter())
                .map(|_| {
                    if rng.gen_bool(0.2) {
                        rng.gen_range(1..=1000)
                    } else {
                        top - rng.gen_range(0..1 << 20)
                    }
                })
                .collect();
            let picked: u64 = weights.iter().filter(|_| rng.gen_bool(0.5)).sum();
            let k = match rng.gen_range(0..3) {
                0 => picked.saturating_sub(1),
                1 => picked,
                _ => picked + 1,
            };
            let sense =
                [Sense::Exactly(k), Sense::AtMost(k), Sense::AtLeast(k)][rng.gen_range(0..3)];
            b.weighted_row(f, row, weights, sense);
        }
        if rng.gen_bool(0.2) {
            let g = v[rng.gen_range(0..n)];
            b.given(g);
        }
        // `None` when the builder refuses the given (it overfills a row).
        b.build().ok()
    }

    #[test]
    fn heavy_rows_count_like_brute_force() {
        // Before the rows were split into digits, microlp failed on many such models
        // ("integral solution failed feasibility validation"). Counted with and without
        // presolve, so the split rows reach the engine.
        let mut rng = ChaCha8Rng::seed_from_u64(53);
        let mut feasible = 0;
        for case in 0..60 {
            let model = loop {
                let n = rng.gen_range(3..=7);
                if let Some(m) = heavy_model(&mut rng, n) {
                    break m;
                }
            };
            let truth = count_verified(&mut BruteForce, &model, None).unwrap();
            feasible += (truth.count > 0) as usize;
            for level in ["off", "probe"] {
                let c = count_verified(&mut milp(level), &model, None).unwrap();
                assert_eq!(
                    (c.status, c.count, c.exhaustive),
                    (Status::Solved, truth.count, true),
                    "case {case}, presolve={level}: {:?} on {model:?}",
                    c.reason
                );
            }
        }
        assert!(feasible > 15, "{feasible} of 60 models have solutions");
    }

    #[test]
    fn the_issue_s_heavy_at_least_row_is_solved() {
        // 2^40 a + 1000 b >= 839735460986: a = 1 is needed and enough (two solutions).
        let mut b = ModelBuilder::new("issue-25", PuzzleKind::Generic);
        let a = b.variable("a", Coord::Free);
        let c = b.variable("b", Coord::Free);
        let f = b.family("w");
        b.weighted_row(
            f,
            vec![a, c],
            vec![1 << 40, 1000],
            Sense::AtLeast(839_735_460_986),
        );
        let model = b.build().unwrap();
        for level in ["off", "propagate", "probe"] {
            let out = solve_verified(&mut milp(level), &model).unwrap();
            assert_eq!(out.status, Status::Solved, "{level}: {:?}", out.reason);
            let c = count_verified(&mut milp(level), &model, None).unwrap();
            assert_eq!((c.count, c.exhaustive), (2, true), "{level}");
        }
    }
}
