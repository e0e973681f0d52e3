//! The figures of a solve report, decided and drawn from the records alone: cactus plots per
//! source, the scatter against the baseline, time against size, the LP-integral share; and the
//! Markdown section listing them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::*;
use crate::harness::source::SizeFamily;

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
    /// The mean primal gap against time, per backend (optimisation runs with traces).
    PrimalGap,
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
pub(super) fn sources_of(records: &[Record]) -> Vec<String> {
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
    let limit = time_limit_on_record(records).map_or(String::new(), |t| {
        format!("; the dashed line is the time limit ({t} s)")
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
                file: format!("{name}.cactus-{}.svg", crate::harness::store::model_file_name(g).trim_end_matches(".json")),
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
    if records.iter().any(|r| r.stats.relaxation.is_some()) {
        out.push(Figure {
            file: format!("{name}.integral.svg"),
            caption: "Per source, the share of runs whose LP relaxation optimum was integral (then it is a verified solution), of the runs that report it.".into(),
            kind: FigureKind::IntegralShare,
        });
    }
    if records.iter().any(|r| !r.stats.trace.is_empty()) {
        out.push(Figure {
            file: format!("{name}.primal-gap.svg"),
            caption: format!("Mean primal gap over time per backend and peer (`|best - value| / max(|best|, |value|)` against the best verified value of the instance, 1 before a first solution; log time){limit}. Lower earlier is better."),
            kind: FigureKind::PrimalGap,
        });
    }
    let (labels, _) = present_labels(experiment, records);
    let names: Vec<String> = labels.into_iter().map(|(l, _)| l).collect();
    if !size_panels(experiment, records, &names).0.is_empty() {
        out.push(Figure {
            file: format!("{name}.size-time.svg"),
            caption: "Median time per answered instance against puzzle size, per backend and peer (log scale): one panel per kind of puzzle or family of generic models, its axis saying what size measures there.".into(),
            kind: FigureKind::SizeTime,
        });
    }
    out
}

/// The title of the experiment's figures: its `title`, else its name.
pub(super) fn title_of(experiment: &Experiment) -> String {
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
            plot::cactus(&t, &series, time_limit_on_record(records))
        }
        FigureKind::Scatter(base) => {
            let all: Vec<&Record> = records.iter().collect();
            scatter_figure(records, &per_label(&all), base, &title)
        }
        FigureKind::IntegralShare => {
            let bars: Vec<(String, usize, usize)> = sources_of(records)
                .into_iter()
                .map(|g| {
                    let flags: Vec<bool> = records
                        .iter()
                        .filter(|r| r.group_name() == g)
                        .filter_map(|r| r.stats.relaxation.map(|lp| lp.integral))
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
        FigureKind::PrimalGap => {
            let names: Vec<String> = labels.iter().map(|(l, _)| l.clone()).collect();
            let curves = crate::harness::optimisation::primal_gap_curves(records, &names);
            plot::gap_over_time(
                &format!("{title}: primal gap over time"),
                &curves,
                time_limit_on_record(records),
            )
        }
        FigureKind::SizeTime => {
            let names: Vec<String> = labels.iter().map(|(l, _)| l.clone()).collect();
            let (panels, single) = size_panels(experiment, records, &names);
            let notes: Vec<String> = (!single.is_empty())
                .then(|| format!("not drawn, one size only: {}", single.join(", ")))
                .into_iter()
                .collect();
            plot::size_time(
                &format!("{title}: time against puzzle size"),
                &names,
                &panels,
                &notes,
            )
        }
    }
}

/// The size families of `records` (see [`SizeFamily`]), in order of first appearance: each
/// record's group mapped through the experiment's sources (a group no source names is its
/// own family, its sizes unexplained).
fn size_families(experiment: &Experiment, records: &[Record]) -> Vec<(SizeFamily, Vec<String>)> {
    let known: Vec<SizeFamily> = experiment.sources.iter().map(|s| s.size_family()).collect();
    let mut out: Vec<(SizeFamily, Vec<String>)> = Vec::new();
    for group in sources_of(records) {
        let f = (known.iter().find(|f| f.group == group).cloned())
            .unwrap_or_else(|| SizeFamily::unknown(&group));
        match out.iter_mut().find(|(o, _)| o.family == f.family) {
            Some((_, groups)) => groups.push(group),
            None => out.push((f, vec![group])),
        }
    }
    out
}

/// The panels of the size-time figure: per size family with at least two sizes answered, per
/// label, the median answered time at each size; and the families with one size only.
fn size_panels(
    experiment: &Experiment,
    records: &[Record],
    labels: &[String],
) -> (Vec<plot::SizePanel>, Vec<String>) {
    let mut panels = Vec::new();
    let mut single = Vec::new();
    for (family, groups) in size_families(experiment, records) {
        let curves: Vec<(usize, Vec<(usize, f64)>)> = (labels.iter().enumerate())
            .map(|(i, l)| {
                let mut by: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
                for r in records.iter().filter(|r| {
                    &r.backend == l
                        && r.status.is_answer()
                        && groups.iter().any(|g| g == r.group_name())
                }) {
                    if let Some(n) = r.size {
                        by.entry(n).or_default().push(r.seconds);
                    }
                }
                let points = (by.into_iter())
                    .filter_map(|(n, v)| median(&v).map(|m| (n, m.max(1e-9))))
                    .collect();
                (i, points)
            })
            .collect();
        let sizes: BTreeSet<usize> = (curves.iter())
            .flat_map(|(_, p)| p.iter().map(|&(n, _)| n))
            .collect();
        if sizes.len() < 2 {
            single.push(family.family);
            continue;
        }
        panels.push(plot::SizePanel {
            name: match groups.len() {
                1 => family.family,
                n => format!("{} ({n} sources)", family.family),
            },
            axis: family.axis,
            curves,
        });
    }
    (panels, single)
}

/// The scatter of each label's per-instance time (`times`: median answered time per
/// instance, per label) against `base`'s; runs that reached the time limit are drawn at it.
fn scatter_figure(
    records: &[Record],
    times: &[(String, BTreeMap<String, f64>)],
    base: &String,
    title: &str,
) -> Result<String, String> {
    let limit = time_limit_on_record(records);
    let Some((_, base_times)) = times.iter().find(|(l, _)| l == base) else {
        return plot::scatter(title, &[], limit);
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

/// The Markdown section listing the figures, each with its caption.
pub(super) fn figures_section(experiment: &Experiment, records: &[Record]) -> String {
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
