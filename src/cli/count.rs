//! `zeroone count FILE`: the number of solutions of each puzzle, every witness verified; read
//! and counted one puzzle at a time (`--jobs` at once), printed in file order.

use std::path::PathBuf;

use clap::Args;
use zeroone::backend::Backend;
use zeroone::model::Model;
use zeroone::puzzle::parse::Format;
use zeroone::render::{count_text, stable_count_text, CountRecord};

use super::backend_args::BackendArgs;
use super::input::{self, JobsArg};
use super::parallel::{ordered, Printer};
use super::solve::make_backends;
use super::CliError;

/// Arguments of `zeroone count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// Puzzle file (.hex, .queens, .sudoku, .txt, .json, .toml, optionally .gz), or `-` for
    /// standard input (with --format).
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// The file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    pub format: Option<Format>,
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
    pub jobs: JobsArg,
    #[command(flatten)]
    pub backend: BackendArgs,
}

/// One puzzle's printed count, and whether it ended in `error`.
type Counted = Result<(String, bool), CliError>;

/// Counts the solutions of each selected puzzle. Exits 1 at the end when some count failed:
/// `error`, `crash` or `unsupported`.
pub fn run(args: CountArgs) -> Result<(), CliError> {
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
        |backend, (index, model)| count_one(&args, backend.as_mut(), index, model),
        |counted: Counted| {
            let (text, failed) = counted?;
            total += 1;
            errors += usize::from(failed);
            printer.print(&text)
        },
    );
    result.and(printer.flush())?;
    if errors > 0 {
        return Err(CliError::Failed(format!(
            "{errors} of {total} puzzle(s) failed (error, crash or unsupported)"
        )));
    }
    Ok(())
}

/// Restricts, counts, verifies the witnesses of and renders one puzzle.
fn count_one(args: &CountArgs, backend: &mut dyn Backend, index: usize, model: Model) -> Counted {
    let model = input::restrict(model, args.backend.families.as_deref())?;
    let outcome = super::isolated::count(&args.backend, backend, &model, args.limit)?;
    let name = backend.name();
    let text = match (args.json, args.stable) {
        (true, false) => format!("{}\n", CountRecord::new(index, name, &outcome).to_json()),
        (true, true) => format!(
            "{}\n",
            CountRecord::new(index, name, &outcome).stable().to_json()
        ),
        (false, false) => count_text(index, &model, name, &outcome),
        (false, true) => stable_count_text(index, &model, name, &outcome),
    };
    Ok((text, outcome.status.is_failure()))
}
