//! Isolated runs under hard limits (issue 11): a backend that cannot stop itself is killed at
//! its time limit (one that can stops there itself), a run past its memory limit is `memout`, a worker killed by a signal costs
//! only its own run, and a second writer on the same records is refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use zeroone::backend::worker::LimitBy;
use zeroone::backend::Status;
use zeroone::harness::record::{read_records, Record, RecordLock};
use zeroone::harness::{run_experiment, Experiment, HarnessError, RunOptions};

fn zeroone_exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_zeroone"))
}

fn options(dir: &Path) -> RunOptions {
    let mut o = RunOptions::new(dir.join("reports"));
    o.jobs = Some(2);
    o.worker_exe = Some(zeroone_exe());
    o
}

fn experiment(dir: &Path, name: &str, text: &str) -> Experiment {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    Experiment::load(&path).unwrap()
}

fn by_key(records: &[Record]) -> BTreeMap<(String, String), &Record> {
    records
        .iter()
        .map(|r| ((r.instance.clone(), r.backend.clone()), r))
        .collect()
}

fn key(instance: &str, backend: &str) -> (String, String) {
    (instance.to_string(), backend.to_string())
}

/// A model of `n` free variables and one row every assignment satisfies: `2^n` solutions,
/// which brute force counts one assignment at a time.
fn loose_model(dir: &Path, n: usize) {
    let vars: Vec<String> = (0..n).map(|i| format!("\"x{i}\"")).collect();
    let vars = vars.join(", ");
    let json = format!(
        r#"{{"name": "loose-{n}", "variables": [{vars}],
            "families": [{{"name": "loose", "sense": "at-most", "rhs": {n}, "rows": [[{vars}]]}}]}}"#
    );
    std::fs::write(dir.join(format!("loose-{n}.json")), json).unwrap();
}

#[test]
fn a_count_that_cannot_stop_itself_is_killed_and_one_that_can_stops_at_its_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    loose_model(dir.path(), 25);
    let exp = experiment(
        dir.path(),
        "timeout",
        r#"kind = "count"
time_limit = 3
[[instances]]
generate = "queens-bare"
sizes = [4, 14]
[[instances]]
file = "loose-25.json"
[[backends]]
name = "sat"
[[backends]]
name = "brute"
"#,
    );
    let start = Instant::now();
    let summary = run_experiment(&exp, &options(dir.path())).unwrap();
    let took = start.elapsed();
    // Before worker processes, brute's count of 2^25 assignments (a test build) and sat's of
    // the bare 14-queens placements ran far past the limit.
    assert!(took < Duration::from_secs(20), "took {took:?}");
    let (records, _) = read_records(&summary.records, false).unwrap();
    assert_eq!(records.len(), 6);
    let runs = by_key(&records);
    let killed = runs[&key("loose-25#0", "brute")];
    assert_eq!(killed.status, Status::Timeout, "{killed:?}");
    assert_eq!(killed.limit_by, Some(LimitBy::Parent));
    assert!(killed.count.is_none());
    let wall = killed.wall_seconds.unwrap();
    assert!((3.0..8.0).contains(&wall), "killed after {wall} s");
    // sat stops itself (varisat's proof sink fails past the deadline): a partial count.
    let stopped = runs[&key("queens-bare-14", "sat")];
    assert_eq!(stopped.status, Status::Limit, "{stopped:?}");
    assert_eq!(stopped.limit_by, Some(LimitBy::Backend));
    assert!(stopped.count.as_deref().unwrap().parse::<u64>().unwrap() > 0);
    let wall = stopped.wall_seconds.unwrap();
    assert!((3.0..5.0).contains(&wall), "stopped after {wall} s");
    // The other runs completed in the same experiment: 4x4 bare Queens (no touching) has
    // 2 solutions; brute refuses 196 free variables as too large (unsupported, not error).
    let small = runs[&key("queens-bare-4", "sat")];
    assert_eq!(
        (small.status, small.count.as_deref()),
        (Status::Solved, Some("2"))
    );
    assert!(small.cpu_seconds.is_some() && small.peak_rss_mb.unwrap() > 0.0);
    assert_eq!(
        runs[&key("queens-bare-4", "brute")].count.as_deref(),
        Some("2")
    );
    let big = runs[&key("queens-bare-14", "brute")];
    assert_eq!(big.status, Status::Unsupported, "{big:?}");
    // Every record names the build and the run's settings.
    for r in &records {
        assert_eq!(r.version.as_deref(), Some(env!("CARGO_PKG_VERSION")));
        assert!(r.commit.is_some());
        assert_eq!(r.jobs, Some(2));
        assert_eq!(r.options.time_limit, Some(3.0));
    }
    // The report states the timeout and who enforced the limit, from the records alone.
    let md = std::fs::read_to_string(dir.path().join("reports/timeout.md")).unwrap();
    assert!(
        md.contains("enforced by killing the worker (the backend cannot stop itself): brute"),
        "{md}"
    );
    assert!(md.contains("stopped by the backend itself: sat"), "{md}");
    assert!(
        md.contains("| `brute` | timeout | 1 | loose-25#0 | killed after"),
        "{md}"
    );
}

#[test]
fn a_dp_count_past_its_memory_limit_is_memout_and_the_rest_completes() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(
        dir.path(),
        "memout",
        r#"kind = "count"
memory_limit = 500
time_limit = 120
[[instances]]
generate = "hex"
sizes = [5, 25]
[[backends]]
name = "dp"
"#,
    );
    let summary = run_experiment(&exp, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    let runs = by_key(&records);
    let big = runs[&key("hex-25", "dp")];
    assert_eq!(big.status, Status::Memout, "{big:?}");
    assert!(
        big.reason.as_deref().unwrap().contains("limit 500 MB"),
        "{big:?}"
    );
    assert_eq!(big.options.memory_limit, Some(500));
    let small = runs[&key("hex-5", "dp")];
    assert_eq!(small.status, Status::Solved, "{small:?}");
    assert!(small.count.is_some());
}

/// The pids of the live children of `parent` (from `/proc`).
fn children(parent: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid utime...: fields after the last ')'.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields[1].parse::<u32>() == Ok(parent) && fields[0] != "Z" {
            out.push(pid);
        }
    }
    out
}

/// CPU ticks (user + system) of `pid` so far.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let Some(close) = stat.rfind(')') else {
        return 0;
    };
    let fields: Vec<&str> = stat[close + 2..].split_whitespace().collect();
    let n = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    n(11) + n(12)
}

#[test]
fn a_worker_killed_by_a_signal_costs_only_its_own_run() {
    let dir = tempfile::tempdir().unwrap();
    // The enumerator counting the 11,661,506,218 placements of a bare 14x14 Queens grid one
    // by one runs for minutes; every other run takes milliseconds. One worker, so the worker
    // busy for half a second of CPU is on that run.
    std::fs::write(
        dir.path().join("kill.toml"),
        r#"kind = "count"
[[instances]]
generate = "queens-bare"
sizes = [3, 14, 4]
[[backends]]
name = "dp"
[[backends]]
name = "enum"
"#,
    )
    .unwrap();
    let run = Command::new(zeroone_exe())
        .args(["run", "kill.toml", "-q", "--jobs", "1"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a worker that has used half a second of CPU: it is on the slow run.
    let deadline = Instant::now() + Duration::from_secs(60);
    let victim = loop {
        assert!(Instant::now() < deadline, "no busy worker appeared");
        if let Some(&w) = children(run.id()).iter().find(|&&w| cpu_ticks(w) >= 50) {
            break w;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // SAFETY: signalling a child of our child, alive a moment ago.
    unsafe { libc::kill(victim as i32, libc::SIGKILL) };
    let out = run.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (records, _) = read_records(&dir.path().join("reports/kill.jsonl"), false).unwrap();
    assert_eq!(records.len(), 6, "every run is on record");
    let runs = by_key(&records);
    let killed = runs[&key("queens-bare-14", "enum")];
    assert_eq!(killed.status, Status::Crash, "{killed:?}");
    assert!(
        killed.reason.as_deref().unwrap().contains("signal 9"),
        "{killed:?}"
    );
    for (k, r) in &runs {
        if *k != key("queens-bare-14", "enum") {
            assert_eq!(r.status, Status::Solved, "{r:?}");
        }
    }
    // The runs after the crash went to a new worker; the two counters agree where both
    // counted.
    assert_eq!(
        runs[&key("queens-bare-4", "dp")].count.as_deref(),
        Some("2")
    );
    assert_eq!(
        runs[&key("queens-bare-4", "enum")].count.as_deref(),
        Some("2")
    );
    assert_eq!(
        runs[&key("queens-bare-14", "dp")].count.as_deref(),
        Some("11661506218")
    );
}

#[test]
fn a_second_run_on_the_same_records_is_refused_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"[[instances]]
generate = "hex"
sizes = [1, 3]
[[backends]]
name = "enum"
"#;
    let exp = experiment(dir.path(), "busy", text);
    let first = run_experiment(&exp, &options(dir.path())).unwrap();
    let before = std::fs::read_to_string(&first.records).unwrap();
    // Another writer holds the records (as a run in progress does).
    let held = RecordLock::acquire(&first.records).unwrap();
    for flag in ["--resume", "--fresh"] {
        let out = Command::new(zeroone_exe())
            .args(["run", "busy.toml", "-q", flag])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(
            stderr.contains(&format!("pid {}", std::process::id())),
            "{flag}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(&first.records).unwrap(), before);
    }
    let mut resume = options(dir.path());
    resume.resume = true;
    assert!(matches!(
        run_experiment(&exp, &resume),
        Err(HarnessError::Busy { .. })
    ));
    // Shards have their own files and locks: they run while the main file is held.
    let mut shard = options(dir.path());
    shard.shard = Some(zeroone::harness::Shard { index: 1, count: 2 });
    run_experiment(&exp, &shard).unwrap();
    drop(held);
    let again = run_experiment(&exp, &resume).unwrap();
    assert_eq!((again.already_done, again.ran), (2, 0));
}

#[test]
fn solve_and_count_honour_the_time_limit_for_every_backend() {
    // sat stops itself (a partial count, `limit`); brute cannot and is killed (`timeout`).
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("bare14.queens");
    let grid = ".".repeat(14);
    std::fs::write(&board, vec![grid; 14].join("\n") + "\n").unwrap();
    loose_model(dir.path(), 25);
    let loose = dir.path().join("loose-25.json");
    for (backend, file, status, reason) in [
        ("sat", &board, "limit", "time limit"),
        ("brute", &loose, "timeout", "cannot stop itself"),
    ] {
        let start = Instant::now();
        let out = Command::new(zeroone_exe())
            .args(["count", file.to_str().unwrap(), "--backend", backend])
            .args(["--time-limit", "1", "--json"])
            .output()
            .unwrap();
        let took = start.elapsed();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        assert_eq!(v["status"], status, "{v}");
        assert!(v["reason"].as_str().unwrap().contains(reason), "{v}");
        assert!(took < Duration::from_secs(10), "{backend} took {took:?}");
    }
}
