//! `zeroone show FILE`: the 0-1 model of each puzzle (sizes, families, the matrix when small).

use std::path::PathBuf;

use clap::Args;
use zeroone::render::{model_text, ShowRecord};

use super::{input, CliError};

/// Arguments of `zeroone show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Puzzle file (.hex, .queens, .sudoku, .txt, .json, .toml).
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// One JSON object per puzzle per line: index, variables, constraints, families, nonzeros.
    #[arg(long)]
    pub json: bool,
}

/// Prints the model of each selected puzzle.
pub fn run(args: ShowArgs) -> Result<(), CliError> {
    let models = input::models(&args.file, args.index)?;
    let mut out = String::new();
    for (i, (index, model)) in models.iter().enumerate() {
        if args.json {
            out.push_str(&ShowRecord::new(*index, model).to_json());
            out.push('\n');
        } else {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&model_text(model));
        }
    }
    super::print_stdout(&out)
}
