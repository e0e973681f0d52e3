//! `zeroone report experiments/NAME.toml`: rewrites an experiment's reports from its records
//! alone, without running anything.

use std::path::PathBuf;

use clap::Args;

use zeroone::harness::runner::rewrite_reports;
use zeroone::harness::Experiment;

use super::run::cli_error;
use super::CliError;

/// Options of `zeroone report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The experiment file whose records to report.
    pub experiment: PathBuf,
    /// Folder for records and reports (default: the experiment's `reports_dir`, relative to
    /// the experiment file; `reports/` beside it when unset).
    #[arg(long)]
    pub reports: Option<PathBuf>,
}

/// Runs `zeroone report`.
pub fn run(args: ReportArgs) -> Result<(), CliError> {
    let experiment = Experiment::load(&args.experiment).map_err(cli_error)?;
    let reports = args
        .reports
        .clone()
        .unwrap_or_else(|| experiment.reports_dir.clone());
    let command: Vec<String> = std::iter::once("zeroone".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let written = rewrite_reports(&experiment, &reports, &command.join(" ")).map_err(cli_error)?;
    super::print_paths(&written)
}
