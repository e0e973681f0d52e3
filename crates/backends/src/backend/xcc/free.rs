//! The variables no row constrains ([`super::problem::Problem::free`]): no engine sees them;
//! each solution an engine finds is completed here in each of the `2^k` settings of the `k`
//! free variables that are not given (a free given is set in every one).
//!
//! Costs per completion: one pass over the free variables (a binary counter and the copy of
//! the solution); the clock is read every [`CLOCK_EVERY`] completions, so a run with a time
//! limit ends there even while one engine solution has more completions than it can list.

use std::time::{Duration, Instant};

use crate::backend::stop::Alarm;

/// How often (in completions) the clock and the stop flag are read.
const CLOCK_EVERY: u64 = 1 << 10;

/// Completes engine solutions with the free variables (see the module docs).
pub(crate) struct Completer {
    /// Free variables that are not given, ascending.
    free: Vec<u32>,
    /// Free variables that are given.
    fixed: Vec<u32>,
    /// Per free variable, whether the current completion sets it.
    on: Vec<bool>,
    /// The completed solution handed on.
    buf: Vec<u32>,
    alarm: Alarm,
    /// Whether the time limit or a stop request ended a listing.
    timed_out: bool,
    /// Completed solutions handed on.
    solutions: u64,
}

impl Completer {
    /// A completer of the free variables `free` (ascending) under `givens`, with the givens the
    /// engines are to see (the others), for a run started at `start` with `time_limit`.
    pub fn new(
        free: &[u32],
        givens: &[usize],
        start: Instant,
        time_limit: Option<Duration>,
    ) -> (Completer, Vec<usize>) {
        let is_free = |v: usize| free.binary_search(&(v as u32)).is_ok();
        let fixed: Vec<u32> = givens
            .iter()
            .filter(|&&g| is_free(g))
            .map(|&g| g as u32)
            .collect();
        let engine_givens = givens.iter().copied().filter(|&g| !is_free(g)).collect();
        let free: Vec<u32> = free
            .iter()
            .copied()
            .filter(|v| !fixed.contains(v))
            .collect();
        let completer = Completer {
            on: vec![false; free.len()],
            free,
            fixed,
            buf: Vec::new(),
            alarm: Alarm::new(start, time_limit, CLOCK_EVERY),
            timed_out: false,
            solutions: 0,
        };
        (completer, engine_givens)
    }

    /// Hands `found` every completion of the engine solution `chosen`; `false` when `found`
    /// asked to stop or the time ran out (then [`Completer::timed_out`] says so).
    pub fn each(&mut self, chosen: &[u32], found: &mut dyn FnMut(&[u32]) -> bool) -> bool {
        if self.free.is_empty() && self.fixed.is_empty() {
            // The common case: nothing to complete, nothing to copy.
            self.solutions += 1;
            return found(chosen);
        }
        self.on.iter_mut().for_each(|b| *b = false);
        loop {
            if !self.free.is_empty() && self.alarm.rings() {
                self.timed_out = true;
                return false;
            }
            self.buf.clear();
            self.buf.extend_from_slice(chosen);
            self.buf.extend_from_slice(&self.fixed);
            let set = self.free.iter().zip(&self.on).filter(|(_, &b)| b);
            self.buf.extend(set.map(|(&v, _)| v));
            self.solutions += 1;
            if !found(&self.buf) {
                return false;
            }
            // The next setting: a binary counter over `on`; past the last, done.
            let Some(k) = self.on.iter().position(|&b| !b) else {
                return true;
            };
            self.on[..k].iter_mut().for_each(|b| *b = false);
            self.on[k] = true;
        }
    }

    /// Whether the time limit or a stop request ended a listing.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// The completed solutions handed on.
    pub fn solutions(&self) -> u64 {
        self.solutions
    }
}

#[cfg(test)]
mod tests {
    use super::super::problem::Problem;
    use super::super::search::frames_fit;
    use crate::backend::{count_verified, make_backend, BackendOptions, Status};
    use crate::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

    /// `n` variables; `x0 >= 1` when `pinned`, and a clause `>= 1` over all of them when `wide`.
    fn clause_model(n: usize, wide: bool) -> Model {
        let mut b = ModelBuilder::new("clauses", PuzzleKind::Generic);
        let x: Vec<usize> = (0..n)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("clause");
        let vars = if wide { x } else { vec![x[0]] };
        b.row(f, vars, Sense::AtLeast(1));
        b.build().unwrap()
    }

    fn count(model: &Model, limit: Option<u64>, options: &BackendOptions) -> (Status, u128) {
        let mut xcc = make_backend("xcc", options).unwrap();
        let out = count_verified(xcc.as_mut(), model, limit).unwrap();
        (out.status, out.count.to_u128().unwrap())
    }

    #[test]
    fn unconstrained_variables_take_no_item_and_every_solution_is_completed_every_way() {
        // Issue 35, item 2: `p cnf 10000 1 / 1 0` gave every variable a slack item that the
        // search branched on, one frame of all 10,000 items per level: 1.2 GB; 20,000 aborted.
        let big = clause_model(20_000, false);
        let p = Problem::new(&big);
        // The clause and x0's slack item; none for the others.
        assert_eq!((p.num_items(), p.free.len()), (2, 19_999));
        let (status, found) = count(&big, Some(1000), &BackendOptions::default());
        assert_eq!((status, found), (Status::Limit, 1000));
        // Small enough to count: an exact-cover row over x0, x1 and three free variables (one
        // of them given): 2 x 2^2, as brute force says.
        let mut b = ModelBuilder::new("small", PuzzleKind::Generic);
        let x: Vec<usize> = (0..5)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("cover");
        b.row(f, vec![x[0], x[1]], Sense::ExactlyOne);
        b.row(f, vec![x[2], x[3], x[4]], Sense::AtMost(3));
        b.given(x[4]);
        let small = b.build().unwrap();
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        let expected = count_verified(brute.as_mut(), &small, None).unwrap().count;
        assert_eq!(expected, 8);
        for engine in ["auto", "transposed", "sweep", "counts"] {
            let mut options = BackendOptions::default();
            options.params.insert("engine".into(), engine.into());
            assert_eq!(
                count(&small, None, &options),
                (Status::Solved, 8),
                "{engine}"
            );
        }
    }

    #[test]
    fn listing_the_completions_stops_at_the_time_limit() {
        // 2^63 completions of the one engine solution: the clock is read between them.
        let options = BackendOptions {
            time_limit: Some(std::time::Duration::from_millis(20)),
            ..BackendOptions::default()
        };
        let (status, found) = count(&clause_model(64, false), None, &options);
        assert_eq!(status, Status::Limit);
        assert!(found > 0 && found < 1 << 63, "{found}");
    }

    #[test]
    fn search_frames_past_the_memory_are_refused_before_the_search() {
        // One wide clause: every variable needs a slack item, 20,000 levels of 20,001 items.
        let p = Problem::new(&clause_model(20_000, true));
        let why = frames_fit(&p, || Some(1 << 30)).unwrap_err();
        assert!(
            why.contains("search frames") && why.contains("levels"),
            "{why}"
        );
        assert!(frames_fit(&p, || None).is_ok());
        // A small problem never asks.
        let small = Problem::new(&clause_model(10, true));
        assert!(frames_fit(&small, || panic!("asked")).is_ok());
    }
}
