//! `zeroone report --format benchexec` (issue 40, item 2): one BenchExec result file per
//! backend label, a `<run>` per recorded run (counted against the committed CSV), statuses
//! in BenchExec's words; no records is bad input (exit 2). Checked by hand with BenchExec 3.35's
//! `table-generator` and against its `result.dtd` (README).

use std::path::Path;
use std::process::Command;

#[test]
fn benchexec_files_hold_every_run_of_their_label() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let name = "backends-killer";
    std::fs::copy(
        root.join(format!("reports/{name}.jsonl")),
        dir.path().join(format!("{name}.jsonl")),
    )
    .unwrap();
    let run = |reports: &Path| {
        Command::new(env!("CARGO_BIN_EXE_zeroone"))
            .args(["report", "--format", "benchexec", "--reports"])
            .arg(reports)
            .arg(root.join(format!("experiments/{name}.toml")))
            .output()
            .unwrap()
    };
    let out = run(dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(root.join(format!("reports/{name}.csv"))).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (backend, status_at) = (column("backend"), column("status"));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let labels: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[backend]).collect();
    assert!(labels.len() >= 5);
    for label in labels {
        let file = dir.path().join(format!("{name}.results.{label}.xml"));
        let xml = std::fs::read_to_string(&file).unwrap();
        assert!(xml.contains(
            "<!DOCTYPE result PUBLIC '+//IDN sosy-lab.org//DTD BenchExec result 3.0//EN'"
        ));
        let mine: Vec<&Vec<&str>> = rows.iter().filter(|r| r[backend] == label).collect();
        assert_eq!(xml.matches("<run name=").count(), mine.len(), "{label}");
        for status in ["solved", "unknown"] {
            let expected = mine.iter().filter(|r| r[status_at] == status).count();
            let found = xml
                .matches(&format!("<column title=\"status\" value=\"{status}\"/>"))
                .count();
            assert_eq!(found, expected, "{label} {status}");
        }
        assert!(xml.contains("timelimit=\"60s\""), "{label}");
    }
    // No records: bad input, nothing written.
    let empty = tempfile::tempdir().unwrap();
    let out = run(empty.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);
}
