//! Running an experiment on a Slurm cluster (`zeroone slurm`): a job array of N tasks, task
//! `k` running `zeroone run EXPERIMENT --shard k/N --resume` under the experiment's limits,
//! and a merge job after it (`zeroone merge`, which also writes the reports).
//!
//! This module plans and writes; it submits nothing (the CLI calls `sbatch`). [`plan`] works
//! out the requests: memory and time default from the experiment's limits (memory limit per
//! worker times the workers, time limit plus the worker's grace times the runs one worker
//! does, with a margin), or for a table experiment the memory estimate of its kinds' sharded
//! counts (hex's three-axis count). [`write_scripts`] writes `NAME.slurm/array.sbatch` and `NAME.slurm/merge.sbatch`
//! next to the records, each atomically. [`incomplete_shards`] reads each shard's record file
//! and names the shards that still miss runs (the peers' runs too, unless the tasks run
//! without peers): what a second submission reruns. A table
//! experiment that splits a count into K shards (`hex_parts = K`) runs as K tasks by default
//! ([`default_shards`]).
//!
//! Cost: planning loads the experiment's instances once (and, for a table, measures the first
//! layers of each sharded size's count, about a second at hex width 25); checking the shards reads
//! their record files.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::experiment::{Experiment, ExperimentKind};
use crate::harness::plan::{in_shard, job_keys, Shard};
use crate::harness::record::{read_records, RecordLock, RunKey};
use crate::harness::source::list_instances;
use crate::harness::store::records_path;
use crate::harness::table_run::table_rows;
use crate::harness::{write_atomically, HarnessError};

/// Fixed time added to every task's request: loading the instances, starting workers.
const TIME_BASE: Duration = Duration::from_secs(600);
/// Each run's share of overhead beyond its limit (building its model, a new worker after a
/// kill).
const TIME_PER_RUN: Duration = Duration::from_secs(1);
/// The factor on the summed limits: the time request is this much above the worst case.
const TIME_MARGIN: f64 = 1.25;
/// The longest time request: a year.
const MAX_TIME: Duration = Duration::from_secs(365 * 86400);
/// Memory of the `zeroone run` parent beside its workers (instances, records), in MB.
const MEMORY_BASE_MB: u64 = 1024;
/// The factor on a table's estimated peak memory (the estimate extrapolates).
const MEMORY_MARGIN: f64 = 1.25;

/// What the user asked of the cluster; `None` fields default from the experiment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlurmRequest {
    /// Tasks in the array (shards of the experiment).
    pub shards: usize,
    /// `--partition`, if any.
    pub partition: Option<String>,
    /// `--account`, if any.
    pub account: Option<String>,
    /// Wall-clock time per task (`None`: from the experiment's time limit).
    pub time: Option<Duration>,
    /// Memory per task in MB (`None`: from the experiment's memory limit or estimate).
    pub memory_mb: Option<u64>,
    /// CPUs per task; each task runs this many workers at once (`--jobs`).
    pub cpus: usize,
    /// Run the tasks without the experiment's peers (`run --no-peers`); otherwise each task
    /// runs its shard's peers after its backends.
    pub no_peers: bool,
}

/// Everything the two scripts say: the files, the requests and where they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmPlan {
    /// The experiment's name.
    pub name: String,
    /// The experiment file, absolute.
    pub experiment: PathBuf,
    /// The records folder, absolute.
    pub reports_dir: PathBuf,
    /// The `zeroone` binary the tasks run, absolute (on a cluster: on a shared file system).
    pub zeroone: PathBuf,
    /// `NAME.slurm/` in the records folder: the scripts and `logs/`.
    pub dir: PathBuf,
    /// Tasks in the array.
    pub shards: usize,
    /// The run keys of each shard (index 0 is shard 1), in run order.
    pub shard_keys: Vec<Vec<RunKey>>,
    /// The record file of each shard (index 0 is shard 1).
    pub shard_files: Vec<PathBuf>,
    /// The request as given, with the defaults filled in below.
    pub request: SlurmRequest,
    /// Time per array task.
    pub time: Duration,
    /// How [`SlurmPlan::time`] was chosen, for the script's header and the command's output.
    pub time_note: String,
    /// Memory per array task in MB.
    pub memory_mb: u64,
    /// How [`SlurmPlan::memory_mb`] was chosen.
    pub memory_note: String,
    /// Time of the merge job.
    pub merge_time: Duration,
    /// Memory of the merge job in MB.
    pub merge_memory_mb: u64,
}

impl SlurmPlan {
    /// `NAME.slurm/array.sbatch`.
    pub fn array_path(&self) -> PathBuf {
        self.dir.join("array.sbatch")
    }

    /// `NAME.slurm/merge.sbatch`.
    pub fn merge_path(&self) -> PathBuf {
        self.dir.join("merge.sbatch")
    }

    /// The record file of shard `k` (1-based), as `zeroone run --shard k/N` names it.
    pub fn shard_records(&self, k: usize) -> PathBuf {
        self.shard_files[k - 1].clone()
    }

    /// The runs of the largest shard.
    pub fn runs_per_shard(&self) -> usize {
        self.shard_keys.iter().map(Vec::len).max().unwrap_or(0)
    }
}

/// The runs a task must leave on record for `instances`, instance by instance: the backends'
/// ([`job_keys`]) and, `with_peers`, each of the experiment's peers under the same repetitions
/// (a task runs its shard's peers after its backends, into the same record file). Cost: one
/// key per run.
fn task_keys(experiment: &Experiment, instances: &[String], with_peers: bool) -> Vec<RunKey> {
    let mut keys = Vec::new();
    for inst in instances {
        keys.extend(job_keys(experiment, std::slice::from_ref(inst)));
        let peers = experiment.peers.iter().filter(|_| with_peers);
        for peer in peers {
            keys.extend((0..experiment.repetitions).map(|rep| (inst.clone(), peer.clone(), rep)));
        }
    }
    keys
}

/// The tasks a table experiment that splits a count into K shards (`hex_parts = K`, K > 1)
/// runs as by default: K (the most of its sweeps), one shard of each split size per task.
/// `None` for other experiments (the user gives `--shards`).
pub fn default_shards(experiment: &Experiment) -> Option<usize> {
    let sweeps = &experiment.table.as_ref()?.sweeps;
    let parts = sweeps.iter().filter_map(|s| s.split()).max()?;
    (experiment.kind == ExperimentKind::Table).then_some(parts)
}

/// Plans the array for `experiment` with records in `reports_dir`, tasks running `zeroone`
/// (all three paths absolute). Refuses (bad input) more shards than the experiment has
/// instances or table rows, and a missing time or memory request the experiment cannot
/// supply.
pub fn plan(
    experiment: &Experiment,
    reports_dir: &Path,
    zeroone: &Path,
    request: SlurmRequest,
) -> Result<SlurmPlan, HarnessError> {
    let table = experiment.kind == ExperimentKind::Table;
    let (items, keys) = if table {
        let ids: Vec<RunKey> = table_rows(experiment)
            .into_iter()
            .map(|r| (r.id(), "table".to_string(), 0))
            .collect();
        (ids.len(), ids)
    } else {
        let ids: Vec<String> = list_instances(&experiment.sources, experiment.memory_limit)?
            .into_iter()
            .map(|i| i.id)
            .collect();
        (ids.len(), task_keys(experiment, &ids, !request.no_peers))
    };
    let what = if table { "table rows" } else { "instances" };
    if request.shards == 0 || request.shards > items {
        return Err(HarnessError::Source(format!(
            "--shards {}: experiment {} has {items} {what}; give 1 to {items}",
            request.shards,
            experiment.path.display()
        )));
    }
    let per_item = if table || items == 0 {
        1
    } else {
        keys.len() / items
    };
    let shard_keys: Vec<Vec<RunKey>> = (1..=request.shards)
        .map(|index| {
            let shard = Shard {
                index,
                count: request.shards,
            };
            // Keys come per item, `per_item` each, in item order: a shard keeps its items'.
            in_shard(keys.chunks(per_item).collect(), Some(shard))
                .into_iter()
                .flat_map(|(_, chunk)| chunk.to_vec())
                .collect()
        })
        .collect();
    let most_items = items.div_ceil(request.shards);
    let (time, time_note) = time_request(experiment, &request, most_items, per_item)?;
    let (memory_mb, memory_note) = memory_request(experiment, &request)?;
    let runs = keys.len() as u64;
    Ok(SlurmPlan {
        name: experiment.name.clone(),
        experiment: experiment.path.clone(),
        reports_dir: reports_dir.to_path_buf(),
        zeroone: zeroone.to_path_buf(),
        dir: reports_dir.join(format!("{}.slurm", experiment.name)),
        shards: request.shards,
        shard_keys,
        shard_files: (1..=request.shards)
            .map(|index| {
                let count = request.shards;
                records_path(reports_dir, experiment, Some(Shard { index, count }))
            })
            .collect(),
        time,
        time_note,
        memory_mb,
        memory_note,
        // Reading and sorting the records, writing the reports and plots.
        merge_time: TIME_BASE + Duration::from_millis(50 * runs),
        merge_memory_mb: MEMORY_BASE_MB + runs * 16 / 1024,
        request,
    })
}

/// The memory of a table experiment's task: the largest estimated peak of one shard of its
/// sharded counts (each sweep's sizes in its own number of shards, its own settings) with a
/// margin, plus the base.
fn table_memory(experiment: &Experiment) -> Result<(u64, String), HarnessError> {
    let mut peak = 0u64;
    let mut counted = Vec::new();
    for sweep in experiment.table.iter().flat_map(|t| &t.sweeps) {
        let Some(sharded) = sweep.table.sharded() else {
            continue;
        };
        let parts = sweep.parts.unwrap_or(1).max(1);
        counted.push(format!("{} counts in {parts} part(s)", sweep.table.group()));
        for &size in &sweep.sizes {
            let bytes = (sharded.peak_bytes(size, parts, &sweep.settings))
                .map_err(|e| HarnessError::Source(e.to_string()))?;
            peak = peak.max(bytes.unwrap_or(0));
        }
    }
    let mb = (peak as f64 * MEMORY_MARGIN / (1u64 << 20) as f64).ceil() as u64;
    let what = if counted.is_empty() {
        "no sharded count".to_string()
    } else {
        counted.join(" and ")
    };
    Ok((
        MEMORY_BASE_MB + mb,
        format!(
            "estimated peak of the {what}: {} MB x {MEMORY_MARGIN} + {MEMORY_BASE_MB} MB",
            peak.div_ceil(1 << 20)
        ),
    ))
}

/// The time per task: as given, or the experiment's time limit plus grace for every run of
/// the largest shard, those of one instance one after another, `cpus` instances at once.
fn time_request(
    experiment: &Experiment,
    request: &SlurmRequest,
    most_items: usize,
    runs_per_item: usize,
) -> Result<(Duration, String), HarnessError> {
    if let Some(t) = request.time {
        return Ok((t, "given with --time".into()));
    }
    let missing = |why: &str| HarnessError::Experiment {
        file: experiment.path.clone(),
        location: "time_limit".into(),
        message: format!("{why}, so the time a shard needs is unknown: give --time HH:MM:SS"),
    };
    if experiment.kind == ExperimentKind::Table {
        return Err(missing("a table experiment counts without a time limit"));
    }
    let limit = experiment
        .time_limit
        .ok_or_else(|| missing("the experiment has no time_limit"))?;
    let per_run = limit + crate::backend::worker::grace(limit) + TIME_PER_RUN;
    let waves = most_items.div_ceil(request.cpus.max(1));
    let runs = (waves * runs_per_item) as f64;
    // At most a year: no partition grants more, and the request stays a valid Slurm time.
    let seconds = per_run.as_secs_f64() * runs * TIME_MARGIN + TIME_BASE.as_secs_f64();
    let time = Duration::from_secs_f64(seconds.min(MAX_TIME.as_secs_f64()));
    Ok((
        round_up_to_minute(time),
        format!(
            "{waves} instance(s) per CPU x {runs_per_item} run(s) each x ({} s limit + grace + 1 s) x {TIME_MARGIN} + {} min",
            limit.as_secs_f64(),
            TIME_BASE.as_secs() / 60
        ),
    ))
}

/// The memory per task: as given, the experiment's memory limit per worker times the workers
/// plus the parent, or for a table the largest estimated peak of its sharded counts with a margin.
fn memory_request(
    experiment: &Experiment,
    request: &SlurmRequest,
) -> Result<(u64, String), HarnessError> {
    if let Some(mb) = request.memory_mb {
        return Ok((mb, "given with --mem".into()));
    }
    if experiment.kind == ExperimentKind::Table {
        return table_memory(experiment);
    }
    let limit = experiment
        .memory_limit
        .ok_or_else(|| HarnessError::Experiment {
            file: experiment.path.clone(),
            location: "memory_limit".into(),
            message: "the experiment has no memory_limit, so the memory a shard needs is \
                      unknown: give --mem SIZE"
                .into(),
        })?;
    let cpus = request.cpus.max(1) as u64;
    Ok((
        limit * cpus + MEMORY_BASE_MB,
        format!("{limit} MB limit per worker x {cpus} worker(s) + {MEMORY_BASE_MB} MB"),
    ))
}

fn round_up_to_minute(t: Duration) -> Duration {
    Duration::from_secs(t.as_secs().div_ceil(60) * 60)
}

/// Parses a Slurm time, `HH:MM:SS` or `D-HH:MM:SS` (minutes and seconds below 60), above 0.
pub fn parse_time(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{text}': expected HH:MM:SS or D-HH:MM:SS (like 02:30:00 or 1-12:00:00)");
    let (days, rest) = match text.split_once('-') {
        Some((d, rest)) => (d.parse::<u64>().map_err(|_| bad())?, rest),
        None => (0, text),
    };
    let fields: Vec<&str> = rest.split(':').collect();
    let [h, m, s] = fields.as_slice() else {
        return Err(bad());
    };
    let number = |f: &str| {
        (!f.is_empty() && f.len() <= 6 && f.bytes().all(|b| b.is_ascii_digit()))
            .then(|| f.parse::<u64>().ok())
            .flatten()
            .ok_or_else(bad)
    };
    let (h, m, s) = (number(h)?, number(m)?, number(s)?);
    if m >= 60 || s >= 60 || days > 365 || (days > 0 && h >= 24) {
        return Err(bad());
    }
    let total = ((days * 24 + h) * 60 + m) * 60 + s;
    if total == 0 {
        return Err(format!("'{text}': a time of zero"));
    }
    Ok(Duration::from_secs(total))
}

/// Formats a time as Slurm reads it: `HH:MM:SS`, or `D-HH:MM:SS` from a day on.
pub fn format_time(t: Duration) -> String {
    let s = t.as_secs();
    let (d, h, m, s) = (s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}:{s:02}")
    }
}

/// Parses a memory size as `sbatch --mem` reads it: a whole number with an optional `K`, `M`,
/// `G` or `T` suffix, megabytes when bare. Returns megabytes (at least 1).
pub fn parse_memory(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}': expected a size like 4G, 512M or 2048 (MB)");
    let t = text.trim();
    let (digits, unit_kb) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let kb: u64 = match c.to_ascii_uppercase() {
                'K' => 1,
                'M' => 1 << 10,
                'G' => 1 << 20,
                'T' => 1 << 30,
                _ => return Err(bad()),
            };
            (&t[..i], kb)
        }
        _ => (t, 1 << 10),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u64 = digits.parse().map_err(|_| bad())?;
    let mb = n
        .checked_mul(unit_kb)
        .map(|kb| kb.div_ceil(1 << 10))
        .filter(|&mb| mb <= 1 << 40)
        .ok_or_else(bad)?;
    if mb == 0 {
        return Err(format!("'{text}': a memory request of zero"));
    }
    Ok(mb)
}

/// Checks a partition or account name: letters, digits and `_ . , -` (a `#SBATCH` line
/// carries it unquoted).
pub fn check_name(what: &str, text: &str) -> Result<(), String> {
    let ok = !text.is_empty()
        && text.len() <= 200
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.,-".contains(c));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--{what} '{text}': expected letters, digits and _ . , - only"
        ))
    }
}

/// `1-3,5,7-8`: the sorted shard numbers as a Slurm `--array` list.
pub fn array_list(shards: &[usize]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < shards.len() {
        let mut j = i;
        while j + 1 < shards.len() && shards[j + 1] == shards[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j > i {
            let _ = write!(out, "{}-{}", shards[i], shards[j]);
        } else {
            let _ = write!(out, "{}", shards[i]);
        }
        i = j + 1;
    }
    out
}

/// The job id in what `sbatch --parsable` prints (`12345`, or `12345;cluster`).
pub fn parse_job_id(stdout: &str) -> Option<u64> {
    let line = stdout.lines().map(str::trim).rfind(|l| !l.is_empty())?;
    let id = line.split(';').next()?.trim();
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| id.parse().ok())
        .flatten()
}

/// `text` as one shell word (single quotes, `'` as `'\''`).
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A path as text a `#SBATCH` line can carry unquoted, or why not.
fn directive_path(path: &Path) -> Result<String, HarnessError> {
    let text = path.to_str().unwrap_or("");
    let ok = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@=~".contains(c));
    if ok {
        Ok(text.to_string())
    } else {
        Err(HarnessError::Source(format!(
            "{}: a #SBATCH line cannot carry this path (spaces, quotes, % or non-ASCII); \
             choose a records folder with --reports whose path has letters, digits and / . _ - only",
            path.display()
        )))
    }
}

/// A path as one shell word, or an error for a path that is not UTF-8.
fn shell_path(path: &Path) -> Result<String, HarnessError> {
    path.to_str()
        .map(shell_quote)
        .ok_or_else(|| HarnessError::Source(format!("{}: not a UTF-8 path", path.display())))
}

/// The `#SBATCH` lines both scripts share, after the job name: partition and account.
fn shared_directives(request: &SlurmRequest) -> String {
    let mut s = String::new();
    if let Some(p) = &request.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(a) = &request.account {
        let _ = writeln!(s, "#SBATCH --account={a}");
    }
    s
}

/// The job name of the array: `zeroone-NAME`, with characters outside `A-Z a-z 0-9 _ . -` as
/// `_`; the merge job's is this with `-merge`.
pub fn job_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("zeroone-{safe}")
}

/// The text of `array.sbatch`: N tasks, task k running shard k of N with `--resume`.
pub fn array_script(plan: &SlurmPlan) -> Result<String, HarnessError> {
    let logs = directive_path(&plan.dir.join("logs"))?;
    let n = plan.shards;
    let mut s = String::from("#!/bin/bash\n");
    let _ = writeln!(
        s,
        "# Written by `zeroone slurm` ({}): experiment {}, shard k of {n} in task k.",
        crate::build_info::VERSION_AND_COMMIT,
        plan.name
    );
    let _ = writeln!(
        s,
        "# Submit: `zeroone slurm ... --submit` (reruns only incomplete shards), or\n\
         # `sbatch --parsable array.sbatch`, then `sbatch --dependency=afterok:ID merge.sbatch`.\n\
         # At most {} run(s) per task. Time: {}. Memory: {}.",
        plan.runs_per_shard(),
        plan.time_note,
        plan.memory_note
    );
    let _ = writeln!(s, "#SBATCH --job-name={}", job_name(&plan.name));
    let _ = writeln!(s, "#SBATCH --array=1-{n}");
    s += "#SBATCH --ntasks=1\n";
    let _ = writeln!(s, "#SBATCH --cpus-per-task={}", plan.request.cpus);
    let _ = writeln!(s, "#SBATCH --time={}", format_time(plan.time));
    let _ = writeln!(s, "#SBATCH --mem={}M", plan.memory_mb);
    s += &shared_directives(&plan.request);
    // `%A` (the array's job id) keeps a resubmission from overwriting the earlier logs.
    let _ = writeln!(s, "#SBATCH --output={logs}/shard-%A_%a.out");
    s += "set -euo pipefail\n";
    let _ = writeln!(
        s,
        "exec {} run {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{n}\" --resume --jobs {} --reports {} --quiet{}",
        shell_path(&plan.zeroone)?,
        shell_path(&plan.experiment)?,
        plan.request.cpus,
        shell_path(&plan.reports_dir)?,
        if plan.request.no_peers { " --no-peers" } else { "" }
    );
    Ok(s)
}

/// The text of `merge.sbatch`: `zeroone merge` of the N shard files, which writes the
/// reports. Cancelled by Slurm when a task of the array it waits for fails.
pub fn merge_script(plan: &SlurmPlan) -> Result<String, HarnessError> {
    let logs = directive_path(&plan.dir.join("logs"))?;
    let mut s = String::from("#!/bin/bash\n");
    let _ = writeln!(
        s,
        "# Written by `zeroone slurm` ({}): joins the {} shards of experiment {} and writes its reports.",
        crate::build_info::VERSION_AND_COMMIT,
        plan.shards,
        plan.name
    );
    let _ = writeln!(s, "#SBATCH --job-name={}-merge", job_name(&plan.name));
    s += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    let _ = writeln!(s, "#SBATCH --time={}", format_time(plan.merge_time));
    let _ = writeln!(s, "#SBATCH --mem={}M", plan.merge_memory_mb);
    s += &shared_directives(&plan.request);
    s += "#SBATCH --kill-on-invalid-dep=yes\n";
    let _ = writeln!(s, "#SBATCH --output={logs}/merge-%j.out");
    s += "set -euo pipefail\n";
    let mut line = format!(
        "exec {} merge {} --reports {}",
        shell_path(&plan.zeroone)?,
        shell_path(&plan.experiment)?,
        shell_path(&plan.reports_dir)?
    );
    for k in 1..=plan.shards {
        line += " \\\n  ";
        line += &shell_path(&plan.shard_records(k))?;
    }
    s += &line;
    s.push('\n');
    Ok(s)
}

/// Writes both scripts (each atomically) and creates `NAME.slurm/logs/`; returns the two
/// paths, the array script first.
pub fn write_scripts(plan: &SlurmPlan) -> Result<[PathBuf; 2], HarnessError> {
    let array = array_script(plan)?;
    let merge = merge_script(plan)?;
    let logs = plan.dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| HarnessError::io(&logs, e))?;
    write_atomically(&plan.array_path(), array.as_bytes())?;
    write_atomically(&plan.merge_path(), merge.as_bytes())?;
    Ok([plan.array_path(), plan.merge_path()])
}

/// The shards (1-based, ascending) whose record file is missing or lacks one of their runs:
/// what `--resume` would still run. A shard whose file another process is writing is refused
/// ([`HarnessError::Busy`]): its job is still running. Cost: reading every shard file.
pub fn incomplete_shards(plan: &SlurmPlan) -> Result<Vec<usize>, HarnessError> {
    let mut out = Vec::new();
    for (i, keys) in plan.shard_keys.iter().enumerate() {
        let k = i + 1;
        let path = plan.shard_records(k);
        if !path.exists() {
            out.push(k);
            continue;
        }
        let (records, _) = read_records(&path, true)?;
        let on_record: HashSet<RunKey> = records.iter().map(|r| r.key()).collect();
        if keys.iter().all(|key| on_record.contains(key)) {
            continue;
        }
        // Missing runs: is the shard still being written (its job running)?
        drop(RecordLock::acquire(&path)?);
        out.push(k);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::record::Record;
    use crate::harness::Task;
    use crate::puzzle::kinds::hex::shards::{HexHalves, MemoryEstimate, RowPlan};

    const SOLVE: &str = "repetitions = 3\ntime_limit = 10\nmemory_limit = 2000\n\
        [[instances]]\ngenerate = \"queens-bare\"\nsizes = [1, 2, 3, 4, 5]\n\
        [[backends]]\nname = \"brute\"\n[[backends]]\nname = \"brute\"\nlabel = \"b2\"\nseed = 1\n";

    fn experiment(dir: &Path, text: &str) -> Experiment {
        let path = dir.join("exp.toml");
        std::fs::write(&path, text).unwrap();
        Experiment::load(&path).unwrap()
    }

    fn request(shards: usize, cpus: usize) -> SlurmRequest {
        SlurmRequest {
            shards,
            partition: None,
            account: None,
            time: None,
            memory_mb: None,
            cpus,
            no_peers: false,
        }
    }

    #[test]
    fn times_read_and_print_as_slurm_writes_them() {
        assert_eq!(parse_time("02:30:00"), Ok(Duration::from_secs(9000)));
        assert_eq!(parse_time("1-12:00:05"), Ok(Duration::from_secs(129_605)));
        assert_eq!(parse_time("100:00:00"), Ok(Duration::from_secs(360_000)));
        for bad in [
            "",
            "90",
            "1:75:00",
            "1:00:60",
            "00:00:00",
            "1-24:00:00",
            "a:b:c",
            "1:2",
        ] {
            assert!(parse_time(bad).is_err(), "{bad}");
        }
        assert_eq!(format_time(Duration::from_secs(9000)), "02:30:00");
        assert_eq!(format_time(Duration::from_secs(129_605)), "1-12:00:05");
        for t in ["00:00:01", "23:59:59", "3-00:10:00"] {
            assert_eq!(format_time(parse_time(t).unwrap()), t);
        }
    }

    #[test]
    fn memory_sizes_are_megabytes_when_bare() {
        assert_eq!(parse_memory("2048"), Ok(2048));
        assert_eq!(parse_memory("4G"), Ok(4096));
        assert_eq!(parse_memory("512m"), Ok(512));
        assert_eq!(parse_memory("1T"), Ok(1 << 20));
        assert_eq!(parse_memory("1536K"), Ok(2), "rounded up to whole MB");
        for bad in [
            "",
            "G",
            "4X",
            "-1G",
            "1.5G",
            "0",
            "0M",
            "99999999999999999999",
        ] {
            assert!(parse_memory(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn array_lists_join_runs_of_shards() {
        assert_eq!(array_list(&[1, 2, 3]), "1-3");
        assert_eq!(array_list(&[2]), "2");
        assert_eq!(array_list(&[1, 2, 4, 6, 7, 8, 10]), "1-2,4,6-8,10");
        assert_eq!(array_list(&[]), "");
    }

    #[test]
    fn job_ids_come_from_the_parsable_output() {
        assert_eq!(parse_job_id("12345\n"), Some(12345));
        assert_eq!(parse_job_id("77;cluster-a\n"), Some(77));
        assert_eq!(parse_job_id("sbatch: warning\n88\n"), Some(88));
        for bad in ["", "\n", "Submitted batch job 5", "x;y"] {
            assert_eq!(parse_job_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn names_for_sbatch_lines_are_refused_unless_plain() {
        assert!(check_name("partition", "gpu,long-2").is_ok());
        for bad in ["", "a b", "x\n#SBATCH --mem=1", "a;b", "é"] {
            assert!(check_name("partition", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn requests_default_from_the_limits_and_the_largest_shard() {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), SOLVE);
        let plan = plan(&exp, dir.path(), Path::new("/bin/zeroone"), request(2, 1)).unwrap();
        // 5 instances in 2 shards: 3 in the larger, each 2 backends x 3 repetitions, every
        // run at most 10 s + grace 2 s + 1 s, with the margin and the base.
        assert_eq!(plan.runs_per_shard(), 18);
        let worst = 18.0 * 13.0 * TIME_MARGIN + TIME_BASE.as_secs_f64();
        assert_eq!(plan.time.as_secs(), (worst as u64).div_ceil(60) * 60);
        assert!(plan.time.as_secs_f64() >= worst);
        assert_eq!(plan.memory_mb, 2000 + MEMORY_BASE_MB);
        // Two CPUs: two instances at once, two workers' memory.
        let two = super::plan(&exp, dir.path(), Path::new("/z"), request(2, 2)).unwrap();
        assert!(two.time < plan.time);
        assert!(two.time.as_secs_f64() >= 12.0 * 13.0 * TIME_MARGIN);
        assert_eq!(two.memory_mb, 2 * 2000 + MEMORY_BASE_MB);
        // Given requests win.
        let mut given = request(2, 1);
        given.time = Some(Duration::from_secs(60));
        given.memory_mb = Some(100);
        let p = super::plan(&exp, dir.path(), Path::new("/z"), given).unwrap();
        assert_eq!((p.time.as_secs(), p.memory_mb), (60, 100));
    }

    #[test]
    fn the_shards_cover_every_run_once_as_the_runner_slices_them() {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), SOLVE);
        let plan = plan(&exp, dir.path(), Path::new("/z"), request(3, 1)).unwrap();
        let ids: Vec<String> = list_instances(&exp.sources, None)
            .unwrap()
            .into_iter()
            .map(|i| i.id)
            .collect();
        for (i, keys) in plan.shard_keys.iter().enumerate() {
            let shard = Shard {
                index: i + 1,
                count: 3,
            };
            let mine: Vec<String> = in_shard(ids.clone(), Some(shard))
                .into_iter()
                .map(|(_, id)| id)
                .collect();
            assert_eq!(*keys, job_keys(&exp, &mine));
        }
        let all: usize = plan.shard_keys.iter().map(Vec::len).sum();
        assert_eq!(all, 30);
        assert!(plan.shard_records(2).ends_with("exp.shard-2-of-3.jsonl"));
    }

    #[test]
    fn a_request_the_experiment_cannot_supply_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), &SOLVE.replace("time_limit = 10\n", ""));
        let e = plan(&exp, dir.path(), Path::new("/z"), request(2, 1)).unwrap_err();
        assert!(e.is_bad_input() && e.to_string().contains("--time"), "{e}");
        let exp = experiment(dir.path(), &SOLVE.replace("memory_limit = 2000\n", ""));
        let e = plan(&exp, dir.path(), Path::new("/z"), request(2, 1)).unwrap_err();
        assert!(e.is_bad_input() && e.to_string().contains("--mem"), "{e}");
        let exp = experiment(dir.path(), SOLVE);
        let e = plan(&exp, dir.path(), Path::new("/z"), request(6, 1)).unwrap_err();
        assert!(e.to_string().contains("has 5 instances"), "{e}");
    }

    #[test]
    fn a_split_table_defaults_to_its_parts_and_estimates_its_memory() {
        let dir = tempfile::tempdir().unwrap();
        let table = "kind = \"table\"\n[table]\nhex_widths = [11]\nhex_parts = 3\n";
        let exp = experiment(dir.path(), table);
        assert_eq!(default_shards(&exp), Some(3));
        let e = plan(&exp, dir.path(), Path::new("/z"), request(3, 1)).unwrap_err();
        assert!(e.to_string().contains("--time"), "{e}");
        let mut r = request(3, 1);
        r.time = Some(Duration::from_secs(600));
        let p = plan(&exp, dir.path(), Path::new("/z"), r).unwrap();
        // Three parts and the other levels: the first task also takes the other levels.
        let ids: Vec<Vec<&str>> = p
            .shard_keys
            .iter()
            .map(|k| k.iter().map(|(id, _, _)| id.as_str()).collect())
            .collect();
        assert_eq!(
            ids,
            [
                vec!["hex-11-part-1-of-3", "hex-11"],
                vec!["hex-11-part-2-of-3"],
                vec!["hex-11-part-3-of-3"]
            ]
        );
        let halves = HexHalves::new(11).unwrap();
        let peak = MemoryEstimate::measure(
            &halves,
            RowPlan::default(),
            crate::puzzle::kinds::hex::table::GUARD_BUDGET,
        )
        .unwrap()
        .peak_bytes(3);
        assert!(p.memory_mb > MEMORY_BASE_MB);
        assert!(p.memory_mb as f64 >= MEMORY_BASE_MB as f64 + peak as f64 / 1048576.0);
        let unsplit = experiment(dir.path(), "kind = \"table\"\n[table]\nhex_widths = [11]\n");
        assert_eq!(default_shards(&unsplit), None);
    }

    #[test]
    fn a_middle_first_table_is_sized_by_its_own_row_order() {
        use crate::puzzle::kinds::hex::shards::{RowOrder, StreamedRows};
        let dir = tempfile::tempdir().unwrap();
        let halves = HexHalves::new(19).unwrap();
        let peak = |order| {
            let plan = RowPlan::new(order, StreamedRows::default());
            MemoryEstimate::measure(
                &halves,
                plan,
                crate::puzzle::kinds::hex::table::GUARD_BUDGET,
            )
            .unwrap()
            .peak_bytes(2)
        };
        let (top_down, middle) = (peak(RowOrder::TopDown), peak(RowOrder::MiddleFirst));
        assert_ne!(
            top_down, middle,
            "the orders must hold different layers here"
        );
        let table = "kind = \"table\"\n[table]\nhex_widths = [19]\nhex_parts = 2\nrow_order = \"middle-first\"\n";
        let exp = experiment(dir.path(), table);
        let mut r = request(2, 1);
        r.time = Some(Duration::from_secs(600));
        let p = plan(&exp, dir.path(), Path::new("/z"), r).unwrap();
        let mb = |peak: u64| (peak as f64 * MEMORY_MARGIN / (1u64 << 20) as f64).ceil() as u64;
        assert_ne!(
            mb(top_down),
            mb(middle),
            "{top_down} and {middle} bytes round alike"
        );
        assert_eq!(p.memory_mb, MEMORY_BASE_MB + mb(middle));
    }

    #[test]
    fn the_scripts_run_each_shard_resumably_and_merge_them_all() {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), SOLVE);
        let mut r = request(2, 4);
        r.partition = Some("short".into());
        r.account = Some("proj-1".into());
        let p = plan(&exp, dir.path(), Path::new("/opt/it's/zeroone"), r).unwrap();
        let array = array_script(&p).unwrap();
        for line in [
            "#SBATCH --array=1-2\n",
            "#SBATCH --cpus-per-task=4\n",
            &format!("#SBATCH --time={}\n", format_time(p.time)),
            &format!("#SBATCH --mem={}M\n", 4 * 2000 + MEMORY_BASE_MB),
            "#SBATCH --partition=short\n",
            "#SBATCH --account=proj-1\n",
            "--shard \"${SLURM_ARRAY_TASK_ID}/2\" --resume --jobs 4",
            r"exec '/opt/it'\''s/zeroone' run ",
            // Each submission logs apart: the job id is in the name, not only the task.
            "/logs/shard-%A_%a.out\n",
        ] {
            assert!(array.contains(line), "{line} in\n{array}");
        }
        assert!(
            !array.contains("--no-peers"),
            "the tasks run the peers: {array}"
        );
        let mut quiet = p.clone();
        quiet.request.no_peers = true;
        assert!(array_script(&quiet)
            .unwrap()
            .contains(" --quiet --no-peers\n"));
        let merge = merge_script(&p).unwrap();
        assert!(
            merge.contains("#SBATCH --kill-on-invalid-dep=yes\n"),
            "{merge}"
        );
        assert!(merge.contains("#SBATCH --partition=short\n"), "{merge}");
        assert!(merge.contains("/logs/merge-%j.out\n"), "{merge}");
        for k in 1..=2 {
            let file = format!("exp.shard-{k}-of-2.jsonl'");
            assert!(merge.contains(&file), "{file} in\n{merge}");
        }
        let written = write_scripts(&p).unwrap();
        assert_eq!(std::fs::read_to_string(&written[0]).unwrap(), array);
        assert!(dir.path().join("exp.slurm/logs").is_dir());
        // A folder a #SBATCH line cannot carry is refused.
        let spaced = dir.path().join("a b");
        let p = plan(&exp, &spaced, Path::new("/z"), request(2, 1)).unwrap();
        assert!(array_script(&p).unwrap_err().is_bad_input());
    }

    #[test]
    fn incomplete_shards_are_those_missing_runs_on_record() {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), SOLVE);
        let p = plan(&exp, dir.path(), Path::new("/z"), request(3, 1)).unwrap();
        let lines = |keys: &[RunKey]| -> String {
            keys.iter()
                .map(|(i, b, r)| Record::new(i, b, "brute", Task::Solve, *r).to_line() + "\n")
                .collect()
        };
        assert_eq!(incomplete_shards(&p).unwrap(), [1, 2, 3]);
        std::fs::write(p.shard_records(1), lines(&p.shard_keys[0])).unwrap();
        let partial = &p.shard_keys[1][..p.shard_keys[1].len() - 1];
        // A torn last line (a killed task) does not count.
        std::fs::write(p.shard_records(2), lines(partial) + "{\"instance\":").unwrap();
        assert_eq!(incomplete_shards(&p).unwrap(), [2, 3]);
        std::fs::write(p.shard_records(3), lines(&p.shard_keys[2])).unwrap();
        assert_eq!(incomplete_shards(&p).unwrap(), [2]);
        // A shard being written (its task running) is refused, not submitted twice.
        let lock = RecordLock::acquire(&p.shard_records(2)).unwrap();
        let e = incomplete_shards(&p).unwrap_err();
        assert!(matches!(e, HarnessError::Busy { .. }), "{e}");
        drop(lock);
        assert_eq!(incomplete_shards(&p).unwrap(), [2]);
        std::fs::write(p.shard_records(2), lines(&p.shard_keys[1])).unwrap();
        assert_eq!(incomplete_shards(&p).unwrap(), Vec::<usize>::new());
    }

    #[test]
    fn a_shard_whose_peers_have_not_run_is_incomplete_unless_the_tasks_run_without_them() {
        let dir = tempfile::tempdir().unwrap();
        let exp = experiment(dir.path(), &format!("peers = [\"cp-sat\"]\n{SOLVE}"));
        let backend_lines = |p: &SlurmPlan, k: usize| -> String {
            (p.shard_keys[k].iter())
                .filter(|(_, b, _)| b != "cp-sat")
                .map(|(i, b, r)| Record::new(i, b, "brute", Task::Solve, *r).to_line() + "\n")
                .collect()
        };
        let with = plan(&exp, dir.path(), Path::new("/z"), request(2, 1)).unwrap();
        let without = SlurmRequest {
            no_peers: true,
            ..request(2, 1)
        };
        let without = plan(&exp, dir.path(), Path::new("/z"), without).unwrap();
        // 5 instances, 3 repetitions: 2 backends in both plans, the peer in one.
        let runs = |p: &SlurmPlan| p.shard_keys.iter().map(Vec::len).sum::<usize>();
        assert_eq!((runs(&with), runs(&without)), (45, 30));
        for k in 0..2 {
            std::fs::write(with.shard_records(k + 1), backend_lines(&with, k)).unwrap();
        }
        // The backends' runs alone: complete for tasks without peers, not for tasks with them.
        assert_eq!(incomplete_shards(&without).unwrap(), Vec::<usize>::new());
        assert_eq!(incomplete_shards(&with).unwrap(), [1, 2]);
        let peer_lines: String = (with.shard_keys[0].iter())
            .filter(|(_, b, _)| b == "cp-sat")
            .map(|(i, b, r)| Record::new(i, b, "peer", Task::Solve, *r).to_line() + "\n")
            .collect();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(with.shard_records(1))
            .unwrap();
        std::io::Write::write_all(&mut file, peer_lines.as_bytes()).unwrap();
        assert_eq!(incomplete_shards(&with).unwrap(), [2]);
    }
}
