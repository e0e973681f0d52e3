//! `zeroone solve FILE`: one verified answer per puzzle, or every solution with `--all`.

use std::path::PathBuf;

use clap::Args;
use zeroone::backend::{solutions_verified, solve_verified, Outcome, Status};
use zeroone::model::{Model, Solution};
use zeroone::render::{outcome_text, stable_outcome_text, SolveRecord};

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
    /// Deterministic output: no timings or statistics, so it can be committed and diffed.
    #[arg(long)]
    pub stable: bool,
    /// Generic models: print variable ids instead of labels in `ones` (JSON).
    #[arg(long)]
    pub ids: bool,
    /// Print every solution (each verified), one per line, instead of the first.
    #[arg(long)]
    pub all: bool,
    /// With `--all`: stop after this many solutions per puzzle.
    #[arg(long, value_name = "N", requires = "all")]
    pub limit: Option<u64>,
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
    let mut errors = 0;
    for (index, model) in &models {
        let status = if args.all {
            print_all(&args, backend.as_mut(), *index, model)?
        } else {
            let outcome = solve_verified(backend.as_mut(), model)
                .map_err(|e| CliError::BadInput(e.to_string()))?;
            super::print_stdout(&outcome_line(
                &args,
                *index,
                model,
                backend.name(),
                &outcome,
            ))?;
            outcome.status
        };
        if status == Status::Error {
            errors += 1;
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

/// The printed form of one outcome (JSON line or text), as `--stable` and `--ids` ask.
fn outcome_line(
    args: &SolveArgs,
    index: usize,
    model: &Model,
    backend: &str,
    outcome: &Outcome,
) -> String {
    if args.json {
        let mut record = SolveRecord::new(index, model, backend, outcome);
        if args.ids {
            record = record.with_ids(outcome.solution.as_ref());
        }
        if args.stable {
            record = record.stable();
        }
        format!("{}\n", record.to_json())
    } else if args.stable {
        stable_outcome_text(index, model, backend, outcome)
    } else {
        outcome_text(index, model, backend, outcome)
    }
}

/// `--all`: streams every verified solution of one puzzle, one line (or drawing) each, then
/// returns the stream's status. With no solution, one line says why.
fn print_all(
    args: &SolveArgs,
    backend: &mut dyn zeroone::backend::Backend,
    index: usize,
    model: &Model,
) -> Result<Status, CliError> {
    let name = backend.name();
    let mut number = 0u64;
    let mut printing: Result<(), CliError> = Ok(());
    let stream = solutions_verified(backend, model, args.limit, &mut |s: &Solution| {
        if printing.is_ok() {
            printing = super::print_stdout(&solution_line(args, index, model, name, number, s));
        }
        number += 1;
    })
    .map_err(|e| CliError::BadInput(e.to_string()))?;
    printing?;
    let closing = Outcome {
        status: stream.status,
        solution: None,
        verified: false,
        reason: stream.reason.clone(),
        stats: stream.stats.clone(),
    };
    if stream.count == 0 || stream.status == Status::Error {
        super::print_stdout(&outcome_line(args, index, model, name, &closing))?;
    } else if !args.json {
        let how = if stream.exhaustive {
            "all of them"
        } else {
            "stopped early"
        };
        super::print_stdout(&format!(
            "puzzle {index} ({}): {} solution(s) by {name}, each verified ({how})\n",
            model.name(),
            stream.count
        ))?;
    }
    Ok(stream.status)
}

/// One solution of `--all`, already verified, as a JSON line or a drawing.
fn solution_line(
    args: &SolveArgs,
    index: usize,
    model: &Model,
    backend: &str,
    number: u64,
    solution: &Solution,
) -> String {
    let outcome = Outcome {
        status: Status::Solved,
        solution: Some(solution.clone()),
        verified: true,
        reason: None,
        stats: Default::default(),
    };
    if args.json {
        let mut record = SolveRecord::new(index, model, backend, &outcome).stable();
        record.solution = Some(number);
        if args.ids {
            record = record.with_ids(Some(solution));
        }
        format!("{}\n", record.to_json())
    } else {
        format!(
            "puzzle {index} ({}) solution {number}:\n{}",
            model.name(),
            zeroone::render::solution_text(model, solution)
        )
    }
}
