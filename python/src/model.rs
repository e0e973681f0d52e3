//! `zeroone.Model`: a model read from a file, or built family by family from Python.
//!
//! A model being built is kept as a [`Draft`] (the library's JSON model, the schema of
//! `zeroone export --format json`) and turned into a [`Model`] by the library's own JSON
//! reader when it is first used. Every edit is checked at the call ([`crate::draft`]): a
//! refused edit raises `ModelError` and leaves the model as it was. A model read from a file
//! is kept as the [`Model`] itself (nothing is converted to solve it).
//!
//! Threads: the Python class is `frozen` (PyO3 never lends it out mutably, so no call can
//! meet `Already borrowed`); its state sits behind a mutex held only for an edit or a
//! look-up, never while a backend runs (a run takes a copy of the built model, which shares
//! its rows by reference). So any number of threads may solve, count and stream one model at
//! once, and an edit made meanwhile applies to the runs started after it. Every Python
//! argument is converted before the mutex is taken and no Python code runs while it is held,
//! so it cannot deadlock with the GIL.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::PyType;

use zeroone::export::json::JsonModel;
use zeroone::export::Names;
use zeroone::model::Model;
use zeroone::puzzle::parse::ParseError;
use zeroone::read::generic::parse_json;

use crate::convert::{parse_error, ModelError, OptionError, Whole};
use crate::draft::{Draft, FamilyArgs, Rhs};

/// What one variable added from Python holds beside its label's text (its label string, its
/// entry in the label look-up, the check's set, the draft's entry): a floor, with a margin.
const VARIABLE_BYTES: u64 = 160;

/// What one row of a family added from Python holds beside its entries (two lists, its sense
/// and right-hand side).
const ROW_BYTES: u64 = 64;

/// What one entry (a label in a row) holds beside its text: its string, its id in the check.
const ENTRY_BYTES: u64 = 48;

/// The model built from JSON text, as a multiple of the text: a floor (a label of a few
/// characters costs some 70 bytes once built and looked up), with a margin.
const JSON_TEXT_FACTOR: u64 = 8;

/// The Python `Model`.
#[pyclass(module = "zeroone", name = "Model", frozen)]
pub struct PyModel {
    state: Mutex<State>,
}

/// At least one of `built` and `draft` is present; an edit drops `built` (built again from
/// the draft when next used).
struct State {
    built: Option<Model>,
    draft: Option<Draft>,
}

impl State {
    /// The library's model, built from the draft (and kept) when needed. Costs a clone of the
    /// built model (its rows are shared), or one read of the draft's JSON.
    fn model(&mut self) -> PyResult<Model> {
        if let Some(m) = &self.built {
            return Ok(m.clone());
        }
        let Some(draft) = &self.draft else {
            return Err(ModelError::new_err(
                "the model has neither rows nor a draft",
            ));
        };
        draft.ensure_buildable()?;
        let text =
            serde_json::to_string(&draft.json).map_err(|e| ModelError::new_err(e.to_string()))?;
        let model = parse_json(&text).map_err(|e| {
            // The JSON text is ours, not the user's: its line and column mean nothing to them.
            ModelError::new_err(format!("model '{}': {}", draft.json.name, e.kind))
        })?;
        self.built = Some(model.clone());
        Ok(model)
    }

    /// The draft, made from the built model on the first edit. The built model is kept: the
    /// caller drops it once its edit is made.
    fn draft(&mut self) -> PyResult<&mut Draft> {
        if self.draft.is_none() {
            let Some(model) = &self.built else {
                return Err(ModelError::new_err(
                    "the model has neither rows nor a draft",
                ));
            };
            let json =
                JsonModel::from_model(model).map_err(|e| ModelError::new_err(e.to_string()))?;
            self.draft = Some(Draft::from_json(json));
        }
        match &mut self.draft {
            Some(draft) => Ok(draft),
            None => Err(ModelError::new_err("the model has no draft")),
        }
    }

    /// Runs `edit` on the draft; once it succeeds, the built model is dropped.
    fn edit(&mut self, edit: impl FnOnce(&mut Draft) -> PyResult<()>) -> PyResult<()> {
        edit(self.draft()?)?;
        self.built = None;
        Ok(())
    }
}

impl PyModel {
    /// A Python model holding `model` as it is.
    pub fn from_model(model: Model) -> PyModel {
        PyModel::with_state(Some(model), None)
    }

    fn with_state(built: Option<Model>, draft: Option<Draft>) -> PyModel {
        PyModel {
            state: Mutex::new(State { built, draft }),
        }
    }

    /// The state, locked. A panic while it was held (none is known) left it as the last edit
    /// did, so a poisoned lock is taken over.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The library's model (see [`State::model`]).
    pub fn model(&self) -> PyResult<Model> {
        self.state().model()
    }

    /// The model's variables and nonzeros, built or not, without copying it (what a run's
    /// memory check needs). Cost: one pass over the rows.
    pub fn size(&self) -> (usize, usize) {
        let state = self.state();
        match (&state.built, &state.draft) {
            (Some(m), _) => crate::memory::size_of(m),
            (None, Some(d)) => d.size(),
            (None, None) => (0, 0),
        }
    }

    /// `(data, indices, indptr, shape)` of the rows x variables matrix in CSR form.
    #[allow(clippy::type_complexity)]
    fn csr(&self) -> PyResult<(Vec<u64>, Vec<usize>, Vec<usize>, (usize, usize))> {
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
}

#[pymethods]
impl PyModel {
    /// `Model(name)`: an empty model; add variables, then families of rows.
    #[new]
    fn new(name: String) -> PyModel {
        PyModel::with_state(None, Some(Draft::new(name)))
    }

    /// The model's name.
    #[getter]
    fn name(&self) -> String {
        let state = self.state();
        match (&state.built, &state.draft) {
            (Some(m), _) => m.name().to_string(),
            (None, Some(d)) => d.json.name.clone(),
            (None, None) => String::new(),
        }
    }

    /// Adds 0-1 variables with these labels (unique, no control characters), in order: all of
    /// them, or none (`ModelError`).
    /// Checked against the memory this process can take before the labels are converted
    /// (`MemoryError`).
    fn add_variables(&self, labels: &Bound<'_, PyAny>) -> PyResult<()> {
        let (count, text) = crate::memory::lengths(labels)?;
        crate::memory::ensure(count * VARIABLE_BYTES + 3 * text, || {
            format!("adding {count} variables")
        })?;
        let labels: Vec<String> = labels.extract()?;
        self.state().edit(|d| d.add_variables(labels))
    }

    /// Adds a family of rows, each a list of variable labels, all with `sense` and `rhs`
    /// (one number, or one per row), optionally weighted (`weights` in the shape of `rows`).
    /// Checked whole at the call: a bad family raises `ModelError` and is not added.
    #[pyo3(signature = (name, sense, rows, rhs=Rhs::Shared(Whole::Fits(1)), weights=None))]
    fn add_family(
        &self,
        name: String,
        sense: String,
        rows: &Bound<'_, PyAny>,
        rhs: Rhs,
        weights: Option<Vec<Vec<Whole>>>,
    ) -> PyResult<()> {
        let (mut count, mut entries, mut text) = (0u64, 0u64, 0u64);
        for row in rows.try_iter()? {
            let (n, t) = crate::memory::lengths(&row?)?;
            (count, entries, text) = (count + 1, entries + n, text + t);
        }
        crate::memory::ensure(count * ROW_BYTES + entries * ENTRY_BYTES + 2 * text, || {
            format!("adding family '{name}' of {count} rows and {entries} entries")
        })?;
        let rows: Vec<Vec<String>> = rows.extract()?;
        let family = FamilyArgs {
            name,
            sense,
            rows,
            rhs,
            weights,
        };
        self.state().edit(|d| d.add_family(family))
    }

    /// Sets the objective: `sense` is `"minimize"` or `"maximize"` (any case; also
    /// `minimise`, `maximise`, `min`, `max`), `costs` maps variable labels to integer costs
    /// from -2^53 to 2^53 (a variable not named costs 0). Checked at the call (`ModelError`).
    fn set_objective(&self, sense: String, costs: BTreeMap<String, Whole>) -> PyResult<()> {
        self.state().edit(|d| d.set_objective(&sense, costs))
    }

    /// Fixes these variables to 1 (givens). Givens that clash (two in an exact-cover row, or
    /// summing past a row's bound) raise `ModelError` and none of them is added. Costs one
    /// build of the model when it is not built yet (kept for the next solve).
    fn add_givens(&self, labels: Vec<String>) -> PyResult<()> {
        let mut state = self.state();
        let model = state.model()?;
        let draft = state.draft()?;
        let mut ids = model.givens().to_vec();
        for label in &labels {
            ids.push(draft.id(label, || "given".to_string())?);
        }
        let with_givens = model
            .with_givens(model.name(), ids)
            .map_err(|e| ModelError::new_err(e.to_string()))?;
        draft.json.givens.extend(labels);
        state.built = Some(with_givens);
        Ok(())
    }

    /// The model in the JSON schema `zeroone export --format json` writes and every command
    /// reads.
    fn to_json(&self) -> PyResult<String> {
        let model = self.model()?;
        zeroone::export::json::to_json(&model).map_err(|e| ModelError::new_err(e.to_string()))
    }

    /// The model as `zeroone export --format FORMAT` writes it (`lp`, `mps`, `opb`, `cnf`,
    /// `json`, `xcc`; CNF with the CLI's default encodings). An unknown format raises
    /// `OptionError`; a model the format cannot express (weighted rows in XCC, an objective in
    /// CNF) raises `ModelError`. Cost: one pass over the nonzeros.
    fn export(&self, format: &str) -> PyResult<String> {
        let format: zeroone::export::Format = (format.parse())
            .map_err(|e: zeroone::export::ExportError| OptionError::new_err(e.to_string()))?;
        zeroone::export::render(&self.model()?, format)
            .map_err(|e| ModelError::new_err(e.to_string()))
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
        crate::memory::ensure((text.len() as u64).saturating_mul(JSON_TEXT_FACTOR), || {
            format!("building a model from {} bytes of JSON", text.len())
        })?;
        let model = parse_json(text)
            .map_err(|e| parse_error(py, &ParseError::in_generic_model(path, e)))?;
        Ok(PyModel::from_model(model))
    }

    /// The constraint matrix as a `scipy.sparse.csr_matrix`: one row per model row (in
    /// `row_labels()` order), one column per variable (`variable_labels()` order), the weights
    /// as values.
    fn matrix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (data, indices, indptr, shape) = self.csr()?;
        py.import("scipy.sparse")?
            .getattr("csr_matrix")?
            .call1(((data, indices, indptr), shape))
    }

    /// Each row's sense and right-hand side, as `(relation, rhs)` with relation `=`, `<=` or
    /// `>=`.
    fn row_senses(&self) -> PyResult<Vec<(String, u64)>> {
        let model = self.model()?;
        Ok(model
            .row_senses()
            .iter()
            .map(|s| (s.relation().to_string(), s.rhs()))
            .collect())
    }

    /// One label per row, in matrix order, as the LP and MPS exports name the rows: the row's
    /// own name when its file gave it one (an LP or MPS row name), else `family_index`.
    fn row_labels(&self) -> PyResult<Vec<String>> {
        Ok(Names::of(&self.model()?).rows)
    }

    /// One label per variable, in matrix (column) order.
    fn variable_labels(&self) -> PyResult<Vec<String>> {
        let model = self.model()?;
        Ok((0..model.num_variables())
            .map(|v| model.label(v).into_owned())
            .collect())
    }

    /// The family names, in order.
    fn families(&self) -> PyResult<Vec<String>> {
        Ok(self
            .model()?
            .families()
            .iter()
            .map(|f| f.name.clone())
            .collect())
    }

    /// The labels of the givens (variables fixed to 1).
    fn givens(&self) -> PyResult<Vec<String>> {
        let model = self.model()?;
        Ok(model
            .givens()
            .iter()
            .map(|&v| model.label(v).into_owned())
            .collect())
    }

    /// Number of variables.
    #[getter]
    fn num_variables(&self) -> PyResult<usize> {
        Ok(self.model()?.num_variables())
    }

    /// Number of rows.
    #[getter]
    fn num_rows(&self) -> PyResult<usize> {
        Ok(self.model()?.constraints().len())
    }

    fn __repr__(&self) -> String {
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
