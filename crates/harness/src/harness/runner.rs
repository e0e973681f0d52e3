//! Running an experiment: every (instance, backend, repetition) job not yet on record, each in
//! a worker process under the experiment's time and memory limits ([`crate::backend::worker`]), each
//! result verified (in the worker) and appended as one flushed JSON line.
//!
//! The flow is one way: experiment -> jobs -> workers -> store -> report. Jobs of one instance
//! run one after another on one thread (its model is built once and sent to a worker once, and
//! its backends meet the same machine load); instances run in parallel on `--jobs` threads,
//! each driving one worker process at a time. A worker that is killed (time limit), runs out
//! of memory or crashes costs its own run only: the run is recorded `timeout`, `memout` or
//! `crash` and the next job starts a new worker.
//! `--shard k/N` keeps the instances whose position `i` (0-based, in experiment order) has
//! `i mod N = k - 1`: a deterministic slice, so N machines running shards 1..N cover every job
//! once and `zeroone merge` joins them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::backend::stop::raised;
use crate::backend::worker::{
    Job, JobTask, Limits, ModelFacts, RunResult, Unbuilt, UnbuiltKind, WorkerPool,
};
use crate::backend::{BackendOptions, Registry};
use crate::harness::experiment::{BackendConfig, Experiment, ExperimentKind, Task};
use crate::harness::record::{Record, RecordFile, RecordOptions, RunKey};
use crate::harness::source::{list_instances, Instance};
pub use crate::harness::store::model_file_name;
use crate::harness::store::open_records;
use crate::harness::{report, HarnessError};
use crate::model::Model;

pub use crate::backend::worker::original_size;
pub use crate::harness::plan::{job_keys, RunOptions, RunSummary, Shard};
pub use crate::harness::store::{records_path, shard_files};

/// The options a configuration runs with in this experiment, as records keep them.
fn record_options(
    experiment: &Experiment,
    config: &BackendConfig,
    memory_limit: Option<u64>,
) -> RecordOptions {
    RecordOptions {
        seed: config.options.seed,
        params: config.options.params.clone(),
        time_limit: config.options.time_limit.map(|d| d.as_secs_f64()),
        memory_limit,
        count_limit: match config.task {
            Task::Count => experiment.count_limit,
            Task::Solve => None,
        },
        certify: experiment.certify,
    }
}

/// What every job of a run shares.
struct RunContext<'a> {
    experiment: &'a Experiment,
    registry: &'a Registry,
    pool: WorkerPool,
    memory_limit: Option<u64>,
    instances: usize,
    workers: usize,
    machine: String,
    /// `certify = true`: the folder of the runs' proofs (it exists).
    proofs: Option<PathBuf>,
}

/// An instance's model as its jobs get it.
enum Prepared {
    /// Built in this process (a run without a memory limit).
    Here(Model),
    /// Built by each job's worker from the instance's spec (a run under a memory limit), with
    /// what the build job learnt of it (`None` when that worker died: each job's result says).
    InWorker(Option<ModelFacts>, serde_json::Value),
    /// No model: the reason its runs are recorded with, and whether they are `memout`.
    Unbuilt {
        /// The records' reason.
        reason: String,
        /// A model past the memory limit (else the file or puzzle is bad).
        memout: bool,
    },
}

/// The model of `instance` for its jobs: built here when it has no spec; under a memory limit,
/// built by a worker (a build job, whose worker keeps the model for the jobs that follow), so
/// this process never holds it.
fn prepare(run: &RunContext<'_>, instance: &Instance) -> Prepared {
    if let Some(spec) = &instance.spec {
        let source = spec.to_source();
        let r = run.pool.run_built(&build_job(&instance.id, source.clone()));
        return match r.unbuilt {
            Some(u) => unbuilt(&u, run.memory_limit),
            None => Prepared::InWorker(r.built, source),
        };
    }
    let model = match &instance.puzzle {
        Ok(puzzle) => (puzzle.to_model(&instance.id))
            .map_err(|e| format!("the puzzle does not make a model: {e}")),
        Err(located) => Err(format!("the file does not read: {located}")),
    };
    match model {
        Ok(m) => Prepared::Here(m),
        Err(reason) => Prepared::Unbuilt {
            reason,
            memout: false,
        },
    }
}

/// A job that only builds the model of instance `id` from `source` in a worker.
fn build_job(id: &str, source: serde_json::Value) -> Job {
    Job {
        backend: String::new(),
        options: BackendOptions::default(),
        task: JobTask::Build,
        model_key: id.to_string(),
        model: None,
        source: Some(source),
        proof: None,
    }
}

/// The runs of a model a worker did not build, recorded as those of a file read here were.
fn unbuilt(u: &Unbuilt, memory_limit: Option<u64>) -> Prepared {
    let reason = match u.kind {
        UnbuiltKind::PastMemoryLimit => format!(
            "out of memory (limit {} MB): the model is not built: {}",
            memory_limit.unwrap_or_default(),
            u.message
        ),
        UnbuiltKind::Unreadable => format!("the file does not read: {}", u.message),
        UnbuiltKind::NoModel => format!("the puzzle does not make a model: {}", u.message),
    };
    Prepared::Unbuilt {
        reason,
        memout: u.kind == UnbuiltKind::PastMemoryLimit,
    }
}

/// Refuses, before anything runs, a file given alone (`file = ...`) that a worker cannot read
/// under the memory limit for being malformed: bad input, as it is when this process reads it
/// (the experiment runs nothing). The worker keeps the model for the instance's jobs.
fn check_alone_files(
    pool: &WorkerPool,
    instances: &[(usize, Instance)],
) -> Result<(), HarnessError> {
    let alone = instances
        .iter()
        .filter_map(|(_, i)| i.spec.as_ref().filter(|s| s.alone));
    for spec in alone {
        let r = pool.run_built(&build_job(&spec.id, spec.to_source()));
        if let Some(u) = r.unbuilt.filter(|u| u.kind != UnbuiltKind::PastMemoryLimit) {
            return Err(HarnessError::Source(u.message));
        }
    }
    Ok(())
}

/// Runs one job in a worker and returns its record (checking its proof under `certify`).
/// Never panics on backend failure: errors, panics, time-outs, memory-outs and crashes are
/// records with those statuses; `Err` only when a proof file cannot be kept or removed.
fn run_job(
    run: &RunContext<'_>,
    (position, instance): (usize, &Instance),
    prepared: &Prepared,
    config: &BackendConfig,
    repetition: u32,
) -> Result<Record, HarnessError> {
    let mut record = Record::new(
        &instance.id,
        &config.label,
        &config.name,
        config.task,
        repetition,
    );
    record.options = record_options(run.experiment, config, run.memory_limit);
    record.group = Some(instance.group.clone());
    record.file = instance.file.clone();
    record.size = instance.size();
    record.position = Some(position);
    record.instances = Some(run.instances);
    record.repetitions = Some(run.experiment.repetitions);
    record.counters = run.registry.get(&config.name).map(|info| {
        (info.counters.iter())
            .map(|&(counter, name)| (counter, name.to_string()))
            .collect()
    });
    record.jobs = Some(run.workers);
    record.machine = Some(run.machine.clone());
    let facts = match prepared {
        Prepared::Unbuilt { reason, memout } => {
            if *memout {
                record.status = crate::backend::Status::Memout;
            }
            record.reason = Some(reason.clone());
            return Ok(record);
        }
        Prepared::Here(model) => Some(ModelFacts::of(model, instance.size())),
        Prepared::InWorker(facts, _) => *facts,
    };
    // Under `certify`, the worker writes this run's proof into the proofs folder.
    let stem = crate::harness::certify::proof_stem(&instance.id, &config.label, repetition);
    let mut job = Job {
        backend: config.name.clone(),
        options: config.options.clone(),
        task: match config.task {
            Task::Solve => JobTask::Solve,
            Task::Count => JobTask::Count {
                limit: run.experiment.count_limit,
            },
        },
        model_key: instance.id.clone(),
        model: None,
        source: None,
        proof: run.proofs.as_ref().map(|dir| dir.join(&stem)),
    };
    let r = match prepared {
        // A backend a program added to the registry exists only in this process.
        Prepared::Here(model) if !run.registry.is_builtin(&config.name) => {
            crate::backend::worker::run_in_process_with(run.registry, &job, model)
        }
        Prepared::Here(model) => run.pool.run(&job, model),
        Prepared::InWorker(_, source) => {
            job.source = Some(source.clone());
            run.pool.run_built(&job)
        }
        Prepared::Unbuilt { .. } => unreachable!("returned above"),
    };
    if let Some(facts) = facts.or(r.built) {
        fill_model(&mut record, &facts);
    }
    fill_outcome(&mut record, &r);
    if let Some(dir) = &run.proofs {
        crate::harness::certify::certify_run(&mut record, &r, dir, &stem)?;
    }
    Ok(record)
}

/// What the record keeps of the run's model.
fn fill_model(record: &mut Record, facts: &ModelFacts) {
    record.variables = facts.variables;
    record.rows = facts.rows;
    record.sense = facts.sense;
    record.original_variables = Some(facts.original_variables);
    record.original_rows = Some(facts.original_rows);
    record.size = facts.size;
}

/// The worker's answer and measurements into `record`.
fn fill_outcome(record: &mut Record, r: &RunResult) {
    let r = r.clone();
    record.status = r.status;
    record.verified = r.verified;
    record.reason = r.reason;
    record.seconds = r.stats.seconds;
    record.count = r.count;
    record.exhaustive = r.exhaustive;
    record.objective = r.objective;
    record.bound = r.bound;
    record.gap =
        (r.objective.zip(r.bound)).map(|(v, b)| crate::model::objective::Objective::gap(v, b));
    record.stats = r.stats.into();
    record.wall_seconds = Some(r.wall_seconds);
    record.cpu_seconds = Some(r.cpu_seconds);
    record.peak_rss_mb = Some(r.peak_rss_mb);
    record.limit_by = r.limit_by;
    record.stderr = r.stderr;
}

/// The progress of a run on stderr, in under 80 columns: runs done of all, how they ended
/// (answered / unknown or limited / failed), and the time left estimated from the elapsed
/// time per finished run (not from a rate over the last few runs, which reads 0 s while the
/// slowest runs are still going).
struct Progress {
    bar: ProgressBar,
    start: std::time::Instant,
    total: usize,
    counts: [AtomicUsize; 3],
}

impl Progress {
    fn new(total: usize, shown: bool) -> Progress {
        let target = if shown {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total as u64), target);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:16}] {pos}/{len} {msg}")
                .expect("the progress template is valid")
                .progress_chars("=> "),
        );
        Progress {
            bar,
            start: std::time::Instant::now(),
            total,
            counts: Default::default(),
        }
    }

    /// Counts one finished run with `status` and redraws the line.
    fn finished(&self, status: crate::backend::Status) {
        self.counts[progress_slot(status)].fetch_add(1, Ordering::SeqCst);
        self.bar.inc(1);
        let done = self.bar.position() as usize;
        let [ok, unknown, failed] = [0, 1, 2].map(|i| self.counts[i].load(Ordering::SeqCst));
        self.bar.set_message(format!(
            "ok {ok} unk {unknown} err {failed} {}",
            time_left(self.start.elapsed().as_secs_f64(), done, self.total)
        ));
    }
}

/// Where the progress line counts a run that ended with `status`: 0 (`ok`: an answer, solved,
/// optimal or proved infeasible), 2 (`err`: error or crash), else 1 (`unk`: unknown, feasible,
/// a limit, unsupported).
fn progress_slot(status: crate::backend::Status) -> usize {
    use crate::backend::Status;
    match status {
        s if s.is_answer() => 0,
        Status::Error | Status::Crash => 2,
        _ => 1,
    }
}

/// "~1h02m left" from `elapsed` seconds for `done` of `total` runs (empty before the first).
fn time_left(elapsed: f64, done: usize, total: usize) -> String {
    if done == 0 {
        return String::new();
    }
    let left = (elapsed / done as f64 * total.saturating_sub(done) as f64).round() as u64;
    match left {
        0..=59 => format!("~{left}s left"),
        60..=3599 => format!("~{}m{:02}s left", left / 60, left % 60),
        _ => format!("~{}h{:02}m left", left / 3600, left % 3600 / 60),
    }
}

/// Refuses records made with other settings than the experiment now gives: resuming would
/// silently mix two configurations under one label.
fn check_settings(
    experiment: &Experiment,
    path: &Path,
    done: &[Record],
    memory_limit: Option<u64>,
) -> Result<(), HarnessError> {
    for (i, r) in done.iter().enumerate() {
        if let Some(config) = experiment.backends.iter().find(|b| b.label == r.backend) {
            let mut now = record_options(experiment, config, memory_limit);
            if r.version.is_none() {
                // The first record format kept no memory or count limit: compare the rest.
                now.memory_limit = None;
                now.count_limit = None;
            }
            if r.name != config.name || r.options != now || r.task != config.task {
                return Err(HarnessError::Records {
                    file: path.to_path_buf(),
                    line: i + 1,
                    message: format!(
                        "backend '{}' was run with other settings ({} {:?}) than the experiment now gives ({} {:?}); use --fresh or another label",
                        r.backend, r.name, r.options, config.name, now
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Runs `experiment`: loads its instances, skips what is on record (with `resume`), runs the
/// rest in worker processes appending one line per run, then (unless sharded or stopped)
/// writes the reports. Bad input (instances that do not load, an existing record file without
/// `resume` or `fresh`, records another run is writing) is reported before anything is run or
/// written.
///
/// A program of your own that runs solve or count experiments names the `zeroone` binary in
/// [`RunOptions::worker_exe`] (see `examples/run_experiment.rs`); table experiments run in this
/// process:
///
/// ```
/// use zeroone::harness::record::read_records;
/// use zeroone::harness::{run_experiment, Experiment, RunOptions};
///
/// let folder = tempfile::tempdir().unwrap();
/// let file = folder.path().join("widths.toml");
/// let text = "description = \"hex widths 1-7\"\nkind = \"table\"\n[table]\nhex_widths = [1, 3, 5, 7]\n";
/// std::fs::write(&file, text).unwrap();
/// let experiment = Experiment::load(&file).unwrap();
/// let summary = run_experiment(&experiment, &RunOptions::new(folder.path())).unwrap();
/// let (records, _) = read_records(&summary.records, false).unwrap();
/// assert_eq!(records.len(), 4); // one record per width, each with its exact counts
/// ```
pub fn run_experiment(
    experiment: &Experiment,
    options: &RunOptions,
) -> Result<RunSummary, HarnessError> {
    if experiment.kind == ExperimentKind::Table {
        return crate::harness::table_run::run_table(experiment, options);
    }
    crate::harness::certify::require_checker(experiment)?;
    let memory_limit = options.memory_limit.or(experiment.memory_limit);
    // Under a memory limit this process only lists the instances: each worker builds its
    // model within the limit, and a file past it is an instance whose runs are `memout`.
    let all = list_instances(&experiment.sources, memory_limit)?;
    let total = all.len();
    let instances = crate::harness::plan::in_shard(all, options.shard);
    refuse_unenforced_limits(experiment, &options.registry, memory_limit)?;
    let exe = match &options.worker_exe {
        Some(p) => p.clone(),
        None => std::env::current_exe().map_err(|source| HarnessError::NoBinary { source })?,
    };
    if let Some(mb) = memory_limit {
        crate::backend::worker::check_memory_limit(&exe, mb).map_err(|min| {
            HarnessError::Experiment {
                file: experiment.path.clone(),
                location: "memory_limit".into(),
                message: format!(
                    "{mb} MB (from --memory-limit or the file): a worker process needs at least \
                 {min} MB of address space to start; give {min} or more"
                ),
            }
        })?;
    }
    let pool = WorkerPool::new(
        exe,
        Limits {
            memory_mb: memory_limit,
        },
    )
    .with_stop(options.stop.clone());
    check_alone_files(&pool, &instances)?;
    let (path, file, done) = open_records(experiment, options)?;
    check_settings(experiment, &path, &done, memory_limit)?;
    let done: HashSet<RunKey> = done.iter().map(Record::key).collect();

    let ids: Vec<String> = instances.iter().map(|(_, i)| i.id.clone()).collect();
    let all_jobs = job_keys(experiment, &ids);
    let already_done = all_jobs.iter().filter(|k| done.contains(*k)).count();
    let pending = all_jobs.len() - already_done;

    let proofs = match experiment.certify {
        false => None,
        true => {
            let dir = crate::harness::certify::proofs_dir(&options.reports_dir, experiment);
            std::fs::create_dir_all(&dir).map_err(|e| HarnessError::io(&dir, e))?;
            // Absolute, so a worker started in another folder writes to the same place.
            Some(std::fs::canonicalize(&dir).map_err(|e| HarnessError::io(&dir, e))?)
        }
    };
    let run = RunContext {
        experiment,
        registry: &options.registry,
        pool,
        memory_limit,
        instances: total,
        workers: options.workers(),
        machine: crate::harness::record::machine(),
        proofs,
    };
    let progress = Progress::new(pending, options.progress);
    let ran = run_pending(&run, &instances, &done, file, options, &progress)?;
    progress.bar.finish_and_clear();
    let stopped = ran < pending;
    let mut reports = Vec::new();
    // A run stopped by --max-runs reports what is on record (marked incomplete) too.
    if options.shard.is_none() {
        reports = report::write_reports(experiment, &options.reports_dir, &options.command)?;
    }
    Ok(RunSummary {
        jobs: all_jobs.len(),
        already_done,
        ran,
        stopped,
        records: path,
        reports,
    })
}

/// A backend added to the registry runs in this process, where no memory limit holds and only
/// a backend that stops itself honours the time limit: refuse a limit that would not be
/// enforced, before anything runs.
fn refuse_unenforced_limits(
    experiment: &Experiment,
    registry: &Registry,
    memory_limit: Option<u64>,
) -> Result<(), HarnessError> {
    for b in (experiment.backends.iter()).filter(|b| !registry.is_builtin(&b.name)) {
        let unenforced = if memory_limit.is_some() {
            Some("a memory limit")
        } else if b.options.time_limit.is_some() && !registry.stops_itself(&b.name) {
            Some("a time limit (it cannot stop itself)")
        } else {
            None
        };
        if let Some(limit) = unenforced {
            return Err(HarnessError::Experiment {
                file: experiment.path.clone(),
                location: "backends".into(),
                message: format!(
                    "backend '{}' is not built into zeroone and runs in this process, where {limit} is not enforced; drop the limit",
                    b.name
                ),
            });
        }
    }
    Ok(())
}

/// Runs every job not in `done` on `run.workers` threads, appending each record; returns how
/// many ran.
fn run_pending(
    run: &RunContext<'_>,
    instances: &[(usize, Instance)],
    done: &HashSet<RunKey>,
    file: RecordFile,
    options: &RunOptions,
    progress: &Progress,
) -> Result<usize, HarnessError> {
    let experiment = run.experiment;
    let file = Mutex::new(file);
    let started = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let failure: Mutex<Option<HarnessError>> = Mutex::new(None);
    let work = || {
        instances.par_iter().for_each(|(position, inst)| {
            let todo: Vec<(&BackendConfig, u32)> = experiment
                .backends
                .iter()
                .flat_map(|b| (0..experiment.repetitions).map(move |r| (b, r)))
                .filter(|(b, r)| !done.contains(&(inst.id.clone(), b.label.clone(), *r)))
                .collect();
            if todo.is_empty() {
                return;
            }
            let prepared = prepare(run, inst);
            for (config, rep) in todo {
                if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                    return;
                }
                if let Some(max) = options.stop_after {
                    if started.fetch_add(1, Ordering::SeqCst) >= max {
                        return;
                    }
                }
                if raised(&options.stop) {
                    return;
                }
                let record = run_job(run, (*position, inst), &prepared, config, rep);
                if raised(&options.stop) {
                    // Cut short by the stop request: not a result, so not on record.
                    return;
                }
                let written = record.and_then(|record| {
                    let mut f = file.lock().map_err(|_| HarnessError::Poisoned {
                        what: "record file",
                    })?;
                    f.append(&record)?;
                    Ok(record.status)
                });
                let status = match written {
                    Ok(status) => status,
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        return;
                    }
                };
                finished.fetch_add(1, Ordering::SeqCst);
                progress.finished(status);
            }
        });
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(run.workers)
        .build()
        .map_err(|source| HarnessError::Threads {
            count: run.workers,
            source,
        })?
        .install(work);
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(finished.into_inner())
}

/// What `zeroone merge` did.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeSummary {
    /// The files joined.
    pub inputs: Vec<PathBuf>,
    /// Records of the experiment's own jobs in the merged file.
    pub records: usize,
    /// Records of peer solvers in the merged file.
    pub peer_records: usize,
    /// Jobs of the whole experiment.
    pub jobs: usize,
    /// The merged record file.
    pub merged: PathBuf,
    /// Report files written.
    pub reports: Vec<PathBuf>,
}

/// Joins record files (the shards in `dir` when `inputs` is empty, plus an existing
/// `NAME.jsonl`) into `NAME.jsonl`, in job order, and writes the reports. Repeats of a run are
/// kept once; two records of one run with different answers, or a record of a run the
/// experiment does not have, are errors and nothing is written.
pub fn merge_records(
    experiment: &Experiment,
    dir: &Path,
    inputs: &[PathBuf],
    command: &str,
) -> Result<MergeSummary, HarnessError> {
    let merged_path = records_path(dir, experiment, None);
    // The merged file has one writer too: not while a run appends to it.
    let _lock = crate::harness::record::RecordLock::acquire(&merged_path)?;
    let mut files = Vec::new();
    if merged_path.exists() {
        files.push(merged_path.clone());
    }
    if inputs.is_empty() {
        files.extend(shard_files(dir, experiment)?);
    } else {
        files.extend(inputs.iter().cloned());
    }
    if files.is_empty() {
        return Err(HarnessError::NoRecords {
            what: "no record files to merge".into(),
            hint: format!("no {}.shard-*.jsonl in {}", experiment.name, dir.display()),
        });
    }
    let records = crate::harness::record::merge(&files)?;
    let table = experiment.kind == ExperimentKind::Table;
    let (ids, ordered_keys): (Vec<String>, Vec<RunKey>) = if table {
        let rows = crate::harness::table_run::table_rows(experiment);
        let ids: Vec<String> = rows.iter().map(|r| r.id()).collect();
        let keys = ids
            .iter()
            .map(|id| (id.clone(), "table".to_string(), 0))
            .collect();
        (ids, keys)
    } else {
        let ids: Vec<String> = list_instances(&experiment.sources, experiment.memory_limit)?
            .into_iter()
            .map(|i| i.id)
            .collect();
        let keys = job_keys(experiment, &ids);
        (ids, keys)
    };
    let keys: HashSet<RunKey> = ordered_keys.iter().cloned().collect();
    let known_ids: HashSet<&String> = ids.iter().collect();
    let is_peer_run =
        |r: &Record| experiment.peers.contains(&r.backend) && known_ids.contains(&r.instance);
    if let Some(stray) = records
        .iter()
        .find(|r| !keys.contains(&r.key()) && !is_peer_run(r))
    {
        return Err(HarnessError::Source(format!(
            "a record of instance '{}', backend '{}', repetition {} is not a run of experiment {}",
            stray.instance,
            stray.backend,
            stray.repetition,
            experiment.path.display()
        )));
    }
    let records = if table {
        let mut records = records;
        records.sort_by_key(|r| ordered_keys.iter().position(|k| *k == r.key()));
        records
    } else {
        report::in_job_order(experiment, records, &ids)
    };
    let mut text = String::new();
    for r in &records {
        text.push_str(&r.to_line());
        text.push('\n');
    }
    crate::harness::write_atomically(&merged_path, text.as_bytes())?;
    let reports = if table {
        crate::harness::table_run::write_table_reports(experiment, dir, command)?
    } else {
        report::write_reports(experiment, dir, command)?
    };
    let peer_records = records
        .iter()
        .filter(|r| experiment.peers.contains(&r.backend))
        .count();
    Ok(MergeSummary {
        inputs: files,
        records: records.len() - peer_records,
        peer_records,
        jobs: keys.len(),
        merged: merged_path,
        reports,
    })
}

/// Writes the model of every instance of `experiment` (of one shard, if given) to
/// `dir/{id}.json` as `{"instance": id, "group", "file", "size", "original_variables",
/// "original_rows", "position", "instances", "time_limit", "repetitions", "model"}` (what the harness records too, and the experiment's
/// limit and repetitions, so peers run under the same ones), for peer solvers outside zeroone
/// (`experiments/peers/peers.py`). Returns how many were written. Each file is written
/// atomically; cost: one model build and one JSON file per instance. Under the experiment's
/// memory limit the instances are listed ([`list_instances`]) and their models built one at a
/// time, each within the limit (a model past it is not built, so not exported).
pub fn export_models(
    experiment: &Experiment,
    dir: &Path,
    shard: Option<Shard>,
) -> Result<usize, HarnessError> {
    let instances = list_instances(&experiment.sources, experiment.memory_limit)?;
    let mut builder = crate::harness::instance_builder::InstanceBuilder::default();
    let mut written = 0;
    for (i, inst) in instances.iter().enumerate() {
        if shard.is_some_and(|s| !s.holds(i)) {
            continue;
        }
        // A file that does not read (or past the memory limit) has its rows from the harness;
        // a peer has nothing to run on it.
        let Some((model, size)) = export_model(inst, &mut builder)? else {
            continue;
        };
        let (original_variables, original_rows) = original_size(&model);
        let json = serde_json::json!({
            "instance": inst.id,
            "group": inst.group,
            "file": inst.file,
            "size": size,
            "original_variables": original_variables,
            "original_rows": original_rows,
            "position": i,
            "instances": instances.len(),
            "time_limit": experiment.time_limit.map(|t| t.as_secs_f64()),
            "repetitions": experiment.repetitions,
            "model": model,
        });
        let path = dir.join(model_file_name(&inst.id));
        crate::harness::write_atomically(&path, json.to_string().as_bytes())?;
        written += 1;
    }
    Ok(written)
}

/// The model [`export_models`] writes for `inst`, with its size: built by `builder` from the
/// instance's spec (under a memory limit) or from the puzzle read; `None` for a file that does
/// not read or is past the limit; `Err` for a puzzle that makes no model.
fn export_model(
    inst: &Instance,
    builder: &mut crate::harness::instance_builder::InstanceBuilder,
) -> Result<Option<(Model, Option<usize>)>, HarnessError> {
    let no_model = |e: String| HarnessError::Source(format!("instance '{}': {e}", inst.id));
    if let Some(spec) = &inst.spec {
        return match builder.build(&spec.to_source()) {
            Ok(built) => Ok(Some((built.model, built.size))),
            Err(u) if u.kind == UnbuiltKind::NoModel => Err(no_model(u.message)),
            Err(_) => Ok(None),
        };
    }
    let Ok(puzzle) = &inst.puzzle else {
        return Ok(None);
    };
    let model = puzzle
        .to_model(&inst.id)
        .map_err(|e| no_model(e.to_string()))?;
    Ok(Some((model, inst.size())))
}

/// Rewrites the reports of `experiment` from its record file in `dir` (`zeroone report`):
/// nothing is run, no puzzle source is read. Cost: reading the records and writing the
/// reports.
pub fn rewrite_reports(
    experiment: &Experiment,
    dir: &Path,
    command: &str,
) -> Result<Vec<PathBuf>, HarnessError> {
    let path = records_path(dir, experiment, None);
    if !path.is_file() {
        return Err(HarnessError::NoRecords {
            what: format!("{} does not exist", path.display()),
            hint: "run the experiment (or merge its shards) first".into(),
        });
    }
    // A run still writing these records holds their lock: refuse, like a second run, rather
    // than write reports of a half-finished record set.
    let _lock = crate::harness::record::RecordLock::acquire(&path)?;
    match experiment.kind {
        ExperimentKind::Table => {
            crate::harness::table_run::write_table_reports(experiment, dir, command)
        }
        _ => report::write_reports(experiment, dir, command),
    }
}

#[cfg(test)]
mod tests {
    use super::{progress_slot, time_left};
    use crate::backend::Status;

    #[test]
    fn time_left_comes_from_the_elapsed_time_per_finished_run() {
        assert_eq!(time_left(10.0, 0, 100), "");
        // 2 s per run so far, 50 runs to go.
        assert_eq!(time_left(100.0, 50, 100), "~1m40s left");
        assert_eq!(time_left(3600.0, 1, 3), "~2h00m left");
        assert_eq!(time_left(5.0, 10, 10), "~0s left");
    }

    #[test]
    fn the_progress_line_counts_an_optimum_as_an_answer() {
        // Issue 36: "16/16 ok 1 unk 15" when three runs had proved their optimum.
        for answered in [Status::Solved, Status::Optimal, Status::Infeasible] {
            assert_eq!(progress_slot(answered), 0, "{answered:?}");
        }
        for failed in [Status::Error, Status::Crash] {
            assert_eq!(progress_slot(failed), 2, "{failed:?}");
        }
        for other in [
            Status::Feasible,
            Status::Unknown,
            Status::Timeout,
            Status::Memout,
            Status::Limit,
            Status::Unsupported,
        ] {
            assert_eq!(progress_slot(other), 1, "{other:?}");
        }
    }

    #[test]
    fn a_crashing_workers_record_keeps_the_tail_of_its_stderr_and_reads_back() {
        use crate::harness::record::read_records;
        use crate::harness::{Experiment, RunOptions};
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // A stand-in for `zeroone worker`: reads its job, says 9 KB on stderr, dies.
        let exe = dir.path().join("worker.sh");
        let script = "#!/bin/sh\nread job\ni=0\nwhile [ $i -lt 300 ]; do echo \"line $i of what the worker said\" >&2; i=$((i+1)); done\necho 'its last words' >&2\nkill -ABRT $$\n";
        std::fs::write(&exe, script).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let file = dir.path().join("crash.toml");
        let text =
            "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"bitset\"\n";
        std::fs::write(&file, text).unwrap();
        let experiment = Experiment::load(&file).unwrap();
        let options = RunOptions {
            worker_exe: Some(exe),
            jobs: Some(1),
            ..RunOptions::new(dir.path())
        };
        let summary = super::run_experiment(&experiment, &options).unwrap();
        let (records, _) = read_records(&summary.records, false).unwrap();
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.status, Status::Crash, "{r:?}");
        let tail = crate::backend::worker::STDERR_TAIL_BYTES;
        assert!(
            r.stderr.len() <= tail && r.stderr.len() > tail - 40,
            "{}",
            r.stderr.len()
        );
        assert!(r
            .stderr
            .ends_with("line 299 of what the worker said\nits last words\n"));
        assert!(!r.stderr.contains("line 0 of"));
        // A record without the field (made before it was kept) reads with it empty.
        let line = std::fs::read_to_string(&summary.records).unwrap();
        let mut old: serde_json::Value =
            serde_json::from_str(line.lines().next().unwrap()).unwrap();
        old.as_object_mut().unwrap().remove("stderr");
        let back: crate::harness::record::Record = serde_json::from_value(old).unwrap();
        assert_eq!(back.stderr, "");
    }
}
