//! The header of `NAME.md`: provenance (machine, builds, command), limits, repetitions and
//! options, all from the records.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::*;

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

/// The header lines about limits, workers and repetitions, from the records alone (the
/// experiment file only orders the labels): the time limit and who enforced it (the backend
/// itself, or the parent killing its worker), the memory limit, `--jobs`, the repetitions and
/// each label's options.
pub(super) fn limits_header(experiment: &Experiment, records: &[Record]) -> String {
    let mut md = String::new();
    let limits: Vec<String> = time_limits_on_record(records)
        .iter()
        .map(|t| format!("{t} s"))
        .collect();
    let mut limit = match limits.len() {
        0 => "none".to_string(),
        1 => format!("{} per run", limits[0]),
        _ => format!(
            "{} per run (records made under different limits; PAR-2 and the plots use the largest)",
            limits.join(", ")
        ),
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
    let memory = memory_limits_on_record(records);
    let memory = if memory.is_empty() {
        "none".to_string()
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
    let _ = writeln!(md, "- repetitions: {}", repetitions_on_record(records));
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
pub(super) fn header(
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
