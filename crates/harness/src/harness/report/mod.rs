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
use crate::harness::record::{
    memory_limits_on_record, read_records, repetitions_on_record, time_limit_on_record,
    time_limits_on_record, Certificate, Record, RunKey,
};
use crate::harness::store::records_path;
use crate::harness::{plot, stats, write_atomically, HarnessError};
use crate::output::{markdown_code, markdown_text};

mod benchexec;
mod compare;
mod csv;
mod header;
mod html;
mod plots;

pub use benchexec::{benchexec_status, render_benchexec, write_benchexec};
pub use compare::{
    compare_input, compare_rows, pair_summaries, render_compare_html, CompareRows, PairSummary,
};
pub use csv::{render_csv, CSV_COLUMNS};
use header::header;
pub use header::Provenance;
pub use html::{render_html, render_page, HTML_RUN_COLUMNS};
use plots::figures_section;
pub use plots::{draw_figure, figure_list, Figure, FigureKind};

pub use crate::harness::record::{median, quantile};
pub use crate::harness::stats::par2;
use crate::harness::stats::ratio_to;

/// Per-backend figures of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendSummary {
    /// Label.
    pub label: String,
    /// Registry name.
    pub name: String,
    /// Runs on record.
    pub runs: usize,
    /// Runs that ended `solved` (a verified solution of a model without an objective, or a
    /// complete count).
    pub solved: usize,
    /// Runs that ended `optimal` (a verified solution proved optimal).
    pub optimal: usize,
    /// Runs that ended `feasible` (a verified solution, not proved optimal).
    pub feasible: usize,
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
    /// Runs whose proof the checker verified (`certify = true`).
    pub certified: usize,
    /// Runs whose proof the checker rejected (each also an `error`).
    pub rejected_certificates: usize,
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
    time_limit: Option<f64>,
    records: &[Record],
    (label, name): (String, String),
    baseline: Option<&BTreeMap<String, f64>>,
) -> BackendSummary {
    let mine: Vec<&Record> = records.iter().filter(|r| r.backend == label).collect();
    let count = |s: Status| mine.iter().filter(|r| r.status == s).count();
    let certificates = |c: Certificate| mine.iter().filter(|r| r.certificate == c).count();
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
        // Each status apart: a `feasible` run is no `solved` one (issue 35, item 7).
        solved: count(Status::Solved),
        optimal: count(Status::Optimal),
        feasible: count(Status::Feasible),
        infeasible: count(Status::Infeasible),
        unknown: count(Status::Unknown),
        limit: count(Status::Limit),
        timeout: count(Status::Timeout),
        memout: count(Status::Memout),
        crash: count(Status::Crash),
        unsupported: count(Status::Unsupported),
        error: count(Status::Error),
        verified: mine.iter().filter(|r| r.verified).count(),
        certified: certificates(Certificate::Checked),
        rejected_certificates: certificates(Certificate::Rejected),
        unwitnessed_counts: mine
            .iter()
            .filter(|r| r.task == Task::Count && r.status == Status::Solved && !r.verified)
            .count(),
        median_seconds: median(&times),
        p90_seconds: quantile(&times, 0.9),
        median_nodes: median(&nodes),
        ratio: baseline.and_then(|base| ratio_to(base, &own)),
        par2: time_limit.and_then(|t| par2(&mine, t)),
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
    let time_limit = time_limit_on_record(records);
    experiment
        .labels()
        .into_iter()
        .filter(|(label, name)| name != "peer" || records.iter().any(|r| &r.backend == label))
        .map(|pair| summary_of(time_limit, records, pair, baseline.as_ref()))
        .collect()
}

/// A time with its unit (`123 us`, `12.1 ms`, `2.31 s`; see [`crate::render::duration_text`]),
/// `-` when absent.
pub fn seconds_text(s: Option<f64>) -> String {
    s.map_or("-".into(), crate::render::duration_text)
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
    // `optimal` and `feasible` get columns of their own when some run has them; the table of
    // an experiment without objectives keeps its columns.
    let optimising =
        (records.iter()).any(|r| matches!(r.status, Status::Optimal | Status::Feasible));
    let extra = if optimising {
        " optimal | feasible |"
    } else {
        ""
    };
    // `certified` when some run was asked for a proof: the table of an experiment without
    // `certify` keeps its columns.
    let certifying = records.iter().any(|r| r.options.certify);
    let last = if certifying { " certified |" } else { "" };
    let _ = writeln!(
        md,
        "| backend | runs | solved |{extra} infeasible | unknown | limit | timeout | memout | crash | unsupported | error | verified |{last}"
    );
    let _ = writeln!(
        md,
        "|---|---:|---:|{}---:|---:|---:|---:|---:|---:|---:|---:|---:|{}",
        if optimising { "---:|---:|" } else { "" },
        if certifying { "---:|" } else { "" }
    );
    for s in &summarise(experiment, records) {
        let verified = if s.unwitnessed_counts > 0 {
            format!(
                "{} ({} counts, no witness)",
                s.verified, s.unwitnessed_counts
            )
        } else {
            s.verified.to_string()
        };
        let extra = match optimising {
            true => format!(" {} | {} |", s.optimal, s.feasible),
            false => String::new(),
        };
        let certified = match certifying {
            true => format!(" {} |", certified_cell(s)),
            false => String::new(),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} |{extra} {} | {} | {} | {} | {} | {} | {} | {} | {verified} |{certified}",
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
    if certifying {
        md.push_str(
            "\n`certified` counts the runs whose VeriPB proof the checker (`veripb`) verified, the count, infeasibility, uniqueness or optimum included (`certify = true`; the proofs are in `NAME.proofs/` beside the records); \
             `-` when the backend logged no proof (it cannot, or every run stopped without a claim). A rejected proof is counted apart and makes its run an `error`.\n",
        );
    }
    if optimising {
        md.push_str(
            "\nOn a model with an objective a run with a verified solution is `optimal` when the backend also proved no better one exists, `feasible` when a limit stopped it first; neither is counted as `solved`.\n",
        );
    }
    md
}

/// The `certified` cell of a backend: its checked proofs, the rejected ones apart, `-` when
/// it has neither.
fn certified_cell(s: &BackendSummary) -> String {
    match (s.certified, s.rejected_certificates) {
        (0, 0) => "-".into(),
        (n, 0) => n.to_string(),
        (n, r) => format!("{n} ({r} rejected)"),
    }
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
    time_limit: Option<f64>,
    records: &[&Record],
    labels: &[(String, String)],
    redact_times: bool,
    full: bool,
) -> String {
    let t = |s: Option<f64>| time_cell(s, redact_times);
    let names: Vec<String> = labels.iter().map(|(l, _)| l.clone()).collect();
    let rows = stats::competition(records, &names, experiment.baseline.as_deref(), time_limit);
    let base = markdown_code(experiment.baseline.as_deref().unwrap_or("-"));
    let mut md = String::new();
    if full {
        let _ = writeln!(md, "| backend | answered | PAR-2 | median | mean | p90 | max | median cpu | mean cpu | median wall | spread over reps | peak MB | ratio to {base} | fastest on |");
        md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
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
                "| {label} | {answered} | {} | {} | {} | {} | {} | {} | {} | {} | {spread} | {rss} | {ratio} | {fastest} |",
                t(c.par2), t(c.time.median), t(c.time.mean), t(c.time.p90), t(c.time.max), t(c.cpu.median), t(c.cpu.mean), t(c.wall.median),
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
    let time_limit = time_limit_on_record(records);
    md.push_str(&competition_rows(
        experiment,
        time_limit,
        &all,
        &labels,
        redact_times,
        true,
    ));
    let limit = time_limit.map_or("no time limit: PAR-2 is not defined".to_string(), |t| {
        format!("a time limit of {t} s")
    });
    let _ = writeln!(
        md,
        "\nPer instance, a backend's time is the median over its answered repetitions (solved or proved infeasible) of the seconds inside the backend (a zeroone backend: its engine's run, model hand-over and worker transport left out; a peer: its solver's solve call alone, model building in Python left out, as experiments/peers/README.md says per peer; the whole run of both is the records' `wall_seconds`), and its cpu time the median user + system CPU seconds of the same runs \
         (a zeroone run's worker process; a peer's Python process and its solver child), its wall time the median `wall_seconds`; median, mean, p90 and max are then taken over the answered instances. \
         PAR-2 ({limit}) is the mean over runs of the answered runs' times and twice the limit for each `limit`, `timeout`, `memout` or `crash` (`unknown`, `unsupported` and `error` runs are left out; a peer stopped by the limit is `timeout` as a backend is, also where its record says `unknown` with its solver's \"time limit\" or a time at the limit). \
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
                time_limit,
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
        if *output == Output::Markdown {
            // The page to explore the runs goes wherever the Markdown report goes.
            let page = dir.join(format!("{}.html", experiment.name));
            let html = render_html(experiment, &records, expected, &provenance);
            write_atomically(&page, html.as_bytes())?;
            written.push(page);
        }
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

    /// A solving run under a time limit of 10 s, as its record states it.
    fn run(backend: &str, instance: &str, status: Status, seconds: f64) -> Record {
        Record {
            status,
            seconds,
            options: crate::harness::record::RecordOptions {
                time_limit: Some(10.0),
                ..Default::default()
            },
            ..Record::new(instance, backend, backend, Task::Solve, 0)
        }
    }

    #[test]
    fn only_answers_enter_ratios_and_par2_charges_twice_the_limit() {
        let exp = Experiment::from_text(Path::new("e.toml"), &exp_text()).unwrap();
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
        // The limit is the records': the file's time limit, edited after the run, changes
        // nothing; records made without a limit have no PAR-2 whatever the file says.
        let edited = Experiment::from_text(
            Path::new("e.toml"),
            &exp_text().replace("time_limit = 10", "time_limit = 99"),
        )
        .unwrap();
        assert_eq!(summarise(&edited, &records), s);
        let unlimited: Vec<Record> = records
            .iter()
            .cloned()
            .map(|mut r| {
                r.options.time_limit = None;
                r
            })
            .collect();
        assert!(summarise(&exp, &unlimited).iter().all(|b| b.par2.is_none()));
    }

    fn exp_text() -> String {
        "time_limit = 10\nbaseline = \"a\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\nlabel = \"a\"\n[[backends]]\nname = \"brute\"\nlabel = \"b\"\n".into()
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
