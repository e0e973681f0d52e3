//! The generic JSON model, in the schema `puzzle::parse` reads back
//! (`parse_json`, with located errors):
//!
//! ```json
//! {"name": "...",
//!  "variables": ["a", {"label": "r0c0", "row": 0, "col": 0}, {"label": "r0c0=1", "row": 0, "col": 0, "value": 0}],
//!  "families": [{"name": "row", "sense": "exactly-one", "rows": [["r0c0", "r0c1"], ...]}, ...],
//!  "givens": ["r0c0"],
//!  "objective": {"sense": "minimize", "costs": {"a": 3}}}
//! ```
//!
//! A variable without puzzle geometry is just its label; one with a cell is a table with
//! `label`, `row`, `col` (and `value` for a cell holding a value). Rows and givens name
//! variables by label; `sense` (`exactly-one`, `at-most-one`, `exactly`, `at-most` or `at-least`)
//! holds for the whole family (or is a list with one per row, for a family that mixes
//! relations, as models read from OPB, LP and MPS have), with `rhs` (one number, or one per row; absent: 1) and `weights`
//! (the shape of `rows`; absent: all 1) for the general rows; `names` (one per row, `null` for
//! a row without one; absent when no row has one) keeps the rows' own names (LP, MPS). The
//! puzzle kind is not part of the schema: a model read back is [`crate::model::PuzzleKind::Generic`]
//! with everything else equal. Costs one pass over the nonzeros.

use serde::{Deserialize, Serialize};

use super::ExportError;
use crate::model::{Coord, Model, Sense};

/// One variable of the JSON model: a bare label, or a label with coordinates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonVariable {
    /// A variable with no puzzle geometry.
    Label(String),
    /// A variable at a cell (and value).
    Placed {
        /// Unique label; rows and givens refer to it.
        label: String,
        /// Row from the top, 0-based.
        row: usize,
        /// Column (hex: position in the row), 0-based.
        col: usize,
        /// Value index (Sudoku digit - 1), when the variable is a cell holding a value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<usize>,
    },
}

/// One family of the JSON model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonFamily {
    /// Family name.
    pub name: String,
    /// The sense of the family's rows, by name (`exactly-one`, `at-most-one`, `exactly`,
    /// `at-most`, `at-least`): one for every row, or one per row.
    pub sense: JsonSense,
    /// The right-hand side `k` for the general senses (absent: 1): one number for every row,
    /// or one per row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rhs: Option<JsonRhs>,
    /// Rows as lists of variable labels.
    pub rows: Vec<Vec<String>>,
    /// The weights of each row, in the shape of `rows`; absent when every weight is 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<Vec<u64>>>,
    /// Each row's own name (an LP or MPS row name; `null` for a row without one), one per
    /// row; absent when no row of the family has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<Option<String>>>,
}

/// The sense of a family's rows: one name for all (every family zeroone's puzzles build), or
/// one per row (a family that mixes relations, as OPB, LP and MPS files give).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonSense {
    /// Every row has this sense.
    Shared(String),
    /// Row `i` has sense `[i]`.
    PerRow(Vec<String>),
}

impl From<&str> for JsonSense {
    fn from(name: &str) -> JsonSense {
        JsonSense::Shared(name.to_string())
    }
}

/// The right-hand side of a family's rows: one `k` for all, or one per row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonRhs {
    /// Every row has this right-hand side.
    Shared(u64),
    /// Row `i` has right-hand side `[i]`.
    PerRow(Vec<u64>),
}

/// The generic JSON model (see the module docs for the schema).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonModel {
    /// Model name.
    pub name: String,
    /// Variables in id order.
    pub variables: Vec<JsonVariable>,
    /// Families in order.
    pub families: Vec<JsonFamily>,
    /// Labels of the variables fixed to 1.
    #[serde(default)]
    pub givens: Vec<String>,
    /// The objective, when the model has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<JsonObjective>,
}

/// The objective of the JSON model: `{"sense": "minimize", "costs": {"a": 3, "c": -2}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonObjective {
    /// `minimize` or `maximize`.
    pub sense: String,
    /// The nonzero costs by variable label (sorted by label; a variable not named costs 0).
    pub costs: std::collections::BTreeMap<String, i64>,
}

impl JsonModel {
    /// The JSON form of `model`: every model has one (a family that mixes relations gets one
    /// sense per row). The `Result` is kept for callers; it is always `Ok`.
    pub fn from_model(model: &Model) -> Result<JsonModel, ExportError> {
        let labels: Vec<_> = (0..model.num_variables()).map(|v| model.label(v)).collect();
        let mut families = Vec::new();
        for (id, f) in model.families().iter().enumerate() {
            families.push(family(model, id, &f.name, &labels));
        }
        Ok(JsonModel {
            name: model.name().to_string(),
            variables: model
                .variables()
                .iter()
                .zip(&labels)
                .map(|(v, label)| match v.coord {
                    Coord::Free => JsonVariable::Label(label.to_string()),
                    Coord::Cell { row, col } => JsonVariable::Placed {
                        label: label.to_string(),
                        row,
                        col,
                        value: None,
                    },
                    Coord::CellValue { row, col, value } => JsonVariable::Placed {
                        label: label.to_string(),
                        row,
                        col,
                        value: Some(value),
                    },
                })
                .collect(),
            families,
            givens: model
                .givens()
                .iter()
                .map(|&g| labels[g].to_string())
                .collect(),
            objective: model.objective().map(|o| JsonObjective {
                sense: o.sense().name().into(),
                costs: o.terms().map(|(v, c)| (labels[v].to_string(), c)).collect(),
            }),
        })
    }
}

/// Family `id` in the JSON schema. A family of exact-cover rows keeps each row's own name; a
/// family with any general row is written with the general name of its relation and its
/// right-hand sides. A family whose rows differ in relation (models read from OPB, LP, MPS put
/// every row in one family) gets one sense per row; the others keep one `sense`, as before.
fn family(
    model: &Model,
    id: usize,
    name: &str,
    labels: &[std::borrow::Cow<'_, str>],
) -> JsonFamily {
    let rows: Vec<Vec<String>> = (model.family_rows(id))
        .map(|c| c.vars.iter().map(|&v| labels[v].to_string()).collect())
        .collect();
    let rhs: Vec<u64> = model.family_rows(id).map(|c| c.sense.rhs()).collect();
    let unit = model.family_rows(id).all(|c| c.is_unit());
    let row_sense = |c: &crate::model::Constraint| match unit {
        true => c.sense,
        false => Sense::new(c.sense.relation(), c.sense.rhs()),
    };
    let names: Vec<&'static str> = model.family_rows(id).map(|c| row_sense(c).name()).collect();
    let sense = match names.first() {
        None => JsonSense::Shared(Sense::ExactlyOne.name().to_string()),
        Some(first) if names.iter().all(|n| n == first) => JsonSense::Shared(first.to_string()),
        Some(_) => JsonSense::PerRow(names.iter().map(|n| n.to_string()).collect()),
    };
    let weighted = model.family_rows(id).any(|c| c.weights.is_some());
    let shared = rhs.windows(2).all(|w| w[0] == w[1]);
    JsonFamily {
        name: name.to_string(),
        sense,
        rhs: match (unit, shared, rhs.first()) {
            (true, _, _) => None,
            (false, true, Some(&k)) => Some(JsonRhs::Shared(k)),
            (false, true, None) => Some(JsonRhs::Shared(1)),
            (false, false, _) => Some(JsonRhs::PerRow(rhs)),
        },
        rows,
        weights: weighted.then(|| {
            (model.family_rows(id))
                .map(|c| c.terms().map(|(_, w)| w).collect())
                .collect()
        }),
        names: row_names(model, id),
    }
}

/// The own names of family `id`'s rows (`None` for an unnamed row), or `None` when no row of
/// it has one. Costs a look-up per row, only for a model with named rows.
fn row_names(model: &Model, id: usize) -> Option<Vec<Option<String>>> {
    if !model.has_row_labels() {
        return None;
    }
    let rows = &model.families()[id].rows;
    let names: Vec<Option<String>> = (rows.iter())
        .map(|&r| model.row_label(r).map(str::to_string))
        .collect();
    names.iter().any(Option::is_some).then_some(names)
}

/// The model as pretty-printed JSON (one variable per line is not attempted; serde's pretty
/// form). Fails only if serde_json does.
pub fn to_json(model: &Model) -> Result<String, ExportError> {
    let mut text = serde_json::to_string_pretty(&JsonModel::from_model(model)?)?;
    text.push('\n');
    Ok(text)
}
