//! `zeroone report --compare A B` (issue 40): the page lists the pairs whose status, count or
//! objective differ, checked against a record file with known edits; bad input exits 2 and
//! writes nothing.

use std::path::Path;
use std::process::Command;

fn zeroone(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn compare_lists_the_edited_runs_and_refuses_a_missing_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string(root.join("reports/smoke-count.jsonl")).unwrap();
    // B: the first run's count changed, the second run's status, the rest as recorded.
    let mut lines: Vec<serde_json::Value> = original
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = lines[0]["instance"].as_str().unwrap().to_string();
    let second = lines[1]["instance"].as_str().unwrap().to_string();
    let count = lines[0]["count"].as_str().unwrap().to_string();
    lines[0]["count"] = serde_json::json!("123456789012345678901234567890");
    lines[1]["status"] = serde_json::json!("timeout");
    let edited: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    std::fs::write(&a, &original).unwrap();
    std::fs::write(&b, edited).unwrap();
    let out = zeroone(&[
        "report",
        "--compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--reports",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.path().join("a-vs-b.html")).unwrap();
    assert!(page.contains("differ: 2</h2>"), "{page}");
    assert!(
        page.contains(&format!(
            "<td>{first}</td><td>brute</td><td>count {count} / 123456789012345678901234567890</td>"
        )),
        "{page}"
    );
    assert!(page.contains(&format!("<td>{second}</td>")), "{page}");
    assert!(page.contains("status solved / timeout"), "{page}");

    let missing = dir.path().join("missing.jsonl");
    let out = zeroone(&[
        "report",
        "--compare",
        a.to_str().unwrap(),
        missing.to_str().unwrap(),
        "--reports",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.jsonl does not exist"), "{err}");
    assert!(!dir.path().join("a-vs-missing.html").exists());
}
