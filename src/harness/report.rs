//! Reports from records: `NAME.md` (per-backend table, extra figures, disagreements, errors,
//! and a header with machine, commit and command), `NAME.csv` (one row per run) and the plots.
//!
//! Every file is written through a temporary file and a rename. Everything is computed from the
//! record file alone, so `zeroone merge` and `zeroone run --resume` produce the same reports as
//! an uninterrupted run.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::backend::Status;
use crate::harness::experiment::{Experiment, Output, Task};
use crate::harness::plan::job_keys;
use crate::harness::record::{read_records, Record, RunKey};
use crate::harness::store::records_path;
use crate::harness::{plot, write_atomically, HarnessError};
use crate::worker::LimitBy;

pub use crate::harness::record::{median, quantile};

/// Where and how a report was made: the header of `NAME.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// Logical cores and CPU model of the machine that wrote the report.
    pub machine: String,
    /// The zeroone builds (version and commit, from the records) that made the records.
    pub commit: String,
    /// The command that made the records (or rewrote the report).
    pub command: String,
}

impl Provenance {
    /// The machines and zeroone builds (version and commit) named by `records`: each record
    /// carries them; records of the first format carry none, and then the machine writing the
    /// report is named as such. Starts no program.
    pub fn of(records: &[Record], command: &str) -> Provenance {
        let list = |items: BTreeSet<String>, unrecorded: usize| {
            let mut out: Vec<String> = items.into_iter().collect();
            if unrecorded > 0 {
                out.push(format!("not recorded in {unrecorded} records"));
            }
            out.join("; ")
        };
        let builds: BTreeSet<String> = records
            .iter()
            .filter_map(|r| match (&r.version, &r.commit) {
                (Some(v), Some(c)) => Some(format!("zeroone {v} ({c})")),
                _ => None,
            })
            .collect();
        let no_build = records.iter().filter(|r| r.commit.is_none()).count();
        let machines: BTreeSet<String> = records.iter().filter_map(|r| r.machine.clone()).collect();
        let no_machine = records.iter().filter(|r| r.machine.is_none()).count();
        let machine = if machines.is_empty() {
            format!(
                "not recorded (this report was written on {})",
                crate::harness::record::machine()
            )
        } else {
            list(machines, no_machine)
        };
        Provenance {
            machine,
            commit: if builds.is_empty() {
                "not recorded".into()
            } else {
                list(builds, no_build)
            },
            command: command.to_string(),
        }
    }
}

/// Per-backend figures of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendSummary {
    /// Label.
    pub label: String,
    /// Registry name.
    pub name: String,
    /// Runs on record.
    pub runs: usize,
    /// Runs per verified status.
    pub solved: usize,
    /// Runs that proved infeasibility.
    pub infeasible: usize,
    /// Runs a sound backend could not decide.
    pub unknown: usize,
    /// Runs stopped by a limit (count limit, or the time limit the backend honours itself).
    pub limit: usize,
    /// Runs out of time.
    pub timeout: usize,
    /// Runs out of memory.
    pub memout: usize,
    /// Runs whose worker died.
    pub crash: usize,
    /// Runs the backend refused (model too large for it, ability missing).
    pub unsupported: usize,
    /// Runs that failed or gave a rejected answer.
    pub error: usize,
    /// Runs whose answer passed the verifier.
    pub verified: usize,
    /// Counting runs that ended `solved` with nothing for the verifier to check (a counter
    /// such as `dp` returns a number, no witness); never part of `verified`.
    pub unwitnessed_counts: usize,
    /// Median and 90th percentile over instances of the per-instance median time of the
    /// answered (solved or infeasible) runs.
    pub median_seconds: Option<f64>,
    /// See `median_seconds`.
    pub p90_seconds: Option<f64>,
    /// Median search nodes over runs that report nodes.
    pub median_nodes: Option<f64>,
    /// Ratio of this backend's median time to the baseline's, over the instances both
    /// answered, and how many those are.
    pub ratio: Option<(f64, usize)>,
    /// PAR-2 score: the mean over runs of the time of an answered run and twice the time limit
    /// for a run that ended `limit`, `timeout`, `memout` or `crash` (runs ending `unknown`,
    /// `unsupported` or `error` are left out). `None` without a time limit.
    pub par2: Option<f64>,
    /// Median CPU seconds (user + system of the worker) over runs that measured it.
    pub median_cpu_seconds: Option<f64>,
    /// Largest peak resident set (MB) over runs that measured it.
    pub max_rss_mb: Option<f64>,
}

/// Records of the experiment in job order (instance order, backend order, repetition).
pub fn in_job_order(experiment: &Experiment, records: Vec<Record>, ids: &[String]) -> Vec<Record> {
    let order: HashMap<RunKey, usize> = job_keys(experiment, ids)
        .into_iter()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let mut keyed: Vec<(usize, Record)> = records
        .into_iter()
        .map(|r| (order.get(&r.key()).copied().unwrap_or(usize::MAX), r))
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.key().cmp(&b.1.key())));
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// Per-instance median time of `label`'s answered runs.
fn answered_times(records: &[Record], label: &str) -> BTreeMap<String, f64> {
    let mut by_instance: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in records
        .iter()
        .filter(|r| r.backend == label && r.status.is_answer())
    {
        by_instance
            .entry(r.instance.clone())
            .or_default()
            .push(r.seconds);
    }
    by_instance
        .into_iter()
        .filter_map(|(k, v)| median(&v).map(|m| (k, m)))
        .collect()
}

/// The PAR-2 score of `runs` under a time limit of `limit` seconds (see
/// [`BackendSummary::par2`]).
pub fn par2(runs: &[&Record], limit: f64) -> Option<f64> {
    let scores: Vec<f64> = runs
        .iter()
        .filter_map(|r| {
            if r.status.is_answer() {
                Some(r.seconds.min(limit))
            } else if r.status.is_par2_penalty() {
                Some(2.0 * limit)
            } else {
                None
            }
        })
        .collect();
    (!scores.is_empty()).then(|| scores.iter().sum::<f64>() / scores.len() as f64)
}

fn ratio_to(base: &BTreeMap<String, f64>, own: &BTreeMap<String, f64>) -> Option<(f64, usize)> {
    let common: Vec<(f64, f64)> = own
        .iter()
        .filter_map(|(k, t)| base.get(k).map(|bt| (*t, *bt)))
        .collect();
    let (a, z): (Vec<f64>, Vec<f64>) = common.iter().copied().unzip();
    match (median(&a), median(&z)) {
        (Some(x), Some(y)) if y > 0.0 => Some((x / y, common.len())),
        _ => None,
    }
}

fn summary_of(
    experiment: &Experiment,
    records: &[Record],
    (label, name): (String, String),
    baseline: Option<&BTreeMap<String, f64>>,
) -> BackendSummary {
    let mine: Vec<&Record> = records.iter().filter(|r| r.backend == label).collect();
    let count = |s: Status| mine.iter().filter(|r| r.status == s).count();
    let own = answered_times(records, &label);
    let times: Vec<f64> = own.values().copied().collect();
    let nodes: Vec<f64> = mine
        .iter()
        .filter(|r| r.stats.nodes > 0)
        .map(|r| r.stats.nodes as f64)
        .collect();
    let cpu: Vec<f64> = mine.iter().filter_map(|r| r.cpu_seconds).collect();
    let rss = mine
        .iter()
        .filter_map(|r| r.peak_rss_mb)
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    BackendSummary {
        runs: mine.len(),
        solved: count(Status::Solved),
        infeasible: count(Status::Infeasible),
        unknown: count(Status::Unknown),
        limit: count(Status::Limit),
        timeout: count(Status::Timeout),
        memout: count(Status::Memout),
        crash: count(Status::Crash),
        unsupported: count(Status::Unsupported),
        error: count(Status::Error),
        verified: mine.iter().filter(|r| r.verified).count(),
        unwitnessed_counts: mine
            .iter()
            .filter(|r| r.task == Task::Count && r.status == Status::Solved && !r.verified)
            .count(),
        median_seconds: median(&times),
        p90_seconds: quantile(&times, 0.9),
        median_nodes: median(&nodes),
        ratio: baseline.and_then(|base| ratio_to(base, &own)),
        par2: experiment
            .time_limit
            .and_then(|t| par2(&mine, t.as_secs_f64())),
        median_cpu_seconds: median(&cpu),
        max_rss_mb: rss,
        label,
        name,
    }
}

/// The per-backend summaries of `records`.
pub fn summarise(experiment: &Experiment, records: &[Record]) -> Vec<BackendSummary> {
    let baseline = experiment
        .baseline
        .as_ref()
        .map(|b| answered_times(records, b));
    experiment
        .labels()
        .into_iter()
        .filter(|(label, name)| name != "peer" || records.iter().any(|r| &r.backend == label))
        .map(|pair| summary_of(experiment, records, pair, baseline.as_ref()))
        .collect()
}

/// Seconds in a short fixed form (`1.23e-4`).
pub fn seconds_text(s: Option<f64>) -> String {
    s.map_or("-".into(), |s| format!("{s:.3e}"))
}

/// The header lines about limits, workers and repetitions, from the records: who enforced
/// the time limit (the backend itself, or the parent killing its worker), the memory limit,
/// and `--jobs`.
fn limits_header(experiment: &Experiment, records: &[Record]) -> String {
    let mut md = String::new();
    let mut limit = match experiment.time_limit {
        Some(t) => format!("{} s per run", t.as_secs_f64()),
        None => "none".into(),
    };
    let by = |who: LimitBy| -> Vec<&str> {
        experiment
            .backends
            .iter()
            .filter(|b| {
                records
                    .iter()
                    .any(|r| r.backend == b.label && r.limit_by == Some(who))
            })
            .map(|b| b.label.as_str())
            .collect()
    };
    let (own, parent) = (by(LimitBy::Backend), by(LimitBy::Parent));
    if !own.is_empty() {
        let _ = write!(limit, "; stopped by the backend itself: {}", own.join(", "));
    }
    if !parent.is_empty() {
        let _ = write!(
            limit,
            "; enforced by killing the worker (the backend cannot stop itself): {}",
            parent.join(", ")
        );
    }
    let _ = writeln!(md, "- time limit: {limit}");
    let memory: BTreeSet<u64> = records
        .iter()
        .filter_map(|r| r.options.memory_limit)
        .collect();
    let memory = if memory.is_empty() {
        experiment
            .memory_limit
            .map_or("none".into(), |m| format!("{m} MB per run"))
    } else {
        let list: Vec<String> = memory.iter().map(|m| format!("{m} MB")).collect();
        format!("{} per run (address space of its worker)", list.join(", "))
    };
    let _ = writeln!(md, "- memory limit: {memory}");
    let jobs: BTreeSet<usize> = records.iter().filter_map(|r| r.jobs).collect();
    if !jobs.is_empty() {
        let list: Vec<String> = jobs.iter().map(usize::to_string).collect();
        let _ = writeln!(md, "- worker processes (`--jobs`): {}", list.join(", "));
    }
    let _ = writeln!(md, "- repetitions: {}", experiment.repetitions);
    let options: Vec<String> = experiment
        .backends
        .iter()
        .filter_map(|b| records.iter().find(|r| r.backend == b.label))
        .map(|r| {
            let params: Vec<String> = r
                .options
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let params = if params.is_empty() {
                String::new()
            } else {
                format!(", {}", params.join(", "))
            };
            format!(
                "`{}` ({} seed {}{params})",
                r.backend, r.name, r.options.seed
            )
        })
        .collect();
    if !options.is_empty() {
        let _ = writeln!(md, "- backend options on record: {}", options.join("; "));
    }
    md
}

/// The header: command, builds, machine, limits, runs on record.
fn header(
    experiment: &Experiment,
    records: &[Record],
    expected_runs: usize,
    provenance: &Provenance,
    redact_times: bool,
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Experiment `{}`\n", experiment.name);
    if !experiment.description.is_empty() {
        let _ = writeln!(md, "{}\n", experiment.description.trim());
    }
    let (machine, commit, command) = if redact_times {
        ("~".into(), "~".into(), "~".into())
    } else {
        (
            provenance.machine.clone(),
            provenance.commit.clone(),
            provenance.command.clone(),
        )
    };
    let _ = writeln!(md, "- command: `{command}`");
    let _ = writeln!(md, "- zeroone: {commit}");
    let _ = writeln!(md, "- machine: {machine}");
    md.push_str(&limits_header(experiment, records));
    let instances: BTreeSet<&str> = records.iter().map(|r| r.instance.as_str()).collect();
    let peer_rows = records
        .iter()
        .filter(|r| experiment.peers.contains(&r.backend))
        .count();
    let own_rows = records.len() - peer_rows;
    let _ = write!(
        md,
        "- runs on record: {own_rows} of {expected_runs} ({} instances)",
        instances.len()
    );
    if peer_rows > 0 {
        let _ = write!(md, ", plus {peer_rows} rows from peer solvers");
    }
    let _ = writeln!(md);
    if own_rows < expected_runs {
        let _ = writeln!(
            md,
            "\n**Incomplete:** {} runs are missing; `zeroone run --resume` continues the run.",
            expected_runs - own_rows
        );
    }
    md
}

/// The per-backend table and its note.
fn backend_table(experiment: &Experiment, records: &[Record], redact_times: bool) -> String {
    let time = |s: Option<f64>| match s {
        Some(_) if redact_times => "~".to_string(),
        _ => seconds_text(s),
    };
    let mut md = String::new();
    let summaries = summarise(experiment, records);
    let _ = writeln!(md, "\n## Results per backend\n");
    let base = experiment.baseline.as_deref().unwrap_or("-");
    let _ = writeln!(
        md,
        "| backend | runs | solved | infeasible | unknown | limit | timeout | memout | crash | unsupported | error | verified | median s | p90 s | PAR-2 s | median cpu s | peak MB | median nodes | ratio to `{base}` |"
    );
    let _ = writeln!(
        md,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for s in &summaries {
        let ratio = match s.ratio {
            Some((r, n)) if !redact_times => format!("{r:.3} (n={n})"),
            Some((_, n)) => format!("~ (n={n})"),
            None => "-".into(),
        };
        let label = if s.label == s.name {
            format!("`{}`", s.label)
        } else {
            format!("`{}` ({})", s.label, s.name)
        };
        let verified = if s.unwitnessed_counts > 0 {
            format!(
                "{} ({} counts, no witness)",
                s.verified, s.unwitnessed_counts
            )
        } else {
            s.verified.to_string()
        };
        let rss = match s.max_rss_mb {
            Some(_) if redact_times => "~".to_string(),
            Some(m) => format!("{m:.0}"),
            None => "-".into(),
        };
        let _ = writeln!(
            md,
            "| {label} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {verified} | {} | {} | {} | {} | {rss} | {} | {ratio} |",
            s.runs,
            s.solved,
            s.infeasible,
            s.unknown,
            s.limit,
            s.timeout,
            s.memout,
            s.crash,
            s.unsupported,
            s.error,
            time(s.median_seconds),
            time(s.p90_seconds),
            time(s.par2),
            time(s.median_cpu_seconds),
            s.median_nodes.map_or("-".into(), |n| format!("{n:.0}")),
        );
    }
    let _ = writeln!(
        md,
        "\nTimes are seconds inside the backend, over the answered runs (solved or proved infeasible): the median over repetitions for each instance, then the median and 90th percentile over instances. \
         The ratio is this backend's median time over the instances both it and the baseline answered, \
         divided by the baseline's median on the same instances; below 1 is faster. \
         PAR-2 is the mean over runs of the answered runs' times and twice the time limit for each `limit`, `timeout`, `memout` or `crash` (`unknown`, `unsupported` and `error` runs are left out). \
         Runs execute in worker processes: cpu s is the median of a worker's user + system time during a run, peak MB the largest peak resident set of any run. \
         Timings on a shared machine are noisy; counts and statuses are exact. \
         A counting run is `solved` when its count is complete and `limit` when it stopped at the count limit or the time limit (the partial count is kept); `verified` counts the runs whose answer or count witnesses passed the verifier, \
         so a counter that returns only a number (`dp`) shows its counts apart; they are checked against the other backends' exhaustive counts under \"Disagreements\"."
    );
    md
}

/// The Markdown report, from the records alone (`expected_runs`: the runs the whole experiment
/// has). With `redact_times`, every timing (and the provenance header) is replaced by `~`,
/// leaving only the deterministic parts: the form snapshot tests compare.
pub fn render_markdown(
    experiment: &Experiment,
    records: &[Record],
    expected_runs: usize,
    provenance: &Provenance,
    redact_times: bool,
) -> String {
    let mut md = header(experiment, records, expected_runs, provenance, redact_times);
    md.push_str(&backend_table(experiment, records, redact_times));
    md.push_str(&group_table(experiment, records, redact_times));
    md.push_str(&rest_of_report(experiment, records));
    md
}

/// Counts, backend figures, disagreements and the runs without an answer.
fn rest_of_report(experiment: &Experiment, records: &[Record]) -> String {
    let mut md = String::new();

    let counts: Vec<&Record> = records
        .iter()
        .filter(|r| r.count.is_some() && r.repetition == 0)
        .collect();
    if !counts.is_empty() && counts.len() <= 60 {
        let _ = writeln!(md, "\n## Counts\n");
        let _ = writeln!(md, "| instance | backend | count | exhaustive |");
        let _ = writeln!(md, "|---|---|---:|---|");
        for r in &counts {
            let _ = writeln!(
                md,
                "| {} | `{}` | {} | {} |",
                r.instance,
                r.backend,
                r.count.as_deref().unwrap_or("-"),
                r.exhaustive.map_or("-", |e| if e { "yes" } else { "no" })
            );
        }
    } else if !counts.is_empty() {
        // Too many to list: how many instances got each count (the CSV has every row).
        // Keyed so counts sort numerically (shorter decimal first).
        let mut tally: BTreeMap<(&str, bool, usize, &str), usize> = BTreeMap::new();
        for r in &counts {
            let count = r.count.as_deref().unwrap_or("-");
            *tally
                .entry((
                    r.backend.as_str(),
                    r.exhaustive == Some(true),
                    count.len(),
                    count,
                ))
                .or_default() += 1;
        }
        let _ = writeln!(
            md,
            "\n## Counts (instances per count; every row is in the CSV)\n"
        );
        let _ = writeln!(md, "| backend | count | exhaustive | instances |");
        let _ = writeln!(md, "|---|---:|---|---:|");
        for ((backend, exhaustive, _, count), n) in tally.iter().take(100) {
            let _ = writeln!(
                md,
                "| `{backend}` | {count} | {} | {n} |",
                if *exhaustive { "yes" } else { "no" }
            );
        }
    }

    let extras = extra_figures(experiment, records);
    if !extras.is_empty() {
        let _ = writeln!(md, "\n## Backend figures\n");
        let _ = writeln!(md, "| backend | figure | value |");
        let _ = writeln!(md, "|---|---|---|");
        for (label, key, value) in extras {
            let _ = writeln!(md, "| `{label}` | {key} | {value} |");
        }
    }

    let disagreements = disagreements(records);
    let _ = writeln!(md, "\n## Disagreements\n");
    if disagreements.is_empty() {
        let _ = writeln!(
            md,
            "None: every instance answered by two or more backends got the same answer."
        );
    } else {
        for d in disagreements.iter().take(50) {
            let _ = writeln!(md, "- {d}");
        }
        if disagreements.len() > 50 {
            let _ = writeln!(md, "- ... {} more", disagreements.len() - 50);
        }
    }

    let errors: Vec<&Record> = records
        .iter()
        .filter(|r| !r.status.is_answer() && r.status != Status::Limit)
        .collect();
    if !errors.is_empty() {
        let _ = writeln!(md, "\n## Runs without an answer (first 20)\n");
        let _ = writeln!(md, "| instance | backend | status | reason |");
        let _ = writeln!(md, "|---|---|---|---|");
        for r in errors.iter().take(20) {
            let reason = r.reason.as_deref().unwrap_or("").replace('|', "\\|");
            let _ = writeln!(
                md,
                "| {} | `{}` | {} | {} |",
                r.instance,
                r.backend,
                r.status.name(),
                reason
            );
        }
    }
    md
}

/// Per (group, backend): runs, solved share, median time and steps. Empty when all instances
/// are in one group.
fn group_table(experiment: &Experiment, records: &[Record], redact_times: bool) -> String {
    let mut groups: Vec<&str> = Vec::new();
    for r in records {
        let g = r.group_name();
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    if groups.len() < 2 {
        return String::new();
    }
    let mut md = String::from("\n## Results per source\n\n");
    md.push_str(
        "| source | backend | runs | solved | solved % | error | median s | median steps |\n",
    );
    md.push_str("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for g in groups {
        for (label, _) in experiment.labels() {
            let mine: Vec<&Record> = records
                .iter()
                .filter(|r| r.backend == label && r.group_name() == g)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let solved = mine.iter().filter(|r| r.status == Status::Solved).count();
            let errors = mine.iter().filter(|r| r.status == Status::Error).count();
            let times: Vec<f64> = mine.iter().map(|r| r.seconds).collect();
            let steps: Vec<f64> = mine
                .iter()
                .filter(|r| r.stats.steps > 0)
                .map(|r| r.stats.steps as f64)
                .collect();
            let _ = writeln!(
                md,
                "| {g} | `{label}` | {} | {solved} | {:.1} | {errors} | {} | {} |",
                mine.len(),
                100.0 * solved as f64 / mine.len() as f64,
                if redact_times {
                    "~".to_string()
                } else {
                    seconds_text(median(&times))
                },
                median(&steps).map_or("-".into(), |m| format!("{m:.0}")),
            );
        }
    }
    md
}

/// Backend-specific figures (`stats.extra`): booleans as "true in k of n runs", numbers as a
/// median. Sorted by backend order, then key.
fn extra_figures(experiment: &Experiment, records: &[Record]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (label, _) in experiment.labels() {
        let mut keys: BTreeMap<&str, (usize, usize, Vec<f64>)> = BTreeMap::new();
        for r in records.iter().filter(|r| r.backend == label) {
            for (k, v) in &r.stats.extra {
                let e = keys.entry(k.as_str()).or_default();
                match v {
                    serde_json::Value::Bool(t) => {
                        e.0 += *t as usize;
                        e.1 += 1;
                    }
                    serde_json::Value::Number(n) => {
                        if let Some(x) = n.as_f64() {
                            e.2.push(x);
                        }
                    }
                    _ => {}
                }
            }
        }
        for (k, (trues, bools, numbers)) in keys {
            if bools > 0 {
                out.push((
                    label.clone(),
                    k.to_string(),
                    format!("true in {trues} of {bools} runs"),
                ));
            }
            if let Some(m) = median(&numbers) {
                out.push((
                    label.clone(),
                    k.to_string(),
                    format!("median {m} over {} runs", numbers.len()),
                ));
            }
        }
    }
    out
}

/// Instances where two backends answered differently (solved against infeasible, or two
/// exhaustive counts that differ).
pub fn disagreements(records: &[Record]) -> Vec<String> {
    let mut by_instance: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_instance.entry(&r.instance).or_default().push(r);
    }
    let mut out = Vec::new();
    for (inst, rs) in by_instance {
        let solved: Vec<&str> = rs
            .iter()
            .filter(|r| r.status == Status::Solved && r.count.is_none())
            .map(|r| r.backend.as_str())
            .collect();
        let infeasible: Vec<&str> = rs
            .iter()
            .filter(|r| r.status == Status::Infeasible)
            .map(|r| r.backend.as_str())
            .collect();
        if !solved.is_empty() && !infeasible.is_empty() {
            out.push(format!(
                "{inst}: solved by {} but called infeasible by {}",
                solved.join(", "),
                infeasible.join(", ")
            ));
        }
        let counts: BTreeMap<&str, Vec<&str>> = rs
            .iter()
            .filter(|r| r.exhaustive == Some(true))
            .filter_map(|r| r.count.as_deref().map(|c| (c, r.backend.as_str())))
            .fold(BTreeMap::new(), |mut m, (c, b)| {
                m.entry(c).or_insert_with(Vec::new).push(b);
                m
            });
        if counts.len() > 1 {
            let parts: Vec<String> = counts
                .iter()
                .map(|(c, bs)| format!("{c} ({})", bs.join(", ")))
                .collect();
            out.push(format!("{inst}: counts differ: {}", parts.join(" vs ")));
        }
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV report: one row per run, in job order.
pub fn render_csv(records: &[Record]) -> String {
    let mut out = String::from(
        "instance,backend,name,task,repetition,status,verified,seconds,nodes,steps,guesses,backtracks,count,exhaustive,variables,rows,reason,wall_seconds,cpu_seconds,peak_rss_mb,limit_by,group,size\n",
    );
    for r in records {
        let fields = [
            csv_field(&r.instance),
            csv_field(&r.backend),
            csv_field(&r.name),
            r.task.name().to_string(),
            r.repetition.to_string(),
            r.status.name().to_string(),
            r.verified.to_string(),
            format!("{:e}", r.seconds),
            r.stats.nodes.to_string(),
            r.stats.steps.to_string(),
            r.stats.guesses.to_string(),
            r.stats.backtracks.to_string(),
            r.count.clone().unwrap_or_default(),
            r.exhaustive.map_or(String::new(), |e| e.to_string()),
            r.variables.to_string(),
            r.rows.to_string(),
            csv_field(r.reason.as_deref().unwrap_or("")),
            r.wall_seconds.map_or(String::new(), |x| format!("{x:e}")),
            r.cpu_seconds.map_or(String::new(), |x| format!("{x:e}")),
            r.peak_rss_mb.map_or(String::new(), |x| format!("{x:.1}")),
            r.limit_by
                .map_or("", |l| match l {
                    LimitBy::Backend => "backend",
                    LimitBy::Parent => "parent",
                })
                .to_string(),
            csv_field(r.group_name()),
            r.size.map_or(String::new(), |x| x.to_string()),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The records of `experiment` among `records`, in job order, and the runs the whole
/// experiment has, computed from the records alone: a record counts when its label is one of
/// the experiment's (a peer's label included), its repetition is below `repetitions`, and its
/// instance position (when recorded) is within the recorded instance count. Records of the
/// first format carry no positions: they keep their file order, and the instances on record
/// stand for the experiment's.
pub fn experiment_records(experiment: &Experiment, records: Vec<Record>) -> (Vec<Record>, usize) {
    let labels: Vec<String> = experiment.labels().into_iter().map(|(l, _)| l).collect();
    let records: Vec<Record> = records
        .into_iter()
        .filter(|r| {
            let peer = experiment.peers.contains(&r.backend);
            labels.contains(&r.backend)
                && (peer || r.repetition < experiment.repetitions)
                && match (r.position, r.instances) {
                    (Some(p), Some(n)) => p < n,
                    _ => true,
                }
        })
        .collect();
    let instances = records
        .iter()
        .filter_map(|r| r.instances)
        .max()
        .unwrap_or_else(|| {
            records
                .iter()
                .map(|r| r.instance.as_str())
                .collect::<BTreeSet<_>>()
                .len()
        });
    let expected = instances * experiment.backends.len() * experiment.repetitions as usize;
    // Job order: instance position (or, without one, where the instance first appears), then
    // the label's place in the experiment, then the repetition.
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        first_seen.entry(r.instance.clone()).or_insert(i);
    }
    let mut keyed: Vec<((usize, usize, usize, u32), Record)> = records
        .into_iter()
        .map(|r| {
            let (has, at) = match r.position {
                Some(p) => (0, p),
                None => (1, first_seen[&r.instance]),
            };
            let label = labels
                .iter()
                .position(|l| *l == r.backend)
                .unwrap_or(usize::MAX);
            ((has, at, label, r.repetition), r)
        })
        .collect();
    keyed.sort_by_key(|(k, _)| *k);
    (keyed.into_iter().map(|(_, r)| r).collect(), expected)
}

/// Reads the experiment's record file from `dir` and writes the reports its `outputs` name,
/// from the records alone: no puzzle source is read, no backend made, no program started.
/// Returns the files written.
pub fn write_reports(
    experiment: &Experiment,
    dir: &Path,
    command: &str,
) -> Result<Vec<PathBuf>, HarnessError> {
    let path = records_path(dir, experiment, None);
    let (records, _) = read_records(&path, false)?;
    let (records, expected) = experiment_records(experiment, records);
    let provenance = Provenance::of(&records, command);
    let mut written = Vec::new();
    for output in &experiment.outputs {
        let (file, contents) = match output {
            Output::Markdown => (
                dir.join(format!("{}.md", experiment.name)),
                render_markdown(experiment, &records, expected, &provenance, false),
            ),
            Output::Csv => (
                dir.join(format!("{}.csv", experiment.name)),
                render_csv(&records),
            ),
            Output::TimePlot => {
                let file = dir.join(format!("{}.time.svg", experiment.name));
                let svg = plot::time_distribution(experiment, &records).map_err(|message| {
                    HarnessError::Plot {
                        path: file.clone(),
                        message,
                    }
                })?;
                (file, svg)
            }
            Output::SizePlot => continue,
        };
        write_atomically(&file, contents.as_bytes())?;
        written.push(file);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counting run; `dp` (like the real one) returns no witness, so it is never `verified`.
    fn count(instance: &str, backend: &str, value: &str, exhaustive: bool) -> Record {
        Record {
            status: if exhaustive {
                Status::Solved
            } else {
                Status::Limit
            },
            verified: backend != "dp",
            seconds: 0.1,
            count: Some(value.into()),
            exhaustive: Some(exhaustive),
            variables: 4,
            rows: 3,
            ..Record::new(instance, backend, backend, Task::Count, 0)
        }
    }

    fn run(backend: &str, instance: &str, status: Status, seconds: f64) -> Record {
        Record {
            status,
            seconds,
            ..Record::new(instance, backend, backend, Task::Solve, 0)
        }
    }

    #[test]
    fn only_answers_enter_ratios_and_par2_charges_twice_the_limit() {
        let exp = Experiment::from_text(
            Path::new("e.toml"),
            "time_limit = 10
baseline = \"a\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\nlabel = \"a\"\n[[backends]]\nname = \"brute\"\nlabel = \"b\"\n",
        )
        .unwrap();
        let records = [
            run("a", "x", Status::Solved, 1.0),
            run("a", "y", Status::Solved, 2.0),
            run("a", "z", Status::Infeasible, 3.0),
            run("b", "x", Status::Solved, 2.0),
            // Killed at the limit: not a time for the ratio, twice the limit for PAR-2.
            run("b", "y", Status::Timeout, 11.0),
            run("b", "z", Status::Memout, 0.5),
            run("b", "w", Status::Unknown, 0.1),
        ];
        let s = summarise(&exp, &records);
        assert_eq!(s[0].par2, Some(2.0));
        assert_eq!((s[1].timeout, s[1].memout, s[1].unknown), (1, 1, 1));
        // b answered only x: 2.0 against a's 1.0 on the same instance.
        assert_eq!(s[1].ratio, Some((2.0, 1)));
        assert_eq!(s[1].median_seconds, Some(2.0));
        // (2 + 20 + 20) / 3; the unknown run is left out.
        assert_eq!(s[1].par2, Some(14.0));
    }

    #[test]
    fn exhaustive_counts_that_differ_are_a_disagreement_and_cut_counts_are_not() {
        let records = [
            count("a", "enum", "25231", true),
            count("a", "dp", "25230", true),
            count("b", "enum", "7", true),
            count("b", "dp", "7", true),
            // Cut by its limit: not a disagreement.
            count("c", "enum", "10", false),
            count("c", "dp", "12", true),
        ];
        assert_eq!(
            disagreements(&records),
            vec!["a: counts differ: 25230 (dp) vs 25231 (enum)".to_string()]
        );
    }
}
