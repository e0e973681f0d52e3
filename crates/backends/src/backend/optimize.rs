//! Optimisation: the optional [`Optimizer`] ability, and the verification of what it returns.
//!
//! On a model with an objective, [`crate::backend::solve_verified`] asks the backend's
//! optimizer instead of its solver. The answer is checked twice: the solution by the shared
//! [`Verifier`] (every row, every given), and the value the backend *claims* for it against the
//! value the verifier recomputes exactly ([`Verifier::objective_value`]). A claim that differs,
//! or a solution better than the bound the backend claims to have proved, is
//! [`Status::Error`], never [`Status::Optimal`]. A backend without the ability is
//! [`Status::Unsupported`], with its own reason ([`crate::backend::Backend::no_optimizer_reason`]).
//!
//! [`optimal_solutions_verified`] lists every optimal solution (`solve --all`, `count
//! --optimal`): the optimum first, then the backend's stream of solutions, verified, kept when
//! their value is the optimum. Cost: one optimisation plus one full enumeration.

use std::ops::ControlFlow;

use crate::backend::{BackendError, Found, Outcome, Stats, Status, Undecided};
use crate::model::verify::Verifier;
use crate::model::{Model, Solution};

pub use super::optimal::{optimal_solutions_verified, solutions_within_verified};

/// The ability to find a solution that is optimal for the model's objective.
pub trait Optimizer {
    /// Looks for an optimal solution of `model`, which has an objective. The report's solution
    /// is checked by the caller, its claimed value recomputed; an `Err` is [`Status::Error`] (or
    /// `unsupported` for a model too large).
    fn optimize(&mut self, model: &Model) -> Result<OptimizeReport, BackendError>;
}

/// An optimizer's raw report, before verification.
#[derive(Debug, Clone, PartialEq)]
pub struct OptimizeReport {
    /// The best solution found (`Found::Solution`), or a proof that there is none, or why the
    /// backend stopped without a solution.
    pub found: Found,
    /// The objective value the backend claims for its solution (in the objective's own sign).
    pub value: Option<i128>,
    /// Whether the backend proved the solution optimal (its search finished).
    pub proved: bool,
    /// A bound on the optimum the backend proved (a lower bound when minimising, an upper bound
    /// when maximising), when it knows one, with a solution or without (a run stopped before
    /// its first one); equal to `value` once proved.
    pub bound: Option<i128>,
    /// How the search went.
    pub stats: Stats,
}

impl OptimizeReport {
    /// A report of `found` with no claim about values (infeasible, or no solution yet).
    pub fn without_solution(found: Found, stats: Stats) -> OptimizeReport {
        OptimizeReport {
            found,
            value: None,
            proved: false,
            bound: None,
            stats,
        }
    }

    /// A run stopped before its first solution (`found` is [`Found::TimedOut`] or
    /// [`Found::Undecided`]) that still proved `bound` on the optimum (objective's own sign):
    /// the bound is kept, so the answer says how good any solution can be.
    pub fn stopped(found: Found, bound: Option<i128>, stats: Stats) -> OptimizeReport {
        OptimizeReport {
            bound,
            ..OptimizeReport::without_solution(found, stats)
        }
    }

    /// A proved optimum: `solution` with the value `value` the backend computed.
    pub fn optimal(solution: Solution, value: i128, stats: Stats) -> OptimizeReport {
        OptimizeReport {
            found: Found::Solution(solution),
            value: Some(value),
            proved: true,
            bound: Some(value),
            stats,
        }
    }
}

/// The verified outcome of an optimizer's report (see the module docs). Cost: one verifier pass
/// and one pass over the solution's ones.
pub(crate) fn verify_optimum(model: &Model, report: OptimizeReport) -> Outcome {
    let OptimizeReport {
        found,
        value,
        proved,
        bound,
        stats,
    } = report;
    let error = |reason: String, stats: Stats| Outcome {
        status: Status::Error,
        reason: Some(reason),
        ..Outcome::empty(stats)
    };
    let Some(objective) = model.objective() else {
        return error(
            "an optimizer ran on a model without an objective".into(),
            stats,
        );
    };
    let solution = match found {
        Found::Solution(s) => s,
        Found::Infeasible => {
            return Outcome {
                status: Status::Infeasible,
                ..Outcome::empty(stats)
            }
        }
        // Stopped before a solution: the bound the backend proved is kept (there is no value
        // to check it against, and no gap).
        Found::TimedOut => {
            return Outcome {
                status: Status::Timeout,
                reason: Some("time limit reached before a solution".into()),
                bound,
                ..Outcome::empty(stats)
            }
        }
        Found::Undecided(why) => {
            return Outcome {
                status: Status::Unknown,
                reason: Some(why.to_string()),
                bound,
                ..Outcome::empty(stats)
            }
        }
    };
    let verifier = Verifier::new(model);
    if let Err(v) = verifier.check(&solution) {
        return error(format!("answer rejected by the verifier: {v}"), stats);
    }
    let actual = verifier.objective_value(&solution).unwrap_or_default();
    match value {
        Some(claimed) if claimed != actual => {
            return error(
                format!(
                    "the backend claims objective {claimed}, but its solution's value is {actual}"
                ),
                stats,
            )
        }
        None => {
            return error(
                "the backend gave no objective value for its solution".into(),
                stats,
            )
        }
        _ => {}
    }
    if let Some(b) = bound {
        if objective.better(actual, b) || (proved && b != actual) {
            return error(
                format!("the backend claims the bound {b}, but its solution's value is {actual}"),
                stats,
            );
        }
    }
    let at_gap = stats.extra.get("stopped_at_gap") == Some(&true.into());
    let reason = match (proved, at_gap) {
        (true, _) => None,
        (false, true) => Some("stopped at the gap tolerance with a solution in hand".to_string()),
        (false, false) => Some("stopped at the limit with a solution in hand".to_string()),
    };
    Outcome {
        status: if proved {
            Status::Optimal
        } else {
            Status::Feasible
        },
        solution: Some(solution),
        verified: true,
        reason,
        objective: Some(actual),
        bound: if proved { Some(actual) } else { bound },
        stats,
    }
}

/// Optimisation on top of an [`Enumeration`](crate::backend::Enumeration): every solution is
/// valued, the first of the best value (in enumeration order: stable ties) is kept. Proved when
/// the enumeration finishes; stopped, the bound is the shared root bound
/// ([`crate::backend::branch_bound::root_bound`]). Cost: the enumeration plus one valuation
/// per solution.
pub(crate) fn optimize_by_enumeration(
    model: &Model,
    enumerate: &mut crate::backend::Enumeration<'_>,
) -> Result<OptimizeReport, BackendError> {
    let start = std::time::Instant::now();
    let objective = model.objective().ok_or_else(|| BackendError::Failed {
        backend: "optimize".into(),
        reason: "the model has no objective".into(),
    })?;
    let mut stats = Stats::default();
    let mut best: Option<(i128, Solution)> = None;
    let (_, finished) = enumerate(
        &mut |s| {
            let value = objective.value(&s.ones);
            if best
                .as_ref()
                .is_none_or(|(b, _)| objective.better(value, *b))
            {
                best = Some((value, s));
            }
            true
        },
        &mut stats,
    )?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(match best {
        Some((value, s)) if finished => OptimizeReport::optimal(s, value, stats),
        Some((value, s)) => OptimizeReport {
            found: Found::Solution(s),
            value: Some(value),
            proved: false,
            bound: crate::backend::branch_bound::root_bound(model),
            stats,
        },
        None if finished => OptimizeReport::without_solution(Found::Infeasible, stats),
        None => OptimizeReport::without_solution(Found::Undecided(Undecided::Stopped), stats),
    })
}

/// The control value a stream callback returns after `count` kept solutions under `limit`.
pub(crate) fn continue_below(limit: Option<u64>, count: u128) -> ControlFlow<()> {
    if limit.is_some_and(|l| count >= l as u128) {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::backend::Solver;
    use crate::model::{Coord, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};

    /// Exactly one of {x, y, z}, minimise 3x + 1y + 2z: the optimum is {y}, value 1.
    fn pick_one() -> Model {
        let mut b = ModelBuilder::new("pick", PuzzleKind::Generic);
        let v: Vec<_> = ["x", "y", "z"]
            .iter()
            .map(|l| b.variable(*l, Coord::Free))
            .collect();
        let f = b.family("one");
        b.row(f, v.clone(), Sense::ExactlyOne);
        b.objective(ObjectiveSense::Minimize, vec![(0, 3), (1, 1), (2, 2)]);
        b.build().unwrap()
    }

    /// A backend that returns a fixed report, right or wrong.
    struct Liar(OptimizeReport);

    impl Optimizer for Liar {
        fn optimize(&mut self, _model: &Model) -> Result<OptimizeReport, BackendError> {
            Ok(self.0.clone())
        }
    }

    impl Solver for Liar {
        fn solve(&mut self, _m: &Model) -> Result<crate::backend::SolveReport, BackendError> {
            unreachable!("a model with an objective goes to the optimizer")
        }
    }

    impl Backend for Liar {
        fn name(&self) -> &'static str {
            "liar"
        }
        fn rows_supported(&self, m: &Model) -> Result<(), crate::backend::RowRefusal> {
            crate::backend::exact_cover_only(m)
        }
        fn solver(&mut self) -> Option<&mut dyn Solver> {
            Some(self)
        }
        fn optimizer(&mut self) -> Option<&mut dyn Optimizer> {
            Some(self)
        }
    }

    fn run(report: OptimizeReport) -> Outcome {
        crate::backend::solve_verified(&mut Liar(report), &pick_one()).unwrap()
    }

    fn claim(ones: Vec<usize>, value: i128, proved: bool, bound: Option<i128>) -> OptimizeReport {
        OptimizeReport {
            found: Found::Solution(Solution::new(ones)),
            value: Some(value),
            proved,
            bound,
            stats: Stats::default(),
        }
    }

    #[test]
    fn a_true_claim_is_optimal_and_a_stopped_search_is_feasible() {
        let out = run(claim(vec![1], 1, true, Some(1)));
        assert_eq!(
            (out.status, out.objective, out.bound),
            (Status::Optimal, Some(1), Some(1))
        );
        let out = run(claim(vec![2], 2, false, Some(1)));
        assert_eq!(
            (out.status, out.objective, out.bound),
            (Status::Feasible, Some(2), Some(1))
        );
        assert_eq!(out.gap(), Some(0.5));
    }

    #[test]
    fn a_run_stopped_before_a_solution_keeps_its_bound_and_has_no_gap() {
        for (found, status) in [
            (Found::TimedOut, Status::Timeout),
            (Found::Undecided(Undecided::Stopped), Status::Unknown),
        ] {
            let out = run(OptimizeReport::stopped(found, Some(1), Stats::default()));
            assert_eq!((out.status, out.bound), (status, Some(1)));
            assert_eq!(
                (out.objective, out.gap(), out.gap_ratio()),
                (None, None, None)
            );
            assert!(out.solution.is_none() && !out.verified);
        }
        let out = run(OptimizeReport::without_solution(
            Found::TimedOut,
            Stats::default(),
        ));
        assert_eq!((out.status, out.bound), (Status::Timeout, None));
    }

    #[test]
    fn a_lying_backend_is_an_error_never_optimal() {
        // Claims value 1 for {x}, whose value is 3.
        let out = run(claim(vec![0], 1, true, Some(1)));
        assert_eq!(out.status, Status::Error);
        assert!(out.reason.unwrap().contains("claims objective 1"));
        assert!(out.solution.is_none() && out.objective.is_none());
        // Claims its solution {x} = 3 is optimal, with a bound of 3 it cannot have: {y} = 1 is
        // better. The verifier alone cannot see that ({x} is feasible, its value is right);
        // the conformance tests against brute force do. Here: a bound better than the
        // solution on a proved claim is refused.
        let out = run(claim(vec![0], 3, true, Some(1)));
        assert_eq!(out.status, Status::Error);
        // A solution better than the bound the backend claims to have proved.
        let out = run(claim(vec![1], 1, false, Some(2)));
        assert_eq!(out.status, Status::Error);
        // An infeasible "optimum" is rejected by the row check.
        let out = run(claim(vec![0, 1], 4, true, Some(4)));
        assert_eq!(out.status, Status::Error);
        assert!(out.reason.unwrap().contains("verifier"));
    }
}
