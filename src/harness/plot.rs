//! SVG plots drawn with plotters.
//!
//! [`time_distribution`]: for each backend, its answered runs sorted by time: the `k`-th point
//! is the time within which it answered `k` instances (a "cactus" plot, log time axis). A curve
//! further right answered more instances; a lower curve answered them faster.
//!
//! [`size_curve`]: exact counts (as log10) against board size, for the search-space table.

use plotters::prelude::*;

use crate::backend::Status;
use crate::harness::experiment::Experiment;
use crate::harness::record::median;
use crate::harness::record::Record;

const SIZE: (u32, u32) = (900, 560);

fn colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    PALETTE[i % PALETTE.len()]
}

/// The time-distribution plot of `records` as SVG text. Per instance, the time is the median
/// over repetitions of the answered (solved or infeasible) runs.
pub fn time_distribution(experiment: &Experiment, records: &[Record]) -> Result<String, String> {
    let mut curves: Vec<(String, Vec<f64>)> = Vec::new();
    for (label, name) in experiment.labels() {
        if name == "peer" && !records.iter().any(|r| r.backend == label) {
            continue;
        }
        let mut per_instance: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        for r in records.iter().filter(|r| {
            r.backend == label && matches!(r.status, Status::Solved | Status::Infeasible)
        }) {
            per_instance
                .entry(&r.instance)
                .or_default()
                .push(r.seconds.max(1e-9));
        }
        let mut times: Vec<f64> = per_instance.values().filter_map(|v| median(v)).collect();
        times.sort_by(f64::total_cmp);
        curves.push((label, times));
    }
    let all: Vec<f64> = curves.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(0.0, f64::max);
    let (lo, hi) = if all.is_empty() {
        (1e-6, 1.0)
    } else {
        (lo / 2.0, (hi * 2.0).max(lo * 4.0))
    };
    let n_max = curves
        .iter()
        .map(|(_, t)| t.len())
        .max()
        .unwrap_or(0)
        .max(1);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{}: time per answered instance", experiment.name),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0usize..n_max + 1, (lo..hi).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("instances answered (sorted by time)")
            .y_desc("seconds (log scale)")
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (label, times)) in curves.iter().enumerate() {
            let c = colour(i);
            let points: Vec<(usize, f64)> =
                times.iter().enumerate().map(|(k, &t)| (k + 1, t)).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(format!("{label} ({} answered)", times.len()))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2))
                });
            if points.len() <= 60 {
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, c.filled())))
                    .map_err(|e| e.to_string())?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A log plot of exact counts against board size as SVG text: one curve per `(name, points)`
/// where a point is `(size, log10 count)`; sizes in `marked` get a ring on every curve.
pub fn size_curve(
    title: &str,
    curves: &[(String, Vec<(usize, f64)>)],
    marked: &[(String, usize)],
) -> Result<String, String> {
    let x_max = curves
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(x, _)| x))
        .max()
        .unwrap_or(1);
    let y_max = curves
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, y)| y))
        .fold(1.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0usize..x_max + 1, 0.0..y_max * 1.05)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("board width / size")
            .y_desc("log10 of the count")
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (name, points)) in curves.iter().enumerate() {
            let c = colour(i);
            chart
                .draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2))
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(|e| e.to_string())?;
            let rings: Vec<(usize, f64)> = points
                .iter()
                .filter(|(x, _)| marked.iter().any(|(n, m)| n == name && m == x))
                .copied()
                .collect();
            chart
                .draw_series(
                    rings
                        .iter()
                        .map(|&p| Circle::new(p, 8, BLACK.stroke_width(2))),
                )
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
