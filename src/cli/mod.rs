//! Subcommands. One file each; `run` dispatches.

use clap::{Parser, Subcommand};

pub mod vsa_experiment;
use thiserror::Error;

// Used by the subcommands that read files; `backends` alone cannot fail.
#[allow(dead_code)]
/// Errors that end a command. Bad input (files, options) exits 2; a failed run exits 1.
#[derive(Debug, Error)]
pub enum CliError {
    /// The input was malformed or an option was wrong: exit status 2.
    #[error("{0}")]
    BadInput(String),
    /// The command ran but could not finish (I/O while writing, a backend refusing): exit 1.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

/// zeroone: 0-1 integer programming on grid puzzles.
#[derive(Debug, Parser)]
#[command(name = "zeroone", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per process
enum Command {
    /// List the registered backends.
    Backends,
    /// The VSA Sudoku experiment (seed 003): clue levels, dimension sweep, VSA vs bitset.
    VsaExperiment(vsa_experiment::VsaExperimentArgs),
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Backends => {
            for b in zeroone::backend::registry() {
                println!("{:<8} {}", b.name, b.about);
            }
            Ok(())
        }
        Command::VsaExperiment(args) => vsa_experiment::run(args),
    }
}
