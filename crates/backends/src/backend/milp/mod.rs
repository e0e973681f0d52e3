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

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::backend::presolve::{presolve, PresolveLevel, Presolved};
use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, Found, LpVerdict,
    SolveReport, Solver, Stats, Undecided, WITNESS_LIMIT,
};
use crate::model::verify::Verifier;
use crate::model::{Model, Reduction, Solution};

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
                stats.relaxation = Some(LpVerdict {
                    feasible: r.feasible,
                    integral: r.integral,
                    fractional: Some(r.fractional),
                });
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

/// The share of the time limit the LP bound of a stopped optimisation may take after it.
const LP_BOUND_SHARE: u32 = 10;

/// The longest the LP bound of a stopped optimisation may take.
const LP_BOUND_MAX: Duration = Duration::from_secs(5);

impl Milp {
    /// A proved bound (the objective's own sign) for an optimisation the time limit stopped:
    /// the better of the search's combinatorial root bound
    /// ([`crate::backend::branch_bound::root_bound`], exact) and the LP relaxation's optimum
    /// `L`, solved after the stop within a tenth of the time limit (at most
    /// [`LP_BOUND_MAX`]; skipped without a time limit, i.e. when a stop request ended the
    /// run) and rounded to the safe side: `ceil(L - 1e-6 (1 + sum |c|))` in minimisation form
    /// (the optimum is an integer at least `L`; the margin covers the simplex's float error).
    /// `stats.extra.lp_bound` says whether the LP bound was used. Cost: one layout and bound
    /// evaluation, and at most one LP solve.
    fn stopped_bound(
        &self,
        model: &Model,
        objective: &crate::model::objective::Objective,
        stats: &mut Stats,
    ) -> i128 {
        let root = crate::backend::branch_bound::root_bound(model)
            .map(|b| objective.flip(b))
            .unwrap_or(i128::MIN);
        let budget = self
            .time_limit
            .map(|t| (t / LP_BOUND_SHARE).min(LP_BOUND_MAX));
        let lp = budget
            .and_then(|b| lp_relaxation(model, self.engine, Some(b)).ok().flatten())
            .filter(|r| r.feasible)
            .map(|r| {
                let costs = (0..model.num_variables()).map(|v| objective.min_cost(v) as f64);
                let value: f64 = costs.clone().zip(&r.values).map(|(c, x)| c * x).sum();
                let margin = 1e-6 * (1.0 + costs.map(f64::abs).sum::<f64>());
                (value - margin).ceil()
            })
            .filter(|b| b.is_finite() && b.abs() < 1e30)
            .map(|b| b as i128);
        stats.extra.insert("lp_bound".into(), lp.is_some().into());
        objective.flip(root.max(lp.unwrap_or(i128::MIN)))
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
            count: count.into(),
            end,
            witnesses,
            stats,
        })
    }
}

/// The native objective: the MILP minimises it (in minimisation form). Proved optimal when
/// the engine says so (microlp: no gap; HiGHS: absolute gap below 1, which is exact for integer
/// costs); a run the time limit stopped is `feasible` with its solution, `timeout` without
/// one, either way with a root bound: the better of
/// [`crate::backend::branch_bound::root_bound`] and the LP relaxation's optimum rounded to the
/// safe side (good_lp reports no dual bound of the open nodes). The claimed
/// value is the exact value of the solution returned (the engine's own objective is a float).
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
                Found::Infeasible => {
                    OptimizeReport::without_solution(Found::Infeasible, report.stats)
                }
                // A fractional vertex or a stop: the shared root bound still holds.
                found => OptimizeReport::stopped(
                    found,
                    crate::backend::branch_bound::root_bound(model),
                    report.stats,
                ),
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
                bound: Some(self.stopped_bound(model, objective, &mut stats)),
                stats,
            },
            Ok(None) => OptimizeReport::without_solution(Found::Infeasible, stats),
            Err(()) => {
                let bound = self.stopped_bound(model, objective, &mut stats);
                OptimizeReport::stopped(Found::TimedOut, Some(bound), stats)
            }
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
    fn rows_supported(&self, _model: &Model) -> Result<(), crate::backend::RowRefusal> {
        Ok(())
    }
}

mod formulation;
#[cfg(test)]
mod large_weights;
#[cfg(test)]
mod tests;

pub use formulation::{lp_relaxation, ATTEMPTS};
use formulation::{to_solution, Formulation, Stop};
