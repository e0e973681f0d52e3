//! The Markdown report (`NAME.md`): header, statuses, per-backend table, optimisation,
//! figures, disagreements and the runs without an answer, from the records alone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::cells::{label_cell, ratio_text, time_cell};
use super::header::header;
use super::plots::figures_section;
use super::summary::*;
use super::Provenance;
use crate::backend::Status;
use crate::harness::experiment::Experiment;
use crate::harness::figures::{self, FigureValue};
use crate::harness::record::median;
use crate::harness::record::{time_limit_on_record, Record};
use crate::harness::stats;
use crate::output::{markdown_code, markdown_text};

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
