//! The JSON form of a [`Model`]: labelled variables, rows by family, objective; and reading it
//! back with the builder's checks.

use super::kind::is_default_hints;
use crate::model::objective::ObjectiveRepr;
use crate::model::{
    Constraint, Coord, Derived, Family, Model, ModelBuilder, ModelHints, PuzzleKind, RowId, VarId,
};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A variable as the serialized model shows it: its label and its coordinates.
#[derive(Serialize)]
pub(super) struct LabelledVariable<'a> {
    pub(super) label: Cow<'a, str>,
    pub(super) coord: Coord,
}

/// The serialized form of a model (as `zeroone run --export-models` writes it): name, kind,
/// every variable with its label, families, rows and givens.
#[derive(Serialize)]
pub(super) struct ModelRepr<'a> {
    pub(super) name: &'a str,
    pub(super) kind: &'a PuzzleKind,
    #[serde(skip_serializing_if = "is_default_hints")]
    pub(super) hints: &'a ModelHints,
    pub(super) variables: Vec<LabelledVariable<'a>>,
    pub(super) families: &'a [Family],
    pub(super) constraints: &'a [Constraint],
    /// The rows' own names, `[row, name]` for the named rows (left out when none is named).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) row_names: Vec<(RowId, &'a str)>,
    pub(super) givens: &'a [VarId],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) objective: Option<ObjectiveRepr>,
    /// What the last variables derive from (left out when none is derived).
    #[serde(skip_serializing_if = "<[Derived]>::is_empty")]
    pub(super) derived: &'a [Derived],
    /// The variables a count is projected onto (left out when it is over all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) projection: Option<&'a [VarId]>,
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
            row_names: self.shape.row_labels.iter().collect(),
            givens: &self.givens,
            objective: self.objective().map(ObjectiveRepr::from),
            derived: &self.shape.derived,
            projection: self.count_projection(),
        }
        .serialize(serializer)
    }
}

/// The serialized form read back (worker processes receive their models this way): the same
/// fields as [`ModelRepr`], owned.
#[derive(Deserialize)]
pub(super) struct OwnedModelRepr {
    pub(super) name: String,
    pub(super) kind: PuzzleKind,
    #[serde(default)]
    pub(super) hints: ModelHints,
    pub(super) variables: Vec<OwnedVariable>,
    pub(super) families: Vec<Family>,
    pub(super) constraints: Vec<Constraint>,
    #[serde(default)]
    pub(super) row_names: Vec<(RowId, String)>,
    pub(super) givens: Vec<VarId>,
    #[serde(default)]
    pub(super) objective: Option<ObjectiveRepr>,
    #[serde(default)]
    pub(super) derived: Vec<Derived>,
    #[serde(default)]
    pub(super) projection: Option<Vec<VarId>>,
}

#[derive(Deserialize)]
pub(super) struct OwnedVariable {
    pub(super) label: String,
    pub(super) coord: Coord,
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
        for (row, name) in repr.row_names {
            b.name_row(row, name);
        }
        for g in repr.givens {
            b.given(g);
        }
        if let Some(o) = repr.objective {
            b.objective(o.sense, o.costs);
        }
        // The tie rows of complements are among the rows already: only mark the variables.
        let own = b.variables.len().saturating_sub(repr.derived.len());
        b.derived = (own..).zip(repr.derived).collect();
        b.projection = repr.projection;
        b.build().map_err(D::Error::custom)
    }
}
