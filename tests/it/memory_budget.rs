//! Memory that follows the data present (issue 35, items 2 and 3, what remained): an
//! experiment's parent never builds a model its workers would run out of memory on, and a
//! backend's guard respects the process's own address-space limit. Each test failed before its
//! fix.

use std::path::{Path, PathBuf};
use std::process::Command;

use zeroone::backend::Status;
use zeroone::harness::record::read_records;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_zeroone"))
}

/// Exit code and standard error of the binary run with `args` in `dir` under an address-space
/// limit of `cap_mb` (inherited by the workers it starts, which lower it to their own limit).
fn run_capped(dir: &Path, args: &[&str], cap_mb: u64) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let bytes = cap_mb << 20;
    let mut command = Command::new(exe());
    command.args(args).current_dir(dir);
    // SAFETY: setrlimit is async-signal-safe and the closure allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_file_past_an_experiments_memory_limit_is_a_memout_per_backend_and_the_rest_runs() {
    // 18 bytes declaring 8,388,608 variables: the parent built the model at 1.76 GB, then
    // (within the limit as a budget) stopped the whole experiment with exit 2 (issue 35,
    // item 3). Now its runs are `memout` like any run past the limit, and the small file
    // beside it is solved. The parent runs capped at 1 GB of address space, which the model
    // would pass.
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    std::fs::write(models.join("big.cnf"), "p cnf 8388608 1\n1 0\n").unwrap();
    std::fs::write(models.join("small.cnf"), "p cnf 2 1\n1 -2 0\n").unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "memory_limit = 300\n\
         [[instances]]\nfile = \"models/big.cnf\"\n\
         [[instances]]\ndir = \"models\"\nglob = \"small*\"\n\
         [[backends]]\nname = \"sat\"\n[[backends]]\nname = \"bitset\"\n",
    )
    .unwrap();
    let (code, stderr) = run_capped(dir.path(), &["run", "e.toml", "-q"], 1000);
    assert_eq!(code, Some(0), "{stderr}");
    let (records, _) = read_records(&dir.path().join("reports/e.jsonl"), false).unwrap();
    let statuses: Vec<(&str, &str, Status)> = records
        .iter()
        .map(|r| (r.instance.as_str(), r.backend.as_str(), r.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("big#0", "sat", Status::Memout),
            ("big#0", "bitset", Status::Memout),
            ("small.cnf", "sat", Status::Solved),
            ("small.cnf", "bitset", Status::Solved),
        ]
    );
    let reason = records[0].reason.as_deref().unwrap_or_default();
    for wanted in ["limit 300 MB", "big.cnf:1:1: ", "8388608 variables"] {
        assert!(reason.contains(wanted), "expected '{wanted}' in {reason}");
    }
    // A resumed run finds everything on record, and the report counts the two memouts.
    let (code, stderr) = run_capped(dir.path(), &["run", "e.toml", "--resume"], 1000);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("4 already on record, 0 run now"),
        "{stderr}"
    );
    let md = std::fs::read_to_string(dir.path().join("reports/e.md")).unwrap();
    assert!(md.contains("memout"), "{md}");
}
