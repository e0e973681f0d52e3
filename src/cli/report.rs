//! `zeroone report experiments/NAME.toml`: rewrites an experiment's reports from its records
//! alone, without running anything.

use std::path::PathBuf;

use clap::Args;

use zeroone::harness::report::write_benchexec;
use zeroone::harness::runner::rewrite_reports;
use zeroone::harness::Experiment;

use super::run::cli_error;
use super::CliError;

/// Options of `zeroone report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The experiment file whose records to report.
    #[arg(required_unless_present = "compare")]
    pub experiment: Option<PathBuf>,
    /// Compare two record sets (experiment files or record files, A then B) instead: writes
    /// `A-vs-B.html` (pairs whose status, count or objective differ; largest time ratios) in
    /// `--reports` (default: the current folder).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with = "experiment")]
    pub compare: Option<Vec<PathBuf>>,
    /// Write the records in another format instead of the reports: `benchexec` writes
    /// BenchExec result files, `NAME.results.LABEL.xml` (one per backend label), for
    /// BenchExec's `table-generator`.
    #[arg(long, value_parser = ["benchexec"], conflicts_with = "compare")]
    pub format: Option<String>,
    /// Folder for records and reports (default: the experiment's `reports_dir`, relative to
    /// the experiment file; `reports/` beside it when unset).
    #[arg(long)]
    pub reports: Option<PathBuf>,
}

/// Runs `zeroone report`.
pub fn run(args: ReportArgs) -> Result<(), CliError> {
    if let Some(pair) = &args.compare {
        let dir = args.reports.clone().unwrap_or_else(|| PathBuf::from("."));
        return super::report_compare::compare(&pair[0], &pair[1], &dir);
    }
    let Some(path) = &args.experiment else {
        unreachable!("clap requires the experiment without --compare")
    };
    let experiment = Experiment::load(path).map_err(cli_error)?;
    let reports = args
        .reports
        .clone()
        .unwrap_or_else(|| experiment.reports_dir.clone());
    let command: Vec<String> = std::iter::once("zeroone".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    if args.format.as_deref() == Some("benchexec") {
        let written = write_benchexec(&experiment, &reports).map_err(cli_error)?;
        return super::print_paths(&written);
    }
    let written = rewrite_reports(&experiment, &reports, &command.join(" ")).map_err(cli_error)?;
    super::print_paths(&written)
}
