//! The table experiment (`kind = "table"`): exact search-space sizes from the kinds' swept
//! tables ([`SweptTable`], reached through the kind registry), one record per size of each
//! kind the `[table]` section lists sizes for (`hex_widths`, `queens_sizes`, ...), then the
//! tables (Markdown, CSV per kind) and a log plot of the counts against the size.
//!
//! Each row is one run: resumable and shardable like any experiment. A record's `count` is the
//! kind's most constrained level (three axes for hex, no touching for Queens); every level is
//! kept exactly in [`RecordStats::levels`] (older records: decimal strings in `stats.extra`, still
//! read), so the reports are rebuilt from the records alone. A kind with a sharded count
//! ([`ShardedSweep`], hex) may split each size into shards, one record each, summed by the
//! report. The counts are the kinds' own (dynamic programming, checked in their tables'
//! tests against the enumerator and, for orbits, Burnside's lemma); no solution is returned,
//! so the records are not `verified`. This module names no kind.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::backend::{Stats, Status};
use crate::harness::experiment::{Experiment, Output, Sweep, Task};
use crate::harness::plan::{in_shard, RunOptions, RunSummary};
use crate::harness::record::{read_records, Record, RecordStats};
use crate::harness::report::Provenance;
use crate::harness::store::{open_records, records_path};
use crate::harness::{plot, write_atomically, HarnessError};
use crate::puzzle::table::{
    gib_cell, level_legend, log10_of, Cell, Figures, Format, ShardCache, ShardedSweep, SpaceLevels,
    SweptTable, TableError,
};

/// Which part of a size's levels a table row counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowPart {
    /// Every level.
    Whole,
    /// Every level but the sharded one (with what combining the shards needs).
    Others,
    /// Shard `part` (1-based) of `parts` of the sharded level.
    Shard {
        /// Which shard.
        part: usize,
        /// How many shards.
        parts: usize,
    },
}

/// One row of a table experiment: one size of one kind's sweep, or, when the experiment
/// splits that kind's count (`hex_parts`), one shard of a size or the size's other levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableRow {
    /// The sweep's index in the experiment's [`TableSpec`](crate::harness::experiment::TableSpec).
    pub sweep: usize,
    /// The sweep's record group (`hex`, `queens`).
    pub group: &'static str,
    /// The board size (hex width, Queens size).
    pub size: usize,
    /// What the row counts.
    pub part: RowPart,
}

impl TableRow {
    /// The record's instance id: `{group}-{size}` (also for [`RowPart::Others`]), or
    /// `{group}-{size}-part-{k}-of-{K}` (k zero-padded to K's digits).
    pub fn id(self) -> String {
        let (group, size) = (self.group, self.size);
        match self.part {
            RowPart::Whole | RowPart::Others => format!("{group}-{size}"),
            RowPart::Shard { part, parts } => {
                let digits = parts.to_string().len();
                format!("{group}-{size}-part-{part:0digits$}-of-{parts}")
            }
        }
    }
}

/// The sweeps of the experiment's `[table]`, in registry order (none for other experiments).
fn sweeps(experiment: &Experiment) -> &[Sweep] {
    experiment.table.as_ref().map_or(&[], |t| &t.sweeps)
}

/// The rows of the experiment's `[table]`, sweep by sweep in registry order; a split size
/// gives its shards, then its other levels.
pub fn table_rows(experiment: &Experiment) -> Vec<TableRow> {
    let mut rows = Vec::new();
    for (index, sweep) in sweeps(experiment).iter().enumerate() {
        let row = |size, part| TableRow {
            sweep: index,
            group: sweep.table.group(),
            size,
            part,
        };
        for &size in &sweep.sizes {
            if let Some(parts) = sweep.split() {
                rows.extend((1..=parts).map(|part| row(size, RowPart::Shard { part, parts })));
                rows.push(row(size, RowPart::Others));
            } else {
                rows.push(row(size, RowPart::Whole));
            }
        }
    }
    rows
}

/// One shard of a sharded count: its exact partial count, the kind's figures, its time and
/// its peak resident memory (reset before the shard where Linux allows it).
fn compute_part(
    sharded: &dyn ShardedSweep,
    sweep: &Sweep,
    row: TableRow,
    cache: &mut ShardCache,
) -> Record {
    let RowPart::Shard { part, parts } = row.part else {
        unreachable!("a shard row")
    };
    let start = Instant::now();
    let reset = crate::backend::memory::reset_peak_rss();
    let result = sharded.count_part(row.size, part, parts, &sweep.settings, cache);
    let seconds = start.elapsed().as_secs_f64();
    let (count, figures) = match result {
        Ok((count, mut figures)) => {
            if let Some(rss) = crate::backend::memory::peak_rss().filter(|_| reset) {
                figures.insert("peak_rss_bytes".into(), rss.into());
            }
            (Ok(count), figures)
        }
        Err(e) => (Err(e), Figures::new()),
    };
    table_record(row, count.map(|c| (c, None)), seconds, figures)
}

/// The record of `row` of `experiment`, with the sharded count's `cache` kept for the next
/// shard of the same size (emptied by any other row).
fn compute(experiment: &Experiment, row: TableRow, cache: &mut ShardCache) -> Record {
    let sweep = &sweeps(experiment)[row.sweep];
    let sharded = sweep.table.sharded();
    if let (RowPart::Shard { .. }, Some(sharded)) = (row.part, sharded) {
        return compute_part(sharded, sweep, row, cache);
    }
    *cache = None;
    let start = Instant::now();
    let result = match (row.part, sharded) {
        (RowPart::Others, Some(sharded)) => sharded.other_levels(row.size),
        (RowPart::Whole, _) => sweep.table.size_levels(row.size),
        _ => Err(TableError::BadSize(format!(
            "{}: no sharded count",
            row.id()
        ))),
    };
    let seconds = start.elapsed().as_secs_f64();
    let result = result.map(|(count, levels)| (count, Some(levels)));
    table_record(row, result, seconds, Figures::new())
}

/// The record of one table row: its count and levels (or why it failed), time and figures,
/// with the group and size the report needs.
fn table_record(
    row: TableRow,
    result: Result<(BigUint, Option<SpaceLevels>), TableError>,
    seconds: f64,
    extra: Figures,
) -> Record {
    let (status, count, levels, reason) = match result {
        Ok((c, levels)) => (Status::Solved, Some(c.to_string()), levels, None),
        Err(e) => (Status::Error, None, None, Some(e.to_string())),
    };
    Record {
        status,
        seconds,
        exhaustive: count.as_ref().map(|_| true),
        count,
        reason,
        stats: RecordStats {
            run: Stats {
                seconds,
                extra,
                ..Stats::default()
            },
            levels,
        },
        group: Some(row.group.into()),
        size: Some(row.size),
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
    let mut cache: ShardCache = None;
    for row in &pending {
        if options.stop_after.is_some_and(|m| ran >= m) {
            break;
        }
        if options.progress {
            eprintln!("{}: {} ...", experiment.name, row.id());
        }
        file.append(&compute(experiment, *row, &mut cache))?;
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

/// The levels on a table record: [`RecordStats::levels`], or, in a record made before the levels
/// had their own field, the counts it kept in `stats.extra` (every decimal string, `cells` as
/// a number, and `fixed_points` as a list of decimal strings).
fn levels_of(r: &Record) -> Option<SpaceLevels> {
    if let Some(levels) = &r.stats.levels {
        return Some(levels.clone());
    }
    let mut levels = SpaceLevels::default();
    for (key, value) in &r.stats.extra {
        let count = match value {
            serde_json::Value::String(s) => BigUint::from_str(s).ok(),
            serde_json::Value::Number(n) if key == "cells" => n.as_u64().map(BigUint::from),
            serde_json::Value::Array(list) if key == "fixed_points" => {
                levels.fixed_points = list
                    .iter()
                    .map(|x| x.as_str().and_then(|s| BigUint::from_str(s).ok()))
                    .collect::<Option<_>>()?;
                None
            }
            _ => None,
        };
        if let Some(c) = count {
            levels.counts.insert(key.clone(), c);
        }
    }
    Some(levels)
}

/// The levels on record of one sweep: each size whose levels the kind reads back, in the
/// experiment's row order.
type SweepLevels = Vec<(usize, SpaceLevels)>;

/// The sizes of a sharded sweep being read: the sum of the shards so far and how many are
/// missing or failed.
#[derive(Default)]
struct ShardSum {
    sum: BigUint,
    missing: usize,
}

/// The levels on record, sweep by sweep in the experiment's row order (rows without a good
/// record are left out, each said in the returned problems).
fn levels_on_record(
    experiment: &Experiment,
    records: &[Record],
) -> (Vec<SweepLevels>, Vec<String>) {
    let by_id: BTreeMap<&str, &Record> = records
        .iter()
        .filter(|r| r.backend == "table")
        .map(|r| (r.instance.as_str(), r))
        .collect();
    let all = sweeps(experiment);
    let mut levels: Vec<SweepLevels> = vec![Vec::new(); all.len()];
    let mut problems = Vec::new();
    let mut shards = ShardSum::default();
    for row in table_rows(experiment) {
        let id = row.id();
        let table = all[row.sweep].table;
        let good = match by_id.get(id.as_str()) {
            None => Err("not on record".to_string()),
            Some(r) if r.status != Status::Solved => {
                Err(r.reason.as_deref().unwrap_or("failed").to_string())
            }
            Some(r) => Ok(*r),
        };
        let r = match good {
            Ok(r) => r,
            Err(why) => {
                problems.push(format!("{id}: {why}"));
                if let RowPart::Shard { .. } = row.part {
                    shards.missing += 1;
                }
                continue;
            }
        };
        let found = &mut levels[row.sweep];
        match row.part {
            RowPart::Whole => found.extend(
                levels_of(r)
                    .filter(|l| table.level_counts(row.size, l).is_some())
                    .map(|l| (row.size, l)),
            ),
            RowPart::Shard { .. } => {
                match r.count.as_deref().and_then(|c| BigUint::from_str(c).ok()) {
                    Some(c) => shards.sum += c,
                    None => shards.missing += 1,
                }
            }
            RowPart::Others => {
                let ShardSum { sum, missing } = std::mem::take(&mut shards);
                if missing > 0 {
                    problems.push(format!("{id}: {missing} shard(s) missing"));
                    continue;
                }
                let recorded = levels_of(r).unwrap_or_default();
                let combined = (table.sharded())
                    .ok_or_else(|| "no sharded count".to_string())
                    .and_then(|s| s.combine(row.size, &recorded, &sum));
                match combined {
                    Ok(l) => found.push((row.size, l)),
                    Err(why) => problems.push(format!("{id}: {why}")),
                }
            }
        }
    }
    (levels, problems)
}

/// The Markdown report of a table experiment. With `redact_times`, the provenance header and
/// the timings are `~` (the form snapshot tests compare).
pub fn render_table_markdown(
    experiment: &Experiment,
    records: &[Record],
    provenance: &Provenance,
    redact_times: bool,
) -> String {
    let (levels, problems) = levels_on_record(experiment, records);
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
    let solved: BTreeMap<&str, &Record> = records
        .iter()
        .filter(|r| r.backend == "table" && r.status == Status::Solved)
        .map(|r| (r.instance.as_str(), r))
        .collect();
    let rows = table_rows(experiment);
    md += &format!(
        "- rows on record: {} of {}; {} s in all\n\n",
        rows.iter()
            .filter(|row| solved.contains_key(row.id().as_str()))
            .count(),
        rows.len(),
        if redact_times {
            "~".into()
        } else {
            format!("{total:.3}")
        }
    );
    md += "Exact counts (no floating point) from `zeroone::space::table`: closed forms for the first levels, \
           dynamic programming over rows for the constrained ones (cross-checked against the \
           enumerator in the table's tests), orbits by canonical forms checked by Burnside's lemma. \
           Counts longer than 24 digits are shown by their closed form (`2^271`); the CSV files hold every digit \
           and a `log10` column beside each count column.\n\n";
    for (index, (sweep, recorded)) in sweeps(experiment).iter().zip(&levels).enumerate() {
        md += &sweep_markdown(sweep, recorded);
        if let Some(sharded) = sweep.table.sharded() {
            let parts: Vec<TableRow> = (rows.iter().copied())
                .filter(|r| r.sweep == index && matches!(r.part, RowPart::Shard { .. }))
                .collect();
            md += &shards_markdown(sharded, &parts, &solved, redact_times);
        }
    }
    if !problems.is_empty() {
        md += "## Missing or failed rows\n\n";
        for p in problems {
            md += &format!("- {p}\n");
        }
    }
    md
}

/// One sweep's part of the report: its level legend and its table of the sizes on record,
/// the marked sizes in bold; nothing when no size is on record.
fn sweep_markdown(sweep: &Sweep, recorded: &SweepLevels) -> String {
    if recorded.is_empty() {
        return String::new();
    }
    let mut t = sweep.table.sizes_table(recorded);
    for row in &mut t.rows {
        if let Some(Cell::Int(w)) = row.first() {
            if sweep.marks.contains(&(*w as usize)) {
                row[0] = Cell::Text(format!("**{w}** (marked)"));
            }
        }
    }
    let mut md = sweep.table.legend_heading().to_string();
    md += &level_legend(sweep.table.levels());
    md += "\n";
    md += &t.render(Format::Markdown);
    if let Some(marks) = sweep.table.marks().filter(|_| !sweep.marks.is_empty()) {
        md += marks.note;
    }
    md + "\n"
}

/// The shards of a sweep's split sizes (`parts`): each one's partial count, time, memory and
/// the kind's own figures.
fn shards_markdown(
    sharded: &dyn ShardedSweep,
    parts: &[TableRow],
    solved: &BTreeMap<&str, &Record>,
    redact: bool,
) -> String {
    if parts.is_empty() {
        return String::new();
    }
    let columns = sharded.columns();
    let headers: Vec<&str> = ["shard", columns.count, "seconds", "peak RSS (GiB)"]
        .into_iter()
        .chain(columns.columns.iter().map(|(h, _)| *h))
        .collect();
    let mut md = columns.heading.to_string();
    md += &format!(
        "| {} |\n|{}\n",
        headers.join(" | "),
        "---|".repeat(headers.len())
    );
    let (mut seconds, mut done) = (0.0, 0);
    for row in parts {
        let id = row.id();
        let Some(r) = solved.get(id.as_str()) else {
            md += &format!(
                "| {id} | not on record |{}\n",
                " |".repeat(headers.len() - 2)
            );
            continue;
        };
        done += 1;
        seconds += r.seconds;
        let timed = |s: String| if redact { "~".to_string() } else { s };
        let mut cells = vec![
            id.clone(),
            r.count.clone().unwrap_or_else(|| "—".into()),
            timed(format!("{:.1}", r.seconds)),
            timed(gib_cell(r.stats.extra.get("peak_rss_bytes"))),
        ];
        cells.extend(columns.columns.iter().map(|(_, cell)| cell(&r.stats.extra)));
        md += &format!("| {} |\n", cells.join(" | "));
    }
    md += &format!(
        "\n{done} of {} shards on record, {} s in all.\n\n",
        parts.len(),
        if redact {
            "~".into()
        } else {
            format!("{seconds:.1}")
        }
    );
    md
}

/// The curves of the search-space plot: every level of every size on record, sweep by
/// sweep, as `(size, log10 count)`, named `{group}: {level}`; zero counts have no logarithm
/// and are left out, each said in the returned notes.
fn size_curves(experiment: &Experiment, levels: &[SweepLevels]) -> (Vec<plot::Curve>, Vec<String>) {
    let mut curves = Vec::new();
    let mut notes = Vec::new();
    let mut add = |name: String, points: Vec<(usize, Option<&BigUint>)>| {
        let zeros: Vec<String> = points
            .iter()
            .filter(|(_, c)| c.is_some_and(|c| c.is_zero()))
            .map(|(x, _)| x.to_string())
            .collect();
        if !zeros.is_empty() {
            notes.push(format!(
                "{name}: 0 at size {} (left out: no log)",
                zeros.join(", ")
            ));
        }
        let pts: Vec<(usize, f64)> = points
            .into_iter()
            .filter_map(|(x, c)| c.filter(|c| !c.is_zero()).map(|c| (x, log10_of(c))))
            .collect();
        if !pts.is_empty() {
            curves.push((name, pts));
        }
    };
    for (sweep, recorded) in sweeps(experiment).iter().zip(levels) {
        let table = sweep.table;
        let counts: Vec<(usize, Vec<Option<BigUint>>)> = (recorded.iter())
            .filter_map(|(size, l)| table.level_counts(*size, l).map(|c| (*size, c)))
            .collect();
        if counts.is_empty() {
            continue;
        }
        for (i, (name, _)) in table.levels().iter().enumerate() {
            let points = (counts.iter())
                .map(|(size, c)| (*size, c.get(i).and_then(Option::as_ref)))
                .collect();
            add(format!("{}: {name}", table.group()), points);
        }
    }
    (curves, notes)
}

/// The marked sizes of the plot: `(curve, size, label)` for each size a sweep marks.
fn marked_points(experiment: &Experiment) -> Vec<(String, usize, String)> {
    let mut marked = Vec::new();
    for sweep in sweeps(experiment) {
        let table: &dyn SweptTable = sweep.table;
        let Some(marks) = table.marks() else {
            continue;
        };
        let curve = format!("{}: {}", table.group(), table.levels()[marks.level].0);
        marked.extend((sweep.marks.iter()).map(|&w| (curve.clone(), w, (marks.label)(w))));
    }
    marked
}

/// Reads the table experiment's records and writes its reports: `NAME.md`, one
/// `NAME.{group}.csv` per sweep with sizes on record (`NAME.hex.csv`, `NAME.queens.csv`) and
/// `NAME.size.svg` (as `outputs` asks).
pub fn write_table_reports(
    experiment: &Experiment,
    dir: &Path,
    command: &str,
) -> Result<Vec<PathBuf>, HarnessError> {
    let path = records_path(dir, experiment, None);
    let (records, _) = read_records(&path, false)?;
    let provenance = Provenance::of(&records, command);
    let (levels, _) = levels_on_record(experiment, &records);
    let mut written = Vec::new();
    let put =
        |written: &mut Vec<PathBuf>, file: PathBuf, contents: String| -> Result<(), HarnessError> {
            write_atomically(&file, contents.as_bytes())?;
            written.push(file);
            Ok(())
        };
    for output in &experiment.outputs {
        match output {
            Output::Markdown => {
                let md = render_table_markdown(experiment, &records, &provenance, false);
                // The page to explore the records goes wherever the Markdown report goes.
                let page = crate::harness::report::render_page(experiment, &records, &md);
                put(
                    &mut written,
                    dir.join(format!("{}.md", experiment.name)),
                    md,
                )?;
                put(
                    &mut written,
                    dir.join(format!("{}.html", experiment.name)),
                    page,
                )?;
            }
            Output::Csv => {
                for (sweep, recorded) in sweeps(experiment).iter().zip(&levels) {
                    if !recorded.is_empty() {
                        let group = sweep.table.group();
                        put(
                            &mut written,
                            dir.join(format!("{}.{group}.csv", experiment.name)),
                            sweep.table.sizes_table(recorded).render(Format::Csv),
                        )?;
                    }
                }
            }
            Output::SizePlot => {
                let file = dir.join(format!("{}.size.svg", experiment.name));
                let (curves, notes) = size_curves(experiment, &levels);
                let svg = plot::size_curve(
                    &experiment.title.clone().unwrap_or_else(|| {
                        "Search-space size of each modelling level against board size".into()
                    }),
                    &curves,
                    &marked_points(experiment),
                    &notes,
                )
                .map_err(|message| HarnessError::Plot {
                    path: file.clone(),
                    message,
                })?;
                written.extend(crate::harness::raster::write_figure(&file, &svg)?);
            }
            Output::TimePlot => {}
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::hex::table::{hex_levels, HexLevels};
    use crate::puzzle::table::TableOptions;

    fn experiment(table: &str) -> Experiment {
        let text = format!("kind = \"table\"\n[table]\n{table}");
        Experiment::from_text(Path::new("t.toml"), &text).unwrap()
    }

    fn hex_from(r: &Record, width: usize) -> Option<HexLevels> {
        HexLevels::from_space_levels(width, &levels_of(r)?, false)
    }

    /// The sharded sweep's combination of a record of the other levels with the shards' sum.
    fn combined(exp: &Experiment, others: &Record, sum: u32) -> Option<HexLevels> {
        let sharded = sweeps(exp)[0].table.sharded()?;
        let l = (sharded.combine(5, &levels_of(others)?, &BigUint::from(sum))).ok()?;
        HexLevels::from_space_levels(5, &l, false)
    }

    #[test]
    fn levels_read_alike_from_the_typed_field_and_from_an_older_record() {
        let whole = experiment("hex_widths = [5]\n");
        let new = compute(&whole, table_rows(&whole)[0], &mut None);
        let levels = new
            .stats
            .levels
            .clone()
            .expect("a table row records its levels");
        assert_eq!(levels.get("three_axes"), Some(&BigUint::from(6u32)));
        // Through JSON: the levels have their own object, as decimal strings.
        let line = serde_json::to_string(&new).unwrap();
        assert!(
            line.contains(r#""levels":{"counts":{"cells":"19","#),
            "{line}"
        );
        // Where records have always had them: inside `stats`, right after `seconds`.
        let stats = &line[line.find(r#""stats":{"seconds":"#).unwrap()..];
        let after_seconds = &stats[stats.find(',').unwrap()..];
        assert!(after_seconds.starts_with(r#","levels":{"#), "{line}");
        let back: Record = serde_json::from_str(&line).unwrap();
        assert_eq!(back.stats, new.stats);
        // A record made before: the same counts as strings in `extra` (cells a number).
        let mut old = new.clone();
        old.stats.levels = None;
        for (key, count) in &levels.counts {
            let value = match key.as_str() {
                "cells" => serde_json::Value::from(u64::try_from(count).unwrap()),
                _ => serde_json::Value::from(count.to_string()),
            };
            old.stats.extra.insert(key.clone(), value);
        }
        let expected = hex_levels(5, &TableOptions::default()).unwrap();
        assert_eq!(hex_from(&new, 5), Some(expected.clone()));
        assert_eq!(hex_from(&old, 5), Some(expected));
        // A sharded width's other levels with their fixed points, new and old alike.
        let split = experiment("hex_widths = [5]\nhex_parts = 2\n");
        let rows = table_rows(&split);
        assert_eq!(rows[2].part, RowPart::Others);
        assert_eq!(
            (rows[0].id(), rows[2].id()),
            ("hex-5-part-1-of-2".into(), "hex-5".into())
        );
        let others = compute(&split, rows[2], &mut None);
        let fixed = others.stats.levels.clone().unwrap().fixed_points;
        assert_eq!(fixed.len(), 11);
        let mut old_others = others.clone();
        old_others.stats.levels = None;
        let text: Vec<serde_json::Value> = fixed.iter().map(|f| f.to_string().into()).collect();
        old_others
            .stats
            .extra
            .insert("fixed_points".into(), text.into());
        let mut counts = others.stats.levels.clone().unwrap().counts;
        counts.insert("cells".into(), BigUint::from(19u32));
        for (key, count) in counts {
            let value = match key.as_str() {
                "cells" => serde_json::Value::from(19u64),
                _ => count.to_string().into(),
            };
            old_others.stats.extra.insert(key, value);
        }
        let whole_levels = hex_from(&new, 5).unwrap();
        assert_eq!(combined(&split, &others, 6), Some(whole_levels.clone()));
        assert_eq!(combined(&split, &old_others, 6), Some(whole_levels));
    }
}
