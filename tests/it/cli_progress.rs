//! `--progress` on `solve` (issue 36, item 7: it was an unknown option there, with no "did you
//! mean"): the same "still ..." lines as `count --progress`, nothing else changed.

use std::path::Path;
use std::process::Command;

fn zeroone(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .unwrap()
}

#[test]
fn solve_progress_says_it_is_still_solving_until_the_time_limit() {
    // MILP on Scott's pentomino problem runs to its 1 s limit; lines every 0.2 s.
    let ran = zeroone(&[
        "solve",
        "data/xcc/pentominoes-scott.xcc",
        "--backend",
        "milp",
        "--time-limit",
        "1",
        "--progress",
        "0.2",
    ]);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("still solving puzzle 0 with milp"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&ran.stdout).contains("timeout by milp"));
}

#[test]
fn solve_progress_leaves_the_answer_alone_and_refuses_a_bad_interval() {
    let plain = zeroone(&["solve", "models/hex-bare.hex", "--index", "4", "--stable"]);
    let with = zeroone(&[
        "solve",
        "models/hex-bare.hex",
        "--index",
        "4",
        "--stable",
        "--progress",
        "5",
    ]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(with.status.code(), Some(0));
    assert_eq!(plain.stdout, with.stdout);
    let bad = zeroone(&["solve", "models/hex-bare.hex", "--progress", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected seconds from 0.1 to 86400"));
}
