//! Solving, counting and streaming solutions from Python, through the library's verified
//! runners ([`solve_verified`], [`count_verified`], [`solutions_verified`]), with the GIL
//! released while a backend runs.
//!
//! Ctrl-C: every built-in backend checks a stop flag ([`CHECKED_BY`]; see
//! [`zeroone::backend::stop`] for how each does), so a run goes on the calling thread, with the
//! SIGINT handler of [`crate::sigint`] installed: on Ctrl-C it stops at its next check (within
//! milliseconds; `milp` within one 100 ms engine slice) and `KeyboardInterrupt` is raised. A
//! backend without a check (`highs`, when built in) runs on a thread of its own while the
//! calling thread checks for signals every 50 ms: on Ctrl-C the call raises
//! `KeyboardInterrupt` at once, and the run finishes on its own in the background. Solution
//! streams always have a thread.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use zeroone::backend::stop::{with_stop_flag, StopFlag, CHECKED_BY};
use zeroone::backend::{
    count_verified, make_backend, registry, solutions_verified, solve_verified,
    time_limit_from_seconds, Backend, BackendOptions, Count, Outcome, Status, MAX_TIME_LIMIT,
};
use zeroone::model::{Model, Solution};

use crate::convert::{option_error, stats_to_py, BackendError, OptionError, Whole};
use crate::model::PyModel;
use crate::proved::{run_proved, ProofRequest};
use std::path::PathBuf;
use zeroone::backend::proof::{ProofTask, ProvedAnswer};

/// How often the waiting thread checks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);
/// How long it waits for a stopped run to end before returning anyway.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Checks the options for backend `name`, refusing (as the CLI does) a seed it does not read
/// and a time limit it cannot enforce in this process.
fn options(
    name: &str,
    time_limit: Option<f64>,
    seed: Option<Whole>,
    params: BTreeMap<String, String>,
) -> PyResult<BackendOptions> {
    let seed = seed.map(|s| s.unsigned("seed")).transpose()?;
    let time_limit = match time_limit {
        None => None,
        Some(t) => Some(time_limit_from_seconds(t).ok_or_else(|| {
            OptionError::new_err(format!(
                "time_limit = {t}: expected a number of seconds above 0 and at most {}",
                MAX_TIME_LIMIT.as_secs()
            ))
        })?),
    };
    // The registry is read only when there is something to check against it.
    let info = (seed.is_some() || time_limit.is_some())
        .then(|| registry().into_iter().find(|b| b.name == name))
        .flatten();
    if let Some(info) = info {
        if seed.is_some() && !info.uses_seed {
            return Err(OptionError::new_err(format!(
                "backend '{name}' does not take option 'seed' (it takes: {})",
                info.accepted()
            )));
        }
        if time_limit.is_some() && !info.uses_time_limit {
            return Err(OptionError::new_err(format!(
                "backend '{name}' cannot stop itself, so time_limit would not be enforced in this process (backends that take it: {}; zeroone.run() runs any backend under a time limit in worker processes)",
                registry()
                    .iter()
                    .filter(|b| b.uses_time_limit)
                    .map(|b| b.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(BackendOptions {
        time_limit,
        seed: seed.unwrap_or(0),
        params,
    })
}

/// A backend with the options it was made with.
type Cached = (String, BackendOptions, Box<dyn Backend>);

thread_local! {
    /// The last backend this thread used, kept for the next call with the same options: a
    /// backend keeps what it learnt about a model's shape (the search backends' layouts), so
    /// a loop over the puzzles of a file does not rebuild it for every puzzle.
    static LAST: RefCell<Option<Cached>> = const { RefCell::new(None) };
}

/// The backend `name` with `options`: this thread's last one when they match, else a new one.
fn take_backend(name: &str, options: &BackendOptions) -> PyResult<Box<dyn Backend>> {
    if let Some((n, o, b)) = LAST.with(|l| l.borrow_mut().take()) {
        if n == name && o == *options {
            return Ok(b);
        }
    }
    make_backend(name, options).map_err(|e| option_error(&e))
}

/// Keeps `backend` for the next call with the same options.
fn keep_backend(name: &str, options: BackendOptions, backend: Box<dyn Backend>) {
    LAST.with(|l| *l.borrow_mut() = Some((name.to_string(), options, backend)));
}

/// Runs `work` for `backend`: in place when the backend checks a stop flag, else on a thread
/// of its own (see the module docs).
fn run<R: Send + 'static>(
    py: Python<'_>,
    backend: &str,
    work: impl FnOnce() -> R + Send + 'static,
) -> PyResult<R> {
    if !CHECKED_BY.contains(&backend) {
        return interruptible(py, work);
    }
    let flag = StopFlag::new();
    let result = {
        let _sigint = crate::sigint::guard();
        // A Ctrl-C that came before the guard reached Python's handler alone: raise it now, or
        // the run below (which checks only its flag) would go on to its end. One that comes
        // from here on raises the flag.
        py.check_signals()?;
        py.allow_threads(|| with_stop_flag(&flag, work))
    };
    if flag.is_raised() {
        // Python's own handler saw the signal too: this raises KeyboardInterrupt (or whatever
        // the user's handler does) on the main thread; elsewhere, raise it here.
        py.check_signals()?;
        return Err(PyKeyboardInterrupt::new_err(
            "the run was stopped by Ctrl-C",
        ));
    }
    Ok(result)
}

/// Runs `work` on a thread of its own under a fresh stop flag, waiting for it with the GIL
/// released and raising `KeyboardInterrupt` (after raising the flag) on Ctrl-C.
fn interruptible<R: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> R + Send + 'static,
) -> PyResult<R> {
    let flag = StopFlag::new();
    let (send, done) = mpsc::sync_channel(1);
    let run_flag = flag.clone();
    std::thread::Builder::new()
        .name("zeroone-run".into())
        .spawn(move || {
            let _ = send.send(with_stop_flag(&run_flag, work));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a run thread: {e}")))?;
    wait(py, &Mutex::new(done), &flag)
}

/// Waits for the next message of `done`, checking for signals; on one, raises `flag`.
fn wait<R: Send>(py: Python<'_>, done: &Mutex<Receiver<R>>, flag: &StopFlag) -> PyResult<R> {
    let recv = |timeout| match done.lock() {
        Ok(d) => d.recv_timeout(timeout),
        Err(_) => Err(RecvTimeoutError::Disconnected),
    };
    loop {
        match py.allow_threads(|| recv(POLL)) {
            Ok(r) => return Ok(r),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    flag.raise();
                    let _ = py.allow_threads(|| recv(STOP_GRACE));
                    return Err(interrupt);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the run's thread ended without a result",
                ))
            }
        }
    }
}

/// The labels of the variables set to 1, and their ids.
fn ones(model: &Model, solution: &Solution) -> (Vec<String>, Vec<usize>) {
    let ids: Vec<usize> = solution.ones.clone();
    let labels = ids.iter().map(|&v| model.label(v).into_owned()).collect();
    (labels, ids)
}

/// `solve(model, backend, time_limit, seed, params, certify, proof)`: one verified outcome;
/// with `certify` or `proof`, the run with the backend's proof log (see [`crate::proved`]).
#[pyfunction]
#[pyo3(signature = (model, backend="auto", time_limit=None, seed=None, params=BTreeMap::new(), certify=false, proof=None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    model: &PyModel,
    backend: &str,
    time_limit: Option<f64>,
    seed: Option<Whole>,
    params: BTreeMap<String, String>,
    certify: bool,
    proof: Option<PathBuf>,
) -> PyResult<SolveResult> {
    let (variables, nonzeros) = model.size();
    crate::memory::ensure_run(variables, nonzeros, "solving")?;
    let model = model.model()?;
    let options = self::options(backend, time_limit, seed, params)?;
    let mut b = take_backend(backend, &options)?;
    let name = b.name();
    // The engine that runs the model, as the CLI names it (`auto` names the one it picks).
    let engine = b.serving(&model);
    let request = ProofRequest {
        certify,
        dir: proof,
    };
    if request.wanted() {
        if let Some(why) = request.refusal(b.as_mut()) {
            return Err(OptionError::new_err(why));
        }
    }
    let (b, model, outcome) = run(py, name, move || {
        let outcome = match request.wanted() {
            false => solve_verified(b.as_mut(), &model)
                .map(|o| (o, "none"))
                .map_err(|e| e.to_string()),
            true => {
                let task = match model.objective() {
                    Some(_) => ProofTask::Optimize,
                    None => ProofTask::Solve,
                };
                run_proved(b.as_mut(), &model, task, &request).and_then(|p| match p.answer {
                    ProvedAnswer::Solve(o) => Ok((o, p.certificate)),
                    ProvedAnswer::Count(_) => Err("a solve answered with a count".into()),
                })
            }
        };
        (b, model, outcome)
    })?;
    keep_backend(backend, options, b);
    let (outcome, certificate) = outcome.map_err(OptionError::new_err)?;
    Ok(SolveResult {
        backend: engine,
        outcome,
        model,
        certificate,
    })
}

/// One verified solve (`zeroone.Result`): its fields are made into Python values when read.
#[pyclass(module = "zeroone", name = "Result")]
pub struct SolveResult {
    backend: &'static str,
    outcome: Outcome,
    model: Model,
    certificate: &'static str,
}

impl SolveResult {
    /// The solution, present only when the verifier accepted it (`solved`, `optimal`,
    /// `feasible`).
    fn solution(&self) -> Option<&Solution> {
        self.outcome
            .solution
            .as_ref()
            .filter(|_| self.outcome.verified)
    }
}

#[pymethods]
impl SolveResult {
    /// `solved`, `infeasible`, `unknown`, `timeout`, `unsupported` or `error`.
    #[getter]
    fn status(&self) -> &'static str {
        self.outcome.status.name()
    }

    /// The labels of the variables set to 1, or None without a solution.
    #[getter(solution)]
    fn solution_labels(&self) -> Option<Vec<String>> {
        self.solution().map(|s| ones(&self.model, s).0)
    }

    /// The solution as a numpy int8 array of 0 and 1 over the variables (in
    /// `Model.variable_labels()` order), or None.
    #[getter]
    fn vector<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(s) = self.solution() else {
            return Ok(None);
        };
        let values = s.to_bools(self.model.num_variables());
        let bytes: Vec<i8> = values.into_iter().map(i8::from).collect();
        let numpy = py.import("numpy")?;
        Ok(Some(numpy.getattr("array")?.call1((bytes, "int8"))?))
    }

    /// The objective value of the solution (an exact int), or None without an objective.
    #[getter]
    fn objective(&self) -> Option<i128> {
        self.outcome.objective
    }

    /// The best bound proved on the objective (equal to it when optimal), or None.
    #[getter]
    fn bound(&self) -> Option<i128> {
        self.outcome.bound
    }

    /// Whether the verifier accepted the solution.
    #[getter]
    fn verified(&self) -> bool {
        self.outcome.verified
    }

    /// Why the status is not `solved` or `infeasible`.
    #[getter]
    fn reason(&self) -> Option<&str> {
        self.outcome.reason.as_deref()
    }

    /// The backend's counters (`seconds`, `nodes`, ... and its own figures).
    #[getter]
    fn stats(&self, py: Python<'_>) -> PyResult<PyObject> {
        stats_to_py(py, &self.outcome.stats)
    }

    /// The backend's time, seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.outcome.stats.seconds
    }

    /// `checked` (with `certify=True`: the checker verified the proof of this answer),
    /// `rejected` (it did not: the status is `error`) or `none` (not asked, or the run stopped
    /// without an answer).
    #[getter]
    fn certificate(&self) -> &'static str {
        self.certificate
    }

    /// The engine that ran, as the CLI names it: the backend's registry name, or for `auto`
    /// the backend it picked (`xcc`, `bitset`).
    #[getter]
    fn backend(&self) -> &'static str {
        self.backend
    }

    fn __repr__(&self) -> String {
        format!(
            "Result(status='{}', backend='{}', verified={}, seconds={:.3e})",
            self.status(),
            self.backend,
            if self.outcome.verified {
                "True"
            } else {
                "False"
            },
            self.outcome.stats.seconds
        )
    }
}

/// `count(model, backend, limit, time_limit, seed, params, certify, proof)`: a verified count,
/// as a dict with the count as an exact int; with `certify` or `proof`, the run with the
/// backend's proof log (see [`crate::proved`]).
#[pyfunction]
#[pyo3(signature = (model, backend="auto", limit=None, time_limit=None, seed=None, params=BTreeMap::new(), certify=false, proof=None))]
#[allow(clippy::too_many_arguments)]
pub fn count(
    py: Python<'_>,
    model: &PyModel,
    backend: &str,
    limit: Option<Whole>,
    time_limit: Option<f64>,
    seed: Option<Whole>,
    params: BTreeMap<String, String>,
    certify: bool,
    proof: Option<PathBuf>,
) -> PyResult<PyObject> {
    let limit = limit.map(|l| l.unsigned("limit")).transpose()?;
    let (variables, nonzeros) = model.size();
    crate::memory::ensure_run(variables, nonzeros, "counting")?;
    let model = model.model()?;
    let options = self::options(backend, time_limit, seed, params)?;
    let mut b = take_backend(backend, &options)?;
    let name = b.name();
    let engine = b.serving(&model);
    let request = ProofRequest {
        certify,
        dir: proof,
    };
    if request.wanted() {
        if let Some(why) = request.refusal(b.as_mut()) {
            return Err(OptionError::new_err(why));
        }
    }
    let (b, outcome) = run(py, name, move || {
        let outcome = match request.wanted() {
            false => count_verified(b.as_mut(), &model, limit)
                .map(|o| (o, "none"))
                .map_err(|e| e.to_string()),
            true => {
                let task = limit.map_or(ProofTask::Count, ProofTask::CountUpTo);
                run_proved(b.as_mut(), &model, task, &request).and_then(|p| match p.answer {
                    ProvedAnswer::Count(o) => Ok((o, p.certificate)),
                    ProvedAnswer::Solve(_) => Err("a count answered with a solve".into()),
                })
            }
        };
        (b, outcome)
    })?;
    keep_backend(backend, options, b);
    let (outcome, certificate) = outcome.map_err(OptionError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("certificate", certificate)?;
    d.set_item("backend", engine)?;
    d.set_item("status", outcome.status.name())?;
    let counted = matches!(outcome.status, Status::Solved | Status::Limit);
    let count = match counted.then(|| exact_int(py, &outcome.count)) {
        Some(c) => Some(c?),
        None => None,
    };
    d.set_item("count", count)?;
    d.set_item("exhaustive", outcome.exhaustive)?;
    d.set_item("verified", outcome.verified)?;
    d.set_item("reason", outcome.reason.as_deref())?;
    d.set_item("seconds", outcome.stats.seconds)?;
    d.set_item("stats", stats_to_py(py, &outcome.stats)?)?;
    Ok(d.into_any().unbind())
}

/// `count` as a Python int, exact at any size (`int` of its decimal digits past 2^128).
fn exact_int<'py>(py: Python<'py>, count: &Count) -> PyResult<Bound<'py, PyAny>> {
    match count.to_u128() {
        Some(n) => Ok(n.into_pyobject(py)?.into_any()),
        None => py
            .import("builtins")?
            .getattr("int")?
            .call1((count.to_string(),)),
    }
}

/// What the streaming thread hands over.
enum Message {
    /// One verified solution: labels and ids of its ones.
    Solution(Vec<String>, Vec<usize>),
    /// The end: how the stream ended, or why it could not start.
    End(Result<(Status, Option<String>), String>),
}

/// Verified solutions handed over one at a time by a thread that streams them (the iterator
/// behind `zeroone.solutions`). Dropping it stops the stream.
#[pyclass(module = "zeroone._zeroone")]
pub struct SolutionIter {
    received: Mutex<Receiver<Message>>,
    /// Set once the stream ended (or was interrupted): the iterator is exhausted.
    finished: AtomicBool,
    flag: StopFlag,
}

impl Drop for SolutionIter {
    fn drop(&mut self) {
        self.flag.raise();
    }
}

#[pymethods]
impl SolutionIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next solution as `(labels, ids)`; the end of the stream raises StopIteration, a
    /// rejected solution `BackendError`.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<(Vec<String>, Vec<usize>)>> {
        if self.finished.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let message = wait(py, &self.received, &self.flag);
        if !matches!(message, Ok(Message::Solution(..))) {
            self.finished.store(true, Ordering::Relaxed);
        }
        match message? {
            Message::Solution(labels, ids) => Ok(Some((labels, ids))),
            Message::End(Ok((Status::Error, reason))) => Err(BackendError::new_err(
                reason.unwrap_or_else(|| "the stream failed".into()),
            )),
            Message::End(Ok(_)) => Ok(None),
            Message::End(Err(e)) => Err(OptionError::new_err(e)),
        }
    }

    /// Stops the stream (also done when the iterator is dropped).
    fn close(&self) {
        self.flag.raise();
    }
}

/// `solutions(model, backend, limit, time_limit, seed, params)`: every verified solution, one
/// at a time, from a backend that can stream them.
#[pyfunction]
#[pyo3(signature = (model, backend="auto", limit=None, time_limit=None, seed=None, params=BTreeMap::new()))]
pub fn solutions(
    model: &PyModel,
    backend: &str,
    limit: Option<Whole>,
    time_limit: Option<f64>,
    seed: Option<Whole>,
    params: BTreeMap<String, String>,
) -> PyResult<SolutionIter> {
    let limit = limit.map(|l| l.unsigned("limit")).transpose()?;
    let (variables, nonzeros) = model.size();
    crate::memory::ensure_run(variables, nonzeros, "listing the solutions of")?;
    let model = model.model()?;
    let options = self::options(backend, time_limit, seed, params)?;
    let mut b = make_backend(backend, &options).map_err(|e| option_error(&e))?;
    if b.streamer().is_none() {
        let streaming: Vec<&str> = registry()
            .iter()
            .filter(|i| {
                (i.make)(&BackendOptions::default()).is_ok_and(|mut x| x.streamer().is_some())
            })
            .map(|i| i.name)
            .collect();
        return Err(OptionError::new_err(format!(
            "backend '{}' cannot hand over every solution (these can: {})",
            b.name(),
            streaming.join(", ")
        )));
    }
    // A few solutions ahead of the reader at most.
    let (send, received) = mpsc::sync_channel(16);
    let flag = StopFlag::new();
    let run_flag = flag.clone();
    std::thread::Builder::new()
        .name("zeroone-solutions".into())
        .spawn(move || {
            let end = with_stop_flag(&run_flag, || {
                solutions_verified(b.as_mut(), &model, limit, &mut |s: &Solution| {
                    let (labels, ids) = ones(&model, s);
                    if send.send(Message::Solution(labels, ids)).is_err() {
                        // Nobody reads any more: stop the search at its next check.
                        run_flag.raise();
                    }
                })
            });
            let end = end.map(|o| (o.status, o.reason)).map_err(|e| e.to_string());
            let _ = send.send(Message::End(end));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a run thread: {e}")))?;
    Ok(SolutionIter {
        received: Mutex::new(received),
        finished: AtomicBool::new(false),
        flag,
    })
}
