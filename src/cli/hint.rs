//! `solve --hint FILE`: a solution (as `solve` prints it) or a partial assignment read against
//! each puzzle's model, handed to the backend as its `hint` option
//! ([`zeroone::backend::incumbent::Hint`]).
//!
//! The file holds, one per line (blank lines and `#` comments skipped, and the `puzzle ...`
//! lines of `solve`'s text output):
//! - a JSON object with `"ones"` (as `solve --json` prints it: labels, or ids with `--ids`):
//!   those variables 1, every other 0;
//! - `ones: LABEL LABEL ...` (as `solve` prints it): the same;
//! - `LABEL=0` / `LABEL=1` pairs, separated by spaces or commas: a partial assignment.
//!
//! A complete hint that breaks a row is reported on standard error with the verifier's
//! violation and only orders the search's choices; it is never taken as a solution.

use std::path::Path;

use zeroone::backend::incumbent::Hint;
use zeroone::model::verify::Verifier;
use zeroone::model::{Model, Solution};

use super::CliError;

/// The hint in `path` for `model`. A line that is none of the forms above, an unknown label
/// or id, or a variable given twice is bad input, located as `FILE:LINE:COLUMN`. Cost: one
/// pass over the file and one verifier pass.
pub(super) fn read_hint(path: &Path, model: &Model) -> Result<Hint, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::BadInput(format!("--hint {}: {e}", path.display())))?;
    let mut values: Vec<Option<bool>> = vec![None; model.num_variables()];
    let mut complete = false;
    for (i, line) in text.lines().enumerate() {
        let at = |column: usize, what: String| {
            CliError::BadInput(format!(
                "{}:{}:{}: {what}",
                path.display(),
                i + 1,
                column + 1
            ))
        };
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if body.is_empty() || body.starts_with('#') || body.starts_with("puzzle ") {
            continue;
        }
        let mut set = |column: usize, name: &str, value: bool| -> Result<(), CliError> {
            let v = variable(model, name).ok_or_else(|| {
                at(
                    column,
                    format!("'{name}' is no variable of model '{}'", model.name()),
                )
            })?;
            if values[v].is_some_and(|x| x != value) {
                return Err(at(
                    column,
                    format!("variable '{name}' is given both 0 and 1"),
                ));
            }
            values[v] = Some(value);
            Ok(())
        };
        if body.starts_with('{') {
            let json: serde_json::Value = serde_json::from_str(body).map_err(|e| {
                at(
                    indent + e.column().saturating_sub(1),
                    format!("bad JSON: {e}"),
                )
            })?;
            let ones = json["ones"].as_array().ok_or_else(|| {
                at(
                    indent,
                    "expected a JSON object with \"ones\" (as solve --json prints)".into(),
                )
            })?;
            for one in ones {
                let name = match one {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Number(n) => n.to_string(),
                    other => {
                        return Err(at(indent, format!("'{other}' in \"ones\" is no variable")))
                    }
                };
                set(indent, &name, true)?;
            }
            complete = true;
        } else if let Some(rest) = body.strip_prefix("ones:") {
            for (column, name) in words(rest, indent + 5) {
                set(column, name, true)?;
            }
            complete = true;
        } else {
            for (column, pair) in words(body, indent) {
                let value = match pair.rsplit_once('=') {
                    Some((name, "1")) => (name, true),
                    Some((name, "0")) => (name, false),
                    _ => {
                        return Err(at(
                            column,
                            format!("expected LABEL=0 or LABEL=1, or a line 'ones: ...' or a JSON solution, found '{pair}'"),
                        ))
                    }
                };
                set(column, value.0, value.1)?;
            }
        }
    }
    if complete {
        // A solution lists its ones: every other own variable is 0.
        for v in values.iter_mut().take(model.own_variables()) {
            v.get_or_insert(false);
        }
        report_violation(path, model, &values);
    }
    Ok(Hint {
        values: values
            .iter()
            .enumerate()
            .filter_map(|(v, x)| x.map(|x| (v, x)))
            .collect(),
    })
}

/// The words of `text` (split at spaces and commas) with their columns (`offset` + position).
fn words(text: &str, offset: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split([' ', ',', '\t'])
        .map(move |w| {
            let column = offset + at;
            at += w.len() + 1;
            (column, w)
        })
        .filter(|(_, w)| !w.is_empty())
}

/// The variable labelled `name`, or with id `name` (for `--ids` output).
fn variable(model: &Model, name: &str) -> Option<usize> {
    model
        .variable_by_label(name)
        .or_else(|| name.parse().ok().filter(|&v| v < model.num_variables()))
}

/// A complete hint that breaks a row: said on standard error (the search then uses it only
/// to order its choices).
fn report_violation(path: &Path, model: &Model, values: &[Option<bool>]) {
    let Some(bools) = values.iter().copied().collect::<Option<Vec<bool>>>() else {
        return;
    };
    if let Err(v) = Verifier::new(model).check(&Solution::from_bools(&bools)) {
        eprintln!(
            "zeroone: --hint {}: not a solution of '{}' ({v}); used only to order the search's choices",
            path.display(),
            model.name()
        );
    }
}
