//! The 0-1 model: binary variables, rows `sum w_i x_i (=, <=, >=) k` grouped into named
//! families, givens, and an optional linear objective ([`objective`]); the one verifier every
//! answer passes through ([`verify`]). Every puzzle kind builds one; every backend reads one. The model knows
//! nothing about any backend.
//!
//! Costs: a model stores each row as a sorted `Vec<VarId>`, so memory is linear in the number of
//! nonzeros. The dense view ([`Model::dense_equalities`]) is `rows x variables` floats and is
//! meant for small and medium models (a 9x9 Sudoku is 324 x 729).

pub mod objective;
pub mod verify;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::objective::ObjectiveRepr;
pub use crate::model::objective::{Objective, ObjectiveError, ObjectiveSense, MAX_COST};

/// Index of a variable in [`Model::variables`].
pub type VarId = usize;
/// Index of a row in [`Model::constraints`].
pub type RowId = usize;
/// Index of a family in [`Model::families`].
pub type FamilyId = usize;

/// Where a variable sits on the puzzle, for rendering answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coord {
    /// A cell: `row` from the top, `col` the 0-based position in that row (hex: position within
    /// the row, not the shared diagonal coordinate).
    Cell {
        /// Row from the top, 0-based.
        row: usize,
        /// Position in the row, 0-based.
        col: usize,
    },
    /// A cell holding a value (Sudoku: `value` is the 0-based digit index).
    CellValue {
        /// Row from the top, 0-based.
        row: usize,
        /// Column, 0-based.
        col: usize,
        /// Value index, 0-based (digit 1 is value 0).
        value: usize,
    },
    /// No geometric meaning (generic models).
    Free,
}

/// What kind of puzzle a model came from: the kind's tag (as the registry in
/// `crate::puzzle::kinds` names it: `hex`, `queens`, `sudoku`, or `generic` for a model with no
/// geometry) and its size parameters (`width = 9`, `box_size = 3`). It is the kind's identity
/// only, for output (names, titles, drawings); what backends need to know about a model is in
/// its [`ModelHints`]. Serialized as `{"kind": tag, param: value, ...}`. Cost: one small vector.
#[derive(Debug, Clone)]
pub struct PuzzleKind {
    tag: Cow<'static, str>,
    params: Vec<(Cow<'static, str>, usize)>,
    /// The kind in words, as its builder gave it ([`PuzzleKind::described`]); not part of the
    /// identity (equality, hashing) nor of the serialized form.
    words: Option<String>,
}

impl PartialEq for PuzzleKind {
    fn eq(&self, other: &PuzzleKind) -> bool {
        self.tag == other.tag && self.params == other.params
    }
}

impl Eq for PuzzleKind {}

impl std::hash::Hash for PuzzleKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.tag.hash(state);
        self.params.hash(state);
    }
}

impl PuzzleKind {
    /// A model read from a JSON or TOML file, or built in code, with no puzzle geometry. (Kept
    /// under the name it had as an enum variant, so code that builds generic models reads the
    /// same.)
    #[allow(non_upper_case_globals)]
    pub const Generic: PuzzleKind = PuzzleKind {
        tag: Cow::Borrowed("generic"),
        params: Vec::new(),
        words: None,
    };

    /// The kind tagged `tag` with the size parameters `params` (name and value each), as a
    /// puzzle kind's model builder states it. Parameters are kept sorted by name, the order
    /// they are read back from JSON in, so a kind equals itself after the trip.
    pub fn new(tag: &'static str, params: &[(&'static str, usize)]) -> PuzzleKind {
        let mut params: Vec<_> = params.iter().map(|&(k, v)| (Cow::Borrowed(k), v)).collect();
        params.sort();
        PuzzleKind {
            tag: Cow::Borrowed(tag),
            params,
            words: None,
        }
    }

    /// This kind with its description in words (`hex board of width 9`), which its builder
    /// knows and outputs that do not know the kinds (export headers) print.
    pub fn described(mut self, words: impl Into<String>) -> PuzzleKind {
        self.words = Some(words.into());
        self
    }

    /// The kind in words: the builder's description, else `generic model` or `TAG model`
    /// (a kind read back from JSON keeps its tag and parameters only).
    pub fn words(&self) -> Cow<'_, str> {
        match &self.words {
            Some(w) => Cow::Borrowed(w),
            None if self.is_generic() => Cow::Borrowed("generic model"),
            None => Cow::Owned(format!("{} model", self.tag)),
        }
    }

    /// The tag: the kind's name in the registry (`generic` for no geometry).
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// Whether this is the generic kind (no puzzle geometry).
    pub fn is_generic(&self) -> bool {
        self.tag == "generic"
    }

    /// The size parameter called `key` (`width`, `size`, `box_size`, ...), if the kind has it.
    pub fn param(&self, key: &str) -> Option<usize> {
        self.params.iter().find(|(k, _)| k == key).map(|&(_, v)| v)
    }

    /// The short name used in JSON output: the tag, or `model` for the generic kind.
    pub fn name(&self) -> &str {
        if self.is_generic() {
            "model"
        } else {
            &self.tag
        }
    }
}

/// The serialized form of a [`PuzzleKind`]: its tag under `kind`, then its parameters.
#[derive(Serialize, Deserialize)]
struct PuzzleKindRepr {
    kind: String,
    #[serde(flatten)]
    params: BTreeMap<String, usize>,
}

impl Serialize for PuzzleKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PuzzleKindRepr {
            kind: self.tag.to_string(),
            params: self
                .params
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PuzzleKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PuzzleKind, D::Error> {
        let repr = PuzzleKindRepr::deserialize(deserializer)?;
        Ok(PuzzleKind {
            tag: Cow::Owned(repr.kind),
            params: repr
                .params
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), v))
                .collect(),
            words: None,
        })
    }
}

/// The board symmetry a model's placements have, for orbit counts (placements that differ by a
/// rotation or reflection of the board).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "group")]
pub enum BoardSymmetry {
    /// No symmetry is known (generic models, boards with clues or regions).
    #[default]
    None,
    /// The 8 symmetries of the square (`crate::space::symmetry::Group::square`).
    Square {
        /// Side of the square.
        size: usize,
    },
    /// The 12 symmetries of the hexagon (`crate::space::symmetry::Group::hex`).
    Hexagon {
        /// Width of the hex board.
        width: usize,
    },
}

/// What backends, exporters and the renderer may know about a model beyond its rows, stated by
/// the puzzle kind that built it (or by a generic model file), so that none of them needs to
/// know the kind. Every hint is optional: a backend must work (maybe slower) without it.
/// Serialized with the model; fields at their default are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelHints {
    /// The family of exactly-one rows that partitions the variables and should supply the
    /// coordinate of the line-by-line backends (`enum`, `dp`): `row` for boards with one piece
    /// per row, `cell` for Sudoku. `None`: the backend looks for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinate_family: Option<String>,
    /// Whether the variables are the cells of a board (`Coord::Cell`) holding one piece per
    /// line, so per-variable figures (the least-norm solution of `gauss`) read best laid out
    /// as the board, one grid row per line.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cell_grid: bool,
    /// The board symmetry of the bare board, for orbit counts.
    #[serde(skip_serializing_if = "is_no_symmetry")]
    pub symmetry: BoardSymmetry,
}

fn is_no_symmetry(s: &BoardSymmetry) -> bool {
    *s == BoardSymmetry::None
}

fn is_default_hints(h: &&ModelHints) -> bool {
    **h == ModelHints::default()
}

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
/// exact-cover fast paths of the backends can match on them; [`ModelBuilder`] writes every
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

/// One binary variable. Its label is not stored here: [`Model::label`] makes it on demand from
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
struct ConstraintRepr {
    family: FamilyId,
    index: usize,
    vars: Vec<VarId>,
    sense: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rhs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    weights: Option<Vec<u64>>,
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

/// The sense named `name` (as [`Sense::name`] writes it) with right-hand side `rhs` (default
/// 1). `exactly-one` and `at-most-one` accept no `rhs` other than 1.
/// The error says what was expected (`a sense ...`, `right-hand side 1 ...`).
pub fn parse_sense(name: &str, rhs: Option<u64>) -> Result<Sense, String> {
    let k = rhs.unwrap_or(1);
    match name {
        "exactly-one" | "at-most-one" if k != 1 => Err(format!(
            "right-hand side 1 for sense '{name}' (write \"exactly\" or \"at-most\" with \"rhs\" for {k})"
        )),
        "exactly-one" => Ok(Sense::ExactlyOne),
        "at-most-one" => Ok(Sense::AtMostOne),
        "exactly" => Ok(Sense::Exactly(k)),
        "at-most" => Ok(Sense::AtMost(k)),
        "at-least" => Ok(Sense::AtLeast(k)),
        other => Err(format!(
            "a sense: exactly-one, at-most-one, exactly, at-most or at-least{}",
            sense_hint(other)
        )),
    }
}

/// Whether `name` is one of the sense names [`parse_sense`] reads.
pub fn is_sense_name(name: &str) -> bool {
    SENSE_NAMES.contains(&name)
}

/// The sense names of the JSON/TOML model, as [`parse_sense`] reads them.
const SENSE_NAMES: [&str; 5] = [
    "exactly-one",
    "at-most-one",
    "exactly",
    "at-most",
    "at-least",
];

/// What a sense written as a symbol or a near miss means (`">="`: `at-least`).
fn sense_hint(name: &str) -> String {
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

/// Errors found while building a model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    /// A row names a variable id the model does not have.
    #[error("row {index} of family '{family}' names variable {var}, but the model has {variables} variables")]
    UnknownVariable {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// A row with no variables (it could never hold as "exactly one").
    #[error("row {index} of family '{family}' is empty")]
    EmptyRow {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
    },
    /// A row lists the same variable twice.
    #[error("row {index} of family '{family}' lists variable '{label}' twice")]
    DuplicateInRow {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The repeated variable.
        label: String,
    },
    /// A row gives a variable weight 0 (weights are positive integers).
    #[error("row {index} of family '{family}' gives '{label}' weight 0; weights are positive")]
    ZeroWeight {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The variable with weight 0.
        label: String,
    },
    /// A weight, right-hand side or row's total weight exceeds [`MAX_COEFFICIENT`].
    #[error("row {index} of family '{family}' has a {what} of {value}, above the limit 2^53 = {MAX_COEFFICIENT}")]
    CoefficientTooLarge {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// `weight`, `right-hand side` or `total weight`.
        what: &'static str,
        /// The value (saturated at `u64::MAX` for a total that overflows).
        value: u64,
    },
    /// The weights of a row do not match its variables one to one.
    #[error("row {index} of family '{family}' has {vars} variables but {weights} weights")]
    WeightCount {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// Number of variables.
        vars: usize,
        /// Number of weights.
        weights: usize,
    },
    /// The givens of a row already sum past its upper bound.
    #[error(
        "givens {givens} sum to {sum} in row {index} of family '{family}', which must be {sense}"
    )]
    OverfullRow {
        /// The givens in the row, labels joined by ", ".
        givens: String,
        /// Their weighted sum.
        sum: u64,
        /// The row's sense, as text (`= 2`, `<= 15`).
        sense: String,
        /// Family of the row.
        family: String,
        /// Row index within the family.
        index: usize,
    },
    /// Two variables share a label.
    #[error("two variables are labelled '{0}'")]
    DuplicateLabel(String),
    /// The objective names a variable the model does not have, twice, or with a cost out of
    /// range.
    #[error("{0}")]
    Objective(#[from] ObjectiveError),
    /// Two families share a name.
    #[error("two families are named '{0}'")]
    DuplicateFamily(String),
    /// A given names a variable id the model does not have.
    #[error("given {var} does not exist (the model has {variables} variables)")]
    UnknownGiven {
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// Two givens share a row, so no assignment can keep both.
    #[error("givens '{first}' and '{second}' clash in row {index} of family '{family}'")]
    ClashingGivens {
        /// One given.
        first: String,
        /// The other given.
        second: String,
        /// Family of the shared row.
        family: String,
        /// Row index within the family.
        index: usize,
    },
}

/// Builds a [`Model`] row by row; [`ModelBuilder::build`] checks it. Cost: linear in the
/// number of nonzeros (rows are sorted once when built).
///
/// ```
/// use zeroone::model::{Coord, ModelBuilder, PuzzleKind, Sense};
///
/// // A 2x2 Latin square of 0-1 variables x[r][c] = "cell (r, c) holds symbol 1":
/// // exactly one per row and per column.
/// let mut b = ModelBuilder::new("latin-2", PuzzleKind::Generic);
/// let x: Vec<_> = (0..4)
///     .map(|i| b.variable(format!("r{}c{}", i / 2, i % 2), Coord::Cell { row: i / 2, col: i % 2 }))
///     .collect();
/// let rows = b.family("row");
/// b.row(rows, vec![x[0], x[1]], Sense::ExactlyOne);
/// b.row(rows, vec![x[2], x[3]], Sense::ExactlyOne);
/// let cols = b.family("column");
/// b.row(cols, vec![x[0], x[2]], Sense::ExactlyOne);
/// b.row(cols, vec![x[1], x[3]], Sense::ExactlyOne);
/// b.given(x[0]);
/// let model = b.build().unwrap();
/// assert_eq!((model.num_variables(), model.constraints().len(), model.nonzeros()), (4, 4, 8));
/// ```
#[derive(Debug, Clone)]
pub struct ModelBuilder {
    name: String,
    kind: PuzzleKind,
    hints: ModelHints,
    variables: Vec<Variable>,
    /// Stored labels, once some variable was given an explicit one (see [`Labels`]).
    labels: Option<Vec<Box<str>>>,
    families: Vec<Family>,
    constraints: Vec<Constraint>,
    givens: Vec<VarId>,
    /// The objective's sense and terms, checked in [`ModelBuilder::build`].
    objective: Option<(ObjectiveSense, Vec<(VarId, i64)>)>,
}

impl ModelBuilder {
    /// Starts an empty model.
    pub fn new(name: impl Into<String>, kind: PuzzleKind) -> Self {
        ModelBuilder {
            name: name.into(),
            kind,
            hints: ModelHints::default(),
            variables: Vec::new(),
            labels: None,
            families: Vec::new(),
            constraints: Vec::new(),
            givens: Vec::new(),
            objective: None,
        }
    }

    /// Sets the objective: `sense sum c_v x_v` over `terms` (`(variable, cost)`; a variable not
    /// named costs 0). Checked in [`ModelBuilder::build`]: known variables, each at most once,
    /// `|cost| <= 2^53`.
    pub fn objective(&mut self, sense: ObjectiveSense, terms: Vec<(VarId, i64)>) {
        self.objective = Some((sense, terms));
    }

    /// Sets the hints the model carries for backends (see [`ModelHints`]).
    pub fn hints(&mut self, hints: ModelHints) {
        self.hints = hints;
    }

    /// Adds a variable with an explicit label and returns its id. A label equal to the one
    /// [`coord_label`] makes is not stored.
    pub fn variable(&mut self, label: impl Into<String>, coord: Coord) -> VarId {
        let id = self.variables.len();
        let label: String = label.into();
        if self.labels.is_none() && label == coord_label(id, coord) {
            return self.coord_variable(coord);
        }
        let variables = &self.variables;
        let labels = self.labels.get_or_insert_with(|| {
            variables
                .iter()
                .enumerate()
                .map(|(v, x)| coord_label(v, x.coord).into_boxed_str())
                .collect()
        });
        labels.push(label.into_boxed_str());
        self.variables.push(Variable { coord });
        id
    }

    /// Adds a variable labelled by its coordinates ([`coord_label`], made on demand, never
    /// stored) and returns its id.
    pub fn coord_variable(&mut self, coord: Coord) -> VarId {
        let id = self.variables.len();
        if let Some(labels) = &mut self.labels {
            labels.push(coord_label(id, coord).into_boxed_str());
        }
        self.variables.push(Variable { coord });
        id
    }

    /// Adds a family (initially with no rows) and returns its id.
    pub fn family(&mut self, name: impl Into<String>) -> FamilyId {
        self.families.push(Family {
            name: name.into(),
            rows: Vec::new(),
        });
        self.families.len() - 1
    }

    /// Appends a unit-weight row to `family`. Variables are sorted; `= 1` / `<= 1` become
    /// [`Sense::ExactlyOne`] / [`Sense::AtMostOne`]; checks happen in [`ModelBuilder::build`].
    pub fn row(&mut self, family: FamilyId, mut vars: Vec<VarId>, sense: Sense) -> RowId {
        vars.sort_unstable();
        self.push_row(family, vars, None, sense.normalized(true))
    }

    /// Appends a weighted row `sum weights[i] * vars[i] (sense)` to `family`. The pairs are
    /// sorted by variable; an all-ones weight list is dropped (the row is then exactly what
    /// [`ModelBuilder::row`] makes). Weights must be positive and `weights.len() == vars.len()`:
    /// both are checked in [`ModelBuilder::build`]. Cost: one sort of the row.
    pub fn weighted_row(
        &mut self,
        family: FamilyId,
        vars: Vec<VarId>,
        weights: Vec<u64>,
        sense: Sense,
    ) -> RowId {
        if weights.len() != vars.len() {
            // Kept as given; build() reports the mismatch.
            return self.push_row(family, vars, Some(weights), sense);
        }
        let mut pairs: Vec<(VarId, u64)> = vars.into_iter().zip(weights).collect();
        pairs.sort_unstable();
        let unit = pairs.iter().all(|&(_, w)| w == 1);
        let (vars, weights): (Vec<VarId>, Vec<u64>) = pairs.into_iter().unzip();
        let weights = (!unit).then_some(weights);
        self.push_row(family, vars, weights, sense.normalized(unit))
    }

    fn push_row(
        &mut self,
        family: FamilyId,
        vars: Vec<VarId>,
        weights: Option<Vec<u64>>,
        sense: Sense,
    ) -> RowId {
        let id = self.constraints.len();
        let index = self.families[family].rows.len();
        self.families[family].rows.push(id);
        self.constraints.push(Constraint {
            family,
            index,
            vars,
            weights,
            sense,
        });
        id
    }

    /// Fixes `var` to 1.
    pub fn given(&mut self, var: VarId) {
        self.givens.push(var);
    }

    fn label(&self, v: VarId) -> String {
        match &self.labels {
            Some(labels) => labels[v].to_string(),
            None => coord_label(v, self.variables[v].coord),
        }
    }

    /// Refuses weights that are zero, too large or not one per variable, and a right-hand side
    /// or total weight above [`MAX_COEFFICIENT`].
    fn check_coefficients(&self, c: &Constraint) -> Result<(), ModelError> {
        let family = || self.families[c.family].name.clone();
        let too_large = |what, value| ModelError::CoefficientTooLarge {
            family: family(),
            index: c.index,
            what,
            value,
        };
        if c.sense.rhs() > MAX_COEFFICIENT {
            return Err(too_large("right-hand side", c.sense.rhs()));
        }
        let Some(weights) = &c.weights else {
            return Ok(());
        };
        if weights.len() != c.vars.len() {
            return Err(ModelError::WeightCount {
                family: family(),
                index: c.index,
                vars: c.vars.len(),
                weights: weights.len(),
            });
        }
        let mut total = 0u64;
        for (&v, &w) in c.vars.iter().zip(weights) {
            if w == 0 {
                return Err(ModelError::ZeroWeight {
                    family: family(),
                    index: c.index,
                    label: self.label(v),
                });
            }
            if w > MAX_COEFFICIENT {
                return Err(too_large("weight", w));
            }
            total = total.saturating_add(w);
        }
        if total > MAX_COEFFICIENT {
            return Err(too_large("total weight", total));
        }
        Ok(())
    }

    /// Checks every row and given and returns the model. Costs one pass over the nonzeros
    /// plus one hash per stored label and family name.
    pub fn build(self) -> Result<Model, ModelError> {
        let n = self.variables.len();
        if let Some(labels) = &self.labels {
            let mut seen = std::collections::HashSet::with_capacity(labels.len());
            for l in labels {
                if !seen.insert(&**l) {
                    return Err(ModelError::DuplicateLabel(l.to_string()));
                }
            }
        }
        let mut names = std::collections::HashSet::new();
        for f in &self.families {
            if !names.insert(f.name.as_str()) {
                return Err(ModelError::DuplicateFamily(f.name.clone()));
            }
        }
        for c in &self.constraints {
            let family = || self.families[c.family].name.clone();
            if c.vars.is_empty() {
                return Err(ModelError::EmptyRow {
                    family: family(),
                    index: c.index,
                });
            }
            if let Some(&var) = c.vars.iter().find(|&&v| v >= n) {
                return Err(ModelError::UnknownVariable {
                    family: family(),
                    index: c.index,
                    var,
                    variables: n,
                });
            }
            if let Some(w) = c.vars.windows(2).find(|w| w[0] == w[1]) {
                return Err(ModelError::DuplicateInRow {
                    family: family(),
                    index: c.index,
                    label: self.label(w[0]),
                });
            }
            self.check_coefficients(c)?;
        }
        let objective = match self.objective {
            Some((sense, terms)) => Some(Arc::new(Objective::new(sense, n, terms)?)),
            None => None,
        };
        let shape = Shape::new(
            self.kind,
            self.hints,
            self.variables,
            self.labels,
            self.families,
            self.constraints,
        );
        Model {
            name: String::new(),
            shape: Arc::new(shape),
            givens: Vec::new(),
            objective,
        }
        .with_givens(self.name, self.givens)
    }
}

/// What models of one shape share: variables, labels, rows and families, and the column view
/// used to check givens. Built once; every model of the shape holds it by reference.
#[derive(Debug)]
struct Shape {
    kind: PuzzleKind,
    hints: ModelHints,
    variables: Vec<Variable>,
    /// `None`: every label is [`coord_label`] of its variable (made on demand).
    labels: Option<Vec<Box<str>>>,
    families: Vec<Family>,
    constraints: Vec<Constraint>,
    /// Column view as compressed lists: the rows of variable `v` are
    /// `col_rows[col_start[v]..col_start[v + 1]]`.
    col_start: Vec<usize>,
    col_rows: Vec<RowId>,
    /// The weight of each entry of `col_rows`; `None` when every row is unweighted.
    col_weights: Option<Vec<u64>>,
    /// The sense of each row, packed (the verifier's per-row pass reads only these).
    senses: Vec<Sense>,
}

impl Shape {
    fn new(
        kind: PuzzleKind,
        hints: ModelHints,
        variables: Vec<Variable>,
        labels: Option<Vec<Box<str>>>,
        families: Vec<Family>,
        constraints: Vec<Constraint>,
    ) -> Shape {
        let n = variables.len();
        let mut col_start = vec![0usize; n + 1];
        for c in &constraints {
            for &v in &c.vars {
                col_start[v + 1] += 1;
            }
        }
        for v in 0..n {
            col_start[v + 1] += col_start[v];
        }
        let mut fill = col_start.clone();
        let mut col_rows = vec![0; col_start[n]];
        let weighted = constraints.iter().any(|c| c.weights.is_some());
        let mut col_weights = weighted.then(|| vec![1u64; col_start[n]]);
        for (r, c) in constraints.iter().enumerate() {
            for (v, w) in c.terms() {
                col_rows[fill[v]] = r;
                if let Some(cw) = &mut col_weights {
                    cw[fill[v]] = w;
                }
                fill[v] += 1;
            }
        }
        let senses = constraints.iter().map(|c| c.sense).collect();
        Shape {
            kind,
            hints,
            variables,
            labels,
            families,
            constraints,
            col_start,
            col_rows,
            col_weights,
            senses,
        }
    }

    fn rows_of(&self, v: VarId) -> &[RowId] {
        &self.col_rows[self.col_start[v]..self.col_start[v + 1]]
    }

    fn weights_of(&self, v: VarId) -> Option<&[u64]> {
        let range = self.col_start[v]..self.col_start[v + 1];
        self.col_weights.as_ref().map(|w| &w[range])
    }
}

/// A 0-1 model: variables, rows in families, givens. Immutable once built. The structure
/// (variables, rows, families) sits behind an [`Arc`]: cloning a model, or making another
/// puzzle of the same shape with [`Model::with_givens`], copies only the name and the givens.
///
/// ```
/// use zeroone::puzzle::HexBoard;
///
/// // The bare width-9 hex board of the seed write-up: 61 cells, 9 lines on each of 3 axes.
/// let model = HexBoard::geometry(9).unwrap().to_model("hex-9");
/// assert_eq!(model.num_variables(), 61);
/// assert_eq!(model.constraints().len(), 27);
/// let names: Vec<&str> = model.families().iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(names, ["row", "diag", "anti"]);
/// // Keep only two axes: a relaxation with more solutions.
/// let two_axes = model.restricted_to(&["row", "diag"]);
/// assert_eq!(two_axes.constraints().len(), 18);
/// ```
#[derive(Debug, Clone)]
pub struct Model {
    name: String,
    shape: Arc<Shape>,
    givens: Vec<VarId>,
    /// The objective, if the model has one (shared like the shape).
    objective: Option<Arc<Objective>>,
}

impl PartialEq for Model {
    fn eq(&self, other: &Model) -> bool {
        let (a, b) = (&*self.shape, &*other.shape);
        let same_shape = Arc::ptr_eq(&self.shape, &other.shape)
            || (a.kind == b.kind
                && a.hints == b.hints
                && a.variables == b.variables
                && a.families == b.families
                && a.constraints == b.constraints
                && (0..a.variables.len()).all(|v| self.label(v) == other.label(v)));
        self.name == other.name
            && self.givens == other.givens
            && self.objective == other.objective
            && same_shape
    }
}

impl Eq for Model {}

/// A variable as the serialized model shows it: its label and its coordinates.
#[derive(Serialize)]
struct LabelledVariable<'a> {
    label: Cow<'a, str>,
    coord: Coord,
}

/// The serialized form of a model (as `zeroone run --export-models` writes it): name, kind,
/// every variable with its label, families, rows and givens.
#[derive(Serialize)]
struct ModelRepr<'a> {
    name: &'a str,
    kind: &'a PuzzleKind,
    #[serde(skip_serializing_if = "is_default_hints")]
    hints: &'a ModelHints,
    variables: Vec<LabelledVariable<'a>>,
    families: &'a [Family],
    constraints: &'a [Constraint],
    givens: &'a [VarId],
    #[serde(skip_serializing_if = "Option::is_none")]
    objective: Option<ObjectiveRepr>,
}

impl Serialize for Model {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ModelRepr {
            name: &self.name,
            kind: self.kind(),
            hints: self.hints(),
            variables: (0..self.num_variables())
                .map(|v| LabelledVariable {
                    label: self.label(v),
                    coord: self.variables()[v].coord,
                })
                .collect(),
            families: self.families(),
            constraints: self.constraints(),
            givens: &self.givens,
            objective: self.objective().map(ObjectiveRepr::from),
        }
        .serialize(serializer)
    }
}

/// The serialized form read back (worker processes receive their models this way): the same
/// fields as [`ModelRepr`], owned.
#[derive(Deserialize)]
struct OwnedModelRepr {
    name: String,
    kind: PuzzleKind,
    #[serde(default)]
    hints: ModelHints,
    variables: Vec<OwnedVariable>,
    families: Vec<Family>,
    constraints: Vec<Constraint>,
    givens: Vec<VarId>,
    #[serde(default)]
    objective: Option<ObjectiveRepr>,
}

#[derive(Deserialize)]
struct OwnedVariable {
    label: String,
    coord: Coord,
}

/// Rebuilds the model through [`ModelBuilder`], so a serialized model passes the same checks as
/// one built in code (rows, givens, labels). Cost: one [`ModelBuilder::build`]; the structure is
/// not shared with other models of its shape.
impl<'de> Deserialize<'de> for Model {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Model, D::Error> {
        use serde::de::Error;
        let repr = OwnedModelRepr::deserialize(deserializer)?;
        let mut b = ModelBuilder::new(repr.name, repr.kind);
        b.hints(repr.hints);
        for v in repr.variables {
            b.variable(v.label, v.coord);
        }
        for f in &repr.families {
            b.family(f.name.clone());
        }
        for c in repr.constraints {
            if c.family >= repr.families.len() {
                return Err(D::Error::custom(format!(
                    "row {} names family {}, but the model has {}",
                    c.index,
                    c.family,
                    repr.families.len()
                )));
            }
            match c.weights {
                Some(w) => b.weighted_row(c.family, c.vars, w, c.sense),
                None => b.row(c.family, c.vars, c.sense),
            };
        }
        for g in repr.givens {
            b.given(g);
        }
        if let Some(o) = repr.objective {
            b.objective(o.sense, o.costs);
        }
        b.build().map_err(D::Error::custom)
    }
}

/// The size of a model in the terms `zeroone show` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSummary {
    /// Number of variables.
    pub variables: usize,
    /// Number of rows (both senses), givens not counted.
    pub constraints: usize,
    /// Rows per family, by family name.
    pub families: BTreeMap<String, usize>,
    /// Number of nonzeros of the constraint matrix.
    pub nonzeros: usize,
}

impl Model {
    /// A short name for the puzzle (file stem and index, or a builder's description).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Returns the same model under another name.
    pub fn renamed(mut self, name: impl Into<String>) -> Model {
        self.name = name.into();
        self
    }

    /// A model of the same shape (the structure is shared, not copied) named `name`, with
    /// `givens` instead of this model's givens. Costs a sort of the givens and one look at
    /// the rows of each given (to refuse two givens in one exact-cover row, or givens that
    /// overfill a general row); nothing per variable.
    pub fn with_givens(
        &self,
        name: impl Into<String>,
        mut givens: Vec<VarId>,
    ) -> Result<Model, ModelError> {
        givens.sort_unstable();
        givens.dedup();
        let n = self.num_variables();
        if let Some(&var) = givens.iter().find(|&&v| v >= n) {
            return Err(ModelError::UnknownGiven { var, variables: n });
        }
        let model = Model {
            name: name.into(),
            shape: Arc::clone(&self.shape),
            givens,
            objective: self.objective.clone(),
        };
        model.check_givens()?;
        Ok(model)
    }

    /// The objective, if the model has one (a puzzle has none).
    pub fn objective(&self) -> Option<&Objective> {
        self.objective.as_deref()
    }

    /// The same model with `objective` (or none). Refuses an objective made for another number
    /// of variables. Constant time.
    pub fn with_objective(mut self, objective: Option<Objective>) -> Result<Model, ModelError> {
        if let Some(o) = &objective {
            if o.costs().len() != self.num_variables() {
                return Err(ModelError::Objective(ObjectiveError::UnknownVariable {
                    var: o.costs().len().saturating_sub(1),
                    variables: self.num_variables(),
                }));
            }
        }
        self.objective = objective.map(Arc::new);
        Ok(self)
    }

    /// Whether `other` shares this model's structure by reference (made from one shape with
    /// [`Model::with_givens`] or `clone`). Constant time; `false` says nothing about equality.
    pub fn shares_shape_with(&self, other: &Model) -> bool {
        Arc::ptr_eq(&self.shape, &other.shape)
    }

    /// The puzzle kind: its identity, for output (names, titles, drawings).
    pub fn kind(&self) -> &PuzzleKind {
        &self.shape.kind
    }

    /// What the puzzle kind tells backends about this model (see [`ModelHints`]).
    pub fn hints(&self) -> &ModelHints {
        &self.shape.hints
    }

    /// All variables, indexed by [`VarId`].
    pub fn variables(&self) -> &[Variable] {
        &self.shape.variables
    }

    /// The label of variable `v` (`r3c4`, `r1c2=7`, or a generic model's own label): borrowed
    /// when the model stores it, otherwise made from the coordinates (one small allocation).
    pub fn label(&self, v: VarId) -> Cow<'_, str> {
        match &self.shape.labels {
            Some(labels) => Cow::Borrowed(&labels[v]),
            None => Cow::Owned(coord_label(v, self.shape.variables[v].coord)),
        }
    }

    /// Number of variables.
    pub fn num_variables(&self) -> usize {
        self.shape.variables.len()
    }

    /// All families, indexed by [`FamilyId`].
    pub fn families(&self) -> &[Family] {
        &self.shape.families
    }

    /// The id of the family called `name`, if any.
    pub fn family_id(&self, name: &str) -> Option<FamilyId> {
        self.families().iter().position(|f| f.name == name)
    }

    /// All rows (the sparse view), indexed by [`RowId`]. Givens are not rows; see
    /// [`Model::with_givens_as_rows`].
    pub fn constraints(&self) -> &[Constraint] {
        &self.shape.constraints
    }

    /// The rows of one family.
    pub fn family_rows(&self, family: FamilyId) -> impl Iterator<Item = &Constraint> + '_ {
        self.families()[family]
            .rows
            .iter()
            .map(move |&r| &self.constraints()[r])
    }

    /// Variables fixed to 1, sorted.
    pub fn givens(&self) -> &[VarId] {
        &self.givens
    }

    /// The rows variable `v` appears in, in row order. Free: the column view is built once
    /// per shape.
    pub fn rows_of(&self, v: VarId) -> &[RowId] {
        self.shape.rows_of(v)
    }

    /// The weight of `v` in each row of [`Model::rows_of`] (same order); `None` when no row of
    /// the model is weighted (every weight is then 1). Free, like the column view.
    pub fn row_weights_of(&self, v: VarId) -> Option<&[u64]> {
        self.shape.weights_of(v)
    }

    /// Whether every row is an exact-cover row (`= 1` or `<= 1` on unit weights): the case the
    /// exact-cover fast paths handle. Costs one scan of the senses.
    pub fn is_exact_cover(&self) -> bool {
        self.shape.senses.iter().all(|s| s.is_unit())
    }

    /// The first row that is not an exact-cover row, if any (for "unsupported" messages).
    pub fn first_general_row(&self) -> Option<&Constraint> {
        self.constraints().iter().find(|c| !c.is_unit())
    }

    /// The sense of every row, in row order (cheaper to scan than the rows).
    pub fn row_senses(&self) -> &[Sense] {
        &self.shape.senses
    }

    /// For every variable, the rows it appears in (the column view), as owned lists. Costs one
    /// allocation per variable; [`Model::rows_of`] is free.
    pub fn columns(&self) -> Vec<Vec<RowId>> {
        (0..self.num_variables())
            .map(|v| self.rows_of(v).to_vec())
            .collect()
    }

    /// Number of nonzeros of the constraint matrix.
    pub fn nonzeros(&self) -> usize {
        self.shape.col_rows.len()
    }

    /// Variables, rows per family and nonzeros.
    pub fn summary(&self) -> ModelSummary {
        ModelSummary {
            variables: self.num_variables(),
            constraints: self.constraints().len(),
            families: self
                .families()
                .iter()
                .map(|f| (f.name.clone(), f.rows.len()))
                .collect(),
            nonzeros: self.nonzeros(),
        }
    }

    /// The variable whose label is `label`, if any (linear scan).
    pub fn variable_by_label(&self, label: &str) -> Option<VarId> {
        (0..self.num_variables()).find(|&v| self.label(v) == label)
    }

    /// The dense view of the equality rows: `A` (one row per equality row, `= k` with its
    /// weights, in row order, then one row `x_g = 1` per given when `with_givens`) and `b` (the
    /// right-hand sides). Exact in `f64`: every coefficient is at most [`MAX_COEFFICIENT`].
    /// Costs `rows x variables` floats.
    pub fn dense_equalities(&self, with_givens: bool) -> (DMatrix<f64>, DVector<f64>) {
        let eq: Vec<&Constraint> = self
            .constraints()
            .iter()
            .filter(|c| c.sense.is_equality())
            .collect();
        let rows = eq.len() + if with_givens { self.givens.len() } else { 0 };
        let mut a = DMatrix::zeros(rows, self.num_variables());
        let mut b = DVector::from_element(rows, 1.0);
        for (i, c) in eq.iter().enumerate() {
            for (v, w) in c.terms() {
                a[(i, v)] = w as f64;
            }
            b[i] = c.sense.rhs() as f64;
        }
        if with_givens {
            for (j, &g) in self.givens.iter().enumerate() {
                a[(eq.len() + j, g)] = 1.0;
            }
        }
        (a, b)
    }

    /// A builder holding this model's variables (with their labels) and name, and no rows.
    fn builder_with_variables(&self) -> ModelBuilder {
        let mut b = ModelBuilder::new(self.name.clone(), self.kind().clone());
        b.hints(self.hints().clone());
        b.variables = self.shape.variables.clone();
        b.labels = self.shape.labels.clone();
        b
    }

    /// Wraps a builder's parts as a model without the builder's checks (for models derived
    /// from a checked one).
    fn from_parts(b: ModelBuilder) -> Model {
        Model {
            shape: Arc::new(Shape::new(
                b.kind,
                b.hints,
                b.variables,
                b.labels,
                b.families,
                b.constraints,
            )),
            name: b.name,
            givens: b.givens,
            objective: None,
        }
    }

    /// The same model with the givens written as rows of a family `given` (one `x = 1` row
    /// each) and no separate givens, for backends that only read rows.
    pub fn with_givens_as_rows(&self) -> Model {
        if self.givens.is_empty() {
            return self.clone();
        }
        let mut b = self.builder_with_variables();
        b.families = self.shape.families.clone();
        b.constraints = self.shape.constraints.clone();
        let fam = b.family("given");
        for &g in &self.givens {
            b.row(fam, vec![g], Sense::ExactlyOne);
        }
        Model {
            objective: self.objective.clone(),
            ..Model::from_parts(b)
        }
    }

    /// The same model keeping only the families named in `keep` (in their original order).
    /// Unknown names are ignored; givens are kept.
    pub fn restricted_to(&self, keep: &[&str]) -> Model {
        let mut b = self.builder_with_variables();
        for f in self.families() {
            if keep.contains(&f.name.as_str()) {
                let id = b.family(f.name.clone());
                for &r in &f.rows {
                    let c = &self.constraints()[r];
                    b.push_row(id, c.vars.clone(), c.weights.clone(), c.sense);
                }
            }
        }
        b.givens = self.givens.clone();
        Model {
            objective: self.objective.clone(),
            ..Model::from_parts(b)
        }
    }

    /// Applies the givens: every given is fixed to 1, every other variable sharing an
    /// exact-cover row with a given is fixed to 0, satisfied "exactly one" rows and emptied
    /// "at most one" rows are dropped; a general row loses its fixed variables and its
    /// right-hand side drops by the givens' weight (a row left always true is dropped). Returns
    /// the smaller model and the map back. The objective keeps the costs of the free variables
    /// (the givens' costs are a constant the caller adds back, e.g. by valuing the lifted
    /// solution). Costs one pass over the nonzeros.
    pub fn reduce(&self) -> Reduction {
        self.reduce_fixed(&self.fixed_by_givens())
    }

    /// [`Model::reduce`] for any fixed values (`value[v]`: `Some` fixes variable `v`, `None`
    /// leaves it free), such as those a presolve proves: every fixed variable leaves the model,
    /// each row loses them and its right-hand side drops by the weight fixed to 1, and rows left
    /// always true are dropped (an exact-cover row with one variable fixed to 1 is satisfied).
    /// `infeasible` is set when a row can no longer hold. The solutions of the reduced model,
    /// lifted, are exactly the solutions of this model that agree with `value`. Panics when
    /// `value` does not have one entry per variable. Costs one pass over the nonzeros.
    pub fn reduce_fixed(&self, value: &[Option<bool>]) -> Reduction {
        assert_eq!(value.len(), self.num_variables(), "one value per variable");
        let n = self.num_variables();
        let mut new_id = vec![None; n];
        let mut b = ModelBuilder::new(self.name.clone(), self.kind().clone());
        b.hints(self.hints().clone());
        let mut original = Vec::new();
        let stored = self.shape.labels.is_some();
        for (v, var) in self.variables().iter().enumerate() {
            if value[v].is_none() {
                // Reduced ids differ from the original ones, so keep every label as it was.
                new_id[v] = Some(if stored || var.coord == Coord::Free {
                    b.variable(self.label(v).into_owned(), var.coord)
                } else {
                    b.coord_variable(var.coord)
                });
                original.push(v);
            }
        }
        let mut infeasible = false;
        for f in self.families() {
            let id = b.family(f.name.clone());
            for &r in &f.rows {
                let c = &self.constraints()[r];
                infeasible |= !reduce_row(c, value, &new_id, id, &mut b);
            }
        }
        let objective = (self.objective.as_ref()).map(|o| Arc::new(o.restricted(&original)));
        Reduction {
            model: Model {
                objective,
                ..Model::from_parts(b)
            },
            original,
            ones: (0..n).filter(|&v| value[v] == Some(true)).collect(),
            original_variables: n,
            infeasible,
        }
    }

    /// The value the givens fix for each variable: 1 for a given, 0 for another variable of an
    /// exact-cover row holding a given, `None` otherwise.
    fn fixed_by_givens(&self) -> Vec<Option<bool>> {
        let mut value: Vec<Option<bool>> = vec![None; self.num_variables()];
        for &g in &self.givens {
            value[g] = Some(true);
        }
        for c in self.constraints().iter().filter(|c| c.is_unit()) {
            if c.vars.iter().any(|&v| value[v] == Some(true)) {
                for &v in &c.vars {
                    if value[v].is_none() {
                        value[v] = Some(false);
                    }
                }
            }
        }
        value
    }

    /// Refuses two givens in one exact-cover row, and givens that sum past a general row's
    /// upper bound. Costs one look at the rows of each given (and a sort of them, only to name
    /// the first clash).
    fn check_givens(&self) -> Result<(), ModelError> {
        let mut taken = vec![0u64; self.constraints().len().div_ceil(64)];
        let mut clash = false;
        let mut sums: BTreeMap<RowId, u64> = BTreeMap::new();
        let senses = self.row_senses();
        for &g in &self.givens {
            let weights = self.row_weights_of(g);
            for (i, &r) in self.rows_of(g).iter().enumerate() {
                if senses[r].is_unit() {
                    let (word, bit) = (r / 64, 1u64 << (r % 64));
                    clash |= taken[word] & bit != 0;
                    taken[word] |= bit;
                } else {
                    *sums.entry(r).or_default() += weights.map_or(1, |w| w[i]);
                }
            }
        }
        if let Some(error) = clash.then(|| self.first_clash()).flatten() {
            return Err(error);
        }
        for (r, sum) in sums {
            let c = &self.constraints()[r];
            if c.sense.bounds().1.is_some_and(|high| sum > high) {
                let labels: Vec<String> = (c.vars.iter())
                    .filter(|v| self.givens.binary_search(v).is_ok())
                    .map(|&v| self.label(v).into_owned())
                    .collect();
                return Err(ModelError::OverfullRow {
                    givens: labels.join(", "),
                    sum,
                    sense: c.sense.to_string(),
                    family: self.families()[c.family].name.clone(),
                    index: c.index,
                });
            }
        }
        Ok(())
    }

    /// The first exact-cover row (in row order) holding two givens, as an error.
    fn first_clash(&self) -> Option<ModelError> {
        // (row, given) pairs, sorted: two givens of one row end up side by side.
        let senses = self.row_senses();
        let mut hits: Vec<(RowId, VarId)> = Vec::with_capacity(self.givens.len() * 4);
        for &g in &self.givens {
            hits.extend(
                (self.rows_of(g).iter())
                    .filter(|&&r| senses[r].is_unit())
                    .map(|&r| (r, g)),
            );
        }
        hits.sort_unstable();
        let w = hits
            .windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .min_by_key(|w| w[0].0)?;
        let c = &self.constraints()[w[0].0];
        Some(ModelError::ClashingGivens {
            first: self.label(w[0].1).into_owned(),
            second: self.label(w[1].1).into_owned(),
            family: self.families()[c.family].name.clone(),
            index: c.index,
        })
    }
}

/// Writes row `c` of a model into the reduced model's builder `b` (family `family`), given the
/// fixed values and the reduced ids of the free variables: the row keeps its free variables and
/// its right-hand side drops by the weight fixed to 1. A row left always true is dropped, except
/// an exact-cover row untouched by the fixed ones (kept as it was). Returns `false` when the row
/// can no longer hold (the fixed values leave no solution).
fn reduce_row(
    c: &Constraint,
    value: &[Option<bool>],
    new_id: &[Option<VarId>],
    family: FamilyId,
    b: &mut ModelBuilder,
) -> bool {
    let mut used = 0u64;
    let (mut vars, mut weights) = (Vec::new(), Vec::new());
    for (v, w) in c.terms() {
        match (value[v], new_id[v]) {
            (Some(true), _) => used = used.saturating_add(w),
            (None, Some(id)) => {
                vars.push(id);
                weights.push(w);
            }
            _ => {}
        }
    }
    let (low, high) = c.sense.bounds();
    if high.is_some_and(|h| used > h) {
        return false;
    }
    let rest: u64 = weights.iter().sum();
    let sense = c.sense.with_rhs(c.sense.rhs().saturating_sub(used));
    if vars.is_empty() {
        return sense.holds(0);
    }
    let always_true = low <= used && high.is_none_or(|h| used + rest <= h);
    if !always_true || (c.is_unit() && used == 0) {
        // An exact-cover row holding a one keeps its free variables as `= 0` / `<= 0`.
        b.weighted_row(family, vars, weights, sense);
    }
    true
}

/// A model with its givens applied, and the way back to the original variables.
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The reduced model (no givens; free variables only).
    pub model: Model,
    /// For each variable of the reduced model, its id in the original model.
    pub original: Vec<VarId>,
    /// Original variables fixed to 1 (the givens, or every variable fixed to 1), sorted.
    pub ones: Vec<VarId>,
    /// Number of variables of the original model.
    pub original_variables: usize,
    /// A row can no longer hold (an "exactly one" row lost all its variables, or the fixed
    /// ones overfill a row): the fixed values leave no solution.
    pub infeasible: bool,
}

impl Reduction {
    /// Maps a solution of the reduced model back to the original model.
    pub fn lift(&self, reduced: &Solution) -> Solution {
        let mut ones: Vec<VarId> = reduced.ones.iter().map(|&v| self.original[v]).collect();
        ones.extend_from_slice(&self.ones);
        Solution::new(ones)
    }
}

/// An assignment, stored as the sorted ids of the variables set to 1.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Solution {
    /// Sorted, duplicate-free ids of the variables equal to 1.
    pub ones: Vec<VarId>,
}

impl Solution {
    /// Builds a solution from any list of ids (sorted and deduplicated here).
    pub fn new(mut ones: Vec<VarId>) -> Self {
        ones.sort_unstable();
        ones.dedup();
        Solution { ones }
    }

    /// Builds a solution from a full 0-1 vector.
    pub fn from_bools(values: &[bool]) -> Self {
        Solution {
            ones: values
                .iter()
                .enumerate()
                .filter_map(|(i, &b)| b.then_some(i))
                .collect(),
        }
    }

    /// The full 0-1 vector of length `n`.
    pub fn to_bools(&self, n: usize) -> Vec<bool> {
        let mut v = vec![false; n];
        for &i in &self.ones {
            if i < n {
                v[i] = true;
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_serialized_model_reads_back_equal_and_a_bad_one_is_refused() {
        let hex = crate::puzzle::HexBoard::geometry(5).unwrap().to_model("w5");
        let text = serde_json::to_string(&hex).unwrap();
        let back: Model = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        assert_eq!((back.name(), back.label(3)), (hex.name(), hex.label(3)));
        // A row naming a family that is not there is an error, not a panic.
        let bad = text.replacen("\"family\":0", "\"family\":9", 1);
        assert!(serde_json::from_str::<Model>(&bad).is_err());
    }

    use super::*;

    fn tiny() -> Model {
        let mut b = ModelBuilder::new("tiny", PuzzleKind::Generic);
        let x: Vec<VarId> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("pair");
        b.row(f, vec![x[1], x[0]], Sense::ExactlyOne);
        b.row(f, vec![x[2], x[3]], Sense::ExactlyOne);
        let g = b.family("cross");
        b.row(g, vec![x[0], x[2]], Sense::AtMostOne);
        b.given(x[0]);
        b.build().unwrap()
    }

    #[test]
    fn rows_are_sorted_and_summary_counts() {
        let m = tiny();
        assert_eq!(m.constraints()[0].vars, vec![0, 1]);
        let s = m.summary();
        assert_eq!(s.variables, 4);
        assert_eq!(s.constraints, 3);
        assert_eq!(s.nonzeros, 6);
        assert_eq!(s.families["pair"], 2);
    }

    #[test]
    fn reduce_fixes_neighbours_and_lifts_back() {
        let m = tiny();
        let r = m.reduce();
        // x0 = 1 fixes x1 = 0 and x2 = 0; only x3 is left, forced by the second pair row.
        assert_eq!(r.model.num_variables(), 1);
        assert_eq!(r.original, vec![3]);
        assert!(!r.infeasible);
        let lifted = r.lift(&Solution::new(vec![0]));
        assert_eq!(lifted.ones, vec![0, 3]);
    }

    #[test]
    fn givens_as_rows_adds_a_family() {
        let m = tiny().with_givens_as_rows();
        assert!(m.givens().is_empty());
        assert_eq!(m.summary().families["given"], 1);
        let (a, b) = m.dense_equalities(false);
        assert_eq!(a.nrows(), 3);
        assert_eq!(b.len(), 3);
    }

    #[test]
    fn build_rejects_bad_rows() {
        let mut b = ModelBuilder::new("bad", PuzzleKind::Generic);
        b.variable("a", Coord::Free);
        let f = b.family("f");
        b.row(f, vec![0, 3], Sense::ExactlyOne);
        assert!(matches!(
            b.build(),
            Err(ModelError::UnknownVariable { var: 3, .. })
        ));
        let mut b = ModelBuilder::new("bad", PuzzleKind::Generic);
        b.variable("a", Coord::Free);
        b.variable("b", Coord::Free);
        let f = b.family("f");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        b.given(0);
        b.given(1);
        assert!(matches!(b.build(), Err(ModelError::ClashingGivens { .. })));
    }

    #[test]
    fn sudoku_models_share_one_shape_and_make_labels_from_coordinates() {
        use crate::puzzle::Sudoku;
        let mut cells = vec![None; 81];
        cells[0] = Some(4);
        let a = Sudoku::from_cells(3, cells).unwrap().to_model("a").unwrap();
        let b = Sudoku::empty(3).to_model("b").unwrap();
        assert!(a.shares_shape_with(&b));
        assert_eq!(a.givens(), &[4]);
        assert!(b.givens().is_empty());
        assert_eq!(a.label(4), "r0c0=5");
        assert_eq!(a.label(728), "r8c8=9");
        assert_eq!(a.variable_by_label("r1c2=3"), Some((9 + 2) * 9 + 2));
        assert_eq!(a.rows_of(4).len(), 4);
    }

    #[test]
    fn with_givens_checks_range_and_clashes_like_the_builder() {
        let m = tiny();
        let other = m.with_givens("other", vec![3, 3]).unwrap();
        assert!(other.shares_shape_with(&m));
        assert_eq!(other.givens(), &[3]);
        assert!(matches!(
            m.with_givens("x", vec![9]),
            Err(ModelError::UnknownGiven { var: 9, .. })
        ));
        // x0 and x2 share the "cross" row, and x2, x3 the second "pair" row.
        assert_eq!(
            m.with_givens("x", vec![2, 0, 3]),
            Err(ModelError::ClashingGivens {
                first: "x2".into(),
                second: "x3".into(),
                family: "pair".into(),
                index: 1,
            })
        );
    }

    #[test]
    fn stored_and_derived_labels_mix() {
        let mut b = ModelBuilder::new("mix", PuzzleKind::Generic);
        b.coord_variable(Coord::Cell { row: 0, col: 1 });
        b.variable("named", Coord::Free);
        b.coord_variable(Coord::Free);
        let f = b.family("f");
        b.row(f, vec![0, 1, 2], Sense::ExactlyOne);
        let m = b.build().unwrap();
        let labels: Vec<_> = (0..3).map(|v| m.label(v).into_owned()).collect();
        assert_eq!(labels, ["r0c1", "named", "x2"]);
        let r = m.reduce();
        assert_eq!(r.model.label(1), "named");
    }

    /// Four free variables: "two" (exactly 2 of all), "budget" (weights 1, 2, 3, 4 at most 5).
    fn two_on_a_budget() -> Model {
        let mut b = ModelBuilder::new("budget", PuzzleKind::Generic);
        for _ in 0..4 {
            b.coord_variable(Coord::Free);
        }
        let two = b.family("two");
        b.row(two, vec![3, 2, 1, 0], Sense::Exactly(2));
        let budget = b.family("budget");
        b.weighted_row(budget, vec![3, 0, 1, 2], vec![4, 1, 2, 3], Sense::AtMost(5));
        b.build().unwrap()
    }

    #[test]
    fn the_builder_sorts_weights_with_their_variables_and_normalizes_senses() {
        let m = two_on_a_budget();
        let budget = &m.constraints()[1];
        assert_eq!(
            (budget.vars.clone(), budget.weights.clone()),
            (vec![0, 1, 2, 3], Some(vec![1, 2, 3, 4]))
        );
        assert_eq!(m.row_weights_of(3), Some(&[1, 4][..]));
        let mut b = ModelBuilder::new("n", PuzzleKind::Generic);
        let (x, y) = (b.coord_variable(Coord::Free), b.coord_variable(Coord::Free));
        let f = b.family("f");
        b.weighted_row(f, vec![x, y], vec![1, 1], Sense::Exactly(1));
        b.weighted_row(f, vec![x, y], vec![2, 1], Sense::AtMostOne);
        b.row(f, vec![x, y], Sense::AtMost(1));
        let m = b.build().unwrap();
        let senses: Vec<Sense> = m.constraints().iter().map(|c| c.sense).collect();
        assert_eq!(
            senses,
            [Sense::ExactlyOne, Sense::AtMost(1), Sense::AtMostOne]
        );
        assert_eq!(m.constraints()[0].weights, None);
        assert!(!m.is_exact_cover());
    }

    #[test]
    fn bad_weights_are_refused_by_the_builder() {
        let build = |weights: Vec<u64>, sense: Sense| {
            let mut b = ModelBuilder::new("w", PuzzleKind::Generic);
            let vars: Vec<VarId> = (0..weights.len().max(2))
                .map(|_| b.coord_variable(Coord::Free))
                .collect();
            let f = b.family("f");
            b.weighted_row(f, vars[..2].to_vec(), weights, sense);
            b.build()
        };
        assert!(matches!(
            build(vec![1, 0], Sense::Exactly(1)),
            Err(ModelError::ZeroWeight { .. })
        ));
        assert!(matches!(
            build(vec![1], Sense::Exactly(1)),
            Err(ModelError::WeightCount {
                vars: 2,
                weights: 1,
                ..
            })
        ));
        let huge = MAX_COEFFICIENT;
        assert!(matches!(
            build(vec![huge, 1], Sense::Exactly(1)),
            Err(ModelError::CoefficientTooLarge {
                what: "total weight",
                ..
            })
        ));
        assert!(matches!(
            build(vec![1, 1], Sense::AtLeast(huge + 1)),
            Err(ModelError::CoefficientTooLarge {
                what: "right-hand side",
                ..
            })
        ));
        assert!(build(vec![huge - 1, 1], Sense::AtLeast(huge)).is_ok());
    }

    #[test]
    fn givens_use_up_general_rows_and_may_not_overfill_them() {
        let m = two_on_a_budget();
        // x3 (weight 4) and x1 (weight 2) overfill the budget of 5.
        assert_eq!(
            m.with_givens("g", vec![3, 1]),
            Err(ModelError::OverfullRow {
                givens: "x1, x3".into(),
                sum: 6,
                sense: "<= 5".into(),
                family: "budget".into(),
                index: 0,
            })
        );
        // Given x3: one more of x0 (weight 1) only; "two" needs exactly 1 more, budget <= 1.
        let r = m.with_givens("g", vec![3]).unwrap().reduce();
        assert!(!r.infeasible);
        let senses: Vec<Sense> = r.model.constraints().iter().map(|c| c.sense).collect();
        assert_eq!(senses, [Sense::ExactlyOne, Sense::AtMost(1)]);
        assert_eq!(r.model.constraints()[1].weights, Some(vec![1, 2, 3]));
        // Given x0 and x1: "two" is full (exactly 0 more), the budget has 2 left.
        let r = m.with_givens("g", vec![0, 1]).unwrap().reduce();
        assert_eq!(r.model.constraints()[0].sense, Sense::Exactly(0));
        assert_eq!(r.model.constraints()[1].sense, Sense::AtMost(2));
    }

    #[test]
    fn reduce_drops_rows_the_givens_leave_always_true_and_finds_dead_ones() {
        let mut b = ModelBuilder::new("r", PuzzleKind::Generic);
        let x: Vec<VarId> = (0..3).map(|_| b.coord_variable(Coord::Free)).collect();
        let f = b.family("f");
        b.row(f, x.clone(), Sense::AtLeast(1));
        b.weighted_row(f, vec![x[1], x[2]], vec![2, 2], Sense::Exactly(3));
        let m = b.build().unwrap();
        let r = m.with_givens("g", vec![0]).unwrap().reduce();
        // The at-least row is met by x0 and dropped; the odd row stays (it is infeasible, but
        // only a search finds that: 2 + 2 and 2 are not 3).
        assert_eq!(r.model.constraints().len(), 1);
        // A row left with no free variable and a need it cannot meet is infeasible at once.
        let mut b = ModelBuilder::new("d", PuzzleKind::Generic);
        let x: Vec<VarId> = (0..2).map(|_| b.coord_variable(Coord::Free)).collect();
        let f = b.family("f");
        b.row(f, x.clone(), Sense::ExactlyOne);
        b.row(f, x.clone(), Sense::AtLeast(2));
        let m = b.build().unwrap().with_givens("g", vec![0]).unwrap();
        assert!(m.reduce().infeasible);
    }

    #[test]
    fn a_general_model_round_trips_through_serde() {
        let m = two_on_a_budget();
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.contains(r#""sense":"exactly","rhs":2"#), "{text}");
        assert!(text.contains(r#""weights":[1,2,3,4]"#), "{text}");
        let back: Model = serde_json::from_str(&text).unwrap();
        assert_eq!(back, m);
        let bad = text.replacen(r#""sense":"exactly""#, r#""sense":"roughly""#, 1);
        assert!(serde_json::from_str::<Model>(&bad).is_err());
    }
}
