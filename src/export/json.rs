//! The generic JSON model, in the schema [`crate::puzzle::parse`] reads back
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
//! holds for the whole family, with `rhs` (one number, or one per row; absent: 1) and `weights`
//! (the shape of `rows`; absent: all 1) for the general rows. The
//! puzzle kind is not part of the schema: a model read back is [`crate::model::PuzzleKind::Generic`]
//! with everything else equal. Costs one pass over the nonzeros.

use serde::{Deserialize, Serialize};

use super::ExportError;
use crate::model::{Coord, Model, Relation, Sense};

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
    /// The sense of every row of the family, by name (`exactly-one`, `at-most-one`, `exactly`,
    /// `at-most`, `at-least`).
    pub sense: String,
    /// The right-hand side `k` for the general senses (absent: 1): one number for every row,
    /// or one per row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rhs: Option<JsonRhs>,
    /// Rows as lists of variable labels.
    pub rows: Vec<Vec<String>>,
    /// The weights of each row, in the shape of `rows`; absent when every weight is 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<Vec<u64>>>,
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
    /// The JSON form of `model`. Fails only when a family mixes senses.
    pub fn from_model(model: &Model) -> Result<JsonModel, ExportError> {
        let labels: Vec<_> = (0..model.num_variables()).map(|v| model.label(v)).collect();
        let mut families = Vec::new();
        for (id, f) in model.families().iter().enumerate() {
            let mut rows = Vec::new();
            let mut relation: Option<Relation> = None;
            let mut rhs = Vec::new();
            for c in model.family_rows(id) {
                if relation.is_some_and(|r| r != c.sense.relation()) {
                    return Err(ExportError::MixedSenses {
                        family: f.name.clone(),
                    });
                }
                relation = Some(c.sense.relation());
                rhs.push(c.sense.rhs());
                rows.push(c.vars.iter().map(|&v| labels[v].to_string()).collect());
            }
            // All exact-cover rows keep their own name; a family with any general row is
            // written with the general name of its relation and its right-hand sides.
            let unit = model.family_rows(id).all(|c| c.is_unit());
            let sense = match (unit, model.family_rows(id).next()) {
                (true, Some(c)) => c.sense,
                (_, None) => Sense::ExactlyOne,
                (false, Some(c)) => Sense::new(c.sense.relation(), c.sense.rhs()),
            };
            let weighted = model.family_rows(id).any(|c| c.weights.is_some());
            let shared = rhs.windows(2).all(|w| w[0] == w[1]);
            families.push(JsonFamily {
                name: f.name.clone(),
                sense: sense.name().to_string(),
                rhs: match (unit, shared) {
                    (true, _) => None,
                    (false, true) => Some(JsonRhs::Shared(sense.rhs())),
                    (false, false) => Some(JsonRhs::PerRow(rhs)),
                },
                rows,
                weights: weighted.then(|| {
                    (model.family_rows(id))
                        .map(|c| c.terms().map(|(_, w)| w).collect())
                        .collect()
                }),
            });
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

/// The model as pretty-printed JSON (one variable per line is not attempted; serde's pretty
/// form). Fails only when a family mixes senses.
pub fn to_json(model: &Model) -> Result<String, ExportError> {
    let mut text = serde_json::to_string_pretty(&JsonModel::from_model(model)?)?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PuzzleKind;
    use crate::puzzle::parse::generic::parse_json;
    use crate::puzzle::{QueensBoard, Sudoku};

    #[test]
    fn queens_round_trips_through_the_generic_reader() {
        let m = QueensBoard::bare(4).to_model("q4");
        let text = to_json(&m).unwrap();
        assert!(text.contains("\"sense\": \"at-most-one\""));
        let back = parse_json(&text, "q4.json").unwrap();
        assert_eq!(back.kind(), &PuzzleKind::Generic);
        assert_eq!(back.name(), "q4");
        assert_eq!(back.variables(), m.variables());
        assert_eq!(back.constraints(), m.constraints());
        assert_eq!(back.families(), m.families());
    }

    #[test]
    fn sudoku_givens_and_values_round_trip() {
        let mut cells = vec![None; 16];
        cells[5] = Some(2);
        let m = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
        let j = JsonModel::from_model(&m).unwrap();
        assert_eq!(j.givens, vec!["r1c1=3".to_string()]);
        let back = parse_json(&to_json(&m).unwrap(), "s.json").unwrap();
        assert_eq!(back.givens(), m.givens());
        assert_eq!(back.variables(), m.variables());
    }

    #[test]
    fn a_family_mixing_senses_is_refused() {
        use crate::model::{ModelBuilder, PuzzleKind};
        let mut b = ModelBuilder::new("mixed", PuzzleKind::Generic);
        let x = b.variable("x", Coord::Free);
        let y = b.variable("y", Coord::Free);
        let f = b.family("both");
        b.row(f, vec![x, y], Sense::ExactlyOne);
        b.row(f, vec![x], Sense::AtMostOne);
        let m = b.build().unwrap();
        let err = to_json(&m).unwrap_err();
        assert!(matches!(err, ExportError::MixedSenses { ref family } if family == "both"));
    }
}
