//! [`prove_verified`]: a run with a proof log whose answer goes through the shared verifier,
//! as a worker of the harness runs it under `certify = true`. The proof is written here; it
//! is checked by the caller ([`super::check`], which runs an outside program).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::{prove_to_dir, Claim, ProofError, ProofFiles, ProofTask, ProvedRun};
use crate::backend::optimize::{verify_optimum, OptimizeReport};
use crate::backend::outcome::{CountOutcome, Found, Outcome, Stats, Status};
use crate::backend::{Backend, BackendError};
use crate::model::verify::Verifier;
use crate::model::Model;

/// The verified answer of a run with a proof log, in the shape of the ordinary runners'.
#[derive(Debug, Clone)]
pub enum ProvedAnswer {
    /// Solving or optimising (as [`crate::backend::solve_verified`] returns it).
    Solve(Outcome),
    /// Counting (as [`crate::backend::count_verified`] returns it).
    Count(CountOutcome),
}

/// A run with a proof log: its verified answer, what its proof claims, and the files.
#[derive(Debug, Clone)]
pub struct Proved {
    /// The answer, every solution in it verified.
    pub answer: ProvedAnswer,
    /// What the proof claims ([`Claim::Nothing`] when the run failed or stopped early).
    pub claim: Claim,
    /// The model as OPB.
    pub opb: PathBuf,
    /// The proof (absent when the run failed before writing it).
    pub pbp: PathBuf,
}

/// Why a run cannot log a proof: the backend has no proof log, or it refuses to log one for
/// this model (e.g. `xcc` on a model with unconstrained variables). The caller runs the
/// model without one.
#[derive(Debug, Clone, Error)]
#[error("{0}")]
pub struct NoProof(pub String);

/// Runs `task` on `model` with `backend`'s proof log, writing `DIR/NAME.opb` and
/// `DIR/NAME.pbp` (see [`prove_to_dir`]), and verifies the answer as the ordinary runners do:
/// the witness by the shared [`Verifier`], an optimum's value recomputed. A failure or panic
/// of the backend is an answer with status `error` and claim `nothing`; a backend that logs
/// no proof of this model is `Err` (nothing is left in `dir`). Cost: the run with logging,
/// the files, one verifier pass.
pub fn prove_verified(
    backend: &mut dyn Backend,
    model: &Model,
    task: ProofTask,
    dir: &Path,
    name: &str,
) -> Result<Proved, NoProof> {
    let reason = backend.no_prover_reason();
    let backend_name = backend.name().to_string();
    if let Err(rows) = backend.rows_supported(model) {
        return Err(NoProof(rows.to_string()));
    }
    let Some(prover) = backend.prover() else {
        return Err(NoProof(reason));
    };
    let stem = super::safe_file_name(name);
    let opb = dir.join(format!("{stem}.opb"));
    let pbp = dir.join(format!("{stem}.pbp"));
    let start = std::time::Instant::now();
    let ran = catch_unwind(AssertUnwindSafe(|| {
        prove_to_dir(prover, model, task, dir, name)
    }));
    let failed = |why: String| {
        let stats = Stats {
            seconds: start.elapsed().as_secs_f64(),
            ..Stats::default()
        };
        Ok(Proved {
            answer: failure(task, why, stats),
            claim: Claim::Nothing,
            opb: opb.clone(),
            pbp: pbp.clone(),
        })
    };
    match ran {
        Ok(Ok(files)) => Ok(verified(model, task, files)),
        Ok(Err(ProofError::Backend(e @ BackendError::TooLarge { .. }))) => {
            let _ = std::fs::remove_file(&opb);
            Err(NoProof(e.to_string()))
        }
        Ok(Err(e)) => failed(format!("{backend_name}: {e}")),
        Err(p) => failed(format!(
            "backend '{backend_name}' panicked while logging a proof: {}",
            crate::backend::verified::panic_text(p)
        )),
    }
}

/// An answer with status `error` and `why` for `task`.
fn failure(task: ProofTask, why: String, stats: Stats) -> ProvedAnswer {
    match task {
        ProofTask::Count | ProofTask::CountUpTo(_) => ProvedAnswer::Count(CountOutcome {
            status: Status::Error,
            count: 0u128.into(),
            exhaustive: false,
            verified: false,
            reason: Some(why),
            stats,
        }),
        _ => ProvedAnswer::Solve(Outcome {
            status: Status::Error,
            reason: Some(why),
            ..Outcome::empty(stats)
        }),
    }
}

/// The written proof's answer, verified.
fn verified(model: &Model, task: ProofTask, files: ProofFiles) -> Proved {
    let ProofFiles {
        opb,
        pbp,
        claim,
        run,
    } = files;
    let answer = match task {
        ProofTask::Solve => ProvedAnswer::Solve(solved(model, run)),
        ProofTask::Optimize => ProvedAnswer::Solve(optimised(model, run)),
        ProofTask::Count => ProvedAnswer::Count(counted(model, run, None)),
        ProofTask::CountUpTo(n) => ProvedAnswer::Count(counted(model, run, Some(n))),
    };
    Proved {
        answer,
        claim,
        opb,
        pbp,
    }
}

/// A solve: the witness verified, else infeasible (exhausted) or a timeout.
fn solved(model: &Model, run: ProvedRun) -> Outcome {
    let stats = run.stats;
    let unanswered = |status, reason: Option<&str>, stats| Outcome {
        status,
        reason: reason.map(str::to_string),
        ..Outcome::empty(stats)
    };
    match run.witness {
        Some(s) => match Verifier::new(model).check(&s) {
            Ok(()) => Outcome::solved(s, stats),
            Err(v) => Outcome {
                status: Status::Error,
                reason: Some(format!("answer rejected by the verifier: {v}")),
                ..Outcome::empty(stats)
            },
        },
        None if run.exhausted => unanswered(Status::Infeasible, None, stats),
        None => unanswered(Status::Timeout, Some("time limit reached"), stats),
    }
}

/// An optimisation: the best solution and its value (the proof's minimum, in the objective's
/// own sign) checked by [`verify_optimum`], proved optimal when the search was exhausted;
/// stopped, with or without a solution, with the bound the search proved.
fn optimised(model: &Model, run: ProvedRun) -> Outcome {
    let maximize = model.objective().is_some_and(|o| o.is_maximize());
    let sign = |v: i128| if maximize { -v } else { v };
    let value = run.min_value.map(sign);
    let bound = match run.exhausted {
        true => value,
        false => run.bound.map(sign),
    };
    let report = match run.witness {
        Some(s) => OptimizeReport {
            found: Found::Solution(s),
            value,
            proved: run.exhausted,
            bound,
            stats: run.stats,
        },
        None if run.exhausted => OptimizeReport::without_solution(Found::Infeasible, run.stats),
        None => OptimizeReport::stopped(Found::TimedOut, bound, run.stats),
    };
    verify_optimum(model, report)
}

/// A count: its first witness verified; complete when the search was exhausted, else stopped
/// at `limit` or by the time limit, with its partial count.
fn counted(model: &Model, run: ProvedRun, limit: Option<u64>) -> CountOutcome {
    let count = run.count.into();
    let witnesses: Vec<_> = run.witness.into_iter().collect();
    let base = CountOutcome {
        status: Status::Solved,
        count,
        exhaustive: run.exhausted,
        verified: !witnesses.is_empty(),
        reason: None,
        stats: run.stats,
    };
    if let Err(why) =
        crate::backend::verified::check_witnesses(model, &witnesses, &base.count, limit)
    {
        return CountOutcome {
            status: Status::Error,
            verified: false,
            reason: Some(why),
            ..base
        };
    }
    if run.exhausted {
        return base;
    }
    let why = match limit {
        Some(l) if run.count >= u128::from(l) => format!("stopped at the limit of {l}"),
        _ => "stopped before the count was complete (time limit)".into(),
    };
    CountOutcome {
        status: Status::Limit,
        reason: Some(why),
        ..base
    }
}
