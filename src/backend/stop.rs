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
//! Backends that check the flag ([`CHECKED_BY`]): `bitset` and `vsa` (the shared search) and
//! `enum`. Costs two relaxed atomic loads per check; nothing when no flag is set.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// The backends that check the flag (the others run to their end).
pub const CHECKED_BY: [&str; 3] = ["bitset", "vsa", "enum"];

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, make_backend, BackendOptions, Status};
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
    fn a_raised_flag_stops_a_count_of_the_searching_backends_before_it_finishes() {
        // The bare width-21 board takes far more than one check's worth of steps to count: a
        // flag raised before the run starts stops it at its first check, short of the end.
        let model = HexBoard::geometry(21).unwrap().to_model("hex-21");
        for name in ["bitset", "vsa", "enum"] {
            let flag = StopFlag::new();
            flag.raise();
            let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
            let outcome =
                with_stop_flag(&flag, || count_verified(backend.as_mut(), &model, None)).unwrap();
            assert_eq!(outcome.status, Status::Limit, "{name}: {outcome:?}");
            assert!(!outcome.exhaustive, "{name}");
        }
    }
}
