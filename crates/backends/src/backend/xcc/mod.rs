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
//! Engines (param `engine`, chosen from the model's shape by default and named in
//! `extra.engine`): `transposed` (exact cover with at most 512 primary items of at most 64
//! options each: per item its live options as one 16-, 32- or 64-bit lane, MRV by popcount, a
//! choice one AND-NOT per item; see `transposed`), `sweep` (exact cover with at most 128 items: options as
//! 128-bit item masks, branching on the first uncovered item of an order derived from the
//! items' structure, space before labels; `auto` takes it only when it finds such a structure;
//! see `sweep`), `byte-counts` (MRV with SIMD-packed counts, small exact cover;
//! see `small`) and `counts` (MRV, every model; described below).
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
//! Options: the time limit, and `engine` (see [`Engine`]; `auto` picks by the model's shape:
//! `transposed`, then `sweep`, then `byte-counts`, then `counts`, the first that takes the
//! model).
//!
//! Also, outside the backend: [`first_solutions`], the first solutions of a model in one fixed
//! order (the `counts` engine's general rule on every model), for callers whose results depend
//! on which solution comes first (the board generators).

mod first;
mod free;
mod memo;
mod problem;
mod proof;
mod search;
mod small;
mod sweep;
mod transposed;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::backend::memory::usable_memory;
use crate::backend::Count;
use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, Found, RowLimit,
    RowRefusal, SolutionStream, SolveReport, Solver, Stats, StreamReport, WITNESS_LIMIT,
};
use crate::model::{Model, Sense, Solution};
pub use first::{first_solutions, FirstSolutions};
use free::Completer;
use problem::Problem;
use search::{Ending, Searcher};
use small::{SmallProblem, SmallSearcher};
use sweep::SweepProblem;
use transposed::TransposedProblem;

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

/// Whether the `sweep` engine takes `model` (exact-cover rows only, at most 128 items counting
/// a slack item per variable in no "exactly one" row), judged from the rows alone: what the
/// default backend (`auto`) sends to `xcc`. Costs one scan of the rows, then of the variables'
/// rows (only when there are at most 128 rows).
pub fn sweep_takes(model: &Model) -> bool {
    let rows = model.constraints();
    if rows.len() > sweep::MAX_ITEMS || model.first_general_row().is_some() {
        return false;
    }
    let free = problem::free_variables(model);
    let slack = (0..model.num_variables())
        .filter(|&v| {
            !free[v]
                && !model
                    .rows_of(v)
                    .iter()
                    .any(|&r| rows[r].sense == Sense::ExactlyOne)
        })
        .count();
    rows.len() + slack <= sweep::MAX_ITEMS
}

/// Whether the `transposed` engine takes `model` (exact-cover rows only, at most 512 "exactly
/// one" rows counting a slack row per variable in none, each with at most 64 variables, and
/// kill tables within budget), judged from the rows alone: with [`sweep_takes`], what the
/// default backend (`auto`) sends to `xcc`. Costs one scan of the rows and of the variables'
/// rows.
pub fn transposed_takes(model: &Model) -> bool {
    let rows = model.constraints();
    if model.first_general_row().is_some() {
        return false;
    }
    let (mut primary, mut longest) = (0usize, 0usize);
    for c in rows {
        match c.sense.bounds() {
            (1, Some(1)) => {
                primary += 1;
                longest = longest.max(c.vars.len());
            }
            (0, hi) if hi.is_none_or(|hi| hi <= 1 || hi as usize >= c.vars.len()) => {}
            _ => return false,
        }
    }
    // As in `Problem::new`: a variable in no "exactly one" row and no `<= 0` row gets a slack
    // item (of two options) and a "leave it out" option, unless no row constrains it.
    let free = problem::free_variables(model);
    let slack = (0..model.num_variables())
        .filter(|&v| {
            !free[v]
                && !model
                    .rows_of(v)
                    .iter()
                    .any(|&r| matches!(rows[r].sense.bounds(), (1, Some(1)) | (_, Some(0))))
        })
        .count();
    if slack > 0 {
        longest = longest.max(2);
    }
    transposed::fits(model.num_variables() + slack, primary + slack, longest)
}

/// The engines `xcc` has (param `engine`; `auto` picks from the model's shape).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Engine {
    /// `transposed` where it takes the model, else `sweep`, else `byte-counts`, else `counts`.
    #[default]
    Auto,
    /// MRV with per-item live-option lanes (exact cover with at most 512 primary items of at
    /// most 64 options each; see `transposed`).
    Transposed,
    /// First uncovered item of a fixed order, options as 128-bit item masks (exact cover with
    /// at most 128 binding items; see `sweep`).
    Sweep,
    /// MRV with counts packed in SIMD words (exact cover with at most 128 binding items and
    /// small tables; see `small`).
    ByteCounts,
    /// MRV with per-item counts (every model `xcc` reads; see `search`).
    Counts,
    /// Counts only, by caching sub-problem counts (exact cover with at most 1,024 items; see
    /// `memo`): `memo-sweep` or `memo-mrv` by a measured rule.
    Memo,
    /// `memo` branching on the first uncovered item of the sweep order.
    MemoSweep,
    /// `memo` branching by MRV, with component splitting.
    MemoMrv,
}

impl Engine {
    /// The engine called `name` (`auto`, `transposed`, `sweep`, `byte-counts`, `counts`).
    fn parse(name: &str) -> Option<Engine> {
        Some(match name {
            "auto" => Engine::Auto,
            "transposed" => Engine::Transposed,
            "sweep" => Engine::Sweep,
            "byte-counts" => Engine::ByteCounts,
            "counts" => Engine::Counts,
            "memo" => Engine::Memo,
            "memo-sweep" => Engine::MemoSweep,
            "memo-mrv" => Engine::MemoMrv,
            _ => return None,
        })
    }
}

/// The forms of one model shape the engines read, built once per shape.
#[derive(Debug)]
struct Prepared {
    model: Model,
    problem: Problem,
    small: Option<SmallProblem>,
    sweep: Option<SweepProblem>,
    transposed: Option<TransposedProblem>,
    /// Whether the visiting engines' forms (`small`, `sweep`, `transposed`) were built.
    visiting: bool,
    /// The memo engines' form, once built (or why they cannot take the model).
    memo: Option<Result<memo::MemoProblem, String>>,
}

impl Prepared {
    /// Builds the forms of the visiting engines `engine` may run (`auto`: `transposed`, and
    /// the others only where it is missing).
    fn build_visiting_forms(&mut self, engine: Engine) {
        let (problem, model) = (&self.problem, &self.model);
        let wants = |e: Engine| engine == Engine::Auto || engine == e;
        self.transposed = wants(Engine::Transposed)
            .then(|| TransposedProblem::of(problem))
            .flatten();
        // Auto needs the other engines' forms only where the transposed one is missing.
        let fallback = engine == Engine::Auto && self.transposed.is_none();
        let wants = |e: Engine| engine == e || fallback;
        // Auto sweeps only in an order derived from the items' structure (space before
        // labels): the model's own order can be catastrophic (pentominoes 6x10 with the
        // pieces first: no solution in 15 s, against milliseconds for MRV).
        self.sweep = wants(Engine::Sweep)
            .then(|| SweepProblem::of(problem, model))
            .flatten()
            .filter(|s| engine == Engine::Sweep || s.structured());
        self.small = wants(Engine::ByteCounts)
            .then(|| SmallProblem::of(problem))
            .flatten();
        self.visiting = true;
    }
}

/// The `xcc` backend: solves, counts, streams every solution, honours a time limit.
#[derive(Debug, Default)]
pub struct Xcc {
    time_limit: Option<Duration>,
    engine: Engine,
    /// The last model seen and its prepared forms, reused while the rows stay the same (a batch
    /// of Sudoku puzzles differs only in its givens).
    cache: Option<Prepared>,
    searcher: Searcher,
    small: SmallSearcher,
    scratch: transposed::Scratch,
    /// The memo engines' cache budget (param `memo-cache`; `None`: from the memory left).
    memo_budget: Option<memo::Budget>,
}

impl Xcc {
    /// An `xcc` backend with the time limit of `options` and its param `engine` (`auto`,
    /// `transposed`, `sweep`, `byte-counts`, `counts`; default `auto`).
    pub fn new(options: &BackendOptions) -> Result<Xcc, BackendError> {
        let name: String = options.param("xcc", "engine", "auto".into(), "a name")?;
        let engine = Engine::parse(&name).ok_or_else(|| BackendError::BadOption {
            backend: "xcc".into(),
            key: "engine".into(),
            value: name.clone(),
            expected: "auto, transposed, sweep, byte-counts, counts, memo, memo-sweep or memo-mrv"
                .into(),
        })?;
        Ok(Xcc {
            time_limit: options.checked_time_limit("xcc")?,
            engine,
            memo_budget: memo::Budget::of(options)?,
            ..Xcc::default()
        })
    }

    /// The prepared forms of `model`, from the cache when its rows are those of the last one:
    /// its [`Problem`] and the visiting engines' forms.
    fn prepare(&mut self, model: &Model) -> &Prepared {
        let engine = self.engine;
        self.prepare_problem(model);
        let prepared = self.cache.as_mut().expect("set by prepare_problem");
        if !prepared.visiting {
            prepared.build_visiting_forms(engine);
        }
        self.cache.as_ref().expect("set above")
    }

    /// The [`Problem`] of `model`, from the cache when its rows are those of the last one,
    /// without the visiting engines' forms (the memo engines read the problem alone; building
    /// `transposed`'s tables for a count the memo makes would be spent for nothing).
    fn prepare_problem(&mut self, model: &Model) -> &Prepared {
        let same = matches!(&self.cache, Some(p)
            if p.model.shares_shape_with(model)
                || (p.model.num_variables() == model.num_variables()
                    && p.model.constraints() == model.constraints()));
        if !same {
            self.cache = Some(Prepared {
                model: model.clone(),
                problem: Problem::new(model),
                small: None,
                sweep: None,
                transposed: None,
                visiting: false,
                memo: None,
            });
        }
        self.cache.as_ref().expect("set above")
    }

    /// Runs the search on `model`, handing each solution's model variables to `found`. An
    /// engine asked for by name that cannot take the model is an error.
    fn enumerate(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(&[u32], usize) -> bool,
    ) -> Result<(Ending, Stats), BackendError> {
        let (engine, limit) = (self.engine, self.time_limit);
        if let Some(name) = memo_name(engine) {
            return Err(BackendError::TooLarge {
                backend: "xcc".into(),
                reason: format!(
                    "engine '{name}' counts only; solving and listing solutions go to the \
                     other engines (auto, transposed, sweep, byte-counts, counts)"
                ),
            });
        }
        self.prepare(model);
        let Some(Prepared {
            problem,
            small,
            sweep,
            transposed,
            ..
        }) = &self.cache
        else {
            unreachable!("prepared above")
        };
        let mut stats = Stats::default();
        let n = problem.model_options;
        let extra = &mut stats.extra;
        extra.insert("items".into(), problem.num_items().into());
        extra.insert("options".into(), problem.num_options.into());
        let (mut completer, givens) =
            Completer::new(&problem.free, model.givens(), Instant::now(), limit);
        let givens = &givens[..];
        let found = &mut |chosen: &[u32]| completer.each(chosen, &mut |c| found(c, n));
        let refused = |name: &str, why: &str| BackendError::TooLarge {
            backend: "xcc".into(),
            reason: format!("engine '{name}' {why}"),
        };
        let mut ending =
            match (engine, sweep, small) {
                (Engine::Auto | Engine::Transposed, _, _) if transposed.is_some() => {
                    extra.insert("engine".into(), "transposed".into());
                    let t = transposed.as_ref().expect("checked by the guard");
                    transposed::run(t, &mut self.scratch, givens, limit, &mut stats, found)
                }
                (Engine::Transposed, _, _) => return Err(refused(
                    "transposed",
                    "takes exact cover with at most 512 primary items of at most 64 options only",
                )),
                (Engine::Auto | Engine::Sweep, Some(sweep), _) => {
                    extra.insert("engine".into(), "sweep".into());
                    extra.insert("order".into(), sweep.order().into());
                    extra.insert("pattern_bits".into(), sweep.pattern_bits().into());
                    sweep::run(sweep, givens, limit, &mut stats, found)
                }
                (Engine::Sweep, None, _) => {
                    return Err(refused(
                        "sweep",
                        "takes exact cover with at most 128 items only",
                    ))
                }
                (Engine::Auto | Engine::ByteCounts, _, Some(small)) => {
                    extra.insert("engine".into(), "byte-counts".into());
                    let options = problem.num_options;
                    self.small
                        .run(small, options, givens, limit, &mut stats, found)
                }
                (Engine::ByteCounts, _, None) => {
                    return Err(refused(
                        "byte-counts",
                        "takes exact cover with at most 128 items and small tables only",
                    ))
                }
                (Engine::Memo | Engine::MemoSweep | Engine::MemoMrv, _, _) => {
                    unreachable!("refused above: the memo engines count only")
                }
                (Engine::Auto | Engine::Counts, _, _) => {
                    extra.insert("engine".into(), "counts".into());
                    search::frames_fit(problem, usable_memory)
                        .map_err(|why| refused("counts", &why))?;
                    self.searcher.run(problem, givens, limit, &mut stats, found)
                }
            };
        if completer.timed_out() {
            ending = Ending::TimedOut;
        }
        stats.solutions = completer.solutions();
        if !problem.free.is_empty() {
            stats.extra.insert("free".into(), problem.free.len().into());
        }
        Ok((ending, stats))
    }
}

/// The name of `engine` when it is a memo engine (counts only).
fn memo_name(engine: Engine) -> Option<&'static str> {
    match engine {
        Engine::Memo => Some("memo"),
        Engine::MemoSweep => Some("memo-sweep"),
        Engine::MemoMrv => Some("memo-mrv"),
        _ => None,
    }
}

/// Whether `model` is pure exact cover that the memo engines take: no objective, every row
/// an "exactly one" row (no secondary items, no multiplicities), at most 1,024 rows. What `auto` may count with `memo-sweep` (see
/// [`Xcc::count_visiting_then_memo`]). Costs one scan of the rows' senses.
pub fn pure_exact_cover(model: &Model) -> bool {
    let rows = model.constraints();
    model.objective().is_none()
        && !rows.is_empty()
        && rows.len() <= memo::MAX_ITEMS
        && rows
            .iter()
            .all(|c| c.weights.is_none() && c.sense == Sense::ExactlyOne)
}

/// When [`Xcc::count_visiting_then_memo`] hands a count to `memo-sweep`, and when it takes it
/// back (`auto`'s values: `crate::backend::auto::COUNT_SWITCH`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoSwitch {
    /// The solutions the visiting engine lists before a model of pure exact cover goes to
    /// the memo (a model with fewer is counted by the visiting engine alone).
    pub after_solutions: u64,
    /// How long the memo runs before its cache is judged (the longer of this and the
    /// visiting engine's first run when `at_least_first_run`).
    pub check_after: Duration,
    /// Whether the memo runs at least as long as the visiting engine's first run before it is
    /// judged (what `auto` does: a slow first run says the model is costly either way). Off,
    /// the checkpoint depends on `check_after` alone (with zero: at the first test, every
    /// 1,024 states, whatever the machine's speed).
    pub at_least_first_run: bool,
    /// The fewest cache hits per node counted at that point for the memo to go on; below
    /// it, the visiting engine counts the model from the start.
    pub min_hits_per_node: f64,
    /// The fewest options per item at which a model of pure exact cover is counted by
    /// `memo-sweep` first, with no visiting before it (set partitions, perfect matchings,
    /// pentominoes, Langford pairs from 11: the visiting engines' preparation and search grow
    /// with the options, and the covered sets repeat); sparser models visit first as above.
    pub memo_first_options_per_item: usize,
    /// The most mask tests `memo-sweep` may make by its bound
    /// (`MemoProblem::sweep_work_bound`, known before it runs) for it to count such a model
    /// unchecked: it is sure to be quick.
    pub memo_first_unchecked_work: u64,
    /// Past that bound, the nodes the memo counts before its cache is judged (against
    /// `min_hits_per_node`; deterministic: no clock); below it, the visiting engine counts
    /// the model from the start.
    pub memo_first_check_after_nodes: u64,
}

impl Xcc {
    /// The count `auto` makes of `model` (see the README's "auto: which engine, by
    /// measurement"): the visiting engine (`engine=auto`'s choice) until it has listed
    /// `switch.after_solutions` solutions; a model with fewer is counted there and then. Past
    /// that, a model that is [`pure_exact_cover`] is counted again from the start by
    /// `memo-sweep`, whose cost follows the distinct sets of covered items rather than the
    /// solutions, unless at its checkpoint (`switch.check_after`, or the first run's time if
    /// longer) its cache hits are fewer than `switch.min_hits_per_node` per node: then the
    /// visiting engine counts the model from the start (sparse Sudoku grids, whose covered
    /// sets rarely repeat). Any other model, and any count with a `limit` (the memo cannot
    /// stop early), is counted by the visiting engine alone. `extra.visited_first` records the
    /// solutions listed before the switch, `extra.memo_abandoned_at` the memo's nodes when it
    /// gave up; the seconds reported (and the time limit) cover every run. Cost: on a switch,
    /// the first run is spent for nothing; on a memo given up, also the checkpoint's time.
    pub fn count_visiting_then_memo(
        &mut self,
        model: &Model,
        limit: Option<u64>,
        switch: MemoSwitch,
    ) -> Result<CountReport, BackendError> {
        if limit.is_some() || !pure_exact_cover(model) || self.engine != Engine::Auto {
            return self.count(model, limit);
        }
        let start = Instant::now();
        if let Some(end) = self.count_memo_first(model, switch)? {
            let mut report = match end {
                memo::MemoEnd::Counted(report) => report,
                memo::MemoEnd::Abandoned(stats) => self.count_after_memo(model, start, &stats)?,
            };
            report.stats.seconds = start.elapsed().as_secs_f64();
            return Ok(report);
        }
        let first = self.count(model, Some(switch.after_solutions))?;
        if first.end != CountEnd::AtLimit {
            return Ok(first);
        }
        let full = self.time_limit;
        let left = full.map(|t| t.saturating_sub(start.elapsed()));
        let checkpoint = memo::Checkpoint {
            at: Instant::now()
                + match switch.at_least_first_run {
                    true => switch.check_after.max(start.elapsed()),
                    false => switch.check_after,
                },
            after_nodes: 0,
            min_hits_per_node: switch.min_hits_per_node,
        };
        let branching = Some(memo::Branching::Sweep);
        let memo =
            self.count_memo_with(model, "memo-sweep", branching, left, None, Some(checkpoint))?;
        let mut report = match memo {
            memo::MemoEnd::Counted(report) => report,
            memo::MemoEnd::Abandoned(stats) => self.count_after_memo(model, start, &stats)?,
        };
        report.stats.seconds = start.elapsed().as_secs_f64();
        report
            .stats
            .extra
            .insert("visited_first".into(), switch.after_solutions.into());
        Ok(report)
    }

    /// The count of `model` (pure exact cover) by `memo-sweep` first, with no visiting before
    /// it, when it has at least `switch.memo_first_options_per_item` options per item; `None`
    /// otherwise (or when the memo cannot take it). Within `switch.memo_first_unchecked_work` mask tests by
    /// [`memo::MemoProblem::sweep_work_bound`] (`extra.memo_work_bound` records it) the memo
    /// is sure to be quick and runs unchecked; past it, it is judged at `switch.check_after`
    /// by its cache hits per node as in [`Xcc::count_visiting_then_memo`], and a memo given up
    /// is [`memo::MemoEnd::Abandoned`]. Cost: one comparison, and on a model with that many
    /// options per item, the memo's form and its bound (one pass over the options' masks),
    /// kept for the count.
    fn count_memo_first(
        &mut self,
        model: &Model,
        switch: MemoSwitch,
    ) -> Result<Option<memo::MemoEnd>, BackendError> {
        let (options, items) = (model.num_variables(), model.constraints().len());
        if options < switch.memo_first_options_per_item.saturating_mul(items) {
            return Ok(None);
        }
        let Ok(form) = self.memo_form(model, "memo-sweep") else {
            return Ok(None);
        };
        let bound = form.sweep_work_bound();
        let checkpoint = (bound > switch.memo_first_unchecked_work).then(|| memo::Checkpoint {
            at: Instant::now(),
            after_nodes: switch.memo_first_check_after_nodes,
            min_hits_per_node: switch.min_hits_per_node,
        });
        let (branching, time_limit) = (Some(memo::Branching::Sweep), self.time_limit);
        let mut end =
            self.count_memo_with(model, "memo-sweep", branching, time_limit, None, checkpoint)?;
        let extra = match &mut end {
            memo::MemoEnd::Counted(report) => &mut report.stats.extra,
            memo::MemoEnd::Abandoned(stats) => &mut stats.extra,
        };
        extra.insert("memo_work_bound".into(), bound.into());
        Ok(Some(end))
    }

    /// The visiting engine's count of `model` from the start, after a memo given up (its
    /// `abandoned` statistics), within what is left of the time limit since `start`.
    fn count_after_memo(
        &mut self,
        model: &Model,
        start: Instant,
        abandoned: &Stats,
    ) -> Result<CountReport, BackendError> {
        let full = self.time_limit;
        self.time_limit = full.map(|t| t.saturating_sub(start.elapsed()));
        let again = self.count(model, None);
        self.time_limit = full;
        let mut report = again?;
        let extra = &mut report.stats.extra;
        extra.insert("memo_abandoned_at".into(), abandoned.nodes.into());
        Ok(report)
    }

    /// Counts `model` with the memo engine `name` (see `memo`), up to `limit`.
    fn count_memo(
        &mut self,
        model: &Model,
        name: &str,
        limit: Option<u64>,
    ) -> Result<CountReport, BackendError> {
        let branching = match self.engine {
            Engine::MemoSweep => Some(memo::Branching::Sweep),
            Engine::MemoMrv => Some(memo::Branching::Mrv),
            _ => None,
        };
        let time_limit = self.time_limit;
        match self.count_memo_with(model, name, branching, time_limit, limit, None)? {
            memo::MemoEnd::Counted(report) => Ok(report),
            memo::MemoEnd::Abandoned(_) => Err(BackendError::Failed {
                backend: "xcc".into(),
                reason: format!("engine '{name}' stopped at a checkpoint it was not given"),
            }),
        }
    }

    /// The memo engines' form of `model` (built once per shape, kept with its problem), or
    /// why engine `name` cannot take it.
    fn memo_form(&mut self, model: &Model, name: &str) -> Result<&memo::MemoProblem, BackendError> {
        self.prepare_problem(model);
        let prepared = self.cache.as_mut().expect("set by prepare_problem");
        let form = prepared
            .memo
            .get_or_insert_with(|| memo::MemoProblem::of(&prepared.problem, &prepared.model));
        form.as_ref().map_err(|why| BackendError::TooLarge {
            backend: "xcc".into(),
            reason: format!("engine '{name}' {why}"),
        })
    }

    /// Counts `model` with the memo engine `name` under `branching` (`None`: `memo`'s
    /// choice), `time_limit` and `checkpoint`, up to `limit`. The seconds reported include
    /// building the problem's forms, as the visiting engines' do.
    fn count_memo_with(
        &mut self,
        model: &Model,
        name: &str,
        branching: Option<memo::Branching>,
        time_limit: Option<Duration>,
        limit: Option<u64>,
        checkpoint: Option<memo::Checkpoint>,
    ) -> Result<memo::MemoEnd, BackendError> {
        let (budget, start) = (self.memo_budget, Instant::now());
        self.memo_form(model, name)?;
        let Some(Prepared {
            problem,
            memo: Some(Ok(form)),
            ..
        }) = &self.cache
        else {
            unreachable!("built by memo_form")
        };
        let end = memo::count(
            problem, form, model, branching, budget, time_limit, limit, checkpoint,
        )?;
        Ok(match end {
            memo::MemoEnd::Counted(mut report) => {
                report.stats.seconds = start.elapsed().as_secs_f64();
                memo::MemoEnd::Counted(report)
            }
            abandoned => abandoned,
        })
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
        })?;
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
                count: Count::zero(),
                end: CountEnd::AtLimit,
                witnesses: Vec::new(),
                stats: Stats::default(),
            });
        }
        if let Some(name) = memo_name(self.engine) {
            return self.count_memo(model, name, limit);
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
        })?;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(CountReport {
            count: count.into(),
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
        })?;
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
    fn size_caps(&self) -> &'static str {
        "none for dlx; transposed: 512 items of 64 options, sweep: 128 items"
    }
    /// Exact-cover rows and unit-weight cardinality rows; weighted rows are refused by name.
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal> {
        rows_supported(model)
    }
    /// Proof logging through the `counts` engine (see `proof`), except with a memo engine.
    fn prover(&mut self) -> Option<&mut dyn crate::backend::proof::Prover> {
        match self.proof_refusal() {
            None => Some(self),
            Some(_) => None,
        }
    }
    fn no_prover_reason(&self) -> String {
        self.proof_refusal().unwrap_or_default()
    }
}
