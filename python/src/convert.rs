//! The library's errors as Python exceptions, and its statistics as Python dicts.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use zeroone::backend::BackendError as ZBackendError;
use zeroone::harness::HarnessError;
use zeroone::puzzle::parse::ParseError as ZParseError;

create_exception!(
    zeroone,
    ParseError,
    PyValueError,
    "A malformed or unreadable file: `.path`, `.line` and `.column` (1-based; None when the error concerns the whole file) and `.puzzle` (0-based index in the file, or None) say where."
);
create_exception!(
    zeroone,
    ModelError,
    PyValueError,
    "A model that cannot be built, or an edit that would make one (refused at the call, leaving the model as it was): an unknown label, an empty row, a bad weight or right-hand side, clashing givens."
);
create_exception!(
    zeroone,
    OptionError,
    PyValueError,
    "A backend option that is unknown, malformed or not used by the chosen backend (refused, never ignored), an unknown backend, or an ability it lacks."
);
create_exception!(
    zeroone,
    BackendError,
    PyRuntimeError,
    "A backend failed while handing over solutions (one was rejected by the verifier)."
);

/// A whole number as Python gave it: its value when it fits an `i64`, else its decimal text
/// (out of range either way, but named in the error). Any `int`-like object
/// (`numpy.int64`, ...) is read; anything else (a float, a string) raises `TypeError`.
pub enum Whole {
    /// The value.
    Fits(i64),
    /// A value beyond `i64`, as Python prints it.
    Huge(String),
}

impl<'py> FromPyObject<'py> for Whole {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        match ob.extract::<i64>() {
            Ok(v) => Ok(Whole::Fits(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => {
                Ok(Whole::Huge(ob.str()?.to_string()))
            }
            Err(e) => Err(e),
        }
    }
}

impl Whole {
    /// The value as an unsigned 64-bit number, or `what = VALUE: expected ...` as an
    /// `OptionError` (for `limit` and `seed`).
    pub fn unsigned(&self, what: &str) -> PyResult<u64> {
        let text = match self {
            Whole::Fits(v) => match u64::try_from(*v) {
                Ok(v) => return Ok(v),
                Err(_) => v.to_string(),
            },
            Whole::Huge(text) if !text.starts_with('-') => match text.parse::<u64>() {
                Ok(v) => return Ok(v),
                Err(_) => text.clone(),
            },
            Whole::Huge(text) => text.clone(),
        };
        Err(OptionError::new_err(format!(
            "{what} = {text}: expected a whole number from 0 to 2^64 - 1"
        )))
    }
}

/// `e` as a `ParseError` carrying its location.
pub fn parse_error(py: Python<'_>, e: &ZParseError) -> PyErr {
    located(
        py,
        e.to_string(),
        &e.file,
        (e.line > 0).then_some(e.line),
        (e.column > 0).then_some(e.column),
        e.puzzle,
    )
}

fn located(
    py: Python<'_>,
    message: String,
    path: &str,
    line: Option<usize>,
    column: Option<usize>,
    puzzle: Option<usize>,
) -> PyErr {
    let err = ParseError::new_err(message);
    let value = err.value(py);
    // Setting attributes on a fresh exception object cannot fail short of memory exhaustion.
    let _ = value.setattr("path", path);
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("puzzle", puzzle);
    err
}

/// A harness error: malformed experiment or record files are `ParseError`s (located when the
/// library says where), I/O failures `OSError`s, anything else `RuntimeError`.
pub fn harness_error(py: Python<'_>, e: &HarnessError) -> PyErr {
    match e {
        HarnessError::Experiment { file, location, .. } => {
            let mut parts = location.split(':').map(str::parse::<usize>);
            let (line, column) = match (parts.next(), parts.next()) {
                (Some(Ok(l)), Some(Ok(c))) => (Some(l), Some(c)),
                _ => (None, None),
            };
            located(
                py,
                e.to_string(),
                &file.display().to_string(),
                line,
                column,
                None,
            )
        }
        HarnessError::Records { file, line, .. } => located(
            py,
            e.to_string(),
            &file.display().to_string(),
            Some(*line),
            None,
            None,
        ),
        HarnessError::Source(_)
        | HarnessError::Busy { .. }
        | HarnessError::RecordsExist { .. }
        | HarnessError::NoRecords { .. } => PyValueError::new_err(e.to_string()),
        HarnessError::Peer { bad_input, .. } if *bad_input => PyValueError::new_err(e.to_string()),
        HarnessError::Io { .. } => PyOSError::new_err(e.to_string()),
        HarnessError::Plot { .. }
        | HarnessError::Threads { .. }
        | HarnessError::Poisoned { .. }
        | HarnessError::NoBinary { .. }
        | HarnessError::Peer { .. } => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A backend error raised before anything ran: unknown backend or option, a missing ability.
pub fn option_error(e: &ZBackendError) -> PyErr {
    OptionError::new_err(e.to_string())
}

/// A JSON value (statistics, extra figures) as the Python value it reads as.
pub fn json_to_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// A backend's statistics as a dict (the fields it tracks, as in the JSON output).
pub fn stats_to_py(py: Python<'_>, stats: &zeroone::backend::Stats) -> PyResult<PyObject> {
    let value = serde_json::to_value(stats).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    json_to_py(py, &value)
}
