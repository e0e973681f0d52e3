//! Rows and variables: senses and relations, [`Constraint`], [`Family`], [`Variable`], and the
//! value symbols and sense names the text formats share.

use crate::model::{Coord, FamilyId, RowId, VarId};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest weight, right-hand side or total row weight a model accepts: 2^53, so that every
/// backend (including the floating-point ones: MILP, Gaussian elimination, LP files) holds every
/// coefficient and every partial sum exactly.
pub const MAX_COEFFICIENT: u64 = 1 << 53;

/// How a row's weighted sum compares with its right-hand side `k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// `sum = k`.
    Equal,
    /// `sum <= k`.
    AtMost,
    /// `sum >= k`.
    AtLeast,
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Equal => "=",
            Relation::AtMost => "<=",
            Relation::AtLeast => ">=",
        })
    }
}

/// The sense of a row `sum_i w_i x_i (=, <=, >=) k`: its relation and right-hand side `k`.
///
/// "Exactly one" and "at most one" (`k = 1`, every weight 1) are variants of their own, so the
/// exact-cover fast paths of the backends can match on them; [`ModelBuilder`](crate::model::ModelBuilder) writes every
/// unit-weight `= 1` / `<= 1` row as one of them, so a general variant always has `k != 1` or
/// weights other than 1. Copy, 16 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sense {
    /// `sum = 1` with unit weights.
    ExactlyOne,
    /// `sum <= 1` with unit weights.
    AtMostOne,
    /// `sum = k`.
    Exactly(u64),
    /// `sum <= k`.
    AtMost(u64),
    /// `sum >= k`.
    AtLeast(u64),
}

impl Sense {
    /// The sense `relation k`, as the general variant (see [`Sense::normalized`] for the unit ones).
    pub fn new(relation: Relation, rhs: u64) -> Sense {
        match relation {
            Relation::Equal => Sense::Exactly(rhs),
            Relation::AtMost => Sense::AtMost(rhs),
            Relation::AtLeast => Sense::AtLeast(rhs),
        }
    }

    /// The relation to the right-hand side.
    pub fn relation(self) -> Relation {
        match self {
            Sense::ExactlyOne | Sense::Exactly(_) => Relation::Equal,
            Sense::AtMostOne | Sense::AtMost(_) => Relation::AtMost,
            Sense::AtLeast(_) => Relation::AtLeast,
        }
    }

    /// The right-hand side `k`.
    pub fn rhs(self) -> u64 {
        match self {
            Sense::ExactlyOne | Sense::AtMostOne => 1,
            Sense::Exactly(k) | Sense::AtMost(k) | Sense::AtLeast(k) => k,
        }
    }

    /// Whether this is `= 1` or `<= 1` on unit weights (the exact-cover case).
    pub fn is_unit(self) -> bool {
        matches!(self, Sense::ExactlyOne | Sense::AtMostOne)
    }

    /// Whether the row is an equation (`= k`).
    pub fn is_equality(self) -> bool {
        self.relation() == Relation::Equal
    }

    /// The smallest and largest weighted sum that satisfy this sense (`None`: no upper bound).
    pub fn bounds(self) -> (u64, Option<u64>) {
        match self {
            Sense::ExactlyOne => (1, Some(1)),
            Sense::AtMostOne => (0, Some(1)),
            Sense::Exactly(k) => (k, Some(k)),
            Sense::AtMost(k) => (0, Some(k)),
            Sense::AtLeast(k) => (k, None),
        }
    }

    /// The same sense with another right-hand side (unit variants become general ones unless
    /// `k = 1`). Used when givens use up part of a row.
    pub fn with_rhs(self, rhs: u64) -> Sense {
        Sense::new(self.relation(), rhs).normalized(true)
    }

    /// The canonical form of this sense for a row whose weights are all 1 (`unit_weights`) or
    /// not: `= 1` / `<= 1` on unit weights become [`Sense::ExactlyOne`] / [`Sense::AtMostOne`],
    /// and those two on other weights become general.
    pub fn normalized(self, unit_weights: bool) -> Sense {
        match (self, unit_weights) {
            (Sense::Exactly(1), true) => Sense::ExactlyOne,
            (Sense::AtMost(1), true) => Sense::AtMostOne,
            (Sense::ExactlyOne, false) => Sense::Exactly(1),
            (Sense::AtMostOne, false) => Sense::AtMost(1),
            (sense, _) => sense,
        }
    }

    /// Whether a weighted sum of `sum` satisfies this sense (for unit weights, `sum` is the
    /// number of ones).
    pub fn holds(self, sum: u64) -> bool {
        let (low, high) = self.bounds();
        sum >= low && high.is_none_or(|h| sum <= h)
    }

    /// The name the generic JSON/TOML format uses: `exactly-one`, `at-most-one`, `exactly`,
    /// `at-most` or `at-least`.
    pub fn name(self) -> &'static str {
        match self {
            Sense::ExactlyOne => "exactly-one",
            Sense::AtMostOne => "at-most-one",
            Sense::Exactly(_) => "exactly",
            Sense::AtMost(_) => "at-most",
            Sense::AtLeast(_) => "at-least",
        }
    }
}

impl fmt::Display for Sense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.relation(), self.rhs())
    }
}

/// One binary variable. Its label is not stored here: [`Model::label`](crate::model::Model::label) makes it on demand from
/// the coordinates (puzzle models), or returns the label a generic model declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Variable {
    /// Position on the puzzle.
    pub coord: Coord,
}

/// The label a puzzle variable gets from its coordinates: `r3c4` for a cell, `r1c2=7` for a
/// Sudoku cell-value, `x{id}` for a variable with no coordinates. Costs one small allocation.
pub fn coord_label(id: VarId, coord: Coord) -> String {
    match coord {
        Coord::Cell { row, col } => format!("r{row}c{col}"),
        Coord::CellValue { row, col, value } if value < VALUE_SYMBOLS => {
            format!("r{row}c{col}={}", value_symbol(value))
        }
        Coord::CellValue { row, col, value } => format!("r{row}c{col}=v{value}"),
        Coord::Free => format!("x{id}"),
    }
}

/// How many values have a one-character symbol ([`value_symbol`]): `1`-`9` and `A`-`Z`.
pub const VALUE_SYMBOLS: usize = 35;

/// The symbol of value index `value` (0-based) in labels and grids (a Sudoku digit): `1`-`9`,
/// then `A`, `B`, ... `Z`. Defined below [`VALUE_SYMBOLS`]; labels of larger values are
/// `v{value}` (see [`coord_label`]) and grids are at most 25 wide, so nothing asks for more.
pub fn value_symbol(value: usize) -> char {
    debug_assert!(value < VALUE_SYMBOLS, "no symbol for value {value}");
    if value < 9 {
        (b'1' + value as u8) as char
    } else {
        (b'A' + (value - 9).min(25) as u8) as char
    }
}

/// One row `sum_i w_i x_i (=, <=, >=) k`: a sorted, duplicate-free set of variables, their
/// weights (all 1 unless given) and a sense.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "ConstraintRepr", try_from = "ConstraintRepr")]
pub struct Constraint {
    /// The family this row belongs to.
    pub family: FamilyId,
    /// Position of this row within its family (0-based).
    pub index: usize,
    /// Sorted variable ids, no duplicates, never empty.
    pub vars: Vec<VarId>,
    /// The weight of each of `vars` (same order), each in `1..=`[`MAX_COEFFICIENT`]; `None`
    /// when every weight is 1 (the builder drops an all-ones list).
    pub weights: Option<Vec<u64>>,
    /// The relation and right-hand side.
    pub sense: Sense,
}

impl Constraint {
    /// The weight of the `i`-th variable of the row (1 for an unweighted row).
    pub fn weight(&self, i: usize) -> u64 {
        self.weights.as_ref().map_or(1, |w| w[i])
    }

    /// `(variable, weight)` pairs in variable order.
    pub fn terms(&self) -> impl Iterator<Item = (VarId, u64)> + '_ {
        self.vars
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, self.weight(i)))
    }

    /// The sum of all weights (the largest value the left-hand side can take). At most
    /// [`MAX_COEFFICIENT`] in a built model.
    pub fn total_weight(&self) -> u64 {
        match &self.weights {
            Some(w) => w.iter().sum(),
            None => self.vars.len() as u64,
        }
    }

    /// Whether this is an exact-cover row (`= 1` or `<= 1`, unit weights).
    pub fn is_unit(&self) -> bool {
        self.sense.is_unit()
    }

    /// The smallest and largest weight in the row.
    pub fn weight_range(&self) -> (u64, u64) {
        match &self.weights {
            Some(w) => (
                w.iter().copied().min().unwrap_or(1),
                w.iter().copied().max().unwrap_or(1),
            ),
            None => (1, 1),
        }
    }
}

/// A row as serialized: `sense` by name (`exactly-one`, `at-most-one`, `exactly`, `at-most`,
/// `at-least`), `rhs` only for the general senses, `weights` only when not all 1.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ConstraintRepr {
    pub(super) family: FamilyId,
    pub(super) index: usize,
    pub(super) vars: Vec<VarId>,
    pub(super) sense: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) rhs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) weights: Option<Vec<u64>>,
}

impl From<Constraint> for ConstraintRepr {
    fn from(c: Constraint) -> ConstraintRepr {
        ConstraintRepr {
            family: c.family,
            index: c.index,
            vars: c.vars,
            sense: c.sense.name().to_string(),
            rhs: (!c.sense.is_unit()).then(|| c.sense.rhs()),
            weights: c.weights,
        }
    }
}

impl TryFrom<ConstraintRepr> for Constraint {
    type Error = String;
    fn try_from(r: ConstraintRepr) -> Result<Constraint, String> {
        let sense = parse_sense(&r.sense, r.rhs)?;
        if r.weights.as_ref().is_some_and(|w| w.len() != r.vars.len()) {
            return Err(format!(
                "row {} has {} variables but {} weights",
                r.index,
                r.vars.len(),
                r.weights.as_ref().map_or(0, Vec::len)
            ));
        }
        Ok(Constraint {
            family: r.family,
            index: r.index,
            vars: r.vars,
            weights: r.weights,
            sense,
        })
    }
}

/// The sense named `name` with right-hand side `rhs` (default 1): the one place that decides
/// which spellings a row's sense may take, for every entry point (JSON/TOML models, the
/// Python `Model.add_family`, serialized models). The names are those [`Sense::name`] writes,
/// in any case (`exactly-one`, `Exactly-One` and `EXACTLY-ONE` are one sense); symbols such as
/// `>=` are refused with a hint. `exactly-one` and `at-most-one` accept no `rhs` other than 1.
/// The error says what was expected (`a sense ...`, `right-hand side 1 ...`). Cost: one
/// lower-casing of `name`.
pub fn parse_sense(name: &str, rhs: Option<u64>) -> Result<Sense, String> {
    let k = rhs.unwrap_or(1);
    match name.to_ascii_lowercase().as_str() {
        "exactly-one" | "at-most-one" if k != 1 => Err(format!(
            "right-hand side 1 for sense '{name}' (write \"exactly\" or \"at-most\" with \"rhs\" for {k})"
        )),
        "exactly-one" => Ok(Sense::ExactlyOne),
        "at-most-one" => Ok(Sense::AtMostOne),
        "exactly" => Ok(Sense::Exactly(k)),
        "at-most" => Ok(Sense::AtMost(k)),
        "at-least" => Ok(Sense::AtLeast(k)),
        _ => Err(format!(
            "a sense: exactly-one, at-most-one, exactly, at-most or at-least{}",
            sense_hint(name)
        )),
    }
}

/// Whether `name` is one of the sense names [`parse_sense`] reads (in any case).
pub fn is_sense_name(name: &str) -> bool {
    SENSE_NAMES.iter().any(|s| s.eq_ignore_ascii_case(name))
}

/// The sense names of the JSON/TOML model, as [`parse_sense`] reads them.
pub(super) const SENSE_NAMES: [&str; 5] = [
    "exactly-one",
    "at-most-one",
    "exactly",
    "at-most",
    "at-least",
];

/// What a sense written as a symbol or a near miss means (`">="`: `at-least`).
pub(super) fn sense_hint(name: &str) -> String {
    let symbol = match name.trim() {
        ">=" | "=>" | "≥" => Some("at-least"),
        "<=" | "=<" | "≤" => Some("at-most"),
        "=" | "==" => Some("exactly"),
        _ => None,
    };
    match symbol {
        Some(s) => format!("; for '{name}' write \"{s}\" with \"rhs\""),
        None => crate::suggest::did_you_mean(name, SENSE_NAMES),
    }
}

/// A named group of rows (the rows of one rule: "row", "colour", "box-digit", ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Family {
    /// Name used in reports and for switching families on and off.
    pub name: String,
    /// The rows of this family, in order.
    pub rows: Vec<RowId>,
}

/// A row in words for messages: `row 'cov3' (row 2 of family 'row')` with its own name (an
/// LP or MPS row name), else `row 2 of family 'row'` (as [`Model::describe_row`](crate::model::Model::describe_row) says it).
/// One allocation.
pub fn row_words(label: Option<&str>, index: usize, family: &str) -> String {
    let place = format!("row {index} of family '{family}'");
    match label {
        Some(label) => format!("row '{label}' ({place})"),
        None => place,
    }
}
