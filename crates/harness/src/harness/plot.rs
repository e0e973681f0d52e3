//! SVG figures drawn with plotters, made to read alone (in print, in black and white): each
//! has a title saying what it shows, every series a distinct colour *and* marker (12 of each
//! before any repeats), the legend in its own panel beside the data, and series with nothing to
//! draw named in a note instead of an empty legend entry.
//!
//! - [`cactus`]: per backend, its answered instances sorted by time: the `k`-th point is the
//!   time within which it answered `k` instances (log time axis), with the time limit drawn.
//! - [`scatter`]: per instance, one backend's time against another's, log-log, with the
//!   diagonal; panels for several pairs.
//! - [`size_time`]: median time against puzzle size, per backend (log time axis), one panel
//!   per kind (sizes that mean different things never share an axis).
//! - [`size_curve`]: exact counts (as log10) against board size, for the search-space table.
//! - [`shares`]: a share (0 to 100 %) per set, as bars.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const SIZE: (u32, u32) = (960, 560);
/// Width of the legend panel on the right of each figure.
const LEGEND_WIDTH: u32 = 230;

/// A palette of 12 colours that stay apart (Paul Tol's "muted" and "bright" sets, darkened
/// where they would be too pale on white).
const PALETTE: [RGBColor; 12] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(51, 34, 136),
    RGBColor(136, 34, 85),
    RGBColor(17, 119, 51),
    RGBColor(153, 153, 51),
    RGBColor(102, 102, 102),
    RGBColor(0, 0, 0),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Marker shapes; with filled and hollow variants, 12 distinct markers.
const SHAPES: usize = 6;

/// The marker of series `series` at backend pixel `(x, y)`, one of 12: a filled circle,
/// square, triangle up, triangle down, diamond, an x; a plus, a hollow square, triangle up,
/// triangle down, diamond, an asterisk. No series gets an open circle: that marks a run drawn
/// at the time limit ([`scatter`]).
fn marker<'b>(
    series: usize,
    (x, y): (i32, i32),
    c: RGBColor,
) -> Vec<DynElement<'static, SVGBackend<'b>, (i32, i32)>> {
    // Colours repeat every 12 series; the marker shifts by one each round, so the
    // (colour, marker) pair stays distinct for 144 series.
    let i = (series + series / PALETTE.len()) % (2 * SHAPES);
    let filled = i < SHAPES;
    let style = if filled {
        c.filled()
    } else {
        c.stroke_width(2)
    };
    let r = 5;
    let poly = |pts: Vec<(i32, i32)>| -> DynElement<'static, SVGBackend<'b>, (i32, i32)> {
        let pts: Vec<(i32, i32)> = pts.into_iter().map(|(dx, dy)| (x + dx, y + dy)).collect();
        if filled {
            Polygon::new(pts, style).into_dyn()
        } else {
            let mut closed = pts.clone();
            closed.push(pts[0]);
            PathElement::new(closed, style).into_dyn()
        }
    };
    let line = |(x0, y0): (i32, i32), (x1, y1): (i32, i32)| {
        PathElement::new(vec![(x + x0, y + y0), (x + x1, y + y1)], c.stroke_width(2)).into_dyn()
    };
    match i {
        // The open circle is the time limit's mark: a plus instead.
        6 => return vec![line((0, -r - 1), (0, r + 1)), line((-r - 1, 0), (r + 1, 0))],
        11 => {
            return vec![
                line((0, -r - 1), (0, r + 1)),
                line((-r, -r / 2 - 1), (r, r / 2 + 1)),
                line((-r, r / 2 + 1), (r, -r / 2 - 1)),
            ]
        }
        _ => {}
    }
    match i % SHAPES {
        0 => vec![Circle::new((x, y), r, style).into_dyn()],
        1 => vec![poly(vec![(-r, -r), (r, -r), (r, r), (-r, r)])],
        2 => vec![poly(vec![(0, -r - 1), (r + 1, r), (-r - 1, r)])],
        3 => vec![poly(vec![(0, r + 1), (r + 1, -r), (-r - 1, -r)])],
        4 => vec![poly(vec![(0, -r - 2), (r + 2, 0), (0, r + 2), (-r - 2, 0)])],
        _ => vec![
            PathElement::new(vec![(x - r, y - r), (x + r, y + r)], c.stroke_width(2)).into_dyn(),
            PathElement::new(vec![(x - r, y + r), (x + r, y - r)], c.stroke_width(2)).into_dyn(),
        ],
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Draws the legend panel: one entry per `(series index, text)`, marker and line, then the
/// `notes` (series not drawn, what a mark means) in smaller type.
fn legend(area: &Area<'_>, entries: &[(usize, String)], notes: &[String]) -> Result<(), String> {
    let text = ("sans-serif", 15).into_font();
    let small = ("sans-serif", 13).into_font().color(&RGBColor(60, 60, 60));
    let mut y = 50;
    for (i, label) in entries {
        let c = colour(*i);
        area.draw(&PathElement::new(vec![(8, y), (44, y)], c.stroke_width(2)))
            .map_err(err)?;
        for m in marker(*i, (26, y), c) {
            area.draw(&m).map_err(err)?;
        }
        area.draw(&Text::new(label.clone(), (52, y - 8), text.clone()))
            .map_err(err)?;
        y += 24;
    }
    y += 10;
    for note in notes {
        for line in wrap(note, 30) {
            area.draw(&Text::new(line, (8, y), small.clone()))
                .map_err(err)?;
            y += 17;
        }
        y += 4;
    }
    Ok(())
}

/// `text` broken into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("never empty");
        if !last.is_empty() && last.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

/// The title area, the plot area and the legend panel of a figure; the panel is wide
/// enough for the longest of `labels` (within limits).
fn layout<'a>(
    root: &Area<'a>,
    title: &str,
    labels: &[String],
) -> Result<(Area<'a>, Area<'a>), String> {
    root.fill(&WHITE).map_err(err)?;
    let root = root
        .titled(title, ("sans-serif", title_size(title)))
        .map_err(err)?;
    let (w, _) = root.dim_in_pixel();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    let panel = (60 + longest * 8).clamp(LEGEND_WIDTH, 380);
    let (plot, side) = root.split_horizontally(w.saturating_sub(panel));
    Ok((plot, side))
}

/// The title's font size: smaller for long titles, so they fit the figure's width.
fn title_size(title: &str) -> u32 {
    let n = title.chars().count() as u32;
    if n <= 80 {
        20
    } else {
        (20 * 80 / n).max(12)
    }
}

/// The note naming series with nothing to draw: each by name when few, else how many.
fn not_drawn(empty: &[&str]) -> String {
    if empty.len() <= 3 {
        format!("not drawn, no answer: {}", empty.join(", "))
    } else {
        format!(
            "not drawn, no answer: {} series (see the report's tables)",
            empty.len()
        )
    }
}

/// A log-axis tick label: `10⁻³` at a power of ten, nothing between them (the axis's
/// description gives the unit).
pub fn power_of_ten(value: &f64) -> String {
    if *value <= 0.0 {
        return String::new();
    }
    let exponent = value.log10();
    if (exponent - exponent.round()).abs() > 1e-6 {
        return String::new();
    }
    let superscript: String = format!("{}", exponent.round() as i64)
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize - '0' as usize],
        })
        .collect();
    format!("10{superscript}")
}

/// A log axis range covering `values` (and `extra`), with room around them.
fn log_range(values: impl Iterator<Item = f64>, extra: Option<f64>) -> (f64, f64) {
    let v: Vec<f64> = values.filter(|x| *x > 0.0).chain(extra).collect();
    if v.is_empty() {
        return (1e-6, 1.0);
    }
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(0.0, f64::max);
    (lo / 2.0, (hi * 2.0).max(lo * 4.0))
}

/// One series of a cactus plot: its label and its times (seconds).
pub type Series = (String, Vec<f64>);

/// One curve: its label and its `(size, y)` points.
pub type Curve = (String, Vec<(usize, f64)>);

/// The cactus plot of `series` (each: a label and its per-instance times of answered
/// instances) as SVG text, titled `title`, with the time limit drawn as a dashed line.
/// Series with no answer are named in the legend panel's note, not drawn. Cost: one pass.
pub fn cactus(title: &str, series: &[Series], time_limit: Option<f64>) -> Result<String, String> {
    let sorted: Vec<(usize, &String, Vec<f64>)> = series
        .iter()
        .enumerate()
        .map(|(i, (l, t))| {
            let mut t: Vec<f64> = t.iter().map(|x| x.max(1e-9)).collect();
            t.sort_by(f64::total_cmp);
            (i, l, t)
        })
        .collect();
    let (lo, hi) = log_range(
        sorted.iter().flat_map(|(_, _, t)| t.iter().copied()),
        time_limit,
    );
    let n_max = sorted
        .iter()
        .map(|(_, _, t)| t.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let labels: Vec<String> = series.iter().map(|(l, _)| format!("{l} (0000)")).collect();
        let (plot, side) = layout(&root, title, &labels)?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0usize..n_max + 1, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("instances answered (each series sorted by its own time)")
            .y_desc("seconds per instance (log scale)")
            .y_label_formatter(&power_of_ten)
            .draw()
            .map_err(err)?;
        if let Some(t) = time_limit {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0, t), (n_max + 1, t)],
                    8,
                    5,
                    BLACK.stroke_width(1),
                ))
                .map_err(err)?;
            // Above the line, its bottom a few pixels clear of it.
            let (_, y) = chart.plotting_area().map_coordinate(&(1, t));
            let (bx, by) = chart.plotting_area().get_base_pixel();
            let (x, _) = chart.plotting_area().map_coordinate(&(1, t));
            let style = TextStyle::from(("sans-serif", 13).into_font())
                .pos(Pos::new(HPos::Left, VPos::Bottom));
            chart
                .plotting_area()
                .strip_coord_spec()
                .draw(&Text::new(
                    format!("time limit {}", crate::render::duration_text(t)),
                    (x - bx + 4, y - by - 4),
                    style,
                ))
                .map_err(err)?;
        }
        let mut entries = Vec::new();
        let mut empty = Vec::new();
        for (i, label, times) in &sorted {
            if times.is_empty() {
                empty.push(label.as_str());
                continue;
            }
            let c = colour(*i);
            let points: Vec<(usize, f64)> =
                times.iter().enumerate().map(|(k, &t)| (k + 1, t)).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))
                .map_err(err)?;
            draw_markers(&mut chart, &points, *i)?;
            entries.push((*i, format!("{label} ({})", times.len())));
        }
        let mut notes = vec!["(n): instances answered".to_string()];
        if !empty.is_empty() {
            notes.push(not_drawn(&empty));
        }
        legend(&side, &entries, &notes)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Markers along a series: every point when there are few, else about 12 spread evenly
/// (offset per series, so markers of close curves do not sit on each other).
fn draw_markers<X, Y>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    points: &[(X::ValueType, Y::ValueType)],
    i: usize,
) -> Result<(), String>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone,
    Y::ValueType: Clone,
{
    let step = if points.len() <= 24 {
        1
    } else {
        points.len() / 12
    };
    let offset = if step > 1 { (i * step / 5) % step } else { 0 };
    let c = colour(i);
    let area = chart.plotting_area();
    // Pixel positions are absolute; drawing on the stripped area is relative to its corner.
    let (bx, by) = area.get_base_pixel();
    for p in points.iter().skip(offset).step_by(step) {
        let (x, y) = area.map_coordinate(p);
        let px = (x - bx, y - by);
        for m in marker(i, px, c) {
            area.strip_coord_spec().draw(&m).map_err(err)?;
        }
    }
    Ok(())
}

/// One scatter panel: one backend's per-instance times against another's.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The x backend.
    pub x_label: String,
    /// The y backend.
    pub y_label: String,
    /// The y backend's index (its colour and marker).
    pub series: usize,
    /// `(x time, y time)` of the instances both answered.
    pub points: Vec<(f64, f64)>,
    /// `(x time, y time)` of the instances where one or both reached the time limit (or ran
    /// out of memory, or crashed): that side is drawn at the limit, with an open circle.
    pub at_limit: Vec<(f64, f64)>,
}

/// Panels of log-log scatter plots as SVG text: for each [`Panel`] one panel of per-instance
/// times, with the diagonal (equal time) dashed; a point above it means the y backend was
/// slower there. Runs that reached `time_limit` are drawn at it, as open circles.
pub fn scatter(title: &str, panels: &[Panel], time_limit: Option<f64>) -> Result<String, String> {
    let cols = panels.len().clamp(1, 3);
    let rows = panels.len().div_ceil(cols).max(1);
    let size = (SIZE.0, 60 + 300 * rows as u32);
    // The limit widens the axes only when some run is drawn at it.
    let limit_drawn = panels.iter().any(|p| !p.at_limit.is_empty());
    let (lo, hi) = log_range(
        panels
            .iter()
            .flat_map(|p| (p.points.iter().chain(&p.at_limit)).flat_map(|&(a, b)| [a, b])),
        time_limit.filter(|_| limit_drawn),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(title, ("sans-serif", title_size(title)))
            .map_err(err)?;
        for (k, area) in root.split_evenly((rows, cols)).iter().enumerate() {
            let Some(panel) = panels.get(k) else {
                continue;
            };
            let (xl, yl, series) = (&panel.x_label, &panel.y_label, &panel.series);
            let caption = match panel.at_limit.len() {
                0 => format!("{yl} against {xl} ({} instances)", panel.points.len()),
                // Short: three panels share the figure's width.
                n => format!(
                    "{yl} vs {xl}: {} ({n} at the limit: ○)",
                    panel.points.len() + n
                ),
            };
            let mut chart = ChartBuilder::on(area)
                .margin(8)
                .caption(caption, ("sans-serif", 14))
                .x_label_area_size(35)
                .y_label_area_size(55)
                .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_desc(format!("{xl} s"))
                .y_desc(format!("{yl} s"))
                .x_labels(4)
                .y_labels(4)
                .x_label_formatter(&power_of_ten)
                .y_label_formatter(&power_of_ten)
                .draw()
                .map_err(err)?;
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(lo, lo), (hi, hi)],
                    6,
                    4,
                    BLACK.stroke_width(1),
                ))
                .map_err(err)?;
            let (bx, by) = chart.plotting_area().get_base_pixel();
            let area = chart.plotting_area().strip_coord_spec();
            for p in &panel.points {
                let (x, y) = chart.plotting_area().map_coordinate(p);
                for m in marker(*series, (x - bx, y - by), colour(*series)) {
                    area.draw(&m).map_err(err)?;
                }
            }
            for p in &panel.at_limit {
                let (x, y) = chart.plotting_area().map_coordinate(p);
                area.draw(&Circle::new(
                    (x - bx, y - by),
                    6,
                    colour(*series).stroke_width(2),
                ))
                .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One panel of [`size_time`]: a family of sources whose sizes share one axis.
#[derive(Debug, Clone, PartialEq)]
pub struct SizePanel {
    /// The family (a puzzle kind, or a family of generic models such as `knapsack`).
    pub name: String,
    /// What its sizes measure: the x axis label.
    pub axis: String,
    /// Per series (its index into the legend's labels), its `(size, median seconds)` points.
    pub curves: Vec<(usize, Vec<(usize, f64)>)>,
}

/// The fewest points of a size-time series drawn joined by a line (fewer: markers only).
const MIN_JOINED: usize = 5;

/// The x axis of a size-time panel over sizes `lo..=hi`: a twelfth of the span (at least 1)
/// added on each side, so a marker at the smallest or largest size is drawn whole.
fn size_axis(lo: usize, hi: usize) -> (usize, usize) {
    let pad = ((hi - lo.min(hi)) / 12).max(1);
    (lo.saturating_sub(pad), hi + pad)
}

/// Median time against puzzle size as SVG text: one panel per [`SizePanel`] (a kind, or a
/// family of generic models: sizes that mean different things never share an axis or a line),
/// one series per label inside it, the time axis (log scale) the same in every panel. Labels
/// without a point anywhere are named in the note; `notes` follow it.
pub fn size_time(
    title: &str,
    labels: &[String],
    panels: &[SizePanel],
    notes: &[String],
) -> Result<String, String> {
    let (lo, hi) = log_range(
        (panels.iter()).flat_map(|p| p.curves.iter().flat_map(|(_, c)| c.iter().map(|&(_, t)| t))),
        None,
    );
    let cols = if panels.len() > 1 { 2 } else { 1 };
    let rows = panels.len().div_ceil(cols).max(1);
    let size = (
        SIZE.0 + 240 * (cols as u32 - 1),
        (60 + 340 * rows as u32).max(SIZE.1),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let (plot, side) = layout(&root, title, labels)?;
        let mut drawn = vec![false; labels.len()];
        for (panel, area) in panels.iter().zip(plot.split_evenly((rows, cols)).iter()) {
            let xs = || {
                panel
                    .curves
                    .iter()
                    .flat_map(|(_, c)| c.iter().map(|&(x, _)| x))
            };
            let (x_lo, x_hi) = size_axis(xs().min().unwrap_or(0), xs().max().unwrap_or(1));
            let mut chart = ChartBuilder::on(area)
                .margin(10)
                .caption(&panel.name, ("sans-serif", 15))
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(x_lo..x_hi, (lo..hi).log_scale())
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_desc(panel.axis.as_str())
                .y_desc("median seconds (log scale)")
                .y_label_formatter(&power_of_ten)
                .draw()
                .map_err(err)?;
            for (i, points) in panel.curves.iter().filter(|(_, p)| !p.is_empty()) {
                // A line through 2 to 4 medians suggests a trend they cannot show.
                if points.len() >= MIN_JOINED {
                    chart
                        .draw_series(LineSeries::new(points.clone(), colour(*i).stroke_width(2)))
                        .map_err(err)?;
                }
                draw_markers(&mut chart, points, *i)?;
                if let Some(d) = drawn.get_mut(*i) {
                    *d = true;
                }
            }
        }
        let entries: Vec<(usize, String)> = (labels.iter().enumerate())
            .filter(|(i, _)| drawn[*i])
            .map(|(i, l)| (i, l.clone()))
            .collect();
        let empty: Vec<&str> = (labels.iter().enumerate())
            .filter(|(i, _)| !drawn[*i])
            .map(|(_, l)| l.as_str())
            .collect();
        let mut all_notes = vec![
            "per size: the median over its answered instances; one panel per kind".to_string(),
            format!("lines join a series of {MIN_JOINED} or more sizes"),
        ];
        if !empty.is_empty() {
            all_notes.push(not_drawn(&empty));
        }
        all_notes.extend(notes.iter().cloned());
        legend(&side, &entries, &all_notes)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A log plot of exact counts against board size as SVG text: one series per
/// `(name, points)` where a point is `(size, log10 count)` (sizes with a zero count are left
/// out by the caller and named in `notes`); each `(series name, size, text)` in `marked` gets
/// a ring and its text beside it.
pub fn size_curve(
    title: &str,
    curves: &[Curve],
    marked: &[(String, usize, String)],
    notes: &[String],
) -> Result<String, String> {
    // Hex widths and Queens sides are different axes: one panel each (hex on top).
    let indexed: Vec<(usize, &Curve)> = curves.iter().enumerate().collect();
    let (hex, other): (Vec<_>, Vec<_>) = indexed
        .into_iter()
        .partition(|(_, (name, _))| name.starts_with("hex"));
    let panels: Vec<(&[(usize, &Curve)], &str)> = [
        (&hex[..], "hex board width"),
        (&other[..], "Queens grid side n"),
    ]
    .into_iter()
    .filter(|(c, _)| !c.is_empty())
    .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let labels: Vec<String> = curves.iter().map(|(l, _)| l.clone()).collect();
        let (plot, side) = layout(&root, title, &labels)?;
        let areas = plot.split_evenly((panels.len().max(1), 1));
        for ((panel, x_desc), area) in panels.iter().zip(&areas) {
            size_panel(area, panel, marked, x_desc)?;
        }
        let entries: Vec<(usize, String)> = curves
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (i, name.clone()))
            .collect();
        legend(&side, &entries, notes)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One panel of [`size_curve`]: its curves (with their series index) against `x_desc`, the
/// marked points circled and labelled above them.
fn size_panel(
    area: &Area<'_>,
    curves: &[(usize, &Curve)],
    marked: &[(String, usize, String)],
    x_desc: &str,
) -> Result<(), String> {
    let x_max = curves
        .iter()
        .flat_map(|(_, (_, p))| p.iter().map(|&(x, _)| x))
        .max()
        .unwrap_or(1);
    let y_max = curves
        .iter()
        .flat_map(|(_, (_, p))| p.iter().map(|&(_, y)| y))
        .fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        // Head room for the marked points' labels.
        .build_cartesian_2d(0usize..x_max + 1, 0.0..y_max * 1.25)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("log10 of the count")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(err)?;
    for &(i, (name, points)) in curves {
        chart
            .draw_series(LineSeries::new(points.clone(), colour(i).stroke_width(2)))
            .map_err(err)?;
        draw_markers(&mut chart, points, i)?;
        for (_, x, text) in marked.iter().filter(|(n, _, _)| n == name) {
            if let Some(&p) = points.iter().find(|(px, _)| px == x) {
                chart
                    .draw_series(std::iter::once(Circle::new(p, 11, BLACK.stroke_width(2))))
                    .map_err(err)?;
                // The label in the empty top-left corner, a thin line down to the circle.
                let at = (1, y_max * 0.85);
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(at.0 + 1, at.1), p],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(err)?;
                let style = TextStyle::from(("sans-serif", 13).into_font())
                    .pos(Pos::new(HPos::Left, VPos::Bottom));
                chart
                    .draw_series(std::iter::once(Text::new(text.clone(), at, style)))
                    .map_err(err)?;
            }
        }
    }
    Ok(())
}

/// Bars of a share in percent per set as SVG text: `(set, part, whole)` for each bar, drawn
/// as `100 * part / whole` and labelled `part of whole`.
pub fn shares(
    title: &str,
    y_desc: &str,
    bars: &[(String, usize, usize)],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(title, ("sans-serif", title_size(title)))
            .map_err(err)?;
        let n = bars.len().max(1);
        let mut chart = ChartBuilder::on(&root)
            .margin(16)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..n as f64, 0.0..110.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for (i, (set, part, whole)) in bars.iter().enumerate() {
            let share = if *whole == 0 {
                0.0
            } else {
                100.0 * *part as f64 / *whole as f64
            };
            let x = i as f64;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x + 0.2, 0.0), (x + 0.8, share)],
                    colour(i).filled(),
                )))
                .map_err(err)?;
            chart
                .draw_series([
                    Text::new(
                        set.clone(),
                        (x + 0.2, share + 10.0),
                        ("sans-serif", 13).into_font(),
                    ),
                    Text::new(
                        format!("{share:.1}% ({part} of {whole})"),
                        (x + 0.2, share + 4.0),
                        ("sans-serif", 13).into_font(),
                    ),
                ])
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Step curves of a mean primal gap (0 to 1) against time (log scale) as SVG text: one curve
/// per `(label, points)`, each point `(seconds, gap)` holding until the next; the time limit
/// drawn as a dashed line. Cost: one pass over the points.
pub fn gap_over_time(
    title: &str,
    curves: &[(String, Vec<(f64, f64)>)],
    time_limit: Option<f64>,
) -> Result<String, String> {
    let (lo, hi) = log_range(
        curves
            .iter()
            .flat_map(|(_, p)| p.iter().map(|&(t, _)| t.max(1e-6))),
        time_limit,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let labels: Vec<String> = curves.iter().map(|(l, _)| l.clone()).collect();
        let (plot, side) = layout(&root, title, &labels)?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..1.05)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("seconds (log scale)")
            .y_desc("mean primal gap")
            .x_label_formatter(&power_of_ten)
            .draw()
            .map_err(err)?;
        if let Some(t) = time_limit {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(t, 0.0), (t, 1.05)],
                    8,
                    5,
                    BLACK.stroke_width(1),
                ))
                .map_err(err)?;
        }
        for (i, (_, points)) in curves.iter().enumerate() {
            let mut steps: Vec<(f64, f64)> = Vec::new();
            for &(t, g) in points {
                let t = t.clamp(lo, hi);
                if let Some(&(_, before)) = steps.last() {
                    steps.push((t, before));
                }
                steps.push((t, g));
            }
            if let Some(&(_, g)) = steps.last() {
                steps.push((hi, g));
            }
            chart
                .draw_series(LineSeries::new(steps, colour(i).stroke_width(2)))
                .map_err(err)?;
        }
        let entries: Vec<(usize, String)> = labels.into_iter().enumerate().collect();
        legend(&side, &entries, &[])?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(i: usize) -> String {
        let c = colour(i);
        format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
    }

    #[test]
    fn size_time_joins_only_series_of_five_sizes_and_pads_its_axis() {
        let few: Vec<(usize, f64)> = vec![(100, 0.01), (150, 0.02), (200, 0.05)];
        let many: Vec<(usize, f64)> = (0..6)
            .map(|k| (100 + 20 * k, 0.01 * k as f64 + 0.01))
            .collect();
        let panel = SizePanel {
            name: "hex".into(),
            axis: "width".into(),
            curves: vec![(0, few), (1, many)],
        };
        let labels = ["few".to_string(), "many".to_string()];
        let svg = size_time("t", &labels, &[panel], &[])
            .unwrap()
            .to_lowercase();
        let lines: Vec<&str> = svg
            .split('<')
            .filter(|e| e.starts_with("polyline"))
            .collect();
        // A line through the data (the legend's sample line has two points).
        let joined = |i: usize| {
            lines.iter().any(|l| {
                let points = l.split("points=\"").nth(1).unwrap_or("");
                let points = points.split('"').next().unwrap_or("");
                l.contains(&hex(i)) && points.split_whitespace().count() > 2
            })
        };
        // Three medians get markers only (issue 36: 2-4 points were joined); six are joined.
        assert!(!joined(0), "{lines:?}");
        assert!(joined(1), "{lines:?}");
        assert!(svg.contains(&hex(0)), "the short series' markers are drawn");
        // The axis leaves room for a whole marker at the edges: more than the 1 unit it was
        // on a span of 100.
        assert_eq!(size_axis(100, 200), (92, 208));
        assert_eq!(size_axis(5, 9), (4, 10));
        assert_eq!(size_axis(0, 0), (0, 1));
    }
}
