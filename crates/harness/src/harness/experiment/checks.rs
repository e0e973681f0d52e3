//! From the TOML schema to a checked [`Experiment`]: every number range-checked, every source
//! and backend made or located once, errors naming the line and column (or key) at fault.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::Spanned;

use crate::backend::{BackendError, BackendOptions, Registry, MAX_TIME_LIMIT};
use crate::harness::source::{BuiltinFamily, Filter, Origin, Source};
use crate::harness::HarnessError;
use crate::puzzle::kind::Kind;
use crate::puzzle::kinds::{tables, KINDS};
use crate::puzzle::table::{Setting, Settings};

use super::schema::*;
use super::*;

impl Experiment {
    /// Reads and checks the experiment at `path`: schema, files, backends (each is made once
    /// through the registry, so unknown names and bad options are caught here), baseline.
    /// Errors name the file and the line and column (or key) at fault.
    pub fn load(path: &Path) -> Result<Experiment, HarnessError> {
        Experiment::load_with(path, &Registry::builtin())
    }

    /// Parses and checks experiment text as if read from `path` (paths resolve against its
    /// folder). A byte-order mark at the start is skipped like whitespace.
    pub fn from_text(path: &Path, text: &str) -> Result<Experiment, HarnessError> {
        Experiment::from_text_with(path, text, &Registry::builtin())
    }

    /// [`Experiment::load`] with the backends of `registry` (this binary's plus any a program
    /// added): its backend names are checked against that registry.
    pub fn load_with(path: &Path, registry: &Registry) -> Result<Experiment, HarnessError> {
        let bytes = read_capped(path)?;
        Experiment::from_text_with(path, &decode(path, &bytes)?, registry)
    }

    /// [`Experiment::from_text`] with the backends of `registry`.
    pub fn from_text_with(
        path: &Path,
        text: &str,
        registry: &Registry,
    ) -> Result<Experiment, HarnessError> {
        Experiment::from_text_in(path, text, registry, KINDS)
    }

    /// [`Experiment::load_with`] with the puzzle kinds of `kinds` (the registry's, or the
    /// registry extended by a program's own): a `[table]` section's keys are those their
    /// swept tables claim.
    pub fn load_in(
        path: &Path,
        registry: &Registry,
        kinds: &[&'static dyn Kind],
    ) -> Result<Experiment, HarnessError> {
        let bytes = read_capped(path)?;
        Experiment::from_text_in(path, &decode(path, &bytes)?, registry, kinds)
    }

    /// [`Experiment::from_text`] with the backends of `registry` and the kinds of `kinds`.
    pub fn from_text_in(
        path: &Path,
        text: &str,
        registry: &Registry,
        kinds: &[&'static dyn Kind],
    ) -> Result<Experiment, HarnessError> {
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
        let limits = RunLimits::of(&raw, &at)?;
        let certify = certify_of(&raw, &at)?;
        let sources = (raw.instances.iter().enumerate())
            .map(|(i, s)| source_of(i, s, &at, dir, &data))
            .collect::<Result<Vec<_>, _>>()?;
        let backends = backends_of(&raw, limits.time_limit, registry, &at)?;
        let peers = peers_of(&raw.peers, &backends, &at)?;
        let baseline = baseline_of(raw.baseline.as_ref(), &backends, &peers, &at)?;
        let table = check_kind(&raw, &sources, &backends, kinds, &at)?;
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
            repetitions: limits.repetitions,
            time_limit: limits.time_limit,
            memory_limit: limits.memory_limit,
            count_limit: limits.count_limit,
            certify,
            reports_dir,
            baseline,
            sources,
            backends,
            outputs,
            table,
            peers,
        })
    }
}

/// `certify`: only for solve and count experiments (a table has no backend run to prove).
fn certify_of(raw: &RawExperiment, at: &Locator<'_>) -> Result<bool, HarnessError> {
    match &raw.certify {
        Some(c) if *c.get_ref() && raw.kind == ExperimentKind::Table => Err(at.at(
            c.span(),
            "certify: a table experiment runs no backend whose answers a proof could certify; \
             use it in a solve or count experiment",
        )),
        Some(c) => Ok(*c.get_ref()),
        None => Ok(false),
    }
}

/// The numbers of an experiment file's top level, range-checked.
pub(super) struct RunLimits {
    repetitions: u32,
    time_limit: Option<Duration>,
    count_limit: Option<u64>,
    memory_limit: Option<u64>,
}

impl RunLimits {
    /// Reads `repetitions`, `time_limit`, `count_limit` and `memory_limit`; an out-of-range
    /// value is an error located at it.
    fn of(raw: &RawExperiment, at: &Locator<'_>) -> Result<RunLimits, HarnessError> {
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
        Ok(RunLimits {
            repetitions,
            time_limit,
            count_limit,
            memory_limit,
        })
    }
}

/// Source `i` of the file (`[[instances]]`), checked: exactly one origin, the settings that go
/// with it, a sample or a prefix.
pub(super) fn source_of(
    i: usize,
    spanned: &Spanned<RawSource>,
    at: &Locator<'_>,
    dir: &Path,
    data: &Path,
) -> Result<Source, HarnessError> {
    let s = spanned.get_ref();
    let given = [&s.file, &s.data, &s.dir, &s.generate]
        .into_iter()
        .flatten()
        .count();
    if given != 1 {
        return Err(at.at(
            spanned.span(),
            format!(
                "instances[{i}]: expected exactly one of `file`, `data`, `dir` or `generate`, found {given}"
            ),
        ));
    }
    if let (Some(g), None, None) = (&s.glob, &s.dir, &s.data) {
        return Err(at.at(
            g.span(),
            format!("instances[{i}].glob: goes with `dir` (a folder) or `data` (a folder of the data folder), not with `file` or `generate`"),
        ));
    }
    let random = s
        .generate
        .as_ref()
        .filter(|g| g.get_ref() == "sudoku-random");
    if random.is_none() && (s.clues.is_some() || s.count.is_some()) {
        return Err(at.at(
            spanned.span(),
            format!("instances[{i}]: `clues` and `count` go with generate = \"sudoku-random\""),
        ));
    }
    let origin = match (random, &s.generate) {
        (Some(g), _) => random_origin(i, s, g, at)?,
        (None, Some(g)) => builtin_origin(i, s, g, at)?,
        (None, None) => file_origin(i, s, at, dir, data)?,
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
    Ok(Source {
        origin,
        filter,
        sample: s.sample,
        seed: s.seed.unwrap_or(0),
        first: s.first,
    })
}

/// `generate = "sudoku-random"`: a box size, a number of clues and a count, checked.
fn random_origin(
    i: usize,
    s: &RawSource,
    g: &Spanned<String>,
    at: &Locator<'_>,
) -> Result<Origin, HarnessError> {
    let box_size = match s.sizes.as_deref() {
        None => 3,
        Some([b]) if (2..=5).contains(b) => *b,
        Some(_) => {
            return Err(at.at(
                g.span(),
                format!(
                "instances[{i}].sizes: sudoku-random takes one box size from 2 to 5 (3 for 9x9)"
            ),
            ))
        }
    };
    let cells = box_size.pow(4);
    let clues = match &s.clues {
        Some(c) if *c.get_ref() <= cells => *c.get_ref(),
        Some(c) => {
            return Err(at.at(
                c.span(),
                format!("instances[{i}].clues: at most {cells} for box size {box_size}"),
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
    Ok(Origin::RandomSudoku {
        box_size,
        clues,
        count,
        seed: s.seed.unwrap_or(0),
    })
}

/// `generate = "FAMILY"` with its `sizes`, each one the family accepts.
fn builtin_origin(
    i: usize,
    s: &RawSource,
    g: &Spanned<String>,
    at: &Locator<'_>,
) -> Result<Origin, HarnessError> {
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
    Ok(Origin::Builtin { family, sizes })
}

/// `file = "..."` (relative to the experiment file) or `data = "..."` (relative to the data
/// folder): a file that exists; `dir = "..."` (relative to the experiment file) or `data`
/// with a `glob`: a folder holding at least one file the glob matches.
fn file_origin(
    i: usize,
    s: &RawSource,
    at: &Locator<'_>,
    dir: &Path,
    data: &Path,
) -> Result<Origin, HarnessError> {
    let (p, root, key) = match (&s.file, &s.data, &s.dir) {
        (Some(f), _, _) => (f, dir, "file"),
        (_, Some(d), _) => (d, data, "data"),
        (_, _, Some(d)) => (d, dir, "dir"),
        _ => unreachable!("exactly one origin was checked by the caller"),
    };
    let full = if root.as_os_str() == "." {
        PathBuf::from(p.get_ref())
    } else {
        root.join(p.get_ref())
    };
    if key == "dir" || s.glob.is_some() {
        return folder_origin(i, s, at, (p, key), full);
    }
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
    Ok(Origin::File(full))
}

/// A folder source: `key` (`dir` or `data`) names a folder that exists, and `glob` (a file-name
/// pattern, no `/`) matches at least one file in it.
fn folder_origin(
    i: usize,
    s: &RawSource,
    at: &Locator<'_>,
    (p, key): (&Spanned<String>, &str),
    full: PathBuf,
) -> Result<Origin, HarnessError> {
    if !full.is_dir() {
        let what = if full.is_file() {
            "a file, not a folder"
        } else {
            "no such folder"
        };
        return Err(at.at(
            p.span(),
            format!(
                "instances[{i}].{key}: expected a folder, found {what}: {} (resolved to {})",
                p.get_ref(),
                full.display()
            ),
        ));
    }
    let Some(glob) = &s.glob else {
        return Err(at.at(
            p.span(),
            format!("instances[{i}]: `{key}` names a folder and needs a `glob` for its file names, for example glob = \"*.opb\""),
        ));
    };
    let pattern = glob.get_ref();
    if pattern.is_empty() || pattern.contains(['/', '\\']) {
        return Err(at.at(
            glob.span(),
            format!("instances[{i}].glob: expected a file-name pattern such as \"*.cnf\" (`*` and `?`; no folders), found {pattern:?}"),
        ));
    }
    let files = crate::harness::source::folder_files(&full, pattern)
        .map_err(|e| at.at(p.span(), format!("instances[{i}].{key}: {e}")))?;
    if files.is_empty() {
        return Err(at.at(
            glob.span(),
            format!(
                "instances[{i}].glob: no file of {} matches {pattern:?}",
                full.display()
            ),
        ));
    }
    Ok(Origin::Folder {
        dir: full,
        glob: pattern.clone(),
    })
}

/// The backend configurations, in order: each `[[backends]]` entry, once per combination of
/// its sweep, made once through `registry` so a bad name or option is caught here.
pub(super) fn backends_of(
    raw: &RawExperiment,
    time_limit: Option<Duration>,
    registry: &Registry,
    at: &Locator<'_>,
) -> Result<Vec<BackendConfig>, HarnessError> {
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
            let label = label_of(b, &combo);
            if backends.iter().any(|c| c.label == label) {
                return Err(at.at(
                    spanned.span(),
                    format!("backends[{i}]: the label '{label}' is used twice; give each configuration its own `label`"),
                ));
            }
            let (options, task) =
                configuration(i, b, &combo, time_limit, default_task, registry, at)?;
            backends.push(BackendConfig {
                label,
                name: b.name.get_ref().clone(),
                options,
                task,
            });
        }
    }
    Ok(backends)
}

/// The label of `b` under the sweep's `combo`: `LABEL key=value ...` (`LABEL` is the name
/// unless given).
fn label_of(b: &RawBackend, combo: &Combination) -> String {
    let base_label = b.label.clone().unwrap_or_else(|| b.name.get_ref().clone());
    if combo.is_empty() {
        base_label
    } else {
        let parts: Vec<String> = combo.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{base_label} {}", parts.join(" "))
    }
}

/// The options and task of `[[backends]]` entry `i` under the sweep's `combo` (its params
/// with the combination on top), checked by making the backend once.
fn configuration(
    i: usize,
    b: &RawBackend,
    combo: &Combination,
    time_limit: Option<Duration>,
    default_task: Task,
    registry: &Registry,
    at: &Locator<'_>,
) -> Result<(BackendOptions, Task), HarnessError> {
    let name = b.name.get_ref();
    let mut params = BTreeMap::new();
    for (k, v) in &b.params {
        let k = k.get_ref();
        let text = param_text(v.get_ref()).ok_or_else(|| {
            at.at(
                v.span(),
                format!("backends[{i}].params.{k}: expected a string, number or boolean"),
            )
        })?;
        params.insert(k.clone(), text);
    }
    let mut seed = b.seed;
    for (k, v) in combo {
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
    let mut backend = registry
        .make(name, &options)
        .map_err(|e| backend_error_at(i, b, &e, at))?;
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
    Ok((options, task))
}

/// A backend's refusal of entry `i`, located at the option at fault (else at its name).
fn backend_error_at(i: usize, b: &RawBackend, e: &BackendError, at: &Locator<'_>) -> HarnessError {
    match e {
        BackendError::BadOption { key, .. } => match b.params.get(key.as_str()) {
            Some(v) => at.at(v.span(), format!("backends[{i}]: {e}")),
            None => at.at(b.name.span(), format!("backends[{i}]: {e}")),
        },
        BackendError::UnknownOption { key, .. } => match b.params.get_key_value(key.as_str()) {
            Some((k, _)) => at.at(k.span(), format!("backends[{i}].params: {e}")),
            None => at.at(b.name.span(), format!("backends[{i}]: {e}")),
        },
        _ => at.at(b.name.span(), format!("backends[{i}].name: {e}")),
    }
}

/// The peer labels, each unused by the backends and listed once.
pub(super) fn peers_of(
    raw: &[Spanned<String>],
    backends: &[BackendConfig],
    at: &Locator<'_>,
) -> Result<Vec<String>, HarnessError> {
    let mut peers: Vec<String> = Vec::new();
    for p in raw {
        let label = p.get_ref();
        if backends.iter().any(|b| &b.label == label) || peers.contains(label) {
            return Err(at.at(
                p.span(),
                format!("peers: the label '{label}' is already used"),
            ));
        }
        peers.push(label.clone());
    }
    Ok(peers)
}

/// The baseline, which must be the label of a backend or a peer.
pub(super) fn baseline_of(
    raw: Option<&Spanned<String>>,
    backends: &[BackendConfig],
    peers: &[String],
    at: &Locator<'_>,
) -> Result<Option<String>, HarnessError> {
    let Some(b) = raw else {
        return Ok(None);
    };
    if !backends.iter().any(|c| &c.label == b.get_ref()) && !peers.contains(b.get_ref()) {
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
    Ok(Some(b.get_ref().clone()))
}

/// What the experiment's kind needs: a `[table]` section whose keys the swept tables of
/// `kinds` claim, checked, for `table`; else instances and backends (and no `[table]`).
pub(super) fn check_kind(
    raw: &RawExperiment,
    sources: &[Source],
    backends: &[BackendConfig],
    kinds: &[&'static dyn Kind],
    at: &Locator<'_>,
) -> Result<Option<TableSpec>, HarnessError> {
    if raw.kind == ExperimentKind::Table {
        let Some(table) = &raw.table else {
            return Err(at.key("table", "kind = \"table\" needs a [table] section"));
        };
        return table_of(table, kinds, at).map(Some);
    }
    if raw.table.is_some() {
        return Err(at.key("table", "a [table] section needs kind = \"table\""));
    }
    if sources.is_empty() {
        return Err(at.key("instances", "expected at least one [[instances]] source"));
    }
    if backends.is_empty() {
        return Err(at.key("backends", "expected at least one [[backends]] entry"));
    }
    Ok(None)
}

/// A `[table]` key and its value, as the file gives them (spans for messages).
type RawEntry<'a> = (&'a Spanned<String>, &'a Spanned<toml::Value>);

/// The `[table]` section: every key claimed by one kind's swept table (sizes, marks, shards,
/// settings), sizes in range, something to count, shards and settings valid.
fn table_of(
    raw: &BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    kinds: &[&'static dyn Kind],
    at: &Locator<'_>,
) -> Result<TableSpec, HarnessError> {
    let swept: Vec<_> = (tables(kinds).into_iter())
        .filter_map(|(kind, t)| t.swept().map(|s| (kind, s)))
        .collect();
    let claims = |s: &dyn SweptTable| -> Vec<&'static str> {
        let mut keys = vec![s.sizes_key()];
        keys.extend(s.marks().map(|m| m.key));
        if let Some(sh) = s.sharded() {
            keys.push(sh.parts_key());
            keys.extend(sh.setting_keys());
        }
        keys
    };
    // Every claimed key, in the tables' order. A key two kinds' tables claim would be swept
    // twice: refused where the file uses it.
    let mut known: Vec<&str> = Vec::new();
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    for (kind, table) in &swept {
        for key in claims(*table) {
            known.push(key);
            let Some(first) = owner.insert(key, kind) else {
                continue;
            };
            if let Some((used, _)) = raw.iter().find(|(k, _)| k.get_ref() == key) {
                return Err(at.at(
                    used.span(),
                    format!(
                        "table: key `{key}` is claimed by the tables of two kinds, `{first}` and \
                         `{kind}`; a key belongs to one kind"
                    ),
                ));
            }
        }
    }
    if let Some((key, _)) = raw
        .iter()
        .find(|(k, _)| !known.contains(&k.get_ref().as_str()))
    {
        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        let hint = crate::suggest::did_you_mean(key.get_ref(), known.iter().copied());
        return Err(at.at(
            key.span(),
            format!(
                "table: unknown key `{}`, expected one of {}{hint}",
                key.get_ref(),
                list.join(", ")
            ),
        ));
    }
    let mut sweeps = Vec::new();
    for (kind, table) in swept {
        let mine: Vec<RawEntry> = (raw.iter())
            .filter(|(k, _)| claims(table).contains(&k.get_ref().as_str()))
            .collect();
        if !mine.is_empty() {
            sweeps.push(sweep_of(kind, table, &mine, at)?);
        }
    }
    if sweeps.iter().all(|s| s.sizes.is_empty()) {
        let keys: Vec<String> = known_sizes(kinds);
        return Err(at.key(
            "table",
            format!("expected {} (non-empty lists)", in_words_or(&keys)),
        ));
    }
    Ok(TableSpec { sweeps })
}

/// The sizes keys of the swept tables of `kinds`, quoted.
fn known_sizes(kinds: &[&'static dyn Kind]) -> Vec<String> {
    (tables(kinds).into_iter())
        .filter_map(|(_, t)| t.swept().map(|s| format!("`{}`", s.sizes_key())))
        .collect()
}

/// `a`, `a or b`, `a, b or c`.
fn in_words_or(words: &[String]) -> String {
    match words {
        [] => "nothing".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// One kind's sweep from its keys of `[table]`.
fn sweep_of(
    kind: &'static str,
    table: &'static dyn SweptTable,
    entries: &[RawEntry],
    at: &Locator<'_>,
) -> Result<Sweep, HarnessError> {
    let mut sweep = Sweep {
        kind,
        table,
        sizes: Vec::new(),
        marks: Vec::new(),
        parts: None,
        settings: Settings::new(),
    };
    let sharded = table.sharded();
    for &(key, value) in entries {
        let name = key.get_ref().as_str();
        if name == table.sizes_key() {
            sweep.sizes = sizes_of(name, value, at)?;
        } else if table.marks().is_some_and(|m| m.key == name) {
            sweep.marks = sizes_of(name, value, at)?;
        } else if sharded.is_some_and(|s| s.parts_key() == name) {
            match value.get_ref().as_integer() {
                Some(k @ 1..=65536) => sweep.parts = Some(k as usize),
                _ => {
                    let message = format!("`{name}`: expected 1 to 65536 shards");
                    return Err(at.at(value.span(), format!("table: {message}")));
                }
            }
        } else {
            let setting = match value.get_ref() {
                toml::Value::Integer(n) => Setting::Number(*n),
                toml::Value::String(t) => Setting::Text(t.clone()),
                _ => {
                    let message = format!("`{name}`: expected a number or a text");
                    return Err(at.at(value.span(), format!("table: {message}")));
                }
            };
            sweep.settings.insert(name.to_string(), setting);
        }
    }
    if let Some(s) = sharded {
        s.check_settings(&sweep.settings)
            .map_err(|message| at.key("table", message))?;
    }
    Ok(sweep)
}

/// A list of sizes (`hex_widths = [1, 3]`), each from 0 to [`MAX_TABLE_SIZE`].
fn sizes_of(
    key: &str,
    value: &Spanned<toml::Value>,
    at: &Locator<'_>,
) -> Result<Vec<usize>, HarnessError> {
    let bad = |message: String| at.at(value.span(), format!("table.{key}: {message}"));
    let Some(list) = value.get_ref().as_array() else {
        return Err(bad("expected a list of sizes".into()));
    };
    list.iter()
        .map(|v| match v.as_integer() {
            Some(n) if (0..=MAX_TABLE_SIZE as i64).contains(&n) => Ok(n as usize),
            Some(n) => Err(bad(format!(
                "{n}: expected sizes from 0 to {MAX_TABLE_SIZE}"
            ))),
            None => Err(bad(format!("{v}: expected a size"))),
        })
        .collect()
}
