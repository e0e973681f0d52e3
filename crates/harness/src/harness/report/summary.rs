//! The records a report shows (in job order, within the experiment) and what the tables say of
//! each backend: summaries, disagreements, labels and the shared cell texts.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::backend::Status;
use crate::harness::experiment::{Experiment, Task};
use crate::harness::plan::job_keys;
use crate::harness::record::{median, quantile};
use crate::harness::record::{time_limit_on_record, Certificate, Record, RunKey};
use crate::harness::stats::{par2, ratio_to};

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

/// The `certified` cell of a backend: its checked proofs, the rejected ones apart, `-` when
/// it has neither.
pub(super) fn certified_cell(s: &BackendSummary) -> String {
    match (s.certified, s.rejected_certificates) {
        (0, 0) => "-".into(),
        (n, 0) => n.to_string(),
        (n, r) => format!("{n} ({r} rejected)"),
    }
}

/// Labels with records, in experiment order, with their registry names (`peer` for peers),
/// and the peers listed but without records.
pub(super) fn present_labels(
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
