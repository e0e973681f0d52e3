//! The SAT backend's optimisation: solution-improving search over CNF encodings rebuilt on the
//! variables the branch-and-bound bound leaves open.
//!
//! Solve, then ask for a solution of value at most `t`, a pseudo-Boolean bound encoded with
//! the backend's `pb-encoding` through rustsat (negative costs on negated literals), until no
//! solution is better than the incumbent: that one is optimal.
//!
//! Without `bound-fixing`, `t` is the incumbent's value minus 1 (linear search) and one solver
//! serves the whole search: the objective is one incremental encoding ([`ObjectiveBounds`]),
//! each bound adds only the encoding's new part, assumed for its call, and learnt clauses carry
//! over.
//!
//! With `bound-fixing` (the default) the shared branch-and-bound bound
//! ([`CostBound::fix_against`], its surrogate row weighted by an LP dual,
//! [`crate::backend::surrogate`]) joins in. The search keeps a proved lower bound `lower`
//! (first the bound at the root) and asks for a solution of value at most `t = lower + step - 1`,
//! galloping up from the bound: `step` is 1 after each new incumbent and doubles after each
//! call that proves nothing is at most `t`, capped at the middle of `lower` and the incumbent
//! (bisection). Targets near the bound let it fix the most variables, which makes those calls
//! cheap; a target near the incumbent fixes few and can take varisat seconds on a knapsack. Before each call the bound fixes the
//! variables every solution of value at most `t` gives one value (reduced-cost fixing against
//! `t + 1`, on top of the fixings kept against the incumbent); when it shows no such solution,
//! `lower = t + 1` without a SAT call. Satisfiable: a better incumbent. Unsatisfiable:
//! `lower = t + 1`. The incumbent is optimal once `lower` reaches it.
//!
//! **Stages.** The fixings shrink the problem, so a call with many more fixed variables than
//! the current solver knows gets a new solver (a `Stage`) over the model reduced by them
//! ([`Model::reduce_fixed`]): rows lose their fixed variables (knapsack capacities drop by the
//! weight fixed to 1), and the objective bound is encoded over the open terms only, the fixed
//! ones a constant. A much smaller encoding, at the price of the learnt clauses. A stage built
//! for target `t` holds for every later target up to `t` (the bisection's next targets after
//! a satisfiable call); other calls reuse it and assume the fixings it does not have. A new
//! stage is built when the call's fixings exceed the stage's by [`REBUILD_FRACTION`] of the
//! variables, or when the target is above what the stage holds for.
//!
//! Each new incumbent is first improved greedily (`BoundFixer::fill`). Stopped by the time
//! limit or the stop flag: the incumbent with `lower` as its proved bound (`feasible`), or
//! `timeout` without one. Cost: two bound evaluations per open variable per call and
//! incumbent, one CNF encoding per stage.
//!
//! **Objectives of any length.** The objective's bound is encoded with the backend's
//! `pb-encoding`, except that a GTE whose estimated size passes [`GTE_OBJECTIVE_BUDGET`] (it
//! grows with the number of distinct partial sums, so with long objectives of varied costs)
//! is replaced by the dynamic polynomial watchdog (DPW, about `n * B^2` clauses for `B` bits
//! of the largest cost), which stays small at any length ([`objective_encoding`]). Refused
//! (`unsupported`) only when the costs' absolute values sum past `isize::MAX` (the encodings'
//! weight type), or past [`MAX_OBJECTIVE_CLAUSES`] clauses of bounds.
//!
//! **Bound.** `lower` is a proved bound at every moment: the branch-and-bound bound at the
//! root (with `bound-fixing`) or the trivial one (every negative cost taken, the givens
//! placed), raised by each target refuted. A stop at any point reports it.

use varisat::{Lit, Solver as VarisatSolver};

use super::{add_clauses, encode, failed, new_solver, run, Limits, Sat};
use crate::backend::branch_bound::{BoundFixing, CostBound};
use crate::backend::search::{Layout, VarSet};
use crate::backend::{BackendError, Found, OptimizeReport, Optimizer, Stats};
use crate::encode::cnf::{CnfOptions, ObjectiveBounds, PbEncoding};
use crate::model::{Model, Objective, Reduction, Solution};

/// The largest GTE (in clauses, as [`gte_estimate`] counts them) the objective's bound gets;
/// past it the objective is encoded with DPW instead (see the module docs). 2^22 clauses keep
/// the committed optimisation experiment's objectives (at most 120 terms of costs up to 50:
/// about 10^6) on GTE.
pub const GTE_OBJECTIVE_BUDGET: u128 = 1 << 22;

/// The most clauses the objective bounds may add to one stage's solver (the clauses held at
/// once; a new stage drops the old solver); a larger encoding is refused (`unsupported`)
/// rather than allowed to exhaust memory.
pub const MAX_OBJECTIVE_CLAUSES: usize = 2_000_000;

/// A new `Stage` is built when a call fixes at least this fraction of the model's variables
/// (1 / this, and at least one) beyond what the current stage fixes.
pub const REBUILD_FRACTION: usize = 16;

/// How a search ended, and what it found.
struct Search {
    /// The incumbent (minimisation-form value and solution), if any.
    best: Option<(i128, Solution)>,
    /// The proved lower bound (minimisation form).
    lower: i128,
    /// Whether a limit stopped it (otherwise it finished: optimal or infeasible).
    stopped: bool,
}

/// The counters of a search, for [`Stats::extra`].
#[derive(Default)]
struct Counters {
    calls: u64,
    stages: u64,
    objective_clauses: usize,
}

impl Sat {
    /// The solution-improving search (see the module docs).
    fn improve(&self, model: &Model, stats: &mut Stats) -> Result<Search, BackendError> {
        let objective = model.objective().ok_or_else(|| failed("no objective"))?;
        let limits = Limits::start(self.time_limit);
        let mut fixer = self.bound_fixing.then(|| BoundFixer::new(model));
        let mut search = Search {
            best: None,
            lower: match fixer.as_mut() {
                Some(fixer) => fixer.root_bound(),
                None => trivial_bound(model, objective),
            },
            stopped: false,
        };
        let n = model.num_variables();
        let mut counters = Counters::default();
        let mut stage: Option<Stage> = None;
        // The distance above `lower` of the next target (with fixing): 1 after a solution,
        // doubled after each call that proves nothing is that low.
        let mut step: i128 = 1;
        loop {
            if limits.reached() {
                search.stopped = true;
                break;
            }
            let (target, fixings) = match (&search.best, fixer.as_mut()) {
                (None, _) => (None, vec![None; n]),
                (Some((b, _)), _) if search.lower >= *b => break, // proved
                (Some((b, _)), None) => (Some(*b - 1), vec![None; n]),
                (Some((b, _)), Some(fixer)) => {
                    // Galloping up from the bound, at most to the middle (see the module docs).
                    let t = search.lower + (step - 1).min((*b - 1 - search.lower) / 2);
                    match fixer.trial(t + 1) {
                        None => {
                            search.lower = t + 1; // the bound alone shows none is <= t
                            step = step.saturating_mul(2);
                            continue;
                        }
                        Some(fixings) => (Some(t), fixings),
                    }
                }
            };
            let fixed = fixings.iter().filter(|f| f.is_some()).count();
            let stale = stage.as_ref().is_none_or(|s| {
                target.is_some_and(|t| s.valid_to.is_some_and(|v| t > v))
                    || fixed >= s.fixed + (n / REBUILD_FRACTION).max(1)
            });
            if stale {
                counters.stages += 1;
                stage = Stage::new(model, objective, &fixings, target, &self.encoding, &limits)?;
            }
            let Some(current) = stage.as_mut() else {
                // The fixings leave no solution of value at most the target (or none at all).
                stage = None;
                match target {
                    Some(t) => {
                        search.lower = t + 1;
                        step = step.saturating_mul(2);
                    }
                    None => break,
                }
                continue;
            };
            counters.calls += 1;
            let q = current.query(target, &fixings, &limits, &mut counters)?;
            match q {
                Query::Stopped => {
                    search.stopped = true;
                    break;
                }
                Query::None => match target {
                    Some(t) => {
                        search.lower = t + 1;
                        step = step.saturating_mul(2);
                    }
                    None => break, // no solution at all
                },
                Query::Found(mut value) => {
                    if let Some(fixer) = &fixer {
                        fixer.fill(&mut value);
                    }
                    let solution = Solution::from_bools(&value);
                    let v = min_form_value(objective, &solution);
                    step = 1;
                    search.best = Some((v, solution));
                    // Every better solution obeys what the bound fixes against v (kept for
                    // every later call); the bound may also show that none exists.
                    if let Some(BoundFixing::NoneBetter) = fixer.as_mut().map(|f| f.fix_against(v))
                    {
                        search.lower = v;
                    }
                }
            }
        }
        stats.nodes = counters.calls;
        let extra = &mut stats.extra;
        extra.insert("sat_calls".into(), counters.calls.into());
        extra.insert("stages".into(), counters.stages.into());
        let clauses = counters.objective_clauses as u64;
        extra.insert("objective_clauses".into(), clauses.into());
        if let Some(fixer) = &fixer {
            let fixed = fixer.fixed.iter().filter(|f| f.is_some()).count();
            extra.insert("fixed_by_bound".into(), (fixed as u64).into());
        }
        Ok(search)
    }
}

/// The trivial lower bound (minimisation form): every negative cost taken, every given
/// placed. Cost: one pass over the variables.
fn trivial_bound(model: &Model, objective: &Objective) -> i128 {
    let mut given = vec![false; model.num_variables()];
    for &g in model.givens() {
        given[g] = true;
    }
    (0..model.num_variables())
        .map(|v| {
            let c = i128::from(objective.min_cost(v));
            if given[v] {
                c
            } else {
                c.min(0)
            }
        })
        .sum()
}

/// The encoding the objective's bound gets: `requested`, unless that is GTE and its size
/// ([`gte_estimate`] over the costs' absolute values) passes [`GTE_OBJECTIVE_BUDGET`]: then
/// DPW. Cost: `O(n log n)` over the costs.
pub fn objective_encoding(costs: &[(usize, i64)], requested: PbEncoding) -> PbEncoding {
    if requested != PbEncoding::Gte {
        return requested;
    }
    let weights: Vec<u128> = costs
        .iter()
        .map(|&(_, c)| c.unsigned_abs().into())
        .collect();
    if gte_estimate(&weights) > GTE_OBJECTIVE_BUDGET {
        PbEncoding::Dpw
    } else {
        PbEncoding::Gte
    }
}

/// An upper estimate of the clauses of a generalized totalizer over `weights` with no bound
/// (a balanced tree whose node has one output per distinct partial sum, at most
/// `min(2^leaves, sum + 1)`, and `left * right` clauses), saturating. Cost: `O(n log n)`.
pub fn gte_estimate(weights: &[u128]) -> u128 {
    fn node(weights: &[u128]) -> (u128, u128) {
        let sum = weights.iter().fold(0u128, |a, &w| a.saturating_add(w));
        let sums = if weights.len() >= 127 {
            u128::MAX
        } else {
            1u128 << weights.len()
        };
        let outputs = sums.min(sum.saturating_add(1));
        if weights.len() <= 1 {
            return (outputs, 0);
        }
        let (l, r) = weights.split_at(weights.len() / 2);
        let ((lo, lc), (ro, rc)) = (node(l), node(r));
        (
            outputs,
            lo.saturating_mul(ro).saturating_add(lc).saturating_add(rc),
        )
    }
    node(weights).1
}

/// The minimisation-form value of `solution`: the sum of its ones' [`Objective::min_cost`].
fn min_form_value(objective: &Objective, solution: &Solution) -> i128 {
    (solution.ones.iter())
        .map(|&x| i128::from(objective.min_cost(x)))
        .sum()
}

/// What one SAT call of a [`Stage`] found.
enum Query {
    /// A solution (one value per model variable), of value at most the target.
    Found(Vec<bool>),
    /// No solution of value at most the target agrees with the fixings.
    None,
    /// A limit stopped the call.
    Stopped,
}

/// A SAT solver over the model reduced by fixings that hold for every solution of value at
/// most `valid_to` (see the module docs), with the incremental encoding of the objective over
/// the reduced model's variables.
struct Stage<'a> {
    solver: VarisatSolver<'a>,
    bounds: ObjectiveBounds,
    /// The reduced model and the way back.
    reduction: Reduction,
    /// Per model variable: its value when the stage fixes it.
    value: Vec<Option<bool>>,
    /// Per model variable: its id in the reduced model, when open there.
    reduced: Vec<Option<usize>>,
    /// The minimisation-form value of the variables fixed to 1.
    offset: i128,
    /// The largest target the fixings hold for (`None`: every solution).
    valid_to: Option<i128>,
    /// How many variables the stage fixes.
    fixed: usize,
    /// The clauses of objective bounds this stage's solver holds.
    objective_clauses: usize,
}

impl Stage<'_> {
    /// A stage over `model` reduced by `fixings` (per model variable; the givens are fixed to
    /// 1 on top), valid up to `valid_to`; `None` when the fixings leave no solution. Cost: one
    /// pass over the nonzeros and the reduced model's CNF encoding.
    fn new<'a>(
        model: &Model,
        objective: &Objective,
        fixings: &[Option<bool>],
        valid_to: Option<i128>,
        encoding: &CnfOptions,
        limits: &Limits,
    ) -> Result<Option<Stage<'a>>, BackendError> {
        let mut value = fixings.to_vec();
        for &g in model.givens() {
            if value[g] == Some(false) {
                return Ok(None);
            }
            value[g] = Some(true);
        }
        let reduction = model.reduce_fixed(&value);
        if reduction.infeasible {
            return Ok(None);
        }
        let costs: Vec<(usize, i64)> = (reduction.original.iter().enumerate())
            .map(|(i, &v)| (i, objective.min_cost(v)))
            .filter(|&(_, c)| c != 0)
            .collect();
        let total: i128 = costs
            .iter()
            .map(|&(_, c)| i128::from(c.unsigned_abs()))
            .sum();
        if total > isize::MAX as i128 {
            return Err(BackendError::TooLarge {
                backend: "sat".into(),
                reason: format!(
                    "the objective's costs sum to {total} in absolute value; the encodings take at most {}",
                    isize::MAX
                ),
            });
        }
        let cnf = encode(&reduction.model, encoding)?;
        let mut solver = new_solver(limits);
        add_clauses(&mut solver, &cnf.clauses);
        let mut reduced = vec![None; value.len()];
        for (i, &v) in reduction.original.iter().enumerate() {
            reduced[v] = Some(i);
        }
        let offset = (reduction.ones.iter())
            .map(|&v| i128::from(objective.min_cost(v)))
            .sum();
        Ok(Some(Stage {
            solver,
            bounds: ObjectiveBounds::new(
                &costs,
                cnf.num_vars,
                objective_encoding(&costs, encoding.pb),
            ),
            fixed: value.iter().filter(|f| f.is_some()).count(),
            reduction,
            value,
            reduced,
            offset,
            valid_to,
            objective_clauses: 0,
        }))
    }

    /// One SAT call: a solution of value at most `target` (any solution when `None`) that
    /// agrees with `fixings` (per model variable; those the stage fixes are checked, the
    /// others assumed).
    fn query(
        &mut self,
        target: Option<i128>,
        fixings: &[Option<bool>],
        limits: &Limits,
        counters: &mut Counters,
    ) -> Result<Query, BackendError> {
        let mut assumed: Vec<i32> = Vec::new();
        if let Some(t) = target {
            let bound = self.bounds.at_most_assumed(t - self.offset);
            let too_large = |reason: String| BackendError::TooLarge {
                backend: "sat".into(),
                reason,
            };
            let Some((clauses, lits, _)) = bound.map_err(|e| too_large(e.to_string()))? else {
                return Ok(Query::None); // the fixed ones alone cost more than t
            };
            counters.objective_clauses += clauses.len();
            self.objective_clauses += clauses.len();
            if self.objective_clauses > MAX_OBJECTIVE_CLAUSES {
                return Err(too_large(format!(
                    "the objective bounds of one stage took more than {MAX_OBJECTIVE_CLAUSES} clauses; try pb-encoding=adder"
                )));
            }
            add_clauses(&mut self.solver, &clauses);
            assumed = lits;
        }
        for (v, fix) in fixings.iter().enumerate() {
            let Some(fix) = *fix else { continue };
            match (self.reduced[v], self.value[v]) {
                (Some(i), _) => assumed.push(if fix { i as i32 + 1 } else { -(i as i32 + 1) }),
                (None, Some(kept)) if kept != fix => return Ok(Query::None),
                (None, _) => {}
            }
        }
        let lits: Vec<Lit> = (assumed.iter())
            .map(|&l| Lit::from_dimacs(l as isize))
            .collect();
        self.solver.assume(&lits);
        match run(&mut self.solver, limits)? {
            None => Ok(Query::Stopped),
            Some(false) => Ok(Query::None),
            Some(true) => {
                let n = self.reduction.model.num_variables();
                let mut reduced = vec![false; n];
                for lit in self.solver.model().unwrap_or_default() {
                    if lit.index() < n && lit.is_positive() {
                        reduced[lit.index()] = true;
                    }
                }
                let lifted = self.reduction.lift(&Solution::from_bools(&reduced));
                let mut value = vec![false; self.value.len()];
                for v in lifted.ones {
                    value[v] = true;
                }
                Ok(Query::Found(value))
            }
        }
    }
}

/// Reduced-cost fixing for the solution-improving search: the shared branch-and-bound bound
/// ([`CostBound::fix_against`]), its surrogate row weighted by the LP dual
/// ([`crate::backend::surrogate`]), probed against each new incumbent and each target.
struct BoundFixer {
    layout: Layout,
    bound: CostBound,
    /// Per model variable: the value every better solution takes, when fixed.
    fixed: Vec<Option<bool>>,
}

impl BoundFixer {
    /// Cost: the search layout of `model` (linear in its nonzeros) and one LP over its
    /// knapsack rows.
    fn new(model: &Model) -> BoundFixer {
        let layout = Layout::new(model);
        let objective = model
            .objective()
            .expect("an optimising search has an objective");
        let mut bound = CostBound::new(&layout, objective);
        if let Some(multipliers) = crate::backend::surrogate::lp_multipliers(&layout, &bound) {
            bound.use_surrogate_multipliers(&layout, &multipliers);
        }
        let fixed = vec![None; layout.model_vars];
        BoundFixer {
            layout,
            bound,
            fixed,
        }
    }

    /// What the bound fixes against an incumbent of minimisation-form value `incumbent`
    /// (kept for every later call).
    fn fix_against(&mut self, incumbent: i128) -> BoundFixing {
        self.bound
            .fix_against(&self.layout, &mut self.fixed, incumbent)
    }

    /// Every fixing (the kept ones and those against `incumbent`) for one query only (nothing
    /// is kept), or `None` when the bound shows no solution costs less than `incumbent`.
    fn trial(&mut self, incumbent: i128) -> Option<Vec<Option<bool>>> {
        let mut fixed = self.fixed.clone();
        match (self.bound).fix_against(&self.layout, &mut fixed, incumbent) {
            BoundFixing::NoneBetter => None,
            BoundFixing::Fixed(_) => Some(fixed),
        }
    }

    /// Greedy improvement of a solution (`value` per model variable): each variable at 0
    /// with a negative cost, best value per unit of knapsack load first
    /// ([`CostBound::branch_keys`]), is set to 1 when every row it sits in has room for its
    /// weight. Upper bounds stay met and sums only grow, so the solution stays one (the caller
    /// verifies it anyway). Cost: a sort of the negative-cost variables and a pass over
    /// their rows.
    fn fill(&self, value: &mut [bool]) {
        let layout = &self.layout;
        let mut sum = vec![0u64; layout.num_rows];
        for v in (0..layout.model_vars).filter(|&v| value[v]) {
            for (&r, &w) in layout.rows_of(v).iter().zip(layout.weights_of(v)) {
                sum[r as usize] += w;
            }
        }
        let keys = self.bound.branch_keys(layout);
        let costs = self.bound.costs();
        let mut open: Vec<usize> = (0..layout.model_vars)
            .filter(|&v| !value[v] && costs[v] < 0 && self.fixed[v] != Some(false))
            .collect();
        open.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]).then(a.cmp(&b)));
        for v in open {
            let rows = layout.rows_of(v).iter().zip(layout.weights_of(v));
            let fits = |(&r, &w): (&u32, &u64)| {
                (sum[r as usize].checked_add(w)).is_some_and(|t| t <= layout.upper[r as usize])
            };
            if rows.clone().all(fits) {
                value[v] = true;
                rows.for_each(|(&r, &w)| sum[r as usize] += w);
            }
        }
    }

    /// The bound at the root (the givens placed): no solution costs less.
    fn root_bound(&mut self) -> i128 {
        let legal = VarSet::full(self.layout.num_vars);
        let givens: Vec<u32> = self.layout.givens.iter().map(|&g| g as u32).collect();
        self.bound.lower_bound(&self.layout, &legal, &givens)
    }
}

/// The search of `Sat::improve`, reported: `optimal` when it finished with a solution,
/// `infeasible` without one, `feasible` (the incumbent, the proved bound) or `timeout` when a
/// limit stopped it.
impl Optimizer for Sat {
    fn optimize(&mut self, model: &Model) -> Result<OptimizeReport, BackendError> {
        let start = std::time::Instant::now();
        let objective = model.objective().ok_or_else(|| failed("no objective"))?;
        let mut stats = Stats::default();
        let search = self.improve(model, &mut stats)?;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(match (search.best, search.stopped) {
            (Some((v, s)), false) => OptimizeReport::optimal(s, objective.flip(v), stats),
            (Some((v, s)), true) => OptimizeReport {
                found: Found::Solution(s),
                value: Some(objective.flip(v)),
                proved: false,
                bound: Some(objective.flip(search.lower)),
                stats,
            },
            (None, false) => OptimizeReport::without_solution(Found::Infeasible, stats),
            (None, true) => OptimizeReport {
                bound: Some(objective.flip(search.lower)),
                ..OptimizeReport::without_solution(Found::TimedOut, stats)
            },
        })
    }
}
