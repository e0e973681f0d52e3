//! [`Enumerator`]: a model compiled for enumeration, and its solve, count and stream runs
//! (sequential or split over rayon's pool).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::plan::Plan;
use super::search::{CountSink, FnSink, Search};
use super::{AnyPlan, EnumSettings, SearchSummary, NAME};
use crate::backend::{BackendError, Stats, WITNESS_LIMIT};
use crate::model::{Model, Reduction, Sense, Solution, VarId};
use rayon::prelude::*;

/// The most rows a model may have for this backend (4096: a 25x25 Sudoku has 2500).
pub const MAX_ROWS: usize = 64 * 64;

/// A model compiled for enumeration: givens applied, families chosen, bitsets built. Build it
/// once with [`Enumerator::new`] and run it as often as needed.
#[derive(Debug, Clone)]
pub struct Enumerator {
    pub(super) reduction: Reduction,
    pub(super) plan: AnyPlan,
    pub(super) settings: EnumSettings,
    pub(super) coordinate: Option<String>,
}

impl Enumerator {
    /// Compiles `model` (restricted to `settings.families`, givens applied). Costs one pass over
    /// the nonzeros plus one bitset per variable.
    pub fn new(model: &Model, settings: &EnumSettings) -> Result<Enumerator, BackendError> {
        let restricted;
        let model = match &settings.families {
            None => model,
            Some(names) => {
                if let Some(missing) = names.iter().find(|n| model.family_id(n).is_none()) {
                    return Err(BackendError::BadOption {
                        backend: NAME.into(),
                        key: "families".into(),
                        value: missing.clone(),
                        expected: format!(
                            "families of the model ({})",
                            model
                                .families()
                                .iter()
                                .map(|f| f.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    });
                }
                let keep: Vec<&str> = names.iter().map(String::as_str).collect();
                restricted = model.restricted_to(&keep);
                &restricted
            }
        };
        let reduction = model.reduce();
        let reduced = &reduction.model;
        let rows = reduced.constraints().len();
        if rows > MAX_ROWS {
            return Err(BackendError::TooLarge {
                backend: NAME.into(),
                reason: format!("{rows} rows; the enumerator takes at most {MAX_ROWS}"),
            });
        }
        let coordinate = Self::coordinate_family(reduced, settings.coordinate.as_deref())?;
        let order = Self::branch_order(reduced, coordinate.as_deref());
        let plan = match rows.div_ceil(64) {
            0 | 1 => AnyPlan::W1(Box::new(Plan::build(reduced, order))),
            2 => AnyPlan::W2(Box::new(Plan::build(reduced, order))),
            3 | 4 => AnyPlan::W4(Box::new(Plan::build(reduced, order))),
            5..=8 => AnyPlan::W8(Box::new(Plan::build(reduced, order))),
            9..=16 => AnyPlan::W16(Box::new(Plan::build(reduced, order))),
            17..=32 => AnyPlan::W32(Box::new(Plan::build(reduced, order))),
            _ => AnyPlan::W64(Box::new(Plan::build(reduced, order))),
        };
        Ok(Enumerator {
            reduction,
            plan,
            settings: settings.clone(),
            coordinate,
        })
    }

    /// The family that supplies the coordinates, if any.
    pub fn coordinate(&self) -> Option<&str> {
        self.coordinate.as_deref()
    }

    pub(super) fn coordinate_family(
        model: &Model,
        asked: Option<&str>,
    ) -> Result<Option<String>, BackendError> {
        if let Some(name) = asked {
            return match model.family_id(name) {
                Some(_) => Ok(Some(name.to_string())),
                None => Err(BackendError::BadOption {
                    backend: NAME.into(),
                    key: "coordinate".into(),
                    value: name.into(),
                    expected: "a family of the model".into(),
                }),
            };
        }
        let hinted = model.hints().coordinate_family.as_deref();
        if let Some(name) = hinted.filter(|n| model.family_id(n).is_some()) {
            return Ok(Some(name.to_string()));
        }
        // A family of "exactly one" rows that partitions the variables.
        let n = model.num_variables();
        for (f, family) in model.families().iter().enumerate() {
            let mut seen = vec![0u32; n];
            let mut exact = true;
            for c in model.family_rows(f) {
                exact &= c.sense == Sense::ExactlyOne;
                for &v in &c.vars {
                    seen[v] += 1;
                }
            }
            if exact && !family.rows.is_empty() && seen.iter().all(|&s| s == 1) {
                return Ok(Some(family.name.clone()));
            }
        }
        Ok(None)
    }

    /// The coordinate family's rows in order, then every other "exactly one" row, shortest
    /// first.
    pub(super) fn branch_order(model: &Model, coordinate: Option<&str>) -> Vec<usize> {
        let coord = coordinate.and_then(|n| model.family_id(n));
        let rows = model.constraints();
        let mut order: Vec<usize> = match coord {
            Some(f) => model.families()[f]
                .rows
                .iter()
                .copied()
                .filter(|&r| rows[r].sense == Sense::ExactlyOne)
                .collect(),
            None => Vec::new(),
        };
        let mut rest: Vec<usize> = (0..rows.len())
            .filter(|&r| rows[r].sense == Sense::ExactlyOne && Some(rows[r].family) != coord)
            .collect();
        rest.sort_by_key(|&r| rows[r].vars.len());
        order.extend(rest);
        order
    }

    pub(super) fn deadline(&self) -> Option<Instant> {
        self.settings
            .time_limit
            .and_then(|t| Instant::now().checked_add(t))
    }

    pub(super) fn lift(&self, chosen: &[VarId]) -> Solution {
        self.reduction.lift(&Solution::new(chosen.to_vec()))
    }

    /// Streams every solution (of the possibly restricted model, in original variable ids) to
    /// `callback`, which may stop the search with `ControlFlow::Break`. Sequential. Allocates
    /// one [`Solution`] per solution handed over.
    pub fn for_each_solution(
        &self,
        mut callback: impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> SearchSummary {
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        if self.reduction.infeasible {
            return SearchSummary {
                solutions: 0,
                finished: true,
                timed_out: false,
                stats: Stats::default(),
            };
        }
        let deadline = self.deadline();
        let order = self.settings.order;
        let mut summary = with_plan!(&self.plan, plan => {
            let sink = FnSink(|chosen: &[VarId]| callback(&self.lift(chosen)));
            let mut search = Search::new(plan, order, sink, deadline, &stop);
            let flow = search.start(plan.empty(), 0);
            SearchSummary {
                solutions: search.solutions,
                finished: flow.is_continue(),
                timed_out: search.timed_out,
                stats: search.stats,
            }
        });
        summary.stats.solutions = summary.solutions as u64;
        summary.stats.seconds = start.elapsed().as_secs_f64();
        trim_depths(&mut summary.stats);
        summary
    }

    /// The first solution in search order, if any.
    pub fn first(&self) -> (Option<Solution>, SearchSummary) {
        let mut first = None;
        let summary = self.for_each_solution(|s| {
            first = Some(s.clone());
            ControlFlow::Break(())
        });
        (first, summary)
    }

    /// Counts solutions, keeping the first [`WITNESS_LIMIT`] as witnesses. With no `limit` and
    /// `settings.parallel`, the tree is split over rayon's pool.
    pub fn count(&self, limit: Option<u64>) -> (u128, Vec<Solution>, SearchSummary) {
        if limit.is_none() && self.settings.parallel && !self.reduction.infeasible {
            return self.count_parallel();
        }
        let mut witnesses = Vec::new();
        let mut seen = 0u64;
        if limit == Some(0) {
            let summary = SearchSummary {
                solutions: 0,
                finished: false,
                timed_out: false,
                stats: Stats::default(),
            };
            return (0, witnesses, summary);
        }
        let summary = self.for_each_solution(|s| {
            seen += 1;
            if witnesses.len() < WITNESS_LIMIT {
                witnesses.push(s.clone());
            }
            if limit.is_some_and(|l| seen >= l) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (summary.solutions, witnesses, summary)
    }

    /// Counts every solution over rayon's pool: the tree is cut at a depth with enough partial
    /// placements, each subtree is counted without building solutions, and the witnesses come
    /// from a separate sequential run stopped after [`WITNESS_LIMIT`] solutions.
    pub(super) fn count_parallel(&self) -> (u128, Vec<Solution>, SearchSummary) {
        let start = Instant::now();
        // One deadline for both passes: the witness pass gets what is left of it, not a
        // fresh limit of its own (which made a time limit T last 2T).
        let deadline = self.deadline();
        let (_, witnesses, _) = Enumerator {
            settings: EnumSettings {
                parallel: false,
                time_limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
                ..self.settings.clone()
            },
            ..self.clone()
        }
        .count(Some(WITNESS_LIMIT as u64));
        let stop = AtomicBool::new(false);
        // The pool's threads do not see this thread's stop flag: hand it over.
        let external_stop = crate::backend::stop::current();
        let order = self.settings.order;
        let mut summary = with_plan!(&self.plan, plan => {
            // Cut where there are at least 64 subtrees per thread, or give up cutting deeper
            // than the number of branching rows.
            let want = 64 * rayon::current_num_threads();
            let mut prefixes = Vec::new();
            let mut cut_stats = Stats::default();
            for depth in 1..=plan.order.len().max(1) {
                let mut search = Search::new(plan, order, CountSink, deadline, &stop);
                search.split = Some((depth, Vec::new()));
                let _ = search.start(plan.empty(), 0);
                prefixes = search.split.take().map(|(_, p)| p).unwrap_or_default();
                cut_stats = search.stats;
                cut_stats.solutions = search.solutions as u64;
                if prefixes.len() >= want || depth >= plan.order.len() {
                    break;
                }
            }
            let parts: Vec<(u128, Stats, bool)> = prefixes
                .par_iter()
                .map(|p| {
                    // Subtrees are often smaller than the 4,096 nodes between two clock
                    // checks inside a search: look at the clock before each one too.
                    if stop.load(Ordering::Relaxed)
                        || deadline.is_some_and(|d| Instant::now() >= d)
                    {
                        stop.store(true, Ordering::Relaxed);
                        return (0, Stats::default(), false);
                    }
                    let mut search = Search::new(plan, order, CountSink, deadline, &stop);
                    search.external_stop = external_stop.clone();
                    search.replay(&p.chosen);
                    let flow = search.start(p.used, p.pos);
                    (search.solutions, search.stats, flow.is_continue() && !search.timed_out)
                })
                .collect();
            let mut total = SearchSummary {
                solutions: cut_stats.solutions as u128,
                finished: true,
                timed_out: false,
                stats: cut_stats,
            };
            for (count, stats, finished) in parts {
                total.solutions += count;
                total.finished &= finished;
                total.stats.nodes += stats.nodes;
                for (d, n) in stats.nodes_per_depth.iter().enumerate() {
                    total.stats.nodes_per_depth[d] += n;
                }
            }
            total
        });
        summary.timed_out = !summary.finished && deadline.is_some_and(|d| Instant::now() >= d);
        if !summary.finished {
            // Both passes count distinct solutions; a stopped tree pass may have met fewer than
            // the witness pass, and the larger is the better partial count.
            summary.solutions = summary.solutions.max(witnesses.len() as u128);
        }
        summary.stats.solutions = summary.solutions as u64;
        summary.stats.seconds = start.elapsed().as_secs_f64();
        trim_depths(&mut summary.stats);
        summary
            .stats
            .extra
            .insert("threads".into(), rayon::current_num_threads().into());
        (summary.solutions, witnesses, summary)
    }
}

/// Drops the unreached depths at the end of `nodes_per_depth`.
pub(super) fn trim_depths(stats: &mut Stats) {
    while stats.nodes_per_depth.len() > 1 && stats.nodes_per_depth.last() == Some(&0) {
        stats.nodes_per_depth.pop();
    }
}
