//! The native part of the `zeroone` Python package (`zeroone._zeroone`): type conversions
//! around the zeroone library and nothing else. Models are read, built, checked, solved,
//! counted and verified by the library's own functions; this crate turns Python values into
//! its types and its outcomes into Python values, releases the GIL while a backend runs, and
//! turns Ctrl-C into a stop request (see [`runs`]).
//!
//! `zeroone/__init__.py` wraps these functions into the documented API (numpy vectors, scipy
//! matrices, pandas frames); `zeroone/__init__.pyi` holds the type stubs.

use pyo3::prelude::*;

mod convert;
mod draft;
mod memory;
mod model;
mod proved;
mod runs;
mod sigint;

use convert::{harness_error, parse_error};
use zeroone::puzzle::parse::{self, Format, ParseError as ZParseError};

/// The models of a puzzle file, read one at a time (the iterator behind `zeroone.load`).
#[pyclass(module = "zeroone._zeroone")]
struct ModelStream {
    models: std::sync::Mutex<ModelIter>,
}

type ModelIter =
    Box<dyn Iterator<Item = Result<(usize, zeroone::model::Model), ZParseError>> + Send>;

#[pymethods]
impl ModelStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<model::PyModel>> {
        let mut models = self
            .models
            .lock()
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("model stream poisoned"))?;
        // Within what this process can take: a header declaring more is refused at its line.
        match memory::within_budget(|| models.next()) {
            (None, _) => Ok(None),
            (Some(Ok((_, m))), _) => Ok(Some(model::PyModel::from_model(m))),
            (Some(Err(e)), true) => Err(memory::refused(&e)),
            (Some(Err(e)), false) => Err(parse_error(py, &e)),
        }
    }
}

/// `load(path, format=None)`: the models of a puzzle file in any format the CLI reads, one at
/// a time. An unreadable or malformed file raises `ParseError` (when it is met); a model past
/// the memory this process can take, `MemoryError` (see [`memory::within_budget`]).
#[pyfunction]
#[pyo3(signature = (path, format=None))]
fn load(py: Python<'_>, path: std::path::PathBuf, format: Option<&str>) -> PyResult<ModelStream> {
    let format = match format {
        None => None,
        Some(name) => Some(
            name.parse::<Format>()
                .map_err(|e| convert::OptionError::new_err(format!("format: {e}")))?,
        ),
    };
    let stream = parse::open(&path, format).map_err(|e| parse_error(py, &e))?;
    Ok(ModelStream {
        models: std::sync::Mutex::new(Box::new(stream.models())),
    })
}

/// `backends()`: one dict per registered backend (name, about, params, time_limit, seed, and
/// its abilities with default options: solves, counts, streams). Cost: making each backend with
/// default options (cheap; no model is read).
#[pyfunction]
fn backends(py: Python<'_>) -> PyResult<Vec<PyObject>> {
    zeroone::backend::registry()
        .iter()
        .map(|b| {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("name", b.name)?;
            d.set_item("about", b.about)?;
            d.set_item("params", b.params.to_vec())?;
            d.set_item("time_limit", b.uses_time_limit)?;
            d.set_item("seed", b.uses_seed)?;
            let options = zeroone::backend::BackendOptions::default();
            let mut made = zeroone::backend::make_backend(b.name, &options).ok();
            let (solves, counts, streams) =
                made.as_deref_mut().map_or((false, false, false), |m| {
                    (
                        m.solver().is_some(),
                        m.counter().is_some(),
                        m.streamer().is_some(),
                    )
                });
            d.set_item("solves", solves)?;
            d.set_item("counts", counts)?;
            d.set_item("streams", streams)?;
            Ok(d.into_any().unbind())
        })
        .collect()
}

/// `_read_opb(text, name)`: the model the OPB reader builds from `text` (the expression layer's
/// rows, `zeroone/expr.py`, go through it, so they normalise exactly as an OPB file does). A
/// model the reader refuses (a coefficient above 2^53, the caps) raises `ModelError`.
#[pyfunction]
fn _read_opb(text: &str, name: &str) -> PyResult<model::PyModel> {
    match memory::within_budget(|| zeroone::read::read_str(zeroone::read::opb::FORMAT, text, name))
    {
        (Ok(m), _) => Ok(model::PyModel::from_model(m)),
        (Err(e), true) => Err(memory::refused(e)),
        (Err(e), false) => Err(convert::ModelError::new_err(e.to_string())),
    }
}

/// `_records_csv(path)`: the tidy CSV of a record file (the report's `NAME.csv` columns), for
/// pandas to read.
#[pyfunction]
fn _records_csv(py: Python<'_>, path: std::path::PathBuf) -> PyResult<String> {
    let (records, _) = py
        .allow_threads(|| zeroone::harness::record::read_records(&path, false))
        .map_err(|e| harness_error(py, &e))?;
    Ok(zeroone::harness::report::render_csv(&records))
}

/// How Python's messages say to run an experiment without its peers.
const NO_PEERS: &str = "or pass peers=False to run the backends alone";

/// `_run(experiment, resume, reports, worker_exe, jobs, zeroone_exe)`: runs an experiment as
/// `zeroone run` does (workers started from `worker_exe`; the experiment's own `reports_dir`
/// when `reports` is `None`, as the CLI's `--reports`), writes its reports, and returns the
/// path of its record file. With `zeroone_exe` (the program `peers.py` exports models with)
/// the experiment's peers run too, as the CLI runs them: checked before anything runs (a
/// missing package raises `ValueError` with the CLI's message), run after the backends, their
/// records joined and the reports written again; `None` runs the backends alone
/// (`--no-peers`). Ctrl-C stops the backends' runs within
/// [`zeroone::backend::worker::STOP_POLL`] and raises `KeyboardInterrupt`; runs cut short are
/// not recorded.
#[pyfunction]
#[pyo3(signature = (experiment, resume, reports, worker_exe, jobs=None, zeroone_exe=None))]
fn _run(
    py: Python<'_>,
    experiment: std::path::PathBuf,
    resume: bool,
    reports: Option<std::path::PathBuf>,
    worker_exe: std::path::PathBuf,
    jobs: Option<usize>,
    zeroone_exe: Option<std::path::PathBuf>,
) -> PyResult<String> {
    use zeroone::harness::peers::PeerSetup;
    use zeroone::harness::{run_experiment, Experiment, RunOptions};
    let loaded = Experiment::load(&experiment).map_err(|e| harness_error(py, &e))?;
    let peers = zeroone_exe.filter(|_| !loaded.peers.is_empty()).map(|exe| {
        let setup = PeerSetup {
            skip_hint: NO_PEERS,
            ..PeerSetup::of(&loaded)
        };
        (setup, exe)
    });
    if let Some((setup, _)) = &peers {
        py.allow_threads(|| setup.check(&loaded))
            .map_err(|e| harness_error(py, &e))?;
    }
    let mut options = RunOptions::new(reports.unwrap_or_else(|| loaded.reports_dir.clone()));
    options.resume = resume;
    options.fresh = !resume;
    options.jobs = jobs;
    options.worker_exe = Some(worker_exe);
    options.command = format!("zeroone.run(\"{}\")", experiment.display());
    // Ctrl-C raises the flag: no new run starts, the running workers are killed, and what
    // finished is on record (resume=True continues from there).
    let flag = zeroone::backend::stop::StopFlag::new();
    options.stop = Some(flag.clone());
    let summary = {
        let _sigint = sigint::guard();
        py.allow_threads(|| run_experiment(&loaded, &options))
    };
    if flag.is_raised() {
        py.check_signals()?;
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "the experiment was stopped by Ctrl-C (finished runs are on record; run again to resume)",
        ));
    }
    let summary = summary.map_err(|e| harness_error(py, &e))?;
    if let Some((setup, exe)) = peers.filter(|_| !summary.stopped) {
        let dir = &options.reports_dir;
        py.allow_threads(|| {
            setup.run(&loaded, dir, None, resume, &exe)?;
            zeroone::harness::runner::rewrite_reports(&loaded, dir, &options.command)
        })
        .map_err(|e| harness_error(py, &e))?;
        // A Ctrl-C that stopped a peer's process is raised as such.
        py.check_signals()?;
    }
    Ok(summary.records.display().to_string())
}

/// `_serve_worker()`: the worker loop of `zeroone worker` on standard input and output, for the
/// worker processes `run()` starts (see `zeroone/_worker.py`).
#[pyfunction]
fn _serve_worker(py: Python<'_>) -> PyResult<()> {
    py.allow_threads(|| {
        let stdin = std::io::stdin();
        // The models of an experiment under a memory limit are built here, not by the run.
        let mut builder = zeroone::harness::instance_builder::InstanceBuilder::default();
        zeroone::backend::worker::serve_with(stdin.lock(), std::io::stdout().lock(), &mut |s| {
            builder.build(s)
        })
    })
    .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
}

/// The module `zeroone._zeroone`.
#[pymodule]
fn _zeroone(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParseError", py.get_type::<convert::ParseError>())?;
    m.add("ModelError", py.get_type::<convert::ModelError>())?;
    m.add("OptionError", py.get_type::<convert::OptionError>())?;
    m.add("BackendError", py.get_type::<convert::BackendError>())?;
    m.add_class::<model::PyModel>()?;
    m.add_class::<ModelStream>()?;
    m.add_class::<runs::SolutionIter>()?;
    m.add_class::<runs::SolveResult>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    m.add_function(wrap_pyfunction!(runs::solve, m)?)?;
    m.add_function(wrap_pyfunction!(runs::count, m)?)?;
    m.add_function(wrap_pyfunction!(runs::solutions, m)?)?;
    m.add_function(wrap_pyfunction!(_records_csv, m)?)?;
    m.add_function(wrap_pyfunction!(_read_opb, m)?)?;
    m.add_function(wrap_pyfunction!(_run, m)?)?;
    m.add_function(wrap_pyfunction!(_serve_worker, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
