//! `zeroone export FILE [--index I] --format lp|mps|opb|cnf|json [--output PATH]`: the 0-1
//! model of a puzzle for other solvers. One puzzle goes to standard output or to `PATH`; a file
//! of several puzzles needs `--index`, or `--output DIR` (an existing folder) to get one file
//! per puzzle, `<stem>-<index>.<format>`. Every model is rendered before anything is written,
//! and each file is written through a temporary file and a rename.

use std::path::{Path, PathBuf};

use clap::Args;
use zeroone::export::cnf::{to_dimacs, CnfOptions};
use zeroone::export::{render, write_file, Format};

use super::{input, CliError};

/// Arguments of `zeroone export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Puzzle file (.hex, .queens, .sudoku, .txt, .json, .toml).
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// Output format: lp (CPLEX LP), mps (free MPS), opb (pseudo-Boolean), cnf (DIMACS), json
    /// (the generic model).
    #[arg(long)]
    pub format: String,
    /// Write here instead of standard output; an existing folder gets one file per puzzle.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// CNF only: rows of at most this many variables get pairwise at-most-one clauses, longer
    /// rows a sequential counter.
    #[arg(long, default_value_t = CnfOptions::default().pairwise_up_to)]
    pub pairwise_up_to: usize,
}

/// Exports the selected puzzles.
pub fn run(args: ExportArgs) -> Result<(), CliError> {
    let format: Format = args
        .format
        .parse()
        .map_err(|e| CliError::BadInput(format!("--format: {e}")))?;
    let models = input::models(&args.file, args.index)?;
    let mut texts = Vec::with_capacity(models.len());
    for (index, model) in &models {
        let text = match format {
            Format::Cnf => to_dimacs(
                model,
                &CnfOptions {
                    pairwise_up_to: args.pairwise_up_to,
                },
            ),
            _ => render(model, format).map_err(|e| {
                CliError::BadInput(format!("{} puzzle {index}: {e}", args.file.display()))
            })?,
        };
        texts.push((*index, text));
    }
    let folder = args.output.as_deref().filter(|p| p.is_dir());
    if texts.len() > 1 && folder.is_none() {
        return Err(CliError::BadInput(format!(
            "{} holds {} puzzles: pick one with --index, or give --output an existing folder for one file each",
            args.file.display(),
            texts.len()
        )));
    }
    let write = |path: &Path, text: &str| {
        write_file(path, text).map_err(|e| CliError::Failed(e.to_string()))
    };
    match (folder, &args.output) {
        (Some(dir), _) => {
            let stem = args
                .file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".into());
            for (index, text) in &texts {
                write(&dir.join(format!("{stem}-{index}.{format}")), text)?;
            }
        }
        (None, Some(path)) => write(path, &texts[0].1)?,
        (None, None) => super::print_stdout(&texts[0].1)?,
    }
    Ok(())
}
