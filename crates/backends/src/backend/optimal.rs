//! Every optimal solution, or every solution within a distance of the optimum, verified: the
//! optimum proved first by [`crate::backend::solve_verified`], then the backend's stream of
//! solutions, each verified and kept by its value. Cost: one optimisation plus one full
//! enumeration. (The public path is [`crate::backend::optimize`].)

use crate::backend::{
    solutions_verified_where, Backend, BackendError, Outcome, Status, StreamOutcome,
};
use crate::model::{Model, Solution};

/// Every optimal solution of `model` (which has an objective) from `backend`, each verified,
/// distinct and of the optimal value, handed to `each` (at most `limit` of them). The
/// backend's optimizer proves the optimum first ([`crate::backend::solve_verified`]); when it
/// cannot (`feasible`, `infeasible`, `unsupported`, ...), that outcome is returned with a count
/// of 0 and nothing is streamed. Cost: one optimisation plus the backend's enumeration of
/// every solution, one verifier pass each. Only a missing streaming ability is `Err`.
pub fn optimal_solutions_verified(
    backend: &mut dyn Backend,
    model: &Model,
    limit: Option<u64>,
    each: &mut dyn FnMut(&Solution),
) -> Result<(Outcome, Option<StreamOutcome>), BackendError> {
    let Some(objective) = model.objective() else {
        return Err(BackendError::Unsupported {
            backend: backend.name().into(),
            ability: "list optimal solutions of a model without an objective".into(),
        });
    };
    if backend.streamer().is_none() {
        return Err(BackendError::Unsupported {
            backend: backend.name().into(),
            ability: "enumerate every solution".into(),
        });
    }
    let best = crate::backend::solve_verified(backend, model)?;
    let Some(optimum) = best.objective.filter(|_| best.status == Status::Optimal) else {
        return Ok((best, None));
    };
    let keep = |s: &Solution| objective.value(&s.ones) == optimum;
    let stream = solutions_verified_where(backend, model, limit, &keep, each)?;
    Ok((best, Some(stream)))
}

/// A pool of good solutions (`solve --all --within G`): every solution of `model` (which has
/// an objective) whose value is within `within` of the optimum (`|value - optimum| <=
/// within`), each verified and distinct, handed to `each`. The optimum is proved first, as
/// in [`optimal_solutions_verified`] (without a proof that outcome is returned and nothing is
/// streamed). Without `best`: in the backend's search order, as they come. With `best =
/// Some(n)`: the `n` best of them, best first (ties in search order), handed over once the
/// stream ends (the returned count is then the number handed over). Cost: one optimisation
/// plus one full enumeration; with `best`, `O(n)` solutions held. Only a missing streaming
/// ability is `Err`.
pub fn solutions_within_verified(
    backend: &mut dyn Backend,
    model: &Model,
    within: u128,
    best: Option<u64>,
    each: &mut dyn FnMut(&Solution),
) -> Result<(Outcome, Option<StreamOutcome>), BackendError> {
    let Some(objective) = model.objective() else {
        return Err(BackendError::Unsupported {
            backend: backend.name().into(),
            ability: "list the solutions near the optimum of a model without an objective".into(),
        });
    };
    if backend.streamer().is_none() {
        return Err(BackendError::Unsupported {
            backend: backend.name().into(),
            ability: "enumerate every solution".into(),
        });
    }
    let proved = crate::backend::solve_verified(backend, model)?;
    let Some(optimum) = proved
        .objective
        .filter(|_| proved.status == Status::Optimal)
    else {
        return Ok((proved, None));
    };
    let keep = |s: &Solution| objective.value(&s.ones).abs_diff(optimum) <= within;
    let Some(n) = best else {
        let stream = solutions_verified_where(backend, model, None, &keep, each)?;
        return Ok((proved, Some(stream)));
    };
    // The n best: (minimisation-form value, arrival) keeps ties in search order.
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    let mut pool: Vec<(i128, u64, Solution)> = Vec::new();
    let mut arrival = 0u64;
    let trim = |pool: &mut Vec<(i128, u64, Solution)>| {
        pool.sort_by_key(|p| (p.0, p.1));
        pool.truncate(n);
    };
    let mut stream = solutions_verified_where(backend, model, None, &keep, &mut |s| {
        pool.push((objective.flip(objective.value(&s.ones)), arrival, s.clone()));
        arrival += 1;
        if pool.len() >= n.saturating_mul(2).max(64) {
            trim(&mut pool);
        }
    })?;
    trim(&mut pool);
    for (_, _, s) in &pool {
        each(s);
    }
    stream.count = pool.len() as u128;
    Ok((proved, Some(stream)))
}
