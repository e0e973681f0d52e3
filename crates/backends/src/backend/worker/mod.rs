//! Isolated runs: each job runs in a worker process, under hard limits, and is measured.
//!
//! A worker is the `zeroone` binary started as `zeroone worker` (a hidden subcommand). It reads
//! one [`Job`] per line (JSON) on standard input, runs it through the shared verified runner
//! ([`solve_verified`] / [`count_verified`]), and writes one [`RunResult`] per line on standard
//! output. It keeps the last model it was sent, so the jobs of one instance send the model once.
//! A job may instead name where the model comes from (`source`): the worker builds it itself
//! ([`serve_with`], [`WorkerPool::run_built`]; see `built.rs`), so a parent running models under
//! a memory limit never holds them, and learns their size from the results ([`ModelFacts`]).
//!
//! The parent ([`Worker`], [`WorkerPool`]) enforces what the worker cannot promise:
//!
//! - **time**: with a time limit `T` the parent waits `T` plus a grace of 1 s + `T`/10 for the
//!   result, then kills the worker (SIGKILL): the run is `timeout`, whether or not the backend
//!   can stop itself. A backend that honours the limit stops at `T` (`limit_by = backend`);
//!   one that cannot is stopped by the parent (`limit_by = parent`).
//! - **memory**: `RLIMIT_AS` (address space, in MB) is set in the worker before it starts; an
//!   allocation past it aborts the worker with "memory allocation of N bytes failed", which the
//!   parent reads on the worker's standard error: the run is `memout`.
//! - **faults**: a worker that dies (signal, abort) is reaped, the run is `crash`, and the next
//!   job gets a new worker; nothing else is lost.
//!
//! Every result carries `wall_seconds` (the parent's clock, from sending the job to reading the
//! result, transport included), `cpu_seconds` (user + system time of the worker during the
//! job, from `getrusage`) and `peak_rss_mb` (the worker's peak resident set during the job:
//! `/proc/self/clear_refs` resets it before each job where Linux allows, else the worker's
//! lifetime peak). For a killed worker they come from `wait4`'s resource usage, whose peak
//! counts the parent's resident set at fork (before exec): it is capped at the memory limit
//! when one is set, and may overstate the worker's own peak when none is.
//!
//! - **stop requests**: a pool given a [`StopFlag`] ([`WorkerPool::with_stop`]) checks it every
//!   [`STOP_POLL`] while a job runs and kills the worker once it is raised (the caller, who
//!   raised it, drops that run's result; the Python package's `run()` does on Ctrl-C).
//!
//! Cost per job: one JSON line each way (the model on the first job of an instance), about a
//! few tens of microseconds for small models; one process start per worker, not per job.

use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::backend::stop::StopFlag;

use crate::backend::memory;
use crate::backend::proof::{prove_verified, ProofTask, ProvedAnswer};
use crate::backend::{
    count_verified, solve_verified, stops_itself, BackendOptions, Registry, Stats, Status,
};
use crate::model::{Model, Solution};

mod built;
mod limits;
mod stderr;

pub use built::{original_size, BuildModel, BuiltModel, ModelFacts, Unbuilt, UnbuiltKind};
pub use limits::check_memory_limit;
use limits::limit_address_space;
pub use stderr::STDERR_TAIL_BYTES;
use stderr::{keep_log, StderrLog, JOB_END, JOB_END_WAIT};

/// What one job asks a backend for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobTask {
    /// One verified solution.
    Solve,
    /// A verified count, stopped after `limit` solutions when given.
    Count {
        /// The count limit (`--limit`, `count_limit`).
        limit: Option<u64>,
    },
    /// Build the model (from the job's `source`, when the worker holds none under its key) and
    /// describe it ([`RunResult::built`]); no backend runs. The parent learns the model's size,
    /// or why it does not build, before any backend runs on it.
    Build,
}

/// One job for a worker: a backend, its options, a task and a model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    /// Registry name of the backend.
    pub backend: String,
    /// Its options (the time limit among them).
    pub options: BackendOptions,
    /// Solve or count.
    pub task: JobTask,
    /// A name for the model; a job without `model` reuses the worker's last model, which must
    /// have this key.
    pub model_key: String,
    /// The model, or `None` to reuse the worker's last one (or build it from `source`).
    pub model: Option<Model>,
    /// Where the worker builds the model itself when it holds none under `model_key` and
    /// `model` is `None`: a description its builder reads ([`serve_with`]; the harness's names a
    /// file and the puzzle's index in it, or a generated board), so the parent never builds
    /// the model. Results of such a job carry [`RunResult::built`] or [`RunResult::unbuilt`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<serde_json::Value>,
    /// Log a proof of the answer: the worker writes `STEM.opb` and `STEM.pbp` (`STEM` this
    /// path, its file name safe as [`crate::backend::proof::safe_file_name`] leaves it, its
    /// folder existing) when the backend logs proofs of this model and task; otherwise it runs
    /// the job without one (the result's `claim` says which). The caller checks the proof.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<PathBuf>,
}

/// A [`Job`] as the parent writes it: borrowed, so the model is not copied to be sent.
#[derive(Serialize)]
struct JobRef<'a> {
    backend: &'a str,
    options: &'a BackendOptions,
    task: JobTask,
    model_key: &'a str,
    model: Option<&'a Model>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<&'a Path>,
}

/// Who enforced a run's time limit: the backend when it stopped itself, the parent whenever it
/// had to kill the worker (a backend that cannot stop itself, or one that should have but did
/// not: stopped, hung or too slow to notice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitBy {
    /// The backend stopped itself at the limit (its registry entry declares `uses_time_limit`).
    Backend,
    /// The parent killed the worker after the limit and grace (the backend cannot stop itself,
    /// or did not).
    Parent,
}

/// The result of one job: the verified outcome and what the run cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Verified status.
    pub status: Status,
    /// Whether the verifier accepted the answer (a solution, or every count witness).
    pub verified: bool,
    /// Why the status is not an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The verified solution of a solve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Solution>,
    /// Solutions counted (decimal, exact) for a count that produced one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// Whether the count is complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaustive: Option<bool>,
    /// A model with an objective: the verified value of the solution (exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<i128>,
    /// A model with an objective: the bound the backend proved, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i128>,
    /// The backend's statistics (`seconds`: its own clock).
    pub stats: Stats,
    /// Wall-clock seconds seen by the parent.
    pub wall_seconds: f64,
    /// CPU seconds (user + system) of the worker during the job.
    pub cpu_seconds: f64,
    /// Peak resident set of the worker during the job, in MB.
    pub peak_rss_mb: f64,
    /// Who enforces the time limit, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_by: Option<LimitBy>,
    /// A job with `proof`: what the proof it wrote claims
    /// ([`crate::backend::proof::Claim::text`]); `None` when the
    /// backend logs no proof of this model and task and the job ran without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
    /// The last [`STDERR_TAIL_BYTES`] bytes the worker wrote on standard error during the job,
    /// kept by the parent when the run ended in `crash`, `memout`, `error` or a `timeout` by
    /// kill (empty otherwise, and for a run in this process): what a person reads to see how
    /// it failed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// A job with a `source`: what the model the worker built (or held) is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built: Option<ModelFacts>,
    /// A job with a `source` the worker made no model of: why (the status is then `memout`
    /// for a model past the memory limit it was read under, else `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unbuilt: Option<Unbuilt>,
}

impl RunResult {
    /// The result of a verified solve (or optimisation), before the parent's measurements.
    fn of_outcome(o: crate::backend::Outcome) -> RunResult {
        RunResult {
            status: o.status,
            verified: o.verified,
            reason: o.reason,
            solution: o.solution,
            objective: o.objective,
            bound: o.bound,
            stats: o.stats,
            ..RunResult::failed(Status::Error, String::new())
        }
    }

    /// The result of a verified count: the count is kept when complete or stopped at a limit.
    fn of_count(o: crate::backend::CountOutcome) -> RunResult {
        let counted = matches!(o.status, Status::Solved | Status::Limit);
        RunResult {
            status: o.status,
            verified: o.verified,
            reason: o.reason,
            count: counted.then(|| o.count.to_string()),
            exhaustive: counted.then_some(o.exhaustive),
            stats: o.stats,
            ..RunResult::failed(Status::Error, String::new())
        }
    }

    fn failed(status: Status, reason: String) -> RunResult {
        RunResult {
            status,
            verified: false,
            reason: Some(reason),
            solution: None,
            count: None,
            exhaustive: None,
            objective: None,
            bound: None,
            stats: Stats::default(),
            wall_seconds: 0.0,
            cpu_seconds: 0.0,
            peak_rss_mb: 0.0,
            limit_by: None,
            claim: None,
            stderr: String::new(),
            built: None,
            unbuilt: None,
        }
    }

    /// The result of a job whose source made no model.
    fn of_unbuilt(unbuilt: Unbuilt) -> RunResult {
        let status = match unbuilt.kind {
            UnbuiltKind::PastMemoryLimit => Status::Memout,
            UnbuiltKind::Unreadable | UnbuiltKind::NoModel => Status::Error,
        };
        RunResult {
            unbuilt: Some(unbuilt.clone()),
            ..RunResult::failed(status, unbuilt.message)
        }
    }
}

/// The hard limits of the workers of one pool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Address-space limit of each worker, in MB (`RLIMIT_AS`).
    pub memory_mb: Option<u64>,
}

/// The grace the parent gives a worker past a time limit `t` before killing it: 1 s + t/10.
pub fn grace(t: Duration) -> Duration {
    Duration::from_secs(1) + t / 10
}

// ---------------------------------------------------------------------------------------
// The worker side.

/// CPU seconds (user + system) and the peak resident set (MB) of this process so far.
fn own_usage() -> (f64, f64) {
    // SAFETY: getrusage writes into the zeroed struct we own.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    (cpu_of(&ru), ru.ru_maxrss as f64 / 1024.0)
}

fn cpu_of(ru: &libc::rusage) -> f64 {
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

/// The peak resident set since the last reset ([`memory::reset_peak_rss`]) in MB, if `/proc`
/// has it.
fn peak_rss_since_reset() -> Option<f64> {
    memory::peak_rss().map(|bytes| bytes as f64 / (1u64 << 20) as f64)
}

/// Runs one job in this process with a backend of `registry`: the worker's body, also what
/// [`run_in_process`] does.
fn execute(registry: &Registry, job: &Job, model: &Model) -> RunResult {
    if job.task == JobTask::Build {
        return RunResult::failed(
            Status::Unknown,
            "the model was built; no backend ran".into(),
        );
    }
    let mut backend = match registry.make(&job.backend, &job.options) {
        Ok(b) => b,
        Err(e) => return RunResult::failed(Status::Error, e.to_string()),
    };
    let limit_by = job.options.time_limit.map(|_| {
        if registry.stops_itself(&job.backend) {
            LimitBy::Backend
        } else {
            LimitBy::Parent
        }
    });
    let proved =
        (job.proof.as_deref()).and_then(|stem| execute_proved(backend.as_mut(), job, model, stem));
    let mut result = match (proved, job.task) {
        (Some(result), _) => result,
        (None, JobTask::Solve) => match solve_verified(backend.as_mut(), model) {
            Ok(o) => RunResult::of_outcome(o),
            Err(e) => RunResult::failed(Status::Unsupported, e.to_string()),
        },
        (None, JobTask::Count { limit }) => match count_verified(backend.as_mut(), model, limit) {
            Ok(o) => RunResult::of_count(o),
            Err(e) => RunResult::failed(Status::Unsupported, e.to_string()),
        },
        (None, JobTask::Build) => unreachable!("a build job returned above"),
    };
    result.limit_by = limit_by;
    result
}

/// A job with a proof (`stem`): the run with the backend's proof log, verified
/// ([`prove_verified`]), as a result carrying the proof's claim; `None` when the backend logs
/// no proof of this model and task, so the job runs without one.
fn execute_proved(
    backend: &mut dyn crate::backend::Backend,
    job: &Job,
    model: &Model,
    stem: &Path,
) -> Option<RunResult> {
    let task = match job.task {
        JobTask::Solve if model.objective().is_some() => ProofTask::Optimize,
        JobTask::Solve => ProofTask::Solve,
        JobTask::Count { limit: None } => ProofTask::Count,
        JobTask::Count { limit: Some(n) } => ProofTask::CountUpTo(n),
        JobTask::Build => return None,
    };
    let dir = stem.parent().filter(|d| !d.as_os_str().is_empty())?;
    let name = stem.file_name()?.to_string_lossy();
    let proved = prove_verified(backend, model, task, dir, &name).ok()?;
    let mut result = match proved.answer {
        ProvedAnswer::Solve(o) => RunResult::of_outcome(o),
        ProvedAnswer::Count(o) => RunResult::of_count(o),
    };
    result.claim = Some(proved.claim.text());
    Some(result)
}

/// Runs `job` in this process, measuring its CPU time and (where the kernel allows) its peak
/// resident set like a worker does; no limit is enforced beyond what the backend honours.
pub fn run_in_process(job: &Job, model: &Model) -> RunResult {
    run_in_process_with(&Registry::builtin(), job, model)
}

/// [`run_in_process`] with a backend of `registry`: how a program runs a backend it added to
/// the registry itself (a `zeroone worker` process knows only the built-in ones).
pub fn run_in_process_with(registry: &Registry, job: &Job, model: &Model) -> RunResult {
    memory::return_free_memory();
    let reset = memory::reset_peak_rss();
    let (cpu0, _) = own_usage();
    let start = Instant::now();
    let mut result = execute(registry, job, model);
    result.wall_seconds = start.elapsed().as_secs_f64();
    let (cpu1, lifetime_peak) = own_usage();
    result.cpu_seconds = cpu1 - cpu0;
    result.peak_rss_mb = if reset {
        peak_rss_since_reset().unwrap_or(lifetime_peak)
    } else {
        lifetime_peak
    };
    result
}

/// The worker's main loop (`zeroone worker`): one [`Job`] per line in, one [`RunResult`] per
/// line out, until standard input closes. A line that is not a job gets an `error` result; a
/// job naming a `source` gets one too (this loop builds no models: see [`serve_with`]).
pub fn serve(input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_with(input, output, &mut |_| {
        Err(Unbuilt {
            kind: UnbuiltKind::Unreadable,
            message: "worker: this worker builds no model from a source".into(),
        })
    })
}

/// The model a worker holds between jobs: its key, the model and its puzzle's size (`None`
/// for a model sent whole).
type Held = Option<(String, Model, Option<usize>)>;

/// [`serve`] with `build` making the model of a job that names a `source` (and holds no model
/// under its key): the model is built here, under this process's limits, never by the parent.
/// The jobs of one key reuse the model; building another drops the one held first. Cost per
/// build: `build`'s, plus [`ModelFacts::of`] per job with a source.
pub fn serve_with(
    input: impl BufRead,
    mut output: impl Write,
    build: &mut BuildModel<'_>,
) -> io::Result<()> {
    let mut held: Held = None;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let result = match serde_json::from_str::<Job>(&line) {
            Err(e) => RunResult::failed(Status::Error, format!("worker: not a job: {e}")),
            Ok(job) => serve_job(job, &mut held, build),
        };
        if result.status == Status::Error {
            // The parent keeps what this job said on stderr up to here (a panic's message).
            let _ = writeln!(io::stderr(), "{JOB_END}");
        }
        let text = serde_json::to_string(&result).map_err(io::Error::other)?;
        writeln!(output, "{text}")?;
        output.flush()?;
    }
    Ok(())
}

/// One job of [`serve_with`]: the model sent, held, or built from the job's source, then the run.
fn serve_job(mut job: Job, held: &mut Held, build: &mut BuildModel<'_>) -> RunResult {
    if let Some(model) = job.model.take() {
        *held = Some((job.model_key.clone(), model, None));
    }
    let holds = |held: &Held| matches!(held, Some((key, ..)) if *key == job.model_key);
    if let (false, Some(source)) = (holds(held), &job.source) {
        // The model held is dropped before the next is built.
        *held = None;
        match build(source) {
            Ok(b) => *held = Some((job.model_key.clone(), b.model, b.size)),
            Err(unbuilt) => return RunResult::of_unbuilt(unbuilt),
        }
    }
    match held {
        Some((key, model, size)) if *key == job.model_key => {
            let mut result = run_in_process(&job, model);
            if job.source.is_some() {
                result.built = Some(ModelFacts::of(model, *size));
            }
            result
        }
        _ => RunResult::failed(
            Status::Error,
            format!("worker: no model '{}' was sent", job.model_key),
        ),
    }
}

// ---------------------------------------------------------------------------------------
// The parent side.

/// How a worker left: its wait status and resource usage.
struct Exit {
    /// The signal that ended it, if any.
    signal: Option<i32>,
    /// Its exit code, if it exited.
    code: Option<i32>,
    /// CPU seconds over its whole life.
    cpu_seconds: f64,
    /// Peak resident set over its whole life, MB.
    peak_rss_mb: f64,
}

/// One worker process and the pipes to it.
pub struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    results: Receiver<String>,
    stderr_log: Arc<Mutex<StderrLog>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    model_key: Option<String>,
    /// CPU seconds the worker had used when it last answered (to charge a killed job only its
    /// own share).
    cpu_so_far: f64,
    limits: Limits,
    reaped: bool,
    /// Checked while a job runs: once raised, the worker is killed (see the module docs).
    stop: Option<StopFlag>,
}

/// How often a worker's parent looks at its stop flag while a job runs.
pub const STOP_POLL: Duration = Duration::from_millis(50);

impl Worker {
    /// Starts `exe worker` with `limits` (the address-space limit is set in the child before
    /// it runs). On Linux the worker is killed when the thread that started it ends
    /// (`PR_SET_PDEATHSIG`), so a worker never outlives its run: start workers from threads that
    /// live as long as the jobs they serve. Cost: one process start (a few milliseconds).
    pub fn spawn(exe: &Path, limits: Limits) -> io::Result<Worker> {
        let mut command = Command::new(exe);
        command
            .arg("worker")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let memory = limits.memory_mb.map(|mb| mb.saturating_mul(1 << 20));
        {
            use std::os::unix::process::CommandExt;
            // SAFETY: between fork and exec the closure calls only async-signal-safe functions
            // (setrlimit, prctl) and allocates nothing.
            unsafe {
                command.pre_exec(move || {
                    #[cfg(target_os = "linux")]
                    {
                        // The worker dies with the parent instead of running on, orphaned.
                        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    }
                    match memory {
                        Some(bytes) => limit_address_space(bytes),
                        None => Ok(()),
                    }
                });
            }
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr"))?;
        let (send, results) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if send.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stderr_log = Arc::new(Mutex::new(StderrLog::default()));
        let log = Arc::clone(&stderr_log);
        let stderr_reader = Some(std::thread::spawn(move || keep_log(stderr, log)));
        Ok(Worker {
            child,
            stdin,
            results,
            stderr_log,
            stderr_reader,
            model_key: None,
            cpu_so_far: 0.0,
            limits,
            reaped: false,
            stop: None,
        })
    }

    /// The worker's process id (to watch or signal it from outside).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Runs `job` on `model` in this worker. Returns the result and whether the worker is
    /// still alive (a worker that was killed, crashed or ran out of memory is gone; the result
    /// says which). `time_limit` is the job's limit; the worker is killed after it plus
    /// [`grace`].
    pub fn run(
        &mut self,
        job: &Job,
        model: &Model,
        time_limit: Option<Duration>,
    ) -> (RunResult, bool) {
        self.exchange(job, Some(model), time_limit)
    }

    /// [`Worker::run`] with the model sent (`Some`), or built by the worker from
    /// `job.source` when it holds none under the job's key (`None`).
    fn exchange(
        &mut self,
        job: &Job,
        model: Option<&Model>,
        time_limit: Option<Duration>,
    ) -> (RunResult, bool) {
        let send_model = self.model_key.as_deref() != Some(job.model_key.as_str());
        // What the worker says from now on is about this job.
        if let Ok(mut log) = self.stderr_log.lock() {
            *log = StderrLog::default();
        }
        let start = Instant::now();
        let line = serde_json::to_string(&JobRef {
            backend: &job.backend,
            options: &job.options,
            task: job.task,
            model_key: &job.model_key,
            model: model.filter(|_| send_model),
            source: job.source.as_ref(),
            proof: job.proof.as_deref(),
        });
        let sent = match (line, self.stdin.as_mut()) {
            (Ok(text), Some(stdin)) => writeln!(stdin, "{text}")
                .and_then(|()| stdin.flush())
                .is_ok(),
            _ => false,
        };
        self.model_key = None;
        let answer = if sent {
            self.answer(time_limit)
        } else {
            Err(RecvTimeoutError::Disconnected)
        };
        let wall = start.elapsed().as_secs_f64();
        match answer {
            Ok(text) => match serde_json::from_str::<RunResult>(&text) {
                Ok(mut result) => {
                    if result.status == Status::Error {
                        result.stderr = self.stderr_of_error();
                    }
                    // A source that made no model leaves the worker holding none.
                    self.model_key = result.unbuilt.is_none().then(|| job.model_key.clone());
                    self.cpu_so_far = own_cpu_total(result.cpu_seconds, self.cpu_so_far);
                    result.wall_seconds = wall;
                    (result, true)
                }
                Err(e) => {
                    let exit = self.kill();
                    let mut r =
                        RunResult::failed(Status::Crash, format!("worker answered '{text}': {e}"));
                    self.charge(&mut r, &exit, wall);
                    (r, false)
                }
            },
            Err(RecvTimeoutError::Timeout) => {
                let exit = self.kill();
                let t = time_limit.unwrap_or_default();
                // The parent's kill enforced the limit, whatever the backend could have done.
                let limit_by = job.options.time_limit.map(|_| LimitBy::Parent);
                let why = if stops_itself(&job.backend) {
                    "the backend did not stop at its time limit"
                } else {
                    "the backend cannot stop itself"
                };
                let mut r = RunResult::failed(
                    Status::Timeout,
                    format!(
                        "killed after {:.1} s (time limit {} s + grace; {why})",
                        wall,
                        t.as_secs_f64()
                    ),
                );
                r.limit_by = limit_by;
                self.charge(&mut r, &exit, wall);
                (r, false)
            }
            Err(RecvTimeoutError::Disconnected) => {
                let exit = self.kill();
                let mut r = self.death(&exit);
                r.limit_by = job.options.time_limit.map(|_| {
                    if stops_itself(&job.backend) {
                        LimitBy::Backend
                    } else {
                        LimitBy::Parent
                    }
                });
                self.charge(&mut r, &exit, wall);
                (r, false)
            }
        }
    }

    /// The worker's answer line, waiting at most `time_limit` plus [`grace`]; a raised stop
    /// flag ends the wait early, as a timeout does.
    fn answer(&self, time_limit: Option<Duration>) -> Result<String, RecvTimeoutError> {
        let deadline = time_limit.map(|t| Instant::now() + t + grace(t));
        let Some(stop) = &self.stop else {
            return match deadline {
                Some(d) => (self.results).recv_timeout(d.saturating_duration_since(Instant::now())),
                None => (self.results.recv()).map_err(|_| RecvTimeoutError::Disconnected),
            };
        };
        loop {
            let left = deadline.map_or(STOP_POLL, |d| d.saturating_duration_since(Instant::now()));
            match self.results.recv_timeout(left.min(STOP_POLL)) {
                Err(RecvTimeoutError::Timeout)
                    if !stop.is_raised() && deadline.is_none_or(|d| Instant::now() < d) => {}
                other => return other,
            }
        }
    }

    /// The result of a worker that died on its own: `memout` when it aborted on a failed
    /// allocation (or peaked at its memory limit), else `crash`.
    fn death(&self, exit: &Exit) -> RunResult {
        let (oom, said) = self
            .stderr_log
            .lock()
            .map(|l| (l.out_of_memory().map(str::to_string), l.summary()))
            .unwrap_or_default();
        let how = match (exit.signal, exit.code) {
            (Some(s), _) => format!("signal {s}{}", signal_name(s)),
            (None, Some(c)) => format!("exit status {c}"),
            _ => "unknown end".into(),
        };
        let near_limit = self
            .limits
            .memory_mb
            .is_some_and(|mb| exit.peak_rss_mb >= 0.9 * mb as f64);
        // Under an address-space limit a failed mapping (a thread stack, a guard page, a large
        // allocation outside the allocator's error path) ends in SIGSEGV or SIGBUS with a small
        // resident set; zeroone's code is safe Rust, so the limit is the likely cause.
        let mapping_failed = self.limits.memory_mb.is_some()
            && matches!(exit.signal, Some(libc::SIGSEGV | libc::SIGBUS));
        if oom.is_some() || near_limit || mapping_failed {
            let limit = self
                .limits
                .memory_mb
                .map_or("no limit".into(), |mb| format!("limit {mb} MB"));
            let line = oom.unwrap_or_else(|| format!("peak {:.0} MB", exit.peak_rss_mb));
            return RunResult::failed(
                Status::Memout,
                format!("out of memory ({limit}): {how}; {line}"),
            );
        }
        let said = if said.is_empty() {
            String::new()
        } else {
            format!("; stderr: {said}")
        };
        RunResult::failed(Status::Crash, format!("the worker died: {how}{said}"))
    }

    /// The tail of what the worker said during the job that just answered `error`, once the
    /// reader has seen the worker's [`JOB_END`] line (or after [`JOB_END_WAIT`]).
    fn stderr_of_error(&self) -> String {
        let start = Instant::now();
        loop {
            let (ended, tail) = (self.stderr_log.lock())
                .map(|l| (l.ended, l.tail.clone()))
                .unwrap_or_default();
            if ended || start.elapsed() >= JOB_END_WAIT {
                return tail;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Fills the measurements of a run whose worker is gone, from `wait4`'s usage, and the
    /// tail of its standard error (complete: the reader ended with the worker).
    fn charge(&self, r: &mut RunResult, exit: &Exit, wall: f64) {
        r.stderr = (self.stderr_log.lock())
            .map(|l| l.tail.clone())
            .unwrap_or_default();
        r.wall_seconds = wall;
        r.cpu_seconds = (exit.cpu_seconds - self.cpu_so_far).max(0.0);
        // wait4's figure is the process's lifetime peak, which counts the parent's resident set
        // copied at fork, before exec: capped at the memory limit, which bounds the worker's own
        // resident set (issue 35, item 7: 961 MB on memout runs of a 500 MB limit).
        r.peak_rss_mb =
            (self.limits.memory_mb).map_or(exit.peak_rss_mb, |mb| exit.peak_rss_mb.min(mb as f64));
        r.stats.seconds = wall;
    }

    /// Whether an idle worker is still running (one that died while idle is reaped here and
    /// must not be handed a job: the job would be charged a death it did not cause).
    fn is_alive(&mut self) -> bool {
        if self.reaped {
            return false;
        }
        match self.child.try_wait() {
            Ok(None) => true,
            _ => {
                self.reaped = true;
                false
            }
        }
    }

    /// Kills the worker (if still running) and reaps it with `wait4`.
    fn kill(&mut self) -> Exit {
        self.stdin = None;
        let pid = self.child.id() as libc::pid_t;
        if !self.reaped {
            // SAFETY: signalling and reaping our own child, whose pid we hold and have not
            // reaped yet (so the pid cannot have been reused).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        self.reap()
    }

    fn reap(&mut self) -> Exit {
        let mut status = 0;
        // SAFETY: zeroed rusage filled by wait4 for our own child.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = self.child.id() as libc::pid_t;
        if self.reaped {
            return Exit {
                signal: None,
                code: None,
                cpu_seconds: 0.0,
                peak_rss_mb: 0.0,
            };
        }
        let got = loop {
            let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
            if r == -1 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            break r;
        };
        self.reaped = true;
        if got != pid {
            return Exit {
                signal: None,
                code: None,
                cpu_seconds: 0.0,
                peak_rss_mb: 0.0,
            };
        }
        // The worker is gone, so its standard error ends: take its last words.
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        Exit {
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            cpu_seconds: cpu_of(&ru),
            peak_rss_mb: ru.ru_maxrss as f64 / 1024.0,
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if !self.reaped {
            // Closing stdin ends an idle worker; a busy one is killed.
            self.stdin = None;
            let _ = self.kill();
        }
    }
}

/// The worker's cumulative CPU after a job: what it had before plus the job's share.
fn own_cpu_total(job_cpu: f64, before: f64) -> f64 {
    before + job_cpu
}

fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGTERM => " (SIGTERM)",
        _ => "",
    }
}

/// Idle workers shared by the threads of a run: a thread takes one (or starts one), runs a
/// job, and gives it back if it is still alive. A dead worker is simply not given back; the
/// next job starts a new one.
pub struct WorkerPool {
    exe: PathBuf,
    limits: Limits,
    idle: Mutex<Vec<Worker>>,
    stop: Option<StopFlag>,
}

impl WorkerPool {
    /// A pool of workers started from `exe` (the `zeroone` binary) with `limits`. Starts no
    /// process until the first job.
    pub fn new(exe: PathBuf, limits: Limits) -> WorkerPool {
        WorkerPool {
            exe,
            limits,
            idle: Mutex::new(Vec::new()),
            stop: None,
        }
    }

    /// This pool with a stop request: once `stop` is raised, the worker of a running job is
    /// killed within [`STOP_POLL`] (its result is a `timeout` the caller should drop).
    pub fn with_stop(mut self, stop: Option<StopFlag>) -> WorkerPool {
        self.stop = stop;
        self
    }

    /// The pool's limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Runs `job` on `model` in a worker (an idle one holding this model if there is one),
    /// killing it after `job.options.time_limit` plus [`grace`]. A worker that cannot be
    /// started gives a `crash` result naming why.
    pub fn run(&self, job: &Job, model: &Model) -> RunResult {
        self.run_with(job, Some(model))
    }

    /// Runs `job` in a worker that builds its model from `job.source` (or holds it from an
    /// earlier job of its key: an idle worker holding it is taken first), as [`WorkerPool::run`]
    /// does otherwise: this process never builds the model. The result carries
    /// [`RunResult::built`] or [`RunResult::unbuilt`] unless the worker died. A worker started
    /// with [`serve`] (no builder) answers `error`.
    pub fn run_built(&self, job: &Job) -> RunResult {
        self.run_with(job, None)
    }

    fn run_with(&self, job: &Job, model: Option<&Model>) -> RunResult {
        let mut worker = {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            let holding = idle
                .iter()
                .position(|w| w.model_key.as_deref() == Some(job.model_key.as_str()));
            match holding {
                Some(i) => Some(idle.swap_remove(i)),
                None => idle.pop(),
            }
        };
        if worker.as_mut().is_some_and(|w| !w.is_alive()) {
            worker = None;
        }
        if worker.is_none() {
            match Worker::spawn(&self.exe, self.limits) {
                Ok(w) => worker = Some(w),
                Err(e) => {
                    return RunResult::failed(
                        Status::Crash,
                        format!("cannot start a worker ({}): {e}", self.exe.display()),
                    )
                }
            }
        }
        let mut worker = worker.expect("a worker was taken or started");
        worker.stop = self.stop.clone();
        let (result, alive) = worker.exchange(job, model, job.options.time_limit);
        if alive {
            self.idle
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(worker);
        }
        result
    }
}

#[cfg(test)]
mod tests;
