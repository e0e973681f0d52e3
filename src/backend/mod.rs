//! Backends: one file each, behind one small trait.
//!
//! A [`Backend`] has a name and abilities. Solving ([`Solver`]) and counting ([`Counter`]) are
//! abilities, as is honouring a time limit ([`TimeLimit`]); a backend that lacks one says so by
//! returning `None`, never by a stub. Backends are made at run time by name from the
//! [`registry`], with [`BackendOptions`].
//!
//! No answer leaves this module unchecked: [`solve_verified`] and [`count_verified`] run a
//! backend (catching panics) and pass every solution it returns through the shared
//! [`Verifier`]. A rejected answer becomes [`Status::Error`], never [`Status::Solved`].

pub mod bitset;
pub mod brute;
pub mod dp;
pub mod enumerate;
pub mod gauss;
pub mod hex_shards;
#[cfg(feature = "highs")]
pub mod highs;
pub mod milp;
pub mod sat;
pub mod search;
pub mod stop;
pub mod stream;
pub mod vsa;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::{Model, Solution};
use crate::verify::Verifier;

pub use stream::{solutions_verified, SolutionStream, StreamOutcome, StreamReport};

/// Errors of the backend layer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BackendError {
    /// `--backend NAME` names no registered backend.
    #[error("unknown backend '{name}' (known: {known})")]
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
        /// Which row, and why.
        reason: String,
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
    #[error("backend '{backend}' does not take option '{key}' (it takes: {accepted})")]
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
}

/// Search statistics, in one plain struct shared by all backends. Fields a backend does not
/// track stay zero (and are left out of JSON); backend-specific figures go in `extra`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Search nodes visited (partial placements tried).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub nodes: u64,
    /// Nodes visited at each depth (the search profile).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes_per_depth: Vec<u64>,
    /// Values placed (by propagation or by choice).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub steps: u64,
    /// Choices made at choice points.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub guesses: u64,
    /// Choices undone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub backtracks: u64,
    /// Solutions met by the search.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub solutions: u64,
    /// Wall-clock seconds inside the backend.
    #[serde(default)]
    pub seconds: f64,
    /// Backend-specific figures (FFT batches, LP iterations, rank, ...).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, serde_json::Value>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// What a solver found, before verification.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A candidate solution (still to be verified).
    Solution(Solution),
    /// The backend proved there is no solution.
    Infeasible,
    /// The backend stopped without an answer (time limit, incomplete method); the reason.
    Unknown(String),
}

/// A solver's raw report.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveReport {
    /// The answer.
    pub found: Found,
    /// How the search went.
    pub stats: Stats,
}

/// A counter's raw report.
#[derive(Debug, Clone, PartialEq)]
pub struct CountReport {
    /// Solutions counted (exact).
    pub count: u128,
    /// Whether the search finished (false: it stopped at the limit or the time limit).
    pub exhaustive: bool,
    /// Some of the counted solutions (the first few), for verification; counting methods that
    /// never see a solution (dynamic programming) leave this empty.
    pub witnesses: Vec<Solution>,
    /// How the search went.
    pub stats: Stats,
}

/// How many witnesses a counter should keep.
pub const WITNESS_LIMIT: usize = 16;

/// A search that calls `found` once per solution (returning `false` stops it), fills `stats`,
/// and returns how many solutions it met and whether it finished.
pub(crate) type Enumeration<'a> = dyn FnMut(&mut dyn FnMut(Solution) -> bool, &mut Stats) -> Result<(u128, bool), BackendError>
    + 'a;

/// Solving on top of an [`Enumeration`]: the first solution met, or `Infeasible` when the
/// search finishes without one. Shared by the backends that enumerate (brute force, SAT).
pub(crate) fn solve_by_enumeration(
    enumerate: &mut Enumeration<'_>,
) -> Result<SolveReport, BackendError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut first = None;
    enumerate(
        &mut |s| {
            first = Some(s);
            false
        },
        &mut stats,
    )?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(SolveReport {
        found: first.map_or(Found::Infeasible, Found::Solution),
        stats,
    })
}

/// Counting on top of an [`Enumeration`]: stops at `limit`, keeps the first
/// [`WITNESS_LIMIT`] solutions as witnesses.
pub(crate) fn count_by_enumeration(
    limit: Option<u64>,
    enumerate: &mut Enumeration<'_>,
) -> Result<CountReport, BackendError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    if limit == Some(0) {
        return Ok(CountReport {
            count: 0,
            exhaustive: false,
            witnesses: Vec::new(),
            stats,
        });
    }
    let mut witnesses = Vec::new();
    let mut seen = 0u64;
    let (count, finished) = enumerate(
        &mut |s| {
            seen += 1;
            if witnesses.len() < WITNESS_LIMIT {
                witnesses.push(s);
            }
            limit.is_none_or(|l| seen < l)
        },
        &mut stats,
    )?;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(CountReport {
        count,
        // Stopping exactly at the last solution still means we did not look further.
        exhaustive: finished,
        witnesses,
        stats,
    })
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

/// The ability to stop after a wall-clock time limit (reporting `unknown` / not exhaustive).
pub trait TimeLimit {
    /// Sets (or clears) the limit for the following calls.
    fn set_time_limit(&mut self, limit: Option<Duration>);
}

/// A backend: a name and a set of abilities.
pub trait Backend: Send {
    /// The registry name (`brute`, `enum`, `milp`, ...).
    fn name(&self) -> &'static str;
    /// The solving ability, if the backend has it.
    fn solver(&mut self) -> Option<&mut dyn Solver>;
    /// The counting ability, if the backend has it.
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        None
    }
    /// The time-limit ability, if the backend has it.
    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        None
    }
    /// The ability to hand over every solution, one at a time, if the backend has it.
    fn streamer(&mut self) -> Option<&mut dyn SolutionStream> {
        None
    }
    /// `Err(reason)` when the backend cannot handle some row of `model`. The default accepts
    /// exact-cover rows only (`= 1` / `<= 1` on unit weights); a backend that handles general
    /// rows (`sum w x (=, <=, >=) k`) says so by overriding this. Checked by
    /// [`solve_verified`], [`count_verified`] and [`solutions_verified`] before the backend
    /// runs, so a model it cannot read is `unsupported`, never a wrong answer. Costs one scan
    /// of the row senses.
    fn rows_supported(&self, model: &Model) -> Result<(), String> {
        exact_cover_only(model)
    }
}

/// `Err(reason)` naming the first row of `model` that is not an exact-cover row: the answer of
/// [`Backend::rows_supported`] for a backend that reads `= 1` / `<= 1` rows only.
pub fn exact_cover_only(model: &Model) -> Result<(), String> {
    match model.first_general_row() {
        None => Ok(()),
        Some(c) => Err(format!(
            "row {} of family '{}' is {}{}, and only exact-cover rows (= 1, <= 1 on unit weights) are supported",
            c.index,
            model.families()[c.family].name,
            c.sense,
            if c.weights.is_some() { " with weights" } else { "" }
        )),
    }
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
/// [`Duration`], or `None` when it is not a number from 0 to [`MAX_TIME_LIMIT`] (NaN, negative,
/// infinite or too large: `Duration::from_secs_f64` would panic on some of those).
pub fn time_limit_from_seconds(seconds: f64) -> Option<Duration> {
    (seconds >= 0.0 && seconds <= MAX_TIME_LIMIT.as_secs_f64())
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
    /// Whether the backend honours `time_limit` (it has the [`TimeLimit`] ability).
    pub uses_time_limit: bool,
    /// Whether the backend reads `seed`.
    pub uses_seed: bool,
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

/// Every registered backend, in the order `--help` lists them.
pub fn registry() -> Vec<BackendInfo> {
    vec![BackendInfo {
        name: "brute",
        about: "tries every 0-1 assignment; tiny models only (<= 25 free variables); the reference in tests",
        make: |o| Ok(Box::new(brute::BruteForce::new(o))),
        params: &[],
        uses_time_limit: false,
        uses_seed: false,
    },
    BackendInfo {
        name: "enum",
        about: "coordinate-tuple enumerator: one family gives the lines, the others are bitset distinctness rules; solves, counts, streams",
        make: |o| Ok(Box::new(enumerate::EnumBackend::new(o)?)),
        params: &["families", "order", "coordinate", "threads"],
        uses_time_limit: true,
        uses_seed: false,
    },
    BackendInfo {
        name: "dp",
        about: "counts by dynamic programming over lines (states = used open rows); counts only, no solving",
        make: |o| Ok(Box::new(dp::DpBackend::new(o))),
        params: &["coordinate"],
        uses_time_limit: false,
        uses_seed: false,
    },
    BackendInfo {
        name: "gauss",
        about: "exact Gaussian elimination of the equality rows over the rationals; solves only when the equations fix every variable (incomplete)",
        make: |o| Ok(Box::new(gauss::Gauss::new(o))),
        params: &[],
        uses_time_limit: false,
        uses_seed: false,
    },
    BackendInfo {
        name: "milp",
        about: "0-1 MILP with good_lp + microlp; counts with no-good cuts; relax=true solves the LP relaxation",
        make: |o| Ok(Box::new(milp::Milp::new(o)?)),
        params: &["relax"],
        uses_time_limit: true,
        uses_seed: false,
    },
    BackendInfo {
        name: "sat",
        about: "CNF encoding (pairwise / sequential-counter at-most-one; rustsat totalizer and GTE/DPW/adder for general rows) solved by varisat, a pure-Rust CDCL solver; counts with blocking clauses",
        make: |o| Ok(Box::new(sat::Sat::new(o)?)),
        params: &["pairwise-up-to", "pb-encoding"],
        uses_time_limit: false,
        uses_seed: false,
    },
    #[cfg(feature = "highs")]
    BackendInfo {
        name: "highs",
        about: "0-1 MILP with good_lp + HiGHS (cargo feature 'highs'); same options as milp",
        make: |o| Ok(Box::new(highs::new(o)?)),
        params: &["relax"],
        uses_time_limit: true,
        uses_seed: false,
    },
    BackendInfo {
        name: "bitset",
        about: "propagation + MRV/LCV backtracking with exact bitset legality; the fast exact path",
        make: |o| Ok(Box::new(bitset::BitsetBackend::new(o))),
        params: &[],
        uses_time_limit: true,
        uses_seed: false,
    },
    BackendInfo {
        name: "vsa",
        about: "the same search with legality read from FFT-correlated shift-code bundles (code, dim, slots, refresh)",
        make: |o| Ok(Box::new(vsa::VsaBackend::new(o)?)),
        params: &["code", "dim", "slots", "refresh"],
        uses_time_limit: true,
        uses_seed: true,
    }]
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
    let all = registry();
    match all.iter().find(|b| b.name == name) {
        Some(info) => {
            options.check_against(info)?;
            let mut backend = (info.make)(options)?;
            if let Some(t) = backend.time_limit() {
                t.set_time_limit(options.time_limit);
            }
            Ok(backend)
        }
        None => Err(BackendError::UnknownBackend {
            name: name.into(),
            known: all.iter().map(|b| b.name).collect::<Vec<_>>().join(", "),
        }),
    }
}

/// The verified status of a run.
///
/// Only `Solved` and `Infeasible` are answers (they enter time ratios); `Limit`, `Timeout`,
/// `Memout` and `Crash` count as twice the time limit in PAR-2; `Unknown`, `Unsupported` and
/// `Error` are neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A solution was found and the verifier accepted it; for a count: the count is complete
    /// and every witness passed the verifier.
    Solved,
    /// The backend proved there is no solution.
    Infeasible,
    /// A sound backend stopped without deciding (an incomplete method, a search it gave up).
    Unknown,
    /// A count or search stopped by a limit (`--limit`, `count_limit`, or the time limit
    /// honoured by the backend itself); a count keeps its partial value.
    Limit,
    /// The run reached its time limit without an answer (stopped by the backend at the limit,
    /// or killed by the parent process after the limit and a grace period).
    Timeout,
    /// The run's process ran out of its memory limit.
    Memout,
    /// The run's process died (a signal, an abort) without a result.
    Crash,
    /// The backend refuses this model or task (too large for it, an ability it lacks); the
    /// reason says why.
    Unsupported,
    /// The backend failed, panicked, or returned an answer the verifier rejected.
    Error,
}

impl Status {
    /// Every status, in the order reports list them.
    pub const ALL: [Status; 9] = [
        Status::Solved,
        Status::Infeasible,
        Status::Unknown,
        Status::Limit,
        Status::Timeout,
        Status::Memout,
        Status::Crash,
        Status::Unsupported,
        Status::Error,
    ];

    /// The lower-case name used in JSON and reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
            Status::Limit => "limit",
            Status::Timeout => "timeout",
            Status::Memout => "memout",
            Status::Crash => "crash",
            Status::Unsupported => "unsupported",
            Status::Error => "error",
        }
    }

    /// Whether this is an answer (`solved` or `infeasible`): only these enter time ratios.
    pub fn is_answer(self) -> bool {
        matches!(self, Status::Solved | Status::Infeasible)
    }

    /// Whether PAR-2 charges this run twice the time limit (it ran out of a resource or died).
    pub fn is_par2_penalty(self) -> bool {
        matches!(
            self,
            Status::Limit | Status::Timeout | Status::Memout | Status::Crash
        )
    }

    /// Whether the run ended without running to an outcome, which makes `solve` and `count`
    /// exit with status 1: `error`, `crash`, `unsupported`.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Error | Status::Crash | Status::Unsupported)
    }
}

/// A verified solve result: what may be printed or counted.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Verified status.
    pub status: Status,
    /// The solution, present only when `status` is `Solved` (hence verified).
    pub solution: Option<Solution>,
    /// Whether the verifier accepted a solution.
    pub verified: bool,
    /// Why the status is not `solved` or `infeasible`.
    pub reason: Option<String>,
    /// The backend's statistics (time measured here when the backend left it zero).
    pub stats: Stats,
}

/// A verified count result.
#[derive(Debug, Clone, PartialEq)]
pub struct CountOutcome {
    /// `Solved` when the count is complete and every witness verified; `Limit` when it stopped
    /// at a limit (the partial count is kept); `Unsupported` or `Error` otherwise.
    pub status: Status,
    /// Solutions counted.
    pub count: u128,
    /// Whether the search finished rather than stopping at the limit.
    pub exhaustive: bool,
    /// Whether at least one witness was checked and all witnesses passed the verifier.
    pub verified: bool,
    /// Why the status is not `solved`.
    pub reason: Option<String>,
    /// The backend's statistics.
    pub stats: Stats,
}

/// The status of a backend that returned `e`: `unsupported` when it refuses the model (too
/// large for it), `error` otherwise.
fn status_of_error(e: &BackendError) -> Status {
    match e {
        BackendError::TooLarge { .. }
        | BackendError::Unsupported { .. }
        | BackendError::UnsupportedRows { .. } => Status::Unsupported,
        _ => Status::Error,
    }
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

/// Runs `backend`'s solver on `model` and verifies its answer. Errors and panics inside the
/// backend become [`Status::Error`] (a model too large for the backend: [`Status::Unsupported`]);
/// only a missing ability is returned as `Err`. Cost: the backend's solve plus one verifier
/// pass (linear in the model's nonzeros).
///
/// ```
/// use zeroone::backend::{make_backend, solve_verified, BackendOptions, Status};
/// use zeroone::puzzle::parse::{parse_str, Format};
///
/// let puzzles = parse_str("1.3.3.1.2.4.4.2.\n", Format::Sudoku, "inline").unwrap();
/// let model = puzzles[0].to_model("4x4").unwrap();
/// let mut backend = make_backend("bitset", &BackendOptions::default()).unwrap();
/// let outcome = solve_verified(backend.as_mut(), &model).unwrap();
/// assert_eq!(outcome.status, Status::Solved);
/// // Only a verified solution is ever handed back.
/// assert!(outcome.verified && outcome.solution.is_some());
/// ```
pub fn solve_verified(backend: &mut dyn Backend, model: &Model) -> Result<Outcome, BackendError> {
    let name = backend.name();
    let rows = backend.rows_supported(model);
    let solver = backend.solver().ok_or_else(|| BackendError::Unsupported {
        backend: name.into(),
        ability: "solve".into(),
    })?;
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        rows.map_err(|reason| BackendError::UnsupportedRows {
            backend: name.into(),
            reason,
        })?;
        solver.solve(model)
    }));
    let elapsed = start.elapsed().as_secs_f64();
    let error = |reason: String, stats: Stats| Outcome {
        status: Status::Error,
        solution: None,
        verified: false,
        reason: Some(reason),
        stats,
    };
    let stats_with_time = |mut stats: Stats| {
        if stats.seconds == 0.0 {
            stats.seconds = elapsed;
        }
        stats
    };
    Ok(match result {
        Err(p) => error(
            format!("backend '{name}' panicked: {}", panic_text(p)),
            stats_with_time(Stats::default()),
        ),
        Ok(Err(e)) => Outcome {
            status: status_of_error(&e),
            ..error(e.to_string(), stats_with_time(Stats::default()))
        },
        Ok(Ok(report)) => {
            let stats = stats_with_time(report.stats);
            match report.found {
                Found::Solution(s) => match Verifier::new(model).check(&s) {
                    Ok(()) => Outcome {
                        status: Status::Solved,
                        solution: Some(s),
                        verified: true,
                        reason: None,
                        stats,
                    },
                    Err(v) => error(format!("answer rejected by the verifier: {v}"), stats),
                },
                Found::Infeasible => Outcome {
                    status: Status::Infeasible,
                    solution: None,
                    verified: false,
                    reason: None,
                    stats,
                },
                Found::Unknown(reason) => Outcome {
                    status: Status::Unknown,
                    solution: None,
                    verified: false,
                    reason: Some(reason),
                    stats,
                },
            }
        }
    })
}

/// Runs `backend`'s counter on `model` and verifies every witness it returns (and that they are
/// distinct). A count that stopped at `limit` or at the backend's time limit is
/// [`Status::Limit`] with its partial count. Errors and panics become [`Status::Error`] (too
/// large for the backend: [`Status::Unsupported`]); only a missing ability is `Err`.
/// Cost: the backend's count plus one verifier pass per witness (at most [`WITNESS_LIMIT`]).
///
/// ```
/// use zeroone::backend::{count_verified, make_backend, BackendOptions};
/// use zeroone::puzzle::HexBoard;
///
/// // The seed's headline figure: 244 placements obey all three axes on the width-9 board.
/// let model = HexBoard::geometry(9).unwrap().to_model("hex-9");
/// let mut dp = make_backend("dp", &BackendOptions::default()).unwrap();
/// let counted = count_verified(dp.as_mut(), &model, None).unwrap();
/// assert_eq!((counted.count, counted.exhaustive), (244, true));
/// ```
pub fn count_verified(
    backend: &mut dyn Backend,
    model: &Model,
    limit: Option<u64>,
) -> Result<CountOutcome, BackendError> {
    let name = backend.name();
    let rows = backend.rows_supported(model);
    let counter = backend.counter().ok_or_else(|| BackendError::Unsupported {
        backend: name.into(),
        ability: "count".into(),
    })?;
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        rows.map_err(|reason| BackendError::UnsupportedRows {
            backend: name.into(),
            reason,
        })?;
        counter.count(model, limit)
    }));
    let elapsed = start.elapsed().as_secs_f64();
    let error = |reason: String, stats: Stats| CountOutcome {
        status: Status::Error,
        count: 0,
        exhaustive: false,
        verified: false,
        reason: Some(reason),
        stats,
    };
    let mut time = Stats {
        seconds: elapsed,
        ..Stats::default()
    };
    Ok(match result {
        Err(p) => error(
            format!("backend '{name}' panicked: {}", panic_text(p)),
            time,
        ),
        Ok(Err(e)) => CountOutcome {
            status: status_of_error(&e),
            ..error(e.to_string(), time)
        },
        Ok(Ok(report)) => {
            let mut stats = report.stats;
            if stats.seconds == 0.0 {
                stats.seconds = elapsed;
            }
            let verifier = Verifier::new(model);
            let mut seen = std::collections::HashSet::new();
            for w in &report.witnesses {
                if let Err(v) = verifier.check(w) {
                    return Ok(error(
                        format!("witness rejected by the verifier: {v}"),
                        stats,
                    ));
                }
                if !seen.insert(w) {
                    return Ok(error("the same solution was counted twice".into(), stats));
                }
            }
            if (report.witnesses.len() as u128) > report.count {
                return Ok(error(
                    format!(
                        "{} witnesses for a count of {}",
                        report.witnesses.len(),
                        report.count
                    ),
                    stats,
                ));
            }
            if let Some(l) = limit {
                if report.count > l as u128 {
                    return Ok(error(
                        format!("counted {} past the limit {l}", report.count),
                        stats,
                    ));
                }
            }
            time = stats;
            let (status, reason) = if report.exhaustive {
                (Status::Solved, None)
            } else {
                let why = match limit {
                    Some(l) if report.count >= l as u128 => format!("stopped at the limit of {l}"),
                    _ => "stopped before the count was complete (time limit)".to_string(),
                };
                (Status::Limit, Some(why))
            };
            CountOutcome {
                status,
                count: report.count,
                exhaustive: report.exhaustive,
                verified: !report.witnesses.is_empty(),
                reason,
                stats: time,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_declares_the_time_limit_ability_it_has() {
        for info in registry() {
            let mut backend = make_backend(info.name, &BackendOptions::default()).unwrap();
            assert_eq!(
                backend.time_limit().is_some(),
                info.uses_time_limit,
                "{}",
                info.name
            );
        }
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
        assert_eq!(time_limit_from_seconds(0.0), Some(Duration::ZERO));
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
    fn a_huge_limit_set_directly_on_a_backend_runs_without_overflowing_a_deadline() {
        let model = crate::puzzle::Sudoku::from_cells(2, vec![None; 16])
            .unwrap()
            .to_model("empty 4x4")
            .unwrap();
        for name in ["bitset", "enum", "milp"] {
            let mut b = make_backend(name, &BackendOptions::default()).unwrap();
            b.time_limit().unwrap().set_time_limit(Some(Duration::MAX));
            let out = solve_verified(b.as_mut(), &model).unwrap();
            assert_eq!(out.status, Status::Solved, "{name}: {:?}", out.reason);
        }
    }
}
