//! The search-space table: how many candidate placements each level of modelling leaves, as
//! exact big integers, for hex boards (the seed's table), square Queens and Sudoku.
//!
//! Levels for a hex board of width `n` (`N = 3s(s-1) + 1` cells, `s = (n+1)/2`):
//! every cell 0/1 (`2^N`), exactly `n` cells (`C(N, n)`), one per row (the product of the row
//! lengths), the second axis too, all three axes, all three axes up to the 12 rotations and
//! reflections, and (for a coloured board) the board's own solution count. Queens of size `n`:
//! `2^(n^2)`, `C(n^2, n)`, `n^n`, `n!`, no touching (OEIS A002464), up to the 8 symmetries of the
//! square, and a board's count with its regions. Sudoku: `2^(n^3)`, `C(n^3, n^2)`, `n^(n^2)`, the
//! product of candidate counts after the givens and after naked/hidden singles, and the
//! solution count.
//!
//! Counting methods: the closed forms are computed directly; the constrained levels use the
//! [`dp`](crate::backend::dp) counter (fast at every width) or the
//! [`enumerate`](crate::backend::enumerate) backend ([`Method`]); orbits are counted by
//! canonical forms over the enumerated placements and checked against Burnside's lemma, so they
//! are limited to widths where enumeration is affordable ([`TableOptions::orbit_limit`]).
//!
//! Costs: the closed forms are instant; hex counts by dp take milliseconds up to width 15 and
//! grow about 5-10x per width step beyond (see `reports/search-space-widths.md`).

use std::ops::ControlFlow;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use serde_json::json;
use thiserror::Error;

use crate::backend::dp::LineProblem;
use crate::backend::enumerate::{EnumSettings, Enumerator, Order};
use crate::backend::memory;
use crate::model::{Coord, Model};
use crate::puzzle::kinds::hex::lines::hex_count;
use crate::puzzle::kinds::hex::shards::{
    self, HexHalves, MemoryEstimate, PartCount, RowOrder, RowPlan, StreamedRows,
};
use crate::puzzle::{HexBoard, QueensBoard, Sudoku};
use crate::space::symmetry::{Group, Orbits};

/// Errors of the table layer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// A width or size the table cannot take.
    #[error("{0}")]
    BadSize(String),
    /// A counter failed.
    #[error("counting failed: {0}")]
    Count(String),
    /// The count would need more memory than allowed: refused before it starts.
    #[error("{0}")]
    Memory(String),
    /// Orbit counting by canonical forms disagreed with Burnside's lemma (a bug, never shown
    /// as a number).
    #[error("orbit count {canonical} by canonical forms disagrees with Burnside's {burnside}")]
    Burnside {
        /// Orbits by canonical forms.
        canonical: String,
        /// Orbits by Burnside's lemma.
        burnside: String,
    },
}

/// How the constrained levels are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Dynamic programming over rows (fast; the default).
    #[default]
    Dp,
    /// The enumerator, one placement at a time (for cross-checks; slow past width 15).
    Enum,
}

/// What to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Counting method of the constrained levels.
    pub method: Method,
    /// Orbits are counted by canonical forms (enumerating every placement, checked against
    /// Burnside) only when the placements to enumerate number at most this many.
    pub orbit_limit: u128,
    /// Above `orbit_limit`, hex orbits come from Burnside's lemma with fixed points counted on
    /// orbit models (cost grows about as the square root of the count); false leaves them empty.
    pub burnside: bool,
    /// Refuse a hex count whose estimated peak memory is above this many bytes (`None`: the
    /// memory the system has available, `MemAvailable`; no check when that is unknown).
    pub memory_limit: Option<u64>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            method: Method::Dp,
            orbit_limit: 2_000_000,
            burnside: true,
            memory_limit: None,
        }
    }
}

/// Output format of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown; counts with digit groups (`25,401,600`) and formulas (`2^61 = ...`).
    Markdown,
    /// CSV; counts as plain decimal digits.
    Csv,
    /// JSON; counts as strings of plain decimal digits (exact in every reader).
    Json,
}

/// One cell of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// Text (a label, a scaling law).
    Text(String),
    /// An exact count, with the closed form it came from, if any.
    Count {
        /// The value.
        value: BigUint,
        /// The closed form (`2^61`, `C(61,9)`), if any.
        formula: Option<String>,
    },
    /// A plain whole number that is not a count (a width, a number of cells): a JSON number.
    Int(u64),
    /// Not computed, and why (too large to enumerate, no method for this level).
    Missing(String),
}

impl Cell {
    fn count(value: BigUint) -> Cell {
        Cell::Count {
            value,
            formula: None,
        }
    }
    fn formula(value: BigUint, formula: String) -> Cell {
        Cell::Count {
            value,
            formula: Some(formula),
        }
    }
    fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }
}

/// Counts up to this value are JSON numbers (exact in every JSON reader, 2^53); larger ones
/// are decimal strings.
const JSON_EXACT: u64 = 1 << 53;

/// Counts with more digits than this are shown in Markdown by their closed form when they
/// have one (the digits are in the CSV and JSON).
const MARKDOWN_DIGITS: usize = 24;

/// log10 of `x`, exact enough for a plot or a sort (from the leading digits and the length).
pub fn log10_of(x: &BigUint) -> f64 {
    let digits = x.to_string();
    let lead: f64 = digits[..digits.len().min(17)].parse().unwrap_or(0.0);
    if lead == 0.0 {
        return f64::NEG_INFINITY;
    }
    lead.log10() + digits.len().saturating_sub(17) as f64
}

/// A column holding counts gets a `log10` twin in CSV and JSON (for sorting and plotting the
/// big counts without big-integer support).
fn is_count_column(rows: &[Vec<Cell>], column: usize) -> bool {
    rows.iter()
        .any(|r| matches!(r.get(column), Some(Cell::Count { .. })))
        && rows.len() > 1
}

/// A table: title, header and rows of cells; rendered with [`Table::render`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// What the table shows.
    pub title: String,
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each as long as the header.
    pub rows: Vec<Vec<Cell>>,
}

/// `x` with a comma every three digits.
pub fn group_digits(x: &BigUint) -> String {
    let digits = x.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Table {
    /// Why cells are empty, one line per (column, reason) with the rows it holds for (by
    /// their first cell), in row order.
    pub fn empty_cell_notes(&self) -> Vec<String> {
        let mut notes: Vec<(String, String, Vec<String>)> = Vec::new();
        for row in &self.rows {
            let key = match row.first() {
                Some(Cell::Int(i)) => i.to_string(),
                Some(Cell::Text(t)) => t.clone(),
                _ => String::new(),
            };
            for (h, c) in self.header.iter().zip(row) {
                if let Cell::Missing(reason) = c {
                    match notes.iter_mut().find(|(hh, r, _)| hh == h && r == reason) {
                        Some(n) => n.2.push(key.clone()),
                        None => notes.push((h.clone(), reason.clone(), vec![key.clone()])),
                    }
                }
            }
        }
        notes
            .into_iter()
            .map(|(h, r, keys)| {
                let first = self.header.first().cloned().unwrap_or_default();
                format!("\"{h}\" is empty at {first} {}: {r}", keys.join(", "))
            })
            .collect()
    }

    fn markdown(&self) -> String {
        let mut out = format!("### {}\n\n", crate::output::markdown_text(&self.title));
        out += &format!("| {} |\n", self.header.join(" | "));
        out += &format!("|{}\n", "---|".repeat(self.header.len()));
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|c| match c {
                    Cell::Text(t) => t.clone(),
                    Cell::Int(i) => i.to_string(),
                    Cell::Count {
                        value,
                        formula: Some(f),
                    } if value.to_string().len() > MARKDOWN_DIGITS => f.clone(),
                    Cell::Count {
                        value,
                        formula: Some(f),
                    } => format!("{f} = {}", group_digits(value)),
                    Cell::Count { value, .. } => group_digits(value),
                    Cell::Missing(_) => "—".into(),
                })
                .collect();
            out += &format!("| {} |\n", cells.join(" | "));
        }
        let notes = self.empty_cell_notes();
        if !notes.is_empty() {
            out.push('\n');
            for n in notes {
                out += &format!("- {n}\n");
            }
        }
        out
    }

    /// The header of the CSV and JSON forms: each count column followed by its `log10` twin,
    /// then `notes` (why cells are empty). The same for every table of one kind, whatever
    /// its sizes.
    fn flat_header(&self) -> Vec<(String, Option<usize>, bool)> {
        let mut out = Vec::new();
        for (i, h) in self.header.iter().enumerate() {
            out.push((h.clone(), Some(i), false));
            if is_count_column(&self.rows, i) {
                out.push((format!("log10 {h}"), Some(i), true));
            }
        }
        out.push(("notes".into(), None, false));
        out
    }

    /// Row `row`'s values for the flat header: `(CSV text, JSON value)`.
    fn flat_row(&self, row: &[Cell]) -> Vec<(String, serde_json::Value)> {
        let notes: Vec<String> = self
            .header
            .iter()
            .zip(row)
            .filter_map(|(h, c)| match c {
                Cell::Missing(r) => Some(format!("{h}: {r}")),
                _ => None,
            })
            .collect();
        self.flat_header()
            .into_iter()
            .map(|(_, col, log)| match (col.and_then(|i| row.get(i)), log) {
                (None, _) => (csv_field(&notes.join("; ")), json!(notes.join("; "))),
                (Some(Cell::Count { value, .. }), true) => {
                    let l = log10_of(value);
                    (format!("{l:.4}"), json!((l * 1e4).round() / 1e4))
                }
                (Some(_), true) => (String::new(), serde_json::Value::Null),
                (Some(Cell::Text(t)), _) => (csv_field(t), json!(t)),
                (Some(Cell::Int(i)), _) => (i.to_string(), json!(i)),
                (Some(Cell::Count { value, .. }), _) => {
                    let small = u64::try_from(value).ok().filter(|v| *v <= JSON_EXACT);
                    (
                        value.to_string(),
                        small.map_or_else(|| json!(value.to_string()), |v| json!(v)),
                    )
                }
                (Some(Cell::Missing(_)), _) => (String::new(), serde_json::Value::Null),
            })
            .collect()
    }

    /// The table as text in `format` (ending with a newline). Markdown: counts with digit
    /// groups, closed forms (`2^61`) in place of counts longer than 24 digits, and a line under
    /// the table for every empty cell saying why. CSV and JSON: counts as plain decimal digits
    /// (JSON: numbers up to 2^53, decimal strings above), a `log10` column after each count
    /// column, and a `notes` column with the reasons for empty cells.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Markdown => self.markdown(),
            Format::Csv => {
                let header = self.flat_header();
                let mut out = header
                    .iter()
                    .map(|(h, _, _)| csv_field(h))
                    .collect::<Vec<_>>()
                    .join(",");
                out.push('\n');
                for row in &self.rows {
                    let cells: Vec<String> =
                        self.flat_row(row).into_iter().map(|(c, _)| c).collect();
                    out += &cells.join(",");
                    out.push('\n');
                }
                out
            }
            Format::Json => {
                let header: Vec<String> = self.flat_header().into_iter().map(|h| h.0).collect();
                let rows: Vec<serde_json::Value> = self
                    .rows
                    .iter()
                    .map(|row| {
                        let mut obj = serde_json::Map::new();
                        for (h, (_, v)) in header.iter().zip(self.flat_row(row)) {
                            obj.insert(h.clone(), v);
                        }
                        serde_json::Value::Object(obj)
                    })
                    .collect();
                let doc = json!({ "title": self.title, "columns": header, "rows": rows });
                let mut s = serde_json::to_string_pretty(&doc).expect("plain JSON values");
                s.push('\n');
                s
            }
        }
    }
}

/// `n choose k`, exact.
pub fn binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut acc = BigUint::one();
    for i in 0..k {
        acc = acc * BigUint::from(n - i) / BigUint::from(i + 1);
    }
    acc
}

/// `n!`, exact.
pub fn factorial(n: u64) -> BigUint {
    (1..=n).fold(BigUint::one(), |acc, i| acc * BigUint::from(i))
}

fn pow2(e: u64) -> BigUint {
    BigUint::one() << e
}

/// The levels of one hex width, each an exact count (orbits: `None` when not computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexLevels {
    /// Board width `n`.
    pub width: usize,
    /// Cells `N`.
    pub cells: u64,
    /// `2^N`.
    pub every_cell: BigUint,
    /// `C(N, n)`.
    pub choose_n: BigUint,
    /// Product of the row lengths.
    pub one_axis: BigUint,
    /// One per row and per second-axis line.
    pub two_axes: BigUint,
    /// One per line of all three axes.
    pub three_axes: BigUint,
    /// Three-axis placements up to the 12 symmetries.
    pub orbits: Option<BigUint>,
    /// A coloured board's solution count, when a board was given.
    pub board: Option<BigUint>,
}

fn enum_count(model: &Model, families: &[&str]) -> Result<u128, TableError> {
    let settings = EnumSettings {
        families: Some(families.iter().map(|s| s.to_string()).collect()),
        parallel: true,
        ..EnumSettings::default()
    };
    let e = Enumerator::new(model, &settings).map_err(|e| TableError::Count(e.to_string()))?;
    Ok(e.count(None).0)
}

/// Orbit statistics of the placements of `model` restricted to `families`, as one-per-row
/// tuples (`column` maps a variable to its tuple column), by streaming every placement.
pub fn orbit_stats(
    model: &Model,
    families: &[&str],
    group: &Group,
    column: impl Fn(usize, usize) -> usize,
) -> Result<Orbits, TableError> {
    let settings = EnumSettings {
        families: Some(families.iter().map(|s| s.to_string()).collect()),
        order: Order::Fixed,
        ..EnumSettings::default()
    };
    let e = Enumerator::new(model, &settings).map_err(|e| TableError::Count(e.to_string()))?;
    let cells: Vec<(usize, usize)> = model
        .variables()
        .iter()
        .map(|v| match v.coord {
            Coord::Cell { row, col } => (row, column(row, col)),
            _ => (0, 0),
        })
        .collect();
    let mut orbits = Orbits::new(group);
    let mut tuple = vec![0; group.size];
    let mut scratch = vec![0; group.size];
    e.for_each_solution(|s| {
        for &v in &s.ones {
            let (r, c) = cells[v];
            tuple[r] = c;
        }
        orbits.add(group, &tuple, &mut scratch);
        ControlFlow::Continue(())
    });
    Ok(orbits)
}

/// Orbits by canonical forms, after checking them against Burnside's lemma.
fn checked_orbits(orbits: &Orbits) -> Result<BigUint, TableError> {
    let canonical = BigUint::from(orbits.canonical);
    match orbits.burnside() {
        Some(b) if b == canonical => Ok(canonical),
        b => Err(TableError::Burnside {
            canonical: canonical.to_string(),
            burnside: b.map_or("not a whole number".into(), |b| b.to_string()),
        }),
    }
}

/// Three-axis placements of width `width` up to the 12 symmetries by Burnside's lemma: the
/// identity fixes all `total` placements, every other symmetry's fixed placements are counted
/// by [`hex_fixed_points`](crate::space::symmetry::hex_fixed_points) (a small model over orbits of
/// cells), and the mean is taken; it must be a whole number.
pub fn hex_orbits_by_burnside(width: usize, total: u128) -> Result<BigUint, TableError> {
    let fixed = hex_fixed_points_by_symmetry(width)?;
    orbits_from_fixed_points(total, &fixed)
}

/// The placements fixed by each of the 11 symmetries other than the identity (rotations by
/// 60-300 degrees, then the six reflections), each counted by the enumerator on its orbit
/// model ([`hex_fixed_points`](crate::space::symmetry::hex_fixed_points)): independent of the dp.
pub fn hex_fixed_points_by_symmetry(width: usize) -> Result<Vec<u128>, TableError> {
    (1..12)
        .map(|g| {
            crate::space::symmetry::hex_fixed_points(width, g)
                .map_err(|e| TableError::Count(e.to_string()))
        })
        .collect()
}

/// Burnside's lemma: the identity fixes all `total` placements, `fixed` are the other 11
/// symmetries' fixed placements; the orbits are the mean, which must be a whole number.
pub fn orbits_from_fixed_points(total: u128, fixed: &[u128]) -> Result<BigUint, TableError> {
    let sum = fixed
        .iter()
        .try_fold(total, |acc, &f| acc.checked_add(f))
        .ok_or_else(|| TableError::Count("the Burnside sum passed 2^128".into()))?;
    if sum % 12 != 0 {
        return Err(TableError::Burnside {
            canonical: "not computed".into(),
            burnside: format!("{sum}/12, not a whole number"),
        });
    }
    Ok(BigUint::from(sum / 12))
}

/// The memory guard runs the first dynamic-programming layers while they hold at most this
/// many states and extrapolates the rest: at width 25 the first 8 of 12 top rows (3 s of CPU,
/// 0.6 GB), at width 27 the first 8 of 13 (6 s, 1.3 GB). Fewer measured rows lean far higher
/// (width 27, three streamed rows, 32 shards: 52 GiB from 7 rows against 28 GiB from 8).
pub const GUARD_BUDGET: usize = 1 << 24;

/// Refuses (before anything is counted) a three-axis count of width `width` in `parts` shards
/// computed by `plan` whose estimated peak memory per shard is above `limit` (`None`:
/// `MemAvailable`). The estimate measures the first dynamic-programming layers and
/// extrapolates their growth; a refusal says how many shards each number of streamed rows
/// needs to fit.
pub fn hex_memory_guard(
    width: usize,
    parts: usize,
    plan: RowPlan,
    limit: Option<u64>,
) -> Result<(), TableError> {
    let Some(halves) = HexHalves::new(width) else {
        return Ok(());
    };
    let Some(limit) = limit.or_else(memory::available_memory) else {
        return Ok(());
    };
    let measure = |plan| {
        MemoryEstimate::measure(&halves, plan, GUARD_BUDGET)
            .map_err(|e| TableError::Count(e.to_string()))
    };
    let estimate = measure(plan)?;
    let needed = estimate.peak_bytes(parts);
    if needed <= limit {
        return Ok(());
    }
    let mut advice = Vec::new();
    for streamed in StreamedRows::ALL {
        let other = RowPlan::new(plan.order, streamed);
        let e = if other == plan {
            estimate.clone()
        } else {
            measure(other)?
        };
        advice.push(match e.parts_within(limit) {
            Some(k) => format!(
                "with {} streamed rows, `--shard k/K` with K >= {k}: about {} each",
                streamed.count(),
                memory::gib(e.peak_bytes(k))
            ),
            None => format!(
                "with {} streamed rows no number of shards brings it within the limit (4096 \
                 shards need about {} each)",
                streamed.count(),
                memory::gib(e.peak_bytes(4096))
            ),
        });
    }
    let shards = if parts > 1 {
        format!(" per shard of {parts}")
    } else {
        String::new()
    };
    Err(TableError::Memory(format!(
        "hex width {width}: the three-axis count ({}) needs about {}{shards} (estimated from the \
         states of the first {} rows: {} top states up to reflection), above the limit of {}; {}",
        plan.name(),
        memory::gib(needed),
        estimate.measured_layers - 1,
        estimate.top_states,
        memory::gib(limit),
        advice.join("; "),
    )))
}

/// The estimated peak memory of one shard of the three-axis count of width `width` for each
/// number of streamed rows of `streamed` (row order `order`) and each shard count of `parts`
/// (`zeroone table hex --width W --estimate`): what to ask a cluster for before counting.
/// Two tables: the peaks, and the source layers' states (measured while a layer holds at most
/// `budget` states, then extrapolated) with the seconds the measuring took. Costs those
/// layers' dynamic programme (seconds with [`GUARD_BUDGET`]; 30 bytes a state of the
/// largest measured layer, twice).
pub fn hex_memory_tables(
    width: usize,
    order: RowOrder,
    streamed: &[StreamedRows],
    parts: &[usize],
    budget: usize,
) -> Result<[Table; 2], TableError> {
    let halves = HexHalves::new(width).ok_or_else(|| {
        TableError::BadSize(format!(
            "hex width {width}: expected an odd width from 1 to 31"
        ))
    })?;
    let number = |x: u64| Cell::count(BigUint::from(x));
    let (mut peaks, mut layers) = (Vec::new(), Vec::new());
    for &streamed in streamed {
        let plan = RowPlan::new(order, streamed);
        let start = std::time::Instant::now();
        let e = MemoryEstimate::measure(&halves, plan, budget)
            .map_err(|e| TableError::Count(e.to_string()))?;
        let seconds = start.elapsed().as_secs_f64();
        let source = e.source_states.last().copied().unwrap_or(1);
        for &k in parts {
            peaks.push(vec![
                Cell::text(streamed.count().to_string()),
                Cell::text(k.to_string()),
                Cell::text(memory::gib(e.peak_bytes(k))),
                number(source),
                number(e.top_states.div_ceil(k.max(1) as u64)),
            ]);
        }
        let (measured, guessed) = e.source_states.split_at(e.measured_layers);
        let list = |states: &[u64]| states.iter().map(u64::to_string).collect::<Vec<_>>();
        layers.push(vec![
            Cell::text(streamed.count().to_string()),
            Cell::text(list(measured).join(" ")),
            Cell::text(list(guessed).join(" ")),
            number(e.top_states),
            Cell::text(format!("{seconds:.1}")),
        ]);
    }
    let title = |what: &str| format!("Hex board, width {width}: {what} ({})", order.name());
    Ok([
        Table {
            title: title("estimated peak memory of one shard of the three-axis count"),
            header: vec![
                "streamed rows".into(),
                "shards K".into(),
                "peak per shard".into(),
                "source states".into(),
                "class states (mean)".into(),
            ],
            rows: peaks,
        },
        Table {
            title: title(
                "states of the source layers (up to reflection), measured then extrapolated",
            ),
            header: vec![
                "streamed rows".into(),
                "measured layers".into(),
                "extrapolated layers".into(),
                "top states (extrapolated)".into(),
                "seconds measuring".into(),
            ],
            rows: layers,
        },
    ])
}

/// Shard `part` (1-based) of `parts` of the three-axis count of width `width` (see
/// [`shards`]) computed by `plan`: the exact number of placements whose top half lies in
/// the shard's class. Refused first when its estimated memory is above `limit`
/// ([`hex_memory_guard`]).
pub fn hex_three_axes_part(
    width: usize,
    part: usize,
    parts: usize,
    plan: RowPlan,
    limit: Option<u64>,
) -> Result<PartCount, TableError> {
    let halves = HexHalves::new(width).ok_or_else(|| {
        TableError::BadSize(format!(
            "hex width {width}: expected an odd width from 1 to 31"
        ))
    })?;
    if part == 0 || part > parts {
        return Err(TableError::BadSize(format!(
            "shard {part}/{parts}: expected k/K with 1 <= k <= K"
        )));
    }
    hex_memory_guard(width, parts, plan, limit)?;
    shards::count_part(&halves, part, parts, plan, None)
        .map_err(|e| TableError::Count(e.to_string()))
}

fn hex_board(width: usize) -> Result<HexBoard, TableError> {
    HexBoard::geometry(width)
        .filter(|_| width <= 31)
        .ok_or_else(|| {
            TableError::BadSize(format!(
                "hex width {width}: expected an odd width from 1 to 31"
            ))
        })
}

/// The hex levels of width `width` (odd, 1..=31) that do not need the three-axis count: the
/// closed forms and the two-axis count; `three_axes` is 0 and `orbits` empty, for the caller
/// to fill in (a sharded count sums its shards first).
pub fn hex_levels_but_three_axes(
    width: usize,
    options: &TableOptions,
) -> Result<HexLevels, TableError> {
    let board = hex_board(width)?;
    let cells = board.num_cells() as u64;
    let one_axis = (0..width).fold(BigUint::one(), |acc, r| {
        acc * BigUint::from(board.row_len(r))
    });
    let two_axes = match options.method {
        Method::Dp => match hex_count(width, (true, false)) {
            Some(Ok((c, _))) => c,
            Some(Err(e)) => return Err(TableError::Count(e.to_string())),
            None => return Err(TableError::BadSize(format!("hex width {width}"))),
        },
        Method::Enum => {
            let m = board.to_model(format!("hex-{width}"));
            enum_count(&m, &["row", "diag"])?
        }
    };
    Ok(HexLevels {
        width,
        cells,
        every_cell: pow2(cells),
        choose_n: binomial(cells, width as u64),
        one_axis,
        two_axes: BigUint::from(two_axes),
        three_axes: BigUint::zero(),
        orbits: None,
        board: None,
    })
}

/// Computes the hex levels of width `width` (odd, 1..=31). With [`Method::Dp`], refuses
/// first (before counting anything) when the estimated memory is above the limit.
pub fn hex_levels(width: usize, options: &TableOptions) -> Result<HexLevels, TableError> {
    let board = hex_board(width)?;
    if options.method == Method::Dp {
        hex_memory_guard(width, 1, RowPlan::default(), options.memory_limit)?;
    }
    let mut levels = hex_levels_but_three_axes(width, options)?;
    let three_axes = match options.method {
        Method::Dp => {
            let halves = HexHalves::new(width)
                .ok_or_else(|| TableError::BadSize(format!("hex width {width}")))?;
            shards::count_part(&halves, 1, 1, RowPlan::default(), None)
                .map_err(|e| TableError::Count(e.to_string()))?
                .count
        }
        Method::Enum => {
            let m = board.to_model(format!("hex-{width}"));
            enum_count(&m, &["row", "diag", "anti"])?
        }
    };
    levels.orbits = if three_axes <= options.orbit_limit {
        let m = board.to_model(format!("hex-{width}"));
        let stats = orbit_stats(&m, &["row", "diag", "anti"], &Group::hex(width), |r, k| {
            board.diag(r, k)
        })?;
        if stats.placements != three_axes {
            return Err(TableError::Count(format!(
                "enumerated {} three-axis placements, counted {three_axes}",
                stats.placements
            )));
        }
        Some(checked_orbits(&stats)?)
    } else if options.burnside {
        Some(hex_orbits_by_burnside(width, three_axes)?)
    } else {
        None
    };
    levels.three_axes = BigUint::from(three_axes);
    Ok(levels)
}

/// A board's own solution count (with its colours or regions), by the `enum` backend through
/// [`count_verified`](crate::backend::count_verified): every witness is verified and the count
/// must be exhaustive.
pub fn board_count(model: &Model) -> Result<BigUint, TableError> {
    use crate::backend::{count_verified, make_backend, BackendOptions, Status};
    let mut backend = make_backend("enum", &BackendOptions::default())
        .map_err(|e| TableError::Count(e.to_string()))?;
    let out = count_verified(backend.as_mut(), model, None)
        .map_err(|e| TableError::Count(e.to_string()))?;
    if out.status != Status::Solved || !out.exhaustive {
        return Err(TableError::Count(format!(
            "{}: {}",
            model.name(),
            out.reason
                .unwrap_or_else(|| "the count did not finish".into())
        )));
    }
    Ok(BigUint::from(out.count))
}

/// The levels of a hex board of width `n` (`N` cells), as every table, CSV and plot names
/// them, each with the sentence that defines it.
pub const HEX_LEVELS: [(&str, &str); 6] = [
    ("every cell 0/1", "each of the N cells is 0 or 1, with no rule: 2^N."),
    ("n cells", "exactly n of the N cells are 1: C(N, n)."),
    (
        "one per row",
        "exactly one 1 in each of the n rows (one axis): the product of the row lengths.",
    ),
    (
        "one per line on two axes",
        "one per row and one per line of a second axis.",
    ),
    (
        "one per line on three axes",
        "one per line of all three axes: the placements a board without colours allows.",
    ),
    (
        "three axes up to symmetry",
        "the three-axis placements counted once per orbit of the 12 rotations and reflections of the hexagon.",
    ),
];

/// The levels of an `n` x `n` Queens board, named and defined as [`HEX_LEVELS`].
pub const QUEENS_LEVELS: [(&str, &str); 6] = [
    ("every cell 0/1", "each of the n² cells is 0 or 1, with no rule: 2^(n²)."),
    ("n cells", "exactly n of the n² cells are 1: C(n², n)."),
    ("one per row", "exactly one queen in each row: n^n."),
    (
        "one per row and column",
        "one per row and one per column: the n! permutations.",
    ),
    (
        "no two touching",
        "a permutation with no two queens in touching (diagonally adjacent) cells: OEIS A002464.",
    ),
    (
        "no two touching up to symmetry",
        "the no-touching placements counted once per orbit of the 8 rotations and reflections of the square.",
    ),
];

/// Why a hex width's orbits are empty (only when Burnside's lemma is turned off).
const HEX_NO_ORBITS: &str = "not computed: above the orbit limit with Burnside's lemma turned off (--no-burnside), or a record made before orbits were computed at this width";
/// Why a Queens size's orbits are empty.
const QUEENS_NO_ORBITS: &str = "not computed: Queens orbits come from enumerating every no-touching placement, and there are more than the orbit limit (--orbit-limit, 2,000,000 by default)";

/// The legend of a level list as Markdown: one line per level, its name and definition.
pub fn level_legend(levels: &[(&str, &str)]) -> String {
    levels
        .iter()
        .map(|(name, what)| format!("- **{name}**: {what}\n"))
        .collect()
}

/// The seed's scaling column, one entry per level.
const HEX_SCALING: [&str; 7] = [
    "2^Θ(n²)",
    "C(Θ(n²), n)",
    "roughly n! 2^n / √n",
    "at most O(n!) candidates",
    "bounded above by O(n!)",
    "about 1/12 of the line above",
    "1 for a proper puzzle",
];

/// The table of one hex width: one row per level, with the seed's scaling column.
pub fn hex_table(levels: &HexLevels) -> Table {
    let n = levels.width;
    let big_n = levels.cells;
    let mut rows = vec![
        vec![
            Cell::text(HEX_LEVELS[0].0),
            Cell::formula(levels.every_cell.clone(), format!("2^{big_n}")),
        ],
        vec![
            Cell::text(HEX_LEVELS[1].0),
            Cell::formula(levels.choose_n.clone(), format!("C({big_n},{n})")),
        ],
        vec![
            Cell::text(HEX_LEVELS[2].0),
            Cell::count(levels.one_axis.clone()),
        ],
        vec![
            Cell::text(HEX_LEVELS[3].0),
            Cell::count(levels.two_axes.clone()),
        ],
        vec![
            Cell::text(HEX_LEVELS[4].0),
            Cell::count(levels.three_axes.clone()),
        ],
        vec![
            Cell::text(HEX_LEVELS[5].0),
            levels
                .orbits
                .clone()
                .map_or(Cell::Missing(HEX_NO_ORBITS.into()), Cell::count),
        ],
    ];
    if let Some(b) = &levels.board {
        rows.push(vec![
            Cell::text("with the board's colours"),
            Cell::count(b.clone()),
        ]);
    }
    for (row, scaling) in rows.iter_mut().zip(HEX_SCALING) {
        row.push(Cell::text(scaling));
    }
    Table {
        title: format!("Hex board, width {n} ({big_n} cells)"),
        header: vec!["level".into(), "count".into(), "scaling in n".into()],
        rows,
    }
}

/// The table of one shard of a three-axis hex count: its partial count and what it held.
pub fn hex_part_table(p: &PartCount) -> Table {
    let number = |x: u64| Cell::count(BigUint::from(x));
    let source = p.source_states.last().copied().unwrap_or(0);
    Table {
        title: format!(
            "Hex board, width {}: three-axis placements, shard {} of {} ({})",
            p.width,
            p.part,
            p.parts,
            p.plan.name()
        ),
        header: vec!["quantity".into(), "value".into()],
        rows: vec![
            vec![
                Cell::text("placements whose top half is in this shard's class"),
                Cell::count(BigUint::from(p.count)),
            ],
            vec![
                Cell::text("top-half states of the class (up to reflection)"),
                number(p.class_states),
            ],
            vec![
                Cell::text("source-layer states (up to reflection)"),
                number(source),
            ],
            vec![
                Cell::text("peak bytes of state arrays and tables"),
                number(p.peak_state_bytes),
            ],
            vec![
                Cell::text("seconds: source layer, class table, join"),
                Cell::text(format!(
                    "{:.1}, {:.1}, {:.1}",
                    p.source_seconds, p.class_seconds, p.join_seconds
                )),
            ],
        ],
    }
}

/// One row per width, one column per level.
pub fn hex_widths_table(all: &[HexLevels]) -> Table {
    let rows = all
        .iter()
        .map(|l| {
            vec![
                Cell::Int(l.width as u64),
                Cell::Int(l.cells),
                Cell::formula(l.every_cell.clone(), format!("2^{}", l.cells)),
                Cell::formula(l.choose_n.clone(), format!("C({},{})", l.cells, l.width)),
                Cell::count(l.one_axis.clone()),
                Cell::count(l.two_axes.clone()),
                Cell::count(l.three_axes.clone()),
                l.orbits
                    .clone()
                    .map_or(Cell::Missing(HEX_NO_ORBITS.into()), Cell::count),
            ]
        })
        .collect();
    Table {
        title: "Hex boards by width".into(),
        header: ["width", "cells"]
            .into_iter()
            .chain(HEX_LEVELS.iter().map(|l| l.0))
            .map(String::from)
            .collect(),
        rows,
    }
}

/// The levels of one Queens size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueensLevels {
    /// Side `n`.
    pub size: usize,
    /// `2^(n^2)`.
    pub every_cell: BigUint,
    /// `C(n^2, n)`.
    pub choose_n: BigUint,
    /// `n^n`: one per row.
    pub one_per_row: BigUint,
    /// `n!`: one per row and column.
    pub permutations: BigUint,
    /// No two touching as well (OEIS A002464).
    pub no_touching: BigUint,
    /// No-touching placements up to the 8 symmetries of the square.
    pub orbits: Option<BigUint>,
    /// A board's solution count with its regions, when a board was given.
    pub board: Option<BigUint>,
}

/// Computes the Queens levels of size `size` (1..=32).
pub fn queens_levels(size: usize, options: &TableOptions) -> Result<QueensLevels, TableError> {
    if !(1..=32).contains(&size) {
        return Err(TableError::BadSize(format!(
            "queens size {size}: expected 1 to 32"
        )));
    }
    let n = size as u64;
    let model = QueensBoard::bare(size).to_model(format!("queens-{size}"));
    let no_touching = match options.method {
        Method::Dp => {
            LineProblem::from_model(&model, Some("row"))
                .map_err(|e| TableError::Count(e.to_string()))?
                .count()
                .map_err(|e| TableError::Count(e.to_string()))?
                .0
        }
        Method::Enum => enum_count(&model, &["row", "column", "touch"])?,
    };
    let orbits = if no_touching <= options.orbit_limit {
        let stats = orbit_stats(
            &model,
            &["row", "column", "touch"],
            &Group::square(size),
            |_, c| c,
        )?;
        if stats.placements != no_touching {
            return Err(TableError::Count(format!(
                "enumerated {} placements, counted {no_touching}",
                stats.placements
            )));
        }
        Some(checked_orbits(&stats)?)
    } else {
        None
    };
    Ok(QueensLevels {
        size,
        every_cell: pow2(n * n),
        choose_n: binomial(n * n, n),
        one_per_row: BigUint::from(n).pow(size as u32),
        permutations: factorial(n),
        no_touching: BigUint::from(no_touching),
        orbits,
        board: None,
    })
}

/// The table of one Queens size: one row per level.
pub fn queens_table(l: &QueensLevels) -> Table {
    let n = l.size;
    let mut rows = vec![
        vec![
            Cell::text(QUEENS_LEVELS[0].0),
            Cell::formula(l.every_cell.clone(), format!("2^{}", n * n)),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[1].0),
            Cell::formula(l.choose_n.clone(), format!("C({},{n})", n * n)),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[2].0),
            Cell::formula(l.one_per_row.clone(), format!("{n}^{n}")),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[3].0),
            Cell::formula(l.permutations.clone(), format!("{n}!")),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[4].0),
            Cell::count(l.no_touching.clone()),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[5].0),
            l.orbits
                .clone()
                .map_or(Cell::Missing(QUEENS_NO_ORBITS.into()), Cell::count),
        ],
    ];
    if let Some(b) = &l.board {
        rows.push(vec![
            Cell::text("with the board's regions"),
            Cell::count(b.clone()),
        ]);
    }
    Table {
        title: format!("Queens, {n}x{n}"),
        header: vec!["level".into(), "count".into()],
        rows,
    }
}

/// One row per size, one column per level.
pub fn queens_sizes_table(all: &[QueensLevels]) -> Table {
    let rows = all
        .iter()
        .map(|l| {
            vec![
                Cell::Int(l.size as u64),
                Cell::formula(l.every_cell.clone(), format!("2^{}", l.size * l.size)),
                Cell::formula(
                    l.choose_n.clone(),
                    format!("C({},{})", l.size * l.size, l.size),
                ),
                Cell::formula(l.one_per_row.clone(), format!("{0}^{0}", l.size)),
                Cell::formula(l.permutations.clone(), format!("{}!", l.size)),
                Cell::count(l.no_touching.clone()),
                l.orbits
                    .clone()
                    .map_or(Cell::Missing(QUEENS_NO_ORBITS.into()), Cell::count),
            ]
        })
        .collect();
    Table {
        title: "Queens by size".into(),
        header: std::iter::once("size")
            .chain(QUEENS_LEVELS.iter().map(|l| l.0))
            .map(String::from)
            .collect(),
        rows,
    }
}

/// Candidate digit sets (bit `d` = digit `d` possible) of every cell: the givens alone
/// (`propagate = false`), or after naked and hidden singles to a fixpoint. `None` when a cell
/// or a unit runs out of candidates.
pub fn sudoku_candidates(grid: &Sudoku, propagate: bool) -> Option<Vec<u64>> {
    let n = grid.size();
    let b = grid.box_size();
    let all: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut cand: Vec<u64> = grid
        .cells()
        .iter()
        .map(|c| c.map_or(all, |d| 1 << d))
        .collect();
    let units: Vec<Vec<usize>> = (0..n)
        .map(|r| (0..n).map(|c| r * n + c).collect())
        .chain((0..n).map(|c| (0..n).map(|r| r * n + c).collect()))
        .chain((0..n).map(|bx| {
            let (r0, c0) = ((bx / b) * b, (bx % b) * b);
            (0..n).map(|i| (r0 + i / b) * n + c0 + i % b).collect()
        }))
        .collect();
    let mut peers: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for u in &units {
        for &a in u {
            peers[a].extend(u.iter().copied().filter(|&x| x != a));
        }
    }
    // Givens eliminate from their peers; with propagation, every decided cell does, repeatedly.
    let mut done = vec![false; n * n];
    loop {
        let mut changed = false;
        for cell in 0..n * n {
            let decided = if propagate {
                cand[cell].count_ones() == 1
            } else {
                grid.cells()[cell].is_some()
            };
            if decided && !done[cell] {
                done[cell] = true;
                for &p in &peers[cell] {
                    if cand[p] & cand[cell] != 0 {
                        cand[p] &= !cand[cell];
                        changed = true;
                        if cand[p] == 0 {
                            return None;
                        }
                    }
                }
            }
        }
        if propagate {
            // Hidden singles: a digit with one place left in a unit goes there.
            for u in &units {
                for d in 0..n {
                    let bit = 1u64 << d;
                    let mut places = u.iter().filter(|&&c| cand[c] & bit != 0);
                    match (places.next(), places.next()) {
                        (None, _) => return None,
                        (Some(&c), None) if cand[c] != bit => {
                            cand[c] = bit;
                            changed = true;
                        }
                        _ => {}
                    }
                }
            }
        }
        if !propagate || !changed {
            break;
        }
    }
    Some(cand)
}

/// The Sudoku levels of one grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SudokuLevels {
    /// Digits `n` (9 for the classic grid).
    pub size: usize,
    /// `2^(n^3)`.
    pub every_variable: BigUint,
    /// `C(n^3, n^2)`.
    pub choose_cells: BigUint,
    /// `n^(n^2)`: one digit per cell.
    pub one_digit_per_cell: BigUint,
    /// Product of candidate counts after the givens.
    pub after_givens: BigUint,
    /// Product of candidate counts after naked and hidden singles.
    pub after_propagation: BigUint,
    /// Solutions.
    pub solutions: BigUint,
    /// Whether the solution count finished (false: it stopped at `solution_limit`).
    pub solutions_exact: bool,
}

/// Computes the Sudoku levels of `grid`; the solution count stops at `solution_limit`.
pub fn sudoku_levels(grid: &Sudoku, solution_limit: u64) -> Result<SudokuLevels, TableError> {
    let n = grid.size() as u64;
    let product = |c: Option<Vec<u64>>| {
        c.map_or(BigUint::zero(), |c| {
            c.iter().fold(BigUint::one(), |acc, &x| {
                acc * BigUint::from(x.count_ones())
            })
        })
    };
    let model = grid
        .to_model("sudoku")
        .map_err(|e| TableError::Count(e.to_string()))?;
    let settings = EnumSettings {
        order: Order::Mrv,
        parallel: false,
        ..EnumSettings::default()
    };
    let e = Enumerator::new(&model, &settings).map_err(|e| TableError::Count(e.to_string()))?;
    let (solutions, witnesses, summary) = e.count(Some(solution_limit));
    let verifier = crate::model::verify::Verifier::new(&model);
    if let Some(bad) = witnesses.iter().find(|w| !verifier.accepts(w)) {
        return Err(TableError::Count(format!(
            "the enumerator returned a non-solution: {bad:?}"
        )));
    }
    Ok(SudokuLevels {
        size: grid.size(),
        every_variable: pow2(n * n * n),
        choose_cells: binomial(n * n * n, n * n),
        one_digit_per_cell: BigUint::from(n).pow((n * n) as u32),
        after_givens: product(sudoku_candidates(grid, false)),
        after_propagation: product(sudoku_candidates(grid, true)),
        solutions: BigUint::from(solutions),
        solutions_exact: summary.finished,
    })
}

/// The table of one Sudoku grid.
pub fn sudoku_table(l: &SudokuLevels) -> Table {
    let n = l.size;
    let solutions = if l.solutions_exact {
        Cell::count(l.solutions.clone())
    } else {
        Cell::text(format!("at least {}", group_digits(&l.solutions)))
    };
    Table {
        title: format!("Sudoku {n}x{n}"),
        header: vec!["level".into(), "count".into()],
        rows: vec![
            vec![
                Cell::text("every (cell, digit) 0/1"),
                Cell::formula(l.every_variable.clone(), format!("2^{}", n * n * n)),
            ],
            vec![
                Cell::text("choose exactly n² ones"),
                Cell::formula(
                    l.choose_cells.clone(),
                    format!("C({},{})", n * n * n, n * n),
                ),
            ],
            vec![
                Cell::text("one digit per cell"),
                Cell::formula(l.one_digit_per_cell.clone(), format!("{n}^{}", n * n)),
            ],
            vec![
                Cell::text("candidates after the givens"),
                Cell::count(l.after_givens.clone()),
            ],
            vec![
                Cell::text("candidates after naked and hidden singles"),
                Cell::count(l.after_propagation.clone()),
            ],
            vec![Cell::text("solutions"), solutions],
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_nine_matches_the_seed_in_every_level() {
        for method in [Method::Dp, Method::Enum] {
            let options = TableOptions {
                method,
                ..TableOptions::default()
            };
            let l = hex_levels(9, &options).unwrap();
            assert_eq!(l.every_cell.to_string(), "2305843009213693952");
            assert_eq!(l.choose_n.to_string(), "17341763505");
            assert_eq!(l.one_axis, BigUint::from(25_401_600u32));
            assert_eq!(l.two_axes, BigUint::from(25_231u32));
            assert_eq!(l.three_axes, BigUint::from(244u32));
            assert_eq!(l.orbits, Some(BigUint::from(29u32)));
        }
    }

    #[test]
    fn orbits_agree_with_burnside_and_fixed_points_are_sensible() {
        let board = HexBoard::geometry(11).unwrap();
        let m = board.to_model("w11");
        let stats = orbit_stats(&m, &["row", "diag", "anti"], &Group::hex(11), |r, k| {
            board.diag(r, k)
        })
        .unwrap();
        // The identity fixes every placement; Burnside's mean is a whole number equal to the
        // canonical-form count.
        assert_eq!(stats.fixed[0], stats.placements);
        assert_eq!(
            stats.burnside(),
            Some(BigUint::from(stats.canonical)),
            "{stats:?}"
        );
        assert!(stats.canonical * 12 >= stats.placements);
        let q = QueensBoard::bare(8).to_model("q8");
        let stats =
            orbit_stats(&q, &["row", "column", "touch"], &Group::square(8), |_, c| c).unwrap();
        assert_eq!(stats.placements, 5242);
        assert_eq!(stats.burnside(), Some(BigUint::from(stats.canonical)));
    }

    #[test]
    fn burnside_by_orbit_models_agrees_with_canonical_forms() {
        for width in [5usize, 9, 13] {
            let forced = TableOptions {
                orbit_limit: 0,
                ..TableOptions::default()
            };
            let by_burnside = hex_levels(width, &forced).unwrap().orbits;
            let by_forms = hex_levels(width, &TableOptions::default()).unwrap().orbits;
            assert!(by_burnside.is_some());
            assert_eq!(by_burnside, by_forms, "width {width}");
        }
    }

    #[test]
    fn queens_levels_match_closed_forms_and_a002464() {
        let a002464 = [1u32, 0, 0, 2, 14, 90, 646, 5242, 47622, 479306];
        for n in 1..=10 {
            let l = queens_levels(n, &TableOptions::default()).unwrap();
            assert_eq!(l.no_touching, BigUint::from(a002464[n - 1]), "n = {n}");
            assert_eq!(l.permutations, factorial(n as u64));
        }
        let l = queens_levels(8, &TableOptions::default()).unwrap();
        assert_eq!(l.choose_n.to_string(), "4426165368");
        assert_eq!(l.one_per_row, BigUint::from(16_777_216u32));
    }

    #[test]
    fn sudoku_levels_of_a_small_grid() {
        let line = "1...3..2.3..2..4";
        let cells = line
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
            .collect();
        let grid = Sudoku::from_cells(2, cells).unwrap();
        let l = sudoku_levels(&grid, 1000).unwrap();
        assert_eq!(l.every_variable, pow2(64));
        assert_eq!(l.one_digit_per_cell, BigUint::from(4u32).pow(16));
        assert!(l.after_propagation <= l.after_givens);
        assert!(l.after_givens < l.one_digit_per_cell);
        assert_eq!(l.solutions, BigUint::from(1u32));
        assert!(l.after_propagation >= l.solutions);
    }

    #[test]
    fn empty_cells_say_why_and_huge_counts_show_their_closed_form() {
        let no_orbits = TableOptions {
            orbit_limit: 0,
            burnside: false,
            ..TableOptions::default()
        };
        let wide = hex_levels(15, &no_orbits).unwrap();
        let t = hex_widths_table(&[hex_levels(1, &TableOptions::default()).unwrap(), wide]);
        let md = t.render(Format::Markdown);
        // 2^169 has 51 digits: the closed form stands for it; shorter counts show both.
        assert!(
            md.contains("| 15 | 169 | 2^169 | C(169,15) = 1,056,592,112,914,276,797,456 |"),
            "{md}"
        );
        assert!(md.contains("| 1 | 1 | 2^1 = 2 |"), "{md}");
        assert!(
            md.contains("\"three axes up to symmetry\" is empty at width 15: not computed"),
            "{md}"
        );
        let csv = t.render(Format::Csv);
        let header = csv.lines().next().unwrap();
        assert!(
            header.starts_with("width,cells,every cell 0/1,log10 every cell 0/1,"),
            "{header}"
        );
        assert!(header.ends_with(",notes"), "{header}");
        let row = csv.lines().nth(2).unwrap();
        assert!(row.contains(&pow2(169).to_string()), "{row}");
        assert!(row.contains(",50.8741,"), "{row}");
        assert!(
            row.contains("three axes up to symmetry: not computed"),
            "{row}"
        );
        let json: serde_json::Value = serde_json::from_str(&t.render(Format::Json)).unwrap();
        assert_eq!(json["rows"][1]["width"], 15);
        assert!(json["rows"][1]["three axes up to symmetry"].is_null());
    }

    #[test]
    fn rendering_groups_digits_only_in_markdown() {
        let l = hex_levels(9, &TableOptions::default()).unwrap();
        let t = hex_table(&l);
        let md = t.render(Format::Markdown);
        assert!(md.contains("2^61 = 2,305,843,009,213,693,952"));
        assert!(md.contains("| 25,401,600 |"));
        let csv = t.render(Format::Csv);
        assert!(csv.contains(",2305843009213693952,"));
        assert!(!csv.contains("2,305"));
        let json: serde_json::Value = serde_json::from_str(&t.render(Format::Json)).unwrap();
        // Stable headers; numbers where JSON holds them exactly, decimal strings above 2^53.
        assert_eq!(json["rows"][4]["count"], 244);
        assert_eq!(json["rows"][0]["count"], "2305843009213693952");
        assert_eq!(json["rows"][4]["log10 count"], 2.3874);
        assert_eq!(group_digits(&BigUint::from(1000u32)), "1,000");
        assert_eq!(group_digits(&BigUint::from(999u32)), "999");
    }
}
