//! Every solution, one at a time: the optional [`SolutionStream`] ability and
//! [`solutions_verified`], which checks each solution before the caller sees it.
//!
//! `zeroone solve --all` and [`crate::testing`] use it to print or snapshot whole solution sets.
//! Cost: the backend's own enumeration, plus one verifier pass per solution (linear in the
//! model's nonzeros) and one copy of each solution kept to prove they are distinct (memory grows
//! with the number of solutions handed over: bound it with a limit).

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use crate::backend::{Backend, BackendError, Stats, Status};
use crate::model::{Model, Solution};
use crate::verify::Verifier;

/// The ability to hand every solution of a model to a callback, in the backend's search order.
/// The callback may stop the enumeration with `ControlFlow::Break`.
pub trait SolutionStream {
    /// Calls `found` once per solution of `model` (unverified: [`solutions_verified`] checks
    /// them). Returns how the enumeration ended.
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<StreamReport, BackendError>;
}

/// How a backend's enumeration ended, before verification.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamReport {
    /// Whether the enumeration went through the whole space (false: stopped by the callback or a
    /// time limit, or the backend is not exact, so more solutions may exist).
    pub exhaustive: bool,
    /// How the search went.
    pub stats: Stats,
}

/// The verified result of streaming every solution of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamOutcome {
    /// `solved` when at least one solution was found, `infeasible` when the whole space was
    /// searched without one, `unknown` when the search stopped early without one, `error` when a
    /// solution was rejected (or repeated) or the backend failed.
    pub status: Status,
    /// Solutions handed to the caller, each verified and distinct.
    pub count: u128,
    /// Whether every solution was handed over (the space was exhausted by an exact backend and
    /// no limit stopped it).
    pub exhaustive: bool,
    /// Why the status is `unknown` or `error`.
    pub reason: Option<String>,
    /// The backend's statistics.
    pub stats: Stats,
}

/// Streams the solutions of `model` from `backend`, verifying each one (and that none repeats)
/// before handing it to `each`; stops after `limit` solutions. A rejected solution ends the
/// stream with [`Status::Error`]; solutions handed over before it were verified. Panics inside
/// the backend become `error`; only a missing ability is `Err`.
pub fn solutions_verified(
    backend: &mut dyn Backend,
    model: &Model,
    limit: Option<u64>,
    each: &mut dyn FnMut(&Solution),
) -> Result<StreamOutcome, BackendError> {
    solutions_verified_where(backend, model, limit, &|_| true, each)
}

/// [`solutions_verified`] handing over (and counting towards `limit`) only the solutions
/// `keep` accepts; every solution met is still verified and checked for repeats.
pub(crate) fn solutions_verified_where(
    backend: &mut dyn Backend,
    model: &Model,
    limit: Option<u64>,
    keep: &dyn Fn(&Solution) -> bool,
    each: &mut dyn FnMut(&Solution),
) -> Result<StreamOutcome, BackendError> {
    let name = backend.name();
    backend
        .rows_supported(model)
        .map_err(|reason| BackendError::UnsupportedRows {
            backend: name.into(),
            reason,
        })?;
    let stream = backend
        .streamer()
        .ok_or_else(|| BackendError::Unsupported {
            backend: name.into(),
            ability: "enumerate every solution".into(),
        })?;
    let verifier = Verifier::new(model);
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    let mut rejected: Option<String> = None;
    let mut count = 0u128;
    let start = Instant::now();
    let result = if limit == Some(0) {
        Ok(Ok(StreamReport {
            exhaustive: false,
            stats: Stats::default(),
        }))
    } else {
        catch_unwind(AssertUnwindSafe(|| {
            stream.for_each_solution(model, &mut |s| {
                if let Err(v) = verifier.check(&s) {
                    rejected = Some(format!("solution rejected by the verifier: {v}"));
                    return ControlFlow::Break(());
                }
                if !seen.insert(s.ones.clone()) {
                    rejected = Some("the same solution was handed over twice".into());
                    return ControlFlow::Break(());
                }
                if !keep(&s) {
                    return ControlFlow::Continue(());
                }
                count += 1;
                each(&s);
                crate::backend::optimize::continue_below(limit, count)
            })
        }))
    };
    let elapsed = start.elapsed().as_secs_f64();
    let failed = |reason: String, stats: Stats| StreamOutcome {
        status: Status::Error,
        count,
        exhaustive: false,
        reason: Some(reason),
        stats,
    };
    let report = match result {
        Err(_) => {
            return Ok(failed(
                format!("backend '{name}' panicked"),
                Stats::default(),
            ))
        }
        Ok(Err(e)) => return Ok(failed(e.to_string(), Stats::default())),
        Ok(Ok(report)) => report,
    };
    let mut stats = report.stats;
    if stats.seconds == 0.0 {
        stats.seconds = elapsed;
    }
    if let Some(reason) = rejected {
        return Ok(failed(reason, stats));
    }
    let (status, reason) = match (count, report.exhaustive) {
        (0, true) => (Status::Infeasible, None),
        (0, false) => (
            Status::Unknown,
            Some("the search stopped before a solution".into()),
        ),
        _ => (Status::Solved, None),
    };
    Ok(StreamOutcome {
        status,
        count,
        exhaustive: report.exhaustive,
        reason,
        stats,
    })
}

/// Streaming on top of an [`Enumeration`](crate::backend::Enumeration): every solution goes to
/// `found` until it breaks. Shared by the backends that enumerate (brute force, SAT).
pub(crate) fn stream_by_enumeration(
    enumerate: &mut crate::backend::Enumeration<'_>,
    found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
) -> Result<StreamReport, BackendError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let (_, finished) = enumerate(&mut |s| found(s).is_continue(), &mut stats)?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(StreamReport {
        exhaustive: finished,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    /// A backend that streams a fixed list of answers, right or wrong.
    struct Replay(Vec<Vec<usize>>);

    impl SolutionStream for Replay {
        fn for_each_solution(
            &mut self,
            _model: &Model,
            found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
        ) -> Result<StreamReport, BackendError> {
            for ones in &self.0 {
                if found(Solution::new(ones.clone())).is_break() {
                    return Ok(StreamReport {
                        exhaustive: false,
                        stats: Stats::default(),
                    });
                }
            }
            Ok(StreamReport {
                exhaustive: true,
                stats: Stats::default(),
            })
        }
    }

    impl Backend for Replay {
        fn name(&self) -> &'static str {
            "replay"
        }
        fn solver(&mut self) -> Option<&mut dyn crate::backend::Solver> {
            None
        }
        fn streamer(&mut self) -> Option<&mut dyn SolutionStream> {
            Some(self)
        }
    }

    /// Exactly one of {x, y}: solutions {x} and {y}.
    fn either() -> Model {
        let mut b = ModelBuilder::new("either", PuzzleKind::Generic);
        let x = b.variable("x", Coord::Free);
        let y = b.variable("y", Coord::Free);
        let f = b.family("pick");
        b.row(f, vec![x, y], Sense::ExactlyOne);
        b.build().unwrap()
    }

    fn stream(answers: Vec<Vec<usize>>, limit: Option<u64>) -> (StreamOutcome, usize) {
        let mut handed = 0;
        let out = solutions_verified(&mut Replay(answers), &either(), limit, &mut |_| handed += 1)
            .unwrap();
        (out, handed)
    }

    #[test]
    fn right_answers_pass_and_a_limit_stops_the_stream() {
        let (out, handed) = stream(vec![vec![0], vec![1]], None);
        assert_eq!(
            (out.status, out.count, out.exhaustive, handed),
            (Status::Solved, 2, true, 2)
        );
        let (out, handed) = stream(vec![vec![0], vec![1]], Some(1));
        assert_eq!((out.count, out.exhaustive, handed), (1, false, 1));
    }

    #[test]
    fn a_wrong_or_repeated_answer_is_an_error_and_never_handed_over() {
        let (out, handed) = stream(vec![vec![0], vec![0, 1]], None);
        assert_eq!((out.status, handed), (Status::Error, 1));
        assert!(out.reason.unwrap().contains("rejected"));
        let (out, handed) = stream(vec![vec![1], vec![1]], None);
        assert_eq!((out.status, handed), (Status::Error, 1));
        assert!(out.reason.unwrap().contains("twice"));
    }

    #[test]
    fn an_empty_exhaustive_stream_is_infeasible() {
        let (out, _) = stream(vec![], None);
        assert_eq!((out.status, out.count), (Status::Infeasible, 0));
    }
}
