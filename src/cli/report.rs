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
    /// Folder of the records and reports.
    #[arg(long, default_value = "reports")]
    pub reports: PathBuf,
}

/// Runs `zeroone report`.
pub fn run(args: ReportArgs) -> Result<(), CliError> {
    let experiment = Experiment::load(&args.experiment).map_err(cli_error)?;
    let command: Vec<String> = std::iter::once("zeroone".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let written =
        rewrite_reports(&experiment, &args.reports, &command.join(" ")).map_err(cli_error)?;
    super::print_paths(&written)
}
