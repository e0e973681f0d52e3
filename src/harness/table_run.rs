//! The table experiment (`kind = "table"`): exact search-space sizes from [`crate::space::table`]
//! for each hex width and Queens size, one record per board, then the tables (Markdown, CSV)
//! and a log plot of the counts against the width.
//!
//! Each row is one run: resumable and shardable like any experiment. A record's `count` is the
//! fully constrained level (three axes for hex, no touching for Queens); every level is kept
//! exactly in [`Stats::levels`] (older records: decimal strings in `stats.extra`, still read),
//! so the reports are rebuilt from the records alone. The counts are computed by `zeroone::space::table` (dynamic programming, checked there
//! against the enumerator and, for orbits, Burnside's lemma); no solution is returned, so the
//! records are not `verified`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::backend::{SpaceLevels, Stats, Status};
use crate::harness::experiment::{Experiment, Output, Task};
use crate::harness::plan::{in_shard, RunOptions, RunSummary};
use crate::harness::record::{read_records, Record};
use crate::harness::report::Provenance;
use crate::harness::store::{open_records, records_path};
use crate::harness::{plot, write_atomically, HarnessError};
use crate::puzzle::kinds::hex::shards::{
    self, HexHalves, Layer, PartCount, RowOrder, RowPlan, StreamedRows,
};
use crate::space::table::{
    hex_fixed_points_by_symmetry, hex_levels, hex_levels_but_three_axes, hex_memory_guard,
    hex_widths_table, orbits_from_fixed_points, queens_levels, queens_sizes_table, Cell, Format,
    HexLevels, QueensLevels, TableError, TableOptions, HEX_LEVELS, QUEENS_LEVELS,
};

/// One row of a table experiment: a hex width or a Queens size, or, when the experiment
/// splits the hex counts (`hex_parts`), one shard of a width's three-axis count and the
/// width's other levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableRow {
    /// Hex board of this width, every level.
    Hex(usize),
    /// Hex board of this width, every level but the three-axis count (and the orbits, which
    /// need it): the closed forms, the two-axis count and the 11 fixed-point counts.
    HexOthers(usize),
    /// Shard `part` (1-based) of `parts` of the three-axis count of a hex width.
    HexPart {
        /// Board width.
        width: usize,
        /// Which shard.
        part: usize,
        /// How many shards.
        parts: usize,
    },
    /// Queens board of this size.
    Queens(usize),
}

impl TableRow {
    /// The record's instance id: `hex-{width}` (also for [`TableRow::HexOthers`]),
    /// `hex-{width}-part-{k}-of-{K}` (k zero-padded to K's digits) or `queens-{size}`.
    pub fn id(self) -> String {
        match self {
            TableRow::Hex(w) | TableRow::HexOthers(w) => format!("hex-{w}"),
            TableRow::HexPart { width, part, parts } => {
                let digits = parts.to_string().len();
                format!("hex-{width}-part-{part:0digits$}-of-{parts}")
            }
            TableRow::Queens(n) => format!("queens-{n}"),
        }
    }
}

/// The rows of the experiment's `[table]`, hex first; a split width gives its shards, then
/// its other levels.
pub fn table_rows(experiment: &Experiment) -> Vec<TableRow> {
    let Some(t) = &experiment.table else {
        return Vec::new();
    };
    let parts = t.hex_parts.unwrap_or(1);
    let mut rows = Vec::new();
    for &width in &t.hex_widths {
        if parts > 1 {
            rows.extend((1..=parts).map(|part| TableRow::HexPart { width, part, parts }));
            rows.push(TableRow::HexOthers(width));
        } else {
            rows.push(TableRow::Hex(width));
        }
    }
    rows.extend(t.queens_sizes.iter().map(|&n| TableRow::Queens(n)));
    rows
}

/// The rows of the sharded count: `row_order` and `streamed_rows` (checked when the
/// experiment was loaded; absent: top-down, two).
pub(crate) fn row_plan(experiment: &Experiment) -> RowPlan {
    let table = experiment.table.as_ref();
    let order = table
        .and_then(|t| t.row_order.as_deref())
        .and_then(RowOrder::from_name)
        .unwrap_or_default();
    let streamed = table
        .and_then(|t| t.streamed_rows)
        .and_then(StreamedRows::from_count)
        .unwrap_or_default();
    RowPlan::new(order, streamed)
}

/// The source layer of the last shard run, kept for the next shard of the same width.
type SourceCache = Option<(usize, RowPlan, (Layer, Vec<u64>, u64))>;

/// One shard of a three-axis count: its exact partial count, the states it held, its times
/// and its peak resident memory (reset before the shard where Linux allows it).
fn compute_part(
    width: usize,
    part: usize,
    parts: usize,
    plan: RowPlan,
    cache: &mut SourceCache,
) -> Record {
    let start = Instant::now();
    let reset = crate::backend::memory::reset_peak_rss();
    let mut extra = BTreeMap::new();
    let result = (|| {
        let halves = HexHalves::new(width)
            .ok_or_else(|| TableError::BadSize(format!("hex width {width}")))?;
        let count_error = |e: crate::backend::BackendError| TableError::Count(e.to_string());
        let shared = matches!(cache, Some((w, p, _)) if *w == width && *p == plan);
        if !shared {
            // A shard after the first reuses the source layer: it fitted, so no new guess.
            hex_memory_guard(width, parts, plan, None)?;
            *cache = None;
            let source = shards::source_layer(&halves, plan).map_err(count_error)?;
            *cache = Some((width, plan, source));
        }
        let source = cache.as_ref().map(|c| &c.2);
        let p = shards::count_part(&halves, part, parts, plan, source).map_err(count_error)?;
        extra.insert("source_shared".into(), serde_json::Value::from(shared));
        Ok::<PartCount, TableError>(p)
    })();
    let seconds = start.elapsed().as_secs_f64();
    let count = match result {
        Ok(p) => {
            extra.insert("width".into(), p.width.into());
            extra.insert("part".into(), p.part.into());
            extra.insert("parts".into(), p.parts.into());
            extra.insert("row_order".into(), p.plan.order.name().into());
            extra.insert("streamed_rows".into(), p.plan.streamed.count().into());
            extra.insert("source_seconds".into(), p.source_seconds.into());
            extra.insert("source_states".into(), p.source_states.clone().into());
            extra.insert("class_states".into(), p.class_states.into());
            extra.insert("class_slots".into(), p.class_slots.into());
            extra.insert("peak_state_bytes".into(), p.peak_state_bytes.into());
            extra.insert("class_seconds".into(), p.class_seconds.into());
            extra.insert("join_seconds".into(), p.join_seconds.into());
            if let Some(rss) = crate::backend::memory::peak_rss().filter(|_| reset) {
                extra.insert("peak_rss_bytes".into(), rss.into());
            }
            Ok(BigUint::from(p.count))
        }
        Err(e) => Err(e),
    };
    table_record(
        TableRow::HexPart { width, part, parts },
        count,
        seconds,
        None,
        extra,
    )
}

/// A hex width's other levels, with the 11 non-identity fixed-point counts for Burnside.
fn compute_others(width: usize) -> Record {
    let start = Instant::now();
    let mut levels = None;
    let result = hex_levels_but_three_axes(width, &TableOptions::default()).and_then(|l| {
        let fixed = hex_fixed_points_by_symmetry(width)?;
        let mut recorded = l.to_space_levels();
        recorded.counts.remove("three_axes");
        recorded.fixed_points = fixed.into_iter().map(BigUint::from).collect();
        levels = Some(recorded);
        Ok(l.two_axes)
    });
    let seconds = start.elapsed().as_secs_f64();
    table_record(
        TableRow::HexOthers(width),
        result,
        seconds,
        levels,
        BTreeMap::new(),
    )
}

fn compute(row: TableRow, cache: &mut SourceCache, plan: RowPlan) -> Record {
    match row {
        TableRow::HexPart { width, part, parts } => {
            return compute_part(width, part, parts, plan, cache)
        }
        TableRow::HexOthers(width) => {
            *cache = None;
            return compute_others(width);
        }
        TableRow::Hex(_) | TableRow::Queens(_) => *cache = None,
    }
    let start = Instant::now();
    let mut levels = None;
    let result = match row {
        TableRow::Hex(w) => hex_levels(w, &TableOptions::default()).map(|l| {
            levels = Some(l.to_space_levels());
            l.three_axes
        }),
        TableRow::Queens(n) => queens_levels(n, &TableOptions::default()).map(|l| {
            levels = Some(l.to_space_levels());
            l.no_touching
        }),
        TableRow::HexOthers(_) | TableRow::HexPart { .. } => unreachable!("returned above"),
    };
    let seconds = start.elapsed().as_secs_f64();
    table_record(row, result, seconds, levels, BTreeMap::new())
}

/// The record of one table row: its count (or why it failed), time, levels and figures, with
/// the group (`hex`, `queens`) and size the report needs.
fn table_record(
    row: TableRow,
    result: Result<BigUint, TableError>,
    seconds: f64,
    levels: Option<SpaceLevels>,
    extra: BTreeMap<String, serde_json::Value>,
) -> Record {
    let (status, count, reason) = match result {
        Ok(c) => (Status::Solved, Some(c.to_string()), None),
        Err(e) => (Status::Error, None, Some(e.to_string())),
    };
    let (group, size) = match row {
        TableRow::Hex(w) | TableRow::HexOthers(w) | TableRow::HexPart { width: w, .. } => {
            ("hex", w)
        }
        TableRow::Queens(n) => ("queens", n),
    };
    Record {
        status,
        seconds,
        exhaustive: count.as_ref().map(|_| true),
        count,
        reason,
        stats: Stats {
            seconds,
            levels,
            extra,
            ..Stats::default()
        },
        group: Some(group.into()),
        size: Some(size),
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
    let mut cache: SourceCache = None;
    let plan = row_plan(experiment);
    for row in &pending {
        if options.stop_after.is_some_and(|m| ran >= m) {
            break;
        }
        if options.progress {
            eprintln!("{}: {} ...", experiment.name, row.id());
        }
        file.append(&compute(*row, &mut cache, plan))?;
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

/// The levels on a table record: [`Stats::levels`], or, in a record made before the levels
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

fn hex_from(r: &Record, width: usize) -> Option<HexLevels> {
    HexLevels::from_space_levels(width, &levels_of(r)?, false)
}

fn queens_from(r: &Record, size: usize) -> Option<QueensLevels> {
    QueensLevels::from_space_levels(size, &levels_of(r)?)
}

fn log10(x: &BigUint) -> f64 {
    crate::space::table::log10_of(x)
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
    // Shards of the width being read: (sum so far, shards missing or failed).
    let mut shards = (0u128, 0usize);
    for row in table_rows(experiment) {
        let id = row.id();
        let Some(r) = by_id.get(id.as_str()) else {
            problems.push(format!("{id}: not on record"));
            if let TableRow::HexPart { .. } = row {
                shards.1 += 1;
            }
            continue;
        };
        if r.status != Status::Solved {
            problems.push(format!("{id}: {}", r.reason.as_deref().unwrap_or("failed")));
            if let TableRow::HexPart { .. } = row {
                shards.1 += 1;
            }
            continue;
        }
        match row {
            TableRow::Hex(w) => hex.extend(hex_from(r, w)),
            TableRow::HexPart { .. } => {
                match r.count.as_deref().and_then(|c| c.parse::<u128>().ok()) {
                    Some(c) => shards.0 = shards.0.saturating_add(c),
                    None => shards.1 += 1,
                }
            }
            TableRow::HexOthers(w) => {
                let (sum, missing) = std::mem::take(&mut shards);
                if missing > 0 {
                    problems.push(format!("hex-{w}: {missing} shard(s) missing"));
                    continue;
                }
                match sharded_hex_from(r, w, sum) {
                    Ok(levels) => hex.push(levels),
                    Err(why) => problems.push(format!("hex-{w}: {why}")),
                }
            }
            TableRow::Queens(n) => queens.extend(queens_from(r, n)),
        }
    }
    (hex, queens, problems)
}

/// The levels of a sharded width: its other levels from `r`, the three-axis count as the sum
/// of its shards, the orbits by Burnside's lemma from the recorded fixed points.
fn sharded_hex_from(r: &Record, width: usize, three_axes: u128) -> Result<HexLevels, String> {
    let recorded = levels_of(r).unwrap_or_default();
    let fixed: Vec<u128> = (recorded.fixed_points.iter())
        .filter_map(|f| u128::try_from(f).ok())
        .collect();
    if fixed.len() != 11 {
        return Err("the record lacks the 11 fixed-point counts".into());
    }
    let orbits = orbits_from_fixed_points(three_axes, &fixed).map_err(|e| e.to_string())?;
    let mut levels =
        HexLevels::from_space_levels(width, &recorded, true).ok_or("the record lacks a level")?;
    levels.three_axes = BigUint::from(three_axes);
    levels.orbits = Some(orbits);
    Ok(levels)
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
    if !hex.is_empty() {
        let mut t = hex_widths_table(&hex);
        for row in &mut t.rows {
            if let Some(Cell::Int(w)) = row.first() {
                if marked.contains(&(*w as usize)) {
                    row[0] = Cell::Text(format!("**{w}** (marked)"));
                }
            }
        }
        md += "Levels (each column, left to right, adds a rule to the one before it):\n\n";
        md += &crate::space::table::level_legend(&crate::space::table::HEX_LEVELS);
        md += "\n";
        md += &t.render(Format::Markdown);
        if !marked.is_empty() {
            md += "\nRows in bold are the widths the experiment file marks (`mark_hex_widths`; \
                   `search-space.toml` marks width 9, the row the seed write-up tabulates, to compare number for number).\n";
        }
        md += "\n";
    }
    md += &shards_markdown(&rows, &solved, redact_times);
    if !queens.is_empty() {
        md += "Queens levels:\n\n";
        md += &crate::space::table::level_legend(&crate::space::table::QUEENS_LEVELS);
        md += "\n";
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

/// The shards of the sharded widths: each one's partial count, time and memory.
fn shards_markdown(rows: &[TableRow], solved: &BTreeMap<&str, &Record>, redact: bool) -> String {
    let parts: Vec<TableRow> = rows
        .iter()
        .copied()
        .filter(|r| matches!(r, TableRow::HexPart { .. }))
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    let extra = |r: &Record, key: &str| r.stats.extra.get(key).cloned();
    let gib = |v: Option<serde_json::Value>| {
        v.and_then(|v| v.as_u64()).map_or("—".into(), |b| {
            format!("{:.2}", b as f64 / (1u64 << 30) as f64)
        })
    };
    let mut md = String::from(
        "### Shards of the three-axis counts\n\nEach shard counts the placements whose top half \
         lies in its class (see `src/backend/hex_shards.rs`); a width's count is their sum.\n\n\
         | shard | placements | seconds | peak RSS (GiB) | peak state arrays (GiB) | class states | source shared |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let (mut seconds, mut done) = (0.0, 0);
    for row in &parts {
        let id = row.id();
        let Some(r) = solved.get(id.as_str()) else {
            md += &format!("| {id} | not on record | | | | | |\n");
            continue;
        };
        done += 1;
        seconds += r.seconds;
        let timed = |s: String| if redact { "~".to_string() } else { s };
        md += &format!(
            "| {id} | {} | {} | {} | {} | {} | {} |\n",
            r.count.as_deref().unwrap_or("—"),
            timed(format!("{:.1}", r.seconds)),
            timed(gib(extra(r, "peak_rss_bytes"))),
            gib(extra(r, "peak_state_bytes")),
            extra(r, "class_states").map_or("—".into(), |v| v.to_string()),
            extra(r, "source_shared").map_or("—".into(), |v| v.to_string()),
        );
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

/// The curves of the search-space plot: every level of every hex width and Queens size on
/// record, as `(size, log10 count)`, named as the tables name them; zero counts have no
/// logarithm and are left out, each said in the returned notes.
fn size_curves(hex: &[HexLevels], queens: &[QueensLevels]) -> (Vec<plot::Curve>, Vec<String>) {
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
            .filter_map(|(x, c)| c.filter(|c| !c.is_zero()).map(|c| (x, log10(c))))
            .collect();
        if !pts.is_empty() {
            curves.push((name, pts));
        }
    };
    if !hex.is_empty() {
        let levels: [fn(&HexLevels) -> Option<&BigUint>; 6] = [
            |l| Some(&l.every_cell),
            |l| Some(&l.choose_n),
            |l| Some(&l.one_axis),
            |l| Some(&l.two_axes),
            |l| Some(&l.three_axes),
            |l| l.orbits.as_ref(),
        ];
        for ((name, _), get) in HEX_LEVELS.iter().zip(levels) {
            add(
                format!("hex: {name}"),
                hex.iter().map(|l| (l.width, get(l))).collect(),
            );
        }
    }
    if !queens.is_empty() {
        let levels: [fn(&QueensLevels) -> Option<&BigUint>; 6] = [
            |l| Some(&l.every_cell),
            |l| Some(&l.choose_n),
            |l| Some(&l.one_per_row),
            |l| Some(&l.permutations),
            |l| Some(&l.no_touching),
            |l| l.orbits.as_ref(),
        ];
        for ((name, _), get) in QUEENS_LEVELS.iter().zip(levels) {
            add(
                format!("queens: {name}"),
                queens.iter().map(|l| (l.size, get(l))).collect(),
            );
        }
    }
    (curves, notes)
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
    let put =
        |written: &mut Vec<PathBuf>, file: PathBuf, contents: String| -> Result<(), HarnessError> {
            write_atomically(&file, contents.as_bytes())?;
            written.push(file);
            Ok(())
        };
    for output in &experiment.outputs {
        match output {
            Output::Markdown => put(
                &mut written,
                dir.join(format!("{}.md", experiment.name)),
                render_table_markdown(experiment, &records, &provenance, false),
            )?,
            Output::Csv => {
                if !hex.is_empty() {
                    put(
                        &mut written,
                        dir.join(format!("{}.hex.csv", experiment.name)),
                        hex_widths_table(&hex).render(Format::Csv),
                    )?;
                }
                if !queens.is_empty() {
                    put(
                        &mut written,
                        dir.join(format!("{}.queens.csv", experiment.name)),
                        queens_sizes_table(&queens).render(Format::Csv),
                    )?;
                }
            }
            Output::SizePlot => {
                let file = dir.join(format!("{}.size.svg", experiment.name));
                let (curves, notes) = size_curves(&hex, &queens);
                let marked: Vec<(String, usize, String)> = experiment
                    .table
                    .as_ref()
                    .map(|t| {
                        t.mark_hex_widths
                            .iter()
                            .map(|&w| {
                                (
                                    format!("hex: {}", HEX_LEVELS[4].0),
                                    w,
                                    format!("width {w} (the seed's row)"),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let svg = plot::size_curve(
                    &experiment.title.clone().unwrap_or_else(|| {
                        "Search-space size of each modelling level against board size".into()
                    }),
                    &curves,
                    &marked,
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

    #[test]
    fn levels_read_alike_from_the_typed_field_and_from_an_older_record() {
        let new = compute(TableRow::Hex(5), &mut None, RowPlan::default());
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
        let others = compute_others(5);
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
        let whole = hex_from(&new, 5).unwrap();
        assert_eq!(sharded_hex_from(&others, 5, 6), Ok(whole.clone()));
        assert_eq!(sharded_hex_from(&old_others, 5, 6), Ok(whole));
    }
}
