//! The experiment file as TOML gives it (`deny_unknown_fields`, spans kept for messages), and
//! the helpers that read it: bytes to text, line and column of a span, sweeps, paths.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::backend::time_limit_from_seconds;
use crate::harness::HarnessError;

use super::*;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExperiment {
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    #[serde(default)]
    pub(super) kind: ExperimentKind,
    pub(super) repetitions: Option<Spanned<u32>>,
    pub(super) time_limit: Option<Spanned<toml::Value>>,
    pub(super) memory_limit: Option<Spanned<toml::Value>>,
    pub(super) count_limit: Option<Spanned<u64>>,
    pub(super) certify: Option<Spanned<bool>>,
    pub(super) baseline: Option<Spanned<String>>,
    pub(super) data_dir: Option<String>,
    pub(super) reports_dir: Option<String>,
    pub(super) outputs: Option<Vec<Output>>,
    #[serde(default)]
    pub(super) instances: Vec<Spanned<RawSource>>,
    #[serde(default)]
    pub(super) backends: Vec<Spanned<RawBackend>>,
    /// `[table]`: each key is one a kind's swept table claims (see `checks::table_of`).
    pub(super) table: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    #[serde(default)]
    pub(super) peers: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSource {
    pub(super) file: Option<Spanned<String>>,
    pub(super) data: Option<Spanned<String>>,
    pub(super) dir: Option<Spanned<String>>,
    pub(super) glob: Option<Spanned<String>>,
    pub(super) generate: Option<Spanned<String>>,
    pub(super) sizes: Option<Vec<usize>>,
    pub(super) clues: Option<Spanned<usize>>,
    pub(super) count: Option<usize>,
    pub(super) sample: Option<usize>,
    pub(super) seed: Option<u64>,
    pub(super) first: Option<usize>,
    #[serde(default)]
    pub(super) known_solution: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBackend {
    pub(super) name: Spanned<String>,
    pub(super) label: Option<String>,
    #[serde(default)]
    pub(super) seed: u64,
    #[serde(default)]
    pub(super) params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    pub(super) task: Option<Task>,
    /// Parameter sweep: each key (`seed` or a parameter) with a list of values; the backend
    /// becomes one configuration per combination.
    #[serde(default)]
    pub(super) sweep: BTreeMap<Spanned<String>, Spanned<Vec<toml::Value>>>,
}

/// The most configurations one `sweep` may make.
pub(super) const MAX_SWEEP: usize = 10_000;

/// One combination of a sweep: `(key, value text)` pairs.
pub(super) type Combination = Vec<(String, String)>;

/// The combinations of a sweep, in order (the last key varies fastest): each a list of
/// `(key, value text)`. `Err` names the key whose value is not a string, number or boolean.
pub(super) fn sweep_combinations(
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
pub(super) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

pub(super) struct Locator<'a> {
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
}

impl Locator<'_> {
    pub(super) fn at(&self, span: Range<usize>, message: impl Into<String>) -> HarnessError {
        let (line, column) = line_column(self.text, span.start);
        HarnessError::Experiment {
            file: self.path.to_path_buf(),
            location: format!("{line}:{column}"),
            message: message.into(),
        }
    }
    pub(super) fn key(&self, key: &str, message: impl Into<String>) -> HarnessError {
        HarnessError::Experiment {
            file: self.path.to_path_buf(),
            location: key.to_string(),
            message: message.into(),
        }
    }
}

/// A positive time limit of at most [`MAX_TIME_LIMIT`], from a TOML integer or float.
pub(super) fn seconds(value: &toml::Value) -> Option<Duration> {
    let s = match value {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        _ => return None,
    };
    time_limit_from_seconds(s)
}

/// The most repetitions of one (instance, backend) pair an experiment may ask for.
pub(super) const MAX_REPETITIONS: u32 = 1000;
/// The largest hex width or Queens size a `[table]` section may list (a guard against absurd
/// values; the table refuses sizes it cannot count with its own range).
pub(super) const MAX_TABLE_SIZE: usize = 1000;
/// The most puzzles one `generate = "sudoku-random"` source may make.
pub(super) const MAX_RANDOM_COUNT: usize = 1_000_000;

/// Experiment text from file bytes: UTF-8 or an error located at the first bad byte (line and
/// column of the text before it).
pub(super) fn decode(path: &Path, bytes: &[u8]) -> Result<String, HarnessError> {
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

pub(super) fn param_text(value: &toml::Value) -> Option<String> {
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
pub(super) fn join_tidy(dir: &Path, relative: &str) -> PathBuf {
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
pub(super) fn data_root(dir: &Path, data_dir: Option<&str>) -> PathBuf {
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
pub(super) fn read_capped(path: &Path) -> Result<Vec<u8>, HarnessError> {
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
