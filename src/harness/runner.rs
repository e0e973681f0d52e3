//! Running an experiment: every (instance, backend, repetition) job not yet on record, in
//! parallel across instances, each result verified and appended as one flushed JSON line.
//!
//! Jobs of one instance run one after another on one thread (its model is built once and its
//! backends meet the same machine load); instances run in parallel on `--jobs` threads.
//! `--shard k/N` keeps the instances whose position `i` (0-based, in experiment order) has
//! `i mod N = k - 1`: a deterministic slice, so N machines running shards 1..N cover every job
//! once and `zeroone merge` joins them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::backend::{count_verified, make_backend, solve_verified, Stats, Status};
use crate::harness::experiment::{BackendConfig, Experiment, ExperimentKind, Task};
use crate::harness::record::{Record, RecordFile, RecordOptions, RunKey};
use crate::harness::source::{load_instances, Instance};
use crate::harness::{report, HarnessError};

/// One slice of a sharded run: shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;
    /// Parses `k/N` with `1 <= k <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected k/N with 1 <= k <= N (like 2/8), found '{s}'");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether the instance at `position` belongs to this shard.
    pub fn holds(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

/// How to run an experiment.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Worker threads (`None`: one per core).
    pub jobs: Option<usize>,
    /// Continue the record file, skipping jobs already on record.
    pub resume: bool,
    /// Replace an existing record file.
    pub fresh: bool,
    /// Run only this slice (writes `NAME.shard-k-of-N.jsonl`, no reports).
    pub shard: Option<Shard>,
    /// Folder for records and reports.
    pub reports_dir: PathBuf,
    /// Stop after this many new records (for tests that simulate a killed run).
    pub stop_after: Option<usize>,
    /// Draw a progress bar on stderr (it stays hidden when stderr is not a terminal).
    pub progress: bool,
    /// The command line, for the report header.
    pub command: String,
}

impl RunOptions {
    /// Defaults: all cores, fresh run refused if records exist, reports in `reports/`.
    pub fn new(reports_dir: impl Into<PathBuf>) -> RunOptions {
        RunOptions {
            jobs: None,
            resume: false,
            fresh: false,
            shard: None,
            reports_dir: reports_dir.into(),
            stop_after: None,
            progress: false,
            command: String::new(),
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Jobs in this run's slice.
    pub jobs: usize,
    /// Jobs already on record (skipped by `--resume`).
    pub already_done: usize,
    /// Jobs run now.
    pub ran: usize,
    /// Whether `stop_after` cut the run short.
    pub stopped: bool,
    /// The record file.
    pub records: PathBuf,
    /// Report files written.
    pub reports: Vec<PathBuf>,
}

/// The record file of `experiment` (or of one shard) in `dir`.
pub fn records_path(dir: &Path, experiment: &Experiment, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => dir.join(format!("{}.jsonl", experiment.name)),
        Some(s) => dir.join(format!(
            "{}.shard-{}-of-{}.jsonl",
            experiment.name, s.index, s.count
        )),
    }
}

/// Every job key of the experiment for `instances`, in experiment order.
pub fn job_keys(experiment: &Experiment, instances: &[String]) -> Vec<RunKey> {
    let mut keys = Vec::new();
    for inst in instances {
        for b in &experiment.backends {
            for rep in 0..experiment.repetitions {
                keys.push((inst.clone(), b.label.clone(), rep));
            }
        }
    }
    keys
}

fn record_options(config: &BackendConfig) -> RecordOptions {
    RecordOptions {
        seed: config.options.seed,
        params: config.options.params.clone(),
        time_limit: config.options.time_limit.map(|d| d.as_secs_f64()),
    }
}

/// Runs one job and returns its record. Never panics on backend failure: errors and panics
/// inside the backend are `error` records (the runner in `backend` catches them).
fn run_job(
    experiment: &Experiment,
    instance: &Instance,
    model: &Result<crate::model::Model, String>,
    config: &BackendConfig,
    repetition: u32,
) -> Record {
    let mut record = Record {
        instance: instance.id.clone(),
        backend: config.label.clone(),
        repetition,
        name: config.name.clone(),
        task: config.task,
        options: record_options(config),
        status: Status::Error,
        verified: false,
        seconds: 0.0,
        count: None,
        exhaustive: None,
        reason: None,
        variables: 0,
        rows: 0,
        stats: Stats::default(),
    };
    let model = match model {
        Ok(m) => m,
        Err(reason) => {
            record.reason = Some(format!("the puzzle does not make a model: {reason}"));
            return record;
        }
    };
    record.variables = model.num_variables();
    record.rows = model.constraints().len();
    let mut backend = match make_backend(&config.name, &config.options) {
        Ok(b) => b,
        Err(e) => {
            record.reason = Some(e.to_string());
            return record;
        }
    };
    match config.task {
        Task::Solve => match solve_verified(backend.as_mut(), model) {
            Ok(o) => {
                record.status = o.status;
                record.verified = o.verified;
                record.reason = o.reason;
                record.seconds = o.stats.seconds;
                record.stats = o.stats;
            }
            Err(e) => record.reason = Some(e.to_string()),
        },
        Task::Count => match count_verified(backend.as_mut(), model, experiment.count_limit) {
            Ok(o) => {
                record.status = o.status;
                record.verified = o.verified;
                record.reason = o.reason;
                record.seconds = o.stats.seconds;
                if o.status == Status::Solved {
                    record.count = Some(o.count.to_string());
                    record.exhaustive = Some(o.exhaustive);
                }
                record.stats = o.stats;
            }
            Err(e) => record.reason = Some(e.to_string()),
        },
    }
    record
}

fn progress_bar(total: usize, shown: bool) -> ProgressBar {
    let target = if shown {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total as u64), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:32}] {pos}/{len} runs  {per_sec}  ETA {eta}  {msg}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> "),
    );
    bar
}

/// The items of this run's shard (all of them when the run is not sharded), in order.
pub(crate) fn in_shard<T>(items: Vec<T>, options: &RunOptions) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| options.shard.is_none_or(|s| s.holds(*i)))
        .map(|(_, item)| item)
        .collect()
}

/// Opens the record file of `experiment` for this run: continued with `resume` (returning the
/// records already on it), replaced with `fresh`, created when missing; an existing file without
/// either flag is an error, before anything is run or written.
pub(crate) fn open_records(
    experiment: &Experiment,
    options: &RunOptions,
) -> Result<(PathBuf, RecordFile, Vec<Record>), HarnessError> {
    let path = records_path(&options.reports_dir, experiment, options.shard);
    if path.exists() && !options.resume && !options.fresh {
        return Err(HarnessError::Source(format!(
            "{} exists: pass --resume to continue it or --fresh to start over",
            path.display()
        )));
    }
    let (file, done) = if options.resume {
        RecordFile::open(&path)?
    } else {
        (RecordFile::create(&path)?, Vec::new())
    };
    Ok((path, file, done))
}

/// Runs `experiment`: loads its instances, skips what is on record (with `resume`), runs the
/// rest in parallel appending one line per run, then (unless sharded or stopped) writes the
/// reports. Bad input (instances that do not load, an existing record file without `resume`
/// or `fresh`) is reported before anything is run or written.
pub fn run_experiment(
    experiment: &Experiment,
    options: &RunOptions,
) -> Result<RunSummary, HarnessError> {
    if experiment.kind == ExperimentKind::Table {
        return crate::harness::table_run::run_table(experiment, options);
    }
    let instances: Vec<Instance> = in_shard(load_instances(&experiment.sources)?, options);
    let (path, file, done) = open_records(experiment, options)?;
    // A record made with other options than the experiment now names is not "done": resuming
    // would silently mix two configurations under one label.
    for (i, r) in done.iter().enumerate() {
        if let Some(config) = experiment.backends.iter().find(|b| b.label == r.backend) {
            let now = record_options(config);
            if r.name != config.name || r.options != now || r.task != config.task {
                return Err(HarnessError::Records {
                    file: path.clone(),
                    line: i + 1,
                    message: format!(
                        "backend '{}' was run with other settings ({} {:?}) than the experiment now gives ({} {:?}); use --fresh or another label",
                        r.backend, r.name, r.options, config.name, now
                    ),
                });
            }
        }
    }
    let done: HashSet<RunKey> = done.iter().map(Record::key).collect();

    let ids: Vec<String> = instances.iter().map(|i| i.id.clone()).collect();
    let all_jobs = job_keys(experiment, &ids);
    let already_done = all_jobs.iter().filter(|k| done.contains(*k)).count();
    let pending = all_jobs.len() - already_done;

    let bar = progress_bar(pending, options.progress);
    bar.set_message(experiment.name.clone());
    let file = Mutex::new(file);
    let started = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let failure: Mutex<Option<HarnessError>> = Mutex::new(None);

    let work = || {
        instances.par_iter().for_each(|inst| {
            let todo: Vec<(&BackendConfig, u32)> = experiment
                .backends
                .iter()
                .flat_map(|b| (0..experiment.repetitions).map(move |r| (b, r)))
                .filter(|(b, r)| !done.contains(&(inst.id.clone(), b.label.clone(), *r)))
                .collect();
            if todo.is_empty() {
                return;
            }
            let model = inst.puzzle.to_model(&inst.id).map_err(|e| e.to_string());
            for (config, rep) in todo {
                if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                    return;
                }
                if let Some(max) = options.stop_after {
                    if started.fetch_add(1, Ordering::SeqCst) >= max {
                        return;
                    }
                }
                let record = run_job(experiment, inst, &model, config, rep);
                let written = file
                    .lock()
                    .map_err(|_| HarnessError::Source("record file lock poisoned".into()))
                    .and_then(|mut f| f.append(&record));
                if let Err(e) = written {
                    if let Ok(mut f) = failure.lock() {
                        f.get_or_insert(e);
                    }
                    return;
                }
                finished.fetch_add(1, Ordering::SeqCst);
                bar.inc(1);
            }
        });
    };
    match options.jobs {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| HarnessError::Source(format!("cannot start {n} worker threads: {e}")))?
            .install(work),
        None => work(),
    }
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let ran = finished.into_inner();
    let stopped = ran < pending;
    let mut reports = Vec::new();
    if options.shard.is_none() && !stopped {
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

/// The shard record files of `experiment` in `dir` (`NAME.shard-k-of-N.jsonl`), sorted.
pub fn shard_files(dir: &Path, experiment: &Experiment) -> Result<Vec<PathBuf>, HarnessError> {
    let prefix = format!("{}.shard-", experiment.name);
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| HarnessError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| HarnessError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".jsonl") {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
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
        return Err(HarnessError::Source(format!(
            "no record files to merge: no {}.shard-*.jsonl in {}",
            experiment.name,
            dir.display()
        )));
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
        let ids: Vec<String> = load_instances(&experiment.sources)?
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

/// The file name an instance's exported model gets: its id with every character outside
/// `A-Z a-z 0-9 . _ - #` replaced by `_`, then `.json`.
pub fn model_file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-_#".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.json")
}

/// Writes the model of every instance of `experiment` (of one shard, if given) to
/// `dir/{id}.json` as `{"instance": id, "model": ...}`, for peer solvers outside zeroone
/// (`experiments/peers/peers.py`). Returns how many were written. Each file is written
/// atomically; cost: one model build and one JSON file per instance.
pub fn export_models(
    experiment: &Experiment,
    dir: &Path,
    shard: Option<Shard>,
) -> Result<usize, HarnessError> {
    let instances = load_instances(&experiment.sources)?;
    let mut written = 0;
    for (i, inst) in instances.iter().enumerate() {
        if shard.is_some_and(|s| !s.holds(i)) {
            continue;
        }
        let model = inst
            .puzzle
            .to_model(&inst.id)
            .map_err(|e| HarnessError::Source(format!("instance '{}': {e}", inst.id)))?;
        let json = serde_json::json!({ "instance": inst.id, "model": model });
        let path = dir.join(model_file_name(&inst.id));
        crate::harness::write_atomically(&path, json.to_string().as_bytes())?;
        written += 1;
    }
    Ok(written)
}
