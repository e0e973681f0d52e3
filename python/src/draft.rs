//! A model being built from Python ([`Draft`]), and the checks every edit passes at the call:
//! an edit that would make the model unbuildable raises `ModelError` and leaves the draft as it
//! was, so one mistake never makes a model unusable. The checks are the library's own where it
//! has them ([`Constraint::check`], [`parse_sense`], [`ObjectiveSense::parse`], the errors of
//! [`ZModelError`]); what only a family as Python passes it can get wrong (lists of the wrong
//! length, numbers beyond 64 bits) is checked here.

use std::collections::{BTreeMap, HashMap, HashSet};

use pyo3::prelude::*;

use zeroone::export::json::{JsonFamily, JsonModel, JsonObjective, JsonRhs, JsonVariable};
use zeroone::model::{
    parse_sense, Constraint, ModelError as ZModelError, ObjectiveSense, Sense, MAX_COEFFICIENT,
    MAX_COST,
};
use zeroone::read::generic::GenericErrorKind;

use crate::convert::{ModelError, Whole};

/// A right-hand side as Python gives it: one number for every row, or one per row.
#[derive(FromPyObject)]
pub enum Rhs {
    /// `rhs=2`.
    Shared(Whole),
    /// `rhs=[1, 2, 1]`.
    PerRow(Vec<Whole>),
}

/// A family as Python passes it to `Model.add_family`, every number converted but none checked.
pub struct FamilyArgs {
    /// The family's name.
    pub name: String,
    /// The sense as written.
    pub sense: String,
    /// Each row's variable labels.
    pub rows: Vec<Vec<String>>,
    /// The right-hand side(s).
    pub rhs: Rhs,
    /// Each row's weights, when given.
    pub weights: Option<Vec<Vec<Whole>>>,
}

/// The model being built: the library's JSON model (read by the library's own JSON reader when
/// the model is used), and the look-ups the checks need.
pub struct Draft {
    /// The model so far. Every edit is checked before it is made, so it builds as soon as it
    /// has a variable.
    pub json: JsonModel,
    /// The id of each variable, by label.
    ids: HashMap<String, usize>,
    /// The family names so far.
    family_names: HashSet<String>,
}

/// A writer that keeps only the count of bytes written (a text's length, not the text).
struct Counted(u64);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn label_of(v: &JsonVariable) -> &str {
    match v {
        JsonVariable::Label(l) => l,
        JsonVariable::Placed { label, .. } => label,
    }
}

fn model_error(e: impl ToString) -> PyErr {
    ModelError::new_err(e.to_string())
}

/// Refuses a label or family name holding a control character (newline, tab, ...), with the
/// message the JSON reader gives (it refuses them: they would break the line-based exports).
fn no_control_char(what: &'static str, text: &str) -> PyResult<()> {
    if text.chars().any(char::is_control) {
        let found = text.to_string();
        return Err(model_error(GenericErrorKind::ControlChar { what, found }));
    }
    Ok(())
}

/// `value` as a row coefficient (`what`: `weight` or `right-hand side`, from `low`) of the
/// rows `place` names. Refuses here what is below 0 or above 2^53 (so a right-hand side shared
/// by no row is checked too); [`Constraint::check`] refuses the rest (a zero weight, a total
/// above 2^53), with the same words.
fn coefficient(value: &Whole, what: &str, low: u64, place: &str) -> PyResult<u64> {
    let text = match value {
        Whole::Fits(v) => match u64::try_from(*v) {
            Ok(v) if v <= MAX_COEFFICIENT => return Ok(v),
            _ => v.to_string(),
        },
        Whole::Huge(text) => text.clone(),
    };
    let bound = match text.starts_with('-') {
        true => format!("below {low}"),
        false => format!("above the limit 2^53 = {MAX_COEFFICIENT}"),
    };
    Err(ModelError::new_err(format!(
        "{place} has a {what} of {text}, {bound}"
    )))
}

impl Draft {
    /// An empty model called `name`.
    pub fn new(name: String) -> Draft {
        Draft::from_json(JsonModel {
            name,
            variables: Vec::new(),
            families: Vec::new(),
            givens: Vec::new(),
            objective: None,
        })
    }

    /// The draft of a model in the JSON form (one that builds). Cost: one hash per label and
    /// family name.
    pub fn from_json(json: JsonModel) -> Draft {
        let ids = (json.variables.iter().enumerate())
            .map(|(v, x)| (label_of(x).to_string(), v))
            .collect();
        let family_names = json.families.iter().map(|f| f.name.clone()).collect();
        Draft {
            json,
            ids,
            family_names,
        }
    }

    /// The id of the variable labelled `label`, or an error naming `place`.
    pub fn id(&self, label: &str, place: impl FnOnce() -> String) -> PyResult<usize> {
        self.ids.get(label).copied().ok_or_else(|| {
            ModelError::new_err(format!(
                "{}: '{label}' is not a variable of the model",
                place()
            ))
        })
    }

    /// The draft's variables and nonzeros. Cost: one pass over the families.
    pub fn size(&self) -> (usize, usize) {
        let nonzeros = (self.json.families.iter())
            .flat_map(|f| f.rows.iter())
            .map(Vec::len)
            .sum();
        (self.json.variables.len(), nonzeros)
    }

    /// Refuses (`MemoryError`) to build a model this process cannot hold beside the draft: its
    /// JSON text, the model, and the copy kept. Cost: the text's length, counted without
    /// writing it, and one pass over the families.
    pub fn ensure_buildable(&self) -> PyResult<()> {
        let mut counter = Counted(0);
        serde_json::to_writer(&mut counter, &self.json).map_err(model_error)?;
        let (variables, nonzeros) = self.size();
        let model = crate::memory::model_floor(variables, nonzeros);
        let need = (2 * counter.0).saturating_add(2 * model);
        crate::memory::ensure(need, || {
            format!(
                "building model '{}' ({variables} variables, {nonzeros} nonzeros)",
                self.json.name
            )
        })
    }

    fn label(&self, v: usize) -> String {
        self.json.variables.get(v).map_or("?", label_of).to_string()
    }

    /// Adds these variables, all or none: refuses a label already used (in the model or twice
    /// in `labels`) or holding a control character.
    pub fn add_variables(&mut self, labels: Vec<String>) -> PyResult<()> {
        let mut new = HashSet::with_capacity(labels.len());
        for label in &labels {
            no_control_char("variable label", label)?;
            if self.ids.contains_key(label) || !new.insert(label.as_str()) {
                return Err(model_error(ZModelError::DuplicateLabel(label.clone())));
            }
        }
        for label in labels {
            self.ids.insert(label.clone(), self.json.variables.len());
            self.json.variables.push(JsonVariable::Label(label));
        }
        Ok(())
    }

    /// Adds a family, or refuses it whole with the first thing wrong: a name in use or with a
    /// control character, an unknown sense, `rhs` or `weights` not in the shape of the rows, a
    /// number out of range, an empty row, a variable unknown or listed twice in a row, a zero
    /// weight, or a row the givens already overfill. Cost: one pass over the family.
    pub fn add_family(&mut self, family: FamilyArgs) -> PyResult<()> {
        let FamilyArgs {
            name,
            sense,
            rows,
            rhs,
            weights,
        } = family;
        no_control_char("family name", &name)?;
        if self.family_names.contains(&name) {
            return Err(model_error(ZModelError::DuplicateFamily(name)));
        }
        let place = |i: usize| format!("row {i} of family '{name}'");
        let whole = format!("family '{name}'");
        let sense_of = |k: u64, place: &str| {
            parse_sense(&sense, Some(k))
                .map_err(|e| ModelError::new_err(format!("{place}: expected {e}")))
        };
        // The sense's name is checked first, whatever the right-hand side.
        let canonical = sense_of(1, &whole)?.name();
        let (ks, senses): (Vec<u64>, Vec<Sense>) = match &rhs {
            Rhs::Shared(k) => {
                let k = coefficient(k, "right-hand side", 0, &whole)?;
                let sense = sense_of(k, &whole)?;
                (vec![k], vec![sense; rows.len()])
            }
            Rhs::PerRow(ks) if ks.len() != rows.len() => {
                return Err(ModelError::new_err(format!(
                    "family '{name}' has {} rows but {} right-hand sides (one per row, or one number for all)",
                    rows.len(),
                    ks.len()
                )))
            }
            Rhs::PerRow(ks) => {
                let ks = (ks.iter().enumerate())
                    .map(|(i, k)| coefficient(k, "right-hand side", 0, &place(i)))
                    .collect::<PyResult<Vec<u64>>>()?;
                let senses = (ks.iter().enumerate())
                    .map(|(i, &k)| sense_of(k, &place(i)))
                    .collect::<PyResult<_>>()?;
                (ks, senses)
            }
        };
        let weights = self.weights(&name, rows.len(), weights)?;
        for (i, (row, &sense)) in rows.iter().zip(&senses).enumerate() {
            let row_weights = weights.as_ref().and_then(|w| w.get(i));
            self.check_row(&name, i, row, row_weights, sense)?;
        }
        self.family_names.insert(name.clone());
        self.json.families.push(JsonFamily {
            name,
            sense: canonical.into(),
            rhs: match (rhs, ks.as_slice()) {
                (Rhs::Shared(_), [1]) => None,
                (Rhs::Shared(_), &[k]) => Some(JsonRhs::Shared(k)),
                _ => Some(JsonRhs::PerRow(ks)),
            },
            rows,
            weights,
            names: None,
        });
        Ok(())
    }

    /// The weights of a family of `rows` rows, as numbers: one list per row (each row's own
    /// length is checked with the row).
    fn weights(
        &self,
        name: &str,
        rows: usize,
        weights: Option<Vec<Vec<Whole>>>,
    ) -> PyResult<Option<Vec<Vec<u64>>>> {
        let Some(weights) = weights else {
            return Ok(None);
        };
        if weights.len() != rows {
            return Err(ModelError::new_err(format!(
                "family '{name}' has {rows} rows but {} weight lists (one per row, in the shape of the rows)",
                weights.len()
            )));
        }
        (weights.iter().enumerate())
            .map(|(i, row)| {
                let place = format!("row {i} of family '{name}'");
                (row.iter())
                    .map(|w| coefficient(w, "weight", 1, &place))
                    .collect()
            })
            .collect::<PyResult<_>>()
            .map(Some)
    }

    /// Checks row `index` of family `family` as the model will hold it
    /// ([`Constraint::check`]), and against the givens so far.
    fn check_row(
        &self,
        family: &str,
        index: usize,
        labels: &[String],
        weights: Option<&Vec<u64>>,
        sense: Sense,
    ) -> PyResult<()> {
        let place = || format!("row {index} of family '{family}'");
        let vars = (labels.iter())
            .map(|l| self.id(l, place))
            .collect::<PyResult<Vec<usize>>>()?;
        let row = Constraint::new(0, index, vars, weights.cloned(), sense);
        let variables = self.json.variables.len();
        row.check(family, variables, &|v| self.label(v))
            .map_err(model_error)?;
        self.check_givens_fit(family, &row)
    }

    /// Refuses a row the givens so far already overfill (two givens in an exact-cover row, or
    /// givens summing past its bound), with the error the model would give.
    fn check_givens_fit(&self, family: &str, row: &Constraint) -> PyResult<()> {
        if self.json.givens.is_empty() {
            return Ok(());
        }
        let givens: HashSet<usize> = (self.json.givens.iter())
            .filter_map(|l| self.ids.get(l).copied())
            .collect();
        let on: Vec<(usize, u64)> = row.terms().filter(|(v, _)| givens.contains(v)).collect();
        let sum: u64 = on.iter().map(|&(_, w)| w).sum();
        if row.sense.bounds().1.is_none_or(|high| sum <= high) {
            return Ok(());
        }
        let (family, index) = (family.to_string(), row.index);
        Err(model_error(match on.as_slice() {
            // An exact-cover row (unit weights, bound 1) overfilled: two givens at least.
            [(first, _), (second, _), ..] if row.is_unit() => ZModelError::ClashingGivens {
                first: self.label(*first),
                second: self.label(*second),
                family,
                index,
            },
            _ => ZModelError::OverfullRow {
                givens: (on.iter().map(|&(v, _)| self.label(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                sum,
                sense: row.sense.to_string(),
                family,
                index,
            },
        }))
    }

    /// Sets the objective, or refuses it whole: an unknown sense (see
    /// [`ObjectiveSense::parse`]), an unknown label, a cost outside `-2^53..=2^53`.
    pub fn set_objective(&mut self, sense: &str, costs: BTreeMap<String, Whole>) -> PyResult<()> {
        let parsed = ObjectiveSense::parse(sense).ok_or_else(|| {
            ModelError::new_err(format!(
                "objective: expected a sense minimize or maximize (any case; also minimise, maximise, min, max), found '{sense}'"
            ))
        })?;
        let mut checked = BTreeMap::new();
        for (label, cost) in costs {
            self.id(&label, || "objective".to_string())?;
            let cost = match cost {
                Whole::Fits(c) if (-MAX_COST..=MAX_COST).contains(&c) => c,
                Whole::Fits(c) => return Err(cost_out_of_range(&label, &c.to_string())),
                Whole::Huge(text) => return Err(cost_out_of_range(&label, &text)),
            };
            checked.insert(label, cost);
        }
        self.json.objective = Some(JsonObjective {
            sense: parsed.name().to_string(),
            costs: checked,
        });
        Ok(())
    }
}

fn cost_out_of_range(label: &str, cost: &str) -> PyErr {
    ModelError::new_err(format!(
        "objective: the cost of '{label}' is {cost}, outside -2^53..=2^53"
    ))
}
