//! Stopping a run from outside: a [`StopFlag`] that another thread raises (a dropped solution
//! iterator of the Python package raises it to end its search), or that [`raise_all`] raises
//! together with every other (the Python package's SIGINT handler does, on Ctrl-C).
//!
//! The flag reaches a backend without passing through its constructor or the [`super::Backend`]
//! trait: the caller runs the backend inside [`with_stop_flag`] on the thread that calls it, and
//! a backend that can stop reads [`current`] once when a run starts, then checks the flag where
//! it checks its time limit (every few hundred search steps). A run stopped this way ends as if
//! its time limit had been reached; the caller, who raised the flag, knows it was a stop.
//!
//! Every built-in backend checks the flag ([`CHECKED_BY`]): the searches (`bitset`, `vsa`,
//! `enum`, `xcc`, `brute`; `auto` runs one of them) every few hundred steps, `dp` every few
//! thousand states of a line, `gauss` between pivots, `milp` between presolve rounds and
//! between the engine's time slices, and `sat` through varisat's proof output (the one hook varisat offers: a proof
//! sink that fails once the flag is raised, or its time limit passed, ends the solver's step loop). A backend that has a
//! time limit ends a stopped run as if the limit had been reached; one without a time limit
//! returns [`BackendError::Stopped`] (status `unknown`). Costs two relaxed atomic loads per
//! check; nothing when no flag is set (`sat` writes no proof then).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::BackendError;

/// The backends that check the flag (every built-in one but the optional `highs`, whose
/// engine has no hook; it runs to its end or its time limit).
pub const CHECKED_BY: [&str; 10] = [
    "bitset", "vsa", "enum", "xcc", "brute", "dp", "gauss", "milp", "sat", "auto",
];

/// Bumped by [`raise_all`]: a flag made before the bump counts as raised.
static EPOCH: AtomicU64 = AtomicU64::new(0);

/// A request to stop, shared between the thread that raises it and the run that checks it.
/// [`raise_all`] raises every flag made before it at once.
#[derive(Debug, Clone)]
pub struct StopFlag {
    raised: Arc<AtomicBool>,
    epoch: u64,
}

impl StopFlag {
    /// A flag not raised yet.
    pub fn new() -> StopFlag {
        StopFlag {
            raised: Arc::default(),
            epoch: EPOCH.load(Ordering::Relaxed),
        }
    }

    /// Asks every run holding this flag to stop at its next check.
    pub fn raise(&self) {
        self.raised.store(true, Ordering::Relaxed);
    }

    /// Whether the flag was raised, by [`StopFlag::raise`] or by [`raise_all`].
    pub fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed) || EPOCH.load(Ordering::Relaxed) != self.epoch
    }
}

impl Default for StopFlag {
    fn default() -> StopFlag {
        StopFlag::new()
    }
}

/// Raises every stop flag made so far (every run of this process that has one stops). One
/// atomic addition, so a signal handler may call it (the Python package does, on SIGINT).
pub fn raise_all() {
    EPOCH.fetch_add(1, Ordering::Relaxed);
}

thread_local! {
    static CURRENT: RefCell<Option<StopFlag>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread with `flag` as the [`current`] stop flag (the previous one is put
/// back afterwards, also when `work` panics).
pub fn with_stop_flag<R>(flag: &StopFlag, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<StopFlag>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|c| c.borrow_mut().replace(flag.clone()));
    let _restore = Restore(previous);
    work()
}

/// The stop flag of the run on this thread, if its caller set one with [`with_stop_flag`].
pub fn current() -> Option<StopFlag> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Whether `flag` is set and raised: the check a backend makes beside its deadline.
pub fn raised(flag: &Option<StopFlag>) -> bool {
    flag.as_ref().is_some_and(StopFlag::is_raised)
}

/// When a search must end early, polled from its inner loop: the run's deadline and the
/// thread's stop flag, read at the first poll and then every `every` polls. Costs one decrement
/// per poll, and a clock read plus two relaxed loads per read. Shared by the engines that poll
/// per node (`xcc`'s `transposed` and `sweep`).
#[derive(Debug, Clone)]
pub struct Alarm {
    until_read: u64,
    every: u64,
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
}

impl Alarm {
    /// An alarm for a run that started at `start` with `time_limit` (none: the stop flag
    /// alone), under the calling thread's stop flag, read every `every` polls (at least 1).
    pub fn new(start: Instant, time_limit: Option<Duration>, every: u64) -> Self {
        Alarm {
            until_read: 1,
            every: every.max(1),
            deadline: time_limit.and_then(|t| start.checked_add(t)),
            stop: current(),
        }
    }

    /// Whether the run must end: true when this poll reads the clock and the flag and finds
    /// the deadline passed or the flag raised (a stopped run ends as if its limit were reached).
    #[inline]
    pub fn rings(&mut self) -> bool {
        self.until_read -= 1;
        if self.until_read != 0 {
            return false;
        }
        self.until_read = self.every;
        self.deadline.is_some_and(|d| Instant::now() >= d) || raised(&self.stop)
    }
}

/// `Err(BackendError::Stopped)` for `backend` when `flag` is set and raised: the check of a
/// backend without a time limit, which has no other way to end early.
pub fn check(flag: &Option<StopFlag>, backend: &str) -> Result<(), BackendError> {
    if raised(flag) {
        Err(BackendError::Stopped {
            backend: backend.into(),
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, make_backend, solve_verified, BackendOptions, Status};
    use crate::puzzle::HexBoard;

    #[test]
    fn the_flag_is_seen_only_inside_with_stop_flag_and_restored_after() {
        let flag = StopFlag::new();
        assert!(current().is_none());
        with_stop_flag(&flag, || {
            assert!(!raised(&current()));
            flag.raise();
            assert!(raised(&current()));
        });
        assert!(current().is_none());
        let (older, other) = (StopFlag::new(), StopFlag::new());
        other.raise();
        assert!(!older.is_raised());
        raise_all();
        assert!(older.is_raised() && !StopFlag::new().is_raised());
    }

    #[test]
    fn an_alarm_reads_at_its_first_poll_then_every_nth_and_rings_for_deadline_or_flag() {
        let start = Instant::now();
        let mut quiet = Alarm::new(start, None, 3);
        assert!((0..10).all(|_| !quiet.rings()));
        let mut late = Alarm::new(start, Some(Duration::ZERO), 3);
        assert!(late.rings(), "the first poll reads the clock");
        assert_eq!(
            (0..6).map(|_| late.rings()).collect::<Vec<_>>(),
            [false, false, true, false, false, true]
        );
        let huge = Alarm::new(start, Some(Duration::MAX), 1);
        assert!(
            huge.deadline.is_none(),
            "a limit past the clock's range is no deadline"
        );
        let flag = StopFlag::new();
        with_stop_flag(&flag, || {
            let mut alarm = Alarm::new(Instant::now(), None, 2);
            assert!(!alarm.rings());
            flag.raise();
            assert!(!alarm.rings(), "read only every second poll");
            assert!(alarm.rings());
        });
    }

    /// Twenty free variables and rows every assignment satisfies: 2^20 solutions for brute
    /// force to count.
    fn loose(n: usize) -> crate::model::Model {
        use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
        let mut b = ModelBuilder::new("loose", PuzzleKind::Generic);
        let v: Vec<usize> = (0..n)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("loose");
        b.row(f, v, Sense::AtMost(n as u64));
        b.build().unwrap()
    }

    #[test]
    fn a_raised_flag_stops_every_backend_before_it_finishes() {
        // The bare width-21 board takes far more than one check's worth of work to count (or,
        // for gauss, to eliminate): a flag raised before the run starts stops it at its first
        // check, short of the end. Backends with a time limit end as at the limit; the others
        // are `unknown`, stopped.
        let hex = HexBoard::geometry(21).unwrap().to_model("hex-21");
        let brute = loose(20);
        for name in CHECKED_BY {
            let model = if name == "brute" { &brute } else { &hex };
            let flag = StopFlag::new();
            flag.raise();
            let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
            let (status, reason) = with_stop_flag(&flag, || {
                if name == "gauss" {
                    let o = solve_verified(backend.as_mut(), model).unwrap();
                    (o.status, o.reason)
                } else {
                    let o = count_verified(backend.as_mut(), model, None).unwrap();
                    assert!(!o.exhaustive, "{name}");
                    (o.status, o.reason)
                }
            });
            if crate::backend::stops_itself(name) {
                assert!(
                    matches!(status, Status::Limit | Status::Timeout),
                    "{name}: {status:?}"
                );
            } else {
                assert_eq!(status, Status::Unknown, "{name}: {reason:?}");
                assert!(reason.unwrap().contains("stopped"), "{name}");
            }
        }
    }

    #[test]
    fn an_unraised_flag_changes_no_answer() {
        // The paths a flag opens (sat's proof sink, milp's time slices) find the same counts.
        let model = HexBoard::geometry(7).unwrap().to_model("hex-7");
        for name in ["sat", "milp", "dp", "xcc", "brute"] {
            let model = if name == "brute" {
                loose(12)
            } else {
                model.clone()
            };
            let mut plain = make_backend(name, &BackendOptions::default()).unwrap();
            let expected = count_verified(plain.as_mut(), &model, None).unwrap();
            let got = loop {
                let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
                let flag = StopFlag::new();
                let got = with_stop_flag(&flag, || count_verified(backend.as_mut(), &model, None));
                // Another test's raise_all() raises every flag of the process: run again.
                if !flag.is_raised() {
                    break got.unwrap();
                }
            };
            assert_eq!(
                (got.status, got.count, got.exhaustive),
                (expected.status, expected.count, true),
                "{name}: {:?}",
                got.reason
            );
        }
    }
}
