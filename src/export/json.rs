//! The generic JSON model, in the schema [`crate::puzzle::parse`] reads back
//! (`parse_json`, with located errors):
//!
//! ```json
//! {"name": "...",
//!  "variables": ["a", {"label": "r0c0", "row": 0, "col": 0}, {"label": "r0c0=1", "row": 0, "col": 0, "value": 0}],
//!  "families": [{"name": "row", "sense": "exactly-one", "rows": [["r0c0", "r0c1"], ...]}, ...],
//!  "givens": ["r0c0"]}
//! ```
//!
//! A variable without puzzle geometry is just its label; one with a cell is a table with
//! `label`, `row`, `col` (and `value` for a cell holding a value). Rows and givens name
//! variables by label; `sense` (`exactly-one` or `at-most-one`) holds for the whole family. The
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
    /// The sense of every row of the family.
    pub sense: Sense,
    /// Rows as lists of variable labels.
    pub rows: Vec<Vec<String>>,
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
}

impl JsonModel {
    /// The JSON form of `model`. Fails only when a family mixes senses.
    pub fn from_model(model: &Model) -> Result<JsonModel, ExportError> {
        let labels: Vec<_> = (0..model.num_variables()).map(|v| model.label(v)).collect();
        let mut families = Vec::new();
        for (id, f) in model.families().iter().enumerate() {
            let mut rows = Vec::new();
            let mut sense = None;
            for c in model.family_rows(id) {
                if sense.is_some_and(|s| s != c.sense) {
                    return Err(ExportError::MixedSenses {
                        family: f.name.clone(),
                    });
                }
                sense = Some(c.sense);
                rows.push(c.vars.iter().map(|&v| labels[v].to_string()).collect());
            }
            families.push(JsonFamily {
                name: f.name.clone(),
                sense: sense.unwrap_or(Sense::ExactlyOne),
                rows,
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
