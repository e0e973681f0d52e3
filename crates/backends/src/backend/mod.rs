//! Backends: one file or folder each, behind one small trait (the heavy engines, `gauss`,
//! `milp`, `sat`, `vsa`, behind cargo features of the same names, on by default).
//!
//! A [`Backend`] has a name and abilities. Solving ([`Solver`]), counting ([`Counter`]) and
//! streaming every solution ([`SolutionStream`]) are abilities; a backend that lacks one says so
//! by returning `None`, never by a stub. Whether a backend stops itself at a time limit is
//! declared once, in its [`registry`] entry ([`BackendInfo::uses_time_limit`]); its constructor
//! reads the limit from [`BackendOptions`]. Backends are made at run time by name.
//!
//! No answer leaves this module unchecked: the runners of [`verified`] ([`solve_verified`],
//! [`count_verified`], [`solutions_verified`]) run a backend (catching panics) and pass every
//! solution it returns through the shared [`Verifier`](crate::model::verify::Verifier). A rejected
//! answer becomes [`Status::Error`], never [`Status::Solved`]. What backends report and what the
//! runners make of it is in [`outcome`].

pub mod auto;
pub mod bitset;
pub mod branch_bound;
pub mod brute;
pub mod count;
pub mod dp;
mod entries;
pub mod enumerate;
#[cfg(test)]
mod fixtures;
#[cfg(feature = "gauss")]
pub mod gauss;
#[cfg(feature = "highs")]
pub mod highs;
pub mod incumbent;
pub mod linear;
pub mod memory;
#[cfg(feature = "milp")]
pub mod milp;
mod optimal;
pub mod optimize;
pub mod outcome;
pub mod presolve;
pub mod proof;
pub mod refusal;
#[cfg(feature = "sat")]
pub mod sat;
pub mod search;
pub mod stop;
pub mod stream;
#[cfg(feature = "sat")]
pub mod surrogate;
pub mod verified;
#[cfg(feature = "vsa")]
pub mod vsa;
pub mod worker;
pub mod xcc;

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::Model;

pub use count::Count;
pub use optimize::{
    optimal_solutions_verified, solutions_within_verified, OptimizeReport, Optimizer,
};
pub use outcome::{
    CountEnd, CountOutcome, CountReport, Found, LpVerdict, Outcome, SearchCounter, SolveReport,
    Stats, Status, Undecided, WITNESS_LIMIT,
};
pub use refusal::{RowLimit, RowRefusal};
pub(crate) use stream::{count_by_enumeration, solve_by_enumeration, Enumeration};
pub use stream::{SolutionStream, StreamOutcome, StreamReport};
pub(crate) use verified::solutions_verified_where;
pub use verified::{count_verified, solutions_verified, solve_verified};

/// Errors of the backend layer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BackendError {
    /// `--backend NAME` names no registered backend.
    #[error("unknown backend '{name}' (known: {known}){hint}", hint = crate::suggest::did_you_mean_in(name, known))]
    UnknownBackend {
        /// The name asked for.
        name: String,
        /// The registered names, comma-separated.
        known: String,
    },
    /// The backend cannot read some rows of the model (see [`Backend::rows_supported`]).
    #[error("backend '{backend}' cannot handle this model: {reason}")]
    UnsupportedRows {
        /// Backend name.
        backend: String,
        /// Which row, and why (boxed: the error stays small).
        reason: Box<RowRefusal>,
    },
    /// The backend lacks the ability asked for (for example `dp` cannot solve).
    #[error("backend '{backend}' cannot {ability}")]
    Unsupported {
        /// Backend name.
        backend: String,
        /// What was asked ("solve", "count").
        ability: String,
    },
    /// An option has a value the backend does not accept.
    #[error("backend '{backend}': option '{key}' = '{value}': expected {expected}")]
    BadOption {
        /// Backend name.
        backend: String,
        /// Option key.
        key: String,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
    /// An option (a `params` key, or `time_limit` / `seed`) that this backend does not read:
    /// refused, so that a misspelt or misplaced setting never measures the wrong configuration.
    #[error("backend '{backend}' does not take option '{key}' (it takes: {accepted}){hint}", hint = crate::suggest::did_you_mean_in(key, accepted))]
    UnknownOption {
        /// Backend name.
        backend: String,
        /// The key given.
        key: String,
        /// The keys the backend reads, comma-separated (`none` when it reads none).
        accepted: String,
    },
    /// The model is beyond what this backend handles.
    #[error("backend '{backend}' cannot take this model: {reason}")]
    TooLarge {
        /// Backend name.
        backend: String,
        /// Why.
        reason: String,
    },
    /// The backend (or a solver library under it) failed.
    #[error("backend '{backend}' failed: {reason}")]
    Failed {
        /// Backend name.
        backend: String,
        /// What went wrong.
        reason: String,
    },
    /// The run was stopped from outside (its [`stop::StopFlag`] was raised: Ctrl-C in the
    /// Python package, a dropped solution stream) before it finished: status `unknown`.
    #[error("backend '{backend}' was stopped before it finished (a stop request, such as Ctrl-C)")]
    Stopped {
        /// Backend name.
        backend: String,
    },
}

/// The ability to look for one solution.
pub trait Solver {
    /// Looks for a solution of `model` (givens included). Any solution returned is checked by
    /// the caller; an `Err` is reported as [`Status::Error`].
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError>;
}

/// The ability to count solutions.
pub trait Counter {
    /// Counts solutions of `model`, stopping once `limit` are found (`None`: count all).
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError>;
}

/// A backend: a name and a set of abilities.
pub trait Backend: Send {
    /// The registry name (`brute`, `enum`, `milp`, ...).
    fn name(&self) -> &'static str;
    /// The name of the engine that runs `model`, for records: the backend's own name, except
    /// for a backend that hands models to others (`auto`, which names the one it picks).
    fn serving(&self, model: &Model) -> &'static str {
        let _ = model;
        self.name()
    }
    /// The solving ability, if the backend has it.
    fn solver(&mut self) -> Option<&mut dyn Solver>;
    /// The counting ability, if the backend has it.
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        None
    }
    /// The ability to hand over every solution, one at a time, if the backend has it.
    fn streamer(&mut self) -> Option<&mut dyn SolutionStream> {
        None
    }
    /// The ability to optimise a model's objective exactly, if the backend has it. A backend
    /// without it is `unsupported` on a model with an objective, never run as if it had none.
    fn optimizer(&mut self) -> Option<&mut dyn Optimizer> {
        None
    }
    /// Why the backend has no [`Backend::optimizer`], for the `unsupported` message.
    fn no_optimizer_reason(&self) -> String {
        "it decides feasibility only and has no objective search".into()
    }
    /// `Err` naming the first row of `model` the backend cannot read, and why. Every backend
    /// says which rows it reads (no default: [`exact_cover_only`] for one that reads `= 1` /
    /// `<= 1` rows only, `Ok(())` for one that reads every row kind `sum w x (=, <=, >=) k`).
    /// Checked by [`solve_verified`], [`count_verified`] and [`solutions_verified`] before the
    /// backend runs, so a model it cannot read is `unsupported`, never a wrong answer. Should
    /// cost at most one scan of the rows.
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal>;
    /// The ability to run with a VeriPB proof log ([`proof::Prover`]), if the backend has it.
    fn prover(&mut self) -> Option<&mut dyn proof::Prover> {
        None
    }
    /// Why the backend has no [`Backend::prover`], for the refusal of `--proof`.
    fn no_prover_reason(&self) -> String {
        "it logs no proofs (bitset does: use --backend bitset)".into()
    }
    /// The sizes past which the backend refuses a model (`unsupported`) or gives up, in a few
    /// words for `zeroone backends` (empty: none beyond the model's own limits). Costs nothing.
    fn size_caps(&self) -> &'static str {
        ""
    }
}

/// `Err` naming the first row of `model` that is not an exact-cover row
/// ([`RowLimit::ExactCoverOnly`]): the answer of [`Backend::rows_supported`] for a backend that
/// reads `= 1` / `<= 1` rows only. Cost: one scan of the row senses.
pub fn exact_cover_only(model: &Model) -> Result<(), RowRefusal> {
    refusal::first_general_row_refused(model, |sense, weighted| RowLimit::ExactCoverOnly {
        sense,
        weighted,
    })
}

/// Options handed to a backend's constructor. Each backend reads the keys it knows from
/// `params` and rejects bad values with [`BackendError::BadOption`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BackendOptions {
    /// Per-call wall-clock limit, where the backend can honour one.
    #[serde(default)]
    pub time_limit: Option<Duration>,
    /// Seed for any randomness (VSA codes, tie-breaks).
    #[serde(default)]
    pub seed: u64,
    /// Backend-specific settings (`dim`, `code`, `families`, `relax`, ...).
    #[serde(default)]
    pub params: BTreeMap<String, String>,
}

/// The longest time limit a backend accepts: one year. Longer values are refused (they would
/// overflow a deadline, and nobody means them); leave the limit out to run without one.
pub const MAX_TIME_LIMIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// Converts a time limit in seconds (from a command line or an experiment file) into a
/// [`Duration`], or `None` when it is not a number above 0 and at most [`MAX_TIME_LIMIT`] (0,
/// NaN, negative, infinite or too large: `Duration::from_secs_f64` would panic on some of
/// those, and a limit of 0 would stop every run before it starts). The same rule holds for
/// `--time-limit` and `time_limit` in experiment files.
pub fn time_limit_from_seconds(seconds: f64) -> Option<Duration> {
    (seconds > 0.0 && seconds <= MAX_TIME_LIMIT.as_secs_f64())
        .then(|| Duration::from_secs_f64(seconds))
}

impl BackendOptions {
    /// Checks the options against what `info` declares: every `params` key must be one the
    /// backend reads, and the time limit must be at most [`MAX_TIME_LIMIT`]. Cost: one pass over
    /// the keys.
    pub fn check_against(&self, info: &BackendInfo) -> Result<(), BackendError> {
        if let Some(key) = self
            .params
            .keys()
            .find(|k| !info.params.contains(&k.as_str()))
        {
            return Err(BackendError::UnknownOption {
                backend: info.name.into(),
                key: key.clone(),
                accepted: info.accepted(),
            });
        }
        self.checked_time_limit(info.name)?;
        Ok(())
    }

    /// The time limit, refused with [`BackendError::BadOption`] when above [`MAX_TIME_LIMIT`]:
    /// for constructors, since library users may bypass [`make_backend`].
    pub fn checked_time_limit(&self, backend: &str) -> Result<Option<Duration>, BackendError> {
        match self.time_limit {
            Some(t) if t > MAX_TIME_LIMIT => Err(BackendError::BadOption {
                backend: backend.into(),
                key: "time_limit".into(),
                value: format!("{}", t.as_secs_f64()),
                expected: format!("a number of seconds from 0 to {}", MAX_TIME_LIMIT.as_secs()),
            }),
            other => Ok(other),
        }
    }

    /// Reads `params[key]` parsed as `T`, or `default` when absent.
    pub fn param<T: std::str::FromStr>(
        &self,
        backend: &str,
        key: &str,
        default: T,
        expected: &str,
    ) -> Result<T, BackendError> {
        match self.params.get(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| BackendError::BadOption {
                backend: backend.into(),
                key: key.into(),
                value: v.clone(),
                expected: expected.into(),
            }),
        }
    }
}

/// One registry entry: how to make a backend by name.
#[derive(Clone, Copy)]
pub struct BackendInfo {
    /// The name `--backend` takes.
    pub name: &'static str,
    /// One line saying what it is.
    pub about: &'static str,
    /// Constructor.
    pub make: fn(&BackendOptions) -> Result<Box<dyn Backend>, BackendError>,
    /// The `params` keys the backend reads; [`make_backend`] refuses any other.
    pub params: &'static [&'static str],
    /// Whether the backend stops itself at `time_limit` (its constructor reads it, and a run
    /// that reaches it ends in [`Found::TimedOut`]): the one place this is declared. Backends
    /// without it are stopped from outside (a worker process killed after the limit).
    pub uses_time_limit: bool,
    /// Whether the backend reads `seed`.
    pub uses_seed: bool,
    /// The [`Stats`] counters the backend fills, each with the name of what it counts there
    /// (reports show them under these names and show no counter a backend does not fill).
    pub counters: &'static [(SearchCounter, &'static str)],
    /// The settings the shared conformance suite (`tests/it/conformance.rs`) runs the backend
    /// under, each with what it promises there; at least one (a test fails on an entry that runs
    /// no case). Which parts of the suite apply (solving, counting, streaming) follows from the
    /// abilities the backend made with each setting has.
    pub promises: &'static [Promise],
}

/// What a backend promises under one setting of its options: the shared conformance suite
/// holds it to this on models with known counts. A constant, so a registry entry lists it in one
/// line ([`Promise::EXACT`], [`Promise::SOUND`], or either with some fields changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Promise {
    /// The `params` of this setting, as `(key, value)` pairs (empty: the defaults).
    pub params: &'static [(&'static str, &'static str)],
    /// The seed of this setting.
    pub seed: u64,
    /// Every solve ends in `solved` or `infeasible`, never `unknown`.
    pub complete: bool,
    /// Counting (and streaming) without a limit always finishes, with the exact count.
    pub counts: bool,
    /// The most free variables (after the givens) of a model it takes; larger models are beyond
    /// it (refused as `unsupported`) and the suite skips them.
    pub max_free: usize,
}

impl Promise {
    /// A complete backend with its default options: it decides every model, and counts every
    /// solution when it can count.
    pub const EXACT: Promise = Promise {
        params: &[],
        seed: 0,
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    /// A sound but incomplete backend with its default options: any answer it gives is right,
    /// but it may say `unknown`, and a count may stop early.
    pub const SOUND: Promise = Promise {
        complete: false,
        counts: false,
        ..Promise::EXACT
    };

    /// The options of this setting, for [`make_backend`]. Cost: one small map.
    pub fn options(&self) -> BackendOptions {
        BackendOptions {
            time_limit: None,
            seed: self.seed,
            params: (self.params.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }
}

impl BackendInfo {
    /// Every option the backend reads, for messages: its `params` keys, then `time_limit` and
    /// `seed` when it uses them; `none` when it reads nothing.
    pub fn accepted(&self) -> String {
        let mut all: Vec<&str> = self.params.to_vec();
        if self.uses_time_limit {
            all.push("time_limit");
        }
        if self.uses_seed {
            all.push("seed");
        }
        if all.is_empty() {
            "none".into()
        } else {
            all.join(", ")
        }
    }
}

/// Every registered backend, in the order `--help` lists them. The heavy engines are there only
/// when their cargo feature is on (`gauss`, `milp`, `sat`, `vsa`: all on by default; `highs` off).
pub fn registry() -> Vec<BackendInfo> {
    vec![
        entries::BRUTE,
        entries::ENUM,
        entries::DP,
        #[cfg(feature = "gauss")]
        entries::GAUSS,
        #[cfg(feature = "milp")]
        entries::MILP,
        #[cfg(feature = "sat")]
        entries::SAT,
        #[cfg(feature = "highs")]
        entries::HIGHS,
        entries::AUTO,
        entries::BITSET,
        entries::XCC,
        #[cfg(feature = "vsa")]
        entries::VSA,
    ]
}

/// Makes the backend called `name` with `options` (see [`registry`] for the names). Options it
/// does not read (see [`BackendInfo::params`]) and a time limit above [`MAX_TIME_LIMIT`] are
/// refused before the backend is built. Cost: constructing the backend (cheap; the work starts
/// at `solve` or `count`).
///
/// ```
/// use zeroone::backend::{make_backend, solve_verified, BackendOptions, Status};
/// use zeroone::puzzle::HexBoard;
///
/// let model = HexBoard::geometry(5).unwrap().to_model("hex-5");
/// for name in ["bitset", "sat", "enum"] {
///     let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
///     let outcome = solve_verified(backend.as_mut(), &model).unwrap();
///     assert_eq!(outcome.status, Status::Solved);
///     assert!(outcome.verified);
/// }
/// assert!(make_backend("no-such-backend", &BackendOptions::default()).is_err());
/// ```
pub fn make_backend(
    name: &str,
    options: &BackendOptions,
) -> Result<Box<dyn Backend>, BackendError> {
    Registry::builtin().make(name, options)
}

/// Whether the registered backend `name` stops itself at a time limit (see
/// [`BackendInfo::uses_time_limit`]); `false` for an unknown name.
pub fn stops_itself(name: &str) -> bool {
    Registry::builtin().stops_itself(name)
}

/// The backends a program can make by name: this binary's ([`registry`]), plus entries a
/// program adds with [`Registry::with`] (a backend defined outside the crate, such as a test's
/// toy backend). A value handed down to whatever makes backends, never a global: the built-in
/// one costs one small vector per call.
#[derive(Clone)]
pub struct Registry {
    entries: Vec<BackendInfo>,
    /// How many of `entries`, from the front, are this binary's own.
    builtin: usize,
}

impl Registry {
    /// This binary's backends, in the order `--help` lists them.
    pub fn builtin() -> Registry {
        let entries = registry();
        Registry {
            builtin: entries.len(),
            entries,
        }
    }

    /// This registry plus `extra`, which takes the place of an entry of the same name.
    pub fn with(mut self, extra: BackendInfo) -> Registry {
        if let Some(i) = self.entries.iter().position(|e| e.name == extra.name) {
            self.entries.remove(i);
            if i < self.builtin {
                self.builtin -= 1;
            }
        }
        self.entries.push(extra);
        self
    }

    /// Every entry, the built-in ones first.
    pub fn entries(&self) -> &[BackendInfo] {
        &self.entries
    }

    /// The entry called `name`.
    pub fn get(&self, name: &str) -> Option<&BackendInfo> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Whether `name` is one of this binary's own backends, so a `zeroone worker` process can
    /// make it; an entry added with [`Registry::with`] exists only in the program that added it.
    pub fn is_builtin(&self, name: &str) -> bool {
        self.entries[..self.builtin].iter().any(|e| e.name == name)
    }

    /// Makes the backend called `name` with `options`, as [`make_backend`] does.
    pub fn make(
        &self,
        name: &str,
        options: &BackendOptions,
    ) -> Result<Box<dyn Backend>, BackendError> {
        match self.get(name) {
            Some(info) => {
                options.check_against(info)?;
                (info.make)(options)
            }
            None => Err(BackendError::UnknownBackend {
                name: name.into(),
                known: self
                    .entries
                    .iter()
                    .map(|b| b.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// Whether the backend `name` stops itself at a time limit; `false` for an unknown name.
    pub fn stops_itself(&self, name: &str) -> bool {
        self.get(name).is_some_and(|b| b.uses_time_limit)
    }

    /// The names of the backends that stop themselves at a time limit, for messages.
    pub fn stopping_themselves(&self) -> Vec<&'static str> {
        (self.entries.iter())
            .filter(|b| b.uses_time_limit)
            .map(|b| b.name)
            .collect()
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.entries.iter().map(|e| e.name).collect();
        f.debug_struct("Registry")
            .field("entries", &names)
            .field("builtin", &self.builtin)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_that_declares_a_time_limit_stops_itself_at_one() {
        // 244 placements: thousands of search nodes, so a backend that ignored a zero limit
        // would finish the count and be caught here rather than hang.
        let model = crate::puzzle::HexBoard::geometry(9)
            .unwrap()
            .to_model("hex-9");
        for info in registry().iter().filter(|i| i.uses_time_limit) {
            let o = BackendOptions {
                time_limit: Some(Duration::ZERO),
                ..BackendOptions::default()
            };
            let mut b = make_backend(info.name, &o).unwrap();
            if b.counter().is_some() {
                let out = count_verified(b.as_mut(), &model, None).unwrap();
                assert_eq!(out.status, Status::Limit, "{}: {:?}", info.name, out.reason);
                assert!(!out.exhaustive, "{}", info.name);
            }
            let out = solve_verified(b.as_mut(), &model).unwrap();
            assert!(
                matches!(out.status, Status::Timeout | Status::Solved),
                "{}: {:?}",
                info.name,
                out.status
            );
            assert!(stops_itself(info.name));
        }
        assert!(!stops_itself("brute") && !stops_itself("no-such-backend"));
    }

    #[test]
    fn every_declared_key_is_accepted_and_any_other_is_refused_by_name() {
        for info in registry() {
            for key in info.params {
                let mut o = BackendOptions::default();
                o.params.insert((*key).into(), "x".into());
                // The key passes the strictness check; the constructor may still refuse "x".
                assert_eq!(o.check_against(&info), Ok(()), "{} {key}", info.name);
            }
            let mut o = BackendOptions::default();
            o.params.insert("no-such-key".into(), "1".into());
            match make_backend(info.name, &o) {
                Err(BackendError::UnknownOption {
                    backend,
                    key,
                    accepted,
                }) => {
                    assert_eq!((backend.as_str(), key.as_str()), (info.name, "no-such-key"));
                    assert_eq!(accepted, info.accepted());
                }
                Err(e) => panic!("{}: {e}", info.name),
                Ok(_) => panic!("{}: accepted an unknown key", info.name),
            }
        }
    }

    #[test]
    fn every_entry_promises_a_setting_it_accepts() {
        for info in registry() {
            assert!(
                !info.promises.is_empty(),
                "{}: no conformance setting",
                info.name
            );
            for promise in info.promises {
                let made = make_backend(info.name, &promise.options());
                assert!(made.is_ok(), "{} {:?}", info.name, promise.params);
            }
        }
    }

    #[test]
    fn a_time_limit_beyond_a_year_is_refused_and_the_conversion_never_panics() {
        let o = BackendOptions {
            time_limit: Some(Duration::MAX),
            ..BackendOptions::default()
        };
        assert!(matches!(
            make_backend("bitset", &o),
            Err(BackendError::BadOption { key, .. }) if key == "time_limit"
        ));
        for s in [
            1e20,
            1e300,
            f64::NAN,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(time_limit_from_seconds(s), None, "{s}");
        }
        assert_eq!(time_limit_from_seconds(0.0), None);
        assert_eq!(
            time_limit_from_seconds(0.5),
            Some(Duration::from_millis(500))
        );
        assert_eq!(time_limit_from_seconds(31_536_000.0), Some(MAX_TIME_LIMIT));
    }

    #[test]
    fn constructors_refuse_a_time_limit_beyond_a_year_themselves() {
        let o = BackendOptions {
            time_limit: Some(MAX_TIME_LIMIT + Duration::from_secs(1)),
            ..BackendOptions::default()
        };
        let refused = |r: Result<(), BackendError>| matches!(r, Err(BackendError::BadOption { key, .. }) if key == "time_limit");
        assert!(refused(milp::Milp::new(&o).map(|_| ())));
        assert!(refused(
            enumerate::EnumSettings::from_options(&o).map(|_| ())
        ));
    }

    #[test]
    fn the_longest_time_limit_runs_without_overflowing_a_deadline() {
        let model = crate::puzzle::Sudoku::from_cells(2, vec![None; 16])
            .unwrap()
            .to_model("empty 4x4")
            .unwrap();
        for name in ["bitset", "enum", "milp"] {
            let o = BackendOptions {
                time_limit: Some(MAX_TIME_LIMIT),
                ..BackendOptions::default()
            };
            let mut b = make_backend(name, &o).unwrap();
            let out = solve_verified(b.as_mut(), &model).unwrap();
            assert_eq!(out.status, Status::Solved, "{name}: {:?}", out.reason);
        }
    }
}
