//! The coordinate-tuple enumerator (`--backend enum`): the hex write-up's method, generalised over
//! any model.
//!
//! One family supplies the coordinates of the tuple (hex and Queens: `row`, Sudoku: `cell`; a
//! generic model: the first family of "exactly one" rows that partitions the variables). The
//! search walks its lines in order and places one variable per line; every other row is a
//! distinctness rule checked the moment a variable is placed. Placing a variable marks every row
//! containing it as used, so the state of the search is one bitset over the rows and a variable is
//! available when none of its rows is used. "Exactly one" rows whose variables all lie on lines
//! already passed, yet are unused, prune the branch at once.
//!
//! Rows that are not coordinate lines but "exactly one" are branched on too once the coordinate
//! lines are done, and variables in no "exactly one" row are chosen in or out at the end, so the
//! enumeration is exact on every model.
//!
//! General rows (`sum w x (=, <=, >=) k` with `k != 1` or weights) are not bits: each keeps a
//! running sum along the path. Placing a variable that would take a row past its upper bound is
//! refused at once, and every node checks each general row against its lower bound with an
//! upper bound on what it can still gain (each coordinate line still to come adds at most its
//! heaviest variable of the row, each free variable its weight), pruning as soon as a row can no
//! longer reach it. The coordinate family stays an "exactly one" family; a model with none
//! (e.g. rows and columns `= 2`) is enumerated by choosing its variables in or out, pruned the
//! same way. With `order = mrv` the lower bounds are checked only once the free phase starts.
//! Cost per node: one comparison per general row, plus the general rows of the placed variable.
//!
//! Options (`BackendOptions::params`):
//! - `families`: comma list of the families to keep (`row,diag`); the others are dropped, so the
//!   answers are solutions of [`Model::restricted_to`] of that list (verify them against it).
//! - `order`: `fixed` (coordinate lines in model order, as in the seed; the default) or `mrv`
//!   (at every node the "exactly one" row with the fewest available variables, any family).
//! - `coordinate`: the family that supplies the coordinates (default: by puzzle kind).
//! - `threads`: `1` for a sequential count; otherwise counts without a limit split the search
//!   tree over rayon's pool.
//!
//! Costs: one node per placed variable; each node costs one AND over `ceil(rows / 64)` words per
//! candidate tried (`mrv` scans every open row instead). Memory is the model plus one bitset per
//! variable; nothing is allocated per node (a solution is built only when handed to a callback).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, Found, SolveReport,
    Solver, Stats, Undecided, WITNESS_LIMIT,
};
use crate::model::{Model, Reduction, Sense, Solution, VarId};

const NAME: &str = "enum";

/// Branching order of the enumerator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// The coordinate family's lines in model order, then any other "exactly one" rows (the
    /// seed's method).
    #[default]
    Fixed,
    /// At every node, the open "exactly one" row with the fewest available variables.
    Mrv,
}

/// Settings of one enumeration, read from [`BackendOptions`] by [`EnumSettings::from_options`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnumSettings {
    /// Families to keep (`None`: all).
    pub families: Option<Vec<String>>,
    /// Branching order.
    pub order: Order,
    /// Family supplying the coordinates (`None`: chosen by puzzle kind).
    pub coordinate: Option<String>,
    /// Wall-clock limit per call.
    pub time_limit: Option<Duration>,
    /// Whether counts without a limit may use rayon's thread pool.
    pub parallel: bool,
}

impl EnumSettings {
    /// Reads `families`, `order`, `coordinate`, `threads` and the time limit.
    pub fn from_options(options: &BackendOptions) -> Result<EnumSettings, BackendError> {
        let bad = |key: &str, value: &str, expected: &str| BackendError::BadOption {
            backend: NAME.into(),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        };
        let families = match options.params.get("families") {
            None => None,
            Some(list) => {
                let names: Vec<String> = list
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                if names.is_empty() {
                    return Err(bad("families", list, "a comma list of family names"));
                }
                Some(names)
            }
        };
        let order = match options.params.get("order").map(String::as_str) {
            None | Some("fixed") => Order::Fixed,
            Some("mrv") => Order::Mrv,
            Some(other) => return Err(bad("order", other, "'fixed' or 'mrv'")),
        };
        let threads: usize = options.param(NAME, "threads", 0, "a thread count (0 = all)")?;
        Ok(EnumSettings {
            families,
            order,
            coordinate: options.params.get("coordinate").cloned(),
            time_limit: options.checked_time_limit(NAME)?,
            parallel: threads != 1,
        })
    }
}

/// What one enumeration did.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchSummary {
    /// Solutions met (each handed to the callback, or counted).
    pub solutions: u128,
    /// Whether the whole tree was searched (false: the callback stopped it, the limit or the
    /// time limit was hit).
    pub finished: bool,
    /// Whether the time limit stopped the search.
    pub timed_out: bool,
    /// Nodes, nodes per depth, solutions and seconds.
    pub stats: Stats,
}

impl SearchSummary {
    /// How the enumeration ended (the enumerator is exact: a finished search is complete).
    pub fn end(&self) -> CountEnd {
        match (self.finished, self.timed_out) {
            (true, _) => CountEnd::Complete,
            (false, true) => CountEnd::TimedOut,
            (false, false) => CountEnd::AtLimit,
        }
    }
}

/// A bitset of `K` words over the rows of a model.
type Bits<const K: usize> = [u64; K];

#[inline(always)]
fn disjoint<const K: usize>(a: &Bits<K>, b: &Bits<K>) -> bool {
    (0..K).all(|i| a[i] & b[i] == 0)
}

#[inline(always)]
fn contains<const K: usize>(big: &Bits<K>, small: &Bits<K>) -> bool {
    (0..K).all(|i| big[i] & small[i] == small[i])
}

#[inline(always)]
fn union<const K: usize>(a: &Bits<K>, b: &Bits<K>) -> Bits<K> {
    let mut out = *a;
    for i in 0..K {
        out[i] |= b[i];
    }
    out
}

#[inline(always)]
fn has<const K: usize>(a: &Bits<K>, bit: usize) -> bool {
    a[bit / 64] >> (bit % 64) & 1 == 1
}

fn set<const K: usize>(a: &mut Bits<K>, bit: usize) {
    a[bit / 64] |= 1 << (bit % 64);
}

/// The search plan of one model with `K`-word row bitsets.
#[derive(Debug, Clone)]
struct Plan<const K: usize> {
    /// For each variable (of the reduced model), the rows containing it.
    mask: Vec<Bits<K>>,
    /// For each row, its variables.
    row_vars: Vec<Vec<VarId>>,
    /// Branching rows in fixed order (all "exactly one" rows).
    order: Vec<usize>,
    /// `need[p]`: "exactly one" rows that must be used once `order[..p]` are all used.
    need: Vec<Bits<K>>,
    /// Every "exactly one" row.
    all_exact: Bits<K>,
    /// Variables in no "exactly one" row, chosen in or out after the branching rows.
    free: Vec<VarId>,
    /// Per variable: its index in `free` (`usize::MAX`: not free).
    free_at: Vec<usize>,
    /// The branching position after which every variable is blocked (`usize::MAX` when some
    /// variable lies in no branching row).
    settled: usize,
    /// The general rows (not `= 1` / `<= 1` on unit weights): running sums, not bits.
    sums: SumPlan,
}

/// The general rows of a plan: each keeps a running sum of the weights placed in it, checked
/// against its upper bound as each variable is placed and against its lower bound through an
/// upper bound on what it can still gain (see [`SumPlan::reach`]).
#[derive(Debug, Clone, Default)]
struct SumPlan {
    /// Per general row: its lower and upper bound (`u64::MAX`: none).
    bounds: Vec<(u64, u64)>,
    /// Per variable: `(general row, weight)` for every general row holding it.
    terms: Vec<Vec<(u32, u64)>>,
    /// `reach[g * stride + p]`: the most weight general row `g` can still gain at branching
    /// position `p` (`p <= order.len()`), or at free variable `p - order.len() - 1` of the
    /// free phase: each branching row places at most one variable, those first met at it, so
    /// it adds at most its heaviest such variable of `g`; each free variable adds its weight.
    reach: Vec<u64>,
    stride: usize,
}

impl SumPlan {
    fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    /// Whether every general row can still reach its lower bound from `sums` at point `at`
    /// (see [`SumPlan::reach`]). Cost: one comparison per general row.
    #[inline]
    fn reachable(&self, sums: &[u64], at: usize) -> bool {
        self.bounds
            .iter()
            .enumerate()
            .all(|(g, &(low, _))| sums[g] + self.reach[g * self.stride + at] >= low)
    }
}

impl<const K: usize> Plan<K> {
    fn empty(&self) -> Bits<K> {
        [0; K]
    }

    fn build(model: &Model, order: Vec<usize>) -> Plan<K> {
        Self::build_ordered(model, order, None)
    }

    /// [`Plan::build`] with the free variables sorted by `free_key` (smaller first, ties by
    /// id) instead of by id.
    fn build_ordered(model: &Model, order: Vec<usize>, free_key: Option<&[f64]>) -> Plan<K> {
        let rows = model.constraints();
        let mut mask = vec![[0u64; K]; model.num_variables()];
        for (r, c) in rows.iter().enumerate() {
            if !c.is_unit() {
                continue;
            }
            for &v in &c.vars {
                set(&mut mask[v], r);
            }
        }
        let mut all_exact = [0u64; K];
        let mut in_exact = vec![false; model.num_variables()];
        for (r, c) in rows.iter().enumerate() {
            if c.sense == Sense::ExactlyOne {
                set(&mut all_exact, r);
                for &v in &c.vars {
                    in_exact[v] = true;
                }
            }
        }
        // The first branching position holding each variable.
        let mut first = vec![usize::MAX; model.num_variables()];
        for (p, &r) in order.iter().enumerate() {
            for &v in &rows[r].vars {
                first[v] = first[v].min(p);
            }
        }
        let mut need = vec![[0u64; K]; order.len() + 1];
        for (r, c) in rows.iter().enumerate() {
            if c.sense == Sense::ExactlyOne {
                let closes = c.vars.iter().map(|&v| first[v]).max().unwrap_or(0);
                // All of the row's variables are blocked once order[..=closes] are used.
                for n in need.iter_mut().skip(closes + 1) {
                    set(n, r);
                }
            }
        }
        let settled = first.iter().copied().max().unwrap_or(usize::MAX);
        let mut free: Vec<VarId> = (0..model.num_variables())
            .filter(|&v| !in_exact[v])
            .collect();
        if let Some(key) = free_key {
            free.sort_by(|&a, &b| key[a].total_cmp(&key[b]).then(a.cmp(&b)));
        }
        let sums = SumPlan::build(model, &first, order.len(), &free);
        let mut free_at = vec![usize::MAX; model.num_variables()];
        for (i, &v) in free.iter().enumerate() {
            free_at[v] = i;
        }
        Plan {
            free_at,
            settled,
            mask,
            row_vars: rows.iter().map(|c| c.vars.clone()).collect(),
            order,
            need,
            all_exact,
            free,
            sums,
        }
    }
}

impl SumPlan {
    /// The general rows of `model`, with `first[v]` the first branching position holding `v`
    /// (`usize::MAX`: none), `positions` branching positions and the free variables in order.
    fn build(model: &Model, first: &[usize], positions: usize, free: &[VarId]) -> SumPlan {
        let general: Vec<&crate::model::Constraint> = model
            .constraints()
            .iter()
            .filter(|c| !c.is_unit())
            .collect();
        if general.is_empty() {
            return SumPlan::default();
        }
        let stride = positions + free.len() + 2;
        let mut terms = vec![Vec::new(); model.num_variables()];
        let mut reach = vec![0u64; general.len() * stride];
        let mut free_at = vec![usize::MAX; model.num_variables()];
        for (i, &v) in free.iter().enumerate() {
            free_at[v] = i;
        }
        for (g, c) in general.iter().enumerate() {
            let row = &mut reach[g * stride..(g + 1) * stride];
            // Per branching position: its heaviest variable of the row; per free variable its
            // weight; then suffix sums.
            for (v, w) in c.terms() {
                terms[v].push((g as u32, w));
                if free_at[v] != usize::MAX {
                    row[positions + 1 + free_at[v]] += w;
                } else if first[v] != usize::MAX {
                    row[first[v]] = row[first[v]].max(w);
                }
            }
            // Position `positions` (all branching rows done) gains what the free phase gains.
            for p in (0..stride - 1).rev() {
                row[p] += row[p + 1];
            }
        }
        SumPlan {
            bounds: general
                .iter()
                .map(|c| {
                    let (low, high) = c.sense.bounds();
                    (low, high.unwrap_or(u64::MAX))
                })
                .collect(),
            terms,
            reach,
            stride,
        }
    }
}

/// Receives solutions from the search.
trait Sink {
    /// Whether the search must build each solution (false: counting only, leaves are counted
    /// without being visited one by one).
    const WANTS_SOLUTIONS: bool;
    /// Whether the sink prunes branches: [`Sink::admits`] is asked at every node (a constant,
    /// so counting and streaming pay nothing for it).
    const PRUNES: bool = false;
    /// Called with the placed variables (reduced ids, in placement order).
    fn solution(&mut self, chosen: &[VarId]) -> ControlFlow<()>;
    /// Whether the branch with `chosen` placed may still hold a solution the sink wants;
    /// `open(v)` says whether `v` may still be placed below it. Asked only when `PRUNES`.
    fn admits(&mut self, _chosen: &[VarId], _open: &dyn Fn(VarId) -> bool) -> bool {
        true
    }
}

/// Counts only.
struct CountSink;

impl Sink for CountSink {
    const WANTS_SOLUTIONS: bool = false;
    fn solution(&mut self, _: &[VarId]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Hands each solution to a closure.
struct FnSink<F>(F);

impl<F: FnMut(&[VarId]) -> ControlFlow<()>> Sink for FnSink<F> {
    const WANTS_SOLUTIONS: bool = true;
    fn solution(&mut self, chosen: &[VarId]) -> ControlFlow<()> {
        (self.0)(chosen)
    }
}

/// A partial placement where a parallel count splits the tree.
#[derive(Debug, Clone)]
struct Prefix<const K: usize> {
    used: Bits<K>,
    chosen: Vec<VarId>,
    pos: usize,
}

/// One running search.
struct Search<'p, const K: usize, S: Sink> {
    plan: &'p Plan<K>,
    order: Order,
    sink: S,
    chosen: Vec<VarId>,
    stats: Stats,
    solutions: u128,
    deadline: Option<Instant>,
    stop: &'p AtomicBool,
    /// The caller's stop flag ([`super::stop`]), read when the search is made.
    external_stop: Option<super::stop::StopFlag>,
    timed_out: bool,
    /// When set, partial placements of this many variables are recorded, not searched further.
    split: Option<(usize, Vec<Prefix<K>>)>,
    /// The running sum of each general row (see [`SumPlan`]).
    sums: Vec<u64>,
}

impl<'p, const K: usize, S: Sink> Search<'p, K, S> {
    fn new(
        plan: &'p Plan<K>,
        order: Order,
        sink: S,
        deadline: Option<Instant>,
        stop: &'p AtomicBool,
    ) -> Self {
        let depth = plan.order.len() + plan.free.len() + 1;
        Search {
            plan,
            order,
            sink,
            chosen: Vec::with_capacity(depth),
            stats: Stats {
                nodes_per_depth: vec![0; depth],
                ..Stats::default()
            },
            solutions: 0,
            deadline,
            stop,
            external_stop: super::stop::current(),
            timed_out: false,
            split: None,
            sums: vec![0; plan.sums.bounds.len()],
        }
    }

    /// Adds `v`'s weights to the running sums; false (and nothing added) when some general
    /// row would pass its upper bound.
    #[inline]
    fn enter(&mut self, v: VarId) -> bool {
        let terms = &self.plan.sums.terms;
        if terms.is_empty() {
            return true;
        }
        let fits = terms[v]
            .iter()
            .all(|&(g, w)| self.sums[g as usize] + w <= self.plan.sums.bounds[g as usize].1);
        if fits {
            for &(g, w) in &terms[v] {
                self.sums[g as usize] += w;
            }
        }
        fits
    }

    /// Takes `v`'s weights back out of the running sums.
    #[inline]
    fn leave(&mut self, v: VarId) {
        if let Some(terms) = self.plan.sums.terms.get(v) {
            for &(g, w) in terms {
                self.sums[g as usize] -= w;
            }
        }
    }

    /// Places `v` (already checked against the bits) and runs `next` below it.
    #[inline(always)]
    fn descend(
        &mut self,
        v: VarId,
        next: impl FnOnce(&mut Self) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if !self.enter(v) {
            return ControlFlow::Continue(());
        }
        self.chosen.push(v);
        let flow = if self.visit().is_continue() {
            next(self)
        } else {
            ControlFlow::Break(())
        };
        self.chosen.pop();
        self.leave(v);
        flow
    }

    /// Sets the running sums to those of `chosen` (a prefix handed to a parallel task).
    fn replay(&mut self, chosen: &[VarId]) {
        for &v in chosen {
            self.chosen.push(v);
            for &(g, w) in self.plan.sums.terms.get(v).map_or(&[][..], |t| &t[..]) {
                self.sums[g as usize] += w;
            }
        }
    }

    #[inline(always)]
    fn visit(&mut self) -> ControlFlow<()> {
        self.stats.nodes += 1;
        self.stats.nodes_per_depth[self.chosen.len()] += 1;
        if self.stats.nodes & 0xfff == 0 {
            if self.stop.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d)
                || super::stop::raised(&self.external_stop)
            {
                self.timed_out = true;
                self.stop.store(true, Ordering::Relaxed);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// Asks a pruning sink whether the branch at `used`, with the free variables from
    /// `free_from` on undecided, is worth searching (always, for a sink that does not prune).
    /// Cost for a pruning sink: one mask test per variable, then the sink's bound.
    #[inline(always)]
    fn admitted(&mut self, used: &Bits<K>, free_from: usize) -> bool {
        if !S::PRUNES {
            return true;
        }
        let Search {
            plan,
            sink,
            chosen,
            sums,
            ..
        } = self;
        let plan: &Plan<K> = plan;
        let open = |v: VarId| {
            disjoint(used, &plan.mask[v])
                && (plan.free_at[v] == usize::MAX || plan.free_at[v] >= free_from)
                && plan.sums.terms.get(v).is_none_or(|t| {
                    t.iter()
                        .all(|&(g, w)| sums[g as usize] + w <= plan.sums.bounds[g as usize].1)
                })
        };
        sink.admits(chosen, &open)
    }

    fn found(&mut self) -> ControlFlow<()> {
        self.solutions += 1;
        self.sink.solution(&self.chosen)
    }

    /// Records the partial placement when splitting; true when it was recorded.
    fn split_here(&mut self, used: &Bits<K>, pos: usize) -> bool {
        if let Some((depth, prefixes)) = &mut self.split {
            if self.chosen.len() == *depth {
                prefixes.push(Prefix {
                    used: *used,
                    chosen: self.chosen.clone(),
                    pos,
                });
                return true;
            }
        }
        false
    }

    fn start(&mut self, used: Bits<K>, pos: usize) -> ControlFlow<()> {
        match self.order {
            Order::Fixed => self.fixed(used, pos),
            Order::Mrv => self.mrv(used),
        }
    }

    /// Branches on `plan.order[pos..]`; every row of `order[..pos]` is used.
    fn fixed(&mut self, used: Bits<K>, mut pos: usize) -> ControlFlow<()> {
        let plan = self.plan;
        while pos < plan.order.len() && has(&used, plan.order[pos]) {
            pos += 1;
        }
        if !contains(&used, &plan.need[pos]) {
            return ControlFlow::Continue(());
        }
        if !plan.sums.is_empty() && !plan.sums.reachable(&self.sums, pos) {
            return ControlFlow::Continue(());
        }
        if S::PRUNES && !self.admitted(&used, 0) {
            return ControlFlow::Continue(());
        }
        if self.split_here(&used, pos) {
            return ControlFlow::Continue(());
        }
        if pos == plan.order.len() {
            return self.free(used, 0);
        }
        let row = &plan.row_vars[plan.order[pos]];
        // The last branching row with nothing after it: count the leaves without visiting them.
        // Past `plan.settled` every variable is blocked, so a placement there either completes a
        // solution or dead-ends.
        if !S::WANTS_SOLUTIONS
            && self.split.is_none()
            && pos == plan.settled
            && plan.sums.is_empty()
        {
            let mut leaves = 0u64;
            for &v in row {
                let m = &plan.mask[v];
                if disjoint(&used, m) && contains(&union(&used, m), &plan.all_exact) {
                    leaves += 1;
                }
            }
            self.stats.nodes += leaves;
            self.stats.nodes_per_depth[self.chosen.len() + 1] += leaves;
            self.solutions += leaves as u128;
            return ControlFlow::Continue(());
        }
        for &v in row {
            let m = &plan.mask[v];
            if !disjoint(&used, m) {
                continue;
            }
            if plan.sums.is_empty() {
                // The exact-cover path, kept free of the running sums.
                self.chosen.push(v);
                let flow = if self.visit().is_continue() {
                    self.fixed(union(&used, m), pos + 1)
                } else {
                    ControlFlow::Break(())
                };
                self.chosen.pop();
                flow?;
            } else {
                self.descend(v, |s| s.fixed(union(&used, m), pos + 1))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Branches on the open "exactly one" row with the fewest available variables.
    fn mrv(&mut self, used: Bits<K>) -> ControlFlow<()> {
        let plan = self.plan;
        if self.split_here(&used, 0) {
            return ControlFlow::Continue(());
        }
        if S::PRUNES && !self.admitted(&used, 0) {
            return ControlFlow::Continue(());
        }
        let mut best: Option<(usize, usize)> = None;
        for &r in &plan.order {
            if has(&used, r) {
                continue;
            }
            let options = plan.row_vars[r]
                .iter()
                .filter(|&&v| disjoint(&used, &plan.mask[v]))
                .count();
            if options == 0 {
                return ControlFlow::Continue(());
            }
            if best.is_none_or(|(_, b)| options < b) {
                best = Some((r, options));
                if options == 1 {
                    break;
                }
            }
        }
        let Some((r, _)) = best else {
            return self.free(used, 0);
        };
        for &v in &plan.row_vars[r] {
            let m = &plan.mask[v];
            if disjoint(&used, m) {
                self.descend(v, |s| s.mrv(union(&used, m)))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Chooses the variables in no "exactly one" row in or out, from `plan.free[i..]`.
    fn free(&mut self, used: Bits<K>, i: usize) -> ControlFlow<()> {
        let plan = self.plan;
        if !plan.sums.is_empty() && !plan.sums.reachable(&self.sums, plan.order.len() + 1 + i) {
            return ControlFlow::Continue(());
        }
        if S::PRUNES && !self.admitted(&used, i) {
            return ControlFlow::Continue(());
        }
        if i == plan.free.len() {
            return if contains(&used, &plan.all_exact) {
                self.found()
            } else {
                ControlFlow::Continue(())
            };
        }
        let v = plan.free[i];
        let m = &plan.mask[v];
        if disjoint(&used, m) {
            self.descend(v, |s| s.free(union(&used, m), i + 1))?;
        }
        self.free(used, i + 1)
    }
}

/// A plan with its bitset width chosen at run time.
#[derive(Debug, Clone)]
enum AnyPlan {
    W1(Box<Plan<1>>),
    W2(Box<Plan<2>>),
    W4(Box<Plan<4>>),
    W8(Box<Plan<8>>),
    W16(Box<Plan<16>>),
    W32(Box<Plan<32>>),
    W64(Box<Plan<64>>),
}

macro_rules! with_plan {
    ($plan:expr, $p:ident => $body:expr) => {
        match $plan {
            AnyPlan::W1($p) => $body,
            AnyPlan::W2($p) => $body,
            AnyPlan::W4($p) => $body,
            AnyPlan::W8($p) => $body,
            AnyPlan::W16($p) => $body,
            AnyPlan::W32($p) => $body,
            AnyPlan::W64($p) => $body,
        }
    };
}

mod optimize;

/// The most rows a model may have for this backend (4096: a 25x25 Sudoku has 2500).
pub const MAX_ROWS: usize = 64 * 64;

/// A model compiled for enumeration: givens applied, families chosen, bitsets built. Build it
/// once with [`Enumerator::new`] and run it as often as needed.
#[derive(Debug, Clone)]
pub struct Enumerator {
    reduction: Reduction,
    plan: AnyPlan,
    settings: EnumSettings,
    coordinate: Option<String>,
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

    fn coordinate_family(
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
    fn branch_order(model: &Model, coordinate: Option<&str>) -> Vec<usize> {
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

    fn deadline(&self) -> Option<Instant> {
        self.settings
            .time_limit
            .and_then(|t| Instant::now().checked_add(t))
    }

    fn lift(&self, chosen: &[VarId]) -> Solution {
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
    fn count_parallel(&self) -> (u128, Vec<Solution>, SearchSummary) {
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
        let external_stop = super::stop::current();
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
fn trim_depths(stats: &mut Stats) {
    while stats.nodes_per_depth.len() > 1 && stats.nodes_per_depth.last() == Some(&0) {
        stats.nodes_per_depth.pop();
    }
}

/// The enumerator backend (`--backend enum`): solves, counts, honours a time limit.
#[derive(Debug, Clone)]
pub struct EnumBackend {
    settings: EnumSettings,
}

impl EnumBackend {
    /// A backend with the settings read from `options` (see the module docs).
    pub fn new(options: &BackendOptions) -> Result<EnumBackend, BackendError> {
        Ok(EnumBackend {
            settings: EnumSettings::from_options(options)?,
        })
    }

    fn annotate(&self, stats: &mut Stats, e: &Enumerator) {
        stats.extra.insert(
            "order".into(),
            match self.settings.order {
                Order::Fixed => "fixed",
                Order::Mrv => "mrv",
            }
            .into(),
        );
        if let Some(c) = e.coordinate() {
            stats.extra.insert("coordinate".into(), c.into());
        }
    }
}

impl Solver for EnumBackend {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let e = Enumerator::new(model, &self.settings)?;
        let (first, mut summary) = e.first();
        self.annotate(&mut summary.stats, &e);
        let found = match first {
            Some(s) => Found::Solution(s),
            None if summary.timed_out => Found::TimedOut,
            None if !summary.finished => Found::Undecided(Undecided::Stopped),
            None => Found::Infeasible,
        };
        Ok(SolveReport {
            found,
            stats: summary.stats,
        })
    }
}

impl Counter for EnumBackend {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let e = Enumerator::new(model, &self.settings)?;
        let (count, witnesses, mut summary) = e.count(limit);
        self.annotate(&mut summary.stats, &e);
        Ok(CountReport {
            count,
            end: summary.end(),
            witnesses,
            stats: summary.stats,
        })
    }
}

impl crate::backend::SolutionStream for EnumBackend {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        let e = Enumerator::new(model, &self.settings)?;
        let mut summary = e.for_each_solution(|s| found(s.clone()));
        self.annotate(&mut summary.stats, &e);
        Ok(crate::backend::StreamReport {
            end: summary.end(),
            stats: summary.stats,
        })
    }
}

impl Backend for EnumBackend {
    fn name(&self) -> &'static str {
        NAME
    }
    /// Every row kind: exact-cover rows are bits, general rows running sums.
    fn rows_supported(&self, _model: &Model) -> Result<(), String> {
        Ok(())
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
    /// Branch and bound over the enumeration (see `enumerate/optimize.rs`).
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PuzzleKind;
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

    fn count_with(model: &Model, families: &[&str], order: Order, parallel: bool) -> u128 {
        let settings = EnumSettings {
            families: Some(families.iter().map(|s| s.to_string()).collect()),
            order,
            parallel,
            ..EnumSettings::default()
        };
        Enumerator::new(model, &settings).unwrap().count(None).0
    }

    #[test]
    fn width_nine_levels_match_the_seed() {
        let m = HexBoard::geometry(9).unwrap().to_model("w9");
        assert_eq!(count_with(&m, &["row"], Order::Fixed, true), 25_401_600);
        for order in [Order::Fixed, Order::Mrv] {
            for parallel in [false, true] {
                assert_eq!(count_with(&m, &["row", "diag"], order, parallel), 25_231);
                assert_eq!(
                    count_with(&m, &["row", "diag", "anti"], order, parallel),
                    244
                );
            }
        }
    }

    #[test]
    fn queens_without_touching_match_a002464() {
        // Hertzsprung's problem, OEIS A002464, n = 1..8.
        let expected = [1u128, 0, 0, 2, 14, 90, 646, 5242];
        for (n, &want) in (1..=8).zip(&expected) {
            let m = QueensBoard::bare(n).to_model("q");
            for order in [Order::Fixed, Order::Mrv] {
                assert_eq!(
                    count_with(&m, &["row", "column", "touch"], order, n % 2 == 0),
                    want,
                    "n = {n}"
                );
            }
        }
    }

    #[test]
    fn streaming_stops_when_asked_and_solutions_verify() {
        let m = HexBoard::geometry(7).unwrap().to_model("w7");
        let e = Enumerator::new(&m, &EnumSettings::default()).unwrap();
        let verifier = crate::model::verify::Verifier::new(&m);
        let mut seen = 0;
        let summary = e.for_each_solution(|s| {
            verifier.check(s).unwrap();
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(seen, 3);
        assert!(!summary.finished);
        let (all, _, full) = e.count(None);
        assert!(full.finished);
        assert!(all > 3);
        assert_eq!(
            full.stats.nodes_per_depth.iter().sum::<u64>(),
            full.stats.nodes
        );
    }

    #[test]
    fn sudoku_with_givens_is_solved_by_both_orders() {
        // A 4x4 grid with one solution.
        let line = "1...3..2.3..2..4";
        let cells = line
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
            .collect();
        let m = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
        for order in [Order::Fixed, Order::Mrv] {
            let settings = EnumSettings {
                order,
                ..EnumSettings::default()
            };
            let e = Enumerator::new(&m, &settings).unwrap();
            assert_eq!(e.coordinate(), Some("cell"));
            let (count, witnesses, _) = e.count(None);
            assert_eq!(count, 1, "{order:?}");
            crate::model::verify::Verifier::new(&m)
                .check(&witnesses[0])
                .unwrap();
            let empty = Sudoku::empty(2).to_model("empty").unwrap();
            let e = Enumerator::new(&empty, &settings).unwrap();
            assert_eq!(e.count(None).0, 288, "{order:?}");
        }
    }

    #[test]
    fn variables_outside_exactly_one_rows_are_chosen_in_and_out() {
        use crate::model::{Coord, ModelBuilder, PuzzleKind};
        // x0 + x1 = 1, x1 + x2 <= 1, x3 unconstrained: {x0}, {x0,x2}, {x1}, each with or
        // without x3: 6 solutions.
        let mut b = ModelBuilder::new("free", PuzzleKind::Generic);
        for i in 0..4 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("one");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        let g = b.family("most");
        b.row(g, vec![1, 2], Sense::AtMostOne);
        let m = b.build().unwrap();
        for order in [Order::Fixed, Order::Mrv] {
            let settings = EnumSettings {
                order,
                ..EnumSettings::default()
            };
            let (count, witnesses, _) = Enumerator::new(&m, &settings).unwrap().count(None);
            assert_eq!(count, 6);
            assert_eq!(witnesses.len(), 6);
        }
    }

    #[test]
    fn time_limit_stops_a_long_count() {
        let m = HexBoard::geometry(19).unwrap().to_model("w19");
        let settings = EnumSettings {
            time_limit: Some(Duration::from_millis(50)),
            families: Some(vec!["row".into(), "diag".into()]),
            parallel: true,
            ..EnumSettings::default()
        };
        let (_, _, summary) = Enumerator::new(&m, &settings).unwrap().count(None);
        assert!(!summary.finished);
        assert!(summary.timed_out);
    }

    /// `pigeons` pigeons in `holes` holes, each pigeon in exactly one hole, each hole holding
    /// at most one: no solution when pigeons > holes, and a search tree of about
    /// holes! / (holes - pigeons + 1)! leaves to learn it.
    fn pigeonhole(pigeons: usize, holes: usize) -> Model {
        let var = |p: usize, h: usize| format!("\"p{p}h{h}\"");
        let vars: Vec<String> = (0..pigeons)
            .flat_map(|p| (0..holes).map(move |h| var(p, h)))
            .collect();
        let rows = |outer: usize, inner: usize, name: &dyn Fn(usize, usize) -> String| {
            (0..outer)
                .map(|o| {
                    let r: Vec<String> = (0..inner).map(|i| name(o, i)).collect();
                    format!("[{}]", r.join(","))
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let text = format!(
            r#"{{"variables": [{}], "families": [
                {{"name": "pigeon", "sense": "exactly-one", "rows": [{}]}},
                {{"name": "hole", "sense": "at-most-one", "rows": [{}]}}]}}"#,
            vars.join(","),
            rows(pigeons, holes, &|p, h| var(p, h)),
            rows(holes, pigeons, &|h, p| var(p, h)),
        );
        crate::puzzle::parse::generic::parse_json(&text, "pigeons.json").unwrap()
    }

    #[test]
    fn a_parallel_count_spends_one_time_limit_not_two() {
        // The witness pass finds nothing before the deadline (there is no solution), so
        // before the fix it spent the whole limit and the parallel count then got a fresh one.
        let m = pigeonhole(13, 12);
        let limit = Duration::from_millis(500);
        let settings = EnumSettings {
            time_limit: Some(limit),
            parallel: true,
            ..EnumSettings::default()
        };
        let start = Instant::now();
        let (count, _, summary) = Enumerator::new(&m, &settings).unwrap().count(None);
        let took = start.elapsed();
        assert_eq!(count, 0);
        assert!(summary.timed_out && !summary.finished);
        assert!(took < limit * 17 / 10, "a limit of {limit:?} took {took:?}");
    }

    #[test]
    fn bad_options_are_refused() {
        let mut o = BackendOptions::default();
        o.params.insert("order".into(), "random".into());
        assert!(matches!(
            EnumBackend::new(&o),
            Err(BackendError::BadOption { .. })
        ));
        let m = HexBoard::geometry(3).unwrap().to_model("w3");
        let settings = EnumSettings {
            families: Some(vec!["colour".into()]),
            ..EnumSettings::default()
        };
        assert!(Enumerator::new(&m, &settings).is_err());
    }

    /// `n x n` 0-1 matrices with every row and column sum in `sense`.
    fn matrices(n: usize, sense: Sense) -> Model {
        use crate::model::{Coord, ModelBuilder};
        let mut b = ModelBuilder::new("m", PuzzleKind::Generic);
        for i in 0..n * n {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let (row, column) = (b.family("row"), b.family("column"));
        for i in 0..n {
            b.row(row, (0..n).map(|j| i * n + j).collect(), sense);
            b.row(column, (0..n).map(|j| j * n + i).collect(), sense);
        }
        b.build().unwrap()
    }

    fn count_all(model: &Model, order: Order, parallel: bool) -> u128 {
        let settings = EnumSettings {
            order,
            parallel,
            ..EnumSettings::default()
        };
        let (count, witnesses, summary) = Enumerator::new(model, &settings).unwrap().count(None);
        assert!(summary.finished);
        let verifier = crate::model::verify::Verifier::new(model);
        for w in &witnesses {
            verifier.check(w).unwrap();
        }
        count
    }

    #[test]
    fn general_rows_are_running_sums_a001499_and_a048291() {
        for (n, want) in [(3, 6u128), (4, 90), (5, 2040), (6, 67950)] {
            let m = matrices(n, Sense::Exactly(2));
            for order in [Order::Fixed, Order::Mrv] {
                assert_eq!(count_all(&m, order, n % 2 == 0), want, "n = {n} {order:?}");
            }
        }
        for (n, want) in [(2, 7u128), (3, 265), (4, 41503)] {
            assert_eq!(
                count_all(&matrices(n, Sense::AtLeast(1)), Order::Fixed, false),
                want
            );
        }
    }

    #[test]
    fn general_rows_next_to_a_coordinate_family_prune_and_count() {
        use crate::model::{Coord, ModelBuilder};
        // n x n permutation matrices (cell rows "exactly one" as coordinates, columns too)
        // whose ones, weighted by column + 1, sum to exactly `target` over the first two rows:
        // counted against a plain walk over the permutations.
        let n = 6;
        let target = 7;
        let mut b = ModelBuilder::new("p", PuzzleKind::Generic);
        for i in 0..n * n {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let (row, column, sum) = (b.family("row"), b.family("column"), b.family("sum"));
        for i in 0..n {
            b.row(row, (0..n).map(|j| i * n + j).collect(), Sense::ExactlyOne);
            b.row(
                column,
                (0..n).map(|j| j * n + i).collect(),
                Sense::ExactlyOne,
            );
        }
        let vars: Vec<usize> = (0..2 * n).collect();
        let weights: Vec<u64> = (0..2 * n).map(|v| (v % n) as u64 + 1).collect();
        b.weighted_row(sum, vars, weights, Sense::Exactly(target));
        let m = b.build().unwrap();
        // Pairs of distinct columns (a, b) with a + b + 2 = target, times 4! for the rest.
        let pairs = (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .filter(|&(a, b)| a != b && (a + b + 2) as u64 == target)
            .count() as u128;
        assert_eq!(pairs, 6);
        let settings = EnumSettings {
            coordinate: Some("row".into()),
            ..EnumSettings::default()
        };
        let e = Enumerator::new(&m, &settings).unwrap();
        assert_eq!(e.count(None).0, pairs * 24);
        assert_eq!(count_all(&m, Order::Mrv, false), pairs * 24);
    }

    #[test]
    fn a_row_past_reach_is_pruned_before_its_lines_are_walked() {
        // Rows and columns "= 2" of a 6x6 matrix plus "at least 3" over the first row: dead
        // once the first row's six variables are decided (2 < 3 and nothing left to gain), so
        // the pruning must stop there instead of walking the 67,950 matrices below.
        let m = matrices(6, Sense::Exactly(2));
        let m = {
            use crate::model::{Coord, ModelBuilder};
            let mut b = ModelBuilder::new("m", PuzzleKind::Generic);
            for i in 0..36 {
                b.variable(format!("x{i}"), Coord::Free);
            }
            let f = b.family("all");
            for c in m.constraints() {
                b.row(f, c.vars.clone(), c.sense);
            }
            b.row(f, (0..6).collect(), Sense::AtLeast(3));
            b.build().unwrap()
        };
        let (count, _, summary) = Enumerator::new(&m, &EnumSettings::default())
            .unwrap()
            .count(None);
        assert_eq!(count, 0);
        assert!(summary.stats.nodes < 200, "{} nodes", summary.stats.nodes);
    }
}
