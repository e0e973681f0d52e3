//! Reading the puzzle file a command works on, and picking puzzles with `--index`.

use std::path::Path;

use zeroone::model::Model;
use zeroone::puzzle::parse::load_models;

use super::CliError;

/// The models of `file` (all of them, or only puzzle `index`), each with its index in the
/// file. The whole file is read and checked before anything is printed.
pub fn models(file: &Path, index: Option<usize>) -> Result<Vec<(usize, Model)>, CliError> {
    let models = load_models(file).map_err(|e| CliError::BadInput(e.to_string()))?;
    match index {
        None => Ok(models.into_iter().enumerate().collect()),
        Some(i) if i < models.len() => Ok(vec![(
            i,
            models.into_iter().nth(i).unwrap_or_else(|| unreachable!()),
        )]),
        Some(i) => Err(CliError::BadInput(format!(
            "{}: --index {i}: expected a puzzle index from 0 to {}, the file holds {} puzzle(s)",
            file.display(),
            models.len() - 1,
            models.len()
        ))),
    }
}
