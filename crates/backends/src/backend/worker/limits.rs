//! The address-space limit of a worker: set between fork and exec, and checked against what
//! the program needs to start.

use std::io;
use std::path::Path;
use std::process::{Command, Stdio};

/// Checks that a worker of `exe` can start under an address-space limit of `mb` MB (a limit
/// below what the program needs to load dies in the loader, which would look like a `crash`).
/// `Err(minimum)` names the smallest limit, in MB, under which a worker starts; callers refuse
/// the limit with it. Cost: one short process start when the limit is enough, about ten when
/// it is not (a bisection).
pub fn check_memory_limit(exe: &Path, mb: u64) -> Result<(), u64> {
    if starts_within(exe, mb) {
        return Ok(());
    }
    // The smallest limit that starts, by bisection between `mb` (too small) and a limit
    // that starts (doubling until one does).
    let (mut low, mut high) = (mb, mb.max(1).saturating_mul(2));
    while !starts_within(exe, high) {
        low = high;
        if high >= 1 << 20 {
            return Err(high);
        }
        high = high.saturating_mul(2);
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if starts_within(exe, mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Err(high)
}

/// Sets this process's address-space limit (`RLIMIT_AS`) to `bytes`. Async-signal-safe and
/// allocation-free, for `pre_exec` between fork and exec.
pub(super) fn limit_address_space(bytes: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct we pass and nothing else.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Whether `exe worker` starts and ends cleanly (given no job) under `mb` MB of address space.
fn starts_within(exe: &Path, mb: u64) -> bool {
    let bytes = mb.saturating_mul(1 << 20);
    let mut command = Command::new(exe);
    command
        .arg("worker")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure calls only setrlimit, which is
        // async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || limit_address_space(bytes));
        }
    }
    command.status().is_ok_and(|s| s.success())
}
