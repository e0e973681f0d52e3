//! The worker's unit tests: its standard-error log and the parent's handling of fake workers.

use super::*;

#[test]
fn a_failed_allocation_is_found_behind_a_long_backtrace() {
    // With RUST_BACKTRACE set, the abort message is followed by kilobytes of frames; a
    // fixed-size tail of standard error lost it and called a memout a crash.
    let mut text = String::from("memory allocation of 570425360 bytes failed\nstack backtrace:\n");
    for i in 0..400 {
        text.push_str(&format!(
            "  {i}: zeroone::backend::dp::frame_{i}\n             at ./src/backend/dp.rs:{i}:5\n"
        ));
    }
    text.push_str(
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n",
    );
    let log = Arc::new(Mutex::new(StderrLog::default()));
    keep_log(text.as_bytes(), Arc::clone(&log));
    let log = log.lock().unwrap();
    assert_eq!(
        log.out_of_memory(),
        Some("memory allocation of 570425360 bytes failed")
    );
    let mut panicked = StderrLog::default();
    panicked.add("thread 'main' panicked at src/x.rs:1:1:");
    panicked.add("boom");
    panicked.add("  0: frame");
    assert_eq!(panicked.out_of_memory(), None);
    assert_eq!(
        panicked.summary(),
        "thread 'main' panicked at src/x.rs:1:1:"
    );
    assert_eq!(panicked.last, "boom");
}

/// A stand-in for `zeroone worker`: a shell script that reads one job, says `noise`
/// lines and then `last` on stderr, and does `then` (the shell's words).
fn fake_worker(dir: &Path, noise: usize, last: &str, then: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("worker.sh");
    let script = format!(
            "#!/bin/sh\nread job\ni=0\nwhile [ $i -lt {noise} ]; do echo \"noise $i: the worker rambles on\" >&2; i=$((i+1)); done\necho '{last}' >&2\n{then}\n"
        );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn tiny_job_and_model() -> (Job, Model) {
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
    let mut b = ModelBuilder::new("tiny", PuzzleKind::Generic);
    let x = b.variable("x", Coord::Free);
    let f = b.family("rows");
    b.row(f, vec![x], Sense::ExactlyOne);
    let job = Job {
        backend: "brute".into(),
        options: BackendOptions::default(),
        task: JobTask::Solve,
        model_key: "tiny".into(),
        model: None,
        source: None,
        proof: None,
    };
    (job, b.build().unwrap())
}

#[test]
fn a_crashing_worker_leaves_the_last_4_kb_of_its_stderr_in_its_result() {
    let dir = tempfile::tempdir().unwrap();
    // 500 lines of about 35 bytes: 17 KB, four times the tail.
    let exe = fake_worker(dir.path(), 500, "last words: giving up", "kill -SEGV $$");
    let (job, model) = tiny_job_and_model();
    let r = WorkerPool::new(exe, Limits::default()).run(&job, &model);
    assert_eq!(r.status, Status::Crash, "{r:?}");
    assert!(r.stderr.len() <= STDERR_TAIL_BYTES, "{}", r.stderr.len());
    assert!(
        r.stderr.len() > STDERR_TAIL_BYTES - 40,
        "{}",
        r.stderr.len()
    );
    assert!(r
        .stderr
        .ends_with("noise 499: the worker rambles on\nlast words: giving up\n"));
    assert!(!r.stderr.contains("noise 0:"), "the head is dropped");
    assert!(r.reason.unwrap().contains("last words: giving up"));
}

#[test]
fn an_error_result_keeps_what_its_job_said_on_stderr_and_a_success_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (job, model) = tiny_job_and_model();
    for (status, says) in [(Status::Error, true), (Status::Unknown, false)] {
        let answer = serde_json::to_string(&RunResult::failed(status, "boom".into())).unwrap();
        // As `serve` does: the end-of-job line on stderr only after an error.
        let end = if says {
            "printf '\\001zeroone worker: job ended\\n' >&2\n".to_string()
        } else {
            String::new()
        };
        let then = format!("{end}echo '{answer}'\ncat > /dev/null");
        let exe = fake_worker(dir.path(), 2, "thread main panicked at src/x.rs:1:1", &then);
        let r = WorkerPool::new(exe, Limits::default()).run(&job, &model);
        assert_eq!(r.status, status);
        let expected = if says {
            "noise 0: the worker rambles on\nnoise 1: the worker rambles on\nthread main panicked at src/x.rs:1:1\n"
        } else {
            ""
        };
        assert_eq!(r.stderr, expected);
    }
}

#[test]
fn the_tail_is_cut_at_a_character_boundary() {
    let mut log = StderrLog::default();
    log.add(&"é".repeat(STDERR_TAIL_BYTES));
    log.add("end");
    assert!(log.tail.len() <= STDERR_TAIL_BYTES);
    assert!(log.tail.ends_with("ééé\nend\n"));
    log.add(JOB_END);
    assert!(log.ended && log.tail.ends_with("end\n"));
}
