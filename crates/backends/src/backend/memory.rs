//! This process's memory as the system reports it: what is available, the peak resident set
//! and its reset, the address space its own limit leaves, and sizes written for people (`8G`, `7.47 GiB`). The dp counter and the
//! search-space tables guard their state tables with it; the worker measures each run with it.
//! It also keeps glibc's malloc honest under a limit: one arena for every thread, and freed
//! memory handed back between a worker's runs.
//!
//! Costs: each query reads one small `/proc` file; on systems without `/proc` the queries
//! return `None`/`false` and callers fall back (no guard, lifetime peak).

/// Memory the system can give without swapping (`MemAvailable` of `/proc/meminfo`), if known.
pub fn available_memory() -> Option<u64> {
    proc_field("/proc/meminfo", "MemAvailable:")
}

/// The address space this process may still map under its own limit (`RLIMIT_AS`, as
/// `--memory-limit` and an experiment's worker set it: the soft limit of `/proc/self/limits`
/// less `VmSize` of `/proc/self/status`), if it has a limit and the system says.
pub fn address_space_left() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    // "unlimited" is no limit.
    let limit: u64 = soft.parse().ok()?;
    let mapped = proc_field("/proc/self/status", "VmSize:")?;
    Some(limit.saturating_sub(mapped))
}

/// The memory this process can still take: the smaller of what the system has available
/// ([`available_memory`]) and what its address-space limit leaves ([`address_space_left`]),
/// whichever are known. A guard that reads only the first lets a process under a limit
/// allocate past it and abort.
pub fn usable_memory() -> Option<u64> {
    match (available_memory(), address_space_left()) {
        (Some(system), Some(own)) => Some(system.min(own)),
        (system, own) => system.or(own),
    }
}

/// This process's peak resident memory (`VmHWM` of `/proc/self/status`), if known.
pub fn peak_rss() -> Option<u64> {
    proc_field("/proc/self/status", "VmHWM:")
}

/// Resets [`peak_rss`] to the current resident memory (Linux 4.0 and later); false when the
/// system does not allow it. Freed memory malloc still holds counts as resident: call
/// [`return_free_memory`] first, or a run measured after a larger one inherits its peak.
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Hands the memory malloc holds free back to the system (glibc's `malloc_trim(0)`; nothing
/// elsewhere), so the resident set is what is in use. A worker does this between runs: without
/// it a 0.1 ms run on an 8-variable model measured after a 4.3 GB one reported a 4.3 GB peak.
/// Cost: one walk over malloc's free lists, milliseconds on a heap of gigabytes.
pub fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only reorganises malloc's own free memory.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Under an address-space limit (`ulimit -v`, or the limit a worker runs under), makes every
/// thread allocate from glibc's one main arena; call it at start-up, before any thread. glibc
/// gives each thread that allocates an arena of its own and reserves 64 MiB of address space
/// for it up front, so the output printer's thread alone took half of a 128 MiB limit, and
/// whether a 16 MiB read still fitted depended on where that reservation landed. Without a
/// limit nothing changes (threads keep their arenas, so parallel counting does not contend
/// for one lock); nothing elsewhere than glibc. Cost: one `getrlimit`.
pub fn one_malloc_arena_under_an_address_space_limit() {
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

/// The `kB` value of the line starting with `field` in the `/proc` file `path`, in bytes.
fn proc_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// `bytes` as GiB with two decimals (`7.47 GiB`).
pub fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// Parses a memory size: bytes, or a number with `K`, `M`, `G` or `T` (powers of 1024,
/// optionally followed by `iB` or `B`). `None` when it is not one, or below 1 byte.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (number, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, ' '),
    };
    let shift = match unit {
        ' ' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => return None,
    };
    let value: f64 = number.trim().parse().ok()?;
    let bytes = value * (1u64 << shift) as f64;
    (1.0..1e18).contains(&bytes).then_some(bytes as u64)
}
