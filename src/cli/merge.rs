//! `zeroone merge experiments/NAME.toml`: joins the shard record files of a run spread over
//! several machines into `reports/NAME.jsonl` and writes the reports.

use std::path::PathBuf;

use clap::Args;

use zeroone::harness::runner::merge_records;
use zeroone::harness::Experiment;

use super::run::cli_error;
use super::CliError;

/// Options of `zeroone merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The experiment file the shards ran.
    pub experiment: PathBuf,
    /// Record files to join (default: every `NAME.shard-*.jsonl` in the reports folder).
    pub files: Vec<PathBuf>,
    /// Folder for records and reports (default: the experiment's `reports_dir`, relative to
    /// the experiment file; `reports/` beside it when unset).
    #[arg(long)]
    pub reports: Option<PathBuf>,
}

/// Runs `zeroone merge`.
pub fn run(args: MergeArgs) -> Result<(), CliError> {
    let experiment = Experiment::load(&args.experiment).map_err(cli_error)?;
    let reports = args
        .reports
        .clone()
        .unwrap_or_else(|| experiment.reports_dir.clone());
    // The program as `zeroone`, not the path it was run from (machine-specific).
    let command: Vec<String> = std::iter::once("zeroone".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let summary =
        merge_records(&experiment, &reports, &args.files, &command.join(" ")).map_err(cli_error)?;
    eprintln!(
        "{}: merged {} files into {} ({} of {} runs, {} peer rows)",
        experiment.name,
        summary.inputs.len(),
        summary.merged.display(),
        summary.records,
        summary.jobs,
        summary.peer_records
    );
    if summary.records < summary.jobs {
        eprintln!(
            "{} runs are missing: run the missing shards, then merge again",
            summary.jobs - summary.records
        );
    }
    super::print_paths(&summary.reports)
}
