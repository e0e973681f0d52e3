//! The verified runners: the only way an answer leaves the backend layer.
//!
//! One skeleton, `guarded`, runs any ability of a backend: it checks that the backend has the
//! ability, that it reads every row of the model, catches panics, and measures the time. The
//! three runners on top of it differ only in what they verify: [`solve_verified`] one solution,
//! [`count_verified`] the witnesses of a count, [`solutions_verified`] every streamed solution.
//! Each passes what it checks through the one shared [`Verifier`], and each decides the status
//! from the backend's typed report ([`Found`], [`CountEnd`]), never from a clock.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use super::outcome::{CountEnd, CountOutcome, Found, Outcome, Stats, Status};
use super::stream::{StreamOutcome, StreamReport};
use super::Count;
use super::{Backend, BackendError};
use crate::model::verify::Verifier;
use crate::model::{Model, Solution};

/// The abilities a runner can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ability {
    Solve,
    Count,
    Stream,
    Optimize,
}

impl Ability {
    /// What the ability is called in the message of a backend that lacks it.
    fn name(self) -> &'static str {
        match self {
            Ability::Solve => "solve",
            Ability::Count => "count",
            Ability::Stream => "enumerate every solution",
            Ability::Optimize => "optimise an objective",
        }
    }

    fn held_by(self, backend: &mut dyn Backend) -> bool {
        match self {
            Ability::Solve => backend.solver().is_some(),
            Ability::Count => backend.counter().is_some(),
            Ability::Stream => backend.streamer().is_some(),
            Ability::Optimize => backend.optimizer().is_some(),
        }
    }
}

/// A run that did not reach a report: the status it ends in and why.
struct Failure {
    status: Status,
    reason: String,
}

/// What [`guarded`] hands back: the backend's report (or its failure) and the wall time.
struct Guarded<R> {
    report: Result<R, Failure>,
    seconds: f64,
}

/// The status of a backend that returned `e`: `unsupported` when it refuses the model (too
/// large for it, rows it does not read), `unknown` when it was stopped from outside, `error`
/// otherwise.
fn status_of_error(e: &BackendError) -> Status {
    match e {
        BackendError::TooLarge { .. }
        | BackendError::Unsupported { .. }
        | BackendError::UnsupportedRows { .. } => Status::Unsupported,
        BackendError::Stopped { .. } => Status::Unknown,
        _ => Status::Error,
    }
}

pub(crate) fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

/// The shared skeleton of the runners: refuses (as `Err`) a backend without `ability`, then
/// runs `call` with panics caught, after checking that the backend reads every row of `model`
/// (a row it cannot read is `unsupported`, never a wrong answer). Cost: one scan of the row
/// senses, then the call.
fn guarded<R>(
    backend: &mut dyn Backend,
    model: &Model,
    ability: Ability,
    call: impl FnOnce(&mut dyn Backend) -> Option<Result<R, BackendError>>,
) -> Result<Guarded<R>, BackendError> {
    let name = backend.name();
    let unsupported = || BackendError::Unsupported {
        backend: name.into(),
        ability: ability.name().into(),
    };
    if !ability.held_by(backend) {
        return Err(unsupported());
    }
    let rows = backend.rows_supported(model);
    if let Some(reason) = projection_refusal(model, ability) {
        return Ok(Guarded {
            report: Err(Failure {
                status: Status::Unsupported,
                reason,
            }),
            seconds: 0.0,
        });
    }
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        rows.map_err(|reason| BackendError::UnsupportedRows {
            backend: name.into(),
            reason: Box::new(reason),
        })?;
        call(backend).unwrap_or_else(|| Err(unsupported()))
    }));
    let report = match result {
        Err(p) => Err(Failure {
            status: Status::Error,
            reason: format!("backend '{name}' panicked: {}", panic_text(p)),
        }),
        Ok(Err(e)) => Err(Failure {
            status: status_of_error(&e),
            reason: e.to_string(),
        }),
        Ok(Ok(r)) => Ok(r),
    };
    Ok(Guarded {
        report,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Why `ability` is refused on `model` when the model's count is projected onto some of its
/// variables (a CNF file's `c p show` lines): every backend counts over all of them, which
/// would answer another question. Solving, optimising and listing solutions (each an
/// assignment of every variable, verified as such) are not affected.
fn projection_refusal(model: &Model, ability: Ability) -> Option<String> {
    let shown = model.count_projection()?;
    if ability != Ability::Count {
        return None;
    }
    Some(format!(
        "the model's count is projected onto {} of its {} variables (`c p show` lines): zeroone \
         counts solutions over every variable, so it refuses this rather than answer over the \
         wrong ones; count it with a projected model counter (Ganak, d4), or drop the `c p \
         show` lines to count over all variables",
        shown.len(),
        model.own_variables()
    ))
}

/// `stats` with the measured `seconds` when the backend left its own time at zero.
fn timed(mut stats: Stats, seconds: f64) -> Stats {
    if stats.seconds == 0.0 {
        stats.seconds = seconds;
    }
    stats
}

/// Runs `backend`'s solver on `model` and verifies its answer. Errors and panics inside the
/// backend become [`Status::Error`] (a model too large for the backend, or rows it does not
/// read: [`Status::Unsupported`]); a stop at the backend's own time limit is
/// [`Status::Timeout`]; only a missing ability is returned as `Err`. Cost: the backend's solve
/// plus one verifier pass (linear in the model's nonzeros).
///
/// ```
/// use zeroone::backend::{make_backend, solve_verified, BackendOptions, Status};
/// use zeroone::puzzle::parse::{parse_str, Format};
///
/// let puzzles = parse_str("1.3.3.1.2.4.4.2.\n", Format::Sudoku, "inline").unwrap();
/// let model = puzzles[0].to_model("4x4").unwrap();
/// let mut backend = make_backend("bitset", &BackendOptions::default()).unwrap();
/// let outcome = solve_verified(backend.as_mut(), &model).unwrap();
/// assert_eq!(outcome.status, Status::Solved);
/// // Only a verified solution is ever handed back.
/// assert!(outcome.verified && outcome.solution.is_some());
/// ```
pub fn solve_verified(backend: &mut dyn Backend, model: &Model) -> Result<Outcome, BackendError> {
    if model.objective().is_some() {
        return Ok(optimize_verified(backend, model));
    }
    let run = guarded(backend, model, Ability::Solve, |b| {
        b.solver().map(|s| s.solve(model))
    })?;
    let unanswered = |status: Status, reason: Option<String>, stats: Stats| Outcome {
        status,
        reason,
        ..Outcome::empty(stats)
    };
    let report = match run.report {
        Err(f) => {
            return Ok(unanswered(
                f.status,
                Some(f.reason),
                timed(Stats::default(), run.seconds),
            ))
        }
        Ok(r) => r,
    };
    let stats = timed(report.stats, run.seconds);
    Ok(match report.found {
        Found::Solution(s) => match Verifier::new(model).check(&s) {
            Ok(()) => Outcome::solved(s, stats),
            Err(v) => unanswered(
                Status::Error,
                Some(format!("answer rejected by the verifier: {v}")),
                stats,
            ),
        },
        Found::Infeasible => unanswered(Status::Infeasible, None, stats),
        Found::TimedOut => unanswered(Status::Timeout, Some("time limit reached".into()), stats),
        Found::Undecided(why) => unanswered(Status::Unknown, Some(why.to_string()), stats),
    })
}

/// [`solve_verified`] on a model with an objective: the backend's optimizer, or `unsupported`
/// with the backend's reason when it has none; its report checked by
/// [`verify_optimum`](super::optimize::verify_optimum) (the claimed value recomputed).
fn optimize_verified(backend: &mut dyn Backend, model: &Model) -> Outcome {
    if backend.optimizer().is_none() {
        return Outcome {
            status: Status::Unsupported,
            reason: Some(format!(
                "backend '{}' cannot optimise an objective: {}",
                backend.name(),
                backend.no_optimizer_reason()
            )),
            ..Outcome::empty(Stats::default())
        };
    }
    let run = match guarded(backend, model, Ability::Optimize, |b| {
        b.optimizer().map(|o| o.optimize(model))
    }) {
        Ok(run) => run,
        Err(e) => {
            return Outcome {
                status: Status::Unsupported,
                reason: Some(e.to_string()),
                ..Outcome::empty(Stats::default())
            }
        }
    };
    match run.report {
        Err(f) => Outcome {
            status: f.status,
            reason: Some(f.reason),
            ..Outcome::empty(timed(Stats::default(), run.seconds))
        },
        Ok(mut report) => {
            report.stats = timed(report.stats, run.seconds);
            super::optimize::verify_optimum(model, report)
        }
    }
}

/// Runs `backend`'s counter on `model` and verifies every witness it returns (and that they are
/// distinct). A count that stopped at `limit` or at the backend's time limit is
/// [`Status::Limit`] with its partial count; one the backend could not complete for reasons of
/// its own (an approximate engine) is [`Status::Unknown`], the count kept. Errors and panics
/// become [`Status::Error`] (too large for the backend: [`Status::Unsupported`]); only a missing
/// ability is `Err`. Cost: the backend's count plus one verifier pass per witness (at most
/// [`WITNESS_LIMIT`](super::WITNESS_LIMIT)).
///
/// ```
/// use zeroone::backend::{count_verified, make_backend, BackendOptions};
/// use zeroone::puzzle::HexBoard;
///
/// // The seed's headline figure: 244 placements obey all three axes on the width-9 board.
/// let model = HexBoard::geometry(9).unwrap().to_model("hex-9");
/// let mut dp = make_backend("dp", &BackendOptions::default()).unwrap();
/// let counted = count_verified(dp.as_mut(), &model, None).unwrap();
/// assert_eq!(counted.count, 244u128);
/// assert!(counted.exhaustive);
/// ```
pub fn count_verified(
    backend: &mut dyn Backend,
    model: &Model,
    limit: Option<u64>,
) -> Result<CountOutcome, BackendError> {
    let run = guarded(backend, model, Ability::Count, |b| {
        b.counter().map(|c| c.count(model, limit))
    })?;
    let failed = |status: Status, reason: String, stats: Stats| CountOutcome {
        status,
        count: Count::zero(),
        exhaustive: false,
        verified: false,
        reason: Some(reason),
        stats,
    };
    let report = match run.report {
        Err(f) => {
            return Ok(failed(
                f.status,
                f.reason,
                timed(Stats::default(), run.seconds),
            ))
        }
        Ok(r) => r,
    };
    let stats = timed(report.stats, run.seconds);
    if let Err(reason) = check_witnesses(model, &report.witnesses, &report.count, limit) {
        return Ok(failed(Status::Error, reason, stats));
    }
    let (status, reason) = match &report.end {
        CountEnd::Complete => (Status::Solved, None),
        CountEnd::AtLimit => (
            Status::Limit,
            Some(match limit {
                Some(l) => format!("stopped at the limit of {l}"),
                None => "stopped at a limit".to_string(),
            }),
        ),
        CountEnd::TimedOut => (
            Status::Limit,
            Some("stopped before the count was complete (time limit)".to_string()),
        ),
        CountEnd::Undecided(why) => (Status::Unknown, Some(why.to_string())),
    };
    Ok(CountOutcome {
        status,
        count: report.count,
        exhaustive: report.end.is_complete(),
        verified: !report.witnesses.is_empty(),
        reason,
        stats,
    })
}

/// `Err(reason)` unless every witness passes the verifier, no witness repeats, there are no
/// more witnesses than the count, and the count is within `limit`.
pub(crate) fn check_witnesses(
    model: &Model,
    witnesses: &[Solution],
    count: &Count,
    limit: Option<u64>,
) -> Result<(), String> {
    let verifier = Verifier::new(model);
    let mut seen = std::collections::HashSet::new();
    for w in witnesses {
        verifier
            .check(w)
            .map_err(|v| format!("witness rejected by the verifier: {v}"))?;
        if !seen.insert(w) {
            return Err("the same solution was counted twice".into());
        }
    }
    if *count < witnesses.len() as u128 {
        return Err(format!(
            "{} witnesses for a count of {count}",
            witnesses.len()
        ));
    }
    match limit {
        Some(l) if *count > u128::from(l) => Err(format!("counted {count} past the limit {l}")),
        _ => Ok(()),
    }
}

/// Streams the solutions of `model` from `backend`, verifying each one (and that none repeats)
/// before handing it to `each`; stops after `limit` solutions. A rejected solution ends the
/// stream with [`Status::Error`]; solutions handed over before it were verified. Panics inside
/// the backend become `error`, rows it does not read `unsupported`; only a missing ability is
/// `Err`. Cost: the backend's enumeration, one verifier pass per solution, and one copy of each
/// solution kept to prove they are distinct (bound it with `limit`).
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
    let verifier = Verifier::new(model);
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    let mut rejected: Option<String> = None;
    let mut count = 0u128;
    let run = guarded(backend, model, Ability::Stream, |b| {
        let stream = b.streamer()?;
        if limit == Some(0) {
            return Some(Ok(StreamReport {
                end: CountEnd::AtLimit,
                stats: Stats::default(),
            }));
        }
        Some(stream.for_each_solution(model, &mut |s| {
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
            super::optimize::continue_below(limit, count)
        }))
    })?;
    let failed = |status: Status, reason: String, stats: Stats| StreamOutcome {
        status,
        count,
        exhaustive: false,
        end: None,
        reason: Some(reason),
        stats,
    };
    let report = match run.report {
        Err(f) => {
            return Ok(failed(
                f.status,
                f.reason,
                timed(Stats::default(), run.seconds),
            ))
        }
        Ok(r) => r,
    };
    let stats = timed(report.stats, run.seconds);
    if let Some(reason) = rejected {
        return Ok(failed(Status::Error, reason, stats));
    }
    let (status, reason) = match (count, &report.end) {
        (0, CountEnd::Complete) => (Status::Infeasible, None),
        (0, CountEnd::TimedOut) => (Status::Timeout, Some("time limit reached".into())),
        (0, CountEnd::Undecided(why)) => (Status::Unknown, Some(why.to_string())),
        (0, CountEnd::AtLimit) => (
            Status::Unknown,
            Some("the search stopped before a solution".into()),
        ),
        _ => (Status::Solved, None),
    };
    Ok(StreamOutcome {
        status,
        count,
        exhaustive: report.end.is_complete(),
        end: Some(report.end),
        reason,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{make_backend, BackendOptions};
    use zeroone_model::read::{cnf, read_str};

    #[test]
    fn a_projected_count_is_refused_by_every_counter_but_the_model_still_solves_and_lists() {
        // x1 or x2, shown: x1. Over all variables 3 solutions, projected onto x1 only 2.
        let text = "p cnf 2 1\nc p show 1 0\n1 2 0\n";
        let projected = read_str(cnf::FORMAT, text, "p").unwrap();
        let whole = read_str(cnf::FORMAT, "p cnf 2 1\n1 2 0\n", "w").unwrap();
        for name in ["auto", "xcc", "bitset", "brute"] {
            let mut b = make_backend(name, &BackendOptions::default()).unwrap();
            let out = count_verified(b.as_mut(), &projected, None).unwrap();
            assert_eq!(out.status, Status::Unsupported, "{name}");
            let reason = out.reason.unwrap_or_default();
            assert!(
                reason.contains("projected onto 1 of its 2 variables"),
                "{reason}"
            );
            assert!(reason.contains("c p show"), "{reason}");
            // Listing goes on: each solution is an assignment of every variable.
            if b.streamer().is_some() {
                let listed = solutions_verified(b.as_mut(), &projected, None, &mut |_| {});
                assert_eq!(listed.unwrap().count, 3, "{name}");
            }
            let solved = solve_verified(b.as_mut(), &projected).unwrap();
            assert_eq!(solved.status, Status::Solved, "{name}");
            assert!(solved.verified);
            let out = count_verified(b.as_mut(), &whole, None).unwrap();
            assert_eq!(out.count.to_u128(), Some(3), "{name}");
        }
    }
}
