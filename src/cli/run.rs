//! `zeroone run experiments/NAME.toml`: runs an experiment, appending records to
//! `reports/NAME.jsonl` and writing its reports.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;

use zeroone::harness::peers::PeerSetup;
use zeroone::harness::runner::{export_models, rewrite_reports};
use zeroone::harness::{run_experiment, Experiment, HarnessError, RunOptions, Shard};

use super::CliError;

/// Options of `zeroone run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The experiment file (TOML).
    pub experiment: PathBuf,
    /// Worker processes at once, 1 to 1024 (default: one per core); each run has its own process.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
    /// Memory limit per run in MB (address space of its worker); overrides the experiment's
    /// `memory_limit`.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Continue `reports/NAME.jsonl`, skipping runs already on record.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Replace an existing `reports/NAME.jsonl` instead of refusing to.
    #[arg(long)]
    pub fresh: bool,
    /// Run one deterministic slice k of N (1-based), writing `NAME.shard-k-of-N.jsonl`.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Folder for records and reports (default: the experiment's `reports_dir`, relative to
    /// the experiment file; `reports/` beside it when unset).
    #[arg(long)]
    pub reports: Option<PathBuf>,
    /// Stop after this many new runs (the record file stays resumable).
    #[arg(long)]
    pub max_runs: Option<usize>,
    /// Write each instance's model as JSON into this folder (for experiments/peers/) and exit
    /// without running anything.
    #[arg(long, value_name = "DIR")]
    pub export_models: Option<PathBuf>,
    /// Run only the peer LABEL (one of the experiment's `peers` that is a backend of this
    /// binary, such as `highs` with `--features highs`) on the same instances and limits,
    /// into `NAME.peer-LABEL.jsonl`; join it with `zeroone merge EXPERIMENT FILE`.
    #[arg(long, value_name = "LABEL", conflicts_with = "export_models")]
    pub peer: Option<String>,
    /// Run only the backends, not the experiment's `peers` (which otherwise run after them,
    /// through experiments/peers/peers.py under $ZEROONE_PYTHON, into the same records).
    #[arg(long, conflicts_with_all = ["peer", "export_models"])]
    pub no_peers: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Maps a harness error to the CLI's exit codes: bad input 2, a failed run 1.
pub fn cli_error(e: HarnessError) -> CliError {
    if e.is_bad_input() {
        CliError::BadInput(e.to_string())
    } else {
        CliError::Failed(e.to_string())
    }
}

/// Runs `zeroone run`.
pub fn run(args: RunArgs) -> Result<(), CliError> {
    let mut experiment = Experiment::load(&args.experiment).map_err(cli_error)?;
    let reports = args
        .reports
        .clone()
        .unwrap_or_else(|| experiment.reports_dir.clone());
    if let Some(label) = &args.peer {
        experiment = experiment.as_peer_run(label).map_err(cli_error)?;
    }
    if let Some(dir) = &args.export_models {
        let n = export_models(&experiment, dir, args.shard).map_err(cli_error)?;
        eprintln!("{}: wrote {n} models to {}", experiment.name, dir.display());
        return Ok(());
    }
    // The experiment's peers are checked before anything runs: a missing package is named
    // now, not after the backends' runs.
    let peers = (!args.no_peers && args.peer.is_none() && !experiment.peers.is_empty())
        .then(|| PeerSetup::of(&experiment));
    if let Some(setup) = &peers {
        setup.check(&experiment).map_err(cli_error)?;
    }
    // The program as `zeroone`, not the path it was run from (machine-specific).
    let command: Vec<String> = std::iter::once("zeroone".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let options = RunOptions {
        jobs: args.jobs,
        resume: args.resume,
        fresh: args.fresh,
        shard: args.shard,
        reports_dir: reports,
        stop_after: args.max_runs,
        progress: !args.quiet && std::io::stderr().is_terminal(),
        command: command.join(" "),
        memory_limit: args.memory_limit,
        worker_exe: None,
        registry: zeroone::backend::Registry::builtin(),
        stop: None,
    };
    let summary = run_experiment(&experiment, &options).map_err(cli_error)?;
    eprintln!(
        "{}: {} runs in this slice, {} already on record, {} run now -> {}",
        experiment.name,
        summary.jobs,
        summary.already_done,
        summary.ran,
        summary.records.display()
    );
    if summary.stopped {
        eprintln!("stopped early; continue with --resume");
        return super::print_paths(&summary.reports);
    }
    let Some(setup) = peers else {
        return super::print_paths(&summary.reports);
    };
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot find the zeroone binary: {e}")))?;
    let reports = &options.reports_dir;
    let joined =
        (setup.run(&experiment, reports, args.shard, args.resume, &exe)).map_err(cli_error)?;
    eprintln!(
        "{}: peers {} ran; {joined} of their runs joined {}",
        experiment.name,
        experiment.peers.join(", "),
        summary.records.display()
    );
    if args.shard.is_some() {
        return super::print_paths(&summary.reports);
    }
    let written = rewrite_reports(&experiment, reports, &command.join(" ")).map_err(cli_error)?;
    super::print_paths(&written)
}
