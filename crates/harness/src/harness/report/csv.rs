//! `NAME.csv`: one row per run, with a column per backend figure.

use super::*;

pub(super) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A count for a CSV cell: empty when 0 (not recorded).
pub(super) fn positive(n: usize) -> String {
    if n > 0 {
        n.to_string()
    } else {
        String::new()
    }
}

/// A record's relative gap for its CSV cell: `|objective - bound| / max(1, |objective|)` (the
/// exact fraction of [`crate::model::objective::Objective::gap_ratio`]) as a float for display,
/// shortest digits that read back to it; empty unless the record has both an objective and a
/// bound. Computed from those two, not from the record's own `gap`, so a peer's record (whose
/// script writes none) gets one too.
pub(super) fn gap_cell(r: &Record) -> String {
    (r.objective.zip(r.bound)).map_or(String::new(), |(value, bound)| {
        crate::model::objective::Objective::gap(value, bound).to_string()
    })
}

/// The fixed columns of the CSV report, before the backends' figures; each is described in the
/// README's "Experiment files" table (the one schema of the CSV and of `zeroone.records()`).
pub const CSV_COLUMNS: [&str; 28] = [
    "instance",
    "source",
    "file",
    "size",
    "backend",
    "name",
    "task",
    "repetition",
    "status",
    "verified",
    "certificate",
    "check_seconds",
    "seconds",
    "wall_seconds",
    "cpu_seconds",
    "peak_rss_mb",
    "limit_by",
    "count",
    "exhaustive",
    "objective",
    "bound",
    "gap",
    "sense",
    "variables",
    "rows",
    "original_variables",
    "original_rows",
    "reason",
];

/// The CSV report ("tidy": one row per run, in job order, one column per variable): the
/// fixed [`CSV_COLUMNS`], then one column per backend figure (`owner.figure`, see
/// [`figures::column_name`]) in order of first appearance. A cell is empty when the run did
/// not measure it (a figure of another backend, a killed worker's CPU time); numbers are
/// plain, times in seconds.
pub fn render_csv(records: &[Record]) -> String {
    let per_run: Vec<Vec<(String, String)>> = records
        .iter()
        .map(|r| {
            figures::figures_of(r)
                .into_iter()
                .map(|(f, v)| (figures::column_name(figures::owner_of(r), &f), v.cell()))
                .collect()
        })
        .collect();
    let mut figure_columns: Vec<String> = Vec::new();
    for (c, _) in per_run.iter().flatten() {
        if !figure_columns.contains(c) {
            figure_columns.push(c.clone());
        }
    }
    let mut out = CSV_COLUMNS.join(",");
    for c in &figure_columns {
        out.push(',');
        out.push_str(&csv_field(c));
    }
    out.push('\n');
    let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:e}"));
    for (r, figs) in records.iter().zip(&per_run) {
        let mut fields = vec![
            csv_field(&r.instance),
            csv_field(r.group_name()),
            csv_field(r.file.as_deref().unwrap_or("")),
            r.size.map_or(String::new(), |x| x.to_string()),
            csv_field(&r.backend),
            csv_field(&r.name),
            r.task.name().to_string(),
            r.repetition.to_string(),
            r.status.name().to_string(),
            r.verified.to_string(),
            r.certificate.name().to_string(),
            opt(r.check_seconds),
            format!("{:e}", r.seconds),
            opt(r.wall_seconds),
            opt(r.cpu_seconds),
            r.peak_rss_mb.map_or(String::new(), |x| format!("{x:.1}")),
            r.limit_by
                .map_or("", |l| match l {
                    LimitBy::Backend => "backend",
                    LimitBy::Parent => "parent",
                })
                .to_string(),
            r.count.clone().unwrap_or_default(),
            r.exhaustive.map_or(String::new(), |e| e.to_string()),
            r.objective.map_or(String::new(), |v| v.to_string()),
            r.bound.map_or(String::new(), |v| v.to_string()),
            gap_cell(r),
            r.sense.map_or("", |s| s.name()).to_string(),
            positive(r.variables),
            positive(r.rows),
            r.original_variables
                .map_or(String::new(), |n| n.to_string()),
            r.original_rows.map_or(String::new(), |n| n.to_string()),
            csv_field(r.reason.as_deref().unwrap_or("")),
        ];
        for c in &figure_columns {
            let cell = figs
                .iter()
                .find(|(k, _)| k == c)
                .map_or("", |(_, v)| v.as_str());
            fields.push(csv_field(cell));
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}
