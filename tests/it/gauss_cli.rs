//! `zeroone gauss` end to end: the seed's numbers from the shipped boards, JSON keys, errors.

use std::process::Command;

use serde_json::Value;

fn zeroone(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn bare_boards_of_widths_one_to_nine_give_the_seeds_numbers() {
    let (code, out, err) = zeroone(&["gauss", "models/hex-bare.hex", "--json"]);
    assert_eq!(code, 0, "{err}");
    let reports = json_lines(&out);
    assert_eq!(reports.len(), 5);
    let nine = &reports[4];
    for (key, want) in [
        ("equations", 27),
        ("unknowns", 61),
        ("rank", 24),
        ("nullity", 37),
    ] {
        assert_eq!(nine[key], want, "{key}");
    }
    assert_eq!(nine["consistent"], true);
    let dependent: usize = nine["redundant"]
        .as_object()
        .unwrap()
        .values()
        .map(|rows| rows.as_array().unwrap().len())
        .sum();
    assert_eq!(dependent, 3);
    assert!(nine["fixed"].as_array().unwrap().is_empty());
    // Width 1: one cell, fixed to 1 by the equations alone.
    assert_eq!(reports[0]["fixed"][0]["value"], "1");
    assert_eq!(reports[0]["verdict"]["status"], "solved");
}

#[test]
fn the_shipped_coloured_board_has_36_equations_and_index_picks_one() {
    let (code, out, err) = zeroone(&["gauss", "models/hex-9.hex", "--json", "--index", "0"]);
    assert_eq!(code, 0, "{err}");
    let reports = json_lines(&out);
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["equations"], 36);
    assert_eq!(reports[0]["unknowns"], 61);
    let (code, out, _) = zeroone(&["gauss", "models/hex-9.hex"]);
    assert_eq!(code, 0);
    assert!(out.contains("| equations | 36 (0 given) |"));
    assert!(out.contains("### Least-norm real solution"));
}

#[test]
fn queens_and_sudoku_files_report_ignored_rows_and_givens() {
    let (code, out, err) = zeroone(&["gauss", "models/queens-capybaradoku.queens", "--json"]);
    assert_eq!(code, 0, "{err}");
    for r in json_lines(&out) {
        assert!(r["ignored_inequalities"].as_u64().unwrap() > 0);
    }
    let (code, out, err) = zeroone(&["gauss", "models/sudoku-4x4.sudoku", "--json"]);
    assert_eq!(code, 0, "{err}");
    for r in json_lines(&out) {
        assert!(r["givens"].as_u64().unwrap() > 0);
        assert_eq!(
            r["equations"].as_u64().unwrap(),
            64 + r["givens"].as_u64().unwrap()
        );
    }
}

#[test]
fn bad_input_exits_2_with_nothing_on_stdout() {
    let (code, out, err) = zeroone(&["gauss", "models/no-such-file.hex"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("no-such-file.hex"));
    let (code, out, err) = zeroone(&["gauss", "models/hex-9.hex", "--index", "7"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("--index 7"));
    let (code, _, err) = zeroone(&["gauss", "--hex-width", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("odd width"));
}
