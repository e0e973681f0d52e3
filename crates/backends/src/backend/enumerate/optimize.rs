//! Branch and bound for the enumerator (`--backend enum` on a model with an objective).
//!
//! The enumeration runs as before, with a pruning sink: at every node the sink asks the shared
//! bound of [`crate::backend::branch_bound`] (dual ascent over the open covering rows, packing
//! relaxations for negative costs) for a lower bound on every completion of the placed
//! variables, over the variables the enumeration may still place (a row not yet used, a free
//! variable not yet decided, room left in its general rows). A branch whose bound cannot beat
//! the incumbent is cut. Each branching row lists its variables cheapest first and the free
//! variables (in no "exactly one" row) come best value per unit of knapsack weight first (each
//! tried in, then out), so good solutions come early; ties keep the first
//! solution met, so results are stable. Exhausting the enumeration proves the incumbent
//! optimal.
//!
//! Cost per node: one mask test per variable plus the bound (one pass over the covering rows'
//! variables, and fractional knapsacks when some cost is negative). Counting and streaming do
//! not pay it: [`Sink::PRUNES`] is a constant of their sinks.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{
    trim_depths, AnyPlan, EnumBackend, Enumerator, Order, Plan, Search, SearchSummary, Sink, NAME,
};
use crate::backend::branch_bound::CostBound;
use crate::backend::incumbent::GapLimit;
use crate::backend::search::{Layout, VarSet};
use crate::backend::{BackendError, Found, OptimizeReport, Optimizer, Stats, Undecided};
use crate::model::{Model, Solution, VarId};

/// A sink that keeps the best solution and prunes by the bound.
struct BoundSink<'a> {
    layout: &'a Layout,
    bound: &'a mut CostBound,
    /// When the search started, and the bound at the root (for the trace).
    start: Instant,
    root: i128,
    /// Scratch: the variables still open at the node.
    legal: VarSet,
    /// Scratch: the placed variables as layout ids.
    placed: Vec<u32>,
}

impl BoundSink<'_> {
    fn set_placed(&mut self, chosen: &[VarId]) {
        self.placed.clear();
        self.placed.extend(chosen.iter().map(|&v| v as u32));
    }
}

impl Sink for BoundSink<'_> {
    const WANTS_SOLUTIONS: bool = true;
    const PRUNES: bool = true;

    fn solution(&mut self, chosen: &[VarId]) -> ControlFlow<()> {
        self.set_placed(chosen);
        let before = self.bound.incumbent();
        self.bound
            .offer(&self.placed, || Solution::new(chosen.to_vec()));
        if self.bound.incumbent() != before {
            let open = Some(self.root);
            if (self.bound).note_progress(self.start.elapsed().as_secs_f64(), open) {
                return ControlFlow::Break(()); // within the gap tolerance
            }
        }
        ControlFlow::Continue(())
    }

    fn admits(&mut self, chosen: &[VarId], open: &dyn Fn(VarId) -> bool) -> bool {
        if self.bound.best().is_none() {
            return true;
        }
        for v in 0..self.layout.model_vars {
            if open(v) {
                self.legal.insert(v);
            } else {
                self.legal.remove(v);
            }
        }
        self.set_placed(chosen);
        self.bound.admits(self.layout, &self.legal, &self.placed)
    }
}

impl Enumerator {
    /// The best solution (in original ids, minimisation form value) of the model's objective
    /// by branch and bound over the enumeration; the summary says whether the search finished
    /// (the solution is then optimal). `None` when the model has no objective or no solution
    /// was met. Sequential. `offset`: the minimisation-form cost of the variables the
    /// reduction fixed to 1, for the trace (`stats.trace`, in the model's own values). The
    /// third value is the proved bound (minimisation form, `offset` included): the search's
    /// at its last note, the root's before the first incumbent; `None` when no search ran.
    fn optimize(
        &self,
        offset: i128,
        gap_limit: GapLimit,
    ) -> (Option<(i128, Solution)>, SearchSummary, Option<i128>) {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let reduced = &self.reduction.model;
        let objective = match reduced.objective() {
            Some(o) if !self.reduction.infeasible => o,
            _ => {
                let summary = SearchSummary {
                    solutions: 0,
                    finished: self.reduction.infeasible,
                    timed_out: false,
                    stats: Stats::default(),
                };
                return (None, summary, None);
            }
        };
        let layout = Layout::new(reduced);
        let mut bound = CostBound::new(&layout, objective);
        bound.set_value_offset(offset);
        bound.set_gap_limit(gap_limit);
        let root = bound.lower_bound(&layout, &VarSet::full(layout.num_vars), &[]);
        let costs = bound.costs().to_vec();
        let keys = bound.branch_keys(&layout);
        let deadline = self.deadline();
        let order: Order = self.settings.order;
        let mut summary = with_plan!(&self.plan, plan => {
            let plan = cheapest_first(plan, reduced, &costs, &keys);
            let sink = BoundSink {
                layout: &layout,
                bound: &mut bound,
                start,
                root,
                legal: VarSet::new(layout.num_vars),
                placed: Vec::new(),
            };
            let mut search = Search::new(&plan, order, sink, deadline, &stop);
            let flow = search.start(plan.empty(), 0);
            SearchSummary {
                solutions: search.solutions,
                finished: flow.is_continue() && !search.timed_out,
                timed_out: search.timed_out,
                stats: search.stats,
            }
        });
        summary.stats.solutions = summary.solutions as u64;
        summary.stats.seconds = start.elapsed().as_secs_f64();
        summary
            .stats
            .extra
            .insert("bounds".into(), bound.bounds.into());
        summary
            .stats
            .extra
            .insert("pruned".into(), bound.pruned.into());
        trim_depths(&mut summary.stats);
        if summary.finished {
            bound.note_progress(summary.stats.seconds, None);
        }
        if bound.stopped_at_gap() {
            summary.finished = false;
            summary
                .stats
                .extra
                .insert("stopped_at_gap".into(), true.into());
        }
        // The proved bound in the model's own minimisation-form values: before the first
        // incumbent nothing was noted, and the root's bound stands.
        let proved = Some(bound.proved_bound().unwrap_or(root) + offset);
        bound
            .take_trace()
            .into_stats(&mut summary.stats, |v| objective.flip(v));
        let best = bound.best().map(|(value, s)| (*value, self.lift(&s.ones)));
        (best, summary, proved)
    }
}

/// `plan` rebuilt for `model` with every branching row's variables cheapest first and the
/// free variables by their branching key ([`CostBound::branch_keys`]: best value per unit of
/// knapsack weight first), ties by id, so the search meets good solutions early and follows
/// the fractional bound. Cost: one plan build and a sort of each row.
fn cheapest_first<const K: usize>(
    plan: &Plan<K>,
    model: &Model,
    costs: &[i64],
    keys: &[f64],
) -> Plan<K> {
    let mut plan = Plan::<K>::build_ordered(model, plan.order.clone(), Some(keys));
    for row in &mut plan.row_vars {
        row.sort_by_key(|&v| (costs[v], v));
    }
    plan
}

/// Branch and bound over the enumeration (see the module docs). The `families` option is
/// refused: an optimum of a restricted model is no optimum of the model.
impl Optimizer for EnumBackend {
    fn optimize(&mut self, model: &Model) -> Result<OptimizeReport, BackendError> {
        if self.settings.families.is_some() {
            return Err(BackendError::Unsupported {
                backend: NAME.into(),
                ability: "optimise with `families` (an optimum of the restricted model is no optimum of the model)".into(),
            });
        }
        let objective = model.objective().ok_or_else(|| BackendError::Failed {
            backend: NAME.into(),
            reason: "optimize called on a model without an objective".into(),
        })?;
        let e = Enumerator::new(model, &self.settings)?;
        let offset = objective.flip(objective.value(&e.reduction.ones));
        let (best, mut summary, proved_bound) = e.optimize(offset, self.gap_limit);
        self.annotate(&mut summary.stats, &e);
        let proved = summary.finished;
        // Stopped: the shared bound at the root (the enumeration keeps no bound of its open
        // nodes), of the reduced model plus the fixed costs when the search ran, else of the
        // model.
        let stopped_bound = (proved_bound.map(|b| objective.flip(b)))
            .or_else(|| crate::backend::branch_bound::root_bound(model));
        Ok(match best {
            Some((_, s)) => {
                let value = objective.value(&s.ones);
                let bound = match proved {
                    true => Some(value),
                    false => stopped_bound,
                };
                OptimizeReport {
                    found: Found::Solution(s),
                    value: Some(value),
                    proved: proved || bound == Some(value),
                    bound,
                    stats: summary.stats,
                }
            }
            None if proved => OptimizeReport::without_solution(Found::Infeasible, summary.stats),
            None => {
                let found = match summary.timed_out {
                    true => Found::TimedOut,
                    false => Found::Undecided(Undecided::Stopped),
                };
                OptimizeReport::stopped(found, stopped_bound, summary.stats)
            }
        })
    }
}
