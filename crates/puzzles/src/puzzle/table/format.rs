//! [`Table`] and its cells: exact counts rendered as Markdown, CSV or JSON, with digit groups
//! and powers of ten.

use num_bigint::BigUint;
use serde_json::json;

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
    /// An exact count without a closed form.
    pub fn count(value: BigUint) -> Cell {
        Cell::Count {
            value,
            formula: None,
        }
    }
    /// An exact count with the closed form it came from (`2^61`, `C(61,9)`).
    pub fn formula(value: BigUint, formula: String) -> Cell {
        Cell::Count {
            value,
            formula: Some(formula),
        }
    }
    /// A text cell (a label, a scaling law).
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }
}

/// Counts up to this value are JSON numbers (exact in every JSON reader, 2^53); larger ones
/// are decimal strings.
pub(super) const JSON_EXACT: u64 = 1 << 53;

/// Counts with more digits than this are shown in Markdown by their closed form when they
/// have one (the digits are in the CSV and JSON).
pub(super) const MARKDOWN_DIGITS: usize = 24;

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
pub(super) fn is_count_column(rows: &[Vec<Cell>], column: usize) -> bool {
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

pub(super) fn csv_field(s: &str) -> String {
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

    pub(super) fn markdown(&self) -> String {
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
    pub(super) fn flat_header(&self) -> Vec<(String, Option<usize>, bool)> {
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
    pub(super) fn flat_row(&self, row: &[Cell]) -> Vec<(String, serde_json::Value)> {
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
