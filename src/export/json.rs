//! The generic JSON model: the serde form of [`JsonModel`],
//!
//! ```json
//! {"name": "...",
//!  "variables": [{"label": "r0c0", "coord": {"cell": {"row": 0, "col": 0}}}, ...],
//!  "families": [{"name": "row", "sense": "exactly-one", "rows": [["r0c0", "r0c1"], ...]}, ...],
//!  "givens": ["r0c0"]}
//! ```
//!
//! Rows and givens name variables by label; `coord` is left out for variables without puzzle
//! geometry; `sense` is `exactly-one` or `at-most-one` for the whole family. The puzzle kind is
//! not part of the schema: a model read back is [`PuzzleKind::Generic`] with everything else
//! equal. Costs one pass over the nonzeros (plus a label lookup table when reading back).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::ExportError;
use crate::model::{Coord, Model, ModelBuilder, ModelError, PuzzleKind, Sense};

/// One variable of the JSON model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonVariable {
    /// Unique label; rows and givens refer to it.
    pub label: String,
    /// Puzzle coordinate, absent for [`Coord::Free`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coord: Option<Coord>,
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

/// Errors turning a [`JsonModel`] back into a [`Model`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonModelError {
    /// A row or given names a label no variable has.
    #[error("{place} names '{label}', which is not a variable label")]
    UnknownLabel {
        /// `row 3 of family 'x'` or `givens`.
        place: String,
        /// The label.
        label: String,
    },
    /// The model itself is invalid (duplicate labels, empty rows, clashing givens, ...).
    #[error(transparent)]
    Model(#[from] ModelError),
}

impl JsonModel {
    /// The JSON form of `model`. Fails only when a family mixes senses.
    pub fn from_model(model: &Model) -> Result<JsonModel, ExportError> {
        let labels: Vec<&str> = model.variables().iter().map(|v| v.label.as_str()).collect();
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
                .map(|v| JsonVariable {
                    label: v.label.clone(),
                    coord: (v.coord != Coord::Free).then_some(v.coord),
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

    /// The model this JSON describes, of kind [`PuzzleKind::Generic`]. The exact inverse of
    /// [`JsonModel::from_model`] up to the kind.
    pub fn to_model(&self) -> Result<Model, JsonModelError> {
        let mut b = ModelBuilder::new(self.name.clone(), PuzzleKind::Generic);
        let mut ids = HashMap::new();
        for v in &self.variables {
            let id = b.variable(v.label.clone(), v.coord.unwrap_or(Coord::Free));
            ids.insert(v.label.as_str(), id);
        }
        let lookup = |label: &String, place: &dyn Fn() -> String| {
            ids.get(label.as_str())
                .copied()
                .ok_or_else(|| JsonModelError::UnknownLabel {
                    place: place(),
                    label: label.clone(),
                })
        };
        for f in &self.families {
            let fid = b.family(f.name.clone());
            for (i, row) in f.rows.iter().enumerate() {
                let place = || format!("row {i} of family '{}'", f.name);
                let vars = row
                    .iter()
                    .map(|l| lookup(l, &place))
                    .collect::<Result<Vec<_>, _>>()?;
                b.row(fid, vars, f.sense);
            }
        }
        for g in &self.givens {
            b.given(lookup(g, &|| "givens".to_string())?);
        }
        Ok(b.build()?)
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
    use crate::puzzle::{QueensBoard, Sudoku};

    #[test]
    fn queens_round_trips_up_to_the_kind() {
        let m = QueensBoard::bare(4).to_model("q4");
        let text = to_json(&m).unwrap();
        assert!(text.contains("\"sense\": \"at-most-one\""));
        let back: JsonModel = serde_json::from_str(&text).unwrap();
        let back = back.to_model().unwrap();
        assert_eq!(back.kind(), PuzzleKind::Generic);
        assert_eq!(back.variables(), m.variables());
        assert_eq!(back.constraints(), m.constraints());
        assert_eq!(back.families(), m.families());
    }

    #[test]
    fn givens_round_trip_and_unknown_labels_are_named() {
        let mut cells = vec![None; 16];
        cells[5] = Some(2);
        let m = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
        let mut j = JsonModel::from_model(&m).unwrap();
        assert_eq!(j.givens, vec!["r1c1=3".to_string()]);
        assert_eq!(j.to_model().unwrap().givens(), m.givens());
        j.families[1].rows[2][0] = "nowhere".into();
        let err = j.to_model().unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 2 of family 'row-digit' names 'nowhere', which is not a variable label"
        );
    }
}
