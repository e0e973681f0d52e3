//! The experiment file: what to run, on what, how often, and what to write.
//!
//! An experiment is a TOML file read with `deny_unknown_fields`: a misspelt key is an error
//! naming its line and column, never silently ignored. Every check that can fail before a run
//! (unknown backend, bad option, missing file, unknown baseline) is done by [`Experiment::load`],
//! so a malformed file runs nothing and writes nothing.
//!
//! ```toml
//! title = "Brute force"     # the figures' title (default: the file name)
//! description = "brute force on tiny boards"
//! kind = "solve"            # "solve" (default), "count" or "table"
//! repetitions = 1           # runs of each (instance, backend) pair
//! time_limit = 10           # seconds per run: the backend stops itself, or its worker is killed
//! memory_limit = 2000       # MB of address space per run (its worker process); beyond: memout
//! count_limit = 2           # "count": stop counting after this many solutions
//! baseline = "brute"        # label the ratios are taken against
//! outputs = ["markdown", "csv", "time-plot"]
//!
//! [[instances]]
//! file = "../models/sudoku4.txt"        # relative to this file
//! # data = "sudoku/norvig_top95.txt"    # relative to the data folder (data/)
//! # generate = "queens-bare", sizes = [4, 5, 6]   (also "hex", "sudoku-empty")
//! # generate = "sudoku-random", clues = 26, count = 500, seed = 1   (box size 3 unless sizes = [b])
//! sample = 100                          # seeded sample of this many (after filters)
//! seed = 1
//! first = 10                            # or: the first this many
//! known_solution = true                 # only puzzles whose file states a solution
//! sizes = [7, 8]                        # only these sizes (Queens n, Sudoku n, hex width)
//!
//! peers = ["cp-sat"]       # labels filled in by experiments/peers/peers.py, not run here
//!
//! [[backends]]
//! name = "brute"            # registry name
//! label = "brute"           # name in records and reports (default: the name)
//! seed = 0
//! params = { key = "value" }
//! sweep = { dim = [64, 128], seed = [1, 2] }  # one configuration per combination, labelled
//!                                             # "brute dim=64 seed=1" and so on
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::backend::{
    make_backend, time_limit_from_seconds, BackendError, BackendOptions, MAX_TIME_LIMIT,
};
use crate::harness::source::{BuiltinFamily, Filter, Origin, Source};
use crate::harness::HarnessError;
use crate::puzzle::kinds::hex::shards::StreamedRows;

/// What an experiment does with each instance.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentKind {
    /// Look for one solution per (instance, backend) pair.
    #[default]
    Solve,
    /// Count solutions (up to `count_limit`).
    Count,
    /// The search-space table: exact counts against board size (see [`TableSpec`]).
    Table,
}

/// What one run asks a backend for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Task {
    /// `Solver::solve`, verified.
    Solve,
    /// `Counter::count`, every witness verified.
    Count,
}

impl Task {
    /// The lower-case name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Task::Solve => "solve",
            Task::Count => "count",
        }
    }
}

/// Which report files to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Output {
    /// `reports/NAME.md`: per-backend table, header with machine, commit and command.
    Markdown,
    /// `reports/NAME.csv`: one row per run.
    Csv,
    /// `reports/NAME.time.svg`: time distribution per backend, log scale.
    TimePlot,
    /// `reports/NAME.size.svg`: search-space size against board size (table experiments).
    SizePlot,
}

/// One backend configuration: a registry name with options, under a label.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendConfig {
    /// Name in records and reports; unique within the experiment.
    pub label: String,
    /// Registry name handed to [`make_backend`].
    pub name: String,
    /// Options (seed, params, the experiment's time limit).
    pub options: BackendOptions,
    /// What this configuration is asked for.
    pub task: Task,
}

/// The search-space table experiment: exact counts of placements against board size.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Hex board widths to count.
    #[serde(default)]
    pub hex_widths: Vec<usize>,
    /// Queens board sizes to count.
    #[serde(default)]
    pub queens_sizes: Vec<usize>,
    /// Hex widths whose rows are marked in the report (the seed's width-9 row).
    #[serde(default)]
    pub mark_hex_widths: Vec<usize>,
    /// Split each hex width's three-axis count into this many shards, one record each
    /// (`hex-W-part-k-of-K`), next to one record of the other levels (`hex-W`); the report
    /// sums the shards. Absent or 1: one record per width.
    #[serde(default)]
    pub hex_parts: Option<usize>,
    /// Row order of the sharded count: `top-down` (the default), `bottom-up` or
    /// `middle-first` (different intermediate layers, for a cross-check).
    #[serde(default)]
    pub row_order: Option<String>,
    /// How many top rows the sharded count streams: 2 (the default, faster) or 3 (a source
    /// layer 3-4 times smaller, for widths whose shards would not fit otherwise; slower).
    #[serde(default)]
    pub streamed_rows: Option<usize>,
}

/// A loaded and checked experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// The experiment's name: the file stem; it names the report files.
    pub name: String,
    /// The experiment file.
    pub path: PathBuf,
    /// A short title for the report's figures (`title = "..."`); absent: the name is used.
    pub title: Option<String>,
    /// One paragraph for the report.
    pub description: String,
    /// Solve, count or table.
    pub kind: ExperimentKind,
    /// Runs of each (instance, backend) pair.
    pub repetitions: u32,
    /// Per-run wall-clock limit, handed to backends that stop themselves (`BackendInfo::uses_time_limit`) and enforced
    /// on every run by killing its worker after the limit and a grace.
    pub time_limit: Option<Duration>,
    /// Per-run memory limit in MB (the address space of the run's worker process).
    pub memory_limit: Option<u64>,
    /// For counting: stop after this many solutions.
    pub count_limit: Option<u64>,
    /// The label ratios are taken against.
    pub baseline: Option<String>,
    /// Where instances come from, in order.
    pub sources: Vec<Source>,
    /// Backend configurations, in order.
    pub backends: Vec<BackendConfig>,
    /// Report files to write.
    pub outputs: BTreeSet<Output>,
    /// The table to compute (`kind = "table"`).
    pub table: Option<TableSpec>,
    /// Labels of peer solvers whose records an outside script writes (`experiments/peers/`):
    /// `zeroone run` does not run them; `zeroone merge` accepts their records and the reports
    /// show them beside the backends.
    pub peers: Vec<String>,
    /// The folder of its records and reports: `reports_dir` of the file, relative to the file
    /// (default `reports`, beside it), so `zeroone run PATH` finds them wherever it is run
    /// from; `--reports` overrides it. The shipped experiments say `"../reports"`.
    pub reports_dir: PathBuf,
}

impl Experiment {
    /// Every label the reports show, with its registry name (`peer` for peers): the backends
    /// in order, then the peers.
    pub fn labels(&self) -> Vec<(String, String)> {
        self.backends
            .iter()
            .map(|b| (b.label.clone(), b.name.clone()))
            .chain(self.peers.iter().map(|p| (p.clone(), "peer".to_string())))
            .collect()
    }
}

impl Experiment {
    /// The experiment that runs the peer `label` (one of `peers`, and a backend of this
    /// binary's registry, such as `highs` built with `--features highs`) on the same instances
    /// under the same limits and repetitions: its records go to `NAME.peer-LABEL.jsonl`, it
    /// writes no reports, and `zeroone merge` joins its records with the experiment's own.
    /// Cost: one backend made to check the name.
    pub fn as_peer_run(&self, label: &str) -> Result<Experiment, HarnessError> {
        let bad = |message: String| HarnessError::Experiment {
            file: self.path.clone(),
            location: "peers".into(),
            message,
        };
        if !self.peers.iter().any(|p| p == label) {
            return Err(bad(format!(
                "'{label}' is not one of this experiment's peers ({})",
                self.peers.join(", ")
            )));
        }
        let options = BackendOptions {
            time_limit: self.time_limit,
            seed: 0,
            params: BTreeMap::new(),
        };
        let mut backend = make_backend(label, &options)
            .map_err(|e| bad(format!("peer '{label}' cannot run in this binary: {e}")))?;
        if backend.solver().is_none() {
            return Err(bad(format!("peer '{label}' cannot solve")));
        }
        Ok(Experiment {
            name: format!("{}.peer-{label}", self.name),
            baseline: None,
            backends: vec![BackendConfig {
                label: label.to_string(),
                name: label.to_string(),
                options,
                task: Task::Solve,
            }],
            peers: Vec::new(),
            outputs: BTreeSet::new(),
            ..self.clone()
        })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    title: Option<String>,
    description: Option<String>,
    #[serde(default)]
    kind: ExperimentKind,
    repetitions: Option<Spanned<u32>>,
    time_limit: Option<Spanned<toml::Value>>,
    memory_limit: Option<Spanned<toml::Value>>,
    count_limit: Option<Spanned<u64>>,
    baseline: Option<Spanned<String>>,
    data_dir: Option<String>,
    reports_dir: Option<String>,
    outputs: Option<Vec<Output>>,
    #[serde(default)]
    instances: Vec<Spanned<RawSource>>,
    #[serde(default)]
    backends: Vec<Spanned<RawBackend>>,
    table: Option<TableSpec>,
    #[serde(default)]
    peers: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    file: Option<Spanned<String>>,
    data: Option<Spanned<String>>,
    generate: Option<Spanned<String>>,
    sizes: Option<Vec<usize>>,
    clues: Option<Spanned<usize>>,
    count: Option<usize>,
    sample: Option<usize>,
    seed: Option<u64>,
    first: Option<usize>,
    #[serde(default)]
    known_solution: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBackend {
    name: Spanned<String>,
    label: Option<String>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    task: Option<Task>,
    /// Parameter sweep: each key (`seed` or a parameter) with a list of values; the backend
    /// becomes one configuration per combination.
    #[serde(default)]
    sweep: BTreeMap<Spanned<String>, Spanned<Vec<toml::Value>>>,
}

/// The most configurations one `sweep` may make.
const MAX_SWEEP: usize = 10_000;

/// One combination of a sweep: `(key, value text)` pairs.
type Combination = Vec<(String, String)>;

/// The combinations of a sweep, in order (the last key varies fastest): each a list of
/// `(key, value text)`. `Err` names the key whose value is not a string, number or boolean.
fn sweep_combinations(
    sweep: &BTreeMap<Spanned<String>, Spanned<Vec<toml::Value>>>,
) -> Result<Vec<Combination>, (Range<usize>, String)> {
    let mut out: Vec<Combination> = vec![Vec::new()];
    for (k, values) in sweep {
        if values.get_ref().is_empty() {
            return Err((
                values.span(),
                format!("sweep.{}: expected a non-empty list", k.get_ref()),
            ));
        }
        let texts: Vec<String> = values
            .get_ref()
            .iter()
            .map(param_text)
            .collect::<Option<_>>()
            .ok_or_else(|| {
                (
                    values.span(),
                    format!(
                        "sweep.{}: expected strings, numbers or booleans",
                        k.get_ref()
                    ),
                )
            })?;
        out = out
            .into_iter()
            .flat_map(|combo| {
                texts.iter().map(move |t| {
                    let mut c = combo.clone();
                    c.push((k.get_ref().clone(), t.clone()));
                    c
                })
            })
            .collect();
        if out.len() > MAX_SWEEP {
            return Err((
                values.span(),
                format!("sweep: more than {MAX_SWEEP} configurations"),
            ));
        }
    }
    Ok(out)
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

struct Locator<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Locator<'_> {
    fn at(&self, span: Range<usize>, message: impl Into<String>) -> HarnessError {
        let (line, column) = line_column(self.text, span.start);
        HarnessError::Experiment {
            file: self.path.to_path_buf(),
            location: format!("{line}:{column}"),
            message: message.into(),
        }
    }
    fn key(&self, key: &str, message: impl Into<String>) -> HarnessError {
        HarnessError::Experiment {
            file: self.path.to_path_buf(),
            location: key.to_string(),
            message: message.into(),
        }
    }
}

/// A positive time limit of at most [`MAX_TIME_LIMIT`], from a TOML integer or float.
fn seconds(value: &toml::Value) -> Option<Duration> {
    let s = match value {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        _ => return None,
    };
    time_limit_from_seconds(s)
}

/// The most repetitions of one (instance, backend) pair an experiment may ask for.
const MAX_REPETITIONS: u32 = 1000;
/// The largest hex width or Queens size a `[table]` section may list (a guard against absurd
/// values; the table refuses sizes it cannot count with its own range).
const MAX_TABLE_SIZE: usize = 1000;
/// The most puzzles one `generate = "sudoku-random"` source may make.
const MAX_RANDOM_COUNT: usize = 1_000_000;

/// Experiment text from file bytes: UTF-8 or an error located at the first bad byte (line and
/// column of the text before it).
fn decode(path: &Path, bytes: &[u8]) -> Result<String, HarnessError> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let before = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let at = Locator { path, text: before };
        at.at(
            good..good,
            format!(
                "not UTF-8 text (byte 0x{:02x}); save the file as UTF-8",
                bytes[good]
            ),
        )
    })
}

fn param_text(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `dir` joined with `relative`, with `name/..` pairs taken out lexically (`experiments` and
/// `../reports` give `reports`), so paths printed and recorded stay short.
fn join_tidy(dir: &Path, relative: &str) -> PathBuf {
    use std::path::Component;
    let joined = dir.join(relative);
    let mut out: Vec<Component> = Vec::new();
    for c in joined.components() {
        match (c, out.last()) {
            (Component::CurDir, _) => {}
            (Component::ParentDir, Some(Component::Normal(_))) => {
                out.pop();
            }
            _ => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// The data folder: `data_dir` from the file (relative to it), else `$ZEROONE_DATA`, else
/// `data/` of the checkout holding `experiments/` (the folder above the file's).
fn data_root(dir: &Path, data_dir: Option<&str>) -> PathBuf {
    if let Some(d) = data_dir {
        return dir.join(d);
    }
    if let Some(env) = std::env::var_os("ZEROONE_DATA") {
        return PathBuf::from(env);
    }
    dir.join("..").join("data")
}

/// The largest experiment file read (1 MiB; the shipped ones are a few KB): a larger file,
/// or `/dev/zero`, is refused before it fills memory.
pub const MAX_EXPERIMENT_BYTES: u64 = 1 << 20;

/// The bytes of the experiment file at `path`, at most [`MAX_EXPERIMENT_BYTES`].
/// A file that cannot be opened or read is bad input (exit 2), like a malformed one.
fn read_capped(path: &Path) -> Result<Vec<u8>, HarnessError> {
    use std::io::Read;
    let at = Locator { path, text: "" };
    let unreadable = |e: std::io::Error| {
        at.key(
            "(file)",
            format!("expected a readable experiment file, found: {e}"),
        )
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_EXPERIMENT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_EXPERIMENT_BYTES {
        return Err(at.key(
            "(document)",
            format!(
                "expected an experiment file of at most {} MiB, found a larger one",
                MAX_EXPERIMENT_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

impl Experiment {
    /// Reads and checks the experiment at `path`: schema, files, backends (each is made once
    /// through the registry, so unknown names and bad options are caught here), baseline.
    /// Errors name the file and the line and column (or key) at fault.
    pub fn load(path: &Path) -> Result<Experiment, HarnessError> {
        let bytes = read_capped(path)?;
        Experiment::from_text(path, &decode(path, &bytes)?)
    }

    /// Parses and checks experiment text as if read from `path` (paths resolve against its
    /// folder). A byte-order mark at the start is skipped like whitespace.
    pub fn from_text(path: &Path, text: &str) -> Result<Experiment, HarnessError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let at = Locator { path, text };
        let raw: RawExperiment = toml::from_str(text).map_err(|e| {
            let message = crate::suggest::serde_hint(e.message());
            match e.span() {
                Some(span) => at.at(span, message),
                None => at.key("(document)", message),
            }
        })?;
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into());
        let data = data_root(dir, raw.data_dir.as_deref());
        let reports_dir = join_tidy(dir, raw.reports_dir.as_deref().unwrap_or("reports"));

        let repetitions = match &raw.repetitions {
            None => 1,
            Some(r) if !(1..=MAX_REPETITIONS).contains(r.get_ref()) => {
                return Err(at.at(
                    r.span(),
                    format!("repetitions: expected 1 to {MAX_REPETITIONS}"),
                ))
            }
            Some(r) => *r.get_ref(),
        };
        let time_limit = match &raw.time_limit {
            None => None,
            Some(t) => Some(seconds(t.get_ref()).ok_or_else(|| {
                at.at(
                    t.span(),
                    format!(
                        "time_limit: expected a positive number of seconds, at most {}",
                        MAX_TIME_LIMIT.as_secs()
                    ),
                )
            })?),
        };
        // The same rule as `count --limit`: from 1.
        let count_limit =
            match &raw.count_limit {
                None => None,
                Some(c) if *c.get_ref() == 0 => return Err(at.at(
                    c.span(),
                    "count_limit: expected at least 1 (as for --limit); leave it out to count all",
                )),
                Some(c) => Some(*c.get_ref()),
            };
        let memory_limit = match &raw.memory_limit {
            None => None,
            Some(m) => match m.get_ref() {
                toml::Value::Integer(mb) if *mb > 0 => Some(*mb as u64),
                _ => {
                    return Err(at.at(
                        m.span(),
                        "memory_limit: expected a positive whole number of MB",
                    ))
                }
            },
        };

        let mut sources = Vec::new();
        for (i, spanned) in raw.instances.iter().enumerate() {
            let s = spanned.get_ref();
            let given: Vec<_> = [&s.file, &s.data, &s.generate]
                .into_iter()
                .flatten()
                .collect();
            if given.len() != 1 {
                return Err(at.at(
                    spanned.span(),
                    format!(
                        "instances[{i}]: expected exactly one of `file`, `data` or `generate`, found {}",
                        given.len()
                    ),
                ));
            }
            let random = s
                .generate
                .as_ref()
                .filter(|g| g.get_ref() == "sudoku-random");
            if random.is_none() && (s.clues.is_some() || s.count.is_some()) {
                return Err(at.at(
                    spanned.span(),
                    format!(
                        "instances[{i}]: `clues` and `count` go with generate = \"sudoku-random\""
                    ),
                ));
            }
            let origin = if let Some(g) = random {
                let box_size = match s.sizes.as_deref() {
                    None => 3,
                    Some([b]) if (2..=5).contains(b) => *b,
                    Some(_) => {
                        return Err(at.at(
                            g.span(),
                            format!("instances[{i}].sizes: sudoku-random takes one box size from 2 to 5 (3 for 9x9)"),
                        ))
                    }
                };
                let cells = box_size.pow(4);
                let clues = match &s.clues {
                    Some(c) if *c.get_ref() <= cells => *c.get_ref(),
                    Some(c) => {
                        return Err(at.at(
                            c.span(),
                            format!(
                                "instances[{i}].clues: at most {cells} for box size {box_size}"
                            ),
                        ))
                    }
                    None => {
                        return Err(at.at(
                            g.span(),
                            format!("instances[{i}]: sudoku-random needs `clues` (and `count`)"),
                        ))
                    }
                };
                let count = s.count.unwrap_or(1);
                if !(1..=MAX_RANDOM_COUNT).contains(&count) {
                    return Err(at.at(
                        g.span(),
                        format!("instances[{i}].count: expected 1 to {MAX_RANDOM_COUNT}"),
                    ));
                }
                Origin::RandomSudoku {
                    box_size,
                    clues,
                    count,
                    seed: s.seed.unwrap_or(0),
                }
            } else if let Some(g) = &s.generate {
                let family = BuiltinFamily::from_name(g.get_ref()).ok_or_else(|| {
                    at.at(
                        g.span(),
                        format!(
                            "instances[{i}].generate: unknown generator '{}' (known: {}, sudoku-random)",
                            g.get_ref(),
                            BuiltinFamily::names().join(", ")
                        ),
                    )
                })?;
                let sizes = s.sizes.clone().unwrap_or_default();
                if sizes.is_empty() {
                    return Err(at.at(
                        g.span(),
                        format!("instances[{i}]: `generate` needs a non-empty `sizes` list"),
                    ));
                }
                if let Some(bad) = sizes.iter().find(|&&n| !family.accepts(n)) {
                    return Err(at.at(
                        g.span(),
                        format!(
                            "instances[{i}].sizes: {bad} is not a valid size for '{}' ({})",
                            g.get_ref(),
                            family.valid_sizes()
                        ),
                    ));
                }
                Origin::Builtin { family, sizes }
            } else {
                let (p, root, key) = match (&s.file, &s.data) {
                    (Some(f), _) => (f, dir.to_path_buf(), "file"),
                    (_, Some(d)) => (d, data.clone(), "data"),
                    _ => unreachable!("exactly one origin was checked above"),
                };
                let full = if root.as_os_str() == "." {
                    PathBuf::from(p.get_ref())
                } else {
                    root.join(p.get_ref())
                };
                if !full.is_file() {
                    return Err(at.at(
                        p.span(),
                        format!(
                            "instances[{i}].{key}: no such file {} (resolved to {})",
                            p.get_ref(),
                            full.display()
                        ),
                    ));
                }
                Origin::File(full)
            };
            let filter = Filter {
                known_solution: s.known_solution,
                sizes: if s.generate.is_some() {
                    None
                } else {
                    s.sizes.clone()
                },
            };
            if s.sample.is_some() && s.first.is_some() {
                return Err(at.at(
                    spanned.span(),
                    format!("instances[{i}]: give `sample` or `first`, not both"),
                ));
            }
            sources.push(Source {
                origin,
                filter,
                sample: s.sample,
                seed: s.seed.unwrap_or(0),
                first: s.first,
            });
        }

        let default_task = match raw.kind {
            ExperimentKind::Count => Task::Count,
            _ => Task::Solve,
        };
        let mut backends: Vec<BackendConfig> = Vec::new();
        for (i, spanned) in raw.backends.iter().enumerate() {
            let b = spanned.get_ref();
            let combos = sweep_combinations(&b.sweep)
                .map_err(|(span, m)| at.at(span, format!("backends[{i}].{m}")))?;
            for combo in combos {
                let name = b.name.get_ref().clone();
                let base_label = b.label.clone().unwrap_or_else(|| name.clone());
                let label = if combo.is_empty() {
                    base_label
                } else {
                    let parts: Vec<String> =
                        combo.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("{base_label} {}", parts.join(" "))
                };
                if backends.iter().any(|c| c.label == label) {
                    return Err(at.at(
                    spanned.span(),
                    format!("backends[{i}]: the label '{label}' is used twice; give each configuration its own `label`"),
                ));
                }
                let mut params = BTreeMap::new();
                for (k, v) in &b.params {
                    let k = k.get_ref();
                    let text =
                        param_text(v.get_ref()).ok_or_else(|| {
                            at.at(
                        v.span(),
                        format!("backends[{i}].params.{k}: expected a string, number or boolean"),
                    )
                        })?;
                    params.insert(k.clone(), text);
                }
                let mut seed = b.seed;
                for (k, v) in &combo {
                    if k == "seed" {
                        seed = v.parse().map_err(|_| {
                            at.at(
                                b.name.span(),
                                format!("backends[{i}].sweep.seed: '{v}' is not a whole number"),
                            )
                        })?;
                    } else {
                        params.insert(k.clone(), v.clone());
                    }
                }
                let options = BackendOptions {
                    time_limit,
                    seed,
                    params,
                };
                let task = b.task.unwrap_or(default_task);
                let mut backend = make_backend(&name, &options).map_err(|e| match &e {
                    BackendError::BadOption { key, .. } => match b.params.get(key.as_str()) {
                        Some(v) => at.at(v.span(), format!("backends[{i}]: {e}")),
                        None => at.at(b.name.span(), format!("backends[{i}]: {e}")),
                    },
                    BackendError::UnknownOption { key, .. } => {
                        match b.params.get_key_value(key.as_str()) {
                            Some((k, _)) => at.at(k.span(), format!("backends[{i}].params: {e}")),
                            None => at.at(b.name.span(), format!("backends[{i}]: {e}")),
                        }
                    }
                    _ => at.at(b.name.span(), format!("backends[{i}].name: {e}")),
                })?;
                let able = match task {
                    Task::Solve => backend.solver().is_some(),
                    Task::Count => backend.counter().is_some(),
                };
                if !able {
                    return Err(at.at(
                    b.name.span(),
                    format!(
                        "backends[{i}]: backend '{name}' cannot {}; set `task` for this backend or leave it out",
                        task.name()
                    ),
                ));
                }
                backends.push(BackendConfig {
                    label,
                    name,
                    options,
                    task,
                });
            }
        }

        let mut peers: Vec<String> = Vec::new();
        for p in &raw.peers {
            let label = p.get_ref();
            if backends.iter().any(|b| &b.label == label) || peers.contains(label) {
                return Err(at.at(
                    p.span(),
                    format!("peers: the label '{label}' is already used"),
                ));
            }
            peers.push(label.clone());
        }

        let baseline = match &raw.baseline {
            None => None,
            Some(b) => {
                if !backends.iter().any(|c| &c.label == b.get_ref()) && !peers.contains(b.get_ref())
                {
                    return Err(at.at(
                        b.span(),
                        format!(
                            "baseline '{}' is not the label of any backend (labels: {})",
                            b.get_ref(),
                            backends
                                .iter()
                                .map(|c| c.label.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                Some(b.get_ref().clone())
            }
        };

        match raw.kind {
            ExperimentKind::Table => {
                let Some(table) = &raw.table else {
                    return Err(at.key("table", "kind = \"table\" needs a [table] section"));
                };
                for (key, list) in [
                    ("table.hex_widths", &table.hex_widths),
                    ("table.queens_sizes", &table.queens_sizes),
                    ("table.mark_hex_widths", &table.mark_hex_widths),
                ] {
                    if let Some(bad) = list.iter().find(|&&n| n > MAX_TABLE_SIZE) {
                        return Err(at.key(
                            key,
                            format!("{bad}: expected sizes from 0 to {MAX_TABLE_SIZE}"),
                        ));
                    }
                }
                if table.hex_widths.is_empty() && table.queens_sizes.is_empty() {
                    return Err(at.key(
                        "table",
                        "expected `hex_widths` or `queens_sizes` (non-empty lists)",
                    ));
                }
                if table.hex_parts.is_some_and(|k| !(1..=65536).contains(&k)) {
                    return Err(at.key("table", "`hex_parts`: expected 1 to 65536 shards"));
                }
                if table
                    .streamed_rows
                    .is_some_and(|s| StreamedRows::from_count(s).is_none())
                {
                    return Err(at.key("table", "`streamed_rows`: expected 2 or 3"));
                }
                if let Some(order) = &table.row_order {
                    if !["top-down", "bottom-up", "middle-first"].contains(&order.as_str()) {
                        return Err(at.key(
                            "table",
                            format!(
                                "`row_order` '{order}': expected top-down, bottom-up or middle-first"
                            ),
                        ));
                    }
                }
            }
            _ => {
                if raw.table.is_some() {
                    return Err(at.key("table", "a [table] section needs kind = \"table\""));
                }
                if sources.is_empty() {
                    return Err(at.key("instances", "expected at least one [[instances]] source"));
                }
                if backends.is_empty() {
                    return Err(at.key("backends", "expected at least one [[backends]] entry"));
                }
            }
        }

        let outputs: BTreeSet<Output> = match raw.outputs {
            Some(o) => o.into_iter().collect(),
            None => match raw.kind {
                ExperimentKind::Table => [Output::Markdown, Output::Csv, Output::SizePlot].into(),
                _ => [Output::Markdown, Output::Csv, Output::TimePlot].into(),
            },
        };

        Ok(Experiment {
            name,
            path: path.to_path_buf(),
            title: raw.title,
            description: raw.description.unwrap_or_default(),
            kind: raw.kind,
            repetitions,
            time_limit,
            memory_limit,
            count_limit,
            reports_dir,
            baseline,
            sources,
            backends,
            outputs,
            table: raw.table,
            peers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Experiment, HarnessError> {
        Experiment::from_text(Path::new("exp/test.toml"), text)
    }

    #[test]
    fn reports_dir_is_relative_to_the_experiment_file() {
        for (file, key, reports) in [
            ("experiments/quick.toml", Some("../reports"), "reports"),
            (
                "/repo/experiments/quick.toml",
                Some("../reports"),
                "/repo/reports",
            ),
            ("a/b/x.toml", None, "a/b/reports"),
            ("x.toml", None, "reports"),
            ("x.toml", Some("../out"), "../out"),
            ("../x.toml", Some("../r"), "../../r"),
        ] {
            let line = key.map_or(String::new(), |k| format!("reports_dir = \"{k}\"\n"));
            let text = format!("{line}[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\n");
            let e = Experiment::from_text(Path::new(file), &text).unwrap();
            assert_eq!(e.reports_dir, PathBuf::from(reports), "{file} {key:?}");
        }
    }

    #[test]
    fn a_misspelt_key_is_located_by_line_and_column() {
        let e = load("repetitions = 1\nrepetition = 2\n").unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("exp/test.toml:2:1: unknown field `repetition`"),
            "{text}"
        );
    }

    #[test]
    fn an_unknown_backend_is_located_at_its_name() {
        let e = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n\n[[backends]]\nname = \"nosuch\"\n",
        )
        .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("exp/test.toml:6:8: backends[0].name: unknown backend 'nosuch'"),
            "{text}"
        );
    }

    #[test]
    fn a_builtin_source_and_brute_load() {
        let e = load(
            "time_limit = 2\nbaseline = \"b\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1, 3]\n\n[[backends]]\nname = \"sat\"\nlabel = \"b\"\nparams = { pairwise-up-to = 3 }\n",
        )
        .unwrap();
        assert_eq!(e.name, "test");
        assert_eq!(e.time_limit, Some(Duration::from_secs(2)));
        assert_eq!(e.backends[0].label, "b");
        assert_eq!(e.backends[0].options.params["pairwise-up-to"], "3");
        assert_eq!(e.baseline.as_deref(), Some("b"));
        assert_eq!(e.outputs.len(), 3);
    }

    #[test]
    fn a_baseline_that_is_no_label_is_an_error() {
        let e = load(
            "baseline = \"milp\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\n",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("exp/test.toml:1:12: baseline 'milp'"),
            "{e}"
        );
    }

    const ONE_SOURCE: &str = "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n";

    #[test]
    fn an_unknown_params_key_is_located_at_the_key() {
        let text = format!(
            "{ONE_SOURCE}[[backends]]\nname = \"milp\"\nparams = {{ relax = true, relaxx = true }}\n"
        );
        let e = load(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("exp/test.toml:6:26: backends[0].params: backend 'milp' does not take option 'relaxx' (it takes: relax, presolve, time_limit)"),
            "{e}"
        );
        let table = format!(
            "{ONE_SOURCE}[[backends]]\nname = \"enum\"\n[backends.params]\nordr = \"mrv\"\n"
        );
        let e = load(&table).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "exp/test.toml:7:1: backends[0].params: backend 'enum' does not take option 'ordr'"
            ),
            "{e}"
        );
    }

    #[test]
    fn numbers_out_of_range_are_located_errors() {
        let cases = [
            (
                "time_limit = 1e20\n",
                "1:14: time_limit: expected a positive number of seconds, at most 31536000",
            ),
            ("time_limit = 1e300\n", "1:14: time_limit"),
            ("time_limit = nan\n", "1:14: time_limit"),
            ("time_limit = -3\n", "1:14: time_limit"),
            (
                "repetitions = 100000\n",
                "1:15: repetitions: expected 1 to 1000",
            ),
            ("repetitions = 0\n", "1:15: repetitions"),
        ];
        for (head, wanted) in cases {
            let text = format!("{head}{ONE_SOURCE}[[backends]]\nname = \"bitset\"\n");
            let e = load(&text).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("exp/test.toml:{wanted}")),
                "{head}: {e}"
            );
        }
        let e = load("kind = \"table\"\n[table]\nhex_widths = [99999999999]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("table.hex_widths: 99999999999: expected sizes from 0 to 1000"),
            "{e}"
        );
        let e = load("[[instances]]\ngenerate = \"sudoku-random\"\nclues = 30\ncount = 100000000000\n[[backends]]\nname = \"bitset\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("instances[0].count: expected 1 to 1000000"),
            "{e}"
        );
    }

    #[test]
    fn a_file_that_is_not_utf8_is_a_located_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.toml");
        std::fs::write(&path, b"description = \"ok\"\n# caf\xe9\n").unwrap();
        let e = Experiment::load(&path).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
        let text = e.to_string();
        assert!(
            text.ends_with(": not UTF-8 text (byte 0xe9); save the file as UTF-8"),
            "{text}"
        );
        assert!(text.contains("latin1.toml:2:6:"), "{text}");
    }

    #[test]
    fn a_byte_order_mark_is_whitespace() {
        let text = format!("\u{feff}{ONE_SOURCE}[[backends]]\nname = \"bitset\"\n");
        let e = load(&text).unwrap();
        assert_eq!(e.backends[0].name, "bitset");
        let bad = load("\u{feff}repetition = 2\n").unwrap_err().to_string();
        assert!(bad.starts_with("exp/test.toml:1:1: unknown field"), "{bad}");
    }

    #[test]
    fn a_sweep_makes_one_labelled_configuration_per_combination() {
        let e = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"vsa\"\nsweep = { code = [\"unitary\", \"gaussian\"], dim = [16, 64], seed = [1, 2] }\n",
        )
        .unwrap();
        assert_eq!(e.backends.len(), 8);
        let first = &e.backends[0];
        assert_eq!(first.label, "vsa code=unitary dim=16 seed=1");
        assert_eq!(first.options.seed, 1);
        assert_eq!(first.options.params["dim"], "16");
        assert_eq!(e.backends[7].label, "vsa code=gaussian dim=64 seed=2");
        // A bad seed in a sweep is located, never silently dropped.
        let bad = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"vsa\"\nsweep = { seed = [\"x\"] }\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            bad.contains("sweep.seed: 'x' is not a whole number"),
            "{bad}"
        );
        let empty = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"vsa\"\nsweep = { dim = [] }\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            empty.contains("sweep.dim: expected a non-empty list"),
            "{empty}"
        );
    }

    #[test]
    fn a_peer_run_takes_only_a_listed_peer_the_binary_has() {
        let e = load(
            "time_limit = 3\nrepetitions = 2\npeers = [\"bitset\", \"cp-sat\"]\nbaseline = \"brute\"\n[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"brute\"\n",
        );
        // Any registry backend can stand in for a peer built into the binary (as `highs` is).
        let e = e.unwrap();
        let peer = e.as_peer_run("bitset").unwrap();
        assert_eq!(peer.name, "test.peer-bitset");
        assert_eq!(peer.backends.len(), 1);
        assert_eq!(peer.backends[0].label, "bitset");
        assert_eq!(peer.time_limit, e.time_limit);
        assert_eq!(peer.repetitions, 2);
        assert!(peer.outputs.is_empty() && peer.peers.is_empty());
        let not_listed = e.as_peer_run("sat").unwrap_err().to_string();
        assert!(
            not_listed.contains("'sat' is not one of this experiment's peers"),
            "{not_listed}"
        );
        let not_built = e.as_peer_run("cp-sat").unwrap_err().to_string();
        assert!(
            not_built.contains("peer 'cp-sat' cannot run in this binary"),
            "{not_built}"
        );
    }
}
