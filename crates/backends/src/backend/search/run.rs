//! The search loop and its entry points: [`run`], [`run_optimizing`], [`run_streaming`], and
//! the root propagation ([`root_propagation`]).

use super::engine::LegalityEngine;
use super::layout::{Layout, TrackedRow, VarSet};
use super::state::{Frame, Goal, SearchOutcome, State};
use crate::backend::branch_bound::CostBound;
use crate::backend::proof::log::{NoProof, ProofLog};
use crate::backend::{BackendError, Stats, WITNESS_LIMIT};
use crate::model::Solution;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Runs the search on `layout` with `engine`. The engine is reset first. Stops at the goal, when
/// the space is exhausted, or at `time_limit` (checked every 256 placements).
pub fn run(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    goal: Goal,
    time_limit: Option<Duration>,
) -> Result<SearchOutcome, BackendError> {
    search(engine, layout, goal, time_limit, None, None, &mut NoProof)
}

/// Runs the search like [`run`] (or, with `bound`, like [`run_optimizing`]) and reports every
/// decision, backtrack, solution and bound prune to `proof` (see [`ProofLog`]). While `proof`
/// is enabled the search's propagation stays within pseudo-Boolean unit propagation (no
/// clique-cover rule) and each branch-and-bound prune is logged with the bound's own
/// derivation ([`CostBound::derivation`]), so every step is checkable and branch and bound
/// prunes exactly as without a proof.
pub fn run_proved(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    goal: Goal,
    time_limit: Option<Duration>,
    bound: Option<&mut CostBound>,
    proof: &mut dyn ProofLog,
) -> Result<SearchOutcome, BackendError> {
    search(engine, layout, goal, time_limit, None, bound, proof)
}

/// Runs the search as branch and bound (see [`crate::backend::branch_bound`]): every solution
/// is offered to `bound`, which keeps the best, and a node whose lower bound cannot beat it is
/// pruned. Candidates are tried cheapest first. `outcome.exhausted` (with an exact engine)
/// proves the kept solution optimal. Same steps and limits as [`run`].
pub fn run_optimizing(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    time_limit: Option<Duration>,
    bound: &mut CostBound,
) -> Result<SearchOutcome, BackendError> {
    search(
        engine,
        layout,
        Goal::Count { limit: None },
        time_limit,
        None,
        Some(bound),
        &mut NoProof,
    )
}

/// Runs the search on `layout` handing every solution to `sink` (which may stop it) instead of
/// keeping witnesses; `outcome.solutions` stays empty. Same steps and limits as [`run`].
pub fn run_streaming(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    time_limit: Option<Duration>,
    sink: &mut dyn FnMut(Solution) -> ControlFlow<()>,
) -> Result<SearchOutcome, BackendError> {
    search(
        engine,
        layout,
        Goal::Count { limit: None },
        time_limit,
        Some(sink),
        None,
        &mut NoProof,
    )
}

/// What the search's propagation decides before any choice (see [`root_propagation`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootPropagation {
    /// Propagation met a contradiction: the model has no solution.
    Contradiction,
    /// Per model variable: the value every solution gives it (`Some`), or `None` when
    /// propagation leaves it open.
    Fixed(Vec<Option<bool>>),
}

/// Runs the search's propagation from the givens to its fixed point, with no choice made, on
/// `engine`, which must be exact (presolve passes [`crate::backend::bitset::BitsetEngine`];
/// an approximate engine is refused with `BackendError::Failed`): the variables it places are
/// 1 in every solution, those it shuts out (past a row's upper bound, or excluded by the
/// clique-cover rule) are 0 in every solution. Sound, not complete: open variables may still
/// be forced. Cost: one root node of the search (the layout's nonzeros, plus the propagation
/// rounds). The engine is reset first.
///
/// With `probe` (models with general rows only; others are propagated alone), each open
/// variable is then tried at 1 in turn: when propagation from there meets a contradiction, no
/// solution has it, so it is fixed to 0 (excluded at the root) and the root propagated again;
/// rounds repeat until one fixes nothing. Probing stops early, soundly, at the deadline
/// `probe` holds (`Some(None)`: no deadline). Cost of probing: per round, one propagation per
/// open variable.
pub fn root_propagation(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    probe: Option<Option<Instant>>,
) -> Result<RootPropagation, BackendError> {
    if !engine.exact() {
        return Err(BackendError::Failed {
            backend: engine.name().into(),
            reason: "root propagation needs an exact engine".into(),
        });
    }
    engine.reset(layout)?;
    let mut st = State::new(layout);
    st.start(engine);
    if !st.propagate(engine) {
        return Ok(RootPropagation::Contradiction);
    }
    if let (Some(deadline), true) = (probe, layout.general) {
        if !st.probe(engine, deadline) {
            return Ok(RootPropagation::Contradiction);
        }
    }
    let mut values: Vec<Option<bool>> = (0..layout.model_vars)
        .map(|v| (!st.legal.contains(v)).then_some(false))
        .collect();
    for &v in st
        .placed
        .iter()
        .filter(|&&v| (v as usize) < layout.model_vars)
    {
        values[v as usize] = Some(true);
    }
    Ok(RootPropagation::Fixed(values))
}

pub(super) fn search(
    engine: &mut dyn LegalityEngine,
    layout: &Layout,
    goal: Goal,
    time_limit: Option<Duration>,
    mut sink: Option<&mut dyn FnMut(Solution) -> ControlFlow<()>>,
    mut bound: Option<&mut CostBound>,
    proof: &mut dyn ProofLog,
) -> Result<SearchOutcome, BackendError> {
    let start = Instant::now();
    let deadline = time_limit.and_then(|t| start.checked_add(t));
    let stop = crate::backend::stop::current();
    engine.reset(layout)?;
    let exact = engine.exact();
    let mut st = State::new(layout);
    let logging = proof.enabled();
    st.rup_only = logging;
    if let Some(b) = bound.as_deref_mut() {
        b.set_recording(logging);
    }
    st.costs = bound.as_ref().map(|b| b.costs().to_vec());
    st.slack_order = bound.as_ref().map(|b| b.slack_order(layout));
    st.prefer = bound
        .as_ref()
        .and_then(|b| b.preference().map(<[u8]>::to_vec));
    let limit = match goal {
        Goal::Solve => Some(1),
        Goal::Count { limit } => limit,
    };
    let mut outcome = SearchOutcome {
        solutions: Vec::new(),
        count: 0,
        exhausted: false,
        timed_out: false,
        exact,
        stats: Stats::default(),
    };
    let finish = |mut st: State, mut outcome: SearchOutcome, engine: &dyn LegalityEngine| {
        st.stats.nodes = st.stats.guesses + 1;
        st.stats.solutions = outcome.count as u64;
        st.stats.seconds = start.elapsed().as_secs_f64();
        engine.report(&mut st.stats);
        outcome.stats = st.stats;
        Ok(outcome)
    };
    if limit == Some(0) {
        return finish(st, outcome, engine);
    }
    st.start(engine);
    let mut branches = Branches::default();
    let mut checked = 0u64;
    let watched = deadline.is_some() || stop.is_some() || bound.is_some();
    loop {
        if watched && st.stats.steps >= checked + 256 {
            checked = st.stats.steps;
            let seconds = start.elapsed().as_secs_f64();
            if let Some(b) = bound.as_deref_mut() {
                if b.note_progress(seconds, branches.open_bound()) {
                    return finish(st, outcome, engine);
                }
            }
            if deadline.is_some_and(|d| Instant::now() >= d) || crate::backend::stop::raised(&stop)
            {
                outcome.timed_out = true;
                return finish(st, outcome, engine);
            }
        }
        let mut ok = st.propagate(engine);
        let mut node_bound = None;
        if let Some(b) = bound.as_deref_mut().filter(|_| ok) {
            (ok, node_bound) = judge_node(b, &st, &mut branches, logging.then_some(&mut *proof));
        }
        if ok && st.open == 0 {
            outcome.count += 1;
            if logging {
                log_solution(proof, layout, bound.as_deref(), &st.placed);
            }
            if let Some(b) = bound.as_deref_mut() {
                let before = b.incumbent();
                b.offer(&st.placed, || st.solution());
                if b.incumbent() != before
                    && b.note_progress(start.elapsed().as_secs_f64(), branches.open_bound())
                {
                    return finish(st, outcome, engine);
                }
            } else if let Some(sink) = sink.as_deref_mut() {
                if sink(st.solution()).is_break() {
                    return finish(st, outcome, engine);
                }
            } else if outcome.solutions.len() < WITNESS_LIMIT {
                outcome.solutions.push(st.solution());
            }
            if limit.is_some_and(|l| outcome.count >= l as u128) {
                return finish(st, outcome, engine);
            }
            ok = false;
        }
        let hooks: Option<&mut dyn ProofLog> = if logging { Some(&mut *proof) } else { None };
        if ok {
            branches.open(&mut st, engine, node_bound, hooks);
        } else if !branches.next_alternative(&mut st, engine, bound.as_deref_mut(), hooks) {
            // Contradiction (or a solution counted) with no open alternative left.
            if logging {
                proof.exhausted();
            }
            outcome.exhausted = true;
            if let Some(b) = bound.as_deref_mut() {
                b.note_progress(start.elapsed().as_secs_f64(), None);
            }
            return finish(st, outcome, engine);
        }
    }
}

/// The search's explicit stack: one [`Frame`] per choice point, over one shared list of
/// candidates.
///
/// When optimising, each frame keeps a proved lower bound (minimisation form) on every
/// solution in its subtree not yet explored: the bound of its parent or of the root, raised to
/// the bound computed at its node, and raised again at each backtrack to it (the bound of the
/// node with the candidates already tried shut out). So the least bound over the frames,
/// with the incumbent, is the proved global bound ([`Branches::open_bound`]).
#[derive(Default)]
struct Branches {
    frames: Vec<Frame>,
    cands: Vec<u32>,
    /// When optimising: the bound computed at the root node.
    root_bound: Option<i128>,
    /// Scratch: the legal set with a frame's tried candidates shut out.
    untried: Option<VarSet>,
}

impl Branches {
    /// The least proved bound of the open frames (the root's before the first choice point):
    /// no solution not yet met costs less. `None` when not optimising. Cost: one step per
    /// frame.
    fn open_bound(&self) -> Option<i128> {
        let root = self.root_bound?;
        Some(self.frames.iter().map(|f| f.bound).min().unwrap_or(root))
    }

    /// Opens a choice point at the row [`State::choose_row`] picks and places its first
    /// candidate. `node_bound`: the bound computed at this node, if any; `proof`: told of the
    /// decision.
    fn open(
        &mut self,
        st: &mut State,
        engine: &mut dyn LegalityEngine,
        node_bound: Option<i128>,
        proof: Option<&mut dyn ProofLog>,
    ) {
        let inherited = match self.frames.last() {
            Some(f) => f.bound,
            None => self.root_bound.unwrap_or(i128::MIN),
        };
        let (r, exclusive) = st.choose_row();
        let cand_start = self.cands.len();
        st.candidates(r, &mut self.cands, exclusive);
        let first = self.cands[cand_start] as usize;
        self.frames.push(Frame {
            cand_start,
            cand_len: self.cands.len() - cand_start,
            next: 1,
            trail_len: st.placed.len(),
            excluded_len: st.excluded_trail.len(),
            exclusive,
            bound: node_bound.map_or(inherited, |b| b.max(inherited)),
        });
        st.stats.guesses += 1;
        st.stats.steps += 1;
        if let Some(proof) = proof {
            let (var, value) = st.layout.decision_literal(first);
            proof.decide(var, value);
        }
        st.place(engine, first);
        st.sync(engine);
    }

    /// After a contradiction (or a solution counted): back to the latest open alternative and
    /// places it. False when none is left (the space is exhausted).
    /// With `bound` (optimising, once there is an incumbent), the frame's bound is raised to
    /// that of its untried alternatives, and a frame whose untried alternatives cannot beat
    /// the incumbent is closed at once. `proof`: told of every retraction and decision, and of
    /// each frame closed by the bound (with the bound's derivation, before the retraction of
    /// the frame's parent decision that it justifies: under that prefix the tried candidates
    /// are false by their logged clauses, so the checker sees what the bound saw).
    fn next_alternative(
        &mut self,
        st: &mut State,
        engine: &mut dyn LegalityEngine,
        mut bound: Option<&mut CostBound>,
        mut proof: Option<&mut dyn ProofLog>,
    ) -> bool {
        let layout = st.layout;
        loop {
            let Some(f) = self.frames.last_mut() else {
                return false;
            };
            if let Some(proof) = proof.as_deref_mut() {
                proof.retract();
            }
            st.undo_to(engine, f.trail_len);
            st.stats.backtracks += 1;
            if f.next < f.cand_len {
                let v = self.cands[f.cand_start + f.next] as usize;
                let tried = &self.cands[f.cand_start..f.cand_start + f.next];
                f.next += 1;
                // Back to the state the frame was made in (a fixed point), plus this frame's
                // exclusions but the last one.
                st.unexclude_to(f.excluded_len + if f.exclusive { tried.len() - 1 } else { 0 });
                st.clear_queue();
                st.sync(engine);
                st.clear_queue();
                if f.exclusive {
                    // Candidate `next - 1` is out from here on. The exclusions are not part of
                    // the frame's fixed point, so recheck every row they touch.
                    st.exclude(tried[tried.len() - 1] as usize);
                    for &u in tried {
                        for t in layout.tracked_of(u as usize) {
                            match t.kind {
                                TrackedRow::DEMAND => st.push_demand(t.row as usize),
                                TrackedRow::EXACTLY_ONE => st.queue.push(t.row),
                                _ => {}
                            }
                        }
                    }
                }
                let tried = &self.cands[f.cand_start..f.cand_start + f.next - 1];
                if let Some(b) = bound.as_deref_mut().filter(|b| b.incumbent().is_some()) {
                    let untried =
                        (self.untried).get_or_insert_with(|| VarSet::new(layout.num_vars));
                    untried.copy_from(st.legal.words());
                    for &u in tried {
                        untried.remove(u as usize);
                    }
                    let rest = b.lower_bound(layout, untried, &st.placed);
                    f.bound = f.bound.max(rest);
                    if b.incumbent().is_some_and(|i| rest >= i) {
                        // No untried alternative can beat the incumbent: close the frame.
                        if let Some(proof) = proof.as_deref_mut() {
                            proof.bound_prune(b.derivation());
                        }
                        b.pruned += 1;
                        self.cands.truncate(f.cand_start);
                        self.frames.pop();
                        continue;
                    }
                }
                st.stats.guesses += 1;
                st.stats.steps += 1;
                if let Some(proof) = proof {
                    let (var, value) = layout.decision_literal(v);
                    proof.decide(var, value);
                }
                st.place(engine, v);
                st.sync(engine);
                return true;
            }
            self.cands.truncate(f.cand_start);
            self.frames.pop();
        }
    }
}

/// Judges a propagated node by the branch-and-bound `bound`: whether it may still beat the
/// incumbent, and the bound computed there (if any). The root's bound becomes the proved
/// bound of every node before the first choice point. With `proof`, a pruned node's
/// derivation is logged (the bound recorded it as it computed it). Cost: one bound.
fn judge_node(
    b: &mut CostBound,
    st: &State,
    branches: &mut Branches,
    proof: Option<&mut dyn ProofLog>,
) -> (bool, Option<i128>) {
    let layout = st.layout;
    let ok = b.admits(layout, &st.legal, &st.placed);
    let node_bound = b.node_bound();
    if let (false, Some(proof)) = (ok, proof) {
        proof.bound_prune(b.derivation());
    }
    if branches.frames.is_empty() && branches.root_bound.is_none() {
        // The root: its bound covers every node until the first choice point.
        let root = node_bound.unwrap_or_else(|| b.lower_bound(layout, &st.legal, &st.placed));
        branches.root_bound = Some(root);
    }
    (ok, node_bound)
}

/// Reports a solution (the placed model variables) to `proof`: with a bound, whether it
/// improves on the incumbent (checked before the bound keeps it).
fn log_solution(
    proof: &mut dyn ProofLog,
    layout: &Layout,
    bound: Option<&CostBound>,
    placed: &[u32],
) {
    let ones: Vec<u32> = placed
        .iter()
        .copied()
        .filter(|&v| (v as usize) < layout.model_vars)
        .collect();
    let (improving, value) = match bound {
        Some(b) => {
            let value = b.placed_cost(placed);
            (Some(b.best().is_none_or(|(v, _)| value < *v)), value)
        }
        None => (None, 0),
    };
    proof.solution(&ones, improving, value);
}
