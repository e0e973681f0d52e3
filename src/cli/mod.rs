//! Subcommands. One file each; `run` dispatches.

mod backend_args;
mod backends;
mod check;
mod count;
mod export;
mod gauss;
mod generate;
mod heartbeat;
mod hint;
mod input;
mod isolated;
mod merge;
mod parallel;
mod report;
mod report_compare;
mod run;
mod show;
mod slurm;
mod snapshot;
mod solve;
mod table;

use clap::{Parser, Subcommand};

use thiserror::Error;

/// Errors that end a command. Bad input (files, options) exits 2; a failed run exits 1; an
/// incomplete `solve --all` exits 3.
#[derive(Debug, Error)]
pub enum CliError {
    /// The input was malformed or an option was wrong: exit status 2.
    #[error("{0}")]
    BadInput(String),
    /// The command ran but could not finish (I/O while writing, a backend refusing): exit 1.
    #[error("{0}")]
    Failed(String),
    /// `solve --all` printed some solutions but stopped before the last (the time limit, the
    /// backend giving up; not `--limit`): exit 3, so a script cannot take a cut list for all.
    #[error("{0}")]
    Incomplete(String),
    /// Standard output was closed by its reader (`zeroone solve … | head`): the command stops,
    /// quietly and with status 0, since nobody reads the rest.
    #[error("standard output closed")]
    StdoutClosed,
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failed(_) => 1,
            CliError::Incomplete(_) => 3,
            CliError::StdoutClosed => 0,
        }
    }
}

/// zeroone: 0-1 integer programming on grid puzzles.
#[derive(Debug, Parser)]
#[command(name = "zeroone", version = zeroone::build_info::VERSION_AND_COMMIT, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per process
enum Command {
    /// List the registered backends: abilities, refused rows, size caps.
    Backends,
    /// Print the 0-1 model of each puzzle in a file: sizes, rows per family, the matrix if small.
    Show(show::ShowArgs),
    /// Solve each puzzle in a file with a backend; every answer is verified before printing.
    Solve(solve::SolveArgs),
    /// Count the solutions of each puzzle in a file with a backend; witnesses are verified.
    Count(count::CountArgs),
    /// Check a VeriPB proof of a model written as OPB (as `solve|count --proof` writes them)
    /// with the `veripb` checker: exit 0 certified, 1 rejected, 2 bad input.
    Check(check::CheckArgs),
    /// Write the 0-1 model of a puzzle as CPLEX LP, free MPS, OPB, DIMACS CNF or JSON.
    Export(export::ExportArgs),
    /// Generate boards with exactly one solution, of any kind that has a generator.
    Generate(generate::GenerateArgs),
    /// Print the search-space table: exact counts per modelling level (hex, Queens, Star
    /// Battle, Sudoku).
    Table(table::TableArgs),
    /// Gaussian elimination of the equality rows: rank, redundant rows, fixed variables.
    Gauss(gauss::GaussArgs),
    /// Run an experiment file: records to reports/NAME.jsonl, then NAME.md, NAME.csv, plots.
    Run(run::RunArgs),
    /// Join the shard record files of an experiment and write its reports.
    Merge(merge::MergeArgs),
    /// Write (and with --submit, submit) a Slurm job array of an experiment's shards and a
    /// merge job after it.
    Slurm(slurm::SlurmArgs),
    /// Print one stable text per file (model, Gauss relaxation, every verified solution) to diff.
    Snapshot(snapshot::SnapshotArgs),
    /// Rewrite an experiment's reports from its records alone, running nothing.
    Report(report::ReportArgs),
    /// Print a shell completion script: `zeroone completions bash > ~/.local/share/bash-completion/completions/zeroone`.
    Completions {
        /// The shell (bash, zsh, fish, elvish, powershell).
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Run jobs sent on standard input, one JSON line each (started by `run`, `solve`, `count`).
    #[command(hide = true)]
    Worker,
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Backends => print_stdout(&backends::listing()),
        Command::Show(args) => show::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Count(args) => count::run(args),
        Command::Check(args) => check::run(args),
        Command::Export(args) => export::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Table(args) => table::run(args),
        Command::Gauss(args) => gauss::run(args),
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Slurm(args) => slurm::run(args),
        Command::Snapshot(args) => snapshot::run(args),
        Command::Report(args) => report::run(args),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "zeroone", &mut script);
            print_stdout(&String::from_utf8_lossy(&script))
        }
        Command::Worker => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            // The models of an experiment under a memory limit are built here, not by the run.
            let mut builder = zeroone::harness::instance_builder::InstanceBuilder::default();
            zeroone::backend::worker::serve_with(stdin, stdout, &mut |source| builder.build(source))
                .map_err(|e| CliError::Failed(format!("worker: {e}")))
        }
    }
}

/// Writes `text` to standard output and flushes it. A closed pipe (`| head`) is
/// [`CliError::StdoutClosed`], which ends the command quietly (no panic, status 0); any other
/// write error is a failure.
pub fn print_stdout(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(CliError::StdoutClosed),
        Err(e) => Err(CliError::Failed(format!(
            "cannot write to standard output: {e}"
        ))),
    }
}

/// Writes a command's `text` to `output` through [`zeroone::output::write_atomically`] (a
/// reader never sees half of it), or to standard output ([`print_stdout`]) without one. A
/// failed write names the file.
pub fn emit(output: Option<&std::path::Path>, text: &str) -> Result<(), CliError> {
    match output {
        Some(path) => zeroone::output::write_atomically(path, text.as_bytes())
            .map_err(|e| CliError::Failed(format!("{}: {e}", path.display()))),
        None => print_stdout(text),
    }
}

/// Prints the paths of the files a command wrote, one per line, through [`print_progress`].
pub fn print_paths(paths: &[std::path::PathBuf]) -> Result<(), CliError> {
    let list: String = paths.iter().map(|p| format!("{}\n", p.display())).collect();
    print_progress(&list)
}

/// Like [`print_stdout`], for commands whose real output is files (reports): a closed standard
/// output is ignored so the run goes on and writes them.
pub fn print_progress(text: &str) -> Result<(), CliError> {
    match print_stdout(text) {
        Err(CliError::StdoutClosed) => Ok(()),
        other => other,
    }
}
