//! The `zeroone` command line. Each subcommand lives in its own file under `src/cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) | Err(cli::CliError::StdoutClosed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zeroone: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
