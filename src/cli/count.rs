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
use super::parallel::{print_each_puzzle, Printed, PuzzleRun, Tally};
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

/// Counts the solutions of each selected puzzle. Exits 1 at the end when some count failed:
/// `error`, `crash` or `unsupported`.
pub fn run(args: CountArgs) -> Result<(), CliError> {
    let run = PuzzleRun {
        file: &args.file,
        format: args.format,
        index: args.index,
        jobs: &args.jobs,
        backend: &args.backend,
        summary: !args.json && !args.stable,
    };
    print_each_puzzle(run, |backend, index, model| {
        count_one(&args, backend, index, model)
    })
}

/// Restricts, counts, verifies the witnesses of and renders one puzzle.
fn count_one(args: &CountArgs, backend: &mut dyn Backend, index: usize, model: Model) -> Printed {
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
    let tally = Tally {
        answered: outcome.status == zeroone::backend::Status::Solved,
        ..Tally::of(outcome.status, outcome.stats.seconds)
    };
    Ok((text, tally))
}
