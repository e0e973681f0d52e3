//! `zeroone count FILE`: the number of solutions of each puzzle, every witness verified.

use std::path::PathBuf;

use clap::Args;
use zeroone::backend::{count_verified, Status};
use zeroone::render::{count_text, stable_count_text, CountRecord};

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
    /// Stop counting after this many solutions (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// One JSON object per puzzle per line.
    #[arg(long)]
    pub json: bool,
    /// Deterministic output: no timings or statistics, so it can be committed and diffed.
    #[arg(long)]
    pub stable: bool,
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
        let outcome = count_verified(backend.as_mut(), model, args.limit)
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        if outcome.status == Status::Error {
            errors += 1;
        }
        let text = match (args.json, args.stable) {
            (true, false) => format!("{}\n", CountRecord::new(*index, name, &outcome).to_json()),
            (true, true) => format!(
                "{}\n",
                CountRecord::new(*index, name, &outcome).stable().to_json()
            ),
            (false, false) => count_text(*index, model, name, &outcome),
            (false, true) => stable_count_text(*index, model, name, &outcome),
        };
        super::print_stdout(&text)?;
    }
    if errors > 0 {
        return Err(CliError::Failed(format!(
            "{errors} of {} puzzle(s) ended in error",
            models.len()
        )));
    }
    Ok(())
}
