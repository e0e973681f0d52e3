//! Exact cover with multiplicities (`--backend xcc`): Knuth's Algorithms X and M
//! on a bit-parallel representation.
//!
//! The model's rows are the items and its variables the options. An "exactly one" row is a
//! primary item, an "at most one" row a secondary item, and a unit-weight `= k`, `<= k` or
//! `>= k` row an item with multiplicity (Knuth's bounds `lo..=hi`); a row with other weights is
//! refused, naming it. A variable that sits in no binding equation gets a slack item (see
//! `problem`), so the count is the number of 0-1 solutions of the model, not only of its
//! covers.
//!
//! The live options are a bitset; each item keeps the count of its live options. Choosing an
//! option fills items, and a full item's remaining options die word-parallel (one AND-NOT per
//! word of the item's option mask), each death taking one from the counts of the dead option's
//! items. Every branch works on a copy of its parent's state, so backtracking costs nothing.
//! Branching is MRV (fewest branches; Knuth's tie-breaks; slack-aware for multiplicities), see
//! `search`.
//!
//! Costs per node: one copy of the state (`options / 64 + 3 * items` words), then one word
//! operation per mask word of each filled item and one update per (dead option, item) pair,
//! then one scan of the open items. Memory: the nonzeros twice, item masks no larger than the
//! nonzeros, and one state per depth. Statistics: nodes (options chosen by the search), the
//! search profile, guesses (branches past the first), backtracks, solutions, and
//! `extra.updates` (count decrements, Knuth's "updates").
//! Options: none besides the time limit.

mod problem;
mod search;
mod small;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, Found, RowLimit,
    RowRefusal, SolutionStream, SolveReport, Solver, Stats, StreamReport, WITNESS_LIMIT,
};
use crate::model::{Model, Solution};
use problem::Problem;
use search::{Ending, Searcher};
use small::{SmallProblem, SmallSearcher};

/// `Err(reason)` naming the first row of `model` that is not unit-weight: the rows `xcc` reads
/// are exact-cover rows and unit-weight cardinality rows (`= k`, `<= k`, `>= k`). Costs one
/// scan of the rows.
pub fn rows_supported(model: &Model) -> Result<(), RowRefusal> {
    match model.constraints().iter().find(|c| c.weights.is_some()) {
        None => Ok(()),
        Some(c) => Err(RowRefusal::of(
            model,
            c,
            RowLimit::UnitWeightsOnly { sense: c.sense },
        )),
    }
}

/// The `xcc` backend: solves, counts, streams every solution, honours a time limit.
#[derive(Debug, Default)]
pub struct Xcc {
    time_limit: Option<Duration>,
    /// The last model seen, its problem and (when it is small exact cover) the bit-sliced
    /// form, reused while the rows stay the same (a batch of Sudoku puzzles differs only in its
    /// givens).
    cache: Option<(Model, Problem, Option<SmallProblem>)>,
    searcher: Searcher,
    small: SmallSearcher,
}

impl Xcc {
    /// An `xcc` backend with the time limit of `options` (it reads no other option).
    pub fn new(options: &BackendOptions) -> Result<Xcc, BackendError> {
        Ok(Xcc {
            time_limit: options.checked_time_limit("xcc")?,
            ..Xcc::default()
        })
    }

    /// Runs the search on `model`, handing each solution's model variables to `found`.
    fn enumerate(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(&[u32], usize) -> bool,
    ) -> (Ending, Stats) {
        let same = matches!(&self.cache, Some((m, _, _))
            if m.shares_shape_with(model)
                || (m.num_variables() == model.num_variables()
                    && m.constraints() == model.constraints()));
        if !same {
            let problem = Problem::new(model);
            let small = SmallProblem::of(&problem);
            self.cache = Some((model.clone(), problem, small));
        }
        let (_, problem, small) = self.cache.as_ref().expect("set above");
        let mut stats = Stats::default();
        let n = problem.model_options;
        stats
            .extra
            .insert("items".into(), problem.num_items().into());
        stats
            .extra
            .insert("options".into(), problem.num_options.into());
        let found = &mut |chosen: &[u32]| found(chosen, n);
        let givens = model.givens();
        let ending = match small {
            Some(small) => {
                stats.extra.insert("engine".into(), "byte-counts".into());
                let options = problem.num_options;
                let limit = self.time_limit;
                self.small
                    .run(small, options, givens, limit, &mut stats, found)
            }
            None => {
                stats.extra.insert("engine".into(), "counts".into());
                self.searcher
                    .run(problem, givens, self.time_limit, &mut stats, found)
            }
        };
        (ending, stats)
    }
}

/// The model variables among `chosen` options (slack options left out), as a solution.
fn solution_of(chosen: &[u32], model_options: usize) -> Solution {
    Solution::new(
        chosen
            .iter()
            .map(|&o| o as usize)
            .filter(|&o| o < model_options)
            .collect(),
    )
}

impl Solver for Xcc {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let mut first = None;
        let (ending, stats) = self.enumerate(model, &mut |chosen, n| {
            first = Some(solution_of(chosen, n));
            false
        });
        let found = match (first, ending) {
            (Some(s), _) => Found::Solution(s),
            (None, Ending::TimedOut) => Found::TimedOut,
            (None, _) => Found::Infeasible,
        };
        Ok(SolveReport { found, stats })
    }
}

impl Counter for Xcc {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        if limit == Some(0) {
            return Ok(CountReport {
                count: 0,
                end: CountEnd::AtLimit,
                witnesses: Vec::new(),
                stats: Stats::default(),
            });
        }
        let start = Instant::now();
        let mut witnesses = Vec::new();
        let mut count = 0u128;
        let (ending, mut stats) = self.enumerate(model, &mut |chosen, n| {
            count += 1;
            if witnesses.len() < WITNESS_LIMIT {
                witnesses.push(solution_of(chosen, n));
            }
            limit.is_none_or(|l| count < u128::from(l))
        });
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(CountReport {
            count,
            end: end_of(ending),
            witnesses,
            stats,
        })
    }
}

impl SolutionStream for Xcc {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<StreamReport, BackendError> {
        let (ending, stats) = self.enumerate(model, &mut |chosen, n| {
            found(solution_of(chosen, n)).is_continue()
        });
        Ok(StreamReport {
            end: end_of(ending),
            stats,
        })
    }
}

/// How an enumeration ended, in the backend layer's terms.
fn end_of(ending: Ending) -> CountEnd {
    match ending {
        Ending::Exhausted => CountEnd::Complete,
        Ending::Stopped => CountEnd::AtLimit,
        Ending::TimedOut => CountEnd::TimedOut,
    }
}

impl Backend for Xcc {
    fn name(&self) -> &'static str {
        "xcc"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn SolutionStream> {
        Some(self)
    }
    /// Exact-cover rows and unit-weight cardinality rows; weighted rows are refused by name.
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal> {
        rows_supported(model)
    }
}
