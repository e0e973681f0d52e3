//! `NAME.html`: one self-contained page to explore an experiment's runs (issue 40). The
//! summary is the Markdown report as HTML (statuses, competition, provenance, peers marked);
//! the runs table, the plots (Chart.js, vendored under `html/vendor/`) and each run's details
//! are drawn in the page from the records, held inline as JSON. No network: the page opens
//! from `file://`.
//!
//! Deterministic: the same records and command give the same bytes (no clock, no map in hash
//! order), so committed pages are checked like the Markdown.
//!
//! Weight: Chart.js (about 210 KB), the page's own code (about 25 KB), the summary, and about
//! 100 to 200 bytes per run (columns of strings are interned, numbers written shortest).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::*;

mod markdown;
pub(super) use markdown::escape;

/// Chart.js 4.6.1 from the npm registry (see `html/vendor/VENDORED.md`), without its
/// source-map comment (the map is not shipped).
const CHART_JS: &str = include_str!("html/vendor/chart.umd.min.js");
/// The page's script: tabs, runs table, filters, plots, details.
const PAGE_JS: &str = include_str!("html/page.js");
/// The page's style sheet.
const PAGE_CSS: &str = include_str!("html/page.css");

/// The columns of a run in the page's data, in the order of each run's array.
/// Each run's array ends at its last value: trailing absent values (`null`) are left out, and
/// the page reads a missing one as absent.
pub const HTML_RUN_COLUMNS: [&str; 28] = [
    "instance",
    "source",
    "size",
    "backend",
    "repetition",
    "status",
    "verified",
    "seconds",
    "wall_seconds",
    "cpu_seconds",
    "peak_rss_mb",
    "count",
    "objective",
    "bound",
    "nodes",
    "variables",
    "rows",
    "original_variables",
    "original_rows",
    "limit_by",
    "reason",
    "options",
    "figures",
    "certificate",
    "check_seconds",
    "gap",
    "proof",
    "stderr",
];

/// Interned strings: each distinct value once, runs hold its index.
#[derive(Default)]
struct Interned {
    index: BTreeMap<String, usize>,
    values: Vec<String>,
}

impl Interned {
    fn of(&mut self, s: &str) -> usize {
        if let Some(&k) = self.index.get(s) {
            return k;
        }
        self.values.push(s.to_string());
        self.index.insert(s.to_string(), self.values.len() - 1);
        self.values.len() - 1
    }
}

/// A float in the data, to 6 significant digits (written shortest): `null` when absent or not
/// finite. The CSV keeps every digit; the page shows 3.
fn number(x: Option<f64>) -> Value {
    x.filter(|x| x.is_finite())
        .and_then(|x| format!("{x:.5e}").parse::<f64>().ok())
        .map_or(Value::Null, |x| json!(x))
}

/// A figure's value: a JSON number when its cell is a plain integer (exact below 2^53), else
/// its text.
fn figure_value(cell: String) -> Value {
    match cell.parse::<i64>() {
        Ok(n) if n.unsigned_abs() < 1 << 53 => json!(n),
        _ => Value::String(cell),
    }
}

/// The page's data: the experiment's labels and limits and one array per run (the columns of
/// [`HTML_RUN_COLUMNS`]; strings interned in `strings`).
fn page_data(experiment: &Experiment, records: &[Record]) -> Value {
    let mut instances = Interned::default();
    let mut sources = Interned::default();
    let mut options = Interned::default();
    let mut figure_names = Interned::default();
    let labels = experiment.labels();
    let mut label_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut label_list: Vec<Value> = Vec::new();
    // Each label's colour is the one the SVG figures give it (its place among the labels
    // with records), so a backend keeps one colour on the page and in every figure.
    let (drawn, _) = super::present_labels(experiment, records);
    let colour_of = |label: &str| {
        (drawn.iter().position(|(l, _)| l == label)).map(|i| {
            let c = crate::harness::plot::colour(i);
            format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
        })
    };
    let mut label_of = |label: &str, name: &str, list: &mut Vec<Value>| -> usize {
        if let Some(&k) = label_index.get(label) {
            return k;
        }
        list.push(json!({"label": label, "name": name, "peer": name == "peer", "colour": colour_of(label)}));
        label_index.insert(label.to_string(), list.len() - 1);
        list.len() - 1
    };
    for (label, name) in &labels {
        if name != "peer" || records.iter().any(|r| &r.backend == label) {
            label_of(label, name, &mut label_list);
        }
    }
    let runs: Vec<Value> = records
        .iter()
        .map(|r| {
            // Figures as [index of their names in `figure_names`, value, value, ...].
            let (names, values): (Vec<String>, Vec<Value>) = figures::figures_of(r)
                .into_iter()
                .map(|(name, value)| (name, figure_value(value.cell())))
                .unzip();
            let figures = if names.is_empty() {
                Value::Null
            } else {
                let mut row = vec![json!(figure_names.of(&names.join("\n")))];
                row.extend(values);
                Value::Array(row)
            };
            let opts = serde_json::to_string(&r.options).unwrap_or_default();
            json!([
                instances.of(&r.instance),
                sources.of(r.group_name()),
                r.size,
                label_of(&r.backend, &r.name, &mut label_list),
                r.repetition,
                r.status.name(),
                r.verified as u8,
                number(Some(r.seconds)),
                number(r.wall_seconds),
                number(r.cpu_seconds),
                number(r.peak_rss_mb),
                r.count,
                r.objective.map(|x| x.to_string()),
                r.bound.map(|x| x.to_string()),
                (r.stats.nodes > 0).then_some(r.stats.nodes),
                (r.variables > 0).then_some(r.variables),
                (r.rows > 0).then_some(r.rows),
                r.original_variables,
                r.original_rows,
                r.limit_by.map(|l| match l {
                    LimitBy::Backend => "backend",
                    LimitBy::Parent => "parent",
                }),
                r.reason,
                options.of(&opts),
                figures,
                (r.certificate != Certificate::None).then(|| r.certificate.name()),
                number(r.check_seconds),
                number(r.gap),
                r.proof,
                (!r.stderr.is_empty()).then_some(&r.stderr),
            ])
        })
        .map(without_trailing_nulls)
        .collect();
    json!({
        "name": experiment.name,
        "task": records.first().map(|r| r.task.name()),
        "time_limit": time_limit_on_record(records),
        "baseline": experiment.baseline,
        "labels": label_list,
        "statuses": Status::ALL.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "columns": HTML_RUN_COLUMNS,
        "instances": instances.values,
        "sources": sources.values,
        "options": options.values,
        "figure_names": figure_names
            .values
            .iter()
            .map(|names| names.split('\n').collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "runs": runs,
    })
}

/// A run's array without its trailing `null`s (about 5 bytes each), which the page reads as
/// absent.
fn without_trailing_nulls(mut run: Value) -> Value {
    if let Value::Array(values) = &mut run {
        while values.last().is_some_and(Value::is_null) {
            values.pop();
        }
    }
    run
}

/// JSON that is safe inside a `<script>` element: every `<` (only ever inside a string) as
/// `\u003c`, so no `</script>` or `<!--` can end or confuse the element.
fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// The self-contained HTML page of an experiment's runs: the Markdown report (as rendered by
/// [`render_markdown`]) as its summary, the runs as inline JSON, the page's script and style
/// and Chart.js inline. Cost: the Markdown report, plus one pass over the records.
pub fn render_html(
    experiment: &Experiment,
    records: &[Record],
    expected_runs: usize,
    provenance: &Provenance,
) -> String {
    let md = render_markdown(experiment, records, expected_runs, provenance, false);
    render_page(experiment, records, &md)
}

/// The page of [`render_html`] with `summary_md` (a report in Markdown, such as a table
/// experiment's) as its summary. Cost: one pass over the records and the text.
pub fn render_page(experiment: &Experiment, records: &[Record], summary_md: &str) -> String {
    let summary = markdown::to_html(summary_md);
    let data = script_json(&page_data(experiment, records));
    let chart = CHART_JS
        .trim_end()
        .trim_end_matches("//# sourceMappingURL=chart.umd.min.js.map")
        .trim_end();
    let title = markdown::escape(&experiment.name);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}: zeroone experiment</title>\n<link rel=\"icon\" href=\"data:,\">\n\
         <style>\n{PAGE_CSS}</style>\n</head>\n<body>\n\
         <header><h1>{title}</h1><nav id=\"tabs\">\
         <button data-tab=\"summary\">Summary</button>\
         <button data-tab=\"runs\">Runs</button>\
         <button data-tab=\"plots\">Plots</button>\
         <button data-tab=\"run\">Run details</button></nav></header>\n\
         <main>\n<section id=\"tab-summary\" class=\"tab\">\n{summary}</section>\n\
         <section id=\"tab-runs\" class=\"tab\"></section>\n\
         <section id=\"tab-plots\" class=\"tab\"></section>\n\
         <section id=\"tab-run\" class=\"tab\"></section>\n</main>\n\
         <script id=\"data\" type=\"application/json\">{data}</script>\n\
         <script>\n{chart}\n</script>\n<script>\n{PAGE_JS}</script>\n</body>\n</html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_its_element() {
        let v = json!({"reason": "</script><!-- x"});
        let s = script_json(&v);
        assert!(!s.contains('<'), "{s}");
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn each_backend_has_on_the_page_the_colour_it_has_in_the_figures() {
        use crate::backend::Status;
        use crate::harness::Task;
        // `xcc` has no records: the page lists it, the figures do not, and the two palettes
        // and numberings differed (issue 36, item 8).
        let exp = Experiment::from_text(
            std::path::Path::new("e.toml"),
            "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"xcc\"\n[[backends]]\nname = \"bitset\"\n[[backends]]\nname = \"sat\"\n",
        )
        .unwrap();
        let records: Vec<Record> = ["bitset", "sat"]
            .into_iter()
            .map(|b| Record {
                status: Status::Solved,
                verified: true,
                seconds: 0.01,
                ..Record::new("a", b, b, Task::Solve, 0)
            })
            .collect();
        let data = page_data(&exp, &records);
        let colour = |label: &str| {
            let l = (data["labels"].as_array().unwrap().iter())
                .find(|l| l["label"] == label)
                .unwrap();
            l["colour"].as_str().map(str::to_string)
        };
        let hex = |i: usize| {
            let c = crate::harness::plot::colour(i);
            format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
        };
        assert_eq!(colour("bitset"), Some(hex(0)));
        assert_eq!(colour("sat"), Some(hex(1)));
        let figure = super::super::plots::figure_list(&exp, &records)
            .into_iter()
            .find(|f| matches!(f.kind, super::super::plots::FigureKind::Cactus(None)))
            .unwrap();
        let svg = super::super::plots::draw_figure(&exp, &records, &figure)
            .unwrap()
            .to_lowercase();
        assert!(svg.contains(&hex(0)) && svg.contains(&hex(1)), "{svg}");
    }

    #[test]
    fn runs_carry_certificate_gap_proof_and_stderr_and_drop_trailing_nulls() {
        use crate::backend::Status;
        use crate::harness::Task;
        let exp = Experiment::from_text(
            std::path::Path::new("e.toml"),
            "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"bitset\"\n",
        )
        .unwrap();
        let plain = Record::new("a", "bitset", "bitset", Task::Solve, 0);
        let full = Record {
            status: Status::Crash,
            certificate: Certificate::Rejected,
            check_seconds: Some(0.5),
            gap: Some(0.25),
            proof: Some("e.proofs/a.pbp".into()),
            stderr: "said\n".into(),
            ..Record::new("b", "bitset", "bitset", Task::Solve, 0)
        };
        let data = page_data(&exp, &[plain, full]);
        let at = |run: usize, column: &str| {
            let k = HTML_RUN_COLUMNS.iter().position(|c| *c == column).unwrap();
            data["runs"][run].get(k).cloned()
        };
        assert_eq!(at(1, "certificate"), Some(json!("rejected")));
        assert_eq!(at(1, "check_seconds"), Some(json!(0.5)));
        assert_eq!(at(1, "gap"), Some(json!(0.25)));
        assert_eq!(at(1, "proof"), Some(json!("e.proofs/a.pbp")));
        assert_eq!(at(1, "stderr"), Some(json!("said\n")));
        assert_eq!(
            data["runs"][1].as_array().unwrap().len(),
            HTML_RUN_COLUMNS.len()
        );
        // The plain run ends at its options: figures, certificate and the rest are absent.
        let options = HTML_RUN_COLUMNS
            .iter()
            .position(|c| *c == "options")
            .unwrap();
        assert_eq!(data["runs"][0].as_array().unwrap().len(), options + 1);
        assert_eq!(at(0, "certificate"), None);
    }
}
