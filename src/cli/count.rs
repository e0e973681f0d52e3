//! `zeroone count FILE`: the number of solutions of each puzzle, every witness verified; read
//! and counted one puzzle at a time (`--jobs` at once), printed in file order.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use zeroone::backend::{optimal_solutions_verified, Backend, Count, CountOutcome, Status};
use zeroone::model::Model;
use zeroone::puzzle::parse::Format;
use zeroone::render::{count_text, stable_count_text, CountRecord};

use super::backend_args::BackendArgs;
use super::heartbeat::Heartbeat;
use super::input::{self, JobsArg};
use super::parallel::{print_each_puzzle, Printed, PuzzleRun, Tally};
use super::CliError;

/// Arguments of `zeroone count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[arg(help = input::file_help("--format"))]
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
    /// Count the optimal solutions of a model with an objective (the optimum is proved first,
    /// then every solution of that value is counted, each verified) instead of all solutions.
    #[arg(long)]
    pub optimal: bool,
    /// One JSON object per puzzle per line.
    #[arg(long)]
    pub json: bool,
    /// Deterministic output: no timings or statistics, so it can be committed and diffed.
    #[arg(long)]
    pub stable: bool,
    /// While a puzzle is being counted, print "still counting" with the time so far on
    /// standard error every SECS seconds (default: every 10 s when standard error is a
    /// terminal, for long counts such as `milp`'s one solve per solution).
    #[arg(long, value_name = "SECS", value_parser = super::heartbeat::progress_interval)]
    pub progress: Option<Duration>,
    #[command(flatten)]
    pub certificate: super::check::ProofArgs,
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
    if args.certificate.wanted() {
        if args.optimal {
            return Err(CliError::BadInput(
                "--proof/--certify certify a count of all solutions: drop --optimal".into(),
            ));
        }
        // With --limit the proof claims the exact count when the search ends first (a
        // uniqueness check: --limit 2 and one solution), else at least the limit.
        use zeroone::backend::proof::ProofTask;
        let task = args.limit.map_or(ProofTask::Count, ProofTask::CountUpTo);
        return super::check::proved_one(
            &args.certificate,
            backend,
            index,
            &model,
            task,
            args.json,
        );
    }
    let every = args.progress.or_else(|| {
        use std::io::IsTerminal;
        std::io::stderr()
            .is_terminal()
            .then_some(Duration::from_secs(10))
    });
    let heartbeat = every
        .map(|every| Heartbeat::start("counting", index, backend.serving(&model), every, None));
    let outcome = if args.optimal {
        count_optimal(args, backend, &model)
    } else {
        super::isolated::count(&args.backend, backend, &model, args.limit)
    };
    drop(heartbeat);
    let outcome = outcome?;
    let name = backend.serving(&model);
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

/// `--optimal`: the optimum first, then every solution of that value counted (each verified).
/// Runs in this process, so limits the backend cannot enforce are refused, as for `solve --all`.
fn count_optimal(
    args: &CountArgs,
    backend: &mut dyn Backend,
    model: &Model,
) -> Result<CountOutcome, CliError> {
    if model.objective().is_none() {
        return Err(CliError::BadInput(format!(
            "--optimal counts the optimal solutions of a model with an objective; '{}' has none",
            model.name()
        )));
    }
    if args.backend.memory_limit.is_some() || args.backend.time_limit.is_some() {
        return Err(CliError::BadInput(
            "--optimal runs in this process: --time-limit and --memory-limit are not enforced there; drop them".into(),
        ));
    }
    let (best, stream) = optimal_solutions_verified(backend, model, args.limit, &mut |_| {})
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    let Some(stream) = stream else {
        return Ok(CountOutcome {
            status: best.status,
            count: Count::zero(),
            exhaustive: false,
            verified: false,
            reason: best
                .reason
                .or_else(|| Some(format!("no proved optimum ({})", best.status.name()))),
            stats: best.stats,
        });
    };
    let status = match (stream.status, stream.exhaustive) {
        (Status::Solved, true) => Status::Solved,
        (Status::Solved, false) => Status::Limit,
        (other, _) => other,
    };
    Ok(CountOutcome {
        status,
        count: stream.count.into(),
        exhaustive: stream.exhaustive,
        verified: stream.count > 0,
        reason: stream.reason,
        stats: stream.stats,
    })
}
