//! [`SearchBackend`]: the search and one legality engine as a backend (solve, count, stream,
//! optimise, and prove: its [`Prover`]), with the [`LayoutCache`] it keeps between models.

use super::engine::LegalityEngine;
use super::layout::Layout;
use super::run::{run, run_optimizing, run_proved, run_streaming};
use super::state::Goal;
use crate::backend::branch_bound::CostBound;
use crate::backend::incumbent::{GapLimit, Hint};
use crate::backend::proof::{ProofLog, ProofTask, ProvedRun, Prover};
use crate::backend::BackendError;
use crate::model::{Model, Solution};
use std::ops::ControlFlow;
use std::time::Duration;

/// Keeps the last [`Layout`] and reuses it when the next model has the same rows (only the
/// givens differ, as for a series of Sudoku puzzles). Models that share their structure by
/// reference (see [`Model::shares_shape_with`]) are recognised in constant time; others cost
/// one comparison of the rows.
#[derive(Debug, Clone, Default)]
pub struct LayoutCache {
    pub(super) last: Option<(Model, Layout)>,
}

impl LayoutCache {
    /// The layout of `model`, rebuilt only when its rows differ from the previous model's.
    pub fn layout(&mut self, model: &Model) -> &Layout {
        let same = matches!(&self.last, Some((m, _))
            if m.shares_shape_with(model)
                || (m.num_variables() == model.num_variables()
                    && m.constraints() == model.constraints()));
        if same {
            let (_, layout) = self.last.as_mut().expect("checked above");
            layout.givens.clear();
            layout.givens.extend_from_slice(model.givens());
        } else {
            self.last = Some((model.clone(), Layout::new(model)));
        }
        &self.last.as_ref().expect("set above").1
    }
}

/// The shared `solve` body of the search backends.
pub(crate) fn solve_report(
    engine: &mut dyn LegalityEngine,
    cache: &mut LayoutCache,
    model: &Model,
    time_limit: Option<Duration>,
) -> Result<crate::backend::SolveReport, BackendError> {
    use crate::backend::Found;
    let layout = cache.layout(model);
    let out = run(engine, layout, Goal::Solve, time_limit)?;
    let found = match out.solutions.into_iter().next() {
        Some(s) => Found::Solution(s),
        None if out.timed_out => Found::TimedOut,
        None if !out.exact => Found::Undecided(crate::backend::Undecided::ApproximateEngine {
            engine: engine.name(),
        }),
        None => Found::Infeasible,
    };
    Ok(crate::backend::SolveReport {
        found,
        stats: out.stats,
    })
}

/// The shared `count` body: exhaustive only when the engine is exact.
pub(crate) fn count_report(
    engine: &mut dyn LegalityEngine,
    cache: &mut LayoutCache,
    model: &Model,
    limit: Option<u64>,
    time_limit: Option<Duration>,
) -> Result<crate::backend::CountReport, BackendError> {
    let layout = cache.layout(model);
    let out = run(engine, layout, Goal::Count { limit }, time_limit)?;
    Ok(crate::backend::CountReport {
        count: out.count.into(),
        end: out.end(engine.name()),
        witnesses: out.solutions,
        stats: out.stats,
    })
}

/// A backend made of the shared search and one legality engine `E`: solves, counts and honours
/// a time limit. `bitset` and `vsa` are this struct with their engines, so both run the very
/// same steps and differ only in how legality is read.
#[derive(Debug, Clone, Default)]
pub struct SearchBackend<E> {
    pub(super) engine: E,
    pub(super) time_limit: Option<Duration>,
    pub(super) layouts: LayoutCache,
    /// The gap tolerances an optimisation stops at (options `gap`, `abs-gap`).
    pub(super) gap_limit: GapLimit,
    /// The hint an optimisation starts from (option `hint`).
    pub(super) hint: Option<Hint>,
}

impl<E: LegalityEngine> SearchBackend<E> {
    /// The search driving `engine`, with the time limit of `options`.
    pub fn with_engine(engine: E, options: &crate::backend::BackendOptions) -> Self {
        SearchBackend {
            engine,
            time_limit: options.time_limit,
            layouts: LayoutCache::default(),
            gap_limit: GapLimit::default(),
            hint: None,
        }
    }

    /// The backend with the optimiser options of `options`: the gap tolerances (`gap`,
    /// `abs-gap`) and the hint (`hint`), see [`crate::backend::incumbent`]; a bad value is
    /// [`BackendError::BadOption`].
    pub fn with_optimiser_options(
        mut self,
        options: &crate::backend::BackendOptions,
    ) -> Result<Self, BackendError> {
        self.gap_limit = GapLimit::from_options(self.engine.name(), options)?;
        self.hint = Hint::from_options(self.engine.name(), options)?;
        Ok(self)
    }

    /// The legality engine (for its statistics and settings).
    pub fn engine(&self) -> &E {
        &self.engine
    }
}

impl<E: LegalityEngine> crate::backend::Solver for SearchBackend<E> {
    fn solve(&mut self, model: &Model) -> Result<crate::backend::SolveReport, BackendError> {
        solve_report(&mut self.engine, &mut self.layouts, model, self.time_limit)
    }
}

impl<E: LegalityEngine> crate::backend::Counter for SearchBackend<E> {
    fn count(
        &mut self,
        model: &Model,
        limit: Option<u64>,
    ) -> Result<crate::backend::CountReport, BackendError> {
        count_report(
            &mut self.engine,
            &mut self.layouts,
            model,
            limit,
            self.time_limit,
        )
    }
}

impl<E: LegalityEngine> crate::backend::SolutionStream for SearchBackend<E> {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        let layout = self.layouts.layout(model);
        let out = run_streaming(&mut self.engine, layout, self.time_limit, found)?;
        Ok(crate::backend::StreamReport {
            end: out.end(self.engine.name()),
            stats: out.stats,
        })
    }
}

impl<E: LegalityEngine> crate::backend::Optimizer for SearchBackend<E> {
    fn optimize(&mut self, model: &Model) -> Result<crate::backend::OptimizeReport, BackendError> {
        optimize_report(
            &mut self.engine,
            &mut self.layouts,
            model,
            self.time_limit,
            self.gap_limit,
            self.hint.as_ref(),
        )
    }
}

/// The shared `optimize` body: branch and bound over the search. Proved optimal when the
/// search is exhausted (the engine is exact: [`SearchBackend`] offers the ability only then)
/// or the proved bound meets the incumbent; stopped by the time limit, a stop or the gap
/// tolerance `gap_limit` with a solution: `feasible`, with the proved global bound (the least
/// bound of the open nodes) and the trace in `stats.trace`; stopped before the first solution:
/// `timeout`, with that bound (the root's, when no node was noted).
pub(crate) fn optimize_report(
    engine: &mut dyn LegalityEngine,
    cache: &mut LayoutCache,
    model: &Model,
    time_limit: Option<Duration>,
    gap_limit: GapLimit,
    hint: Option<&Hint>,
) -> Result<crate::backend::OptimizeReport, BackendError> {
    use crate::backend::{Found, OptimizeReport};
    let objective = model.objective().ok_or_else(|| BackendError::Failed {
        backend: engine.name().into(),
        reason: "optimize called on a model without an objective".into(),
    })?;
    let layout = cache.layout(model);
    let mut bound = CostBound::new(layout, objective);
    bound.set_gap_limit(gap_limit);
    let seeded = match hint {
        Some(h) => Some(seed_with_hint(&mut bound, layout, model, h, engine.name())?),
        None => None,
    };
    let mut out = run_optimizing(engine, layout, time_limit, &mut bound)?;
    if let Some(seeded) = seeded {
        out.stats
            .extra
            .insert("hint_incumbent".into(), seeded.into());
    }
    out.stats.extra.insert("bounds".into(), bound.bounds.into());
    out.stats.extra.insert("pruned".into(), bound.pruned.into());
    if bound.stopped_at_gap() {
        out.stats.extra.insert("stopped_at_gap".into(), true.into());
    }
    bound
        .take_trace()
        .into_stats(&mut out.stats, |v| objective.flip(v));
    let exact = out.exact;
    Ok(match bound.best() {
        Some((value, s)) => {
            let proved_bound = if out.exhausted && exact {
                Some(*value)
            } else {
                bound.proved_bound().filter(|_| exact)
            };
            OptimizeReport {
                found: Found::Solution(s.clone()),
                value: Some(objective.flip(*value)),
                proved: proved_bound == Some(*value),
                bound: proved_bound.map(|b| objective.flip(b)),
                stats: out.stats,
            }
        }
        None if out.exhausted && exact => {
            OptimizeReport::without_solution(Found::Infeasible, out.stats)
        }
        None if out.timed_out => {
            let stopped = stopped_bound(&bound, exact, model).map(|b| objective.flip(b));
            OptimizeReport::stopped(Found::TimedOut, stopped, out.stats)
        }
        None => OptimizeReport::without_solution(
            Found::Undecided(crate::backend::Undecided::ApproximateEngine {
                engine: engine.name(),
            }),
            out.stats,
        ),
    })
}

/// The bound (minimisation form) of a search stopped early: the least bound of its open nodes
/// once noted, with an exact engine (before the first incumbent, the root's: no node is judged
/// against one), else the shared root bound. Cost: the root bound's, when it is needed.
fn stopped_bound(bound: &CostBound, exact: bool, model: &Model) -> Option<i128> {
    bound.proved_bound().filter(|_| exact).or_else(|| {
        let objective = model.objective()?;
        crate::backend::branch_bound::root_bound(model).map(|r| objective.flip(r))
    })
}

/// Seeds `bound` with `hint` (see [`Hint`]): its values become the search's first choices,
/// and a complete hint that satisfies every row (checked by the shared verifier) its first
/// incumbent. True when the hint became the incumbent. An id beyond the model is
/// [`BackendError::BadOption`]. Cost: one verifier pass and one pass over the layout.
fn seed_with_hint(
    bound: &mut CostBound,
    layout: &Layout,
    model: &Model,
    hint: &Hint,
    backend: &str,
) -> Result<bool, BackendError> {
    let per_var = hint
        .for_model(model)
        .map_err(|why| BackendError::BadOption {
            backend: backend.into(),
            key: "hint".into(),
            value: why.clone(),
            expected: "variable ids of the model".into(),
        })?;
    bound.set_preference(layout, &per_var);
    let Some(solution) = hint.as_solution(model) else {
        return Ok(false);
    };
    let placed: Vec<u32> = solution.ones.iter().map(|&v| v as u32).collect();
    bound.offer(&placed, || solution.clone());
    Ok(true)
}

impl<E: LegalityEngine + Send> crate::backend::Backend for SearchBackend<E> {
    fn name(&self) -> &'static str {
        self.engine.name()
    }
    fn solver(&mut self) -> Option<&mut dyn crate::backend::Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn crate::backend::Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
    /// Branch and bound, with an exact engine only: an approximate one may hide solutions, so
    /// an exhausted search would prove nothing.
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        if self.engine.exact() {
            Some(self)
        } else {
            None
        }
    }
    fn no_optimizer_reason(&self) -> String {
        format!(
            "the {} engine is approximate with these settings (an exhausted search proves nothing; use bitset, or an exact code)",
            self.engine.name()
        )
    }
    /// Every row kind the engine reads (for `bitset`: all of them), since the search keeps
    /// the sums and bounds of general rows itself.
    fn rows_supported(&self, model: &Model) -> Result<(), crate::backend::RowRefusal> {
        self.engine.rows_supported(model)
    }
    /// Proof logging (see [`ProofLog`]), with an exact engine only.
    fn prover(&mut self) -> Option<&mut dyn Prover> {
        if self.engine.exact() {
            Some(self)
        } else {
            None
        }
    }
    fn no_prover_reason(&self) -> String {
        format!(
            "the {} engine is approximate with these settings (its steps are not checkable; use bitset)",
            self.engine.name()
        )
    }
}

/// The search with a proof log: counting and solving as [`super::run`], optimising as
/// branch and bound with every prune justified by the bound's derivation (see
/// [`run_proved`]). Offered by
/// [`crate::backend::Backend::prover`] with an exact engine only.
impl<E: LegalityEngine> Prover for SearchBackend<E> {
    fn prove(
        &mut self,
        model: &Model,
        task: ProofTask,
        log: &mut dyn ProofLog,
    ) -> Result<ProvedRun, BackendError> {
        let layout = self.layouts.layout(model);
        let goal = match task {
            ProofTask::Solve => Goal::Solve,
            ProofTask::Count | ProofTask::Optimize => Goal::Count { limit: None },
            ProofTask::CountUpTo(n) => Goal::Count { limit: Some(n) },
        };
        let mut bound = match task {
            ProofTask::Optimize => {
                let objective = model.objective().ok_or_else(|| BackendError::Failed {
                    backend: self.engine.name().into(),
                    reason: "optimize called on a model without an objective".into(),
                })?;
                Some(CostBound::new(layout, objective))
            }
            _ => None,
        };
        let out = run_proved(
            &mut self.engine,
            layout,
            goal,
            self.time_limit,
            bound.as_mut(),
            log,
        )?;
        let exact = out.exact;
        // As without a proof.
        let stopped_bound = (bound.as_ref()).and_then(|b| stopped_bound(b, exact, model));
        let best = bound.and_then(|b| b.best().cloned());
        Ok(ProvedRun {
            count: out.count,
            min_value: best.as_ref().map(|(v, _)| *v),
            witness: match best {
                Some((_, s)) => Some(s),
                None => out.solutions.into_iter().next(),
            },
            exhausted: out.exhausted && exact,
            bound: stopped_bound,
            stats: out.stats,
        })
    }
}
