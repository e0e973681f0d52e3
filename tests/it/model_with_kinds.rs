//! Tests of the model layer (the model, its JSON form, the exporters' names) on models the
//! puzzle kinds build or the generic JSON reader reads back. They were unit tests of the model
//! crate (`model/tests.rs`, `export/json.rs`, `export/mod.rs`) and moved here unchanged in what
//! they assert: the kinds and that reader are a layer above the model's crate.

use zeroone::export::json::{to_json, JsonModel, JsonRhs, JsonSense};
use zeroone::export::Names;
use zeroone::model::{Coord, Model, PuzzleKind, Sense};
use zeroone::puzzle::{QueensBoard, Sudoku};
use zeroone::read::generic::parse_json;

#[test]
fn a_serialized_model_reads_back_equal_and_a_bad_one_is_refused() {
    let hex = zeroone::puzzle::HexBoard::geometry(5)
        .unwrap()
        .to_model("w5");
    let text = serde_json::to_string(&hex).unwrap();
    let back: Model = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    assert_eq!((back.name(), back.label(3)), (hex.name(), hex.label(3)));
    // A row naming a family that is not there is an error, not a panic.
    let bad = text.replacen("\"family\":0", "\"family\":9", 1);
    assert!(serde_json::from_str::<Model>(&bad).is_err());
}

#[test]
fn sudoku_models_share_one_shape_and_make_labels_from_coordinates() {
    use zeroone::puzzle::Sudoku;
    let mut cells = vec![None; 81];
    cells[0] = Some(4);
    let a = Sudoku::from_cells(3, cells).unwrap().to_model("a").unwrap();
    let b = Sudoku::empty(3).to_model("b").unwrap();
    assert!(a.shares_shape_with(&b));
    assert_eq!(a.givens(), &[4]);
    assert!(b.givens().is_empty());
    assert_eq!(a.label(4), "r0c0=5");
    assert_eq!(a.label(728), "r8c8=9");
    assert_eq!(a.variable_by_label("r1c2=3"), Some((9 + 2) * 9 + 2));
    assert_eq!(a.rows_of(4).len(), 4);
}

#[test]
fn queens_round_trips_through_the_generic_reader() {
    let m = QueensBoard::bare(4).to_model("q4");
    let text = to_json(&m).unwrap();
    assert!(text.contains("\"sense\": \"at-most-one\""));
    let back = parse_json(&text).unwrap();
    assert_eq!(back.kind(), &PuzzleKind::Generic);
    assert_eq!(back.name(), "q4");
    assert_eq!(back.variables(), m.variables());
    assert_eq!(back.constraints(), m.constraints());
    assert_eq!(back.families(), m.families());
}

#[test]
fn sudoku_givens_and_values_round_trip() {
    let mut cells = vec![None; 16];
    cells[5] = Some(2);
    let m = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
    let j = JsonModel::from_model(&m).unwrap();
    assert_eq!(j.givens, vec!["r1c1=3".to_string()]);
    let back = parse_json(&to_json(&m).unwrap()).unwrap();
    assert_eq!(back.givens(), m.givens());
    assert_eq!(back.variables(), m.variables());
}

#[test]
fn a_family_mixing_relations_gets_one_sense_per_row_and_reads_back() {
    use zeroone::model::{ModelBuilder, PuzzleKind};
    let mut b = ModelBuilder::new("mixed", PuzzleKind::Generic);
    let x = b.variable("x", Coord::Free);
    let y = b.variable("y", Coord::Free);
    let f = b.family("both");
    b.row(f, vec![x, y], Sense::ExactlyOne);
    b.row(f, vec![x], Sense::AtMostOne);
    let g = b.family("general");
    b.weighted_row(g, vec![x, y], vec![2, 3], Sense::AtLeast(2));
    b.row(g, vec![x, y], Sense::Exactly(1));
    b.row(g, vec![y], Sense::AtMost(0));
    let m = b.build().unwrap();
    let text = to_json(&m).unwrap();
    let j = JsonModel::from_model(&m).unwrap();
    assert_eq!(
        j.families[0].sense,
        JsonSense::PerRow(vec!["exactly-one".into(), "at-most-one".into()])
    );
    assert_eq!(
        j.families[1].sense,
        JsonSense::PerRow(vec!["at-least".into(), "exactly".into(), "at-most".into()])
    );
    assert_eq!(j.families[1].rhs, Some(JsonRhs::PerRow(vec![2, 1, 0])));
    let back = parse_json(&text).unwrap();
    assert_eq!(back.constraints(), m.constraints());
    assert_eq!(back.families(), m.families());
}

#[test]
fn sudoku_names_are_safe_and_unique() {
    let m = Sudoku::empty(2).to_model("s").unwrap();
    let names = Names::of(&m);
    assert_eq!(names.variables[0], "x0_r0c0_1");
    assert_eq!(names.rows[16], "row_digit_0");
    let mut all = names.variables.clone();
    all.extend(names.rows.clone());
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n);
    assert!(all
        .iter()
        .all(|s| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')));
}
