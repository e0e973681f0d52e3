//! `zeroone solve FILE`: one verified answer per puzzle.

use std::path::PathBuf;

use clap::Args;
use zeroone::render::{outcome_text, SolveRecord};

use super::backend_args::BackendArgs;
use super::{input, CliError};

/// Arguments of `zeroone solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file (.hex, .queens, .sudoku, .txt, .json, .toml).
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// One JSON object per puzzle per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub backend: BackendArgs,
}

/// Solves each selected puzzle and prints the verified outcome as it comes. Exits 1 at the end
/// when some puzzle ended in `error` (a backend failure or a rejected answer).
pub fn run(args: SolveArgs) -> Result<(), CliError> {
    let models = input::restrict(
        input::models(&args.file, args.index)?,
        args.backend.families.as_deref(),
    )?;
    let mut backend = args.backend.make()?;
    let name = backend.name();
    let mut errors = 0;
    for (index, model) in &models {
        let outcome = super::isolated::solve(&args.backend, backend.as_mut(), model)?;
        if outcome.status.is_failure() {
            errors += 1;
        }
        if args.json {
            super::print_stdout(&format!(
                "{}\n",
                SolveRecord::new(*index, model, name, &outcome).to_json()
            ))?;
        } else {
            super::print_stdout(&outcome_text(*index, model, name, &outcome))?;
        }
    }
    if errors > 0 {
        return Err(CliError::Failed(format!(
            "{errors} of {} puzzle(s) ended in error",
            models.len()
        )));
    }
    Ok(())
}
