//! Reports from records: `NAME.md` (per-backend table, extra figures, disagreements, errors,
//! and a header with machine, commit and command), `NAME.csv` (one row per run) and the plots.
//!
//! Every file is written through a temporary file and a rename. Everything is computed from the
//! record file alone, so `zeroone merge` and `zeroone run --resume` produce the same reports as
//! an uninterrupted run.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::backend::worker::LimitBy;
use crate::backend::Status;
use crate::harness::experiment::{Experiment, Output, Task};
use crate::harness::figures::{self, FigureValue};
use crate::harness::plan::job_keys;
use crate::harness::record::{read_records, Record, RunKey};
use crate::harness::store::records_path;
use crate::harness::{plot, stats, write_atomically, HarnessError};
use crate::output::{markdown_code, markdown_text};

pub use crate::harness::record::{median, quantile};
pub use crate::harness::stats::par2;
use crate::harness::stats::ratio_to;

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
        // Peer rows (outside solvers) carry their package's version, not a zeroone build.
        let (peers, own): (Vec<&Record>, Vec<&Record>) =
            records.iter().partition(|r| r.name == "peer");
        let builds: BTreeSet<String> =
            own.iter()
                .filter_map(|r| match (&r.version, &r.commit) {
                    (Some(v), Some(c)) => Some(format!("zeroone {v} ({c})")),
                    _ => None,
                })
                .chain(peers.iter().filter_map(|r| {
                    r.options.params.get("version").map(|v| {
                        format!("peer {}: {}", markdown_code(&r.backend), markdown_text(v))
                    })
                }))
                .collect();
        let no_build = own.iter().filter(|r| r.commit.is_none()).count();
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
        // A verified solution: `solved`, or on a model with an objective `optimal` or
        // `feasible` (the optimisation section tells those apart).
        solved: mine.iter().filter(|r| r.status.has_solution()).count(),
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

/// A time with its unit (`123 us`, `12.1 ms`, `2.31 s`; see [`crate::render::duration_text`]),
/// `-` when absent.
pub fn seconds_text(s: Option<f64>) -> String {
    s.map_or("-".into(), crate::render::duration_text)
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
                "{} ({} seed {}{})",
                markdown_code(&r.backend),
                r.name,
                r.options.seed,
                markdown_text(&params)
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
    let _ = writeln!(md, "# Experiment {}\n", markdown_code(&experiment.name));
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

/// A time for a table: `~` when redacted, `-` when absent.
fn time_cell(s: Option<f64>, redact_times: bool) -> String {
    match s {
        Some(_) if redact_times => "~".to_string(),
        _ => seconds_text(s),
    }
}

/// The label of a backend in the tables: `` `label` `` and its registry name when it differs.
fn label_cell(label: &str, name: &str) -> String {
    if label == name {
        markdown_code(label)
    } else {
        format!("{} ({})", markdown_code(label), markdown_text(name))
    }
}

/// A ratio with three significant digits (`0.0123`, `1.24`, `412`), in e-notation below 0.001.
fn ratio_text(r: f64) -> String {
    if r == 0.0 {
        "0".into()
    } else if r < 1e-3 {
        format!("{r:.2e}")
    } else if r < 1.0 {
        let decimals = (-r.log10().floor()) as usize + 2;
        format!("{r:.decimals$}")
    } else if r < 100.0 {
        format!("{r:.3}")
    } else {
        format!("{r:.0}")
    }
}

/// The status table (deterministic: statuses and verification only) and its note.
fn status_table(experiment: &Experiment, records: &[Record]) -> String {
    let mut md = String::from("\n## Statuses per backend\n\n");
    md.push_str("| backend | runs | solved | infeasible | unknown | limit | timeout | memout | crash | unsupported | error | verified |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for s in &summarise(experiment, records) {
        let verified = if s.unwitnessed_counts > 0 {
            format!(
                "{} ({} counts, no witness)",
                s.verified, s.unwitnessed_counts
            )
        } else {
            s.verified.to_string()
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {verified} |",
            label_cell(&s.label, &s.name),
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
        );
    }
    md.push_str(
        "\nA run is `solved` when the verifier accepted its answer; `unknown` when a sound but incomplete backend (or a peer) stopped without one; \
         `limit` when a count or search stopped at a limit (`--limit`, or the time limit for a count, which keeps its partial value); `timeout` when a run reached its time limit without an answer (stopped by the backend itself or by killing its worker); `memout` and `crash` when its worker ran out of memory or died; \
         `unsupported` when the backend refused the model. A counting run is `solved` when its count is complete; `verified` counts the runs whose answer or count witnesses passed the verifier, \
         so a counter that returns only a number (`dp`) shows its counts apart; they are checked against the other backends' exhaustive counts under \"Disagreements\".\n",
    );
    md
}

/// Labels with records, in experiment order, with their registry names (`peer` for peers),
/// and the peers listed but without records.
fn present_labels(
    experiment: &Experiment,
    records: &[Record],
) -> (Vec<(String, String)>, Vec<String>) {
    let (with, without): (Vec<_>, Vec<_>) = experiment
        .labels()
        .into_iter()
        .partition(|(l, _)| records.iter().any(|r| &r.backend == l));
    let missing = without
        .into_iter()
        .filter(|(_, n)| n == "peer")
        .map(|(l, _)| l)
        .collect();
    (with, missing)
}

/// One competition table over `records` (all sources, or one).
fn competition_rows(
    experiment: &Experiment,
    records: &[&Record],
    labels: &[(String, String)],
    redact_times: bool,
    full: bool,
) -> String {
    let t = |s: Option<f64>| time_cell(s, redact_times);
    let names: Vec<String> = labels.iter().map(|(l, _)| l.clone()).collect();
    let rows = stats::competition(
        records,
        &names,
        experiment.baseline.as_deref(),
        experiment.time_limit.map(|d| d.as_secs_f64()),
    );
    let base = markdown_code(experiment.baseline.as_deref().unwrap_or("-"));
    let mut md = String::new();
    if full {
        let _ = writeln!(md, "| backend | answered | PAR-2 | median | mean | p90 | max | median cpu | mean cpu | spread over reps | peak MB | ratio to {base} | fastest on |");
        md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    } else {
        let _ = writeln!(md, "| backend | answered | PAR-2 | median | p90 | max | median cpu | ratio to {base} | fastest on |");
        md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    }
    for c in &rows {
        let label = match labels.iter().find(|(l, _)| *l == c.label) {
            Some((l, n)) => label_cell(l, n),
            None => "**VBS** (virtual best)".to_string(),
        };
        let ratio = match c.ratio {
            Some((r, n)) if !redact_times => format!("{} (n={n})", ratio_text(r)),
            Some((_, n)) => format!("~ (n={n})"),
            None => "-".into(),
        };
        let fastest = if redact_times {
            "~".to_string()
        } else {
            c.fastest.to_string()
        };
        let answered = format!("{} of {}", c.answered, c.instances);
        if full {
            let spread = match c.spread {
                Some(_) if redact_times => "~".to_string(),
                Some(x) => format!("{:.0}%", 100.0 * x),
                None => "-".into(),
            };
            let rss = records
                .iter()
                .filter(|r| r.backend == c.label)
                .filter_map(|r| r.peak_rss_mb)
                .reduce(f64::max);
            let rss = match rss {
                Some(_) if redact_times => "~".to_string(),
                Some(m) => format!("{m:.0}"),
                None => "-".into(),
            };
            let _ = writeln!(
                md,
                "| {label} | {answered} | {} | {} | {} | {} | {} | {} | {} | {spread} | {rss} | {ratio} | {fastest} |",
                t(c.par2), t(c.time.median), t(c.time.mean), t(c.time.p90), t(c.time.max), t(c.cpu.median), t(c.cpu.mean),
            );
        } else {
            let _ = writeln!(
                md,
                "| {label} | {answered} | {} | {} | {} | {} | {} | {ratio} | {fastest} |",
                t(c.par2),
                t(c.time.median),
                t(c.time.p90),
                t(c.time.max),
                t(c.cpu.median),
            );
        }
    }
    md
}

/// The competition statistics over all sources, then per source, and their note.
fn backend_table(experiment: &Experiment, records: &[Record], redact_times: bool) -> String {
    let (labels, missing) = present_labels(experiment, records);
    let mut md = String::from("\n## Competition\n\n");
    if !missing.is_empty() {
        let _ = writeln!(
            md,
            "Peers without records in this run (not installed or not run; see experiments/peers/README.md): {}.\n",
            missing.iter().map(|m| markdown_code(m)).collect::<Vec<_>>().join(", ")
        );
    }
    let all: Vec<&Record> = records.iter().collect();
    md.push_str(&competition_rows(
        experiment,
        &all,
        &labels,
        redact_times,
        true,
    ));
    let limit = experiment
        .time_limit
        .map_or("no time limit: PAR-2 is not defined".to_string(), |t| {
            format!("a time limit of {} s", t.as_secs_f64())
        });
    let _ = writeln!(
        md,
        "\nPer instance, a backend's time is the median over its answered repetitions (solved or proved infeasible) of the seconds inside the backend (for a peer: its solve call), and its cpu time the median user + system CPU seconds of the same runs \
         (a zeroone run's worker process; a peer's Python process and its solver child); median, mean, p90 and max are then taken over the answered instances. \
         PAR-2 ({limit}) is the mean over runs of the answered runs' times and twice the limit for each `limit`, `timeout`, `memout` or `crash` (`unknown`, `unsupported` and `error` runs are left out). \
         Spread over reps is the median over instances of (slowest - fastest) / median of the answered repetitions. \
         The ratio is this backend's median time over the instances both it and the baseline answered, divided by the baseline's median on the same instances (n of them); below 1 is faster. \
         The VBS (virtual best solver) takes, per instance, the fastest answer of any solving backend or peer; \"fastest on\" counts the instances where a backend gave it. \
         Peak MB is the largest peak resident set of any run's worker. Timings on a shared machine are noisy; statuses and counts are exact."
    );
    let mut groups: Vec<&str> = Vec::new();
    for r in records {
        if !groups.contains(&r.group_name()) {
            groups.push(r.group_name());
        }
    }
    if groups.len() > 1 {
        md.push_str("\n## Competition per source\n");
        for g in groups {
            let mine: Vec<&Record> = records.iter().filter(|r| r.group_name() == g).collect();
            let n = mine
                .iter()
                .map(|r| r.instance.as_str())
                .collect::<BTreeSet<_>>()
                .len();
            let _ = writeln!(md, "\n### {} ({n} instances)\n", markdown_text(g));
            md.push_str(&competition_rows(
                experiment,
                &mine,
                &labels,
                redact_times,
                false,
            ));
        }
    }
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
    md.push_str(&disagreement_warning(records));
    md.push_str(&status_table(experiment, records));
    md.push_str(&backend_table(experiment, records, redact_times));
    md.push_str(&crate::harness::optimisation::optimisation_section(
        experiment,
        records,
        redact_times,
    ));
    md.push_str(&figures_section(experiment, records));
    md.push_str(&rest_of_report(experiment, records));
    md
}

/// A warning at the top of the report when backends or peers disagree (differing answers,
/// counts or proved optima, or a value beating a proved optimum); empty when none do. The
/// full list stays under "Disagreements".
fn disagreement_warning(records: &[Record]) -> String {
    let found = disagreements(records);
    if found.is_empty() {
        return String::new();
    }
    let mut md = format!(
        "\n> **Disagreements: {}.** Backends or peers disagree (the first {} here, all under \"Disagreements\" below); where two answers differ, at most one is right.\n",
        found.len(),
        found.len().min(5)
    );
    for d in found.iter().take(5) {
        let _ = writeln!(md, "> - {}", markdown_text(d));
    }
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
                "| {} | {} | {} | {} |",
                markdown_text(&r.instance),
                markdown_code(&r.backend),
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
                "| {} | {count} | {} | {n} |",
                markdown_code(backend),
                if *exhaustive { "yes" } else { "no" }
            );
        }
    }

    let extras = extra_figures(experiment, records);
    if !extras.is_empty() {
        let _ = writeln!(md, "\n## Backend figures\n");
        let _ = writeln!(md, "Each backend's own counters, named for what they count (they are not comparable across backends; the CSV has one column per backend and figure).\n");
        let _ = writeln!(md, "| backend | figure | value |");
        let _ = writeln!(md, "|---|---|---|");
        for (label, key, value) in extras {
            let _ = writeln!(
                md,
                "| {} | {} | {} |",
                markdown_code(&label),
                markdown_text(&key),
                markdown_text(&value.to_string())
            );
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
            let _ = writeln!(md, "- {}", markdown_text(d));
        }
        if disagreements.len() > 50 {
            let _ = writeln!(md, "- ... {} more", disagreements.len() - 50);
        }
    }

    md.push_str(&runs_without_answer(records));
    md
}

/// The runs without an answer (not `limit`), grouped by backend, status and reason (the
/// reason with its numbers taken out), each group with its count and first instance.
fn runs_without_answer(records: &[Record]) -> String {
    // (backend, status, reason shape), runs, first instance, its reason.
    type Group = ((String, Status, String), usize, String, String);
    let mut groups: Vec<Group> = Vec::new();
    for r in records
        .iter()
        .filter(|r| !r.status.is_answer() && r.status != Status::Limit)
    {
        let reason = r.reason.as_deref().unwrap_or("");
        let shape: String = reason
            .chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect();
        let key = (r.backend.clone(), r.status, shape);
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1 += 1,
            None => groups.push((key, 1, r.instance.clone(), reason.to_string())),
        }
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut md = String::from("\n## Runs without an answer\n\n");
    md.push_str(
        "| backend | status | runs | first instance | its reason |\n|---|---|---:|---|---|\n",
    );
    for ((backend, status, _), n, instance, reason) in groups.iter().take(40) {
        let _ = writeln!(
            md,
            "| {} | {} | {n} | {} | {} |",
            markdown_code(backend),
            status.name(),
            markdown_text(instance),
            markdown_text(reason)
        );
    }
    if groups.len() > 40 {
        let _ = writeln!(
            md,
            "\n{} more kinds of reason are in the CSV.",
            groups.len() - 40
        );
    }
    md
}

/// Backend-specific figures, named per backend (see [`figures`]): per label and figure, the
/// runs that measured it and the median and maximum (numbers), how often it held (flags), or
/// its values (settings). Sorted by backend order, then figure.
fn extra_figures(experiment: &Experiment, records: &[Record]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (label, _) in experiment.labels() {
        let mut by_figure: BTreeMap<String, Vec<FigureValue>> = BTreeMap::new();
        for r in records.iter().filter(|r| r.backend == label) {
            for (name, v) in figures::figures_of(r) {
                by_figure.entry(name).or_default().push(v);
            }
        }
        for (figure, values) in by_figure {
            let numbers: Vec<f64> = values
                .iter()
                .filter_map(|v| match v {
                    FigureValue::Number(x) => Some(*x),
                    _ => None,
                })
                .collect();
            let flags: Vec<bool> = values
                .iter()
                .filter_map(|v| match v {
                    FigureValue::Flag(b) => Some(*b),
                    _ => None,
                })
                .collect();
            let texts: BTreeSet<&str> = values
                .iter()
                .filter_map(|v| match v {
                    FigureValue::Text(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect();
            let text = if !numbers.is_empty() {
                let m = median(&numbers).unwrap_or(0.0);
                let max = numbers.iter().copied().fold(f64::MIN, f64::max);
                format!(
                    "median {}, max {} over {} runs",
                    FigureValue::Number(m).cell(),
                    FigureValue::Number(max).cell(),
                    numbers.len()
                )
            } else if !flags.is_empty() {
                format!(
                    "true in {} of {} runs",
                    flags.iter().filter(|b| **b).count(),
                    flags.len()
                )
            } else {
                texts.into_iter().collect::<Vec<_>>().join(", ")
            };
            out.push((label.clone(), figure, text));
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
            .filter(|r| r.status.has_solution() && r.count.is_none())
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
    out.extend(crate::harness::optimisation::optimum_disagreements(records));
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A count for a CSV cell: empty when 0 (not recorded).
fn positive(n: usize) -> String {
    if n > 0 {
        n.to_string()
    } else {
        String::new()
    }
}

/// The fixed columns of the CSV report, before the backends' figures.
pub const CSV_COLUMNS: [&str; 19] = [
    "instance",
    "source",
    "size",
    "backend",
    "name",
    "task",
    "repetition",
    "status",
    "verified",
    "seconds",
    "wall_seconds",
    "cpu_seconds",
    "peak_rss_mb",
    "limit_by",
    "count",
    "exhaustive",
    "variables",
    "rows",
    "reason",
];

/// The CSV report ("tidy": one row per run, in job order, one column per variable): the
/// fixed [`CSV_COLUMNS`], then one column per backend figure (`owner.figure`, see
/// [`figures::column_name`]) in order of first appearance. A cell is empty when the run did
/// not measure it (a figure of another backend, a killed worker's CPU time); numbers are
/// plain, times in seconds.
pub fn render_csv(records: &[Record]) -> String {
    let per_run: Vec<Vec<(String, String)>> = records
        .iter()
        .map(|r| {
            figures::figures_of(r)
                .into_iter()
                .map(|(f, v)| (figures::column_name(figures::owner_of(r), &f), v.cell()))
                .collect()
        })
        .collect();
    let mut figure_columns: Vec<String> = Vec::new();
    for (c, _) in per_run.iter().flatten() {
        if !figure_columns.contains(c) {
            figure_columns.push(c.clone());
        }
    }
    let mut out = CSV_COLUMNS.join(",");
    for c in &figure_columns {
        out.push(',');
        out.push_str(&csv_field(c));
    }
    out.push('\n');
    let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:e}"));
    for (r, figs) in records.iter().zip(&per_run) {
        let mut fields = vec![
            csv_field(&r.instance),
            csv_field(r.group_name()),
            r.size.map_or(String::new(), |x| x.to_string()),
            csv_field(&r.backend),
            csv_field(&r.name),
            r.task.name().to_string(),
            r.repetition.to_string(),
            r.status.name().to_string(),
            r.verified.to_string(),
            format!("{:e}", r.seconds),
            opt(r.wall_seconds),
            opt(r.cpu_seconds),
            r.peak_rss_mb.map_or(String::new(), |x| format!("{x:.1}")),
            r.limit_by
                .map_or("", |l| match l {
                    LimitBy::Backend => "backend",
                    LimitBy::Parent => "parent",
                })
                .to_string(),
            r.count.clone().unwrap_or_default(),
            r.exhaustive.map_or(String::new(), |e| e.to_string()),
            positive(r.variables),
            positive(r.rows),
            csv_field(r.reason.as_deref().unwrap_or("")),
        ];
        for c in &figure_columns {
            let cell = figs
                .iter()
                .find(|(k, _)| k == c)
                .map_or("", |(_, v)| v.as_str());
            fields.push(csv_field(cell));
        }
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

/// What a figure of a solve report shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FigureKind {
    /// The cactus plot of some sources (`None`: all of them).
    Cactus(Option<Vec<String>>),
    /// Per-instance times of each backend against the baseline's, log-log.
    Scatter(String),
    /// Median time against puzzle size.
    SizeTime,
    /// The share of runs whose LP relaxation was integral, per source.
    IntegralShare,
}

/// One figure of a solve report: its file (in the reports folder), its caption line for the
/// Markdown, and what it draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// File name, `NAME.KIND[-SOURCE].svg`.
    pub file: String,
    /// One sentence saying what the figure shows.
    pub caption: String,
    /// What it draws.
    pub kind: FigureKind,
}

/// The sources of `records`, in order of first appearance.
fn sources_of(records: &[Record]) -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for r in records {
        if !groups.iter().any(|g| g == r.group_name()) {
            groups.push(r.group_name().to_string());
        }
    }
    groups
}

/// The figures a solve report has (when its outputs include the time plot): a cactus plot per
/// source, the scatter against the baseline (when there is one and another backend answered),
/// and time against size (when sizes vary). Decided from the records alone.
pub fn figure_list(experiment: &Experiment, records: &[Record]) -> Vec<Figure> {
    if !experiment.outputs.contains(&Output::TimePlot) {
        return Vec::new();
    }
    let name = &experiment.name;
    let limit = experiment.time_limit.map_or(String::new(), |t| {
        format!(
            "; the dashed line is the time limit ({} s)",
            t.as_secs_f64()
        )
    });
    // A source of fewer than MIN_CACTUS instances gets no plot of its own (a cactus of one or
    // two points says nothing): such sources share one.
    const MIN_CACTUS: usize = 5;
    let sources = sources_of(records);
    let size_of = |g: &str| {
        records
            .iter()
            .filter(|r| r.group_name() == g)
            .map(|r| r.instance.as_str())
            .collect::<BTreeSet<_>>()
            .len()
    };
    let (big, small): (Vec<String>, Vec<String>) =
        sources.into_iter().partition(|g| size_of(g) >= MIN_CACTUS);
    let mut out: Vec<Figure> = Vec::new();
    if big.len() + usize::from(!small.is_empty()) <= 1 {
        out.push(Figure {
            file: format!("{name}.cactus.svg"),
            caption: format!("Cactus plot: for each backend and peer, its answered instances sorted by time (the k-th point: the time within which it answered k instances; log scale){limit}. Further right answered more, lower answered faster."),
            kind: FigureKind::Cactus(None),
        });
    } else {
        for g in &big {
            out.push(Figure {
                file: format!("{name}.cactus-{}.svg", crate::harness::runner::model_file_name(g).trim_end_matches(".json")),
                caption: format!("Cactus plot of source `{g}` alone: for each backend and peer, its answered instances of this source sorted by time (log scale){limit}."),
                kind: FigureKind::Cactus(Some(vec![g.clone()])),
            });
        }
        if !small.is_empty() {
            out.push(Figure {
                file: format!("{name}.cactus-small-sources.svg"),
                caption: format!("Cactus plot of the sources with fewer than {MIN_CACTUS} instances each, together ({}){limit}.", small.join(", ")),
                kind: FigureKind::Cactus(Some(small.clone())),
            });
        }
    }
    let others_answered = experiment.labels().iter().any(|(l, _)| {
        Some(l) != experiment.baseline.as_ref()
            && records
                .iter()
                .any(|r| &r.backend == l && r.status.is_answer())
    });
    if let Some(base) = experiment.baseline.as_ref().filter(|_| others_answered) {
        out.push(Figure {
            file: format!("{name}.scatter.svg"),
            caption: format!("Per instance, each backend's and peer's time (y) against `{base}`'s (x), log-log, over the instances both answered; above the dashed diagonal the backend was slower than `{base}`."),
            kind: FigureKind::Scatter(base.clone()),
        });
    }
    if records
        .iter()
        .any(|r| r.stats.extra.contains_key("lp_integral"))
    {
        out.push(Figure {
            file: format!("{name}.integral.svg"),
            caption: "Per source, the share of runs whose LP relaxation optimum was integral (then it is a verified solution), of the runs that report it.".into(),
            kind: FigureKind::IntegralShare,
        });
    }
    let sizes: BTreeSet<usize> = records.iter().filter_map(|r| r.size).collect();
    if sizes.len() > 1 {
        out.push(Figure {
            file: format!("{name}.size-time.svg"),
            caption: "Median time per answered instance against puzzle size, per backend and peer (log scale).".into(),
            kind: FigureKind::SizeTime,
        });
    }
    out
}

/// The title of the experiment's figures: its `title`, else its name.
fn title_of(experiment: &Experiment) -> String {
    experiment
        .title
        .clone()
        .unwrap_or_else(|| format!("Experiment {}", experiment.name))
}

/// Draws `figure` from `records` as SVG text.
pub fn draw_figure(
    experiment: &Experiment,
    records: &[Record],
    figure: &Figure,
) -> Result<String, String> {
    let (labels, _) = present_labels(experiment, records);
    let per_label = |rs: &[&Record]| -> Vec<(String, BTreeMap<String, f64>)> {
        labels
            .iter()
            .map(|(l, _)| {
                let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
                for r in rs
                    .iter()
                    .filter(|r| &r.backend == l && r.status.is_answer())
                {
                    by.entry(r.instance.clone()).or_default().push(r.seconds);
                }
                let med = by
                    .into_iter()
                    .filter_map(|(k, v)| median(&v).map(|m| (k, m)))
                    .collect();
                (l.clone(), med)
            })
            .collect()
    };
    let title = title_of(experiment);
    match &figure.kind {
        FigureKind::Cactus(group) => {
            let rs: Vec<&Record> = records
                .iter()
                .filter(|r| {
                    group
                        .as_ref()
                        .is_none_or(|gs| gs.iter().any(|g| g == r.group_name()))
                })
                .collect();
            let series: Vec<plot::Series> = per_label(&rs)
                .into_iter()
                .map(|(l, m)| (l, m.into_values().collect()))
                .collect();
            let t = match group.as_deref() {
                Some([g]) => format!("{title}: time per answered instance, source {g}"),
                Some(_) => format!("{title}: time per answered instance, small sources"),
                None => format!("{title}: time per answered instance"),
            };
            plot::cactus(&t, &series, experiment.time_limit.map(|d| d.as_secs_f64()))
        }
        FigureKind::Scatter(base) => {
            let all: Vec<&Record> = records.iter().collect();
            let times = per_label(&all);
            let limit = experiment.time_limit.map(|d| d.as_secs_f64());
            let Some((_, base_times)) = times.iter().find(|(l, _)| l == base) else {
                return plot::scatter(&title, &[], limit);
            };
            // Each label's time per instance: its median answered time, else the time limit
            // when one of its runs there reached it (timeout, limit, memout, crash).
            let with_limit = |label: &str, answered: &BTreeMap<String, f64>| {
                let mut t: BTreeMap<String, (f64, bool)> = answered
                    .iter()
                    .map(|(k, &v)| (k.clone(), (v.max(1e-9), false)))
                    .collect();
                if let Some(limit) = limit {
                    for r in records.iter().filter(|r| r.backend == label) {
                        if r.status.is_par2_penalty() {
                            t.entry(r.instance.clone()).or_insert((limit, true));
                        }
                    }
                }
                t
            };
            let base_all = with_limit(base, base_times);
            let panels: Vec<plot::Panel> = times
                .iter()
                .enumerate()
                .filter(|(_, (l, m))| l != base && !m.is_empty())
                .map(|(i, (l, m))| {
                    let mut panel = plot::Panel {
                        x_label: base.clone(),
                        y_label: l.clone(),
                        series: i,
                        points: Vec::new(),
                        at_limit: Vec::new(),
                    };
                    for (k, (y, y_limited)) in with_limit(l, m) {
                        if let Some(&(x, x_limited)) = base_all.get(&k) {
                            if x_limited || y_limited {
                                panel.at_limit.push((x, y));
                            } else {
                                panel.points.push((x, y));
                            }
                        }
                    }
                    panel
                })
                .collect();
            plot::scatter(
                &format!("{title}: per-instance time against {base}"),
                &panels,
                limit,
            )
        }
        FigureKind::IntegralShare => {
            let bars: Vec<(String, usize, usize)> = sources_of(records)
                .into_iter()
                .map(|g| {
                    let flags: Vec<bool> = records
                        .iter()
                        .filter(|r| r.group_name() == g)
                        .filter_map(|r| r.stats.extra.get("lp_integral").and_then(|v| v.as_bool()))
                        .collect();
                    let integral = flags.iter().filter(|b| **b).count();
                    (g, integral, flags.len())
                })
                .collect();
            plot::shares(
                &format!("{title}: LP relaxation integral, per source"),
                "runs with an integral LP optimum (%)",
                &bars,
            )
        }
        FigureKind::SizeTime => {
            let series: Vec<(String, Vec<(usize, f64)>)> = labels
                .iter()
                .map(|(l, _)| {
                    let mut by: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
                    for r in records
                        .iter()
                        .filter(|r| &r.backend == l && r.status.is_answer())
                    {
                        if let Some(n) = r.size {
                            by.entry(n).or_default().push(r.seconds);
                        }
                    }
                    let pts = by
                        .into_iter()
                        .filter_map(|(n, v)| median(&v).map(|m| (n, m.max(1e-9))))
                        .collect();
                    (l.clone(), pts)
                })
                .collect();
            plot::size_time(&format!("{title}: time against puzzle size"), &series)
        }
    }
}

/// The Markdown section listing the figures, each with its caption.
fn figures_section(experiment: &Experiment, records: &[Record]) -> String {
    let list = figure_list(experiment, records);
    if list.is_empty() {
        return String::new();
    }
    let mut md = String::from("\n## Figures\n\n");
    for f in list {
        let png = f.file.replace(".svg", ".png");
        let _ = writeln!(
            md,
            "- [`{}`]({}) ([PNG]({png})): {}",
            f.file, f.file, f.caption
        );
    }
    md
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
                for figure in figure_list(experiment, &records) {
                    let file = dir.join(&figure.file);
                    let svg = draw_figure(experiment, &records, &figure).map_err(|message| {
                        HarnessError::Plot {
                            path: file.clone(),
                            message,
                        }
                    })?;
                    written.extend(crate::harness::raster::write_figure(&file, &svg)?);
                }
                continue;
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

    #[test]
    fn disagreements_are_flagged_above_the_first_table() {
        let exp = Experiment::from_text(
            Path::new("e.toml"),
            "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\nlabel = \"a\"\n[[backends]]\nname = \"brute\"\nlabel = \"b\"\n",
        )
        .unwrap();
        let optimum = |backend: &str, value: i128| Record {
            objective: Some(value),
            ..run(backend, "x", Status::Optimal, 1.0)
        };
        let provenance = Provenance::of(&[], "test");
        let agree = [optimum("a", 5), optimum("b", 5)];
        let md = render_markdown(&exp, &agree, 2, &provenance, true);
        assert!(!md.contains("**Disagreements"), "{md}");
        let differ = [optimum("a", 5), optimum("b", 6)];
        let md = render_markdown(&exp, &differ, 2, &provenance, true);
        let warning = md.find("> **Disagreements: 1.**").expect("a warning");
        assert!(warning < md.find("## Statuses").unwrap(), "{md}");
        assert!(
            md.contains("x: proved optima differ: 5 (a) vs 6 (b)"),
            "{md}"
        );
    }
}
