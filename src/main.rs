//! The `zeroone` command line. Each subcommand lives in its own file under `src/cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    one_malloc_arena_under_an_address_space_limit();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) | Err(cli::CliError::StdoutClosed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zeroone: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Under an address-space limit (`ulimit -v`, or the limit a worker runs under), makes every
/// thread allocate from glibc's one main arena. glibc gives each thread that allocates an arena
/// of its own and reserves 64 MiB of address space for it up front, so the output printer's
/// thread alone took half of a 128 MiB limit, and whether a 16 MiB read still fitted depended on
/// which thread allocated first. Without a limit nothing changes (threads keep their arenas, so
/// parallel counting does not contend for one lock). Cost: one `getrlimit`.
fn one_malloc_arena_under_an_address_space_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we pass; mallopt runs before any other thread.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_AS, &mut limit) == 0
                && limit.rlim_cur != libc::RLIM_INFINITY
            {
                libc::mallopt(libc::M_ARENA_MAX, 1);
            }
        }
    }
}
