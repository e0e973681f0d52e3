//! The MILP of a reduced model ([`Formulation`]): its LP rows, engine calls with retries on
//! perturbed copies, solutions read back, and the LP relaxation ([`lp_relaxation`]).

use super::{Engine, Relaxation, INTEGRALITY_TOLERANCE};
use crate::backend::linear::{linear_program, Column, LinearProgram};
use crate::backend::stop;
use crate::backend::BackendError;
use crate::model::verify::Verifier;
use crate::model::{Model, Relation, Solution};
use good_lp::solvers::{ResolutionError, Solution as _, SolverModel, WithTimeLimit};
use good_lp::{variable, Expression, ProblemVariables, Variable};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use std::time::{Duration, Instant};

/// One attempt's problem (see [`Formulation::build`]).
pub(super) struct Built {
    pub(super) vars: ProblemVariables,
    /// The model variables, by reduced id.
    pub(super) xs: Vec<Variable>,
    /// The creation index of each model variable (its engine column).
    pub(super) created: Vec<usize>,
    pub(super) rows: Vec<good_lp::Constraint>,
    pub(super) objective: Expression,
}

/// Why one engine call ended without a solution.
pub(super) enum Stop {
    Infeasible,
    TimeLimit,
}

/// How many times one MILP is tried before an internal solver error is reported: the model as
/// it is, then on perturbed copies (shuffled variables and rows, a random objective).
pub const ATTEMPTS: u32 = 3;

/// The MILP of a reduced model (a model without givens), built once per solve or count: its
/// LP rows (heavy rows divided and split, see [`crate::backend::linear`]), which variables sit
/// in an equation (for sparse no-good cuts) and a verifier of the reduced model.
pub(super) struct Formulation<'m> {
    pub(super) reduced: &'m Model,
    pub(super) lp: LinearProgram,
    /// Variables in some equality row `sum w x = k`: such a variable can never be added to a
    /// solution (weights are positive, so a superset of a solution puts more than `k` on that
    /// row). A no-good cut may leave them out: `sum_{ones} x <= ones - 1` is exact over
    /// covered variables and much sparser; uncovered ones keep the `- x` terms. Not so for
    /// `<=` rows (a subset may leave room) nor `>=` rows (a superset of a solution is one
    /// again).
    pub(super) covered: Vec<bool>,
    /// Checks an engine's rounded answer against the reduced model, so that an answer the
    /// engine got wrong is retried (the shared runner still verifies what is returned).
    pub(super) verifier: Verifier<'m>,
    /// Engine calls made (retries included).
    pub(super) calls: Cell<u64>,
    /// Engine calls beyond the first that solves needed (see [`ATTEMPTS`]).
    pub(super) retries: Cell<u64>,
}

impl<'m> Formulation<'m> {
    pub(super) fn new(reduced: &'m Model) -> Self {
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
    pub(super) fn build(&self, cuts: &[Vec<usize>], relax: bool, attempt: u32) -> Built {
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
    pub(super) fn cut(&self, ones: &[usize], xs: &[Variable]) -> good_lp::Constraint {
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
    pub(super) fn solve(
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
pub(super) fn finish<M: SolverModel<Error = ResolutionError> + WithTimeLimit>(
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
pub(super) fn to_solution(engine: Engine, values: &[f64]) -> Result<Solution, BackendError> {
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
