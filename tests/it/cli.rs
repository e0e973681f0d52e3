//! The `zeroone` binary end to end: exit codes, messages, JSON shapes and model sizes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn zeroone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(|s| s.as_str()).collect();
    k.sort();
    k
}

fn temp_file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn show_json_counts_the_seed_sizes() {
    let o = zeroone(&["show", "--json", "models/hex-9.hex"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(
        keys(v),
        vec!["constraints", "families", "index", "nonzeros", "variables"]
    );
    assert_eq!(v["variables"], 61);
    assert_eq!(v["constraints"], 36);
    assert_eq!(v["families"]["colour"], 9);

    let o = zeroone(&["show", "--json", "--index", "0", "models/sudoku-9x9.sudoku"]);
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        (
            lines[0]["variables"].as_u64(),
            lines[0]["constraints"].as_u64()
        ),
        (Some(729), Some(324))
    );

    let o = zeroone(&[
        "show",
        "--json",
        "--index",
        "1",
        "models/queens-capybaradoku.queens",
    ]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["variables"], 64);
    let f = &v["families"];
    let exactly_one =
        f["row"].as_u64().unwrap() + f["column"].as_u64().unwrap() + f["region"].as_u64().unwrap();
    assert_eq!(exactly_one, 24);
    assert_eq!(f["touch"], 49);
}

#[test]
fn show_json_prints_one_line_per_puzzle() {
    let o = zeroone(&["show", "--json", "models/hex-bare.hex"]);
    let lines = json_lines(&o);
    let vars: Vec<u64> = lines
        .iter()
        .map(|v| v["variables"].as_u64().unwrap())
        .collect();
    assert_eq!(vars, vec![1, 7, 19, 37, 61]);
}

#[test]
fn show_text_has_sizes_and_small_matrices() {
    let o = zeroone(&["show", "models/hex-5.hex"]);
    let out = stdout(&o);
    assert!(out.contains("variables: 19"), "{out}");
    assert!(
        out.contains("constraints: 20 (20 exactly-one, 0 at-most-one)"),
        "{out}"
    );
    assert!(out.contains("matrix (20 rows x 19 variables"), "{out}");
    let o = zeroone(&["show", "--index", "0", "models/sudoku-9x9.sudoku"]);
    assert!(stdout(&o).contains("matrix: not drawn"));
}

#[test]
fn solve_json_shapes_per_kind() {
    let o = zeroone(&["solve", "--json", "models/hex-5.hex"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(
        keys(v),
        vec![
            "backend",
            "index",
            "kind",
            "placements",
            "stats",
            "status",
            "verified"
        ]
    );
    assert_eq!(v["kind"], "hex");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["verified"], true);
    assert_eq!(v["backend"], "xcc"); // the default, auto, on exact cover with <= 128 items
    let placements = v["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 5);
    let rows: Vec<u64> = placements.iter().map(|p| p[0].as_u64().unwrap()).collect();
    assert_eq!(rows, vec![0, 1, 2, 3, 4]);

    let o = zeroone(&[
        "solve",
        "--json",
        "--index",
        "0",
        "models/sudoku-4x4.sudoku",
    ]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["kind"], "sudoku");
    let grid = v["grid"].as_str().unwrap();
    assert_eq!(grid.len(), 16);
    // The clues of "1..3....31.2.2.." are kept.
    for (g, c) in grid.chars().zip("1..3....31.2.2..".chars()) {
        assert!(c == '.' || c == g);
    }

    let o = zeroone(&["solve", "--json", "models/exact-cover.json"]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["kind"], "model");
    // Generic answers name their variables by label; `--ids` gives ids (A..F are 0..5).
    assert_eq!(v["ones"], serde_json::json!(["B", "D", "F"]));
    let o = zeroone(&["solve", "--json", "--ids", "models/exact-cover.json"]);
    assert_eq!(json_lines(&o)[0]["ones"], serde_json::json!([1, 3, 5]));
}

#[test]
fn solve_reports_a_refused_model_as_unsupported_with_reason_and_exit_1() {
    // Brute force refuses 37 free variables: status unsupported (not error: nothing failed),
    // a reason, exit status 1.
    let o = zeroone(&["solve", "--json", "models/hex-7.hex", "--backend", "brute"]);
    assert_eq!(o.status.code(), Some(1));
    let v = &json_lines(&o)[0];
    assert_eq!(v["status"], "unsupported");
    assert_eq!(v["verified"], false);
    assert!(v["reason"].as_str().unwrap().contains("at most 25"));
    assert!(v["placements"].is_null());
}

#[test]
fn solve_text_draws_the_answer() {
    let o = zeroone(&["solve", "models/hex-5.hex"]);
    let out = stdout(&o);
    assert!(out.contains("solved by xcc"), "{out}");
    assert_eq!(out.matches('*').count(), 5, "{out}");
    let o = zeroone(&["solve", "--index", "3", "models/sudoku-4x4.sudoku"]);
    let out = stdout(&o);
    assert!(out.contains("+-----+-----+"), "{out}");
    assert!(out.contains("| 1 2 | 3 4 |"), "{out}");
}

#[test]
fn count_json_and_limit() {
    let o = zeroone(&[
        "count",
        "--json",
        "models/queens-bare.queens",
        "--index",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(
        keys(v),
        vec![
            "backend",
            "count",
            "exhaustive",
            "index",
            "stats",
            "status",
            "verified"
        ]
    );
    assert_eq!(v["count"], 2);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["exhaustive"], true);
    assert_eq!(v["verified"], true);
    let o = zeroone(&[
        "count",
        "--json",
        "--limit",
        "1",
        "models/queens-bare.queens",
        "--index",
        "0",
    ]);
    let v = &json_lines(&o)[0];
    // Cut at the limit: `limit` (it used to read `solved`), the partial count kept.
    assert_eq!(v["status"], "limit");
    assert_eq!(v["count"], 1);
    assert_eq!(v["exhaustive"], false);
}

#[test]
fn bad_files_exit_2_with_a_located_message_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, &str, &str)> = vec![
        ("even.hex", "AB\nABC\n", ":2:1: puzzle 0: expected an odd number of rows"),
        ("row.hex", " A B\nA B C C\n C C\n", ":2:7: puzzle 0: expected 3 cells in row 1"),
        ("regions.hex", " A B\nA B C\n C D\n", ":3:4: puzzle 0: expected 3 colour regions"),
        ("char.queens", "AB\nA?\n", ":2:2: puzzle 0: expected a region letter"),
        ("mixed.queens", "A.\nAB\n", ":1:2: puzzle 0: expected every cell to be 'A'"),
        ("length.sudoku", "1234\n", ":1:5: puzzle 0: expected a Sudoku line of 16, 81, 256 or 625 cells"),
        ("clash.sudoku", "1..1............\n", ":1:4: puzzle 0: expected a digit not yet in its row"),
        ("empty.hex", "", ":1:1: expected at least one hex board"),
        (
            "unknown.json",
            "{\"variables\": [\"a\"],\n \"families\": [{\"name\": \"f\", \"sense\": \"exactly-one\", \"rows\": [[\"a\", \"b\"]]}]}",
            ":2:68: puzzle 0: expected the label of a declared variable, found 'b'",
        ),
    ];
    for (name, text, message) in cases {
        let p = temp_file(&dir, name, text);
        for command in ["show", "solve", "count"] {
            let o = zeroone(&[command, p.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(2), "{command} {name}: {}", stderr(&o));
            assert!(stdout(&o).is_empty(), "{command} {name}: {}", stdout(&o));
            let err = stderr(&o);
            assert!(
                err.contains(&format!("{name}{message}")),
                "{command} {name}: {err}"
            );
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}

#[test]
fn unreadable_file_and_bad_options_exit_2() {
    let o = zeroone(&["show", "models/no-such-file.hex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("models/no-such-file.hex: expected a readable file"));
    let o = zeroone(&["solve", "--backend", "nope", "models/hex-5.hex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown backend 'nope'"));
    let o = zeroone(&["show", "--index", "9", "models/hex-5.hex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--index 9"));
    let o = zeroone(&[
        "solve",
        "--dim",
        "4",
        "--param",
        "dim=8",
        "models/hex-5.hex",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'dim' is given twice"));
    let o = zeroone(&["solve", "--param", "novalue", "models/hex-5.hex"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
}

#[test]
fn backends_lists_brute() {
    let o = zeroone(&["backends"]);
    assert!(o.status.success());
    assert!(stdout(&o).lines().any(|l| l.starts_with("brute")));
}

#[test]
fn shared_data_files_load_by_sniffing() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let q = data.join("queens/capybaradoku_levels.txt");
    let o = zeroone(&["show", "--json", "--index", "0", q.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&o)[0]["variables"], 49);
}

/// Runs `zeroone args`, reads a few bytes of its standard output and closes the pipe, like
/// `zeroone … | head -c 64`; returns the exit status and standard error.
fn with_closed_stdout(args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut head = [0u8; 64];
    child
        .stdout
        .take()
        .unwrap()
        .read_exact(&mut head)
        .expect("some output");
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap(), err)
}

#[test]
fn a_closed_standard_output_ends_a_command_quietly_without_a_panic() {
    // Output far larger than a pipe buffer, so the writes after the close do fail.
    let sets = [
        vec!["export", "models/sudoku-16x16.sudoku", "--format", "lp"],
        vec!["solve", "models/sudoku4.txt", "--backend", "bitset"],
        vec![
            "solve",
            "data/sudoku/magictour_top1465.txt",
            "--backend",
            "bitset",
        ],
    ];
    for args in sets {
        let (status, err) = with_closed_stdout(&args);
        assert!(status.success(), "{args:?}: {status:?}, stderr {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
