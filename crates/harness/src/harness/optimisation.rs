//! The optimisation part of a report, for experiments whose models have an objective: proved
//! optima per backend, time to prove optimality (median and PAR-2 on `optimal`), and per
//! instance the proved optimum, the best value found, the best bound and the gap. Also the
//! check that no two backends (or peers) prove different optima for one instance.
//!
//! Everything is computed from the records alone (their `objective` and `bound`, exact
//! integers). Cost: one pass over the records per table.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::backend::Status;
use crate::harness::experiment::Experiment;
use crate::harness::record::{median, Record};
use crate::harness::stats::par2;
use crate::model::objective::Objective;

/// Instances where two runs proved different optimal values, or where a run's verified value
/// beats an optimum another run proved (the sense read from the records), one line each.
pub fn optimum_disagreements(records: &[Record]) -> Vec<String> {
    let mut out = differing_optima(records);
    out.extend(values_beating_optima(records));
    out
}

/// Verified values better than a proved optimum of the same instance: the prover missed a
/// solution (or the other run's value is wrong), one line per (instance, run).
fn values_beating_optima(records: &[Record]) -> Vec<String> {
    let mut by_instance: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_instance.entry(&r.instance).or_default().push(r);
    }
    let mut out = Vec::new();
    for (inst, rs) in by_instance {
        let Some(sense) = rs.iter().find_map(|r| r.sense) else {
            continue;
        };
        let better = |a: i128, b: i128| match sense {
            crate::model::ObjectiveSense::Minimize => a < b,
            crate::model::ObjectiveSense::Maximize => a > b,
        };
        for p in rs.iter().filter(|r| r.status == Status::Optimal) {
            let Some(optimum) = p.objective else { continue };
            for r in rs.iter().filter(|r| r.verified && r.status.has_solution()) {
                match r.objective {
                    Some(v) if better(v, optimum) => out.push(format!(
                        "{inst}: {} found the verified value {v}, better than the optimum {optimum} {} proved",
                        r.backend, p.backend
                    )),
                    _ => {}
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Instances where two runs proved different optimal values, one line each.
fn differing_optima(records: &[Record]) -> Vec<String> {
    let mut proved: BTreeMap<&str, BTreeMap<i128, BTreeSet<&str>>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.status == Status::Optimal) {
        if let Some(v) = r.objective {
            (proved.entry(&r.instance).or_default().entry(v).or_default()).insert(&r.backend);
        }
    }
    proved
        .into_iter()
        .filter(|(_, values)| values.len() > 1)
        .map(|(inst, values)| {
            let parts: Vec<String> = values
                .iter()
                .map(|(v, bs)| {
                    format!(
                        "{v} ({})",
                        bs.iter().copied().collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            format!("{inst}: proved optima differ: {}", parts.join(" vs "))
        })
        .collect()
}

/// The instances whose model has an objective: some run of it records the objective's sense,
/// a value, or an `optimal` or `feasible` status (records written before `sense` was kept).
fn optimising_instances(records: &[Record]) -> BTreeSet<&str> {
    (records.iter())
        .filter(|r| {
            r.sense.is_some()
                || r.objective.is_some()
                || matches!(r.status, Status::Optimal | Status::Feasible)
        })
        .map(|r| r.instance.as_str())
        .collect()
}

/// Whether any record carries an objective value (the experiment optimises).
pub fn has_objectives(records: &[Record]) -> bool {
    records.iter().any(|r| r.objective.is_some())
}

/// The `## Optimisation` section (empty when no record carries an objective); with
/// `redact_times`, timings are `~` (the deterministic form snapshot tests compare).
pub fn optimisation_section(
    experiment: &Experiment,
    records: &[Record],
    redact_times: bool,
) -> String {
    if !has_objectives(records) {
        return String::new();
    }
    let mut md = String::from("\n## Optimisation\n\n");
    let all: BTreeSet<&str> = records.iter().map(|r| r.instance.as_str()).collect();
    // Only the instances with an objective: in an experiment that mixes them with plain
    // models, a `solved` run proves no optimum (issue 35, item 7: the sentence said 18 while
    // the column said 24).
    let optimising = optimising_instances(records);
    let records: Vec<Record> = (records.iter())
        .filter(|r| optimising.contains(r.instance.as_str()))
        .cloned()
        .collect();
    let records = records.as_slice();
    let proved = |r: &&Record| matches!(r.status, Status::Optimal | Status::Infeasible);
    let proved_by_any: BTreeSet<&str> = (records.iter())
        .filter(proved)
        .map(|r| r.instance.as_str())
        .collect();
    let others = match all.len() - optimising.len() {
        0 => String::new(),
        n => format!(" ({n} more without an objective are left out here)"),
    };
    let _ = writeln!(
        md,
        "{} instances{others}; an optimum (or infeasibility) was proved for {} of them by at least one backend or peer.\n",
        optimising.len(),
        proved_by_any.len()
    );
    let time_limit = crate::harness::record::time_limit_on_record(records);
    // The status columns count runs (repetitions included); "instances proved" counts
    // instances, as the sentence above does (issue 36: "proved for 7" beside an `optimal`
    // column of 10 runs read as a contradiction).
    md.push_str("| backend | runs | runs optimal | runs feasible | runs infeasible | instances proved | median s to prove | PAR-2 on optimal |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (label, _) in experiment.labels() {
        let mine: Vec<&Record> = records.iter().filter(|r| r.backend == label).collect();
        if mine.is_empty() {
            continue;
        }
        let count = |s: Status| mine.iter().filter(|r| r.status == s).count();
        let mut per_instance: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for r in mine.iter().filter(|r| proved(r)) {
            per_instance.entry(&r.instance).or_default().push(r.seconds);
        }
        let times: Vec<f64> = per_instance.values().filter_map(|v| median(v)).collect();
        let par = time_limit.and_then(|t| par2(&mine, t));
        let time = |s: Option<f64>| match redact_times {
            true => "~".to_string(),
            false => crate::harness::report::seconds_text(s),
        };
        let _ = writeln!(
            md,
            "| `{label}` | {} | {} | {} | {} | {} | {} | {} |",
            mine.len(),
            count(Status::Optimal),
            count(Status::Feasible),
            count(Status::Infeasible),
            per_instance.len(),
            time(median(&times)),
            time(par),
        );
    }
    md.push_str("\nA run is `optimal` when its solution passed the verifier, its value was recomputed exactly and the backend proved no better one exists; `feasible` when a limit stopped it with a verified solution in hand. Time to prove: the median over instances of the per-instance median seconds of the runs that proved an optimum or infeasibility; PAR-2 charges a run that did not (timeout, feasible, limit, memout, crash) twice the time limit.\n");
    md.push_str(&instance_table(records));
    md
}

/// Per instance: the proved optimum and who proved it; without one, the value and bound of the
/// `feasible` run closest to its bound, and their gap; with no such run, the best bound any run
/// reported (runs stopped before their first solution report one; the records' sense says
/// which is best).
fn instance_table(records: &[Record]) -> String {
    let mut md = String::from("\n| instance | optimum | proved by | best value found | best bound | gap |\n|---|---:|---|---:|---:|---:|\n");
    let mut by_instance: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_instance.entry(&r.instance).or_default().push(r);
    }
    let shown = by_instance.len().min(200);
    for (inst, rs) in by_instance.iter().take(shown) {
        let optimum = rs
            .iter()
            .find(|r| r.status == Status::Optimal)
            .and_then(|r| r.objective);
        let infeasible = rs.iter().any(|r| r.status == Status::Infeasible);
        // Who proved what the row shows: the optimum, or (none proved) infeasibility.
        let proof = match optimum {
            Some(_) => Status::Optimal,
            None => Status::Infeasible,
        };
        let provers: BTreeSet<&str> = (rs.iter())
            .filter(|r| r.status == proof)
            .map(|r| r.backend.as_str())
            .collect();
        // The sense is not in the record: a proved optimum is the best value; otherwise the
        // value of the run closest to its own proved bound.
        // Unproved: the value and bound of the feasible run with the smallest gap.
        let closest = (rs.iter())
            .filter(|r| r.status == Status::Feasible)
            .filter_map(|r| Some((r.objective?, r.bound?)))
            .min_by(|a, b| Objective::gap(a.0, a.1).total_cmp(&Objective::gap(b.0, b.1)));
        let any_value = rs.iter().find_map(|r| r.objective);
        let best = optimum.or(closest.map(|c| c.0)).or(any_value);
        // A proved optimum is its own best bound (the gap is closed).
        let bound = optimum.or(closest.map(|c| c.1)).or_else(|| best_bound(rs));
        let gap = match (optimum, best, bound) {
            (Some(_), _, _) => "0".to_string(),
            (None, Some(v), Some(b)) => format!("{:.2}%", Objective::gap(v, b) * 100.0),
            _ => "-".to_string(),
        };
        let text = |v: Option<i128>| v.map_or("-".to_string(), |v| v.to_string());
        let _ = writeln!(
            md,
            "| {inst} | {} | {} | {} | {} | {gap} |",
            if infeasible && optimum.is_none() {
                "infeasible".to_string()
            } else {
                text(optimum)
            },
            provers
                .iter()
                .map(|b| format!("`{b}`"))
                .collect::<Vec<_>>()
                .join(", "),
            text(best),
            text(bound),
        );
    }
    if by_instance.len() > shown {
        let _ = writeln!(
            md,
            "\n... {} more instances in the CSV.",
            by_instance.len() - shown
        );
    }
    md
}

/// The primal gap of value `v` against the reference (best known) value `best`: `|best - v| /
/// max(|best|, |v|)`, 0 when both are 0, 1 without a value (Berthold's primal gap, in 0..=1
/// when both have one sign).
pub fn primal_gap(best: i128, v: Option<i128>) -> f64 {
    let Some(v) = v else { return 1.0 };
    let den = best.unsigned_abs().max(v.unsigned_abs());
    if den == 0 {
        return 0.0;
    }
    (best.abs_diff(v) as f64 / den as f64).min(1.0)
}

/// Per label of `labels`: the mean primal gap ([`primal_gap`]) over its runs of the instances
/// with a verified value on record, as a step curve of `(seconds, mean gap)` points: a run is
/// at 1 until its first incumbent, then follows its trace (`stats.trace`; a run without one
/// jumps to its final value when it ends), and keeps its last gap after it ends. The
/// reference of an instance is the best verified value of any run. Labels with no such run
/// are left out. Cost: one sort of the trace points per label.
pub fn primal_gap_curves(records: &[Record], labels: &[String]) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut best: BTreeMap<&str, i128> = BTreeMap::new();
    for r in records
        .iter()
        .filter(|r| r.verified && r.status.has_solution())
    {
        let (Some(v), Some(sense)) = (r.objective, r.sense) else {
            continue;
        };
        let better = |a: i128, b: i128| match sense {
            crate::model::ObjectiveSense::Minimize => a < b,
            crate::model::ObjectiveSense::Maximize => a > b,
        };
        let e = best.entry(&r.instance).or_insert(v);
        if better(v, *e) {
            *e = v;
        }
    }
    let mut out = Vec::new();
    for label in labels {
        let runs: Vec<&Record> = records
            .iter()
            .filter(|r| &r.backend == label && best.contains_key(r.instance.as_str()))
            .collect();
        if runs.is_empty() {
            continue;
        }
        // (time, run, gap from then on)
        let mut events: Vec<(f64, usize, f64)> = Vec::new();
        for (i, r) in runs.iter().enumerate() {
            let reference = best[r.instance.as_str()];
            let last = match r.status.has_solution() && r.verified {
                true => r.objective,
                false => None,
            };
            for p in &r.stats.trace {
                if p.value.is_some() {
                    events.push((p.seconds, i, primal_gap(reference, p.value)));
                }
            }
            events.push((r.seconds, i, primal_gap(reference, last)));
        }
        events.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut gaps = vec![1.0f64; runs.len()];
        let mut sum = runs.len() as f64;
        let mut points = vec![(0.0, 1.0)];
        for (t, i, g) in events {
            sum += g - gaps[i];
            gaps[i] = g;
            let mean = sum / runs.len() as f64;
            match points.last_mut() {
                Some(p) if p.0 == t => p.1 = mean,
                _ => points.push((t, mean)),
            }
        }
        out.push((label.clone(), points));
    }
    out
}

/// The best bound among `runs` (the largest lower bound when minimising, the smallest upper
/// bound when maximising); `None` without a bound or a sense. Cost: one pass.
fn best_bound(runs: &[&Record]) -> Option<i128> {
    use crate::model::ObjectiveSense;
    let sense = runs.iter().find_map(|r| r.sense)?;
    (runs.iter().filter_map(|r| r.bound)).reduce(|a, b| match sense {
        ObjectiveSense::Minimize => a.max(b),
        ObjectiveSense::Maximize => a.min(b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::experiment::Task;

    fn run(instance: &str, backend: &str, status: Status, objective: Option<i128>) -> Record {
        Record {
            status,
            objective,
            seconds: 0.1,
            ..Record::new(instance, backend, backend, Task::Solve, 0)
        }
    }

    #[test]
    fn differing_proved_optima_are_flagged_and_unproved_values_are_not() {
        let records = vec![
            run("a", "bitset", Status::Optimal, Some(5)),
            run("a", "milp", Status::Optimal, Some(5)),
            run("a", "sat", Status::Feasible, Some(7)),
            run("b", "bitset", Status::Optimal, Some(3)),
            run("b", "cp-sat", Status::Optimal, Some(4)),
        ];
        assert_eq!(
            optimum_disagreements(&records),
            vec!["b: proved optima differ: 3 (bitset) vs 4 (cp-sat)".to_string()]
        );
        assert!(has_objectives(&records));
        let table = instance_table(&records);
        assert!(
            table.contains("| a | 5 | `bitset`, `milp` | 5 |"),
            "{table}"
        );
    }

    #[test]
    fn every_prover_of_infeasibility_is_named_and_an_optimum_is_its_own_best_bound() {
        let sensed = |mut r: Record| {
            r.sense = Some(crate::model::ObjectiveSense::Minimize);
            r
        };
        let records = vec![
            run("a", "bitset", Status::Optimal, Some(5)),
            run("a", "sat", Status::Feasible, Some(7)),
            sensed(run("u", "bitset", Status::Infeasible, None)),
            sensed(run("u", "highs", Status::Infeasible, None)),
            sensed(run("u", "cp-sat", Status::Infeasible, None)),
            sensed(run("u", "sat", Status::Timeout, None)),
        ];
        let table = instance_table(&records);
        // The optimal row: its best bound is the optimum, gap 0 (it was '-').
        assert!(
            table.contains("| a | 5 | `bitset` | 5 | 5 | 0 |"),
            "{table}"
        );
        // Infeasible: every backend that proved it (the column was empty).
        assert!(
            table.contains("| u | infeasible | `bitset`, `cp-sat`, `highs` | - | - | - |"),
            "{table}"
        );
    }

    #[test]
    fn runs_stopped_before_a_solution_give_the_best_of_their_bounds() {
        use crate::model::ObjectiveSense::{Maximize, Minimize};
        let stopped = |inst: &str, backend: &str, bound: i128, sense| Record {
            bound: Some(bound),
            sense: Some(sense),
            ..run(inst, backend, Status::Timeout, None)
        };
        let records = vec![
            stopped("min", "bitset", 10, Minimize),
            stopped("min", "milp", 12, Minimize),
            stopped("max", "bitset", 30, Maximize),
            stopped("max", "milp", 25, Maximize),
        ];
        let table = instance_table(&records);
        assert!(table.contains("| min | - |  | - | 12 | - |"), "{table}");
        assert!(table.contains("| max | - |  | - | 25 | - |"), "{table}");
    }

    #[test]
    fn the_proved_count_is_of_instances_and_the_status_columns_say_they_count_runs() {
        let exp = Experiment::from_text(
            std::path::Path::new("e.toml"),
            "repetitions = 3\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"bitset\"\n",
        )
        .unwrap();
        let mut records = Vec::new();
        for (inst, status) in [("a", Status::Optimal), ("b", Status::Optimal)] {
            for k in 0..3 {
                records.push(Record {
                    repetition: k,
                    ..run(inst, "bitset", status, Some(1))
                });
            }
        }
        let md = optimisation_section(&exp, &records, true);
        assert!(md.contains("was proved for 2 of them"), "{md}");
        assert!(md.contains("| runs optimal |"), "{md}");
        // 6 optimal runs, 2 instances proved: the column the sentence counts says 2.
        assert!(md.contains("| `bitset` | 6 | 6 | 0 | 0 | 2 |"), "{md}");
    }

    #[test]
    fn a_verified_value_beating_a_proved_optimum_is_flagged_by_sense() {
        let with = |mut r: Record, sense| {
            r.sense = Some(sense);
            r.verified = true;
            r
        };
        use crate::model::ObjectiveSense::{Maximize, Minimize};
        let records = vec![
            // Minimise: 7 is worse than the optimum 5, 4 beats it.
            with(run("a", "bitset", Status::Optimal, Some(5)), Minimize),
            with(run("a", "sat", Status::Feasible, Some(7)), Minimize),
            with(run("a", "cbc", Status::Feasible, Some(4)), Minimize),
            // Maximise: 7 beats the optimum 5.
            with(run("b", "enum", Status::Optimal, Some(5)), Maximize),
            with(run("b", "highs", Status::Feasible, Some(7)), Maximize),
            // No sense on record: nothing can be said about one-sided values.
            run("c", "enum", Status::Optimal, Some(5)),
            run("c", "highs", Status::Feasible, Some(7)),
        ];
        assert_eq!(
            optimum_disagreements(&records),
            vec![
                "a: cbc found the verified value 4, better than the optimum 5 bitset proved"
                    .to_string(),
                "b: highs found the verified value 7, better than the optimum 5 enum proved"
                    .to_string(),
            ]
        );
    }

    #[test]
    fn statuses_and_optimisation_figures_agree_on_a_mixed_experiment() {
        // Issue 35, item 7: `feasible` was counted as `solved`, and the optimisation section's
        // column counted plain `solved` runs as proofs beside a sentence that did not.
        use crate::harness::report::{render_markdown, Provenance};
        use crate::model::ObjectiveSense::Minimize;
        let exp = Experiment::from_text(
            std::path::Path::new("e.toml"),
            "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\nlabel = \"a\"\n[[backends]]\nname = \"brute\"\nlabel = \"b\"\n",
        )
        .unwrap();
        let scored = |inst: &str, backend: &str, status, value| Record {
            sense: Some(Minimize),
            verified: true,
            ..run(inst, backend, status, Some(value))
        };
        let plain = |inst: &str, backend: &str, status| run(inst, backend, status, None);
        let records = [
            scored("x", "a", Status::Optimal, 5),
            scored("y", "a", Status::Feasible, 7),
            plain("p", "a", Status::Solved),
            plain("q", "a", Status::Solved),
            scored("x", "b", Status::Feasible, 6),
            scored("y", "b", Status::Optimal, 7),
            plain("p", "b", Status::Solved),
            plain("q", "b", Status::Timeout),
        ];
        let md = render_markdown(&exp, &records, 8, &Provenance::of(&[], "test"), true);
        let table = "| backend | runs | solved | optimal | feasible | infeasible | unknown | limit | timeout | memout | crash | unsupported | error | verified |";
        assert!(md.contains(table), "{md}");
        assert!(
            md.contains("| `a` (brute) | 4 | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |"),
            "{md}"
        );
        assert!(
            md.contains("| `b` (brute) | 4 | 1 | 1 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 0 |"),
            "{md}"
        );
        assert!(md.contains("2 instances (2 more without an objective are left out here); an optimum (or infeasibility) was proved for 2 of them"), "{md}");
        // Each backend proved one optimum: its runs, statuses and proved instances agree.
        assert!(md.contains("| `a` | 2 | 1 | 1 | 0 | 1 |"), "{md}");
        assert!(md.contains("| `b` | 2 | 1 | 1 | 0 | 1 |"), "{md}");
        // A report without objectives keeps its columns.
        let plain_only = [
            plain("p", "a", Status::Solved),
            plain("p", "b", Status::Solved),
        ];
        let md = render_markdown(&exp, &plain_only, 2, &Provenance::of(&[], "test"), true);
        assert!(
            md.contains("| backend | runs | solved | infeasible |"),
            "{md}"
        );
    }

    #[test]
    fn the_primal_gap_curve_follows_each_trace_and_averages_over_runs() {
        use crate::backend::incumbent::TracePoint;
        let point = |t: f64, v: i128| TracePoint {
            seconds: t,
            value: Some(v),
            bound: None,
        };
        // Minimising; the best verified value of instance a is 10 (milp's).
        let mut b = run("a", "bitset", Status::Feasible, Some(20));
        b.verified = true;
        b.sense = Some(crate::model::ObjectiveSense::Minimize);
        b.seconds = 2.0;
        b.stats.trace = vec![point(0.5, 40), point(1.0, 20)];
        let mut m = run("a", "milp", Status::Optimal, Some(10));
        m.verified = true;
        m.sense = b.sense;
        m.seconds = 3.0;
        let records = vec![b, m];
        let curves = primal_gap_curves(&records, &["bitset".into(), "milp".into(), "sat".into()]);
        assert_eq!(curves.len(), 2, "sat has no run: left out");
        // bitset: 1 until 0.5 s, then |10 - 40| / 40 = 0.75, then 0.5 from 1 s on.
        assert_eq!(
            curves[0].1,
            vec![(0.0, 1.0), (0.5, 0.75), (1.0, 0.5), (2.0, 0.5)]
        );
        // milp: no trace, so 1 until it ends with the optimum at 3 s.
        assert_eq!(curves[1].1, vec![(0.0, 1.0), (3.0, 0.0)]);
        assert_eq!(primal_gap(0, Some(0)), 0.0);
        assert_eq!(primal_gap(5, None), 1.0);
        assert_eq!(primal_gap(-5, Some(5)), 1.0);
    }
}
