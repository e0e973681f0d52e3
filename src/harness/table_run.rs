//! The table experiment (`kind = "table"`): exact search-space sizes from [`crate::table`]
//! for each hex width and Queens size, one record per board, then the tables (Markdown, CSV)
//! and a log plot of the counts against the width.
//!
//! Each row is one run: resumable and shardable like any experiment. A record's `count` is the
//! fully constrained level (three axes for hex, no touching for Queens); every level is kept
//! as an exact decimal string in `stats.extra`, so the reports are rebuilt from the records
//! alone. The counts are computed by `zeroone::table` (dynamic programming, checked there
//! against the enumerator and, for orbits, Burnside's lemma); no solution is returned, so the
//! records are not `verified`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::backend::{Stats, Status};
use crate::harness::experiment::{Experiment, Output, Task};
use crate::harness::plan::{in_shard, RunOptions, RunSummary};
use crate::harness::record::{read_records, Record};
use crate::harness::report::Provenance;
use crate::harness::store::{open_records, records_path};
use crate::harness::{plot, write_atomically, HarnessError};
use crate::table::{
    hex_levels, hex_widths_table, queens_levels, queens_sizes_table, Cell, Format, HexLevels,
    QueensLevels, TableOptions,
};

/// One row of a table experiment: a hex width or a Queens size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableRow {
    /// Hex board of this width.
    Hex(usize),
    /// Queens board of this size.
    Queens(usize),
}

impl TableRow {
    /// The record's instance id: `hex-{width}` or `queens-{size}`.
    pub fn id(self) -> String {
        match self {
            TableRow::Hex(w) => format!("hex-{w}"),
            TableRow::Queens(n) => format!("queens-{n}"),
        }
    }
}

/// The rows of the experiment's `[table]`, hex first.
pub fn table_rows(experiment: &Experiment) -> Vec<TableRow> {
    let Some(t) = &experiment.table else {
        return Vec::new();
    };
    t.hex_widths
        .iter()
        .map(|&w| TableRow::Hex(w))
        .chain(t.queens_sizes.iter().map(|&n| TableRow::Queens(n)))
        .collect()
}

fn text(x: &BigUint) -> serde_json::Value {
    serde_json::Value::String(x.to_string())
}

fn compute(row: TableRow) -> Record {
    let start = Instant::now();
    let mut extra = BTreeMap::new();
    let result = match row {
        TableRow::Hex(w) => hex_levels(w, &TableOptions::default()).map(|l| {
            extra.insert("cells".into(), serde_json::Value::from(l.cells));
            extra.insert("every_cell".into(), text(&l.every_cell));
            extra.insert("choose_n".into(), text(&l.choose_n));
            extra.insert("one_axis".into(), text(&l.one_axis));
            extra.insert("two_axes".into(), text(&l.two_axes));
            extra.insert("three_axes".into(), text(&l.three_axes));
            if let Some(o) = &l.orbits {
                extra.insert("orbits".into(), text(o));
            }
            l.three_axes
        }),
        TableRow::Queens(n) => queens_levels(n, &TableOptions::default()).map(|l| {
            extra.insert("every_cell".into(), text(&l.every_cell));
            extra.insert("choose_n".into(), text(&l.choose_n));
            extra.insert("one_per_row".into(), text(&l.one_per_row));
            extra.insert("permutations".into(), text(&l.permutations));
            extra.insert("no_touching".into(), text(&l.no_touching));
            if let Some(o) = &l.orbits {
                extra.insert("orbits".into(), text(o));
            }
            l.no_touching
        }),
    };
    let seconds = start.elapsed().as_secs_f64();
    let (status, count, reason) = match result {
        Ok(c) => (Status::Solved, Some(c.to_string()), None),
        Err(e) => (Status::Error, None, Some(e.to_string())),
    };
    Record {
        status,
        seconds,
        exhaustive: count.as_ref().map(|_| true),
        count,
        reason,
        stats: Stats {
            seconds,
            extra,
            ..Stats::default()
        },
        group: Some(match row {
            TableRow::Hex(_) => "hex".into(),
            TableRow::Queens(_) => "queens".into(),
        }),
        size: Some(match row {
            TableRow::Hex(w) => w,
            TableRow::Queens(n) => n,
        }),
        machine: Some(crate::harness::record::machine()),
        ..Record::new(&row.id(), "table", "table", Task::Count, 0)
    }
}

/// Runs a table experiment: every row not on record (with `resume`), one record each, then
/// (unless sharded or stopped) the reports.
pub fn run_table(
    experiment: &Experiment,
    options: &RunOptions,
) -> Result<RunSummary, HarnessError> {
    let rows: Vec<TableRow> = in_shard(table_rows(experiment), options.shard)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let (path, mut file, done) = open_records(experiment, options)?;
    let done: std::collections::HashSet<String> = done.into_iter().map(|r| r.instance).collect();
    let pending: Vec<TableRow> = rows
        .iter()
        .copied()
        .filter(|r| !done.contains(&r.id()))
        .collect();
    let mut ran = 0;
    for row in &pending {
        if options.stop_after.is_some_and(|m| ran >= m) {
            break;
        }
        if options.progress {
            eprintln!("{}: {} ...", experiment.name, row.id());
        }
        file.append(&compute(*row))?;
        ran += 1;
    }
    let stopped = ran < pending.len();
    let mut reports = Vec::new();
    if options.shard.is_none() && !stopped {
        reports = write_table_reports(experiment, &options.reports_dir, &options.command)?;
    }
    Ok(RunSummary {
        jobs: rows.len(),
        already_done: rows.len() - pending.len(),
        ran,
        stopped,
        records: path,
        reports,
    })
}

fn big(r: &Record, key: &str) -> Option<BigUint> {
    r.stats
        .extra
        .get(key)
        .and_then(|v| v.as_str())
        .and_then(|s| BigUint::from_str(s).ok())
}

fn hex_from(r: &Record, width: usize) -> Option<HexLevels> {
    Some(HexLevels {
        width,
        cells: r.stats.extra.get("cells")?.as_u64()?,
        every_cell: big(r, "every_cell")?,
        choose_n: big(r, "choose_n")?,
        one_axis: big(r, "one_axis")?,
        two_axes: big(r, "two_axes")?,
        three_axes: big(r, "three_axes")?,
        orbits: big(r, "orbits"),
        board: None,
    })
}

fn queens_from(r: &Record, size: usize) -> Option<QueensLevels> {
    Some(QueensLevels {
        size,
        every_cell: big(r, "every_cell")?,
        choose_n: big(r, "choose_n")?,
        one_per_row: big(r, "one_per_row")?,
        permutations: big(r, "permutations")?,
        no_touching: big(r, "no_touching")?,
        orbits: big(r, "orbits"),
        board: None,
    })
}

fn log10(x: &BigUint) -> f64 {
    x.to_f64().map_or(f64::NAN, f64::log10)
}

/// The levels on record, in the experiment's row order (rows without a good record are left
/// out).
fn levels_on_record(
    experiment: &Experiment,
    records: &[Record],
) -> (Vec<HexLevels>, Vec<QueensLevels>, Vec<String>) {
    let by_id: BTreeMap<&str, &Record> = records
        .iter()
        .filter(|r| r.backend == "table")
        .map(|r| (r.instance.as_str(), r))
        .collect();
    let (mut hex, mut queens, mut problems) = (Vec::new(), Vec::new(), Vec::new());
    for row in table_rows(experiment) {
        let id = row.id();
        let Some(r) = by_id.get(id.as_str()) else {
            problems.push(format!("{id}: not on record"));
            continue;
        };
        if r.status != Status::Solved {
            problems.push(format!("{id}: {}", r.reason.as_deref().unwrap_or("failed")));
            continue;
        }
        match row {
            TableRow::Hex(w) => hex.extend(hex_from(r, w)),
            TableRow::Queens(n) => queens.extend(queens_from(r, n)),
        }
    }
    (hex, queens, problems)
}

/// The Markdown report of a table experiment. With `redact_times`, the provenance header and
/// the timings are `~` (the form snapshot tests compare).
pub fn render_table_markdown(
    experiment: &Experiment,
    records: &[Record],
    provenance: &Provenance,
    redact_times: bool,
) -> String {
    let (hex, queens, problems) = levels_on_record(experiment, records);
    let marked = experiment
        .table
        .as_ref()
        .map(|t| t.mark_hex_widths.clone())
        .unwrap_or_default();
    let mut md = format!("# Experiment `{}`\n\n", experiment.name);
    if !experiment.description.is_empty() {
        md += &format!("{}\n\n", experiment.description.trim());
    }
    let r = |s: &str| {
        if redact_times {
            "~".to_string()
        } else {
            s.to_string()
        }
    };
    md += &format!("- command: `{}`\n", r(&provenance.command));
    md += &format!("- zeroone: {}\n", r(&provenance.commit));
    md += &format!("- machine: {}\n", r(&provenance.machine));
    let total: f64 = records.iter().map(|x| x.seconds).sum();
    md += &format!(
        "- rows on record: {} of {}; {} s in all\n\n",
        hex.len() + queens.len(),
        table_rows(experiment).len(),
        if redact_times {
            "~".into()
        } else {
            format!("{total:.3}")
        }
    );
    md += "Exact counts (no floating point) from `zeroone::table`: closed forms for the first levels, \
           dynamic programming over rows for the constrained ones (cross-checked against the \
           enumerator in the table's tests), orbits by canonical forms checked by Burnside's lemma.\n\n";
    if !hex.is_empty() {
        let mut t = hex_widths_table(&hex);
        for row in &mut t.rows {
            if let Some(Cell::Text(w)) = row.first_mut() {
                if marked.iter().any(|m| m.to_string() == *w) {
                    *w = format!("**{w}** (marked)");
                }
            }
        }
        md += &t.render(Format::Markdown);
        if !marked.is_empty() {
            md += "\nRows in bold are the widths the experiment file marks (`mark_hex_widths`; \
                   `search-space.toml` marks width 9, the row the seed write-up tabulates, to compare number for number).\n";
        }
        md += "\n";
    }
    if !queens.is_empty() {
        md += &queens_sizes_table(&queens).render(Format::Markdown);
        md += "\n";
    }
    if !problems.is_empty() {
        md += "## Missing or failed rows\n\n";
        for p in problems {
            md += &format!("- {p}\n");
        }
    }
    md
}

/// Reads the table experiment's records and writes its reports: `NAME.md`, `NAME.hex.csv`,
/// `NAME.queens.csv` and `NAME.size.svg` (as `outputs` asks).
pub fn write_table_reports(
    experiment: &Experiment,
    dir: &Path,
    command: &str,
) -> Result<Vec<PathBuf>, HarnessError> {
    let path = records_path(dir, experiment, None);
    let (records, _) = read_records(&path, false)?;
    let provenance = Provenance::of(&records, command);
    let (hex, queens, _) = levels_on_record(experiment, &records);
    let mut written = Vec::new();
    let mut put = |file: PathBuf, contents: String| -> Result<(), HarnessError> {
        write_atomically(&file, contents.as_bytes())?;
        written.push(file);
        Ok(())
    };
    for output in &experiment.outputs {
        match output {
            Output::Markdown => put(
                dir.join(format!("{}.md", experiment.name)),
                render_table_markdown(experiment, &records, &provenance, false),
            )?,
            Output::Csv => {
                if !hex.is_empty() {
                    put(
                        dir.join(format!("{}.hex.csv", experiment.name)),
                        hex_widths_table(&hex).render(Format::Csv),
                    )?;
                }
                if !queens.is_empty() {
                    put(
                        dir.join(format!("{}.queens.csv", experiment.name)),
                        queens_sizes_table(&queens).render(Format::Csv),
                    )?;
                }
            }
            Output::SizePlot => {
                let file = dir.join(format!("{}.size.svg", experiment.name));
                let curve = |name: &str, pts: Vec<(usize, f64)>| (name.to_string(), pts);
                let mut curves = Vec::new();
                if !hex.is_empty() {
                    curves.push(curve(
                        "hex: every cell 0/1",
                        hex.iter()
                            .map(|l| (l.width, log10(&l.every_cell)))
                            .collect(),
                    ));
                    curves.push(curve(
                        "hex: one per row",
                        hex.iter().map(|l| (l.width, log10(&l.one_axis))).collect(),
                    ));
                    curves.push(curve(
                        "hex: one per line, three axes",
                        hex.iter()
                            .map(|l| (l.width, log10(&l.three_axes)))
                            .collect(),
                    ));
                }
                if !queens.is_empty() {
                    curves.push(curve(
                        "queens: permutations",
                        queens
                            .iter()
                            .map(|l| (l.size, log10(&l.permutations)))
                            .collect(),
                    ));
                    curves.push(curve(
                        "queens: no touching",
                        queens
                            .iter()
                            .map(|l| (l.size, log10(&l.no_touching)))
                            .collect(),
                    ));
                }
                let marked: Vec<(String, usize)> = experiment
                    .table
                    .as_ref()
                    .map(|t| {
                        t.mark_hex_widths
                            .iter()
                            .map(|&w| ("hex: one per line, three axes".to_string(), w))
                            .collect()
                    })
                    .unwrap_or_default();
                let svg = plot::size_curve(
                    &format!("{}: search-space size against board width", experiment.name),
                    &curves,
                    &marked,
                )
                .map_err(|message| HarnessError::Plot {
                    path: file.clone(),
                    message,
                })?;
                put(file, svg)?;
            }
            Output::TimePlot => {}
        }
    }
    Ok(written)
}
