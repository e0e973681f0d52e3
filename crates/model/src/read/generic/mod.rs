//! Generic models in JSON or TOML: any 0-1 problem with rows `sum w_i x_i (=, <=, >=) k`,
//! without writing Rust.
//!
//! Shape (JSON shown; TOML is the same with `[[families]]` tables):
//!
//! ```json
//! {
//!   "name": "optional name",
//!   "variables": ["a", "b", {"label": "c", "row": 0, "col": 2}],
//!   "families": [
//!     {"name": "first", "sense": "exactly-one", "rows": [["a", "b", "c"]]},
//!     {"name": "apart", "sense": "at-most-one", "rows": [["a", "c"]]},
//!     {"name": "pair", "sense": "exactly", "rhs": 2, "rows": [["a", "b", "c"]]},
//!     {"name": "cage", "sense": "at-least", "rhs": 3, "rows": [["a", "b"]], "weights": [[1, 2]]}
//!   ],
//!   "givens": ["b"]
//! }
//! ```
//!
//! A variable is a label or a table with `label` and optional coordinates `row`, `col` (and
//! `value`, for a cell holding a value). `sense` is `exactly-one`, `at-most-one` (the `k = 1`,
//! unit-weight rows), `exactly`, `at-most` or `at-least` (or a list with one per row, for a
//! family that mixes them); `rhs` (default 1) is `k`, a whole number
//! from 0 to 2^53, either one for every row or a list with one per row; `weights` (optional) has
//! the shape of `rows` and holds positive whole numbers (default 1), a row's total at most 2^53;
//! `names` (optional) gives the rows their own names (LP, MPS row names, kept in exports and
//! messages), one per row, `null` for a row without one (JSON; TOML, which has no null, names
//! every row of the family or none).
//! `givens` (optional) lists variables fixed to 1. `objective` (optional) is
//! `{"sense": "minimize" | "maximize", "costs": {"a": 3, "c": -2}}`: whole-number costs from
//! -2^53 to 2^53 by label, a variable not named costing 0 (TOML: an `[objective]` table with an
//! `[objective.costs]` table). Unknown keys are refused.
//!
//! Errors are located: syntax and shape errors where the parser stopped; a row or given naming
//! an undeclared variable, a repeated label, an empty row, an unknown sense, a right-hand side
//! or weight out of range, weights not matching their rows, or clashing givens (two in one
//! exact-cover row, or summing past a general row's bound) at the offending element. To locate those, the file is read a second time (only when it is wrong) with the
//! offending element marked, and the JSON/TOML reader reports where it met it.
//!
//! Costs: one pass to read, one to check; a second read only for a bad file.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use thiserror::Error;

pub use self::locate::line_col;
use self::locate::{json_message, json_token_start, number_before};

use crate::model::{
    parse_sense, Coord, Model, ModelBuilder, ModelError, ObjectiveSense, PuzzleKind, Sense,
    MAX_COEFFICIENT, MAX_COST,
};

/// A generic model file that does not read: where (1-based line and column in characters) and
/// what. The caller adds the file name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{line}:{column}: {kind}")]
pub struct GenericError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What was expected and what was found.
    pub kind: GenericErrorKind,
}

/// What is wrong with a generic model file; each message says what was expected and found.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GenericErrorKind {
    /// No model (an empty file) or no variable.
    #[error("expected at least one {0}, found none")]
    Missing(&'static str),
    /// JSON or TOML that is not well formed or does not have the model's shape.
    #[error("expected a generic model (JSON/TOML), found an error: {0}")]
    Syntax(String),
    /// A label or family name holding a control character (newline, tab, ...), which would
    /// break the line-based formats zeroone writes.
    #[error("expected a {what} without control characters (newline, tab, ...), found {found:?}")]
    ControlChar {
        /// `variable label` or `family name`.
        what: &'static str,
        /// The text as read.
        found: String,
    },
    /// A value out of its range or of the wrong shape (a sense name, a negative right-hand
    /// side, a zero weight, a weight list not matching its row).
    #[error("expected {expected}, found {found}")]
    BadValue {
        /// What would have been accepted.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A row or given naming a variable that was not declared.
    #[error("expected the label of a declared variable, found '{0}'")]
    UnknownVariable(String),
    /// A model that is well formed but inconsistent (duplicate labels, empty rows, clashing
    /// givens).
    #[error("expected a consistent model, found: {0}")]
    Model(Box<ModelError>),
}

mod locate;

/// Reading state shared by every [`Located`] value during one read: a running element number,
/// and (second read only) the element to stop at with an error message.
#[derive(Default)]
struct ReadState {
    next: usize,
    stop_at: Option<(usize, String)>,
}

thread_local! {
    static READ: RefCell<ReadState> = RefCell::new(ReadState::default());
}

/// A value with its element number in document order (assigned as it is read).
#[derive(Debug, Clone)]
struct Located<T> {
    value: T,
    seq: usize,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Located<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = T::deserialize(d)?;
        READ.with(|r| {
            let mut r = r.borrow_mut();
            let seq = r.next;
            r.next += 1;
            match &r.stop_at {
                Some((at, message)) if *at == seq => Err(de::Error::custom(message.clone())),
                _ => Ok(Located { value, seq }),
            }
        })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelFile {
    #[serde(default)]
    name: Option<String>,
    variables: Vec<VariableSpec>,
    families: Vec<FamilySpec>,
    #[serde(default)]
    givens: Vec<Located<String>>,
    #[serde(default)]
    objective: Option<ObjectiveSpec>,
}

/// The optional `objective`: `{"sense": "minimize", "costs": {"a": 3, "b": -2}}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectiveSpec {
    sense: Located<String>,
    #[serde(default)]
    costs: CostsSpec,
}

/// The objective's costs, in file order, each label and cost located.
#[derive(Debug, Default)]
struct CostsSpec(Vec<(Located<String>, Located<i64>)>);

impl<'de> Deserialize<'de> for CostsSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(CostsVisitor)
    }
}

struct CostsVisitor;

impl<'de> Visitor<'de> for CostsVisitor {
    type Value = CostsSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table of costs: variable label = whole number")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CostsSpec, A::Error> {
        let mut costs = Vec::new();
        while let Some(label) = map.next_key::<Located<String>>()? {
            costs.push((label, map.next_value::<Located<i64>>()?));
        }
        Ok(CostsSpec(costs))
    }
}

#[derive(Debug)]
struct VariableSpec {
    label: Located<String>,
    coord: Coord,
}

impl<'de> Deserialize<'de> for VariableSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(VariableVisitor(PhantomData))
    }
}

struct VariableVisitor<'de>(PhantomData<&'de ()>);

impl<'de> Visitor<'de> for VariableVisitor<'de> {
    type Value = VariableSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a variable: a label, or a table with \"label\" and optional \"row\", \"col\", \"value\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<VariableSpec, E> {
        let label = Located::deserialize(de::value::StrDeserializer::<E>::new(v))?;
        Ok(VariableSpec {
            label,
            coord: Coord::Free,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<VariableSpec, A::Error> {
        let mut label: Option<Located<String>> = None;
        let (mut row, mut col, mut value) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "label" => label = Some(map.next_value()?),
                "row" => row = Some(map.next_value::<usize>()?),
                "col" => col = Some(map.next_value::<usize>()?),
                "value" => value = Some(map.next_value::<usize>()?),
                other => {
                    return Err(de::Error::unknown_field(
                        other,
                        &["label", "row", "col", "value"],
                    ))
                }
            }
        }
        let label = label.ok_or_else(|| de::Error::missing_field("label"))?;
        let coord = match (row, col, value) {
            (Some(row), Some(col), None) => Coord::Cell { row, col },
            (Some(row), Some(col), Some(value)) => Coord::CellValue { row, col, value },
            (None, None, None) => Coord::Free,
            _ => return Err(de::Error::custom(
                "expected both \"row\" and \"col\" (and optionally \"value\"), or no coordinates",
            )),
        };
        Ok(VariableSpec { label, coord })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FamilySpec {
    name: Located<String>,
    sense: SenseSpec,
    #[serde(default)]
    rhs: Option<RhsSpec>,
    rows: Vec<Located<Vec<Located<String>>>>,
    #[serde(default)]
    weights: Option<Located<Vec<WeightRow>>>,
    #[serde(default)]
    names: Option<Located<Vec<Option<Located<String>>>>>,
}

/// One row's weights, each located.
type WeightRow = Located<Vec<Located<i64>>>;

/// A family's `sense`: one name for every row, or a list with one per row.
#[derive(Debug)]
enum SenseSpec {
    Shared(Located<String>),
    PerRow(Located<Vec<Located<String>>>),
}

impl<'de> Deserialize<'de> for SenseSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SenseVisitor)
    }
}

struct SenseVisitor;

impl<'de> Visitor<'de> for SenseVisitor {
    type Value = SenseSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sense: a name, or a list with one per row")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SenseSpec, E> {
        Located::deserialize(de::value::StrDeserializer::<E>::new(v)).map(SenseSpec::Shared)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<SenseSpec, A::Error> {
        per_row(seq).map(SenseSpec::PerRow)
    }
}

/// A family's `rhs`: one number for every row, or a list with one per row.
#[derive(Debug)]
enum RhsSpec {
    Shared(Located<i64>),
    PerRow(Located<Vec<Located<i64>>>),
}

impl<'de> Deserialize<'de> for RhsSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RhsVisitor)
    }
}

struct RhsVisitor;

impl<'de> Visitor<'de> for RhsVisitor {
    type Value = RhsSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a right-hand side: a whole number, or a list with one per row")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RhsSpec, E> {
        Located::deserialize(de::value::I64Deserializer::<E>::new(v)).map(RhsSpec::Shared)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RhsSpec, E> {
        let v =
            i64::try_from(v).map_err(|_| E::custom(format!("right-hand side {v} is too large")))?;
        self.visit_i64(v)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<RhsSpec, A::Error> {
        per_row(seq).map(RhsSpec::PerRow)
    }
}

/// A list with one located value per row (a family's `sense` or `rhs`), itself located.
fn per_row<'de, T, A>(mut seq: A) -> Result<Located<Vec<Located<T>>>, A::Error>
where
    T: Deserialize<'de>,
    A: de::SeqAccess<'de>,
{
    let mut values = Vec::new();
    while let Some(v) = seq.next_element::<Located<T>>()? {
        values.push(v);
    }
    Located::<()>::deserialize(de::value::UnitDeserializer::<A::Error>::new()).map(
        |l: Located<()>| Located {
            value: values,
            seq: l.seq,
        },
    )
}

/// The first problem of a well-formed file.
struct Problem {
    /// Element number (in reading order) of the offending element; `usize::MAX` for none.
    seq: usize,
    /// The error.
    kind: GenericErrorKind,
    /// Text to look for inside the span a TOML error reports (which is the enclosing array),
    /// and which occurrence of it is meant (1-based).
    needle: Option<(String, usize)>,
}

fn problem(seq: usize, kind: GenericErrorKind, needle: Option<(String, usize)>) -> Problem {
    Problem { seq, kind, needle }
}

fn quoted(label: &str, occurrence: usize) -> Option<(String, usize)> {
    Some((format!("\"{label}\""), occurrence))
}

/// A label or family name with a control character (a newline, a tab, ...), which would break
/// the line-based formats zeroone writes (LP, MPS, OPB and CNF comment headers, tables).
fn control_char(what: &'static str, seq: usize, text: &str) -> Option<Problem> {
    text.chars().any(char::is_control).then(|| {
        problem(
            seq,
            GenericErrorKind::ControlChar {
                what,
                found: text.to_string(),
            },
            None,
        )
    })
}

/// Declares the file's variables in `b`, in file order, and returns each label's id; the first
/// problem (no variable, a control character, a repeated label) is an error. Costs one hash
/// per label.
fn variables<'f>(
    file: &'f ModelFile,
    b: &mut ModelBuilder,
) -> Result<HashMap<&'f str, usize>, Problem> {
    let mut ids: HashMap<&str, usize> = HashMap::with_capacity(file.variables.len());
    if file.variables.is_empty() {
        return Err(problem(
            usize::MAX,
            GenericErrorKind::Missing("variable"),
            None,
        ));
    }
    for v in &file.variables {
        if let Some(p) = control_char("variable label", v.label.seq, &v.label.value) {
            return Err(p);
        }
        if ids.contains_key(v.label.value.as_str()) {
            return Err(problem(
                v.label.seq,
                model_error(ModelError::DuplicateLabel(v.label.value.clone())),
                quoted(&v.label.value, 2),
            ));
        }
        let id = b.variable(v.label.value.clone(), v.coord);
        ids.insert(&v.label.value, id);
    }
    Ok(ids)
}

/// Builds the model, or finds the first problem (in the order: variables, families, givens).
/// Costs one pass over the file's elements (one hash per label and per row entry): linear in
/// the size of the file.
fn build(file: ModelFile) -> Result<Model, Problem> {
    let mut b = ModelBuilder::new(file.name.clone().unwrap_or_default(), PuzzleKind::Generic);
    let ids = variables(&file, &mut b)?;
    let lookup = |l: &Located<String>| {
        ids.get(l.value.as_str()).copied().ok_or_else(|| {
            problem(
                l.seq,
                GenericErrorKind::UnknownVariable(l.value.clone()),
                quoted(&l.value, 1),
            )
        })
    };
    let mut family_names: HashSet<&str> = HashSet::new();
    // For each variable, the exact-cover rows (numbered across families) it lies in, and the
    // general rows with its weight there; for each row, its family and index, and for a
    // general row its upper bound. Used to find clashing givens.
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    let mut general_of: Vec<Vec<(usize, u64)>> = vec![Vec::new(); ids.len()];
    let mut upper: Vec<Option<u64>> = Vec::new();
    let mut row_at: Vec<(usize, usize)> = Vec::new();
    // The last row each variable was seen in, to spot a variable listed twice in one row.
    let mut last_row: Vec<usize> = vec![usize::MAX; ids.len()];
    for (fi, fam) in file.families.iter().enumerate() {
        if let Some(p) = control_char("family name", fam.name.seq, &fam.name.value) {
            return Err(p);
        }
        if !family_names.insert(&fam.name.value) {
            return Err(problem(
                fam.name.seq,
                model_error(ModelError::DuplicateFamily(fam.name.value.clone())),
                None,
            ));
        }
        let f = b.family(fam.name.value.clone());
        let (senses, weights) = row_terms(fam)?;
        let names = row_names(fam)?;
        for (index, row) in fam.rows.iter().enumerate() {
            if row.value.is_empty() {
                return Err(problem(
                    row.seq,
                    model_error(ModelError::EmptyRow {
                        family: fam.name.value.clone(),
                        index,
                    }),
                    Some(("[]".into(), 1)),
                ));
            }
            let global = row_at.len();
            row_at.push((fi, index));
            let mut vars = Vec::with_capacity(row.value.len());
            for l in &row.value {
                let v = lookup(l)?;
                if last_row[v] == global {
                    return Err(problem(
                        l.seq,
                        model_error(ModelError::DuplicateInRow {
                            family: fam.name.value.clone(),
                            index,
                            label: l.value.clone(),
                        }),
                        quoted(&l.value, 2),
                    ));
                }
                last_row[v] = global;
                vars.push(v);
            }
            let row_weights = weights.as_ref().map(|w| w[index].clone());
            let unit = row_weights
                .as_ref()
                .is_none_or(|w| w.iter().all(|&x| x == 1));
            let sense = senses[index].normalized(unit);
            for (i, &v) in vars.iter().enumerate() {
                match sense.is_unit() {
                    true => rows_of[v].push(global),
                    false => general_of[v].push((global, row_weights.as_ref().map_or(1, |w| w[i]))),
                }
            }
            upper.push(sense.bounds().1.filter(|_| !sense.is_unit()));
            let id = match row_weights {
                Some(w) => b.weighted_row(f, vars, w, sense),
                None => b.row(f, vars, sense),
            };
            if let Some(name) = names.get(index).copied().flatten() {
                b.name_row(id, name);
            }
        }
    }
    let rows = GivenRows {
        unit: &rows_of,
        general: &general_of,
        upper: &upper,
        row_at: &row_at,
    };
    givens(&file, &lookup, &rows, &mut b)?;
    if let Some(spec) = &file.objective {
        let (sense, terms) = objective(spec, &lookup)?;
        b.objective(sense, terms);
    }
    // Every check the builder makes was made above with a position; keep its answer anyway.
    b.build()
        .map_err(|e| problem(usize::MAX, model_error(e), None))
}

/// The rows of a generic model as the givens check needs them (see [`build`]).
struct GivenRows<'a> {
    /// For each variable, the exact-cover rows it lies in.
    unit: &'a [Vec<usize>],
    /// For each variable, the general rows it lies in, with its weight there.
    general: &'a [Vec<(usize, u64)>],
    /// For each row, its upper bound when it is a general row with one.
    upper: &'a [Option<u64>],
    /// For each row, its family and index within the family.
    row_at: &'a [(usize, usize)],
}

/// Adds the givens to `b`, refusing two givens in one exact-cover row (the error names the
/// earliest given the new one clashes with, and their first shared row) and givens that sum past
/// a general row's upper bound. Linear in the givens' rows.
fn givens(
    file: &ModelFile,
    lookup: &dyn Fn(&Located<String>) -> Result<usize, Problem>,
    rows: &GivenRows,
    b: &mut ModelBuilder,
) -> Result<(), Problem> {
    // For each row, the position (in `given_vars`) of the given it holds.
    let mut owner: Vec<Option<usize>> = vec![None; rows.row_at.len()];
    let mut sum: Vec<u64> = vec![0; rows.row_at.len()];
    let mut is_given = vec![false; rows.unit.len()];
    let mut given_vars: Vec<usize> = Vec::new();
    for g in &file.givens {
        let v = lookup(g)?;
        if is_given[v] {
            continue; // listed twice: still one given
        }
        let clash = rows.unit[v]
            .iter()
            .filter_map(|&r| owner[r].map(|o| (o, r)))
            .min_by_key(|&(o, _)| o);
        if let Some((o, r)) = clash {
            let (fi, index) = rows.row_at[r];
            return Err(problem(
                g.seq,
                model_error(ModelError::ClashingGivens {
                    first: file.variables[given_vars[o]].label.value.clone(),
                    second: g.value.clone(),
                    family: file.families[fi].name.value.clone(),
                    index,
                }),
                quoted(&g.value, 1),
            ));
        }
        for &(r, w) in &rows.general[v] {
            sum[r] += w;
            if rows.upper[r].is_some_and(|high| sum[r] > high) {
                let (fi, index) = rows.row_at[r];
                let fam = &file.families[fi];
                return Err(problem(
                    g.seq,
                    GenericErrorKind::BadValue {
                        expected: format!(
                            "givens that fit row {index} of family '{}' (at most {})",
                            fam.name.value,
                            rows.upper[r].unwrap_or(0)
                        ),
                        found: format!("'{}' taking its givens' sum to {}", g.value, sum[r]),
                    },
                    quoted(&g.value, 1),
                ));
            }
        }
        for &r in &rows.unit[v] {
            owner[r] = Some(given_vars.len());
        }
        is_given[v] = true;
        given_vars.push(v);
        b.given(v);
    }
    Ok(())
}

/// The objective's sense and terms, every label and cost checked and located: a known sense,
/// known labels, each named once, costs from -2^53 to 2^53. Costs one hash per cost.
#[allow(clippy::type_complexity)]
fn objective(
    spec: &ObjectiveSpec,
    lookup: &dyn Fn(&Located<String>) -> Result<usize, Problem>,
) -> Result<(ObjectiveSense, Vec<(usize, i64)>), Problem> {
    let sense = ObjectiveSense::parse(&spec.sense.value).ok_or_else(|| {
        bad_value(
            spec.sense.seq,
            "an objective sense: minimize or maximize".into(),
            format!("'{}'", spec.sense.value),
            quoted(&spec.sense.value, 1),
        )
    })?;
    let mut named = HashSet::new();
    let mut terms = Vec::with_capacity(spec.costs.0.len());
    for (label, cost) in &spec.costs.0 {
        let v = lookup(label)?;
        if !named.insert(v) {
            return Err(bad_value(
                label.seq,
                "each variable named once in the objective".into(),
                format!("'{}' again", label.value),
                quoted(&label.value, 2),
            ));
        }
        if !(-MAX_COST..=MAX_COST).contains(&cost.value) {
            return Err(bad_value(
                cost.seq,
                "a cost from -2^53 to 2^53".into(),
                cost.value.to_string(),
                Some((cost.value.to_string(), 1)),
            ));
        }
        terms.push((v, cost.value));
    }
    Ok((sense, terms))
}

/// The sense of each row of `fam` (from `sense` and `rhs`) and, when the family has `weights`,
/// each row's weights; every value checked and located. Costs one pass over the weights.
#[allow(clippy::type_complexity)]
fn row_terms(fam: &FamilySpec) -> Result<(Vec<Sense>, Option<Vec<Vec<u64>>>), Problem> {
    let n = fam.rows.len();
    let coefficient = |what: &str, low: i64, v: &Located<i64>| {
        if (low..=MAX_COEFFICIENT as i64).contains(&v.value) {
            Ok(v.value as u64)
        } else {
            Err(bad_value(
                v.seq,
                format!("a {what} from {low} to 2^53"),
                v.value.to_string(),
                Some((v.value.to_string(), 1)),
            ))
        }
    };
    let rhs: Vec<Option<u64>> = match &fam.rhs {
        None => vec![None; n],
        Some(RhsSpec::Shared(k)) => vec![Some(coefficient("right-hand side", 0, k)?); n],
        Some(RhsSpec::PerRow(list)) if list.value.len() != n => {
            let (seq, needle) = last_element(list);
            return Err(bad_value(
                seq,
                format!("one right-hand side per row ({n})"),
                format!("{} values", list.value.len()),
                needle,
            ));
        }
        Some(RhsSpec::PerRow(list)) => (list.value.iter())
            .map(|k| coefficient("right-hand side", 0, k).map(Some))
            .collect::<Result<_, _>>()?,
    };
    let names: Vec<&Located<String>> = match &fam.sense {
        SenseSpec::Shared(name) => vec![name; n],
        SenseSpec::PerRow(list) if list.value.len() != n => {
            let (seq, needle) = match list.value.last() {
                Some(last) => (last.seq, Some((format!("\"{}\"", last.value), 1))),
                None => (list.seq, None),
            };
            return Err(bad_value(
                seq,
                format!("one sense per row ({n})"),
                format!("{} senses", list.value.len()),
                needle,
            ));
        }
        SenseSpec::PerRow(list) => list.value.iter().collect(),
    };
    let senses = (names.iter().zip(&rhs))
        .map(|(name, &k)| parse_sense(&name.value, k).map_err(|m| (m, k, *name)))
        .collect::<Result<Vec<Sense>, (String, Option<u64>, &Located<String>)>>()
        .map_err(|(message, k, name)| {
            let found = match k {
                Some(k) if crate::model::is_sense_name(&name.value) => {
                    format!("'{}' with rhs {k}", name.value)
                }
                _ => format!("'{}'", name.value),
            };
            bad_value(
                name.seq,
                message,
                found,
                Some((format!("\"{}\"", name.value), 1)),
            )
        })?;
    let Some(weights) = &fam.weights else {
        return Ok((senses, None));
    };
    if weights.value.len() != n {
        let found = format!("{} lists", weights.value.len());
        return Err(bad_value(
            weights.seq,
            format!("one weight list per row ({n})"),
            found,
            None,
        ));
    }
    let mut all = Vec::with_capacity(n);
    for (row, list) in fam.rows.iter().zip(&weights.value) {
        if list.value.len() != row.value.len() {
            let expected = format!("one weight per variable of the row ({})", row.value.len());
            let (seq, needle) = last_element(list);
            return Err(bad_value(
                seq,
                expected,
                format!("{} weights", list.value.len()),
                needle,
            ));
        }
        let row_weights = (list.value.iter())
            .map(|w| coefficient("weight", 1, w))
            .collect::<Result<Vec<u64>, _>>()?;
        let total = row_weights.iter().fold(0u64, |a, &w| a.saturating_add(w));
        if total > MAX_COEFFICIENT {
            let expected = "weights summing to at most 2^53".to_string();
            let (seq, needle) = last_element(list);
            return Err(bad_value(
                seq,
                expected,
                format!("a total of {total}"),
                needle,
            ));
        }
        all.push(row_weights);
    }
    Ok((senses, Some(all)))
}

/// Where a problem with a whole list of numbers is reported: at its last element (where the
/// list should have ended, or did end too early), with that number as the needle that finds
/// it; at the list when it is empty.
fn last_element(list: &Located<Vec<Located<i64>>>) -> (usize, Option<(String, usize)>) {
    match list.value.last() {
        Some(last) => (last.seq, Some((last.value.to_string(), 1))),
        None => (list.seq, None),
    }
}

/// The own names of `fam`'s rows (`None` for a row without one; empty when the family gives
/// none): one per row, each non-empty and without control characters, else a located problem.
fn row_names(fam: &FamilySpec) -> Result<Vec<Option<&str>>, Problem> {
    let Some(names) = &fam.names else {
        return Ok(Vec::new());
    };
    let n = fam.rows.len();
    if names.value.len() != n {
        let found = format!("{} names", names.value.len());
        return Err(bad_value(
            names.seq,
            format!("one name per row ({n}), null for none"),
            found,
            None,
        ));
    }
    let mut out = Vec::with_capacity(n);
    for name in &names.value {
        if let Some(l) = name {
            if let Some(p) = control_char("row name", l.seq, &l.value) {
                return Err(p);
            }
            if l.value.is_empty() {
                return Err(bad_value(
                    l.seq,
                    "a row name, or null".into(),
                    "\"\"".into(),
                    None,
                ));
            }
        }
        out.push(name.as_ref().map(|l| l.value.as_str()));
    }
    Ok(out)
}

fn bad_value(
    seq: usize,
    expected: String,
    found: String,
    needle: Option<(String, usize)>,
) -> Problem {
    problem(seq, GenericErrorKind::BadValue { expected, found }, needle)
}

/// Runs `read` with a fresh element counter, stopping with `stop_at` when given.
fn with_state<T>(stop_at: Option<(usize, String)>, read: impl FnOnce() -> T) -> T {
    READ.with(|r| {
        *r.borrow_mut() = ReadState { next: 0, stop_at };
    });
    let out = read();
    READ.with(|r| *r.borrow_mut() = ReadState::default());
    out
}

fn error(line: usize, column: usize, kind: GenericErrorKind) -> GenericError {
    GenericError { line, column, kind }
}

/// Reads a generic model from JSON (see the module docs). Costs: one pass to read, one to
/// check; a second read only for a bad file.
pub fn parse_json(text: &str) -> Result<Model, GenericError> {
    let parsed = with_state(None, || serde_json::from_str::<ModelFile>(text));
    let model_file = parsed.map_err(|e| {
        let kind = if e.is_eof() && text.trim().is_empty() {
            GenericErrorKind::Missing("model")
        } else {
            GenericErrorKind::Syntax(crate::suggest::serde_hint(&json_message(&e)))
        };
        error(e.line().max(1), e.column().max(1), kind)
    })?;
    build(model_file).map_err(|p| {
        let located = with_state(Some((p.seq, p.kind.to_string())), || {
            serde_json::from_str::<ModelFile>(text)
        });
        match located {
            Err(e) if p.seq != usize::MAX => {
                let number = p.needle.as_ref().filter(|(n, _)| n.parse::<i64>().is_ok());
                let column = number
                    .and_then(|(n, _)| number_before(text, e.line(), e.column(), n))
                    .unwrap_or_else(|| json_token_start(text, e.line(), e.column()));
                error(e.line(), column, p.kind)
            }
            _ => error(1, 1, p.kind),
        }
    })
}

/// Reads a generic model from TOML (see the module docs), at the same costs as JSON.
pub fn parse_toml(text: &str) -> Result<Model, GenericError> {
    let at = |e: &toml::de::Error| {
        let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        (line, column)
    };
    let parsed = with_state(None, || toml::from_str::<ModelFile>(text));
    let model_file = parsed.map_err(|e| {
        let (line, column) = at(&e);
        let kind = if text.trim().is_empty() {
            GenericErrorKind::Missing("model")
        } else {
            GenericErrorKind::Syntax(crate::suggest::serde_hint(e.message().trim()))
        };
        error(line, column, kind)
    })?;
    build(model_file).map_err(|p| {
        let located = with_state(Some((p.seq, p.kind.to_string())), || {
            toml::from_str::<ModelFile>(text)
        });
        match located {
            Err(e) if p.seq != usize::MAX => {
                // toml reports the span of the enclosing value; look for the element inside it.
                let offset = e.span().map_or(0, |span| {
                    let inside = text.get(span.clone()).unwrap_or("");
                    p.needle
                        .as_ref()
                        .and_then(|(needle, nth)| {
                            let single = needle.replace('"', "'");
                            let found = [needle.as_str(), single.as_str()]
                                .into_iter()
                                .find_map(|n| inside.match_indices(n).nth(nth - 1).map(|(i, _)| i));
                            found
                        })
                        .map_or(span.start, |i| span.start + i)
                });
                let (line, column) = line_col(text, offset);
                error(line, column, p.kind)
            }
            _ => error(1, 1, p.kind),
        }
    })
}

fn model_error(e: ModelError) -> GenericErrorKind {
    GenericErrorKind::Model(Box::new(e))
}

#[cfg(test)]
mod tests;
