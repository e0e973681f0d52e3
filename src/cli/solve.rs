//! `zeroone solve FILE`: one verified answer per puzzle, read and solved one puzzle at a time
//! (`--jobs` at once), printed in file order.

use std::path::PathBuf;

use clap::Args;
use zeroone::backend::{solve_verified, Backend, Status};
use zeroone::model::Model;
use zeroone::puzzle::parse::Format;
use zeroone::render::{outcome_text, SolveRecord};

use super::backend_args::BackendArgs;
use super::input::{self, JobsArg};
use super::parallel::{ordered, Printer};
use super::CliError;

/// Arguments of `zeroone solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file (.hex, .queens, .sudoku, .txt, .json, .toml, optionally .gz), or `-` for
    /// standard input (with --format).
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// The file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    pub format: Option<Format>,
    /// One JSON object per puzzle per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub jobs: JobsArg,
    #[command(flatten)]
    pub backend: BackendArgs,
}

/// One puzzle's printed outcome, and whether it ended in `error`.
type Solved = Result<(String, bool), CliError>;

/// Solves each selected puzzle and prints the verified outcome in file order. Exits 1 at the
/// end when some puzzle ended in `error` (a backend failure or a rejected answer).
pub fn run(args: SolveArgs) -> Result<(), CliError> {
    let threads = if args.index.is_some() {
        1
    } else {
        args.jobs.threads()
    };
    let backends = make_backends(&args.backend, threads)?;
    let models = input::models(&args.file, args.format, args.index)?;
    let (mut total, mut errors) = (0usize, 0usize);
    let mut printer = Printer::new();
    let result = ordered(
        models,
        backends,
        |backend, (index, model)| solve_one(&args, backend.as_mut(), index, model),
        |solved: Solved| {
            let (text, failed) = solved?;
            total += 1;
            errors += usize::from(failed);
            printer.print(&text)
        },
    );
    result.and(printer.flush())?;
    if errors > 0 {
        return Err(CliError::Failed(format!(
            "{errors} of {total} puzzle(s) ended in error"
        )));
    }
    Ok(())
}

/// One backend per thread, all from the same options.
pub fn make_backends(
    args: &BackendArgs,
    threads: usize,
) -> Result<Vec<Box<dyn Backend>>, CliError> {
    (0..threads).map(|_| args.make()).collect()
}

/// Restricts, solves, verifies and renders one puzzle.
fn solve_one(args: &SolveArgs, backend: &mut dyn Backend, index: usize, model: Model) -> Solved {
    let model = input::restrict(model, args.backend.families.as_deref())?;
    let outcome = solve_verified(backend, &model).map_err(|e| CliError::BadInput(e.to_string()))?;
    let name = backend.name();
    let text = if args.json {
        let mut line = SolveRecord::new(index, &model, name, &outcome).to_json();
        line.push('\n');
        line
    } else {
        outcome_text(index, &model, name, &outcome)
    };
    Ok((text, outcome.status == Status::Error))
}
