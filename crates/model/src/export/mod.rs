//! Writing a [`Model`] for other solvers: CPLEX LP ([`lp`]), free MPS ([`mps`]), OPB
//! ([`opb`]), DIMACS CNF ([`cnf`]), the generic JSON model ([`json`]) and Knuth's exact-cover
//! format ([`xcc`], for DLX-family solvers such as `miniexact`). One file per format.
//!
//! Every format names variables and rows the same way ([`Names`]): a variable is
//! `x<id>_<label>` (the label with characters other than letters, digits and `_` turned into
//! `_`), a row is its own name when its file gave it one (an LP or MPS row name, made safe the
//! same way), else `<family>_<index>`; OPB and CNF number variables instead and list the labels
//! and puzzle coordinates in their header comments, so every answer maps back to the puzzle.
//! Givens are written as one-variable rows of a family `given` (see
//! [`Model::with_givens_as_rows`]).
//!
//! Costs: every writer makes one pass over the nonzeros; the text is built in memory.
//! [`write_file`] writes through a temporary file in the target folder and renames it, so a
//! failed export never leaves a partial file.

pub mod cnf;
pub mod json;
pub mod lp;
pub mod mps;
pub mod opb;
pub mod xcc;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

use crate::model::{Coord, Model, PuzzleKind};

/// Errors of the export layer.
#[derive(Debug, Error)]
pub enum ExportError {
    /// `--format NAME` names no format.
    #[error("unknown export format '{0}' (known: lp, mps, opb, cnf, json, xcc)")]
    UnknownFormat(String),
    /// The format cannot express some row of the model.
    #[error("the {format} export cannot write this model: {reason}")]
    UnsupportedRows {
        /// The format's name.
        format: &'static str,
        /// Which row, and why.
        reason: String,
    },
    /// The model has no CNF encoding here (a row too large for its encoding, or memory).
    #[error(transparent)]
    Encode(#[from] crate::encode::cnf::EncodeError),
    /// The format cannot carry the model's objective (DIMACS CNF and XCC are satisfaction
    /// only, and XCC has no comment to carry it in).
    #[error("the {format} export cannot carry the model's objective ({sense}); use lp, mps, opb or json, or drop the objective")]
    ObjectiveUnsupported {
        /// The format's name.
        format: &'static str,
        /// The objective's sense.
        sense: crate::model::ObjectiveSense,
    },
    /// Writing the output failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The JSON encoder failed.
    #[error("JSON encoding failed: {0}")]
    Json(#[from] serde_json::Error),
}

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// CPLEX LP.
    Lp,
    /// Free MPS.
    Mps,
    /// OPB, the pseudo-Boolean competition format.
    Opb,
    /// DIMACS CNF.
    Cnf,
    /// The generic JSON model.
    Json,
    /// Exact cover in Knuth's DLX format (unit-weight rows only).
    Xcc,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 6] = [
        Format::Lp,
        Format::Mps,
        Format::Opb,
        Format::Cnf,
        Format::Json,
        Format::Xcc,
    ];

    /// The name `--format` takes, also the usual file extension.
    pub fn name(self) -> &'static str {
        match self {
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Opb => "opb",
            Format::Cnf => "cnf",
            Format::Json => "json",
            Format::Xcc => "xcc",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = ExportError;
    fn from_str(s: &str) -> Result<Format, ExportError> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ExportError::UnknownFormat(s.to_string()))
    }
}

/// Renders `model` in `format` (CNF with the default [`cnf::CnfOptions`]).
pub fn render(model: &Model, format: Format) -> Result<String, ExportError> {
    Ok(match format {
        Format::Lp => lp::to_lp(model),
        Format::Mps => mps::to_mps(model),
        Format::Opb => opb::to_opb(model),
        Format::Cnf => cnf::to_dimacs(model, &cnf::CnfOptions::default())?,
        Format::Json => json::to_json(model)?,
        Format::Xcc => xcc::to_xcc(model)?,
    })
}

/// Writes `text` to `path` through [`crate::output::write_atomically`]: the target is either
/// the old file or the complete new one (a device such as `/dev/null` is written in place).
pub fn write_file(path: &Path, text: &str) -> Result<(), ExportError> {
    crate::output::write_atomically(path, text.as_bytes()).map_err(|source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Solver-safe names of a model's variables and rows, shared by the LP and MPS writers (and the
/// comment tables of the others). Costs one pass over variables and rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// `x<id>_<label>` per variable.
    pub variables: Vec<String>,
    /// Per row (in [`Model::constraints`] order): its own name ([`Model::row_label`]) when its
    /// file gave it one, else `<family>_<index>`; unique.
    pub rows: Vec<String>,
}

/// `text` with every character other than an ASCII letter, digit or `_` replaced by `_`.
pub fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Names {
    /// The names for `model`. Variable names are unique by their id prefix; row names are
    /// unique unless two family names sanitize alike, in which case every row name gets the
    /// family id in front (`f2_row_digit_0`).
    pub fn of(model: &Model) -> Names {
        let variables = model
            .variables()
            .iter()
            .enumerate()
            .map(|(i, _)| format!("x{i}_{}", sanitize(&model.label(i))))
            .collect();
        let families: Vec<String> = model
            .families()
            .iter()
            .map(|f| {
                let s = sanitize(&f.name);
                if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
                    format!("f_{s}")
                } else {
                    s
                }
            })
            .collect();
        let mut sorted = families.clone();
        sorted.sort();
        sorted.dedup();
        let clash = sorted.len() != families.len();
        let rows: Vec<String> = model
            .constraints()
            .iter()
            .map(|c| {
                if clash {
                    format!("f{}_{}_{}", c.family, families[c.family], c.index)
                } else {
                    format!("{}_{}", families[c.family], c.index)
                }
            })
            .collect();
        let rows = if model.has_row_labels() {
            with_row_labels(model, rows)
        } else {
            rows
        };
        Names { variables, rows }
    }
}

/// The row names of [`Names::of`] with each named row's own name ([`Model::row_label`],
/// sanitized, `r_` in front of a leading digit) in place of the made one; a name already taken
/// (two rows whose names sanitize alike, a made name equal to a row's own) gets the first free
/// `_K` suffix. Costs one hash per row.
fn with_row_labels(model: &Model, made: Vec<String>) -> Vec<String> {
    let mut names: Vec<Option<String>> = (0..made.len())
        .map(|r| {
            let s = sanitize(model.row_label(r)?);
            Some(if s.starts_with(|c: char| c.is_ascii_digit()) {
                format!("r_{s}")
            } else {
                s
            })
        })
        .collect();
    let mut taken = std::collections::HashSet::with_capacity(made.len());
    let mut unique = |name: String| {
        let name = if taken.contains(&name) {
            (2..)
                .map(|k| format!("{name}_{k}"))
                .find(|n| !taken.contains(n))
                .expect("some suffix is free")
        } else {
            name
        };
        taken.insert(name.clone());
        name
    };
    // The rows' own names first, so that a made name yields to them.
    for name in names.iter_mut().flatten() {
        *name = unique(std::mem::take(name));
    }
    (names.into_iter().zip(made))
        .map(|(own, made)| own.unwrap_or_else(|| unique(made)))
        .collect()
}

/// Where a variable sits, in words, for comment tables: `row 3 col 4`, `row 0 col 0 digit 7`.
pub fn describe_coord(coord: &Coord) -> String {
    match coord {
        Coord::Cell { row, col } => format!("row {row} col {col}"),
        Coord::CellValue { row, col, value } if *value < crate::model::VALUE_SYMBOLS => format!(
            "row {row} col {col} digit {}",
            crate::model::value_symbol(*value)
        ),
        Coord::CellValue { row, col, value } => format!("row {row} col {col} value {value}"),
        Coord::Free => "-".into(),
    }
}

/// The puzzle kind in words for header comments, as the kind describes itself
/// (`hex board of width 9`, `queens 8x8`, ...); `generic model` for a model of no registered
/// kind.
pub fn describe_kind(kind: &PuzzleKind) -> String {
    kind.words().into_owned()
}

/// Header lines shared by all text formats (without comment markers): model name, kind, size,
/// rows per family with their sense (`= 1`, `<= 1`, `= 2`, ... or `mixed`) and weight range,
/// and how givens are written.
pub(crate) fn header_lines(model: &Model) -> Vec<String> {
    let s = model.summary();
    let families: Vec<String> = model
        .families()
        .iter()
        .map(|f| {
            let rows: Vec<&crate::model::Constraint> =
                f.rows.iter().map(|&r| &model.constraints()[r]).collect();
            let first = rows.first().map(|c| c.sense);
            let mut sense = if rows.iter().all(|c| Some(c.sense) == first) {
                first.map_or_else(|| "= 1".to_string(), |s| s.to_string())
            } else {
                "mixed".to_string()
            };
            let weighted = rows.iter().filter(|c| c.weights.is_some());
            let low = weighted.clone().map(|c| c.weight_range().0).min();
            let high = weighted.map(|c| c.weight_range().1).max();
            if let (Some(low), Some(high)) = (low, high) {
                sense.push_str(&format!(", weights {low}..{high}"));
            }
            format!("{} {} ({sense})", f.name, f.rows.len())
        })
        .collect();
    let mut lines = vec![
        format!(
            "zeroone model '{}': {}",
            crate::output::one_line(model.name()),
            describe_kind(model.kind())
        ),
        format!(
            "{} variables, {} rows, {} nonzeros, {} givens",
            s.variables,
            s.constraints,
            s.nonzeros,
            model.givens().len()
        ),
        format!("families: {}", families.join(", ")),
    ];
    if !model.givens().is_empty() {
        lines.push("givens are written as one-variable rows of the family 'given'".into());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_by_name() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
        }
        assert!(matches!(
            "xls".parse::<Format>(),
            Err(ExportError::UnknownFormat(_))
        ));
    }

    #[test]
    fn write_file_replaces_atomically_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.lp");
        write_file(&path, "first").unwrap();
        write_file(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(entries.len(), 1);
        let missing = dir.path().join("no-such-dir").join("out.lp");
        assert!(matches!(
            write_file(&missing, "x"),
            Err(ExportError::Io { .. })
        ));
        assert!(!missing.exists());
    }
}
