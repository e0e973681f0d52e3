//! Snapshots of `zeroone show` (text, which includes the summary and the 0-1 matrix, and the
//! JSON line) for small models. Every snapshot was checked by hand against the geometry: see
//! the notes next to each case.

use std::path::Path;

use zeroone::model::Model;
use zeroone::puzzle::parse::load_models;
use zeroone::render::{model_text, summary_json};

fn model(file: &str, index: usize) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(file);
    load_models(&path).unwrap().swap_remove(index)
}

fn show(m: &Model) -> String {
    format!("{}{}\n", model_text(m), summary_json(m))
}

#[test]
fn hex_bare_width_1() {
    // One cell on one line of each axis: 1 variable, 3 rows.
    insta::assert_snapshot!("hex_bare_1", show(&model("hex-bare.hex", 0)));
}

#[test]
fn hex_bare_width_3() {
    // 7 cells, 9 rows: rows {0,1} {2,3,4} {5,6}; diag {0,2} {1,3,5} {4,6}; anti {2,5} {0,3,6}
    // {1,4}.
    insta::assert_snapshot!("hex_bare_3", show(&model("hex-bare.hex", 1)));
}

#[test]
fn hex_bare_width_5() {
    // 19 cells, 15 rows of lengths 3,4,5,4,3 per axis, 57 nonzeros.
    insta::assert_snapshot!("hex_bare_5", show(&model("hex-bare.hex", 2)));
}

#[test]
fn hex_board_width_5() {
    // The shipped board: the bare width-5 rows plus 5 colour rows covering all 19 cells.
    insta::assert_snapshot!("hex_board_5", show(&model("hex-5.hex", 0)));
}

#[test]
fn queens_bare_4() {
    // 16 cells; 4 row, 4 column rows; 9 touch windows (at most one).
    insta::assert_snapshot!("queens_bare_4", show(&model("queens-bare.queens", 0)));
}

#[test]
fn queens_bare_5() {
    // 25 cells; 5 + 5 exactly-one rows; 16 touch windows.
    insta::assert_snapshot!("queens_bare_5", show(&model("queens-bare.queens", 1)));
}

#[test]
fn sudoku_4x4() {
    // 64 (cell, digit) variables; 16 rows per family; 6 givens drawn in the grid.
    insta::assert_snapshot!("sudoku_4x4", show(&model("sudoku-4x4.sudoku", 0)));
}
