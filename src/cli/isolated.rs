//! `solve` and `count` under `--time-limit` / `--memory-limit`: each puzzle runs in a worker
//! process ([`zeroone::backend::worker`]) so every backend honours the limits the same way: a backend
//! that can stop itself does so at the limit; one that cannot is killed after the limit and a
//! grace, and the outcome says so (`timeout`, with the reason). Without either limit the puzzle
//! runs in this process, as before.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use zeroone::backend::worker::{Job, JobTask, Limits, RunResult, WorkerPool};
use zeroone::backend::{
    count_verified, solve_verified, Backend, BackendError, Count, CountOutcome, Outcome,
};
use zeroone::model::Model;

use super::backend_args::BackendArgs;
use super::CliError;

/// The workers of this command (one pool per process: the limits are the command line's).
static POOL: OnceLock<Result<WorkerPool, String>> = OnceLock::new();

fn pool(args: &BackendArgs) -> Result<&'static WorkerPool, CliError> {
    POOL.get_or_init(|| {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find zeroone: {e}"))?;
        if let Some(mb) = args.memory_limit {
            zeroone::backend::worker::check_memory_limit(&exe, mb).map_err(|min| {
                format!(
                    "--memory-limit {mb}: a worker process needs at least {min} MB of address \
                     space to start; give {min} or more"
                )
            })?;
        }
        Ok(WorkerPool::new(
            exe,
            Limits {
                memory_mb: args.memory_limit,
            },
        ))
    })
    .as_ref()
    .map_err(|e| {
        if e.starts_with("--memory-limit") {
            CliError::BadInput(e.clone())
        } else {
            CliError::Failed(e.clone())
        }
    })
}

/// A missing ability is bad input (exit 2), as in this process.
fn missing(backend: &dyn Backend, ability: &str) -> CliError {
    CliError::BadInput(
        BackendError::Unsupported {
            backend: backend.name().into(),
            ability: ability.into(),
        }
        .to_string(),
    )
}

fn isolated(args: &BackendArgs) -> bool {
    args.time_limit.is_some() || args.memory_limit.is_some()
}

fn run(
    args: &BackendArgs,
    backend: &dyn Backend,
    model: &Model,
    task: JobTask,
) -> Result<RunResult, CliError> {
    // A fresh key per puzzle: puzzles of one file may share a name, and a worker reuses the
    // model of a key it has seen.
    static SENT: AtomicUsize = AtomicUsize::new(0);
    let job = Job {
        backend: backend.name().to_string(),
        options: args.options()?,
        task,
        model_key: format!("{}:{}", SENT.fetch_add(1, Ordering::Relaxed), model.name()),
        model: None,
        source: None,
        proof: None,
    };
    Ok(pool(args)?.run(&job, model))
}

/// Solves `model` with `backend`: in a worker under the command line's limits when it gives
/// any, else in this process. Every answer is verified either way.
pub fn solve(
    args: &BackendArgs,
    backend: &mut dyn Backend,
    model: &Model,
) -> Result<Outcome, CliError> {
    if !isolated(args) {
        return solve_verified(backend, model).map_err(|e| CliError::BadInput(e.to_string()));
    }
    // A model with an objective needs the optimizer instead; its absence is an outcome
    // (`unsupported`, with the backend's reason), reported by the worker.
    if backend.solver().is_none() && model.objective().is_none() {
        return Err(missing(backend, "solve"));
    }
    let r = run(args, backend, model, JobTask::Solve)?;
    Ok(Outcome {
        status: r.status,
        solution: r.solution,
        verified: r.verified,
        reason: r.reason,
        objective: r.objective,
        bound: r.bound,
        stats: r.stats,
    })
}

/// Counts the solutions of `model` with `backend` up to `limit`: in a worker under the command
/// line's limits when it gives any, else in this process.
pub fn count(
    args: &BackendArgs,
    backend: &mut dyn Backend,
    model: &Model,
    limit: Option<u64>,
) -> Result<CountOutcome, CliError> {
    if !isolated(args) {
        return count_verified(backend, model, limit)
            .map_err(|e| CliError::BadInput(e.to_string()));
    }
    if backend.counter().is_none() {
        return Err(missing(backend, "count"));
    }
    let r = run(args, backend, model, JobTask::Count { limit })?;
    let count = match r.count.as_deref().map(str::parse::<Count>) {
        None => Count::zero(),
        Some(Ok(c)) => c,
        Some(Err(e)) => return Err(CliError::Failed(format!("worker sent a bad count: {e}"))),
    };
    Ok(CountOutcome {
        status: r.status,
        count,
        exhaustive: r.exhaustive.unwrap_or(false),
        verified: r.verified,
        reason: r.reason,
        stats: r.stats,
    })
}
