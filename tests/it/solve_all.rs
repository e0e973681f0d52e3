//! `solve --all` says how its list ended: a closing line per puzzle (JSON: status,
//! `solutions`, `complete`), exit 3 when the time limit cut it, exit 0 at `--limit` or at the
//! end (issue 35, item 4: a cut list once looked complete).

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// 40 free variables under one row every choice meets: 2^40 solutions, more than any backend
/// lists in the half second the tests give it, so the time limit always cuts the list.
fn too_many(dir: &tempfile::TempDir) -> String {
    let labels: Vec<String> = (0..40).map(|i| format!("x{i}")).collect();
    let model = serde_json::json!({
        "name": "too-many",
        "variables": labels,
        "families": [{"name": "cap", "sense": "at-most", "rhs": 40, "rows": [labels]}],
    });
    let path = dir.path().join("too-many.json");
    std::fs::write(&path, model.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

/// Checks the solution lines before the closing line: numbered 0.., each verified.
fn solution_lines_then_closing(all: &[Value]) -> &Value {
    let (closing, solutions) = all.split_last().expect("a closing line");
    for (k, l) in solutions.iter().enumerate() {
        assert_eq!(
            (l["solution"].as_u64(), l["verified"].as_bool()),
            (Some(k as u64), Some(true))
        );
    }
    assert!(closing.get("solution").is_none(), "{closing}");
    assert_eq!(closing["solutions"].as_u64(), Some(solutions.len() as u64));
    closing
}

#[test]
fn a_list_cut_by_the_time_limit_says_so_and_exits_3_for_every_streaming_backend() {
    let dir = tempfile::tempdir().unwrap();
    let file = too_many(&dir);
    for backend in ["bitset", "sat", "xcc", "enum", "auto"] {
        let args = [
            "solve",
            &file,
            "--all",
            "--json",
            "--backend",
            backend,
            "--time-limit",
            "0.5",
        ];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(3), "{backend}");
        let all = lines(&out);
        let closing = solution_lines_then_closing(&all);
        assert_eq!(closing["status"], "limit", "{backend}: {closing}");
        assert_eq!(closing["complete"], false, "{backend}");
        assert!(closing["reason"].as_str().unwrap().contains("time limit"));
        assert!(String::from_utf8_lossy(&out.stderr).contains("stopped before every solution"));
        // Text mode says the same in its closing sentence, with the same exit status.
        let text = run(&args[..args.len()]
            .iter()
            .filter(|a| **a != "--json")
            .copied()
            .collect::<Vec<_>>());
        assert_eq!(text.status.code(), Some(3), "{backend}");
        let stdout = String::from_utf8_lossy(&text.stdout);
        let last = stdout.lines().last().unwrap();
        assert!(
            last.contains("stopped by the time limit"),
            "{backend}: {last}"
        );
    }
}

#[test]
fn a_list_stopped_at_the_limit_asked_for_is_status_limit_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let file = too_many(&dir);
    for backend in ["bitset", "sat", "xcc", "enum"] {
        let out = run(&[
            "solve",
            &file,
            "--all",
            "--limit",
            "3",
            "--json",
            "--backend",
            backend,
        ]);
        assert_eq!(out.status.code(), Some(0), "{backend}");
        let all = lines(&out);
        assert_eq!(all.len(), 4);
        let closing = solution_lines_then_closing(&all);
        assert_eq!(
            (closing["status"].as_str(), closing["complete"].as_bool()),
            (Some("limit"), Some(false)),
            "{backend}: {closing}"
        );
        assert!(closing["reason"].as_str().unwrap().contains("--limit 3"));
    }
}

#[test]
fn a_whole_list_closes_complete_with_the_count_that_count_gives() {
    for backend in ["bitset", "sat", "brute"] {
        let count = run(&[
            "count",
            "models/hex-bare.hex",
            "--index",
            "2",
            "--json",
            "--backend",
            backend,
        ]);
        let count = lines(&count)[0]["count"].as_u64().unwrap();
        let out = run(&[
            "solve",
            "models/hex-bare.hex",
            "--index",
            "2",
            "--all",
            "--json",
            "--stable",
            "--backend",
            backend,
        ]);
        assert_eq!(out.status.code(), Some(0), "{backend}");
        let all = lines(&out);
        let closing = solution_lines_then_closing(&all);
        assert_eq!(closing["status"], "solved");
        assert_eq!(closing["complete"], true);
        assert_eq!(closing["solutions"].as_u64(), Some(count), "{backend}");
        assert!(
            closing.get("stats").is_none(),
            "--stable leaves statistics out"
        );
    }
}

#[test]
fn a_model_with_an_objective_and_no_solution_closes_complete_with_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.json");
    let model = r#"{"variables": ["a", "b"],
        "families": [{"name": "both", "sense": "exactly", "rhs": 2, "rows": [["a", "b"]]},
                     {"name": "one", "sense": "at-most-one", "rows": [["a", "b"]]}],
        "objective": {"sense": "minimize", "costs": {"a": 1}}}"#;
    std::fs::write(&path, model).unwrap();
    let out = run(&[
        "solve",
        path.to_str().unwrap(),
        "--all",
        "--json",
        "--stable",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let all = lines(&out);
    assert_eq!(all.len(), 1);
    assert_eq!(
        (
            all[0]["status"].as_str(),
            all[0]["solutions"].as_u64(),
            all[0]["complete"].as_bool()
        ),
        (Some("infeasible"), Some(0), Some(true))
    );
}
