//! `zeroone.Model`: a model read from a file, or built family by family from Python.
//!
//! A model being built is kept as the library's JSON model ([`JsonModel`], the schema of
//! `zeroone export --format json`) and turned into a [`Model`] by the library's own JSON
//! reader when it is first used, so every check and message is the library's. A model read
//! from a file is kept as the [`Model`] itself (nothing is converted to solve it).

use std::collections::HashSet;

use pyo3::prelude::*;
use pyo3::types::PyType;

use zeroone::export::json::{JsonFamily, JsonModel, JsonObjective, JsonRhs, JsonVariable};
use zeroone::export::Names;
use zeroone::model::{parse_sense, Model};
use zeroone::puzzle::parse::generic::parse_json;

use crate::convert::{parse_error, ModelError};

/// A right-hand side as Python gives it: one number for every row, or one per row.
#[derive(FromPyObject)]
pub enum Rhs {
    /// `rhs=2`.
    Shared(u64),
    /// `rhs=[1, 2, 1]`.
    PerRow(Vec<u64>),
}

/// The Python `Model`. At least one of `built` and `draft` is present; editing drops `built`.
#[pyclass(module = "zeroone", name = "Model")]
pub struct PyModel {
    built: Option<Model>,
    draft: Option<Draft>,
}

/// A model being built: the JSON model and its labels (for checking rows as they are added).
struct Draft {
    json: JsonModel,
    labels: HashSet<String>,
}

impl PyModel {
    /// A Python model holding `model` as it is.
    pub fn from_model(model: Model) -> PyModel {
        PyModel {
            built: Some(model),
            draft: None,
        }
    }

    /// The library's model, built from the draft (and kept) when needed.
    pub fn model(&mut self) -> PyResult<Model> {
        if let Some(m) = &self.built {
            return Ok(m.clone());
        }
        let draft = self
            .draft
            .as_ref()
            .expect("a model has a draft or is built");
        let text =
            serde_json::to_string(&draft.json).map_err(|e| ModelError::new_err(e.to_string()))?;
        let model = parse_json(&text, &draft.json.name).map_err(|e| {
            // The JSON text is ours, not the user's: its line and column mean nothing to them.
            ModelError::new_err(format!("model '{}': {}", draft.json.name, e.kind))
        })?;
        self.built = Some(model.clone());
        Ok(model)
    }

    /// `(data, indices, indptr, shape)` of the rows x variables matrix in CSR form.
    #[allow(clippy::type_complexity)]
    fn csr(&mut self) -> PyResult<(Vec<u64>, Vec<usize>, Vec<usize>, (usize, usize))> {
        let model = self.model()?;
        let rows = model.constraints();
        let mut data = Vec::with_capacity(model.nonzeros());
        let mut indices = Vec::with_capacity(model.nonzeros());
        let mut indptr = Vec::with_capacity(rows.len() + 1);
        indptr.push(0);
        for c in rows {
            for (v, w) in c.terms() {
                indices.push(v);
                data.push(w);
            }
            indptr.push(indices.len());
        }
        Ok((data, indices, indptr, (rows.len(), model.num_variables())))
    }

    /// The draft to edit (made from the built model on the first edit); the built model is
    /// dropped, to be built again from the edited draft.
    fn draft_mut(&mut self) -> PyResult<&mut Draft> {
        if self.draft.is_none() {
            let model = self
                .built
                .as_ref()
                .expect("a model has a draft or is built");
            let json =
                JsonModel::from_model(model).map_err(|e| ModelError::new_err(e.to_string()))?;
            let labels = json
                .variables
                .iter()
                .map(|v| label_of(v).to_string())
                .collect();
            self.draft = Some(Draft { json, labels });
        }
        self.built = None;
        Ok(self.draft.as_mut().expect("made above"))
    }
}

fn label_of(v: &JsonVariable) -> &str {
    match v {
        JsonVariable::Label(l) => l,
        JsonVariable::Placed { label, .. } => label,
    }
}

#[pymethods]
impl PyModel {
    /// `Model(name)`: an empty model; add variables, then families of rows.
    #[new]
    fn new(name: String) -> PyModel {
        PyModel {
            built: None,
            draft: Some(Draft {
                json: JsonModel {
                    name,
                    variables: Vec::new(),
                    families: Vec::new(),
                    givens: Vec::new(),
                    objective: None,
                },
                labels: HashSet::new(),
            }),
        }
    }

    /// The model's name.
    #[getter]
    fn name(&self) -> String {
        match (&self.built, &self.draft) {
            (Some(m), _) => m.name().to_string(),
            (None, Some(d)) => d.json.name.clone(),
            (None, None) => String::new(),
        }
    }

    /// Adds 0-1 variables with these labels (unique), in order.
    fn add_variables(&mut self, labels: Vec<String>) -> PyResult<()> {
        let draft = self.draft_mut()?;
        for label in labels {
            if !draft.labels.insert(label.clone()) {
                return Err(ModelError::new_err(format!(
                    "two variables are labelled '{label}'"
                )));
            }
            draft.json.variables.push(JsonVariable::Label(label));
        }
        Ok(())
    }

    /// Adds a family of rows, each a list of variable labels, all with `sense` and `rhs`
    /// (one number, or one per row), optionally weighted (`weights` in the shape of `rows`).
    #[pyo3(signature = (name, sense, rows, rhs=Rhs::Shared(1), weights=None))]
    fn add_family(
        &mut self,
        name: String,
        sense: &str,
        rows: Vec<Vec<String>>,
        rhs: Rhs,
        weights: Option<Vec<Vec<u64>>>,
    ) -> PyResult<()> {
        let draft = self.draft_mut()?;
        let ks: Vec<u64> = match &rhs {
            Rhs::Shared(k) => vec![*k],
            Rhs::PerRow(ks) => ks.clone(),
        };
        for k in ks {
            parse_sense(sense, Some(k))
                .map_err(|e| ModelError::new_err(format!("family '{name}': {e}")))?;
        }
        for (i, row) in rows.iter().enumerate() {
            if let Some(bad) = row.iter().find(|l| !draft.labels.contains(*l)) {
                return Err(ModelError::new_err(format!(
                    "family '{name}': row {i} names '{bad}', which is not a variable of the model"
                )));
            }
        }
        draft.json.families.push(JsonFamily {
            name,
            sense: sense.into(),
            rhs: match rhs {
                Rhs::Shared(1) => None,
                Rhs::Shared(k) => Some(JsonRhs::Shared(k)),
                Rhs::PerRow(ks) => Some(JsonRhs::PerRow(ks)),
            },
            rows,
            weights,
        });
        Ok(())
    }

    /// Sets the objective: `sense` is `"minimize"` or `"maximize"`, `costs` maps variable labels
    /// to integer costs (a variable not named costs 0). Checked when the model is built.
    fn set_objective(
        &mut self,
        sense: String,
        costs: std::collections::BTreeMap<String, i64>,
    ) -> PyResult<()> {
        let draft = self.draft_mut()?;
        if let Some(bad) = costs.keys().find(|l| !draft.labels.contains(*l)) {
            return Err(ModelError::new_err(format!(
                "objective: '{bad}' is not a variable of the model"
            )));
        }
        draft.json.objective = Some(JsonObjective { sense, costs });
        Ok(())
    }

    /// Fixes these variables to 1 (givens).
    fn add_givens(&mut self, labels: Vec<String>) -> PyResult<()> {
        let draft = self.draft_mut()?;
        if let Some(bad) = labels.iter().find(|l| !draft.labels.contains(*l)) {
            return Err(ModelError::new_err(format!(
                "given '{bad}' is not a variable of the model"
            )));
        }
        draft.json.givens.extend(labels);
        Ok(())
    }

    /// The model in the JSON schema `zeroone export --format json` writes and every command
    /// reads.
    // `&mut self`: the model is built from the draft (and kept) on first use.
    #[allow(clippy::wrong_self_convention)]
    fn to_json(&mut self) -> PyResult<String> {
        let model = self.model()?;
        zeroone::export::json::to_json(&model).map_err(|e| ModelError::new_err(e.to_string()))
    }

    /// `Model.from_json(text)`: a model from that JSON schema; a malformed text raises
    /// `ParseError` with its line and column.
    #[classmethod]
    #[pyo3(signature = (text, path="<json>"))]
    fn from_json(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        text: &str,
        path: &str,
    ) -> PyResult<PyModel> {
        let model = parse_json(text, path).map_err(|e| parse_error(py, &e))?;
        Ok(PyModel::from_model(model))
    }

    /// The constraint matrix as a `scipy.sparse.csr_matrix`: one row per model row (in
    /// `row_labels()` order), one column per variable (`variable_labels()` order), the weights
    /// as values.
    fn matrix<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (data, indices, indptr, shape) = self.csr()?;
        py.import("scipy.sparse")?
            .getattr("csr_matrix")?
            .call1(((data, indices, indptr), shape))
    }

    /// Each row's sense and right-hand side, as `(relation, rhs)` with relation `=`, `<=` or
    /// `>=`.
    fn row_senses(&mut self) -> PyResult<Vec<(String, u64)>> {
        let model = self.model()?;
        Ok(model
            .row_senses()
            .iter()
            .map(|s| (s.relation().to_string(), s.rhs()))
            .collect())
    }

    /// One label per row, in matrix order: `family_index` (the LP and MPS exports' names).
    fn row_labels(&mut self) -> PyResult<Vec<String>> {
        Ok(Names::of(&self.model()?).rows)
    }

    /// One label per variable, in matrix (column) order.
    fn variable_labels(&mut self) -> PyResult<Vec<String>> {
        let model = self.model()?;
        Ok((0..model.num_variables())
            .map(|v| model.label(v).into_owned())
            .collect())
    }

    /// The family names, in order.
    fn families(&mut self) -> PyResult<Vec<String>> {
        Ok(self
            .model()?
            .families()
            .iter()
            .map(|f| f.name.clone())
            .collect())
    }

    /// The labels of the givens (variables fixed to 1).
    fn givens(&mut self) -> PyResult<Vec<String>> {
        let model = self.model()?;
        Ok(model
            .givens()
            .iter()
            .map(|&v| model.label(v).into_owned())
            .collect())
    }

    /// Number of variables.
    #[getter]
    fn num_variables(&mut self) -> PyResult<usize> {
        Ok(self.model()?.num_variables())
    }

    /// Number of rows.
    #[getter]
    fn num_rows(&mut self) -> PyResult<usize> {
        Ok(self.model()?.constraints().len())
    }

    fn __repr__(&mut self) -> String {
        match self.model() {
            Ok(m) => format!(
                "Model('{}', {} variables, {} rows, {} families)",
                m.name(),
                m.num_variables(),
                m.constraints().len(),
                m.families().len()
            ),
            Err(_) => format!("Model('{}', not buildable yet)", self.name()),
        }
    }
}
