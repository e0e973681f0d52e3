//! Competition statistics of a solve experiment, per backend and per source: instances
//! answered, PAR-2, the distribution of time and CPU time over instances (median, mean, 90th
//! percentile, maximum), the spread over repetitions, the ratio to the baseline on the
//! instances both answered, and the virtual best solver (VBS: per instance, the fastest answer
//! of any backend or peer).
//!
//! Per instance, a backend's time is the median over its answered repetitions (solved or
//! proved infeasible); its CPU time is the median CPU time of those same runs. Everything is
//! computed from records alone.

use std::collections::BTreeMap;

use crate::harness::experiment::Task;
use crate::harness::record::{median, quantile, Record};

/// Median, mean, 90th percentile and maximum of a list of seconds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Distribution {
    /// Median (`None` when the list is empty, as for the others).
    pub median: Option<f64>,
    /// Arithmetic mean.
    pub mean: Option<f64>,
    /// Nearest-rank 90th percentile.
    pub p90: Option<f64>,
    /// Largest value.
    pub max: Option<f64>,
}

impl Distribution {
    /// The distribution of `xs`. Cost: one sort.
    pub fn of(xs: &[f64]) -> Distribution {
        if xs.is_empty() {
            return Distribution::default();
        }
        Distribution {
            median: median(xs),
            mean: Some(xs.iter().sum::<f64>() / xs.len() as f64),
            p90: quantile(xs, 0.9),
            max: xs.iter().copied().reduce(f64::max),
        }
    }
}

/// One row of the competition table: a backend, a peer, or the virtual best solver.
#[derive(Debug, Clone, PartialEq)]
pub struct Competitor {
    /// Label (`VBS` for the virtual best solver).
    pub label: String,
    /// Instances with at least one run of this backend.
    pub instances: usize,
    /// Instances with at least one answered run.
    pub answered: usize,
    /// PAR-2 over runs (see [`par2`]); `None` without a time limit.
    pub par2: Option<f64>,
    /// Per-instance time (seconds inside the backend) over answered instances.
    pub time: Distribution,
    /// Per-instance CPU seconds over answered instances whose runs measured it.
    pub cpu: Distribution,
    /// Per-instance wall seconds of the whole run (a backend's worker as its parent saw it; a
    /// peer's Python call with its model building) over answered instances that measured it;
    /// empty for the VBS.
    pub wall: Distribution,
    /// Spread over repetitions: the median over instances with two or more answered
    /// repetitions of (slowest - fastest) / median of that instance's times. `None` with
    /// fewer than two repetitions.
    pub spread: Option<f64>,
    /// Median time over the instances both this backend and the baseline answered, divided
    /// by the baseline's median on them, and how many those are.
    pub ratio: Option<(f64, usize)>,
    /// Instances on which this backend gave the fastest answer (it is the VBS there).
    pub fastest: usize,
}

/// Per-instance (median time, median CPU time, relative spread) of `label`'s answered runs.
struct PerInstance {
    time: BTreeMap<String, f64>,
    cpu: BTreeMap<String, f64>,
    wall: BTreeMap<String, f64>,
    spread: Vec<f64>,
}

fn per_instance(records: &[&Record], label: &str) -> PerInstance {
    let mut runs: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records
        .iter()
        .filter(|r| r.backend == label && r.status.is_answer())
    {
        runs.entry(&r.instance).or_default().push(r);
    }
    let mut out = PerInstance {
        time: BTreeMap::new(),
        cpu: BTreeMap::new(),
        wall: BTreeMap::new(),
        spread: Vec::new(),
    };
    for (inst, rs) in runs {
        let times: Vec<f64> = rs.iter().map(|r| r.seconds).collect();
        let Some(m) = median(&times) else { continue };
        out.time.insert(inst.to_string(), m);
        let cpu: Vec<f64> = rs.iter().filter_map(|r| r.cpu_seconds).collect();
        if let Some(c) = median(&cpu) {
            out.cpu.insert(inst.to_string(), c);
        }
        let wall: Vec<f64> = rs.iter().filter_map(|r| r.wall_seconds).collect();
        if let Some(w) = median(&wall) {
            out.wall.insert(inst.to_string(), w);
        }
        if times.len() >= 2 && m > 0.0 {
            let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = times.iter().copied().fold(0.0, f64::max);
            out.spread.push((hi - lo) / m);
        }
    }
    out
}

/// The PAR-2 score of `runs` under a time limit of `limit` seconds: the mean over runs of the
/// time of an answered run (at most the limit) and twice the limit for a run that ended
/// `limit`, `timeout`, `memout` or `crash`; runs ending `unknown`, `unsupported` or `error`
/// are left out (they are no failure to finish in time). `None` when no run counts.
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

/// Ratio of medians over the instances in both maps, and how many those are.
pub fn ratio_to(base: &BTreeMap<String, f64>, own: &BTreeMap<String, f64>) -> Option<(f64, usize)> {
    let (a, z): (Vec<f64>, Vec<f64>) = own
        .iter()
        .filter_map(|(k, t)| base.get(k).map(|bt| (*t, *bt)))
        .unzip();
    match (median(&a), median(&z)) {
        (Some(x), Some(y)) if y > 0.0 => Some((x / y, a.len())),
        _ => None,
    }
}

/// The competition table of `records` for `labels` (in order), then the virtual best solver
/// over the solving labels (counting runs do not compete; without a solving label there is no
/// VBS row), with ratios against `baseline` and
/// PAR-2 under `time_limit` seconds. Cost: a few passes over the records per label.
pub fn competition(
    records: &[&Record],
    labels: &[String],
    baseline: Option<&str>,
    time_limit: Option<f64>,
) -> Vec<Competitor> {
    let per: Vec<PerInstance> = labels.iter().map(|l| per_instance(records, l)).collect();
    let solving: Vec<bool> = labels
        .iter()
        .map(|l| {
            records
                .iter()
                .any(|r| &r.backend == l && r.task == Task::Solve)
        })
        .collect();
    // The VBS: per instance, the fastest answer among solving labels, and who gave it.
    let mut best: BTreeMap<String, (f64, Option<f64>, usize)> = BTreeMap::new();
    for (i, p) in per.iter().enumerate().filter(|(i, _)| solving[*i]) {
        for (inst, &t) in &p.time {
            let cpu = p.cpu.get(inst).copied();
            let e = best.entry(inst.clone()).or_insert((t, cpu, i));
            if t < e.0 {
                *e = (t, cpu, i);
            }
        }
    }
    let base = baseline
        .and_then(|b| labels.iter().position(|l| l == b))
        .map(|i| &per[i].time);
    let mut rows: Vec<Competitor> = labels
        .iter()
        .zip(&per)
        .enumerate()
        .map(|(i, (label, p))| {
            let mine: Vec<&Record> = records
                .iter()
                .copied()
                .filter(|r| &r.backend == label)
                .collect();
            let instances = mine
                .iter()
                .map(|r| r.instance.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            Competitor {
                label: label.clone(),
                instances,
                answered: p.time.len(),
                par2: time_limit.and_then(|t| par2(&mine, t)),
                time: Distribution::of(&p.time.values().copied().collect::<Vec<_>>()),
                cpu: Distribution::of(&p.cpu.values().copied().collect::<Vec<_>>()),
                wall: Distribution::of(&p.wall.values().copied().collect::<Vec<_>>()),
                spread: median(&p.spread),
                ratio: base.and_then(|b| ratio_to(b, &p.time)),
                fastest: best.values().filter(|(_, _, w)| *w == i).count(),
            }
        })
        .collect();
    let all_instances = records
        .iter()
        .map(|r| r.instance.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let vbs_time: BTreeMap<String, f64> = best.iter().map(|(k, v)| (k.clone(), v.0)).collect();
    let vbs_times: Vec<f64> = vbs_time.values().copied().collect();
    let vbs_cpu: Vec<f64> = best.values().filter_map(|v| v.1).collect();
    // PAR-2 of the VBS: its answered instances at their best time, every other instance twice
    // the limit.
    let vbs_par2 = time_limit.map(|t| {
        let missing = all_instances - vbs_times.len();
        (vbs_times.iter().map(|x| x.min(t)).sum::<f64>() + missing as f64 * 2.0 * t)
            / all_instances.max(1) as f64
    });
    // Without a solving backend (a counting experiment) there is no VBS.
    if !solving.iter().any(|s| *s) {
        return rows;
    }
    rows.push(Competitor {
        label: "VBS".into(),
        instances: all_instances,
        answered: vbs_times.len(),
        par2: vbs_par2,
        time: Distribution::of(&vbs_times),
        cpu: Distribution::of(&vbs_cpu),
        wall: Distribution::default(),
        spread: None,
        ratio: base.and_then(|b| ratio_to(b, &vbs_time)),
        fastest: best.len(),
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Status;

    fn run(backend: &str, instance: &str, rep: u32, status: Status, seconds: f64) -> Record {
        Record {
            status,
            seconds,
            cpu_seconds: Some(seconds / 2.0),
            wall_seconds: Some(seconds + 0.25),
            ..Record::new(instance, backend, backend, Task::Solve, rep)
        }
    }

    #[test]
    fn the_vbs_takes_the_fastest_answer_per_instance_and_spread_needs_repetitions() {
        let records = [
            run("a", "x", 0, Status::Solved, 1.0),
            run("a", "x", 1, Status::Solved, 3.0),
            run("a", "y", 0, Status::Solved, 4.0),
            run("a", "y", 1, Status::Solved, 4.0),
            run("b", "x", 0, Status::Solved, 0.5),
            run("b", "y", 0, Status::Timeout, 11.0),
            run("b", "z", 0, Status::Solved, 8.0),
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let labels = ["a".to_string(), "b".to_string()];
        let rows = competition(&refs, &labels, Some("a"), Some(10.0));
        let (a, b, vbs) = (&rows[0], &rows[1], &rows[2]);
        // a: x at median 2.0, y at 4.0; spread of x is (3 - 1) / 2, of y 0.
        assert_eq!(
            (a.answered, a.time.median, a.time.max),
            (2, Some(3.0), Some(4.0))
        );
        assert_eq!(a.spread, Some(0.5));
        assert_eq!(a.cpu.mean, Some(1.5));
        // Wall time: per instance the median of the runs' wall seconds (seconds + 0.25 here).
        assert_eq!(a.wall.median, Some(3.25));
        assert_eq!(vbs.wall, Distribution::default());
        // b answered x and z; on x (the one both answered) it took 0.5 against a's 2.0.
        assert_eq!(b.ratio, Some((0.25, 1)));
        assert_eq!(b.spread, None);
        // (0.5 + 20 + 8) / 3.
        assert_eq!(b.par2, Some(9.5));
        // VBS: x by b (0.5), y by a (4.0), z by b (8.0).
        assert_eq!((a.fastest, b.fastest), (1, 2));
        assert_eq!((vbs.instances, vbs.answered), (3, 3));
        assert_eq!(vbs.time.max, Some(8.0));
        assert_eq!(vbs.par2, Some((0.5 + 4.0 + 8.0) / 3.0));
    }
}
