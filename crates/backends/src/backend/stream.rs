//! Every solution, one at a time: the optional [`SolutionStream`] ability (verified by
//! [`solutions_verified`](super::solutions_verified), which checks each solution before the
//! caller sees it), and the solve, count and stream abilities of the backends that enumerate
//! (brute force, SAT) built on one `Enumeration` (a search that hands each solution to a callback).
//!
//! `zeroone solve --all` and `zeroone::testing` use it to print or snapshot whole solution sets.
//! Cost: the backend's own enumeration, plus one verifier pass per solution (linear in the
//! model's nonzeros) and one copy of each solution kept to prove they are distinct (memory grows
//! with the number of solutions handed over: bound it with a limit).

use std::ops::ControlFlow;
use std::time::Instant;

use crate::backend::Count;
use crate::backend::{
    BackendError, CountEnd, CountReport, Found, SolveReport, Stats, Status, WITNESS_LIMIT,
};
use crate::model::{Model, Solution};

/// The ability to hand every solution of a model to a callback, in the backend's search order.
/// The callback may stop the enumeration with `ControlFlow::Break`.
pub trait SolutionStream {
    /// Calls `found` once per solution of `model` (unverified: [`solutions_verified`](super::solutions_verified) checks
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
    /// How it ended: `Complete` only when an exact backend went through the whole space
    /// (`AtLimit` when the callback stopped it).
    pub end: CountEnd,
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
    /// How the backend's enumeration ended (a limit, the time limit, its own reason); `None`
    /// when the backend failed or a solution was rejected. Tells a stream cut short by the
    /// caller's limit from one cut by the time limit (`solve --all` reports the difference).
    pub end: Option<CountEnd>,
    /// Why the status is `unknown` or `error`.
    pub reason: Option<String>,
    /// The backend's statistics.
    pub stats: Stats,
}

/// A search that calls `found` once per solution (returning `false` stops it), fills `stats`,
/// and returns how many solutions it met and whether it finished.
pub(crate) type Enumeration<'a> = dyn FnMut(&mut dyn FnMut(Solution) -> bool, &mut Stats) -> Result<(u128, bool), BackendError>
    + 'a;

/// Solving on top of an [`Enumeration`]: the first solution met, or `Infeasible` when the
/// search finishes without one. Shared by the backends that enumerate (brute force, SAT).
pub(crate) fn solve_by_enumeration(
    enumerate: &mut Enumeration<'_>,
) -> Result<SolveReport, BackendError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut first = None;
    enumerate(
        &mut |s| {
            first = Some(s);
            false
        },
        &mut stats,
    )?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(SolveReport {
        found: first.map_or(Found::Infeasible, Found::Solution),
        stats,
    })
}

/// Counting on top of an [`Enumeration`]: stops at `limit`, keeps the first
/// [`WITNESS_LIMIT`] solutions as witnesses.
pub(crate) fn count_by_enumeration(
    limit: Option<u64>,
    enumerate: &mut Enumeration<'_>,
) -> Result<CountReport, BackendError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    if limit == Some(0) {
        return Ok(CountReport {
            count: Count::zero(),
            end: CountEnd::AtLimit,
            witnesses: Vec::new(),
            stats,
        });
    }
    let mut witnesses = Vec::new();
    let mut seen = 0u64;
    let (count, finished) = enumerate(
        &mut |s| {
            seen += 1;
            if witnesses.len() < WITNESS_LIMIT {
                witnesses.push(s);
            }
            limit.is_none_or(|l| seen < l)
        },
        &mut stats,
    )?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(CountReport {
        count: count.into(),
        // Stopping exactly at the last solution still means we did not look further.
        end: if finished {
            CountEnd::Complete
        } else {
            CountEnd::AtLimit
        },
        witnesses,
        stats,
    })
}

/// Streaming on top of an [`Enumeration`]: every solution goes to
/// `found` until it breaks. Shared by the backends that enumerate (brute force, SAT).
pub(crate) fn stream_by_enumeration(
    enumerate: &mut Enumeration<'_>,
    found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
) -> Result<StreamReport, BackendError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let (_, finished) = enumerate(&mut |s| found(s).is_continue(), &mut stats)?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(StreamReport {
        end: if finished {
            CountEnd::Complete
        } else {
            CountEnd::AtLimit
        },
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{solutions_verified, Backend};
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
                        end: CountEnd::AtLimit,
                        stats: Stats::default(),
                    });
                }
            }
            Ok(StreamReport {
                end: CountEnd::Complete,
                stats: Stats::default(),
            })
        }
    }

    impl Backend for Replay {
        fn name(&self) -> &'static str {
            "replay"
        }
        fn rows_supported(&self, m: &Model) -> Result<(), crate::backend::RowRefusal> {
            crate::backend::exact_cover_only(m)
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
