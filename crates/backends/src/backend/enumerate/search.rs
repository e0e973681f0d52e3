//! The depth-first walk over a [`Plan`]: coordinate lines, other "exactly one" rows, then
//! free variables, handing each solution to a [`Sink`].

use super::plan::{contains, disjoint, has, union, without, Bits, Plan};
use super::Order;
use crate::backend::Stats;
use crate::model::VarId;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Receives solutions from the search.
pub(super) trait Sink {
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
pub(super) struct CountSink;

impl Sink for CountSink {
    const WANTS_SOLUTIONS: bool = false;
    fn solution(&mut self, _: &[VarId]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Hands each solution to a closure.
pub(super) struct FnSink<F>(pub(super) F);

impl<F: FnMut(&[VarId]) -> ControlFlow<()>> Sink for FnSink<F> {
    const WANTS_SOLUTIONS: bool = true;
    fn solution(&mut self, chosen: &[VarId]) -> ControlFlow<()> {
        (self.0)(chosen)
    }
}

/// A partial placement where a parallel count splits the tree.
#[derive(Debug, Clone)]
pub(super) struct Prefix<const K: usize> {
    pub(super) used: Bits<K>,
    pub(super) chosen: Vec<VarId>,
    pub(super) pos: usize,
}

/// What a node of the branching phase leads to.
enum Node {
    /// Nothing more below it (pruned, a leaf, counted at once, or the free phase done); a
    /// break stops the search.
    Done(ControlFlow<()>),
    /// Branch on the variables of row `row`; in fixed order the children sit at `pos + 1`.
    Branch { row: usize, pos: usize },
}

/// One branching node on the walk's stack: its used rows, the row it branches on, the next
/// of that row's variables to try, and the one placed now (if any).
struct Level<const K: usize> {
    used: Bits<K>,
    row: usize,
    pos: usize,
    next: usize,
    placed: Option<VarId>,
}

/// One running search.
pub(super) struct Search<'p, const K: usize, S: Sink> {
    pub(super) plan: &'p Plan<K>,
    pub(super) order: Order,
    pub(super) sink: S,
    pub(super) chosen: Vec<VarId>,
    pub(super) stats: Stats,
    pub(super) solutions: u128,
    pub(super) deadline: Option<Instant>,
    pub(super) stop: &'p AtomicBool,
    /// The caller's stop flag ([`super::stop`]), read when the search is made.
    pub(super) external_stop: Option<crate::backend::stop::StopFlag>,
    pub(super) timed_out: bool,
    /// Steps of the free phase ([`Search::free`]) taken, placed or not: the clock is read
    /// every 256 of them too, since a phase that leaves variables out or prunes visits no
    /// node for as long as it likes.
    free_steps: u64,
    /// When set, partial placements of this many variables are recorded, not searched further.
    pub(super) split: Option<(usize, Vec<Prefix<K>>)>,
    /// The running sum of each general row (see [`SumPlan`]).
    pub(super) sums: Vec<u64>,
}

impl<'p, const K: usize, S: Sink> Search<'p, K, S> {
    pub(super) fn new(
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
            external_stop: crate::backend::stop::current(),
            timed_out: false,
            free_steps: 0,
            split: None,
            sums: vec![0; plan.sums.bounds.len()],
        }
    }

    /// Adds `v`'s weights to the running sums; false (and nothing added) when some general
    /// row would pass its upper bound.
    #[inline]
    pub(super) fn enter(&mut self, v: VarId) -> bool {
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
    pub(super) fn leave(&mut self, v: VarId) {
        if let Some(terms) = self.plan.sums.terms.get(v) {
            for &(g, w) in terms {
                self.sums[g as usize] -= w;
            }
        }
    }

    /// Sets the running sums to those of `chosen` (a prefix handed to a parallel task).
    pub(super) fn replay(&mut self, chosen: &[VarId]) {
        for &v in chosen {
            self.chosen.push(v);
            for &(g, w) in self.plan.sums.terms.get(v).map_or(&[][..], |t| &t[..]) {
                self.sums[g as usize] += w;
            }
        }
    }

    #[inline(always)]
    pub(super) fn visit(&mut self) -> ControlFlow<()> {
        self.stats.nodes += 1;
        self.stats.nodes_per_depth[self.chosen.len()] += 1;
        if self.stats.nodes & 0xfff == 0 {
            return self.check_clock();
        }
        ControlFlow::Continue(())
    }

    /// Stops when another thread has, or (marking the search timed out) when the deadline has
    /// passed or the caller's stop flag is raised. Cost: one clock read.
    fn check_clock(&mut self) -> ControlFlow<()> {
        if self.stop.load(Ordering::Relaxed) {
            return ControlFlow::Break(());
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || crate::backend::stop::raised(&self.external_stop)
        {
            self.timed_out = true;
            self.stop.store(true, Ordering::Relaxed);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// One step of the free phase: reads the clock every 256 steps (see `free_steps`).
    #[inline(always)]
    fn free_step(&mut self) -> ControlFlow<()> {
        self.free_steps += 1;
        if self.free_steps & 0xff == 0 {
            return self.check_clock();
        }
        ControlFlow::Continue(())
    }

    /// Asks a pruning sink whether the branch at `used`, with the free variables from
    /// `free_from` on undecided, is worth searching (always, for a sink that does not prune).
    /// Cost for a pruning sink: one mask test per variable, then the sink's bound.
    #[inline(always)]
    pub(super) fn admitted(&mut self, used: &Bits<K>, free_from: usize) -> bool {
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

    pub(super) fn found(&mut self) -> ControlFlow<()> {
        self.solutions += 1;
        self.sink.solution(&self.chosen)
    }

    /// Records the partial placement when splitting; true when it was recorded.
    pub(super) fn split_here(&mut self, used: &Bits<K>, pos: usize) -> bool {
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

    /// Walks the tree below the node `used` (at branching position `pos` in fixed order).
    /// A loop over an explicit stack of [`Level`]s, one per variable placed on a branching
    /// row, so the call stack stays flat however many rows are branched on (a recursion per
    /// row overflowed it at 4,000 rows).
    pub(super) fn start(&mut self, used: Bits<K>, pos: usize) -> ControlFlow<()> {
        let plan = self.plan;
        let mut levels: Vec<Level<K>> = Vec::new();
        let mut node = Some((used, pos));
        loop {
            if let Some((used, pos)) = node.take() {
                let step = match self.order {
                    Order::Fixed => self.fixed_node(&used, pos),
                    Order::Mrv => self.mrv_node(&used),
                };
                match step {
                    Node::Done(flow) if flow.is_break() => return self.unwind(&mut levels),
                    Node::Done(_) => {}
                    Node::Branch { row, pos } => levels.push(Level {
                        used,
                        row,
                        pos,
                        next: 0,
                        placed: None,
                    }),
                }
            }
            let Some(level) = levels.last_mut() else {
                return ControlFlow::Continue(());
            };
            if let Some(v) = level.placed.take() {
                self.chosen.pop();
                self.leave(v);
            }
            let row = &plan.row_vars[level.row];
            let mut child = None;
            while let Some(&v) = row.get(level.next) {
                level.next += 1;
                let m = &plan.mask[v];
                if disjoint(&level.used, m) && self.enter(v) {
                    child = Some((v, union(&level.used, m)));
                    break;
                }
            }
            let Some((v, used)) = child else {
                levels.pop();
                continue;
            };
            level.placed = Some(v);
            self.chosen.push(v);
            if self.visit().is_break() {
                return self.unwind(&mut levels);
            }
            node = Some((used, level.pos + 1));
        }
    }

    /// Takes every variable the walk placed back out (a stop).
    fn unwind(&mut self, levels: &mut Vec<Level<K>>) -> ControlFlow<()> {
        while let Some(level) = levels.pop() {
            if let Some(v) = level.placed {
                self.chosen.pop();
                self.leave(v);
            }
        }
        ControlFlow::Break(())
    }

    /// A node in fixed order: every row of `order[..pos]` is used; branches on the next
    /// unused row of `plan.order`, or ends (pruned, counted at once, or the free phase).
    fn fixed_node(&mut self, used: &Bits<K>, mut pos: usize) -> Node {
        let plan = self.plan;
        let done = Node::Done(ControlFlow::Continue(()));
        while pos < plan.order.len() && has(used, plan.order[pos]) {
            pos += 1;
        }
        if !contains(used, &plan.need[pos]) {
            return done;
        }
        if !plan.sums.is_empty() && !plan.sums.reachable(&self.sums, pos) {
            return done;
        }
        if S::PRUNES && !self.admitted(used, 0) {
            return done;
        }
        if self.split_here(used, pos) {
            return done;
        }
        if pos == plan.order.len() {
            return Node::Done(self.free(*used, 0));
        }
        // The last branching row with nothing after it: count the leaves without visiting them.
        // Past `plan.settled` every variable is blocked, so a placement there either completes a
        // solution or dead-ends.
        if !S::WANTS_SOLUTIONS
            && self.split.is_none()
            && pos == plan.settled
            && plan.sums.is_empty()
        {
            let mut leaves = 0u64;
            for &v in &plan.row_vars[plan.order[pos]] {
                let m = &plan.mask[v];
                if disjoint(used, m) && contains(&union(used, m), &plan.all_exact) {
                    leaves += 1;
                }
            }
            self.stats.nodes += leaves;
            self.stats.nodes_per_depth[self.chosen.len() + 1] += leaves;
            self.solutions += leaves as u128;
            return done;
        }
        Node::Branch {
            row: plan.order[pos],
            pos,
        }
    }

    /// A node in MRV order: branches on the open "exactly one" row with the fewest available
    /// variables, or ends (a row with none, or the free phase).
    fn mrv_node(&mut self, used: &Bits<K>) -> Node {
        let plan = self.plan;
        let done = Node::Done(ControlFlow::Continue(()));
        if self.split_here(used, 0) {
            return done;
        }
        if S::PRUNES && !self.admitted(used, 0) {
            return done;
        }
        let mut best: Option<(usize, usize)> = None;
        for &r in &plan.order {
            if has(used, r) {
                continue;
            }
            let options = plan.row_vars[r]
                .iter()
                .filter(|&&v| disjoint(used, &plan.mask[v]))
                .count();
            if options == 0 {
                return done;
            }
            if best.is_none_or(|(_, b)| options < b) {
                best = Some((r, options));
                if options == 1 {
                    break;
                }
            }
        }
        match best {
            Some((row, _)) => Node::Branch { row, pos: 0 },
            None => Node::Done(self.free(*used, 0)),
        }
    }

    /// Chooses the variables in no "exactly one" row in or out, from `plan.free[i..]`: for
    /// each, first in (when its rows are free and its weights fit), then out. A loop with the
    /// placed free variables as its stack, so the depth of the call stack does not grow with
    /// the number of free variables (a recursion per variable overflowed it at 20,000). A
    /// placed variable's rows were free, so taking its mask back out of `used` restores the
    /// rows as they were.
    pub(super) fn free(&mut self, mut used: Bits<K>, mut i: usize) -> ControlFlow<()> {
        let plan = self.plan;
        // The free-list positions placed here, innermost last.
        let mut placed: Vec<usize> = Vec::new();
        loop {
            let next = match self.free_step() {
                ControlFlow::Break(()) => Some(ControlFlow::Break(())),
                ControlFlow::Continue(()) => self.free_node(&mut used, i, &mut placed),
            };
            if let Some(next) = next {
                if next.is_break() {
                    while let Some(j) = placed.pop() {
                        self.chosen.pop();
                        self.leave(plan.free[j]);
                    }
                    return ControlFlow::Break(());
                }
                i += 1;
                continue;
            }
            // The node is done: back to the latest variable placed in, now left out.
            let Some(j) = placed.pop() else {
                return ControlFlow::Continue(());
            };
            let v = plan.free[j];
            self.chosen.pop();
            self.leave(v);
            used = without(&used, &plan.mask[v]);
            i = j + 1;
        }
    }

    /// One node of [`Search::free`] at position `i`: `None` when it is done (pruned, or a
    /// leaf), otherwise the way on to position `i + 1`, with variable `i` placed in (pushed on
    /// `placed`, its rows added to `used`) when it can be. `Some(Break)` stops the search.
    fn free_node(
        &mut self,
        used: &mut Bits<K>,
        i: usize,
        placed: &mut Vec<usize>,
    ) -> Option<ControlFlow<()>> {
        let plan = self.plan;
        if !plan.sums.is_empty() && !plan.sums.reachable(&self.sums, plan.order.len() + 1 + i) {
            return None;
        }
        if S::PRUNES && !self.admitted(used, i) {
            return None;
        }
        if i == plan.free.len() {
            if contains(used, &plan.all_exact) {
                return self.found().is_break().then_some(ControlFlow::Break(()));
            }
            return None;
        }
        let v = plan.free[i];
        let m = &plan.mask[v];
        if disjoint(used, m) && self.enter(v) {
            self.chosen.push(v);
            placed.push(i);
            *used = union(used, m);
            if self.visit().is_break() {
                return Some(ControlFlow::Break(()));
            }
        }
        Some(ControlFlow::Continue(()))
    }
}
