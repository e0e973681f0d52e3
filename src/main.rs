//! The `zeroone` command line. Each subcommand lives in its own file under `src/cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Before any thread starts: under a memory limit, threads share one malloc arena.
    zeroone::backend::memory::one_malloc_arena_under_an_address_space_limit();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) | Err(cli::CliError::StdoutClosed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zeroone: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
