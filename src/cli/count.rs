//! `zeroone count FILE`: the number of solutions of each puzzle, every witness verified.

use std::path::PathBuf;

use clap::Args;
use zeroone::render::{count_text, CountRecord};

use super::backend_args::BackendArgs;
use super::{input, CliError};

/// Arguments of `zeroone count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Puzzle file (.hex, .queens, .sudoku, .txt, .json, .toml).
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// Stop counting after this many solutions.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// One JSON object per puzzle per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub backend: BackendArgs,
}

/// Counts the solutions of each selected puzzle. Exits 1 at the end when some count ended in
/// `error`.
pub fn run(args: CountArgs) -> Result<(), CliError> {
    let models = input::restrict(
        input::models(&args.file, args.index)?,
        args.backend.families.as_deref(),
    )?;
    let mut backend = args.backend.make()?;
    let name = backend.name();
    let mut errors = 0;
    for (index, model) in &models {
        let outcome = super::isolated::count(&args.backend, backend.as_mut(), model, args.limit)?;
        if outcome.status.is_failure() {
            errors += 1;
        }
        if args.json {
            super::print_stdout(&format!(
                "{}\n",
                CountRecord::new(*index, name, &outcome).to_json()
            ))?;
        } else {
            super::print_stdout(&count_text(*index, model, name, &outcome))?;
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
